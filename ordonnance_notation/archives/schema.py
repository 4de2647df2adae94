"""The archive format, described once: every field of an archive document.

An archive (docs/archive.md) is described here as data: which fields each
mapping has, which are required, what each holds (text and the pattern it
matches, whole numbers and their limits, lists, ...) and what a reader says
when a value is not so. Two things are built from this one description:

- ``check_archive``: the archive reader (``archives.document``) walks a document by
  it, field by field, and gets the plain record data or an ``Invalid`` saying
  what is wrong and where (``records[2].body[14].card``);
- ``json_schema``: the JSON Schema published as docs/archive.schema.json. A
  test holds that file to this module's output
  (``python -m ordonnance_notation.archives.schema > docs/archive.schema.json``)
  and holds the schema and the reader to the same verdict on every document.

The words of the notation (seats, cards, states, outcomes, tag names) take
their patterns from the grammar through ``notation.terminals``, and the
largest numbers from its terminals' digits. In the schema a pattern is
anchored as ``^(?:...)$(?!\\n)``: ECMA-262's ``$`` is the end of the text, and
the look-ahead makes Python's ``$`` (which also matches before a final line
break, and which Python validators use) mean the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any, TypeVar

from ..diagnostics import Severity, quoted
from ..engine.cards import State
from ..notation import terminals as t

SCHEMA_VERSION = 1
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID = "https://ordonnance-notation.example/archive.schema.json"
REGENERATE = "python -m ordonnance_notation.archives.schema > docs/archive.schema.json"


class Invalid(Exception):
    """A value that is not what the description says: ``message``, and the
    ``path`` from the document to the value (``["records", 2, "body"]``)."""

    def __init__(self, message: str, *inner: str | int) -> None:
        super().__init__(message)
        self.message = message
        self._reversed = list(reversed(inner))  # built from the inside out, as it unwinds

    def within(self, part: str | int) -> Invalid:
        """The same problem, one level further out (inside field or item ``part``)."""
        self._reversed.append(part)
        return self

    @property
    def path(self) -> list[str | int]:
        return self._reversed[::-1]


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def kind(value: Any) -> str:
    """What a value is, in the words of a message (``a number``, ``a list``)."""
    if value is None:
        return "nothing"
    return {
        bool: "true/false",
        int: "a number",
        float: "a number",
        list: "a list",
        dict: "a mapping",
    }.get(type(value), type(value).__name__)


def anchored(pattern: str) -> str:
    """``pattern`` matching a whole text, the same in ECMA-262 and in Python's
    ``re.search`` (see the module's docstring)."""
    body = f"(?:{pattern})" if "|" in pattern else pattern
    return f"^{body}$(?!\\n)"


_CLASS_ESCAPES = {
    "\x00": "\\u0000",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\\": "\\\\",
    "]": "\\]",
    "^": "\\^",
}


def _without(chars: str) -> str:
    """A pattern for a text holding none of ``chars``."""
    return anchored("[^" + "".join(_CLASS_ESCAPES.get(c, c) for c in chars) + "]*")


def _largest(pattern: str, spelling: str = "{}") -> int:
    """The largest number a terminal can spell (``spelling`` puts the digits in
    the token: ``"#{}"`` for a marker)."""
    whole = t.whole(pattern)
    for digits in range(1, 100):
        if not whole.match(spelling.format("9" * digits)):
            return int("9" * (digits - 1))
    raise ValueError(f"{pattern!r} spells numbers of any length")


Defs = dict[str, dict[str, Any]]
S = TypeVar("S", bound="Shape")


class Shape:
    """What a value must be. ``check`` returns its plain data or raises
    Invalid; ``schema`` is the same as JSON Schema. A shape with a ``name`` is
    one of the schema's ``$defs``."""

    name: str | None = None
    description: str | None = None

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def body(self, defs: Defs) -> dict[str, Any]:
        raise NotImplementedError

    def schema(self, defs: Defs) -> dict[str, Any]:
        if self.name is None:
            return self.body(defs)
        body = self.body(defs)  # what it uses comes before it in $defs
        if defs.setdefault(self.name, body) != body:
            raise ValueError(f"two shapes are named {self.name!r}")
        return {"$ref": f"#/$defs/{self.name}"}

    def named(self: S, name: str, description: str | None = None) -> S:
        self.name, self.description = name, description
        return self

    def _described(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"description": self.description, **body} if self.description else body


class Text(Shape):
    """A string. With ``pattern`` (a grammar terminal), it must match it whole,
    and with ``keywords`` it must not be a keyword of the notation; with
    ``enum``, be one of those; with ``forbid``, hold none of those characters
    (each with its own message). ``what`` names it in messages; ``strip``
    returns it without surrounding blanks."""

    def __init__(
        self,
        what: str,
        pattern: str | None = None,
        *,
        keywords: bool = False,
        enum: Sequence[str] = (),
        refusal: str | None = None,
        forbid: Sequence[tuple[str, str]] = (),
        strip: bool = False,
    ) -> None:
        self.what, self.refusal = what, refusal or what
        self.pattern = anchored(pattern) if pattern is not None else None
        self._match = re.compile(self.pattern).match if self.pattern is not None else None
        words = sorted(t.KEYWORDS) if keywords and pattern is not None else []
        self.keywords = tuple(w for w in words if t.whole(pattern or "").match(w))
        self.enum = tuple(enum)
        self.forbid = tuple(forbid)
        self.strip = strip
        self._sound: set[str] = set()  # short values accepted as they are: cards, states, seats

    def check(self, value: Any) -> Any:
        if type(value) is not str:
            raise Invalid(f"expected {self.what} as a string, not {kind(value)}")
        if value in self._sound:
            return value
        if _LONE_SURROGATE.search(value):  # JSON can say "\ud800"; no file can hold it
            raise Invalid(
                f"{self.what} holds a lone surrogate (U+D800 to U+DFFF), which is not text"
            )
        if self._match is not None and (self._match(value) is None or value in self.keywords):
            raise Invalid(f"{quoted(value)} is not {self.refusal}")
        if self.enum and value not in self.enum:
            raise Invalid(f"{quoted(value)} is not {self.refusal}")
        for char, message in self.forbid:
            if char in value:
                raise Invalid(message)
        if self.strip and value != value.strip():
            return value.strip()
        if len(value) < 64 and len(self._sound) < 4096:
            self._sound.add(value)
        return value

    def body(self, defs: Defs) -> dict[str, Any]:
        if self.enum:
            return self._described({"enum": list(self.enum)})
        out: dict[str, Any] = {"type": "string"}
        if self.pattern is not None:
            out["pattern"] = self.pattern
        if self.keywords:
            out["not"] = {"enum": list(self.keywords)}
        if self.forbid:
            if self.pattern is not None:
                raise ValueError("a text has a pattern or forbidden characters, not both")
            out["pattern"] = _without("".join(char for char, _ in self.forbid))
        return self._described(out)


def _found(value: Any) -> str:
    """A value found where another was expected, as a message quotes it."""
    return quoted(value) if isinstance(value, str) else quoted(repr(value), marks=False)


class Whole(Shape):
    """A whole number from ``minimum`` to ``maximum`` (either may be None).
    As in JSON, ``2.0`` is the number 2."""

    def __init__(self, minimum: int | None = 0, maximum: int | None = None) -> None:
        self.minimum, self.maximum = minimum, maximum
        self._refusal = "expected a whole number" + (
            f" from {minimum}" if minimum is not None else ""
        )

    def check(self, value: Any) -> Any:
        if type(value) is int:
            number = value
        elif type(value) is float and value.is_integer():
            number = int(value)
        else:
            raise Invalid(f"{self._refusal}, not {_found(value)}")
        if (self.minimum is not None and number < self.minimum) or (
            self.maximum is not None and number > self.maximum
        ):
            raise Invalid(f"{self._refusal}, not {_found(value)}")
        return number

    def body(self, defs: Defs) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer"}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return self._described(out)


class Flag(Shape):
    """``true`` or ``false``."""

    def check(self, value: Any) -> Any:
        if type(value) is not bool:
            raise Invalid(f"expected true or false, not {kind(value)}")
        return value

    def body(self, defs: Defs) -> dict[str, Any]:
        return self._described({"type": "boolean"})


class Const(Shape):
    """One value only (not ``true`` for 1); ``refusal`` is the message, with
    ``{value}`` for what was found."""

    def __init__(self, value: int, refusal: str) -> None:
        self.value, self.refusal = value, refusal

    def check(self, value: Any) -> Any:
        if value != self.value or isinstance(value, bool):
            raise Invalid(self.refusal.format(value=_found(value)))
        return self.value

    def body(self, defs: Defs) -> dict[str, Any]:
        return self._described({"const": self.value})


class Maybe(Shape):
    """``null``, or ``inner``."""

    def __init__(self, inner: Shape) -> None:
        self.inner = inner

    def check(self, value: Any) -> Any:
        return None if value is None else self.inner.check(value)

    def body(self, defs: Defs) -> dict[str, Any]:
        inner = self.inner.schema(defs)
        if isinstance(inner.get("type"), str) and not inner.keys() & {"enum", "const", "not"}:
            return self._described({**inner, "type": [inner["type"], "null"]})
        return self._described({"anyOf": [inner, {"type": "null"}]})


class ListOf(Shape):
    """A list of ``item``."""

    def __init__(self, item: Shape) -> None:
        self.item = item

    def check(self, value: Any) -> Any:
        if type(value) is not list:
            raise Invalid("expected a list")
        check = self.item.check
        try:
            return [check(item) for item in value]
        except Invalid:
            pass
        for i, item in enumerate(value):  # again, to say which item
            try:
                check(item)
            except Invalid as problem:
                raise problem.within(i) from None
        raise AssertionError("unreachable: the items checked differently twice")

    def body(self, defs: Defs) -> dict[str, Any]:
        return self._described({"type": "array", "items": self.item.schema(defs)})


class Pair(Shape):
    """A list of two: ``first`` and ``second``; ``refusal`` when not two."""

    def __init__(self, first: Shape, second: Shape, refusal: str) -> None:
        self.first, self.second, self.refusal = first, second, refusal

    def check(self, value: Any) -> Any:
        if type(value) is not list:
            raise Invalid("expected a list")
        if len(value) != 2:
            raise Invalid(self.refusal)
        out = []
        for i, (shape, item) in enumerate(zip((self.first, self.second), value, strict=True)):
            try:
                out.append(shape.check(item))
            except Invalid as problem:
                raise problem.within(i) from None
        return out

    def body(self, defs: Defs) -> dict[str, Any]:
        return self._described(
            {
                "type": "array",
                "prefixItems": [self.first.schema(defs), self.second.schema(defs)],
                "minItems": 2,
                "maxItems": 2,
            }
        )


class MapOf(Shape):
    """A mapping of any names to ``values``."""

    def __init__(self, values: Shape) -> None:
        self.values = values

    def check(self, value: Any) -> Any:
        if type(value) is not dict:
            raise Invalid("expected a mapping")
        out = {}
        for key, item in value.items():
            try:
                out[key] = self.values.check(item)
            except Invalid as problem:
                raise problem.within(key) from None
        return out

    def body(self, defs: Defs) -> dict[str, Any]:
        return self._described({"type": "object", "additionalProperties": self.values.schema(defs)})


class Keep(Enum):
    """Whether a checked field is in the data ``check`` returns."""

    ALWAYS = "always"
    IF_ANY = "if not empty"  # comments: an empty list is as good as none
    NEVER = "never"  # results: checked, then left out (a reader recomputes them)


class Field:
    """One field of a mapping."""

    def __init__(
        self, name: str, shape: Shape, required: bool = False, keep: Keep = Keep.ALWAYS
    ) -> None:
        self.name, self.shape, self.required, self.keep = name, shape, required, keep


class Fields(Shape):
    """A mapping of these fields, no other. They are checked, and returned, in
    this order."""

    def __init__(self, *fields: Field) -> None:
        self.fields = fields
        self.names = frozenset(f.name for f in fields)
        self.required = frozenset(f.name for f in fields if f.required)
        wanted = ", ".join(sorted(self.required)) or "fields"
        self._not_a_mapping = f"expected a mapping with {wanted}"
        self._steps: tuple[tuple[str, Callable[[Any], Any], Keep], ...] = tuple(
            (f.name, f.shape.check, f.keep) for f in fields
        )
        self._plans: dict[tuple[str, ...], tuple[tuple[str, Callable[[Any], Any], Keep], ...]] = {}

    def check(self, value: Any) -> Any:
        if type(value) is not dict:
            raise Invalid(self._not_a_mapping)
        plan = self._plans.get(tuple(value))
        if plan is None:
            plan = self._plan(value)
        out = {}
        for name, check, keep in plan:
            try:
                checked = check(value[name])
            except Invalid as problem:
                raise problem.within(name) from None
            if keep is Keep.ALWAYS or (keep is Keep.IF_ANY and checked):
                out[name] = checked
        return out

    def _plan(self, value: dict[Any, Any]) -> tuple[tuple[str, Callable[[Any], Any], Keep], ...]:
        """The fields a mapping with these keys has, in order; each set of
        keys is seen once (a mapping has few)."""
        keys = value.keys()
        if not self.required <= keys:
            raise Invalid(f"missing {', '.join(sorted(self.required - keys))}")
        if not keys <= self.names:
            raise Invalid("unknown field", min(keys - self.names))
        plan = tuple(step for step in self._steps if step[0] in keys)
        if len(self._plans) < 1024:
            self._plans[tuple(value)] = plan
        return plan

    def body(self, defs: Defs) -> dict[str, Any]:
        return self._described(
            {
                "type": "object",
                "required": [f.name for f in self.fields if f.required],
                "additionalProperties": False,
                "properties": {f.name: f.shape.schema(defs) for f in self.fields},
            }
        )


class ByKey(Shape):
    """One of several kinds of mapping, told by the key it has: the first of
    ``kinds`` whose key is in the mapping, else ``otherwise`` (a kind, or the
    message when there is none). Each kind requires its key and no other kind
    has it, so the schema's ``oneOf`` picks the same one."""

    def __init__(self, kinds: Sequence[tuple[str, Fields]], otherwise: Fields | str) -> None:
        self.kinds = tuple(kinds)
        self.otherwise = otherwise
        every = [shape for _, shape in self.kinds] + (
            [otherwise] if isinstance(otherwise, Fields) else []
        )
        for key, shape in self.kinds:
            holders = [other for other in every if key in other.names]
            if key not in shape.required or holders != [shape]:
                raise ValueError(f"the key {key!r} does not tell one kind of mapping")

    def check(self, value: Any) -> Any:
        if type(value) is dict:
            for key, shape in self.kinds:
                if key in value:
                    return shape.check(value)
        if isinstance(self.otherwise, Fields):
            return self.otherwise.check(value)
        raise Invalid(self.otherwise)

    def body(self, defs: Defs) -> dict[str, Any]:
        every = [shape for _, shape in self.kinds]
        if isinstance(self.otherwise, Fields):
            every.append(self.otherwise)
        return self._described({"oneOf": [shape.schema(defs) for shape in every]})


class OneKey(Shape):
    """A mapping of exactly one key, one of ``kinds``: ``{key: value}``;
    ``refusal`` for any other mapping or value."""

    def __init__(self, kinds: Mapping[str, Shape], refusal: str) -> None:
        self.kinds = dict(kinds)
        self.refusal = refusal

    def check(self, value: Any) -> Any:
        if type(value) is not dict or len(value) != 1:
            raise Invalid(self.refusal)
        [(key, item)] = value.items()
        shape = self.kinds.get(key)
        if shape is None:
            raise Invalid(self.refusal)
        try:
            return {key: shape.check(item)}
        except Invalid as problem:
            raise problem.within(key) from None

    def body(self, defs: Defs) -> dict[str, Any]:
        return self._described(
            {
                "oneOf": [
                    {
                        "type": "object",
                        "required": [key],
                        "additionalProperties": False,
                        "properties": {key: shape.schema(defs)},
                    }
                    for key, shape in self.kinds.items()
                ]
            }
        )


# The archive ---------------------------------------------------------------

CARD_WORDS = "a card (letters L B S H F)"
STATE_WORDS = "a state (a letter or a name)"
SEAT_WORDS = "a seat like P1"

SEAT = Text(SEAT_WORDS, t.SEAT, keywords=True).named("seat")
CARD = Text(CARD_WORDS, t.CARD, keywords=True).named("card")
STATE = Text(STATE_WORDS, t.STATE, keywords=True).named("state")
PLY = Whole(0, _largest(t.PLY, "{}.")).named("ply")
MARKER = Whole(0, _largest(t.MARKER, "#{}")).named("marker")
COUNT = Whole(0, _largest(t.COUNT)).named("count")
_GLYPHS = sorted(t.GLYPHS, key=len)  # ! ? !! ?? !? ?!
GLYPH = Text("a glyph", enum=_GLYPHS, refusal=f"a glyph ({' '.join(_GLYPHS)})").named("glyph")

_CR = "\r"  # reading a .ord file turns it into a line end
_NO_CR = (_CR, "a comment cannot hold a carriage return")
_NO_NUL = ("\x00", "a NUL character is not text: a .ord file cannot hold it")
COMMENTS = ListOf(
    OneKey(
        {
            "brace": Text(
                "comment text",
                forbid=(_NO_CR, _NO_NUL, (t.BRACE_CLOSE, "a {brace} comment cannot hold '}'")),
                strip=True,
            ),
            "line": Text(
                "comment text",
                forbid=(_NO_CR, _NO_NUL, ("\n", "a line comment is one line")),
                strip=True,
            ),
        },
        "a comment is {brace: text} or {line: text}",
    )
).named("comments")


def _comments() -> Field:
    return Field("comments", COMMENTS, keep=Keep.IF_ANY)


TAG = Fields(
    Field("name", Text("a tag name", t.TAG_NAME), required=True),
    Field(
        "value",
        Text(
            "a tag value",
            forbid=(("\n", "a tag value is one line"), (_CR, "a tag value is one line"), _NO_NUL),
        ),
        required=True,
    ),
    _comments(),
).named("tag")
CARDS = ListOf(CARD)
HAND = Fields(
    Field("hand", SEAT, required=True), Field("cards", CARDS, required=True), _comments()
).named("hand")
PILE = Fields(Field("pile", CARDS, required=True), _comments()).named("pile")
PLAY = Fields(
    Field("ply", PLY, required=True),
    Field("seat", SEAT),
    Field("drawn", CARD),
    Field("card", CARD, required=True),
    Field("state", STATE, required=True),
    Field("glyph", GLYPH),
    _comments(),
).named("play")
DECLARED = Fields(
    Field("marker", MARKER, required=True),
    Field("state", STATE, required=True),
    Field("seat", SEAT, required=True),
    _comments(),
).named("declared")
RESULT = Fields(
    Field(
        "result",
        Text("a seat, 'unfinished' or 'shared'", f"{t.OUTCOME}|{t.SEAT}", keywords=True),
        required=True,
    ),
    Field("scores", ListOf(Pair(SEAT, COUNT, "a score is [seat, number]"))),
    _comments(),
).named("result")

_STATE_MARKERS = len(State)
RESULTS = Fields(
    Field("valid", Flag(), required=True),
    Field("finished", Flag(), required=True),
    Field("winner", Maybe(Text("a winner")), required=True),
    Field("scores", Maybe(MapOf(Whole(None))), required=True),
    Field(
        "markers",
        ListOf(
            Fields(
                Field("marker", Whole(1, _STATE_MARKERS), required=True),
                Field("state", Text("a state letter", enum=[s.name for s in State]), required=True),
                Field("seat", SEAT, required=True),
                Field("ply", Whole(1), required=True),
            )
        ),
        required=True,
    ),
    Field(
        "diagnostics",
        ListOf(
            Fields(
                Field("code", Text("a diagnostic code", "[EWN][0-9]{3}"), required=True),
                Field(
                    "severity",
                    Text("a severity", enum=[s.value for s in Severity]),
                    required=True,
                ),
                Field("message", Text("a message"), required=True),
                Field("line", Maybe(Whole(None)), required=True),
                Field("column", Maybe(Whole(None)), required=True),
                Field("ply", Maybe(Whole(None)), required=True),
            )
        ),
        required=True,
    ),
).named(
    "results",
    "Recomputed by ordonnance_notation when converting with --with-results; "
    "its form is checked when read back, its content ignored.",
)

RECORD = Fields(
    _comments(),
    Field("tags", ListOf(TAG), required=True),
    Field("deal", ListOf(ByKey([("hand", HAND)], otherwise=PILE))),
    Field(
        "body",
        ListOf(
            ByKey(
                [("ply", PLAY), ("marker", DECLARED), ("result", RESULT)],
                otherwise="expected a play (ply:), a declared resolution (marker:) "
                "or the result line (result:)",
            )
        ),
    ),
    Field("results", RESULTS, keep=Keep.NEVER),
).named("record")

ARCHIVE = Fields(
    Field(
        "schema_version",
        Const(
            SCHEMA_VERSION,
            f"schema version {{value}} is not supported (this reader knows {SCHEMA_VERSION})",
        ),
        required=True,
    ),
    Field("records", ListOf(RECORD), required=True),
)
"""The whole document: ``{schema_version: 1, records: [...]}``."""


def check_archive(document: Any) -> dict[str, Any]:
    """The plain data of an archive document (as read from YAML or JSON):
    ``{"schema_version": 1, "records": [...]}``, each record as
    ``notation.writer.plain`` gives it. Raises Invalid at the first problem."""
    out: dict[str, Any] = ARCHIVE.check(document)
    return out


def json_schema() -> dict[str, Any]:
    """The JSON Schema of archives (docs/archive.schema.json), from the same
    description ``check_archive`` walks."""
    defs: Defs = {}
    root = ARCHIVE.schema(defs)
    return {
        "$schema": JSON_SCHEMA_DIALECT,
        "$id": SCHEMA_ID,
        "title": "ordonnance_notation archive",
        "description": "Records of the card game Ordonnance as YAML or JSON (docs/archive.md). "
        f"Schema version {SCHEMA_VERSION}.",
        "$comment": "Written by ordonnance_notation/archives/schema.py, from the description "
        f"the archive reader checks documents by: do not edit, run `{REGENERATE}`. "
        "Patterns end in $(?!\\n) so that validators whose $ also matches before a final "
        "line break (Python's re) read them as ECMA-262 does.",
        **root,
        "$defs": defs,
    }


def schema_text() -> str:
    """docs/archive.schema.json as it must be, byte for byte: JSON, each
    object or array on one line when it fits in 100 columns."""
    return _layout(json_schema(), 0, 0) + "\n"


def _layout(value: Any, indent: int, start: int) -> str:
    """``value`` as JSON starting at column ``start`` of a line indented by ``indent``."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or not value or start + len(flat) < 100:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        heads = [f"{pad}{json.dumps(key, ensure_ascii=False)}: " for key in value]
        items = [
            head + _layout(item, indent + 2, len(head))
            for head, item in zip(heads, value.values(), strict=True)
        ]
        brackets = "{}"
    else:
        items = [pad + _layout(item, indent + 2, len(pad)) for item in value]
        brackets = "[]"
    return brackets[0] + "\n" + ",\n".join(items) + "\n" + " " * indent + brackets[1]


if __name__ == "__main__":
    import sys

    sys.stdout.write(schema_text())
