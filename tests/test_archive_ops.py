"""The archive operations of issue 29 in ``ordo select`` and ``ordo explore``:
each test against what the rules engine and the validator say, found
another way; each edit against the text it must leave as it was."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from strategies import SAMPLES

from ordonnance_notation import parse_file, parse_text, validate
from ordonnance_notation.checking.quick import replayed_block
from ordonnance_notation.checking.replayed import Replayed
from ordonnance_notation.engine.armies import Level
from ordonnance_notation.engine.cards import Icon, State, seat_name
from ordonnance_notation.engine.game import Game
from ordonnance_notation.notation.games import PLAY_WORDS, game_text
from ordonnance_notation.notation.parser import parse_record
from ordonnance_notation.notation.record import Play, Record
from ordonnance_notation.querying.content import Content
from ordonnance_notation.querying.edits import Edits, _edited, tag_value
from ordonnance_notation.querying.select import Query
from ordonnance_notation.views.analysis import analysis_of

READABLE = sorted(
    str(p.relative_to(SAMPLES.parent)) for p in SAMPLES.rglob("*.ord") if "encoding" not in p.name
)


def _reports(paths):
    return [(item, validate(item)) for path in paths for item in parse_file(path)]


def _count(ordo, *args):
    result = ordo("select", "--count", *args)
    assert result.exit_code == 0, result.output
    return int(result.output)


def _plays(report):
    return [(t.seat, t.card, t.state) for t in report.turns]


def test_plies_and_finished_games_as_the_records_write_and_the_rules_end_them(ordo):
    games = [
        (item if isinstance(item, Record) else item.partial, report)
        for item, report in _reports(READABLE)
        if report.game is not None  # no game (a header that cannot be read): no test passes
    ]
    lengths = [sum(type(e) is Play for e in record.elements) for record, _ in games]
    over = [report.game.over for _, report in games]
    assert 0 < sum(30 <= n <= 40 for n in lengths) < len(lengths)
    assert _count(ordo, "--plies", "30..40", *READABLE) == sum(30 <= n <= 40 for n in lengths)
    assert _count(ordo, "--plies", "..10", *READABLE) == sum(n <= 10 for n in lengths)
    assert _count(ordo, "--plies", "40", *READABLE) == lengths.count(40)
    assert 0 < sum(over) < len(over)
    assert _count(ordo, "--finished", *READABLE) == sum(over)
    assert _count(ordo, "--unfinished", *READABLE) == len(over) - sum(over)


def test_a_play_pattern_at_any_ply_or_within_plies(ordo):
    reports = [r for _, r in _reports(READABLE)]
    by_p1_to_j = sum(any(s == 0 and st is State.J for s, _, st in _plays(r)) for r in reports)
    early = sum(any(s == 0 and st is State.J for s, _, st in _plays(r)[:5]) for r in reports)
    assert 0 < early < by_p1_to_j
    assert _count(ordo, "--play", "P1 * J", *READABLE) == by_p1_to_j
    assert _count(ordo, "--play", "P1 * J", "--at", "1-5", *READABLE) == early
    lances = sum(any(str(c) == "LS" and s == 1 for s, c, _ in _plays(r)) for r in reports)
    assert lances and _count(ordo, "--play", "P2 SL *", *READABLE) == lances  # letters in any order


def _army_after(report, ply, seat, state, level):
    game = Game.new(report.game.seats)
    for turn in report.turns[:ply]:
        game, _ = game.play(turn.card, turn.state)
    return game.army(state, seat).formations.at(level)


def test_an_army_after_a_ply_as_the_engine_builds_it(ordo):
    reports = [r for _, r in _reports(READABLE) if r.game is not None]
    at_end = sum(bool(_army_after(r, len(r.turns), 1, State.J, Level.BATTALION)) for r in reports)
    at_20 = sum(
        len(r.turns) >= 20 and bool(_army_after(r, 20, 1, State.J, Level.BATTALION))
        for r in reports
    )
    assert at_end and at_20 != at_end
    assert _count(ordo, "--army", "P2 J battalion", *READABLE) == at_end
    assert _count(ordo, "--army", "P2 Jerusalem battalions", "--at", "20", *READABLE) == at_20
    swords = sum(
        any(
            Icon.S in _army_after(r, n, 0, State.A, Level.BATTALION)
            for n in range(15, min(18, len(r.turns)) + 1)
        )
        for r in reports
    )
    assert (
        swords and _count(ordo, "--army", "P1 A battalion S", "--at", "15..18", *READABLE) == swords
    )


def test_decided_by_the_ply_the_analysis_names(ordo):
    reports = [r for _, r in _reports(READABLE) if r.game is not None]
    decided = [a.decided for a in map(analysis_of, reports) if a is not None]
    cut = sorted(d for d in decided if d is not None)[len([d for d in decided if d]) // 2]
    expected = sum(d is not None and d <= cut for d in decided)
    assert 0 < expected < len(reports)
    assert _count(ordo, "--decided-by", str(cut), *READABLE) == expected


@pytest.mark.parametrize(
    "content",
    [
        Content.of(plies="40", finished=True, plays=["* * J"]),
        Content.of(plays=["P1 * J"], at="1-9"),
        Content.of(plays=["* F *", "P2 * A"]),
        Content.of(armies=["* A battalion"], at="25.."),
        Content.of(armies=["P1 J company L"]),
        Content.of(decided_by=30),
        Content.of(decided_by=35),
    ],
)
def test_the_compiled_core_and_the_validator_answer_alike(played, content):
    text = Path(played("none")).read_text("utf-8")
    found = replayed_block(1, text, decided_by=content.decided_by)
    if found is None:
        pytest.skip("no compiled core here (ORDO_PURE_PYTHON, or built without a compiler)")
    query = Query(content=content)
    accepted = [item for item in found if isinstance(item, Replayed)]
    assert len(accepted) == 200
    compiled = [query.passes_replayed(item) for item in accepted]
    python = [query.passes(parse_record(item.text, 1, "t", 1)) for item in accepted]
    assert compiled == python and sum(python) > 0
    assert sum(python) < 200 or content.plies is not None  # every game here has 40 plies


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_core_says_when_the_game_was_decided_as_the_analysis_does(ordo, tmp_path, seats):
    """``--decided-by N`` analyses no further than ply N, nor past the ply
    the game was decided, nor finds the plays that lost it: the ply it
    finds is the whole analysis's, when that is N or earlier."""
    archive = tmp_path / "played.ord"
    made = ordo("play", "-n", "60", "--players", str(seats), "--seed", "7", "-o", str(archive))
    assert made.exit_code == 0, made.output
    text = archive.read_text("utf-8")
    whole = {item.first_line: item.decided for item in _pages(text, None, analysed=True)}
    assert sum(d is not None for d in whole.values()) > 30
    for through in (0, 8, 20, 33, 200):
        found = {item.first_line: item.decided for item in _pages(text, through)}
        assert found == {
            line: d if d is not None and d <= through else None for line, d in whole.items()
        }


