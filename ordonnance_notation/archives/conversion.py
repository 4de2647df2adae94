"""Canonical formatting and conversion between .ord, YAML and JSON, as library
calls. Each returns the new text or raises ConversionError carrying every
diagnostic; nothing here touches a file. A result is always parsed back and
compared before it is returned: this module never hands out text it could not
read again. Records the compiled core accepts are the exception, and only
where the answer is the same text by construction: a record already in the
canonical form, a record's piece of an archive written from what the core
found of it (``elements``: the same writers, held to the Python path's
output byte for byte by tests/test_conversion.py), and a record read back
from an archive, which is taken only when its piece holds exactly the plain
form of a record whose text the core accepts as canonical
(``elements.ord_texts``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import chain, islice, zip_longest
from pathlib import Path
from typing import Any

from ..checking.deal import play_in_pile
from ..checking.parts import misplaced
from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..checking.validator import validate
from ..diagnostics import ArchiveError, ConversionError, Diagnostic, InputError, no_record
from ..files.sources import (
    MAX_HELD,
    MAX_LINE,
    MAX_RECORD,
    STDIN,
    Source,
    expand,
    line_ends,
    open_source,
    read_source,
    source_name,
)
from ..notation.cutting import split_records
from ..notation.parser import parse_chunks, parse_record
from ..notation.record import Pile, Record, Unparsed
from ..notation.writer import format_record, plain
from ..notation.writer import text as record_text
from ..runs.blocks import Block, Lines, block_chunks, blocks
from ..runs.workers import Workers
from . import document as archive
from . import elements

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
    workers: Workers = field(default_factory=lambda: Workers(1), compare=False)

    def pieces(self) -> Iterator[str]:
        return canonical_of(self.held or open_source(self.name), self.workers)

    def differs(self) -> bool:
        if self.held is not None:
            return "".join(self.pieces()) != self.held.text
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
    sources: Sequence[str | None], output: str | None, given_from: str | None, given_to: str | None
) -> tuple[list[str], str]:
    """The kind of each input and of the output: as given, else from the
    files' names (None for standard input or output), else ``ord`` in, and
    ``yaml`` out of .ord text alone, ``ord`` out of archives."""
    source_kinds = [given_from or (kind_of(s) if s else None) or "ord" for s in sources]
    target_kind = given_to or (kind_of(output) if output else None)
    only_ord = all(kind == "ord" for kind in source_kinds)
    return source_kinds, target_kind or ("yaml" if only_ord else "ord")


def _regular(path: str) -> bool:
    """Whether ``path`` is a regular file (read as it goes); one that cannot
    even be looked at (a folder without search permission) is not, and is
    read whole, which says why it cannot be (E001)."""
    try:
        return Path(path).is_file()
    except OSError:
        return False


def format_paths(
    paths: Iterable[str], workers: Workers | None = None
) -> Iterator[Formatted | InputError]:
    """Every file of ``paths`` to format (directories: the ``*.ord`` below),
    to be formatted on ``workers`` (default: this process); an
    ``InputError`` in the place of one that cannot be read."""
    workers = workers or Workers(1)
    for path in expand(paths):
        if isinstance(path, InputError):
            yield path
        elif path == STDIN or not _regular(path):  # read once: held
            try:
                yield Formatted(source_name(path), read_source(path), workers)
            except InputError as problem:
                yield problem
        else:
            yield Formatted(path, workers=workers)


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
    given = Input(
        source,
        kind,
        line_blocks=lambda: iter([list(lines())]),
        texts=lambda: iter(["\n".join(lines())]),
    )
    return converted([given], target_kind, with_results=with_results)


@dataclass(frozen=True, slots=True)
class Input:
    """One input to ``converted``: its name, its kind, and its text as
    blocks of lines (``line_blocks``) and as blocks of text (``texts``),
    each time one is called (an archive is read twice), or, for .ord text,
    as ``source`` to read a block at a time."""

    name: str
    kind: str
    source: Lines | None = None
    line_blocks: Callable[[], Iterator[list[str]]] | None = None
    texts: Callable[[], Iterator[str]] | None = None  # the same text, a block at a time

    def lines(self) -> Iterator[str]:
        assert self.line_blocks is not None
        return chain.from_iterable(self.line_blocks())


class Inputs:
    """The inputs of ``ordo convert``, each a path and its kind, opened when
    its turn comes; standard input, or a pipe, is read once and held (raises
    InputError when it cannot be). An archive is read a line at a time (one
    laid out otherwise, such as minified JSON, may be one long line: read
    whole)."""

    def __init__(self, sources: Sequence[tuple[str, str]]) -> None:
        self.sources = list(sources)
        self.held: dict[str, Source] = {}
        for path, _kind in self.sources:
            if path == STDIN or not _regular(path):
                self.held[path] = read_source(path)
        self.named = {source_name(path): path for path, _kind in self.sources}

    def __iter__(self) -> Iterator[Input]:
        for path, kind in self.sources:
            if kind == "ord":
                yield Input(source_name(path), kind, self.held.get(path) or open_source(path))
            else:
                yield Input(
                    source_name(path),
                    kind,
                    line_blocks=partial(self._blocks, path),
                    texts=partial(self._texts, path),
                )

    def _blocks(self, path: str) -> Iterator[list[str]]:
        if path in self.held:
            return iter([self.held[path].text.split("\n")])
        return open_source(path, longest=MAX_HELD).blocks()

    def _texts(self, path: str) -> Iterator[str]:
        if path in self.held:
            return iter([self.held[path].text])
        return open_source(path, longest=MAX_HELD).texts()

    def _lines(self, path: str) -> Iterator[str]:
        return chain.from_iterable(self._blocks(path))

    def line(self, source: str, number: int) -> str | None:
        """Line ``number`` of the input named ``source`` in messages, if there is one."""
        path = self.named.get(source)
        return None if path is None else next(islice(self._lines(path), number - 1, None), None)


def converted(
    inputs: Iterable[Input],
    target_kind: str,
    workers: Workers | None = None,
    with_results: bool = False,
) -> Iterator[str]:
    """The records of every input, in order, as one text of ``target_kind``:
    one archive document, or .ord text. .ord inputs are read on ``workers``
    a block at a time. Nothing is given after the first record that cannot
    be written; the other inputs are still read for their errors, and
    RecordErrors carries them all (ArchiveError for an archive that cannot be
    read at all, InputError at a byte that is not UTF-8)."""
    workers = workers or Workers(1)
    written = chain.from_iterable(
        _or_none(_written_of(i, target_kind, workers, with_results), i) for i in inputs
    )
    if target_kind == "ord":
        return _canonical_text(written)
    return _archive_text(written, target_kind)


def _written_of(
    given: Input, target_kind: str, workers: Workers, with_results: bool
) -> Iterator[Written]:
    """The records of one input written in ``target_kind``, read back."""
    if given.kind == "ord":
        assert given.source is not None
        if target_kind == "ord":
            done = workers.map(canonical_block, blocks(given.source))
        else:
            archived = partial(archive_block, kind=target_kind, with_results=with_results)
            done = workers.map(archived, blocks(given.source))
        yield from _in_place(done)
        return
    assert given.line_blocks is not None
    source = given.name
    quickly = None
    if target_kind == "ord" and not with_results and given.texts is not None:
        quickly = archive.records_quickly(given.texts, source, given.kind)
    records: Iterator[dict[str, Any] | str]
    if quickly is not None:
        records = quickly
    elif archive.in_our_layout(given.lines(), given.kind):
        records = archive.records_in_our_layout(given.lines(), source, given.kind)
    else:
        doc = archive.load("\n".join(given.lines()), source, given.kind)
        records = iter(doc["records"])
    items = _ord_items(records, source)
    if target_kind == "ord":
        written = _formatted(items, source)
    else:
        written = _archived(items, source, target_kind, with_results)
    for record in written:  # places in the .ord text are no places in the archive
        placed = _in_archive(record.diagnostics, source) if record.diagnostics else ()
        yield replace(record, diagnostics=placed) if placed else record


def _in_archive(diagnostics: Iterable[Diagnostic], source: str) -> tuple[Diagnostic, ...]:
    return tuple(
        d
        if d.code in ("E004", "E007")
        else _misplaced_in_archive(d, source)
        if d.code == "E209"
        else _not_ord(d, source)
        for d in diagnostics
    )


def _or_none(written: Iterator[Written], given: Input) -> Iterator[Written]:
    """``written``, or an E105 in its place when the input holds no record."""
    empty = True
    for record in written:
        empty = False
        yield record
    if empty:
        none = no_record(given.name, archive=given.kind != "ord")
        yield Written(diagnostics=(none,), source=given.name)


def _ord_items(
    records: Iterable[dict[str, Any] | str], source: str
) -> Iterator[Record | Unparsed | str]:
    """Archived records parsed from their canonical .ord text, as the
    records of one file (``parse_chunks``), placed and numbered there; the
    .ord text of a record the compiled core read back already (a str) as it
    is."""
    line = 1
    index = 0  # the records given, as parse_chunks numbers them
    for place, record in enumerate(records):
        text = record if isinstance(record, str) else record_text(record)
        beyond = _beyond_limits(text, place, index + 1, source)
        if beyond is not None:  # neither parsed (a long line costs 180 times) nor written
            index += 1
            yield Unparsed(source, index, "", line, (beyond,))
        elif isinstance(record, str):
            index += 1
            yield record
        elif text.strip():
            parsed = parse_record(text, line, source, index + 1)
            if parsed is not None:
                index += 1
                yield parsed
        line += text.count("\n") + 1  # and the blank line between records


class RecordErrors(ConversionError):
    """Errors found while an archive was written a record at a time; ``texts``
    holds the first line and the text of each record they are about (by its
    input and number there), to show their lines."""

    texts: dict[tuple[str, int], tuple[int, str]]


@dataclass(frozen=True, slots=True)
class Written:
    """One record written in the new form, small enough to send between
    processes: its ``piece`` of the new text and whether that reads back as
    the record, or the errors that keep it from being written (syntax, an
    element out of place) with its first line and text to quote, or what an
    archive refuses in it (``refused``, E003). Its number is its place among
    the records of its input (``_Problems.take``)."""

    piece: str = ""
    source: str = ""  # the input's name
    reads_back: bool = True
    cut: bool | None = None  # (.ord) cut from the piece before it in its block; None: none there
    diagnostics: tuple[Diagnostic, ...] = ()
    text: tuple[int, str] = (1, "")
    refused: ArchiveError | None = None


class _Problems:
    """The errors met while records are written one at a time, and the text
    of each record they are about; ``take`` numbers the records within each
    input, ``done`` raises them all, if any."""

    def __init__(self) -> None:
        self.source = ""
        self.records = 0  # within the input being read
        self.diagnostics: list[Diagnostic] = []
        self.texts: dict[tuple[str, int], tuple[int, str]] = {}

    def take(self, written: Iterable[Written]) -> Iterator[Written]:
        """The records that are to be written, up to the first problem: the
        errors of every record are noted, a record that does not read back
        after the others is E004, and an archive's refusal is raised in place."""
        for record in written:
            if record.source != self.source:
                self.source, self.records = record.source, 0
            self.records += 1
            if record.diagnostics:
                index = self.records  # the worker numbered it within its block
                self.diagnostics += [
                    d if d.record is None else replace(d, record=index) for d in record.diagnostics
                ]
                self.texts[record.source, index] = record.text
            elif not self.diagnostics:
                if record.refused is not None:
                    raise record.refused
                yield record

    def unread(self) -> None:
        self.diagnostics.append(
            Diagnostic(
                "E004",
                f"record {self.records} does not read back the same; nothing written",
                self.source,
                help=_BUG,
            )
        )

    def done(self) -> None:
        if self.diagnostics:
            error = RecordErrors(self.diagnostics)
            error.texts = self.texts
            raise error


