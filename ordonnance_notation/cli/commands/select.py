"""``ordo select``."""

from __future__ import annotations

import typer

from .. import choosing as o
from ..options import Force, Jobs, Output, Paths
from ..running import Run
from ..splitting import write_split
from ..streams import frozen_heap, jobs_for, parted, write_all

NAME = "select"
SHORT = "Records by tags, players, plays or armies, edited or split."


def command(
    paths: Paths,
    tag: o.Tags = [],  # noqa: B006 (Typer reads the default; it is never changed)
    player: o.Players = [],  # noqa: B006
    winner: o.Winner = None,
    seats: o.Seats = [],  # noqa: B006
    scoring: o.ScoringRule = None,
    valid: o.Valid = None,
    since: o.Since = None,
    until: o.Until = None,
    won: o.Won = [],  # noqa: B006
    plies: o.Plies = None,
    finished: o.Finished = None,
    play: o.Play = [],  # noqa: B006
    army: o.Army = [],  # noqa: B006
    at: o.At = None,
    decided_by: o.DecidedBy = None,
    invert: o.Invert = False,
    count: o.Count = False,
    set_tag: o.SetTag = [],  # noqa: B006
    drop_tag: o.DropTag = [],  # noqa: B006
    strip_comments: o.StripComments = False,
    strip_glyphs: o.StripGlyphs = False,
    renumber: o.Renumber = None,
    split_by: o.SplitBy = None,
    split_every: o.SplitEvery = None,
    output: Output = "-",
    force: Force = False,
    jobs: Jobs = 0,
) -> None:
    """Print the records that pass every test given, as they are written
    (comments and spacing kept, but for the edits asked), in input order.
    Names and tag values match as shell patterns (*, ?, [...]) whatever their
    case. Exit 0 whether or not a record matches, 1 when an input holds no
    record or a byte that is not UTF-8, 2 when one cannot be read."""
    from ...querying.select import Content, Edits, Query, QueryError, Selection
    from ...runs.workers import Workers

    try:
        content = Content.of(plies, finished, play, army, at, decided_by)
        query = Query.of(
            tags=tag, players=player, winner=winner, seats=seats, valid=valid, since=since,
            until=until, won=won, invert=invert, content=content,
            scoring=scoring.value if scoring else None,
        )  # fmt: skip
        edits = Edits.of(set_tag, drop_tag, strip_comments, strip_glyphs, renumber)
    except QueryError as error:
        raise typer.BadParameter(str(error)) from None
    run = Run()
    with Workers(jobs_for(jobs, paths)) as workers:
        texts = run.told(frozen_heap(iter(Selection(paths, query, workers, edits))))
        if count:
            typer.echo(sum(1 for _ in texts))
        elif split_by or split_every:
            write_split(run, texts, output, force, paths, split_by, split_every)
        else:
            with run.output(output, force, paths) as out:
                write_all(out.stream, parted(texts))
    raise run.exit()
