"""Fuzzing every entry point with Hypothesis.

The property: for any input, only the project's own error types (every one
derives from ``OrdoError``) may escape the library, ``parse_text`` and
``validate`` raise nothing at all, and the ``ordo`` command exits with 0, 1 or
2 and prints no traceback.

Inputs (made in tests/strategies.py) are random text weighted towards the
notation's alphabet, random bytes, random YAML and JSON documents, and
mutations of valid records (self-played games and the samples) and of their
archives.

The number of examples per test is small so that the file runs in well under a
minute; ``pytest --hypothesis-profile=deep tests/test_fuzz.py`` runs ten times
as many. The tests that fuzz the ``ordo`` command itself are marked ``slow``.
Every input that once made the code fail is kept in ``tests/fuzz_corpus/`` and
replayed on every run, through every entry point, in a forked child so that a
crash of the interpreter or a hang fails that test and not the whole run.
"""

from __future__ import annotations

import contextlib
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import TESTS, any_text, archive_texts, file_bytes, fuzz, valid_records
from typer.testing import CliRunner

from ordonnance_notation import parse_text, validate
from ordonnance_notation.archives import document as archive
from ordonnance_notation.archives.conversion import canonical, convert
from ordonnance_notation.cli.app import app
from ordonnance_notation.diagnostics import CODES, OrdoError, SourceError
from ordonnance_notation.files.sources import Source, decode
from ordonnance_notation.making.dealing import parse_deck
from ordonnance_notation.notation.record import Record
from ordonnance_notation.notation.writer import format_records
from ordonnance_notation.views.board import render_compact, render_step
from ordonnance_notation.views.page import record_view
from ordonnance_notation.views.picture import step_picture
from ordonnance_notation.views.report import diagnostic_text, record_line
from ordonnance_notation.views.stats import collect
from ordonnance_notation.views.stats import render_text as stats_text
from ordonnance_notation.views.steps import steps_of
from ordonnance_notation.views.summary import render_markdown, summarize
from ordonnance_notation.views.summary import render_text as summary_text

try:
    import lark_cython  # noqa: F401  (the optional compiled parser, the "fast" extra)

    LARK_CYTHON = True
except ImportError:
    LARK_CYTHON = False

CORPUS = TESTS / "fuzz_corpus"
EXIT_CODES = {0, 1, 2}


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
    """YAML or JSON -> .ord (and -> the other archive kind) raise only
    OrdoError, and whatever they write reads again: the .ord text as UTF-8
    records without a syntax error, the archive as the same records."""
    for target in ("ord", "yaml" if kind == "json" else "json"):
        try:
            written = convert(text, f"fuzz.{kind}", kind, target)
        except OrdoError as error:
            assert_no_e004(error, text, kind)
            continue
        if target == "ord":
            decoded = decode(written.encode("utf-8"), "written.ord").text
            for item in parse_text(decoded, "written.ord"):
                assert isinstance(item, Record), (text, written)
        else:
            again = archive.load(written, "written", target)
            assert convert(written, "w", target, "ord") == convert(text, "t", kind, "ord")
            assert again["records"]


def check_replay(reports: list, pick: int = 0) -> None:
    """replay + render_step never raise, and the stepper's table fits 80 by 23
    with its heading first: first, last and one more step, from every
    seat's view and from none."""
    for report in reports:
        steps = steps_of(report)
        if steps is None:
            continue
        chosen = {0, steps.last, pick % (steps.last + 1)}
        for number in sorted(chosen):
            for seat in (None, *range(steps.steps[0].game.seats)):
                render_step(steps, steps.steps[number], seat)
                lines = render_compact(steps, steps.steps[number], seat, 80, 23)
                assert len(lines) <= 23
                assert max(line.cell_len for line in lines) <= 80
                assert lines[0].plain.startswith(f"ply {number} of {steps.last}: ")
                step_picture(steps, steps.steps[number], seat).svg()


def check_view(reports: list, text: str) -> None:
    """The page's view of a record (ordo view) never raises, for every seat or one."""
    for report in reports:
        for seat in (None, 1):
            record_view(report, 0, text, 1, seat)


def check_summary(reports: list) -> None:
    for report in reports:
        data = summarize(report)
        json.dumps(data.to_json())
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
    ["view", "{f}"],
    ["view", "--seat", "P2", "{f}"],
    ["select", "--won", "P1:J", "--tag", "Event=*", "{f}"],
    ["select", "--invert", "--since", "2026.01.01", "{f}"],
    ["dedup", "{f}"],
    ["stats", "--by", "player", "--ratings", "{f}"],
    ["deal", "--seed", "fuzz", "--deck", "{f}"],
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


def check_deck(text: str) -> None:
    """The deck loader raises only OrdoError."""
    with contextlib.suppress(OrdoError):
        parse_deck(text, "fuzz.yaml")


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
        check_view(reports, text)
        check_summary(reports)
        check_stats(reports)
        check_deck(text)
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
    reports = check_library(text)
    check_replay(reports, pick)
    check_view(reports, text)


@fuzz(150)
@given(st.one_of(any_text, valid_records))
def test_summary_and_stats_never_raise(text):
    reports = check_library(text)
    check_summary(reports)
    check_stats(reports)


@pytest.mark.slow
@fuzz(200)
@given(
    file_bytes(), st.sampled_from(COMMANDS), st.sampled_from(["fuzz.ord", "fuzz.yaml", "fuzz.json"])
)
def test_cli_exits_0_1_or_2_without_a_traceback(data, args, name):
    check_cli(data, args, name)


@pytest.mark.slow
@fuzz(80)
@given(archive_texts(), st.sampled_from([a for a in COMMANDS if a[0] in ("convert", "validate")]))
def test_cli_on_archives_exits_0_1_or_2_without_a_traceback(case, args):
    text, kind = case
    check_cli(text.encode("utf-8"), args, f"fuzz.{kind}")


@pytest.mark.slow
@fuzz(120)
@given(file_bytes())
def test_ordo_validate_reads_files_as_the_library_reads_text(data):
    check_streaming_matches_library(data)


# The corpus: inputs that once failed ------------------------------------


CORPUS_FILES = (
    sorted(p.name for p in CORPUS.iterdir() if p.is_file() and p.name != "README.md")
    if CORPUS.is_dir()
    else []
)


# PyYAML's pure-Python reader, which reads deck files, takes seconds over a
# thousand nested lists
DEEP = {"deep-nesting-1000.json", "deep-nesting-1000.yaml"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in DEEP else n for n in CORPUS_FILES]
)
def test_corpus_input_goes_through_every_entry_point(run_isolated, name):
    run_isolated(check_everything, (CORPUS / name).read_bytes(), name)
