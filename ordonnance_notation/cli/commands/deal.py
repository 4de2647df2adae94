"""``ordo deal``."""

from __future__ import annotations

from typing import Annotated

import typer

from ...engine.game import MAX_SEATS, MIN_SEATS
from .. import making
from ..options import DeckFile, Force, Output, Points, Rule, Scoring, Seed
from ..running import Run

NAME = "deal"
SHORT = "Deal a new game: its header and deal, ready to play."

Players = Annotated[
    int, typer.Option("--players", "-p", min=MIN_SEATS, max=MAX_SEATS, help="Seats, 2 to 4.")
]
Names = Annotated[
    str | None, typer.Option("--names", help="Players' names, comma-separated, P1 first.")
]


def command(
    players: Players = 2,
    seed: Seed = None,
    deck: DeckFile = None,
    scoring: Scoring = Rule.classic,
    points: Points = None,
    names: Names = None,
    output: Output = "-",
    force: Force = False,
) -> None:
    """Deal a new game: a record with its header and the deal, ready to be played.

    Same seed, same version: the same record, byte for byte, on any machine.
    """
    from ...making.dealing import deal
    from ...making.selfplay import deal_text

    run = Run()
    rule = making.scoring(scoring, points)
    chosen = making.deck(run, deck)
    seats = [n.strip() for n in names.split(",")] if names else ["?"] * players
    if not all(name.isprintable() for name in seats):
        raise typer.BadParameter("names are printable text on one line", param_hint="--names")
    if len(seats) != players:
        raise typer.BadParameter(f"{len(seats)} names for {players} seats", param_hint="--names")
    seed = making.seed(seed)
    text = deal_text(deal(chosen, players, seed), seed, chosen.name, seats, rule)
    with run.output(output, force) as out:
        out.stream.write(text)
    raise run.exit()
