"""A record replayed, as the library hands it to a user: a sequence of
positions that print as the terminal board and draw themselves in a
notebook (``_repr_svg_``; the game's ``_repr_html_`` is the page of
``ordo view``). The words and pictures are the views' own (``board``,
``picture``, ``page``); this module only puts them on the values.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import overload

from ..checking.report import Report, Step
from ..checking.validator import validate
from ..diagnostics import Diagnostic, InvalidRecord, Severity
from ..engine.armies import Army
from ..engine.cards import Card, Seat, State, seat_name
from ..engine.game import Game, Turn
from ..engine.scoring import Scoring, score
from ..files.sources import Source
from ..notation.record import Record, Unparsed
from ..runs.workers import Workers
from .board import render_step
from .page import Pages
from .picture import step_picture
from .steps import Steps, steps_of


@dataclass(frozen=True, slots=True)
class Replay:
    """A record replayed under the rules: ``replay[k]`` is the ``Position``
    after ply k (``replay[0]`` before the first play, ``replay[-1]`` the
    last), ``len(replay)`` the number of positions. A record with an
    illegal play stops at the last legal position; ``stopped`` says why.

    Printed, it is its last position's board; in a notebook its
    ``_repr_html_`` is the page of ``ordo view`` (every step, keys and a
    slider), and ``_repr_svg_`` the picture of the last position."""

    report: Report

    @classmethod
    def of(cls, item: Record | Unparsed | Report) -> Replay:
        """The replay of a record (or of its report, checked again with its
        steps when they were not kept). Raises InvalidRecord, carrying the
        errors, when the rules could not start: the record could not be
        read, or its header or deal has errors."""
        report = item if isinstance(item, Report) else validate(item, steps=True)
        steps = steps_of(report)
        if steps is None:
            errors = tuple(d for d in report.diagnostics if d.severity is Severity.ERROR)
            raise InvalidRecord(errors)
        return cls(steps.report)

    @property
    def names(self) -> tuple[str, ...]:
        """The players, in seat order (as the tags name them, else ``P1``...)."""
        return self.report.names or tuple(map(seat_name, range(self.final.game.seats)))

    @property
    def tags(self) -> Mapping[str, str]:
        """The record's tags by name (``Record.tags``)."""
        return {} if self.report.record is None else self.report.record.tags

    @property
    def valid(self) -> bool:
        """Whether the record has no error (a warning leaves it valid)."""
        return self.report.valid

    @property
    def winner(self) -> Seat | None:
        """The seat that won, when the game was finished and checked; None
        while unfinished, or when the win is shared."""
        outcome = self.report.outcome
        return None if outcome is None or outcome.winner is None else Seat.of(outcome.winner)

    @property
    def stopped(self) -> Diagnostic | None:
        """Why the replay stops early: the error at the play it could not
        make, with its place, code and hint; None when every play was played."""
        return self.report.stopped

    @property
    def record(self) -> Record:
        """The record replayed."""
        assert self.report.record is not None  # a replay has its record (``of``)
        return self.report.record

    def __len__(self) -> int:
        return len(self.report.steps)

    @overload
    def __getitem__(self, ply: int) -> Position: ...

    @overload
    def __getitem__(self, ply: slice) -> list[Position]: ...

    def __getitem__(self, ply: int | slice) -> Position | list[Position]:
        """The position after ``ply`` (negative counts from the end), or a
        list of them for a slice (``replay[10:13]``). Raises IndexError."""
        numbers = range(len(self))
        if isinstance(ply, slice):
            return [Position(self.report, number) for number in numbers[ply]]
        if not -len(numbers) <= ply < len(numbers):
            raise IndexError(f"no ply {ply}: this replay has positions 0 to {len(numbers) - 1}")
        return Position(self.report, numbers[ply])

    def __iter__(self) -> Iterator[Position]:
        return (Position(self.report, number) for number in range(len(self)))

    @property
    def final(self) -> Position:
        """The last position the rules reached."""
        return self[-1]

    def __str__(self) -> str:
        return str(self.final)

    def __repr__(self) -> str:
        where = f"{self.report.source} #{self.report.index}"
        return f"<Replay of {where}: {len(self) - 1} plies, {self.report.verdict}>"

    def _repr_svg_(self) -> str:
        return self.final._repr_svg_()

    def _repr_html_(self) -> str:
        """The page of ``ordo view`` for this record, in a frame of its own
        (its script and style stay out of the notebook's)."""
        record = self.record
        first = record.span.line if record.span is not None else 1
        text = "\n" * (first - 1) + record.text  # its lines numbered as in its file
        source = Source(self.report.source, text)
        with Workers(1) as workers:
            page = "".join(Pages([source.name], workers, title=repr(self), opener=lambda _: source))
        return (
            f'<iframe srcdoc="{html.escape(page, quote=True)}" '
            'style="width:100%;height:640px;border:0" title="ordo view"></iframe>'
        )


