"""Armies, their formations, and how two armies compare when a state resolves.

Order of comparison (rules.md, "Resolving a state"): regiments (count, then
seniority from the most senior down), then battalions, then companies, then
the earlier fourth card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from .cards import ICONS_BY_SENIORITY, Card, Icon, seat_name

UNITS_PER_ARMY = 4

FormationsKey = tuple[int | tuple[int, ...], ...]
"""By level, most senior first: how many formations, then their icons by seniority."""


class Level(Enum):
    """A formation level: how many cards of an army carry one icon."""

    REGIMENT = 4
    BATTALION = 3
    COMPANY = 2

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def plural(self) -> str:
        return "companies" if self is Level.COMPANY else self.word + "s"


LEVELS = (Level.REGIMENT, Level.BATTALION, Level.COMPANY)


class Unit(NamedTuple):
    """A card played into a state, with the ply that played it (plies count from 1)."""

    card: Card
    ply: int


@dataclass(frozen=True, slots=True)
class Formations:
    """The icons an army holds at each level, most senior first."""

    regiments: tuple[Icon, ...] = ()
    battalions: tuple[Icon, ...] = ()
    companies: tuple[Icon, ...] = ()
    key: FormationsKey = field(
        init=False, repr=False, compare=False
    )  # greater key, stronger army (before the fourth card)

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Formations:
        if len(cards) > _MAX_PACKED:
            return cls._count([sum(card.mask >> icon & 1 for card in cards) for icon in Icon])
        return formations_of(sum([PACKED[card.mask] for card in cards]))

    @classmethod
    def _count(cls, counts: Sequence[int]) -> Formations:
        """From how many cards carry each icon, by icon."""
        by_level: dict[int, list[Icon]] = {4: [], 3: [], 2: []}
        for icon in ICONS_BY_SENIORITY:
            if counts[icon] >= 2:
                by_level[min(counts[icon], 4)].append(icon)
        return cls(tuple(by_level[4]), tuple(by_level[3]), tuple(by_level[2]))

    def at(self, level: Level) -> tuple[Icon, ...]:
        if level is Level.REGIMENT:
            return self.regiments
        if level is Level.BATTALION:
            return self.battalions
        return self.companies

    def __post_init__(self) -> None:
        key = tuple(
            part
            for level in LEVELS
            for part in (len(self.at(level)), tuple(map(int, self.at(level))))
        )
        object.__setattr__(self, "key", key)  # frozen: set once, here

    def describe(self) -> str:
        """``"regiment F, battalion H"``; ``"no formation"`` for an army without one."""
        said = _DESCRIBED.get(self)
        if said is None:
            parts = [f"{level.word} {icon.name}" for level in LEVELS for icon in self.at(level)]
            said = _DESCRIBED[self] = ", ".join(parts) or "no formation"
        return said


_DESCRIBED: dict[Formations, str] = {}  # a few thousand formations at most


@dataclass(frozen=True, slots=True)
class Army:
    """One seat's units in one state, in the order they were played."""

    seat: int
    units: tuple[Unit, ...] = ()

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(unit.card for unit in self.units)

    @property
    def full(self) -> bool:
        return len(self.units) >= UNITS_PER_ARMY

    @property
    def fourth_ply(self) -> int | None:
        return self.units[3].ply if len(self.units) >= UNITS_PER_ARMY else None

    @property
    def formations(self) -> Formations:
        units = self.units
        if len(units) > _MAX_PACKED:
            return Formations.of(self.cards)
        return formations_of(sum([PACKED[unit.card.mask] for unit in units]))

    def strength(self) -> tuple[FormationsKey, int]:
        """Sort key, greater is stronger. An earlier fourth card breaks a full tie;
        an army still short of four cards counts as if its fourth came last."""
        units = self.units
        fourth = units[3].ply if len(units) >= UNITS_PER_ARMY else 1 << 30
        formations = None
        if len(units) <= _MAX_PACKED:  # the formations of these counts, if met before
            formations = _FORMATIONS.get(sum([PACKED[unit.card.mask] for unit in units]))
        if formations is None:
            formations = self.formations
        return (formations.key, -fourth)

    def with_unit(self, unit: Unit) -> Army:
        return Army(self.seat, self.units + (unit,))


