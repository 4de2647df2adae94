"""``ordo export``."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer
from rich.text import Text

from ...files.output import OutputExists, not_written
from ...views.report import plural, visible
from ..options import Jobs, Paths
from ..running import Run, already_exists
from ..streams import frozen_heap, jobs_for

NAME = "export"
SHORT = "Write records, plays and states as CSV or Parquet tables."


class TableFormat(str, Enum):
    csv = "csv"
    parquet = "parquet"


Directory = Annotated[
    str,
    typer.Option("--output", "-o", help="A directory (made if missing) for the three table files."),
]
TableFormatOption = Annotated[
    TableFormat,
    typer.Option("--format", "-f", help="csv, or parquet (needs the parquet extra)."),
]
ForceTables = Annotated[bool, typer.Option("--force", help="Replace table files that exist.")]


def command(
    paths: Paths,
    output: Directory,
    format: TableFormatOption = TableFormat.csv,
    force: ForceTables = False,
    jobs: Jobs = 0,
) -> None:
    """Write three tables for analysis: records.csv (one row per record),
    plays.csv (one per ply replayed) and states.csv (one per state resolved),
    or .parquet files; docs/export.md gives every column. Invalid records are
    rows too (valid false), their plays and states as far as the replay went.
    Exit 1 when some record is invalid or some input holds none (the tables
    are written all the same), 2 when an input or the output cannot be used.
    """
    from ...runs.workers import Workers
    from ...views.tables import Export, MissingExtra

    run = Run()
    if not output.strip():
        raise typer.BadParameter("name a directory", param_hint="--output")
    try:
        with run.progress("exporting") as progress, Workers(jobs_for(jobs, paths)) as workers:
            export = Export(paths, output, format.value, workers, force)
            for count in run.told(frozen_heap(iter(export))):
                progress.advance(count)
    except MissingExtra as error:
        run.err.print(Text(f"ordo export: {error}"))
        run.tally.unusable = True
        raise run.exit() from None
    except OutputExists as error:
        raise run.stop(already_exists(str(error)), unusable=True) from None
    except OSError as error:
        raise run.stop(not_written(error.filename or output, error), unusable=True) from None
    if run.tally.unreadable:
        run.err.print(Text(f"no table written to {visible(output)}: an input cannot be read"))
        raise run.exit()
    rows, invalid = export.totals.rows, export.totals.invalid
    said = (
        f"{plural(rows['records'], 'record')}, {plural(rows['plays'], 'play')} and "
        f"{plural(rows['states'], 'state')} written to {visible(output)}"
    )
    run.err.print(
        Text(said + (f"; {invalid} invalid: `ordo validate` says why" if invalid else ""))
    )
    raise run.exit(failed=invalid > 0)
