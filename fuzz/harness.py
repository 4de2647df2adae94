"""Coverage-guided fuzzing with Atheris (libFuzzer for Python) of the
readers of outside input: the .ord reader with the validator and the
canonical writer, the compiled core in every way the commands ask it to
read a block (``core``: check, analysis, pages, plays, games, export,
canonical text), the archive loader with conversion, and the deck loader.

    pip install '.[fuzz]'
    python fuzz/harness.py reader fuzz/corpus/reader -max_total_time=3600
    python fuzz/harness.py core fuzz/corpus/core -max_total_time=3600
    python fuzz/harness.py archive fuzz/corpus/archive -max_total_time=3600
    python fuzz/harness.py deck fuzz/corpus/deck -max_total_time=3600

The property is the one tests/test_fuzz.py checks with Hypothesis: only the
project's own errors (``OrdoError``) may escape. Anything else, a hang, or
memory beyond libFuzzer's ``-rss_limit_mb`` is a finding: libFuzzer writes
the input as ``crash-*``, ``timeout-*`` or ``oom-*``; it belongs in
tests/fuzz_corpus/, which every test run replays. A short run of each target
is part of the tests (tests/test_fuzz_coverage.py). A corpus directory that
does not exist yet is made and seeded (the samples, their archives, the bad
archives of tests/bad and tests/fuzz_corpus) and grows with each run
(fuzz/corpus/ is not kept in git).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from ordonnance_notation import parse_text, validate
    from ordonnance_notation.archives.conversion import canonical, convert
    from ordonnance_notation.checking import quick
    from ordonnance_notation.diagnostics import OrdoError
    from ordonnance_notation.files.sources import decode
    from ordonnance_notation.making.dealing import parse_deck
    from ordonnance_notation.notation.record import Record


def _text(data: bytes) -> str | None:
    try:
        return decode(data, "fuzz").text
    except OrdoError:
        return None


def reader(data: bytes) -> None:
    text = _text(data)
    if text is None:
        return
    for item in parse_text(text, "fuzz"):
        if isinstance(item, Record):
            validate(item)
    try:
        again = canonical(text, "fuzz")
    except OrdoError:
        return
    if canonical(again, "fuzz") != again:
        raise AssertionError("the canonical form is not stable")


def core(data: bytes) -> None:
    """Every way the commands have the compiled core read a block (nothing
    when it is not built: ``quick.compiled_core``)."""
    text = _text(data)
    if text is None or not quick.compiled_core():
        return
    quick.quick_block("fuzz", 1, text, with_json=True)
    quick.replayed_block(1, text)
    quick.replayed_block(1, text, analysed=True)
    quick.replayed_block(1, text, decided_by=len(data) % 90)


def archive(data: bytes) -> None:
    text = _text(data)
    if text is None:
        return
    for kind in ("yaml", "json"):
        try:
            convert(text, "fuzz", kind, "ord")
        except OrdoError:
            continue


def deck(data: bytes) -> None:
    text = _text(data)
    if text is None:
        return
    try:
        parse_deck(text, "fuzz")
    except OrdoError:
        return


TARGETS = {"reader": reader, "core": core, "archive": archive, "deck": deck}
ROOT = Path(__file__).resolve().parent.parent


def seed(target: str, corpus: Path) -> None:
    """A new corpus directory, with the inputs a run starts from."""
    corpus.mkdir(parents=True)
    tests = ROOT / "tests"
    samples = sorted((ROOT / "samples").glob("*.ord"))
    if target in ("reader", "core"):
        for path in [*samples, *(tests / "fuzz_corpus").glob("*.ord")]:
            shutil.copy(path, corpus / path.name)
    elif target == "archive":
        for path in samples:
            for kind in ("yaml", "json"):
                text = convert(path.read_text("utf-8"), path.name, "ord", kind)
                (corpus / f"{path.stem}.{kind}").write_text(text, "utf-8")
        for path in [*(tests / "bad").glob("archive-*"), *(tests / "fuzz_corpus").glob("*.*")]:
            if path.suffix != ".ord":
                shutil.copy(path, corpus / path.name)
    else:
        shutil.copy(ROOT / "ordonnance_notation" / "making" / "decks" / "reference.yaml", corpus)
        shutil.copy(ROOT / "docs" / "diagnostics" / "mine.yaml", corpus)


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        raise SystemExit(f"usage: harness.py {{{','.join(TARGETS)}}} [CORPUS] [-libfuzzer options]")
    name = sys.argv.pop(1)
    corpus = next((Path(a) for a in sys.argv[1:] if not a.startswith("-")), None)
    if corpus is not None and not corpus.exists():
        seed(name, corpus)
    atheris.Setup(sys.argv, TARGETS[name])
    atheris.Fuzz()


if __name__ == "__main__":
    main()
