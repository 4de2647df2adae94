"""From a parsed record to typed game data: the header, the deal, the plays.

Here the words of a record get their meaning (cards, states, seats, the
scoring rule, the declared result) and every content error is reported:
E2xx codes. Nothing here knows the rules of play; the validator replays
what this module produced.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple, cast

from ..diagnostics import Diagnostic
from ..engine.cards import Card, CardError, State, card_spelt, seat_name, state_spelt
from ..engine.game import HAND_SIZE, MAX_SEATS, MIN_SEATS, Deal, cards_needed
from ..engine.scoring import DEFAULT_POINTS, Scoring
from ..notation import terminals as t
from ..notation.record import Declared, Hand, Pile, Play, Record, ResultLine, Span, Tag, Word

NOTATION_VERSION = "1"
UNFINISHED = "unfinished"
SHARED = "shared"
DeclaredOutcome = int | str  # a seat index, UNFINISHED or SHARED

_SEAT_TAG = re.compile(f"(?:{t.SEAT})$")
_SEAT = re.compile(f"(?={t.SEAT}$)P([1-9][0-9]*)$")  # seats count from 1
_POINTS = re.compile(t.COUNT)
_SEAT_INDEX = {f"P{n}": n - 1 for n in range(1, MAX_SEATS + 1)}
_PLY_TEXT = {
    n: f"{n}." for n in range(1, 4 * 5 * MAX_SEATS + 1)
}  # every ply of a game, as numbered


class Move(NamedTuple):
    """A play with its words read: the card, the state, and what the record claims."""

    play: Play
    card: Card
    state: State
    seat: int | None
    drawn: Card | None


class Unread(NamedTuple):
    """A play whose words could not be read; ``stop`` is the first of its
    errors, in the order they are shown."""

    play: Play
    stop: Diagnostic


@dataclass(frozen=True, slots=True)
class Claim:
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
    scoring_ok: bool = True  # False after E205: the result cannot be scored
    body: list[BodyEvent] = field(default_factory=list)
    result: DeclaredResult | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(
        self, code: str, message: str, span: Span | None = None, ply: int | None = None
    ) -> Diagnostic:
        """Record a diagnostic, and give it; without a span it points at the
        record's first element."""
        if span is None and self.record.elements:
            first = self.record.elements[0].span
            span = Span(first.line, first.column, first.line, first.column + 1)
        diagnostic = Diagnostic(code, message, self.record.source, span, self.record.index, ply)
        self.diagnostics.append(diagnostic)
        return diagnostic


def content_of(record: Record) -> Content:
    """The meaning of ``record``'s words, and every content error (E2xx)."""
    content = Content(record)
    content.diagnostics.extend(misplaced(record))
    _read_header(content)
    if content.seats is not None:
        _read_deal(content)
        _read_body(content)
        _read_result_line(content)
    return content


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


def misplaced(record: Record) -> list[Diagnostic]:
    """E209 for each element out of place: tags, then the deal, then plays and
    declared resolutions, then one result line."""
    found = []
    part = _Part.HEADER
    for element in record.elements:
        kind = type(element)
        if _PART_OF[kind] < part or (kind is ResultLine and part is _Part.RESULT):
            message = f"{_ELEMENT_NAMES[kind]} after {_AFTER[part]}"
            found.append(Diagnostic("E209", message, record.source, element.span, record.index))
        part = max(part, _PART_OF[kind])
    return found


def _read_header(r: Content) -> None:
    tags: dict[str, Tag] = {}
    for tag in r.record.tags:
        name = tag.name.text
        if name in tags:
            first = tags[name].span
            r.add("E208", f"tag {name} given twice (first at line {first.line})", tag.name.span)
        else:
            tags[name] = tag
    version = tags.get("Notation")
    if version is not None and version.value != NOTATION_VERSION:
        r.add(
            "E207",
            f"notation version {version.value!r} is not supported "
            f"(this reader knows version {NOTATION_VERSION})",
            version.span,
        )
        return
    _read_seats(r, tags)
    _read_scoring(r, tags)
    if r.seats is not None:
        _read_result_tag(r, tags.get("Result"))


def _read_seats(r: Content, tags: dict[str, Tag]) -> None:
    seat_tags = {}
    for name, tag in tags.items():
        if not _SEAT_TAG.match(name):
            continue
        if not _SEAT.match(name):
            r.add("E204", f"{name} is not a seat: seats are named P1, P2, P3 and P4", tag.name.span)
            return
        seat_tags[int(name[1:])] = tag
    numbers = sorted(seat_tags)
    count = len(numbers)
    if count < MIN_SEATS:
        where = r.record.tags[0].span if r.record.tags else r.record.elements[0].span
        named = ", ".join(f"P{n}" for n in numbers) or "none"
        hint = ""
        if not numbers and r.record.plays:
            hint = "; a tag line after plays starts a new record: move it up into its header"
        elif not numbers:
            hint = "; a blank line inside a header starts a new record"
        r.add(
            "E204",
            f'a record names at least two seats as [P1 "..."] [P2 "..."] (named: {named}){hint}',
            where,
        )
        return
    if count > MAX_SEATS:
        r.add(
            "E204",
            f"at most four seats play, but the header names {count}",
            seat_tags[numbers[MAX_SEATS]].span,
        )
        return
    if numbers != list(range(1, count + 1)):
        missing = next(n for n in range(1, count + 1) if n not in seat_tags)
        extra = next(n for n in numbers if n > count)
        r.add(
            "E204",
            f"seats run P1 to P{count} with no gap: P{extra} is named but P{missing} is not",
            seat_tags[extra].span,
        )
        return
    r.seats = count
    r.names = tuple(seat_tags[n].value for n in numbers)
    for n in numbers:
        if not seat_tags[n].value.strip():
            r.add("W502", f"P{n} has no name", seat_tags[n].span)


