"""The Pygments lexer (views/lexer.py): every terminal of the grammar has a
rule, the samples lex without an error and back to their text, and Pygments
finds the lexer by its entry point, in-process and as ``pygmentize``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from strategies import ROOT, SAMPLES

pygments = pytest.importorskip("pygments", reason="the highlight extra is not installed")

from pygments.lexers import get_lexer_by_name, get_lexer_for_filename  # noqa: E402
from pygments.token import Error  # noqa: E402

from ordonnance_notation.notation import terminals as t  # noqa: E402
from ordonnance_notation.views.lexer import TOKEN_TYPES, OrdLexer  # noqa: E402


def _lex(text: str) -> list[tuple[object, str]]:
    """(token type, text) of every token but whitespace."""
    return [
        (kind, value)
        for _, kind, value in OrdLexer().get_tokens_unprocessed(text)
        if kind is not TOKEN_TYPES["WS"]
    ]


def test_every_terminal_of_the_grammar_has_a_token_type(lark_terminals) -> None:
    """Adding a terminal to the grammar fails here until the lexer has it."""
    terminals = {name if kind == "re" else value for name, (kind, value) in lark_terminals.items()}
    assert set(TOKEN_TYPES) == terminals


def test_every_terminal_has_a_rule_built_from_its_pattern() -> None:
    rules = [
        rule for state in OrdLexer.tokens.values() for rule in state if isinstance(rule, tuple)
    ]
    for terminal, kind in TOKEN_TYPES.items():
        pattern = {**t.PATTERNS, "WS": t.WS}.get(terminal, re.escape(terminal))
        assert any(pattern in regex and found is kind for regex, found, *_ in rules), terminal


# each element of the notation, and the terminal each of its tokens is
PLACES = [
    ('[Event "Lyon \\"club\\""]', ["[", "TAG_NAME", "STRING", "]"]),
    ("hand P1: LH F S", ["hand", "SEAT", ":", "CARD", "CARD", "CARD"]),
    ("pile: SHF\n  F\nLSH", ["pile", ":", "CARD", "CARD", "CARD"]),
    ("hand P2 :\nLB pile: B", ["hand", "SEAT", ":", "CARD", "pile", ":", "CARD"]),
    ("12. P2 +L HF A !?", ["PLY", "SEAT", "DRAW", "CARD", "STATE", "GLYPH"]),
    ("3. S J !! {a good play}", ["PLY", "CARD", "STATE", "GLYPH", "BRACE_COMMENT"]),
    ("4. L Jerusalem ; why", ["PLY", "CARD", "STATE", "LINE_COMMENT"]),
    ("#2 J P1", ["MARKER", "STATE", "SEAT"]),
    ("result P2 P1:2 P2 : 3", ["result", "SEAT", "SEAT", ":", "COUNT", "SEAT", ":", "COUNT"]),
    ('result unfinished\n[P1 "A"]', ["result", "OUTCOME", "[", "TAG_NAME", "STRING", "]"]),
    ("{a\nlong one} 1. B\n{x} T", ["BRACE_COMMENT", "PLY", "CARD", "BRACE_COMMENT", "STATE"]),
]


@pytest.mark.parametrize(("text", "terminals"), PLACES, ids=[p[0] for p in PLACES])
def test_each_token_gets_the_type_of_its_terminal_in_its_place(text, terminals) -> None:
    assert [kind for kind, _ in _lex(text)] == [TOKEN_TYPES[name] for name in terminals]


def test_the_places_show_every_terminal() -> None:
    shown = {name for _, terminals in PLACES for name in terminals}
    assert shown | {"WS"} == set(TOKEN_TYPES)


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.ord")), ids=lambda p: p.name)
def test_a_sample_lexes_without_error_back_to_its_text(path: Path) -> None:
    text = path.read_text("utf-8")
    tokens = list(OrdLexer().get_tokens_unprocessed(text))
    assert [value for _, kind, value in tokens if kind is Error] == []
    assert "".join(value for _, _, value in tokens) == text
    # Pygments' own entry, which strips nothing and adds no line end when asked
    plain = OrdLexer(stripnl=False, ensurenl=False).get_tokens(text)
    assert "".join(value for _, value in plain) == text


@pytest.mark.parametrize("path", sorted((SAMPLES / "invalid").glob("*.ord")), ids=lambda p: p.name)
def test_broken_text_is_marked_and_kept(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", "replace")
    tokens = list(OrdLexer().get_tokens_unprocessed(text))
    assert "".join(value for _, _, value in tokens) == text


def test_an_unexpected_character_is_an_error_and_lexing_goes_on() -> None:
    # the play is broken at '@': the rest of it is marked too, up to the next element
    assert _lex("1. HF @ A\n2. S J") == [
        (TOKEN_TYPES["PLY"], "1."),
        (TOKEN_TYPES["CARD"], "HF"),
        (Error, "@"),
        (Error, "A"),
        (TOKEN_TYPES["PLY"], "2."),
        (TOKEN_TYPES["CARD"], "S"),
        (TOKEN_TYPES["STATE"], "J"),
    ]
    # an unclosed tag gives way to the next one
    assert [kind for kind, _ in _lex('[P1 "A"\n[P2 "B"]')] == [
        TOKEN_TYPES[name] for name in ["[", "TAG_NAME", "STRING", "[", "TAG_NAME", "STRING", "]"]
    ]


def test_pygments_finds_the_lexer_by_its_entry_point() -> None:
    """Needs the package installed (an editable install will do): Pygments
    reads the ``pygments.lexers`` entry point of its metadata."""
    for lexer in (
        get_lexer_by_name("ord"),
        get_lexer_by_name("ordonnance"),
        get_lexer_for_filename("x.ord"),
    ):
        assert isinstance(lexer, OrdLexer)


def test_pygmentize_colours_a_sample() -> None:
    pygmentize = Path(sys.executable).with_name("pygmentize")
    sample = "samples/classic-2.ord"
    result = subprocess.run(
        [str(pygmentize), "-l", "ord", sample],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "\x1b[" in result.stdout
    assert re.sub("\x1b\\[[0-9;]*m", "", result.stdout) == (ROOT / sample).read_text("utf-8")


@pytest.mark.slow  # a fresh interpreter
def test_the_package_imports_without_pygments() -> None:
    """Pygments is an extra: only views/lexer.py needs it."""
    script = """
import importlib, pkgutil, sys
sys.modules["pygments"] = None  # import pygments now raises ImportError
import ordonnance_notation
for module in pkgutil.walk_packages(ordonnance_notation.__path__, "ordonnance_notation."):
    if module.name.rsplit(".", 1)[-1] not in ("lexer", "__main__"):
        importlib.import_module(module.name)
try:
    import ordonnance_notation.views.lexer
except ImportError:
    print("ok")
"""
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "ok\n", "")
