"""Validate a record: read it, replay it under the rules, compare what it declares.

Never invent: the replay stops at the first play that cannot be read or is
illegal. Later plays, declared resolutions and the result are then not
checked, and a note (N601) says so; nothing after that point is reported as
if another game had been played.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic, InvalidRecord, Severity
from ..engine.cards import seat_name
from ..engine.game import Deal, Game, IllegalPlay, Table, Turn, Violation
from ..engine.scoring import Outcome, Scoring, score
from ..notation.record import Declared, Play, Record, Unparsed
from .content import (
    SHARED,
    UNFINISHED,
    DeclaredOutcome,
    Reading,
    read,
)


@dataclass(frozen=True, slots=True)
class Report:
    """The verdict on one record. ``game`` is the last position the rules reached
    (None when the header or deal could not be read); ``outcome`` is set only for
    a finished game that was checked to the end."""

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

    @property
    def valid(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)


def validate(item: Record | Unparsed) -> Report:
    """Every diagnostic for one record, and how far the rules got. Never raises for bad input."""
    if isinstance(item, Unparsed):
        return Report(item.source, item.index, item.diagnostics)
    reading = read(item)
    game, turns, stopped = _replay(reading)
    outcome = None
    if game is not None and not stopped:
        outcome = _check_result(reading, game)
    _check_tag_against_line(reading)
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}
    diagnostics = sorted(
        reading.diagnostics,
        key=lambda d: (
            d.span.line if d.span else 0,
            order[d.severity],
            d.span.column if d.span else 0,
        ),
    )
    return Report(
        item.source,
        item.index,
        tuple(diagnostics),
        reading.names,
        game,
        tuple(turns),
        outcome,
        item,
        reading.scoring,
        reading.deal,
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
    Violation.GAME_OVER: "number",
}


def _replay(r: Reading) -> tuple[Game | None, list[Turn], bool]:
    """Play the record's moves in order, checking declared resolutions as they come.
    Returns the last legal game, the turns played, and whether checking stopped early."""
    if r.seats is None or not r.deal_ok or any(d.code == "E207" for d in r.diagnostics):
        if r.record.plays:
            r.add(
                "N601",
                "no play was replayed: the header or the deal has errors",
                r.record.plays[0].span,
            )
        return None, [], True
    if r.deal is None and r.record.plays:
        r.add("N602", "no deal: hands and draws were not checked")
    table = Table(r.seats, r.deal)
    turns: list[Turn] = []
    moves = r.moves  # the plays in order, up to the first that could not be read
    read = 0
    declared_seen: dict = {}
    for element in r.record.elements:
        kind = type(element)
        if kind is Play:
            if read == len(moves) or moves[read].play is not element:
                _stop(r, element, "it could not be read")
                return table.snapshot(), turns, True
            move = moves[read]
            read += 1
            try:
                turn = table.play(move.card, move.state, seat=move.seat, drawn=move.drawn)
            except IllegalPlay as illegal:
                ended = illegal.violation is Violation.GAME_OVER
                blamed = (
                    element
                    if ended
                    else getattr(element, _BLAME[illegal.violation]) or element.card
                )
                r.add(CODES_OF[illegal.violation], illegal.message, blamed.span, table.ply + 1)
                _stop(
                    r,
                    element,
                    "it comes after the end" if ended else "it is illegal",
                    compared=ended,
                )
                # a game that ended can still be scored: its result is compared
                return table.snapshot(), turns, not ended
            turns.append(turn)
        elif kind is Declared:
            _check_declared(r, element, table, declared_seen)
    return table.snapshot(), turns, False


def _stop(r: Reading, play: Play, why: str, compared: bool = False) -> None:
    ply = r.record.plays.index(play) + 1
    later = len(r.record.plays) - ply
    rest = {0: " was", 1: " and the play after it were"}.get(
        later, f" and the {later} plays after it were"
    )
    unchecked = "the declared resolutions from there on" + ("" if compared else " and the result")
    r.add(
        "N601",
        f"replay stops at ply {ply} because {why}: that ply{rest} not replayed, and {unchecked} were not compared",
        play.span,
        ply,
    )


def _check_declared(r: Reading, declared: Declared, table: Table, seen: dict) -> None:
    claim = r.claims.get(id(declared))
    if claim is None:  # its words were reported while reading
        return
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
            f"declares {state.full_name} resolved after ply {table.ply}, but it is not yet (units there: {units})",
            declared.state.span,
        )
        return
    if resolution.winner != seat:
        r.add(
            "E401",
            f"declares {state.full_name} to {seat_name(seat)}, but {seat_name(resolution.winner)} wins it: "
            f"{resolution.decision.explain()}",
            declared.seat.span,
        )
    elif resolution.marker != marker:
        r.add(
            "E402",
            f"declares marker {marker} for {state.full_name}, but it takes marker {resolution.marker} "
            f"(resolved at ply {resolution.ply})",
            declared.marker.span,
        )


def _describe(outcome: DeclaredOutcome) -> str:
    return seat_name(outcome) if isinstance(outcome, int) else outcome


def _check_result(r: Reading, game: Game) -> Outcome | None:
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
                    f'declare it "unfinished" (D6)',
                    span,
                )
        return None
    if not r.scoring_ok:
        r.add(
            "N603",
            f"the game ended at ply {game.ply}, but the result was not compared: the scoring rule has errors",
        )
        return None
    outcome = score(game.seats, game.resolutions, r.scoring)
    actual: DeclaredOutcome = SHARED if outcome.winner is None else outcome.winner
    standing = outcome.describe(r.scoring.unit)
    for declared, span, where in declarations:
        if declared == UNFINISHED:
            r.add(
                "E412",
                f"the {where} declares the game unfinished, but it ended at ply {game.ply}: {standing}",
                span,
            )
        elif declared != actual:
            r.add("E410", f"the {where} declares {_describe(declared)}, but {standing}", span)
    unit = r.scoring.unit
    for seat, value, word in r.result.scores if r.result is not None else ():
        if value != outcome.scores[seat]:
            r.add(
                "E411",
                f"declares {seat_name(seat)}:{value}, but {seat_name(seat)} has {_count(outcome.scores[seat], unit)}",
                word.span,
            )
    return outcome


def _count(n: int, unit: str) -> str:
    return f"{n} {unit if n != 1 else unit[:-1]}"


def _check_tag_against_line(r: Reading) -> None:
    if r.result_tag is None or r.result is None:
        return
    tag_outcome = r.result_tag[0]
    if r.result.outcome != tag_outcome:
        r.add(
            "E414",
            f"the result line says {_describe(r.result.outcome)}, but the Result tag says {_describe(tag_outcome)}",
            r.result.line.outcome.span,
        )
