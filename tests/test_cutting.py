"""The cutting of a text into records is one table (notation/cut_table.py)
that ``split_lines``, ``last_cut`` and the compiled core's ``cut()`` all
follow: the core's copy is written from it, the core cuts plain text where
``split_lines`` does, and ``last_cut`` cuts only where it surely does."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import ROOT, any_text, fuzz, needs_core, self_played

from ordonnance_notation.checking import quick
from ordonnance_notation.notation.cut_header import HEADER, REWRITE, c_header
from ordonnance_notation.notation.cut_table import ROWS, STEPS, Do, Kind, State
from ordonnance_notation.notation.cutting import last_cut, split_lines, split_records
from ordonnance_notation.runs.blocks import Block
from ordonnance_notation.runs.validation import python_block, validate_block


def test_the_core_copy_of_the_table_is_written_from_it() -> None:
    assert HEADER.read_text("utf-8") == c_header(), f"{HEADER.name} is stale: run `{REWRITE}`"


def test_the_core_does_all_a_step_can_do() -> None:
    """A new thing a step does is done by the core's cut() too."""
    source = (ROOT / "ordonnance_notation" / "checking" / "_quick.c").read_text("utf-8")
    [cut] = re.findall(r"\nstatic int cut\(.*?\n}\n", source, re.DOTALL)
    assert [flag.name for flag in Do if f"CUT_DO_{flag.name}" not in cut] == []


def test_every_state_is_reached_and_every_pending_start_can_be_confirmed() -> None:
    reached, todo = {State.START}, [State.START]
    while todo:
        for _, after in STEPS[todo.pop()]:
            if after not in reached:
                reached.add(after)
                todo.append(after)
    assert reached == set(State)
    for state, row in ROWS.items():
        pends = any(isinstance(cell, tuple) and cell[0] & Do.PEND for cell in row.values())
        if pends:
            assert any(STEPS[after][kind][0] & Do.CUT for _, after in STEPS[state] for kind in Kind)


def test_a_body_line_leaves_the_state_known() -> None:
    """What ``last_cut`` builds on: after a body line the state is BODY, with
    no comment line above, whatever was read before; and there nothing read
    before (where a start was pending, the tag names) tells anything."""
    for row in STEPS:
        for kind in (Kind.FIRST, Kind.ON):
            assert row[kind][1] == State.BODY and row[kind][0] & Do.UNMARK
    body = STEPS[State.BODY]
    assert body[Kind.SEAT] == body[Kind.SEAT_AGAIN] and body[Kind.TAG] == body[Kind.TAG_AGAIN]
    assert not any(do & Do.CUT for do, _ in body)


PLAIN = [
    '[P1 "Anna"]',
    '[P2 "Boris"]',
    '[P3 "Chloe"]',
    '[Event "Club"]',
    '[Round "2"]',
    '[Result "P1"]',
    '[P1x "q"]',
    '[P0123456789 "q"]',
    "1. F A",
    "01. L A",
    "2. L A",
    "41. S J",
    "1.",
    "1234567890. F",
    "#1 A P1",
    "#x",
    "result P1",
    "results",
    "result",
    "hand P1: L S",
    "pile: S",
    "      BF LB",
    "  2. F A",
    "x",
    "",
    "",
    "  ",
]


@needs_core
@fuzz(300)
@given(st.lists(st.one_of(st.sampled_from(PLAIN), st.integers(0, 3)), max_size=60))
def test_the_core_cuts_plain_text_where_split_lines_does(pieces: list[str | int]) -> None:
    """Plain lines, and whole records the core accepts: it tells every line's kind."""
    lines = [
        line
        for piece in pieces
        for line in (
            [piece] if isinstance(piece, str) else self_played(piece, 2, "random").split("\n")
        )
    ]
    text = "\n".join(lines)
    found = quick.CHECK_BLOCK(text, 1, lambda name: True)  # type: ignore[misc]
    assert found is not None
    starts = [first for first, chunk in split_records(text) if chunk.strip()]
    assert [item[0] for item in found[1]] == starts


def _twisted(how: str) -> str:
    """Two records the core used to leave to the Python path, by how they meet."""
    one, two = (self_played(seed, 2, "greedy").rstrip("\n") for seed in (1, 2))
    head, _, body = one.partition("\n\n")
    plays = body.split("\n")
    if how == "a blank line in a header":
        lines = head.split("\n")
        return "\n".join(lines[:2] + [""] + lines[2:]) + "\n\n" + body + "\n\n" + two
    if how == "a lone tag line among the plays":
        at = next(i for i, line in enumerate(plays) if line.startswith("5. "))
        return "\n".join([head, "", *plays[:at], '[Round "2"]', *plays[at:]]) + "\n\n" + two
    if how == "a header that names no seat":
        return one + '\n\n[Event "x"]\n[Round "2"]\n\n' + two.partition("\n\n")[2]
    if how == "a header alone, then a blank line":
        return one + '\n\n[Event "x"]\n\n' + two
    return one + '\n[Event "x"]'  # a header alone, at the end


@needs_core
@pytest.mark.parametrize(
    "how",
    [
        "a blank line in a header",
        "a lone tag line among the plays",
        "a header that names no seat",
        "a header alone, then a blank line",
        "a header alone, at the end",
    ],
)
def test_the_core_cuts_headers_of_any_shape_and_checks_alike(how: str) -> None:
    text = _twisted(how)
    found = quick.CHECK_BLOCK(text, 1, lambda name: True)  # type: ignore[misc]
    assert found is not None
    assert [item[0] for item in found[1]] == [first for first, _ in split_records(text)]
    block = Block(0, "game.ord", 1, text)
    assert validate_block(block, True) == python_block(block, True)


@fuzz(300)
@given(any_text)
def test_the_records_are_the_text_cut_in_order(text: str) -> None:
    chunks = list(split_records(text))
    assert "\n".join(chunk for _, chunk in chunks) == text
    for (first, chunk), (then, _) in pairwise(chunks):
        assert then == first + chunk.count("\n") + 1


NO_BRACE = [*PLAIN, "; a note", '  [P1 "A"]', '[Event "a;b"]', '"x"]', "]", "[P1", "} 1. F"]
LINES = st.lists(st.sampled_from(NO_BRACE), max_size=30)


@fuzz(300)
@given(LINES, LINES, LINES)
def test_last_cut_cuts_where_split_lines_starts_a_record_whatever_is_around(
    above: list[str], lines: list[str], below: list[str]
) -> None:
    text = "\n".join(lines)
    at, _ = last_cut(text)
    if at is not None:
        first = len(above) + text.count("\n", 0, at + 1) + 1
        assert first in {start for start, _ in split_lines(above + lines + below)}


def test_last_cut_leaves_a_start_still_pending_at_the_end() -> None:
    body = '[P1 "A"]\n[P2 "B"]\n1. F A\n'
    assert last_cut(body + '[Event "x"]\n[Round "2"]')[0] is None
    assert last_cut(body + '[Event "x"]\n[Round "2"]\n1. L A')[0] == len(body) - 1
    assert last_cut(body + '[Event "x"]\n[P1 "C"]')[0] == len(body) - 1
    assert last_cut(body + '; a note\n[Event "x"]\n[P1 "C"]')[0] == len(body) - 1
