"""Stepping through a checked record: the position after each ply, what the
ply did, and what each seat may see.

Step 0 is the table before the first play; step k the table after ply k.
Only plies the rules accepted are steps: a record with an illegal play stops
at the last legal position, and ``stopped`` says why. The steps are the
validator's own replay (``validate(item, steps=True)``): the game is played
once.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..checking.report import Report, Step
from ..checking.validator import validate
from ..diagnostics import Diagnostic

__all__ = ["Step", "Steps", "steps_of"]


@dataclass(frozen=True, slots=True)
class Steps:
    report: Report

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.report.steps

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def stopped(self) -> Diagnostic | None:
        """The error that ended the replay early, if any."""
        return self.report.stopped


def steps_of(report: Report) -> Steps | None:
    """Every step of a report's game; None when the rules never started (the
    record could not be read, or its header or deal has errors). A report made
    without its steps is checked again, with them."""
    if report.record is None or report.game is None:
        return None
    if not report.steps:
        report = validate(report.record, steps=True)
    return Steps(report)
