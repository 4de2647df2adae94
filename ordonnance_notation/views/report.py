"""Reports as text for people and as JSON for programs.

Text diagnostics follow the compiler convention ``file:line:col: error[E303]:
message``, then the source line with a caret under the offending text.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..checking.validator import Report
from ..diagnostics import Diagnostic, Severity
from ..engine.cards import seat_name

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


def players(report: Report) -> str:
    return f" ({' v '.join(name.strip() or '?' for name in report.names)})" if report.names else ""


def verdict(report: Report) -> str:
    """What the record amounts to, in a few words."""
    if not report.valid:
        counts = [
            f"{n} {severity.value}{'s' if n != 1 else ''}"
            for severity in Severity
            if (n := report.count(severity))
        ]
        return "invalid: " + ", ".join(counts)
    outcome = report.outcome
    if outcome is None:
        ply = report.game.ply if report.game else 0
        return f"valid, unfinished after ply {ply}"
    return "valid, " + outcome.describe(report.scoring.unit if report.scoring else "states")


def record_line(report: Report) -> Text:
    style = "green" if report.valid else "bold red"
    out = Text(f"{report.source} record {report.index}{players(report)}: ")
    out.append(verdict(report), style=style)
    return out


def report_json(report: Report) -> dict:
    outcome = report.outcome
    return {
        "file": report.source,
        "record": report.index,
        "players": list(report.names),
        "valid": report.valid,
        "finished": outcome is not None,
        "winner": None if outcome is None or outcome.winner is None else seat_name(outcome.winner),
        "scores": None
        if outcome is None
        else {seat_name(s): v for s, v in enumerate(outcome.scores)},
        "markers": [
            {"marker": r.marker, "state": r.state.name, "seat": seat_name(r.winner), "ply": r.ply}
            for r in (report.game.resolutions if report.game else ())
        ],
        "diagnostics": [d.to_json() for d in report.diagnostics],
    }
