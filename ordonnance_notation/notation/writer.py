"""Records as canonical .ord text: the one form ``ordo`` writes.

Tags in a fixed order (known tags first, unknown ones after, as they came),
a blank line, the deal, a blank line, one play or declared resolution per
line, the result line. Cards in L B S H F order, states by letter. Comments
stay after the element they follow.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..engine.cards import Card, CardError, State, spells_a_play
from .record import Comment, Declared, Hand, Pile, Play, Record, ResultLine, Span

_NOWHERE = Span(0, 0, 0, 0)  # comments rebuilt from plain data have no place in a file

TAG_ORDER = (
    "Notation",
    "Event",
    "Site",
    "Date",
    "Round",
    "Table",
    "Annotator",
    "P1",
    "P2",
    "P3",
    "P4",
    "Scoring",
    "Points",
    "Result",
)
PILE_PER_LINE = 20
PILE_INDENT = " " * len("pile: ")


def quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tag_line(name: str, value: str) -> str:
    return f"[{name} {quote(value)}]"


def card_text(letters: str) -> str:
    """Canonical letters of a card; a malformed card is kept as written."""
    spelt = _CARD_TEXT.get(letters)  # a spelling met before: a look-up
    if spelt is not None:
        return spelt
    try:
        spelt = str(Card.from_letters(letters))
    except CardError:
        return letters
    if len(_CARD_TEXT) < _KEPT:
        _CARD_TEXT[letters] = spelt
    return spelt


def state_text(word: str) -> str:
    """A state's letter; a word that names no state is kept as written."""
    letter = _STATE_TEXT.get(word)
    if letter is None:
        state = State.lookup(word)
        if state is None:
            return word
        letter = state.name
        if len(_STATE_TEXT) < _KEPT:
            _STATE_TEXT[word] = letter
    return letter


_KEPT = 4096  # spellings remembered: far more than records use, and bounded
_CARD_TEXT: dict[str, str] = {}
_STATE_TEXT: dict[str, str] = {}


def _card_texts(cards: Iterable[str]) -> list[str]:
    """``card_text`` of each card, those met before looked up."""
    cards = list(cards)
    texts = list(map(_CARD_TEXT.get, cards))
    if None in texts:
        texts = [text or card_text(card) for text, card in zip(texts, cards, strict=True)]
    return texts  # type: ignore[return-value]


def hand_line(seat: str, cards: Iterable[str]) -> str:
    return " ".join([f"hand {seat}:", *_card_texts(cards)])


def pile_lines(cards: Sequence[str]) -> list[str]:
    words = _card_texts(cards)
    if not words:
        return ["pile:"]
    rows = [words[i : i + PILE_PER_LINE] for i in range(0, len(words), PILE_PER_LINE)]
    if len(rows) > 1 and spells_a_play(rows[-1]):
        rows[-2:] = [rows[-2] + rows[-1]]  # on a line of their own they would read as a play
    return ["pile: " + " ".join(rows[0])] + [PILE_INDENT + " ".join(row) for row in rows[1:]]


