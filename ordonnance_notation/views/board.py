"""The table at one step of a replay, as text: each state with each seat's
army (every card a row of five icon slots, L B S H F from left to right, as
on the cards), its formations, who would win the state now or who won it,
then the hands and the pile.

``seat`` limits the view to what that seat saw: its own hand; other hands and
the pile only as counts.
"""

from __future__ import annotations

from rich.text import Text

from ..engine.armies import Army
from ..engine.cards import Card, Icon, State, seat_name
from ..engine.game import Game
from .replay import Replay, Step
from .report import visible

SLOTS = "".join(icon.name for icon in Icon)  # LBSHF
EMPTY_SLOT = "·"


def card_cell(card: Card) -> str:
    """``HF`` -> ``···HF``: each icon in its own column."""
    return "".join(icon.name if icon in card else EMPTY_SLOT for icon in Icon)


def state_status(game: Game, state: State) -> str:
    resolution = game.resolution(state)
    if resolution is not None:
        return (
            f"marker {resolution.marker} to {seat_name(resolution.winner)} "
            f"at ply {resolution.ply}: {resolution.decision.explain()}"
        )
    decision = game.standing(state)
    if decision is None:
        return "no units yet"
    if decision.level is None and not (decision.winner.full and decision.loser.full):
        return "level so far: identical formations"
    return f"{seat_name(decision.winner.seat)} would win now: {decision.explain()}"


def _army_line(army: Army, label: str, just_played: int | None) -> Text:
    line = Text(f"  {label} ")
    for unit in army.units:
        cell = card_cell(unit.card)
        if unit.ply == just_played:
            line.append(f"[{cell}]", style="bold reverse")
        else:
            line.append(f" {cell} ")
    if army.units:
        line.append("       " * (4 - len(army.units)))
        line.append(f"  {army.formations.describe()}")
    line.rstrip()
    return line


def render_step(replay: Replay, step: Step, seat: int | None = None) -> Text:
    """The whole table at ``step``; ``seat`` hides what that seat could not see."""
    report = replay.report
    game = step.game
    names = report.names
    width = max(len(_label(s, names)) for s in range(game.seats))
    out = Text()
    out.append(visible(_heading(replay, step, seat)), style="bold")
    if step.play is not None:
        for comment in step.play.comments:
            out.append(
                visible(f"\n  {{{comment.text}}}" if comment.braced else f"\n  ; {comment.text}"),
                style="italic",
            )
    out.append(
        f"\n\n  {' ' * width}  " + "  ".join(f" {SLOTS} " for _ in range(4)).rstrip() + "\n",
        style="dim",
    )
    for state in State:
        out.append(f"{state.name} {state.full_name}", style="bold")
        out.append(f"  {state_status(game, state)}\n")
        for s in range(game.seats):
            label = _label(s, names).ljust(width)
            out.append(_army_line(game.army(state, s), label, step.number if step.turn else None))
            out.append("\n")
    out.append(_hands(game, names, seat, width))
    markers = ", ".join(
        f"#{r.marker} {r.state.name} {seat_name(r.winner)}" for r in game.resolutions
    )
    out.append(f"markers: {markers or 'none yet'}\n")
    if step.number == replay.last and replay.stopped is not None:
        out.append(
            f"replay stops here: ply {replay.stopped.ply} is {replay.stopped.code}"
            # the message may name the cards of a hand: not for one seat's eyes
            f"{f' ({replay.stopped.message})' if seat is None else ''}\n",
            style="bold red",
        )
    elif step.number == replay.last and game.over and report.outcome is not None:
        unit = report.scoring.unit if report.scoring else "states"
        out.append(f"game over: {report.outcome.describe(unit)}\n", style="bold")
    return out


def _label(seat: int, names: tuple[str, ...]) -> str:
    name = visible(names[seat].strip()) if seat < len(names) else ""
    return f"{seat_name(seat)} {name}".rstrip()


def _heading(replay: Replay, step: Step, seat: int | None) -> str:
    count, play, drew, glyph = heading_pieces(replay, step)
    seen = seat is None or step.turn is None or seat == step.turn.seat
    return count + play + (drew if seen else "") + glyph  # another seat's draw is hidden


def heading_pieces(replay: Replay, step: Step) -> tuple[str, str, str, str]:
    """The heading of a step in four pieces: which step, the play, the card
    drawn before it ("" when none; only the seat that drew sees it), and the
    glyph ("" when none)."""
    count = f"Step {step.number} of {replay.last}: "
    if step.turn is None:
        return count, "before the first play", "", ""
    turn = step.turn
    drew = f", after drawing {turn.drawn}" if turn.drawn is not None else ""
    glyph = f" {step.play.glyph.text}" if step.play is not None and step.play.glyph else ""
    play = f"{seat_name(turn.seat)} plays {turn.card} to {turn.state.full_name}"
    return count, play, drew, glyph


def _hands(game: Game, names: tuple[str, ...], seat: int | None, width: int) -> Text:
    if game.hands is None:
        return Text("hands: not recorded (no deal)\n", style="dim")
    out = Text()
    for s, hand in enumerate(game.hands):
        label = _label(s, names).ljust(width)
        if seat is None or seat == s:
            shown = " ".join(str(card) for card in hand) or "empty"
        else:
            shown = f"{len(hand)} cards, hidden"
        out.append(f"hand {label}  {shown}\n")
    out.append(f"pile: {game.pile_left} cards\n")
    return out
