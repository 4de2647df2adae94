"""Fuzzing every entry point with Hypothesis.

The property: for any input, only the project's own error types (every one
derives from ``OrdoError``) may escape the library, ``parse_text`` and
``validate`` raise nothing at all, and the ``ordo`` command exits with 0, 1 or
2 and prints no traceback.

Inputs are random text weighted towards the notation's alphabet, random bytes,
random YAML and JSON documents, and mutations of valid records (self-played
games and the samples) and of their archives.

The number of examples per test is small so that the file runs in well under a
minute; ``ORDO_FUZZ_EXAMPLES=2000 pytest tests/test_fuzz.py`` runs more.
Every input that once made the code fail is kept in ``tests/fuzz_corpus/`` and
replayed on every run, through every entry point, in a forked child so that a
crash of the interpreter or a hang fails that test and not the whole run.
"""

from __future__ import annotations

import json
import os
import re
import signal
import tempfile
import time
import traceback
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ordonnance_notation import parse_text, validate
from ordonnance_notation.archives import document as archive
from ordonnance_notation.archives.conversion import canonical, convert
from ordonnance_notation.cli.app import app
from ordonnance_notation.diagnostics import CODES, OrdoError, SourceError
from ordonnance_notation.files.sources import Source, decode
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import game_text, play_game
from ordonnance_notation.notation.record import Record
from ordonnance_notation.notation.writer import format_records
from ordonnance_notation.views.board import render_step
from ordonnance_notation.views.replay import replay
from ordonnance_notation.views.report import diagnostic_text, record_line
from ordonnance_notation.views.stats import collect
from ordonnance_notation.views.stats import render_text as stats_text
from ordonnance_notation.views.summary import render_markdown, summarize
from ordonnance_notation.views.summary import render_text as summary_text

try:
    import lark_cython  # noqa: F401  (the optional compiled parser, the "fast" extra)

    LARK_CYTHON = True
except ImportError:
    LARK_CYTHON = False

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"
EXIT_CODES = {0, 1, 2}
EXAMPLES = int(os.environ.get("ORDO_FUZZ_EXAMPLES", "0"))


def fuzz(examples: int):
    """Hypothesis settings: ``examples`` by default, ORDO_FUZZ_EXAMPLES when set."""
    return settings(
        max_examples=EXAMPLES or examples,
        deadline=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


# Inputs ------------------------------------------------------------------

WORDS = [
    "[",
    "]",
    '"',
    "{",
    "}",
    ";",
    "#",
    "+",
    ":",
    ".",
    "!",
    "?",
    "!?",
    "?!",
    "!!",
    "??",
    "\\",
    '\\"',
    "\n",
    "\n",
    "\n",
    " ",
    " ",
    " ",
    "\t",
    "\r",
    "\r\n",
    "L",
    "B",
    "S",
    "H",
    "F",
    "A",
    "C",
    "J",
    "E",
    "T",
    "HF",
    "LBSHF",
    "FF",
    "X",
    "hf",
    "P",
    "P0",
    "P1",
    "P2",
    "P3",
    "P4",
    "P5",
    "P10",
    "0",
    "1",
    "2",
    "7",
    "9",
    "40",
    "41",
    "80",
    "01",
    "1.",
    "2.",
    "3.",
    "40.",
    "0.",
    "#1",
    "#5",
    "#0",
    "#6",
    "hand",
    "pile",
    "result",
    "unfinished",
    "shared",
    "Antioch",
    "Cyprus",
    "Jerusalem",
    "Edessa",
    "Tripoli",
    "Notation",
    "Event",
    "Result",
    "Scoring",
    "Points",
    "classic",
    "points",
    '[P1 "Anna"]',
    '[P2 "Boris"]',
    '[P3 ""]',
    '[Result "P1"]',
    '[Result "unfinished"]',
    '[Notation "2"]',
    '[Scoring "points"]',
    '[Points "3 1 0"]',
    '[Points "1 2"]',
    "hand P1:",
    "pile:",
    "result P1 P1:3 P2:2",
    "#1 A P1",
    "1. HF A",
    "2. P2 +L L A !?",
    "{a comment}",
    "; a line comment\n",
]
ALPHABET = '[]"{};#+:.!?\\LBSHFACJETP0123456789 \n\t\rhandpileresultunfishd'
NUMBERS = ["0", "00", "1", "4294967296", "9" * 25, "9" * 5000]

notation_text = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(alphabet=ALPHABET, max_size=4), st.text(max_size=2)),
    max_size=80,
).map("".join)


