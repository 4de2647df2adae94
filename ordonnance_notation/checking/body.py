"""The body read: the plays and the declared resolutions in their order
(E102, E201 to E203, E210, E213), then the result line (E214).

Most plays are written the usual way: numbered as expected, no draw, each
word spelt as one read before. ``usual_move`` reads those by look-ups alone,
for speed; every other play is read word by word (``read_play``), which
reports. The usual reading is a shortcut, not a second reading: it gives
``read_play``'s move or None, and a test holds it to that.
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Related, quoted
from ..engine.cards import State, card_spelt, seat_name, state_spelt
from ..engine.game import MAX_SEATS, PLAYS_PER_SEAT
from ..notation import terminals as t
from ..notation.record import Declared, Element, Play, Span, Word
from .meaning import UNFINISHED, Broken, Claim, Content, DeclaredResult, Move, Unread
from .words import SEAT_INDEX, declared_outcome, outcome_help, read_card, seat_of, state_of

PLY_TEXT = {ply: f"{ply}." for ply in range(1, PLAYS_PER_SEAT * MAX_SEATS + 1)}
"""Every ply of a game as it is numbered: the number ``Play.ply`` reads as ``ply``."""

_new = tuple.__new__  # builds the named tuples without their Python-level __new__


def read_body(r: Content, broken: list[Broken]) -> None:
    """The plays and declared resolutions in order; plays after the first one
    that cannot be read (or the first element of the body that is broken)
    are still read, to report their errors, but are no moves."""
    expected = r.first_ply  # the ply the next play is, counting plays
    written = 1  # the number the next play has when it follows the last one's number
    seats = r.seats
    assert seats is not None
    unread = False
    before: Element | None = None
    add = r.body.append
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
            claim = usual_claim(element, seats) or read_claim(r, element)
            if claim is not None:
                add(claim)
            continue
        if type(element) is not Play:
            continue
        event: Move | Unread | None = usual_move(element, expected, seats)
        if event is None:
            event = read_play(r, element, expected, written, above)
            written = element.ply + 1
        else:
            written = expected + 1
        expected += 1
        if not unread:
            add(event)
            unread = type(event) is Unread
    if broken and not unread:  # after the last play: what it held is not known
        gap, error = broken[0]
        add(Unread(None, error, gap.span))


def usual_move(play: Play, ply: int, seats: int) -> Move | None:
    """The move ``play`` is as ply ``ply`` of ``seats`` when it is written the
    usual way, found by look-ups alone; None when it takes ``read_play``."""
    if play.drawn is not None or play.number.text != PLY_TEXT.get(ply):
        return None
    card, state = card_spelt(play.card.text), state_spelt(play.state.text)
    if card is None or state is None:
        return None
    if play.seat is None:
        return _new(Move, (play, card, state, None, None))
    seat = SEAT_INDEX.get(play.seat.text, seats)
    return _new(Move, (play, card, state, seat, None)) if seat < seats else None


def read_play(
    r: Content, play: Play, ply: int, written: int, above: Element | None
) -> Move | Unread:
    """``play`` read word by word as ply ``ply``, every error reported: the
    move, or an Unread at its first error. ``written`` is the number that
    follows the last play's (0 when it is not to be compared), ``above`` the
    element before the play, whose comment may hold the plays missing."""
    errors_before = len(r.diagnostics)
    if play.ply not in (ply, written) and written:
        swallowed = _plays_in_comment(above)
        if swallowed is not None and play.ply > ply:
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
                f"ply number {play.number.text} where {ply}. was expected",
                play.number.span,
                ply,
                help=f"this is ply {ply}: write `{ply}.`"
                + (", or write the play that is missing above it" if play.ply > ply else ""),
            )
    card = read_card(r, play.card, ply)
    state = state_of(r, play.state, ply)
    seat = seat_of(r, play.seat, ply) if play.seat is not None else None
    drawn = read_card(r, play.drawn, ply, play.drawn.text[1:]) if play.drawn is not None else None
    errors = r.diagnostics[errors_before:]
    if errors:
        return Unread(play, min(errors, key=_shown_first), play.span)
    assert card is not None and state is not None  # their readers report a word they cannot read
    return Move(play, card, state, seat, drawn)


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


def marker_number(text: str) -> int | None:
    """``#3`` -> 3; None for a marker that does not exist (one for each state)."""
    digits = text[1:]
    marker = int(digits) if digits.isascii() and digits.isdigit() else 0
    return marker if 1 <= marker <= len(State) else None


MARKERS = {f"#{n}": n for n in range(1, len(State) + 1)}
"""``marker_number`` of each marker, as a look-up."""


def usual_claim(declared: Declared, seats: int) -> Claim | None:
    """The claim ``declared`` is when it is written the usual way, found by
    look-ups alone; None when it takes ``read_claim``."""
    state, marker = state_spelt(declared.state.text), MARKERS.get(declared.marker.text)
    seat = SEAT_INDEX.get(declared.seat.text, seats)
    if state is None or marker is None or seat >= seats:
        return None
    return _new(Claim, (declared, marker, state, seat))


def read_claim(r: Content, declared: Declared) -> Claim | None:
    """``declared`` read word by word, every error reported; None when it has one."""
    marker = marker_number(declared.marker.text)
    if marker is None:
        r.add(
            "E213",
            f"marker {declared.marker.text} does not exist: markers run #1 to #5",
            declared.marker.span,
            help="markers are numbered #1 to #5 in the order the states were resolved",
        )
    state = state_of(r, declared.state)
    seat = seat_of(r, declared.seat)
    if marker is None or state is None or seat is None:
        return None
    return Claim(declared, marker, state, seat)


def read_result_line(r: Content) -> None:
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
            help=outcome_help(line.outcome.text, r.names, tag=False),
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
