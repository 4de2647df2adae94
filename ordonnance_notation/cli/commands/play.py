"""``ordo play``."""

from __future__ import annotations

import re
from typing import Annotated

import typer

from ...engine.game import MAX_SEATS, MIN_SEATS
from ...making.bots import BOTS
from .. import making
from ..options import DeckFile, Force, Output, Points, Rule, Scoring, Seed
from ..running import Run

_SAFE = re.compile(r"[^\w.-]")  # what a seed may not put in a file's name
NAME = "play"
SHORT = "Self-play complete games between built-in bots."

Players = Annotated[
    int | None,
    typer.Option(
        "--players",
        "-p",
        min=MIN_SEATS,
        max=MAX_SEATS,
        help="Seats, 2 to 4 (default 2, or as many as --bots).",
    ),
]
Bots = Annotated[
    str | None,
    typer.Option(
        "--bots",
        "-b",
        help=f"Comma-separated bots, P1 first: {', '.join(BOTS)}. "
        "One name plays every seat. Default: random.",
    ),
]
Games = Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")]
Humans = Annotated[
    list[str] | None,
    typer.Option(
        "--human",
        help="Play a game at the terminal at this seat (P1, or P1,P3), the bots at the "
        "others (default: careful); the record is -o, or game-SEED.ord.",
    ),
]


def command(
    players: Players = None,
    bots: Bots = None,
    games: Games = 1,
    seed: Seed = None,
    deck: DeckFile = None,
    scoring: Scoring = Rule.classic,
    points: Points = None,
    output: Output = "-",
    force: Force = False,
    human: Humans = None,
) -> None:
    """Self-play: complete legal games between built-in bots, as a multi-record archive.

    Each record carries the deal, every play, the declared resolutions and the
    result, and its own seed (game k of seed S has seed S/k).
    """
    from ...making.selfplay import game_text, play_archive

    run = Run()
    names = _seats(bots or ("careful" if human else None), players)
    rule = making.scoring(scoring, points)
    chosen = making.deck(run, deck)
    seed = making.seed(seed)
    if human:
        from ..human import play_at_terminal, seats_of

        path = f"game-{_SAFE.sub('_', seed)}.ord" if output == "-" else output
        play_at_terminal(run, names, seats_of(human, len(names)), rule, chosen, seed, path, force)
        raise run.exit()
    with run.output(output, force) as out, run.progress("playing", total=games) as progress:
        for k, played in enumerate(play_archive(seed, games, names, chosen, rule), 1):
            out.stream.write(("\n" if k > 1 else "") + game_text(played, round=k))
            progress.advance()
    raise run.exit()


def _seats(bots: str | None, players: int | None) -> list[str]:
    """The bot of each seat, P1 first."""
    names = [b.strip() for b in (bots or "random").split(",")]
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        raise typer.BadParameter(
            f"unknown bot {unknown[0]!r}; bots are {', '.join(BOTS)}", param_hint="--bots"
        )
    if len(names) == 1:
        names = names * (players or 2)
    if players is not None and len(names) != players:
        raise typer.BadParameter(f"{len(names)} bots for {players} seats", param_hint="--bots")
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        raise typer.BadParameter("2 to 4 bots, one per seat", param_hint="--bots")
    return names
