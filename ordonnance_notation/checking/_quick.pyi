# The compiled core's one function (_quick.c); quick.py is its Python face.
from collections.abc import Callable

from ..engine.cards import Card, State

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
# plays (as kept), states, game, exact (analysis_of)
AnalysisFound = tuple[bytes, tuple[StateFound, ...], GameFound, bool]
TextFound = tuple[tuple[tuple[str, str], ...], str]  # the tags as (name, value), the text (text_of)
# text_of's, the hands as dealt, the pile, the plays (configure_values's values), the
# points table (() classic), how plainly the plays are written (0 not, 1 without seats,
# 2 every one with its seat; + 4: the deal in seat order, then the pile), each marker's
# armies by place as (seat, ply of the fourth card, packed icons), the analysis if asked
# (replayed_of)
ReplayFound = tuple[
    TextFound,
    tuple[tuple[Card, ...], ...],
    tuple[Card, ...],
    tuple[tuple[Card, State], ...],
    tuple[int, ...],
    int,
    tuple[tuple[tuple[int, int, int], ...], ...],
    tuple[int | None, int | None],  # the winner by classic scoring, by points scoring
    AnalysisFound | int | None,  # extra 5: the analysis; 6: the ply the game was decided
]
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
    ReplayFound,
]  # Accepted, then what Replayed holds (extra 4 to 6)

def check_block(
    text: str,
    first_line: int,
    judge: Callable[[str], bool],
    extra: int = 0,
    through: int = ...,
    /,
) -> tuple[int, list[Declined | Accepted | Found]] | None: ...
def configure_values(
    cards: tuple[Card | None, ...], plays: tuple[tuple[Card, State] | None, ...], /
) -> None: ...
def configure_analysis(packed: tuple[int, ...], /) -> tuple[int, ...]: ...
def configure(
    icons: str,
    states: tuple[tuple[str, str], ...],
    glyphs: tuple[str, ...],
    points: tuple[int, ...],
    obeyed: tuple[tuple[int, int], ...],
    /,
) -> None: ...
