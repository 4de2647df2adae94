"""The notation: splitting files into records, elements and spans, syntax diagnostics."""

from importlib.resources import files

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import examples

from ordonnance_notation.notation.cutting import split_records
from ordonnance_notation.notation.parser import parse_text
from ordonnance_notation.notation.record import (
    Declared,
    Hand,
    Pile,
    Play,
    Record,
    ResultLine,
    Span,
    Tag,
    Unparsed,
)

RECORD = """; before the header
[Event "Club \\"night\\""]
[P1 "Anna"]
[P2 "Boris"]
[Result "unfinished"]

hand P1: HF L S B F
hand P2: L L L L L
pile: F
      S

1. P1 +F FH A !? {a comment
spanning lines}
2. L Antioch ; to the end of the line
#1 J P2
result unfinished P1:0
"""


def only(text):
    [item] = list(parse_text(text, "t.ord"))
    return item


def test_the_grammar_is_installed_with_the_package():
    assert (files("ordonnance_notation.grammar") / "ordonnance.lark").is_file()


def test_elements_in_source_order_with_their_words():
    record = only(RECORD)
    assert isinstance(record, Record)
    kinds = [type(e) for e in record.elements]
    assert kinds == [Tag, Tag, Tag, Tag, Hand, Hand, Pile, Play, Play, Declared, ResultLine]
    assert record.tag("Event") == 'Club "night"'
    hand = record.elements[4]
    assert hand.seat.text == "P1" and [w.text for w in hand.cards] == ["HF", "L", "S", "B", "F"]
    assert [w.text for w in record.elements[6].cards] == ["F", "S"]
    play = record.plays[0]
    assert (
        play.number.text,
        play.seat.text,
        play.drawn.text,
        play.card.text,
        play.state.text,
        play.glyph.text,
    ) == (
        "1.",
        "P1",
        "+F",
        "FH",
        "A",
        "!?",
    )
    assert record.plays[1].seat is None and record.plays[1].glyph is None
    declared = record.elements[9]
    assert (declared.marker.text, declared.state.text, declared.seat.text) == ("#1", "J", "P2")
    result = record.elements[10]
    assert result.outcome.text == "unfinished"
    assert [(s.seat.text, s.value.text) for s in result.scores] == [("P1", "0")]


def test_spans_are_file_lines_and_columns():
    record = only(RECORD)
    play = record.plays[0]
    assert play.card.span == Span(12, 10, 12, 12)
    assert play.span.line == 12 and play.span.column == 1
    assert record.elements[0].span == Span(2, 1, 2, 25)


def test_comments_stay_with_the_element_they_follow():
    record = only(RECORD)
    assert [c.text for c in record.comments] == ["before the header"]
    first, second = record.plays
    assert [(c.text, c.braced) for c in first.comments] == [("a comment\nspanning lines", True)]
    assert [(c.text, c.braced) for c in second.comments] == [("to the end of the line", False)]
    assert first.comments[0].span.line == 12 and first.comments[0].span.end_line == 13


def test_every_glyph():
    text = '[P1 "a"]\n[P2 "b"]\n' + "\n".join(
        f"{i}. F A {g}" for i, g in enumerate(["!", "?", "!!", "??", "!?", "?!"], 1)
    )
    assert [p.glyph.text for p in only(text).plays] == ["!", "?", "!!", "??", "!?", "?!"]


def test_glyph_may_touch_the_state():
    assert only('[P1 "a"]\n1. HF A!?').plays[0].glyph.text == "!?"


MULTI = """[Event "one"]
1. F A

[Event "two"]
[Round "2"]

[Event "three"]
; comment right above a header opens that record
[Round "3"]
1. L C
; comment right above a header
[Event "four"]
{ a braced comment holding a header line
[Event "not a record"]
}
1. F A
"""


def test_a_file_splits_into_records_at_headers():
    items = list(parse_text(MULTI, "m.ord"))
    assert [item.index for item in items] == [1, 2, 3, 4]
    assert [item.tag("Event") for item in items] == ["one", "two", "three", "four"]
    assert [item.span.line for item in items] == [1, 4, 7, 11]
    assert [c.text for c in items[3].comments] == ["comment right above a header"]
    assert "not a record" in items[3].tag_elements[0].comments[0].text


def test_split_keeps_every_line():
    chunks = list(split_records(MULTI))
    assert "\n".join(text for _, text in chunks) == MULTI
    assert [first for first, _ in chunks] == [1, 4, 7, 11]


SYNTAX = [
    ('[P1 "a"\n[P2 "b"]', "E103", (1, 1), "tag opened here is not closed with ']'"),
    ('[P1 "a]\n', "E103", (1, 5), "quoted value opened here is never closed"),
    ('[P1 "a"]\n1. F A {open', "E102", (2, 8), "comment opened here is never closed with '}'"),
    (
        '[P1 "a"]\n1. F @',
        "E100",
        (2, 6),
        "unexpected character '@'; expected a state like A or Antioch",
    ),
    ('[P1 "a"]\n1. F\n2. L C', "E101", (2, 4), "play 1. gives the card F but no state"),
    ('[P1 "a"]\n1 F A', "E101", (2, 1), "ply number 1 lacks its dot"),
    (
        '[P1 "a"]\nresult',
        "E104",
        (2, 7),
        "the result line ends too early; expected the winner's seat, 'unfinished' or 'shared'",
    ),
]


