"""Statistics over validated records: who wins, how, and when.

Only valid, finished records count; the others are tallied as skipped.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import cache, lru_cache
from typing import NamedTuple

from ..checking.dates import Date, read_date
from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..checking.report import Report
from ..checking.validator import validate
from ..engine.armies import (
    LEVELS,
    Decision,
    Formations,
    Level,
    by_count,
    deciding_level,
    formations_of,
)
from ..engine.cards import seat_name
from ..engine.scoring import Outcome, TieBreak
from ..notation.parser import parse_chunks
from ..runs.blocks import Block, block_chunks
from .report import Json, percent, plural


def deciding_step(decision: Decision) -> str:
    """``"regiment count"``, ``"battalion seniority"``, ... or ``"earlier fourth card"``."""
    return _step(decision.level, decision.by_count)


def _step(level: Level | None, by_count: bool) -> str:
    if level is None:
        return "earlier fourth card"
    return f"{level.word} {'count' if by_count else 'seniority'}"


def best_formation(decision: Decision) -> str:
    """The winning army's strongest formation, e.g. ``"regiment F"``."""
    return _strongest(decision.winner.formations)


def _strongest(formations: Formations) -> str:
    for level in LEVELS:
        icons = formations.at(level)
        if icons:
            return f"{level.word} {icons[0].name}"
    return "no formation"


@lru_cache(maxsize=1 << 16)
def deciding_words(winner: int, runner_up: int) -> tuple[str, str]:
    """``deciding_step`` and ``best_formation`` of a state's first two armies,
    given by their packed icon counts (``armies.PACKED``): kept, as the
    same armies come again."""
    return _formations_words(formations_of(winner), formations_of(runner_up))


@cache
def _formations_words(mine: Formations, theirs: Formations) -> tuple[str, str]:
    level = deciding_level(mine, theirs)
    return _step(level, by_count(level, mine, theirs)), _strongest(mine)


def _no_plies() -> list[int]:
    return [0, 0]


@dataclass(slots=True)
class Standing:
    """A player's games of one kind (seats, scoring rule): how many, the
    wins (``shared``: the wins shared), and the states and points taken."""

    player: str
    seats: int
    scoring: str  # classic or points
    games: int = 0
    wins: int = 0
    shared: int = 0
    states: int = 0
    points: int = 0  # under points scoring

    def add(self, other: Standing) -> None:
        """Counts ``other``'s games (of the same player and kind) here too."""
        self.games += other.games
        self.wins += other.wins
        self.shared += other.shared
        self.states += other.states
        self.points += other.points

    def to_json(self) -> dict[str, Json]:
        return asdict(self)


class Played(NamedTuple):
    """A finished game as the ratings need it: when, who, and each seat's place (0: won)."""

    date: Date | None
    names: tuple[str, ...]
    places: tuple[int, ...]


def places(outcome: Outcome) -> tuple[int, ...]:
    """Each seat's place: 0 for the winner (every seat that shares the win),
    then by score, equal scores sharing a place."""
    top = (
        (outcome.winner,)
        if outcome.winner is not None
        else tuple(s for s, v in enumerate(outcome.scores) if v == max(outcome.scores))
    )
    rest = [v for s, v in enumerate(outcome.scores) if s not in top]
    return tuple(
        0 if seat in top else 1 + sum(1 for v in rest if v > value)
        for seat, value in enumerate(outcome.scores)
    )


def _markers() -> defaultdict[int, list[int]]:
    return defaultdict(_no_plies)