def _not_writable(item: Record | Unparsed) -> Written | None:
    """The errors that keep a record from being written (syntax errors,
    elements out of place, a first play read as the pile's last cards), or None."""
    if isinstance(item, Unparsed):
        text = (item.first_line, item.text)
        return Written(source=item.source, diagnostics=tuple(item.diagnostics), text=text)
    out_of_place = misplaced(item) + _plays_in_pile(item)
    if out_of_place:
        first_line = item.span.line if item.span else 1
        return Written(
            source=item.source, diagnostics=tuple(out_of_place), text=(first_line, item.text)
        )
    return None


def _plays_in_pile(record: Record) -> list[Diagnostic]:
    """A first play written below the pile without its number: read as the
    pile's last cards, which the canonical layout would join to the pile."""
    piles = [element for element in record.elements if isinstance(element, Pile)]
    said = play_in_pile(record, piles[0]) if piles else None
    return [] if said is None else [said]


def _archived(
    items: Iterable[Record | Unparsed | str], source: str, kind: str, with_results: bool
) -> Iterator[Written]:
    """Each record as a piece of a YAML or JSON archive (``kind``), read back
    and compared (the per-record work of ``archive_pieces``); a piece
    written from what the compiled core found (``archive_block``) as it is."""
    for item in items:
        if isinstance(item, str):
            yield Written(item, source)
            continue
        stopped = _not_writable(item)
        if stopped is not None:
            yield stopped
            continue
        assert isinstance(item, Record)
        entry = plain(item)
        written = dict(entry)
        if with_results:  # diagnostics placed in the canonical text the archive stands for
            again = parse_record(record_text(entry), 1, source, item.index)
            assert again is not None
            written["results"] = archive.results(validate(again))
        body = (
            archive.yaml_record(written) if kind == "yaml" else archive.json_record(written, True)
        )
        try:
            # an archive refuses what no archive can hold (E003, as reading it would)
            yield Written(body, source, archive.read_back(body, kind, source) == entry)
        except ArchiveError as refused:
            yield Written(source=source, refused=refused)


