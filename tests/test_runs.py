"""The run layer (runs/): blocks of records, the workers that map a verb over
them, and the validation run.

The reading process cuts files into blocks without splitting them into
records; workers split each block. The records they find, and the numbers
they end up with, must be exactly those of splitting the whole file.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import ROOT, alive, any_text, fuzz, valid_records

from ordonnance_notation.diagnostics import Diagnostic, InputError, SourceError, UnreadableSource
from ordonnance_notation.files import sources
from ordonnance_notation.files.sources import LineSource
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import game_text, play_game
from ordonnance_notation.notation.cutting import split_lines
from ordonnance_notation.runs.blocks import blocks
from ordonnance_notation.runs.validation import checked as run
from ordonnance_notation.runs.validation import validate_block
from ordonnance_notation.runs.workers import Workers


def records_of_blocks(data: bytes) -> list[tuple[int, str]]:
    found = []
    for block in blocks(LineSource("t.ord", io.BytesIO(data)), 0):
        if isinstance(block, InputError):
            found.append((0, block.diagnostic.code))
        elif block.one_record:
            found.append((block.first_line, block.text))
        else:
            found += [
                chunk
                for chunk in split_lines(block.text.split("\n"), block.first_line)
                if chunk[1].strip()
            ]
    return found


def records_of_file(data: bytes) -> list[tuple[int, str]]:
    lines = LineSource("t.ord", io.BytesIO(data)).lines()
    found = []
    try:
        for chunk in split_lines(lines):
            if chunk[1].strip():
                found.append(chunk)
    except SourceError as problem:
        found.append((0, problem.diagnostic.code))
    return found


@pytest.fixture(params=[64, 1 << 16], ids=["64-byte blocks", "64-KB blocks"])
def block_size(request, monkeypatch):
    monkeypatch.setattr(sources, "BLOCK", request.param)
    return request.param


@fuzz(150)
@given(
    st.one_of(any_text, valid_records, st.lists(valid_records, max_size=4).map("\n\n".join)),
    st.data(),
)
def test_blocks_hold_the_records_of_the_whole_file(text, draw):
    data = text.encode()
    if data and draw.draw(st.booleans()):  # a byte that is not UTF-8 somewhere
        at = draw.draw(st.integers(0, len(data)))
        data = data[:at] + b"\xff" + data[at:]
    with pytest.MonkeyPatch.context() as patch:
        for size in (64, 1 << 16):
            patch.setattr(sources, "BLOCK", size)
            assert records_of_blocks(data) == records_of_file(data)


SEPARATORS = [
    "\n",
    "\n\n",
    "\n; a comment\n",
    "\n \t\n",
    "\n\x0b\n",
    "\n;c\n\n",
    "\n\n\n; c\n",
    '\n   [X "y"]\n',
]


@fuzz(100)
@given(
    st.lists(st.tuples(valid_records, st.sampled_from(SEPARATORS)), min_size=1, max_size=5),
    st.sampled_from([64, 500, 1 << 16]),
)
def test_blocks_cut_where_records_meet_in_any_way(parts, size):
    """Records one right after another, or apart by blank, blank-looking and
    comment lines: the cuts are those of splitting the whole file."""
    data = "".join(record.rstrip("\n") + separator for record, separator in parts).encode()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sources, "BLOCK", size)
        assert records_of_blocks(data) == records_of_file(data)


def test_records_without_blank_lines_between_are_still_cut(block_size):
    record = '[P1 "a"]\n[P2 "b"]\n[Result "unfinished"]\n1. L A\n'
    data = (record * 300).encode()
    cut = list(blocks(LineSource("t.ord", io.BytesIO(data)), 0))
    assert len(cut) > 1
    assert records_of_blocks(data) == records_of_file(data) and len(records_of_file(data)) == 300


def test_records_opened_by_comment_lines_are_cut_above_the_comments(block_size):
    """The annotated sample's shape: "; notes" right above each header."""
    record = '; a game\n;  its notes\n[P1 "a"]\n[P2 "b"]\n[Result "unfinished"]\n\n1. L A\n'
    for separator in ("", "\n"):
        data = ((record + separator) * 300).encode()
        cut = list(blocks(LineSource("t.ord", io.BytesIO(data)), 0))
        assert len(cut) > 1 and all(block.text.startswith("; a game") for block in cut)
        assert (
            records_of_blocks(data) == records_of_file(data) and len(records_of_file(data)) == 300
        )


def test_clean_archives_are_cut_into_several_blocks(block_size):
    record = '[P1 "a"]\n[P2 "b"]\n[Result "unfinished"]\n\n1. L A\n2. B C\n\n'
    data = (record * 200).encode()
    cut = list(blocks(LineSource("t.ord", io.BytesIO(data)), 0))
    assert len(cut) > 1 and not any(block.one_record for block in cut)
    assert sum(validate_block(block)[0] for block in cut) == 200