def test_decided_by_a_ply_beyond_any_game(ordo):
    """Every game decided is decided by then: no overflow on the way to the core."""
    reports = [r for _, r in _reports(READABLE) if r.game is not None]
    decided = [a.decided for a in map(analysis_of, reports) if a is not None]
    expected = sum(d is not None for d in decided)
    assert expected > 0 and _count(ordo, "--decided-by", str(1 << 40), *READABLE) == expected


def _pages(text, through, analysed=False):
    found = (
        replayed_block(1, text, analysed) if analysed else replayed_block(1, text, False, through)
    )
    if found is None:
        pytest.skip("no compiled core here (ORDO_PURE_PYTHON, or built without a compiler)")
    assert all(isinstance(item, Replayed) for item in found)
    return found


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--plies", "30..x"], "write plies as"),
        (["--play", "P1 J"], "'P1' is no card"),
        (["--play", "P1 * J X"], "write [WHO] CARD STATE"),
        (["--army", "P1 J legion"], "FORMATION one of"),
        (["--army", "P1 Q regiment"], "'Q' is no state"),
        (["--set-tag", "Event"], "write NAME=VALUE"),
        (["--drop-tag", "1x"], "a tag's name"),
        (["--renumber", "a b"], "a tag's name"),
    ],
)
def test_a_test_or_edit_that_cannot_be_read_is_a_usage_error(ordo, args, message):
    result = ordo("select", *args, "samples/classic-2.ord")
    assert result.exit_code == 2
    assert message in result.output


