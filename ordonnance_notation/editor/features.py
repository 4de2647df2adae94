"""What the language server says of a record, beyond its diagnostics: the
table after a ply (hover), the plays, states and tags that may come next
(completion) and the outline of a file (document symbols).

Each answer is built from what the commands already say: the table is the
one ``ordo replay --ply`` draws, the plays are ``Game.legal_plays``, the tag
names are the writer's ``TAG_ORDER``.
"""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from ..checking.report import Report, Step
from ..checking.validator import validate
from ..diagnostics import Diagnostic, Span
from ..engine.cards import CARD_WORDS, Card, CardError, State, seat_name
from ..engine.game import Game
from ..notation import terminals as t
from ..notation.parser import ParsedItem
from ..notation.record import Declared, Element, Hand, Pile, Play, Record, Tag, Unparsed, Word
from ..notation.writer import TAG_ORDER
from ..views.board import render_step
from ..views.steps import Steps
from .documents import Document, Piece
from .places import Lines

_B = t.BLANK
_BEFORE_CARD = f"{_B}*(?P<ply>{t.PLY}){_B}+(?:{t.SEAT}{_B}+)?(?:{t.DRAW}{_B}+)?"
_PLAY_STARTED = re.compile(f"{_BEFORE_CARD}(?P<word>{t.CARD})?$")
"""A play line typed up to its card: ``12. P2 +L H``."""
_STATE_STARTED = re.compile(f"(?:{_BEFORE_CARD}{t.CARD}|{_B}*{t.MARKER}){_B}+(?P<word>{t.STATE})?$")
"""A play line or a declared marker typed up to its state: ``12. HF J``, ``#2 J``."""
_TAG_STARTED = re.compile(f"{_B}*{re.escape(t.TAG_OPEN)}(?P<word>{t.TAG_NAME})?$")


def record_at(document: Document, line: int) -> tuple[Piece, ParsedItem] | None:
    """The record (read) whose lines hold 1-based ``line``."""
    piece = document.piece_at(line)
    item = piece.parsed(document.source) if piece is not None else None
    return None if piece is None or item is None else (piece, item)


def _record_of(item: ParsedItem) -> Record | None:
    return item.partial if isinstance(item, Unparsed) else item


def _inside(span: Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


def element_at(item: ParsedItem, line: int, column: int) -> Element | None:
    record = _record_of(item)
    if record is None:
        return None
    return next((e for e in record.elements if _inside(e.span, line, column)), None)


# hover


def hover(document: Document, lines: Lines, position: lsp.Position) -> lsp.Hover | None:
    """On a card: its icons by name. On a play or a declared marker: the
    table after that ply, as ``ordo replay --ply`` draws it."""
    line, column = lines.column(position)
    found = record_at(document, line)
    if found is None:
        return None
    _piece, item = found
    element = element_at(item, line, column)
    if element is None:
        return None
    word = next((w for w in _cards_of(element) if _inside(w.span, line, column)), None)
    if word is not None:
        text = card_words(word.text.lstrip("+"))
        return None if text is None else _hover(text, lines.range(word.span))
    if not isinstance(element, Play | Declared):
        return None
    return _hover(table_after(item, element), lines.range(element.span))


def _hover(markdown: str, where: lsp.Range) -> lsp.Hover:
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, markdown), where)


def _cards_of(element: Element) -> tuple[Word, ...]:
    if isinstance(element, Play):
        return (element.card,) + ((element.drawn,) if element.drawn else ())
    if isinstance(element, Hand | Pile):
        return element.cards
    return ()


def card_words(letters: str) -> str | None:
    """``**HF**: helmet, flag``; None for letters that are no card."""
    try:
        card = Card.from_letters(letters)
    except CardError:
        return None
    return f"**{card}**: {', '.join(icon.word for icon in card.icons)}"


def table_after(item: ParsedItem, element: Play | Declared) -> str:
    """The table after ``element``'s ply (a declared marker: after the play
    above it), in a code block; or why the replay does not reach it."""
    report = validate(item, steps=True)
    record = _record_of(item)
    if record is None or report.game is None or not report.steps:
        return "the replay does not start: the header or the deal has errors"
    plays = [e for e in record.elements[: record.elements.index(element) + 1] if type(e) is Play]
    if not plays:
        return "before the first play: no table yet"
    step = _step_of(report, plays[-1])
    if step is None:
        return _stopped(report.stopped, plays[-1])
    text = render_step(Steps(report), step).plain.rstrip("\n")
    return f"```text\n{text}\n```"


