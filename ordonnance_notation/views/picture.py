"""The table at one step of a replay as an SVG picture: the five states as
columns and the seats as rows, as the players sit at a territory line; each
army as its cards overlapping so that every card's row of five icon slots
(lance, bow, swords, helmet, banner, left to right, as on the cards) stays in
sight; formations under each army; who would win each state now, or the
marker its winner took; the hands, the pile and the last play.

The words are the text board's (``board``): a picture says what ``ordo
replay`` prints. A picture is a list of named parts (``Picture.parts``) so
that a page showing many steps can send only the parts a step changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ..engine.armies import LEVELS, Army
from ..engine.cards import Card, Icon, State, seat_name
from ..engine.game import Game
from .board import _label, heading, state_status
from .replay import Replay, Step
from .report import visible

ICON_COLOURS = {
    Icon.L: "#8d5a2b",  # brown, as the edition prints it (rules.md)
    Icon.B: "#55697d",  # not known: a slate grey of our own
    Icon.S: "#2e7d32",  # green
    Icon.H: "#c99a06",  # yellow, darkened to show on a white card
    Icon.F: "#c62828",  # red
}
"""The edition's icon colours where rules.md knows them."""

ICON_SHAPES = {
    Icon.L: '<path d="M4 21 17 8" stroke-width="2.6"/><path d="M14.5 5.5 21 3l-2.5 6.5z"/>',
    Icon.B: '<path d="M8 3q14 9 0 18" fill="none" stroke-width="2.6"/>'
    '<path d="M8 3v18" stroke-width="1"/>',
    Icon.S: '<path d="M4 4l16 16M20 4 4 20" stroke-width="2.6"/>'
    '<path d="M3 15l6 6M21 15l-6 6" stroke-width="2"/>',
    Icon.H: '<path d="M4 17q0-13 8-13t8 13z"/><path d="M7 12h10" stroke="#fff" stroke-width="2"/>',
    Icon.F: '<path d="M6 3v18" stroke-width="2"/><path d="M7 4l13 3.5L7 11z"/>',
}
"""Each icon drawn in a 24-unit square, in its colour (fill and stroke)."""

CARD_W, CARD_H = 80, 72
STRIP = 24  # what shows of a card another card overlaps: its row of icon slots
SLOT = 15  # the width of an icon slot
COLUMN_W, LABEL_W, MARGIN = 112, 140, 16
LINE = 16  # a line of text
HEAD_H = 3 * LINE + 8
STATE_HEAD_H = 2 * LINE + 6
ROW_H = CARD_H + 3 * STRIP + 3 * 12 + 14  # four cards, then up to three levels of formations
HAND_CARD = 0.6  # cards in hand are drawn this much smaller

STYLE = (
    "text{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px;fill:#222}"
    ".head{font-size:15px;font-weight:600}.small{font-size:10.5px;fill:#444}"
    ".dim{fill:#777}.bad{fill:#b71c1c;font-weight:600}"
    ".card{fill:#fffdf7;stroke:#8a8170;stroke-width:1}"
    ".last{fill:none;stroke:#1565c0;stroke-width:3}"
    ".empty{fill:#d8d3c8}.lead{fill:#fff3c4}.won{fill:#e3f2d9}"
    ".marker{fill:#f2c230;stroke:#7a5c00}.defeat{fill:#555}"
    ".mark{font-size:11px;font-weight:700;fill:#222;text-anchor:middle}"
    ".name{font-size:9px;fill:#555;text-anchor:middle}"
)


@dataclass(frozen=True, slots=True)
class Picture:
    """An SVG picture: its size and its parts, each a named SVG element, in
    drawing order."""

    width: int
    height: int
    parts: tuple[tuple[str, str], ...]

    cards: frozenset[Card] = frozenset()  # the cards it shows, for ``defs``

    def svg(self, title: str = "") -> str:
        """The picture as a file: its title, the definitions it uses, its parts."""
        body = "".join(element for _, element in self.parts)
        heading = f"<title>{escape(visible(title))}</title>" if title else ""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
            f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
            f'role="img">{heading}{defs(self.cards)}'
            f'<rect width="100%" height="100%" fill="#fbfaf6"/>{body}</svg>\n'
        )


def defs(cards: Iterable[Card] = ()) -> str:
    """The style, the five icons and a face for each of ``cards``: once for
    every picture of a page."""
    icons = "".join(
        f'<symbol id="icon-{icon.name}" viewBox="0 0 24 24"><g fill="{colour}" '
        f'stroke="{colour}" stroke-linecap="round">{ICON_SHAPES[icon]}</g></symbol>'
        for icon, colour in ICON_COLOURS.items()
    )
    faces = "".join(card_face(card) for card in sorted(set(cards), key=str))
    return f"<defs><style>{STYLE}</style>{icons}{faces}</defs>"


