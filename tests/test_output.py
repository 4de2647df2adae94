"""files/output.py: writing a file whole or not at all, as the file system expects."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from ordonnance_notation.files.output import ChangedSince, snapshot, write_atomic


def _leftovers(directory):
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_a_file_changed_after_it_was_read_is_not_replaced(tmp_path):
    path = tmp_path / "a.ord"
    path.write_text("old\n")
    read = snapshot(path)
    path.write_text("someone else's edit\n")
    with pytest.raises(ChangedSince):
        write_atomic(path, "formatted\n", overwrite=True, read=read)
    assert path.read_text() == "someone else's edit\n" and _leftovers(tmp_path) == []


def test_an_unchanged_file_is_replaced(tmp_path):
    path = tmp_path / "a.ord"
    path.write_text("old\n")
    write_atomic(path, "new\n", overwrite=True, read=snapshot(path))
    assert path.read_text() == "new\n"


@pytest.mark.skipif(
    not hasattr(os, "chown") or os.geteuid() != 0, reason="only root can give a file away"
)
def test_owner_group_and_mode_are_kept(tmp_path):
    path = tmp_path / "a.ord"
    path.write_text("old\n")
    os.chown(path, 1234, 5678)
    path.chmod(0o640)
    write_atomic(path, "new\n", overwrite=True)
    status = path.stat()
    assert (status.st_uid, status.st_gid, status.st_mode & 0o777) == (1234, 5678, 0o640)


def test_through_a_symbolic_link_the_target_is_written_and_the_link_kept(tmp_path):
    target = tmp_path / "real.ord"
    target.write_text("old\n")
    link = tmp_path / "link.ord"
    link.symlink_to(target)
    write_atomic(link, "new\n", overwrite=True)
    assert link.is_symlink() and target.read_text() == "new\n"


def test_a_hard_link_keeps_the_old_text_under_its_other_name(tmp_path):
    """As documented (docs/limits.md): replacing is atomic, so it is a new file."""
    path = tmp_path / "a.ord"
    path.write_text("old\n")
    other = tmp_path / "b.ord"
    os.link(path, other)
    write_atomic(path, "new\n", overwrite=True)
    assert path.read_text() == "new\n" and other.read_text() == "old\n"


def test_the_file_and_its_directory_are_flushed_to_the_disk(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(os.fstat(fd).st_mode) or real(fd))
    write_atomic(tmp_path / "a.ord", "new\n")
    kinds = ["dir" if (mode & 0o170000) == 0o040000 else "file" for mode in synced]
    assert kinds == ["file", "dir"]


SLOW_WRITER = """
import signal, sys, time
from ordonnance_notation.files.output import write_atomic
# Ctrl-C as on a terminal: a run started in the background (a CI job under
# nohup, say) inherits SIGINT ignored, and Python keeps it so
signal.signal(signal.SIGINT, signal.default_int_handler)
def pieces():
    yield "first\\n"
    print("writing", flush=True)
    time.sleep(30)
    yield "never\\n"
write_atomic(sys.argv[1], pieces(), overwrite=True)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_writing_leaves_the_old_file_and_no_temporary(tmp_path, signum):
    path = tmp_path / "a.ord"
    path.write_text("old\n")
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline() == "writing\n"
    time.sleep(0.1)
    child.send_signal(signum)
    status = child.wait(timeout=20)
    assert status != 0 and (signum != signal.SIGTERM or status == 128 + signum)
    assert path.read_text() == "old\n" and _leftovers(tmp_path) == []


def test_a_discarded_output_leaves_the_old_file_or_none(tmp_path):
    from ordonnance_notation.files.output import output_file

    path = tmp_path / "a.ord"
    with output_file(path) as sink:
        sink.stream.write("never kept\n")
        sink.discard()
    assert not path.exists() and list(tmp_path.iterdir()) == []
    path.write_text("old\n")
    with output_file(path, overwrite=True) as sink:
        sink.stream.write("never kept\n")
        sink.discard()
    assert path.read_text() == "old\n" and _leftovers(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "O_TMPFILE"), reason="unnamed files need O_TMPFILE")
def test_the_file_is_unnamed_while_it_is_written(tmp_path):
    from ordonnance_notation.files import output

    path = tmp_path / "a.ord"
    with output.output_file(path) as sink:
        sink.stream.write("text\n")
        assert list(tmp_path.iterdir()) == []  # nothing a kill could leave behind
    assert path.read_text() == "text\n" and _leftovers(tmp_path) == []
    handle = os.open(tmp_path, os.O_TMPFILE | os.O_RDWR, 0o600)
    try:  # named by linkat, not by the copy that stands in where it cannot be
        assert output._link_open_file(handle, str(tmp_path / "named"))
    finally:
        os.close(handle)


