"""Tables for analysis: every record, play and state resolution of archives,
as rows of three tables (``records``, ``plays``, ``states``), written as CSV
or Parquet files; ``ordo export`` is ``Export`` with a reporter.

The columns, their types and what each means are ``TABLES``;
docs/export.md shows the same, and a test pins the two together.

Rows are built a block of records at a time (``table_rows``, on the
``Workers`` of ``runs.workers``, in input order) and written as they come:
memory holds only the blocks under way and, for Parquet, one row group.

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from importlib import import_module
from pathlib import Path
from typing import IO, Any, cast

from ..checking.meaning import SHARED
from ..checking.quick import Exported, export_block, replayed_block
from ..checking.replayed import Replayed
from ..checking.report import Report, scores_of, winner_of
from ..checking.validator import validate
from ..diagnostics import InputError, Severity, UnreadableSource
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
class Rows:
    """The rows of the three tables for the records of one block, a list per
    column (``columns[table]``), records numbered from 1 within the block;
    ``count`` is how many it numbered, ``invalid`` how many of them are. For
    CSV, ``texts`` holds them as CSV instead, a record at a time: its number
    within the block and its rows of each table, every row beginning with
    ``KEY`` where its source and record go."""

    file: int
    source: str
    count: int
    invalid: int
    columns: dict[str, list[list[Cell]]]
    texts: list[tuple[int, str, str, str]] | None = None

    @property
    def records(self) -> int:
        """The records that made rows (a chunk of comments alone makes none)."""
        if self.texts is not None:
            return len(self.texts)
        return len(self.columns["records"][0])

    def renumbered(self, before: int) -> Rows:
        """The rows with their records numbered ``before`` higher (``run`` in
        runs.validation numbers a file's records so)."""
        if before:
            for columns in self.columns.values():
                columns[1] = [index + before for index in columns[1]]  # type: ignore[operator]
        return self


KEY = "\0"
"""Where a row of ``Rows.texts`` has its source and record: no text holds it."""


def csv_rows(block: Block) -> Rows:
    """``table_rows`` as CSV (``Rows.texts``): each record the compiled core
    accepts, its plays plain and its deal in seat order, written by the
    core (``quick.export_block``), each other by ``csv``."""
    found = None if block.one_record else export_block(block.first_line, block.text, _WORDS)
    if found is None:
        return _as_csv(table_rows(block))
    texts = []
    count = invalid = 0
    for item in found:
        count += 1
        if isinstance(item, Exported):
            records = f"{KEY},{item.first_line},{_hashed_bytes(item.game)},{item.records}"
            texts.append((count, records, item.plays, item.states))
            continue
        rows = table_rows(Block(block.file, block.source, item[0], item[1], True))
        invalid += rows.invalid
        for _, records, plays, states in _as_csv(rows).texts or ():  # the one record, or none
            texts.append((count, records, plays, states))
    return Rows(block.file, block.source, count, invalid, {}, texts)


FORMULA_STARTS = "=+-@\t\r"
"""What a spreadsheet reads a formula after, at the start of a cell (OWASP's
advice on CSV injection): a cell of a record's words starting so is
written after a ``'``, which makes it text (docs/export.md)."""


def inert(word: str) -> str:
    """``word`` as a CSV cell no spreadsheet runs."""
    return "'" + word if word[:1] and word[0] in FORMULA_STARTS else word


_WORDS = (
    (SHARED, "classic", "points"),
    (*_TAGS, *_SEATS, "Scoring", "Result"),
    deciding_words,
    FORMULA_STARTS,
)


def _as_csv(rows: Rows) -> Rows:
    """Rows as CSV, a record at a time (``Rows.texts``): RFC 4180 with LF line
    ends, ``true``/``false`` for booleans, an empty field for null."""
    by_record: dict[int, tuple[list[Row], ...]] = {}
    for name, columns in rows.columns.items():
        table = _NAMES.index(name)
        booleans = _BOOLEANS[name]
        for row in zip(*columns, strict=True):
            cells = tuple(
                _csv_word(v) if i in booleans else inert(v) if isinstance(v, str) else v
                for i, v in enumerate(row)
            )
            by_record.setdefault(cast(int, row[1]), ([], [], []))[table].append((KEY, *cells[2:]))
    texts = []
    for index, tables in by_record.items():
        records, plays, states = map(_csv_text, tables)
        texts.append((index, records, plays, states))
    return Rows(rows.file, rows.source, rows.count, rows.invalid, {}, texts)


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
    tables: dict[str, list[Row]] = {name: [] for name in TABLES}
    count = invalid = 0
    found = None if block.one_record else replayed_block(block.first_line, block.text)
    for item in block_chunks(block) if found is None else found:
        if isinstance(item, Replayed) and item.plain and item.ordered:
            count += 1
            _add_replayed(tables, (block.source, count), item)
            continue
        first_line, text = (item.first_line, item.text) if isinstance(item, Replayed) else item
        if not text.strip():
            continue
        count += 1
        parsed = parse_record(text, first_line, block.source, count)
        if parsed is not None:
            report = validate(parsed)
            invalid += not report.valid
            _add_record(tables, parsed, report, first_line)
    columns = {  # rows to columns at C speed
        name: [list(column) for column in zip(*rows, strict=True)] or [[] for _ in TABLES[name]]
        for name, rows in tables.items()
    }
    return Rows(block.file, block.source, count, invalid, columns)


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


def _add_replayed(tables: dict[str, list[Row]], key: tuple[str, int], replayed: Replayed) -> None:
    """``_add_record`` of a record the compiled core accepted (valid, nothing
    to report), its plays ``plain`` and its deal ``ordered``, from what it read."""
    tag = dict(replayed.tags).get
    outcome, plays = replayed.outcome, replayed.plays
    scores = scores_of(outcome) or {}
    tables["records"].append(
        (
            *key,
            replayed.first_line,
            _hashed(replayed.game_text),
            *(tag(name) for name in _TAGS),
            *(tag(seat) for seat in _SEATS),
            tag("Scoring"),
            tag("Result"),
            len(replayed.names),
            True,
            0,
            0,
            True,
            winner_of(outcome) or SHARED,
            "points" if replayed.scoring.is_points else "classic",
            *(scores.get(seat) for seat in _SEATS),
            len(plays),
            len(plays),
            True,
        ),
    )
    seats = len(replayed.names)
    resolving = {ply for _, _, _, ply in replayed.markers}
    tables["plays"] += [
        (
            *key,
            ply,
            _SEATS[(ply - 1) % seats],
            word,
            word,
            _LETTERS[state],
            None,
            None,
            ply in resolving,
        )
        for ply, (word, state) in enumerate(((CARD_WORDS[c], s) for c, s in plays), 1)
    ]  # a plain play writes its card as canonical, no draw and no glyph
    tables["states"] += [
        (*key, _LETTERS[state], marker, ply, _SEATS[first[0]], _SEATS[second[0]])
        + deciding_words(first[2], second[2])
        for (marker, state, _, ply), (first, second, *_) in zip(
            replayed.markers, replayed.ranked, strict=True
        )
    ]


def game_key(record: Record) -> str | None:
    """16 hex digits naming the game ``record`` holds, the same for every copy
    of it (``notation.games``); None when it holds no game to compare."""
    text = game_text(record)
    return None if text is None else _hashed(text)


def _hashed(text: str) -> str:
    return _hashed_bytes(text.encode())


def _hashed_bytes(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=8).hexdigest()


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
    rows (each block's rows held as Arrow columns till then, a few bytes a
    value). Raises MissingExtra when pyarrow is not installed."""

    def __init__(self, stream: IO[Any], columns: tuple[Column, ...]) -> None:
        self._pa, parquet = pyarrow()
        pa = self._pa
        types = {
            CellType.STRING: pa.string(),
            CellType.INTEGER: pa.int64(),
            CellType.BOOLEAN: pa.bool_(),
        }
        self._schema = pa.schema(
            [pa.field(c.name, types[c.kind], nullable=c.nullable) for c in columns]
        )
        self._writer = parquet.ParquetWriter(stream, self._schema)
        self._held: list[Any] = []  # record batches
        self._rows = 0

    def write(self, columns: list[list[Cell]]) -> None:
        if not columns[0]:
            return
        arrays = [
            self._pa.array(column, type=field.type)
            for column, field in zip(columns, self._schema, strict=True)
        ]
        self._held.append(self._pa.RecordBatch.from_arrays(arrays, schema=self._schema))
        self._rows += len(columns[0])
        if self._rows >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            table = self._pa.Table.from_batches(self._held, schema=self._schema)
            self._writer.write_table(table, row_group_size=self._rows)
            self._held = []
            self._rows = 0

    def close(self) -> None:
        self._flush()
        self._writer.close()


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
                    part.renumbered(before)
                    parquet = cast(list[_ParquetWriter], writers)
                    for writer, (name, columns) in zip(parquet, part.columns.items(), strict=True):
                        writer.write(columns)
                        self.totals.rows[name] += len(columns[0])
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
