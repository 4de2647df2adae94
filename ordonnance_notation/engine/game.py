"""The game state and its one legal step: a seat draws, then plays a card.

A ``Game`` is immutable; ``play`` returns the next game and a ``Turn`` that
says what the ply caused (a draw, a resolution, the end). Keeping every
``Game`` of a replay is therefore enough to step back. A ``Table`` is the same
game changed in place, for replaying a whole record at speed; the rules of a
ply are written once, in ``Table.play``.

Without a deal the engine knows neither hands nor pile: it still checks turn
order, full states and the end of the game, and takes declared draws on trust.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .armies import UNITS_PER_ARMY, Army, Decision, Unit, decide, rank
from .cards import SEATS, Card, Seat, State, seat_name

MIN_SEATS, MAX_SEATS = 2, 4
HAND_SIZE = 5
STATES = tuple(State)
PLAYS_PER_SEAT = 20  # four units in each of five states
_STATE_COUNT = len(STATES)
_new = tuple.__new__


def cards_needed(seats: int) -> int:
    """Cards a deal must hold for every seat to play its twenty cards (D3, D5)."""
    return PLAYS_PER_SEAT * seats


@dataclass(frozen=True, slots=True)
class Deal:
    """Opening hands (one per seat, in seat order) and the draw pile, top first."""

    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]

    @property
    def short(self) -> bool:
        """Whether the deal lists fewer cards than a whole game draws: the pile
        runs out before the end (D5), or only its first cards are listed (D8)."""
        return HAND_SIZE * len(self.hands) + len(self.pile) < cards_needed(len(self.hands))

    def draws_known(self, plays: int) -> bool:
        """Whether every card still to come after ``plays`` plies is known:
        the pile holds every draw of a whole game, or the plays went on past
        its end, so it ran out there and the later draws are none (D5, as
        the replay draws). Otherwise (D8: a short deal of a record that stops
        before its pile does) the cards after the pile's end are unknown."""
        return not self.short or plays > len(self.pile)


@dataclass(frozen=True, slots=True)
class Resolution:
    """A resolved state: its marker number, the ply that resolved it, every
    army there strongest first, and why the winner beat the runner-up."""

    state: State
    marker: int
    ply: int
    ranking: tuple[Army, ...]

    @property
    def winner(self) -> int:
        return self.ranking[0].seat

    @property
    def decision(self) -> Decision:
        return decide(self.ranking[0], self.ranking[1])

    def place_of(self, seat: int) -> int:
        """0 for the strongest army, 1 for the next, ..."""
        return next(i for i, army in enumerate(self.ranking) if army.seat == seat)


class Violation(Enum):
    """Why a play is illegal."""

    OUT_OF_TURN = "out of turn"
    NOT_IN_HAND = "card not in hand"
    STATE_FULL = "state full"
    GAME_OVER = "game over"
    WRONG_DRAW = "wrong draw"


class IllegalPlay(Exception):
    """A play the rules forbid. The game it was tried on is unchanged. The
    message may be given as a function, worded only when asked for: trying
    many plays (a bot, a search for the card meant) words none of them."""

    def __init__(self, violation: Violation, message: str | Callable[[], str]) -> None:
        super().__init__()
        self.violation = violation
        self._message = message

    @property
    def message(self) -> str:
        if callable(self._message):
            self._message = self._message()
        return self._message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"IllegalPlay({self.violation!r}, {self.message!r})"


class Turn(NamedTuple):
    """What one ply did: who drew what, what was played where, what it caused.
    (A named tuple: a replay makes one per ply.)"""

    ply: int
    seat: int
    card: Card
    state: State
    drawn: Card | None
    resolution: Resolution | None
    ends_game: bool


def plays_from(
    hand: tuple[Card, ...] | list[Card], states: tuple[State, ...]
) -> tuple[tuple[Card, State], ...]:
    """Each card of ``hand`` (identical cards once) to each of ``states``,
    by card then state: the legal plays of a seat holding ``hand``."""
    return tuple((card, state) for card in dict.fromkeys(hand) for state in states)


