import pytest

from ordonnance_notation.engine.cards import Card, CardError, Icon, State


@pytest.mark.parametrize(
    ("written", "canonical"),
    [("F", "F"), ("FH", "HF"), ("HF", "HF"), ("FHSBL", "LBSHF"), ("SL", "LS"), ("BHL", "LBH")],
)
def test_any_order_is_accepted_and_printed_junior_to_senior(written, canonical):
    assert str(Card.from_letters(written)) == canonical


def test_cards_with_the_same_icons_are_interchangeable():
    assert Card.from_letters("SH") == Card.from_letters("HS")
    assert len({Card.from_letters("SH"), Card.from_letters("HS")}) == 1


@pytest.mark.parametrize(
    ("written", "position", "message"),
    [
        ("HH", 1, "icon H appears twice$"),
        ("LBSL", 3, "icon L appears twice"),
        ("HX", 1, "'X' is not an icon"),
        ("hf", 0, "'h' is not an icon"),
        ("", 0, "at least one icon"),
    ],
)
def test_malformed_cards_name_the_offending_letter(written, position, message):
    with pytest.raises(CardError, match=message) as raised:
        Card.from_letters(written)
    assert raised.value.position == position


def test_card_icons_and_membership():
    card = Card.of(Icon.F, Icon.L)
    assert card.icons == (Icon.L, Icon.F)
    assert Icon.F in card and Icon.H not in card
    assert eval(repr(card)) == card


def test_seniority_runs_lance_bow_swords_helmet_flag():
    assert Icon.L < Icon.B < Icon.S < Icon.H < Icon.F


@pytest.mark.parametrize(
    ("word", "state"),
    [
        ("A", State.A),
        ("Antioch", State.A),
        ("cyprus", State.C),
        ("J", State.J),
        ("EDESSA", State.E),
        ("t", State.T),
        ("Tripoli", State.T),
    ],
)
def test_states_by_letter_or_full_name(word, state):
    assert State.lookup(word) is state


@pytest.mark.parametrize("word", ["Acre", "X", "", "Antiochia"])
def test_unknown_states(word):
    assert State.lookup(word) is None


def test_territory_line_order():
    assert [s.full_name for s in State] == ["Antioch", "Cyprus", "Jerusalem", "Edessa", "Tripoli"]


def test_one_card_object_per_mask_and_only_whole_numbers_make_cards():
    assert Card(3) is Card.from_letters("BL") is Card.from_letters("LB")
    for wrong in (True, 1.0, "1", 0, 32):
        with pytest.raises(ValueError):
            Card(wrong)
    assert type(Card(1).mask) is int


def test_states_and_seats_print_in_the_games_words_and_paste_back():
    from ordonnance_notation.engine.cards import Seat

    assert (str(State.J), f"{State.J}", repr(State.J), State.J.full_name) == (
        "J",
        "J",
        "State.J",
        "Jerusalem",
    )
    assert (str(Seat.P2), f"{Seat.P2:>3}", repr(Seat.P2), f"{Seat.P2:d}") == (
        "P2",
        " P2",
        "Seat.P2",
        "1",
    )
    assert eval(repr(State.T)) is State.T and eval(repr(Seat.P4)) is Seat.P4
    assert Seat.of("P3") is Seat.P3 and Seat.of(0) is Seat.P1 and Seat.P2 == 1 and int(State.J) == 3
    for wrong in ("P5", "p1", 4, -1):
        with pytest.raises(ValueError, match="is no seat"):
            Seat.of(wrong)


def test_the_engine_gives_seats_as_seats():
    from ordonnance_notation import Game
    from ordonnance_notation.engine.cards import Seat

    game = Game.new(2)
    assert repr(game.to_move) == "Seat.P1"
    game, turn = game.play(Card.from_letters("L"), State.A)
    assert (str(turn.seat), str(game.to_move), str(game.army(State.A, 0).seat)) == (
        "P1",
        "P2",
        "P1",
    )
    assert f"{turn.seat} plays {turn.card} to {turn.state}" == "P1 plays L to A"
    assert isinstance(game.army(State.A, 1).seat, Seat)
