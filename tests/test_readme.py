"""The README's examples, run as newcomers and CI run them: its first two
commands, its records, its Python API and its `ordo select` lines."""

import re
import shlex

import pytest
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


def test_the_python_api_example_runs_and_prints_what_its_comments_say(monkeypatch, capsys):
    text = (ROOT / "README.md").read_text("utf-8")
    code = re.search(r"## Python API\n\n```python\n(.*?)```", text, re.DOTALL).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert "winner P2 scores {'P1': 2, 'P2': 3}" in printed  # as its comment says
    assert printed[-1] == "1 P1 None P2"


def test_seats_by_name_and_the_engines_numbers_agree():
    from ordonnance_notation import parse_file, seat_name, seat_number, validate

    [report] = [validate(item) for item in parse_file(ROOT / "samples" / "classic-2.ord")]
    assert report.winner == "P2" and report.outcome.winner == 1  # the old access stays
    assert report.scores == {"P1": 1, "P2": 4} and report.outcome.scores == (1, 4)
    assert [seat_number(seat_name(s)) for s in range(4)] == [0, 1, 2, 3]
    assert seat_number("P0") is None and seat_number("p2") is None and seat_number("P") is None
    assert report.to_json()["winner"] == report.winner


def readme_select_examples():
    """The README's `ordo select` lines, as the shell would split them (globs
    expanded from the checkout), without their comments."""
    text = (ROOT / "README.md").read_text("utf-8")
    block = re.search(r"## Choosing games.*?```sh\n(.*?)```", text, re.DOTALL).group(1)
    examples = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words[:2] == ["ordo", "select"]:
            expanded = [
                sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(w)) or [w] for w in words
            ]
            examples.append([word for words in expanded[1:] for word in words])
    return examples


def test_the_readme_has_select_examples():
    assert len(readme_select_examples()) >= 2


def _selected(ordo, args):
    from ordonnance_notation import parse_text

    result = ordo(*args)
    assert result.exit_code == 0, result.output
    if "-c" in args:
        return int(result.output)
    return sum(1 for _ in parse_text(result.output, "selected.ord"))


EDITS = {"--strip-comments", "--strip-glyphs", "--renumber", "--set-tag", "--drop-tag"}
"""Options that change the records written, and choose none."""


@pytest.mark.parametrize(
    "args", readme_select_examples(), ids=lambda args: " ".join(a for a in args if ".ord" not in a)
)
def test_each_select_example_of_the_readme_runs_and_each_of_its_tests_filters(ordo, args):
    """Each test of an example (``--won 'anna*:Jerusalem'``) leaves out
    records that the example without it selects: ``--won Jerusalem`` after
    ``--player 'anna*'`` (anyone won it) would teach a test that tests nothing."""
    selected = _selected(ordo, args)
    assert selected > 0, args
    tests = [
        i
        for i, a in enumerate(args)
        if a.startswith("--") and i + 1 < len(args) and a not in EDITS and args[i + 1] not in EDITS
    ]
    assert tests, args
    for i in tests:
        without = _selected(ordo, args[:i] + args[i + 2 :])
        assert selected < without, f"{args[i]} {args[i + 1]} leaves out no record"
