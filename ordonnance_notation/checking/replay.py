"""The replay: a record's moves played in order on one table under the rules,
each declared resolution compared as it comes (E3xx, E401 to E404).

Never invent: the replay stops at the first play that cannot be read or is
illegal, and a note (N601) says what was then not compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Related
from ..engine.cards import State, card_spelt, seat_name
from ..engine.game import Game, IllegalPlay, Table, Turn, Violation
from ..notation.record import Hand, Span
from .meaning import Claim, Content, Move, Unread
from .mending import mend_pile, pile_mistake, play_fixes
from .report import Step
from .rule_help import one_icon_off, rule_help

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
class Replayed:
    """How far the rules got: the last legal game (None when the header or the
    deal has errors), the turns played, the error that stopped the replay, and
    whether the result can be compared (the game was replayed to its end, or
    only plays after its end were refused)."""

    game: Game | None = None
    turns: list[Turn] = field(default_factory=list)
    stopped: Diagnostic | None = None
    compare_result: bool = False
    steps: list[Step] = field(default_factory=list)


def replay(r: Content, steps: bool) -> Replayed:
    """Play the record's moves in order on one table, checking declared
    resolutions as they come."""
    replayed = Replayed()
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
    turns, play_on = replayed.turns, table.play
    declared_seen: dict[State, int] = {}
    played = 0  # plays walked so far
    for event in r.body:
        if type(event) is Claim:
            _check_declared(r, event, table, declared_seen)
            continue
        played += 1
        if type(event) is Unread:
            _stop(r, event.span, played, "it could not be read")
            replayed.stopped = event.stop
            break
        assert type(event) is Move
        play, card, state, seat, drawn = event
        try:
            turn = play_on(card, state, seat=seat, drawn=drawn)
        except IllegalPlay as illegal:
            ended = illegal.violation is Violation.GAME_OVER
            mended, fixes = None, []
            if illegal.violation is Violation.NOT_IN_HAND:
                fixes = play_fixes(r, table, event)
                near = [c for c in one_icon_off(event.card, table) if c in fixes]
                if len(fixes) != 1:  # no one card is surely meant: the pile may be wrong
                    mended = mend_pile(r, table, event, transposed=not near)
            if mended is not None:
                replayed.stopped = pile_mistake(r, mended, event, table.ply + 1)
            else:
                blamed = play if ended else getattr(play, _BLAME[illegal.violation]) or play.card
                replayed.stopped = r.add(
                    CODES_OF[illegal.violation],
                    illegal.message,
                    blamed.span,
                    table.ply + 1,
                    help=rule_help(r, illegal.violation, event, table, fixes),
                    related=_pile_places(r, table, illegal.violation, event),
                )
            _stop(
                r, play.span, played, "it comes after the end" if ended else "it is illegal", ended
            )
            replayed.compare_result = ended  # a game that ended can still be scored
            break
        turns.append(turn)
        if steps:
            replayed.steps.append(Step(turn.ply, table.snapshot(), turn, play))
    else:
        replayed.compare_result = True
    replayed.game = table.snapshot()
    return replayed


def _pile_places(r: Content, table: Table, violation: Violation, move: Move) -> tuple[Related, ...]:
    """The places of the pile that explain a draw or a card not held: the
    card this turn draws, where the played card lies in the pile (and who
    drew it, at which ply), or the pile's end when every card is drawn."""
    if r.pile is None or not r.pile.cards or table.pile is None:
        return ()
    words, pile, drawn = r.pile.cards, table.pile, table.drawn
    if drawn >= len(pile):
        return (Related(f"the pile ends here, after {len(pile)} cards", words[-1].span),)
    if violation is Violation.WRONG_DRAW:
        return (
            Related(
                f"the pile's card {drawn + 1}, which ply {table.ply + 1} draws", words[drawn].span
            ),
        )
    if violation is not Violation.NOT_IN_HAND:
        return ()
    # every ply draws while the pile lasts: the pile's card i is drawn at ply i + 1
    at = [i for i, card in enumerate(pile) if card is move.card]
    before = [i for i in at if i < drawn]
    if before:
        i = before[-1]
        seat = seat_name(i % table.seats)
        return (
            Related(
                f"{move.card}: the pile's card {i + 1}, drawn by {seat} at ply {i + 1}",
                words[i].span,
            ),
        )
    if at:
        i = at[0]
        return (
            Related(
                f"{move.card}: the pile's card {i + 1}, not drawn before ply {i + 1}", words[i].span
            ),
        )
    for hand in (e for e in r.record.elements if isinstance(e, Hand)):
        for word in hand.cards:
            if card_spelt(word.text) is move.card:
                return (Related(f"{move.card}: dealt to {hand.seat.text}", word.span),)
    return ()


def _stop(r: Content, span: Span, ply: int, why: str, compared: bool = False) -> None:
    later = sum(1 for play in r.record.plays if play.span.line > span.line)
    rest = {0: " was", 1: " and the play after it were"}.get(
        later, f" and the {later} plays after it were"
    )
    unchecked = "the declared resolutions from there on" + ("" if compared else " and the result")
    r.add(
        "N601",
        f"replay stops at ply {ply} because {why}: that ply{rest} not replayed, "
        f"and {unchecked} were not compared",
        span,
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
            help="declare each state once, after the play that resolves it; remove this line",
        )
        return
    resolution = table.resolution(state)
    if resolution is None:
        units = ", ".join(f"{seat_name(s)} {table.count(state, s)}" for s in range(table.seats))
        r.add(
            "E403",
            f"declares {state.full_name} resolved after ply {table.ply}, "
            f"but it is not yet (units there: {units})",
            declared.state.span,
            help="a state is resolved when every seat has four units there: "
            "check the state, or move the line below the play that resolves it",
        )
        return  # not counted as declared: a right declaration later is no repeat
    seen[state] = declared.span.line
    winner = resolution.winner
    if winner == seat and resolution.marker == marker:
        return  # as declared: the usual case
    written = f"#{resolution.marker} {state.name} {seat_name(winner)}"
    if winner != seat:
        r.add(
            "E401",
            f"declares {state.full_name} to {seat_name(seat)}, "
            f"but {seat_name(winner)} wins it: {resolution.decision.explain()}",
            declared.seat.span,
            help=f"write `{written}`",
        )
    else:
        r.add(
            "E402",
            f"declares marker {marker} for {state.full_name}, "
            f"but it takes marker {resolution.marker} (resolved at ply {resolution.ply})",
            declared.marker.span,
            help=f"markers go 1 to 5 in the order states are resolved: write `{written}`",
        )