@dataclass(frozen=True, slots=True, repr=False)
class Game:
    """A position of the game: every army in every state, the hands and the
    pile when the deal is known, the states resolved so far and how many
    plies were played. Immutable: ``play`` gives the next position.

    ``Game.new(2, deal)`` starts one; ``legal_plays()`` lists what the seat
    ``to_move`` may do; ``army(State.J, Seat.P1)`` is one seat's units in
    one state. Without a deal (``Game.new(2)``) the hands are unknown: plays
    are taken on trust and ``legal_plays`` raises ValueError.
    ``Position`` is the same with the names of a record's players and a
    picture."""

    seats: int
    armies: tuple[tuple[Army, ...], ...]  # [state index][seat]
    hands: tuple[tuple[Card, ...], ...] | None = None
    pile: tuple[Card, ...] | None = None
    drawn: int = 0  # cards taken from the pile so far
    resolutions: tuple[Resolution, ...] = ()
    ply: int = 0  # plies played so far

    @classmethod
    def new(cls, seats: int, deal: Deal | None = None) -> Game:
        """Raises ValueError for a seat count outside 2-4 or a deal of the wrong shape
        (the validator reports those as diagnostics before getting here)."""
        return Table(seats, deal).snapshot()

    def __repr__(self) -> str:
        resolved = len(self.resolutions)
        where = "over" if self.over else f"{seat_name(self.to_move)} to move"
        deal = "" if self.hands is not None else ", no deal"
        return (
            f"<Game of {self.seats} seats: ply {self.ply}, {where}, "
            f"{resolved} state{'' if resolved == 1 else 's'} resolved{deal}>"
        )

    @property
    def to_move(self) -> Seat:
        """The seat whose turn it is (after the last ply, the one that would be)."""
        return SEATS[self.ply % self.seats]

    @property
    def over(self) -> bool:
        return len(self.resolutions) == len(STATES)

    @property
    def pile_left(self) -> int | None:
        return None if self.pile is None else len(self.pile) - self.drawn

    def army(self, state: State, seat: int) -> Army:
        """``seat``'s units in ``state``, in the order they were played."""
        return self.armies[state - 1][seat]

    def resolution(self, state: State | str) -> Resolution | None:
        """How ``state`` was resolved; None while it is open. Raises
        ValueError for a word that is no state."""
        found = State.of(state) if type(state) is str else state
        return next((r for r in self.resolutions if r.state is found), None)

    def standing(self, state: State) -> Decision | None:
        """How ``state`` stands: the comparison that decided it once resolved,
        else the one that would decide it now, between its two strongest
        armies; None while no unit stands there."""
        resolution = self.resolution(state)
        if resolution is not None:
            return resolution.decision
        armies = self.armies[state - 1]
        if not any(army.units for army in armies):
            return None
        first, second = rank(armies)[:2]
        return decide(first, second)

    def next_draw(self) -> Card | None:
        """The card the seat to move draws first; None without a pile or when it is empty."""
        if self.pile is None or self.drawn >= len(self.pile):
            return None
        return self.pile[self.drawn]

    def hand_to_play(self) -> tuple[Card, ...] | None:
        """The mover's hand once the turn's draw is in it; None without a deal."""
        if self.hands is None:
            return None
        draw = self.next_draw()
        return self.hands[self.to_move] + ((draw,) if draw is not None else ())

    def legal_plays(self) -> tuple[tuple[Card, State], ...]:
        """Every play the seat to move may make: each card of its hand (with
        the turn's draw; identical cards once) to each state where it has
        fewer than four units. Raises ValueError without a deal (the hand is
        unknown) and once the game is over."""
        hand = self.hand_to_play()
        if hand is None:
            raise ValueError("without a deal the hands are unknown")
        if self.over:
            raise ValueError("the game is over")
        return plays_from(hand, self.open_states(self.to_move))

    def plays_made(self) -> list[tuple[Card, State]]:
        """The plays on the table, in the order they were made."""
        units = sorted(
            (unit.ply, unit.card, state)
            for state in STATES
            for army in self.armies[state - 1]
            for unit in army.units
        )
        return [(card, state) for _, card, state in units]

    def open_states(self, seat: int) -> tuple[State, ...]:
        """The states where ``seat`` has fewer than four units."""
        return tuple(state for state in STATES if not self.army(state, seat).full)

    def play(
        self,
        card: Card | str,
        state: State | str,
        *,
        seat: int | None = None,
        drawn: Card | None = None,
    ) -> tuple[Game, Turn]:
        """The seat to move draws, then plays ``card`` to ``state`` (the
        values, or their words: ``play("HF", "J")``): the next game and what
        the ply did. ``seat`` and ``drawn``, when given, are what the record
        claims; they are checked against the turn order and the pile.
        Raises IllegalPlay, and CardError or ValueError for words that are
        no card or no state."""
        chosen = Card(card) if isinstance(card, str) else card
        where = State.of(state) if isinstance(state, str) else state
        table = Table.from_game(self)
        turn = table.play(chosen, where, seat=seat, drawn=drawn)
        return table.snapshot(), turn


