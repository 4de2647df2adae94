"""The compiled core and the Python validator give the same output (issue 26),
and so do the core's analysis and the Python analysis.

The core (checking/_quick.c) accepts a record only when the Python
validator would find nothing to report in it, and declines every other
record to the Python path. These tests hold it to that on every corpus of
the project: for each text, the checks of its records by way of the core
(``validate_block``) equal those of the Python path alone
(``python_block``), diagnostics, verdicts and JSON included; and ``ordo
validate`` prints the same bytes with ``ORDO_PURE_PYTHON=1`` as without.
So do ``ordo summary`` and ``ordo view``, which summarise and page the
records the core accepts from what it found (``quick.replayed_block``).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any
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
    deep,
    fuzz,
    mutations,
    sampled,
    self_played,
    valid_records,
)

from ordonnance_notation.checking import quick
from ordonnance_notation.checking.replayed import Replayed
from ordonnance_notation.checking.validator import validate
from ordonnance_notation.diagnostics import Diagnostic, InputError
from ordonnance_notation.engine import analysis as engine_analysis
from ordonnance_notation.engine import armies
from ordonnance_notation.engine.armies import (
    PACKED,
    Army,
    Formations,
    Unit,
    decide,
    described,
    explained_packed,
    formations_of,
    rank,
)
from ordonnance_notation.engine.cards import Card, seat_name
from ordonnance_notation.engine.game import Game, Table
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.making.dealing import Deck, parse_deck
from ordonnance_notation.making.selfplay import game_text, play_game
from ordonnance_notation.notation.parser import parse_chunks, parse_record
from ordonnance_notation.querying import select
from ordonnance_notation.querying.select import Query, select_block
from ordonnance_notation.runs.blocks import Block, block_chunks, input_blocks
from ordonnance_notation.runs.validation import python_block, validate_block
from ordonnance_notation.runs.workers import Workers
from ordonnance_notation.views import page
from ordonnance_notation.views import summary as summary_view
from ordonnance_notation.views.analysis import analysed, quick_analyses, render_text
from ordonnance_notation.views.page import Pages
from ordonnance_notation.views.report import laid_block
from ordonnance_notation.views.stats import collect, stats_block
from ordonnance_notation.views.summary import summaries

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
    _replayed_alike(block)


def _replayed_alike(block: Block) -> None:
    """What the core found of each record it accepts (``quick.replayed_block``)
    is what the Python path finds of it (``Replayed.of`` its report)."""
    for item in quick.replayed_block(block.first_line, block.text) or ():
        if isinstance(item, Replayed):
            record = parse_record(item.text, item.first_line, block.source, 1)
            assert record is not None
            assert Replayed.of(validate(record)) == item


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
        with mock.patch.object(select, "replayed_block", lambda *args, **kwargs: None):
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
    """Every eleventh mutant (all of them in a deep run)."""
    for mutant in sampled(_words_replaced(self_played(seats, seats, "greedy")), 11):
        _both(mutant, with_json=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["classic-2.ord", "later-capture-3.ord", "points-4.ord", "points-tie-3.ord"]
)
def test_every_sample_a_word_from_valid_is_checked_alike(name: str) -> None:
    text = (SAMPLES / name).read_text("utf-8")
    for mutant in sampled(_words_replaced(text), 7):
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
    return _ordo_on([path], pure, command, *options)


def _ordo_on(paths: list[Path], pure: bool, command: str, *options: str) -> tuple[int, str, str]:
    """``ordo command options paths``, with ``ORDO_PURE_PYTHON=1`` if ``pure``:
    its exit status, a digest of what it printed and its standard error."""
    env = {k: v for k, v in os.environ.items() if k != "ORDO_PURE_PYTHON"}
    if pure:
        env["ORDO_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", command, *options, *map(str, paths)],
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
def test_generated_records_validate_alike(tmp_path: Path) -> None:
    """10,000 records (100,000 in a deep run): 2, 3 and 4 seats, classic and
    points scoring, a points table that can share the win (D9), every bot,
    and a deck of 40 cards whose pile runs out before the end (D5)."""
    tenth = 1 if deep() else 10
    deck = tmp_path / "forty.yaml"
    letters = ("L", "B", "S", "H", "F", "LB", "SH", "HF", "LSH", "BSF")
    deck.write_text("name: forty\ncards:\n" + "".join(f"  {c}: 4\n" for c in letters), "utf-8")
    runs = [
        _generating(tmp_path, 2, 35_000 // tenth, "--bots", "random,greedy"),
        _generating(tmp_path, 3, 25_000 // tenth, "--scoring", "points"),
        _generating(tmp_path, 4, 20_000 // tenth, "--scoring", "points", "--points", "1 1 1 0"),
        _generating(tmp_path, 4, 9_500 // tenth, "--bots", "greedy,random,greedy,random"),
        _generating(tmp_path, 3, 500 // tenth, "--bots", "careful"),
        _generating(tmp_path, 2, 10_000 // tenth, "--deck", str(deck)),
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


def test_a_points_table_shorter_than_the_seats_scores_the_last_places_nothing() -> None:
    """Four seats, points for three places: the fourth place scores 0 in the
    core's scoring as in Python's (a branch only the exhaustive mutants
    reached: issue 48's coverage check)."""
    text = (ROOT / "samples" / "points-4.ord").read_text("utf-8")
    short = text.replace('[Points "3 2 1 0"]', '[Points "2 1 0"]')
    assert short != text
    _both(short)
    [checked] = validate_block(Block(0, "game.ord", 1, short), True)[1]
    assert "E411" in {d.code for d in checked.diagnostics}  # declared for a table of four


@pytest.mark.skipif(engine_analysis.CORE is None, reason="no compiled analysis here")
@pytest.mark.parametrize("seats", [2, 3, pytest.param(4, marks=pytest.mark.slow)])
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


# ordo summary and ordo view -------------------------------------------------
#
# The records the core accepts with every play written plainly are
# summarised and paged from what it found (quick.replayed_block: summary.
# quick_summaries, page.core_view); every other record as before. The
# summary's entries and the page's bytes must not tell the two apart.


@contextmanager
def _pure_python() -> Iterator[None]:
    """Every record by the Python path, as with ``ORDO_PURE_PYTHON=1``: no
    compiled core and no compiled analysis."""
    with (
        mock.patch.object(quick, "CHECK_BLOCK", None),
        mock.patch.object(engine_analysis, "CORE", None),
    ):
        yield


SUMMARY_FORMATS = ("text", "markdown", "json")


def _summary(paths: list[str], format: str, decided: bool) -> tuple[list[object], int, int]:
    """``ordo summary``'s entries of ``paths`` as ``summaries`` lays them out
    and numbers them (an input it cannot read: its diagnostic), and how many
    records, how many invalid."""
    laid = summaries(paths, format, Workers(1), decided)
    entries = [item.diagnostic if isinstance(item, InputError) else item for item in laid]
    return entries, laid.records, laid.invalid


def _page(
    paths: list[str], seat: int | None, decided: bool
) -> tuple[list[str], int, int, list[Diagnostic]]:
    """``ordo view``'s page of ``paths`` as ``seat`` saw them (None: every
    seat), in the pieces ``Pages`` writes (one a block), and its counts and
    the inputs it could not read."""
    pages = Pages(paths, Workers(1), seat, "ordo view", decided)
    pieces = list(pages)
    return pieces, pages.records, pages.invalid, [p.diagnostic for p in pages.problems]


def _summarised_alike(paths: list[str]) -> None:
    """``ordo summary`` in every format, with and without ``--no-decided``,
    by way of the core and by the Python path alone."""
    for decided in (True, False):
        for format in SUMMARY_FORMATS:
            by_core = _summary(paths, format, decided)
            with _pure_python():
                assert _summary(paths, format, decided) == by_core, (format, decided)


def _viewed_alike(paths: list[str], seats: Iterable[int | None] = (None, 1)) -> None:
    """``ordo view``'s page, with and without ``--no-decided``, of every
    seat and as each of ``seats`` saw it, by way of the core and by the
    Python path alone: the same bytes."""
    for decided in (True, False):
        for seat in seats:
            by_core = _page(paths, seat, decided)
            with _pure_python():
                by_python = _page(paths, seat, decided)
            assert by_python[1:] == by_core[1:], (seat, decided)
            assert by_python[0] == by_core[0], (seat, decided)


_SCRIPT = re.compile(r'<script type="application/json" id="([a-z]+\d*)">(.*?)</script>\n')


def _read_page(pieces: list[str]) -> tuple[list[object], list[Any], str]:
    """A page's lines in the list of records and its records' JSON, each
    string in the place of its index in its chunk's table of values, and
    the rest of the page."""
    html = "".join(pieces)
    data = {name: json.loads(body) for name, body in _SCRIPT.findall(html)}
    rows: list[object] = []
    tables = []
    for k in range(data["index"]["chunks"]):
        chunk = data[f"c{k}"]
        v = chunk["values"]
        for i, (players, date, event, verdict, valid) in enumerate(chunk["rows"]):
            rows.append((chunk["source"], chunk["first"] + i, v[players], v[date], v[event]))
            rows.append((v[verdict], valid))
            tables.append(v)
    records = []
    for number, v in enumerate(tables, 1):
        record = data[f"r{number}"]
        plays = record["plays"]
        if plays is not None:
            for key in ("labels", "hand_labels"):
                plays[key] = [v[i] for i in plays[key]]
            plays["written"] = {p: [v[i] for i in w] for p, w in plays["written"].items()}
            for key in ("glyphs", "notes"):
                plays[key] = {p: v[i] for p, i in plays[key].items()}
            plays["ending"] = plays["ending"] and [v[i] for i in plays["ending"]]
        rules, result, comments, states = record["summary"]
        record["summary"] = [
            v[rules],
            v[result],
            [v[c] for c in comments],
            [[*s[:3], v[s[3]], [[*a[:3], v[a[3]]] for a in s[4]]] for s in states],
        ]
        records.append(record)
    assert len(records) == sum(name.startswith("r") for name in data)
    return rows, records, _SCRIPT.sub(lambda m: "" if m[1] != "index" else m[0], html)


def _text_summarised_and_viewed_alike(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.ord"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        _summarised_alike([str(path)])
        _viewed_alike([str(path)])


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_corpus_file_has_the_same_summary(path: Path) -> None:
    _summarised_alike([str(path)])


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_corpus_file_has_the_same_view(path: Path) -> None:
    _viewed_alike([str(path)])


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: m["name"])
def test_every_hand_made_mistake_has_the_same_summary_and_view(mistake: dict[str, str]) -> None:
    _text_summarised_and_viewed_alike(mistake["text"])


@fuzz(60)
@given(mutations())
def test_mutants_have_the_same_summary_and_view(text: str) -> None:
    _text_summarised_and_viewed_alike(text)


@fuzz(30)
@given(mutations(valid_records))
def test_mutants_of_several_records_have_the_same_summary_and_view(text: str) -> None:
    _text_summarised_and_viewed_alike(text)


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_record_a_word_from_valid_has_the_same_summary_and_view(seats: int) -> None:
    """A few hundred of them each (a stride prime to the words tried in a place)."""
    stride = {2: 37, 3: 71, 4: 103}[seats]
    for mutant in _words_replaced(self_played(seats, seats, "greedy"))[::stride]:
        _text_summarised_and_viewed_alike(mutant)


@cache
def _forty() -> Deck:
    """A deck of 40 cards: the pile runs out before the end (D5)."""
    letters = ("L", "B", "S", "H", "F", "LB", "SH", "HF", "LSH", "BSF")
    return parse_deck("name: forty\ncards:\n" + "".join(f"  {c}: 4\n" for c in letters), "forty")


def _games(seats: int) -> list[str]:
    """Self-played records of ``seats`` seats: classic and points scoring
    (the default table and one under which seats can share the win, D9),
    with the reference deck and with a deck whose pile runs out (D5)."""
    bots = ["random", "greedy", "careful", "random"][:seats]
    rules = [
        (Scoring.classic(), deck()),
        (Scoring.by_points((1, 1, 1, 0)[:seats]), deck()),
        (Scoring.by_points((4, 2, 1, 0)[:seats]), _forty()),
        (Scoring.by_points(), deck()),
        (Scoring.classic(), _forty()),
    ]
    return [
        game_text(play_game(f"paged/{seats}/{k}", bots, dealt, scoring))
        for k, (scoring, dealt) in enumerate(rules)
    ]


_PLAY = re.compile(r"(?m)^(\d+)\. (?:(P\d) )?(\S+) ([ACJET])$")


def _written_otherwise(text: str, seats: int) -> dict[str, tuple[str, bool]]:
    """A self-played record with its plays written otherwise, each with
    whether every play stays plain (its number, perhaps its seat, its card
    as ``Card.__str__`` spells it and its state's letter, every one with its
    seat or none), the core's to summarise and page; the others (a glyph, a
    draw, another spelling, some plays with seats and some without) are
    left to Python."""

    def seated(play: re.Match[str]) -> str:
        return f"{play[1]}. {seat_name((int(play[1]) - 1) % seats)} {play[3]} {play[4]}"

    unseated = _PLAY.sub(lambda play: f"{play[1]}. {play[3]} {play[4]}", text)
    first = _PLAY.search(text)
    assert first is not None and first[1] == "1"
    pile = text[text.index("pile:") :].split()[1]  # the card ply 1 draws
    seat = f"{first[2]} " if first[2] else ""
    spelt = next(play for play in _PLAY.finditer(text) if len(play[3]) > 1)
    named = next(play for play in _PLAY.finditer(text) if play[4] == "A")
    return {
        "as played": (text, True),
        "every play with its seat": (_PLAY.sub(seated, text), True),
        "no play with its seat": (unseated, True),
        "one play with its seat": (_PLAY.sub(seated, unseated, count=1), False),
        "one play without its seat": (
            _PLAY.sub(lambda play: f"{play[1]}. {play[3]} {play[4]}", _PLAY.sub(seated, text), 1),
            False,
        ),
        "a glyph": (_PLAY.sub(lambda play: f"{play[0]} !?", text, count=1), False),
        "a draw": (text.replace(first[0], f"1. {seat}+{pile} {first[3]} {first[4]}", 1), False),
        "a card spelt backwards": (
            text[: spelt.start(3)] + spelt[3][::-1] + text[spelt.end(3) :],
            False,
        ),
        "a state by its name": (text[: named.start(4)] + "Antioch" + text[named.end(4) :], False),
    }


def _generated_alike(
    games: list[str], seats: int, folder: Path, views: Iterable[int | None], every: bool
) -> None:
    """The records of ``games`` with their plays written as ``ordo play``
    writes them and otherwise (``_written_otherwise``; unless ``every``,
    only the first game's written otherwise than plainly), one after
    another in one file, summarised and paged (of every seat and as each of
    ``views`` saw them) by way of the core and by Python alone; the core's
    are those whose every play is plain."""
    texts = []
    for n, game in enumerate(games):
        for how, (text, plain) in _written_otherwise(game, seats).items():
            found = quick.replayed_block(1, text)
            assert found is not None and len(found) == 1, how
            [item] = found
            assert (isinstance(item, Replayed) and item.plain) is plain, how
            if plain:
                assert isinstance(item, Replayed)
                seated = how == "every play with its seat" or (seats > 2 and how == "as played")
                assert item.seated is seated, how
            if plain or every or n == 0:
                texts.append(text)
    path = folder / "generated.ord"
    path.write_text("\n".join(texts), "utf-8")
    _summarised_alike([str(path)])
    _viewed_alike([str(path)], views)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_generated_records_have_the_same_summary_and_view(seats: int, tmp_path: Path) -> None:
    """Classic scoring, points that can share the win, and a pile that runs out."""
    _generated_alike(_games(seats)[:3], seats, tmp_path, (None, 1), every=False)


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_generated_record_has_the_same_summary_and_view(seats: int, tmp_path: Path) -> None:
    """Every rule of ``_games``, every record written otherwise, and the
    page as each seat saw it."""
    _generated_alike(_games(seats), seats, tmp_path, (None, *range(seats)), every=True)


def test_the_core_asks_again_for_the_words_of_a_record_that_differs_in_any_of_them() -> None:
    """The core keeps a record's words by all they depend on (its players,
    date, event, outcome and points table): a record that differs from the
    one before in any one of them, alone, gets its own (the row of the list
    and the words of its page as Python writes them)."""
    record = (SAMPLES / "classic-2.ord").read_text("utf-8").split("\n\n[")[0].strip() + "\n"
    variants = [
        record,
        record.replace("Lyon club night", "Lyon club evening"),
        record.replace("2026.11.20", "2026.11.21"),
        record.replace("Boris Lind", "Boris Lund"),
        record.replace("Boris Lind", "Boris Lind "),
        record,
    ]
    assert len(set(variants)) == len(variants) - 1
    _text_summarised_and_viewed_alike("\n".join(variants))


def test_the_core_puts_the_same_words_in_each_block_s_table_of_values(tmp_path: Path) -> None:
    """The words the core keeps (and a value's index by its string) serve
    more than one block: each block's chunk still holds every value its
    records name."""
    record = (SAMPLES / "classic-2.ord").read_text("utf-8").split("\n\n[")[0].strip() + "\n"
    path = tmp_path / "many.ord"
    path.write_text("\n".join([record] * 400), "utf-8")
    pieces, records, _, _ = _page([str(path)], None, True)
    html = "".join(pieces)
    assert records == 400 and html.count('id="c') > 1  # more than one block
    rows, pages, _ = _read_page(pieces)
    assert len({row for row in rows[::2] if isinstance(row, tuple)}) == 400
    assert all(page_["summary"] == pages[0]["summary"] for page_ in pages)
    assert all(page_["plays"]["labels"] == ["P1 Anna Petrova", "P2 Boris Lind"] for page_ in pages)


def test_the_core_summarises_and_views_the_plain_records(tmp_path: Path) -> None:
    """Not a fast path that is never taken: ``ordo summary`` and ``ordo
    view`` take the plainly written records from the core (the seats'
    pages too), and leave an annotated one to Python."""
    plain = [SAMPLES / "classic-2.ord", SAMPLES / "points-4.ord"]
    annotated = tmp_path / "annotated.ord"
    annotated.write_text(_PLAY.sub(r"\g<0> !", (SAMPLES / "classic-2.ord").read_text("utf-8")))
    for paths, by_core in ((plain, True), ([annotated], False)):
        named = list(map(str, paths))
        made = mock.patch.object(summary_view, "core_summary", wraps=summary_view.core_summary)
        viewed = mock.patch.object(page, "core_view", wraps=page.core_view)
        texts = mock.patch.object(summary_view, "core_text", wraps=summary_view.core_text)
        with made as core_summary, viewed as core_view, texts as core_text:
            for decided in (True, False):
                for format in SUMMARY_FORMATS:
                    entries, records, invalid = _summary(named, format, decided)
                    assert (records, invalid) == (len(paths), 0)
                for seat in (None, 1):
                    assert _page(named, seat, decided)[1:3] == (len(paths), 0)
        runs = len(paths) if by_core else 0  # records taken from the core in each run
        # markdown and json with and without --no-decided; text from Replayed (core_text)
        assert core_summary.call_count == 4 * runs, paths
        assert core_text.call_count == 2 * runs, paths
        analysed = [call.args[0].analysis is not None for call in core_text.call_args_list]
        assert sum(analysed) == runs, paths
        # P2's page and the page of every seat, with and without --no-decided
        assert core_view.call_count == 4 * runs, paths
    entries = _summary([str(annotated)], "text", False)[0]
    assert "Annotations" in entries[0]  # (the annotated record's, by Python)


@pytest.mark.slow
def test_ordo_summary_and_view_write_the_same_bytes(tmp_path: Path) -> None:
    """``ordo summary`` in every format and ``ordo view -o FILE`` (of every
    seat and as P2 saw it), with and without ``--no-decided``, with
    ``ORDO_PURE_PYTHON=1`` and without, on every corpus file and on records
    of 2, 3 and 4 seats as ``ordo play`` writes them and written otherwise
    (a page of every seat: the same records, ``_read_page``)."""
    deck_file = tmp_path / "forty.yaml"
    letters = ("L", "B", "S", "H", "F", "LB", "SH", "HF", "LSH", "BSF")
    deck_file.write_text("name: forty\ncards:\n" + "".join(f"  {c}: 4\n" for c in letters))
    runs = [
        _generating(tmp_path, 4, 150),
        _generating(tmp_path, 3, 150, "--scoring", "points", "--bots", "greedy"),
        _generating(tmp_path, 2, 150, "--deck", str(deck_file), "--bots", "random,greedy"),
    ]
    otherwise = tmp_path / "otherwise.ord"
    otherwise.write_text(
        "\n".join(
            text
            for seats in (2, 3, 4)
            for game in _games(seats)[:2]
            for text, _ in _written_otherwise(game, seats).values()
        ),
        "utf-8",
    )
    for path, process in runs:
        assert process.wait() == 0, path.name
    paths = [*CORPORA, *(path for path, _ in runs), otherwise]
    for decided in ("--decided", "--no-decided"):
        for format in SUMMARY_FORMATS:
            options = ("-f", format, decided, *(("-j", "2") if format == "json" else ()))
            by_core = _ordo_on(paths, False, "summary", *options)
            assert _ordo_on(paths, True, "summary", *options) == by_core, options
    for options in ((), ("--no-decided",), ("--seat", "P2"), ("--seat", "P2", "--no-decided")):
        pages = []
        for pure in (False, True):
            written = tmp_path / f"page-{pure}.html"
            status, _, said = _ordo_on(paths, pure, "view", "-o", str(written), "--force", *options)
            page = written.read_text("utf-8")
            pages.append((status, _read_page([page]), said.replace(str(written), "page.html")))
            if "--seat" in options:  # no record written by the core: the same bytes
                pages[-1] += (page,)
        assert pages[0] == pages[1], options


# What the core's summary and page are made of --------------------------------


def _packed(army: Army) -> int:
    """An army's icon counts packed as the core gives them (``armies.PACKED``)."""
    return sum(PACKED[card.mask] for card in army.cards)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_core_resolutions_are_the_replayed_resolutions(seats: int) -> None:
    """Each marker's armies by place as the core ranks them (seat, ply of the
    fourth card, icon counts), and the words the summary and the page make
    of them (``explained_packed``, ``described``), are those of a ``Table``
    and a ``Game`` replaying the plays: self-played games, classic and
    points scoring, with the reference deck and one whose pile runs out."""
    bots = ["random", "greedy", "careful", "random"][:seats]
    for k in range(30):
        scoring = Scoring.by_points((3, 1, 0, 0)[:seats]) if k % 3 == 0 else Scoring.classic()
        played = play_game(f"ranked/{seats}/{k}", bots, _forty() if k % 5 == 4 else deck(), scoring)
        found = quick.replayed_block(1, game_text(played))
        assert found is not None
        [paged] = found
        assert isinstance(paged, Replayed) and paged.plain, k
        plays = [(turn.card, turn.state) for turn in played.turns]
        assert list(paged.plays) == plays
        table, game = Table(seats, played.deal), Game.new(seats, played.deal)
        for card, state in plays:
            table.play(card, state)
            game, _ = game.play(card, state)
        resolutions = game.resolutions
        assert tuple(table.resolutions) == resolutions
        assert resolutions == tuple(t.resolution for t in played.turns if t.resolution)
        assert len(resolutions) == 5
        for resolution, marker, places in zip(
            resolutions, paged.markers, paged.ranked, strict=True
        ):
            where = (k, resolution.marker)
            assert marker == (
                resolution.marker,
                resolution.state,
                resolution.winner,
                resolution.ply,
            )
            ranking = resolution.ranking
            assert places == tuple((a.seat, a.fourth_ply, _packed(a)) for a in ranking), where
            (seat, fourth, packed), (_, other, beaten) = places[:2]
            words = explained_packed(packed, beaten, seat, fourth, other)
            assert words == resolution.decision.explain(), where
            said = [described(icons) for _, _, icons in places]
            assert said == [army.formations.describe() for army in ranking], where


def _caches() -> list[dict[object, object]]:
    """The caches of ``engine.armies``: its module's private dicts
    (formations by packed icon counts, one of each, and their words)."""
    return [
        value
        for name, value in vars(armies).items()
        if name.startswith("_") and not name.startswith("__") and isinstance(value, dict)
    ]


_CACHES = _caches()


def _caches_emptied() -> ExitStack:
    """Every cache of ``engine.armies`` emptied, and as it was again on leaving."""
    stack = ExitStack()
    for kept in _CACHES:
        stack.enter_context(mock.patch.dict(kept, clear=True))
    return stack


def _emptied() -> None:
    for kept in _CACHES:
        kept.clear()


def _armies_of(cards: Sequence[Card], seat: int, first_ply: int) -> Army:
    return Army(seat, tuple(Unit(card, first_ply + 4 * n) for n, card in enumerate(cards)))


@pytest.mark.slow  # every army of up to four cards
def test_describe_and_explain_give_the_words_computed_fresh() -> None:
    """The words of formations (``Formations.describe``, ``described``) and of
    the decision between two full armies (``Decision.explain``,
    ``explained_packed``), cached by formations and by packed icon counts,
    are those made with every cache of ``engine.armies`` empty: for every
    army of up to four of the 31 cards, and each of the formations of a full
    army against itself and 8 others (two armies of each, seats and plies
    changed, as far as they hold the same formations)."""
    every = [
        cards
        for size in range(5)
        for cards in combinations_with_replacement([Card(mask) for mask in range(1, 32)], size)
    ]
    assert len(_CACHES) >= 4  # (formations, one of each, and the words of both)
    with _caches_emptied():
        fresh: dict[int, str] = {}
        for cards in every:
            packed = sum(PACKED[card.mask] for card in cards)
            if packed not in fresh:
                _emptied()
                fresh[packed] = Formations.of(cards).describe()
        _emptied()
        assert fresh[PACKED[Card.from_letters("HF").mask] * 4] == "regiment F, regiment H"
        assert fresh[0] == fresh[PACKED[Card.from_letters("L").mask]] == "no formation"
        order = random.Random(26).sample(range(len(every)), len(every))
        for n in order:
            cards = every[n]
            packed = sum(PACKED[card.mask] for card in cards)
            army = _armies_of(cards, n % 4, 1 + n % 4)
            assert army.formations is formations_of(packed), cards
            assert army.formations.describe() == fresh[packed], cards
            assert described(packed) == fresh[packed], cards
        kept: dict[Formations, list[tuple[Card, ...]]] = {}
        for cards in every:
            if len(cards) == 4:
                kept.setdefault(Formations.of(cards), []).append(cards)
        assert len(kept) > 1000  # (1,024)
        groups = list(kept.values())
        chosen = random.Random(1889)
        pairs = [(one, other) for one in groups for other in [one, *chosen.sample(groups, 8)]]
        words = []
        for one, other in pairs:  # the first army of each, fresh
            _emptied()
            winner, loser = rank([_armies_of(one[0], 0, 1), _armies_of(other[0], 1, 2)])
            words.append(decide(winner, loser).explain())
        assert words[0] == "identical formations; P1 played the fourth card earlier, ply 13 vs 14"
        _emptied()
        for n in random.Random(7).sample(range(len(pairs)), len(pairs)):
            one, other = pairs[n]  # now the last army of each, its seat and plies changed
            later, earlier = 1 + n % 3, n % 3
            winner, loser = rank([_armies_of(one[-1], later, 2), _armies_of(other[-1], earlier, 1)])
            if one is other:  # the words name the seat and plies of the fourth cards
                _emptied()
                expected = decide(winner, loser).explain()
                assert expected == (
                    f"identical formations; {seat_name(earlier)} played the fourth card "
                    "earlier, ply 13 vs 14"
                )
            else:
                expected = words[n]
            assert decide(winner, loser).explain() == expected, (one[-1], other[-1])
            found = explained_packed(
                _packed(winner), _packed(loser), winner.seat, winner.fourth_ply, loser.fourth_ply
            )
            assert found == expected, (one[-1], other[-1])
