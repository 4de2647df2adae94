"""Stepping through a validated record: the position after each ply, what the
ply did, and what each seat may see.

Step 0 is the table before the first play; step k the table after ply k.
Only plies the rules accepted are steps: a record with an illegal play stops
at the last legal position, and ``stopped`` says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checking.validator import Report
from ..diagnostics import Diagnostic, Severity
from ..engine.game import Game, Turn
from ..notation.record import Play


@dataclass(frozen=True, slots=True)
class Step:
    number: int  # the ply just played; 0 before the first
    game: Game
    turn: Turn | None  # what that ply did; None at step 0
    play: Play | None  # as written (comments, glyph); None at step 0


@dataclass(frozen=True, slots=True)
class Replay:
    report: Report
    steps: tuple[Step, ...]
    stopped: Diagnostic | None  # the error that ended the replay early, if any

    @property
    def last(self) -> int:
        return len(self.steps) - 1


def replay(report: Report) -> Replay | None:
    """Every step of a report's game; None when the rules never started (the
    header or the deal could not be read)."""
    if report.game is None or report.record is None:
        return None
    game = Game.new(report.game.seats, report.deal)
    steps = [Step(0, game, None, None)]
    for turn, play in zip(report.turns, report.record.plays):
        game, done = game.play(
            turn.card, turn.state, drawn=turn.drawn if report.deal is None else None
        )
        steps.append(Step(turn.ply, game, done, play))
    stopped = next(
        (
            d
            for d in report.diagnostics
            if d.severity is Severity.ERROR and d.code[:2] in ("E2", "E3") and d.ply
        ),
        None,
    )
    return Replay(report, tuple(steps), stopped)
