"""Whether the compiled paths are used where they were built.

Three parts of the package have a compiled twin, built by ``pip install .``
where a C compiler is present: the quick check of ``ordo validate``
(``checking/quick.py``, which also analyses, counts and reads the tags of
the records it accepts), self-play between the built-in bots
(``making/selfplay.py``) and the analysis (``engine/analysis.py``). The
Python modules are the reference, and the tests hold each twin to them.
``ORDO_PURE_PYTHON=1`` in the environment turns every twin off, as
``MSGPACK_PUREPYTHON`` does for msgpack.
"""

from __future__ import annotations

import os

PURE_PYTHON = "ORDO_PURE_PYTHON"


def wanted() -> bool:
    """False when the environment asks for the Python paths alone."""
    return not os.environ.get(PURE_PYTHON)
