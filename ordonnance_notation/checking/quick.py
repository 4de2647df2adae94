"""The quick check: the verdicts of plainly written records from the compiled
core (``_quick.c``), the Python validator for every other record.

The core cuts a block into records as ``split_lines`` does (the table of
``notation/cut_table.py``, which both follow) and accepts a
record only when the Python validator would find nothing to report in it:
every word spelt the usual way, every play legal, the declared markers and
result as replayed. It gives back what the report of such a record says;
any other record it declines, and its text is checked here in Python, which
words every diagnostic. A block holding a line it cannot tell the kind of
(a comment, a quote out of a tag line, a tab) it declines whole.

The same pass gives back more of an accepted record for the commands that
read it: the record as replayed (``replayed_block``: ``Replayed``, what
every view reads), and whether it is written in the canonical form
already (``canonical_block``: ``ordo fmt``). For the commands whose output is
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
from ..engine.decisions import PLAYS_BY_CODE, from_core
from ..engine.game import Deal
from ..engine.scoring import DEFAULT_POINTS, Outcome, Scoring, TieBreak
from ..notation.terminals import GLYPHS
from .header import tag_never_warned
from .replayed import Replayed
from .report import players_of, report_json
from .verdicts import Checked, Task, check_task

if TYPE_CHECKING:
    from ..engine.decisions import Analysis
    from ._quick import Accepted, AnalysisFound, Declined, Found, ReplayFound

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
_REPLAY = 4  # what else an accepted record's verdict carries: what Replayed holds
_REPLAY_ANALYSED, _REPLAY_DECIDED = 1, 2  # and what else, as bits
_ARCHIVE, _ARCHIVE_JSON = 16, 1  # an archive's piece, and as a bit JSON's
_SUMMARY, _SUMMARY_ANALYSED, _EXPORT = 32, 1, 64  # a summary's, with the analysis; export's
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


T = TypeVar("T")


def _found_block(
    first_line: int, text: str, extra: int, made: Callable[[Found], T], *through: int
) -> list[T | Declined] | None:
    """``CHECK_BLOCK``'s records with ``extra`` (and ``through``, the ply
    ``_REPLAY_DECIDED`` asks about), each accepted one ``made``."""
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


def replayed_block(
    first_line: int, text: str, analysed: bool = False, decided_by: int | None = None
) -> list[Replayed | Declined] | None:
    """The records of a block as ``quick_block`` cuts them: each one the core
    accepted as ``Replayed`` (with its analysis if ``analysed``; given
    ``decided_by``, with the ply after which the game was decided if it was
    by that ply), each other as ``(first line, text)`` for the Python path;
    None when there is no compiled core or it cannot cut this block."""
    if CHECK_BLOCK is None:
        return None
    _values()
    if analysed or decided_by is not None:
        _tables()
    if decided_by is None:
        extra = _REPLAY | (_REPLAY_ANALYSED if analysed else 0)
        return _found_block(first_line, text, extra, _replayed)
    through = min(max(decided_by, 0), 1 << 16)  # no game is longer; the core takes an int
    return _found_block(first_line, text, _REPLAY | _REPLAY_DECIDED, _replayed, through)


@cache
def _values() -> None:
    """The values a record as replayed holds, made once and told the core:
    each card by its mask, each play by the core's play code."""
    from ._quick import configure_values

    configure_values(tuple(_CARDS.get(mask) for mask in range(32)), tuple(PLAYS_BY_CODE))


_CLASSIC = Scoring.classic()


def _replayed(item: Found) -> Replayed:
    (tags, text), hands, pile, plays, points, plain, ranked, by_rule, found = cast(
        "ReplayFound", item[9]
    )
    analysis = decided = None
    if isinstance(found, int):
        decided = found
    elif found is not None:
        analysis = from_core(len(item[1]), True, found)[0]
        decided = analysis.decided
    return Replayed(
        item[0],
        item[1],
        tags,
        text,
        outcome_of(item),
        Scoring.by_points(points) if points else _CLASSIC,
        tuple([(m, _STATES[s], seat, ply) for m, s, seat, ply in item[8]]),
        Deal(hands, pile),
        plays,
        plain & 3 != 0,
        plain & 3 == 2,
        plain & 4 != 0,
        ranked,
        by_rule,
        analysis,
        decided,
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
    ``Replayed``), with its analysis and plays if ``analysed``, each other as
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
    plain and its deal in seat order (see ``Replayed``), as CSV: its row of
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
