"""Tables for analysis: every record, play and state resolution of archives,
as rows of three tables (``records``, ``plays``, ``states``), written as CSV
or Parquet files; ``ordo export`` is ``Export`` with a reporter.

The columns, their types and what each means are ``TABLES``;
docs/export.md shows the same, and a test pins the two together.

Rows are built a block of records at a time (``table_rows``, ``csv_rows``,
on the ``Workers`` of ``runs.workers``, in input order) and written as they
come: memory holds only the blocks under way and, for Parquet, one row group.
A record the compiled core accepts, its plays plain and its deal in seat
order, has its rows written from what the core read (``Replayed``: ``csv_of``,
``_BlockRows.add_replayed``), every other record's from its report
(``_add_record``); tests/test_export.py holds the two to the same bytes.

An invalid record is still a row of ``records`` (``valid`` false); its
plays and resolutions are rows of ``plays`` and ``states`` as far as the
replay went, which stops at the first play it cannot read or that the rules
forbid: what comes after is never guessed at.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache
from importlib import import_module
from itertools import groupby
from pathlib import Path
from typing import IO, Any, NamedTuple, cast

from ..checking.meaning import SHARED
from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..checking.report import Report
from ..checking.validator import validate
from ..diagnostics import InputError, Severity, UnreadableSource
from ..engine.armies import LEVELS, formations_of
from ..engine.cards import CARD_WORDS, State, seat_name
from ..engine.game import MAX_SEATS
from ..files.output import Sink, output_file
from ..notation.games import game_text
from ..notation.parser import parse_record
from ..notation.record import Hand, Pile, Record, Tag, Unparsed
from ..runs.blocks import Block, block_chunks
from ..runs.inputs import over_inputs
from ..runs.workers import Workers
from .stats import best_formation, deciding_step, deciding_words

Cell = str | int | bool | None
Row = tuple[Cell, ...]


class CellType(Enum):
    """The type of a column's values, as docs/export.md names it."""

    STRING = "string"
    INTEGER = "integer"
    BOOLEAN = "boolean"


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    kind: CellType
    nullable: bool
    meaning: str

    @property
    def type(self) -> str:
        """``integer``, or ``integer or null`` when a value can be missing."""
        return self.kind.value + (" or null" if self.nullable else "")


def _column(name: str, type: str, meaning: str) -> Column:
    kind, _, null = type.partition(" or ")
    return Column(name, CellType(kind), null == "null", meaning)


_KEY = (
    _column("source", "string", "The input file as named on the command line; `<stdin>` for `-`."),
    _column(
        "record", "integer", "The record's number in its file, from 1, as `ordo validate` counts."
    ),
)
_TAGS = ("Event", "Site", "Date", "Round")
_SEATS = tuple(seat_name(seat) for seat in range(MAX_SEATS))  # P1 .. P4
_LETTERS = {state: state.name for state in State}  # an enum's name is a slow property

