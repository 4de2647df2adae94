"""Cutting text into records, before any record is read.

A file is cut into records first, so a syntax error in one record never hides
the ones after it. ``split_lines`` cuts lines read one at a time (only the
current record is held); ``last_cut`` finds the last cut in a block of lines
that holds no ``{`` comment, so that a file can be sent to workers in blocks
of whole records. Both follow one rule, stated in ``split_lines``, and build
their patterns from the grammar's terminals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from . import terminals as t

_DIGITS = frozenset("0123456789")
_TAG_LINE_BLANK = "[ \\t]"
_FULL_TAG_LINE = re.compile(
    f"{_TAG_LINE_BLANK}*\\[{t.TAG_NAME}{_TAG_LINE_BLANK}+{t.STRING}{_TAG_LINE_BLANK}*\\]{_TAG_LINE_BLANK}*$"
)
_SCAN = re.compile(
    t.UNQUOTED_STRING + "|[" + re.escape(t.LINE_OPEN + t.BRACE_OPEN + t.BRACE_CLOSE) + "]"
)
_CONTENT = re.compile("^[^\\S\\n]*[^\\s" + re.escape(t.LINE_OPEN) + "]", re.MULTILINE)


def _code(line: str, in_brace: bool) -> tuple[str, bool]:
    """The part of ``line`` outside comments, and whether a ``{`` comment is
    still open at its end. Quoted values may hold ``{`` and ``;``."""
    if (
        not in_brace
        and t.BRACE_OPEN not in line
        and t.LINE_OPEN not in line
        and t.QUOTE not in line
    ):
        return line, False
    parts = []
    pos = 0
    while pos < len(line):
        if in_brace:
            end = line.find(t.BRACE_CLOSE, pos)
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
        if token == t.LINE_OPEN:
            break
        if token == t.BRACE_OPEN:
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
            and t.BRACE_OPEN not in line
            and t.LINE_OPEN not in line
            and t.QUOTE not in line
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
        if not in_brace and line[:1] == t.TAG_OPEN and _FULL_TAG_LINE.match(line):
            code, brace_after = (
                t.TAG_OPEN,
                False,
            )  # a header line, the most common line with a quote
        else:
            code, brace_after = _code(line, in_brace)
            code = code.strip()
        if code.startswith(t.TAG_OPEN):
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


def can_cut(text: str) -> bool:
    """Whether ``last_cut`` can cut ``text``: no ``{`` comment can be open in it."""
    return t.BRACE_OPEN not in text


def has_content(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``text[start:end]`` holds a tag or body line (a line that is
    neither blank nor a ``;`` comment), when it holds no ``{`` comment."""
    return _CONTENT.search(text, start, len(text) if end is None else end) is not None


def last_cut(text: str, content: bool) -> int | None:
    """The index in ``text`` (lines joined, no ``{`` among them) of the line
    end before the last line where ``split_lines`` starts a record: a tag line,
    or the comment lines right above it (they open the record), when the line
    above those is a body line, or a blank line once a tag or body line came
    since the last cut (``content`` says whether one came before ``text``).
    Below a tag line a header goes on: no cut."""
    at = text.rfind("\n" + t.TAG_OPEN)
    while at >= 0:
        start = at  # the line end just above the record's first line
        above = _line_ending(text, start)
        while above.startswith(t.LINE_OPEN) and start >= 0:  # a comment line opens the record
            start = text.rfind("\n", 0, start)
            above = _line_ending(text, start) if start >= 0 else ""
        if start >= 0:
            if not above:
                if content or has_content(text, 0, start):
                    return start
            elif above[0] != t.TAG_OPEN:
                return start
        at = text.rfind("\n" + t.TAG_OPEN, 0, at)
    return None


def _line_ending(text: str, end: int) -> str:
    """The line of ``text`` that ends at index ``end``, stripped."""
    return text[text.rfind("\n", 0, end) + 1 : end].strip()
