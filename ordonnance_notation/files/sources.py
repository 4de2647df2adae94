"""Where records come from: files, directories of ``*.ord`` files, standard input.

Text is UTF-8 (a byte-order mark is allowed) with any line endings. An input
that cannot be read raises UnreadableSource (E001) or SourceError (E002),
whose diagnostic says where and why.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import BinaryIO

from ..diagnostics import (
    Diagnostic,
    InputError,
    SourceError,
    Span,
    UnreadableSource,
    line_too_long,
)

STDIN = "-"
BLOCK = 1 << 16
MAX_LINE = 1 << 20  # a line of an input read a line at a time
MAX_HELD = 1 << 30  # a file read whole (its size is on the disk already)
MAX_PIPE = 1 << 28  # standard input or a pipe read whole: it may never end
MAX_RECORD = 1 << 22  # one record of an input read a block at a time


def source_name(path: str) -> str:
    """The name messages give an input: its path, or ``<stdin>`` for ``-``."""
    return "<stdin>" if path == STDIN else path


@dataclass(frozen=True, slots=True)
class Source:
    """One input read whole: its name for messages, and its text with every
    line end a LF; ``line_end`` and ``bom`` say how the file wrote them, so
    that a rewrite in place can keep them."""

    name: str
    text: str
    line_end: str = "\n"
    bom: bool = False
    stat: os.stat_result | None = field(default=None, compare=False)  # the file's, when read

    def as_written(self, text: str) -> str:
        """``text`` (LF line ends) with this file's line ends and byte-order mark."""
        if self.line_end != "\n":
            text = text.replace("\n", self.line_end)
        return "\ufeff" + text if self.bom else text

    def blocks(self) -> Iterator[list[str]]:
        """The lines of ``text`` split at every LF (a last line end gives a
        last empty line), about ``BLOCK`` characters of them at a time, as
        ``LineSource.blocks`` gives a file's."""
        start = 0
        while start < len(self.text):
            end = self.text.find("\n", start + BLOCK)
            if end < 0:
                yield self.text[start:].split("\n")
                return
            yield self.text[start:end].split("\n")
            start = end + 1
        if start == len(self.text):  # empty, or a line end last: its empty line
            yield [""]


def _utf16(data: bytes) -> bool:
    """A byte-order mark of UTF-16, or text whose every other byte is NUL."""
    head = data[:64]
    return (
        head[:2] in (b"\xff\xfe", b"\xfe\xff")
        or (
            len(head) >= 4
            and any(head)  # all NUL (/dev/zero) is no text at all
            and (head[1::2].count(0) == len(head[1::2]) or head[0::2].count(0) == len(head[0::2]))
        )
    )


def decode(data: bytes, name: str) -> Source:
    """Text from bytes: UTF-8 after an optional byte-order mark, any line ends.
    Offsets in the E002 message count from the first byte of the file. A NUL
    byte, valid UTF-8 but never text, is refused as E002 too. Raises SourceError."""
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    start = _first_bad(data, bom)
    if start is not None:
        line = data.count(b"\n", 0, start) + 1
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        problem = _not_utf8(name, data[start], start, line, column, _utf16(data))
        raise SourceError(problem)
    text = data[bom:].decode("utf-8")
    lf, cr = text.find("\n"), text.find("\r")
    line_end = "\n"
    if cr >= 0 and (lf < 0 or cr < lf):
        line_end = "\r\n" if text[cr + 1 : cr + 2] == "\n" else "\r"
    return Source(name, line_ends(text), line_end, bool(bom))


