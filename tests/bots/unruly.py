"""A bot that keeps the bot protocol (as examples/bots/first_open.py does)
until its second game, where at its own third turn it breaks it the way its
argument names: illegal, malformed, slow, crash, late, long, unended,
flood, noise, deaf, nul; or, early, answers that turn on its draw, before
it is asked. A new process starts by playing well again."""

import os
import sys
import time

STATES = "ACJET"


def misbehave(how: str, hand: list[str]) -> None:
    out = sys.stdout
    if how == "illegal":
        held = set(hand)
        card = next(c for c in ("L", "B", "S", "H", "F", "LBSHF", "LB") if c not in held)
        out.write(f"play {card} A\n")
    elif how == "malformed":
        out.write("play to Jerusalem please\n")
    elif how == "slow":
        out.flush()
        time.sleep(60)
    elif how == "crash":
        sys.exit(3)
    elif how == "long":
        out.write("play " + "L" * 5000 + " A\n")
    elif how == "unended":
        out.write("play " + hand[0])
        out.flush()
        time.sleep(60)
    elif how == "flood":
        while True:
            out.write("play L A\n" * 1000)
    elif how == "noise":
        out.flush()
        os.write(1, bytes(range(256)) * 3 + b"\n")
    elif how == "nul":
        out.write("play H\x00 J\n")
    elif how == "deaf":
        out.write(f"play {hand[0]} A\n")
        out.flush()
        time.sleep(60)  # reads nothing more: ordo's writes fill the pipe
    out.flush()


def main() -> None:
    how = sys.argv[1]
    out = sys.stdout
    games = turns = 0
    hand: list[str] = []
    mine = dict.fromkeys(STATES, 0)
    seat = ""
    # a line at a time, unbuffered: what ordo writes after it stays unread in the pipe
    for raw in iter(sys.stdin.buffer.raw.readline, b""):
        line = raw.decode()
        words = line.split()
        kind = words[0] if words else ""
        if kind == "ordo":
            out.write("bot unruly\n")
        elif kind == "game":
            games, turns, hand, mine = games + 1, 0, [], dict.fromkeys(STATES, 0)
        elif kind == "seat":
            seat = words[1]
        elif kind == "hand":
            hand = words[1:]
        elif kind == "draw":
            hand.append(words[1])
            if how == "early" and games == 2 and turns == 2:
                out.write(f"play {hand[0]} {min(STATES, key=lambda s: mine[s])}\n")
                out.flush()
                time.sleep(0.3)  # still reading none of what comes next
        elif kind == "go":
            turns += 1
            if how == "early" and games == 2 and turns == 3:
                continue  # answered already
            if games == 2 and turns == 3 and how not in ("late", "early"):
                misbehave(how, hand)
            state = min((s for s in STATES if mine[s] < 4), key=lambda s: mine[s])
            out.write(f"play {hand[0]} {state}\n")
        elif kind == "play" and words[1] == seat:
            hand.remove(words[2])
            mine[words[3]] += 1
        elif kind == "end":
            out.write("ok\n" if games != 2 or how != "late" else "ok, and thanks\n")
        elif kind == "quit":
            return
        out.flush()


if __name__ == "__main__":
    main()
