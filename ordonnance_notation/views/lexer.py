"""A Pygments lexer for ``.ord`` files: ``pygmentize -l ord FILE``.

Pygments finds it through the package's ``pygments.lexers`` entry point (by
the names ``ord`` and ``ordonnance``, and for ``*.ord`` files). This is the
one module of the package that imports Pygments, which the extra
``highlight`` installs (``pip install 'ordonnance-notation[highlight]'``);
nothing else imports this module, so the package works without it.

Every pattern comes from ``notation.terminals``, that is from the grammar:
``TOKEN_TYPES`` gives each terminal of the grammar its token type, and a test
holds its keys to Lark's terminals and checks that some rule of the lexer
matches each with its type. Several terminals are spelt alike (a card, a
state, an outcome are all letters), so the lexer tells them apart by place,
as the grammar's rules do: the states below follow the rules ``tag``,
``hand``/``pile``, ``play``, ``declared`` and ``result``. A state whose next
word does not fit steps back to the start of an element, so broken text is
marked as ``Error`` a character at a time and the lexing goes on; nothing is
checked beyond the shapes of the tokens (no card, state or seat is looked up).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pygments.lexer import RegexLexer, default, include
from pygments.token import (
    Comment,
    Generic,
    Keyword,
    Name,
    Number,
    Punctuation,
    String,
    Whitespace,
    _TokenType,
)

from ..notation import terminals as t

TOKEN_TYPES: dict[str, _TokenType] = {
    # named terminals, by name
    "WS": Whitespace,
    "BRACE_COMMENT": Comment.Multiline,
    "LINE_COMMENT": Comment.Single,
    "TAG_NAME": Name.Attribute,
    "STRING": String.Double,
    "SEAT": Name.Variable,
    "PLY": Number.Integer,
    "COUNT": Number.Integer,
    "MARKER": Name.Label,
    "DRAW": Generic.Inserted,
    "CARD": Name.Constant,
    "STATE": Name.Class,
    "OUTCOME": Keyword.Constant,
    "GLYPH": Generic.Emph,
    # the words and punctuation of the rules, as written
    **dict.fromkeys(t.KEYWORDS, Keyword),
    **dict.fromkeys((t.TAG_OPEN, t.TAG_CLOSE, t.COLON), Punctuation),
}
"""The token type of each terminal of the grammar: a named terminal by its
name, an anonymous one (a keyword, a bracket) by its text."""

_PATTERNS = {**t.PATTERNS, "WS": t.WS}
_WORD_END = f"(?!{t.CARD})"  # a keyword is a whole word: no letter follows
_KEYWORD = "(?:" + "|".join(re.escape(word) for word in sorted(t.KEYWORDS)) + ")" + _WORD_END
_NOT_KEYWORD = f"(?!{_KEYWORD})"  # letters that spell a keyword are no card, state or outcome

_Rule = tuple[str, _TokenType] | tuple[str, _TokenType, str | tuple[str, ...]]


def _rule(terminal: str, *then: str) -> _Rule:
    """Match ``terminal`` and give it its token type; then change state as
    ``then`` says (``"#pop"``, a state to push, or both in turn)."""
    if terminal in t.KEYWORDS:
        pattern = re.escape(terminal) + _WORD_END
    elif terminal in _PATTERNS:
        pattern = _PATTERNS[terminal]
        if terminal in ("CARD", "STATE", "OUTCOME"):
            pattern = _NOT_KEYWORD + pattern
    else:
        pattern = re.escape(terminal)
    if not then:
        return (pattern, TOKEN_TYPES[terminal])
    return (pattern, TOKEN_TYPES[terminal], then[0] if len(then) == 1 else then)


_DEAL_WORDS = sorted(t.KEYWORDS - {t.RESULT})  # hand, pile: a deal line


class OrdLexer(RegexLexer):
    """Tags, deal, plays, declared markers, the result line and comments of
    the ``.ord`` notation (docs/notation.md)."""

    name = "Ordonnance"
    aliases = ("ord", "ordonnance")
    filenames = ("*.ord",)
    mimetypes = ("text/x-ordonnance",)

    tokens: ClassVar[dict[str, list[Any]]] = {
        # whitespace and comments, allowed between any two tokens
        "blank": [_rule("WS"), _rule("BRACE_COMMENT"), _rule("LINE_COMMENT")],
        # the start of an element
        "root": [
            include("blank"),
            _rule(t.TAG_OPEN, "tag"),
            *(_rule(word, "deal") for word in _DEAL_WORDS),
            _rule(t.RESULT, "result"),
            _rule("PLY", "play"),
            _rule("MARKER", "declared"),
        ],
        # [Event "Lyon club night"]
        "tag": [
            include("blank"),
            _rule("TAG_NAME"),
            _rule("STRING"),
            _rule(t.TAG_CLOSE, "#pop"),
            default("#pop"),
        ],
        # hand P1: LH F S    pile: SHF F
        "deal": [
            include("blank"),
            _rule("SEAT"),
            _rule(t.COLON, "#pop", "cards"),
            default("#pop"),
        ],
        "cards": [include("blank"), _rule("CARD"), default("#pop")],
        # 12. P2 +L HF A !?
        "play": [
            include("blank"),
            _rule("SEAT"),
            _rule("DRAW"),
            _rule("CARD", "#pop", "play state"),
            default("#pop"),
        ],
        "play state": [include("blank"), _rule("STATE", "#pop", "glyph"), default("#pop")],
        "glyph": [include("blank"), _rule("GLYPH", "#pop"), default("#pop")],
        # #2 J P1
        "declared": [include("blank"), _rule("STATE", "#pop", "seat"), default("#pop")],
        "seat": [include("blank"), _rule("SEAT", "#pop"), default("#pop")],
        # result P2 P1:2 P2:3
        "result": [
            include("blank"),
            _rule("SEAT", "#pop", "scores"),
            _rule("OUTCOME", "#pop", "scores"),
            default("#pop"),
        ],
        "scores": [include("blank"), _rule("SEAT", "score"), default("#pop")],
        "score": [
            include("blank"),
            _rule(t.COLON),
            _rule("COUNT", "#pop"),
            default("#pop"),
        ],
    }