# An army's icon counts packed in one number, three bits an icon: the sum of
# its cards' PACKED values (by card mask). Formations depend on the counts
# alone, so there are at most a few thousand to cache.
PACKED = [sum(1 << 3 * icon for icon in Icon if mask >> icon & 1) for mask in range(32)]
_MAX_PACKED = 7  # cards whose counts fit in three bits
_FORMATIONS: dict[int, Formations] = {}
_ONE_OF_EACH: dict[Formations, Formations] = {}  # equal formations are one object


def formations_of(packed: int) -> Formations:
    """The formations of an army of at most seven cards whose icon counts are
    ``packed`` (the sum of its cards' ``PACKED`` values)."""
    found = _FORMATIONS.get(packed)
    if found is None:
        made = Formations._count([packed >> 3 * icon & 7 for icon in Icon])
        found = _FORMATIONS[packed] = _ONE_OF_EACH.setdefault(made, made)
    return found


def described(packed: int) -> str:
    """``formations_of(packed).describe()``, by the packed icon counts."""
    said = _DESCRIBED_PACKED.get(packed)
    if said is None:
        said = _DESCRIBED_PACKED[packed] = formations_of(packed).describe()
    return said


_DESCRIBED_PACKED: dict[int, str] = {}  # as many as _FORMATIONS


_NUMBERS = ("no", "one", "two", "three", "four", "five")


@dataclass(frozen=True, slots=True)
class Decision:
    """Why ``winner`` ranks above ``loser``: the first step of comparison that differs.

    ``level`` is None when the armies have identical formations and the earlier
    fourth card decided.
    """

    winner: Army
    loser: Army
    level: Level | None

    @property
    def by_count(self) -> bool:
        return by_count(self.level, self.winner.formations, self.loser.formations)

    @property
    def icons(self) -> tuple[Icon | None, Icon | None]:
        """At a seniority step, the first icons that differ (winner's, loser's)."""
        return differing_icons(self.level, self.winner.formations, self.loser.formations)

    def explain(self) -> str:
        """The deciding comparison in words, e.g. ``"two regiments beat one"``."""
        winner, loser = self.winner, self.loser
        return explained(
            winner.formations, loser.formations, winner.seat, winner.fourth_ply, loser.fourth_ply
        )


def differing_icons(
    level: Level | None, winner: Formations, loser: Formations
) -> tuple[Icon | None, Icon | None]:
    """At a seniority step, the first icons that differ (winner's, loser's)."""
    if level is None or by_count(level, winner, loser):
        return None, None
    for mine, theirs in zip(
        winner.at(level),
        loser.at(level),
        strict=True,  # not by count: as many formations each
    ):
        if mine != theirs:
            return mine, theirs
    return None, None


def explained(
    winner: Formations, loser: Formations, seat: int, fourth: int | None, other: int | None
) -> str:
    """Why the army of ``winner``'s formations (of ``seat``, its fourth card at
    ply ``fourth``) ranks above the one of ``loser``'s (its fourth at ply
    ``other``), in words: ``"two regiments beat one"``."""
    said = _EXPLAINED.get((winner, loser))
    if said is not None:
        return said
    level = deciding_level(winner, loser)
    if level is None:
        return fourth_earlier(seat, fourth, other)
    said = _EXPLAINED[winner, loser] = _compared(level, winner, loser)
    return said


def fourth_earlier(seat: int, fourth: int | None, other: int | None) -> str:
    """``explained`` where the formations are the same: the fourth card of
    ``seat`` (at ply ``fourth``) came before the other's (at ``other``)."""
    return (
        f"identical formations; {seat_name(seat)} played the fourth card "
        f"earlier, ply {fourth} vs {other}"
    )


def _compared(level: Level, winner: Formations, loser: Formations) -> str:
    """``explained`` where the formations differ: the words depend on them alone."""
    prefix = "".join(
        f"{'equal' if winner.at(before) else 'no'} {before.plural}; "
        for before in LEVELS[: LEVELS.index(level)]
    )
    mine, theirs = len(winner.at(level)), len(loser.at(level))
    if mine != theirs:
        noun = level.word if mine == 1 else level.plural
        fewer = _NUMBERS[theirs] if theirs else "none"
        return f"{prefix}{_NUMBERS[mine]} {noun} beat{'s' if mine == 1 else ''} {fewer}"
    win_icon, lose_icon = differing_icons(level, winner, loser)
    assert win_icon is not None and lose_icon is not None
    return f"{prefix}{level.word} of {win_icon.plural} beats {level.word} of {lose_icon.plural}"


_EXPLAINED: dict[tuple[Formations, Formations], str] = {}  # formations that differ


