"""The corpus of hand-made mistakes (tests/mistakes.yaml): records as club
players write them from docs/notation.md, each with one human mistake, the
line it is on and the code a good tool reports first.

Each case must (1) be a sound case: fixed as it says, the record is valid;
(2) get its first problem (an error, or a warning other than "unfinished")
on the mistake's line, with the expected code; (3) carry a help line that
names the change where the case gives one.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from strategies import SAMPLES, TESTS

from ordonnance_notation.checking.report import Report
from ordonnance_notation.checking.validator import validate
from ordonnance_notation.diagnostics import Diagnostic, Severity
from ordonnance_notation.notation.parser import parse_text

CASES: list[dict[str, Any]] = yaml.safe_load((TESTS / "mistakes.yaml").read_text("utf-8"))
MISTAKES = [c for c in CASES if not c["valid"]]

# Cases the tool cannot place, and why: each is a real limit, kept visible.
CANNOT_PLACE = {
    "pile-card-miswritten": "the pile says LS and the play LSH: a miswritten pile card and a "
    "miswritten play read alike, so the play is blamed and the help names both",
}


def _reports(text: str) -> list[Report]:
    return [validate(item) for item in parse_text(text, "game.ord")]


def _first_problem(text: str) -> Diagnostic:
    problems = [
        d
        for report in _reports(text)
        for d in report.diagnostics
        if d.severity is Severity.ERROR or (d.severity is Severity.WARNING and d.code != "W501")
    ]
    assert problems, "the mistake went unnoticed"
    return problems[0]


def _fixed(case: dict[str, Any]) -> str:
    if "correct_text" in case:
        return str(case["correct_text"])
    lines = case["text"].split("\n")
    lines[case["line"] - 1 : case["line"]] = case["correct"].split("\n") if case["correct"] else []
    return "\n".join(lines)


def test_the_corpus_is_big_and_names_are_unique() -> None:
    assert len(MISTAKES) >= 40
    assert len({c["name"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_each_case_is_sound(case: dict[str, Any]) -> None:
    """The mistake is the only one: fixed as the case says, the record is valid."""
    line = case["text"].split("\n")[case["line"] - 1]
    assert case["token"] is None or case["token"] in line
    reports = _reports(_fixed(case) if not case["valid"] else case["text"])
    assert reports and all(r.valid for r in reports), [
        (d.code, d.message) for r in reports for d in r.diagnostics
    ]


@pytest.mark.parametrize("case", MISTAKES, ids=lambda c: c["name"])
def test_the_first_problem_is_at_the_mistake_with_help(case: dict[str, Any]) -> None:
    if case["name"] in CANNOT_PLACE:
        pytest.xfail(CANNOT_PLACE[case["name"]])
    problem = _first_problem(case["text"])
    assert problem.span is not None
    assert (problem.code, problem.span.line) == (case["code"], case["line"]), problem.message
    assert problem.help


@pytest.mark.parametrize("case", MISTAKES, ids=lambda c: c["name"])
def test_the_help_names_the_change(case: dict[str, Any]) -> None:
    """Where the fix changes words of the line, the help names one of them."""
    if case["name"] in CANNOT_PLACE or "correct" not in case:
        return
    line = case["text"].split("\n")[case["line"] - 1]
    new = {word.strip('[]"') for word in set(case["correct"].split()) - set(line.split())}
    help = _first_problem(case["text"]).help or ""
    if new and case["name"] not in VAGUE:
        assert any(word in help for word in new), help


VAGUE = {
    # the help says how without repeating the word: each is checked by hand
    "hand-misses-a-card",  # which card is missing cannot be known
    "tag-missing-bracket",  # "close the tag with ']'"
    "tag-missing-closing-quote",  # "close the value with '\"'"
    "comment-inside-tag",
    "tag-value-unescaped-quote",
    "pgn-result-token",
    "declared-state-twice",  # "remove this line"
}


def test_the_pile_mistake_points_at_the_pile_and_the_play_it_shows_at() -> None:
    case = next(c for c in CASES if c["name"] == "pile-misses-a-card")
    problem = _first_problem(case["text"])
    assert problem.help == "add LB to the pile as its card 6, before LBF"
    (related,) = problem.related
    assert "plays LB" in related.message and related.span.line > problem.span.line  # type: ignore[union-attr]


def _errors_of(text: str, name: str) -> list[Diagnostic]:
    return [d for r in _reports(text) for d in r.diagnostics if d.severity is Severity.ERROR]


def test_every_error_says_how_to_fix_it() -> None:
    """Every error of the corpus and of the invalid samples has a help line."""
    texts = [(c["name"], c["text"]) for c in CASES]
    for path in sorted((SAMPLES / "invalid").glob("*.ord")):
        data = path.read_bytes()
        if data.isascii() or path.name != "encoding.ord":  # that one is Latin-1 on purpose
            texts.append((path.name, data.decode("utf-8")))
    seen = set()
    for name, text in texts:
        for error in _errors_of(text, name):
            assert error.help, f"{name}: {error.code} {error.message}"
            seen.add(error.code)
    assert len(seen) >= 30  # most codes are tried


def test_one_run_reports_every_independent_mistake_of_a_record_once() -> None:
    text = (
        '[P1 "Anna Petrova"]\n[P2 "Boris Lind"]\n[Result "unfinished"]\n\n'
        "1. LH J\n2. Boris F T\n3. S\n4. LH E\n5 LSH J\nLB J\n7. F J F T\n#1 P1 A\nresult p2\n"
    )
    errors = _errors_of(text, "t.ord")
    assert [(e.code, e.span.line if e.span else 0) for e in errors] == [
        ("E203", 6),
        ("E101", 7),
        ("E101", 9),
        ("E101", 10),
        ("E101", 11),
        ("E101", 12),
        ("E203", 13),
    ]
    assert [e.help for e in errors] == [
        "Boris Lind plays P2: write `2. P2 F T`",
        "every play is `N. CARD STATE` (a seat and a draw may come before the card): "
        "write the state after the card, e.g. `3. S J`",
        "write `5. LSH J`",
        "every play starts with its number: write `6. LB J`",
        "write one play a line, each with its number: `8. F T` on the next line",
        "write `#1 A P1` (marker, state, then the seat that won it)",
        "write `result P2`",
    ]


HEAD = '[P1 "Anna"]\n[P2 "Boris"]\n[Result "unfinished"]\n1. F A\n'


@pytest.mark.parametrize(
    ("line", "code", "help"),
    [
        ("2. Boris F J", "E203", "Boris plays P2: write `2. P2 F J`"),
        ("2. Anna F J", "E203", "Anna plays P1, but ply 2 is P2's: check the name and the ply"),
        ("2. Bors F J", "E203", "if Bors is Boris, they play P2: write `2. P2 F J`"),
        ("2. HF F J", "E101", "if HF is the card drawn, write it `+HF`: `2. +HF F J`"),
        ("2. Xy F J", "E101", "every play is `N. CARD STATE` (a seat and a draw may come"),
        ("result P01", "E214", "a seat has no leading zero: write `result P1`"),
        ("result P2 P1 0 P2 1", "E101", "write `result P2 P1:0 P2:1`"),
    ],
)
def test_the_help_proposes_the_line_as_it_should_be(line: str, code: str, help: str) -> None:
    problem = _first_problem(HEAD + line + "\n")
    assert problem.code == code and (problem.help or "").startswith(help), problem.help


def test_a_tag_value_without_quotes_is_shown_quoted() -> None:
    problem = _first_problem(HEAD.replace('[Result "unfinished"]', "[Result unfinished]"))
    assert (problem.code, problem.help) == ("E101", 'write [Result "unfinished"]')


def test_a_first_play_without_its_number_after_the_pile_is_one_error() -> None:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8").replace("\n\n1. LH J\n", "\nLH J\n", 1)
    errors = _errors_of(text, "t.ord")
    assert [(e.code, e.span.line if e.span else 0) for e in errors] == [("E101", 16)]
    assert errors[0].help == "every play starts with its number: write `1. LH J`"


def test_a_result_tag_among_the_plays_is_one_error() -> None:
    text = HEAD + '[Result "P1"]\n2. L A\n'
    assert [e.code for e in _errors_of(text, "t.ord")] == ["E209"]


# A help line's example is written as the line should be: `4. +BS HF T`, not
# `4. HF-T J`. Backticked text that starts like an element is such an example;
# a form (`N. CARD STATE`), an excerpt (`hand P1: ...`) or the start of a line
# to write (`hand P2:`) is not.
_EXAMPLE = re.compile(r"`((?:\d+\. |hand |pile: |#\d|result |\[)[^`]*)`")
_NOT_NOTATION = ("E1", "E201", "E202")  # an example must read as notation, its words as words


def _examples(help: str) -> list[str]:
    return [e for e in _EXAMPLE.findall(help) if "..." not in e and not e.endswith(":")]


ONE_WORD_PLAYS = [
    "2. HF-T",
    "2. P2 +BS HF-T",
    "2. +BS HFT",
    "2. L/Jerusalem",
    "2. P2 +BS HF",
    "2. J",
    "2. Edessa",
    "2. LBX",
    "2. hf",
    "2. HF-",
]
EXAMPLE_TEXTS = [(c["name"], c["text"]) for c in MISTAKES] + [
    (line, HEAD + line + "\n") for line in ONE_WORD_PLAYS
]


@pytest.mark.parametrize(("name", "text"), EXAMPLE_TEXTS, ids=[n for n, _ in EXAMPLE_TEXTS])
def test_every_example_a_help_line_shows_is_written_as_it_should_be(name: str, text: str) -> None:
    """Each example, put in place of the line it is about, reads as notation
    and is free of the error it is the help of."""
    lines = text.split("\n")
    shown = 0
    for error in _errors_of(text, name):
        assert error.span is not None
        for example in _examples(error.help or ""):
            mended = "\n".join([*lines[: error.span.line - 1], example, *lines[error.span.line :]])
            left = [
                (d.code, d.message)
                for d in _errors_of(mended, name)
                if d.span is not None
                and d.span.line == error.span.line
                and (d.code == error.code or d.code.startswith(_NOT_NOTATION))
            ]
            assert not left, (error.help, example, left)
            if name in ONE_WORD_PLAYS:  # the line's own seat and draw are kept
                assert example.startswith(name.rsplit(" ", 1)[0] + " "), example
            shown += 1
    if name in ONE_WORD_PLAYS:
        assert shown == 1  # each of these lines gets an example
