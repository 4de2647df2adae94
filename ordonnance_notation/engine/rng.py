"""A portable random stream: the same seed gives the same numbers everywhere.

``random.shuffle`` promises no such thing across Python versions, so the
project specifies its own:

- A seed is text. Block ``i`` of its stream is ``SHA-256(seed + ":" + i)``
  (``i`` in decimal, UTF-8), read as four big-endian 64-bit words, first to last.
- ``below(n)`` takes the next word ``x``, rejects it while ``x >= 2**64 -
  (2**64 mod n)``, and returns ``x mod n``.
- ``shuffle`` is Fisher-Yates from the end: for ``i`` from ``len - 1`` down
  to 1, swap item ``i`` with item ``below(i + 1)``.
- ``choice(items)`` is ``items[below(len(items))]``.

Play-outs draw millions of numbers, too many for a hash a block, so they
may take a ``Stream64`` instead: the same ``below``, ``choice`` and
``shuffle`` on the words of SplitMix64 (Steele, Lea and Flood 2014) from a
64-bit state, the first eight bytes of ``SHA-256(seed)`` read big-endian;
the compiled play-outs run it themselves from that state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_WORD = 1 << 64


class Rng:
    """The project's portable random stream (see the module docstring)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._block = 0
        self._words: list[int] = []

    def _next_word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(f"{self.seed}:{self._block}".encode()).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()

    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1, every one equally likely."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _WORD - _WORD % n
        while True:
            word = self._next_word()
            if word < limit:
                return word % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


_MASK = _WORD - 1


class Stream64(Rng):
    """A faster stream for play-outs: SplitMix64 (the module docstring)."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.state = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")

    def _next_word(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)
