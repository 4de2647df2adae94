"""A record the compiled core accepts, in its plain form, from its ``Replayed``.

The plain form (``writer.plain``) is what an archive holds of a record and
what its canonical text is written from: tags, deal and body, each a list
of elements (a tag, a hand, the pile, a play, a declared resolution, the
result line). Here each element is a small hashable value (``Element``),
read from what the core found of the record rather than parsed again, and
each writer of the plain form -- the canonical text (``notation.writer``),
a YAML archive's piece (``layout``), a JSON one's (``files.output.json_text``)
-- lays out an element it has met before by a look-up: plays, declared
resolutions and tags come again record after record.

Only a record written plainly is read so (``Replayed.plain`` and
``ordered``: no draw, glyph or comment, every card and state spelt the
usual way, its hands in seat order then the pile); any other is the
Python path's, which parses it. The tests hold the two to the same
plain form on every corpus.

Reading goes the other way too (``ord_texts``): a record's piece of an
archive laid out as ``ordo`` writes it, read an item at a time (an item met
before by a look-up) into the elements it holds and the .ord text they
stand for, which is taken only when the core accepts that text and finds in
it that very plain form; any other piece is read as any archive's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import count
from typing import Any, NamedTuple

from ..checking.quick import replayed_block
from ..checking.replayed import Replayed
from ..engine.cards import Card, State, seat_name
from ..files.output import json_text
from ..notation import writer
from . import layout

Element = tuple[tuple[str, Any], ...]
"""An element's ``(key, value)`` pairs in the plain form's order, a list as a tuple."""

_KEPT = 1 << 16  # plays remembered, and tags' orders
_SEATS = tuple(seat_name(seat) for seat in range(9))
_CARDS = {Card(mask): str(Card(mask)) for mask in range(1, 32)}
_DIGITS = frozenset("0123456789")


class Elements(NamedTuple):
    """A record's plain form as its three lists of elements."""

    tags: tuple[Element, ...]
    deal: tuple[Element, ...]
    body: tuple[Element, ...]

    def plain(self) -> dict[str, Any]:
        """The plain form as ``writer.plain`` gives it."""
        out: dict[str, Any] = {"tags": [_plain(tag) for tag in self.tags]}
        if self.deal:
            out["deal"] = [_plain(element) for element in self.deal]
        if self.body:
            out["body"] = [_plain(element) for element in self.body]
        return out


def _plain(element: Element) -> dict[str, Any]:
    """An element as a mapping of the plain form (its tuples as lists)."""
    return {key: _listed(value) if type(value) is tuple else value for key, value in element}


def _listed(values: tuple[Any, ...]) -> list[Any]:
    if values and type(values[0]) is tuple:
        return [list(value) for value in values]  # the scores: pairs
    return list(values)


# From Replayed ---------------------------------------------------------------


def elements_of(replayed: Replayed) -> Elements | None:
    """The plain form of a record the core accepted, written plainly and
    its deal in seat order; None for any other (its text is parsed)."""
    if not (replayed.plain and replayed.ordered):
        return None
    dealt = replayed.deal
    hands, pile = dealt.hands, dealt.pile
    deal = [_hand(seat, hand) for seat, hand in enumerate(hands)]
    deal.append((("pile", tuple(map(_CARDS.__getitem__, pile))),))
    return Elements(_tags(replayed.tags), tuple(deal), _body(replayed))


_orders: dict[tuple[str, ...], tuple[int, ...] | None] = {}  # by the tags' names: None, in order


def _tags(tags: tuple[tuple[str, str], ...]) -> tuple[Element, ...]:
    """The tags' elements in the canonical order (``writer.tag_rank``'s)."""
    names = tuple([name for name, _ in tags])
    order = _orders.get(names, ())
    if order == ():
        ranks = [writer.tag_rank(name) for name in names]
        order = (
            None
            if ranks == sorted(ranks)
            else tuple(sorted(range(len(names)), key=ranks.__getitem__))
        )
        if len(_orders) < _KEPT:
            _orders[names] = order
    if order is not None:
        tags = tuple([tags[i] for i in order])
    return tuple([(("name", name), ("value", value)) for name, value in tags])