def test_a_brace_sends_the_rest_of_the_file_a_record_at_a_time(block_size):
    record = '[P1 "a"]\n[P2 "b"]\n[Result "unfinished"]\n\n1. L A {a note}\n\n'
    data = (record * 50).encode()
    cut = list(blocks(LineSource("t.ord", io.BytesIO(data)), 0))
    assert all(block.one_record for block in cut) and len(cut) == 50


def test_records_are_numbered_within_their_file_across_blocks_and_processes(monkeypatch):
    monkeypatch.setattr(sources, "BLOCK", 200)
    # E413 and W501: an unfinished game said won
    record = '[P1 "a"]\n[P2 "b"]\n[Result "P1"]\n\n1. L A\n\n'
    data = (record * 30).encode()
    for jobs in (1, 2):
        work = [
            *blocks(LineSource("a.ord", io.BytesIO(data)), 0),
            *blocks(LineSource("b.ord", io.BytesIO(data)), 1),
        ]
        checked = [c for c in run(work, jobs, with_json=True) if c is not None]
        assert [(c.task.source, c.task.index) for c in checked] == [
            ("a.ord", n) for n in range(1, 31)
        ] + [("b.ord", n) for n in range(1, 31)]
        assert all({d.record for d in c.diagnostics} == {c.task.index} for c in checked)
        assert all(c.json["record"] == c.task.index for c in checked)
        assert all(d["record"] == c.task.index for c in checked for d in c.json["diagnostics"])


def test_a_problem_is_reported_in_its_place():
    problem = UnreadableSource(Diagnostic("E001", "no such file", "gone.ord"))
    [reported] = list(run([problem], 1))
    assert reported is problem
    reported, again = run([problem, problem], 2)
    assert reported is problem and again is problem


def _no_problem(item: int) -> int:
    assert not isinstance(item, InputError), "a problem reached the verb"
    return -item


@pytest.mark.parametrize("jobs", [1, 2])
def test_problems_go_around_the_verb_and_come_back_in_their_place(jobs):
    gone = UnreadableSource(Diagnostic("E001", "no such file", "gone.ord"))
    work: list[int | InputError] = [gone, 1, 2, gone, gone, *range(3, 30), gone]
    with Workers(jobs) as workers:
        done = list(workers.map(_no_problem, work))
    assert done == [gone, -1, -2, gone, gone, *range(-3, -30, -1), gone]
    with Workers(jobs) as workers:
        assert list(workers.map(_no_problem, [gone])) == [gone]


def test_workers_map_in_order_and_keep_one_block_here():
    with Workers(2) as workers:
        assert list(workers.map(abs, [-3])) == [3] and workers._pool is None
        assert list(workers.map(abs, range(0, -40, -1))) == list(range(40))
        pool = workers._pool
        assert pool is not None and pool._max_workers == 1  # this process is the other job
        assert list(workers.map(str, range(5))) == ["0", "1", "2", "3", "4"]
        assert workers._pool is pool  # one pool for every input
        left = workers.map(abs, range(-10, 0))
        assert next(left) == 10
        left.close()  # an input left before its end: its pool is not used again
        assert workers._pool is None
    with Workers(1) as workers:
        assert list(workers.map(abs, range(-5, 0))) == [5, 4, 3, 2, 1] and workers._pool is None


def _whose(block: int) -> tuple[int, int]:
    time.sleep(0.005)
    return block, os.getpid()


def _fails_on_seven(block: int) -> int:
    if block == 7:
        raise ValueError(block)
    return block


def test_the_reading_process_is_one_of_the_jobs():
    with Workers(2) as workers:
        done = list(workers.map(_whose, range(60)))
    assert [block for block, _ in done] == list(range(60))
    assert {pid for _, pid in done} - {os.getpid()}, "no block went to the worker"
    assert os.getpid() in {pid for _, pid in done}, "the reading process did no block"
    with Workers(2) as workers:  # a failure comes in its place, wherever it was done
        results = workers.map(_fails_on_seven, range(30))
        assert [next(results) for _ in range(7)] == list(range(7))
        with pytest.raises(ValueError, match="7"):
            next(results)


@given(st.text(st.sampled_from("ab\n"), max_size=40), st.integers(1, 8))
def test_a_held_source_gives_its_lines_in_blocks(text, size):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sources, "BLOCK", size)
        held = list(sources.Source("t", text).blocks())
    assert [line for block in held for line in block] == text.split("\n")
    # cut at the first line end after ``BLOCK`` characters
    assert all(len("\n".join(block[:-1])) < size <= len("\n".join(block)) for block in held[:-1])


