"""Where the blocks are done: this process and its workers (``Workers``), or
a Dask cluster's (``cluster.ClusterWorkers``), results in input order.

Every map routes an input that cannot be used around the function mapped
(``routed``): the function is given blocks of records only, and the
problem comes back in its place. A worker ends with the process that
started it, whatever ends that process (``_bound_to_parent``); SIGINT or
SIGTERM never lands in the middle of the pool's own work (``_ending_held``);
and a map left before its end tells its workers to leave their work
(``Workers._end``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor, Future, wait
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from ..diagnostics import InputError
from ..making.protocol import START_SECONDS

if TYPE_CHECKING:  # the pool is imported when it starts: multiprocessing costs every start-up
    from concurrent.futures import ProcessPoolExecutor

B = TypeVar("B")
R = TypeVar("R")


class Pool(Protocol):
    """What maps a function over blocks, in order: ``Workers`` (this
    machine's processes) or ``cluster.ClusterWorkers`` (a Dask cluster's)."""

    def __enter__(self) -> Pool: ...

    def __exit__(self, *exc: object) -> None: ...

    def map(
        self, function: Callable[[B], R], work: Iterable[B | InputError]
    ) -> Iterator[R | InputError]: ...


class Workers:
    """Processes to map a function over blocks on, in order: ``jobs`` of them,
    this one among them, which reads the blocks, gathers the results and
    does a block itself whenever the other ``jobs - 1`` have enough under way
    (so ``jobs`` busy processes, never one more than the cores asked for).
    The pool of the others starts with the first input of more than one
    block (one block is done here: sending it would cost more than it
    saves), serves every input after it, and ends with the ``with``. Only
    the blocks under way and their results are held: a few per worker. A
    worker that dies (killed, out of memory) ends the map with
    BrokenProcessPool, never a wait for ever. A map left before its end
    (Ctrl-C, an error, a reader that stopped) ends the workers rather than
    wait for blocks no longer wanted (``_end``)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self.close()
        else:  # an exception: what the workers do is not wanted, even if a map is held still
            self._end()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def map(
        self, function: Callable[[B], R], work: Iterable[B | InputError]
    ) -> Iterator[R | InputError]:
        """``function`` over ``work`` (``routed``), each result in order as soon as it is
        done. ``function`` is sent to the workers by name: a module's
        top-level function (or a ``functools.partial`` of one), and what it
        returns is sent back, so it should be small (text, diagnostics,
        verdicts, never games)."""
        return routed(self._map, function, work)

    def _map(self, function: Callable[[B], R], work: Iterable[B]) -> Iterator[R]:
        if self.jobs <= 1:
            yield from map(function, work)
            return
        work = iter(work)
        first = list(islice(work, 2))
        if len(first) < 2:
            yield from map(function, first)
            return
        if self._pool is None:
            from concurrent.futures import ProcessPoolExecutor
            from multiprocessing import get_context

            context = get_context("fork" if hasattr(os, "fork") else "spawn")
            self._pool = ProcessPoolExecutor(
                self.jobs - 1,
                mp_context=context,
                initializer=_bound_to_parent,
                initargs=(os.getpid(),),
            )
        fed = 4 * (self.jobs - 1)  # blocks sent and not done that keep the others busy
        under_way: deque[tuple[Future[R], B]] = deque()
        finished = False
        try:
            for block in chain(first, work):
                while under_way and under_way[0][0].done():
                    yield self._awaited(under_way.popleft()[0])
                if sum(not future.done() for future, _ in under_way) < fed:
                    with _ending_held():
                        future = self._pool.submit(_in_worker, function, block)
                    under_way.append((future, block))
                else:
                    under_way.append((_done_here(function, block), block))
                if len(under_way) >= 8 * self.jobs:
                    yield self._awaited(under_way.popleft()[0])
            # the input is read: the blocks the others have not begun are done here, last first
            for at in reversed(range(len(under_way))):
                future, block = under_way[at]
                if future.cancel():
                    under_way[at] = (_done_here(function, block), block)
            while under_way:
                yield self._awaited(under_way.popleft()[0])
            finished = True
        finally:
            if not finished:  # left before the end: what is under way is not wanted
                self._end()

    def _end(self) -> None:
        """The workers ended, not waited for: the pool drops the blocks not
        sent, each worker is asked to leave its block and skip those already
        sent (``LEAVE``, ``_in_worker``), so that the pool ends as usual, at
        once; if it has not within ENDING_SECONDS, the workers are killed. A
        block of best-play analysis can take minutes."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        parts = _Parts.of(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in parts.processes:
            with contextlib.suppress(ProcessLookupError, TypeError):  # TypeError: never started
                os.kill(process.pid, LEAVE)
        try:
            _waited(parts.manager, ENDING_SECONDS)
        finally:  # a second Ctrl-C while waiting kills the workers at once
            if parts.manager is None or parts.manager.ident is None or parts.manager.is_alive():
                _broken(parts)

    def _awaited(self, future: Future[R]) -> R:
        """``future.result()``, or BrokenProcessPool as soon as a worker has
        died. The pool sees that by itself, unless the worker died while
        sending a result: then it waits for the rest for ever, since this
        process holds the pipe open too (CPython's ProcessPoolExecutor, 3.11
        to 3.13), so the workers left are ended and that end closed, which
        lets the pool see it broken. Its thread is let finish failing the
        work under way before anything else is done with that work. A worker
        sent LEAVE from outside gives back ``Ended``: broken too."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            while not future.done():
                wait([future], timeout=0.25)
                if not future.done() and _a_worker_died(self._pool):
                    raise BrokenProcessPool("a worker ended before its work was done")
            return future.result()
        except BrokenExecutor:
            _broken(_Parts.of(self._pool))
            raise
        except Ended:
            raise BrokenProcessPool("a worker was asked to end before its work was done") from None