def _hand(seat: int, hand: tuple[Card, ...]) -> Element:
    return (("hand", _SEATS[seat]), ("cards", tuple(map(_CARDS.__getitem__, hand))))


# each play's element by ply and play, for records written without seats (0) or with (2, 3, 4)
_plays: dict[int, dict[tuple[int, tuple[Card, State]], Element]] = {}


def _play_elements(replayed: Replayed) -> list[Element]:
    seats = len(replayed.names) if replayed.seated else 0
    memo = _plays.get(seats)
    if memo is None:
        memo = _plays[seats] = {}
    keys = list(zip(count(1), replayed.plays))
    found = list(map(memo.get, keys))
    if None in found:
        found = [
            element or _play(memo, key, seats) for element, key in zip(found, keys, strict=True)
        ]
    return found  # type: ignore[return-value]


def _play(
    memo: dict[tuple[int, tuple[Card, State]], Element],
    key: tuple[int, tuple[Card, State]],
    seats: int,
) -> Element:
    ply, (card, state) = key
    element: Element
    if seats:
        pairs = ("ply", ply), ("seat", _SEATS[(ply - 1) % seats]), ("card", _CARDS[card])
        element = (*pairs, ("state", state.name))
    else:
        element = (("ply", ply), ("card", _CARDS[card]), ("state", state.name))
    if len(memo) < _KEPT:
        memo[key] = element = _interned(element)
    return element


# One object for each element of a body met again (a play, a declared resolution,
# a result), whichever way it was met: a record read back is compared with what
# the core found of it mostly by identity.
_INTERNED: dict[Element, Element] = {}


def _interned(element: Element) -> Element:
    if len(_INTERNED) < _KEPT:
        return _INTERNED.setdefault(element, element)
    return element


_DECLARED = {  # each declared resolution's element by (marker, state, seat)
    (marker, state, seat): _interned(
        (("marker", marker), ("state", state.name), ("seat", _SEATS[seat]))
    )
    for marker in range(1, len(State) + 1)
    for state in State
    for seat in range(len(_SEATS))
}


def _body(replayed: Replayed) -> tuple[Element, ...]:
    """The body's elements in the order written: where its declared
    resolutions and result line are is read from its text (in a record
    written plainly, every ``#`` after the first play begins one, and the
    result line is the last), what each says from what the core found."""
    text = replayed.text
    start = text.find("\n1.") + 1  # the first play
    end = len(text.rstrip(" \n"))
    if not start or text.find("\n\n", start, end) >= 0 or text.find("\n ", start, end) >= 0:
        return _body_by_lines(replayed)  # a line of the body blank, or begun with blanks
    plays = _play_elements(replayed)
    markers = replayed.markers
    body: list[Element] = []
    placed = 0  # plays placed
    found = text.find("#", start, end)
    while found >= 0:
        ply = text.count("\n", start, found) - (len(body) - placed)  # the lines before, less #s
        body += plays[placed:ply]
        placed = ply
        body.append(_DECLARED[markers[int(text[found + 1]) - 1][:3]])
        found = text.find("#", found + 2, end)
    body += plays[placed:]
    last = text[text.rfind("\n", start, end) + 1 : end]
    if last[:6] == "result":
        body.append(_result(last))
    return tuple(body)


def _body_by_lines(replayed: Replayed) -> tuple[Element, ...]:
    """``_body``, each line read for what it is."""
    plays = iter(_play_elements(replayed))
    body: list[Element] = []
    for written in replayed.text.split("\n"):
        line = written.lstrip(" ")
        first = line[:1]
        if first in _DIGITS:
            body.append(next(plays))
        elif first == "#":
            body.append(_DECLARED[replayed.markers[int(line[1]) - 1][:3]])
        elif first == "r":
            body.append(_result(line))
    return tuple(body)


_results: dict[str, Element] = {}  # by the line, as written


def _result(line: str) -> Element:
    """The result line's element: its outcome and scores as written (the
    core found them the game's)."""
    element = _results.get(line)
    if element is None:
        words = line.split()
        if len(words) == 2:
            element = (("result", words[1]),)
        else:
            scores = tuple([(word[:2], int(word[3:])) for word in words[2:]])
            element = (("result", words[1]), ("scores", scores))
        if len(_results) < _KEPT:
            _results[line] = element = _interned(element)
    return element