def test_statistics_merged_block_by_block_are_those_of_the_whole_file(played):
    from ordonnance_notation.checking.validator import validate
    from ordonnance_notation.notation.parser import parse_lines
    from ordonnance_notation.views.stats import Stats, collect, stats_block

    source = sources.open_source(played("syntax"))
    whole = collect(validate(item) for item in parse_lines(source.lines(), source.name))
    merged = Stats()
    cut = list(blocks(sources.open_source(played("syntax"))))
    assert len(cut) > 1
    for block in cut:
        part = stats_block(block)
        assert isinstance(part, Stats)
        merged.merge(part)
    assert merged.to_json() == whole.to_json() and merged.skipped == 1
    assert list(merged.to_json()["deciding_steps"]) == list(whole.to_json()["deciding_steps"])


_TESTS = os.getpid()


def _dies_after_the_third(block: int) -> int:
    if block >= 3 and os.getpid() != _TESTS:  # a worker, not the process that reads
        os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would
    return block * 2


def test_a_worker_that_dies_ends_the_map_instead_of_a_wait_for_ever():
    from concurrent.futures.process import BrokenProcessPool

    started = time.monotonic()
    with Workers(2) as workers, pytest.raises(BrokenProcessPool):
        list(workers.map(_dies_after_the_third, range(50)))
    assert time.monotonic() - started < 60


def _slow(block: int) -> int:
    time.sleep(3)
    return block


@pytest.mark.slow  # a block of 3 s first
def test_an_exception_out_of_the_with_ends_the_workers_without_waiting():
    """A map still held when an exception leaves the ``with`` (a reader
    gone: BrokenPipeError): the workers leave their blocks, and those sent
    to them, rather than finish them (3 s each)."""
    with pytest.raises(BrokenPipeError), Workers(2) as workers:
        done = workers.map(_slow, range(20))
        next(done)
        started = time.monotonic()
        raise BrokenPipeError
    assert time.monotonic() - started < 2


def _slow_to_leave(block: int) -> int:
    if os.getpid() == _TESTS:  # the process that reads: a block of its own is short
        return block
    try:
        time.sleep(60)
    finally:
        time.sleep(30)  # a block that takes long to leave (a bot slow to quit)
    return block


_CTRL_C_TWICE = """
import signal, sys
sys.path.insert(0, {tests!r})
signal.signal(signal.SIGINT, signal.default_int_handler)
import test_runs
from ordonnance_notation.runs.workers import Workers
test_runs._TESTS = test_runs.os.getpid()
with Workers(2) as workers:
    list(workers.map(test_runs._slow_to_leave, range(10)))
"""


