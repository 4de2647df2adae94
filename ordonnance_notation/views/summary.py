"""The annotated summary of a record: who played, under which rules, who won
and why, how each state was decided, and the record's own comments.

``summarize`` builds plain data (the JSON format); ``render_text`` and
``render_markdown`` lay the same data out for the terminal and for publishing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from ..checking.report import Report
from ..engine.armies import Army
from ..engine.cards import State, seat_name
from ..engine.game import Game, Resolution
from ..engine.scoring import Outcome, Scoring, TieBreak, captures
from ..runs.workers import Workers
from .analysis import analysis_of, decided_data, game_sentence, state_sentence
from .report import Numbered, laid_block


def summarize(report: Report, decided: bool = True) -> dict[str, Any]:
    """Everything the summary says, as JSON-ready data; with ``decided``,
    when each state and the game were decided (``views.analysis``)."""
    scoring = report.scoring or Scoring.classic()
    game = report.game
    out: dict[str, Any] = {
        "file": report.source,
        "record": report.index,
        "players": [{"seat": seat_name(s), "name": name} for s, name in enumerate(report.names)],
        "scoring": "points" if scoring.is_points else "classic",
        "points_table": list(scoring.points) if scoring.points else None,
        "valid": report.valid,
        "finished": report.outcome is not None,
        "result": None,
        "states": [],
        "unresolved": [],
        "points": None,
        "comments": [c.text for c in report.record.comments] if report.record else [],
        "annotations": _annotations(report),
        "problems": [
            f"{d.location}: {d.code}: {d.message}" for d in report.diagnostics if d.code[0] == "E"
        ],
    }
    if game is None:
        return out
    if decided:
        analysis = analysis_of(report)
        out["decided"] = None if analysis is None else decided_data(report, analysis)
    out["states"] = [_state(r, report, scoring) for r in game.resolutions]
    out["unresolved"] = [
        _unresolved(game, state, report) for state in State if game.resolution(state) is None
    ]
    if report.outcome is not None:
        out["result"] = _result(report.outcome, game, scoring)
        if scoring.is_points:
            out["points"] = {
                seat_name(s): {
                    r.state.name: scoring.points_for(r.place_of(s)) for r in game.resolutions
                }
                for s in range(game.seats)
            }
    return out


def _army(army: Army, report: Report) -> dict[str, Any]:
    return {
        "seat": seat_name(army.seat),
        "name": report.names[army.seat] if army.seat < len(report.names) else "",
        "cards": [str(c) for c in army.cards],
        "formations": army.formations.describe(),
        "fourth_card_ply": army.fourth_ply,
    }


def _state(resolution: Resolution, report: Report, scoring: Scoring) -> dict[str, Any]:
    armies = []
    for place, army in enumerate(resolution.ranking):
        entry = _army(army, report) | {"place": place + 1}
        if scoring.is_points:
            entry["points"] = scoring.points_for(place)
        armies.append(entry)
    return {
        "marker": resolution.marker,
        "state": resolution.state.name,
        "name": resolution.state.full_name,
        "ply": resolution.ply,
        "winner": seat_name(resolution.winner),
        "deciding": resolution.decision.explain(),
        "armies": armies,
    }


def _unresolved(game: Game, state: State, report: Report) -> dict[str, Any]:
    return {
        "state": state.name,
        "name": state.full_name,
        "armies": [_army(game.army(state, s), report) for s in range(game.seats)],
    }


def _result(outcome: Outcome, game: Game, scoring: Scoring) -> dict[str, Any]:
    unit = scoring.unit
    scores = {seat_name(s): v for s, v in enumerate(outcome.scores)}
    return {
        "winner": None if outcome.winner is None else seat_name(outcome.winner),
        "unit": unit,
        "scores": scores,
        "states": {seat_name(s): v for s, v in enumerate(outcome.states)},
        "tie_break": outcome.tie_break.value if outcome.tie_break else None,
        "why": why(outcome, game, scoring),
    }


def why(outcome: Outcome, game: Game, scoring: Scoring) -> str:
    """The result in a sentence, naming the tie-break that decided it."""
    unit = scoring.unit
    if not outcome.tied:
        assert outcome.winner is not None
        best = outcome.scores[outcome.winner]
        rest = sorted(
            (v for s, v in enumerate(outcome.scores) if s != outcome.winner), reverse=True
        )
        return (
            f"{seat_name(outcome.winner)} has the most {unit}: {best}, "
            f"against {', '.join(map(str, rest))}."
        )
    tied = outcome.tied
    names = " and ".join(seat_name(s) for s in tied)
    first = f"{names} have {outcome.scores[tied[0]]} {unit} each"
    if scoring.is_points:
        states = {s: outcome.states[s] for s in tied}
        if (
            outcome.tie_break is TieBreak.MORE_STATES
            and outcome.winner is not None
            and len(set(states.values())) > 1
        ):
            held = ", ".join(f"{seat_name(s)} {n}" for s, n in states.items())
            return (
                f"{first}; on equal points more states decides: {held}, "
                f"so {seat_name(outcome.winner)} wins."
            )
        first += f" and {states[tied[0]]} states each"
    if outcome.winner is None:
        return f"{first}; they hold no state, so no capture can break the tie: the win is shared."
    k = outcome.states[outcome.winner]
    ordinal = {1: "first", 2: "second", 3: "third"}.get(k, f"{k}th")
    markers = ", ".join(
        f"{seat_name(s)}'s was marker {captures(game.resolutions, s)[k - 1]}" for s in outcome.tied
    )
    return (
        f"{first}; the later {ordinal} capture wins: {markers}, "
        f"so {seat_name(outcome.winner)} wins."
    )


def _annotations(report: Report) -> list[dict[str, Any]]:
    if report.record is None:
        return []
    out = []
    for play in report.record.plays:
        if play.glyph is None and not play.comments:
            continue
        out.append(
            {
                "ply": play.ply,
                "play": " ".join(
                    w.text for w in (play.seat, play.card, play.state) if w is not None
                ),
                "glyph": play.glyph.text if play.glyph else None,
                "comments": [c.text for c in play.comments],
            }
        )
    return out


def _heading(data: dict[str, Any]) -> str:
    return f"{data['file']}, record {data['record']}"


def _players(data: dict[str, Any]) -> str:
    return ", ".join(f"{p['seat']} {p['name']}".rstrip() for p in data["players"])


def rules_words(data: dict[str, Any]) -> str:
    """The scoring of a summary's ``data`` in words, for every form of it."""
    if data["scoring"] == "classic":
        return "classic scoring (most states wins)"
    table = " ".join(map(str, data["points_table"]))
    return f"points scoring, {table} by rank"


