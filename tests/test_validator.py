"""Validation of whole records: the samples, every family of error, never inventing."""

import re

import pytest
from strategies import SAMPLES

from ordonnance_notation import (
    InvalidRecord,
    Severity,
    TieBreak,
    parse_text,
    validate,
    validate_or_raise,
    validate_text,
)


def reports(name):
    path = SAMPLES / name
    return [validate(item) for item in parse_text(path.read_text("utf-8"), str(path))]


# file, record, seats, winner (P-number, None if unfinished), scores, tie-break
VALID = [
    ("classic-2.ord", 1, 2, 2, (1, 4), None),
    ("later-capture-3.ord", 1, 3, 2, (2, 2, 1), TieBreak.LATER_CAPTURE),
    ("points-4.ord", 1, 4, 2, (6, 11, 8, 5), None),
    ("points-tie-3.ord", 1, 3, 3, (12, 6, 12), TieBreak.MORE_STATES),
    ("no-deal.ord", 1, 3, 2, (0, 3, 2), None),
    ("annotated.ord", 1, 2, 2, (2, 3), None),
    ("club-evening.ord", 1, 2, 2, (2, 3), None),
    ("club-evening.ord", 2, 4, 3, (1, 1, 2, 1), None),
    ("club-evening.ord", 3, 3, None, None, None),
]


@pytest.mark.parametrize(("name", "index", "seats", "winner", "scores", "tie"), VALID)
def test_every_sample_is_a_valid_record(name, index, seats, winner, scores, tie):
    report = reports(name)[index - 1]
    assert report.valid, [d.message for d in report.diagnostics]
    assert report.count(Severity.ERROR) == 0
    assert len(report.names) == seats
    if winner is None:
        assert report.outcome is None and not report.game.over
        assert [d.code for d in report.diagnostics] == ["W501"]
    else:
        assert report.game.over and report.game.ply == 20 * seats
        assert report.outcome.winner == winner - 1
        assert report.outcome.scores == scores
        assert report.outcome.tie_break is tie


def test_the_three_seat_sample_is_decided_by_the_later_second_capture():
    [report] = reports("later-capture-3.ord")
    outcome = report.outcome
    assert outcome.tied == (0, 1)
    captures = {
        seat: sorted(r.marker for r in report.game.resolutions if r.winner == seat)
        for seat in (0, 1)
    }
    assert captures[1][1] > captures[0][1]  # P2's second capture carries the higher marker


def test_the_four_seat_sample_scores_points():
    [report] = reports("points-4.ord")
    assert report.record.tag("Scoring") == "points"
    assert sum(report.outcome.scores) == 5 * (3 + 2 + 1 + 0)


def test_the_annotated_sample_keeps_comments_and_glyphs():
    [report] = reports("annotated.ord")
    plays = report.record.plays
    assert [p.glyph.text for p in plays if p.glyph] == ["!", "?!", "!", "?", "!?", "??"]
    assert sum(len(p.comments) for p in plays) == 5
    assert len(report.record.comments) == 2


def test_the_club_evening_holds_three_records():
    assert [r.index for r in reports("club-evening.ord")] == [1, 2, 3]


