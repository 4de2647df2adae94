"""Deals and games between the built-in bots."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..engine.game import Deal
from ..engine.scoring import Scoring
from ..making.bots import BOTS
from ..making.dealing import deal as deal_from
from ..making.dealing import load_deck
from ..making.selfplay import game_text, play_game
from ..notation.parser import parse_text
from ..views.replay import Replay

BOT_NAMES = tuple(BOTS)  # what play_bots takes: docs/api.md says it to users


def deal(seats: int, seed: str | int, deck: str | Path | None = None) -> Deal:
    """The deal ``ordo deal`` makes for ``seats`` from ``seed`` (the same
    seed, the same deal, on every machine), from the bundled deck or a deck
    file. Raises ValueError for a seat count outside 2-4 and DeckError for a
    deck file that cannot be read."""
    if not 2 <= seats <= 4:
        raise ValueError(f"Ordonnance is played by 2 to 4 seats, not {seats}")
    return deal_from(load_deck(deck), seats, str(seed))


def play_bots(
    bots: Sequence[str],
    seed: str | int = "",
    *,
    deck: str | Path | None = None,
    points: bool = False,
) -> Replay:
    """A whole game between built-in bots (one name a seat, P1 first: see
    ``BOT_NAMES``), dealt from ``seed``, with classic scoring or ``points``;
    the record ``ordo selfplay`` writes, replayed. Raises ValueError for an
    unknown bot or a seat count outside 2-4, DeckError for a deck file that
    cannot be read."""
    unknown = [name for name in bots if name not in BOTS]
    if unknown:
        raise ValueError(f"no bot called {unknown[0]!r}: the bots are {', '.join(BOT_NAMES)}")
    if not 2 <= len(bots) <= 4:
        raise ValueError(f"Ordonnance is played by 2 to 4 seats, not {len(bots)}")
    scoring = Scoring.by_points() if points else Scoring.classic()
    played = play_game(str(seed), bots, load_deck(deck), scoring)
    [record] = parse_text(game_text(played), f"<{' v '.join(bots)}, seed {seed!r}>")
    return Replay.of(record)
