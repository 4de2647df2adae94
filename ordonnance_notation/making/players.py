"""Who sits at a seat in a match: a built-in bot, or a program that speaks
the bot protocol (``protocol``, docs/bots.md) over its standard input and
output. The table (``match``) tells each player what its seat sees and
asks the seat to move for a play; the rules engine checks every answer."""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from ..engine.cards import Card, State
from ..engine.game import Deal, Game, Turn
from ..engine.rng import Rng
from ..engine.scoring import Scoring
from . import protocol
from .bots import BOTS, Bot, bot


class Forfeit(Exception):
    """The bot at a seat lost the game by what it did or failed to do: why, in words."""


@dataclass(frozen=True, slots=True)
class Seating:
    """What a seat is told when a game begins; ``stream`` is the seed of its random choices."""

    seats: int
    seat: int
    scoring: Scoring
    deal: Deal
    stream: str


class Player(Protocol):
    name: str

    def begin(self, seating: Seating) -> None: ...

    def drew(self, card: Card) -> None: ...

    def choose(self, game: Game, hand: Sequence[Card]) -> tuple[Card, State]:
        """The seat's play; raises Forfeit."""
        ...

    def saw(self, turn: Turn) -> None: ...

    def end(self, winner: int | None, forfeit: int | None) -> None:
        """The game is over; raises Forfeit (a bot that misbehaves at the end)."""
        ...

    def forfeited(self) -> None:
        """The seat lost the game by a fault (a program is then started afresh)."""
        ...

    def close(self) -> None: ...


class AtTable:
    """What a player that needs none of the table's news does with it:
    nothing. A player overrides what it listens to."""

    def begin(self, seating: Seating) -> None:
        pass

    def drew(self, card: Card) -> None:
        pass

    def saw(self, turn: Turn) -> None:
        pass

    def end(self, winner: int | None, forfeit: int | None) -> None:
        pass

    def forfeited(self) -> None:
        pass

    def close(self) -> None:
        pass


