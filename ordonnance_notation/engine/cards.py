"""Icons, cards and states: the game's vocabulary.

A card is a set of 1 to 5 distinct icons, kept as a bit mask so that cards
with the same icons are equal and hash alike (they are interchangeable).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum


class _Named(IntEnum):
    """A number of the game that prints as its name (``State.J``: ``J``), in
    f-strings too but for a number's format (``f"{State.J:d}"``: ``3``), and
    whose ``repr`` pastes back."""

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return int.__format__(self, spec) if spec[-1:] in _NUMBERED else format(self.name, spec)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


_NUMBERED = tuple("bcdnoxX")  # the formats of a number


class Icon(_Named):
    """The five troop icons, from most junior to most senior. An icon prints
    as its letter (``str(Icon.H) == "H"``); ``word`` is ``"helmet"``."""

    L = 0  # lance: militia
    B = 1  # bow: archers
    S = 2  # swords: infantry
    H = 3  # helmet: knights
    F = 4  # flag: commanders

    @property
    def word(self) -> str:
        return _ICON_WORDS[self]

    @property
    def plural(self) -> str:
        return _ICON_PLURALS[self]


_ICON_WORDS = {Icon.L: "lance", Icon.B: "bow", Icon.S: "swords", Icon.H: "helmet", Icon.F: "flag"}
_ICON_PLURALS = {
    Icon.L: "lances",
    Icon.B: "bows",
    Icon.S: "swords",
    Icon.H: "helmets",
    Icon.F: "flags",
}

ICONS_BY_SENIORITY = tuple(sorted(Icon, reverse=True))  # F H S B L


class CardError(ValueError):
    """A card written with a letter that is no icon, or with an icon twice."""

    def __init__(self, message: str, letters: str, position: int) -> None:
        super().__init__(message)
        self.letters = letters
        self.position = position  # index of the offending letter


class Card:
    """One unit card: ``Card("HF")`` (its letters, in any order; raises
    CardError for a letter that is no icon or an icon twice), or
    ``Card(24)`` (its mask, bit ``icon`` set for each icon it carries; raises
    ValueError outside 1-31). It prints as its letters, most junior first.

    There is one ``Card`` object per mask (``Card(3) is Card(3)``), so cards
    compare and hash by identity, at the speed of the interpreter's own
    checks: a replay asks "is this card in the hand?" at every ply."""

    __slots__ = ("mask",)
    mask: int

    def __new__(cls, mask: int | str) -> Card:
        card = _BY_MASK.get(mask) if type(mask) is int else None  # not True for 1, nor 1.0
        if card is None:
            if type(mask) is str:
                return cls.from_letters(mask)
            if type(mask) is not int or not 0 < mask < 32:
                raise ValueError(f"a card carries 1 to 5 icons, not mask {mask!r}")
            card = _BY_MASK[mask] = object.__new__(cls)
            object.__setattr__(card, "mask", mask)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a card cannot change")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return Card, (self.mask,)

    @classmethod
    def of(cls, *icons: Icon) -> Card:
        mask = 0
        for icon in icons:
            mask |= 1 << icon
        return cls(mask)

    @classmethod
    def from_letters(cls, letters: str) -> Card:
        """``Card.from_letters("FH") == Card.from_letters("HF")``.

        Raises CardError for a letter outside L B S H F or a repeated icon.
        """
        card = _BY_LETTERS.get(letters)
        if card is None:
            card = _BY_LETTERS[letters] = cls._read(letters)
        return card

    @classmethod
    def _read(cls, letters: str) -> Card:
        mask = 0
        for position, letter in enumerate(letters):
            icon = _ICONS_BY_LETTER.get(letter)
            if icon is None:
                raise CardError(
                    f"'{letter}' is not an icon (icons are L B S H F)", letters, position
                )
            bit = 1 << icon
            if mask & bit:
                raise CardError(f"icon {letter} appears twice", letters, position)
            mask |= bit
        if not mask:
            raise CardError("a card carries at least one icon", letters, 0)
        return cls(mask)

    @property
    def icons(self) -> tuple[Icon, ...]:
        return tuple(icon for icon in Icon if self.mask >> icon & 1)

    def __contains__(self, icon: Icon) -> bool:
        return bool(self.mask >> icon & 1)

    def __str__(self) -> str:
        letters = _LETTERS.get(self.mask)
        if letters is None:  # 31 cards at most: each is spelt once
            letters = _LETTERS[self.mask] = "".join(icon.name for icon in self.icons)
        return letters

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_ICONS_BY_LETTER = {icon.name: icon for icon in Icon}
_LETTERS: dict[int, str] = {}  # each card's canonical letters, by mask
_BY_MASK: dict[int, Card] = {}
_BY_LETTERS: dict[str, Card] = {}  # every spelling read so far; cards are immutable
# The card spelt so if that spelling was read before, else None: a look-up
# without a call into Python, for reading archives.
card_spelt = _BY_LETTERS.get
CARD_WORDS = {card: str(card) for card in map(Card, range(1, 32))}
"""Every card as ``Card.__str__`` spells it, by card: a look-up where a
record's cards are written by the thousand."""


