"""The declared result compared with the game replayed: the Result tag and
the result line (E410 to E414), or why they were not compared."""

from __future__ import annotations

from ..diagnostics import Related
from ..engine.cards import seat_name
from ..engine.game import Game
from ..engine.scoring import Outcome, score
from .meaning import SHARED, UNFINISHED, Content, DeclaredOutcome


def _describe(outcome: DeclaredOutcome) -> str:
    return seat_name(outcome) if isinstance(outcome, int) else outcome


def check_result(r: Content, game: Game) -> Outcome | None:
    declarations = []
    if r.result_tag is not None:
        declarations.append((r.result_tag[0], r.result_tag[1].span, "Result tag"))
    if r.result is not None:
        declarations.append((r.result.outcome, r.result.line.outcome.span, "result line"))
    if not game.over:
        r.add(
            "W501",
            f"unfinished game: {len(game.resolutions)} of 5 states resolved after ply {game.ply}",
        )
        for declared, span, where in declarations:
            if declared != UNFINISHED:
                r.add(
                    "E413",
                    f"the {where} declares {_describe(declared)}, but the game is unfinished",
                    span,
                    help=_declare(where, UNFINISHED)
                    + ", or add the plays that are missing at the end",
                )
        return None
    if not r.scoring_ok:
        r.add(
            "N603",
            f"the game ended at ply {game.ply}, but the result was not compared: "
            "the scoring rule has errors",
        )
        return None
    outcome = score(game.seats, game.resolutions, r.scoring)
    actual: DeclaredOutcome = SHARED if outcome.winner is None else outcome.winner
    for declared, span, where in declarations:
        if declared == actual:
            continue  # as declared: the usual case
        standing = outcome.describe(r.scoring.unit)
        if declared == UNFINISHED:
            r.add(
                "E412",
                f"the {where} declares the game unfinished, "
                f"but it ended at ply {game.ply}: {standing}",
                span,
                help=_declare(where, _describe(actual)),
            )
        else:
            r.add(
                "E410",
                f"the {where} declares {_describe(declared)}, but {standing}",
                span,
                help=_declare(where, _describe(actual)),
            )
    unit = r.scoring.unit
    for seat, value, word in r.result.scores if r.result is not None else ():
        if value != outcome.scores[seat]:
            r.add(
                "E411",
                f"declares {seat_name(seat)}:{value}, "
                f"but {seat_name(seat)} has {_count(outcome.scores[seat], unit)}",
                word.span,
                help=f"write `{seat_name(seat)}:{outcome.scores[seat]}`",
            )
    return outcome


def _declare(where: str, outcome: str) -> str:
    return f'write [Result "{outcome}"]' if where == "Result tag" else f"write `result {outcome}`"


def _count(n: int, unit: str) -> str:
    return f"{n} {unit if n != 1 else unit[:-1]}"


def check_tag_against_line(r: Content) -> None:
    if r.result_tag is None or r.result is None:
        return
    tag_outcome = r.result_tag[0]
    if r.result.outcome != tag_outcome:
        r.add(
            "E414",
            f"the result line says {_describe(r.result.outcome)}, "
            f"but the Result tag says {_describe(tag_outcome)}",
            r.result.line.outcome.span,
            help="make the two say the same: `ordo fix` writes what the replay found",
            related=(Related("the Result tag", r.result_tag[1].span),),
        )
