"""Issue 31, round two of hostile input: what a record's own words may not
do to the outputs made of it (a Markdown summary running script, a table
broken by a `|`)."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path

import pytest
from strategies import SAMPLES

HOSTILE = {
    "Event": "<img src=x onerror=alert(1)>",
    "P1": "a|b [x](javascript:alert(1))",
    "P2": "<script>alert(2)</script>",
}


def _hostile_record() -> str:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    text = text.replace('[Event "Lyon club night"]', f'[Event "{HOSTILE["Event"]}"]')
    text = text.replace('[P1 "Anna Petrova"]', f'[P1 "{HOSTILE["P1"]}"]')
    text = text.replace('[P2 "Boris Lind"]', f'[P2 "{HOSTILE["P2"]}"]')
    comment = "{<script>alert(3)</script>\n<a href='javascript:x'>y</a>}"
    return text.replace("1. LH J\n", f"1. LH J {comment}\n")


def test_a_markdown_summary_renders_no_markup_of_the_records_words(ordo):
    from markdown_it import MarkdownIt

    result = ordo("summary", "--format", "markdown", "-", input=_hostile_record())
    assert result.exit_code == 0, result.output
    html = MarkdownIt("commonmark").enable("table").render(result.stdout)
    for tag in ("<script", "<img", "<a ", 'javascript:alert(1)"'):
        assert tag not in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html  # shown, as written
    cells = [row.count("<td>") for row in html.split("<tr>")[1:] if "<td>" in row]
    assert len(cells) == 10 and set(cells) == {5}  # a `|` in a name makes no sixth cell


ESCAPES = "\x1b]0;title\x07 \x1b[2J \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"


def _escaping_record() -> str:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    text = text.replace('[Event "Lyon club night"]', '[Event "\x1b]0;title\x07 \x1b[31mred"]')
    return text.replace("2. F T\n", "3. F T {" + ESCAPES + "}\n")  # a ply number for fix


@pytest.mark.slow  # every command at a pseudo-terminal
@pytest.mark.parametrize(
    "args",
    [
        ["select", "{path}"],
        ["fmt", "{path}"],
        ["dedup", "{path}"],
        ["convert", "{path}", "--to", "ord"],
        ["fix", "{path}"],
    ],
    ids=lambda args: args[0] if args[0] != "convert" else "convert --to ord",
)
def test_a_terminal_is_shown_a_records_escapes_and_a_file_gets_them(tmp_path, args):
    """Issue 31, item 7: on a terminal, the records written (and fix's diff)
    show ESC and BEL as pictures; redirected, the bytes are kept as written."""
    import pexpect

    path = tmp_path / "escapes.ord"
    path.write_text(_escaping_record(), "utf-8")
    ordo = Path(sys.executable).with_name("ordo")
    if not ordo.exists():
        pytest.skip("no ordo script beside this Python: the package is not installed here")
    words = [str(path) if a == "{path}" else a for a in args]
    child = pexpect.spawn(str(ordo), words, encoding="utf-8", timeout=60, dimensions=(50, 200))
    shown = child.read()
    child.close()
    assert "\x1b]" not in shown and "\x07" not in shown and "\x1b[2J" not in shown
    assert "␛]0;title␇" in shown
    piped = subprocess.run([str(ordo), *words], capture_output=True, text=True, check=False)
    assert "\x1b]0;title\x07" in piped.stdout


def test_self_play_writes_each_game_as_it_is_played():
    """Issue 31, item 15: `ordo play --games N` held every game until the end
    (339 MB for 130,000 games); the first game now comes at once."""
    import os
    import select

    command = [sys.executable, "-m", "ordonnance_notation", "play", "-n", "1000000", "-s", "x"]
    player = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        ready, _, _ = select.select([player.stdout], [], [], 30)
        assert ready, "no game written within 30 s"
        assert b"[Notation" in os.read(player.stdout.fileno(), 2000)
    finally:
        player.kill()
        player.wait()


FORMULAS = {"Event": "=HYPERLINK('http://x','y')", "Site": "+1+2", "P1": "-2,3", "P2": "@SUM(1)"}


def _formula_record(annotated: bool) -> str:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    for tag, value in FORMULAS.items():
        text = re.sub(rf'\[{tag} "[^"]*"\]', f'[{tag} "{value}"]'.replace("\\", "\\\\"), text)
    if annotated:  # the Python path
        text = text.replace("1. LH J\n", "1. LH J {a comment}\n")
    return text


@pytest.mark.parametrize("annotated", [False, True])
def test_no_cell_of_the_csv_tables_begins_a_formula(ordo, tmp_path, monkeypatch, annotated):
    """Issue 31, item 6: what a spreadsheet would run is written after a
    ``'``, by the compiled core (a plain record) and by Python alike; the
    file's name too."""
    monkeypatch.chdir(tmp_path)
    Path("=cmd.ord").write_text(_formula_record(annotated), "utf-8")
    result = ordo("export", "=cmd.ord", "-o", "tables")
    assert result.exit_code == 0, result.output
    with Path("tables/records.csv").open(newline="", encoding="utf-8") as table:
        row = next(csv.DictReader(table))
    assert row["source"] == "'=cmd.ord"
    assert (row["event"], row["site"], row["p1"], row["p2"]) == tuple(
        "'" + value for value in FORMULAS.values()
    )
    assert row["scoring"] == "classic" and row["winner"] == "P2"
    for name in ("records", "plays", "states"):
        lines = csv.reader(Path(f"tables/{name}.csv").read_text("utf-8").splitlines())
        for line in lines:
            assert not any(cell[:1] in ("=", "+", "-", "@") for cell in line), line


def _obeying(char: str) -> str:
    return (SAMPLES / "classic-2.ord").read_text("utf-8").replace("Anna Petrova", f"Anna{char}x")


def test_validate_warns_of_each_character_a_terminal_obeys(ordo):
    """Issue 31, item 7: such a record stays valid, with W504 where the
    character is; the compiled core leaves it to the validator, and reads
    the characters either side of each range as any other."""
    from ordonnance_notation.checking.quick import compiled_core, quick_block
    from ordonnance_notation.diagnostics import OBEYED_RANGES

    inside = [chr(c) for low, high in OBEYED_RANGES for c in {low, (low + high) // 2, high}]
    inside = [c for c in inside if c not in "\n\0"]  # NUL is no text at all: E002
    outside = ["\u00a0", "\u2029", "\u206a", "é", "\U0001f600"]
    for char in inside:
        result = ordo("validate", "-", input=_obeying(char))
        assert result.exit_code == 0, (char, result.output)
        assert f"<stdin>:6:10: warning[W504]: U+{ord(char):04X} is a character" in result.output
        if compiled_core():
            assert quick_block("-", 1, _obeying(char)) is None
    for char in outside:
        result = ordo("validate", "-", input=_obeying(char))
        assert result.exit_code == 0 and "W504" not in result.output, char
        if compiled_core():
            assert quick_block("-", 1, _obeying(char)) is not None
