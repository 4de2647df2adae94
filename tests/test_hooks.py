"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit itself in
a repository of records, as a user of the hooks runs them.

pre-commit installs hooks from a commit of a git repository, so the test
first commits the checkout as it is now (edits not yet committed included)
in a repository of its own; pre-commit then builds its environment from it,
with pip, under a PRE_COMMIT_HOME in the test's temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from strategies import ROOT, SAMPLES

PRE_COMMIT = Path(sys.executable).with_name("pre-commit")

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
    pytest.mark.skipif(
        not PRE_COMMIT.exists() and shutil.which("pre-commit") is None,
        reason="needs pre-commit (in the test extra)",
    ),
]


def _git(*args: str, cwd: Path) -> str:
    identity = ["-c", "user.name=test", "-c", "user.email=test@example.invalid"]
    result = subprocess.run(
        ["git", *identity, *args], cwd=cwd, capture_output=True, text=True, check=True
    )
    return result.stdout


def _snapshot(folder: Path) -> tuple[Path, str]:
    """The checkout's files as they are now (tracked, or new and not ignored),
    committed in a new repository: its path and the commit."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:
        pytest.skip("the project is not a git checkout here: pre-commit installs from one")
    folder.mkdir()
    for name in filter(None, listed.stdout.decode("utf-8").split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is left out
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    _git("init", "-q", cwd=folder)
    _git("add", "-A", cwd=folder)
    _git("commit", "-q", "-m", "snapshot", cwd=folder)
    return folder, _git("rev-parse", "HEAD", cwd=folder).strip()


@pytest.mark.slow  # pre-commit builds a virtual environment and installs the package: ~20 s
def test_the_hooks_pass_valid_canonical_records_and_fail_the_others(tmp_path: Path) -> None:
    hooks, commit = _snapshot(tmp_path / "project")
    records = tmp_path / "records"
    records.mkdir()
    _git("init", "-q", cwd=records)
    (records / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"- repo: {hooks}\n"
        f"  rev: {commit}\n"
        "  hooks:\n"
        "  - id: ordo-validate\n"
        "  - id: ordo-fmt\n",
        "utf-8",
    )
    shutil.copy(SAMPLES / "classic-2.ord", records / "good.ord")
    shutil.copy(SAMPLES / "invalid" / "rules.ord", records / "bad.ord")
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    (records / "loose.ord").write_text(text.replace("\n1. LH J\n", "\n1.   LH   J\n"), "utf-8")
    _git("add", "-A", cwd=records)

    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT", "SKIP"))}
    env["PRE_COMMIT_HOME"] = str(tmp_path / "pre-commit-home")
    executable = str(PRE_COMMIT) if PRE_COMMIT.exists() else "pre-commit"

    def run(*files: str) -> tuple[int, str]:
        command = [executable, "run", "--color", "never", "--files", *files]
        result = subprocess.run(
            command, cwd=records, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        return result.returncode, result.stdout + result.stderr

    status, output = run("good.ord")
    assert status == 0, output
    assert "ordo validate" in output and "ordo fmt --check" in output
    assert "Failed" not in output and output.count("Passed") == 2, output

    status, output = run("bad.ord")
    assert status == 1, output
    assert "bad.ord:22:4: error[E301]: P2 plays out of turn: ply 5 is P1's" in output
    assert "bad.ord record 1 (Anna Petrova v Boris Lind): invalid" in output

    status, output = run("loose.ord")
    assert status == 1, output
    assert "would reformat loose.ord" in output
    assert output.count("Passed") == 1 and output.count("Failed") == 1, output
