"""Advice for people who write records by hand: the word they probably meant.

The content reader and the validator say *what* is wrong; this module finds
the likely intended word — a state, a tag name, a scoring rule, a seat given
by a player's name or in the wrong case — so that the ``help:`` line can
propose the change itself.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from ..engine.cards import State, spells_a_card
from ..notation.lookalikes import lookalike_help
from ..notation.mistakes import seat_meant
from ..notation.writer import TAG_ORDER

KNOWN_TAGS = TAG_ORDER
"""The tag names docs/notation.md describes: a tag close to one of them is a typo."""

STATE_WORDS = ", ".join(f"{s.name} {s.full_name}" for s in State)


def closest(word: str, choices: Iterable[str], cutoff: float = 0.7) -> str | None:
    """The choice ``word`` was most likely meant to be: the same word in
    another case, else the nearest spelling above ``cutoff``, else None."""
    options = list(choices)
    folded = {choice.casefold(): choice for choice in options}
    if word.casefold() in folded:
        return folded[word.casefold()]
    near = difflib.get_close_matches(word.casefold(), list(folded), n=1, cutoff=cutoff)
    return folded[near[0]] if near else None


@lru_cache(maxsize=1024)  # records repeat their tag names; a hostile file cannot grow it
def tag_meant(name: str) -> str | None:
    """The known tag a tag name is a misspelling of (``Scorring``, ``result``),
    or None for a known tag or a name unlike any."""
    if name in KNOWN_TAGS:
        return None
    return closest(name, KNOWN_TAGS, cutoff=0.75)


def state_meant(word: str) -> State | None:
    """The state a misspelt state name was meant to be (``Jerusalam``, ``Cypress``)."""
    names = {s.full_name: s for s in State}
    if len(word) < 3:
        return None
    meant = closest(word, names, cutoff=0.6)
    if meant is None:
        prefix = [s for name, s in names.items() if name.casefold().startswith(word.casefold()[:4])]
        return prefix[0] if len(prefix) == 1 else None
    return names[meant]


def state_help(word: str) -> str:
    odd = lookalike_help(word)
    if odd is not None:
        return odd
    meant = state_meant(word)
    if meant is not None:
        return f"did you mean {meant.full_name}? write `{meant.name}` or `{meant.full_name}`"
    return f"the states are {STATE_WORDS}: write the letter or the name"


def card_help(word: str) -> str:
    """How to write the card ``word`` meant to be."""
    odd = lookalike_help(word)
    if odd is not None:
        return odd
    upper = word.upper()
    if upper != word and spells_a_card(upper):
        return f"write cards in upper case: `{upper}`"
    return (
        "a card is one to five different icon letters: F flag, H helmet, S swords, B bow, L lance"
    )


def seat_advice(word: str, names: Sequence[str], written: Callable[[str], str]) -> str | None:
    """Help for ``word`` where a seat was meant, the seat as ``written``
    shows it; None when ``word`` looks like no seat."""
    odd = lookalike_help(word)
    if odd is not None:
        return odd
    meant = seat_meant(word, names)
    if meant is not None:
        seat, why = meant
        return f"{why}: write {written(f'P{seat + 1}')}"
    return None


def seat_help(word: str, names: Sequence[str]) -> str:
    found = seat_advice(word, names, lambda seat: f"`{seat}`")
    return found or f"this record's seats are P1 to P{len(names)}, named in its header"
