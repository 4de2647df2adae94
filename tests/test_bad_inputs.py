"""Bad inputs: what ``ordo`` says about files that are empty, binary, in the
wrong encoding, cut short, huge, unreadable or not files at all, and about
broken or hostile YAML and JSON archives.

Each case is a small file in tests/bad/, or is made in tmp_path when it cannot
be one (10 MB lines, 5,000 plies, directories, FIFOs, symbolic-link loops,
unreadable files). Every run is checked for its exact diagnostic codes, their
line and column where the tool gives them, its exit code, and the absence of
a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import tracemalloc
from functools import cache
from pathlib import Path

import pytest
from strategies import SAMPLES, TESTS
from typer.testing import CliRunner

from ordonnance_notation.archives.conversion import convert
from ordonnance_notation.cli.app import app
from ordonnance_notation.diagnostics import OrdoError
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import game_text, play_game

BAD = TESTS / "bad"
TEN_MB = 10 * 1024 * 1024


def ordo(*args: str, input: bytes | str | None = None):
    """``ordo`` in-process; a traceback in its output fails the test."""
    result = CliRunner().invoke(
        app, list(args), input=input, catch_exceptions=False, env={"NO_COLOR": "1"}
    )
    assert "Traceback" not in result.output, result.output[-3000:]
    assert result.exit_code in (0, 1, 2), result.output[-3000:]
    return result


def diagnosed(*paths: str) -> tuple[int, list[tuple]]:
    """Exit code of ``ordo validate --format json``, and (code, line, column) of
    every diagnostic: the records' in order, then the file problems."""
    result = ordo("validate", "--format", "json", *paths)
    document = json.loads(result.output)
    found = [
        (d["code"], d["line"], d["column"]) for r in document["records"] for d in r["diagnostics"]
    ]
    return result.exit_code, found + [
        (p["code"], p["line"], p["column"]) for p in document["problems"]
    ]


@pytest.fixture
def in_bad(monkeypatch):
    """Run from tests/bad/, so that messages name the files as in the docs."""
    monkeypatch.chdir(BAD)


def test_every_committed_bad_file_is_small():
    sizes = {p.name: p.stat().st_size for p in BAD.iterdir()}
    assert sizes and all(size < 10_000 for size in sizes.values()), sizes


# Files that ordo validate reads ---------------------------------------------

VALIDATE = {
    # file: (exit code, [(code, line, column), ...])
    "empty.ord": (1, [("E105", None, None)]),
    "whitespace.ord": (1, [("E105", None, None)]),
    "binary.ord": (1, [("E002", 2, 12)]),
    "latin1.ord": (1, [("E002", 2, 10)]),
    "bom-latin1.ord": (1, [("E002", 2, 10)]),
    "utf16-le-bom.ord": (1, [("E002", 1, 1)]),
    "utf16-be-bom.ord": (1, [("E002", 1, 1)]),
    "bom-crlf.ord": (0, []),
    "unterminated-comment.ord": (
        1,
        [("N602", 1, 1), ("E102", 5, 9), ("N601", 5, 1), ("W501", 9, 1), ("N602", 9, 1)],
    ),
    "unterminated-comment-eof.ord": (1, [("E102", 4, 1), ("N601", 4, 1)]),
    "unterminated-tag.ord": (1, [("E103", 2, 1), ("N601", 5, 1)]),
    "unterminated-quote.ord": (1, [("W501", 1, 1), ("N602", 1, 1), ("E103", 3, 8)]),
}


@pytest.mark.parametrize("name", sorted(VALIDATE))
def test_validate_gives_the_expected_diagnostics(in_bad, name):
    assert diagnosed(name) == VALIDATE[name]


@pytest.mark.parametrize("name", sorted(VALIDATE))
def test_the_text_output_has_the_same_codes_and_exit_code(in_bad, name):
    result = ordo("validate", name)
    exit_code, expected = VALIDATE[name]
    assert result.exit_code == exit_code
    codes = [
        line.split("[", 1)[1][:4]
        for line in result.output.splitlines()
        if "error[" in line or "warning[" in line or "note[" in line
    ]
    assert codes == [code for code, _, _ in expected]
    assert "\x00" not in result.output


def test_an_empty_or_blank_file_holds_no_record(in_bad):
    for name in ("empty.ord", "whitespace.ord"):
        result = ordo("validate", name)
        assert result.output.splitlines()[0] == f"{name}: error[E105]: no record in this file"
        assert (
            result.output.splitlines()[-1]
            == "0 records in 1 file: 0 valid, 0 invalid; 1 error, 0 warnings"
        )


