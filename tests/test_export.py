"""ordo export and views/tables.py: three tables, their columns pinned to
docs/export.md, the same answers through DuckDB as ``ordo stats`` gives."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import sys

import duckdb
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from strategies import ROOT, SAMPLES, fuzz, mutations, needs_core

from ordonnance_notation.checking import quick
from ordonnance_notation.checking.replayed import Replayed
from ordonnance_notation.engine.armies import PACKED
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import game_text, play_game
from ordonnance_notation.runs.blocks import Block
from ordonnance_notation.views import tables
from ordonnance_notation.views.stats import deciding_words
from ordonnance_notation.views.tables import TABLES

SAMPLE_FILES = sorted(str(p.relative_to(ROOT)) for p in SAMPLES.glob("*.ord"))
ARROW_TYPES = {"string": "string", "integer": "int64", "boolean": "bool"}


def documented() -> dict[str, list[tuple[str, str, str]]]:
    """docs/export.md's tables: for each ``## `name` `` heading, the rows
    (column, type, meaning) of the table under it."""
    text = (ROOT / "docs" / "export.md").read_text("utf-8")
    tables = {}
    for name, body in re.findall(r"^## `(\w+)`\n\n(.*?)(?:\n\n|\Z)", text, re.M | re.S):
        lines = body.strip().split("\n")
        assert lines[:2] == ["| column | type | meaning |", "|---|---|---|"], name
        rows = [line.strip("|").split(" | ") for line in lines[2:]]
        tables[name] = [(c.strip().strip("`"), t.strip(), m.strip()) for c, t, m in rows]
    return tables


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """``exported(format)``: the directory of the tables of every sample."""
    from typer.testing import CliRunner

    from ordonnance_notation.cli.app import app

    made = {}

    def export(format):
        if format not in made:
            folder = tmp_path_factory.mktemp(format)
            with pytest.MonkeyPatch.context() as patch:
                patch.chdir(ROOT)
                result = CliRunner().invoke(
                    app, ["export", *SAMPLE_FILES, "-f", format, "-o", str(folder), "--force"]
                )
            assert result.exit_code == 0, result.output
            made[format] = folder
        return made[format]

    return export


def query(sql):
    """The rows of a DuckDB query."""
    return duckdb.sql(sql).fetchall()


def table(folder, name, format):
    return f"'{folder / name}.{format}'"


def test_the_columns_are_the_documented_ones():
    doc = documented()
    assert list(doc) == list(TABLES) == ["records", "plays", "states"]
    for name, columns in TABLES.items():
        assert doc[name] == [(c.name, c.type, c.meaning) for c in columns], name


def test_parquet_files_carry_the_documented_types(exported):
    text = (ROOT / "docs" / "export.md").read_text("utf-8")
    assert f"in row groups of about {tables.ROW_GROUP:,} rows" in " ".join(text.split())
    folder = exported("parquet")
    for name, rows in documented().items():
        schema = pq.read_schema(folder / f"{name}.parquet")
        assert [(f.name, str(f.type) + (" or null" if f.nullable else "")) for f in schema] == [
            (column, ARROW_TYPES[t.split()[0]] + t[len(t.split()[0]) :]) for column, t, _ in rows
        ]


def test_csv_values_are_of_the_documented_types(exported):
    folder = exported("csv")
    patterns = {"integer": r"-?[0-9]+", "boolean": r"true|false", "string": r".*"}
    for name, rows in documented().items():
        with open(folder / f"{name}.csv", encoding="utf-8", newline="") as stream:
            header, *lines = list(csv.reader(stream))
        assert header == [column for column, _, _ in rows]
        assert lines, name
        for line in lines:
            for value, (column, type, _) in zip(line, rows, strict=True):
                kind = type.split()[0]
                if value == "":
                    assert type.endswith("or null") or kind == "string", (name, column, line)
                else:
                    assert re.fullmatch(patterns[kind], value), (name, column, value)


@pytest.mark.parametrize("format", ["csv", "parquet"])
def test_duckdb_counts_the_wins_ordo_stats_counts(ordo, exported, format):
    folder = exported(format)
    records, plays, states = (table(folder, name, format) for name in TABLES)
    stats = json.loads(ordo("stats", "--format", "json", *SAMPLE_FILES).output)
    wins = query(
        f"SELECT seats, winner, count(*) FROM {records} WHERE valid AND finished GROUP BY ALL"
    )
    assert {(str(s), w): n for s, w, n in wins} == {
        (seats, winner): n for seats, by in stats["wins"].items() for winner, n in by.items()
    }
    steps = query(
        f"SELECT step, count(*) FROM {states} s JOIN {records} r USING (source, record) "
        "WHERE r.finished GROUP BY ALL"
    )
    assert dict(steps) == stats["deciding_steps"]
    # every sample is valid: each play written is a row, and the known totals
    (count,) = query(f"SELECT count(*) FROM {plays}")[0]
    (plies, replayed, games) = query(f"SELECT sum(plies), sum(replayed), count(*) FROM {records}")[
        0
    ]
    assert count == plies == replayed == 486 and games == 9
    assert query(f"SELECT count(*) FROM {states}")[0] == (40,)
    # the later-capture sample: P2 wins, on 2 states as P1, by the later capture
    assert query(
        f"SELECT winner, score_p1, score_p2, score_p3, score_p4 FROM {records} "
        "WHERE source = 'samples/later-capture-3.ord'"
    ) == [("P2", 2, 2, 1, None)]


def test_invalid_records_are_rows_their_plays_as_far_as_the_replay_went(ordo, tmp_path):
    """samples/invalid/rules.ord: the replay of each record stops at its
    illegal play (ply 5, 3, 9, 41 and 4); the fourth is over by then, and scored."""
    result = ordo("export", "samples/invalid/rules.ord", "-o", str(tmp_path))
    assert result.exit_code == 1
    assert "5 invalid: `ordo validate` says why" in result.stderr
    assert query(
        "SELECT record, valid, errors, finished, winner, replayed, plies "
        f"FROM '{tmp_path}/records.csv' ORDER BY record"
    ) == [
        (1, False, 1, False, None, 4, 40),
        (2, False, 1, False, None, 2, 40),
        (3, False, 1, False, None, 8, 40),
        (4, False, 1, True, "P2", 40, 41),
        (5, False, 1, False, None, 3, 40),
    ]
    assert query(
        f"SELECT record, count(*), max(ply) FROM '{tmp_path}/plays.csv' GROUP BY ALL ORDER BY 1"
    ) == [(1, 4, 4), (2, 2, 2), (3, 8, 8), (4, 40, 40), (5, 3, 3)]
    assert query(f"SELECT record, count(*) FROM '{tmp_path}/states.csv' GROUP BY ALL") == [(4, 5)]


def test_standard_input_is_read(ordo, tmp_path):
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    result = ordo("export", "-", "-o", str(tmp_path / "out"), input=text)
    assert result.exit_code == 0, result.output
    rows = query(f"SELECT source, record, p1, p2, winner FROM '{tmp_path}/out/records.csv'")
    assert rows == [("<stdin>", 1, "Anna Petrova", "Boris Lind", "P2")]
    assert query(f"SELECT count(*) FROM '{tmp_path}/out/plays.csv'")[0] == (40,)
    with open(tmp_path / "out" / "records.csv", encoding="utf-8", newline="") as stream:
        (row,) = csv.DictReader(stream)
    assert [row[c] for c in ("event", "site", "date", "round", "scoring", "result")] == [
        "Lyon club night",
        "Lyon",
        "2026.11.20",
        "1",
        "classic",
        "P2",
    ]
    assert [row[c] for c in ("seats", "rule", "has_deal", "score_p1", "score_p2", "score_p3")] == [
        "2",
        "classic",
        "true",
        "1",
        "4",
        "",
    ]


def test_an_input_that_cannot_be_used_is_said_in_its_place(ordo, tmp_path):
    result = ordo(
        "export", "samples/invalid/encoding.ord", "samples/classic-2.ord", "-o", str(tmp_path)
    )
    assert result.exit_code == 1
    assert "samples/invalid/encoding.ord:1:38: error[E002]: not UTF-8 text" in result.stderr
    assert result.stderr.endswith(
        "1 record, 40 plays and 5 states written to " + str(tmp_path) + "\n"
    )
    assert query(f"SELECT source FROM '{tmp_path}/records.csv'") == [("samples/classic-2.ord",)]
    missing = ordo("export", "nowhere.ord", "-o", str(tmp_path / "none"))
    assert missing.exit_code == 2 and "nowhere.ord" in missing.stderr


def test_existing_tables_are_not_replaced_without_force(ordo, tmp_path):
    (tmp_path / "plays.csv").write_text("mine\n", "utf-8")
    refused = ordo("export", "samples/classic-2.ord", "-o", str(tmp_path))
    assert refused.exit_code == 2
    assert "plays.csv: error[E001]: already exists" in refused.stderr
    assert "--force" in refused.stderr
    # none of the three is written, and nothing is left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plays.csv"]
    assert (tmp_path / "plays.csv").read_text("utf-8") == "mine\n"
    forced = ordo("export", "samples/classic-2.ord", "-o", str(tmp_path), "--force")
    assert forced.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plays.csv", "records.csv", "states.csv"]
    assert (tmp_path / "plays.csv").read_text("utf-8").count("\n") == 41  # a header, 40 plies


def test_parquet_without_pyarrow_says_how_to_install_it(ordo, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow fails
    result = ordo("export", "samples/classic-2.ord", "-f", "parquet", "-o", str(tmp_path / "t"))
    assert result.exit_code == 2
    assert result.stderr == (
        "ordo export: Parquet output needs pyarrow: pip install 'ordonnance-notation[parquet]'\n"
    )
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("format", ["csv", "parquet"])
@pytest.mark.parametrize("damage", ["none", "syntax"])
def test_jobs_2_writes_the_bytes_jobs_1_writes(ordo, played, tmp_path, damage, format):
    one, two = tmp_path / "one", tmp_path / "two"
    first = ordo("export", played(damage), "-o", str(one), "-f", format, "--jobs", "1")
    second = ordo("export", played(damage), "-o", str(two), "-f", format, "--jobs", "2")
    assert first.exit_code == second.exit_code == (0 if damage == "none" else 1)
    for name in TABLES:
        assert (two / f"{name}.{format}").read_bytes() == (one / f"{name}.{format}").read_bytes()
    # records numbered through the file's blocks, as ordo validate numbers them
    numbers = query(f"SELECT list(record ORDER BY record) FROM '{one}/records.{format}'")
    assert numbers[0] == (list(range(1, 201)),)


def test_the_game_key_names_the_game_not_its_text(ordo, tmp_path):
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    renamed = text.replace("Anna Petrova", "Someone").replace("1. LH J", "1. HL J {first}")
    (tmp_path / "games.ord").write_text(text + "\n" + renamed, "utf-8")
    ordo("export", str(tmp_path / "games.ord"), *SAMPLE_FILES, "-o", str(tmp_path / "t"))
    keys = query(f"SELECT source, game_key FROM '{tmp_path}/t/records.csv'")
    ours = [key for source, key in keys if source.endswith("games.ord")]
    assert len(ours) == 2 and ours[0] == ours[1] and re.fullmatch("[0-9a-f]{16}", ours[0])
    assert len(keys) == 2 + 9 and len({key for _, key in keys}) == 9  # classic-2's, thrice


def test_the_game_key_finds_the_games_ordo_dedup_finds(ordo, tmp_path):
    dedup = ordo("dedup", "samples/invalid/results.ord")
    assert "9 records, 2 games: 7 copies left out" in dedup.stderr
    ordo("export", "samples/invalid/results.ord", "-o", str(tmp_path))
    assert query(f"SELECT count(*), count(DISTINCT game_key) FROM '{tmp_path}/records.csv'") == [
        (9, 2)
    ]


def test_broken_inputs_give_rows_and_our_own_errors_only(ordo, tmp_path):
    """Every bad input and fuzz-corpus crash of the suite, in one run: exit 1 or
    2, no traceback, and a row per record read, plays never past the replay."""
    from strategies import TESTS

    inputs = sorted(str(p) for folder in ("bad", "fuzz_corpus") for p in (TESTS / folder).iterdir())
    result = ordo("export", *inputs, "samples/invalid", "-o", str(tmp_path))
    assert result.exit_code in (1, 2) and "Traceback" not in result.output
    records = f"read_csv('{tmp_path}/records.csv', all_varchar = true)"
    assert query(
        f"SELECT count(*) > 20, count(*) FILTER (NOT valid::BOOLEAN) > 10 FROM {records}"
    ) == [(True, True)]
    plays = f"read_csv('{tmp_path}/plays.csv', all_varchar = true)"
    beyond = query(
        f"SELECT count(*) FROM {plays} p JOIN {records} r USING (source, record) "
        "WHERE p.ply::INT > r.replayed::INT"
    )
    assert beyond == [(0,)]


# The compiled core's rows (written from Replayed) against the Python path's -------------


def _parquet(rows):
    """Each table of a block's ``Rows`` as ``ordo export`` writes it in Parquet:
    the file's bytes and its rows read back."""
    tables_of = {}
    for name, stretches in rows.tables.items():
        out = io.BytesIO()
        writer = tables._ParquetWriter(out, TABLES[name])
        assert writer.write(stretches, rows.source, 10) == sum(map(len, stretches))
        writer.close()
        written = out.getvalue()
        tables_of[name] = written, pq.read_table(io.BytesIO(written)).to_pylist()
    return tables_of


def _rows_both_ways(text, monkeypatch):
    """``table_rows`` of one block, with the compiled core and without it,
    as Parquet."""
    block = Block(0, "t.ord", 1, text)
    fast = tables.table_rows(block)
    with monkeypatch.context() as m:
        m.setattr(tables, "replayed_block", lambda *args: None)
        slow = tables.table_rows(block)
    assert (fast.count, fast.invalid) == (slow.count, slow.invalid)
    return _parquet(fast), _parquet(slow)


def _read_plainly(text):
    """How many records of ``text`` the core reads with plain plays and a
    deal in seat order (those written from ``Replayed``), and how many others."""
    found = quick.replayed_block(1, text)
    assert found is not None
    read = [isinstance(item, Replayed) and item.plain and item.ordered for item in found]
    return sum(read), len(read) - sum(read)


def _game(seats, bots, seed):
    return game_text(play_game(f"export-{seed}", bots, load_deck()))


def _deal_reordered(text):
    """The record with its first two hands' lines swapped (P2's written first)."""
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("hand"))
    lines[first], lines[first + 1] = lines[first + 1], lines[first]
    return "\n".join(lines)


def _seats_written(text):
    """The record with each play's seat written (``12. P2 LH J``)."""
    seats = len(re.findall(r"^hand ", text, re.M))
    return re.sub(
        r"^(\d+)\. (?!P\d)",
        lambda m: f"{m[1]}. P{(int(m[1]) - 1) % seats + 1} ",
        text,
        flags=re.M,
    )


@needs_core
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_cores_rows_are_the_python_paths(seats, monkeypatch):
    """Records the core reads (seats written or not, scored by points or not)
    and records it leaves to Python (a deal written out of order, a glyph,
    a record with errors) make the same rows both ways, in one block."""
    bots = ["random", "greedy", "careful", "random"][:seats]
    records = [_game(seats, bots, seed) for seed in range(4)]
    records.append(_seats_written(records[0]))
    records.append(_deal_reordered(records[1]))
    records.append(records[2].replace("\n5. ", "\n5. ", 1).replace(" A\n", " A !?\n", 1))
    records.append(records[3].replace('[Scoring "classic"]', '[Scoring "points"]'))
    records.append(records[3].replace("\n7. ", "\n7. P1 ", 1))  # the wrong seat, perhaps
    text = "\n".join(records)
    fast, slow = _rows_both_ways(text, monkeypatch)
    assert fast == slow
    plainly, otherwise = _read_plainly(text)
    assert plainly >= 4 and otherwise >= 4  # both ways in one block, in turn
    found = quick.replayed_block(1, text)
    assert found is not None
    assert any(isinstance(item, Replayed) and not item.ordered for item in found)


@needs_core
@pytest.mark.parametrize("path", SAMPLE_FILES)
def test_the_samples_rows_are_the_same_both_ways(path, monkeypatch):
    fast, slow = _rows_both_ways((ROOT / path).read_text("utf-8"), monkeypatch)
    assert fast == slow


# The CSV written from Replayed (tables.csv_of) against the Python path's -------------


def _csv_both_ways(text, monkeypatch):
    """``csv_rows`` of one block, with the compiled core and without it."""
    block = Block(0, "t.ord", 1, text)
    fast = tables.csv_rows(block)
    with monkeypatch.context() as m:
        m.setattr(tables, "replayed_block", lambda *args: None)
        slow = tables.csv_rows(block)
    return fast, slow


@needs_core
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_cores_csv_is_the_python_paths(seats, monkeypatch):
    """As ``test_the_cores_rows_are_the_python_paths``, as CSV: tags with a
    comma, quoted, tags a spreadsheet would run (made inert), a record
    without an Event too."""
    bots = ["random", "greedy", "careful", "random"][:seats]
    records = [_game(seats, bots, seed) for seed in range(4)]
    records.append(_seats_written(records[0]))
    records.append(_deal_reordered(records[1]))
    records.append(records[2].replace(" A\n", " A !?\n", 1))
    records.append(records[3].replace('[Scoring "classic"]', '[Scoring "points"]'))
    records.append(records[3].replace("\n7. ", "\n7. P1 ", 1))
    records.append(re.sub(r'\[Event "[^"]*"\]', '[Event "Lyon, round 2"]', records[0]))
    records.append(re.sub(r'\[Event "[^"]*"\]\n', "", records[1]))
    records.append(re.sub(r'\[P1 "[^"]*"\]', '[P1 "Zoë, the "]', records[2]))
    records.append(re.sub(r'\[P2 "[^"]*"\]', '[P2 "=HYPERLINK(1)"]', records[3]))
    records.append(re.sub(r'\[Event "[^"]*"\]', '[Event "-1, +2"]', records[0]))
    records.append(re.sub(r'\[P1 "[^"]*"\]', '[P1 "@a"]', records[1]))
    text = "\n".join(records)
    fast, slow = _csv_both_ways(text, monkeypatch)
    assert (fast.count, fast.invalid, fast.texts) == (slow.count, slow.invalid, slow.texts)
    plainly, _ = _read_plainly(text)
    assert plainly >= 11  # the fast path was taken
    written = "".join(row for _, row, _, _ in fast.texts or ())
    assert ",'=HYPERLINK(1)," in written and ',"\'-1, +2",' in written and ",'@a," in written


@needs_core
@pytest.mark.parametrize(
    "path", [*SAMPLE_FILES, *sorted((SAMPLES / "invalid").glob("*.ord"))], ids=str
)
def test_the_samples_csv_is_the_same_both_ways(path, monkeypatch):
    text = (ROOT / path).read_text("utf-8", errors="replace")
    fast, slow = _csv_both_ways(text, monkeypatch)
    assert (fast.count, fast.invalid, fast.texts) == (slow.count, slow.invalid, slow.texts)


@needs_core
@fuzz(40)
@given(mutations())
def test_mutants_make_the_same_csv_both_ways(text):
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, slow = _csv_both_ways(text, monkeypatch)
    assert (fast.count, fast.invalid, fast.texts) == (slow.count, slow.invalid, slow.texts)


@needs_core
def test_export_writes_the_same_files_with_the_core_and_without_it(ordo, tmp_path, monkeypatch):
    """Every table, and the CSV the columns of Parquet hold, the same."""
    paths = [str(p) for p in [*SAMPLE_FILES, *sorted((SAMPLES / "invalid").glob("*.ord"))]]
    written = []
    for core in (True, False):
        out = tmp_path / str(core)
        with monkeypatch.context() as m:
            if not core:
                m.setattr(tables, "replayed_block", lambda *args: None)
            result = ordo("export", *paths, "-o", str(out))
            parquet = ordo("export", *paths, "-o", str(out), "-f", "parquet")
        assert parquet.output.replace(".parquet", ".csv") == result.output
        files = {
            f"{name}.{format}": (out / f"{name}.{format}").read_bytes()
            for name in tables.TABLES
            for format in ("csv", "parquet")
        }
        written.append((result.exit_code, result.output.replace(str(out), "OUT"), files))
    assert written[0] == written[1]
    said = re.search(r"(\d+) records, (\d+) plays and (\d+) states written", written[0][1])
    assert said is not None
    for name, count in zip(tables.TABLES, said.groups(), strict=True):  # a header and the rows
        assert written[0][2][f"{name}.csv"].count(b"\n") == 1 + int(count) > 1


def test_the_deciding_words_kept_are_deciding_words():
    """``tables._deciding`` keeps the words of two armies by less than their
    packed counts (the winner's formations and where the two differ first):
    the same words as ``stats.deciding_words`` for every pair of armies of
    up to seven cards the pairs below reach, as CSV too."""
    armies = sorted(
        {
            sum(PACKED[mask] for mask in cards)
            for size in range(8)
            for cards in itertools.islice(
                itertools.combinations_with_replacement(range(1, 32), size), 0, None, 97
            )
        }
    )
    assert len(armies) > 1000
    for winner in armies[::7]:
        for runner_up in armies[::11]:
            words = deciding_words(winner, runner_up)
            assert tables._deciding(winner, runner_up) == (words, ",".join(words) + "\n")
