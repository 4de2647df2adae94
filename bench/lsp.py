"""`ordo lsp`: the time from an edit to its diagnostics (issue 29).

    python bench/lsp.py                      # 1,000 and 10,000 records, about a minute
    python bench/lsp.py --sizes 1000 --edits 40

A real client (pygls's) starts `ordo lsp` over standard input and output,
opens a file of N records (the samples in samples/*.ord, one after the
other until there are N) and waits for its diagnostics: the first check of
every record. Then it makes edits one at a time and times each from the
`didChange` sent to the `publishDiagnostics` of that version: a play's state
changed in the middle record (the record is checked again, the others come
from the cache) and a comment line added at the top (every record moves,
none is checked again). The time includes the server's rest of 0.2 s after
the last change (``editor.server.REST``), so it is given without it too.
Prints the figures and writes them as JSON to bench/results/lsp-*.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from ordonnance_notation.editor.server import REST
from ordonnance_notation.notation.cutting import split_records

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SAMPLES = HERE.parent / "samples"


def archive(records: int) -> str:
    """The records of the samples one after the other until there are
    ``records``, each copy told apart by a tag of its own (``[Copy "12"]``):
    no two records have the same text, so none is checked only once."""
    chunks = [
        chunk.strip("\n")
        for path in sorted(SAMPLES.glob("*.ord"))
        for _, chunk in split_records(path.read_text("utf-8"))
        if chunk.strip()
    ]
    pieces = [f'[Copy "{n}"]\n{chunks[n % len(chunks)]}' for n in range(records)]
    return "\n\n".join(pieces) + "\n"


class Timed:
    """A client that notes when each version's diagnostics came."""

    def __init__(self) -> None:
        self.client = LanguageClient("ordo-bench", "1")
        self.came: dict[int, tuple[float, int]] = {}  # version: (when, how many)
        self.event = asyncio.Event()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: lsp.PublishDiagnosticsParams) -> None:
            self.came[params.version or 0] = (time.perf_counter(), len(params.diagnostics))
            self.event.set()

    async def wait(self, version: int) -> tuple[float, int]:
        while version not in self.came:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 600)
        return self.came[version]


async def measure(records: int, edits: int) -> dict[str, object]:
    text = archive(records)
    lines = text.split("\n")
    middle = len(lines) // 2
    play = next(
        i for i in range(middle, len(lines)) if lines[i][:1].isdigit() and "{" not in lines[i]
    )
    number, card, state = lines[play].split()[:3]
    other = "T" if state != "T" else "A"
    timed = Timed()
    await timed.client.start_io(sys.executable, "-m", "ordonnance_notation", "lsp")
    await timed.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    timed.client.initialized(lsp.InitializedParams())
    uri = (HERE / f"lsp-{records}.ord").as_uri()
    sent = time.perf_counter()
    timed.client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "ord", 1, text))
    )
    came, count = await timed.wait(1)
    opened = came - sent
    in_place, moved = [], []
    for version in range(2, edits + 2):
        if version % 2:  # a comment line at the top, or taken away again
            top = lsp.Position(0, 0)
            change = lsp.TextDocumentContentChangePartial(
                range=lsp.Range(top, top if version % 4 == 3 else lsp.Position(1, 0)),
                text="; a note\n" if version % 4 == 3 else "",
            )
            times = moved
        else:  # the middle record's play to another state, and back
            row = play + (1 if version % 4 == 0 else 0)  # below the note, when it is there
            start = lsp.Position(row, len(number) + len(card) + 2)
            change = lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start, lsp.Position(row, start.character + 1)),
                text=other if version % 4 == 2 else state,
            )
            times = in_place
        sent = time.perf_counter()
        timed.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=version, uri=uri), [change]
            )
        )
        came, _ = await timed.wait(version)
        times.append(came - sent)
    await timed.client.shutdown_async(None)
    timed.client.exit(None)
    await timed.client.stop()

    def ms(values: list[float], less: float = 0.0) -> dict[str, float]:
        values = sorted(v - less for v in values)
        return {
            "median": round(statistics.median(values) * 1000, 1),
            "p90": round(values[int(len(values) * 0.9) - 1 if len(values) > 1 else 0] * 1000, 1),
            "max": round(values[-1] * 1000, 1),
        }

    return {
        "records": records,
        "MB": round(len(text.encode()) / 1e6, 2),
        "diagnostics": count,
        "open to diagnostics s": round(opened, 2),
        "edit a play to diagnostics ms": ms(in_place),
        "edit a play to diagnostics ms, rest aside": ms(in_place, REST),
        "move every record to diagnostics ms": ms(moved),
        "move every record to diagnostics ms, rest aside": ms(moved, REST),
        "edits": edits,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--edits", type=int, default=20, help="edits per file")
    args = parser.parse_args()
    rows = [asyncio.run(measure(size, args.edits)) for size in args.sizes]
    for row in rows:
        print(json.dumps(row))
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    result = {"when": stamp, "rest s": REST, "rows": rows}
    for name in (f"lsp-{stamp}.json", "lsp-latest.json"):
        (RESULTS / name).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
