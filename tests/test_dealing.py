"""The reference deck, deck files, the portable shuffle and deals (rules.md D3)."""

import hashlib
import os
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from ordonnance_notation.engine.cards import Icon
from ordonnance_notation.engine.rng import Rng
from ordonnance_notation.making.dealing import MAX_CARDS, DeckError, deal, load_deck, parse_deck

ROOT = Path(__file__).resolve().parent.parent


def test_the_reference_deck_is_shipped_and_shaped_as_the_rules_say():
    deck = load_deck()
    assert deck.name == "reference" and len(deck.cards) == 56
    sizes = [len(card.icons) for card in deck.cards]
    assert sum(1 for n in sizes if n <= 2) / len(sizes) > 0.85
    assert 5 in sizes
    assert {icon: sum(1 for c in deck.cards if icon in c) for icon in Icon} == dict.fromkeys(
        Icon, 20
    )


def test_the_reference_deck_says_it_is_not_the_publishers_list():
    text = (files("ordonnance_notation.making.decks") / "reference.yaml").read_text("utf-8")
    assert "NOT THE PUBLISHER'S CARD LIST" in text


def test_the_random_stream_follows_its_specification():
    words = hashlib.sha256(b"seed:0").digest()
    expected = [int.from_bytes(words[i : i + 8], "big") for i in (0, 8, 16, 24)]
    rng = Rng("seed")
    assert [rng._next_word() for _ in range(4)] == expected


def test_a_seed_shuffles_the_same_way_everywhere():
    # A fixed vector: if this changes, every published seed deals differently.
    assert Rng("x").shuffle(range(10)) == [4, 8, 0, 3, 9, 2, 6, 1, 7, 5]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 112])
def test_below_stays_in_range_and_shuffle_permutes(n):
    rng = Rng(f"range {n}")
    assert all(0 <= rng.below(n) < n for _ in range(200))
    assert sorted(rng.shuffle(range(n))) == list(range(n))


def test_below_is_uniform_enough():
    rng = Rng("uniform")
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(850 < c < 1150 for c in counts)


@pytest.mark.parametrize(("seats", "pile"), [(2, 46), (3, 97), (4, 92)])
def test_a_deal_gives_five_cards_each_from_one_or_two_decks(seats, pile):
    dealt = deal(load_deck(), seats, "7")
    assert [len(hand) for hand in dealt.hands] == [5] * seats
    assert len(dealt.pile) == pile
    everything = sorted(c.mask for hand in dealt.hands for c in hand) + sorted(
        c.mask for c in dealt.pile
    )
    box = sorted(c.mask for c in load_deck().cards) * (1 if seats == 2 else 2)
    assert sorted(everything) == sorted(box)


def test_the_same_seed_deals_the_same_and_another_seed_differently():
    deck = load_deck()
    assert deal(deck, 3, "a") == deal(deck, 3, "a")
    assert deal(deck, 3, "a") != deal(deck, 3, "b")


DECK = "name: tiny\ncards:\n  F: 20\n  HF: 10\n  L: 10\n"


def test_a_custom_deck_file():
    deck = parse_deck(DECK, "tiny.yaml")
    assert deck.name == "tiny" and len(deck.cards) == 40


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("cards: [F\n", (2, 1), "not a YAML deck file"),
        ("- F\n- H\n", (1, 1), "a deck file is a mapping"),
        ("name: x\n", (1, 1), "no 'cards' entry"),
        ("cards: F\n", (1, 8), "'cards' maps card letters"),
        ("cards:\n  F: 30\n  HX: 10\n", (3, 3), "cards.HX: 'X' is not an icon"),
        ("cards:\n  HF: 30\n  FH: 10\n", (3, 3), "cards.FH: the same card as HF above"),
        ("cards:\n  F: many\n", (2, 6), "the number of copies is a whole number, not 'many'"),
        ("cards:\n  F: 39\n", (2, 3), "the deck holds 39 cards; two seats need 40"),
        ("cards:\n  F: 10001\n", (2, 6), "cards.F: a deck holds at most 10,000 cards"),
        ("cards:\n  F: 9000\n  H: 1001\n", (3, 6), "cards.H: a deck holds at most 10,000"),
    ],
)
def test_a_malformed_deck_file_is_located(text, where, message):
    with pytest.raises(DeckError) as raised:
        parse_deck(text, "deck.yaml")
    diagnostic = raised.value.diagnostic
    assert diagnostic.code == "E006"
    assert (diagnostic.span.line, diagnostic.span.column) == where
    assert message in diagnostic.message


def test_a_missing_deck_file_is_an_input_error(tmp_path):
    with pytest.raises(DeckError) as raised:
        load_deck(tmp_path / "none.yaml")
    assert (raised.value.diagnostic.code, raised.value.diagnostic.message) == (
        "E001",
        "no such file",
    )


def test_the_deck_s_limit_is_the_one_the_docs_give():
    text = (ROOT / "docs" / "dealing.md").read_text("utf-8")
    assert f"holds more than {MAX_CARDS:,} cards" in text
    assert len(parse_deck(f"cards: {{L: {MAX_CARDS}}}\n", "most.yaml").cards) == MAX_CARDS


def _ordo(*args: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ORDO_PURE_PYTHON"}
    if pure:
        env["ORDO_PURE_PYTHON"] = "1"
    command = [sys.executable, "-m", "ordonnance_notation", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


@pytest.mark.slow  # games played and analysed twice
@pytest.mark.parametrize("seats", [2, 3])
def test_a_deck_larger_than_the_compiled_core_s_pile_plays_and_is_analysed(tmp_path, seats):
    """Issue 47: the deck reader takes up to 10,000 cards, but a deck of
    1,035 (a pile of 1,025 at two seats, more than the 1,024 the compiled
    core held) made ``ordo play`` stop with "the pile: more than 1024 cards"
    and ``ordo analyse --best-play`` with "more cards than the core holds",
    both exit 3, where the Python path worked. The core now reads any pile
    (no seat draws past its first cards): the same games either way."""
    deck = tmp_path / "big.yaml"
    deck.write_text("name: big\ncards: {L: 1035}\n", "utf-8")
    archives = []
    for pure in (False, True):
        archive = tmp_path / f"big-{pure}.ord"
        bots = ",".join(["careful", "greedy", "random"][:seats])
        played = _ordo(
            "play", "--deck", str(deck), "--bots", bots, "-n", "2", "--seed", "big",
            "-o", str(archive), pure=pure,
        )  # fmt: skip
        assert played.returncode == 0, played.stderr
        archives.append(archive.read_text("utf-8"))
        analysed = _ordo("analyse", "--best-play", "--budget", "1", str(archive), pure=pure)
        assert analysed.returncode == 0, analysed.stderr
        assert analysed.stdout.count("  Best play") == 2
    assert archives[0] == archives[1] and archives[0].count('[Deck "big"]') == 2
