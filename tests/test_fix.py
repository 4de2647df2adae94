"""``ordo fix``: rewrites what the replay determines, never a play or a comment;
a diff by default, --write in place; refuses a record whose replay stops early."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from strategies import SAMPLES

from ordonnance_notation.checking.fixing import fix_source
from ordonnance_notation.files.sources import Source

RESULTS = SAMPLES / "invalid" / "results.ord"


def _kept(text: str) -> tuple[list[str], list[str]]:
    """The plays and the comments of a text: what a fix must never change."""
    plays = re.findall(r"^\d+\. .*$", text, re.MULTILINE)
    comments = re.findall(r"\{[^}]*\}|;[^\n]*", text)
    return plays, comments


def test_the_declarations_the_replay_contradicts_are_rewritten_in_place():
    text = RESULTS.read_text("utf-8")
    fixed = fix_source(Source("results.ord", text))
    assert fixed.text.count("\n") == text.count("\n")
    assert _kept(fixed.text) == _kept(text)
    assert {(c.before, c.after) for c in fixed.changes} == {
        ("P1", "P2"),
        ("#3", "#2"),
        ('[Result "P1"]', '[Result "P2"]'),
        ('[Result "unfinished"]', '[Result "P2"]'),
        ('[Result "P2"]', '[Result "unfinished"]'),
        ("2", "1"),
        ("3", "4"),
        ("unfinished", "P2"),
        ("P2", "unfinished"),
    }
    assert [(r.record, r.diagnostic.code if r.diagnostic else None) for r in fixed.refused] == [
        (3, "E403"),
        (4, "E404"),
    ]


def test_the_fixed_records_are_valid(ordo, tmp_path):
    path = tmp_path / "results.ord"
    path.write_text(RESULTS.read_text("utf-8"), "utf-8")
    result = ordo("fix", "--write", str(path))
    assert result.exit_code == 1  # two records cannot be fixed: they are named
    assert "record 3 not fixed: line 164: a declared resolution must be moved" in result.output
    assert "fixed" in result.output and "11 changes in 1 file made" in result.output
    checked = ordo("validate", "--format", "json", str(path))
    verdicts = [r["valid"] for r in json.loads(checked.output)["records"]]
    assert verdicts == [True, True, False, False, True, True, True, True, True]


def test_without_write_a_diff_is_printed_and_the_file_is_untouched(ordo, tmp_path):
    path = tmp_path / "g.ord"
    text = '[P1 "A"]\n[P2 "B"]\n[Result "P1"] ; said at the table\n1. F A\n2. L C {good}\n'
    path.write_text(text, "utf-8")
    result = ordo("fix", str(path))
    assert result.exit_code == 1
    assert path.read_text("utf-8") == text
    assert (
        f"--- {path}\n+++ {path}\n@@ -1,5 +1,5 @@\n"
        ' [P1 "A"]\n [P2 "B"]\n'
        '-[Result "P1"] ; said at the table\n'
        '+[Result "unfinished"] ; said at the table\n'
        " 1. F A\n 2. L C {good}\n"
    ) in result.output
    assert ordo("fix", "--write", str(path)).exit_code == 0
    assert ordo("fix", str(path)).exit_code == 0  # nothing left to fix
    assert ordo("validate", str(path)).exit_code == 0


def test_ply_numbers_are_fixed_only_when_no_play_can_be_missing():
    head = '[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n'
    repeated = fix_source(Source("r.ord", head + "1. F A\n1. L C\n3. F A\n17. L C\n5. F J\n"))
    assert repeated.text == head + "1. F A\n2. L C\n3. F A\n4. L C\n5. F J\n"
    jump = head + "1. F A\n3. L C\n4. F A\n"
    skipped = fix_source(Source("s.ord", jump))
    assert skipped.text == jump
    [refusal] = skipped.refused
    assert "the ply numbers jump from 1. to 3.: if a play is missing, write it" in refusal.why


def test_a_record_whose_replay_stops_is_refused_with_the_error():
    text = (SAMPLES / "invalid" / "rules.ord").read_text("utf-8")
    fixed = fix_source(Source("rules.ord", text))
    assert fixed.text == text and not fixed.changes
    assert [r.diagnostic.code for r in fixed.refused if r.diagnostic] == [
        "E301",
        "E302",
        "E303",
        "E304",
        "E305",
    ]


def test_standard_input_is_fixed_to_a_diff_but_never_written(ordo):
    assert ordo("fix", "--write", "-").exit_code == 2


def test_a_refused_record_is_left_exactly_as_it_was():
    head = '[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n'
    text = head + "1. F A\n20. L C\n3. F X\n"  # a mistyped number, and a state that is none
    fixed = fix_source(Source("r.ord", text))
    assert fixed.text == text and not fixed.changes
    assert [r.diagnostic.code for r in fixed.refused if r.diagnostic] == ["E202"]


def test_a_play_pasted_twice_is_not_renumbered_into_more_plies():
    text = '[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n1. F T\n2. F J\n1. F T\n2. F J\n'
    fixed = fix_source(Source("d.ord", text))
    assert fixed.text == text
    [refusal] = fixed.refused
    assert "play 1. is written twice (line 4 too): remove the one pasted again" in refusal.why


def test_a_number_and_a_declaration_on_one_line_are_both_fixed():
    text = RESULTS.read_text("utf-8").split("\n\n[Notation")[0]  # record 1: #1 J P1 is wrong
    text = text.replace("22. B J\n#1 J P1", "220. B J #1 J P1")
    fixed = fix_source(Source("one.ord", text))
    assert "22. B J #1 J P2" in fixed.text and not fixed.refused


def test_write_keeps_line_ends_and_byte_order_mark_and_follows_a_link(ordo, tmp_path):
    text = '[P1 "A"]\n[P2 "B"]\n[Result "P1"]\n1. F A\n'
    target = tmp_path / "real.ord"
    target.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    link = tmp_path / "link.ord"
    link.symlink_to(target)
    assert ordo("fix", "--write", str(link)).exit_code == 0
    assert link.is_symlink()
    fixed = '[P1 "A"]\r\n[P2 "B"]\r\n[Result "unfinished"]\r\n1. F A\r\n'
    assert target.read_bytes() == b"\xef\xbb\xbf" + fixed.encode()


def test_the_diff_applies_with_patch(ordo, tmp_path, monkeypatch):
    """CRLF line ends, no last line end, a space in the name: patch -p0 applies it."""
    patch = shutil.which("patch")
    if patch is None:
        pytest.skip("GNU patch is not installed")
    text = '[P1 "A"]\r\n[P2 "B"]\r\n[Result "unfinished"]\r\n1. F A\r\nresult P2'
    path = tmp_path / "my game.ord"
    path.write_bytes(text.encode())
    monkeypatch.chdir(tmp_path)
    diff = ordo("fix", "my game.ord")
    assert diff.exit_code == 1 and diff.stdout.count("@@ ") == 1
    applied = subprocess.run(
        [patch, "-p0", "--fuzz=0"], input=diff.stdout_bytes, capture_output=True, check=False
    )
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert path.read_bytes() == text.replace("result P2", "result unfinished").encode()
    assert applied.returncode == 0, applied.stdout + applied.stderr


@pytest.mark.parametrize("beyond", ["line", "record"])
def test_fix_keeps_the_readers_limits_and_leaves_such_a_file_alone(ordo, tmp_path, beyond):
    """Issue 31, item 8: a 50 MB tag line took 8.9 GB in fix, and a comment
    line over 1 MB exited 0 where validate says E007."""
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    if beyond == "line":
        text = text.replace("Lyon club night", "x" * 3_000_000)
    else:
        text = text.replace("1. LH J", "1. LH J {" + ("c" * 900_000 + "\n") * 5 + "}")
    path = tmp_path / "beyond.ord"
    path.write_text(text, "utf-8")
    validated = ordo("validate", str(path))
    fixed = ordo("fix", "--write", str(path))
    assert validated.exit_code == fixed.exit_code == 1
    assert "error[E007]" in validated.output and "error[E007]" in fixed.output
    assert path.read_text("utf-8") == text