def _archive_text(written: Iterable[Written], kind: str) -> Iterator[str]:
    """The archive of records written by ``_archived``, in order: its head,
    the pieces and its tail (the sequential part of ``archive_pieces``)."""
    problems = _Problems()
    head = archive.YAML_HEAD if kind == "yaml" else archive.JSON_HEAD
    between = "" if kind == "yaml" else ",\n"
    first = True
    for record in problems.take(written):
        if not record.reads_back:
            problems.unread()
            continue
        yield (head if first else between) + record.piece
        first = False
    problems.done()
    if kind == "json":
        yield archive.JSON_TAIL


def archive_pieces(
    chunks: Iterable[tuple[int, str]], source: str, kind: str, with_results: bool = False
) -> Iterator[str]:
    """The YAML or JSON archive (``kind``) of the records of .ord text given as
    ``(first line, text)`` chunks (``notation.cutting.split_lines``), a record
    at a time: the same text as ``convert`` gives, in flat memory. Each
    record's piece is read back and compared before it is given. After the
    first record that cannot be archived nothing more is given, the rest is
    still read for its errors, and RecordErrors carries them all."""
    records = _archived(parse_chunks(chunks, source), source, kind, with_results)
    return _archive_text(_or_none(records, Input(source, "ord")), kind)


