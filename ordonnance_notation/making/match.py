"""A match between bots: deals played in mirrored sets (each deal once with
every rotation of the seats, as duplicate bridge does, so that the luck of
the deal cancels out), each game's record, and the match's tally.

Deal ``k`` (from 1) of a match with seed ``S`` is dealt from the seed
``S/k``; in its ``r``-th seating (from 1) seat ``Pn`` holds the bot of slot
``(n - 1 + r - 1) mod seats`` and a built-in bot there chooses with the
stream ``S/k/r/Pn``.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.scoring import Outcome, Scoring
from .bots import COMPILED_BOTS
from .dealing import Deck, deal
from .players import (
    BotStartError,
    Builtin,
    External,
    Player,
    adopting,
    command_of,
    ending,
    is_builtin,
)
from .protocol import printable
from .selfplay import play_deal, record_text
from .statistics import Elo, Sprt, elo_difference, wilson
from .table import Forfeited, play_table

EVENT = "Match"


@dataclass(frozen=True, slots=True)
class Plan:
    """What every game of a match shares. ``specs`` are the bots as given (a
    built-in name or a command), one a slot; ``names`` what the records and
    the tally call them; ``logs`` the folder of the programs' logs, if any."""

    specs: tuple[str, ...]
    names: tuple[str, ...]
    seed: str
    deck: Deck
    scoring: Scoring
    move_time: float
    logs: str | None

    @property
    def seats(self) -> int:
        return len(self.specs)

    @property
    def fast(self) -> bool:
        """Whether every bot is built in and chooses its plays in C."""
        return all(spec in COMPILED_BOTS for spec in self.specs)

    def seating(self, rotation: int) -> tuple[int, ...]:
        """The slot at each seat in the deal's ``rotation``-th seating (from 0)."""
        return tuple((seat + rotation) % self.seats for seat in range(self.seats))


@dataclass(frozen=True, slots=True)
class MatchGame:
    """One game's record, and whom the tally credits with its win."""

    deal: int
    rotation: int  # from 1
    names: tuple[str, ...]  # by seat
    text: str
    credited: str | None  # the winner's name; None when shared, or a forfeit leaves none
    forfeit: Forfeited | None


# The players of each process (a worker forked from this one inherits the
# table, but never closes the bots of another process).
_PLAYERS: dict[tuple[int, Plan, int], Player] = {}


def _player(plan: Plan, slot: int) -> Player:
    """The player of ``slot``, kept from game to game in this process."""
    key = (os.getpid(), plan, slot)
    player = _PLAYERS.get(key)
    if player is None:
        spec = plan.specs[slot]
        if is_builtin(spec):
            player = Builtin(spec)
        else:
            if not any(pid == key[0] for pid, _, _ in _PLAYERS):
                from multiprocessing.util import Finalize

                Finalize(None, close_players, exitpriority=10)  # a worker's end too
                adopting()
            log = _log(plan.logs, f"bot{slot + 1}-{key[0]}.log")
            player = External(command_of(spec), plan.move_time, log)
        _PLAYERS[key] = player
    return player


def _programs() -> list[External]:
    """The external bots of this process."""
    here = os.getpid()
    return [p for (pid, _, _), p in _PLAYERS.items() if pid == here and isinstance(p, External)]


def close_players(stopped: bool = False) -> None:
    """Ends the external bots this process started, together (``players.ending``):
    given START_SECONDS to quit, or, ``stopped``, STOP_SECONDS."""
    programs = _programs()
    for key in [key for key in _PLAYERS if key[0] == os.getpid()]:
        del _PLAYERS[key]
    ending(programs, stopped)


def logs_folder(specs: Sequence[str], given: str | None) -> str | None:
    """The folder of the programs' logs, ``given``, made if it is not there;
    None when no folder is given or every bot is built in (what the
    programs write to standard error is then thrown away). Raises OSError."""
    if given is None or all(map(is_builtin, specs)):
        return None
    if not given:
        raise FileNotFoundError(errno.ENOENT, "an empty name is no folder", given)
    Path(given).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=given):  # a folder a log can be written in (not /proc)
        pass
    return given


def names_of(specs: Sequence[str], move_time: float, folder: str | None) -> tuple[str, ...]:
    """What each bot is called: a built-in one by its name, a program by
    the name it gives itself (each started once here, to ask), and a second
    bot of a name another has taken numbered ``#2``. Raises BotStartError."""
    names: dict[str, str] = {}
    for spec in specs:
        if spec in names:
            continue
        if is_builtin(spec):
            name = spec
        else:
            adopting()
            try:
                program = External(command_of(spec), move_time, _log(folder, "names.log"))
                name = _named(program)
            except BotStartError as error:
                raise BotStartError(error.reason, spec) from None
        taken = set(names.values())
        numbered, k = name, 1
        while numbered in taken:
            k += 1
            numbered = f"{name} #{k}"
        names[spec] = numbered
    return tuple(names[spec] for spec in specs)


