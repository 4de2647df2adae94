"""The terminals module is the grammar's terminals, both ways, and no other
module of the package types a pattern of the notation again."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from strategies import ROOT

import ordonnance_notation
from ordonnance_notation.notation import terminals as t

PACKAGE = Path(ordonnance_notation.__file__).parent


def test_every_named_terminal_of_the_grammar_is_in_the_module(lark_terminals) -> None:
    named = {name: value for name, (kind, value) in lark_terminals.items() if kind == "re"}
    imported = named.pop("WS")
    assert named == t.PATTERNS
    assert imported == "(?:[ \t\x0c\r\\n])+"  # Lark's common.WS, its escapes read
    assert re.fullmatch(f"(?:{t.BLANK}|\\n)+", " \t\f\r\n") and not re.match(t.BLANK, "\n")
    latin = [chr(code) for code in range(256)]
    assert [c for c in latin if re.fullmatch(t.WS, c)] == [
        c for c in latin if re.fullmatch(imported, c)
    ]


def test_every_terminal_of_the_module_is_in_the_grammar(lark_terminals) -> None:
    for name, pattern in t.PATTERNS.items():
        assert lark_terminals[name] == ("re", pattern)


def test_the_keywords_are_the_words_of_the_grammars_rules(lark_terminals) -> None:
    words = {value for kind, value in lark_terminals.values() if kind == "str" and value.isalpha()}
    assert words == t.KEYWORDS == {"hand", "pile", "result"}
    symbols = {value for kind, value in lark_terminals.values() if kind == "str"} - words
    assert symbols == {t.TAG_OPEN, t.TAG_CLOSE, t.COLON} == {"[", "]", ":"}


def test_glyphs_and_delimiters_are_what_the_patterns_match() -> None:
    glyph = re.compile(f"(?:{t.GLYPH})\\Z")
    candidates = ["".join(p) for n in (1, 2, 3) for p in itertools.product("!?", repeat=n)]
    assert {c for c in candidates if glyph.match(c)} == set(t.GLYPHS)
    assert (t.BRACE_OPEN, t.BRACE_CLOSE, t.LINE_OPEN, t.QUOTE) == ("{", "}", ";", '"')
    assert (t.TAG_OPEN, t.TAG_CLOSE, t.RESULT) == ("[", "]", "result")
    assert re.fullmatch(t.BRACE_COMMENT, "{ x }") and re.fullmatch(t.LINE_COMMENT, "; x")
    assert re.fullmatch(t.UNQUOTED_STRING, '"open') and re.fullmatch(t.UNQUOTED_STRING, '"a \\" b"')
    assert t.unquote('"a \\"b\\" \\\\"') == 'a "b" \\'


# the pattern sources of the grammar's terminals, and spellings of them seen in copies
COPIES = [re.escape(source) for source in t.PATTERNS.values() if len(source) > 6] + [
    r"P\[0-9\]",
    r"\[0-9\]\{1,9\}",
    r"hand\|pile",
    r"!!\|",
    r"\[A-Za-z\]\[A-Za-z0-9_\]",
]


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_module_types_a_terminal_again(path: Path) -> None:
    if path.name == "terminals.py":
        return
    text = path.read_text("utf-8")
    found = [pattern for pattern in COPIES if re.search(pattern, text)]
    assert not found, (
        f"{path.name} restates the grammar's terminals: build them from notation.terminals"
    )


def test_the_grammar_is_found_when_run_from_a_source_checkout() -> None:
    """``python -m ordonnance_notation`` in the checkout imports the source
    tree, where the grammar sits beside the package, not in it."""
    result = subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", "validate", "samples/invalid/syntax.ord"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert "error[E10" in result.stdout and "Traceback" not in result.stderr
