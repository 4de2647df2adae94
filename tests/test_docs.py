"""docs/diagnostics.md is what docs/diagnostics/build.py makes from the current code."""

from __future__ import annotations

import difflib
import importlib.util
import re
import sys

import pytest
from strategies import ROOT

from ordonnance_notation.diagnostics import CODES

BUILD = ROOT / "docs" / "diagnostics" / "build.py"
PAGE = ROOT / "docs" / "diagnostics.md"
REBUILD = "python docs/diagnostics/build.py"


def _load_build():
    spec = importlib.util.spec_from_file_location("diagnostics_build", BUILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and the like look their module up
    spec.loader.exec_module(module)
    return module


build = _load_build()


@pytest.fixture(scope="module")
def rendered() -> str:
    try:
        return build.render()
    except build.BuildError as error:
        pytest.fail(
            f"docs/diagnostics/build.py cannot build the page: {error}\n"
            "Fix docs/diagnostics/template.md or the cases in docs/diagnostics/cases/, "
            f"then run `{REBUILD}`.",
            pytrace=False,
        )


def test_page_is_up_to_date(rendered: str) -> None:
    page = PAGE.read_text(encoding="utf-8")
    if rendered != page:
        diff = list(
            difflib.unified_diff(
                page.splitlines(),
                rendered.splitlines(),
                "docs/diagnostics.md",
                "rebuilt",
                lineterm="",
            )
        )
        shown = "\n".join(diff[:60]) + ("\n..." if len(diff) > 60 else "")
        pytest.fail(
            "docs/diagnostics.md differs from what the current code prints.\n"
            f"Run `{REBUILD}` to rewrite it (`{REBUILD} --check` shows the whole diff), "
            "and check that the prose around the changed output is still true.\n\n" + shown,
            pytrace=False,
        )


def test_every_code_has_a_heading() -> None:
    page = PAGE.read_text(encoding="utf-8")
    lines = page.split("\n")
    missing = [
        f"### {code} — {title}"
        for code, title in CODES.items()
        if f"### {code} — {title}" not in lines
    ]
    assert not missing, (
        f"docs/diagnostics.md lacks the headings {missing}; "
        f"edit docs/diagnostics/template.md and run `{REBUILD}`"
    )
    assert re.findall(r"^### ([EWN]\d{3}) ", page, re.MULTILINE) == list(CODES)


def test_every_case_is_used() -> None:
    template = (BUILD.parent / "template.md").read_text(encoding="utf-8")
    used = {
        f"{name}.ord"
        for name in re.findall(r"^@@(?:ORD|OUT|MSG) ([^\s@]+)", template, re.MULTILINE)
    }
    used |= set(re.findall(r"^(?:!cp|@@FILE) cases/(\S+) ", template, re.MULTILINE))
    cases = {path.name for path in (BUILD.parent / "cases").iterdir()}
    assert cases - used == set(), "files in docs/diagnostics/cases/ that template.md never uses"
    assert used - cases == set(), "cases that template.md names but docs/diagnostics/cases/ lacks"


def test_the_grammar_page_shows_the_terminals_of_the_grammar() -> None:
    """docs/notation.md quotes the terminals of grammar/ordonnance.lark; they
    must not drift apart."""
    grammar = (ROOT / "grammar" / "ordonnance.lark").read_text("utf-8")
    page = (ROOT / "docs" / "notation.md").read_text("utf-8")
    terminals = [line for line in grammar.splitlines() if re.match(r"[A-Z_]+(\.\d+)?:", line)]
    [quoted] = re.findall(r"```lark\n(.*?)```", page, re.DOTALL)
    assert (
        terminals
        and [line for line in quoted.splitlines() if re.match(r"[A-Z_]+(\.\d+)?:", line)]
        == terminals
    )
