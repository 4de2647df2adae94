"""``ordo replay``."""

from __future__ import annotations

from enum import Enum
from itertools import chain
from typing import TYPE_CHECKING, Annotated

import typer

from ...checking.validator import validate
from ...engine.cards import seat_name
from ...views.report import diagnostic_text, visible
from ..options import Force, Paths, RecordNumber
from ..running import Run
from ..stepping import shown
from ..streams import chosen

if TYPE_CHECKING:
    from ...notation.record import Record, Unparsed
    from ...views.steps import Steps

NAME = "replay"
SHORT = "Show the table at a step, step through a game, or draw it."


class PictureFormat(str, Enum):
    text = "text"
    svg = "svg"


Step = Annotated[
    bool,
    typer.Option(
        "--step", help="Step through the game: keys on a terminal, every step in order otherwise."
    ),
]
Ply = Annotated[
    int | None,
    typer.Option(
        "--ply", min=0, help="Open at this step (0: before the first play; default: the last)."
    ),
]
Seat = Annotated[
    str | None,
    typer.Option("--seat", help="Show the game as this seat saw it, e.g. P2: own hand only."),
]
PictureFormatOption = Annotated[
    PictureFormat,
    typer.Option("--format", "-f", help="text: the table in the terminal; svg: a picture."),
]
Where = Annotated[
    str, typer.Option("--output", "-o", help="Where to write (- for standard output).")
]


def command(
    paths: Paths,
    step: Step = False,
    ply: Ply = None,
    record: RecordNumber = None,
    seat: Seat = None,
    format: PictureFormatOption = PictureFormat.text,
    output: Where = "-",
    force: Force = False,
) -> None:
    """Show the table at a step: every state's armies, formations and who wins
    there, the hands and the pile, the last play and its comments; or draw it
    as an SVG picture (--format svg -o step.svg).
    """
    run = Run()
    if record is not None and len(paths) != 1:
        raise typer.BadParameter("--record picks a record of one file", param_hint="--record")
    report = validate(_one(run, paths, record), steps=True)
    from ...views.steps import steps_of

    steps = steps_of(report)
    if steps is None:
        for diagnostic in report.diagnostics:
            run.err.print(diagnostic_text(diagnostic, None))
        run.err.print(
            f"{report.source} record {report.index}: "
            "nothing to replay: the header or the deal has errors"
        )
        raise run.exit(failed=True)
    viewer = _viewer(steps, seat)
    if ply is not None and ply > steps.last:
        raise typer.BadParameter(f"the record has steps 0 to {steps.last}", param_hint="--ply")
    start = steps.last if ply is None else ply
    if format is PictureFormat.svg:
        if step:
            raise typer.BadParameter(
                "a picture is of one step: leave out --step", param_hint="--format"
            )
        from ...views.picture import step_picture

        title = f"{report.source} record {report.index}{report.players}, step {start}"
        with run.output(output, force, paths) as out:
            out.stream.write(step_picture(steps, steps.steps[start], viewer).svg(title))
        raise run.exit()
    first = 0 if ply is None else start
    if output == "-":
        shown(run, steps, viewer, first, start, step)
    else:
        with run.output(output, force, paths) as out:
            shown(run, steps, viewer, first, start, step, out.stream)
    raise run.exit()


def _one(run: Run, paths: list[str], record: int | None) -> Record | Unparsed:
    """The one record shown; with more, lists them and stops (2)."""
    inputs = run.inputs(paths)
    items = chain.from_iterable(chosen(run, path, record) for path in inputs)
    first = next(items)
    second = next(items, None)
    if second is None:
        return first
    count = 0  # one game is shown: which?
    for item in chain((first, second), items):
        report = validate(item)
        where = f"{visible(report.source)} record " if len(inputs) > 1 else ""
        run.err.print(f"  {where}{report.index}:{report.players} {report.verdict}")
        count += 1
    held = f"{visible(first.source)} holds" if len(inputs) == 1 else "the inputs hold"
    pick = "" if len(inputs) == 1 else "name one file and "
    run.err.print(f"{held} {count} records; {pick}pick one with --record K")
    run.tally.unusable = True
    raise run.exit()


def _viewer(steps: Steps, seat: str | None) -> int | None:
    if seat is None:
        return None
    viewer = next((s for s in range(steps.steps[0].game.seats) if seat_name(s) == seat), None)
    if viewer is None:
        raise typer.BadParameter(f"{seat} is not a seat of this record", param_hint="--seat")
    return viewer
