"""The bots of making/bots.py: the careful bot plays legal games, the same
ones for the same seed, and spends its weakest card where it cannot win.
How often each bot wins is measured by bench/bots.py, not here."""

import pytest
from strategies import ROOT

from ordonnance_notation import parse_text, validate, validate_text
from ordonnance_notation.engine.analysis import reachable
from ordonnance_notation.engine.cards import Card, State
from ordonnance_notation.engine.game import Deal, Game
from ordonnance_notation.engine.rng import Rng
from ordonnance_notation.making.bots import BOTS, CarefulBot, GreedyBot, bot
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import game_text, play_archive, play_game

DECK = load_deck()
LINE_UPS = {
    2: ["careful", "greedy"],
    3: ["random", "careful", "greedy"],
    4: ["greedy", "random", "careful", "careful"],
}


def cards(letters: str) -> tuple[Card, ...]:
    return tuple(Card.from_letters(word) for word in letters.split())


def pile(letters: str) -> tuple[Card, ...]:
    """These cards on top of a pile long enough for the whole game (the bot
    sees its size, and counts its own draws to come from it)."""
    top = cards(letters)
    return top + cards("L") * (40 - len(top))


def test_careful_is_a_bot_by_name():
    assert "careful" in BOTS
    assert isinstance(bot("careful"), CarefulBot)


@pytest.mark.parametrize(
    "part", [0, *(pytest.param(part, marks=pytest.mark.slow) for part in range(1, 4))]
)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_careful_plays_games_that_validate(seats, part):
    # 100 games a seat count, in four parts that pytest-xdist can spread; the
    # fast loop plays the first
    for k in range(25 * part + 1, 25 * part + 26):
        played = play_game(f"careful/{seats}/{k}", LINE_UPS[seats], DECK)
        [item] = parse_text(game_text(played), "careful.ord")
        report = validate(item)
        assert report.diagnostics == (), k
        assert report.game.ply == 20 * seats
        assert report.outcome == played.outcome


def test_careful_plays_the_same_games_for_the_same_seed():
    first = [game_text(p) for p in play_archive("same", 3, ["careful", "careful", "greedy"], DECK)]
    again = [game_text(p) for p in play_archive("same", 3, ["careful", "careful", "greedy"], DECK)]
    assert first == again
    assert len(set(first)) == 3


def lost_jerusalem() -> tuple[Game, tuple[Card, ...]]:
    """P1 to move at ply 9. In Jerusalem P2 has four HF (regiments of helmets
    and flags) and P1 H and F: two more cards of any kind make no regiment,
    so P1 cannot win it. P1 has S in Cyprus and B in Edessa; its hand adds
    nothing to either (no S, no B), so every card is as good elsewhere."""
    deal = Deal(
        hands=(cards("H F S B L"), cards("HF HF HF HF S")),
        pile=pile("HF L LH L LF L F L HF L"),
    )
    game = Game.new(2, deal)
    plays = [("H", State.J), ("HF", State.J), ("F", State.J), ("HF", State.J)]
    plays += [("S", State.C), ("HF", State.J), ("B", State.E), ("HF", State.J)]
    for letters, state in plays:
        game, _ = game.play(Card.from_letters(letters), state)
    hand = game.hand_to_play()
    assert hand is not None
    return game, hand


def test_careful_spends_its_weakest_card_where_it_cannot_win():
    game, hand = lost_jerusalem()
    assert game.to_move == 0
    assert sorted(map(str, hand)) == ["F", "HF", "HF", "L", "LF", "LH"]
    can_win = reachable(game, 0, hand)
    assert 0 not in can_win[State.J]
    assert {State.A, State.C, State.E, State.T} == {s for s in can_win if 0 in can_win[s]}

    assert CarefulBot().choose(game, hand, Rng("x")) == (Card.from_letters("L"), State.J)
    # where the greedy bot spends its best card: a company of helmets and one of flags
    assert GreedyBot().choose(game, hand, Rng("x")) == (Card.from_letters("HF"), State.J)


