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

With ``prefix``, a game that is the start of another (the same deal, and
its plays the first plays of the other) is left out too, for the longest
game it begins. Only a game short of its end can be the start of another.

Two passes over the inputs: the first (on the workers) finds each record's
game and annotations, keeping 8 bytes per record and an entry per distinct
game; the second cuts the text again and writes the records kept. With
``prefix``, when some game is short of its end, a pass between them finds
the games that each record's game begins (``starts``), keeping an entry
per short game. Standard input is kept in an unnamed temporary file between
them (``spooled``: up to a line too long for the readers).
The records the compiled core accepts, plainly written, are read from what
it read of them; the others are parsed.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import BinaryIO, NamedTuple

from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..diagnostics import Diagnostic, InputError, UnreadableSource
from ..engine.armies import UNITS_PER_ARMY
from ..engine.cards import State, seat_number
from ..files.sources import MAX_LINE, STDIN, LineSource, expand, open_source, source_name
from ..notation.games import game_parts
from ..notation.parser import parse_record
from ..notation.record import Hand, Play, Record, Unparsed
from ..runs.blocks import Block, block_chunks, input_blocks, unseen
from ..runs.workers import Workers
from .select import trimmed

NOT_A_RECORD = 0  # a chunk of comments alone: kept where it stands, no record
UNKEYED = 1  # a record that is no game to compare: kept
NO_GAME = (NOT_A_RECORD, UNKEYED)


def _number(digest: bytes) -> int:
    """A digest as a number, never 0 or 1 (those say what is no game)."""
    value = int.from_bytes(digest, "big", signed=True)
    return value if value not in NO_GAME else 2


def _digest(text: str) -> int:
    """A number for ``text``, the same in every process (``hash`` is not)."""
    return _hashed(text.encode())


def _hashed(data: bytes) -> int:
    return _number(blake2b(data, digest_size=8).digest())


def game_key(record: Record) -> int:
    """The game ``record`` holds, as a number (``UNKEYED`` when there is none to compare)."""
    return _keys(*game_parts(record))[0]


def _keys(dealt: int, parts: Sequence[str]) -> tuple[int, int]:
    """The game of ``game_parts`` (``UNKEYED`` for none) and its deal, as numbers."""
    if not parts:
        return UNKEYED, _digest("")
    return _text_keys(dealt, "\n".join(parts).encode())


def _text_keys(dealt: int, game: bytes) -> tuple[int, int]:
    """``_keys`` of the parts joined by line ends (``games.game_text``, as
    UTF-8), the first ``dealt`` of them the deal's."""
    return _hashed(game), _hashed(b"\n".join(game.split(b"\n", dealt)[:dealt]))


def starts(dealt: int, parts: Sequence[str]) -> array[int]:
    """The keys of the games that begin ``parts`` (``game_parts``) and are
    shorter: its deal with none of its plays, then with the first, and so on
    (without a deal, from its first play on); the same numbers as
    ``game_key`` gives a record of those parts alone."""
    found = array("q")
    if not parts:
        return found
    hashed = blake2b(parts[0].encode(), digest_size=8)
    for length in range(2, len(parts) + 1):
        if length - 1 >= max(dealt, 1):
            found.append(_number(hashed.copy().digest()))
        hashed.update(("\n" + parts[length - 1]).encode())
    return found


def annotated(record: Record) -> int:
    """Comments and glyphs: what an annotator added to the game."""
    count = len(record.comments)
    for element in record.elements:
        count += len(element.comments)
        if type(element) is Play and element.glyph is not None:
            count += 1
    return count


def _tags_key(tags: Iterable[tuple[str, str]]) -> int:
    return _digest("\n".join(f"{name}={value}" for name, value in tags))


@dataclass(frozen=True, slots=True)
class Seen:
    """A record as the first pass leaves it: its game, how annotated it is,
    its tags, and whether its game may be the start of another (short of
    the plies a finished game has)."""

    key: int
    weight: int  # annotations, then tags: the copy with the most is kept
    tags: int
    line: int  # where it begins
    short: bool = False
    deal: int = 0  # its deal, as a number (a game without one: the empty deal's)


