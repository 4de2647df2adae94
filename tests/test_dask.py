"""Dask: `ordo validate --scheduler` (runs.cluster), and `analyse` and
`summary` with it, give what a run on one process gives, and the recipe of docs/distributed.md
(examples/validate_on_dask.py) finds what `ordo validate` finds. The cluster
tests share one local cluster of two worker processes."""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
from types import ModuleType

import pytest
from strategies import ROOT, SAMPLES

from ordonnance_notation.checking.verdicts import Checked
from ordonnance_notation.diagnostics import InputError
from ordonnance_notation.runs import cluster as cluster_module
from ordonnance_notation.runs.validation import Validation

SCRIPT = ROOT / "examples" / "validate_on_dask.py"
PAGE = ROOT / "docs" / "distributed.md"
ENV = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
WAIT = cluster_module.CONNECT_TIMEOUT  # as the pages give it


def _distributed() -> ModuleType:
    return pytest.importorskip(
        "distributed", reason="dask[distributed] is in the test extra; install it to run this"
    )


def _ordo(*args: str) -> subprocess.CompletedProcess[str]:
    """``ordo ARGS`` as a user runs it, from the checkout."""
    command = [sys.executable, "-m", "ordonnance_notation", *args]
    return subprocess.run(
        command, check=False, capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=300
    )


def _closed_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])  # closed again when the test uses it


def test_the_page_shows_the_example_script_whole():
    page = PAGE.read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.DOTALL)
    assert blocks == [SCRIPT.read_text("utf-8")], (
        "docs/distributed.md shows examples/validate_on_dask.py: copy the file into its "
        "python block again"
    )


def test_without_dask_the_scheduler_option_says_how_to_install_it(ordo, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    result = ordo("validate", "--scheduler", "tcp://127.0.0.1:8786", "samples/classic-2.ord")
    assert result.exit_code == 2 and result.stdout == ""
    first, *rest = result.stderr.splitlines()
    assert first == (
        "ordo: error[E009]: checking on a Dask cluster needs Dask, which is not installed: "
        "pip install 'ordonnance-notation[dask]'"
    )
    assert [line.lstrip().startswith("= help:") for line in rest] == [True]
    assert result.stderr in PAGE.read_text("utf-8")  # as docs/distributed.md shows it


def test_a_scheduler_that_does_not_answer_is_one_error_with_its_address(ordo, monkeypatch):
    _distributed()
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 0.5)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    result = ordo("validate", "--scheduler", address, "samples/classic-2.ord")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(
        f"{address}: error[E009]: no Dask scheduler answers at this address within 0.5 s\n"
    )
    assert "Traceback" not in result.stderr
    # as docs/diagnostics.md and docs/distributed.md show it
    shown = result.stderr.replace(address, "tcp://10.0.0.5:8786").replace("0.5 s", f"{WAIT:g} s")
    for page in (PAGE, ROOT / "docs" / "diagnostics.md"):
        assert shown in page.read_text("utf-8"), page


@pytest.mark.parametrize("command", ["analyse", "summary"])
def test_the_analysis_on_a_scheduler_that_does_not_answer_is_one_error(ordo, monkeypatch, command):
    _distributed()
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 0.5)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    result = ordo(command, "--best-play", "--scheduler", address, "samples/classic-2.ord")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(
        f"{address}: error[E009]: no Dask scheduler answers at this address within 0.5 s\n"
    )
    assert "Traceback" not in result.stderr


def _peer(answer: bytes | None) -> tuple[socket.socket, str]:
    """A peer on the loopback that is no scheduler: it sends ``answer`` at
    once (None: it says nothing; empty: it hangs up) and then waits; its
    socket and address."""
    import threading

    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                peer, _ = server.accept()
            except OSError:
                return
            if answer == b"":  # it hangs up at once
                peer.close()
                continue
            if answer is not None:
                peer.sendall(answer)
            threading.Timer(30, peer.close).start()

    threading.Thread(target=serve, daemon=True).start()
    return server, f"tcp://127.0.0.1:{server.getsockname()[1]}"


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (None, "it said nothing within 0.5 s"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", "not a Dask handshake"),
        (b"\xff" * 64, "not a Dask handshake"),
        (bytes(range(97, 105)) * 8, "not a Dask handshake"),
        (b"", "it closed the connection without a word"),
    ],
    ids=["silent", "http", "huge length", "text", "closed"],
)
def test_a_peer_that_is_no_scheduler_is_one_error_in_time(ordo, monkeypatch, answer, said):
    """Issue 31, item 11: random bytes gave OverflowError, an HTTP answer
    MemoryError (exit 3), and a silent peer was waited on for ever."""
    _distributed()
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 0.5)
    server, address = _peer(answer)
    try:
        result = ordo("validate", "--scheduler", address, "samples/classic-2.ord")
    finally:
        server.close()
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{address}: error[E009]: what answers at this address")
    assert said in result.stderr


def test_an_address_without_a_port_is_told_as_such(ordo):
    _distributed()
    result = ordo("validate", "--scheduler", "scheduler-host", "samples/classic-2.ord")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "scheduler-host: error[E009]: not the address of a Dask scheduler: missing port number"
    )


@pytest.mark.slow  # starts a scheduler
def test_a_scheduler_without_workers_is_one_error(ordo, monkeypatch):
    distributed = _distributed()
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 0.5)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty:
        result = ordo("validate", "--scheduler", empty.scheduler_address, "samples/")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(
        f"{empty.scheduler_address}: error[E009]: the Dask scheduler has no worker: "
        "none joined within 0.5 s\n"
    )


