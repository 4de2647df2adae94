"""Text to records: split a file into records, then read each one.

A file is split into records first, so a syntax error in one record is
reported as an ``Unparsed`` item and the following records are still read.
Each record is read by the line scanner (``scanner.py``) when it is written an
element a line, as the canonical printer writes it, and otherwise by the Lark
grammar (``lark_reader.py``), which builds the same records and words every
syntax error. Lark is imported only when a record needs it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .record import Record, Unparsed
from .scanner import scan_record

ParsedItem = Record | Unparsed


_DIGITS = frozenset("0123456789")
_FULL_TAG_LINE = re.compile(
    r'[ \t]*\[[A-Za-z][A-Za-z0-9_]*[ \t]+"(?:[^"\\\n]|\\.)*"[ \t]*\][ \t]*$'
)
_SCAN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[;{}]')


def _code(line: str, in_brace: bool) -> tuple[str, bool]:
    """The part of ``line`` outside comments, and whether a ``{`` comment is
    still open at its end. Quoted values may hold ``{`` and ``;``."""
    if not in_brace and "{" not in line and ";" not in line and '"' not in line:
        return line, False
    parts = []
    pos = 0
    while pos < len(line):
        if in_brace:
            end = line.find("}", pos)
            if end < 0:
                break
            pos, in_brace = end + 1, False
            continue
        match = _SCAN.search(line, pos)
        if match is None:
            parts.append(line[pos:])
            break
        parts.append(line[pos : match.start()])
        token = match.group()
        if token == ";":
            break
        if token == "{":
            in_brace = True
        else:
            parts.append(token)
        pos = match.end()
    return "".join(parts), in_brace


def split_records(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each record of ``text`` (see ``split_lines``)."""
    return split_lines(text.split("\n"))


def split_lines(lines: Iterable[str], first_line: int = 1) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each record, from lines without their line
    ends, read one at a time: only the current record is held in memory.
    ``first_line`` is the number of the first line (when a record starts there).

    A record starts at a tag line that follows a body, or a header and a blank
    line (a header is written without blank lines inside). Comment lines just
    above that tag line (with no blank line between) open the new record. Text
    inside comments and quoted values never splits, except a whole header line
    after a body inside a ``{`` comment that is still open: that is taken for a
    forgotten ``}``."""
    held: list[str] = []  # the current record's lines so far
    first = first_line  # its first line number
    in_body = in_header = blank_after_header = in_brace = False
    comment_run = None  # index in ``held`` of the comment-only lines just above, if any
    for line in lines:
        if (
            not in_brace
            and line[:1] in _DIGITS
            and "{" not in line
            and ";" not in line
            and '"' not in line
        ):
            in_body, comment_run = True, None  # a play: the most common line of all
            in_header = blank_after_header = False
            held.append(line)
            continue
        if in_brace and in_body and _FULL_TAG_LINE.match(line):
            # A header line after a body, inside a "{" that never closed: more
            # likely a forgotten "}" than a comment quoting a header. Splitting
            # here reports the open comment (E102) and keeps the next records.
            in_brace = False
        if not in_brace and line[:1] == "[" and _FULL_TAG_LINE.match(line):
            code, brace_after = "[", False  # a header line, the most common line with a quote
        else:
            code, brace_after = _code(line, in_brace)
            code = code.strip()
        if code.startswith("["):
            if in_body or blank_after_header:
                cut = comment_run if comment_run is not None else len(held)
                yield first, "\n".join(held[:cut])
                first += cut
                held = held[cut:]
                in_body = False
            in_header, blank_after_header = True, False
            comment_run = None
        elif code:
            in_body, comment_run = True, None
            in_header = blank_after_header = False
        elif line.strip():
            if comment_run is None and not in_brace:
                comment_run = len(held)
        elif not in_brace:
            blank_after_header = in_header
            comment_run = None
        in_brace = brace_after
        held.append(line)
    rest = "\n".join(held)
    if rest.strip() or first == first_line:
        yield first, rest


def parse_text(text: str, source: str = "<text>", fast: bool = True) -> Iterator[ParsedItem]:
    """Every record of ``text``, in order: a ``Record``, or an ``Unparsed`` with
    its syntax diagnostic. ``fast`` uses lark-cython when it is installed.
    Never raises for bad input."""
    return parse_chunks(split_records(text), source, fast)


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
