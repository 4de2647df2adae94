"""The mistakes people make writing an element by hand, recognised in its words.

When an element cannot be read, the grammar knows only which token it did
not expect, often one after the real mistake. This module looks at the
element's words as a person would — a play with no state, two plays on a
line, a player's name where the seat goes, ``p2`` for ``P2``, a seat and a
state swapped — and words the diagnostic at the mistake, with the line as it
should be written. It returns None for anything else, and the grammar's own
wording is used.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import NamedTuple

from ..diagnostics import Diagnostic, Span, quoted
from ..engine.cards import Icon, State, spells_a_card
from . import terminals as t
from .record import Word

PLAY_FORM = "every play is `N. CARD STATE` (a seat and a draw may come before the card)"

FORMS = {
    "tag": 'a tag is `[Name "value"]` on a line of its own',
    "hand": "a hand is `hand P1: CARD CARD CARD CARD CARD`",
    "pile": "the pile is `pile: CARD CARD ...`, its top card first",
    "play": PLAY_FORM + ", e.g. `9. S C`",
    "declared": "a declared resolution is `#MARKER STATE SEAT`, e.g. `#2 J P1`",
    "result": "the result line is `result P2` (the winner), `result unfinished` or `result shared`",
    "words": "each line starts an element: a tag, `hand`, `pile`, a numbered play, "
    "`#N STATE SEAT` or `result`",
}
"""How each element is written, for the help line of a syntax error."""

_SEAT = re.compile(f"(?:{t.SEAT})$")
_ANY_CASE_SEAT = re.compile(f"(?i:{t.SEAT})$")
_PLY = re.compile(f"(?:{t.PLY})$")
_NUMBER = re.compile(f"(?:{t.COUNT})$")
_LETTERS = re.compile(f"(?:{t.CARD})$")
_DRAW = re.compile(f"(?:{t.DRAW})$")
_GLYPH = re.compile(f"(?:{t.GLYPH})$")
_WORD = re.compile(r"\S+")
_JOINED = re.compile(f"([{''.join(icon.name for icon in Icon)}]+)[^A-Za-z]*({t.STATE})$")
"""A card and a state written as one word: ``HF-T``, ``HFT``."""
EXAMPLE_CARD, EXAMPLE_STATE = "S", "J"
"""The card and the state a help line's example gives when the record's own will not do."""


def _lower_seat_word(word: str) -> bool:
    """``p2`` for ``P2``."""
    return _ANY_CASE_SEAT.match(word) is not None and _SEAT.match(word) is None


def _tokens(code: str, line: int) -> list[Word]:
    return [Word(m.group(), line, m.start() + 1) for m in _WORD.finditer(code)]


class Where(NamedTuple):
    """What the diagnosis knows around the element: the file and record, the
    players' names by seat, and the number the next play should have."""

    source: str
    record: int
    names: Sequence[str]
    next_ply: int


def diagnose(kind: str, code: str, line: int, where: Where) -> Diagnostic | None:
    """The mistake in an element of ``kind`` whose first line, outside
    comments, is ``code`` (line ``line`` of the file); None when none of the
    usual mistakes explains it."""
    tokens = _tokens(code, line)
    if not tokens:
        return None
    found = _DIAGNOSES.get(kind, _nothing)(tokens, where)
    if found is None:
        return None
    code_, message, span, help = found
    return Diagnostic(code_, message, where.source, span, where.record, help=help)


_Found = tuple[str, str, Span, str]


def _nothing(tokens: list[Word], where: Where) -> _Found | None:
    return None


def _shown(token: Word | str) -> str:
    """A word as a message or an example shows it (a long one by its start and its length)."""
    return quoted(token if isinstance(token, str) else token.text, marks=False)


def _written(tokens: Sequence[Word | str]) -> str:
    return " ".join(_shown(token) for token in tokens)


def seat_meant(word: str, names: Sequence[str], close: bool = False) -> tuple[int, str] | None:
    """The seat index a word stands for, and why: a seat of the record written
    ``p2`` or ``P02``, or the full or first name of one of ``names`` (with
    ``close``, a name spelt a letter or two off too)."""
    if _ANY_CASE_SEAT.match(word) and 1 <= int(word[1:]) <= len(names):
        capital = word[0] == "p"
        return int(word[1:]) - 1, (
            "seats are written with a capital P" if capital else "a seat has no leading zero"
        )
    folded = word.strip().casefold()
    if not folded:
        return None
    for seat, name in enumerate(names):
        full = name.strip().casefold()
        if full and (folded == full or folded == full.split()[0]):
            return seat, f"{_shown(name.strip())} plays P{seat + 1}"
    if not close or len(word) < 3:
        return None
    firsts = {n.strip().split()[0].casefold(): seat for seat, n in enumerate(names) if n.strip()}
    near = difflib.get_close_matches(folded, list(firsts), n=1, cutoff=0.75)
    if not near:
        return None
    seat = firsts[near[0]]
    return seat, f"if {_shown(word)} is {_shown(names[seat].strip())}, they play P{seat + 1}"


