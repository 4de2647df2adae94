"""The analysis of when states and games were decided (engine/analysis.py),
held to the truth: every continuation of small positions searched
exhaustively, and random continuations of decided ones."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest

from ordonnance_notation.checking import quick
from ordonnance_notation.engine import analysis as engine_analysis
from ordonnance_notation.engine.analysis import analyse
from ordonnance_notation.engine.cards import Card, State, seat_name
from ordonnance_notation.engine.game import STATES, Deal, Game
from ordonnance_notation.engine.rng import Rng
from ordonnance_notation.engine.scoring import Scoring, score
from ordonnance_notation.making.bots import RandomBot
from ordonnance_notation.making.dealing import load_deck, parse_deck
from ordonnance_notation.making.selfplay import play_game

SMALL_DECK = parse_deck(
    "name: small\ncards: {L: 20, B: 16, S: 14, H: 10, F: 8, LB: 10, SH: 8, HF: 6, LBSHF: 4}\n",
    "small.yaml",
)


def _moves(game: Game):
    """Every legal play of the seat to move, a card once however many copies it holds."""
    hand = game.hand_to_play()
    for card in dict.fromkeys(hand):
        for state in game.open_states(game.to_move):
            yield card, state


def _search(game: Game, scoring: Scoring, found, ties, game_winners):
    """Every continuation to the end: who wins each state (``found``), who
    could have tied its winner's formations (``ties``), who wins the game."""
    if game.over:
        for resolution in game.resolutions:
            found[resolution.state].add(resolution.winner)
            top = resolution.ranking[0]
            for army in resolution.ranking[1:]:
                if army.formations.key == top.formations.key:
                    ties[resolution.state].add(army.seat)
        game_winners.add(score(game.seats, game.resolutions, scoring).winner)
        return
    for card, state in _moves(game):
        after, _turn = game.play(card, state)
        _search(after, scoring, found, ties, game_winners)


def _position(seats, seed, left, deck):
    played = play_game(seed, ["random"] * seats, deck)
    plays = [(turn.card, turn.state) for turn in played.turns]
    cut = len(plays) - left
    game = Game.new(seats, played.deal)
    for card, state in plays[:cut]:
        game, _turn = game.play(card, state)
    return played, plays[:cut], game


CASES = (
    [(2, f"exhaustive-{n}", 4, None) for n in range(12)]
    # six plies left: seconds each, the fast loop searches two
    + [
        pytest.param(2, f"small-{n}", 6, SMALL_DECK, marks=[pytest.mark.slow] if n >= 2 else [])
        for n in range(8)
    ]
    + [(3, f"three-{n}", 5, SMALL_DECK) for n in range(6)]
)


@pytest.mark.parametrize(("seats", "seed", "left", "deck"), CASES)
def test_who_can_still_win_each_state_is_exactly_so(seats, seed, left, deck):
    played, prefix, game = _position(seats, seed, left, deck or load_deck())
    found = {state: set() for state in STATES}
    ties = {state: set() for state in STATES}
    game_winners: set[int | None] = set()
    _search(game, played.scoring, found, ties, game_winners)
    analysis = analyse(seats, played.deal, prefix, played.scoring)
    for state in STATES:
        said = analysis.state(state).can_win
        assert found[state] <= said, (state, found[state], said)  # never less than the truth
        extra = said - found[state]
        # more only where formations could tie and the earlier fourth card decided
        assert extra <= ties[state] | found[state], (state, found[state], said, ties[state])
    assert {w for w in game_winners if w is not None} <= analysis.can_win


