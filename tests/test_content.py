"""The content reader's view of a record's parts: counting the kinds of its
elements, which finds the parts of a record written in order, agrees with
reading each element, in any order."""

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SAMPLES, examples

from ordonnance_notation.checking.content import layout_of, misplaced
from ordonnance_notation.notation.parser import parse_text
from ordonnance_notation.notation.record import (
    Declared,
    Element,
    Hand,
    Pile,
    Play,
    Record,
    ResultLine,
    Tag,
)

RECORD = next(
    r for r in parse_text((SAMPLES / "classic-2.ord").read_text("utf-8")) if isinstance(r, Record)
)
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
