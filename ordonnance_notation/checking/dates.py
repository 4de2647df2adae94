"""The Date tag, read as a day where it is one: kept as written, never
checked (docs/notation.md), but the archive tools choose and order games by it."""

from __future__ import annotations

import re

_DATE = re.compile(r"(\d{4})(?:[.\-/](\d{1,2}|\?\?)(?:[.\-/](\d{1,2}|\?\?))?)?$")
Date = tuple[int, ...]  # year, month, day: as many as are known


def read_date(text: str) -> Date | None:
    """``2026.11.27`` (or with ``-`` or ``/``) as (2026, 11, 27); ``2026.11.??``
    as (2026, 11); None when it is no date."""
    match = _DATE.match(text.strip())
    if match is None:
        return None
    parts = [int(p) for p in match.groups() if p is not None and p != "??"]
    known = len(parts) if "??" not in match.groups() else match.groups().index("??")
    return tuple(parts[:known])
