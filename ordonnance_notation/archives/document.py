"""Archives: records as YAML or JSON documents, and back, losing nothing.

An archive is one document ``{schema_version: 1, records: [...]}``; each
record is the plain form of ``notation.writer.plain`` (tags, comments, deal,
plays, declared resolutions, result line). With ``with_results`` each record
also carries ``results``: what this engine recomputed (validity, winner,
scores, markers, diagnostics), for readers without the engine; ``results`` is
checked but otherwise ignored when an archive is read back.

Reading is strict: YAML through the safe loader only, no aliases, and every
field checked against ``archives.schema``, the one description of the format
(docs/archive.schema.json is written from it); a problem is an ArchiveError
whose diagnostic (E003) gives the line and column and the path inside the
document (``records[2].body[14].card``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import yaml

from ..checking import quick
from ..checking.report import Report
from ..diagnostics import ArchiveError, Diagnostic, quoted
from ..files.output import json_text
from ..notation.record import Span
from . import elements, layout, schema
from .layout import STR as _STR
from .layout import scalar as _scalar
from .schema import SCHEMA_VERSION

MAX_DEPTH = 16  # an archive nests 7 deep; anything deeper is refused before it is checked
# libyaml when the machine has it: the same documents, several times faster
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = layout.DUMPER


def results(report: Report) -> dict[str, Any]:
    """What the engine recomputed for a record, as an archive carries it."""
    full = report.to_json()
    results = {key: full[key] for key in ("valid", "finished", "winner", "scores", "markers")}
    results["diagnostics"] = [
        {key: d[key] for key in ("code", "severity", "message", "line", "column", "ply")}
        for d in full["diagnostics"]
    ]
    return results


_YAML_STYLE: dict[str, Any] = {"allow_unicode": True, "width": layout.WIDTH}


class _Dumper(layout.WritingResolver, _DUMPER):  # type: ignore[misc,valid-type]
    """PyYAML's dumper, quoting what YAML 1.2 would read otherwise too."""


def dump_yaml(doc: dict[str, Any]) -> str:
    """A whole archive as PyYAML writes it: the text the records' pieces
    (``yaml_record``) are held to, byte for byte."""
    text: str = yaml.dump(
        doc, Dumper=_Dumper, sort_keys=False, default_flow_style=None, **_YAML_STYLE
    )
    return text