def _done_here(function: Callable[[B], R], block: B) -> Future[R]:
    """``function(block)`` done in this process, as a future already done, so
    that its result, or its exception, comes in its place among the others."""
    done: Future[R] = Future()
    try:
        done.set_result(function(block))
    except Exception as problem:
        done.set_exception(problem)
    return done


def _a_worker_died(pool: ProcessPoolExecutor | None) -> bool:
    return any(process.exitcode is not None for process in _Parts.of(pool).processes)


class _Parts(NamedTuple):
    """What of a pool is ended when it breaks (``_broken``), taken before
    ``shutdown`` lets go of it."""

    processes: list[Any]
    results: Any
    blocks: Any
    manager: threading.Thread | None

    @classmethod
    def of(cls, pool: ProcessPoolExecutor | None) -> _Parts:
        return cls(
            list((getattr(pool, "_processes", None) or {}).values()),
            getattr(pool, "_result_queue", None),
            getattr(pool, "_call_queue", None),
            getattr(pool, "_executor_manager_thread", None),
        )


def _broken(parts: _Parts) -> None:
    """Every worker of a pool ended, this process's end of the pipe of
    results closed, and the pool's thread waited for (a few seconds at
    most) while it fails the work under way: ``Workers._awaited``. Then this
    process's end of the pipe of blocks is closed, if the pool's thread has
    not (it fails before, on a block taken back: CPython 3.11), so that the
    thread writing blocks to workers that are gone fails rather than wait
    for ever."""
    for process in parts.processes:
        process.kill()
    if parts.results is not None:
        parts.results._writer.close()
    _waited(parts.manager, 5)
    if parts.blocks is not None and not parts.blocks._reader.closed:
        parts.blocks._reader.close()


def _waited(thread: threading.Thread | None, seconds: float) -> None:
    """Until ``thread`` has ended, ``seconds`` at most. Not ``join``: an
    exception raised in ``join`` (Ctrl-C) marks the thread as ended while it
    runs (CPython 3.10 to 3.12), and at exit the pool's workers are then
    waited for with no one left to end them."""
    deadline = time.monotonic() + seconds
    while thread is not None and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)


