"""Self-played games: property tests (every generated game validates and the
validator recomputes what the generator recorded) and reproducibility."""

import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import examples

from ordonnance_notation import parse_text, validate
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.making.bots import COMPILED_BOTS
from ordonnance_notation.making.dealing import load_deck, parse_deck
from ordonnance_notation.making.playout import PLAYS
from ordonnance_notation.making.selfplay import game_text, play_archive, play_game
from ordonnance_notation.notation.writer import format_records

DECK = load_deck()
FORTY = parse_deck(
    "name: forty\ncards: {L: 4, B: 4, S: 4, H: 4, F: 4, LB: 4, SH: 4, HF: 4, LSH: 4, BSF: 4}\n",
    "forty.yaml",
)
BOTS = st.sampled_from(["random", "greedy"])
SCORING = st.sampled_from(
    [
        Scoring.classic(),
        Scoring.by_points(),
        Scoring.by_points((3, 1, 0)),
        Scoring.by_points((1, 1, 1, 0)),
    ]
)


SEEDS = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=12)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=SEEDS, bots=st.lists(BOTS, min_size=2, max_size=4), scoring=SCORING)
def test_every_self_played_game_validates_and_recomputes_the_same(seed, bots, scoring):
    played = play_game(seed, bots, DECK, scoring)
    text = game_text(played)
    [item] = parse_text(text, "generated.ord")
    report = validate(item)
    assert report.diagnostics == ()
    assert report.game.ply == 20 * len(bots)
    assert [(r.state, r.marker, r.ply, r.winner) for r in report.game.resolutions] == [
        (r.state, r.marker, r.ply, r.winner) for r in played.game.resolutions
    ]
    assert report.outcome == played.outcome
    assert format_records([item]) == text  # generated records are canonical


def test_two_runs_of_the_same_seed_are_identical():
    first = [game_text(p) for p in play_archive("42", 5, ["greedy", "random", "greedy"], DECK)]
    second = [game_text(p) for p in play_archive("42", 5, ["greedy", "random", "greedy"], DECK)]
    assert first == second
    assert len(set(first)) == 5


def test_game_k_of_an_archive_replays_on_its_own_seed():
    archive = list(play_archive("9", 3, ["random", "random"], DECK))
    assert game_text(archive[2]) == game_text(play_game("9/3", ["random", "random"], DECK))


def test_greedy_beats_random_more_often_than_not():
    wins = sum(p.outcome.winner == 0 for p in play_archive("duel", 40, ["greedy", "random"], DECK))
    assert wins >= 28


# The compiled twin (making/_selfplay.c) ------------------------------------------

TWINNED = st.sampled_from(sorted(COMPILED_BOTS))  # the careful bot too

compiled = pytest.mark.skipif(
    PLAYS is None, reason="no compiled self-play here: pip install . with a C compiler"
)


@compiled
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    SEEDS,
    st.integers(2, 4).flatmap(lambda n: st.lists(TWINNED, min_size=n, max_size=n)),
    st.sampled_from([DECK, FORTY]),
)
def test_the_compiled_bots_play_the_same_games(seed, bots, deck):
    """The same plays, turns, final table and outcome as the Python bots,
    on the reference deck and on one of forty cards whose pile runs out (D5)."""
    if deck is FORTY and len(bots) > 2:
        bots = bots[:2]
    assert play_game(seed, bots, deck) == play_game(seed, bots, deck, fast=False)


@compiled
@pytest.mark.parametrize(
    "options",
    [
        ["--bots", "greedy", "--players", "3", "--scoring", "points"],
        ["--bots", "random,greedy,greedy,random"],
        ["--bots", "greedy,careful"],
        pytest.param(
            ["--bots", "careful", "--players", "4", "--scoring", "points"],
            marks=pytest.mark.slow,
        ),
    ],
)
def test_ordo_play_writes_the_same_archive_with_or_without_the_twin(options):
    command = [
        sys.executable,
        "-m",
        "ordonnance_notation",
        "play",
        "--games",
        "40",
        "--seed",
        "twin",
    ]
    env = {k: v for k, v in os.environ.items() if k != "ORDO_PURE_PYTHON"}
    fast = subprocess.run([*command, *options], capture_output=True, env=env, check=True)
    env["ORDO_PURE_PYTHON"] = "1"
    pure = subprocess.run([*command, *options], capture_output=True, env=env, check=True)
    assert fast.stdout == pure.stdout and fast.stdout.count(b"[Result") == 40


