"""No state reported decided is overturned: a long run of random continuations.

For self-played games (2, 3 and 4 seats, greedy and random bots, the
reference deck), ``engine.analysis.analyse`` says at which ply each state
and the game were decided. From each such ply before the state resolved (or
the game ended), random legal continuations are played to the end, and the
winner must be the one the analysis named. Prints the counts and writes them
to ``bench/results/analysis-check-latest.json``; any overturned decision is
listed and the exit status is 1.

    python bench/analysis_check.py --games 3000 --continuations 400
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from ordonnance_notation.engine.analysis import analyse
from ordonnance_notation.engine.game import STATES, Table
from ordonnance_notation.engine.scoring import score
from ordonnance_notation.making.dealing import load_deck
from ordonnance_notation.making.selfplay import play_game

RESULTS = Path(__file__).parent / "results"
_BOTS = ("greedy", "random")


def _finish(table: Table, rng: random.Random) -> Table:
    """``table`` played to the end by random legal plays (changed in place)."""
    assert table.hands is not None
    while len(table.resolutions) < len(STATES):
        seat = table.ply % table.seats
        pile = table.pile or ()
        hand = list(table.hands[seat])
        if table.drawn < len(pile):
            hand.append(pile[table.drawn])
        card = rng.choice(hand)
        states = [s for s in STATES if table.count(s, seat) < 4]
        table.play(card, rng.choice(states))
    return table


def check_game(job: tuple[int, int, int]) -> dict:
    """One game: its analysis, then ``continuations`` random ends from each decided ply."""
    number, seats, continuations = job
    rng = random.Random(number)
    bots = [_BOTS[(number + seat) % 2] for seat in range(seats)]
    played = play_game(f"check-{number}", bots, load_deck())
    plays = [(turn.card, turn.state) for turn in played.turns]
    analysis = analyse(seats, played.deal, plays, played.scoring)
    counts = {"games": 1, "states_decided_early": 0, "continuations": 0, "overturned": []}
    claims = [
        (part.decided, part.state, part.winner)
        for part in analysis.states
        if part.decided is not None and part.resolved is not None and part.decided < part.resolved
    ]
    if analysis.decided is not None and analysis.decided < len(plays):
        claims.append((analysis.decided, None, analysis.winner))
    counts["states_decided_early"] = sum(1 for _ply, state, _w in claims if state is not None)
    counts["games_decided_early"] = sum(1 for _ply, state, _w in claims if state is None)
    for ply, state, winner in claims:
        start = Table(seats, played.deal)
        for card, where in plays[:ply]:
            start.play(card, where)
        game = start.snapshot()
        for _ in range(continuations):
            end = _finish(Table.from_game(game), rng)
            if state is None:
                found = score(seats, end.resolutions, played.scoring).winner
            else:
                found = next(r.winner for r in end.resolutions if r.state is state)
            counts["continuations"] += 1
            if found != winner:
                counts["overturned"].append([played.seed, ply, state and state.name, winner, found])
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600, help="games per seat count")
    parser.add_argument("--continuations", type=int, default=200, help="per decided ply")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    jobs = [
        (seats * 1_000_000 + n, seats, args.continuations)
        for seats in (2, 3, 4)
        for n in range(args.games)
    ]
    total: dict = {"games": 0, "states_decided_early": 0, "games_decided_early": 0}
    total |= {"continuations": 0, "overturned": []}
    with Pool(args.processes) as pool:
        for counts in pool.imap_unordered(check_game, jobs, chunksize=8):
            for key in ("games", "states_decided_early", "games_decided_early", "continuations"):
                total[key] += counts[key]
            total["overturned"] += counts["overturned"]
    total["seconds"] = round(time.perf_counter() - started, 1)
    total["games_per_seat_count"] = args.games
    total["continuations_per_decided_ply"] = args.continuations
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "analysis-check-latest.json").write_text(json.dumps(total, indent=2) + "\n")
    print(
        f"{total['games']} games, {total['states_decided_early']} states and "
        f"{total['games_decided_early']} games decided before the end, "
        f"{total['continuations']} random continuations from those plies: "
        f"{len(total['overturned'])} overturned ({total['seconds']} s)"
    )
    for case in total["overturned"][:20]:
        print("  overturned:", case)
    return 1 if total["overturned"] else 0


if __name__ == "__main__":
    sys.exit(main())