class SeenBlock(NamedTuple):
    """What the first pass learns of a block: its ``Seen``s, and a digest of
    its text, that the last pass finds the same block again."""

    seen: list[Seen]
    digest: bytes


def _block_digest(block: Block) -> bytes:
    return blake2b(block.text.encode(), digest_size=16).digest()


def seen_block(block: Block) -> SeenBlock:
    """A ``Seen`` for each chunk of ``block`` that is not blank (on a worker):
    from what the compiled core read of the records it accepts, plainly
    written, the others parsed here."""
    found: list[Seen] = []
    for item in _chunks(block):
        if isinstance(item, Replayed):
            key, deal = _text_keys(item.seats + 1, item.game_text.encode())
            short = len(item.markers) < len(State)
            weight, tags = min(len(item.tags), 0xFFFF), _tags_key(item.tags)
            found.append(Seen(key, weight, tags, item.first_line, short, deal))
            continue
        first_line, text = item
        parsed = parse_record(text, first_line, block.source, len(found) + 1)
        if parsed is None:
            found.append(Seen(NOT_A_RECORD, 0, 0, first_line))
        elif isinstance(parsed, Unparsed):
            found.append(Seen(UNKEYED, 0, 0, first_line))
        else:
            weight = annotated(parsed) << 16 | min(len(parsed.tag_elements), 0xFFFF)
            tags = _tags_key([(t.name.text, t.value) for t in parsed.tag_elements])
            key, deal = _keys(*game_parts(parsed))
            found.append(Seen(key, weight, tags, first_line, _short(parsed), deal))
    return SeenBlock(found, _block_digest(block))


def recut(block: Block, lines: Sequence[int]) -> Iterator[tuple[int, str]]:
    """The chunks of ``block`` that begin at ``lines``, as the first pass
    found them: ``(first line, text)``, without cutting the text again."""
    if not lines:  # a block of blank lines: no chunk
        return
    text = block.text.split("\n")
    ends = [line - block.first_line for line in lines[1:]] + [len(text)]
    for line, end in zip(lines, ends, strict=True):
        yield line, "\n".join(text[line - block.first_line : end])


def _chunks(block: Block) -> Iterator[Replayed | tuple[int, str]]:
    """The records of ``block`` that are not blank: what the compiled core
    found of those it accepts, plainly written with their deal in seat order
    (nothing annotated), each other as ``(first line, text)``."""
    found = None if block.one_record else replayed_block(block.first_line, block.text)
    for item in block_chunks(block) if found is None else found:
        if isinstance(item, Replayed):
            if item.plain and item.ordered:
                yield item
            else:
                yield item.first_line, item.text
        elif item[1].strip():
            yield item


def _short(record: Record) -> bool:
    """Whether ``record`` writes fewer plies than a finished game of its
    seats has (its seats from its hands, else its seat tags, else four)."""
    hands = sum(1 for e in record.elements if type(e) is Hand)
    seats = (
        hands or sum(1 for t in record.tag_elements if seat_number(t.name.text) is not None) or 4
    )
    return sum(1 for e in record.elements if type(e) is Play) < PLIES_PER_SEAT * seats


PLIES_PER_SEAT = UNITS_PER_ARMY * len(State)  # a finished game: every army of four units


