"""Writing files safely: beside the target first, then renamed over it, so an
interrupted run never leaves a half-written file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputExists(FileExistsError):
    pass


def write_atomic(path: str | Path, text: str, overwrite: bool = False) -> None:
    """Write ``text`` to ``path`` (UTF-8). Raises OutputExists when the file
    exists and ``overwrite`` is false, OSError when it cannot be written."""
    target = Path(path)
    if target.exists() and not overwrite:
        raise OutputExists(str(target))
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
