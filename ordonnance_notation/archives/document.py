"""Archives: records as YAML or JSON documents, and back, losing nothing.

An archive is one document ``{schema_version: 1, records: [...]}``; each
record is the plain form of ``notation.writer.plain`` (tags, comments, deal,
plays, declared resolutions, result line). With ``with_results`` each record
also carries ``results``: what this engine recomputed (validity, winner,
scores, markers, diagnostics), for readers without the engine; ``results`` is
ignored when an archive is read back. docs/archive.schema.json is the schema.

Reading is strict: YAML through the safe loader only, no aliases, and every
field checked; a problem is an ArchiveError whose diagnostic (E003) gives the
line and column and the path inside the document (``records[2].body[14].card``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import yaml

from ..checking.validator import Report
from ..diagnostics import ArchiveError, Diagnostic
from ..notation import terminals as t
from ..notation.record import Record, Span
from ..notation.writer import plain, text

SCHEMA_VERSION = 1
MAX_DEPTH = 16  # an archive nests 7 deep; anything deeper is refused before it is built
MAX_NUMBER = 10**9
# libyaml when the machine has it: the same documents, several times faster
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

_NAME = t.whole(t.TAG_NAME)
_WORD = t.whole(t.CARD)  # cards, states and draws are all letters
_SEAT = t.whole(t.SEAT)
_OUTCOME = t.whole(f"{t.OUTCOME}|{t.SEAT}")
_KEYWORDS = t.KEYWORDS
_GLYPHS = frozenset(t.GLYPHS)


def document(records: Iterable[Record], reports: Iterable[Report] | None = None) -> dict:
    """The archive of ``records``; with their ``reports``, each carries its results."""
    out = []
    for record, report in (
        zip(records, reports) if reports is not None else ((r, None) for r in records)
    ):
        entry = plain(record)
        if report is not None:
            entry["results"] = _results(report)
        out.append(entry)
    return {"schema_version": SCHEMA_VERSION, "records": out}


def _results(report: Report) -> dict:
    full = report.to_json()
    results = {key: full[key] for key in ("valid", "finished", "winner", "scores", "markers")}
    results["diagnostics"] = [
        {key: d[key] for key in ("code", "severity", "message", "line", "column", "ply")}
        for d in full["diagnostics"]
    ]
    return results


def dump_yaml(doc: dict) -> str:
    return yaml.dump(
        doc, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None
    )


def dump_json(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def to_text(doc: dict) -> str:
    """The canonical .ord text of every record of a checked archive."""
    return "\n".join(text(record) for record in doc["records"])


# Reading ---------------------------------------------------------------


class _Node:
    """A value with where it stood in the file (line and column from 1), if known."""

    __slots__ = ("column", "line", "value")

    def __init__(self, value: Any, line: int | None = None, column: int | None = None) -> None:
        self.value, self.line, self.column = value, line, column


def load(data: str, source: str, kind: str) -> dict:
    """A checked archive from YAML or JSON text (``kind`` is ``"yaml"`` or ``"json"``).
    Raises ArchiveError with the place of the first problem."""
    if kind == "json":
        return _load_json(data, source)
    try:
        depth = 0
        for event in yaml.parse(data, Loader=_LOADER):
            mark = event.start_mark
            if isinstance(event, yaml.AliasEvent):  # before anything is built: no alias bombs
                raise _error(
                    source,
                    "aliases (*name) are not allowed in an archive",
                    [],
                    mark.line + 1,
                    mark.column + 1,
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _error(
                        source,
                        f"nested more than {MAX_DEPTH} deep",
                        [],
                        mark.line + 1,
                        mark.column + 1,
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        root = yaml.compose(data, Loader=_LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or str(error)
        line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
        raise _error(source, f"not YAML: {problem}", [], line, column) from None
    if root is None:
        raise _error(source, "the document is empty", [], 1, 1)
    builder = yaml.SafeLoader("")
    try:
        tree = _convert(root, source, [], set(), builder)
    finally:
        builder.dispose()
    return _check_document(tree, source)


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list) -> dict:
    out = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _load_json(data: str, source: str) -> dict:
    """JSON is read by the json module (fast); only when something is wrong is
    the document walked again with positions, to say where."""
    nesting = _json_depth(data)
    if nesting > MAX_DEPTH:
        raise _error(source, f"nested more than {MAX_DEPTH} deep", [], None, None)
    try:
        value = json.loads(data, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        raise _error(source, f"not JSON: {error.msg}", [], error.lineno, error.colno) from None
    except _DuplicateKey as duplicate:
        raise _error(source, f"key {duplicate.args[0]!r} given twice", [], None, None) from None
    except (ValueError, RecursionError) as error:  # e.g. a number of thousands of digits
        raise _error(source, f"not a usable JSON value: {error}", [], None, None) from None
    try:
        return _check_document(_unplaced(value), source)
    except ArchiveError as error:
        line, column = _locate(data, error.path)
        if line is None:
            raise
        raise _error(source, error.reason, error.path, line, column) from None


def _json_depth(data: str) -> int:
    """How deep brackets nest in a JSON text (strings skipped), without parsing it."""
    depth = deepest = 0
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', data):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _unplaced(value: Any) -> _Node:
    if isinstance(value, dict):
        return _Node({key: _unplaced(item) for key, item in value.items()})
    if isinstance(value, list):
        return _Node([_unplaced(item) for item in value])
    return _Node(value)


def _locate(data: str, path: list) -> tuple[int | None, int | None]:
    """Line and column of the value at ``path`` in a JSON text, if it can be found."""
    try:
        node = yaml.compose(data, Loader=_LOADER)
    except yaml.YAMLError:
        return None, None
    for part in path:
        if isinstance(node, yaml.MappingNode):
            node = next((value for key, value in node.value if key.value == part), None)
        elif (
            isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value)
        ):
            node = node.value[part]
        else:
            node = None
        if node is None:
            return None, None
    return (
        (node.start_mark.line + 1, node.start_mark.column + 1) if node is not None else (None, None)
    )


def _error(
    source: str, message: str, path: list, line: int | None, column: int | None
) -> ArchiveError:
    where = _path(path)
    span = Span(line, column, line, column + 1) if line is not None and column is not None else None
    error = ArchiveError(
        Diagnostic("E003", f"{where}: {message}" if where else message, source, span)
    )
    error.path, error.reason = path, message
    return error


def _path(path: list) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _convert(
    node: yaml.Node, source: str, path: list, seen: set, builder: yaml.SafeLoader
) -> _Node:
    """YAML nodes to _Nodes. Aliases are refused: an archive never needs them,
    and expanding them is how a tiny file becomes a huge one."""
    if id(node) in seen:
        raise _error(
            source,
            "aliases (*name) are not allowed in an archive",
            path,
            node.start_mark.line + 1,
            node.start_mark.column + 1,
        )
    seen.add(id(node))
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    if isinstance(node, yaml.MappingNode):
        mapping: dict[str, _Node] = {}
        for key, value in node.value:
            name = builder.construct_scalar(key) if isinstance(key, yaml.ScalarNode) else None
            if not isinstance(name, str):
                raise _error(
                    source,
                    "keys are plain words",
                    path,
                    key.start_mark.line + 1,
                    key.start_mark.column + 1,
                )
            if name in mapping:
                raise _error(
                    source,
                    f"key {name!r} given twice",
                    path,
                    key.start_mark.line + 1,
                    key.start_mark.column + 1,
                )
            mapping[name] = _convert(value, source, [*path, name], seen, builder)
        return _Node(mapping, line, column)
    if isinstance(node, yaml.SequenceNode):
        return _Node(
            [
                _convert(item, source, [*path, i], seen, builder)
                for i, item in enumerate(node.value)
            ],
            line,
            column,
        )
    try:
        value = builder.construct_object(node, deep=True)
    except Exception as error:
        raise _error(
            source, f"unreadable value ({type(error).__name__})", path, line, column
        ) from None
    return _Node(value, line, column)


class _Checker:
    """Turns _Nodes into plain data, checking every field against the archive format."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, node: _Node, path: list, message: str) -> ArchiveError:
        return _error(self.source, message, path, node.line, node.column)

    def mapping(
        self, node: _Node, path: list, required: set[str], optional: set[str]
    ) -> dict[str, _Node]:
        if not isinstance(node.value, dict):
            raise self.fail(
                node, path, f"expected a mapping with {', '.join(sorted(required)) or 'fields'}"
            )
        missing = required - node.value.keys()
        if missing:
            raise self.fail(node, path, f"missing {', '.join(sorted(missing))}")
        unknown = node.value.keys() - required - optional
        if unknown:
            name = min(unknown)
            raise self.fail(node.value[name], [*path, name], "unknown field")
        return node.value

    def sequence(self, node: _Node, path: list) -> list[_Node]:
        if not isinstance(node.value, list):
            raise self.fail(node, path, "expected a list")
        return node.value

    def string(
        self, node: _Node, path: list, pattern: re.Pattern | None = None, what: str = "text"
    ) -> str:
        value = node.value
        if not isinstance(value, str) or isinstance(value, bool):
            raise self.fail(node, path, f"expected {what} as a string, not {_kind(value)}")
        if pattern is not None and (not pattern.match(value) or value in _KEYWORDS):
            raise self.fail(node, path, f"{value!r} is not {what}")
        return value

    def integer(self, node: _Node, path: list, minimum: int = 0) -> int:
        value = node.value
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not minimum <= value < MAX_NUMBER
        ):
            raise self.fail(node, path, f"expected a whole number from {minimum}, not {value!r}")
        return value

    def comments(self, fields: dict[str, _Node], path: list) -> list[dict]:
        if "comments" not in fields:
            return []
        out = []
        for i, item in enumerate(self.sequence(fields["comments"], [*path, "comments"])):
            where = [*path, "comments", i]
            entry = item.value if isinstance(item.value, dict) else {}
            if len(entry) != 1 or not entry.keys() <= {"brace", "line"}:
                raise self.fail(item, where, "a comment is {brace: text} or {line: text}")
            kind, value = next(iter(entry.items()))
            comment = self.string(value, [*where, kind], what="comment text")
            if "\r" in comment:
                raise self.fail(value, [*where, kind], "a comment cannot hold a carriage return")
            if kind == "brace" and "}" in comment:
                raise self.fail(value, [*where, kind], "a {brace} comment cannot hold '}'")
            if "\n" in comment and kind == "line":
                raise self.fail(value, [*where, kind], "a line comment is one line")
            out.append({kind: comment.strip()})
        return out

    def element(self, result: dict, comments: list[dict]) -> dict:
        if comments:
            result["comments"] = comments
        return result

    def record(self, node: _Node, path: list) -> dict:
        fields = self.mapping(node, path, {"tags"}, {"comments", "deal", "body", "results"})
        record: dict = {}
        comments = self.comments(fields, path)
        if comments:
            record["comments"] = comments
        record["tags"] = []
        for i, tag in enumerate(self.sequence(fields["tags"], [*path, "tags"])):
            where = [*path, "tags", i]
            tf = self.mapping(tag, where, {"name", "value"}, {"comments"})
            name = self.string(tf["name"], [*where, "name"], _NAME, "a tag name")
            value = self.string(tf["value"], [*where, "value"], what="a tag value")
            if "\n" in value or "\r" in value:
                raise self.fail(tf["value"], [*where, "value"], "a tag value is one line")
            record["tags"].append(
                self.element({"name": name, "value": value}, self.comments(tf, where))
            )
        if "deal" in fields:
            record["deal"] = [
                self.deal_element(e, [*path, "deal", i])
                for i, e in enumerate(self.sequence(fields["deal"], [*path, "deal"]))
            ]
        if "body" in fields:
            record["body"] = [
                self.body_element(e, [*path, "body", i])
                for i, e in enumerate(self.sequence(fields["body"], [*path, "body"]))
            ]
        return record

    def cards(self, node: _Node, path: list) -> list[str]:
        return [
            self.string(c, [*path, i], _WORD, "a card (letters L B S H F)")
            for i, c in enumerate(self.sequence(node, path))
        ]

    def deal_element(self, node: _Node, path: list) -> dict:
        if isinstance(node.value, dict) and "hand" in node.value:
            f = self.mapping(node, path, {"hand", "cards"}, {"comments"})
            seat = self.string(f["hand"], [*path, "hand"], _SEAT, "a seat like P1")
            return self.element(
                {"hand": seat, "cards": self.cards(f["cards"], [*path, "cards"])},
                self.comments(f, path),
            )
        f = self.mapping(node, path, {"pile"}, {"comments"})
        return self.element(
            {"pile": self.cards(f["pile"], [*path, "pile"])}, self.comments(f, path)
        )

    def body_element(self, node: _Node, path: list) -> dict:
        keys = node.value.keys() if isinstance(node.value, dict) else set()
        if "ply" in keys:
            f = self.mapping(
                node, path, {"ply", "card", "state"}, {"seat", "drawn", "glyph", "comments"}
            )
            play: dict = {"ply": self.integer(f["ply"], [*path, "ply"])}
            if "seat" in f:
                play["seat"] = self.string(f["seat"], [*path, "seat"], _SEAT, "a seat like P1")
            if "drawn" in f:
                play["drawn"] = self.string(
                    f["drawn"], [*path, "drawn"], _WORD, "a card (letters L B S H F)"
                )
            play["card"] = self.string(
                f["card"], [*path, "card"], _WORD, "a card (letters L B S H F)"
            )
            play["state"] = self.string(
                f["state"], [*path, "state"], _WORD, "a state (a letter or a name)"
            )
            if "glyph" in f:
                glyph = self.string(f["glyph"], [*path, "glyph"], what="a glyph")
                if glyph not in _GLYPHS:
                    raise self.fail(
                        f["glyph"], [*path, "glyph"], f"{glyph!r} is not a glyph (! ? !! ?? !? ?!)"
                    )
                play["glyph"] = glyph
            return self.element(play, self.comments(f, path))
        if "marker" in keys:
            f = self.mapping(node, path, {"marker", "state", "seat"}, {"comments"})
            declared = {
                "marker": self.integer(f["marker"], [*path, "marker"]),
                "state": self.string(
                    f["state"], [*path, "state"], _WORD, "a state (a letter or a name)"
                ),
                "seat": self.string(f["seat"], [*path, "seat"], _SEAT, "a seat like P1"),
            }
            return self.element(declared, self.comments(f, path))
        if "result" in keys:
            f = self.mapping(node, path, {"result"}, {"scores", "comments"})
            result: dict = {
                "result": self.string(
                    f["result"], [*path, "result"], _OUTCOME, "a seat, 'unfinished' or 'shared'"
                )
            }
            if "scores" in f:
                scores = []
                for i, pair in enumerate(self.sequence(f["scores"], [*path, "scores"])):
                    where = [*path, "scores", i]
                    items = self.sequence(pair, where)
                    if len(items) != 2:
                        raise self.fail(pair, where, "a score is [seat, number]")
                    scores.append(
                        [
                            self.string(items[0], [*where, 0], _SEAT, "a seat like P1"),
                            self.integer(items[1], [*where, 1]),
                        ]
                    )
                result["scores"] = scores
            return self.element(result, self.comments(f, path))
        raise self.fail(
            node,
            path,
            "expected a play (ply:), a declared resolution (marker:) or the result line (result:)",
        )


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {
        bool: "true/false",
        int: "a number",
        float: "a number",
        list: "a list",
        dict: "a mapping",
    }.get(type(value), type(value).__name__)


def _check_document(root: _Node, source: str) -> dict:
    checker = _Checker(source)
    fields = checker.mapping(root, [], {"schema_version", "records"}, set())
    version = fields["schema_version"]
    if version.value != SCHEMA_VERSION or isinstance(version.value, bool):
        raise checker.fail(
            version,
            ["schema_version"],
            f"schema version {version.value!r} is not supported (this reader knows {SCHEMA_VERSION})",
        )
    records = [
        checker.record(r, ["records", i])
        for i, r in enumerate(checker.sequence(fields["records"], ["records"]))
    ]
    return {"schema_version": SCHEMA_VERSION, "records": records}
