"""What makes two records the same game (docs/querying.md): the same deal
(every hand and the pile, in order) and the same plays (each play's card and
state, in order), however they are written. Tags, comments, glyphs, seats
written or left out, drawn cards, declared markers, the result and spacing do
not count, and a card is the same card whatever the order of its letters.

Nothing here is checked: a card or state that cannot be read counts as
written. ``ordo dedup`` and ``ordo export`` both name games by this text.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import CARD_WORDS, Card, CardError, State, card_spelt, seat_name, state_spelt
from ..engine.game import Deal
from .record import Hand, Pile, Play, Record


def _card(word: str) -> str:
    card = card_spelt(word)  # a spelling read before: a look-up
    if card is None:
        try:
            card = Card.from_letters(word)
        except CardError:
            return word
    return str(card)


def _state(word: str) -> str:
    state = state_spelt(word) or State.lookup(word)
    return state.name if state is not None else word


def game_text(record: Record) -> str | None:
    """The game ``record`` holds, as a text that every copy of it gives; None
    when it has neither a deal nor a play (no game to compare)."""
    parts = game_parts(record)[1]
    return "\n".join(parts) if parts else None


def game_parts(record: Record) -> tuple[int, list[str]]:
    """The lines of ``game_text``: how many of them write the deal, and all
    of them (the deal's, then a line a play)."""
    parts = []
    dealt = 0
    for element in record.elements:
        if type(element) is Hand:
            parts.append(f"{element.seat.text}:{' '.join(_card(c.text) for c in element.cards)}")
            dealt += 1
        elif type(element) is Pile:
            parts.append("pile:" + " ".join(_card(c.text) for c in element.cards))
            dealt += 1
        elif type(element) is Play:
            parts.append(f"{_card(element.card.text)} {_state(element.state.text)}")
    return dealt, parts


def dealt_game_text(deal: Deal, plays: Sequence[tuple[Card, State]]) -> str:
    """``game_text`` of a record that writes ``deal`` in seat order (each
    hand, then the pile) and ``plays`` (the compiled core's records)."""
    return "\n".join(dealt_game_parts(deal, plays)[1])


def dealt_game_parts(deal: Deal, plays: Sequence[tuple[Card, State]]) -> tuple[int, list[str]]:
    """``game_parts`` of such a record."""
    words = CARD_WORDS
    parts = [
        f"{seat_name(s)}:{' '.join([words[c] for c in hand])}" for s, hand in enumerate(deal.hands)
    ]
    parts.append("pile:" + " ".join([words[c] for c in deal.pile]))
    dealt = len(parts)
    parts += [PLAY_WORDS[play] for play in plays]
    return dealt, parts


PLAY_WORDS = {
    (card, state): f"{word} {state.name}" for card, word in CARD_WORDS.items() for state in State
}
"""Each play as ``card state`` (``"LS J"``), as ``game_text`` writes it."""
