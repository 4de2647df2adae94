"""The library as a user of python-chess would use it: the public names of
the package's top level, held here so that a change to them is a decision;
values that print in the game's words; reading, stepping, asking the engine,
playing bots and writing, each a call that says what it raises."""

from __future__ import annotations

import ast
import csv
import inspect
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest
from strategies import ROOT

import ordonnance_notation as ordo

PUBLIC = [
    "BOT_NAMES",
    "CODES",
    "ArchiveError",
    "Army",
    "BestPlayView",
    "Budget",
    "Card",
    "CardError",
    "ConversionError",
    "Deal",
    "Decision",
    "DeckError",
    "Diagnostic",
    "Formations",
    "Game",
    "Icon",
    "IllegalPlay",
    "InputError",
    "InvalidRecord",
    "JudgementView",
    "Level",
    "MissingExtra",
    "OrdoError",
    "Outcome",
    "OutputExists",
    "Position",
    "Record",
    "RecordAnalysis",
    "RecordErrors",
    "Replay",
    "Report",
    "Resolution",
    "Scoring",
    "Seat",
    "Severity",
    "SourceError",
    "State",
    "TieBreak",
    "Totals",
    "Turn",
    "Unparsed",
    "UnreadableSource",
    "Violation",
    "WhenDecided",
    "analyse",
    "deal",
    "decide",
    "export_tables",
    "parse_file",
    "parse_text",
    "play_bots",
    "rank",
    "read_record",
    "read_records",
    "record_text",
    "replay",
    "score",
    "seat_name",
    "seat_number",
    "validate",
    "validate_or_raise",
    "validate_text",
    "write_records",
]
SAMPLE = ROOT / "samples" / "classic-2.ord"


def test_the_public_names_are_these_and_each_is_there():
    assert ordo.__all__ == PUBLIC
    assert sorted(ordo._WHERE) == sorted(PUBLIC)  # each name's module, imported when asked
    for name in PUBLIC:
        assert getattr(ordo, name) is not None
        assert name in dir(ordo)
    with pytest.raises(AttributeError, match="no attribute 'Board'"):
        _ = ordo.Board


def test_the_names_for_the_type_checker_are_the_names_imported_when_asked():
    """The package's ``TYPE_CHECKING`` imports (what mypy and editors see)
    name each public name from the module ``_WHERE`` imports it from."""
    tree = ast.parse(inspect.getsource(ordo))
    [block] = [
        n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
    ]
    seen = {
        alias.name: "." * node.level + (node.module or "")
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == ordo._WHERE


def test_importing_the_package_imports_none_of_its_layers():
    """``ordo``'s start-up imports the package first: the names come when asked."""
    code = (
        "import sys, ordonnance_notation; "
        "print(sorted(m for m in sys.modules if m.startswith('ordonnance_notation.')))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def _public_callables():
    for name in PUBLIC:
        value = getattr(ordo, name)
        if inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value) and name in ("Replay", "Position", "Game"):
            for member, method in vars(value).items():
                if not member.startswith("_") and inspect.isfunction(method):
                    yield f"{name}.{member}", method


def test_every_public_name_has_a_docstring_and_each_call_says_what_it_raises():
    for name in PUBLIC:
        value = getattr(ordo, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert (value.__doc__ or "").strip(), f"{name} has no docstring"
    silent = [
        name
        for name, function in _public_callables()
        if "raise" not in (function.__doc__ or "").lower()
        and not name.startswith(("Replay.", "Position.", "Game."))
    ]
    assert silent == []
    methods = [
        name for name, function in _public_callables() if not (function.__doc__ or "").strip()
    ]
    assert methods == []


def test_values_print_in_the_games_words_and_their_reprs_paste_back():
    game = ordo.replay(SAMPLE)
    card, state = game[12].legal_plays()[0]
    assert f"{card} {state}" == "BSF A"
    for value in (card, state, ordo.Seat.P2):
        assert eval(repr(value), vars(ordo)) is value
    assert (str(game.winner), game.tags["Event"], game.names) == (
        "P2",
        "Lyon club night",
        ("Anna Petrova", "Boris Lind"),
    )
    turn = game[12].turn
    assert f"{turn.seat} {turn.card} {turn.state.full_name}" == "P2 SH Tripoli"
    assert (
        repr(game)
        == "<Replay of " + str(SAMPLE) + " #1: 40 plies, valid, P2 wins (states: P1 1, P2 4)>"
    )
    assert repr(game[12]) == f"<Position of {SAMPLE} #1 after ply 12: P1 to move>"
    assert repr(game[12].game) == "<Game of 2 seats: ply 12, P1 to move, 0 states resolved>"


def test_a_position_prints_as_the_board_of_ordo_replay():
    board = str(ordo.replay(SAMPLE)[12])
    assert board.startswith("ply 12 of 40: P2 plays SH to Tripoli, after drawing SF")
    assert "J Jerusalem  P1 would win now" in board
    assert "hand P1 Anna Petrova  BSF B BS S S" in board


def test_stepping_through_a_game():
    game = ordo.replay(SAMPLE)
    assert len(game) == 41 and game[0].ply == 0 and game[-1] is not None and game.final.over
    assert [position.ply for position in game][:3] == [0, 1, 2]
    position = game[12]
    assert position.to_move is ordo.Seat.P1
    army = position.army("J", "P1")
    assert army is position.army(ordo.State.J, 0) and [str(c) for c in army.cards] == [
        "LH",
        "S",
        "LSH",
        "F",
    ]
    assert [str(c) for c in position.hand("P1")] == ["BSF", "B", "BS", "S", "S"]
    with pytest.raises(IndexError):
        game[41]
    with pytest.raises(ValueError, match="no seat of this game"):
        position.army("J", "P3")
    with pytest.raises(ValueError, match="no state"):
        position.army("Q", "P1")


def test_a_play_off_the_record_gives_a_new_position_and_an_illegal_one_raises():
    position = ordo.replay(SAMPLE)[12]
    after = position.play("BSF", "A")
    assert (after.ply, after.to_move, str(after.turn.card)) == (13, ordo.Seat.P2, "BSF")
    assert str(after).startswith("ply 13 of 13: P1 plays BSF to Antioch")
    assert position.game.ply == 12  # unchanged
    with pytest.raises(ordo.IllegalPlay, match="holds only"):
        position.play("LBSHF", "A")
    with pytest.raises(ordo.CardError):
        position.play("QQ", "A")


def test_reading_a_file_and_its_archive_gives_the_same_records(tmp_path):
    source = ROOT / "samples" / "club-evening.ord"
    text = list(ordo.read_records(source))
    archive = tmp_path / "club.yaml"
    assert ordo.write_records(text, archive) == 3
    again = list(ordo.read_records(archive))
    assert [r.tags for r in again] == [r.tags for r in text]
    assert [ordo.record_text(r) for r in again] == [ordo.record_text(r) for r in text]
    as_json = tmp_path / "club.json"
    ordo.write_records(again, as_json)
    assert [r.tags for r in ordo.read_records(as_json)] == [r.tags for r in text]
    assert inspect.isgenerator(ordo.read_records(archive))  # a record at a time


def test_writing_never_replaces_a_file_unasked(tmp_path):
    target = tmp_path / "kept.ord"
    target.write_text("mine\n", "utf-8")
    with pytest.raises(ordo.OutputExists):
        ordo.write_records([ordo.read_record(SAMPLE)], target)
    assert target.read_text("utf-8") == "mine\n"
    assert ordo.write_records([ordo.read_record(SAMPLE)] * 2, target, overwrite=True) == 2
    assert [r.tags["Event"] for r in ordo.read_records(target)] == ["Lyon club night"] * 2


def test_reading_bad_input_raises_with_its_diagnostics(tmp_path):
    empty = tmp_path / "empty.ord"
    empty.write_text("", "utf-8")
    with pytest.raises(ordo.InputError) as no_record:
        ordo.read_record(empty)
    assert no_record.value.diagnostic.code == "E105"
    broken = tmp_path / "broken.ord"
    broken.write_text('[P1 "A"]\n[P2 "B"\n1. L A\n', "utf-8")
    with pytest.raises(ordo.InvalidRecord) as invalid:
        ordo.replay(broken)
    assert invalid.value.diagnostic.location.startswith(str(broken) + ":2")
    with pytest.raises(ordo.UnreadableSource):
        list(ordo.read_records(tmp_path / "missing.ord"))


def test_an_illegal_play_in_a_record_stops_its_replay_there():
    game = ordo.replay(ROOT / "samples" / "invalid" / "rules.ord")
    assert not game.valid and game.stopped is not None and game.stopped.code.startswith("E3")
    assert game.stopped.location.startswith(str(ROOT / "samples" / "invalid" / "rules.ord") + ":")
    assert len(game) - 1 < 40


def test_bots_play_a_whole_game_the_same_from_the_same_seed():
    game = ordo.play_bots(["careful", "random"], "tutorial")
    again = ordo.play_bots(["careful", "random"], "tutorial")
    assert game.final.over and game.valid
    assert [str(p.turn.card) for p in game if p.turn] == [str(p.turn.card) for p in again if p.turn]
    assert set(ordo.BOT_NAMES) >= {"random", "careful", "rollout", "judge", "exact"}
    with pytest.raises(ValueError, match="no bot called 'deep'"):
        ordo.play_bots(["careful", "deep"])
    with pytest.raises(ValueError, match="2 to 4 seats"):
        ordo.play_bots(["careful"])
    dealt = ordo.deal(3, "x")
    assert len(dealt.hands) == 3 and dealt == ordo.deal(3, "x")


def test_the_engine_answers_from_one_call():
    found = ordo.analyse(SAMPLE, judge=True, playouts=40, seed="t")
    words = str(found)
    assert words.startswith(f"{SAMPLE}, record 1 (Anna Petrova v Boris Lind)")
    assert "Antioch was decided" in words and "Judged from what each seat could know" in words
    graph = ElementTree.fromstring(found.judged.graph())
    lines = graph.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 2  # a line a seat
    assert found._repr_html_().startswith("<pre>") and "<svg" in found._repr_html_()
    best = ordo.analyse(ordo.replay(SAMPLE), best_play=0.5)
    assert "best play" in str(best).lower()


def test_pictures_are_svg_documents_and_a_game_is_its_page():
    game = ordo.replay(SAMPLE)
    picture = ElementTree.fromstring(game[12]._repr_svg_())
    assert picture.tag == "{http://www.w3.org/2000/svg}svg"
    assert "Jerusalem" in game[12]._repr_svg_() and game._repr_svg_() == game.final._repr_svg_()
    seen = game[12].picture("P2")
    assert "BSF" not in seen.replace("icon", "")  # P1's hand is not in P2's picture
    page = game._repr_html_()
    assert page.startswith('<iframe srcdoc="&lt;!doctype html&gt;') and "Anna Petrova" in page


def test_export_writes_the_three_tables(tmp_path):
    totals = ordo.export_tables([ROOT / "samples" / "club-evening.ord"], tmp_path / "tables")
    assert totals.rows["records"] == 3
    with open(tmp_path / "tables" / "records.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 and rows[0]["event"] == "Lyon club night"
    with pytest.raises(ordo.OutputExists):
        ordo.export_tables([SAMPLE], tmp_path / "tables")


def test_the_calls_take_what_the_library_gives_and_refuse_the_rest_in_words(tmp_path):
    game = ordo.replay(SAMPLE)
    assert repr(ordo.replay(game.report)) == repr(game) and game.record.tags["Site"] == "Lyon"
    assert [p.ply for p in game[10:13]] == [10, 11, 12] and len(game[::10]) == 5
    with pytest.raises(IndexError, match="no ply 41: this replay has positions 0 to 40"):
        game[41]
    position = game[12]
    assert position.play(position.legal_plays()[0]).turn.card is ordo.Card("BSF")
    assert position.army(3, "P1") is position.army("Jerusalem", ordo.Seat.P1)
    assert position.game.play("BSF", "A")[1].state is ordo.State.A
    assert game.final.game.resolution("J").winner is ordo.Seat.P2
    with pytest.raises(TypeError, match="validate takes a Record, not str: read_record reads one"):
        ordo.validate(str(SAMPLE))
    broken = list(ordo.read_records(ROOT / "samples" / "invalid" / "syntax.ord"))
    with pytest.raises(ordo.InvalidRecord) as unread:
        ordo.write_records(broken, tmp_path / "broken.yaml")
    assert unread.value.diagnostic.code.startswith("E1")
    assert not (tmp_path / "broken.yaml").exists()
    with pytest.raises(ValueError, match=r"x\.yaml is an archive"):
        ordo.export_tables([tmp_path / "x.yaml"], tmp_path / "tables")
    totals = ordo.export_tables(str(SAMPLE), tmp_path / "one")  # one path, not its letters
    assert totals.rows["records"] == 1
    with pytest.raises(ValueError, match="at least one play-out"):
        ordo.analyse(game, judge=True, playouts=0)
    with pytest.raises(ValueError, match="0 seconds or more"):
        ordo.analyse(game, best_play=-1)
    assert ordo.play_bots(["random", "random"], 42).final.over  # a seed may be a number


def test_every_value_prints_short_and_in_the_games_words():
    game = ordo.replay(SAMPLE)
    found = ordo.analyse(game, best_play=0)
    assert repr(game.record) == f"<Record of {SAMPLE} #1, line 1: 9 tags, 40 plays>"
    assert repr(game.report) == f"<Report of {SAMPLE} #1: valid, P2 wins (states: P1 1, P2 4)>"
    assert repr(found) == f"<RecordAnalysis of {SAMPLE} #1: when decided, best play>"
    assert repr(found.best) == "<BestPlayView of 40 plies: print it for its words>"
    assert str(found.best).startswith("Best play is exact from ply")
    assert str(ordo.Icon.H) == "H" and repr(ordo.Card("HF").icons) == "(Icon.H, Icon.F)"
    assert repr(game.report.outcome.winner) == "Seat.P2"
    assert ordo.State.of("jerusalem") is ordo.State.J and ordo.State.of(5) is ordo.State.T
    with pytest.raises(ValueError, match="is no state"):
        ordo.State.of(6)
    illegal = ordo.IllegalPlay(ordo.Violation.STATE_FULL, "P1 already has four units there")
    assert repr(illegal) == (
        "IllegalPlay(<Violation.STATE_FULL: 'state full'>, 'P1 already has four units there')"
    )
