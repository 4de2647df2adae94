"""The interactive replay: single keys move through the steps.

The key handling is a small state machine (``Stepper``) fed by any source of
keys, so tests drive it with a list and the terminal drives it with
``terminal_keys``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator

from rich.console import Console
from rich.text import Text

HELP = "→/n/space next  ←/p/b back  g<ply>⏎ go to ply  s/Home start  e/End end  q quit"

NEXT = {"right", "n", " ", "l", "j", "down"}
BACK = {"left", "p", "b", "h", "k", "up"}
START = {"home", "s"}
END = {"end", "e"}
QUIT = {"q", "escape", "ctrl-c", "ctrl-d"}


class Stepper:
    """Where the replay stands, and what each key does to it."""

    def __init__(self, last: int, position: int = 0) -> None:
        self.last = last
        self.position = position
        self.typed: str | None = None  # the ply number being typed after "g"
        self.message = ""

    def press(self, key: str) -> bool:
        """Apply one key; False once the user quits."""
        self.message = ""
        if self.typed is not None:
            return self._typing(key)
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
        else:
            self.message = f"unknown key {key!r}"
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
        elif key in QUIT - {"escape"}:
            return False
        return True

    def status(self) -> str:
        if self.typed is not None:
            return f"go to ply: {self.typed}_"
        return self.message


def run(
    stepper: Stepper, keys: Iterable[str], draw: Callable[[int], Text], console: Console
) -> int:
    """Show the current step, then apply keys until quit or keys run out. Returns the
    last position."""
    _show(stepper, draw, console)
    for key in keys:
        if not stepper.press(key):
            break
        _show(stepper, draw, console)
    return stepper.position


def _show(stepper: Stepper, draw: Callable[[int], Text], console: Console) -> None:
    console.clear()
    console.print(draw(stepper.position))
    console.print(Text(HELP, style="dim"))
    if stepper.status():
        console.print(Text(stepper.status(), style="bold"))


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


def terminal_keys() -> Iterator[str]:
    """Keys from the terminal on standard input, one at a time (POSIX)."""
    import termios
    import tty

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
