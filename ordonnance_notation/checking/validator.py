"""Validate a record: read it, replay it under the rules, compare what it declares.

The steps, in order: ``content`` gives the words their meaning (E2xx),
``replay`` plays the moves (E3xx, E401 to E404), ``results`` compares the
declared result (E41x); the verdict is a ``report.Report``.

Never invent: the replay stops at the first play that cannot be read or is
illegal. Later plays, declared resolutions and the result are then not
checked, and a note (N601) says so; nothing after that point is reported as
if another game had been played.
"""

from __future__ import annotations

from ..diagnostics import OBEYED, Diagnostic, InvalidRecord, Severity, Span
from ..notation.record import Record, Unparsed
from .content import content_of
from .replay import replay
from .report import Report
from .results import check_result, check_tag_against_line


def validate(item: Record | Unparsed, steps: bool = False) -> Report:
    """Every diagnostic for one record, and how far the rules got; with
    ``steps``, the table after every ply too. Never raises for bad input;
    raises TypeError for what is no record (``read_record`` reads one)."""
    if isinstance(item, Unparsed):
        if item.partial is None:
            return Report(item.source, item.index, item.diagnostics + obeyed(item))
        content = content_of(item.partial, tuple(zip(item.gaps, item.diagnostics, strict=True)))
        content.diagnostics.extend(item.diagnostics)
    elif isinstance(item, Record):
        content = content_of(item)
    else:
        raise TypeError(
            f"validate takes a Record, not {type(item).__name__}: read_record reads one"
        )
    content.diagnostics.extend(obeyed(item))
    replayed = replay(content, steps)
    outcome = None
    if replayed.game is not None and replayed.compare_result:
        outcome = check_result(content, replayed.game)
    check_tag_against_line(content)
    diagnostics = sorted(
        content.diagnostics,
        key=lambda d: (
            d.span.line if d.span else 0,
            d.severity.rank,
            d.span.column if d.span else 0,
        ),
    )
    return Report(
        item.source,
        item.index,
        tuple(diagnostics),
        content.names,
        replayed.game,
        tuple(replayed.turns),
        outcome,
        content.record,
        content.scoring,
        content.deal,
        replayed.stopped,
        tuple(replayed.steps),
    )


def obeyed(item: Record | Unparsed) -> tuple[Diagnostic, ...]:
    """W504 on each line of the record that holds a character a terminal
    obeys rather than shows (``OBEYED``), at the first of them."""
    if not OBEYED.search(item.text):
        return ()
    first = item.first_line if isinstance(item, Unparsed) else item.span.line if item.span else 1
    found = []
    for number, line in enumerate(item.text.split("\n"), first):
        hit = OBEYED.search(line)
        if hit is not None:
            column = hit.start() + 1
            found.append(
                Diagnostic(
                    "W504",
                    f"U+{ord(hit.group()):04X} is a character a terminal obeys rather than shows",
                    item.source,
                    Span(number, column, number, column + 1),
                    item.index,
                    help="remove it: written to a terminal as it is, it can recolour, clear, "
                    "retitle the window or reorder text (ordo's views show it as a picture)",
                )
            )
    return tuple(found)


def validate_or_raise(item: Record | Unparsed) -> Report:
    """Like ``validate``, but raises InvalidRecord when the record has an error."""
    report = validate(item)
    if not report.valid:
        raise InvalidRecord(tuple(d for d in report.diagnostics if d.severity is Severity.ERROR))
    return report
