"""A match's tally for people (text) and programs (JSON)."""

from __future__ import annotations

import math
from typing import Any

from ..making.match import MatchGame, Tally
from ..making.statistics import Sprt
from .report import visible


def _elo(value: float) -> str:
    return f"{value:+.0f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def forfeit_line(number: int, game: MatchGame) -> str:
    """``game 4 (deal 2, seating 2): P1 (bot) forfeits: why``."""
    assert game.forfeit is not None
    where = f"game {number} (deal {game.deal}, seating {game.rotation})"
    return f"{where}: {game.forfeit.said(game.names)}"


def sprt_words(tally: Tally, test: Sprt) -> str:
    """``SPRT elo0 0 elo1 10 (alpha 0.05, beta 0.05): LLR 1.20 of [-2.94, 2.94]: ...``."""
    low, high = test.bounds
    llr = tally.llr(test)
    verdict = test.verdict(llr)
    sides = tally.sides
    assert sides is not None
    said = {
        "H1": f"H1 accepted: {sides[0]} is stronger than {sides[1]}, as elo1 says rather than elo0",
        "H0": f"H0 accepted: {sides[0]} is not stronger than {sides[1]} as elo1 says",
        None: "no verdict yet",
    }[verdict]
    return (
        f"SPRT elo0 {test.elo0:g} elo1 {test.elo1:g} (alpha {test.alpha:g}, beta {test.beta:g}): "
        f"LLR {llr:.2f} of [{low:.2f}, {high:.2f}]: {said}"
    )


def render_text(tally: Tally, test: Sprt | None, logs: str | None) -> str:
    lines = [
        f"{tally.games} games, {tally.seats} seats, each deal played in {tally.seats} seatings",
        "",
        f"{'bot':<24} {'games':>6} {'wins':>6} {'share':>7}  {'95% interval':<16} "
        f"{'fair':>6} {'forfeits':>8}",
    ]
    forfeits = dict.fromkeys(tally.bots, 0)
    for _, game in tally.forfeits:
        assert game.forfeit is not None
        forfeits[game.names[game.forfeit.seat]] += 1
    for name in tally.bots:
        share, low, high = tally.share(name)
        fair = tally.held(name) / tally.seats
        interval = f"[{low:.1%}, {high:.1%}]"
        lines.append(
            f"{name:<24} {tally.played[name]:>6} {tally.wins[name]:>6} {share:>7.1%}  "
            f"{interval:<16} {fair:>6.1%} {forfeits[name]:>8}"
        )
    elo = tally.elo()
    sides = tally.sides
    if elo is not None and sides is not None:
        lines += [
            "",
            f"Elo {sides[0]} - {sides[1]}: {_elo(elo.elo)} "
            f"[{_elo(elo.low)}, {_elo(elo.high)}] (95%)",
        ]
    if test is not None and sides is not None:
        lines.append(sprt_words(tally, test))
    if tally.forfeits:
        lines += ["", "forfeits:"]
        lines += [f"  {forfeit_line(number, game)}" for number, game in tally.forfeits]
    if logs is not None:
        lines += ["", f"the bots' standard error: {logs}"]
    elif tally.forfeits:
        lines += ["", "--logs DIR keeps what the bots write to standard error"]
    return visible("\n".join(lines) + "\n")


def to_json(tally: Tally, test: Sprt | None, logs: str | None) -> dict[str, Any]:
    bots = []
    for name in tally.bots:
        share, low, high = tally.share(name)
        bots.append(
            {
                "bot": name,
                "seats": tally.held(name),
                "games": tally.played[name],
                "wins": tally.wins[name],
                "share": round(share, 4),
                "low": round(low, 4),
                "high": round(high, 4),
                "fair": round(tally.held(name) / tally.seats, 4),
            }
        )
    found: dict[str, Any] = {"games": tally.games, "seats": tally.seats, "bots": bots}
    elo = tally.elo()
    if elo is not None:
        found["elo"] = {
            "of": tally.bots[0],
            "over": tally.bots[1],
            "elo": _json_number(elo.elo),
            "low": _json_number(elo.low),
            "high": _json_number(elo.high),
        }
    if test is not None and tally.sides is not None:
        llr = tally.llr(test)
        low, high = test.bounds
        found["sprt"] = {
            "elo0": test.elo0,
            "elo1": test.elo1,
            "alpha": test.alpha,
            "beta": test.beta,
            "llr": round(llr, 4),
            "lower": round(low, 4),
            "upper": round(high, 4),
            "verdict": test.verdict(llr),
        }
    found["forfeits"] = [
        {
            "game": number,
            "deal": game.deal,
            "seating": game.rotation,
            "seat": game.forfeit.seat + 1 if game.forfeit else None,
            "bot": game.names[game.forfeit.seat] if game.forfeit else None,
            "reason": game.forfeit.reason if game.forfeit else None,
        }
        for number, game in tally.forfeits
    ]
    if logs is not None:
        found["logs"] = logs
    return found


def _json_number(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None
