"""Places in an editor's text: the project's spans (1-based lines and
columns counted in characters, the end column exclusive) as the Language
Server Protocol's ranges (0-based, columns counted in the code units the
client asked for: UTF-16 unless it said otherwise)."""

from __future__ import annotations

from collections.abc import Callable

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
        text = self.lines[row]
        if text.isascii():
            return row + 1, min(position.character, len(text)) + 1
        count = 0
        for at, char in enumerate(text):
            if count >= position.character:
                return row + 1, at + 1
            count += self.units(char)
        return row + 1, len(text) + 1

    def before(self, position: lsp.Position) -> str:
        """The text of the position's line before it."""
        line, column = self.column(position)
        return self.lines[line - 1][: column - 1]


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