def line_ends(text: str) -> str:
    """``text`` with every line end a LF, as it reads from a file: CRLF and a
    lone CR end lines too."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _not_utf8(name: str, byte: int, offset: int, line: int, column: int, utf16: bool) -> Diagnostic:
    """E002, worded alike whether a file is read whole or a block at a time."""
    hint = " (it looks like UTF-16)" if utf16 else ""
    message = f"not UTF-8 text: byte 0x{byte:02x} at offset {offset}{hint}"
    help = (
        "save the file as UTF-8 (most editors offer it under 'Save as' or 'Encoding')"
        if byte
        else "a NUL byte is no text: this may not be a record file at all"
    )
    return Diagnostic("E002", message, name, Span(line, column, line, column + 1), help=help)


def _first_bad(data: bytes, skip: int = 0) -> int | None:
    """Offset of the first byte that is not UTF-8 text (a NUL counts as such), else None."""
    nul = data.find(b"\x00", skip)
    try:
        data[skip:].decode("utf-8")
        bad = None
    except UnicodeDecodeError as error:
        bad = error.start + skip
    found = [p for p in (bad, nul if nul >= 0 else None) if p is not None]
    return min(found) if found else None


def read_source(path: str, limit: int = MAX_HELD, what: str = "an input read whole") -> Source:
    """The text of a file, or of standard input for ``-``, of at most
    ``limit`` bytes (``what`` names such a file in the message), and of at
    most ``MAX_PIPE`` for standard input or a pipe. Reading stops at the
    first NUL byte. Raises UnreadableSource (E001) or
    SourceError (E002, or E007 beyond the limit)."""
    name = source_name(path)
    try:
        stream = sys.stdin.buffer if path == STDIN else open(path, "rb")  # noqa: SIM115
    except OSError as error:
        raise _unreadable(path, error) from None
    chunks: list[bytes] = []
    size = 0
    try:
        if stream is sys.stdin.buffer or not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            limit = min(limit, MAX_PIPE)
        while True:
            chunk = stream.read(min(BLOCK * 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if b"\x00" in chunk:
                break  # no text: said by decode, from what is read so far
            if size > limit:
                raise too_large(name, limit, what)
        status = os.fstat(stream.fileno()) if stream is not sys.stdin.buffer else None
    except OSError as error:
        raise _unreadable(path, error) from None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    source = decode(b"".join(chunks), name)
    return replace(source, stat=status) if status is not None and _regular(path) else source


def _unreadable(path: str, error: OSError) -> UnreadableSource:
    """E001, worded alike whether a file is read whole or a block at a time."""
    if isinstance(error, FileNotFoundError):
        why = "no such file"
    elif isinstance(error, IsADirectoryError):
        why = "is a directory"
    else:
        why = f"cannot be read: {error.strerror}"
    help = {
        "no such file": "check the name and the folder (paths are relative to where ordo runs)",
        "is a directory": "validate, stats and fmt read the .ord files of a directory; "
        "this command takes a file",
    }.get(why, "check the file's permissions")
    return UnreadableSource(Diagnostic("E001", why, path, help=help))


def read_sources(paths: Iterable[str]) -> Iterator[Source | InputError]:
    """Every file of ``paths`` (directories: the ``*.ord`` below) read whole,
    or the reason it cannot be, in its place."""
    for path in expand(paths):
        if isinstance(path, InputError):
            yield path
            continue
        try:
            yield read_source(path)
        except InputError as problem:
            yield problem


def _regular(path: str) -> bool:
    """A plain file: a directory walk skips pipes, sockets and devices, whose
    reading could block for ever (a pipe named on the command line is read)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # a broken or looping link: reading it reports why (E001)


def _files_below(directory: str) -> Iterator[str]:
    """The files below a directory, at any depth (a loop, not recursion: a
    tree thousands of levels deep is walked too), without following links to
    directories; directories that cannot be read are passed by."""
    waiting = [directory]
    while waiting:
        try:
            with os.scandir(waiting.pop()) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        waiting.append(entry.path)
                    else:
                        yield entry.path
        except OSError:
            continue


def expand(paths: Iterable[str]) -> Iterator[str | UnreadableSource]:
    """Each path as given, with directories replaced by the ``*.ord`` files below
    them (any case, sorted, symbolic links to directories not followed); a
    directory without one is an UnreadableSource in its place."""
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            found = sorted(
                file
                for file in _files_below(path)
                if os.path.basename(file).lower().endswith(".ord") and _regular(file)
            )
            if not found:
                yield UnreadableSource(
                    Diagnostic(
                        "E001",
                        "no .ord file in this directory",
                        path,
                        help="records are read from files named *.ord; name the files directly "
                        "to read others",
                    )
                )
            yield from found
        else:
            yield path


