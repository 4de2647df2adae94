#!/usr/bin/env python3
"""A bot for ordo's bot protocol, version 1 (docs/bots.md), in plain Python
with no import of ordonnance_notation: it keeps its own hand and armies
from what it is told, and plays its first card to the state where its army
is smallest (ties: the first on the territory line).

    ordo match careful "python3 examples/bots/first_open.py" -n 10
"""

import sys

STATES = "ACJET"


def main() -> None:
    out = sys.stdout
    hand: list[str] = []
    mine = dict.fromkeys(STATES, 0)
    seat = ""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "ordo":
            out.write("bot first-open (Python)\n")
        elif kind == "game":
            hand, mine = [], dict.fromkeys(STATES, 0)
        elif kind == "seat":
            seat = words[1]
        elif kind == "hand":
            hand = words[1:]
        elif kind == "draw":
            hand.append(words[1])
        elif kind == "go":
            state = min((s for s in STATES if mine[s] < 4), key=lambda s: mine[s])
            out.write(f"play {hand[0]} {state}\n")
        elif kind == "play" and words[1] == seat:
            hand.remove(words[2])
            mine[words[3]] += 1
        elif kind == "end":
            out.write("ok\n")
        elif kind == "quit":
            return
        out.flush()


if __name__ == "__main__":
    main()
