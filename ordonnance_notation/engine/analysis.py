"""When each state, and the game, was decided; and the plays that gave them away.

**What is known.** With the deal known, the cards each seat will hold are
fixed by the deal and the turn order alone: a seat draws the pile's cards at
its turns, whatever anyone plays. A seat only chooses which of its cards goes
to which of its states, and when. Moreover any choice of *which* cards go
*where* can be carried out: at each turn a seat holds six cards (five after
the pile runs out, D5) and at most five of its cards will never be played,
so one card of the chosen assignment is always in hand, and its state still
has room. The army a seat can still make in a state is therefore any choice
of its remaining slots there among the cards it has not played yet, whatever
it does elsewhere, and the seats choose independently.

**A state.** A seat can still win a state when the strongest army it can make
there beats the weakest army each other seat can make (or equals it, when
the tie could still fall its way: the earlier fourth card). The state is
*decided* at the first ply after which only one seat can win it. This is
exact but for one relaxation: where two seats' armies could end with the same
formations, the analysis lets either win the tie, whoever can still play the
fourth card first (it does not follow the order in which cards arrive).
That can only leave a state undecided longer than it was, never the reverse.

**Without the deal** (or beyond a short one, D8) a seat's unknown cards may be
any cards, so a state is decided only when no card at all could change it.
A pile that the record shows running out (its later plays drew nothing, D5)
is no short deal: the draws after its end are none (``Deal.draws_known``).

**The game.** A seat can still win the game when the states it can still win
could outscore what every other seat has surely won; the states are taken
one by one, as if a seat's cards could serve in every state at once, so the
game is said decided later than it may truly be, never earlier. Classic
scoring counts states; points scoring counts points by the best and worst
place each seat can still reach in each state. Ties between scores are let
go either way until every score and every state's winner are sure; then the
tie-break rules (D2, the later capture) pick among the seats level at the
top, a state still open taking a later marker than any placed. A finished
game is so decided, by the ply that resolved its last state at the latest,
for the seat ``scoring.score`` names.

**Turning points.** A ply after which a seat could no longer win a state (or
the game) that it could win before. When it was that seat's own play, and the
deal says what it held, the other plays from its hand that would have kept
the chance are listed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import combinations, islice, product
from typing import NamedTuple

from . import compiled
from .armies import PACKED, UNITS_PER_ARMY, formations_of
from .cards import Card, Icon, State
from .decisions import Analysis, Found, Loss, StateAnalysis, from_core, play_code
from .game import HAND_SIZE, MAX_SEATS, MIN_SEATS, PLAYS_PER_SEAT, STATES, Deal, Game
from .scoring import Scoring

_ALL_ICONS = 31  # the mask of a card carrying every icon: the strongest any card can be
_SINGLES = tuple(1 << icon for icon in Icon)


def _ranks() -> list[int]:
    """The strength of every army of four cards or fewer, by its packed icon
    counts: a greater number is a stronger army (-1: no such army)."""
    keys = {}
    for counts in product(range(UNITS_PER_ARMY + 1), repeat=len(Icon)):
        packed = sum(n << 3 * icon for icon, n in enumerate(counts))
        keys[packed] = formations_of(packed).key
    order = {key: n for n, key in enumerate(sorted(set(keys.values())))}
    ranks = [-1] * (max(keys) + 1)
    for packed, key in keys.items():
        ranks[packed] = order[key]
    return ranks


RANKS = _ranks()


class Reach(NamedTuple):
    """What a seat can still make in a state, as ``RANKS``: its weakest army
    lies between ``low_lo`` and ``low_hi``, its strongest between ``high_lo``
    and ``high_hi`` (found exactly only when a comparison needs it: a bound
    is kept up to date far more cheaply). ``low_cards`` make an army of rank
    ``low_hi``, ``high_cards`` one of rank ``high_lo`` (masks; the witnesses
    of those bounds). ``fourth`` is the ply of its fourth card there, once
    played."""

    low_lo: int
    low_hi: int
    low_cards: tuple[int, ...]
    high_lo: int
    high_hi: int
    high_cards: tuple[int, ...]
    fourth: int | None = None

    @property
    def exact(self) -> bool:
        return self.low_lo == self.low_hi and self.high_lo == self.high_hi


_ICONS = [mask.bit_count() for mask in range(32)]
_icons = _ICONS.__getitem__  # how many icons a card (mask) carries
_packed = PACKED.__getitem__


def _greedy(base: int, k: int, pool: Counter[int], wild: int, strongest: bool) -> tuple[int, ...]:
    """Some army of ``k`` more cards of the pool (or unknown ones), each the
    card that makes the strongest (or weakest) army so far: a witness that is
    often the best there is."""
    left = {mask: count for mask, count in pool.items() if count > 0}
    if wild:
        extra = _ALL_ICONS if strongest else _SINGLES[0]
        left[extra] = left.get(extra, 0) + min(wild, k)
    if not strongest and wild:
        for single in _SINGLES[1:]:
            left[single] = left.get(single, 0) + min(wild, k)
    chosen: list[int] = []
    army = base
    pick = max if strongest else min
    sign = 1 if strongest else -1
    for _ in range(k):
        if not left:
            chosen.append(_ALL_ICONS if strongest else _SINGLES[0])
            continue
        # the rank of the army so far first; at equal rank, the card with more icons
        card = pick(left, key=lambda m: RANKS[army + PACKED[m]] * 8 + sign * _ICONS[m])
        chosen.append(card)
        army += PACKED[card]
        left[card] -= 1
        if not left[card]:
            del left[card]
    return tuple(chosen)


def _army(base: int, cards: tuple[int, ...]) -> int:
    return RANKS[base + sum(map(_packed, cards))]


def _start(base: int, k: int, pool: Counter[int], wild: int) -> Reach:
    """Bounds that cost next to nothing: some weak army and some strong one,
    the army as it stands and the strongest any cards could make."""
    low_cards = _greedy(base, k, pool, wild, strongest=False)
    high_cards = _greedy(base, k, pool, wild, strongest=True)
    return Reach(
        RANKS[base],
        _army(base, low_cards),
        low_cards,
        _army(base, high_cards),
        RANKS[base + k * PACKED[_ALL_ICONS]],
        high_cards,
    )


def _after(
    old: Reach,
    card: Card,
    placed: bool,
    base: int,
    k: int,
    pool: Counter[int],
    wild: int,
    fourth: int | None,
) -> Reach:
    """A seat's reach in a state after it played ``card`` (into this state
    when ``placed``), ``base``, ``k``, ``pool`` and ``wild`` being as they are
    now. Placed, the card leaves each witness (``_without``), and the army as
    it stands and the strongest any cards could make of it bound the two ends
    afresh. Played elsewhere, the strongest army can only have weakened and
    the weakest only strengthened, so ``high_hi`` and ``low_lo`` stand; a
    witness that used the card is mended (or, failing that, replaced by the
    plainest bound)."""
    mask = card.mask
    if placed:
        stands, ceiling = RANKS[base], RANKS[base + k * PACKED[_ALL_ICONS]]
        low_cards, low_hi = _without(old.low_cards, old.low_hi, mask, base, ceiling, False)
        high_cards, high_lo = _without(old.high_cards, old.high_lo, mask, base, stands, True)
        return Reach(
            max(old.low_lo, stands),
            low_hi,
            low_cards,
            high_lo,
            min(old.high_hi, ceiling),
            high_cards,
            fourth,
        )
    if _stands(old, mask, pool[mask] + wild):
        return old
    low = _mended(old.low_cards, mask, pool, wild, strongest=False)
    high = _mended(old.high_cards, mask, pool, wild, strongest=True)
    if low is None:
        low_hi, low = RANKS[base + k * PACKED[_ALL_ICONS]], ()
    else:
        low_hi = old.low_hi if low is old.low_cards else _army(base, low)
    if high is None:
        high_lo, high = RANKS[base], ()
    else:
        high_lo = old.high_lo if high is old.high_cards else _army(base, high)
    return Reach(old.low_lo, low_hi, low, high_lo, old.high_hi, high, fourth)


def _stands(reach: Reach, mask: int, spare: int) -> bool:
    """Whether both witnesses of ``reach`` can still be made with ``spare``
    copies of a card (``mask``) still to be had (an unknown card may be one)."""
    return reach.low_cards.count(mask) <= spare and reach.high_cards.count(mask) <= spare


def _without(
    cards: tuple[int, ...], rank: int, mask: int, base: int, plainest: int, strongest: bool
) -> tuple[tuple[int, ...], int]:
    """A witness and the rank of its army once a card (``mask``) went into
    the state: the same army when the witness held the card; else the
    witness without its least useful card (the fewest icons for the
    strongest army, the most for the weakest); the ``plainest`` bound when
    it has no card."""
    if mask in cards:
        at = cards.index(mask)
        return cards[:at] + cards[at + 1 :], rank
    if not cards:
        return (), plainest
    icons = list(map(_icons, cards))
    drop = icons.index(min(icons) if strongest else max(icons))
    rest = cards[:drop] + cards[drop + 1 :]
    return rest, _army(base, rest)


def _mended(
    cards: tuple[int, ...], mask: int, pool: Counter[int], wild: int, strongest: bool
) -> tuple[int, ...] | None:
    """A witness after a card (``mask``) was played into another state:
    itself when it did not need the card, else mended with the best card
    left (None when there is none)."""
    for _ in range(len(cards)):
        if cards.count(mask) <= pool[mask] + wild:  # an unknown card may be this one
            return cards  # (a witness, not the best: bounds need no more)
        left = [m for m, n in pool.items() if n > cards.count(m) and m != mask]
        if not left:
            return None
        at = cards.index(mask)
        cards = cards[:at] + ((max if strongest else min)(left, key=_icons),) + cards[at + 1 :]
    return None


_ABOVE = [[m for m in range(1, 32) if m != mask and m & mask == mask] for mask in range(32)]
_BELOW = [[m for m in range(1, 32) if m != mask and m & mask == m] for mask in range(32)]


def _candidates(pool: Counter[int], wild: int, k: int, strongest: bool) -> list[int]:
    """The cards worth trying for the strongest (or weakest) army of ``k`` more:
    the pool and the unknown cards (as the strongest card, or as any one-icon
    card), without a card that ``k`` others at least as good outdo (a card
    with more icons, or fewer, than another is at least as good for the one
    army or the other)."""
    counts = [0] * 32
    for mask, count in pool.items():
        counts[mask] += count
    for mask in (_ALL_ICONS,) if strongest else _SINGLES:
        counts[mask] += min(wild, k)
    outdoing = _ABOVE if strongest else _BELOW
    kept = []
    for mask in range(1, 32):
        count = counts[mask]
        if count > 0 and sum(map(counts.__getitem__, outdoing[mask])) < k:
            kept += [mask] * min(count, k)
    return kept


def _extreme(base: int, k: int, cards: list[int], strongest: bool) -> tuple[int, tuple[int, ...]]:
    """The rank of the strongest (or weakest) army of ``base`` and ``k`` of
    ``cards``, and the cards that make it (searched afresh each time: with
    the greedy witnesses first, searches are rare and seldom repeat, and a
    cache of them cost more than it saved)."""
    if k == 0:
        return RANKS[base], ()
    if len(cards) < k:  # fewer cards than places: the rest could be anything
        cards = cards + [_ALL_ICONS if strongest else _SINGLES[0]] * (k - len(cards))
    values = [PACKED[mask] for mask in cards]
    ranks = list(map(RANKS.__getitem__, map(base.__add__, map(sum, combinations(values, k)))))
    best = (max if strongest else min)(ranks)
    return best, next(islice(combinations(cards, k), ranks.index(best), None))


class Position:
    """What each seat can still make in each state, kept up to date play by
    play: ``winners`` and ``beats`` answer from it."""

    def __init__(
        self, seats: int, deal: Deal | None, scoring: Scoring, draws_known: bool = True
    ) -> None:
        """``draws_known``: the deal says every draw, past the pile's end
        too (``Deal.draws_known``); else the cards after it are unknown."""
        self.seats, self.scoring = seats, scoring
        total = PLAYS_PER_SEAT * seats
        self.pool = [Counter[int]() for _ in range(seats)]
        self.wild = [0] * seats  # cards to come whose faces are unknown
        self.hands: list[list[Card]] | None = None
        self.pile: tuple[Card, ...] = ()
        if deal is None:
            self.wild = [PLAYS_PER_SEAT] * seats
        else:
            self.hands = [list(hand) for hand in deal.hands]
            self.pile = deal.pile
            for seat, hand in enumerate(deal.hands):
                self.pool[seat].update(card.mask for card in hand)
            for at in range(total):  # the pile's card ``at`` is drawn at ply at + 1
                if at < len(deal.pile):
                    self.pool[at % seats][deal.pile[at].mask] += 1
                elif not draws_known:
                    self.wild[at % seats] += 1
        self.base = [[0] * seats for _ in STATES]  # packed icon counts of each army
        self.units = [[0] * seats for _ in STATES]
        first = [
            _start(0, UNITS_PER_ARMY, self.pool[seat], self.wild[seat]) for seat in range(seats)
        ]
        self.reach = [list(first) for _ in STATES]  # (immutable: the same to begin with)
        self._winners: dict[State, tuple[tuple[Reach, ...], frozenset[int]]] = {}
        self.trying = False  # trying other plays, back in time: no winners kept

    def _exactly(self, state: State, seat: int, strongest: bool) -> Reach:
        """The seat's reach in ``state`` with its strongest (or weakest) army found exactly."""
        old = self.reach[state - 1][seat]
        if (old.high_lo == old.high_hi) if strongest else (old.low_lo == old.low_hi):
            return old
        index = state - 1
        k = UNITS_PER_ARMY - self.units[index][seat]
        base, pool, wild = self.base[index][seat], self.pool[seat], self.wild[seat]
        rank, cards = _extreme(base, k, _candidates(pool, wild, k, strongest), strongest)
        if strongest:
            exact = Reach(old.low_lo, old.low_hi, old.low_cards, rank, rank, cards, old.fourth)
        else:
            exact = Reach(rank, rank, cards, old.high_lo, old.high_hi, old.high_cards, old.fourth)
        self.reach[index][seat] = exact
        return exact

    def beats(self, state: State, seat: int, other: int) -> bool:
        """Whether ``seat``'s strongest army in ``state`` could outrank
        ``other``'s weakest, a tie going by the earlier fourth card."""
        mine, theirs = self.reach[state - 1][seat], self.reach[state - 1][other]
        if mine.high_lo > theirs.low_hi:
            return True
        if mine.high_hi < theirs.low_lo:
            return False
        return self._beats_exactly(state, seat, other)

    def _beats_exactly(self, state: State, seat: int, other: int) -> bool:
        mine = self._witnessed(state, seat, strongest=True)
        theirs = self._witnessed(state, other, strongest=False)
        if mine.high_lo > theirs.low_hi:  # the greedy witnesses settle it, as they mostly do
            return True
        mine = self._exactly(state, seat, strongest=True)
        theirs = self._exactly(state, other, strongest=False)
        return _could_beat(mine, theirs)

    def _witnessed(self, state: State, seat: int, strongest: bool) -> Reach:
        """The seat's reach in ``state`` with the greedy witness of its
        strongest (or weakest) army taken where it is the better one, as it
        often is after witnesses were mended (with one card to come, it is
        the best there is)."""
        index = state - 1
        old = self.reach[index][seat]
        if (old.high_lo == old.high_hi) if strongest else (old.low_lo == old.low_hi):
            return old
        k = UNITS_PER_ARMY - self.units[index][seat]
        base = self.base[index][seat]
        cards = _greedy(base, k, self.pool[seat], self.wild[seat], strongest)
        rank = _army(base, cards)
        if strongest and (k <= 1 or rank > old.high_lo):
            high_hi = rank if k <= 1 else old.high_hi
            new = Reach(old.low_lo, old.low_hi, old.low_cards, rank, high_hi, cards, old.fourth)
        elif not strongest and (k <= 1 or rank < old.low_hi):
            low_lo = rank if k <= 1 else old.low_lo
            new = Reach(low_lo, rank, cards, old.high_lo, old.high_hi, old.high_cards, old.fourth)
        else:
            return old
        self.reach[index][seat] = new
        return new

    def play(self, ply: int, seat: int, card: Card, state: State) -> set[State]:
        """``seat`` plays ``card`` to ``state`` at ``ply``; the states where
        what it can make there changed (the others' winners stand)."""
        pool = self.pool[seat]
        if pool[card.mask] > 0:
            pool[card.mask] -= 1
            if not pool[card.mask]:
                del pool[card.mask]
        elif self.wild[seat]:
            self.wild[seat] -= 1
        if self.hands is not None:
            if ply - 1 < len(self.pile):
                self.hands[seat].append(self.pile[ply - 1])
            if card in self.hands[seat]:
                self.hands[seat].remove(card)
        self.base[state - 1][seat] += PACKED[card.mask]
        self.units[state - 1][seat] += 1
        changed = set()
        mask = card.mask
        spare = pool[mask] + self.wild[seat]
        for other in STATES:
            old = self.reach[other - 1][seat]
            if other is not state and _stands(old, mask, spare):
                continue  # (as ``_after`` would find)
            new = self._placed(ply, seat, card, state, other)
            if new is not old and (
                new.low_hi != old.low_hi or new.high_lo != old.high_lo or new.fourth != old.fourth
            ):
                changed.add(other)
        return changed

    def _placed(self, ply: int, seat: int, card: Card, state: State, other: State) -> Reach:
        """``seat``'s reach in ``other`` once ``card`` went to ``state`` at
        ``ply`` (its pool, bases and counts already so), kept in the row."""
        row = self.reach[other - 1]
        placed = other is state
        full = self.units[state - 1][seat] == UNITS_PER_ARMY
        fourth = ply if placed and full else row[seat].fourth
        k = UNITS_PER_ARMY - self.units[other - 1][seat]
        base = self.base[other - 1][seat]
        row[seat] = _after(
            row[seat], card, placed, base, k, self.pool[seat], self.wild[seat], fourth
        )
        return row[seat]

    @contextmanager
    def undone(
        self, ply: int, seat: int, card: Card, state: State, reach: list[Reach]
    ) -> Iterator[None]:
        """The position before ``seat`` played ``card`` to ``state`` at
        ``ply`` (``reach``: its row then), for the time of the ``with``."""
        after = [row[seat] for row in self.reach]
        drawn = self.pile[ply - 1] if ply - 1 < len(self.pile) else None
        self._take_back(seat, card, state, drawn, reach)
        self.trying = True
        try:
            yield
        finally:
            self.trying = False
            self._take_back(seat, card, state, drawn, after, again=True)

    def _take_back(
        self,
        seat: int,
        card: Card,
        state: State,
        drawn: Card | None,
        reach: list[Reach],
        again: bool = False,
    ) -> None:
        sign = -1 if again else 1
        self.pool[seat][card.mask] += sign
        if not self.pool[seat][card.mask]:
            del self.pool[seat][card.mask]
        if self.hands is not None:
            hand = self.hands[seat]
            if again:
                hand.append(drawn) if drawn is not None else None
                hand.remove(card)
            else:
                hand.append(card)
                if drawn is not None:
                    hand.remove(drawn)
        self.base[state - 1][seat] -= sign * PACKED[card.mask]
        self.units[state - 1][seat] -= sign
        for row, value in zip(self.reach, reach, strict=True):
            row[seat] = value

    def winners(self, state: State) -> frozenset[int]:
        """The seats that can still win ``state`` (kept while no reach there changes)."""
        row = self.reach[state - 1]
        known = None if self.trying else self._winners.get(state)
        if known is not None and (len(known[1]) == 1 or known[0] == tuple(row)):
            return known[1]  # (one seat alone: so it stays; the same objects, compared by identity)
        # a seat that could not win a state never can again: plays only narrow what can be made
        chances = range(self.seats) if known is None else known[1]
        found = frozenset(seat for seat in chances if self.can_win(state, seat))
        if not self.trying:
            self._winners[state] = (tuple(self.reach[state - 1]), found)
        return found

    def can_win(self, state: State, seat: int) -> bool:
        """Whether ``seat`` can still win ``state``: it could beat every other
        seat there (``beats``, its bounds compared here: this is the analysis's
        innermost loop)."""
        row = self.reach[state - 1]
        for other, theirs in enumerate(row):
            if other == seat:
                continue
            mine = row[seat]
            if mine.high_lo > theirs.low_hi:
                continue
            if mine.high_hi < theirs.low_lo or not self._beats_exactly(state, seat, other):
                return False
        return True

    def places(self, state: State, seat: int) -> tuple[int, int]:
        """The best and the worst place ``seat`` can still reach in ``state`` (0: first)."""
        others = [o for o in range(self.seats) if o != seat]
        best = sum(1 for o in others if not self.beats(state, seat, o))
        worst = sum(1 for o in others if self.beats(state, o, seat))
        return best, worst

    def hand_before(self, ply: int, seat: int) -> list[Card]:
        """What ``seat`` holds when it plays ``ply``, having drawn (the deal known)."""
        assert self.hands is not None
        hand = list(self.hands[seat])
        if ply - 1 < len(self.pile):
            hand.append(self.pile[ply - 1])
        return hand


