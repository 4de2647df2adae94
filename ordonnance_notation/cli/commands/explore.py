"""``ordo explore``."""

from __future__ import annotations

from typing import Annotated

import typer

from ..options import Force, Format, FormatOption, Jobs, Output, Paths
from ..running import Run
from ..streams import frozen_heap, jobs_for, write_all

NAME = "explore"
SHORT = "The first plays of an archive: how often each was made and won."

After = Annotated[
    str | None,
    typer.Option(
        "--after", help="An opening: the games that begin with these plays ('LS J, S E')."
    ),
]
Depth = Annotated[
    int,
    typer.Option("--plies", "-n", min=1, max=20, help="How many plies after the opening to show."),
]


def command(
    paths: Paths,
    after: After = None,
    plies: Depth = 1,
    format: FormatOption = Format.text,
    output: Output = "-",
    force: Force = False,
    jobs: Jobs = 0,
) -> None:
    """For the games that begin with an opening (--after; none: every game),
    each play made at the next plies, how many games made it, its share of
    the games there, and how often the seat that made it won (of the
    finished games). Games of each seat count apart; only records valid to
    their last play count, the others are said left out.
    """
    from ...files.output import json_text
    from ...querying.content import QueryError
    from ...querying.explore import Explored, explore, opening_of
    from ...runs.workers import Workers
    from ...views.explorer import explored_json, render_text

    try:
        opening = opening_of(after or "")
    except QueryError as error:
        raise typer.BadParameter(str(error), param_hint="--after") from None
    run = Run()
    explored = Explored()
    with Workers(jobs_for(jobs, paths)) as workers:
        for part in run.told(frozen_heap(explore(paths, opening, plies, workers))):
            explored = part
    text = (
        json_text(explored_json(explored, opening), 2) + "\n"
        if format is Format.json
        else render_text(explored, opening)
    )
    with run.output(output, force, paths) as out:
        write_all(out.stream, text)
    raise run.exit()