def test_invalid_utf8_gives_the_byte_and_its_offset_and_shows_the_line(in_bad):
    result = ordo("validate", "latin1.ord")
    assert (
        "latin1.ord:2:10: error[E002]: not UTF-8 text: byte 0xe9 at offset 21\n"
        "   |\n"
        ' 2 | [P2 "Chlo\ufffd"]\n'
        "   |          ^\n"
    ) in result.output


def test_binary_data_gives_the_first_bad_byte_and_prints_no_nul(in_bad):
    data = (BAD / "binary.ord").read_bytes()
    assert b"\x00" in data
    result = ordo("validate", "binary.ord")
    assert result.output.startswith(
        "binary.ord:2:12: error[E002]: not UTF-8 text: byte 0xf7 at offset 23\n"
    )
    assert "\x00" not in result.output


# The offset is counted in the file, from 0 (docs/diagnostics.md, E002): with a
# UTF-8 byte-order mark in front, the é of "Chloé" is byte 24, on line 2, column 10.
BOM_LATIN1 = "bom-latin1.ord:2:10: error[E002]: not UTF-8 text: byte 0xe9 at offset 24"
LATIN1 = "latin1.ord:2:10: error[E002]: not UTF-8 text: byte 0xe9 at offset 21"
COMMANDS_ON_A_FILE = [
    ("validate",),
    ("fmt",),
    ("fmt", "--check"),
    ("convert", "--to", "yaml"),
    ("replay",),
    ("summary",),
    ("stats",),
    ("view",),
    ("select",),
    ("dedup",),
]


@pytest.mark.parametrize("command", COMMANDS_ON_A_FILE, ids=" ".join)
def test_every_command_gives_the_offset_of_a_bad_byte(in_bad, command):
    result = ordo(*command, "latin1.ord")
    assert result.exit_code == 1
    assert LATIN1 in result.output


@pytest.mark.parametrize("command", COMMANDS_ON_A_FILE, ids=" ".join)
def test_every_command_counts_the_offset_of_a_bad_byte_from_the_start_of_the_file(in_bad, command):
    result = ordo(*command, "bom-latin1.ord")
    assert result.exit_code == 1
    assert BOM_LATIN1 in result.output


def test_utf16_with_a_byte_order_mark_is_named(in_bad):
    for name, byte in (("utf16-le-bom.ord", "0xff"), ("utf16-be-bom.ord", "0xfe")):
        result = ordo("validate", name)
        assert result.exit_code == 1
        assert result.output.startswith(
            f"{name}:1:1: error[E002]: not UTF-8 text: byte {byte} at offset 0"
            " (it looks like UTF-16)\n"
        )
        assert "\x00" not in result.output


def test_utf16_without_a_byte_order_mark_is_named(in_bad):
    result = ordo("validate", "utf16-le-no-bom.ord")
    assert result.exit_code == 1
    assert "UTF-16" in result.output
    assert "\x00" not in result.output


def test_bom_and_crlf_are_accepted_by_every_command(in_bad):
    assert ordo("validate", "bom-crlf.ord").output.startswith(
        "bom-crlf.ord record 1 (Anna Petrova v Boris Lind): valid, P2 wins"
    )
    for command in (("fmt",), ("convert", "--to", "json"), ("replay",), ("summary",), ("stats",)):
        assert ordo(*command, "bom-crlf.ord").exit_code == 0, command
    assert ordo("fmt", "bom-crlf.ord").output == ordo("fmt", str(SAMPLES / "classic-2.ord")).output


def test_old_mac_line_ends_are_accepted(tmp_path):
    path = tmp_path / "mac.ord"
    path.write_bytes((SAMPLES / "classic-2.ord").read_bytes().replace(b"\n", b"\r"))
    assert diagnosed(str(path)) == (0, [])


def test_an_unterminated_comment_points_at_its_brace_and_the_next_record_is_read(in_bad):
    result = ordo("validate", "unterminated-comment.ord")
    assert (
        "unterminated-comment.ord:5:9: error[E102]: comment opened here is never closed with '}'\n"
        "   |\n"
        " 5 | 1. HF A {Anna opens, and the comment never closes\n"
        "   |         ^\n"
        "   = record 1\n"
        "   = help: close the comment with '}' where it should end: "
        "everything after '{' is in it, plays too\n"
    ) in result.output
    assert (
        "unterminated-comment.ord record 2 (Chloé v Dara): valid, unfinished after ply 1"
        in result.output
    )


def test_an_unterminated_tag_points_at_its_bracket(in_bad):
    result = ordo("validate", "unterminated-tag.ord")
    assert result.output.startswith(
        "unterminated-tag.ord:2:1: error[E103]: "
        "tag opened here is not closed with ']' (found the line end instead)\n"
        "   |\n"
        ' 2 | [P2 "Boris"\n'
        "   | ^\n"
    )


