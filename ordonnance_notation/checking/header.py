"""The header read: the notation's version, the seats and their players'
names, the scoring rule, the Result tag (E204 to E208, W502, W503)."""

from __future__ import annotations

import itertools
import re

from ..diagnostics import Related, quoted
from ..engine.game import MAX_SEATS, MIN_SEATS
from ..engine.scoring import DEFAULT_POINTS, Scoring
from ..notation import terminals as t
from ..notation.record import Tag
from .advice import closest, tag_meant
from .meaning import Content
from .words import SEAT, declared_outcome, outcome_help

NOTATION_VERSION = "1"

_SEAT_TAG = re.compile(f"(?:{t.SEAT})$")
_POINTS = re.compile(t.COUNT)


def read_header(r: Content, header_broken: bool = False) -> None:
    tags: dict[str, Tag] = {}
    doubled_seat = False
    out_of_place = {d.span for d in r.diagnostics if d.code == "E209"}
    for tag in r.layout.tags:
        name = tag.name.text
        if name in tags and tag.span in out_of_place:
            continue  # a tag among the plays is reported once, as out of place
        if name in tags:
            first = tags[name].span
            free = next(
                (f"P{n}" for n in range(1, MAX_SEATS + 1) if f"P{n}" not in tags),
                None,
            )
            seat = SEAT.match(name) is not None and free is not None
            shown = quoted(name, marks=False)
            r.add(
                "E208",
                f"tag {shown} given twice (first at line {first.line})",
                tag.name.span,
                help=f"is this another player? name them [{free} ...]"
                if seat
                else f"keep one of the two [{shown} ...] tags",
                related=(Related(f"{shown} first given here", first),),
            )
            doubled_seat = doubled_seat or seat
        else:
            tags[name] = tag
    version = tags.get("Notation")
    if version is not None and version.value != NOTATION_VERSION:
        r.add(
            "E207",
            f"notation version {quoted(version.value)} is not supported "
            f"(this reader knows version {NOTATION_VERSION})",
            version.span,
            help=f'write [Notation "{NOTATION_VERSION}"], or leave the tag out',
        )
        return
    _read_seats(r, tags, header_broken or doubled_seat)
    _unknown_tags(r, tags)
    _read_scoring(r, tags)
    if r.seats is not None and (tags.get("Result") or not header_broken):
        _read_result_tag(r, tags.get("Result"))


def _read_seats(r: Content, tags: dict[str, Tag], header_broken: bool = False) -> None:
    seat_tags = {}
    for name, tag in tags.items():
        if not _SEAT_TAG.match(name):
            continue
        if not SEAT.match(name):
            r.add(
                "E204",
                f"{quoted(name, marks=False)} is not a seat: seats are named P1, P2, P3 and P4",
                tag.name.span,
                help="name the players in turn order, from P1 (who plays first) to P4",
            )
            return
        seat_tags[int(name[1:])] = tag
    numbers = sorted(seat_tags)
    count = len(numbers)
    if count < MIN_SEATS and header_broken:
        return  # the seats may be named in the tags that could not be read
    if count < MIN_SEATS:
        where = r.layout.tags[0].span if r.layout.tags else r.record.elements[0].span
        named = ", ".join(f"P{n}" for n in numbers) or "none"
        lower = [
            tag for name, tag in tags.items() if _SEAT_TAG.match(name.upper()) and name[0] == "p"
        ]
        help = 'name every player in the header, e.g. [P1 "Anna"] [P2 "Boris"]'
        if lower:
            where = lower[0].name.span
            seat = quoted(lower[0].name.text.upper(), marks=False)
            help = f"seat tags are written with a capital P: [{seat} ...]"
        elif not numbers and r.record.plays:
            help = "a tag line after plays starts a new record: move it up into its header"
        r.add(
            "E204",
            f'a record names at least two seats as [P1 "..."] [P2 "..."] (named: {named})',
            where,
            help=help,
        )
        return
    if count > MAX_SEATS:
        r.add(
            "E204",
            f"at most four seats play, but the header names {count}",
            seat_tags[numbers[MAX_SEATS]].span,
            help="Ordonnance is played by two to four players: name P1 to P4 at most",
        )
        return
    if numbers != list(range(1, count + 1)):
        missing = next(n for n in range(1, count + 1) if n not in seat_tags)
        extra = next(n for n in numbers if n > count)
        r.add(
            "E204",
            f"seats run P1 to P{count} with no gap: P{extra} is named but P{missing} is not",
            seat_tags[extra].span,
            help=f"rename the tag [P{extra} ...] to [P{missing} ...], in turn order",
        )
        return
    r.seats = count
    r.names = tuple(seat_tags[n].value for n in numbers)
    for n in numbers:
        if not seat_tags[n].value.strip():
            r.add("W502", f"P{n} has no name", seat_tags[n].span, help=f'write [P{n} "Name"]')


