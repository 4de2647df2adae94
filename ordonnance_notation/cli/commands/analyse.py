"""``ordo analyse`` (and ``analyze``, as American English spells it)."""

from __future__ import annotations

import sys

from ..making import Judge, JudgeDeck, JudgeSeed, Playouts, judging
from ..options import (
    BestPlay,
    BudgetOption,
    Format,
    FormatOption,
    Jobs,
    Paths,
    Scheduler,
)
from ..running import Run
from ..streams import frozen_heap, parted, workers

NAME = "analyse"
SHORT = "When each state and the game were decided, and who gave them away."


def command(
    paths: Paths,
    format: FormatOption = Format.text,
    jobs: Jobs = 0,
    best_play: BestPlay = False,
    budget: BudgetOption = 10.0,
    judge: Judge = False,
    playouts: Playouts = 4000,
    judge_seed: JudgeSeed = "",
    judge_deck: JudgeDeck = None,
    scheduler: Scheduler = None,
) -> None:
    """For each record: the ply after which each state's winner was certain,
    whatever anyone played next (from the cards each seat would receive,
    when the record has its deal; against any cards, when not), the same
    for the game, and the plays after which a seat could no longer win what
    it could win before, with the plays from its hand that would have kept
    the chance. With --judge, first, every play judged by what its seat
    could know: its win chance before and after, over deals of the cards
    it had not seen, each played out by careful bots; the plays that lost
    a clear chance graded, and each seat's accuracy. With --best-play, the
    value of every position under best play (every card known), each play
    that lost value, the plays that kept it, and each seat's accuracy.
    --scheduler spreads the records over a Dask cluster (the same output).
    Exit 1 when a record is invalid, as validate (its plays are analysed as
    far as the rules replayed them).
    """
    from ...views.analysis import analyses
    from ...views.report import json_document

    run = Run()
    how = judging(run, judge, playouts, judge_seed, judge_deck)
    with run.progress("analysing") as progress, workers(run, jobs, scheduler, paths) as pool:
        laid = analyses(paths, format.value, pool, budget if best_play else None, how)
        entries = run.told(frozen_heap(iter(laid)))
        pieces = json_document(entries) if format is Format.json else parted(entries)
        for piece in pieces:
            sys.stdout.write(piece)
            if laid.slow:  # each record shown once done
                sys.stdout.flush()
            progress.advance()
    raise run.exit(failed=laid.invalid > 0)
