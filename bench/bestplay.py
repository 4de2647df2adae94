"""How far best play reaches: the time to find the value of a position some
plies before the end of self-played games, by seat count.

    python bench/bestplay.py                              # 100 games, 2-4 seats
    python bench/bestplay.py --seats 2 --left 20 24 28 --games 1000 --budget 10
    python bench/bestplay.py --seats 2 --left 16 --python   # the Python search alone
    python bench/bestplay.py --seats 3 4 --left 12 --selfish --games 1000

Game ``k`` is ``making.selfplay.play_game("<seed>/<seats>/<k>", careful bots)``
on the reference deck, classic scoring; for each count of plies ``left``
before its end, the position there is valued by ``engine.bestplay`` within
``--budget`` seconds of CPU (one core a process). A position is *solved* when its
value came out exact: at two seats the states P1 gets, at three and four
each seat's forced win (``--selfish``: what best play gives each seat
when every seat plays for itself, the max-n search, alone). The
search is the compiled one where it was built (``--python``: the Python
reference, for the ratio of the two on the same positions). Prints,
for each seat count and plies left, how many were solved and the median,
90th percentile and largest time; writes the table as JSON to
bench/results/bestplay-<time>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

from ordonnance_notation.engine.bestplay import Board, Solver, compiled_search
from ordonnance_notation.engine.budget import Budget, OutOfBudget
from ordonnance_notation.engine.game import Game
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import play_game

RESULTS = Path(__file__).resolve().parent / "results"
WITHIN = (0.01, 0.1, 1.0, 10.0, 60.0)  # seconds


def solve(
    seed: str, seats: int, k: int, left: int, budget: float, python: bool, selfish: bool
) -> tuple[float, bool, int]:
    """The CPU seconds taken to value game ``k`` ``left`` plies before its
    end, whether exactly, and the positions searched."""
    played = play_game(f"{seed}/{seats}/{k}", ["careful"] * seats, load_deck())
    game = Game.new(seats, played.deal)
    for turn in played.turns[: max(0, len(played.turns) - left)]:
        game = game.play(turn.card, turn.state)[0]
    solver = Solver(Board(game, Scoring.classic()), Budget(budget))
    if python:
        solver.core = solver.core_selfish = None
    started = time.process_time()
    if selfish and seats > 2:
        try:
            solver.selfish()
            exact = True
        except OutOfBudget:
            exact = False
    else:
        exact = solver.value().exact if seats == 2 else None not in solver.forced_wins()
    return time.process_time() - started, exact, solver.budget.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--left", type=int, nargs="+", default=[12, 16, 20, 24, 28])
    parser.add_argument("--budget", type=float, default=10.0, help="seconds a position")
    parser.add_argument("--seed", default="bestplay")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--python", action="store_true", help="the Python search")
    parser.add_argument(
        "--selfish", action="store_true", help="three and four seats: every seat for itself"
    )
    args = parser.parse_args()
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for seats in args.seats:
            for left in args.left:
                futures = [
                    pool.submit(
                        solve, args.seed, seats, k, left, args.budget, args.python, args.selfish
                    )
                    for k in range(1, args.games + 1)
                ]
                found = [future.result() for future in futures]
                times = sorted(seconds for seconds, _, _ in found)
                nodes = sorted(searched for _, _, searched in found)
                row = {
                    "seats": seats,
                    "left": left,
                    "games": args.games,
                    "solved": sum(1 for _, exact, _ in found if exact),
                    "nodes": {"median": statistics.median(nodes), "max": nodes[-1]},
                    "median": round(statistics.median(times), 3),
                    "p90": round(times[int(0.9 * (len(times) - 1))], 3),
                    "max": round(times[-1], 3),
                    # the distribution: how many were solved within each time
                    "within": {
                        f"{limit:g}": sum(
                            1 for seconds, exact, _ in found if exact and seconds <= limit
                        )
                        for limit in WITHIN
                        if limit < args.budget
                    },
                }
                rows.append(row)
                print(
                    f"{seats} seats, {left:2} plies left: {row['solved']:4} of {args.games} solved "
                    f"within {args.budget:g} s; median {row['median']:.3f} s, "
                    f"90% {row['p90']:.3f} s, slowest {row['max']:.2f} s; solved within "
                    + ", ".join(f"{limit} s: {n}" for limit, n in row["within"].items()),
                    flush=True,
                )
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    document = {
        "when": stamp,
        "seed": args.seed,
        "budget": args.budget,
        "jobs": args.jobs,
        "search": "python" if args.python or compiled_search(2, False) is None else "compiled",
        "question": "every seat for itself" if args.selfish else "value",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "rows": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"bestplay-{stamp}.json").write_text(json.dumps(document, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