def test_an_unterminated_quote_points_at_its_quote(in_bad):
    result = ordo("validate", "unterminated-quote.ord")
    assert (
        "unterminated-quote.ord:3:8: error[E103]: "
        "quoted value opened here is never closed with '\"'\n"
        "   |\n"
        ' 3 | [Event "Club night]\n'
        "   |        ^\n"
    ) in result.output


# Big inputs, made here ------------------------------------------------------

ALMOST_1_MB = 1_000_000  # a line just under the limit (files.sources.MAX_LINE)
ONE_LINE = {
    # name: (text of about 1 MB on one line, exit code, [(code, line, column)])
    "letters": (lambda: "A" * ALMOST_1_MB, 1, [("E101", 1, 1)]),
    "open brace": (lambda: "{" + "x" * ALMOST_1_MB, 1, [("E102", 1, 1)]),
    "open quote": (lambda: '[P1 "' + "x" * ALMOST_1_MB, 1, [("E103", 1, 5)]),
    "long line comment": (
        lambda: '[P1 "A"] [P2 "B"] [Result "unfinished"] 1. HF A ; ' + "x" * ALMOST_1_MB,
        0,
        [("W501", 1, 1), ("N602", 1, 1)],
    ),
}


@pytest.mark.slow  # about a second each
@pytest.mark.parametrize("name", sorted(ONE_LINE))
def test_a_line_of_almost_1_mb_ends_in_a_diagnostic(tmp_path, name):
    make, exit_code, expected = ONE_LINE[name]
    path = tmp_path / "big.ord"
    path.write_text(make(), "utf-8")
    assert diagnosed(str(path)) == (exit_code, expected)


@pytest.mark.parametrize("name", sorted(ONE_LINE))
def test_a_line_longer_than_1_mb_is_refused_where_it_starts(tmp_path, name):
    """Reading stops at the limit: a 10 MB line costs no more than 1 MB."""
    make, _, _ = ONE_LINE[name]
    path = tmp_path / "big.ord"
    path.write_text('[P1 "A"]\n' + make() * 10, "utf-8")
    assert diagnosed(str(path)) == (1, [("E007", 2, 1)])


