"""The site (docs/sphinx/conf.py): every page of docs/ is in the table of
contents of docs/index.md, .ci/run builds it with the documented command,
and, where Sphinx is installed, it builds without a warning and its API page
shows every name of ``ordonnance_notation.__all__``."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from strategies import ROOT

import ordonnance_notation

DOCS = ROOT / "docs"
CONF = DOCS / "sphinx" / "conf.py"
CI = ROOT / ".ci" / "run"
BUILD = re.compile(r"python -m sphinx (.*) -c docs/sphinx docs build/docs$", re.MULTILINE)

# Names of __all__ the API page cannot show yet: CODES is a dict imported into
# __init__.py, and autodoc documents module data only at an assignment with a
# "#:" comment. Each one is checked to be still missing, so that it leaves
# this set once it is shown.
NOT_SHOWN: set[str] = set()


def _toctree() -> list[str]:
    index = (DOCS / "index.md").read_text("utf-8")
    [block] = re.findall(r"^```\{toctree\}\n(.*?)^```$", index, re.MULTILINE | re.DOTALL)
    return [line.strip() for line in block.splitlines() if line.strip() and line[0] != ":"]


def test_every_page_is_in_the_table_of_contents() -> None:
    """A new page of docs/ left out of docs/index.md would be a page that no
    link of the site reaches (the build fails on it too, more slowly)."""
    entries = _toctree()
    pages = sorted(path.stem for path in DOCS.glob("*.md") if path.stem != "index")
    assert sorted(entries) == pages, "docs/index.md's toctree and the pages of docs/ differ"
    assert len(set(entries)) == len(entries)
    assert entries[:2] == ["tutorial", "api"]


def test_ci_builds_the_site_with_the_documented_command() -> None:
    """The command of docs/sphinx/conf.py is the one .ci/run runs (there
    quietly), warnings as errors."""
    [documented] = BUILD.findall(CONF.read_text("utf-8"))
    [ran] = BUILD.findall(CI.read_text("utf-8"))
    assert documented == "-W --keep-going"
    assert ran.split() == ["-W", "--keep-going", "-q"]


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("sphinx") is None or importlib.util.find_spec("myst_parser") is None,
    reason="the docs extra is not installed (.ci/run builds the site after the tests)",
)
def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    out = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q"]
        + ["-c", "docs/sphinx", "-d", str(tmp_path / "doctrees"), "docs", str(out)],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    api = (out / "api.html").read_text("utf-8")
    shown = {
        name for name in ordonnance_notation.__all__ if f'id="ordonnance_notation.{name}"' in api
    }
    missing = sorted(set(ordonnance_notation.__all__) - shown)
    assert missing == sorted(NOT_SHOWN), "names of __all__ missing from the API page"
    for page in _toctree():
        assert (out / f"{page}.html").is_file()
