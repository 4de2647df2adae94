"""``ordo validate`` as a run: ``validate_block`` mapped over the blocks of
the inputs, on ``jobs`` processes or a Dask cluster, each record's
``Checked`` in input order, numbered within its file.

The worker splits a block into records, parses and validates each, and
sends back only verdicts and diagnostics, never the games. Records are
numbered within a block there and renumbered within the file here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial

from ..checking.quick import compiled_core, quick_block
from ..checking.verdicts import Checked, Task, check_task
from ..diagnostics import InputError
from ..files.sources import STDIN, expand
from .blocks import Block, block_chunks, input_blocks, unseen
from .pools import workers_for
from .tally import Tally
from .workers import default_jobs


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
        # with the compiled core a second process only slows the check (bench/):
        # what is left is the reading and the reporting, done here either way
        files = [path for path in readable if path != STDIN]
        jobs = self.jobs or (1 if compiled_core() else default_jobs(files))
        seen: set[str] = set()
        work = input_blocks(inputs, self.tally)
        for item in checked(work, jobs, self.with_json, self.scheduler):
            seen.add(item.diagnostic.source if isinstance(item, InputError) else item.source)
            self.tally.add(item)
            yield item
        for empty in unseen(inputs, seen):
            self.tally.add(empty)
            yield empty


def validate_block(block: Block, with_json: bool = False) -> tuple[int, list[Checked]]:
    """Records found in ``block`` and the check of each, numbered from 1
    within the block (``checked`` renumbers them within their file): by the
    compiled core where it can, else record by record in Python."""
    if not block.one_record:
        quick = quick_block(block.source, block.first_line, block.text, with_json)
        if quick is not None:
            return quick
    return python_block(block, with_json)


def python_block(block: Block, with_json: bool = False) -> tuple[int, list[Checked]]:
    """``validate_block`` by the Python validator alone, record by record:
    the reference the compiled core is held to."""
    results: list[Checked] = []
    count = 0
    for first_line, text in block_chunks(block):
        if text.strip():
            count += 1
            found = check_task(Task(block.source, count, first_line, text, with_json))
            if found is not None:
                results.append(found)
    return count, results


def checked(
    work: Iterable[Block | InputError],
    jobs: int,
    with_json: bool = False,
    scheduler: str | None = None,
) -> Iterator[Checked | InputError]:
    """``validate_block`` over ``work`` in order, on ``jobs`` processes (1:
    this one) or, given a ``scheduler`` address, on the workers of that Dask
    cluster (``cluster.ClusterWorkers``: raises ``ClusterError`` when it
    cannot be used), with records numbered within their file."""
    sent: deque[int] = deque()  # the file of each block under way, in order

    def noted() -> Iterator[Block | InputError]:
        for block in work:
            if isinstance(block, Block):
                sent.append(block.file)
            yield block

    done: dict[int, int] = {}  # records so far, by file
    with workers_for(jobs, scheduler) as workers:
        for result in workers.map(partial(validate_block, with_json=with_json), noted()):
            if isinstance(result, InputError):
                yield result
                continue
            count, results = result
            file = sent.popleft()
            before = done.get(file, 0)
            done[file] = before + count
            for item in results:
                yield _renumbered(item, before) if before else item


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
