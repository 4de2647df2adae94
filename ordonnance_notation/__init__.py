"""ordonnance_notation: record, check, replay and analyse games of Ordonnance.

The public names are those of ``__all__``, here; docs/tutorial.md walks
through them and docs/api.md is their reference::

    >>> import ordonnance_notation as ordo
    >>> game = ordo.replay("samples/classic-2.ord")
    >>> game[12].legal_plays()[0]
    (Card('BSF'), State.A)
    >>> str(game.winner), game.tags["Event"]
    ('P2', 'Lyon club night')

Data flows one way, a layer to a subpackage: ``notation`` (text to records
and back) -> ``checking`` (what the words mean, the replay under the
``engine``'s rules, the verdict) -> ``archives`` and ``views`` ->
``library`` (these calls) and ``cli``. The engine imports nothing from the
notation.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .archives.conversion import RecordErrors
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
    from .engine.budget import Budget
    from .engine.cards import Card, CardError, Icon, Seat, State, seat_name, seat_number
    from .engine.game import Deal, Game, IllegalPlay, Resolution, Turn, Violation
    from .engine.scoring import Outcome, Scoring, TieBreak, score
    from .files.output import OutputExists
    from .library.analysing import analyse
    from .library.playing import BOT_NAMES, deal, play_bots
    from .library.reading import parse_file, read_record, read_records, replay, validate_text
    from .library.writing import export_tables, record_text, write_records
    from .notation.parser import parse_text
    from .notation.record import Record, Unparsed
    from .views.analysis import RecordAnalysis, WhenDecided
    from .views.bestplay import BestPlayView
    from .views.judgement import JudgementView
    from .views.replay import Position, Replay
    from .views.tables import MissingExtra, Totals

__version__ = "0.1.0"

# Each public name and the module that defines it, imported when first asked
# for (PEP 562): ``ordo``'s start-up imports only what its command needs.
_WHERE = {
    "Totals": ".views.tables",
    "WhenDecided": ".views.analysis",
    "JudgementView": ".views.judgement",
    "BestPlayView": ".views.bestplay",
    "RecordErrors": ".archives.conversion",
    "Report": ".checking.report",
    "validate": ".checking.validator",
    "validate_or_raise": ".checking.validator",
    "ArchiveError": ".diagnostics",
    "CODES": ".diagnostics",
    "ConversionError": ".diagnostics",
    "DeckError": ".diagnostics",
    "Diagnostic": ".diagnostics",
    "InputError": ".diagnostics",
    "InvalidRecord": ".diagnostics",
    "OrdoError": ".diagnostics",
    "Severity": ".diagnostics",
    "SourceError": ".diagnostics",
    "UnreadableSource": ".diagnostics",
    "Army": ".engine.armies",
    "Decision": ".engine.armies",
    "Formations": ".engine.armies",
    "Level": ".engine.armies",
    "decide": ".engine.armies",
    "rank": ".engine.armies",
    "Budget": ".engine.budget",
    "Card": ".engine.cards",
    "CardError": ".engine.cards",
    "Icon": ".engine.cards",
    "Seat": ".engine.cards",
    "State": ".engine.cards",
    "seat_name": ".engine.cards",
    "seat_number": ".engine.cards",
    "Deal": ".engine.game",
    "Game": ".engine.game",
    "IllegalPlay": ".engine.game",
    "Resolution": ".engine.game",
    "Turn": ".engine.game",
    "Violation": ".engine.game",
    "Outcome": ".engine.scoring",
    "Scoring": ".engine.scoring",
    "TieBreak": ".engine.scoring",
    "score": ".engine.scoring",
    "OutputExists": ".files.output",
    "analyse": ".library.analysing",
    "BOT_NAMES": ".library.playing",
    "deal": ".library.playing",
    "play_bots": ".library.playing",
    "parse_file": ".library.reading",
    "read_record": ".library.reading",
    "read_records": ".library.reading",
    "replay": ".library.reading",
    "validate_text": ".library.reading",
    "export_tables": ".library.writing",
    "record_text": ".library.writing",
    "write_records": ".library.writing",
    "parse_text": ".notation.parser",
    "Record": ".notation.record",
    "Unparsed": ".notation.record",
    "RecordAnalysis": ".views.analysis",
    "Position": ".views.replay",
    "Replay": ".views.replay",
    "MissingExtra": ".views.tables",
}

__all__ = [
    "BOT_NAMES",
    "CODES",
    "ArchiveError",
    "Army",
    "BestPlayView",
    "Budget",
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
    "JudgementView",
    "Level",
    "MissingExtra",
    "OrdoError",
    "Outcome",
    "OutputExists",
    "Position",
    "Record",
    "RecordAnalysis",
    "RecordErrors",
    "Replay",
    "Report",
    "Resolution",
    "Scoring",
    "Seat",
    "Severity",
    "SourceError",
    "State",
    "TieBreak",
    "Totals",
    "Turn",
    "Unparsed",
    "UnreadableSource",
    "Violation",
    "WhenDecided",
    "analyse",
    "deal",
    "decide",
    "export_tables",
    "parse_file",
    "parse_text",
    "play_bots",
    "rank",
    "read_record",
    "read_records",
    "record_text",
    "replay",
    "score",
    "seat_name",
    "seat_number",
    "validate",
    "validate_or_raise",
    "validate_text",
    "write_records",
]  # the same names as _WHERE: tests/test_api.py holds the two together


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