RECORDS = (
    *_KEY,
    _column("first_line", "integer", "The line of the file where the record's text starts."),
    _column(
        "game_key",
        "string or null",
        "16 hex digits naming the game: the same for every record with the same deal and "
        "plays, however written, as `ordo dedup` compares them (docs/querying.md). Null when "
        "the record has neither deal nor play, or its text cannot be read.",
    ),
    *(_column(tag.lower(), "string or null", f"The `{tag}` tag as written.") for tag in _TAGS),
    *(
        _column(seat.lower(), "string or null", f"The `{seat}` tag as written: a player's name.")
        for seat in _SEATS
    ),
    _column("scoring", "string or null", "The `Scoring` tag as written."),
    _column("result", "string or null", "The `Result` tag as written: the declared outcome."),
    _column(
        "seats", "integer or null", "How many seats play, 2 to 4; null when the header cannot say."
    ),
    _column("valid", "boolean", "The record has no error (warnings and notes allowed)."),
    _column("errors", "integer", "Its errors, as `ordo validate` reports them."),
    _column("warnings", "integer", "Its warnings."),
    _column(
        "finished",
        "boolean",
        "The game was replayed to its end and scored: `winner` and the scores are known.",
    ),
    _column(
        "winner",
        "string or null",
        "The winner the replay finds, `P1` to `P4`, or `shared` for a tie no rule breaks; "
        "null when the game is not finished.",
    ),
    _column(
        "rule",
        "string or null",
        "The scoring rule in force, `classic` or `points`; null when the header cannot be read.",
    ),
    *(
        _column(
            f"score_{seat.lower()}",
            "integer or null",
            f"{seat}'s states (classic) or points; null when the game is not finished "
            f"or has no {seat}.",
        )
        for seat in _SEATS
    ),
    _column(
        "plies",
        "integer or null",
        "The plays the record writes; null when the record could not be read at all.",
    ),
    _column("replayed", "integer", "The plies replayed: all of them unless the replay stopped."),
    _column("has_deal", "boolean", "The record writes a deal (hands and pile)."),
)
PLAYS = (
    *_KEY,
    _column("ply", "integer", "The ply, from 1."),
    _column("seat", "string", "Who played, `P1` to `P4`."),
    _column("card", "string", "The card as written, e.g. `FH`."),
    _column("canonical", "string", "The same card in canonical order (L B S H F), e.g. `HF`."),
    _column("state", "string", "The state played to: `A`, `C`, `J`, `E` or `T`."),
    _column(
        "drawn",
        "string or null",
        "The card drawn before the play as the record writes it (`+L`: `L`); "
        "null where it is not written.",
    ),
    _column("glyph", "string or null", "The glyph after the play, e.g. `!?`; null if none."),
    _column("resolves", "boolean", "The play gave a state its last unit: the state was resolved."),
)
STATES = (
    *_KEY,
    _column("state", "string", "The state resolved: `A`, `C`, `J`, `E` or `T`."),
    _column("marker", "integer", "Its marker: 1 for the first state resolved, to 5."),
    _column("ply", "integer", "The ply that resolved it."),
    _column("winner", "string", "The seat that won it, `P1` to `P4`."),
    _column("runner_up", "string", "The seat with the next strongest army."),
    _column(
        "step",
        "string",
        "What decided between the two, as `ordo stats` says: e.g. `regiment count`, "
        "`battalion seniority`, `earlier fourth card`.",
    ),
    _column(
        "formation",
        "string",
        "The winning army's strongest formation, e.g. `regiment F`, or `no formation`.",
    ),
)
TABLES: dict[str, tuple[Column, ...]] = {"records": RECORDS, "plays": PLAYS, "states": STATES}
FORMATS = ("csv", "parquet")
PARQUET_NEEDS = "pip install 'ordonnance-notation[parquet]'"


class MissingExtra(ImportError):
    """An output format that needs a package that is not installed."""


@dataclass(slots=True)
class PlainPlays:
    """Rows of ``plays`` of records the compiled core accepted, their plays
    ``plain``, column by column: each record's number and plies, and for
    each row its ply, its seat (a byte), its play (a byte, by
    ``_PLAY_NUMBERS``) and whether it resolves a state (0 or 1)."""

    records: list[tuple[int, int]]
    plies: array[int]
    seats: bytearray
    plays: bytearray
    resolves: bytearray

    def __len__(self) -> int:
        return len(self.plies)


Stretch = list[Row] | PlainPlays
"""Rows of a table, in order: as cells, or ``PlainPlays``."""


@dataclass(slots=True)
class Rows:
    """The rows of the three tables for the records of one block, stretch by
    stretch (``tables[table]``), records numbered from 1 within the block
    (``Export`` numbers them in their file); ``count`` is how many it numbered,
    ``invalid`` how many of them are. For CSV, ``texts`` holds them as CSV
    instead, a record at a time: its number within the block and its rows
    of each table, every row beginning with ``KEY`` where its source and
    record go."""

    file: int
    source: str
    count: int
    invalid: int
    tables: dict[str, list[Stretch]]
    texts: list[tuple[int, str, str, str]] | None = None

    @property
    def records(self) -> int:
        """The records that made rows (a chunk of comments alone makes none)."""
        if self.texts is not None:
            return len(self.texts)
        return sum(map(len, self.tables["records"]))


KEY = "\0"
"""Where a row of ``Rows.texts`` has its source and record: no text holds it."""