def _endless_record(tmp_path: Path, body: str) -> tuple[Path, int]:
    """A valid record, then one whose header is followed by ``body`` repeated
    past the 4 MB a record may hold, then a valid record: the path and the
    line the long record starts on."""
    game = (SAMPLES / "classic-2.ord").read_text("utf-8").rstrip("\n") + "\n\n"
    long = '[P1 "a"]\n[P2 "b"]\n[Result "unfinished"]\n\n' + body * (5_000_000 // len(body))
    path = tmp_path / "long-record.ord"
    path.write_text(game + long + "\n" + game, "utf-8")
    return path, game.count("\n") + 1


@pytest.mark.parametrize(
    "body",
    ["; a comment line\n", "1. L A\n", "{ an open comment\n"],
    ids=["comments", "plays", "brace"],
)
def test_a_record_of_millions_of_short_lines_is_refused_where_it_starts(tmp_path, body):
    """The records before it are checked; reading stops at the 4 MB limit."""
    path, line = _endless_record(tmp_path, body)
    assert diagnosed(str(path)) == (1, [("E007", line, 1)])
    assert "record 1 (Anna Petrova v Boris Lind): valid" in ordo("validate", str(path)).output


@pytest.mark.parametrize(
    "command",
    [
        ["summary"],
        ["convert", "--to", "yaml"],
        ["fmt", "--check"],
        ["stats"],
        ["replay", "--record", "2"],
    ],
)
def test_every_command_refuses_a_record_beyond_the_limit(tmp_path, command):
    path, line = _endless_record(tmp_path, "; a comment line\n")
    result = ordo(*command, str(path))
    assert result.exit_code == 1
    assert (
        f"long-record.ord:{line}:1: error[E007]: the record from line {line} goes on past 4 MB"
        in result.output
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize(
    "command",
    [["validate"], ["convert", "--to", "yaml"], ["summary"], ["stats"], ["fmt"], ["replay"]],
)
def test_an_endless_stream_of_nul_bytes_is_refused_at_once(command):
    for given in (["/dev/zero"], ["-"]):
        if given == ["-"] and command[0] in ("convert", "replay"):
            continue
        with open("/dev/zero", "rb") as zeros:
            done = subprocess.run(
                [sys.executable, "-m", "ordonnance_notation", *command, *given],
                stdin=zeros,
                check=False,
                capture_output=True,
                text=True,
                timeout=60,
            )
        assert done.returncode in (1, 2) and "error[E002]" in done.stdout + done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.slow  # a deck file past the limit
def test_a_deck_file_is_bounded(tmp_path):
    from ordonnance_notation.diagnostics import DeckError

    cases = {
        "many.yaml": ("cards: {HF: 999999999}\n", "a deck holds at most 10,000 cards"),
        "deep.yaml": ("cards: " + "[" * 50_000 + "]" * 50_000 + "\n", "nested too deep"),
        "huge.yaml": ("name: x\n" + "# " + "x" * (2 << 20) + "\n", "larger than 1 MB"),
    }
    for name, (text, said) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(DeckError) as raised:
            load_deck(path)
        assert said in raised.value.diagnostics[0].message


def _too_long(plies: int = 5000) -> tuple[str, int]:
    """A finished two-seat game followed by plays up to ``plies``, and the
    line of the first extra play."""
    text = game_text(play_game("bad/1", ["random", "random"], load_deck()))
    lines = text.rstrip("\n").split("\n")
    result = lines.pop()
    assert result.startswith("result ")
    first = len(lines) + 1
    lines += [f"{ply}. HF A" for ply in range(41, plies + 1)] + [result]
    return "\n".join(lines) + "\n", first


def test_5000_plies_report_the_plays_after_the_end_not_a_crash(tmp_path):
    text, first = _too_long()
    path = tmp_path / "long.ord"
    path.write_text(text, "utf-8")
    assert diagnosed(str(path)) == (1, [("E304", first, 1), ("N601", first, 1)])
    output = ordo("validate", str(path)).output
    assert "but the game ended at ply 40 when the fifth marker was placed" in output
    assert "that ply and the 4959 plays after it were not replayed" in output
    for command in (
        ("replay",),
        ("summary",),
        ("convert", "--to", "json"),
        ("fmt", "--check"),
        ("stats",),
        ("view",),
    ):
        assert ordo(*command, str(path)).exit_code in (0, 1), command


# Paths that are not readable files --------------------------------------------

ALL_COMMANDS = [
    ("validate",),
    ("fmt",),
    ("convert",),
    ("replay",),
    ("summary",),
    ("stats",),
    ("view",),
]


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=" ".join)
def test_a_missing_file_is_e001_and_exit_2(tmp_path, command):
    missing = str(tmp_path / "missing.ord")
    result = ordo(*command, missing)
    assert result.exit_code == 2
    assert f"{missing}: error[E001]: no such file" in result.output


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=" ".join)
def test_a_directory_named_like_a_file_is_e001_and_exit_2(tmp_path, command):
    folder = tmp_path / "game.ord"
    folder.mkdir()
    result = ordo(*command, str(folder))
    assert result.exit_code == 2
    # every command that reads records walks a directory for the .ord files below it
    assert f"{folder}: error[E001]: no .ord file in this directory" in result.output


def test_a_directory_named_like_a_file_inside_a_walk_is_not_read(tmp_path):
    (tmp_path / "folder.ord").mkdir()
    shutil.copy(SAMPLES / "classic-2.ord", tmp_path / "game.ord")
    assert diagnosed(str(tmp_path)) == (0, [])


def _as_unprivileged(args: list[str]) -> list[str]:
    """``args`` run so that file permissions apply: as is for a normal user; as
    root, without the capabilities that bypass them (setpriv, util-linux)."""
    if os.geteuid() != 0:
        return args
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip(
            "running as root, and setpriv is missing to drop CAP_DAC_OVERRIDE:"
            " a mode 000 file stays readable"
        )
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", *args]


def _locked(path: Path) -> Path:
    """``path`` (a copy of a sample) with mode 000; skips when it stays readable
    to the unprivileged runs of ``_ordo_unprivileged``."""
    shutil.copy(SAMPLES / "classic-2.ord", path)
    path.chmod(0)
    probe = subprocess.run(
        _as_unprivileged([sys.executable, "-c", f"open({str(path)!r}).read()"]),
        capture_output=True,
        check=False,
    )
    if probe.returncode == 0:
        pytest.skip("the file stays readable even with mode 000 (root with every capability)")
    return path


def _ordo_unprivileged(*args: str, cwd: Path) -> tuple[int, str]:
    """``ordo`` in a child process without the privilege to ignore permissions.
    It runs in ``cwd`` (a tmp_path): from the checkout's root, ``python -m``
    would import the source tree, which lacks the installed grammar."""
    run = subprocess.run(
        _as_unprivileged([sys.executable, "-m", "ordonnance_notation", *args]),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
        cwd=cwd,
        check=False,
    )
    output = run.stdout + run.stderr
    assert "Traceback" not in output, output[-3000:]
    return run.returncode, output


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=" ".join)
def test_an_unreadable_file_is_e001_and_exit_2(tmp_path, command):
    path = _locked(tmp_path / "locked.ord")
    exit_code, output = _ordo_unprivileged(*command, str(path), cwd=tmp_path)
    assert exit_code == 2, output
    assert f"{path}: error[E001]: cannot be read: Permission denied" in output


