"""The README's two commands are the ones CI and newcomers run."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands():
    text = (ROOT / "README.md").read_text("utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.DOTALL).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_the_readme_opens_with_two_commands():
    run_samples, run_tests = readme_commands()
    assert "ordo validate samples/*.ord" in run_samples
    assert "pytest" in run_tests
    assert (ROOT / "README.md").read_text("utf-8").index("```sh") < 40


def test_ci_runs_the_readmes_test_command():
    _, run_tests = readme_commands()
    assert run_tests in (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
