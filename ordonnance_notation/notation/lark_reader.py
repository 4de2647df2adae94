"""Reading a record with the Lark grammar: the reference parser, and the one
that words every syntax error.

The grammar (``grammar/ordonnance.lark``, installed as package data) is
compiled once per process, LALR with the transformer applied while parsing.
Every element's span comes from its first and last token, so Lark need not
propagate positions through tree nodes that are never built. lark-cython is
used when it is installed (the ``fast`` extra) unless ORDO_PURE_PYTHON=1.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..diagnostics import Diagnostic, quoted
from . import terminals as t
from .cutting import code_of
from .lookalikes import described, lookalike_help
from .mistakes import FORMS, Where, diagnose
from .record import (
    Comment,
    Declared,
    Element,
    Gap,
    Hand,
    Pile,
    Play,
    Record,
    ResultLine,
    Score,
    Span,
    Tag,
    Unparsed,
    Word,
)
from .scanner import scan_record
from .terminals import GRAMMAR, unquote

if TYPE_CHECKING:

    class _Token(Token):
        """A token from the lexer: lark types a token's place as optional (a
        token made by hand may have none), but the lexer always sets it."""

        line: int
        column: int
        end_line: int
        end_column: int
        start_pos: int
        end_pos: int
else:
    _Token = Token

_Item = Element | Comment  # what the builder makes of a record's top-level rules
_SEAT_TAG = re.compile(f"(?:{t.SEAT})$")

_ELEMENT_STARTS = {"LSQB", "HAND", "PILE", "PLY", "MARKER", "RESULT"}
_COMMENTS = {"BRACE_COMMENT", "LINE_COMMENT"}
_EXPECTED_WORDS = {
    "LSQB": 'a tag like [Event "..."]',
    "TAG_NAME": "a tag name",
    "STRING": 'a quoted value like "Anna"',
    "RSQB": "']' to close the tag",
    "HAND": "'hand'",
    "PILE": "'pile'",
    "COLON": "':'",
    "PLY": "a ply number like '12.'",
    "SEAT": "a seat like P1",
    "DRAW": "a draw like +HF",
    "CARD": "a card like HF",
    "STATE": "a state like A or Antioch",
    "GLYPH": "a glyph like !?",
    "MARKER": "a marker like #2",
    "RESULT": "'result'",
    "OUTCOME": "the winner's seat, 'unfinished' or 'shared'",
    "COUNT": "a number",
    "$END": "the end of the record",
}


def _span(token: _Token) -> Span:
    return Span(token.line, token.column, token.end_line, token.end_column)


class _Builder(Transformer[Token, tuple[_Item, ...]]):
    """Builds record elements while the parser runs. ``offset`` shifts line
    numbers from the record's text to the file's."""

    offset = 0

    def _word(self, token: _Token) -> Word:
        return Word(token.value, token.line + self.offset, token.column)

    def _at(self, span: Span) -> Span:
        if not self.offset:
            return span
        o = self.offset
        return Span(span.line + o, span.column, span.end_line + o, span.end_column)

    def _spanning(self, first: _Token, last: _Token | Score) -> Span:
        if isinstance(last, Score):
            return self._at(_span(first)).to(last.value.span)
        return self._at(Span(first.line, first.column, last.end_line, last.end_column))

    @v_args(inline=True)
    def tag(self, *tokens: _Token) -> Tag:
        _, name, value, _ = tokens
        text = unquote(value.value)
        return Tag(self._word(name), text, self._spanning(tokens[0], tokens[-1]))

    @v_args(inline=True)
    def hand(self, *tokens: _Token) -> Hand:
        cards = tuple(self._word(t) for t in tokens[3:])
        return Hand(self._word(tokens[1]), cards, self._spanning(tokens[0], tokens[-1]))

    @v_args(inline=True)
    def pile(self, *tokens: _Token) -> Pile:
        return Pile(tuple(self._word(t) for t in tokens[2:]), self._spanning(tokens[0], tokens[-1]))

    @v_args(inline=True)
    def play(self, *tokens: _Token) -> Play:
        by_type = {t.type: self._word(t) for t in tokens}
        return Play(
            by_type["PLY"],
            by_type.get("SEAT"),
            by_type.get("DRAW"),
            by_type["CARD"],
            by_type["STATE"],
            by_type.get("GLYPH"),
            self._spanning(tokens[0], tokens[-1]),
        )

    @v_args(inline=True)
    def declared(self, *tokens: _Token) -> Declared:
        marker, state, seat = (self._word(t) for t in tokens)
        return Declared(marker, state, seat, self._spanning(tokens[0], tokens[-1]))

    @v_args(inline=True)
    def result(self, keyword: _Token, outcome: _Token, *scores: Score) -> ResultLine:
        last = scores[-1] if scores else outcome
        return ResultLine(self._word(outcome), scores, self._spanning(keyword, last))

    @v_args(inline=True)
    def score(self, seat: _Token, _colon: _Token, value: _Token) -> Score:
        return Score(self._word(seat), self._word(value))

    @v_args(inline=True)
    def comment(self, token: _Token) -> Comment:
        text = token.value
        braced = text.startswith("{")
        body = text[1:-1] if braced else text[1:]
        return Comment(body.strip(), braced, self._at(_span(token)))

    def record(self, elements: list[_Item]) -> tuple[_Item, ...]:
        return tuple(elements)


def _lark_cython_plugins() -> dict[str, type] | None:
    """lark-cython's plugins (its classes by the name of the lark class each
    replaces) when it is installed (the ``fast`` extra) and not turned off with
    ORDO_PURE_PYTHON=1; the pure-Python parser otherwise."""
    if os.environ.get("ORDO_PURE_PYTHON"):
        return None
    try:
        import lark_cython
    except ImportError:
        return None
    plugins: dict[str, type] = lark_cython.plugins
    return plugins


@cache
def _parser(fast: bool) -> tuple[Lark, _Builder]:
    builder = _Builder()
    options = {"_plugins": _lark_cython_plugins()} if fast and _lark_cython_plugins() else {}
    lark = Lark(
        GRAMMAR,
        start="record",
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=False,
        keep_all_tokens=True,
        transformer=builder,
        **options,
    )
    return lark, builder


def _attach_comments(items: tuple[_Item, ...]) -> tuple[tuple[Element, ...], tuple[Comment, ...]]:
    """Each comment joins the element it follows; those before any element lead."""
    elements: list[Element] = []
    leading: list[Comment] = []
    for item in items:
        if isinstance(item, Comment):
            if elements:
                last = elements[-1]
                elements[-1] = last._replace(comments=last.comments + (item,))
            else:
                leading.append(item)
        else:
            elements.append(item)
    return tuple(elements), tuple(leading)


def read_record(
    chunk: str, first_line: int, source: str, index: int, fast: bool = True
) -> Record | Unparsed | None:
    """One record's text read by Lark; None when it holds only comments."""
    lark, builder = _parser(fast)
    builder.offset = first_line - 1
    try:
        # the builder runs while parsing: what lark types as the tree is its record
        items = cast("tuple[_Item, ...]", lark.parse(chunk))
    except UnexpectedInput:
        return _recover(chunk, first_line, source, index, fast)
    elements, leading = _attach_comments(items)
    if not elements:
        return None
    last_line = first_line + chunk.rstrip().count("\n")
    return Record(source, index, elements, leading, Span(first_line, 1, last_line, 1), chunk)