# Writing -----------------------------------------------------------------------
#
# Each writer keeps what it wrote of an element by list (tags, deal, body):
# plays, declared resolutions and results come again record after record;
# tags too, but for those the record's own (a seed, a round), so fewer are
# kept; a hand or a pile comes again too rarely to keep.

Memos = tuple[dict[Element, str], dict[Element, str], dict[Element, str]]
_CAPS = (1 << 12, 0, 1 << 16)


def _kept(memos: Memos, part: int, element: Element, text: str) -> str:
    memo = memos[part]
    if len(memo) < _CAPS[part]:
        memo[element] = text
    return text


def _looked_up(
    memo: dict[Element, str],
    listed: tuple[Element, ...],
    part: int,
    written: Callable[[int, Element], str],
) -> list[str]:
    """What a writer wrote of each element of a list: kept in ``memo``, else
    ``written`` now."""
    texts = list(map(memo.get, listed))
    if None in texts:
        texts = [
            text or written(part, element) for text, element in zip(texts, listed, strict=True)
        ]
    return texts  # type: ignore[return-value]


_ord_lines: Memos = ({}, {}, {})
_LINES = (writer.tag_lines, writer.deal_lines, writer.body_lines)


def canonical_text(elements: Elements) -> str:
    """The canonical text of the record (``writer.text`` of its plain form)."""
    lines: list[str] = []
    for part, listed in enumerate(elements):
        if part and listed:
            lines.append("")
        lines += _looked_up(_ord_lines[part], listed, part, _ord_text)
    return "\n".join(lines) + "\n"


def _ord_text(part: int, element: Element) -> str:
    return _kept(_ord_lines, part, element, "\n".join(_LINES[part](_plain(element))))


_yaml_items: Memos = ({}, {}, {})
_KEYS = ("tags", "deal", "body")


def yaml_piece(elements: Elements) -> str | None:
    """The record's piece of a YAML archive (``document.yaml_record`` of its
    plain form), or None where only libyaml's emitter knows how."""
    try:
        lists = []
        for part, listed in enumerate(elements):
            if listed:
                lists.append((_KEYS[part], _looked_up(_yaml_items[part], listed, part, yaml_text)))
        return layout.record_text(lists)
    except layout.Declined:
        return None


def yaml_text(part: int, element: Element) -> str:
    """An element of a list (``part``: 0 tags, 1 deal, 2 body) as an item
    of a YAML archive's (``layout.item_text``). Raises layout.Declined."""
    text = _yaml_items[part].get(element)
    if text is None:
        text = _kept(_yaml_items, part, element, layout.item_text(_plain(element)))
    return text


_json_items: Memos = ({}, {}, {})
_JSON_KEYS = tuple(f"   {json.dumps(key)}: [\n    " for key in _KEYS)


def json_piece(elements: Elements) -> str:
    """The record's piece of a JSON archive (``document.json_record`` of its
    plain form, without the comma before it)."""
    lists = []
    for part, listed in enumerate(elements):
        if listed:
            items = _looked_up(_json_items[part], listed, part, json_item)
            lists.append(_JSON_KEYS[part] + ",\n    ".join(items) + "\n   ]")
    return "  {\n" + ",\n".join(lists) + "\n  }"


def json_item(part: int, element: Element) -> str:
    """An element of a list (``part``) as an item of a JSON archive's
    (``json_text``, four deep)."""
    text = _json_items[part].get(element)
    if text is None:
        text = _kept(_json_items, part, element, json_text(_plain(element), 1, 4))
    return text


def trimmed(text: str) -> str:
    """A record's text from its first line that is not blank to its last,
    ended with a newline: what is compared with its canonical text."""
    start = len(text) - len(text.lstrip(" \n"))
    end = text.find("\n", len(text.rstrip(" \n")))
    return text[start:end] + "\n" if end >= 0 else text[start:] + "\n"


