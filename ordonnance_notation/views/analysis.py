"""When each state, and the game, was decided, in words and as JSON: what
``ordo analyse`` prints and ``ordo summary`` adds to each state.

``analysis_of`` runs the engine's analysis on a validated record;
``decided_data`` turns it into plain data (the JSON format, seats by name,
plays as written); ``render_text`` lays that out for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ..checking.report import Report
from ..engine.analysis import Analysis, Loss, analyse
from ..engine.cards import Card, State, seat_name
from ..runs.workers import Workers
from .report import Numbered, laid_block


def analysis_of(report: Report) -> Analysis | None:
    """The analysis of a record's plays as far as the rules replayed them;
    None when the header or the deal could not be read."""
    game = report.game
    if game is None:
        return None
    plays = [(turn.card, turn.state) for turn in report.turns]
    return analyse(game.seats, report.deal, plays, report.scoring)


def _play(report: Report, ply: int) -> str:
    turn = report.turns[ply - 1]
    return f"{turn.card} {turn.state.name}"


def _loss(report: Report, loss: Loss) -> dict[str, Any]:
    return {
        "seat": seat_name(loss.seat),
        "ply": loss.ply,
        "by": seat_name(loss.by),
        "play": _play(report, loss.ply),
        "own": loss.own,
        "alternatives": [_spelt(card, state) for card, state in loss.alternatives],
    }


def _spelt(card: Card, state: State) -> str:
    return f"{card} {state.name}"


def decided_data(report: Report, analysis: Analysis) -> dict[str, Any]:
    """The analysis as JSON-ready data: each state in the order A C J E T,
    then the game."""
    states = []
    for part in analysis.states:
        states.append(
            {
                "state": part.state.name,
                "name": part.state.full_name,
                "decided": part.decided,
                "resolved": part.resolved,
                "winner": None if part.winner is None else seat_name(part.winner),
                "can_win": [seat_name(s) for s in sorted(part.can_win)],
                "exact": part.exact,
                "turning_points": [_loss(report, loss) for loss in part.losses],
            }
        )
    return {
        "known_deal": analysis.known_deal,
        "plies": len(report.turns),
        "states": states,
        "game": {
            "decided": analysis.decided,
            "winner": None if analysis.winner is None else seat_name(analysis.winner),
            "can_win": [seat_name(s) for s in sorted(analysis.can_win)],
            "turning_points": [_loss(report, loss) for loss in analysis.losses],
        },
    }


def state_sentence(state: dict[str, Any]) -> str:
    """``Jerusalem was decided at ply 31, 16 plies before it resolved; P2's
    `LS J` at ply 28 gave it away (`LH C` or `F T` would have kept it).``"""
    name, decided, resolved = state["name"], state["decided"], state["resolved"]
    if decided is None:
        said = f"{name} was not decided in the plays recorded"
        if state["can_win"]:
            seats = state["can_win"]
            either = " or ".join([", ".join(seats[:-1]), seats[-1]] if len(seats) > 1 else seats)
            said += f": {either} could still win it"
    elif decided == 0:
        said = f"{name} was decided before the first play"
    elif resolved is not None and decided == resolved:
        said = f"{name} was decided only as it resolved, at ply {decided}"
    else:
        said = f"{name} was decided at ply {decided}"
        if resolved is not None:
            ahead = resolved - decided
            said += f", {ahead} {'ply' if ahead == 1 else 'plies'} before it resolved"
    turns = _turnings(state["turning_points"])
    return said + ("; " + "; ".join(turns) if turns else "") + "."


def game_sentence(game: dict[str, Any], plies: int) -> str:
    decided = game["decided"]
    if decided is None:
        said = "The game was not decided in the plays recorded"
    else:
        said = f"The game was decided at ply {decided} of {plies}" + (
            f": {game['winner']} wins" if game["winner"] else ""
        )
    turns = _turnings(game["turning_points"], "the game")
    return said + ("; " + "; ".join(turns) if turns else "") + "."


def _turnings(points: list[dict[str, Any]], what: str = "it") -> list[str]:
    """The turning points in words, in order; the seats one play put out of
    reach in one sentence."""
    reached: dict[int, list[str]] = {}  # ply -> the seats that play put out of reach
    for point in points:
        if not point["own"]:
            reached.setdefault(point["ply"], []).append(point["seat"])
    said = []
    for point in points:
        if point["own"]:
            said.append(_gave_away(point, what))
        elif point["ply"] in reached:  # the first of its ply: say them all
            seats = " and ".join(f"{s}'s" for s in reached.pop(point["ply"]))
            said.append(
                f"{point['by']}'s `{point['play']}` at ply {point['ply']} "
                f"put {what} out of {seats} reach"
            )
    return said


def _gave_away(point: dict[str, Any], what: str) -> str:
    line = f"{point['seat']}'s `{point['play']}` at ply {point['ply']} gave {what} away"
    others = [f"`{o}`" for o in point["alternatives"]]
    if not others:
        return line
    if len(others) <= 3:
        shown = " or ".join(others)
    else:
        shown = f"{', '.join(others[:3])} or {len(others) - 3} other plays"
    return line + f" ({shown} would have kept it)"


def render_text(data: dict[str, Any]) -> str:
    """One record's analysis for people: a heading, a line per state, the game."""
    players = " v ".join(p["name"].strip() or "?" for p in data["players"])
    out = [f"{data['file']}, record {data['record']}" + (f" ({players})" if players else "")]
    decided = data["decided"]
    if decided is None:
        out.append("  nothing to analyse: the header or the deal has errors")
        return "\n".join(out) + "\n"
    if not decided["known_deal"]:
        out.append("  (no deal: each seat's cards to come may be any cards)")
    for state in decided["states"]:
        out.append("  " + state_sentence(state))
    out.append("  " + game_sentence(decided["game"], decided["plies"]))
    return "\n".join(out) + "\n"


def analysed(report: Report) -> dict[str, Any]:
    """A record's analysis, its place and players: ``ordo analyse --format json``."""
    found = analysis_of(report)
    return {
        "file": report.source,
        "record": report.index,
        "players": [{"seat": seat_name(s), "name": name} for s, name in enumerate(report.names)],
        "valid": report.valid,
        "decided": None if found is None else decided_data(report, found),
    }


def analyses(paths: Sequence[str], format: str, workers: Workers) -> Numbered:
    """Every record's analysis laid out in ``format`` (text or json), numbered within each file."""
    lay = partial(laid_block, data_of=analysed, render=render_text, format=format)
    return Numbered(paths, lay, workers)
