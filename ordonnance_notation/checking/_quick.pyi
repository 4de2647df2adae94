# The compiled core's one function (_quick.c); quick.py is its Python face.
from collections.abc import Callable

Declined = tuple[int, str]  # (first line, text): for the Python validator
Marker = tuple[int, int, int, int]  # (marker, state 1 to 5, seat, ply)
Accepted = tuple[
    int,  # first line
    tuple[str, ...],  # the players' names
    int | None,  # the winner; None: the win is shared
    tuple[int, ...],  # scores by seat
    tuple[int, ...],  # states by seat
    int,  # the tie-break: 0 none, 1 more states, 2 later capture
    tuple[int, ...],  # the seats tied
    bool,  # scored by points
    tuple[Marker, ...],
]

Losses = tuple[tuple[int, int, int, bytes], ...]  # (seat, ply, by, kept plays: card << 3 | state)
StateFound = tuple[int | None, int | None, int, Losses]  # decided, resolved, can-win mask, losses
GameFound = tuple[int | None, int, Losses]
Analysis = tuple[
    bytes, tuple[StateFound, ...], GameFound, bool
]  # plays (as kept), states, game, exact
Found = tuple[
    int,
    tuple[str, ...],
    int | None,
    tuple[int, ...],
    tuple[int, ...],
    int,
    tuple[int, ...],
    bool,
    tuple[Marker, ...],
    Analysis,
]  # Accepted, then the analysis

def check_block(
    text: str, first_line: int, judge: Callable[[str], bool], analyse: bool = False, /
) -> tuple[int, list[Declined | Accepted | Found]] | None: ...
def configure_analysis(packed: tuple[int, ...], /) -> tuple[int, ...]: ...
def configure(
    icons: str,
    states: tuple[tuple[str, str], ...],
    glyphs: tuple[str, ...],
    points: tuple[int, ...],
    /,
) -> None: ...