_ELEMENT_START = re.compile(
    f"{t.BLANK}*(?:(?P<tag>{re.escape(t.TAG_OPEN)})"
    f"|(?P<declared>(?={t.MARKER}))"
    f"|(?P<play>(?={t.COUNT}))"
    f"|(?P<keyword>{'|'.join(sorted(t.KEYWORDS))})(?!{t.CARD})"
    f"|(?P<words>(?={t.CARD})))"
)
_ELEMENTS = {
    "tag": "tag",
    "hand": "hand",
    "pile": "pile",
    "play": "play",
    "declared": "declared resolution",
    "result": "result line",
    "words": "line",
    "": "record",
}


class _Piece(NamedTuple):
    kind: str
    first_line: int
    text: str


def _pieces(chunk: str, first_line: int) -> list[_Piece]:
    """``chunk`` cut at each line that starts an element outside a comment;
    a line of letters goes on a hand or pile above it, a comment line on the
    element above it."""
    pieces: list[_Piece] = []
    kind, start = "", first_line
    held: list[str] = []
    in_brace = False
    for number, line in enumerate(chunk.split("\n"), first_line):
        code, brace_after = code_of(line, in_brace)
        match = None if in_brace else _ELEMENT_START.match(code)
        if match is not None:
            new_kind = match.group("keyword") or str(match.lastgroup)
            if not (new_kind == "words" and kind in ("hand", "pile")):
                if held:
                    pieces.append(_Piece(kind, start, "\n".join(held)))
                kind, start, held = new_kind, number, []
        held.append(line)
        in_brace = brace_after
    if held:
        pieces.append(_Piece(kind, start, "\n".join(held)))
    return pieces


def _recover(chunk: str, first_line: int, source: str, index: int, fast: bool) -> Unparsed:
    """A record Lark cannot read whole, read an element at a time: every
    broken element is a gap with its diagnostic, the others a partial record."""
    lark, builder = _parser(fast)
    items: list[_Item] = []
    diagnostics: list[Diagnostic] = []
    gaps: list[Gap] = []
    names: dict[int, str] = {}
    next_ply = 1
    pieces = _pieces(chunk, first_line)
    at = 0
    while at < len(pieces):
        piece = pieces[at]
        at += 1
        scanned = scan_record(piece.text, piece.first_line, source, index) if fast else None
        builder.offset = piece.first_line - 1
        try:
            if scanned is not None:  # most elements are well written: the fast reader reads them
                read: tuple[_Item, ...] = (*scanned.comments, *scanned.elements)
            else:
                read = cast("tuple[_Item, ...]", lark.parse(piece.text))
        except UnexpectedInput as error:
            joined = _joined(lark, builder, piece, pieces[at] if at < len(pieces) else None)
            if joined is not None:
                read, at = joined, at + 1
            else:
                code = code_of(piece.text.split("\n", 1)[0], False)[0]
                where = Where(source, index, [names[s] for s in sorted(names)], next_ply)
                diagnostic = diagnose(piece.kind, code, piece.first_line, where)
                if diagnostic is None:
                    diagnostic = syntax_diagnostic(
                        error, piece.text, piece.first_line, source, index, _ELEMENTS[piece.kind]
                    )
                    if diagnostic.help is None and piece.kind in FORMS:
                        diagnostic = replace(diagnostic, help=FORMS[piece.kind])
                diagnostics.append(diagnostic)
                kind, start, read = piece.kind, piece.first_line, ()
                if diagnostic.code == "E102" and diagnostic.span is not None:
                    # what comes before the comment may read well: only the comment is lost
                    kind, start = "comment", diagnostic.span.line
                    read = _before(lark, builder, piece, diagnostic.span)
                last_line = piece.first_line + piece.text.rstrip().count("\n")
                gaps.append(Gap(kind, Span(start, 1, last_line, 1)))
                if piece.kind in ("play", "words"):
                    next_ply += 1
                if not read:
                    continue
        for item in read:
            if isinstance(item, Tag) and _SEAT_TAG.match(item.name.text):
                names[int(item.name.text[1:])] = item.value
            elif isinstance(item, Play):
                next_ply = item.ply + 1
        items.extend(read)
    elements, leading = _attach_comments(tuple(items))
    partial = None
    if elements:
        last_line = first_line + chunk.rstrip().count("\n")
        span = Span(first_line, 1, last_line, 1)
        partial = Record(source, index, elements, leading, span, chunk)
    return Unparsed(source, index, chunk, first_line, tuple(diagnostics), partial, tuple(gaps))


def _before(lark: Lark, builder: _Builder, piece: _Piece, span: Span) -> tuple[_Item, ...]:
    """The elements of ``piece`` before ``span``, if they read well alone."""
    lines = piece.text.split("\n")[: span.line - piece.first_line + 1]
    lines[-1] = lines[-1][: span.column - 1]
    builder.offset = piece.first_line - 1
    try:
        return cast("tuple[_Item, ...]", lark.parse("\n".join(lines)))
    except UnexpectedInput:
        return ()


def _joined(
    lark: Lark, builder: _Builder, piece: _Piece, following: _Piece | None
) -> tuple[_Item, ...] | None:
    """The elements of a broken piece read together with a line of words after
    it (lines do not matter to the notation: a play may go on a second line)."""
    if following is None or following.kind != "words":
        return None
    builder.offset = piece.first_line - 1
    try:
        return cast("tuple[_Item, ...]", lark.parse(piece.text + "\n" + following.text))
    except UnexpectedInput:
        return None


