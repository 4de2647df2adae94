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

The page of every seat of a record the compiled core accepts, its plays
plainly written, is written by the core in the same pass that checks it
(``quick.viewed_block``): its JSON as ``Pages._record`` writes it, the
words asked of ``core_words`` and of ``engine/armies.py``.
tests/test_quick.py holds the two to the same page.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from importlib.resources import files
from typing import TYPE_CHECKING, Any, NamedTuple

from ..checking.quick import ViewWords, accepted_verdict, outcome_of, replayed_block, viewed_block
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
from ..engine.decisions import Analysis, Loss
from ..engine.game import MAX_SEATS, STATES, Deal
from ..engine.scoring import Outcome, Scoring
from ..files.sources import expand
from ..notation.parser import parse_record
from ..runs.blocks import Block, block_chunks, input_blocks
from ..runs.workers import Workers
from .analysis import analysis_of
from .bestplay import BestPlayView, scored_record
from .board import ending_pieces, game_over
from .picture import defs, layout, note, seat_labels
from .report import diagnostic_text, visible
from .summary import (
    WORDS_OF_ARMIES,
    RecordSummary,
    outcome_words,
    result_said,
    rules_words,
    scoring_words,
    summarize,
)

if TYPE_CHECKING:
    from ..checking._quick import Accepted

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


class Decided(NamedTuple):
    """After its ply one seat alone, ``winner``, could still win ``target``
    (a state's index, 0 to 4; None: the game)."""

    target: int | None
    winner: int | None


class Lost(NamedTuple):
    """At its ply, played by ``by``, ``seat`` could no longer win ``target``.
    ``alternatives``: when ``by`` gave it away itself, the other plays from
    its hand that would have kept the chance, as (card, the letters of the
    states it could have gone to); None when the page does not say (no deal,
    or another seat's hand on a seat's page)."""

    target: int | None
    seat: int
    by: int
    alternatives: tuple[tuple[str, str], ...] | None


@dataclass(frozen=True, slots=True)
class Decisions:
    """A record's analysis as the page holds it: for each state, A to T, the
    ply after which it was decided, the one seat that could win it then and
    the ply that resolved it (each None if none); the same for the game
    (no resolution); and, by ply, what was decided and lost there."""

    known_deal: bool
    states: tuple[tuple[int | None, int | None, int | None], ...]
    game: tuple[int | None, int | None]
    marks: tuple[tuple[int, tuple[Decided | Lost, ...]], ...]


HIDDEN = "?"  # a card drawn that the page's seat does not see
_LETTERS = {state: state.name for state in State}
_new = tuple.__new__


class Ply(NamedTuple):
    """A ply as the rules replayed it: the card, the state's letter, and the
    card drawn before it (None: none; ``HIDDEN``: one the page does not show)."""

    card: str
    state: str
    drawn: str | None


@dataclass(frozen=True, slots=True)
class Plays:
    """What the page's script replays a record from (``viewer.js``
    ``replayed``): the seats' labels beside their rows and hands
    (``picture.seat_labels``); the opening hands, one hidden from the page's
    seat as its size (None without a deal), and the size of the pile; every
    ply the rules accepted; then, by ply, the rest of a step where there is
    one: the play as written where it says more than its card and state,
    or than its seat, card and state where every play is ``seated`` (its
    words, then its comments), its glyph and, for a play with comments,
    the note under the heading (``picture.note``; the script words the
    others); the words that end the replay (None: the markers so far);
    whether the replay stopped, and whether every play was written with
    its seat."""

    labels: tuple[str, ...]
    hand_labels: tuple[str, ...]
    hands: tuple[tuple[str, ...] | int, ...] | None
    pile: int | None
    plies: tuple[Ply, ...]
    written: tuple[tuple[int, tuple[str, ...]], ...]
    glyphs: tuple[tuple[int, str], ...]
    notes: tuple[tuple[int, str], ...]
    ending: tuple[str, str] | None
    stopped: bool
    seated: bool


@dataclass(frozen=True, slots=True)
class RecordView:
    """What the page holds of one record, before its values are put in the
    page's table: its line in the list, its plays, the diagnostics and the
    summary. Made on a worker."""

    file: int  # counted from 0 in the order given
    source: str
    index: int  # within its block until ``Pages`` numbers it within its file
    row: tuple[str, str, str, str, bool]  # players, date, event, verdict, valid
    plays: Plays | None  # None: nothing replayed
    problems: tuple[Diagnostic, ...]
    lines: tuple[str, ...]  # the record's text, for quoting it in the problems
    first_line: int
    summary: Summary | None
    decisions: Decisions | None  # None: nothing replayed
    best: BestPlayView | None = None  # with ordo view --best-play, on the page of every seat


