"""The ``ordo`` command, called in-process: exit codes and exact output."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from strategies import ROOT, SAMPLES

from ordonnance_notation.diagnostics import CODES

VALID = sorted(p.name for p in SAMPLES.glob("*.ord"))
INVALID = sorted(p.name for p in (SAMPLES / "invalid").glob("*.ord"))


def test_the_valid_samples_exit_0_with_a_line_per_record_and_a_total(ordo):
    result = ordo("validate", *(f"samples/{name}" for name in VALID))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert sum(1 for line in lines if " record " in line and ": valid" in line) == 9
    assert lines[-1] == "9 records in 7 files: 9 valid, 0 invalid; 0 errors, 1 warning"


@pytest.mark.parametrize("name", INVALID)
def test_each_invalid_sample_exits_1_with_its_golden_output(ordo, golden, name):
    result = ordo("validate", f"samples/invalid/{name}")
    assert result.exit_code == 1
    golden(f"{name.removesuffix('.ord')}.txt", result.output)


def test_a_diagnostic_shows_the_source_line_and_a_caret(ordo):
    result = ordo("validate", "samples/invalid/rules.ord")
    assert (
        "samples/invalid/rules.ord:152:8: error[E303]: P1 plays SHF to Jerusalem, "
        "but P1 already has four units there\n"
        "     |\n"
        " 152 | 9. SHF J\n"
        "     |        ^\n"
        "     = record 3, ply 9\n"
    ) in result.output


def test_a_directory_means_every_ord_file_below_it(ordo):
    result = ordo("validate", "samples")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].startswith(
        "44 records in 12 files: 10 valid, 34 invalid;"
    )


def test_a_missing_file_exits_2(ordo):
    result = ordo("validate", "samples/classic-2.ord", "no/such.ord")
    assert result.exit_code == 2
    assert "no/such.ord: error[E001]: no such file" in result.output
    assert "samples/classic-2.ord record 1" in result.output


def test_an_empty_directory_exits_2(ordo, tmp_path):
    result = ordo("validate", str(tmp_path))
    assert result.exit_code == 2
    assert "error[E001]: no .ord file in this directory" in result.output


def test_a_file_without_records_is_invalid(ordo, tmp_path):
    empty = tmp_path / "empty.ord"
    empty.write_text("\n\n")
    result = ordo("validate", str(empty))
    assert result.exit_code == 1
    assert f"{empty}: error[E105]: no record in this file" in result.output


def test_standard_input(ordo):
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    result = ordo("validate", "-", input=text)
    assert result.exit_code == 0
    assert (
        result.output.splitlines()[0]
        == "<stdin> record 1 (Anna Petrova v Boris Lind): valid, P2 wins (states: P1 1, P2 4)"
    )


def test_crlf_and_a_byte_order_mark_are_accepted(ordo, tmp_path):
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    path = tmp_path / "windows.ord"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert ordo("validate", str(path)).exit_code == 0


def test_json_for_programs(ordo):
    result = ordo(
        "validate", "--format", "json", "samples/later-capture-3.ord", "samples/invalid/rules.ord"
    )
    assert result.exit_code == 1
    document = json.loads(result.output)
    assert document["summary"] == {
        "files": 2,
        "records": 6,
        "valid": 1,
        "invalid": 5,
        "errors": 5,
        "warnings": 0,
    }
    first = document["records"][0]
    assert (
        first["valid"]
        and first["winner"] == "P2"
        and first["scores"] == {"P1": 2, "P2": 2, "P3": 1}
    )
    assert [m["marker"] for m in first["markers"]] == [1, 2, 3, 4, 5]
    diagnostic = document["records"][3]["diagnostics"][0]
    assert diagnostic == {
        "code": "E303",
        "severity": "error",
        "message": "P1 plays SHF to Jerusalem, but P1 already has four units there",
        "file": "samples/invalid/rules.ord",
        "line": 152,
        "column": 8,
        "end_line": 152,
        "end_column": 9,
        "record": 3,
        "ply": 9,
        "help": "an army holds four units: check the state; P1 can still play to A C E T",
        "related": [],
    }


def test_no_colour_when_not_a_terminal(ordo):
    result = ordo("validate", "samples/invalid/rules.ord")
    assert "\x1b[" not in result.output


def test_no_color_wins_even_on_a_forced_terminal(ordo):
    result = ordo(
        "validate", "samples/invalid/rules.ord", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}
    )
    assert "\x1b[" not in result.output
    coloured = ordo(
        "validate", "samples/invalid/rules.ord", env={"FORCE_COLOR": "1", "NO_COLOR": None}
    )
    assert "\x1b[" in coloured.output


def test_usage_errors_exit_2(ordo):
    assert ordo("validate").exit_code == 2
    assert ordo("validate", "--format", "xml", "samples").exit_code == 2


@pytest.mark.parametrize(
    "command", [[], ["validate"], ["deal"], ["play"], ["stats"], ["fmt"], ["convert"], ["view"]]
)
def test_every_command_has_help(ordo, command):
    result = ordo(*command, "--help")
    assert result.exit_code == 0
    assert "Usage" in result.output
    if command == ["validate"]:
        assert "Exit 0 when every record is valid" in " ".join(result.output.split())


def test_deal_is_reproducible_and_valid(ordo, tmp_path):
    first = ordo("deal", "--players", "3", "--seed", "5", "--names", "Anna,Boris,Chloé")
    second = ordo("deal", "--players", "3", "--seed", "5", "--names", "Anna,Boris,Chloé")
    other = ordo("deal", "--players", "3", "--seed", "6", "--names", "Anna,Boris,Chloé")
    assert first.exit_code == 0 and first.output == second.output != other.output
    assert '[Seed "5"]' in first.output and '[P3 "Chloé"]' in first.output
    path = tmp_path / "deal.ord"
    path.write_text(first.output, "utf-8")
    checked = ordo("validate", str(path))
    assert checked.exit_code == 0
    assert "valid, unfinished after ply 0" in checked.output


def test_deal_without_a_seed_records_the_one_it_drew(ordo, tmp_path):
    result = ordo("deal")
    seed = next(line for line in result.output.splitlines() if line.startswith("[Seed "))[7:-2]
    assert ordo("deal", "--seed", seed).output == result.output


def test_play_writes_an_archive_that_validates(ordo, tmp_path):
    archive = tmp_path / "a.ord"
    result = ordo(
        "play", "--bots", "greedy,random,greedy", "--games", "4", "--seed", "1", "-o", str(archive)
    )
    assert result.exit_code == 0 and result.output == ""
    checked = ordo("validate", str(archive))
    assert checked.exit_code == 0
    assert (
        checked.output.splitlines()[-1]
        == "4 records in 1 file: 4 valid, 0 invalid; 0 errors, 0 warnings"
    )
    again = ordo("play", "--bots", "greedy,random,greedy", "--games", "4", "--seed", "1")
    assert again.output == archive.read_text("utf-8")


def test_play_never_overwrites_without_force(ordo, tmp_path):
    archive = tmp_path / "a.ord"
    archive.write_text("keep me", "utf-8")
    refused = ordo("play", "--seed", "1", "-o", str(archive))
    assert refused.exit_code == 2
    assert "error[E001]: already exists" in refused.output
    assert "help: pass --force to replace it" in refused.output
    assert archive.read_text("utf-8") == "keep me"
    assert ordo("play", "--seed", "1", "-o", str(archive), "--force").exit_code == 0
    assert archive.read_text("utf-8").startswith('[Notation "1"]')
    assert [p.name for p in tmp_path.iterdir()] == ["a.ord"]  # no temporary file left behind


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,clever"], "unknown bot 'clever'"),
        (["--players", "3", "--bots", "random,greedy"], "2 bots for 3 seats"),
        (["--players", "5"], "4"),
        (["--scoring", "points", "--points", "1 2"], "must not give a weaker army more"),
        (["--points", "3 1"], "--points needs --scoring points"),
        (["--seed", ""], "a seed is printable text"),
    ],
)
def test_play_refuses_bad_options(ordo, args, message):
    result = ordo("play", *args)
    assert result.exit_code == 2
    assert message in result.output


def test_a_bad_deck_file_is_located(ordo, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("cards:\n  F: 30\n  HX: 10\n", "utf-8")
    result = ordo("deal", "--deck", str(deck))
    assert result.exit_code == 2
    assert (
        f"{deck}:3:3: error[E006]: cards.HX: 'X' is not an icon (icons are L B S H F)"
        in result.output
    )


def test_stats_over_an_archive(ordo, tmp_path):
    archive = tmp_path / "a.ord"
    ordo("play", "--players", "3", "--games", "6", "--seed", "3", "-o", str(archive))
    result = ordo("stats", "--format", "json", str(archive), "samples/invalid/rules.ord")
    assert result.exit_code == 1  # the invalid records are skipped, and that is said
    assert "5 records skipped as invalid: `ordo validate` says why" in result.stderr
    stats = json.loads(result.stdout)
    assert stats["games"] == 6 and stats["skipped"] == 5 and stats["invalid"] == 5
    assert sum(stats["wins"]["3"].values()) == 6
    assert sum(stats["deciding_steps"].values()) == 30
    assert list(stats["average_marker_ply"]["3"]) == ["1", "2", "3", "4", "5"]
    assert stats["average_marker_ply"]["3"]["5"] == 60
    text = ordo("stats", str(archive)).output
    assert text.startswith("games: 6 finished and valid, 0 skipped (0 invalid, 0 unfinished)")
    assert "decided by the later-capture tie-break" in text


def test_stats_counts_the_later_capture_sample(ordo):
    stats = json.loads(ordo("stats", "-f", "json", "samples/later-capture-3.ord").output)
    assert stats["decided_by_later_capture"] == 1


def test_directories_find_ord_files_in_any_case(ordo, tmp_path):
    (tmp_path / "GAME.ORD").write_text((SAMPLES / "classic-2.ord").read_text("utf-8"), "utf-8")
    (tmp_path / "notes.txt").write_text("not a record", "utf-8")
    result = ordo("validate", str(tmp_path))
    assert result.exit_code == 0
    assert result.output.splitlines()[-1].startswith("1 record in 1 file: 1 valid")


def test_a_utf16_file_is_named_as_such_without_dumping_its_bytes(ordo, tmp_path):
    path = tmp_path / "wide.ord"
    path.write_bytes('[P1 "a"]\n'.encode("utf-16"))
    result = ordo("validate", str(path))
    assert result.exit_code == 1
    assert (
        "error[E002]: not UTF-8 text: byte 0xff at offset 0 (it looks like UTF-16)" in result.output
    )
    assert "\x00" not in result.output and "|" not in result.output


def test_a_missing_file_is_not_counted_as_read(ordo):
    result = ordo("validate", "nowhere.ord")
    assert result.exit_code == 2
    assert (
        result.output.splitlines()[-1]
        == "0 records in 0 files: 0 valid, 0 invalid; 1 error, 0 warnings"
    )


def test_stats_exit_codes(ordo, tmp_path):
    latin = tmp_path / "latin.ord"
    latin.write_bytes(b'[P1 "Chlo\xe9"]\n')
    assert ordo("stats", str(latin)).exit_code == 1
    assert ordo("stats", "nowhere.ord").exit_code == 2
    assert ordo("stats", "samples/invalid/rules.ord").exit_code == 1
    said = (Path(__file__).parent.parent / "docs" / "dealing.md").read_text("utf-8")
    assert "1 when a record is invalid" in " ".join(said.split())  # docs said 0 (issue 47 item 23)


def test_fmt_check_passes_on_the_samples_and_names_what_it_would_change(ordo, tmp_path):
    result = ordo("fmt", "--check", *(f"samples/{name}" for name in VALID))
    assert result.exit_code == 0, result.output
    messy = tmp_path / "messy.ord"
    messy.write_text('[Result "unfinished"] [P2 "b"] [P1 "a"]\n1.   FH   antioch\n', "utf-8")
    result = ordo("fmt", "--check", str(messy))
    assert result.exit_code == 1
    assert f"would reformat {messy}" in result.output
    assert messy.read_text("utf-8").startswith(
        '[Result "unfinished"] [P2'
    )  # --check changes nothing


def test_fmt_prints_and_writes_the_canonical_form(ordo, tmp_path):
    messy = tmp_path / "messy.ord"
    messy.write_text('[Result "unfinished"] [P2 "b"] [P1 "a"]\n1.   FH   antioch !? {x}\n', "utf-8")
    canonical = '[P1 "a"]\n[P2 "b"]\n[Result "unfinished"]\n\n1. HF A !? {x}\n'
    assert ordo("fmt", str(messy)).output == canonical
    assert messy.read_text("utf-8") != canonical
    written = ordo("fmt", "--write", str(messy))
    assert written.exit_code == 0 and f"reformatted {messy}" in written.output
    assert messy.read_text("utf-8") == canonical
    assert ordo("fmt", "--check", str(messy)).exit_code == 0


def test_fmt_never_rewrites_a_file_that_does_not_parse(ordo, tmp_path):
    broken = tmp_path / "broken.ord"
    text = '[P1 "a"]\n1. HF\n'
    broken.write_text(text, "utf-8")
    result = ordo("fmt", "--write", str(broken))
    assert result.exit_code == 1
    assert "error[E101]" in result.output and "not formatted" in result.output
    assert "help: every play is `N. CARD STATE`" in result.output
    assert broken.read_text("utf-8") == text


def test_an_interrupted_write_leaves_the_original_intact(ordo, tmp_path, monkeypatch):
    messy = tmp_path / "messy.ord"
    text = '[P2 "b"] [P1 "a"]\n'
    messy.write_text(text, "utf-8")

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("ordonnance_notation.files.output.os.replace", fail)
    result = ordo("fmt", "--write", str(messy))
    assert result.exit_code == 2
    assert "cannot be written: No space left on device" in result.output
    assert messy.read_text("utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == ["messy.ord"]


def test_convert_by_extension_both_ways(ordo, tmp_path):
    yaml_path, back = tmp_path / "club.yaml", tmp_path / "club.ord"
    assert ordo("convert", "samples/club-evening.ord", "-o", str(yaml_path)).exit_code == 0
    assert yaml_path.read_text("utf-8").startswith("schema_version: 1\nrecords:\n")
    assert ordo("convert", str(yaml_path), "-o", str(back)).exit_code == 0
    assert back.read_text("utf-8") == (SAMPLES / "club-evening.ord").read_text("utf-8")


def test_convert_through_standard_streams(ordo):
    text = (SAMPLES / "annotated.ord").read_text("utf-8")
    as_json = ordo("convert", "-", "--to", "json", input=text)
    assert as_json.exit_code == 0 and json.loads(as_json.output)["schema_version"] == 1
    back = ordo("convert", "-", "--from", "json", "--to", "ord", input=as_json.output)
    assert back.output == text


def test_convert_refuses_to_overwrite_or_to_write_over_its_input(ordo, tmp_path):
    target = tmp_path / "out.yaml"
    target.write_text("keep", "utf-8")
    assert ordo("convert", "samples/classic-2.ord", "-o", str(target)).exit_code == 2
    assert target.read_text("utf-8") == "keep"
    same = ordo("convert", "samples/classic-2.ord", "-o", "samples/classic-2.ord", "--to", "ord")
    assert same.exit_code == 2 and "the output is an input" in same.output


def test_convert_reports_a_broken_archive_with_its_place(ordo, tmp_path):
    archive = tmp_path / "bad.yaml"
    archive.write_text("schema_version: 1\nrecords:\n- tags:\n  - {name: P1, value: 7}\n", "utf-8")
    result = ordo("convert", str(archive), "--to", "ord")
    assert result.exit_code == 1
    assert (
        f"{archive}:4:23: error[E003]: records[0].tags[0].value: "
        "expected a tag value as a string, not a number" in result.output
    )
    assert " 4 |   - {name: P1, value: 7}" in result.output


def test_written_files_get_ordinary_permissions(ordo, tmp_path):
    fresh = tmp_path / "fresh.ord"
    assert ordo("play", "--seed", "1", "-o", str(fresh)).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask
    kept = tmp_path / "kept.ord"
    kept.write_text('[P2 "b"] [P1 "a"]\n', "utf-8")
    kept.chmod(0o640)
    assert ordo("fmt", "--write", str(kept)).exit_code == 0
    assert kept.stat().st_mode & 0o777 == 0o640


def test_names_and_deck_names_must_be_one_line(ordo, tmp_path):
    result = ordo("deal", "--names", "A\nB,C")
    assert result.exit_code == 2 and "names are printable text on one line" in result.output
    deck = tmp_path / "deck.yaml"
    deck.write_text('name: "my\\ndeck"\ncards:\n  F: 40\n', "utf-8")
    result = ordo("deal", "--deck", str(deck))
    assert (
        result.exit_code == 2
        and "error[E006]: the deck's name is printable text on one line" in result.output
    )


def test_explain_prints_the_page_of_every_code(ordo):
    page = (ROOT / "docs" / "diagnostics.md").read_text("utf-8")
    for code, title in CODES.items():
        result = ordo("explain", code.lower())
        assert result.exit_code == 0, code
        assert result.output.startswith(f"### {code} — {title}\n"), code
        assert result.output.strip() in page
        assert "\n### " not in result.output.strip(), f"{code}'s page runs into the next"


def test_explain_lists_the_codes_and_refuses_an_unknown_one(ordo):
    listed = ordo("explain")
    assert (
        listed.exit_code == 0
        and listed.output.splitlines()[0] == "E001  file cannot be read or written"
    )
    assert len(listed.output.splitlines()) == len(CODES)
    wrong = ordo("explain", "E3O3")
    assert wrong.exit_code == 2 and "did you mean E303" in wrong.output


def test_carets_stand_under_the_text_after_wide_characters(ordo, tmp_path):
    path = tmp_path / "wide.ord"
    path.write_text(
        '[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n1. F A\n{好手 👍} 2. L Cypress\n', "utf-8"
    )
    lines = ordo("validate", str(path)).output.splitlines()
    lines = lines[next(i for i, line in enumerate(lines) if "E202" in line) :]
    assert lines[0].endswith(
        "wide.ord:5:13: error[E202]: 'Cypress' is not a state (A Antioch, "
        "C Cyprus, J Jerusalem, E Edessa, T Tripoli)"
    )
    assert lines[2] == " 5 | {好手 👍} 2. L Cypress"
    # 好, 手 and 👍 take two cells each on a terminal: the carets stand three cells
    # further right than the column, under the word
    assert lines[3] == "   | " + " " * (12 + 3) + "^" * len("Cypress")
    assert lines[5] == "   = help: did you mean Cyprus? write `C` or `Cyprus`"


def test_fmt_reads_a_record_at_a_time_and_still_sees_a_missing_last_line_end(ordo, tmp_path):
    canonical = (SAMPLES / "classic-2.ord").read_text("utf-8")
    crlf = tmp_path / "crlf.ord"
    crlf.write_bytes(canonical.replace("\n", "\r\n").encode())
    assert ordo("fmt", "--check", str(crlf)).exit_code == 0  # line ends aside, canonical
    open_end = tmp_path / "open.ord"
    open_end.write_text(canonical.rstrip("\n"), "utf-8")
    result = ordo("fmt", "--check", str(open_end))
    assert result.exit_code == 1 and f"would reformat {open_end}" in result.output


def test_fmt_write_leaves_a_file_with_a_later_syntax_error_untouched(ordo, tmp_path):
    path = tmp_path / "two.ord"
    text = (SAMPLES / "classic-2.ord").read_text("utf-8") + '\n[P1 "A"]\n[P2 "B"\n'
    path.write_text(text.replace("1. LH J", "1.   LH   J"), "utf-8")
    before = path.read_bytes()
    result = ordo("fmt", "--write", str(path))
    assert result.exit_code == 1 and "error[E103]" in result.output
    assert "not formatted: fix the errors above first" in result.output
    assert path.read_bytes() == before


def test_an_internal_error_is_one_line_with_how_to_report_it(monkeypatch, capsys):
    from ordonnance_notation.cli.app import EXIT_INTERNAL, run
    from ordonnance_notation.runs import validation as batch

    def broken(self):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(batch.Validation, "__iter__", broken)
    sample = str(SAMPLES / "classic-2.ord")
    with pytest.raises(SystemExit) as ended:
        run(["validate", sample])
    err = capsys.readouterr().err
    assert ended.value.code == EXIT_INTERNAL == 3
    assert err.startswith("ordo: internal error: RuntimeError: boom\n") and "Traceback" not in err
    assert "please report it" in err and "--debug" in err
    with pytest.raises(RuntimeError, match="boom"):  # --debug, anywhere: the traceback
        run(["validate", sample, "--debug"])


@pytest.mark.parametrize(
    "command",
    [["validate", "--jobs", "1"], ["fmt"], pytest.param(["summary"], marks=pytest.mark.slow)],
    ids=" ".join,
)
def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path, command):
    import subprocess
    import sys

    path = tmp_path / "many.ord"
    path.write_text("\n".join([(SAMPLES / "classic-2.ord").read_text("utf-8")] * 2000), "utf-8")
    child = subprocess.Popen(
        [sys.executable, "-m", "ordonnance_notation", *command, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stdout.readline()
    child.stdout.close()  # as `| head -1` does
    _, err = child.communicate(timeout=60)
    assert child.returncode in (-13, 141) and err == b"", (command, err[-500:])


ON_RECORDS = [
    ["convert", "--to", "yaml"],
    ["convert", "--to", "json", "--with-results"],
    ["convert", "--to", "ord"],
    ["fmt"],
    ["fmt", "--check"],
    ["summary"],
    ["summary", "--format", "json"],
    ["stats"],
    ["validate", "--format", "json"],
]


def _summary_slow(commands: list[list[str]]) -> list:
    """summary analyses every record, seconds over ``played``: with the slow tests."""
    return [pytest.param(c, marks=pytest.mark.slow) if c[0] == "summary" else c for c in commands]


@pytest.mark.parametrize("damage", ["none", "syntax", "byte"])
@pytest.mark.parametrize("command", _summary_slow(ON_RECORDS), ids=" ".join)
def test_jobs_2_says_what_jobs_1_says(ordo, played, command, damage):
    """Records read on two processes: the same output byte for byte, in input
    order, the same errors in the same places, the same exit status; on an
    archive of several blocks, whole or with a bad record or byte in its middle."""
    one = ordo(*command, played(damage), "--jobs", "1")
    two = ordo(*command, played(damage), "--jobs", "2")
    assert (two.stdout_bytes, two.stderr_bytes) == (one.stdout_bytes, one.stderr_bytes)
    assert two.exit_code == one.exit_code
    assert one.exit_code == (0 if damage == "none" else 1)  # an invalid record: 1, as validate


@pytest.mark.parametrize(
    "command", _summary_slow([c for c in ON_RECORDS if c[0] != "validate"]), ids=" ".join
)
def test_jobs_2_reads_standard_input_as_jobs_1_does(ordo, played, command):
    text = Path(played("syntax")).read_text("utf-8")
    one = ordo(*command, "-", "--jobs", "1", input=text)
    two = ordo(*command, "-", "--jobs", "2", input=text)
    assert (two.stdout_bytes, two.stderr_bytes, two.exit_code) == (
        one.stdout_bytes,
        one.stderr_bytes,
        one.exit_code,
    )
    assert one.exit_code == 1  # the record with a syntax error


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("empty.ord", "", "error[E105]"),
        ("garbage.ord", "garbage here\n", "1 record skipped as invalid"),
        ("club.yaml", None, "stats reads .ord files: convert"),
    ],
)
def test_stats_exits_1_on_what_holds_no_valid_record(ordo, tmp_path, name, text, said):
    path = tmp_path / name
    if text is None:
        ordo("convert", str(SAMPLES / "classic-2.ord"), "-o", str(path))
    else:
        path.write_text(text, "utf-8")
    result = ordo("stats", str(path))
    assert result.exit_code == 1 and said in result.stderr


def test_fmt_write_does_not_replace_a_file_changed_while_it_was_read(ordo, tmp_path, monkeypatch):
    from ordonnance_notation.archives import conversion

    path = tmp_path / "game.ord"
    path.write_text((SAMPLES / "classic-2.ord").read_text("utf-8").replace("\n1. ", "\n1.  "))
    differs = conversion.Formatted.differs

    def edited_meanwhile(self):
        answer = differs(self)
        with open(self.name, "a", encoding="utf-8") as file:
            file.write("; someone else's comment\n")  # as an editor would, while fmt reads
        return answer

    monkeypatch.setattr(conversion.Formatted, "differs", edited_meanwhile)
    result = ordo("fmt", "--write", str(path))
    assert result.exit_code == 2
    assert "error[E001]: was changed by something else while ordo read it" in result.stderr
    assert path.read_text().endswith("; someone else's comment\n")
    assert [p.name for p in tmp_path.iterdir()] == ["game.ord"]


def test_an_empty_output_name_is_a_usage_error(ordo):
    result = ordo("convert", str(SAMPLES / "classic-2.ord"), "-o", "")
    assert result.exit_code == 2 and "name a file, or - for standard output" in result.output


def test_version_is_the_installed_packages(ordo):
    from importlib.metadata import version

    from ordonnance_notation import __version__
    from ordonnance_notation.checking.quick import CHECK_BLOCK
    from ordonnance_notation.making.playout import PLAYS

    result = ordo("--version")
    assert result.exit_code == 0
    assert version("ordonnance-notation") == __version__
    both = CHECK_BLOCK is not None and PLAYS is not None
    kind = "compiled core" if both else "pure Python"
    assert result.output == f"ordo {__version__} ({kind})\n"


def test_the_version_says_when_the_python_path_alone_checks() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "ORDO_PURE_PYTHON": "1"},
        check=True,
    )
    assert done.stdout.endswith(" (pure Python)\n")


def test_the_command_list_gives_each_description_whole(ordo):
    result = ordo("--help", env={"COLUMNS": "80"})
    commands = result.output.split("Commands:")[1].strip().splitlines()
    assert len(commands) >= 11
    assert all(line.rstrip().endswith(".") and "..." not in line for line in commands)
    assert all(len(line) <= 80 for line in commands)


def test_the_shell_completes_commands_options_and_choices():
    """Completion is on: bash's protocol, through the installed ``ordo``."""
    ordo_script = Path(sys.executable).with_name("ordo")
    if not ordo_script.exists():
        pytest.skip("no ordo script beside this Python: the package is not installed here")

    def complete(words: str) -> list[str]:
        cword = len(words.split()) - (0 if words.endswith(" ") else 1)
        env = {**os.environ, "_ORDO_COMPLETE": "complete_bash", "COMP_WORDS": words}
        env["COMP_CWORD"] = str(cword)
        done = subprocess.run(
            [str(ordo_script)], env=env, capture_output=True, text=True, check=True
        )
        return done.stdout.split()

    assert complete("ordo val") == ["validate"]
    assert complete("ordo replay --fo") == ["--format", "--force"]
    assert complete("ordo replay x.ord --format ") == ["text", "svg"]


