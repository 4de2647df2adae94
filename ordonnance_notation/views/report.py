"""Reports as text for people and as JSON for programs: a diagnostic with
its line and caret, a record's verdict, and the reporters of ``ordo validate``.

Text diagnostics follow the compiler convention ``file:line:col: error[E303]:
message``, then the source line with a caret under the offending text.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable, Sequence
from typing import Protocol, TextIO

from rich.console import Console
from rich.text import Text

from ..checking.batch import Checked, Tally
from ..diagnostics import Diagnostic, InputError, Severity

STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.NOTE: "cyan"}


def diagnostic_text(
    diagnostic: Diagnostic, lines: Sequence[str] | None, first_line: int = 1
) -> Text:
    """The diagnostic, its source line and a caret (when the line is known);
    ``lines`` start at line ``first_line`` of the file."""
    out = Text()
    out.append(f"{diagnostic.location}: ", style="bold")
    out.append(f"{diagnostic.severity.value}[{diagnostic.code}]", style=STYLES[diagnostic.severity])
    out.append(f": {diagnostic.message}")
    span = diagnostic.span
    if span is not None and lines is not None and 0 <= span.line - first_line < len(lines):
        source_line = lines[span.line - first_line].expandtabs(1)
        gutter = len(str(span.line))
        width = (
            span.end_column - span.column
            if span.end_line == span.line
            else len(source_line) - span.column + 1
        )
        out.append(f"\n {' ' * gutter} |\n {span.line} | {source_line}\n {' ' * gutter} | ")
        out.append(" " * (span.column - 1) + "^" * max(1, width), style=STYLES[diagnostic.severity])
    where = [f"record {diagnostic.record}"] if diagnostic.record is not None else []
    if diagnostic.ply is not None:
        where.append(f"ply {diagnostic.ply}")
    if where:
        out.append(
            f"\n {' ' * (len(str(span.line)) if span else 0)} = {', '.join(where)}", style="dim"
        )
    return out


def problem_text(problem: InputError) -> Text:
    """An input that cannot be used: its diagnostic, with the line it quotes if any."""
    diagnostic = problem.diagnostic
    shown = [problem.shown] if problem.shown is not None else None
    return diagnostic_text(diagnostic, shown, diagnostic.span.line if diagnostic.span else 1)


class Verdict(Protocol):
    """A record's verdict, from a ``Report`` or from a ``Checked`` sent back by a worker."""

    @property
    def source(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def players(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def valid(self) -> bool: ...


def record_line(report: Verdict) -> Text:
    """``file record 2 (Anna v Boris): valid, P2 wins (...)``."""
    out = Text(_record_head(report))
    out.append(report.verdict, style="green" if report.valid else "bold red")
    return out


def _record_head(report: Verdict) -> str:
    return f"{report.source} record {report.index}{report.players}: "


_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")  # what Rich would show otherwise


def printer(console: Console) -> Callable[[str, Callable[[], Text]], None]:
    """``emit(line, styled)`` prints ``line``, or ``styled()`` where styles
    show: Rich's rendering costs about 0.1 ms a line, a tenth of validating a
    record, so without styles the text is written plainly and never built."""
    plain = console.color_system is None

    def emit(line: str, styled: Callable[[], Text]) -> None:
        if plain and not _CONTROL.search(line):
            console.file.write(line + "\n")
            return
        console.print(styled())

    return emit


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class TextReporter:
    """``ordo validate`` for people: each problem with its place, each record's
    diagnostics with the line quoted and its verdict, then the totals."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.emit = printer(console)

    def take(self, item: Checked | InputError) -> None:
        if isinstance(item, InputError):
            self.console.print(problem_text(item))
            return
        lines = item.task.text.split("\n")
        for diagnostic in item.diagnostics:
            text = diagnostic_text(diagnostic, lines, item.task.first_line)
            self.emit(text.plain, text.copy)
        self.emit(_record_head(item) + item.verdict, lambda: record_line(item))

    def finish(self, tally: Tally) -> None:
        self.console.print(
            f"{_plural(tally.records, 'record')} in {_plural(tally.files, 'file')}: "
            f"{tally.records - tally.invalid} valid, {tally.invalid} invalid; "
            f"{_plural(tally.errors, 'error')}, {_plural(tally.warnings, 'warning')}"
        )


class JsonReporter:
    """``ordo validate --format json``: one document, the same text as
    ``json.dumps(document, indent=2)``, written as the records come."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.records = 0
        stream.write('{\n  "records": [')

    def take(self, item: Checked | InputError) -> None:
        if isinstance(item, InputError):
            return  # problems are listed after the records, from the tally
        entry = textwrap.indent(json.dumps(item.json, indent=2, ensure_ascii=False), "    ")
        self.stream.write(("," if self.records else "") + "\n" + entry)
        self.records += 1

    def finish(self, tally: Tally) -> None:
        summary = {
            "files": tally.files,
            "records": tally.records,
            "valid": tally.records - tally.invalid,
            "invalid": tally.invalid,
            "errors": tally.errors,
            "warnings": tally.warnings,
        }
        problems = [p.diagnostic.to_json() for p in tally.problems]
        tail = json.dumps({"problems": problems, "summary": summary}, indent=2, ensure_ascii=False)
        self.stream.write(("\n  ],\n" if self.records else "],\n") + tail[2:] + "\n")
