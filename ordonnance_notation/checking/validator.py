"""Validate a record: read it, replay it under the rules, compare what it declares.

Never invent: the replay stops at the first play that cannot be read or is
illegal. Later plays, declared resolutions and the result are then not
checked, and a note (N601) says so; nothing after that point is reported as
if another game had been played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..diagnostics import Diagnostic, InvalidRecord, Severity
from ..engine.cards import State, seat_name
from ..engine.game import Deal, Game, IllegalPlay, Table, Turn, Violation
from ..engine.scoring import Outcome, Scoring, score
from ..notation.record import Play, Record, Unparsed
from .content import (
    SHARED,
    UNFINISHED,
    Claim,
    Content,
    DeclaredOutcome,
    Move,
    Unread,
    content_of,
)


class Step(NamedTuple):
    """The table after a ply of a replay: ``number`` is the ply just played (0
    before the first), ``turn`` what it did and ``play`` the play as written
    (both None at step 0)."""

    number: int
    game: Game
    turn: Turn | None
    play: Play | None


_SHOWN_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}


@dataclass(frozen=True, slots=True)
class Report:
    """The verdict on one record. ``game`` is the last position the rules reached
    (None when the header or deal could not be read); ``outcome`` is set only for
    a finished game that was checked to the end; ``stopped`` is the error at the
    play where the replay stopped, if it did; ``steps`` holds the table after
    every ply when ``validate`` was asked for them."""

    source: str
    index: int
    diagnostics: tuple[Diagnostic, ...]
    names: tuple[str, ...] = ()
    game: Game | None = None
    turns: tuple[Turn, ...] = ()
    outcome: Outcome | None = None
    record: Record | None = None
    scoring: Scoring | None = None
    deal: Deal | None = None
    stopped: Diagnostic | None = None
    steps: tuple[Step, ...] = ()

    @property
    def valid(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def players(self) -> str:
        """`` (Anna v Boris)``, or nothing when the header could not be read."""
        return f" ({' v '.join(name.strip() or '?' for name in self.names)})" if self.names else ""

    @property
    def verdict(self) -> str:
        """What the record amounts to, in a few words."""
        if not self.valid:
            counts = [
                f"{n} {severity.value}{'s' if n != 1 else ''}"
                for severity in Severity
                if (n := self.count(severity))
            ]
            return "invalid: " + ", ".join(counts)
        if self.outcome is None:
            ply = self.game.ply if self.game else 0
            return f"valid, unfinished after ply {ply}"
        return "valid, " + self.outcome.describe(self.scoring.unit if self.scoring else "states")

    def to_json(self) -> dict[str, Any]:
        """The report as ``ordo validate --format json`` prints it."""
        outcome = self.outcome
        return {
            "file": self.source,
            "record": self.index,
            "players": list(self.names),
            "valid": self.valid,
            "finished": outcome is not None,
            "winner": None
            if outcome is None or outcome.winner is None
            else seat_name(outcome.winner),
            "scores": None
            if outcome is None
            else {seat_name(s): v for s, v in enumerate(outcome.scores)},
            "markers": [
                {
                    "marker": r.marker,
                    "state": r.state.name,
                    "seat": seat_name(r.winner),
                    "ply": r.ply,
                }
                for r in (self.game.resolutions if self.game else ())
            ],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def validate(item: Record | Unparsed, steps: bool = False) -> Report:
    """Every diagnostic for one record, and how far the rules got; with
    ``steps``, the table after every ply too. Never raises for bad input."""
    if isinstance(item, Unparsed):
        return Report(item.source, item.index, item.diagnostics)
    content = content_of(item)
    replayed = _replay(content, steps)
    outcome = None
    if replayed.game is not None and replayed.compare_result:
        outcome = _check_result(content, replayed.game)
    _check_tag_against_line(content)
    diagnostics = sorted(
        content.diagnostics,
        key=lambda d: (
            d.span.line if d.span else 0,
            _SHOWN_ORDER[d.severity],
            d.span.column if d.span else 0,
        ),
    )
    return Report(
        item.source,
        item.index,
        tuple(diagnostics),
        content.names,
        replayed.game,
        tuple(replayed.turns),
        outcome,
        item,
        content.scoring,
        content.deal,
        replayed.stopped,
        tuple(replayed.steps),
    )


def check(item: Record | Unparsed) -> Report:
    """Like ``validate``, but raises InvalidRecord when the record has an error."""
    report = validate(item)
    if not report.valid:
        raise InvalidRecord(tuple(d for d in report.diagnostics if d.severity is Severity.ERROR))
    return report


CODES_OF = {
    Violation.OUT_OF_TURN: "E301",
    Violation.NOT_IN_HAND: "E302",
    Violation.STATE_FULL: "E303",
    Violation.GAME_OVER: "E304",
    Violation.WRONG_DRAW: "E305",
}
_BLAME = {
    Violation.OUT_OF_TURN: "seat",
    Violation.NOT_IN_HAND: "card",
    Violation.STATE_FULL: "state",
    Violation.WRONG_DRAW: "drawn",
}


@dataclass(slots=True)
class _Replayed:
    """How far the rules got: the last legal game (None when the header or the
    deal has errors), the turns played, the error that stopped the replay, and
    whether the result can be compared (the game was replayed to its end, or
    only plays after its end were refused)."""

    game: Game | None = None
    turns: list[Turn] = field(default_factory=list)
    stopped: Diagnostic | None = None
    compare_result: bool = False
    steps: list[Step] = field(default_factory=list)


def _replay(r: Content, steps: bool) -> _Replayed:
    """Play the record's moves in order on one table, checking declared
    resolutions as they come."""
    replayed = _Replayed()
    if r.seats is None or not r.deal_ok:
        if r.record.plays:
            r.add(
                "N601",
                "no play was replayed: the header or the deal has errors",
                r.record.plays[0].span,
            )
        return replayed
    if r.deal is None and r.record.plays:
        r.add("N602", "no deal: hands and draws were not checked")
    table = Table(r.seats, r.deal)
    if steps:
        replayed.steps.append(Step(0, table.snapshot(), None, None))
    turns = replayed.turns
    declared_seen: dict[State, int] = {}
    played = 0  # plays walked so far
    for event in r.body:
        if type(event) is Claim:
            _check_declared(r, event, table, declared_seen)
            continue
        played += 1
        if type(event) is Unread:
            _stop(r, event.play, played, "it could not be read")
            replayed.stopped = event.stop
            break
        assert type(event) is Move
        play = event.play
        try:
            turn = table.play(event.card, event.state, seat=event.seat, drawn=event.drawn)
        except IllegalPlay as illegal:
            ended = illegal.violation is Violation.GAME_OVER
            blamed = play if ended else getattr(play, _BLAME[illegal.violation]) or play.card
            code = CODES_OF[illegal.violation]
            replayed.stopped = r.add(code, illegal.message, blamed.span, table.ply + 1)
            _stop(r, play, played, "it comes after the end" if ended else "it is illegal", ended)
            replayed.compare_result = ended  # a game that ended can still be scored
            break
        turns.append(turn)
        if steps:
            replayed.steps.append(Step(turn.ply, table.snapshot(), turn, play))
    else:
        replayed.compare_result = True
    replayed.game = table.snapshot()
    return replayed


def _stop(r: Content, play: Play, ply: int, why: str, compared: bool = False) -> None:
    later = len(r.record.plays) - ply
    rest = {0: " was", 1: " and the play after it were"}.get(
        later, f" and the {later} plays after it were"
    )
    unchecked = "the declared resolutions from there on" + ("" if compared else " and the result")
    r.add(
        "N601",
        f"replay stops at ply {ply} because {why}: that ply{rest} not replayed, "
        f"and {unchecked} were not compared",
        play.span,
        ply,
    )


def _check_declared(r: Content, claim: Claim, table: Table, seen: dict[State, int]) -> None:
    declared = claim.element
    state, seat, marker = claim.state, claim.seat, claim.marker
    if state in seen:
        r.add(
            "E404",
            f"{state.full_name} was already declared resolved at line {seen[state]}",
            declared.span,
        )
        return
    seen[state] = declared.span.line
    resolution = table.resolution(state)
    if resolution is None:
        units = ", ".join(f"{seat_name(s)} {table.count(state, s)}" for s in range(table.seats))
        r.add(
            "E403",
            f"declares {state.full_name} resolved after ply {table.ply}, "
            f"but it is not yet (units there: {units})",
            declared.state.span,
        )
        return
    if resolution.winner != seat:
        r.add(
            "E401",
            f"declares {state.full_name} to {seat_name(seat)}, "
            f"but {seat_name(resolution.winner)} wins it: {resolution.decision.explain()}",
            declared.seat.span,
        )
    elif resolution.marker != marker:
        r.add(
            "E402",
            f"declares marker {marker} for {state.full_name}, "
            f"but it takes marker {resolution.marker} (resolved at ply {resolution.ply})",
            declared.marker.span,
        )


def _describe(outcome: DeclaredOutcome) -> str:
    return seat_name(outcome) if isinstance(outcome, int) else outcome


def _check_result(r: Content, game: Game) -> Outcome | None:
    declarations = []
    if r.result_tag is not None:
        declarations.append((r.result_tag[0], r.result_tag[1].span, "Result tag"))
    if r.result is not None:
        declarations.append((r.result.outcome, r.result.line.outcome.span, "result line"))
    if not game.over:
        r.add(
            "W501",
            f"unfinished game: {len(game.resolutions)} of 5 states resolved after ply {game.ply}",
        )
        for declared, span, where in declarations:
            if declared != UNFINISHED:
                r.add(
                    "E413",
                    f"the {where} declares {_describe(declared)}, but the game is unfinished: "
                    'declare it "unfinished"',
                    span,
                )
        return None
    if not r.scoring_ok:
        r.add(
            "N603",
            f"the game ended at ply {game.ply}, but the result was not compared: "
            "the scoring rule has errors",
        )
        return None
    outcome = score(game.seats, game.resolutions, r.scoring)
    actual: DeclaredOutcome = SHARED if outcome.winner is None else outcome.winner
    standing = outcome.describe(r.scoring.unit)
    for declared, span, where in declarations:
        if declared == UNFINISHED:
            r.add(
                "E412",
                f"the {where} declares the game unfinished, "
                f"but it ended at ply {game.ply}: {standing}",
                span,
            )
        elif declared != actual:
            r.add("E410", f"the {where} declares {_describe(declared)}, but {standing}", span)
    unit = r.scoring.unit
    for seat, value, word in r.result.scores if r.result is not None else ():
        if value != outcome.scores[seat]:
            r.add(
                "E411",
                f"declares {seat_name(seat)}:{value}, "
                f"but {seat_name(seat)} has {_count(outcome.scores[seat], unit)}",
                word.span,
            )
    return outcome


def _count(n: int, unit: str) -> str:
    return f"{n} {unit if n != 1 else unit[:-1]}"


def _check_tag_against_line(r: Content) -> None:
    if r.result_tag is None or r.result is None:
        return
    tag_outcome = r.result_tag[0]
    if r.result.outcome != tag_outcome:
        r.add(
            "E414",
            f"the result line says {_describe(r.result.outcome)}, "
            f"but the Result tag says {_describe(tag_outcome)}",
            r.result.line.outcome.span,
        )
