"""The layers docs/layout.md's table names: each subpackage imports only from
the layers above it (or from itself), so data flows one way."""

from __future__ import annotations

import ast
from collections import deque
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
    "library": 7,
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
    """The modules of the package that ``path`` imports, as dotted names,
    wherever the import stands (in a function too); ``from X import y``
    gives ``X`` and ``X.y``, a module when ``y`` is one."""
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
            names = [f"{target}.{alias.name}" for alias in node.names]
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


def test_the_layout_page_names_every_folder() -> None:
    """docs/layout.md, which the README links, names every tracked folder."""
    import subprocess

    from strategies import ROOT

    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    folders = {str(Path(f).parent) for f in tracked if "/" in f}
    folders = {f for f in folders if f.count("/") < 3 and "__pycache__" not in f}
    wanted = {f for f in folders if not f.startswith(("tests/", "docs/diagnostics/cases"))}
    wanted |= {f for f in folders if f.count("/") == 1 and f.startswith("tests/")}
    layout = (ROOT / "docs" / "layout.md").read_text("utf-8")
    named = {f for f in wanted if f"`{f}/" in layout or f"`{f.split('/', 1)[-1]}/`" in layout}
    assert sorted(wanted - named) == []
    assert "](docs/layout.md)" in (ROOT / "README.md").read_text("utf-8")


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join((NAME, *(parts[:-1] if parts[-1] == "__init__" else parts)))


def _graph() -> dict[str, set[str]]:
    """Each module of the package (a package by its ``__init__``), and the
    modules of the package it imports. A module's own packages are left
    out: Python imports them before it whatever it says, so that a package
    that gathers names from its modules is no circle."""
    paths = {_module(path): path for path in PACKAGE.rglob("*.py")}
    graph = {}
    for module, path in paths.items():
        own = {module.rsplit(".", n)[0] for n in range(1, module.count(".") + 1)}
        graph[module] = {t for t in _imports(path) if t in paths and t not in own | {module}}
    return graph


def _circle_through(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """The shortest chain of imports from ``start`` back to it, if any."""
    came: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for after in sorted(graph[node]):
            if after == start:
                chain = [node]
                while chain[-1] != start:
                    chain.append(came[chain[-1]])
                return [*reversed(chain), start]
            if after not in came:
                came[after] = node
                queue.append(after)
    return None


def test_no_module_imports_one_that_imports_it_back() -> None:
    """Within the package, imports go one way inside a layer too: no module
    imports (at its top or in a function) a module that imports it back,
    directly or through others (issue 48). Such a circle works only while
    one of its imports waits in a function, and makes its modules one."""
    graph = _graph()
    assert f"{NAME}.cli.commands.validate" in graph[f"{NAME}.cli.app"]  # the graph is read
    circles = {}
    for module in sorted(graph):
        circle = _circle_through(graph, module)
        if circle is not None:
            circles.setdefault(frozenset(circle), circle)
    said = [" -> ".join(m.removeprefix(NAME + ".") for m in c) for c in circles.values()]
    assert not said, "modules that import each other: " + "; ".join(said)


def test_the_commands_folder_holds_every_command_and_nothing_else() -> None:
    """``cli/commands/``: one module per command, named as the command; what
    the commands lean on is in ``cli/`` beside it."""
    from ordonnance_notation.cli.app import COMMANDS

    folder = sorted(p.stem for p in (PACKAGE / "cli" / "commands").glob("*.py"))
    assert folder == sorted(["__init__", *(command.NAME for command in COMMANDS)])
    assert all(command.__name__.endswith(f".commands.{command.NAME}") for command in COMMANDS)


CLI = sorted((PACKAGE / "cli").rglob("*.py"))


@pytest.mark.parametrize("path", CLI, ids=lambda p: str(p.relative_to(PACKAGE / "cli")))
def test_each_module_of_the_command_line_is_short(path: Path) -> None:
    """Each module of cli/ holds one command (its options, one library call,
    a reporter and the exit: cli/commands/) or what they share: 150 lines
    at most, and a command's function 60 at most, its decorators, signature
    and docstring included (issue 25)."""
    source = path.read_text("utf-8")
    assert len(source.splitlines()) <= 150
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == "command":
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            assert node.end_lineno is not None and node.end_lineno - first + 1 <= 60, node.name