# every invalid sample: (line, code) of each diagnostic, in order
INVALID = {
    "rules.ord": [
        (22, "E301"),
        (22, "N601"),
        (83, "E302"),
        (83, "N601"),
        (152, "E303"),
        (152, "N601"),
        (252, "E304"),
        (252, "N601"),
        (274, "E305"),
        (274, "N601"),
    ],
    "results.ord": [
        (40, "E401"),
        (105, "E402"),
        (164, "E403"),
        (232, "E404"),
        (263, "E410"),
        (316, "E410"),
        (379, "E411"),
        (379, "E411"),
        (389, "E412"),
        (442, "E412"),
        (505, "E410"),
        (505, "E414"),
        (507, "W501"),
        (515, "E413"),
        (543, "E413"),
    ],
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_samples_report_exactly_their_diagnostics(name):
    found = [(d.span.line, d.code) for r in reports(f"invalid/{name}") for d in r.diagnostics]
    assert found == INVALID[name]


@pytest.mark.parametrize("name", sorted(INVALID))
def test_messages_speak_plain_words_not_decision_labels(name):
    """rules.md numbers its decisions D1-D9 for the project; a newcomer reading
    a message cannot know them."""
    messages = [d.message for r in reports(f"invalid/{name}") for d in r.diagnostics]
    assert messages and not [m for m in messages if re.search(r"\bD[0-9]\b", m)]


def test_content_sample_covers_every_content_code():
    codes = {d.code for r in reports("invalid/content.ord") for d in r.diagnostics}
    assert {f"E2{n:02}" for n in range(1, 15)} <= codes


def test_syntax_sample_covers_every_syntax_code_and_keeps_the_good_record():
    items = reports("invalid/syntax.ord")
    assert [d.code for r in items for d in r.diagnostics if d.code.startswith("E")] == [
        "E103",
        "E101",
        "E101",
        "E100",
        "E104",
        "E102",
    ]
    assert [r.valid for r in items] == [False, False, False, False, True, False, False]


MINIMAL = '[P1 "Anna"]\n[P2 "Boris"]\n[Result "{result}"]\n{body}\n'


def record(body, result="unfinished"):
    [report] = validate_text(MINIMAL.format(result=result, body=body), "t.ord")
    return report


def test_never_invent_nothing_after_an_illegal_play_is_judged():
    # P1 plays a fifth unit to Antioch at ply 9. The declared resolution and the
    # result after it are not compared; only what the text itself gets wrong
    # (a malformed card, an unknown state) is still reported.
    body = (
        "\n".join(f"{i}. F A" if i % 2 else f"{i}. L C" for i in range(1, 9))
        + "\n9. F A\n10. HH Nowhere\n#1 A P2"
    )
    report = record(body, result="P2")
    codes = [d.code for d in report.diagnostics]
    assert codes == ["N602", "E303", "N601", "E201", "E202"]
    assert report.game.ply == 8 and report.outcome is None
    stop = report.diagnostics[2]
    assert stop.ply == 9 and "that ply and the play after it were not replayed" in stop.message
    assert not any(d.code.startswith("E4") for d in report.diagnostics)


def test_d6_an_unfinished_game_is_valid_when_declared_unfinished():
    report = record("1. F A\n2. L A")
    assert report.valid and report.outcome is None
    assert [d.code for d in report.diagnostics] == ["W501", "N602"]


def test_d6_an_unfinished_game_declared_won_is_invalid():
    report = record("1. F A\n2. L A", result="P1")
    assert [d.code for d in report.diagnostics if d.severity is Severity.ERROR] == ["E413"]


def test_declared_resolutions_may_come_later_than_the_resolving_play():
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    lines = text.split("\n")
    declared = [line for line in lines if line.startswith("#")]
    moved = [line for line in lines if not line.startswith("#") and not line.startswith("result")]
    moved_text = "\n".join(moved).rstrip() + "\n" + "\n".join(declared) + "\n"
    [report] = validate_text(moved_text, "t.ord")
    assert report.valid and len(declared) == 5


def test_a_record_without_seats_is_reported_not_replayed():
    [report] = validate_text("1. F A\n", "t.ord")
    assert [d.code for d in report.diagnostics] == ["E204", "N601"]
    assert report.game is None


def test_validate_or_raise_raises_with_every_error():
    [item] = parse_text(MINIMAL.format(result="P9", body="1. HH X"), "t.ord")
    with pytest.raises(InvalidRecord) as raised:
        validate_or_raise(item)
    assert [d.code for d in raised.value.diagnostics] == ["E206", "E201", "E202"]
    assert str(raised.value).startswith("t.ord:3:1: E206:")


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('[P0 "z"]\n[P1 "a"]\n[P2 "b"]', "P0 is not a seat: seats are named P1, P2, P3 and P4"),
        ('[P01 "z"]\n[P2 "b"]', "P01 is not a seat"),
        (
            '[P1 "a"]\n[P2 "b"]\n[P3 "c"]\n[P4 "d"]\n[P5 "e"]',
            "at most four seats play, but the header names 5",
        ),
        ('[P1 "a"]', "a record names at least two seats"),
    ],
)
def test_bad_seat_tags_are_reported_not_raised(header, message):
    [report] = validate_text(header + '\n[Result "unfinished"]\n1. F A\n', "t.ord")
    assert [d.code for d in report.diagnostics] == ["E204", "N601"]
    assert message in report.diagnostics[0].message


@pytest.mark.parametrize("table", ["3 \u00b2", "3 -1", "x", "", "4 3 2 1 0"])
def test_bad_points_tables_are_reported_not_raised(table):
    [report] = validate_text(
        f'[P1 "a"]\n[P2 "b"]\n[Scoring "points"]\n[Points "{table}"]\n[Result "unfinished"]\n',
        "t.ord",
    )
    assert [d.code for d in report.diagnostics if d.code.startswith("E")] == ["E205"]


