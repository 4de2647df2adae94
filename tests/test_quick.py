"""The compiled core and the Python validator give the same output (issue 26),
and so do the core's analysis and the Python analysis.

The core (checking/_quick.c) accepts a record only when the Python
validator would find nothing to report in it, and declines every other
record to the Python path. These tests hold it to that on every corpus of
the project: for each text, the checks of its records by way of the core
(``validate_block``) equal those of the Python path alone
(``python_block``), diagnostics, verdicts and JSON included; and ``ordo
validate`` prints the same bytes with ``ORDO_PURE_PYTHON=1`` as without.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
import yaml
from hypothesis import given
from strategies import (
    ROOT,
    SAMPLES,
    TESTS,
    any_text,
    deck,
    fuzz,
    mutations,
    self_played,
    valid_records,
)

from ordonnance_notation.checking import quick
from ordonnance_notation.checking.validator import validate
from ordonnance_notation.engine import analysis as engine_analysis
from ordonnance_notation.notation.parser import parse_chunks
from ordonnance_notation.querying import select
from ordonnance_notation.querying.select import Query, select_block
from ordonnance_notation.runs.blocks import Block, block_chunks, input_blocks
from ordonnance_notation.runs.validation import python_block, validate_block
from ordonnance_notation.views.analysis import analysed, quick_analyses, render_text
from ordonnance_notation.views.report import laid_block
from ordonnance_notation.views.stats import collect, stats_block

pytestmark = pytest.mark.skipif(
    quick.CHECK_BLOCK is None, reason="no compiled core here: pip install . with a C compiler"
)


def _both(text: str, with_json: bool = True) -> None:
    block = Block(0, "game.ord", 1, text)
    assert validate_block(block, with_json) == python_block(block, with_json)
    _analysed_alike(block, ("json",))  # (the text says the same: the corpora check it too)


def _analysed_alike(block: Block, formats: tuple[str, ...] = ("text", "json")) -> None:
    """``ordo analyse``'s text and JSON of the block's records, by way of the
    core's analysis (``quick_analyses``) and by the Python analysis alone
    (where the core analysed none, both ways are the Python path)."""
    found = quick_analyses(block, 1)
    if found is None or all(isinstance(item, tuple) for item in found):
        return
    for format in formats:
        with mock.patch.object(engine_analysis, "CORE", None):
            by_python = laid_block(block, analysed, render_text, format)
        assert laid_block(block, analysed, render_text, format, quick_analyses) == by_python
    _counted_alike(block)
    _chosen_alike(block)


QUERIES = [
    Query.of(),
    Query.of(winner="P2"),
    Query.of(won=["P1:J"], scoring="classic"),
    Query.of(tags=["Event=Self*"], invert=True),
    Query.of(players=["r*"], valid=True, won=["A"]),
]


def _chosen_alike(block: Block) -> None:
    """``ordo select``'s choice among the block's records, by way of what the
    core read of those it accepts and by parsing every record."""
    for query in QUERIES:
        by_core = select_block(block, query)
        with mock.patch.object(select, "written_block", lambda first_line, text: None):
            assert by_core == select_block(block, query)


def _counted_alike(block: Block) -> None:
    """``ordo stats``'s statistics of the block's records, by way of what the
    core found of those it accepts and from the reports alone."""
    reports = [validate(item) for item in parse_chunks(block_chunks(block), block.source)]
    for by_player in (False, True):
        assert stats_block(block, by_player) == collect(reports, by_player)


def _files(*patterns: str) -> list[Path]:
    return sorted(p for pattern in patterns for p in ROOT.glob(pattern) if p.is_file())


CORPORA = _files(
    "samples/*.ord", "samples/invalid/*.ord", "tests/bad/*.ord", "tests/fuzz_corpus/*.ord"
)


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_corpus_file_is_checked_alike(path: Path) -> None:
    """The file cut into blocks as ``ordo validate`` cuts it."""
    for pure in (True, False):
        found = []
        for block in input_blocks([str(path)]):
            if isinstance(block, Block):
                found.append(validate_block(block, True) if not pure else python_block(block, True))
                if not pure:
                    _analysed_alike(block)
            else:  # an input that cannot be read: its diagnostic, in its place
                found.append(block.diagnostic)
        if pure:
            expected = found
    assert found == expected


def test_the_core_accepts_the_plain_samples() -> None:
    """Not a core that declines everything: the samples written plainly are its own."""
    for name in ("classic-2.ord", "later-capture-3.ord", "points-4.ord"):
        text = (SAMPLES / name).read_text("utf-8")
        found = quick.CHECK_BLOCK(text, 1, lambda name: True)  # type: ignore[misc]
        assert found is not None
        count, [item] = found
        assert count == 1 and len(item) > 2, name


MISTAKES = yaml.safe_load((TESTS / "mistakes.yaml").read_text("utf-8"))


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m["name"])
def test_every_hand_made_mistake_is_checked_alike(mistake: dict[str, str]) -> None:
    _both(mistake["text"])


def _words_replaced(text: str) -> list[str]:
    """``text`` with each word of each line replaced, in turn, by each of a
    few words of its kind and of other kinds, each line deleted, doubled and
    followed by a blank line: records one word or line from valid."""
    others = [
        "P0", "P1", "P2", "P3", "P4", "P5", "P01", "p1", "L", "LH", "HL", "LL", "lh", "X", "A",
        "j", "Antioch", "antioch", "Jerusalam", "#0", "#1", "#5", "#6", "#01", "1.", "01.",
        "41.", "+L", "+LH", "!", "!!", "!!!", "P1:0", "P2:3", "P2:03", "result", "hand",
        "pile:", "unfinished", "Shared", "", '"', "[", "]",
    ]  # fmt: skip
    lines = text.split("\n")
    mutants = []
    for i, line in enumerate(lines):
        mutants += [
            "\n".join(lines[:i] + lines[i + 1 :]),
            "\n".join(lines[: i + 1] + lines[i:]),
            "\n".join(lines[: i + 1] + ["", *lines[i + 1 :]]),
            "\n".join(lines[:i] + [line + " "] + lines[i + 1 :]),
        ]
        words = line.split(" ")
        for k in range(len(words)):
            for other in others:
                changed = " ".join(words[:k] + [other] + words[k + 1 :])
                mutants.append("\n".join(lines[:i] + [changed] + lines[i + 1 :]))
    return mutants


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_record_a_word_from_valid_is_checked_alike(seats: int) -> None:
    for mutant in _words_replaced(self_played(seats, seats, "greedy")):
        _both(mutant, with_json=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["classic-2.ord", "later-capture-3.ord", "points-4.ord", "points-tie-3.ord"]
)
def test_every_sample_a_word_from_valid_is_checked_alike(name: str) -> None:
    text = (SAMPLES / name).read_text("utf-8")
    for mutant in _words_replaced(text)[:: 1 if name == "classic-2.ord" else 7]:
        _both(mutant, with_json=False)


@fuzz(400)
@given(mutations())
def test_mutants_are_checked_alike(text: str) -> None:
    _both(text)


@fuzz(200)
@given(mutations(valid_records))
def test_mutants_of_several_records_are_checked_alike(text: str) -> None:
    _both(text)


@fuzz(300)
@given(any_text)
def test_any_text_is_checked_alike(text: str) -> None:
    _both(text)


def test_a_tag_the_judge_calls_a_misspelling_is_declined() -> None:
    """W503 is the Python validator's to give: the core asks it of each tag name."""
    text = (SAMPLES / "classic-2.ord").read_text("utf-8").replace("[Site", "[Sitte")
    _both(text)
    found = quick.CHECK_BLOCK(text, 1, lambda name: name != "Sitte")  # type: ignore[misc]
    assert found is not None and len(found[1][0]) == 2


