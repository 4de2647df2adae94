"""A bot that keeps the bot protocol but is hard to end, in the ways its
options name; it writes its own pid, and those of the processes it
starts, to PIDFILE (one a line), and ``thinking`` there when it thinks.

    lingering.py PIDFILE [--children N] [--stubborn] [--think SECONDS] [--stderr MIB]

--children N   starts N ``setsid sleep 600``: out of its group and session
--stubborn     ignores SIGTERM, and ``quit`` once it has played
--think S      thinks S seconds on each ``go`` before it answers
--stderr MIB   writes MIB mebibytes to its standard error as it starts, in
               numbered lines of 1 KiB
"""

import argparse
import os
import signal
import subprocess
import sys
import time

STATES = "ACJET"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("pidfile")
    parser.add_argument("--children", type=int, default=0)
    parser.add_argument("--stubborn", action="store_true")
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--stderr", type=int, default=0)
    options = parser.parse_args()
    if options.stubborn:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pids = [subprocess.Popen(["setsid", "sleep", "600"]).pid for _ in range(options.children)]
    with open(options.pidfile, "a") as file:
        file.write("".join(f"{pid}\n" for pid in [*pids, os.getpid()]))
    for number in range(options.stderr * 1024):  # numbered lines of 1 KiB
        sys.stderr.buffer.write(b"%07d %s\n" % (number, b"x" * 1015))
    sys.stderr.flush()
    out = sys.stdout
    hand: list[str] = []
    mine = dict.fromkeys(STATES, 0)
    seat = ""
    for line in sys.stdin:
        words = line.split() or [""]
        kind = words[0]
        if kind == "ordo":
            out.write("bot lingering\n")
        elif kind == "game":
            hand, mine = [], dict.fromkeys(STATES, 0)
        elif kind == "seat":
            seat = words[1]
        elif kind == "hand":
            hand = words[1:]
        elif kind == "draw":
            hand.append(words[1])
        elif kind == "go":
            if options.think:
                with open(options.pidfile, "a") as file:
                    file.write("thinking\n")
                time.sleep(options.think)
            state = min((s for s in STATES if mine[s] < 4), key=lambda s: mine[s])
            out.write(f"play {hand[0]} {state}\n")
        elif kind == "play" and words[1] == seat:
            hand.remove(words[2])
            mine[words[3]] += 1
        elif kind == "end":
            out.write("ok\n")
        elif kind == "quit":
            if options.stubborn and seat:  # once it has played (ordo asks the name of a run first)
                time.sleep(600)
            return
        out.flush()


if __name__ == "__main__":
    main()
