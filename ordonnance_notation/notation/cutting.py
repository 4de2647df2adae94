"""Cutting text into records, before any record is read.

A file is cut into records first, so a syntax error in one record never hides
the ones after it. ``split_lines`` cuts lines read one at a time (only the
current record is held); ``last_cut`` finds the last cut in a block of lines
that holds no ``{`` comment, so that a file can be sent to workers in blocks
of whole records: it cuts only where ``split_lines`` surely cuts (a test
holds the two together). Both tell the kinds of line with patterns built
from the grammar's terminals, and follow the table of ``cut_table`` (as
the compiled core does) to decide where records start.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator
from string import ascii_letters, digits

from ..diagnostics import SourceError, record_too_long
from . import terminals as t
from .cut_table import STEPS, Do, Kind, State

_BODY_STARTS = frozenset(ascii_letters + digits + "#")  # not blank, no tag, comment or quote
_TAG_LINE_BLANK = "[ \\t]"
_FULL_TAG_LINE = re.compile(
    f"{_TAG_LINE_BLANK}*\\[({t.TAG_NAME}){_TAG_LINE_BLANK}+{t.STRING}{_TAG_LINE_BLANK}*\\]{_TAG_LINE_BLANK}*$"
)
_SCAN = re.compile(
    t.UNQUOTED_STRING + "|[" + re.escape(t.LINE_OPEN + t.BRACE_OPEN + t.BRACE_CLOSE) + "]"
)
_TAG_NAME = re.compile(f"\\[{_TAG_LINE_BLANK}*({t.TAG_NAME})")
_SEAT_NAME = re.compile(t.SEAT)
_TAG_STARTS = (t.TAG_OPEN, t.QUOTE, t.TAG_CLOSE)  # a tag line, or one a tag goes on to
_GOES_ON = re.compile(  # a body goes on, no game starts: a marker, the result, a play past 1.
    f"(?:{t.MARKER})|{t.RESULT}(?!{t.CARD})|(?=(?:{t.PLY}))(?!0*1\\.)"
)


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
    The lines are told apart here (``_kind``), the starts are decided by the
    table of ``cut_table``, which the compiled core follows too.

    With ``longest``, a record of more characters than that raises
    SourceError (E007, in ``source``) as soon as it is read so far."""
    held: list[str] = []  # the current record's lines so far
    size = 0  # their characters
    limit = longest if longest is not None else 1 << 62
    first = first_line  # its first line number
    cutter = _Cutter()
    number = first_line - 1
    for number, line in enumerate(lines, first_line):
        plain = (  # a play, a hand... in a body: the most common lines, they change nothing there
            cutter.quiet
            and line[:1] in _BODY_STARTS
            and t.BRACE_OPEN not in line
            and t.LINE_OPEN not in line
            and t.QUOTE not in line
        )
        if not plain and (cuts := cutter.read(line, number)):
            held, first = yield from _cut_off(held, first, cuts)
            size = sum(map(len, held))
        held.append(line)
        size += len(line)
        if size > limit:
            raise SourceError(record_too_long(source, first, limit))
    held, first = yield from _cut_off(held, first, cutter.end(number + 1))
    rest = "\n".join(held)
    if rest.strip() or first == first_line:
        yield first, rest


def _cut_off(
    held: list[str], first: int, cuts: tuple[int, ...]
) -> Generator[tuple[int, str], None, tuple[list[str], int]]:
    """The records of ``held`` (from line ``first``) that end where records
    start (``cuts``), then the lines left and the number of the first."""
    for cut in cuts:
        yield first, "\n".join(held[: cut - first])
        held, first = held[cut - first :], cut
    return held, first


