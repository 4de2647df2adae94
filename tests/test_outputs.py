"""Every command that takes -o, through the one output sink: what exists
afterwards when the input is missing, unreadable, or all invalid, and when
the run is ended by SIGTERM (issue 25: a file is created only when the run
succeeds; a node that is not a regular file is written through)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

# each command's arguments around its input; {out} is the output's path
COMMANDS = {
    "view": ["view", "{in}", "-o", "{out}"],
    "select": ["select", "{in}", "-o", "{out}"],
    "dedup": ["dedup", "{in}", "-o", "{out}"],
    "convert": ["convert", "{in}", "--to", "json", "-o", "{out}"],
    "export": ["export", "{in}", "-o", "{out}"],
    "replay": ["replay", "{in}", "--format", "svg", "-o", "{out}"],
    "deal": ["deal", "--deck", "{in}", "-o", "{out}"],
    "play": ["play", "--deck", "{in}", "-o", "{out}"],
}
INVALID = "samples/invalid/content.ord"  # records read, each found wanting
# what is kept from an input of invalid records: the commands that report them keep it
KEPT_FROM_INVALID = {"view": 1, "select": 0, "dedup": 0, "export": 1, "replay": 0}


def _args(name: str, given: str, out: Path) -> list[str]:
    return [word.replace("{in}", given).replace("{out}", str(out)) for word in COMMANDS[name]]


def _nothing_left(folder: Path) -> None:
    assert sorted(p.name for p in folder.iterdir()) == [], "a run that failed left something"


@pytest.mark.parametrize("name", COMMANDS)
def test_a_missing_input_leaves_no_output(ordo, tmp_path, name):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    result = ordo(*_args(name, str(tmp_path / "no-such.ord"), out_dir / "o"))
    assert result.exit_code == 2, result.output
    assert "error[E001]" in result.output
    _nothing_left(out_dir)
    again = ordo(*_args(name, "samples/classic-2.ord", out_dir / "o"))  # no --force needed
    assert "already exists" not in again.output


@pytest.mark.parametrize("name", COMMANDS)
def test_an_unreadable_input_leaves_no_output(ordo, tmp_path, name):
    unreadable = tmp_path / "socket.ord"  # not a file to read, even for root
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(unreadable))
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    try:
        result = ordo(*_args(name, str(unreadable), out_dir / "o"))
    finally:
        server.close()
    assert result.exit_code == 2, result.output
    _nothing_left(out_dir)


@pytest.mark.parametrize("name", [n for n in COMMANDS if n not in ("deal", "play")])
def test_an_input_of_invalid_records(ordo, tmp_path, name):
    out = tmp_path / "out" / "o"
    out.parent.mkdir()
    result = ordo(*_args(name, INVALID, out), *(["--record", "1"] if name == "replay" else []))
    if name in KEPT_FROM_INVALID:
        assert result.exit_code == KEPT_FROM_INVALID[name], result.output
        assert out.exists()
    else:  # convert: an archive is written whole or not at all
        assert result.exit_code == 1, result.output
        _nothing_left(out.parent)


def test_a_file_that_is_not_regular_is_written_through(ordo, tmp_path):
    for name in ("view", "select", "convert"):
        result = ordo(*_args(name, "samples/classic-2.ord", Path("/dev/null")))
        assert result.exit_code == 0, result.output
        assert "already exists" not in result.output
    assert Path("/dev/null").is_char_device()


@pytest.mark.parametrize("name", ["view", "select", "convert", "replay"])
def test_the_output_may_not_be_an_input(ordo, tmp_path, name):
    record = tmp_path / "game.ord"
    record.write_text(Path("samples/classic-2.ord").read_text("utf-8"), "utf-8")
    before = record.read_bytes()
    link = tmp_path / "link.ord"
    link.symlink_to(record)
    result = ordo(*_args(name, str(record), link), "--force")
    assert result.exit_code == 2 and "the output is an input" in result.output
    assert record.read_bytes() == before


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> bytes:
    from typer.testing import CliRunner

    from ordonnance_notation.cli.app import app

    path = tmp_path_factory.mktemp("archive") / "big.ord"
    result = CliRunner().invoke(app, ["play", "-n", "300", "--seed", "term", "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
@pytest.mark.parametrize("name", ["view", "select", "dedup", "convert", "export", "play"])
def test_a_signal_mid_run_leaves_no_output_and_no_temporary(tmp_path, archive, name, how):
    """The input is a pipe given half the archive, so the run is surely
    under way (its output begun) when the signal comes."""
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    fifo = tmp_path / "in.ord"
    os.mkfifo(fifo)
    args = _args(name, str(fifo), out_dir / "o")
    if name == "play":
        args = ["play", "-n", "100000", "-o", str(out_dir / "o")]
    child = subprocess.Popen(
        [sys.executable, "-m", "ordonnance_notation", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if name != "play":
        with open(fifo, "wb") as feed:  # opened when ordo opens it to read
            feed.write(archive[: len(archive) // 2])
            feed.flush()
            time.sleep(1)
            assert child.poll() is None, "the run ended before the signal"
            child.send_signal(how)
            assert child.wait(timeout=30) in (128 + how, -how)
    else:
        time.sleep(1.5)
        assert child.poll() is None, "the run ended before the signal"
        child.send_signal(how)
        assert child.wait(timeout=30) in (128 + how, -how)
    if name == "export" and how == signal.SIGKILL:  # no way out runs: the folder it made stays
        assert list((out_dir / "o").iterdir()) == []
        (out_dir / "o").rmdir()
    _nothing_left(out_dir)
    assert not [p for p in os.listdir(out_dir.parent) if p.endswith(".tmp")]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("errors", ["stderr full", "stderr open"])
def test_a_full_standard_output_is_a_usage_error_even_when_standard_error_is_full(errors):
    """Issue 31 item 13: with both outputs full, `validate` of a valid file said 1 (invalid)."""
    root = Path(__file__).resolve().parent.parent
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "ordonnance_notation", "validate", "samples/classic-2.ord"],
            cwd=root,
            stdout=full,
            stderr=full if errors == "stderr full" else subprocess.PIPE,
            check=False,
        )
    assert result.returncode == 2


def _nobody() -> int | None:
    """The uid of a user that is not root, if this test runs as root and the system has one."""
    import pwd

    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("nobody").pw_uid
    except KeyError:
        return None


@pytest.mark.skipif(
    _nobody() is None or shutil.which("setpriv") is None,
    reason="needs root and setpriv, to run ordo as the user nobody",
)
@pytest.mark.parametrize(
    "args",
    [["fmt", "--write", "{out}"], ["convert", "samples/classic-2.ord", "-o", "{out}", "--force"]],
)
def test_another_users_file_is_not_replaced(tmp_path, args):
    """Issue 31, item 16: in a folder anyone may write, fmt --write and
    convert --force replaced root's file with one owned by the caller."""
    import tempfile

    uid = _nobody()
    folder = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        folder.chmod(0o777)
        target = folder / "game.ord"
        text = (Path("samples/classic-2.ord").read_text("utf-8")).replace("1. LH J", "1.  LH J")
        target.write_text(text, "utf-8")
        target.chmod(0o666)
        words = [str(target) if a == "{out}" else a for a in args]
        as_nobody = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        result = subprocess.run(
            [*as_nobody, sys.executable, "-m", "ordonnance_notation", *words],
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).resolve().parent.parent,
        )
        assert result.returncode == 2 and "belongs to another user" in result.stderr
        assert target.stat().st_uid == 0 and target.read_text("utf-8") == text
    finally:
        shutil.rmtree(folder)


