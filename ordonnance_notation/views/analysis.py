"""When each state, and the game, was decided, in words and as JSON: what
``ordo analyse`` prints and ``ordo summary`` adds to each state.

``analysis_of`` runs the engine's analysis on a validated record;
``when_decided`` holds it with the plays its turning points name
(``WhenDecided``), and ``analysed`` with the record's place and players
(``RecordAnalysis``); ``render_text`` lays that out for people, ``to_json``
is the JSON format (seats by name, plays as written).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..checking.report import Report
from ..engine.cards import Card, State, seat_name
from ..engine.decisions import Analysis, Loss, StateAnalysis
from ..engine.game import MAX_SEATS
from ..notation.games import PLAY_WORDS
from ..runs.blocks import Block
from ..runs.workers import Pool
from .bestplay import BestPlayView, scored_record
from .judgement import JudgementView, Judging, judged_record, spread_over
from .picture import escape
from .report import Json, Numbered, Player, laid_block, players_named, players_of


def analysis_of(report: Report) -> Analysis | None:
    """The analysis of a record's plays as far as the rules replayed them;
    None when the header or the deal could not be read."""
    game = report.game
    if game is None:
        return None
    from ..engine.analysis import analyse  # here: its tables cost a start-up

    plays = [(turn.card, turn.state) for turn in report.turns]
    return analyse(game.seats, report.deal, plays, report.scoring)


_SPELT = PLAY_WORDS  # each play as ``card state`` (``"LS J"``)


def _seats(seats: frozenset[int]) -> list[str]:
    return [seat_name(s) for s in sorted(seats)]


_FULL_NAMES = [""] + [state.full_name for state in State]  # by value
_OWNED = [f"{seat_name(seat)}'s" for seat in range(MAX_SEATS)]  # "P2's", by seat
_QUOTED = {play: f"`{words}`" for play, words in _SPELT.items()}


def _kept_words(kept: Sequence[tuple[Card, State]]) -> str:
    """`` (`LH C` or `F T` would have kept it)``: the plays that would have kept
    a chance given away, the first three named."""
    others = list(map(_QUOTED.__getitem__, kept[:3]))
    if len(kept) <= 3:
        shown = " or ".join(others)
    else:
        more = len(kept) - 3
        shown = f"{', '.join(others)} or {more} other play{'' if more == 1 else 's'}"
    return f" ({shown} would have kept it)"


@dataclass(frozen=True, slots=True)
class WhenDecided:
    """When each state and the game of a record were decided (``analysis``),
    and the plays replayed, as ``card state`` (``"LS J"``), which the
    turning points quote."""

    analysis: Analysis
    plays: tuple[str, ...]

    @classmethod
    def of(cls, analysis: Analysis, plays: Sequence[tuple[Card, State]]) -> WhenDecided:
        """The analysis of ``plays``, each as (card, state)."""
        return cls(analysis, tuple(map(_SPELT.__getitem__, plays)))

    @property
    def plies(self) -> int:
        return len(self.plays)

    @property
    def ended(self) -> bool:
        """Whether the plays ended the game: every state resolved."""
        return all(part.resolved is not None for part in self.analysis.states)

    def state_sentence(self, state: State) -> str:
        """``Jerusalem was decided at ply 31, 16 plies before it resolved; P2's
        `LS J` at ply 28 gave it away (`LH C` or `F T` would have kept it).``"""
        part = self.analysis.states[state - 1]
        name, decided, resolved = _FULL_NAMES[state], part.decided, part.resolved
        if decided is None:
            said = f"{name} was not decided in the plays recorded"
            if part.can_win:
                seats = _seats(part.can_win)
                either = " or ".join(
                    [", ".join(seats[:-1]), seats[-1]] if len(seats) > 1 else seats
                )
                said += f": {either} could still win it"
        elif decided == 0:
            said = f"{name} was decided before the first play"
        elif resolved is not None and decided == resolved:
            said = f"{name} was decided only as it resolved, at ply {decided}"
        else:
            said = f"{name} was decided at ply {decided}"
            if resolved is not None:
                ahead = resolved - decided
                said += f", {ahead} {'ply' if ahead == 1 else 'plies'} before it resolved"
        turns = self._turnings(part.losses)
        return f"{said}; {'; '.join(turns)}." if turns else said + "."

    def game_sentence(self) -> str:
        """``The game was decided at ply 38 of 40: P1 wins; ...``; of a game
        whose plays ended it, never that it was not decided."""
        analysis = self.analysis
        if analysis.decided is None and self.ended:
            # the analysis lets ties between counts go either way (engine.analysis,
            # "The game"), so it never decides a game that a tie-break wins
            said = f"The game was decided only as it ended, at ply {self.plies}"
        elif analysis.decided is None:
            said = "The game was not decided in the plays recorded"
        else:
            said = f"The game was decided at ply {analysis.decided} of {self.plies}" + (
                f": {seat_name(analysis.winner)} wins" if analysis.winner is not None else ""
            )
        turns = self._turnings(analysis.losses, "the game")
        return f"{said}; {'; '.join(turns)}." if turns else said + "."

    def _turnings(self, losses: Sequence[Loss], what: str = "it") -> list[str]:
        """The turning points in words, in order; the seats one play put out of
        reach in one sentence, where the first of them is. (Written for speed:
        ``ordo summary`` says them of every state of every record.)"""
        plays = self.plays
        said: list[str] = []
        reached: dict[int, tuple[int, int, list[int]]] = {}  # ply -> (its sentence, by, seats)
        for seat, ply, by, kept in losses:
            if seat == by:  # gave it away
                line = f"{_OWNED[seat]} `{plays[ply - 1]}` at ply {ply} gave {what} away"
                said.append(line + _kept_words(kept) if kept else line)
            elif ply in reached:
                reached[ply][2].append(seat)
            else:
                reached[ply] = (len(said), by, [seat])
                said.append("")
        for ply, (n, by, seats) in reached.items():
            out_of = " and ".join([_OWNED[s] for s in seats])
            said[n] = (
                f"{_OWNED[by]} `{plays[ply - 1]}` at ply {ply} put {what} out of {out_of} reach"
            )
        return said

    def to_json(self) -> dict[str, Json]:
        """Each state in the order A C J E T, then the game."""
        analysis = self.analysis
        return {
            "known_deal": analysis.known_deal,
            "plies": self.plies,
            "states": [self._state_json(part) for part in analysis.states],
            "game": {
                "decided": analysis.decided,
                "winner": None if analysis.winner is None else seat_name(analysis.winner),
                "can_win": _seats(analysis.can_win),
                "turning_points": [self._loss_json(loss) for loss in analysis.losses],
            },
        }

    def _state_json(self, part: StateAnalysis) -> dict[str, Json]:
        return {
            "state": part.state.name,
            "name": part.state.full_name,
            "decided": part.decided,
            "resolved": part.resolved,
            "winner": None if part.winner is None else seat_name(part.winner),
            "can_win": _seats(part.can_win),
            "exact": part.exact,
            "turning_points": [self._loss_json(loss) for loss in part.losses],
        }

    def _loss_json(self, loss: Loss) -> dict[str, Json]:
        return {
            "seat": seat_name(loss.seat),
            "ply": loss.ply,
            "by": seat_name(loss.by),
            "play": self.plays[loss.ply - 1],
            "own": loss.own,
            "alternatives": [_SPELT[play] for play in loss.alternatives],
        }


def when_decided(report: Report) -> WhenDecided | None:
    """When each state and the game of a validated record were decided
    (``analysis_of``); None when the header or the deal could not be read."""
    analysis = analysis_of(report)
    if analysis is None:
        return None
    return WhenDecided.of(analysis, [(turn.card, turn.state) for turn in report.turns])


@dataclass(frozen=True, slots=True, repr=False)
class RecordAnalysis:
    """A record's analysis (None: the header or the deal has errors), its
    place and players: what ``ordo analyse`` says of it."""

    file: str
    record: int
    players: tuple[Player, ...]
    valid: bool
    decided: WhenDecided | None
    best: BestPlayView | None = None  # with --best-play
    judged: JudgementView | None = None  # with --judge

    def __str__(self) -> str:
        return render_text(self)

    def __repr__(self) -> str:
        asked = ["when decided"] + ["best play"] * (self.best is not None)
        asked += ["judgement"] * (self.judged is not None)
        return f"<RecordAnalysis of {self.file} #{self.record}: {', '.join(asked)}>"

    def _repr_html_(self) -> str:
        """The words of ``ordo analyse``, and with a judgement its graph."""
        graph = "" if self.judged is None or self.judged.found is None else self.judged.graph()
        return f"<pre>{escape(render_text(self))}</pre>{graph}"

    def to_json(self) -> dict[str, Json]:
        """``ordo analyse --format json``'s entry for the record."""
        out: dict[str, Json] = {
            "file": self.file,
            "record": self.record,
            "players": [player.to_json() for player in self.players],
            "valid": self.valid,
            "decided": None if self.decided is None else self.decided.to_json(),
        }
        if self.judged is not None:
            out["judgement"] = self.judged.to_json()
        if self.best is not None:
            out["best_play"] = self.best.to_json()
        return out


