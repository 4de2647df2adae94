"""A command's verb over its inputs: the blocks of every input, mapped in
input order, each problem in its place and an input without a record
(E105) after the rest."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar

from ..diagnostics import InputError
from ..files.sources import expand
from .blocks import Block, by_record, input_blocks, unseen
from .workers import Pool


class Done(Protocol):
    """What a function mapped over blocks gives back: its input, and how many records it held."""

    @property
    def source(self) -> str: ...

    @property
    def records(self) -> int: ...


D = TypeVar("D", bound=Done)


def over_inputs(
    paths: Sequence[str], function: Callable[[Block], D], workers: Pool, one_by_one: bool = False
) -> Iterator[D | InputError]:
    """``function`` over the blocks of ``paths`` (files, directories, ``-``) on
    ``workers``, each result in input order; an input that cannot be used
    (further) as an ``InputError`` in its place, and one without a record as
    E105 after the rest. ``one_by_one``: a block a record (``by_record``)."""
    inputs = list(expand(paths))
    seen: set[str] = set()
    blocks = input_blocks(inputs)
    for done in workers.map(function, by_record(blocks) if one_by_one else blocks):
        if isinstance(done, InputError):
            seen.add(done.diagnostic.source)
        elif done.records:
            seen.add(done.source)
        yield done
    yield from unseen(inputs, seen)