def _log(folder: str | None, name: str) -> Path | None:
    return None if folder is None else Path(folder) / name


def _named(program: External) -> str:
    """The name ``program`` gives itself, started and ended for it. Raises BotStartError."""
    try:
        name = program.start()
    except BaseException:
        ending([program], stopped=True)
        raise
    ending([program])
    return name


def credited(names: Sequence[str], winner: int | None, forfeit: Forfeited | None) -> str | None:
    """Whom a game's win goes to: its winner's bot; after a forfeit the bot
    that holds every other seat, if one does (else nobody)."""
    if forfeit is None:
        return None if winner is None else names[winner]
    others = {name for seat, name in enumerate(names) if seat != forfeit.seat}
    return others.pop() if len(others) == 1 else None


def play_deals(plan: Plan, deals: range) -> list[MatchGame]:
    """Every seating of each of ``deals``: a worker's share of the match.
    Stopped (Ctrl-C, SIGTERM, a worker asked to leave), it tells its bots
    to stop at once (``External.stop``): whoever ends them kills them
    STOP_SECONDS later, while the other processes end theirs."""
    try:
        return [game for number in deals for game in _deal_set(plan, number)]
    except BaseException:
        for program in _programs():
            program.stop()
        raise


def _deal_set(plan: Plan, number: int) -> list[MatchGame]:
    seed = f"{plan.seed}/{number}"
    dealt = deal(plan.deck, plan.seats, seed)
    games = []
    for rotation in range(plan.seats):
        slots = plan.seating(rotation)
        names = tuple(plan.names[slot] for slot in slots)
        streams = f"{seed}/{rotation + 1}"
        if plan.fast:
            bots = [plan.specs[slot] for slot in slots]
            played = play_deal(dealt, seed, bots, plan.deck.name, plan.scoring, streams=streams)
            turns, forfeit = played.turns, None
            outcome: Outcome | None = played.outcome
        else:
            players = [_player(plan, slot) for slot in slots]
            table = play_table(dealt, players, plan.scoring, streams)
            turns, outcome, forfeit = table.turns, table.outcome, table.forfeit
            if forfeit is not None:  # a bot's words, quoted in the record's comment
                forfeit = Forfeited(forfeit.seat, printable(forfeit.reason))
        comment = None if forfeit is None else forfeit.said(names)
        text = record_text(
            seed,
            names,
            plan.scoring,
            plan.deck.name,
            dealt,
            turns,
            outcome,
            EVENT,
            (number - 1) * plan.seats + rotation + 1,
            comment,
        )
        winner = None if outcome is None else outcome.winner
        games.append(
            MatchGame(number, rotation + 1, names, text, credited(names, winner, forfeit), forfeit)
        )
    return games


@dataclass
class Tally:
    """The match so far: each bot's games and wins, the forfeits, and the
    scores of the first bot against the second when there are two."""

    names: tuple[str, ...]  # by slot
    seats: int
    games: int = 0
    played: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    forfeits: list[tuple[int, MatchGame]] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)

    @property
    def bots(self) -> list[str]:
        return list(dict.fromkeys(self.names))

    @property
    def sides(self) -> tuple[str, str] | None:
        """The two bots of a match between two, the first named first."""
        bots = self.bots
        return (bots[0], bots[1]) if len(bots) == 2 else None

    def held(self, name: str) -> int:
        return self.names.count(name)

    def add(self, game: MatchGame) -> None:
        self.games += 1
        for name in set(game.names):
            self.played[name] += 1
        if game.credited is not None:
            self.wins[game.credited] += 1
        if game.forfeit is not None:
            self.forfeits.append((self.games, game))
        sides = self.sides
        if sides is not None:
            if game.credited is None:
                self.scores.append(self.held(sides[0]) / self.seats)
            else:
                self.scores.append(float(game.credited == sides[0]))

    def share(self, name: str) -> tuple[float, float, float]:
        """``name``'s share of the games it played, with its 95% interval."""
        played = self.played[name]
        low, high = wilson(self.wins[name], played)
        return (self.wins[name] / played if played else 0.0), low, high

    def elo(self) -> Elo | None:
        sides = self.sides
        if sides is None or not self.scores:
            return None
        return elo_difference(self.scores, self.held(sides[0]), self.seats)

    def llr(self, test: Sprt) -> float:
        sides = self.sides
        assert sides is not None
        return test.llr(self.scores, self.held(sides[0]), self.seats)

    def line(self) -> str:
        """The score so far, on one line."""
        return "  ".join(f"{name} {self.wins[name]}" for name in self.bots)
