"""A game at the table: each seat's player told what its seat sees and
asked for its plays in turn, every play checked by the rules engine. A
player that errs (``players.Forfeit``), or a play the rules refuse, ends
the game there, lost by that seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.cards import seat_name
from ..engine.game import Deal, Game, IllegalPlay, Turn
from ..engine.scoring import Outcome, Scoring, score
from .players import Forfeit, Player, Seating


@dataclass(frozen=True, slots=True)
class Forfeited:
    seat: int
    reason: str

    def said(self, names: Sequence[str]) -> str:
        """``P2 (careful) forfeits: gave no answer within 5 s``."""
        return f"{seat_name(self.seat)} ({names[self.seat]}) forfeits: {self.reason}"


@dataclass(frozen=True, slots=True)
class Played:
    """What a game at the table came to: its plays, and how it ended."""

    game: Game
    turns: tuple[Turn, ...]
    outcome: Outcome | None  # None when a seat forfeited before the end
    forfeit: Forfeited | None


def play_table(
    dealt: Deal,
    players: Sequence[Player],
    scoring: Scoring,
    streams: str,
    watch: Callable[[Sequence[Turn]], None] | None = None,
) -> Played:
    """One game of ``players`` (P1 first) from ``dealt``; seat Pn's random
    choices, if any, come from the stream ``<streams>/Pn``. ``watch`` is
    told the plays so far before the first and after each."""
    seats = len(players)
    game = Game.new(seats, dealt)
    turns: list[Turn] = []
    seat = 0
    try:
        for seat, player in enumerate(players):
            player.begin(Seating(seats, seat, scoring, dealt, f"{streams}/{seat_name(seat)}"))
        if watch is not None:
            watch(turns)
        while not game.over:
            seat = game.to_move
            drawn = game.next_draw()
            if drawn is not None:
                players[seat].drew(drawn)
            hand = game.hand_to_play()
            assert hand is not None  # a dealt game
            card, state = players[seat].choose(game, hand)
            try:
                game, turn = game.play(card, state)
            except IllegalPlay as error:
                raise Forfeit(
                    f"played {card} to {state.name}, which the rules refuse: {error}"
                ) from None
            turns.append(turn)
            for seat in range(seats):
                players[seat].saw(turn)
            if watch is not None:
                watch(turns)
    except Forfeit as error:
        players[seat].forfeited()
        for other, player in enumerate(players):
            if other != seat:
                try:
                    player.end(None, seat)
                except Forfeit:
                    player.forfeited()  # its own fault counts only when it is the first
        return Played(game, tuple(turns), None, Forfeited(seat, str(error)))
    outcome = score(seats, game.resolutions, scoring)
    late = None  # a bot that errs once the game is over forfeits all the same
    for seat, player in enumerate(players):
        try:
            player.end(outcome.winner, None)
        except Forfeit as error:
            player.forfeited()
            late = late or Forfeited(seat, str(error))
    return Played(game, tuple(turns), outcome, late)