def dump_json(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


# Writing an archive a record at a time ------------------------------------
#
# The archive is the same text ``dump_yaml`` and ``dump_json`` write of the
# whole document (a test holds them byte for byte), written as a head, one
# piece per record and a tail, so that no more than a record is held.

YAML_HEAD = f"schema_version: {SCHEMA_VERSION}\nrecords:\n"
JSON_HEAD = f'{{\n "schema_version": {SCHEMA_VERSION},\n "records": [\n'
JSON_TAIL = "\n ]\n}\n"


def json_record(entry: dict[str, Any], first: bool) -> str:
    """One record of a JSON archive as ``dump_json`` indents it."""
    return ("" if first else ",\n") + "  " + json_text(entry, 1, 2)


_START = {
    (dict, flow): yaml.MappingStartEvent(None, None, True, flow_style=flow)
    for flow in (True, False)
} | {
    (list, flow): yaml.SequenceStartEvent(None, None, True, flow_style=flow)
    for flow in (True, False)
}
_END = {dict: yaml.MappingEndEvent(), list: yaml.SequenceEndEvent()}


def _events(value: Any, out: list[yaml.Event]) -> None:
    """The events of ``value`` as ``yaml.dump(default_flow_style=None)`` makes
    them: a list or mapping of scalars only in flow style, others in block."""
    kind = type(value)
    if kind is dict:
        out.append(_START[dict, not any(type(v) in (dict, list) for v in value.values())])
        for key, item in value.items():
            out.append(_scalar(key))
            _events(item, out)
        out.append(_END[dict])
    elif kind is list:
        out.append(_START[list, not any(type(v) in (dict, list) for v in value)])
        for item in value:
            _events(item, out)
        out.append(_END[list])
    else:
        out.append(_scalar(value))


def yaml_record(entry: dict[str, Any]) -> str:
    """One record of a YAML archive, as ``dump_yaml`` writes it under
    ``records:`` (a block sequence there is not indented): laid out by
    ``layout`` where it can, else events straight to libyaml's emitter
    (PyYAML's representer, the slow part, is never run)."""
    text = layout.yaml_text(entry)
    return text if text is not None else _emitted(entry)


def _emitted(entry: dict[str, Any]) -> str:
    events: list[yaml.Event] = [yaml.StreamStartEvent(), yaml.DocumentStartEvent(explicit=False)]
    _events([entry], events)
    events += [yaml.DocumentEndEvent(explicit=False), yaml.StreamEndEvent()]
    text: str = yaml.emit(events, Dumper=_DUMPER, **_YAML_STYLE)
    return text


def read_back(piece: str, kind: str, source: str) -> dict[str, Any]:
    """The record a piece of archive text written by ``yaml_record`` or
    ``json_record`` reads as, checked like any archive's. Raises ArchiveError."""
    if kind == "json":
        value = json.loads("[" + piece.lstrip(",\n") + "]")
    else:
        record = layout.yaml_value(piece.rstrip("\n").split("\n"))
        value = (
            [record] if record is not None else _written_value(yaml.compose(piece, Loader=_LOADER))
        )
    records: list[dict[str, Any]] = check_records(value, source)
    return records[0]


def _written_value(node: yaml.Node | None) -> Any:
    """The value of a node of an archive ``yaml_record`` wrote: strings and
    whole numbers in lists and mappings, as the loader resolves them. (Faster
    than PyYAML's constructor, which an archive from elsewhere still goes
    through: the strict reader is ``load``.)"""
    if isinstance(node, yaml.ScalarNode):
        return layout.written(node.tag, node.value)
    if isinstance(node, yaml.SequenceNode):
        return [_written_value(item) for item in node.value]
    if isinstance(node, yaml.MappingNode) and all(key.tag == _STR for key, _ in node.value):
        return {key.value: _written_value(item) for key, item in node.value}
    return layout.OTHERWISE


def check_records(value: Any, source: str) -> list[dict[str, Any]]:
    """``value`` checked as the records of an archive. Raises ArchiveError."""
    try:
        doc = schema.check_archive({"schema_version": SCHEMA_VERSION, "records": value})
    except schema.Invalid as problem:
        raise _error(source, problem.message, problem.path, None, None) from None
    records: list[dict[str, Any]] = doc["records"]
    return records


# Reading ---------------------------------------------------------------

_JSON_HEAD_LINES = JSON_HEAD.rstrip("\n").split("\n")
_YAML_HEAD_LINES = YAML_HEAD.rstrip("\n").split("\n")


def in_our_layout(lines: Iterable[str], kind: str) -> bool:
    """Whether an archive's lines are laid out as ``ordo`` writes them: the
    head, then each record on lines of its own (YAML: ``- `` then lines
    indented by two spaces; JSON: from ``  {`` to ``  }``), and no anchor or
    alias anywhere. Such an archive can be read a record at a time."""
    head = _YAML_HEAD_LINES if kind == "yaml" else _JSON_HEAD_LINES
    it = iter(lines)
    if [next(it, None) for _ in head] != head:
        return False
    records = 0
    tail: list[str] = []
    for line in it:
        if not line:
            continue  # the end of the last line
        if "&" in line or "*" in line:
            return False  # an alias could reach across records: read whole
        if tail:
            tail.append(line)
        elif kind == "yaml":
            if line.startswith("- "):
                records += 1
            elif not line.startswith("  "):
                return False
        elif line == "  {":
            records += 1
        elif not line.startswith(("   ", "  }")):
            tail.append(line)
    return records > 0 and (kind == "yaml" or tail == [" ]", "}"])


def records_in_our_layout(lines: Iterable[str], source: str, kind: str) -> Iterator[dict[str, Any]]:
    """The checked records of an archive ``in_our_layout``, read a record at a
    time, each as strictly as ``load`` reads a whole document; a problem is
    an ArchiveError placed in the whole file (``records[k]``, its line)."""
    head = _YAML_HEAD_LINES if kind == "yaml" else _JSON_HEAD_LINES
    held: list[str] = []
    first = 0  # the file's line number of held[0]
    index = 0
    for number, line in enumerate(lines, 1):
        if number <= len(head):
            continue
        starts = line.startswith("- ") if kind == "yaml" else line == "  {"
        if starts or (kind == "json" and line == " ]"):
            if held:
                yield _one_record(held, first, index, source, kind)
                index += 1
            held, first = [], number
            if not starts:
                return
        held.append(line)
    if held:
        yield _one_record(held, first, index, source, kind)


def records_quickly(
    texts: Callable[[], Iterator[str]], source: str, kind: str
) -> Iterator[dict[str, Any] | str] | None:
    """The records of an archive laid out as ``ordo`` writes archives (as
    ``in_our_layout`` says), read a block at a time: each one read back as
    the .ord text it stands for (a str: ``elements.ord_text``, where the
    compiled core accepts that text as canonical), each other checked as
    ``records_in_our_layout`` checks it. None when there is no compiled core
    or the archive is laid out otherwise. ``texts`` gives the archive's
    text a block of whole lines at a time, each time it is called: it is
    read twice."""
    if not quick.compiled_core():
        return None
    json = kind == "json"
    begins = "  {\n" if json else "- "
    try:
        found = _record_texts(texts(), kind)
        if not all(text.startswith(begins) and laid_out(text, json) for _, text in found):
            return None
    except _Declined:
        return None
    return _read_quickly(texts(), source, kind)


# a line no record of ours begins so (after the line end before it): YAML's
# begin with "- " or two blanks; JSON's are "  {" or begin with three blanks or "  }"
_OTHERWISE = {
    False: re.compile(r"\n(?:[^ \n-]|-[^ ]| [^ ])"),
    True: re.compile(r"\n(?:[^ \n]| [^ ]|  [^ {}]|  \{[^\n])"),
}


def laid_out(text: str, json: bool) -> bool:
    """Whether a block of an archive's records is laid out as ordo writes
    archives (``in_our_layout``, less its head and JSON's tail): no anchor
    nor alias anywhere, and each line one of a record's (a line that is
    empty is any archive's)."""
    if "&" in text or "*" in text:
        return False
    return _OTHERWISE[json].search("\n" + text) is None


def _read_quickly(texts: Iterable[str], source: str, kind: str) -> Iterator[dict[str, Any] | str]:
    index = 0  # records read so far
    start = "\n- " if kind == "yaml" else "\n  {\n"
    for first, text in _record_texts(texts, kind):
        pieces = [start[1:] + piece for piece in ("\n" + text).split(start)[1:]]
        pieces[-1] = pieces[-1][:-1]  # the text's last line end ends no line after it
        at = 0  # where the piece begins in the text
        for piece, read in zip(
            pieces, elements.ord_texts([_unended(p, kind) for p in pieces], kind), strict=True
        ):
            if read is not None:
                yield read
            else:  # read as any archive's, its problems placed in the file
                line = first + text.count("\n", 0, at)
                yield _one_record(piece.split("\n"), line, index, source, kind)
            at += len(piece) + 1
            index += 1


def _unended(piece: str, kind: str) -> str:
    """A record's piece without the empty lines after it (and JSON's comma)."""
    piece = piece.rstrip("\n")
    return piece[:-1] if kind == "json" and piece.endswith(",") else piece


class _Declined(Exception):
    pass


def _record_texts(texts: Iterable[str], kind: str) -> Iterator[tuple[int, str]]:
    """An archive's records as texts of whole records, each with the number
    of its first line: the head taken off (and JSON's tail), each block to
    the last record that begins in it. Raises _Declined for an archive that
    does not begin with the head, hold a record, or end with the tail."""
    head = YAML_HEAD if kind == "yaml" else JSON_HEAD
    start = "\n- " if kind == "yaml" else "\n  {\n"
    pending = ""  # the text read from the last record's start
    first = head.count("\n") + 1  # the number of pending's first line
    headed = records = False
    for block in texts:
        text = pending + block if block.endswith("\n") else pending + block + "\n"
        if not headed:
            if not text.startswith(head):
                if head.startswith(text):
                    pending = text  # the head, so far
                    continue
                raise _Declined
            text, headed = text[len(head) :], True
        cut = text.rfind(start) + 1
        if cut > 0:
            records = True
            yield first, text[:cut]
            first += text.count("\n", 0, cut)
            pending = text[cut:]
        else:
            pending = text
    if kind == "json":
        body = pending.rstrip("\n")
        if not body.endswith("\n ]\n}") and body != " ]\n}":
            raise _Declined
        pending = body[: -len(" ]\n}")]
    records = records or pending.startswith("- " if kind == "yaml" else "  {\n")
    if not records or not headed:
        raise _Declined
    if pending:
        yield first, pending


def _one_record(lines: list[str], first: int, index: int, source: str, kind: str) -> dict[str, Any]:
    """One record's lines read as the only record of an archive, its problems
    placed where they are in the whole file. A record read quickly and found
    sound is taken as it is; any other is read again as ``load`` reads, to
    say what is wrong and where."""
    body = "\n".join(lines).rstrip(",")
    quick = _quickly(lines, body, kind)
    if quick is not None:
        return quick
    # the last record's lines end with the file's last newline: it is not doubled
    end = "" if body.endswith("\n") else "\n"
    text = YAML_HEAD + body + end if kind == "yaml" else JSON_HEAD + body + JSON_TAIL
    shift = first - (len(_YAML_HEAD_LINES if kind == "yaml" else _JSON_HEAD_LINES) + 1)
    try:
        doc = load(text, source, kind)
    except ArchiveError as error:
        path = ["records", index, *error.path[2:]] if error.path[:1] == ["records"] else error.path
        span = error.diagnostic.span
        line = span.line + shift if span is not None else None
        raise _error(source, error.reason, path, line, span.column if span else None) from None
    record: dict[str, Any] = doc["records"][0]
    return record


def _quickly(lines: list[str], body: str, kind: str) -> dict[str, Any] | None:
    """A record's lines read by ``layout`` (YAML) or the json module, and
    checked; None for anything else."""
    if kind == "yaml":
        value = layout.yaml_value(lines)
    else:
        try:  # (the schema check looks no deeper than a record goes: no depth check first)
            value = json.loads(body, object_pairs_hook=_no_duplicates)
        except (ValueError, RecursionError):
            return None
    if value is None:
        return None
    try:
        return check_records([value], "")[0]
    except ArchiveError:
        return None


def load(data: str, source: str, kind: str) -> dict[str, Any]:
    """A checked archive from YAML or JSON text (``kind`` is ``"yaml"`` or ``"json"``).
    Raises ArchiveError with the place of the first problem."""
    if kind == "json":
        return _load_json(data, source)
    try:
        depth = 0
        for event in yaml.parse(data, Loader=_LOADER):
            # before anything is built: no alias bombs, and no anchor (&name) that
            # an alias could use, as the docs say (an archive never needs them)
            if isinstance(event, yaml.NodeEvent) and event.anchor is not None:
                raise _error(
                    source,
                    "aliases (*name) are not allowed in an archive"
                    if isinstance(event, yaml.AliasEvent)
                    else "anchors (&name) are not allowed in an archive",
                    [],
                    *_at(event.start_mark),
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _error(
                        source, f"nested more than {MAX_DEPTH} deep", [], *_at(event.start_mark)
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        root = yaml.compose(data, Loader=_LOADER)
    except yaml.YAMLError as error:
        problem = getattr(error, "problem", None) or str(error)
        line, column = _at(getattr(error, "problem_mark", None))
        raise _error(source, f"not YAML: {problem}", [], line, column) from None
    if root is None:
        raise _error(source, "the document is empty", [], 1, 1)
    builder = yaml.SafeLoader("")
    try:
        tree = _convert(root, source, [], set(), builder)
    finally:
        builder.dispose()
    try:
        return schema.check_archive(tree)
    except schema.Invalid as problem:
        line, column = _place(root, problem.path)
        raise _error(source, problem.message, problem.path, line, column) from None


def _at(mark: Any) -> tuple[int | None, int | None]:
    """Line and column (from 1) of a YAML mark, if there is one."""
    return (mark.line + 1, mark.column + 1) if mark else (None, None)


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _load_json(data: str, source: str) -> dict[str, Any]:
    """JSON is read by the json module (fast); only when something is wrong is
    the document walked again with positions, to say where. A document nested
    too deep is refused as such, whatever else is wrong with it."""
    try:
        value = json.loads(data, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError) as error:  # _DuplicateKey and JSONDecodeError too
        if _json_depth(data) > MAX_DEPTH:
            raise _too_deep(source) from None
        if isinstance(error, json.JSONDecodeError):
            where = error.lineno, error.colno
            raise _error(source, f"not JSON: {error.msg}", [], *where) from None
        if isinstance(error, _DuplicateKey):
            raise _error(
                source, f"key {quoted(error.args[0])} given twice", [], None, None
            ) from None
        long = _LONG_NUMBER.search(data)
        if long is not None:  # Python reads no more digits than this
            at = long.start()
            row, col = data.count("\n", 0, at) + 1, at - (data.rfind("\n", 0, at) + 1) + 1
            message = f"a number of more than {_DIGITS:,} digits: no archive value is so long"
            raise _error(source, message, [], row, col) from None
        raise _error(source, f"not a usable JSON value: {error}", [], None, None) from None
    if _nested_deeper(value, MAX_DEPTH):  # as deep as its brackets, the text being JSON
        raise _too_deep(source)
    try:
        return schema.check_archive(value)
    except schema.Invalid as problem:
        line, column = _locate(data, problem.path)
        raise _error(source, problem.message, problem.path, line, column) from None


_DIGITS = 4300  # sys.int_info.default_max_str_digits
_LONG_NUMBER = re.compile(f"[0-9]{{{_DIGITS + 1},}}")


def _too_deep(source: str) -> ArchiveError:
    return _error(source, f"nested more than {MAX_DEPTH} deep", [], None, None)


# a string unrolled (no backtracking per character: a string of 20 MB costs no more)
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def _json_depth(data: str) -> int:
    """How deep brackets nest in a JSON text (strings skipped), without parsing it."""
    depth = deepest = 0
    for match in _STRING_OR_BRACKET.finditer(data):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _nested_deeper(value: Any, limit: int) -> bool:
    """Whether lists and mappings nest more than ``limit`` deep in ``value``."""
    level = [value] if isinstance(value, dict | list) else []
    for _ in range(limit):
        level = [
            item
            for holder in level
            for item in (holder.values() if isinstance(holder, dict) else holder)
            if isinstance(item, dict | list)
        ]
    return bool(level)


def _locate(data: str, path: list[str | int]) -> tuple[int | None, int | None]:
    """Line and column of the value at ``path`` in a JSON text, if it can be found."""
    try:
        node = yaml.compose(data, Loader=_LOADER)
    except yaml.YAMLError:
        return None, None
    return _place(node, path)


def _place(node: yaml.Node | None, path: list[str | int]) -> tuple[int | None, int | None]:
    """Line and column of the value at ``path`` in a composed document."""
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
    source: str, message: str, path: list[str | int], line: int | None, column: int | None
) -> ArchiveError:
    where = _path(path)
    span = Span(line, column, line, column + 1) if line is not None and column is not None else None
    error = ArchiveError(
        Diagnostic(
            "E003",
            f"{where}: {message}" if where else message,
            source,
            span,
            help="an archive is one document with `schema_version` and a list of `records`, "
            "as docs/archive.md and docs/archive.schema.json describe",
        )
    )
    error.path, error.reason = path, message
    return error


def _path(path: list[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _convert(
    node: yaml.Node, source: str, path: list[str | int], seen: set[int], builder: yaml.SafeLoader
) -> Any:
    """YAML nodes to plain values, keys as written. Aliases are refused: an
    archive never needs them, and expanding them is how a tiny file becomes a
    huge one."""
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
        mapping: dict[str, Any] = {}
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
                    f"key {quoted(name)} given twice",
                    path,
                    key.start_mark.line + 1,
                    key.start_mark.column + 1,
                )
            mapping[name] = _convert(value, source, [*path, name], seen, builder)
        return mapping
    if isinstance(node, yaml.SequenceNode):
        return [
            _convert(item, source, [*path, i], seen, builder) for i, item in enumerate(node.value)
        ]
    try:
        value = builder.construct_object(node, deep=True)
    except Exception as error:
        raise _error(
            source, f"unreadable value ({type(error).__name__})", path, line, column
        ) from None
    return value