def test_an_unreadable_file_in_a_directory_does_not_stop_the_others(tmp_path):
    shutil.copy(SAMPLES / "classic-2.ord", tmp_path / "a.ord")
    locked = _locked(tmp_path / "b.ord")
    exit_code, output = _ordo_unprivileged("validate", str(tmp_path), cwd=tmp_path)
    assert exit_code == 2, output
    assert f"{locked}: error[E001]: cannot be read: Permission denied" in output
    assert f"{tmp_path / 'a.ord'} record 1 (Anna Petrova v Boris Lind): valid" in output


def _walk_with_a_fifo(tmp_path: Path) -> Path:
    shutil.copy(SAMPLES / "classic-2.ord", tmp_path / "a.ord")
    os.mkfifo(tmp_path / "b.ord")  # nothing ever writes to it
    return tmp_path


@pytest.mark.parametrize("command", [("validate",), ("fmt", "--check"), ("stats",)], ids=" ".join)
def test_a_fifo_met_in_a_directory_walk_does_not_hang(tmp_path, run_isolated, command):
    """A directory walk reads "every *.ord below"; a FIFO named so has no
    writer, and opening it for reading blocks for ever."""
    folder = _walk_with_a_fifo(tmp_path)

    def walk():
        result = ordo(*command, str(folder))
        assert result.exit_code in (0, 1, 2)

    run_isolated(walk, timeout=10)


def test_a_fifo_given_by_name_is_read_like_a_pipe(tmp_path, run_isolated):
    """``ordo validate <(cat game.ord)`` passes a pipe by name: it is read to its end."""
    fifo = tmp_path / "pipe.ord"
    os.mkfifo(fifo)
    data = (SAMPLES / "classic-2.ord").read_bytes()

    def write():
        with open(fifo, "wb") as end:
            end.write(data)

    def read():
        threading.Thread(target=write, daemon=True).start()
        result = ordo("validate", str(fifo))
        assert result.exit_code == 0
        assert f"{fifo} record 1 (Anna Petrova v Boris Lind): valid, P2 wins" in result.output

    run_isolated(read, timeout=30)


def test_a_walk_that_meets_symbolic_link_loops_terminates(tmp_path, run_isolated):
    (tmp_path / "sub").mkdir()
    shutil.copy(SAMPLES / "classic-2.ord", tmp_path / "sub" / "game.ord")
    os.symlink("..", tmp_path / "sub" / "up")  # a loop through a directory link
    os.symlink("../..", tmp_path / "sub" / "way-up.ord")  # the same, named like a record file
    os.symlink("self.ord", tmp_path / "self.ord")  # a link to itself
    os.symlink("b.ord", tmp_path / "a.ord")  # two links to each other
    os.symlink("a.ord", tmp_path / "b.ord")

    run_isolated(lambda: ordo("validate", str(tmp_path)), timeout=30)
    result = ordo("validate", str(tmp_path))
    assert result.exit_code == 2
    for name in ("a.ord", "b.ord", "self.ord"):
        assert f"{tmp_path / name}: error[E001]: cannot be read: " in result.output
    assert (
        f"{tmp_path / 'sub' / 'game.ord'} record 1 (Anna Petrova v Boris Lind): valid"
        in result.output
    )
    assert (
        result.output.splitlines()[-1]
        == "1 record in 1 file: 1 valid, 0 invalid; 3 errors, 0 warnings"
    )


# Archives for ordo convert --------------------------------------------------------

