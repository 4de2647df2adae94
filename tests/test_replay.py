"""ordo replay and ordo summary: golden files on the samples (2, 3 and 4
seats, each tie-break, an unfinished game, a record with an illegal play),
the interactive stepper driven by scripted keys, and the per-seat view."""

import io
import json

import pytest
from rich.console import Console
from strategies import ROOT

from ordonnance_notation import parse_text, validate
from ordonnance_notation.views.board import render_step
from ordonnance_notation.views.replay import replay
from ordonnance_notation.views.stepper import HELP, Stepper, run, split_keys

# golden name, file, record
CASES = [
    ("classic-2", "samples/classic-2.ord", 1),  # includes an earlier-fourth-card decision
    ("later-capture-3", "samples/later-capture-3.ord", 1),  # classic tie: later second capture
    ("points-4", "samples/points-4.ord", 1),
    ("points-tie-3", "samples/points-tie-3.ord", 1),  # points tie: more states (D2)
    ("annotated", "samples/annotated.ord", 1),
    ("unfinished-3", "samples/club-evening.ord", 3),
    ("illegal", "samples/invalid/rules.ord", 3),
]


@pytest.mark.parametrize(("name", "path", "record"), CASES, ids=[c[0] for c in CASES])
def test_every_step_of_a_replay(ordo, golden, name, path, record):
    result = ordo("replay", path, "--record", str(record), "--step")
    assert result.exit_code == 0
    golden(f"replay/{name}.txt", result.output)


