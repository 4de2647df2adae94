"""A command's verb over its inputs: the blocks of every input, mapped in
input order, each problem in its place and an input without a record
(E105) after the rest."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar

from ..diagnostics import InputError
from ..files.sources import expand
from .blocks import Block, input_blocks, unseen
from .workers import Pool


class Done(Protocol):
    """What a function mapped over blocks gives back: its input, and how many records it held."""

    @property
    def source(self) -> str: ...

    @property
    def records(self) -> int: ...


D = TypeVar("D", bound=Done)


def over_inputs(
    paths: Sequence[str], function: Callable[[Block], D], workers: Pool
) -> Iterator[D | InputError]:
    """``function`` over the blocks of ``paths`` (files, directories, ``-``) on
    ``workers``, each result in input order; an input that cannot be used
    (further) as an ``InputError`` in its place, and one without a record as
    E105 after the rest."""
    inputs = list(expand(paths))
    seen: set[str] = set()
    for done in workers.map(function, input_blocks(inputs)):
        if isinstance(done, InputError):
            seen.add(done.diagnostic.source)
        elif done.records:
            seen.add(done.source)
        yield done
    yield from unseen(inputs, seen)
