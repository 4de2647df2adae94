"""The options of ``ordo select``: the tests a record passes, the edits made
to the records written, and how they are split among files."""

from __future__ import annotations

from typing import Annotated

import typer

from ..engine.game import MAX_SEATS, MIN_SEATS
from .options import Rule

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
Plies = Annotated[
    str | None,
    typer.Option("--plies", help="How many plies the record writes: 30, 30..40, 30.. or ..40."),
]
Finished = Annotated[
    bool | None,
    typer.Option(
        "--finished/--unfinished", help="Only games played to their end, or only the others."
    ),
]
Play = Annotated[
    list[str],
    typer.Option(
        "--play",
        help="[WHO] CARD STATE, each part * for any: such a play was made (at a ply of --at).",
    ),
]
Army = Annotated[
    list[str],
    typer.Option(
        "--army",
        help="WHO STATE FORMATION [ICON]: such an army stood after the last ply (or a ply of "
        "--at), e.g. 'P2 J regiment', '* A battalion F'.",
    ),
]
At = Annotated[
    str | None,
    typer.Option("--at", help="The plies --play and --army look at: 12, 1-5, 20.. (all: --play)."),
]
DecidedBy = Annotated[
    int | None,
    typer.Option("--decided-by", min=0, help="The game was decided at this ply or before."),
]
Invert = Annotated[
    bool, typer.Option("--invert", "-v", help="The records that do not match instead.")
]
Count = Annotated[
    bool, typer.Option("--count", "-c", help="Print how many records match, not them.")
]
SetTag = Annotated[
    list[str], typer.Option("--set-tag", help="NAME=VALUE: set the tag (added if missing).")
]
DropTag = Annotated[list[str], typer.Option("--drop-tag", help="Remove the tag NAME.")]
StripComments = Annotated[
    bool, typer.Option("--strip-comments", help="Remove every comment of the records written.")
]
StripGlyphs = Annotated[
    bool, typer.Option("--strip-glyphs", help="Remove every glyph (!, ?, !?, ...).")
]
Renumber = Annotated[
    str | None,
    typer.Option("--renumber", metavar="TAG", help="Number the records written in TAG: 1, 2, ..."),
]
SplitBy = Annotated[
    str | None,
    typer.Option(
        "--split-by", metavar="TAG", help="A file in the --output folder for each value of TAG."
    ),
]
SplitEvery = Annotated[
    int | None,
    typer.Option("--split-every", min=1, help="A file in the --output folder for every N records."),
]
