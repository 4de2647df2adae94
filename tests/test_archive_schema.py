"""docs/archive.schema.json is the archive reader's own description of the
format (ordonnance_notation/archives/schema.py), and the schema and the reader
give the same verdict on every document: on the fuzz corpus and the bad inputs,
on single-field mutations of real archives, and on random ones."""

from __future__ import annotations

import copy
import json
import math
import shutil
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from strategies import ROOT, SAMPLES, TESTS, fuzz

from ordonnance_notation.archives.conversion import convert
from ordonnance_notation.archives.document import MAX_DEPTH, ArchiveError, load
from ordonnance_notation.archives.schema import REGENERATE, json_schema, schema_text

SCHEMA_FILE = ROOT / "docs" / "archive.schema.json"
SCHEMA = json_schema()
VALIDATOR = Draft202012Validator(SCHEMA)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # as the reader reads YAML


def test_the_committed_schema_is_the_generated_one() -> None:
    assert SCHEMA_FILE.read_text("utf-8") == schema_text(), (
        "docs/archive.schema.json is not the archive reader's description; "
        f"regenerate it: {REGENERATE}"
    )


def test_the_schema_is_a_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)


# One verdict ------------------------------------------------------------------


class Outside(Exception):
    """A text whose document the schema cannot be asked about; says why, and
    whether the reader refuses such a text whatever its data."""

    def __init__(self, why: str, refused: bool = True) -> None:
        super().__init__(why)
        self.refused = refused


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise Outside("a key given twice")
    return dict(pairs)


_PLAIN = {yaml.MappingNode: "tag:yaml.org,2002:map", yaml.SequenceNode: "tag:yaml.org,2002:seq"}