def _read_scoring(r: Content, tags: dict[str, Tag]) -> None:
    scoring_tag, points_tag = tags.get("Scoring"), tags.get("Points")
    if scoring_tag is None:
        kind = "classic"
    else:
        kind = scoring_tag.value.strip().lower()
        if kind not in ("classic", "points"):
            r.add(
                "E205",
                f"Scoring is 'classic' or 'points', not {scoring_tag.value!r}",
                scoring_tag.span,
            )
            r.scoring_ok = False
            return
    if kind == "classic":
        if points_tag is not None:
            r.add("E205", 'a Points table needs [Scoring "points"]', points_tag.span)
            r.scoring_ok = False
        r.scoring = Scoring.classic()
        return
    if points_tag is None:
        r.scoring = Scoring.by_points(DEFAULT_POINTS)
        return
    try:
        table = points_table(points_tag.value)
    except ValueError as error:
        r.add("E205", f"Points {error}: {points_tag.value!r}", points_tag.span)
        r.scoring_ok = False
        return
    r.scoring = Scoring.by_points(table)


def points_table(text: str) -> tuple[int, ...]:
    """``"3 1 0"`` -> (3, 1, 0). Raises ValueError saying what is wrong (D1)."""
    words = text.split()
    if not words or len(words) > MAX_SEATS or not all(_POINTS.fullmatch(w) for w in words):
        raise ValueError('is one to four whole numbers, by rank, like "3 2 1 0"')
    table = tuple(int(w) for w in words)
    if any(a < b for a, b in itertools.pairwise(table)):
        raise ValueError("must not give a weaker army more than a stronger one")
    return table


def declared_outcome(text: str, seats: int) -> DeclaredOutcome | None:
    """A seat index, 'unfinished' or 'shared' from what a record declares, else None."""
    word = text.strip()
    if word.lower() in (UNFINISHED, SHARED):
        return word.lower()
    match = _SEAT.match(word)
    if match and int(match.group(1)) <= seats:
        return int(match.group(1)) - 1
    return None


def _read_result_tag(r: Content, tag: Tag | None) -> None:
    assert r.seats is not None
    if tag is None:
        where = r.record.tags[0].span if r.record.tags else r.record.elements[0].span
        r.add(
            "E206",
            'no [Result "..."] tag: declare the winner\'s seat, "unfinished" or "shared"',
            where,
        )
        return
    outcome = declared_outcome(tag.value, r.seats)
    if outcome is None:
        r.add(
            "E206",
            f'Result is a seat from P1 to P{r.seats}, "unfinished" or "shared"; not {tag.value!r}',
            tag.span,
        )
        return
    r.result_tag = (outcome, tag)


def _card(r: Content, word: Word, ply: int | None = None, text: str | None = None) -> Card | None:
    letters = word.text if text is None else text
    try:
        return Card.from_letters(letters)
    except CardError as error:
        r.add("E201", f"card {word.text!r}: {error}", word.span, ply)
        return None


def _cards(r: Content, words: tuple[Word, ...]) -> tuple[Card, ...]:
    """The cards of a hand or pile; those that cannot be read are reported and left out."""
    cards = tuple([card_spelt(w.text) for w in words])
    if None in cards:  # a spelling not seen before, maybe not a card at all
        return tuple(c for c in (_card(r, w) for w in words) if c is not None)
    return cast("tuple[Card, ...]", cards)  # None is not in it


def seat_of(r: Content, word: Word, ply: int | None = None) -> int | None:
    assert r.seats is not None
    match = _SEAT.match(word.text)
    if match and int(match.group(1)) <= r.seats:
        return int(match.group(1)) - 1
    r.add(
        "E203", f"{word.text} is not a seat of this record (seats P1 to P{r.seats})", word.span, ply
    )
    return None


def state_of(r: Content, word: Word, ply: int | None = None) -> State | None:
    state = State.lookup(word.text)
    if state is None:
        r.add(
            "E202",
            f"{word.text!r} is not a state (A Antioch, C Cyprus, J Jerusalem, E Edessa, T Tripoli)",
            word.span,
            ply,
        )
    return state


