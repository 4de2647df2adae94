"""archives/layout.py, the fast path of YAML archives, against libyaml: what
it writes is what the emitter writes, what it reads is what the loader reads,
and what it is not sure of it declines."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from strategies import decorate, fuzz, samples, self_played

from ordonnance_notation.archives import document, layout
from ordonnance_notation.archives.conversion import convert

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

TRICKY = [
    "1", "0o17", "1e3", "0x1F", "1_000", "012", "-1", "+1", ".5", ".inf", "1.5", "2026-11-20",
    "yes", "no", "on", "off", "y", "null", "~", "true", "True", "", " ", " a", "a ", "a: b",
    "a:b", "a #b", "a#b", "- a", "-", "--", "?!", "??", "!?", "!", "?", ":", "'", "''", "Marc's",
    "a, b", "[x]", "{x}", "x\ny", "x\n\ny", "é", "日本語", "a\u2028b", "a\u0085b", "\t", "a\tb",
    "@a", "%a", "&a", "*a", "|", ">", "<<", "=", "http://x", "\ufeffa", "a\x00b", '"q"',
    "P1", "LBSHF", "Jerusalem", "x" * 120, " ".join(["word"] * 40), "'" * 30 + " x" * 40,
]  # fmt: skip
SCALARS = st.one_of(
    st.sampled_from(TRICKY),
    st.text(max_size=40),
    st.text(alphabet="ab ':,#-?!{}[]\"\\\n", max_size=30),
    st.integers(-(10**6), 10**6),
    st.booleans(),
    st.none(),
)
KEYS = st.one_of(st.sampled_from(["ply", "card", "state", "comments", "P1", "1", "yes"]), SCALARS)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=40,
)
RECORDS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=6)


def _read_by_libyaml(text: str):
    return yaml.load(text, Loader=_LOADER)


@fuzz(150)
@given(RECORDS)
def test_what_layout_writes_is_what_libyamls_emitter_writes(record):
    written = layout.yaml_text(record)
    if written is not None:
        assert written == document._emitted(record)


@fuzz(150)
@given(RECORDS)
def test_what_layout_reads_is_what_libyaml_reads(record):
    text = document._emitted(record)
    read = layout.yaml_value(text.rstrip("\n").split("\n"))
    if read is not None:
        assert [read] == _read_by_libyaml(text)


@fuzz(150)
@given(st.data())
def test_a_damaged_record_is_read_as_libyaml_reads_it_or_declined(data):
    record = json.loads(convert(samples()[data.draw(st.integers(0, 5))], "t", "ord", "json"))
    text = document._emitted(record["records"][0])
    at = data.draw(st.integers(0, len(text) - 2))
    damage = data.draw(st.sampled_from(list(" -:,'\"[]{}#!?&*\n") + ["", "  ", "x", "é"]))
    damaged = text[:at] + damage + text[at + data.draw(st.integers(0, 2)) :]
    read = layout.yaml_value(damaged.rstrip("\n").split("\n"))
    if read is None:
        return
    try:
        loaded = _read_by_libyaml(damaged)
    except yaml.YAMLError:
        pytest.fail(f"layout read text libyaml refuses: {damaged!r}")
    assert loaded == [read]


def test_the_samples_are_never_declined():
    for source in samples():
        for record in json.loads(convert(source, "t", "ord", "json"))["records"]:
            written = layout.yaml_text(record)
            assert written is not None
            assert layout.yaml_value(written.rstrip("\n").split("\n")) == record


@fuzz(20)
@given(st.integers(0, 7), st.integers(2, 4), st.data())
def test_decorated_records_are_declined_only_for_escapes(seed, seats, data):
    """Self-played records with comments, glyphs and unknown tags: the fast
    path writes and reads every one but those holding a double-quoted scalar
    (a character YAML writes as an escape)."""
    text = decorate(self_played(seed, seats, "random"), data)
    for record in json.loads(convert(text, "t", "ord", "json"))["records"]:
        written = layout.yaml_text(record)
        if written is None:  # a long one, past the width: libyaml may fold it
            assert '"' in document._emitted(record)
            continue
        read = layout.yaml_value(written.rstrip("\n").split("\n"))
        assert read == record or (read is None and '"' in written)


@fuzz(150)
@given(st.lists(st.one_of(st.sampled_from(TRICKY), st.text(max_size=20)), min_size=1, max_size=8))
def test_a_yaml_1_2_reader_reads_an_archive_as_pyyaml_does(words):
    """Words YAML 1.2 reads as numbers, true, false or null (``0o17``, ``1e3``)
    are quoted as those YAML 1.1 reads so: ruamel.yaml, a YAML 1.2 reader,
    reads the archive as PyYAML does."""
    from ruamel.yaml import YAML

    record = {
        "tags": [{"name": "Site", "value": w} for w in words],
        "comments": [{"line": w} for w in words],
    }
    text = document.YAML_HEAD + document.yaml_record(record)
    loaded = YAML(typ="safe", pure=True).load(text)
    assert loaded == _read_by_libyaml(text) == {"schema_version": 1, "records": [record]}


def test_a_line_read_again_is_a_new_value():
    """Lines read before are remembered by their text: what is given out is a
    copy, so a caller that changes a record changes no other."""
    lines = ["- body:", "  - {ply: 1, card: BS, state: T}", "  - {ply: 1, card: BS, state: T}"]
    first = layout.yaml_value(lines)
    assert first == {"body": [{"ply": 1, "card": "BS", "state": "T"}] * 2}
    first["body"][0]["card"] = "changed"
    assert layout.yaml_value(lines) == {"body": [{"ply": 1, "card": "BS", "state": "T"}] * 2}


@pytest.mark.parametrize("length", [128, 129])
def test_a_long_key_is_written_as_libyaml_writes_it_or_declined(length):
    record = {"k" * length: "v", "plays": []}
    written = layout.yaml_text(record)
    assert written is None or written == document._emitted(record)
    assert (written is None) == (length > 128)


WORDS = st.text(st.sampled_from("aZy NnoTf1.0-_/:#'\"e\u00e9"), min_size=1, max_size=8)


@fuzz(300)
@given(WORDS, st.booleans())
def test_a_word_spelt_without_asking_libyaml_is_spelt_as_it_spells_it(word, flow):
    """``layout._surely``: the words the writer spells without asking the
    emitter (plain words, whole numbers quoted) are spelt as it spells them."""
    surely = layout._surely(word)
    if surely is not None:
        assert surely == layout._emitted(word, flow)


ITEMS = st.dictionaries(
    st.sampled_from(["name", "value", "ply", "seat", "card", "hand", "cards", "pile"]),
    st.one_of(
        WORDS,
        st.integers(-5, 500),
        st.lists(st.one_of(WORDS, st.integers(0, 9)), max_size=60),
    ),
    min_size=1,
    max_size=4,
)


@fuzz(300)
@given(ITEMS)
def test_an_item_of_words_is_laid_out_as_the_general_layout_lays_it_out(item):
    """``layout._words_item`` (a tag, a play, a hand, the pile: laid out
    without ``_Lines``) writes what the general layout writes, and what
    libyaml's emitter writes."""
    fast = layout._words_item(item)
    if fast is None:
        return
    general = layout._Lines()
    general.line = "  - "
    if layout._is_flow(item):
        general.value(item, 2)
    else:
        general.mapping(item, 4, True)
    assert fast == "\n".join([*general.done, general.line])
    assert fast + "\n" == document._emitted({"x": [item]}).split("\n", 1)[1]  # under "- x:"