@cache
def deck():
    return load_deck()


@cache
def self_played(seed: int, seats: int, bots: str) -> str:
    return game_text(play_game(f"fuzz/{seed}", [bots] * seats, deck()))


@cache
def samples() -> tuple[str, ...]:
    return tuple(p.read_text("utf-8") for p in sorted((ROOT / "samples").glob("*.ord")))


valid_record = st.one_of(
    st.builds(
        self_played, st.integers(0, 7), st.integers(2, 4), st.sampled_from(["random", "greedy"])
    ),
    st.integers(0, 50).map(lambda i: samples()[i % len(samples())] if samples() else ""),
)
valid_records = st.lists(valid_record, min_size=1, max_size=3).map("\n".join)

_TOKENS = re.compile(r"\s+|[^\s]+")
OPERATIONS = [
    "delete",
    "duplicate",
    "swap",
    "replace",
    "borrow",
    "insert",
    "char",
    "number",
    "truncate",
    "lines",
    "tag",
    "kind",
    "kind",
    "kind",
    "draw",
    "extend",
]
# Words of one kind, replaced by another of the same kind: the record stays
# well formed, so the rules and results checks (E3xx, E4xx) are reached.
KINDS = [
    (re.compile(r"P[1-4]\Z"), ["P1", "P2", "P3", "P4", "P5"]),
    (re.compile(r"[LBSHF]{1,5}\Z"), ["L", "B", "S", "H", "F", "HF", "LH", "BSF", "LBSHF"]),
    (re.compile(r"[ACJET]\Z"), ["A", "C", "J", "E", "T"]),
    (re.compile(r"#[0-9]\Z"), ["#1", "#2", "#3", "#4", "#5", "#6"]),
    (re.compile(r"[0-9]+\.\Z"), ["1.", "2.", "20.", "40.", "41.", "60.", "80."]),
    (re.compile(r"P[1-4]:[0-9]+\Z"), ["P1:0", "P1:3", "P2:2", "P2:5", "P3:1"]),
]
YAML_TAGS = [
    "!!bool",
    "!!int",
    "!!float",
    "!!str",
    "!!timestamp",
    "!!binary",
    "!!null",
    "!!set",
    "!!seq",
    "!!map",
    "!x",
]


