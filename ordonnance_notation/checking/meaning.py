"""What a record means, as far as it could be read: the typed data the
content readers (``header``, ``deal``, ``body``) fill in and the replay reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..diagnostics import Diagnostic, Related
from ..engine.cards import Card, State
from ..engine.game import Deal
from ..engine.scoring import Scoring
from ..notation.record import Declared, Gap, Pile, Play, Record, ResultLine, Span, Tag, Word
from .parts import Layout, layout_of

UNFINISHED = "unfinished"
SHARED = "shared"
DeclaredOutcome = int | str  # a seat index, UNFINISHED or SHARED


class Move(NamedTuple):
    """A play with its words read: the card, the state, and what the record claims."""

    play: Play
    card: Card
    state: State
    seat: int | None
    drawn: Card | None


class Unread(NamedTuple):
    """A play whose words could not be read (``play``), or an element of the
    body that could not be read at all (``play`` is None); ``stop`` is the
    first of its errors, in the order they are shown, ``span`` its place."""

    play: Play | None
    stop: Diagnostic
    span: Span


class Claim(NamedTuple):
    """A declared resolution read: marker ``marker`` for ``state`` to ``seat``."""

    element: Declared
    marker: int
    state: State
    seat: int


BodyEvent = Move | Unread | Claim
"""The body of a record in its order: each play read (or not), each readable
declared resolution."""


@dataclass(frozen=True, slots=True)
class DeclaredResult:
    """The result line read: the outcome and the scores it declares by seat."""

    line: ResultLine
    outcome: DeclaredOutcome
    scores: tuple[tuple[int, int, Word], ...]  # (seat, value, the value's word)


@dataclass(slots=True)
class Content:
    """What a record means, as far as it could be read. ``seats`` is None when
    the header does not say who plays (nothing after it is read then);
    ``body`` holds the plays and readable declared resolutions in order."""

    record: Record
    seats: int | None = None
    names: tuple[str, ...] = ()
    scoring: Scoring = field(default_factory=Scoring.classic)
    result_tag: tuple[DeclaredOutcome, Tag] | None = None
    deal: Deal | None = None
    deal_ok: bool = True
    pile: Pile | None = None  # the pile as written, when the deal was read
    first_ply: int = 1  # the number of the first play written as one
    scoring_ok: bool = True  # False after E205: the result cannot be scored
    body: list[BodyEvent] = field(default_factory=list)
    result: DeclaredResult | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    layout: Layout = field(init=False)  # the record's elements by part, found once

    def __post_init__(self) -> None:
        self.layout = layout_of(self.record)

    def add(
        self,
        code: str,
        message: str,
        span: Span | None = None,
        ply: int | None = None,
        help: str | None = None,
        related: tuple[Related, ...] = (),
    ) -> Diagnostic:
        """Record a diagnostic, and give it; without a span it points at the
        record's first element."""
        if span is None and self.record.elements:
            first = self.record.elements[0].span
            span = Span(first.line, first.column, first.line, first.column + 1)
        diagnostic = Diagnostic(
            code, message, self.record.source, span, self.record.index, ply, help, related
        )
        self.diagnostics.append(diagnostic)
        return diagnostic


Broken = tuple[Gap, Diagnostic]
"""An element of a record that could not be read, and its syntax error."""
