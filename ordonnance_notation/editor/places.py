"""Places in an editor's text: the project's spans (1-based lines and
columns counted in characters, the end column exclusive) as the Language
Server Protocol's ranges (0-based, columns counted in the code units the
client asked for: UTF-16 unless it said otherwise), and the editor's
text as the protocol counts its lines: they end at LF, CRLF or CR, and at
nothing else (``str.splitlines`` ends them at U+2028, U+0085, a form feed
and more, which a comment may hold)."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice

from lsprotocol import types as lsp

from ..diagnostics import Diagnostic, Severity, Span


class Lines:
    """The lines of a text (without their line ends), and how many code
    units of the client a piece of a line is (``units``)."""

    def __init__(self, lines: list[str], units: Callable[[str], int] = len) -> None:
        self.lines = lines
        self.units = units

    def position(self, line: int, column: int) -> lsp.Position:
        """The position of 1-based ``line`` and ``column`` (characters)."""
        row = min(max(line - 1, 0), len(self.lines) - 1)
        text = self.lines[row]
        before = text[: max(column - 1, 0)]
        beyond = max(column - 1 - len(text), 0)  # the line end itself, as E104 marks it
        return lsp.Position(row, (len(before) if before.isascii() else self.units(before)) + beyond)

    def range(self, span: Span) -> lsp.Range:
        return lsp.Range(
            self.position(span.line, span.column), self.position(span.end_line, span.end_column)
        )

    def whole_line(self, line: int) -> lsp.Range:
        row = min(max(line - 1, 0), len(self.lines) - 1)
        return self.range(Span(row + 1, 1, row + 1, len(self.lines[row]) + 1))

    def column(self, position: lsp.Position) -> tuple[int, int]:
        """The 1-based line and column (characters) of an LSP position."""
        row = min(position.line, len(self.lines) - 1)
        return row + 1, character(self.lines[row], position.character, self.units) + 1

    def before(self, position: lsp.Position) -> str:
        """The text of the position's line before it."""
        line, column = self.column(position)
        return self.lines[line - 1][: column - 1]


def character(line: str, units: int, count: Callable[[str], int] = len) -> int:
    """The index in ``line`` of the place ``units`` code units into it, as
    ``count`` counts them; past its end, its end."""
    if line.isascii():
        return min(units, len(line))
    counted = 0
    for at, char in enumerate(line):
        if counted >= units:
            return at
        counted += count(char)
    return len(line)


_LINE_END = re.compile("\r\n|\r|\n")
_BLOCK = 1 << 16


def _line_start(text: str, line: int) -> int | None:
    """The index in ``text`` where 0-based ``line`` starts; None past its
    last line. Its line ends are counted a block at a time (``str.count``),
    and matched one by one only in the block where the line starts."""
    start = 0
    returns = "\r" in text
    while line:
        end = min(start + _BLOCK, len(text))
        end += text[end - 1 : end + 1] == "\r\n"  # a CRLF is not cut in two
        ends = text.count("\n", start, end)
        if returns:
            ends += text.count("\r", start, end) - text.count("\r\n", start, end)
        if ends >= line:
            return next(islice(_LINE_END.finditer(text, start, end), line - 1, None)).end()
        if end == len(text):
            return None
        line -= ends
        start = end
    return start


def offset(text: str, position: lsp.Position, count: Callable[[str], int] = len) -> int:
    """The index in ``text`` of an LSP position, its character counted in
    code units as ``count`` counts them. A position past the end of its
    line is at the line's end; past the last line, at the text's end."""
    start = _line_start(text, position.line)
    if start is None:
        return len(text)
    end = _LINE_END.search(text, start)
    line = text[start : end.start() if end else len(text)]
    return start + character(line, position.character, count)


def edited(
    text: str, change: lsp.TextDocumentContentChangeEvent, count: Callable[[str], int] = len
) -> str:
    """``text`` with a change from the editor made: the range it replaces
    (its character counted in code units as ``count`` counts them), or the
    whole text."""
    if not isinstance(change, lsp.TextDocumentContentChangePartial):
        return change.text
    start, end = sorted(offset(text, p, count) for p in (change.range.start, change.range.end))
    return text[:start] + change.text + text[end:]


_SEVERITIES = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.NOTE: lsp.DiagnosticSeverity.Information,
}


def lsp_diagnostic(diagnostic: Diagnostic, lines: Lines, uri: str) -> lsp.Diagnostic:
    """A diagnostic as the editor shows it: its message, then its help line
    as ``ordo validate`` prints it; its second places as related
    information. One that belongs to the whole file stands on its first line."""
    span = diagnostic.span
    message = diagnostic.message
    if diagnostic.help:
        message += f"\nhelp: {diagnostic.help}"
    related = [
        lsp.DiagnosticRelatedInformation(lsp.Location(uri, lines.range(r.span)), r.message)
        for r in diagnostic.related
    ]
    return lsp.Diagnostic(
        lines.range(span) if span is not None else lines.whole_line(1),
        message,
        severity=_SEVERITIES[diagnostic.severity],
        code=diagnostic.code,
        source="ordo",
        related_information=related or None,
    )
