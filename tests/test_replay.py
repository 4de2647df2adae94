"""ordo replay and ordo summary: golden files on the samples (2, 3 and 4
seats, each tie-break, an unfinished game, a record with an illegal play),
the interactive stepper driven by scripted keys, and the per-seat view."""

import io
import json
import re
import sys

import click.testing
import pytest
import typer.main
from rich.cells import cell_len
from rich.console import Console
from strategies import ROOT, SAMPLES

from ordonnance_notation import parse_text, validate
from ordonnance_notation.cli.app import app
from ordonnance_notation.engine.cards import State
from ordonnance_notation.views.board import heading, render_compact, render_step
from ordonnance_notation.views.stepper import HELP, KEYS, Stepper, run, split_keys, terminal_keys
from ordonnance_notation.views.steps import steps_of

CLEAR = "\x1b[2J\x1b[H"  # what Console.clear sends to a terminal

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
    return steps_of(validate(items[record - 1]))


def compact(steps, seat=None):
    """What ``ordo replay --step`` draws on a terminal."""
    return lambda position, width, height: render_compact(
        steps, steps.steps[position], seat, width, height
    )


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


def test_a_finished_game_is_never_said_undecided(ordo):
    """later-capture-3 ends with 2 states to P1 and 2 to P2: the tie-break
    (the later capture) decides it, and the analysis sees it once the totals
    are certain, at ply 59 (issue 47 item 16)."""
    for command in ("summary", "analyse"):
        text = ordo(command, "samples/later-capture-3.ord").output
        assert "The game was not decided" not in text
        assert (
            "  The game was decided at ply 59 of 60: P2 wins; P2's `LBSHF E` at ply 59 put "
            "the game out of P1's and P3's reach" in text
        )
    unfinished = ordo("summary", "samples/club-evening.ord", "--record", "3").output
    assert "The game was not decided in the plays recorded" in unfinished


def test_one_other_play_is_one(ordo):
    text = ordo("summary", "samples/points-4.ord").output
    assert "or 1 other plays" not in text
    assert "(`SH T`, `LHF T`, `LBSHF T` or 1 other play would have kept it)" in text


def test_a_file_with_several_records_lists_them(ordo):
    result = ordo("replay", "samples/club-evening.ord")
    assert result.exit_code == 2
    assert "holds 3 records; pick one with --record K" in result.output
    assert "  2: (Boris Lind v Dmitri Sokolov v Ines v Jules) valid, P3 wins" in result.output


def test_open_at_a_ply_and_step_from_there(ordo):
    result = ordo("replay", "samples/classic-2.ord", "--ply", "38", "--step")
    assert [
        line.split(":")[0] for line in result.output.splitlines() if line.startswith("ply ")
    ] == [
        "ply 38 of 40",
        "ply 39 of 40",
        "ply 40 of 40",
    ]
    single = ordo("replay", "samples/classic-2.ord", "--ply", "0")
    assert single.output.startswith("ply 0 of 40: before the first play")
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


def frames(screen: str) -> list[list[str]]:
    """The lines of each frame a terminal console was sent (each starts by
    clearing it; the stepper ends the last line when it ends)."""
    assert screen.endswith("\n")
    return [frame.split("\n") for frame in screen.removesuffix("\n").split(CLEAR)[1:]]


def test_interactive_keys_move_through_the_game():
    steps = load("samples/later-capture-3.ord")
    screen = io.StringIO()
    console = Console(file=screen, width=120, height=40, force_terminal=True, color_system=None)
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
    final = run(stepper, keys, compact(steps), console)
    assert final == 1  # the key after "q" is never read
    shown = frames(screen.getvalue())
    assert [lines[0].split(":")[0] for lines in shown] == [
        "ply 0 of 60",
        "ply 1 of 60",
        "ply 2 of 60",
        "ply 3 of 60",
        "ply 2 of 60",
        "ply 2 of 60",
        "ply 2 of 60",
        "ply 2 of 60",
        "ply 42 of 60",
        "ply 60 of 60",
        "ply 59 of 60",
        "ply 0 of 60",
        "ply 1 of 60",
    ]
    assert shown[7][-1] == "go to ply: 42_   (Enter goes, Esc cancels)"
    assert [lines[-1] == HELP for lines in shown].count(True) == len(shown) - 3  # g, 4, 2


