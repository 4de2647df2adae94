"""Where records start: the cutting of a text into records, as one state
machine that ``cutting.py`` (``split_lines``, ``last_cut``) and the compiled
core's ``cut()`` (``checking/_quick.c``) both follow.

The text is read a line at a time. Each line is of a ``Kind``, told by its
code outside comments (each reader tells it: the grammar's terminals,
comments and quotes stay in Python; the core tells only the lines it reads
plainly and declines a block holding any other). In each ``State`` the kind
of the line gives the step: what is done (``Do``) and the next state.
``ROWS`` is the table as written: the start of a record is decided there
and nowhere else. ``STEPS`` is it as the readers run it: every step with
its bookkeeping of the header's tag names and of the comment lines above
added (``_step``), done in the order of ``Do``.

A record starts at a tag line after a body whose header names a seat. A
header after a body that names none is pending (``Do.PEND``, ``State.NEW``)
until a line tells: a body line that may open a body confirms it
(``Do.CUT``), one that goes on a body leaves it among the plays (a lone tag
line, reported out of place), and a blank line, then another tag line,
confirms it too. A blank line in a header leaves the tag lines below it
pending (``State.SPLIT``) until a tag name of the header above comes again
(a start) or a body line (none). Comment lines right above a start open
its record (``Do.MARK``). ``Kind.END`` is the end of the text.

``notation/cut_header.py`` writes ``STEPS`` as the C header the core
includes, ``checking/_cutting.h`` (tests/test_cutting.py holds the two
together).
"""

from __future__ import annotations

from enum import IntEnum, IntFlag


class State(IntEnum):
    START = 0  # nothing read yet but blank and comment lines
    HEADER = 1  # in a header
    HEADER_GAP = 2  # a blank line after a header line
    BODY = 3  # in a body: the deal, the plays
    NEW = 4  # in a header after a body: pending at its first line
    NEW_GAP = 5  # a blank line after it
    SPLIT = 6  # tag lines after a blank line in a header: pending at the first
    SPLIT_GAP = 7  # a blank line after them


class Kind(IntEnum):
    SEAT = 0  # a tag line naming a seat
    TAG = 1  # another tag line, or one a tag goes on to (it starts with " or ])
    SEAT_AGAIN = 2  # a SEAT whose tag name the header read has already (``Do.NAME``)
    TAG_AGAIN = 3  # a TAG whose tag name the header read has already
    FIRST = 4  # a body line that may open a body: a play numbered 1, a hand, the pile...
    ON = 5  # a body line that goes on a body: a play past 1, a marker, the result line
    NOTE = 6  # a line of comments only, outside a { comment opened above
    BLANK = 7  # a blank line outside a { comment
    HIDDEN = 8  # a line inside a { comment opened above, blank or not
    END = 9  # the end of the text


class Do(IntFlag):
    """What a step does, in this order. ``ROWS`` names CUT, HERE, PEND and
    MARK; the others are the bookkeeping that ``_step`` adds."""

    CUT = 1  # a record starts at the pending line
    RAISE = 2  # the header's tag names are those read below the pending line
    HERE = 4  # a record starts at this line, or at the comment lines just above it
    PEND = 8  # a record may start at this line, or at those comment lines
    FRESH = 16  # the header's tag names are forgotten: a header starts
    FRESH_BELOW = 32  # the tag names read below the pending line are forgotten
    NAME = 64  # the tag's name is one of the header's
    NAME_BELOW = 128  # the tag's name is read below the pending line
    MARK = 256  # this line is the first of comment lines above (unless one is already)
    UNMARK = 512  # no comment lines are above


S, K, D = State, Kind, Do
SEATS = (K.SEAT, K.SEAT_AGAIN)
OTHERS = (K.TAG, K.TAG_AGAIN)
NEW_NAMES = (K.SEAT, K.TAG)
AGAIN = (K.SEAT_AGAIN, K.TAG_AGAIN)
TAGS = SEATS + OTHERS
BODY_LINES = (K.FIRST, K.ON)
AFTER_BODY = (S.NEW, S.NEW_GAP)  # pending at a header after a body
AFTER_GAP = (S.SPLIT, S.SPLIT_GAP)  # pending at tag lines after a blank line in a header