def csv_rows(block: Block) -> Rows:
    """``table_rows`` as CSV (``Rows.texts``): each record the compiled core
    accepts, its plays plain and its deal in seat order, written from what
    it read (``csv_of``), each other by ``csv``."""
    found = None if block.one_record else replayed_block(block.first_line, block.text)
    if found is None:
        return _as_csv(block, *_python_rows(block))
    texts = []
    count = invalid = 0
    for item in found:
        count += 1
        if isinstance(item, Replayed) and item.plain and item.ordered:
            texts.append((count, *csv_of(item)))
            continue
        first_line, text = (item.first_line, item.text) if isinstance(item, Replayed) else item
        one = Block(block.file, block.source, first_line, text, True)
        rows = _as_csv(one, *_python_rows(one))
        invalid += rows.invalid
        for _, records, plays, states in rows.texts or ():  # the one record, or none
            texts.append((count, records, plays, states))
    return Rows(block.file, block.source, count, invalid, {}, texts)


FORMULA_STARTS = "=+-@\t\r"
"""What a spreadsheet reads a formula after, at the start of a cell (OWASP's
advice on CSV injection): a cell of a record's words starting so is
written after a ``'``, which makes it text (docs/export.md)."""


def inert(word: str) -> str:
    """``word`` as a CSV cell no spreadsheet runs."""
    return "'" + word if word[:1] and word[0] in FORMULA_STARTS else word


def csv_of(replayed: Replayed) -> tuple[str, str, str]:
    """The rows of ``records``, ``plays`` and ``states`` (as ``_as_csv`` writes
    them, each beginning with ``KEY``) of a record the compiled core accepted
    (valid, nothing to report), its plays ``plain`` and its deal ``ordered``:
    ``_add_record``'s rows, from what the core read."""
    tag = dict(replayed.tags).get
    outcome, plays, seats = replayed.outcome, replayed.plays, len(replayed.names)
    plies = len(plays)
    winner = outcome.winner
    records = (
        f"{KEY},{replayed.first_line},{_hashed(replayed.game_text)},"
        f"{','.join([_tag_cell(tag(name)) for name in _TAG_COLUMNS])},{seats},true,0,0,true,"
        f"{SHARED if winner is None else _SEATS[winner]},"
        f"{'points' if replayed.scoring.is_points else 'classic'},"
        f"{','.join(map(str, outcome.scores))}{_NO_SCORE_CELLS[seats]},{plies},{plies},true\n"
    )
    ends = list(map(_PLAYED.__getitem__, plays))
    for _, _, _, ply in replayed.markers:
        ends[ply - 1] = _RESOLVING[plays[ply - 1]]
    rows: list[str] = [""] * (2 * plies)
    rows[::2] = _ply_cells(seats, plies)
    rows[1::2] = ends
    states = "".join(
        [
            f"{KEY},{_LETTERS[state]},{marker},{ply},{_SEATS[first[0]]},{_SEATS[second[0]]},"
            + _deciding(first[2], second[2])[1]
            for (marker, state, _, ply), (first, second, *_) in zip(
                replayed.markers, replayed.ranked, strict=True
            )
        ]
    )
    return records, "".join(rows), states


_TAG_COLUMNS = (*_TAGS, *_SEATS, "Scoring", "Result")
_NO_SCORE_CELLS = tuple("," * (MAX_SEATS - seats) for seats in range(MAX_SEATS + 1))
_PLAYED = {  # a plain play's row after its ply and seat: its card as canonical, no draw, no glyph
    (card, state): f"{word},{word},{_LETTERS[state]},,,false\n"
    for card, word in CARD_WORDS.items()
    for state in State
}
_RESOLVING = {play: row.replace("false", "true") for play, row in _PLAYED.items()}


def _ply_cells(seats: int, plies: int) -> list[str]:
    """The first cells of a plain record's first ``plies`` rows of ``plays``:
    ``KEY``, the ply and its seat."""
    cells = _PLY_CELLS[seats]
    if len(cells) < plies:
        cells += [
            f"{KEY},{ply},{_SEATS[(ply - 1) % seats]}," for ply in range(len(cells) + 1, plies + 1)
        ]
    return cells[:plies]


_PLY_CELLS: list[list[str]] = [[] for _ in range(MAX_SEATS + 1)]


@lru_cache(maxsize=1 << 12)
def _tag_cell(value: str | None) -> str:
    """A tag's value as a cell of CSV: inert, quoted as ``csv`` quotes."""
    if not value:
        return ""
    cell = inert(value)
    return cell if _QUOTED.isdisjoint(cell) else _csv_text([(cell,)])[:-1]


_QUOTED = frozenset(',"\r\n')  # what csv may quote a cell for (or double)


