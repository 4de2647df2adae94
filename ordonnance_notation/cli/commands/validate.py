"""``ordo validate``."""

from __future__ import annotations

import contextlib
import sys
from typing import Annotated

import typer

from ...diagnostics import Severity
from ..options import Format, FormatOption, Jobs, Paths, Scheduler
from ..running import Run
from ..streams import frozen_heap, spread, unusable_cluster

NAME = "validate"
SHORT = "Check records and say where and why each one is wrong."

Least = Annotated[
    Severity,
    typer.Option(
        "--severity",
        case_sensitive=False,
        help="The mildest problems shown: error, warning or note (text output).",
    ),
]
Quiet = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", help="Errors and warnings only, no line for a valid record (text)."
    ),
]


def command(
    paths: Paths,
    format: FormatOption = Format.text,
    jobs: Jobs = 0,
    severity: Least = Severity.NOTE,
    quiet: Quiet = False,
    scheduler: Scheduler = None,
) -> None:
    """Check records: syntax, content, every draw and play, declared markers and result.

    Prints each problem with its place, one line per record, and a total.
    --quiet and --severity leave out what is not wanted (the JSON output is
    always whole; the exit status does not change).
    Records are read, checked and reported one at a time, in input order,
    with --scheduler too (the same output, records checked on a Dask cluster).
    Exit 0 when every record is valid, 1 when any is invalid, 2 for a usage
    or I/O error (a missing or unreadable file, a cluster that cannot be used).
    """
    from ...runs.cluster import ClusterError
    from ...runs.validation import Validation
    from ...views.report import JsonReporter, TextReporter
    from ..console import console

    run = Run()
    spread(jobs, scheduler)
    as_json = format is Format.json
    validation = Validation(paths, jobs, with_json=as_json, scheduler=scheduler)
    run.tally = validation.tally
    least = Severity.WARNING if quiet and severity is Severity.NOTE else severity
    reporter = JsonReporter(sys.stdout) if as_json else TextReporter(console(), least, quiet)
    try:
        with contextlib.closing(frozen_heap(iter(validation))) as items:  # closed: workers end
            for item in items:
                reporter.take(item)
    except ClusterError as error:
        raise unusable_cluster(run, error) from None
    reporter.finish(run.tally)
    raise run.exit()
