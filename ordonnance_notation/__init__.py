"""ordonnance_notation: record, validate and replay games of Ordonnance.

Data flows one way, a layer to a subpackage: ``notation`` (text to records
and back) -> ``checking`` (what the words mean, the replay under the
``engine``'s rules, the verdict) -> ``archives`` and ``views`` -> ``cli``.
The engine imports nothing from the notation.

    >>> from ordonnance_notation import parse_text, validate
    >>> [report] = [validate(r) for r in parse_text(text, "game.ord")]
    >>> report.valid, report.winner, report.scores
    (True, 'P2', {'P1': 1, 'P2': 4})
"""

from __future__ import annotations

from collections.abc import Iterator
from os import PathLike

from .checking.report import Report
from .checking.validator import validate, validate_or_raise
from .diagnostics import (
    CODES,
    ArchiveError,
    ConversionError,
    DeckError,
    Diagnostic,
    InputError,
    InvalidRecord,
    OrdoError,
    Severity,
    SourceError,
    UnreadableSource,
)
from .engine.armies import Army, Decision, Formations, Level, decide, rank
from .engine.cards import Card, CardError, Icon, State, seat_name, seat_number
from .engine.game import Deal, Game, IllegalPlay, Resolution, Turn, Violation
from .engine.scoring import Outcome, Scoring, TieBreak, score
from .files.sources import read_source
from .notation.parser import parse_text
from .notation.record import Record, Unparsed

__version__ = "0.1.0"


def parse_file(path: str | PathLike[str]) -> Iterator[Record | Unparsed]:
    """Every record of a file (``"-"`` for standard input). Raises SourceError."""
    source = read_source(str(path))
    return parse_text(source.text, source.name)


def validate_text(text: str, source: str = "<text>") -> list[Report]:
    """A report for each record of ``text``."""
    return [validate(item) for item in parse_text(text, source)]


__all__ = [
    "CODES",
    "ArchiveError",
    "Army",
    "Card",
    "CardError",
    "ConversionError",
    "Deal",
    "Decision",
    "DeckError",
    "Diagnostic",
    "Formations",
    "Game",
    "Icon",
    "IllegalPlay",
    "InputError",
    "InvalidRecord",
    "Level",
    "OrdoError",
    "Outcome",
    "Record",
    "Report",
    "Resolution",
    "Scoring",
    "Severity",
    "SourceError",
    "State",
    "TieBreak",
    "Turn",
    "Unparsed",
    "UnreadableSource",
    "Violation",
    "decide",
    "parse_file",
    "parse_text",
    "rank",
    "score",
    "seat_name",
    "seat_number",
    "validate",
    "validate_or_raise",
    "validate_text",
]