def _read_deal(r: Content) -> None:
    assert r.seats is not None
    hands_written = [e for e in r.record.elements if isinstance(e, Hand)]
    piles = [e for e in r.record.elements if isinstance(e, Pile)]
    if not hands_written and not piles:
        return
    errors_before = len(r.diagnostics)
    hands: dict[int, tuple[Card, ...]] = {}
    for hand in hands_written:
        seat = seat_of(r, hand.seat)
        cards = _cards(r, hand.cards)
        if seat is None:
            continue
        if seat in hands:
            r.add("E212", f"{seat_name(seat)} is dealt a second hand", hand.seat.span)
            continue
        if len(hand.cards) != HAND_SIZE:
            r.add(
                "E211",
                f"{seat_name(seat)}'s hand holds {len(hand.cards)} cards; "
                f"a hand is dealt {HAND_SIZE}",
                hand.span,
            )
        hands[seat] = cards
    for pile in piles[1:]:
        r.add("E212", "the deal has a second pile", pile.span)
    first = (hands_written or piles)[0]
    missing = [seat_name(s) for s in range(r.seats) if s not in hands]
    if missing:
        r.add("E212", f"the deal has no hand for {', '.join(missing)}", first.span)
    if not piles:
        r.add(
            "E212",
            "the deal has hands but no pile: write the draw pile as 'pile: ...', top first",
            first.span,
        )
    if len(r.diagnostics) > errors_before:
        r.deal_ok = False
        return
    pile_cards = _cards(r, piles[0].cards)
    total = HAND_SIZE * r.seats + len(pile_cards)
    if total < cards_needed(r.seats):
        r.add(
            "E212",
            f"the deal holds {total} cards, but {r.seats} seats need {cards_needed(r.seats)} "
            f"to play twenty each",
            piles[0].span,
        )
    if len(r.diagnostics) > errors_before:
        r.deal_ok = False
        return
    r.deal = Deal(tuple(hands[s] for s in range(r.seats)), pile_cards)


def _read_body(r: Content) -> None:
    """The plays and declared resolutions in order; plays after the first one
    that cannot be read are still read, to report their errors, but are no
    moves."""
    expected = 1
    seats, seat_index = r.seats, _SEAT_INDEX.get
    assert seats is not None
    unread = False
    for element in r.record.elements:
        if type(element) is Declared:
            _read_claim(r, element)
            continue
        if type(element) is not Play:
            continue
        play = element
        if play.drawn is None and not unread and play.number.text == _PLY_TEXT.get(expected):
            card, state = card_spelt(play.card.text), state_spelt(play.state.text)
            seat = None if play.seat is None else seat_index(play.seat.text, seats)
            if card is not None and state is not None and (seat is None or seat < seats):
                r.body.append(Move(play, card, state, seat, None))  # the usual play, read at once
                expected += 1
                continue
        errors_before = len(r.diagnostics)
        ply = expected
        if play.ply != expected:
            r.add(
                "E210",
                f"ply number {play.number.text} where {expected}. was expected",
                play.number.span,
                ply,
            )
            expected = play.ply
        card = _card(r, play.card, ply)
        state = state_of(r, play.state, ply)
        seat = seat_of(r, play.seat, ply) if play.seat is not None else None
        drawn = _card(r, play.drawn, ply, play.drawn.text[1:]) if play.drawn is not None else None
        expected += 1
        if unread:
            continue
        errors = r.diagnostics[errors_before:]
        if errors:
            r.body.append(Unread(play, min(errors, key=_shown_first)))
            unread = True
        elif card is not None and state is not None:
            r.body.append(Move(play, card, state, seat, drawn))


def _shown_first(diagnostic: Diagnostic) -> tuple[int, int]:
    span = diagnostic.span
    return (span.line, span.column) if span else (0, 0)


def _read_claim(r: Content, declared: Declared) -> None:
    text = declared.marker.text[1:]
    marker = int(text) if text.isascii() and text.isdigit() else 0
    if not 1 <= marker <= 5:
        r.add(
            "E213",
            f"marker {declared.marker.text} does not exist: markers run #1 to #5",
            declared.marker.span,
        )
    state = state_of(r, declared.state)
    seat = seat_of(r, declared.seat)
    if 1 <= marker <= 5 and state is not None and seat is not None:
        r.body.append(Claim(declared, marker, state, seat))


def _read_result_line(r: Content) -> None:
    assert r.seats is not None
    line = next((e for e in r.record.elements if isinstance(e, ResultLine)), None)
    if line is None:
        return
    outcome = declared_outcome(line.outcome.text, r.seats)
    if outcome is None:
        r.add(
            "E214",
            f"the result line names {line.outcome.text!r}; it names a seat from P1 to P{r.seats}, "
            f'"unfinished" or "shared"',
            line.outcome.span,
        )
    scores: list[tuple[int, int, Word]] = []
    for declared in line.scores:
        seat = seat_of(r, declared.seat)
        if seat is None:
            continue
        if any(seat == s for s, _, _ in scores):
            r.add(
                "E214", f"the result line gives {seat_name(seat)} a score twice", declared.seat.span
            )
            continue
        scores.append((seat, int(declared.value.text), declared.value))
    if outcome == UNFINISHED and line.scores:
        r.add("E214", "an unfinished game has no scores to declare", line.scores[0].seat.span)
    if outcome is not None:
        r.result = DeclaredResult(line, outcome, tuple(scores))
