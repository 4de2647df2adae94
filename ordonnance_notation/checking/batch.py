"""Validating archives at scale: records are read, checked and reported one at
a time, in input order, on one process or several (``jobs``).

The reading process cuts each file into blocks of whole records (about 64 KB,
cut at a tag line after an empty line) and sends a block to a worker as one
message; the worker splits it into records, parses and validates each, and
sends back only verdicts and diagnostics, never the games. Records are
numbered within a block there and renumbered within the file here, in order.
Where a ``{`` comment could hide a cut, the rest of the file is split here,
a record to a block. Memory holds only the blocks under way.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import chain

from ..diagnostics import Diagnostic, Severity
from ..files.sources import LineSource, SourceProblem, open_source
from ..notation.cutting import has_content, last_cut, split_lines
from ..notation.parser import parse_record
from ..views.report import players, report_json, verdict
from .validator import validate


@dataclass(frozen=True, slots=True)
class Task:
    source: str
    index: int
    first_line: int
    text: str
    with_json: bool
    problem: Diagnostic | None = None  # an input that could not be read, reported in its place
    shown: str | None = None  # the problem's source line, when there is one to show


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
    json: dict | None


def check(task: Task) -> Checked | None:
    """Parse and validate one record; None when the text holds only comments."""
    if task.problem is not None:
        return Checked(task, (), "", "", False, 0, 0, None)
    item = parse_record(task.text, task.first_line, task.source, task.index)
    if item is None:
        return None
    report = validate(item)
    return Checked(
        task
        if report.diagnostics
        else replace(task, text=""),  # the text travels back only to be quoted
        report.diagnostics,
        players(report),
        verdict(report),
        report.valid,
        report.count(Severity.ERROR),
        report.count(Severity.WARNING),
        report_json(report) if task.with_json else None,
    )


def tasks(source: LineSource, with_json: bool) -> Iterator[Task]:
    """A task per record of ``source``; a byte that is not UTF-8 ends the file
    with a problem task (E002) in its place."""
    index = 0
    try:
        for first_line, text in split_lines(source.lines()):
            if text.strip():
                index += 1
                yield Task(source.name, index, first_line, text, with_json)
    except SourceProblem as problem:
        yield Task(source.name, 0, 0, "", with_json, problem.diagnostic, problem.shown)


@dataclass(frozen=True, slots=True)
class Block:
    """Lines of one input holding whole records, from its line ``first_line``;
    or, with ``problem``, an input that cannot be read (further), in its place.
    ``file`` counts inputs from 0: records are numbered within each."""

    file: int
    source: str
    first_line: int
    lines: list[str]
    with_json: bool
    one_record: bool = False  # the lines are one record already split off: not split again
    problem: Diagnostic | None = None
    shown: str | None = None


def problem_block(
    file: int, problem: Diagnostic, with_json: bool, shown: str | None = None
) -> Block:
    return Block(file, problem.source, 0, [], with_json, problem=problem, shown=shown)


def blocks(source: LineSource, file: int, with_json: bool) -> Iterator[Block]:
    """``source`` as blocks of whole records, cut where ``split_lines`` would
    start a record (``_last_cut``). That can be told from a line and the one
    above it only while no ``{`` comment can be open: the first ``{`` sends
    the rest of the file a record at a time. A byte that is not UTF-8 ends
    the file with a problem block."""
    pending: list[str] = []  # lines after the last cut
    first = 1  # the line number of pending[0]
    content = False  # whether pending holds a tag or body line
    read = source.blocks()
    try:
        for lines in read:
            text = "\n".join(lines)
            if "{" in text:
                rest, pending = pending + lines, []
                for first_line, record in split_lines(
                    chain(rest, chain.from_iterable(read)), first
                ):
                    if record.strip():
                        yield Block(
                            file, source.name, first_line, [record], with_json, one_record=True
                        )
                return
            at = last_cut(text, content)
            if at is None:
                pending += lines
                content = content or has_content(text)
                continue
            cut = text.count("\n", 0, at) + 1  # the index of the record's first line in ``lines``
            yield Block(file, source.name, first, pending + lines[:cut], with_json)
            first += len(pending) + cut
            pending = lines[cut:]
            content = has_content(text, at + 1)
        if pending:
            yield Block(file, source.name, first, pending, with_json)
    except SourceProblem as problem:
        # as when reading line by line: the records completed before the bad
        # byte are checked, the one it interrupts is not
        complete = [chunk for chunk in split_lines(pending, first) if chunk[1].strip()][:-1]
        for first_line, record in complete:
            yield Block(file, source.name, first_line, [record], with_json, one_record=True)
        yield problem_block(file, problem.diagnostic, with_json, problem.shown)


def check_block(block: Block) -> tuple[int, list[Checked | None]]:
    """Records found in ``block`` and the check of each, numbered from 1
    within the block (``run`` renumbers them within their file)."""
    if block.problem is not None:
        task = Task(block.source, 0, 0, "", block.with_json, block.problem, block.shown)
        return 0, [check(task)]
    results: list[Checked | None] = []
    records = (
        [(block.first_line, block.lines[0])]
        if block.one_record
        else split_lines(block.lines, block.first_line)
    )
    for first_line, text in records:
        if text.strip():
            results.append(
                check(Task(block.source, len(results) + 1, first_line, text, block.with_json))
            )
    return len(results), results


def run(work: Iterable[Block], jobs: int) -> Iterator[Checked | None]:
    """``check_block`` over ``work`` in order, on ``jobs`` processes (1: this
    one), with records numbered within their file."""
    sent: deque[int] = deque()  # the file of each block under way, in order

    def noted() -> Iterator[Block]:
        for block in work:
            sent.append(block.file)
            yield block

    done: dict[int, int] = {}  # records so far, by file
    for count, results in _checked(noted(), jobs):
        file = sent.popleft()
        before = done.get(file, 0)
        done[file] = before + count
        for checked in results:
            yield checked if checked is None or not before else _renumbered(checked, before)


def _checked(work: Iterable[Block], jobs: int) -> Iterator[tuple[int, list[Checked | None]]]:
    if jobs <= 1:
        yield from map(check_block, work)
        return
    from multiprocessing import get_context

    with get_context("fork" if hasattr(os, "fork") else "spawn").Pool(jobs) as pool:
        yield from pool.imap(check_block, work)


def _renumbered(checked: Checked, before: int) -> Checked:
    """``checked`` with its record number ``before`` higher, in its diagnostics and JSON too."""
    if checked.task.problem is not None:
        return checked
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
    task = Task(t.source, index, t.first_line, t.text, t.with_json, t.problem, t.shown)
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
    Raises SourceError when the file cannot be opened or decoded."""
    from .. import SourceError

    source = open_source(path)
    if isinstance(source, Diagnostic):
        raise SourceError(source)
    found = list(tasks(source, with_json))
    problem = next((t.problem for t in found if t.problem is not None), None)
    if problem is not None:
        raise SourceError(problem)
    return found