def _check_yaml_nodes(node: yaml.Node) -> None:
    if type(node) in _PLAIN and node.tag != _PLAIN[type(node)]:
        raise Outside(f"a list or mapping tagged {node.tag}", refused=False)
    if isinstance(node, yaml.MappingNode):
        texts = [key.value for key, _ in node.value if isinstance(key, yaml.ScalarNode)]
        if len(set(texts)) != len(texts):
            raise Outside("a key given twice")
        for key, value in node.value:
            if key.tag == "tag:yaml.org,2002:merge":
                raise Outside("a merge key (<<)")
            _check_yaml_nodes(key)
            _check_yaml_nodes(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _check_yaml_nodes(item)


def document_of(text: str, kind: str) -> Any:
    """The data a JSON Schema validator would be given for ``text``, or
    Outside for a text whose reading is a matter of the text, not of the data,
    which the reader refuses before it checks any field:

    - not JSON or YAML at all, or a value YAML cannot build (``!!python/...``,
      a 13th month), or nested so deep that the parsers give up: there is no
      document;
    - a key given twice: JSON and YAML loaders keep one of the values, so the
      data no longer shows what the text says;
    - a YAML anchor (``&a``), alias (``*a``) or merge key (``<<``): the reader refuses them before
      anything is built (so that a small file cannot expand into a huge one),
      while a loader expands them into data that may well be valid;
    - a list or mapping with a YAML tag (``!!set``, ``!!python/tuple``): the
      reader reads it as the list or mapping it is written as, a YAML loader
      builds something else or refuses it; JSON has no such thing.
    """
    if kind == "json":
        try:
            return json.loads(text, object_pairs_hook=_no_duplicates)
        except (ValueError, RecursionError) as error:
            raise Outside(f"not JSON ({type(error).__name__})") from None
    try:
        events = yaml.parse(text, Loader=_LOADER)
        if any(isinstance(e, yaml.NodeEvent) and e.anchor is not None for e in events):
            raise Outside("an anchor or an alias")
        root = yaml.compose(text, Loader=_LOADER)
        if root is not None:
            _check_yaml_nodes(root)
        return yaml.load(text, Loader=_LOADER)
    except Outside:
        raise
    except Exception as error:  # PyYAML's constructors raise anything
        raise Outside(f"not YAML ({type(error).__name__})") from None


def reader_verdict(text: str, kind: str) -> str | None:
    """None if the archive reader accepts ``text``, else its message."""
    try:
        load(text, f"archive.{kind}", kind)
    except ArchiveError as error:
        return error.diagnostic.message
    return None


def one_verdict(text: str, kind: str) -> bool | None:
    """Whether ``text`` is a valid archive, to the schema and to the reader
    alike (the test fails if they differ); None if the text is outside the
    schema, and then the reader refuses it."""
    refusal = reader_verdict(text, kind)
    try:
        data = document_of(text, kind)
    except Outside as outside:
        assert refusal is not None or not outside.refused, f"the reader accepts {outside}"
        return None
    valid = VALIDATOR.is_valid(data)
    if not valid and refusal is None:
        error = next(VALIDATOR.iter_errors(data))
        raise AssertionError(
            f"the reader accepts what the schema refuses at {error.json_path}: {error.message}"
            f"\n{text[:2000]}"
        )
    assert refusal is None or not valid, (
        f"the reader refuses what the schema accepts: {refusal}\n{text[:2000]}"
    )
    return valid


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    def ignore_aliases(self, data: Any) -> bool:
        return True  # a value used twice is written twice, as JSON would


def yaml_text(doc: Any) -> str:
    return yaml.dump(doc, Dumper=_Dumper, allow_unicode=True)


# The fuzz corpus and the bad inputs -------------------------------------------

CORPUS = sorted(
    path
    for folder in (TESTS / "fuzz_corpus", TESTS / "bad")
    for path in folder.iterdir()
    if path.suffix in (".json", ".yaml", ".yml")
)


def _kind(path: Path) -> str:
    return "json" if path.suffix == ".json" else "yaml"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_schema_and_reader_agree_on_the_corpus(path: Path) -> None:
    one_verdict(path.read_text("utf-8"), _kind(path))


def test_most_of_the_corpus_is_within_the_schema() -> None:
    """The exclusions above are the few texts they name, not a way out."""
    within = [p for p in CORPUS if _within(p.read_text("utf-8"), _kind(p))]
    assert len(CORPUS) >= 30 and len(within) >= len(CORPUS) // 2, (len(within), len(CORPUS))


def _within(text: str, kind: str) -> bool:
    try:
        document_of(text, kind)
    except Outside:
        return False
    return True


# Single-field mutations of real archives --------------------------------------

# a record with every element, each optional field, and comments
EVERYTHING = """; before the tags
{a brace comment}
[Notation "1"] {on a tag}
[P1 "Anna"]
[P2 "Boris"]
[Result "unfinished"]
[hand "a tag named as a keyword"]

hand P1: LB BS SH HF FL ; on a hand
hand P2: L B S H F
pile: LBS BSH SHF {on the pile}

1. P1 +HFL HF A !? {on a play}
2. L A
#1 A P1 ; on a declared resolution
result unfinished P1:1 P2:0 {on the result line}
"""


def _archive() -> dict[str, Any]:
    """The archive of EVERYTHING, with the results of a finished game (every
    state resolved: markers, scores and a winner) and its own diagnostics."""
    archive = json.loads(convert(EVERYTHING, "e.ord", "ord", "json", with_results=True))
    finished = (SAMPLES / "later-capture-3.ord").read_text("utf-8")
    results = json.loads(convert(finished, "l.ord", "ord", "json", with_results=True))
    record = archive["records"][0]
    diagnostics = record["results"]["diagnostics"]  # EVERYTHING is an invalid game
    record["results"] = {**results["records"][0]["results"], "diagnostics": diagnostics}
    return archive


ARCHIVE = _archive()

# values for any field: of every JSON type, words of the notation (keywords,
# seats of 0 and 10 digits, glyphs), the characters .ord text cannot hold in
# a place (CR, LF, a brace), the largest numbers and one more, whole floats,
# and every kind of element where another is expected
VALUES: list[Any] = [
    *(None, True, False, 0, 1, -1, 6, 1.0, 1.5, 999_999_999, 1_000_000_000, 1e20, math.inf),
    *("", "1", "P0", "P123456789", "P1234567890", "P1\n", "HF", "H F", "Hand", "Tag_1"),
    *("hand", "pile", "result", "unfinished", "!", "?!", "!!!", "a}b", "a\rb", "a\nb", "a\n"),
    *("A", "E001", "X001", "error", "fatal"),
    *([], {}, [1, 2], ["P1", 2], ["P1", 2, 3], ["L", "hand"], {"P1": 2}),
    *({"brace": "x"}, {"line": "x"}, {"brace": "x", "line": "y"}, {"name": "Event", "value": "x"}),
    *({"ply": 1, "card": "HF", "state": "A"}, {"marker": 1, "state": "A", "seat": "P1"}),
    *({"result": "P1"}, {"hand": "P1", "cards": ["L"]}, {"pile": ["L"]}),
]
KEYS = [
    "schema_version",
    "records",
    "tags",
    "value",
    "hand",
    "cards",
    "pile",
    "ply",
    "seat",
    "card",
    "marker",
    "result",
    "comments",
    "brace",
    "line",
    "results",
    "winner",
    "colour",
]


# a field renamed, or added: as the key of another kind of element, or unknown
NEW_KEYS = ["ply", "marker", "result", "hand", "comments", "colour"]


def _places(node: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """The path of every value inside ``node``."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in items:
        yield (*path, key)
        if isinstance(value, dict | list):
            yield from _places(value, (*path, key))


def _role(doc: Any, path: tuple[str | int, ...]) -> tuple[str, ...]:
    """The field a place stands for: its path with each list index replaced by
    the fields of the item there (a play with a glyph, a declared resolution).
    Comments are one field wherever they are (the schema's ``comments``)."""
    role: list[str] = []
    for part in path:
        doc = doc[part]
        if part == "comments":
            role = []
        if isinstance(part, int):
            role.append("#" + ",".join(sorted(doc)) if isinstance(doc, dict) else "#")
        else:
            role.append(part)
    return tuple(role)


def _holder(doc: Any, path: tuple[str | int, ...]) -> Any:
    for part in path[:-1]:
        doc = doc[part]
    return doc


def mutations() -> Iterator[tuple[str, dict[str, Any]]]:
    """(what was done, document): at the first place of each field of the
    archive, every value of VALUES, the field removed, renamed, and a field
    added beside it."""
    seen: set[tuple[str, ...]] = set()
    for path in _places(ARCHIVE):
        role = _role(ARCHIVE, path)
        if role in seen:
            continue
        seen.add(role)
        for value in VALUES:
            doc = copy.deepcopy(ARCHIVE)
            _holder(doc, path)[path[-1]] = copy.deepcopy(value)
            yield f"{path} = {value!r}", doc
        doc = copy.deepcopy(ARCHIVE)
        del _holder(doc, path)[path[-1]]
        yield f"del {path}", doc
        if isinstance(_holder(ARCHIVE, path), dict):
            for key in NEW_KEYS:
                doc = copy.deepcopy(ARCHIVE)
                renamed = _holder(doc, path)
                renamed[key] = renamed.pop(path[-1])
                yield f"{path} renamed {key}", doc
                doc = copy.deepcopy(ARCHIVE)
                _holder(doc, path)[key] = 1
                yield f"{path[:-1]} + {key}: 1", doc


@cache
def _mutations() -> list[tuple[str, dict[str, Any]]]:
    return list(mutations())


def test_the_archive_mutated_is_valid_to_both() -> None:
    assert one_verdict(json.dumps(ARCHIVE), "json") is True


# the mutations in 32 tests (every 32nd each), for test runners with several
# workers; the fast loop runs the first
PARTS = 32


@pytest.mark.parametrize(
    "part", [0, *(pytest.param(part, marks=pytest.mark.slow) for part in range(1, PARTS))]
)
def test_schema_and_reader_agree_on_single_field_mutations(part: int) -> None:
    verdicts = []
    for i, (what, doc) in enumerate(_mutations()[part::PARTS]):
        try:
            verdicts.append(one_verdict(json.dumps(doc, ensure_ascii=False), "json"))
            if i % 10 == 0:  # the YAML reader on some: the same data, another way to it
                assert one_verdict(yaml_text(doc), "yaml") == verdicts[-1]
        except AssertionError as error:
            raise AssertionError(f"{what}: {error}") from None
    assert None not in verdicts  # JSON text of data is always within the schema
    assert verdicts.count(False) > len(verdicts) // 2  # most mutations break the archive


def test_the_mutations_reach_every_field_of_the_schema() -> None:
    """Every field the schema names is in an archive mutated above."""
    fields = set()
    stack: list[Any] = [SCHEMA]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            fields |= set(node.get("properties", {}))
            stack += node.values()
        elif isinstance(node, list):
            stack += node
    present = {part for path in _places(ARCHIVE) for part in path}
    assert fields <= present, fields - present


# Random mutations -------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 10**10)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(VALUES),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner),
    max_leaves=8,
)


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """An archive with one to three values replaced, removed or renamed."""
    doc = copy.deepcopy(ARCHIVE)
    for _ in range(draw(st.integers(1, 3))):
        places = list(_places(doc))
        if not places:
            break
        path = draw(st.sampled_from(places))
        holder = _holder(doc, path)
        op = draw(st.sampled_from(["value", "delete", "rename"]))
        if op == "value":
            holder[path[-1]] = copy.deepcopy(draw(json_values))  # VALUES stay as they are
        elif op == "delete":
            del holder[path[-1]]
        elif isinstance(holder, dict):
            holder[draw(st.sampled_from(KEYS))] = holder.pop(path[-1])
    return doc


@fuzz(300)
@given(mutated(), st.sampled_from(["json", "yaml"]))
def test_schema_and_reader_agree_on_random_mutations(doc: dict[str, Any], kind: str) -> None:
    text = json.dumps(doc) if kind == "json" else yaml_text(doc)
    assert one_verdict(text, kind) is not None


def test_a_document_nested_too_deep_is_refused_by_both() -> None:
    doc: Any = 1
    for _ in range(MAX_DEPTH + 1):
        doc = [doc]
    assert one_verdict(json.dumps({"schema_version": 1, "records": doc}), "json") is False


# The patterns are ECMA-262's ---------------------------------------------------

PROBES = [v for v in VALUES if isinstance(v, str)] + ["P12", "P1 ", "Hf", "a}", "\n", "x\n\n"]


def _patterns(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern":
                yield value
            else:
                yield from _patterns(value)
    elif isinstance(node, list):
        for item in node:
            yield from _patterns(item)


@pytest.mark.skipif(
    shutil.which("node") is None, reason="needs node for ECMA-262 regular expressions"
)
def test_every_pattern_means_the_same_in_ecma_262_as_in_python() -> None:
    import re

    patterns = sorted(set(_patterns(SCHEMA)))
    script = (
        "const [patterns, probes] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "console.log(JSON.stringify(patterns.map(p => ['', 'u'].map("
        "f => probes.map(s => new RegExp(p, f).test(s))))));"
    )
    found = subprocess.run(
        ["node", "-e", script],
        input=json.dumps([patterns, PROBES]),
        capture_output=True,
        text=True,
        check=True,
    )
    for pattern, by_flags in zip(patterns, json.loads(found.stdout), strict=True):
        python = [re.search(pattern, probe) is not None for probe in PROBES]
        for ecma in by_flags:
            assert ecma == python, (
                pattern,
                [p for p, a, b in zip(PROBES, ecma, python, strict=True) if a != b],
            )
