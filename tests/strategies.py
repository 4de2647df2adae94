"""What the tests share besides fixtures: paths, example counts, small
builders and Hypothesis strategies.

Test modules import from here and from nothing else in tests/ (fixtures come
from conftest.py); no test module imports another.

Example counts are written as they are in the ``default`` Hypothesis profile
and scale with the profile loaded (conftest.py registers ``fast`` and
``deep``): ``examples(500)`` is 500 by default, a fifth as many in ``fast``
and ten times as many in ``deep``.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import TypeVar

import pytest
import yaml
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ordonnance_notation.archives.conversion import convert
from ordonnance_notation.checking import quick
from ordonnance_notation.diagnostics import OrdoError
from ordonnance_notation.engine.armies import Army, Unit
from ordonnance_notation.engine.cards import Card
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import game_text, play_game

ROOT = Path(__file__).resolve().parent.parent  # the checkout
SAMPLES = ROOT / "samples"
TESTS = ROOT / "tests"
T = TypeVar("T")

# Example counts ---------------------------------------------------------------

# max_examples of the default profile (Hypothesis's own default): the counts
# given to examples() and fuzz() are relative to it
DEFAULT_EXAMPLES = 100


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (Linux's /proc: a zombie has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # only its exit status is left to collect


def examples(count: int) -> int:
    """``count`` in the default profile, scaled to the loaded profile's
    max_examples. Call it when the tests are collected (in a decorator or
    at module level), after the plugin has loaded the profile."""
    return max(1, round(count * settings.default.max_examples / DEFAULT_EXAMPLES))


def deep() -> bool:
    """Whether the loaded profile has more examples than the default
    (``deep``): volume (100,000 generated records, every one-word mutant) is
    a deep run's, not CI's (bench/README.md)."""
    return settings.default.max_examples > DEFAULT_EXAMPLES


def sampled(items: list[T], stride: int) -> list[T]:
    """Every ``stride``-th of ``items`` (a stride prime to the kinds of change
    a list of mutants cycles through, so each kind is still met), or all of
    them in a deep run."""
    return items if deep() else items[::stride]


def fuzz(count: int) -> settings:
    """Hypothesis settings for a fuzz test: ``examples(count)`` examples, no
    deadline, and no health check on slow or large inputs (they are the point)."""
    return settings(
        max_examples=examples(count),
        deadline=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


# Builders ---------------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    """``cards("HF S L")`` -> three cards."""
    return tuple(Card.from_letters(word) for word in text.split())


def army(seat: int, text: str, plies: tuple[int, ...] | None = None) -> Army:
    """An army of ``seat`` from card letters; plies default to 1, 2, 3, 4."""
    played = cards(text)
    plies = plies or tuple(range(1, len(played) + 1))
    return Army(seat, tuple(Unit(card, ply) for card, ply in zip(played, plies, strict=False)))


# Annotations ------------------------------------------------------------------
#
# Comments, glyphs and unknown tags added to a valid record: it must read,
# format and convert alike.

COMMENT_TEXT = st.text(
    st.characters(blacklist_characters="{}\n\r", blacklist_categories=("Cs", "Cc")), max_size=30
)
COMMENT = st.tuples(st.booleans(), COMMENT_TEXT).map(
    lambda c: f"{{{c[1]}}}" if c[0] else f"; {c[1]}\n"
)
TAG_VALUE = st.text(
    st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs", "Cc")), max_size=20
)
TAG = st.tuples(st.from_regex(r"[A-Z][a-z]{1,8}", fullmatch=True), TAG_VALUE).filter(
    lambda t: (
        t[0]
        not in {
            "Notation",
            "Event",
            "Round",
            "Result",
            "Scoring",
            "Points",
            "Seed",
            "Deck",
            "Generator",
        }
    )
)


def decorate(text, data):
    """Comments after random lines, glyphs on random plays, unknown tags in the header."""
    lines = text.split("\n")
    out = []
    tags = data.draw(st.lists(TAG, max_size=3, unique_by=lambda t: t[0]))
    for name, value in tags:
        out.append(
            f'[{name} "{value.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'
        )
    for original in lines:
        line = original
        if line[:1].isdigit() and data.draw(st.integers(0, 9)) == 0:
            line += " " + data.draw(st.sampled_from(["!", "?", "!!", "??", "!?", "?!"]))
        in_deal = line.startswith(("hand", "pile", " "))  # a comment would end a hand or pile early
        if line and not in_deal and data.draw(st.integers(0, 7)) == 0:
            comment = data.draw(COMMENT)
            line += " " + comment.rstrip("\n")
            if comment.endswith("\n"):
                line += "\n"
        out.append(line.rstrip("\n") if not line.endswith("\n") else line[:-1])
    return "\n".join(out)


# Fuzz inputs --------------------------------------------------------------------
#
# Random text weighted towards the notation's alphabet, random bytes, random
# YAML and JSON documents, and mutations of valid records (self-played games
# and the samples) and of their archives.

WORDS = [
    "[",
    "]",
    '"',
    "{",
    "}",
    ";",
    "#",
    "+",
    ":",
    ".",
    "!",
    "?",
    "!?",
    "?!",
    "!!",
    "??",
    "\\",
    '\\"',
    "\n",
    "\n",
    "\n",
    " ",
    " ",
    " ",
    "\t",
    "\r",
    "\r\n",
    "L",
    "B",
    "S",
    "H",
    "F",
    "A",
    "C",
    "J",
    "E",
    "T",
    "HF",
    "LBSHF",
    "FF",
    "X",
    "hf",
    "P",
    "P0",
    "P1",
    "P2",
    "P3",
    "P4",
    "P5",
    "P10",
    "0",
    "1",
    "2",
    "7",
    "9",
    "40",
    "41",
    "80",
    "01",
    "1.",
    "2.",
    "3.",
    "40.",
    "0.",
    "#1",
    "#5",
    "#0",
    "#6",
    "hand",
    "pile",
    "result",
    "unfinished",
    "shared",
    "Antioch",
    "Cyprus",
    "Jerusalem",
    "Edessa",
    "Tripoli",
    "Notation",
    "Event",
    "Result",
    "Scoring",
    "Points",
    "classic",
    "points",
    '[P1 "Anna"]',
    '[P2 "Boris"]',
    '[P3 ""]',
    '[Result "P1"]',
    '[Result "unfinished"]',
    '[Notation "2"]',
    '[Scoring "points"]',
    '[Points "3 1 0"]',
    '[Points "1 2"]',
    "hand P1:",
    "pile:",
    "result P1 P1:3 P2:2",
    "#1 A P1",
    "1. HF A",
    "2. P2 +L L A !?",
    "{a comment}",
    "; a line comment\n",
]
ALPHABET = '[]"{};#+:.!?\\LBSHFACJETP0123456789 \n\t\rhandpileresultunfishd'
NUMBERS = ["0", "00", "1", "4294967296", "9" * 25, "9" * 5000]

notation_text = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(alphabet=ALPHABET, max_size=4), st.text(max_size=2)),
    max_size=80,
).map("".join)


@cache
def deck():
    return load_deck()


@cache
def self_played(seed: int, seats: int, bots: str) -> str:
    return game_text(play_game(f"fuzz/{seed}", [bots] * seats, deck()))


@cache
def samples() -> tuple[str, ...]:
    return tuple(p.read_text("utf-8") for p in sorted(SAMPLES.glob("*.ord")))


valid_record = st.one_of(
    st.builds(
        self_played, st.integers(0, 7), st.integers(2, 4), st.sampled_from(["random", "greedy"])
    ),
    st.integers(0, 50).map(lambda i: samples()[i % len(samples())] if samples() else ""),
)
valid_records = st.lists(valid_record, min_size=1, max_size=3).map("\n".join)

_TOKENS = re.compile(r"\s+|[^\s]+")
OPERATIONS = [
    "delete",
    "duplicate",
    "swap",
    "replace",
    "borrow",
    "insert",
    "char",
    "number",
    "truncate",
    "lines",
    "tag",
    "kind",
    "kind",
    "kind",
    "draw",
    "extend",
]
# Words of one kind, replaced by another of the same kind: the record stays
# well formed, so the rules and results checks (E3xx, E4xx) are reached.
KINDS = [
    (re.compile(r"P[1-4]\Z"), ["P1", "P2", "P3", "P4", "P5"]),
    (re.compile(r"[LBSHF]{1,5}\Z"), ["L", "B", "S", "H", "F", "HF", "LH", "BSF", "LBSHF"]),
    (re.compile(r"[ACJET]\Z"), ["A", "C", "J", "E", "T"]),
    (re.compile(r"#[0-9]\Z"), ["#1", "#2", "#3", "#4", "#5", "#6"]),
    (re.compile(r"[0-9]+\.\Z"), ["1.", "2.", "20.", "40.", "41.", "60.", "80."]),
    (re.compile(r"P[1-4]:[0-9]+\Z"), ["P1:0", "P1:3", "P2:2", "P2:5", "P3:1"]),
]
YAML_TAGS = [
    "!!bool",
    "!!int",
    "!!float",
    "!!str",
    "!!timestamp",
    "!!binary",
    "!!null",
    "!!set",
    "!!seq",
    "!!map",
    "!x",
]


@st.composite
def mutations(draw, base=valid_record, words=WORDS):
    """A valid text with a few tokens deleted, duplicated, swapped, replaced
    (by one of ``words`` or another token of the same text), inserted or
    given a YAML tag, a character changed, a number blown up, lines deleted,
    duplicated or swapped, or the text cut short."""
    tokens = _TOKENS.findall(draw(base))
    for _ in range(draw(st.integers(1, 5))):
        if not tokens:
            break
        op = draw(st.sampled_from(OPERATIONS))
        i = draw(st.integers(0, len(tokens) - 1))
        if op == "lines":
            lines = "".join(tokens).split("\n")
            i, j = (draw(st.integers(0, len(lines) - 1)) for _ in range(2))
            how = draw(st.sampled_from(["delete", "duplicate", "swap"]))
            if how == "delete":
                del lines[i]
            elif how == "duplicate":
                lines[i:i] = lines[min(i, j) : max(i, j) + 1]
            else:
                lines[i], lines[j] = lines[j], lines[i]
            tokens = _TOKENS.findall("\n".join(lines))
        elif op == "kind":
            pattern, values = draw(st.sampled_from(KINDS))
            found = [k for k, token in enumerate(tokens) if pattern.match(token)]
            if found:
                tokens[draw(st.sampled_from(found))] = draw(st.sampled_from(values))
        elif op == "draw":  # a written draw after a ply number: checked against the pile
            found = [k for k, token in enumerate(tokens) if KINDS[4][0].match(token)]
            if found:
                k = draw(st.sampled_from(found))
                tokens[k] += " +" + draw(st.sampled_from(KINDS[1][1]))
        elif (
            op == "extend"
        ):  # plays numbered on from the last one: after the end of a finished game
            # (a number of thousands of digits, from the "number" operation, is no
            # ply to count on from)
            plies = [
                int(token[:-1]) for token in tokens if KINDS[4][0].match(token) and len(token) <= 10
            ]
            last = max(plies, default=0)
            extra = " ".join(
                f"{last + n}. {draw(st.sampled_from(KINDS[1][1]))} {draw(st.sampled_from('ACJET'))}"
                for n in range(1, draw(st.integers(1, 3)) + 1)
            )
            ends = [k for k, token in enumerate(tokens) if token == "result"]
            at = ends[-1] if ends else len(tokens)
            tokens[at:at] = [extra, "\n"]
        elif op == "tag":  # a YAML tag before a value (for archives; in .ord, one more bad word)
            tokens[i] = f"{draw(st.sampled_from(YAML_TAGS))} {tokens[i]}"
        elif op == "borrow":
            tokens[i] = tokens[draw(st.integers(0, len(tokens) - 1))]
        elif op == "delete":
            del tokens[i]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        elif op == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == "replace":
            tokens[i] = draw(st.sampled_from(words))
        elif op == "insert":
            tokens.insert(
                i, draw(st.sampled_from(["{}", "{} ", " {}"])).format(draw(st.sampled_from(words)))
            )
        elif op == "char":
            k = draw(st.integers(0, max(0, len(tokens[i]) - 1)))
            tokens[i] = (
                tokens[i][:k]
                + draw(st.one_of(st.sampled_from(ALPHABET), st.characters()))
                + tokens[i][k + 1 :]
            )
        elif op == "number":
            tokens[i] = re.sub(r"[0-9]+", draw(st.sampled_from(NUMBERS)), tokens[i], count=1)
        else:
            text = "".join(tokens)
            tokens = [text[: draw(st.integers(0, len(text)))]]
    return "".join(tokens)


any_text = st.one_of(notation_text, st.text(max_size=120), mutations(), mutations(valid_records))


def _archive(text: str, kind: str) -> str:
    try:
        return convert(text, "fuzz.ord", "ord", kind)
    except OrdoError:
        return ""


# What YAML and JSON texts are made of, and words that are keywords in .ord
ARCHIVE_WORDS = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    ": ",
    "- ",
    "? ",
    "'",
    '"',
    "\\",
    "|",
    ">",
    "#",
    "~",
    "\n",
    "\n  ",
    "  ",
    "\t",
    "---",
    "...",
    "&a",
    "*a",
    "<<:",
    "!!bool",
    "!!int",
    "!!float",
    "!!str",
    "!!timestamp",
    "!!binary",
    "!!null",
    "!!set",
    "!!omap",
    "!!python/object:os.system",
    "!local",
    "%YAML 1.1",
    "null",
    "true",
    "yes",
    "1e400",
    ".nan",
    "-.inf",
    "0x1F",
    "0o17",
    "1_000",
    "2026-11-20",
    "2026-13-01",
    "-",
    "+",
    '""',
    "''",
    "-1",
    "0",
    "1000000000",
    "hand",
    "pile",
    "result",
    "unfinished",
    "shared",
    "P0",
    "P1",
    "P5",
    "HF",
    "XX",
    "!?",
    "!!!",
    "{brace: x}",
    "{line: x}",
    '"a}b"',
    '"a\\nb"',
    '"\\r"',
    "schema_version",
    "records",
    "tags",
    "body",
    "deal",
    "ply",
    "marker",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYS = [
    "schema_version",
    "records",
    "tags",
    "name",
    "value",
    "deal",
    "hand",
    "cards",
    "pile",
    "body",
    "ply",
    "seat",
    "drawn",
    "card",
    "state",
    "glyph",
    "marker",
    "result",
    "scores",
    "comments",
    "brace",
    "line",
    "results",
]


@st.composite
def mutated_documents(draw):
    """A valid archive (as data) with one value somewhere replaced, removed or renamed."""
    doc = json.loads(_archive(draw(valid_record), "json") or '{"schema_version": 1, "records": []}')
    for _ in range(draw(st.integers(1, 3))):
        holders = []
        stack = [doc]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                holders += [(node, key) for key in node]
                stack += node.values()
            elif isinstance(node, list):
                holders += [(node, i) for i in range(len(node))]
                stack += node
        if not holders:
            break
        holder, key = draw(st.sampled_from(holders))
        op = draw(st.sampled_from(["value", "delete", "rename", "number"]))
        if op == "value":
            holder[key] = draw(st.one_of(json_values, st.sampled_from(WORDS + ARCHIVE_WORDS)))
        elif op == "delete":
            del holder[key]
        elif op == "rename" and isinstance(holder, dict):
            holder[draw(st.sampled_from(KEYS))] = holder.pop(key)
        else:
            holder[key] = draw(st.sampled_from([-1, 0, 2, 10**30, True, 1.5, "1", None]))
    return doc


@st.composite
def archive_texts(draw):
    """(text, kind): random text, random documents, mutated archives and their text."""
    kind = draw(st.sampled_from(["yaml", "json"]))
    source = draw(st.sampled_from(["text", "document", "mutated document", "mutated text"]))
    if source == "text":
        return draw(any_text), kind
    if source == "mutated text":
        base = st.builds(_archive, valid_record, st.just(kind))
        return draw(mutations(base, ARCHIVE_WORDS + WORDS)), kind
    doc = draw(json_values if source == "document" else mutated_documents())
    if kind == "json":
        return json.dumps(doc, ensure_ascii=draw(st.booleans())), kind
    return yaml.safe_dump(
        doc, default_flow_style=draw(st.sampled_from([None, True, False])), allow_unicode=True
    ), kind


@st.composite
def file_bytes(draw):
    """What a file may hold: text in some encoding and line endings, or random bytes."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe"])) + draw(
            st.binary(max_size=300)
        )
    text = draw(any_text)
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = text.replace("\n", ending)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    return text.encode(encoding, "replace")


needs_core = pytest.mark.skipif(
    not quick.compiled_core(), reason="no compiled core here: pip install . with a C compiler"
)
"""A test of a compiled path against the Python path: where the core was built."""
