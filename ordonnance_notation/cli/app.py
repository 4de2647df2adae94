"""The ``ordo`` command. Each command reads its input, calls the library, prints, exits.

Exit codes: 0 every record valid; 1 some record invalid; 2 usage or I/O error.
"""

from __future__ import annotations

import gc
import json
import os
import re
import secrets
import sys
import textwrap
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.console import Console
from rich.text import Text

from ..checking.content import points_table
from ..checking.validator import Report, validate
from ..diagnostics import Diagnostic
from ..engine.cards import seat_name
from ..engine.game import MAX_SEATS, MIN_SEATS
from ..engine.scoring import DEFAULT_POINTS, Scoring
from ..files.output import OutputExists, write_atomic
from ..files.sources import STDIN, Source, expand, open_source, read_source
from ..making.bots import BOTS
from ..notation.parser import parse_text
from ..views.report import diagnostic_text, players, verdict

if TYPE_CHECKING:
    from ..checking.batch import Block
    from ..making.dealing import Deck

# Command-specific modules are imported inside their commands: `ordo validate`
# on a small file should not pay for YAML, multiprocessing or the bots.

app = typer.Typer(
    name="ordo",
    help="Record, validate and replay games of Ordonnance (The Kingdoms of Crusaders).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain usage errors and help: one line, greppable, no boxes
)

EXIT_VALID, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class Format(str, Enum):
    text = "text"
    json = "json"


def _console(stderr: bool = False) -> Console:
    """Styles only on a terminal (Rich decides); a non-empty NO_COLOR turns off every style."""
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(
        stderr=stderr, highlight=False, soft_wrap=True, color_system=None if plain else "auto"
    )


T = TypeVar("T")
_CONTROL = re.compile(
    r"[\x00-\x09\x0b-\x1f\x7f-\x9f]"
)  # what Rich would render otherwise than as written


def _printer(console: Console) -> Callable[..., None]:
    """``emit(head, tail="", style="")`` prints ``head`` (a Text or a string)
    followed by ``tail`` in ``style``. Output without styles is written plainly:
    Rich's rendering costs about 0.1 ms a line, which is a tenth of validating
    a record."""
    write = sys.stdout.write
    plain = console.color_system is None

    def emit(head: Text | str, tail: str = "", style: str = "") -> None:
        line = (head.plain if isinstance(head, Text) else head) + tail
        if plain and not _CONTROL.search(line):
            write(line + "\n")
            return
        text = head.copy() if isinstance(head, Text) else Text(head)
        text.append(tail, style=style)
        console.print(text)

    return emit


def _frozen_heap(items: Iterator[T]) -> Iterator[T]:
    """``items``, while what was alive before lives on frozen: the collector
    does not scan it again at every full collection, which makes a long
    archive a third faster. Unfrozen at the end, for callers that go on."""
    gc.freeze()
    try:
        yield from items
    finally:
        gc.unfreeze()


@app.callback()
def main() -> None:
    """Record, validate and replay games of Ordonnance (The Kingdoms of Crusaders)."""


