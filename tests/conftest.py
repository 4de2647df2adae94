"""Fixtures shared by the test modules, the Hypothesis profiles and the
suite's command-line options.

Two speeds. The fast loop, ``pytest -m "not slow" -n 2``, leaves out the
tests marked ``slow`` (10 MB lines, fuzzing every ``ordo`` command, a Dask
cluster, pre-commit installing the hooks, a page opened in Chromium, best
play on whole records, all but a sample of the bulk checks) and runs in
the ``fast`` Hypothesis profile, a fifth of the examples the tests name.
``pytest`` runs everything with the counts as written, as CI does.
``--hypothesis-profile`` names another profile: ``default`` (the counts
written in the tests), ``ci`` (Hypothesis's own, loaded by itself when the
CI variable is set: the same counts, derandomized, no example database),
``fast`` or ``deep`` (ten times as many, and the volume: 100,000 generated
records, every one-word mutant).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
import typer.main
import typer.testing
from hypothesis import settings
from typer.testing import CliRunner

# strategies.py sits beside the tests (whatever pytest's import mode); the
# package under test comes from the installed distribution.
sys.path.insert(0, str(Path(__file__).parent))

from strategies import DEFAULT_EXAMPLES, ROOT, TESTS

# Typer's CliRunner builds the click command from the app again at each
# invoke (50 ms, longer than most commands run); the app does not change.
assert typer.testing._get_command is typer.main.get_command, "typer.testing changed"
typer.testing._get_command = cache(typer.main.get_command)

settings.register_profile(
    "deep", settings.get_profile("default"), max_examples=10 * DEFAULT_EXAMPLES, print_blob=True
)
settings.register_profile(
    "fast", settings.get_profile("default"), max_examples=DEFAULT_EXAMPLES // 5
)


def pytest_configure(config: pytest.Config) -> None:
    """The fast loop (a mark expression with ``not slow``) in the ``fast``
    profile, unless a profile is named or Hypothesis, on CI, loaded ``ci``."""
    named = config.getoption("hypothesis_profile", None)
    fast_loop = re.search(r"\bnot\s+slow\b", config.option.markexpr or "") is not None
    if fast_loop and named is None and settings.get_current_profile_name() == "default":
        settings.load_profile("fast")


@pytest.hookimpl(tryfirst=True)  # before the marks choose what runs
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that opens a page in Chromium (the ``browser`` fixture) is slow:
    a second or more each, the fast loop leaves them to CI."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the golden files in tests/golden/ with the current output",
    )


@pytest.fixture(scope="session")
def lark_terminals() -> dict[str, tuple[str, str]]:
    """Lark's own reading of the grammar: terminal name -> (kind, pattern),
    kind ``re`` for a named terminal, ``str`` for a word of a rule."""
    from lark import Lark

    from ordonnance_notation.notation.terminals import GRAMMAR

    parser = Lark(GRAMMAR, start="record", parser="lalr")
    out = {}
    for terminal in parser.terminals:
        assert not terminal.pattern.flags, terminal
        # Lark turns the escape \n of a regular expression into a line end
        out[terminal.name] = (terminal.pattern.type, terminal.pattern.value.replace("\n", "\\n"))
    return out


@pytest.fixture
def ordo(monkeypatch):
    """``ordo(*args, input=None, env=None)``: the ``ordo`` command in-process,
    run from the checkout (so that ``samples/...`` paths work); an exception
    in the command fails the test."""
    from ordonnance_notation.cli.app import app

    monkeypatch.chdir(ROOT)
    runner = CliRunner()

    def run(*args, input=None, env=None):
        return runner.invoke(app, list(args), input=input, env=env, catch_exceptions=False)

    return run


@pytest.fixture(scope="session")
def played(tmp_path_factory):
    """``played(damage)``: the path of an archive of 200 self-played games
    (about 160 KB: three blocks of ``runs.blocks``), as played
    (``"none"``), with a syntax error in a record in its middle
    (``"syntax"``), or with a byte that is not UTF-8 there (``"byte"``)."""
    from ordonnance_notation.cli.app import app

    folder = tmp_path_factory.mktemp("played")
    clean = folder / "none.ord"
    result = CliRunner().invoke(app, ["play", "-n", "200", "--seed", "jobs", "-o", str(clean)])
    assert result.exit_code == 0, result.output
    data = clean.read_bytes()
    middle = data.index(b"\n12. ", len(data) // 2) + 1
    (folder / "syntax.ord").write_bytes(data[:middle] + b"12. Q" + data[middle + 3 :])
    (folder / "byte.ord").write_bytes(data[:middle] + b"\xff" + data[middle:])
    return lambda damage: str(folder / f"{damage}.ord")


GOLDEN = TESTS / "golden"


@pytest.fixture
def golden(request):
    """``golden(name, text)``: ``text`` must equal the file ``name`` in
    tests/golden/; with ``--update-golden`` the file is written first."""
    update = request.config.getoption("--update-golden")

    def check(name: str, text: str) -> None:
        path = GOLDEN / name
        if update:
            path.write_text(text, "utf-8")
        assert text == path.read_text("utf-8"), (
            f"tests/golden/{name} differs; pytest --update-golden rewrites it"
        )

    return check


def _run_isolated(function, *args, timeout: float = 60.0) -> None:
    with tempfile.NamedTemporaryFile("w+", suffix=".log") as log:
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            status = 0
            try:
                function(*args)
            except BaseException:
                log.write(traceback.format_exc(limit=-12))
                log.flush()
                status = 1
            os._exit(status)
        deadline = time.monotonic() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                pytest.fail(f"still running after {timeout:.0f} s: a hang", pytrace=False)
            time.sleep(0.02)
        log.seek(0)
        told = log.read()
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        pytest.fail(f"the interpreter was killed by {name}", pytrace=False)
    if os.WEXITSTATUS(status) != 0:
        pytest.fail(told or f"the child exited with {os.WEXITSTATUS(status)}", pytrace=False)


@pytest.fixture
def run_isolated():
    """``run_isolated(function, *args, timeout=60.0)``: ``function(*args)`` in
    a forked child. An exception there, a crash of the interpreter (a segfault
    in a C extension) or a run longer than ``timeout`` seconds fails the
    calling test, with the child's traceback."""
    if not hasattr(os, "fork"):
        pytest.skip("needs os.fork to run apart")
    return _run_isolated


# tests/test_viewer.py and tests/test_notebook.py look at pages in a real browser: Debian's Chromium
CHROMIUM = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if CHROMIUM is None:
        pytest.skip("no Chromium: apt-get install chromium (.ci/run does)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()