def _play(tokens: list[Word], where: Where) -> _Found | None:
    number, rest = tokens[0], tokens[1:]
    if _NUMBER.match(number.text):
        fixed = _written([number.text + ".", *rest])
        return "E101", f"ply number {number.text} lacks its dot", number.span, f"write `{fixed}`"
    if not _PLY.match(number.text):
        return None
    ply = number.text
    words = list(rest)
    if words and not _SEAT.match(words[0].text):
        meant = seat_meant(words[0].text, where.names, close=True)
        if meant is not None and len(words) >= 3:
            seat = f"P{meant[0] + 1}"
            why = meant[1]
            fixed = _written([number, seat, *words[1:]])
            help = f"{why}: write `{fixed}`"
            mover = f"P{(int(ply[:-1]) - 1) % len(where.names) + 1}" if where.names else seat
            if mover != seat:
                help = f"{why}, but ply {ply[:-1]} is {mover}'s: check the name and the ply"
            return "E203", f"{_shown(words[0])} is not a seat", words[0].span, help
    if words and _SEAT.match(words[0].text):
        words = words[1:]
    if words and _DRAW.match(words[0].text):
        words = words[1:]
    if not words:
        return "E101", f"play {ply} has no card and no state", number.span, FORMS["play"]
    if len(words) == 1:
        return _one_word(tokens[:-1], words[0])
    card, state, *extra = words
    if _NUMBER.match(state.text) and 1 <= int(state.text) <= len(State):
        numbered = State(int(state.text))
        fixed = _written([*tokens[: -len(words)], card, numbered.name, *extra])
        return (
            "E202",
            f"{state.text} is not a state: states are written by letter or name",
            state.span,
            f"state {state.text} on the territory line is {numbered.full_name}: write `{fixed}`",
        )
    if extra and _GLYPH.match(extra[0].text):
        extra = extra[1:]
    if extra and extra[0].text[:1] in "!?":
        return (
            "E100",
            f"{_shown(extra[0])} is not a glyph",
            extra[0].span,
            "the glyphs are !! ?? !? ?! ! and ? (one of them, after the state)",
        )
    if len(extra) >= 1 and all(_LETTERS.match(w.text) for w in (card, state, *extra[:1])):
        if len(extra) >= 2 and _LETTERS.match(extra[1].text):
            following = int(ply[:-1]) + 1
            return (
                "E101",
                f"a second play on the line of play {ply}, without its own number",
                extra[0].span.to(extra[1].span),
                "write one play a line, each with its number: "
                f"`{_written([f'{following}.', *extra[:2]])}` on the next line",
            )
        help = FORMS["play"]
        if spells_a_card(card.text):
            fixed = _written([number, *tokens[1 : -len(words)], "+" + card.text, state, *extra])
            help = f"if {card.text} is the card drawn, write it `+{card.text}`: `{fixed}`"
        return (
            "E101",
            f"three words where a card and a state go: {_written([card, state, extra[0]])}",
            card.span,
            help,
        )
    return None


def _one_word(before: list[Word], word: Word) -> _Found:
    """A play of one word after its number (and seat and draw): a card
    without its state, a card and a state run together (``HF-T``), a state
    without its card, or neither. The example is the line with what it
    lacks, and the record's own card and state where they are ones."""
    ply = before[0].text
    joined = _JOINED.match(word.text)
    if joined and spells_a_card(joined[1]) and State.lookup(joined[2]):
        fixed = _written([*before, *joined.groups()])
        return (
            "E101",
            f"play {ply} writes its card and its state as one word, {_shown(word)}",
            word.span,
            f"write the card and the state apart: `{fixed}`",
        )
    if spells_a_card(word.text):
        said = f"gives the card {word.text} but no state"
        advice = (
            f"write the state after the card, e.g. `{_written([*before, word, EXAMPLE_STATE])}`"
        )
    elif State.lookup(word.text):
        said = f"gives the state {_shown(word)} but no card"
        advice = (
            f"write the card before the state, e.g. `{_written([*before, EXAMPLE_CARD, word])}`"
        )
    else:
        said = f"has no state, and {_shown(word)} is not a card"
        example = _written([*before, EXAMPLE_CARD, EXAMPLE_STATE])
        advice = f"write the card and the state it goes to, e.g. `{example}`"
    return "E101", f"play {ply} {said}", word.span, f"{PLAY_FORM}: {advice}"


