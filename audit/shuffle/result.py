"""One shuffle test's result, the distributions behind it, and the night's correction.

Every test is a null hypothesis about a fair shuffle (each order of the shoe's cards
equally likely, independently from shoe to shoe) and gives a p-value; ``correct`` holds the
whole night's family to a family-wise error rate with a weighted Holm procedure, each check
(``rng.position``, ``rng.card`` ...) carrying an equal share of the error rate split evenly
among its tests, so the dozens of positions of one check do not drown the one test of
another. A result's severity comes from its adjusted p-value (``Thresholds``): on an honest
night the chance that any test reaches ``minor`` is at most ``Thresholds.minor``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
from scipy import stats

from audit.findings import Severity, Thresholds
from audit.shuffle.shoes import Group

Floats = npt.NDArray[np.float64]

MIN_EXPECTED = 5.0
"""A chi-square test runs only when every cell expects at least this many (Cochran's rule);
with fewer shoes its verdict is "too few shoes" and ``needs`` says how many it takes."""
MIN_SHOES = 50
"""A test on a mean or a count of runs needs at least this many shoes or pairs."""

FAIR, SUSPECT, BIASED, TOO_FEW = "fair", "suspect", "biased", "too few shoes"
"""Verdicts: nothing seen; weak evidence (severity info); a failed test (minor or major);
not tested."""


@dataclass(frozen=True, slots=True)
class Result:
    """One row of rng.parquet: a test on one shoe group."""

    check: str
    test: str
    """The test's item in words: "position 1", "card JK", "seat 1 (deal order)" ..."""
    group: str
    """The shoe group (``Group.key``): decks/printed jokers/shuffler."""
    group_label: str
    shoes: int
    """Shoes behind the test (pairs of shoes for ``rng.serial``)."""
    method: str
    """The statistic: "chi-square", "z", "t" or "repeats"."""
    statistic: float | None
    df: float | None
    p_value: float | None
    effect: str
    """What was seen against what a fair shuffle gives, in words."""
    labels: tuple[str, ...] = ()
    observed: tuple[float, ...] = ()
    expected: tuple[float, ...] = ()
    """The chart: each label's observed value against a fair shuffle's expectation."""
    needs: int | None = None
    """Shoes the test needs, when the group has too few."""
    hands: tuple[str, ...] = ()
    """Evidence hands (``rng.repeat``: the repeated shoes; a failed cell's shoes,
    ``evidence.with_evidence``)."""
    cell: tuple[str, int] | None = None
    """A failed test's cell of too many shoes, in words, and how many shoes it holds (its
    ``hands`` are the first of them); not a column of rng.parquet."""
    favoured: str | None = None
    """The label of the cell the test's own statistic puts furthest above a fair shuffle
    (``rng.seat_jokers``: by each seat's variance), whose shoes are its evidence
    (``evidence.with_evidence``); None to take the chart's (observed against expected);
    not a column of rng.parquet."""
    adjusted_p: float | None = None
    severity: Severity | None = None
    verdict: str = ""
    tests: int = 0
    """Tests in the night's correction."""

    @property
    def tested(self) -> bool:
        return self.p_value is not None

    def sort_key(self) -> tuple[str, str, int, str]:
        return (self.group, self.check, _item_order(self.test), self.test)


def _item_order(test: str) -> int:
    """Numbered items (position 10) sort by their number."""
    digits = "".join(ch for ch in test.split(" ")[-1] if ch.isdigit())
    return int(digits) if digits else -1


def result(
    check: str, test: str, group: Group, *, shoes: int | None = None, **fields: object
) -> Result:
    """A result of ``group`` (``fields`` as in ``Result``)."""
    n = group.shoes if shoes is None else shoes
    return Result(check, test, group.key, group.label, n, **fields)  # type: ignore[arg-type]


def too_few(
    check: str,
    test: str,
    group: Group,
    needs: int,
    *,
    shoes: int | None = None,
    method: str = "chi-square",
) -> Result:
    """A test the group has too few shoes for."""
    n = group.shoes if shoes is None else shoes
    return result(
        check,
        test,
        group,
        shoes=n,
        method=method,
        statistic=None,
        df=None,
        p_value=None,
        effect=f"{n:,} shoes; the test needs {needs:,}",
        needs=needs,
        verdict=TOO_FEW,
    )


def needed(per_shoe: float, *, at_least: float = MIN_EXPECTED) -> int:
    """Shoes needed for a cell that expects ``per_shoe`` per shoe to expect ``at_least``."""
    return max(MIN_SHOES, math.ceil(at_least / per_shoe - 1e-9)) if per_shoe > 0 else 0


LAMBDA = 2.0 / 3.0
"""The Cressie-Read power divergence's exponent: with a few expected counts per cell its
chi-square tail stays honest where Pearson's is heavy (Read and Cressie 1988; measured here:
at 5 expected per cell Pearson's statistic passes the 1e-5 point 2.3 times too often, this
one 0.9 times)."""


def chi_square(
    observed: Floats, expected: Floats, df: float, scale: float = 1.0
) -> tuple[float, float]:
    """The Cressie-Read statistic (lambda 2/3, times ``scale``) of counts against their
    expectations (equal totals), and its chi-square p-value.

    >>> x2, p = chi_square(np.array([10.0, 10.0]), np.array([10.0, 10.0]), 1)
    >>> x2, p
    (0.0, 1.0)
    """
    keep = expected > 0
    o, e = observed[keep], expected[keep]
    divergence = float(np.sum(o * ((o / e) ** LAMBDA - 1.0)))
    x2 = max(0.0, scale * 2.0 / (LAMBDA * (LAMBDA + 1.0)) * divergence)
    return x2, float(stats.chi2.sf(x2, df))


def two_sided_z(z: float) -> float:
    return float(2.0 * stats.norm.sf(abs(z)))


def mean_test(values: Floats, mean: float = 0.0) -> tuple[float, float] | None:
    """Student's t of ``values`` against a known ``mean`` (the shoes are independent under
    a fair shuffle, so the sample spread is an honest standard error); ``None`` below
    ``MIN_SHOES`` values."""
    n = values.size
    if n < MIN_SHOES:
        return None
    sd = float(np.std(values, ddof=1))
    diff = float(np.mean(values)) - mean
    if sd == 0.0:
        return (0.0, 1.0) if diff == 0.0 else (math.copysign(math.inf, diff), 0.0)
    t = diff / (sd / math.sqrt(n))
    return t, float(2.0 * stats.t.sf(abs(t), n - 1))


def t_result(
    check: str, test: str, group: Group, values: Floats, mean: float = 0.0, **fields: object
) -> Result:
    """A t-test of ``values`` (one a shoe, or a pair of shoes) against ``mean``: one result
    with its statistic, degrees of freedom and p-value (``fields`` as in ``Result``)."""
    t, p = mean_test(values, mean) or (0.0, 1.0)
    n = values.size
    return result(
        check, test, group, shoes=n, method="t", statistic=t, df=float(n - 1), p_value=p,
        **fields,
    )  # fmt: skip


def holm(p: Floats, weights: Floats) -> Floats:
    """Weighted Holm adjusted p-values: reject where ``adjusted <= alpha`` and the chance of
    any false rejection is at most alpha (Holm 1979, weighted form).

    >>> [round(float(x), 3) for x in holm(np.array([0.01, 0.04, 0.03]), np.ones(3))]
    [0.03, 0.06, 0.06]
    """
    if p.size == 0:
        return p.copy()
    ratio = p / weights
    order = np.lexsort((np.arange(p.size), ratio))
    w = weights[order]
    remaining = np.cumsum(w[::-1])[::-1]
    adjusted = np.minimum(1.0, np.maximum.accumulate(ratio[order] * remaining))
    out = np.empty_like(adjusted)
    out[order] = adjusted
    return out


def correct(results: Sequence[Result], thresholds: Thresholds) -> list[Result]:
    """Every result with its adjusted p-value, severity and verdict; sorted."""
    tested = [r for r in results if r.tested]
    per_check: dict[str, int] = {}
    for r in tested:
        per_check[r.check] = per_check.get(r.check, 0) + 1
    p = np.array([r.p_value for r in tested], dtype=np.float64)
    w = np.array([1.0 / per_check[r.check] for r in tested], dtype=np.float64)
    adjusted = holm(p, w)
    out = [r for r in results if not r.tested]
    for r, q in zip(tested, adjusted, strict=True):
        severity = thresholds.severity(float(q))
        verdict = FAIR if severity is None else SUSPECT if severity is Severity.INFO else BIASED
        out.append(
            replace(r, adjusted_p=float(q), severity=severity, verdict=verdict, tests=len(tested))
        )
    return sorted(out, key=Result.sort_key)
