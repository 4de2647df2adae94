"""From a parsed record to typed game data: the header, the deal, the plays.

Here the words of a record get their meaning (cards, states, seats, the
scoring rule, the declared result) and every content error is reported:
E2xx codes. Nothing here knows the rules of play; the validator replays
what this module produced. The readers are by part: ``header``, ``deal``
and ``body``; what they fill in is ``meaning.Content``.
"""

from __future__ import annotations

from ..notation.record import Record
from .body import read_body, read_result_line
from .deal import read_deal
from .header import read_header
from .meaning import Broken, Content


def content_of(record: Record, broken: tuple[Broken, ...] = ()) -> Content:
    """The meaning of ``record``'s words, and every content error (E2xx).
    ``broken`` are the elements of a record read in part that could not be
    read: what they may have said is not reported missing, and the plays
    stop at the first of them in the body."""
    content = Content(record)
    kinds = {gap.kind for gap, _ in broken}
    content.diagnostics.extend(content.layout.misplaced)
    read_header(content, header_broken="tag" in kinds)
    if content.seats is not None:
        if kinds & {"hand", "pile"}:
            content.deal_ok = False
        else:
            read_deal(content)
        read_body(content, [b for b in broken if b[0].kind in _BODY_KINDS])
        read_result_line(content)
    return content


_BODY_KINDS = frozenset(("play", "words", "declared", "comment"))
