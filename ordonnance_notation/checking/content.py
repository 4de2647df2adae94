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

from ..diagnostics import Diagnostic, Related, quoted
from ..engine.cards import (
    Card,
    CardError,
    State,
    card_spelt,
    seat_name,
    spells_a_card,
    state_spelt,
)
from ..engine.game import HAND_SIZE, MAX_SEATS, MIN_SEATS, Deal, cards_needed
from ..engine.scoring import DEFAULT_POINTS, Scoring
from ..notation import terminals as t
from ..notation.lookalikes import lookalike_help
from ..notation.mistakes import seat_meant
from ..notation.record import (
    Declared,
    Element,
    Gap,
    Hand,
    Pile,
    Play,
    Record,
    ResultLine,
    Span,
    Tag,
    Word,
)
from .advice import card_help, closest, seat_help, state_help, tag_meant

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
_MARKERS = {f"#{n}": n for n in range(1, 6)}  # each marker, as written
_new = tuple.__new__  # builds the named tuples without their Python-level __new__


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
    deal_short: bool = False  # the deal lists fewer cards than a whole game draws
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


def content_of(record: Record, broken: tuple[Broken, ...] = ()) -> Content:
    """The meaning of ``record``'s words, and every content error (E2xx).
    ``broken`` are the elements of a record read in part that could not be
    read: what they may have said is not reported missing, and the plays
    stop at the first of them in the body."""
    content = Content(record)
    kinds = {gap.kind for gap, _ in broken}
    content.diagnostics.extend(content.layout.misplaced)
    _read_header(content, header_broken="tag" in kinds)
    if content.seats is not None:
        if kinds & {"hand", "pile"}:
            content.deal_ok = False
        else:
            _read_deal(content)
        _read_body(content, [b for b in broken if b[0].kind in _BODY_KINDS])
        _read_result_line(content)
    return content


_BODY_KINDS = frozenset(("play", "words", "declared", "comment"))


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
            record.tags,
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


def _read_header(r: Content, header_broken: bool = False) -> None:
    tags: dict[str, Tag] = {}
    doubled_seat = False
    out_of_place = {d.span for d in r.diagnostics if d.code == "E209"}
    for tag in r.layout.tags:
        name = tag.name.text
        if name in tags and tag.span in out_of_place:
            continue  # a tag among the plays is reported once, as out of place
        if name in tags:
            first = tags[name].span
            free = next(
                (f"P{n}" for n in range(1, MAX_SEATS + 1) if f"P{n}" not in tags),
                None,
            )
            seat = _SEAT.match(name) is not None and free is not None
            shown = quoted(name, marks=False)
            r.add(
                "E208",
                f"tag {shown} given twice (first at line {first.line})",
                tag.name.span,
                help=f"is this another player? name them [{free} ...]"
                if seat
                else f"keep one of the two [{shown} ...] tags",
                related=(Related(f"{shown} first given here", first),),
            )
            doubled_seat = doubled_seat or seat
        else:
            tags[name] = tag
    version = tags.get("Notation")
    if version is not None and version.value != NOTATION_VERSION:
        r.add(
            "E207",
            f"notation version {quoted(version.value)} is not supported "
            f"(this reader knows version {NOTATION_VERSION})",
            version.span,
            help=f'write [Notation "{NOTATION_VERSION}"], or leave the tag out',
        )
        return
    _read_seats(r, tags, header_broken or doubled_seat)
    _unknown_tags(r, tags)
    _read_scoring(r, tags)
    if r.seats is not None and (tags.get("Result") or not header_broken):
        _read_result_tag(r, tags.get("Result"))


