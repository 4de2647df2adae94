"""Turns, hands and draws, full states, immediate resolution, markers, the end."""

import pytest
from strategies import cards

from ordonnance_notation.engine.cards import Card, State
from ordonnance_notation.engine.game import Deal, Game, IllegalPlay, Violation, cards_needed

F, L, H, S = (Card.from_letters(x) for x in "FLHS")
ORDER = (State.J, State.T, State.A, State.E, State.C)


def fill(game: Game, card_for_seat, order=ORDER):
    """Each seat plays its card to the first state of ``order`` where it has room."""
    turns = []
    while not game.over:
        seat = game.to_move
        state = next(s for s in order if not game.army(s, seat).full)
        game, turn = game.play(card_for_seat(seat), state)
        turns.append(turn)
    return game, turns


def test_a_new_game_starts_with_p1_to_move():
    game = Game.new(3)
    assert (game.to_move, game.ply, game.over) == (0, 0, False)


@pytest.mark.parametrize("seats", [1, 5, 0])
def test_two_to_four_seats(seats):
    with pytest.raises(ValueError, match="2 to 4 seats"):
        Game.new(seats)


def test_seats_move_in_turn_order_and_wrap():
    game = Game.new(3)
    movers = []
    for _ in range(7):
        movers.append(game.to_move)
        game, _ = game.play(F, State.A if game.ply < 3 else State.C)
    assert movers == [0, 1, 2, 0, 1, 2, 0]


def test_a_seat_named_out_of_turn_is_illegal_and_the_game_is_unchanged():
    game = Game.new(2)
    with pytest.raises(IllegalPlay) as raised:
        game.play(F, State.A, seat=1)
    assert raised.value.violation is Violation.OUT_OF_TURN
    assert raised.value.message == "P2 plays out of turn: ply 1 is P1's"
    assert game.ply == 0 and not game.army(State.A, 1).units


def deal_2(pile="F F L L"):
    return Deal((cards("F F F F F"), cards("L L L L L")), cards(pile))


def test_the_seat_draws_the_top_card_before_playing_it():
    game = Game.new(2, Deal((cards("F F F F F"), cards("L L L L L")), cards("HS B")))
    game, turn = game.play(Card.from_letters("HS"), State.A)  # the card just drawn
    assert turn.drawn == Card.from_letters("HS")
    assert game.hands[0] == cards("F F F F F")
    assert game.pile_left == 1
    game, turn = game.play(L, State.A, drawn=Card.from_letters("B"))
    assert sorted(map(str, game.hands[1])) == ["B", "L", "L", "L", "L"]


def test_a_card_not_in_hand_is_illegal():
    game = Game.new(2, deal_2())
    with pytest.raises(IllegalPlay) as raised:
        game.play(H, State.A)
    assert raised.value.violation is Violation.NOT_IN_HAND
    assert raised.value.message == "P1 plays H, but holds only F F F F F F"


def test_a_card_already_played_is_gone_from_the_hand():
    game = Game.new(2, Deal((cards("HS F F F F"), cards("L L L L L")), cards("")))
    game, _ = game.play(Card.from_letters("HS"), State.A)
    game, _ = game.play(L, State.A)
    with pytest.raises(IllegalPlay) as raised:
        game.play(Card.from_letters("HS"), State.C)
    assert raised.value.violation is Violation.NOT_IN_HAND


def test_a_declared_draw_must_be_the_top_of_the_pile():
    game = Game.new(2, deal_2("S F"))
    with pytest.raises(IllegalPlay) as raised:
        game.play(F, State.A, drawn=F)
    assert raised.value.violation is Violation.WRONG_DRAW
    assert raised.value.message == "P1 is said to draw F, but the pile says P1 draws S"


def test_d5_an_empty_pile_means_no_draw():
    game = Game.new(2, deal_2(""))
    game, turn = game.play(F, State.A)
    assert turn.drawn is None and game.pile_left == 0
    assert len(game.hands[0]) == 4
    with pytest.raises(IllegalPlay) as raised:
        game.play(L, State.A, drawn=L)
    assert raised.value.violation is Violation.WRONG_DRAW
    assert "draws nothing: the draw pile is empty" in raised.value.message


