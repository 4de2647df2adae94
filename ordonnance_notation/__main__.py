"""``python -m ordonnance_notation`` runs the ``ordo`` command."""

from .cli import app

app(prog_name="ordo")
