"""Mutation tests: every way a careless scorer can break a valid generated
record is flagged with the right diagnostic. A mutant that passes is a bug.

Each mutation takes a self-played game and its text and returns the broken
text, or None when the game offers no place for it.
"""

from __future__ import annotations

import pytest
from strategies import examples

from ordonnance_notation import Severity, parse_text, validate
from ordonnance_notation.checking.fixing import fix_source
from ordonnance_notation.engine.cards import Card, State
from ordonnance_notation.engine.game import Game
from ordonnance_notation.engine.rng import Rng
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.files.sources import Source
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import SelfPlayed, game_text, play_archive

# games per seat count (2, 3 and 4), as many more as the Hypothesis profile says
GAMES = examples(12)

# The mutations ------------------------------------------------------------------

ALL_CARDS = [Card(mask) for mask in range(1, 32)]


def _lines(text):
    return text.split("\n")


def _play_index(lines, ply):
    return next(i for i, line in enumerate(lines) if line.startswith(f"{ply}. "))


def _games(played: SelfPlayed):
    """The game before each ply: games[k] is the position before ply k + 1."""
    game = Game.new(len(played.bots), played.deal)
    games = [game]
    for turn in played.turns:
        game, _ = game.play(turn.card, turn.state)
        games.append(game)
    return games


def _replace_play(lines, ply, card=None, state=None, seat=None, drawn=None):
    i = _play_index(lines, ply)
    words = lines[i].split()
    number, rest = words[0], words[1:]
    has_seat = rest[0].startswith("P")
    old_seat = rest[0] if has_seat else None
    old_card, old_state = rest[-2], rest[-1]
    new = [number]
    if seat or old_seat:
        new.append(seat or old_seat)
    if drawn:
        new.append("+" + drawn)
    new += [card or old_card, state or old_state]
    lines[i] = " ".join(new)
    return "\n".join(lines)


def card_not_in_hand(played, text, rng: Rng):
    games = _games(played)
    ply = rng.below(len(played.turns)) + 1
    hand = set(games[ply - 1].hand_to_play())
    missing = [c for c in ALL_CARDS if c not in hand]
    return _replace_play(_lines(text), ply, card=str(rng.choice(missing)))


def fifth_unit(played, text, rng: Rng):
    games = _games(played)
    options = [
        (turn.ply, state)
        for turn in played.turns
        for state in State
        if games[turn.ply - 1].army(state, turn.seat).full
    ]
    if not options:
        return None
    ply, state = rng.choice(options)
    return _replace_play(_lines(text), ply, state=state.name)


def out_of_turn(played, text, rng: Rng):
    seats = len(played.bots)
    turn = rng.choice(played.turns)
    wrong = (turn.seat + 1 + rng.below(seats - 1)) % seats
    return _replace_play(_lines(text), turn.ply, seat=f"P{wrong + 1}")


def wrong_draw(played, text, rng: Rng):
    drawn = [t for t in played.turns if t.drawn is not None]
    turn = rng.choice(drawn)
    other = rng.choice([c for c in ALL_CARDS if c != turn.drawn])
    return _replace_play(_lines(text), turn.ply, drawn=str(other))


def swapped_marker(played, text, rng: Rng):
    lines = _lines(text)
    marked = [i for i, line in enumerate(lines) if line.startswith("#")]
    a, b = rng.shuffle(marked)[:2]
    ma, mb = lines[a].split(" ", 1), lines[b].split(" ", 1)
    lines[a], lines[b] = f"{mb[0]} {ma[1]}", f"{ma[0]} {mb[1]}"
    return "\n".join(lines)


def wrong_winner(played, text, rng: Rng):
    seats = len(played.bots)
    actual = played.outcome.winner
    wrong = rng.choice([s for s in range(seats) if s != actual])
    old = f'[Result "{"shared" if actual is None else f"P{actual + 1}"}"]'
    assert old in text
    return text.replace(old, f'[Result "P{wrong + 1}"]')


def wrong_scores(played, text, rng: Rng):
    lines = _lines(text)
    i = next(i for i, line in enumerate(lines) if line.startswith("result "))
    words = lines[i].split()
    k = 2 + rng.below(len(words) - 2)
    seat, value = words[k].split(":")
    words[k] = f"{seat}:{int(value) + 1 + rng.below(3)}"
    lines[i] = " ".join(words)
    return "\n".join(lines)


def extra_play(played, text, rng: Rng):
    lines = _lines(text)
    i = next(i for i, line in enumerate(lines) if line.startswith("result "))
    last = len(played.turns)
    lines.insert(i, f"{last + 1}. {rng.choice(ALL_CARDS)} {rng.choice(list(State)).name}")
    return "\n".join(lines)


def missing_play(played, text, rng: Rng):
    lines = _lines(text)
    ply = rng.below(len(played.turns) - 1) + 1  # not the last: that one is below
    del lines[_play_index(lines, ply)]
    return "\n".join(lines)


def missing_last_play(played, text, rng: Rng):
    lines = _lines(text)
    i = _play_index(lines, len(played.turns))
    end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("result "))
    del lines[i:end]  # the play and the resolution it caused
    return "\n".join(lines)


# mutation -> the diagnostic code the validator must report
MUTATIONS = {
    "card not in hand": (card_not_in_hand, "E302"),
    "fifth unit in a state": (fifth_unit, "E303"),
    "play out of turn": (out_of_turn, "E301"),
    "wrong draw": (wrong_draw, "E305"),
    "swapped marker": (swapped_marker, "E402"),
    "wrong declared winner": (wrong_winner, "E410"),
    "wrong declared score": (wrong_scores, "E411"),
    "extra play after the end": (extra_play, "E304"),
    "missing play": (missing_play, "E210"),
    "missing last play": (missing_last_play, "E413"),
}


# The test ---------------------------------------------------------------------


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


# ordo fix mends what the replay determines, and only that -----------------------

RESTORED = ("swapped marker", "wrong declared winner", "wrong declared score")
REFUSED = ("card not in hand", "play out of turn", "wrong draw", "missing play")


@pytest.mark.parametrize("kind", RESTORED + REFUSED)
def test_fix_restores_declarations_and_refuses_broken_plays(corpus, kind):
    """A mutant of a declaration is fixed back to the very text it came from;
    a mutant of a play is left as it is, with the reason."""
    mutate, _ = MUTATIONS[kind]
    for n, (played, text) in enumerate(corpus):
        broken = mutate(played, text, Rng(f"{kind}/{n}"))
        if broken is None:
            continue
        fixed = fix_source(Source(f"{kind}-{n}.ord", broken))
        if kind in RESTORED:
            assert fixed.text == text and not fixed.refused, fixed.diff()
        else:
            assert fixed.text == broken and [r.record for r in fixed.refused] == [1]