def _read_seats(r: Content, tags: dict[str, Tag], header_broken: bool = False) -> None:
    seat_tags = {}
    for name, tag in tags.items():
        if not _SEAT_TAG.match(name):
            continue
        if not _SEAT.match(name):
            r.add(
                "E204",
                f"{quoted(name, marks=False)} is not a seat: seats are named P1, P2, P3 and P4",
                tag.name.span,
                help="name the players in turn order, from P1 (who plays first) to P4",
            )
            return
        seat_tags[int(name[1:])] = tag
    numbers = sorted(seat_tags)
    count = len(numbers)
    if count < MIN_SEATS and header_broken:
        return  # the seats may be named in the tags that could not be read
    if count < MIN_SEATS:
        where = r.layout.tags[0].span if r.layout.tags else r.record.elements[0].span
        named = ", ".join(f"P{n}" for n in numbers) or "none"
        lower = [
            tag for name, tag in tags.items() if _SEAT_TAG.match(name.upper()) and name[0] == "p"
        ]
        help = 'name every player in the header, e.g. [P1 "Anna"] [P2 "Boris"]'
        if lower:
            where = lower[0].name.span
            seat = quoted(lower[0].name.text.upper(), marks=False)
            help = f"seat tags are written with a capital P: [{seat} ...]"
        elif not numbers and r.record.plays:
            help = "a tag line after plays starts a new record: move it up into its header"
        r.add(
            "E204",
            f'a record names at least two seats as [P1 "..."] [P2 "..."] (named: {named})',
            where,
            help=help,
        )
        return
    if count > MAX_SEATS:
        r.add(
            "E204",
            f"at most four seats play, but the header names {count}",
            seat_tags[numbers[MAX_SEATS]].span,
            help="Ordonnance is played by two to four players: name P1 to P4 at most",
        )
        return
    if numbers != list(range(1, count + 1)):
        missing = next(n for n in range(1, count + 1) if n not in seat_tags)
        extra = next(n for n in numbers if n > count)
        r.add(
            "E204",
            f"seats run P1 to P{count} with no gap: P{extra} is named but P{missing} is not",
            seat_tags[extra].span,
            help=f"rename the tag [P{extra} ...] to [P{missing} ...], in turn order",
        )
        return
    r.seats = count
    r.names = tuple(seat_tags[n].value for n in numbers)
    for n in numbers:
        if not seat_tags[n].value.strip():
            r.add("W502", f"P{n} has no name", seat_tags[n].span, help=f'write [P{n} "Name"]')


def _unknown_tags(r: Content, tags: dict[str, Tag]) -> None:
    """W503 for a tag whose name is a misspelling of a known tag the record lacks."""
    for name, tag in tags.items():
        if name[0] == "p" and _SEAT_TAG.match(name.upper()):
            continue
        meant = tag_meant(name)
        if meant is not None and meant not in tags and not _SEAT_TAG.match(meant):
            shown = quoted(name, marks=False)
            r.add(
                "W503",
                f"{shown} is not a tag this tool knows, and there is no {meant} tag",
                tag.name.span,
                help=f"did you mean [{meant} ...]? tag names are case-sensitive",
            )


def _read_scoring(r: Content, tags: dict[str, Tag]) -> None:
    scoring_tag, points_tag = tags.get("Scoring"), tags.get("Points")
    if scoring_tag is None:
        kind = "classic"
    else:
        kind = scoring_tag.value.strip().lower()
        if kind not in ("classic", "points"):
            meant = closest(kind, ("classic", "points"), cutoff=0.6)
            r.add(
                "E205",
                f"Scoring is 'classic' or 'points', not {quoted(scoring_tag.value)}",
                scoring_tag.span,
                help=f'did you mean [Scoring "{meant}"]?'
                if meant
                else 'write [Scoring "classic"] (most states wins) or [Scoring "points"]',
            )
            r.scoring_ok = False
            return
    if kind == "classic":
        if points_tag is not None:
            r.add(
                "E205",
                'a Points table needs [Scoring "points"]',
                points_tag.span,
                help='add [Scoring "points"] to the header, or remove the Points tag',
            )
            r.scoring_ok = False
        r.scoring = Scoring.classic()
        return
    if points_tag is None:
        r.scoring = Scoring.by_points(DEFAULT_POINTS)
        return
    try:
        table = points_table(points_tag.value)
    except ValueError as error:
        r.add(
            "E205",
            f"Points {error}: {quoted(points_tag.value)}",
            points_tag.span,
            help='give the points of the strongest army first, e.g. [Points "3 2 1 0"]',
        )
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
        where = r.layout.tags[0].span if r.layout.tags else r.record.elements[0].span
        meant = next(
            (t for t in r.layout.tags if closest(t.name.text, ("Result",), cutoff=0.75)), None
        )
        if meant is not None:
            r.add(
                "E206",
                f"no [Result] tag: {meant.name.text} is not Result",
                meant.name.span,
                help="tag names are case-sensitive: "
                f'write [Result "{quoted(meant.value, marks=False)}"]',
            )
            return
        r.add(
            "E206",
            'no [Result "..."] tag: declare the winner\'s seat, "unfinished" or "shared"',
            where,
            help='add [Result "P1"] (the winner\'s seat), [Result "unfinished"] or '
            '[Result "shared"] to the header',
        )
        return
    outcome = declared_outcome(tag.value, r.seats)
    if outcome is None:
        r.add(
            "E206",
            f'Result is a seat from P1 to P{r.seats}, "unfinished" or "shared"; '
            f"not {quoted(tag.value)}",
            tag.span,
            help=_outcome_help(tag.value, r.names, tag=True),
        )
        return
    r.result_tag = (outcome, tag)


