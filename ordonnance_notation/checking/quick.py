"""The quick check: the verdicts of plainly written records from the compiled
core (``_quick.c``), the Python validator for every other record.

The core cuts a block into records as ``split_lines`` does and accepts a
record only when the Python validator would find nothing to report in it:
every word spelt the usual way, every play legal, the declared markers and
result as replayed. It gives back what the report of such a record says;
any other record it declines, and its text is checked here in Python, which
words every diagnostic. A block it cannot cut for sure (a comment, a tab, a
header broken by a blank line) it declines whole.

The same pass can give back more of an accepted record, for the commands
that read it (``extra``): its analysis (``analysed_block``: ``ordo
analyse``), what statistics read (``facts_block``), its tags and text
(``written_block``: ``ordo select``), what its summary and its page read
(``paged_block``), and whether it is written in the canonical form already
(``canonical_block``: ``ordo fmt``). For the commands whose output is
mostly the record's own words laid out, the core lays them out itself,
told the words and the layout by the modules that define them: a record's
piece of a YAML or JSON archive (``archived_block``: ``ordo convert``, the
layout of ``archives/layout.py``), the states and points table of its
summary (``summary_block``: ``ordo summary``, the words of
``engine/armies.py``), its rows of ``ordo export`` as CSV
(``export_block``); and it reads an archive's records back into .ord text
(``archive_records``), taking only those whose piece it writes again byte
for byte.

The core is built by ``pip install .`` where a C compiler is present; where
it is not, or with ``ORDO_PURE_PYTHON=1`` in the environment
(``engine/compiled.py``), every record takes the Python path
(``ordo --version`` says which).
tests/test_quick.py holds the two paths to the same output on every corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, NamedTuple, TypeVar, cast

from ..diagnostics import OBEYED_RANGES
from ..engine import compiled
from ..engine.cards import Card, Icon, State
from ..engine.game import HAND_SIZE, Deal
from ..engine.scoring import DEFAULT_POINTS, Outcome, Scoring, TieBreak
from ..notation.terminals import GLYPHS
from .header import tag_never_warned
from .report import players_of, report_json
from .verdicts import Checked, Task, check_task

if TYPE_CHECKING:
    from ..engine.decisions import Analysis
    from ._quick import (
        Accepted,
        AnalysisFound,
        Declined,
        FactsFound,
        Found,
        KeyFound,
        PageFound,
        TextFound,
    )

    Checks = tuple[int, list[Declined | Accepted | Found]]
    Views = tuple[int, list[Declined | tuple[str, str]], list[str], int]  # _VIEW: pages, values
    CheckBlock = Callable[..., Checks | Views | None]


def _compiled() -> CheckBlock | None:
    if not compiled.wanted():
        return None
    try:
        from ._quick import check_block, configure
    except ImportError:
        return None
    # the words of the notation, from where they are defined
    spellings = tuple((state.name, state.full_name) for state in State)
    configure("".join(icon.name for icon in Icon), spellings, GLYPHS, DEFAULT_POINTS, OBEYED_RANGES)
    return check_block


CHECK_BLOCK = _compiled()


def compiled_core() -> bool:
    """Whether the compiled core checks here."""
    return CHECK_BLOCK is not None


_TIE_BREAKS = (None, TieBreak.MORE_STATES, TieBreak.LATER_CAPTURE)  # as the core numbers them
_ANALYSIS, _FACTS, _TEXT, _PAGE = 1, 2, 3, 4  # what else an accepted record's verdict carries
_PAGE_ANALYSED, _PAGE_DECIDED = 1, 2  # and what else _PAGE's carries, as bits
_ARCHIVE, _ARCHIVE_JSON = 16, 1  # an archive's piece, and as a bit JSON's
_SUMMARY, _SUMMARY_ANALYSED, _EXPORT = 32, 1, 64  # a summary's, with the analysis; export's
_EXPORT_GAME = 1  # and with export's game text alone, as a bit
_VIEW, _VIEW_ANALYSED = 128, 1  # the page of every seat, with when each state was decided
_FORMAT = 8
_STATES = {state.value: state for state in State}
_CARDS = {mask: Card(mask) for mask in range(1, 32)}


def quick_block(
    source: str, first_line: int, text: str, with_json: bool = False
) -> tuple[int, list[Checked]] | None:
    """The records of a block (``text`` from line ``first_line`` of
    ``source``) and the check of each, numbered from 1 within the block, as
    ``split_lines`` and ``check_task`` give them; None when there is no
    compiled core or it cannot cut this block."""
    if CHECK_BLOCK is None:
        return None
    found = CHECK_BLOCK(text, first_line, tag_never_warned)
    if found is None:
        return None
    count, items = cast("Checks", found)
    return count, list(_checked(source, items, with_json))


def _checked(
    source: str, items: list[Declined | Accepted | Found], with_json: bool
) -> Iterator[Checked]:
    for index, item in enumerate(items, 1):
        if len(item) == 2:  # declined: the Python validator reads it
            first_line, text = item
            checked = check_task(Task(source, index, first_line, text, with_json))
            if checked is not None:
                yield checked
        else:
            yield _accepted(source, index, cast("Accepted", item), with_json)


def outcome_of(item: Accepted | Found) -> Outcome:
    winner, scores, states, tie_break, tied = item[2:7]
    return Outcome(winner, scores, states, _TIE_BREAKS[tie_break], tied)


def _accepted(source: str, index: int, item: Accepted, with_json: bool) -> Checked:
    """The check of a record the core accepted: valid, nothing to report."""
    first_line, names, points, markers = item[0], item[1], item[7], item[8]
    outcome = outcome_of(item)
    json = None
    if with_json:
        resolved = ((m, _STATES[s], seat, ply) for m, s, seat, ply in markers)
        json = report_json(source, index, names, True, outcome, resolved, ())
    verdict = accepted_verdict(outcome, points)
    task = Task(source, index, first_line, "", with_json)
    return Checked(task, (), players_of(names), verdict, True, 0, 0, json)


def accepted_verdict(outcome: Outcome, points: bool) -> str:
    """The verdict of a record the core accepted: ``valid, P2 wins (states: P1 1, P2 4)``."""
    return "valid, " + outcome.describe("points" if points else "states")


@dataclass(frozen=True, slots=True)
class Analysed:
    """A record the core accepted, and its analysis (``engine.analysis.analyse``)."""

    first_line: int
    names: tuple[str, ...]
    analysis: Analysis
    plays: tuple[tuple[Card, State], ...]


def analysed_block(first_line: int, text: str) -> list[Analysed | Declined] | None:
    """The records of a block as ``quick_block`` cuts them, each accepted one
    analysed by the core, each other as ``(first line, text)`` for the
    Python path; None when there is no compiled core or it cannot cut this
    block."""
    if CHECK_BLOCK is None:
        return None
    _tables()
    return _found_block(first_line, text, _ANALYSIS, _analysed)


T = TypeVar("T")


def _found_block(
    first_line: int, text: str, extra: int, made: Callable[[Found], T], *through: int
) -> list[T | Declined] | None:
    """``CHECK_BLOCK``'s records with ``extra`` (and ``through``, the ply
    ``_PAGE_DECIDED`` asks about), each accepted one ``made``."""
    assert CHECK_BLOCK is not None
    found = cast("Checks | None", CHECK_BLOCK(text, first_line, tag_never_warned, extra, *through))
    if found is None:
        return None
    return [item if len(item) == 2 else made(cast("Found", item)) for item in found[1]]


@cache
def _tables() -> None:
    """The analysis's tables, made by the core once, from the icons each card
    carries (``armies.PACKED``) and the rules' ranking of armies (as
    ``analysis.RANKS``: tests/test_quick.py holds them equal)."""
    from ..engine.armies import PACKED
    from ._quick import configure_analysis

    configure_analysis(tuple(PACKED))


def _analysed(item: Found) -> Analysed:
    from ..engine.decisions import from_core

    analysis, plays = from_core(len(item[1]), True, cast("AnalysisFound", item[9]))
    return Analysed(item[0], item[1], analysis, plays)


@dataclass(frozen=True, slots=True)
class Facts:
    """What statistics read of a record the core accepted: its players, its
    outcome under its own scoring (``points``: by points), the winners under
    classic scoring and under points scoring (None: shared), and for each
    marker in order its ply and the packed icon counts (``armies.PACKED``)
    of the armies that came first and second there."""

    names: tuple[str, ...]
    outcome: Outcome
    points: bool
    classic_winner: int | None
    points_winner: int | None
    resolutions: tuple[tuple[int, int, int], ...]  # (ply, winner's army, runner-up's army)


def facts_block(first_line: int, text: str) -> list[Facts | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: the ``Facts`` of
    each one the core accepted, each other as ``(first line, text)``; None
    when there is no compiled core or it cannot cut this block."""
    return None if CHECK_BLOCK is None else _found_block(first_line, text, _FACTS, _facts)


