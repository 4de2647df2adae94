"""Army comparison, step by step (rules.md "Resolving a state"), and ranking."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import army, examples

from ordonnance_notation.engine.armies import (
    PACKED,
    Formations,
    Level,
    _compared,
    decide,
    deciding_level,
    explained_packed,
    formations_of,
    fourth_earlier,
    rank,
)
from ordonnance_notation.engine.cards import Card, Icon


@pytest.mark.parametrize(
    ("letters", "regiments", "battalions", "companies"),
    [
        ("F F F F", "F", "", ""),
        ("HF HF HF HF", "FH", "", ""),
        ("LBSHF LBSHF LBSHF LBSHF", "FHSBL", "", ""),
        ("S S S L", "", "S", ""),
        ("SH SH L B", "", "", "HS"),
        ("L B S H", "", "", ""),
        ("LF BF SF HF", "F", "", ""),
        ("LS LS LSH H", "", "SL", "H"),
    ],
)
def test_formations_count_cards_carrying_each_icon(letters, regiments, battalions, companies):
    formations = army(0, letters).formations
    assert formations.regiments == tuple(Icon[c] for c in regiments)
    assert formations.battalions == tuple(Icon[c] for c in battalions)
    assert formations.companies == tuple(Icon[c] for c in companies)


def test_describe_names_formations_most_senior_first():
    assert army(0, "SF SF HF HF").formations.describe() == "regiment F, company H, company S"
    assert army(0, "L B S H").formations.describe() == "no formation"


# (stronger army, weaker army, deciding level, explanation). The weaker army
# always played its fourth card first, so only the formations can decide.
COMPARISONS = [
    # 1. more regiments
    ("LF LF LF BF", "L B S H", Level.REGIMENT, None, "one regiment beats none"),
    ("HF HF HF HF", "F F F F", Level.REGIMENT, None, "two regiments beat one"),
    # 2. regiment seniority, most senior first
    (
        "F F F F",
        "H H H H",
        Level.REGIMENT,
        (Icon.F, Icon.H),
        "regiment of flags beats regiment of helmets",
    ),
    (
        "LF LF LF LF",
        "SH SH SH SH",
        Level.REGIMENT,
        (Icon.F, Icon.H),
        "regiment of flags beats regiment of helmets",
    ),
    (
        "SF SF SF SF",
        "LF LF LF LF",
        Level.REGIMENT,
        (Icon.S, Icon.L),
        "regiment of swords beats regiment of lances",
    ),
    # 3. battalions: count, then seniority
    ("F F F L", "L B S H", Level.BATTALION, None, "no regiments; one battalion beats none"),
    ("LB LB LB S", "F F F S", Level.BATTALION, None, "no regiments; two battalions beat one"),
    (
        "S S S L",
        "B B B H",
        Level.BATTALION,
        (Icon.S, Icon.B),
        "no regiments; battalion of swords beats battalion of bows",
    ),
    ("LF LF LF LF", "LF LF LF L", Level.REGIMENT, None, "two regiments beat one"),
    (
        "HF HF HF F",
        "HF HF HF H",
        Level.REGIMENT,
        (Icon.F, Icon.H),
        "regiment of flags beats regiment of helmets",
    ),
    # 4. companies: count, then seniority
    (
        "LB LB S H",
        "F F S H",
        Level.COMPANY,
        None,
        "no regiments; no battalions; two companies beat one",
    ),
    (
        "F F L B",
        "H H L B",
        Level.COMPANY,
        (Icon.F, Icon.H),
        "no regiments; no battalions; company of flags beats company of helmets",
    ),
    ("BF BF L S", "BH BH L S", Level.COMPANY, (Icon.F, Icon.H), None),
    # equal regiments decided lower down
    ("LF LF LF F", "F F F F", Level.BATTALION, None, "equal regiments; one battalion beats none"),
]


@pytest.mark.parametrize(("strong", "weak", "level", "icons", "words"), COMPARISONS)
def test_each_step_of_comparison(strong, weak, level, icons, words):
    stronger = army(0, strong, (5, 6, 7, 8))
    weaker = army(1, weak, (1, 2, 3, 4))
    assert rank([weaker, stronger])[0] is stronger
    assert rank([stronger, weaker])[0] is stronger
    decision = decide(stronger, weaker)
    assert decision.level is level
    if icons is not None:
        assert decision.icons == icons
    if words is not None:
        assert decision.explain() == words


def test_identical_formations_earlier_fourth_card_wins():
    first = army(0, "S S S L", (1, 3, 5, 31))
    second = army(1, "S S S B", (2, 4, 6, 34))
    assert first.formations == second.formations
    assert rank([second, first]) == (first, second)
    decision = decide(first, second)
    assert decision.level is None
    assert (
        decision.explain()
        == "identical formations; P1 played the fourth card earlier, ply 31 vs 34"
    )


def test_fourth_card_decides_even_when_the_later_army_started_first():
    early_start = army(0, "H H L B", (1, 2, 3, 40))
    late_start = army(1, "H H S F", (20, 21, 22, 23))
    assert rank([early_start, late_start])[0] is late_start


def test_seniority_is_compared_from_the_most_senior_regiment_down():
    # both hold two regiments and share the flag: the second one decides
    mine = army(0, "HF HF HF HF", (5, 6, 7, 8))
    theirs = army(1, "SF SF SF SF", (1, 2, 3, 4))
    decision = decide(*rank([mine, theirs]))
    assert decision.winner is mine
    assert decision.icons == (Icon.H, Icon.S)
    assert decision.explain() == "regiment of helmets beats regiment of swords"


def test_ranking_three_armies_strongest_first():
    a = army(0, "F F F F", (1, 4, 7, 10))
    b = army(1, "S S S L", (2, 5, 8, 11))
    c = army(2, "L B S H", (3, 6, 9, 12))
    assert [x.seat for x in rank([c, a, b])] == [0, 1, 2]


def test_ranking_four_armies_with_a_fourth_card_tie_inside():
    a = army(0, "L B S H", (1, 5, 9, 13))
    b = army(1, "H H L B", (2, 6, 10, 14))
    c = army(2, "H H S F", (3, 7, 11, 15))  # same formations as b, fourth card later
    d = army(3, "F F F F", (4, 8, 12, 16))
    assert [x.seat for x in rank([a, b, c, d])] == [3, 1, 2, 0]


def test_formation_key_orders_by_level_first():
    one_regiment = Formations(regiments=(Icon.L,))
    many_battalions = Formations(battalions=(Icon.F, Icon.H, Icon.S))
    assert one_regiment.key > many_battalions.key


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(1, 31), max_size=9))
def test_formations_of_any_cards_match_a_plain_count(masks):
    """Formations are cached by packed icon counts (up to seven cards) and
    counted directly beyond; both agree with counting icon by icon."""
    cards = [Card(mask) for mask in masks]
    counts = {icon: sum(1 for card in cards if icon in card) for icon in Icon}
    by_level = {
        level: tuple(i for i in sorted(Icon, reverse=True) if min(counts[i], 4) == level.value)
        for level in Level
    }
    formations = Formations.of(cards)
    assert [formations.at(level) for level in Level] == [by_level[level] for level in Level]
    assert Formations.of(list(reversed(cards))) is formations or len(cards) > 7


def test_the_words_of_two_full_armies_are_those_computed_fresh():
    """``explained_packed`` finds the words of formations that differ by a
    short key (the level, the levels before it that hold formations, and
    the counts or first icons that differ): for 30,000 pairs of full armies
    (any four of the 31 cards each, with their seats and plies), the words
    are those ``_compared`` makes of the two armies' formations, or the
    earlier fourth card's where they are the same."""
    every = [Card(mask) for mask in range(1, 32)]
    chosen = random.Random(48)
    met = set()
    for n in range(30_000):
        one, other = chosen.choices(every, k=4), chosen.choices(every, k=4)
        if n % 7 == 0:  # the same formations now and then
            other = list(reversed(one))
        packed, beaten = sum(PACKED[c.mask] for c in one), sum(PACKED[c.mask] for c in other)
        winner, loser = formations_of(packed), formations_of(beaten)
        level = deciding_level(winner, loser)
        seat, fourth, later = n % 4, 4 + n % 9, 13 + n % 5
        if level is None:
            expected = fourth_earlier(seat, fourth, later)
        else:
            expected = _compared(level, winner, loser)
        met.add(expected.split(";")[-1])
        assert explained_packed(packed, beaten, seat, fourth, later) == expected, (one, other)
    assert len(met) > 100  # every kind of words, more or less
