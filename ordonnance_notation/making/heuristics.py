"""The built-in bots that choose by rules of thumb, without looking ahead:
random, greedy and careful, and the values they weigh plays by. These are
the bots ``_selfplay.c`` plays too, told the values by ``bot_values``
(``playout``); the bots that look ahead, and every bot by name, are in
``bots``. A bot sees what its seat sees: the table and its own hand (after
the turn's draw), never another hand or the pile."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, Protocol

from ..engine.armies import Unit, rank
from ..engine.cards import Card, Icon, State
from ..engine.game import STATES, Game
from ..engine.rng import Rng

if TYPE_CHECKING:
    from ..engine.analysis import Position

# What a formation is worth to the greedy bot, by how many cards carry the icon.
_LEVEL_VALUE = (0, 0, 1, 4, 16)
_RESOLVE_BONUS = 100


class Bot(Protocol):
    name: str

    def choose(self, game: Game, hand: Sequence[Card], rng: Rng) -> tuple[Card, State]:
        """A legal (card, state) for the seat to move, holding ``hand``."""
        ...


class RandomBot:
    """Every legal play equally likely (duplicate cards counted once)."""

    name = "random"

    def choose(self, game: Game, hand: Sequence[Card], rng: Rng) -> tuple[Card, State]:
        cards = sorted(set(hand), key=lambda c: c.mask)
        states = game.open_states(game.to_move)
        return rng.choice(cards), rng.choice(states)


_ICON_WEIGHT = tuple(5 + icon for icon in Icon)  # a senior icon's formations count more


@cache
def _strength(masks: tuple[int, ...]) -> int:
    total = 0
    for icon in Icon:
        count = sum(mask >> icon & 1 for mask in masks)
        total += _LEVEL_VALUE[min(count, 4)] * _ICON_WEIGHT[icon]
    return total


class GreedyBot:
    """Plays where a card adds the most to its own formations, weighted by
    seniority; a play that resolves a state counts a win for, a loss against."""

    name = "greedy"

    def choose(self, game: Game, hand: Sequence[Card], rng: Rng) -> tuple[Card, State]:
        seat = game.to_move
        best: list[tuple[Card, State]] = []
        best_value = None
        for card in sorted(set(hand), key=lambda c: c.mask):
            for state in game.open_states(seat):
                value = self._value(game, seat, card, state)
                if best_value is None or value > best_value:
                    best, best_value = [(card, state)], value
                elif value == best_value:
                    best.append((card, state))
        return rng.choice(best)

    @staticmethod
    def _value(game: Game, seat: int, card: Card, state: State) -> int:
        army = game.army(state, seat)
        before = tuple(sorted(c.mask for c in army.cards))
        after = tuple(sorted(before + (card.mask,)))
        value = _strength(after) - _strength(before)
        if len(after) == 4:
            others = [game.army(state, s) for s in range(game.seats) if s != seat]
            if all(o.full for o in others):
                mine = army.with_unit(Unit(card, game.ply + 1))
                value += _RESOLVE_BONUS if rank([mine, *others])[0] is mine else -_RESOLVE_BONUS
        return value


# What the careful bot adds to, or takes from, the greedy bot's values.
_DUMP_VALUE = 4.0  # a card that adds nothing where the bot can still win is best spent here
_KEPT_STATE_VALUE = 50.0  # what a play that leaves a winnable state unwinnable costs, per state
# At most this many plays, best first, are tried for what they do to the states it can win.
_CHECKED_PLAYS = 12


def _can_win(position: Position, seat: int, states: Sequence[State]) -> frozenset[State]:
    """Which of ``states`` ``seat`` can still win in ``position``."""
    return frozenset(state for state in states if position.can_win(state, seat))


def _weight(card: Card) -> int:
    """How much a card is worth in itself: its icons, senior ones more."""
    return sum(5 + icon for icon in card.icons)


class CarefulBot:
    """The greedy bot's values, spent where they can still win. From what its
    seat sees (its hand, the table; every card to come may be any card:
    ``analysis.position_as_seen``), each state is one the bot can no longer win, one
    only it can still win, or one it contests. A card goes into a state of
    the first two kinds as a dump, worth more the less the card would add
    where the bot contests (so its weakest cards go there); into a contested
    state it is worth the greedy value. The plays are then tried, best first,
    until one gives nothing away: a play after which the bot could no longer
    win a state it could win before loses ``_KEPT_STATE_VALUE`` for each.
    Resolving a state it wins counts as for the greedy bot. Ties are broken
    at random. It weighs no odds: a state is lost only when no cards at all
    could win it, and won only when no cards at all could take it."""

    name = "careful"

    def choose(self, game: Game, hand: Sequence[Card], rng: Rng) -> tuple[Card, State]:
        valued = self._valued(game, hand, rng)
        order, values = valued.order, valued.values
        choice, best = order[0], -math.inf
        for play in order[:_CHECKED_PLAYS]:
            value = values[play]
            if value <= best:
                break  # a play only loses value when tried
            value -= valued.cost(play)
            if value > best:
                choice, best = play, value
        return choice

    def ranked(self, game: Game, hand: Sequence[Card], rng: Rng) -> list[tuple[Card, State]]:
        """The plays ``choose`` tries, best first: its choice, then the
        others by the same values (drawing the same random numbers)."""
        valued = self._valued(game, hand, rng)
        tried = valued.order[:_CHECKED_PLAYS]
        worth = {play: valued.values[play] - valued.cost(play) for play in tried}
        return sorted(tried, key=lambda play: -worth[play])

    def _valued(self, game: Game, hand: Sequence[Card], rng: Rng) -> _Valued:
        # here, not at the top: the analysis's tables cost every ordo command a start-up
        from ..engine.analysis import draws_to_come, position_as_seen

        seat = game.to_move
        draws = draws_to_come(game, seat)
        position = position_as_seen(game, seat, hand, draws)
        live = [s for s in STATES if game.resolution(s) is None]
        winnable = _can_win(position, seat, live)
        mine = {s for s in winnable if position.winners(s) == {seat}}
        states = game.open_states(seat)
        contested = [s for s in states if s in winnable and s not in mine]
        cards = sorted(set(hand), key=lambda c: c.mask)
        greedy = {
            (card, state): GreedyBot._value(game, seat, card, state)
            for card in cards
            for state in states
        }
        values: dict[tuple[Card, State], float] = {}
        for card in cards:
            worth = max((greedy[card, s] for s in contested), default=0)
            for state in states:
                if state in contested:
                    values[card, state] = greedy[card, state]
                else:
                    bonus = _RESOLVE_BONUS if greedy[card, state] >= _RESOLVE_BONUS else 0
                    values[card, state] = _DUMP_VALUE - worth - _weight(card) / 10 + bonus
        # equal values in a random order: the tie is broken by which is tried first
        order = sorted(rng.shuffle(list(values)), key=lambda play: -values[play])

        def cost(play: tuple[Card, State]) -> float:
            if not winnable:
                return 0.0
            after = position_as_seen(game, seat, hand, draws, play)
            return _KEPT_STATE_VALUE * len(winnable - _can_win(after, seat, list(winnable)))

        return _Valued(order, values, cost)


class _Valued(NamedTuple):
    """The careful bot's plays in the order it tries them, their values, and
    what each costs in states it could win before and no longer can."""

    order: list[tuple[Card, State]]
    values: dict[tuple[Card, State], float]
    cost: Callable[[tuple[Card, State]], float]


HEURISTIC_BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "careful": CarefulBot,
}
"""The bots of this module, by name."""

COMPILED_BOTS = {"random": 0, "greedy": 1, "careful": 2}
"""The bots that ``_selfplay.c`` plays as this module does, by its numbers."""


def bot_values() -> tuple[tuple[int, ...], tuple[int, ...], int, float, float, int]:
    """What the greedy bot gives formations and the careful bot adds, as
    ``_selfplay.configure`` takes them."""
    return (
        _LEVEL_VALUE,
        _ICON_WEIGHT,
        _RESOLVE_BONUS,
        _DUMP_VALUE,
        _KEPT_STATE_VALUE,
        _CHECKED_PLAYS,
    )