def card_face(card: Card) -> str:
    """A card as a symbol (``#card-LS``): its five icon slots across the top,
    an icon where the card has it, a faint dot where it has not, and its
    letters at the foot."""
    slots = []
    for icon in Icon:
        left = 3 + icon * SLOT
        if icon in card:
            size = SLOT - 1
            slots.append(
                f'<use href="#icon-{icon.name}" x="{left}" y="4" width="{size}" height="{size}"/>'
            )
        else:
            slots.append(f'<circle class="empty" cx="{left + SLOT / 2 - 0.5:g}" cy="11" r="2"/>')
    return (
        f'<symbol id="card-{card}" viewBox="0 0 {CARD_W} {CARD_H}">'
        f"<title>{card}: {', '.join(icon.word for icon in card.icons)}</title>"
        f'<rect class="card" x="0.5" y="0.5" width="{CARD_W - 1}" height="{CARD_H - 1}" rx="6"/>'
        f"{''.join(slots)}"
        f'<text class="name" x="{CARD_W / 2:g}" y="{CARD_H - 8}">{card}</text></symbol>'
    )


def text(x: float, y: float, words: str, css: str = "", anchor: str = "") -> str:
    """One line of text; control characters are shown as escapes (``visible``)
    and the rest escaped for XML."""
    css_attr = f' class="{css}"' if css else ""
    anchor_attr = f' text-anchor="{anchor}"' if anchor else ""
    return f'<text x="{x:g}" y="{y:g}"{css_attr}{anchor_attr}>{escape(visible(words))}</text>'


def card(x: float, y: float, card: Card, last: bool = False, scale: float = 1) -> str:
    """``card``'s face (``card_face``) at (x, y), ``scale`` times its size,
    outlined when it is the card just played."""
    w, h = CARD_W * scale, CARD_H * scale
    face = f'<use href="#card-{card}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"/>'
    if not last:
        return face
    return f'{face}<rect class="last" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="6"/>'


def step_picture(replay: Replay, step: Step, seat: int | None = None) -> Picture:
    """The table at ``step``; ``seat`` shows only what that seat could see
    (other hands as counts: their cards are not in the picture at all)."""
    game = step.game
    names = replay.report.names
    grid_top = MARGIN + HEAD_H
    rows_top = grid_top + STATE_HEAD_H
    parts: list[tuple[str, str]] = []
    # the note under the heading names the resolution, with its reason
    head = heading(replay, step, seat, resolution=False)
    parts.append(("head", text(MARGIN, MARGIN + LINE, head, "head")))
    parts.append(("note", text(MARGIN, MARGIN + 2 * LINE + 4, _note(step), "small")))
    for s in range(game.seats):
        top = rows_top + s * ROW_H
        parts.append((f"seat-{s}", text(MARGIN, top + LINE, _label(s, names)[:18], "head")))
    last_ply = step.number if step.turn else None
    for state in State:
        x = MARGIN + LABEL_W + (state - 1) * COLUMN_W
        parts.append((f"state-{state.name}", _state_head(x, grid_top, game, state)))
        for s in range(game.seats):
            top = rows_top + s * ROW_H
            parts.append((f"army-{state.name}-{s}", _army(x, top, game, state, s, last_ply)))
    y: float = rows_top + game.seats * ROW_H + LINE
    for state in State:
        status = f"{state.name} {state.full_name}: {state_status(game, state)}"
        parts.append((f"status-{state.name}", text(MARGIN, y, status)))
        y += LINE + 2
    y += LINE // 2
    for s, line in enumerate(_hands(game, names, seat, y)):
        parts.append((f"hand-{s}", line))
    y += (game.seats + 1) * (CARD_H * HAND_CARD + 8) + LINE
    parts.append(
        ("end", text(MARGIN, y, _ending(replay, step), "bad" if replay.stopped else "head"))
    )
    width = MARGIN * 2 + LABEL_W + 5 * COLUMN_W
    shown = {unit.card for armies in game.armies for army in armies for unit in army.units}
    if game.hands is not None:
        shown.update(
            held for s, hand in enumerate(game.hands) if seat in (None, s) for held in hand
        )
    return Picture(width, int(y + MARGIN), tuple(parts), frozenset(shown))


