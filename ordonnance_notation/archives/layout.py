"""A record of a YAML archive as ``ordo`` lays it out, written and read as text.

PyYAML spends its time in Python on every value (representer, resolver,
composer, constructor), and an archive is millions of small values of a few
shapes. This module writes the text libyaml's emitter writes for a record
(``document.yaml_record``: a test holds the two byte for byte), asking
libyaml once how each distinct word is spelt; and it reads back the narrow
form it writes, as the line scanner reads .ord text for the Lark grammar.

Both are fast paths, not a second definition of YAML. Each declines (gives
None) what it is not sure of, and the caller then goes through libyaml:
a scalar libyaml would fold over lines or quote with escapes, a collection
nested in a way ``ordo`` does not write, a line out of the layout. What the
reader accepts it reads as YAML does: plain words through PyYAML's own
resolver, single quotes as YAML undoes them (a test compares it with
libyaml on every record it reads).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

WIDTH = 100  # the emitter's line width
_UNLIMITED = 1 << 30
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's emitter when present


class Declined(Exception):
    """What this module leaves to libyaml."""


# The events of scalars ---------------------------------------------------------


class WritingResolver(yaml.resolver.Resolver):
    """What a plain word reads as, to the writer: PyYAML's YAML 1.1 types, and
    also those of YAML 1.2's core schema (``0o17`` and ``1e3`` are numbers
    there, strings in 1.1). A string either reads as something else is
    quoted when written, so that readers of both read it back."""


WritingResolver.add_implicit_resolver(
    "tag:yaml.org,2002:yaml-1.2-core",
    re.compile(
        r"^(?:null|Null|NULL|~|true|True|TRUE|false|False|FALSE"
        r"|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+"
        r"|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$"
    ),
    list("-+0123456789.nNtTfF~"),
)
_WRITING = WritingResolver()
_RESOLVER = yaml.resolver.Resolver()  # as PyYAML reads
STR = "tag:yaml.org,2002:str"
TAGS = {bool: "tag:yaml.org,2002:bool", int: "tag:yaml.org,2002:int"}


_scalar_events: dict[tuple[type, Any], yaml.ScalarEvent] = {}  # the emitter only reads them


def scalar(value: Any) -> yaml.ScalarEvent:
    """The event PyYAML's representer makes of a scalar: a string the loader
    would read as something else unquoted is marked so, and the emitter
    quotes it. Events of the words that come again (cards, states, seats,
    field names) are made once."""
    key = (type(value), value)
    event = _scalar_events.get(key)
    if event is not None:
        return event
    if type(value) is str:
        resolved = _WRITING.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
        event = yaml.ScalarEvent(None, None, (resolved == STR, True), value)
    elif type(value) is bool:
        event = yaml.ScalarEvent(None, TAGS[bool], (True, False), "true" if value else "false")
    elif type(value) is int:
        event = yaml.ScalarEvent(None, TAGS[int], (True, False), str(value))
    elif value is None:
        event = yaml.ScalarEvent(None, "tag:yaml.org,2002:null", (True, False), "null")
    else:
        raise TypeError(f"no archive value is a {type(value).__name__}")
    if len(_scalar_events) < 1 << 16 and (type(value) is not str or len(value) < 64):
        _scalar_events[key] = event  # comments are endless: keep the short, common words
    return event


# Writing ---------------------------------------------------------------------


_spellings: dict[tuple[type, Any, bool], str | None] = {}
_flow_words: dict[str, str] = {}  # the most asked: short strings in flow, spelt on one line


def _spelling(value: Any, flow: bool) -> str:
    """How libyaml's emitter writes a scalar in flow or block context, on one
    line; declined when it would take more than one."""
    key = (type(value), value, flow)
    spelt: str | bool | None = _spellings.get(key, False)
    if spelt is False:
        found = (_surely(value) if type(value) is str else None) or _emitted(value, flow)
        if len(_spellings) < 1 << 16 and (type(value) is not str or len(value) < 64):
            _spellings[key] = found
            if flow and type(value) is str and found is not None:
                _flow_words[value] = found
        spelt = found
    if not isinstance(spelt, str):
        raise Declined
    return spelt


# a word libyaml writes as it is, in flow and block context alike: a letter, then letters,
# digits, "-", "_", ".", "/" and single blanks inside; unless YAML 1.1 reads it otherwise
_PLAIN_WORD = re.compile(r"[A-Za-z](?:[A-Za-z0-9_./-]| (?=[A-Za-z0-9_./-]))*")
_NOT_A_STRING = frozenset(["y", "n", "yes", "no", "on", "off", "true", "false", "null"])


def _surely(word: str) -> str | None:
    """How libyaml surely spells a word, without asking it: as it is (a plain
    word, ``_PLAIN_WORD``), or quoted (a whole number of a few digits);
    None where it must be asked."""
    if _PLAIN_WORD.fullmatch(word):
        return word if len(word) > 5 or word.lower() not in _NOT_A_STRING else None
    if word.isdigit() and word.isascii() and len(word) < 10:
        return f"'{word}'"
    return None


def _emitted(value: Any, flow: bool) -> str | None:
    """How libyaml's emitter writes a scalar in flow or block context, asked:
    None when it takes more than one line."""
    events = [
        yaml.StreamStartEvent(),
        yaml.DocumentStartEvent(explicit=False),
        yaml.SequenceStartEvent(None, None, True, flow_style=flow),
        scalar(value),
        yaml.SequenceEndEvent(),
        yaml.DocumentEndEvent(explicit=False),
        yaml.StreamEndEvent(),
    ]
    text: str = yaml.emit(events, Dumper=DUMPER, allow_unicode=True, width=_UNLIMITED)
    inner = text[1:-2] if flow else text[2:-1]  # "[x]\n" or "- x\n"
    return None if "\n" in inner else inner


SIMPLE_KEY_MOST = 128  # bytes: libyaml writes a longer key as a complex one (``? key``)


def _key(key: Any) -> str:
    """A key of a mapping: a plain field name (in flow, so in block too)."""
    if type(key) is not str or _spelling(key, True) != key:
        raise Declined
    if len(key) * 4 > SIMPLE_KEY_MOST and len(key.encode()) > SIMPLE_KEY_MOST:
        raise Declined
    return key


def _breakable(spelt: str) -> bool:
    """Whether the emitter may break a scalar so spelt over lines when it
    runs past the width (at a space, or inside quotes)."""
    return " " in spelt or spelt[:1] in ("'", '"')


def _is_flow(value: Any) -> bool:
    """Whether the emitter writes a value on its line (a scalar, or a list or
    mapping of scalars only, as ``default_flow_style=None`` does)."""
    kind = type(value)
    if kind is dict or kind is list:
        kinds = set(map(type, value.values() if kind is dict else value))
        return dict not in kinds and list not in kinds
    return True


class _Lines:
    def __init__(self) -> None:
        self.done: list[str] = []
        self.line = ""

    def start(self, indent: int) -> None:
        self.done.append(self.line)
        self.line = " " * indent

    def scalar(self, value: Any, flow: bool) -> None:
        spelt = _spelling(value, flow)
        self.line += spelt
        if len(self.line) > WIDTH and _breakable(spelt):
            raise Declined  # the emitter would fold it: leave it to the emitter

    def flow(self, value: Any, indent: int) -> None:
        """A list or mapping of scalars in flow style, wrapped after a comma as
        the emitter wraps: when the line has passed the width."""
        words = _flow_words
        if type(value) is dict:
            spelt = [words.get(v) or _spelling(v, True) for v in value.values()]
            keys = [words.get(k) or _key(k) for k in value]
            parts = [key + ": " + word for key, word in zip(keys, spelt, strict=True)]
            ends = "{}"
        else:
            spelt = parts = _spelt(value)
            ends = "[]"
        line = self.line + ends[0]
        whole = ", ".join(parts)
        if len(line) + len(whole) < WIDTH:
            self.line = line + whole + ends[1]  # no comma passes the width: nothing to wrap or fold
            return
        plain = whole.count(" ") == len(parts) - 1 and "'" not in whole and '"' not in whole
        if plain and len(line) <= WIDTH:
            lines = _wrapped(line + whole, indent)  # no word the emitter would fold
            self.done += lines[:-1]
            self.line = lines[-1] + ends[1]
            return
        for i, part in enumerate(parts):
            if i:
                line += ","
            if len(line) > WIDTH:
                self.line = line
                self.start(indent)
                line = self.line
            elif i:
                line += " "
            line += part
            if len(line) > WIDTH and _breakable(spelt[i]):
                raise Declined  # the emitter would fold it: leave it to the emitter
        self.line = line + ends[1]

    def key(self, key: Any) -> None:
        self.line += _key(key) + ": "

    def value(self, value: Any, indent: int) -> None:
        """A value after ``key: `` or ``- ``, the block collection at ``indent``."""
        if type(value) in (dict, list):
            self.flow(value, indent + 2)
        else:
            self.scalar(value, False)

    def mapping(self, value: dict[str, Any], indent: int, inline: bool) -> None:
        """A block mapping at ``indent``; ``inline``: its first key goes on the
        line already begun (after ``- ``)."""
        for i, (key, item) in enumerate(value.items()):
            if i or not inline:
                self.start(indent)
            self.key(key)
            if _is_flow(item):
                self.value(item, indent)
            elif type(item) is list:
                self.line = self.line[:-1]  # "key:" and the sequence under it, not indented
                self.sequence(item, indent)
            else:
                self.line = self.line[:-1]
                self.mapping(item, indent + 2, False)

    def sequence(self, value: list[Any], indent: int) -> None:
        for item in value:
            self.start(indent)
            self.line += "- "
            if _is_flow(item):
                self.value(item, indent)
            elif type(item) is dict:
                self.mapping(item, indent + 2, True)
            else:
                raise Declined  # a list in a list of lists: the emitter's own way


def yaml_text(entry: dict[str, Any]) -> str | None:
    """A record of a YAML archive as ``document.yaml_record`` writes it, or
    None where only libyaml's emitter knows how."""
    try:
        if not entry or _is_flow(entry):
            raise Declined  # a record always holds lists
        if all(type(value) is list and not _is_flow(value) for value in entry.values()):
            return record_text(
                [(key, [item_text(item) for item in value]) for key, value in entry.items()]
            )
        out = _Lines()
        out.line = "- "
        out.mapping(entry, 2, True)
    except Declined:
        return None
    out.done.append(out.line)
    return "\n".join(out.done) + "\n"


