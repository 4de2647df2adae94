"""Checking archives at scale: records are read, checked and reported one at
a time, in input order, on one process or several (``jobs``), or on the
workers of a Dask cluster (``scheduler``: ``cluster.ClusterWorkers``). The
blocks and the ``Workers`` that map a function over them serve every command
that reads archives (convert, fmt, summary, stats) the same way.

``Validation`` is the whole of ``ordo validate`` but its reporting: it
yields a ``Checked`` per record and an ``InputError`` in the place of each
input that cannot be used, and keeps the ``Tally``.

The reading process cuts each file into blocks of whole records (about 64 KB,
cut where a record starts) and sends a block to a worker as one message, or
checks it itself while the workers have enough under way; the worker splits
it into records, parses and validates each, and sends back only verdicts and
diagnostics, never the games. Records are numbered within a block
there and renumbered within the file here, in order. Where a ``{`` comment
could hide a cut, the rest of the file is split here, a record to a block.
Memory holds only the blocks under way.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import chain, islice
from typing import Any, Protocol, TypeVar

from ..diagnostics import (
    Diagnostic,
    InputError,
    Severity,
    SourceError,
    UnreadableSource,
    no_record,
    record_too_long,
)
from ..files.sources import MAX_RECORD, STDIN, expand, open_source, source_name
from ..notation.cutting import can_cut, last_cut, split_lines
from ..notation.parser import parse_record
from .validator import validate


@dataclass(frozen=True, slots=True)
class Task:
    """One record's text, to check."""

    source: str
    index: int
    first_line: int
    text: str
    with_json: bool


@dataclass(frozen=True, slots=True)
class Checked:
    """What the report of one record needs, small enough to send between
    processes: ``task.text`` is kept only when a diagnostic quotes it."""

    task: Task
    diagnostics: tuple[Diagnostic, ...]
    players: str  # " (Anna v Boris)", or "" when the header could not be read
    verdict: str  # "valid, P2 wins (states: P1 2, P2 3)"
    valid: bool
    errors: int
    warnings: int
    json: dict[str, Any] | None

    @property
    def source(self) -> str:
        return self.task.source

    @property
    def index(self) -> int:
        return self.task.index


def check(task: Task) -> Checked | None:
    """Parse and validate one record; None when the text holds only comments."""
    item = parse_record(task.text, task.first_line, task.source, task.index)
    if item is None:
        return None
    report = validate(item)
    if not report.diagnostics:  # the text is sent back only to be quoted
        task = Task(task.source, task.index, task.first_line, "", task.with_json)
    return Checked(
        task,
        report.diagnostics,
        report.players,
        report.verdict,
        report.valid,
        report.count(Severity.ERROR),
        report.count(Severity.WARNING),
        report.to_json() if task.with_json else None,
    )


@dataclass(slots=True)
class Tally:
    """What a run over many inputs came to: inputs read, records, invalid
    records, errors and warnings, and the inputs that could not be used."""

    files: int = 0
    records: int = 0
    invalid: int = 0
    errors: int = 0
    warnings: int = 0
    problems: list[InputError] = field(default_factory=list)

    def add(self, item: Checked | InputError) -> None:
        if isinstance(item, InputError):
            self.problems.append(item)
            self.errors += 1
            return
        self.records += 1
        self.invalid += not item.valid
        self.errors += item.errors
        self.warnings += item.warnings

    @property
    def unreadable(self) -> bool:
        """Whether some input could not be read at all (as opposed to read and found wrong)."""
        return any(isinstance(p, UnreadableSource) for p in self.problems)

    @property
    def all_valid(self) -> bool:
        return not self.invalid and not self.problems


