"""``ordo --version``: the version installed and which paths are compiled."""

from __future__ import annotations

import typer


def _implementation() -> str:
    """Which compiled twins were built (engine/compiled.py): all, none, or which."""
    from ..checking.quick import compiled_core
    from ..engine.analysis import CORE
    from ..making.playout import PLAYS

    built = {
        "the quick check": compiled_core(),
        "self-play": PLAYS is not None,
        "the analysis": CORE is not None,
    }
    if all(built.values()):
        return "compiled core"
    if not any(built.values()):
        return "pure Python"
    return "compiled: " + ", ".join(name for name, done in built.items() if done)


def shown(asked: bool) -> None:
    """``--version``: say it and exit."""
    if asked:
        from importlib.metadata import version

        # __version__, as installed, and which paths are compiled
        typer.echo(f"ordo {version('ordonnance-notation')} ({_implementation()})")
        raise typer.Exit()