def _facts(item: Found) -> Facts:
    classic, points, armies = cast("FactsFound", item[9])
    resolutions = tuple(
        (marker[3], first, second) for marker, (first, second) in zip(item[8], armies, strict=True)
    )
    return Facts(item[1], outcome_of(item), item[7], classic, points, resolutions)


@dataclass(frozen=True, slots=True)
class Written:
    """What ``ordo select`` reads of a record the core accepted: its tags as
    ``(name, value)`` in order, its text, its outcome under its own scoring
    (``points``: by points), and who won each state (``(state, seat)``)."""

    tags: tuple[tuple[str, str], ...]
    text: str
    outcome: Outcome
    points: bool
    won: tuple[tuple[State, int], ...]


def written_block(first_line: int, text: str) -> list[Written | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: what is
    ``Written`` of each one the core accepted, each other as ``(first
    line, text)``; None when there is no compiled core or it cannot cut
    this block."""
    return None if CHECK_BLOCK is None else _found_block(first_line, text, _TEXT, _written)


def _written(item: Found) -> Written:
    tags, text = cast("TextFound", item[9])
    won = tuple((_STATES[state], seat) for _, state, seat, _ in item[8])
    return Written(tags, text, outcome_of(item), item[7], won)


@dataclass(frozen=True, slots=True)
class Paged:
    """What a record's summary and its page read of a record the core
    accepted: its place, players, tags and text, its outcome under its
    scoring, the markers as ``(marker, state, seat, ply)``, its deal and
    plays, whether every play is ``plain`` (its number, perhaps its seat,
    its card as ``Card.__str__`` spells it and its state's letter: no draw,
    glyph or comment) and whether every one is ``seated`` (written with its
    seat), whether its deal is ``ordered`` (each seat's hand in seat order,
    then the pile), each marker's armies by place as ``(seat, ply of its fourth card,
    packed icon counts)`` (``armies.PACKED``), and its analysis when asked
    (else None)."""

    first_line: int
    names: tuple[str, ...]
    tags: tuple[tuple[str, str], ...]
    text: str
    outcome: Outcome
    scoring: Scoring
    markers: tuple[tuple[int, State, int, int], ...]
    deal: Deal
    plays: tuple[tuple[Card, State], ...]
    plain: bool
    seated: bool
    ordered: bool
    ranked: tuple[tuple[tuple[int, int, int], ...], ...]
    analysis: Analysis | None
    decided: int | None = None  # the game's ``decided``, asked (played_block: if by its ply)

    @property
    def verdict(self) -> str:
        return accepted_verdict(self.outcome, self.scoring.is_points)

    def tag(self, name: str) -> str | None:
        """The value of the tag called ``name`` (the core accepts no tag twice), else None."""
        return next((value for key, value in self.tags if key == name), None)


def paged_block(first_line: int, text: str, analysed: bool) -> list[Paged | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: what is
    ``Paged`` of each one the core accepted (with its analysis if
    ``analysed``), each other as ``(first line, text)``; None when there is
    no compiled core or it cannot cut this block."""
    if CHECK_BLOCK is None:
        return None
    if analysed:
        _tables()
    extra = _PAGE | (_PAGE_ANALYSED if analysed else 0)
    return _found_block(first_line, text, extra, _paged)


