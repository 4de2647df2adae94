"""``ordo fix``: rewrite what the replay determines, never what was played.

As ``ruff --fix`` mends what a linter can be sure of, this module rewrites the
parts of a record the rules compute: the ply numbers (when no play can be
missing), the declared markers (their marker number and winner), the
``Result`` tag and the result line (outcome and scores). Plays, comments,
tags other than ``Result`` and the layout are never touched: every change
replaces one word (or one tag) in place.

The validator is the one judge of what is wrong: a fix is made only from
its E4xx diagnostics, on a record whose replay reached the end of its plays.
A record with any other error, or whose replay stopped early, is refused with
the reason, and the fixed text is checked again before it is given back.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from ..diagnostics import Diagnostic, InputError, Severity, SourceError, Span
from ..engine.cards import State, seat_name
from ..files.sources import MAX_RECORD, LineSource, Source, read_sources
from ..notation.cutting import split_lines
from ..notation.parser import parse_text
from ..notation.record import (
    Declared,
    Element,
    Play,
    Record,
    ResultLine,
    Score,
    Tag,
    Unparsed,
)
from .report import Report
from .validator import validate


class Change(NamedTuple):
    """One word (or tag) rewritten: where, what it was, what it is now, and why."""

    span: Span
    before: str
    after: str
    why: str


class Refusal(NamedTuple):
    """A record left as it is: its number, why, and the diagnostic that says where."""

    record: int
    why: str
    diagnostic: Diagnostic | None


@dataclass(slots=True)
class Fixed:
    """A file's text with every fix made, the changes and the records refused."""

    source: Source
    text: str
    changes: list[Change] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.source.text

    def diff(self, context: int = 3) -> str:
        """A unified diff from the file to the fixed text, with the file's own
        line ends, to apply with ``patch -p0``. A fix changes words within
        lines, never their number, so lines pair one to one."""
        before, after = _lines(self.source.text), _lines(self.text)
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        hunks: list[list[int]] = []
        for i in changed:
            if hunks and i - hunks[-1][-1] <= 2 * context:
                hunks[-1].append(i)
            else:
                hunks.append([i])
        end_of_line = self.source.line_end
        last = len(before) - 1
        ends_open = not self.source.text.endswith("\n")

        def row(mark: str, line: str, i: int) -> str:
            if i == last and ends_open:
                return f"{mark}{line}\n\\ No newline at end of file\n"
            return f"{mark}{line}{end_of_line}"

        name = _quoted(self.source.name)
        out = [f"--- {name}\n", f"+++ {name}\n"]  # as GNU diff: only text lines keep CRs
        for hunk in hunks:
            start, end = max(0, hunk[0] - context), min(len(before), hunk[-1] + context + 1)
            size = end - start
            out.append(f"@@ -{start + 1},{size} +{start + 1},{size} @@\n")
            for i in range(start, end):
                if before[i] == after[i]:
                    out.append(row(" ", before[i], i))
                else:
                    out += [row("-", before[i], i), row("+", after[i], i)]
        return "".join(out)


def _lines(text: str) -> list[str]:
    """The lines of ``text`` (LF line ends only; a last line end ends the last line)."""
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def _quoted(name: str) -> str:
    """A file name as diff writes it: in double quotes, escaped, when it holds
    a space, a quote or a backslash (GNU patch reads that form)."""
    if not any(c in name for c in ' \t"\\'):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def fix_paths(paths: Iterable[str]) -> Iterator[Fixed | InputError]:
    """Each file fixed, in order (or the problem that keeps it from being
    read: a line or a record longer than the readers take, as ``ordo
    validate`` says, is E007 and the file is left alone)."""
    for source in read_sources(paths):
        if isinstance(source, InputError):
            yield source
            continue
        beyond = beyond_limits(source)
        yield InputError(beyond) if beyond is not None else fix_source(source)