@pytest.mark.parametrize(("text", "code", "where", "message"), SYNTAX)
def test_syntax_errors_are_located_and_worded_for_people(text, code, where, message):
    item = only(text)
    assert isinstance(item, Unparsed)
    [diagnostic] = item.diagnostics
    assert diagnostic.code == code
    assert (diagnostic.span.line, diagnostic.span.column) == where
    assert message in diagnostic.message
    assert "CARD" not in diagnostic.message and "LSQB" not in diagnostic.message


def test_a_broken_record_does_not_hide_the_next_one():
    text = '[P1 "a"]\n1. F\n\n[P1 "b"]\n[P2 "c"]\n1. F A\n'
    broken, good = parse_text(text, "t.ord")
    assert isinstance(broken, Unparsed) and broken.diagnostics[0].span.line == 4 - 2
    assert isinstance(good, Record) and good.tag("P1") == "b"
    assert good.plays[0].span.line == 6


def test_semicolons_and_braces_inside_comments_and_values_do_not_split():
    text = (
        '[Event "a; b {c"]\n[P1 "x"]\n1. HF A {note; more}\n'
        '[Event "two"]\n1. F A ; {not a brace comment\n'
        '{ a comment\nover lines }\n[Event "three"]\n'
    )
    assert [item.tag("Event") for item in parse_text(text, "t.ord")] == ["a; b {c", "two", "three"]


def test_a_multi_line_comment_before_the_first_header_is_not_a_record():
    [record] = parse_text('{ Club archive,\n  autumn }\n[Event "one"]\n1. F A\n', "t.ord")
    assert record.tag("Event") == "one"
    assert record.comments[0].text == "Club archive,\n  autumn"


def test_an_empty_text_holds_no_record():
    assert list(parse_text("", "e.ord")) == []
    assert list(parse_text("\n \n\t\n", "e.ord")) == []
    assert list(parse_text("; only a comment\n{ and another }\n", "e.ord")) == []


NOTATION_CHARACTERS = st.sampled_from(
    list('[]"PLBSHFACJET0123456789.#+:!?{}; \n\tresultandpile')
    + ["hand", "pile", "result", "P1", "12."]
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(NOTATION_CHARACTERS, max_size=60).map("".join))
def test_any_text_parses_to_records_or_located_diagnostics(text):
    for item in parse_text(text, "fuzz.ord"):
        if isinstance(item, Unparsed):
            assert item.diagnostics and all(d.span is not None for d in item.diagnostics)


def test_an_unclosed_comment_does_not_swallow_the_next_record():
    text = '[P1 "a"]\n1. F A {forgot to close\n2. L A\n[Event "next"]\n[P1 "b"]\n1. F A\n'
    broken, good = parse_text(text, "t.ord")
    assert isinstance(broken, Unparsed) and broken.diagnostics[0].code == "E102"
    assert (broken.diagnostics[0].span.line, broken.diagnostics[0].span.column) == (2, 8)
    assert isinstance(good, Record) and good.tag("Event") == "next"


@pytest.mark.parametrize(
    "body", ["9" * 5000 + ". F A", "1. F A\n#" + "9" * 5000 + " A P1", "result P1 P1:" + "9" * 5000]
)
def test_numbers_of_thousands_of_digits_are_a_syntax_error_not_a_crash(body):
    item = only('[P1 "a"]\n[P2 "b"]\n' + body)
    assert isinstance(item, Unparsed)
    assert "number too long" in item.diagnostics[0].message


HEADERS_ONLY = """[Event "Club"]
[P1 "Anna"]
[P2 "Boris"]
[Result "unfinished"]
1. F T

[Event "Club"]
[P1 "Chloe"]
[P2 "Dmitri"]
[Result "unfinished"]

[Event "Club"]
[Round "3"]
1. F T
"""


def test_a_header_only_record_is_cut_from_the_next_when_a_tag_name_comes_again():
    """The names read before a seat tag belong to the new header: the Event
    of the third header repeats the second's, so a record starts there."""
    assert [first for first, _ in split_records(HEADERS_ONLY)] == [1, 7, 12]


def test_a_lone_tag_line_before_a_declaration_or_the_result_line_stays_in_its_record():
    head = '[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n1. F A\n[Round "2"]\n'
    for tail in ("result unfinished\n", "#1 A P1\n", "2. L A\n"):
        assert [first for first, _ in split_records(head + tail)] == [1], tail
    assert [first for first, _ in split_records(head + "1. L A\n")] == [1, 5]


def test_a_records_tags_are_a_mapping_and_the_first_of_a_name_counts():
    text = '[Event "Club night"]\n[Round "2"]\n[Event "again"]\n1. L A\n'
    [record] = parse_text(text, "t.ord")
    assert record.tags == {"Event": "Club night", "Round": "2"}
    assert list(record.tags) == ["Event", "Round"] and record.tag("Event") == "Club night"
    assert [t.value for t in record.tag_elements] == ["Club night", "2", "again"]
