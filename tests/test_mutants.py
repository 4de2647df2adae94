"""Mutation tests: every way a careless scorer can break a valid generated
record is flagged with the right diagnostic. A mutant that passes is a bug."""

import os

import pytest
from mutants import MUTATIONS

from ordonnance_notation import Severity, parse_text, validate
from ordonnance_notation.engine.rng import Rng
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import game_text, play_archive

GAMES = int(os.environ.get("ORDO_MUTANT_GAMES", "12"))  # per seat count


@pytest.fixture(scope="module")
def corpus():
    deck = load_deck()
    games = []
    for bots in (["random", "greedy"], ["greedy", "random", "greedy"], ["random"] * 4):
        scoring = Scoring.by_points() if len(bots) == 4 else Scoring.classic()
        games += [
            (p, game_text(p))
            for p in play_archive(f"mutants-{len(bots)}", GAMES, bots, deck, scoring)
        ]
    return games


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_every_mutant_is_caught_with_the_right_code(corpus, kind):
    mutate, code = MUTATIONS[kind]
    caught = tried = 0
    for n, (played, text) in enumerate(corpus):
        broken = mutate(played, text, Rng(f"{kind}/{n}"))
        if broken is None:
            continue
        assert broken != text
        tried += 1
        reports = [validate(item) for item in parse_text(broken, f"{kind}-{n}.ord")]
        codes = [d.code for r in reports for d in r.diagnostics if d.severity is Severity.ERROR]
        assert code in codes, (
            f"{kind} in game {played.seed} not caught as {code}: {codes}\n{broken}"
        )
        assert not any(r.valid for r in reports)
        caught += 1
    assert tried >= len(corpus) // 2
    assert caught == tried
