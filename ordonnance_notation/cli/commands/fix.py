"""``ordo fix``."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from ...files.output import not_written
from ...files.sources import STDIN
from ...views.report import diagnostic_text, plural
from ..options import Paths
from ..running import Run
from ..streams import write_all

if TYPE_CHECKING:
    from ...checking.fixing import Fixed

NAME = "fix"
SHORT = "Rewrite ply numbers, markers and results the replay determines."

Rewrite = Annotated[
    bool, typer.Option("--write", "-w", help="Rewrite the files in place (atomically).")
]


def command(paths: Paths, write: Rewrite = False) -> None:
    """Rewrite what the replay determines: ply numbers out of sequence (when no
    play can be missing), declared markers, the Result tag and the result line.
    Never a play or a comment. Prints a diff; --write rewrites the files. A
    record with another error, or whose replay stops early, is left as it is,
    with the reason.
    """
    from ...checking.fixing import fix_paths

    if write and STDIN in paths:
        raise typer.BadParameter(
            "standard input cannot be rewritten; drop --write", param_hint="--write"
        )
    run = Run()
    failed = False
    changes = files = 0
    for item in run.told(fix_paths(paths)):
        failed |= _refused(run, item)
        if not item.changed:
            continue
        changes += len(item.changes)
        files += 1
        if not write:
            write_all(sys.stdout, item.diff())
        elif _rewritten(run, item):
            typer.echo(f"fixed {item.source.name} ({plural(len(item.changes), 'change')})")
    done = "made" if write else "to make (--write makes them)"
    run.err.print(f"{plural(changes, 'change')} in {plural(files, 'file')} {done}")
    raise run.exit(failed=failed or (not write and changes > 0))


def _refused(run: Run, item: Fixed) -> bool:
    """Says why each record of ``item`` left as it is was not fixed; whether any was."""
    lines = item.source.text.split("\n")
    for refusal in item.refused:
        if refusal.diagnostic is not None:
            run.err.print(diagnostic_text(refusal.diagnostic, lines))
        where = f"record {refusal.record}" if refusal.record else "the file"
        run.err.print(f"{item.source.name}: {where} not fixed: {refusal.why}")
    return bool(item.refused)


def _rewritten(run: Run, item: Fixed) -> bool:
    from ...files.output import write_atomic

    name = item.source.name
    try:
        write_atomic(name, item.source.as_written(item.text), overwrite=True, read=item.source.stat)
    except OSError as error:
        run.said(not_written(name, error), unusable=True)
        return False
    return True
