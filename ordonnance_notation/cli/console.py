"""The consoles of the command line, and a standard output on which a reader
that went away is one exception, never a traceback."""

from __future__ import annotations

import io
import os
import select
import stat
import sys
from typing import IO

from rich.console import Console


def console(stderr: bool = False, file: IO[str] | None = None) -> Console:
    """Styles only on a terminal (Rich decides); a non-empty NO_COLOR turns
    off every style. ``file``: a stream to print to instead (an output file)."""
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(  # no markup: "[...]" in a message is a tag or a file name, printed as it is
        stderr=stderr,
        file=file,
        highlight=False,
        soft_wrap=True,
        markup=False,
        color_system=None if plain else "auto",
    )


class ReaderGone(Exception):
    """The reader of standard output went away (its pipe is closed)."""


class _Stdout(io.TextIOWrapper):
    """Standard output on which a closed pipe is ``ReaderGone``, no OSError:
    click would end the run with status 1 on one, and SIGPIPE's default would
    end the process at once, leaving the worker processes of ``--jobs``
    behind."""

    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except BrokenPipeError:
            raise ReaderGone from None

    def flush(self) -> None:
        try:
            super().flush()
        except BrokenPipeError:
            raise ReaderGone from None


def watch_the_reader() -> None:
    """Long work (a search, a judgement: ``engine.budget.Budget.watch``) asks
    now and then whether the reader of standard output went away, and ends
    with ReaderGone: ``ordo analyse --best-play ... | head`` stops within a
    second, not at its next write (output to a pipe is written in blocks).
    Only where standard output is a pipe, whose end the kernel says closed."""
    from ..engine.budget import Budget

    try:
        fd = sys.stdout.fileno()
        piped = stat.S_ISFIFO(os.fstat(fd).st_mode)
    except (OSError, ValueError):
        return
    if not piped:
        return
    poller = select.poll()
    poller.register(fd, 0)  # no event asked: a pipe without a reader says POLLERR all the same

    def watch() -> None:
        if poller.poll(0):
            raise ReaderGone

    Budget.watch = watch


def checked_stdout() -> None:
    """Standard output as a ``_Stdout``. Under PYTHONUNBUFFERED (or
    ``python -u``) it is a raw file, and a text stream over a raw file drops
    what a partial write left out (a full disk, a file-size limit) in
    silence: it is given a buffer, which finishes every write or raises,
    flushed at each line end."""
    out = sys.stdout
    if out is not sys.__stdout__ or not isinstance(out, io.TextIOWrapper):
        return  # a caller's own stream (a test's capture): theirs to check
    out.flush()
    encoding, errors, line_buffering = out.encoding, out.errors, out.line_buffering
    buffer = out.detach()
    if isinstance(buffer, io.RawIOBase):
        buffer, line_buffering = io.BufferedWriter(buffer), True
    sys.stdout = _Stdout(buffer, encoding=encoding, errors=errors, line_buffering=line_buffering)
    setattr(sys, "__stdout__", sys.stdout)  # noqa: B010  (the old one is detached: unusable)
