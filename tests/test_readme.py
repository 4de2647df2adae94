"""The README's two commands are the ones CI and newcomers run."""

import re

from strategies import ROOT


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


def ord_blocks():
    # diagnostics.md shows broken records on purpose; tests/test_docs.py checks it
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
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