def render_text(data: RecordAnalysis) -> str:
    """One record's analysis for people: a heading, a line per state, the game."""
    names = " v ".join(player.name.strip() or "?" for player in data.players)
    out = [f"{data.file}, record {data.record}" + (f" ({names})" if names else "")]
    decided = data.decided
    if decided is None:
        out.append("  nothing to analyse: the header or the deal has errors")
        return "\n".join(out) + "\n"
    if data.judged is not None:
        out += ["  " + line for line in data.judged.lines()]
    if not decided.analysis.known_deal:
        out.append("  (no deal: each seat's cards to come may be any cards)")
    for part in decided.analysis.states:
        out.append("  " + decided.state_sentence(part.state))
    out.append("  " + decided.game_sentence())
    if data.best is not None:
        out += ["  " + line for line in data.best.lines()]
    return "\n".join(out) + "\n"


def analysed(
    report: Report, budget: float | None = None, judging: Judging | None = None
) -> RecordAnalysis:
    """A record's analysis, its place and players: ``ordo analyse``'s view
    of it; with a ``budget`` (seconds), its plays scored under best play;
    with ``judging``, its plays judged from each seat's view."""
    best = None if budget is None else scored_record(report, budget)
    judged = None if judging is None else judged_record(report, judging)
    return RecordAnalysis(
        report.source,
        report.index,
        players_of(report),
        report.valid,
        when_decided(report),
        best,
        judged,
    )


