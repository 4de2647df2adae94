"""The first plays of an archive: ``ordo explore``.

As an opening explorer does for chess: for the games that begin with a given
opening (none: every game), each play made at the next ply, how many games
made it and how often the seat that made it won, down to ``depth`` plies
after the opening. Games of different seat counts are counted apart. Only
records valid to their last play count (an invalid one is counted as left
out); wins count among the finished games, a shared win as no win.

Each block is counted on a worker; the counts are merged here, one entry per
line of plays met, so memory grows with the lines, not with the archive.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial

from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..checking.validator import validate
from ..diagnostics import InputError
from ..engine.cards import Card, CardError, State
from ..engine.decisions import play_code
from ..notation.parser import parse_record
from ..runs.blocks import Block, block_chunks
from ..runs.inputs import over_inputs
from ..runs.workers import Workers
from .content import QueryError

PlayCode = int  # a play as the compiled core codes it (``decisions.play_code``)
Line = tuple[PlayCode, ...]  # the plays after the opening, in order


_PLY = re.compile(r"^[0-9]+\.$")


def opening_of(text: str) -> Line:
    """The plays of an opening as written: ``'LS J, S E'`` (ply numbers, as
    in ``'1. LS J 2. S E'``, may be written too). Raises QueryError."""
    words = [w for w in text.replace(",", " ").replace(";", " ").split() if not _PLY.match(w)]
    if len(words) % 2:
        raise QueryError(f"--after {text!r}: write each play as CARD STATE, e.g. 'LS J, S E'")
    plays = []
    for letters, word in zip(words[::2], words[1::2], strict=True):
        state = State.lookup(word)
        try:
            card = Card.from_letters(letters.upper())
        except CardError:
            raise QueryError(f"--after {text!r}: {letters!r} is no card") from None
        if state is None:
            raise QueryError(f"--after {text!r}: {word!r} is no state (A, C, J, E or T)")
        plays.append(play_code(card, state))
    return tuple(plays)


@dataclass(slots=True)
class Tally:
    """The games through one line of plays: how many, how many finished, and
    how many the seat of its last play won."""

    games: int = 0
    finished: int = 0
    won: int = 0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.finished += other.finished
        self.won += other.won


@dataclass(slots=True)
class Explored:
    """What a block (or the whole archive) came to: the lines met by seat
    count (the opening itself as ``()``), the records read and those left out."""

    source: str = ""
    records: int = 0
    left_out: int = 0
    lines: dict[tuple[int, Line], Tally] = field(default_factory=dict)

    def count(
        self, seats: int, start: int, plays: Sequence[PlayCode], winner: int | None, over: bool
    ) -> None:
        """A game of ``seats`` through ``plays``, counted on each line from ``start`` plies on."""
        for length in range(start, len(plays) + 1):
            key = (seats, tuple(plays[start:length]))
            tally = self.lines.get(key)
            if tally is None:
                tally = self.lines[key] = Tally()
            tally.games += 1
            tally.finished += over
            tally.won += over and winner is not None and (length - 1) % seats == winner

    def add(self, other: Explored) -> None:
        self.records += other.records
        self.left_out += other.left_out
        for key, tally in other.lines.items():
            mine = self.lines.get(key)
            if mine is None:
                self.lines[key] = tally
            else:
                mine.add(tally)


def explored_block(block: Block, opening: Line, depth: int) -> Explored:
    """The counts of ``block`` (on a worker): the records the compiled core
    accepts from what it read, the others replayed here."""
    found = None if block.one_record else replayed_block(block.first_line, block.text)
    explored = Explored(block.source)
    for item in block_chunks(block) if found is None else found:
        if isinstance(item, Replayed):
            explored.records += 1
            plays = [play_code(card, state) for card, state in item.plays]
            seats, winner, over = len(item.names), item.outcome.winner, len(item.markers) == 5
        else:
            first_line, text = item
            if not text.strip():
                continue
            parsed = parse_record(text, first_line, block.source, explored.records + 1)
            if parsed is None:  # comments alone
                continue
            explored.records += 1
            report = validate(parsed)
            if not report.valid or report.game is None:
                explored.left_out += 1
                continue
            plays = [play_code(turn.card, turn.state) for turn in report.turns]
            seats, over = report.game.seats, report.game.over
            winner = None if report.outcome is None else report.outcome.winner
        if tuple(plays[: len(opening)]) == opening:
            line = plays[: len(opening) + depth]
            explored.count(seats, len(opening), line, winner, over)
    return explored


def explore(
    paths: Sequence[str], opening: Line, depth: int, workers: Workers
) -> Iterator[Explored | InputError]:
    """The counts of every input, merged: each input that cannot be used is
    yielded in its place, the whole ``Explored`` last (its lines keyed by the
    plays after the opening)."""
    total = Explored()
    for part in over_inputs(paths, partial(explored_block, opening=opening, depth=depth), workers):
        if isinstance(part, InputError):
            yield part
        else:
            total.add(part)
    yield total
