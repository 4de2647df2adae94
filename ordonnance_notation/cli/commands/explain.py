"""``ordo explain``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ..console import console

NAME = "explain"
SHORT = "What a diagnostic code means, with an example and a fix."

Code = Annotated[
    str | None,
    typer.Argument(help="A diagnostic code, e.g. E303; none lists them all.", metavar="CODE"),
]


def command(code: Code = None) -> None:
    """What a diagnostic code means, an example of it and how to fix the record:
    its page of docs/diagnostics.md. Without a code, the list of codes.
    """
    from ...views.explain import UnknownCode, catalogue, explanation

    if code is None:
        sys.stdout.write(catalogue())
        return
    try:
        page = explanation(code)
    except UnknownCode as error:
        raise typer.BadParameter(str(error), param_hint="CODE") from None
    out = console()
    if out.is_terminal:
        from rich.markdown import Markdown

        out.print(Markdown(page))
    else:
        sys.stdout.write(page)
