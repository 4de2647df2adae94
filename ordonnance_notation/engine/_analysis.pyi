# The analysis in C (_analysis_module.c); analysis.py is its Python face.
from collections.abc import Callable

from .decisions import Found

MAX_SEATS: int
HAND_SIZE: int
MAX_PILE: int
MAX_PLIES: int

def configure(packed: tuple[int, ...], /) -> tuple[int, ...]: ...
def analyse(
    hands: tuple[bytes, ...] | int,
    pile: bytes,
    draws_known: bool,
    plays: bytes,
    points: tuple[int, ...] | None,
    /,
) -> Found | None: ...
def at_least(
    game: int,
    cards: tuple[bytes, ...],
    ply: int,
    pile: bytes,
    hands: tuple[bytes, ...],
    pools: tuple[bytes, ...],
    armies: tuple[int, ...],
    markers: tuple[int, ...],
    leaders: tuple[int, ...],
    v: int,
    most: int,
    seconds: float,
    watch: Callable[[], object] | None = None,
    /,
) -> tuple[int, int]: ...
def wins(
    game: int,
    cards: tuple[bytes, ...],
    ply: int,
    pile: bytes,
    hands: tuple[bytes, ...],
    pools: tuple[bytes, ...],
    armies: tuple[int, ...],
    markers: tuple[int, ...],
    leaders: tuple[int, ...],
    seat: int,
    most: int,
    seconds: float,
    watch: Callable[[], object] | None = None,
    /,
) -> tuple[int, int]: ...
def selfish(
    game: int,
    cards: tuple[bytes, ...],
    ply: int,
    pile: bytes,
    hands: tuple[bytes, ...],
    pools: tuple[bytes, ...],
    armies: tuple[int, ...],
    markers: tuple[int, ...],
    leaders: tuple[int, ...],
    unused: int,
    most: int,
    seconds: float,
    watch: Callable[[], object] | None = None,
    /,
) -> tuple[int, int]: ...