@pytest.mark.parametrize("command", ["validate", "analyse", "summary"])
def test_jobs_and_scheduler_exclude_each_other(ordo, command):
    result = ordo(command, "--jobs", "2", "--scheduler", "tcp://h:8786", "samples/")
    assert result.exit_code == 2
    assert "--jobs and --scheduler exclude each other" in result.stderr


@pytest.fixture(scope="module")
def scheduler():
    """The address of a local cluster of two single-threaded worker processes."""
    distributed = _distributed()
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def _shape(item: Checked | InputError) -> tuple[object, ...]:
    if isinstance(item, InputError):
        return ("problem", type(item).__name__, item.diagnostic)
    return (item.source, item.index, item.players, item.verdict, item.diagnostics, item.json)


@pytest.mark.slow  # a cluster of two worker processes
@pytest.mark.parametrize("format", ["text", "json"])
def test_validate_on_a_cluster_prints_what_one_process_prints(scheduler, format):
    # samples/invalid/ holds a file that is not UTF-8; a path that does not exist: exit 2
    for paths in (["samples/"], ["samples/invalid/rules.ord", "nowhere.ord"]):
        alone = _ordo("validate", "--format", format, "--jobs", "1", *paths)
        spread = _ordo("validate", "--format", format, "--scheduler", scheduler, *paths)
        assert (spread.stdout, spread.stderr, spread.returncode) == (
            alone.stdout,
            alone.stderr,
            alone.returncode,
        )
        assert alone.returncode in (1, 2) and alone.stdout


@pytest.mark.slow  # a cluster of two worker processes
@pytest.mark.parametrize(
    "command",
    [
        ("analyse",),
        ("analyse", "--format", "json"),
        ("summary",),
        # a budget of 0 s: best play's bounds alone, the same however fast the
        # workers are; on the samples of three and four seats, where they are
        # cheap: the plumbing is the point, not best play
        ("analyse", "--best-play", "--budget", "0", "--format", "json"),
        ("summary", "--best-play", "--budget", "0"),
        # the plies of a record spread over the cluster's workers; the first
        # six plies only: ``_ordo`` runs the checkout, whose play-outs are Python's
        ("analyse", "--judge", "--playouts", "10", "--format", "json"),
    ],
)
def test_the_analysis_on_a_cluster_prints_what_one_process_prints(scheduler, command, tmp_path):
    paths = ["samples/", "nowhere.ord"]
    if "--best-play" in command:
        paths = ["samples/later-capture-3.ord", "samples/points-4.ord", "nowhere.ord"]
    if "--judge" in command:
        text = (ROOT / "samples" / "classic-2.ord").read_text("utf-8")
        opening = text[: text.index("\n7. ")].replace('[Result "P2"]', '[Result "unfinished"]')
        (tmp_path / "opening.ord").write_text(opening + "\n", "utf-8")
        paths = [str(tmp_path / "opening.ord"), "nowhere.ord"]
    alone = _ordo(*command, "--jobs", "1", *paths)
    spread = _ordo(*command, "--scheduler", scheduler, *paths)
    assert (spread.stdout, spread.stderr, spread.returncode) == (
        alone.stdout,
        alone.stderr,
        alone.returncode,
    )
    assert alone.returncode == 2 and "Antioch" in alone.stdout


@pytest.mark.slow  # a cluster of two worker processes
def test_records_keep_their_order_and_numbers_across_blocks_on_a_cluster(scheduler, played):
    # three blocks each, more than the cluster has under way; a syntax error, a bad byte
    paths = [played("none"), played("syntax"), "missing.ord", played("byte"), played("none")]
    alone = Validation(paths, jobs=1, with_json=True)
    spread = Validation(paths, with_json=True, scheduler=scheduler)
    assert [_shape(item) for item in spread] == [_shape(item) for item in alone]
    counts = ("files", "records", "invalid", "errors", "warnings")
    assert [getattr(spread.tally, n) for n in counts] == [getattr(alone.tally, n) for n in counts]
    assert alone.tally.records == 700 and len(alone.tally.problems) == 2


def _load_script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("validate_on_dask", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # a cluster of two worker processes
def test_the_recipe_checks_each_record_as_validate_does(scheduler, monkeypatch):
    distributed = _distributed()
    script = _load_script(monkeypatch)
    with distributed.Client(scheduler, set_as_default=False) as client:
        client.upload_file(str(SCRIPT))  # the workers load check_file by its module's name
        found = script.check_files(client, [str(SAMPLES)])
    expected = list(Validation([str(SAMPLES)], jobs=1))
    problems = [item for item in expected if isinstance(item, InputError)]
    assert len(problems) == 1 and problems[0].diagnostic.code == "E002"  # samples/invalid/
    assert [_shape(item) for item in found] == [_shape(item) for item in expected]


@pytest.mark.slow  # starts a cluster of two worker processes, as the script does
def test_the_example_script_prints_what_ordo_validate_finds():
    command = [sys.executable, str(SCRIPT.relative_to(ROOT)), "samples/"]
    script = subprocess.run(
        command, check=False, capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=300
    )
    ordo = _ordo("validate", "--jobs", "1", "samples/")
    *lines, total = script.stdout.splitlines()
    # ordo's own lines of each diagnostic and record, without the quoted source
    *heads, summary = [line for line in ordo.stdout.splitlines() if not line.startswith(" ")]
    assert lines == heads
    records, valid, invalid = re.match(
        r"(\d+) records .*: (\d+) valid, (\d+) invalid", summary
    ).groups()
    assert total == f"{records} records: {valid} valid, {invalid} invalid"
    assert script.returncode == ordo.returncode == 1, script.stderr
    assert script.stderr == ""
