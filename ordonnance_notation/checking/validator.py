"""Validate a record: read it, replay it under the rules, compare what it declares.

Never invent: the replay stops at the first play that cannot be read or is
illegal. Later plays, declared resolutions and the result are then not
checked, and a note (N601) says so; nothing after that point is reported as
if another game had been played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..diagnostics import Diagnostic, InvalidRecord, Related, Severity
from ..engine.cards import Card, State, card_spelt, seat_name
from ..engine.game import Deal, Game, IllegalPlay, Table, Turn, Violation
from ..engine.scoring import Outcome, Scoring, score
from ..notation.record import Hand, Play, Record, Span, Unparsed
from .content import (
    SHARED,
    UNFINISHED,
    Claim,
    Content,
    DeclaredOutcome,
    Move,
    Unread,
    content_of,
)


class Step(NamedTuple):
    """The table after a ply of a replay: ``number`` is the ply just played (0
    before the first), ``turn`` what it did and ``play`` the play as written
    (both None at step 0)."""

    number: int
    game: Game
    turn: Turn | None
    play: Play | None


@dataclass(frozen=True, slots=True)
class Report:
    """The verdict on one record. ``game`` is the last position the rules reached
    (None when the header or deal could not be read); ``outcome`` is set only for
    a finished game that was checked to the end; ``stopped`` is the error at the
    play where the replay stopped, if it did; ``steps`` holds the table after
    every ply when ``validate`` was asked for them."""

    source: str
    index: int
    diagnostics: tuple[Diagnostic, ...]
    names: tuple[str, ...] = ()
    game: Game | None = None
    turns: tuple[Turn, ...] = ()
    outcome: Outcome | None = None
    record: Record | None = None
    scoring: Scoring | None = None
    deal: Deal | None = None
    stopped: Diagnostic | None = None
    steps: tuple[Step, ...] = ()

    @property
    def valid(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def players(self) -> str:
        """`` (Anna v Boris)``, or nothing when the header could not be read."""
        return f" ({' v '.join(name.strip() or '?' for name in self.names)})" if self.names else ""

    @property
    def verdict(self) -> str:
        """What the record amounts to, in a few words."""
        if not self.valid:
            counts = [
                f"{n} {severity.value}{'s' if n != 1 else ''}"
                for severity in Severity
                if (n := self.count(severity))
            ]
            return "invalid: " + ", ".join(counts)
        if self.outcome is None:
            ply = self.game.ply if self.game else 0
            return f"valid, unfinished after ply {ply}"
        return "valid, " + self.outcome.describe(self.scoring.unit if self.scoring else "states")

    @property
    def winner(self) -> str | None:
        """The winner's seat as the record names it (``"P2"``); None while the
        game is unfinished or was not checked to its end, or when the win is
        shared. ``outcome.winner`` is the engine's number for it (1 for P2)."""
        outcome = self.outcome
        return None if outcome is None or outcome.winner is None else seat_name(outcome.winner)

    @property
    def scores(self) -> dict[str, int] | None:
        """Each seat's score by its name (``{"P1": 1, "P2": 4}``), in states or
        points as the record's scoring counts; None unless finished and checked.
        ``outcome.scores`` holds the same by the engine's numbers."""
        if self.outcome is None:
            return None
        return {seat_name(s): v for s, v in enumerate(self.outcome.scores)}

    def to_json(self) -> dict[str, Any]:
        """The report as ``ordo validate --format json`` prints it."""
        outcome = self.outcome
        return {
            "file": self.source,
            "record": self.index,
            "players": list(self.names),
            "valid": self.valid,
            "finished": outcome is not None,
            "winner": self.winner,
            "scores": self.scores,
            "markers": [
                {
                    "marker": r.marker,
                    "state": r.state.name,
                    "seat": seat_name(r.winner),
                    "ply": r.ply,
                }
                for r in (self.game.resolutions if self.game else ())
            ],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def validate(item: Record | Unparsed, steps: bool = False) -> Report:
    """Every diagnostic for one record, and how far the rules got; with
    ``steps``, the table after every ply too. Never raises for bad input."""
    if isinstance(item, Unparsed):
        if item.partial is None:
            return Report(item.source, item.index, item.diagnostics)
        content = content_of(item.partial, tuple(zip(item.gaps, item.diagnostics, strict=True)))
        content.diagnostics.extend(item.diagnostics)
    else:
        content = content_of(item)
    replayed = _replay(content, steps)
    outcome = None
    if replayed.game is not None and replayed.compare_result:
        outcome = _check_result(content, replayed.game)
    _check_tag_against_line(content)
    diagnostics = sorted(
        content.diagnostics,
        key=lambda d: (
            d.span.line if d.span else 0,
            d.severity.rank,
            d.span.column if d.span else 0,
        ),
    )
    return Report(
        item.source,
        item.index,
        tuple(diagnostics),
        content.names,
        replayed.game,
        tuple(replayed.turns),
        outcome,
        content.record,
        content.scoring,
        content.deal,
        replayed.stopped,
        tuple(replayed.steps),
    )


def check(item: Record | Unparsed) -> Report:
    """Like ``validate``, but raises InvalidRecord when the record has an error."""
    report = validate(item)
    if not report.valid:
        raise InvalidRecord(tuple(d for d in report.diagnostics if d.severity is Severity.ERROR))
    return report


CODES_OF = {
    Violation.OUT_OF_TURN: "E301",
    Violation.NOT_IN_HAND: "E302",
    Violation.STATE_FULL: "E303",
    Violation.GAME_OVER: "E304",
    Violation.WRONG_DRAW: "E305",
}
_BLAME = {
    Violation.OUT_OF_TURN: "seat",
    Violation.NOT_IN_HAND: "card",
    Violation.STATE_FULL: "state",
    Violation.WRONG_DRAW: "drawn",
}


@dataclass(slots=True)
class _Replayed:
    """How far the rules got: the last legal game (None when the header or the
    deal has errors), the turns played, the error that stopped the replay, and
    whether the result can be compared (the game was replayed to its end, or
    only plays after its end were refused)."""

    game: Game | None = None
    turns: list[Turn] = field(default_factory=list)
    stopped: Diagnostic | None = None
    compare_result: bool = False
    steps: list[Step] = field(default_factory=list)


def _replay(r: Content, steps: bool) -> _Replayed:
    """Play the record's moves in order on one table, checking declared
    resolutions as they come."""
    replayed = _Replayed()
    if r.seats is None or not r.deal_ok:
        if r.record.plays:
            r.add(
                "N601",
                "no play was replayed: the header or the deal has errors",
                r.record.plays[0].span,
            )
        return replayed
    if r.deal is None and r.record.plays:
        r.add("N602", "no deal: hands and draws were not checked")
    table = Table(r.seats, r.deal)
    if steps:
        replayed.steps.append(Step(0, table.snapshot(), None, None))
    turns, play_on = replayed.turns, table.play
    declared_seen: dict[State, int] = {}
    played = 0  # plays walked so far
    for event in r.body:
        if type(event) is Claim:
            _check_declared(r, event, table, declared_seen)
            continue
        played += 1
        if type(event) is Unread:
            _stop(r, event.span, played, "it could not be read")
            replayed.stopped = event.stop
            break
        assert type(event) is Move
        play, card, state, seat, drawn = event
        try:
            turn = play_on(card, state, seat=seat, drawn=drawn)
        except IllegalPlay as illegal:
            ended = illegal.violation is Violation.GAME_OVER
            mended, fixes = None, []
            if illegal.violation is Violation.NOT_IN_HAND:
                fixes = _play_fixes(r, table, event)
                near = [c for c in _near(event.card, table) if c in fixes]
                if len(fixes) != 1:  # no one card is surely meant: the pile may be wrong
                    mended = _mend_pile(r, table, event, transposed=not near)
            if mended is not None:
                replayed.stopped = _pile_mistake(r, mended, event, table.ply + 1)
            else:
                blamed = play if ended else getattr(play, _BLAME[illegal.violation]) or play.card
                replayed.stopped = r.add(
                    CODES_OF[illegal.violation],
                    illegal.message,
                    blamed.span,
                    table.ply + 1,
                    help=_rule_help(r, illegal.violation, event, table, fixes),
                    related=_pile_places(r, table, illegal.violation, event),
                )
            _stop(
                r, play.span, played, "it comes after the end" if ended else "it is illegal", ended
            )
            replayed.compare_result = ended  # a game that ended can still be scored
            break
        turns.append(turn)
        if steps:
            replayed.steps.append(Step(turn.ply, table.snapshot(), turn, play))
    else:
        replayed.compare_result = True
    replayed.game = table.snapshot()
    return replayed


def _pile_places(r: Content, table: Table, violation: Violation, move: Move) -> tuple[Related, ...]:
    """The places of the pile that explain a draw or a card not held: the
    card this turn draws, where the played card lies in the pile (and who
    drew it, at which ply), or the pile's end when every card is drawn."""
    if r.pile is None or not r.pile.cards or table.pile is None:
        return ()
    words, pile, drawn = r.pile.cards, table.pile, table.drawn
    if drawn >= len(pile):
        return (Related(f"the pile ends here, after {len(pile)} cards", words[-1].span),)
    if violation is Violation.WRONG_DRAW:
        return (
            Related(
                f"the pile's card {drawn + 1}, which ply {table.ply + 1} draws", words[drawn].span
            ),
        )
    if violation is not Violation.NOT_IN_HAND:
        return ()
    # every ply draws while the pile lasts: the pile's card i is drawn at ply i + 1
    at = [i for i, card in enumerate(pile) if card is move.card]
    before = [i for i in at if i < drawn]
    if before:
        i = before[-1]
        seat = seat_name(i % table.seats)
        return (
            Related(
                f"{move.card}: the pile's card {i + 1}, drawn by {seat} at ply {i + 1}",
                words[i].span,
            ),
        )
    if at:
        i = at[0]
        return (
            Related(
                f"{move.card}: the pile's card {i + 1}, not drawn before ply {i + 1}", words[i].span
            ),
        )
    for hand in (e for e in r.record.elements if isinstance(e, Hand)):
        for word in hand.cards:
            if card_spelt(word.text) is move.card:
                return (Related(f"{move.card}: dealt to {hand.seat.text}", word.span),)
    return ()


def _near(card: Card, table: Table) -> list[Card]:
    """The cards the seat to move holds (with its draw) that differ from
    ``card`` by one icon: the card meant, when a letter was left out or added."""
    held = table.snapshot().hand_to_play() or ()  # only when a play went wrong
    return [c for c in dict.fromkeys(held) if (c.mask ^ card.mask).bit_count() == 1]


class _Mended(NamedTuple):
    """A pile that makes every play legal: ``card`` added as the pile's card
    ``position`` (counted from 0), or, when ``card`` is None, the cards at
    ``position`` and the one after it in the other order."""

    position: int
    card: Card | None


_MENDING_BUDGET = 600  # replays tried at most, to keep a broken archive quick to check


def _moves(r: Content) -> list[Move]:
    """The moves of the body up to the first play that could not be read."""
    moves: list[Move] = []
    for event in r.body:
        if type(event) is Unread:
            break
        if type(event) is Move:
            moves.append(event)
    return moves


def _play_fixes(r: Content, table: Table, move: Move) -> list[Card]:
    """The cards the seat to move holds that, played here instead, make every
    play of the record legal: the card meant, when the play was miswritten."""
    if table.hands is None or r.deal is None or r.seats is None:
        return []
    held = table.snapshot().hand_to_play() or ()
    moves = _moves(r)
    at = table.ply
    here = table.snapshot()  # an illegal play leaves the table as it was
    return [
        card
        for card in dict.fromkeys(held)
        if _all_legal(Table.from_game(here), [moves[at]._replace(card=card), *moves[at + 1 :]])
    ]


def _mend_pile(r: Content, table: Table, move: Move, transposed: bool) -> _Mended | None:
    """A card left out of the pile, or two neighbours written in the wrong
    order (at or above the draw of this ply), after which the whole record
    plays legally, if there is one: such a slip in copying the pile shows
    only plies later, when a seat plays a card the pile as written never gave
    them. (A card miswritten in the pile reads like a miswritten play, which
    is the likelier: that is not tried; nor are two neighbours swapped when
    ``transposed`` is false, as when a card one letter off the one played
    mends the play.) Only piles that bring the card played to the seat by
    this ply are replayed: the pile's card i is drawn at ply i + 1, by seat
    i modulo the seats, while the pile lasts."""
    deal = r.deal
    assert deal is not None and r.seats is not None
    moves = _moves(r)
    pile = deal.pile
    later = len(moves) - table.ply - 1
    if later < 4:
        return None  # too few plays after it to tell a mended pile from luck
    # a card left out shifts every later draw: it takes draws for each seat to tell
    shifted = min(len(pile) - table.drawn, later) >= 2 * r.seats + 2
    kinds = list(dict.fromkeys(m.card for m in moves[table.ply :])) if shifted else []
    seats, seat, card_played = r.seats, table.ply % r.seats, move.card
    drawn = table.drawn
    gives = {i for i in range(drawn) if pile[i] is card_played and (i + 1) % seats == seat}
    tries = []
    for position in range(min(drawn + 1, len(pile))):  # a card drawn by this ply
        if transposed and position + 1 < min(drawn + 1, len(pile)):
            a, b = pile[position], pile[position + 1]
            if a is not b and (
                (b is card_played and position % seats == seat)
                or (a is card_played and (position + 1) % seats == seat)
            ):
                tries.append(_Mended(position, None))
        for card in kinds:
            # the card inserted here, or one the shift moves onto the seat, must be the one played
            if (card is card_played and position % seats == seat) or any(
                i >= position for i in gives
            ):
                tries.append(_Mended(position, card))
    if len(tries) > _MENDING_BUDGET:
        return None
    # the pile's card p is drawn at ply p + 1: the table before it is the record's own
    before = Table(r.seats, deal)
    for mended in tries:
        p, inserted = mended
        _all_legal(before, moves[before.ply : p])
        if inserted is None:
            new_pile = (*pile[:p], pile[p + 1], pile[p], *pile[p + 2 :])
        else:
            new_pile = (*pile[:p], inserted, *pile[p:])
        trial = Table.from_game(before.snapshot())
        trial.pile = new_pile
        if _all_legal(trial, moves[p:]):
            return mended
    return None


def _all_legal(table: Table, moves: list[Move]) -> bool:
    """Whether ``moves`` can all be played on ``table`` (which they change)."""
    try:
        for m in moves:
            table.play(m.card, m.state, seat=m.seat, drawn=m.drawn)
    except IllegalPlay:
        return False
    return True


def _pile_mistake(r: Content, mended: _Mended, move: Move, ply: int) -> Diagnostic:
    """E212 at the place in the pile that, mended, makes every play legal."""
    assert r.pile is not None
    words = r.pile.cards
    p, card = mended
    if card is not None:
        where = words[p].span if p < len(words) else words[-1].span
        message = f"the pile seems to lack a card here: with {card} as its card {p + 1}"
        help = f"add {card} to the pile as its card {p + 1}" + (
            f", before {words[p].text}" if p < len(words) else ", at its end"
        )
    else:
        where = words[p].span.to(words[p + 1].span)
        message = f"the pile's cards {p + 1} and {p + 2} seem written in the wrong order: swapped"
        help = f"write `{words[p + 1].text} {words[p].text}`, if that is the order dealt"
    return r.add(
        "E212",
        message + ", every play of the record is legal",
        where,
        help=help,
        related=(
            Related(
                f"ply {ply}: {seat_name((ply - 1) % len(r.names))} plays {move.card}, "
                "which the pile as written never gives them",
                move.play.card.span,
            ),
        ),
    )


def _rule_help(
    r: Content, violation: Violation, move: Move, table: Table, fixes: list[Card]
) -> str:
    """How to mend an illegal play, in the words of what went wrong; ``fixes``
    are the cards that, played instead, make the record legal."""
    mover = seat_name(table.ply % table.seats)
    if violation is Violation.OUT_OF_TURN:
        return (
            f"seats play in turn, P1 first: ply {table.ply + 1} is {mover}'s; "
            "check the seat, or whether a play above is missing or doubled"
        )
    if violation is Violation.NOT_IN_HAND:
        meant = _near(move.card, table) or (fixes if len(fixes) == 1 else [])
        if meant:
            held = " or ".join(str(c) for c in meant)
            return (
                f"did you mean {held}? {mover} holds it; "
                f"or, if {move.card} was played, the deal is not as dealt"
            )
        if table.pile is not None and table.drawn >= len(table.pile) and r.deal_short:
            return (
                f"the pile lists {len(table.pile)} cards and all are drawn: a deal that "
                "stops short must list every card drawn, so add the later draws to the pile"
            )
        return (
            f"check the card and the plays above; if {mover} really holds it, "
            "the deal (hands and pile) is not as dealt"
        )
    if violation is Violation.STATE_FULL:
        seat = table.ply % table.seats
        open_ = " ".join(s.name for s in State if table.count(s, seat) < 4)
        return f"an army holds four units: check the state; {mover} can still play to {open_}"
    if violation is Violation.WRONG_DRAW:
        if table.pile is not None and table.drawn >= len(table.pile):
            return (
                f"the pile lists {len(table.pile)} cards and all are drawn: if the deal stops "
                f"short, add {move.drawn} at the pile's end"
            )
        return (
            f"the pile's next card is {table.pile[table.drawn]}: write `+{table.pile[table.drawn]}`"
            " (or leave the draw out), or check the pile"
            if table.pile is not None
            else "check the draw"
        )
    return "the game ended with the fifth marker: check the plays above, or remove this one"


def _stop(r: Content, span: Span, ply: int, why: str, compared: bool = False) -> None:
    later = sum(1 for play in r.record.plays if play.span.line > span.line)
    rest = {0: " was", 1: " and the play after it were"}.get(
        later, f" and the {later} plays after it were"
    )
    unchecked = "the declared resolutions from there on" + ("" if compared else " and the result")
    r.add(
        "N601",
        f"replay stops at ply {ply} because {why}: that ply{rest} not replayed, "
        f"and {unchecked} were not compared",
        span,
        ply,
    )


def _check_declared(r: Content, claim: Claim, table: Table, seen: dict[State, int]) -> None:
    declared = claim.element
    state, seat, marker = claim.state, claim.seat, claim.marker
    if state in seen:
        r.add(
            "E404",
            f"{state.full_name} was already declared resolved at line {seen[state]}",
            declared.span,
            help="declare each state once, after the play that resolves it; remove this line",
        )
        return
    resolution = table.resolution(state)
    if resolution is None:
        units = ", ".join(f"{seat_name(s)} {table.count(state, s)}" for s in range(table.seats))
        r.add(
            "E403",
            f"declares {state.full_name} resolved after ply {table.ply}, "
            f"but it is not yet (units there: {units})",
            declared.state.span,
            help="a state is resolved when every seat has four units there: "
            "check the state, or move the line below the play that resolves it",
        )
        return  # not counted as declared: a right declaration later is no repeat
    seen[state] = declared.span.line
    winner = resolution.winner
    if winner == seat and resolution.marker == marker:
        return  # as declared: the usual case
    written = f"#{resolution.marker} {state.name} {seat_name(winner)}"
    if winner != seat:
        r.add(
            "E401",
            f"declares {state.full_name} to {seat_name(seat)}, "
            f"but {seat_name(winner)} wins it: {resolution.decision.explain()}",
            declared.seat.span,
            help=f"write `{written}`",
        )
    else:
        r.add(
            "E402",
            f"declares marker {marker} for {state.full_name}, "
            f"but it takes marker {resolution.marker} (resolved at ply {resolution.ply})",
            declared.marker.span,
            help=f"markers go 1 to 5 in the order states are resolved: write `{written}`",
        )


def _describe(outcome: DeclaredOutcome) -> str:
    return seat_name(outcome) if isinstance(outcome, int) else outcome


def _check_result(r: Content, game: Game) -> Outcome | None:
    declarations = []
    if r.result_tag is not None:
        declarations.append((r.result_tag[0], r.result_tag[1].span, "Result tag"))
    if r.result is not None:
        declarations.append((r.result.outcome, r.result.line.outcome.span, "result line"))
    if not game.over:
        r.add(
            "W501",
            f"unfinished game: {len(game.resolutions)} of 5 states resolved after ply {game.ply}",
        )
        for declared, span, where in declarations:
            if declared != UNFINISHED:
                r.add(
                    "E413",
                    f"the {where} declares {_describe(declared)}, but the game is unfinished",
                    span,
                    help=_declare(where, UNFINISHED)
                    + ", or add the plays that are missing at the end",
                )
        return None
    if not r.scoring_ok:
        r.add(
            "N603",
            f"the game ended at ply {game.ply}, but the result was not compared: "
            "the scoring rule has errors",
        )
        return None
    outcome = score(game.seats, game.resolutions, r.scoring)
    actual: DeclaredOutcome = SHARED if outcome.winner is None else outcome.winner
    for declared, span, where in declarations:
        if declared == actual:
            continue  # as declared: the usual case
        standing = outcome.describe(r.scoring.unit)
        if declared == UNFINISHED:
            r.add(
                "E412",
                f"the {where} declares the game unfinished, "
                f"but it ended at ply {game.ply}: {standing}",
                span,
                help=_declare(where, _describe(actual)),
            )
        else:
            r.add(
                "E410",
                f"the {where} declares {_describe(declared)}, but {standing}",
                span,
                help=_declare(where, _describe(actual)),
            )
    unit = r.scoring.unit
    for seat, value, word in r.result.scores if r.result is not None else ():
        if value != outcome.scores[seat]:
            r.add(
                "E411",
                f"declares {seat_name(seat)}:{value}, "
                f"but {seat_name(seat)} has {_count(outcome.scores[seat], unit)}",
                word.span,
                help=f"write `{seat_name(seat)}:{outcome.scores[seat]}`",
            )
    return outcome


def _declare(where: str, outcome: str) -> str:
    return f'write [Result "{outcome}"]' if where == "Result tag" else f"write `result {outcome}`"


def _count(n: int, unit: str) -> str:
    return f"{n} {unit if n != 1 else unit[:-1]}"


def _check_tag_against_line(r: Content) -> None:
    if r.result_tag is None or r.result is None:
        return
    tag_outcome = r.result_tag[0]
    if r.result.outcome != tag_outcome:
        r.add(
            "E414",
            f"the result line says {_describe(r.result.outcome)}, "
            f"but the Result tag says {_describe(tag_outcome)}",
            r.result.line.outcome.span,
            help="make the two say the same: `ordo fix` writes what the replay found",
            related=(Related("the Result tag", r.result_tag[1].span),),
        )
