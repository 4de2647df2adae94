"""ordo replay --format svg: the table at a step as an SVG picture. Every step
of the samples (2, 3 and 4 seats, no deal, an illegal play) is well-formed
SVG that shows exactly the cards on the table and the hands the viewer may
see; a seat's view holds no other seat's card at all."""

import xml.etree.ElementTree as ET
from collections import Counter
from xml.sax import saxutils

import pytest
from strategies import ROOT

from ordonnance_notation import parse_text, validate
from ordonnance_notation.engine.cards import Icon, State, seat_name
from ordonnance_notation.views import picture
from ordonnance_notation.views.board import render_step
from ordonnance_notation.views.picture import ICON_COLOURS, scene, scenes, step_picture
from ordonnance_notation.views.steps import steps_of

SVG = "{http://www.w3.org/2000/svg}"

CASES = [
    ("samples/classic-2.ord", 1),
    ("samples/later-capture-3.ord", 1),
    ("samples/points-4.ord", 1),
    ("samples/no-deal.ord", 1),
    ("samples/club-evening.ord", 3),  # unfinished
    ("samples/invalid/rules.ord", 3),  # an illegal play: the replay stops
]


def replayed(path: str, record: int):
    items = list(parse_text((ROOT / path).read_text("utf-8"), path))
    found = steps_of(validate(items[record - 1], steps=True))
    assert found is not None
    return found


def uses(svg: str) -> Counter[str]:
    """How often each card face is placed, outside the definitions."""
    root = ET.fromstring(svg)
    placed = Counter()
    for element in root.iter(f"{SVG}use"):
        target = element.get("href", "")
        if target.startswith("#card-"):
            placed[target.removeprefix("#card-")] += 1
    return placed


