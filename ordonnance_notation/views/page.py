"""``ordo view``: one self-contained HTML page that replays the records of
an archive in a browser, with no network at all (style, script and icons in
the page).

The page is small for 10,000 records because it holds no picture: it holds
each step's ``Scene`` (``picture``) as the fields that changed since the step
before, each field's value an index into one page-wide table of values, so
that a sentence, an army or a hand met many times is written once. The
page's script (``viewer/viewer.js``) rebuilds a scene and lays it out as
``picture.draw`` does, element for element (a browser test pins the two
together); the sizes and fixed words come from ``picture.layout``.

Each record also carries when each state, and the game, was decided and
its turning points (``decisions``, from ``views.analysis.analysis_of``, as
``ordo analyse`` finds them), which the script marks in the list of steps.

Records are read, replayed and written one block at a time, in input order,
on ``Workers``: only the table of values and a line a record for the list
grow with the archive. A seat's page (``seat``) holds every scene as that
seat saw it: no card of another hand is anywhere in it, so the other plays
that would have kept a chance are given for that seat's own plays only.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from importlib.resources import files
from typing import Any, NamedTuple

from ..checking.report import Report
from ..checking.validator import validate
from ..diagnostics import Diagnostic, InputError
from ..engine.analysis import Analysis, Loss
from ..engine.cards import Card, State, seat_name
from ..engine.game import MAX_SEATS, STATES
from ..files.sources import expand
from ..notation.parser import parse_record
from ..runs.blocks import Block, block_chunks, input_blocks
from ..runs.workers import Workers
from .analysis import analysis_of
from .picture import Scene, defs, layout, scenes, seen_by
from .replay import replay
from .report import diagnostic_text, visible
from .summary import outcome_words, rules_words, summarize

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


@dataclass(frozen=True, slots=True)
class RecordView:
    """What the page holds of one record, before its values are put in the
    page's table: its line in the list, each step's changed fields, the
    plays as written, the diagnostics and the summary. Made on a worker."""

    file: int  # counted from 0 in the order given
    source: str
    index: int  # within its block until ``Pages`` numbers it within its file
    row: tuple[str, str, str, str, bool]  # players, date, event, verdict, valid
    steps: tuple[tuple[tuple[int, Hashable], ...], ...]
    plays: tuple[tuple[str, ...], ...]
    problems: tuple[Diagnostic, ...]
    lines: tuple[str, ...]  # the record's text, for quoting it in the problems
    first_line: int
    summary: Summary | None
    decisions: Decisions | None  # None: nothing replayed


class Cards(tuple[str, ...]):
    """Cards in sight (a hand, an army's), which the page writes a
    character a card (``CODES``) rather than through its table of values."""

    __slots__ = ()


SEAT_PROBLEMS = (
    "A seat's page shows where each problem is, not what it says nor the lines it quotes: "
    "they may name the cards of another hand (ordo validate says it all)."
)
CODES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcde"  # one for each of the 31 cards, in order met
ALWAYS = 3  # fields every step gives, in order and without their number
SHARED = 16  # fields before the seats' (``fields``): ALWAYS, note, ending, stopped, 5 + 5


def fields(seen: Scene) -> list[Hashable]:
    """A scene as a flat list of values (``viewer.js`` reads them back in
    ``unflatten``): which step, the turn and the pile (they change at every
    step), the fields a record shares, then each seat's, then each army's
    cards and look."""
    hands = seen.hands if seen.hands is not None else (None,) * seen.seats
    count, play, drew, glyph = seen.heading
    out: list[Hashable] = [
        count,
        (play, drew, glyph, seen.played),
        seen.pile,
        seen.note,
        seen.ending,
        seen.stopped,
        *seen.state_heads,
        *seen.statuses,
    ]
    for s, hand in enumerate(hands):
        out += [
            seen.labels[s],
            seen.hand_labels[s],
            Cards(hand) if isinstance(hand, tuple) else hand,
        ]
    for row in seen.armies:
        for troops in row:
            out += [Cards(troops.cards), (troops.css, troops.formations, troops.marker)]
    return out


def record_view(
    report: Report, file: int, text: str, first_line: int, seat: int | None
) -> RecordView:
    """The page's view of one checked record, as ``seat`` saw it (None: every seat)."""
    record = report.record

    def tag(name: str) -> str:
        return visible((record.tag(name) if record is not None else None) or "")

    row = (
        visible(" v ".join(name.strip() or "?" for name in report.names)),
        tag("Date"),
        tag("Event"),
        visible(report.verdict),
        report.valid,
    )
    steps: list[tuple[tuple[int, Hashable], ...]] = []
    plays: list[tuple[str, ...]] = []
    summary = None
    replayed = replay(report)
    if replayed is not None:
        before: list[Hashable] = []
        for step, seen in zip(replayed.steps, scenes(replayed), strict=True):
            now = fields(seen_by(seen, seat))
            steps.append(
                tuple(
                    (f, value)
                    for f, value in enumerate(now)
                    if f < ALWAYS or f >= len(before) or before[f] != value
                )
            )
            before = now
            play = step.play
            if play is None:
                plays.append(())
                continue
            mover = step.turn.seat if step.turn is not None else None
            drawn = play.drawn if seat is None or seat == mover else None  # as the heading
            words = (play.seat, drawn, play.card, play.state, play.glyph)
            plays.append(
                (
                    visible(" ".join(w.text for w in words if w is not None)),
                    *(visible(c.text) for c in play.comments),
                )
            )
        summary = _summary(replayed.report)
    return RecordView(
        file,
        report.source,
        report.index,
        row,
        tuple(steps),
        tuple(plays),
        report.diagnostics,
        tuple(text.split("\n")) if report.diagnostics else (),
        first_line,
        summary,
        decisions(report, seat),
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


def _summary(report: Report) -> Summary:
    summary = summarize(report, decided=False)  # the page has its own (``decisions``)
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


def view_block(block: Block, seat: int | None) -> list[RecordView]:
    """The views of the records of one block (on a worker), numbered from 1
    within the block."""
    found: list[RecordView] = []
    for first_line, text in block_chunks(block):
        if not text.strip():
            continue
        item = parse_record(text, first_line, block.source, len(found) + 1)
        if item is not None:
            found.append(
                record_view(validate(item, steps=True), block.file, text, first_line, seat)
            )
    return found


class Values:
    """The page's table of values: each distinct value once, by its index."""

    def __init__(self) -> None:
        self.index: dict[tuple[type, Hashable], int] = {}
        self.values: list[Hashable] = []

    def __call__(self, value: Hashable) -> int:
        key = (type(value), value)  # True is not 1 here
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.values)
            self.values.append(value)
        return found

    def json(self) -> list[Any]:
        return [visible(v) if isinstance(v, str) else v for v in self.values]


def script_json(value: Any) -> str:
    """JSON to stand in a ``<script>`` element: no ``<`` in it, so no
    ``</script>`` or ``<!--`` in a record's text can end or change the element."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


class Pages:
    """``ordo view`` as a library call: iterate it for the page's text in
    pieces, a record at a time. ``records`` and ``invalid`` count the records
    so far; ``problems`` holds the inputs that could not be read (further),
    shown in the page too."""

    def __init__(
        self, paths: Iterable[str], workers: Workers, seat: int | None = None, title: str = ""
    ) -> None:
        self.paths, self.workers, self.seat, self.title = list(paths), workers, seat, title
        self.records = self.invalid = 0
        self.problems: list[InputError] = []

    def __iter__(self) -> Iterator[str]:
        values = Values()
        rows: list[list[Any]] = []
        codes = Codes()
        shell, tail = (_ASSETS / "viewer.html").read_text("utf-8").split("<!-- records -->")
        css = (_ASSETS / "viewer.css").read_text("utf-8")
        script = (_ASSETS / "viewer.js").read_text("utf-8")  # now: the page is of one version
        yield shell.replace("{{title}}", _html(self.title or "ordo view")).replace("{{css}}", css)
        counted: dict[int, int] = {}  # records so far, by file
        made = partial(view_block, seat=self.seat)
        for done in self.workers.map(made, input_blocks(expand(self.paths))):
            if isinstance(done, InputError):
                self.problems.append(done)
                continue
            for view in done:
                index = counted.get(view.file, 0) + 1
                counted[view.file] = index
                self.records += 1
                self.invalid += not view.row[4]
                yield self._record(replace(view, index=index), values, rows, codes)
        faces = defs(Card.from_letters(card) for card in codes.cards)
        yield f'<svg class="v-defs" aria-hidden="true" focusable="false">{faces}</svg>\n'
        problems = [
            diagnostic_text(p.diagnostic, [p.shown] if p.shown is not None else None).plain
            for p in self.problems
        ]
        contents = {
            "layout": layout(),
            "values": values.json(),
            "rows": rows,
            "cards": list(codes.cards),
            "codes": CODES,
            "fields": {"always": ALWAYS, "shared": SHARED, "seat": 3, "army": 2},
            "seat": self.seat,
            "seats": [seat_name(s) for s in range(MAX_SEATS)],
            "problems": problems,
        }
        yield f'<script type="application/json" id="index">{script_json(contents)}</script>\n'
        yield tail.replace("{{script}}", script.replace("</script", "<\\/script"))

    def _record(self, view: RecordView, values: Values, rows: list[list[Any]], codes: Codes) -> str:
        number = len(rows) + 1
        players, date, event, verdict, valid = view.row
        rows.append(
            [values(view.source), view.index, values(players), values(date), values(event)]
            + [values(verdict), int(valid)]
        )
        steps = []
        for changed in view.steps:
            flat: list[int | str] = []
            for f, value in changed:
                if f >= ALWAYS:
                    flat.append(f)
                flat.append(codes(value) if isinstance(value, Cards) else values(value))
            steps.append(flat)
        problems = [
            diagnostic_text(replace(d, record=view.index), view.lines, view.first_line).plain
            if self.seat is None
            else f"{visible(d.location)}: {d.severity.value}[{d.code}]"
            for d in view.problems
        ]
        if problems and self.seat is not None:
            problems.append(SEAT_PROBLEMS)
        rules, result, comments, states = view.summary or Summary("", "", (), ())
        data = {
            "steps": steps,
            "plays": [[values(words) for words in play] for play in view.plays],
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
        return f'<script type="application/json" id="r{number}">{script_json(data)}</script>\n'


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
    """The page's cards, each a character of ``CODES`` in the order met."""

    def __init__(self) -> None:
        self.cards: dict[str, str] = {}

    def __call__(self, cards: Iterable[str]) -> str:
        return "".join(self.cards.get(card) or self._new(card) for card in cards)

    def _new(self, card: str) -> str:
        code = self.cards[card] = CODES[len(self.cards)]
        return code


def _html(text: str) -> str:
    return (
        visible(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )
