"""Dealt and self-played games, written as canonical records.

Game ``k`` (from 1) of an archive with seed ``S`` uses the seed ``S/k``: its
deal is shuffled with the stream ``S/k/deal`` and seat ``Pn`` decides with the
stream ``S/k/Pn`` (engine.rng), so every game can be replayed on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import compiled
from ..engine.armies import PACKED
from ..engine.cards import Card, seat_name
from ..engine.game import STATES, Deal, Game, Table, Turn
from ..engine.rng import Rng
from ..engine.scoring import DEFAULT_POINTS, Outcome, Scoring, score
from ..notation import writer
from .bots import COMPILED_BOTS, Bot, bot, bot_values
from .dealing import Deck, deal

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


def _compiled() -> Plays | None:
    if not compiled.wanted():
        return None
    try:
        from ._selfplay import configure, plays
    except ImportError:
        return None
    configure(*bot_values(), tuple(PACKED))
    return plays


PLAYS = _compiled()


def play_game(
    seed: str, bots: Sequence[str], deck: Deck, scoring: Scoring = CLASSIC, fast: bool = True
) -> SelfPlayed:
    """One complete game between ``bots`` (one name per seat, P1 first).
    Between the built-in bots the plays are chosen in C where it was built
    (``_selfplay.c``), the same plays as here (``fast=False``)."""
    seats = len(bots)
    dealt = deal(deck, seats, seed)
    streams = [Rng(f"{seed}/{seat_name(seat)}") for seat in range(seats)]
    if fast and PLAYS is not None and all(name in COMPILED_BOTS for name in bots):
        table = Table(seats, dealt)
        hands = tuple(tuple(card.mask for card in hand) for hand in dealt.hands)
        kinds = tuple(COMPILED_BOTS[name] for name in bots)
        below = tuple(stream.below for stream in streams)
        chosen = PLAYS(hands, tuple(card.mask for card in dealt.pile), kinds, below)
        turns = [table.play(Card(mask), STATES[state]) for mask, state in chosen]
        game = table.snapshot()
    else:
        game, turns = _played(dealt, [bot(name) for name in bots], streams)
    outcome = score(seats, game.resolutions, scoring)
    return SelfPlayed(seed, tuple(bots), scoring, deck.name, dealt, tuple(turns), game, outcome)


def _played(dealt: Deal, players: list[Bot], streams: list[Rng]) -> tuple[Game, list[Turn]]:
    game = Game.new(len(players), dealt)
    turns = []
    while not game.over:
        seat = game.to_move
        hand = game.hand_to_play()
        assert hand is not None
        card, state = players[seat].choose(game, hand, streams[seat])
        game, turn = game.play(card, state)
        turns.append(turn)
    return game, turns


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
    seats = len(played.bots)
    winner = "shared" if played.outcome.winner is None else seat_name(played.outcome.winner)
    tags = [
        ("Notation", "1"),
        ("Event", event),
        ("Result", winner),
        ("Seed", played.seed),
        ("Deck", played.deck),
        ("Generator", GENERATOR),
        *_scoring_tags(played.scoring),
    ]
    if round is not None:
        tags.append(("Round", str(round)))
    tags += [(seat_name(s), name) for s, name in enumerate(played.bots)]
    body: list[dict[str, Any]] = []
    for turn in played.turns:
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
    body.append(
        {
            "result": winner,
            "scores": [[seat_name(s), v] for s, v in enumerate(played.outcome.scores)],
        }
    )
    return writer.text({"tags": _tags(tags), "deal": _deal(played.deal), "body": body})
