"""``ordo play --human``: a game at the terminal, people at some seats and
built-in bots at the others, its record written after every play."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import typer

from ..engine.cards import seat_number
from .console import console
from .running import Run, already_exists

if TYPE_CHECKING:
    from ..engine.game import Turn
    from ..engine.scoring import Outcome, Scoring
    from ..making.dealing import Deck

HUMAN = "human"


def typed_line(prompt: str) -> str:
    """A line typed after ``prompt``, as ``input`` gives it but for a NUL in it:
    ``input`` reads the terminal as C text, which ends at a NUL, so a line
    holding one was swallowed whole and the prompt waited on; read here, the
    NUL reaches the validator, which names it. Raises EOFError at the end of input."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\r\n")


def seats_of(humans: Sequence[str], seats: int) -> set[int]:
    """The seats named by ``--human`` (``P1``, or ``P1,P3``)."""
    found = set()
    for word in (w.strip() for given in humans for w in given.split(",")):
        seat = seat_number(word)
        if seat is None or seat >= seats:
            raise typer.BadParameter(
                f"{word!r} is no seat of {seats}: P1 to P{seats}", param_hint="--human"
            )
        found.add(seat)
    return found


def play_at_terminal(
    run: Run, bots: list[str], humans: set[int], rule: Scoring, deck: Deck, seed: str, path: str,
    force: bool,
) -> None:  # fmt: skip
    """One game from the deal of ``seed``; its record ``path`` is rewritten
    whole after every play, a valid record (unfinished until the end)
    whenever the game stops, however it stops."""
    from ..files.output import OutputExists, not_written, snapshot, write_atomic
    from ..making.dealing import deal
    from ..making.players import Builtin, Player
    from ..making.selfplay import record_text
    from ..making.table import play_table
    from ..views.seat import Stopped, TerminalSeat, shown, table

    names = [HUMAN if seat in humans else bot for seat, bot in enumerate(bots)]
    dealt = deal(deck, len(names), seed)
    out = console()

    def record(turns: Sequence[Turn], outcome: Outcome | None = None) -> str:
        return record_text(seed, names, rule, deck.name, dealt, turns, outcome, "Play")

    players: list[Player] = [
        TerminalSeat(HUMAN, record, out, typed_line) if seat in humans else Builtin(name)
        for seat, name in enumerate(names)
    ]
    written = None

    def keep(turns: Sequence[Turn], outcome: Outcome | None = None) -> None:
        nonlocal written
        try:
            write_atomic(path, record(turns, outcome), force or written is not None, written)
            if written is None:
                run.err.print(
                    f"the record: {path}, written after every play; `quit` or Ctrl-C stops"
                )
            written = snapshot(path)
        except OutputExists:
            raise run.stop(already_exists(path), unusable=True) from None
        except OSError as error:
            raise run.stop(not_written(path, error), unusable=True) from None

    try:
        played = play_table(dealt, players, rule, seed, keep)
    except (Stopped, KeyboardInterrupt) as stop:
        out.print()
        run.err.print(f"stopped: the game so far is in {path}, unfinished")
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0) from None
    assert played.outcome is not None  # people and built-in bots make only legal plays
    keep(played.turns, played.outcome)
    width, height = out.size
    out.clear()
    shown(out, table(record(played.turns, played.outcome), None, width, height - 2))
    run.err.print(f"the record: {path}")
