"""The ``ordo`` command. Each command reads its input, calls the library, prints, exits.

Exit codes: 0 every record valid; 1 some record invalid; 2 usage or I/O error.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import io
import json
import os
import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from enum import Enum
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from ..checking.header import points_table
from ..checking.validator import validate
from ..diagnostics import (
    ArchiveError,
    ConversionError,
    DeckError,
    Diagnostic,
    InputError,
    Severity,
    UnreadableSource,
    no_record,
)
from ..engine.cards import seat_name, seat_number
from ..engine.game import MAX_SEATS, MIN_SEATS
from ..engine.scoring import DEFAULT_POINTS, Scoring
from ..files.output import ChangedSince, OutputExists, snapshot, write_atomic
from ..files.sources import (
    MAX_HELD,
    MAX_RECORD,
    STDIN,
    Source,
    expand,
    open_source,
    read_source,
    source_name,
)
from ..making.bots import BOTS
from ..notation.parser import parse_lines
from ..notation.record import Record, Unparsed
from ..views.report import diagnostic_text, json_records, plural, problem_text, visible

if TYPE_CHECKING:
    from ..checking.batch import Workers
    from ..making.dealing import Deck

# Command-specific modules are imported inside their commands: `ordo validate`
# on a small file should not pay for YAML, multiprocessing or the bots.

app = typer.Typer(
    name="ordo",
    help="Record, validate and replay games of Ordonnance (The Kingdoms of Crusaders).",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain usage errors and help: one line, greppable, no boxes
)

EXIT_VALID, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
EXIT_INTERNAL = 3  # a bug in ordo: nothing the input did
EXIT_BROKEN_PIPE = 128 + 13  # as a process ended by SIGPIPE: the reader went away
_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}  # an output that takes no more


class Format(str, Enum):
    text = "text"
    json = "json"


def _console(stderr: bool = False) -> Console:
    """Styles only on a terminal (Rich decides); a non-empty NO_COLOR turns off every style."""
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(  # no markup: "[...]" in a message is a tag or a file name, printed as it is
        stderr=stderr,
        highlight=False,
        soft_wrap=True,
        markup=False,
        color_system=None if plain else "auto",
    )


T = TypeVar("T")


def exit_status(*, io_error: bool = False, failed: bool = False) -> int:
    """The one rule for every command: 2 when some file could not be read or
    written at all, else 1 when some input was read and found wanting, else 0."""
    if io_error:
        return EXIT_USAGE
    return EXIT_INVALID if failed else EXIT_VALID


def _frozen_heap(items: Iterator[T]) -> Generator[T, None, None]:
    """``items``, while what was alive before lives on frozen: the collector
    does not scan it again at every full collection, which makes a long
    archive a third faster. Unfrozen at the end, for callers that go on."""
    gc.freeze()
    try:
        yield from items
    finally:
        gc.unfreeze()


def _said(
    console: Console, items: Iterable[T | InputError], problems: list[InputError]
) -> Iterator[T]:
    """``items`` but the inputs that cannot be used (further), each printed in
    its place and kept in ``problems``."""
    for item in items:
        if isinstance(item, InputError):
            console.print(problem_text(item))
            problems.append(item)
        else:
            yield item


def _parted(texts: Iterable[str]) -> Iterator[str]:
    """Records' texts with a blank line between them."""
    return (("\n" if n else "") + text for n, text in enumerate(texts))


def _version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        typer.echo(f"ordo {version('ordonnance-notation')}")  # __version__, as installed
        raise typer.Exit()


@app.callback()
def main(
    debug: Annotated[
        bool,
        typer.Option(
            "--debug", help="Show the traceback of an internal error (anywhere on the line)."
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Record, validate and replay games of Ordonnance (The Kingdoms of Crusaders)."""


class _ReaderGone(Exception):
    """The reader of standard output went away (its pipe is closed)."""


class _Stdout(io.TextIOWrapper):
    """Standard output on which a closed pipe is ``_ReaderGone``, no OSError:
    click would end the run with status 1 on one, and SIGPIPE's default would
    end the process at once, leaving the worker processes of ``--jobs``
    behind."""

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except BrokenPipeError:
            raise _ReaderGone from None

    def flush(self) -> None:
        try:
            super().flush()
        except BrokenPipeError:
            raise _ReaderGone from None


def _checked_stdout() -> None:
    """Standard output as a ``_Stdout``. Under PYTHONUNBUFFERED (or
    ``python -u``) it is a raw file, and a text stream over a raw file drops
    what a partial write left out (a full disk, a file-size limit) in
    silence: it is given a buffer, which finishes every write or raises,
    flushed at each line end."""
    out = sys.stdout
    if out is not sys.__stdout__ or not isinstance(out, io.TextIOWrapper):
        return  # a caller's own stream (a test's capture): theirs to check
    out.flush()
    encoding, errors, line_buffering = out.encoding, out.errors, out.line_buffering
    buffer = out.detach()
    if isinstance(buffer, io.RawIOBase):
        buffer, line_buffering = io.BufferedWriter(buffer), True
    sys.stdout = _Stdout(buffer, encoding=encoding, errors=errors, line_buffering=line_buffering)
    setattr(sys, "__stdout__", sys.stdout)  # noqa: B010  (the old one is detached: unusable)


def run(argv: list[str] | None = None) -> None:
    """The ``ordo`` command: ``app``, with the last word on what escapes it.
    A reader that goes away (``ordo ... | head``) ends the run quietly (the
    workers of ``--jobs`` too), with the status of a process ended by
    SIGPIPE; any other exception is a bug,
    said in one line with how to report it (exit 3), its traceback only with
    ``--debug``, which may stand anywhere on the command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    args = [arg for arg in args if arg != "--debug"]
    _checked_stdout()
    try:
        try:
            app(args, prog_name="ordo")
        finally:
            sys.stdout.flush()  # what is still buffered must reach the output too, or fail here
    except (_ReaderGone, BrokenPipeError):
        with contextlib.suppress(OSError):  # no complaint at exit, flushing to the closed pipe
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_BROKEN_PIPE)
    except BrokenProcessPool:
        lost = Diagnostic(
            "E008",
            "a worker process of --jobs ended before its work was done (killed, or out of "
            "memory?): the output is incomplete",
            "ordo",
            help="run again; with --jobs 1 the work is done in one process, without workers",
        )
        _console(stderr=True).print(diagnostic_text(lost, None))
        sys.exit(EXIT_USAGE)
    except OSError as error:
        if debug or error.filename is not None or error.errno not in _FULL:
            raise
        with contextlib.suppress(OSError):  # nothing more is written there
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.stderr.write(
            f"<stdout>: error[E001]: cannot be written: {error.strerror}\n"
            "  = help: the output is incomplete: make room on the disk (or raise the "
            "file size limit) and run again\n"
        )
        sys.exit(EXIT_USAGE)
    except Exception as error:
        if debug:
            raise
        cause = str(error).strip().split("\n")[0][:200]
        sys.stderr.write(
            f"ordo: internal error: {type(error).__name__}{': ' + cause if cause else ''}\n"
            "  this is a bug in ordo, not in the input: please report it with the command "
            "line and the input; `--debug` shows where it happened\n"
        )
        sys.exit(EXIT_INTERNAL)


PathsArgument = Annotated[
    list[str],
    typer.Argument(
        help="Files, directories (every *.ord below) or - for standard input.",
        show_default=False,
        metavar="PATH",
    ),
]
FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="text for people, json for programs.")
]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        min=0,
        help="Processes to read records on; 0: every core for inputs of 1 MB or more, else one.",
    ),
]


