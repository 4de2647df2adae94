"""The table of ``ordo replay`` at a terminal: one step, or every step, by
keys where single keys can be read."""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING

from .console import console
from .running import Run

if TYPE_CHECKING:
    from rich.text import Text

    from ..views.steps import Steps


def shown(
    run: Run,
    steps: Steps,
    viewer: int | None,
    first_step: int,
    start: int,
    step: bool,
    into: IO[str] | None = None,
) -> None:
    """The table at ``start``; with ``step``, every step from ``first_step``:
    by keys on a terminal, one after another elsewhere (``into``: a file)."""
    from ..views.board import render_compact, render_step
    from ..views.stepper import Stepper, terminal_keys
    from ..views.stepper import run as step_through

    out = console(file=into)
    on_terminal = step and sys.stdin.isatty() and out.is_terminal
    keys = terminal_keys() if on_terminal else None
    if keys is not None:

        def fitted(position: int, width: int, height: int) -> list[Text]:
            return render_compact(steps, steps.steps[position], viewer, width, height)

        step_through(Stepper(steps.last, first_step), keys, fitted, out)
        return
    if not step:
        out.print(render_step(steps, steps.steps[start], viewer))
        return
    if on_terminal:
        run.err.print("--step: single keys cannot be read here (no termios); every step follows")
    for position in range(first_step, steps.last + 1):
        if position != first_step:
            out.print("─" * 60)
        out.print(render_step(steps, steps.steps[position], viewer))