def test_the_temporaries_of_a_process_that_ended_are_removed(tmp_path):
    from ordonnance_notation.files.output import output_file

    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    ).stdout.strip()
    stale = tmp_path / f".a.ord.{ended}.0badf00d.tmp"
    ours = tmp_path / f".a.ord.{os.getpid()}.0badf00d.tmp"  # a run under way: kept
    other = tmp_path / ".a.ord.notours.tmp"
    for path in (stale, ours, other):
        path.write_text("left\n")
    with output_file(tmp_path / "a.ord") as sink:
        sink.stream.write("new\n")
    assert not stale.exists() and ours.exists() and other.exists()


@pytest.mark.parametrize("node", ["/dev/null", "fifo"])
def test_a_file_that_is_not_regular_is_written_through_never_replaced(tmp_path, node):
    from ordonnance_notation.files.output import output_file

    if node == "fifo":
        fifo = tmp_path / "pipe"
        os.mkfifo(fifo)
        reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
        target = str(fifo)
    else:
        link = tmp_path / "null"
        link.symlink_to("/dev/null")  # through a link too: the device is not replaced
        target = str(link)
    before = os.stat(os.path.realpath(target))
    with output_file(target) as sink:  # no --force needed: it is not a file to replace
        sink.stream.write("through\n")
        assert sink.through
    after = os.stat(os.path.realpath(target))
    assert (before.st_ino, before.st_mode) == (after.st_ino, after.st_mode)
    if node == "fifo":
        assert reader.communicate(timeout=10)[0] == "through\n"


def _written_meanwhile(path):
    """A file that another writer puts at ``path`` while this one writes it."""
    from ordonnance_notation.files.output import OutputExists, output_file

    with pytest.raises(OutputExists), output_file(path) as sink:
        sink.stream.write("ours\n")
        path.write_text("theirs\n")
    return path.read_text()


def test_a_file_that_appears_while_writing_without_force_is_kept(tmp_path):
    """Issue 47 item 3: two writers without --force, the later must not replace the earlier."""
    path = tmp_path / "same.ord"
    assert _written_meanwhile(path) == "theirs\n" and _leftovers(tmp_path) == []


def test_without_hard_links_the_rename_does_not_replace_either(tmp_path, monkeypatch):
    import errno

    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, "no hard links here")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "same.ord"
    assert _written_meanwhile(path) == "theirs\n" and _leftovers(tmp_path) == []
    other = tmp_path / "free.ord"
    write_atomic(other, "ours\n")
    assert other.read_text() == "ours\n"


def test_two_games_written_to_one_name_at_once_leave_one_and_an_error(tmp_path):
    path = tmp_path / "same.ord"
    command = [sys.executable, "-m", "ordonnance_notation", "play", "-b", "careful", "-n", "40"]
    runs = [
        subprocess.Popen(
            [*command, "--seed", str(seed), "-o", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in (1, 2)
    ]
    results = [(run.wait(timeout=60), run.stderr.read()) for run in runs]
    assert sorted(status for status, _ in results) == [0, 2], results
    assert "E001" in next(err for status, err in results if status == 2)
    assert path.read_text().count("[Result") == 40


def _signal_state() -> tuple[frozenset[int], dict[int, object]]:
    signums = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGCHLD)
    mask = frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, []))
    return mask, {signum: signal.getsignal(signum) for signum in signums}


@pytest.mark.parametrize("how", ["done", "error", "refused", "signalled"])
def test_the_signals_taken_while_writing_are_given_back_however_it_ends(how):
    """The caller's handlers and mask, exactly, after ``terminated_as_interrupted``
    however its body ends: a signal it may not take (SIGKILL) among those
    asked for used to leave the first taken for good (SIGTERM raising
    SystemExit in a long-lived caller, a language server or a notebook)."""
    from ordonnance_notation.files.output import terminated_as_interrupted

    def mine(signum: int, frame: object) -> None:
        pass

    before = signal.signal(signal.SIGHUP, mine)
    try:
        state = _signal_state()
        signums = (signal.SIGTERM, signal.SIGHUP)
        if how == "refused":
            signums += (signal.SIGKILL,)
        expected = {"done": None, "error": ValueError, "refused": OSError}.get(how, SystemExit)
        try:
            with terminated_as_interrupted(*signums):
                if how == "error":
                    raise ValueError
                if how == "signalled":
                    os.kill(os.getpid(), signal.SIGHUP)
                    time.sleep(1)  # the handler raises at once
                    pytest.fail("SIGHUP did not end the body")
        except BaseException as problem:
            assert expected is not None and isinstance(problem, expected), repr(problem)
            if how == "signalled":
                assert isinstance(problem, SystemExit) and problem.code == 128 + signal.SIGHUP
        else:
            assert expected is None
        assert _signal_state() == state
    finally:
        signal.signal(signal.SIGHUP, before)