def _random_end(game: Game, rng: random.Random) -> Game:
    while not game.over:
        game, _turn = game.play(*rng.choice(list(_moves(game))))
    return game


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_decided_state_is_overturned_by_random_continuations(seats):
    rng = random.Random(seats)
    checked = 0
    for n in range(6):
        played = play_game(
            f"overturn-{seats}-{n}", ["greedy"] + ["random"] * (seats - 1), load_deck()
        )
        plays = [(turn.card, turn.state) for turn in played.turns]
        analysis = analyse(seats, played.deal, plays, played.scoring)
        for part in analysis.states:
            if part.decided is None or part.resolved is None or part.decided >= part.resolved:
                continue
            start = Game.new(seats, played.deal)
            for card, state in plays[: part.decided]:
                start, _turn = start.play(card, state)
            for _ in range(20):
                end = _random_end(start, rng)
                winner = next(r.winner for r in end.resolutions if r.state is part.state)
                assert winner == part.winner, (played.seed, part)
                checked += 1
        if analysis.decided is not None and analysis.decided < len(plays):
            start = Game.new(seats, played.deal)
            for card, state in plays[: analysis.decided]:
                start, _turn = start.play(card, state)
            for _ in range(20):
                end = _random_end(start, rng)
                assert score(seats, end.resolutions, played.scoring).winner == analysis.winner
                checked += 1
    assert checked > 100


def test_the_decided_winner_is_the_one_who_won():
    for n in range(20):
        played = play_game(f"won-{n}", ["greedy", "random"], load_deck())
        plays = [(turn.card, turn.state) for turn in played.turns]
        analysis = analyse(2, played.deal, plays, played.scoring)
        for resolution in played.game.resolutions:
            part = analysis.state(resolution.state)
            assert part.winner == resolution.winner and part.resolved == resolution.ply
            assert part.decided is not None and part.decided <= resolution.ply
        assert analysis.winner == played.outcome.winner
        assert analysis.decided is not None and analysis.decided <= len(plays)


@pytest.mark.parametrize(
    "scoring", [Scoring.classic(), Scoring.by_points()], ids=["classic", "points"]
)
@pytest.mark.parametrize("seats", [3, 4])
def test_a_game_level_at_the_top_is_decided_for_the_seat_the_tie_break_names(seats, scoring):
    """Issue 47: a game that ended level on the count (2-2-1) or on points
    went to the seat the tie-break rules name; it is decided for that seat
    by the ply that resolved its last state, by the core and in Python
    alike; where earlier, random continuations from there agree."""
    rng = random.Random(seats)
    ties = 0
    for n in range(16):
        played = play_game(f"won-{seats}-{n}", ["random"] * seats, load_deck(), scoring)
        plays = [(turn.card, turn.state) for turn in played.turns]
        last = max(resolution.ply for resolution in played.game.resolutions)
        analysis = analyse(seats, played.deal, plays, played.scoring)
        assert analysis == analyse(seats, played.deal, plays, played.scoring, fast=False)
        outcome = played.outcome
        if outcome.winner is None:  # shared (D9): no one seat wins
            assert analysis.decided is None and analysis.can_win == set(outcome.tied)
            continue
        assert analysis.winner == outcome.winner and analysis.can_win == {outcome.winner}
        assert analysis.decided is not None and analysis.decided <= last, played.seed
        ties += outcome.tie_break is not None
        if outcome.tie_break is None or analysis.decided == last:
            continue
        start = _after(played.deal, plays[: analysis.decided])
        for _ in range(10):
            end = _random_end(start, rng)
            assert score(seats, end.resolutions, scoring).winner == outcome.winner, played.seed
    assert ties  # (the seeds give some)


@contextmanager
def _pure_python(pure: bool) -> Iterator[None]:
    """With ``pure``, every record by the Python path, as with ``ORDO_PURE_PYTHON=1``."""
    with (
        mock.patch.object(quick, "CHECK_BLOCK", None if pure else quick.CHECK_BLOCK),
        mock.patch.object(engine_analysis, "CORE", None if pure else engine_analysis.CORE),
    ):
        yield


@pytest.mark.parametrize("pure", [False, True], ids=["core", "python"])
@pytest.mark.parametrize(
    ("name", "winner"), [("later-capture-3.ord", "P2"), ("points-tie-3.ord", "P3")]
)
def test_a_sample_that_ended_level_is_decided_in_analyse_s_json(ordo, name, winner, pure):
    """Issue 47: ``ordo analyse --format json`` said ``"decided": null`` of
    these finished games, whose results the tie-break rules settle."""
    if not pure and engine_analysis.CORE is None:
        pytest.skip("no compiled analysis here")
    path = f"samples/{name}"
    with _pure_python(pure):
        result = ordo("analyse", "--format", "json", path)
        summary = ordo("summary", path).stdout
    assert result.exit_code == 0, result.output
    [record] = json.loads(result.stdout)["records"]
    game, plies = record["decided"]["game"], record["decided"]["plies"]
    assert game["winner"] == winner and game["can_win"] == [winner]
    assert game["decided"] is not None and game["decided"] <= plies
    assert f"The game was decided at ply {game['decided']} of {plies}: {winner} wins" in summary


