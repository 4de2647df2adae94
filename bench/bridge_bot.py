"""A built-in bot behind the bot protocol (docs/bots.md): the table is kept
from what the protocol tells the seat, and the bot chosen on the command
line plays on it, so that the protocol's cost can be measured against the
same bot built in (bench/match.py).

    python bench/bridge_bot.py greedy
"""

from __future__ import annotations

import sys

from ordonnance_notation.engine.cards import Card, State, seat_number
from ordonnance_notation.engine.game import Game
from ordonnance_notation.engine.rng import Rng
from ordonnance_notation.making.bots import bot


def main() -> None:
    player = bot(sys.argv[1])
    rng = Rng("bridge")
    game = Game.new(2)
    hand: list[Card] = []
    me: int | None = None
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        kind = words[0] if words else ""
        if kind == "ordo":
            out.write(f"bot bridged {sys.argv[1]}\n")
        elif kind == "seats":
            game = Game.new(int(words[1]))
        elif kind == "seat":
            me = seat_number(words[1])
        elif kind == "hand":
            hand = [Card.from_letters(w) for w in words[1:]]
        elif kind == "draw":
            hand.append(Card.from_letters(words[1]))
        elif kind == "go":
            card, state = player.choose(game, hand, rng)
            out.write(f"play {card} {state.name}\n")
        elif kind == "play":
            card, state = Card.from_letters(words[2]), State.lookup(words[3])
            assert state is not None
            if seat_number(words[1]) == me:
                hand.remove(card)
            game = game.play(card, state)[0]
        elif kind == "end":
            out.write("ok\n")
        elif kind == "quit":
            return
        out.flush()


if __name__ == "__main__":
    main()
