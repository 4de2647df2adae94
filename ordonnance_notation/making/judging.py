"""What each play is worth to the seat that makes it, judged by what that
seat could know (``engine.seatview``): the unseen cards dealt again at
random, every play made on each such deal, and the game played out to its
end by a continuation policy that sees no hidden card either (the careful
bot: the values mean "if play then goes on as careful bots play it").

A play's value is its win chance, the share of play-outs its seat won, with
a 95% interval (Wilson's), and the states it won on average. Every play is
tried on the same deals and the same random numbers (deal ``i`` and its
streams are the same whichever play is made), so two plays differ by what
they do, not by their luck; the loss of one play against another is the
mean of their differences deal by deal. The play-outs are spent where plays
are close, by sequential halving (Karnin, Koren and Somekh 2013): the plays
share each round's play-outs, and the better half goes on to the next.

A judgement is the same for the same seed on any machine: the deals and the
bots' choices come from ``engine.rng`` streams named by the seed, the deal
and the seat. Only a ``seconds`` limit can make it stop earlier on a slower
machine; it says so (``complete``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..engine.budget import Budget, OutOfBudget
from ..engine.cards import Card, State
from ..engine.game import Game, plays_from
from ..engine.rng import Rng, Stream64
from ..engine.scoring import Scoring
from ..engine.seatview import SeatView
from .heuristics import COMPILED_BOTS
from .playout import PLAYED_OUT, played_out
from .statistics import Z95, wilson

POLICY = "careful"
"""The continuation policy: the bot every seat plays the rest of the game as."""

PLAYOUTS = 4000
"""Play-outs a judgement spends by default, over all the plays it compares."""

Play = tuple[Card, State]


@dataclass(frozen=True, slots=True)
class PlayValue:
    """One play's worth to its seat: the outcome of each play-out it was
    tried in, deal by deal (1 a win, 0 not), and each play-out's states."""

    card: Card
    state: State
    wins: tuple[int, ...]
    states: tuple[int, ...]

    @property
    def play(self) -> Play:
        return self.card, self.state

    @property
    def tries(self) -> int:
        return len(self.wins)

    @property
    def win_chance(self) -> float:
        return sum(self.wins) / len(self.wins) if self.wins else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The win chance's 95% interval (Wilson's)."""
        return wilson(sum(self.wins), len(self.wins))

    @property
    def expected_states(self) -> float:
        return sum(self.states) / len(self.states) if self.states else math.nan


@dataclass(frozen=True, slots=True)
class Loss:
    """What a play costs against another in win chance, over the deals both
    were tried on: the mean difference and its 95% interval."""

    loss: float
    low: float
    high: float
    deals: int

    @property
    def width(self) -> float:
        return self.high - self.low


@dataclass(frozen=True, slots=True)
class Judgement:
    """Every judged play of the seat to move at ``ply`` (the ply about to be
    played), best first; ``complete`` is False where a ``seconds`` limit
    stopped the play-outs before all were spent. Where plays were kept
    beside the best, ``fresh`` is the first deal after those the best was
    chosen on: their losses and win chances are measured from there on."""

    seat: int
    ply: int
    policy: str
    plays: tuple[PlayValue, ...]
    playouts: int
    complete: bool
    fresh: int | None = None

    @property
    def best(self) -> PlayValue:
        return self.plays[0]

    def value_of(self, play: Play) -> PlayValue:
        """Raises KeyError for a play that was not judged."""
        for value in self.plays:
            if value.play == play:
                return value
        raise KeyError(play)

    def loss(self, play: Play, against: Play | None = None) -> Loss:
        """What ``play`` costs against ``against`` (the best by default)."""
        mine = self.value_of(play)
        other = self.best if against is None else self.value_of(against)
        first = self._first(mine, other)
        return _paired(other.wins[first:], mine.wins[first:], min(mine.tries, other.tries))

    def chance(self, play: Play) -> float:
        """The play's win chance, on the fresh deals where it was tried on them."""
        value = self.value_of(play)
        wins = value.wins[self._first(value, self.best) :]
        return sum(wins) / len(wins) if wins else math.nan

    def _first(self, *values: PlayValue) -> int:
        fresh = self.fresh
        return fresh if fresh is not None and all(v.tries > fresh for v in values) else 0


