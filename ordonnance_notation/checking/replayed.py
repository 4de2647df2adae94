"""A valid, finished record as replayed: what every view reads of it.

The compiled core gives one for each record it accepts (``quick.replayed_block``);
the Python path builds the same from its own report (``Replayed.of``), and
tests/test_quick.py holds the two equal on every corpus. The views are
functions of it, whichever path made it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..engine.armies import PACKED, Army
from ..engine.cards import Card, State, seat_name
from ..engine.game import Deal
from ..engine.scoring import DEFAULT_POINTS, Outcome, Scoring, score
from ..notation.games import dealt_game_text
from ..notation.record import Hand, Pile, Play
from ..notation.writer import card_text

if TYPE_CHECKING:
    from ..engine.decisions import Analysis
    from ..engine.game import Game
    from .report import Report

Marker = tuple[int, State, int, int]  # (marker, state, seat that won it, ply)
Place = tuple[int, int, int]  # (seat, ply of its fourth card, packed icon counts)


class Replayed(NamedTuple):
    """A valid, finished record as replayed: its first line, players, tags
    (in order) and text; its outcome under its scoring; the markers as
    ``(marker, state, seat, ply)``; its deal (no hand and no pile where the
    record has none) and plays; whether every play
    is ``plain`` (its number, perhaps its seat, its card as ``Card.__str__``
    spells it and its state's letter: no draw, glyph or comment; every one
    with its seat or none) and, if so, whether every one is ``seated``; whether its deal is
    ``ordered`` (each seat's hand in seat order, then the pile); each
    marker's armies by place (``Place``: the packed icon counts are
    ``armies.PACKED``'s); the winner under classic scoring and under points
    scoring (the record's table, else the usual one: None where shared);
    and, when asked, its analysis (and with it the
    ply after which the game was decided) or, alone, that ply if the game
    was decided by a given ply. A named tuple: the core gives thousands a
    second, and a tuple is the cheapest immutable value to build."""

    first_line: int
    names: tuple[str, ...]
    tags: tuple[tuple[str, str], ...]
    text: str
    outcome: Outcome
    scoring: Scoring
    markers: tuple[Marker, ...]
    deal: Deal
    plays: tuple[tuple[Card, State], ...]
    plain: bool
    seated: bool
    ordered: bool
    ranked: tuple[tuple[Place, ...], ...]
    by_rule: tuple[int | None, int | None]
    analysis: Analysis | None = None
    decided: int | None = None

    @classmethod
    def of(
        cls, report: Report, analysis: Analysis | None = None, decided: int | None = None
    ) -> Replayed:
        """The same of a record the Python validator found valid and finished,
        given its analysis or the ply it was decided."""
        record, game, outcome = report.record, report.game, report.outcome
        assert record is not None and game is not None and outcome is not None and report.valid
        plays = record.plays
        seats = [play.seat is not None for play in plays]
        plain = all(map(_plain, plays)) and (all(seats) or not any(seats))
        return cls(
            record.span.line if record.span is not None else 1,
            report.names,
            tuple((tag.name.text, tag.value) for tag in record.tag_elements),
            record.text,
            outcome,
            report.scoring or Scoring.classic(),
            tuple((r.marker, r.state, r.winner, r.ply) for r in game.resolutions),
            report.deal or _NO_DEAL,
            tuple((turn.card, turn.state) for turn in report.turns),
            plain,
            plain and any(seats),
            _ordered(report),
            tuple(tuple(map(_place, r.ranking)) for r in game.resolutions),
            _by_rule(game, report.scoring),
            analysis,
            decided,
        )

    @property
    def seats(self) -> int:
        return len(self.names)

    def tag(self, name: str) -> str | None:
        """The value of the first tag called ``name``, else None."""
        return next((value for key, value in self.tags if key == name), None)

    @property
    def won(self) -> tuple[tuple[State, int], ...]:
        """Who won each state, in marker order: ``(state, seat)``."""
        return tuple((state, seat) for _, state, seat, _ in self.markers)

    @property
    def game_text(self) -> str:
        """The text its game key is the hash of (``games.dealt_game_text``),
        for a record whose deal is ``ordered``."""
        return dealt_game_text(self.deal, self.plays)


_NO_DEAL = Deal((), ())  # a record without a deal: no hand, no pile


def _by_rule(game: Game, scoring: Scoring | None) -> tuple[int | None, int | None]:
    table = scoring.points if scoring is not None and scoring.points else DEFAULT_POINTS
    return (
        score(game.seats, game.resolutions, Scoring.classic()).winner,
        score(game.seats, game.resolutions, Scoring.by_points(table)).winner,
    )


def _plain(play: Play) -> bool:
    return (
        play.drawn is None
        and play.glyph is None
        and not play.comments
        and len(play.state.text) == 1
        and card_text(play.card.text) == play.card.text  # as Card.__str__ spells it
    )


def _ordered(report: Report) -> bool:
    """Whether the deal is written each seat's hand in seat order, then the pile."""
    assert report.record is not None
    dealt = [e for e in report.record.elements if type(e) is Hand or type(e) is Pile]
    names = [e.seat.text if type(e) is Hand else "pile" for e in dealt]
    return names == [*map(seat_name, range(len(report.names))), "pile"]


def _place(army: Army) -> Place:
    return army.seat, army.fourth_ply or 0, sum(PACKED[card.mask] for card in army.cards)
