"""Who sits at a seat in a match: a built-in bot, or a program that speaks
the bot protocol (``protocol``, docs/bots.md) over its standard input and
output. The table (``match``) tells each player what its seat sees and
asks the seat to move for a play; the rules engine checks every answer."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import shlex
import signal
import subprocess
import sys
import termios
import threading
import time
from collections import deque
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


STOP_SECONDS = 0.25
"""How long a bot has to exit, told to quit and sent SIGTERM, when a match
is stopped (Ctrl-C, SIGTERM, an error) before it is killed. At the match's
end it has START_SECONDS, after ``quit`` alone."""

LOG_KEPT = 1 << 20
"""The most bytes of a bot's standard error that its log keeps from the
first, and the most from the last."""


class External:
    """A program that speaks the bot protocol: started on first use, asked
    for plays within ``move_time`` seconds, its standard error kept in
    ``log`` (``BoundedLog``; thrown away without one). A bot that forfeits
    is killed and started again for the next game. Reads and writes never
    wait past their time: the pipes are read and written a piece at a time
    as they are ready. Each run of the program is its own session, so that
    every process it starts is found and killed with it (``ending``)."""

    def __init__(self, command: Sequence[str], move_time: float, log: Path | None) -> None:
        self.command = list(command)
        self.move_time = move_time
        self.log = log
        self.name = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._pending = b""
        self._logged: BoundedLog | None = None
        self._drain: _Drain | None = None
        self._stop_by: float | None = None  # when a bot told to stop is killed

    # -- the process ------------------------------------------------------

    def start(self) -> str:
        """Starts the program and reads its name. Raises BotStartError."""
        if not self.command:
            raise BotStartError("cannot be started: its command is empty")
        if self.log is not None and self._logged is None:
            try:
                self._logged = BoundedLog(self.log)
            except OSError as error:
                raise BotStartError(f"cannot write its log: {error.strerror or error}") from None
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL if self._logged is None else subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            raise BotStartError(f"cannot be started: {error.strerror or error}") from None
        _RUNNING.add(self._process.pid)
        self._stop_by = None
        assert self._process.stdin is not None and self._process.stdout is not None
        for stream in (self._process.stdin, self._process.stdout):
            os.set_blocking(stream.fileno(), False)
        if self._logged is not None:
            assert self._process.stderr is not None
            self._drain = _Drain(self._process.stderr, self._logged)
        self._pending = b""
        try:
            self._send([protocol.hello()], protocol.START_SECONDS)
            self.name = protocol.read_name(self._line(protocol.START_SECONDS)[0])
        except (Forfeit, protocol.ProtocolError) as error:
            self.kill()
            raise BotStartError(f"did not name itself: {error}") from None
        return self.name

    def stop(self) -> None:
        """Tells the bot to quit, and its processes to end (SIGTERM), without
        waiting: ``ending`` kills it STOP_SECONDS later."""
        process = self._process
        if process is None or self._stop_by is not None:
            return
        self._stop_by = time.monotonic() + STOP_SECONDS
        self._quit()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)

    def _quit(self) -> None:
        """``quit``, if the bot's input has room for it."""
        assert self._process is not None and self._process.stdin is not None
        with contextlib.suppress(OSError):
            os.write(self._process.stdin.fileno(), (protocol.QUIT + "\n").encode())

    def kill(self) -> None:
        """The bot killed at once, with every process it started."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            _killed(process.pid, process.returncode is None)
        finally:
            process.wait()
            _RUNNING.discard(process.pid)
            for stream in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):
                    stream.close()  # type: ignore[union-attr]
            sweep()
            drain, self._drain = self._drain, None
            if drain is not None:
                drain.ended()

    def close(self) -> None:
        """Tells the bot to quit; kills it if it has not within START_SECONDS."""
        ending([self])

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
        line = self._answer(self.move_time)
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
            protocol.read_ok(self._answer(self.move_time))
        except protocol.ProtocolError as error:
            raise Forfeit(str(error)) from None

    def forfeited(self) -> None:
        """The bot lost the game by a fault: killed, to start afresh."""
        self.kill()

    # -- lines ------------------------------------------------------------

    def _checked_quiet(self) -> None:
        """Forfeits if the bot wrote anything when nothing was asked."""
        process = self._process
        assert process is not None and process.stdout is not None
        if not self._pending and not self._readable(0.0):
            return
        with contextlib.suppress(BlockingIOError):
            piece = os.read(process.stdout.fileno(), protocol.MAX_LINE)
            if not piece and not self._pending:
                raise Forfeit(self._ended())
            self._pending += piece
        line = self._pending.partition(b"\n")[0]
        raise Forfeit(f"wrote {protocol.shown(_decoded(line))} when nothing was asked")

    def _answer(self, seconds: float) -> str:
        """The bot's answer to the line just sent, within ``seconds``: a line
        that comes while that line is still unread was written before it,
        when nothing was asked. Raises Forfeit."""
        line, early = self._line(seconds)
        if early:
            raise Forfeit(f"wrote {protocol.shown(line)} when nothing was asked")
        return line

    def _unread(self) -> int:
        """How many bytes sent to the bot it has not read yet (0 where the system cannot say)."""
        assert self._process is not None and self._process.stdin is not None
        try:
            found = fcntl.ioctl(self._process.stdin.fileno(), termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return 0
        return int.from_bytes(found, sys.byteorder, signed=True)

    def _readable(self, seconds: float) -> bool:
        assert self._process is not None and self._process.stdout is not None
        ready, _, _ = select.select([self._process.stdout], [], [], max(0.0, seconds))
        return bool(ready)

    def _line(self, seconds: float) -> tuple[str, bool]:
        """The bot's next line, within ``seconds``, and whether it began to
        come while the bot had input left unread. Raises Forfeit."""
        process = self._process
        assert process is not None and process.stdout is not None
        deadline = time.monotonic() + seconds
        unread = False
        while b"\n" not in self._pending:
            if len(self._pending) >= protocol.MAX_LINE:
                raise Forfeit(f"wrote a line longer than {protocol.MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not self._readable(left):
                raise Forfeit(f"gave no answer within {seconds:g} s")
            if not self._pending:
                unread = unread or self._unread() > 0
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
        return _decoded(line), unread

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


def _decoded(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r")


def ending(bots: Sequence[External], stopped: bool = False) -> None:
    """Ends ``bots`` together: each told to quit and killed if it has not
    exited within START_SECONDS, or, ``stopped``, STOP_SECONDS after
    ``External.stop`` (as is a bot told to stop before); then every process
    they left behind (``sweep``). Whatever interrupts the wait, they are
    killed."""
    running = [bot for bot in bots if bot._process is not None]
    try:
        deadlines = []
        for bot in running:
            if stopped:
                bot.stop()
            elif bot._stop_by is None:
                bot._quit()
            deadlines.append(bot._stop_by or time.monotonic() + protocol.START_SECONDS)
        for bot, deadline in zip(running, deadlines, strict=True):
            assert bot._process is not None
            with contextlib.suppress(subprocess.TimeoutExpired):
                bot._process.wait(max(0.0, deadline - time.monotonic()))
    finally:
        for bot in running:
            bot.kill()
            if bot._logged is not None:
                bot._logged.close()
                bot._logged = None
        sweep()


class BoundedLog:
    """A bot's standard error as its log keeps it, across the runs of the
    program: the first LOG_KEPT bytes as they come, then, when the log is
    closed, a line that says how many bytes were left out and the last
    LOG_KEPT. Raises OSError when the file cannot be opened."""

    def __init__(self, path: Path) -> None:
        self._file = open(path, "ab", buffering=0)  # noqa: SIM115 (kept while the bot runs)
        self._head = LOG_KEPT  # bytes still to write as they come
        self._tail: deque[bytes] = deque()
        self._held = 0  # bytes in _tail
        self._left_out = 0

    def take(self, piece: bytes) -> None:
        if self._head:
            head, piece = piece[: self._head], piece[self._head :]
            self._file.write(head)
            self._head -= len(head)
        if piece:
            self._tail.append(piece)
            self._held += len(piece)
            while self._held - len(self._tail[0]) >= LOG_KEPT:
                self._held -= len(self._tail[0])
                self._left_out += len(self._tail.popleft())

    def close(self) -> None:
        tail = b"".join(self._tail)
        cut = len(tail) - LOG_KEPT
        if cut > 0:
            tail, self._left_out = tail[cut:], self._left_out + cut
        if self._left_out:
            self._file.write(f"\n[ordo: {self._left_out:,} bytes left out]\n".encode())
        self._file.write(tail)
        self._file.close()


class _Drain:
    """A thread that reads a bot's standard error into its log, to its end
    or, once ``ended``, until nothing more comes at once (a process that
    escaped the kill may hold the pipe open)."""

    def __init__(self, stream: IO[bytes], log: BoundedLog) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(stream, log), daemon=True)
        self._thread.start()

    def _run(self, stream: IO[bytes], log: BoundedLog) -> None:
        with stream:
            while True:
                if not select.select([stream], [], [], 0.1)[0]:
                    if self._stop.is_set():
                        return
                    continue
                piece = os.read(stream.fileno(), 1 << 16)
                if not piece:
                    return
                log.take(piece)

    def ended(self) -> None:
        self._stop.set()
        self._thread.join()


def is_builtin(spec: str) -> bool:
    return spec in BOTS


def command_of(spec: str) -> list[str]:
    """An external bot's command as words; a script of Python or JavaScript
    that may not be run itself is run by its interpreter. Raises
    BotStartError (a quote left open)."""
    try:
        words = shlex.split(spec)
    except ValueError as error:
        raise BotStartError(f"cannot be started: {str(error).lower()}", spec) from None
    if len(words) == 1 and os.path.isfile(words[0]) and not os.access(words[0], os.X_OK):
        if words[0].endswith(".py"):
            return [sys.executable, words[0]]
        if words[0].endswith((".js", ".mjs")):
            return ["node", words[0]]
    return words


# -- the processes a bot leaves ---------------------------------------------
#
# A bot runs in a session of its own, so its process group holds what it
# starts, but a process may start a session of its own too (setsid) and
# outlive the bot. So each process that starts bots makes itself the parent
# of the orphans below it (Linux's PR_SET_CHILD_SUBREAPER), kills the whole
# tree below a bot, as /proc shows it, with the bot, and kills the orphans
# it adopted (``sweep``). Where there is no /proc or prctl, the bot's group
# alone is killed.

PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h

_RUNNING: set[int] = set()  # the bots this process runs (a fork inherits its parent's: no harm)


class _Adopter:
    wanted = False  # asked for by the program (ordo match), inherited by its forks
    pid = 0  # the process that adopts the orphans below it, once it does


def adopt_orphans() -> None:
    """Asks that the processes which start bots adopt what the bots leave
    (``adopting``): for a program of its own, as ``ordo match`` is, never a
    library's caller, whose other children ``sweep`` would kill."""
    _Adopter.wanted = True