def test_the_stepper_refuses_plies_that_do_not_exist():
    stepper = Stepper(last=40, position=5)
    for key in ["g", "9", "9", "enter"]:
        assert stepper.press(key)
    assert stepper.position == 5
    assert stepper.status() == "no ply 99: plies run 0 to 40"
    assert stepper.press("x") and stepper.status() == "unknown key 'x': ? shows the keys"
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
    assert result.output.startswith("ply 2 of 2: P2 plays F to Antioch, after drawing L")


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


# Games of 2, 3 and 4 seats for the terminal's frames: (name, file, record);
# "play N S" is `ordo play --players N --seed S --bots greedy -n 2` (greedy
# bots build long formations: the two games of seed fit-4-3 have armies
# written as counts, and hands on two lines).
FRAMED = [
    ("classic-2", "samples/classic-2.ord", 1),
    ("annotated", "samples/annotated.ord", 1),  # comments after plays
    ("later-capture-3", "samples/later-capture-3.ord", 1),
    ("club-evening-4", "samples/club-evening.ord", 2),
    ("points-4", "samples/points-4.ord", 1),
    ("illegal", "samples/invalid/rules.ord", 3),  # stops at an illegal play
    ("play-2", "play 2 fit-2", 1),
    ("play-3", "play 3 fit-3-3", 1),
    ("play-4", "play 4 fit-4-3", 1),
    ("play-4b", "play 4 fit-4-3", 2),
]


def one_frame(steps, position, seat=None, width=80, height=24):
    """The lines of the frame ``--step`` shows at ``position`` on a terminal of that size."""
    screen = io.StringIO()
    console = Console(
        file=screen, width=width, height=height, force_terminal=True, color_system=None
    )
    run(Stepper(steps.last, position), [], compact(steps, seat), console)
    [lines] = frames(screen.getvalue())
    return lines


@pytest.mark.parametrize(("name", "path", "record"), FRAMED, ids=[c[0] for c in FRAMED])
def test_every_step_fits_a_terminal_of_80_by_24(ordo, tmp_path, name, path, record):
    if path.startswith("play "):
        _, seats, seed = path.split()
        path = str(tmp_path / "played.ord")
        arguments = ["--players", seats, "--seed", seed, "--bots", "greedy", "-n", "2"]
        assert ordo("play", *arguments, "-o", path).exit_code == 0
    steps = load(path, record)
    seats = steps.steps[0].game.seats
    names = [f"{state.name} {state.full_name}" for state in State]
    for step in steps.steps:
        for seat in (None, step.number % seats):
            lines = one_frame(steps, step.number, seat)
            assert len(lines) <= 24
            assert max(cell_len(line) for line in lines) <= 80
            assert not any(line.endswith("…") for line in lines)  # nothing cut to fit
            assert lines[0].startswith(f"ply {step.number} of {steps.last}: ")
            rows = [line for line in lines if " │ P" in line]
            assert [row.split(" │ ")[1][:2] for row in rows] == [
                f"P{s + 1}" for _ in State for s in range(seats)
            ]
            assert [row.split(" │ ")[0].rstrip() for row in rows[::seats]] == names
            assert lines[-1] == HELP
            resolution = step.turn.resolution if step.turn else None
            if resolution is None:
                assert " resolved: " not in lines[0]
            else:
                winner = f"P{resolution.winner + 1}"
                state = resolution.state.full_name
                assert lines[0].endswith(
                    f" — {state} resolved: marker {resolution.marker} to {winner}"
                )