def _step_of(report: Report, play: Play) -> Step | None:
    return next((s for s in report.steps if s.play is not None and s.play.span == play.span), None)


def _stopped(stopped: Diagnostic | None, play: Play) -> str:
    why = f": {stopped.code} at ply {stopped.ply}, {stopped.message}" if stopped else ""
    return f"the replay stops before ply {play.number.text}{why}"


# completion


def completion(
    document: Document, lines: Lines, position: lsp.Position
) -> list[lsp.CompletionItem]:
    """After a ply number: each play the seat to move may make (with the
    deal, only the cards it holds; without, any card to a state it may still
    play to); after a card or a marker: the states; after ``[``: the tags."""
    typed = lines.before(position)
    if _TAG_STARTED.match(typed):
        return [_item(name, lsp.CompletionItemKind.Property, "tag") for name in TAG_ORDER]
    if _STATE_STARTED.match(typed):
        return [
            _item(word, lsp.CompletionItemKind.EnumMember, state.full_name)
            for state in State
            for word in (state.name, state.full_name)
        ]
    if match := _PLAY_STARTED.match(typed):
        line, _column = lines.column(position)
        return _plays(document, line, int(match.group("ply")[:-1]))
    return []


def _item(label: str, kind: lsp.CompletionItemKind, detail: str) -> lsp.CompletionItem:
    return lsp.CompletionItem(label, kind=kind, detail=detail)


def _plays(document: Document, line: int, ply: int) -> list[lsp.CompletionItem]:
    game = _game_before(document, line, ply)
    if game is None or game.over:
        return []
    seat = seat_name(game.to_move)
    if game.hands is not None:
        plays = game.legal_plays()
    else:
        states = game.open_states(game.to_move)
        plays = tuple((card, state) for card in CARD_WORDS for state in states)
    return [
        lsp.CompletionItem(
            f"{card} {state.name}",
            kind=lsp.CompletionItemKind.Value,
            detail=f"{seat} plays {card} to {state.full_name}",
            sort_text=f"{i:04d}",
        )
        for i, (card, state) in enumerate(plays)
    ]


def _game_before(document: Document, line: int, ply: int) -> Game | None:
    """The game before ``ply`` of the record at ``line``, as far as its replay goes."""
    found = record_at(document, line)
    if found is None:
        return None
    report = validate(found[1], steps=True)
    if report.game is None or not 0 < ply <= len(report.steps):
        return None
    return report.steps[ply - 1].game


# document symbols


def symbols(document: Document, lines: Lines) -> list[lsp.DocumentSymbol]:
    """One symbol a record, named by its tags; its plays and markers inside."""
    out = []
    for piece, item in document.parsed():
        record = _record_of(item)
        whole = lines.range(Span(piece.first_line, 1, piece.last_line, 1 << 30))
        children = [
            _symbol(_spelt(e), kind, lines.range(e.span))
            for e in (record.elements if record else ())
            if (kind := _KINDS.get(type(e))) is not None
        ]
        name = record_name(record, piece.index)
        out.append(
            _symbol(
                name, lsp.SymbolKind.Module, whole, children, lines.whole_line(piece.first_line)
            )
        )
    return out


_KINDS = {Play: lsp.SymbolKind.Event, Declared: lsp.SymbolKind.Constant}


def _symbol(
    name: str,
    kind: lsp.SymbolKind,
    where: lsp.Range,
    children: list[lsp.DocumentSymbol] | None = None,
    selection: lsp.Range | None = None,
) -> lsp.DocumentSymbol:
    return lsp.DocumentSymbol(name, kind, where, selection or where, children=children)


def _spelt(element: Element) -> str:
    if isinstance(element, Play):
        words = (element.number, element.seat, element.drawn, element.card, element.state)
        return " ".join(w.text for w in words if w is not None)
    assert isinstance(element, Declared)
    return f"{element.marker.text} {element.state.text} {element.seat.text}"


def record_name(record: Record | None, index: int) -> str:
    """``Lyon club night: Anna Petrova v Boris Lind``, from the tags there are."""
    if record is None:
        return f"record {index}"
    tags = {tag.name.text: tag.value for tag in record.elements if isinstance(tag, Tag)}
    players = " v ".join(
        tags[seat].strip() or seat for seat in map(seat_name, range(4)) if seat in tags
    )
    event = tags.get("Event", "").strip()
    named = ": ".join(part for part in (event, players) if part)
    return named or f"record {index}"
