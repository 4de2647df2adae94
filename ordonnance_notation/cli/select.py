"""``ordo select``."""

from __future__ import annotations

from typing import Annotated

import typer

from ..engine.game import MAX_SEATS, MIN_SEATS
from .options import Force, Jobs, Output, Paths, Rule
from .running import Run
from .streams import frozen_heap, jobs_for, parted, write_all

NAME = "select"
SHORT = "Records that match tags, players, the winner, dates or facts."

Tags = Annotated[
    list[str],
    typer.Option(
        "--tag",
        "-t",
        help="NAME=PATTERN: the tag's value matches (e.g. Event='Lyon*'); NAME alone: "
        "the tag is there.",
    ),
]
Players = Annotated[
    list[str], typer.Option("--player", "-p", help="A player (a pattern) in any seat.")
]
Winner = Annotated[
    str | None, typer.Option("--winner", help="Who won the game: a seat (P2) or a player.")
]
Seats = Annotated[
    list[int], typer.Option("--seats", min=MIN_SEATS, max=MAX_SEATS, help="Seats at the table.")
]
ScoringRule = Annotated[
    Rule | None, typer.Option("--scoring", help="The scoring rule: classic or points.")
]
Valid = Annotated[
    bool | None,
    typer.Option("--valid/--invalid", help="Only valid records, or only invalid ones."),
]
Since = Annotated[
    str | None, typer.Option("--since", help="Played on or after this day (2026.11.27).")
]
Until = Annotated[str | None, typer.Option("--until", help="Played on or before this day.")]
Won = Annotated[
    list[str],
    typer.Option(
        "--won", help="[WHO:]STATE: the state was won (by WHO: a seat or a player), e.g. P2:J."
    ),
]
Invert = Annotated[
    bool, typer.Option("--invert", "-v", help="The records that do not match instead.")
]
Count = Annotated[
    bool, typer.Option("--count", "-c", help="Print how many records match, not them.")
]


def command(
    paths: Paths,
    tag: Tags = [],  # noqa: B006 (Typer reads the default; it is never changed)
    player: Players = [],  # noqa: B006
    winner: Winner = None,
    seats: Seats = [],  # noqa: B006
    scoring: ScoringRule = None,
    valid: Valid = None,
    since: Since = None,
    until: Until = None,
    won: Won = [],  # noqa: B006
    invert: Invert = False,
    count: Count = False,
    output: Output = "-",
    force: Force = False,
    jobs: Jobs = 0,
) -> None:
    """Print the records that pass every test given, as they are written
    (comments and spacing kept), in input order. Names and tag values match as
    shell patterns (*, ?, [...]) whatever their case. --valid, --winner, --won
    and --scoring replay each record; the others read its header alone.
    Exit 0 whether or not a record matches, 1 when an input holds no record or
    a byte that is not UTF-8, 2 when one cannot be read.
    """
    from ..querying.select import Query, QueryError, Selection
    from ..runs.workers import Workers

    try:
        query = Query.of(
            tags=tag,
            players=player,
            winner=winner,
            seats=seats,
            scoring=scoring.value if scoring else None,
            valid=valid,
            since=since,
            until=until,
            won=won,
            invert=invert,
        )
    except QueryError as error:
        raise typer.BadParameter(str(error)) from None
    run = Run()
    with Workers(jobs_for(jobs, paths)) as workers:
        texts = run.told(frozen_heap(iter(Selection(paths, query, workers))))
        if count:
            typer.echo(sum(1 for _ in texts))
        else:
            with run.output(output, force, paths) as out:
                write_all(out.stream, parted(texts))
    raise run.exit()