def starts_block(block: Block) -> list[array[int]]:
    """``starts`` of each chunk of ``block`` that is not blank (on a worker),
    in the order of ``seen_block``; none for a chunk that is no game."""
    found: list[array[int]] = []
    for item in _chunks(block):
        if isinstance(item, Replayed):
            found.append(starts(item.seats + 1, item.game_text.split("\n")))
            continue
        first_line, text = item
        parsed = parse_record(text, first_line, block.source, len(found) + 1)
        found.append(starts(*game_parts(parsed)) if isinstance(parsed, Record) else array("q"))
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
    8 bytes each), the copy of each game to keep, the games with copies,
    and the games that may be the start of another."""

    keys: array[int] = field(default_factory=lambda: array("q"))
    tags: array[int] = field(default_factory=lambda: array("q"))
    lines: array[int] = field(default_factory=lambda: array("q"))
    blocks: list[tuple[int, bytes]] = field(default_factory=list)  # chunks, digest
    best: dict[int, tuple[int, int]] = field(default_factory=dict)  # game -> (weight, ordinal)
    copied: set[int] = field(default_factory=set)  # games met more than once
    differing: set[int] = field(default_factory=set)  # of those, the ones whose tags differ
    short: set[int] = field(default_factory=set)  # games short of their end
    deals: array[int] = field(default_factory=lambda: array("q"))
    short_deals: set[int] = field(default_factory=set)  # the deals of those
    longer: dict[int, tuple[int, int]] = field(default_factory=dict)  # start -> (plies, ordinal)

    def add(self, seen: Seen) -> None:
        ordinal = len(self.keys)
        self.keys.append(seen.key)
        self.tags.append(seen.tags)
        self.lines.append(seen.line)
        self.deals.append(seen.deal)
        if seen.key in NO_GAME:
            return
        held = self.best.get(seen.key)
        if held is None or seen.weight > held[0]:
            self.best[seen.key] = (seen.weight, ordinal)
        if held is not None:
            self.copied.add(seen.key)
        if seen.short:
            self.short.add(seen.key)
            self.short_deals.add(seen.deal)

    def finish(self) -> None:
        if not self.copied:
            return
        for ordinal, key in enumerate(self.keys):
            if key in self.copied and self.tags[ordinal] != self.tags[self.best[key][1]]:
                self.differing.add(key)

    def add_starts(self, ordinal: int, starts: array[int]) -> None:
        """The games that begin the game of chunk ``ordinal``: each short one
        met is to give way to the longest game it begins (the first of equals)."""
        plies = len(starts)
        for start in starts:
            if start in self.short:
                held = self.longer.get(start)
                if held is None or plies > held[0]:
                    self.longer[start] = (plies, self.best[self.keys[ordinal]][1])


class Dedup:
    """``ordo dedup`` as a library call: iterate it for the text to write (the
    records kept, and comments standing alone, as written), then read
    ``groups`` for the copies left out, ``records`` and ``games``. With
    ``prefix``, a game that is the start of another (the same deal, its plays
    the first plays of the other) is left out too, for the longest it begins
    (``starts`` names what was left out so). Inputs that cannot be used are
    yielded as ``InputError`` in their place (a file without a record after
    the rest)."""

    def __init__(self, paths: Sequence[str], workers: Workers, prefix: bool = False) -> None:
        self.paths, self.workers, self.prefix = list(paths), workers, prefix
        self.records = self.games = 0
        self.groups: list[Group] = []
        self.starts: list[Start] = []

    def __iter__(self) -> Iterator[str | InputError]:
        inputs = list(expand(self.paths))
        # standard input is read more than once: kept aside, in a file without a name
        with (
            tempfile.TemporaryFile(prefix="ordo-dedup-") if STDIN in inputs else _NO_SPOOL as spool
        ):
            if spool is not None:
                spooled(sys.stdin.buffer, spool)

            def opened(path: str) -> LineSource:
                if path == STDIN and spool is not None:
                    again = os.fdopen(os.dup(spool.fileno()), "rb")
                    again.seek(0)
                    return LineSource(source_name(STDIN), again)
                return open_source(path)

            first = _FirstPass()
            for part in self.workers.map(seen_block, input_blocks(inputs, opener=opened)):
                if not isinstance(part, InputError):
                    first.blocks.append((len(part.seen), part.digest))
                    for seen in part.seen:
                        first.add(seen)
            first.finish()
            if self.prefix and first.short:  # a game to give way: find what it begins
                self._find_starts(inputs, opened, first)
            yield from self._kept(inputs, opened, first)

    def _find_starts(
        self, inputs: list[str | UnreadableSource], opened: OpenInput, first: _FirstPass
    ) -> None:
        """The middle pass of ``prefix``: the games that each record of the
        deal of a short game begins, those records alone read again (where the
        first pass found them) and the others not read again."""
        ordinals: list[int] = []  # of the records sent, in order

        def wanted() -> Iterator[Block]:
            ordinal = 0
            counts = iter(first.blocks)
            for block in input_blocks(inputs, opener=opened):
                if isinstance(block, InputError):
                    continue
                chunks = next(counts, (0, b""))[0]
                lines = first.lines[ordinal : ordinal + chunks]
                deals = first.deals[ordinal : ordinal + chunks]
                if any(deal in first.short_deals for deal in deals):
                    for n, (line, text) in enumerate(recut(block, lines)):
                        if deals[n] in first.short_deals and first.keys[ordinal + n] not in NO_GAME:
                            ordinals.append(ordinal + n)
                            yield Block(block.file, block.source, line, text)
                ordinal += chunks

        for n, found in enumerate(self.workers.map(starts_block, wanted())):
            if not isinstance(found, InputError) and found:
                first.add_starts(ordinals[n], found[0])

    def _kept(
        self, inputs: list[str | UnreadableSource], opened: OpenInput, first: _FirstPass
    ) -> Iterator[str | InputError]:
        groups: dict[int, Group] = {}
        seen: set[str] = set()
        ordinal = 0
        counted: dict[int, int] = {}  # records so far in each input
        kept_at: dict[int, Copy] = {}  # the copies kept of games that others begin
        begun = {ordinal for _, ordinal in first.longer.values()}
        starts: list[tuple[Copy, int]] = []  # a start left out, the ordinal of what it begins
        blocks = iter(first.blocks)
        for block in input_blocks(inputs, opener=opened):
            if isinstance(block, InputError):
                seen.add(block.diagnostic.source)
                yield block
                continue
            chunks, digest = next(blocks, (0, b""))
            if digest != _block_digest(block):
                raise _changed(block.source)
            if chunks:  # blank lines alone hold no record
                seen.add(block.source)
            for first_line, text in recut(block, first.lines[ordinal : ordinal + chunks]):
                key = first.keys[ordinal]
                ordinal += 1
                if key == NOT_A_RECORD:
                    yield trimmed(text)
                    continue
                self.records += 1
                index = counted[block.file] = counted.get(block.file, 0) + 1
                copy = Copy(block.source, index, first_line)
                if ordinal - 1 in begun:
                    kept_at[ordinal - 1] = copy
                if key in first.longer:
                    starts.append((copy, first.longer[key][1]))
                    continue
                keep = key == UNKEYED or first.best[key][1] == ordinal - 1
                self.games += keep
                if keep:
                    yield trimmed(text)
                if key not in first.copied:
                    continue
                group = groups.setdefault(key, Group())
                if keep:
                    group.kept = copy
                else:
                    group.dropped.append(copy)
                if key in first.differing:
                    item = parse_record(text, first_line, block.source, index)
                    if isinstance(item, Record):
                        group.tags[copy] = {t.name.text: t.value for t in item.tag_elements}
        if next(blocks, None) is not None:
            raise _changed(source_name(next((p for p in inputs if isinstance(p, str)), STDIN)))
        self.groups = list(groups.values())
        self.starts = [Start(copy, kept_at[longer]) for copy, longer in starts]
        yield from unseen(inputs, seen)


@dataclass(frozen=True, slots=True)
class Start:
    """A record left out as the start of another game, and the copy kept of that game."""

    left_out: Copy
    kept: Copy

    def __str__(self) -> str:
        return f"{self.left_out} left out: the start of {self.kept}, kept"


_NO_SPOOL = contextlib.nullcontext(None)


def spooled(source: BinaryIO, spool: BinaryIO, longest: int = MAX_LINE) -> None:
    """``source`` copied into ``spool``, up to the first line longer than
    ``longest`` bytes: the reader says E007 there, and what follows is never
    read (``/dev/zero`` would fill the disk)."""
    since = 0  # bytes since the last line end
    while chunk := source.read(1 << 20):
        spool.write(chunk)
        end = chunk.rfind(b"\n")
        since = len(chunk) - end - 1 if end >= 0 else since + len(chunk)
        if since > longest:
            break
    spool.flush()


def _changed(source: str) -> InputError:
    return InputError(
        Diagnostic(
            "E001",
            "was changed by something else while ordo read it: nothing more is written",
            source,
            help="run again when nothing else writes to the input",
        )
    )
