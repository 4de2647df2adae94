"""Diagnostics: every problem found in a record, with a stable code and a place.

Codes are grouped by family: E0xx input, E1xx syntax, E2xx content (well
formed but meaningless), E3xx rules (an illegal draw or play), E4xx results
(declared markers, winner or scores differ from the recomputed ones), W5xx
warnings, N6xx notes. docs/diagnostics.md shows an example of each.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple


class Span(NamedTuple):
    """1-based line and column of the first character; end column is exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int

    def to(self, other: Span) -> Span:
        return Span(self.line, self.column, other.end_line, other.end_column)


class Severity(Enum):
    """How grave a diagnostic is: an error makes a record invalid, a warning
    or a note does not."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        """0 for an error, 1 for a warning, 2 for a note: the worse, the lower."""
        return _RANKS[self]


_RANKS = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}

QUOTED_MOST = 40
"""The most characters of a word of the input that a message quotes."""


def quoted(word: str, marks: bool = True) -> str:
    """A word of the input as a message or a help line quotes it: whole when
    short, else its first QUOTED_MOST characters, "…" and its length (a word
    of a megabyte is not echoed); in quotes (``repr``) unless ``marks`` is
    False, for a word shown as it is written."""
    if len(word) <= QUOTED_MOST:
        return repr(word) if marks else word
    start = word[:QUOTED_MOST]
    return f"{repr(start) if marks else start}… ({len(word):,} characters)"


OBEYED_RANGES = ((0x00, 0x08), (0x0B, 0x1F), (0x7F, 0x9F), (0x202A, 0x202E), (0x2066, 0x2069))
"""The characters a terminal obeys rather than shows, as ranges of code
points: the C0 controls but the tab and the line end (ESC begins the
sequences that recolour, clear the screen, retitle the window or make a
link; BEL rings), DEL, the C1 controls, and the bidirectional embeddings,
overrides and isolates, which reorder what is shown around them. A record
may hold them (W504 warns); every view for people shows them as pictures."""

OBEYED = re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in OBEYED_RANGES) + "]")


CODES: dict[str, str] = {
    # input
    "E001": "file cannot be read or written",
    "E002": "file is not UTF-8 text",
    "E003": "bad archive document",
    "E004": "conversion would not read back",
    "E006": "bad deck file",
    "E007": "input beyond a limit",
    "E008": "a worker process ended",
    "E009": "a Dask cluster cannot be used",
    "E010": "a bot cannot be started",
    # syntax
    "E100": "unexpected character",
    "E101": "unexpected token",
    "E102": "unterminated comment",
    "E103": "unterminated tag",
    "E104": "unexpected end of record",
    "E105": "file holds no record",
    # content
    "E201": "malformed card",
    "E202": "unknown state",
    "E203": "unknown seat",
    "E204": "bad seats in the header",
    "E205": "bad Scoring or Points tag",
    "E206": "bad or missing Result tag",
    "E207": "unsupported notation version",
    "E208": "duplicate tag",
    "E209": "element out of place",
    "E210": "ply number out of sequence",
    "E211": "wrong hand size",
    "E212": "deal does not add up",
    "E213": "bad marker number",
    "E214": "bad result line",
    # rules
    "E301": "play out of turn",
    "E302": "card not in hand",
    "E303": "state already full",
    "E304": "play after the end of the game",
    "E305": "draw disagrees with the pile",
    # results
    "E401": "declared resolution differs",
    "E402": "declared marker differs",
    "E403": "declared resolution of a state not yet resolved",
    "E404": "state declared resolved twice",
    "E410": "declared winner differs",
    "E411": "declared scores differ",
    "E412": "finished game declared unfinished",
    "E413": "unfinished game declared finished",
    "E414": "Result tag and result line disagree",
    # warnings and notes
    "W501": "unfinished game",
    "W502": "player name is empty",
    "W503": "unknown tag that looks like a known one",
    "W504": "a character a terminal obeys",
    "N601": "replay stopped early",
    "N602": "hands and draws not checked without a deal",
    "N603": "result not compared",
}


def severity_of(code: str) -> Severity:
    return {"E": Severity.ERROR, "W": Severity.WARNING, "N": Severity.NOTE}[code[0]]


class Related(NamedTuple):
    """A second place that explains a diagnostic: the ``{`` that opened a
    comment, the pile position a draw came from."""

    message: str
    span: Span


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem. ``span`` is None when it belongs to the record or file as a
    whole; ``help`` says how to fix it, ``related`` points at other places
    that explain it."""

    code: str
    message: str
    source: str
    span: Span | None = None
    record: int | None = None
    ply: int | None = None
    help: str | None = None
    related: tuple[Related, ...] = ()

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"undocumented diagnostic code {self.code}")

    @property
    def severity(self) -> Severity:
        return severity_of(self.code)

    @property
    def location(self) -> str:
        """``file:line:col`` (or just ``file``)."""
        if self.span is None:
            return self.source
        return f"{self.source}:{self.span.line}:{self.span.column}"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "file": self.source,
            "line": self.span.line if self.span else None,
            "column": self.span.column if self.span else None,
            "end_line": self.span.end_line if self.span else None,
            "end_column": self.span.end_column if self.span else None,
            "record": self.record,
            "ply": self.ply,
            "help": self.help,
            "related": [
                {
                    "message": r.message,
                    "line": r.span.line,
                    "column": r.span.column,
                    "end_line": r.span.end_line,
                    "end_column": r.span.end_column,
                }
                for r in self.related
            ],
        }