ANNOTATED = (SAMPLES / "annotated.ord").read_text("utf-8").strip() + "\n"


def _record(text):
    (record,) = parse_text(text, "t")
    return record


def test_stripping_comments_and_glyphs_leaves_the_game_and_every_other_line():
    record = _record(ANNOTATED)
    assert record.comments and any(type(e) is Play and e.glyph for e in record.elements)
    stripped = Edits.of(strip_comments=True, strip_glyphs=True).made(ANNOTATED)
    bare = _record(stripped)
    assert not bare.comments and not any(e.comments for e in bare.elements)
    assert not any(type(e) is Play and e.glyph for e in bare.elements)
    assert game_text(bare) == game_text(record)
    assert [d.code for d in validate(bare).diagnostics] == [
        d.code for d in validate(record).diagnostics
    ]
    kept = [line for line in ANNOTATED.splitlines() if not any(c in line for c in "{;!?")]
    assert [line for line in stripped.splitlines() if line in kept] == kept


def test_a_comment_between_two_words_keeps_them_apart():
    assert Edits.of(strip_comments=True).made("1. LB{x}J\n") == "1. LB J\n"
    assert Edits.of(strip_glyphs=True).made('[Date "2026.11.??"]\n1. LB J !? {a!}\n') == (
        '[Date "2026.11.??"]\n1. LB J {a!}\n'
    )


def test_tags_are_set_dropped_and_numbered_and_nothing_else_changes():
    lines = ANNOTATED.splitlines()
    edited = Edits.of(['event=Lyon "open"', "Round=3"], ["ANNOTATOR"]).made(ANNOTATED).splitlines()
    at = lines.index('[Event "Teaching game"]')
    assert edited[at] == '[Event "Lyon \\"open\\""]'  # the record's spelling of the name kept
    assert '[Annotator "Lena Ruiz"]' not in edited
    # where ordo fmt puts it (issue 47 item 20): after Event, before Table
    assert edited.index('[Round "3"]') + 1 == edited.index('[Table "3"]')
    assert [x for x in edited if x not in ('[Round "3"]', '[Event "Lyon \\"open\\""]')] == [
        x for x in lines if x not in ('[Event "Teaching game"]', '[Annotator "Lena Ruiz"]')
    ]
    assert tag_value(Edits.of(number_tag="Game").numbered(ANNOTATED, 7), "game") == "7"
    assert Edits().made(ANNOTATED) == ANNOTATED
    commented = '{[Event "x"]\n}\n[Event "y"] ; [Event "z"]\n1. S E\n[Event "w"]\n'
    assert Edits.of(["Event=v"]).made(commented) == commented.replace('"y"', '"v"')


def test_select_writes_the_edits_and_numbers_in_output_order(ordo):
    result = ordo("select", "--seats", "2", "--renumber", "Round", "--strip-comments", *READABLE)
    assert result.exit_code == 0
    numbers = [tag_value(chunk.text, "Round") for chunk in _chunks(result.output)]
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)] and len(numbers) > 20
    records = [r for r in parse_text(result.output, "out") if isinstance(r, Record)]
    assert records and not any(r.comments for r in records)


@pytest.mark.parametrize("careful", [False, True])
def test_a_tag_added_goes_where_fmt_puts_it(careful):
    header = '[Event "e"]\n[P1 "a"]\n[P2 "b"]\n[Result "P1"]\n[Mood "calm"]\n'
    setting = {n.casefold(): (n, "1") for n in ("Table", "Round", "Notation", "Zeal")}
    edited = _edited(header + "1. S E\n", setting, frozenset(), False, False, careful)
    assert [line.split()[0][1:] for line in edited.splitlines()[:-1]] == [
        "Notation",
        "Event",
        "Round",
        "Table",
        "P1",
        "P2",
        "Result",
        "Mood",
        "Zeal",
    ]
    assert _edited("1. S E\n", {"round": ("Round", "2")}, frozenset(), False, False, careful) == (
        '[Round "2"]\n1. S E\n'
    )