class Validation:
    """``ordo validate`` as a library call: iterate it for each record's
    ``Checked`` and each unusable input, in input order; ``tally`` is complete
    once the iteration is. A readable file that holds no record is an E105
    problem, given after every record."""

    def __init__(
        self,
        paths: Sequence[str],
        jobs: int = 0,
        with_json: bool = False,
        scheduler: str | None = None,
    ) -> None:
        self.paths = list(paths)
        self.jobs = jobs
        self.with_json = with_json
        self.scheduler = scheduler  # a Dask scheduler's address: check there, not on ``jobs``
        self.tally = Tally()

    def __iter__(self) -> Iterator[Checked | InputError]:
        inputs = list(expand(self.paths))
        readable = [path for path in inputs if isinstance(path, str)]
        jobs = self.jobs or default_jobs([path for path in readable if path != STDIN])
        seen: set[str] = set()
        work = input_blocks(inputs, self.tally)
        for item in run(work, jobs, self.with_json, self.scheduler):
            seen.add(item.diagnostic.source if isinstance(item, InputError) else item.source)
            self.tally.add(item)
            yield item
        for empty in unseen(inputs, seen):
            self.tally.add(empty)
            yield empty


class Done(Protocol):
    """What a function mapped over blocks gives back: its input, and how many records it held."""

    @property
    def source(self) -> str: ...

    @property
    def records(self) -> int: ...


D = TypeVar("D", bound=Done)


def over_inputs(
    paths: Sequence[str], function: Callable[[Block], D | InputError], workers: Workers
) -> Iterator[D | InputError]:
    """``function`` over the blocks of ``paths`` (files, directories, ``-``) on
    ``workers``, each result in input order; an input that cannot be used
    (further) as an ``InputError`` in its place, and one without a record as
    E105 after the rest."""
    inputs = list(expand(paths))
    seen: set[str] = set()
    for done in workers.map(function, input_blocks(inputs)):
        if isinstance(done, InputError):
            seen.add(done.diagnostic.source)
        elif done.records:
            seen.add(done.source)
        yield done
    yield from unseen(inputs, seen)


def unseen(inputs: Iterable[str | UnreadableSource], seen: set[str]) -> Iterator[InputError]:
    """E105 for each input read that is not among the sources ``seen`` to hold a
    record or a problem: a readable file without a record."""
    for path in inputs:
        if isinstance(path, str) and source_name(path) not in seen:
            yield InputError(no_record(source_name(path)))


def input_blocks(
    inputs: Iterable[str | UnreadableSource],
    tally: Tally | None = None,
    opener: Callable[[str], Lines] = open_source,
) -> Iterator[Block]:
    """The blocks of every input in turn (``blocks``), each that cannot be
    read as a problem block in its place; ``tally`` counts the files opened,
    ``opener`` opens them (a command that reads standard input twice keeps it).
    With several jobs this runs on the pool's feeding thread: it only yields,
    and every problem travels as a block so that it is reported in its place."""
    for file, path in enumerate(inputs):
        try:
            if isinstance(path, InputError):
                raise path
            source = opener(path)
        except InputError as problem:
            yield problem_block(file, problem)
            continue
        if tally is not None:
            tally.files += 1
        yield from blocks(source, file)


@dataclass(frozen=True, slots=True)
class Block:
    """Lines of one input holding whole records, joined by LF, from its line
    ``first_line`` (one string: it goes to a worker far faster than a list of
    lines); or, with ``problem``, an input that cannot be read (further), in
    its place. ``file`` counts inputs from 0: records are numbered within each."""

    file: int
    source: str
    first_line: int
    text: str
    one_record: bool = False  # the text is one record already split off: not split again
    problem: InputError | None = None


def problem_block(file: int, problem: InputError) -> Block:
    return Block(file, problem.diagnostic.source, 0, "", problem=problem)


class Lines(Protocol):
    """An input read a list of lines at a time: a ``LineSource``, or a ``Source`` held whole."""

    @property
    def name(self) -> str: ...

    def blocks(self) -> Iterator[list[str]]: ...


