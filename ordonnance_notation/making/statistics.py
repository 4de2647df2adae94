"""How sure a match's numbers are: win shares with their 95% interval, the
Elo difference of two bots, and the sequential probability ratio test
(SPRT) that stops a match once it has its answer.

The Elo model is the logistic one of chess's match runners, extended to a
table of more seats as Plackett-Luce's first place: a side holding ``k``
of ``n`` seats, ``d`` Elo stronger than the other side's bot, wins a game
with probability ``k·g / (k·g + n - k)``, ``g = 10^(d/400)``; at two seats
that is the usual ``1 / (1 + 10^(-d/400))``. The SPRT is the generalised
one of fishtest and fastchess (their "logistic" model): from the mean
score ``s`` and its variance ``var`` over ``N`` games, the log-likelihood
ratio of ``elo1`` against ``elo0`` is ``N (s1 - s0)(2s - s0 - s1) / (2 var)``,
tested against ``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of ``wins`` in ``games``."""
    if games == 0:
        return 0.0, 1.0
    share = wins / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    low, high = centre - half / (1 + z * z / games), centre + half / (1 + z * z / games)
    # exact at the ends, where rounding would leave a sweep short of 100% (and of +inf Elo)
    return (0.0 if share <= 0 else low), (1.0 if share >= 1 else high)


def expected(elo: float, held: int, seats: int) -> float:
    """The share of games a side holding ``held`` of ``seats`` seats wins,
    ``elo`` stronger than the side holding the rest."""
    g = 10 ** (elo / 400)
    return held * g / (held * g + seats - held)


def elo_of(score: float, held: int, seats: int) -> float:
    """The Elo difference that ``expected`` turns into ``score`` (±inf at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score * (seats - held) / (held * (1 - score)))


def _mean_and_variance(scores: Sequence[float]) -> tuple[float, float]:
    mean = sum(scores) / len(scores)
    return mean, sum((x - mean) ** 2 for x in scores) / len(scores)


@dataclass(frozen=True, slots=True)
class Elo:
    """The Elo difference of a side over the other, with its 95% interval."""

    games: int
    score: float
    elo: float
    low: float
    high: float


def elo_difference(scores: Sequence[float], held: int, seats: int) -> Elo:
    """From each game's score of the side (1 a win, 0 a loss, its fair share
    for a shared win): the Elo estimate, its interval from the score's. When
    every game scored the same (a clean sweep), the score's normal interval
    is a point, and the Wilson interval is taken: a sweep is +inf Elo, but
    at least a finite bound."""
    mean, variance = _mean_and_variance(scores)
    if variance == 0:
        low, high = wilson(mean * len(scores), len(scores))
    else:
        half = Z95 * math.sqrt(variance / len(scores))
        low, high = mean - half, mean + half
    return Elo(
        len(scores),
        mean,
        elo_of(mean, held, seats),
        elo_of(low, held, seats),
        elo_of(high, held, seats),
    )


@dataclass(frozen=True, slots=True)
class Sprt:
    """The test of ``elo1`` against ``elo0`` (Elo of the first side over the
    other) with false-positive rate ``alpha`` and false-negative ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, scores: Sequence[float], held: int, seats: int) -> float:
        """The log-likelihood ratio after ``scores``; 0 while they do not vary."""
        if not scores:
            return 0.0
        mean, variance = _mean_and_variance(scores)
        if variance == 0:
            return 0.0
        s0, s1 = expected(self.elo0, held, seats), expected(self.elo1, held, seats)
        return len(scores) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def verdict(self, llr: float) -> str | None:
        """``"H1"`` (elo1 accepted: the side is stronger), ``"H0"``, or None: play on."""
        low, high = self.bounds
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None
