"""The ``ordo`` command line."""