def play_line(
    ply: int,
    card: str,
    state: str,
    seat: str | None = None,
    drawn: str | None = None,
    glyph: str | None = None,
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


def plain(record: Record) -> dict[str, Any]:
    """The record as plain data (lists, dicts, strings, numbers): the archive
    form of a record, and what the canonical text is printed from. Cards and
    states are canonical where they can be read, else kept as written."""
    out: dict[str, Any] = {}
    if record.comments:
        out["comments"] = _plain_comments(record.comments)
    tags = sorted(record.tag_elements, key=lambda t: tag_rank(t.name.text))
    out["tags"] = [_with({"name": t.name.text, "value": t.value}, t.comments) for t in tags]
    deal: list[dict[str, Any]] = []
    body: list[dict[str, Any]] = []
    for element in record.elements:
        if isinstance(element, Hand):
            deal.append(
                _with(
                    {
                        "hand": element.seat.text,
                        "cards": [card_text(w.text) for w in element.cards],
                    },
                    element.comments,
                )
            )
        elif isinstance(element, Pile):
            deal.append(
                _with({"pile": [card_text(w.text) for w in element.cards]}, element.comments)
            )
        elif isinstance(element, Play):
            play: dict[str, Any] = {"ply": element.ply}
            if element.seat:
                play["seat"] = element.seat.text
            if element.drawn:
                play["drawn"] = card_text(element.drawn.text[1:])
            play["card"] = card_text(element.card.text)
            play["state"] = state_text(element.state.text)
            if element.glyph:
                play["glyph"] = element.glyph.text
            body.append(_with(play, element.comments))
        elif isinstance(element, Declared):
            declared = {
                "marker": int(element.marker.text[1:]),
                "state": state_text(element.state.text),
                "seat": element.seat.text,
            }
            body.append(_with(declared, element.comments))
        elif isinstance(element, ResultLine):
            result: dict[str, Any] = {"result": element.outcome.text}
            if element.scores:
                result["scores"] = [[s.seat.text, int(s.value.text)] for s in element.scores]
            body.append(_with(result, element.comments))
    if deal:
        out["deal"] = deal
    if body:
        out["body"] = body
    return out


def tag_rank(name: str) -> int:
    """A tag's place in the canonical order: ``TAG_ORDER``'s, then unknown tags."""
    return TAG_ORDER.index(name) if name in TAG_ORDER else len(TAG_ORDER)


def _plain_comments(comments: Sequence[Comment]) -> list[dict[str, str]]:
    return [{"brace" if c.braced else "line": c.text} for c in comments]


def _with(element: dict[str, Any], comments: Sequence[Comment]) -> dict[str, Any]:
    if comments:
        element["comments"] = _plain_comments(comments)
    return element


def _comments_of(element: dict[str, Any]) -> list[Comment]:
    return [
        Comment(text, kind == "brace", _NOWHERE)
        for item in element.get("comments", ())
        for kind, text in item.items()
    ]


def text(record: dict[str, Any]) -> str:
    """The canonical text of a record in plain form (see ``plain``), ending with a newline."""
    out: list[str] = [comment_text(c) for c in _comments_of(record)]
    for tag in sorted(record.get("tags", ()), key=lambda t: tag_rank(t["name"])):
        out += tag_lines(tag)
    if record.get("deal"):
        out.append("")
        for element in record["deal"]:
            out += deal_lines(element)
    if record.get("body"):
        out.append("")
    for element in record.get("body", ()):
        out += body_lines(element)
    return "\n".join(out) + "\n"


def tag_lines(tag: dict[str, Any]) -> list[str]:
    """The lines of a tag in plain form, with its comments."""
    return with_comments(tag_line(tag["name"], tag["value"]), _comments_of(tag))


def deal_lines(element: dict[str, Any]) -> list[str]:
    """The lines of a hand or the pile in plain form, with its comments."""
    if "hand" in element:
        lines = [hand_line(element["hand"], element["cards"])]
    else:
        lines = pile_lines(element["pile"])
    return lines[:-1] + with_comments(lines[-1], _comments_of(element))


def body_lines(element: dict[str, Any]) -> list[str]:
    """The lines of a play, a declared resolution or the result line in
    plain form, with its comments."""
    if "ply" in element:
        line = play_line(
            element["ply"],
            element["card"],
            element["state"],
            element.get("seat"),
            element.get("drawn"),
            element.get("glyph"),
        )
    elif "marker" in element:
        line = declared_line(element["marker"], element["state"], element["seat"])
    else:
        line = result_line(element["result"], element.get("scores", ()))
    return with_comments(line, _comments_of(element))


def format_record(record: Record) -> str:
    """The canonical text of one record, ending with a newline."""
    return text(plain(record))


def format_records(records: Iterable[Record]) -> str:
    """Records separated by one blank line."""
    return "".join(formatted_pieces(records))


def formatted_pieces(records: Iterable[Record]) -> Iterator[str]:
    """``format_records``, a record at a time."""
    for number, record in enumerate(records):
        text = format_record(record)
        yield text if number == 0 else "\n" + text
