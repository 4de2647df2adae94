"""Records as canonical .ord text: the one form ``ordo`` writes.

Tags in a fixed order (known tags first, unknown ones after, as they came),
a blank line, the deal, a blank line, one play or declared resolution per
line, the result line. Cards in L B S H F order, states by letter. Comments
stay after the element they follow.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.cards import Card, CardError, State
from .record import Comment, Declared, Hand, Pile, Play, Record, ResultLine, Tag

TAG_ORDER = ("Notation", "Event", "Site", "Date", "Round", "Table", "Annotator",
             "P1", "P2", "P3", "P4", "Scoring", "Points", "Result")
PILE_PER_LINE = 20
PILE_INDENT = " " * len("pile: ")


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tag_line(name: str, value: str) -> str:
    return f"[{name} {quote(value)}]"


def card_text(letters: str) -> str:
    """Canonical letters of a card; a malformed card is kept as written."""
    try:
        return str(Card.from_letters(letters))
    except CardError:
        return letters


def state_text(word: str) -> str:
    state = State.lookup(word)
    return state.name if state is not None else word


def hand_line(seat: str, cards: Iterable[str]) -> str:
    return " ".join([f"hand {seat}:", *(card_text(c) for c in cards)])


def pile_lines(cards: Sequence[str]) -> list[str]:
    words = [card_text(c) for c in cards]
    if not words:
        return ["pile:"]
    rows = [words[i : i + PILE_PER_LINE] for i in range(0, len(words), PILE_PER_LINE)]
    return ["pile: " + " ".join(rows[0])] + [PILE_INDENT + " ".join(row) for row in rows[1:]]


def play_line(
    ply: int, card: str, state: str, seat: str | None = None, drawn: str | None = None, glyph: str | None = None
) -> str:
    parts = [f"{ply}."]
    if seat:
        parts.append(seat)
    if drawn:
        parts.append("+" + card_text(drawn))
    parts += [card_text(card), state_text(state)]
    if glyph:
        parts.append(glyph)
    return " ".join(parts)


def declared_line(marker: int | str, state: str, seat: str) -> str:
    return f"#{marker} {state_text(state)} {seat}"


def result_line(outcome: str, scores: Iterable[tuple[str, int | str]] = ()) -> str:
    return " ".join(["result", outcome, *(f"{seat}:{value}" for seat, value in scores)])


def comment_text(comment: Comment) -> str:
    return f"{{{comment.text}}}" if comment.braced else f"; {comment.text}".rstrip()


def with_comments(line: str, comments: Sequence[Comment]) -> list[str]:
    """The element's line with its comments: braced ones inline, a line comment
    ending the line; whatever follows a line comment starts a new line."""
    lines = [line]
    closed = False
    for comment in comments:
        if closed:
            lines.append(comment_text(comment))
        else:
            lines[-1] += " " + comment_text(comment)
        closed = not comment.braced
    return lines


def format_record(record: Record) -> str:
    """The canonical text of one record, ending with a newline."""
    out: list[str] = [comment_text(c) for c in record.comments]
    tags = sorted(
        record.tags,
        key=lambda t: (TAG_ORDER.index(t.name.text) if t.name.text in TAG_ORDER else len(TAG_ORDER)),
    )
    for tag in tags:
        out += with_comments(tag_line(tag.name.text, tag.value), tag.comments)
    rest = [e for e in record.elements if not isinstance(e, Tag)]
    deal = [e for e in rest if isinstance(e, Hand | Pile)]
    body = [e for e in rest if not isinstance(e, Hand | Pile)]
    if deal:
        out.append("")
        for element in deal:
            if isinstance(element, Hand):
                out += with_comments(hand_line(element.seat.text, (w.text for w in element.cards)), element.comments)
            else:
                lines = pile_lines([w.text for w in element.cards])
                out += lines[:-1] + with_comments(lines[-1], element.comments)
    if body:
        out.append("")
    for element in body:
        out += with_comments(_body_line(element), element.comments)
    return "\n".join(out) + "\n"


def _body_line(element: Play | Declared | ResultLine) -> str:
    if isinstance(element, Play):
        return play_line(
            element.ply,
            element.card.text,
            element.state.text,
            element.seat.text if element.seat else None,
            element.drawn.text[1:] if element.drawn else None,
            element.glyph.text if element.glyph else None,
        )
    if isinstance(element, Declared):
        return declared_line(element.marker.text[1:], element.state.text, element.seat.text)
    return result_line(element.outcome.text, ((s.seat.text, s.value.text) for s in element.scores))


def format_records(records: Iterable[Record]) -> str:
    """Records separated by one blank line."""
    return "\n".join(format_record(r) for r in records)
