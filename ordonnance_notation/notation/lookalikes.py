# ruff: noqa: RUF001, RUF002  (the look-alikes are the point)
"""Characters that look like the notation's own and are not: a Cyrillic В
typed for B, a Greek Ρ for P, a fullwidth Ｌ, a no-break space. Diagnostics
name such a character by its code point and say what was meant, since the
text looks right on screen."""

from __future__ import annotations

import unicodedata

from ..diagnostics import quoted

# Letters of other scripts drawn like Latin ones (capitals and the small ones
# that look alike); fullwidth forms and the like are told by NFKC.
_LATIN = {
    **dict(zip("АВЕЅІЈКМНОРСТХУ", "ABESIJKMHOPCTXY", strict=True)),  # Cyrillic
    **dict(zip("аеіјорсѕху", "aeijopcsxy", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),  # Greek
    **dict(zip("οκνρ", "okvp", strict=True)),
}


def latin(char: str) -> str | None:
    """The ASCII character ``char`` looks like, if it is not one."""
    if char.isascii():
        return None
    if char in _LATIN:
        return _LATIN[char]
    folded = unicodedata.normalize("NFKC", char)
    return folded if len(folded) == 1 and folded.isascii() and folded.isprintable() else None


def described(char: str) -> str:
    """``'В' (Cyrillic capital letter ve, U+0412)``; a character that shows
    nothing, or not itself, by its code point only: ``U+00A0 (no-break space)``;
    a letter or sign of ASCII as itself: ``'@'``."""
    if char.isascii() and char.isprintable() and char != " ":
        return f"'{char}'"
    code = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "").lower()
    if char.isprintable() and not char.isspace() and unicodedata.category(char) != "Cf":
        if name and name.split()[0] in ("cyrillic", "greek", "armenian", "latin", "fullwidth"):
            name = name[0].upper() + name[1:]
        return f"'{char}' ({name + ', ' if name else ''}{code})"
    return f"{code} ({name or 'a control character'})"


def in_latin(word: str) -> str:
    """``word`` with each character that looks like an ASCII one replaced by it."""
    return "".join(latin(char) or char for char in word)


def lookalike_help(word: str) -> str | None:
    """What ``word`` was meant to be when it holds characters that look like
    ASCII ones: ``'Р2' has 'Р' (Cyrillic capital letter er, U+0420), which
    looks like P: did you mean P2?``; None when it holds none."""
    odd = [char for char in dict.fromkeys(word) if latin(char) is not None]
    if not odd:
        return None
    if len(word) == 1:
        meant = _named(latin(word) or word)
        return f"{described(word)} looks like {meant} but is not: type {meant}"
    meant = in_latin(word)
    which = ", ".join(f"{described(c)}, which looks like {_named(latin(c) or c)}" for c in odd)
    shown, fixed = quoted(word), quoted(meant, marks=False)
    return f"{shown} has {which}: did you mean {fixed}? retype it in Latin letters"


def _named(char: str) -> str:
    return "a plain space" if char == " " else char