ARCHIVES = {
    # file: (line, column, message) of the one E003 (line None: no place given)
    "archive-wrong-type.yaml": (
        5,
        23,
        "records[0].tags[1].value: expected a tag value as a string, not a number",
    ),
    "archive-wrong-type-ply.yaml": (
        8,
        11,
        "records[0].body[0].ply: expected a whole number from 0, not 'first'",
    ),
    "archive-wrong-type.json": (
        11,
        39,
        "records[0].body[0].state: expected a state (a letter or a name) as a string, not a number",
    ),
    "archive-records-not-a-list.yaml": (3, 3, "records: expected a list"),
    "archive-not-a-mapping.yaml": (1, 1, "expected a mapping with records, schema_version"),
    "archive-missing-records.yaml": (1, 1, "missing records"),
    "archive-missing-tags.yaml": (3, 3, "records[0]: missing tags"),
    "archive-missing-state.yaml": (8, 5, "records[0].body[0]: missing state"),
    "archive-unknown-field.yaml": (8, 22, "records[0].body[0].player: unknown field"),
    "archive-unknown-version.yaml": (
        1,
        17,
        "schema_version: schema version 2 is not supported (this reader knows 1)",
    ),
    "archive-unknown-version.json": (
        1,
        20,
        "schema_version: schema version 99 is not supported (this reader knows 1)",
    ),
    "archive-version-as-text.yaml": (
        1,
        17,
        "schema_version: schema version '1' is not supported (this reader knows 1)",
    ),
    "archive-not-yaml.yaml": (3, 1, "not YAML: did not find expected node content"),
    "archive-empty.yaml": (1, 1, "the document is empty"),
    "archive-duplicate-key.json": (None, None, "key 'records' given twice"),
    "archive-python-tag.yaml": (
        4,
        23,
        "records[0].tags[0].value: expected a tag value as a string, not a list",
    ),
    # the bomb's first anchor is refused before its first alias is read
    "archive-alias-bomb.yaml": (6, 12, "anchors (&name) are not allowed in an archive"),
    "archive-bad-date.yaml": (6, 25, "records[0].tags[2].value: unreadable value"),
    # explicit YAML tags whose values the YAML library cannot build
    "archive-bad-bool.yaml": (5, 23, "records[0].tags[1].value: unreadable value"),
    "archive-bad-int.yaml": (8, 11, "records[0].body[0].ply: unreadable value"),
    "archive-bad-timestamp.yaml": (6, 25, "records[0].tags[2].value: unreadable value"),
}


@pytest.mark.parametrize("name", sorted(ARCHIVES))
def test_a_bad_archive_is_e003_at_its_place_and_nothing_is_converted(in_bad, name):
    line, column, message = ARCHIVES[name]
    result = ordo("convert", name, "--to", "ord")
    assert result.exit_code == 1
    where = f"{name}:{line}:{column}" if line is not None else name
    assert result.output.startswith(f"{where}: error[E003]: {message}"), result.output
    assert result.output.endswith(f"{name}: not converted\n")
    assert result.stdout == ""


def test_a_python_tag_builds_nothing(tmp_path):
    made = tmp_path / "made"
    path = tmp_path / "tagged.yaml"
    path.write_text(
        "schema_version: 1\nrecords:\n- tags:\n"
        f"  - {{name: P1, value: !!python/object/apply:os.mkdir [{str(made)!r}]}}\n",
        "utf-8",
    )
    result = ordo("convert", str(path), "--to", "ord")
    assert result.exit_code == 1
    assert f"{path}:4:23: error[E003]: records[0].tags[0].value: " in result.output
    assert not made.exists()


def test_an_alias_bomb_is_refused_quickly_in_little_memory(in_bad):
    text = (BAD / "archive-alias-bomb.yaml").read_text("utf-8")
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(OrdoError) as refused:
            convert(text, "archive-alias-bomb.yaml", "yaml", "ord")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [d.code for d in refused.value.diagnostics] == ["E003"]
    assert "anchors" in refused.value.diagnostics[0].message
    assert time.perf_counter() - started < 5  # expanded, it would be 9**9 strings
    assert peak < 5 * 1024 * 1024, f"{peak} bytes"


@pytest.mark.parametrize("kind", ["yaml", "json"])
def test_a_deeply_nested_archive_is_refused_not_a_crash(tmp_path, run_isolated, kind):
    """100,000 nested lists: a stack overflow in a recursive reader (libyaml's
    composer is one) kills the interpreter; run apart so that it fails the test.
    Which refusal comes first depends on the libyaml that PyYAML was built
    with (recent ones stop at 1,000 levels), so only the code is checked."""
    path = tmp_path / f"deep.{kind}"
    path.write_text("[" * 100_000 + "]" * 100_000, "utf-8")

    def refuse():
        result = ordo("convert", str(path), "--to", "ord")
        assert result.exit_code == 1
        assert "error[E003]: " in result.output
        assert result.output.endswith(f"{path}: not converted\n")

    run_isolated(refuse, timeout=60)


@pytest.mark.parametrize("kind", ["yaml", "json"])
def test_a_number_of_5000_digits_in_an_archive_is_e003(tmp_path, kind):
    path = tmp_path / f"big.{kind}"
    ply = "9" * 5000
    if kind == "json":
        play = f'{{"ply": {ply}, "card": "HF", "state": "A"}}'
        path.write_text(f'{{"schema_version": 1, "records": [{{"tags": [], "body": [{play}]}}]}}')
    else:
        path.write_text(
            "schema_version: 1\nrecords:\n- tags: []\n  body:\n"
            f"  - {{ply: {ply}, card: HF, state: A}}\n"
        )
    result = ordo("convert", str(path), "--to", "ord")
    assert result.exit_code == 1
    assert "error[E003]" in result.output