SEAT_PROBLEMS = (
    "A seat's page shows where each problem is, not what it says nor the lines it quotes: "
    "they may name the cards of another hand (ordo validate says it all)."
)
CODES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcde"  # the card of mask m as CODES[m - 1]
NO_DRAW = "."  # a ply that drew nothing, in the page's plies


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
) -> RecordView:
    """The page's view of one checked record (with or without its steps), as
    ``seat`` saw it (None: every seat); with ``decided``, when each state
    and the game were decided (``decisions``: the analysis, most of the
    time a record takes); with a ``budget``, its plays under best play (on
    the page of every seat only: best play knows every card)."""
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
    )


def _plays(report: Report, seat: int | None) -> Plays:
    assert report.record is not None and report.game is not None
    labels, hand_labels = seat_labels(report.names, report.game.seats)
    deal = report.deal
    hands = None
    if deal is not None:
        hands = tuple(
            tuple(str(card) for card in hand) if seat is None or seat == s else len(hand)
            for s, hand in enumerate(deal.hands)
        )
    plies: list[Ply] = []
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
        drawn = None if turn.drawn is None else str(turn.drawn) if seen else HIDDEN
        plies.append(Ply(card, state, drawn))
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
        tuple(plies),
        tuple(written),
        tuple(glyphs),
        tuple(notes),
        ending,
        report.stopped is not None,
        seated,
    )


def decisions(report: Report, seat: int | None) -> Decisions | None:
    """When each state and the game of a checked record were decided, and
    who lost them when, as ``seat`` may see it (None: every seat); None
    when nothing was replayed. The plays are the legal ones, up to where
    the replay stopped; without a deal, against any cards (no alternatives)."""
    analysis = analysis_of(report)
    return None if analysis is None else _decisions(analysis, seat)


def _decisions(analysis: Analysis, seat: int | None) -> Decisions:
    marks: dict[int, list[Decided | Lost]] = {}

    def lost(target: int | None, loss: Loss) -> Lost:
        said = loss.own and analysis.known_deal and (seat is None or seat == loss.by)
        return Lost(target, loss.seat, loss.by, _grouped(loss) if said else None)

    parts: list[tuple[int | None, int | None, int | None, tuple[Loss, ...]]] = [
        (index, part.decided, part.winner, part.losses)
        for index, part in enumerate(analysis.states)
    ]
    parts.append((None, analysis.decided, analysis.winner, analysis.losses))
    for target, decided, winner, losses in parts:  # states A to T, then the game
        for loss in losses:
            marks.setdefault(loss.ply, []).append(lost(target, loss))
        if decided is not None:
            marks.setdefault(decided, []).append(Decided(target, winner))
    return Decisions(
        analysis.known_deal,
        tuple((part.decided, part.winner, part.resolved) for part in analysis.states),
        (analysis.decided, analysis.winner),
        tuple((ply, tuple(marks[ply])) for ply in sorted(marks)),
    )


def _grouped(loss: Loss) -> tuple[tuple[str, str], ...]:
    """A loss's alternatives by card, in the order found: ``(("LH", "CJ"), ("F", "T"))``."""
    by_card: dict[Card, set[State]] = {}
    for card, state in loss.alternatives:
        by_card.setdefault(card, set()).add(state)
    return tuple(
        (str(card), "".join(s.name for s in STATES if s in states))
        for card, states in by_card.items()
    )


def core_view(
    replayed: Replayed, file: int, source: str, index: int, seat: int | None
) -> RecordView:
    """The page's view of a record the compiled core accepted, its plays
    ``plain``, as ``record_view`` makes it of the record's report."""
    deal, seats = replayed.deal, len(replayed.names)
    players, *labels = _named(replayed.names)
    winners = tuple([marker[2] for marker in replayed.markers])
    verdict, rules, result, ending = _said(replayed.outcome, replayed.scoring.points or (), winners)
    plays = Plays(
        tuple(labels[:seats]), tuple(labels[seats:]), _hands(deal, seat), len(deal.pile),
        _plies(replayed, seat), (), (), (), (ending, ""), False, replayed.seated,
    )  # fmt: skip
    row = (
        players,
        visible(replayed.tag("Date") or ""),
        visible(replayed.tag("Event") or ""),
        verdict,
        True,
    )
    summary = Summary(rules, result, (), _core_states(replayed))
    analysis = replayed.analysis
    decisions = None if analysis is None else _decisions(analysis, seat)
    return RecordView(
        file, source, index, row, plays, (), (), replayed.first_line, summary, decisions
    )