def _tag(tokens: list[Word], where: Where) -> _Found | None:
    """A tag whose value is not in quotes: ``[Result P2]``."""
    if len(tokens) >= 2 and tokens[0].text.startswith("[") and not tokens[1].text.startswith('"'):
        name = tokens[0].text[1:] or None
        value = " ".join(w.text for w in tokens[1:]).rstrip("]").strip()
        if name and value:
            return (
                "E101",
                f"the value of the tag {_shown(name)} is not in double quotes",
                tokens[1].span,
                f'write [{_shown(name)} "{_shown(value)}"]',
            )
    return None


def _words(tokens: list[Word], where: Where) -> _Found | None:
    first = tokens[0]
    if first.text.lower() in t.KEYWORDS and first.text not in t.KEYWORDS:
        keyword = first.text.lower()
        return (
            "E101",
            f"{first.text} is written in lower case",
            first.span,
            f"write `{keyword}`: the words hand, pile and result are lower case",
        )
    if 2 <= len(tokens) <= 3 and all(_LETTERS.match(w.text) for w in tokens[:2]):
        fixed = _written([f"{where.next_ply}.", *tokens])
        return (
            "E101",
            "a play without its ply number",
            first.span,
            f"every play starts with its number: write `{fixed}`",
        )
    return None


def _declared(tokens: list[Word], where: Where) -> _Found | None:
    if len(tokens) < 3:
        return None
    marker, first, second = tokens[:3]
    if (_SEAT.match(first.text) or _lower_seat_word(first.text)) and _LETTERS.match(second.text):
        fixed = _written([marker, second, first.text.upper()])
        return (
            "E101",
            "the state comes before the seat",
            first.span.to(second.span),
            f"write `{fixed}` (marker, state, then the seat that won it)",
        )
    if _lower_seat_word(second.text):
        return _lower_seat(second, [marker, first, second.text.upper()])
    return None


def _hand(tokens: list[Word], where: Where) -> _Found | None:
    if len(tokens) < 2:
        return None
    seat = tokens[1]
    bare = seat.text.rstrip(":")
    if _lower_seat_word(bare):
        return _lower_seat(seat, [tokens[0], bare.upper() + ":", *tokens[2:]])
    if (
        _SEAT.match(bare)
        and not seat.text.endswith(":")
        and tokens[2:3] != []
        and (not tokens[2].text.startswith(":"))
    ):
        fixed = _written([tokens[0], seat.text + ":", *tokens[2:]])
        return "E101", "the hand's seat is not followed by ':'", seat.span, f"write `{fixed}`"
    if seat.text.startswith(":") or _LETTERS.match(seat.text):
        return (
            "E101",
            "a hand names its seat",
            tokens[0].span,
            f"write the seat after `hand`, e.g. `hand P1: {_written(tokens[1:]).lstrip(': ')}`",
        )
    return None


def _pile(tokens: list[Word], where: Where) -> _Found | None:
    if len(tokens) >= 2 and tokens[0].text == "pile" and not tokens[1].text.startswith(":"):
        fixed = _written(["pile:", *tokens[1:]])
        return "E101", "the pile's cards follow a ':'", tokens[0].span, f"write `{fixed}`"
    return None


def _result(tokens: list[Word], where: Where) -> _Found | None:
    if len(tokens) >= 2 and _lower_seat_word(tokens[1].text):
        return _lower_seat(tokens[1], [tokens[0], tokens[1].text.upper(), *tokens[2:]])
    scores = tokens[2:]
    if len(scores) >= 2 and _SEAT.match(scores[0].text) and _NUMBER.match(scores[1].text):
        pairs = [f"{a.text}:{b.text}" for a, b in zip(scores[::2], scores[1::2], strict=False)]
        return (
            "E101",
            "a score is written with a colon between the seat and the count",
            scores[0].span.to(scores[1].span),
            f"write `{_written([*tokens[:2], *pairs])}`",
        )
    return None


def _lower_seat(word: Word, fixed: Sequence[Word | str]) -> _Found:
    return (
        "E203",
        f"{_shown(word.text.rstrip(':'))} is not a seat: seats are written with a capital P",
        word.span,
        f"write `{_written(fixed)}`",
    )


_DIAGNOSES = {
    "tag": _tag,
    "play": _play,
    "words": _words,
    "declared": _declared,
    "hand": _hand,
    "pile": _pile,
    "result": _result,
}
