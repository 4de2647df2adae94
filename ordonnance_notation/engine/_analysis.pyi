# The analysis in C (_analysis_module.c); analysis.py is its Python face.
from .decisions import Found

def configure(packed: tuple[int, ...], /) -> tuple[int, ...]: ...
def analyse(
    hands: tuple[bytes, ...] | int,
    pile: bytes,
    draws_known: bool,
    plays: bytes,
    points: tuple[int, ...] | None,
    /,
) -> Found | None: ...