def blocks(source: Lines, file: int = 0) -> Iterator[Block]:
    """``source`` as blocks of whole records, cut where ``split_lines`` would
    start a record (``last_cut``). That can be told from a line and the one
    above it only while no ``{`` comment can be open: the first ``{`` sends
    the rest of the file a record at a time. A byte that is not UTF-8 ends
    the file with a problem block."""
    pending: list[str] = []  # the text after the last cut, in pieces of whole lines
    held = 0  # characters in pending
    first = 1  # the line number of its first line
    above = ""  # the kind of the last tag or body line read ("tag" or "body")
    read = source.blocks()
    try:
        for lines in read:
            text = "\n".join(lines)
            if not can_cut(text):
                rest = _lines(pending) + lines
                pending = []
                for first_line, record in split_lines(
                    chain(rest, chain.from_iterable(read)), first, source.name, MAX_RECORD
                ):
                    if record.strip():
                        yield Block(file, source.name, first_line, record, one_record=True)
                return
            at, above = last_cut(text, above)
            if at is None:
                pending.append(text)
                held += len(text)
                if held > MAX_RECORD:
                    raise SourceError(record_too_long(source.name, first, MAX_RECORD))
                continue
            whole = "\n".join([*pending, text[:at]])
            yield Block(file, source.name, first, whole)
            first += whole.count("\n") + 1
            pending = [text[at + 1 :]]
            held = len(pending[0])
        if pending:
            yield Block(file, source.name, first, "\n".join(pending))
    except SourceError as problem:
        # as when reading line by line: the records completed before the bad
        # byte (or the record too long) are checked, the one it interrupts is not
        complete = []
        try:
            for chunk in split_lines(
                _then_raise(_lines(pending), problem), first, source.name, MAX_RECORD
            ):
                complete.append(chunk)
        except SourceError as found:  # the same, or where the record too long starts
            problem = found
        for first_line, record in complete:
            if record.strip():
                yield Block(file, source.name, first_line, record, one_record=True)
        yield problem_block(file, problem)


def _lines(pending: list[str]) -> list[str]:
    return "\n".join(pending).split("\n") if pending else []


def _then_raise(lines: list[str], problem: SourceError) -> Iterator[str]:
    """``lines``, then ``problem`` raised, as reading the file line by line does."""
    yield from lines
    raise problem


def block_chunks(block: Block) -> Iterable[tuple[int, str]]:
    """The records of a block as ``(first line, text)`` chunks, as
    ``split_lines`` cuts the whole file (blank ones included)."""
    if block.one_record:
        return [(block.first_line, block.text)]
    return split_lines(block.text.split("\n"), block.first_line)


def check_block(block: Block, with_json: bool = False) -> tuple[int, list[Checked | InputError]]:
    """Records found in ``block`` and the check of each, numbered from 1
    within the block (``run`` renumbers them within their file)."""
    if block.problem is not None:
        return 0, [block.problem]
    results: list[Checked | InputError] = []
    count = 0
    for first_line, text in block_chunks(block):
        if text.strip():
            count += 1
            checked = check(Task(block.source, count, first_line, text, with_json))
            if checked is not None:
                results.append(checked)
    return count, results


def run(
    work: Iterable[Block], jobs: int, with_json: bool = False, scheduler: str | None = None
) -> Iterator[Checked | InputError]:
    """``check_block`` over ``work`` in order, on ``jobs`` processes (1: this
    one) or, given a ``scheduler`` address, on the workers of that Dask
    cluster (``cluster.ClusterWorkers``: raises ``ClusterError`` when it cannot
    be used), with records numbered within their file."""
    sent: deque[int] = deque()  # the file of each block under way, in order

    def noted() -> Iterator[Block]:
        for block in work:
            sent.append(block.file)
            yield block

    done: dict[int, int] = {}  # records so far, by file
    with workers_for(jobs, scheduler) as workers:
        for count, results in workers.map(partial(check_block, with_json=with_json), noted()):
            file = sent.popleft()
            before = done.get(file, 0)
            done[file] = before + count
            for item in results:
                yield (
                    item
                    if isinstance(item, InputError) or not before
                    else _renumbered(item, before)
                )


B = TypeVar("B")
R = TypeVar("R")