def test_the_heading_says_which_state_a_ply_resolved():
    steps = load("samples/later-capture-3.ord")
    assert heading(steps, steps.steps[47]) == (
        "ply 47 of 60: P2 plays H to Tripoli, after drawing BH — Tripoli resolved: marker 3 to P3"
    )
    assert heading(steps, steps.steps[46]) == (
        "ply 46 of 60: P1 plays B to Antioch, after drawing F — Antioch resolved: marker 2 to P2"
    )
    assert heading(steps, steps.steps[45]) == "ply 45 of 60: P3 plays L to Antioch, after drawing H"
    lines = one_frame(steps, 47)
    assert lines[:2] == [
        "ply 47 of 60: P2 plays H to Tripoli — Tripoli resolved: marker 3 to P3",
        "  P3 wins Tripoli: no regiments; two battalions beat none",
    ]
    assert (
        "T Tripoli    │ P1"
        in lines[lines.index("marker 3: P3 │ P2 ··S·· ·B··· ···HF[···H·] company H") - 1]
    )


def test_a_larger_terminal_shows_more():
    steps = load("samples/points-4.ord")
    small = one_frame(steps, 47)
    large = one_frame(steps, 47, width=120, height=40)
    assert small[0] == large[0] == "ply 47 of 80: P3 plays BS to Cyprus, after drawing SH"
    assert [line for line in small if line.startswith("hand")] == [
        "hands: P1 F S BF L LB   P2 BF B BH BF SF   P3 LB LF B S SH   P4 LBF LF LF BF H"
    ]
    assert [line for line in large if line.startswith("hand")] == [
        "hand P1 Anna Petrova    F S BF L LB",
        "hand P2 Boris Lind      BF B BH BF SF",
        "hand P3 Chloé Martin    LB LF B S SH",
        "hand P4 Dmitri Sokolov  LBF LF LF BF H",
    ]
    assert "pile: 45 cards   markers: none yet" in large
    assert not any(line.startswith("pile") for line in small)


def test_a_terminal_too_small_keeps_the_heading_and_cuts_the_rest():
    steps = load("samples/points-4.ord")
    lines = one_frame(steps, 47, width=40, height=10)
    assert len(lines) == 10 and max(cell_len(line) for line in lines) == 40
    assert lines[0] == "ply 47 of 80: P3 plays BS to Cyprus"  # the draw left out
    assert lines[-1] == HELP[:39] + "…"


def test_formations_too_long_for_the_row_are_written_as_counts(tmp_path):
    path = tmp_path / "heavy.ord"
    path.write_text(
        '[P1 "a"]\n[P2 "b"]\n[Result "unfinished"]\n\n'
        "1. LBSHF A\n2. L C\n3. LBSHF A\n4. L C\n5. LBSH A\n6. L E\n7. LB A\n",
        "utf-8",
    )
    steps = load(str(path))
    row = "A Antioch    │ P1 LBSHF LBSHF LBSH·[LB···]"
    assert f"{row} 4B 4L 3H 3S 2F" in one_frame(steps, 7)
    assert f"{row} regiments B L, battalions H S, company F" in one_frame(steps, 7, width=90)


def test_esc_closes_a_message_and_only_q_quits():
    stepper = Stepper(last=40, position=5)
    assert stepper.press("?") and stepper.status() == KEYS
    assert stepper.press("escape") and stepper.status() == ""
    for key in ["g", "9", "9", "enter"]:
        assert stepper.press(key)
    assert stepper.status() == "no ply 99: plies run 0 to 40"
    assert stepper.press("escape") and stepper.status() == ""
    assert stepper.press("escape") and stepper.status() == "q quits"
    assert stepper.press("escape") and stepper.status() == ""
    assert stepper.position == 5
    assert not stepper.press("q")