def test_without_the_deal_less_is_known():
    played = play_game("blind", ["greedy", "random"], load_deck())
    plays = [(turn.card, turn.state) for turn in played.turns]
    known = analyse(2, played.deal, plays)
    blind = analyse(2, None, plays)
    for state in STATES:
        k, b = known.state(state), blind.state(state)
        assert b.decided is not None and k.decided is not None and b.decided >= k.decided
        assert not b.exact and k.exact
    assert blind.states[0].losses == () or all(
        not loss.alternatives for loss in blind.states[0].losses
    )


@pytest.mark.parametrize("seed", ["decided-0", "decided-1", "decided-2"])
def test_a_state_is_decided_at_the_ply_the_search_says(seed):
    """From each of the last plies, every continuation searched: where more
    than one seat can still win a state it is not yet decided; where one
    alone can, it is decided by then (unless only the earlier fourth card
    could have changed it, which the analysis leaves open)."""
    played = play_game(seed, ["random", "random"], SMALL_DECK)
    plays = [(turn.card, turn.state) for turn in played.turns]
    analysis = analyse(2, played.deal, plays, played.scoring)
    for cut in range(len(plays) - 5, len(plays) + 1):
        game = Game.new(2, played.deal)
        for card, state in plays[:cut]:
            game, _turn = game.play(card, state)
        found = {state: set() for state in STATES}
        ties = {state: set() for state in STATES}
        _search(game, played.scoring, found, ties, set())
        for state in STATES:
            decided = analysis.state(state).decided
            assert decided is not None
            if len(found[state]) > 1:
                assert decided > cut, (cut, state)
            elif not ties[state]:
                assert decided <= cut, (cut, state)


# ordo analyse, and the summary's lines ------------------------------------------


def test_ordo_analyse_says_what_the_engine_found(ordo):
    from ordonnance_notation import parse_file, validate
    from ordonnance_notation.views.analysis import analysis_of

    [report] = [validate(item) for item in parse_file("samples/classic-2.ord")]
    found = analysis_of(report)
    result = ordo("analyse", "samples/classic-2.ord")
    assert result.exit_code == 0
    assert f"The game was decided at ply {found.decided} of 40: P2 wins" in result.stdout
    jerusalem = found.state(State.J)
    assert f"Jerusalem was decided only as it resolved, at ply {jerusalem.decided}" in (
        result.stdout
    )


def test_the_json_alternatives_are_plays_the_seat_could_make(ordo):
    import json

    data = json.loads(ordo("analyse", "--format", "json", "samples/points-4.ord").stdout)
    [record] = data["records"]
    from ordonnance_notation import parse_file, validate

    [report] = [validate(item) for item in parse_file("samples/points-4.ord")]
    points = [p for s in record["decided"]["states"] for p in s["turning_points"] if p["own"]]
    assert points
    for point in points:
        game = Game.new(4, report.deal)
        for turn in report.turns[: point["ply"] - 1]:
            game, _turn = game.play(turn.card, turn.state)
        hand = {str(card) for card in game.hand_to_play()}
        open_states = {state.name for state in game.open_states(game.to_move)}
        assert f"P{game.to_move + 1}" == point["seat"] == point["by"]
        for other in point["alternatives"]:
            card, state = other.split()
            assert card in hand and state in open_states and other != point["play"]


def test_an_invalid_record_is_analysed_as_far_as_it_was_replayed(ordo):
    result = ordo("analyse", "samples/invalid/rules.ord")
    assert result.exit_code == 1
    assert result.stdout.count("was not decided in the plays recorded") >= 1