def archive_block(
    block: Block, kind: str, with_results: bool = False
) -> list[Written] | InputError:
    """The records of one block written for ``archive_of`` (on a worker):
    those the compiled core accepts written plainly, from what it found
    (``elements``); the others parsed and written."""
    found = (
        None if with_results or block.one_record else replayed_block(block.first_line, block.text)
    )
    if found is None:
        items: Iterable[Record | Unparsed | str] = parse_chunks(block_chunks(block), block.source)
    else:
        items = _parsed_where_declined(_archive_pieces(found, kind), block.source)
    return list(_archived(items, block.source, kind, with_results))


def _archive_pieces(
    found: Iterable[Replayed | tuple[int, str]], kind: str
) -> Iterator[str | tuple[int, str]]:
    """The piece of each record the core accepted, where it is written
    plainly (and, in YAML, laid out without libyaml); each other record's
    first line and text, to parse."""
    for item in found:
        if isinstance(item, Replayed):
            plainly = elements.elements_of(item)
            piece = (
                None
                if plainly is None
                else elements.yaml_piece(plainly)
                if kind == "yaml"
                else elements.json_piece(plainly)
            )
            yield (item.first_line, item.text) if piece is None else piece
        else:
            yield item


def _parsed_where_declined(
    found: Iterable[str | tuple[int, str]], source: str
) -> Iterator[str | Record | Unparsed]:
    """What was written of each record the core accepted as it is, each other
    parsed, numbered within the block as ``parse_chunks`` numbers them (the
    core cuts no record of comments alone)."""
    for index, item in enumerate(found, 1):
        if isinstance(item, str):
            yield item
        else:
            parsed = parse_record(item[1], item[0], source, index)
            if parsed is not None:
                yield parsed


