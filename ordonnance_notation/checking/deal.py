"""The deal read: each seat's hand and the draw pile (E211, E212), and a
first play written without its number below the pile (E101)."""

from __future__ import annotations

from ..diagnostics import Diagnostic, Related
from ..engine.cards import Card, seat_name, spells_a_play
from ..engine.game import HAND_SIZE, Deal
from ..notation.record import Pile, Record
from .meaning import Content
from .words import read_cards, seat_index, seat_of


def read_deal(r: Content) -> None:
    assert r.seats is not None
    hands_written = r.layout.hands
    piles = r.layout.piles
    if not hands_written and not piles:
        return
    errors_before = len(r.diagnostics)
    hands: dict[int, tuple[Card, ...]] = {}
    named = [seat_index(h.seat.text, r.seats) for h in hands_written]
    unnamed = [s for s in range(r.seats) if s not in named]  # seats dealt no hand
    for hand, seat in zip(hands_written, named, strict=True):
        cards = read_cards(r, hand.cards)
        if seat is None:
            seat_of(r, hand.seat)
            unnamed = unnamed[1:]  # the hand meant for one of them, likely
            continue
        if seat in hands:
            other = seat_name(unnamed.pop(0)) if unnamed else None
            r.add(
                "E212",
                f"{seat_name(seat)} is dealt a second hand"
                + (f", and {other} none" if other else ""),
                hand.seat.span,
                help=f"is this {other}'s hand? write `hand {other}:`"
                if other
                else "each seat is dealt one hand: check the seat of this hand",
            )
            continue
        # Told by how many cards, never by the lines they are on: the
        # canonical form and the archives put a hand on one line, and
        # formatting must not change what a record is told.
        if not piles and len(hand.cards) >= 2 * HAND_SIZE:
            extra = hand.cards[HAND_SIZE]
            r.add(
                "E212",
                f"the deal has no pile, and {seat_name(seat)}'s hand goes on here "
                f"with {len(hand.cards) - HAND_SIZE} more cards",
                extra.span,
                help="write `pile:` before the draw pile's cards",
            )
            piles = [Pile(hand.cards[HAND_SIZE:], extra.span)]  # read as the pile they must be
            hands[seat] = cards[:HAND_SIZE]
            continue
        if len(hand.cards) != HAND_SIZE:
            r.add(
                "E211",
                f"{seat_name(seat)}'s hand holds {len(hand.cards)} cards; "
                f"a hand is dealt {HAND_SIZE}",
                hand.span,
                help=f"list the {HAND_SIZE} cards {seat_name(seat)} was dealt: "
                + ("is one missing?" if len(hand.cards) < HAND_SIZE else "is one written twice?"),
            )
        hands[seat] = cards
    for pile in piles[1:]:
        r.add(
            "E212",
            "the deal has a second pile",
            pile.span,
            help="write the whole draw pile on one 'pile:' line, top first",
            related=(Related("the first pile", piles[0].span),),
        )
    first = (hands_written or piles)[0]
    if unnamed:
        missing = ", ".join(seat_name(s) for s in unnamed)
        r.add(
            "E212",
            f"the deal has no hand for {missing}",
            first.span,
            help=f"write each seat's hand, e.g. `hand {seat_name(unnamed[0])}: ...`, "
            "or leave the deal out",
        )
    if not piles:
        last = hands_written[-1]
        r.add(
            "E212",
            "the deal has hands but no pile",
            last.cards[-1].span if last.cards else last.span,
            help="write the draw pile after the hands as `pile: ...`, top first",
        )
    if len(r.diagnostics) > errors_before:
        r.deal_ok = False
        return
    if _play_in_pile(r, piles[0]):
        r.deal_ok = False
        return
    pile_cards = read_cards(r, piles[0].cards)
    if len(r.diagnostics) > errors_before:
        r.deal_ok = False
        return
    r.deal = Deal(tuple(hands[s] for s in range(r.seats)), pile_cards)
    r.pile = piles[0]


def _play_in_pile(r: Content, pile: Pile) -> bool:
    """A first play written without its number on the line after the pile
    (``LH J``) reads as the pile's last cards: said so (E101), once."""
    said = play_in_pile(r.record, pile)
    if said is None:
        return False
    r.diagnostics.append(said)
    r.first_ply = 2
    return True


def play_in_pile(record: Record, pile: Pile) -> Diagnostic | None:
    """E101 when the pile's last line is a first play written without its
    number (``LH J``): two or three words, a card then a state."""
    words = pile.cards
    if not words or words[-1].line == pile.span.line:
        return None
    if len(words) > 3 and words[-4].line == words[-1].line:
        return None  # more than three words on the pile's last line: no play
    last = [w for w in words if w.line == words[-1].line]
    if not spells_a_play([w.text for w in last]):
        return None
    written = " ".join(w.text for w in last)
    return Diagnostic(
        "E101",
        f"a play without its ply number, read as the pile's last cards: {written}",
        record.source,
        last[0].span.to(last[-1].span),
        record.index,
        help=f"every play starts with its number: write `1. {written}`",
    )
