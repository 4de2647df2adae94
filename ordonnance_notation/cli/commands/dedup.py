"""``ordo dedup``."""

from __future__ import annotations

from typing import Annotated

import typer

from ...diagnostics import InputError
from ...views.report import plural, visible
from ..options import Force, Jobs, Output, Paths
from ..running import Run
from ..streams import frozen_heap, jobs_for, parted, write_all

NAME = "dedup"
SHORT = "Each game once: copies of the same game left out."

Quiet = Annotated[
    bool, typer.Option("--quiet", "-q", help="Only the total, no line for each copy.")
]
Prefix = Annotated[
    bool,
    typer.Option(
        "--prefix", help="Also leave out a game that is the start of another (kept: the longer)."
    ),
]


def command(
    paths: Paths,
    output: Output = "-",
    force: Force = False,
    quiet: Quiet = False,
    prefix: Prefix = False,
    jobs: Jobs = 0,
) -> None:
    """Print every record but copies of a game already printed, as written, in
    input order. Two records are the same game when their deal and plays are
    the same, whatever their tags, comments, glyphs and spacing; of the copies
    the most annotated is kept (comments and glyphs, then tags, then the
    first). Each copy left out is named on standard error, with the tags in
    which the copies differ. A record that cannot be read is kept. With
    --prefix, a game that is the start of another is left out too.
    """
    from ...querying.dedup import Dedup
    from ...runs.workers import Workers

    run = Run()
    with Workers(jobs_for(jobs, paths)) as workers:
        dedup = Dedup(paths, workers, prefix)
        try:
            with run.output(output, force, paths) as out:
                write_all(out.stream, parted(run.told(frozen_heap(iter(dedup)))))
        except InputError as problem:  # an input changed between the two readings
            raise run.stop(problem) from None
    if not quiet:
        for line in [line for group in dedup.groups for line in group.lines()] + [
            str(start) for start in dedup.starts
        ]:
            run.err.print(visible(line))
    left = dedup.records - dedup.games - len(dedup.starts)
    differing = sum(1 for g in dedup.groups if g.differences())
    run.err.print(
        f"{plural(dedup.records, 'record')}, {plural(dedup.games, 'game')}: "
        f"{plural(left, 'copy' if left == 1 else 'copie')} left out"
        + (f" ({differing} of the games with tags that differ)" if differing else "")
        + (f", {plural(len(dedup.starts), 'start')} of longer games left out" if prefix else "")
    )
    raise run.exit()
