"""What ``deal`` and ``play`` share: the scoring rule, the deck and the
seed; and ``--judge``: its options, and what ``analyse``, ``summary`` and
``view`` make of them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ..checking.header import points_table
from ..diagnostics import DeckError
from ..engine.scoring import DEFAULT_POINTS, Scoring
from .options import Rule
from .running import Run

if TYPE_CHECKING:
    from ..making.dealing import Deck
    from ..views.judgement import Judging

Judge = Annotated[
    bool,
    typer.Option(
        "--judge",
        help="Also judge every play from its seat's view: its win chance before and after "
        "over deals of the cards it had not seen, played out by careful bots (records "
        "with a deal).",
    ),
]
Playouts = Annotated[
    int,
    typer.Option(
        "--playouts",
        min=10,
        max=10_000_000,
        help="Play-outs a ply for --judge, over the plays it compares.",
    ),
]
JudgeSeed = Annotated[
    str,
    typer.Option(
        "--judge-seed", help="Any text: the deals --judge samples; the same seed, the same output."
    ),
]
JudgeDeck = Annotated[
    str | None,
    typer.Option(
        "--judge-deck",
        help="A deck file (YAML) the seats are taken to know for --judge; default: the "
        "cards of the record's own deal.",
    ),
]


def scoring(rule: Rule, points: str | None) -> Scoring:
    if rule is Rule.classic:
        if points is not None:
            raise typer.BadParameter("--points needs --scoring points", param_hint="--points")
        return Scoring.classic()
    if points is None:
        return Scoring.by_points(DEFAULT_POINTS)
    try:
        table = points_table(points)
    except ValueError as error:
        raise typer.BadParameter(f"the table {error}", param_hint="--points") from None
    return Scoring.by_points(table)


def deck(run: Run, path: str | None) -> Deck:
    from ..making.dealing import load_deck

    try:
        return load_deck(path)
    except DeckError as error:
        raise run.stop(error, unusable=True) from None


def seed(given: str | None) -> str:
    if given is None:
        import secrets

        return str(secrets.randbits(63))
    if not given or not given.isprintable():
        raise typer.BadParameter("a seed is printable text on one line", param_hint="--seed")
    return given


def judging(
    run: Run, judge: bool, playouts: int, judge_seed: str, judge_deck: str | None
) -> Judging | None:
    """How ``--judge`` judges, from its options; None without it."""
    if not judge:
        return None
    from ..views.judgement import Judging

    known = None if judge_deck is None else deck(run, judge_deck)
    return Judging(playouts, seed(judge_seed) if judge_seed else "", known)
