"""``ordo explain CODE``: the page of a diagnostic code, from docs/diagnostics.md.

The page is the one the documentation shows (installed with the package as
``ordonnance_notation.docs``): what triggers the code, an example with its
real output, and how to fix the record. Nothing is written twice: the
catalogue of codes is ``diagnostics.CODES``, the text is the documentation's.
"""

from __future__ import annotations

import difflib
import re

from ..diagnostics import CODES
from ..notation.terminals import packaged_folder

_HEADING = re.compile(r"^### ([EWN][0-9]{3}) — ", re.MULTILINE)
_NEXT = re.compile(r"^#{1,3} ", re.MULTILINE)


class UnknownCode(ValueError):
    """Not a code of the catalogue; the message says which ones are near."""


def explanation(code: str) -> str:
    """The section of docs/diagnostics.md for ``code`` (any case), as Markdown.
    Raises UnknownCode."""
    wanted = code.strip().upper()
    if wanted not in CODES:
        near = difflib.get_close_matches(wanted, list(CODES), n=3, cutoff=0.5)
        hint = f"; did you mean {' or '.join(near)}?" if near else ""
        raise UnknownCode(f"{code!r} is not a diagnostic code{hint} (`ordo explain` lists them)")
    page = (packaged_folder("docs") / "diagnostics.md").read_text("utf-8")
    for match in _HEADING.finditer(page):
        if match.group(1) == wanted:
            end = _NEXT.search(page, match.end())
            return page[match.start() : end.start() if end else len(page)].rstrip() + "\n"
    raise UnknownCode(f"{wanted} has no page in the documentation")  # a test keeps them paired


def catalogue() -> str:
    """Every code with its title, one a line."""
    return "".join(f"{code}  {title}\n" for code, title in CODES.items())
