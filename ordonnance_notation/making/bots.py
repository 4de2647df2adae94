"""Every built-in bot, by name (``BOTS``, ``bot``): those that choose by
rules of thumb (``heuristics``: random, greedy, careful) and those that look
ahead, here: the rollout bot, which plays its best candidates out
(``playout``), the judge, which plays the play its seat's judgement rates
best (``judging``), and the exact bot, which searches to the end where it
reaches. A bot sees what its seat sees: the table and its own hand (after
the turn's draw), never another hand or the pile; the exact bot alone sees
every card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ..engine.cards import Card, State
from ..engine.game import PLAYS_PER_SEAT, Game
from ..engine.rng import Rng
from .heuristics import (
    COMPILED_BOTS,
    HEURISTIC_BOTS,
    Bot,
    CarefulBot,
    GreedyBot,
    RandomBot,
    bot_values,
)

__all__ = [
    "BOTS",
    "COMPILED_BOTS",
    "Bot",
    "CarefulBot",
    "ExactBot",
    "GreedyBot",
    "JudgeBot",
    "RandomBot",
    "RolloutBot",
    "bot",
    "bot_values",
]


class RolloutBot:
    """The careful bot's best plays, each tried by playing the game out.
    For each of ``SAMPLES`` guesses at the cards it cannot see (the cards
    of the deal that are neither on the table nor in its hand, shuffled
    into the other hands and the pile, as many as each holds), each of the
    careful bot's first ``CANDIDATES`` plays is made and the game played to
    its end by careful bots (``playout.played_out``; in C where it was
    built), every play on the same guesses and the same random numbers. The
    play that won most games (a state won counts a tenth of a game) is
    chosen; of equals, the one the careful bot prefers. It sees what its
    seat sees, and the deal's cards as a set (the deck is no secret), never
    which card is where."""

    name = "rollout"
    CANDIDATES = 4
    SAMPLES = 8

    def choose(self, game: Game, hand: Sequence[Card], rng: Rng) -> tuple[Card, State]:
        # here, not at the top: the compiled core is loaded when a rollout is first
        # played, not at every ordo start-up (the help names the bots)
        from .playout import played_out

        candidates = CarefulBot().ranked(game, hand, rng)[: self.CANDIDATES]
        if len(candidates) == 1:
            return candidates[0]
        seat, seats = game.to_move, game.seats
        assert game.hands is not None and game.pile is not None  # a dealt game
        drew = game.next_draw() is not None
        unseen = [c for s in range(seats) if s != seat for c in game.hands[s]]
        unseen += game.pile[game.drawn + drew :]
        pile_after = len(game.pile) - game.drawn - drew
        prefix = game.plays_made()
        bots = ["careful"] * seats
        won = [0.0] * len(candidates)
        for _ in range(self.SAMPLES):
            cards = rng.shuffle(unseen)
            hands: list[list[Card]] = []
            for s in range(seats):
                size = 0 if s == seat else len(game.hands[s])
                hands.append(cards[:size])
                cards = cards[size:]
            streams = [f"{rng.below(1 << 30)}/{s}" for s in range(seats)]
            for i, (card, state) in enumerate(candidates):
                held = list(hand)
                held.remove(card)
                hands[seat] = held
                winner, states = played_out(
                    [*prefix, (card, state)],
                    hands,
                    cards[:pile_after],
                    bots,
                    [Rng(x) for x in streams],
                )
                won[i] += (winner == seat) + states[seat] / 10
        best = max(range(len(candidates)), key=lambda i: (won[i], -i))
        return candidates[best]


class JudgeBot:
    """The careful bot's checked plays (twelve at most), judged as ``ordo
    analyse`` judges a play (``judging``): ``PLAYOUTS`` play-outs by
    careful bots in all, on deals of the cards its seat has not seen,
    spent by sequential halving where the plays are close; it makes the
    play judged best (of equals, the one the careful bot prefers). It sees
    what its seat sees (``engine.seatview``), and the deal's cards as a
    set, never which card is where."""

    name = "judge"
    PLAYOUTS = 384

    def choose(self, game: Game, hand: Sequence[Card], rng: Rng) -> tuple[Card, State]:
        from ..engine.seatview import SeatView
        from .judging import judge

        candidates = CarefulBot().ranked(game, hand, rng)
        if len(candidates) == 1:
            return candidates[0]
        view = SeatView.of(game, game.to_move)
        judged = judge(view, seed=str(rng.below(1 << 62)), playouts=self.PLAYOUTS, plays=candidates)
        return judged.best.play


class ExactBot:
    """Best play where the search reaches, the rollout bot before. Unlike the
    others this bot sees every card: the other hands and the pile, from the
    deal (as a double-dummy solver does in bridge). It is a yardstick for
    the other bots and for players, not a fair opponent. From ``REACH`` plies
    before the end it plays, at random, one of the plays that keep its value
    with best play (``engine.bestplay``, classic scoring, at most ``NODES``
    positions a play: a count, not a time, so that a seed repeats its game
    on any machine); at three and four seats only where it can force a win
    against all the others together. Earlier, out of budget, or without a
    win to keep, it plays as the rollout bot, the strongest of the others."""

    name = "exact"
    REACH: ClassVar[dict[int, int]] = {2: 20, 3: 12, 4: 12}
    NODES = 200_000

    def choose(self, game: Game, hand: Sequence[Card], rng: Rng) -> tuple[Card, State]:
        from ..engine.bestplay import best_plays, solvable
        from ..engine.budget import Budget
        from ..engine.scoring import Scoring

        left = PLAYS_PER_SEAT * game.seats - game.ply
        if left <= self.REACH[game.seats] and solvable(game) is None:
            kept = best_plays(game, Scoring.classic(), Budget(nodes=self.NODES))
            if kept:
                return rng.choice(kept)
        return RolloutBot().choose(game, hand, rng)


BOTS: dict[str, type[Bot]] = {
    **HEURISTIC_BOTS,
    "exact": ExactBot,
    "judge": JudgeBot,
    "rollout": RolloutBot,
}


def bot(name: str) -> Bot:
    """A bot by name; raises KeyError for an unknown one."""
    return BOTS[name]()
