"""The verdict on one record: its diagnostics, how far the rules got, and
the table after every ply of the replay when it was asked for."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..diagnostics import Diagnostic, Severity
from ..engine.cards import State, seat_name
from ..engine.game import Deal, Game, Turn
from ..engine.scoring import Outcome, Scoring
from ..notation.record import Play, Record


class Step(NamedTuple):
    """The table after a ply of a replay: ``number`` is the ply just played (0
    before the first), ``turn`` what it did and ``play`` the play as written
    (both None at step 0)."""

    number: int
    game: Game
    turn: Turn | None
    play: Play | None


@dataclass(frozen=True, slots=True, repr=False)
class Report:
    """The verdict on one record. ``game`` is the last position the rules reached
    (None when the header or deal could not be read); ``outcome`` is set only for
    a finished game that was checked to the end; ``stopped`` is the error at the
    play where the replay stopped, if it did; ``steps`` holds the table after
    every ply when ``validate`` was asked for them."""

    source: str
    index: int
    diagnostics: tuple[Diagnostic, ...]
    names: tuple[str, ...] = ()
    game: Game | None = None
    turns: tuple[Turn, ...] = ()
    outcome: Outcome | None = None
    record: Record | None = None
    scoring: Scoring | None = None
    deal: Deal | None = None
    stopped: Diagnostic | None = None
    steps: tuple[Step, ...] = ()

    def __repr__(self) -> str:
        return f"<Report of {self.source} #{self.index}: {self.verdict}>"

    @property
    def valid(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def players(self) -> str:
        """`` (Anna v Boris)``, or nothing when the header could not be read."""
        return players_of(self.names)

    @property
    def verdict(self) -> str:
        """What the record amounts to, in a few words."""
        if not self.valid:
            counts = [
                f"{n} {severity.value}{'s' if n != 1 else ''}"
                for severity in Severity
                if (n := self.count(severity))
            ]
            return "invalid: " + ", ".join(counts)
        if self.outcome is None:
            ply = self.game.ply if self.game else 0
            return f"valid, unfinished after ply {ply}"
        return "valid, " + self.outcome.describe(self.scoring.unit if self.scoring else "states")

    @property
    def winner(self) -> str | None:
        """The winner's seat as the record names it (``"P2"``); None while the
        game is unfinished or was not checked to its end, or when the win is
        shared. ``outcome.winner`` is the engine's number for it (1 for P2)."""
        return winner_of(self.outcome)

    @property
    def scores(self) -> dict[str, int] | None:
        """Each seat's score by its name (``{"P1": 1, "P2": 4}``), in states or
        points as the record's scoring counts; None unless finished and checked.
        ``outcome.scores`` holds the same by the engine's numbers."""
        return scores_of(self.outcome)

    def to_json(self) -> dict[str, Any]:
        """The report as ``ordo validate --format json`` prints it."""
        markers = [
            (r.marker, r.state, r.winner, r.ply)
            for r in (self.game.resolutions if self.game else ())
        ]
        return report_json(
            self.source, self.index, self.names, self.valid, self.outcome, markers, self.diagnostics
        )


def winner_of(outcome: Outcome | None) -> str | None:
    """The winner's seat by name; None unfinished, unchecked or shared."""
    return None if outcome is None or outcome.winner is None else seat_name(outcome.winner)


def scores_of(outcome: Outcome | None) -> dict[str, int] | None:
    """Each seat's score by its name; None unless finished and checked."""
    return None if outcome is None else {seat_name(s): v for s, v in enumerate(outcome.scores)}


def players_of(names: tuple[str, ...]) -> str:
    """`` (Anna v Boris)``, or nothing without names."""
    return f" ({' v '.join(name.strip() or '?' for name in names)})" if names else ""


def report_json(
    source: str,
    index: int,
    names: tuple[str, ...],
    valid: bool,
    outcome: Outcome | None,
    markers: Iterable[tuple[int, State, int, int]],
    diagnostics: Iterable[Diagnostic],
) -> dict[str, Any]:
    """A record's report as ``ordo validate --format json`` prints it;
    ``markers`` are (marker, state, seat, ply) in marker order."""
    return {
        "file": source,
        "record": index,
        "players": list(names),
        "valid": valid,
        "finished": outcome is not None,
        "winner": winner_of(outcome),
        "scores": scores_of(outcome),
        "markers": [
            {"marker": marker, "state": state.name, "seat": seat_name(seat), "ply": ply}
            for marker, state, seat, ply in markers
        ],
        "diagnostics": [d.to_json() for d in diagnostics],
    }
