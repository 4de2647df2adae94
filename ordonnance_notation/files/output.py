"""Writing files safely: an unnamed file beside the target first, then given
its name, so an interrupted run never leaves a half-written file (nor a
temporary); a file that is not a regular one is written through."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from signal import SIGTERM
from typing import IO, Any

from ..diagnostics import Diagnostic, InputError

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
    """The file to write exists, and replacing it was not asked for: it is left as it was."""


class NotOwned(PermissionError):
    """The file belongs to another user: a new file put in its place would be
    this user's (only root can give it back), so it is not replaced."""


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
    """A stream to write ``path`` through, as ``output_file`` gives it: the
    file appears, whole, when the ``with`` ends without an exception."""
    with output_file(path, overwrite, read, binary) as sink:
        yield sink.stream


class Sink:
    """An output being written: ``stream`` takes the text (or bytes), and
    the file appears when its ``output_file`` ends, unless ``discard`` was
    called or an exception ended it. A file that is not a regular one (a
    terminal, ``/dev/null``, a pipe) is written through as the text comes."""

    def __init__(self, stream: IO[Any], through: bool) -> None:
        self.stream = stream
        self.through = through
        self.discarded = False

    def discard(self) -> None:
        """Nothing is to be kept: the file stays as it was (or missing)."""
        self.discarded = True


@contextlib.contextmanager
def output_file(
    path: str | Path,
    overwrite: bool = False,
    read: os.stat_result | None = None,
    binary: bool = False,
) -> Iterator[Sink]:
    """The one way a file is written (text, UTF-8 with LF line ends; or
    bytes with ``binary``), through a symbolic link to the file it names.

    A regular file (or none yet) is written as an unnamed file in its folder
    (``O_TMPFILE``, where the system has it; else a temporary named for this
    process), flushed to the disk when the ``with`` ends, then given the
    name, so that the file is whole, old or new, whatever happens (an
    exception in the ``with``, a full disk, SIGINT, SIGTERM, even SIGKILL:
    an unnamed file goes with the process, and the temporaries of a process
    that is gone are removed by the next write beside them). Its
    permissions, and its owner and group where permitted, are kept; a file
    with other hard links is replaced under this name only; one owned by
    another user is refused (``NotOwned``) unless this is root, since only
    root can give it back to its owner. Any other file
    (a character device such as ``/dev/null``, a FIFO) is written through,
    never replaced, and never refused as existing.

    Raises OutputExists on entry when a regular file exists and ``overwrite``
    is false, and on exit when one appeared meanwhile (another writer's: it
    is kept); on exit ChangedSince when ``read`` (a ``snapshot`` taken when
    the file was read) no longer describes it; OSError when it cannot be
    written."""
    target = Path(os.path.realpath(path))
    try:
        found: os.stat_result | None = target.stat()
    except FileNotFoundError:
        found = None
    if found is not None and not stat.S_ISREG(found.st_mode) and not stat.S_ISDIR(found.st_mode):
        with _opened(os.open(target, os.O_WRONLY), binary) as stream:
            yield Sink(stream, through=True)
        return
    if found is not None and not overwrite:
        raise OutputExists(str(target))
    if found is not None and found.st_uid != os.geteuid() and os.geteuid() != 0:
        raise NotOwned(errno.EPERM, "the file is another user's", str(target))
    _remove_stale(target)
    with terminated_as_interrupted():
        handle, temporary = _unnamed(target)
        try:
            with _opened(handle, binary) as stream:
                sink = Sink(stream, through=False)
                yield sink
                if sink.discarded:
                    raise _Discarded
                stream.flush()
                os.fsync(stream.fileno())
                _keep_owner_and_mode(stream.fileno(), target)
                if read is not None and not _same(read, target.stat()):
                    raise ChangedSince(f"{target} was changed after it was read")
                if temporary is None:
                    temporary = _named(stream.fileno(), target)
            _give_name(temporary, target, overwrite)
        except _Discarded:
            pass
        finally:
            if temporary is not None:
                Path(temporary).unlink(missing_ok=True)
    _sync_directory(target.parent)


def _give_name(temporary: str, target: Path, overwrite: bool) -> None:
    """The finished file given its name. Without ``overwrite`` the name must
    still be free at this moment (another writer may have taken it since the
    check on entry): a hard link, or ``renameat2`` with ``RENAME_NOREPLACE``
    where the file system has no hard links, fails rather than replace it
    (OutputExists)."""
    if overwrite:
        os.replace(temporary, target)
        return
    try:
        os.link(temporary, target, follow_symlinks=False)
    except FileExistsError:
        raise OutputExists(str(target)) from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
            raise
        _rename_without_replacing(temporary, target)


RENAME_NOREPLACE = 1  # linux/fs.h


