"""Small builders shared by the tests."""

from __future__ import annotations

from ordonnance_notation.engine.armies import Army, Unit
from ordonnance_notation.engine.cards import Card


def cards(text: str) -> tuple[Card, ...]:
    """``cards("HF S L")`` -> three cards."""
    return tuple(Card.from_letters(word) for word in text.split())


def army(seat: int, text: str, plies: tuple[int, ...] | None = None) -> Army:
    """An army of ``seat`` from card letters; plies default to 1, 2, 3, 4."""
    played = cards(text)
    plies = plies or tuple(range(1, len(played) + 1))
    return Army(seat, tuple(Unit(card, ply) for card, ply in zip(played, plies)))
