"""``ordo lsp``: the language server, spoken to over standard input and
output by a real client (pytest-lsp), as an editor would."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from strategies import ROOT, SAMPLES

from ordonnance_notation.archives.conversion import canonical
from ordonnance_notation.checking.fixing import fix_source
from ordonnance_notation.checking.validator import validate
from ordonnance_notation.checking.verdicts import Checked
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


def _applied(text: str, edits: list[lsp.TextEdit]) -> str:
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def at(position: lsp.Position) -> int:
        return offsets[position.line] + position.character

    for edit in sorted(edits, key=lambda e: at(e.range.start), reverse=True):
        text = text[: at(edit.range.start)] + edit.new_text + text[at(edit.range.end) :]
    return text


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
