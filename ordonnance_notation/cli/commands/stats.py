"""``ordo stats``."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ...views.report import plural, visible
from ..options import Format, FormatOption, Jobs
from ..running import Run
from ..streams import frozen_heap, jobs_for

if TYPE_CHECKING:
    from ...views.stats import Stats

NAME = "stats"
SHORT = "Statistics over archives: wins by seat, what decided states."


class By(str, Enum):
    player = "player"


Archives = Annotated[
    list[str],
    typer.Argument(
        help="Archives: files, directories or - for standard input.",
        show_default=False,
        metavar="PATH",
    ),
]
ByOption = Annotated[
    By | None,
    typer.Option("--by", help="player: standings of each player, by seats and scoring."),
]
Ratings = Annotated[
    bool,
    typer.Option("--ratings", help="With --by player: OpenSkill ratings, the games in date order."),
]


def command(
    paths: Archives,
    format: FormatOption = Format.text,
    by: ByOption = None,
    ratings: Ratings = False,
    jobs: Jobs = 0,
) -> None:
    """Statistics over archives: wins by seat, scoring rules, tie-breaks, what
    decided each state, and when markers were placed; with --by player, each
    player's games, wins, states and points instead, and --ratings rates them
    (pip install 'ordonnance-notation[ratings]'). Only valid, finished records
    count; the rest are counted as skipped.
    """
    from functools import partial

    from ...files.sources import expand
    from ...runs.blocks import input_blocks, unseen
    from ...runs.workers import Workers
    from ...views.stats import Stats, stats_block

    run = Run()
    by_player = by is By.player or ratings
    if ratings:
        import importlib.util

        if importlib.util.find_spec("openskill") is None:
            run.err.print("--ratings needs OpenSkill: pip install 'ordonnance-notation[ratings]'")
            run.tally.unusable = True
            raise run.exit()
    stats = Stats(by_player=by_player, rated=ratings)
    counted = partial(stats_block, by_player=by_player, rated=ratings)
    inputs = list(expand(paths))
    with run.progress("reading") as progress, Workers(jobs_for(jobs, paths)) as workers:
        for part in run.told(frozen_heap(workers.map(counted, input_blocks(inputs)))):
            stats.merge(part)
            progress.advance(part.games + part.skipped)
    said = {problem.diagnostic.source for problem in run.tally.problems}
    for empty in unseen(inputs, stats.sources | said):  # read, but no record in it (E105)
        run.said(empty)
    if stats.invalid:
        archives = [p for p in paths if Path(p).suffix.lower() in (".yaml", ".yml", ".json")]
        run.err.print(
            f"{plural(stats.invalid, 'record')} skipped as invalid: `ordo validate` says why"
            + (f"; stats reads .ord files: convert {archives[0]} first" if archives else "")
        )
    _report(stats, format, by_player, ratings)
    raise run.exit(failed=stats.invalid > 0)


def _report(stats: Stats, format: Format, by_player: bool, ratings: bool) -> None:
    from ...views.stats import render_standings, render_text

    rated = None
    if ratings:
        from ...views.ratings import rate, render_ratings

        rated = rate(stats.played)
    if format is Format.json:
        found = stats.to_json()
        if by_player:
            found = {k: found[k] for k in ("games", "skipped", "invalid")}
            found["standings"] = stats.standings_json()
        if rated is not None:
            found["ratings"] = rated.to_json()
        typer.echo(json.dumps(found, indent=2, ensure_ascii=False))
    elif by_player:
        sys.stdout.write(visible(render_standings(stats)))
        if rated is not None:
            sys.stdout.write("\n" + visible(render_ratings(rated)))
    else:
        sys.stdout.write(render_text(stats))