def archive_of(
    source: Lines, kind: str, workers: Workers, with_results: bool = False
) -> Iterator[str]:
    """``archive_pieces`` of a whole input, its records written on ``workers``
    a block at a time. Raises RecordErrors, and InputError at a byte that
    is not UTF-8 (after the records before it)."""
    return converted([Input(source.name, "ord", source)], kind, workers, with_results)


def _in_place(done: Iterable[list[Written] | InputError]) -> Iterator[Written]:
    """The records of blocks in order; a block's problem raised in its place."""
    for records in done:
        if isinstance(records, InputError):
            raise records
        yield from records


def _formatted(items: Iterable[Record | Unparsed | str], source: str) -> Iterator[Written]:
    """Each record's canonical text, read back: alone it is its own canonical
    form, and after the piece before it (when there is one here) it starts a
    record where it starts (the per-record work of ``canonical_pieces``)."""
    previous: str | None = None  # the piece before, if it could be written
    core = False  # whether it was canonical as the compiled core read it
    for item in items:
        if isinstance(item, str):  # canonical already (canonical_block)
            # two records the core accepted, one after the other, are cut
            # between them as the core cut them (held to split_lines)
            cut = None if previous is None else core or _cut_where_it_starts(item, previous)
            yield Written(item, source, True, cut)
            previous, core = item, True
            continue
        core = False
        stopped = _not_writable(item)
        if stopped is not None:
            previous = None
            yield stopped
            continue
        assert isinstance(item, Record)
        piece = format_record(item)
        reads_back = item.text == piece or _reads_back(piece, source)
        cut = None if previous is None else _cut_where_it_starts(piece, previous)
        yield Written(piece, source, reads_back, cut)
        previous = piece


def _canonical_text(written: Iterable[Written]) -> Iterator[str]:
    """The canonical text of records formatted by ``_formatted``, in order,
    each cut from the one before where it starts (the sequential part of
    ``canonical_pieces``: across blocks and inputs, only here can it be seen)."""
    problems = _Problems()
    previous: str | None = None  # the last piece given
    for record in problems.take(written):
        cut = record.cut
        if cut is None:
            cut = _cut_where_it_starts(record.piece, previous)
        if not (record.reads_back and cut):
            problems.unread()
            continue
        yield record.piece if previous is None else "\n" + record.piece
        previous = record.piece
    problems.done()


