"""Dealt and self-played games, written as canonical records.

Game ``k`` (from 1) of an archive with seed ``S`` uses the seed ``S/k``: its
deal is shuffled with the stream ``S/k/deal`` and seat ``Pn`` decides with the
stream ``S/k/Pn`` (engine.rng), so every game can be replayed on its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card, seat_name
from ..engine.game import STATES, Deal, Game, Table, Turn
from ..engine.rng import Rng
from ..engine.scoring import DEFAULT_POINTS, Outcome, Scoring, score
from ..notation import writer
from .dealing import Deck, deal
from .heuristics import COMPILED_BOTS
from .players import Builtin
from .playout import PLAYS
from .table import play_table

GENERATOR = "ordonnance_notation 0.1.0"
CLASSIC = Scoring.classic()


@dataclass(frozen=True, slots=True)
class SelfPlayed:
    seed: str
    bots: tuple[str, ...]
    scoring: Scoring
    deck: str
    deal: Deal
    turns: tuple[Turn, ...]
    game: Game
    outcome: Outcome


def play_game(
    seed: str, bots: Sequence[str], deck: Deck, scoring: Scoring = CLASSIC, fast: bool = True
) -> SelfPlayed:
    """One complete game between ``bots`` (one name per seat, P1 first),
    dealt from ``seed``."""
    return play_deal(deal(deck, len(bots), seed), seed, bots, deck.name, scoring, fast)


def play_deal(
    dealt: Deal,
    seed: str,
    bots: Sequence[str],
    deck: str,
    scoring: Scoring = CLASSIC,
    fast: bool = True,
    streams: str | None = None,
) -> SelfPlayed:
    """One complete game between built-in ``bots`` from ``dealt`` (dealt from
    ``seed``); seat Pn chooses with the stream ``<streams>/Pn`` (default:
    ``seed``). The plays are chosen in C where it was built
    (``_selfplay.c``), the same plays as at the table here (``fast=False``)."""
    seats = len(bots)
    streams = seed if streams is None else streams
    if fast and PLAYS is not None and all(name in COMPILED_BOTS for name in bots):
        table = Table(seats, dealt)
        hands = tuple(tuple(card.mask for card in hand) for hand in dealt.hands)
        kinds = tuple(COMPILED_BOTS[name] for name in bots)
        below = tuple(Rng(f"{streams}/{seat_name(seat)}").below for seat in range(seats))
        chosen = PLAYS(hands, tuple(card.mask for card in dealt.pile), kinds, below)
        turns = tuple(table.play(Card(mask), STATES[state]) for mask, state in chosen)
        game = table.snapshot()
        outcome = score(seats, game.resolutions, scoring)
    else:
        played = play_table(dealt, [Builtin(name) for name in bots], scoring, streams)
        assert played.outcome is not None  # built-in bots make only legal plays
        game, turns, outcome = played.game, played.turns, played.outcome
    return SelfPlayed(seed, tuple(bots), scoring, deck, dealt, turns, game, outcome)


def play_archive(
    seed: str, games: int, bots: Sequence[str], deck: Deck, scoring: Scoring = CLASSIC
) -> Iterator[SelfPlayed]:
    for k in range(1, games + 1):
        yield play_game(f"{seed}/{k}", bots, deck, scoring)


def _scoring_tags(scoring: Scoring) -> list[tuple[str, str]]:
    if scoring.points is None:
        return [("Scoring", "classic")]
    tags = [("Scoring", "points")]
    if scoring.points != DEFAULT_POINTS:
        tags.append(("Points", " ".join(map(str, scoring.points))))
    return tags


def _deal(dealt: Deal) -> list[dict[str, str | list[str]]]:
    hands: list[dict[str, str | list[str]]] = [
        {"hand": seat_name(s), "cards": [str(c) for c in hand]}
        for s, hand in enumerate(dealt.hands)
    ]
    return [*hands, {"pile": [str(c) for c in dealt.pile]}]


def _tags(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"name": name, "value": value} for name, value in pairs]


def deal_text(
    dealt: Deal, seed: str, deck: str, names: Sequence[str], scoring: Scoring, event: str = "Deal"
) -> str:
    """A record holding only the header and the deal, declared unfinished."""
    tags = [
        ("Notation", "1"),
        ("Event", event),
        ("Result", "unfinished"),
        ("Seed", seed),
        ("Deck", deck),
        ("Generator", GENERATOR),
        *_scoring_tags(scoring),
    ]
    tags += [(seat_name(s), name) for s, name in enumerate(names)]
    return writer.text({"tags": _tags(tags), "deal": _deal(dealt)})


def game_text(played: SelfPlayed, event: str = "Self-play", round: int | None = None) -> str:
    """The canonical record of a self-played game: deal, plays, declared
    resolutions and result, with seats written out for 3-4 seats."""
    return record_text(
        played.seed,
        played.bots,
        played.scoring,
        played.deck,
        played.deal,
        played.turns,
        played.outcome,
        event,
        round,
    )


def record_text(
    seed: str,
    names: Sequence[str],
    scoring: Scoring,
    deck: str,
    dealt: Deal,
    turns: Sequence[Turn],
    outcome: Outcome | None,
    event: str,
    round: int | None = None,
    comment: str | None = None,
) -> str:
    """The canonical record of a game played from ``dealt``: declared
    unfinished when ``outcome`` is None (a game stopped before its end);
    ``comment``, if any, opens the record (one line)."""
    seats = len(names)
    if outcome is None:
        result = "unfinished"
    else:
        result = "shared" if outcome.winner is None else seat_name(outcome.winner)
    tags = [
        ("Notation", "1"),
        ("Event", event),
        ("Result", result),
        ("Seed", seed),
        ("Deck", deck),
        ("Generator", GENERATOR),
        *_scoring_tags(scoring),
    ]
    if round is not None:
        tags.append(("Round", str(round)))
    tags += [(seat_name(s), name) for s, name in enumerate(names)]
    body: list[dict[str, Any]] = []
    for turn in turns:
        play = {"ply": turn.ply, "card": str(turn.card), "state": turn.state.name}
        if seats > 2:
            play["seat"] = seat_name(turn.seat)
        body.append(play)
        if turn.resolution is not None:
            resolution = turn.resolution
            body.append(
                {
                    "marker": resolution.marker,
                    "state": resolution.state.name,
                    "seat": seat_name(resolution.winner),
                }
            )
    if outcome is not None:
        body.append(
            {"result": result, "scores": [[seat_name(s), v] for s, v in enumerate(outcome.scores)]}
        )
    record: dict[str, Any] = {"tags": _tags(tags), "deal": _deal(dealt), "body": body}
    if comment is not None:
        record["comments"] = [{"line": comment}]
    return writer.text(record)
