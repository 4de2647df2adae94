"""The table at one step of a replay, as text: each state with each seat's
army (every card a row of five icon slots, L B S H F from left to right, as
on the cards), its formations, who would win the state now or who won it,
then the hands and the pile.

``seat`` limits the view to what that seat saw: its own hand; other hands and
the pile only as counts.
"""

from __future__ import annotations

import textwrap

from rich.cells import cell_len
from rich.text import Text

from ..checking.report import Report
from ..engine.armies import LEVELS, UNITS_PER_ARMY, Army, Decision, Formations
from ..engine.cards import Card, Icon, State, seat_name
from ..engine.game import Game
from ..engine.scoring import Outcome
from .report import visible
from .steps import Step, Steps

SLOTS = "".join(icon.name for icon in Icon)  # LBSHF
EMPTY_SLOT = "·"


def card_cell(card: Card) -> str:
    """``HF`` -> ``···HF``: each icon in its own column."""
    return "".join(icon.name if icon in card else EMPTY_SLOT for icon in Icon)


LEVEL_SO_FAR = "level so far"
"""How a state stands that no seat leads yet (``leader``)."""


def leader(game: Game, state: State) -> int | None:
    """The seat that leads ``state``, for every view of the table: its
    winner once resolved, else the seat that would win it now; None while no
    unit stands there, and while it is level so far (``_level_so_far``): a
    seat with no card there, or one whose formations only equal another's,
    leads nothing, whatever order sorting left the armies in."""
    resolution = game.resolution(state)
    if resolution is not None:
        return resolution.winner
    decision = game.standing(state)
    if decision is None or _level_so_far(decision):
        return None
    return decision.winner.seat


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
    ahead = leader(game, state)
    if ahead is None:
        return f"{LEVEL_SO_FAR}: identical formations"
    return f"{seat_name(ahead)} would win now: {decision.explain()}"


def _level_so_far(decision: Decision) -> bool:
    """Identical formations and a fourth card still to come: nobody leads
    (with no formation at all, an army of no card is one of them)."""
    return decision.level is None and not (decision.winner.full and decision.loser.full)


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


def render_step(replay: Steps, step: Step, seat: int | None = None) -> Text:
    """The whole table at ``step``; ``seat`` hides what that seat could not see."""
    report = replay.report
    game = step.game
    names = report.names
    width = max(len(_label(s, names)) for s in range(game.seats))
    out = Text()
    out.append(visible(heading(replay, step, seat)), style="bold")
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
    out.append(_hands(game, names, seat))
    out.append(_markers(game) + "\n")
    note = _end_note(replay, step, seat)
    if note is not None:
        out.append(note)
        out.append("\n")
    return out


def _label(seat: int, names: tuple[str, ...]) -> str:
    name = visible(names[seat].strip()) if seat < len(names) else ""
    return f"{seat_name(seat)} {name}".rstrip()


def _hand_lines(game: Game, names: tuple[str, ...], seat: int | None) -> list[str]:
    """A line a seat: ``hand P1 Anna  LH F S``; hidden hands as a count."""
    if game.hands is None:
        return ["hands: not recorded (no deal)"]
    width = max(len(_label(s, names)) for s in range(game.seats))
    return [
        f"hand {_label(s, names).ljust(width)}  {_hand(hand, seen=seat is None or seat == s)}"
        for s, hand in enumerate(game.hands)
    ]


def _hand(hand: tuple[Card, ...], seen: bool) -> str:
    if not seen:
        return f"{len(hand)} cards, hidden"
    return " ".join(str(card) for card in hand) or "empty"


def _hands(game: Game, names: tuple[str, ...], seat: int | None) -> Text:
    if game.hands is None:
        return Text(_hand_lines(game, names, seat)[0] + "\n", style="dim")
    out = Text("".join(line + "\n" for line in _hand_lines(game, names, seat)))
    out.append(f"pile: {game.pile_left} cards\n")
    return out


