"""A record's plays judged from each seat's view, in words and as JSON:
what ``ordo analyse --judge`` puts first for each record
(``making.judging`` finds it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from typing import TypeVar

from ..checking.report import Report
from ..diagnostics import InputError
from ..engine.cards import Card, State, seat_name
from ..engine.game import Game
from ..engine.seatview import UnknownDeal
from ..making.dealing import Deck, boxes_for
from ..making.judging import (
    GRADES,
    PLAYOUTS,
    JudgedPly,
    Judgement,
    PlyTask,
    RecordJudgement,
    Spread,
    judge_record,
)
from ..notation.games import PLAY_WORDS
from ..runs.workers import Pool, Workers
from .picture import escape
from .report import Json

W = TypeVar("W", bound=Pool)
_ORDER = [word for _, word in GRADES]  # blunder, mistake, inaccuracy


@dataclass(frozen=True, slots=True, repr=False)
class JudgementView:
    """A record's judgement (``found``; None where it cannot be judged,
    ``why`` says why) and its plays as written."""

    found: RecordJudgement | None
    plays: tuple[str, ...]
    seats: int
    why: str | None = None

    def __repr__(self) -> str:
        return f"<JudgementView of {len(self.plays)} plies: print it for its words>"

    def lines(self) -> list[str]:
        """The judgement in sentences: what it is, each seat's accuracy and
        graded plays, then each graded play."""
        found = self.found
        if found is None:
            return [f"The plays cannot be judged from the seats' view: {self.why}."]
        out = [
            "Judged from what each seat could know (its hand, the table, the deck; "
            f"the cards it had not seen dealt at random, each deal played out by "
            f"{found.policy} bots, {found.playouts:,} play-outs a ply"
            + (f", seed {found.seed!r}):" if found.seed else "):")
        ]
        out.append(self._accuracy(found) + ".")
        out += [self._graded(judged) for judged in found.graded()]
        return out

    def _accuracy(self, found: RecordJudgement) -> str:
        parts = []
        for seat in range(self.seats):
            accuracy = found.accuracy(seat)
            if accuracy is None:
                continue
            counts = [
                (word, sum(1 for j in found.graded() if j.seat == seat and j.grade == word))
                for word in _ORDER
            ]
            named = ", ".join(f"{n} {_plural(word, n)}" for word, n in counts if n)
            parts.append(f"{seat_name(seat)} {accuracy:.0f}%" + (f" ({named})" if named else ""))
        return "Accuracy: " + "; ".join(parts) if parts else "No play was made to judge"

    def _graded(self, judged: JudgedPly) -> str:
        loss = judged.loss
        best = judged.judgement.best.play
        return (
            f"Ply {judged.ply}: {seat_name(judged.seat)}'s `{self.plays[judged.ply - 1]}` "
            f"was {'an' if judged.grade == 'inaccuracy' else 'a'} {judged.grade}: "
            f"win chance {_percent(judged.before)} before, {_percent(judged.after)} after "
            f"({_points(loss.loss)} points lost, {_points(loss.low)} to {_points(loss.high)}); "
            f"`{PLAY_WORDS[best]}` was best."
        )

    def to_json(self) -> dict[str, Json]:
        found = self.found
        if found is None:
            return {"judged": False, "why": self.why}
        return {
            "judged": True,
            "policy": found.policy,
            "playouts": found.playouts,
            "seed": found.seed,
            "accuracy": {
                seat_name(seat): _rounded(found.accuracy(seat)) for seat in range(self.seats)
            },
            "plies": [self._ply_json(judged) for judged in found.plies],
        }

    def _ply_json(self, judged: JudgedPly) -> dict[str, Json]:
        loss = judged.loss
        best = judged.judgement.best
        played = judged.judgement.value_of(judged.play)
        return {
            "ply": judged.ply,
            "seat": seat_name(judged.seat),
            "play": self.plays[judged.ply - 1],
            "before": _rounded(judged.before),
            "after": _rounded(judged.after),
            "loss": _rounded(loss.loss),
            "loss_interval": [_rounded(loss.low), _rounded(loss.high)],
            "grade": judged.grade,
            "best": PLAY_WORDS[best.play],
            "expected_states": _rounded(played.expected_states),
            "deals": loss.deals if judged.play != best.play else played.tries,
            "plays": [
                {
                    "play": PLAY_WORDS[value.play],
                    "win_chance": _rounded(value.win_chance),
                    "interval": [_rounded(x) for x in value.interval],
                    "expected_states": _rounded(value.expected_states),
                    "deals": value.tries,
                }
                for value in judged.judgement.plays
            ],
        }

    def for_page(self, values: Callable[[str], int]) -> dict[str, Json]:
        """The judgement for ``ordo view``'s graph, its words as ``values``
        numbers them in the page's table: what it is, each seat's accuracy,
        by step (0: before the first play) each seat's win chance in
        thousandths as it saw it at its own plays (None between), and each
        graded play as [ply, seat, grade, its sentence]."""
        found = self.found
        if found is None:
            return {"said": values(self.lines()[0]), "chances": [], "graded": []}
        return {
            "said": values(self.lines()[0]),
            "accuracy": values(self._accuracy(found) + "."),
            "chances": [
                [None if c is None else round(1000 * c) for c in step] for step in self.chances()
            ],
            "graded": [[j.ply, j.seat, j.grade, values(self._graded(j))] for j in found.graded()],
        }

    def graph(self) -> str:
        """Each seat's win chance over the plies as an SVG document: the
        graph of ``ordo view --judge``, its graded plays marked, in the
        page's style (``viewer.css``'s rules for the graph)."""
        chances = self.chances()
        steps = max(len(chances) - 1, 1)
        width, height, pad = GRAPH

        def x(k: int) -> str:
            return f"{pad + k / steps * (width - 2 * pad):.1f}"

        def y(chance: float) -> str:
            return f"{pad + (1 - chance) * (height - 2 * pad):.1f}"

        parts = [
            f'<line x1="{x(0)}" x2="{x(steps)}" y1="{y(c)}" y2="{y(c)}" '
            f'class="{"v-graph-half" if c == 0.5 else "v-graph-rule"}"/>'
            for c in (0, 0.5, 1)
        ]
        for seat in range(self.seats):
            held = [
                (k, chance) for k, row in enumerate(chances) if (chance := row[seat]) is not None
            ]
            points = [f"{x(k)},{y(chance)}" for k, chance in held]
            if points:
                line = f"v-graph-line v-graph-p{seat + 1}"
                parts.append(f'<polyline points="{" ".join(points)}" class="{line}"/>')
        found = self.found
        for judged in () if found is None else found.graded():
            chance, grade = chances[judged.ply][judged.seat], judged.grade
            if chance is not None and grade is not None:
                parts.append(
                    f'<circle cx="{x(judged.ply)}" cy="{y(chance)}" r="{_DOT[grade]}" '
                    f'class="v-graph-dot v-graph-p{judged.seat + 1} v-grade-{grade}">'
                    f"<title>{escape(self._graded(judged))}</title></circle>"
                )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" class="v-graph-alone">'
            "<title>Each seat's win chance over the plies, as it could know it</title>"
            f'<style>{graph_style()}</style><rect width="100%" height="100%" fill="#fff"/>'
            f"{''.join(parts)}</svg>\n"
        )

    def _repr_svg_(self) -> str:
        return self.graph()

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def chances(self) -> list[list[float | None]]:
        """By ply (0: before the first), each seat's win chance as it saw it
        at its own plays (before each, after each), None where not known."""
        found = self.found
        plies = len(self.plays)
        out: list[list[float | None]] = [[None] * self.seats for _ in range(plies + 1)]
        if found is None:
            return out
        for judged in found.plies:
            out[judged.ply - 1][judged.seat] = judged.before
            out[judged.ply][judged.seat] = judged.after
        return out


# The graph's size and margin, and the dot of each grade: viewer.js draws the
# same graph on the page (its GRAPH and radii; tests/test_notebook.py holds
# the two together).
GRAPH = (600, 150, 6)
_DOT = {"blunder": 6, "mistake": 5, "inaccuracy": 4}


@cache
def graph_style() -> str:
    """The rules of ``viewer.css`` that draw the graph, for a graph drawn
    alone: in a notebook its style is the whole page's, so every rule names
    the graph's own classes."""
    css = (files(__package__) / "viewer" / "viewer.css").read_text("utf-8")
    rules = [line for line in css.splitlines() if line.startswith(".v-graph")]
    style = " ".join(rules).replace(".v-graph svg", "svg.v-graph-alone")
    return style.replace("var(--ink)", "#222")


def _plural(word: str, n: int) -> str:
    if n == 1:
        return word
    return word[:-1] + "ies" if word.endswith("y") else word + "s"


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def _points(share: float) -> str:
    return f"{100 * share:.0f}"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass(frozen=True, slots=True)
class Judging:
    """How to judge: play-outs a ply, the seed, the deck the seats know
    (None: the cards of each record's own deal), and what judges a record's
    plies (None: this process; ``spread_over`` sets it)."""

    playouts: int = PLAYOUTS
    seed: str = ""
    deck: Deck | None = None
    spread: Spread | None = None


def spread_over(workers: W, judging: Judging | None) -> tuple[W | Workers, Judging | None]:
    """Where to read the records and judge their plies: with ``judging``,
    the records one at a time in this process and the plies of each on
    ``workers`` (a record's plies take seconds each, its reading
    milliseconds, and a game's judgement is then as fast as the cores or
    the cluster make it); without, the records on ``workers``."""
    if judging is None or judging.spread is not None:
        return workers, judging
    return Workers(1), replace(judging, spread=_on(workers))


def _on(workers: Pool) -> Spread:
    def spread(
        function: Callable[[PlyTask], Judgement], tasks: Iterable[PlyTask]
    ) -> Iterator[Judgement]:
        for done in workers.map(function, tasks):
            assert not isinstance(done, InputError)  # only an InputError given comes back one
            yield done

    return spread


def judged_record(report: Report, judging: Judging) -> JudgementView | None:
    """A validated record's plays judged from each seat's view; None when
    the header could not be read."""
    game = report.game
    if game is None:
        return None
    plays: Sequence[tuple[Card, State]] = [(turn.card, turn.state) for turn in report.turns]
    spelt = tuple(PLAY_WORDS[play] for play in plays)
    if report.deal is None:
        why = "the record has no deal, so the cards in each seat's hand are unknown"
        return JudgementView(None, spelt, game.seats, why)
    start = Game.new(game.seats, report.deal)
    deck = None if judging.deck is None else judging.deck.cards * boxes_for(game.seats)
    try:
        found = judge_record(
            start,
            plays,
            deck=deck,
            seed=judging.seed,
            playouts=judging.playouts,
            scoring=report.scoring,
            spread=judging.spread or map,
        )
    except UnknownDeal as error:
        return JudgementView(None, spelt, game.seats, str(error))
    return JudgementView(found, spelt, game.seats)
