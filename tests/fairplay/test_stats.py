"""The correction a screened family gets (audit/fairplay/stats.py, ``bh`` with ``m``):
Benjamini-Hochberg over the smallest p-values of a family, told the family's size, gives
each of them the q-value the whole family gives it, wherever that is at most the largest
p-value left out. ``engine.screened`` keeps the p-values at most the report threshold and
relies on this."""

from __future__ import annotations

import doctest

import numpy as np
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


def test_doctests() -> None:
    assert doctest.testmod(stats).failed == 0
