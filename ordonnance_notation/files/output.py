"""Writing files safely: beside the target first, then renamed over it, so an
interrupted run never leaves a half-written file."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_STRING = json.encoder.encode_basestring  # C when present
_WORDS = {True: "true", False: "false", None: "null"}


def json_text(value: Any, indent: int, level: int = 0) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=indent)`` for lists,
    mappings, strings, whole numbers, true, false and null, as if nested
    ``level`` deep (json's indenting encoder is pure Python, and slow)."""
    kind = type(value)
    if kind is str:
        text: str = _STRING(value)
        return text
    if kind is int:
        return int.__repr__(value)
    if kind is dict or kind is list:
        if not value:
            return "{}" if kind is dict else "[]"
        inner = "\n" + " " * (indent * (level + 1))
        if kind is dict:
            items = [_STRING(k) + ": " + json_text(v, indent, level + 1) for k, v in value.items()]
        else:
            items = [json_text(v, indent, level + 1) for v in value]
        ends = "{}" if kind is dict else "[]"
        return ends[0] + inner + ("," + inner).join(items) + "\n" + " " * (indent * level) + ends[1]
    if value is None or kind is bool:
        return _WORDS[value]
    raise TypeError(f"no JSON text is written of a {kind.__name__}")


class OutputExists(FileExistsError):
    pass


def write_atomic(path: str | Path, text: str | Iterable[str], overwrite: bool = False) -> None:
    """Write ``text`` (or its pieces, as they come) to ``path`` (UTF-8),
    through a symbolic link to the file it names. Raises OutputExists when the
    file exists and ``overwrite`` is false, OSError when it cannot be written;
    an exception while the pieces come leaves the file as it was."""
    target = Path(os.path.realpath(path))
    if target.exists() and not overwrite:
        raise OutputExists(str(target))
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or "."
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            if isinstance(text, str):
                stream.write(text)
            else:
                stream.writelines(text)
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(target: Path) -> int:
    """The file's own permissions when it exists, else what the umask allows."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