class State(_Named):
    """The five states, in the order of the territory line (1 to 5): Antioch,
    Cyprus, Jerusalem, Edessa, Tripoli. A state prints as its letter
    (``str(State.J) == "J"``, also in f-strings; ``f"{State.J:d}"`` is 3) and
    its ``repr`` pastes back (``State.J``); ``full_name`` is ``"Jerusalem"``;
    ``int(State.J)`` is its place on the line, 3."""

    A = 1
    C = 2
    J = 3
    E = 4
    T = 5

    @property
    def full_name(self) -> str:
        return _STATE_NAMES[self]

    @classmethod
    def of(cls, state: State | int | str) -> State:
        """The state written ``"J"`` or ``"Jerusalem"`` (any case), or placed
        3rd on the line. Raises ValueError for anything else."""
        if isinstance(state, str):
            found = cls.lookup(state)
        else:
            found = cls(state) if state in _STATE_NAMES else None
        if found is None:
            raise ValueError(f"{state!r} is no state: A C J E T, or Antioch ... Tripoli")
        return found

    @classmethod
    def lookup(cls, word: str) -> State | None:
        """A state from its letter or its full name (any case), else None."""
        return _STATES_BY_WORD.get(word.lower())


_STATE_NAMES = {
    State.A: "Antioch",
    State.C: "Cyprus",
    State.J: "Jerusalem",
    State.E: "Edessa",
    State.T: "Tripoli",
}
_STATES_BY_WORD = {
    **{state.name.lower(): state for state in State},
    **{name.lower(): state for state, name in _STATE_NAMES.items()},
}
# The state written so, in its usual spellings (A, Antioch), else None; State.lookup reads any case.
state_spelt = {
    **{state.name: state for state in State},
    **{name: state for state, name in _STATE_NAMES.items()},
}.get


def spells_a_card(letters: str) -> bool:
    """Whether ``letters`` are a card (icons, each once)."""
    try:
        Card.from_letters(letters)
    except CardError:
        return False
    return True


def spells_a_play(words: Sequence[str]) -> bool:
    """Whether two or three words read as a play written without its number
    (``LH J``, ``LH J !``): a card, then a state that no card spells."""
    if not 2 <= len(words) <= 3 or State.lookup(words[1]) is None:
        return False
    return card_spelt(words[1]) is None and spells_a_card(words[0])


class Seat(_Named):
    """A seat at the table: ``Seat.P1`` is the first to play. A seat prints as
    the notation names it (``str(Seat.P2) == "P2"``, also in f-strings;
    ``f"{Seat.P2:d}"`` is 1), its ``repr`` pastes back, and it is the
    engine's number for the seat (``Seat.P2 == 1``): it indexes hands and
    armies as that number does."""

    P1 = 0
    P2 = 1
    P3 = 2
    P4 = 3

    @classmethod
    def of(cls, seat: int | str) -> Seat:
        """The seat named ``"P2"``, or numbered 1 as the engine counts.
        Raises ValueError for anything else."""
        number = seat_number(seat) if isinstance(seat, str) else seat
        if number is None or not 0 <= number < len(SEATS):
            raise ValueError(f"{seat!r} is no seat: seats are P1 to P4 (0 to 3)")
        return SEATS[number]


def seat_name(seat: int) -> str:
    """``seat_name(1) == "P2"``: the engine's number of a seat as the notation
    names it (``str(Seat(1))`` says the same). Raises nothing."""
    return f"P{seat + 1}"


def seat_number(name: str) -> int | None:
    """``P2`` -> 1, as the engine counts seats; None for a word that is no
    seat's name (``Seat.of`` raises ValueError instead). Raises nothing."""
    if len(name) == 2 and name[0] == "P" and name[1] in "123456789":
        return int(name[1]) - 1
    return None


SEATS = tuple(Seat)
"""Every seat by its number: ``SEATS[1] is Seat.P2``, a look-up cheaper than a call."""