def _jobs(jobs: int, paths: Iterable[str]) -> int:
    """``--jobs``, or its default for these inputs (standard input is not measured)."""
    from ..checking.batch import default_jobs

    return jobs or default_jobs([p for p in expand(paths) if isinstance(p, str) and p != STDIN])


@app.command("validate", short_help="Check records and say where and why each one is wrong.")
def validate_command(
    paths: PathsArgument,
    format: FormatOption = Format.text,
    jobs: JobsOption = 0,
    severity: Annotated[
        Severity,
        typer.Option(
            "--severity",
            case_sensitive=False,
            help="The mildest problems shown: error, warning or note (text output).",
        ),
    ] = Severity.NOTE,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="Errors and warnings only, no line for a valid record (text)."
        ),
    ] = False,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Check on the workers of this Dask scheduler (tcp://HOST:8786) instead of "
            "--jobs; needs pip install 'ordonnance-notation[dask]'.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Check records: syntax, content, every draw and play, declared markers and result.

    Prints each problem with its place, one line per record, and a total.
    --quiet and --severity leave out what is not wanted (the JSON output is
    always whole; the exit status does not change).
    Records are read, checked and reported one at a time, in input order,
    with --scheduler too (the same output, records checked on a Dask cluster).
    Exit 0 when every record is valid, 1 when any is invalid, 2 for a usage
    or I/O error (a missing or unreadable file, a cluster that cannot be used).
    """
    from ..checking.batch import Validation
    from ..checking.cluster import ClusterError
    from ..views.report import JsonReporter, TextReporter

    if scheduler is not None and jobs:
        raise typer.BadParameter(
            "--jobs and --scheduler exclude each other: the cluster's workers do the work",
            param_hint="--jobs",
        )
    as_json = format is Format.json
    validation = Validation(paths, jobs, with_json=as_json, scheduler=scheduler)
    least = Severity.WARNING if quiet and severity is Severity.NOTE else severity
    reporter = JsonReporter(sys.stdout) if as_json else TextReporter(_console(), least, quiet)
    try:
        with contextlib.closing(_frozen_heap(iter(validation))) as items:  # closed: workers end
            for item in items:
                reporter.take(item)
    except ClusterError as error:
        _console(stderr=True).print(diagnostic_text(error.diagnostic, None))
        raise typer.Exit(exit_status(io_error=True)) from None
    tally = validation.tally
    reporter.finish(tally)
    raise typer.Exit(exit_status(io_error=tally.unreadable, failed=not tally.all_valid))


class By(str, Enum):
    player = "player"


class Rule(str, Enum):
    classic = "classic"
    points = "points"


def _stopped(console: Console, problem: InputError) -> typer.Exit:
    """Prints why reading stopped in a file (a bad byte, no record); the exit for it."""
    console.print(problem_text(problem))
    return typer.Exit(exit_status(failed=True))


def _fail(console: Console, problem: InputError) -> typer.Exit:
    """Prints why a file given in the arguments cannot be used; the exit for it."""
    console.print(problem_text(problem))
    return typer.Exit(exit_status(io_error=True))


def _scoring(rule: Rule, points: str | None) -> Scoring:
    if rule is Rule.classic:
        if points is not None:
            raise typer.BadParameter("--points needs --scoring points", param_hint="--points")
        return Scoring.classic()
    if points is None:
        return Scoring.by_points(DEFAULT_POINTS)
    try:
        table = points_table(points)
    except ValueError as error:
        raise typer.BadParameter(f"the table {error}", param_hint="--points") from None
    return Scoring.by_points(table)


def _deck(console: Console, path: str | None) -> Deck:
    from ..making.dealing import load_deck

    try:
        return load_deck(path)
    except DeckError as error:
        raise _fail(console, error) from None


def _emit(console: Console, text: str | Iterable[str], output: str, force: bool) -> None:
    """``text`` (or its pieces, as they come) to the output file, atomically, or to stdout."""
    if not output.strip():
        raise typer.BadParameter("name a file, or - for standard output", param_hint="--output")
    if output == "-":
        if isinstance(text, str):
            sys.stdout.write(text)
        else:
            for piece in text:
                sys.stdout.write(piece)
        return
    try:
        write_atomic(output, text, overwrite=force)
    except OutputExists:
        exists = Diagnostic(
            "E001",
            "already exists",
            output,
            help="pass --force to replace it, or name another file",
        )
        raise _fail(console, InputError(exists)) from None
    except OSError as error:
        raise _fail(console, _not_written(output, error)) from None


def _seed(seed: str | None) -> str:
    if seed is None:
        import secrets

        return str(secrets.randbits(63))
    if not seed or not seed.isprintable():
        raise typer.BadParameter("a seed is printable text on one line", param_hint="--seed")
    return seed


SeedOption = Annotated[
    str | None,
    typer.Option(
        "--seed",
        "-s",
        help="Any text; the same seed gives the same output. Default: a fresh random seed.",
    ),
]
DeckOption = Annotated[
    str | None,
    typer.Option(
        "--deck", help="A deck file (YAML); default: the reference deck (not the publisher's list)."
    ),
]
RuleOption = Annotated[Rule, typer.Option("--scoring", help="classic (most states) or points.")]
PointsOption = Annotated[
    str | None, typer.Option("--points", help="Points by rank for --scoring points, e.g. '3 1 0'.")
]
OutputOption = Annotated[
    str, typer.Option("--output", "-o", help="A file to write, or - for standard output.")
]
ForceOption = Annotated[bool, typer.Option("--force", help="Replace the output file if it exists.")]


@app.command("deal", short_help="Deal a new game: its header and deal, ready to play.")
def deal_command(
    players: Annotated[
        int, typer.Option("--players", "-p", min=MIN_SEATS, max=MAX_SEATS, help="Seats, 2 to 4.")
    ] = 2,
    seed: SeedOption = None,
    deck: DeckOption = None,
    scoring: RuleOption = Rule.classic,
    points: PointsOption = None,
    names: Annotated[
        str | None, typer.Option("--names", help="Players' names, comma-separated, P1 first.")
    ] = None,
    output: OutputOption = "-",
    force: ForceOption = False,
) -> None:
    """Deal a new game: a record with its header and the deal, ready to be played.

    Same seed, same version: the same record, byte for byte, on any machine.
    """
    from ..making.dealing import deal
    from ..making.selfplay import deal_text

    console = _console(stderr=True)
    rule = _scoring(scoring, points)
    chosen = _deck(console, deck)
    seats = [n.strip() for n in names.split(",")] if names else ["?"] * players
    if not all(name.isprintable() for name in seats):
        raise typer.BadParameter("names are printable text on one line", param_hint="--names")
    if len(seats) != players:
        raise typer.BadParameter(f"{len(seats)} names for {players} seats", param_hint="--names")
    seed = _seed(seed)
    text = deal_text(deal(chosen, players, seed), seed, chosen.name, seats, rule)
    _emit(console, text, output, force)


@app.command("play", short_help="Self-play complete games between built-in bots.")
def play_command(
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            min=MIN_SEATS,
            max=MAX_SEATS,
            help="Seats, 2 to 4 (default 2, or as many as --bots).",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help=f"Comma-separated bots, P1 first: {', '.join(BOTS)}. "
            "One name plays every seat. Default: random.",
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 1,
    seed: SeedOption = None,
    deck: DeckOption = None,
    scoring: RuleOption = Rule.classic,
    points: PointsOption = None,
    output: OutputOption = "-",
    force: ForceOption = False,
) -> None:
    """Self-play: complete legal games between built-in bots, as a multi-record archive.

    Each record carries the deal, every play, the declared resolutions and the
    result, and its own seed (game k of seed S has seed S/k).
    """
    from rich.progress import Progress

    from ..making.selfplay import game_text, play_archive

    console = _console(stderr=True)
    names = [b.strip() for b in (bots or "random").split(",")]
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        raise typer.BadParameter(
            f"unknown bot {unknown[0]!r}; bots are {', '.join(BOTS)}", param_hint="--bots"
        )
    if len(names) == 1:
        names = names * (players or 2)
    if players is not None and len(names) != players:
        raise typer.BadParameter(f"{len(names)} bots for {players} seats", param_hint="--bots")
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        raise typer.BadParameter("2 to 4 bots, one per seat", param_hint="--bots")
    rule = _scoring(scoring, points)
    chosen = _deck(console, deck)
    seed = _seed(seed)
    texts = []
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("playing", total=games)
        for k, played in enumerate(play_archive(seed, games, names, chosen, rule), 1):
            texts.append(game_text(played, round=k))
            progress.advance(task)
    _emit(console, "\n".join(texts), output, force)


@app.command("stats", short_help="Statistics over archives: wins by seat, what decided states.")
def stats_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Archives: files, directories or - for standard input.",
            show_default=False,
            metavar="PATH",
        ),
    ],
    format: FormatOption = Format.text,
    by: Annotated[
        By | None,
        typer.Option("--by", help="player: standings of each player, by seats and scoring."),
    ] = None,
    ratings: Annotated[
        bool,
        typer.Option(
            "--ratings", help="With --by player: OpenSkill ratings, the games in date order."
        ),
    ] = False,
    jobs: JobsOption = 0,
) -> None:
    """Statistics over archives: wins by seat, scoring rules, tie-breaks, what
    decided each state, and when markers were placed; with --by player, each
    player's games, wins, states and points instead, and --ratings rates them
    (pip install 'ordonnance-notation[ratings]'). Only valid, finished records
    count; the rest are counted as skipped.
    """
    from functools import partial

    from rich.progress import Progress

    from ..checking.batch import Tally, Workers, input_blocks, unseen
    from ..views.stats import Stats, render_standings, render_text, stats_block

    console = _console(stderr=True)
    by_player = by is By.player or ratings
    if ratings:
        import importlib.util

        if importlib.util.find_spec("openskill") is None:
            console.print("--ratings needs OpenSkill: pip install 'ordonnance-notation[ratings]'")
            raise typer.Exit(EXIT_USAGE)
    tally = Tally()
    stats = Stats(by_player=by_player, rated=ratings)
    inputs = list(expand(paths))
    with (
        Progress(console=console, transient=True, disable=not console.is_terminal) as progress,
        Workers(_jobs(jobs, paths)) as workers,
    ):
        task = progress.add_task("reading", total=None)
        counted = partial(stats_block, by_player=by_player, rated=ratings)
        for part in _frozen_heap(workers.map(counted, input_blocks(inputs))):
            if isinstance(part, InputError):
                console.print(problem_text(part))
                tally.add(part)
                continue
            stats.merge(part)
            progress.advance(task, part.games + part.skipped)
    said = {problem.diagnostic.source for problem in tally.problems}
    for empty in unseen(inputs, stats.sources | said):  # read, but no record in it (E105)
        console.print(problem_text(empty))
        tally.add(empty)
    if stats.invalid:
        archives = [p for p in paths if Path(p).suffix.lower() in (".yaml", ".yml", ".json")]
        console.print(
            f"{plural(stats.invalid, 'record')} skipped as invalid: `ordo validate` says why"
            + (f"; stats reads .ord files: convert {archives[0]} first" if archives else "")
        )
    rated = None
    if ratings:
        from ..views.ratings import rate, render_ratings

        rated = rate(stats.played)
    if format is Format.json:
        found = stats.to_json()
        if by_player:
            found = {k: found[k] for k in ("games", "skipped", "invalid")}
            found["standings"] = stats.standings_json()
        if rated is not None:
            found["ratings"] = rated.to_json()
        typer.echo(json.dumps(found, indent=2, ensure_ascii=False))
    elif by_player:
        sys.stdout.write(visible(render_standings(stats)))
        if rated is not None:
            sys.stdout.write("\n" + visible(render_ratings(rated)))
    else:
        sys.stdout.write(render_text(stats))
    failed = bool(tally.problems) or stats.invalid > 0
    raise typer.Exit(exit_status(io_error=tally.unreadable, failed=failed))


class TableFormat(str, Enum):
    csv = "csv"
    parquet = "parquet"


@app.command("export", short_help="Write records, plays and states as CSV or Parquet tables.")
def export_command(
    paths: PathsArgument,
    output: Annotated[
        str,
        typer.Option(
            "--output", "-o", help="A directory (made if missing) for the three table files."
        ),
    ],
    format: Annotated[
        TableFormat,
        typer.Option("--format", "-f", help="csv, or parquet (needs the parquet extra)."),
    ] = TableFormat.csv,
    force: Annotated[bool, typer.Option("--force", help="Replace table files that exist.")] = False,
    jobs: JobsOption = 0,
) -> None:
    """Write three tables for analysis: records.csv (one row per record),
    plays.csv (one per ply replayed) and states.csv (one per state resolved),
    or .parquet files; docs/export.md gives every column. Invalid records are
    rows too (valid false), their plays and states as far as the replay went.
    Exit 1 when some record is invalid or some input holds none (the tables
    are written all the same), 2 when an input or the output cannot be used.
    """
    from rich.progress import Progress

    from ..checking.batch import Tally, Workers
    from ..views.tables import Export, MissingExtra

    console = _console(stderr=True)
    if not output.strip():
        raise typer.BadParameter("name a directory", param_hint="--output")
    tally = Tally()
    try:
        with (
            Progress(console=console, transient=True, disable=not console.is_terminal) as progress,
            Workers(_jobs(jobs, paths)) as workers,
        ):
            export = Export(paths, output, format.value, workers, force)
            task = progress.add_task("exporting", total=None)
            for item in _frozen_heap(iter(export)):
                if isinstance(item, InputError):
                    console.print(problem_text(item))
                    tally.add(item)
                else:
                    progress.advance(task, item)
    except MissingExtra as error:
        console.print(Text(f"ordo export: {error}"))
        raise typer.Exit(EXIT_USAGE) from None
    except OutputExists as error:
        exists = Diagnostic("E001", "already exists", str(error), help="pass --force to replace it")
        raise _fail(console, InputError(exists)) from None
    except OSError as error:
        raise _fail(console, _not_written(error.filename or output, error)) from None
    rows, invalid = export.totals.rows, export.totals.invalid
    said = (
        f"{plural(rows['records'], 'record')}, {plural(rows['plays'], 'play')} and "
        f"{plural(rows['states'], 'state')} written to {visible(output)}"
    )
    console.print(
        Text(said + (f"; {invalid} invalid: `ordo validate` says why" if invalid else ""))
    )
    failed = bool(tally.problems) or invalid > 0
    raise typer.Exit(exit_status(io_error=tally.unreadable, failed=failed))


@app.command("select", short_help="Records that match tags, players, the winner, dates or facts.")
def select_command(
    paths: PathsArgument,
    tag: Annotated[
        list[str],
        typer.Option(
            "--tag",
            "-t",
            help="NAME=PATTERN: the tag's value matches (e.g. Event='Lyon*'); NAME alone: "
            "the tag is there.",
        ),
    ] = [],  # noqa: B006 (Typer reads the default; it is never changed)
    player: Annotated[
        list[str], typer.Option("--player", "-p", help="A player (a pattern) in any seat.")
    ] = [],  # noqa: B006
    winner: Annotated[
        str | None, typer.Option("--winner", help="Who won the game: a seat (P2) or a player.")
    ] = None,
    seats: Annotated[
        list[int], typer.Option("--seats", min=MIN_SEATS, max=MAX_SEATS, help="Seats at the table.")
    ] = [],  # noqa: B006
    scoring: Annotated[
        Rule | None, typer.Option("--scoring", help="The scoring rule: classic or points.")
    ] = None,
    valid: Annotated[
        bool | None,
        typer.Option("--valid/--invalid", help="Only valid records, or only invalid ones."),
    ] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Played on or after this day (2026.11.27).")
    ] = None,
    until: Annotated[
        str | None, typer.Option("--until", help="Played on or before this day.")
    ] = None,
    won: Annotated[
        list[str],
        typer.Option(
            "--won", help="[WHO:]STATE: the state was won (by WHO: a seat or a player), e.g. P2:J."
        ),
    ] = [],  # noqa: B006
    invert: Annotated[
        bool, typer.Option("--invert", "-v", help="The records that do not match instead.")
    ] = False,
    count: Annotated[
        bool, typer.Option("--count", "-c", help="Print how many records match, not them.")
    ] = False,
    output: OutputOption = "-",
    force: ForceOption = False,
    jobs: JobsOption = 0,
) -> None:
    """Print the records that pass every test given, as they are written
    (comments and spacing kept), in input order. Names and tag values match as
    shell patterns (*, ?, [...]) whatever their case. --valid, --winner, --won
    and --scoring replay each record; the others read its header alone.
    Exit 0 whether or not a record matches, 1 when an input holds no record or
    a byte that is not UTF-8, 2 when one cannot be read.
    """
    from ..checking.batch import Workers
    from ..querying.select import Query, QueryError, Selection

    console = _console(stderr=True)
    try:
        query = Query.of(
            tags=tag,
            players=player,
            winner=winner,
            seats=seats,
            scoring=scoring.value if scoring else None,
            valid=valid,
            since=since,
            until=until,
            won=won,
            invert=invert,
        )
    except QueryError as error:
        raise typer.BadParameter(str(error)) from None
    problems: list[InputError] = []
    with Workers(_jobs(jobs, paths)) as workers:
        texts = _said(console, _frozen_heap(iter(Selection(paths, query, workers))), problems)
        if count:
            typer.echo(sum(1 for _ in texts))
        else:
            _emit(console, _parted(texts), output, force)
    unreadable = any(isinstance(p, UnreadableSource) for p in problems)
    raise typer.Exit(exit_status(io_error=unreadable, failed=bool(problems)))


@app.command("dedup", short_help="Each game once: copies of the same game left out.")
def dedup_command(
    paths: PathsArgument,
    output: OutputOption = "-",
    force: ForceOption = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Only the total, no line for each copy.")
    ] = False,
    jobs: JobsOption = 0,
) -> None:
    """Print every record but copies of a game already printed, as written, in
    input order. Two records are the same game when their deal and plays are
    the same, whatever their tags, comments, glyphs and spacing; of the copies
    the most annotated is kept (comments and glyphs, then tags, then the
    first). Each copy left out is named on standard error, with the tags in
    which the copies differ. A record that cannot be read is kept.
    """
    from ..checking.batch import Workers
    from ..querying.dedup import Dedup

    console = _console(stderr=True)
    problems: list[InputError] = []
    with Workers(_jobs(jobs, paths)) as workers:
        dedup = Dedup(paths, workers)
        try:
            _emit(
                console, _parted(_said(console, _frozen_heap(iter(dedup)), problems)), output, force
            )
        except InputError as problem:  # an input changed between the two readings
            raise _stopped(console, problem) from None
    if not quiet:
        for group in dedup.groups:
            for line in group.lines():
                console.print(visible(line))
    left = dedup.records - dedup.games
    differing = sum(1 for g in dedup.groups if g.differences())
    console.print(
        f"{plural(dedup.records, 'record')}, {plural(dedup.games, 'game')}: "
        f"{plural(left, 'copy' if left == 1 else 'copie')} left out"
        + (f" ({differing} of the games with tags that differ)" if differing else "")
    )
    unreadable = any(isinstance(p, UnreadableSource) for p in problems)
    raise typer.Exit(exit_status(io_error=unreadable, failed=bool(problems)))


@app.command("fmt", short_help="Print or rewrite records in the one canonical form.")
def fmt_command(
    paths: PathsArgument,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Change nothing; list the files that are not canonical and exit 1 if any.",
        ),
    ] = False,
    write: Annotated[
        bool,
        typer.Option(
            "--write", "-w", help="Rewrite files in place (atomically) when they are not canonical."
        ),
    ] = False,
    jobs: JobsOption = 0,
) -> None:
    """Print records in the one canonical form (tag order, spacing, card letters
    in L B S H F order, state letters). A file with a syntax error is reported
    and never rewritten.
    """
    from ..archives.conversion import RecordErrors, format_paths
    from ..checking.batch import Tally, Workers

    console = _console(stderr=True)
    if check and write:
        raise typer.BadParameter("--check and --write exclude each other", param_hint="--write")
    if write and STDIN in paths:
        raise typer.BadParameter(
            "standard input cannot be rewritten; drop --write", param_hint="--write"
        )
    io_error = failed = False
    changed = 0
    problems = Tally()
    with Workers(_jobs(jobs, paths)) as workers:
        for item in _frozen_heap(format_paths(paths, workers)):
            if isinstance(item, InputError):
                console.print(problem_text(item))
                problems.add(item)
                continue
            try:
                if not (check or write):
                    sys.stdout.writelines(item.pieces())
                    continue
                read = snapshot(item.name) if write and item.held is None else None
                if not item.differs():
                    continue
                if check:
                    typer.echo(f"would reformat {visible(item.name)}")
                    changed += 1
                    continue
                write_atomic(item.name, item.pieces(), overwrite=True, read=read)
            except RecordErrors as error:
                for diagnostic in error.diagnostics:
                    where = (diagnostic.source, diagnostic.record or 0)
                    first, text = error.texts.get(where, (1, ""))
                    console.print(diagnostic_text(diagnostic, text.split("\n"), first))
                console.print(f"{item.name}: not formatted: fix the errors above first")
                failed = True
                continue
            except InputError as problem:
                console.print(problem_text(problem))
                problems.add(problem)
                continue
            except OSError as error:
                if not (check or write):
                    raise  # standard output: said once, for every command (run)
                console.print(problem_text(_not_written(item.name, error)))
                io_error = True
                continue
            typer.echo(f"reformatted {visible(item.name)}")
            changed += 1
    if check or write:
        done = "would be reformatted" if check else "reformatted"
        console.print(f"{plural(changed, 'file')} {done}")
    raise typer.Exit(
        exit_status(
            io_error=io_error or problems.unreadable,
            failed=failed or bool(problems.problems) or (check and changed > 0),
        )
    )


def _not_written(path: str, error: OSError) -> InputError:
    if isinstance(error, ChangedSince):
        return InputError(
            Diagnostic(
                "E001",
                "was changed by something else while ordo read it: not rewritten",
                path,
                help="the other change is kept; run the command again to rewrite the file",
            )
        )
    return InputError(
        Diagnostic(
            "E001",
            f"cannot be written: {error.strerror}",
            path,
            help="check the folder exists and you may write in it",
        )
    )


class Kind(str, Enum):
    ord = "ord"
    yaml = "yaml"
    json = "json"


@app.command("convert", short_help="Convert between .ord text and YAML or JSON archives.")
def convert_command(
    sources: Annotated[
        list[str],
        typer.Argument(
            help=".ord, .yaml/.yml or .json files, directories (every *.ord below) or - "
            "for standard input.",
            show_default=False,
            metavar="INPUT",
        ),
    ],
    output: OutputOption = "-",
    from_: Annotated[
        Kind | None,
        typer.Option("--from", help="The inputs' format (default: from each extension, else ord)."),
    ] = None,
    to: Annotated[
        Kind | None,
        typer.Option(
            "--to",
            help="The output's format (default: from --output's extension; "
            "yaml for .ord input, ord for archives).",
        ),
    ] = None,
    with_results: Annotated[
        bool,
        typer.Option(
            "--with-results",
            help="Add what the engine recomputes (validity, winner, scores, markers, diagnostics) "
            "to each archived record.",
        ),
    ] = False,
    force: ForceOption = False,
    jobs: JobsOption = 0,
) -> None:
    """Convert between .ord text and YAML or JSON archives, losing nothing:
    every tag (unknown ones too), the deal, plays with comments and glyphs,
    declared resolutions and the result. The records of every input, in
    order, become one archive document (or one .ord text). Exit 1 for input
    that cannot be read as its format.
    """
    from ..archives.conversion import kinds
    from ..checking.batch import Workers

    console = _console(stderr=True)
    inputs = _expanded(console, sources)
    source_kinds, target_kind = kinds(
        [p if p != STDIN else None for p in inputs],
        output if output != "-" else None,
        from_.value if from_ else None,
        to.value if to else None,
    )
    if output != "-" and any(
        p != STDIN and Path(output).resolve() == Path(p).resolve() for p in inputs
    ):
        raise typer.BadParameter(
            "the output is an input; use ordo fmt --write to rewrite a file", param_hint="--output"
        )
    with Workers(_jobs(jobs, inputs)) as workers:
        _convert(
            console,
            list(zip(inputs, source_kinds, strict=True)),
            output,
            target_kind,
            with_results,
            force,
            workers,
        )


def _convert(
    console: Console,
    sources: list[tuple[str, str]],
    output: str,
    target_kind: str,
    with_results: bool,
    force: bool,
    workers: Workers,
) -> None:
    """``ordo convert``, a record at a time, in flat memory (an archive laid
    out otherwise than ``ordo`` writes them is read whole), .ord text on
    ``workers``. A file is written whole or not at all; standard output gets
    the records up to the first that cannot be converted, then the errors and
    exit 1."""
    from ..archives.conversion import Input, RecordErrors, converted

    held: dict[str, Source] = {}
    for path, _kind in sources:
        if path == STDIN or not Path(path).is_file():  # read once: held
            held[path] = _read_or_exit(console, path)

    def lines_of(path: str) -> Callable[[], Iterator[str]]:
        def lines() -> Iterator[str]:
            if path in held:
                return iter(held[path].text.split("\n"))
            # an archive laid out otherwise (minified JSON) may be one long line, read whole
            return open_source(path, longest=MAX_HELD).lines()

        return lines

    def inputs() -> Iterator[Input]:  # each opened when its turn comes
        for path, kind in sources:
            if kind == "ord":
                yield Input(source_name(path), kind, held.get(path) or open_source(path))
            else:
                yield Input(source_name(path), kind, lines=lines_of(path))

    named = {source_name(path): path for path, _kind in sources}
    try:
        pieces = converted(inputs(), target_kind, workers, with_results)
        _emit(console, _frozen_heap(pieces), output, force)
    except RecordErrors as error:
        for diagnostic in error.diagnostics:
            first, text = error.texts.get((diagnostic.source, diagnostic.record or 0), (1, ""))
            console.print(diagnostic_text(diagnostic, text.split("\n"), first))
    except ConversionError as error:
        for diagnostic in error.diagnostics:
            console.print(diagnostic_text(diagnostic, None))
    except UnreadableSource as problem:
        raise _fail(console, problem) from None
    except ArchiveError as problem:  # placed in the file: its line is shown
        span = problem.diagnostic.span
        archive_path = named.get(problem.diagnostic.source)
        shown = None
        if span is not None and archive_path is not None:
            shown = next(islice(lines_of(archive_path)(), span.line - 1, None), None)
        console.print(
            diagnostic_text(
                problem.diagnostic, None if shown is None else [shown], span.line if span else 1
            )
        )
    except InputError as problem:  # a byte that is not UTF-8, met on the way
        console.print(problem_text(problem))
    else:
        return
    what = visible(", ".join(named)) if len(named) < 4 else f"{len(named)} inputs"
    console.print(f"{what}: not converted")
    raise typer.Exit(exit_status(failed=True))


def _expanded(console: Console, paths: Iterable[str]) -> list[str]:
    """``paths`` with directories replaced by the files below them; exits
    (2) at the first that cannot be used, saying why."""
    inputs = []
    for path in expand(paths):
        if isinstance(path, InputError):
            raise _fail(console, path)
        inputs.append(path)
    return inputs


def _read_or_exit(console: Console, path: str) -> Source:
    """The text of ``path``; when there is none, prints why and exits (2 unreadable,
    1 not UTF-8)."""
    try:
        return read_source(path)
    except InputError as problem:
        console.print(problem_text(problem))
        unreadable = isinstance(problem, UnreadableSource)
        raise typer.Exit(exit_status(io_error=unreadable, failed=True)) from None


def _chosen(console: Console, path: str, record: int | None) -> Iterator[Record | Unparsed]:
    """The records of ``path`` a command is about, read a record at a time:
    all of them, or the one ``--record`` names. Exits 1 when the file holds
    none (E105) or a byte is not UTF-8, 2 when ``--record`` is past the last."""
    try:
        source = open_source(path)
    except InputError as problem:
        raise _fail(console, problem) from None
    count = 0
    try:
        for item in parse_lines(source.lines(), source.name, MAX_RECORD):
            count += 1
            if record is None or count == record:
                yield item
                if record is not None:
                    return
    except InputError as problem:  # a byte that is not UTF-8, met on the way
        raise _stopped(console, problem) from None
    if not count:
        raise _stopped(console, InputError(no_record(source.name)))
    if record is not None:
        raise typer.BadParameter(f"{source.name} holds {count} record(s)", param_hint="--record")


RecordOption = Annotated[
    int | None,
    typer.Option("--record", "-r", min=1, help="Which record of a multi-record file (from 1)."),
]


class PictureFormat(str, Enum):
    text = "text"
    svg = "svg"


@app.command("replay", short_help="Show the table at a step, step through a game, or draw it.")
def replay_command(
    paths: PathsArgument,
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="Step through the game: keys on a terminal, every step in order otherwise.",
        ),
    ] = False,
    ply: Annotated[
        int | None,
        typer.Option(
            "--ply", min=0, help="Open at this step (0: before the first play; default: the last)."
        ),
    ] = None,
    record: RecordOption = None,
    seat: Annotated[
        str | None,
        typer.Option("--seat", help="Show the game as this seat saw it, e.g. P2: own hand only."),
    ] = None,
    format: Annotated[
        PictureFormat,
        typer.Option("--format", "-f", help="text: the table in the terminal; svg: a picture."),
    ] = PictureFormat.text,
    output: Annotated[
        str, typer.Option("--output", "-o", help="Where to write (- for standard output).")
    ] = "-",
    force: ForceOption = False,
) -> None:
    """Show the table at a step: every state's armies, formations and who wins
    there, the hands and the pile, the last play and its comments; or draw it
    as an SVG picture (--format svg -o step.svg).
    """
    from ..views.board import render_compact, render_step
    from ..views.replay import replay
    from ..views.stepper import Stepper, run, terminal_keys

    console = _console()
    err = _console(stderr=True)
    if record is not None and len(paths) != 1:
        raise typer.BadParameter("--record picks a record of one file", param_hint="--record")
    inputs = _expanded(err, paths)
    items = chain.from_iterable(_chosen(err, path, record) for path in inputs)
    first = next(items)
    second = next(items, None)
    if second is not None:  # one game is shown: which?
        count = 0
        for item in chain((first, second), items):
            report = validate(item)
            where = f"{visible(report.source)} record " if len(inputs) > 1 else ""
            err.print(f"  {where}{report.index}:{report.players} {report.verdict}")
            count += 1
        held = f"{visible(first.source)} holds" if len(inputs) == 1 else "the inputs hold"
        pick = "" if len(inputs) == 1 else "name one file and "
        err.print(f"{held} {count} records; {pick}pick one with --record K")
        raise typer.Exit(EXIT_USAGE)
    report = validate(first, steps=True)
    steps = replay(report)
    if steps is None:
        for diagnostic in report.diagnostics:
            err.print(diagnostic_text(diagnostic, None))
        err.print(
            f"{report.source} record {report.index}: "
            "nothing to replay: the header or the deal has errors"
        )
        raise typer.Exit(EXIT_INVALID)
    viewer = None
    if seat is not None:
        viewer = next((s for s in range(steps.steps[0].game.seats) if seat_name(s) == seat), None)
        if viewer is None:
            raise typer.BadParameter(f"{seat} is not a seat of this record", param_hint="--seat")
    if ply is not None and ply > steps.last:
        raise typer.BadParameter(f"the record has steps 0 to {steps.last}", param_hint="--ply")
    start = steps.last if ply is None else ply
    if format is PictureFormat.svg:
        if step:
            raise typer.BadParameter(
                "a picture is of one step: leave out --step", param_hint="--format"
            )
        from ..views.picture import step_picture

        title = f"{report.source} record {report.index}{report.players}, step {start}"
        _emit(err, step_picture(steps, steps.steps[start], viewer).svg(title), output, force)
        return

    def draw(position: int) -> Text:
        return render_step(steps, steps.steps[position], viewer)

    def fitted(position: int, width: int, height: int) -> list[Text]:
        return render_compact(steps, steps.steps[position], viewer, width, height)

    first_step = 0 if ply is None else start
    on_terminal = step and sys.stdin.isatty() and console.is_terminal
    keys = terminal_keys() if on_terminal else None
    if keys is not None:
        run(Stepper(steps.last, first_step), keys, fitted, console)
    elif step:
        if on_terminal:
            err.print("--step: single keys cannot be read here (no termios); every step follows")
        for position in range(first_step, steps.last + 1):
            if position != first_step:
                console.print("─" * 60)
            console.print(draw(position))
    else:
        console.print(draw(start))


class SummaryFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    json = "json"


@app.command("fix", short_help="Rewrite ply numbers, markers and results the replay determines.")
def fix_command(
    paths: PathsArgument,
    write: Annotated[
        bool,
        typer.Option("--write", "-w", help="Rewrite the files in place (atomically)."),
    ] = False,
) -> None:
    """Rewrite what the replay determines: ply numbers out of sequence (when no
    play can be missing), declared markers, the Result tag and the result line.
    Never a play or a comment. Prints a diff; --write rewrites the files. A
    record with another error, or whose replay stops early, is left as it is,
    with the reason.
    """
    from ..checking.batch import Tally
    from ..checking.fixing import fix_paths

    console = _console(stderr=True)
    if write and STDIN in paths:
        raise typer.BadParameter(
            "standard input cannot be rewritten; drop --write", param_hint="--write"
        )
    io_error = failed = False
    changes = files = 0
    problems = Tally()
    for item in fix_paths(paths):
        if isinstance(item, InputError):
            console.print(problem_text(item))
            problems.add(item)
            continue
        name = item.source.name
        lines = item.source.text.split("\n")
        for refusal in item.refused:
            if refusal.diagnostic is not None:
                console.print(diagnostic_text(refusal.diagnostic, lines))
            where = f"record {refusal.record}" if refusal.record else "the file"
            console.print(f"{name}: {where} not fixed: {refusal.why}")
            failed = True
        if not item.changed:
            continue
        changes += len(item.changes)
        files += 1
        if not write:
            sys.stdout.write(item.diff())
            continue
        try:
            write_atomic(
                name, item.source.as_written(item.text), overwrite=True, read=item.source.stat
            )
        except OSError as error:
            console.print(problem_text(_not_written(name, error)))
            io_error = True
            continue
        typer.echo(f"fixed {name} ({plural(len(item.changes), 'change')})")
    done = "made" if write else "to make (--write makes them)"
    console.print(f"{plural(changes, 'change')} in {plural(files, 'file')} {done}")
    raise typer.Exit(
        exit_status(
            io_error=io_error or problems.unreadable,
            failed=failed or bool(problems.problems) or (not write and changes > 0),
        )
    )


@app.command("explain", short_help="What a diagnostic code means, with an example and a fix.")
def explain_command(
    code: Annotated[
        str | None,
        typer.Argument(help="A diagnostic code, e.g. E303; none lists them all.", metavar="CODE"),
    ] = None,
) -> None:
    """What a diagnostic code means, an example of it and how to fix the record:
    its page of docs/diagnostics.md. Without a code, the list of codes.
    """
    from ..views.explain import UnknownCode, catalogue, explanation

    if code is None:
        sys.stdout.write(catalogue())
        return
    try:
        page = explanation(code)
    except UnknownCode as error:
        raise typer.BadParameter(str(error), param_hint="CODE") from None
    console = _console()
    if console.is_terminal:
        from rich.markdown import Markdown

        console.print(Markdown(page))
    else:
        sys.stdout.write(page)


@app.command("summary", short_help="Who won each state of a record, and why.")
def summary_command(
    paths: PathsArgument,
    record: RecordOption = None,
    format: Annotated[
        SummaryFormat,
        typer.Option("--format", "-f", help="text, markdown (for publishing) or json."),
    ] = SummaryFormat.text,
    decided: Annotated[
        bool,
        typer.Option(
            "--decided/--no-decided",
            help="Say when each state and the game were decided (ordo analyse); "
            "--no-decided is many times faster on big archives.",
        ),
    ] = True,
    jobs: JobsOption = 0,
) -> None:
    """The annotated summary of each record (or of --record K of one file):
    players, rules, the result and why, each state in marker order with its
    armies and the comparison that decided it, when each state and the game
    were decided and who gave them away, points per state, and the record's
    comments and glyphs. Exit 1 when a record is invalid, as validate.
    """
    from ..checking.batch import Workers
    from ..views.report import json_document
    from ..views.summary import render_markdown as summary_markdown
    from ..views.summary import render_text as summary_text
    from ..views.summary import summaries, summarize

    err = _console(stderr=True)
    if record is not None:  # read up to that record only
        if len(paths) != 1:
            raise typer.BadParameter("--record picks a record of one file", param_hint="--record")
        data = [summarize(validate(item), decided) for item in _chosen(err, paths[0], record)]
        if format is SummaryFormat.json:
            sys.stdout.writelines(json_records(data))
        else:
            render = summary_markdown if format is SummaryFormat.markdown else summary_text
            sys.stdout.writelines(visible(render(entry)) for entry in data)
        raise typer.Exit(exit_status(failed=not all(entry["valid"] for entry in data)))
    problems: list[InputError] = []
    with Workers(_jobs(jobs, paths)) as workers:
        laid = summaries(paths, format.value, workers, decided)
        entries = _said(err, _frozen_heap(iter(laid)), problems)
        pieces = json_document(entries) if format is SummaryFormat.json else _parted(entries)
        for piece in pieces:
            sys.stdout.write(piece)
    unreadable = any(isinstance(p, UnreadableSource) for p in problems)
    raise typer.Exit(exit_status(io_error=unreadable, failed=laid.invalid > 0 or bool(problems)))


class AnalysisFormat(str, Enum):
    text = "text"
    json = "json"


@app.command(
    "analyse", short_help="When each state and the game were decided, and who gave them away."
)
def analyse_command(
    paths: PathsArgument,
    format: Annotated[
        AnalysisFormat, typer.Option("--format", "-f", help="text for people, json for programs.")
    ] = AnalysisFormat.text,
    jobs: JobsOption = 0,
) -> None:
    """For each record: the ply after which each state's winner was certain,
    whatever anyone played next (from the cards each seat would receive,
    when the record has its deal; against any cards, when not), the same
    for the game, and the plays after which a seat could no longer win what
    it could win before, with the plays from its hand that would have kept
    the chance. Exit 1 when a record is invalid, as validate (its plays are
    analysed as far as the rules replayed them).
    """
    from rich.progress import Progress

    from ..checking.batch import Workers
    from ..views.analysis import analyses
    from ..views.report import json_document

    err = _console(stderr=True)
    problems: list[InputError] = []
    with (
        Progress(console=err, transient=True, disable=not err.is_terminal) as progress,
        Workers(_jobs(jobs, paths)) as workers,
    ):
        task = progress.add_task("analysing", total=None)
        laid = analyses(paths, format.value, workers)
        entries = _said(err, _frozen_heap(iter(laid)), problems)
        pieces = json_document(entries) if format is AnalysisFormat.json else _parted(entries)
        for piece in pieces:
            sys.stdout.write(piece)
            progress.advance(task)
    unreadable = any(isinstance(p, UnreadableSource) for p in problems)
    raise typer.Exit(exit_status(io_error=unreadable, failed=laid.invalid > 0 or bool(problems)))


app.command("analyze", hidden=True)(analyse_command)  # as American English spells it


@app.command("view", short_help="Write one HTML page that replays records in a browser.")
def view_command(
    paths: PathsArgument,
    output: OutputOption = "-",
    seat: Annotated[
        str | None,
        typer.Option(
            "--seat",
            help="Write the page as this seat saw each game, e.g. P2: "
            "no card of another hand is in it at all.",
        ),
    ] = None,
    title: Annotated[
        str | None, typer.Option("--title", help="The page's title (default: the inputs).")
    ] = None,
    force: ForceOption = False,
    jobs: JobsOption = 0,
) -> None:
    """Write one HTML page that replays the records in a browser, with no
    network at all: the list of records with a filter, the table at each step
    (keys, buttons, a slider, links such as games.html#r2/p31), the plays with
    their comments, the summary, and an invalid record's problems with its
    replay up to where it stops. Exit 1 when some record is invalid, as
    validate.
    """
    from ..checking.batch import Workers
    from ..views.page import Pages

    console = _console(stderr=True)
    viewer = None
    if seat is not None:
        viewer = seat_number(seat)
        if viewer is None or viewer >= MAX_SEATS:
            raise typer.BadParameter(f"{seat} is no seat: P1 to P4", param_hint="--seat")
    named = title if title is not None else ", ".join(source_name(p) for p in paths)
    with Workers(_jobs(jobs, paths)) as workers:
        pages = Pages(paths, workers, viewer, named)
        _emit(console, _frozen_heap(iter(pages)), output, force)
    for problem in pages.problems:
        console.print(problem_text(problem))
    if output != "-":
        console.print(
            f"{plural(pages.records, 'record')} ({pages.invalid} invalid) written to {output}"
        )
    unreadable = any(isinstance(p, UnreadableSource) for p in pages.problems)
    raise typer.Exit(
        exit_status(io_error=unreadable, failed=pages.invalid > 0 or bool(pages.problems))
    )
