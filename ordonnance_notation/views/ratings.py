"""Ratings of players from the games of archives, in date order, by
OpenSkill's Plackett-Luce model: it rates games of any number of seats from
each seat's place, ties included, and says how sure it is of each rating.

A player's ``rating`` is OpenSkill's ordinal, mu - 3 sigma: a rating the
player is very likely above, which grows with games as sigma shrinks. Games
are rated oldest first by their Date tag (a day, or a month or year alone);
games without a date come after, in input order. A game with the same name
in two seats cannot be rated and is counted apart. OpenSkill is an optional
dependency (``pip install 'ordonnance-notation[ratings]'``), imported here only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from .report import Json
from .stats import Played

if TYPE_CHECKING:
    from openskill.models import PlackettLuceRating


@dataclass(frozen=True, slots=True)
class Rating:
    player: str
    rating: float  # mu - 3 sigma
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class Ratings:
    players: tuple[Rating, ...]  # best first
    games: int  # games rated
    unrated: int  # games with a name in two seats

    def to_json(self) -> dict[str, Json]:
        return {
            "model": "OpenSkill Plackett-Luce",
            "games": self.games,
            "unrated": self.unrated,
            "players": [asdict(r) for r in self.players],
        }


def rate(played: Sequence[Played]) -> Ratings:
    """Every player's rating after ``played``, taken in date order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, PlackettLuceRating] = {}
    games: Counter[str] = Counter()
    unrated = 0
    dated = sorted(
        range(len(played)), key=lambda n: (played[n].date is None, played[n].date or (), n)
    )
    for n in dated:
        game = played[n]
        if len(set(game.names)) < len(game.names):
            unrated += 1
            continue
        teams = [[ratings.get(name) or model.rating(name=name)] for name in game.names]
        for name, [after] in zip(
            game.names, model.rate(teams, ranks=list(game.places)), strict=True
        ):
            ratings[name] = after
            games[name] += 1
    rows = [Rating(name, r.ordinal(), r.mu, r.sigma, games[name]) for name, r in ratings.items()]
    rows.sort(key=lambda r: (-r.rating, r.player))
    return Ratings(tuple(rows), len(played) - unrated, unrated)


def render_ratings(ratings: Ratings) -> str:
    out = [
        f"ratings (OpenSkill Plackett-Luce, {ratings.games} games in date order"
        + (f", {ratings.unrated} with a name in two seats left out" if ratings.unrated else "")
        + ")",
        f"  {'#':>3}  {'player':<24} {'rating':>7} {'mu':>6} {'sigma':>6} {'games':>6}",
    ]
    for place, r in enumerate(ratings.players, 1):
        out.append(
            f"  {place:>3}  {r.player[:24]:<24} {r.rating:>7.2f} {r.mu:>6.2f} {r.sigma:>6.2f} "
            f"{r.games:>6}"
        )
    return "\n".join(out) + "\n"