@st.composite
def mutations(draw, base=valid_record, words=WORDS):
    """A valid text with a few tokens deleted, duplicated, swapped, replaced
    (by one of ``words`` or another token of the same text), inserted or
    given a YAML tag, a character changed, a number blown up, lines deleted,
    duplicated or swapped, or the text cut short."""
    tokens = _TOKENS.findall(draw(base))
    for _ in range(draw(st.integers(1, 5))):
        if not tokens:
            break
        op = draw(st.sampled_from(OPERATIONS))
        i = draw(st.integers(0, len(tokens) - 1))
        if op == "lines":
            lines = "".join(tokens).split("\n")
            i, j = (draw(st.integers(0, len(lines) - 1)) for _ in range(2))
            how = draw(st.sampled_from(["delete", "duplicate", "swap"]))
            if how == "delete":
                del lines[i]
            elif how == "duplicate":
                lines[i:i] = lines[min(i, j) : max(i, j) + 1]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            tokens = _TOKENS.findall("\n".join(lines))
        elif op == "kind":
            pattern, values = draw(st.sampled_from(KINDS))
            found = [k for k, token in enumerate(tokens) if pattern.match(token)]
            if found:
                tokens[draw(st.sampled_from(found))] = draw(st.sampled_from(values))
        elif op == "draw":  # a written draw after a ply number: checked against the pile
            found = [k for k, token in enumerate(tokens) if KINDS[4][0].match(token)]
            if found:
                k = draw(st.sampled_from(found))
                tokens[k] += " +" + draw(st.sampled_from(KINDS[1][1]))
        elif (
            op == "extend"
        ):  # plays numbered on from the last one: after the end of a finished game
            # (a number of thousands of digits, from the "number" operation, is no ply to count on from)
            plies = [
                int(token[:-1]) for token in tokens if KINDS[4][0].match(token) and len(token) <= 10
            ]
            last = max(plies, default=0)
            extra = " ".join(
                f"{last + n}. {draw(st.sampled_from(KINDS[1][1]))} {draw(st.sampled_from('ACJET'))}"
                for n in range(1, draw(st.integers(1, 3)) + 1)
            )
            ends = [k for k, token in enumerate(tokens) if token == "result"]
            at = ends[-1] if ends else len(tokens)
            tokens[at:at] = [extra, "\n"]
        elif op == "tag":  # a YAML tag before a value (for archives; in .ord, one more bad word)
            tokens[i] = f"{draw(st.sampled_from(YAML_TAGS))} {tokens[i]}"
        elif op == "borrow":
            tokens[i] = tokens[draw(st.integers(0, len(tokens) - 1))]
        elif op == "delete":
            del tokens[i]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        elif op == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == "replace":
            tokens[i] = draw(st.sampled_from(words))
        elif op == "insert":
            tokens.insert(
                i, draw(st.sampled_from(["{}", "{} ", " {}"])).format(draw(st.sampled_from(words)))
            )
        elif op == "char":
            k = draw(st.integers(0, max(0, len(tokens[i]) - 1)))
            tokens[i] = (
                tokens[i][:k]
                + draw(st.one_of(st.sampled_from(ALPHABET), st.characters()))
                + tokens[i][k + 1 :]
            )
        elif op == "number":
            tokens[i] = re.sub(r"[0-9]+", draw(st.sampled_from(NUMBERS)), tokens[i], count=1)
        else:
            text = "".join(tokens)
            tokens = [text[: draw(st.integers(0, len(text)))]]
    return "".join(tokens)


any_text = st.one_of(notation_text, st.text(max_size=120), mutations(), mutations(valid_records))


def _archive(text: str, kind: str) -> str:
    try:
        return convert(text, "fuzz.ord", "ord", kind)
    except OrdoError:
        return ""


# What YAML and JSON texts are made of, and words that are keywords in .ord
ARCHIVE_WORDS = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    ": ",
    "- ",
    "? ",
    "'",
    '"',
    "\\",
    "|",
    ">",
    "#",
    "~",
    "\n",
    "\n  ",
    "  ",
    "\t",
    "---",
    "...",
    "&a",
    "*a",
    "<<:",
    "!!bool",
    "!!int",
    "!!float",
    "!!str",
    "!!timestamp",
    "!!binary",
    "!!null",
    "!!set",
    "!!omap",
    "!!python/object:os.system",
    "!local",
    "%YAML 1.1",
    "null",
    "true",
    "yes",
    "1e400",
    ".nan",
    "-.inf",
    "0x1F",
    "0o17",
    "1_000",
    "2026-11-20",
    "2026-13-01",
    "-",
    "+",
    '""',
    "''",
    "-1",
    "0",
    "1000000000",
    "hand",
    "pile",
    "result",
    "unfinished",
    "shared",
    "P0",
    "P1",
    "P5",
    "HF",
    "XX",
    "!?",
    "!!!",
    "{brace: x}",
    "{line: x}",
    '"a}b"',
    '"a\\nb"',
    '"\\r"',
    "schema_version",
    "records",
    "tags",
    "body",
    "deal",
    "ply",
    "marker",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYS = [
    "schema_version",
    "records",
    "tags",
    "name",
    "value",
    "deal",
    "hand",
    "cards",
    "pile",
    "body",
    "ply",
    "seat",
    "drawn",
    "card",
    "state",
    "glyph",
    "marker",
    "result",
    "scores",
    "comments",
    "brace",
    "line",
    "results",
]


