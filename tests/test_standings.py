"""``ordo stats --by player`` and ``--ratings``: the standings against what
``ordo validate --format json`` says of each record, the ratings against
OpenSkill driven directly, in date order."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from openskill.models import PlackettLuce

from ordonnance_notation.checking.validator import validate
from ordonnance_notation.engine.scoring import Outcome
from ordonnance_notation.files.sources import open_source
from ordonnance_notation.notation.parser import parse_lines
from ordonnance_notation.views.stats import Standing, Stats, collect, places

READABLE = [
    "samples/annotated.ord",
    "samples/classic-2.ord",
    "samples/club-evening.ord",
    "samples/later-capture-3.ord",
    "samples/no-deal.ord",
    "samples/points-4.ord",
    "samples/points-tie-3.ord",
    "samples/invalid/rules.ord",
]


def test_places_put_the_winner_first_and_equal_scores_together():
    assert places(Outcome(1, (1, 4), (1, 4), None, ())) == (1, 0)
    assert places(Outcome(2, (2, 1, 2, 1), (2, 1, 2, 1), None, (0, 2))) == (1, 2, 0, 2)
    assert places(Outcome(None, (5, 5, 2), (2, 2, 1), None, (0, 1))) == (0, 0, 1)


def test_the_standings_agree_with_the_verdicts(ordo):
    verdicts = json.loads(ordo("validate", "--format", "json", *READABLE).stdout)["records"]
    points_files = {"samples/points-4.ord", "samples/points-tie-3.ord"}
    expected = defaultdict(lambda: [0, 0, 0, 0, 0])
    for v in verdicts:
        if not (v["valid"] and v["finished"]):
            continue
        seats = len(v["players"])
        rule = "points" if v["file"] in points_files else "classic"
        for seat, name in enumerate(v["players"]):
            label = f"P{seat + 1}"
            row = expected[name, seats, rule]
            row[0] += 1
            row[1] += v["winner"] == label
            row[2] += v["winner"] is None and v["scores"][label] == max(v["scores"].values())
            row[3] += sum(1 for m in v["markers"] if m["seat"] == label)
            row[4] += v["scores"][label] if rule == "points" else 0
    result = ordo("stats", "--by", "player", "--format", "json", *READABLE)
    assert result.exit_code == 1  # rules.ord holds invalid records, as stats says
    found = json.loads(result.stdout)
    got = {
        (r["player"], r["seats"], r["scoring"]): [
            r["games"],
            r["wins"],
            r["shared"],
            r["states"],
            r["points"],
        ]
        for r in found["standings"]
    }
    assert got == dict(expected)
    assert found["games"] == sum(1 for v in verdicts if v["valid"] and v["finished"])


def test_standings_merged_record_by_record_are_those_collected_at_once():
    reports = [
        validate(item) for path in READABLE for item in parse_lines(open_source(path).lines(), path)
    ]
    whole = collect(reports, by_player=True)
    merged = Stats(by_player=True)
    for report in reports:
        merged.merge(collect([report], by_player=True))
    assert merged.standing_rows() == whole.standing_rows()
    rows = whole.standing_rows()
    assert Standing("Anna Petrova", 2, "classic", games=2, states=1 + 2) in rows  # two records
    assert Standing("Boris Lind", 3, "points", games=1, states=2, points=12) in rows


def test_the_standings_table(ordo):
    text = ordo("stats", "--by", "player", "samples/classic-2.ord").stdout
    assert text.splitlines() == [
        "standings: 2 seats, classic scoring (1 game)",
        "  player                    games   wins  win %  states per game",
        "  Boris Lind                    1      1 100.0%       4     4.00",
        "  Anna Petrova                  1      0   0.0%       1     1.00",
    ]


@pytest.fixture
def two_games(ordo, tmp_path):
    """Two finished games from self-play, with names and dates put in."""
    archive = tmp_path / "a.ord"
    ordo("play", "--games", "2", "--seed", "a", "-o", str(archive))
    verdicts = json.loads(ordo("validate", "--format", "json", str(archive)).stdout)["records"]
    return archive.read_text("utf-8"), [v["winner"] for v in verdicts]


def _named(text, dates):
    records = text.split('[Notation "1"]')[1:]
    out = []
    for record, date in zip(records, dates, strict=True):
        named = record.replace('[P1 "random"]', '[P1 "Anna"]')
        named = named.replace('[P2 "random"]', '[P2 "Boris"]')
        if date:
            named = named.replace("[Round", f'[Date "{date}"]\n[Round', 1)
        out.append('[Notation "1"]' + named)
    return "".join(out)


def _direct(order):
    """OpenSkill driven directly: each (winner seat) game in ``order``."""
    model = PlackettLuce()
    anna, boris = model.rating(name="Anna"), model.rating(name="Boris")
    for winner in order:
        ranks = [0, 1] if winner == "P1" else [1, 0]
        [[anna], [boris]] = model.rate([[anna], [boris]], ranks=ranks)
    return {"Anna": anna.ordinal(), "Boris": boris.ordinal()}


@pytest.mark.parametrize(
    ("dates", "order"),
    [
        (("2026.11.01", "2026.11.02"), (0, 1)),
        (("2026.11.02", "2026.11.01"), (1, 0)),
        ((None, "2026.11"), (1, 0)),  # a game without a date comes after the dated ones
    ],
)
def test_ratings_follow_the_dates(ordo, tmp_path, two_games, dates, order):
    text, winners = two_games
    assert winners[0] != winners[1], "the seed gives one win each"
    path = tmp_path / "named.ord"
    path.write_text(_named(text, dates), "utf-8")
    result = ordo("stats", "--ratings", "--format", "json", str(path))
    assert result.exit_code == 0, result.output
    rated = json.loads(result.stdout)["ratings"]
    assert rated["games"] == 2
    expected = _direct([winners[n] for n in order])
    got = {r["player"]: r["rating"] for r in rated["players"]}
    assert got == pytest.approx(expected)
    assert [r["player"] for r in rated["players"]] == sorted(expected, key=lambda p: -expected[p])


def test_ratings_without_openskill_say_what_to_install(ordo, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "openskill" else real(name, *a),
    )
    result = ordo("stats", "--ratings", "samples/classic-2.ord")
    assert result.exit_code == 2
    assert "pip install 'ordonnance-notation[ratings]'" in result.output
