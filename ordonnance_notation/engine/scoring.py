"""Who won: classic scoring (most states) and points scoring (D1, D2).

Classic tie (3-4 seats): among the tied seats, with k the tied count of
states, the seat whose k-th capture carries the higher marker number wins.
Points tie (D2): more states wins; still equal, the classic tie rule.
A tie that no rule breaks (only possible with a custom points table) is
shared: ``Outcome.winner`` is None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from .cards import SEATS, seat_name
from .game import Resolution

DEFAULT_POINTS = (3, 2, 1, 0)


class TieBreak(Enum):
    """The rule that picked the winner among seats equal on the main count."""

    MORE_STATES = "more states"
    LATER_CAPTURE = "later capture"


@dataclass(frozen=True, slots=True)
class Scoring:
    """``points`` is None for classic scoring, else points by rank (D1)."""

    points: tuple[int, ...] | None = None

    @classmethod
    def classic(cls) -> Scoring:
        return _CLASSIC if cls is Scoring else cls(None)  # immutable: one will do

    @classmethod
    def by_points(cls, table: Sequence[int] = DEFAULT_POINTS) -> Scoring:
        return cls(tuple(table))

    @property
    def is_points(self) -> bool:
        return self.points is not None

    @property
    def unit(self) -> str:
        """What the scores count: ``"states"`` or ``"points"``."""
        return "points" if self.is_points else "states"

    def points_for(self, place: int) -> int:
        assert self.points is not None
        return self.points[place] if place < len(self.points) else 0


_CLASSIC = Scoring(None)


@dataclass(frozen=True, slots=True)
class Outcome:
    """``scores`` holds states per seat (classic) or points per seat (points)."""

    winner: int | None
    scores: tuple[int, ...]
    states: tuple[int, ...]
    tie_break: TieBreak | None
    tied: tuple[int, ...]  # the seats the tie-break chose among; () without a tie

    def describe(self, unit: str) -> str:
        """``"P2 wins (states: P1 1, P2 4)"``, naming the tie-break that decided, if any."""
        scores = ", ".join(f"{seat_name(s)} {v}" for s, v in enumerate(self.scores))
        if self.winner is None:
            return f"the win is shared ({unit}: {scores}, no rule breaks the tie)"
        tie = f", {self.tie_break.value} decides the tie" if self.tie_break else ""
        return f"{seat_name(self.winner)} wins ({unit}: {scores}{tie})"


def captured(winners: Sequence[int], seat: int) -> list[int]:
    """Marker numbers of the states ``seat`` won, in order; ``winners``: the
    seat that won each marker, in marker order."""
    return [marker for marker, winner in enumerate(winners, 1) if winner == seat]


def score(seats: int, resolutions: Sequence[Resolution], scoring: Scoring) -> Outcome:
    """The outcome of a finished game (every state resolved), under
    ``scoring``. Raises nothing; an unfinished game's resolutions are scored
    as they stand."""
    return scored(seats, [tuple(army.seat for army in r.ranking) for r in resolutions], scoring)


def scored(seats: int, rankings: Sequence[Sequence[int]], scoring: Scoring) -> Outcome:
    """The outcome of a finished game by the seats' order in each state,
    strongest first, the states in the order of their markers."""
    winners = [ranking[0] for ranking in rankings]
    states = tuple(map(winners.count, range(seats)))
    if scoring.points is None:
        scores = states
    else:
        scores = tuple(
            sum(scoring.points_for(ranking.index(seat)) for ranking in rankings)
            for seat in range(seats)
        )
    best = max(scores)
    leaders = [seat for seat in SEATS[:seats] if scores[seat] == best]
    if len(leaders) == 1:
        return Outcome(leaders[0], scores, states, None, ())
    tie_break = None
    if scoring.is_points:
        most = max(states[seat] for seat in leaders)
        if sum(1 for seat in leaders if states[seat] == most) == 1:
            winner = next(seat for seat in leaders if states[seat] == most)
            return Outcome(winner, scores, states, TieBreak.MORE_STATES, tuple(leaders))
        leaders = [seat for seat in leaders if states[seat] == most]
        tie_break = TieBreak.MORE_STATES
    k = states[leaders[0]]
    if k == 0:
        return Outcome(None, scores, states, tie_break, tuple(leaders))
    winner = max(leaders, key=lambda seat: captured(winners, seat)[k - 1])
    return Outcome(winner, scores, states, TieBreak.LATER_CAPTURE, tuple(leaders))
