"""``ordo fmt``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from ...diagnostics import InputError
from ...files.output import not_written
from ...files.sources import STDIN
from ...views.report import diagnostic_text, plural, visible
from ..options import Jobs, Paths
from ..running import Run
from ..streams import frozen_heap, jobs_for, write_all

if TYPE_CHECKING:
    from ...archives.conversion import Formatted

NAME = "fmt"
SHORT = "Print or rewrite records in the one canonical form."

Check = Annotated[
    bool,
    typer.Option(
        "--check",
        help="Change nothing; list the files that are not canonical and exit 1 if any.",
    ),
]
Rewrite = Annotated[
    bool,
    typer.Option(
        "--write", "-w", help="Rewrite files in place (atomically) when they are not canonical."
    ),
]


def command(paths: Paths, check: Check = False, write: Rewrite = False, jobs: Jobs = 0) -> None:
    """Print records in the one canonical form (tag order, spacing, card letters
    in L B S H F order, state letters). A file with a syntax error is reported
    and never rewritten.
    """
    from ...archives.conversion import format_paths
    from ...runs.workers import Workers

    if check and write:
        raise typer.BadParameter("--check and --write exclude each other", param_hint="--write")
    if write and STDIN in paths:
        raise typer.BadParameter(
            "standard input cannot be rewritten; drop --write", param_hint="--write"
        )
    run = Run()
    changed = 0
    failed = False
    with Workers(jobs_for(jobs, paths)) as workers:
        for item in run.told(frozen_heap(format_paths(paths, workers))):
            done = _formatted(run, item, check, write)
            failed |= done is None
            changed += bool(done)
    if check or write:
        done_words = "would be reformatted" if check else "reformatted"
        run.err.print(f"{plural(changed, 'file')} {done_words}")
    raise run.exit(failed=failed or (check and changed > 0))


def _formatted(run: Run, item: Formatted, check: bool, write: bool) -> bool | None:
    """What became of one file: True when it is (with --write: was) not
    canonical, False when it is or cannot be read, None when some record of
    it cannot be formatted (said, with the diagnostics)."""
    from ...archives.conversion import RecordErrors

    try:
        return _compared(item, check, write)
    except RecordErrors as error:
        for diagnostic in error.diagnostics:
            first, text = error.texts.get((diagnostic.source, diagnostic.record or 0), (1, ""))
            run.err.print(diagnostic_text(diagnostic, text.split("\n"), first))
        run.err.print(f"{item.name}: not formatted: fix the errors above first")
        return None
    except InputError as problem:
        run.said(problem)
        return False
    except OSError as error:
        if not (check or write):
            raise  # standard output: said once, for every command (app.run)
        run.said(not_written(item.name, error), unusable=True)
        return False


def _compared(item: Formatted, check: bool, write: bool) -> bool:
    from ...files.output import snapshot, write_atomic

    if not (check or write):
        write_all(sys.stdout, item.pieces())
        return False
    read = snapshot(item.name) if write and item.held is None else None
    if not item.differs():
        return False
    if check:
        typer.echo(f"would reformat {visible(item.name)}")
        return True
    write_atomic(item.name, item.pieces(), overwrite=True, read=read)
    typer.echo(f"reformatted {visible(item.name)}")
    return True
