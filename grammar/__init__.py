"""The .ord grammar, installed as the package ``ordonnance_notation.grammar``."""
