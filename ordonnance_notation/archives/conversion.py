"""Canonical formatting and conversion between .ord, YAML and JSON, as library
calls. Each returns the new text or raises ConversionError carrying every
diagnostic; nothing here touches a file. A result is always parsed back and
compared before it is returned: this module never hands out text it could not
read again."""

from __future__ import annotations

from pathlib import Path

from ..checking.content import read
from ..checking.validator import validate
from ..diagnostics import Diagnostic, OrdoError
from ..notation.parser import parse_text
from ..notation.record import Record, Unparsed
from ..notation.writer import format_records, plain
from . import document as archive

KINDS = ("ord", "yaml", "json")
_SUFFIXES = {".ord": "ord", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}


class ConversionError(OrdoError):
    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(f"{d.location}: {d.message}" for d in diagnostics))
        self.diagnostics = diagnostics


def kind_of(path: str) -> str | None:
    """``"ord"``, ``"yaml"`` or ``"json"`` from a file name, else None."""
    return _SUFFIXES.get(Path(path).suffix.lower())


def read_records(text: str, source: str) -> list[Record]:
    """Every record of .ord text. Raises ConversionError if any has a syntax error."""
    items = list(parse_text(text, source))
    broken = [d for item in items if isinstance(item, Unparsed) for d in item.diagnostics]
    if broken:
        raise ConversionError(broken)
    if not items:
        raise ConversionError([Diagnostic("E105", "no record in this file", source)])
    records = [item for item in items if isinstance(item, Record)]
    # The canonical form puts the deal before the plays; moving an element out
    # of place would change the record, so those are refused like syntax errors.
    misplaced = [d for record in records for d in read(record).diagnostics if d.code == "E209"]
    if misplaced:
        raise ConversionError(misplaced)
    return records


def canonical(text: str, source: str) -> str:
    """The canonical form of .ord text. Raises ConversionError."""
    records = read_records(text, source)
    return _read_back(format_records(records), len(records), source)


def _read_back(result: str, count: int, source: str) -> str:
    """``result`` if it parses into ``count`` records and is its own canonical form."""
    as_read = result.replace("\r\n", "\n").replace("\r", "\n")  # what reading the file would see
    items = list(parse_text(as_read, source))
    records = [item for item in items if isinstance(item, Record)]
    if len(records) != len(items) or len(records) != count or format_records(records) != result:
        raise ConversionError(
            [
                Diagnostic(
                    "E004",
                    "the converted text does not read back the same; nothing written",
                    source,
                )
            ]
        )
    return result


def convert(
    text: str, source: str, source_kind: str, target_kind: str, with_results: bool = False
) -> str:
    """``text`` (of ``source_kind``) as ``target_kind``. Raises ConversionError."""
    if source_kind == "ord":
        records = read_records(text, source)
        if target_kind == "ord":
            return canonical(text, source)
        reports = None
        if with_results:  # diagnostics placed in the canonical text the archive stands for
            canonical_records = read_records(format_records(records), source)
            reports = [validate(r) for r in canonical_records]
        doc = archive.document(records, reports)
        out = archive.dump_yaml(doc) if target_kind == "yaml" else archive.dump_json(doc)
        back = _load(out, source, target_kind)
        if back["records"] != [plain(r) for r in records]:
            raise ConversionError(
                [
                    Diagnostic(
                        "E004", "the archive does not read back the same; nothing written", source
                    )
                ]
            )
        return out
    doc = _load(text, source, source_kind)
    if not doc["records"]:
        raise ConversionError([Diagnostic("E105", "the archive holds no record", source)])
    if target_kind == "ord":
        return _read_back(archive.to_text(doc), len(doc["records"]), source)
    try:
        records = read_records(archive.to_text(doc), source)
    except ConversionError as error:  # places in the .ord text are no places in the archive
        raise ConversionError([_in_archive(d, source) for d in error.diagnostics]) from None
    reports = [validate(r) for r in records] if with_results else None
    out_doc = archive.document(records, reports)
    return archive.dump_yaml(out_doc) if target_kind == "yaml" else archive.dump_json(out_doc)


def _in_archive(diagnostic: Diagnostic, source: str) -> Diagnostic:
    """A problem of the .ord text an archive stands for, told of the archive.
    An element out of place (E209) is the archive's own order, refused as in
    .ord files; anything else would be a bug in ordo (E004)."""
    if diagnostic.code == "E209":
        where = f"records[{diagnostic.record - 1}]" if diagnostic.record else "a record"
        return Diagnostic(
            "E209", f"{where}: {diagnostic.message}; an element out of place is not moved", source
        )
    return Diagnostic(
        "E004", f"the archive's records do not read as .ord: {diagnostic.message}", source
    )


def _load(text: str, source: str, kind: str) -> dict:
    try:
        return archive.load(text, source, kind)
    except archive.ArchiveError as error:
        raise ConversionError([error.diagnostic]) from None