def played_block(
    first_line: int, text: str, decided_through: int | None
) -> list[Paged | Declined] | None:
    """``paged_block`` for what reads the plays alone (``ordo select``):
    without the deal (an empty one) or the analysis, but, given
    ``decided_through``, the ply after which the game was decided if it
    was by that ply (``Paged.decided``; None if not)."""
    if CHECK_BLOCK is None:
        return None
    if decided_through is None:
        return _found_block(first_line, text, _PAGE, _light_paged)
    _tables()
    extra = _PAGE | _PAGE_DECIDED
    through = min(max(decided_through, 0), 1 << 16)  # no game is longer; the core takes an int
    return _found_block(first_line, text, extra, _light_paged, through)


def _light_paged(item: Found) -> Paged:
    return _paged(item, whole=False)


_NO_DEAL = Deal((), ())


def _paged(item: Found, whole: bool = True) -> Paged:
    from ..engine.decisions import from_core, plays_from_core

    (tags, text), dealt, pile, plays, points, plain, ranked, found = cast("PageFound", item[9])
    seats = len(item[1])
    card = _CARDS.__getitem__
    deal = _NO_DEAL
    if whole:
        hands = tuple(
            tuple(map(card, dealt[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(seats)
        )
        deal = Deal(hands, tuple(map(card, pile)))
    return Paged(
        item[0],
        item[1],
        tags,
        text,
        outcome_of(item),
        Scoring.by_points(points) if points else Scoring.classic(),
        tuple((m, _STATES[s], seat, ply) for m, s, seat, ply in item[8]),
        deal,
        plays_from_core(plays),
        plain & 3 != 0,
        plain & 3 == 2,
        plain & 4 != 0,
        ranked,
        None if found is None or isinstance(found, int) else from_core(seats, True, found)[0],
        found if found is None or isinstance(found, int) else found[2][0],
    )


def canonical_block(first_line: int, text: str) -> list[str | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: the text of each
    one the core accepted written in the canonical form
    (``writer.format_record``'s text, it and nothing else), each other as
    ``(first line, text)``; None when there is no compiled core or it cannot
    cut this block."""
    if CHECK_BLOCK is None:
        return None
    _canonical_form()
    return _found_block(first_line, text, _FORMAT, _canonical)


@cache
def _canonical_form() -> None:
    """The canonical form, told the core once, from the writer that defines it."""
    from ..notation.writer import PILE_INDENT, PILE_PER_LINE, TAG_ORDER
    from ._quick import configure_canonical

    configure_canonical(TAG_ORDER, PILE_PER_LINE, len(PILE_INDENT))


def archived_block(
    first_line: int, text: str, json: bool, layout: Layout
) -> list[str | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: the piece of a
    YAML archive (or with ``json`` of a JSON one) of each one the core
    accepted, as ``document.yaml_record`` (``json_record``) writes
    ``writer.plain``'s form of it; each other as ``(first line, text)``;
    None when there is no compiled core or it cannot cut this block.
    ``layout`` is YAML's as the archives lay it out: the line width, and
    how libyaml spells a word on one line in flow or block context, or
    None (``archives.layout``)."""
    if CHECK_BLOCK is None:
        return None
    _canonical_form()
    _archive_form(layout)
    return _found_block(first_line, text, _ARCHIVE | (_ARCHIVE_JSON if json else 0), _archived)


Layout = tuple[int, Callable[[str, bool], "str | None"]]


@cache
def _archive_form(layout: Layout) -> None:
    """The archives' layout, told the core once."""
    from ._quick import configure_archive

    configure_archive(*layout)


def archive_records(
    first_line: int, text: str, json: bool, layout: Layout
) -> list[str | Declined] | None:
    """The records of a block of a YAML (or with ``json`` JSON) archive,
    ``text`` from line ``first_line``, each from its line ``- `` (``  {``)
    to the next: the .ord text of each one whose text the core accepts,
    finds in the canonical form and writes this very piece of (as
    ``archived_block``), each other as ``(first line, its lines)``; None
    when there is no compiled core or the block does not begin with a
    record."""
    if CHECK_BLOCK is None:
        return None
    _canonical_form()
    _archive_form(layout)
    from ._quick import read_archive

    return read_archive(text, first_line, tag_never_warned, json)


def laid_out(text: str, json: bool) -> bool:
    """Whether a block of an archive's records is laid out as ordo writes
    archives, by the compiled core (``document.in_our_layout``, less its head
    and JSON's tail); False when there is no compiled core."""
    if CHECK_BLOCK is None:
        return False
    from ._quick import laid_out as core_laid_out

    return core_laid_out(text, json)


@dataclass(frozen=True, slots=True)
class Summarised:
    """What ``ordo summary`` writes of a record the core accepted: its
    players, its outcome under its scoring, the seat that won each marker
    and the state it went to, the text of its states in marker order and of
    its points table ("" under classic scoring) as ``summary.render_text``
    lays them out, and when asked its analysis and plays (else None, ())."""

    names: tuple[str, ...]
    outcome: Outcome
    scoring: Scoring
    winners: tuple[int, ...]
    order: tuple[State, ...]  # the states in marker order
    states: str
    points: str
    analysis: Analysis | None
    plays: tuple[tuple[Card, State], ...]  # () without the analysis


def summary_block(
    first_line: int, text: str, words: SummaryWords, analysed: bool = False
) -> list[Summarised | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: what is
    ``Summarised`` of each one the core accepted whose plays are plain (see
    ``Paged``), with its analysis and plays if ``analysed``, each other as
    ``(first line, text)``; None when there is no compiled core or it cannot
    cut this block. ``words`` are the summary's (``armies.described``,
    ``armies.explained_counts``, ``armies.fourth_earlier``)."""
    if CHECK_BLOCK is None:
        return None
    _summary_words(words)
    if analysed:
        _tables()
    extra = _SUMMARY | (_SUMMARY_ANALYSED if analysed else 0)
    return _found_block(first_line, text, extra, _summarised)


SummaryWords = tuple[
    Callable[[int], str],
    Callable[[int, int], "str | None"],
    Callable[[int, int, int], str],
]


@cache
def _summary_words(words: SummaryWords) -> None:
    from ._quick import configure_summary

    configure_summary(*words)


def _summarised(item: Found) -> Summarised:
    from ..engine.decisions import from_core

    laid, found = cast("tuple[tuple[str, str, tuple[int, ...]], AnalysisFound | None]", item[9])
    states, points, table = laid
    analysis, plays = (None, ()) if found is None else from_core(len(item[1]), True, found)
    return Summarised(
        item[1],
        outcome_of(item),
        Scoring.by_points(table) if table else Scoring.classic(),
        tuple(marker[2] for marker in item[8]),
        tuple(_STATES[marker[1]] for marker in item[8]),
        states,
        points,
        analysis,
        plays,
    )


@dataclass(frozen=True, slots=True)
class Exported:
    """What ``ordo export`` writes of a record the core accepted, its plays
    plain and its deal in seat order (see ``Paged``), as CSV: its row of
    ``records`` from the column after ``game_key``, its rows of ``plays``
    and of ``states`` (each row beginning with NUL where its source and
    record go), and the text its game key is the hash of
    (``games.dealt_game_text``, as UTF-8)."""

    first_line: int
    records: str
    plays: str
    states: str
    game: bytes


def export_block(
    first_line: int, text: str, words: ExportWords
) -> list[Exported | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: what is
    ``Exported`` of each one the core accepted whose plays are plain and
    whose deal is in seat order, each other as ``(first line, text)``; None
    when there is no compiled core or it cannot cut this block. ``words``
    are the tables' (``views/tables.py``): a shared win's and the two rules'
    (shared, classic, points), the tags of ``records`` in its order,
    ``stats.deciding_words`` and what a tag's value is made inert after
    (``tables.FORMULA_STARTS``)."""
    if CHECK_BLOCK is None:
        return None
    _export_words(words)
    return _found_block(first_line, text, _EXPORT, _exported)


ExportWords = tuple[
    tuple[str, str, str], tuple[str, ...], Callable[[int, int], "tuple[str, str]"], str
]


@cache
def _export_words(words: ExportWords) -> None:
    from ._quick import configure_export

    configure_export(*words)


@dataclass(frozen=True, slots=True)
class Gamed:
    """What ``ordo dedup`` reads of a record the core accepted, its plays
    plain and its deal in seat order (see ``Paged``): its first line, its
    seats, its tags, how many markers it declares, and the text its game
    key is the hash of (as ``Exported.game``)."""

    first_line: int
    seats: int
    tags: tuple[tuple[str, str], ...]
    markers: int
    game: bytes


def gamed_block(first_line: int, text: str) -> list[Gamed | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: what is ``Gamed``
    of each one the core accepted whose plays are plain and whose deal is in
    seat order, each other as ``(first line, text)``; None when there is no
    compiled core or it cannot cut this block."""
    if CHECK_BLOCK is None:
        return None
    return _found_block(first_line, text, _EXPORT | _EXPORT_GAME, _gamed)


def _gamed(item: Found) -> Gamed:
    tags, game = cast("KeyFound", item[9])
    return Gamed(item[0], len(item[1]), tags, len(item[8]), game)


def _exported(item: Found) -> Exported:
    return Exported(item[0], *cast("tuple[str, str, str, bytes]", item[9]))


class Viewed(NamedTuple):
    """The records of a block on ``ordo view``'s page of every seat, as the
    core wrote those it accepted whose plays are plain: for each, its line
    in the list of records and its JSON (``page._record``'s), their strings
    as indices in ``values``, the block's; each other record as ``(first
    line, text)``. ``cards``: those the JSON holds, a bit by mask."""

    values: list[str]
    cards: int
    items: list[tuple[str, str] | Declined]


def viewed_block(first_line: int, text: str, words: ViewWords, analysed: bool) -> Viewed | None:
    """The records of a block as ``quick_block`` cuts them, ``Viewed``, with
    when each state was decided if ``analysed``; None when there is no
    compiled core or it cannot cut this block. ``words``: the page's
    (``page.core_words``, ``page.CODES``, ``page.NO_DRAW``) and the
    summary's (as ``summary_block`` takes them)."""
    if CHECK_BLOCK is None:
        return None
    page, summary = words
    _summary_words(summary)
    _view_words(page)
    if analysed:
        _tables()
    extra = _VIEW | (_VIEW_ANALYSED if analysed else 0)
    found = CHECK_BLOCK(text, first_line, tag_never_warned, extra)
    if found is None:
        return None
    _, items, values, cards = cast("Views", found)
    return Viewed(values, cards, items)


PageWords = tuple[Callable[..., tuple[str, ...]], str, str]
ViewWords = tuple[PageWords, SummaryWords]


@cache
def _view_words(words: PageWords) -> None:
    from ._quick import configure_view

    configure_view(*words)


def _archived(item: Found) -> str:
    return cast(str, item[9])


def _canonical(item: Found) -> str:
    return cast("tuple[str]", item[9])[0]
