"""Text to records: split a file into records, parse each with the Lark grammar.

The grammar (``grammar/ordonnance.lark``, installed as package data) is
compiled once per process, LALR with the transformer applied while parsing.
Records written an element a line are read first by a faster line scanner
(``scanner.py``) that builds the same records; Lark reads the rest and words
every syntax error.
Every element's span comes from its first and last token, so Lark need not
propagate positions through tree nodes that are never built.
A file is split into records first, so a syntax error in one record is
reported as an ``Unparsed`` item and the following records are still read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache
from importlib.resources import files

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..diagnostics import Diagnostic
from .record import (
    Comment,
    Declared,
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

ParsedItem = Record | Unparsed

_ELEMENT_STARTS = {"LSQB", "HAND", "PILE", "PLY", "MARKER", "RESULT"}
_COMMENTS = {"BRACE_COMMENT", "LINE_COMMENT"}
_EXPECTED_WORDS = {
    "LSQB": "a tag like [Event \"...\"]",
    "TAG_NAME": "a tag name",
    "STRING": "a quoted value like \"Anna\"",
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


def _span(token: Token) -> Span:
    return Span(token.line, token.column, token.end_line, token.end_column)


class _Builder(Transformer):
    """Builds record elements while the parser runs. ``offset`` shifts line
    numbers from the record's text to the file's."""

    offset = 0

    def _word(self, token: Token) -> Word:
        o = self.offset
        return Word(token.value, Span(token.line + o, token.column, token.end_line + o, token.end_column))

    def _at(self, span: Span) -> Span:
        if not self.offset:
            return span
        o = self.offset
        return Span(span.line + o, span.column, span.end_line + o, span.end_column)

    def _spanning(self, tokens) -> Span:
        first, last = tokens[0], tokens[-1]
        if isinstance(last, Score):
            return self._at(_span(first)).to(last.value.span)
        return self._at(Span(first.line, first.column, last.end_line, last.end_column))

    @v_args(inline=True)
    def tag(self, *tokens: Token) -> Tag:
        _, name, value, _ = tokens
        text = re.sub(r"\\(.)", r"\1", value.value[1:-1])
        return Tag(self._word(name), text, self._spanning(tokens))

    @v_args(inline=True)
    def hand(self, *tokens: Token) -> Hand:
        cards = tuple(self._word(t) for t in tokens[3:])
        return Hand(self._word(tokens[1]), cards, self._spanning(tokens))

    @v_args(inline=True)
    def pile(self, *tokens: Token) -> Pile:
        return Pile(tuple(self._word(t) for t in tokens[2:]), self._spanning(tokens))

    @v_args(inline=True)
    def play(self, *tokens: Token) -> Play:
        by_type = {t.type: self._word(t) for t in tokens}
        return Play(
            by_type["PLY"],
            by_type.get("SEAT"),
            by_type.get("DRAW"),
            by_type["CARD"],
            by_type["STATE"],
            by_type.get("GLYPH"),
            self._spanning(tokens),
        )

    @v_args(inline=True)
    def declared(self, *tokens: Token) -> Declared:
        marker, state, seat = (self._word(t) for t in tokens)
        return Declared(marker, state, seat, self._spanning(tokens))

    @v_args(inline=True)
    def result(self, *tokens) -> ResultLine:
        scores = tuple(t for t in tokens[2:] if isinstance(t, Score))
        return ResultLine(self._word(tokens[1]), scores, self._spanning(tokens))

    @v_args(inline=True)
    def score(self, seat: Token, _colon: Token, value: Token) -> Score:
        return Score(self._word(seat), self._word(value))

    @v_args(inline=True)
    def comment(self, token: Token) -> Comment:
        text = token.value
        braced = text.startswith("{")
        body = text[1:-1] if braced else text[1:]
        return Comment(body.strip(), braced, self._at(_span(token)))

    def record(self, elements: list) -> tuple:
        return tuple(elements)


def _lark_cython_plugins():
    """lark-cython's plugins when it is installed (the ``fast`` extra) and not
    turned off with ORDO_PURE_PYTHON=1; the pure-Python parser otherwise."""
    if os.environ.get("ORDO_PURE_PYTHON"):
        return None
    try:
        import lark_cython
    except ImportError:
        return None
    return lark_cython.plugins


@cache
def _parser(fast: bool) -> tuple[Lark, _Builder]:
    grammar = (files("ordonnance_notation.grammar") / "ordonnance.lark").read_text("utf-8")
    builder = _Builder()
    options = {"_plugins": _lark_cython_plugins()} if fast and _lark_cython_plugins() else {}
    lark = Lark(
        grammar,
        start="record",
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=False,
        keep_all_tokens=True,
        transformer=builder,
        **options,
    )
    return lark, builder


def _attach_comments(items: tuple) -> tuple[tuple, tuple[Comment, ...]]:
    """Each comment joins the element it follows; those before any element lead."""
    elements: list = []
    leading: list[Comment] = []
    for item in items:
        if isinstance(item, Comment):
            if elements:
                last = elements[-1]
                elements[-1] = replace(last, comments=last.comments + (item,))
            else:
                leading.append(item)
        else:
            elements.append(item)
    return tuple(elements), tuple(leading)


_FULL_TAG_LINE = re.compile(r'[ \t]*\[[A-Za-z][A-Za-z0-9_]*[ \t]+"(?:[^"\\\n]|\\.)*"[ \t]*\][ \t]*$')
_SCAN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[;{}]')


def _code(line: str, in_brace: bool) -> tuple[str, bool]:
    """The part of ``line`` outside comments, and whether a ``{`` comment is
    still open at its end. Quoted values may hold ``{`` and ``;``."""
    if not in_brace and not any(c in line for c in '{;"'):
        return line, False
    parts = []
    pos = 0
    while pos < len(line):
        if in_brace:
            end = line.find("}", pos)
            if end < 0:
                break
            pos, in_brace = end + 1, False
            continue
        match = _SCAN.search(line, pos)
        if match is None:
            parts.append(line[pos:])
            break
        parts.append(line[pos : match.start()])
        token = match.group()
        if token == ";":
            break
        if token == "{":
            in_brace = True
        else:
            parts.append(token)
        pos = match.end()
    return "".join(parts), in_brace


def split_records(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each record of ``text`` (see ``split_lines``)."""
    return split_lines(text.split("\n"))


def split_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(first line number, text) of each record, from lines without their line
    ends, read one at a time: only the current record is held in memory.

    A record starts at a tag line that follows a body, or a header and a blank
    line (a header is written without blank lines inside). Comment lines just
    above that tag line (with no blank line between) open the new record. Text
    inside comments and quoted values never splits, except a whole header line
    after a body inside a ``{`` comment that is still open: that is taken for a
    forgotten ``}``."""
    held: list[str] = []  # the current record's lines so far
    first = 1  # its first line number
    in_body = in_header = blank_after_header = in_brace = False
    comment_run = None  # index in ``held`` of the comment-only lines just above, if any
    for line in lines:
        if in_brace and in_body and _FULL_TAG_LINE.match(line):
            # A header line after a body, inside a "{" that never closed: more
            # likely a forgotten "}" than a comment quoting a header. Splitting
            # here reports the open comment (E102) and keeps the next records.
            in_brace = False
        code, brace_after = _code(line, in_brace)
        code = code.strip()
        if code.startswith("["):
            if in_body or blank_after_header:
                cut = comment_run if comment_run is not None else len(held)
                yield first, "\n".join(held[:cut])
                first += cut
                held = held[cut:]
                in_body = False
            in_header, blank_after_header = True, False
            comment_run = None
        elif code:
            in_body, comment_run = True, None
            in_header = blank_after_header = False
        elif line.strip():
            if comment_run is None and not in_brace:
                comment_run = len(held)
        elif not in_brace:
            blank_after_header = in_header
            comment_run = None
        in_brace = brace_after
        held.append(line)
    rest = "\n".join(held)
    if rest.strip() or first == 1:
        yield first, rest


def parse_text(text: str, source: str = "<text>", fast: bool = True) -> Iterator[ParsedItem]:
    """Every record of ``text``, in order: a ``Record``, or an ``Unparsed`` with
    its syntax diagnostic. ``fast`` uses lark-cython when it is installed.
    Never raises for bad input."""
    return parse_chunks(split_records(text), source, fast)


def parse_chunks(chunks: Iterable[tuple[int, str]], source: str, fast: bool = True) -> Iterator[ParsedItem]:
    """Records from ``(first line, text)`` chunks as ``split_lines`` yields them."""
    index = 0
    for first_line, chunk in chunks:
        if not chunk.strip():
            continue
        item = parse_record(chunk, first_line, source, index + 1, fast)
        if item is not None:
            index += 1
            yield item


def parse_record(chunk: str, first_line: int, source: str, index: int, fast: bool = True) -> ParsedItem | None:
    """One record's text, starting at ``first_line`` of ``source``; None when it
    holds only comments. ``fast`` first tries the line scanner (``scanner.py``),
    which reads well-formed records written an element a line."""
    if fast:
        record = scan_record(chunk, first_line, source, index)
        if record is not None:
            return record
    lark, builder = _parser(fast)
    builder.offset = first_line - 1
    try:
        items = lark.parse(chunk)
    except UnexpectedInput as error:
        diagnostic = syntax_diagnostic(error, chunk, first_line, source, index)
        return Unparsed(source, index, chunk, first_line, (diagnostic,))
    elements, leading = _attach_comments(items)
    if not elements:
        return None
    last_line = first_line + chunk.rstrip().count("\n")
    return Record(source, index, elements, leading, Span(first_line, 1, last_line, 1), chunk)


def syntax_diagnostic(
    error: UnexpectedInput, chunk: str, first_line: int, source: str, index: int
) -> Diagnostic:
    """A Lark failure told in the notation's words, at its place in the file."""
    offset = first_line - 1
    if isinstance(error, UnexpectedCharacters):
        char = chunk[error.pos_in_stream]
        span = Span(error.line + offset, error.column, error.line + offset, error.column + 1)
        if char == "{":
            return Diagnostic("E102", "comment opened here is never closed with '}'", source, span, index)
        if char == '"':
            return Diagnostic("E103", "quoted value opened here is never closed with '\"'", source, span, index)
        allowed = _expected(error.allowed or set())
        return Diagnostic("E100", f"unexpected character {char!r}; expected {allowed}", source, span, index)
    if isinstance(error, UnexpectedEOF) or error.token.type == "$END":
        allowed = _expected(set(error.expected))
        return Diagnostic("E104", f"the record ends too early; expected {allowed}", source, _end(chunk, offset), index)
    assert isinstance(error, UnexpectedToken)
    token = error.token
    expected = set(error.expected)
    span = Span(token.line + offset, token.column, token.end_line + offset, token.end_column)
    end = token.end_pos
    if token.value[-1:].isdigit() and end < len(chunk) and chunk[end].isdigit():
        return Diagnostic("E101", f"number too long: {token.value}{chunk[end]}... (at most nine digits)", source, span, index)
    if expected == {"RSQB"}:
        opening = chunk.rfind("[", 0, token.start_pos)
        line = chunk.count("\n", 0, opening) + 1 + offset
        column = opening - (chunk.rfind("\n", 0, opening) + 1) + 1
        return Diagnostic(
            "E103",
            f"tag opened here is not closed with ']' (found {token.value!r} instead)",
            source,
            Span(line, column, line, column + 1),
            index,
        )
    return Diagnostic("E101", f"unexpected {token.value!r}; expected {_expected(expected)}", source, span, index)


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
    if _ELEMENT_STARTS <= names:
        words.append("the next element (a tag, hand, pile, play, declared resolution or result line)")
    else:
        words += sorted(_EXPECTED_WORDS[name] for name in names & _ELEMENT_STARTS)
    if not words:
        return "nothing more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