@pytest.mark.skipif(
    _nobody() is None or shutil.which("setpriv") is None,
    reason="needs root and setpriv, to run ordo as the user nobody",
)
@pytest.mark.parametrize(
    "args",
    [["fmt"], ["fmt", "--check"], ["convert", "--to", "json"], ["validate"], ["fix"], ["select"]],
    ids=" ".join,
)
def test_a_file_in_a_folder_one_may_not_search_is_e001_not_a_traceback(tmp_path, args):
    """Issue 31, item 12: fmt, fmt --check and convert ended in a raw
    PermissionError (Path.is_file) on such a file."""
    import tempfile

    uid = _nobody()
    folder = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        shutil.copy(Path(__file__).resolve().parent.parent / "samples" / "classic-2.ord", folder)
        folder.chmod(0o700)
        as_nobody = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        command = [sys.executable, "-m", "ordonnance_notation", args[0]]
        result = subprocess.run(
            [*as_nobody, *command, str(folder / "classic-2.ord"), *args[1:]],
            capture_output=True,
            text=True,
            check=False,
        )
        said = result.stdout + result.stderr  # validate reports on standard output
        assert result.returncode == 2 and "Traceback" not in said
        assert "error[E001]: cannot be read: Permission denied" in said
    finally:
        shutil.rmtree(folder)


@pytest.mark.parametrize("name", [n for n in COMMANDS if n not in ("deal", "play")])
def test_an_output_that_is_a_loop_of_links_is_e001(ordo, tmp_path, name):
    """Issue 31, item 12: it was ``internal error: RuntimeError``, exit 3."""
    first, second = tmp_path / "a", tmp_path / "b"
    first.symlink_to(second)
    second.symlink_to(first)
    result = ordo(*_args(name, "samples/classic-2.ord", first), "--force")
    assert result.exit_code == 2, result.output
    assert "error[E001]: cannot be written: Too many levels of symbolic links" in result.output
    assert first.is_symlink() and second.is_symlink()