def _hands(deal: Deal, seat: int | None) -> tuple[tuple[str, ...] | int, ...]:
    """The opening hands as ``Plays`` holds them: another seat's as its size."""
    return tuple(
        tuple(map(str, hand)) if seat is None or seat == s else len(hand)
        for s, hand in enumerate(deal.hands)
    )


def _plies(replayed: Replayed, seat: int | None) -> tuple[Ply, ...]:
    """The plies of a record the core accepted as ``seat`` saw them."""
    pile, seats = replayed.deal.pile, len(replayed.names)
    drawn: list[str | None] = [CARD_WORDS[card] for card in pile[: len(replayed.plays)]]
    drawn += [None] * (len(replayed.plays) - len(drawn))
    if seat is not None:  # another seat's draw is not shown
        drawn = [d if d is None or ply % seats == seat else HIDDEN for ply, d in enumerate(drawn)]
    return tuple(
        [
            _new(Ply, (CARD_WORDS[card], _LETTERS[state], draw))
            for (card, state), draw in zip(replayed.plays, drawn, strict=True)
        ]
    )


def _core_states(replayed: Replayed) -> tuple[Resolved, ...]:
    """``_summary``'s states of a record the compiled core accepted, from its ranking."""
    scoring = replayed.scoring
    points = scoring.points_for if scoring.is_points else None
    return tuple(
        Resolved(
            marker,
            state - 1,
            ply,
            explained_packed(places[0][2], places[1][2], places[0][0], places[0][1], places[1][1]),
            tuple(
                [
                    (seat, fourth, None if points is None else points(place), described(packed))
                    for place, (seat, fourth, packed) in enumerate(places)
                ]
            ),
        )
        for (marker, state, _, ply), places in zip(replayed.markers, replayed.ranked, strict=True)
    )


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
    and source, and each record's ``RecordView``, or its line in the list
    and its JSON as the compiled core wrote them (``quick.viewed_block``),
    their strings as indices in ``values``, the block's table, which the
    strings of the others join; ``cards``: the cards the core's JSON
    holds, a bit by mask."""

    file: int
    source: str
    values: list[str]
    cards: int
    items: list[RecordView | tuple[str, str]]


def view_block(
    block: Block, seat: int | None, decided: bool = True, budget: float | None = None
) -> ViewedBlock:
    """The records of one block on the page (on a worker), numbered from 1
    within the block: the page of every seat of those the core accepts
    written by the core, a seat's page of them from what the core read;
    with a best-play ``budget``, every record in Python."""
    items: list[RecordView | tuple[str, str]] = []
    values: list[str] = []
    cards = 0
    found: Iterable[Replayed | tuple[int, str] | tuple[str, str]] | None = None
    if budget is not None:
        pass
    elif not block.one_record and seat is None:
        viewed = viewed_block(block.first_line, block.text, _VIEW_WORDS, decided)
        if viewed is not None:
            values, cards, found = viewed
    elif not block.one_record:
        found = replayed_block(block.first_line, block.text, decided)
    for item in block_chunks(block) if found is None else found:
        if isinstance(item, Replayed):
            if item.plain:
                items.append(core_view(item, block.file, block.source, len(items) + 1, seat))
                continue
            first_line, text = item.first_line, item.text
        elif isinstance(item[0], str):  # the line and JSON the core wrote
            items.append(item)
            continue
        else:
            first_line, text = item
        if not text.strip():
            continue
        record = parse_record(text, first_line, block.source, len(items) + 1)
        if record is not None:
            view = record_view(
                validate(record), block.file, text, first_line, seat, decided, budget
            )
            items.append(view)
    return ViewedBlock(block.file, block.source, values, cards, items)


def core_words(item: Accepted, points: tuple[int, ...], date: str, event: str) -> tuple[str, ...]:
    """The words of the page of a record the core accepted, for the core to
    write it (``quick.viewed_block``, which keeps them by what they depend
    on), as ``core_view`` has them: its players, date, event, verdict,
    rules, result and the words that end its replay, then each seat's label
    and each hand's."""
    named = _named(item[1])
    said = _said(outcome_of(item), points, tuple([marker[2] for marker in item[8]]))
    return (named[0], visible(date), visible(event), *said, *named[1:])


def _players(names: Iterable[str]) -> str:
    """The players in the list of records: ``Anna v Boris``."""
    return visible(" v ".join(name.strip() or "?" for name in names))


