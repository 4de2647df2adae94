"""The bot protocol and ``ordo match``: the example bots in Python and
JavaScript, a bot that breaks the protocol in each way it can, the
statistics of the report, and the mirrored deals."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import alive

from ordonnance_notation import validate_text
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.making import protocol
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.match import MatchGame, Plan, Tally, credited, play_deals
from ordonnance_notation.making.players import LOG_KEPT, STOP_SECONDS, External, Forfeit
from ordonnance_notation.making.statistics import (
    Sprt,
    elo_difference,
    elo_of,
    expected,
    wilson,
)
from ordonnance_notation.making.table import Forfeited
from ordonnance_notation.views.match import render_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "bots"
UNRULY = Path(__file__).resolve().parent / "bots" / "unruly.py"
LINGERING = Path(__file__).resolve().parent / "bots" / "lingering.py"


def match(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", "match", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=False,
        env=env,
    )


def records(path: Path) -> list[str]:
    return re.split(r"\n\n(?=; |\[Notation )", path.read_text("utf-8"))


# -- the protocol's words -------------------------------------------------


def test_a_play_is_read_as_the_notation_writes_it():
    assert protocol.read_play("play FH Jerusalem") == protocol.read_play("play HF J")
    assert str(protocol.read_play("play HF J")[0]) == "HF"
    assert protocol.read_name("bot  deep thought 2 ") == "deep thought 2"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("play HF", "where `play` and 2 words were asked"),
        ("play HX J", "'X' is not an icon"),
        ("play HF Q", "'Q' is no state"),
        ("PLAY HF J", "where `play` and 2 words were asked"),
        ("play HF J \x1b]0;title\x07", "where `play`"),
    ],
)
def test_a_line_that_is_no_play_is_said_in_words(line, said):
    with pytest.raises(protocol.ProtocolError, match=re.escape(said)) as error:
        protocol.read_play(line)
    assert "\x1b" not in str(error.value) and "\x07" not in str(error.value)


@given(st.text(max_size=300))
def test_any_line_is_a_play_or_a_protocol_error(line):
    for read in (protocol.read_play, protocol.read_name, protocol.read_ok):
        try:
            read(line)
        except protocol.ProtocolError as error:
            assert len(str(error)) < 300  # quoted short, never echoed whole
            assert str(error).isprintable()


# -- the example bots -----------------------------------------------------


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed here")
def test_the_python_and_javascript_examples_play_the_same_games(tmp_path):
    archives = {}
    for script, name in (("first_open.py", "Python"), ("first_open.js", "JavaScript")):
        out = tmp_path / f"{name}.ord"
        done = match(
            str(EXAMPLES / script), "greedy", "-n", "4", "--seed", "t", "-o", str(out), cwd=tmp_path
        )
        assert done.returncode == 0, done.stderr
        assert f"first-open ({name})" in done.stdout
        archives[name] = out.read_text("utf-8").replace(f"first-open ({name})", "BOT")
    assert archives["Python"] == archives["JavaScript"]
    assert archives["Python"].count('[Result "unfinished"]') == 0
    checked = validate_text(archives["Python"])
    assert len(checked) == 4 and all(c.valid for c in checked)


def test_the_example_bots_play_each_other_at_four_seats(tmp_path):
    out = tmp_path / "four.ord"
    bot = str(EXAMPLES / "first_open.py")
    done = match(
        bot,
        "careful",
        "greedy",
        "random",
        "-n",
        "4",
        "--seed",
        "f",
        "-o",
        str(out),
        "-f",
        "json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 4 and report["seats"] == 4
    assert sorted(b["bot"] for b in report["bots"]) == [
        "careful",
        "first-open (Python)",
        "greedy",
        "random",
    ]
    assert sum(b["wins"] for b in report["bots"]) == 4 and report["forfeits"] == []
    checked = validate_text(out.read_text("utf-8"))
    assert [c.valid for c in checked] == [True] * 4


# -- a bot that breaks the protocol ---------------------------------------

UNRULY_WAYS = {
    "illegal": "which the rules refuse",
    "malformed": "where `play` and 2 words were asked",
    "slow": "gave no answer within 0.5 s",
    "crash": "ended (exit status 3)",
    "late": "after the game ended, where `ok` was asked",
    "long": "wrote a line longer than 1024 bytes",
    "unended": "gave no answer within 0.5 s",
    "flood": "",  # the first line, refused or not; then lines when nothing was asked
    "noise": "where `play` and 2 words were asked",
    "nul": r"wrote 'play H\x00 J': '\x00' is not an icon",
    "early": "when nothing was asked",  # a play written on its draw, before go
}


@pytest.mark.parametrize(
    "how",
    [
        pytest.param(how, marks=pytest.mark.slow) if how in ("slow", "unended") else how
        for how in UNRULY_WAYS
    ],  # the two that wait out the move time: two seconds each
)
def test_a_bot_that_breaks_the_protocol_forfeits_and_the_match_goes_on(tmp_path, how):
    out = tmp_path / "match.ord"
    bot = f"{sys.executable} {UNRULY} {how}"
    done = match(
        bot, "careful", "-n", "6", "--seed", "u", "--move-time", "0.5",
        "-o", str(out), "--logs", str(tmp_path / "logs"), "-f", "json", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    # a new process plays its first game well and breaks the protocol in its second
    assert [f["game"] for f in report["forfeits"]] == [2, 4, 6]
    assert {f["bot"] for f in report["forfeits"]} == {"unruly"}
    assert all(UNRULY_WAYS[how] in f["reason"] for f in report["forfeits"])
    unruly = next(b for b in report["bots"] if b["bot"] == "unruly")
    assert unruly["games"] == 6 and unruly["wins"] <= 3
    games = records(out)
    assert len(games) == 6
    assert b"\x00" not in out.read_bytes()
    checked = validate_text(out.read_text("utf-8"))
    assert [c.valid for c in checked] == [True] * 6, [c.diagnostics for c in checked]
    for number, text in enumerate(games, 1):
        forfeited = number % 2 == 0
        assert text.startswith("; P") is forfeited
        finished = not forfeited or how == "late"
        assert ('[Result "unfinished"]' not in text) is finished, number
        if forfeited:
            assert "(unruly) forfeits: " in text.splitlines()[0]
    assert (tmp_path / "logs").is_dir()


def test_a_bot_that_reads_nothing_forfeits_when_its_input_is_full(tmp_path):
    bot = External(
        [sys.executable, "-c", "import time; print('bot deaf', flush=True); time.sleep(30)"],
        0.5,
        tmp_path / "deaf.log",
    )
    assert bot.start() == "deaf"
    try:
        with pytest.raises(Forfeit, match=r"read none of its input within 0.5 s"):
            bot._send(["play P1 L A"] * 100_000, 0.5)
    finally:
        bot.kill()


def test_a_bot_that_cannot_start_stops_the_match_before_any_game(tmp_path):
    done = match("careful", "./no-such-bot", "-o", str(tmp_path / "m.ord"), cwd=tmp_path)
    assert done.returncode == 2
    assert "error[E010]: the bot cannot be started" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "m.ord").exists()
    silent = match("careful", f"{sys.executable} -c pass", cwd=tmp_path)
    assert silent.returncode == 2
    assert "error[E010]: the bot did not name itself: ended (exit status 0)" in silent.stderr


def test_an_archive_with_a_bots_nul_byte_reads_back(tmp_path):
    """The forfeit's comment quoted the bot's NUL raw: the archive was E002, no record."""
    out = tmp_path / "nul.ord"
    bot = f"{sys.executable} {UNRULY} nul"
    done = match(bot, "careful", "-n", "2", "--seed", "u", "--move-time", "0.5", "-o", str(out),
                 cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "; P2 (unruly) forfeits: wrote 'play H\\x00 J': '\\x00' is not an icon" in (
        out.read_text("utf-8")
    )
    checked = subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", "validate", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout
    assert "2 records in 1 file: 2 valid, 0 invalid; 0 errors" in checked.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["careful", ""], "error[E010]: the bot cannot be started: its command is empty"),
        (["careful", "'unclosed"], "error[E010]: the bot cannot be started: no closing quotation"),
        (["careful", "./bot", "--logs", "{file}"], "{file}: error[E001]: cannot be written: "),
        (["careful", "./bot", "--logs", "/proc/x"], "/proc/x: error[E001]: cannot be written: "),
        (["careful", "./bot", "--logs", "/proc/self"], "/proc/self: error[E001]: cannot be "),
        (["careful", "./bot", "--logs", ""], "error[E001]: cannot be written: an empty name"),
        (["careful", "./bot", "--move-time", "nan"], "nan is not a number of seconds"),
        (["careful", "./bot", "--move-time", "inf"], "'--move-time': inf is not in the range"),
        (["careful", "./bot", "--move-time", "1e308"], "'--move-time': 1e+308 is not in"),
    ],
    ids=[
        "empty",
        "unclosed",
        "logs-file",
        "logs-proc",
        "logs-proc-self",
        "logs-empty",
        "move-time-nan",
        "move-time-inf",
        "move-time-1e308",
    ],
)
def test_a_bot_or_a_logs_folder_that_cannot_be_used_is_said_with_its_code(tmp_path, args, said):
    file = tmp_path / "a-file"
    file.write_text("")
    done = match(*[a.replace("{file}", str(file)) for a in args], cwd=tmp_path)
    assert done.returncode == 2
    assert said.replace("{file}", str(file)) in done.stderr
    assert "Traceback" not in done.stderr


# -- mirrored deals and the tally -----------------------------------------


def test_each_deal_is_played_in_every_seating():
    plan = Plan(
        ("careful", "greedy", "random"),
        ("careful", "greedy", "random"),
        "m",
        load_deck(),
        Scoring.classic(),
        5.0,
        "",
    )
    games = play_deals(plan, range(1, 3))
    assert [(g.deal, g.rotation) for g in games] == [(d, r) for d in (1, 2) for r in (1, 2, 3)]
    for d in (1, 2):
        seatings = {g.names for g in games if g.deal == d}
        assert seatings == {
            ("careful", "greedy", "random"),
            ("greedy", "random", "careful"),
            ("random", "careful", "greedy"),
        }
        deals = {re.search(r"hand P1: .*", g.text).group() for g in games if g.deal == d}
        assert len(deals) == 1  # the same hands in each seating
    assert all(validate_text(g.text)[0].valid for g in games)


def test_the_built_in_bots_play_the_same_games_in_c_and_at_the_table(monkeypatch):
    from ordonnance_notation.making import match as module

    plan = Plan(
        ("careful", "greedy"), ("careful", "greedy"), "c", load_deck(), Scoring.classic(), 5.0, ""
    )
    fast = [g.text for g in play_deals(plan, range(1, 6))]
    monkeypatch.setattr(module, "COMPILED_BOTS", {})
    slow = [g.text for g in play_deals(plan, range(1, 6))]
    assert fast == slow


def test_jobs_give_the_same_archive(tmp_path):
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.ord"
        done = match(
            "careful",
            "greedy",
            "-n",
            "40",
            "--seed",
            "j",
            "--jobs",
            jobs,
            "-o",
            str(out),
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        outs.append(out.read_text("utf-8"))
    assert outs[0] == outs[1] and outs[0].count("[Notation ") == 40


def test_a_forfeit_credits_the_bot_that_holds_every_other_seat():
    fault = Forfeited(1, "crashed")
    assert credited(("a", "b"), None, fault) == "a"
    assert credited(("a", "b", "a"), None, fault) == "a"
    assert credited(("a", "b", "c"), None, fault) is None
    assert credited(("a", "b", "c"), 2, None) == "c"


def test_the_sprt_stops_a_lopsided_match(tmp_path):
    done = match(
        "careful",
        "random",
        "-n",
        "2000",
        "--seed",
        "s",
        "--sprt",
        "0",
        "50",
        "-f",
        "json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["sprt"]["verdict"] == "H1" and report["sprt"]["llr"] >= report["sprt"]["upper"]
    assert report["games"] < 2000  # stopped early
    assert report["elo"]["of"] == "careful" and report["elo"]["low"] > 50
    refused = match("careful", "greedy", "random", "--sprt", "0", "10", cwd=tmp_path)
    assert refused.returncode == 2 and "the SPRT compares two bots" in refused.stderr


# -- the processes of a match ---------------------------------------------


@pytest.fixture
def pids(tmp_path):
    """The file the lingering bots write their pids to; whatever of them is
    left when the test ends is killed."""
    path = tmp_path / "pids"
    yield path
    for pid in _pids(path):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _pids(path: Path) -> list[int]:
    return [int(w) for w in path.read_text().split() if w.isdigit()] if path.exists() else []


def _left(path: Path) -> list[int]:
    """The processes of the bots still there, once they have had a moment to end."""
    deadline = time.monotonic() + 1
    while (left := [pid for pid in _pids(path) if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def _lingering(path: Path, *options: str) -> str:
    return f"{sys.executable} {LINGERING} {path} {' '.join(options)}"


needs_proc = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="finds the bots' processes through /proc"
)


@needs_proc
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_no_process_a_bot_starts_outlives_the_match(tmp_path, pids, jobs):
    """Every run of the bot starts two ``setsid sleep 600``, out of its group
    and session; they used to be left, two for each run."""
    bot = _lingering(pids, "--children", "2")
    done = match(bot, "careful", "-n", "8", "--seed", "l", "--jobs", jobs, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(_pids(pids)) >= 6  # the name asked, then a run in each process that plays
    assert _left(pids) == []


# ordo as a terminal starts it: Ctrl-C raises KeyboardInterrupt (a shell's
# background job, as the tests may be, starts with SIGINT ignored)
_WITH_CTRL_C = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('ordonnance_notation', run_name='__main__', alter_sys=True)"
)


@pytest.mark.slow  # matches stopped by every signal
@needs_proc
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(
    "how",
    [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT],
    ids=["ctrl-c", "SIGTERM", "terminal-closed", "ctrl-backslash"],
)
def test_a_match_stopped_during_a_bots_turn_ends_at_once_with_its_bots(tmp_path, pids, jobs, how):
    """Bots that think for a minute at each turn, ignore SIGTERM and ``quit``,
    and start processes of their own session: Ctrl-C or a terminal closed
    (to the terminal's group), SIGTERM or SIGQUIT (to ordo alone, no -o)
    ends the match in under a second, and every one of them. Ctrl-C used
    to take 10 s a bot, in turn; SIGTERM, SIGHUP and SIGQUIT left them all."""
    bot = _lingering(pids, "--think", "60", "--stubborn", "--children", "1")
    child = subprocess.Popen(
        [sys.executable, "-c", _WITH_CTRL_C, "match", bot, "careful", "-n", "40", "-j", str(jobs)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 30
        while not pids.exists() or pids.read_text().count("thinking") < jobs:
            assert time.monotonic() < deadline and child.poll() is None, "no bot thinking"
            time.sleep(0.02)
        started = time.monotonic()
        if how in (signal.SIGINT, signal.SIGHUP):
            os.killpg(child.pid, how)
        else:
            child.send_signal(how)
        child.wait(timeout=30)
        took = time.monotonic() - started
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
    assert (child.returncode, child.stderr.read()) == (128 + how, b"")
    assert took < 1, f"{took:.2f} s"
    assert _left(pids) == []


def test_a_bots_log_keeps_its_first_and_last_mib_and_no_folder_is_left(tmp_path, pids):
    """A bot that writes 4 MiB to standard error as it starts: each log holds
    its first and last LOG_KEPT bytes, and says how much was left out. It
    used to keep all of it (2 GB in 2.7 s). Without --logs nothing is kept,
    and no folder is left in the temporary folder (there used to be one
    for every match)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "TMPDIR": str(temporary)}
    bot = _lingering(pids, "--stderr", "4")
    done = match(bot, "careful", "-n", "2", "--seed", "g", "--logs", str(tmp_path / "logs"),
                 cwd=tmp_path, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    logs = sorted((tmp_path / "logs").iterdir())
    assert [log.name.split("-")[0] for log in logs] == ["bot1", "names.log"]
    lines = 4 << 10  # of 1 KiB each, numbered
    for log in logs:
        kept = log.read_bytes()
        head, marker, tail = kept[:LOG_KEPT], kept[LOG_KEPT:-LOG_KEPT], kept[-LOG_KEPT:]
        assert head.startswith(b"0000000 x") and tail.endswith(
            b"%07d %s\n" % (lines - 1, b"x" * 1015)
        )
        assert marker == b"\n[ordo: %s bytes left out]\n" % f"{(4 << 20) - 2 * LOG_KEPT:,}".encode()
    assert list(temporary.iterdir()) == []
    done = match(bot, "careful", "-n", "2", "--seed", "g", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert list(temporary.iterdir()) == [] and "standard error" not in done.stdout


def test_the_docs_give_the_bounds_of_a_log_and_of_a_stop():
    bots, limits = ((ROOT / "docs" / page).read_text("utf-8") for page in ("bots.md", "limits.md"))
    assert f"first and last {LOG_KEPT >> 20} MiB" in bots
    assert f"{STOP_SECONDS:g} s" in bots and f"{STOP_SECONDS:g} s" in limits


# -- the statistics -------------------------------------------------------


def test_the_elo_model_is_the_logistic_one_at_two_seats():
    for d in (-300, -50, 0, 35, 400):
        assert expected(d, 1, 2) == pytest.approx(1 / (1 + 10 ** (-d / 400)))
        assert elo_of(expected(d, 1, 2), 1, 2) == pytest.approx(d)
        assert elo_of(expected(d, 2, 4), 2, 4) == pytest.approx(d)
    assert expected(0, 1, 3) == pytest.approx(1 / 3) and expected(0, 3, 4) == pytest.approx(3 / 4)
    assert elo_of(1.0, 1, 2) == math.inf


def test_the_sprt_matches_the_generalised_formula():
    test = Sprt(0, 10)
    scores = [1.0] * 60 + [0.0] * 40
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    assert test.llr(scores, 1, 2) == pytest.approx(
        100 * (s1 - s0) * (2 * 0.6 - s0 - s1) / (2 * 0.24)
    )
    assert test.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert test.verdict(3.0) == "H1" and test.verdict(-3.0) == "H0" and test.verdict(0.0) is None
    assert test.llr([1.0] * 5, 1, 2) == 0.0  # no variance yet


def test_a_clean_sweep_gives_the_finite_bound_of_its_interval():
    """10 wins of 10: the Wilson interval is [72.2%, 100%], and the Elo
    interval its image, [+166, +inf]; it used to be [+inf, +inf]."""
    elo = elo_difference([1.0] * 10, 1, 2)
    assert elo.elo == math.inf and elo.high == math.inf
    assert (
        elo.low == pytest.approx(elo_of(wilson(10, 10)[0], 1, 2)) == pytest.approx(166.2, abs=0.1)
    )
    assert elo_difference([0.0] * 10, 1, 2).high == pytest.approx(-166.2, abs=0.1)
    assert wilson(10, 10)[1] == 1.0
    tally = Tally(("a", "b"), 2)
    for deal in range(1, 6):
        for seating in (1, 2):
            names = ("a", "b") if seating == 1 else ("b", "a")
            tally.add(MatchGame(deal, seating, names, "", "a", None))
    text = render_text(tally, None, None)
    assert "[72.2%, 100.0%]" in text and "Elo a - b: +inf [+166, +inf] (95%)" in text


def test_the_sprt_plays_until_it_decides_past_the_default_games(tmp_path):
    """--sprt without --games plays on until the test decides (at most
    SPRT_GAMES); it used to stop at 100 games, the SPRT undecided."""
    from ordonnance_notation.cli.matching import GAMES, SPRT_GAMES

    done = match(
        "careful", "greedy", "--sprt", "0", "20", "--seed", "s", "-f", "json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["sprt"]["verdict"] == "H1" and report["games"] == 352 > GAMES
    page = (ROOT / "docs" / "bots.md").read_text("utf-8")
    assert f"{SPRT_GAMES:,} games at most" in page
    assert f"--games` ({GAMES} by default)" in page


def test_the_wilson_interval_holds_the_share():
    low, high = wilson(59, 100)
    assert 0.49 < low < 0.59 < high < 0.69
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)


def test_the_archive_is_read_by_stats_with_the_bots_as_players(tmp_path):
    pytest.importorskip("openskill", reason="ratings need the ratings extra")
    out = tmp_path / "m.ord"
    assert (
        match(
            "careful", "random", "-n", "20", "--seed", "r", "-o", str(out), cwd=tmp_path
        ).returncode
        == 0
    )
    stats = ["stats", "--by", "player", "--ratings", str(out), "-f", "json"]
    done = subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", *stats],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert {row["player"] for row in found["ratings"]["players"]} == {"careful", "random"}
    assert found["ratings"]["players"][0]["player"] == "careful"


@pytest.mark.slow  # a match at a pseudo-terminal
def test_a_terminal_shows_the_score_as_the_match_goes(tmp_path):
    pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extra")
    bot = f"{sys.executable} {EXAMPLES / 'first_open.py'}"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ordonnance_notation", "match", "careful", bot, "-n", "200", "--seed", "p"],
        cwd=str(tmp_path), dimensions=(24, 100), encoding="utf-8", timeout=120,
    )  # fmt: skip
    child.expect(r"playing: careful \d+  first-open \(Python\) \d+")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "200 games, 2 seats" in child.before
