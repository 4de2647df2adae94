"""Cutting text into records, before any record is read.

A file is cut into records first, so a syntax error in one record never hides
the ones after it. ``split_lines`` cuts lines read one at a time (only the
current record is held); ``last_cut`` finds the last cut in a block of lines
that holds no ``{`` comment, so that a file can be sent to workers in blocks
of whole records: it cuts only where ``split_lines`` surely cuts (a test
holds the two together). Both build their patterns from the grammar's
terminals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..diagnostics import SourceError, record_too_long
from . import terminals as t

_DIGITS = frozenset("0123456789")
_TAG_LINE_BLANK = "[ \\t]"
_FULL_TAG_LINE = re.compile(
    f"{_TAG_LINE_BLANK}*\\[{t.TAG_NAME}{_TAG_LINE_BLANK}+{t.STRING}{_TAG_LINE_BLANK}*\\]{_TAG_LINE_BLANK}*$"
)
_SCAN = re.compile(
    t.UNQUOTED_STRING + "|[" + re.escape(t.LINE_OPEN + t.BRACE_OPEN + t.BRACE_CLOSE) + "]"
)
_TAG_NAME = re.compile(f"\\[{_TAG_LINE_BLANK}*({t.TAG_NAME})")
_SEAT_TAG = re.compile(f"\\[{_TAG_LINE_BLANK}*(?:{t.SEAT})(?![A-Za-z0-9_])")
_PLAY_NUMBER = re.compile(f"(?=(?:{t.PLY}))([0-9]+)")
_TAG_STARTS = (t.TAG_OPEN, t.QUOTE, t.TAG_CLOSE)  # a tag line, or one a tag goes on to
_GOES_ON = re.compile(f"(?:{t.MARKER})|{t.RESULT}(?!{t.CARD})")  # a body goes on, no game starts


def code_of(line: str, in_brace: bool) -> tuple[str, bool]:
    """The part of ``line`` outside comments, and whether a ``{`` comment is
    still open at its end. Quoted values may hold ``{`` and ``;``."""
    if (
        not in_brace
        and t.BRACE_OPEN not in line
        and t.LINE_OPEN not in line
        and t.QUOTE not in line
    ):
        return line, False
    spans, in_brace = code_spans(line, in_brace)
    return "".join([line[start:end] for start, end in spans]), in_brace


def code_spans(line: str, in_brace: bool) -> tuple[list[tuple[int, int]], bool]:
    """Where ``line`` is outside comments, as ``(start, end)`` pieces in
    order (none empty, none touching the next), and whether a ``{``
    comment is still open at its end."""
    spans = []
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
            spans.append((pos, len(line)))
            break
        token = match.group()
        if token == t.LINE_OPEN:
            spans.append((pos, match.start()))
            break
        if token == t.BRACE_OPEN:
            spans.append((pos, match.start()))
            in_brace = True
        else:
            spans.append((pos, match.end()))
        pos = match.end()
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if joined and joined[-1][1] == start:
            joined[-1] = (joined[-1][0], end)
        elif end > start:
            joined.append((start, end))
    return joined, in_brace


def split_records(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each record of ``text`` (see ``split_lines``)."""
    return split_lines(text.split("\n"))


def split_lines(
    lines: Iterable[str], first_line: int = 1, source: str = "", longest: int | None = None
) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each record, from lines without their line
    ends, read one at a time: only the current record is held in memory.
    ``first_line`` is the number of the first line (when a record starts there).

    A record starts at a tag line that follows a body, when the header it
    opens names a seat or is followed by anything but a play numbered past
    ``1.``, a declared resolution or the result line (a lone tag line among
    the plays stays in its record, where it is reported out of place). A
    blank line inside a header does not start a record, unless a tag name of
    the header above it comes again below it.
    Comment lines just above the tag line (with no blank line between) open
    the new record. Text inside comments and quoted values never splits,
    except a whole header line after a body inside a ``{`` comment that is
    still open: that is taken for a forgotten ``}``.

    With ``longest``, a record of more characters than that raises
    SourceError (E007, in ``source``) as soon as it is read so far."""
    held: list[str] = []  # the current record's lines so far
    size = 0  # their characters
    limit = longest if longest is not None else 1 << 62
    first = first_line  # its first line number
    in_body = in_header = blank_after_header = in_brace = False
    comment_run = None  # index in ``held`` of the comment-only lines just above, if any
    pending = None  # index in ``held`` where a record starts if the lines below confirm it
    pending_body = False  # whether that start follows a body (else a blank line in a header)
    names: set[str] = set()  # the tag names of the header being read (above ``pending``)
    since: set[str] = set()  # the tag names read since ``pending``
    for line in lines:
        if (
            not in_brace
            and line[:1] in _DIGITS
            and t.BRACE_OPEN not in line
            and t.LINE_OPEN not in line
            and t.QUOTE not in line
        ):
            if pending is None:  # a play: the most common line of all
                in_body, comment_run = True, None
                in_header = blank_after_header = False
                held.append(line)
                size += len(line)
                if size > limit:
                    raise SourceError(record_too_long(source, first, limit))
                continue
            kind, code, brace_after = "body", line, False
        else:
            if in_brace and in_body and _FULL_TAG_LINE.match(line):
                # A header line after a body, inside a "{" that never closed: more
                # likely a forgotten "}" than a comment quoting a header. Splitting
                # here reports the open comment (E102) and keeps the next records.
                in_brace = False
            if not in_brace and line[:1] == t.TAG_OPEN and _FULL_TAG_LINE.match(line):
                code, brace_after = line.strip(), False  # a header line
            else:
                code, brace_after = code_of(line, in_brace)
                code = code.strip()
            kind = "tag" if code.startswith(_TAG_STARTS) else "body" if code else ""
        cuts: list[int] = []  # indices in ``held`` where records start, before this line
        if kind == "tag":
            name_match = _TAG_NAME.match(code)
            name = name_match.group(1) if name_match else ""
            if pending is not None and pending_body and blank_after_header:
                cuts.append(pending)  # a header after a body, then a blank line: a record
                pending, names = None, since
            if (in_body or blank_after_header) and pending is None:
                pending = comment_run if comment_run is not None else len(held)
                pending_body, since = in_body, set()
            if pending is not None and (_SEAT_TAG.match(code) if pending_body else name in names):
                cuts.append(pending)
                pending, names = None, since
            (names if pending is None else since).add(name)
            in_body, in_header, blank_after_header, comment_run = False, True, False, None
        elif kind == "body":
            if pending is not None:
                number = _PLAY_NUMBER.match(code)
                goes_on = _GOES_ON.match(code) or (number and int(number.group(1)) != 1)
                if pending_body and not goes_on:
                    cuts.append(pending)
                names = since if pending_body and not goes_on else names | since
                pending = None
            in_body, comment_run = True, None
            in_header = blank_after_header = False
        elif line.strip():
            if comment_run is None and not in_brace:
                comment_run = len(held)
        elif not in_brace:
            blank_after_header = in_header
            comment_run = None
        in_brace = brace_after
        done = 0
        for cut in cuts:
            yield first, "\n".join(held[: cut - done])
            first += cut - done
            held = held[cut - done :]
            done = cut
        if pending is not None:
            pending -= done
        held.append(line)
        size = sum(map(len, held)) if cuts else size + len(line)
        if size > limit:
            raise SourceError(record_too_long(source, first, limit))
    if pending is not None and pending_body:
        yield first, "\n".join(held[:pending])
        first += pending
        held = held[pending:]
    rest = "\n".join(held)
    if rest.strip() or first == first_line:
        yield first, rest


def can_cut(text: str) -> bool:
    """Whether ``last_cut`` can cut ``text``: no ``{`` comment can be open in it."""
    return t.BRACE_OPEN not in text


def last_cut(text: str, above: str = "") -> tuple[int | None, str]:
    """The index in ``text`` (lines joined, no ``{`` among them) of the line
    end before the last line where ``split_lines`` surely starts a record: a
    tag line, or the comment lines right above it (they open the record), that
    follows a body line (blank lines may come between) and opens a header
    naming a seat. Where ``split_lines`` must look further to decide (a lone
    tag line among plays, a blank line in a header) this does not cut.
    ``above`` is the kind of the last tag or body line before ``text``
    (``"tag"``, ``"body"`` or ``""`` if none or not known); the kind of the
    last one in ``text`` is given back with the cut, for the next text.
    The text is read from its end: a block's last record is near it."""
    last = _kind_before(text, len(text)) or above
    at = text.rfind("\n" + t.TAG_OPEN)
    while at >= 0:
        start = at  # the line end above the record's first line
        while start >= 0:  # comment lines right above the tag line open the record
            line_start = text.rfind("\n", 0, start) + 1
            if not text[line_start:start].strip().startswith(t.LINE_OPEN):
                break
            start = line_start - 1
        if start >= 0 and _kind_before(text, start) == "body" and _names_a_seat(text, at + 1):
            return start, last
        at = text.rfind("\n" + t.TAG_OPEN, 0, at)
    return None, last


def _kind_before(text: str, end: int) -> str:
    """The kind of the last tag or body line of ``text`` ending at or before
    index ``end`` (``"tag"`` or ``"body"``), or ``""`` when there is none."""
    while end >= 0:
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end].strip()
        if line and not line.startswith(t.LINE_OPEN):
            return "tag" if line.startswith(_TAG_STARTS) else "body"
        end = start - 1
    return ""


def _names_a_seat(text: str, start: int) -> bool:
    """Whether the header whose first line starts at ``start`` names a seat
    before a blank or body line ends it (or ``text`` does)."""
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].strip()
        if _SEAT_TAG.match(line):
            return True
        if not line.startswith(_TAG_STARTS + (t.LINE_OPEN,)):
            return False
        start = end + 1
    return False