def _rename_without_replacing(temporary: str, target: Path) -> None:
    """``renameat2(..., RENAME_NOREPLACE)``; where the system has none, a check
    just before ``rename`` is the best that can be done."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        done = libc.renameat2(
            AT_FDCWD, os.fsencode(temporary), AT_FDCWD, os.fsencode(target), RENAME_NOREPLACE
        )
    except (OSError, AttributeError):
        done = None
    if done == 0:
        return
    failure = ctypes.get_errno() if done is not None else errno.ENOSYS
    if failure == errno.EEXIST or os.path.lexists(target):
        raise OutputExists(str(target))
    if failure not in (errno.ENOSYS, errno.EINVAL):
        raise OSError(failure, os.strerror(failure), str(target))
    os.rename(temporary, target)


class _Discarded(Exception):
    """The sink was discarded: leave the ``with`` without keeping the file."""


def _opened(handle: int, binary: bool) -> IO[Any]:
    if binary:
        return os.fdopen(handle, "wb")
    return os.fdopen(handle, "w", encoding="utf-8", newline="\n")


def _temporary_name(target: Path) -> str:
    """The name of a temporary of this process beside ``target``: the
    process's number in it says whose it is (``_remove_stale``)."""
    return f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"


def _unnamed(target: Path) -> tuple[int, str | None]:
    """A file to write beside ``target``: unnamed where the system can
    (``O_TMPFILE``: nothing is left if the process is killed), else a
    temporary of this process; and the temporary's path, if it has one."""
    folder = target.parent
    mode = _mode_for(target)
    unnamed = getattr(os, "O_TMPFILE", 0)
    if unnamed:
        try:
            return os.open(folder, unnamed | os.O_RDWR, mode), None
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                raise
    temporary = str(folder / _temporary_name(target))
    return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), temporary


def _named(handle: int, target: Path) -> str:
    """The unnamed file ``handle`` given a temporary name beside ``target``
    (to be renamed over it at once)."""
    temporary = str(target.parent / _temporary_name(target))
    if _link_open_file(handle, temporary):
        return temporary
    # a system that cannot name it: the text copied to a temporary of this process
    with open(temporary, "xb") as copy:
        os.lseek(handle, 0, os.SEEK_SET)
        while piece := os.read(handle, 1 << 20):
            copy.write(piece)
        os.fsync(copy.fileno())
    return temporary


AT_FDCWD, AT_SYMLINK_FOLLOW = -100, 0x400  # linux/fcntl.h


def _link_open_file(handle: int, path: str) -> bool:
    """``linkat`` of ``/proc/self/fd/N``, following the link to the open file
    (``os.link`` would call ``link``, which links the symbolic link itself)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        source = f"/proc/self/fd/{handle}".encode()
        done = libc.linkat(AT_FDCWD, source, AT_FDCWD, os.fsencode(path), AT_SYMLINK_FOLLOW)
    except (OSError, AttributeError):
        return False
    return bool(done == 0)


def _remove_stale(target: Path) -> None:
    """The temporaries beside ``target`` of processes that have ended
    (killed before they could remove them) are removed."""
    prefix = f".{target.name}."
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        middle = name[len(prefix) :].split(".")
        if len(middle) != 3 or middle[2] != "tmp" or not middle[0].isdigit():
            continue
        if not _running(int(middle[0])):
            with contextlib.suppress(OSError):
                os.unlink(target.parent / name)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's
    return True


@contextlib.contextmanager
def terminated_as_interrupted(*signums: int) -> Iterator[None]:
    """SIGTERM (or each of ``signums``), while a file is written, ends the
    process by an exception (status 128 + the signal's number, as the signal
    would), so that the temporary file is removed on the way (the default
    would end the process at once)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    before: dict[int, Any] = {}
    try:  # a signal refused (SIGKILL) or one that comes meanwhile: those taken are put back
        for signum in signums or (SIGTERM,):
            handler = signal.getsignal(signum)
            if handler is None:  # set outside Python: it could not be put back, so it is left
                continue
            signal.signal(signum, interrupted)
            before[signum] = handler
        yield
    finally:
        _put_back(before)


def _put_back(before: dict[int, Any]) -> None:
    """Each of ``before``'s handlers put back, even when one of the signals
    comes meanwhile: ``signal.signal`` runs a handler still ours first (which
    raises SystemExit), so the rest are put back before that is raised."""
    left, raised = dict(before), None
    for _ in range(2 * len(before) + 1):  # one exception at most from each signal still ours
        try:
            for signum in list(left):
                signal.signal(signum, left[signum])
                del left[signum]
            break
        except BaseException as problem:
            raised = raised or problem
    if raised is not None:
        raise raised


def _keep_owner_and_mode(handle: int, target: Path) -> None:
    try:
        status = target.stat()
    except FileNotFoundError:
        os.fchmod(handle, _mode_for(target))
        return
    if hasattr(os, "fchown"):
        with contextlib.suppress(PermissionError):  # only root may give a file away
            os.fchown(handle, status.st_uid, status.st_gid)
    os.fchmod(handle, status.st_mode & 0o7777)


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


def not_written(path: str, error: OSError) -> InputError:
    """Why ``path`` could not be written, as a problem to say."""
    if isinstance(error, ChangedSince):
        return InputError(
            Diagnostic(
                "E001",
                "was changed by something else while ordo read it: not rewritten",
                path,
                help="the other change is kept; run the command again to rewrite the file",
            )
        )
    if isinstance(error, NotOwned):
        return InputError(
            Diagnostic(
                "E001",
                "belongs to another user: not replaced (the new file would be yours)",
                path,
                help="ask its owner to run the command, or write the output to another file",
            )
        )
    return InputError(
        Diagnostic(
            "E001",
            f"cannot be written: {error.strerror}",
            path,
            help="check the folder exists and you may write in it",
        )
    )
