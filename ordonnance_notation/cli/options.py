"""The options that several commands share, declared once."""

from __future__ import annotations

import math
from enum import Enum
from typing import Annotated

import typer


class Format(str, Enum):
    text = "text"
    json = "json"


class Rule(str, Enum):
    classic = "classic"
    points = "points"


Paths = Annotated[
    list[str],
    typer.Argument(
        help="Files, directories (every *.ord below) or - for standard input.",
        show_default=False,
        metavar="PATH",
    ),
]
FormatOption = Annotated[
    Format, typer.Option("--format", "-f", help="text for people, json for programs.")
]
Jobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        min=0,
        help="Processes to read records on; 0: every core for inputs of 1 MB or more, else one.",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Work on the workers of this Dask scheduler (tcp://HOST:8786) instead of "
        "--jobs; needs pip install 'ordonnance-notation[dask]'.",
        show_default=False,
    ),
]
Seed = Annotated[
    str | None,
    typer.Option(
        "--seed",
        "-s",
        help="Any text; the same seed gives the same output. Default: a fresh random seed.",
    ),
]
DeckFile = Annotated[
    str | None,
    typer.Option(
        "--deck", help="A deck file (YAML); default: the reference deck (not the publisher's list)."
    ),
]
Scoring = Annotated[Rule, typer.Option("--scoring", help="classic (most states) or points.")]
Points = Annotated[
    str | None, typer.Option("--points", help="Points by rank for --scoring points, e.g. '3 1 0'.")
]
Output = Annotated[
    str, typer.Option("--output", "-o", help="A file to write, or - for standard output.")
]
Force = Annotated[bool, typer.Option("--force", help="Replace the output file if it exists.")]
RecordNumber = Annotated[
    int | None,
    typer.Option("--record", "-r", min=1, help="Which record of a multi-record file (from 1)."),
]
Decided = Annotated[
    bool,
    typer.Option(
        "--decided/--no-decided",
        help="Say when each state and the game were decided (ordo analyse); "
        "--no-decided is many times faster on big archives.",
    ),
]
BestPlay = Annotated[
    bool,
    typer.Option(
        "--best-play",
        help="Also every play under best play, every card known (records with a deal).",
    ),
]


def seconds(value: float) -> float:
    """A callback: a number of seconds is finite (click's range lets NaN by)."""
    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds")
    return value


UNLIMITED = "unlimited"


def budget(value: str | float) -> float:
    """The parser of --budget: seconds of CPU time, finite and not negative,
    or ``unlimited`` (math.inf)."""
    text = str(value).strip()
    if text.lower() == UNLIMITED:
        return math.inf
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number) or number < 0:
        raise typer.BadParameter(
            f"{text!r} is not a number of seconds of 0 or more "
            f"(for no limit at all, say --budget {UNLIMITED})"
        )
    return number


BudgetOption = Annotated[
    float,
    typer.Option(
        "--budget",
        parser=budget,
        metavar="SECONDS|unlimited",
        help="CPU seconds of best play a record, all of its cost (--best-play); beyond, "
        "what the bounds say. 'unlimited': no limit.",
    ),
]
