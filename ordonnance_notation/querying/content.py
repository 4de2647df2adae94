"""What ``ordo select`` asks of a record's game: its length, whether it was
finished, its plays, its armies after a ply and when it was decided.

Each test is read from the words a user types (``30..40``, ``'P1 * J'``,
``'P2 J regiment F'``) and answered from a ``Line``: the seats, the deal
and the plays as the rules replayed them, which the compiled core gives
for the records it accepts and the validator's report for the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from ..engine.armies import PACKED, Level, formations_of
from ..engine.cards import Card, CardError, Icon, State, seat_number


class QueryError(ValueError):
    """A test written so that it cannot be read; the message says how to write it."""


def like(pattern: str, value: str) -> bool:
    """Whether ``value`` matches the shell pattern, whatever their case."""
    return fnmatchcase(value.casefold(), pattern.casefold())


@dataclass(frozen=True, slots=True)
class Who:
    """A seat (``P2``) or a player's name (a pattern)."""

    text: str

    def names(self, seat: int, players: Mapping[int, str]) -> bool:
        if seat_number(self.text) is not None:
            return seat_number(self.text) == seat
        return seat in players and like(self.text, players[seat])


@dataclass(frozen=True, slots=True)
class Plies:
    """A range of plies, both ends included (None: open)."""

    low: int | None
    high: int | None

    @classmethod
    def of(cls, text: str, option: str) -> Plies:
        """``30``, ``30..40``, ``30-40``, ``30..`` or ``..40``."""
        low, dots, high = text.replace("..", "-", 1).partition("-")
        try:
            first = int(low) if low.strip() else None
            last = int(high) if high.strip() else None
        except ValueError:
            first = last = -1
        if not dots:
            last = first
        if (first is None and last is None) or any(n is not None and n < 0 for n in (first, last)):
            raise QueryError(f"{option} {text!r}: write plies as 30, 30..40, 30.. or ..40")
        return cls(first, last)

    def holds(self, ply: int) -> bool:
        return (self.low is None or ply >= self.low) and (self.high is None or ply <= self.high)

    def within(self, plies: int) -> range:
        """The plies of the range that a record of ``plies`` plies has."""
        return range(max(self.low or 1, 1), min(self.high or plies, plies) + 1)


def _card(word: str, text: str) -> Card | None:
    if word == "*":
        return None
    try:
        return Card.from_letters(word.upper())
    except CardError:
        raise QueryError(
            f"--play {text!r}: {word!r} is no card (write its letters, or *)"
        ) from None


def _state(word: str, option: str, text: str) -> State | None:
    if word == "*":
        return None
    state = State.lookup(word)
    if state is None:
        raise QueryError(
            f"{option} {text!r}: {word!r} is no state: A, C, J, E, T or Antioch, Cyprus, "
            "Jerusalem, Edessa, Tripoli"
        )
    return state


@dataclass(frozen=True, slots=True)
class PlayTest:
    """A play: ``[WHO] CARD STATE``, each part ``*`` for any."""

    who: Who | None
    card: Card | None
    state: State | None

    @classmethod
    def of(cls, text: str) -> PlayTest:
        words = text.split()
        if len(words) not in (2, 3):
            raise QueryError(
                f"--play {text!r}: write [WHO] CARD STATE, each part * for any (e.g. 'P1 * J')"
            )
        who = Who(words[0]) if len(words) == 3 and words[0] != "*" else None
        return cls(who, _card(words[-2], text), _state(words[-1], "--play", text))

    def made(self, seat: int, card: Card, state: State, names: Mapping[int, str]) -> bool:
        return (
            (self.card is None or card == self.card)
            and (self.state is None or state is self.state)
            and (self.who is None or self.who.names(seat, names))
        )


_LEVELS = {level.word: level for level in Level} | {"companies": Level.COMPANY}