def _could_beat(mine: Reach, theirs: Reach) -> bool:
    """Whether my strongest army could outrank their weakest, ties by the earlier fourth card."""
    return could_outrank(mine.high_hi, mine.fourth or 0, theirs.low_lo, theirs.fourth or 0)


def could_outrank(high: int, fourth: int, low: int, other: int) -> bool:
    """Whether an army that can reach ``high`` (as ``RANKS``; its fourth card
    at ply ``fourth``, 0: not yet) could outrank one that can sink to ``low``
    (its fourth at ply ``other``): an equal one when its fourth card is or
    could still be the earlier."""
    if high != low:
        return high > low
    if not other:
        return True  # its fourth card could come first
    return 0 < fourth < other


def _game_winners(position: Position) -> frozenset[int]:
    """The seats that can still win the game, the states taken one by one;
    once every seat's score and every state's winner are sure, the seats
    level at the top as the tie-break rules leave them (``_tie_broken``)."""
    seats, scoring = position.seats, position.scoring
    if scoring.is_points:
        best = [0] * seats
        worst = [0] * seats
        won: list[int | None] = [None] * len(STATES)
        for index, state in enumerate(STATES):
            for seat in range(seats):
                high, low = position.places(state, seat)
                best[seat] += scoring.points_for(high)
                worst[seat] += scoring.points_for(low)
                if low == 0:  # no other seat could outrank it
                    won[index] = seat
    else:
        sets = [position.winners(state) for state in STATES]
        best = [sum(1 for s in sets if seat in s) for seat in range(seats)]
        worst = [sum(1 for s in sets if s == {seat}) for seat in range(seats)]
        won = [next(iter(s)) if len(s) == 1 else None for s in sets]
    found = frozenset(
        seat
        for seat in range(seats)
        if all(best[seat] >= worst[other] for other in range(seats) if other != seat)
    )
    sure = [seat for seat in won if seat is not None]
    if len(found) > 1 and best == worst and len(sure) == len(STATES):
        return _tie_broken(position, found, sure)
    return found


