"""The bot protocol's words (docs/bots.md): the lines ordo writes to a bot
and the reading of the lines a bot writes back. Nothing here runs a
process (``players``) or keeps a game (``engine.game``)."""

from __future__ import annotations

from collections.abc import Sequence

from ..diagnostics import quoted
from ..engine.cards import Card, CardError, State, seat_name
from ..engine.scoring import Scoring

VERSION = 1
MAX_LINE = 1024
"""The most bytes a bot's line may hold, its end included."""
START_SECONDS = 10.0
"""How long a bot has to name itself, and to exit when told to quit."""
MAX_NAME = 64


class ProtocolError(ValueError):
    """A line from a bot that is not the answer asked for: what is wrong, in words."""


def hello() -> str:
    return f"ordo {VERSION}"


def setup(seats: int, seat: int, scoring: Scoring, deck: int, hand: Sequence[Card]) -> list[str]:
    """The lines that begin a game for the bot at ``seat``."""
    rule = "classic" if scoring.points is None else "points " + " ".join(map(str, scoring.points))
    return [
        "game",
        f"seats {seats}",
        f"seat {seat_name(seat)}",
        f"scoring {rule}",
        f"deck {deck}",
        "hand " + " ".join(map(str, hand)),
    ]


def draw(card: Card) -> str:
    return f"draw {card}"


def go(seconds: float) -> str:
    return f"go {round(seconds * 1000)}"


def play(seat: int, card: Card, state: State) -> str:
    return f"play {seat_name(seat)} {card} {state.name}"


def end(winner: int | None, forfeit: int | None) -> str:
    """The game is over: won by ``winner``, shared, or ended by ``forfeit``'s bot."""
    if forfeit is not None:
        return f"end forfeit {seat_name(forfeit)}"
    return f"end {'shared' if winner is None else seat_name(winner)}"


QUIT = "quit"


def shown(line: str) -> str:
    """A bot's line as a message quotes it: escaped, and cut when long."""
    return quoted(line.encode("ascii", "backslashreplace").decode("ascii"))


def printable(text: str) -> str:
    """``text`` with each character that is not printable (a NUL, a line
    end, a control, half a surrogate pair) written as its escape, ``\\x00``:
    a record's comment holds it on one line, and every reader takes it."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _words(line: str, first: str, count: int) -> list[str]:
    words = line.split()
    if not words or words[0] != first or len(words) != count:
        raise ProtocolError(f"wrote {shown(line)} where `{first}` and {count - 1} words were asked")
    return words[1:]


def read_name(line: str) -> str:
    """``bot NAME``: the bot's name (printable, at most MAX_NAME characters)."""
    if not line.startswith("bot "):
        raise ProtocolError(f"wrote {shown(line)} where `bot NAME` was asked")
    name = line[4:].strip()
    if not name or not name.isprintable() or len(name) > MAX_NAME:
        raise ProtocolError(
            f"named itself {shown(name)}: a name is printable, 1 to {MAX_NAME} characters"
        )
    return name


def read_play(line: str) -> tuple[Card, State]:
    """``play CARD STATE``: the card and the state of the bot's play."""
    letters, word = _words(line, "play", 3)
    try:
        card = Card.from_letters(letters)
    except CardError as error:
        raise ProtocolError(f"wrote {shown(line)}: {error}") from None
    state = State.lookup(word)
    if state is None:
        raise ProtocolError(f"wrote {shown(line)}: {shown(word)} is no state (A C J E T)")
    return card, state


def read_ok(line: str) -> None:
    if line.strip() != "ok":
        raise ProtocolError(f"wrote {shown(line)} after the game ended, where `ok` was asked")