def record_text(lists: list[tuple[str, list[str]]]) -> str:
    """A record of lists (``key``, its items as ``item_text`` writes them)
    as the emitter writes it under ``records:``. Raises Declined for a key
    the emitter would not write plainly."""
    return "- " + "\n  ".join([_key(key) + ":\n" + "\n".join(items) for key, items in lists]) + "\n"


def item_text(item: Any) -> str:
    """One item of a record's list (a tag, a hand, the pile, a play, a
    declared resolution, the result) as the emitter writes it: ``  - ``,
    and the lines it takes, each but the last ended. Raises Declined where
    only libyaml's emitter knows how."""
    if type(item) is dict:
        text = _words_item(item)
        if text is not None:
            return text
    out = _Lines()
    out.line = "  - "
    if _is_flow(item):
        out.value(item, 2)
    elif type(item) is dict:
        out.mapping(item, 4, True)
    else:
        raise Declined  # a list in a list of lists: the emitter's own way
    out.done.append(out.line)
    return "\n".join(out.done)


def _wrapped(text: str, indent: int) -> list[str]:
    """``text`` (a line, then words each after ", ", none with a blank of
    its own) broken after each comma that passes the width, as
    ``_Lines.flow`` breaks it: its lines."""
    lines = []
    while len(text) > WIDTH:
        comma = text.find(", ", WIDTH)  # the first comma past the width
        if comma < 0:
            break
        lines.append(text[: comma + 1])
        text = " " * indent + text[comma + 2 :]
    lines.append(text)
    return lines