def test_a_fifth_unit_in_a_state_is_illegal():
    game = Game.new(2)
    for _ in range(4):
        game, _ = game.play(F, State.A)
        game, _ = game.play(L, State.C)
    with pytest.raises(IllegalPlay) as raised:
        game.play(F, State.A)
    assert raised.value.violation is Violation.STATE_FULL
    assert raised.value.message == "P1 plays F to Antioch, but P1 already has four units there"


def test_a_state_resolves_the_moment_every_seat_has_four_units():
    game = Game.new(2)
    for ply in range(1, 8):
        game, turn = game.play(F if ply % 2 else L, State.J)
        assert turn.resolution is None
    game, turn = game.play(L, State.J)
    assert turn.resolution is not None
    assert (turn.resolution.state, turn.resolution.marker, turn.resolution.ply) == (State.J, 1, 8)
    assert turn.resolution.winner == 0
    assert turn.resolution.decision.explain() == "regiment of flags beats regiment of lances"


def test_markers_are_numbered_in_the_order_states_resolve():
    game, turns = fill(Game.new(2), lambda seat: F if seat == 0 else L)
    placed = [(t.resolution.state, t.resolution.marker, t.ply) for t in turns if t.resolution]
    assert placed == [
        (State.J, 1, 8),
        (State.T, 2, 16),
        (State.A, 3, 24),
        (State.E, 4, 32),
        (State.C, 5, 40),
    ]
    assert [r.marker for r in game.resolutions] == [1, 2, 3, 4, 5]


def test_the_fifth_marker_ends_the_game_after_twenty_cards_each():
    for seats in (2, 3, 4):
        game, turns = fill(Game.new(seats), lambda seat: F)
        assert game.over and game.ply == 20 * seats
        assert turns[-1].ends_game and not any(t.ends_game for t in turns[:-1])
        with pytest.raises(IllegalPlay) as raised:
            game.play(F, State.A)
        assert raised.value.violation is Violation.GAME_OVER


def test_identical_armies_resolve_by_the_earlier_fourth_card():
    game, _ = fill(Game.new(3), lambda seat: F)
    for resolution in game.resolutions:
        assert [a.seat for a in resolution.ranking] == [0, 1, 2]
        assert resolution.decision.level is None


def test_a_full_deal_plays_to_the_end():
    seats = 2
    deal = Deal((cards("F F F F F"), cards("L L L L L")), cards(" ".join(["F", "L"] * 15)))
    assert 5 * seats + len(deal.pile) == cards_needed(seats)
    game, turns = fill(Game.new(seats, deal), lambda seat: F if seat == 0 else L)
    assert game.over and game.pile_left == 0
    assert all(t.drawn is not None for t in turns[:30]) and all(t.drawn is None for t in turns[30:])
    assert game.hands == ((), ())


def test_without_a_deal_hands_are_unknown_and_draws_taken_on_trust():
    game = Game.new(2)
    game, turn = game.play(H, State.A, drawn=S)
    assert game.hands is None and game.pile_left is None
    assert turn.drawn == S


def test_a_deal_for_the_wrong_number_of_seats_is_refused():
    with pytest.raises(ValueError, match="a deal for 2 seats, but 3 seats play"):
        Game.new(3, deal_2())


def test_a_claimed_draw_without_a_known_pile_does_not_join_the_hand():
    """A game with hands but no pile (built by hand through the API): the
    claimed draw is taken on trust for the record, not added to the hand."""
    lance, bow = Card.from_letters("L"), Card.from_letters("B")
    game = Game(2, Game.new(2).armies, hands=((lance,) * 5, (bow,) * 5), pile=None)
    with pytest.raises(IllegalPlay, match="P1 plays B, but holds only L L L L L"):
        game.play(bow, State.A, drawn=bow)


def test_legal_plays_are_each_card_once_to_each_open_state():
    from ordonnance_notation.making.dealing import deal, load_deck

    game = Game.new(2, deal(load_deck(), 2, "legal"))
    for _ in range(9):
        plays = game.legal_plays()
        hand = game.hand_to_play()
        assert hand is not None
        assert {card for card, _ in plays} == set(hand)
        assert len(plays) == len(set(hand)) * len(game.open_states(game.to_move))
        assert len(set(plays)) == len(plays)
        game = game.play(*plays[-1])[0]  # the last: the same state filled first
    assert State.T not in {state for _, state in game.legal_plays()}  # four units there each
    with pytest.raises(ValueError, match="without a deal"):
        Game.new(2).legal_plays()
