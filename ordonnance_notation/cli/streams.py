"""How commands read their inputs and stream what they make of them."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Generator, Iterable, Iterator
from typing import IO, TYPE_CHECKING, TypeVar

import typer

from ..diagnostics import InputError, no_record
from ..files.sources import STDIN, expand
from ..views.report import diagnostic_text, visible
from .running import Run

if TYPE_CHECKING:
    from ..notation.record import Record, Unparsed
    from ..runs.cluster import ClusterError
    from ..runs.workers import Pool

T = TypeVar("T")


def jobs_for(jobs: int, paths: Iterable[str]) -> int:
    """``--jobs``, or its default for these inputs (standard input is not measured)."""
    from ..runs.workers import default_jobs

    return jobs or default_jobs([p for p in expand(paths) if isinstance(p, str) and p != STDIN])


def spread(jobs: int, scheduler: str | None) -> None:
    """Refuses ``--jobs`` with ``--scheduler``: the cluster's workers do the work."""
    if scheduler is not None and jobs:
        raise typer.BadParameter(
            "--jobs and --scheduler exclude each other: the cluster's workers do the work",
            param_hint="--jobs",
        )


@contextlib.contextmanager
def workers(run: Run, jobs: int, scheduler: str | None, paths: Iterable[str]) -> Iterator[Pool]:
    """Where the records of ``paths`` are done: ``--jobs`` processes here
    (``jobs_for``), or the workers of the Dask scheduler at ``scheduler``.
    A cluster that cannot be used, or fails under way, is said (E009) and
    ends the run (2)."""
    from ..runs.cluster import ClusterError
    from ..runs.pools import workers_for

    spread(jobs, scheduler)
    try:
        with workers_for(jobs if scheduler else jobs_for(jobs, paths), scheduler) as pool:
            yield pool
    except ClusterError as error:
        raise unusable_cluster(run, error) from None


def unusable_cluster(run: Run, error: ClusterError) -> typer.Exit:
    """A Dask cluster that could not be used, said; the exit it makes (2)."""
    run.err.print(diagnostic_text(error.diagnostic, None))
    run.tally.unusable = True
    return run.exit()


def frozen_heap(items: Iterator[T]) -> Generator[T, None, None]:
    """``items``, while what was alive before lives on frozen: the collector
    does not scan it again at every full collection, which makes a long
    archive a third faster; and while the young objects it looks at are
    many more (``YOUNG``): a record makes a few hundred, and they die as
    it is written, not in cycles. Both as before at the end, for callers
    that go on."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(YOUNG, *thresholds[1:])
    try:
        yield from items
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


YOUNG = 50_000  # objects made between two collections of the youngest (700 by default)


def parted(texts: Iterable[str]) -> Iterator[str]:
    """Records' texts with a blank line between them."""
    return (("\n" if n else "") + text for n, text in enumerate(texts))


def write_all(stream: IO[str], pieces: str | Iterable[str], flush: bool = False) -> None:
    """``pieces`` written to ``stream``; on a terminal, each character of
    them a terminal would obey (an escape sequence in a record's comment)
    shown instead (``visible``): a file or a pipe gets them as they are.
    ``flush``: each piece flushed as written, for slow work (best play, a
    judgement), whose reader should see each record once it is done."""
    shown = _on_terminal(stream)
    if isinstance(pieces, str):
        stream.write(visible(pieces) if shown else pieces)
    else:
        for piece in pieces:
            stream.write(visible(piece) if shown else piece)
            if flush:
                stream.flush()


def _on_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a stream of a test, or one closed
        return False


def chosen(run: Run, path: str, record: int | None) -> Iterator[Record | Unparsed]:
    """The records of ``path`` a command is about, read a record at a time:
    all of them, or the one ``--record`` names. Stops (1) when the file holds
    none (E105) or a byte is not UTF-8, (2) when ``--record`` is past the last."""
    from ..files.sources import MAX_RECORD, open_source
    from ..notation.parser import parse_lines

    try:
        source = open_source(path)
    except InputError as problem:
        raise run.stop(problem, unusable=True) from None
    count = 0
    try:
        for item in parse_lines(source.lines(), source.name, MAX_RECORD):
            count += 1
            if record is None or count == record:
                yield item
                if record is not None:
                    return
    except InputError as problem:  # a byte that is not UTF-8, met on the way
        raise run.stop(problem) from None
    if not count:
        raise run.stop(InputError(no_record(source.name)))
    if record is not None:
        raise typer.BadParameter(f"{source.name} holds {count} record(s)", param_hint="--record")
