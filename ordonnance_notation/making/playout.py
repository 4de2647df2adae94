"""Games played by the bots that choose by rules of thumb (``heuristics``),
in C where it was built (``_selfplay.c``, told the bots' values here): a
whole game from its deal (``PLAYS``, for ``selfplay``), or the rest of a
game from any point (``played_out``, the rollout bot's tries). The Python
bots play the same games where the core was not built or is not wanted
(``engine.compiled``). Below ``bots``, which has the rollout bot."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..engine import compiled
from ..engine.armies import PACKED
from ..engine.cards import Card, State
from ..engine.game import Table
from ..engine.rng import Rng, Stream64
from ..engine.scoring import Scoring, score
from .heuristics import COMPILED_BOTS, HEURISTIC_BOTS, bot_values

if TYPE_CHECKING:
    Plays = Callable[
        [
            tuple[tuple[int, ...], ...],
            tuple[int, ...],
            tuple[int, ...],
            tuple[Callable[[int], int], ...],
        ],
        list[tuple[int, int]],
    ]
    PlayedOut = Callable[
        [
            tuple[tuple[int, int], ...],
            tuple[tuple[int, ...], ...],
            tuple[int, ...],
            tuple[int, ...],
            tuple[Callable[[int], int] | int, ...],
            tuple[int, ...],
        ],
        tuple[int, tuple[int, ...]],
    ]


def _compiled() -> tuple[Plays, PlayedOut] | None:
    if not compiled.wanted():
        return None
    try:
        from ._selfplay import configure, played_out, plays
    except ImportError:
        return None
    configure(*bot_values(), tuple(PACKED))
    return plays, played_out


_CORE = _compiled()
PLAYS = _CORE[0] if _CORE else None
PLAYED_OUT = _CORE[1] if _CORE else None


def played_out(
    prefix: Sequence[tuple[Card, State]],
    hands: Sequence[Sequence[Card]],
    pile: Sequence[Card],
    bots: Sequence[str],
    streams: Sequence[Rng],
    fast: bool = True,
    scoring: Scoring | None = None,
) -> tuple[int | None, tuple[int, ...]]:
    """The game after the table's plays ``prefix``, the seats then holding
    ``hands`` and the pile ``pile``, played to its end by ``bots`` (named
    in ``HEURISTIC_BOTS``), each choosing with its stream: the winner (None:
    shared) by ``scoring`` (classic by default) and each seat's states. The bots play in C
    where it was built, the same plays as here (``fast=False``); a
    ``Stream64`` is run there from its state, and left as it was."""
    seats = len(bots)
    if fast and PLAYED_OUT is not None and all(name in COMPILED_BOTS for name in bots):
        winner, states = PLAYED_OUT(
            tuple((card.mask, state - 1) for card, state in prefix),
            tuple(tuple(card.mask for card in hand) for hand in hands),
            tuple(card.mask for card in pile),
            tuple(COMPILED_BOTS[name] for name in bots),
            tuple(
                stream.state if isinstance(stream, Stream64) else stream.below for stream in streams
            ),
            *(() if scoring is None or scoring.points is None else (scoring.points,)),
        )
        return (winner if winner >= 0 else None), states
    table = Table(seats)
    for card, state in prefix:
        table.play(card, state)
    game = replace(
        table.snapshot(), hands=tuple(tuple(hand) for hand in hands), pile=tuple(pile), drawn=0
    )
    players = [HEURISTIC_BOTS[name]() for name in bots]
    while not game.over:
        held = game.hand_to_play()
        assert held is not None  # dealt above
        game = game.play(*players[game.to_move].choose(game, held, streams[game.to_move]))[0]
    outcome = score(seats, game.resolutions, scoring or Scoring.classic())
    return outcome.winner, outcome.states
