"""The content reader's view of a record's parts: counting the kinds of its
elements, which finds the parts of a record written in order, agrees with
reading each element, in any order."""

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SAMPLES, examples

from ordonnance_notation.checking.body import (
    MARKERS,
    PLY_TEXT,
    marker_number,
    read_claim,
    read_play,
    usual_claim,
    usual_move,
)
from ordonnance_notation.checking.content import content_of
from ordonnance_notation.checking.meaning import Content, Move
from ordonnance_notation.checking.parts import layout_of, misplaced
from ordonnance_notation.checking.words import SEAT_INDEX, seat_index
from ordonnance_notation.engine.cards import State, state_spelt
from ordonnance_notation.engine.game import MAX_SEATS, PLAYS_PER_SEAT
from ordonnance_notation.notation.parser import parse_text
from ordonnance_notation.notation.record import (
    Declared,
    Element,
    Hand,
    Pile,
    Play,
    Record,
    ResultLine,
    Span,
    Tag,
    Word,
)

RECORD = next(
    r for r in parse_text((SAMPLES / "classic-2.ord").read_text("utf-8")) if isinstance(r, Record)
)
SPAN = Span(5, 1, 5, 20)
PART = {Tag: 0, Hand: 1, Pile: 1, Play: 2, Declared: 2, ResultLine: 3}


def out_of_place(elements: tuple[Element, ...]) -> list[Element]:
    """The elements after a later part, and every result line after the first."""
    found, part = [], 0
    for element in elements:
        kind = PART[type(element)]
        if kind < part or (kind == part == 3):
            found.append(element)
        part = max(part, kind)
    return found


N = len(RECORD.elements)


@settings(max_examples=examples(300))
@given(st.permutations(RECORD.elements), st.integers(0, N), st.integers(0, 3), st.integers(0, N))
def test_the_layout_of_a_record_is_that_of_its_elements_in_any_order(shuffled, cut, start, to):
    in_order, shuffled = RECORD.elements[start:], tuple(shuffled)
    moved = list(in_order)
    moved.insert(to, moved.pop(cut % len(moved)))  # one element moved elsewhere
    for elements in (
        in_order,
        shuffled,
        in_order + shuffled[:cut],
        shuffled[:cut] + in_order,
        tuple(moved),
    ):
        record = Record(RECORD.source, 1, tuple(elements))
        layout = layout_of(record)
        assert layout.tags == tuple(e for e in elements if type(e) is Tag)
        assert layout.hands == [e for e in elements if type(e) is Hand]
        assert layout.piles == [e for e in elements if type(e) is Pile]
        assert layout.result_line == next((e for e in elements if type(e) is ResultLine), None)
        wrong = [e.span for e in out_of_place(elements)]
        assert [d.span for d in layout.misplaced] == wrong
        assert [d.span for d in misplaced(record)] == wrong
        assert all(d.code == "E209" for d in layout.misplaced)


def test_a_record_in_order_has_nothing_out_of_place():
    assert not layout_of(RECORD).misplaced
    assert layout_of(RECORD).result_line is RECORD.elements[-1]


# The words a play or a declared resolution may be written with: the usual
# spellings, others that read the same, and some that do not read at all.
NUMBERS = ["1.", "2.", "3.", "01.", "10."]
SEATS = [None, "P1", "P2", "P3", "P4", "P5", "P0", "P01", "p1"]
DRAWS = [None, "+L", "+LH", "+LL", "+x"]
CARDS = ["LH", "HL", "F", "LBSHF", "FHSBL", "LHH", "lh", "X"]
STATES = ["J", "j", "Jerusalem", "jerusalem", "JERUSALEM", "Cyprus", "A", "X"]
MARKER_WORDS = ["#1", "#3", "#5", "#6", "#0", "#03", "#"]
USUAL_STATES = ("J", "Jerusalem", "Cyprus", "A")  # as the engine spells them


def word(text, column=1):
    return None if text is None else Word(text, 5, column)


def content_for(element, seats):
    content = Content(Record("t.ord", 1, (element,)))
    content.seats, content.names = seats, tuple(f"player {n}" for n in range(seats))
    return content


@settings(max_examples=examples(500))
@given(
    st.sampled_from(NUMBERS),
    st.sampled_from(SEATS),
    st.sampled_from(DRAWS),
    st.sampled_from(CARDS),
    st.sampled_from(STATES),
    st.integers(1, 3),
    st.integers(2, 4),
    st.integers(0, 3),
)
def test_a_play_read_the_usual_way_is_the_play_read_word_by_word(
    number, seat, drawn, card, state, ply, seats, written
):
    play = Play(
        word(number), word(seat, 4), word(drawn, 7), word(card, 10), word(state, 16), None, SPAN
    )
    content = content_for(play, seats)
    slow = read_play(content, play, ply, written, None)
    quick = usual_move(play, ply, seats)  # after read_play: the card's spelling is known
    if quick is not None:
        assert quick == slow
        assert content.diagnostics == []
    if number == f"{ply}." and drawn is None and state in USUAL_STATES and type(slow) is Move:
        assert quick == slow  # the usual spelling takes the quick way


@settings(max_examples=examples(300))
@given(
    st.sampled_from(MARKER_WORDS),
    st.sampled_from(STATES),
    st.sampled_from(SEATS[1:]),
    st.integers(2, 4),
)
def test_a_claim_read_the_usual_way_is_the_claim_read_word_by_word(marker, state, seat, seats):
    declared = Declared(word(marker), word(state, 4), word(seat, 6), SPAN)
    content = content_for(declared, seats)
    slow = read_claim(content, declared)
    quick = usual_claim(declared, seats)
    if quick is not None:
        assert quick == slow
        assert content.diagnostics == []
    if slow is not None and state in USUAL_STATES and marker in MARKERS:
        assert quick == slow  # the usual spelling takes the quick way


def test_the_look_ups_give_what_the_readers_give():
    assert all(seat_index(name, MAX_SEATS) == seat for name, seat in SEAT_INDEX.items())
    assert all(marker_number(text) == n for text, n in MARKERS.items())
    assert [marker_number(f"#{n}") for n in range(7)] == [None, 1, 2, 3, 4, 5, None]
    assert all(
        Play(Word(text, 1, 1), None, None, Word("F", 1, 4), Word("A", 1, 6), None, SPAN).ply == n
        for n, text in PLY_TEXT.items()
    )
    assert len(PLY_TEXT) == PLAYS_PER_SEAT * MAX_SEATS  # every ply of the longest game
    spelt = [s.name for s in State] + [s.full_name for s in State]
    assert all(state_spelt(w) is State.lookup(w) is not None for w in spelt)


def test_every_usual_play_of_a_sample_is_read_the_usual_way():
    content = content_of(RECORD)
    moves = [e for e in content.body if type(e) is Move]
    assert len(moves) == len(RECORD.plays)
    usual = [m for m in moves if m.play.drawn is None]
    assert usual  # the sample is written the usual way, mostly
    assert all(
        usual_move(m.play, m.play.ply, content.seats) == m for m in usual
    )  # so reading it takes the quick way
