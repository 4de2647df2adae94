"""Validating archives at scale: records are read, checked and reported one at
a time, in input order, on one process or several (``jobs``).

The reading process splits files into records and keeps nothing but the
records under way; workers parse and validate a record and send back only
its verdict and diagnostics, never the game itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from .diagnostics import Diagnostic, Severity
from .notation.parser import parse_record, split_lines
from .render import players, report_json, verdict
from .sources import LineSource, SourceProblem, open_source
from .validator import validate

CHUNKSIZE = 64  # records sent to a worker at once: fewer, larger messages spare the reading process


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
        task if report.diagnostics else replace(task, text=""),  # the text travels back only to be quoted
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


def run(work: Iterable[Task], jobs: int) -> Iterator[Checked | None]:
    """``check`` over ``work`` in order, on ``jobs`` processes (1: this one)."""
    if jobs <= 1:
        yield from map(check, work)
        return
    from multiprocessing import get_context

    with get_context("fork" if hasattr(os, "fork") else "spawn").Pool(jobs) as pool:
        yield from pool.imap(check, work, chunksize=CHUNKSIZE)


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
    from . import SourceError

    source = open_source(path)
    if isinstance(source, Diagnostic):
        raise SourceError(source)
    found = list(tasks(source, with_json))
    problem = next((t.problem for t in found if t.problem is not None), None)
    if problem is not None:
        raise SourceError(problem)
    return found
