"""The layers the README's table names: each subpackage imports only from
the layers above it (or from itself), so data flows one way."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ordonnance_notation

PACKAGE = Path(ordonnance_notation.__file__).parent
NAME = "ordonnance_notation"

# rank of each layer: a module may import from a lower rank or its own layer
RANKS = {
    "diagnostics": 0,
    "engine": 1,
    "notation": 2,
    "grammar": 2,
    "docs": 2,
    "files": 3,
    "checking": 4,
    "making": 4,
    "runs": 5,
    "archives": 6,
    "views": 6,
    "querying": 6,
    "editor": 7,
    "cli": 8,
}
MODULES = sorted(
    path
    for path in PACKAGE.rglob("*.py")
    if path.relative_to(PACKAGE).parts[0] not in ("__init__.py", "__main__.py")
)


def _layer(dotted: str) -> str:
    return dotted.split(".")[1] if dotted.count(".") else ""


def _imports(path: Path) -> set[str]:
    """The modules of the package that ``path`` imports, as dotted names."""
    module = ".".join((NAME, *path.relative_to(PACKAGE).with_suffix("").parts))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            names = [f"{target}.{alias.name}" for alias in node.names] if not node.module else []
            found.update(n for n in [target, *names] if n.startswith(NAME + "."))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(NAME + "."))
    return found


def test_every_layer_is_ranked() -> None:
    layers = {path.relative_to(PACKAGE).parts[0].removesuffix(".py") for path in MODULES}
    # the grammar and the docs are folders of their own in the source tree,
    # packages inside the installed one
    data = {"grammar", "docs"}
    assert layers - data == set(RANKS) - data


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_imports_only_from_the_layers_above_it(path: Path) -> None:
    own = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
    wrong = sorted(
        target
        for target in _imports(path)
        if _layer(target) != own and RANKS[_layer(target)] >= RANKS[own]
    )
    assert not wrong, f"{own} (rank {RANKS[own]}) imports {wrong}"


def test_the_engine_knows_no_text() -> None:
    engine = [p for p in MODULES if p.relative_to(PACKAGE).parts[0] == "engine"]
    assert engine
    for path in engine:
        assert {_layer(t) for t in _imports(path)} <= {"engine"}, path.name


def test_the_readme_names_every_folder() -> None:
    import subprocess

    from strategies import ROOT

    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    folders = {str(Path(f).parent) for f in tracked if "/" in f}
    folders = {f for f in folders if f.count("/") < 3 and "__pycache__" not in f}
    wanted = {f for f in folders if not f.startswith(("tests/", "docs/diagnostics/cases"))}
    wanted |= {f for f in folders if f.count("/") == 1 and f.startswith("tests/")}
    readme = (ROOT / "README.md").read_text("utf-8")
    named = {f for f in wanted if f"`{f}/" in readme or f"`{f.split('/', 1)[-1]}/`" in readme}
    assert sorted(wanted - named) == []


CLI = sorted((PACKAGE / "cli").glob("*.py"))


@pytest.mark.parametrize("path", CLI, ids=lambda p: p.name)
def test_each_module_of_the_command_line_is_short(path: Path) -> None:
    """Each module of cli/ holds one command (its options, one library call,
    a reporter and the exit) or what they share: 150 lines at most, and a
    command's function 60 at most, its decorators, signature and docstring
    included (issue 25)."""
    source = path.read_text("utf-8")
    assert len(source.splitlines()) <= 150
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == "command":
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            assert node.end_lineno is not None and node.end_lineno - first + 1 <= 60, node.name
