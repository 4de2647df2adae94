"""The README's examples, run as newcomers and CI run them: its first two
commands, its records, each `ordo` line of its tour and its Python example."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from strategies import ROOT

README = ROOT / "README.md"


def readme_commands():
    text = README.read_text("utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.DOTALL).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_the_readme_opens_with_two_commands():
    run_samples, run_tests = readme_commands()
    assert "ordo validate samples/*.ord" in run_samples
    assert "pytest" in run_tests
    assert README.read_text("utf-8").index("```sh") < 40


def test_ci_runs_the_readmes_test_command():
    _, run_tests = readme_commands()
    assert run_tests in (ROOT / ".ci" / "run").read_text("utf-8").splitlines()


def ord_blocks():
    # diagnostics.md shows broken records on purpose; tests/test_docs.py checks it
    for path in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        if path.name == "diagnostics.md":
            continue
        for block in re.findall(r"```ord\n(.*?)```", path.read_text("utf-8"), re.DOTALL):
            yield path.name, block


def test_every_complete_ord_example_in_the_docs_parses():
    from ordonnance_notation import parse_text, validate

    checked = 0
    for name, block in ord_blocks():
        if "\n...\n" in f"\n{block}" or "..." in block.split("\n")[0]:
            continue  # an excerpt, shortened on purpose
        reports = [validate(item) for item in parse_text(block, name)]
        assert reports, name
        syntax = [d for r in reports for d in r.diagnostics if d.code.startswith("E1")]
        assert not syntax, (name, block, syntax)
        checked += 1
    assert checked >= 5


# The tour: one section a command, each with an example, what it gives and a page.

TOUR = ("validate", "fix", "replay", "view", "analyse", "match", "play")
"""The commands the tour shows, one section each."""


class Example(NamedTuple):
    section: str  # the section's title
    command: str  # as pasted, without its comment
    status: int  # the exit status its comment gives ("exit status 1"), else 0
    shown: str | None  # the output shown under it (a ```text block), if any

    @property
    def verb(self) -> str:
        return shlex.split(self.command)[1]


def tour_sections() -> dict[str, str]:
    """The tour's sections (``### ...`` under ``## A tour``), by title."""
    text = README.read_text("utf-8")
    tour = re.search(r"^## A tour\n(.*?)(?=^## )", text, re.DOTALL | re.MULTILINE).group(1)
    parts = re.split(r"^### ", tour, flags=re.MULTILINE)[1:]
    return {part.split("\n", 1)[0]: part for part in parts}


def tour_examples() -> list[Example]:
    examples = []
    for title, part in tour_sections().items():
        for block, shown in re.findall(
            r"```sh\n(.*?)```(?:\n\n```text\n(.*?)```)?", part, re.DOTALL
        ):
            for line in block.splitlines():
                if not line.strip():
                    continue
                command, _, comment = line.partition("  #")
                status = re.search(r"exit status (\d+)", comment)
                examples.append(
                    Example(title, command.strip(), int(status[1]) if status else 0, shown or None)
                )
    return examples


def test_the_tour_shows_each_command_once_and_links_its_page():
    examples = tour_examples()
    assert all(shlex.split(e.command)[0] == "ordo" for e in examples)
    assert sorted(e.verb for e in examples) == sorted(TOUR)
    sections = tour_sections()
    for example in examples:
        pages = re.findall(r"\]\((docs/[\w-]+\.md)", sections[example.section])
        assert pages, f"the section of ordo {example.verb} links no page of docs/"
        for page in pages:
            assert (ROOT / page).is_file(), page


def test_the_readme_links_the_layout_the_archives_and_the_tutorial():
    text = README.read_text("utf-8")
    for page in ("docs/layout.md", "docs/archive.md", "docs/tutorial.md", "docs/limits.md"):
        assert f"]({page})" in text, page
    assert "ordo --help" in text