class Builtin(AtTable):
    """A built-in bot (``bots``), its choices drawn from the seat's stream."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.bot: Bot = bot(name)
        self.rng = Rng("")

    def begin(self, seating: Seating) -> None:
        self.rng = Rng(seating.stream)

    def choose(self, game: Game, hand: Sequence[Card]) -> tuple[Card, State]:
        return self.bot.choose(game, hand, self.rng)


class BotStartError(Exception):
    """An external bot that cannot be started or does not name itself: why,
    in words (``reason``), and the bot as given (``spec``), once known."""

    def __init__(self, reason: str, spec: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.spec = spec


class External:
    """A program that speaks the bot protocol: started on first use, asked
    for plays within ``move_time`` seconds, its standard error appended to
    ``log``. A bot that forfeits is killed and started again for the next
    game. Reads and writes never wait past their time: the pipes are read
    and written a piece at a time as they are ready."""

    def __init__(self, command: Sequence[str], move_time: float, log: Path) -> None:
        self.command = list(command)
        self.move_time = move_time
        self.log = log
        self.name = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._pending = b""
        self._logged: IO[bytes] | None = None

    # -- the process ------------------------------------------------------

    def start(self) -> str:
        """Starts the program and reads its name. Raises BotStartError."""
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self._logged = open(self.log, "ab")  # noqa: SIM115 (kept while the process runs)
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._logged,
                start_new_session=True,  # its own group: killed with every process it starts
            )
        except OSError as error:
            self._logged.close()
            raise BotStartError(f"cannot be started: {error.strerror or error}") from None
        assert self._process.stdin is not None and self._process.stdout is not None
        for stream in (self._process.stdin, self._process.stdout):
            os.set_blocking(stream.fileno(), False)
        self._pending = b""
        try:
            self._send([protocol.hello()], protocol.START_SECONDS)
            self.name = protocol.read_name(self._line(protocol.START_SECONDS))
        except (Forfeit, protocol.ProtocolError) as error:
            self.kill()
            raise BotStartError(f"did not name itself: {error}") from None
        return self.name

    def kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            for stream in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):
                    stream.close()  # type: ignore[union-attr]
        if self._logged is not None:
            self._logged.close()
            self._logged = None

    def close(self) -> None:
        """Tells the bot to quit; kills it if it has not within START_SECONDS."""
        process = self._process
        if process is None:
            return
        with contextlib.suppress(Forfeit):
            self._send([protocol.QUIT], 1.0)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(protocol.START_SECONDS)
        self.kill()

    # -- the seat ---------------------------------------------------------

    def begin(self, seating: Seating) -> None:
        if self._process is None:
            try:
                self.start()
            except BotStartError as error:
                raise Forfeit(str(error)) from None
        self._checked_quiet()
        deal = seating.deal
        deck = len(deal.pile) + sum(map(len, deal.hands))
        hand = deal.hands[seating.seat]
        lines = protocol.setup(seating.seats, seating.seat, seating.scoring, deck, hand)
        self._send(lines, self.move_time)

    def drew(self, card: Card) -> None:
        self._send([protocol.draw(card)], self.move_time)

    def choose(self, game: Game, hand: Sequence[Card]) -> tuple[Card, State]:
        self._checked_quiet()
        self._send([protocol.go(self.move_time)], self.move_time)
        line = self._line(self.move_time)
        try:
            return protocol.read_play(line)
        except protocol.ProtocolError as error:
            raise Forfeit(str(error)) from None

    def saw(self, turn: Turn) -> None:
        self._send([protocol.play(turn.seat, turn.card, turn.state)], self.move_time)

    def end(self, winner: int | None, forfeit: int | None) -> None:
        if self._process is None:
            return
        self._send([protocol.end(winner, forfeit)], self.move_time)
        try:
            protocol.read_ok(self._line(self.move_time))
        except protocol.ProtocolError as error:
            raise Forfeit(str(error)) from None

    def forfeited(self) -> None:
        """The bot lost the game by a fault: killed, to start afresh."""
        self.kill()

    # -- lines ------------------------------------------------------------

    def _checked_quiet(self) -> None:
        """Forfeits if the bot wrote anything when nothing was asked."""
        if self._pending or self._readable(0.0):
            line = self._line(0.0)
            raise Forfeit(f"wrote {protocol.shown(line)} when nothing was asked")

    def _readable(self, seconds: float) -> bool:
        assert self._process is not None and self._process.stdout is not None
        ready, _, _ = select.select([self._process.stdout], [], [], max(0.0, seconds))
        return bool(ready)

    def _line(self, seconds: float) -> str:
        """The bot's next line, within ``seconds``. Raises Forfeit."""
        process = self._process
        assert process is not None and process.stdout is not None
        deadline = time.monotonic() + seconds
        while b"\n" not in self._pending:
            if len(self._pending) >= protocol.MAX_LINE:
                raise Forfeit(f"wrote a line longer than {protocol.MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not self._readable(left):
                raise Forfeit(f"gave no answer within {seconds:g} s")
            try:
                piece = os.read(process.stdout.fileno(), protocol.MAX_LINE)
            except BlockingIOError:
                continue
            if not piece:
                raise Forfeit(self._ended())
            self._pending += piece
        line, _, self._pending = self._pending.partition(b"\n")
        if len(line) >= protocol.MAX_LINE:
            raise Forfeit(f"wrote a line longer than {protocol.MAX_LINE} bytes")
        return line.decode("utf-8", "replace").rstrip("\r")

    def _send(self, lines: list[str], seconds: float) -> None:
        """Writes ``lines`` to the bot within ``seconds``. Raises Forfeit."""
        process = self._process
        if process is None:
            return
        assert process.stdin is not None
        data = "".join(line + "\n" for line in lines).encode()
        deadline = time.monotonic() + seconds
        while data:
            left = deadline - time.monotonic()
            _, ready, _ = select.select([], [process.stdin], [], max(0.0, left))
            if not ready:
                raise Forfeit(f"read none of its input within {seconds:g} s")
            try:
                data = data[os.write(process.stdin.fileno(), data) :]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise Forfeit(self._ended()) from None

    def _ended(self) -> str:
        process = self._process
        assert process is not None
        try:
            status = process.wait(1.0)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if status < 0:
            return f"ended by signal {signal.Signals(-status).name}"
        return f"ended (exit status {status})"


def is_builtin(spec: str) -> bool:
    return spec in BOTS


def command_of(spec: str) -> list[str]:
    """An external bot's command as words; a script of Python or JavaScript
    that may not be run itself is run by its interpreter."""
    words = shlex.split(spec)
    if len(words) == 1 and os.path.isfile(words[0]) and not os.access(words[0], os.X_OK):
        if words[0].endswith(".py"):
            return [sys.executable, words[0]]
        if words[0].endswith((".js", ".mjs")):
            return ["node", words[0]]
    return words
