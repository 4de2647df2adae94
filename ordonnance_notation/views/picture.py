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
from dataclasses import dataclass, replace

from ..engine.armies import LEVELS, Army
from ..engine.cards import Card, Icon, State, seat_name
from ..engine.game import Game, Turn
from ..notation.record import Play
from .board import (
    LEVEL_SO_FAR,
    _label,
    _markers,
    end_pieces,
    heading_pieces,
    leader,
    state_status,
)
from .report import visible
from .steps import Step, Steps


def escape(text: str) -> str:
    """Text in XML: ``&``, ``<`` and ``>`` as entities, as
    ``xml.sax.saxutils.escape`` writes it (whose import, through
    ``urllib``, would be a tenth of ``ordo view``'s start-up;
    tests/test_picture.py holds the two equal)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """An XML attribute's value in its quotes, as ``xml.sax.saxutils.quoteattr``
    writes it."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


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
HAND_LABEL_W = LABEL_W + 40  # "hand " and a seat's label: the hand's cards begin after it
LINE = 16  # a line of text
NOTE = 110  # characters of the note under the heading, at most
HEAD_H = 3 * LINE + 8
STATE_HEAD_H = 2 * LINE + 6
ROW_H = CARD_H + 3 * STRIP + 3 * 12 + 14  # four cards, then up to three levels of formations
HAND_CARD = 0.6  # cards in hand are drawn this much smaller
BACKGROUND = "#fbfaf6"

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
            f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>{body}</svg>\n'
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


def card(x: float, y: float, card: Card | str, last: bool = False, scale: float = 1) -> str:
    """``card``'s face (``card_face``) at (x, y), ``scale`` times its size,
    outlined when it is the card just played."""
    w, h = CARD_W * scale, CARD_H * scale
    face = f'<use href="#card-{card}" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"/>'
    if not last:
        return face
    return f'{face}<rect class="last" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="6"/>'


NO_DEAL = "hands: not recorded (no deal)"
EMPTY_HAND = "empty"
HIDDEN_HAND = "{} cards, hidden"
DEFEAT = "defeat marker"
VICTORY = "victory marker {}"


@dataclass(frozen=True, slots=True)
class Troops:
    """One army as a picture shows it: its cards in the order played, the
    highlight of its box (``lead``: it would win the state now, ``won``: it
    did), its formations a line a level, and its marker: the victory
    marker's number, 0 for a defeat marker, None while the state is open."""

    cards: tuple[str, ...]
    css: str
    formations: tuple[str, ...]
    marker: int | None


@dataclass(frozen=True, slots=True)
class Scene:
    """What the picture of a step shows, as words and cards and nothing to
    work out: ``draw`` lays it out. ``heading`` is ``heading_pieces``; the
    card just played is the last of the army at ``played`` (state index,
    seat); a hand is its cards, or the words that stand for it where it is
    hidden; ``hands`` is None without a deal."""

    heading: tuple[str, str, str, str]
    note: str
    labels: tuple[str, ...]
    state_heads: tuple[str, ...]
    armies: tuple[tuple[Troops, ...], ...]  # [state index][seat]
    played: tuple[int, int] | None
    statuses: tuple[str, ...]
    hand_labels: tuple[str, ...]
    hands: tuple[tuple[str, ...] | str, ...] | None
    pile: str
    ending: tuple[str, str]  # the last line, and the message of the error that stopped
    stopped: bool  # the replay there, in brackets ("" when none): another hand may be in it

    @property
    def seats(self) -> int:
        return len(self.labels)

    @property
    def mover(self) -> int | None:
        """The seat that played: the only one that sees its draw."""
        return None if self.played is None else self.played[1]

    @property
    def cards(self) -> frozenset[str]:
        """The cards it shows, on the table and in the hands."""
        shown = {card for row in self.armies for troops in row for card in troops.cards}
        for hand in self.hands or ():
            if not isinstance(hand, str):
                shown.update(hand)
        return frozenset(shown)


def step_picture(replay: Steps, step: Step, seat: int | None = None) -> Picture:
    """The table at ``step``; ``seat`` shows only what that seat could see
    (other hands as counts: their cards are not in the picture at all)."""
    return draw(seen_by(scene(replay, step), seat))


def scene(replay: Steps, step: Step, before: Scene | None = None) -> Scene:
    """What the picture of ``step`` shows, every hand in sight. ``before``,
    the scene of the step before, lends the columns of the states this
    step's ply was not played to: a ply changes only its own state."""
    game = step.game
    labels, hand_labels = seat_labels(replay.report.names, game.seats)
    played = None
    if step.turn is not None:
        played = (step.turn.state - 1, step.turn.seat)
    columns = []
    for state in State:
        if before is not None and played is not None and state - 1 != played[0]:
            i = state - 1
            columns.append((before.state_heads[i], before.armies[i], before.statuses[i]))
            continue
        ahead = leader(game, state)
        columns.append(
            (
                _state_short(game, state, ahead),
                tuple(_troops(game, state, s, ahead) for s in range(game.seats)),
                f"{state.name} {state.full_name}: {state_status(game, state)}",
            )
        )
    return Scene(
        heading=heading_pieces(replay, step),
        note=note(step.turn, step.play),
        labels=labels,
        state_heads=tuple(head for head, _, _ in columns),
        armies=tuple(armies for _, armies, _ in columns),
        played=played,
        statuses=tuple(status for _, _, status in columns),
        hand_labels=hand_labels,
        hands=None
        if game.hands is None
        else tuple(tuple(str(held) for held in hand) for hand in game.hands),
        pile=f"pile: {game.pile_left} cards",
        ending=_ending(replay, step),
        stopped=replay.stopped is not None,
    )


