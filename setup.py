"""The compiled twins (checking/_quick.c, making/_selfplay.c; engine/compiled.py):
built where a C compiler is present; where it cannot be built, the install goes on and the
pure-Python path does its work (``ordo --version`` says which)."""

from setuptools import Extension, setup

RULES = [
    "ordonnance_notation/engine/_rules.h",
    "ordonnance_notation/engine/_analysis.h",
    "ordonnance_notation/engine/_analysis_py.h",
    "ordonnance_notation/engine/_bestplay.h",
]

setup(
    ext_modules=[
        Extension(
            "ordonnance_notation.engine._analysis",
            ["ordonnance_notation/engine/_analysis_module.c"],
            depends=RULES,
            optional=True,
        ),
        Extension(
            "ordonnance_notation.checking._quick",
            ["ordonnance_notation/checking/_quick.c"],
            depends=[*RULES, "ordonnance_notation/checking/_cutting.h"],  # notation/cut_header.py
            optional=True,
        ),
        Extension(
            "ordonnance_notation.making._selfplay",
            ["ordonnance_notation/making/_selfplay.c"],
            depends=RULES,
            optional=True,
        ),
    ]
)