@st.composite
def mutated_documents(draw):
    """A valid archive (as data) with one value somewhere replaced, removed or renamed."""
    doc = json.loads(_archive(draw(valid_record), "json") or '{"schema_version": 1, "records": []}')
    for _ in range(draw(st.integers(1, 3))):
        holders = []
        stack = [doc]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                holders += [(node, key) for key in node]
                stack += node.values()
            elif isinstance(node, list):
                holders += [(node, i) for i in range(len(node))]
                stack += node
        if not holders:
            break
        holder, key = draw(st.sampled_from(holders))
        op = draw(st.sampled_from(["value", "delete", "rename", "number"]))
        if op == "value":
            holder[key] = draw(st.one_of(json_values, st.sampled_from(WORDS + ARCHIVE_WORDS)))
        elif op == "delete":
            del holder[key]
        elif op == "rename" and isinstance(holder, dict):
            holder[draw(st.sampled_from(KEYS))] = holder.pop(key)
        else:
            holder[key] = draw(st.sampled_from([-1, 0, 2, 10**30, True, 1.5, "1", None]))
    return doc


@st.composite
def archive_texts(draw):
    """(text, kind): random text, random documents, mutated archives and their text."""
    kind = draw(st.sampled_from(["yaml", "json"]))
    source = draw(st.sampled_from(["text", "document", "mutated document", "mutated text"]))
    if source == "text":
        return draw(any_text), kind
    if source == "mutated text":
        base = st.builds(_archive, valid_record, st.just(kind))
        return draw(mutations(base, ARCHIVE_WORDS + WORDS)), kind
    doc = draw(json_values if source == "document" else mutated_documents())
    if kind == "json":
        return json.dumps(doc, ensure_ascii=draw(st.booleans())), kind
    return yaml.safe_dump(
        doc, default_flow_style=draw(st.sampled_from([None, True, False])), allow_unicode=True
    ), kind


