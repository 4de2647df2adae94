"""``ordo match``."""

from __future__ import annotations

import contextlib
import json
from functools import partial
from typing import Annotated

import typer

from ..diagnostics import Diagnostic, InputError
from ..engine.game import MAX_SEATS, MIN_SEATS
from ..making.bots import BOTS
from . import making
from .options import DeckFile, Force, Format, FormatOption, Points, Rule, Scoring, Seed
from .running import Run

NAME = "match"
SHORT = "Play bots against each other: mirrored deals, win shares, Elo, SPRT."

Bots = Annotated[
    list[str],
    typer.Argument(
        help=f"2 to 4 bots, one a seat: a built-in bot ({', '.join(BOTS)}) or the command "
        "of a program that speaks the bot protocol (docs/bots.md), quoted as one word.",
        show_default=False,
        metavar="BOT",
    ),
]
Games = Annotated[
    int,
    typer.Option(
        "--games", "-n", min=1, help="Games at least: rounded up to whole sets of seatings."
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
Alpha = Annotated[float, typer.Option("--alpha", min=1e-6, max=0.5, help="The SPRT's alpha.")]
Beta = Annotated[float, typer.Option("--beta", min=1e-6, max=0.5, help="The SPRT's beta.")]
Logs = Annotated[
    str | None,
    typer.Option(
        "--logs", help="A folder for the programs' standard error; default: a new temporary one."
    ),
]
MatchOutput = Annotated[
    str | None,
    typer.Option(
        "--output", "-o", help="An archive to write every game to, or - for standard output."
    ),
]


def command(
    bots: Bots,
    games: Games = 100,
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
    A program that breaks the protocol (an illegal play, a malformed line, no
    answer in time, a crash) forfeits that game and is started afresh.
    """
    from ..making.match import Plan, Tally, close_players, play_deals
    from ..making.statistics import Sprt
    from ..runs.workers import Workers
    from ..views.match import render_text, to_json

    run = Run()
    if not MIN_SEATS <= len(bots) <= MAX_SEATS:
        raise typer.BadParameter(f"{len(bots)} bots: 2 to 4, one a seat", param_hint="BOT")
    rule = making.scoring(scoring, points)
    chosen = making.deck(run, deck)
    seed = making.seed(seed)
    folder = _logs(bots, logs)
    names = _names(run, bots, move_time, folder)
    test = None
    if sprt is not None:
        if len(set(names)) != 2:
            raise typer.BadParameter("the SPRT compares two bots", param_hint="--sprt")
        if sprt[0] >= sprt[1]:
            raise typer.BadParameter("elo0 is below elo1", param_hint="--sprt")
        test = Sprt(sprt[0], sprt[1], alpha, beta)
    seats = len(bots)
    plan = Plan(tuple(bots), names, seed, chosen, rule, move_time, folder or "")
    deals = -(-games // seats)
    per_task = 1 if folder else 16  # a program's games are slow; a built-in's many a task
    tasks = [range(k, min(k + per_task, deals + 1)) for k in range(1, deals + 1, per_task)]
    tally = Tally(names, seats)
    written = run.output(output, force) if output is not None else contextlib.nullcontext()
    with written as out, run.progress("playing", total=deals * seats) as progress:
        try:
            with Workers(jobs) as pool:
                for done in pool.map(partial(play_deals, plan), tasks):
                    assert not isinstance(done, InputError)  # the work is numbers
                    for game in done:
                        if out is not None:
                            out.stream.write(("\n" if tally.games else "") + game.text)
                        tally.add(game)
                    progress.advance(len(done))
                    progress.describe(f"playing: {tally.line()}")
                    if test is not None and test.verdict(tally.llr(test)) is not None:
                        break
        finally:
            close_players()
    if format is Format.json:
        typer.echo(json.dumps(to_json(tally, test, folder), indent=2, ensure_ascii=False))
    else:
        typer.echo(render_text(tally, test, folder), nl=False)
    raise run.exit()


def _logs(bots: list[str], given: str | None) -> str | None:
    """The folder of the programs' logs; None when every bot is built in."""
    from ..making.players import is_builtin

    if all(map(is_builtin, bots)):
        return None
    if given is not None:
        return given
    import tempfile

    return tempfile.mkdtemp(prefix="ordo-match-")


def _names(run: Run, bots: list[str], move_time: float, folder: str | None) -> tuple[str, ...]:
    """What each bot is called: a built-in one by its name, a program by
    the name it gives itself (each started once here, to ask), and a second
    bot of a name taken by another numbered ``#2``."""
    from pathlib import Path

    from ..making.players import BotStartError, External, command_of, is_builtin

    names: dict[str, str] = {}
    for spec in bots:
        if spec in names:
            continue
        if is_builtin(spec):
            name = spec
        else:
            assert folder is not None
            program = External(command_of(spec), move_time, Path(folder) / "names.log")
            try:
                name = program.start()
            except BotStartError as error:
                problem = Diagnostic(
                    "E010",
                    f"the bot {error}",
                    spec,
                    help="check the command: run it and type `ordo 1`; it should answer "
                    "`bot NAME` (docs/bots.md)",
                )
                raise run.stop(InputError(problem), unusable=True) from None
            finally:
                program.close()
        taken = set(names.values())
        numbered, k = name, 1
        while numbered in taken:
            k += 1
            numbered = f"{name} #{k}"
        names[spec] = numbered
    return tuple(names[spec] for spec in bots)
