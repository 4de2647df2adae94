"""``python -m ordonnance_notation`` runs the ``ordo`` command."""

from .cli.app import run

run()