def test_the_keys_cover_the_table_and_esc_gives_it_back():
    steps = load("samples/points-4.ord")
    screen = io.StringIO()
    console = Console(file=screen, width=80, height=24, force_terminal=True, color_system=None)
    keys = ["?", "escape", "right", "q", "right"]
    assert run(Stepper(steps.last, 47), keys, compact(steps), console) == 48
    shown = frames(screen.getvalue())
    assert len(shown) == 4
    table, keys, back, after = shown
    assert table[0] == keys[0] == back[0]  # the heading stays
    assert keys[-10:-1] == KEYS.splitlines()[:-1]
    assert keys[-1] == KEYS.splitlines()[-1] + "   Esc closes"
    assert len(keys) <= 24 and back == table
    assert after[0].startswith("ply 48 of 80: ")


class TerminalInput(io.BytesIO):
    """Standard input that says it is a terminal."""

    def isatty(self):
        return True


def test_without_termios_step_prints_every_step(monkeypatch):
    monkeypatch.setitem(sys.modules, "termios", None)  # import termios fails, as on Windows
    assert terminal_keys() is None
    monkeypatch.chdir(ROOT)
    # click's runner (Typer's takes no stream) with standard input and output terminals
    result = click.testing.CliRunner().invoke(
        typer.main.get_command(app),
        ["replay", "samples/classic-2.ord", "--step"],
        input=TerminalInput(),
        env={"TTY_COMPATIBLE": "1", "NO_COLOR": "1"},
        catch_exceptions=False,
    )
    assert result.exit_code == 0
    headings = [line.split(":")[0] for line in result.stdout.splitlines() if line.startswith("ply")]
    assert headings == [f"ply {n} of 40" for n in range(41)]
    assert (
        result.stderr
        == "--step: single keys cannot be read here (no termios); every step follows\n"
    )


def test_the_replay_page_shows_what_replay_prints(ordo):
    page = (ROOT / "docs" / "replay.md").read_text("utf-8")
    full, terminal, _ = re.findall(r"```text\n(.*?)```", page, re.DOTALL)
    assert full == ordo("replay", "samples/later-capture-3.ord", "--ply", "47").output
    steps = load("samples/later-capture-3.ord")
    assert terminal == "\n".join(one_frame(steps, 47)) + "\n"


def test_several_inputs_name_the_record_to_pick(ordo, tmp_path):
    listed = ordo("replay", "samples/classic-2.ord", "samples/no-deal.ord")
    assert listed.exit_code == 2
    assert "  samples/no-deal.ord record 1: (Ines v Jules v Karim) valid, P2 wins" in listed.output
    assert "the inputs hold 2 records; name one file and pick one with --record K" in listed.output
    both = ordo("replay", "samples/classic-2.ord", "samples/no-deal.ord", "--record", "1")
    assert both.exit_code == 2 and "--record picks a record of one file" in both.output
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "game.ord").write_text((SAMPLES / "no-deal.ord").read_text("utf-8"), "utf-8")
    shown = ordo("replay", str(folder), "--ply", "0")
    assert shown.exit_code == 0
    assert shown.output == ordo("replay", "samples/no-deal.ord", "--ply", "0").output


def test_the_table_as_text_goes_to_the_output_file_as_it_would_to_the_screen(ordo, tmp_path):
    out = tmp_path / "table.txt"
    shown = ordo("replay", "samples/classic-2.ord", "--ply", "20")
    written = ordo("replay", "samples/classic-2.ord", "--ply", "20", "-o", str(out))
    assert written.exit_code == 0 and written.stdout == ""
    assert out.read_text("utf-8") == shown.stdout and "ply 20" in shown.stdout.lower()
    again = ordo("replay", "samples/classic-2.ord", "--ply", "3", "-o", str(out))
    assert again.exit_code == 2 and "already exists" in again.output
    assert out.read_text("utf-8") == shown.stdout
    steps = ordo("replay", "samples/classic-2.ord", "--step", "-o", str(out), "--force")
    assert steps.exit_code == 0 and out.read_text("utf-8").count("─" * 60) == 40
