"""A line scanner for well-formed records: the fast path of the parser.

Most records in an archive are written one element per line, as the
canonical printer writes them. This scanner reads such records with one
regular expression per line and builds exactly the record the Lark grammar
would build. It accepts a subset of the notation only: on any line it is not
sure of (two elements on a line, an element broken over lines, a keyword
where a card should be, anything malformed) it gives up and returns None,
and the parser reads the record with Lark, which also words the errors.
The test suite checks the two readings against each other.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

from . import terminals as t
from .record import (
    Comment,
    Declared,
    Element,
    Hand,
    Pile,
    Play,
    Record,
    ResultLine,
    Score,
    Span,
    Tag,
    Word,
)

_W = t.BLANK
_END = "(?=[" + re.escape(t.BLANK_CHARS + t.COMMENT_OPENERS) + "]|$)"  # a token ends
_NOT_KEYWORD = "(?!(?:" + "|".join(sorted(t.KEYWORDS)) + ")" + _END + ")"
_TAG = re.compile(rf"\[{_W}*({t.TAG_NAME}){_W}*({t.STRING}){_W}*\]")
_PLAY = re.compile(
    f"({t.PLY})"
    f"(?:{_W}+({t.SEAT}){_END})?"
    f"(?:{_W}+({t.DRAW}){_END})?"
    f"{_W}+{_NOT_KEYWORD}({t.CARD})"
    f"{_W}+{_NOT_KEYWORD}({t.STATE}){_END}"
    f"(?:{_W}+({t.GLYPH}){_END})?"
)
_DECLARED = re.compile(f"({t.MARKER}){_W}+({t.STATE}){_W}+({t.SEAT}){_END}")
_HAND = re.compile(f"hand{_W}+({t.SEAT}){_W}*(:)")
_PILE = re.compile(f"pile{_W}*(:)")
_RESULT = re.compile(f"result{_W}+({t.SEAT}|{t.OUTCOME}){_END}")
_SCORE = re.compile(f"{_W}+({t.SEAT}):({t.COUNT}){_END}")
_CARDS = re.compile(f"(?:{_W}*{t.CARD}{_END})*")
_LETTERS = re.compile(t.CARD)
_BLANK = re.compile(f"{_W}*")
# both patterns are starred, so they match anywhere (if only the empty string):
# their ``match`` never returns None
_blank_at = cast("Callable[[str, int], re.Match[str]]", _BLANK.match)
_cards_at = cast("Callable[[str, int], re.Match[str]]", _CARDS.match)
_KEYWORDS = t.KEYWORDS
_BLANKS = frozenset(("", *t.BLANK_CHARS))
_DIGITS = frozenset("0123456789")

_new = tuple.__new__  # builds the named tuples without their Python-level __new__

_OpenDeal = list[Any]
"""A hand or pile still open, whose cards may go on over the next lines:
``[Hand or Pile, seat word or None, (line, column) of its first token, the
card words so far, (line, column) where they end]``; a list, to be updated in
place."""


def _word(text: str, line: int, start: int) -> Word:
    return _new(Word, (text, line, start + 1))


class _GiveUp(Exception):
    """The record is not one the scanner reads; Lark will."""


def scan_record(chunk: str, first_line: int, source: str, index: int) -> Record | None:
    """The record Lark would build from ``chunk``, or None if the scanner is not sure.

    A record of comments only is also None: Lark reads it again and finds no
    record either, which is rare enough not to matter."""
    try:
        elements, leading = _scan(chunk, first_line)
    except _GiveUp:
        return None
    if not elements:
        return None
    last_line = first_line + chunk.rstrip().count("\n")
    return Record(
        source, index, tuple(elements), tuple(leading), Span(first_line, 1, last_line, 1), chunk
    )


def _scan(chunk: str, first_line: int) -> tuple[list[Element], list[Comment]]:
    elements: list[Element] = []
    leading: list[Comment] = []
    open_deal: _OpenDeal | None = None  # a hand or pile whose cards may go on
    lines = chunk.split("\n")
    skip_to = -1
    new, play_at = _new, _PLAY.match
    for row, line in enumerate(lines):
        number = first_line + row
        if row <= skip_to:
            continue
        c = line[:1]
        if c in _BLANKS:
            pos = _blank_at(line, 0).end()
            if pos == len(line):
                continue
            c = line[pos]
        else:
            pos = 0
        m = None
        element: Element | None
        if c in _DIGITS:
            m = play_at(line, pos)
            if m is None:
                raise _GiveUp
            end = m.end() + 1
            ply, seat, drawn, card, state, glyph = m.groups()
            element = new(
                Play,
                (
                    new(Word, (ply, number, pos + 1)),
                    new(Word, (seat, number, m.start(2) + 1)) if seat else None,
                    new(Word, (drawn, number, m.start(3) + 1)) if drawn else None,
                    new(Word, (card, number, m.start(4) + 1)),
                    new(Word, (state, number, m.start(5) + 1)),
                    new(Word, (glyph, number, m.start(6) + 1)) if glyph else None,
                    new(Span, (number, pos + 1, number, end)),
                    (),
                ),
            )
            if end > len(line) and open_deal is None:  # nothing after the play: the usual case
                elements.append(element)
                continue
        elif c == "[":
            m = _TAG.match(line, pos)
            if m is None:
                raise _GiveUp
            name, string = m.groups()
            inner = string[1:-1]
            element = new(
                Tag,
                (
                    new(Word, (name, number, m.start(1) + 1)),
                    inner if "\\" not in inner else t.unquote(string),
                    new(Span, (number, pos + 1, number, m.end() + 1)),
                    (),
                ),
            )
        elif c == "#":
            m = _DECLARED.match(line, pos)
            if m is None or m.group(2) in _KEYWORDS:
                raise _GiveUp
            marker, state, seat = m.groups()
            element = new(
                Declared,
                (
                    new(Word, (marker, number, pos + 1)),
                    new(Word, (state, number, m.start(2) + 1)),
                    new(Word, (seat, number, m.start(3) + 1)),
                    new(Span, (number, pos + 1, number, m.end() + 1)),
                    (),
                ),
            )
        elif c in "{;":
            element = None
        elif line.startswith(("hand", "pile"), pos) and _keyword_ends(line, pos + 4):
            is_hand = line[pos] == "h"
            m = (_HAND if is_hand else _PILE).match(line, pos)
            if m is None:
                raise _GiveUp
            _close(open_deal, elements)
            seat = _word(m.group(1), number, m.start(1)) if is_hand else None
            open_deal = [
                Hand if is_hand else Pile,
                seat,
                (number, pos + 1),
                [],
                (number, m.end() + 1),
            ]
            open_deal, skip_to = _deal_cards(lines, row, m.end(), number, open_deal, elements)
            continue
        elif line.startswith("result", pos) and _keyword_ends(line, pos + 6):
            m = _RESULT.match(line, pos)
            if m is None or m.group(1) in _KEYWORDS:
                raise _GiveUp
            outcome = _word(m.group(1), number, m.start(1))
            scores = []
            end = m.end()
            while True:
                s = _SCORE.match(line, end)
                if s is None:
                    break
                scores.append(
                    Score(
                        _word(s.group(1), number, s.start(1)), _word(s.group(2), number, s.start(2))
                    )
                )
                end = s.end()
            element = ResultLine(
                outcome, tuple(scores), _new(Span, (number, pos + 1, number, end + 1))
            )
            m = None
            pos = end
        elif open_deal is not None and c.isalpha():  # more cards of the hand or pile above
            open_deal, skip_to = _deal_cards(lines, row, pos, number, open_deal, elements)
            continue
        else:
            raise _GiveUp
        if open_deal is not None:
            _close(open_deal, elements)
            open_deal = None
        if m is not None:
            pos = m.end()
        if pos == len(line) and element is not None:  # nothing after the element
            elements.append(element)
            skip_to = row
            continue
        rest = _comments(lines, row, pos, number)
        comments: tuple[Comment, ...]
        if rest is None:
            comments, skip_to = (), row
        else:
            comments, skip_to = rest
        if element is None:
            if elements:
                last = elements[-1]
                elements[-1] = _with_comments(last, comments)
            else:
                leading.extend(comments)
        else:
            if comments:
                element = _with_comments(element, comments)
            elements.append(element)
    if open_deal is not None:
        _close(open_deal, elements)
    return elements, leading


def _keyword_ends(line: str, at: int) -> bool:
    """Whether the letters before ``at`` end a word there (``hand`` but not ``handy``)."""
    return at == len(line) or not (line[at].isalnum() or line[at] == "_")


def _deal_cards(
    lines: list[str],
    row: int,
    pos: int,
    number: int,
    open_deal: _OpenDeal,
    elements: list[Element],
) -> tuple[_OpenDeal | None, int]:
    """Reads the cards on the rest of line ``row``; a comment after them closes
    the hand or pile. Returns the hand or pile still open, if any, and the last
    row read."""
    pos = _cards(lines[row], pos, number, open_deal)
    rest = _comments(lines, row, pos, number)
    if rest is None:
        return open_deal, row
    comments, skip_to = rest
    _close(open_deal, elements, comments)
    return None, skip_to


def _cards(line: str, pos: int, number: int, open_deal: _OpenDeal) -> int:
    """Reads the cards of a hand or pile from ``pos``; returns where they stop."""
    m = _cards_at(line, pos)
    end = m.end()
    if end == pos:
        return pos
    # the pattern matched blanks and cards alone: splitting at blanks gives the cards
    texts = line[pos:end].split()
    if not _KEYWORDS.isdisjoint(texts):
        raise _GiveUp
    words = open_deal[3]
    find = line.find
    at = pos
    for text in texts:
        at = find(text, at)  # no letter stands between the last card and this one
        words.append(_new(Word, (text, number, at + 1)))
        at += len(text)
    open_deal[4] = (number, at + 1)
    return end


def _close(
    open_deal: _OpenDeal | None, elements: list[Element], comments: tuple[Comment, ...] = ()
) -> None:
    if open_deal is None:
        return
    kind, seat, (line, column), cards, (end_line, end_column) = open_deal
    span = _new(Span, (line, column, end_line, end_column))
    if kind is Hand:
        elements.append(Hand(seat, tuple(cards), span, tuple(comments)))
    else:
        elements.append(Pile(tuple(cards), span, tuple(comments)))


def _comments(
    lines: list[str], row: int, pos: int, number: int
) -> tuple[tuple[Comment, ...], int] | None:
    """The comments that fill the rest of line ``row`` from ``pos`` (a ``{``
    comment may run over later lines), and the last row they reach; None when
    the rest is blank. Gives up on anything else."""
    line = lines[row]
    comments: list[Comment] = []
    while True:
        pos = _blank_at(line, pos).end()
        if pos == len(line):
            return (tuple(comments), row) if comments else None
        c = line[pos]
        if c == ";":
            comments.append(
                Comment(
                    line[pos + 1 :].strip(),
                    False,
                    _new(Span, (number, pos + 1, number, len(line) + 1)),
                )
            )
            return tuple(comments), row
        if c != "{":
            raise _GiveUp
        end = line.find("}", pos)
        if end >= 0:
            comments.append(
                Comment(
                    line[pos + 1 : end].strip(),
                    True,
                    _new(Span, (number, pos + 1, number, end + 2)),
                )
            )
            pos = end + 1
            continue
        # a comment over several lines: the rest of its last line holds comments only
        body = [line[pos + 1 :]]
        start_line, start_column = number, pos + 1
        while True:
            row += 1
            number += 1
            if row == len(lines):
                raise _GiveUp  # never closed: Lark says where it opened
            line = lines[row]
            end = line.find("}")
            if end >= 0:
                body.append(line[:end])
                break
            body.append(line)
        text = "\n".join(body)
        comments.append(
            Comment(text.strip(), True, _new(Span, (start_line, start_column, number, end + 2)))
        )
        pos = end + 1


def _with_comments(element: Element, comments: tuple[Comment, ...]) -> Element:
    return element._replace(comments=element.comments + tuple(comments))