HUMAN = "LF J\nquit\n"
"""What a person types at `ordo play --human P1 --seed 7`: the tour's play
(`LF J`, a card of P1's first hand), then `quit`."""


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def _validates(folder: Path, name: str, env: dict[str, str]) -> bool:
    result = subprocess.run(
        ["ordo", "validate", name], cwd=folder, env=env, capture_output=True, check=False
    )
    return result.returncode == 0


@pytest.mark.parametrize("example", tour_examples(), ids=lambda e: e.verb)
def test_each_tour_example_runs_as_pasted_and_gives_what_the_readme_says(
    tmp_path: Path, example: Example
):
    """Each line run by the shell with the installed `ordo`, in a folder that
    holds a copy of `samples/` and `examples/` (so that what it writes,
    games.html or game-7.ord, is left in no checkout): the exit status its
    comment gives, every line of the output shown under it, and what its
    section says it gives."""
    ordo = Path(sys.executable).with_name("ordo")
    if not ordo.exists():
        pytest.skip("no ordo script beside this Python: the package is not installed here")
    for folder in ("samples", "examples"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    env = {**os.environ, "PATH": f"{ordo.parent}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        ["bash", "-c", example.command],
        cwd=tmp_path,
        env=env,
        input=HUMAN if "--human" in example.command else "",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == example.status, output
    printed = _lines(output)
    for line in _lines(example.shown or ""):
        if line and line != "...":
            assert line in printed, (
                f"the README shows {line!r}; ordo {example.verb} printed:\n{output}"
            )

    if example.verb == "validate":
        assert output.count("error[E3") == 5  # one rule broken in each record of rules.ord
    elif example.verb == "fix":
        assert "+#1 J P2" in printed and '+[Result "P2"]' in printed
        after = (tmp_path / "samples/invalid/results.ord").read_bytes()
        assert after == (ROOT / "samples/invalid/results.ord").read_bytes()  # shown, not made
    elif example.verb == "replay":
        assert printed[0] == "ply 20 of 40: P2 plays LS to Jerusalem, after drawing BF"
        assert "hand P1 Anna Petrova  5 cards, hidden" in printed  # as P2 saw it
        assert "hand P2 Boris Lind    SH LH LH B BF" in printed
    elif example.verb == "view":
        page = (tmp_path / "games.html").read_text("utf-8")
        assert page.startswith("<!doctype html>") and "Anna Petrova" in page
        assert "9 records (0 invalid) written to games.html" in printed
    elif example.verb == "analyse":
        assert any(
            line.strip().startswith("The game was decided at ply 39 of 40: P2 wins")
            for line in printed
        )
        assert sum("was decided" in line for line in printed) == 6  # five states and the game
    elif example.verb == "match":
        assert printed[0] == "100 games, 2 seats, each deal played in 2 seatings"
    elif example.verb == "play":
        record = (tmp_path / "game-7.ord").read_text("utf-8")
        assert "\n1. LF J\n" in record and "\n2. " in record  # the careful bot answered
        assert '[Result "unfinished"]' in record
        assert _validates(tmp_path, "game-7.ord", env)
    else:
        pytest.fail(f"no check for ordo {example.verb}: add one")


def test_the_python_example_runs_and_prints_what_its_comment_says(monkeypatch, capsys):
    text = README.read_text("utf-8")
    code = re.search(r"^## Python\n\n```python\n(.*?)```", text, re.DOTALL | re.MULTILINE)[1]
    said = re.search(r"# prints: (.*)$", code, re.MULTILINE)[1]
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed == said.split(" | ")


def test_seats_by_name_and_the_engines_numbers_agree():
    from ordonnance_notation import parse_file, seat_name, seat_number, validate

    [report] = [validate(item) for item in parse_file(ROOT / "samples" / "classic-2.ord")]
    assert report.winner == "P2" and report.outcome.winner == 1  # the old access stays
    assert report.scores == {"P1": 1, "P2": 4} and report.outcome.scores == (1, 4)
    assert [seat_number(seat_name(s)) for s in range(4)] == [0, 1, 2, 3]
    assert seat_number("P0") is None and seat_number("p2") is None and seat_number("P") is None
    assert report.to_json()["winner"] == report.winner
