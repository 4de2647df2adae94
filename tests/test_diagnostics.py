"""Diagnostics quote the input by one rule (diagnostics.quoted): a word is
quoted whole when it is short, else by its start and its length, so that no
message or help line echoes a word of a megabyte (docs/limits.md); and the
messages of a limit say what was found and what to do."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from ordonnance_notation.archives.document import load
from ordonnance_notation.checking.validator import validate
from ordonnance_notation.diagnostics import (
    QUOTED_MOST,
    ArchiveError,
    DeckError,
    Diagnostic,
    line_too_long,
    quoted,
)
from ordonnance_notation.making.dealing import parse_deck
from ordonnance_notation.notation.parser import parse_text

LONG = 5_000  # far past QUOTED_MOST; the rule is the same for a megabyte
CARD = "LB" * (LONG // 2)  # letters of cards, an icon twice
WORD = "x" * LONG
STATE = "J" * LONG
NAME = "Anna" + "n" * LONG
HEAD = '[P1 "Anna"]\n[P2 "Boris"]\n[Result "unfinished"]\n'
MOST_SHOWN = 300  # characters of a message or help line that quotes a long word, at most


def test_a_short_word_is_quoted_whole_and_a_long_one_by_its_start_and_length() -> None:
    assert quoted("HF-T") == "'HF-T'"
    assert quoted("HF-T", marks=False) == "HF-T"
    assert quoted("x" * QUOTED_MOST) == repr("x" * QUOTED_MOST)
    assert quoted(WORD) == f"'{'x' * QUOTED_MOST}'… (5,000 characters)"
    assert quoted(WORD, marks=False) == f"{'x' * QUOTED_MOST}… (5,000 characters)"


LONG_WORDS = {
    # where the long word is: the record's text
    "card of a play": HEAD + f"1. {CARD} J\n",
    "letters of a play": HEAD + f"1. {WORD} J\n",
    "card drawn": HEAD + f"1. +{CARD} L J\n",
    "card without its state": HEAD + f"1. {CARD}\n",
    "word without a state": HEAD + f"1. {WORD}\n",
    "state of a play": HEAD + f"1. L {STATE}\n",
    "seat of a play": HEAD + f"1. {WORD} L J\n",
    "glyph": HEAD + f"1. L J !{'?' * LONG}\n",
    "word after a play": HEAD + f"1. L J {WORD}\n",
    "second play on the line": HEAD + f"1. L J {CARD} {CARD}\n",
    "three words": HEAD + f"1. {CARD} {CARD} {CARD}\n",
    "play without its dot": HEAD + f"1 {CARD} J\n",
    "state as a number": HEAD + f"1. {CARD} 3\n",
    "play without its number": HEAD + f"{CARD} J\n",
    "tag value without quotes": HEAD.replace('"unfinished"', WORD) + "1. L J\n",
    "tag given twice": HEAD + f'[E{WORD} "a"]\n[E{WORD} "b"]\n1. L J\n',
    "seat tag in lower case": f'[p1 "a"]\n[p{"1" * LONG} "b"]\n[Result "unfinished"]\n',
    "notation version": HEAD + f'[Notation "{WORD}"]\n1. L J\n',
    "scoring": HEAD + f'[Scoring "{WORD}"]\n1. L J\n',
    "points": HEAD + f'[Scoring "points"]\n[Points "{WORD}"]\n1. L J\n',
    "result tag": HEAD.replace('"unfinished"', f'"{WORD}"') + "1. L J\n",
    "result tag misspelt": '[P1 "a"]\n[P2 "b"]\n' + f'[Reslt "{WORD}"]\n1. L J\n',
    "hand card": HEAD + f"hand P1: {CARD} B S H F\n1. L J\n",
    "hand seat without colon": HEAD + f"hand P1 {CARD} B S H F\n1. L J\n",
    "hand without its seat": HEAD + f"hand {CARD} B S H F\n1. L J\n",
    "hand seat in lower case": HEAD + f"hand p1: {CARD} B S H F\n1. L J\n",
    "pile without colon": HEAD + f"pile {CARD}\n1. L J\n",
    "declared state": HEAD + f"1. L J\n#1 {WORD} P1\n",
    "declared seat before state": HEAD + f"1. L J\n#1 P1 {STATE}\n",
    "declared seat in lower case": HEAD + f"1. L J\n#1 {WORD} p1\n",
    "result line": HEAD + f"1. L J\nresult {WORD}\n",
    "result line in lower case": HEAD + f"1. L J\nresult p1 {WORD}\n",
    "scores without colons": HEAD + f"1. L J\nresult P1 P1 1 {WORD} 1\n",
    "look-alike letter": HEAD + f"1. L \u0410{WORD}\n",
    "player's name for a seat": f'[P1 "{NAME}"]\n[P2 "Boris"]\n[Result "unfinished"]\n'
    f"1. {NAME}y L J\n",
}


def _said(diagnostic: Diagnostic) -> list[str]:
    """What a diagnostic says in words: its message, its help and its related notes."""
    return [diagnostic.message, diagnostic.help or "", *(r.message for r in diagnostic.related)]


@pytest.mark.parametrize("place", sorted(LONG_WORDS))
def test_a_long_word_is_quoted_by_its_start_and_its_length(place: str) -> None:
    reports = [validate(item) for item in parse_text(LONG_WORDS[place], "game.ord")]
    diagnostics = [d for report in reports for d in report.diagnostics]
    assert any(d.code[0] == "E" for d in diagnostics), "the long word went unnoticed"
    for diagnostic in diagnostics:
        for said in _said(diagnostic):
            assert len(said) < MOST_SHOWN, (diagnostic.code, said[:200])


def _refused(text: str, kind: str) -> list[str]:
    with pytest.raises(ArchiveError) as raised:
        load(text, f"games.{kind}", kind)
    return [said for d in raised.value.diagnostics for said in _said(d)]


@pytest.fixture
def archive(ordo) -> dict[str, Any]:
    result = ordo("convert", "samples/classic-2.ord", "--to", "json")
    assert result.exit_code == 0, result.output
    value: dict[str, Any] = json.loads(result.output)
    return value


@pytest.mark.parametrize(
    ("field", "value"),
    [("state", WORD + "!"), ("card", WORD + "!"), ("ply", WORD), ("glyph", WORD)],
)
def test_an_archive_value_is_quoted_by_its_start_and_its_length(
    archive: dict[str, Any], field: str, value: object
) -> None:
    archive["records"][0]["body"][0][field] = value
    for said in _refused(yaml.safe_dump(archive), "yaml") + _refused(json.dumps(archive), "json"):
        assert len(said) < MOST_SHOWN, said[:200]


def test_a_key_given_twice_in_a_json_archive_is_quoted_by_its_start_and_its_length(
    archive: dict[str, Any],
) -> None:
    text = json.dumps(archive).replace('"ply": 1,', f'"{WORD}": 1, "{WORD}": 2, "ply": 1,', 1)
    assert _refused(text, "json")[0] == f"key {quoted(WORD)} given twice"


def test_a_deck_value_is_quoted_by_its_start_and_its_length() -> None:
    with pytest.raises(DeckError) as raised:
        parse_deck(f"cards:\n  HF: {WORD}\n", "deck.yaml")
    assert raised.value.diagnostic.message == (
        f"cards.HF: the number of copies is a whole number, not {quoted(WORD)}"
    )


def test_a_line_beyond_the_limit_says_what_was_found_and_what_to_do() -> None:
    diagnostic = line_too_long("big.ord", 5, 1 << 20)
    assert (
        diagnostic.message
        == "line 5 is longer than 1 MB, the most a line may be: reading stops here"
    )
    assert diagnostic.help == (
        "a record's lines are short: check that this is a record file, "
        "and split a long comment over lines"
    )