def _markers(game: Game) -> str:
    placed = ", ".join(
        f"#{r.marker} {r.state.name} {seat_name(r.winner)}" for r in game.resolutions
    )
    return f"markers: {placed or 'none yet'}"


def heading(replay: Steps, step: Step, seat: int | None = None, *, resolution: bool = True) -> str:
    """The first line of a step: the ply, what it did and the state it
    resolved, if it did (unless ``resolution`` is False): ``ply 31 of 40: P2
    plays LS to Jerusalem, after drawing S — Jerusalem resolved: marker 3 to P2``."""
    return _headings(replay, step, seat, resolution)[0]


def heading_pieces(replay: Steps, step: Step) -> tuple[str, str, str, str]:
    """The heading without the resolution in four pieces: which ply, the
    play, the card drawn before it ("" when none; only the seat that drew
    sees it) and the glyph ("" when none)."""
    count = f"ply {step.number} of {replay.last}: "
    if step.turn is None:
        return count, "before the first play", "", ""
    turn = step.turn
    drew = f", after drawing {turn.drawn}" if turn.drawn is not None else ""
    glyph = f" {step.play.glyph.text}" if step.play is not None and step.play.glyph else ""
    return count, f"{seat_name(turn.seat)} plays {turn.card} to {turn.state.full_name}", drew, glyph


def _headings(
    replay: Steps, step: Step, seat: int | None, resolution: bool = True
) -> tuple[str, ...]:
    """The heading, then shorter ways to say the same: without the draw, then
    with an arrow for "plays ... to"."""
    count, play, drew, glyph = heading_pieces(replay, step)
    if step.turn is None:
        return (count + play,)
    turn = step.turn
    seen = seat is None or seat == turn.seat  # another seat's draw is hidden
    resolved = ""
    if turn.resolution is not None and resolution:
        won = turn.resolution
        resolved = (
            f" — {won.state.full_name} resolved: marker {won.marker} to {seat_name(won.winner)}"
        )
    arrow = f"{count}{seat_name(turn.seat)} {turn.card} → {turn.state.full_name}"
    return (
        f"{count}{play}{drew if seen else ''}{glyph}{resolved}",
        f"{count}{play}{glyph}{resolved}",
        f"{arrow}{glyph}{resolved}",
    )


def end_pieces(replay: Steps, step: Step) -> tuple[str, str] | None:
    """On the last step: why the replay stops there, or the result; as the
    words and the stopping error's message in brackets ("" for a result):
    the message may name the cards of a hand, so one seat's view leaves it
    out ("P1 plays LBSHF, but holds only ...")."""
    return ending_pieces(replay.report) if step.number == replay.last else None


def ending_pieces(report: Report) -> tuple[str, str] | None:
    """``end_pieces`` of the last step of ``report``'s replay (its ``game``)."""
    if report.stopped is not None:
        stopped = report.stopped
        return f"replay stops here: ply {stopped.ply} is {stopped.code}", f" ({stopped.message})"
    if report.game is not None and report.game.over and report.outcome is not None:
        return game_over(report.outcome, report.scoring.unit if report.scoring else "states"), ""
    return None


def game_over(outcome: Outcome, unit: str) -> str:
    """The words that end the replay of a finished game, its scores counting ``unit``."""
    return f"game over: {outcome.describe(unit)}"


def _end_note(replay: Steps, step: Step, seat: int | None) -> Text | None:
    pieces = end_pieces(replay, step)
    if pieces is None:
        return None
    words, message = pieces
    if replay.stopped is not None:
        return Text(visible(words + (message if seat is None else "")), style="bold red")
    return Text(words, style="bold")


# The compact table, for the interactive stepper. Every row of a state:
# 12 cells for the state's name (first row) or how it stands (second row),
# a bar, the seat, four cards of five slots each behind a space (a bracket
# for the card just played), a space, the formations.
STATE_COLUMN = 12
BAR = " │ "
CARDS_AT = STATE_COLUMN + len(BAR) + len("P1 ")
FORMATIONS_AT = CARDS_AT + UNITS_PER_ARMY * (len(SLOTS) + 1) + 1