@st.composite
def file_bytes(draw):
    """What a file may hold: text in some encoding and line endings, or random bytes."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe"])) + draw(
            st.binary(max_size=300)
        )
    text = draw(any_text)
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = text.replace("\n", ending)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    return text.encode(encoding, "replace")


# Checks: each runs one entry point and asserts what must hold -------------


def check_library(text: str) -> list:
    """parse_text + validate (and what the CLI renders from them) never raise."""
    lines = text.split("\n")
    reports = []
    for item in parse_text(text, "fuzz.ord"):
        report = validate(item)
        for diagnostic in report.diagnostics:
            assert diagnostic.code in CODES
            diagnostic_text(diagnostic, lines)
        record_line(report)
        json.dumps(report.to_json())
        reports.append(report)
    if LARK_CYTHON:  # the compiled parser and the pure-Python one read alike
        pure = [
            [d.to_json() for d in validate(item).diagnostics]
            for item in parse_text(text, "fuzz.ord", fast=False)
        ]
        assert pure == [[d.to_json() for d in r.diagnostics] for r in reports]
    return reports


def _diagnosed(items) -> list:
    return [(d["record"], d["code"], d["line"], d["column"], d["ply"]) for d in items]


def check_streaming_matches_library(data: bytes) -> None:
    """``ordo validate`` reads files line by line; the library reads the text
    whole. Both find the same records and the same diagnostics."""
    try:
        source: Source | SourceError = decode(data, "fuzz.ord")
    except SourceError as error:
        source = error
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.ord"
        path.write_bytes(data)
        result = CliRunner().invoke(
            app, ["validate", "--format", "json", "--jobs", "1", str(path)], catch_exceptions=False
        )
    assert result.exit_code in EXIT_CODES and "Traceback" not in result.output, result.output[
        -2000:
    ]
    document = json.loads(result.output)
    streamed = [_diagnosed(r["diagnostics"]) for r in document["records"]]
    if isinstance(source, SourceError):
        told = [(p["code"], p["message"], p["line"], p["column"]) for p in document["problems"]]
        problem = source.diagnostic
        assert told == [(problem.code, problem.message, problem.span.line, problem.span.column)]
        return
    whole = [
        _diagnosed(d.to_json() for d in validate(item).diagnostics)
        for item in parse_text(source.text, "fuzz.ord")
    ]
    assert streamed == whole


def check_canonical(text: str) -> None:
    """format_records never raises on records; canonical raises only OrdoError,
    and its result is its own canonical form."""
    records = [item for item in parse_text(text, "fuzz.ord") if isinstance(item, Record)]
    format_records(records)
    try:
        result = canonical(text, "fuzz.ord")
    except OrdoError as error:
        assert_no_e004(error)
        return
    assert canonical(result, "fuzz.ord") == result


def assert_no_e004(error: OrdoError, archive_text: str | None = None, kind: str = "") -> None:
    """E004 is a safety net (docs/diagnostics.md): from .ord text it is a bug;
    from an archive, only a braced comment holding a whole tag line reaches it."""
    if not any(d.code == "E004" for d in getattr(error, "diagnostics", ())):
        return
    if archive_text is not None:
        doc = archive.load(archive_text, f"fuzz.{kind}", kind)
        if any(_TAG_LINE.match(line) for brace in _braces(doc) for line in brace.split("\n")):
            return
    raise AssertionError(f"E004, which the docs call a bug in ordo: {error}")


_TAG_LINE = re.compile(r'\s*\[[A-Za-z][A-Za-z0-9_]*\s+"')


def _braces(node):
    if isinstance(node, dict):
        if isinstance(node.get("brace"), str):
            yield node["brace"]
        for value in node.values():
            yield from _braces(value)
    elif isinstance(node, list):
        for value in node:
            yield from _braces(value)


def check_convert_from_ord(text: str) -> None:
    """.ord -> YAML and JSON raise only OrdoError; what they write reads back
    to the canonical text."""
    for kind in ("yaml", "json"):
        try:
            archived = convert(text, "fuzz.ord", "ord", kind, with_results=True)
        except OrdoError as error:
            assert_no_e004(error)
            continue
        assert convert(archived, f"fuzz.{kind}", kind, "ord") == canonical(text, "fuzz.ord")


def check_convert_to_ord(text: str, kind: str) -> None:
    """YAML or JSON -> .ord (and -> the other archive kind) raise only OrdoError."""
    for target in ("ord", "yaml" if kind == "json" else "json"):
        try:
            convert(text, f"fuzz.{kind}", kind, target)
        except OrdoError as error:
            assert_no_e004(error, text, kind)


def check_replay(reports: list, pick: int = 0) -> None:
    """replay + render_step never raise: first, last and one more step, from
    every seat's view and from none."""
    for report in reports:
        steps = replay(report)
        if steps is None:
            continue
        chosen = {0, steps.last, pick % (steps.last + 1)}
        for number in sorted(chosen):
            for seat in (None, *range(steps.steps[0].game.seats)):
                render_step(steps, steps.steps[number], seat)


def check_summary(reports: list) -> None:
    for report in reports:
        data = summarize(report)
        json.dumps(data)
        summary_text(data)
        render_markdown(data)


def check_stats(reports: list) -> None:
    stats = collect(reports)
    json.dumps(stats.to_json())
    stats_text(stats)


COMMANDS = [
    ["validate", "{f}"],
    ["validate", "--format", "json", "{f}"],
    ["fmt", "{f}"],
    ["fmt", "--check", "{f}"],
    ["fmt", "--write", "{f}"],
    ["convert", "{f}", "--to", "yaml", "--with-results"],
    ["convert", "{f}", "--to", "json"],
    ["convert", "{f}", "--from", "yaml", "--to", "ord"],
    ["convert", "{f}", "--from", "json", "--to", "yaml"],
    ["replay", "{f}"],
    ["replay", "--step", "{f}"],
    ["replay", "--record", "1", "--ply", "3", "--seat", "P2", "{f}"],
    ["summary", "{f}"],
    ["summary", "--format", "markdown", "{f}"],
    ["summary", "--format", "json", "{f}"],
    ["stats", "{f}"],
    ["stats", "--format", "json", "{f}"],
]


