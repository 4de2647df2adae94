"""Each game once: ``ordo dedup``.

Two records hold the same game when they have the same deal (every hand and
the pile) and the same plays (each play's card and state, in order), however
they are written: tags, comments, glyphs, seats written or left out, drawn
cards, declared markers, the result and spacing do not count, and a card is
the same card whatever the order of its letters. A record with neither a deal
nor a play, or whose text cannot be read, is no game to compare: it is kept.

Of the copies of a game the one kept is the most annotated (comments and
glyphs; then the most tags; then the first). It stays where it stands, as
written; the others are left out. Copies whose tags differ are reported with
the differences, since their headers disagree about the same game.

Two passes over the inputs: the first (on the workers) finds each record's
game and annotations, keeping 8 bytes per record and an entry per distinct
game; the second cuts the text again and writes the records kept. Standard
input is kept in a temporary file between them.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b

from ..diagnostics import Diagnostic, InputError, UnreadableSource
from ..files.sources import STDIN, LineSource, expand, open_source, source_name
from ..notation.games import game_text
from ..notation.parser import parse_record
from ..notation.record import Play, Record, Unparsed
from ..runs.blocks import Block, block_chunks, input_blocks, unseen
from ..runs.workers import Workers
from .select import trimmed

NOT_A_RECORD = 0  # a chunk of comments alone: kept where it stands, no record
UNKEYED = 1  # a record that is no game to compare: kept


def _digest(text: str) -> int:
    """A number for ``text``, the same in every process (``hash`` is not), never 0 or 1."""
    value = int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "big", signed=True)
    return value if value not in (NOT_A_RECORD, UNKEYED) else 2


def game_key(record: Record) -> int:
    """The game ``record`` holds, as a number (``UNKEYED`` when there is none to compare)."""
    text = game_text(record)
    return _digest(text) if text is not None else UNKEYED


def annotated(record: Record) -> int:
    """Comments and glyphs: what an annotator added to the game."""
    count = len(record.comments)
    for element in record.elements:
        count += len(element.comments)
        if type(element) is Play and element.glyph is not None:
            count += 1
    return count


def _tags_key(record: Record) -> int:
    return _digest("\n".join(f"{t.name.text}={t.value}" for t in record.tags))


@dataclass(frozen=True, slots=True)
class Seen:
    """A record as the first pass leaves it: its game, how annotated it is, its tags."""

    key: int
    weight: int  # annotations, then tags: the copy with the most is kept
    tags: int


def seen_block(block: Block) -> list[Seen]:
    """A ``Seen`` for each chunk of ``block`` that is not blank (on a worker)."""
    found: list[Seen] = []
    for first_line, text in block_chunks(block):
        if not text.strip():
            continue
        item = parse_record(text, first_line, block.source, len(found) + 1)
        if item is None:
            found.append(Seen(NOT_A_RECORD, 0, 0))
        elif isinstance(item, Unparsed):
            found.append(Seen(UNKEYED, 0, 0))
        else:
            weight = annotated(item) << 16 | min(len(item.tags), 0xFFFF)
            found.append(Seen(game_key(item), weight, _tags_key(item)))
    return found


@dataclass(frozen=True, slots=True)
class Copy:
    """Where a record stands: its input, its number there and its first line."""

    source: str
    index: int
    line: int

    def __str__(self) -> str:
        return f"{self.source} record {self.index} (line {self.line})"


@dataclass(slots=True)
class Group:
    """The copies of one game, the kept one among them, and their tags when they differ."""

    kept: Copy | None = None
    dropped: list[Copy] = field(default_factory=list)
    tags: dict[Copy, dict[str, str]] = field(default_factory=dict)  # when they differ

    def lines(self) -> list[str]:
        """What became of the copies: a line for each left out, then the tags that differ."""
        said = [f"{copy} left out: the same game as {self.kept}, kept" for copy in self.dropped]
        return said + [f"  tags differ: {line}" for line in self.differences()]

    def differences(self) -> list[str]:
        """A line per tag the copies differ in: ``Date: "2026.11.20" in the
        copy kept, "2026.11.21" in b.ord record 2 (line 9)``."""
        if self.kept is None or not self.tags:
            return []
        kept = self.tags[self.kept]
        lines = []
        names = list(kept) + [n for c in self.dropped for n in self.tags[c] if n not in kept]
        for name in dict.fromkeys(names):
            values = {c: self.tags[c].get(name) for c in self.dropped}
            if all(v == kept.get(name) for v in values.values()):
                continue
            shown = [f"{_value(kept.get(name))} in the copy kept"]
            shown += [f"{_value(v)} in {c}" for c, v in values.items() if v != kept.get(name)]
            lines.append(f"{name}: {', '.join(shown)}")
        return lines


def _value(value: str | None) -> str:
    return "none" if value is None else f'"{value}"'


OpenInput = Callable[[str], LineSource]


@dataclass(slots=True)
class _FirstPass:
    """What the first pass learns: each chunk's game and tags (by ordinal,
    8 bytes each), the copy of each game to keep, and the games with copies."""

    keys: array[int] = field(default_factory=lambda: array("q"))
    tags: array[int] = field(default_factory=lambda: array("q"))
    best: dict[int, tuple[int, int]] = field(default_factory=dict)  # game -> (weight, ordinal)
    copied: set[int] = field(default_factory=set)  # games met more than once
    differing: set[int] = field(default_factory=set)  # of those, the ones whose tags differ

    def add(self, seen: Seen) -> None:
        ordinal = len(self.keys)
        self.keys.append(seen.key)
        self.tags.append(seen.tags)
        if seen.key in (NOT_A_RECORD, UNKEYED):
            return
        held = self.best.get(seen.key)
        if held is None or seen.weight > held[0]:
            self.best[seen.key] = (seen.weight, ordinal)
        if held is not None:
            self.copied.add(seen.key)

    def finish(self) -> None:
        if not self.copied:
            return
        for ordinal, key in enumerate(self.keys):
            if key in self.copied and self.tags[ordinal] != self.tags[self.best[key][1]]:
                self.differing.add(key)


class Dedup:
    """``ordo dedup`` as a library call: iterate it for the text to write (the
    records kept, and comments standing alone, as written), then read
    ``groups`` for the copies left out, ``records`` and ``games``. Inputs that
    cannot be used are yielded as ``InputError`` in their place (a file
    without a record after the rest)."""

    def __init__(self, paths: Sequence[str], workers: Workers) -> None:
        self.paths, self.workers = list(paths), workers
        self.records = self.games = 0
        self.groups: list[Group] = []

    def __iter__(self) -> Iterator[str | InputError]:
        inputs = list(expand(self.paths))
        with tempfile.NamedTemporaryFile(prefix="ordo-dedup-") as spool:
            if STDIN in inputs:  # read twice: kept aside once
                shutil.copyfileobj(sys.stdin.buffer, spool)
                spool.flush()

            def opened(path: str) -> LineSource:
                if path == STDIN:
                    return LineSource(source_name(STDIN), open(spool.name, "rb"))
                return open_source(path)

            first = _FirstPass()
            for part in self.workers.map(seen_block, input_blocks(inputs, opener=opened)):
                if not isinstance(part, InputError):
                    for seen in part:
                        first.add(seen)
            first.finish()
            yield from self._kept(inputs, opened, first)

    def _kept(
        self, inputs: list[str | UnreadableSource], opened: OpenInput, first: _FirstPass
    ) -> Iterator[str | InputError]:
        groups: dict[int, Group] = {}
        seen: set[str] = set()
        ordinal = 0
        counted: dict[int, int] = {}  # records so far in each input
        for block in input_blocks(inputs, opener=opened):
            if isinstance(block, InputError):
                seen.add(block.diagnostic.source)
                yield block
                continue
            seen.add(block.source)
            for first_line, text in block_chunks(block):
                if not text.strip():
                    continue
                if ordinal >= len(first.keys):
                    raise _changed(block.source)
                key = first.keys[ordinal]
                ordinal += 1
                if key == NOT_A_RECORD:
                    yield trimmed(text)
                    continue
                self.records += 1
                index = counted[block.file] = counted.get(block.file, 0) + 1
                keep = key == UNKEYED or first.best[key][1] == ordinal - 1
                self.games += keep
                if keep:
                    yield trimmed(text)
                if key not in first.copied:
                    continue
                group = groups.setdefault(key, Group())
                copy = Copy(block.source, index, first_line)
                if keep:
                    group.kept = copy
                else:
                    group.dropped.append(copy)
                if key in first.differing:
                    item = parse_record(text, first_line, block.source, index)
                    if isinstance(item, Record):
                        group.tags[copy] = {t.name.text: t.value for t in item.tags}
        if ordinal != len(first.keys):
            raise _changed(source_name(next((p for p in inputs if isinstance(p, str)), STDIN)))
        self.groups = list(groups.values())
        yield from unseen(inputs, seen)


def _changed(source: str) -> InputError:
    return InputError(
        Diagnostic(
            "E001",
            "was changed by something else while ordo read it: nothing more is written",
            source,
            help="run again when nothing else writes to the input",
        )
    )
