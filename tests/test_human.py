"""``ordo play --human``: a game at a terminal, driven through a
pseudo-terminal as a person would play it (pexpect), and the record it
leaves however the game stops."""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

import pytest
from rich.console import Console

from ordonnance_notation import validate_text
from ordonnance_notation.engine.game import Game
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.making.dealing import deal, load_deck
from ordonnance_notation.making.players import Seating
from ordonnance_notation.making.selfplay import record_text
from ordonnance_notation.views.seat import TerminalSeat

pexpect = pytest.importorskip(
    "pexpect", reason="pexpect is in the test extra: pip install '.[test]'"
)

PROMPT = r"P(\d)> "
HAND = re.compile(
    r"ply (\d+), your play: a card of ([LBSHF ]+?)(?: \(drew \w+\))? to a state of ([ACJET ]+)"
)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _as_at_a_terminal() -> None:
    """Ctrl-C as a shell at a terminal leaves it to a program it starts:
    let through and not ignored. The test process may hold SIGINT blocked or
    ignored when a test before it in the same worker left it so, and a child
    inherits both (issue 48's CI: a game that never saw its Ctrl-C)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "ordonnance_notation", "play", *args],
        cwd=str(tmp_path),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        env={"TERM": "xterm", "PATH": "/usr/bin:/bin", "COLUMNS": "80", "LINES": "24"},
        preexec_fn=_as_at_a_terminal,
    )


def first_play(child: pexpect.spawn) -> str:
    """The first card of the hand to the first open state, read off the screen."""
    shown = HAND.findall(ANSI.sub("", child.before))
    assert shown, child.before[-500:]
    _, cards, states = shown[-1]
    return f"{cards.split()[0]} {states.split()[0]}"


def quit_after_one_play(child: pexpect.spawn, record: Path):
    """``quit`` at the next prompt: the run ends with 0, and the record it left, checked."""
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    (report,) = validate_text(record.read_text("utf-8"))
    return report


@pytest.mark.slow  # a whole game at a pseudo-terminal
def test_a_whole_game_at_the_terminal_writes_a_finished_record(tmp_path):
    child = spawn(tmp_path, "--human", "P2", "--seed", "whole", "-o", "g.ord")
    for _ in range(20):
        child.expect(PROMPT)
        assert child.match.group(1) == "2"
        child.sendline(first_play(child))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before[-800:]
    text = (tmp_path / "g.ord").read_text("utf-8")
    assert '[P2 "human"]' in text and '[P1 "careful"]' in text
    (report,) = validate_text(text)
    assert report.valid and report.outcome is not None and len(report.turns) == 40
    assert "wins" in ANSI.sub("", child.before)


def test_a_mistyped_play_gets_the_validators_help_and_the_prompt_again(tmp_path):
    child = spawn(tmp_path, "--human", "P1", "--seed", "typo", "-o", "g.ord")
    child.expect(PROMPT)
    card, state = first_play(child).split()
    wrong = card + next(letter for letter in "LBSHF" if letter not in card)
    child.sendline(f"{wrong} {state}")
    child.expect(PROMPT)
    screen = ANSI.sub("", child.before)
    assert "did you mean" in screen and card in screen, screen[-600:]
    child.sendline(f"{card} Jerusalm")
    child.expect(PROMPT)
    assert "did you mean" in ANSI.sub("", child.before)  # Jerusalem
    child.sendline(f"1. {card} {state}")  # a ply number may come first
    report = quit_after_one_play(child, tmp_path / "g.ord")
    assert report.valid and len(report.turns) == 2  # the person's play and the bot's


def test_a_line_holding_a_nul_is_read_and_its_nul_named(tmp_path):
    """``input`` swallowed such a line and went on waiting (issue 47 item 23)."""
    child = spawn(tmp_path, "--human", "P1", "--seed", "nul", "-o", "g.ord")
    child.expect(PROMPT)
    play = first_play(child)
    child.sendline(f"{play}\x00")
    child.expect(PROMPT, timeout=10)
    assert "U+0000" in ANSI.sub("", child.before)
    child.sendline(play)
    report = quit_after_one_play(child, tmp_path / "g.ord")
    assert report.valid and len(report.turns) == 2


@pytest.mark.parametrize("how", ["interrupt", "hang-up"])
def test_a_game_stopped_in_the_middle_leaves_a_valid_unfinished_record(tmp_path, how):
    child = spawn(tmp_path, "--human", "P1", "--players", "3", "--seed", "stop", "-o", "g.ord")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline(first_play(child))
    child.expect(PROMPT)
    if how == "interrupt":
        child.sendintr()
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130
        assert "stopped: the game so far is in g.ord" in child.before
    else:
        child.kill(signal.SIGHUP)  # the terminal closed
        child.close(force=True)
    (report,) = validate_text((tmp_path / "g.ord").read_text("utf-8"))
    assert report.valid and report.outcome is None
    assert len(report.turns) == 9  # three rounds of three seats
    assert [d.code for d in report.diagnostics] == ["W501"]


@pytest.mark.slow  # games at a pseudo-terminal
def test_a_seed_repeats_the_deal_and_an_existing_record_is_kept(tmp_path):
    hands = []
    for name in ("a.ord", "b.ord"):
        child = spawn(tmp_path, "--human", "P1", "--seed", "same", "-o", name)
        child.expect(PROMPT)
        child.sendline("quit")
        child.expect(pexpect.EOF)
        hands.append(re.findall(r"hand P\d: .*", (tmp_path / name).read_text("utf-8")))
    assert hands[0] == hands[1] and len(hands[0]) == 2
    child = spawn(tmp_path, "--human", "P1", "--seed", "same", "-o", "a.ord")
    child.expect(pexpect.EOF)
    child.close()
    said = ANSI.sub("", child.before)
    assert child.exitstatus == 2 and said.startswith("a.ord: error[E001]: already exists")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_table_fits_eighty_by_twenty_four(seats):
    dealt = deal(load_deck(), seats, "fit")
    names = ["human", *["careful"] * (seats - 1)]
    game = Game.new(seats, dealt)
    turns = []
    for _ in range(2 * seats):  # a few plays on the table
        card, state = game.legal_plays()[0]
        game, turn = game.play(card, state)
        turns.append(turn)

    def record(plays, outcome=None):
        return record_text(
            "fit", names, Scoring.classic(), "reference", dealt, plays, outcome, "Play"
        )

    console = Console(width=80, height=24, record=True, force_terminal=False)
    seat = TerminalSeat("human", record, console, input)
    seat.begin(Seating(seats, 0, Scoring.classic(), dealt, "fit"))
    for turn in turns:
        seat.saw(turn)
    seat.show(game, game.hand_to_play() or (), ["a message that says what went wrong"])
    lines = console.export_text().rstrip("\n").split("\n")
    assert len(lines) <= 23  # the prompt takes the 24th
    assert max(len(line) for line in lines) <= 80
    assert lines[-2].startswith(f"ply {2 * seats + 1}, your play: a card of ")
    assert lines[-1] == "a message that says what went wrong"
    assert all(
        f"{state.name} " in " ".join(lines) for state, _ in [(s, 0) for s in game.open_states(0)]
    )
