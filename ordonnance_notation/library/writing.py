"""Records written back: as canonical text, as files and archives, as tables."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from os import PathLike, fspath
from pathlib import Path

from ..archives.conversion import archive_pieces, kind_of
from ..diagnostics import InvalidRecord
from ..files.output import write_atomic
from ..notation.record import Record, Unparsed
from ..notation.writer import format_record, formatted_pieces
from ..runs.workers import Workers
from ..views.tables import Export, Totals


def record_text(record: Record | Unparsed) -> str:
    """The canonical text of a record (``ordo fmt``'s), every comment kept,
    ending with a newline. Raises InvalidRecord, carrying its diagnostics,
    for a record that could not be read (an ``Unparsed``): its text is not
    rewritten."""
    if isinstance(record, Unparsed):
        raise InvalidRecord(record.diagnostics)
    return format_record(record)


def write_records(
    records: Iterable[Record | Unparsed], path: str | PathLike[str], *, overwrite: bool = False
) -> int:
    """Write ``records`` to ``path``: .ord text, or a YAML or JSON archive by
    its extension (``.yaml``, ``.yml``, ``.json``), a record at a time, each
    archived record read back and compared before it is written. The file
    appears whole when every record is written, and not at all otherwise.
    Returns how many records were written. Raises InvalidRecord for a
    record that could not be read (an ``Unparsed``: nothing is written),
    OutputExists when the file exists and ``overwrite`` is false,
    RecordErrors for a record that cannot be archived (nothing is written),
    OSError when the file cannot be written."""
    name = fspath(path)
    kind = kind_of(name) or "ord"
    count = 0

    def read() -> Iterator[Record]:
        nonlocal count
        for record in records:
            if isinstance(record, Unparsed):
                raise InvalidRecord(record.diagnostics)
            count += 1
            yield record

    if kind == "ord":
        pieces: Iterable[str] = formatted_pieces(read())
    else:
        pieces = archive_pieces(((1, format_record(r)) for r in read()), name, kind)
    write_atomic(name, pieces, overwrite)
    return count


def export_tables(
    paths: str | PathLike[str] | Sequence[str | PathLike[str]],
    directory: str | PathLike[str],
    format: str = "csv",
    *,
    overwrite: bool = False,
) -> Totals:
    """``ordo export``: the ``records``, ``plays`` and ``states`` tables of
    every record of ``paths`` (.ord files, folders of them, ``-``) written into ``directory`` as
    ``.csv`` or ``.parquet`` files (``format``; Parquet needs pyarrow, the
    ``parquet`` extra). Returns the rows written by table. Raises the first
    InputError of an input that cannot be read (then no table file
    appears), MissingExtra, OutputExists when a table file exists and
    ``overwrite`` is false, ValueError for an unknown format or an archive
    among ``paths`` (``read_records`` and ``write_records`` make it .ord
    text), OSError."""
    given = [paths] if isinstance(paths, (str, PathLike)) else paths
    names = [fspath(path) for path in given]
    archives = [name for name in names if kind_of(name) in ("yaml", "json")]
    if archives:
        raise ValueError(
            f"{archives[0]} is an archive: the tables are made from .ord files "
            "(write_records(read_records(archive), 'games.ord') makes one)"
        )
    with Workers(1) as workers:
        export = Export(names, Path(directory), format, workers, overwrite)
        for done in export:
            if not isinstance(done, int):
                raise done
    return export.totals
