"""docs/tutorial.md, run as a reader runs it: every ```pycon block, in order,
in one session, from a folder that holds the samples (the files it writes
stay there), each output checked as written."""

from __future__ import annotations

import doctest
import re

from strategies import ROOT

TUTORIAL = ROOT / "docs" / "tutorial.md"


def blocks() -> list[tuple[int, str]]:
    text = TUTORIAL.read_text("utf-8")
    return [
        (text.count("\n", 0, found.start()) + 2, found.group(1))
        for found in re.finditer(r"```pycon\n(.*?)```", text, re.DOTALL)
    ]


def test_the_tutorial_has_a_block_for_each_of_its_steps():
    text = TUTORIAL.read_text("utf-8")
    headings = re.findall(r"^## (.*)$", text, re.MULTILINE)
    assert headings[:6] == [
        "Read a record",
        "Step through it",
        "List the legal plays",
        "Ask the engine",
        "Draw the position",
        "Play the bots",
    ]
    assert len(blocks()) >= 10
    assert "```python" not in text  # a block that would not be run


def test_every_block_of_the_tutorial_runs_and_prints_what_it_shows(tmp_path, monkeypatch):
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    session: dict[str, object] = {}
    for line, block in blocks():
        test = parser.get_doctest(block, session, "tutorial", str(TUTORIAL), line)
        runner.run(test, clear_globs=False)
        session = test.globs
    assert runner.failures == 0 and runner.tries >= 30, runner.summarize(verbose=False)
    assert (tmp_path / "club.yaml").is_file() and (tmp_path / "position.svg").is_file()
    assert (tmp_path / "tables" / "plays.csv").is_file()