def seat_labels(names: tuple[str, ...], seats: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each seat's label beside its row, and beside its hand the same after
    "hand " (``HAND_LABEL_W`` leaves room for it)."""
    labels = tuple(_label(s, names)[:18] for s in range(seats))
    return labels, tuple(f"hand {label}" for label in labels)


def scenes(replay: Steps) -> Iterator[Scene]:
    """The scene of every step, in order, each lending its columns to the next."""
    before = None
    for step in replay.steps:
        before = scene(replay, step, before)
        yield before


def seen_by(scene: Scene, seat: int | None) -> Scene:
    """``scene`` as ``seat`` saw it: another seat's hand as its count, another
    seat's draw left out, and the message of the error that stopped the
    replay (it may name the cards of a hand: "P1 plays LH, but holds only
    ..."); every seat's view for None."""
    if seat is None:
        return scene
    count, play, drew, glyph = scene.heading
    hands = scene.hands
    if hands is not None:
        hands = tuple(
            hand if s == seat or isinstance(hand, str) else HIDDEN_HAND.format(len(hand))
            for s, hand in enumerate(hands)
        )
    seen = scene.mover is None or scene.mover == seat
    return replace(
        scene,
        heading=(count, play, drew if seen else "", glyph),
        hands=hands,
        ending=(scene.ending[0], ""),
    )


def draw(scene: Scene) -> Picture:
    """``scene`` laid out: the page's script (``views/viewer/viewer.js``) lays it out the same."""
    grid_top = MARGIN + HEAD_H
    rows_top = grid_top + STATE_HEAD_H
    parts: list[tuple[str, str]] = []
    parts.append(("head", text(MARGIN, MARGIN + LINE, "".join(scene.heading), "head")))
    parts.append(("note", text(MARGIN, MARGIN + 2 * LINE + 4, scene.note, "small")))
    for s, label in enumerate(scene.labels):
        top = rows_top + s * ROW_H
        parts.append((f"seat-{s}", text(MARGIN, top + LINE, label, "head")))
    for state in State:
        x = MARGIN + LABEL_W + (state - 1) * COLUMN_W
        short = scene.state_heads[state - 1]
        parts.append((f"state-{state.name}", _state_head(x, grid_top, state, short)))
        for s, troops in enumerate(scene.armies[state - 1]):
            top = rows_top + s * ROW_H
            last = scene.played == (state - 1, s)
            parts.append((f"army-{state.name}-{s}", _army(x, top, troops, last)))
    y: float = rows_top + scene.seats * ROW_H + LINE
    for state in State:
        parts.append((f"status-{state.name}", text(MARGIN, y, scene.statuses[state - 1])))
        y += LINE + 2
    y += LINE // 2
    for s, line in enumerate(_hands(scene, y)):
        parts.append((f"hand-{s}", line))
    y += (scene.seats + 1) * (CARD_H * HAND_CARD + 8) + LINE
    ending = "".join(scene.ending)
    parts.append(("end", text(MARGIN, y, ending, "bad" if scene.stopped else "head")))
    width = MARGIN * 2 + LABEL_W + 5 * COLUMN_W
    shown = frozenset(Card.from_letters(card) for card in scene.cards)
    return Picture(width, int(y + MARGIN), tuple(parts), shown)


def layout() -> dict[str, object]:
    """What ``draw`` lays a scene out with, for the page's script: sizes and
    the words that are not the scene's."""
    return {
        "CARD_W": CARD_W,
        "CARD_H": CARD_H,
        "STRIP": STRIP,
        "COLUMN_W": COLUMN_W,
        "LABEL_W": LABEL_W,
        "HAND_LABEL_W": HAND_LABEL_W,
        "MARGIN": MARGIN,
        "LINE": LINE,
        "NOTE": NOTE,
        "HEAD_H": HEAD_H,
        "STATE_HEAD_H": STATE_HEAD_H,
        "ROW_H": ROW_H,
        "HAND_CARD": HAND_CARD,
        "BACKGROUND": BACKGROUND,
        "STATES": [f"{state.name} {state.full_name}" for state in State],
        "NO_DEAL": NO_DEAL,
        "EMPTY_HAND": EMPTY_HAND,
        "HIDDEN_HAND": HIDDEN_HAND,
        "DEFEAT": DEFEAT,
        "VICTORY": VICTORY,
    }


def note(turn: Turn | None, play: Play | None) -> str:
    """What the ply caused, and the comments of its play, on one line under the heading."""
    words = []
    if turn is not None and turn.resolution is not None:
        resolution = turn.resolution
        words.append(
            f"{resolution.state.full_name} resolved: marker {resolution.marker} to "
            f"{seat_name(resolution.winner)}, {resolution.decision.explain()}"
        )
    if play is not None:
        words += [comment.text for comment in play.comments]
    line = " — ".join(words)
    return line if len(line) <= NOTE else line[: NOTE - 1] + "…"


def _state_short(game: Game, state: State, ahead: int | None) -> str:
    """The line under a state's name, where ``ahead`` leads (``leader``)."""
    resolution = game.resolution(state)
    if resolution is not None:
        return f"marker {resolution.marker}: {seat_name(resolution.winner)}"
    if ahead is not None:
        return f"{seat_name(ahead)} ahead"
    return "no units yet" if game.standing(state) is None else LEVEL_SO_FAR


def _state_head(x: float, y: float, state: State, short: str) -> str:
    centre = x + COLUMN_W / 2
    return (
        f"<g>{text(centre, y + LINE, f'{state.name} {state.full_name}', 'head', 'middle')}"
        f"{text(centre, y + 2 * LINE, short, 'small', 'middle')}</g>"
    )


def _troops(game: Game, state: State, seat: int, ahead: int | None) -> Troops:
    """``seat``'s army in ``state``, where ``ahead`` leads (``leader``)."""
    army = game.army(state, seat)
    resolution = game.resolution(state)
    leads = ahead == seat
    css = ("won" if resolution is not None else "lead") if leads else ""
    marker = None
    if resolution is not None:
        marker = resolution.marker if leads else 0
    return Troops(
        tuple(str(unit.card) for unit in army.units), css, tuple(_formations(army)), marker
    )


def _army(x: float, y: float, troops: Troops, last: bool) -> str:
    css = troops.css
    out = [
        f'<g><rect x="{x + 4:g}" y="{y:g}" width="{COLUMN_W - 8}" height="{ROW_H - 6}" '
        f'rx="8" fill="none"{f" class={quoteattr(css)}" if css else ""}/>'
    ]
    left = x + (COLUMN_W - CARD_W) / 2
    count = len(troops.cards)
    for i, held in enumerate(troops.cards):
        out.append(card(left, y + 6 + i * STRIP, held, last and i == count - 1))
    centre, line_y = x + COLUMN_W / 2, y + 6 + CARD_H + 3 * STRIP + 12
    for i, words in enumerate(troops.formations):
        out.append(text(centre, line_y + i * 12, words, "small", "middle"))
    if troops.marker is not None:
        out.append(_marker(x + COLUMN_W - 14, y + 14, troops.marker or None))
    out.append("</g>")
    return "".join(out)


def _formations(army: Army) -> Iterator[str]:
    formations = army.formations
    for level in LEVELS:
        icons = formations.at(level)
        if icons:
            yield f"{level.word} {' '.join(i.name for i in icons)}"


def _marker(x: float, y: float, number: int | None) -> str:
    """A victory marker with its number, or a defeat marker (``number`` None)."""
    if number is None:
        return (
            f'<circle class="defeat" cx="{x:g}" cy="{y:g}" r="7"><title>{DEFEAT}</title></circle>'
        )
    return (
        f"<g><title>{VICTORY.format(number)}</title>"
        f'<circle class="marker" cx="{x:g}" cy="{y:g}" r="10"/>'
        f'<text class="mark" x="{x:g}" y="{y + 4:g}">{number}</text></g>'
    )


def _hands(scene: Scene, top: float) -> list[str]:
    """A line for each seat's hand, then the pile's."""
    height = CARD_H * HAND_CARD + 8
    if scene.hands is None:
        return [text(MARGIN, top + LINE, NO_DEAL, "dim")]
    lines = []
    for s, hand in enumerate(scene.hands):
        y = top + s * height
        out = [text(MARGIN, y + LINE, scene.hand_labels[s])]
        if isinstance(hand, str):
            out.append(text(MARGIN + HAND_LABEL_W, y + LINE, hand, "dim"))
        else:
            for i, held in enumerate(hand):
                out.append(
                    card(
                        MARGIN + HAND_LABEL_W + i * (CARD_W * HAND_CARD + 6),
                        y,
                        held,
                        scale=HAND_CARD,
                    )
                )
            if not hand:
                out.append(text(MARGIN + HAND_LABEL_W, y + LINE, EMPTY_HAND, "dim"))
        lines.append(f"<g>{''.join(out)}</g>")
    y = top + scene.seats * height
    lines.append(text(MARGIN, y + LINE, scene.pile))
    return lines


def _ending(replay: Steps, step: Step) -> tuple[str, str]:
    """The text board's note that ends the replay, else the markers so far."""
    return end_pieces(replay, step) or (_markers(step.game), "")