@app.command("validate")
def validate_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Files, directories (every *.ord below) or - for standard input.",
            show_default=False,
            metavar="PATH",
        ),
    ],
    format: Annotated[
        Format, typer.Option("--format", "-f", help="text for people, json for programs.")
    ] = Format.text,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            help="Processes to validate on; 0: every core for inputs of 1 MB or more, else one.",
        ),
    ] = 0,
) -> None:
    """Check records: syntax, content, every draw and play, declared markers and result.

    Prints each problem with its place, one line per record, and a total.
    Records are read, checked and reported one at a time, in input order.
    Exit 0 when every record is valid, 1 when any is invalid, 2 for a usage
    or I/O error (a missing or unreadable file).
    """
    from ..checking.batch import blocks, default_jobs, problem_block
    from ..checking.batch import run as run_all

    console = _console()
    emit = _printer(console)
    as_json = format is Format.json
    problems: list[Diagnostic] = []
    counts = {"files": 0, "records": 0, "invalid": 0, "errors": 0, "warnings": 0}
    files = list(expand(paths))
    readable = [f for f in files if isinstance(f, str)]
    workers = jobs or default_jobs([f for f in readable if f != STDIN])
    if as_json:  # the same text as json.dumps(document, indent=2), written as records come
        sys.stdout.write('{\n  "records": [')

    def work() -> Iterator[Block]:
        # runs on the pool's feeding thread with --jobs > 1: it only yields,
        # and every problem travels as a block so that it is printed in its place
        for file, path in enumerate(files):
            source = path if isinstance(path, Diagnostic) else open_source(path)
            if isinstance(source, Diagnostic):
                yield problem_block(file, source, as_json)
                continue
            counts["files"] += 1
            yield from blocks(source, file, as_json)

    seen_files: dict[str, int] = {}
    for checked in _frozen_heap(run_all(work(), workers)):
        if checked is None:
            continue
        task = checked.task
        if task.problem is not None:
            problems.append(task.problem)
            if not as_json:
                shown = [task.shown] if task.shown is not None else None
                console.print(
                    diagnostic_text(
                        task.problem, shown, task.problem.span.line if task.problem.span else 1
                    )
                )
            continue
        seen_files[task.source] = seen_files.get(task.source, 0) + 1
        counts["records"] += 1
        counts["invalid"] += not checked.valid
        counts["errors"] += checked.errors
        counts["warnings"] += checked.warnings
        if as_json:
            entry = textwrap.indent(json.dumps(checked.json, indent=2, ensure_ascii=False), "    ")
            sys.stdout.write(("," if counts["records"] > 1 else "") + "\n" + entry)
            continue
        lines = task.text.split("\n")
        for diagnostic in checked.diagnostics:
            emit(diagnostic_text(diagnostic, lines, task.first_line))
        emit(
            f"{task.source} record {task.index}{checked.players}: ",
            checked.verdict,
            "green" if checked.valid else "bold red",
        )
    for path in readable:
        name = "<stdin>" if path == STDIN else path
        if name not in seen_files and not any(p.source == name for p in problems):
            empty = Diagnostic("E105", "no record in this file", name)
            problems.append(empty)
            if not as_json:
                console.print(diagnostic_text(empty, None))
    invalid, records = counts["invalid"], counts["records"]
    errors = counts["errors"] + len(problems)
    warnings = counts["warnings"]
    files_read = counts["files"]
    if as_json:
        summary = {
            "files": files_read,
            "records": records,
            "valid": records - invalid,
            "invalid": invalid,
            "errors": errors,
            "warnings": warnings,
        }
        tail = json.dumps(
            {"problems": [p.to_json() for p in problems], "summary": summary},
            indent=2,
            ensure_ascii=False,
        )
        sys.stdout.write(("\n  ],\n" if records else "],\n") + tail[2:] + "\n")
    else:
        console.print(
            f"{records} record{'s' if records != 1 else ''} in {files_read} file{'s' if files_read != 1 else ''}: "
            f"{records - invalid} valid, {invalid} invalid; "
            f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
        )
    if any(p.code == "E001" for p in problems):
        raise typer.Exit(EXIT_USAGE)
    if invalid or problems:
        raise typer.Exit(EXIT_INVALID)
    raise typer.Exit(EXIT_VALID)


class Rule(str, Enum):
    classic = "classic"
    points = "points"


def _fail(console: Console, diagnostic: Diagnostic) -> typer.Exit:
    console.print(diagnostic_text(diagnostic, None))
    return typer.Exit(EXIT_USAGE)


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
    from ..making.dealing import DeckError, load_deck

    try:
        return load_deck(path)
    except DeckError as error:
        raise _fail(console, error.diagnostic) from None


def _emit(console: Console, text: str, output: str, force: bool) -> None:
    if output == "-":
        sys.stdout.write(text)
        return
    try:
        write_atomic(output, text, overwrite=force)
    except OutputExists:
        raise _fail(
            console, Diagnostic("E001", "already exists; pass --force to replace it", output)
        ) from None
    except OSError as error:
        raise _fail(
            console, Diagnostic("E001", f"cannot be written: {error.strerror}", output)
        ) from None


def _seed(seed: str | None) -> str:
    if seed is None:
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


@app.command("deal")
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


@app.command("play")
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
            help=f"Comma-separated bots, P1 first: {', '.join(BOTS)}. One name plays every seat. Default: random.",
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


@app.command("stats")
def stats_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Archives: files, directories or - for standard input.",
            show_default=False,
            metavar="PATH",
        ),
    ],
    format: Annotated[
        Format, typer.Option("--format", "-f", help="text for people, json for programs.")
    ] = Format.text,
) -> None:
    """Statistics over archives: wins by seat, scoring rules, tie-breaks, what
    decided each state, and when markers were placed. Only valid, finished
    records count; the rest are counted as skipped.
    """
    from rich.progress import Progress

    from ..views.stats import Stats, render_text

    console = _console(stderr=True)
    stats = Stats()
    problems: list[Diagnostic] = []
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("reading", total=None)
        for report in _reports(console, paths):
            if isinstance(report, Diagnostic):
                problems.append(report)
                continue
            stats.add(report)
            progress.advance(task)
    if format is Format.json:
        typer.echo(json.dumps(stats.to_json(), indent=2))
    else:
        sys.stdout.write(render_text(stats))
    if any(p.code == "E001" for p in problems):
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_INVALID if problems else EXIT_VALID)


