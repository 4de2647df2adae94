"""The bots against each other: how often each wins, for 2, 3 and 4 seats.

    python bench/bots.py                       # 2,000 games a pairing and seat count
    python bench/bots.py --games 200 --seats 2 # a quick look
    python bench/bots.py --pairings exact:careful   # best play where it reaches

A pairing is a challenger and an opponent: one seat holds the challenger,
every other seat the opponent, and the challenger's seat turns round the
table game by game, so it sits in each seat equally often (the game count
is rounded up to a multiple of the seats). Games are classic scoring on the
reference deck; game ``k`` of a pairing uses the seed
``<seed>/<challenger>-<opponent>-<seats>/<k>``, so any game can be replayed
with ``making.selfplay.play_game``. The challenger's win share is given
with a 95% Wilson interval; a bot as good as its opponents wins
``1/seats`` of the games. Prints a table and writes it as JSON to
bench/results/bots-<time>.json and bench/results/bots-latest.json, after
each row.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import play_game
from ordonnance_notation.making.statistics import wilson

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PAIRINGS = (("careful", "greedy"), ("careful", "random"), ("greedy", "random"))
CHUNK = 50  # games a task: few enough tasks to cost nothing, enough to share the cores


def play_chunk(seed: str, challenger: str, opponent: str, seats: int, first: int, last: int) -> int:
    """How many of games ``first``..``last`` the challenger won."""
    deck = load_deck()
    wins = 0
    for k in range(first, last + 1):
        seat = (k - 1) % seats
        bots = [opponent] * seats
        bots[seat] = challenger
        played = play_game(f"{seed}/{challenger}-{opponent}-{seats}/{k}", bots, deck)
        wins += played.outcome.winner == seat
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games a pairing and seat count")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--seed", default="bots")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--pairings",
        nargs="+",
        metavar="CHALLENGER:OPPONENT",
        help="default: " + " ".join(":".join(pairing) for pairing in PAIRINGS),
    )
    args = parser.parse_args()
    pairings = (
        [tuple(pairing.split(":", 1)) for pairing in args.pairings] if args.pairings else PAIRINGS
    )

    rows: list[dict[str, object]] = []
    started = time.perf_counter()
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")

    def write() -> None:
        """The table so far: written after each row, so that a run cut short keeps its rows."""
        document = {
            "when": stamp,
            "seed": args.seed,
            "games": args.games,
            "jobs": args.jobs,
            "pairings": [":".join(pairing) for pairing in pairings],
            "seconds": round(time.perf_counter() - started, 1),
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
            "rows": rows,
        }
        RESULTS.mkdir(exist_ok=True)
        text = json.dumps(document, indent=2) + "\n"
        (RESULTS / f"bots-{stamp}.json").write_text(text, "utf-8")
        (RESULTS / "bots-latest.json").write_text(text, "utf-8")

    with ProcessPoolExecutor(args.jobs) as pool:
        for seats in args.seats:
            games = -(-args.games // seats) * seats
            for challenger, opponent in pairings:
                begun = time.perf_counter()
                spans = [(k, min(k + CHUNK - 1, games)) for k in range(1, games + 1, CHUNK)]
                futures = [
                    pool.submit(play_chunk, args.seed, challenger, opponent, seats, a, b)
                    for a, b in spans
                ]
                wins = sum(f.result() for f in futures)
                low, high = wilson(wins, games)
                row = {
                    "seats": seats,
                    "challenger": challenger,
                    "opponent": opponent,
                    "games": games,
                    "wins": wins,
                    "share": wins / games,
                    "low": low,
                    "high": high,
                    "fair": 1 / seats,
                    "seconds": round(time.perf_counter() - begun, 1),
                }
                rows.append(row)
                write()
                print(
                    f"{seats} seats  {challenger:>8} v {opponent:<7} {games:6} games  "
                    f"{wins / games:6.1%}  [{low:.1%}, {high:.1%}]  fair {1 / seats:.1%}  "
                    f"{row['seconds']:7.1f} s",
                    flush=True,
                )
    print(f"{time.perf_counter() - started:.0f} s on {args.jobs} processes")


if __name__ == "__main__":
    main()
