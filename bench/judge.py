"""What judging a whole record from each seat's view costs (issue 49): every
play of a record, from ply 1, at the default settings of ``ordo analyse
--judge`` (``making.judging.judge_record``), on one core.

    python bench/judge.py                      # 10 records of 2 seats, 5 of 3, 5 of 4
    python bench/judge.py --records 3 --seats 2

The records are careful bots' games on the reference deck, seeds
``judge/<seats>/<k>``. For each: the CPU seconds of the judgement (process
time, one core), and how many of its plays have their loss against the
best play known to five points either side (the 95% interval at most ten
points wide; a play that was itself the best has no loss to know). The
targets: a two-seat record within 90 s, three and four seats within 180 s,
every loss to five points. Prints the distribution per seat count and
writes it as JSON to bench/results/judge-<time>.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import time
from datetime import datetime, timezone
from pathlib import Path

from ordonnance_notation.engine.game import Game
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.judging import PLAYOUTS, PRECISION, judge_record
from ordonnance_notation.making.selfplay import play_game

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
TARGET = {2: 90.0, 3: 180.0, 4: 180.0}


def one(seats: int, k: int) -> dict[str, float | int]:
    played = play_game(f"judge/{seats}/{k}", ["careful"] * seats, load_deck())
    plays = [(turn.card, turn.state) for turn in played.turns]
    began = time.process_time()
    found = judge_record(Game.new(seats, played.deal), plays, seed=f"bench/{k}")
    seconds = time.process_time() - began
    lost = [j for j in found.plies if j.play != j.judgement.best.play]
    within = sum(j.loss.width <= 2 * PRECISION + 1e-9 for j in lost)
    return {
        "k": k,
        "seconds": round(seconds, 2),
        "plies": len(found.plies),
        "playouts": sum(j.judgement.playouts for j in found.plies),
        "judged_losses": len(lost),
        "within_five_points": within,
        "graded": len(found.graded()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, nargs="+", default=[10, 5, 5])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    args = parser.parse_args()
    counts = dict(zip(args.seats, args.records + args.records[-1:] * 3, strict=False))
    rows = []
    for seats in args.seats:
        records = [one(seats, k) for k in range(1, counts[seats] + 1)]
        times = [r["seconds"] for r in records]
        losses = sum(int(r["judged_losses"]) for r in records)
        within = sum(int(r["within_five_points"]) for r in records)
        row = {
            "seats": seats,
            "records": records,
            "seconds": {
                "min": min(times),
                "median": statistics.median(times),
                "max": max(times),
            },
            "target_seconds": TARGET[seats],
            "met_seconds": max(times) <= TARGET[seats],
            "losses_within_five_points": f"{within} of {losses}",
            "met_precision": within == losses,
        }
        rows.append(row)
        print(
            f"{seats} seats: {len(records)} records, CPU s min {min(times):.1f} median "
            f"{statistics.median(times):.1f} max {max(times):.1f} (target {TARGET[seats]:.0f}: "
            f"{'met' if row['met_seconds'] else 'NOT met'}); losses to 5 points: {within} of "
            f"{losses} ({'met' if row['met_precision'] else 'NOT met'})",
            flush=True,
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"peak memory {peak} MiB")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    document = {
        "when": stamp,
        "playouts": PLAYOUTS,
        "precision": PRECISION,
        "machine": {"python": platform.python_version()},
        "peak_mib": peak,
        "rows": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"judge-{stamp}.json").write_text(json.dumps(document, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
