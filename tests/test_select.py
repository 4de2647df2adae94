"""``ordo select``: each test against what the records say, found another way
(the parsed tags, ``ordo validate --format json``)."""

from __future__ import annotations

import json

import pytest
from strategies import SAMPLES

from ordonnance_notation import Unparsed, parse_file
from ordonnance_notation.querying.select import Query, QueryError, read_date

ALL = sorted(str(p.relative_to(SAMPLES.parent)) for p in SAMPLES.rglob("*.ord"))
READABLE = [p for p in ALL if "encoding" not in p]  # one sample is Latin-1 on purpose


def _records(paths):
    """What validate says of each record: its players, winner, markers and validity."""
    found = []
    for path in paths:
        for item in parse_file(path):
            found.append(item)
    return found


def _readable(items):
    """The records whose elements could be read, in part at least."""
    for item in items:
        record = item.partial if isinstance(item, Unparsed) else item
        if record is not None:
            yield record


def _verdicts(ordo, paths):
    return json.loads(ordo("validate", "--format", "json", *paths).stdout)["records"]


def _count(ordo, *args):
    result = ordo("select", "--count", *args)
    assert result.exit_code == 0, result.output
    return int(result.output)


def test_a_player_in_any_seat_whatever_the_case(ordo):
    expected = sum(
        1
        for record in _readable(_records(READABLE))
        if any((record.tag(s) or "").lower().startswith("chloé") for s in ("P1", "P2", "P3", "P4"))
    )
    assert expected >= 3
    assert _count(ordo, "--player", "CHLOÉ*", *READABLE) == expected
    assert _count(ordo, "--player", "Martin", *READABLE) == 0  # a pattern matches whole names


def test_the_winner_and_the_states_won_agree_with_validate(ordo):
    verdicts = _verdicts(ordo, READABLE)
    p2_wins = sum(1 for v in verdicts if v["winner"] == "P2")
    assert p2_wins and _count(ordo, "--winner", "P2", *READABLE) == p2_wins
    jerusalem_to_p1 = sum(
        1 for v in verdicts if any(m["state"] == "J" and m["seat"] == "P1" for m in v["markers"])
    )
    assert _count(ordo, "--won", "P1:Jerusalem", *READABLE) == jerusalem_to_p1
    by_name = sum(
        1
        for v in verdicts
        if any(
            m["state"] == "J" and v["players"][int(m["seat"][1]) - 1] == "Boris Lind"
            for m in v["markers"]
        )
    )
    assert by_name and _count(ordo, "--won", "boris*:j", *READABLE) == by_name


def test_valid_and_invalid_split_the_records(ordo):
    verdicts = _verdicts(ordo, READABLE)
    invalid = sum(1 for v in verdicts if not v["valid"])
    assert _count(ordo, "--invalid", *READABLE) == invalid
    assert _count(ordo, "--valid", *READABLE) == len(verdicts) - invalid


def test_invert_gives_the_rest(ordo):
    total = _count(ordo, *READABLE)
    chosen = _count(ordo, "--seats", "2", *READABLE)
    assert 0 < chosen < total
    assert _count(ordo, "--seats", "2", "--invert", *READABLE) == total - chosen


def test_records_come_out_as_written_comments_and_all(ordo):
    text = (SAMPLES / "annotated.ord").read_text("utf-8")
    result = ordo("select", "samples/annotated.ord")
    assert result.exit_code == 0
    assert result.output == text.strip("\n") + "\n"
    assert "{" in result.output  # the sample's comments are there


def test_records_of_several_files_are_parted_by_a_blank_line(ordo):
    chosen = ("samples/classic-2.ord", "samples/points-4.ord", "samples/club-evening.ord")
    result = ordo("select", "--tag", "Event=*club*", *chosen)
    first = (SAMPLES / "classic-2.ord").read_text("utf-8").strip("\n")
    # points-4 is an Autumn cup; club-evening opens with a comment, which stays
    assert result.output.startswith(first + "\n\n; Lyon club night")


def test_tags_by_pattern_or_presence(ordo):
    with_site = sum(1 for r in _readable(_records(["samples/club-evening.ord"])) if r.tag("Site"))
    assert _count(ordo, "--tag", "Site", "samples/club-evening.ord") == with_site
    assert _count(ordo, "--tag", "Round=[12]", "samples/club-evening.ord") == sum(
        1 for r in _readable(_records(["samples/club-evening.ord"])) if r.tag("Round") in ("1", "2")
    )


def test_dates_in_a_range():
    assert read_date("2026.11.27") == (2026, 11, 27)
    assert read_date("2026-11-27") == (2026, 11, 27)
    assert read_date("2026.11.??") == (2026, 11)
    assert read_date("2026.??.??") == (2026,)
    assert read_date("last Tuesday") is None
    november = Query.of(since="2026.11.01", until="2026.11.30")
    [record] = parse_file(SAMPLES / "classic-2.ord")
    assert november.passes(record)  # dated 2026.11.20
    assert not Query.of(since="2026.11.21").passes(record)
    # a record dated only by its month lies within a range only if the whole month does
    from ordonnance_notation.querying.select import _within

    assert _within((2026, 11), (2026, 11, 1), (2026, 11, 30))
    assert not _within((2026, 11), (2026, 11, 2), None)


def test_a_day_range_on_the_samples(ordo):
    dated = [r.tag("Date") for r in _readable(_records(READABLE)) if r.tag("Date")]
    expected = sum(1 for d in dated if "2026.11.20" <= d <= "2026.11.26")
    assert expected
    assert _count(ordo, "--since", "2026.11.20", "--until", "2026-11-26", *READABLE) == expected


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--won", "Acre"], "'Acre' is no state"),
        (["--since", "2026.11"], "write a day as 2026.11.27"),
        (["--tag", "=x"], "write NAME=PATTERN"),
        (["--seats", "5"], "5"),
    ],
)
def test_a_test_that_cannot_be_read_is_a_usage_error(ordo, args, message):
    result = ordo("select", *args, "samples/classic-2.ord")
    assert result.exit_code == 2
    assert message in result.output


def test_query_errors_are_values():
    with pytest.raises(QueryError):
        Query.of(won=["P2:"])


def test_standard_input_and_an_output_file(ordo, tmp_path):
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    assert ordo("select", "--winner", "P2", "-", input=text).output == text.strip("\n") + "\n"
    out = tmp_path / "chosen.ord"
    out.write_text("keep", "utf-8")
    refused = ordo("select", "samples/classic-2.ord", "-o", str(out))
    assert refused.exit_code == 2 and "already exists" in refused.output
    assert out.read_text("utf-8") == "keep"
    assert ordo("select", "samples/classic-2.ord", "-o", str(out), "--force").exit_code == 0
    assert ordo("validate", str(out)).exit_code == 0


def test_an_unreadable_input_is_said_in_its_place(ordo):
    result = ordo("select", "--count", "samples/invalid/encoding.ord", "samples/classic-2.ord")
    assert result.exit_code == 1
    assert "E002" in result.output and result.output.rstrip().endswith("1")
    assert ordo("select", "nowhere.ord").exit_code == 2


@pytest.mark.slow  # hundreds of records played, then read on one and on two processes
def test_the_same_records_on_two_processes(ordo, tmp_path):
    archive = tmp_path / "a.ord"
    ordo("play", "--players", "3", "--games", "300", "--seed", "s", "-o", str(archive))
    one = ordo("select", "--won", "P3:J", "--jobs", "1", str(archive))
    two = ordo("select", "--won", "P3:J", "--jobs", "2", str(archive))
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output and one.output.count("[Notation") > 10
