"""A match's run: its deals played on this process and its workers, each
game given back in order as soon as it is played, until the games asked
for are played or the SPRT decides."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..diagnostics import InputError
from ..making.match import MatchGame, Plan, Tally, close_players, play_deals
from ..making.statistics import Sprt
from .workers import Workers


def run_match(
    plan: Plan,
    games: int,
    jobs: int,
    test: Sprt | None,
    played: Callable[[MatchGame, Tally], None],
) -> Tally:
    """At least ``games`` games of ``plan`` in whole sets of seatings, each
    given to ``played`` with the tally after it; the tally at the end. The
    programs' bots of every process are ended on every way out, and what
    they left behind (``players.ending``)."""
    deals = -(-games // plan.seats)
    per_task = 16 if plan.fast else 1  # a program's games are slow; a built-in's many a task
    tasks = [range(k, min(k + per_task, deals + 1)) for k in range(1, deals + 1, per_task)]
    tally = Tally(plan.names, plan.seats)
    try:
        with Workers(jobs) as pool:
            for done in pool.map(partial(play_deals, plan), tasks):
                assert not isinstance(done, InputError)  # the work is numbers
                for game in done:
                    tally.add(game)
                    played(game, tally)
                if test is not None and test.verdict(tally.llr(test)) is not None:
                    break
    except BaseException:  # stopped: what the bots are thinking is not waited for
        close_players(stopped=True)
        raise
    close_players()
    return tally
