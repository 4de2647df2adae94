"""What a notebook shows of the library's values: a position's and a
replay's picture (``_repr_svg_``), a replay's page (``_repr_html_``, the page
of ``ordo view`` in a frame) and an analysis with its win-chance graph,
put in one page as Jupyter puts outputs, and looked at in headless Chromium
as tests/test_viewer.py looks at the page of ``ordo view``."""

from __future__ import annotations

import re

import pytest
from strategies import ROOT

import ordonnance_notation as ordo
from ordonnance_notation.views import judgement

SAMPLE = ROOT / "samples" / "classic-2.ord"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    game = ordo.replay(SAMPLE)
    judged = ordo.analyse(game, judge=True, playouts=40, seed="notebook")
    cells = {
        "position": game[12]._repr_svg_(),
        "seat": game[12].picture("P2"),
        "final": game._repr_svg_(),
        "analysis": judged._repr_html_(),
        "game": game._repr_html_(),
    }
    page = "".join(f'<div class="output" id="{name}">{html}</div>' for name, html in cells.items())
    path = tmp_path_factory.mktemp("notebook") / "notebook.html"
    path.write_text(f"<!doctype html><meta charset=utf-8><title>cells</title>{page}", "utf-8")
    return path


@pytest.fixture
def page(browser, outputs):
    tab = browser.new_page(viewport={"width": 1000, "height": 900})
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(outputs.as_uri())
    yield tab
    assert errors == []
    tab.close()


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_a_position_draws_itself(page):
    box = _box(page, "#position > svg")
    assert box["width"] > 600 and box["height"] > 600
    texts = page.locator("#position svg text").all_text_contents()
    assert [t for t in texts if t.startswith("ply ")] == [
        "ply 12 of 40: P2 plays SH to Tripoli, after drawing SF"
    ]
    assert any("Jerusalem" in text for text in texts)
    assert page.locator("#position svg use").count() > 20  # the cards' icons drawn


def test_a_seats_picture_shows_no_card_of_another_hand(page):
    assert "5 cards, hidden" in page.locator("#seat svg text").all_text_contents()
    assert "5 cards, hidden" not in page.locator("#position svg text").all_text_contents()
    # P1 holds the only BSF and BS: in P1's picture, not in P2's
    for card in ("BSF", "BS"):
        assert page.locator(f'#position svg use[href="#card-{card}"]').count() == 1
        assert page.locator(f'#seat svg use[href="#card-{card}"]').count() == 0


def test_a_replay_draws_its_last_position(page):
    texts = page.locator("#final svg text").all_text_contents()
    assert any(t.startswith("ply 40 of 40: P2 plays LF to Cyprus") for t in texts)


def test_an_analysis_shows_its_words_and_its_graph(page):
    assert page.locator("#analysis pre").text_content().startswith(f"{SAMPLE}, record 1")
    box = _box(page, "#analysis > svg")
    assert box["width"] == 600 and box["height"] == 150
    lines = page.locator("#analysis svg polyline")
    assert lines.count() == 2
    for k in range(2):
        drawn = lines.nth(k).bounding_box()
        assert drawn is not None and drawn["width"] > 500  # a line over the whole game
    colours = {lines.nth(k).evaluate("e => getComputedStyle(e).stroke") for k in range(2)}
    assert len(colours) == 2  # the page's style: a colour a seat


def test_a_replay_is_the_page_of_ordo_view_and_steps_in_its_frame(page):
    frame_box = _box(page, "#game iframe")
    assert frame_box["height"] == 640
    frame = page.frame_locator("#game iframe")
    frame.locator("body[data-ready]").wait_for(state="attached")
    heading = frame.locator("#v-picture svg text").first
    assert heading.text_content().startswith("ply 40 of 40: P2 plays LF to Cyprus")
    frame.locator("#v-slider").focus()
    page.keyboard.press("Home")
    assert heading.text_content() == "ply 0 of 40: before the first play"


def test_the_graph_drawn_alone_has_the_pages_size_and_dots():
    script = (ROOT / "ordonnance_notation" / "views" / "viewer" / "viewer.js").read_text("utf-8")
    size = re.search(r"const GRAPH = \{ width: (\d+), height: (\d+), pad: (\d+) \};", script)
    assert size is not None and tuple(map(int, size.groups())) == judgement.GRAPH
    radii = re.search(
        r'r: grade === "blunder" \? (\d+) : grade === "mistake" \? (\d+) : (\d+)', script
    )
    assert radii is not None
    assert dict(
        zip(("blunder", "mistake", "inaccuracy"), map(int, radii.groups()), strict=True)
    ) == (judgement._DOT)