class Pool(Protocol):
    """What maps a function over blocks, in order: ``Workers`` (this
    machine's processes) or ``cluster.ClusterWorkers`` (a Dask cluster's)."""

    def __enter__(self) -> Pool: ...

    def __exit__(self, *exc: object) -> None: ...

    def map(self, function: Callable[[B], R], work: Iterable[B]) -> Iterator[R]: ...


def workers_for(jobs: int, scheduler: str | None = None) -> Pool:
    """``Workers(jobs)``, or the workers of the Dask scheduler at ``scheduler``
    (Dask is imported only then)."""
    if scheduler is None:
        return Workers(jobs)
    from .cluster import ClusterWorkers

    return ClusterWorkers(scheduler)


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
    BrokenProcessPool, never a wait for ever."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def map(self, function: Callable[[B], R], work: Iterable[B]) -> Iterator[R]:
        """``function`` over ``work``, each result in order as soon as it is
        done. ``function`` is sent to the workers by name: a module's
        top-level function (or a ``functools.partial`` of one), and what it
        returns is sent back, so it should be small (text, diagnostics,
        verdicts, never games)."""
        if self.jobs <= 1:
            yield from map(function, work)
            return
        work = iter(work)
        first = list(islice(work, 2))
        if len(first) < 2:
            yield from map(function, first)
            return
        if self._pool is None:
            from multiprocessing import get_context

            context = get_context("fork" if hasattr(os, "fork") else "spawn")
            self._pool = ProcessPoolExecutor(self.jobs - 1, mp_context=context)
        fed = 4 * (self.jobs - 1)  # blocks sent and not done that keep the others busy
        under_way: deque[tuple[Future[R], B]] = deque()
        finished = False
        try:
            for block in chain(first, work):
                while under_way and under_way[0][0].done():
                    yield under_way.popleft()[0].result()
                if sum(not future.done() for future, _ in under_way) < fed:
                    under_way.append((self._pool.submit(function, block), block))
                else:
                    under_way.append((_done_here(function, block), block))
                if len(under_way) >= 8 * self.jobs:
                    yield under_way.popleft()[0].result()
            # the input is read: the blocks the others have not begun are done here, last first
            for at in reversed(range(len(under_way))):
                future, block = under_way[at]
                if future.cancel():
                    under_way[at] = (_done_here(function, block), block)
            while under_way:
                yield under_way.popleft()[0].result()
            finished = True
        finally:
            if not finished:  # left before the end: what is under way is not wanted
                for future, _ in under_way:
                    future.cancel()
                self.close()


def _done_here(function: Callable[[B], R], block: B) -> Future[R]:
    """``function(block)`` done in this process, as a future already done, so
    that its result, or its exception, comes in its place among the others."""
    done: Future[R] = Future()
    try:
        done.set_result(function(block))
    except Exception as problem:
        done.set_exception(problem)
    return done


def _renumbered(checked: Checked, before: int) -> Checked:
    """``checked`` with its record number ``before`` higher, in its diagnostics and JSON too."""
    t, c = checked.task, checked
    index = t.index + before
    diagnostics = tuple(replace(d, record=index) for d in c.diagnostics)
    json = c.json
    if json is not None:
        json = {
            **json,
            "record": index,
            "diagnostics": [{**d, "record": index} for d in json["diagnostics"]],
        }
    # the constructors, not dataclasses.replace: this runs for every record, in the reading process
    task = Task(t.source, index, t.first_line, t.text, t.with_json)
    return Checked(task, diagnostics, c.players, c.verdict, c.valid, c.errors, c.warnings, json)


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


def file_tasks(path: str, with_json: bool = False) -> list[Task]:
    """Every record of one file as a task for ``check`` (for distributing work
    with a scheduler such as Dask: one file in, its records out).
    Raises UnreadableSource or SourceError when the file cannot be opened or decoded."""
    source = open_source(path)
    found: list[Task] = []
    for first_line, text in split_lines(source.lines(), 1, source.name, MAX_RECORD):
        if text.strip():
            found.append(Task(source.name, len(found) + 1, first_line, text, with_json))
    return found
