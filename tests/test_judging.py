"""The judgement of a play by what its seat could know (``engine.seatview``,
``making.judging``): the sampler deals every consistent deal as often as a
shuffled deck would (a chi-square test where every deal can be listed), no
hidden card reaches the seat's view, the play-outs in C are the Python
play-outs, and on small endings, where every consistent deal can be played
out, the exact value lies in the stated 95% intervals about 95% of the time."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import cache

import pytest
from strategies import ROOT

from ordonnance_notation.engine.cards import Card
from ordonnance_notation.engine.game import Game
from ordonnance_notation.engine.rng import Rng, Stream64
from ordonnance_notation.engine.scoring import Scoring
from ordonnance_notation.engine.seatview import SeatView, UnknownDeal
from ordonnance_notation.making.dealing import load_deck, parse_deck
from ordonnance_notation.making.judging import judge, judge_record, legal_plays
from ordonnance_notation.making.playout import PLAYED_OUT, played_out
from ordonnance_notation.making.selfplay import play_game

FORTY = parse_deck(
    "name: forty\ncards: {L: 4, B: 4, S: 4, H: 4, F: 4, LB: 4, SH: 4, HF: 4, LSH: 4, BSF: 4}\n",
    "forty.yaml",
)


@cache
def _position(seed: str, ply: int, seats: int = 2, deck: str = "forty") -> Game:
    """Ply ``ply`` of a game careful bots played from ``seed``."""
    played = play_game(
        seed, ["careful"] * seats, FORTY if deck == "forty" else load_deck(), Scoring.classic()
    )
    game = Game.new(seats, played.deal)
    for turn in played.turns[:ply]:
        game = game.play(turn.card, turn.state)[0]
    return game


def _cells(view: SeatView) -> Counter[tuple[tuple[Card, ...], ...]]:
    """Every deal ``view`` cannot tell from the real one, as the other hands
    (each sorted: a hand has no order) and the pile, with how many orders
    of the unseen cards deal it: its weight in a shuffled deck."""
    found: Counter[tuple[tuple[Card, ...], ...]] = Counter()
    for cards in itertools.permutations(view.unseen):
        found[_cell(view.dealt(cards), view.seat)] += 1
    return found


def _cell(world: Game, seat: int) -> tuple[tuple[Card, ...], ...]:
    assert world.hands is not None and world.pile is not None
    hands = tuple(
        tuple(sorted(hand, key=lambda c: c.mask))
        for other, hand in enumerate(world.hands)
        if other != seat
    )
    return (*hands, world.pile)


def _chi2_sf(x: float, k: int) -> float:
    """P(X >= x) for chi-square with ``k`` degrees of freedom (the regularised
    upper incomplete gamma function, by its series)."""
    a, z = k / 2, x / 2
    term = total = 1 / a
    n = 0
    while term > total * 1e-15:
        n += 1
        term *= z / (a + n)
        total += term
    lower = math.exp(-z + a * math.log(z) - math.lgamma(a)) * total
    return max(0.0, 1 - lower)


def test_the_chi_square_helper_is_right_where_known() -> None:
    assert _chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-6)
    assert _chi2_sf(124.342, 100) == pytest.approx(0.05, rel=1e-3)


@pytest.mark.parametrize(
    ("seed", "ply"), [("2", 26), ("5", 26), pytest.param("11", 25, marks=pytest.mark.slow)]
)
def test_the_sampler_deals_each_consistent_deal_as_a_shuffled_deck_would(seed, ply) -> None:
    view = SeatView.of(_position(seed, ply), _position(seed, ply).to_move)
    cells = _cells(view)
    total = sum(cells.values())
    draws = 40 * len(cells)
    seen = Counter(_cell(view.sample(Rng(f"chi/{i}")), view.seat) for i in range(draws))
    assert set(seen) <= set(cells)  # never a deal the seat could rule out
    statistic = sum(
        (seen[c] - draws * w / total) ** 2 / (draws * w / total) for c, w in cells.items()
    )
    assert _chi2_sf(statistic, len(cells) - 1) > 1e-3


def test_a_deck_larger_than_the_deal_weighs_deals_as_a_real_deck() -> None:
    """Three copies of L and one F unseen, one card to deal: a shuffled
    deck gives L three times in four, not one time in two."""
    view = SeatView(0, Game.new(2), (), None, tuple(map(Card.from_letters, "LLLF")), (0, 0), 1)
    drawn = Counter(str(view.sample(Rng(f"big/{i}")).pile[0]) for i in range(4000))
    assert 2850 <= drawn["L"] <= 3150


def _with_hidden_cards_moved(game: Game, seat: int, rng: Rng) -> Game:
    """The same table and the same hand of ``seat``, the cards it has not
    seen (the other hands, the pile still to draw) shuffled among their places."""
    assert game.hands is not None and game.pile is not None
    others = [c for s, hand in enumerate(game.hands) if s != seat for c in hand]
    rest = list(game.pile[game.drawn + (seat == game.to_move) :])
    cards = rng.shuffle(others + rest)
    hands = []
    for s, hand in enumerate(game.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(cards[: len(hand)]))
            cards = cards[len(hand) :]
    kept = game.pile[: game.drawn + (seat == game.to_move)]
    return Game(
        game.seats,
        game.armies,
        tuple(hands),
        (*kept, *cards),
        game.drawn,
        game.resolutions,
        game.ply,
    )


@pytest.mark.parametrize(("seats", "ply"), [(2, 0), (2, 9), (3, 14), (4, 31)])
def test_no_hidden_card_reaches_the_seats_view(seats, ply) -> None:
    game = _position("leak", ply, seats, "reference")
    for seat in range(seats):
        moved = _with_hidden_cards_moved(game, seat, Rng(f"move/{seat}"))
        assert moved.hands != game.hands or moved.pile != game.pile  # something was hidden
        view = SeatView.of(game, seat)
        assert SeatView.of(moved, seat) == view
        if seat == game.to_move:
            assert judge(SeatView.of(moved, seat), seed="s", playouts=60) == judge(
                view, seed="s", playouts=60
            )
    # and the view does see what the seat sees: its own hand
    other = game.to_move
    assert game.hands is not None
    swapped = list(game.hands)
    swapped[other], swapped[(other + 1) % seats] = swapped[(other + 1) % seats], swapped[other]
    changed = Game(
        seats, game.armies, tuple(swapped), game.pile, game.drawn, game.resolutions, game.ply
    )
    if sorted(c.mask for c in swapped[other]) != sorted(c.mask for c in game.hands[other]):
        assert SeatView.of(changed, other) != SeatView.of(game, other)


def test_the_seat_to_move_sees_its_draw_and_the_others_do_not() -> None:
    game = _position("draw", 6, 2, "reference")
    assert game.pile is not None and game.hands is not None
    mover = SeatView.of(game, game.to_move)
    other = SeatView.of(game, 1 - game.to_move)
    assert mover.drew is game.next_draw()
    assert len(mover.hand) == 6 and len(other.hand) == 5
    assert mover.pile_size == other.pile_size - 1 == len(game.pile) - game.drawn - 1
    # the deal is the whole deck: what is unseen is the other hand and the pile
    assert len(mover.unseen) == 5 + mover.pile_size
    assert len(other.unseen) == 5 + other.pile_size


def test_a_record_without_a_deal_cannot_be_seen_from_a_seat() -> None:
    with pytest.raises(UnknownDeal, match="no deal"):
        SeatView.of(Game.new(2), 0)


def test_a_deck_that_cannot_hold_the_table_is_refused() -> None:
    game = _position("deck", 12, 2, "reference")
    with pytest.raises(UnknownDeal, match="does not hold"):
        SeatView.of(game, 0, FORTY.cards[:30])


@pytest.mark.skipif(PLAYED_OUT is None, reason="the compiled core was not built")
@pytest.mark.parametrize(
    ("seats", "scoring"),
    [
        (2, Scoring.classic()),
        (3, Scoring.classic()),
        (4, Scoring.classic()),
        (3, Scoring.by_points()),
        (4, Scoring.by_points((1, 1, 1, 0))),
    ],
)
def test_the_compiled_play_outs_on_a_stream64_are_the_python_ones(seats, scoring) -> None:
    for i, ply in enumerate(range(6 * seats, 20 * seats, 7)):
        game = _position(f"pin{i}", ply, seats, "reference")
        assert game.hands is not None and game.pile is not None
        plays = game.plays_made()
        hands = list(game.hands)
        pile = game.pile[game.drawn :]
        streams = [f"pin/{i}/{s}" for s in range(seats)]
        compiled, python = (
            played_out(
                plays,
                hands,
                pile,
                ["careful"] * seats,
                [Stream64(s) for s in streams],
                fast=fast,
                scoring=scoring,
            )
            for fast in (True, False)
        )
        assert compiled == python


def test_stream64_is_splitmix64() -> None:
    stream = Stream64("")
    stream.state = 0
    # SplitMix64's first words from state 0 (Vigna's reference splitmix64.c)
    assert [stream._next_word() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    assert Stream64("a").state == int.from_bytes(
        bytes.fromhex("ca978112ca1bbdca"), "big"
    )  # SHA-256("a") begins so


def _exact(view: SeatView, play, seed: str) -> float:
    """The win chance of ``play`` over every consistent deal, each played out
    once by the deterministic continuation of ``judge(fixed_streams=True)``."""
    won = 0
    cells = _cells(view)
    for cell, weight in cells.items():
        *hands, pile = cell
        cards = [c for hand in hands for c in hand] + list(pile[1 if view.drew else 0 :])
        single = judge(_Fixed(view, cards), seed=seed, playouts=1, plays=[play], fixed_streams=True)
        won += weight * single.best.wins[0]
    return won / sum(cells.values())


class _Fixed(SeatView):
    """A view whose one deal is ``cards``: the exact value's play-outs."""

    __slots__ = ("cards",)

    def __init__(self, view: SeatView, cards: list[Card]) -> None:
        for name in SeatView.__slots__:
            object.__setattr__(self, name, getattr(view, name))
        object.__setattr__(self, "cards", cards)

    def sample(self, rng: Rng) -> Game:
        return self.dealt(self.cards)