def faces(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {
        symbol.get("id", "").removeprefix("card-")
        for symbol in root.iter(f"{SVG}symbol")
        if symbol.get("id", "").startswith("card-")
    }


@pytest.mark.parametrize(("path", "record"), CASES)
def test_every_step_shows_the_table_and_the_hands_and_nothing_else(path, record):
    steps = replayed(path, record)
    for step in steps.steps:
        game = step.game
        svg = step_picture(steps, step).svg("t")
        expected = Counter(
            str(unit.card) for armies in game.armies for army in armies for unit in army.units
        )
        for hand in game.hands or ():
            expected.update(str(card) for card in hand)
        assert uses(svg) == expected, step.number
        assert faces(svg) == set(expected)  # a face for each card shown, no other
        outlined = ET.fromstring(svg).findall(f".//{SVG}rect[@class='last']")
        assert len(outlined) == (1 if step.turn else 0)


@pytest.mark.parametrize(("path", "record"), CASES[:3])
def test_a_seats_view_holds_no_card_of_another_hand(path, record):
    steps = replayed(path, record)
    step = steps.steps[len(steps.steps) // 2]
    game = step.game
    assert game.hands is not None
    on_table = Counter(
        str(unit.card) for armies in game.armies for army in armies for unit in army.units
    )
    for seat in range(game.seats):
        svg = step_picture(steps, step, seat).svg()
        assert uses(svg) == on_table + Counter(str(card) for card in game.hands[seat])
        for other in range(game.seats):
            if other != seat:
                assert f"{len(game.hands[other])} cards, hidden" in svg
        only_elsewhere = (
            {str(card) for s, hand in enumerate(game.hands) if s != seat for card in hand}
            - set(on_table)
            - {str(card) for card in game.hands[seat]}
        )
        assert not only_elsewhere & faces(svg)


def test_the_words_are_the_text_boards():
    steps = replayed("samples/classic-2.ord", 1)
    svg = step_picture(steps, steps.steps[-1]).svg()
    root = ET.fromstring(svg)
    root.remove(root.find(f"{SVG}defs"))
    texts = [element.text for element in root.iter(f"{SVG}text")]
    assert "ply 40 of 40: P2 plays LF to Cyprus" in texts[0]
    assert any(t and t.startswith("game over: P2 wins") for t in texts)
    assert any(t and t.startswith("J Jerusalem: marker 1 to P2 at ply") for t in texts)


def test_a_step_that_resolves_a_state_says_so_under_the_heading():
    steps = replayed("samples/classic-2.ord", 1)
    step = next(s for s in steps.steps if s.turn and s.turn.resolution)
    resolution = step.turn.resolution
    svg = step_picture(steps, step).svg()
    assert (
        f"{resolution.state.full_name} resolved: marker {resolution.marker} to "
        f"{seat_name(resolution.winner)}"
    ) in svg


def test_icons_are_drawn_in_the_editions_colours():
    svg = step_picture(*(lambda r: (r, r.steps[1]))(replayed("samples/classic-2.ord", 1))).svg()
    symbols = {s.get("id"): s for s in ET.fromstring(svg).iter(f"{SVG}symbol")}
    for icon in Icon:
        group = symbols[f"icon-{icon.name}"].find(f"{SVG}g")
        assert group is not None and group.get("fill") == ICON_COLOURS[icon]
    assert ICON_COLOURS[Icon.L] == "#8d5a2b" and ICON_COLOURS[Icon.F] == "#c62828"


def test_control_characters_in_a_name_are_shown_as_escapes_and_the_svg_parses():
    text = (ROOT / "samples/classic-2.ord").read_text("utf-8")
    text = text.replace("Anna Petrova", "Anna\x1b[2J <b>&", 1)
    [item] = parse_text(text, "t.ord")
    steps = steps_of(validate(item, steps=True))
    assert steps is not None
    svg = step_picture(steps, steps.steps[0]).svg("Anna\x1b")
    ET.fromstring(svg)
    assert "\x1b" not in svg and "<b>" not in svg and "&lt;b&gt;&amp;" in svg


def test_replay_writes_an_svg_file(ordo, tmp_path):
    out = tmp_path / "step.svg"
    result = ordo(
        "replay", "samples/classic-2.ord", "--ply", "12", "--format", "svg", "-o", str(out)
    )
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text("utf-8"))
    assert root.tag == f"{SVG}svg"
    assert "step 12" in (root.findtext(f"{SVG}title") or "")
    again = ordo("replay", "samples/classic-2.ord", "--format", "svg", "-o", str(out))
    assert again.exit_code == 2 and "already exists" in again.output
    stepped = ordo("replay", "samples/classic-2.ord", "--format", "svg", "--step")
    assert stepped.exit_code == 2 and "leave out --step" in stepped.output


@pytest.mark.parametrize(("path", "record"), CASES)
def test_scenes_in_order_are_each_steps_scene(path, record):
    steps = replayed(path, record)
    assert list(scenes(steps)) == [scene(steps, step) for step in steps.steps]


def test_a_seats_view_leaves_out_what_stopped_the_replay():
    steps = replayed("samples/invalid/rules.ord", 2)  # P1 plays a card P1 does not hold
    assert steps.stopped is not None and "but holds only" in steps.stopped.message
    last = steps.steps[-1]
    assert f"({steps.stopped.message})" in step_picture(steps, last).svg()
    for seat in (0, 1):
        seen = step_picture(steps, last, seat).svg()
        assert "but holds only" not in seen and "replay stops here: ply 3 is E" in seen
        board = render_step(steps, last, seat).plain
        assert "but holds only" not in board and "replay stops here: ply 3 is E" in board
    assert "but holds only" in render_step(steps, last).plain


@pytest.mark.parametrize(
    "text",
    [
        "",
        "plain",
        "a & b < c > d",
        'say "hi"',
        "it's",
        "both \" and '",
        "lines\nand\ttabs\r",
        "&amp;",
    ],
)
def test_the_pictures_escape_text_and_attributes_as_the_standard_library_does(text):
    assert picture.escape(text) == saxutils.escape(text)
    assert picture.quoteattr(text) == saxutils.quoteattr(text)


def state_texts(svg: str) -> list[str]:
    """The line under each state's name, A to T."""
    root = ET.fromstring(svg)
    return [
        group.findall(f"{SVG}text")[1].text or ""
        for group in root.iter(f"{SVG}g")
        if len(group) == 2 and all(child.get("text-anchor") == "middle" for child in group)
    ]


def boxes(svg: str, css: str) -> int:
    """How many army boxes are highlighted as ``css`` (lead, won)."""
    return len(ET.fromstring(svg).findall(f".//{SVG}rect[@class='{css}']"))


def test_no_seat_is_ahead_where_the_armies_are_level_or_it_has_no_card():
    """Ply 4 of classic-2: P1 has a card in Jerusalem only, P2 one in Edessa
    and one in Tripoli; no army has a formation, so every state that holds a
    card is level so far, in the heads, the status lines and the boxes."""
    steps = replayed("samples/classic-2.ord", 1)
    for seat in (None, 0, 1):
        svg = step_picture(steps, steps.steps[4], seat).svg()
        assert state_texts(svg) == ["no units yet", "no units yet"] + ["level so far"] * 3
        assert "ahead" not in svg
        assert svg.count("level so far: identical formations") == 3
        assert boxes(svg, "lead") == 0


@pytest.mark.parametrize(("path", "record"), CASES)
def test_the_head_the_status_and_the_box_of_a_state_name_one_leader(path, record):
    """Whoever a state's head names ahead is the seat its status line says
    would win now, holds cards there, and is the only box highlighted; a
    state level so far highlights no box."""
    steps = replayed(path, record)
    seen = set()
    for shown in scenes(steps):
        for i, (head, status) in enumerate(zip(shown.state_heads, shown.statuses, strict=True)):
            leading = {s for s, troops in enumerate(shown.armies[i]) if troops.css == "lead"}
            won = {s for s, troops in enumerate(shown.armies[i]) if troops.css == "won"}
            if head.endswith(" ahead"):
                seat = int(head[1]) - 1
                assert status.split(": ", 1)[1].startswith(f"{head[:2]} would win now: ")
                assert shown.armies[i][seat].cards
                assert leading == {seat} and not won
                seen.add("ahead")
            elif head == "level so far":
                assert status.endswith(": level so far: identical formations")
                assert not leading and not won
                seen.add("level")
            elif head.startswith("marker "):
                assert won == {int(head[-1]) - 1} and not leading
            else:
                assert head == "no units yet" and not leading and not won
    if path != "samples/invalid/rules.ord":
        assert seen == {"ahead", "level"}


def test_the_board_and_the_picture_ask_one_function_who_leads():
    from ordonnance_notation.views.board import leader

    steps = replayed("samples/classic-2.ord", 1)
    game = steps.steps[4].game
    assert [leader(game, state) for state in State] == [None] * 5
    last = steps.steps[-1].game
    assert [leader(last, state) for state in State] == [
        last.resolution(state).winner for state in State
    ]


def test_a_hands_label_is_the_seats_whole_label():
    steps = replayed("samples/later-capture-3.ord", 1)
    root = ET.fromstring(step_picture(steps, steps.steps[0]).svg())
    labels = [t.text for t in root.iter(f"{SVG}text") if (t.text or "").startswith("hand ")]
    assert labels == ["hand P1 Anna Petrova", "hand P2 Boris Lind", "hand P3 Chloé Martin"]