def _deciding(winner: int, runner_up: int) -> tuple[tuple[str, str], str]:
    """``deciding_words`` of a state's first two armies (by their packed icon
    counts), and the same as the last cells of a row of ``states`` in CSV.
    Kept by the winner's formations and the highest bit where the two
    armies' ``_strength`` differ, which says the level they differ at and
    whether by count: what the words depend on."""
    mine, theirs = _STRENGTHS.get(winner), _STRENGTHS.get(runner_up)
    if mine is None or theirs is None:
        mine, theirs = _strength(winner), _strength(runner_up)
    key = mine << 5 | (mine ^ theirs).bit_length()
    found = _DECIDING.get(key)
    if found is None:
        words = deciding_words(winner, runner_up)
        found = _DECIDING[key] = words, _csv_text([words])
    return found


_DECIDING: dict[int, tuple[tuple[str, str], str]] = {}  # a few thousand at most


def _strength(packed: int) -> int:
    """An army's formations (by its packed icon counts) as a number, a byte a
    level, regiments highest: how many formations (from bit 5) and a bit by
    icon. Two armies differ first at the level of the highest bit where
    their numbers do, by count where that bit is one of a count's."""
    found = _STRENGTHS.get(packed)
    if found is None:
        formations = formations_of(packed)
        found = 0
        for level in LEVELS:
            icons = formations.at(level)
            found = found << 8 | len(icons) << 5 | sum(1 << icon for icon in icons)
        _STRENGTHS[packed] = found
    return found


_STRENGTHS: dict[int, int] = {}  # by packed counts: 2 ** 15 at most


def _as_csv(block: Block, count: int, invalid: int, tables: dict[str, list[Row]]) -> Rows:
    """The rows of ``count`` records of ``block`` (``invalid`` of them) as CSV,
    a record at a time (``Rows.texts``): RFC 4180 with LF line ends,
    ``true``/``false`` for booleans, an empty field for null."""
    by_record: dict[int, tuple[list[Row], ...]] = {}
    for name, rows in tables.items():
        table = _NAMES.index(name)
        booleans = _BOOLEANS[name]
        for row in rows:
            cells = tuple(
                _csv_word(v) if i in booleans else inert(v) if isinstance(v, str) else v
                for i, v in enumerate(row)
            )
            by_record.setdefault(cast(int, row[1]), ([], [], []))[table].append((KEY, *cells[2:]))
    texts = []
    for index, rows_of in by_record.items():
        records, plays, states = map(_csv_text, rows_of)
        texts.append((index, records, plays, states))
    return Rows(block.file, block.source, count, invalid, {}, texts)


