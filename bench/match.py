"""What a match costs: ``ordo match`` against ``ordo play`` for the same
built-in bots (the target: at least half of play's games a second), and a
program behind the bot protocol against the same bot built in.

    python bench/match.py                  # 10,000 games; 400 through the protocol
    python bench/match.py --games 2000 --protocol-games 100

Each command is run ``--runs`` times in turn with its yardstick, and the
median of the ratios of their wall times is taken run by run (the machine
may be shared). The program is bench/bridge_bot.py: the built-in bot kept
in a process of its own, fed by the protocol; its yardstick is the same
match with the bot built in, at the table in Python (ORDO_PURE_PYTHON=1,
so that both sides choose their plays in Python) and in C. Prints the
figures and writes them as JSON to bench/results/match-<time>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ORDO = [sys.executable, "-m", "ordonnance_notation"]


def timed(command: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - started


def paired(
    a: list[str], b: list[str], runs: int, env_b: dict[str, str] | None = None
) -> dict[str, float]:
    """Median seconds of each, and the median of the run-by-run ratio a/b."""
    pairs = [(timed(a), timed(b, env_b)) for _ in range(runs)]
    return {
        "a_seconds": round(statistics.median(x for x, _ in pairs), 3),
        "b_seconds": round(statistics.median(y for _, y in pairs), 3),
        "ratio": round(statistics.median(x / y for x, y in pairs), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--protocol-games", type=int, default=400)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bot", default="greedy")
    args = parser.parse_args()
    bot, n, m = args.bot, str(args.games), str(args.protocol_games)
    pure = {**os.environ, "ORDO_PURE_PYTHON": "1"}
    bridged = f"{sys.executable} {HERE / 'bridge_bot.py'} {bot}"
    rows = {
        "match_vs_play": paired(
            [*ORDO, "match", "careful", bot, "-n", n, "--seed", "bench"],
            [*ORDO, "play", "-b", f"careful,{bot}", "-n", n, "--seed", "bench"],
            args.runs,
        ),
        "protocol_vs_python": paired(
            [*ORDO, "match", bridged, bot, "-n", m, "--seed", "bench"],
            [*ORDO, "match", bot, bot, "-n", m, "--seed", "bench"],
            args.runs,
            pure,
        ),
        "protocol_vs_c": paired(
            [*ORDO, "match", bridged, bot, "-n", m, "--seed", "bench"],
            [*ORDO, "match", bot, bot, "-n", m, "--seed", "bench"],
            args.runs,
        ),
    }
    rows["protocol_vs_python"]["games"] = rows["protocol_vs_c"]["games"] = args.protocol_games
    rows["match_vs_play"]["games"] = args.games
    for name, row in rows.items():
        games = row["games"]
        print(
            f"{name:>20}: {games / row['a_seconds']:8.0f} games/s against "
            f"{games / row['b_seconds']:8.0f}  (time ratio {row['ratio']:.2f})"
        )
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    RESULTS.mkdir(exist_ok=True)
    document = {
        "when": stamp,
        "bot": bot,
        "runs": args.runs,
        "machine": platform.machine(),
        "python": platform.python_version(),
        "rows": rows,
    }
    (RESULTS / f"match-{stamp}.json").write_text(json.dumps(document, indent=2) + "\n")


if __name__ == "__main__":
    main()