def _outcome_help(word: str, names: tuple[str, ...], tag: bool) -> str:
    """How to declare the outcome ``word`` was meant to be, in the Result tag
    (``tag``) or on the result line."""

    def written(value: str) -> str:
        return f'[Result "{value}"]' if tag else f"`result {value}`"

    odd = lookalike_help(word)
    if odd is not None:
        return odd
    meant = seat_meant(word, names)
    if meant is not None:
        seat, why = meant
        return f"{why}: write {written(f'P{seat + 1}')}"
    word_meant = closest(word.strip(), (UNFINISHED, SHARED), cutoff=0.6)
    if word_meant is not None:
        return f"did you mean {written(word_meant)}?"
    return (
        f"declare the winner's seat (P1 to P{len(names)}), "
        f'"unfinished" or "shared" (when no rule breaks a tie)'
    )


def _card(r: Content, word: Word, ply: int | None = None, text: str | None = None) -> Card | None:
    letters = word.text if text is None else text
    try:
        return Card.from_letters(letters)
    except CardError as error:
        r.add("E201", f"card {quoted(word.text)}: {error}", word.span, ply, help=card_help(letters))
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
        "E203",
        f"{quoted(word.text, marks=False)} is not a seat of this record (seats P1 to P{r.seats})",
        word.span,
        ply,
        help=seat_help(word.text, r.names),
    )
    return None


def state_of(r: Content, word: Word, ply: int | None = None) -> State | None:
    state = State.lookup(word.text)
    if state is None:
        r.add(
            "E202",
            f"{quoted(word.text)} is not a state "
            "(A Antioch, C Cyprus, J Jerusalem, E Edessa, T Tripoli)",
            word.span,
            ply,
            help=state_help(word.text),
        )
    return state


def _read_deal(r: Content) -> None:
    assert r.seats is not None
    hands_written = r.layout.hands
    piles = r.layout.piles
    if not hands_written and not piles:
        return
    errors_before = len(r.diagnostics)
    hands: dict[int, tuple[Card, ...]] = {}
    named = [_seat_index(h.seat.text, r.seats) for h in hands_written]
    unnamed = [s for s in range(r.seats) if s not in named]  # seats dealt no hand
    for hand, seat in zip(hands_written, named, strict=True):
        cards = _cards(r, hand.cards)
        if seat is None:
            seat_of(r, hand.seat)
            unnamed = unnamed[1:]  # the hand meant for one of them, likely
            continue
        if seat in hands:
            other = seat_name(unnamed.pop(0)) if unnamed else None
            r.add(
                "E212",
                f"{seat_name(seat)} is dealt a second hand"
                + (f", and {other} none" if other else ""),
                hand.seat.span,
                help=f"is this {other}'s hand? write `hand {other}:`"
                if other
                else "each seat is dealt one hand: check the seat of this hand",
            )
            continue
        if (
            not piles
            and len(hand.cards) > HAND_SIZE
            and hand.cards[HAND_SIZE].line > hand.seat.line
        ):
            extra = hand.cards[HAND_SIZE]
            r.add(
                "E212",
                f"the deal has no pile, and {seat_name(seat)}'s hand goes on here "
                f"with {len(hand.cards) - HAND_SIZE} more cards",
                extra.span,
                help="write `pile:` before the draw pile's cards",
            )
            piles = [Pile(hand.cards[HAND_SIZE:], extra.span)]  # read as the pile they must be
            hands[seat] = cards[:HAND_SIZE]
            continue
        if len(hand.cards) != HAND_SIZE:
            r.add(
                "E211",
                f"{seat_name(seat)}'s hand holds {len(hand.cards)} cards; "
                f"a hand is dealt {HAND_SIZE}",
                hand.span,
                help=f"list the {HAND_SIZE} cards {seat_name(seat)} was dealt: "
                + ("is one missing?" if len(hand.cards) < HAND_SIZE else "is one written twice?"),
            )
        hands[seat] = cards
    for pile in piles[1:]:
        r.add(
            "E212",
            "the deal has a second pile",
            pile.span,
            help="write the whole draw pile on one 'pile:' line, top first",
            related=(Related("the first pile", piles[0].span),),
        )
    first = (hands_written or piles)[0]
    if unnamed:
        missing = ", ".join(seat_name(s) for s in unnamed)
        r.add(
            "E212",
            f"the deal has no hand for {missing}",
            first.span,
            help=f"write each seat's hand, e.g. `hand {seat_name(unnamed[0])}: ...`, "
            "or leave the deal out",
        )
    if not piles:
        last = hands_written[-1]
        r.add(
            "E212",
            "the deal has hands but no pile",
            last.cards[-1].span if last.cards else last.span,
            help="write the draw pile after the hands as `pile: ...`, top first",
        )
    if len(r.diagnostics) > errors_before:
        r.deal_ok = False
        return
    if _play_in_pile(r, piles[0]):
        r.deal_ok = False
        return
    pile_cards = _cards(r, piles[0].cards)
    if len(r.diagnostics) > errors_before:
        r.deal_ok = False
        return
    r.deal = Deal(tuple(hands[s] for s in range(r.seats)), pile_cards)
    r.pile = piles[0]
    r.deal_short = HAND_SIZE * r.seats + len(pile_cards) < cards_needed(r.seats)