def no_record(source: str, archive: bool = False) -> Diagnostic:
    """E105, for a readable file (or an archive document) that holds no record."""
    return Diagnostic(
        "E105",
        "the archive holds no record" if archive else "no record in this file",
        source,
        help='a record starts with its header, e.g. [P1 "Anna"] [P2 "Boris"] [Result "unfinished"]',
    )


def line_too_long(source: str, line: int, limit: int) -> Diagnostic:
    """E007, for a line of more than ``limit`` bytes."""
    return _beyond(
        source,
        line,
        f"line {line} is longer than {limit >> 20} MB, the most a line may be: reading stops here",
        "a record's lines are short: check that this is a record file, "
        "and split a long comment over lines",
    )


def record_too_long(source: str, line: int, limit: int) -> Diagnostic:
    """E007, for a record (or text no record ends in) longer than ``limit`` characters."""
    return _beyond(
        source,
        line,
        f"the record from line {line} goes on past {limit >> 20} MB: reading stops here",
        "a record is a few KB; a header line starts the next one "
        "(this may not be a record file at all)",
    )


def _beyond(source: str, line: int, message: str, help: str) -> Diagnostic:
    """E007 at the start of ``line``: reading stops there."""
    return Diagnostic("E007", message, source, Span(line, 1, line, 2), help=help)


class OrdoError(Exception):
    """Base of every error this library raises about its input (a record, a
    file, an archive, a deck): it carries the diagnostics that say where and
    why (``diagnostic`` is the first), and ``shown``, the source line to
    quote under it when the input could not be kept as text (a line holding
    a byte that is not UTF-8). The engine's own errors are ``IllegalPlay``
    and ``CardError``; a file that cannot be written raises ``OSError``."""

    def __init__(
        self, diagnostics: Diagnostic | Sequence[Diagnostic], shown: str | None = None
    ) -> None:
        found = (diagnostics,) if isinstance(diagnostics, Diagnostic) else tuple(diagnostics)
        super().__init__("; ".join(f"{d.location}: {d.code}: {d.message}" for d in found))
        self.diagnostics = found
        self.shown = shown

    @property
    def diagnostic(self) -> Diagnostic:
        return self.diagnostics[0]

    def __reduce__(self) -> tuple[type[OrdoError], tuple[tuple[Diagnostic, ...], str | None]]:
        return type(self), (self.diagnostics, self.shown)  # for the pool of workers


class InvalidRecord(OrdoError):
    """Raised by the strict API when a record has errors; carries them all."""


class ConversionError(OrdoError):
    """Text that cannot be formatted or converted; carries every reason."""


class InputError(OrdoError):
    """Input that cannot be used at all; the one diagnostic says where and why."""


class SourceError(InputError):
    """A file or standard input that is not UTF-8 text (E002), or that goes
    beyond what is read of a file (E007): reading stops there."""


class UnreadableSource(SourceError):
    """A file that cannot be read at all (E001): missing, a directory, no permission."""


class ArchiveError(InputError):
    """A YAML or JSON archive that cannot be read (E003). ``path`` is the place
    of the problem inside the document (``["records", 2, "body"]``) and
    ``reason`` the message without it."""

    path: list[str | int] = []  # noqa: RUF012 - set once, by the archive reader
    reason: str = ""


class DeckError(InputError):
    """A deck file that cannot be used (E006)."""
