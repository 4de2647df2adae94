"""Canonical formatting and conversion between .ord, YAML and JSON, as library
calls. Each returns the new text or raises ConversionError carrying every
diagnostic; nothing here touches a file. A result is always parsed back and
compared before it is returned: this module never hands out text it could not
read again."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from ..checking.content import misplaced
from ..checking.validator import validate
from ..diagnostics import ArchiveError, ConversionError, Diagnostic, InputError, no_record
from ..files.sources import (
    STDIN,
    Source,
    expand,
    line_ends,
    open_source,
    read_source,
    source_name,
)
from ..notation.cutting import split_lines, split_records
from ..notation.parser import parse_chunks, parse_record
from ..notation.record import Record, Unparsed
from ..notation.writer import format_record, plain
from ..notation.writer import text as record_text
from . import document as archive

KINDS = ("ord", "yaml", "json")
_SUFFIXES = {".ord": "ord", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}


def kind_of(path: str) -> str | None:
    """``"ord"``, ``"yaml"`` or ``"json"`` from a file name, else None."""
    return _SUFFIXES.get(Path(path).suffix.lower())


def canonical(text: str, source: str) -> str:
    """The canonical form of .ord text. Raises ConversionError."""
    return "".join(canonical_pieces(split_records(line_ends(text)), source))


@dataclass(frozen=True, slots=True)
class Formatted:
    """One file to format, read a record at a time each time it is asked:
    its canonical text (``pieces``) and whether that differs from the file
    (``differs``, line ends and a byte-order mark aside). Standard input, or a
    pipe, is read once and held (``held``). Both raise RecordErrors for
    records that cannot be formatted and InputError for a file that cannot be
    read."""

    name: str
    held: Source | None = None

    def _lines(self) -> Iterator[str]:
        if self.held is not None:
            return iter(self.held.text.split("\n"))
        return open_source(self.name).lines()

    def pieces(self) -> Iterator[str]:
        return canonical_pieces(split_lines(self._lines()), self.name)

    def differs(self) -> bool:
        if self.held is not None:
            return canonical(self.held.text, self.name) != self.held.text
        original = open_source(self.name).lines()
        differs = False
        for mine, theirs in zip_longest(_lines_of(self.pieces()), original):
            differs = differs or mine != theirs  # read on: a bad record later is said
        return differs or not _ends_a_line(self.name)


def _lines_of(pieces: Iterable[str]) -> Iterator[str]:
    """The lines of text given in pieces, without their ends."""
    carry = ""
    for piece in pieces:
        lines = (carry + piece).split("\n")
        carry = lines.pop()
        yield from lines
    if carry:
        yield carry


def _ends_a_line(path: str) -> bool:
    """Whether a file's last byte ends a line (an empty file does not)."""
    with open(path, "rb") as stream:
        if stream.seek(0, 2) == 0:
            return False
        stream.seek(-1, 2)
        return stream.read(1) in (b"\n", b"\r")


def kinds(
    source: str | None, output: str | None, given_from: str | None, given_to: str | None
) -> tuple[str, str]:
    """The kinds to convert between: as given, else from the files' names
    (None for standard input or output), else ``ord`` in and then ``yaml``
    out of ``.ord`` text, ``ord`` out of an archive."""
    source_kind = given_from or (kind_of(source) if source else None) or "ord"
    target_kind = given_to or (kind_of(output) if output else None)
    return source_kind, target_kind or ("yaml" if source_kind == "ord" else "ord")


def format_paths(paths: Iterable[str]) -> Iterator[Formatted | InputError]:
    """Every file of ``paths`` to format (directories: the ``*.ord`` below);
    an ``InputError`` in the place of one that cannot be read."""
    for path in expand(paths):
        if isinstance(path, InputError):
            yield path
        elif path == STDIN or not Path(path).is_file():  # read once: held
            try:
                yield Formatted(source_name(path), read_source(path))
            except InputError as problem:
                yield problem
        else:
            yield Formatted(path)


def convert(
    text: str, source: str, source_kind: str, target_kind: str, with_results: bool = False
) -> str:
    """``text`` (of ``source_kind``) as ``target_kind``. Raises ConversionError."""
    if source_kind == "ord":
        if target_kind == "ord":
            return canonical(text, source)
        chunks = split_records(line_ends(text))
        return "".join(archive_pieces(chunks, source, target_kind, with_results))
    lines = line_ends(text).split("\n")
    pieces = from_archive(lambda: iter(lines), source, source_kind, target_kind, with_results)
    try:
        return "".join(pieces)
    except ArchiveError as error:
        raise ConversionError([error.diagnostic]) from None


def from_archive(
    lines: Callable[[], Iterator[str]],
    source: str,
    kind: str,
    target_kind: str,
    with_results: bool = False,
) -> Iterator[str]:
    """A YAML or JSON archive (``kind``) as .ord text or as the other archive,
    a record at a time when it is laid out as ``ordo`` writes archives (the
    lines are read twice: once to see that), else read whole. ``lines``
    gives the archive's lines each time it is called. Raises ArchiveError
    for an archive that cannot be read, ConversionError for records that
    cannot be written."""
    if archive.in_our_layout(lines(), kind):
        records: Iterator[dict[str, Any]] = archive.records_in_our_layout(lines(), source, kind)
    else:
        doc = archive.load("\n".join(lines()), source, kind)
        if not doc["records"]:
            raise ConversionError(no_record(source, archive=True))
        records = iter(doc["records"])
    chunks = _ord_chunks(records)
    try:
        if target_kind == "ord":
            yield from canonical_pieces(chunks, source)
        else:
            yield from archive_pieces(chunks, source, target_kind, with_results)
    except RecordErrors as error:  # places in the .ord text are no places in the archive
        raise ConversionError(
            [
                d
                if d.code == "E004"
                else _misplaced_in_archive(d, source)
                if d.code == "E209"
                else _not_ord(d, source)
                for d in error.diagnostics
            ]
        ) from None


