"""``ordo view``: one self-contained HTML page that replays the records of
an archive in a browser, with no network at all (style, script and icons in
the page).

The page holds no picture and no scene: it holds each record's plays as the
rules replayed them (``Plays``: each ply's card, state and draw, the opening
hands and the size of the pile), and the page's script
(``viewer/viewer.js``) replays them into each step's ``Scene``
(``picture.scene``) and lays it out as ``picture.draw`` does, element for
element. The rules the script replays by (formations, which army is ahead
and why, when a state resolves) are the engine's (``engine.armies``,
``Table.play``), ported, with their words and numbers from ``rules()``;
browser tests compare the script's scene at every step of a corpus of
records, as every seat sees it, with ``picture.scene``'s, and its picture
of every step of the samples with ``picture.step_picture``'s. What
needs the record's text is worked out here: the seats' labels, a play as
written where it is more than its card and state, its glyph, the note under
the heading of a play with comments (``picture.note``) and the words that
end the replay.

Each record also carries when each state, and the game, was decided and
its turning points (``decisions``, from ``views.analysis.analysis_of``, as
``ordo analyse`` finds them), which the script marks in the list of steps.

Records are read, replayed and written one block at a time, in input order,
on ``Workers``. The strings of a block's records go through the block's
table of values, written after them with their lines for the list of
records (``Chunk``): nothing the page's writer holds grows with the
archive. Cards are written as codes fixed by their masks (``CODES``); the
page names only the cards it holds. A seat's page (``seat``) holds what
that seat saw: another hand only as its size, another seat's draws not at
all, and the other plays that would have kept a chance for that seat's own
plays only.

A record the compiled core accepts, its plays plainly written, is viewed
from what the core read (``quick.replayed_block``, ``core_view``; its
decisions from the core's analysis as found, ``_replayed_found``); every
other one from the Python validator's report (``record_view``). Either
way one writer, ``Pages._record``, writes its JSON, from prepared pieces:
the plies as the page's codes, the decisions as their JSON (they hold no
string of the table). tests/test_quick.py holds the two paths to the same
page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import lru_cache, partial
from importlib.resources import files
from typing import Any, NamedTuple

from ..checking import quick
from ..checking.quick import ReplayedFound, accepted_verdict, replayed_block
from ..checking.replayed import Replayed
from ..checking.report import Report
from ..checking.validator import validate
from ..diagnostics import Diagnostic, InputError
from ..engine.armies import (
    _NUMBERS,
    LEVELS,
    UNITS_PER_ARMY,
    described,
    explained_packed,
)
from ..engine.cards import CARD_WORDS, ICONS_BY_SENIORITY, Card, Icon, State, seat_name
from ..engine.decisions import Analysis, Found, Loss, LossesFound, play_code
from ..engine.game import MAX_SEATS, STATES, Deal
from ..engine.scoring import Outcome, Scoring
from ..files.sources import expand
from ..notation.parser import parse_record
from ..runs.blocks import Block, Lines, block_chunks, input_blocks
from ..runs.workers import Workers
from .analysis import analysis_of
from .bestplay import BestPlayView, scored_record
from .board import ending_pieces, game_over
from .judgement import JudgementView, Judging, judged_record, spread_over
from .picture import defs, layout, note, seat_labels
from .report import diagnostic_text, visible
from .summary import (
    RecordSummary,
    outcome_words,
    result_said,
    rules_words,
    scoring_words,
    summarize,
)

_ASSETS = files(__package__) / "viewer"


class Resolved(NamedTuple):
    """A resolved state in the summary: its marker, state (index), ply, the
    comparison that decided it, and each army in its place as (seat, ply of
    its fourth card, points or None, formations)."""

    marker: int
    state: int
    ply: int
    why: str
    ranks: tuple[tuple[int, int | None, int | None, str], ...]


class Summary(NamedTuple):
    """The summary's rules, result, record comments and resolved states
    (``summarize``'s words); the armies' cards are the last scene's."""

    rules: str
    result: str
    comments: tuple[str, ...]
    states: tuple[Resolved, ...]


HIDDEN = "?"  # a card drawn that the page's seat does not see


class Plays(NamedTuple):
    """What the page's script replays a record from (``viewer.js``
    ``replayed``): the seats' labels beside their rows and hands
    (``picture.seat_labels``); the opening hands, each as its cards'
    ``CODES``, one hidden from the page's seat as its size (None without a
    deal), and the size of the pile; every ply the rules accepted, three
    characters each (``_plies``: the card's code, the state's letter and
    the card drawn: its code, ``HIDDEN`` or ``NO_DRAW``); then, by ply, the
    rest of a step where there is one: the play as written where it says
    more than its card and state, or than its seat, card and state where
    every play is ``seated`` (its words, then its comments), its glyph and,
    for a play with comments, the note under the heading
    (``picture.note``; the script words the others); the words that end
    the replay (None: the markers so far); whether the replay stopped, and
    whether every play was written with its seat."""

    labels: tuple[str, ...]
    hand_labels: tuple[str, ...]
    hands: tuple[str | int, ...] | None
    pile: int | None
    plies: str
    written: tuple[tuple[int, tuple[str, ...]], ...]
    glyphs: tuple[tuple[int, str], ...]
    notes: tuple[tuple[int, str], ...]
    ending: tuple[str, str] | None
    stopped: bool
    seated: bool


class RecordView(NamedTuple):
    """What the page holds of one record, before its values are put in the
    page's table: its line in the list, its plays, the diagnostics, the
    summary and when each state and the game were decided, already as the
    page's JSON (``_decisions``: it holds no string of the table). Made on
    a worker."""

    file: int  # counted from 0 in the order given
    source: str
    number: int  # within its block (``Pages`` numbers it within its file)
    row: tuple[str, str, str, str, bool]  # players, date, event, verdict, valid
    plays: Plays | None  # None: nothing replayed
    problems: tuple[Diagnostic, ...]
    lines: tuple[str, ...]  # the record's text, for quoting it in the problems
    first_line: int
    summary: Summary | None
    decisions: str | None  # None: nothing replayed, or not asked
    best: BestPlayView | None = None  # with ordo view --best-play, on the page of every seat
    judged: JudgementView | None = None  # with ordo view --judge, on the page of every seat


SEAT_PROBLEMS = (
    "A seat's page shows where each problem is, not what it says nor the lines it quotes: "
    "they may name the cards of another hand (ordo validate says it all)."
)
CODES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcde"  # the card of mask m as CODES[m - 1]
NO_DRAW = "."  # a ply that drew nothing, in the page's plies
_CARD_CODES = {Card(mask): CODES[mask - 1] for mask in range(1, 32)}
_PLAY_CODES = {
    (card, state): code + state.name for card, code in _CARD_CODES.items() for state in State
}
_STATE_LETTERS = tuple(
    "".join(state.name for state in STATES if bits >> state & 1) for bits in range(1 << 6)
)  # the letters of the states of each set of bits, in the order of the line
_LETTERS = {state: state.name for state in State}


def rules() -> dict[str, object]:
    """What the page's script replays plays by, from the engine: the icons
    (``Icon`` order) and their plurals, their seniority, the formation
    levels (cards, word, plural; most senior first), the numbers in words,
    the states' letters and the units of a full army."""
    return {
        "icons": "".join(icon.name for icon in Icon),
        "plurals": [icon.plural for icon in Icon],
        "seniority": [int(icon) for icon in ICONS_BY_SENIORITY],
        "levels": [[level.value, level.word, level.plural] for level in LEVELS],
        "numbers": list(_NUMBERS),
        "states": [state.name for state in State],
        "units": UNITS_PER_ARMY,
    }


def record_view(
    report: Report,
    file: int,
    text: str,
    first_line: int,
    seat: int | None,
    decided: bool = True,
    budget: float | None = None,
    judging: Judging | None = None,
) -> RecordView:
    """The page's view of one checked record (with or without its steps), as
    ``seat`` saw it (None: every seat); with ``decided``, when each state
    and the game were decided (``decisions``: the analysis, most of the
    time a record takes); with a ``budget``, its plays under best play, and
    with ``judging``, judged from each seat's view (on the page of every
    seat only: best play knows every card, and each seat's win chance
    comes from its own hand)."""
    record = report.record

    def tag(name: str) -> str:
        return visible((record.tag(name) if record is not None else None) or "")

    row = (
        _players(report.names),
        tag("Date"),
        tag("Event"),
        visible(report.verdict),
        report.valid,
    )
    plays = summary = None
    if record is not None and report.game is not None:  # as ``replay.replay``
        plays = _plays(report, seat)
        summary = _summary(summarize(report, decided=False))  # the page has its own decisions
    return RecordView(
        file,
        report.source,
        report.index,
        row,
        plays,
        report.diagnostics,
        tuple(text.split("\n")) if report.diagnostics else (),
        first_line,
        summary,
        decisions(report, seat) if decided else None,
        scored_record(report, budget) if budget is not None and seat is None else None,
        judged_record(report, judging) if judging is not None and seat is None else None,
    )


def _plays(report: Report, seat: int | None) -> Plays:
    assert report.record is not None and report.game is not None
    labels, hand_labels = seat_labels(report.names, report.game.seats)
    deal = report.deal
    hands = None
    if deal is not None:
        hands = _hands(deal, seat)
    plies: list[str] = []
    written: list[tuple[int, tuple[str, ...]]] = []
    glyphs: list[tuple[int, str]] = []
    notes: list[tuple[int, str]] = []
    # the replay stops at the first play it cannot read or play: while it
    # lasts, the k-th play written is ply k
    replayed = list(zip(report.turns, report.record.plays, strict=False))
    seated = bool(replayed) and all(play.seat is not None for _, play in replayed)
    for turn, play in replayed:
        seen = seat is None or seat == turn.seat  # another seat's draw is not shown
        card, state = str(turn.card), _LETTERS[turn.state]
        drawn = NO_DRAW if turn.drawn is None else _CARD_CODES[turn.drawn] if seen else HIDDEN
        plies.append(_PLAY_CODES[turn.card, turn.state] + drawn)
        usual = f"{seat_name(turn.seat)} {card} {state}" if seated else f"{card} {state}"
        words = (play.seat, play.drawn if seen else None, play.card, play.state, play.glyph)
        said = " ".join(w.text for w in words if w is not None)
        if said == usual and not play.comments:
            continue  # the usual play, which the script words from the ply
        if play.comments or said != f"{card} {state}":
            comments = (visible(c.text) for c in play.comments)
            written.append((turn.ply, (visible(said), *comments)))
        if play.glyph is not None:
            glyphs.append((turn.ply, f" {play.glyph.text}"))
        if play.comments:  # else the script words what the ply resolved, if anything
            notes.append((turn.ply, note(turn, play)))
    ending = ending_pieces(report)
    if ending is not None and seat is not None:
        ending = (ending[0], "")  # the message may name the cards of a hand
    return Plays(
        labels,
        hand_labels,
        hands,
        None if deal is None else len(deal.pile),
        "".join(plies),
        tuple(written),
        tuple(glyphs),
        tuple(notes),
        ending,
        report.stopped is not None,
        seated,
    )


def decisions(report: Report, seat: int | None) -> str | None:
    """When each state and the game of a checked record were decided, and
    who lost them when, as ``seat`` may see it (None: every seat), as the
    page's JSON (``_decisions``); None when nothing was replayed. The
    plays are the legal ones, up to where the replay stopped; without a
    deal, against any cards (no alternatives)."""
    analysis = analysis_of(report)
    return None if analysis is None else _decisions(analysis, seat)


def _decisions(analysis: Analysis, seat: int | None) -> str:
    """An analysis for the page: ``{"deal": known, "states": [[decided,
    winner, resolved], ...], "game": [decided, winner], "marks": {ply:
    [event, ...]}}`` (null where none), for each state, A to T, the ply
    after which it was decided, the one seat that could win it then and
    the ply that resolved it; the same for the game (no resolution); and,
    by ply, what was decided there, ``["d", target, winner]``, and lost,
    ``["l", target, seat, by, alternatives]`` (``viewer.js`` words them in
    ``sentence``). A target is a state's index, 0 to 4, or null: the game.
    The alternatives, where ``by`` gave the chance away itself from a
    known hand that the page shows, are the other plays that would have
    kept it (``_grouped``); else null. Each ply's events: of each state,
    then of the game, its losses, then its decision."""
    states = [
        (part.decided, part.resolved, part.winner, _lost(part.losses)) for part in analysis.states
    ]
    game = (analysis.decided, analysis.winner, _lost(analysis.losses))
    return _written(states, game, analysis.known_deal, seat)


def _lost(losses: tuple[Loss, ...]) -> LossesFound:
    """Losses as the core gives them: the kept plays as bytes of play codes."""
    return tuple(
        [
            (loss.seat, loss.ply, loss.by, bytes([play_code(*play) for play in loss.alternatives]))
            for loss in losses
        ]
    )


def _written(
    states: Iterable[tuple[int | None, int | None, int | None, LossesFound]],
    game: tuple[int | None, int | None, LossesFound],
    known: bool,
    seat: int | None,
) -> str:
    """``_decisions``'s JSON of each state's ``(decided, resolved, winner,
    losses)`` and the game's ``(decided, winner, losses)``, the losses as
    the core gives them."""
    number = _NUMBER
    marks: dict[int, list[str]] = {}
    said = []
    for target, (decided, resolved, winner, losses) in enumerate(states):
        said.append(f"[{number[decided]},{number[winner]},{number[resolved]}]")
        _marked(marks, _EVENTS[target], losses, decided, winner, known, seat)
    decided, winner, losses = game
    _marked(marks, _EVENTS[-1], losses, decided, winner, known, seat)
    marked = ",".join([f'"{ply}":[{",".join(marks[ply])}]' for ply in sorted(marks)])
    return (
        f'{{"deal":{int(known)},"states":[{",".join(said)}],"game":'
        f'[{number[decided]},{number[winner]}],"marks":{{{marked}}}}}'
    )


class _Numbers(dict[int | None, str]):
    """Numbers, and None, as JSON: the small ones looked up."""

    def __missing__(self, number: int) -> str:
        return str(number)


_NULL = "null"
_NUMBER = _Numbers({None: _NULL} | {number: str(number) for number in range(1 << 8)})
_EVENTS = tuple(
    (
        [[f'["l",{target},{lost},{by},' for by in range(MAX_SEATS)] for lost in range(MAX_SEATS)],
        {winner: f'["d",{target},{_NUMBER[winner]}]' for winner in (None, *range(MAX_SEATS))},
    )
    for target in (*range(len(STATES)), _NULL)
)  # by target (a state's index; last, the game): a loss's event begun, by seat lost and by
# whom; a decision's, by winner


_GROUP = {card: f'["{word}","' for card, word in CARD_WORDS.items()}  # a card's group begun


def _found_decisions(found: Found, seat: int | None) -> str:
    """``_decisions`` of the analysis the compiled core found, as it gave it
    (``decisions.from_core``'s ``found``: the seats that can win as masks,
    the kept plays as bytes of ``card << 3 | state``), without making its
    ``Analysis``: the same JSON, which is all the page needs of it. The
    core analyses a known deal."""
    _, parts, game, _ = found
    states = [(decided, resolved, _ALONE[can], losses) for decided, resolved, can, losses in parts]
    decided, can, losses = game
    return _written(states, (decided, _ALONE[can], losses), True, seat)


def _marked(
    marks: dict[int, list[str]],
    events: tuple[list[list[str]], dict[int | None, str]],
    losses: LossesFound,
    decided: int | None,
    winner: int | None,
    known: bool,
    seat: int | None,
) -> None:
    """The events of a state or of the game (``_decisions``, ``_EVENTS``)
    added to ``marks``, by ply."""
    lost_by, decisions = events
    for lost, ply, by, kept in losses:
        if known and lost == by and (seat is None or seat == by):
            event = f"{lost_by[lost][by]}{_grouped(kept)}]"
        else:
            event = lost_by[lost][by] + "null]"
        found = marks.get(ply)
        if found is None:
            marks[ply] = [event]
        else:
            found.append(event)
    if decided is not None:
        found = marks.get(decided)
        if found is None:
            marks[decided] = [decisions[winner]]
        else:
            found.append(decisions[winner])


def _grouped(kept: bytes) -> str:
    """A loss's alternatives (bytes of ``card << 3 | state``) by card, in the
    order found, as JSON: ``[["LH","CJ"],["F","T"]]``."""
    if not kept:
        return "[]"
    by_card: dict[int, int] = {}
    for card, bit in map(_SPLIT.__getitem__, kept):
        by_card[card] = by_card.get(card, 0) | bit
    grouped = '"],'.join(
        [_MASK_GROUP[card] + _STATE_LETTERS[bits] for card, bits in by_card.items()]
    )
    return f'[{grouped}"]]'


_SPLIT = [(code >> 3, 1 << (code & 7)) for code in range(1 << 8)]  # a play code's card and bit
_MASK_GROUP = ["", *(_GROUP[Card(mask)] for mask in range(1, 32))]  # ``_GROUP`` by card mask
_ALONE = [
    mask.bit_length() - 1 if mask.bit_count() == 1 else None for mask in range(1 << MAX_SEATS)
]
# the one seat in a mask of seats, if one


def _replayed_found(first_line: int, text: str) -> list[ReplayedFound | tuple[int, str]] | None:
    """The records of a block, each the core accepted with its analysis as
    the core found it rather than made into ``decisions.from_core``'s
    ``Analysis``, which the page does not need: it writes the JSON from that
    (``_found_decisions``; making the ``Analysis`` of every record cost more
    than writing it)."""
    return quick.replayed_found_block(first_line, text)


def core_view(
    replayed: Replayed,
    file: int,
    source: str,
    index: int,
    seat: int | None,
    found: Found | None = None,
) -> RecordView:
    """The page's view of a record the compiled core accepted, its plays
    ``plain``, as ``record_view`` makes it of the record's report; its
    decisions from its ``analysis`` or, given it, the analysis as the core
    ``found`` it (``_replayed_found``)."""
    deal, markers, analysis = replayed.deal, replayed.markers, replayed.analysis
    players, labels, hand_labels = _named(replayed.names)
    winners = tuple([marker[2] for marker in markers])
    verdict, rules, result, ending = _said(replayed.outcome, replayed.scoring.points or (), winners)
    plays = _new(Plays, (
        labels, hand_labels, _hands(deal, seat), len(deal.pile), _plies(replayed, seat),
        (), (), (), ending, False, replayed.seated,
    ))  # fmt: skip
    tags = dict(reversed(replayed.tags))  # the first of each name
    row = (players, visible(tags.get("Date", "")), visible(tags.get("Event", "")), verdict, True)
    summary = _new(Summary, (rules, result, (), _core_states(replayed)))
    if found is not None:
        decisions: str | None = _found_decisions(found, seat)
    else:
        decisions = None if analysis is None else _decisions(analysis, seat)
    return _new(RecordView, (
        file, source, index, row, plays, (), (), replayed.first_line, summary, decisions, None,
        None,
    ))  # fmt: skip


def _hands(deal: Deal, seat: int | None) -> tuple[str | int, ...]:
    """The opening hands as ``Plays`` holds them: another seat's as its size."""
    codes = _CARD_CODES.__getitem__
    return tuple(
        [
            "".join(map(codes, hand)) if seat is None or seat == s else len(hand)
            for s, hand in enumerate(deal.hands)
        ]
    )


def _plies(replayed: Replayed, seat: int | None) -> str:
    """The plies of a record the core accepted as ``seat`` saw them (``Plays``):
    its plays' codes and the cards drawn put in place, three characters a ply."""
    plays = replayed.plays
    count = len(plays)
    played = "".join(map(_PLAY_CODES.__getitem__, plays)).encode()
    drawn = "".join(map(_CARD_CODES.__getitem__, replayed.deal.pile[:count])).encode()
    plies = bytearray(_NO_DRAWS * count)
    plies[0::3] = played[0::2]
    plies[1::3] = played[1::2]
    if seat is None:
        plies[2 : 3 * len(drawn) : 3] = drawn
    else:  # another seat's draw is not shown
        seats = len(replayed.names)
        plies[2 : 3 * len(drawn) : 3] = _HIDDEN * len(drawn)
        plies[3 * seat + 2 : 3 * len(drawn) : 3 * seats] = drawn[seat::seats]
    return plies.decode()


_NO_DRAWS = NO_DRAW.encode() * 3  # a ply, three characters, before they are put in
_HIDDEN = HIDDEN.encode()


def _core_states(replayed: Replayed) -> tuple[Resolved, ...]:
    """``_summary``'s states of a record the compiled core accepted, from its ranking."""
    scoring = replayed.scoring
    points = scoring.points
    found = []
    ranks: list[tuple[int, int | None, int | None, str]]
    for (marker, state, _, ply), places in zip(replayed.markers, replayed.ranked, strict=True):
        (seat, fourth, packed), (_, other, beaten) = places[0], places[1]
        why = explained_packed(packed, beaten, seat, fourth, other)
        if points is None:
            ranks = [(seat, fourth, None, described(packed)) for seat, fourth, packed in places]
        else:
            ranks = [
                (seat, fourth, scoring.points_for(place), described(packed))
                for place, (seat, fourth, packed) in enumerate(places)
            ]
        found.append(_new(Resolved, (marker, state - 1, ply, why, tuple(ranks))))
    return tuple(found)


_new = tuple.__new__  # a named tuple made without its __new__: one a state, record after record


def _summary(summary: RecordSummary) -> Summary:
    states = tuple(
        Resolved(
            state.marker,
            state.state - 1,
            state.ply,
            visible(state.deciding),
            tuple(
                (army.seat, army.fourth_card_ply, summary.points_for(place), army.formations)
                for place, army in enumerate(state.armies)
            ),
        )
        for state in summary.states
    )
    comments = tuple(visible(c) for c in summary.comments)
    return Summary(visible(rules_words(summary)), visible(outcome_words(summary)), comments, states)


class ViewedBlock(NamedTuple):
    """The records of one block on the page, made on a worker: their file
    and source, and each record's ``RecordView``."""

    file: int
    source: str
    items: list[RecordView]


def view_block(
    block: Block,
    seat: int | None,
    decided: bool = True,
    budget: float | None = None,
    judging: Judging | None = None,
) -> ViewedBlock:
    """The records of one block on the page (on a worker), numbered from 1
    within the block: those the core accepts, their plays plainly written,
    from what it read; with a best-play ``budget`` or ``judging``, every
    record by the Python validator."""
    items: list[RecordView] = []
    found: list[Any] | None = None
    if budget is None and judging is None and not block.one_record:
        if decided:
            found = _replayed_found(block.first_line, block.text)
        else:
            found = replayed_block(block.first_line, block.text)
    for each in block_chunks(block) if found is None else found:
        item, analysed = each if type(each) is ReplayedFound else (each, None)
        if isinstance(item, Replayed):
            if item.plain:
                index = len(items) + 1
                items.append(core_view(item, block.file, block.source, index, seat, analysed))
                continue
            first_line, text = item.first_line, item.text
        else:
            first_line, text = item
        if not text.strip():
            continue
        record = parse_record(text, first_line, block.source, len(items) + 1)
        if record is not None:
            view = record_view(
                validate(record), block.file, text, first_line, seat, decided, budget, judging
            )
            items.append(view)
    return ViewedBlock(block.file, block.source, items)


def _players(names: Iterable[str]) -> str:
    """The players in the list of records: ``Anna v Boris``."""
    return visible(" v ".join(name.strip() or "?" for name in names))


@lru_cache(maxsize=4096)
def _named(names: tuple[str, ...]) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The players in the list of records, the seats' labels and the hands'."""
    labels, hand_labels = seat_labels(names, len(names))
    return _players(names), labels, hand_labels


@lru_cache(maxsize=4096)
def _said(
    outcome: Outcome, points: tuple[int, ...], winners: tuple[int, ...]
) -> tuple[str, str, str, tuple[str, str]]:
    """The verdict, rules, result and the words that end the replay of a
    finished game (``Plays.ending``), by its outcome: they come again."""
    scoring = Scoring.by_points(points) if points else Scoring.classic()
    return (
        visible(accepted_verdict(outcome, scoring.is_points)),
        visible(scoring_words(scoring)),
        visible(result_said(outcome, winners, scoring)),
        (game_over(outcome, scoring.unit), ""),
    )


class Values:
    """A block's table of strings: each distinct one once, by its index."""

    def __init__(self) -> None:
        self.values: list[str] = []
        self.index: dict[str, int] = {}
        self.texts: dict[str, str] = {}  # each string's index as JSON
        self.lists: dict[tuple[str, ...], str] = {}  # ``listed``'s, by what they list

    def __call__(self, value: str) -> int:
        found = self.index.get(value)
        if found is None:
            found = self.index[value] = len(self.values)
            self.values.append(value)
        return found

    def text(self, value: str) -> str:
        """The index of ``value`` as JSON."""
        found = self.texts.get(value)
        if found is None:
            found = self.texts[value] = str(self(value))
        return found

    def joined(self, values: Iterable[str]) -> str:
        """The indices of ``values`` as JSON, between commas."""
        texts = self.texts
        return ",".join([texts.get(value) or self.text(value) for value in values])

    def listed(self, values: tuple[str, ...]) -> str:
        """``joined`` as a JSON list, of values that come again together (a
        record's labels)."""
        found = self.lists.get(values)
        if found is None:
            found = self.lists[values] = f"[{self.joined(values)}]"
        return found

    def json(self) -> list[str]:
        return [visible(v) for v in self.values]


class Chunk:
    """The records of one block in the list of records: their source, the
    index of the first in its file, their table of values and their lines
    (players, date, event, verdict, valid; strings as indices in the
    table), written after them as the script ``c<n>``: ``{"source": ...,
    "first": ..., "values": [...], "rows": [...]}``."""

    def __init__(self, source: str, first: int) -> None:
        self.source, self.first = source, first
        self.values = Values()
        self.rows: list[str] = []  # each as JSON

    def script(self, number: int) -> str:
        data = {"source": visible(self.source), "first": self.first, "values": self.values.json()}
        rows = ",".join(self.rows)
        head = script_json(data)[:-1]
        return f'<script type="application/json" id="c{number}">{head},"rows":[{rows}]}}</script>\n'


def script_json(value: Any) -> str:
    """JSON to stand in a ``<script>`` element: no ``<`` in it, so no
    ``</script>`` or ``<!--`` in a record's text can end or change the element."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


class Pages:
    """``ordo view`` as a library call: iterate it for the page's text in
    pieces, a block of records at a time. ``records`` and ``invalid`` count
    the records so far; ``problems`` holds the inputs that could not be read
    (further), shown in the page too."""

    def __init__(
        self,
        paths: Iterable[str],
        workers: Workers,
        seat: int | None = None,
        title: str = "",
        decided: bool = True,
        budget: float | None = None,
        judging: Judging | None = None,
        opener: Callable[[str], Lines] | None = None,
    ) -> None:
        """``opener``, when given, opens each of ``paths`` (a record held in
        memory, say); otherwise they are files, folders or ``-``."""
        if seat is not None:  # a seat's page has no other seat's chances to show
            judging = None
        workers, judging = spread_over(workers, judging)
        self.paths, self.workers, self.seat, self.title = list(paths), workers, seat, title
        self.decided = decided  # False: a page without when each state was decided
        self.budget = budget  # seconds of best play a record; None: none
        self.judging = judging  # how each play is judged from its seat's view; None: not
        self.records = self.invalid = 0
        self.problems: list[InputError] = []
        self.opener = opener

    def _blocks(self) -> Iterator[Block | InputError]:
        if self.opener is None:
            return input_blocks(expand(self.paths))
        return input_blocks(self.paths, opener=self.opener)

    def __iter__(self) -> Iterator[str]:
        met: set[str] = set()  # the codes of the cards the page holds, and others
        chunks = 0
        shell, tail = (_ASSETS / "viewer.html").read_text("utf-8").split("<!-- records -->")
        css = (_ASSETS / "viewer.css").read_text("utf-8")
        script = (_ASSETS / "viewer.js").read_text("utf-8")  # now: the page is of one version
        yield shell.replace("{{title}}", _html(self.title or "ordo view")).replace("{{css}}", css)
        counted: dict[int, int] = {}  # records so far, by file
        made = partial(
            view_block,
            seat=self.seat,
            decided=self.decided,
            budget=self.budget,
            judging=self.judging,
        )
        for done in self.workers.map(made, self._blocks()):
            if isinstance(done, InputError):
                self.problems.append(done)
                continue
            if not done.items:
                continue
            chunk = Chunk(done.source, counted.get(done.file, 0) + 1)
            pieces = []  # the block's records and chunk, written at once
            for item in done.items:
                self.records += 1
                self.invalid += not item.row[4]
                data = self._record(item, chunk.first + len(chunk.rows), chunk, met)
                pieces.append(
                    f'<script type="application/json" id="r{self.records}">{data}</script>\n'
                )
            counted[done.file] = chunk.first - 1 + len(chunk.rows)
            pieces.append(chunk.script(chunks))
            yield "".join(pieces)
            chunks += 1
        cards = [Card(mask) for mask in range(1, 32) if CODES[mask - 1] in met]
        yield f'<svg class="v-defs" aria-hidden="true" focusable="false">{defs(cards)}</svg>\n'
        problems = [
            diagnostic_text(p.diagnostic, [p.shown] if p.shown is not None else None).plain
            for p in self.problems
        ]
        contents = {
            "layout": layout(),
            "rules": rules(),
            "chunks": chunks,
            "cards": [str(card) if CODES[card.mask - 1] in met else None for card in _CARDS],
            "codes": CODES,
            "seat": self.seat,
            "seats": [seat_name(s) for s in range(MAX_SEATS)],
            "problems": problems,
        }
        yield f'<script type="application/json" id="index">{script_json(contents)}</script>\n'
        yield tail.replace("{{script}}", script.replace("</script", "<\\/script"))

    def _record(self, view: RecordView, index: int, chunk: Chunk, met: set[str]) -> str:
        """A record's JSON (record ``index`` of its file), its strings in the
        chunk's values, its line added to the chunk's, the codes of its
        cards to ``met``: ``{"plays": ..., "problems": [...], "summary":
        [rules, result, [comment, ...], [state, ...]], "decisions": ...}``,
        a state ``[marker, state, ply, why, [[seat, fourth card's ply,
        points, formations], ...]]``; strings as indices in the values."""
        values, number = chunk.values, _NUMBER
        texts, text = values.texts, values.text
        row = view.row
        chunk.rows.append(f"[{values.joined(row[:4])},{int(row[4])}]")
        problems = "[]"
        if view.problems:
            problems = script_json(self._problems(view, index))
        plays = view.plays
        said = _NULL if plays is None else _plays_json(plays, values, met)
        rules, result, comments, states = view.summary or _NO_SUMMARY
        head = f"{text(rules)},{text(result)},[{values.joined(comments)}]"
        resolved = ",".join(
            [
                f"[{marker},{state},{ply},{texts.get(why) or text(why)},["
                + ",".join(
                    [
                        f"[{seat:d},{number[fourth]},{number[points]},"
                        f"{texts.get(formations) or text(formations)}]"
                        for seat, fourth, points, formations in ranks
                    ]
                )
                + "]]"
                for marker, state, ply, why, ranks in states
            ]
        )
        data = (
            f'{{"plays":{said},"problems":{problems},"summary":[{head},[{resolved}]],'
            f'"decisions":{view.decisions or _NULL}'
        )
        # (ordo view --best-play or --judge: Python writes every record)
        if view.best is not None:
            data += f',"best":{script_json(view.best.for_page(values))}'
        if view.judged is not None:
            data += f',"judged":{script_json(view.judged.for_page(values))}'
        return data + "}"

    def _problems(self, view: RecordView, index: int) -> list[str]:
        """A record's problems on the page: all they say on the page of every
        seat, only where each is on a seat's page."""
        if self.seat is None:
            return [
                diagnostic_text(replace(d, record=index), view.lines, view.first_line).plain
                for d in view.problems
            ]
        problems = [f"{visible(d.location)}: {d.severity.value}[{d.code}]" for d in view.problems]
        return [*problems, SEAT_PROBLEMS]


_NO_SUMMARY = Summary("", "", (), ())
_CARDS = tuple(map(Card, range(1, 32)))


def _plays_json(plays: Plays, values: Values, met: set[str]) -> str:
    """``Plays`` for the page: strings as indices in the chunk's ``values``,
    a hand as its cards' codes or its size, the plies as they are; the
    codes of their cards added to ``met``."""
    labels, hand_labels, hands, pile, plies, written, glyphs, notes, ending, stopped, seated = plays
    if hands is None:
        dealt = _NULL
    else:
        dealt = ",".join([f'"{hand}"' if type(hand) is str else str(hand) for hand in hands])
        dealt = f"[{dealt}]"
        met.update(*[hand for hand in hands if type(hand) is str])
    met.update(plies[::3], plies[2::3])
    listed = values.listed
    head = f'{{"labels":{listed(labels)},"hand_labels":{listed(hand_labels)},"hands":{dealt},'
    if written or glyphs or notes:
        joined, text = values.joined, values.text
        said = ",".join([f'"{ply}":[{joined(words)}]' for ply, words in written])
        marked = ",".join([f'"{ply}":{text(glyph)}' for ply, glyph in glyphs])
        noted = ",".join([f'"{ply}":{text(line)}' for ply, line in notes])
        rest = f'"written":{{{said}}},"glyphs":{{{marked}}},"notes":{{{noted}}},'
    else:
        rest = '"written":{},"glyphs":{},"notes":{},'
    return (
        f'{head}"pile":{_NULL if pile is None else pile},"plies":"{plies}",{rest}'
        f'"ending":{_NULL if ending is None else listed(ending)},'
        f'"stopped":{int(stopped)},"seated":{int(seated)}}}'
    )


def _html(text: str) -> str:
    return (
        visible(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )
