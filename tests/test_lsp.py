"""``ordo lsp``: the language server, spoken to over standard input and
output by a real client (pytest-lsp), as an editor would."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp
from strategies import ROOT, SAMPLES

from ordonnance_notation.archives.conversion import canonical
from ordonnance_notation.checking.fixing import fix_source
from ordonnance_notation.checking.validator import validate
from ordonnance_notation.checking.verdicts import Checked
from ordonnance_notation.editor import actions, places, wire
from ordonnance_notation.editor.documents import Document
from ordonnance_notation.files.sources import Source
from ordonnance_notation.notation.cutting import split_records
from ordonnance_notation.notation.parser import parse_text
from ordonnance_notation.runs.validation import Validation

pytest_lsp = pytest.importorskip("pytest_lsp")
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

served = pytest.mark.asyncio(loop_scope="module")  # a test that talks to the server


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "ordonnance_notation", "lsp"]),
)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=pytest_lsp.client_capabilities("visual-studio-code"),
            root_uri=ROOT.as_uri(),
        )
    )
    yield
    await lsp_client.shutdown_session()


_opened: dict[str, int] = {}


async def _open(client: LanguageClient, name: str, text: str) -> str:
    """Opens ``text`` as a new document; its URI, once its diagnostics came."""
    count = _opened[name] = _opened.get(name, 0) + 1
    uri = (ROOT / "tests" / f"lsp-{count}-{name}").as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "ord", 1, text))
    )
    await _diagnosed(client, uri)
    return uri


async def _diagnosed(client: LanguageClient, uri: str) -> list[lsp.Diagnostic]:
    while True:
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if uri in client.diagnostics:
            return list(client.diagnostics.pop(uri))


async def _change(client: LanguageClient, uri: str, version: int, text: str) -> list:  # type: ignore[type-arg]
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangeWholeDocument(text)],
        )
    )
    return await _diagnosed(client, uri)


def _as_validate(diagnostic: lsp.Diagnostic) -> dict[str, object]:
    """What of an LSP diagnostic ``ordo validate --format json`` says too."""
    message, _, help = diagnostic.message.partition("\nhelp: ")
    start, end = diagnostic.range.start, diagnostic.range.end
    related = diagnostic.related_information or []
    return {
        "code": diagnostic.code,
        "message": message,
        "help": help or None,
        "place": (start.line + 1, start.character + 1, end.line + 1, end.character + 1),
        "related": [
            (r.message, r.location.range.start.line + 1, r.location.range.start.character + 1)
            for r in related
        ],
        "severity": diagnostic.severity,
    }


_SEVERITIES = {"error": 1, "warning": 2, "note": 3}


def _validated(path: Path) -> list[dict[str, object]]:
    """``ordo validate --format json``'s diagnostics of a file, in the same shape."""
    found = []
    for item in Validation([str(path)], with_json=True):
        assert isinstance(item, Checked) and item.json is not None
        for d in item.json["diagnostics"]:
            found.append(
                {
                    "code": d["code"],
                    "message": d["message"],
                    "help": d["help"],
                    "place": (d["line"], d["column"], d["end_line"], d["end_column"]),
                    "related": [(r["message"], r["line"], r["column"]) for r in d["related"]],
                    "severity": _SEVERITIES[d["severity"]],
                }
            )
    return found


INVALID = ["content.ord", "results.ord", "rules.ord", "syntax.ord"]


@pytest.mark.parametrize("name", INVALID)
@served
async def test_the_diagnostics_are_those_of_ordo_validate(
    client: LanguageClient, name: str
) -> None:
    path = SAMPLES / "invalid" / name
    uri = (ROOT / "tests" / f"lsp-validate-{name}").as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "ord", 1, path.read_text("utf-8")))
    )
    published = [_as_validate(d) for d in await _diagnosed(client, uri)]
    assert published == _validated(path)
    if name != "syntax.ord":  # the second places of E208, E302, E305, E414
        assert any(d["related"] for d in published)


@served
async def test_an_edit_publishes_again_and_moves_the_rest(client: LanguageClient) -> None:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    uri = await _open(client, "classic.ord", text)
    broken = text.replace("3. S J\n", "3. S Jerusalam\n")
    found = await _change(client, uri, 2, broken)
    assert [(d.code, d.range.start.line + 1, d.range.start.character) for d in found] == [
        ("E202", 19, 5),
        ("N601", 19, 0),
    ]
    assert "did you mean Jerusalem?" in found[0].message
    moved = await _change(client, uri, 3, "; a line above\n" + broken)
    assert [(d.code, d.range.start.line + 1) for d in moved] == [("E202", 20), ("N601", 20)]
    assert await _change(client, uri, 4, text) == []


def test_an_edit_checks_only_the_records_it_changed() -> None:
    text = (SAMPLES / "club-evening.ord").read_text("utf-8")
    document = Document("club.ord")
    first = document.diagnostics(text)
    assert document.checks == 3
    again = document.diagnostics("; a comment\n\n" + text.replace("LH J", "LH Jerusalem", 1))
    assert document.checks == 4  # the record edited; the two others only moved
    assert len(again) == len(first)
    whole = [
        d
        for r in map(validate, parse_text("; a comment\n\n" + text, "club.ord"))
        for d in r.diagnostics
    ]
    assert [d.span for d in again][1:] == [d.span for d in whole][1:]


@pytest.mark.slow  # many edits
def test_a_file_edited_is_cut_into_records_as_split_records_cuts_it() -> None:
    """The records are cut again only around an edit: the same records as
    cutting the whole text, whatever the edit (a tag line, a play, a blank
    line, a comment opened or closed...)."""
    rng = random.Random(29)
    paths = [*sorted(SAMPLES.glob("*.ord")), *sorted((SAMPLES / "invalid").glob("*.ord"))]
    text = "\n".join(p.read_text("utf-8") for p in paths if p.name != "encoding.ord")
    words = ["", "\n", "\n\n", '[P1 "x"]\n', '[Event "y"]\n\n', "1. HF J\n", "#1 J P1\n"]
    words += ["; c\n", "result P1\n", "{", "}", "hand P1: L\n", "]", '"', "12. "]
    for _ in range(300):
        document = Document("edited.ord")
        edited = text
        document.cut(edited)
        for _ in range(3):
            at = rng.randrange(len(edited) + 1)
            end = min(len(edited), at + rng.choice([0, 0, 1, 5, 30]))
            edited = edited[:at] + rng.choice(words) + edited[end:]
            cut = [(piece.first_line, piece.text) for piece in document.cut(edited)]
            assert cut == [(line, chunk) for line, chunk in split_records(edited) if chunk.strip()]


@served
async def test_hover_on_a_play_shows_the_table_after_it(client: LanguageClient) -> None:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    uri = await _open(client, "classic.ord", text)
    line = text.split("\n").index("20. LS J")
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, 1))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    shown = hover.contents.value
    assert "ply 20 of 40: P2 plays LS to Jerusalem" in shown
    assert "J Jerusalem  P1 would win now: no regiments; no battalions; three companies" in shown
    assert "P2 Boris Lind    LB···  ·B··· [L·S··]" in shown  # the card just played
    assert "hand P1 Anna Petrova  BSF B S B L" in shown
    assert "markers: none yet" in shown


@served
async def test_hover_on_a_marker_and_on_a_card(client: LanguageClient) -> None:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    uri = await _open(client, "classic.ord", text)
    lines = text.split("\n")
    marker = next(i for i, line in enumerate(lines) if line.startswith("#1 "))
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(marker, 1))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert f"ply {lines[marker - 1].split('.')[0]} of 40" in hover.contents.value
    card = lines.index("8. LBSHF T")
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(card, 5))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert hover.contents.value == "**LBSHF**: lance, bow, swords, helmet, flag"


@served
async def test_completion_after_a_ply_number_lists_the_legal_plays(
    client: LanguageClient,
) -> None:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    head = text[: text.index("6. LB J")] + "6. "
    uri = await _open(client, "classic.ord", head)
    end = lsp.Position(head.count("\n"), 3)
    listed = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), end)
    )
    assert isinstance(listed, lsp.CompletionList)
    labels = [item.label for item in listed.items]
    # P2 after five plies: hand SF LBSHF SH SH B, less LSH... as the replay found it
    record = next(iter(parse_text(text, "classic-2.ord")))
    game = validate(record, steps=True).steps[5].game
    assert game.to_move == 1
    assert labels == [f"{card} {state.name}" for card, state in game.legal_plays()]
    held = {str(card) for card in game.hand_to_play() or ()}
    assert {label.split()[0] for label in labels} == held
    assert len(labels) == len(held) * 5  # no army of P2 is full yet


@served
async def test_completion_of_states_and_tags(client: LanguageClient) -> None:
    uri = await _open(client, "tags.ord", '[P1 "A"]\n[P2 "B"]\n[Result "unfinished"]\n\n1. HF \n[')
    states = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(4, 6))
    )
    assert isinstance(states, lsp.CompletionList)
    assert [i.label for i in states.items][:4] == ["A", "Antioch", "C", "Cyprus"]
    tags = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), lsp.Position(5, 1))
    )
    assert isinstance(tags, lsp.CompletionList)
    assert {"Event", "P1", "Scoring", "Result"} <= {i.label for i in tags.items}


def _applied(text: str, edits: Sequence[lsp.TextEdit]) -> str:
    """``text`` (with LF line ends and no character outside the BMP) with
    ``edits`` made, as an editor makes them."""
    offsets = [0]
    for line in text.split("\n"):
        offsets.append(offsets[-1] + len(line) + 1)

    def at(position: lsp.Position) -> int:
        return offsets[position.line] + position.character

    pieces, done = [], 0
    for edit in sorted(edits, key=lambda e: at(e.range.start)):
        pieces += [text[done : at(edit.range.start)], edit.new_text]
        done = at(edit.range.end)
    return "".join(pieces) + text[done:]


@served
async def test_code_actions_make_the_fixes_of_ordo_fix(client: LanguageClient) -> None:
    path = SAMPLES / "invalid" / "results.ord"
    text = path.read_text("utf-8")
    uri = await _open(client, "results.ord", text)
    whole = lsp.Range(lsp.Position(0, 0), lsp.Position(text.count("\n"), 0))
    offered = await client.text_document_code_action_async(
        lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), whole, lsp.CodeActionContext([]))
    )
    assert offered
    fixes = [a for a in offered if isinstance(a, lsp.CodeAction) and a.title.startswith("ordo fix")]
    assert fixes[0].title == "ordo fix: write P2 for P1 (E401)"
    edits = [e for a in fixes if a.edit and a.edit.changes for e in a.edit.changes[uri]]
    fixed = _applied(text, edits)
    assert fixed == fix_source(Source(str(path), text)).text
    first = next(iter(parse_text(fixed, "results.ord")))
    assert validate(first).valid  # the record of the first fix now validates


@served
async def test_code_actions_offer_the_word_meant(client: LanguageClient) -> None:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8").replace("3. S J\n", "3. s Jerusalam\n")
    uri = await _open(client, "meant.ord", text)
    line = text.split("\n").index("3. s Jerusalam")
    here = lsp.Range(lsp.Position(line, 0), lsp.Position(line, 14))
    offered = await client.text_document_code_action_async(
        lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), here, lsp.CodeActionContext([]))
    )
    assert offered is not None
    titles = [a.title for a in offered]
    assert titles == [
        "did you mean S? write it for s",
        "did you mean J? write it for Jerusalam",
        "did you mean Jerusalem? write it for Jerusalam",
    ]
    chosen = [a for a in offered if isinstance(a, lsp.CodeAction) and a.title.endswith("s")]
    assert chosen[0].edit is not None and chosen[0].edit.changes is not None
    mended = _applied(text, chosen[0].edit.changes[uri])
    state = next(a for a in offered if isinstance(a, lsp.CodeAction) and "J?" in a.title)
    assert state.edit is not None and state.edit.changes is not None
    mended = _applied(mended, state.edit.changes[uri])
    assert mended == (SAMPLES / "classic-2.ord").read_text("utf-8")


@served
async def test_formatting_gives_the_text_of_ordo_fmt(client: LanguageClient) -> None:
    text = (SAMPLES / "club-evening.ord").read_text("utf-8")
    messy = text.replace("1. ", "1.   ", 2).replace('[Event "', '[Event   "', 1) + "\n\n"
    messy = messy.replace("[Notation", "; moved\n[Notation", 1)
    assert canonical(messy, "club.ord") != messy
    uri = await _open(client, "club.ord", messy)
    edits = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(
            lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(4, True)
        )
    )
    assert edits
    assert _applied(messy, edits) == canonical(messy, "club.ord")
    broken = (SAMPLES / "invalid" / "syntax.ord").read_text("utf-8")
    uri = await _open(client, "syntax.ord", broken)
    refused = await client.text_document_formatting_async(
        lsp.DocumentFormattingParams(
            lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(4, True)
        )
    )
    assert not refused  # ordo fmt refuses the file too


@served
async def test_document_symbols_are_the_records_with_their_plays(client: LanguageClient) -> None:
    text = (SAMPLES / "club-evening.ord").read_text("utf-8")
    uri = await _open(client, "club.ord", text)
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(uri))
    )
    assert symbols is not None
    records = list(parse_text(text, "club.ord"))
    assert len(symbols) == len(records) == 3
    first = symbols[0]
    assert isinstance(first, lsp.DocumentSymbol) and first.children is not None
    assert first.name.startswith("Lyon club evening") or ": " in first.name
    plays = [c for c in first.children if c.kind == lsp.SymbolKind.Event]
    markers = [c for c in first.children if c.kind == lsp.SymbolKind.Constant]
    record = records[0]
    assert len(plays) == len(record.plays)
    assert plays[0].name == f"1. {record.plays[0].card.text} {record.plays[0].state.text}"
    assert len(markers) == 5 and markers[0].name.startswith("#1 ")


_SEPARATORS = "\u2028\u2029\x85\x0b\x0c\x1c\x1d\x1e"
"""What ``str.splitlines`` takes for line ends and LSP does not."""


def _formatting(uri: str) -> lsp.DocumentFormattingParams:
    return lsp.DocumentFormattingParams(
        lsp.TextDocumentIdentifier(uri), lsp.FormattingOptions(4, True)
    )


def _line_changed(
    uri: str, version: int, line: int, start: int, end: int, text: str
) -> lsp.DidChangeTextDocumentParams:
    """An incremental change of ``line`` from ``start`` to ``end`` (UTF-16 units)."""
    where = lsp.Range(lsp.Position(line, start), lsp.Position(line, end))
    return lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [lsp.TextDocumentContentChangePartial(range=where, text=text)],
    )


def test_a_position_is_found_as_lsp_counts_lines_and_columns() -> None:
    text = "a\r\nb\rc\u2028d\x85e\ng\U0001f600h"
    utf16 = lambda s: len(s.encode("utf-16-le")) // 2  # noqa: E731
    at = {
        (0, 1): 1,  # the end of a, before its CRLF
        (1, 0): 3,  # b
        (2, 4): 9,  # e: U+2028 and U+0085 end no line
        (3, 1): 12,  # the emoji, one character of two UTF-16 units
        (3, 3): 13,  # h
        (3, 99): len(text),  # past the end of the line: its end
        (9, 0): len(text),  # past the last line: the end of the text
    }
    for (line, character), index in at.items():
        assert places.offset(text, lsp.Position(line, character), utf16) == index
    change = lsp.TextDocumentContentChangePartial(
        range=lsp.Range(lsp.Position(2, 1), lsp.Position(3, 1)), text="-"
    )
    assert places.edited(text, change, utf16) == "a\r\nb\rc-\U0001f600h"


@served
async def test_an_edit_lands_on_the_line_lsp_counts(client: LanguageClient, tmp_path: Path) -> None:
    """Lines end at LF, CRLF and CR only, and columns count UTF-16 units:
    a comment holding U+2028 and its kind moves no edit, nor does a
    character outside the BMP (two units) before it on its line."""
    sample = (SAMPLES / "classic-2.ord").read_text("utf-8")
    event = '[Event "Lyon club night"]'
    text = sample.replace(event, f"{event} {{a{_SEPARATORS}b}} {{\U0001f600 x}}")
    uri = await _open(client, "separators.ord", text)
    lines = text.split("\n")
    play = lines.index("20. LS J")
    event_line = next(n for n, line in enumerate(lines) if line.startswith(event))
    x = len(lines[event_line].encode("utf-16-le")) // 2 - 2  # the x, in UTF-16 units
    client.text_document_did_change(_line_changed(uri, 2, play, 4, 6, "SL"))
    client.text_document_did_change(_line_changed(uri, 3, event_line, x, x + 1, "y"))
    edited = text.replace("20. LS J", "20. SL J").replace("\U0001f600 x}", "\U0001f600 y}")
    published = [_as_validate(d) for d in await _diagnosed(client, uri)]
    (tmp_path / "edited.ord").write_text(edited, "utf-8")
    assert published == _validated(tmp_path / "edited.ord")
    assert [d["code"] for d in published] == ["W504"]  # U+0085, on the Event line
    edits = await client.text_document_formatting_async(_formatting(uri))
    assert edits is not None
    assert [(e.range.start.line, e.range.end.line, e.new_text) for e in edits] == [
        (play, play + 1, "20. LS J\n")
    ]
    assert _applied(edited, edits) == canonical(edited, "separators.ord")


def _many_records(count: int, tag: str = '[Event   "Night {}"]') -> str:
    """``count`` records, their Event tags written as ``tag`` (by default
    with spaces ``ordo fmt`` takes out)."""
    record = (SAMPLES / "classic-2.ord").read_text("utf-8")
    event = '[Event "Lyon club night"]'
    return "\n".join(record.replace(event, tag.format(n)) for n in range(count))


def test_formatting_edits_only_the_lines_that_change() -> None:
    """Record by record, the last one too (whose comment below moves up)."""
    text = _many_records(3).replace("1. LH J", "1.  LH J") + "\n; the end\n"
    document = Document("many.ord")
    document.cut(text)
    edits = actions.formatting(document.source, document.lines())
    assert edits is not None
    changed = [(e.range.start.line, e.range.end.line, e.new_text) for e in edits]
    lines = text.split("\n")
    events = [n for n, line in enumerate(lines) if line.startswith("[Event")]
    assert changed == sorted(
        [(n, n + 1, f'[Event "Night {i}"]\n') for i, n in enumerate(events)]
        + [(n, n + 1, "1. LH J\n") for n, line in enumerate(lines) if line == "1.  LH J"]
        + [(len(lines) - 4, len(lines) - 1, "result P2 P1:1 P2:4 ; the end\n")]
    )
    assert _applied(text, edits) == canonical(text, "many.ord")


async def _format_while_hovering(client: LanguageClient, count: int, within: float) -> None:
    text = _many_records(count)
    uri = await _open(client, f"many-{count}.ord", text)
    play = lsp.Position(text.split("\n").index("20. LS J"), 1)
    started = time.monotonic()
    formatting = asyncio.ensure_future(client.text_document_formatting_async(_formatting(uri)))
    hover = await asyncio.wait_for(
        client.text_document_hover_async(lsp.HoverParams(lsp.TextDocumentIdentifier(uri), play)),
        within,
    )
    assert hover is not None and not formatting.done()  # answered while formatting runs
    edits = await asyncio.wait_for(formatting, within - (time.monotonic() - started))
    assert edits is not None and len(edits) == count  # one line a record
    assert _applied(text, edits) == _many_records(count, '[Event "Night {}"]')


@pytest.mark.slow  # 3,000 records
@served
async def test_formatting_3000_records_is_quick_and_hover_answers_meanwhile(
    client: LanguageClient,
) -> None:
    """The edits were found with difflib on the whole file, on the event
    loop: 74 s for 3,000 records, and no other request answered meanwhile."""
    await _format_while_hovering(client, 3000, 10)


@pytest.mark.slow
@served
async def test_formatting_10000_records_is_quick(client: LanguageClient) -> None:
    await _format_while_hovering(client, 10000, 30)


@served
async def test_the_fix_of_the_result_tag_is_offered_where_its_diagnostics_show(
    client: LanguageClient,
) -> None:
    """The Result tag is wrong: E410 on the tag, E414 on the result line;
    the one fix is offered from either, titled with both."""
    sample = (SAMPLES / "classic-2.ord").read_text("utf-8")
    text = sample.replace('[Result "P2"]', '[Result "P1"]')
    uri = await _open(client, "result-tag.ord", text)
    lines = text.split("\n")
    for line in (
        lines.index('[Result "P1"]'),
        next(n for n, t in enumerate(lines) if t.startswith("result ")),
    ):
        here = lsp.Range(lsp.Position(line, 8), lsp.Position(line, 8))
        offered = await client.text_document_code_action_async(
            lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), here, lsp.CodeActionContext([]))
        )
        assert offered is not None
        fixes = [
            a for a in offered if isinstance(a, lsp.CodeAction) and a.title.startswith("ordo fix")
        ]
        assert [a.title for a in fixes] == [
            'ordo fix: write [Result "P2"] for [Result "P1"] (E410, E414)'
        ]
        assert fixes[0].kind == lsp.CodeActionKind.QuickFix
        assert [d.code for d in fixes[0].diagnostics or []] == ["E410", "E414"]
        assert fixes[0].edit is not None and fixes[0].edit.changes is not None
        assert _applied(text, fixes[0].edit.changes[uri]) == sample


@served
async def test_fix_all_makes_every_fix_of_ordo_fix(client: LanguageClient) -> None:
    path = SAMPLES / "invalid" / "results.ord"
    text = path.read_text("utf-8")
    uri = await _open(client, "fix-all.ord", text)
    top = lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))

    async def offered(*only: str) -> list[lsp.CodeAction]:
        context = lsp.CodeActionContext([], only=list(only) or None)
        found = await client.text_document_code_action_async(
            lsp.CodeActionParams(lsp.TextDocumentIdentifier(uri), top, context)
        )
        return [a for a in found or [] if isinstance(a, lsp.CodeAction)]

    fixed = fix_source(Source(str(path), text))
    for only in ([lsp.CodeActionKind.SourceFixAll], [lsp.CodeActionKind.Source]):
        (everything,) = await offered(*only)
        assert everything.kind == lsp.CodeActionKind.SourceFixAll
        assert everything.title == f"ordo fix: every fix of the file ({len(fixed.changes)} changes)"
        assert everything.edit is not None and everything.edit.changes is not None
        assert _applied(text, everything.edit.changes[uri]) == fixed.text
    assert await offered(lsp.CodeActionKind.QuickFix) == []  # nothing to fix on the first line
    assert all(a.kind == lsp.CodeActionKind.QuickFix for a in await offered())


class _Raw:
    """``ordo lsp`` spoken to in bytes, for what no well-behaved client sends."""

    def __init__(self, folder: Path) -> None:
        self.errors = folder / "stderr"
        with self.errors.open("wb") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ordonnance_notation", "lsp"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
            )
        self.received = b""

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def request(self, id: int, method: str, params: object) -> None:
        self.send(_framed({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))

    def notify(self, method: str, params: object) -> None:
        self.send(_framed({"jsonrpc": "2.0", "method": method, "params": params}))

    def answer(self, id: int | None, timeout: float = 20) -> dict[str, Any]:
        """The reply to request ``id`` (None: to a message the server could
        not tell the id of); notifications are passed over."""
        deadline = time.monotonic() + timeout
        while True:
            message = self._message(deadline)
            if "method" not in message and message.get("id") == id:
                return message

    def _message(self, deadline: float) -> dict[str, Any]:
        assert self.process.stdout is not None
        out = self.process.stdout.fileno()
        while True:
            head, blank, rest = self.received.partition(b"\r\n\r\n")
            length = re.search(rb"Content-Length: (\d+)", head)
            if blank and length and len(rest) >= int(length[1]):
                self.received = rest[int(length[1]) :]
                return dict(json.loads(rest[: int(length[1])]))
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                pytest.fail("no answer in time", pytrace=False)
            chunk = os.read(out, 1 << 16)
            if not chunk:
                pytest.fail(f"the server ended: {self.errors.read_text()}", pytrace=False)
            self.received += chunk

    def initialize(self) -> None:
        self.request(0, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        assert "capabilities" in self.answer(0)["result"]
        self.notify("initialized", {})

    def open(self, uri: str, text: str) -> None:
        item = {"uri": uri, "languageId": "ord", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})

    def hover(self, id: int, uri: str, line: int, character: int) -> None:
        position = {"line": line, "character": character}
        self.request(id, "textDocument/hover", {"textDocument": {"uri": uri}, "position": position})

    def peak(self) -> int:
        """The most memory the server held so far, in bytes."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) << 10  # type: ignore[index]

    def close(self) -> str:
        """Ends the server, which must have lived to here; its standard error."""
        assert self.process.poll() is None
        self.request(99, "shutdown", None)
        self.answer(99)
        self.notify("exit", None)
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=20) == 0
        return self.errors.read_text()


def _framed(message: object) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


@pytest.fixture
def raw(tmp_path: Path) -> Iterator[_Raw]:
    server = _Raw(tmp_path)
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


_CLASSIC = (SAMPLES / "classic-2.ord").as_uri().replace("classic-2", "opened-classic-2")
_PLAY = (SAMPLES / "classic-2.ord").read_text("utf-8").split("\n").index("20. LS J")


def test_the_limits_of_a_message_are_those_docs_editors_md_gives() -> None:
    page = (ROOT / "docs" / "editors.md").read_text("utf-8")
    assert f"| a header line longer than {wire.HEADER_LINE >> 10} KB |" in page
    assert f"| a `Content-Length` over {wire.MESSAGE >> 20} MB " in page


@pytest.mark.slow  # a language server started for it
def test_a_content_length_past_the_limit_is_answered_and_the_server_lives(raw: _Raw) -> None:
    raw.initialize()
    for length in ("999999999999", "99999999999999999999"):
        raw.send(f"Content-Length: {length}\r\n\r\n".encode())
        error = raw.answer(None)["error"]
        assert error == {
            "code": -32600,
            "message": f"Content-Length {length}: a message may be at most {wire.MESSAGE >> 20} MB;"
            " it is skipped",
        }
    raw.open(_CLASSIC, (SAMPLES / "classic-2.ord").read_text("utf-8"))
    raw.hover(1, _CLASSIC, _PLAY, 1)
    assert "ply 20 of 40" in raw.answer(1)["result"]["contents"]["value"]
    assert "Traceback" not in raw.close()


@pytest.mark.slow  # a language server started for it
def test_a_header_line_without_end_is_skipped_in_little_memory(raw: _Raw) -> None:
    raw.initialize()
    before = raw.peak()
    block = b"x" * (1 << 20)
    for _ in range(64):
        raw.send(block)
    assert raw.answer(None)["error"] == {
        "code": -32600,
        "message": f"a header line longer than {wire.HEADER_LINE >> 10} KB: it is skipped",
    }
    raw.send(b"\r\n")
    raw.open(_CLASSIC, (SAMPLES / "classic-2.ord").read_text("utf-8"))
    raw.hover(1, _CLASSIC, _PLAY, 1)
    assert raw.answer(1)["result"] is not None
    assert raw.peak() - before < 16 << 20  # not the 64 MB of the line
    assert "Traceback" not in raw.close()


@pytest.mark.slow  # a language server started for it
def test_a_too_short_content_length_loses_only_its_own_message(raw: _Raw) -> None:
    raw.initialize()
    raw.open(_CLASSIC, (SAMPLES / "classic-2.ord").read_text("utf-8"))
    body = _framed({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover"}).partition(
        b"\r\n\r\n"
    )[2]
    raw.send(b"Content-Length: %d\r\n\r\n" % (len(body) - 5) + body)
    assert raw.answer(None)["error"] == {
        "code": -32700,
        "message": "a message that is not JSON: it is skipped",
    }
    raw.send(b"Content-Length: 2\r\n\r\n[]")
    assert raw.answer(None)["error"]["code"] == -32600
    raw.hover(2, _CLASSIC, _PLAY, 1)
    assert "ply 20 of 40" in raw.answer(2)["result"]["contents"]["value"]
    assert "Traceback" not in raw.close()


@pytest.mark.slow  # a language server started for it
def test_a_message_whose_id_is_no_number_or_string_is_refused(raw: _Raw) -> None:
    """pygls put a traceback on standard error (unhashable type) and answered nothing."""
    raw.initialize()
    raw.open(_CLASSIC, (SAMPLES / "classic-2.ord").read_text("utf-8"))
    for id in ({"a": 1}, [1], True):
        hover = {"textDocument": {"uri": _CLASSIC}, "position": {"line": _PLAY, "character": 1}}
        raw.send(
            _framed({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": hover})
        )
        assert raw.answer(None)["error"]["code"] == -32600
    raw.hover(2, _CLASSIC, _PLAY, 1)
    assert "ply 20 of 40" in raw.answer(2)["result"]["contents"]["value"]
    assert "Traceback" not in raw.close()


def test_positions_out_of_range_are_answered_with_an_error(raw: _Raw) -> None:
    raw.initialize()
    raw.open(_CLASSIC, (SAMPLES / "classic-2.ord").read_text("utf-8"))
    raw.hover(1, _CLASSIC, -1, 0)
    raw.hover(2, _CLASSIC, 0, 1 << 31)
    for id in (1, 2):
        error = raw.answer(id)["error"]
        assert error == {
            "code": -32602,
            "message": "invalid params of textDocument/hover: invalid value @ $.params.position",
        }
    raw.hover(3, _CLASSIC, _PLAY, 1)
    assert "ply 20 of 40" in raw.answer(3)["result"]["contents"]["value"]
    assert "Traceback" not in raw.close()


def test_a_request_before_initialize_is_refused_without_a_traceback(raw: _Raw) -> None:
    raw.hover(1, _CLASSIC, _PLAY, 1)
    assert raw.answer(1)["error"] == {
        "code": -32002,
        "message": "textDocument/hover before initialize: it is refused",
    }
    raw.initialize()
    assert "Traceback" not in raw.close()


@pytest.mark.slow  # a language server started for it
def test_only_the_documents_the_client_opened_are_read(raw: _Raw, tmp_path: Path) -> None:
    """A FIFO nobody writes to would block the server for good, /dev/zero
    fill its memory: a document is only what the client sent."""
    fifo = tmp_path / "nobody-writes.ord"
    os.mkfifo(fifo)
    raw.initialize()
    for id, uri in enumerate([fifo.as_uri(), (SAMPLES / "classic-2.ord").as_uri()], 1):
        raw.hover(id, uri, _PLAY, 1)
        assert raw.answer(id, timeout=10)["result"] is None
    assert "Traceback" not in raw.close()


def test_without_pygls_ordo_lsp_says_what_to_install(tmp_path: Path) -> None:
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text("import sys\nsys.modules['pygls'] = None\n")
    done = subprocess.run(
        [sys.executable, "-m", "ordonnance_notation", "lsp"],
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": f"{tmp_path}:{ROOT}", "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "ordo lsp needs pygls: pip install 'ordonnance-notation[lsp]'\n"


@pytest.mark.slow
def test_the_vscode_extension_installs_and_packages(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not on PATH: the VS Code extension cannot be packaged here")
    folder = tmp_path / "vscode"
    shutil.copytree(
        ROOT / "editors" / "vscode", folder, ignore=shutil.ignore_patterns("node_modules", "*.vsix")
    )
    subprocess.run([npm, "install", "--no-audit", "--no-fund"], cwd=folder, check=True, timeout=600)
    subprocess.run(
        ["npx", "vsce", "package", "--allow-missing-repository", "-o", "ordo.vsix"],
        cwd=folder,
        check=True,
        timeout=600,
    )
    with zipfile.ZipFile(folder / "ordo.vsix") as vsix:
        names = set(vsix.namelist())
        manifest = json.loads(vsix.read("extension/package.json"))
    assert {"extension/extension.js", "extension/package.json"} <= names
    assert manifest["contributes"]["languages"][0]["extensions"] == [".ord"]
