"""The annotated summary of a record: who played, under which rules, who won
and why, how each state was decided, and the record's own comments.

``summarize`` builds it (a ``RecordSummary``); ``render_text`` and
``render_markdown`` lay it out for the terminal and for publishing, its
``to_json`` is the JSON format.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import NamedTuple

from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..checking.report import Report
from ..engine.armies import Army, described, explained_packed
from ..engine.cards import CARD_WORDS, Card, State, seat_name
from ..engine.game import MAX_SEATS, Resolution
from ..engine.scoring import Outcome, Scoring, TieBreak, captured
from ..runs.blocks import Block
from ..runs.workers import Pool
from .analysis import WhenDecided, when_decided
from .bestplay import BestPlayView, scored_record
from .judgement import JudgementView, Judging, judged_record, spread_over
from .report import (
    Json,
    LaidOut,
    Numbered,
    Player,
    laid_block,
    players_named,
    players_of,
    visible,
)


class ArmySummary(NamedTuple):
    """A seat's army in a state: its cards in the order played, its
    formations in words, and the ply of its fourth card (None: not full).
    Named tuples, as ``StateSummary``: a summary holds dozens of them."""

    seat: int
    cards: tuple[Card, ...]
    formations: str
    fourth_card_ply: int | None

    @classmethod
    def of(cls, army: Army) -> ArmySummary:
        return cls(army.seat, army.cards, army.formations.describe(), army.fourth_ply)


class StateSummary(NamedTuple):
    """A resolved state: its marker, the ply that resolved it, its winner,
    the comparison that decided it, and the armies strongest first."""

    marker: int
    state: State
    ply: int
    winner: int
    deciding: str
    armies: tuple[ArmySummary, ...]  # by place: the winner's first

    @classmethod
    def of(cls, resolution: Resolution) -> StateSummary:
        return cls(
            resolution.marker,
            resolution.state,
            resolution.ply,
            resolution.winner,
            resolution.decision.explain(),
            tuple(ArmySummary.of(army) for army in resolution.ranking),
        )


@dataclass(frozen=True, slots=True)
class UnresolvedState:
    """A state no play resolved, and each seat's army in it, by seat."""

    state: State
    armies: tuple[ArmySummary, ...]


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game's outcome, and why it came out so, in a sentence (``why``)."""

    outcome: Outcome
    why: str

    def to_json(self, unit: str) -> dict[str, Json]:
        """The result, its scores counting ``unit`` (states or points)."""
        outcome = self.outcome
        return {
            "winner": None if outcome.winner is None else seat_name(outcome.winner),
            "unit": unit,
            "scores": {seat_name(s): v for s, v in enumerate(outcome.scores)},
            "states": {seat_name(s): v for s, v in enumerate(outcome.states)},
            "tie_break": outcome.tie_break.value if outcome.tie_break else None,
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class Annotation:
    """A play the record marks with a glyph or comments, as written."""

    ply: int
    play: str  # seat, card and state, e.g. "P2 HF A"
    glyph: str | None
    comments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RecordSummary:
    """Everything the summary of a record says: its place, players and
    rules, each state resolved (in marker order) and not, the result,
    the record's comments and annotations, its errors, and (``decided``)
    when each state and the game were decided: None when not asked for,
    or when nothing was replayed."""

    file: str
    record: int
    players: tuple[Player, ...]
    scoring: Scoring
    valid: bool
    states: tuple[StateSummary, ...]
    unresolved: tuple[UnresolvedState, ...]
    result: GameResult | None  # None: not finished, or not checked to its end
    comments: tuple[str, ...]
    annotations: tuple[Annotation, ...]
    problems: tuple[str, ...]  # the errors, each as ``location: code: message``
    decided: WhenDecided | None = None
    best: BestPlayView | None = None  # with --best-play
    judged: JudgementView | None = None  # with --judge

    def name_of(self, seat: int) -> str:
        """The name of the player at ``seat``, ``""`` when the header gives none."""
        return self.players[seat].name if seat < len(self.players) else ""

    def points_for(self, place: int) -> int | None:
        """What ``place`` in a state (0: its winner) scores; None under classic scoring."""
        return self.scoring.points_for(place) if self.scoring.is_points else None

    def points(self) -> tuple[tuple[int, ...], ...] | None:
        """Under points scoring, when the game is finished: each seat's points
        from each state, the states in marker order; else None."""
        if self.result is None or not self.scoring.is_points or not self.states:
            return None
        return points_by_seat([[army.seat for army in s.armies] for s in self.states], self.scoring)

    def to_json(self) -> dict[str, Json]:
        """``ordo summary --format json``'s entry for the record."""
        scoring = self.scoring
        points = self.points()
        out: dict[str, Json] = {
            "file": self.file,
            "record": self.record,
            "players": [player.to_json() for player in self.players],
            "scoring": "points" if scoring.is_points else "classic",
            "points_table": list(scoring.points) if scoring.points else None,
            "valid": self.valid,
            "finished": self.result is not None,
            "result": None if self.result is None else self.result.to_json(scoring.unit),
            "states": [self._state_json(state) for state in self.states],
            "unresolved": [
                {
                    "state": state.state.name,
                    "name": state.state.full_name,
                    "armies": [self._army_json(army) for army in state.armies],
                }
                for state in self.unresolved
            ],
            "points": None
            if points is None
            else {
                seat_name(seat): {state.state.name: row[n] for n, state in enumerate(self.states)}
                for seat, row in enumerate(points)
            },
            "comments": list(self.comments),
            "annotations": [
                {
                    "ply": note.ply,
                    "play": note.play,
                    "glyph": note.glyph,
                    "comments": list(note.comments),
                }
                for note in self.annotations
            ],
            "problems": list(self.problems),
        }
        if self.decided is not None:
            out["decided"] = self.decided.to_json()
        if self.best is not None:
            out["best_play"] = self.best.to_json()
        if self.judged is not None:
            out["judgement"] = self.judged.to_json()
        return out

    def _army_json(self, army: ArmySummary) -> dict[str, Json]:
        return {
            "seat": seat_name(army.seat),
            "name": self.name_of(army.seat),
            "cards": [str(c) for c in army.cards],
            "formations": army.formations,
            "fourth_card_ply": army.fourth_card_ply,
        }

    def _state_json(self, state: StateSummary) -> dict[str, Json]:
        armies = []
        for place, army in enumerate(state.armies):
            entry = self._army_json(army) | {"place": place + 1}
            points = self.points_for(place)
            if points is not None:
                entry["points"] = points
            armies.append(entry)
        return {
            "marker": state.marker,
            "state": state.state.name,
            "name": state.state.full_name,
            "ply": state.ply,
            "winner": seat_name(state.winner),
            "deciding": state.deciding,
            "armies": armies,
        }


def points_by_seat(
    rankings: Sequence[Sequence[int]], scoring: Scoring
) -> tuple[tuple[int, ...], ...]:
    """Under points ``scoring``, each seat's points from each state, given
    each state's seats by place (every state ranks every seat)."""
    seats = len(rankings[0])
    scored = [scoring.points_for(place) for place in range(seats)]
    rows = [[0] * len(rankings) for _ in range(seats)]
    for n, ranking in enumerate(rankings):
        for place, seat in enumerate(ranking):
            rows[seat][n] = scored[place]
    return tuple(map(tuple, rows))


def summarize(
    report: Report,
    decided: bool = True,
    budget: float | None = None,
    judging: Judging | None = None,
) -> RecordSummary:
    """The summary of a validated record; with ``decided``, when each state
    and the game were decided (``views.analysis``); with a ``budget``
    (seconds), its plays under best play (``views.bestplay``); with
    ``judging``, its plays judged from each seat's view (``views.judgement``)."""
    scoring = report.scoring or Scoring.classic()
    game = report.game
    states: tuple[StateSummary, ...] = ()
    unresolved: tuple[UnresolvedState, ...] = ()
    result = None
    if game is not None:
        states = tuple(StateSummary.of(resolution) for resolution in game.resolutions)
        unresolved = tuple(
            UnresolvedState(
                state, tuple(ArmySummary.of(game.army(state, s)) for s in range(game.seats))
            )
            for state in State
            if game.resolution(state) is None
        )
        if report.outcome is not None:
            winners = [resolution.winner for resolution in game.resolutions]
            result = GameResult(report.outcome, why(report.outcome, winners, scoring))
    return RecordSummary(
        file=report.source,
        record=report.index,
        players=players_of(report),
        scoring=scoring,
        valid=report.valid,
        states=states,
        unresolved=unresolved,
        result=result,
        comments=tuple(c.text for c in report.record.comments) if report.record else (),
        annotations=_annotations(report),
        problems=tuple(
            f"{d.location}: {d.code}: {d.message}" for d in report.diagnostics if d.code[0] == "E"
        ),
        decided=when_decided(report) if decided and game is not None else None,
        best=None if budget is None else scored_record(report, budget),
        judged=None if judging is None else judged_record(report, judging),
    )


def core_summary(
    source: str, record: int, replayed: Replayed, decided: bool = True
) -> RecordSummary:
    """The summary of a record the compiled core accepted, its plays
    ``plain`` (no annotation); with ``decided``, when each state was decided
    if the core analysed it."""
    assert replayed.plain
    names, plays, markers = replayed.names, replayed.plays, replayed.markers
    held = _held(replayed)
    analysis = replayed.analysis
    outcome, scoring = replayed.outcome, replayed.scoring
    return RecordSummary(
        source,
        record,
        _players_named(names),
        scoring,
        True,
        tuple(
            [
                _core_state(marker, state, ply, places, held[state])
                for (marker, state, _, ply), places in zip(markers, replayed.ranked, strict=True)
            ]
        ),
        (),  # the core accepts finished games only
        GameResult(outcome, why(outcome, [m[2] for m in markers], scoring)),
        (),
        (),
        (),
        None if analysis is None or not decided else WhenDecided.of(analysis, plays),
    )


_BY_VALUE = range(len(State) + 1)  # the states by value, from 1
_new = tuple.__new__  # a named tuple made without its __new__: a summary holds dozens


def _held(replayed: Replayed) -> list[list[list[Card]]]:
    """The cards each seat played to each state: ``[state][seat]``."""
    seats = len(replayed.names)
    held: list[list[list[Card]]] = [[[] for _ in range(seats)] for _ in _BY_VALUE]
    for seat in range(seats):
        for card, state in replayed.plays[seat::seats]:
            held[state][seat].append(card)
    return held


@lru_cache(maxsize=4096)  # the names that come again (clubs, bots)
def _shown(names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """What ``render_text`` writes of the players' ``names`` (the players, and
    each seat and its player padded to the longest) as ``visible`` shows them."""
    padded = _padded([f"{_SEATS[seat]} {name}" for seat, name in enumerate(names)])
    return visible(players_words(names)), tuple(map(visible, padded))


_players_named = lru_cache(maxsize=4096)(players_named)  # the names that come again


def _core_state(
    marker: int,
    state: State,
    ply: int,
    places: tuple[tuple[int, int, int], ...],
    cards: list[list[Card]],
) -> StateSummary:
    """A resolved state from the core's ranking: (seat, fourth card's ply,
    packed icon counts) by place, and each seat's cards there."""
    (seat, fourth, packed), (_, other, beaten) = places[:2]
    return _new(
        StateSummary,
        (
            marker,
            state,
            ply,
            seat,
            explained_packed(packed, beaten, seat, fourth, other),
            tuple(
                [
                    _new(ArmySummary, (s, tuple(cards[s]), described(icons), plied))
                    for s, plied, icons in places
                ]
            ),
        ),
    )


def quick_summaries(
    block: Block, record: int, decided: bool, format: str = "json"
) -> list[RecordSummary | LaidOut | tuple[int, str]] | None:
    """The summaries of a block's plainly written records from what the
    compiled core found (``quick.replayed_block``), the others left as
    ``(first line, text)``; as text, laid out but for their numbers
    (``core_text``)."""
    found = replayed_block(block.first_line, block.text, decided)
    if found is None:
        return None
    if format == "text":
        before = visible(f"{block.source}, record ")
        return [
            item
            if not isinstance(item, Replayed)
            else LaidOut(before, core_text(item, decided))
            if item.plain
            else (item.first_line, item.text)
            for item in found
        ]
    return [
        item
        if not isinstance(item, Replayed)
        else core_summary(block.source, record, item)
        if item.plain
        else (item.first_line, item.text)
        for item in found
    ]


def core_text(replayed: Replayed, decided: bool = True) -> str:
    """``render_text`` of the summary of a record the compiled core accepted,
    its plays ``plain``, after its number (``game.ord, record 2``), by the
    same pieces, as ``visible`` shows it; with ``decided``, when each state
    was decided if the core analysed it. Written from the record as
    replayed, without the ``RecordSummary`` (``core_summary``): twice as
    fast. Only its players' names are the record's words, and ``visible``
    shows text a character at a time: it is asked of them alone."""
    assert replayed.plain
    plays, markers, ranked, scoring = (
        replayed.plays,
        replayed.markers,
        replayed.ranked,
        replayed.scoring,
    )
    names = replayed.names
    players, padded = _shown(names)
    held = _held(replayed)
    cells = _cells(scoring, len(names))
    out = [
        "",
        *_opening(
            players,
            scoring_words(scoring),
            result_said(replayed.outcome, tuple([m[2] for m in markers]), scoring),
        ),
        "",
        _STATES_HEADING,
    ]
    for (marker, state, _, ply), places in zip(markers, ranked, strict=True):
        (winner, fourth, packed), (_, other, beaten) = places[:2]
        deciding = explained_packed(packed, beaten, winner, fourth, other)
        out.append(_state_line(marker, state, ply, winner, deciding))
        words = held[state]
        for place, (seat, plied, icons) in enumerate(places):
            said = " ".join(map(CARD_WORDS.__getitem__, words[seat]))
            out.append(_army_line(place, padded[seat], said, described(icons), plied, cells[place]))
    order = [m[1] for m in markers]
    analysis = replayed.analysis
    if decided and analysis is not None:
        out += decided_lines(WhenDecided.of(analysis, plays), order, "  ")
    if scoring.is_points:
        rankings = [[seat for seat, _, _ in places] for places in ranked]
        out += _points_lines(order, points_by_seat(rankings, scoring))
    return "\n".join(out) + "\n"


@lru_cache(maxsize=4096)
def result_said(outcome: Outcome, winners: tuple[int, ...], scoring: Scoring) -> str:
    """``result_words`` of a finished game, by its outcome: they come again."""
    return result_words(GameResult(outcome, why(outcome, winners, scoring)))


def why(outcome: Outcome, winners: Sequence[int], scoring: Scoring) -> str:
    """The result in a sentence, naming the tie-break that decided it;
    ``winners``: the seat that won each marker, in marker order."""
    unit = scoring.unit
    if not outcome.tied:
        assert outcome.winner is not None
        best = outcome.scores[outcome.winner]
        rest = sorted(
            (v for s, v in enumerate(outcome.scores) if s != outcome.winner), reverse=True
        )
        return (
            f"{seat_name(outcome.winner)} has the most {unit}: {best}, "
            f"against {', '.join(map(str, rest))}."
        )
    tied = outcome.tied
    names = " and ".join(seat_name(s) for s in tied)
    first = f"{names} have {outcome.scores[tied[0]]} {unit} each"
    if scoring.is_points:
        states = {s: outcome.states[s] for s in tied}
        if (
            outcome.tie_break is TieBreak.MORE_STATES
            and outcome.winner is not None
            and len(set(states.values())) > 1
        ):
            held = ", ".join(f"{seat_name(s)} {n}" for s, n in states.items())
            return (
                f"{first}; on equal points more states decides: {held}, "
                f"so {seat_name(outcome.winner)} wins."
            )
        first += f" and {states[tied[0]]} states each"
    if outcome.winner is None:
        return f"{first}; they hold no state, so no capture can break the tie: the win is shared."
    k = outcome.states[outcome.winner]
    ordinal = {1: "first", 2: "second", 3: "third"}.get(k, f"{k}th")
    markers = ", ".join(
        f"{seat_name(s)}'s was marker {captured(winners, s)[k - 1]}" for s in outcome.tied
    )
    return (
        f"{first}; the later {ordinal} capture wins: {markers}, "
        f"so {seat_name(outcome.winner)} wins."
    )


def _annotations(report: Report) -> tuple[Annotation, ...]:
    if report.record is None:
        return ()
    return tuple(
        Annotation(
            play.ply,
            " ".join(w.text for w in (play.seat, play.card, play.state) if w is not None),
            play.glyph.text if play.glyph else None,
            tuple(c.text for c in play.comments),
        )
        for play in report.record.plays
        if play.glyph is not None or play.comments
    )


def _heading(summary: RecordSummary, shown: Callable[[str], str] = str) -> str:
    """``game.ord, record 2``, the file's name ``shown`` as the layout shows words."""
    return f"{shown(summary.file)}, record {summary.record}"


def _players(summary: RecordSummary) -> str:
    return players_words(tuple(p.name for p in summary.players))


@lru_cache(maxsize=4096)  # the names that come again (clubs, bots)
def players_words(names: tuple[str, ...]) -> str:
    """``P1 Anna Petrova, P2 Boris Lind``: the players, a seat each."""
    return ", ".join(f"{seat_name(seat)} {name}".rstrip() for seat, name in enumerate(names))


def rules_words(summary: RecordSummary) -> str:
    """The scoring of a summary in words, for every form of it."""
    return scoring_words(summary.scoring)


def scoring_words(scoring: Scoring) -> str:
    """``classic scoring (most states wins)``, ``points scoring, 4 2 1 0 by rank``."""
    if not scoring.is_points:
        return "classic scoring (most states wins)"
    assert scoring.points is not None
    return f"points scoring, {' '.join(map(str, scoring.points))} by rank"


def outcome_words(summary: RecordSummary) -> str:
    """The result of a summary in words, for every form of it."""
    if summary.problems and not summary.valid:
        return "not established: the record has errors"
    if summary.result is None:
        return f"unfinished: {len(summary.states)} of 5 states resolved"
    return result_words(summary.result)


def result_words(result: GameResult) -> str:
    """``P2 wins. P2 has the most states: 4, against 1.``"""
    winner = result.outcome.winner
    head = "shared win" if winner is None else f"{seat_name(winner)} wins"
    return f"{head}. {result.why}"


def _cards(army: ArmySummary) -> str:
    return " ".join([CARD_WORDS[card] for card in army.cards])


def _seated(summary: RecordSummary, seat: int) -> str:
    """``P2 Boris Lind``; ``P2 `` when the header names no one."""
    return f"{seat_name(seat)} {summary.name_of(seat)}"


def _opening(players: str, rules: str, result: str) -> list[str]:
    """The lines of a summary's text after its heading: who, the rules, the result."""
    return [f"Players: {players}", f"Rules: {rules}", f"Result: {result}"]


_STATES_HEADING = "States in marker order"


def render_text(summary: RecordSummary) -> str:
    """A record's summary for people: ``ordo summary``'s text. Its pieces
    write the text of a plain record the compiled core read too
    (``core_text``)."""
    out = [
        _heading(summary),
        *_opening(_players(summary), rules_words(summary), outcome_words(summary)),
    ]
    for comment in summary.comments:
        out.append(f"  {{{comment}}}")
    out += _judged_lines(summary, "  ")
    if summary.states:
        out += _states_lines(summary)
    started = [state for state in summary.unresolved if any(a.cards for a in state.armies)]
    if started:
        out += ["", "Not resolved"]
    for open_state in started:
        armies = "; ".join(f"{seat_name(a.seat)} {_cards(a) or '-'}" for a in open_state.armies)
        out.append(f"   {open_state.state.full_name}: {armies}")
    out += _decided_lines(summary, "  ")
    out += _best_lines(summary, "  ")
    points = summary.points()
    if points:
        out += _points_lines([s.state for s in summary.states], points)
    if summary.annotations:
        out += ["", "Annotations"]
        for note in summary.annotations:
            glyph = f" {note.glyph}" if note.glyph else ""
            comments = " ".join(f"{{{c}}}" for c in note.comments)
            out.append(f"  ply {note.ply:>2}: {note.play}{glyph} {comments}".rstrip())
    if summary.problems:
        out += ["", "Problems"] + [f"  {p}" for p in summary.problems]
    return "\n".join(out) + "\n"


def _states_lines(summary: RecordSummary) -> list[str]:
    """The states resolved, in marker order (``_state_line``, ``_army_line``)."""
    states = summary.states
    seated = {a.seat: _seated(summary, a.seat) for a in states[0].armies}
    padded = _padded([seated[seat] for seat in range(len(seated))])
    cells = _cells(summary.scoring, len(seated))
    out = ["", _STATES_HEADING]
    for marker, state, ply, winner, deciding, armies in states:
        out.append(_state_line(marker, state, ply, winner, deciding))
        for place, (seat, cards, formations, fourth) in enumerate(armies):
            said = " ".join(map(_CARD_WORD, cards))
            out.append(_army_line(place, padded[seat], said, formations, fourth, cells[place]))
    return out


def _padded(seated: Sequence[str]) -> list[str]:
    """Each seat and its player's name (``seated``, by seat) padded to the
    longest, as every state's armies show them."""
    width = max(map(len, seated))  # every state ranks every seat
    return [said.ljust(width) for said in seated]


def _cells(scoring: Scoring, seats: int) -> Sequence[str]:
    """By place, the points it scores in a state (none: classic scoring)."""
    if not scoring.is_points:
        return _NO_CELLS
    return [f"  {scoring.points_for(place)} pt" for place in range(seats)]


_NO_CELLS = ("",) * MAX_SEATS


def _state_line(marker: int, state: State, ply: int, winner: int, deciding: str) -> str:
    """``#1 Jerusalem, resolved at ply 29: P2 wins; two regiments beat one``."""
    return (
        f"#{marker} {_FULL_NAMES[state]}, resolved at ply {ply}: {_SEATS[winner]} wins; {deciding}"
    )


def _army_line(
    place: int, seated: str, cards: str, formations: str, fourth: int | None, cell: str
) -> str:
    """An army in its state: its place, its seat and player (``seated``,
    padded), its cards (as written), its formations, the ply of its fourth
    card, and its points (``cell``)."""
    return f"   {place + 1}. {seated}  {cards.ljust(20)} {formations} (4th card ply {fourth}){cell}"


_SEATS = [seat_name(seat) for seat in range(MAX_SEATS)]
_FULL_NAMES = [""] + [state.full_name for state in State]  # by value
_CARD_WORD = CARD_WORDS.__getitem__


def _points_lines(order: Sequence[State], points: tuple[tuple[int, ...], ...]) -> list[str]:
    """The points table: each seat's points from each state, in marker ``order``."""
    out = ["", "Points   " + "  ".join([f"{state.name:>2}" for state in order]) + "  total"]
    for seat, row in enumerate(points):
        out.append(
            f"  {_SEATS[seat]:<6} " + "  ".join([f"{p:>2}" for p in row]) + f"  {sum(row):>5}"
        )
    return out


def _decided_lines(summary: RecordSummary, bullet: str) -> list[str]:
    """When each state and the game were decided, a sentence each, states in
    marker order and then the unresolved ones."""
    order = [s.state for s in summary.states] + [s.state for s in summary.unresolved]
    return decided_lines(summary.decided, order, bullet)


def _judged_lines(summary: RecordSummary, bullet: str) -> list[str]:
    """The plays judged from each seat's view: what the judgement is, each
    seat's accuracy, each graded play."""
    judged = summary.judged
    if judged is None:
        return []
    return ["", "What each seat could know", *(bullet + line for line in judged.lines())]


def _best_lines(summary: RecordSummary, bullet: str) -> list[str]:
    """The record under best play: its story in a sentence, then each mistake and the accuracy."""
    best = summary.best
    if best is None:
        return []
    lines = [best.story()] + (best.lines()[1:] if best.found is not None else [])
    return ["", "Best play", *(bullet + line for line in lines)]


def decided_lines(decided: WhenDecided | None, order: Sequence[State], bullet: str) -> list[str]:
    """``_decided_lines`` of the states in ``order``."""
    if decided is None:
        return []
    lines = [bullet + decided.state_sentence(state) for state in order]
    lines.append(bullet + decided.game_sentence())
    return ["", "When it was decided", *lines]


_MARKDOWN = re.compile(r"([\\`*_\[\]<>|&~])")
_LINE_ENDS = re.compile(r"[\r\n]+")


def _md(text: str) -> str:
    """Words of a record (a name, a comment, a file's name) as Markdown shows
    them and nothing else: no raw HTML, link, emphasis or table cell made of
    them, on one line (a renderer runs no script from a name). What a
    terminal would obey is left to ``visible``, as in every view."""
    return _MARKDOWN.sub(r"\\\1", _LINE_ENDS.sub(" ", text))


def render_markdown(summary: RecordSummary) -> str:
    out = [
        f"## {_heading(summary, _md)}",
        "",
        f"- **Players:** {_md(_players(summary))}",
        f"- **Rules:** {_md(rules_words(summary))}",
        f"- **Result:** {_md(outcome_words(summary))}",
    ]
    out += [f"- *{_md(comment)}*" for comment in summary.comments]
    judged = _judged_lines(summary, "- ")
    if judged:
        out += ["", "### What each seat could know", "", *judged[2:]]
    if summary.states:
        out += ["", "### States in marker order"]
    points = summary.points()
    for state in summary.states:
        line = f"**#{state.marker} {state.state.full_name}**, resolved at ply {state.ply}: "
        out += ["", line + f"{seat_name(state.winner)} wins; {state.deciding}.", ""]
        column = " points |" if points else ""
        out += [
            f"| place | seat | cards | formations | 4th card |{column}",
            "|---|---|---|---|---|" + ("---|" if column else ""),
        ]
        for place, army in enumerate(state.armies):
            scored = summary.points_for(place)
            extra = f" {scored} |" if scored is not None else ""
            out.append(
                f"| {place + 1} | {_md(_seated(summary, army.seat))} | {_cards(army)} | "
                f"{army.formations} | ply {army.fourth_card_ply} |{extra}"
            )
    if points:
        letters = [s.state.name for s in summary.states]
        out += [
            "",
            "### Points",
            "",
            "| seat | " + " | ".join(letters) + " | total |",
            "|---|" + "---|" * (len(letters) + 1),
        ]
        for seat, row in enumerate(points):
            out.append(f"| {seat_name(seat)} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
    decided = _decided_lines(summary, "- ")
    if decided:
        out += ["", "### When it was decided", "", *decided[2:]]
    best = _best_lines(summary, "- ")
    if best:
        out += ["", "### Best play", "", *best[2:]]
    if summary.annotations:
        out += ["", "### Annotations", ""]
        for note in summary.annotations:
            glyph = f" {note.glyph}" if note.glyph else ""
            comments = _md(" ".join(note.comments))
            out.append(f"- ply {note.ply}: `{note.play}{glyph}` {comments}".rstrip())
    if summary.problems:
        out += ["", "### Problems", ""] + [f"- {_md(p)}" for p in summary.problems]
    return "\n".join(out) + "\n"


_LAYOUTS = {"text": render_text, "markdown": render_markdown}


def summaries(
    paths: Sequence[str],
    format: str,
    workers: Pool,
    decided: bool = True,
    budget: float | None = None,
    judging: Judging | None = None,
) -> Numbered:
    """The summary of every record of ``paths`` laid out in ``format``
    (text, markdown or json), numbered within each file; ``decided``: with
    when each state was decided; ``budget``: with best play; ``judging``:
    with each play judged from its seat's view (``spread_over``)."""
    workers, judging = spread_over(workers, judging)
    lay = partial(
        laid_block,
        data_of=partial(summarize, decided=decided, budget=budget, judging=judging),
        render=_LAYOUTS.get(format, render_text),
        format=format,
        quick=None
        if budget is not None or judging is not None
        else partial(quick_summaries, decided=decided, format=format),
    )
    return Numbered(paths, lay, workers, slow=budget is not None or judging is not None)
