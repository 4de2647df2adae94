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

The same pass gives back, for the commands that read more of an accepted
record, the record as replayed (``replayed_block``: ``Replayed``); every
view and archive is written from it in Python (docs/core.md says what
crosses the boundary and why).

The core is built by ``pip install .`` where a C compiler is present; where
it is not, or with ``ORDO_PURE_PYTHON=1`` in the environment
(``engine/compiled.py``), every record takes the Python path
(``ordo --version`` says which).
tests/test_quick.py holds the two paths to the same output on every corpus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
    from ._quick import Accepted, AnalysisFound, Declined, Found

    Checks = tuple[int, list[Declined | Accepted | Found]]
    CheckBlock = Callable[..., Checks | None]


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
    count, items = found
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
    found = CHECK_BLOCK(text, first_line, tag_never_warned, extra, *through)
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


class ReplayedFound(NamedTuple):
    """A record the core accepted, as replayed but without its ``Analysis``,
    and its analysis as the core found it (``decisions.from_core`` reads it):
    for a writer that reads the analysis as found, which costs less than
    making the ``Analysis`` of every record (``views/page.py``)."""

    replayed: Replayed
    found: AnalysisFound


def replayed_found_block(first_line: int, text: str) -> list[ReplayedFound | Declined] | None:
    """``replayed_block(first_line, text, analysed=True)``, each accepted
    record as ``ReplayedFound``."""
    if CHECK_BLOCK is None:
        return None
    _values()
    _tables()
    return _found_block(first_line, text, _REPLAY | _REPLAY_ANALYSED, _replayed_found)


def _replayed_found(item: Found) -> ReplayedFound:
    found = item[9]
    unanalysed = cast("Found", (*item[:9], (*found[:8], None)))
    return ReplayedFound(_replayed(unanalysed), cast("AnalysisFound", found[8]))


@cache
def _values() -> None:
    """The values a record as replayed holds, made once and told the core:
    each card by its mask, each play by the core's play code."""
    from ._quick import configure_values

    configure_values(tuple(_CARDS.get(mask) for mask in range(32)), tuple(PLAYS_BY_CODE))


_CLASSIC = Scoring.classic()


def _replayed(item: Found) -> Replayed:
    (tags, text), hands, pile, plays, points, plain, ranked, by_rule, found = item[9]
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
