"""Look-alike and invisible characters: named by code point, with what was
meant (notation/lookalikes.py), and nothing a terminal would obey printed
raw (views/report.visible), in every human format."""

# ruff: noqa: RUF001
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ordonnance_notation.cli.app import app
from ordonnance_notation.notation.lookalikes import described, latin, lookalike_help
from ordonnance_notation.views.report import visible


@pytest.mark.parametrize(
    ("char", "meant"),
    [("В", "B"), ("Р", "P"), ("Ρ", "P"), ("Ｌ", "L"), ("\xa0", " "), ("é", None), ("B", None)],
)
def test_a_look_alike_is_told_from_the_letter_it_looks_like(char, meant):
    assert latin(char) == meant


def test_a_character_is_named_by_its_code_point():
    assert described("В") == "'В' (Cyrillic capital letter ve, U+0412)"
    assert described("\u200b") == "U+200B (zero width space)"
    assert described("\x1b") == "U+001B (a control character)"
    assert lookalike_help("Р2") == (
        "'Р2' has 'Р' (Cyrillic capital letter er, U+0420), which looks like P: "
        "did you mean P2? retype it in Latin letters"
    )


def test_what_a_terminal_would_obey_or_hide_is_shown_instead():
    assert visible("a\x1b[2Jb\x07\n") == "a\u241b[2Jb\u2407\n"
    assert visible("B\u202eob\u200b\x85") == "B<U+202E>ob<U+200B><U+0085>"
    assert visible("Zoë 日本 ok") == "Zoë 日本 ok"


HOSTILE = (
    '[P1 "Anna\x1b[2J\x1b[31m"]\n[P2 "B\u202eob"]\n[Result "Р2"]\n\n'
    "hand P1: LB S H F HF\n1. В J {\x1b]0;title\x07}\n"
)


@pytest.mark.parametrize(
    "command", [["validate"], ["summary"], ["summary", "--format", "markdown"]]
)
def test_no_escape_from_a_record_reaches_the_terminal(tmp_path, command):
    path = tmp_path / "hostile\x1b[1m.ord"
    path.write_text(HOSTILE, "utf-8")
    result = CliRunner().invoke(app, [*command, str(path)], env={"NO_COLOR": "1"})
    assert result.exit_code in (0, 1) and "Traceback" not in result.output
    for unseen in ("\x1b", "\x07", "\u202e"):
        assert unseen not in result.output
    assert "\u241b" in result.output  # shown, not dropped


def test_look_alikes_in_a_record_get_a_help_naming_them(tmp_path):
    path = tmp_path / "look.ord"
    path.write_text(HOSTILE, "utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)], env={"NO_COLOR": "1"})
    assert (
        "help: 'Р2' has 'Р' (Cyrillic capital letter er, U+0420), which looks like P"
        in result.output
    )
    assert "unexpected character 'В' (Cyrillic capital letter ve, U+0412)" in result.output
    assert (
        "help: 'В' (Cyrillic capital letter ve, U+0412) looks like B but is not: type B"
        in result.output
    )