_WORDS = frozenset([str, int])


def _spelt(values: list[Any]) -> list[str]:
    """How the emitter spells each scalar of a list in flow context."""
    spelt = list(map(_flow_words.get, values))
    if None in spelt:
        spelt = [word or _spelling(v, True) for word, v in zip(spelt, values, strict=True)]
    return spelt  # type: ignore[return-value]


def _words_item(item: dict[str, Any]) -> str | None:
    """``item_text`` of the items a record is made of, the common case laid
    out without ``_Lines``: a mapping of words (a tag, a play: one line in
    flow style), or of words and lists of words (a hand, the pile: a line
    each, the pile's wrapped); None for any other, or where a word would
    reach past the width or be folded."""
    words = _flow_words
    kinds = set(map(type, item.values()))
    if kinds <= _WORDS:
        parts = [
            (words.get(k) or _key(k)) + ": " + (words.get(v) or _spelling(v, True))
            for k, v in item.items()
        ]
        line = "  - {" + ", ".join(parts) + "}"
        return line if len(line) <= WIDTH else None
    lines: list[str] = []
    lead = "  - "
    for key, value in item.items():
        head = lead + _key(key) + ": "
        lead = "    "
        if type(value) is not list:
            if type(value) not in _WORDS:
                return None
            line = head + _spelling(value, False)
            if len(line) > WIDTH:
                return None
            lines.append(line)
            continue
        if not value or not set(map(type, value)) <= _WORDS:
            return None
        spelt = _spelt(value)
        joined = ", ".join(spelt)
        text = head + "[" + joined + "]"
        if len(text) > WIDTH:
            if joined.count(" ") != len(spelt) - 1 or "'" in joined or '"' in joined:
                return None  # a word the emitter may fold: _Lines.flow's
            if len(head) >= WIDTH:
                return None
            lines += _wrapped(text, 6)
            continue
        lines.append(text)
    return "\n".join(lines)


