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
