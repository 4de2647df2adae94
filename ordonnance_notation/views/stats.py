"""Statistics over validated records: who wins, how, and when.

Only valid, finished records count; the others are tallied as skipped.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..checking.batch import Block, block_chunks
from ..checking.validator import Report, validate
from ..diagnostics import InputError
from ..engine.armies import LEVELS, Decision
from ..engine.cards import seat_name
from ..engine.scoring import DEFAULT_POINTS, Scoring, TieBreak, score
from ..notation.parser import parse_chunks


def deciding_step(decision: Decision) -> str:
    """``"regiment count"``, ``"battalion seniority"``, ... or ``"earlier fourth card"``."""
    if decision.level is None:
        return "earlier fourth card"
    return f"{decision.level.word} {'count' if decision.by_count else 'seniority'}"


def best_formation(decision: Decision) -> str:
    """The winning army's strongest formation, e.g. ``"regiment F"``."""
    formations = decision.winner.formations
    for level in LEVELS:
        icons = formations.at(level)
        if icons:
            return f"{level.word} {icons[0].name}"
    return "no formation"


def _no_plies() -> list[int]:
    return [0, 0]


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
    # (factories by name, so that statistics can be sent between processes)

    def add(self, report: Report) -> None:
        self.sources.add(report.source)
        if not report.valid or report.outcome is None or report.game is None:
            self.skipped += 1
            self.invalid += not report.valid
            return
        game, outcome = report.game, report.outcome
        seats = game.seats
        self.games += 1
        self.by_seats[seats] += 1
        self.wins[seats][seat_name(outcome.winner) if outcome.winner is not None else "shared"] += 1
        self.shared += outcome.winner is None
        rule = "points" if report.scoring is not None and report.scoring.is_points else "classic"
        self.by_rule[rule] += 1
        classic = score(seats, game.resolutions, Scoring.classic())
        table = (
            report.scoring.points
            if report.scoring is not None and report.scoring.points
            else DEFAULT_POINTS
        )
        points = score(seats, game.resolutions, Scoring.by_points(table))
        self.disagreements += classic.winner != points.winner
        self.later_capture += outcome.tie_break is TieBreak.LATER_CAPTURE
        for resolution in game.resolutions:
            decision = resolution.decision
            self.steps[deciding_step(decision)] += 1
            self.formations[best_formation(decision)] += 1
            total = self.marker_plies[seats][resolution.marker]
            total[0] += resolution.ply
            total[1] += 1

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

    def to_json(self) -> dict[str, Any]:
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


def collect(reports: Iterable[Report]) -> Stats:
    stats = Stats()
    for report in reports:
        stats.add(report)
    return stats


def stats_block(block: Block) -> Stats | InputError:
    """The statistics of the records of one block (on a worker), to be merged
    in order; the block's problem, if it is one."""
    if block.problem is not None:
        return block.problem
    return collect(validate(item) for item in parse_chunks(block_chunks(block), block.source))


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


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
        cells = "  ".join(f"{seat} {n} ({_percent(n, total)})" for seat, n in sorted(wins.items()))
        out.append(f"  {seats} seats, {total} games: {cells}")
    out += ["", "scoring rules"]
    out += [f"  {rule}: {n} games" for rule, n in sorted(stats.by_rule.items())]
    out.append(
        f"  classic and points name different winners: {stats.disagreements} "
        f"({_percent(stats.disagreements, stats.games)})"
    )
    out.append(
        f"  decided by the later-capture tie-break: {stats.later_capture} "
        f"({_percent(stats.later_capture, stats.games)})"
    )
    if stats.shared:
        out.append(f"  shared wins: {stats.shared}")
    states = sum(stats.steps.values())
    out += ["", f"what decided each state ({states} states)"]
    out += [f"  {step}: {n} ({_percent(n, states)})" for step, n in stats.steps.most_common()]
    out += ["", "winning army's strongest formation"]
    out += [f"  {name}: {n} ({_percent(n, states)})" for name, n in stats.formations.most_common()]
    out += ["", "average ply at which each marker was placed"]
    for seats, markers in sorted(stats.marker_plies.items()):
        cells = "  ".join(f"#{m} {p[0] / p[1]:.1f}" for m, p in sorted(markers.items()))
        out.append(f"  {seats} seats (last ply {20 * seats}): {cells}")
    return "\n".join(out) + "\n"
