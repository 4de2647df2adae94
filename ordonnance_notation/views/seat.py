"""A person at the table, at a terminal: the table as ``replay --step``
draws it, from the seat's side (its own hand; the other hands as counts),
the hand and the states it may play to, and a prompt that takes a play as
the notation writes it (``HF J``). A play is checked by the validator on
the record so far, so a mistyped one gets the validator's own message and
help (did you mean ...?), and the next prompt."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from ..checking.validator import validate
from ..diagnostics import Severity
from ..engine.cards import Card, State, seat_name
from ..engine.game import Game, Turn
from ..making.players import AtTable, Seating
from ..notation.parser import parse_text
from .board import render_compact
from .report import visible
from .steps import steps_of

RecordSoFar = Callable[[Sequence[Turn]], str]
"""The record of the game after the given plays, declared unfinished."""

_PLY_NUMBER = re.compile(r"^\s*\d+\s*\.\s*")
STOP_WORDS = ("quit", "exit")


class Stopped(Exception):
    """The person asked to stop (``quit``, end of input)."""


class TerminalSeat(AtTable):
    """A seat played by a person at ``console``, its lines read by ``ask``."""

    def __init__(
        self, name: str, record: RecordSoFar, console: Console, ask: Callable[[str], str]
    ) -> None:
        self.name = name
        self.record = record
        self.console = console
        self.ask = ask
        self.seat = 0
        self.seats = 2
        self.turns: list[Turn] = []

    def begin(self, seating: Seating) -> None:
        self.seat, self.seats = seating.seat, seating.seats
        self.turns = []

    def saw(self, turn: Turn) -> None:
        self.turns.append(turn)

    def choose(self, game: Game, hand: Sequence[Card]) -> tuple[Card, State]:
        """Asks until a legal play is typed; raises Stopped."""
        said: list[str] = []
        while True:
            self.show(game, hand, said)
            try:
                typed = self.ask(f"{seat_name(self.seat)}> ")
            except EOFError:
                raise Stopped from None
            if typed.strip().lower() in STOP_WORDS:
                raise Stopped
            play, said = self.read(typed)
            if play is not None:
                return play

    def read(self, typed: str) -> tuple[tuple[Card, State] | None, list[str]]:
        """The play ``typed`` stands for, or what is wrong with it in the validator's words."""
        words = _PLY_NUMBER.sub("", typed, count=1).strip()
        if not words:
            return None, ["type a card of your hand and a state, as `HF J`; `quit` stops"]
        text = self.record(self.turns)
        ply = len(self.turns) + 1
        seat = f"{seat_name(self.seat)} " if self.seats > 2 else ""
        line = text.count("\n") + 1
        report = validate(next(iter(parse_text(f"{text}{ply}. {seat}{words}\n", "<play>"))))
        errors = [
            d
            for d in report.diagnostics
            if d.severity is Severity.ERROR and d.span is not None and d.span.line == line
        ]
        if errors:
            problem = errors[0]
            said = [f"{problem.message}"]
            if problem.help:
                said.append(f"help: {problem.help}")
            return None, said
        if len(report.turns) != ply:
            return None, [f"{words} is not one play: type a card and a state, as `HF J`"]
        turn = report.turns[-1]
        return (turn.card, turn.state), []

    def show(self, game: Game, hand: Sequence[Card], said: Sequence[str]) -> None:
        """The table from this seat, the hand and open states, and ``said``."""
        width, height = self.console.size
        bottom = [Text(self._hand_line(game, hand), "bold")]
        bottom += [Text(visible(line), "yellow") for line in said]
        room = max(height - len(bottom) - 1, 1)
        self.console.clear()
        shown(self.console, table(self.record(self.turns), self.seat, width, room) + bottom)

    def _hand_line(self, game: Game, hand: Sequence[Card]) -> str:
        drawn = game.next_draw()
        cards = " ".join(map(str, hand))
        states = " ".join(state.name for state in game.open_states(self.seat))
        drew = f" (drew {drawn})" if drawn is not None else ""
        return f"ply {game.ply + 1}, your play: a card of {cards}{drew} to a state of {states}"


def table(record: str, seat: int | None, width: int, height: int) -> list[Text]:
    """The table at the end of ``record`` (a valid one), as ``replay --step``
    draws it in ``width`` by ``height``; from ``seat``'s side, if given."""
    steps = steps_of(validate(next(iter(parse_text(record, "<table>")))))
    assert steps is not None  # the table wrote the record: it is valid
    return render_compact(steps, steps.steps[-1], seat, width, height)


def shown(console: Console, lines: list[Text]) -> None:
    width = console.size[0]
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    console.print(Text("\n").join(lines), soft_wrap=False, no_wrap=True, crop=True)