def test_what_select_writes_fmt_accepts(ordo, tmp_path):
    """The ordo-fmt pre-commit hook failed on what select --renumber wrote."""
    out = tmp_path / "numbered.ord"
    result = ordo(
        "select",
        "--renumber",
        "Round",
        "--set-tag",
        "Site=Lyon",
        "-o",
        str(out),
        "samples/classic-2.ord",
        "samples/annotated.ord",
    )
    assert result.exit_code == 0, result.output
    checked = ordo("fmt", "--check", str(out))
    assert checked.exit_code == 0, checked.output


@pytest.mark.parametrize(
    "args",
    [
        ["--set-tag", "Event=new\nline"],
        ["--set-tag", "Event=a\rb"],
        ["--renumber", "Result"],
        ["--renumber", "notation"],
    ],
    ids=["line-break", "return", "renumber-result", "renumber-notation"],
)
def test_an_edit_that_would_break_a_record_is_a_usage_error(ordo, args):
    """select wrote such records with exit 0: a line break cut the tag in two,
    a number made the Result invalid (the re-probe of issue 47)."""
    result = ordo("select", *args, "samples/classic-2.ord")
    assert result.exit_code == 2, result.output
    assert args[0] in result.output and result.stdout == ""
    kept = ordo("select", "--set-tag", 'Event=say "hi" \\o/', "samples/classic-2.ord")
    assert kept.exit_code == 0 and tag_value(kept.stdout, "Event") == 'say "hi" \\o/'


def test_split_by_a_tag_and_every_n_records(ordo, tmp_path):
    whole = ordo("select", *READABLE).output
    by_event = tmp_path / "by-event"
    assert ordo("select", *READABLE, "--split-by", "event", "-o", str(by_event)).exit_code == 0
    events = Counter(tag_value(r.text, "Event") for r in _chunks(whole))
    assert sorted(p.name for p in by_event.iterdir()) == sorted(
        f"{e}.ord" if e is not None else "(no event).ord" for e in events
    )
    for path in by_event.iterdir():
        assert (
            len(list(parse_file(path)))
            == events[None if path.name == "(no event).ord" else path.stem]
        )
    every = tmp_path / "every"
    assert ordo("select", *READABLE, "--split-every", "4", "-o", str(every)).exit_code == 0
    parts = sorted(every.iterdir(), key=lambda p: int(p.stem))
    texts = [p.read_text("utf-8") for p in parts]
    assert "\n".join(texts) == whole and [len(list(parse_text(t, "x"))) for t in texts[:-1]] == [
        4
    ] * (len(texts) - 1)
    again = ordo("select", *READABLE, "--split-every", "4", "-o", str(every))
    assert again.exit_code == 2 and "already exists" in again.output
    assert [p.read_text("utf-8") for p in parts] == texts
    assert ordo("select", *READABLE, "--split-every", "4").exit_code == 2  # a folder is needed


def _chunks(text):
    from ordonnance_notation.notation.cutting import split_records

    class Chunk:
        def __init__(self, text):
            self.text = text

    return [Chunk(t) for _, t in split_records(text) if t.strip()]


def test_split_names_are_safe_and_distinct():
    from ordonnance_notation.cli.splitting import Parts

    parts = Parts("Event")
    assert parts.name("../etc/passwd") == "_etc_passwd"
    assert parts.name("Lyon") == "Lyon" and parts.name("lyon") == "lyon (2)"
    assert parts.name("a/b") == "a_b" and parts.name("a_b") == "a_b (2)"
    assert parts.name(None) == "(no Event)" and parts.name("") == "_"


