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

def check_block(
    text: str, first_line: int, judge: Callable[[str], bool], /
) -> tuple[int, list[Declined | Accepted]] | None: ...
def configure(
    icons: str,
    states: tuple[tuple[str, str], ...],
    glyphs: tuple[str, ...],
    points: tuple[int, ...],
    /,
) -> None: ...