_OPEN = PLAYS_PER_SEAT * MAX_SEATS + 1  # the resolving ply of a state still open: after any placed


def _tie_broken(position: Position, level: frozenset[int], won: Sequence[int]) -> frozenset[int]:
    """The seats of ``level`` (level at the top, every score sure) that can
    still win by the tie-break rules (``scoring.scored``), ``won`` being the
    seat that surely wins each state: those with the most states (points,
    D2), then the one whose latest capture takes the higher marker. A state
    still open will take a higher marker than any placed: the seats with one
    keep their chance (which of them resolves later is not known yet), the
    others lose it. Seats with no state share the win (D9). At the end: the
    winner ``scoring.score`` names, or the seats that share the win."""
    states = [won.count(seat) for seat in range(position.seats)]
    most = max(states[seat] for seat in level)
    latest = [0] * position.seats  # the ply that resolved each seat's latest capture
    for index, seat in enumerate(won):
        units, row = position.units[index], position.reach[index]
        ply = max(r.fourth or 0 for r in row) if min(units) == UNITS_PER_ARMY else _OPEN
        latest[seat] = max(latest[seat], ply)
    last = max(latest[seat] for seat in level if states[seat] == most)
    return frozenset(seat for seat in level if states[seat] == most and latest[seat] == last)


