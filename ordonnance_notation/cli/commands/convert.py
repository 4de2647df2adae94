"""``ordo convert``."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from ...diagnostics import ArchiveError, ConversionError, InputError, UnreadableSource
from ...files.sources import STDIN
from ...views.report import diagnostic_text, problem_text, visible
from ..options import Force, Jobs, Output
from ..running import Run
from ..streams import frozen_heap, jobs_for, write_all

if TYPE_CHECKING:
    from ...runs.workers import Workers

NAME = "convert"
SHORT = "Convert between .ord text and YAML or JSON archives."


class ArchiveFormat(str, Enum):
    ord = "ord"
    yaml = "yaml"
    json = "json"


Inputs = Annotated[
    list[str],
    typer.Argument(
        help=".ord, .yaml/.yml or .json files, directories (every *.ord below) or - "
        "for standard input.",
        show_default=False,
        metavar="INPUT",
    ),
]
From = Annotated[
    ArchiveFormat | None,
    typer.Option("--from", help="The inputs' format (default: from each extension, else ord)."),
]
To = Annotated[
    ArchiveFormat | None,
    typer.Option(
        "--to",
        help="The output's format (default: from --output's extension; "
        "yaml for .ord input, ord for archives).",
    ),
]
WithResults = Annotated[
    bool,
    typer.Option(
        "--with-results",
        help="Add what the engine recomputes (validity, winner, scores, markers, diagnostics) "
        "to each archived record.",
    ),
]


def command(
    sources: Inputs,
    output: Output = "-",
    from_: From = None,
    to: To = None,
    with_results: WithResults = False,
    force: Force = False,
    jobs: Jobs = 0,
) -> None:
    """Convert between .ord text and YAML or JSON archives, losing nothing:
    every tag (unknown ones too), the deal, plays with comments and glyphs,
    declared resolutions and the result. The records of every input, in
    order, become one archive document (or one .ord text). Exit 1 for input
    that cannot be read as its format.
    """
    from ...archives.conversion import kinds
    from ...runs.workers import Workers

    run = Run()
    inputs = run.inputs(sources)
    source_kinds, target_kind = kinds(
        [p if p != STDIN else None for p in inputs],
        output if output != STDIN else None,
        from_.value if from_ else None,
        to.value if to else None,
    )
    with Workers(jobs_for(jobs, inputs)) as workers:
        pairs = list(zip(inputs, source_kinds, strict=True))
        _write(run, pairs, output, target_kind, with_results, force, workers)
    raise run.exit()


def _write(
    run: Run,
    sources: list[tuple[str, str]],
    output: str,
    kind: str,
    with_results: bool,
    force: bool,
    workers: Workers,
) -> None:
    """``ordo convert``, a record at a time, in flat memory, .ord text on
    ``workers``. A file is written whole or not at all; standard output gets
    the records up to the first that cannot be converted, then the errors
    and exit 1."""
    from ...archives.conversion import Inputs, RecordErrors, converted

    try:
        inputs = Inputs(sources)
    except InputError as problem:
        raise run.stop(problem) from None
    with run.output(output, force, [path for path, _kind in sources]) as out:
        try:
            write_all(out.stream, frozen_heap(converted(inputs, kind, workers, with_results)))
            return
        except RecordErrors as error:
            for diagnostic in error.diagnostics:
                first, text = error.texts.get((diagnostic.source, diagnostic.record or 0), (1, ""))
                run.err.print(diagnostic_text(diagnostic, text.split("\n"), first))
        except ConversionError as error:
            for diagnostic in error.diagnostics:
                run.err.print(diagnostic_text(diagnostic, None))
        except UnreadableSource as problem:
            raise run.stop(problem) from None
        except ArchiveError as problem:  # placed in the file: its line is shown
            span = problem.diagnostic.span
            shown = None if span is None else inputs.line(problem.diagnostic.source, span.line)
            lines = None if shown is None else [shown]
            run.err.print(diagnostic_text(problem.diagnostic, lines, span.line if span else 1))
        except InputError as problem:  # a byte that is not UTF-8, met on the way
            run.err.print(problem_text(problem))
        out.discard()
    what = (
        visible(", ".join(inputs.named)) if len(inputs.named) < 4 else f"{len(inputs.named)} inputs"
    )
    run.err.print(f"{what}: not converted")
    raise run.exit(failed=True)