def quick_analyses(block: Block, record: int) -> list[RecordAnalysis | tuple[int, str]] | None:
    """The analyses of a block's plainly written records from the compiled
    core (``quick.replayed_block``), the others left as ``(first line, text)``."""
    found = replayed_block(block.first_line, block.text, analysed=True)
    if found is None:
        return None
    return [
        _of_replayed(block.source, record, item) if isinstance(item, Replayed) else item
        for item in found
    ]


def _of_replayed(source: str, record: int, replayed: Replayed) -> RecordAnalysis:
    assert replayed.analysis is not None  # asked of the core
    when = WhenDecided.of(replayed.analysis, replayed.plays)
    return RecordAnalysis(source, record, players_named(replayed.names), True, when)


def analyses(
    paths: Sequence[str],
    format: str,
    workers: Pool,
    budget: float | None = None,
    judging: Judging | None = None,
) -> Numbered:
    """Every record's analysis laid out in ``format`` (text or json),
    numbered within each file; with a ``budget``, scored under best play;
    with ``judging``, judged from each seat's view (``spread_over``)."""
    workers, judging = spread_over(workers, judging)
    if budget is None and judging is None:
        lay = partial(
            laid_block, data_of=analysed, render=render_text, format=format, quick=quick_analyses
        )
    else:
        lay = partial(
            laid_block,
            data_of=partial(analysed, budget=budget, judging=judging),
            render=render_text,
            format=format,
        )
    return Numbered(paths, lay, workers, slow=budget is not None or judging is not None)