def _ordo(path: Path, pure: bool, command: str, *options: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ORDO_PURE_PYTHON"}
    if pure:
        env["ORDO_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", command, *options, str(path)],
        capture_output=True,
        env=env,
        check=False,
    )
    return done.returncode, hashlib.sha256(done.stdout).hexdigest(), done.stderr.decode()


def _json(path: Path, pure: bool) -> tuple[int, str, str]:
    return _ordo(path, pure, "validate", "--format", "json")


def _analyses(path: Path, pure: bool, *formats: str) -> tuple[tuple[int, str, str], ...]:
    """``ordo analyse`` in ``formats``, on two processes, ``ordo stats
    --by player`` and ``ordo select``."""
    found = tuple(_ordo(path, pure, "analyse", "-j", "2", "-f", f) for f in formats)
    stats = _ordo(path, pure, "stats", "--by", "player", "-f", "json")
    return (*found, stats, _ordo(path, pure, "select", "--won", "P2:J"))


def _generating(
    folder: Path, seats: int, games: int, *options: str
) -> tuple[Path, subprocess.Popen[bytes]]:
    path = folder / f"play-{seats}-{games}.ord"
    command = [sys.executable, "-m", "ordonnance_notation", "play", "--players", str(seats)]
    command += ["--games", str(games), "--seed", f"quick-{seats}", *options, "-o", str(path)]
    return path, subprocess.Popen(command)