def _reports(console: Console, paths: list[str]) -> Iterator[Report | Diagnostic]:
    """A report per record of every path; the problem (after printing it) for a
    path that cannot be read or decoded."""
    for path in expand(paths):
        if isinstance(path, Diagnostic):
            console.print(diagnostic_text(path, None))
            yield path
            continue
        source = read_source(path)
        if source.text is None:
            assert source.problem is not None
            console.print(diagnostic_text(source.problem, None))
            yield source.problem
            continue
        for item in parse_text(source.text, source.name):
            yield validate(item)


@app.command("fmt")
def fmt_command(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Files, directories (every *.ord below) or - for standard input.",
            show_default=False,
            metavar="PATH",
        ),
    ],
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
) -> None:
    """Print records in the one canonical form (tag order, spacing, card letters
    in L B S H F order, state letters). A file with a syntax error is reported
    and never rewritten.
    """
    from ..archives.conversion import ConversionError, canonical

    console = _console(stderr=True)
    if check and write:
        raise typer.BadParameter("--check and --write exclude each other", param_hint="--write")
    if write and STDIN in paths:
        raise typer.BadParameter(
            "standard input cannot be rewritten; drop --write", param_hint="--write"
        )
    failed = usage = changed = 0
    for path in expand(paths):
        if isinstance(path, Diagnostic):
            console.print(diagnostic_text(path, None))
            usage += 1
            continue
        source = read_source(path)
        if source.text is None:
            assert source.problem is not None
            console.print(diagnostic_text(source.problem, None))
            usage += source.problem.code == "E001"
            failed += source.problem.code != "E001"
            continue
        try:
            result = canonical(source.text, source.name)
        except ConversionError as error:
            lines = source.text.split("\n")
            for diagnostic in error.diagnostics:
                console.print(diagnostic_text(diagnostic, lines))
            console.print(f"{source.name}: not formatted: fix the errors above first")
            failed += 1
            continue
        if check:
            if result != source.text:
                typer.echo(f"would reformat {source.name}")
                changed += 1
        elif write:
            if result != source.text:
                try:
                    write_atomic(path, result, overwrite=True)
                except OSError as error:
                    console.print(
                        diagnostic_text(
                            Diagnostic("E001", f"cannot be written: {error.strerror}", path), None
                        )
                    )
                    usage += 1
                    continue
                typer.echo(f"reformatted {source.name}")
                changed += 1
        else:
            sys.stdout.write(result)
    if check or write:
        console.print(
            f"{changed} file{'s' if changed != 1 else ''} {'would be reformatted' if check else 'reformatted'}"
        )
    if usage:
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_INVALID if failed or (check and changed) else EXIT_VALID)


class Kind(str, Enum):
    ord = "ord"
    yaml = "yaml"
    json = "json"


@app.command("convert")
def convert_command(
    source: Annotated[
        str,
        typer.Argument(
            help="A .ord, .yaml/.yml or .json file, or - for standard input.", metavar="INPUT"
        ),
    ],
    output: OutputOption = "-",
    from_: Annotated[
        Kind | None,
        typer.Option("--from", help="The input's format (default: from its extension, else ord)."),
    ] = None,
    to: Annotated[
        Kind | None,
        typer.Option(
            "--to",
            help="The output's format (default: from --output's extension; yaml for .ord input, ord for an archive).",
        ),
    ] = None,
    with_results: Annotated[
        bool,
        typer.Option(
            "--with-results",
            help="Add what the engine recomputes (validity, winner, scores, markers, diagnostics) to each archived record.",
        ),
    ] = False,
    force: ForceOption = False,
) -> None:
    """Convert between .ord text and YAML or JSON archives, losing nothing:
    every tag (unknown ones too), the deal, plays with comments and glyphs,
    declared resolutions and the result. A multi-record file becomes one
    archive document. Exit 1 for input that cannot be read as its format.
    """
    from ..archives.conversion import ConversionError, convert, kind_of

    console = _console(stderr=True)
    source_kind = (
        (from_.value if from_ else None) or (kind_of(source) if source != STDIN else None) or "ord"
    )
    target_kind = (to.value if to else None) or (kind_of(output) if output != "-" else None)
    if target_kind is None:
        target_kind = "yaml" if source_kind == "ord" else "ord"
    if output != "-" and source != STDIN and Path(output).resolve() == Path(source).resolve():
        raise typer.BadParameter(
            "the output is the input; use ordo fmt --write to rewrite a file", param_hint="--output"
        )
    text = _read_or_exit(console, source)
    try:
        result = convert(text.text, text.name, source_kind, target_kind, with_results)
    except ConversionError as error:
        lines = text.text.split("\n")
        for diagnostic in error.diagnostics:
            console.print(diagnostic_text(diagnostic, lines))
        console.print(f"{text.name}: not converted")
        raise typer.Exit(EXIT_INVALID) from None
    _emit(console, result, output, force)


