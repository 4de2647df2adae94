"""The terminals of the notation, as the grammar defines them.

``grammar/ordonnance.lark`` is the one definition of the notation. This module
reads its terminal lines (``SEAT.2: /P[0-9]{1,9}/``) and its keywords (the
quoted words of its rules) when it is imported, so that every other reader of
the text (the line scanner, the record cutter, the archive checker, the
content reader) builds its patterns from the grammar's own. A test holds this
module and Lark's reading of the grammar to the same terminals, both ways.

Whitespace is Lark's ``common.WS``, which the grammar imports: ``BLANK`` is
it without the line end (the scanner reads a line at a time).
"""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path


def packaged_folder(name: str) -> Path:
    """Where the files of ``name`` (``grammar``, ``docs``) are: in the
    installed package ``ordonnance_notation.<name>``, or in ``<name>/`` beside
    the package when it runs from a source checkout. (Not importlib.resources:
    it would cost a tenth of a small file's start-up.)"""
    try:
        return Path(str(import_module(f"ordonnance_notation.{name}").__file__)).parent
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / name


GRAMMAR = (packaged_folder("grammar") / "ordonnance.lark").read_text("utf-8")

_TERMINAL_LINE = re.compile(r"^([A-Z_]+)(?:\.\d+)?:\s*/(.*)/\s*$", re.MULTILINE)
_RULE_KEYWORD = re.compile(r'"([a-z]+)"')
_COMMENT = re.compile(r"//[^\n]*")

PATTERNS: dict[str, str] = dict(_TERMINAL_LINE.findall(GRAMMAR))
"""Every named terminal of the grammar: its regular expression, as written there."""

KEYWORDS: frozenset[str] = frozenset(_RULE_KEYWORD.findall(_COMMENT.sub("", GRAMMAR)))
"""The words of the notation (``hand``, ``pile``, ``result``): no card, state
or seat can be spelt so."""

TAG_NAME = PATTERNS["TAG_NAME"]
STRING = PATTERNS["STRING"]
SEAT = PATTERNS["SEAT"]
PLY = PATTERNS["PLY"]
COUNT = PATTERNS["COUNT"]
MARKER = PATTERNS["MARKER"]
DRAW = PATTERNS["DRAW"]
CARD = PATTERNS["CARD"]
STATE = PATTERNS["STATE"]
OUTCOME = PATTERNS["OUTCOME"]
GLYPH = PATTERNS["GLYPH"]
BRACE_COMMENT = PATTERNS["BRACE_COMMENT"]
LINE_COMMENT = PATTERNS["LINE_COMMENT"]

BLANK_CHARS = " \t\f\r"
BLANK = "[" + re.escape(BLANK_CHARS) + "]"
"""Lark's ``common.WS`` without the line end."""
WS = "[" + re.escape(BLANK_CHARS + "\n") + "]+"
"""Lark's ``common.WS``, which the grammar ignores between tokens."""

_unescape = re.compile(r"\\(.)")

GLYPHS: tuple[str, ...] = tuple(_unescape.sub(r"\1", g) for g in GLYPH.split("|"))
"""The glyphs, longest first as the pattern tries them: ``!!``, ``??``, ..."""

BRACE_OPEN = _unescape.sub(r"\1", BRACE_COMMENT[:2])  # {
BRACE_CLOSE = _unescape.sub(r"\1", BRACE_COMMENT[-2:])  # }
LINE_OPEN = LINE_COMMENT[0]  # ;
COMMENT_OPENERS = BRACE_OPEN + LINE_OPEN
QUOTE = STRING[0]  # "
TAG_OPEN = re.findall(r'^tag:\s*"(.)"', GRAMMAR, re.MULTILINE)[0]  # [, the tag rule's first word
TAG_CLOSE = re.findall(r'^tag:.*"(.)"\s*$', GRAMMAR, re.MULTILINE)[0]  # ], its last word
RESULT = re.findall(r'^result:\s*"([a-z]+)"', GRAMMAR, re.MULTILINE)[0]  # the result line's word
COLON = re.findall(r'^score:\s*SEAT\s*"(.)"', GRAMMAR, re.MULTILINE)[0]  # :, after a seat
UNQUOTED_STRING = STRING.removesuffix('"') + '"?'
"""A quoted value that may lack its closing quote (for cutting broken text)."""


def unquote(string: str) -> str:
    """The value of a STRING token: without its quotes, escapes undone."""
    inner = string[1:-1]
    return _unescape.sub(r"\1", inner) if "\\" in inner else inner


def whole(pattern: str) -> re.Pattern[str]:
    """``pattern`` matching a whole string (for values that stand alone, as in archives)."""
    return re.compile(f"(?:{pattern})\\Z")
