"""What the tests share besides fixtures: paths, example counts, small
builders and Hypothesis strategies.

Test modules import from here and from nothing else in tests/ (fixtures come
from conftest.py); no test module imports another.

Example counts are written as they are in the ``default`` Hypothesis profile
and scale with the profile chosen by ``--hypothesis-profile`` (conftest.py
registers ``deep``): ``examples(500)`` is 500 by default and ten times as
many in ``deep``.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, settings

from ordonnance_notation.engine.armies import Army, Unit
from ordonnance_notation.engine.cards import Card

ROOT = Path(__file__).resolve().parent.parent  # the checkout
SAMPLES = ROOT / "samples"
TESTS = ROOT / "tests"

# Example counts ---------------------------------------------------------------

# max_examples of the default profile (Hypothesis's own default): the counts
# given to examples() and fuzz() are relative to it
DEFAULT_EXAMPLES = 100


def examples(count: int) -> int:
    """``count`` in the default profile, scaled to the loaded profile's
    max_examples. Call it when the tests are collected (in a decorator or
    at module level), after the plugin has loaded the profile."""
    return max(1, round(count * settings.default.max_examples / DEFAULT_EXAMPLES))


def fuzz(count: int) -> settings:
    """Hypothesis settings for a fuzz test: ``examples(count)`` examples, no
    deadline, and no health check on slow or large inputs (they are the point)."""
    return settings(
        max_examples=examples(count),
        deadline=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


# Builders ---------------------------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    """``cards("HF S L")`` -> three cards."""
    return tuple(Card.from_letters(word) for word in text.split())


def army(seat: int, text: str, plies: tuple[int, ...] | None = None) -> Army:
    """An army of ``seat`` from card letters; plies default to 1, 2, 3, 4."""
    played = cards(text)
    plies = plies or tuple(range(1, len(played) + 1))
    return Army(seat, tuple(Unit(card, ply) for card, ply in zip(played, plies, strict=False)))