def tag_never_warned(name: str) -> bool:
    """Whether no record is warned (W503) for a tag called ``name``, whatever
    its other tags: a known tag, a name unlike any, or a seat's."""
    if name[0] == "p" and _SEAT_TAG.match(name.upper()):
        return True
    meant = tag_meant(name)
    return meant is None or _SEAT_TAG.match(meant) is not None


def _unknown_tags(r: Content, tags: dict[str, Tag]) -> None:
    """W503 for a tag whose name is a misspelling of a known tag the record lacks."""
    for name, tag in tags.items():
        if tag_never_warned(name):
            continue
        meant = tag_meant(name)
        if meant not in tags:
            shown = quoted(name, marks=False)
            r.add(
                "W503",
                f"{shown} is not a tag this tool knows, and there is no {meant} tag",
                tag.name.span,
                help=f"did you mean [{meant} ...]? tag names are case-sensitive",
            )


def _read_scoring(r: Content, tags: dict[str, Tag]) -> None:
    scoring_tag, points_tag = tags.get("Scoring"), tags.get("Points")
    if scoring_tag is None:
        kind = "classic"
    else:
        kind = scoring_tag.value.strip().lower()
        if kind not in ("classic", "points"):
            meant = closest(kind, ("classic", "points"), cutoff=0.6)
            r.add(
                "E205",
                f"Scoring is 'classic' or 'points', not {quoted(scoring_tag.value)}",
                scoring_tag.span,
                help=f'did you mean [Scoring "{meant}"]?'
                if meant
                else 'write [Scoring "classic"] (most states wins) or [Scoring "points"]',
            )
            r.scoring_ok = False
            return
    if kind == "classic":
        if points_tag is not None:
            r.add(
                "E205",
                'a Points table needs [Scoring "points"]',
                points_tag.span,
                help='add [Scoring "points"] to the header, or remove the Points tag',
            )
            r.scoring_ok = False
        r.scoring = Scoring.classic()
        return
    if points_tag is None:
        r.scoring = Scoring.by_points(DEFAULT_POINTS)
        return
    try:
        table = points_table(points_tag.value)
    except ValueError as error:
        r.add(
            "E205",
            f"Points {error}: {quoted(points_tag.value)}",
            points_tag.span,
            help='give the points of the strongest army first, e.g. [Points "3 2 1 0"]',
        )
        r.scoring_ok = False
        return
    r.scoring = Scoring.by_points(table)


def points_table(text: str) -> tuple[int, ...]:
    """``"3 1 0"`` -> (3, 1, 0). Raises ValueError saying what is wrong (D1)."""
    words = text.split()
    if not words or len(words) > MAX_SEATS or not all(_POINTS.fullmatch(w) for w in words):
        raise ValueError('is one to four whole numbers, by rank, like "3 2 1 0"')
    table = tuple(int(w) for w in words)
    if any(a < b for a, b in itertools.pairwise(table)):
        raise ValueError("must not give a weaker army more than a stronger one")
    return table


def _read_result_tag(r: Content, tag: Tag | None) -> None:
    assert r.seats is not None
    if tag is None:
        where = r.layout.tags[0].span if r.layout.tags else r.record.elements[0].span
        meant = next(
            (t for t in r.layout.tags if closest(t.name.text, ("Result",), cutoff=0.75)), None
        )
        if meant is not None:
            r.add(
                "E206",
                f"no [Result] tag: {meant.name.text} is not Result",
                meant.name.span,
                help="tag names are case-sensitive: "
                f'write [Result "{quoted(meant.value, marks=False)}"]',
            )
            return
        r.add(
            "E206",
            'no [Result "..."] tag: declare the winner\'s seat, "unfinished" or "shared"',
            where,
            help='add [Result "P1"] (the winner\'s seat), [Result "unfinished"] or '
            '[Result "shared"] to the header',
        )
        return
    outcome = declared_outcome(tag.value, r.seats)
    if outcome is None:
        r.add(
            "E206",
            f'Result is a seat from P1 to P{r.seats}, "unfinished" or "shared"; '
            f"not {quoted(tag.value)}",
            tag.span,
            help=outcome_help(tag.value, r.names, tag=True),
        )
        return
    r.result_tag = (outcome, tag)
