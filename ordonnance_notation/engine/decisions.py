"""What the analysis (``analysis.analyse``) says of a game: when each state
and the game were decided, and the plays that gave them away. Apart from
the analysis itself, whose tables cost a start-up: a view of what the
compiled core found needs these and not it. The many small parts are named
tuples: the core's analysis of an archive makes millions of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card, State


class Loss(NamedTuple):
    """At ``ply`` (the play of seat ``by``), ``seat`` could no longer win what it
    could win before; when ``by`` is ``seat`` and its hand was known, the
    other plays that would have kept the chance (``alternatives``)."""

    seat: int
    ply: int
    by: int
    alternatives: tuple[tuple[Card, State], ...] = ()

    @property
    def own(self) -> bool:
        return self.seat == self.by


class StateAnalysis(NamedTuple):
    """When ``state`` was decided (the ply after which one seat alone could
    win it; 0: before the first play; None: never, in the plays recorded),
    who could win it after each ply that changed that, and who lost it when."""

    state: State
    decided: int | None
    winner: int | None  # the one seat that could win it at the end of the record
    resolved: int | None  # the ply that resolved it, if one did
    losses: tuple[Loss, ...]
    exact: bool  # the deal was known throughout: decided as early as it truly was, ties aside
    can_win: frozenset[int]  # the seats that could still win it after the last play recorded


@dataclass(frozen=True, slots=True)
class Analysis:
    seats: int
    states: tuple[StateAnalysis, ...]  # in the order A C J E T
    decided: int | None  # the ply after which one seat alone could win the game
    winner: int | None
    losses: tuple[Loss, ...]  # seats that could no longer win the game, and when
    known_deal: bool
    can_win: frozenset[int]  # the seats that could still win the game after the last play

    def state(self, state: State) -> StateAnalysis:
        return self.states[state - 1]


_SEATS = [frozenset(s for s in range(4) if mask >> s & 1) for mask in range(16)]
PLAYS_BY_CODE: list[tuple[Card, State] | None] = [None] * 256  # by the core's play_code
for _card in range(1, 32):
    for _state in State:
        PLAYS_BY_CODE[_card << 3 | _state.value] = (Card(_card), _state)

Plays = tuple[tuple[Card, State], ...]
LossesFound = tuple[tuple[int, int, int, bytes], ...]
Found = tuple[
    bytes,
    tuple[tuple[int | None, int | None, int, LossesFound], ...],
    tuple[int | None, int, LossesFound],
    bool,
]


def play_code(card: Card, state: State) -> int:
    """A play as the compiled core codes it: ``card << 3 | state``, in a byte."""
    return card.mask << 3 | state.value


def play_of(code: int) -> tuple[Card, State]:
    """The play of ``play_code``."""
    play = PLAYS_BY_CODE[code]
    assert play is not None, code
    return play


def plays_from_core(codes: bytes) -> Plays:
    """Plays as the compiled core gives them: bytes of ``card << 3 | state``."""
    return tuple(map(PLAYS_BY_CODE.__getitem__, codes))  # type: ignore[arg-type]


def _losses(found: LossesFound) -> tuple[Loss, ...]:
    if not found:
        return ()
    return tuple(
        [
            _new(Loss, (seat, ply, by, tuple(map(_PLAYED, kept)) if kept else ()))
            for seat, ply, by, kept in found
        ]
    )


def _alone(seats: frozenset[int]) -> int | None:
    return next(iter(seats)) if len(seats) == 1 else None


_ALONE = [_alone(seats) for seats in _SEATS]  # by mask
_STATES = tuple(State)
_PLAYED = PLAYS_BY_CODE.__getitem__
_new = tuple.__new__  # a named tuple made without its __new__: the core's analysis makes millions


def from_core(seats: int, known_deal: bool, found: Found) -> tuple[Analysis, Plays]:
    """The analysis the compiled core found (``_analysis_py.h``), and the
    plays it analysed: plays and kept plays as bytes of ``card << 3 |
    state``, the seats that can win as masks."""
    plays, states, game, exact = found
    parts = tuple(
        [
            _new(
                StateAnalysis,
                (state, decided, _ALONE[can], resolved, _losses(losses), exact, _SEATS[can]),
            )
            for state, (decided, resolved, can, losses) in zip(_STATES, states, strict=True)
        ]
    )
    decided, can, losses = game
    analysis = Analysis(
        seats, parts, decided, _ALONE[can], _losses(losses), known_deal, _SEATS[can]
    )
    return analysis, tuple(map(_PLAYED, plays))  # type: ignore[arg-type]
