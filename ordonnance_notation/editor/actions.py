"""The edits the language server offers: each change ``ordo fix`` would
make (its own ``Change``s, found by ``fix_source``), the word a did-you-mean
help line proposes, and ``ordo fmt``'s canonical text (``canonical``, which
refuses a file with a record it cannot format, as ``ordo fmt`` does).

A did-you-mean replacement is offered only when the diagnostic's help line
names it: the advice functions that wrote the help line find the word
again here, and the help line stays the one place that proposes it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Sequence

from lsprotocol import types as lsp

from ..archives.conversion import canonical
from ..checking.advice import closest, state_meant, tag_meant
from ..checking.fixing import fix_source
from ..diagnostics import ConversionError, Diagnostic, Span
from ..engine.cards import spells_a_card
from ..files.sources import Source
from ..notation.lookalikes import in_latin
from ..notation.mistakes import seat_meant
from ..notation.record import Tag, Unparsed
from .documents import Document, Piece
from .places import Lines, lsp_diagnostic

FIX = "ordo fix"


def _states(word: str, names: Sequence[str]) -> list[str]:
    meant = state_meant(word)
    return [] if meant is None else [meant.name, meant.full_name]


def _seats(word: str, names: Sequence[str]) -> list[str]:
    meant = seat_meant(word, names)
    return [] if meant is None else [f"P{meant[0] + 1}"]


def _cards(word: str, names: Sequence[str]) -> list[str]:
    return [word.upper()] if spells_a_card(word.upper()) else []


def _tags(word: str, names: Sequence[str]) -> list[str]:
    meant = tag_meant(word)
    return [] if meant is None else [meant]


def _scoring(word: str, names: Sequence[str]) -> list[str]:
    value = word.partition('"')[2].rpartition('"')[0].strip().lower()
    meant = closest(value, ("classic", "points"), cutoff=0.6)
    return [] if meant is None else [f'[Scoring "{meant}"]']


_MEANT: dict[str, Callable[[str, Sequence[str]], list[str]]] = {
    "E201": _cards,
    "E202": _states,
    "E203": _seats,
    "E205": _scoring,
    "W503": _tags,
}
"""For the diagnostics whose help line may say the word meant: the advice
that finds it, from the word written and the record's players."""


def replacements(diagnostic: Diagnostic, word: str, names: Sequence[str]) -> list[str]:
    """The words that may replace ``word``, the text at the diagnostic's
    span, as its help line proposes them."""
    if diagnostic.help is None:
        return []
    meant = [in_latin(word)] if in_latin(word) != word else []
    finder = _MEANT.get(diagnostic.code)
    if finder is not None:
        meant += finder(word, names)
    return [m for m in dict.fromkeys(meant) if m != word and m in diagnostic.help]


def code_actions(
    document: Document, lines: Lines, uri: str, where: lsp.Range, only: Sequence[str] | None
) -> list[lsp.CodeAction]:
    """The fixes and replacements for the records that ``where`` touches."""
    first = lines.column(where.start)[0]
    last = lines.column(where.end)[0]
    if only and not any(lsp.CodeActionKind.QuickFix.value.startswith(k) for k in only):
        return []
    actions: list[lsp.CodeAction] = []
    seen: set[int] = set()
    for line in range(first, last + 1):
        piece = document.piece_at(line)
        if piece is None or piece.index in seen:
            continue
        seen.add(piece.index)
        diagnostics = document.checked(piece)
        actions += _fixes(document.source, piece, lines, uri, diagnostics, first, last)
        actions += _meant(document, piece, lines, uri, diagnostics, first, last)
    return actions


def _fixes(
    source: str,
    piece: Piece,
    lines: Lines,
    uri: str,
    diagnostics: Sequence[Diagnostic],
    first: int,
    last: int,
) -> Iterator[lsp.CodeAction]:
    below = piece.first_line - 1
    for change in fix_source(Source(source, piece.text)).changes:
        span = _down(change.span, below)
        if not first <= span.line <= last:
            continue
        title = f"{FIX}: write {change.after} for {change.before} ({change.why})"
        yield _action(title, uri, lines, [(span, change.after)], _at(diagnostics, span))


def _meant(
    document: Document,
    piece: Piece,
    lines: Lines,
    uri: str,
    diagnostics: Sequence[Diagnostic],
    first: int,
    last: int,
) -> Iterator[lsp.CodeAction]:
    names: list[str] = []
    for d in diagnostics:
        span = d.span
        if span is None or span.line != span.end_line or not first <= span.line <= last:
            continue
        word = lines.lines[span.line - 1][span.column - 1 : span.end_column - 1]
        if not names:
            names = _names(document, piece)
        for meant in replacements(d, word, names):
            title = f"did you mean {meant}? write it for {word}"
            yield _action(title, uri, lines, [(span, meant)], [d])


def _names(document: Document, piece: Piece) -> list[str]:
    item = piece.parsed(document.source)
    record = item.partial if isinstance(item, Unparsed) else item
    if record is None:
        return []
    tags = {e.name.text: e.value for e in record.elements if isinstance(e, Tag)}
    return [tags[f"P{seat}"] for seat in range(1, 5) if f"P{seat}" in tags]


def _down(span: Span, lines: int) -> Span:
    return Span(span.line + lines, span.column, span.end_line + lines, span.end_column)


def _at(diagnostics: Sequence[Diagnostic], span: Span) -> list[Diagnostic]:
    return [d for d in diagnostics if d.span == span]


def _action(
    title: str,
    uri: str,
    lines: Lines,
    edits: Sequence[tuple[Span, str]],
    diagnostics: Sequence[Diagnostic],
) -> lsp.CodeAction:
    text_edits = [lsp.TextEdit(lines.range(span), text) for span, text in edits]
    return lsp.CodeAction(
        title,
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[lsp_diagnostic(d, lines, uri) for d in diagnostics] or None,
        edit=lsp.WorkspaceEdit(changes={uri: text_edits}),
        is_preferred=len(diagnostics) == 1 or None,
    )


def formatting(document: Document, lines: Lines, text: str) -> list[lsp.TextEdit] | None:
    """``ordo fmt``'s text as edits of the lines that change; None when
    ``ordo fmt`` would refuse the file (a record it cannot format)."""
    try:
        formatted = canonical(text, document.source)
    except ConversionError:
        return None
    before, after = lines.lines, formatted.split("\n")
    edits = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for kind, b0, b1, a0, a1 in matcher.get_opcodes():
        if kind == "equal":
            continue
        if b1 < len(before):  # whole lines, each with its line end
            new = "".join(line + "\n" for line in after[a0:a1])
            where = lsp.Range(lsp.Position(b0, 0), lsp.Position(b1, 0))
        elif b0 > 0:  # up to the end, from the line end above
            new = "".join("\n" + line for line in after[a0:a1])
            where = lsp.Range(_end_of(lines, b0), _end_of(lines, b1))
        else:
            new = "\n".join(after)
            where = lsp.Range(lsp.Position(0, 0), _end_of(lines, b1))
        edits.append(lsp.TextEdit(where, new))
    return edits


def _end_of(lines: Lines, line: int) -> lsp.Position:
    """The end of 1-based ``line``."""
    return lines.position(line, len(lines.lines[line - 1]) + 1)