@dataclass(frozen=True, slots=True)
class Position:
    """The table after one ply of a replay: the engine's ``game`` with the
    players' names and what the ply did. Printed, it is the board of ``ordo
    replay``; in a notebook it draws itself (``_repr_svg_``, the picture of
    ``ordo view``). ``play`` tries a play from here: the position after it,
    off the record."""

    report: Report
    number: int

    @property
    def _step(self) -> Step:
        return self.report.steps[self.number]

    @property
    def _steps(self) -> Steps:
        return Steps(self.report)

    @property
    def ply(self) -> int:
        """Plies played to reach this position (0 before the first)."""
        return self.number

    @property
    def game(self) -> Game:
        """The engine's position: every army, hand and resolution."""
        return self._step.game

    @property
    def turn(self) -> Turn | None:
        """What the last ply did (who played what where, what it drew and
        resolved); None before the first play."""
        return self._step.turn

    @property
    def to_move(self) -> Seat:
        """The seat whose turn it is."""
        return self.game.to_move

    @property
    def over(self) -> bool:
        """Whether every state is resolved."""
        return self.game.over

    def legal_plays(self) -> tuple[tuple[Card, State], ...]:
        """Every play the seat to move may make, as ``(card, state)``. Raises
        ValueError when the record has no deal (the hands are unknown) or the
        game is over."""
        return self.game.legal_plays()

    def army(self, state: State | int | str, seat: Seat | int | str) -> Army:
        """One seat's units in one state: ``army("J", "P1")``. Raises
        ValueError for a word that is no state or no seat of this game."""
        return self.game.army(State.of(state), self._seat(seat))

    def hand(self, seat: Seat | int | str) -> tuple[Card, ...] | None:
        """The cards ``seat`` holds here, before the turn's draw (the seat to
        move draws ``game.next_draw()`` first: ``legal_plays`` counts it);
        None when the record has no deal. Raises ValueError for a word that
        is no seat of this game."""
        hands = self.game.hands
        return None if hands is None else hands[self._seat(seat)]

    def play(
        self, card: Card | str | tuple[Card, State], state: State | str | None = None
    ) -> Position:
        """The position after the seat to move plays ``card`` to ``state``
        (``play("HF", "J")``, or a play as ``legal_plays`` gives it), off the
        record: the record's later plies are not in it. Raises IllegalPlay (a
        card not in hand, a full state, the game over), CardError or
        ValueError for words that are no card or state."""
        if isinstance(card, tuple):
            card, state = card
        if state is None:
            raise ValueError("a play is a card and a state: play('HF', 'J')")
        game, turn = self.game.play(card, state)
        report = self.report
        outcome = None
        if game.over:
            outcome = score(game.seats, game.resolutions, report.scoring or Scoring.classic())
        steps = (*report.steps[: self.number + 1], Step(self.number + 1, game, turn, None))
        variation = replace(
            report,
            diagnostics=(),
            game=game,
            turns=(*report.turns[: self.number], turn),
            outcome=outcome,
            stopped=None,
            steps=steps,
        )
        return Position(variation, self.number + 1)

    def picture(self, seat: Seat | int | str | None = None) -> str:
        """The position as an SVG document; with ``seat``, as that seat saw
        it: the other hands as counts, their cards not in the picture at all."""
        seen = None if seat is None else self._seat(seat)
        title = f"{self.report.source} #{self.report.index}, ply {self.number}"
        return step_picture(self._steps, self._step, seen).svg(title)

    def _seat(self, seat: Seat | int | str) -> Seat:
        found = Seat.of(seat)
        if found >= self.game.seats:
            raise ValueError(f"{found} is no seat of this game of {self.game.seats} seats")
        return found

    def __str__(self) -> str:
        return render_step(self._steps, self._step).plain

    def __repr__(self) -> str:
        where = "game over" if self.over else f"{self.to_move} to move"
        of = f"{self.report.source} #{self.report.index}"
        return f"<Position of {of} after ply {self.number}: {where}>"

    def _repr_svg_(self) -> str:
        return self.picture()
