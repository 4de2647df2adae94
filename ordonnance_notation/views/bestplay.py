"""A record's plays under best play, in words and as JSON: what ``ordo
analyse --best-play`` adds to each record (``engine.bestplay`` finds it)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..checking.report import Report
from ..engine.bestplay import BestPlay, Scored, Value, best_play, solvable
from ..engine.budget import Budget
from ..engine.cards import Card, State, seat_name
from ..engine.game import Game
from ..engine.scoring import Scoring
from ..notation.games import PLAY_WORDS
from .report import Json

_SHOWN = 3  # the plays named that kept the value; the rest counted


@dataclass(frozen=True, slots=True, repr=False)
class BestPlayView:
    """A record's best-play scoring (``found``; None where best play is not
    defined, ``why`` says why), its plays as written and its budget (CPU
    seconds a record; math.inf: unlimited)."""

    found: BestPlay | None
    plays: tuple[str, ...]
    seats: int
    budget: float
    why: str | None = None

    def __repr__(self) -> str:
        return f"<BestPlayView of {len(self.plays)} plies: print it for its words>"

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def lines(self) -> list[str]:
        """The scoring in sentences: where the values are exact, the value
        there, each mistake, and each seat's accuracy."""
        found = self.found
        if found is None:
            return [f"Best play is not defined here: {self.why}."]
        out = [self._reach(found)]
        out += [self._mistake(scored) for scored in found.mistakes()]
        out.append(self._accuracy(found))
        return out

    def story(self) -> str:
        """The game under best play in a sentence: ``"P2 was winning with
        best play from ply 17; P1's `LB A` at ply 39 lost it (`BF A` kept
        the win)"``."""
        found = self.found
        if found is None:
            return f"Best play is not defined here: {self.why}."
        first = found.exact_from
        if first is None:
            return f"Best play: no position was solved within the budget of {self.budget:g} s."
        leader = _winning(found.values[first])
        beyond = "" if first == 0 else " (the budget did not reach the plies before it)"
        said = [
            f"{seat_name(leader)} was winning with best play from "
            + ("the first ply" if first == 0 else f"ply {first}")
            if leader is not None
            else "no seat could force a win from "
            + ("the first ply" if first == 0 else f"ply {first}")
        ]
        said[0] += beyond
        for scored in found.plies[first:]:
            now = _winning(scored.after)
            if now == leader:
                continue
            play = f"{seat_name(scored.seat)}'s `{self.plays[scored.ply - 1]}` at ply {scored.ply}"
            if scored.lost_win:
                kept = f" (`{PLAY_WORDS[scored.best[0]]}` kept the win)" if scored.best else ""
                said.append(f"{play} lost it{kept}")
            if now is not None:
                said.append(f"{seat_name(now)} was winning from ply {scored.ply}")
            leader = now
        return "; ".join(said) + "."

    def _reach(self, found: BestPlay) -> str:
        first, plies = found.exact_from, len(self.plays)
        if first is None:
            return (
                f"Best play: no position was solved within the budget of {self.budget:g} s; "
                f"at the end of the record, {_value_words(found.values[-1])}."
            )
        where = (
            "from the first ply"
            if first == 0
            else f"from ply {first} of {plies} (the budget of {self.budget:g} s "
            "did not reach the plies before it)"
        )
        return f"Best play is exact {where}: there, {_value_words(found.values[first])}."

    def _mistake(self, scored: Scored) -> str:
        who = seat_name(scored.seat)
        play = self.plays[scored.ply - 1]
        if scored.lost_win:
            what = "lost the win"
        elif scored.given:
            what = f"gave away {_states(scored.given)}"
        else:
            what = "lost what best play would have kept"
        said = f"{who}'s `{play}` at ply {scored.ply} {what}"
        mine = scored.before.of(scored.seat), scored.after.of(scored.seat)
        if mine[0] is not None and mine[1] is not None:
            said += f" ({mine[0][0]} states with best play, then {mine[1][0]})"
        if scored.best:
            kept = [f"`{PLAY_WORDS[play]}`" for play in scored.best[:_SHOWN]]
            more = len(scored.best) - _SHOWN
            shown = (
                " or ".join(kept)
                if more <= 0
                else f"{', '.join(kept)} or {more} other {'play' if more == 1 else 'plays'}"
            )
            said += f"; {shown} would have kept it"
        return said + "."

    def _accuracy(self, found: BestPlay) -> str:
        parts = []
        for seat in range(self.seats):
            kept, scored = found.accuracy(seat)
            mistakes = len(found.mistakes(seat))
            share = f" ({100 * kept / scored:.0f}%)" if scored else ""
            parts.append(
                f"{seat_name(seat)} {kept} of {scored} plays{share}, "
                f"{mistakes} {'mistake' if mistakes == 1 else 'mistakes'}"
            )
        return "Accuracy (plays that kept the value, of those scored): " + "; ".join(parts) + "."

    def to_json(self) -> dict[str, Json]:
        found = self.found
        if found is None:
            return {"defined": False, "why": self.why}
        return {
            "defined": True,
            "budget": self.budget if math.isfinite(self.budget) else None,  # None: unlimited
            "exact_from": found.exact_from,
            "values": [_value_json(ply, value) for ply, value in enumerate(found.values)],
            "mistakes": [self._mistake_json(scored) for scored in found.mistakes()],
            "accuracy": {
                seat_name(seat): dict(zip(("kept", "scored"), found.accuracy(seat), strict=True))
                for seat in range(self.seats)
            },
        }

    def for_page(self, values: Callable[[str], int]) -> dict[str, Json]:
        """The record under best play for ``ordo view``'s strip, its words
        as ``values`` numbers them in the page's table: its story, the first
        position from which values are exact, by position the seat that wins
        with best play (-1: none can force a win; None: not known) and at two
        seats P1's states ([low, high]), and each mistake as [ply, seat, lost
        the win, states given away, the plays that kept the value]."""
        found = self.found
        if found is None:
            return {"story": values(self.story()), "from": None, "winners": [], "states": None}
        return {
            "story": values(self.story()),
            "from": found.exact_from,
            "winners": [
                next((s for s, won in enumerate(value.forced) if won), -1 if value.exact else None)
                for value in found.values
            ],
            "states": None
            if self.seats != 2
            else [list(value.states or ()) for value in found.values],
            "mistakes": [
                [m.ply, m.seat, m.lost_win, m.given, [values(PLAY_WORDS[p]) for p in m.best]]
                for m in found.mistakes()
            ],
        }

    def _mistake_json(self, scored: Scored) -> dict[str, Json]:
        return {
            "ply": scored.ply,
            "seat": seat_name(scored.seat),
            "play": self.plays[scored.ply - 1],
            "lost_win": scored.lost_win,
            "states_given": scored.given,
            "kept_by": [PLAY_WORDS[play] for play in scored.best],
        }