needs_twin = pytest.mark.skipif(PLAYS is None, reason="the compiled self-play was not built")


@needs_twin
@settings(max_examples=examples(40), deadline=None)
@given(
    seed=st.text(min_size=1, max_size=6),
    bots=st.lists(st.sampled_from(sorted(COMPILED_BOTS)), min_size=2, max_size=4),
    played=st.integers(0, 60),
)
def test_a_game_is_played_out_alike_in_c_and_python(seed, bots, played):
    """``played_out`` from any point of a game, the seats' hands and the pile
    as the table has them: the compiled bots and the Python ones agree."""
    from ordonnance_notation.engine.game import Game
    from ordonnance_notation.engine.rng import Rng
    from ordonnance_notation.making.playout import played_out

    whole = play_game(seed, bots, load_deck())
    game = Game.new(len(bots), whole.deal)
    prefix = [(turn.card, turn.state) for turn in whole.turns[: played * len(bots) // 4]]
    for card, state in prefix:
        game = game.play(card, state)[0]
    assert game.hands is not None and game.pile is not None
    pile = game.pile[game.drawn :]

    def out(fast):
        streams = [Rng(f"{seed}/out/{seat}") for seat in range(len(bots))]
        return played_out(prefix, game.hands, pile, bots, streams, fast=fast)

    fast, slow = out(True), out(False)
    assert fast == slow
    winner, states = fast
    assert sum(states) == 5 and winner is not None and states[winner] == max(states)


def test_a_game_played_out_from_its_start_is_the_game_itself():
    from ordonnance_notation.engine.rng import Rng
    from ordonnance_notation.making.playout import played_out

    whole = play_game("itself", ["careful", "greedy", "careful"], load_deck())
    streams = [Rng(f"itself/P{seat + 1}") for seat in range(3)]
    winner, states = played_out([], whole.deal.hands, whole.deal.pile, whole.bots, streams)
    assert winner == whole.outcome.winner and states == whole.outcome.states


# A deck of any size the deck reader takes (issue 47) ------------------------------

LARGE = parse_deck(
    "name: large\ncards: {L: 400, B: 300, S: 200, H: 100, HF: 60, LBS: 40, LBSHF: 10}\n",
    "large.yaml",
)  # 1,110 cards: a pile of 1,100 at two seats, 2,200 or so at three and four


@needs_twin
@pytest.mark.parametrize(
    "bots", [["careful", "greedy"], ["careful", "random", "careful", "greedy"]]
)
def test_a_pile_longer_than_the_core_keeps_is_played_alike(bots):
    """The compiled bots read the pile's first cards only (``_selfplay.c``,
    ``dealt``): the same games as the Python bots, which see all of it (the
    careful bot asks how many cards are left to draw)."""
    for k in range(3):
        played = play_game(f"large/{k}", bots, LARGE)
        assert len(played.deal.pile) > 1024
        assert played == play_game(f"large/{k}", bots, LARGE, fast=False)


@needs_twin
def test_a_game_with_a_long_pile_is_played_out_alike_in_c_and_python():
    from ordonnance_notation.engine.game import Game
    from ordonnance_notation.engine.rng import Rng
    from ordonnance_notation.making.playout import played_out

    bots = ["careful", "careful", "careful"]
    whole = play_game("large/out", bots, LARGE)
    game = Game.new(3, whole.deal)
    prefix = [(turn.card, turn.state) for turn in whole.turns[:21]]
    for card, state in prefix:
        game = game.play(card, state)[0]
    assert game.hands is not None and game.pile is not None

    def out(fast):
        streams = [Rng(f"large/out/{seat}") for seat in range(3)]
        return played_out(prefix, game.hands, game.pile[game.drawn :], bots, streams, fast=fast)

    assert out(True) == out(False)
