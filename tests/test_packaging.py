"""pyproject.toml: what setuptools reads from it, in the forms it will go on accepting."""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")

PROJECT = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())


def test_the_license_is_an_spdx_expression() -> None:
    """A table (``{ text = "MIT" }``) is refused by setuptools from February 2027
    (issue 47 item 24)."""
    assert PROJECT["project"]["license"] == "MIT"
    [setuptools] = [r for r in PROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    assert setuptools == "setuptools>=77"  # the first to read project.license as SPDX


def test_every_package_folder_is_listed() -> None:
    """A folder of modules moved or added (``cli/commands/``) and left out of
    ``[tool.setuptools] packages`` is missing from a non-editable install,
    whose tests would fail far from the cause."""
    root = Path(__file__).parent.parent / "ordonnance_notation"
    folders = {
        ".".join(("ordonnance_notation", *init.parent.relative_to(root).parts))
        for init in root.rglob("__init__.py")
    }
    assert sorted(folders - set(PROJECT["tool"]["setuptools"]["packages"])) == []