def syntax_diagnostic(
    error: UnexpectedInput,
    chunk: str,
    first_line: int,
    source: str,
    index: int,
    element: str = "record",
) -> Diagnostic:
    """A Lark failure told in the notation's words, at its place in the file;
    ``chunk`` is the text of the ``element`` (a whole record, or one element)."""
    offset = first_line - 1
    if isinstance(error, UnexpectedCharacters):
        # lark's class declares pos_in_stream None; UnexpectedCharacters sets it to an int
        char = chunk[error.pos_in_stream]  # type: ignore[index]
        span = Span(error.line + offset, error.column, error.line + offset, error.column + 1)
        if char == "{":
            return Diagnostic(
                "E102",
                "comment opened here is never closed with '}'",
                source,
                span,
                index,
                help="close the comment with '}' where it should end: "
                "everything after '{' is in it, plays too",
            )
        if char == '"':
            return Diagnostic(
                "E103",
                "quoted value opened here is never closed with '\"'",
                source,
                span,
                index,
                help="close the value with '\"' before the ']', e.g. [Event \"Lyon\"]",
            )
        allowed = _expected(error.allowed or set())
        return Diagnostic(
            "E100",
            f"unexpected character {described(char)}; expected {allowed}",
            source,
            span,
            index,
            help=lookalike_help(char),
        )
    # lark raises only the three subclasses of UnexpectedInput, but the base
    # class declares neither ``token`` nor ``expected``
    if isinstance(error, UnexpectedEOF) or error.token.type == "$END":  # type: ignore[attr-defined]
        expected = set(error.expected)  # type: ignore[attr-defined]
        if expected == {"RSQB"}:
            return _unclosed_tag(chunk, len(chunk.rstrip()), offset, source, index, "the line end")
        return Diagnostic(
            "E104",
            f"the {element} ends too early; expected {_expected(expected)}",
            source,
            _end(chunk, offset),
            index,
        )
    assert isinstance(error, UnexpectedToken)
    token = error.token
    expected = set(error.expected)
    span = Span(token.line + offset, token.column, token.end_line + offset, token.end_column)
    end = token.end_pos
    if token.value[-1:].isdigit() and end < len(chunk) and chunk[end].isdigit():
        return Diagnostic(
            "E101",
            f"number too long: {token.value}{chunk[end]}... (at most nine digits)",
            source,
            span,
            index,
        )
    if expected == {"RSQB"}:
        return _unclosed_tag(chunk, token.start_pos, offset, source, index, quoted(token.value))
    return Diagnostic(
        "E101",
        f"unexpected {quoted(token.value)}; expected {_expected(expected)}",
        source,
        span,
        index,
    )


def _unclosed_tag(
    chunk: str, before: int, offset: int, source: str, index: int, found: str
) -> Diagnostic:
    """E103 at the ``[`` of the last tag opened before index ``before``."""
    opening = chunk.rfind("[", 0, before)
    line = chunk.count("\n", 0, opening) + 1 + offset
    column = opening - (chunk.rfind("\n", 0, opening) + 1) + 1
    return Diagnostic(
        "E103",
        f"tag opened here is not closed with ']' (found {found} instead)",
        source,
        Span(line, column, line, column + 1),
        index,
        help="close the tag with ']' after its quoted value, on the same line",
    )


def _end(chunk: str, offset: int) -> Span:
    """Just after the last character of the record's text."""
    body = chunk.rstrip()
    line = body.count("\n") + 1 + offset
    column = len(body) - (body.rfind("\n") + 1) + 1
    return Span(line, column, line, column + 1)


def _expected(terminals: set[str]) -> str:
    names = set(terminals) - _COMMENTS
    if "OUTCOME" in names:
        names.discard("SEAT")
    words = sorted({_EXPECTED_WORDS.get(name, name) for name in names - _ELEMENT_STARTS})
    if names >= _ELEMENT_STARTS:
        words.append(
            "the next element (a tag, hand, pile, play, declared resolution or result line)"
        )
    else:
        words += sorted(_EXPECTED_WORDS[name] for name in names & _ELEMENT_STARTS)
    if not words:
        return "nothing more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
