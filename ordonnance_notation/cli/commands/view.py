"""``ordo view``."""

from __future__ import annotations

from typing import Annotated

import typer

from ...engine.cards import seat_number
from ...engine.game import MAX_SEATS
from ...files.sources import STDIN, source_name
from ...views.report import plural
from ..making import Judge, JudgeDeck, JudgeSeed, Playouts, judging
from ..options import (
    BestPlay,
    BudgetOption,
    Decided,
    Force,
    Jobs,
    Output,
    Paths,
)
from ..running import Run
from ..streams import frozen_heap, jobs_for, write_all

NAME = "view"
SHORT = "Write one HTML page that replays records in a browser."

Seat = Annotated[
    str | None,
    typer.Option(
        "--seat",
        help="Write the page as this seat saw each game, e.g. P2: "
        "no card of another hand is in it at all.",
    ),
]
Title = Annotated[
    str | None, typer.Option("--title", help="The page's title (default: the inputs).")
]


def command(
    paths: Paths,
    output: Output = "-",
    seat: Seat = None,
    title: Title = None,
    decided: Decided = True,
    force: Force = False,
    jobs: Jobs = 0,
    best_play: BestPlay = False,
    budget: BudgetOption = 10.0,
    judge: Judge = False,
    playouts: Playouts = 4000,
    judge_seed: JudgeSeed = "",
    judge_deck: JudgeDeck = None,
) -> None:
    """Write one HTML page that replays the records in a browser, with no
    network at all: the list of records with a filter, the table at each step
    (keys, buttons, a slider, links such as games.html#r2/p31), the plays with
    their comments, the summary, and an invalid record's problems with its
    replay up to where it stops; with --judge, a graph of each seat's win
    chance over the plies as it could know it, the graded plays marked;
    with --best-play, a strip of the value under best play over the plies,
    the mistakes marked (both on the page of every seat). Exit 1 when some
    record is invalid, as validate.
    """
    from ...runs.workers import Workers
    from ...views.page import Pages

    viewer = None
    if seat is not None:
        viewer = seat_number(seat)
        if viewer is None or viewer >= MAX_SEATS:
            raise typer.BadParameter(f"{seat} is no seat: P1 to P4", param_hint="--seat")
    named = title if title is not None else ", ".join(source_name(p) for p in paths)
    run = Run()
    how = judging(run, judge, playouts, judge_seed, judge_deck)
    with Workers(jobs_for(jobs, paths)) as workers, run.output(output, force, paths) as out:
        pages = Pages(paths, workers, viewer, named, decided, budget if best_play else None, how)
        write_all(out.stream, frozen_heap(iter(pages)))
        for problem in pages.problems:
            run.said(problem)
    if output != STDIN and not out.discarded:
        run.err.print(
            f"{plural(pages.records, 'record')} ({pages.invalid} invalid) written to {output}"
        )
    raise run.exit(failed=pages.invalid > 0)
