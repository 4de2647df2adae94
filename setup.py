"""The compiled core (ordonnance_notation/checking/_quick.c): built where a C
compiler is present; where it cannot be built, the install goes on and the
pure-Python path does its work (``ordo --version`` says which)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "ordonnance_notation.checking._quick",
            ["ordonnance_notation/checking/_quick.c"],
            optional=True,
        )
    ]
)
