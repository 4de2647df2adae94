"""Decks and deals (rules.md D3).

The shuffle is ``engine.rng.Rng.shuffle``, specified there so that a seed
gives the same deal on any machine and any Python version. A deal shuffles
the deck (two copies for 3-4 seats) with the stream
  ``<seed>/deal``, gives each seat five cards in turn (P1 the first card, P2
  the second, ...) and leaves the rest as the pile, top first.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import yaml

from ..diagnostics import DeckError, Diagnostic, SourceError, quoted
from ..engine.cards import Card, CardError
from ..engine.game import HAND_SIZE, Deal, cards_needed
from ..engine.rng import Rng
from ..files.sources import read_source
from ..notation.record import Span


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards of one box, in the order the deck file lists them."""

    name: str
    cards: tuple[Card, ...]


def _deck_error(source: str, message: str, mark: yaml.Mark | None = None) -> DeckError:
    span = None
    if mark is not None:
        span = Span(mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)
    help = "a deck file maps card letters to counts under `cards:`, as docs/dealing.md shows"
    return DeckError(Diagnostic("E006", message, source, span, help=help))


MAX_DECK_FILE = 1 << 20  # bytes: a deck file is a few lines
MAX_CARDS = 10_000  # in a deck: the reference deck has 88


def load_deck(path: str | Path | None = None) -> Deck:
    """The reference deck, or the deck file at ``path``. Raises DeckError."""
    if path is None:
        resource = files("ordonnance_notation.making.decks") / "reference.yaml"
        return parse_deck(resource.read_text("utf-8"), "reference deck")
    try:
        source = read_source(str(path), MAX_DECK_FILE, "a deck file")
    except SourceError as error:
        raise DeckError(error.diagnostics, error.shown) from None
    return parse_deck(source.text, source.name)


def parse_deck(text: str, source: str) -> Deck:
    """A deck from the text of a deck file. Raises DeckError with the place of the problem."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        raise _deck_error(
            source, "not a deck file: lists or mappings nested too deep", None
        ) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or str(error)
        raise _deck_error(source, f"not a YAML deck file: {problem}", mark) from None
    if not isinstance(node, yaml.MappingNode):
        raise _deck_error(
            source,
            "a deck file is a mapping with a 'cards' entry",
            node.start_mark if node else None,
        )
    odd = next((key for key, _ in node.value if not isinstance(key, yaml.ScalarNode)), None)
    if odd is not None:
        raise _deck_error(source, "a deck file's keys are words: name, cards", odd.start_mark)
    entries = {key.value: (key, value) for key, value in node.value}
    if "cards" not in entries:
        raise _deck_error(source, "the deck file has no 'cards' entry", node.start_mark)
    name_node = entries.get("name", (None, None))[1]
    name = name_node.value if isinstance(name_node, yaml.ScalarNode) else Path(source).stem
    if not name.isprintable():
        raise _deck_error(
            source, "the deck's name is printable text on one line", name_node.start_mark
        )
    cards_node = entries["cards"][1]
    if not isinstance(cards_node, yaml.MappingNode) or not cards_node.value:
        raise _deck_error(
            source,
            "'cards' maps card letters to a number of copies, like 'HF: 3'",
            cards_node.start_mark,
        )
    cards: list[Card] = []
    seen: dict[Card, str] = {}
    for key, value in cards_node.value:
        if not isinstance(key, yaml.ScalarNode):
            raise _deck_error(
                source,
                "a card is written as its letters, like 'HF', not a list or a mapping",
                key.start_mark,
            )
        letters = str(key.value)
        try:
            card = Card.from_letters(letters)
        except CardError as error:
            raise _deck_error(
                source, f"cards.{quoted(letters, marks=False)}: {error}", key.start_mark
            ) from None
        if card in seen:
            raise _deck_error(
                source, f"cards.{letters}: the same card as {seen[card]} above", key.start_mark
            )
        seen[card] = letters
        if not (
            isinstance(value, yaml.ScalarNode) and value.value.isascii() and value.value.isdigit()
        ):
            raise _deck_error(
                source,
                f"cards.{letters}: the number of copies is a whole number, "
                f"not {quoted(value.value)}"
                if isinstance(value, yaml.ScalarNode)
                else f"cards.{letters}: the number of copies is a whole number",
                value.start_mark,
            )
        copies = int(value.value) if len(value.value) <= 6 else MAX_CARDS + 1
        if len(cards) + copies > MAX_CARDS:
            raise _deck_error(
                source,
                f"cards.{letters}: a deck holds at most {MAX_CARDS:,} cards",
                value.start_mark,
            )
        cards += [card] * copies
    if len(cards) < cards_needed(2):
        raise _deck_error(
            source,
            f"the deck holds {len(cards)} cards; two seats need {cards_needed(2)}",
            cards_node.start_mark,
        )
    return Deck(name, tuple(cards))


def boxes_for(seats: int) -> int:
    """One box for two seats, two boxes for three or four."""
    return 1 if seats == 2 else 2


def deal(deck: Deck, seats: int, seed: str) -> Deal:
    """Shuffle ``boxes_for(seats)`` copies of the deck and deal (module docstring)."""
    cards = Rng(f"{seed}/deal").shuffle(deck.cards * boxes_for(seats))
    dealt = HAND_SIZE * seats
    if len(cards) < cards_needed(seats):
        raise ValueError(f"{len(cards)} cards cannot give {seats} seats twenty plays each")
    hands = tuple(tuple(cards[seat:dealt:seats]) for seat in range(seats))
    return Deal(hands, tuple(cards[dealt:]))
