"""``ordo match``."""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Annotated

import typer

from ..diagnostics import Diagnostic, InputError
from ..engine.game import MAX_SEATS, MIN_SEATS
from ..making.bots import BOTS
from . import making
from .options import DeckFile, Force, Format, FormatOption, Points, Rule, Scoring, Seed
from .running import Run

if TYPE_CHECKING:
    from ..making.players import BotStartError
    from ..making.statistics import Sprt

NAME = "match"
SHORT = "Bots against each other: mirrored deals, win shares, Elo, SPRT."

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
        "--move-time", min=0.001, help="Seconds a program has for each play; past it, it forfeits."
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


def command(
    bots: Bots,
    games: Games = None,
    seed: Seed = None,
    deck: DeckFile = None,
    scoring: Scoring = Rule.classic,
    points: Points = None,
    jobs: MatchJobs = 1,
    move_time: MoveTime = 5.0,
    sprt: SprtOption = None,
    alpha: Alpha = 0.05,
    beta: Beta = 0.05,
    logs: Logs = None,
    output: MatchOutput = None,
    force: Force = False,
    format: FormatOption = Format.text,
) -> None:
    """Play a match: deals in mirrored sets, each played once with every
    rotation of the seats, so that the luck of the deal cancels out.

    Prints each bot's wins and win share with its 95% interval; for two bots
    the Elo difference of the first over the second, and with --sprt the
    sequential probability ratio test, which stops the match once it decides.
    A program that breaks the protocol forfeits the game (docs/bots.md).
    """
    from ..files.output import not_written, terminated_as_interrupted
    from ..making.match import MatchGame, Plan, Tally, logs_folder, names_of
    from ..making.players import BotStartError, adopt_orphans
    from ..runs.matches import run_match
    from ..views.match import render_text, to_json

    run = Run()
    if not MIN_SEATS <= len(bots) <= MAX_SEATS:
        raise typer.BadParameter(f"{len(bots)} bots: 2 to 4, one a seat", param_hint="BOT")
    rule = making.scoring(scoring, points)
    chosen = making.deck(run, deck)
    seed = making.seed(seed)
    most = games if games is not None else GAMES if sprt is None else SPRT_GAMES
    try:
        folder = logs_folder(bots, logs)
    except OSError as error:
        raise run.stop(not_written(str(logs), error), unusable=True) from None
    adopt_orphans()  # what a bot leaves behind is ordo's to end (docs/bots.md)
    # SIGTERM, as Ctrl-C, ends the bots on the way out (by default it would end ordo alone)
    with terminated_as_interrupted():
        try:
            names = names_of(bots, move_time, folder)
        except BotStartError as error:
            raise run.stop(_not_started(error), unusable=True) from None
        test = None if sprt is None else _sprt_test(names, sprt, alpha, beta)
        plan = Plan(tuple(bots), names, seed, chosen, rule, move_time, folder)
        written = run.output(output, force) if output is not None else contextlib.nullcontext()
        total = -(-most // len(bots)) * len(bots)
        with written as out, run.progress("playing", total=total) as bar:

            def played(game: MatchGame, tally: Tally) -> None:
                if out is not None:
                    out.stream.write(("\n" if tally.games > 1 else "") + game.text)
                bar.advance()
                bar.describe(f"playing: {tally.line()}")

            tally = run_match(plan, most, jobs, test, played)
    if format is Format.json:
        typer.echo(json.dumps(to_json(tally, test, folder), indent=2, ensure_ascii=False))
    else:
        typer.echo(render_text(tally, test, folder), nl=False)
    raise run.exit()


def _not_started(error: BotStartError) -> InputError:
    return InputError(
        Diagnostic(
            "E010",
            f"the bot {error.reason}",
            error.spec,
            help="check the command: run it and type `ordo 1`; it should answer "
            "`bot NAME` (docs/bots.md)",
        )
    )


def _sprt_test(
    names: tuple[str, ...], sprt: tuple[float, float], alpha: float, beta: float
) -> Sprt:
    from ..making.statistics import Sprt

    if len(set(names)) != 2:
        raise typer.BadParameter("the SPRT compares two bots", param_hint="--sprt")
    if sprt[0] >= sprt[1]:
        raise typer.BadParameter("elo0 is below elo1", param_hint="--sprt")
    return Sprt(sprt[0], sprt[1], alpha, beta)