@dataclass
class Stats:
    games: int = 0
    skipped: int = 0  # invalid or unfinished records
    invalid: int = 0  # of those skipped
    sources: set[str] = field(default_factory=set)  # the inputs that held a record
    by_seats: Counter[int] = field(default_factory=Counter)
    wins: dict[int, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )  # seats -> winner -> n
    by_rule: Counter[str] = field(default_factory=Counter)
    shared: int = 0
    disagreements: int = 0  # classic and points scoring name different winners
    later_capture: int = 0  # the game's own result went to the later-capture rule
    steps: Counter[str] = field(default_factory=Counter)
    formations: Counter[str] = field(default_factory=Counter)
    marker_plies: dict[int, dict[int, list[int]]] = field(
        default_factory=lambda: defaultdict(_markers)
    )  # seats -> marker -> [sum of the plies, count]: flat, whatever the archive's size
    by_player: bool = False  # keep the standings
    rated: bool = False  # and every game's places, in order, for the ratings
    # by (player, seats, rule):
    standings: dict[tuple[str, int, str], Standing] = field(default_factory=dict)
    played: list[Played] = field(default_factory=list)
    # (factories by name, so that statistics can be sent between processes)

    def add(self, report: Report) -> None:
        if not report.valid or report.outcome is None or report.game is None:
            self.sources.add(report.source)
            self.skipped += 1
            self.invalid += not report.valid
            return
        self.add_replayed(report.source, Replayed.of(report))

    def add_replayed(self, source: str, replayed: Replayed) -> None:
        """A valid, finished record, from what the compiled core found of it
        or the Python path (``Replayed.of``)."""
        self.sources.add(source)
        why = [
            (ply, *deciding_words(places[0][2], places[1][2]))
            for (_, _, _, ply), places in zip(replayed.markers, replayed.ranked, strict=True)
        ]
        rule = "points" if replayed.scoring.is_points else "classic"
        classic, points = replayed.by_rule
        date = replayed.tag("Date")
        self._add_game(replayed.names, replayed.outcome, rule, classic != points, why, date)

    def _add_game(
        self,
        names: tuple[str, ...],
        outcome: Outcome,
        rule: str,
        differ: bool,
        why: list[tuple[int, str, str]],
        date: str | None,
    ) -> None:
        """A valid, finished game of ``names`` (by seat): its outcome under
        its ``rule``, whether classic and points scoring name different
        winners, for each marker in order the ply, the deciding step and
        the winner's best formation, and its Date tag."""
        seats = len(names)
        self.games += 1
        self.by_seats[seats] += 1
        self.wins[seats][seat_name(outcome.winner) if outcome.winner is not None else "shared"] += 1
        self.shared += outcome.winner is None
        self.by_rule[rule] += 1
        self.disagreements += differ
        self.later_capture += outcome.tie_break is TieBreak.LATER_CAPTURE
        if self.by_player:
            self._add_players(names, date, outcome, rule)
        for marker, (ply, step, formation) in enumerate(why, 1):
            self.steps[step] += 1
            self.formations[formation] += 1
            total = self.marker_plies[seats][marker]
            total[0] += ply
            total[1] += 1

    def _add_players(
        self, names: tuple[str, ...], date: str | None, outcome: Outcome, rule: str
    ) -> None:
        names = tuple(name.strip() or "(no name)" for name in names)
        for seat, name in enumerate(names):
            line = self._standing(name, len(names), rule)
            line.games += 1
            line.wins += outcome.winner == seat
            line.shared += outcome.winner is None and seat in outcome.tied
            line.states += outcome.states[seat]
            line.points += outcome.scores[seat] if rule == "points" else 0
        if self.rated:
            self.played.append(Played(read_date(date or ""), names, places(outcome)))

    def _standing(self, player: str, seats: int, rule: str) -> Standing:
        key = player, seats, rule
        line = self.standings.get(key)
        if line is None:
            line = self.standings[key] = Standing(player, seats, rule)
        return line

    def merge(self, other: Stats) -> None:
        """Adds the statistics of records read after these: the same as adding
        their reports here one by one, ties in order of first sight included."""
        self.games += other.games
        self.skipped += other.skipped
        self.invalid += other.invalid
        self.sources |= other.sources
        self.by_seats.update(other.by_seats)
        for seats, wins in other.wins.items():
            self.wins[seats].update(wins)
        self.by_rule.update(other.by_rule)
        self.shared += other.shared
        self.disagreements += other.disagreements
        self.later_capture += other.later_capture
        self.steps.update(other.steps)
        self.formations.update(other.formations)
        for seats, markers in other.marker_plies.items():
            for marker, (plies, count) in markers.items():
                total = self.marker_plies[seats][marker]
                total[0] += plies
                total[1] += count
        for (player, seats, rule), line in other.standings.items():
            self._standing(player, seats, rule).add(line)
        self.played.extend(other.played)

    def standing_rows(self) -> list[Standing]:
        """A row per player and kind of game (seats, scoring rule), best first."""
        return sorted(self.standings.values(), key=_standing_order)

    def standings_json(self) -> list[dict[str, Json]]:
        """``standing_rows`` as ``ordo stats --by player --format json`` writes them."""
        return [row.to_json() for row in self.standing_rows()]

    def to_json(self) -> dict[str, Json]:
        return {
            "games": self.games,
            "skipped": self.skipped,
            "invalid": self.invalid,
            "games_by_seats": {str(k): v for k, v in sorted(self.by_seats.items())},
            "wins": {str(seats): dict(sorted(c.items())) for seats, c in sorted(self.wins.items())},
            "games_by_rule": dict(sorted(self.by_rule.items())),
            "shared": self.shared,
            "classic_points_disagree": self.disagreements,
            "decided_by_later_capture": self.later_capture,
            "deciding_steps": dict(self.steps.most_common()),
            "winning_formations": dict(self.formations.most_common()),
            "average_marker_ply": {
                str(seats): {str(m): round(p[0] / p[1], 2) for m, p in sorted(markers.items())}
                for seats, markers in sorted(self.marker_plies.items())
            },
        }