def test_the_summary_says_when_each_state_was_decided(ordo):
    import json

    text = ordo("summary", "samples/classic-2.ord").stdout
    assert "When it was decided" in text
    assert (
        "P1's `LB A` at ply 39 gave the game away (`BSF A` or `BF A` would have kept it)." in text
    )
    data = json.loads(ordo("summary", "--format", "json", "samples/classic-2.ord").stdout)
    [record] = data["records"]
    assert record["decided"]["game"]["decided"] == 39
    markdown = ordo("summary", "--format", "markdown", "samples/classic-2.ord").stdout
    assert "### When it was decided" in markdown


# A pile that runs out before the end (D5, issue 30) -------------------------------


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_letters(word) for word in text.split())


MINPILE_DEAL = Deal(
    (_cards("LSH SHF BH HF LSH"), _cards("S LS L L B")),
    _cards(
        "LBSHF SF LF S LH BHF LB BS B BH LH SF LF SF S BH S L LBSHF BF LBS BS F S S S HF S S BH"
    ),
)


def _random_seats(seed: str, deal: Deal) -> list[tuple[Card, State]]:
    """The plays of random seats from ``deal``, each seat deciding with its stream ``seed/Pn``."""
    seats = len(deal.hands)
    players = [RandomBot() for _ in range(seats)]
    streams = [Rng(f"{seed}/{seat_name(seat)}") for seat in range(seats)]
    game, plays = Game.new(seats, deal), []
    while not game.over:
        card, state = players[game.to_move].choose(game, game.hand_to_play(), streams[game.to_move])
        game, _turn = game.play(card, state)
        plays.append((card, state))
    return plays


def test_no_card_is_to_come_once_the_pile_has_run_out():
    """The issue's deal: twenty cards a seat, the pile empty from ply 31,
    played by random seats. From each of the last plies every continuation
    is searched: a state one seat alone can win is decided by then (the
    analysis took the empty pile's draws for unknown cards and said Antioch
    decided at ply 39, Cyprus at 35, Jerusalem at 38, each with a late
    turning point); a state two can win is not."""
    plays = _random_seats("oracle-minpile/2/10", MINPILE_DEAL)
    analysis = analyse(2, MINPILE_DEAL, plays)
    assert all(part.exact for part in analysis.states)
    for cut in range(32, len(plays) + 1):
        found, ties = {s: set() for s in STATES}, {s: set() for s in STATES}
        _search(_after(MINPILE_DEAL, plays[:cut]), Scoring.classic(), found, ties, set())
        for state in STATES:
            part = analysis.state(state)
            assert part.decided is not None
            if len(found[state]) > 1:
                assert part.decided > cut, (cut, state)
            elif not ties[state]:
                assert part.decided <= cut, (cut, state, part.decided)
                assert all(loss.ply <= cut for loss in part.losses), (cut, state, part.losses)
    assert not MINPILE_DEAL.short and MINPILE_DEAL.draws_known(0)  # every card it plays is dealt


def test_past_the_end_of_a_short_deal_the_cards_are_unknown_until_the_pile_runs_out():
    """D8: a record that stops before its listed pile does may list only the
    cards drawn so far; once its plays go past the pile's end, the pile ran
    out there (D5) and the later draws are none."""
    short = Deal(MINPILE_DEAL.hands, MINPILE_DEAL.pile[:20])
    plays = _random_seats("oracle-minpile/2/10", MINPILE_DEAL)[:20]
    assert short.short and not short.draws_known(20) and short.draws_known(21)
    assert not any(part.exact for part in analyse(2, short, plays).states)
    assert all(part.exact for part in analyse(2, MINPILE_DEAL, plays).states)


def _minpile_deal(seats: int, seed: str) -> Deal:
    """Twenty cards a seat, shuffled from two reference decks: the pile runs
    out after 15 draws a seat and the last plies draw nothing (D5)."""
    cards = Rng(seed).shuffle(load_deck().cards * 2)[: 20 * seats]
    dealt = 5 * seats
    return Deal(tuple(tuple(cards[s:dealt:seats]) for s in range(seats)), tuple(cards[dealt:]))


def _after(deal: Deal, plays) -> Game:
    game = Game.new(len(deal.hands), deal)
    for card, state in plays:
        game, _turn = game.play(card, state)
    return game


def _winners(game: Game) -> dict[State, set[int]]:
    found = {state: set() for state in STATES}
    _search(game, Scoring.classic(), found, {state: set() for state in STATES}, set())
    return found