@lru_cache(maxsize=4096)
def _named(names: tuple[str, ...]) -> tuple[str, ...]:
    """The players in the list of records, each seat's label and each hand's."""
    labels, hand_labels = seat_labels(names, len(names))
    return (_players(names), *labels, *hand_labels)


@lru_cache(maxsize=4096)
def _said(outcome: Outcome, points: tuple[int, ...], winners: tuple[int, ...]) -> tuple[str, ...]:
    """The verdict, rules, result and the words that end the replay of a
    finished game, by its outcome: they come again."""
    scoring = Scoring.by_points(points) if points else Scoring.classic()
    return (
        visible(accepted_verdict(outcome, scoring.is_points)),
        visible(scoring_words(scoring)),
        visible(result_said(outcome, winners, scoring)),
        game_over(outcome, scoring.unit),
    )


_VIEW_WORDS: ViewWords = ((core_words, CODES, NO_DRAW), WORDS_OF_ARMIES)


class Values:
    """A table of values: each distinct value once, by its index; from
    ``values`` (the core's) on."""

    def __init__(self, values: list[str] | None = None) -> None:
        self.values: list[Hashable] = list(values or ())
        self.seen = len(self.values)  # the core's are shown as they may reach a terminal already
        self.index: dict[tuple[type, Hashable], int] | None = None  # made when first asked

    def __call__(self, value: Hashable) -> int:
        if self.index is None:
            self.index = {(type(v), v): k for k, v in enumerate(self.values)}
        key = (type(value), value)  # True is not 1 here
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.values)
            self.values.append(value)
        return found

    def json(self) -> list[Any]:
        rest = self.values[self.seen :]
        return self.values[: self.seen] + [visible(v) if isinstance(v, str) else v for v in rest]


class Chunk:
    """The records of one block in the list of records: their source, the
    index of the first in its file, their table of values and their lines
    (players, date, event, verdict, valid; strings as indices in the
    table), written after them as the script ``c<n>``: ``{"source": ...,
    "first": ..., "values": [...], "rows": [...]}``."""

    def __init__(self, source: str, first: int, values: list[str]) -> None:
        self.source, self.first = source, first
        self.values = Values(values)
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
    ) -> None:
        self.paths, self.workers, self.seat, self.title = list(paths), workers, seat, title
        self.decided = decided  # False: a page without when each state was decided
        self.budget = budget  # seconds of best play a record; None: none
        self.records = self.invalid = 0
        self.problems: list[InputError] = []

    def __iter__(self) -> Iterator[str]:
        codes = Codes()
        chunks = 0
        shell, tail = (_ASSETS / "viewer.html").read_text("utf-8").split("<!-- records -->")
        css = (_ASSETS / "viewer.css").read_text("utf-8")
        script = (_ASSETS / "viewer.js").read_text("utf-8")  # now: the page is of one version
        yield shell.replace("{{title}}", _html(self.title or "ordo view")).replace("{{css}}", css)
        counted: dict[int, int] = {}  # records so far, by file
        made = partial(view_block, seat=self.seat, decided=self.decided, budget=self.budget)
        for done in self.workers.map(made, input_blocks(expand(self.paths))):
            if isinstance(done, InputError):
                self.problems.append(done)
                continue
            if not done.items:
                continue
            chunk = Chunk(done.source, counted.get(done.file, 0) + 1, done.values)
            codes.met |= done.cards
            pieces = []  # the block's records and chunk, written at once
            for item in done.items:
                self.records += 1
                if isinstance(item, RecordView):
                    self.invalid += not item.row[4]
                    index = chunk.first + len(chunk.rows)
                    data = self._record(replace(item, index=index), chunk, codes)
                else:
                    row, data = item
                    chunk.rows.append(row)
                pieces.append(
                    f'<script type="application/json" id="r{self.records}">{data}</script>\n'
                )
            counted[done.file] = chunk.first - 1 + len(chunk.rows)
            pieces.append(chunk.script(chunks))
            yield "".join(pieces)
            chunks += 1
        cards = [Card(mask) for mask in range(1, 32) if codes.met >> mask & 1]
        yield f'<svg class="v-defs" aria-hidden="true" focusable="false">{defs(cards)}</svg>\n'
        problems = [
            diagnostic_text(p.diagnostic, [p.shown] if p.shown is not None else None).plain
            for p in self.problems
        ]
        contents = {
            "layout": layout(),
            "rules": rules(),
            "chunks": chunks,
            "cards": [str(Card(m)) if codes.met >> m & 1 else None for m in range(1, 32)],
            "codes": CODES,
            "seat": self.seat,
            "seats": [seat_name(s) for s in range(MAX_SEATS)],
            "problems": problems,
        }
        yield f'<script type="application/json" id="index">{script_json(contents)}</script>\n'
        yield tail.replace("{{script}}", script.replace("</script", "<\\/script"))

    def _record(self, view: RecordView, chunk: Chunk, codes: Codes) -> str:
        """A record's JSON, its strings in the chunk's values, its line added to the chunk's."""
        values = chunk.values
        players, date, event, verdict, valid = view.row
        row = [values(players), values(date), values(event), values(verdict), int(valid)]
        chunk.rows.append(script_json(row))
        problems = [
            diagnostic_text(replace(d, record=view.index), view.lines, view.first_line).plain
            if self.seat is None
            else f"{visible(d.location)}: {d.severity.value}[{d.code}]"
            for d in view.problems
        ]
        if problems and self.seat is not None:
            problems.append(SEAT_PROBLEMS)
        rules, result, comments, states = view.summary or Summary("", "", (), ())
        plays = view.plays
        data: dict[str, Any] = {
            "plays": None if plays is None else _plays_json(plays, values, codes),
            "problems": problems,
            "summary": [
                values(rules),
                values(result),
                [values(c) for c in comments],
                [
                    [m, s, ply, values(why), [[*rank[:3], values(rank[3])] for rank in ranks]]
                    for m, s, ply, why, ranks in states
                ],
            ],
            "decisions": _decisions_json(view.decisions),
        }
        if view.best is not None:  # (ordo view --best-play: Python writes every record)
            data["best"] = view.best.for_page(values)
        return script_json(data)


