"""``ordo explore``'s tables: each play after the opening, how often it was
made and how often its seat won, most played first; in text and JSON. The
counts are ``querying.explore``'s, read as ``Explored`` says."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from ..engine.cards import seat_name
from ..engine.decisions import play_of
from ..notation.games import PLAY_WORDS
from .report import Json, percent, plural

Line = tuple[int, ...]  # plays after the opening, as ``decisions.play_code`` codes them


class Tally(Protocol):
    games: int
    finished: int
    won: int


class Explored(Protocol):
    """The counts of an archive: by seat count and line of plays (``()``:
    the opening itself), and the records read and left out."""

    records: int
    left_out: int

    @property
    def lines(self) -> Mapping[tuple[int, Line], Tally]: ...


def _play(code: int) -> str:
    return PLAY_WORDS[play_of(code)]


Tree = dict[tuple[int, Line], list[tuple[Line, Tally]]]


def _tree(explored: Explored) -> Tree:
    """The lines one play longer than each line, by seat count and line, most games first."""
    tree: Tree = {}
    for (seats, line), tally in explored.lines.items():
        if line:
            tree.setdefault((seats, line[:-1]), []).append((line, tally))
    for children in tree.values():
        children.sort(key=lambda item: (-item[1].games, _play(item[0][-1])))
    return tree


def _seat_counts(explored: Explored) -> list[int]:
    return sorted({seats for seats, line in explored.lines if not line})


def render_text(explored: Explored, opening: Line) -> str:
    """A table a seat count: the plays after the opening, nested to the depth counted."""
    out: list[str] = []
    first = len(opening) + 1
    tree = _tree(explored)
    shown = " ".join(f"{n}. {_play(code)}" for n, code in enumerate(opening, 1))
    for seats in _seat_counts(explored):
        root = explored.lines[seats, ()]
        out += [
            *([""] if out else []),
            f"{seats} seats: {plural(root.games, 'game')}"
            + (f" after {shown}" if opening else "")
            + f", {root.finished} finished",
            f"  {'ply':<4}{'play':<12}{'seat':<6}{'games':>7}{'share':>8}{'won':>7}"
            f"{'of finished':>13}",
        ]
        out += _rows(tree, seats, (), root, first, 0)
    if explored.left_out:
        out.append(f"({plural(explored.left_out, 'invalid record')} left out)")
    return "\n".join(out) + "\n" if out else "no valid game begins with this opening\n"


def _rows(tree: Tree, seats: int, line: Line, parent: Tally, ply: int, depth: int) -> list[str]:
    rows = []
    for child, tally in tree.get((seats, line), ()):
        seat = seat_name((ply - 1) % seats)
        play = "  " * depth + _play(child[-1])
        rows.append(
            f"  {ply:<4}{play:<12}{seat:<6}{tally.games:>7}"
            f"{percent(tally.games, parent.games):>8}{tally.won:>7}"
            f"{percent(tally.won, tally.finished):>13}"
        )
        rows += _rows(tree, seats, child, tally, ply + 1, depth + 1)
    return rows


def explored_json(explored: Explored, opening: Line) -> dict[str, Json]:
    """The same as ``render_text``, for programs."""
    first = len(opening) + 1
    tree = _tree(explored)

    def plays(seats: int, line: Line, ply: int) -> list[Json]:
        return [
            {
                "ply": ply,
                "play": _play(child[-1]),
                "seat": seat_name((ply - 1) % seats),
                "games": tally.games,
                "finished": tally.finished,
                "won": tally.won,
                "next": plays(seats, child, ply + 1),
            }
            for child, tally in tree.get((seats, line), ())
        ]

    return {
        "opening": [_play(code) for code in opening],
        "records": explored.records,
        "left_out": explored.left_out,
        "tables": [
            {
                "seats": seats,
                "games": explored.lines[seats, ()].games,
                "finished": explored.lines[seats, ()].finished,
                "plays": plays(seats, (), first),
            }
            for seats in _seat_counts(explored)
        ],
    }