def _keeps(
    position: Position, ply: int, seat: int, card: Card, state: State, target: State | None
) -> bool:
    """Whether ``seat`` could still win ``target`` (None: the game) had it
    played ``card`` to ``state`` at ``ply`` instead."""
    pool = position.pool[seat]
    saved = [row[seat] for row in position.reach]
    index = state - 1
    pool[card.mask] -= 1
    position.base[index][seat] += PACKED[card.mask]
    position.units[index][seat] += 1
    try:
        for other in STATES if target is None else (target,):
            position._placed(ply, seat, card, state, other)
        if target is None:
            return seat in _game_winners(position)
        return position.can_win(target, seat)
    finally:
        pool[card.mask] += 1
        position.base[index][seat] -= PACKED[card.mask]
        position.units[index][seat] -= 1
        for other in STATES:
            position.reach[other - 1][seat] = saved[other - 1]


def _alternatives(
    position: Position, ply: int, seat: int, played: tuple[Card, State], target: State | None
) -> tuple[tuple[Card, State], ...]:
    """The plays ``seat`` had at ``ply`` (the position before it) that keep ``target``."""
    if position.hands is None:
        return ()
    found = []
    pool = position.pool[seat]
    elsewhere: dict[Card, bool] = {}  # a card played outside the target: the same wherever
    for card in dict.fromkeys(position.hand_before(ply, seat)):
        for state in STATES:
            if (card, state) == played or position.units[state - 1][seat] >= UNITS_PER_ARMY:
                continue
            if target is not None:  # the strongest army it could make there, if still to be had
                witness = position.reach[target - 1][seat].high_cards
                if (
                    card.mask in witness
                    if state is target
                    else (witness.count(card.mask) < pool[card.mask])
                ):
                    found.append((card, state))
                    continue
            if target is not None and state is not target:
                if card not in elsewhere:
                    elsewhere[card] = _keeps(position, ply, seat, card, state, target)
                keeps = elsewhere[card]
            else:
                keeps = _keeps(position, ply, seat, card, state, target)
            if keeps:
                found.append((card, state))
    return tuple(found)