def _note(step: Step) -> str:
    """What the play caused, and its comments, on one line under the heading."""
    words = []
    if step.turn is not None and step.turn.resolution is not None:
        resolution = step.turn.resolution
        words.append(
            f"{resolution.state.full_name} resolved: marker {resolution.marker} to "
            f"{seat_name(resolution.winner)}, {resolution.decision.explain()}"
        )
    if step.play is not None:
        words += [comment.text for comment in step.play.comments]
    line = " — ".join(words)
    return line if len(line) <= 110 else line[:109] + "…"


def _state_head(x: float, y: float, game: Game, state: State) -> str:
    resolution = game.resolution(state)
    if resolution is not None:
        short = f"marker {resolution.marker}: {seat_name(resolution.winner)}"
    else:
        decision = game.standing(state)
        short = "no units yet" if decision is None else f"{seat_name(decision.winner.seat)} ahead"
    centre = x + COLUMN_W / 2
    return (
        f"<g>{text(centre, y + LINE, f'{state.name} {state.full_name}', 'head', 'middle')}"
        f"{text(centre, y + 2 * LINE, short, 'small', 'middle')}</g>"
    )


def _army(x: float, y: float, game: Game, state: State, seat: int, last: int | None) -> str:
    army = game.army(state, seat)
    resolution = game.resolution(state)
    decision = game.standing(state)
    leads = decision is not None and decision.winner.seat == seat and army.units
    css = ("won" if resolution is not None else "lead") if leads else ""
    out = [
        f'<g><rect x="{x + 4:g}" y="{y:g}" width="{COLUMN_W - 8}" height="{ROW_H - 6}" '
        f'rx="8" fill="none"{f" class={quoteattr(css)}" if css else ""}/>'
    ]
    left = x + (COLUMN_W - CARD_W) / 2
    for i, unit in enumerate(army.units):
        out.append(card(left, y + 6 + i * STRIP, unit.card, unit.ply == last))
    out += _formations(x + COLUMN_W / 2, y + 6 + CARD_H + 3 * STRIP + 12, army)
    if resolution is not None:
        out.append(_marker(x + COLUMN_W - 14, y + 14, resolution.marker if leads else None))
    out.append("</g>")
    return "".join(out)


def _formations(centre: float, y: float, army: Army) -> Iterator[str]:
    formations = army.formations
    for level in LEVELS:
        icons = formations.at(level)
        if icons:
            yield text(
                centre, y, f"{level.word} {' '.join(i.name for i in icons)}", "small", "middle"
            )
            y += 12


def _marker(x: float, y: float, number: int | None) -> str:
    """A victory marker with its number, or a defeat marker (``number`` None)."""
    if number is None:
        return (
            f'<circle class="defeat" cx="{x:g}" cy="{y:g}" r="7">'
            "<title>defeat marker</title></circle>"
        )
    return (
        f"<g><title>victory marker {number}</title>"
        f'<circle class="marker" cx="{x:g}" cy="{y:g}" r="10"/>'
        f'<text class="mark" x="{x:g}" y="{y + 4:g}">{number}</text></g>'
    )


def _hands(game: Game, names: tuple[str, ...], seat: int | None, top: float) -> list[str]:
    """A line for each seat's hand, then the pile's."""
    height = CARD_H * HAND_CARD + 8
    if game.hands is None:
        return [text(MARGIN, top + LINE, "hands: not recorded (no deal)", "dim")]
    lines = []
    for s, hand in enumerate(game.hands):
        y = top + s * height
        out = [text(MARGIN, y + LINE, f"hand {_label(s, names)[:13]}")]
        if seat is None or seat == s:
            for i, held in enumerate(hand):
                out.append(
                    card(MARGIN + LABEL_W + i * (CARD_W * HAND_CARD + 6), y, held, scale=HAND_CARD)
                )
            if not hand:
                out.append(text(MARGIN + LABEL_W, y + LINE, "empty", "dim"))
        else:
            out.append(text(MARGIN + LABEL_W, y + LINE, f"{len(hand)} cards, hidden", "dim"))
        lines.append(f"<g>{''.join(out)}</g>")
    y = top + game.seats * height
    lines.append(text(MARGIN, y + LINE, f"pile: {game.pile_left} cards"))
    return lines


def _ending(replay: Replay, step: Step) -> str:
    report = replay.report
    if step.number == replay.last and replay.stopped is not None:
        return (
            f"replay stops here: ply {replay.stopped.ply} is {replay.stopped.code} "
            f"({replay.stopped.message})"
        )
    if step.number == replay.last and step.game.over and report.outcome is not None:
        unit = report.scoring.unit if report.scoring else "states"
        return f"game over: {report.outcome.describe(unit)}"
    markers = ", ".join(
        f"#{r.marker} {r.state.name} {seat_name(r.winner)}" for r in step.game.resolutions
    )
    return f"markers: {markers or 'none yet'}"