# Reading -----------------------------------------------------------------------

_OTHER_WORDS = {
    (TAGS[bool], "true"): True,
    (TAGS[bool], "false"): False,
    ("tag:yaml.org,2002:null", "null"): None,
}
OTHERWISE = object()  # a scalar ``scalar`` never writes


def written(tag: str, text: str) -> Any:
    """The value of a scalar written ``text`` and resolved as ``tag``, of
    those ``scalar`` writes: a string, a whole number as ``str`` spells it,
    true, false, null; else OTHERWISE (``012`` is octal to YAML, ``1_0``
    ten: such are read by PyYAML's constructor, not here)."""
    if tag == STR:
        return text
    if tag == TAGS[int] and text.lstrip("-").isdecimal() and str(int(text)) == text:
        return int(text)
    return _OTHER_WORDS.get((tag, text), OTHERWISE)


_INDICATORS = frozenset("#,[]{}&*!|>'\"%@` \t")  # no plain scalar begins so
_BEFORE_A_SPACE = frozenset("?:-")  # nor so with a space after, nor in flow ? and :
_words: tuple[dict[str, Any], dict[str, Any]] = ({}, {})  # block, flow


def _plain(text: str, flow: bool) -> Any:
    """The value of a plain scalar as the YAML resolver reads it: a string,
    or a number, true, false or null as ``scalar`` writes them."""
    value = _words[flow].get(text, OTHERWISE)
    if value is not OTHERWISE:
        return value
    if (
        not text
        or text[0] in _INDICATORS
        or (text[0] in _BEFORE_A_SPACE and (text[1:2] in ("", " ") or (flow and text[0] != "-")))
        or text[-1] == " "
        or ": " in text
        or " #" in text
        or text.endswith(":")
        or _UNPRINTABLE.search(text)
        or (flow and any(c in text for c in ",[]{}:"))
    ):
        raise Declined
    value = written(_RESOLVER.resolve(yaml.ScalarNode, text, (True, False)), text)  # type: ignore[no-untyped-call]
    if value is OTHERWISE:
        raise Declined
    if len(_words[flow]) < 1 << 16 and len(text) < 64:
        _words[flow][text] = value
    return value


# what YAML prints as it is, less its line breaks (\x85, \u2028, \u2029) and the byte-order mark
_UNPRINTABLE = re.compile(
    "[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029\ufeff]"
)
_SINGLE = re.compile(r"'((?:[^']|'')*)'")
_FLOW_PLAIN = re.compile(r"[^,:\[\]{}]+")


def _read_scalar(text: str, flow: bool) -> Any:
    """A whole scalar as written in block context (``flow`` False) or one
    token of a flow collection."""
    if text[:1] == "'":
        match = _SINGLE.fullmatch(text)
        if match is None or _UNPRINTABLE.search(text):
            raise Declined
        return match.group(1).replace("''", "'")
    return _plain(text, flow)


def _flow(text: str) -> Any:
    """A list or mapping of scalars written in flow style on one line (the
    lines it was wrapped over joined by a space)."""
    mapping = text[0] == "{"
    if text[-1] != ("}" if mapping else "]"):
        raise Declined
    if "'" not in text:  # plain words only: split where they end
        inner = text[1:-1]
        words = inner.split(", ") if inner else []
        if not mapping:
            return [_plain(word, True) for word in words]
        pairs = [word.split(": ") for word in words]
        out = {_plain(k, True): _plain(v, True) for k, v in pairs}  # ValueError: not a pair
        if len(out) != len(pairs) or any(type(k) is not str for k in out):
            raise Declined
        return out
    items: Any = {} if mapping else []
    at, end = 1, len(text) - 1
    while True:
        key, at = _flow_token(text, at)
        if mapping:
            if not text.startswith(": ", at) or type(key) is not str or key in items:
                raise Declined
            items[key], at = _flow_token(text, at + 2)
        else:
            items.append(key)
        if at == end:
            return items
        if not text.startswith(", ", at):
            raise Declined
        at += 2