# The flags and kinds as plain ints (an IntFlag's "&" is a call in Python),
# unpacked so that a new one stops the import until it is read here.
_CUT, _RAISE, _HERE, _PEND, _FRESH, _FRESH_BELOW, _NAME, _NAME_BELOW, _MARK, _UNMARK = map(int, Do)
_SEAT, _TAG, _SEAT_AGAIN, _TAG_AGAIN, _FIRST, _ON, _NOTE, _BLANK, _HIDDEN, _END = map(int, Kind)
_STARTS = _RAISE | _HERE | _PEND | _FRESH | _FRESH_BELOW
_BODY = int(State.BODY)
_QUIET = tuple(
    row[_FIRST] == row[_ON] == (_UNMARK, state) for state, row in enumerate(STEPS)
)  # the states a body line leaves as they are, when no comment line is above
# A line's kind is told only as finely as its state's row asks: whether a
# tag line names a seat, whether its name comes again, whether a body goes on.
_TELLS_SEAT = tuple(row[_SEAT] != row[_TAG] or row[_SEAT_AGAIN] != row[_TAG_AGAIN] for row in STEPS)
_TELLS_AGAIN = tuple(
    row[_SEAT] != row[_SEAT_AGAIN] or row[_TAG] != row[_TAG_AGAIN] for row in STEPS
)
_TELLS_ON = tuple(row[_FIRST] != row[_ON] for row in STEPS)
_NONE: tuple[int, ...] = ()


class _Cutter:
    """The table of ``cut_table`` run on lines read one at a time: ``read``
    gives the numbers of the lines where records start, as the line of that
    ``number`` tells (most tell none)."""

    __slots__ = ("below", "header", "in_brace", "mark", "pending", "quiet", "state")

    def __init__(self, state: State = State.START) -> None:
        self.state = int(state)
        self.in_brace = False  # a { comment is open
        self.mark: int | None = None  # the first of the comment lines just above
        self.pending = 0  # where a record may start (in the pending states)
        self.header: set[str] = set()  # the tag names of the header (Do.NAME)
        self.below: set[str] = set()  # those read below the pending line (Do.NAME_BELOW)
        self.quiet = _QUIET[state]  # a body line changes nothing

    def read(self, line: str, number: int) -> tuple[int, ...]:
        kind, name, self.in_brace = _kind(line, self.in_brace, self.state, self.header)
        return self.step(kind, name, number)

    def end(self, number: int) -> tuple[int, ...]:
        return self.step(_END, "", number)

    def step(self, kind: int, name: str, number: int) -> tuple[int, ...]:
        do, self.state = STEPS[self.state][kind]
        cuts = (self.pending,) if do & _CUT else _NONE
        if do & _STARTS:
            cuts += self._start(do, number)
        if do & _NAME:
            self.header.add(name)
        elif do & _NAME_BELOW:
            self.below.add(name)
        if do & _MARK and self.mark is None:
            self.mark = number
        if do & _UNMARK:
            self.mark = None
        self.quiet = _QUIET[self.state] and self.mark is None and not self.in_brace
        return cuts

    def _start(self, do: int, number: int) -> tuple[int, ...]:
        if do & _RAISE:
            self.header, self.below = self.below, self.header
        start = number if self.mark is None else self.mark
        if do & _PEND:
            self.pending = start
        if do & _FRESH:
            self.header = set()
        if do & _FRESH_BELOW:
            self.below = set()
        return (start,) if do & _HERE else _NONE


def _kind(line: str, in_brace: bool, state: int, header: set[str]) -> tuple[int, str, bool]:
    """The kind of ``line`` (as finely as ``state`` asks), its tag name (of a
    tag line, else ""), and whether a ``{`` comment is open at its end;
    ``in_brace`` whether one is at its start."""
    if in_brace and state == _BODY and _FULL_TAG_LINE.match(line):
        # A header line after a body, inside a "{" that never closed: more
        # likely a forgotten "}" than a comment quoting a header. Splitting
        # here reports the open comment (E102) and keeps the next records.
        in_brace = False
    header_line = not in_brace and line[:1] == t.TAG_OPEN and _FULL_TAG_LINE.match(line)
    if header_line:
        name, brace_after = header_line.group(1), False
    else:
        code, brace_after = code_of(line, in_brace)
        code = code.strip()
        if not code.startswith(_TAG_STARTS):
            return _untagged(code, line, in_brace, state), "", brace_after
        found = _TAG_NAME.match(code)
        name = found.group(1) if found else ""
    return _tag_kind(name, state, header), name, brace_after


