"""Records from files and archives, one at a time, and their replays."""

from __future__ import annotations

from collections.abc import Iterator
from os import PathLike, fspath

from ..archives.conversion import from_archive, kind_of
from ..checking.report import Report
from ..checking.validator import validate
from ..diagnostics import InputError, InvalidRecord, no_record
from ..files.sources import MAX_RECORD, open_source, read_source
from ..notation.parser import parse_chunks, parse_lines, parse_text
from ..notation.record import Record, Unparsed
from ..views.replay import Replay


def read_records(path: str | PathLike[str]) -> Iterator[Record | Unparsed]:
    """Every record of a ``.ord`` file, a YAML or JSON archive (by its
    extension) or standard input (``"-"``, read as .ord text), in order and
    a record at a time: an archive of any size is never held whole. A
    record that cannot be read is an ``Unparsed`` with its diagnostics, in
    its place; nothing is invented after it. Raises UnreadableSource when the
    file cannot be opened, SourceError at a byte that is not UTF-8 (after
    the records before it), ArchiveError for an archive that cannot be read
    and ConversionError for a record an archive holds that cannot be
    written as text."""
    name = fspath(path)
    kind = kind_of(name) if name != "-" else "ord"
    if kind in ("yaml", "json"):
        return _archived(name, kind)
    return _ord_records(name)


def _ord_records(name: str) -> Iterator[Record | Unparsed]:
    source = open_source(name)
    with source.stream:
        yield from parse_lines(source.lines(), source.name, MAX_RECORD)


def _archived(name: str, kind: str) -> Iterator[Record | Unparsed]:
    def lines() -> Iterator[str]:
        source = open_source(name)
        with source.stream:
            yield from source.lines()

    yield from parse_chunks(((1, piece) for piece in from_archive(lines, name, kind, "ord")), name)


def read_record(path: str | PathLike[str]) -> Record:
    """The first record of a file or archive (``read_records``). Raises
    InvalidRecord, with its diagnostics, when it cannot be read; InputError
    (E105) when the file holds no record; and what ``read_records`` raises."""
    for item in read_records(path):
        if isinstance(item, Unparsed):
            raise InvalidRecord(item.diagnostics)
        return item
    raise InputError(no_record(fspath(path)))


def replay(item: Record | Unparsed | Report | str | PathLike[str]) -> Replay:
    """A record replayed under the rules, a ``Position`` after each ply
    (``replay(record)[12]``); given a path, its first record's. Raises
    InvalidRecord, carrying the errors, when the rules cannot start (the
    record cannot be read, or its header or deal has errors); a record with
    an illegal play is replayed up to it (``Replay.stopped`` says why)."""
    if isinstance(item, (Record, Unparsed, Report)):
        return Replay.of(item)
    return Replay.of(read_record(item))


def parse_file(path: str | PathLike[str]) -> Iterator[Record | Unparsed]:
    """Every record of a .ord file (``"-"`` for standard input), read whole.
    Raises SourceError (not UTF-8, too large) and UnreadableSource (cannot
    be opened). ``read_records`` reads archives too, a record at a time."""
    source = read_source(fspath(path))
    return parse_text(source.text, source.name)


def validate_text(text: str, source: str = "<text>") -> list[Report]:
    """A report for each record of ``text``. Raises nothing: bad input is
    reported as diagnostics."""
    return [validate(item) for item in parse_text(text, source)]
