"""docs/querying.md's examples: each `$ ordo ...` line of a ``console``
block run by the shell, in a folder holding a copy of ``samples/``, prints
what the page shows under it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from strategies import ROOT

PAGE = ROOT / "docs" / "querying.md"


def examples() -> list[tuple[str, str]]:
    """Each command of the page's console blocks and what it prints."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", PAGE.read_text("utf-8"), re.DOTALL):
        for example in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, shown = example.partition("\n")
            found.append((command, shown))
    return found


def test_the_page_has_an_example_of_each_operation():
    commands = " ".join(command for command, _ in examples())
    for option in ("--play", "--army", "--plies", "--set-tag", "--split-by", "--prefix", "explore"):
        assert option in commands


@pytest.mark.parametrize(("command", "shown"), examples(), ids=[c for c, _ in examples()])
def test_each_example_prints_what_the_page_shows(tmp_path: Path, command: str, shown: str):
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    ordo = Path(sys.executable).with_name("ordo")
    if not ordo.exists():
        pytest.skip("no ordo script beside this Python: the package is not installed here")
    env = {**os.environ, "PATH": f"{ordo.parent}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(
        ["bash", "-c", command],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout + result.stderr == shown