class Table:
    """A game in progress, changed in place: the rules of one ply live in
    ``play``. Replaying a whole record on one table spares a copy of the game
    per ply; ``snapshot`` gives the immutable ``Game`` at any point."""

    __slots__ = (
        "drawn",
        "final",
        "full",
        "hands",
        "pile",
        "ply",
        "resolutions",
        "seats",
        "units",
    )

    def __init__(self, seats: int, deal: Deal | None = None) -> None:
        """Raises ValueError as ``Game.new`` does."""
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise ValueError(f"Ordonnance is played by 2 to 4 seats, not {seats}")
        if deal is not None and len(deal.hands) != seats:
            raise ValueError(f"a deal for {len(deal.hands)} seats, but {seats} seats play")
        self.seats = seats
        self.units: list[list[list[Unit]]] = [
            [[] for _ in range(seats)] for _ in STATES
        ]  # [state - 1][seat]
        self.full = [0] * len(STATES)  # armies of four units, by state
        # the armies of each resolved state, by seat, as its resolution ranked
        # them: they change no more, and a snapshot takes them as they are
        self.final: list[tuple[Army, ...] | None] = [None] * len(STATES)
        self.hands = None if deal is None else [list(hand) for hand in deal.hands]
        self.pile = None if deal is None else deal.pile
        self.drawn = 0
        self.resolutions: list[Resolution] = []
        self.ply = 0

    @classmethod
    def from_game(cls, game: Game) -> Table:
        table = cls(game.seats)
        table.units = [[list(army.units) for army in row] for row in game.armies]
        table.full = [sum(army.full for army in row) for row in game.armies]
        table.hands = None if game.hands is None else [list(hand) for hand in game.hands]
        table.pile = game.pile
        table.drawn = game.drawn
        table.resolutions = list(game.resolutions)
        table.ply = game.ply
        return table

    def snapshot(self) -> Game:
        armies = tuple(
            final
            or tuple([Army(seat, tuple(units)) for seat, units in zip(SEATS, row, strict=False)])
            for row, final in zip(self.units, self.final, strict=True)
        )
        hands = None if self.hands is None else tuple(tuple(hand) for hand in self.hands)
        return Game(
            self.seats, armies, hands, self.pile, self.drawn, tuple(self.resolutions), self.ply
        )

    def resolution(self, state: State) -> Resolution | None:
        return next((r for r in self.resolutions if r.state is state), None)

    def count(self, state: State, seat: int) -> int:
        """How many units ``seat`` has in ``state``."""
        return len(self.units[state - 1][seat])

    def play(
        self, card: Card, state: State, *, seat: int | None = None, drawn: Card | None = None
    ) -> Turn:
        """As ``Game.play``, on this table. An illegal play leaves it unchanged."""
        mover = SEATS[self.ply % self.seats]
        if len(self.resolutions) == _STATE_COUNT:
            raise IllegalPlay(
                Violation.GAME_OVER,
                f"{seat_name(mover)} plays {card} to {state.full_name}, but the game ended at "
                f"ply {self.ply} when the fifth marker was placed",
            )
        if seat is not None and seat != mover:
            raise IllegalPlay(
                Violation.OUT_OF_TURN,
                f"{seat_name(seat)} plays out of turn: ply {self.ply + 1} is {seat_name(mover)}'s",
            )
        pile = self.pile
        if pile is None:
            draw = drawn
        else:
            draw = pile[self.drawn] if self.drawn < len(pile) else None
            if drawn is not None and drawn != draw:
                actual = (
                    f"draws {draw}" if draw is not None else "draws nothing: the draw pile is empty"
                )
                raise IllegalPlay(
                    Violation.WRONG_DRAW,
                    f"{seat_name(mover)} is said to draw {drawn}, "
                    f"but the pile says {seat_name(mover)} {actual}",
                )
        hand = None
        if self.hands is not None:
            hand = self.hands[mover]
            joins = (
                draw if pile is not None else None
            )  # only a draw from the known pile joins the hand
            if card is not joins and card not in hand:  # one object per card: identity is equality
                held = hand + [joins] if joins is not None else list(hand)

                def not_held() -> str:
                    shown = " ".join(str(c) for c in held) or "nothing"
                    return f"{seat_name(mover)} plays {card}, but holds only {shown}"

                raise IllegalPlay(Violation.NOT_IN_HAND, not_held)
        index = state - 1
        row = self.units[index]
        army = row[mover]
        if len(army) >= UNITS_PER_ARMY:
            raise IllegalPlay(
                Violation.STATE_FULL,
                f"{seat_name(mover)} plays {card} to {state.full_name}, but {seat_name(mover)} "
                f"already has four units there",
            )
        if hand is not None:
            if draw is not None and pile is not None:
                hand.append(draw)
            hand.remove(card)
        if pile is not None and draw is not None:
            self.drawn += 1
        self.ply = ply = self.ply + 1
        army.append(
            _new(Unit, (card, ply))
        )  # (named tuples built without their Python-level __new__)
        if len(army) < UNITS_PER_ARMY:
            return _new(Turn, (ply, mover, card, state, draw, None, False))
        self.full[index] += 1
        if self.full[index] < self.seats:
            return _new(Turn, (ply, mover, card, state, draw, None, False))
        armies = tuple([Army(seat, tuple(units)) for seat, units in zip(SEATS, row, strict=False)])
        self.final[index] = armies
        resolution = Resolution(state, len(self.resolutions) + 1, ply, rank(armies))
        self.resolutions.append(resolution)
        return Turn(
            ply, mover, card, state, draw, resolution, len(self.resolutions) == _STATE_COUNT
        )
