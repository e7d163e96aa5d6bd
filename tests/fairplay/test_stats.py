"""The correction a screened family gets (audit/fairplay/stats.py, ``bh`` with ``m``):
Benjamini-Hochberg over the smallest p-values of a family, told the family's size, gives
each of them the q-value the whole family gives it, wherever that is at most the largest
p-value left out. ``engine.screened`` keeps the p-values at most the report threshold and
relies on this."""

from __future__ import annotations

import doctest
from fractions import Fraction
from math import comb, factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.fairplay import stats
from audit.fairplay.stats import bh

P = st.one_of(
    st.floats(0.0, 1.0),
    st.sampled_from([0.0, 1e-12, 0.001, 0.005, 0.01, 0.02, 1.0]),  # ties
)


@given(st.lists(P, min_size=1, max_size=300), st.sampled_from([0.001, 0.01, 0.05, 0.2]))
@settings(max_examples=400, deadline=None)
def test_bh_over_the_smallest_p_values_of_a_family_gives_their_family_q_values(
    ps: list[float], threshold: float
) -> None:
    p = np.array(ps)
    whole = bh(p)
    kept = p <= threshold
    part = bh(p[kept], m=p.size)
    reported = whole[kept] <= threshold
    assert np.array_equal(part <= threshold, reported)
    assert np.array_equal(part[reported], whole[kept][reported])


def _beta(x: int, y: int) -> Fraction:
    return Fraction(factorial(x - 1) * factorial(y - 1), factorial(x + y - 1))


@given(st.integers(1, 400), st.integers(1, 60), st.integers(1, 60), st.floats(0.0, 1.0))
@settings(max_examples=200, deadline=None)
def test_betabinom_sf_keeps_its_digits_far_in_the_tail(n: int, a: int, b: int, at: float) -> None:
    """A strong suspicion's p-value is its own: the beta-binomial tail against the exact
    sum of its terms (whole ``a`` and ``b``: each term a fraction), where scipy's 1 - cdf
    keeps no digit below about 1e-16."""
    k = round(at * n)
    exact = sum(comb(n, x) * _beta(x + a, n - x + b) / _beta(a, b) for x in range(k, n + 1))
    tail = stats.betabinom_sf(*(np.array([float(v)]) for v in (k, n, a, b)))
    assert float(tail[0]) == pytest.approx(float(exact), rel=1e-6, abs=0.0)


ROW = st.tuples(st.integers(-2, 420), st.integers(0, 400), st.floats(0.05, 80.0),
                st.floats(0.05, 80.0))


@given(st.lists(ROW, min_size=1, max_size=60), st.sampled_from([1e-4, 0.01, 0.05]))
@settings(max_examples=200, deadline=None)
def test_betabinom_sf_screened_up_to_a_threshold_gives_scipys_bits_wherever_they_reach_it(
    rows: list[tuple[int, int, float, float]], upto: float
) -> None:
    """``pair_rates`` asks only for the tails that could be reported: every tail at most
    ``upto`` is the same bits as the whole computation's, and every other one still above
    ``upto`` and close to its value (``screened`` drops it)."""
    k, n, a, b = (np.array([float(r[i]) for r in rows]) for i in range(4))
    whole = stats.betabinom_sf(k, n, a, b)
    screened = stats.betabinom_sf(k, n, a, b, upto=upto)
    reached = whole <= upto
    assert np.array_equal(screened[reached], whole[reached])
    assert np.all(screened[~reached] > upto)
    assert np.allclose(screened, whole, rtol=1e-9, atol=1e-12)


def test_doctests() -> None:
    assert doctest.testmod(stats).failed == 0