def _winning(value: Value) -> int | None:
    """The seat that wins with best play (forces a win), if one does."""
    return next((seat for seat, won in enumerate(value.forced) if won), None)


def _states(n: int) -> str:
    return f"{n} state" if n == 1 else f"{n} states"


def _value_words(value: Value) -> str:
    """``"P1 gets 2 states and P2 3: P2 wins"``, or what is proved of it."""
    if value.states is not None:
        low, high = value.states
        other = value.of(1)
        if low == high and other is not None:
            winner = _winning(value)
            return (
                f"P1 gets {_states(low)} and P2 {other[0]} with best play: "
                f"{seat_name(winner or 0)} wins"
            )
        return f"P1 gets {low} to {high} states with best play (not solved further)"
    sure = [seat_name(s) for s, won in enumerate(value.forced) if won]
    unknown = [seat_name(s) for s, won in enumerate(value.forced) if won is None]
    if sure:
        said = f"{sure[0]} can force a win against all the others"
    elif unknown:
        said = "whether " + " or ".join(unknown) + " can force a win is not known"
    else:
        said = "no seat can force a win against all the others"
    if value.selfish is not None:
        scores = ", ".join(
            f"{seat_name(seat)} {score}" for seat, score in enumerate(value.selfish.scores)
        )
        ahead = value.selfish.winner
        said += f"; with every seat playing for itself: {scores}" + (
            f", {seat_name(ahead)} wins" if ahead is not None else ", the win shared"
        )
    return said


def _value_json(ply: int, value: Value) -> dict[str, Json]:
    states: Json = None
    if value.states is not None:
        states = {seat_name(seat): list(value.of(seat) or ()) for seat in range(value.seats)}
    selfish: Json = None
    if value.selfish is not None:
        winner = value.selfish.winner
        selfish = {
            "scores": {seat_name(s): n for s, n in enumerate(value.selfish.scores)},
            "winner": None if winner is None else seat_name(winner),
        }
    return {
        "ply": ply,
        "exact": value.exact,
        "states": states,
        "forced_win": {seat_name(s): won for s, won in enumerate(value.forced)},
        "every_seat_for_itself": selfish,
    }


def scored_record(report: Report, seconds: float) -> BestPlayView | None:
    """A validated record's plays under best play, within ``seconds``; None
    when the header could not be read."""
    game = report.game
    if game is None:
        return None
    plays: Sequence[tuple[Card, State]] = [(turn.card, turn.state) for turn in report.turns]
    spelt = tuple(PLAY_WORDS[play] for play in plays)
    start = Game.new(game.seats, report.deal)
    why = solvable(start)
    if why is not None:
        return BestPlayView(None, spelt, game.seats, seconds, why)
    found = best_play(start, plays, report.scoring or Scoring.classic(), Budget(seconds))
    return BestPlayView(found, spelt, game.seats, seconds)
