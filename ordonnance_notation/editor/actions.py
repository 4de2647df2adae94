"""The edits the language server offers: each change ``ordo fix`` would
make (its own ``Change``s, found by ``fix_source``), one by one or all at
once, the word a did-you-mean help line proposes, and ``ordo fmt``'s
canonical text (found as ``ordo fmt`` finds it, ``Formatted``, which
refuses a file with a record it cannot format).

A did-you-mean replacement is offered only when the diagnostic's help line
names it: the advice functions that wrote the help line find the word
again here, and the help line stays the one place that proposes it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise

from lsprotocol import types as lsp

from ..archives.conversion import Formatted
from ..checking.advice import closest, state_meant, tag_meant
from ..checking.fixing import fix_source
from ..diagnostics import ConversionError, Diagnostic, InputError, Span
from ..engine.cards import spells_a_card
from ..files.sources import Source
from ..notation.cutting import split_records
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


def wanted(kind: lsp.CodeActionKind, only: Sequence[str] | None) -> bool:
    """Whether the client asks for actions of ``kind``: ``only`` names it or a
    kind above it (``source`` holds ``source.fixAll``); no ``only`` asks for
    every kind but the source actions, which a client asks for by name."""
    if only is None:
        return not kind.value.startswith(lsp.CodeActionKind.Source.value)
    return any(kind.value == k or kind.value.startswith(f"{k}.") for k in only)


def code_actions(
    document: Document, lines: Lines, uri: str, where: lsp.Range, only: Sequence[str] | None
) -> list[lsp.CodeAction]:
    """The fixes and replacements for the diagnostics on the lines ``where``
    touches: a fix is offered wherever a diagnostic it settles shows."""
    first = lines.column(where.start)[0]
    last = lines.column(where.end)[0]
    if not wanted(lsp.CodeActionKind.QuickFix, only):
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
        settled = _settled(diagnostics, span)
        shown = [span, *(d.span for d in settled if d.span is not None)]
        if not any(s.line <= last and first <= s.end_line for s in shown):
            continue
        codes = ", ".join(sorted({d.code for d in settled})) or change.why
        title = f"{FIX}: write {change.after} for {change.before} ({codes})"
        yield _action(title, uri, lines, [(span, change.after)], settled)


def fix_all(source: str, lines: Lines, uri: str) -> list[lsp.CodeAction]:
    """Every change ``ordo fix`` makes to the text of ``lines``, as one
    action; none when it makes none."""
    changes = fix_source(Source(source, "\n".join(lines.lines))).changes
    if not changes:
        return []
    title = f"{FIX}: every fix of the file ({len(changes)} changes)"
    edits = [(change.span, change.after) for change in changes]
    return [_action(title, uri, lines, edits, [], lsp.CodeActionKind.SourceFixAll)]


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


def _settled(diagnostics: Sequence[Diagnostic], span: Span) -> list[Diagnostic]:
    """The diagnostics that a change of the text at ``span`` settles: those
    at it, and those that name it as their second place (E414 on the result
    line names the Result tag)."""
    return [d for d in diagnostics if d.span == span or any(r.span == span for r in d.related)]


def _action(
    title: str,
    uri: str,
    lines: Lines,
    edits: Sequence[tuple[Span, str]],
    diagnostics: Sequence[Diagnostic],
    kind: lsp.CodeActionKind = lsp.CodeActionKind.QuickFix,
) -> lsp.CodeAction:
    text_edits = [lsp.TextEdit(lines.range(span), text) for span, text in edits]
    return lsp.CodeAction(
        title,
        kind=kind,
        diagnostics=[lsp_diagnostic(d, lines, uri) for d in diagnostics] or None,
        edit=lsp.WorkspaceEdit(changes={uri: text_edits}),
        is_preferred=len(diagnostics) == 1 or None,
    )


def formatting(source: str, lines: Lines) -> list[lsp.TextEdit] | None:
    """``ordo fmt``'s text of ``lines`` as edits of the lines that change;
    None when ``ordo fmt`` would refuse the file (a record it cannot
    format). Each record is compared with the one ``ordo fmt`` makes of it,
    and with nothing else: the time grows with the size of the file, not
    with its square."""
    text = "\n".join(lines.lines)
    try:
        formatted = "".join(Formatted(source, Source(source, text)).pieces())
    except (ConversionError, InputError):
        return None
    before, after = lines.lines, formatted.split("\n")
    edits = []
    for kind, b0, b1, a0, a1 in _compared(before, after, text, formatted):
        if kind == "equal":
            continue
        if b1 < len(before):  # whole lines, each with its line end
            new = "".join(line + "\n" for line in after[a0:a1])
            where = lsp.Range(lsp.Position(b0, 0), lsp.Position(b1, 0))
        elif b0 > 0:  # up to the end, from the line end above
            new = "".join("\n" + line for line in after[a0:a1])
            where = lsp.Range(_end_of(lines, b0), _end_of(lines, b1))
        else:
            new = "\n".join(after[a0:a1])
            where = lsp.Range(lsp.Position(0, 0), _end_of(lines, b1))
        edits.append(lsp.TextEdit(where, new))
    return edits


_Opcode = tuple[str, int, int, int, int]


def _compared(before: list[str], after: list[str], text: str, formatted: str) -> Iterator[_Opcode]:
    """difflib's opcodes from the lines ``before`` (of ``text``) to those
    ``after`` (of ``formatted``), found record by record: the n-th record of
    the text with the n-th of its canonical text. Should their counts
    differ, the whole texts are one."""
    mine, theirs = (
        [first - 1 for first, chunk in split_records(t) if chunk.strip()] for t in (text, formatted)
    )
    if len(mine) != len(theirs):
        mine, theirs = [], []
    starts = [(0, 0), *zip(mine[1:], theirs[1:], strict=True), (len(before), len(after))]
    for (b0, a0), (b1, a1) in pairwise(starts):
        yield from _record_compared(before[b0:b1], after[a0:a1], b0, a0)


def _record_compared(before: list[str], after: list[str], b0: int, a0: int) -> Iterator[_Opcode]:
    """difflib's opcodes of one record, whose lines start at ``b0`` before
    and ``a0`` after; the lines alike at its start and at its end are
    passed over, not compared."""
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(before), len(after)) - start and before[-end - 1] == after[-end - 1]:
        end += 1
    matcher = difflib.SequenceMatcher(
        None, before[start : len(before) - end], after[start : len(after) - end], autojunk=False
    )
    for kind, i0, i1, j0, j1 in matcher.get_opcodes():
        yield kind, b0 + start + i0, b0 + start + i1, a0 + start + j0, a0 + start + j1


def _end_of(lines: Lines, line: int) -> lsp.Position:
    """The end of 1-based ``line``."""
    return lines.position(line, len(lines.lines[line - 1]) + 1)
