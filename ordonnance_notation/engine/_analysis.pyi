# The analysis in C (_analysis_module.c); analysis.py is its Python face.
from collections.abc import Callable
from typing import Protocol

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

class _Search(Protocol):
    """A question of the compiled search (bestplay.Solver._asked): at_least
    asks ``of`` = v, wins ``of`` = the seat, selfish ``of`` = 0 (unused)."""

    def __call__(
        self,
        game: int,
        cards: tuple[bytes, ...],
        ply: int,
        pile: bytes,
        hands: tuple[bytes, ...],
        pools: tuple[bytes, ...],
        armies: tuple[int, ...],
        markers: tuple[int, ...],
        leaders: tuple[int, ...],
        of: int,
        most: int,
        seconds: float,
        watch: Callable[[], object] | None = None,
        /,
    ) -> tuple[int, int]: ...

at_least: _Search
wins: _Search
selfish: _Search
