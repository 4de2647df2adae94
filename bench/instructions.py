"""Instructions per MB: `ordo validate` against pgn-extract and python-chess (issue 26).

    python bench/instructions.py            # about four minutes
    python bench/instructions.py --runs 7   # more paired wall-clock runs

valgrind's callgrind counts the instructions a whole process executes, so
the figure holds on a busy machine. Each command runs twice under it, on an
input of about 0.8 MB and on an input of one game; the difference over the
difference in bytes is its instructions per MB, start-up subtracted:

- `ordo validate --jobs 1` on bench/data/play-2p-1000.ord, by the compiled
  core and with ORDO_PURE_PYTHON=1 (the Python path alone);
- pgn-extract (Debian's `pgn-extract`), `-s -o /dev/null`: every move's
  legality checked, nothing written; on random legal chess games of the
  same size in bytes (bench/run.py's PGN archive);
- python-chess's `read_game` loop (legality checked) on the same PGN.

Then wall-clock MB/s from paired runs (the big input and the one-game input
in turn, start-up subtracted pair by pair) on 10,000 records (7.9 MB) and a
PGN of the same size. Prints the table and the targets, and writes them as
JSON to bench/results/instructions-*.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from run import CHESS, ORDO, RESULTS, archive, pgn_archive  # noqa: E402

PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"
SMALL_ORD = HERE.parent / "samples" / "classic-2.ord"


def _small_pgn(pgn: Path) -> Path:
    """The first game of ``pgn``: the start-up input of the chess tools."""
    path = pgn.with_name("chess-one-game.pgn")
    if not path.exists():
        games = pgn.read_text().split("\n\n[")
        path.write_text(games[0] + "\n\n")
    return path


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ORDO_PURE_PYTHON"}
    if pure:
        env["ORDO_PURE_PYTHON"] = "1"
    return env


def instructions(command: list[str], env: dict[str, str]) -> int:
    """Instructions the whole process executed, by callgrind."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            check=False,
        )
        found = re.findall(r"Collected : (\d+)", done.stderr.decode())
        if not found:
            raise SystemExit(
                f"callgrind gave no count for {command}: {done.stderr.decode()[-500:]}"
            )
        return int(found[-1])


def paired_mb_per_s(
    big: list[str], small: list[str], mb: float, runs: int, env: dict[str, str]
) -> float:
    """MB/s of ``big`` with the start-up of ``small`` subtracted pair by pair (median)."""
    speeds = []
    for _ in range(runs):
        times = []
        for command in (big, small):
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, env=env, check=False)
            times.append(time.perf_counter() - start)
        speeds.append(mb / max(times[0] - times[1], 1e-6))
    return statistics.median(speeds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="paired wall-clock runs")
    args = parser.parse_args()
    if shutil.which("valgrind") is None or not Path(PGN_EXTRACT).exists():
        raise SystemExit("needs valgrind and pgn-extract: apt-get install valgrind pgn-extract")
    ordo_big = archive(1000, 2)
    pgn_big = pgn_archive(ordo_big.stat().st_size)
    if pgn_big is None:
        raise SystemExit("needs python-chess: pip install '.[bench]'")
    pgn_small = _small_pgn(pgn_big)
    validate = [*ORDO, "validate", "--jobs", "1"]
    chess = [sys.executable, "-c", CHESS]
    extract = [PGN_EXTRACT, "-s", "-o", "/dev/null"]
    tools = [
        ("ordo validate --jobs 1 (compiled core)", validate, ordo_big, SMALL_ORD, False),
        ("ordo validate --jobs 1 (ORDO_PURE_PYTHON=1)", validate, ordo_big, SMALL_ORD, True),
        ("pgn-extract -s -o /dev/null", extract, pgn_big, pgn_small, False),
        ("python-chess read_game loop", chess, pgn_big, pgn_small, False),
    ]
    rows = []
    for name, command, big, small, pure in tools:
        env = _env(pure)
        total = instructions([*command, str(big)], env)
        start_up = instructions([*command, str(small)], env)
        mb = (big.stat().st_size - small.stat().st_size) / 1e6
        rows.append(
            {
                "command": name,
                "input MB": round(big.stat().st_size / 1e6, 3),
                "instructions": total,
                "start-up instructions": start_up,
                "G instructions per MB": round((total - start_up) / mb / 1e9, 3),
            }
        )
        print(f"{name:48} {rows[-1]['G instructions per MB']:8.3f} G/MB", flush=True)
    per_mb = {row["command"]: row["G instructions per MB"] for row in rows}
    ordo = per_mb[tools[0][0]]
    ordo_big10 = archive(10_000, 2)
    pgn_big10 = pgn_archive(ordo_big10.stat().st_size)
    assert pgn_big10 is not None
    mb10 = ordo_big10.stat().st_size / 1e6
    wall = {
        "ordo validate --jobs 1 MB/s": paired_mb_per_s(
            [*validate, str(ordo_big10)], [*validate, str(SMALL_ORD)], mb10, args.runs, _env(False)
        ),
        "pgn-extract MB/s": paired_mb_per_s(
            [*extract, str(pgn_big10)], [*extract, str(pgn_small)], mb10, args.runs, _env(False)
        ),
    }
    targets = {
        "ordo at or under pgn-extract's instructions per MB": ordo <= per_mb[tools[2][0]],
        "ordo validate --jobs 1 at 5 MB/s or more": wall["ordo validate --jobs 1 MB/s"] >= 5,
    }
    print()
    print("| command | G instructions per MB | vs pgn-extract |")
    print("|---|---|---|")
    for row in rows:
        ratio = row["G instructions per MB"] / per_mb[tools[2][0]]
        print(f"| {row['command']} | {row['G instructions per MB']:.3f} | {ratio:.2f}x |")
    print()
    for name, value in wall.items():
        print(f"{name}: {value:.1f} (10,000 records, {mb10:.1f} MB, start-up subtracted)")
    for name, met in targets.items():
        print(f"{'met' if met else 'NOT met'}: {name}")
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    result = {"when": stamp, "rows": rows, "wall": wall, "targets": targets}
    for name in (f"instructions-{stamp}.json", "instructions-latest.json"):
        (RESULTS / name).write_text(json.dumps(result, indent=2) + "\n")
    return 0 if all(targets.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
