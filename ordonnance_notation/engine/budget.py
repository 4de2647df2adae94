"""How much a search may cost, and the way to end one at once."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import ClassVar


class OutOfBudget(Exception):
    """The search met its budget before it found what was asked."""


class Budget:
    """How much a search may cost: ``seconds`` of the process's CPU time (the
    whole of what it asks: bounds, values and the plays that kept one),
    ``nodes`` positions looked at (None: no limit). One budget may serve
    several searches. A budget of 0 s is spent at its first look at the
    clock, so what it reaches is the same however fast the machine is.
    ``watch``, when set, is called about every ``WATCH`` seconds of a
    search and may raise to end it at once (the command line's reader gone)."""

    __slots__ = ("_looks", "_watched", "deadline", "most", "nodes")

    watch: ClassVar[Callable[[], None] | None] = None
    WATCH = 0.25

    def __init__(self, seconds: float | None = None, nodes: int | None = None) -> None:
        # math.inf: --budget unlimited
        self.deadline = None if seconds in (None, math.inf) else time.process_time() + seconds
        self.most = nodes
        self.nodes = 0
        self._looks = 0
        self._watched = time.monotonic()

    def spend(self) -> None:
        """One more position; raises OutOfBudget once the budget is spent."""
        self.nodes += 1
        if self.most is not None and self.nodes > self.most:
            raise OutOfBudget
        if not self.nodes & 31:
            self._clock()

    def check(self) -> None:
        """A step of work that is not a position (a bound's): raises
        OutOfBudget once the time is spent."""
        self._looks += 1
        if self._looks & 7 == 1:  # the first step looks too: a budget of 0 s does nothing
            self._clock()

    def _clock(self) -> None:
        if self.deadline is not None and time.process_time() >= self.deadline:
            raise OutOfBudget
        self.watched()

    def watched(self) -> None:
        """Asks ``watch`` if it is time to (it may raise)."""
        if Budget.watch is not None and time.monotonic() - self._watched >= self.WATCH:
            self._watched = time.monotonic()
            Budget.watch()

    @property
    def spent(self) -> bool:
        if self.most is not None and self.nodes >= self.most:
            return True
        return self.deadline is not None and time.process_time() >= self.deadline

    @property
    def seconds_left(self) -> float:
        """CPU seconds left (-1.0: no limit), for the compiled search."""
        return -1.0 if self.deadline is None else max(self.deadline - time.process_time(), 0.0)
