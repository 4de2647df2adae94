"""Choosing records from archives: ``ordo select``.

A ``Query`` is the conjunction of its tests; each is read from the words a
user types (``Event=Lyon*``, ``Anna:Jerusalem``) by ``Query.of``, which
raises QueryError for a word it cannot read. Names and tag values match as
shell patterns (``*``, ``?``, ``[...]``), ignoring case. Tests on what the
rules decide (validity, the winner, who won a state, the scoring rule) need
the replay; tests on the header alone do not pay for it.

The selected records come back as their own text, comments and spacing kept,
a block of records at a time on the workers.
"""

from __future__ import annotations

from calendar import monthrange
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from ..checking.dates import Date, read_date
from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..checking.report import Report
from ..checking.validator import validate
from ..diagnostics import InputError
from ..engine.cards import State, seat_name
from ..engine.game import MAX_SEATS
from ..notation.parser import parse_record
from ..notation.record import Play, Record, Unparsed
from ..runs.blocks import Block, block_chunks
from ..runs.inputs import over_inputs
from ..runs.workers import Workers
from .content import NO_CONTENT, Content, Line, QueryError, Who, like
from .edits import NO_EDITS, Edits

if TYPE_CHECKING:
    from ..checking._quick import Declined

__all__ = ["Content", "Edits", "Query", "QueryError", "Selection"]


@dataclass(frozen=True, slots=True)
class Won:
    """``state`` won by ``who`` (by anyone when None)."""

    state: State
    who: Who | None


def _within(date: Date, since: Date | None, until: Date | None) -> bool:
    """Whether every day ``date`` may be lies in the range (a month given
    alone may be any of its days: it lies within only when all of them do)."""
    earliest = date + (1,) * (3 - len(date))
    latest: Date
    if len(date) == 1:
        latest = (date[0], 12, 31)
    elif len(date) == 2:
        latest = (*date, monthrange(*date)[1] if 1 <= date[1] <= 12 else 31)
    else:
        latest = date
    return (since is None or earliest >= since) and (until is None or latest <= until)


@dataclass(frozen=True, slots=True)
class Query:
    """Records that pass every test (or none, with ``invert``)."""

    tags: tuple[tuple[str, str | None], ...] = ()  # name, pattern (None: the tag is there)
    players: tuple[str, ...] = ()  # each names one of the seats
    winner: Who | None = None
    seats: frozenset[int] = frozenset()
    scoring: str | None = None  # "classic" or "points"
    valid: bool | None = None
    since: Date | None = None
    until: Date | None = None
    won: tuple[Won, ...] = ()
    invert: bool = False
    content: Content = NO_CONTENT
    replayed: bool = field(init=False)  # whether a test needs the replay

    def __post_init__(self) -> None:
        needs = (self.winner, self.scoring, self.valid, self.won)
        replayed = any(n is not None and n != () for n in needs) or bool(self.content)
        object.__setattr__(self, "replayed", replayed)

    @classmethod
    def of(
        cls,
        *,
        tags: Iterable[str] = (),
        players: Iterable[str] = (),
        winner: str | None = None,
        seats: Iterable[int] = (),
        scoring: str | None = None,
        valid: bool | None = None,
        since: str | None = None,
        until: str | None = None,
        won: Iterable[str] = (),
        invert: bool = False,
        content: Content = NO_CONTENT,
    ) -> Query:
        """A query from the words of ``ordo select``'s options (QueryError: one unreadable)."""
        return cls(
            tuple(_tag_test(t) for t in tags),
            tuple(players),
            Who(winner) if winner else None,
            frozenset(seats),
            scoring,
            valid,
            _date(since, "--since"),
            _date(until, "--until"),
            tuple(_won(w) for w in won),
            invert,
            content,
        )

    def passes(self, item: Record | Unparsed) -> bool:
        report = validate(item) if self.replayed else None
        return self._passes(item, report) != self.invert

    def passes_replayed(self, replayed: Replayed) -> bool:
        """``passes`` of a record the compiled core accepted (valid), from
        what it found."""
        tags = _by_name(replayed.tags)
        names = _players(tags)
        unit = "points" if replayed.scoring.is_points else "states"
        passed = self._passes_tags(tags, names) and (
            not self.replayed
            or (
                self._passes_game(names, True, unit, replayed.outcome.winner, replayed.won)
                and (not self.content or self.content.passes(_replayed_line(replayed), names))
            )
        )
        return passed != self.invert

    def _passes(self, item: Record | Unparsed, report: Report | None) -> bool:
        record = item if isinstance(item, Record) else item.partial
        tags = {} if record is None else _tags(record)
        names = _players(tags)
        if not self._passes_tags(tags, names):
            return False
        if report is None:
            return True
        resolutions = report.game.resolutions if report.game is not None else ()
        return self._passes_game(
            names,
            report.valid,
            None if report.scoring is None else report.scoring.unit,
            None if report.outcome is None else report.outcome.winner,
            tuple((r.state, r.winner) for r in resolutions),
        ) and (not self.content or self.content.passes(_report_line(report, record), names))

    def _passes_tags(self, tags: dict[str, str], names: dict[int, str]) -> bool:
        """The tests of the header alone."""
        for name, pattern in self.tags:
            value = tags.get(name.casefold())
            if value is None or (pattern is not None and not like(pattern, value)):
                return False
        if not all(any(like(p, n) for n in names.values()) for p in self.players):
            return False
        if self.seats and len(names) not in self.seats:
            return False
        if self.since is not None or self.until is not None:
            date = read_date(tags.get("date", ""))
            if date is None or not _within(date, self.since, self.until):
                return False
        return True

    def _passes_game(
        self,
        names: dict[int, str],
        valid: bool,
        unit: str | None,
        winner: int | None,
        won: tuple[tuple[State, int], ...],
    ) -> bool:
        """The tests of the replay: ``unit``, what the scores count (None:
        unknown); ``winner``, None when shared or unknown; ``won``, who won
        each state resolved, as ``(state, seat)``."""
        if self.valid is not None and valid != self.valid:
            return False
        if self.scoring is not None and unit != _UNITS[self.scoring]:
            return False
        if self.winner is not None and (winner is None or not self.winner.names(winner, names)):
            return False
        for test in self.won:
            if not any(
                state is test.state and (test.who is None or test.who.names(seat, names))
                for state, seat in won
            ):
                return False
        return True


