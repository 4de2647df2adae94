"""Text to records: split a file into records, then read each one.

A file is split into records first, so a syntax error in one record is
reported as an ``Unparsed`` item and the following records are still read.
Each record is read by the line scanner (``scanner.py``) when it is written an
element a line, as the canonical printer writes it, and otherwise by the Lark
grammar (``lark_reader.py``), which builds the same records and words every
syntax error. Lark is imported only when a record needs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .cutting import split_lines, split_records
from .record import Record, Unparsed
from .scanner import scan_record

ParsedItem = Record | Unparsed


def parse_text(text: str, source: str = "<text>", fast: bool = True) -> Iterator[ParsedItem]:
    """Every record of ``text``, in order: a ``Record``, or an ``Unparsed`` with
    its syntax diagnostic. ``fast`` uses lark-cython when it is installed.
    Never raises for bad input."""
    return parse_chunks(split_records(text), source, fast)


def parse_lines(
    lines: Iterable[str], source: str, longest: int | None = None
) -> Iterator[ParsedItem]:
    """Every record of a file read a line at a time (lines without their
    ends): only the current record is held, of ``longest`` characters at most
    (SourceError, E007, beyond)."""
    return parse_chunks(split_lines(lines, 1, source, longest), source)


def parse_chunks(
    chunks: Iterable[tuple[int, str]], source: str, fast: bool = True
) -> Iterator[ParsedItem]:
    """Records from ``(first line, text)`` chunks as ``split_lines`` yields them."""
    index = 0
    for first_line, chunk in chunks:
        if not chunk.strip():
            continue
        item = parse_record(chunk, first_line, source, index + 1, fast)
        if item is not None:
            index += 1
            yield item


def parse_record(
    chunk: str, first_line: int, source: str, index: int, fast: bool = True
) -> ParsedItem | None:
    """One record's text, starting at ``first_line`` of ``source``; None when it
    holds only comments. ``fast`` tries the line scanner first and lets Lark use
    lark-cython; ``fast=False`` reads with pure-Python Lark alone (the reference)."""
    if fast:
        record = scan_record(chunk, first_line, source, index)
        if record is not None:
            return record
    from .lark_reader import read_record

    return read_record(chunk, first_line, source, index, fast)