@pytest.mark.parametrize(("seats", "left"), [(2, 6), (3, 6), (4, 8)])
@pytest.mark.parametrize("n", range(3))
def test_after_the_pile_runs_out_the_analysis_is_exact(seats, left, n):
    """Every continuation of the last plies searched, the pile empty: the
    seats said to be able to win a state are those that can (ties aside);
    every turning point's seat could win before the play and not after it;
    every alternative listed keeps the chance."""
    deal = _minpile_deal(seats, f"minpile-{seats}-{n}")
    plays = _random_seats(f"minpile-{seats}-{n}", deal)
    cut = len(plays) - left
    analysis = analyse(seats, deal, plays[:cut])
    assert all(part.exact for part in analysis.states)
    found, ties = {state: set() for state in STATES}, {state: set() for state in STATES}
    _search(_after(deal, plays[:cut]), Scoring.classic(), found, ties, set())
    for state in STATES:
        said = analysis.state(state).can_win
        assert found[state] <= said <= found[state] | ties[state], (state, found[state], said)
    whole = analyse(seats, deal, plays)
    for part in whole.states:
        for loss in part.losses:
            if loss.ply <= cut:
                continue  # the search starts at the cut
            before = _winners(_after(deal, plays[: loss.ply - 1]))[part.state]
            after = _winners(_after(deal, plays[: loss.ply]))[part.state]
            assert loss.seat in before and loss.seat not in after, (part.state, loss)
            for alternative in loss.alternatives:
                kept = _winners(_after(deal, [*plays[: loss.ply - 1], alternative]))
                assert loss.seat in kept[part.state], (part.state, loss, alternative)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_state_decided_before_the_pile_ran_out_is_overturned(seats):
    """Random continuations from each decided state of games whose pile runs out."""
    rng = random.Random(seats)
    checked = 0
    for n in range(6):
        deal = _minpile_deal(seats, f"overturn-minpile-{seats}-{n}")
        plays = _random_seats(f"overturn-minpile-{seats}-{n}", deal)
        for part in analyse(seats, deal, plays).states:
            if part.decided is None or part.resolved is None or part.decided >= part.resolved:
                continue
            start = _after(deal, plays[: part.decided])
            for _ in range(20):
                end = _random_end(start, rng)
                assert next(r.winner for r in end.resolutions if r.state is part.state) == (
                    part.winner
                )
                checked += 1
    assert checked > 100


# What the compiled core holds (issue 47) ------------------------------------------


@pytest.mark.skipif(engine_analysis.CORE is None, reason="no compiled analysis here")
def test_the_core_holds_what_the_engine_allows():
    """The core's limits (``_rules.h``) are the engine's: ``analysis._held``
    hands it games within them, and a pile of any length, whose first cards
    (every card a game draws) it reads."""
    from ordonnance_notation.engine import _analysis
    from ordonnance_notation.engine.game import HAND_SIZE, MAX_SEATS, PLAYS_PER_SEAT

    assert (_analysis.MAX_SEATS, _analysis.HAND_SIZE) == (MAX_SEATS, HAND_SIZE)
    assert _analysis.MAX_PLIES == PLAYS_PER_SEAT * MAX_SEATS <= _analysis.MAX_PILE


@pytest.mark.skipif(engine_analysis.CORE is None, reason="no compiled analysis here")
@pytest.mark.parametrize("seats", [2, 4])
def test_a_pile_longer_than_the_core_keeps_is_analysed_alike(seats):
    """A deck of more than a thousand cards (the deck reader takes 10,000):
    analysed by the core, not declined to Python, and the same."""
    deck = parse_deck("name: long\ncards: {L: 500, B: 400, SH: 100, HF: 35}\n", "long.yaml")
    for k in range(3):
        played = play_game(f"long/{k}", ["greedy"] * seats, deck, fast=False)
        plays = [(turn.card, turn.state) for turn in played.turns]
        assert len(played.deal.pile) > 1024
        with mock.patch.object(engine_analysis, "Position", side_effect=AssertionError):
            fast = analyse(seats, played.deal, plays, played.scoring)  # (the core's)
        assert fast == analyse(seats, played.deal, plays, played.scoring, fast=False)