def _standing_order(row: Standing) -> tuple[object, ...]:
    return (
        row.seats,
        row.scoring,
        -row.wins,
        -row.wins / row.games,
        -row.points,
        -row.states,
        row.player,
    )


def collect(reports: Iterable[Report], by_player: bool = False, rated: bool = False) -> Stats:
    stats = Stats(by_player=by_player, rated=rated)
    for report in reports:
        stats.add(report)
    return stats


def stats_block(block: Block, by_player: bool = False, rated: bool = False) -> Stats:
    """The statistics of the records of one block (on a worker), to be merged
    in order: of those the compiled core accepts, from what it found, of
    the others from their reports (both as ``Replayed``)."""
    found = None if block.one_record else replayed_block(block.first_line, block.text)
    if found is None:
        reports = (validate(item) for item in parse_chunks(block_chunks(block), block.source))
        return collect(reports, by_player, rated)
    stats = Stats(by_player=by_player, rated=rated)
    for item in found:
        if isinstance(item, Replayed):
            stats.add_replayed(block.source, item)
            continue
        for parsed in parse_chunks((item,), block.source):
            stats.add(validate(parsed))
    return stats


def render_standings(stats: Stats) -> str:
    """A table of players for each kind of game (seats and scoring rule), most wins first."""
    out: list[str] = []
    rows = stats.standing_rows()
    seated: Counter[tuple[int, str]] = Counter()  # a game is counted once for each seat
    for row in rows:
        seated[row.seats, row.scoring] += row.games
    kind = None
    for row in rows:
        if (row.seats, row.scoring) != kind:
            kind = row.seats, row.scoring
            unit = "points" if row.scoring == "points" else "states"
            games = seated[kind] // row.seats
            out += [
                *([""] if out else []),
                f"standings: {row.seats} seats, {row.scoring} scoring ({plural(games, 'game')})",
                f"  {'player':<24} {'games':>6} {'wins':>6} {'win %':>6} {unit:>7} {'per game':>8}",
            ]
        total = row.points if row.scoring == "points" else row.states
        shared = f" (+{row.shared} shared)" if row.shared else ""
        out.append(
            f"  {row.player[:24]:<24} {row.games:>6} {row.wins:>6} "
            f"{percent(row.wins, row.games):>6} {total:>7} {total / row.games:>8.2f}{shared}"
        )
    return "\n".join(out) + "\n" if out else "no finished, valid game to stand on\n"


def render_text(stats: Stats) -> str:
    """Plain text tables, the same on a terminal and in a file."""
    out = [
        f"games: {stats.games} finished and valid, {stats.skipped} skipped "
        f"({stats.invalid} invalid, {stats.skipped - stats.invalid} unfinished)"
    ]
    if not stats.games:
        return "\n".join(out) + "\n"
    out += ["", "wins by seat"]
    for seats, wins in sorted(stats.wins.items()):
        total = stats.by_seats[seats]
        cells = "  ".join(f"{seat} {n} ({percent(n, total)})" for seat, n in sorted(wins.items()))
        out.append(f"  {seats} seats, {total} games: {cells}")
    out += ["", "scoring rules"]
    out += [f"  {rule}: {n} games" for rule, n in sorted(stats.by_rule.items())]
    out.append(
        f"  classic and points name different winners: {stats.disagreements} "
        f"({percent(stats.disagreements, stats.games)})"
    )
    out.append(
        f"  decided by the later-capture tie-break: {stats.later_capture} "
        f"({percent(stats.later_capture, stats.games)})"
    )
    if stats.shared:
        out.append(f"  shared wins: {stats.shared}")
    states = sum(stats.steps.values())
    out += ["", f"what decided each state ({states} states)"]
    out += [f"  {step}: {n} ({percent(n, states)})" for step, n in stats.steps.most_common()]
    out += ["", "winning army's strongest formation"]
    out += [f"  {name}: {n} ({percent(n, states)})" for name, n in stats.formations.most_common()]
    out += ["", "average ply at which each marker was placed"]
    for seats, markers in sorted(stats.marker_plies.items()):
        cells = "  ".join(f"#{m} {p[0] / p[1]:.1f}" for m, p in sorted(markers.items()))
        out.append(f"  {seats} seats (last ply {20 * seats}): {cells}")
    return "\n".join(out) + "\n"
