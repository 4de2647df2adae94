"""A file open in an editor: its text cut into records as ``ordo validate``
cuts a file, and each record's diagnostics kept by its text, so that an
edit checks again only the records it changed.

A record that only moved (lines added or removed above it) keeps its
diagnostics, moved by as many lines. Records are checked as ``ordo
validate`` checks them (``verdicts.check_task``, the Python validator): the
same codes, messages, help lines and places.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..checking.verdicts import Task, check_task
from ..diagnostics import Diagnostic, Related, Span, no_record
from ..files.sources import line_ends
from ..notation import terminals as t
from ..notation.cutting import split_lines, split_records
from ..notation.parser import ParsedItem, parse_record
from .places import Lines


@dataclass(frozen=True, slots=True)
class Piece:
    """One record of the file: its number (from 1), its first line and its text."""

    index: int
    first_line: int
    text: str

    @property
    def last_line(self) -> int:
        return self.first_line + self.text.count("\n")

    def parsed(self, source: str) -> ParsedItem | None:
        """The record read; None when the text holds only comments."""
        return parse_record(self.text, self.first_line, source, self.index)


@dataclass(frozen=True, slots=True)
class _Checked:
    """A record's diagnostics as found when it started at ``first_line``."""

    first_line: int
    diagnostics: tuple[Diagnostic, ...]
    record: bool  # whether the text holds a record (not only comments)


class _Cut(NamedTuple):
    text: str
    pieces: list[Piece]
    starts: list[int]  # each piece's first line, for bisect
    lines: list[str]


class Document:
    """The records of one file and their diagnostics; ``source`` names the
    file in diagnostics. Not shared between threads: one checks at a time."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._cut = _Cut("", [], [], [""])  # replaced whole: hover reads it while a check runs
        self._checked: dict[str, _Checked] = {}  # by a record's text
        self.checks = 0  # records checked so far (the others came from the cache)

    def cut(self, text: str) -> list[Piece]:
        """The records of ``text`` (any line ends), cut again only when it changed."""
        text = line_ends(text)
        if text != self._cut.text:
            lines = text.split("\n")
            pieces = _recut(self._cut, text, lines)
            starts = [piece.first_line for piece in pieces]
            self._cut = _Cut(text, pieces, starts, lines)
        return self._cut.pieces

    @property
    def text(self) -> str:
        """The text last cut, with LF line ends."""
        return self._cut.text

    @property
    def pieces(self) -> list[Piece]:
        return self._cut.pieces

    def lines(self, units: Callable[[str], int] = len) -> Lines:
        """The lines of the text last cut; ``units`` counts a string's code
        units as the client counts them."""
        return Lines(self._cut.lines, units)

    def diagnostics(self, text: str) -> list[Diagnostic]:
        """Every diagnostic of ``text``, in record order, as ``ordo validate``
        gives them; only the records not seen before (by their text) are
        checked. Text that holds no record is E105, as in ``ordo validate``,
        but an empty file (a new one) has nothing to say."""
        kept: dict[str, _Checked] = {}
        found: list[Diagnostic] = []
        records = 0
        for piece in self.cut(text):
            checked = self._checked.get(piece.text) or kept.get(piece.text) or self._check(piece)
            records += checked.record
            kept[piece.text] = checked
            found.extend(_moved(checked.diagnostics, piece.first_line - checked.first_line))
        self._checked = kept
        if not records and self.text.strip():
            found.append(no_record(self.source))
        return found

    def checked(self, piece: Piece) -> tuple[Diagnostic, ...]:
        """The diagnostics of one record of the text last cut."""
        checked = self._checked.get(piece.text) or self._check(piece)
        return tuple(_moved(checked.diagnostics, piece.first_line - checked.first_line))

    def _check(self, piece: Piece) -> _Checked:
        self.checks += 1
        result = check_task(Task(self.source, piece.index, piece.first_line, piece.text, False))
        diagnostics = result.diagnostics if result is not None else ()
        return _Checked(piece.first_line, diagnostics, result is not None)

    def piece_at(self, line: int) -> Piece | None:
        """The record whose lines hold ``line`` (1-based) of the text last cut."""
        cut = self._cut
        at = bisect_right(cut.starts, line) - 1
        if at < 0:
            return None
        piece = cut.pieces[at]
        return piece if line <= piece.last_line else None

    def parsed(self) -> Iterator[tuple[Piece, ParsedItem]]:
        """Each record of the text last cut, read."""
        for piece in self.pieces:
            item = piece.parsed(self.source)
            if item is not None:
                yield piece, item


def _moved(diagnostics: tuple[Diagnostic, ...], lines: int) -> Iterator[Diagnostic]:
    if not lines:
        yield from diagnostics
        return
    for d in diagnostics:
        span = _down(d.span, lines) if d.span else None
        related = tuple(Related(r.message, _down(r.span, lines)) for r in d.related)
        yield replace(d, span=span, related=related)


def _down(span: Span, lines: int) -> Span:
    return Span(span.line + lines, span.column, span.end_line + lines, span.end_column)


_MARGIN = 2
"""Records cut again above the first line that changed: where a record
starts is decided by its own first lines and those just above it."""


def _recut(old: _Cut, text: str, lines: list[str]) -> list[Piece]:
    """The records of ``text``, as ``split_records`` cuts it, from those of
    the text ``old`` held: cut again from a little above the first line that
    changed until, below the last line that changed, a record starts where
    one started in the old text; the old records from there on, moved. A
    change that opens or closes a ``{`` comment has the text cut whole."""
    before = _same_start(old.text, text)
    after = _same_start(old.text[before:][::-1], text[before:][::-1])
    changed = text[before : len(text) - after] + old.text[before : len(old.text) - after]
    pieces: list[Piece] = []
    if not old.pieces or t.BRACE_OPEN in changed or t.BRACE_CLOSE in changed:
        return _add(pieces, split_records(text))
    first_changed = text.count("\n", 0, before) + 1  # 1-based lines
    last_changed = len(lines) - text.count("\n", len(text) - after)
    moved = len(lines) - len(old.lines)
    at = max(bisect_right(old.starts, first_changed) - 1 - _MARGIN, 0)
    start = old.pieces[at].first_line if at else 1
    pieces = old.pieces[:at]
    old_at = {piece.first_line: i for i, piece in enumerate(old.pieces)}
    for first_line, chunk in split_lines(lines[start - 1 :], start):
        _add(pieces, [(first_line, chunk)])
        following = first_line + chunk.count("\n") + 1
        again = old_at.get(following - moved) if following > last_changed else None
        if again is not None:
            return _add(pieces, ((p.first_line + moved, p.text) for p in old.pieces[again:]))
    return pieces


def _add(pieces: list[Piece], chunks: Iterable[tuple[int, str]]) -> list[Piece]:
    for first_line, chunk in chunks:
        if chunk.strip():
            pieces.append(Piece(len(pieces) + 1, first_line, chunk))
    return pieces


_BLOCK = 1 << 14


def _same_start(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` have in common at their start."""
    end = min(len(a), len(b))
    at = 0
    while at < end and a[at : at + _BLOCK] == b[at : at + _BLOCK]:
        at += _BLOCK
    at = min(at, end)
    while at < end and a[at] == b[at]:
        at += 1
    return at
