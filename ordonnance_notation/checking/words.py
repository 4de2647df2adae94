"""The readers of one word of a record: a card, a state, a seat, a declared
outcome, each reporting the word it cannot read (E201, E202, E203).

The usual spellings also have a quick form, a look-up that calls no reader:
``card_spelt`` and ``state_spelt`` (the engine's) and ``SEAT_INDEX``. A quick
form gives the reader's answer or None, never another answer; tests hold
each to its reader.
"""

from __future__ import annotations

import re
from typing import cast

from ..diagnostics import quoted
from ..engine.cards import Card, CardError, State, card_spelt, seat_name
from ..engine.game import MAX_SEATS
from ..notation import terminals as t
from ..notation.record import Word
from .advice import card_help, closest, seat_advice, seat_help, state_help
from .meaning import SHARED, UNFINISHED, Content, DeclaredOutcome

SEAT = re.compile(f"(?={t.SEAT}$)P([1-9][0-9]*)$")  # seats count from 1


def seat_index(text: str, seats: int) -> int | None:
    """The seat ``text`` names among ``seats`` (``P2`` -> 1), else None."""
    match = SEAT.match(text)
    return int(match.group(1)) - 1 if match and int(match.group(1)) <= seats else None


SEAT_INDEX = {seat_name(seat): seat for seat in range(MAX_SEATS)}
"""``seat_index`` of each seat's own name, as a look-up."""


def read_card(
    r: Content, word: Word, ply: int | None = None, text: str | None = None
) -> Card | None:
    letters = word.text if text is None else text
    try:
        return Card.from_letters(letters)
    except CardError as error:
        r.add("E201", f"card {quoted(word.text)}: {error}", word.span, ply, help=card_help(letters))
        return None


def read_cards(r: Content, words: tuple[Word, ...]) -> tuple[Card, ...]:
    """The cards of a hand or pile; those that cannot be read are reported and left out."""
    cards = tuple([card_spelt(w.text) for w in words])
    if None in cards:  # a spelling not seen before, maybe not a card at all
        return tuple(c for c in (read_card(r, w) for w in words) if c is not None)
    return cast("tuple[Card, ...]", cards)  # None is not in it


def seat_of(r: Content, word: Word, ply: int | None = None) -> int | None:
    assert r.seats is not None
    seat = seat_index(word.text, r.seats)
    if seat is None:
        r.add(
            "E203",
            f"{quoted(word.text, marks=False)} is not a seat of this record "
            f"(seats P1 to P{r.seats})",
            word.span,
            ply,
            help=seat_help(word.text, r.names),
        )
    return seat


def state_of(r: Content, word: Word, ply: int | None = None) -> State | None:
    state = State.lookup(word.text)
    if state is None:
        r.add(
            "E202",
            f"{quoted(word.text)} is not a state "
            "(A Antioch, C Cyprus, J Jerusalem, E Edessa, T Tripoli)",
            word.span,
            ply,
            help=state_help(word.text),
        )
    return state


def declared_outcome(text: str, seats: int) -> DeclaredOutcome | None:
    """A seat index, 'unfinished' or 'shared' from what a record declares, else None."""
    word = text.strip()
    if word.lower() in (UNFINISHED, SHARED):
        return word.lower()
    return seat_index(word, seats)


def outcome_help(word: str, names: tuple[str, ...], tag: bool) -> str:
    """How to declare the outcome ``word`` was meant to be, in the Result tag
    (``tag``) or on the result line."""

    def written(value: str) -> str:
        return f'[Result "{value}"]' if tag else f"`result {value}`"

    found = seat_advice(word, names, written)
    if found is not None:
        return found
    word_meant = closest(word.strip(), (UNFINISHED, SHARED), cutoff=0.6)
    if word_meant is not None:
        return f"did you mean {written(word_meant)}?"
    return (
        f"declare the winner's seat (P1 to P{len(names)}), "
        f'"unfinished" or "shared" (when no rule breaks a tie)'
    )
