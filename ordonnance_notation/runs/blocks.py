"""Inputs cut into blocks of whole records: the unit of work of every run.

A file is cut where ``split_lines`` would start a record, about 64 KB at a
time; a block goes to a worker as one string. An input that cannot be read
(further) is its ``InputError``, in its place in the stream of blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Protocol

from ..diagnostics import InputError, SourceError, UnreadableSource, no_record, record_too_long
from ..files.sources import MAX_RECORD, open_source, source_name
from ..notation.cutting import can_cut, last_cut, split_lines


def input_blocks(
    inputs: Iterable[str | UnreadableSource],
    tally: Counted | None = None,
    opener: Callable[[str], Lines] = open_source,
) -> Iterator[Block | InputError]:
    """The blocks of every input in turn (``blocks``), each input that cannot
    be read as its problem in its place; ``tally`` counts the files opened,
    ``opener`` opens them (a command that reads standard input twice keeps it).
    With several jobs this runs on the pool's feeding thread: it only yields."""
    for file, path in enumerate(inputs):
        try:
            if isinstance(path, InputError):
                raise path
            source = opener(path)
        except InputError as problem:
            yield problem
            continue
        if tally is not None:
            tally.files += 1
        yield from blocks(source, file)


def by_record(blocks: Iterable[Block | InputError]) -> Iterator[Block | InputError]:
    """Each block cut into blocks of one record (``split_lines``, as the block
    would be read): the unit of work where a record takes seconds (best
    play, a judgement), so that each is written as soon as it is done."""
    for block in blocks:
        if isinstance(block, InputError) or block.one_record:
            yield block
            continue
        lines = block.text.split("\n")
        for first_line, record in split_lines(lines, block.first_line, block.source):
            if record.strip():
                yield Block(block.file, block.source, first_line, record, one_record=True)


class Counted(Protocol):
    files: int


def unseen(inputs: Iterable[str | UnreadableSource], seen: set[str]) -> Iterator[InputError]:
    """E105 for each input read that is not among the sources ``seen`` to hold a
    record or a problem: a readable file without a record."""
    for path in inputs:
        if isinstance(path, str) and source_name(path) not in seen:
            yield InputError(no_record(source_name(path)))


@dataclass(frozen=True, slots=True)
class Block:
    """Lines of one input holding whole records, joined by LF, from its line
    ``first_line`` (one string: it goes to a worker far faster than a list of
    lines). ``file`` counts inputs from 0: records are numbered within each."""

    file: int
    source: str
    first_line: int
    text: str
    one_record: bool = False  # the text is one record already split off: not split again


class Lines(Protocol):
    """An input read a list of lines at a time: a ``LineSource``, or a ``Source`` held whole."""

    @property
    def name(self) -> str: ...

    def blocks(self) -> Iterator[list[str]]: ...


def blocks(source: Lines, file: int = 0) -> Iterator[Block | InputError]:
    """``source`` as blocks of whole records, cut where ``split_lines`` would
    start a record (``last_cut``, which follows the cutting's table from the
    body line above a header). That can be told only while no ``{`` comment
    can be open: the first ``{`` sends the rest of the file a record at a
    time. A byte that is not UTF-8 ends the file with its ``SourceError``,
    in its place."""
    pending: list[str] = []  # the text after the last cut, in pieces of whole lines
    held = 0  # characters in pending
    first = 1  # the line number of its first line
    above = ""  # the kind of the last tag or body line read ("tag" or "body")
    read = source.blocks()
    try:
        for lines in read:
            text = "\n".join(lines)
            if not can_cut(text):
                rest = _lines(pending) + lines
                pending = []
                for first_line, record in split_lines(
                    chain(rest, chain.from_iterable(read)), first, source.name, MAX_RECORD
                ):
                    if record.strip():
                        yield Block(file, source.name, first_line, record, one_record=True)
                return
            at, above = last_cut(text, above)
            if at is None:
                pending.append(text)
                held += len(text)
                if held > MAX_RECORD:
                    raise SourceError(record_too_long(source.name, first, MAX_RECORD))
                continue
            whole = "\n".join([*pending, text[:at]])
            yield Block(file, source.name, first, whole)
            first += whole.count("\n") + 1
            pending = [text[at + 1 :]]
            held = len(pending[0])
        if pending:
            yield Block(file, source.name, first, "\n".join(pending))
    except SourceError as problem:
        # as when reading line by line: the records completed before the bad
        # byte (or the record too long) are checked, the one it interrupts is not
        complete = []
        try:
            for chunk in split_lines(
                _then_raise(_lines(pending), problem), first, source.name, MAX_RECORD
            ):
                complete.append(chunk)
        except SourceError as found:  # the same, or where the record too long starts
            problem = found
        for first_line, record in complete:
            if record.strip():
                yield Block(file, source.name, first_line, record, one_record=True)
        yield problem


def _lines(pending: list[str]) -> list[str]:
    return "\n".join(pending).split("\n") if pending else []


def _then_raise(lines: list[str], problem: SourceError) -> Iterator[str]:
    """``lines``, then ``problem`` raised, as reading the file line by line does."""
    yield from lines
    raise problem


def block_chunks(block: Block) -> Iterable[tuple[int, str]]:
    """The records of a block as ``(first line, text)`` chunks, as
    ``split_lines`` cuts the whole file (blank ones included)."""
    if block.one_record:
        return [(block.first_line, block.text)]
    return split_lines(block.text.split("\n"), block.first_line)