@dataclass
class LineSource:
    """An open input read a block of lines at a time, so that an archive of any size is held
    a few blocks at a time. ``lines()`` and ``blocks()`` raise SourceError at a byte that
    is not UTF-8."""

    name: str
    stream: BinaryIO
    longest: int = MAX_LINE  # bytes in a line, at most

    def lines(self) -> Iterator[str]:
        """The lines, without their ends."""
        for block in self.blocks():
            yield from block

    def blocks(self) -> Iterator[list[str]]:
        """The lines, without their ends, a block of about 64 KB at a time
        (``texts``, split)."""
        for text in self.texts():
            lines = text.split("\n")
            if lines[-1] == "":
                lines.pop()  # the block ended with a line end
            yield lines

    def texts(self) -> Iterator[str]:
        """The text, a block of whole lines of about 64 KB at a time, each
        ending with its line end (but the file's last line, if it has none),
        CRs dropped as ``lines`` drops them: a block of clean UTF-8 is
        decoded at once, and only a block holding a bad byte is read again
        line by line to say where it is (the lines before it come first)."""
        number = 0  # lines read so far
        offset = 0  # bytes read so far
        read = getattr(self.stream, "read1", self.stream.read)  # read1: no waiting on a pipe
        pending: list[bytes] = []  # a line longer than a block, so far
        held = 0  # bytes in pending
        try:
            while True:
                block = read(BLOCK)
                if block:
                    cut = block.rfind(b"\n") + 1
                    if not cut and b"\x00" not in block:
                        held += len(block)
                        if held > self.longest:
                            raise SourceError(line_too_long(self.name, number + 1, self.longest))
                        pending.append(block)
                        continue
                    if not cut:  # a NUL: not text, said at once (/dev/zero has no line end)
                        cut = len(block)
                    held = 0
                    data = b"".join(pending) + block[:cut] if pending else block[:cut]
                    pending = [block[cut:]] if cut < len(block) else []
                else:
                    data = b"".join(pending)
                    if not data:
                        return
                    pending = []
                text = None if b"\x00" in data else _decoded(data)
                if text is None:
                    good, problem = self._bad_byte(data, number, offset)
                    if good:
                        yield "\n".join(good) + "\n"
                    raise problem
                if number == 0 and text.startswith("\ufeff"):
                    text = text[1:]
                number += text.count("\n") + (bool(text) and not text.endswith("\n"))
                offset += len(data)
                yield "\n".join(_without_cr(text.split("\n"))) if "\r" in text else text
                if not block:
                    return
        finally:
            if self.stream is not sys.stdin.buffer:
                self.stream.close()

    def _bad_byte(self, data: bytes, number: int, offset: int) -> tuple[list[str], SourceError]:
        """The lines of ``data`` before its first byte that is not UTF-8 text,
        and the problem that byte is."""
        good: list[str] = []
        for raw in data.split(b"\n"):
            number += 1
            bad = _first_bad(raw)
            if bad is not None:
                problem = _not_utf8(
                    self.name, raw[bad], offset + bad, number, bad + 1, number == 1 and _utf16(raw)
                )
                shown = None if b"\x00" in raw else raw.decode("utf-8", "replace").rstrip("\r\n")
                return good, SourceError(problem, shown)
            line = raw.decode("utf-8")
            good.extend(
                _without_cr([line[1:] if number == 1 and line.startswith("\ufeff") else line])
            )
            offset += len(raw) + 1
        raise AssertionError("a block that does not decode holds a bad byte")


def too_large(name: str, limit: int, what: str) -> SourceError:
    """E007 for an input read whole that is larger than it may be."""
    return SourceError(
        Diagnostic(
            "E007",
            f"larger than {_size(limit)}, the most {what} may be",
            name,
            help="this may not be the file meant; such a file is read whole",
        )
    )


def _size(limit: int) -> str:
    return f"{limit >> 20} MB" if limit >= 1 << 20 else f"{limit >> 10} KB"


def _decoded(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _without_cr(lines: list[str]) -> Iterator[str]:
    """A CR before the line end is dropped; a CR inside a line ends it (old Mac files)."""
    for raw in lines:
        line = raw.removesuffix("\r")
        if "\r" in line:
            yield from line.split("\r")
        else:
            yield line


def open_source(path: str, longest: int = MAX_LINE) -> LineSource:
    """A file (or standard input for ``-``) to read a block at a time, its
    lines ``longest`` bytes at most. Raises UnreadableSource when it cannot
    be opened."""
    if path == STDIN:
        return LineSource(source_name(path), sys.stdin.buffer, longest)
    try:
        return LineSource(path, open(path, "rb"), longest)
    except OSError as error:
        raise _unreadable(path, error) from None