def canonical(replayed: Replayed) -> str | None:
    """The canonical text of a record the core accepted, if it is written
    so already (its text, blank lines around it aside); else None."""
    elements = elements_of(replayed)
    if elements is None:
        return None
    text = canonical_text(elements)
    return text if trimmed(replayed.text) == text else None


# Reading ---------------------------------------------------------------------

_VALUES = frozenset([str, int])


def element_of(item: Any) -> Element | None:
    """An element of the plain form from what an archive holds of it: a
    mapping of strings, whole numbers and lists of them (or of lists of
    them), its lists as tuples; None for anything else (comments, which
    no element here holds, among them)."""
    if type(item) is not dict or "comments" in item:
        return None
    pairs = []
    for key, value in item.items():
        kind = type(value)
        if kind is list:
            kinds = set(map(type, value))
            if kinds <= _VALUES:
                pairs.append((key, tuple(value)))
            elif kinds == {list} and all(set(map(type, v)) <= _VALUES for v in value):
                pairs.append((key, tuple(map(tuple, value))))
            else:
                return None
        elif kind in _VALUES:
            pairs.append((key, value))
        else:
            return None  # (True is no whole number here: it would hash as 1)
    return tuple(pairs)


_yaml_read: tuple[dict[str, Element], ...] = ({}, {}, {})  # by an item's text but its "  - "
_YAML_TAGS, _YAML_DEAL, _YAML_BODY = "- tags:\n  - ", "\n  deal:\n  - ", "\n  body:\n  - "


def yaml_elements(piece: str) -> Elements | None:
    """The elements of a record's piece of a YAML archive (its lines, the
    last unended), when it is laid out as ``yaml_piece`` lays out a record
    of tags, a deal and a body, each item as ``yaml_text`` writes it; else
    None."""
    parts = _parts(piece, _YAML_TAGS, _YAML_DEAL, _YAML_BODY, "")
    return None if parts is None else _read(parts, "\n  - ", _yaml_read, _read_yaml)


def _parts(piece: str, tags: str, deal: str, body: str, end: str) -> tuple[str, str, str] | None:
    """A piece's text of its tags, deal and body, between the words that
    begin each (and ``end``, which ends it), or None where one is missing."""
    if not (piece.startswith(tags) and piece.endswith(end)):
        return None
    at_deal = piece.find(deal)
    at_body = piece.find(body, at_deal)
    if at_deal < 0 or at_body < 0:
        return None
    return (
        piece[len(tags) : at_deal],
        piece[at_deal + len(deal) : at_body],
        piece[at_body + len(body) : len(piece) - len(end)],
    )


def _read(
    parts: tuple[str, str, str],
    between: str,
    memos: tuple[dict[str, Element], ...],
    read: Callable[[int, str], Element | None],
) -> Elements | None:
    """The elements of a record's three lists, each list's text cut into
    items where ``between`` is, each item as read before (``memos``) or
    ``read``; None when one cannot be."""
    lists = []
    for part, text in enumerate(parts):
        items = text.split(between)
        listed = list(map(memos[part].get, items))
        if None in listed:
            listed = [
                element or read(part, item) for element, item in zip(listed, items, strict=True)
            ]
            if None in listed:
                return None
        lists.append(tuple(listed))
    return Elements(*lists)  # type: ignore[arg-type]


def _read_yaml(part: int, item: str) -> Element | None:
    """An item's element, read loosely (``_words``) or as YAML is read
    (``layout.item_value``), and taken when the item is written so again."""
    text = "  - " + item
    element = _words(item)
    try:
        if element is None or yaml_text(part, element) != text:
            element = element_of(layout.item_value(text))
            if element is None or yaml_text(part, element) != text:
                return None
    except layout.Declined:
        return None
    return _remembered(_yaml_read[part], part, item, element)


