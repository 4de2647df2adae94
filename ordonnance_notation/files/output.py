"""Writing files safely: beside the target first, then renamed over it, so an
interrupted run never leaves a half-written file."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import tempfile
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

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


class ChangedSince(OSError):
    """The file was changed by someone else after it was read: not replaced."""


def snapshot(path: str | Path) -> os.stat_result:
    """What ``write_atomic`` compares, to see that a file read now is the same
    file, unchanged, when it is replaced."""
    return os.stat(os.path.realpath(path))


def _same(before: os.stat_result, now: os.stat_result) -> bool:
    return (before.st_ino, before.st_size, before.st_mtime_ns) == (
        now.st_ino,
        now.st_size,
        now.st_mtime_ns,
    )


def write_atomic(
    path: str | Path,
    text: str | Iterable[str],
    overwrite: bool = False,
    read: os.stat_result | None = None,
) -> None:
    """Write ``text`` (or its pieces, as they come) to ``path`` (UTF-8),
    through ``atomic_file``: the file is whole, old or new, whatever happens.
    Raises OutputExists when the file exists and ``overwrite`` is false,
    ChangedSince when ``read`` (a ``snapshot`` taken when the file was read)
    no longer describes it, OSError when it cannot be written."""
    with atomic_file(path, overwrite, read) as stream:
        if isinstance(text, str):
            stream.write(text)
        else:
            stream.writelines(text)


@contextlib.contextmanager
def atomic_file(
    path: str | Path,
    overwrite: bool = False,
    read: os.stat_result | None = None,
    binary: bool = False,
) -> Iterator[IO[Any]]:
    """A stream to write ``path`` through (text, UTF-8 with LF line ends; or
    bytes with ``binary``), through a symbolic link to the file it names:
    written beside it, flushed to the disk when the ``with`` ends, then
    renamed over it, so that the file is whole, old or new, whatever happens
    (an exception in the ``with``, a full disk, SIGINT or SIGTERM); the
    temporary file never stays behind. The file's permissions, and its owner
    and group where permitted, are kept; a file with other hard links is
    replaced under this name only (the other names keep the old text).
    Raises OutputExists on entry when the file exists and ``overwrite`` is
    false; on exit ChangedSince when ``read`` (a ``snapshot`` taken when the
    file was read) no longer describes it; OSError when it cannot be written."""
    target = Path(os.path.realpath(path))
    if target.exists() and not overwrite:
        raise OutputExists(str(target))
    with _terminated_as_interrupted():
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or "."
        )
        try:
            with (
                os.fdopen(handle, "wb")
                if binary
                else os.fdopen(handle, "w", encoding="utf-8", newline="\n")
            ) as stream:
                yield stream
                stream.flush()
                os.fsync(stream.fileno())
            _keep_owner_and_mode(temporary, target)
            if read is not None and not _same(read, target.stat()):
                raise ChangedSince(f"{target} was changed after it was read")
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    _sync_directory(target.parent)


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    """SIGTERM, while a file is written, ends the process by an exception
    (status 143, as the signal would), so that the temporary file is removed
    on the way (the default would end the process at once)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _keep_owner_and_mode(temporary: str, target: Path) -> None:
    try:
        status = target.stat()
    except FileNotFoundError:
        os.chmod(temporary, _mode_for(target))
        return
    if hasattr(os, "chown"):
        with contextlib.suppress(PermissionError):  # only root may give a file away
            os.chown(temporary, status.st_uid, status.st_gid)
    os.chmod(temporary, status.st_mode & 0o7777)


def _sync_directory(directory: Path) -> None:
    """The rename, flushed to the disk too (where a directory can be opened)."""
    try:
        handle = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(handle)
    finally:
        os.close(handle)


def _mode_for(target: Path) -> int:
    """The file's own permissions when it exists, else what the umask allows."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