def _flow_token(text: str, at: int) -> tuple[Any, int]:
    match = (_SINGLE if text[at] == "'" else _FLOW_PLAIN).match(text, at)
    if match is None:
        raise Declined
    return _read_scalar(match.group(), True), match.end()


_lines_read: dict[str, Any] = {}  # short flow collections read, by their text: plays repeat


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


class _Reader:
    """The lines of one record, read a block at a time."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.at = 0

    def value(self, rest: str, indent: int) -> Any:
        """What follows ``key: `` or ``- `` on a line (the line already taken),
        with the lines a flow collection was wrapped over."""
        if rest[:1] not in ("[", "{"):
            return _read_scalar(rest, False)
        if rest[-1:] in ("]", "}"):  # on one line: a play's, a tag's, read before?
            known = _lines_read.get(rest)
            if known is not None:
                return known.copy()  # of scalars only: a shallow copy is a new value
            value = _flow(rest)
            if len(_lines_read) < 1 << 14 and len(rest) < 64:
                _lines_read[rest] = value.copy()
            return value
        parts = [rest]
        while parts[-1][-1:] in (",", "[", "{") and self.at < len(self.lines):
            line = self.lines[self.at]
            if _indent(line) <= indent:
                break
            parts.append(line.lstrip(" "))
            self.at += 1
        return _flow(" ".join(parts))

    def mapping(self, indent: int, first: str | None) -> dict[str, Any]:
        """A block mapping of keys at ``indent``; ``first``: its first line's
        text after ``- ``, already taken."""
        out: dict[str, Any] = {}
        while True:
            if first is None:
                if self.at == len(self.lines):
                    break
                line = self.lines[self.at]
                if _indent(line) != indent or line[indent : indent + 2] == "- ":
                    break
                self.at += 1
                first = line[indent:]
            key, colon, rest = first.partition(":")
            first = None
            if not colon or key in out or _plain(key, False) != key or type(key) is not str:
                raise Declined
            if rest:
                if rest[0] != " ":
                    raise Declined
                out[key] = self.value(rest[1:], indent)
            else:
                out[key] = self.under(indent)
        if not out:
            raise Declined
        return out

    def under(self, indent: int) -> Any:
        """The block collection under ``key:`` at ``indent``: a sequence at
        the same indent, or a mapping two further in."""
        if self.at == len(self.lines):
            raise Declined
        line = self.lines[self.at]
        if _indent(line) == indent and line[indent : indent + 2] == "- ":
            return self.sequence(indent)
        if _indent(line) == indent + 2:
            return self.mapping(indent + 2, None)
        raise Declined

    def sequence(self, indent: int) -> list[Any]:
        out: list[Any] = []
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if _indent(line) != indent or line[indent : indent + 2] != "- ":
                break
            self.at += 1
            rest = line[indent + 2 :]
            if rest[:1] in ("[", "{", "'") or ":" not in rest:
                out.append(self.value(rest, indent))
            else:
                out.append(self.mapping(indent + 2, rest))
        return out


def yaml_value(lines: list[str]) -> dict[str, Any] | None:
    """The record written on ``lines`` (the first begins ``- ``), as libyaml
    and PyYAML's resolver read it, or None where only they know how."""
    if not lines or not lines[0].startswith("- "):
        return None
    reader = _Reader(lines)
    reader.at = 1
    try:
        record = reader.mapping(2, lines[0][2:])
    except (Declined, ValueError):  # ValueError: a flow item not a pair
        return None
    if reader.at != len(lines):
        return None
    return record


def item_value(text: str) -> Any:
    """The one item written on ``text`` (lines, the first ``  - ``, as
    ``item_text`` writes them), as libyaml and PyYAML's resolver read it;
    None where only they know how."""
    lines = text.split("\n")
    reader = _Reader(lines)
    try:
        items = reader.sequence(2)
    except (Declined, ValueError):  # ValueError: a flow item not a pair
        return None
    return items[0] if len(items) == 1 and reader.at == len(lines) else None