def _words(item: str) -> Element | None:
    """An item of plain words read loosely: ``{key: word, ...}`` on a line,
    or lines of ``key: word`` and ``key: [word, ...]`` (wrapped after its
    commas); a word of digits as a whole number, one in single quotes as
    the string they hold. What YAML would read otherwise (a comment, a
    quote within, a word it reads as true) ``yaml_text`` writes otherwise:
    the caller finds it so."""
    if item[:1] == "{":
        if item[-1:] != "}" or "\n" in item:
            return None
        pairs = [part.split(": ") for part in item[1:-1].split(", ")]
        if any(len(pair) != 2 for pair in pairs):
            return None
        return tuple([(key, _word(word)) for key, word in pairs])
    element: list[tuple[str, Any]] = []
    for line in item.replace(",\n      ", ", ").split("\n    "):
        key, colon, value = line.partition(": ")
        if not colon:
            return None
        if value[:1] == "[" and value[-1:] == "]":
            element.append((key, tuple([_word(word) for word in value[1:-1].split(", ")])))
        else:
            element.append((key, _word(value)))
    return tuple(element)


def _word(word: str) -> str | int:
    if word[:1] == "'":
        return word[1:-1].replace("''", "'")
    return int(word) if word.isdigit() and word.isascii() and str(int(word)) == word else word


def _remembered(memo: dict[str, Element], part: int, item: str, element: Element) -> Element:
    if len(memo) < _CAPS[part]:
        memo[item] = element = _interned(element) if part == 2 else element
    return element


_json_read: tuple[dict[str, Element], ...] = ({}, {}, {})  # by an item's text within its braces
_JSON_TAGS, _JSON_DEAL, _JSON_BODY, _JSON_END = (
    '  {\n   "tags": [\n    {',
    '}\n   ],\n   "deal": [\n    {',
    '}\n   ],\n   "body": [\n    {',
    "}\n   ]\n  }",
)


def json_elements(piece: str) -> Elements | None:
    """The elements of a record's piece of a JSON archive (without the comma
    after it), when it is laid out as ``json_piece`` lays out a record of
    tags, a deal and a body; else None."""
    parts = _parts(piece, _JSON_TAGS, _JSON_DEAL, _JSON_BODY, _JSON_END)
    return None if parts is None else _read(parts, "},\n    {", _json_read, _read_json)


def _read_json(part: int, item: str) -> Element | None:
    """An item's element, read by the json module, where no key is given
    twice (as ``load`` reads archives)."""
    try:
        value = json.loads("{" + item + "}")
    except (ValueError, RecursionError):
        return None
    element = element_of(value)
    if element is None or item.count('":') != len(element):  # (a key given twice is one)
        return None
    return _remembered(_json_read[part], part, item, element)


def _canonical_or_none(plainly: Elements) -> str | None:
    """``canonical_text`` of elements read from an archive, or None where
    they are no record's plain form (a tag without its value, a hand
    without its cards, a number where a word goes: the archive's reader
    says what is wrong)."""
    try:
        return canonical_text(plainly)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None


def ord_text(piece: str, kind: str) -> str | None:
    """``ord_texts`` of one piece."""
    return ord_texts([piece], kind)[0]


def ord_texts(pieces: list[str], kind: str) -> list[str | None]:
    """The .ord text each record's piece of a YAML or JSON archive
    (``kind``) laid out as ``ordo`` writes it stands for: taken when the
    piece holds a record's plain form as ``yaml_piece`` or ``json_piece``
    writes it (read as ``json`` reads it, or loosely but written so again),
    the core accepts that record's canonical text and finds it written
    plainly with that very plain form; else None, and the piece is read as
    any archive's. The texts go to the core together, a record after a
    blank line."""
    read = yaml_elements if kind == "yaml" else json_elements
    found = [read(piece) for piece in pieces]
    texts = [None if plainly is None else _canonical_or_none(plainly) for plainly in found]
    starts, line = [], 1
    for text in texts:
        starts.append(line)
        if text is not None:
            line += text.count("\n") + 1
    replayed = replayed_block(1, "\n".join([text for text in texts if text is not None]))
    by_line = {item.first_line: item for item in replayed or () if isinstance(item, Replayed)}
    taken: list[str | None] = []
    for plainly, text, start in zip(found, texts, starts, strict=True):
        item = by_line.get(start) if text is not None else None
        alike = item is not None and trimmed(item.text) == text and elements_of(item) == plainly
        taken.append(text if alike else None)
    return taken
