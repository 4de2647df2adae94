"""``ordo summary``'s text of a plain record the compiled core read: written
from the record as replayed (``summary.core_text``) by the pieces of
``render_text``, byte for byte what the Python path writes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest

from ordonnance_notation.checking import quick
from ordonnance_notation.checking.replayed import Replayed
from ordonnance_notation.engine import analysis as engine_analysis
from ordonnance_notation.runs.workers import Workers
from ordonnance_notation.views import summary
from ordonnance_notation.views.report import visible

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
NEEDS_CORE = pytest.mark.skipif(quick.CHECK_BLOCK is None, reason="no compiled core")


@contextmanager
def _pure_python() -> Iterator[None]:
    """Every record by the Python path, as with ``ORDO_PURE_PYTHON=1``."""
    with (
        mock.patch.object(quick, "CHECK_BLOCK", None),
        mock.patch.object(engine_analysis, "CORE", None),
    ):
        yield


def _text(paths: list[Path], decided: bool) -> list[str]:
    """``ordo summary``'s text of ``paths``, a record at a time."""
    laid = summary.summaries([str(path) for path in paths], "text", Workers(1), decided)
    entries = [str(entry) for entry in laid]
    assert laid.invalid == 0
    return entries


def _renamed(tmp_path: Path, sample: str, names: dict[str, str]) -> Path:
    """The records of a sample, its players' tags given other names."""
    text = (SAMPLES / sample).read_text("utf-8")
    for tag, name in names.items():
        text = "\n".join(
            f'[{tag} "{name}"]' if line.startswith(f"[{tag} ") else line
            for line in text.split("\n")
        )
    path = tmp_path / sample
    path.write_text(text, "utf-8")
    return path


@NEEDS_CORE
@pytest.mark.parametrize("decided", [True, False])
def test_the_text_of_a_plain_record_is_written_from_what_the_core_replayed(
    tmp_path: Path, decided: bool
) -> None:
    """Classic and points scoring, two and four seats, names of every width
    and one a terminal would not show (a zero-width space): each record's
    text from the core's ``Replayed`` (never a ``RecordSummary``), the same
    bytes as the Python path's."""
    paths = [
        SAMPLES / "classic-2.ord",
        SAMPLES / "points-4.ord",
        _renamed(tmp_path, "classic-2.ord", {"P1": "Zoë\u200bWinter", "P2": "Li"}),
    ]
    written = mock.patch.object(summary, "core_text", wraps=summary.core_text)
    made = mock.patch.object(summary, "core_summary", wraps=summary.core_summary)
    with written as core_text, made as core_summary:
        by_core = _text(paths, decided)
    assert core_text.call_count == len(by_core) == 3
    assert core_summary.call_count == 0
    with _pure_python():
        assert _text(paths, decided) == by_core
    assert ("When it was decided" in by_core[0]) is decided
    assert "Points   " in by_core[1] and "Points   " not in by_core[0]
    assert "P1 Zoë<U+200B>Winter" in by_core[2]


@NEEDS_CORE
def test_only_the_names_in_a_summary_s_text_are_shown_as_visible_shows_them() -> None:
    """``core_text`` asks ``visible`` of the players' names alone: the rest
    is words of ours, which it leaves alone. Its text is the pure writer's
    (``render_text`` of ``core_summary``) through ``visible``, names that
    recolour and reorder what follows them too."""
    text = (SAMPLES / "points-4.ord").read_text("utf-8") + "\n"
    text += (SAMPLES / "classic-2.ord").read_text("utf-8")
    found = quick.replayed_block(1, text, analysed=True)
    assert found is not None
    replayed = [item for item in found if isinstance(item, Replayed)]
    assert len(replayed) >= 2 and all(item.plain for item in replayed)
    hostile = ("\x1b[31mRed", "A\u202eB", "\u200b", "\t")
    for item in replayed:
        for names in (item.names, hostile[: item.seats]):
            odd = item._replace(names=names)
            for decided in (True, False):
                pure = summary.render_text(summary.core_summary("x.ord", 7, odd, decided))
                assert pure.startswith("x.ord, record 7")
                assert summary.core_text(odd, decided) == visible(pure[len("x.ord, record 7") :])