@pytest.mark.slow  # workers started twice
def test_ctrl_c_twice_kills_the_workers_that_are_slow_to_leave(tmp_path):
    """The second Ctrl-C, while ordo waits for its workers to leave their
    blocks, kills them; it used to mark the pool's thread as ended, and the
    exit then waited for ever for workers no one would end."""
    child = subprocess.Popen(
        [sys.executable, "-c", _CTRL_C_TWICE.format(tests=str(ROOT / "tests"))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        cwd=tmp_path,
    )
    workers = _workers_of(child)
    time.sleep(1)
    os.killpg(child.pid, signal.SIGINT)
    time.sleep(1)
    assert _ended_by_ctrl_c(child) < 10
    time.sleep(1)
    assert not [pid for pid in workers if alive(pid)], "a worker outlived its parent"


def _ended_by_ctrl_c(child: subprocess.Popen[bytes]) -> float:
    """Ctrl-C to ``child``'s group, as a terminal sends it: the seconds until
    it ended (within 30 s; its group is killed whatever happens)."""
    started = time.monotonic()
    os.killpg(child.pid, signal.SIGINT)
    try:
        child.wait(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
    return time.monotonic() - started


class _KilledWhileSent:
    """Pickled after a large result: its worker is killed 10 ms later, while
    that result is being sent."""

    def __reduce__(self):
        threading.Timer(0.01, os.kill, (os.getpid(), signal.SIGKILL)).start()
        return (int, ())


def _dies_while_sending(block: int) -> object:
    if block == 3 and os.getpid() != _TESTS:
        return (b"x" * (256 << 20), _KilledWhileSent())
    return block


_KILLED_WHILE_SENDING = """
import sys, time
sys.path.insert(0, {tests!r})
import test_runs
from ordonnance_notation.runs.workers import Workers
started = time.monotonic()
try:
    with Workers(2) as workers:
        list(workers.map(test_runs._dies_while_sending, range(40)))
except Exception as problem:
    print(type(problem).__name__, round(time.monotonic() - started))
"""


def _python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``code`` run by a Python process of its own, in ``cwd``: what it printed."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        check=False,
    )


@pytest.mark.slow  # waits for the pool to see the death
def test_a_worker_killed_while_sending_its_result_ends_the_map(tmp_path):
    """Issue 31, item 4: the pool waited for the rest of the result for ever."""
    done = _python(_KILLED_WHILE_SENDING.format(tests=str(ROOT / "tests")), tmp_path)
    assert done.stdout.split()[0] == "BrokenProcessPool", done.stdout + done.stderr
    assert int(done.stdout.split()[1]) < 10 and not done.stderr


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_ordo_says_so_when_a_worker_is_killed(tmp_path, how):
    """A worker of validate --jobs 2 killed or ended from outside: E008 and exit 2, soon."""
    path = tmp_path / "big.ord"
    game = game_text(play_game("kill", ["random", "random"], load_deck()))
    path.write_text("\n".join([game] * 6000), "utf-8")
    child = subprocess.Popen(
        [sys.executable, "-m", "ordonnance_notation", "validate", "--jobs", "2", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"},
    )
    workers = _workers_of(child)
    os.kill(workers[0], how)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 2, err
    page = (ROOT / "docs" / "diagnostics.md").read_text("utf-8")
    assert err.startswith("ordo: error[E008]") and err in page  # as docs/diagnostics.md shows it


_ENDED_WHILE_FORKING = """
import os, signal
from ordonnance_notation.runs.workers import Workers

def ended(signum, frame):
    raise SystemExit(128 + signum)

signal.signal(signal.SIGTERM, ended)
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGTERM))
with Workers(2) as workers:
    done = list(workers.map(abs, range(100)))
print("went on to the end:", len(done))
"""


def test_a_signal_that_arrives_while_the_workers_are_forked_still_ends_the_process(tmp_path):
    """SIGTERM while the pool forked: its handler's exception was lost in the
    fork's hooks, and the export went on to the end (or the pool was left
    half started and never shut down)."""
    done = _python(_ENDED_WHILE_FORKING, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (143, "", "")


def _children(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in children.read_text().split()] if children.exists() else []


def _workers_of(child: subprocess.Popen[bytes] | subprocess.Popen[str]) -> list[int]:
    """The worker processes of ``child``, once they have started (with its second block)."""
    for _ in range(400):
        time.sleep(0.025)
        workers = _children(child.pid)
        if workers or child.poll() is not None:
            break
    assert workers, "no worker process started"
    return workers


@pytest.mark.slow  # ordo and its workers, killed
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds workers through /proc")
@pytest.mark.parametrize(
    "command",
    [
        ["validate"],
        pytest.param(["summary", "--no-decided"], marks=pytest.mark.slow),
        pytest.param(["export", "-o", "{out}/tables"], marks=pytest.mark.slow),
        ["convert", "--to", "json"],
    ],
    ids=lambda command: command[0],
)
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_end_with_the_process_that_started_them(tmp_path, command, how):
    path = tmp_path / "big.ord"
    game = game_text(play_game("orphans", ["random", "random"], load_deck()))
    path.write_text("\n".join([game] * 3000), "utf-8")
    args = [word.replace("{out}", str(tmp_path)) for word in command]
    child = subprocess.Popen(
        [sys.executable, "-m", "ordonnance_notation", *args, "--jobs", "2", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers = _workers_of(child)
    child.send_signal(how)
    child.wait(timeout=30)
    time.sleep(1)
    assert not [pid for pid in workers if alive(pid)], "a worker outlived ordo"


# ordo as a terminal starts it: Ctrl-C raises KeyboardInterrupt (a shell's
# background job, as the tests may be, starts with SIGINT ignored)
_WITH_CTRL_C = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('ordonnance_notation', run_name='__main__', alter_sys=True)"
)


@pytest.mark.slow  # ordo with workers, interrupted
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds workers through /proc")
def test_ctrl_c_ends_ordo_and_its_workers_at_once(tmp_path):
    """Ctrl-C (SIGINT to the whole group, as a terminal sends it) in the
    middle of best play on workers: ordo ends within moments, as Ctrl-C
    ends it (130, nothing on stderr), with none of its workers left; it
    used to wait for the blocks under way and those sent, minutes of search."""
    record = (ROOT / "samples" / "classic-2.ord").read_text("utf-8")
    path = tmp_path / "many.ord"
    path.write_text("\n\n".join([record] * 240), "utf-8")
    child = subprocess.Popen(
        [sys.executable, "-c", _WITH_CTRL_C, "analyse", "--best-play"]
        + ["--budget", "5", "--jobs", "2", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    workers = _workers_of(child)
    time.sleep(1)  # into the search
    assert _ended_by_ctrl_c(child) < 10
    assert (child.returncode, child.stderr.read()) == (130, b"")
    time.sleep(1)
    assert not [pid for pid in workers if alive(pid)], "a worker outlived ordo"
