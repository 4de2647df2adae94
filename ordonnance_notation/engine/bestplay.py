"""Best play with every card known: the value of a position, found exactly.

**Why the deal.** With the deal known, the cards each seat will hold are
fixed by the deal and the turn order (``analysis.py`` says why), so a
position is only which cards each seat has placed where, and a search over
every continuation is finite and exact. Without the deal a seat's cards to
come may be any cards, and best play is not defined.

**The value.** At two seats the five states are shared between the two, and
every points table ranks the results as the count of states does (a stronger
army never scores less, D1, D2), so the value is the number of states P1
gets when each seat plays for its own best result (P2 gets the rest); P1
wins with best play when that is three or more. At three and four seats the
value is, for each seat, whether it can force a win against all the others
playing together against it (the *paranoid* value): a seat that can, wins
whatever the others do.

**The search.** Zero-window alpha-beta on the outcome ("does P1 get at least
v states?"), a transposition table keyed on the position whatever the order
of the plays that made it (the states sorted, since only the markers' order
tells them apart; a state whose winner is certain kept as that winner and how
full it is), identical cards as one play, and bounds from what each seat can
still make in each state (``analysis``'s reach) as cut-offs:

- a seat is *sure* of a state when no other seat's strongest army there can
  beat its weakest, and *can* win one when its strongest can beat every other
  seat's weakest (ties by the earlier fourth card, as the rules break them);
- the **commitment bound**: when a seat can set aside disjoint groups of its
  own unplayed cards, each completing an army that beats the strongest any
  other seat can make in that state, it wins those states whatever anyone
  plays (any assignment of a seat's cards to its states can be carried out,
  ``analysis.py``).

A search that meets its ``Budget`` stops with ``OutOfBudget``; the bounds it
proved before stand (``Value`` says them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, count, product
from typing import NamedTuple

from . import analysis
from .analysis import RANKS, _candidates, _extreme, could_outrank
from .armies import PACKED, UNITS_PER_ARMY
from .budget import Budget, OutOfBudget
from .cards import Card, State
from .game import PLAYS_PER_SEAT, STATES, Game
from .scoring import Scoring, scored

_STATES = len(STATES)
_ICONS = [mask.bit_count() for mask in range(32)]
_MASKS = range(1, 32)
_WIN = _STATES // 2 + 1  # the states that win at two seats

Play = tuple[int, int]  # a card's mask and a state's index (0: Antioch)


def solvable(game: Game) -> str | None:
    """Why best play is not defined for ``game``; None when it is: the deal
    must be known, and hold a card for every place still to fill (D5, D8)."""
    if game.hands is None or game.pile is None:
        return "without the deal, a seat's cards to come may be any cards"
    board = Board(game, Scoring.classic())
    for seat in range(game.seats):
        places = sum(UNITS_PER_ARMY - board.units[i][seat] for i in range(_STATES))
        if sum(board.pool[seat]) < places:
            return "the deal runs out before every place is filled"
    return None


class Board:
    """A position of a game whose deal is known, changed in place by
    ``play`` and taken back by ``undo``: what each seat holds, will still
    draw, and has placed in each state."""

    def __init__(self, game: Game, scoring: Scoring) -> None:
        """Raises ValueError without the deal (see ``solvable``)."""
        if game.hands is None or game.pile is None:
            raise ValueError("best play needs the deal")
        seats = self.seats = game.seats
        self.scoring = scoring
        self.ply = game.ply
        self.end = PLAYS_PER_SEAT * seats
        self.pile = bytes(card.mask for card in game.pile)
        self.hand = [[0] * 32 for _ in range(seats)]  # by mask, before the turn's draw
        self.pool = [[0] * 32 for _ in range(seats)]  # every card still to play or hold
        for seat, cards in enumerate(game.hands):
            for card in cards:
                self.hand[seat][card.mask] += 1
                self.pool[seat][card.mask] += 1
        for at in range(game.drawn, min(len(self.pile), self.end)):
            # the pile's card ``at`` is drawn at ply at + 1
            self.pool[at % seats][self.pile[at]] += 1
        self.keys = [bytes(pool) for pool in self.pool]
        self.cards = tuple(self.keys)  # every card each seat has from here, by mask
        self.base = [[0] * seats for _ in STATES]  # packed icon counts of each army
        self.units = [[0] * seats for _ in STATES]
        self.fourth = [[0] * seats for _ in STATES]  # the ply of each army's fourth card
        for index, row in enumerate(game.armies):
            for seat, army in enumerate(row):
                self.base[index][seat] = sum(PACKED[card.mask] for card in army.cards)
                self.units[index][seat] = len(army.units)
                self.fourth[index][seat] = army.fourth_ply or 0
        self.markers = [0] * _STATES  # the marker of each resolved state; 0 while open
        self.rankings: list[tuple[int, ...]] = []  # seats strongest first, by marker
        for resolution in game.resolutions:
            self.markers[resolution.state - 1] = resolution.marker
            self.rankings.append(tuple(army.seat for army in resolution.ranking))
        self._done: list[tuple[int, int, bytes]] = []

    @property
    def mover(self) -> int:
        return self.ply % self.seats

    @property
    def over(self) -> bool:
        return len(self.rankings) == _STATES

    def holding(self) -> list[int]:
        """The mover's hand once the turn's draw is in it, by mask."""
        hand = self.hand[self.mover]
        if self.ply < len(self.pile):
            hand = hand.copy()
            hand[self.pile[self.ply]] += 1
        return hand

    def plays(self) -> list[Play]:
        """Every legal play of the mover, identical cards as one."""
        seat = self.mover
        hand = self.holding()
        states = [i for i in range(_STATES) if self.units[i][seat] < UNITS_PER_ARMY]
        return [(mask, i) for mask in _MASKS if hand[mask] for i in states]

    def play(self, mask: int, index: int) -> None:
        """The mover draws and plays ``mask`` to the state ``index`` (a legal play)."""
        seat = self.ply % self.seats
        if self.ply < len(self.pile):
            self.hand[seat][self.pile[self.ply]] += 1
        self.hand[seat][mask] -= 1
        self.pool[seat][mask] -= 1
        self._done.append((mask, index, self.keys[seat]))
        self.keys[seat] = bytes(self.pool[seat])
        self.base[index][seat] += PACKED[mask]
        units = self.units[index]
        units[seat] += 1
        self.ply += 1
        if units[seat] == UNITS_PER_ARMY:
            self.fourth[index][seat] = self.ply
            if min(units) == UNITS_PER_ARMY:
                base, fourth = self.base[index], self.fourth[index]
                ranking = sorted(range(self.seats), key=lambda s: (-RANKS[base[s]], fourth[s]))
                self.rankings.append(tuple(ranking))
                self.markers[index] = len(self.rankings)

    def undo(self) -> None:
        """Takes back the last ``play``."""
        mask, index, key = self._done.pop()
        self.ply -= 1
        seat = self.ply % self.seats
        units = self.units[index]
        if units[seat] == UNITS_PER_ARMY:
            if self.markers[index]:
                self.markers[index] = 0
                self.rankings.pop()
            self.fourth[index][seat] = 0
        units[seat] -= 1
        self.base[index][seat] -= PACKED[mask]
        self.keys[seat] = key
        self.pool[seat][mask] += 1
        self.hand[seat][mask] += 1
        if self.ply < len(self.pile):
            self.hand[seat][self.pile[self.ply]] -= 1

    def rewind(self, plays: int) -> None:
        """Takes back plays until ``plays`` of those made here remain."""
        while len(self._done) > plays:
            self.undo()

    @property
    def depth(self) -> int:
        return len(self._done)

    def outcome_winner(self) -> int | None:
        """The winner of the finished game (None: shared, D9)."""
        return scored(self.seats, self.rankings, self.scoring).winner

    def won(self, seat: int) -> int:
        """The states ``seat`` has won so far."""
        return sum(1 for ranking in self.rankings if ranking[0] == seat)


_Reach = tuple[int, int]  # the weakest and the strongest army a seat can still make, as RANKS


class _Reaches:
    """What each seat can still make in a state, by its unplayed cards (the
    pool's key), the army there and how many cards it lacks: cached, for a
    seat's pool changes only at its own plays."""

    def __init__(self) -> None:
        self.known: dict[tuple[bytes, int, int], _Reach] = {}

    def of(self, board: Board, index: int, seat: int) -> _Reach:
        base = board.base[index][seat]
        k = UNITS_PER_ARMY - board.units[index][seat]
        if k == 0:
            rank = RANKS[base]
            return rank, rank
        key = (board.keys[seat], base, k)
        found = self.known.get(key)
        if found is None:
            pool = {mask: n for mask, n in enumerate(board.pool[seat]) if n}
            low = _extreme(base, k, _candidates(pool, 0, k, False), False)[0]  # type: ignore[arg-type]
            high = _extreme(base, k, _candidates(pool, 0, k, True), True)[0]  # type: ignore[arg-type]
            found = self.known[key] = (low, high)
        return found


@dataclass(slots=True)
class Survey:
    """What the bounds say of each state still open: the seats that can still
    win it (``can``, masks) and the seat sure of it (``sure``, -1: none)."""

    can: list[int]
    sure: list[int]
    key: tuple[object, ...]


def survey(board: Board, reaches: _Reaches, plain: bool) -> Survey:
    """The bounds of every open state and the position's key. ``plain``: the
    outcome depends on each state's winner alone (classic scoring, or two
    seats), so a state whose winner is certain is kept as that winner."""
    seats = board.seats
    can = [0] * _STATES
    sure = [-1] * _STATES
    parts: list[tuple[int, ...]] = []
    for index in range(_STATES):
        marker = board.markers[index]
        if marker:
            ranking = board.rankings[marker - 1]
            sure[index] = ranking[0]
            can[index] = 1 << ranking[0]
            if seats == 2:
                parts.append((0, ranking[0]))
            elif plain:
                parts.append((0, ranking[0], marker))
            else:
                parts.append((0, marker, *ranking))
            continue
        fourth = board.fourth[index]
        reach = [reaches.of(board, index, seat) for seat in range(seats)]
        mask = 0
        for seat in range(seats):
            high = reach[seat][1]
            if all(
                could_outrank(high, fourth[seat], reach[other][0], fourth[other])
                for other in range(seats)
                if other != seat
            ):
                mask |= 1 << seat
        can[index] = mask
        units = tuple(board.units[index])
        if mask & (mask - 1) == 0:  # one seat alone can win it: it is sure of it
            sure[index] = mask.bit_length() - 1
            if plain:
                parts.append((1, sure[index], *units))
                continue
        order = tuple(sorted((s for s in range(seats) if fourth[s]), key=fourth.__getitem__))
        parts.append((2, *board.base[index], *units, len(order), *order))
    parts.sort()
    return Survey(can, sure, (*board.keys, *parts))


def _beating(
    pool: list[int], base: int, k: int, threshold: int, ties: bool, most: int = 3
) -> list[tuple[int, ...]]:
    """Up to ``most`` groups of ``k`` cards of ``pool`` (by mask) that make of
    ``base`` an army above ``threshold`` (or equal to it, with ``ties``),
    those of the fewest icons first."""
    masks = [mask for mask in _MASKS if pool[mask]]
    if k >= 3:  # only the cards not outdone by k others with more icons
        kept = set(_candidates({m: pool[m] for m in masks}, 0, k, True))  # type: ignore[arg-type]
        masks = [mask for mask in masks if mask in kept]
    found = []
    for group in _groups(pool, masks, k):
        rank = RANKS[base + sum(PACKED[mask] for mask in group)]
        if rank > threshold or (ties and rank == threshold):
            found.append(group)
    found.sort(key=lambda group: sum(_ICONS[mask] for mask in group))
    return found[:most]


_Need = tuple[int, int, int, bool]
_COMMITTED: dict[tuple[bytes, tuple[_Need, ...]], int] = {}
_BEATING: dict[tuple[bytes, int, int, int, bool], list[tuple[int, ...]]] = {}
_KEPT = 1 << 17  # entries a cache keeps before it starts again: an archive's memory stays flat


def committed(pool: list[int], needs: list[_Need], check: Callable[[], None] = lambda: None) -> int:
    """How many of the states described by ``needs`` (each: the army there,
    the cards it lacks, the strongest army another seat can make there, and
    whether a tie would go this seat's way) a seat can win whatever is
    played, by setting aside disjoint groups of its unplayed cards (``pool``)
    that beat them: the commitment bound. A witness search, not exhaustive:
    a lower bound. ``check`` as for ``contested``."""
    needs = sorted(needs, key=lambda need: need[1])
    key = (bytes(pool), tuple(needs))
    known = _COMMITTED.get(key)
    if known is not None:
        return known
    if len(_COMMITTED) > _KEPT or len(_BEATING) > _KEPT:
        _COMMITTED.clear()
        _BEATING.clear()
    pool = pool.copy()
    best = 0

    def search(at: int, count: int) -> None:
        nonlocal best
        if count + len(needs) - at <= best:
            return
        if at == len(needs):
            best = count
            return
        base, k, threshold, ties = needs[at]
        found = (bytes(pool), base, k, threshold, ties)
        groups = _BEATING.get(found)
        if groups is None:
            check()
            groups = _BEATING[found] = _beating(pool, base, k, threshold, ties)
        for group in groups:
            for mask in group:
                pool[mask] -= 1
            search(at + 1, count + 1)
            for mask in group:
                pool[mask] += 1
            if best == len(needs):
                return
        search(at + 1, count)

    search(0, 0)
    _COMMITTED[key] = best
    return best


_OPTIONS = 3  # the armies a seat commits to a state in the contest bound: its strongest ranks
_ANSWERS = 4096  # the rival's answers in a state looked at, at most (more: said possible)


class _Held(NamedTuple):
    """A state of the contest bound: the committed seat's army there and the
    cards it lacks, the rival's, and whether a tie goes the committed seat's way."""

    army: int
    k: int
    rival_army: int
    rival_k: int
    ties: bool


def _groups(pool: list[int], masks: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    """The groups of ``k`` of ``masks`` that ``pool`` holds, as multisets in order."""
    for group in combinations_with_replacement(masks, k):
        if all(group.count(mask) <= pool[mask] for mask in set(group)):
            yield group


def _strongest(pool: list[int], base: int, k: int) -> int:
    """The rank of the strongest army of ``base`` and ``k`` cards of ``pool``."""
    if k == 0:
        return RANKS[base]
    counts = Counter({mask: n for mask, n in enumerate(pool) if n})
    return _extreme(base, k, _candidates(counts, 0, k, True), True)[0]


def _options(pool: list[int], army: int, k: int) -> list[tuple[int, tuple[int, ...]]]:
    """The strongest ranks a seat can make of ``army`` and ``k`` cards of its
    ``pool``, up to _OPTIONS, strongest first, each with the group of the
    fewest icons that makes it (the first found among equals)."""
    if k == 0:
        return [(RANKS[army], ())]
    counts = Counter({mask: n for mask, n in enumerate(pool) if n})
    masks = sorted(set(_candidates(counts, 0, k, True)))
    plainest: dict[int, tuple[int, tuple[int, ...]]] = {}
    for group in _groups(pool, masks, k):
        rank = RANKS[army + sum(PACKED[mask] for mask in group)]
        icons = sum(_ICONS[mask] for mask in group)
        if rank not in plainest or icons < plainest[rank][0]:
            plainest[rank] = (icons, group)
    return [(rank, plainest[rank][1]) for rank in sorted(plainest, reverse=True)[:_OPTIONS]]


def _beats(rank: int, held: _Held, committed_rank: int) -> bool:
    """Whether the rival's army of ``rank`` beats the committed one there."""
    return rank > committed_rank or (rank == committed_rank and not held.ties)


def _both(
    pool: list[int], x: tuple[_Held, int], y: tuple[_Held, int], check: Callable[[], None]
) -> bool:
    """Whether the rival (its ``pool``) can beat the committed armies of the
    states ``x`` and ``y`` (each: the state, the committed rank) both, by
    disjoint cards: every answer in x tried, the plainest first."""
    (held, rank), (other, other_rank) = x, y
    masks = [mask for mask in _MASKS if pool[mask]]
    answers = [
        group
        for group in _groups(pool, masks, held.rival_k)
        if _beats(RANKS[held.rival_army + sum(PACKED[mask] for mask in group)], held, rank)
    ]
    if len(answers) > _ANSWERS:
        return True  # too many to look at: said possible, which is safe
    answers.sort(key=lambda group: sum(_ICONS[mask] for mask in group))
    pool = pool.copy()
    for group in answers:
        check()
        for mask in group:
            pool[mask] -= 1
        strongest = _strongest(pool, other.rival_army, other.rival_k)
        for mask in group:
            pool[mask] += 1
        if _beats(strongest, other, other_rank):
            return True
    return False


def _beaten(pool: list[int], chosen: list[tuple[_Held, int]], check: Callable[[], None]) -> int:
    """The most of the committed states ``chosen`` the rival (its ``pool``)
    can beat at once, at most: a set of them it beats pairwise together."""
    alone = [
        i
        for i, (held, rank) in enumerate(chosen)
        if _beats(_strongest(pool, held.rival_army, held.rival_k), held, rank)
    ]
    together = {
        (i, j) for i, j in combinations(alone, 2) if _both(pool, chosen[i], chosen[j], check)
    }
    for size in range(len(alone), 1, -1):
        for subset in combinations(alone, size):
            if all(pair in together for pair in combinations(subset, 2)):
                return size
    return min(len(alone), 1)


def contested(
    pool: list[int],
    rival: list[int],
    states: list[_Held],
    need: int,
    check: Callable[[], None] = lambda: None,
) -> int:
    """How many of ``states`` (each open to both of two seats) a seat (its
    ``pool``) wins at least, whatever is played, when it commits its
    strongest armies to some of them by disjoint groups of its cards and
    the ``rival`` beats as many of those at once as its own cards allow
    (``_beaten``): the contest bound, which the commitment bound is the case
    of where the rival beats none. Stops once it finds ``need``; ``check``
    is called at each step (``Budget.check``: it may raise OutOfBudget)."""
    options = [_options(pool, held.army, held.k) for held in states]
    need = min(need, len(states))
    pool = pool.copy()
    chosen: list[tuple[_Held, int]] = []
    best = 0

    def search(at: int) -> None:
        nonlocal best
        if best >= need or len(chosen) + len(states) - at <= best:
            return
        if at == len(states):
            best = max(best, len(chosen) - _beaten(rival, chosen, check))
            return
        for rank, group in options[at]:
            if any(group.count(mask) > pool[mask] for mask in set(group)):
                continue
            for mask in group:
                pool[mask] -= 1
            chosen.append((states[at], rank))
            search(at + 1)
            chosen.pop()
            for mask in group:
                pool[mask] += 1
        search(at + 1)

    search(0)
    return best


class Selfish(NamedTuple):
    """What best play gives each seat when every seat plays for itself (at
    three and four seats): each seat's states (or points) and the winner."""

    scores: tuple[int, ...]
    winner: int | None


def preference(found: Selfish, seat: int) -> tuple[object, ...]:
    """How much ``seat`` likes an outcome when every seat plays for itself:
    a win, then more states (or points); between outcomes equal in that, the
    one where the strongest rival does worst (a player holds the leader back,
    as players do at the table), then the others' scores lowest in seat
    order, then the win to the seat latest in seat order (a rule that depends
    on the outcomes alone, so that a position has one value however its
    plays are ordered)."""
    others = [other for other in range(len(found.scores)) if other != seat]
    rival = max((found.winner == other, found.scores[other]) for other in others)
    return (
        found.winner == seat,
        found.scores[seat],
        (not rival[0], -rival[1]),
        tuple(-found.scores[other] for other in others),
        -1 if found.winner is None else found.winner,
    )


@dataclass(frozen=True, slots=True)
class Value:
    """The value of a position, or what is proved of it within the budget.

    ``states``: at two seats, the states P1 gets with best play lie between
    the two (equal: exact); None at three and four seats. ``forced``: for each
    seat, whether it can force a win against all the others together (None:
    not proved either way within the budget). ``selfish``: at three and four
    seats, what best play gives each seat when every seat plays for itself
    (None: beyond the budget)."""

    seats: int
    states: tuple[int, int] | None
    forced: tuple[bool | None, ...]
    selfish: Selfish | None = None

    @property
    def exact(self) -> bool:
        if self.states is not None:
            return self.states[0] == self.states[1]
        return None not in self.forced

    def of(self, seat: int) -> tuple[int, int] | None:
        """At two seats, the states ``seat`` gets with best play (low, high)."""
        if self.states is None:
            return None
        low, high = self.states
        return (low, high) if seat == 0 else (_STATES - high, _STATES - low)

    @classmethod
    def of_states(cls, low: int, high: int) -> Value:
        p1 = True if low >= _WIN else False if high < _WIN else None
        return cls(2, (low, high), (p1, None if p1 is None else not p1))


_GAMES = count()  # names each Solver's tables in the compiled search


def compiled_search(
    seats: int, points: bool, selfish: bool = False
) -> Callable[..., tuple[int, int]] | None:
    """The compiled search (``_bestplay.h``) where it was built: at two seats
    ``Solver.at_least``, at three and four with classic scoring
    ``Solver.wins`` (``selfish``: ``Solver.selfish``); None where the search
    is Python's alone."""
    if analysis.CORE is None:  # not built, or turned off (``compiled``)
        return None
    from . import _analysis

    if seats == 2:
        return None if selfish else _analysis.at_least
    if points:
        return None
    return _analysis.selfish if selfish else _analysis.wins


def outcomes(seats: int, seen: Survey, committed: Sequence[int]) -> list[Selfish]:
    """Every outcome the bounds leave a position at classic scoring (its
    ``survey``): each seat's states between those it is sure of and those it
    can still win, five in all, the win to any seat of the most (the order
    of the captures to come breaks their tie); of those, only the ones
    where each seat wins or gets at least the states it is sure of and
    ``committed[seat]`` more."""
    sure = [sum(1 for s in seen.sure if s == seat) for seat in range(seats)]
    can = [sum(1 for mask in seen.can if mask >> seat & 1) for seat in range(seats)]
    least = [sure[seat] + committed[seat] for seat in range(seats)]
    found: list[Selfish] = []
    for scores in product(*(range(sure[s], can[s] + 1) for s in range(seats))):
        if sum(scores) == _STATES:
            top = max(scores)
            found.extend(
                Selfish(scores, w)
                for w in range(seats)
                if scores[w] == top and all(s == w or scores[s] >= least[s] for s in range(seats))
            )
    return found


class Solver:
    """Best play from the positions of one game (``Board``), its
    transposition tables kept from one question to the next: solving a
    record's positions from the last back to the first shares their work."""

    def __init__(self, board: Board, budget: Budget | None = None) -> None:
        self.board = board
        self.budget = budget or Budget()
        self.reaches = _Reaches()
        self.plain = board.seats == 2 or not board.scoring.is_points
        # two seats: what is known of the states P1 gets, and the best play found
        self.states: dict[tuple[object, ...], tuple[int, int, Play | None]] = {}
        self.paranoid: list[dict[tuple[object, ...], bool]] = [{} for _ in range(board.seats)]
        self.selfishly: dict[tuple[object, ...], Selfish] = {}
        self.core = compiled_search(board.seats, board.scoring.is_points)
        self.core_selfish = compiled_search(board.seats, board.scoring.is_points, True)
        self.game = next(_GAMES)

    def value(self) -> Value:
        """The value of the board's position, as far as the budget reaches."""
        board = self.board
        if board.seats == 2:
            return Value.of_states(*self._states())
        forced = self.forced_wins()
        root = board.depth
        selfish = None
        if not self.budget.spent:
            try:
                selfish = self.selfish()
            except OutOfBudget:
                board.rewind(root)
        return Value(board.seats, None, forced, selfish)

    def selfish(self) -> Selfish:
        """What best play gives each seat when every seat plays for itself
        (the max-n search: each seat to move takes the play it likes best,
        ``preference``): by the compiled search where it was built (classic
        scoring), the same as here. Raises OutOfBudget."""
        if self.core_selfish is not None:
            found = self._asked(0, self.core_selfish)
            scores = tuple(found >> 3 * seat & 7 for seat in range(self.board.seats))
            return Selfish(scores, (found >> 12 & 7) - 1)
        best = self._selfish(None, ())
        assert best is not None  # not cut short: no seat moved here
        return best

    def _selfish(self, parent: int | None, liked: tuple[object, ...]) -> Selfish | None:
        """``selfish``, cut short (None) where the seat that moved here
        (``parent``) already has an outcome it likes as much as ``liked`` and
        none this position can still give it, of those its mover would leave
        it, is liked more (the shallow cut-off of max-n: a deeper one would
        change a value). At classic scoring (``outcomes``) a play whose
        every outcome the mover likes no more than the best found is not
        searched, and a mover that has the best the bounds leave it looks no
        further. Only values searched to the end are kept."""
        board = self.board
        self.budget.spend()
        if board.over:
            outcome = scored(board.seats, board.rankings, board.scoring)
            return Selfish(outcome.scores, outcome.winner)
        seen = survey(board, self.reaches, self.plain)
        known = self.selfishly.get(seen.key)
        if known is not None:
            return known
        seat = board.mover
        left = self._outcomes(seen) if self.plain else []
        if parent is not None and left and max(preference(o, parent) for o in left) <= liked:
            return None
        mine = [preference(o, seat) for o in left]
        ceiling = max(mine, default=None)
        promising = []
        for at, play in enumerate(self._ordered(seen, None, selfish=False)):
            promise: tuple[object, ...] = ()
            if self.plain:
                board.play(*play)
                if board.over:
                    outcome = scored(board.seats, board.rankings, board.scoring)
                    promise = preference(Selfish(outcome.scores, outcome.winner), seat)
                else:
                    ahead = self._outcomes(survey(board, self.reaches, self.plain))
                    promise = max(preference(o, seat) for o in ahead)
                board.undo()
            promising.append((promise, -at, play))
        promising.sort(reverse=True)
        best: Selfish | None = None
        likes: tuple[object, ...] = ()
        for promise, _, play in promising:
            if best is not None and self.plain and promise <= likes:
                break
            board.play(*play)
            found = self._selfish(None if best is None else seat, likes)
            board.undo()
            if found is None:
                continue
            liking = preference(found, seat)
            if best is None or liking > likes:
                best, likes = found, liking
            if likes == ceiling:
                break
            if parent is not None and left:
                theirs = [
                    preference(o, parent) for o, m in zip(left, mine, strict=True) if m >= likes
                ]
                if max(theirs) <= liked:
                    return None
        assert best is not None  # a seat to move has a play, and the first is searched
        self.selfishly[seen.key] = best
        return best

    def _outcomes(self, seen: Survey) -> list[Selfish]:
        """The outcomes every seat for itself can still come to from the
        board (its survey ``seen``): of those its bounds leave (``outcomes``),
        the ones each seat likes at least as much as what it can make sure
        of whatever the others play (every seat for itself gives each seat
        no less): a win, or no fewer states than it is sure of and wins by
        committing its cards (``committed``)."""
        seats = self.board.seats
        return outcomes(seats, seen, [self._commitment(seen, seat) for seat in range(seats)])

    # -- two seats: the states P1 gets --------------------------------------------

    def _states(self) -> tuple[int, int]:
        """The states P1 gets, as far as the budget reaches: the cheap bounds
        first, then the commitment bounds and the search (which asks the
        contest bounds at its root) while the budget lasts."""
        board = self.board
        if board.over:
            return board.won(0), board.won(0)
        seen = survey(board, self.reaches, self.plain)
        low, high = self._bounds(seen, 0)
        root = board.depth
        try:
            if low < high and not self.budget.spent:
                low, high = self._static(seen, None)
            while low < high and not self.budget.spent:
                v = _WIN if low < _WIN <= high else (low + high + 1) // 2
                if self.at_least(v):
                    low = v
                else:
                    high = v - 1
        except OutOfBudget:
            board.rewind(root)
        return low, high

    def _static(self, seen: Survey, v: int | None, contest: bool = False) -> tuple[int, int]:
        """What the bounds say of the states P1 gets (two seats); the
        commitment bounds only where they could settle whether it gets ``v``
        (None: wherever they could narrow them), and then, with ``contest``,
        the contest bounds (``contested``): the search asks them of every
        position it enters and of each one ply ahead of it, whose order
        they settle far better than the cheaper bounds: a few times fewer
        positions searched 28 plies from the end and more (docs/analysis.md)."""
        sure, can = self._bounds(seen, 0)
        low, high = sure, can
        if low < high and (v is None or low < v <= high):
            low = max(low, sure + self._commitment(seen, 0))
        rival_sure = self._bounds(seen, 1)[0]
        if low < high and (v is None or low < v <= high):
            high = min(high, _STATES - rival_sure - self._commitment(seen, 1))
        if contest and low < high and (v is None or low < v <= high):
            low = max(low, sure + self._contest(seen, 0, _STATES if v is None else v - sure))
        if contest and low < high and (v is None or low < v <= high):
            need = _STATES if v is None else _STATES - rival_sure - v + 1
            high = min(high, _STATES - rival_sure - self._contest(seen, 1, need))
        return low, high

    def _contest(self, seen: Survey, seat: int, need: int) -> int:
        """The states still open to both seats that ``seat`` wins at least by
        the contest bound (``contested``), as far as ``need``."""
        board, rival = self.board, 1 - seat
        states = []
        for index in range(_STATES):
            if seen.sure[index] >= 0 or not seen.can[index] >> seat & 1:
                continue
            base, units, fourth = board.base[index], board.units[index], board.fourth[index]
            ties = fourth[seat] > 0 and (fourth[rival] == 0 or fourth[seat] < fourth[rival])
            states.append(
                _Held(
                    base[seat],
                    UNITS_PER_ARMY - units[seat],
                    base[rival],
                    UNITS_PER_ARMY - units[rival],
                    ties,
                )
            )
        if not states:
            return 0
        return contested(board.pool[seat], board.pool[rival], states, need, self.budget.check)

    def _bounds(self, seen: Survey, seat: int) -> tuple[int, int]:
        """The states ``seat`` (of two) is sure of and can still win."""
        sure = sum(1 for s in seen.sure if s == seat)
        can = sum(1 for mask in seen.can if mask >> seat & 1)
        return sure, can

    def at_least(self, v: int) -> bool:
        """Whether P1 gets at least ``v`` states with best play (two seats):
        by the compiled search where it was built, the same as here."""
        if self.core is not None:
            return bool(self._asked(v))
        board = self.board
        self.budget.spend()
        if board.over:
            return board.won(0) >= v
        seen, low, high, best = self._look(v)
        if low >= v or high < v:
            return low >= v
        maximizing = board.mover == 0
        # one ply ahead: a play the bounds already settle for the mover ends the
        # search, one they settle against it needs no search, the rest go by promise
        promising: list[tuple[int, int, Play]] = []
        for play in self._ordered(seen, best):
            board.play(*play)
            if board.over:
                child_low = child_high = board.won(0)
            else:
                child_low, child_high = self._look(v)[1:3]
            board.undo()
            if (child_low >= v) if maximizing else (child_high < v):
                return self._settle(seen, low, high, v, maximizing, play)
            if (child_high >= v) if maximizing else (child_low < v):
                promise = child_high if maximizing else -child_low
                promising.append((-promise, len(promising), play))
        promising.sort()
        for _, _, play in promising:
            board.play(*play)
            found = self.at_least(v)
            board.undo()
            if found is maximizing:
                return self._settle(seen, low, high, v, found, play)
        return self._settle(seen, low, high, v, not maximizing, best)

    def _asked(self, of: int, core: Callable[..., tuple[int, int]] | None = None) -> int:
        """The compiled search's answer for the board: ``at_least(of)`` at two
        seats, ``wins(of)`` at more (1 or 0); ``core``'s, another compiled
        question, as it gives it. Raises OutOfBudget."""
        core = core or self.core
        assert core is not None
        board, budget = self.board, self.budget
        budget.watched()
        if budget.spent:  # the search would notice only some positions in
            raise OutOfBudget
        armies = tuple(
            field
            for index in range(_STATES)
            for seat in range(board.seats)
            for field in (
                board.base[index][seat],
                board.units[index][seat],
                board.fourth[index][seat],
            )
        )
        leaders = tuple(ranking[0] for ranking in board.rankings)
        most = -1 if budget.most is None else max(budget.most - budget.nodes, 0)
        found, nodes = core(
            self.game,
            board.cards,
            board.ply,
            board.pile,
            tuple(bytes(hand) for hand in board.hand),
            tuple(board.keys),
            armies,
            tuple(board.markers),
            leaders,
            of,
            most,
            budget.seconds_left,
            budget.watched,
        )
        budget.nodes += nodes
        if found < 0:
            raise OutOfBudget
        return found

    def _look(self, v: int) -> tuple[Survey, int, int, Play | None]:
        """The board's survey, and what the table or else the bounds, the
        contest bounds too (``_static``), say of the states P1 gets (kept in
        the table)."""
        seen = survey(self.board, self.reaches, self.plain)
        entry = self.states.get(seen.key)
        if entry is None:
            low, high = self._static(seen, v, contest=True)
            best = None
        else:
            low, high, best = entry
            if low < v <= high:
                low, high = self._static(seen, v, contest=True)
                low, high = max(low, entry[0]), min(high, entry[1])
        self.states[seen.key] = (low, high, best)
        return seen, low, high, best

    def _settle(
        self, seen: Survey, low: int, high: int, v: int, result: bool, best: Play | None
    ) -> bool:
        """Keeps what a search found of the board: P1 gets ``v`` or more (``result``) or not."""
        if result:
            low = v
        else:
            high = v - 1
        self.states[seen.key] = (low, high, best)
        return result

    def _commitment(self, seen: Survey, seat: int) -> int:
        """The states still open to more than one seat that ``seat`` can win
        whatever is played (``committed``); 0, which is always safe, once
        the budget is spent. Raises OutOfBudget."""
        board = self.board
        if self.budget.spent:
            return 0
        needs = []
        for index in range(_STATES):
            if seen.sure[index] >= 0 or not seen.can[index] >> seat & 1:
                continue
            base, units, fourth = board.base[index], board.units[index], board.fourth[index]
            threshold, ties = -1, True
            for other in range(board.seats):
                if other == seat:
                    continue
                high = self.reaches.of(board, index, other)[1]
                # a tie goes this seat's way only when its fourth card is down and the other's not
                tie = fourth[seat] > 0 and (fourth[other] == 0 or fourth[seat] < fourth[other])
                if high > threshold:
                    threshold, ties = high, tie
                elif high == threshold:
                    ties = ties and tie
            needs.append((base[seat], UNITS_PER_ARMY - units[seat], threshold, ties))
        return committed(board.pool[seat], needs, self.budget.check) if needs else 0

    def _ordered(self, seen: Survey, best: Play | None, selfish: bool = True) -> list[Play]:
        """The mover's plays, one of each set of states alike (``survey``'s
        parts equal), the best play found before first, then plays into the
        states still open to more than one seat, the strongest army first;
        then plays into states already certain, the plainest card first.
        ``selfish``: the mover wants its own armies strong and nothing else
        (two seats; the seat a paranoid search is about), so where only the
        states' winners count (``plain``) it plays into a state whose winner
        is certain no card that carries every icon of another card it holds:
        keeping the stronger card never hurts it. (With points at three and
        four seats such a state still gives places, so this does not hold.)"""
        board = self.board
        seat = board.mover
        plays = board.plays()
        held = sorted({mask for mask, _ in plays}, key=_ICONS.__getitem__)
        spare = [
            mask
            for at, mask in enumerate(held)
            if not (selfish and self.plain) or not any(other & mask == other for other in held[:at])
        ]
        scored_plays = []
        for mask, index in plays:
            if seen.sure[index] >= 0:
                if mask not in spare:
                    continue
                weight = 1000 - _ICONS[mask]
            else:
                weight = (
                    2000
                    + RANKS[board.base[index][seat] + PACKED[mask]]
                    - RANKS[board.base[index][seat]]
                )
            scored_plays.append((-(1 << 20 if (mask, index) == best else weight), mask, index))
        scored_plays.sort()
        ordered = []
        alike = set()
        for _, mask, index in scored_plays:
            twin = (mask, self._part(seen, index))
            if twin in alike:
                continue
            alike.add(twin)
            ordered.append((mask, index))
        return ordered

    def _part(self, seen: Survey, index: int) -> tuple[object, ...]:
        """What tells the state ``index`` apart from the others, as far as the
        rest of the game goes."""
        board = self.board
        units = tuple(board.units[index])
        if self.plain and seen.sure[index] >= 0:
            return (seen.sure[index], units)
        return (index,)

    def keeping(self, value: Value, seat: int) -> tuple[tuple[Card, State], ...]:
        """The plays of ``seat``, to move, that keep ``value`` (the board's,
        exact); () when the budget runs out first, or is spent already."""
        board = self.board
        kept: list[tuple[Card, State]] = []
        root = board.depth
        if self.budget.spent:
            return ()
        try:
            for mask, index in board.plays():
                board.play(mask, index)
                if value.states is not None:
                    v = value.states[0]
                    keeps = self.at_least(v) if seat == 0 else not self.at_least(v + 1)
                else:
                    keeps = self.wins(seat)
                board.undo()
                if keeps:
                    kept.append(_spelt((mask, index)))
        except OutOfBudget:
            board.rewind(root)
            return ()
        return tuple(kept)

    # -- three and four seats: whether a seat can force a win -----------------

    def forced_wins(self) -> tuple[bool | None, ...]:
        """``forced`` for each seat. At most one seat can force a win (two
        could not both win whatever the others do), so once one can, the
        rest are not searched."""
        found: list[bool | None] = []
        for seat in range(self.board.seats):
            found.append(False if True in found else self.forced(seat))
        return tuple(found)

    def forced(self, seat: int) -> bool | None:
        """Whether ``seat`` can force a win against all the others together
        (``wins``), as far as the budget reaches (None: not known)."""
        root = self.board.depth
        if self.budget.spent:
            board = self.board
            if board.over:
                return board.outcome_winner() == seat
            return self._settled(survey(board, self.reaches, self.plain), seat)
        try:
            return self.wins(seat)
        except OutOfBudget:
            self.board.rewind(root)
            return None

    def wins(self, seat: int) -> bool:
        """Whether ``seat`` wins with best play against all the others playing
        together against it (the paranoid value)."""
        if self.core is not None:
            return bool(self._asked(seat))
        board = self.board
        self.budget.spend()
        if board.over:
            return board.outcome_winner() == seat
        seen = survey(board, self.reaches, self.plain)
        table = self.paranoid[seat]
        known = table.get(seen.key)
        if known is not None:
            return known
        settled = self._settled(seen, seat)
        if settled is not None:
            table[seen.key] = settled
            return settled
        maximizing = board.mover == seat
        result = not maximizing
        for play in self._ordered(seen, None, selfish=maximizing):
            board.play(*play)
            found = self.wins(seat)
            board.undo()
            if found is maximizing:
                result = found
                break
        table[seen.key] = result
        return result

    def _settled(self, seen: Survey, seat: int) -> bool | None:
        """Whether the bounds alone say that ``seat`` wins (True) or cannot (False)."""
        board = self.board
        if board.scoring.is_points:
            return self._settled_points(seen, seat)
        seats = board.seats
        sure = [0] * seats
        can = [0] * seats
        for index in range(_STATES):
            if seen.sure[index] >= 0:
                sure[seen.sure[index]] += 1
            for other in range(seats):
                can[other] += seen.can[index] >> other & 1
        # A seat that commits its cards to states wins them, and the others
        # lose them, if it wants to: the seat asked about always does, the
        # others when they play against it. The states two seats commit to are
        # apart (each would beat the other).
        contested = [
            [i for i in range(_STATES) if seen.sure[i] < 0 and seen.can[i] >> x & 1]
            for x in range(seats)
        ]
        commits = [self._commitment(seen, x) if contested[x] else 0 for x in range(seats)]

        def lost(p: int, x: int) -> int:
            """The states ``x`` can win that ``p``'s commitment takes from it, at least."""
            return max(0, commits[p] - sum(1 for i in contested[p] if not seen.can[i] >> x & 1))

        others = [o for o in range(seats) if o != seat]
        most = can[seat] - sum(lost(o, seat) for o in others)
        # five states: a seat with fewer than two has fewer than another
        if most < 2 or any(sure[o] + commits[o] > most for o in others):
            return False
        least = sure[seat] + commits[seat]
        if all(least > can[o] - lost(seat, o) for o in others):
            return True
        return None

    def _settled_points(self, seen: Survey, seat: int) -> bool | None:
        board = self.board
        seats, scoring = board.seats, board.scoring
        low = [0] * seats
        high = [0] * seats
        for index in range(_STATES):
            marker = board.markers[index]
            if marker:
                ranking = board.rankings[marker - 1]
                for place, s in enumerate(ranking):
                    low[s] += scoring.points_for(place)
                    high[s] += scoring.points_for(place)
                continue
            fourth = board.fourth[index]
            reach = [self.reaches.of(board, index, s) for s in range(seats)]
            for s in range(seats):
                others = [o for o in range(seats) if o != s]
                best = sum(
                    1
                    for o in others
                    if not could_outrank(reach[s][1], fourth[s], reach[o][0], fourth[o])
                )
                worst = sum(
                    1
                    for o in others
                    if could_outrank(reach[o][1], fourth[o], reach[s][0], fourth[s])
                )
                high[s] += scoring.points_for(best)
                low[s] += scoring.points_for(worst)
        others = [o for o in range(seats) if o != seat]
        if all(low[seat] > high[o] for o in others):
            return True
        if any(high[seat] < low[o] for o in others):
            return False
        return None


def _spelt(play: Play) -> tuple[Card, State]:
    return Card(play[0]), STATES[play[1]]


class Scored(NamedTuple):
    """One ply of a record under best play: the value before it and after it
    (``Value``), whether the mover kept its value (None: not known within
    the budget) and, where it did not, the plays from its hand that would
    have kept it (() when the budget did not reach them)."""

    ply: int
    seat: int
    before: Value
    after: Value
    kept: bool | None
    best: tuple[tuple[Card, State], ...] = ()

    @property
    def lost_win(self) -> bool:
        """A win with best play turned into none."""
        return self.before.forced[self.seat] is True and self.after.forced[self.seat] is False

    @property
    def given(self) -> int:
        """At two seats, the states the play gave away with best play (0: none, or not known)."""
        before, after = self.before.of(self.seat), self.after.of(self.seat)
        if before is None or after is None or not (self.before.exact and self.after.exact):
            return 0
        return before[0] - after[0]


@dataclass(frozen=True, slots=True)
class BestPlay:
    """A record's plays scored under best play: ``values[p]`` after ``p``
    of its plays (``values[0]``: before the first), ``plies[p - 1]`` its
    ``p``-th play (``Scored.ply`` counts from the game's start)."""

    values: tuple[Value, ...]
    plies: tuple[Scored, ...]

    @property
    def exact_from(self) -> int | None:
        """The first ply count from which every value is exact (None: none is)."""
        first = None
        for at in range(len(self.values) - 1, -1, -1):
            if not self.values[at].exact:
                break
            first = at
        return first

    def accuracy(self, seat: int) -> tuple[int, int]:
        """How many of ``seat``'s plies kept its value, of those whose scoring is known."""
        known = [s for s in self.plies if s.seat == seat and s.kept is not None]
        return sum(1 for s in known if s.kept), len(known)

    def mistakes(self, seat: int | None = None) -> tuple[Scored, ...]:
        return tuple(s for s in self.plies if s.kept is False and seat in (None, s.seat))


def best_play(
    game: Game, plays: Sequence[tuple[Card, State]], scoring: Scoring, budget: Budget
) -> BestPlay:
    """Every position of a record from ``game`` (its start, the deal known,
    ``solvable``) through ``plays`` valued, the last first so that earlier
    searches reuse later ones, as far as ``budget`` reaches; then each ply
    scored against the value before it."""
    board = Board(game, scoring)
    for card, state in plays:
        board.play(card.mask, state - 1)
    solver = Solver(board, budget)
    values = [solver.value()]
    scored_plies: list[Scored] = []
    for ply in range(len(plays), 0, -1):
        board.undo()
        values.append(solver.value())
        before, after = values[-1], values[-2]
        seat = (game.ply + ply - 1) % game.seats
        kept = _kept(before, after, seat)
        best = solver.keeping(before, seat) if kept is False else ()
        scored_plies.append(Scored(game.ply + ply, seat, before, after, kept, best))
    values.reverse()
    scored_plies.reverse()
    return BestPlay(tuple(values), tuple(scored_plies))


def best_plays(game: Game, scoring: Scoring, budget: Budget) -> tuple[tuple[Card, State], ...]:
    """The plays of the seat to move (``game`` with its deal, ``solvable``)
    that keep its value with best play: at two seats whatever that value is,
    at three and four where the seat can force a win. () when the budget
    runs out first, or when a seat of three or four cannot force a win (then
    every play is as good as another against all the others together)."""
    solver = Solver(Board(game, scoring), budget)
    seat = game.to_move
    if game.seats == 2:
        value = solver.value()
        return solver.keeping(value, seat) if value.exact else ()
    if not solver.forced(seat):
        return ()
    forced = tuple(True if s == seat else None for s in range(game.seats))
    return solver.keeping(Value(game.seats, None, forced), seat)


def _kept(before: Value, after: Value, seat: int) -> bool | None:
    """Whether ``seat``'s play kept its value, as far as both are known."""
    mine_before, mine_after = before.of(seat), after.of(seat)
    if mine_before is not None and mine_after is not None:
        if mine_after[1] < mine_before[0]:
            return False
        if before.exact and after.exact:
            return True
        return None
    was, now = before.forced[seat], after.forced[seat]
    if was is False or now is True:
        return True  # a seat that cannot force a win keeps that whatever it plays
    if was is True and now is False:
        return False
    return None