def beyond_limits(source: Source) -> Diagnostic | None:
    """E007 where the readers of the other commands stop in ``source``: at a
    line too long, or a record too long (read as they read); else None."""
    lines = LineSource(source.name, io.BytesIO(source.text.encode())).lines()
    try:
        for _ in split_lines(lines, 1, source.name, MAX_RECORD):
            pass
    except SourceError as problem:
        return problem.diagnostic
    return None


def fix_source(source: Source) -> Fixed:
    """``source`` with what the replay determines rewritten; never raises for bad input."""
    fixed = Fixed(source, source.text)
    renumbered = _renumbered(source, fixed)  # by record
    numbered = _applied(source.text, (c for cs in renumbered.values() for c in cs))
    refused = {r.record for r in fixed.refused}
    made: list[Change] = []  # places in the numbered text
    for report in (validate(item) for item in parse_text(numbered, source.name)):
        if report.index in refused or report.record is None:
            continue
        blocking = [d for d in report.diagnostics if _blocks(d)]
        fixes = _result_fixes(report) if not blocking else None
        if blocking:
            fixed.refused.append(Refusal(report.index, _why(blocking[0]), blocking[0]))
        elif isinstance(fixes, Refusal):
            fixed.refused.append(fixes)
        elif fixes is not None:
            made += fixes
            continue
        renumbered.pop(report.index, None)  # a record refused is left as it was
    kept = [c for cs in renumbered.values() for c in cs]
    fixed.text = _applied(_applied(source.text, kept), made)
    fixed.changes = sorted(kept + made, key=lambda c: (c.span.line, c.span.column))
    if fixed.changed and not _checks(fixed):
        # never give back a text that still has what was fixed: leave the file alone
        fixed.refused = [Refusal(0, "the fixed text would not be valid; nothing changed", None)]
        fixed.text, fixed.changes = source.text, []
    return fixed


def _blocks(diagnostic: Diagnostic) -> bool:
    """An error that a fix cannot mend: anything but a declared result, marker
    or score that the replay contradicts (a declaration misplaced or doubled,
    E403 and E404, is not rewritten either: it would have to move)."""
    return diagnostic.severity is Severity.ERROR and (
        not diagnostic.code.startswith("E4") or diagnostic.code in ("E403", "E404")
    )


def _why(diagnostic: Diagnostic) -> str:
    where = f"line {diagnostic.span.line}: " if diagnostic.span else ""
    if diagnostic.code in ("E403", "E404"):
        return f"{where}a declared resolution must be moved or removed by hand ({diagnostic.code})"
    return (
        f"{where}{diagnostic.code} must be fixed by hand first; "
        "ordo fix changes only what the replay determines"
    )


def _renumbered(source: Source, fixed: Fixed) -> dict[int, list[Change]]:
    """The ply numbers to rewrite, by record, so that each record's plays run
    in sequence: only where a number is mistyped or repeated. A number that
    jumps ahead (a play may be missing) or a play written twice (pasted
    again) refuses the record."""
    changes: dict[int, list[Change]] = {}
    for item in parse_text(source.text, source.name):
        if isinstance(item, Unparsed):
            first = item.diagnostics[0] if item.diagnostics else None
            unread = "it cannot be read: fix its syntax errors first"
            fixed.refused.append(Refusal(item.index, unread, first))
            continue
        plays = item.plays
        mine: list[Change] = []
        for n, play in enumerate(plays, 1):
            if play.ply == n:
                continue
            following = plays[n].ply if n < len(plays) else None
            twice = next((p for p in plays[: n - 1] if _same_play(p, play)), None)
            why = None
            if twice is not None:
                why = (
                    f"line {play.span.line}: play {play.number.text} is written twice "
                    f"(line {twice.span.line} too): remove the one pasted again"
                )
            elif play.ply > n and following != n + 1:
                why = (
                    f"line {play.span.line}: the ply numbers jump from {n - 1}. to "
                    f"{play.number.text}: if a play is missing, write it; if not, renumber"
                )
            if why is not None:
                fixed.refused.append(Refusal(item.index, why, None))
                mine = []
                break
            mine.append(Change(play.number.span, play.number.text, f"{n}.", f"ply {n}"))
        if mine:
            changes[item.index] = mine
    return changes


