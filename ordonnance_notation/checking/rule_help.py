"""How to mend an illegal play, in the words of the rule it broke: the help
of E301 to E305."""

from __future__ import annotations

from ..engine.cards import Card, State, seat_name
from ..engine.game import Table, Violation
from .meaning import Content, Move


def one_icon_off(card: Card, table: Table) -> list[Card]:
    """The cards the seat to move holds (with its draw) that differ from
    ``card`` by one icon: the card meant, when a letter was left out or added."""
    held = table.snapshot().hand_to_play() or ()  # only when a play went wrong
    return [c for c in dict.fromkeys(held) if (c.mask ^ card.mask).bit_count() == 1]


def rule_help(r: Content, violation: Violation, move: Move, table: Table, fixes: list[Card]) -> str:
    """How to mend an illegal play, in the words of what went wrong; ``fixes``
    are the cards that, played instead, make the record legal."""
    mover = seat_name(table.ply % table.seats)
    if violation is Violation.OUT_OF_TURN:
        return (
            f"seats play in turn, P1 first: ply {table.ply + 1} is {mover}'s; "
            "check the seat, or whether a play above is missing or doubled"
        )
    if violation is Violation.NOT_IN_HAND:
        meant = one_icon_off(move.card, table) or (fixes if len(fixes) == 1 else [])
        if meant:
            held = " or ".join(str(c) for c in meant)
            return (
                f"did you mean {held}? {mover} holds it; "
                f"or, if {move.card} was played, the deal is not as dealt"
            )
        if (
            table.pile is not None
            and table.drawn >= len(table.pile)
            and r.deal is not None
            and r.deal.short
        ):
            return (
                f"the pile lists {len(table.pile)} cards and all are drawn: a deal that "
                "stops short must list every card drawn, so add the later draws to the pile"
            )
        return (
            f"check the card and the plays above; if {mover} really holds it, "
            "the deal (hands and pile) is not as dealt"
        )
    if violation is Violation.STATE_FULL:
        seat = table.ply % table.seats
        open_ = " ".join(s.name for s in State if table.count(s, seat) < 4)
        return f"an army holds four units: check the state; {mover} can still play to {open_}"
    if violation is Violation.WRONG_DRAW:
        if table.pile is not None and table.drawn >= len(table.pile):
            return (
                f"the pile lists {len(table.pile)} cards and all are drawn: if the deal stops "
                f"short, add {move.drawn} at the pile's end"
            )
        return (
            f"the pile's next card is {table.pile[table.drawn]}: write `+{table.pile[table.drawn]}`"
            " (or leave the draw out), or check the pile"
            if table.pile is not None
            else "check the draw"
        )
    return "the game ended with the fifth marker: check the plays above, or remove this one"
