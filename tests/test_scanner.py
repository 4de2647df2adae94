"""The line scanner (the parser's fast path) against Lark, the reference.

The scanner may decline any record, but a record it reads must equal, span
for span and comment for comment, the record the Lark grammar builds. And it
must not decline the records that matter for speed: everything the canonical
printer writes.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import COMMENT, ROOT, SAMPLES, TESTS, any_text, decorate, fuzz, valid_records

from ordonnance_notation.archives.conversion import canonical
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import game_text, play_game
from ordonnance_notation.notation.cutting import split_records
from ordonnance_notation.notation.parser import parse_record
from ordonnance_notation.notation.scanner import scan_record

TEXTS = sorted(SAMPLES.rglob("*.ord")) + sorted((TESTS / "bad").glob("*.ord"))


def scanned_and_lark(text: str) -> list[tuple]:
    """(scanner's record or None, Lark's item) for each record of ``text``."""
    pairs = []
    for first_line, chunk in split_records(text):
        if chunk.strip():
            pairs.append(
                (
                    scan_record(chunk, first_line, "t.ord", 1),
                    parse_record(chunk, first_line, "t.ord", 1, fast=False),
                )
            )
    return pairs


def assert_scanner_agrees(text: str) -> int:
    """Every record the scanner reads equals Lark's; returns how many it read."""
    read = 0
    for scanned, reference in scanned_and_lark(text):
        if scanned is not None:
            read += 1
            assert scanned == reference
            assert scanned.comments == reference.comments
            assert scanned.text == reference.text
    return read


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_scanner_reads_files_as_lark_does(path):
    assert_scanner_agrees(path.read_text("utf-8", errors="replace"))


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.ord")), ids=lambda p: p.name)
def test_the_scanner_reads_every_canonical_sample(path):
    text = path.read_text("utf-8")
    pairs = scanned_and_lark(text)
    assert all(scanned is not None for scanned, _ in pairs)
    assert assert_scanner_agrees(text) == len(pairs)


@fuzz(150)
@given(any_text)
def test_the_scanner_never_reads_a_record_otherwise_than_lark(text):
    assert_scanner_agrees(text)


@fuzz(40)
@given(st.integers(0, 10**6), st.integers(2, 4), st.data())
def test_the_scanner_reads_every_canonical_record_with_comments(seed, seats, data):
    text = canonical(
        decorate(game_text(play_game(str(seed), ["random"] * seats, load_deck())), data), "t.ord"
    )
    pairs = scanned_and_lark(text)
    assert pairs and all(scanned is not None for scanned, _ in pairs)
    assert assert_scanner_agrees(text) == len(pairs)


@fuzz(60)
@given(valid_records, st.data())
def test_comments_anywhere_between_lines_read_alike(text, data):
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(lines)))
        comment = data.draw(COMMENT).rstrip("\n")
        if data.draw(st.booleans()) and comment.startswith("{"):
            comment = (
                comment[:-1]
                + "\n"
                + data.draw(st.sampled_from(["", "more", " } 12. HF A", "} ; and"]))
            )  # over two lines
        lines.insert(at, comment)
    assert_scanner_agrees("\n".join(lines))


@pytest.mark.parametrize(
    "text",
    [
        '[P1 "a"]\n[P2 "b"]\n\npile: L B hand\n',  # a keyword where a card stands
        "1. HF A 2. L C\n",  # two plays on a line
        "1.\nHF A\n",  # a play over two lines
        "1. HF A!\n",  # a glyph against the state
        "1. P1 J\n",  # no card
        "#1 J P1234567890\n",  # a seat of ten digits
        "pile: L\n{c}\n B\n",  # cards after a comment that closed the pile
        "{ never closed\n1. HF A\n",
        '[Event "a"] [Site "b"]\n',
    ],
)
def test_the_scanner_declines_what_it_is_not_sure_of(text):
    [(scanned, _)] = scanned_and_lark(text)
    assert scanned is None


@pytest.mark.parametrize(
    "text",
    [
        # CR kept in lines, escapes
        '[P1 "a \\"b\\""]\r\n[P2 "c"]\r\n\r\nhand P1 : L B\r\n pile: S\r\n',
        "{ over\ntwo lines } ; and more\n1. P2 +LB HF Antioch ?!\n#1 A P2 {x}{y}\n",
        "pile:\n  L B\n  S ; end\nresult unfinished\n",
        "result P2 P1:2 P2:3 {final}\n",
        "; only a comment, then\n#7 C P3\n",
    ],
)
def test_the_scanner_reads_unusual_but_line_shaped_records(text):
    [(scanned, reference)] = scanned_and_lark(text)
    assert scanned is not None
    assert scanned == reference and scanned.comments == reference.comments