def test_quiet_and_severity_leave_out_what_is_not_wanted(ordo, tmp_path):
    """20 valid records without a deal: a note each by default, nothing but
    the total with --quiet; an invalid record keeps its error and its line."""
    game = (SAMPLES / "no-deal.ord").read_text("utf-8").strip() + "\n\n"
    path = tmp_path / "many.ord"
    path.write_text(game * 20, "utf-8")
    everything = ordo("validate", str(path))
    assert everything.exit_code == 0 and everything.output.count("note[") == 20
    quiet = ordo("validate", str(path), "-q")
    assert quiet.exit_code == 0
    assert quiet.output.splitlines() == [
        "20 records in 1 file: 20 valid, 0 invalid; 0 errors, 0 warnings"
    ]
    errors_only = ordo("validate", str(path), "--severity", "error")
    assert "note[" not in errors_only.output and errors_only.output.count(": valid") == 20
    invalid = ordo("validate", "samples/invalid/rules.ord", "--quiet")
    assert invalid.exit_code == 1 and "note[" not in invalid.output
    assert invalid.output.count("error[") == invalid.output.count(": invalid") == 5


def test_view_no_decided_writes_the_page_without_the_analysis(ordo, tmp_path):
    with_it, without = tmp_path / "with.html", tmp_path / "without.html"
    assert ordo("view", "samples/classic-2.ord", "-o", str(with_it)).exit_code == 0
    assert ordo("view", "samples/classic-2.ord", "--no-decided", "-o", str(without)).exit_code == 0
    assert without.stat().st_size < with_it.stat().st_size
