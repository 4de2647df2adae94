"""The interactive replay: single keys move through the steps.

The key handling is a small state machine (``Stepper``) fed by any source of
keys, so tests drive it with a list and the terminal drives it with
``terminal_keys``. A frame is the table drawn for the terminal's size, with
the key help, a message or the ply being typed on its last lines.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator

from rich.console import Console
from rich.text import Text

HELP = "→/n/space next  ←/p/b back  g<ply>⏎ go to ply  s start  e end  ? keys  q quit"

KEYS = """\
→ n space l j ↓     the next ply
← p b h k ↑         the ply before
g digits Enter      go to that ply (0: before the first play); Esc cancels
s Home   e End      the start   the end
?                   these keys; Esc closes them, or any message
q                   quit
Each card is five slots, L B S H F: lance, bow, swords, helmet, flag; [·B···]
is the card just played. Cards sharing an icon: 2 make a company, 3 a
battalion, 4 a regiment (3F, where words do not fit: a battalion of flags).
"marker 2: P2": the state is resolved, and marker 2 went to P2."""

NEXT = {"right", "n", " ", "l", "j", "down"}
BACK = {"left", "p", "b", "h", "k", "up"}
START = {"home", "s"}
END = {"end", "e"}
QUIT = {"q", "ctrl-c", "ctrl-d"}

Draw = Callable[[int, int, int], list[Text]]
"""The table at a position, in at most (width, height) cells: a Text a line."""


class Stepper:
    """Where the replay stands, and what each key does to it.

    Esc closes what is open (the ply being typed, a message, the keys); with
    nothing open it says that q quits rather than quitting: a lone Esc is
    also the start of an arrow key, which a slow terminal may send in two
    reads."""

    def __init__(self, last: int, position: int = 0) -> None:
        self.last = last
        self.position = position
        self.typed: str | None = None  # the ply number being typed after "g"
        self.message = ""

    def press(self, key: str) -> bool:
        """Apply one key; False once the user quits."""
        if self.typed is not None:
            return self._typing(key)
        if key == "escape":
            self.message = "" if self.message else "q quits"
            return True
        self.message = ""
        if key in QUIT:
            return False
        if key in NEXT:
            self.position = min(self.position + 1, self.last)
        elif key in BACK:
            self.position = max(self.position - 1, 0)
        elif key in START:
            self.position = 0
        elif key in END:
            self.position = self.last
        elif key == "g":
            self.typed = ""
        elif key == "?":
            self.message = KEYS
        else:
            self.message = f"unknown key {key!r}: ? shows the keys"
        return True

    def _typing(self, key: str) -> bool:
        assert self.typed is not None
        if key.isdigit():
            self.typed += key
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif key == "enter":
            if self.typed and int(self.typed) <= self.last:
                self.position = int(self.typed)
            else:
                self.message = f"no ply {self.typed or '?'}: plies run 0 to {self.last}"
            self.typed = None
        elif key == "escape":
            self.typed = None
        elif key in QUIT:
            return False
        return True

    def status(self) -> str:
        """What the last lines say instead of the key help: the ply being
        typed or the message; empty when nothing is open."""
        if self.typed is not None:
            return f"go to ply: {self.typed}_   (Enter goes, Esc cancels)"
        return self.message


def frame(stepper: Stepper, draw: Draw, width: int, height: int) -> list[Text]:
    """The screen for a terminal of ``width`` by ``height``: the table, its
    first line (the heading) always shown, then the key help or what is open
    instead, over the bottom of the table if it takes more than a line."""
    status = stepper.status()
    if status:
        bottom = [Text(line, style="bold") for line in status.splitlines()]
        if stepper.message:
            hint = "   Esc closes"
            if bottom[-1].cell_len + len(hint) > width:
                bottom.append(Text())
            bottom[-1].append(hint, style="dim")
    else:
        bottom = [Text(HELP, style="dim")]
    table = draw(stepper.position, width, max(height - 1, 1))
    table = table[: max(height - len(bottom), 1)]
    lines = table + bottom[: max(height - len(table), 0)]
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    return lines


def run(stepper: Stepper, keys: Iterable[str], draw: Draw, console: Console) -> int:
    """Show the current step, then apply keys until quit or keys run out. Returns the
    last position."""
    _show(stepper, draw, console)
    for key in keys:
        if not stepper.press(key):
            break
        _show(stepper, draw, console)
    console.line()  # the shell's prompt on a line of its own
    return stepper.position


def _show(stepper: Stepper, draw: Draw, console: Console) -> None:
    width, height = console.size
    console.clear()
    # No newline after the last line: on a full screen it would scroll the heading away.
    console.print(
        Text("\n").join(frame(stepper, draw, width, height)),
        end="",
        soft_wrap=False,
        no_wrap=True,
        crop=True,
    )


_ESCAPES = {
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[H": "home",
    "\x1b[F": "end",
    "\x1b[1~": "home",
    "\x1b[4~": "end",
    "\x1bOH": "home",
    "\x1bOF": "end",
    "\x1b": "escape",
    "\r": "enter",
    "\n": "enter",
    "\x7f": "backspace",
    "\x08": "backspace",
    "\x03": "ctrl-c",
    "\x04": "ctrl-d",
}


def split_keys(data: str) -> Iterator[str]:
    """Key names from what one read of the terminal returned (several keys may come at once)."""
    i = 0
    while i < len(data):
        for size in (4, 3, 2):
            chunk = data[i : i + size]
            if chunk.startswith("\x1b") and chunk in _ESCAPES:
                yield _ESCAPES[chunk]
                i += size
                break
        else:
            yield _ESCAPES.get(data[i], data[i])
            i += 1


def terminal_keys() -> Iterator[str] | None:
    """Keys from the terminal on standard input, one at a time; None where
    single keys cannot be read (no ``termios``: Windows)."""
    try:
        import termios
        import tty
    except ImportError:
        return None

    def keys() -> Iterator[str]:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            while True:
                data = os.read(fd, 64).decode("utf-8", "replace")
                if not data:
                    return
                yield from split_keys(data)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    return keys()
