"""The page of ``ordo view``: its shell, style and script, read by ``views.page``."""