def outcome_words(data: dict[str, Any]) -> str:
    """The result of a summary's ``data`` in words, for every form of it."""
    if data["problems"] and not data["valid"]:
        return "not established: the record has errors"
    if data["result"] is None:
        return f"unfinished: {len(data['states'])} of 5 states resolved"
    result = data["result"]
    head = "shared win" if result["winner"] is None else f"{result['winner']} wins"
    return f"{head}. {result['why']}"


def render_text(data: dict[str, Any]) -> str:
    out = [
        _heading(data),
        f"Players: {_players(data)}",
        f"Rules: {rules_words(data)}",
        f"Result: {outcome_words(data)}",
    ]
    for comment in data["comments"]:
        out.append(f"  {{{comment}}}")
    if data["states"]:
        out += ["", "States in marker order"]
    for state in data["states"]:
        out.append(
            f"#{state['marker']} {state['name']}, resolved at ply {state['ply']}: "
            f"{state['winner']} wins; {state['deciding']}"
        )
        width = max(len(f"{a['seat']} {a['name']}") for a in state["armies"])
        for army in state["armies"]:
            points = f"  {army['points']} pt" if "points" in army else ""
            out.append(
                f"   {army['place']}. {(army['seat'] + ' ' + army['name']).ljust(width)}  "
                f"{' '.join(army['cards']).ljust(20)} {army['formations']} "
                f"(4th card ply {army['fourth_card_ply']}){points}"
            )
    started = [state for state in data["unresolved"] if any(a["cards"] for a in state["armies"])]
    if started:
        out += ["", "Not resolved"]
    for state in started:
        armies = "; ".join(f"{a['seat']} {' '.join(a['cards']) or '-'}" for a in state["armies"])
        out.append(f"   {state['name']}: {armies}")
    out += _decided_lines(data, "  ")
    if data["points"]:
        states = [s["state"] for s in data["states"]]
        out += ["", "Points   " + "  ".join(f"{s:>2}" for s in states) + "  total"]
        for seat, row in data["points"].items():
            out.append(
                f"  {seat:<6} "
                + "  ".join(f"{row[s]:>2}" for s in states)
                + f"  {sum(row.values()):>5}"
            )
    if data["annotations"]:
        out += ["", "Annotations"]
        for note in data["annotations"]:
            glyph = f" {note['glyph']}" if note["glyph"] else ""
            comments = " ".join(f"{{{c}}}" for c in note["comments"])
            out.append(f"  ply {note['ply']:>2}: {note['play']}{glyph} {comments}".rstrip())
    if data["problems"]:
        out += ["", "Problems"] + [f"  {p}" for p in data["problems"]]
    return "\n".join(out) + "\n"