def check_cli(data: bytes, args: list[str], name: str = "fuzz.ord") -> int:
    """One ``ordo`` command on a file holding ``data``: exit 0, 1 or 2, no traceback."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        argv = [str(path) if a == "{f}" else a for a in args]
        result = CliRunner().invoke(app, argv, catch_exceptions=False, env={"NO_COLOR": "1"})
    assert "Traceback" not in result.output, result.output[-2000:]
    assert result.exit_code in EXIT_CODES, (argv, result.exit_code, result.output[-2000:])
    return result.exit_code


def check_everything(data: bytes, name: str = "fuzz.ord") -> None:
    """Every entry point on one input: the library on its text (as .ord, YAML
    and JSON), then every command on the file."""
    try:
        text: str | None = decode(data, name).text
    except SourceError:
        text = None
    if text is not None:
        reports = check_library(text)
        check_canonical(text)
        check_convert_from_ord(text)
        check_convert_to_ord(text, "yaml")
        check_convert_to_ord(text, "json")
        check_replay(reports, pick=len(text))
        check_summary(reports)
        check_stats(reports)
    check_streaming_matches_library(data)
    for args in COMMANDS:
        check_cli(data, args, name)
    check_cli(data, ["validate", "-"], name)


# The fuzz tests -------------------------------------------------------------


@fuzz(500)
@given(any_text)
def test_parse_and_validate_never_raise(text):
    check_library(text)


@fuzz(150)
@given(any_text)
def test_canonical_form_raises_only_ordo_errors(text):
    check_canonical(text)


@fuzz(120)
@given(any_text)
def test_ord_to_archive_raises_only_ordo_errors(text):
    check_convert_from_ord(text)


@fuzz(400)
@given(archive_texts())
def test_archive_to_ord_raises_only_ordo_errors(case):
    text, kind = case
    check_convert_to_ord(text, kind)


@fuzz(100)
@given(st.one_of(any_text, valid_records), st.integers(0, 200))
def test_replay_and_board_never_raise(text, pick):
    check_replay(check_library(text), pick)


@fuzz(150)
@given(st.one_of(any_text, valid_records))
def test_summary_and_stats_never_raise(text):
    reports = check_library(text)
    check_summary(reports)
    check_stats(reports)


@fuzz(200)
@given(
    file_bytes(), st.sampled_from(COMMANDS), st.sampled_from(["fuzz.ord", "fuzz.yaml", "fuzz.json"])
)
def test_cli_exits_0_1_or_2_without_a_traceback(data, args, name):
    check_cli(data, args, name)


@fuzz(80)
@given(archive_texts(), st.sampled_from([a for a in COMMANDS if a[0] in ("convert", "validate")]))
def test_cli_on_archives_exits_0_1_or_2_without_a_traceback(case, args):
    text, kind = case
    check_cli(text.encode("utf-8"), args, f"fuzz.{kind}")


@fuzz(120)
@given(file_bytes())
def test_ordo_validate_reads_files_as_the_library_reads_text(data):
    check_streaming_matches_library(data)


# The corpus: inputs that once failed ------------------------------------


def run_isolated(function, *args, timeout: float = 60.0) -> None:
    """``function(*args)`` in a forked child. An exception there, a crash of
    the interpreter (a segfault in a C extension) or a run longer than
    ``timeout`` seconds fails the calling test, with the child's traceback."""
    with tempfile.NamedTemporaryFile("w+", suffix=".log") as log:
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            status = 0
            try:
                function(*args)
            except BaseException:
                log.write(traceback.format_exc(limit=-12))
                log.flush()
                status = 1
            os._exit(status)
        deadline = time.monotonic() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                pytest.fail(f"still running after {timeout:.0f} s: a hang", pytrace=False)
            time.sleep(0.02)
        log.seek(0)
        told = log.read()
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        pytest.fail(f"the interpreter was killed by {name}", pytrace=False)
    if os.WEXITSTATUS(status) != 0:
        pytest.fail(told or f"the child exited with {os.WEXITSTATUS(status)}", pytrace=False)


CORPUS_FILES = (
    sorted(p.name for p in CORPUS.iterdir() if p.is_file() and p.name != "README.md")
    if CORPUS.is_dir()
    else []
)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the corpus is replayed in forked children")
@pytest.mark.parametrize("name", CORPUS_FILES)
def test_corpus_input_goes_through_every_entry_point(name):
    run_isolated(check_everything, (CORPUS / name).read_bytes(), name)