def _archive_with(kind: str, value: str, comment: str) -> str:
    """The first sample as an archive of ``kind``, its Event ``value`` and a
    comment ``comment`` before its tags."""
    import yaml

    text = convert((SAMPLES / "classic-2.ord").read_text("utf-8"), "s.ord", "ord", "yaml")
    doc = yaml.safe_load(text)
    record = doc["records"][0]
    record["tags"][1]["value"] = value
    record["comments"] = [{"brace": comment}]
    return json.dumps(doc) if kind == "json" else yaml.safe_dump(doc, width=1 << 30)


@pytest.mark.parametrize("kind", ["yaml", "json"])
@pytest.mark.parametrize(
    ("value", "comment", "said"),
    [
        # 10 MB: 1.8 GB and exit 3 before
        pytest.param("x" * (10 << 20), "a", "a line of 10,485,", marks=pytest.mark.slow),
        ("x" * (1 << 20), "a", "a line of 1,048,"),  # a line just over the limit
        pytest.param(
            "E", "\n".join(["y" * 1000] * 4500), "characters, past the 4 MB", marks=pytest.mark.slow
        ),
    ],
    ids=["10MB-tag", "1MB-tag", "4.5MB-comment"],
)
def test_an_archive_string_beyond_the_readers_limits_is_e007_not_written(
    tmp_path, run_isolated, kind, value, comment, said
):
    """Issue 31, item 9: what the .ord reader would refuse (a line over 1 MB,
    a record over 4 MB) is E007, neither parsed nor written, in 1 GB."""
    path = tmp_path / f"long.{kind}"
    path.write_text(_archive_with(kind, value, comment), "utf-8")
    out = tmp_path / "out.ord"

    def refuse():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        result = ordo("convert", str(path), "-o", str(out))
        assert result.exit_code == 1, result.output
        assert result.output.startswith(f"{path}: error[E007]: records[0] would be written as")
        assert said in result.output and not out.exists()

    run_isolated(refuse, timeout=120)


@pytest.mark.slow  # archives past the limits
def test_an_archive_record_beyond_the_limits_is_named_by_its_place(tmp_path):
    import yaml

    doc = yaml.safe_load(_archive_with("yaml", "x" * (2 << 20), "a"))
    doc["records"][:0] = [{"tags": []}, {"tags": []}]  # two records that write nothing
    path = tmp_path / "third.json"
    path.write_text(json.dumps(doc), "utf-8")
    result = ordo("convert", str(path), "--to", "ord")
    assert result.exit_code == 1
    assert result.output.startswith(f"{path}: error[E007]: records[2] would be written as")


