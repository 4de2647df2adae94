# Self-play in C (_selfplay.c); playout.py is its Python face.
from collections.abc import Callable

def plays(
    hands: tuple[tuple[int, ...], ...],
    pile: tuple[int, ...],
    bots: tuple[int, ...],
    streams: tuple[Callable[[int], int], ...],
    /,
) -> list[tuple[int, int]]: ...
def configure(
    levels: tuple[int, ...],
    weights: tuple[int, ...],
    bonus: int,
    dump: float,
    kept_state: float,
    checked_plays: int,
    packed: tuple[int, ...],
    /,
) -> None: ...
def played_out(
    prefix: tuple[tuple[int, int], ...],
    hands: tuple[tuple[int, ...], ...],
    pile: tuple[int, ...],
    bots: tuple[int, ...],
    streams: tuple[Callable[[int], int] | int, ...],
    points: tuple[int, ...] = ...,
    /,
) -> tuple[int, tuple[int, ...]]: ...