def _plays_json(plays: Plays, values: Values, codes: Codes) -> dict[str, Any]:
    """``Plays`` for the page: strings as indices in the chunk's ``values``,
    cards as ``codes``, a hand as its cards' codes or its size, and the
    plies three characters each: the card's code, the state's letter and
    the card drawn (its code, ``HIDDEN`` or ``NO_DRAW``)."""
    return {
        "labels": [values(label) for label in plays.labels],
        "hand_labels": [values(label) for label in plays.hand_labels],
        "hands": None
        if plays.hands is None
        else [hand if isinstance(hand, int) else codes(hand) for hand in plays.hands],
        "pile": plays.pile,
        "plies": "".join(
            [
                codes.code(card)
                + state
                + (NO_DRAW if drawn is None else drawn if drawn == HIDDEN else codes.code(drawn))
                for card, state, drawn in plays.plies
            ]
        ),
        "written": {str(ply): [values(w) for w in words] for ply, words in plays.written},
        "glyphs": {str(ply): values(glyph) for ply, glyph in plays.glyphs},
        "notes": {str(ply): values(line) for ply, line in plays.notes},
        "ending": None if plays.ending is None else [values(words) for words in plays.ending],
        "stopped": int(plays.stopped),
        "seated": int(plays.seated),
    }


def _decisions_json(found: Decisions | None) -> dict[str, Any] | None:
    """``Decisions`` for the page: ``{"deal": known, "states": [[decided,
    winner, resolved], ...], "game": [decided, winner], "marks": {ply:
    [event, ...]}}``, an event ``["d", target, winner]`` or ``["l", target,
    seat, by, alternatives]`` (``viewer.js`` words them in ``sentence``)."""
    if found is None:
        return None
    return {
        "deal": int(found.known_deal),
        "states": [list(part) for part in found.states],
        "game": list(found.game),
        "marks": {
            str(ply): [
                ["d", *event]
                if isinstance(event, Decided)
                else [
                    "l",
                    event.target,
                    event.seat,
                    event.by,
                    None if event.alternatives is None else [list(a) for a in event.alternatives],
                ]
                for event in events
            ]
            for ply, events in found.marks
        },
    }


class Codes:
    """The page's cards, each the character of ``CODES`` at its mask - 1;
    ``met``: the cards the page holds, a bit by mask (another hand's cards,
    on a seat's page, are not among them)."""

    def __init__(self) -> None:
        self.met = 0

    def __call__(self, cards: Iterable[str]) -> str:
        return "".join([self.code(card) for card in cards])

    def code(self, card: str) -> str:
        mask = _MASKS[card]
        self.met |= 1 << mask
        return CODES[mask - 1]


_MASKS = {str(Card(mask)): mask for mask in range(1, 32)}


def _html(text: str) -> str:
    return (
        visible(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )
