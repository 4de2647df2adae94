"""``ordo dedup``: the same game kept once, whatever its writing; the most
annotated copy kept; the copies' differing tags said."""

from __future__ import annotations

from pathlib import Path

import pytest
from strategies import SAMPLES

from ordonnance_notation import parse_text
from ordonnance_notation.querying.dedup import annotated, game_key, seen_block
from ordonnance_notation.runs.blocks import Block, block_chunks

GAME = (SAMPLES / "classic-2.ord").read_text("utf-8").strip("\n") + "\n"


def _rewritten(text: str) -> str:
    """The same game written otherwise: another Event, seats written out, a
    card's letters in another order, a glyph and comments, other spacing."""
    text = text.replace('[Event "Lyon club night"]', '[Event "Lyon, the replay"]')
    text = text.replace("1. LH J\n", "1. P1 HL J !? {an opening}\n").replace(
        "2. F T", "2.  P2 F  T"
    )
    return "; typed again from the score sheet\n" + text


def test_the_same_game_however_written():
    [plain] = parse_text(GAME)
    [other] = parse_text(_rewritten(GAME))
    assert game_key(plain) == game_key(other)
    assert annotated(other) == annotated(plain) + 3  # two comments, a glyph
    [changed] = parse_text(GAME.replace("40. LF C", "40. LF A"))
    assert game_key(changed) != game_key(plain)


def test_the_most_annotated_copy_is_kept_and_the_tags_that_differ_are_said(ordo, tmp_path):
    a, b = tmp_path / "a.ord", tmp_path / "b.ord"
    a.write_text(GAME, "utf-8")
    b.write_text(_rewritten(GAME), "utf-8")
    result = ordo("dedup", str(a), str(b))
    assert result.exit_code == 0
    assert result.stdout == _rewritten(GAME)
    assert f"{a} record 1 (line 1) left out: the same game as {b} record 1 (line 1), kept" in (
        result.stderr
    )
    assert (
        'Event: "Lyon, the replay" in the copy kept, "Lyon club night" in '
        f"{a} record 1 (line 1)" in result.stderr
    )
    assert result.stderr.rstrip().endswith(
        "2 records, 1 game: 1 copy left out (1 of the games with tags that differ)"
    )


def test_equal_copies_keep_the_first(ordo, tmp_path):
    a = tmp_path / "a.ord"
    a.write_text(GAME + "\n" + GAME.replace('[Round "1"]\n', '[Round "1"]\n\n', 1), "utf-8")
    result = ordo("dedup", str(a))
    assert result.stdout == GAME
    assert "record 2 (line 64) left out: the same game as" in result.stderr
    assert "tags differ" not in result.stderr


def test_distinct_games_come_out_unchanged_and_dedup_is_idempotent(ordo, tmp_path):
    archive = tmp_path / "a.ord"
    ordo("play", "--games", "40", "--seed", "d", "-o", str(archive))
    text = archive.read_text("utf-8")
    once = ordo("dedup", str(archive))
    assert once.stdout == text
    doubled = tmp_path / "doubled.ord"
    doubled.write_text(text + "\n" + text, "utf-8")
    twice = ordo("dedup", "--quiet", str(doubled))
    assert twice.stdout == text
    assert twice.stderr.strip() == "80 records, 40 games: 40 copies left out"
    assert ordo("dedup", "-q", "-", input=twice.stdout).stdout == text  # standard input, twice


def test_what_is_no_game_is_kept(ordo, tmp_path):
    broken = '[P1 "A"]\n[P2 "B"]\n1. HF @ A\n'
    header_only = '[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n'
    text = "; a note of its own\n\n" + "\n".join([broken, broken, header_only, header_only])
    path = tmp_path / "a.ord"
    path.write_text(text, "utf-8")
    result = ordo("dedup", str(path))
    assert result.exit_code == 0
    assert result.stdout == text
    assert "4 records, 4 games: 0 copies left out" in result.stderr


@pytest.mark.slow  # hundreds of records played, then read on one and on two processes
def test_the_same_output_on_two_processes(ordo, tmp_path):
    archive = tmp_path / "a.ord"
    ordo("play", "--players", "3", "--games", "200", "--seed", "j", "-o", str(archive))
    text = archive.read_text("utf-8")
    (tmp_path / "b.ord").write_text(text.replace('[Event "Self-play"]', '[Event "Again"]'), "utf-8")
    one = ordo("dedup", "--jobs", "1", str(archive), str(tmp_path / "b.ord"))
    two = ordo("dedup", "--jobs", "2", str(archive), str(tmp_path / "b.ord"))
    assert one.stdout == two.stdout == text
    assert one.stderr == two.stderr and one.stderr.count("left out:") == 200


@pytest.mark.parametrize("name", ["nowhere.ord"])
def test_an_unreadable_input_exits_2(ordo, name):
    assert ordo("dedup", name).exit_code == 2


def _cut(text: str, plies: int) -> str:
    """``text``, one record, up to its ply ``plies`` (the markers before it kept)."""
    kept = []
    for line in text.strip("\n").split("\n"):
        number = line.split(".")[0]
        if (number.isdigit() and int(number) > plies) or line.startswith("result"):
            break
        kept.append(line)
    return "\n".join(kept) + "\n"


def _records(text: str) -> list[str]:
    from ordonnance_notation.notation.cutting import split_records

    return [chunk for _, chunk in split_records(text) if chunk.strip()]


def test_a_start_of_a_longer_game_is_left_out_for_the_longest(ordo, tmp_path, played):
    games = _records(Path(played("none")).read_text("utf-8"))[:3]
    starts = [_cut(games[0], 12), _cut(games[1], 0), _cut(games[0], 30), _cut(games[2], 39)]
    other = _cut(games[2], 20).replace("\n20. ", "\n20. P2 ", 1)  # the same start, seated
    (tmp_path / "starts.ord").write_text("\n".join([*starts, other]), "utf-8")
    (tmp_path / "games.ord").write_text("\n".join(games), "utf-8")
    paths = [str(tmp_path / "starts.ord"), str(tmp_path / "games.ord")]
    plain = ordo("dedup", *paths)
    assert plain.exit_code == 0 and len(_records(plain.stdout)) == 8  # no copy of a game
    folded = ordo("dedup", "--prefix", *paths)
    assert folded.exit_code == 0
    assert _records(folded.stdout) == [g.strip("\n") + "\n" for g in games]
    said = folded.stderr.splitlines()
    assert (
        said[0]
        == f"{paths[0]} record 1 (line 1) left out: the start of {paths[1]} record 1 (line 1), kept"
    )
    assert sum("left out: the start of" in line for line in said) == 5
    assert said[-1] == "8 records, 3 games: 0 copies left out, 5 starts of longer games left out"
    finished = ordo("dedup", "--prefix", str(tmp_path / "games.ord"), str(tmp_path / "games.ord"))
    assert "3 records" not in finished.stderr and "0 starts" in finished.stderr


def test_the_compiled_core_and_the_parser_key_the_same_games(played):
    from ordonnance_notation.checking.quick import replayed_block
    from ordonnance_notation.notation.games import game_parts
    from ordonnance_notation.querying.dedup import starts, starts_block

    text = Path(played("none")).read_text("utf-8")
    if replayed_block(1, text) is None:
        pytest.skip("no compiled core here (ORDO_PURE_PYTHON, or built without a compiler)")
    cut = "\n".join(_cut(game, n) for n, game in enumerate(_records(text)[:41]))  # 40: whole
    block = Block(0, "t", 1, text + "\n" + cut)
    compiled = seen_block(block).seen
    chunks = [Block(0, "t", line, chunk, True) for line, chunk in block_chunks(block)]
    parsed = [seen for chunk in chunks for seen in seen_block(chunk).seen]
    assert parsed == compiled and len(compiled) == 241
    assert sum(seen.short for seen in compiled) == 40 and len({s.deal for s in compiled}) == 200
    found = [started for chunk in chunks for started in starts_block(chunk)]
    assert starts_block(block) == found and sum(map(len, found)) > 200 * 40
    record = next(iter(parse_text(_cut(_records(text)[0], 12))))
    assert starts(*game_parts(record))[-1] == game_key(
        next(iter(parse_text(_cut(_records(text)[0], 11))))
    )
    assert len(starts(*game_parts(record))) == 12  # the deal alone, then 1 to 11 plies


@pytest.mark.slow  # megabytes through a pipe
def test_standard_input_is_kept_aside_bounded_and_leaves_nothing_behind(tmp_path):
    """Issue 31, item 3: `dedup -` copied all of /dev/zero to the temporary
    folder (18 GB in 40 s), and its copy stayed after SIGTERM."""
    import os
    import signal
    import subprocess
    import sys
    import time

    folder = tmp_path / "tmp"
    folder.mkdir()
    env = {**os.environ, "TMPDIR": str(folder)}
    command = [sys.executable, "-m", "ordonnance_notation", "dedup", "-"]
    with open("/dev/zero", "rb") as zero:
        started = time.monotonic()
        result = subprocess.run(
            command,
            stdin=zero,
            env=env,
            capture_output=True,
            timeout=60,
            preexec_fn=_small_files,
            check=False,
        )
    assert result.returncode == 1 and b"E002" in result.stderr
    assert time.monotonic() - started < 30 and list(folder.iterdir()) == []
    waiting = subprocess.Popen(command, stdin=subprocess.PIPE, env=env, stderr=subprocess.PIPE)
    waiting.stdin.write(GAME.encode() * 50)  # then nothing more: it waits for the rest
    waiting.stdin.flush()
    time.sleep(1)
    waiting.send_signal(signal.SIGTERM)
    waiting.wait(timeout=30)
    waiting.stdin.close()
    assert list(folder.iterdir()) == []


def _small_files() -> None:
    """No file of more than 100 MB (before the fix, the copy filled the disk)."""
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (100 << 20, 100 << 20))


def test_the_copy_of_standard_input_stops_after_a_line_too_long():
    import io

    from ordonnance_notation.querying.dedup import spooled

    spool = io.BytesIO()
    spooled(io.BytesIO(b"a\n" * 10 + b"x" * 5_000_000 + b"\nmore\n"), spool, longest=1000)
    assert 1000 < len(spool.getvalue()) <= (1 << 20) + 20
    whole = io.BytesIO()
    spooled(io.BytesIO(GAME.encode() * 3000), whole, longest=1000)
    assert whole.getvalue() == GAME.encode() * 3000


@pytest.mark.parametrize("text", ["\n\n", "\ufeff", "  \n"], ids=["blank", "bom", "spaces"])
def test_a_file_of_blank_lines_holds_no_record(ordo, tmp_path, text):
    """Found by the fuzz test: it was ``internal error: ValueError``, exit 3."""
    path = tmp_path / "blank.ord"
    path.write_text(text, "utf-8")
    result = ordo("dedup", str(path))
    assert result.exit_code == 1, result.output
    assert "error[E105]: no record in this file" in result.output