Cell = State | tuple[Do, State]  # the next state, and what is done (nothing if not said)

ROWS: dict[State, dict[tuple[Kind, ...], Cell]] = {
    S.START: {TAGS: S.HEADER, BODY_LINES: S.BODY, (K.BLANK,): S.START},
    S.HEADER: {TAGS: S.HEADER, BODY_LINES: S.BODY, (K.BLANK,): S.HEADER_GAP},
    S.HEADER_GAP: {
        NEW_NAMES: (D.PEND, S.SPLIT),
        AGAIN: (D.HERE, S.HEADER),
        BODY_LINES: S.BODY,
        (K.BLANK,): S.HEADER_GAP,
    },
    S.BODY: {
        SEATS: (D.HERE, S.HEADER),
        OTHERS: (D.PEND, S.NEW),  # a lone tag line among the plays, or a header
        BODY_LINES: S.BODY,
        (K.BLANK,): S.BODY,
    },
    S.NEW: {
        SEATS: (D.CUT, S.HEADER),
        OTHERS: S.NEW,
        (K.FIRST,): (D.CUT, S.BODY),
        (K.ON,): S.BODY,  # the tag line stays among the plays, out of place
        (K.BLANK,): S.NEW_GAP,
        (K.END,): (D.CUT, S.NEW),
    },
    S.NEW_GAP: {
        NEW_NAMES: (D.CUT | D.PEND, S.SPLIT),
        AGAIN: (D.CUT | D.HERE, S.HEADER),
        (K.FIRST,): (D.CUT, S.BODY),
        (K.ON,): S.BODY,
        (K.BLANK,): S.NEW_GAP,
        (K.END,): (D.CUT, S.NEW_GAP),
    },
    S.SPLIT: {
        NEW_NAMES: S.SPLIT,
        AGAIN: (D.CUT, S.HEADER),
        BODY_LINES: S.BODY,
        (K.BLANK,): S.SPLIT_GAP,
    },
    S.SPLIT_GAP: {
        NEW_NAMES: S.SPLIT,
        AGAIN: (D.CUT, S.HEADER),
        BODY_LINES: S.BODY,
        (K.BLANK,): S.SPLIT_GAP,
    },
}
"""Each state's steps. A comment line marks itself (``Do.MARK``); a line
inside a ``{`` comment and the end of the text do nothing: where a row does
not say otherwise."""


def _cell(state: State, kind: Kind) -> tuple[Do, State]:
    found = [cell for kinds, cell in ROWS[state].items() if kind in kinds]
    assert len(found) <= 1, (state, kind)
    if not found:
        assert kind in (K.NOTE, K.HIDDEN, K.END), (state, kind)
        return (D.MARK if kind == K.NOTE else D(0)), state
    cell = found[0]
    return cell if isinstance(cell, tuple) else (D(0), cell)


def _step(state: State, kind: Kind) -> tuple[int, int]:
    """The cell of ``ROWS`` with the tag names and the comment lines kept,
    as plain ints (the readers' "&" of an IntFlag would be a call)."""
    done, after = _cell(state, kind)
    do = done.value
    if do & D.CUT.value and state in AFTER_GAP:
        do |= D.RAISE.value  # the new record's header is what was read below the blank line
    if do & D.HERE.value or (do & D.PEND.value and after in AFTER_BODY):
        do |= D.FRESH.value
    if do & D.PEND.value and after in AFTER_GAP:
        do |= D.FRESH_BELOW.value
    if kind in TAGS:
        do |= D.NAME_BELOW.value if after in AFTER_GAP else D.NAME.value
    if kind not in (K.NOTE, K.HIDDEN, K.END):
        do |= D.UNMARK.value
    return do, after.value


STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(_step(state, kind) for kind in Kind) for state in State
)
"""``STEPS[state][kind]``: what is done (``Do``'s flags) and the next state."""
