"""``ordo match``."""

from __future__ import annotations

import contextlib
import json
import signal
from typing import TYPE_CHECKING

import typer

from ...diagnostics import Diagnostic, InputError
from ...engine.game import MAX_SEATS, MIN_SEATS
from .. import making
from ..matching import (
    Alpha,
    Beta,
    Bots,
    Games,
    Logs,
    MatchJobs,
    MatchOutput,
    MoveTime,
    SprtOption,
    games_to_play,
)
from ..options import DeckFile, Force, Format, FormatOption, Points, Rule, Scoring, Seed
from ..running import Run

if TYPE_CHECKING:
    from ...making.players import BotStartError
    from ...making.statistics import Sprt

# a terminal closed (SIGHUP), Ctrl-\ (SIGQUIT) and SIGTERM: the bots ended on the way out
ENDING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, n))

NAME = "match"
SHORT = "Bots against each other: mirrored deals, win shares, Elo, SPRT."


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
    from ...files.output import terminated_as_interrupted
    from ...making.match import MatchGame, Plan, Tally
    from ...making.players import adopt_orphans
    from ...runs.matches import run_match
    from ...views.match import render_text, to_json

    run = Run()
    if not MIN_SEATS <= len(bots) <= MAX_SEATS:
        raise typer.BadParameter(f"{len(bots)} bots: 2 to 4, one a seat", param_hint="BOT")
    rule = making.scoring(scoring, points)
    chosen = making.deck(run, deck)
    seed = making.seed(seed)
    most = games_to_play(games, sprt)
    folder = _logs(run, bots, logs)
    adopt_orphans()  # what a bot leaves behind is ordo's to end (docs/bots.md)
    with terminated_as_interrupted(*ENDING):  # these end the bots too, as Ctrl-C does
        names = _names(run, bots, move_time, folder)
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


def _logs(run: Run, bots: list[str], logs: str | None) -> str | None:
    from ...files.output import not_written
    from ...making.match import logs_folder

    try:
        return logs_folder(bots, logs)
    except OSError as error:
        raise run.stop(not_written(str(logs), error), unusable=True) from None


def _names(run: Run, bots: list[str], move_time: float, folder: str | None) -> tuple[str, ...]:
    from ...making.match import names_of
    from ...making.players import BotStartError

    try:
        return names_of(bots, move_time, folder)
    except BotStartError as error:
        raise run.stop(_not_started(error), unusable=True) from None


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
    from ...making.statistics import Sprt

    if len(set(names)) != 2:
        raise typer.BadParameter("the SPRT compares two bots", param_hint="--sprt")
    if sprt[0] >= sprt[1]:
        raise typer.BadParameter("elo0 is below elo1", param_hint="--sprt")
    return Sprt(sprt[0], sprt[1], alpha, beta)
