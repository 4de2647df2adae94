"""The options of ``ordo match``, and the length of a match they ask for."""

from __future__ import annotations

from typing import Annotated

import typer

from ..making.bots import BOTS
from .options import seconds

Bots = Annotated[
    list[str],
    typer.Argument(
        help=f"2 to 4 bots, one a seat: a built-in bot ({', '.join(BOTS)}) or the command "
        "of a program that speaks the bot protocol (docs/bots.md), quoted as one word.",
        show_default=False,
        metavar="BOT",
    ),
]
GAMES = 100
SPRT_GAMES = 10_000
"""The most games of a match with --sprt, unless --games says otherwise."""
Games = Annotated[
    int | None,
    typer.Option(
        "--games",
        "-n",
        min=1,
        help=f"Games at least: rounded up to whole sets of seatings. Default {GAMES}; "
        f"with --sprt, until the test decides, {SPRT_GAMES:,} at most.",
        show_default=False,
    ),
]
MatchJobs = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Processes to play on.")]
MoveTime = Annotated[
    float,
    typer.Option(
        "--move-time",
        min=0.001,
        max=86_400.0,
        callback=seconds,
        help="Seconds a program has for each play, a day at most; past it, it forfeits.",
    ),
]
SprtOption = Annotated[
    tuple[float, float] | None,
    typer.Option(
        "--sprt",
        metavar="ELO0 ELO1",
        help="Stop once the SPRT decides whether the first bot is elo1 stronger (H1) "
        "or no more than elo0 (H0); two bots only.",
    ),
]
Alpha = Annotated[float, typer.Option(min=1e-6, max=0.5, help="The SPRT's alpha.")]
Beta = Annotated[float, typer.Option(min=1e-6, max=0.5, help="The SPRT's beta.")]
Logs = Annotated[
    str | None,
    typer.Option(
        "--logs",
        metavar="DIR",
        help="A folder to keep the programs' standard error in (its first and last MiB); "
        "default: thrown away.",
    ),
]
MatchOutput = Annotated[
    str | None, typer.Option("--output", "-o", help="An archive of every game, or - for stdout.")
]


def games_to_play(games: int | None, sprt: tuple[float, float] | None) -> int:
    """The games asked for: ``--games``, else GAMES, or with ``--sprt`` SPRT_GAMES at most."""
    if games is not None:
        return games
    return GAMES if sprt is None else SPRT_GAMES