def canonical_pieces(chunks: Iterable[tuple[int, str]], source: str) -> Iterator[str]:
    """The canonical text of .ord text given as ``(first line, text)`` chunks,
    a record at a time: the same text as ``canonical`` gives, in flat memory.
    Each piece is read back before it is given: alone it is its own canonical
    form, and after the piece before it, it starts a record where it starts.
    Errors as ``archive_pieces``."""
    formatted = _formatted(parse_chunks(chunks, source), source)
    return _canonical_text(_or_none(formatted, Input(source, "ord")))


def canonical_block(block: Block) -> list[Written] | InputError:
    """The records of one block formatted for ``canonical_of`` (on a worker):
    those the compiled core accepts and finds canonical already as they are
    (``elements.canonical``), the others parsed and formatted."""
    found = None if block.one_record else replayed_block(block.first_line, block.text)
    if found is None:
        return list(_formatted(parse_chunks(block_chunks(block), block.source), block.source))
    return list(_formatted(_parsed_where_declined(_canonical(found), block.source), block.source))


def _canonical(found: Iterable[Replayed | tuple[int, str]]) -> Iterator[str | tuple[int, str]]:
    """The canonical text of each record the core accepted that is written
    so already; each other record's first line and text, to parse."""
    for item in found:
        if isinstance(item, Replayed):
            text = elements.canonical(item)
            yield (item.first_line, item.text) if text is None else text
        else:
            yield item


def canonical_of(source: Lines, workers: Workers) -> Iterator[str]:
    """``canonical_pieces`` of a whole input, its records formatted on
    ``workers`` a block at a time. Errors as ``archive_of``."""
    return converted([Input(source.name, "ord", source)], "ord", workers)


def _reads_back(piece: str, source: str) -> bool:
    """Whether a record's canonical text reads as a record of that canonical text."""
    again = parse_record(piece, 1, source, 1)
    return isinstance(again, Record) and format_record(again) == piece


def _cut_where_it_starts(piece: str, previous: str | None) -> bool:
    """Whether a record's canonical text, alone or written after the piece
    before it, is one record that starts where it starts."""
    text = line_ends(piece if previous is None else previous + "\n" + piece)
    chunks = [chunk for chunk in split_records(text) if chunk[1].strip()]
    start = 1 if previous is None else previous.count("\n") + 2
    return len(chunks) == (1 if previous is None else 2) and chunks[-1][0] == start


def _misplaced_in_archive(diagnostic: Diagnostic, source: str) -> Diagnostic:
    where = f"records[{diagnostic.record - 1}]" if diagnostic.record else "a record"
    message = f"{where}: {diagnostic.message}; an element out of place is not moved"
    return Diagnostic("E209", message, source, help=diagnostic.help)


def _beyond_limits(text: str, place: int, index: int, source: str) -> Diagnostic | None:
    """E007 for the record at ``place`` in an archive (the ``index``-th
    given) whose .ord ``text`` the readers of .ord would refuse, counted as
    they count: a line of more than ``MAX_LINE`` bytes, or a record of more
    than ``MAX_RECORD`` characters besides its line ends; else None."""
    if len(text) <= MAX_LINE // 4:  # no line can be longer, whatever its characters
        return None
    longest = max(len(line.encode()) for line in text.split("\n"))
    size = len(text) - text.count("\n")
    if longest <= MAX_LINE and size <= MAX_RECORD:
        return None
    what = (
        f"a line of {longest:,} bytes, past the {MAX_LINE >> 20} MB a line may be"
        if longest > MAX_LINE
        else f"{size:,} characters, past the {MAX_RECORD >> 20} MB a record may be"
    )
    return Diagnostic(
        "E007",
        f"records[{place}] would be written as .ord with {what}: not written",
        source,
        record=index,
        help="shorten the long tag value or comment in the archive (ordo reads no longer ones)",
    )


def _not_ord(diagnostic: Diagnostic, source: str) -> Diagnostic:
    message = f"the archive's records do not read as .ord: {diagnostic.message}"
    return Diagnostic("E004", message, source, help=_BUG)


_BUG = "this is a bug in ordo: please report it with the file; the input is left as it was"