def render_compact(
    replay: Steps, step: Step, seat: int | None, width: int, height: int
) -> list[Text]:
    """The table at ``step`` as at most ``height`` lines of at most ``width``
    cells, for a terminal of that size: the heading first, then a row for
    every seat in every state, then the hands (as many to a line as fit),
    then what room is left allows, in this order of priority: the rest of
    the note that ends the replay, why the state just resolved went as it
    did, the play's comments, the slot letters above the cards, the hands a
    line each with the players' names, the pile and markers, blank lines.
    Once the game is over the hands come after the slot letters.

    The heading, the states and the first line of the note that ends the
    replay always come (with four seats, 22 lines); on a smaller terminal
    lines are cut at ``width`` with "…" and the bottom at ``height``.
    """
    game = step.game
    just = step.number if step.turn else None
    resolved = step.turn.resolution if step.turn else None
    note = _end_note(replay, step, seat)
    ending = _wrapped(note, width) if note is not None else []
    why: list[Text] = []
    if resolved is not None:
        decided = f"{seat_name(resolved.winner)} wins {resolved.state.full_name}: "
        why = _wrapped(Text(decided + resolved.decision.explain(), "italic"), width, "  ")
    comments = [
        wrapped
        for comment in (step.play.comments if step.play is not None else ())
        for line in visible(
            f"{{{comment.text}}}" if comment.braced else f"; {comment.text}"
        ).splitlines()
        for wrapped in _wrapped(Text(line, "italic"), width, "  ")
    ]
    pile = f"pile: {game.pile_left} cards   " if game.hands is not None else ""
    headings = tuple(map(visible, _headings(replay, step, seat)))
    parts = heading, end, end_rest, reason, notes, gap, legend, table, gap_2, hands, pile_line = [
        _Part([Text(_fitting(headings, width), "bold")]),
        _Part(ending[:1]),
        _Part(ending[1:]),
        _Part(why),
        _Part(comments),
        _Part([Text()]),
        _Part([Text(" " * CARDS_AT + " ".join([SLOTS] * UNITS_PER_ARMY), "dim")]),
        _Part([row for state in State for row in _state_rows(game, state, just, width)]),
        _Part([Text()]),
        _Part(
            [Text(line) for line in _hand_lines(game, replay.report.names, seat)],
            _packed_hands(game, seat, width),
        ),
        _Part([Text(pile + _markers(game))]),
    ]
    room = height - sum(part.show(0) for part in (heading, end, table))
    wanted = [(end_rest, 0, True), (reason, 0, False), (notes, 0, True), (legend, 0, False)]
    if game.over:  # the cards left in hand will never be played
        wanted += [(hands, 1, True)]
    else:
        wanted.insert(0, (hands, 1, True))
    wanted += [(hands, 0, False), (pile_line, 0, False), (gap, 0, False), (gap_2, 0, False)]
    for part, choice, partial in wanted:
        room -= part.offer(choice, room, partial)
    out = [line for part in parts for line in part.shown][: max(height, 1)]
    for line in out:
        line.truncate(width, overflow="ellipsis")
    return out


class _Part:
    """Lines of the compact table: one of ``choices`` (richest first) or none."""

    def __init__(self, *choices: list[Text]) -> None:
        self.choices = choices
        self.shown: list[Text] = []

    def show(self, choice: int) -> int:
        """Show ``choice`` whatever the room; the lines it takes."""
        self.shown = self.choices[choice]
        return len(self.shown)

    def offer(self, choice: int, room: int, partial: bool) -> int:
        """Show ``choice`` instead of what shows if it fits in ``room`` more
        lines, or, if ``partial``, its first lines that fit when nothing shows
        yet; the lines it takes beyond what showed."""
        lines = self.choices[choice]
        more = len(lines) - len(self.shown)
        if more <= room:
            self.shown = lines
            return more
        if partial and not self.shown and room > 0:
            self.shown = [*lines[: room - 1], lines[room - 1] + " …"]
            return room
        return 0