def _play_in_pile(r: Content, pile: Pile) -> bool:
    """A first play written without its number on the line after the pile
    (``LH J``) reads as the pile's last cards: said so (E101), once."""
    words = pile.cards
    if not words or words[-1].line == pile.span.line:
        return False
    if len(words) > 3 and words[-4].line == words[-1].line:
        return False  # more than three words on the pile's last line: no play
    last = [w for w in words if w.line == words[-1].line]
    if not 2 <= len(last) <= 3 or State.lookup(last[1].text) is None:
        return False
    if card_spelt(last[1].text) is not None or not spells_a_card(last[0].text):
        return False
    written = " ".join(w.text for w in last)
    r.add(
        "E101",
        f"a play without its ply number, read as the pile's last cards: {written}",
        last[0].span.to(last[-1].span),
        help=f"every play starts with its number: write `1. {written}`",
    )
    r.first_ply = 2
    return True


def _seat_index(text: str, seats: int) -> int | None:
    match = _SEAT.match(text)
    return int(match.group(1)) - 1 if match and int(match.group(1)) <= seats else None


def _read_body(r: Content, broken: list[Broken]) -> None:
    """The plays and declared resolutions in order; plays after the first one
    that cannot be read (or the first element of the body that is broken)
    are still read, to report their errors, but are no moves."""
    expected = r.first_ply  # the ply the next play is, counting plays
    written = 1  # the number the next play has when it follows the last one's number
    seats, seat_index = r.seats, _SEAT_INDEX.get
    assert seats is not None
    unread = False
    before: Element | None = None
    add, ply_text, new = r.body.append, _PLY_TEXT.get, _new
    for element in r.record.elements:
        above, before = before, element
        while broken and broken[0][0].span.line < element.span.line:
            gap, error = broken.pop(0)
            if not unread:
                add(Unread(None, error, gap.span))
                unread = True
            if gap.kind != "declared":
                expected += 1
            written = 0  # the next number is not compared with a play that could not be read
        if type(element) is Declared:
            _read_claim(r, element)
            continue
        if type(element) is not Play:
            continue
        play = element
        if play.drawn is None and not unread and play.number.text == ply_text(expected):
            card, state = card_spelt(play.card.text), state_spelt(play.state.text)
            seat = None if play.seat is None else seat_index(play.seat.text, seats)
            if card is not None and state is not None and (seat is None or seat < seats):
                add(new(Move, (play, card, state, seat, None)))  # the usual play, read at once
                expected += 1
                written = expected
                continue
        errors_before = len(r.diagnostics)
        ply = expected
        if play.ply not in (expected, written) and written:
            swallowed = _plays_in_comment(above)
            if swallowed is not None and play.ply > expected:
                r.add(
                    "E102",
                    f"the comment opened here runs to line {swallowed.end_line} "
                    f"and holds plays: is a '}}' missing?",
                    Span(swallowed.line, swallowed.column, swallowed.line, swallowed.column + 1),
                    ply,
                    help="close the comment with '}' where it should end: "
                    "the plays inside a comment are not read",
                    related=(Related("the comment ends here", _end_of(swallowed)),),
                )
            else:
                r.add(
                    "E210",
                    f"ply number {play.number.text} where {expected}. was expected",
                    play.number.span,
                    ply,
                    help=f"this is ply {expected}: write `{expected}.`"
                    + (
                        ", or write the play that is missing above it"
                        if play.ply > expected
                        else ""
                    ),
                )
        written = play.ply + 1
        card = _card(r, play.card, ply)
        state = state_of(r, play.state, ply)
        seat = seat_of(r, play.seat, ply) if play.seat is not None else None
        drawn = _card(r, play.drawn, ply, play.drawn.text[1:]) if play.drawn is not None else None
        expected += 1
        if unread:
            continue
        errors = r.diagnostics[errors_before:]
        if errors:
            r.body.append(Unread(play, min(errors, key=_shown_first), play.span))
            unread = True
        elif card is not None and state is not None:
            r.body.append(Move(play, card, state, seat, drawn))
    if broken and not unread:  # after the last play: what it held is not known
        gap, error = broken[0]
        r.body.append(Unread(None, error, gap.span))


