"""The pages ``ordo explain`` reads, installed as the package ``ordonnance_notation.docs``."""