@dataclass(frozen=True, slots=True)
class ArmyTest:
    """An army: ``WHO STATE FORMATION [ICON]`` (``P2 J regiment``, ``* A battalion F``)."""

    who: Who | None
    state: State | None
    level: Level
    icon: Icon | None

    @classmethod
    def of(cls, text: str) -> ArmyTest:
        words = text.split()
        word = words[2].casefold() if len(words) in (3, 4) else ""
        level = _LEVELS.get(word) or _LEVELS.get(word.removesuffix("s"))
        icon = Icon.__members__.get(words[3].upper()) if len(words) == 4 else None
        if level is None or (len(words) == 4 and icon is None):
            raise QueryError(
                f"--army {text!r}: write WHO STATE FORMATION [ICON], FORMATION one of company, "
                "battalion, regiment, ICON one of F H S B L (e.g. 'P2 J regiment F')"
            )
        who = Who(words[0]) if words[0] != "*" else None
        return cls(who, _state(words[1], "--army", text), level, icon)

    def holds(self, packed: Sequence[Sequence[int]], names: Mapping[int, str]) -> bool:
        """Whether some army matches, the armies as ``packed[state - 1][seat]``
        (``armies.PACKED``: the icon counts of each army's cards)."""
        states = [self.state] if self.state is not None else list(State)
        for seat in range(len(packed[0])):
            if self.who is not None and not self.who.names(seat, names):
                continue
            for state in states:
                icons = formations_of(packed[state - 1][seat]).at(self.level)
                if icons if self.icon is None else self.icon in icons:
                    return True
        return False


@dataclass(frozen=True, slots=True)
class Line:
    """A record's game as a content test reads it: its seats, the plays the
    rules replayed, how many plies it writes, whether the game ended, and
    the ply after which it was decided (worked out when asked: None when it
    was not decided, or not analysed)."""

    seats: int
    plays: Sequence[tuple[Card, State]]
    plies: int
    finished: bool
    decided: Callable[[], int | None]


@dataclass(frozen=True, slots=True)
class Content:
    """The tests of a record's game; a record passes when it passes them all."""

    plies: Plies | None = None
    finished: bool | None = None
    plays: tuple[PlayTest, ...] = ()
    armies: tuple[ArmyTest, ...] = ()
    at: Plies | None = None
    decided_by: int | None = None

    @classmethod
    def of(
        cls,
        plies: str | None = None,
        finished: bool | None = None,
        plays: Sequence[str] = (),
        armies: Sequence[str] = (),
        at: str | None = None,
        decided_by: int | None = None,
    ) -> Content:
        return cls(
            None if plies is None else Plies.of(plies, "--plies"),
            finished,
            tuple(map(PlayTest.of, plays)),
            tuple(map(ArmyTest.of, armies)),
            None if at is None else Plies.of(at, "--at"),
            decided_by,
        )

    def __bool__(self) -> bool:
        return self != NO_CONTENT

    def passes(self, line: Line | None, names: Mapping[int, str]) -> bool:
        """Whether the game passes every test (no game, as a record whose
        header could not be read: none)."""
        if line is None:
            return False
        if self.plies is not None and not self.plies.holds(line.plies):
            return False
        if self.finished is not None and line.finished != self.finished:
            return False
        window = (self.at or Plies(None, None)).within(len(line.plays))
        for test in self.plays:
            if not any(test.made((n - 1) % line.seats, *line.plays[n - 1], names) for n in window):
                return False
        if self.armies and not self._armies(line, names):
            return False
        if self.decided_by is not None:
            decided = line.decided()
            return decided is not None and decided <= self.decided_by
        return True

    def _armies(self, line: Line, names: Mapping[int, str]) -> bool:
        """Whether, after some ply of ``at`` (the last ply without it), every
        army test holds. The plays were replayed already: each card joins
        the army of the seat whose turn it was."""
        last = len(line.plays)
        window = self.at.within(last) if self.at else range(last, last + 1)
        packed = [[0] * line.seats for _ in State]
        for ply, (card, state) in enumerate(line.plays[: window.stop - 1], 1):
            packed[state - 1][(ply - 1) % line.seats] += PACKED[card.mask]
            if ply in window and all(test.holds(packed, names) for test in self.armies):
                return True
        return False


NO_CONTENT = Content()