def _same_play(a: Play, b: Play) -> bool:
    """The same play written again: number, seat, draw, card and state alike."""
    words = (a.number, a.seat, a.drawn, a.card, a.state)
    again = (b.number, b.seat, b.drawn, b.card, b.state)
    return [w and w.text for w in words] == [w and w.text for w in again]


def _result_fixes(report: Report) -> list[Change] | Refusal:
    """The words to rewrite so that what the record declares is what the
    replay found, from the validator's E4xx diagnostics."""
    record, game = report.record, report.game
    assert record is not None
    if game is None:
        return Refusal(report.index, "its header or deal cannot be read", None)
    outcome = report.outcome
    if outcome is None:
        actual = "unfinished"
    else:
        actual = "shared" if outcome.winner is None else seat_name(outcome.winner)
    changes: dict[Span, Change] = {}
    for d in report.diagnostics:
        span = d.span
        if span is None or d.code not in ("E401", "E402", "E410", "E411", "E412", "E413", "E414"):
            continue
        element = _element_at(record, span)
        if isinstance(element, Tag):
            after = f'[Result "{actual}"]'
            changes[element.span] = Change(element.span, _text(record, element.span), after, d.code)
        elif isinstance(element, Declared):
            state = next(
                (r for r in game.resolutions if r.state.name == _state_letter(element)), None
            )
            if state is None:
                return Refusal(report.index, _why(d), d)
            after = seat_name(state.winner) if d.code == "E401" else f"#{state.marker}"
            changes[span] = Change(span, _text(record, span), after, d.code)
        elif d.code == "E411" and outcome is not None:
            seat = next(s.seat.text for s in _scores(record) if s.value.span == span)
            after = str(outcome.scores[int(seat[1:]) - 1])
            changes[span] = Change(span, _text(record, span), after, d.code)
        else:  # the result line's outcome
            changes[span] = Change(span, _text(record, span), actual, d.code)
    if any(c.span.end_line != c.span.line for c in changes.values()):
        return Refusal(report.index, "a declaration to fix is written over two lines", None)
    return [c for c in changes.values() if c.before != c.after]


def _element_at(record: Record, span: Span) -> Element | None:
    """The element of ``record`` whose span holds ``span``."""
    for element in record.elements:
        e = element.span
        if (e.line, e.column) <= (span.line, span.column) and (span.end_line, span.end_column) <= (
            e.end_line,
            e.end_column,
        ):
            return element
    return None


def _state_letter(declared: Declared) -> str | None:
    state = State.lookup(declared.state.text)
    return state.name if state is not None else None


def _scores(record: Record) -> list[Score]:
    return [s for e in record.elements if isinstance(e, ResultLine) for s in e.scores]


def _text(record: Record, span: Span) -> str:
    """What the record's text holds at ``span`` (one line)."""
    lines = record.text.split("\n")
    first = record.span.line if record.span else 1
    line = lines[span.line - first]
    return line[span.column - 1 : span.end_column - 1]


def _applied(text: str, changes: Iterable[Change]) -> str:
    """``text`` with each change made (each within one line)."""
    lines = text.split("\n")
    for change in sorted(changes, key=lambda c: (c.span.line, c.span.column), reverse=True):
        span = change.span
        line = lines[span.line - 1]
        lines[span.line - 1] = line[: span.column - 1] + change.after + line[span.end_column - 1 :]
    return "\n".join(lines)


def _checks(fixed: Fixed) -> bool:
    """Whether every record fixed now has no error left of those a fix mends."""
    refused = {r.record for r in fixed.refused}
    for item in parse_text(fixed.text, fixed.source.name):
        if item.index in refused:
            continue
        if isinstance(item, Unparsed):
            return False
        if any(d.severity is Severity.ERROR for d in validate(item).diagnostics):
            return False
    return True