def _paired(better: Sequence[int], worse: Sequence[int], n: int) -> Loss:
    """The mean of ``better - worse`` over the first ``n`` deals, with its
    95% interval (normal, from the differences' own variance)."""
    n = min(n, len(better), len(worse))
    if n == 0:
        return Loss(math.nan, -1.0, 1.0, 0)
    diffs = [better[i] - worse[i] for i in range(n)]
    mean = sum(diffs) / n
    if n == 1:
        return Loss(mean, -1.0, 1.0, 1)
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return Loss(mean, mean - half, mean + half, n)


def legal_plays(view: SeatView) -> tuple[Play, ...]:
    """Every play the seat can make, identical cards once, by card then state."""
    return plays_from(view.hand, view.table.open_states(view.seat))


class _Tries:
    """The play-outs of one judgement: deal ``i`` drawn once and kept, each
    play tried on deals 0, 1, 2, ... in turn."""

    def __init__(self, view: SeatView, seed: str, fixed_streams: bool, scoring: Scoring) -> None:
        if view.table.to_move != view.seat:
            raise ValueError("a play is judged for the seat to move")
        self.view = view
        self.seed = seed
        self.fixed = fixed_streams
        self.scoring = scoring
        self.points: tuple[tuple[int, ...], ...] = (
            () if scoring.points is None else (scoring.points,)
        )
        self.seats = view.table.seats
        self.prefix = tuple((card.mask, state - 1) for card, state in view.table.plays_made())
        self.deals: list[Game] = []
        self.streams: list[tuple[str, ...]] = []

    def _deal(self, i: int) -> tuple[Game, tuple[str, ...]]:
        while len(self.deals) <= i:
            n = len(self.deals)
            self.deals.append(self.view.sample(Rng(f"{self.seed}/deal/{n}")))
            base = "play/fixed" if self.fixed else f"{self.seed}/play/{n}"
            self.streams.append(tuple(f"{base}/{s}" for s in range(self.seats)))
        return self.deals[i], self.streams[i]

    def outcome(self, play: Play, i: int) -> tuple[int, int]:
        """Whether the seat won deal ``i`` after ``play``, and its states."""
        world, streams = self._deal(i)
        card, state = play
        seat = self.view.seat
        assert world.hands is not None and world.pile is not None  # dealt by the view
        hands = [list(hand) for hand in world.hands]
        pile = list(world.pile)
        if pile:
            hands[seat].append(pile.pop(0))
        hands[seat].remove(card)
        rngs = [Stream64(stream) for stream in streams]
        if PLAYED_OUT is not None:
            winner, states = PLAYED_OUT(
                (*self.prefix, (card.mask, state - 1)),
                tuple(tuple(c.mask for c in hand) for hand in hands),
                tuple(c.mask for c in pile),
                (COMPILED_BOTS[POLICY],) * self.seats,
                tuple(rng.state for rng in rngs),
                *self.points,
            )
        else:
            prefix = [(Card(mask), State(index + 1)) for mask, index in self.prefix]
            won, states = played_out(
                [*prefix, (card, state)],
                hands,
                pile,
                [POLICY] * self.seats,
                rngs,
                scoring=self.scoring,
            )
            winner = -1 if won is None else won
        return int(winner == seat), states[seat]


