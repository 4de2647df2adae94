"""Best play's budget as a cap: the CPU time of a whole record's best play
(``ordo analyse --best-play``: bounds, values and the plays that kept a
value) against its ``--budget``.

    python bench/budget.py                          # 100 two-seat records, 20 of 3 and 4
    python bench/budget.py --records 20 --budgets 0 2

Record ``k`` is ``making.selfplay.play_game("<seed>/<seats>/<k>", careful
bots)`` on the reference deck. Each is scored by ``views.bestplay.
scored_record``, as the command does, and its cost read from the process's
CPU clock. Targets (issue 50): a budget of 0 s costs a two-seat record at
most 0.05 s, a budget of B at most B + 0.1 s. Prints the median and largest
cost per seat count and budget, and how far each budget reached (the first
ply from which every value is exact); writes the table as JSON to
bench/results/budget-<time>.json, after each row.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from datetime import datetime, timezone
from pathlib import Path

from ordonnance_notation.engine.bestplay import best_play
from ordonnance_notation.engine.budget import Budget
from ordonnance_notation.engine.game import Game
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import play_game

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100, help="two-seat records")
    parser.add_argument("--more", type=int, default=20, help="three- and four-seat records")
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.0, 1.0])
    parser.add_argument("--seed", default="budget")
    args = parser.parse_args()
    deck = load_deck()
    rows: list[dict[str, object]] = []
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")

    def write() -> None:
        """The table so far, after each row: a run cut short keeps its rows."""
        RESULTS.mkdir(exist_ok=True)
        document = {
            "when": stamp,
            "seed": args.seed,
            "machine": {"python": platform.python_version()},
            "rows": rows,
        }
        text = json.dumps(document, indent=2) + "\n"
        (RESULTS / f"budget-{stamp}.json").write_text(text, "utf-8")

    for seats in (2, 3, 4):
        records = []
        for k in range(args.records if seats == 2 else args.more):
            played = play_game(f"{args.seed}/{seats}/{k}", ["careful"] * seats, deck)
            plays = [(turn.card, turn.state) for turn in played.turns]
            records.append((Game.new(seats, played.deal), plays))
        best_play(*records[0], Scoring.classic(), Budget(0))  # the tables made, the core loaded
        for budget in args.budgets:
            costs, reached = [], []
            for start, plays in records:
                began = time.process_time()
                found = best_play(start, plays, Scoring.classic(), Budget(budget))
                costs.append(time.process_time() - began)
                first = found.exact_from
                reached.append(len(plays) if first is None else first)
            target = 0.05 if budget == 0 else budget + 0.1
            row = {
                "seats": seats,
                "budget": budget,
                "records": len(records),
                "median": round(statistics.median(costs), 4),
                "most": round(max(costs), 4),
                "target": target,
                "met": max(costs) <= target,
                "exact_from_median": statistics.median(reached),
            }
            rows.append(row)
            write()
            print(
                f"{seats} seats  budget {budget:g} s  {len(records)} records  CPU median "
                f"{row['median']:.3f} s, most {row['most']:.3f} s (target {target:g}: "
                f"{'met' if row['met'] else 'NOT met'}); exact from ply "
                f"{row['exact_from_median']:g} (median)",
                flush=True,
            )


if __name__ == "__main__":
    main()
