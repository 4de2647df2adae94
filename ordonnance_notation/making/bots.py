"""Built-in players for self-play. A bot sees what its seat sees: the table
and its own hand (after the turn's draw), never another hand or the pile."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol

from ..engine.armies import Unit, rank
from ..engine.cards import Card, Icon, State
from ..engine.game import Game
from ..engine.rng import Rng

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


@cache
def _strength(masks: tuple[int, ...]) -> int:
    total = 0
    for icon in Icon:
        count = sum(mask >> icon & 1 for mask in masks)
        total += _LEVEL_VALUE[min(count, 4)] * (5 + icon)
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


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def bot(name: str) -> Bot:
    """A bot by name; raises KeyError for an unknown one."""
    return BOTS[name]()
