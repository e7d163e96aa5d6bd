"""Honest nights raise no shuffle finding more often than docs/rng.md says: over many seeds
of nights shuffled by Fisher-Yates, no night reaches ``minor`` (a family-wise rate of 1e-3 a
night, so none of these is expected), the nights whose smallest Holm-adjusted p-value is at
most 0.05 are about 5% of them (the correction is calibrated, not only conservative), and no
check's p-values fall below 0.01 more often than 1% of the time (within a binomial bound).

The nights cycle through three shoes: 1 deck and 1 printed joker (13 cards to 2 or 3
players), 2 decks and 2 printed jokers (13 cards to 2 to 6 players) and 3 decks and 6
printed jokers (21 cards to 2 to 6 players), each shoe dealt at one of eight tables, its
players sitting at random seats of six.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import pytest

from audit.findings import Severity
from audit.rules.ruleset import load_preset
from audit.shuffle.night import NULLS, run_tests
from audit.shuffle.shoes import NO_SEAT, Night, group_of
from tests.shuffle.shufflers import canonical, sorted_keys

NIGHTS = 240
SHOES = 1_500
TABLES = 8
SEATS = 6
SEED = 20_240
COMPOSITIONS = (
    # decks, printed jokers, cards a player, fewest and most players
    (1, 1, 13, 2, 3),
    (2, 2, 13, 2, 6),
    (3, 6, 21, 2, 6),
)
RULES = load_preset("standard-13")


@dataclass(frozen=True)
class Honest:
    smallest: list[float]
    """Per night, its smallest adjusted p-value."""
    failed: list[list[str]]
    """Per night, its results at minor or above (check: test)."""
    p_values: dict[str, list[float]]
    """Per check, its unadjusted p-values over every night."""


def _bound(share: float, trials: int) -> float:
    """The share plus three binomial standard errors."""
    return share + 3 * math.sqrt(share * (1 - share) / trials)


@pytest.fixture(scope="module")
def honest() -> Honest:
    smallest: list[float] = []
    failed: list[list[str]] = []
    p_values: dict[str, list[float]] = defaultdict(list)
    for night in range(NIGHTS):
        decks, jokers, cards, fewest, most = COMPOSITIONS[night % len(COMPOSITIONS)]
        rng = np.random.default_rng([SEED, night])
        codes = sorted_keys(canonical(decks, jokers), SHOES, rng)
        players = rng.integers(fewest, most + 1, SHOES)
        order = (rng.random((SHOES, SEATS)).argsort(axis=1) + 1)[:, :most]
        group = group_of(
            codes,
            decks=decks,
            printed_jokers=jokers,
            players=players,
            cards=cards,
            rules=RULES,
            tables=np.sort(rng.integers(0, TABLES, SHOES)),
            seats=np.where(np.arange(most)[None, :] < players[:, None], order, NO_SEAT),
        )
        results = [r for r in run_tests(Night([group])) if r.tested]
        smallest.append(min(r.adjusted_p or 1.0 for r in results))
        failed.append(
            [
                f"{r.check}: {r.test}"
                for r in results
                if r.severity is not None and r.severity.rank >= Severity.MINOR.rank
            ]
        )
        for r in results:
            assert r.p_value is not None
            p_values[r.check].append(r.p_value)
    return Honest(smallest, failed, dict(p_values))


def test_no_honest_night_fails(honest: Honest) -> None:
    """At most 1e-3 of honest nights reach minor: none of these."""
    assert [f for f in honest.failed if f] == []


def test_the_correction_is_calibrated(honest: Honest) -> None:
    """Holm's correction holds the family-wise error at any level: the nights with a test
    adjusted to 0.05 or less are at most 5% of them, within three standard errors."""
    share = float(np.mean(np.array(honest.smallest) <= 0.05))
    assert share <= _bound(0.05, NIGHTS), share


def test_no_check_is_anti_conservative(honest: Honest) -> None:
    """Every check runs on these nights, and each check's p-values fall at or below 0.01
    no more than 1% of the time, within three binomial standard errors."""
    assert set(honest.p_values) == set(NULLS)
    shares = {check: float(np.mean(np.array(p) <= 0.01)) for check, p in honest.p_values.items()}
    loose = {
        check: share
        for check, share in shares.items()
        if share > _bound(0.01, len(honest.p_values[check]))
    }
    assert loose == {}, shares
