"""The benchmark: throughput and memory of `ordo` against baselines.

    python bench/run.py            # 1k and 10k records, 2 and 4 seats (a few minutes)
    python bench/run.py --full     # also 100k records (generation takes a while; cached)

Archives are generated with `ordo play` at fixed seeds into bench/data/
(kept between runs). For each archive, in the same run: a raw read of the
bytes, a regex tokenizer pass over them (the practical pure-Python ceiling),
`ordo validate --jobs 1` and `--jobs 2` as separate processes (wall time
including start-up, median of --runs; peak memory from GNU time), and, as
the peer anchor, python-chess `read_game` over a PGN archive of the same size
in bytes (needs the bench extra: pip install '.[bench]'). Then every command
that reads archives (convert to YAML and to JSON and back, fmt --check,
summary, stats, select, export, view, replay), and PyYAML's and json's own
dump and load of the same records as the floors of archiving. Prints two
tables and the targets of issues 6, 13, 25, 26 and 29, and writes them as
JSON to bench/results/.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
RESULTS = HERE / "results"
ORDO = [sys.executable, "-m", "ordonnance_notation"]
TOKEN = re.compile(
    r'\{[^}]*\}|;[^\n]*|"(?:[^"\\\n]|\\.)*"|[A-Za-z]+|#?[0-9]+\.?|\+[A-Za-z]+|[!?]{1,2}|[\[\]:]|\S'
)


def archive(records: int, seats: int) -> Path:
    path = DATA / f"play-{seats}p-{records}.ord"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        print(f"generating {path.name} ...", file=sys.stderr, flush=True)
        subprocess.run(
            [
                *ORDO,
                "play",
                "--players",
                str(seats),
                "--games",
                str(records),
                "--seed",
                f"bench-{seats}",
                "-o",
                str(path),
            ],
            check=True,
        )
    return path


GNU_TIME = "/usr/bin/time"


def timed(command: list[str], limit_mb: int | None = None) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KB) of a command run to completion.

    Linux carries a process's peak memory across exec, so a child forked from
    this process (which holds the archive in memory) would report at least
    this process's peak. GNU time, a small program, forks the command instead;
    without it the figure from wait4 is an upper bound. ``limit_mb`` caps the
    command's address space, and then only exit 0 will do (the soak's archive
    is valid: a MemoryError would end in 1)."""
    inner = command
    if limit_mb is not None:
        inner = ["sh", "-c", f'ulimit -v {limit_mb * 1024} && exec "$@"', "sh", *command]
    gnu_time = os.access(GNU_TIME, os.X_OK)
    wrapped = [GNU_TIME, "-f", "%M", *inner] if gnu_time else inner
    start = time.perf_counter()
    process = subprocess.Popen(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, errors = process.communicate()
    elapsed = time.perf_counter() - start
    if process.returncode not in ((0,) if limit_mb is not None else (0, 1)):
        raise SystemExit(f"{' '.join(command)} failed (exit {process.returncode})")
    if not gnu_time:
        return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, int(errors.decode().strip().splitlines()[-1])


def cpu_seconds(command: list[str], pure: bool = False) -> float:
    """User and system seconds of a command run to completion, start-up
    included (with ``pure``, on the Python path alone: ``ORDO_PURE_PYTHON=1``)."""
    env = {k: v for k, v in os.environ.items() if k != "ORDO_PURE_PYTHON"}
    if pure:
        env["ORDO_PURE_PYTHON"] = "1"
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            errors.seek(0)
            said = errors.read().decode(errors="replace")
            raise SystemExit(f"{' '.join(command)} failed (exit {code}):\n{said}")
    return usage.ru_utime + usage.ru_stime


def median_run(command: list[str], runs: int, limit_mb: int | None = None) -> tuple[float, int]:
    results = [timed(command, limit_mb) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results)


def two_at_once(command: list[str], runs: int) -> float:
    """Median wall seconds of two copies of ``command`` started together: what
    two busy processes get of this machine (the ceiling of ``--jobs 2``)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pair = [subprocess.Popen(command, stdout=subprocess.DEVNULL) for _ in range(2)]
        for process in pair:
            process.wait()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_process(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pgn_archive(size: int) -> Path | None:
    """Random legal chess games as PGN, about ``size`` bytes (needs python-chess)."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    path = DATA / f"chess-{size}.pgn"
    if path.exists():
        return path
    import random

    rng = random.Random(1)
    written = 0
    with path.open("w") as out:
        while written < size:
            board = chess.Board()
            for _ in range(rng.randint(40, 120)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "bench"
            text = str(game) + "\n\n"
            out.write(text)
            written += len(text.encode())
    return path


CHESS = """
import sys, chess.pgn
n = 0
with open(sys.argv[1]) as f:
    while chess.pgn.read_game(f) is not None:
        n += 1
"""

CHESS_EXPORT = """
import sys, chess.pgn
with open(sys.argv[1]) as f:
    while (game := chess.pgn.read_game(f)) is not None:
        sys.stdout.write(game.accept(chess.pgn.StringExporter()) + "\\n\\n")
"""
"""python-chess reading and writing back a PGN archive: the peer of `ordo fmt`."""


def bench(records: int, seats: int, runs: int) -> dict:
    path = archive(records, seats)
    data = path.read_bytes()
    mb = len(data) / 1e6
    row: dict = {
        "archive": path.name,
        "records": records,
        "seats": seats,
        "megabytes": round(mb, 3),
    }
    read = in_process(path.read_bytes, runs)
    text = data.decode()
    tokens = in_process(lambda: sum(1 for _ in TOKEN.finditer(text)), runs)
    row["raw_read_mb_s"] = round(mb / read, 1)
    row["regex_tokens_mb_s"] = round(mb / tokens, 2)
    commands(row, path, runs)
    row.update(floors(text, runs if records <= 10_000 else 1))
    # python-chess's MB/s does not depend on the archive's size, and at 100k
    # records it would take a quarter of an hour: the anchor is run up to 10k
    pgn = pgn_archive(len(data)) if records <= 10_000 else None
    if pgn is not None:  # once above 5 MB: it takes a minute a run and varies little
        seconds, _ = median_run(
            [sys.executable, "-c", CHESS, str(pgn)], runs if len(data) < 5_000_000 else 1
        )
        row["chess_read_game_mb_s"] = round(pgn.stat().st_size / 1e6 / seconds, 3)
        row["validate_vs_chess"] = round(row["validate_j1_mb_s"] / row["chess_read_game_mb_s"], 2)
        seconds, _ = median_run([sys.executable, "-c", CHESS_EXPORT, str(pgn)], 1)
        row["chess_export_mb_s"] = round(pgn.stat().st_size / 1e6 / seconds, 3)
    return row


def commands(row: dict, path: Path, runs: int, limit_mb: int | None = None) -> None:
    """``ordo validate`` on one and two processes, then every command that
    reads archives, on ``path``, each as its own process (in ``limit_mb`` of
    address space, if given): into ``row``."""
    records, mb = row["records"], row["megabytes"]
    for jobs in (1, 2):
        seconds, peak = median_run(
            [*ORDO, "validate", "--jobs", str(jobs), str(path)], runs, limit_mb
        )
        row[f"validate_j{jobs}_s"] = round(seconds, 2)
        row[f"validate_j{jobs}_records_s"] = round(records / seconds, 1)
        row[f"validate_j{jobs}_mb_s"] = round(mb / seconds, 3)
        row[f"validate_j{jobs}_peak_mb"] = round(peak / 1024, 1)
    row["jobs2_speedup"] = round(row["validate_j1_s"] / row["validate_j2_s"], 2)
    if limit_mb is None:  # not for the soak: an hour more
        pair = two_at_once([*ORDO, "validate", "--jobs", "1", str(path)], runs)
        row["two_at_once_speedup"] = round(2 * row["validate_j1_s"] / pair, 2)
    for name, command in COMMANDS.items():
        if name == "analyse" and records > 10_000:
            continue  # some milliseconds a record: the 1k and 10k archives say enough
        if name == "view" and records > 100_000:
            continue  # the analysis in it: hours on the gigabyte
        seconds, peak = median_run([*ORDO, *command(path, records)], runs, limit_mb)
        row[f"{name}_mb_s"] = round(mb / seconds, 3)
        row[f"{name}_peak_mb"] = round(peak / 1024, 1)
        row[f"{name}_vs_validate"] = round(row[f"{name}_mb_s"] / row["validate_j1_mb_s"], 2)
    page = _page(path)
    if page.exists():
        row["view_page_mb"] = round(page.stat().st_size / 1e6, 2)
        page.unlink()
    for kind in ("yaml", "json"):  # gigabytes of them, for the big archives
        _converted(path, kind).unlink(missing_ok=True)
    (DATA / f"{path.stem}.back.ord").unlink(missing_ok=True)
    (DATA / f"{path.stem}.selected.ord").unlink(missing_ok=True)
    (DATA / f"{path.stem}.once.ord").unlink(missing_ok=True)
    shutil.rmtree(DATA / f"{path.stem}.tables", ignore_errors=True)
    shutil.rmtree(DATA / f"{path.stem}.split", ignore_errors=True)


CPU_COMMANDS = {
    "summary": ["summary", "{archive}", "--no-decided"],
    "view": ["view", "{archive}", "-o", "{page}", "--force"],
    "export_csv": ["export", "{archive}", "-o", "{tables}", "--force"],
    "export_parquet": ["export", "{archive}", "--format", "parquet", "-o", "{tables}", "--force"],
    "to_yaml": ["convert", "{archive}", "--to", "yaml", "-o", "{yaml}", "--force"],
    "to_json": ["convert", "{archive}", "--to", "json", "-o", "{json}", "--force"],
    "yaml_to_ord": ["convert", "{yaml}", "--to", "ord", "-o", "{back}", "--force"],
    "json_to_ord": ["convert", "{json}", "--to", "ord", "-o", "{back}", "--force"],
    "fmt_check": ["fmt", "--check", "{archive}"],
    "select": ["select", "{archive}", "--winner", "P1", "-o", "{selected}", "--force"],
    "dedup": ["dedup", "{archive}", "-q", "-o", "{once}", "--force"],
    "explore": ["explore", "{archive}", "--plies", "3"],
    "summary_decided": ["summary", "{archive}"],
}
"""Issue 48's commands, timed by their CPU seconds (``cpu_table``): each on
the archive, or (``yaml_to_ord``, ``json_to_ord``) on what ``to_yaml`` and
``to_json`` wrote of it; ``summary_decided`` is the summary with when each
state was decided, held to no slower than before."""
DECIDED_BEFORE = {2: 3.5, 4: 4.75}
"""``summary`` with the analysis over ``validate``, CPU, before issue 48."""


def cpu_table(seats: int, runs: int) -> dict:
    """Each of ``CPU_COMMANDS`` on 10,000 records of ``seats`` seats, one
    process (``--jobs 1``): CPU seconds with the compiled core (median of
    ``runs``) and on the Python path alone (once), and ``validate``'s."""
    path = archive(10_000, seats)
    places: dict[str, Path] = {
        "page": _page(path),
        "tables": DATA / f"{path.stem}.tables",
        "yaml": _converted(path, "yaml"),
        "json": _converted(path, "json"),
        "back": DATA / f"{path.stem}.back.ord",
        "selected": DATA / f"{path.stem}.selected.ord",
        "once": DATA / f"{path.stem}.once.ord",
    }

    def command(words: list[str]) -> list[str]:
        return [*ORDO, *(word.format(archive=path, **places) for word in words), "--jobs", "1"]

    def median(words: list[str]) -> float:
        return statistics.median(cpu_seconds(command(words)) for _ in range(runs))

    row: dict = {"seats": seats, "validate": round(median(["validate", "{archive}"]), 3)}
    for name, words in CPU_COMMANDS.items():
        row[name] = round(median(words), 3)
        if name != "summary_decided":
            row[f"{name}_pure"] = round(cpu_seconds(command(words), pure=True), 3)
    for place in places.values():
        if place.is_dir():
            shutil.rmtree(place)
        else:
            place.unlink(missing_ok=True)
    return row


def cpu_targets(rows: list[dict]) -> dict:
    """Issue 48's targets against ``cpu_table``'s rows: (measured, target, met) by name."""
    found = {}
    for row in rows:
        seats, validate = row["seats"], row["validate"]
        for name in CPU_COMMANDS:
            ratio = round(row[name] / validate, 2)
            if name == "summary_decided":
                asked = DECIDED_BEFORE[seats]
                found[f"summary with the analysis over validate, CPU, {seats} seats"] = (
                    ratio,
                    f"<= {asked}",
                    ratio <= asked,
                )
                continue
            found[f"{name} over validate, CPU, {seats} seats"] = (ratio, "<= 3", ratio <= 3)
            faster = round(row[f"{name}_pure"] / row[name], 2)
            found[f"{name}: Python path over compiled, CPU, {seats} seats"] = (
                faster,
                ">= 3",
                faster >= 3,
            )
    return found


def gigabyte() -> dict:
    """Every command once on an archive of 1 GB (copies of the 100k-record
    2-seat archive, one after another), each in 500 MB of address space: the
    soak of issue 14 (about two hours)."""
    part = archive(100_000, 2)
    copies = -(-1_000_000_000 // part.stat().st_size)
    path = DATA / "play-2p-1gb.ord"
    if not path.exists() or path.stat().st_size < 1e9:
        print(f"writing {path.name} ...", file=sys.stderr, flush=True)
        text = part.read_text()
        with path.open("w") as out:
            out.write("\n".join([text] * copies))
    row = {
        "archive": path.name,
        "records": 100_000 * copies,
        "seats": 2,
        "megabytes": round(path.stat().st_size / 1e6, 3),
    }
    commands(row, path, 1, limit_mb=SOAK_LIMIT_MB)
    return row


SOAK_LIMIT_MB = 500


def _page(path: Path) -> Path:
    return DATA / f"{path.stem}.html"


def _converted(path: Path, kind: str) -> Path:
    return DATA / f"{path.stem}.out.{kind}"


def _to(kind: str, jobs: int = 1):
    def command(path: Path, records: int) -> list[str]:
        out = str(_converted(path, kind))
        return ["convert", str(path), "--to", kind, "-o", out, "--force", "--jobs", str(jobs)]

    return command


def _back(kind: str):
    def command(path: Path, records: int) -> list[str]:
        back = DATA / f"{path.stem}.back.ord"
        return ["convert", str(_converted(path, kind)), "--to", "ord", "-o", str(back), "--force"]

    return command


def _starts(path: Path) -> Path:
    """The first 12 plies of every hundredth record of ``path``, beside it."""
    starts = DATA / f"{path.stem}.starts.ord"
    if not starts.exists():
        from ordonnance_notation.notation.cutting import split_records

        records = [text for _, text in split_records(path.read_text()) if text.strip()]
        starts.write_text("\n".join(_first_plies(text, 12) for text in records[::100]))
    return starts


def _first_plies(text: str, plies: int) -> str:
    kept = []
    for line in text.strip("\n").split("\n"):
        number = line.split(".")[0]
        if (number.isdigit() and int(number) > plies) or line.startswith(("#", "result")):
            break
        kept.append(line)
    return "\n".join(kept) + "\n"


def _written(name: str, target, *options: str):
    """``ordo NAME ARCHIVE OPTIONS -o TARGET --force --jobs 1``, the target
    made of the archive's path."""

    def command(path: Path, records: int) -> list[str]:
        return [name, str(path), *options, "-o", str(target(path)), "--force", "--jobs", "1"]

    return command


COMMANDS = {
    "to_yaml": _to("yaml"),
    "to_json": _to("json"),
    "yaml_to_ord": _back("yaml"),  # the archives the two above wrote
    "json_to_ord": _back("json"),
    "fmt_check": lambda path, records: ["fmt", "--check", str(path), "--jobs", "1"],
    # the summary's own work; when each state was decided is ``analyse``'s, timed apart
    "summary": lambda path, records: ["summary", str(path), "--no-decided", "--jobs", "1"],
    "analyse": lambda path, records: ["analyse", str(path), "--jobs", "1"],
    "stats": lambda path, records: ["stats", str(path), "--jobs", "1"],
    # a query that replays each record, written to a file as a user would
    "select": _written("select", lambda path: DATA / f"{path.stem}.selected.ord", "--winner", "P1"),
    "export": _written("export", lambda path: DATA / f"{path.stem}.tables"),
    # the page replays in the browser; it carries when each state was decided (analyse's work)
    "view": _written("view", _page),
    "replay_last": lambda path, records: ["replay", str(path), "--record", str(records)],
    # issue 29: select's tests of a game, its edits and splits, dedup, dedup --prefix, explore
    "select_play": _written(
        "select", lambda path: DATA / f"{path.stem}.selected.ord", "--play", "P1 * J", "--at", "1-5"
    ),
    "select_army": _written(
        "select", lambda path: DATA / f"{path.stem}.selected.ord", "--army", "* J regiment"
    ),
    "select_decided": _written(
        "select", lambda path: DATA / f"{path.stem}.selected.ord", "--decided-by", "30"
    ),
    "select_edits": _written(
        "select",
        lambda path: DATA / f"{path.stem}.selected.ord",
        *("--set-tag", "Event=bench", "--drop-tag", "Round", "--strip-comments"),
        *("--strip-glyphs", "--renumber", "Game"),
    ),
    "select_split": _written(
        "select", lambda path: DATA / f"{path.stem}.split", "--split-by", "P1"
    ),
    "dedup": _written("dedup", lambda path: DATA / f"{path.stem}.once.ord", "-q"),
    # the archive and the first 12 plies of 1 record in 100: starts to leave out
    "dedup_prefix": lambda path, records: [
        "dedup",
        "-q",
        "--prefix",
        str(_starts(path)),
        str(path),
        *("-o", str(DATA / f"{path.stem}.once.ord"), "--force", "--jobs", "1"),
    ],
    "explore": lambda path, records: ["explore", str(path), "--plies", "3", "--jobs", "1"],
    "to_yaml_j2": _to("yaml", jobs=2),
    "summary_j2": lambda path, records: ["summary", str(path), "--no-decided", "--jobs", "2"],
}
"""The commands that read archives, each timed as its own process on the archive,
on one process (``--jobs 1``, as validate is held to) but the last two, on
two; MB/s are of the .ord archive's bytes (the same records) for every one."""
TIMED = (
    "to_yaml",
    "to_json",
    "yaml_to_ord",
    "json_to_ord",
    "fmt_check",
    "summary",
    "stats",
    "select",
    "export",
    "select_play",
    "select_army",
    "select_decided",
    "select_edits",
    "select_split",
    "dedup",
    "dedup_prefix",
    "explore",
)
"""Those held to half of validate's MB/s (replay_last is held to its memory)."""


FLOOR_SAMPLE = 10_000_000
"""Characters of an archive the floors are measured on: whole documents of
more hold gigabytes of objects in PyYAML (9 GB at 100k records)."""


def floors(text: str, runs: int) -> dict:
    """What PyYAML (libyaml's emitter and loader) and json take to write and
    read the archive's records as one document, in this process: the floors
    an archive writer built on them can reach. MB/s are of the .ord text of
    the records, up to ``FLOOR_SAMPLE`` of it (whole records)."""
    import yaml

    from ordonnance_notation import parse_text
    from ordonnance_notation.archives.document import dump_yaml
    from ordonnance_notation.notation.cutting import last_cut
    from ordonnance_notation.notation.writer import plain

    if len(text) > FLOOR_SAMPLE:
        text = text[: last_cut(text[:FLOOR_SAMPLE])[0]]
    mb = len(text.encode()) / 1e6
    doc = {"schema_version": 1, "records": [plain(r) for r in parse_text(text, "bench")]}
    as_yaml = dump_yaml(doc)
    as_json = json.dumps(doc, ensure_ascii=False, indent=1)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return {
        "pyyaml_dump_mb_s": round(mb / in_process(lambda: dump_yaml(doc), runs), 3),
        "pyyaml_load_mb_s": round(mb / in_process(lambda: yaml.load(as_yaml, loader), runs), 3),
        "json_dump_mb_s": round(mb / in_process(lambda: json.dumps(doc, indent=1), runs), 2),
        "json_load_mb_s": round(mb / in_process(lambda: json.loads(as_json), runs), 2),
    }


ARCHIVE_COLUMNS = [
    ("archive", "archive"),
    ("validate_j1_mb_s", "validate MB/s"),
    *((f"{name}_mb_s", f"{name} MB/s") for name in COMMANDS),
    ("pyyaml_dump_mb_s", "PyYAML dump MB/s"),
    ("pyyaml_load_mb_s", "PyYAML load MB/s"),
    ("json_dump_mb_s", "json dump MB/s"),
    ("json_load_mb_s", "json load MB/s"),
]
"""MB/s are of the .ord archive's bytes, for every column."""

PEAK_COLUMNS = [
    ("archive", "archive"),
    ("validate_j1_peak_mb", "validate"),
    *((f"{name}_peak_mb", name) for name in COMMANDS),
]
"""Peak resident memory, MB, of each command."""

COLUMNS = [
    ("archive", "archive"),
    ("megabytes", "MB"),
    ("view_page_mb", "view page MB"),
    ("raw_read_mb_s", "read MB/s"),
    ("regex_tokens_mb_s", "regex MB/s"),
    ("validate_j1_records_s", "rec/s j1"),
    ("validate_j1_mb_s", "MB/s j1"),
    ("validate_j1_peak_mb", "peak MB j1"),
    ("validate_j2_mb_s", "MB/s j2"),
    ("jobs2_speedup", "j2/j1"),
    ("two_at_once_speedup", "2 j1 at once"),
    ("validate_j2_peak_mb", "peak MB j2"),
    ("chess_read_game_mb_s", "chess MB/s"),
    ("validate_vs_chess", "vs chess"),
    ("chess_export_mb_s", "chess export MB/s"),
]


def table(rows: list[dict], columns: list[tuple[str, str]] = COLUMNS) -> str:
    head = [title for _, title in columns]
    body = [[str(row.get(key, "-")) for key, _ in columns] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(head)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in body]
    return "\n".join(lines)


def targets(rows: list[dict], startup: float) -> dict:
    """Issue 6's targets against this run: (measured, target, met) by name."""
    big = [row for row in rows if row["records"] >= 10_000] or rows
    per_core = min(row["validate_j1_mb_s"] for row in big)
    chess = [row["validate_vs_chess"] for row in big if "validate_vs_chess" in row]
    # --jobs 2 can share the work, not the start-up (about a quarter of a second on one core
    # whatever the archive): it is held to its target on the largest archives measured
    largest = max(row["records"] for row in rows)
    speedup = min(row["jobs2_speedup"] for row in rows if row["records"] == largest)
    peak = max(max(row["validate_j1_peak_mb"], row["validate_j2_peak_mb"]) for row in rows)
    found = {
        "validate MB/s on one core, slowest archive of 10k+ records": (
            per_core,
            ">= 2",
            per_core >= 2,
        ),
        f"--jobs 2 over --jobs 1, archives of {largest:,} records (--full: 100,000)": (
            speedup,
            ">= 1.8",
            speedup >= 1.8,
        ),
        "peak memory, MB, any archive": (peak, "< 100", peak < 100),
        "one small file, s": (round(startup, 3), "< 0.3", startup < 0.3),
    }
    for name in TIMED:
        ratio = min(row[f"{name}_vs_validate"] for row in big)
        found[f"{name} over validate --jobs 1, MB/s, archives of 10k+ records"] = (
            ratio,
            ">= 0.5",
            ratio >= 0.5,
        )
    # issue 17 asks it of a 1,000-record archive; the 10k ones are in the table
    analysed = [
        row["analyse_vs_validate"]
        for row in rows
        if "analyse_vs_validate" in row and row["records"] == 1000
    ]
    # issue 26 asks no more than twice validate's time of them, 2 and 4 seats
    if analysed:
        ratio = min(analysed)
        for least, asked in ((0.25, ""), (0.5, " (issue 26)")):
            found[f"analyse over validate --jobs 1, MB/s, archives of 1,000 records{asked}"] = (
                ratio,
                f">= {least}",
                ratio >= least,
            )
    # issue 25 asks it of 1,000 and 10,000 records
    viewed = [
        row["view_vs_validate"]
        for row in rows
        if "view_vs_validate" in row and row["records"] in (1000, 10_000)
    ]
    if viewed:
        ratio = min(viewed)
        found["view over validate --jobs 1, MB/s, archives of 1k and 10k records"] = (
            ratio,
            ">= 0.5",
            ratio >= 0.5,
        )
    command_peak = max(
        row[f"{name}_peak_mb"] for row in rows for name in COMMANDS if f"{name}_peak_mb" in row
    )
    found["peak memory of the archive commands, MB, any archive"] = (
        command_peak,
        "< 100",
        command_peak < 100,
    )
    if chess:
        found["validate over python-chess read_game, MB/s, archives of 10k+ records"] = (
            min(chess),
            ">= 3.5",
            min(chess) >= 3.5,
        )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--full", action="store_true", help="add the 100k-record archives")
    parser.add_argument(
        "--gigabyte",
        action="store_true",
        help="add an archive of 1 GB (copies of the 100k one): memory and speed of every command",
    )
    parser.add_argument(
        "--sizes", default="1000,10000", help="records per archive, comma-separated"
    )
    parser.add_argument("--seats", default="2,4")
    parser.add_argument(
        "--runs", type=int, default=3, help="runs per measurement (the median is kept)"
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="only issue 48's table: CPU seconds of each command on 10k records, "
        "against validate and against the Python path",
    )
    args = parser.parse_args()
    if args.cpu:
        return cpu_main(args)
    sizes = [int(s) for s in args.sizes.split(",")] + ([100_000] if args.full else [])
    rows = []
    for seats in (int(s) for s in args.seats.split(",") if s):  # --seats "": --gigabyte alone
        for records in sizes:
            rows.append(bench(records, seats, args.runs if records < 100_000 else 1))
            print(table(rows[-1:]).split("\n")[1], file=sys.stderr, flush=True)
    if args.gigabyte:
        rows.append(gigabyte())
    small = HERE.parent / "samples" / "classic-2.ord"
    startup, _ = median_run([*ORDO, "validate", str(small)], 5)
    try:
        import lark_cython  # noqa: F401

        parser_kind = "line scanner, Lark (lark-cython) for the rest"
    except ImportError:
        parser_kind = "line scanner, Lark (pure Python) for the rest"
    result = {
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "parser": parser_kind,
        "small_file_validate_s": round(startup, 3),
        "rows": rows,
    }
    result["targets"] = targets(rows, startup)
    print(table(rows))
    print()
    print(table(rows, ARCHIVE_COLUMNS))
    print()
    print("peak memory, MB")
    print(table(rows, PEAK_COLUMNS))
    print(f"ordo validate on one small file: {startup:.3f} s (parser: {parser_kind})")
    for name, (value, goal, met) in result["targets"].items():
        print(f"{'met' if met else 'NOT met'}: {name}: {value} (target {goal})")
    ceilings = [row["two_at_once_speedup"] for row in rows if "two_at_once_speedup" in row]
    if ceilings:
        print(
            f"two validate --jobs 1 at once did {min(ceilings)}-{max(ceilings)}x the work of one: "
            "what two busy processes got of this machine, the ceiling of --jobs 2"
        )
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    for name in (f"{stamp}.json", "latest.json"):
        (RESULTS / name).write_text(json.dumps(result, indent=2) + "\n")
    return 0


def cpu_main(args: argparse.Namespace) -> int:
    # A pip install leaves the package compiled; an editable one under
    # PYTHONDONTWRITEBYTECODE compiles every module on every run, which would
    # weigh on the commands that import more of the package than validate.
    import compileall

    import ordonnance_notation

    compileall.compile_dir(Path(ordonnance_notation.__file__).parent, quiet=1)
    rows = [cpu_table(int(seats), args.runs) for seats in args.seats.split(",") if seats]
    names = ["validate", *CPU_COMMANDS]
    print("CPU seconds, 10,000 records, --jobs 1 (compiled; Python path in brackets)")
    print(f"{'command':<16}" + "".join(f"{row['seats']:>8} seats   " for row in rows))
    for name in names:
        cells = []
        for row in rows:
            pure = row.get(f"{name}_pure")
            cells.append(f"{row[name]:>8.2f}" + (f" ({pure:6.2f})" if pure else " " * 9))
        print(f"{name:<16}" + "  ".join(cells))
    found = cpu_targets(rows)
    for name, (value, goal, met) in found.items():
        print(f"{'met' if met else 'NOT met'}: {name}: {value} (target {goal})")
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    result = {"when": stamp, "cpu_rows": rows, "cpu_targets": found}
    (RESULTS / f"{stamp}-cpu.json").write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