def judge(
    view: SeatView,
    *,
    seed: str = "",
    playouts: int = PLAYOUTS,
    plays: Sequence[Play] | None = None,
    keep: Sequence[Play] = (),
    seconds: float | None = None,
    fixed_streams: bool = False,
    precision: float | None = None,
    most: int = 4,
    scoring: Scoring | None = None,
) -> Judgement:
    """Each of ``plays`` (every legal play by default) judged for the seat of
    ``view``, who is to move, with about ``playouts`` play-outs in all,
    spent by sequential halving; the plays of ``keep`` (e.g. the play a
    record made) are then tried on as many deals as the best, and, with
    ``precision``, on more deals, the best too, until each one's loss
    against the best has its 95% interval that far either side, or they
    have had ``most`` times the deals halving gave the best. With
    ``seconds``, stops when that much CPU time is spent (``Budget``, whose
    watch may end it at once). ``fixed_streams`` gives
    every play-out the same random numbers, whatever the seed: a
    continuation that does not vary from deal to deal, whose exact value
    over every deal the tests can compute.
    A play-out is won by the ``scoring``'s winner (a shared win is not a
    win). Raises ValueError when the seat is not to move or has no play."""
    candidates = list(dict.fromkeys(plays if plays is not None else legal_plays(view)))
    for play in keep:
        if play not in candidates:
            candidates.append(play)
    if not candidates:
        raise ValueError("the seat has no play to judge")
    tries = _Tries(view, seed, fixed_streams, scoring or Scoring.classic())
    budget = Budget(seconds)
    wins: dict[Play, list[int]] = {play: [] for play in candidates}
    states: dict[Play, list[int]] = {play: [] for play in candidates}
    spent = 0
    complete = True

    def try_until(play: Play, n: int) -> bool:
        nonlocal spent
        done = wins[play]
        while len(done) < n:
            try:
                budget.check()
            except OutOfBudget:
                return False
            won, held = tries.outcome(play, len(done))
            done.append(won)
            states[play].append(held)
            spent += 1
        return True

    def mean(play: Play) -> float:
        done = wins[play]
        return sum(done) / len(done) if done else -1.0

    alive = list(candidates)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    target = 0
    for _ in range(rounds):
        target += max(1, playouts // (rounds * len(alive)))
        if not all(try_until(play, target) for play in alive):
            complete = False
            break
        if len(alive) == 1:
            break
        order = sorted(range(len(alive)), key=lambda i: (-mean(alive[i]), i))
        alive = [alive[i] for i in order[: math.ceil(len(alive) / 2)]]
    fresh = None
    if complete:
        best = max(alive, key=lambda play: (mean(play), -candidates.index(play)))
        others = [play for play in keep if play != best]
        if others:
            # the best was chosen on its deals so far: a play chosen as best
            # among many is lucky on them, so what it is worth against the
            # kept plays is measured on as many deals again, fresh ones
            fresh = chosen = len(wins[best])
            enough, last = 2 * chosen, (1 + most) * chosen
            while True:
                if not all(try_until(play, enough) for play in (best, *others)):
                    complete = False
                    break
                if precision is None or enough >= last:
                    break
                widest = max(
                    _paired(wins[best][fresh:], wins[play][fresh:], enough).width for play in others
                )
                if widest <= 2 * precision:
                    break
                enough = min(fresh + 2 * (enough - fresh), last)
    # the plays that went furthest first: a play dropped early on a few deals
    # may show a lucky mean, but halving found a better one beside it
    ranked = sorted(
        candidates, key=lambda play: (-len(wins[play]), -mean(play), candidates.index(play))
    )
    return Judgement(
        view.seat,
        view.table.ply + 1,
        POLICY,
        tuple(
            PlayValue(card, state, tuple(wins[card, state]), tuple(states[card, state]))
            for card, state in ranked
        ),
        spent,
        complete,
        fresh,
    )


PRECISION = 0.05
"""How close a judged play's loss is known by default: its 95% interval at
most this far either side (five points of win chance), where the play-outs
allow (``judge_record``'s ``most``)."""

GRADES = ((0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
"""A play's grade by the win chance it lost, as lichess grades a move by
the winning chances it lost (0.3, 0.2 and 0.1 of its scale from -1 to 1:
15, 10 and 5 points of a chance from 0 to 1), given only where the loss's
95% interval leaves out no loss at all."""


@dataclass(frozen=True, slots=True)
class JudgedPly:
    """A record's play judged from its seat's view: the play made and the
    judgement of the position it was made in."""

    ply: int
    seat: int
    play: Play
    judgement: Judgement

    @property
    def before(self) -> float:
        """The seat's win chance before the play: its best play's."""
        return self.judgement.chance(self.judgement.best.play)

    @property
    def after(self) -> float:
        """The seat's win chance after the play made."""
        return self.judgement.chance(self.play)

    @property
    def loss(self) -> Loss:
        return self.judgement.loss(self.play)

    @property
    def grade(self) -> str | None:
        """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` (``GRADES``) or None."""
        loss = self.loss
        if self.play == self.judgement.best.play or not loss.low > 0:
            return None
        return next((word for least, word in GRADES if loss.loss >= least), None)

    @property
    def accuracy(self) -> float:
        """The play's accuracy from 0 to 100, lichess's formula of the win
        chance lost (in points, none below zero):
        ``103.1668 * exp(-0.04354 * lost) - 3.1669``."""
        lost = 100 * max(0.0, self.before - self.after)
        return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * lost) - 3.1669))


