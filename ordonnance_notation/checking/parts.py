"""A record's parts: its elements by part (tags, the deal, the body, the
result line), and an E209 for each element out of place."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from ..diagnostics import Diagnostic
from ..notation.record import Declared, Element, Hand, Pile, Play, Record, ResultLine, Tag

_new = tuple.__new__  # builds the named tuples without their Python-level __new__


class _Part(IntEnum):
    """The parts of a record, in the order they are written."""

    HEADER = 0
    DEAL = 1
    BODY = 2
    RESULT = 3


_PART_OF = {
    Tag: _Part.HEADER,
    Hand: _Part.DEAL,
    Pile: _Part.DEAL,
    Play: _Part.BODY,
    Declared: _Part.BODY,
    ResultLine: _Part.RESULT,
}
_ELEMENT_NAMES = {
    Tag: "tag",
    Hand: "hand",
    Pile: "pile",
    Play: "play",
    Declared: "declared resolution",
    ResultLine: "second result line",
}
_AFTER = {_Part.DEAL: "the deal", _Part.BODY: "the first play", _Part.RESULT: "the result line"}
_MOVE_TO = {
    Tag: "move the tag up into the header, above the deal and the plays",
    Hand: "move the hand up, between the header and the first play",
    Pile: "move the pile up, after the hands and before the first play",
    Play: "move the play up, before the result line",
    Declared: "move the declared resolution up, before the result line",
    ResultLine: "keep one result line, at the end of the record",
}


class Layout(NamedTuple):
    """A record's elements by part: every tag, hand and pile in order, the
    first result line, and an E209 for each element out of place."""

    tags: tuple[Tag, ...]
    hands: list[Hand]
    piles: list[Pile]
    result_line: ResultLine | None
    misplaced: list[Diagnostic]


def layout_of(record: Record) -> Layout:
    """The parts of ``record``. A record written in order (the usual case) is
    told by counting its kinds of element: each part is then a run of them."""
    elements = record.elements
    runs = _runs(elements)
    if runs is None:
        return Layout(
            record.tag_elements,
            [e for e in elements if type(e) is Hand],
            [e for e in elements if type(e) is Pile],
            next((e for e in elements if type(e) is ResultLine), None),
            misplaced(record),
        )
    tags, deal = runs
    last = elements[-1] if elements else None
    return _new(
        Layout,
        (
            elements[:tags],
            [e for e in elements[tags:deal] if type(e) is Hand],
            [e for e in elements[tags:deal] if type(e) is Pile],
            last if type(last) is ResultLine else None,
            [],
        ),
    )


def _runs(elements: tuple[Element, ...]) -> tuple[int, int] | None:
    """Where the tags and the deal end, for elements in order (tags, the
    deal, the body, one result line at most); None when some are out of it."""
    kinds = list(map(type, elements))
    tags = kinds.count(Tag)
    dealt = kinds.count(Hand) + kinds.count(Pile)
    results = kinds.count(ResultLine)
    if results > 1 or (results and kinds[-1] is not ResultLine):
        return None
    deal = kinds[tags : tags + dealt]
    if kinds[:tags].count(Tag) != tags or deal.count(Hand) + deal.count(Pile) != dealt:
        return None
    return tags, tags + dealt


def misplaced(record: Record) -> list[Diagnostic]:
    """E209 for each element out of place: tags, then the deal, then plays and
    declared resolutions, then one result line."""
    if _runs(record.elements) is not None:
        return []
    found = []
    part = _Part.HEADER
    for element in record.elements:
        kind = type(element)
        if _PART_OF[kind] < part or (kind is ResultLine and part is _Part.RESULT):
            message = f"{_ELEMENT_NAMES[kind]} after {_AFTER[part]}"
            found.append(
                Diagnostic(
                    "E209",
                    message,
                    record.source,
                    element.span,
                    record.index,
                    help=_MOVE_TO[kind],
                )
            )
        part = max(part, _PART_OF[kind])
    return found
