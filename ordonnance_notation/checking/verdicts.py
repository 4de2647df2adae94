"""The verdict of one record, small enough to send between processes: what
the report of ``ordo validate`` needs, and nothing of the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, Severity
from ..notation.parser import parse_record
from .validator import validate


@dataclass(frozen=True, slots=True)
class Task:
    """One record's text, to check."""

    source: str
    index: int
    first_line: int
    text: str
    with_json: bool


@dataclass(frozen=True, slots=True)
class Checked:
    """What the report of one record needs, small enough to send between
    processes: ``task.text`` is kept only when a diagnostic quotes it."""

    task: Task
    diagnostics: tuple[Diagnostic, ...]
    players: str  # " (Anna v Boris)", or "" when the header could not be read
    verdict: str  # "valid, P2 wins (states: P1 2, P2 3)"
    valid: bool
    errors: int
    warnings: int
    json: dict[str, Any] | None

    @property
    def source(self) -> str:
        return self.task.source

    @property
    def index(self) -> int:
        return self.task.index


def check_task(task: Task) -> Checked | None:
    """Parse and validate one record; None when the text holds only comments."""
    item = parse_record(task.text, task.first_line, task.source, task.index)
    if item is None:
        return None
    report = validate(item)
    if not report.diagnostics:  # the text is sent back only to be quoted
        task = Task(task.source, task.index, task.first_line, "", task.with_json)
    return Checked(
        task,
        report.diagnostics,
        report.players,
        report.verdict,
        report.valid,
        report.count(Severity.ERROR),
        report.count(Severity.WARNING),
        report.to_json() if task.with_json else None,
    )