def _ord_chunks(records: Iterable[dict[str, Any]]) -> Iterator[tuple[int, str]]:
    """The canonical .ord text of archived records, as ``(first line, text)``
    chunks of one file."""
    line = 1
    for record in records:
        text = record_text(record)
        yield line, text
        line += text.count("\n") + 1  # and the blank line between records


class RecordErrors(ConversionError):
    """Errors found while an archive was written a record at a time; ``texts``
    holds the first line and the text of each record they are about (by its
    number), to show their lines."""

    texts: dict[int, tuple[int, str]]


class _Problems:
    """The errors met while records are written one at a time, and the text
    of each record they are about; ``done`` raises them all, if any."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.texts: dict[int, tuple[int, str]] = {}

    def done(self) -> None:
        if self.diagnostics:
            error = RecordErrors(self.diagnostics)
            error.texts = self.texts
            raise error


def _writable(
    chunks: Iterable[tuple[int, str]], source: str, problems: _Problems
) -> Iterator[Record]:
    """The records of the chunks that can be written, up to the first problem
    (syntax errors and elements out of place are noted for every record)."""
    count = 0
    for item in parse_chunks(chunks, source):
        count += 1
        if isinstance(item, Unparsed):
            problems.diagnostics += item.diagnostics
            problems.texts[item.index] = (item.first_line, item.text)
            continue
        out_of_place = misplaced(item)
        if out_of_place:
            problems.diagnostics += out_of_place
            problems.texts[item.index] = (item.span.line if item.span else 1, item.text)
        elif not problems.diagnostics:
            yield item
    if not count:
        problems.diagnostics.append(no_record(source))


def _unread(record: Record, source: str) -> Diagnostic:
    return Diagnostic(
        "E004",
        f"record {record.index} does not read back the same; nothing written",
        source,
        help=_BUG,
    )


def archive_pieces(
    chunks: Iterable[tuple[int, str]], source: str, kind: str, with_results: bool = False
) -> Iterator[str]:
    """The YAML or JSON archive (``kind``) of the records of .ord text given as
    ``(first line, text)`` chunks (``notation.cutting.split_lines``), a record
    at a time: the same text as ``convert`` gives, in flat memory. Each
    record's piece is read back and compared before it is given. After the
    first record that cannot be archived nothing more is given, the rest is
    still read for its errors, and RecordErrors carries them all."""
    problems = _Problems()
    head = archive.YAML_HEAD if kind == "yaml" else archive.JSON_HEAD
    first = True
    for item in _writable(chunks, source, problems):
        entry = plain(item)
        written = dict(entry)
        if with_results:  # diagnostics placed in the canonical text the archive stands for
            again = parse_record(record_text(entry), 1, source, item.index)
            assert again is not None
            written["results"] = archive.results(validate(again))
        if kind == "yaml":
            body = archive.yaml_record(written)
        else:
            body = archive.json_record(written, first)
        # an archive refuses what no archive can hold (E003, as reading it would)
        if archive.read_back(body, kind, source) != entry:
            problems.diagnostics.append(_unread(item, source))
            continue
        yield head + body if first else body
        first = False
    problems.done()
    if kind == "json":
        yield archive.JSON_TAIL


def canonical_pieces(chunks: Iterable[tuple[int, str]], source: str) -> Iterator[str]:
    """The canonical text of .ord text given as ``(first line, text)`` chunks,
    a record at a time: the same text as ``canonical`` gives, in flat memory.
    Each piece is read back before it is given: alone it is its own canonical
    form, and after the piece before it, it starts a record where it starts.
    Errors as ``archive_pieces``."""
    problems = _Problems()
    previous: str | None = None  # the last piece given
    for item in _writable(chunks, source, problems):
        piece = format_record(item)
        if not _reads_back(piece, previous, source, item.text == piece):
            problems.diagnostics.append(_unread(item, source))
            continue
        yield piece if previous is None else "\n" + piece
        previous = piece
    problems.done()


def _reads_back(piece: str, previous: str | None, source: str, read: bool) -> bool:
    """Whether a record's canonical text reads as that record again, and,
    written after the one before it, is cut from it where it starts.
    ``read``: the piece is the very text the record was read from (already
    canonical), so it reads as the record: only the cut is to be seen."""
    text = line_ends(piece if previous is None else previous + "\n" + piece)
    chunks = [chunk for chunk in split_records(text) if chunk[1].strip()]
    start = 1 if previous is None else previous.count("\n") + 2
    if len(chunks) != (1 if previous is None else 2) or chunks[-1][0] != start:
        return False
    if read:
        return True
    again = parse_record(chunks[-1][1], start, source, 1)
    return isinstance(again, Record) and format_record(again) == piece


def _misplaced_in_archive(diagnostic: Diagnostic, source: str) -> Diagnostic:
    where = f"records[{diagnostic.record - 1}]" if diagnostic.record else "a record"
    message = f"{where}: {diagnostic.message}; an element out of place is not moved"
    return Diagnostic("E209", message, source, help=diagnostic.help)


def _not_ord(diagnostic: Diagnostic, source: str) -> Diagnostic:
    message = f"the archive's records do not read as .ord: {diagnostic.message}"
    return Diagnostic("E004", message, source, help=_BUG)


_BUG = "this is a bug in ordo: please report it with the file; the input is left as it was"