@pytest.mark.slow
def test_a_hundred_thousand_generated_records_validate_alike(tmp_path: Path) -> None:
    """2, 3 and 4 seats, classic and points scoring, a points table that can
    share the win (D9), every bot, and a deck of 40 cards whose pile runs
    out before the end (D5)."""
    deck = tmp_path / "forty.yaml"
    letters = ("L", "B", "S", "H", "F", "LB", "SH", "HF", "LSH", "BSF")
    deck.write_text("name: forty\ncards:\n" + "".join(f"  {c}: 4\n" for c in letters), "utf-8")
    runs = [
        _generating(tmp_path, 2, 35_000, "--bots", "random,greedy"),
        _generating(tmp_path, 3, 25_000, "--scoring", "points"),
        _generating(tmp_path, 4, 20_000, "--scoring", "points", "--points", "1 1 1 0"),
        _generating(tmp_path, 4, 9_500, "--bots", "greedy,random,greedy,random"),
        _generating(tmp_path, 3, 500, "--bots", "careful"),
        _generating(tmp_path, 2, 10_000, "--deck", str(deck)),
    ]
    for path, process in runs:
        assert process.wait() == 0
        assert _json(path, pure=False) == _json(path, pure=True), path.name
        assert _analyses(path, False, "json") == _analyses(path, True, "json"), path.name


def test_the_core_ranks_armies_as_the_analysis_does() -> None:
    from ordonnance_notation.checking._quick import configure_analysis
    from ordonnance_notation.engine.analysis import RANKS
    from ordonnance_notation.engine.armies import PACKED

    ranks = configure_analysis(tuple(PACKED))
    assert list(ranks[: len(RANKS)]) == RANKS
    assert set(ranks[len(RANKS) :]) <= {-1}


def test_the_core_analyses_the_plain_samples() -> None:
    """Not left to Python: the samples with a deal are analysed by the core."""
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    found = quick_analyses(Block(0, "classic-2.ord", 1, text), 1)
    assert found is not None and not any(isinstance(item, tuple) for item in found)
    _analysed_alike(Block(0, "classic-2.ord", 1, text))


@pytest.mark.slow
def test_ordo_validate_prints_the_same_bytes_on_every_corpus_file() -> None:
    for path in CORPORA:
        assert _json(path, pure=False) == _json(path, pure=True), path.name
        both = ("text", "json")
        assert _analyses(path, False, *both) == _analyses(path, True, *both), path.name


def test_a_shared_win_is_accepted_as_shared() -> None:
    """D9: a points table under which two seats without a state tie."""
    from ordonnance_notation.engine.scoring import Scoring
    from ordonnance_notation.making.selfplay import game_text, play_game

    played = play_game("quick-4/1889", ["random"] * 4, deck(), Scoring.by_points((1, 1, 1, 0)))
    text = game_text(played)
    assert '[Result "shared"]' in text
    _both(text)
    [checked] = validate_block(Block(0, "game.ord", 1, text), True)[1]
    assert checked.verdict.startswith("valid, the win is shared")
    found = quick.CHECK_BLOCK(text, 1, lambda name: True)  # type: ignore[misc]
    assert found is not None and len(found[1][0]) > 2  # accepted by the core, not declined


@pytest.mark.skipif(engine_analysis.CORE is None, reason="no compiled analysis here")
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_compiled_analysis_is_the_analysis(seats: int) -> None:
    """``analyse`` by the core (engine/_analysis_module.c) and in Python alone, on
    self-played games cut short at random, classic and points scoring: with
    the deal, without it, and with a deal that lists only the pile's first
    cards (D8; the core leaves those to Python, whose answer stands)."""
    import random

    from ordonnance_notation.engine.analysis import analyse
    from ordonnance_notation.engine.game import Deal
    from ordonnance_notation.engine.scoring import Scoring
    from ordonnance_notation.making.selfplay import play_game

    bots = ["random", "greedy", "careful", "random"][:seats]
    for k in range(40):
        scoring = Scoring.by_points((3, 1, 0, 0)[:seats]) if k % 3 == 0 else Scoring.classic()
        played = play_game(f"twin/{k}", bots, deck(), scoring)
        plays = [(turn.card, turn.state) for turn in played.turns]
        cut = random.Random(k).randrange(len(plays) + 1)
        short = Deal(played.deal.hands, played.deal.pile[: cut // 2])
        for dealt in (played.deal, None, short):
            for upto in (cut, len(plays)):
                fast = analyse(seats, dealt, plays[:upto], scoring)
                assert fast == analyse(seats, dealt, plays[:upto], scoring, fast=False), (k, upto)