def explained_packed(packed: int, beaten: int, seat: int, fourth: int, other: int) -> str:
    """``explained`` of two full armies by their packed icon counts."""
    try:  # (called for every state of every record the core reads)
        key = _NUMBERED[packed] << 16 | _NUMBERED[beaten]
    except KeyError:
        key = _numbered(packed) << 16 | _numbered(beaten)
    said = _EXPLAINED_NUMBERED.get(key, "")
    if said == "":  # the first meeting of these formations: thousands of pairs
        said = _EXPLAINED_NUMBERED[key] = _explained_numbered(key >> 16, key & 0xFFFF)
    return fourth_earlier(seat, fourth, other) if said is None else said


def _numbered(packed: int) -> int:
    """The number of the formations of ``packed`` (``formations_of``'s), in
    the order first met: far fewer than the packed counts that have them."""
    number = _NUMBERED.get(packed)
    if number is None:
        formations = formations_of(packed)
        number = _NUMBER_OF.get(formations)
        if number is None:
            number = _NUMBER_OF[formations] = len(_NUMBER_OF)
            _ICONS_NUMBERED[number] = tuple(
                [tuple(map(int, formations.at(level))) for level in LEVELS]
            )
            _PACKED_NUMBERED[number] = packed
        _NUMBERED[packed] = number
    return number


_NUMBERED: dict[int, int] = {}  # by packed icon counts
_NUMBER_OF: dict[Formations, int] = {}
_ICONS_NUMBERED: dict[int, tuple[tuple[int, ...], ...]] = {}  # by number: icons by level
_PACKED_NUMBERED: dict[int, int] = {}  # by number: the packed counts first met with them
_EXPLAINED_NUMBERED: dict[int, str | None] = {}  # None: the formations are the same


def _explained_numbered(winner: int, loser: int) -> str | None:
    """``explained_counts`` of the formations numbered ``winner`` and
    ``loser``, by what its words depend on alone (``_compared``): the
    first level that differs, which levels before it hold formations, and
    there how many each holds or, as many, the first icons that differ. A
    few hundred such keys stand for the many thousand pairs of formations."""
    mine_all, theirs_all = _ICONS_NUMBERED[winner], _ICONS_NUMBERED[loser]
    held = 0  # the levels before, each as a bit: which hold formations
    for index, mine in enumerate(mine_all):
        theirs = theirs_all[index]
        if mine != theirs:
            break
        held |= (mine != ()) << index
    else:
        return None  # the same formations: the earlier fourth card decides
    if len(mine) != len(theirs):
        key: tuple[int, ...] = (index, held, len(mine), len(theirs))
    else:
        key = next((index, held, a, b, 0) for a, b in zip(mine, theirs, strict=True) if a != b)
    said = _EXPLAINED_KEYED.get(key)
    if said is None:
        words = explained_counts(_PACKED_NUMBERED[winner], _PACKED_NUMBERED[loser])
        assert words is not None
        said = _EXPLAINED_KEYED[key] = words
    return said


_EXPLAINED_KEYED: dict[tuple[int, ...], str] = {}  # ``_explained_numbered``'s, by its key


def explained_counts(packed: int, beaten: int) -> str | None:
    """``explained_packed``'s words where the two armies' formations differ
    (they depend on the formations alone); None where they are the same
    (then the earlier fourth card decides, and the words name plies)."""
    winner, loser = formations_of(packed), formations_of(beaten)
    if deciding_level(winner, loser) is None:
        return None
    return explained(winner, loser, 0, None, None)


def decide(winner: Army, loser: Army) -> Decision:
    """The step at which ``winner`` beats ``loser`` (the caller ranks them
    first). Raises nothing."""
    return Decision(winner, loser, deciding_level(winner.formations, loser.formations))


def deciding_level(winner: Formations, loser: Formations) -> Level | None:
    """The first level at which two armies' formations differ; None: at none
    (the earlier fourth card decides)."""
    for level in LEVELS:
        if winner.at(level) != loser.at(level):
            return level
    return None


def by_count(level: Level | None, winner: Formations, loser: Formations) -> bool:
    """Whether the armies differ at ``level`` by how many formations, not by their seniority."""
    return level is not None and len(winner.at(level)) != len(loser.at(level))


def rank(armies: Sequence[Army]) -> tuple[Army, ...]:
    """All armies in a state, strongest first. Total: fourth-card plies
    differ. Raises nothing."""
    return tuple(sorted(armies, key=Army.strength, reverse=True))
