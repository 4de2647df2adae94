"""The bot protocol and ``ordo match``: the example bots in Python and
JavaScript, a bot that breaks the protocol in each way it can, the
statistics of the report, and the mirrored deals."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ordonnance_notation import validate_text
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.making import protocol
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.match import Plan, credited, play_deals
from ordonnance_notation.making.players import External, Forfeit
from ordonnance_notation.making.statistics import Sprt, elo_of, expected, wilson
from ordonnance_notation.making.table import Forfeited

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "bots"
UNRULY = Path(__file__).resolve().parent / "bots" / "unruly.py"


def match(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", "match", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=False,
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
}


@pytest.mark.parametrize("how", list(UNRULY_WAYS))
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
