"""The ``ordo`` command: one module per command (``commands/``), each its
options, one library call, a reporter and the exit (``running.Run``); here
the commands are gathered, and ``run`` has the last word on what escapes them.

Exit codes: 0 every record valid; 1 some record invalid; 2 usage or I/O error.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from concurrent.futures import BrokenExecutor  # BrokenProcessPool, without importing the pool
from typing import Annotated

import typer

from ..diagnostics import Diagnostic
from ..runs.tally import EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_USAGE
from ..views.report import diagnostic_text
from .commands import (
    analyse,
    convert,
    deal,
    dedup,
    explain,
    explore,
    export,
    fix,
    fmt,
    lsp,
    match,
    play,
    replay,
    select,
    stats,
    summary,
    validate,
    view,
)
from .console import ReaderGone, checked_stdout, console, watch_the_reader
from .version import shown

__all__ = ["EXIT_INTERNAL", "app", "run"]

# Command-specific modules are imported inside their commands: `ordo validate`
# on a small file should not pay for YAML, multiprocessing or the bots.

app = typer.Typer(
    name="ordo",
    help="Record, validate and replay games of Ordonnance (The Kingdoms of Crusaders).",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain usage errors and help: one line, greppable, no boxes
)
# in the order of `ordo --help`
COMMANDS = [validate, deal, play, match, stats, export, select, dedup, explore, fmt, convert]
COMMANDS += [replay, fix]
COMMANDS += [explain, summary, analyse, view]
COMMANDS += [lsp]
for command in COMMANDS:
    app.command(command.NAME, short_help=command.SHORT)(command.command)
app.command("analyze", hidden=True)(analyse.command)  # as American English spells it
_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO}  # an output that takes no more


@app.callback()
def main(
    debug: Annotated[
        bool,
        typer.Option(
            "--debug", help="Show the traceback of an internal error (anywhere on the line)."
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=shown, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """Record, validate and replay games of Ordonnance (The Kingdoms of Crusaders)."""


def run(argv: list[str] | None = None) -> None:
    """The ``ordo`` command: ``app``, with the last word on what escapes it.
    A reader that goes away (``ordo ... | head``) ends the run quietly (the
    workers of ``--jobs`` too), with the status of a process ended by
    SIGPIPE; any other exception is a bug, said in one line with how to
    report it (exit 3), its traceback only with ``--debug``, which may stand
    anywhere on the command line."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    args = [arg for arg in args if arg != "--debug"]
    checked_stdout()
    watch_the_reader()
    try:
        try:
            app(args, prog_name="ordo")
        finally:
            sys.stdout.flush()  # what is still buffered must reach the output too, or fail here
    except (ReaderGone, BrokenPipeError):
        _quiet_stdout()
        sys.exit(EXIT_BROKEN_PIPE)
    except BrokenExecutor:
        lost = Diagnostic(
            "E008",
            "a worker process of --jobs ended before its work was done (killed, or out of "
            "memory?): the output is incomplete",
            "ordo",
            help="run again; with --jobs 1 the work is done in one process, without workers",
        )
        console(stderr=True).print(diagnostic_text(lost, None))
        sys.exit(EXIT_USAGE)
    except OSError as error:
        if debug or error.filename is not None or error.errno not in _FULL:
            raise
        _quiet_stdout()
        with contextlib.suppress(OSError):  # standard error may be full too: the status says it
            sys.stderr.write(
                f"<stdout>: error[E001]: cannot be written: {error.strerror}\n"
                "  = help: the output is incomplete: make room on the disk (or raise the "
                "file size limit) and run again\n"
            )
            sys.stderr.flush()
        sys.exit(EXIT_USAGE)
    except Exception as error:
        if debug:
            raise
        cause = str(error).strip().split("\n")[0][:200]
        sys.stderr.write(
            f"ordo: internal error: {type(error).__name__}{': ' + cause if cause else ''}\n"
            "  this is a bug in ordo, not in the input: please report it with the command "
            "line and the input; `--debug` shows where it happened\n"
        )
        sys.exit(EXIT_INTERNAL)


def _quiet_stdout() -> None:
    """Nothing more is written to standard output (no complaint at exit, flushing there)."""
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
