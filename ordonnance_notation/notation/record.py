"""The record model: what a .ord record says, as written, with source spans.

Nothing here is checked against the rules, and cards, states and seats are
kept as the text the author wrote (``Word``): the validator interprets them,
so that a malformed card is reported where it stands instead of failing the
parse. Every element keeps the comments that follow it, so formatting and
conversion can put them back where they were.

Elements, words and spans are named tuples: an archive's records hold
hundreds of them each, and named tuples are the cheapest immutable values to
build. ``Record`` itself is a frozen dataclass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..diagnostics import Diagnostic
from ..diagnostics import Span as Span  # the places of the record model


class Word(NamedTuple):
    """A token as written (a card, a state, a seat, a ply number, ...) and the
    line and column where it starts; no token runs over a line end."""

    text: str
    line: int
    column: int

    @property
    def span(self) -> Span:
        return Span(self.line, self.column, self.line, self.column + len(self.text))


class Comment(NamedTuple):
    """``{...}`` (braced) or ``; ...`` to the end of the line; ``text`` without delimiters."""

    text: str
    braced: bool
    span: Span


class Tag(NamedTuple):
    name: Word
    value: str
    span: Span
    comments: tuple[Comment, ...] = ()


class Hand(NamedTuple):
    """``hand P1: F HS L BS LBSHF`` — a seat's opening hand."""

    seat: Word
    cards: tuple[Word, ...]
    span: Span
    comments: tuple[Comment, ...] = ()


class Pile(NamedTuple):
    """``pile: L B S ...`` — the draw pile, top first."""

    cards: tuple[Word, ...]
    span: Span
    comments: tuple[Comment, ...] = ()


class Play(NamedTuple):
    """``12. P2 +L HF A !?`` — ply number, optional seat and draw, card, state, glyph."""

    number: Word
    seat: Word | None
    drawn: Word | None
    card: Word
    state: Word
    glyph: Word | None
    span: Span
    comments: tuple[Comment, ...] = ()

    @property
    def ply(self) -> int:
        return int(self.number.text.rstrip("."))


class Declared(NamedTuple):
    """``#2 J P1`` — the scorer's note that marker 2 went to P1 for Jerusalem."""

    marker: Word
    state: Word
    seat: Word
    span: Span
    comments: tuple[Comment, ...] = ()


class Score(NamedTuple):
    seat: Word
    value: Word


class ResultLine(NamedTuple):
    """``result P2 P1:2 P2:3`` — the winner (or ``unfinished``) and optional scores."""

    outcome: Word
    scores: tuple[Score, ...]
    span: Span
    comments: tuple[Comment, ...] = ()


Element = Tag | Hand | Pile | Play | Declared | ResultLine


@dataclass(frozen=True, slots=True, repr=False)
class Record:
    """One record of a file: its elements in source order.

    ``index`` counts records in the file from 1; ``comments`` are those that
    stand before the first element.
    """

    source: str
    index: int
    elements: tuple[Element, ...]
    comments: tuple[Comment, ...] = ()
    span: Span | None = None
    text: str = field(default="", repr=False, compare=False)  # as read, for showing source lines

    def __repr__(self) -> str:
        line = "" if self.span is None else f", line {self.span.line}"
        plays = sum(1 for e in self.elements if type(e) is Play)
        return (
            f"<Record of {self.source} #{self.index}{line}: {len(self.tags)} tags, {plays} plays>"
        )

    @property
    def tags(self) -> dict[str, str]:
        """The tags by name, in the order written: ``record.tags["White"]``.
        A name written twice (an error the validator reports) keeps its
        first value here, as ``tag`` reads it; ``tag_elements`` has each as
        written, with its place and comments."""
        tags: dict[str, str] = {}
        for element in self.elements:
            if type(element) is Tag:
                tags.setdefault(element.name.text, element.value)
        return tags

    @property
    def tag_elements(self) -> tuple[Tag, ...]:
        """Every tag element, as written."""
        return tuple([e for e in self.elements if type(e) is Tag])

    @property
    def plays(self) -> tuple[Play, ...]:
        return tuple([e for e in self.elements if type(e) is Play])

    def tag(self, name: str) -> str | None:
        """The value of the first tag called ``name``, else None."""
        return next(
            (t.value for t in self.elements if isinstance(t, Tag) and t.name.text == name), None
        )


class Gap(NamedTuple):
    """An element that could not be read: what it started as (``tag``,
    ``hand``, ``pile``, ``play``, ``declared``, ``result`` or ``words``) and
    where it stands."""

    kind: str
    span: Span


@dataclass(frozen=True, slots=True)
class Unparsed:
    """A record whose text is not well formed; ``diagnostics`` say where and
    why. ``partial`` holds the elements that could be read around the
    ``gaps`` (the elements that could not), when any could."""

    source: str
    index: int
    text: str
    first_line: int
    diagnostics: tuple[Diagnostic, ...]
    partial: Record | None = None
    gaps: tuple[Gap, ...] = ()