def _tag_kind(name: str, state: int, header: set[str]) -> int:
    again = _TELLS_AGAIN[state] and name in header
    if _TELLS_SEAT[state] and _SEAT_NAME.fullmatch(name):
        return _SEAT_AGAIN if again else _SEAT
    return _TAG_AGAIN if again else _TAG


def _untagged(code: str, line: str, in_brace: bool, state: int) -> int:
    """The kind of a line that is not a tag line, ``code`` its code."""
    if code:
        return _ON if _TELLS_ON[state] and _GOES_ON.match(code) else _FIRST
    if in_brace:
        return _HIDDEN
    return _NOTE if line.strip() else _BLANK


def can_cut(text: str) -> bool:
    """Whether ``last_cut`` can cut ``text``: no ``{`` comment can be open in it."""
    return t.BRACE_OPEN not in text


def last_cut(text: str, above: str = "") -> tuple[int | None, str]:
    """The index in ``text`` (lines joined, no ``{`` among them) of the line
    end before a line near its end where ``split_lines`` surely starts a
    record, whatever comes before ``text`` or after it. A record starts at a
    tag line (or at the comment lines above it), and after a body line the
    state of the table is known (``State.BODY``, whatever was read before):
    so the table is run from the body line above the last tag line that
    starts a line to the first body line below it, after which nothing above
    is pending; if it finds no start there, the same around the tag line
    before, and so on. The text is read from its end: a block's last record
    is near it. ``above`` is the kind of the last tag or body line before
    ``text`` (``"tag"``, ``"body"`` or ``""`` if none or not known); the
    kind of the last one in ``text`` is given back with the cut, for the
    next text."""
    last = _kind_before(text, len(text)) or above
    at = text.rfind("\n" + t.TAG_OPEN)
    while at >= 0:
        body = _body_end_before(text, at)
        if body < 0:
            break
        cut = _last_start(text, body, _body_end_after(text, at))
        if cut is not None:
            return cut, last
        at = text.rfind("\n" + t.TAG_OPEN, 0, text.rfind("\n", 0, body) + 1)
    return None, last


def _last_start(text: str, body: int, end: int) -> int | None:
    """The line end before the last record start in ``text[body + 1 : end]``,
    lines read after a body line that ends at ``body``."""
    cutter = _Cutter(State.BODY)
    starts = [0]  # where each line read starts, after ``body``
    cuts: list[int] = []
    for number, line in enumerate(text[body + 1 : end].split("\n")):
        cuts += cutter.read(line, number)
        starts.append(starts[-1] + len(line) + 1)
    return body + starts[max(cuts)] if cuts else None


def _body_end_before(text: str, end: int) -> int:
    """The index of the line end after the last body line of ``text`` above
    the line end ``end``, or -1 when there is none."""
    while end >= 0:
        start = text.rfind("\n", 0, end) + 1
        if _is_body(text[start:end]):
            return end
        end = start - 1
    return -1


def _body_end_after(text: str, end: int) -> int:
    """The index of the line end after the first body line of ``text`` below
    the line end ``end``, or the length of ``text`` when there is none."""
    while end < len(text):
        start, end = end + 1, text.find("\n", end + 1)
        end = len(text) if end < 0 else end
        if _is_body(text[start:end]):
            return end
    return len(text)


def _is_body(line: str) -> bool:
    """Whether a line without ``{`` is a body line (``Kind.FIRST``, ``Kind.ON``)."""
    code = line.strip()
    return bool(code) and not code.startswith((*_TAG_STARTS, t.LINE_OPEN))


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
