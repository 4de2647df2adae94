"""``python -m ordonnance_notation`` runs the ``ordo`` command."""

from .cli.app import app

app(prog_name="ordo")
