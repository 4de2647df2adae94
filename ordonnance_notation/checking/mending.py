"""The pile mended: when a seat plays a card it does not hold, the card that
was surely meant instead, or the copying slip in the pile (a card left out,
two neighbours swapped) after which every play of the record is legal (E212).
"""

from __future__ import annotations

from typing import NamedTuple

from ..diagnostics import Diagnostic, Related
from ..engine.cards import Card, seat_name
from ..engine.game import IllegalPlay, Table
from .meaning import Content, Move, Unread


class Mended(NamedTuple):
    """A pile that makes every play legal: ``card`` added as the pile's card
    ``position`` (counted from 0), or, when ``card`` is None, the cards at
    ``position`` and the one after it in the other order."""

    position: int
    card: Card | None


MENDING_BUDGET = 600  # replays tried at most, to keep a broken archive quick to check


def moves_of(r: Content) -> list[Move]:
    """The moves of the body up to the first play that could not be read."""
    moves: list[Move] = []
    for event in r.body:
        if type(event) is Unread:
            break
        if type(event) is Move:
            moves.append(event)
    return moves


def play_fixes(r: Content, table: Table, move: Move) -> list[Card]:
    """The cards the seat to move holds that, played here instead, make every
    play of the record legal: the card meant, when the play was miswritten."""
    if table.hands is None or r.deal is None or r.seats is None:
        return []
    held = table.snapshot().hand_to_play() or ()
    moves = moves_of(r)
    at = table.ply
    here = table.snapshot()  # an illegal play leaves the table as it was
    return [
        card
        for card in dict.fromkeys(held)
        if all_legal(Table.from_game(here), [moves[at]._replace(card=card), *moves[at + 1 :]])
    ]


def mend_pile(r: Content, table: Table, move: Move, transposed: bool) -> Mended | None:
    """A card left out of the pile, or two neighbours written in the wrong
    order (at or above the draw of this ply), after which the whole record
    plays legally, if there is one: such a slip in copying the pile shows
    only plies later, when a seat plays a card the pile as written never gave
    them. (A card miswritten in the pile reads like a miswritten play, which
    is the likelier: that is not tried; nor are two neighbours swapped when
    ``transposed`` is false, as when a card one letter off the one played
    mends the play.) Only piles that bring the card played to the seat by
    this ply are replayed: the pile's card i is drawn at ply i + 1, by seat
    i modulo the seats, while the pile lasts."""
    deal = r.deal
    assert deal is not None and r.seats is not None
    moves = moves_of(r)
    pile = deal.pile
    later = len(moves) - table.ply - 1
    if later < 4:
        return None  # too few plays after it to tell a mended pile from luck
    # a card left out shifts every later draw: it takes draws for each seat to tell
    shifted = min(len(pile) - table.drawn, later) >= 2 * r.seats + 2
    kinds = list(dict.fromkeys(m.card for m in moves[table.ply :])) if shifted else []
    seats, seat, card_played = r.seats, table.ply % r.seats, move.card
    drawn = table.drawn
    gives = {i for i in range(drawn) if pile[i] is card_played and (i + 1) % seats == seat}
    tries = []
    for position in range(min(drawn + 1, len(pile))):  # a card drawn by this ply
        if transposed and position + 1 < min(drawn + 1, len(pile)):
            a, b = pile[position], pile[position + 1]
            if a is not b and (
                (b is card_played and position % seats == seat)
                or (a is card_played and (position + 1) % seats == seat)
            ):
                tries.append(Mended(position, None))
        for card in kinds:
            # the card inserted here, or one the shift moves onto the seat, must be the one played
            if (card is card_played and position % seats == seat) or any(
                i >= position for i in gives
            ):
                tries.append(Mended(position, card))
    if len(tries) > MENDING_BUDGET:
        return None
    # the pile's card p is drawn at ply p + 1: the table before it is the record's own
    before = Table(r.seats, deal)
    for mended in tries:
        p, inserted = mended
        all_legal(before, moves[before.ply : p])
        if inserted is None:
            new_pile = (*pile[:p], pile[p + 1], pile[p], *pile[p + 2 :])
        else:
            new_pile = (*pile[:p], inserted, *pile[p:])
        trial = Table.from_game(before.snapshot())
        trial.pile = new_pile
        if all_legal(trial, moves[p:]):
            return mended
    return None


def all_legal(table: Table, moves: list[Move]) -> bool:
    """Whether ``moves`` can all be played on ``table`` (which they change)."""
    try:
        for m in moves:
            table.play(m.card, m.state, seat=m.seat, drawn=m.drawn)
    except IllegalPlay:
        return False
    return True


def pile_mistake(r: Content, mended: Mended, move: Move, ply: int) -> Diagnostic:
    """E212 at the place in the pile that, mended, makes every play legal."""
    assert r.pile is not None
    words = r.pile.cards
    p, card = mended
    if card is not None:
        where = words[p].span if p < len(words) else words[-1].span
        message = f"the pile seems to lack a card here: with {card} as its card {p + 1}"
        help = f"add {card} to the pile as its card {p + 1}" + (
            f", before {words[p].text}" if p < len(words) else ", at its end"
        )
    else:
        where = words[p].span.to(words[p + 1].span)
        message = f"the pile's cards {p + 1} and {p + 2} seem written in the wrong order: swapped"
        help = f"write `{words[p + 1].text} {words[p].text}`, if that is the order dealt"
    return r.add(
        "E212",
        message + ", every play of the record is legal",
        where,
        help=help,
        related=(
            Related(
                f"ply {ply}: {seat_name((ply - 1) % len(r.names))} plays {move.card}, "
                "which the pile as written never gives them",
                move.play.card.span,
            ),
        ),
    )
