"""Reports as text for people and as JSON for programs: a diagnostic with
its line and caret, a record's verdict, and the reporters of ``ordo validate``.

Text diagnostics follow the compiler convention ``file:line:col: error[E303]:
message``, then the source line with a caret under the offending text.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TextIO, TypeAlias, TypeVar

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from ..checking.report import Report
from ..checking.validator import validate
from ..checking.verdicts import Checked
from ..diagnostics import OBEYED, Diagnostic, InputError, Severity, Span
from ..engine.cards import seat_name
from ..notation.parser import parse_chunks
from ..runs.blocks import Block, block_chunks
from ..runs.inputs import over_inputs
from ..runs.tally import Tally
from ..runs.workers import Pool

STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.NOTE: "cyan"}

# What a terminal would obey (OBEYED) or hide rather than show: the tab, the
# soft hyphen, other bidirectional marks, zero-width characters and joiners,
# line and paragraph separators, interlinear marks.
_UNSEEN = re.compile(
    f"{OBEYED.pattern}|[\t\xad\u061c\u180e\u200b-\u200f\u2028\u2029\u2060-\u2065\ufeff\ufff9-\ufffb]"
)


def _seen(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the control pictures: ␛ for ESC
    return "\u2421" if code == 0x7F else f"<U+{code:04X}>"


def visible(text: str) -> str:
    """``text`` as it may reach a terminal: every character that a terminal
    would obey (an escape sequence that moves the cursor or recolours, a
    bell) or not show (a zero-width space, a right-to-left override) shown
    as a picture (␛, ␀) or its code point (<U+202E>); line ends kept. Text
    from records and file names goes through it in every human format."""
    return _UNSEEN.sub(_seen, text) if _UNSEEN.search(text) else text


def diagnostic_text(
    diagnostic: Diagnostic, lines: Sequence[str] | None, first_line: int = 1
) -> Text:
    """The diagnostic, its source line with a caret under the offending text
    (when the line is known), the lines its related places are on, each with
    its label, then where in the file it is and the help line.
    ``lines`` start at line ``first_line`` of the file."""
    out = Text()
    out.append(f"{visible(diagnostic.location)}: ", style="bold")
    style = STYLES[diagnostic.severity]
    out.append(f"{diagnostic.severity.value}[{diagnostic.code}]", style=style)
    out.append(f": {visible(diagnostic.message)}")

    def known(span: Span | None) -> bool:
        return span is not None and lines is not None and 0 <= span.line - first_line < len(lines)

    marks = [(diagnostic.span, "^", "", style)] if known(diagnostic.span) else []
    marks += [(r.span, "-", r.message, "cyan") for r in diagnostic.related if known(r.span)]
    unshown = [r for r in diagnostic.related if not known(r.span)]
    spans = [span for span, _, _, _ in marks if span is not None]
    gutter = max((len(str(span.line)) for span in spans), default=0)
    if marks and lines is not None:
        out.append(f"\n {' ' * gutter} |")
        shown_line = None
        lo, hi, before = 0, 0, ""
        for span, mark, label, mark_style in sorted(marks, key=lambda m: m[0] or (0,)):
            assert span is not None
            source_line = lines[span.line - first_line].expandtabs(1)
            if span.line != shown_line:
                first = min(s.column for s in spans if s.line == span.line) - 1
                lo, hi = _window(source_line, first)
                before = "…" if lo else ""
                shown = before + source_line[lo:hi] + ("…" if hi < len(source_line) else "")
                out.append(f"\n {span.line:>{gutter}} | {visible(shown)}")
                shown_line = span.line
            column = min(max(span.column - 1, lo), hi)
            start = cell_len(before + visible(source_line[lo:column]))
            end = span.end_column - 1 if span.end_line == span.line else len(source_line)
            width = cell_len(visible(source_line[column : min(end, hi)]))
            out.append(f"\n {' ' * gutter} | ")
            out.append(
                " " * start + mark * max(1, width) + (f" {visible(label)}" if label else ""),
                mark_style,
            )
    where = [f"record {diagnostic.record}"] if diagnostic.record is not None else []
    if diagnostic.ply is not None:
        where.append(f"ply {diagnostic.ply}")
    pad = " " * gutter
    if where:
        out.append(f"\n {pad} = {', '.join(where)}", style="dim")
    for related in unshown:
        out.append(f"\n {pad} = note: {visible(related.message)} (line {related.span.line})")
    if diagnostic.help:
        out.append(f"\n {pad} = ")
        out.append("help", style="bold")
        out.append(f": {visible(diagnostic.help)}")
    return out


_WIDE = 200  # characters of a source line shown: a longer one is shown around its marks
_BEFORE = 60  # of which before the first mark


def _window(line: str, first: int) -> tuple[int, int]:
    """The part of a source line shown (from, to), for marks from ``first``:
    all of it when it is short, else about ``_WIDE`` characters around them."""
    if len(line) <= _WIDE:
        return 0, len(line)
    lo = max(0, first - _BEFORE)
    return lo, min(len(line), lo + _WIDE)


def problem_text(problem: InputError) -> Text:
    """An input that cannot be used: its diagnostic, with the line it quotes if any."""
    diagnostic = problem.diagnostic
    shown = [problem.shown] if problem.shown is not None else None
    return diagnostic_text(diagnostic, shown, diagnostic.span.line if diagnostic.span else 1)


class Verdict(Protocol):
    """A record's verdict, from a ``Report`` or from a ``Checked`` sent back by a worker."""

    @property
    def source(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def players(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    @property
    def valid(self) -> bool: ...


def record_line(report: Verdict) -> Text:
    """``file record 2 (Anna v Boris): valid, P2 wins (...)``."""
    out = Text(_record_head(report))
    out.append(visible(report.verdict), style="green" if report.valid else "bold red")
    return out


def _record_head(report: Verdict) -> str:
    return visible(f"{report.source} record {report.index}{report.players}: ")


_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")  # what Rich would show otherwise


def printer(console: Console) -> Callable[[str, Callable[[], Text]], None]:
    """``emit(line, styled)`` prints ``line``, or ``styled()`` where styles
    show: Rich's rendering costs about 0.1 ms a line, a tenth of validating a
    record, so without styles the text is written plainly and never built."""
    plain = console.color_system is None

    def emit(line: str, styled: Callable[[], Text]) -> None:
        if plain and not _CONTROL.search(line):
            console.file.write(line + "\n")
            return
        console.print(styled())

    return emit


def plural(n: int, word: str) -> str:
    """``1 record``, ``2 records``."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def percent(part: int, whole: int) -> str:
    """``33.3%`` of ``part`` in ``whole``; ``-`` of nothing."""
    return f"{100 * part / whole:.1f}%" if whole else "-"


class TextReporter:
    """``ordo validate`` for people: each problem with its place, each record's
    diagnostics with the line quoted and its verdict, then the totals."""

    def __init__(
        self, console: Console, least: Severity = Severity.NOTE, quiet: bool = False
    ) -> None:
        """``least``: the mildest severity shown; ``quiet``: no line for a valid record."""
        self.console = console
        self.emit = printer(console)
        self.least = least.rank
        self.quiet = quiet

    def take(self, item: Checked | InputError) -> None:
        if isinstance(item, InputError):
            self.console.print(problem_text(item))
            return
        lines = item.task.text.split("\n")
        for diagnostic in item.diagnostics:
            if diagnostic.severity.rank <= self.least:
                text = diagnostic_text(diagnostic, lines, item.task.first_line)
                self.emit(text.plain, text.copy)
        if not (self.quiet and item.valid):
            self.emit(_record_head(item) + visible(item.verdict), lambda: record_line(item))

    def finish(self, tally: Tally) -> None:
        self.console.print(
            f"{plural(tally.records, 'record')} in {plural(tally.files, 'file')}: "
            f"{tally.records - tally.invalid} valid, {tally.invalid} invalid; "
            f"{plural(tally.errors, 'error')}, {plural(tally.warnings, 'warning')}"
        )


Json: TypeAlias = "str | int | float | bool | Sequence[Json] | Mapping[str, Json] | None"


class Entry(Protocol):
    """A record's view (a summary, an analysis) as every layout reads it;
    ``to_json`` is its JSON form, built only to be written."""

    def to_json(self) -> dict[str, Json]: ...


@dataclass(frozen=True, slots=True)
class Player:
    """A seat and the name its tag gives (``""`` when it has none)."""

    seat: int
    name: str

    def to_json(self) -> dict[str, Json]:
        return {"seat": seat_name(self.seat), "name": self.name}


def players_of(report: Report) -> tuple[Player, ...]:
    """The players of a record, a seat each, as its header names them."""
    return players_named(report.names)


def players_named(names: Sequence[str]) -> tuple[Player, ...]:
    """The players of a record whose seats these ``names`` hold, in seat order."""
    return tuple(Player(seat, name) for seat, name in enumerate(names))


def json_records(entries: Iterable[Entry | Mapping[str, Json]]) -> Iterator[str]:
    """``json.dumps({"records": [...]}, indent=2)`` plus a line end, a record
    at a time (no record: nothing at all); an entry is a view, written as its
    ``to_json`` says, or JSON data."""
    return json_document(map(json_entry, entries))


def json_entry(entry: Entry | Mapping[str, Json]) -> str:
    """One entry of ``json_records``, laid out (and indented) as it is there."""
    data = entry if isinstance(entry, Mapping) else entry.to_json()
    return json.dumps(data, indent=2, ensure_ascii=False).replace("\n", "\n    ")


def json_document(entries: Iterable[str]) -> Iterator[str]:
    """``json_records`` of entries already laid out by ``json_entry``."""
    n = -1
    for n, text in enumerate(entries):
        yield ('{\n  "records": [\n    ' if n == 0 else ",\n    ") + text
    if n >= 0:
        yield "\n  ]\n}\n"


class JsonReporter:
    """``ordo validate --format json``: one document, the same text as
    ``json.dumps(document, indent=2)``, written as the records come."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.records = 0
        stream.write('{\n  "records": [')

    def take(self, item: Checked | InputError) -> None:
        if isinstance(item, InputError):
            return  # problems are listed after the records, from the tally
        entry = textwrap.indent(json.dumps(item.json, indent=2, ensure_ascii=False), "    ")
        self.stream.write(("," if self.records else "") + "\n" + entry)
        self.records += 1

    def finish(self, tally: Tally) -> None:
        summary = {
            "files": tally.files,
            "records": tally.records,
            "valid": tally.records - tally.invalid,
            "invalid": tally.invalid,
            "errors": tally.errors,
            "warnings": tally.warnings,
        }
        problems = [p.diagnostic.to_json() for p in tally.problems]
        tail = json.dumps({"problems": problems, "summary": summary}, indent=2, ensure_ascii=False)
        self.stream.write(("\n  ],\n" if self.records else "],\n") + tail[2:] + "\n")


# Laid out on workers, numbered here ------------------------------------------

_NUMBER = "\x00"  # a record's number until it is known: no file name or record holds a NUL


class _Unnumbered(int):
    """The number of a record not yet numbered: written as ``_NUMBER``, where
    the text laid out is cut to put the number in."""

    def __format__(self, spec: str) -> str:
        return _NUMBER

    def __str__(self) -> str:
        return _NUMBER


_UNNUMBERED = _Unnumbered()

View = TypeVar("View", bound=Entry)


@dataclass(frozen=True, slots=True)
class LaidOut:
    """A record's view laid out already (as ``laid_out`` lays it out) but for
    its number: the text before it and after it."""

    before: str
    after: str


Quick: TypeAlias = Callable[[Block, int], Sequence[View | LaidOut | tuple[int, str]] | None]
"""The views of a block's records from the compiled core (their record
number the int given), and each record it leaves to Python as ``(first
line, text)``; None when it cannot read the block."""


def laid_out(data: View, format: str, render: Callable[[View], str]) -> tuple[str, str]:
    """A record's view laid out (``json``: an entry of ``json_records``;
    else by ``render``, for people: nothing a terminal obeys) before its
    number within its file is known, as the text before it and after it.
    The view's ``record`` is to be ``_UNNUMBERED`` (``laid_block`` makes
    it so)."""
    if format == "json":
        entry = data.to_json() | {"record": _NUMBER}  # in its place among the keys
        return tuple(json_entry(entry).split(json.dumps(_NUMBER), 1))  # type: ignore[return-value]
    before, after = render(data).split(_NUMBER, 1)
    return visible(before), visible(after)


@dataclass(frozen=True, slots=True)
class Laid:
    """A block's records laid out but for their numbers (text before, text
    after, valid), and the input they come from."""

    file: int
    source: str
    entries: list[tuple[str, str, bool]]

    @property
    def records(self) -> int:
        return len(self.entries)


def laid_block(
    block: Block,
    data_of: Callable[[Report], View],
    render: Callable[[View], str],
    format: str,
    quick: Quick[View] | None = None,
) -> Laid:
    """Each record of ``block`` validated, made a view by ``data_of`` (or by
    ``quick``, where it can) and laid out (``laid_out``) but for its number
    (on a worker)."""
    found = quick(block, _UNNUMBERED) if quick is not None and not block.one_record else None
    entries = []
    for item in block_chunks(block) if found is None else found:
        if isinstance(item, LaidOut):
            entries.append((item.before, item.after, True))
            continue
        if not isinstance(item, tuple):
            entries.append((*laid_out(item, format, render), True))
            continue
        for parsed in parse_chunks((item,), block.source):
            report = validate(parsed)
            before, after = laid_out(data_of(replace(report, index=_UNNUMBERED)), format, render)
            entries.append((before, after, report.valid))
    return Laid(block.file, block.source, entries)


class Numbered:
    """The records of ``paths`` (files, directories, ``-``) laid out by
    ``lay`` on ``workers`` a block at a time, in input order and numbered
    within each file; an ``InputError`` in the place of an input that cannot
    be used (a file without a record after the rest). ``records`` and
    ``invalid`` count the records so far. ``slow``: a record takes seconds,
    so each is a block of its own and comes out once done (``by_record``)."""

    def __init__(
        self,
        paths: Sequence[str],
        lay: Callable[[Block], Laid],
        workers: Pool,
        slow: bool = False,
    ) -> None:
        self.paths, self.lay, self.workers, self.slow = list(paths), lay, workers, slow
        self.records = self.invalid = 0

    def __iter__(self) -> Iterator[str | InputError]:
        numbers: dict[int, int] = {}
        for done in over_inputs(self.paths, self.lay, self.workers, self.slow):
            if isinstance(done, InputError):
                yield done
                continue
            for before, after, valid in done.entries:
                number = numbers[done.file] = numbers.get(done.file, 0) + 1
                self.records += 1
                self.invalid += not valid
                yield f"{before}{number}{after}"