@pytest.mark.parametrize(("name", "path", "record"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("format", ["text", "markdown", "json"])
def test_summaries(ordo, golden, name, path, record, format):
    result = ordo("summary", path, "--record", str(record), "--format", format)
    assert result.exit_code == (1 if "invalid" in path else 0)  # an invalid record: as validate
    suffix = {"text": "txt", "markdown": "md", "json": "json"}[format]
    golden(f"summary/{name}.{suffix}", result.output)


def load(path, record=1):
    items = list(parse_text((ROOT / path).read_text("utf-8"), path))
    return replay(validate(items[record - 1]))


def test_a_replay_stops_at_the_first_illegal_play_and_says_so():
    steps = load("samples/invalid/rules.ord", 3)
    assert steps.last == 8  # ply 9 plays a fifth card to Jerusalem
    text = render_step(steps, steps.steps[-1]).plain
    assert "replay stops here: ply 9 is E303 (P1 plays SHF to Jerusalem" in text
    assert steps.steps[-1].game.ply == 8


def test_the_summary_explains_each_tie_break(ordo):
    text = ordo("summary", "samples/later-capture-3.ord").output
    assert (
        "P1 and P2 have 2 states each; the later second capture wins: "
        "P1's was marker 4, P2's was marker 5, so P2 wins." in text
    )
    text = ordo("summary", "samples/points-tie-3.ord").output
    assert (
        "P1 and P3 have 12 points each; on equal points more states decides: P1 2, P3 3, "
        "so P3 wins." in text
    )
    text = ordo("summary", "samples/classic-2.ord").output
    assert "identical formations; P2 played the fourth card earlier, ply 34 vs 39" in text


def test_a_file_with_several_records_lists_them(ordo):
    result = ordo("replay", "samples/club-evening.ord")
    assert result.exit_code == 2
    assert "holds 3 records; pick one with --record K" in result.output
    assert "  2: (Boris Lind v Dmitri Sokolov v Ines v Jules) valid, P3 wins" in result.output


def test_open_at_a_ply_and_step_from_there(ordo):
    result = ordo("replay", "samples/classic-2.ord", "--ply", "38", "--step")
    assert [
        line.split(":")[0] for line in result.output.splitlines() if line.startswith("Step")
    ] == [
        "Step 38 of 40",
        "Step 39 of 40",
        "Step 40 of 40",
    ]
    single = ordo("replay", "samples/classic-2.ord", "--ply", "0")
    assert single.output.startswith("Step 0 of 40: before the first play")
    assert ordo("replay", "samples/classic-2.ord", "--ply", "41").exit_code == 2


def test_the_seat_view_leaks_no_hidden_card(ordo):
    steps = load("samples/classic-2.ord")
    for step in steps.steps:
        lines = render_step(steps, step, seat=1).plain.splitlines()
        hands = {line.split()[1]: line for line in lines if line.startswith("hand ")}
        own = " ".join(str(c) for c in step.game.hands[1]) or "empty"
        assert hands["P2"].endswith(f"  {own}")
        assert hands["P1"].endswith(f"  {len(step.game.hands[0])} cards, hidden")
        other = " ".join(str(c) for c in step.game.hands[0])
        assert not any(other and other in line for line in lines)
        [pile] = [line for line in lines if line.startswith("pile:")]
        assert pile == f"pile: {step.game.pile_left} cards"
        if step.turn is not None and step.turn.seat == 0:
            assert "after drawing" not in lines[0]


def test_interactive_keys_move_through_the_game():
    steps = load("samples/later-capture-3.ord")
    screen = io.StringIO()
    console = Console(file=screen, width=120, color_system=None)
    stepper = Stepper(steps.last)
    keys = [
        "right",
        "n",
        " ",
        "left",
        "g",
        "4",
        "2",
        "enter",
        "end",
        "b",
        "home",
        "l",
        "q",
        "right",
    ]
    final = run(stepper, keys, lambda p: render_step(steps, steps.steps[p]), console)
    assert final == 1  # the key after "q" is never read
    output = screen.getvalue()
    headings = [line.split(":")[0] for line in output.splitlines() if line.startswith("Step ")]
    assert headings == [
        "Step 0 of 60",
        "Step 1 of 60",
        "Step 2 of 60",
        "Step 3 of 60",
        "Step 2 of 60",
        "Step 2 of 60",
        "Step 2 of 60",
        "Step 2 of 60",
        "Step 42 of 60",
        "Step 60 of 60",
        "Step 59 of 60",
        "Step 0 of 60",
        "Step 1 of 60",
    ]
    assert "go to ply: 42_" in output
    assert output.count(HELP) == len(headings)


def test_the_stepper_refuses_plies_that_do_not_exist():
    stepper = Stepper(last=40, position=5)
    for key in ["g", "9", "9", "enter"]:
        assert stepper.press(key)
    assert stepper.position == 5
    assert stepper.status() == "no ply 99: plies run 0 to 40"
    assert stepper.press("?") and stepper.status() == "unknown key '?'"
    stepper.press("left")
    assert stepper.position == 4
    assert not stepper.press("q")


def test_summary_json_lists_every_record(ordo):
    data = json.loads(ordo("summary", "samples/club-evening.ord", "--format", "json").output)
    assert [r["record"] for r in data["records"]] == [1, 2, 3]
    assert data["records"][2]["result"] is None and data["records"][2]["finished"] is False


def test_keys_that_arrive_together_are_split():
    assert list(split_keys("g42\r")) == ["g", "4", "2", "enter"]
    assert list(split_keys("\x1b[C\x1b[Dq")) == ["right", "left", "q"]
    assert list(split_keys("\x1b[1~\x1b[4~\x1b")) == ["home", "end", "escape"]


def test_a_record_without_a_deal_keeps_its_written_draws(ordo, tmp_path):
    path = tmp_path / "k.ord"
    path.write_text('[P1 "a"]\n[P2 "b"]\n[Result "unfinished"]\n\n1. HF A\n2. P2 +L F A\n', "utf-8")
    result = ordo("replay", str(path), "--ply", "2")
    assert result.output.startswith("Step 2 of 2: P2 plays F to Antioch, after drawing L")


def test_a_summary_of_an_archive_is_written_a_record_at_a_time_as_one_json_document():
    from ordonnance_notation.views.report import json_records

    entries = [{"a": [1, {"b": "é\nx"}]}, {}, {"c": None}]
    assert (
        "".join(json_records(entries))
        == json.dumps({"records": entries}, indent=2, ensure_ascii=False) + "\n"
    )
    assert list(json_records([])) == []


def test_summary_record_reads_no_further_than_the_record_it_names(ordo, tmp_path):
    """--record K stops reading at record K: a byte that is not UTF-8 after it
    is never met."""
    text = (ROOT / "samples" / "club-evening.ord").read_bytes()
    path = tmp_path / "tail.ord"
    path.write_bytes(text + b"\n\xff\n")
    assert ordo("summary", str(path), "--record", "1").exit_code == 0
    assert ordo("summary", str(path)).exit_code == 1  # read to the end, it is met
