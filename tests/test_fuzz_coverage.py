"""A short coverage-guided run of each Atheris target of fuzz/harness.py (the
reader, the archive loader, the deck loader), seeded with the samples, their
archives and tests/fuzz_corpus: nothing but the project's own errors may
escape, within libFuzzer's time and memory limits. The longer runs are the
commands in the harness's docstring."""

from __future__ import annotations

import subprocess
import sys

import pytest
from strategies import ROOT

pytest.importorskip("atheris", reason="the fuzz extra is not installed: pip install '.[fuzz]'")

HARNESS = ROOT / "fuzz" / "harness.py"


@pytest.mark.slow  # about ten seconds each
@pytest.mark.parametrize("target", ["reader", "core", "archive", "deck"])
def test_a_short_coverage_guided_run_finds_nothing(target, tmp_path):
    corpus = tmp_path / "corpus"  # made and seeded by the harness
    run = subprocess.run(
        [sys.executable, str(HARNESS), target, str(corpus), "-runs=1500", "-seed=1",
         "-rss_limit_mb=2048", "-timeout=20"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    findings = sorted(
        p.name for p in tmp_path.iterdir() if p.name.split("-")[0] in ("crash", "timeout", "oom")
    )
    assert run.returncode == 0 and not findings, run.stderr[-3000:]
    assert "Done 1500 runs" in run.stderr