@dataclass(frozen=True, slots=True)
class RecordJudgement:
    """Every play of a record judged from its seat's view (``plies``, in
    order), by ``policy`` play-outs, ``playouts`` a ply planned, ``seed``."""

    seats: int
    policy: str
    playouts: int
    seed: str
    plies: tuple[JudgedPly, ...]

    def accuracy(self, seat: int) -> float | None:
        """The mean of the seat's plays' accuracies; None before it played."""
        own = [judged.accuracy for judged in self.plies if judged.seat == seat]
        return sum(own) / len(own) if own else None

    def graded(self) -> list[JudgedPly]:
        return [judged for judged in self.plies if judged.grade is not None]


class PlyTask(NamedTuple):
    """One ply of a record to judge (``judged_ply``): sent to a worker."""

    view: SeatView
    seed: str
    play: Play
    playouts: int
    precision: float | None
    most: int
    scoring: Scoring | None


def judged_ply(task: PlyTask) -> Judgement:
    """``judge`` of one ply of a record, the play made kept."""
    return judge(
        task.view,
        seed=task.seed,
        playouts=task.playouts,
        keep=[task.play],
        precision=task.precision,
        most=task.most,
        scoring=task.scoring,
    )


Spread = Callable[[Callable[[PlyTask], Judgement], Iterable[PlyTask]], Iterable[Judgement]]
"""What judges the plies of a record: ``map`` here, or a pool's map."""


def judge_record(
    game: Game,
    plays: Sequence[Play],
    *,
    deck: Sequence[Card] | None = None,
    seed: str = "",
    playouts: int = PLAYOUTS,
    precision: float | None = PRECISION,
    most: int = 4,
    scoring: Scoring | None = None,
    spread: Spread = map,
) -> RecordJudgement:
    """Each of ``plays``, made from ``game`` on (a game with its deal; the
    plays legal, as a validated record's are), judged from its seat's view
    (``SeatView.of(position, seat, deck)``) by ``judge``, the play made
    kept and its loss known to ``precision``; the plies judged by
    ``spread`` (a pool's map spreads them over its workers: each ply is
    judged alone, so the result is the same). Raises UnknownDeal for a game
    without its deal."""
    tasks: list[PlyTask] = []
    for play in plays:
        if game.over:
            break
        view = SeatView.of(game, game.to_move, deck)
        key = f"{seed}/{game.ply + 1}"
        tasks.append(PlyTask(view, key, play, playouts, precision, most, scoring))
        game = game.play(*play)[0]
    judged = [
        JudgedPly(task.view.table.ply + 1, task.view.seat, task.play, judgement)
        for task, judgement in zip(tasks, spread(judged_ply, tasks), strict=True)
    ]
    return RecordJudgement(game.seats, POLICY, playouts, seed, tuple(judged))
