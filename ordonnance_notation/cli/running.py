"""A command's run, as the command line sees it: its problems said in their
place on standard error and counted in one ``Tally``, its output through
one sink, and one way out (``Run.exit``) by the tally's exit rule."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

import typer

from ..diagnostics import Diagnostic, InputError
from ..files.output import OutputExists, Sink, not_written, output_file
from ..files.sources import STDIN, expand
from ..runs.tally import EXIT_USAGE, Tally
from ..views.report import problem_text
from .console import console

T = TypeVar("T")


class Run:
    """What one command met: ``tally`` counts it, ``err`` says it."""

    def __init__(self) -> None:
        self.err = console(stderr=True)
        self.tally = Tally()

    def said(self, problem: InputError, unusable: bool = False) -> None:
        """``problem`` said in its place and counted; ``unusable``: an input or
        output that could not be used at all (exit 2), as an unreadable file is."""
        self.err.print(problem_text(problem))
        self.tally.add(problem)
        self.tally.unusable |= unusable

    def told(self, items: Iterable[T | InputError]) -> Iterator[T]:
        """``items`` but the inputs that cannot be used (further), each said in its place."""
        for item in items:
            if isinstance(item, InputError):
                self.said(item)
            else:
                yield item

    def stop(self, problem: InputError, unusable: bool = False) -> typer.Exit:
        """``problem`` said; the exit it makes (to raise)."""
        self.said(problem, unusable)
        return self.exit()

    def exit(self, failed: bool = False) -> typer.Exit:
        """The run's end, by the one exit rule (``Tally.status``); ``failed``:
        what the command itself found wanting."""
        return typer.Exit(self.tally.status(failed))

    def inputs(self, paths: Iterable[str]) -> list[str]:
        """``paths`` with directories replaced by the files below them; stops
        (2) at the first that cannot be used, saying why."""
        found = []
        for path in expand(paths):
            if isinstance(path, InputError):
                raise self.stop(path)
            found.append(path)
        return found

    @contextlib.contextmanager
    def output(
        self, name: str, force: bool, reading: Sequence[str] = (), hint: str = "--output"
    ) -> Iterator[Sink]:
        """Where the command writes ``name``: standard output for ``-``, else
        ``output_file``'s sink. The file appears only when the run succeeds:
        the ``with`` ends without an exception, no input or output was
        unusable and the command did not ``discard`` it. Refuses an output
        that is one of the inputs ``reading`` names (files, directories)."""
        if not name.strip():
            raise typer.BadParameter("name a file, or - for standard output", param_hint=hint)
        if name == STDIN:
            yield Sink(sys.stdout, through=True)
            return
        if any(isinstance(p, str) and _same_file(name, p) for p in expand(reading)):
            raise typer.BadParameter(
                "the output is an input: name another file (ordo fmt --write and ordo fix "
                "--write rewrite a file in place)",
                param_hint=hint,
            )
        try:
            with output_file(name, overwrite=force) as sink:
                yield sink
                if self.tally.status() == EXIT_USAGE:
                    sink.discard()
        except OutputExists:
            raise self.stop(already_exists(name), unusable=True) from None
        except OSError as error:
            raise self.stop(not_written(name, error), unusable=True) from None

    def progress(self, what: str, total: int | None = None) -> _Progress:
        """A progress line on a terminal (standard error), none elsewhere."""
        return _Progress(self, what, total)


class _Progress:
    def __init__(self, run: Run, what: str, total: int | None) -> None:
        from rich.progress import Progress

        self._bar = Progress(console=run.err, transient=True, disable=not run.err.is_terminal)
        self._task = self._bar.add_task(what, total=total)

    def __enter__(self) -> _Progress:
        self._bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._bar.__exit__(*exc)

    def advance(self, by: int = 1) -> None:
        self._bar.advance(self._task, by)

    def describe(self, what: str) -> None:
        """What the line says before its bar (a score so far)."""
        self._bar.update(self._task, description=what)


def already_exists(name: str) -> InputError:
    """An output file that is there already, not to be replaced without --force."""
    exists = Diagnostic(
        "E001", "already exists", name, help="pass --force to replace it, or name another file"
    )
    return InputError(exists)


def _same_file(one: str, other: str) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False
