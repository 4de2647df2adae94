"""The ``ordo`` command. Each command reads its input, calls the library, prints, exits.

Exit codes: 0 every record valid; 1 some record invalid; 2 usage or I/O error.
"""

from __future__ import annotations

import json
import os
from enum import Enum
from typing import Annotated

import typer
from rich.console import Console

from .diagnostics import Diagnostic, Severity
from .notation.parser import parse_text
from .render import diagnostic_text, record_line, report_json
from .sources import expand, read_source
from .validator import validate

app = typer.Typer(
    name="ordo",
    help="Record, validate and replay games of Ordonnance (The Kingdoms of Crusaders).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_VALID, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class Format(str, Enum):
    text = "text"
    json = "json"


def _console() -> Console:
    """Styles only on a terminal (Rich decides); a non-empty NO_COLOR turns off every style."""
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(highlight=False, soft_wrap=True, color_system=None if plain else "auto")


@app.callback()
def main() -> None:
    """Record, validate and replay games of Ordonnance (The Kingdoms of Crusaders)."""


@app.command("validate")
def validate_command(
    paths: Annotated[
        list[str],
        typer.Argument(help="Files, directories (every *.ord below) or - for standard input.", show_default=False),
    ],
    format: Annotated[Format, typer.Option("--format", "-f", help="text for people, json for programs.")] = Format.text,
) -> None:
    """Check records: syntax, content, every draw and play, declared markers and result.

    Prints each problem with its place, one line per record, and a total.
    Exit 0 when every record is valid, 1 when any is invalid, 2 for a usage
    or I/O error (a missing or unreadable file).
    """
    console = _console()
    problems: list[Diagnostic] = []
    reports = []
    files = 0
    for path in expand(paths):
        if isinstance(path, Diagnostic):
            problems.append(path)
            if format is Format.text:
                console.print(diagnostic_text(path, None))
            continue
        source = read_source(path)
        files += 1
        if source.problem is not None:
            problems.append(source.problem)
            if format is Format.text:
                shown = source.shown.split("\n") if source.shown is not None else None
                console.print(diagnostic_text(source.problem, shown))
            continue
        lines = source.text.split("\n") if format is Format.text else None
        found = 0
        for item in parse_text(source.text, source.name):
            found += 1
            report = validate(item)
            reports.append(report)
            if format is Format.text:
                for diagnostic in report.diagnostics:
                    console.print(diagnostic_text(diagnostic, lines))
                console.print(record_line(report))
        if not found:
            empty = Diagnostic("E105", "no record in this file", source.name)
            problems.append(empty)
            if format is Format.text:
                console.print(diagnostic_text(empty, None))
    invalid = sum(1 for r in reports if not r.valid)
    io_errors = [p for p in problems if p.code == "E001"]
    errors = sum(r.count(Severity.ERROR) for r in reports) + len(problems)
    warnings = sum(r.count(Severity.WARNING) for r in reports)
    if format is Format.json:
        document = {
            "records": [report_json(r) for r in reports],
            "problems": [p.to_json() for p in problems],
            "summary": {
                "files": files,
                "records": len(reports),
                "valid": len(reports) - invalid,
                "invalid": invalid,
                "errors": errors,
                "warnings": warnings,
            },
        }
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        console.print(
            f"{len(reports)} record{'s' if len(reports) != 1 else ''} in {files} file{'s' if files != 1 else ''}: "
            f"{len(reports) - invalid} valid, {invalid} invalid; "
            f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
        )
    if io_errors:
        raise typer.Exit(EXIT_USAGE)
    if invalid or problems:
        raise typer.Exit(EXIT_INVALID)
    raise typer.Exit(EXIT_VALID)