ENDINGS = [("2", 26), ("5", 26), ("11", 26)]


@cache
def _ending(seed: str, ply: int) -> tuple[SeatView, dict]:
    """An ending of few unseen cards, and each play's exact win chance."""
    game = _position(seed, ply)
    view = SeatView.of(game, game.to_move)
    return view, {play: _exact(view, play, "e") for play in legal_plays(view)}


@pytest.mark.slow  # over 0.7 s: CI runs it, the fast loop does not
def test_the_exact_value_lies_in_the_stated_intervals_at_their_rate() -> None:
    runs = inside = 0
    for seed, ply in ENDINGS:
        view, exact = _ending(seed, ply)
        # a play of each value where luck matters: the rest are won or lost on every deal
        chosen = {value: play for play, value in exact.items() if 0 < value < 1}
        assert chosen
        for value, play in chosen.items():
            for i in range(200 // len(ENDINGS) // len(chosen) + 1):
                judged = judge(view, seed=f"run{i}", playouts=80, plays=[play], fixed_streams=True)
                assert judged.best.tries == 80
                low, high = judged.best.interval
                runs += 1
                inside += low <= value <= high
    # 95% intervals: a few points under at most, and not every one by luck
    assert runs >= 200
    assert 0.9 * runs <= inside < runs


@pytest.mark.slow  # over 0.7 s: CI runs it, the fast loop does not
def test_the_loss_against_the_best_lies_in_its_interval_at_its_rate() -> None:
    runs = inside = 0
    for seed, ply in ENDINGS:
        view, exact = _ending(seed, ply)
        best = max(exact, key=exact.__getitem__)
        worst = min(exact, key=exact.__getitem__)
        if exact[best] == exact[worst]:
            continue
        for i in range(60):
            judged = judge(
                view, seed=f"loss{i}", playouts=240, plays=[best, worst], fixed_streams=True
            )
            loss = judged.loss(worst, best)
            assert loss.deals == 120
            runs += 1
            inside += loss.low <= exact[best] - exact[worst] <= loss.high
    assert runs >= 120
    assert 0.88 * runs <= inside < runs


@pytest.mark.slow  # over 0.7 s: CI runs it, the fast loop does not
def test_halving_finds_the_best_play_where_plays_differ_clearly() -> None:
    view, exact = _ending("2", 26)
    judged = judge(view, seed="e", playouts=1500, fixed_streams=True)
    assert exact[judged.best.play] == max(exact.values()) > min(exact.values())
    assert judged.best.tries > judged.plays[-1].tries  # the play-outs went to the close plays


def test_a_judgement_is_the_same_for_the_same_seed_and_changes_with_it() -> None:
    view = SeatView.of(_position("same", 10), _position("same", 10).to_move)
    first = judge(view, seed="a", playouts=300)
    assert judge(view, seed="a", playouts=300) == first
    assert judge(view, seed="b", playouts=300) != first
    assert first.complete and first.playouts <= 300 + len(legal_plays(view))
    assert {v.play for v in first.plays} == set(legal_plays(view))


def test_the_kept_play_is_tried_on_as_many_deals_as_the_best() -> None:
    view = SeatView.of(_position("keep", 4), _position("keep", 4).to_move)
    plays = legal_plays(view)
    first = judge(view, seed="k", playouts=400)
    worst = first.plays[-1].play
    kept = judge(view, seed="k", playouts=400, keep=[worst])
    assert kept.value_of(worst).tries == kept.best.tries > first.value_of(worst).tries
    assert len(plays) > 2


def test_the_clock_stops_a_judgement_and_says_so() -> None:
    view = SeatView.of(_position("clock", 2), _position("clock", 2).to_move)
    judged = judge(view, seed="c", playouts=10**7, seconds=0.0)
    assert not judged.complete and judged.playouts == 0


@pytest.mark.parametrize(
    "seats", [2, pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)]
)
def test_the_judge_bot_plays_whole_games_and_repeats_them(seats) -> None:
    bots = ["judge"] + ["careful"] * (seats - 1)
    first = play_game("judged", bots, load_deck(), Scoring.classic())
    assert first.game.over
    assert play_game("judged", bots, load_deck(), Scoring.classic()).turns == first.turns