def test_careful_keeps_a_state_it_can_still_win():
    """P1 to move at ply 7. In Jerusalem P2 has HF HF HF and P1 H F: with
    two more HF (or any cards with H and F) P1 would have battalions of
    helmets and flags and companies besides, which P2's weakest fourth card
    cannot match, so P1 can still win it. SH there makes a company of
    helmets (the greedy bot's best play) but leaves no room for a second
    flag: P1 could no longer win Jerusalem. Nothing in P1's hand can go
    there without that, so the careful bot plays elsewhere."""
    deal = Deal(
        hands=(cards("H F B SH L"), cards("HF HF HF S S")),
        pile=pile("S L LS L L L S L"),
    )
    game = Game.new(2, deal)
    plays = [("H", State.J), ("HF", State.J), ("F", State.J), ("HF", State.J)]
    plays += [("B", State.A), ("HF", State.J)]
    for letters, state in plays:
        game, _ = game.play(Card.from_letters(letters), state)
    hand = game.hand_to_play()
    assert hand is not None
    assert game.to_move == 0
    assert sorted(map(str, hand)) == ["L", "L", "LS", "S", "S", "SH"]
    assert 0 in reachable(game, 0, hand)[State.J]
    greedy = GreedyBot().choose(game, hand, Rng("x"))
    assert greedy == (Card.from_letters("SH"), State.J)
    after, _ = game.play(*greedy)
    assert 0 not in reachable(after, 0, [c for c in hand if c is not greedy[0]])[State.J]

    for seed in "abcdefgh":
        assert CarefulBot().choose(game, hand, Rng(seed))[1] is not State.J, seed


def test_every_bot_is_described_in_the_docs():
    table = (ROOT / "docs" / "dealing.md").read_text("utf-8")
    readme = (ROOT / "README.md").read_text("utf-8")
    for name in BOTS:
        assert f"\n| `{name}` | " in table, name
        assert f"`{name}`" in readme, name


def test_ordo_play_takes_the_careful_bot(ordo):
    result = ordo("play", "--bots", "careful,greedy", "--games", "2", "--seed", "1")
    assert result.exit_code == 0
    assert result.output.count('[P1 "careful"]') == 2
    assert result.output.count('[P2 "greedy"]') == 2
    [first, second] = validate_text(result.output, "play.ord")
    assert first.valid and second.valid


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_careful_bots_ranking_begins_with_its_choice(seats):
    from ordonnance_notation.engine.game import Game
    from ordonnance_notation.engine.rng import Rng
    from ordonnance_notation.making.bots import CarefulBot
    from ordonnance_notation.making.dealing import deal, load_deck

    game = Game.new(seats, deal(load_deck(), seats, f"rank/{seats}"))
    bot = CarefulBot()
    while not game.over:
        hand = game.hand_to_play()
        assert hand is not None
        chosen = bot.choose(game, hand, Rng(f"r/{game.ply}"))
        ranked = bot.ranked(game, hand, Rng(f"r/{game.ply}"))
        assert ranked[0] == chosen and len(set(ranked)) == len(ranked)
        assert set(ranked) <= set(game.legal_plays())
        game = game.play(*ranked[-1])[0]  # the worst of those tried, for other positions


def test_the_rollout_bot_plays_legal_games_the_same_for_a_seed():
    from ordonnance_notation.making.selfplay import play_game

    deck = load_deck()
    one = play_game("roll", ["rollout", "careful", "greedy"], deck)
    two = play_game("roll", ["rollout", "careful", "greedy"], deck)
    assert one.turns == two.turns and len(one.turns) == 60
    checked = validate_text(game_text(one))
    assert checked[0].valid


def test_the_rollout_bot_chooses_among_the_careful_bots_best_plays(monkeypatch):
    from ordonnance_notation.engine.game import Game
    from ordonnance_notation.engine.rng import Rng
    from ordonnance_notation.making import bots
    from ordonnance_notation.making.dealing import deal

    game = Game.new(2, deal(load_deck(), 2, "among"))
    for _ in range(10):
        hand = game.hand_to_play()
        assert hand is not None
        ranked = bots.CarefulBot().ranked(game, hand, Rng(f"a/{game.ply}"))
        chosen = bots.RolloutBot().choose(game, hand, Rng(f"a/{game.ply}"))
        assert chosen in ranked[: bots.RolloutBot.CANDIDATES]
        game = game.play(*chosen)[0]
    tried = []
    monkeypatch.setattr(bots.RolloutBot, "SAMPLES", 1)
    original = bots.CarefulBot.ranked
    monkeypatch.setattr(
        bots.CarefulBot, "ranked", lambda self, *a: tried.append(1) or original(self, *a)[:1]
    )
    hand = game.hand_to_play()
    assert hand is not None
    only = bots.RolloutBot().choose(game, hand, Rng("one"))
    assert tried == [1] and only == original(bots.CarefulBot(), game, hand, Rng("one"))[0]