_UNITS = {"classic": "states", "points": "points"}


def _report_line(report: Report, record: Record | None) -> Line | None:
    """The game of a record the validator replayed (None when no game began)."""
    game = report.game
    if game is None:
        return None
    plays = [(turn.card, turn.state) for turn in report.turns]
    written = len(plays) if record is None else sum(type(e) is Play for e in record.elements)

    def decided() -> int | None:
        from ..engine.analysis import analyse  # here: its tables cost a start-up

        return analyse(game.seats, report.deal, plays, report.scoring).decided

    return Line(game.seats, plays, written, game.over, decided)


def _replayed_line(replayed: Replayed) -> Line:
    """The game of a record the compiled core accepted."""
    return Line(
        replayed.seats,
        replayed.plays,
        len(replayed.plays),
        len(replayed.markers) == len(State),
        lambda: replayed.decided,
    )


def _tags(record: Record) -> dict[str, str]:
    """The record's tags by name in any case; the first of a name counts, as ``Record.tag``."""
    return _by_name((tag.name.text, tag.value) for tag in record.tag_elements)


def _by_name(tags: Iterable[tuple[str, str]]) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in tags:
        found.setdefault(name.casefold(), value)
    return found


def _players(tags: dict[str, str]) -> dict[int, str]:
    """The name in each seat tag, by seat (a record with a seat missing is
    invalid, but whom it names is still known)."""
    return {
        seat: tags[seat_name(seat).casefold()]
        for seat in range(MAX_SEATS)
        if seat_name(seat).casefold() in tags
    }


def _tag_test(text: str) -> tuple[str, str | None]:
    name, equals, pattern = text.partition("=")
    if not name.strip():
        raise QueryError(f"{text!r}: write NAME=PATTERN, e.g. Event='Lyon*', or NAME alone")
    return name.strip(), pattern if equals else None


def _won(text: str) -> Won:
    who, colon, word = text.rpartition(":")
    state = State.lookup(word.strip())
    if state is None:
        raise QueryError(
            f"{word.strip()!r} is no state: A, C, J, E, T or Antioch, Cyprus, Jerusalem, "
            "Edessa, Tripoli (e.g. J, P2:J or 'Anna*:Jerusalem')"
        )
    return Won(state, Who(who.strip()) if colon and who.strip() else None)


def _date(text: str | None, option: str) -> Date | None:
    if text is None:
        return None
    date = read_date(text)
    if date is None or len(date) < 3:
        raise QueryError(f"{option} {text!r}: write a day as 2026.11.27 (or 2026-11-27)")
    return date


def trimmed(text: str) -> str:
    """A record's text without the blank lines around it, ending with a line end."""
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    start = next((n for n, line in enumerate(lines) if line.strip()), len(lines))
    return "\n".join(lines[start:]) + "\n"


@dataclass(frozen=True, slots=True)
class Chosen:
    """What a block came to: how many records it holds and the text of those chosen."""

    source: str
    records: int
    texts: tuple[str, ...]


def select_block(block: Block, query: Query, edits: Edits = NO_EDITS) -> Chosen:
    """The records of ``block`` that pass ``query``, with ``edits`` made (on
    a worker): those the compiled core accepts from what it read of them,
    the others parsed here."""
    found: Sequence[Replayed | Declined] | None = None
    if not block.one_record:
        decided_by = query.content.decided_by if query.content else None
        found = replayed_block(block.first_line, block.text, decided_by=decided_by)
    records = 0
    texts = []
    for item in block_chunks(block) if found is None else found:
        if isinstance(item, Replayed):
            records += 1
            if query.passes_replayed(item):
                texts.append(edits.made(trimmed(item.text)))
            continue
        first_line, text = item
        if not text.strip():
            continue
        parsed = parse_record(text, first_line, block.source, records + 1)
        if parsed is None:  # comments alone
            continue
        records += 1
        if query.passes(parsed):
            texts.append(edits.made(trimmed(text)))
    return Chosen(block.source, records, tuple(texts))


class Selection:
    """``ordo select`` as a library call: iterate it for the text of each
    chosen record (with ``edits`` made), in input order, and each input that
    cannot be used (an ``InputError``, in its place; a file without a record
    after the rest). ``records`` and ``chosen`` count as it goes."""

    def __init__(
        self, paths: Sequence[str], query: Query, workers: Workers, edits: Edits = NO_EDITS
    ) -> None:
        self.paths, self.query, self.workers, self.edits = list(paths), query, workers, edits
        self.records = self.chosen = 0

    def __iter__(self) -> Iterator[str | InputError]:
        chosen = partial(select_block, query=self.query, edits=self.edits)
        for part in over_inputs(self.paths, chosen, self.workers):
            if isinstance(part, InputError):
                yield part
                continue
            self.records += part.records
            for text in part.texts:
                self.chosen += 1
                yield self.edits.numbered(text, self.chosen)