def _decided_lines(data: dict[str, Any], bullet: str) -> list[str]:
    """When each state and the game were decided, a sentence each, states in
    marker order and then the unresolved ones."""
    decided = data.get("decided")
    if not decided:
        return []
    order = [s["state"] for s in data["states"]] + [s["state"] for s in data["unresolved"]]
    by_state = {s["state"]: s for s in decided["states"]}
    lines = [bullet + state_sentence(by_state[state]) for state in order]
    lines.append(bullet + game_sentence(decided["game"], decided["plies"]))
    return ["", "When it was decided", *lines]


def render_markdown(data: dict[str, Any]) -> str:
    out = [
        f"## {_heading(data)}",
        "",
        f"- **Players:** {_players(data)}",
        f"- **Rules:** {rules_words(data)}",
        f"- **Result:** {outcome_words(data)}",
    ]
    out += [f"- *{comment}*" for comment in data["comments"]]
    if data["states"]:
        out += ["", "### States in marker order"]
    for state in data["states"]:
        line = f"**#{state['marker']} {state['name']}**, resolved at ply {state['ply']}: "
        out += ["", line + f"{state['winner']} wins; {state['deciding']}.", ""]
        points = " points |" if data["points"] else ""
        out += [
            f"| place | seat | cards | formations | 4th card |{points}",
            "|---|---|---|---|---|" + ("---|" if points else ""),
        ]
        for army in state["armies"]:
            extra = f" {army['points']} |" if "points" in army else ""
            out.append(
                f"| {army['place']} | {army['seat']} {army['name']} | {' '.join(army['cards'])} | "
                f"{army['formations']} | ply {army['fourth_card_ply']} |{extra}"
            )
    if data["points"]:
        states = [s["state"] for s in data["states"]]
        out += [
            "",
            "### Points",
            "",
            "| seat | " + " | ".join(states) + " | total |",
            "|---|" + "---|" * (len(states) + 1),
        ]
        for seat, row in data["points"].items():
            out.append(
                f"| {seat} | "
                + " | ".join(str(row[s]) for s in states)
                + f" | {sum(row.values())} |"
            )
    decided = _decided_lines(data, "- ")
    if decided:
        out += ["", "### When it was decided", "", *decided[2:]]
    if data["annotations"]:
        out += ["", "### Annotations", ""]
        for note in data["annotations"]:
            glyph = f" {note['glyph']}" if note["glyph"] else ""
            comments = " ".join(note["comments"])
            out.append(f"- ply {note['ply']}: `{note['play']}{glyph}` {comments}".rstrip())
    if data["problems"]:
        out += ["", "### Problems", ""] + [f"- `{p}`" for p in data["problems"]]
    return "\n".join(out) + "\n"


_LAYOUTS = {"text": render_text, "markdown": render_markdown}


def summaries(
    paths: Sequence[str], format: str, workers: Workers, decided: bool = True
) -> Numbered:
    """The summary of every record of ``paths`` laid out in ``format``
    (text, markdown or json), numbered within each file; ``decided``: with
    when each state was decided."""
    lay = partial(
        laid_block,
        data_of=partial(summarize, decided=decided),
        render=_LAYOUTS.get(format, render_text),
        format=format,
    )
    return Numbered(paths, lay, workers)
