"""``ordo summary``."""

from __future__ import annotations

import sys
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from ...checking.validator import validate
from ...views.report import json_records, visible
from ..making import Judge, JudgeDeck, JudgeSeed, Playouts, judging
from ..options import (
    BestPlay,
    BudgetOption,
    Decided,
    Jobs,
    Paths,
    RecordNumber,
    Scheduler,
)
from ..running import Run
from ..streams import chosen, frozen_heap, parted, workers, write_all

if TYPE_CHECKING:
    from ...views.judgement import Judging

NAME = "summary"
SHORT = "Who won each state of a record, and why."


class SummaryFormat(str, Enum):
    text = "text"
    markdown = "markdown"
    json = "json"


SummaryFormatOption = Annotated[
    SummaryFormat,
    typer.Option("--format", "-f", help="text, markdown (for publishing) or json."),
]


def command(
    paths: Paths,
    record: RecordNumber = None,
    format: SummaryFormatOption = SummaryFormat.text,
    decided: Decided = True,
    jobs: Jobs = 0,
    best_play: BestPlay = False,
    budget: BudgetOption = 10.0,
    judge: Judge = False,
    playouts: Playouts = 4000,
    judge_seed: JudgeSeed = "",
    judge_deck: JudgeDeck = None,
    scheduler: Scheduler = None,
) -> None:
    """The annotated summary of each record (or of --record K of one file):
    players, rules, the result and why, each state in marker order with its
    armies and the comparison that decided it, when each state and the game
    were decided and who gave them away, points per state, and the record's
    comments and glyphs; with --judge, first, every play judged by what its
    seat could know (ordo analyse --judge); with --best-play, the game
    under best play.
    --scheduler spreads the records over a Dask cluster (the same output).
    Exit 1 when a record is invalid, as validate.
    """
    from ...views.report import json_document
    from ...views.summary import summaries

    run = Run()
    how = judging(run, judge, playouts, judge_seed, judge_deck)
    if record is not None:  # read up to that record only
        if len(paths) != 1:
            raise typer.BadParameter("--record picks a record of one file", param_hint="--record")
        _one(run, paths[0], record, format, decided, budget if best_play else None, how)
    with workers(run, jobs, scheduler, paths) as pool:
        laid = summaries(paths, format.value, pool, decided, budget if best_play else None, how)
        entries = run.told(frozen_heap(iter(laid)))
        as_json = format is SummaryFormat.json
        write_all(sys.stdout, json_document(entries) if as_json else parted(entries), laid.slow)
    raise run.exit(failed=laid.invalid > 0)


def _one(
    run: Run,
    path: str,
    record: int,
    format: SummaryFormat,
    decided: bool,
    budget: float | None,
    how: Judging | None,
) -> None:
    from ...views.summary import render_markdown, render_text, summarize

    data = [summarize(validate(item), decided, budget, how) for item in chosen(run, path, record)]
    if format is SummaryFormat.json:
        sys.stdout.writelines(json_records(data))
    else:
        render = render_markdown if format is SummaryFormat.markdown else render_text
        sys.stdout.writelines(visible(render(entry)) for entry in data)
    raise run.exit(failed=not all(entry.valid for entry in data))