@pytest.mark.slow  # strings of megabytes
def test_an_archive_string_within_the_limits_is_written_and_read_back(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(_archive_with("yaml", "x" * ((1 << 20) - 20), "a"), "utf-8")
    result = ordo("convert", str(path), "-o", str(tmp_path / "out.ord"))
    assert result.exit_code == 0, result.output
    assert ordo("validate", str(tmp_path / "out.ord")).exit_code == 0


def test_a_card_that_is_a_keyword_is_not_a_read_back_failure(in_bad):
    """E004 "is a safety net" that only a braced comment holding a whole tag
    line may reach (docs/diagnostics.md); a card spelt "pile" is either
    refused where it stands (E003) or converted for validate to judge."""
    result = ordo("convert", "archive-keyword-card.yaml", "--to", "ord")
    assert "E004" not in result.output
    assert result.exit_code in (0, 1)


def test_a_directory_tree_thousands_of_levels_deep_is_walked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    levels = ["d"] * 1500
    made = []
    below = ""
    for name in levels:  # os.makedirs recurses, and so does shutil.rmtree: loops here
        below = f"{below}/{name}" if below else name
        os.mkdir(below)
        made.append(below)
    deepest = Path(below) / "game.ord"
    deepest.write_text((SAMPLES / "classic-2.ord").read_text("utf-8"), "utf-8")
    try:
        result = ordo("validate", "d")
    finally:
        deepest.unlink()
        for directory in reversed(made):
            os.rmdir(directory)
    assert result.exit_code == 0 and "1 record in 1 file: 1 valid" in result.output


WRITERS = [
    ["validate", "ARCHIVE"],
    ["fmt", "ARCHIVE"],
    ["convert", "ARCHIVE", "--to", "yaml"],
    ["convert", "ARCHIVE", "--to", "json"],
    ["convert", "ARCHIVE", "-o", "OUT.yaml"],
    ["summary", "ARCHIVE"],
    ["play", "--games", "300", "--seed", "full"],
    ["play", "--games", "300", "--seed", "full", "-o", "OUT.ord"],
    ["fmt", "--write", "MESSY"],
    ["select", "ARCHIVE"],
    ["select", "ARCHIVE", "-o", "OUT.ord"],
    ["dedup", "ARCHIVE"],
    ["dedup", "ARCHIVE", "-o", "OUT.ord"],
    ["analyse", "ARCHIVE"],
    ["export", "ARCHIVE", "-o", "OUTDIR"],
]


@cache
def _hundred_games() -> list[str]:
    return [game_text(play_game(f"full-{n}", ["random"] * 2, load_deck())) for n in range(100)]


@pytest.mark.slow  # every command on a full disk
@pytest.mark.skipif(sys.platform == "win32", reason="ulimit is a POSIX shell's")
@pytest.mark.parametrize("command", WRITERS, ids=" ".join)
def test_output_cut_short_by_a_full_disk_fails_and_says_so(tmp_path, command):
    """A file-size limit of 32 KB stands for a full disk: every command that
    writes more exits non-zero with E001 naming the output, and leaves no
    output file and no temporary file behind (standard output is cut short:
    nothing can unwrite it)."""
    archive = tmp_path / "archive.ord"
    archive.write_text("\n".join(_hundred_games() * 4), "utf-8")  # 100 games, each four times
    messy = tmp_path / "messy.ord"
    messy.write_text(archive.read_text("utf-8").replace("\n1. ", "\n1.  "), "utf-8")
    before = messy.read_bytes()
    (tmp_path / "tables").mkdir()  # export writes its three files into a folder
    words = [
        {"ARCHIVE": str(archive), "MESSY": str(messy), "OUT.yaml": str(tmp_path / "out.yaml"),
         "OUT.ord": str(tmp_path / "out.ord"), "OUTDIR": str(tmp_path / "tables")}.get(w, w)
        for w in command
    ]  # fmt: skip
    done = subprocess.run(
        ["sh", "-c", 'ulimit -f 64 && exec "$@" > "$0"', str(tmp_path / "stdout"),
         sys.executable, "-m", "ordonnance_notation", *words],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "error[E001]: cannot be written" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(["archive.ord", "messy.ord", "stdout", "tables"]), left
    assert not any((tmp_path / "tables").iterdir())
    assert messy.read_bytes() == before


@pytest.mark.parametrize("name", sorted(ONE_LINE))
def test_a_long_line_is_shown_around_its_mark_not_whole(tmp_path, name):
    """A diagnostic on a line of 100 KB shows about 200 characters of it, and
    quotes a long word by its start and its length."""
    make, _, _ = ONE_LINE[name]
    path = tmp_path / "long.ord"
    path.write_text(make()[:100_000], "utf-8")
    result = ordo("validate", str(path))
    assert len(result.output) < 3_000, result.output[:3_000]


@pytest.mark.parametrize(
    "command", [["fix", "-"], ["convert", "--from", "yaml", "-"], ["fmt", "-"]], ids=" ".join
)
def test_a_pipe_read_whole_is_bounded(ordo, monkeypatch, command):
    from ordonnance_notation.files import sources

    monkeypatch.setattr(sources, "MAX_PIPE", 1 << 16)
    result = ordo(*command, input="x" * (1 << 17))  # as an endless pipe looks from here
    assert result.exit_code in (1, 2) and "error[E007]" in result.output, result.output
    assert "64 KB" in result.output or "64 KiB" in result.output, result.output


def _a_gigabyte_of_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.slow  # 256 MB read each, a few seconds
@pytest.mark.parametrize(
    "command",
    [
        ["fmt", "-"],
        ["fmt", "--check", "-"],
        ["fix", "-"],
        ["convert", "--from", "ord", "--to", "yaml", "-"],
        ["convert", "--from", "yaml", "--to", "ord", "-"],
    ],
)
def test_endless_standard_input_in_a_gigabyte_is_e007_not_memory_error(command):
    """Issue 31, item 10: ``yes | ordo fmt -`` under ``ulimit -v 1000000``
    ended in ``internal error: MemoryError``, exit 3."""
    yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ordonnance_notation", *command],
            stdin=yes.stdout,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            preexec_fn=_a_gigabyte_of_memory,
        )
    finally:
        yes.kill()
        yes.wait()
    assert done.returncode == 1, done.stderr[-2000:]
    assert "error[E007]: larger than 256 MB" in done.stdout + done.stderr
    assert "MemoryError" not in done.stderr and "Traceback" not in done.stderr
