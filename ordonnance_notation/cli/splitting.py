"""``ordo select --split-by`` and ``--split-every``: the records written to
several files in one folder, each file through the run's one sink, so that
each appears whole or not at all."""

from __future__ import annotations

import contextlib
import re
import resource
from collections.abc import Iterable, Sequence
from pathlib import Path

import typer

from ..files.output import Sink
from .running import Run

_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]')
LONGEST = 100  # characters of a tag's value kept in a file's name


def part_name(value: str | None, tag: str) -> str:
    """The file name (without ``.ord``) for the records whose ``tag`` is ``value``."""
    if value is None:
        return f"(no {tag})"
    return _UNSAFE.sub("_", value).strip().lstrip(".")[:LONGEST].strip() or "_"


class Parts:
    """The files of a split, by the value of a tag: each value its own name,
    two values that would share one (``a/b``, ``a_b``; ``Lyon``, ``lyon``)
    told apart by a number."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.names: dict[str | None, str] = {}
        self.taken: set[str] = set()

    def name(self, value: str | None) -> str:
        name = self.names.get(value)
        if name is None:
            base = name = part_name(value, self.tag)
            number = 1
            while name.casefold() in self.taken:
                number += 1
                name = f"{base} ({number})"
            self.taken.add(name.casefold())
            self.names[value] = name
        return name


def write_split(
    run: Run,
    texts: Iterable[str],
    folder: str,
    force: bool,
    reading: Sequence[str],
    by: str | None,
    every: int | None,
) -> None:
    """Write ``texts`` to files in ``folder``: ``VALUE.ord`` for each value of
    the tag ``by``, or ``1.ord``, ``2.ord``, ... of ``every`` records each."""
    from ..querying.edits import tag_value

    if by and every:
        raise typer.BadParameter(
            "give one of --split-by and --split-every", param_hint="--split-by"
        )
    if folder == "-":
        raise typer.BadParameter("name a folder for the files of a split", param_hint="--output")
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise typer.BadParameter(f"{folder}: {error.strerror}", param_hint="--output") from None
    _most_files()
    parts = Parts(by or "")
    with contextlib.ExitStack() as files:
        sinks: dict[str, tuple[Sink, list[int]]] = {}
        for number, text in enumerate(texts):
            if every:
                name = str(number // every + 1)
                if name not in sinks:
                    files.close()  # the part before is whole: it appears now
            else:
                name = parts.name(tag_value(text, by or ""))
            if name not in sinks:
                path = str(Path(folder) / f"{name}.ord")
                sinks[name] = files.enter_context(run.output(path, force, reading)), [0]
            sink, written = sinks[name]
            sink.stream.write(("\n" if written[0] else "") + text)
            written[0] += 1


def _most_files() -> None:
    """As many files open at once as the system lets this process have (a part for each value)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