def _state_rows(game: Game, state: State, just_played: int | None, width: int) -> list[Text]:
    """A row a seat; the first column holds the state's name, then how it
    stands (bold when this ply resolved it)."""
    resolution = game.resolution(state)
    ahead = leader(game, state)
    if resolution is not None:
        standing = f"marker {resolution.marker}: {seat_name(resolution.winner)}"
    elif ahead is not None:
        standing = f"{seat_name(ahead)} would win"
    else:
        standing = "" if game.standing(state) is None else LEVEL_SO_FAR
    just_now = resolution is not None and resolution.ply == just_played
    rows = []
    for seat in range(game.seats):
        row = Text()
        if seat == 0:
            row.append(f"{state.name} {state.full_name}".ljust(STATE_COLUMN), style="bold")
        else:
            status = standing if seat == 1 else ""
            row.append(status.ljust(STATE_COLUMN), style="bold" if just_now else "")
        row.append(BAR, style="dim")
        row.append(seat_name(seat))
        army = game.army(state, seat)
        if army.units:
            row.append_text(_cells(army, just_played))
            formations = army.formations
            if formations == Formations():
                row.append(" no formation", style="dim")
            else:
                row.append(f" {_formations(formations, width - FORMATIONS_AT)}")
        rows.append(row)
    return rows


def _cells(army: Army, just_played: int | None) -> Text:
    """`` ···H·[L·S··]L····       ``: a space before each card and after the
    last, brackets around the card just played in their place, and blanks
    for the cards to come."""
    out = Text()
    for unit in army.units:
        if unit.ply == just_played:
            out.append(f"[{card_cell(unit.card)}]", style="bold reverse")
        elif out.plain.endswith("]"):
            out.append(card_cell(unit.card))
        else:
            out.append(f" {card_cell(unit.card)}")
    if not out.plain.endswith("]"):
        out.append(" ")
    out.append(" " * (len(SLOTS) + 1) * (UNITS_PER_ARMY - len(army.units)))
    return out


def _formations(formations: Formations, room: int) -> str:
    """``battalion F, companies S L`` when it fits in ``room`` cells, else by
    the number of cards a formation needs: ``3F 2S 2L``."""
    words = ", ".join(
        f"{level.word if len(icons) == 1 else level.plural} {' '.join(i.name for i in icons)}"
        for level in LEVELS
        if (icons := formations.at(level))
    )
    if len(words) <= room:
        return words
    return " ".join(
        f"{level.value}{icon.name}" for level in LEVELS for icon in formations.at(level)
    )


def _packed_hands(game: Game, seat: int | None, width: int) -> list[Text]:
    """``hands: P1 LH F S   P2 5 hidden``, as many seats to a line as fit."""
    if game.hands is None:
        return [Text("hands: not recorded (no deal)", style="dim")]
    lines: list[str] = []
    for s, hand in enumerate(game.hands):
        shown = _hand(hand, seen=True) if seat is None or seat == s else f"{len(hand)} hidden"
        entry = f"{seat_name(s)} {shown}"
        if lines and len(lines[-1]) + len("   ") + len(entry) <= width:
            lines[-1] += f"   {entry}"
        else:
            lines.append(f"{'       ' if lines else 'hands: '}{entry}")
    return [Text(line) for line in lines]


def _fitting(texts: tuple[str, ...], width: int) -> str:
    """The first of ``texts`` that fits in ``width`` cells, else the last."""
    return next((text for text in texts if cell_len(text) <= width), texts[-1])


def _wrapped(text: Text, width: int, indent: str = "") -> list[Text]:
    """``text`` broken at spaces into lines of at most ``width`` cells (a word
    longer than that is cut later, with the line)."""
    lines = textwrap.wrap(
        text.plain, max(width, 1), initial_indent=indent, subsequent_indent=indent + "  "
    )
    return [Text(line, style=text.style) for line in lines]