def test_the_judge_bot_chooses_the_same_whatever_the_hidden_cards() -> None:
    from ordonnance_notation.making.bots import JudgeBot

    for ply in (0, 7, 20):
        game = _position("bot", ply, 2, "reference")
        seat = game.to_move
        hand = game.hand_to_play()
        assert hand is not None
        moved = _with_hidden_cards_moved(game, seat, Rng(f"bot/{ply}"))
        assert moved.hand_to_play() == hand
        assert JudgeBot().choose(moved, hand, Rng("j")) == JudgeBot().choose(game, hand, Rng("j"))


def _record(name: str):
    from ordonnance_notation import parse_text, validate

    text = (ROOT / "samples" / name).read_text("utf-8")
    return validate(next(iter(parse_text(text, name))))


@pytest.mark.slow  # over 0.7 s: CI runs it, the fast loop does not
def test_a_record_is_judged_ply_by_ply_with_its_loss_known_to_five_points() -> None:
    report = _record("classic-2.ord")
    start = Game.new(2, report.deal)
    plays = [(turn.card, turn.state) for turn in report.turns]
    found = judge_record(start, plays, seed="r", playouts=1000)
    assert [j.ply for j in found.plies] == list(range(1, 41))
    assert [j.seat for j in found.plies] == [0, 1] * 20
    for judged in found.plies:
        assert judged.play == plays[judged.ply - 1]
        loss = judged.loss
        if judged.play != judged.judgement.best.play:
            # the precision asked, or the most deals it may take
            fresh = judged.judgement.fresh
            assert fresh is not None
            tried = judged.judgement.value_of(judged.play).tries
            assert loss.width <= 0.1 or tried >= 5 * fresh
        if judged.grade is not None:
            assert loss.low > 0 and loss.loss >= 0.05
        assert 0 <= judged.accuracy <= 100
    assert found.graded()  # the sample's loser gave chances away
    assert all(0 <= found.accuracy(seat) <= 100 for seat in (0, 1))