def default_jobs(paths: list[str]) -> int:
    """Every core for inputs of a megabyte or more; one process below that,
    where starting workers would cost more than it saves."""
    size = 0
    for path in paths:
        try:
            size += os.path.getsize(path)
        except OSError:
            continue
    return (os.cpu_count() or 1) if size >= 1 << 20 else 1


def routed(
    map_: Callable[[Callable[[B], R], Iterable[B]], Iterator[R]],
    function: Callable[[B], R],
    work: Iterable[B | InputError],
) -> Iterator[R | InputError]:
    """``map_(function, ...)`` over the items of ``work`` that are not an
    ``InputError``, and each ``InputError`` given in its place among the
    results: the one place where a problem goes around the work."""
    places: deque[InputError | None] = deque()  # what comes next: a problem, or a result

    def only_work() -> Iterator[B]:
        for item in work:
            if isinstance(item, InputError):
                places.append(item)
            else:
                places.append(None)
                yield item

    for result in map_(function, only_work()):
        while (problem := places.popleft()) is not None:
            yield problem
        yield result
    yield from (problem for problem in places if problem is not None)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


# to a worker: leave the block under way, skip those sent (_in_worker); where there is no
# SIGUSR1 (Windows), the worker is ended
LEAVE = getattr(signal, "SIGUSR1", signal.SIGTERM)
HELD = {signal.SIGINT, signal.SIGTERM, LEAVE}
ENDING_SECONDS = START_SECONDS + 2  # a match's bots are given START_SECONDS to quit


@contextlib.contextmanager
def _ending_held() -> Iterator[None]:
    """SIGINT, SIGTERM and LEAVE blocked while the body runs, then let
    through: the pool forks its workers and starts its thread in
    ``submit``, and the exception a handler raises there is lost in the
    fork's hooks (ordo then goes on as if never asked to end) or leaves the
    pool half started (so that it never shuts down). The threads the pool
    starts, and its workers, begin with them blocked too; each worker lets
    them through once its handlers are in place (``_bound_to_parent``)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:  # a handler may raise in pthread_sigmask itself, once the mask is changed
        signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class Ended(BaseException):
    """What a worker asked to end gives back for a block: the block was
    left, or skipped."""


class _Worker:
    """Where this worker is: doing a block, asked to end, its block told so."""

    working = False
    ending = False
    told = False


def _in_worker(function: Callable[[B], R], block: B) -> R:
    """``function(block)`` in a worker; once the worker is asked to end
    (``LEAVE``), ``Ended`` instead, at once: the block under way is left
    (its ``finally`` clauses run) and the blocks sent after it are skipped,
    so that the pool ends as it does at the end of a map."""
    _Worker.working = True
    try:
        if _Worker.ending:
            raise Ended
        return function(block)
    finally:
        _Worker.working = False


def _asked_to_end(signum: int, frame: object) -> None:
    """LEAVE in a worker: see ``_in_worker``. The block under way is told
    once; a block begun after it sees ``ending``."""
    _Worker.ending = True
    if _Worker.working and not _Worker.told:
        _Worker.told = True
        raise Ended


def _bound_to_parent(parent: int) -> None:
    """Run in each worker as it starts: the worker ends when the process
    that started it ends, however it ends (SIGKILL too). On Linux the kernel
    sends the signal (``PR_SET_PDEATHSIG``); elsewhere a thread looks for
    the parent twice a second. Ctrl-C is left to the parent, which ends
    its workers (``Workers._end``); SIGTERM ends the worker (the parent
    says so, E008); LEAVE leaves the block (``_asked_to_end``). Those
    signals, blocked while the worker was forked (``_ending_held``), are
    let through once the handlers are in place."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(LEAVE, _asked_to_end)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # it ended before the signal was asked for
                os._exit(1)
            return
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        threading.Event().wait(0.5)
    os._exit(1)