def _read_or_exit(console: Console, path: str) -> Source:
    """The text of ``path``; when there is none, prints why and exits (2 unreadable, 1 not UTF-8)."""
    source = read_source(path)
    if source.text is None:
        assert source.problem is not None
        console.print(diagnostic_text(source.problem, None))
        raise typer.Exit(EXIT_USAGE if source.problem.code == "E001" else EXIT_INVALID)
    return source


def _pick_record(console: Console, path: str, record: int | None) -> Report:
    """The report of the one record a replay or summary is about; exits 2 when ambiguous."""
    source = _read_or_exit(console, path)
    items = list(parse_text(source.text, source.name))
    if not items:
        console.print(
            diagnostic_text(Diagnostic("E105", "no record in this file", source.name), None)
        )
        raise typer.Exit(EXIT_INVALID)
    if record is None and len(items) > 1:
        console.print(f"{source.name} holds {len(items)} records; pick one with --record K:")
        for item in items:
            report = validate(item)
            console.print(f"  {report.index}:{players(report)} {verdict(report)}")
        raise typer.Exit(EXIT_USAGE)
    index = record or 1
    if not 1 <= index <= len(items):
        raise typer.BadParameter(
            f"{source.name} holds {len(items)} record(s)", param_hint="--record"
        )
    return validate(items[index - 1])


RecordOption = Annotated[
    int | None,
    typer.Option("--record", "-r", min=1, help="Which record of a multi-record file (from 1)."),
]


@app.command("replay")
def replay_command(
    path: Annotated[
        str, typer.Argument(help="A .ord file, or - for standard input.", metavar="FILE")
    ],
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
) -> None:
    """Show the table at a step: every state's armies, formations and who wins
    there, the hands and the pile, the last play and its comments.
    """
    from ..views.board import render_step
    from ..views.replay import replay
    from ..views.stepper import Stepper, run, terminal_keys

    console = _console()
    err = _console(stderr=True)
    report = _pick_record(err, path, record)
    steps = replay(report)
    if steps is None:
        for diagnostic in report.diagnostics:
            err.print(diagnostic_text(diagnostic, None))
        err.print(
            f"{report.source} record {report.index}: nothing to replay: the header or the deal has errors"
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

    def draw(position: int) -> Text:
        return render_step(steps, steps.steps[position], viewer)

    if step and sys.stdin.isatty() and console.is_terminal:
        run(Stepper(steps.last, 0 if ply is None else start), terminal_keys(), draw, console)
    elif step:
        for position in range(0 if ply is None else start, steps.last + 1):
            if position != (0 if ply is None else start):
                console.print("─" * 60)
            console.print(draw(position))
    else:
        console.print(draw(start))


class SummaryFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    json = "json"


@app.command("summary")
def summary_command(
    path: Annotated[
        str, typer.Argument(help="A .ord file, or - for standard input.", metavar="FILE")
    ],
    record: RecordOption = None,
    format: Annotated[
        SummaryFormat,
        typer.Option("--format", "-f", help="text, markdown (for publishing) or json."),
    ] = SummaryFormat.text,
) -> None:
    """The annotated summary of each record (or of --record K): players, rules,
    the result and why, each state in marker order with its armies and the
    comparison that decided it, points per state, and the record's comments
    and glyphs.
    """
    from ..views.summary import render_markdown as summary_markdown
    from ..views.summary import render_text as summary_text
    from ..views.summary import summarize

    err = _console(stderr=True)
    source = _read_or_exit(err, path)
    items = list(parse_text(source.text, source.name))
    if record is not None:
        if record > len(items):
            raise typer.BadParameter(
                f"{source.name} holds {len(items)} record(s)", param_hint="--record"
            )
        items = [items[record - 1]]
    data = [summarize(validate(item)) for item in items]
    if not data:
        err.print(diagnostic_text(Diagnostic("E105", "no record in this file", source.name), None))
        raise typer.Exit(EXIT_INVALID)
    if format is SummaryFormat.json:
        typer.echo(json.dumps({"records": data}, indent=2, ensure_ascii=False))
    else:
        render = summary_markdown if format is SummaryFormat.markdown else summary_text
        sys.stdout.write("\n".join(render(entry) for entry in data))
