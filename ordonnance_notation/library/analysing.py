"""The engine's questions about a record, asked in one call."""

from __future__ import annotations

from os import PathLike

from ..checking.report import Report
from ..checking.validator import validate
from ..making.judging import PLAYOUTS
from ..notation.record import Record, Unparsed
from ..views.analysis import RecordAnalysis, analysed
from ..views.judgement import Judging
from ..views.replay import Replay
from .reading import read_record


def analyse(
    item: Record | Unparsed | Report | Replay | str | PathLike[str],
    *,
    best_play: float | None = None,
    judge: bool = False,
    playouts: int = PLAYOUTS,
    seed: str = "",
) -> RecordAnalysis:
    """What ``ordo analyse`` says of a record (or a replay, or a file's first
    record): when each state was decided, from the cards on the table and
    in the hands (the locks); with ``best_play`` (seconds of CPU, the whole
    record's budget), the value of every position under best play with
    every card known and each play that changed it; with ``judge``, every
    play judged from what its seat could know (``playouts`` sampled deals
    a ply, from ``seed``), the win-chance graph with it. It prints as
    ``ordo analyse`` words it and draws in a notebook. A record whose header
    or deal has errors is analysed as far as that goes (``decided`` is
    None). Raises ValueError for a negative budget or fewer than one
    play-out, and what ``read_record`` raises, given a path."""
    if best_play is not None and not best_play >= 0:
        raise ValueError(f"best play needs a budget of 0 seconds or more, not {best_play}")
    if judge and playouts < 1:
        raise ValueError(f"judging needs at least one play-out a ply, not {playouts}")
    if isinstance(item, Replay):
        report = item.report
    elif isinstance(item, Report):
        report = item
    else:
        record = item if isinstance(item, (Record, Unparsed)) else read_record(item)
        report = validate(record)
    judging = Judging(playouts, seed) if judge else None
    return analysed(report, best_play, judging)
