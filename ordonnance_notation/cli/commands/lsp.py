"""``ordo lsp``."""

from __future__ import annotations

import typer

from ...runs.tally import EXIT_USAGE
from ..console import console

NAME = "lsp"
SHORT = "A language server for .ord files: editors check as you type."
NEEDS = "pip install 'ordonnance-notation[lsp]'"


def command() -> None:
    """Serve an editor over standard input and output with the Language Server
    Protocol: ordo validate's diagnostics as you type, the table after a ply
    on hover, the legal plays as completions, ordo fix's fixes and the
    did-you-mean words as code actions, ordo fmt as formatting, and an
    outline of the records. docs/editors.md says how to set up VS Code,
    Neovim and Helix. Needs pygls (pip install 'ordonnance-notation[lsp]').
    """
    try:
        from ...editor.server import serve
    except ModuleNotFoundError as missing:
        if (missing.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        console(stderr=True).print(f"ordo lsp needs pygls: {NEEDS}", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_USAGE) from None
    serve()
