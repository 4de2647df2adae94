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


class _Declined(Exception):
    pass


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
        spelt = None if "\n" in inner else inner
        if len(_spellings) < 1 << 16 and (type(value) is not str or len(value) < 64):
            _spellings[key] = spelt
            if flow and type(value) is str and spelt is not None:
                _flow_words[value] = spelt
    if not isinstance(spelt, str):
        raise _Declined
    return spelt


def spelt(value: str, flow: bool) -> str | None:
    """How libyaml's emitter writes a string in flow or block context, on
    one line; None when it would take more (what the compiled core asks of
    the words it lays out: ``quick.archived_block``)."""
    try:
        return _flow_words.get(value) if flow and value in _flow_words else _spelling(value, flow)
    except _Declined:
        return None


LAYOUT = (WIDTH, spelt)
"""The layout as the compiled core is told it (``quick.archived_block``)."""


SIMPLE_KEY_MOST = 128  # bytes: libyaml writes a longer key as a complex one (``? key``)


def _key(key: Any) -> str:
    """A key of a mapping: a plain field name (in flow, so in block too)."""
    if type(key) is not str or _spelling(key, True) != key:
        raise _Declined
    if len(key) * 4 > SIMPLE_KEY_MOST and len(key.encode()) > SIMPLE_KEY_MOST:
        raise _Declined
    return key


def _breakable(spelt: str) -> bool:
    """Whether the emitter may break a scalar so spelt over lines when it
    runs past the width (at a space, or inside quotes)."""
    return " " in spelt or spelt[:1] in ("'", '"')


def _is_flow(value: Any) -> bool:
    """Whether the emitter writes a value on its line (a scalar, or a list or
    mapping of scalars only, as ``default_flow_style=None`` does)."""
    if type(value) is dict:
        return not any(type(v) in (dict, list) for v in value.values())
    if type(value) is list:
        return not any(type(v) in (dict, list) for v in value)
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
            raise _Declined  # the emitter would fold it: leave it to the emitter

    def flow(self, value: Any, indent: int) -> None:
        """A list or mapping of scalars in flow style, wrapped after a comma as
        the emitter wraps: when the line has passed the width."""
        mapping = type(value) is dict
        words = _flow_words
        if mapping:
            parts = [
                f"{words.get(k) or _key(k)}: {words.get(v) or _spelling(v, True)}"
                for k, v in value.items()
            ]
            whole = "{" + ", ".join(parts) + "}"
        else:
            whole = "[" + ", ".join([words.get(v) or _spelling(v, True) for v in value]) + "]"
        if len(self.line) + len(whole) <= WIDTH:
            self.line += whole  # no comma passes the width: nothing to wrap or fold
            return
        self.line += whole[0]
        for i, part in enumerate(parts if mapping else value):
            if i:
                self.line += ","
            if len(self.line) > WIDTH:
                self.start(indent)
            elif i:
                self.line += " "
            if mapping:
                key, _, spelt = part.partition(": ")
                self.line += key + ": " + spelt
                if len(self.line) > WIDTH and _breakable(spelt):
                    raise _Declined
            else:
                self.scalar(part, True)
        self.line += whole[-1]

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
                raise _Declined  # a list in a list of lists: the emitter's own way


def yaml_text(entry: dict[str, Any]) -> str | None:
    """A record of a YAML archive as ``document.yaml_record`` writes it, or
    None where only libyaml's emitter knows how."""
    out = _Lines()
    out.line = "- "
    try:
        if not entry or _is_flow(entry):
            raise _Declined  # a record always holds lists
        out.mapping(entry, 2, True)
    except _Declined:
        return None
    out.done.append(out.line)
    return "\n".join(out.done) + "\n"


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
        raise _Declined
    value = written(_RESOLVER.resolve(yaml.ScalarNode, text, (True, False)), text)  # type: ignore[no-untyped-call]
    if value is OTHERWISE:
        raise _Declined
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
            raise _Declined
        return match.group(1).replace("''", "'")
    return _plain(text, flow)


def _flow(text: str) -> Any:
    """A list or mapping of scalars written in flow style on one line (the
    lines it was wrapped over joined by a space)."""
    mapping = text[0] == "{"
    if text[-1] != ("}" if mapping else "]"):
        raise _Declined
    if "'" not in text:  # plain words only: split where they end
        inner = text[1:-1]
        words = inner.split(", ") if inner else []
        if not mapping:
            return [_plain(word, True) for word in words]
        pairs = [word.split(": ") for word in words]
        out = {_plain(k, True): _plain(v, True) for k, v in pairs}  # ValueError: not a pair
        if len(out) != len(pairs) or any(type(k) is not str for k in out):
            raise _Declined
        return out
    items: Any = {} if mapping else []
    at, end = 1, len(text) - 1
    while True:
        key, at = _flow_token(text, at)
        if mapping:
            if not text.startswith(": ", at) or type(key) is not str or key in items:
                raise _Declined
            items[key], at = _flow_token(text, at + 2)
        else:
            items.append(key)
        if at == end:
            return items
        if not text.startswith(", ", at):
            raise _Declined
        at += 2


def _flow_token(text: str, at: int) -> tuple[Any, int]:
    match = (_SINGLE if text[at] == "'" else _FLOW_PLAIN).match(text, at)
    if match is None:
        raise _Declined
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
                raise _Declined
            if rest:
                if rest[0] != " ":
                    raise _Declined
                out[key] = self.value(rest[1:], indent)
            else:
                out[key] = self.under(indent)
        if not out:
            raise _Declined
        return out

    def under(self, indent: int) -> Any:
        """The block collection under ``key:`` at ``indent``: a sequence at
        the same indent, or a mapping two further in."""
        if self.at == len(self.lines):
            raise _Declined
        line = self.lines[self.at]
        if _indent(line) == indent and line[indent : indent + 2] == "- ":
            return self.sequence(indent)
        if _indent(line) == indent + 2:
            return self.mapping(indent + 2, None)
        raise _Declined

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
    except (_Declined, ValueError):  # ValueError: a flow item not a pair
        return None
    if reader.at != len(lines):
        return None
    return record
