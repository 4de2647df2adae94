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