def test_a_seat_written_p01_in_a_play_is_unknown():
    report = record("1. P01 F A")
    assert [d.code for d in report.diagnostics if d.code.startswith("E")] == ["E203"]


def test_a_play_after_the_end_still_lets_the_result_be_compared():
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    text = text.replace("result P2", "41. L A\nresult P1").replace('[Result "P2"]', '[Result "P1"]')
    [report] = validate_text(text, "t.ord")
    assert [d.code for d in report.diagnostics] == ["E410", "E304", "N601", "E410"]
    assert report.outcome is not None and report.outcome.winner == 1


def test_bad_words_in_declared_resolutions_are_reported_even_after_an_illegal_play():
    report = record("1. F A\n2. P1 L A\n#9 Acre P7\nresult P5")
    codes = [d.code for d in report.diagnostics if d.code.startswith("E")]
    assert codes == ["E301", "E213", "E202", "E203", "E214"]


def test_a_bad_scoring_rule_stops_the_result_from_being_compared():
    text = (
        (SAMPLES / "points-4.ord")
        .read_text("utf-8")
        .replace('[Scoring "points"]', '[Scoring "pointz"]')
    )
    [report] = validate_text(text, "t.ord")
    assert sorted(d.code for d in report.diagnostics) == ["E205", "N603"]
    assert report.outcome is None


def test_a_blank_line_inside_a_header_does_not_cut_the_record():
    """A header with a blank line inside is one record (it no longer splits
    one game into two invalid halves); a tag name that comes again below a
    blank line still starts another record."""
    text = '[Notation "1"]\n[Event "x"]\n\n[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n'
    [report] = validate_text(text, "t.ord")
    assert report.valid and report.names == ("A", "B")
    two = '[Event "x"]\n[P1 "A"]\n\n[Event "y"]\n[P1 "C"]\n'
    assert [r.index for r in validate_text(two, "t.ord")] == [1, 2]


def test_a_tag_line_among_the_plays_stays_in_its_record_and_is_out_of_place():
    text = '[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n1. L A\n[Round "2"]\n2. F A\n'
    [report] = validate_text(text, "t.ord")
    [error] = [d for d in report.diagnostics if d.code.startswith("E")]
    assert (error.code, error.span.line) == ("E209", 5)
    assert error.help == "move the tag up into the header, above the deal and the plays"


SHORT_DEAL = """[P1 "Anna"]
[P2 "Boris"]
[Result "unfinished"]

hand P1: LH F S BSF B
hand P2: SF LBSHF SH SH B
pile: SHF F LSH

1. LH J
2. F T
3. S J
"""


def test_d8_a_short_deal_is_valid_for_an_unfinished_game():
    [report] = validate_text(SHORT_DEAL, "t.ord")
    assert report.valid and report.game is not None and report.game.drawn == 3


def test_d8_a_play_past_a_short_pile_is_wrong_at_that_draw():
    text = SHORT_DEAL + "4. +LH LH E\n"
    [report] = validate_text(text, "t.ord")
    [error] = [d for d in report.diagnostics if d.code.startswith("E")]
    assert (error.code, error.span.line, error.ply) == ("E305", 12, 4)
    assert "add LH at the pile's end" in (error.help or "")
    [end] = error.related
    assert (end.span.line, end.message) == (7, "the pile ends here, after 3 cards")
    unwritten = SHORT_DEAL + "4. LH E\n"
    [report] = validate_text(unwritten, "t.ord")
    [error] = [d for d in report.diagnostics if d.code.startswith("E")]
    assert error.code == "E302" and "add the later draws to the pile" in (error.help or "")


def test_a_rule_error_points_at_the_place_of_the_deal_that_explains_it():
    reports = validate_text((SAMPLES / "invalid" / "rules.ord").read_text("utf-8"), "r.ord")
    first_errors = {d.code: d for r in reports for d in r.diagnostics if d.code in ("E302", "E305")}
    [dealt] = first_errors["E302"].related
    assert (dealt.message, dealt.span.line) == ("LBSHF: dealt to P2", 76)
    [drawn] = first_errors["E305"].related
    assert (drawn.message, drawn.span.line, drawn.span.column) == (
        "the pile's card 4, which ply 4 draws",
        267,
        17,
    )