def test_points_records_are_judged_by_their_points() -> None:
    report = _record("points-4.ord")
    assert report.scoring is not None and report.scoring.is_points
    start = Game.new(4, report.deal)
    plays = [(turn.card, turn.state) for turn in report.turns][:2]
    by_points = judge_record(start, plays, seed="p", playouts=200, scoring=report.scoring)
    classic = judge_record(start, plays, seed="p", playouts=200)
    assert [j.judgement for j in by_points.plies] != [j.judgement for j in classic.plies]


@pytest.mark.slow  # over 0.7 s: CI runs it, the fast loop does not
def test_ordo_analyse_judge_says_what_was_known_first(ordo) -> None:
    result = ordo(
        "analyse", "--judge", "--playouts", "200", str(ROOT / "samples" / "classic-2.ord")
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith("  Judged from what each seat could know")
    assert lines[2].startswith("  Accuracy: P1 ")
    assert "was best." in result.output
    assert (
        ordo(
            "analyse", "--judge", "--playouts", "200", str(ROOT / "samples" / "classic-2.ord")
        ).output
        == result.output
    )


@pytest.mark.slow  # over 0.7 s: CI runs it, the fast loop does not
def test_ordo_analyse_judge_as_json(ordo) -> None:
    import json

    result = ordo(
        "analyse",
        "--judge",
        "--playouts",
        "200",
        "--judge-seed",
        "j",
        "-f",
        "json",
        str(ROOT / "samples" / "classic-2.ord"),
    )
    assert result.exit_code == 0, result.output
    [record] = json.loads(result.output)["records"]
    judgement = record["judgement"]
    assert judgement["judged"] and judgement["seed"] == "j" and judgement["policy"] == "careful"
    assert len(judgement["plies"]) == 40
    first = judgement["plies"][0]
    assert first["play"] == "LH J" and first["seat"] == "P1"
    assert first["loss_interval"][0] <= first["loss"] <= first["loss_interval"][1]
    assert {p["play"] for p in first["plays"]} >= {"LH J", first["best"]}


def test_a_record_without_a_deal_says_it_cannot_be_judged(ordo) -> None:
    result = ordo("analyse", "--judge", str(ROOT / "samples" / "no-deal.ord"))
    assert result.exit_code == 0
    assert "cannot be judged from the seats' view: the record has no deal" in result.output


def test_a_bad_judge_deck_is_a_diagnostic(ordo, tmp_path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text("cards: {L: 2}\n")
    result = ordo(
        "analyse", "--judge", "--judge-deck", str(deck), str(ROOT / "samples" / "classic-2.ord")
    )
    assert result.exit_code == 2
    assert "deck.yaml" in result.output and "Traceback" not in result.output


@pytest.mark.slow  # over 0.7 s: CI runs it, the fast loop does not
def test_ordo_summary_judge_leads_with_the_judgement(ordo) -> None:
    import json

    path = str(ROOT / "samples" / "classic-2.ord")
    text = ordo("summary", "--judge", "--playouts", "200", path).output
    assert text.index("What each seat could know") < text.index("States in marker order")
    plain = ordo("summary", path).output
    assert "What each seat could know" not in plain
    # the rest of the summary is the summary without --judge
    said = [line for line in plain.splitlines() if line]
    assert [line for line in text.splitlines() if line in said] == said
    [record] = json.loads(
        ordo("summary", "--judge", "--playouts", "200", "-f", "json", path).output
    )["records"]
    assert record["judgement"]["judged"] and len(record["judgement"]["plies"]) == 40


def test_a_records_plies_can_be_judged_elsewhere_with_the_same_result() -> None:
    report = _record("classic-2.ord")
    start = Game.new(2, report.deal)
    plays = [(turn.card, turn.state) for turn in report.turns][:6]
    asked = []

    def spread(function, tasks):
        tasks = list(tasks)
        asked.append(len(tasks))
        return [function(task) for task in reversed(tasks)][::-1]

    here = judge_record(start, plays, seed="s", playouts=150)
    there = judge_record(start, plays, seed="s", playouts=150, spread=spread)
    assert asked == [6] and there == here


@pytest.mark.slow  # over 0.7 s: CI runs it, the fast loop does not
def test_ordo_analyse_judge_spreads_plies_over_jobs_with_the_same_output(ordo) -> None:
    path = str(ROOT / "samples" / "later-capture-3.ord")
    one = ordo("analyse", "--judge", "--playouts", "100", "--jobs", "1", path)
    two = ordo("analyse", "--judge", "--playouts", "100", "--jobs", "2", path)
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output and "Judged from what each seat could know" in one.output


def test_a_record_without_plays_says_there_was_none_to_judge(ordo, tmp_path) -> None:
    text = (ROOT / "samples" / "classic-2.ord").read_text("utf-8")
    head = text[: text.index("\n1. ")].replace('[Result "P2"]', '[Result "unfinished"]')
    path = tmp_path / "dealt.ord"
    path.write_text(head + "\n", "utf-8")
    result = ordo("analyse", "--judge", str(path))
    assert result.exit_code == 0, result.output
    assert "  No play was made to judge.\n" in result.output