_PLAY_LINE = re.compile(f"^{t.BLANK}*{t.PLY}", re.MULTILINE)


def _plays_in_comment(element: Element | None) -> Span | None:
    """The span of a ``{`` comment after ``element`` that runs over lines
    holding plays (a ``}`` forgotten where the comment should have ended)."""
    for comment in element.comments if element is not None else ():
        runs_on = comment.braced and comment.span.end_line > comment.span.line
        if runs_on and _PLAY_LINE.search(comment.text.split("\n", 1)[-1]):
            return comment.span
    return None


def _end_of(span: Span) -> Span:
    return Span(span.end_line, span.end_column - 1, span.end_line, span.end_column)


def _shown_first(diagnostic: Diagnostic) -> tuple[int, int]:
    span = diagnostic.span
    return (span.line, span.column) if span else (0, 0)


def _read_claim(r: Content, declared: Declared) -> None:
    assert r.seats is not None
    state, seat = state_spelt(declared.state.text), _SEAT_INDEX.get(declared.seat.text)
    text = declared.marker.text
    if state is not None and seat is not None and seat < r.seats and text in _MARKERS:
        r.body.append(_new(Claim, (declared, _MARKERS[text], state, seat)))  # the usual claim
        return
    text = text[1:]
    marker = int(text) if text.isascii() and text.isdigit() else 0
    if not 1 <= marker <= 5:
        r.add(
            "E213",
            f"marker {declared.marker.text} does not exist: markers run #1 to #5",
            declared.marker.span,
            help="markers are numbered #1 to #5 in the order the states were resolved",
        )
    state = state_of(r, declared.state)
    seat = seat_of(r, declared.seat)
    if 1 <= marker <= 5 and state is not None and seat is not None:
        r.body.append(Claim(declared, marker, state, seat))


def _read_result_line(r: Content) -> None:
    assert r.seats is not None
    line = r.layout.result_line
    if line is None:
        return
    outcome = declared_outcome(line.outcome.text, r.seats)
    if outcome is None:
        r.add(
            "E214",
            f"the result line names {quoted(line.outcome.text)}; "
            f'it names a seat from P1 to P{r.seats}, "unfinished" or "shared"',
            line.outcome.span,
            help=_outcome_help(line.outcome.text, r.names, tag=False),
        )
    scores: list[tuple[int, int, Word]] = []
    for declared in line.scores:
        seat = seat_of(r, declared.seat)
        if seat is None:
            continue
        if any(seat == s for s, _, _ in scores):
            r.add(
                "E214",
                f"the result line gives {seat_name(seat)} a score twice",
                declared.seat.span,
                help="give each seat one score, e.g. `result P2 P1:2 P2:3`",
            )
            continue
        scores.append((seat, int(declared.value.text), declared.value))
    if outcome == UNFINISHED and line.scores:
        r.add(
            "E214",
            "an unfinished game has no scores to declare",
            line.scores[0].seat.span,
            help="write just `result unfinished`",
        )
    if outcome is not None:
        r.result = DeclaredResult(line, outcome, tuple(scores))
