"""Classic and points scoring with their tie rules (rules.md, D1, D2), for 2, 3 and 4 seats."""

import pytest

from ordonnance_notation.engine.armies import Army
from ordonnance_notation.engine.cards import State
from ordonnance_notation.engine.game import Resolution
from ordonnance_notation.engine.scoring import Scoring, TieBreak, score


def resolved(*rankings):
    """Resolutions in marker order; each ranking lists seats (1-based) strongest first."""
    states = list(State)
    return tuple(
        Resolution(states[i], i + 1, 10 * (i + 1), tuple(Army(seat - 1) for seat in ranking))
        for i, ranking in enumerate(rankings)
    )


CLASSIC = [
    # seats, rankings in marker order, winner, states per seat, tie-break
    (2, [(1, 2), (1, 2), (2, 1), (2, 1), (1, 2)], 1, (3, 2), None),
    (2, [(2, 1)] * 5, 2, (0, 5), None),
    # 3 seats 2-2-1: P1 took markers 1 and 4, P2 markers 2 and 5 -> P2's second capture is later
    (
        3,
        [(1, 2, 3), (2, 1, 3), (3, 1, 2), (1, 2, 3), (2, 3, 1)],
        2,
        (2, 2, 1),
        TieBreak.LATER_CAPTURE,
    ),
    # the same split, other order: P1's second capture (marker 5) is later
    (
        3,
        [(2, 1, 3), (1, 2, 3), (3, 1, 2), (2, 3, 1), (1, 2, 3)],
        1,
        (2, 2, 1),
        TieBreak.LATER_CAPTURE,
    ),
    (3, [(3, 1, 2)] * 3 + [(1, 2, 3), (2, 1, 3)], 3, (1, 1, 3), None),
    # 4 seats 2-2-1-0: P3 captures 1 and 3, P4 captures 2 and 4 -> P4
    (
        4,
        [(3, 1, 2, 4), (4, 1, 2, 3), (3, 4, 2, 1), (4, 3, 1, 2), (1, 2, 3, 4)],
        4,
        (1, 0, 2, 2),
        TieBreak.LATER_CAPTURE,
    ),
]


@pytest.mark.parametrize(("seats", "rankings", "winner", "states", "tie"), CLASSIC)
def test_classic_most_states_then_later_capture(seats, rankings, winner, states, tie):
    outcome = score(seats, resolved(*rankings), Scoring.classic())
    assert outcome.winner == winner - 1
    assert outcome.states == states and outcome.scores == states
    assert outcome.tie_break is tie


def test_classic_tie_compares_the_kth_capture_not_the_last_marker_overall():
    # P1 captures 1, 2 ; P2 captures 3, 4 ; P3 captures 5 -> k = 2: P1's 2nd is 2, P2's 2nd is 4
    outcome = score(
        3, resolved((1, 2, 3), (1, 2, 3), (2, 1, 3), (2, 1, 3), (3, 1, 2)), Scoring.classic()
    )
    assert outcome.winner == 1
    assert outcome.tied == (0, 1)


POINTS = [
    # 2 seats, default 3/2/1/0: the winner of each state scores 3, the other 2
    (2, None, [(1, 2), (1, 2), (2, 1), (2, 1), (1, 2)], 1, (13, 12), None),
    # 4 seats: P2 never wins a state but is second everywhere, and wins on points
    (
        4,
        None,
        [(1, 2, 3, 4), (3, 2, 1, 4), (4, 2, 3, 1), (1, 2, 4, 3), (3, 2, 1, 4)],
        2,
        (8, 10, 8, 4),
        None,
    ),
    # D2: 12 points each; P1 holds three states to P2's two
    (
        3,
        None,
        [(1, 2, 3), (1, 2, 3), (1, 2, 3), (2, 1, 3), (2, 3, 1)],
        1,
        (12, 12, 6),
        TieBreak.MORE_STATES,
    ),
    # D1: a declared table 3 1 0 (the third scores 0)
    (3, (3, 1, 0), [(1, 2, 3), (2, 1, 3), (3, 1, 2), (1, 3, 2), (2, 3, 1)], 1, (8, 7, 5), None),
]


@pytest.mark.parametrize(("seats", "table", "rankings", "winner", "points", "tie"), POINTS)
def test_points_by_rank_in_each_state(seats, table, rankings, winner, points, tie):
    scoring = Scoring.by_points() if table is None else Scoring.by_points(table)
    outcome = score(seats, resolved(*rankings), scoring)
    assert outcome.scores == points
    assert outcome.winner == winner - 1
    assert outcome.tie_break is tie


def test_d2_equal_points_and_states_fall_back_to_the_later_capture():
    # table 1 1 1 1: everyone scores 5; states 2-2-1 -> later second capture
    rankings = [(1, 2, 3), (2, 1, 3), (3, 1, 2), (1, 2, 3), (2, 3, 1)]
    outcome = score(3, resolved(*rankings), Scoring.by_points((1, 1, 1, 1)))
    assert outcome.scores == (5, 5, 5)
    assert outcome.winner == 1
    assert outcome.tie_break is TieBreak.LATER_CAPTURE
    assert outcome.tied == (0, 1)


def test_a_tie_no_rule_breaks_is_shared():
    # Table 1 1 1 0 (allowed: it never gives a weaker army more). P2 and P3 are
    # second and third everywhere: 5 points each and no state, so no capture decides.
    rankings = [(1, 2, 3, 4)] * 3 + [(4, 2, 3, 1)] * 2
    outcome = score(4, resolved(*rankings), Scoring.by_points((1, 1, 1, 0)))
    assert outcome.scores == (3, 5, 5, 2)
    assert outcome.winner is None
    assert outcome.tied == (1, 2)


def test_points_for_missing_ranks_are_zero():
    assert Scoring.by_points((3, 1)).points_for(3) == 0
    assert Scoring.by_points().points_for(0) == 3