def _held(
    seats: int, deal: Deal | None, plays: Sequence[tuple[Card, State]], scoring: Scoring
) -> bool:
    """Whether the core holds the game: within the engine's limits (the
    core's, ``_analysis.MAX_SEATS`` and the rest, are held to them by
    tests/test_analysis.py), a pile of any length (it reads the cards that
    can be drawn), and not a short deal."""
    if not MIN_SEATS <= seats <= MAX_SEATS or len(plays) > PLAYS_PER_SEAT * MAX_SEATS:
        return False
    if scoring.points is not None and len(scoring.points) > MAX_SEATS:
        return False
    # a short deal: a pile that ran out early can leave a seat fewer cards than places,
    # where this module's bounds (kept while they stand) and the core's search part
    return deal is None or (
        not deal.short
        and len(deal.hands) == seats
        and all(len(cards) == HAND_SIZE for cards in deal.hands)
    )


def draws_to_come(game: Game, seat: int) -> int:
    """How many cards ``seat``, to move and holding the turn's draw, will
    still draw in its later turns: one a turn while the pile lasts (its size
    is public; without a deal, as if it never ran out)."""
    turns = PLAYS_PER_SEAT - sum(len(row[seat].units) for row in game.armies) - 1
    left = game.pile_left
    if left is None:
        return turns
    return max(0, min(turns, (left - 1) // game.seats))


def position_as_seen(
    game: Game,
    seat: int,
    hand: Sequence[Card],
    draws: int | None = None,
    play: tuple[Card, State] | None = None,
) -> Position:
    """The position as ``seat`` sees ``game`` holding ``hand`` (after the
    turn's draw), with ``draws`` cards still to draw (``draws_to_come`` by
    default), every card to come, its own and the other seats', any card (what a
    player at the table knows; a bot's view); with ``play``, as after
    ``seat`` played it."""
    position = Position(game.seats, None, Scoring.classic())
    for other in range(game.seats):
        played = sum(len(row[other].units) for row in game.armies)
        position.wild[other] = PLAYS_PER_SEAT - played
    pool = Counter(card.mask for card in hand)
    if play is not None:
        pool[play[0].mask] -= 1
        pool = +pool
    position.pool[seat] = pool
    position.wild[seat] = draws_to_come(game, seat) if draws is None else draws
    for state in STATES:
        index = state - 1
        for other, army in enumerate(game.armies[index]):
            base = sum(PACKED[card.mask] for card in army.cards)
            units, fourth = len(army.units), army.fourth_ply
            if play is not None and other == seat and play[1] is state:
                base += PACKED[play[0].mask]
                units += 1
                fourth = game.ply + 1 if units == UNITS_PER_ARMY else None
            position.base[index][other] = base
            position.units[index][other] = units
            start = _start(base, UNITS_PER_ARMY - units, position.pool[other], position.wild[other])
            position.reach[index][other] = start._replace(fourth=fourth)
    return position


def reachable(game: Game, seat: int, hand: Sequence[Card]) -> dict[State, frozenset[int]]:
    """The seats that can still win each state as ``seat`` sees ``game``
    holding ``hand`` (``position_as_seen``)."""
    position = position_as_seen(game, seat, hand)
    return {state: position.winners(state) for state in STATES}


_Play = tuple[int, int, Card, State, list[Reach]]  # ply, seat, card, state, the seat's reach before


def _kept(position: Position, play: _Play, target: State | None) -> tuple[tuple[Card, State], ...]:
    """The other plays from the same hand that would have kept ``target``."""
    if position.hands is None:
        return ()
    ply, seat, card, state, before = play
    with position.undone(ply, seat, card, state, before):
        return _alternatives(position, ply, seat, (card, state), target)


def _compiled() -> Callable[..., Found | None] | None:
    if not compiled.wanted():
        return None
    try:
        from ._analysis import analyse, configure
    except ImportError:
        return None
    configure(tuple(PACKED))
    return analyse


CORE = _compiled()
"""The analysis in C (``_analysis_module.c``, by ``_analysis.h``) where it was
built: tests/test_quick.py holds it to this module's on every corpus."""


def analyse(
    seats: int,
    deal: Deal | None,
    plays: Sequence[tuple[Card, State]],
    scoring: Scoring | None = None,
    fast: bool = True,
) -> Analysis:
    """The analysis of a game of ``seats`` with this ``deal`` (None: unknown)
    and these legal ``plays``, in order: by the compiled core where it was
    built and holds the game, the same as here (``fast=False``)."""
    known = deal is not None and deal.draws_known(len(plays))
    scoring = scoring or Scoring.classic()
    if fast and CORE is not None and _held(seats, deal, plays, scoring):
        hands = seats if deal is None else tuple(bytes(c.mask for c in h) for h in deal.hands)
        pile = b"" if deal is None else bytes(card.mask for card in deal.pile)
        codes = bytes(play_code(card, state) for card, state in plays)
        found = CORE(hands, pile, known, codes, scoring.points)
        if found is not None:
            return from_core(seats, deal is not None, found)[0]
    position = Position(seats, deal, scoring, known)
    can = {state: position.winners(state) for state in STATES}
    decided = {state: 0 if len(can[state]) == 1 else None for state in STATES}
    resolved: dict[State, int] = {}
    losses: dict[State, list[Loss]] = {state: [] for state in STATES}
    game = _game_winners(position)
    game_decided = 0 if len(game) == 1 else None
    game_losses: list[Loss] = []
    for ply, (card, state) in enumerate(plays, 1):
        seat = (ply - 1) % seats
        before = [row[seat] for row in position.reach]
        moved = position.play(ply, seat, card, state)
        units = position.units[state - 1]
        full = units[seat] == UNITS_PER_ARMY and all(n == UNITS_PER_ARMY for n in units)
        if full:
            resolved[state] = ply
        play = (ply, seat, card, state, before)

        changed = False
        for target in moved:  # elsewhere the bounds are as they were: so are the winners
            now = position.winners(target)
            if now == can[target]:
                continue
            changed = True
            for lost in sorted(can[target] - now):
                losses[target].append(
                    Loss(lost, ply, seat, _kept(position, play, target) if lost == seat else ())
                )
            can[target] = now
            if len(now) == 1 and decided[target] is None:
                decided[target] = ply
        # classic scoring: the states' winners count, and the order they resolve in (ties)
        now_game = (
            _game_winners(position) if changed or full or position.scoring.is_points else game
        )
        if now_game != game:
            for lost in sorted(game - now_game):
                game_losses.append(
                    Loss(lost, ply, seat, _kept(position, play, None) if lost == seat else ())
                )
            game = now_game
            if len(game) == 1 and game_decided is None:
                game_decided = ply
    exact = deal is not None and not any(position.wild)
    return Analysis(
        seats,
        tuple(
            StateAnalysis(
                state,
                decided[state],
                next(iter(can[state])) if len(can[state]) == 1 else None,
                resolved.get(state),
                tuple(losses[state]),
                exact,
                can[state],
            )
            for state in STATES
        ),
        game_decided,
        next(iter(game)) if len(game) == 1 else None,
        tuple(game_losses),
        deal is not None,
        game,
    )