def _csv_text(rows: list[Row]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _csv_word(value: Cell) -> Cell:
    """A boolean as the tables' CSV writes it; null stays empty."""
    return None if value is None else "true" if value else "false"


_NAMES = tuple(TABLES)
_BOOLEANS = {
    name: {i for i, c in enumerate(columns) if c.kind is CellType.BOOLEAN}
    for name, columns in TABLES.items()
}


def table_rows(block: Block) -> Rows:
    """The rows of the records of one block (on a worker), to be renumbered
    in order. Records are numbered as
    ``runs.validation.validate_block`` numbers them."""
    found = None if block.one_record else replayed_block(block.first_line, block.text)
    if found is None:
        count, invalid, rows = _python_rows(block)
        return Rows(block.file, block.source, count, invalid, {n: [t] for n, t in rows.items()})
    made = _BlockRows(block.source)
    rows = {name: [] for name in TABLES}
    count = invalid = 0
    for item in found:
        if isinstance(item, Replayed) and item.plain and item.ordered:
            count += 1
            made.add_replayed(count, item)
            continue
        first_line, text = (item.first_line, item.text) if isinstance(item, Replayed) else item
        if not text.strip():
            continue
        count += 1
        invalid += _add_python(rows, block.source, first_line, text, count) is False
        made.add_rows(rows)
    return Rows(block.file, block.source, count, invalid, made.tables)


def _python_rows(block: Block) -> tuple[int, int, dict[str, list[Row]]]:
    """The rows of the records of one block by the Python path: how many
    records it numbered, how many of them are invalid, the rows by table."""
    rows: dict[str, list[Row]] = {name: [] for name in TABLES}
    count = invalid = 0
    for first_line, text in block_chunks(block):
        if not text.strip():
            continue
        count += 1
        invalid += _add_python(rows, block.source, first_line, text, count) is False
    return count, invalid, rows


def _add_python(
    tables: dict[str, list[Row]], source: str, first_line: int, text: str, index: int
) -> bool | None:
    """Adds the rows of one record read and validated by the Python path,
    numbered ``index``: whether it is valid; None when it has no rows."""
    parsed = parse_record(text, first_line, source, index)
    if parsed is None:
        return None
    report = validate(parsed)
    _add_record(tables, parsed, report, first_line)
    return report.valid


def _add_record(
    tables: dict[str, list[Row]], item: Record | Unparsed, report: Report, first_line: int
) -> None:
    """The rows of one record: ``report`` is ``item`` validated."""
    key = (report.source, report.index)
    record, outcome, game, turns = report.record, report.outcome, report.game, report.turns
    seats = len(report.names) or None
    scores = report.scores or {}

    tags: dict[str, str] = {}  # each tag's first value, as Record.tag gives it, in one pass
    has_deal = False
    for element in record.elements if record is not None else ():
        if type(element) is Tag:
            tags.setdefault(element.name.text, element.value)
        elif type(element) is Hand or type(element) is Pile:
            has_deal = True
    tag = tags.get
    tables["records"].append(
        (
            *key,
            first_line,
            None if not isinstance(item, Record) else game_key(item),
            *(tag(name) for name in _TAGS),
            *(tag(seat) for seat in _SEATS),
            tag("Scoring"),
            tag("Result"),
            seats,
            report.valid,
            report.count(Severity.ERROR),
            report.count(Severity.WARNING),
            outcome is not None,
            None if outcome is None else report.winner or SHARED,
            None if report.scoring is None else "points" if report.scoring.is_points else "classic",
            *(scores.get(seat) for seat in _SEATS),
            None if record is None else len(record.plays),
            len(turns),
            has_deal,
        ),
    )
    if not turns:
        return
    assert record is not None  # turns come from the record's plays
    plays = tables["plays"].append
    # the plays replayed are the record's first plays, in order (the replay stops at the first
    # play it cannot use): the turn of each says what it did
    for play, turn in zip(record.plays, turns, strict=False):  # the plays may go on
        plays(
            (
                *key,
                turn.ply,
                seat_name(turn.seat),
                play.card.text,
                str(turn.card),
                _LETTERS[turn.state],
                None if play.drawn is None else play.drawn.text[1:],
                None if play.glyph is None else play.glyph.text,
                turn.resolution is not None,
            ),
        )
    states = tables["states"].append
    for resolution in game.resolutions if game is not None else ():
        decision = resolution.decision
        states(
            (
                *key,
                _LETTERS[resolution.state],
                resolution.marker,
                resolution.ply,
                seat_name(resolution.winner),
                seat_name(resolution.ranking[1].seat),
                deciding_step(decision),
                best_formation(decision),
            ),
        )


class _BlockRows:
    """The rows of a block's records, table by table (``tables``): those of
    a record the compiled core accepted, its plays ``plain`` and its deal
    ``ordered``, from what it read (``add_replayed``: its plays as
    ``PlainPlays``, made at C speed from their numbers), those of others
    from their cells (``add_rows``)."""

    def __init__(self, source: str) -> None:
        self._source = source
        self._records: list[Row] = []
        self._states: list[Row] = []
        self._plays: list[Stretch] = []
        self.tables: dict[str, list[Stretch]] = {
            "records": [self._records],
            "plays": self._plays,
            "states": [self._states],
        }

    def add_replayed(self, index: int, replayed: Replayed) -> None:
        """The rows of a record numbered ``index`` that the compiled core
        accepted (valid, nothing to report), its plays ``plain`` and its deal
        ``ordered``: ``_add_record``'s, from what the core read."""
        key = (self._source, index)
        outcome, plays, seats = replayed.outcome, replayed.plays, len(replayed.names)
        plies = len(plays)
        tag = dict(replayed.tags).get
        winner = outcome.winner
        self._records.append(
            (
                *key,
                replayed.first_line,
                _hashed(replayed.game_text),
                *map(tag, _TAG_COLUMNS),
                seats,
                True,
                0,
                0,
                True,
                SHARED if winner is None else _SEATS[winner],
                "points" if replayed.scoring.is_points else "classic",
                *outcome.scores,
                *_NO_SCORES[seats],
                plies,
                plies,
                True,
            ),
        )
        plain = self._plays[-1] if self._plays else None
        if not isinstance(plain, PlainPlays):
            plain = PlainPlays([], array("q"), bytearray(), bytearray(), bytearray())
            self._plays.append(plain)
        plain.records.append((index, plies))
        plain.plies += _ply_numbers(plies)
        plain.seats += _seats_by_ply(seats, plies)
        plain.plays += bytes(map(_PLAY_NUMBERS.__getitem__, plays))
        resolves = bytearray(plies)
        for _, _, _, ply in replayed.markers:
            resolves[ply - 1] = 1
        plain.resolves += resolves
        self._states += [
            (
                *key,
                _LETTERS[state],
                marker,
                ply,
                _SEATS[first[0]],
                _SEATS[second[0]],
                *_deciding(first[2], second[2])[0],
            )
            for (marker, state, _, ply), (first, second, *_) in zip(
                replayed.markers, replayed.ranked, strict=True
            )
        ]

    def add_rows(self, tables: dict[str, list[Row]]) -> None:
        """Rows by table, in order after those added before; ``tables`` is
        left empty."""
        self._records += tables["records"]
        self._states += tables["states"]
        if tables["plays"]:
            if not self._plays or isinstance(self._plays[-1], PlainPlays):
                self._plays.append([])
            cast(list[Row], self._plays[-1]).extend(tables["plays"])
        for rows in tables.values():
            rows.clear()


_ALL_PLAYS = tuple((card, state) for card in CARD_WORDS for state in State)
_PLAY_NUMBERS = {play: number for number, play in enumerate(_ALL_PLAYS)}  # less than 256


class _PlainWords(NamedTuple):
    """The words of a plain play's row, as Arrow arrays: a play's card and
    its state's letter, by ``_PLAY_NUMBERS``; each seat's name."""

    cards: Any
    states: Any
    seats: Any


@cache
def _plain_words(pa: Any) -> _PlainWords:
    return _PlainWords(
        pa.array([CARD_WORDS[card] for card, _ in _ALL_PLAYS], pa.string()),
        pa.array([_LETTERS[state] for _, state in _ALL_PLAYS], pa.string()),
        pa.array(_SEATS, pa.string()),
    )


def _ply_numbers(plies: int) -> array[int]:
    """1 to ``plies``."""
    if len(_PLY_NUMBERS) < plies:
        _PLY_NUMBERS.extend(range(len(_PLY_NUMBERS) + 1, plies + 1))
    return _PLY_NUMBERS[:plies]


def _seats_by_ply(seats: int, plies: int) -> bytearray:
    """Who plays each of the first ``plies`` plies of a game of ``seats``."""
    made = _SEATS_BY_PLY[seats]
    if len(made) < plies:
        made.extend(ply % seats for ply in range(len(made), plies))
    return made[:plies]


_PLY_NUMBERS = array("q")
_SEATS_BY_PLY = [bytearray() for _ in range(MAX_SEATS + 1)]
_NO_SCORES = tuple((None,) * (MAX_SEATS - seats) for seats in range(MAX_SEATS + 1))


def _arrow_types(pa: Any, columns: tuple[Column, ...]) -> list[Any]:
    """The Arrow type of each column."""
    types = {
        CellType.STRING: pa.string(),
        CellType.INTEGER: pa.int64(),
        CellType.BOOLEAN: pa.bool_(),
    }
    return [types[column.kind] for column in columns]


def game_key(record: Record) -> str | None:
    """16 hex digits naming the game ``record`` holds, the same for every copy
    of it (``notation.games``); None when it holds no game to compare."""
    text = game_text(record)
    return None if text is None else _hashed(text)


def _hashed(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


class _CsvWriter:
    """RFC 4180 CSV with LF line ends, a header line, ``true``/``false`` for
    booleans and an empty field for null: rows written as CSV already
    (``Rows.texts``, numbered here)."""

    def __init__(self, stream: IO[Any], columns: tuple[Column, ...]) -> None:
        self._stream = stream
        csv.writer(stream, lineterminator="\n").writerow(c.name for c in columns)

    def write_text(self, text: str) -> None:
        self._stream.write(text)

    def close(self) -> None:
        pass


ROW_GROUP = 1 << 14  # rows held before a row group: 100k records peak at 103 MB (148 at 1 << 16)


class _ParquetWriter:
    """Parquet with the schema of ``columns``, a row group per ``ROW_GROUP``
    rows (each block's rows held as they came till then, a few bytes a
    value, and made Arrow columns together). Raises MissingExtra when
    pyarrow is not installed."""

    def __init__(self, stream: IO[Any], columns: tuple[Column, ...]) -> None:
        self._pa, parquet = pyarrow()
        pa = self._pa
        self._schema = pa.schema(
            [
                pa.field(c.name, type, nullable=c.nullable)
                for c, type in zip(columns, _arrow_types(pa, columns), strict=True)
            ]
        )
        self._writer = parquet.ParquetWriter(stream, self._schema)
        self._held: list[tuple[Stretch, str, int]] = []  # each with its source and record offset
        self._rows = 0

    def write(self, stretches: list[Stretch], source: str, before: int) -> int:
        """A block's rows (``Rows.tables``) from ``source``, its records
        numbered ``before`` higher: how many."""
        count = 0
        for stretch in stretches:
            if stretch:
                self._held.append((stretch, source, before))
                count += len(stretch)
        self._rows += count
        if self._rows >= ROW_GROUP:
            self._flush()
        return count

    def _flush(self) -> None:
        if self._rows:
            batches = [
                (_plain_plays if plain else _cells)(self._pa, self._schema, list(held))
                for plain, held in groupby(self._held, lambda held: type(held[0]) is PlainPlays)
            ]
            table = self._pa.Table.from_batches(batches, schema=self._schema)
            self._writer.write_table(table, row_group_size=self._rows)
            self._held = []
            self._rows = 0

    def close(self) -> None:
        self._flush()
        self._writer.close()


def _cells(pa: Any, schema: Any, held: list[tuple[Stretch, str, int]]) -> Any:
    """Rows as cells, as a record batch."""
    columns: list[list[Cell]] = [[] for _ in schema]
    for rows, _, before in held:
        cells = list(zip(*cast(list[Row], rows), strict=True))
        if before:
            cells[1] = tuple(cast(int, index) + before for index in cells[1])
        for column, values in zip(columns, cells, strict=True):
            column.extend(values)
    arrays = [
        pa.array(column, type=field.type) for column, field in zip(columns, schema, strict=True)
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _plain_plays(pa: Any, schema: Any, held: list[tuple[Stretch, str, int]]) -> Any:
    """``PlainPlays`` as a record batch of ``plays`` (``schema``), made at C speed."""
    sources: dict[str, int] = {}
    by_source, records, plies = array("i"), array("q"), array("q")
    seats, plays, resolves = bytearray(), bytearray(), bytearray()
    for stretch, source, before in held:
        plain = cast(PlainPlays, stretch)
        by_source += array("i", (sources.setdefault(source, len(sources)),)) * len(plain)
        for index, count in plain.records:
            records += array("q", (before + index,)) * count
        plies += plain.plies
        seats += plain.seats
        plays += plain.plays
        resolves += plain.resolves
    rows, words = len(plies), _plain_words(pa)
    played = _from_buffer(pa, pa.uint8(), rows, plays)
    cards = words.cards.take(played)
    no_text = pa.nulls(rows, pa.string())
    arrays = [  # in the order of PLAYS
        pa.array(list(sources), pa.string()).take(_from_buffer(pa, pa.int32(), rows, by_source)),
        _from_buffer(pa, pa.int64(), rows, records),
        _from_buffer(pa, pa.int64(), rows, plies),
        words.seats.take(_from_buffer(pa, pa.uint8(), rows, seats)),
        cards,  # a plain play writes its card as canonical, no draw and no glyph
        cards,
        words.states.take(played),
        no_text,
        no_text,
        _from_buffer(pa, pa.uint8(), rows, resolves).cast(pa.bool_()),
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def _from_buffer(pa: Any, type: Any, rows: int, data: array[int] | bytearray) -> Any:
    """An Arrow array of ``rows`` values of ``type`` without nulls, held in ``data``."""
    return pa.Array.from_buffers(type, rows, [None, pa.py_buffer(data)])


def pyarrow() -> tuple[Any, Any]:
    """The modules ``pyarrow`` and ``pyarrow.parquet``; MissingExtra when
    they are not installed."""
    try:  # by name: pyarrow is optional, and ships no types
        return import_module("pyarrow"), import_module("pyarrow.parquet")
    except ImportError:
        raise MissingExtra(f"Parquet output needs pyarrow: {PARQUET_NEEDS}") from None


@contextlib.contextmanager
def _table_file(
    path: Path, columns: tuple[Column, ...], format: str, overwrite: bool
) -> Iterator[tuple[_CsvWriter | _ParquetWriter, Sink]]:
    binary = format == "parquet"
    with output_file(path, overwrite, binary=binary) as sink:
        writer = (_ParquetWriter if binary else _CsvWriter)(sink.stream, columns)
        yield writer, sink
        writer.close()


@dataclass(slots=True)
class Totals:
    """What an export came to: rows written by table, invalid records."""

    rows: dict[str, int]
    invalid: int = 0


class Export:
    """``ordo export`` as a library call: writes ``records``, ``plays`` and
    ``states`` (``.csv`` or ``.parquet``) into ``directory`` (made if it is
    missing, not its parents) from ``paths_read`` (files, directories, ``-``),
    read on ``workers``. Iterate it: it yields each input that cannot be used (an
    ``InputError``, in its place; a readable file without a record after
    every record) and, after each block written, how many records it held.
    The files appear, whole, when the iteration ends; none does if it ends
    by an exception or some input could not be read at all. Raises
    MissingExtra (Parquet without pyarrow) and OutputExists (a table file
    exists and ``overwrite`` is false) before anything is read; OSError when
    the files cannot be written."""

    def __init__(
        self,
        paths_read: Sequence[str],
        directory: str | Path,
        format: str,
        workers: Workers,
        overwrite: bool = False,
    ) -> None:
        if format not in FORMATS:
            raise ValueError(f"no table format {format!r}: {' or '.join(FORMATS)}")
        self.paths_read = list(paths_read)
        self.directory = Path(directory)
        self.format = format
        self.workers = workers
        self.overwrite = overwrite
        self.totals = Totals(dict.fromkeys(TABLES, 0))

    def paths(self) -> list[Path]:
        return [self.directory / f"{name}.{self.format}" for name in TABLES]

    def __iter__(self) -> Iterator[InputError | int]:
        if self.format == "parquet":
            pyarrow()  # before any file is made
        made = not self.directory.exists()
        try:
            self.directory.mkdir(exist_ok=True)
        except FileExistsError:
            self.directory.stat()  # what stands there is no folder: say why (a loop of links)
            raise
        try:
            yield from self._written()
        finally:
            if made and not any(path.exists() for path in self.paths()):
                with contextlib.suppress(OSError):  # made for nothing: not left behind
                    self.directory.rmdir()

    def _written(self) -> Iterator[InputError | int]:
        done: dict[int, int] = {}  # records so far, by file
        with contextlib.ExitStack() as files:
            opened = [
                files.enter_context(_table_file(path, columns, self.format, self.overwrite))
                for path, columns in zip(self.paths(), TABLES.values(), strict=True)
            ]
            writers = [writer for writer, _sink in opened]
            rows_of = csv_rows if self.format == "csv" else table_rows
            for part in over_inputs(self.paths_read, rows_of, self.workers):
                if isinstance(part, InputError):
                    if isinstance(part, UnreadableSource):  # a run that cannot be whole
                        for _writer, sink in opened:
                            sink.discard()
                    yield part
                    continue
                before = done.get(part.file, 0)
                done[part.file] = before + part.count
                if part.texts is not None:
                    self._write_texts(cast(list[_CsvWriter], writers), part, before)
                else:
                    parquet = cast(list[_ParquetWriter], writers)
                    for writer, (name, rows) in zip(parquet, part.tables.items(), strict=True):
                        self.totals.rows[name] += writer.write(rows, part.source, before)
                self.totals.invalid += part.invalid
                yield part.count

    def _write_texts(self, writers: list[_CsvWriter], part: Rows, before: int) -> None:
        """The CSV rows of a block's records (``Rows.texts``), numbered ``before`` higher."""
        source = _csv_text([(inert(part.source),)]).rstrip("\n")
        for index, *texts in part.texts or ():
            key = f"{source},{before + index}"
            for writer, name, text in zip(writers, TABLES, texts, strict=True):
                writer.write_text(text.replace(KEY, key))
                self.totals.rows[name] += text.count(KEY)