def test_explore_counts_each_first_play_and_its_seats_wins(ordo, played):
    archive = played("none")
    reports = [validate(item) for item in parse_file(archive)]
    first = Counter(PLAY_WORDS[r.turns[0].card, r.turns[0].state] for r in reports)
    won = Counter(
        PLAY_WORDS[r.turns[0].card, r.turns[0].state] for r in reports if r.outcome.winner == 0
    )
    result = ordo("explore", archive, "--format", "json")
    assert result.exit_code == 0, result.output
    (table,) = json.loads(result.output)["tables"]
    assert table["games"] == 200 and table["seats"] == 2
    assert {p["play"]: p["games"] for p in table["plays"]} == first
    assert {p["play"]: p["won"] for p in table["plays"] if p["won"]} == +won
    assert [p["games"] for p in table["plays"]] == sorted(first.values(), reverse=True)
    opening = table["plays"][0]["play"]
    after = json.loads(
        ordo("explore", archive, "--after", opening, "-n", "2", "--format", "json").output
    )
    (table,) = after["tables"]
    assert table["games"] == first[opening] and after["opening"] == [opening]
    seconds = Counter(
        PLAY_WORDS[r.turns[1].card, r.turns[1].state]
        for r in reports
        if PLAY_WORDS[r.turns[0].card, r.turns[0].state] == opening
    )
    assert {p["play"]: p["games"] for p in table["plays"]} == seconds
    assert all(p["ply"] == 2 and p["seat"] == seat_name(1) for p in table["plays"])
    assert sum(sum(n["games"] for n in p["next"]) for p in table["plays"]) == first[opening]
    text = ordo("explore", archive, "--after", f"1. {opening}").output
    assert text.startswith(f"2 seats: {first[opening]} games after 1. {opening}")


def test_explore_leaves_out_invalid_records_and_reads_bad_openings_as_usage_errors(ordo):
    result = ordo("explore", *READABLE)
    assert result.exit_code == 0 and "invalid records left out" in result.output
    assert "2 seats:" in result.output and "3 seats:" in result.output
    bad = ordo("explore", "samples/classic-2.ord", "--after", "LS")
    assert bad.exit_code == 2 and "write each play as CARD STATE" in bad.output


def test_standard_input_and_two_processes_give_the_same_output(ordo, played):
    archive = played("none")
    text = Path(archive).read_text("utf-8")
    edits = ["--strip-glyphs", "--set-tag", "Event=x", "--renumber", "Round", "--play", "* LB J"]
    one = ordo("select", archive, *edits, "--jobs", "1")
    two = ordo("select", archive, *edits, "--jobs", "2")
    piped = ordo("select", "-", *edits, input=text)
    assert one.exit_code == two.exit_code == piped.exit_code == 0
    assert one.stdout == two.stdout == piped.stdout and one.stdout.count('[Event "x"]') > 10
    explored = ordo("explore", archive, "-n", "2", "--jobs", "2").stdout
    assert explored == ordo("explore", "-", "-n", "2", input=text).stdout
    assert explored.startswith("2 seats: 200 games, 200 finished")


@pytest.mark.parametrize(
    ("setting", "dropping"),
    [
        ({"event": ("Event", "x")}, frozenset()),
        ({"round": ("Round", "1")}, frozenset({"p2", "date"})),
        ({"game": ("Game", "7"), "p1": ("p1", 'a "b"')}, frozenset({"notation"})),
        ({}, frozenset({"event", "result"})),
    ],
)
def test_the_quick_way_with_a_plain_header_is_the_careful_way(played, setting, dropping):
    from ordonnance_notation.notation.cutting import split_records
    from ordonnance_notation.querying.edits import _edited

    texts = [Path(path).read_text("utf-8") for path in [*READABLE, played("none")]]
    odd = '  [Event "x"]   \n[Round "1"]\t\n\n hand P1: F\n[Date "?"] [Site "y"]\n1. F A\n'
    records = [chunk for text in [*texts, odd] for _, chunk in split_records(text) if chunk.strip()]
    assert len(records) > 240
    for record in records:
        assert _edited(record, setting, dropping, False, False) == _edited(
            record, setting, dropping, False, False, careful=True
        ), record