def adopting() -> None:
    """This process made the parent of every orphan below it, where the
    system allows and the program asked (``adopt_orphans``); once a
    process: a fork inherits the asking, not the adopting."""
    if not _Adopter.wanted or _Adopter.pid == os.getpid():
        return
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0:
        _Adopter.pid = os.getpid()


def _processes() -> dict[int, tuple[int, int]]:
    """Each process's parent and session, from /proc (none where there is no /proc)."""
    found = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat", "rb") as stat:
                        fields = stat.read().rsplit(b")", 1)[1].split()
                except OSError:
                    continue  # ended meanwhile
                found[int(name)] = (int(fields[1]), int(fields[3]))
    return found


def _below(root: int) -> set[int]:
    """``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in _processes().items():
        children.setdefault(parent, []).append(pid)
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo += children.get(pid, [])
    return found


def _killed(root: int, running: bool = True) -> None:
    """``root``'s process group killed, and, ``running`` (not yet waited
    for, so that its pid is still its own), ``root`` and every process below
    it: stopped first, round by round, so that none starts another unseen."""
    seen: set[int] = set()
    for _ in range(8 if running else 0):
        found = _below(root) - seen
        if not found:
            break
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        seen |= found
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(root, signal.SIGKILL)
    for pid in seen:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def sweep() -> None:
    """The orphans this process adopted (``adopting``), killed with all below
    them, and reaped: its children outside its session (a bot's, or one
    that started its own) that are not a bot it runs. The workers of
    ``--jobs`` share its session."""
    if _Adopter.pid != os.getpid():
        return
    me, session = os.getpid(), os.getsid(0)
    left = [
        pid
        for pid, (parent, sid) in _processes().items()
        if parent == me and sid != session and pid not in _RUNNING
    ]
    for pid in left:
        _killed(pid)
    for pid in left:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
