"""The statistics behind every fair-play suspicion: exact tail probabilities, the discrete
screen of hypotheses that could never be reported, (weighted) Benjamini-Hochberg, and how
strong evidence maps to a severity.

Every test here is one-sided (only "more than expected" is suspicious) and vectorised over
all the pairs or accounts a detector tests, with numpy arrays in and out.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy import special, stats

Array = NDArray[np.float64]


def betabinom_sf(
    k: Array, n: Array, a: Array, b: Array, upto: float | None = None
) -> Array:
    """P(X >= k) for X ~ BetaBinomial(n, a, b): the chance of k or more events in n trials
    when the rate itself is only known as Beta(a, b), the posterior of a baseline.

    scipy computes the beta-binomial's tail as 1 - cdf, which is 0 below about 1e-16; below
    ``SF_BY_TERMS`` the tail is summed term by term, in logs, so that a strong suspicion's
    p-value is its own, not "p < 1e-300" (docs/fairplay.md, "Multiple testing").

    >>> float(betabinom_sf(np.array([3.0]), np.array([3.0]), np.array([1.0]), np.array([1.0]))[0])
    0.25
    >>> all_of_200 = betabinom_sf(*(np.array([x]) for x in (200.0, 200.0, 2.0, 8.0)))
    >>> f"{float(all_of_200[0]):.4e}"
    '1.1415e-13'

    With ``upto``, only the tails that could be at most ``upto`` are scipy's (the same bits
    as without it); the others are ``_tail_sum``'s, far above it. scipy sums a row's terms
    in a Python call of its own, 20 µs a row: 22 s of a million-hand night's fair play,
    nearly all for pairs no one would report.

    >>> k, n, a, b = (np.array(x) for x in ([1.0, 30.0], [40.0, 40.0], [2.0, 2.0], [8.0, 8.0]))
    >>> screened, whole = betabinom_sf(k, n, a, b, upto=0.01), betabinom_sf(k, n, a, b)
    >>> bool(screened[1] == whole[1]), bool(abs(screened[0] - whole[0]) < 1e-12)
    (True, True)
    """
    k, n, a, b = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (k, n, a, b)))
    if upto is not None:
        p = _tail_sum(k, n, a, b)
        near = np.flatnonzero(~(p > 2.0 * upto + 1e-9))  # a NaN goes to scipy too
        if near.size:
            p[near] = betabinom_sf(k[near], n[near], a[near], b[near])
        return p
    p = np.asarray(stats.betabinom.sf(k - 1, n, a, b), dtype=np.float64)
    for i in np.flatnonzero(p < SF_BY_TERMS):
        terms = stats.betabinom.logpmf(np.arange(max(k[i], 0.0), n[i] + 1), n[i], a[i], b[i])
        p[i] = np.exp(special.logsumexp(terms)) if len(terms) else 0.0
    return p


def _tail_sum(k: Array, n: Array, a: Array, b: Array) -> Array:
    """P(X >= k) for X ~ BetaBinomial(n, a, b), vectorised over the rows, each summed over
    the shorter side of k (the terms below k, taken from 1, or those from k up): within
    about n * 1e-16 of the exact tail, which is all ``betabinom_sf``'s screen needs. The
    terms are built a bounded number at a time, so memory does not grow with the trials.

    >>> k, n, a, b = (np.array(x) for x in ([0.0, 1.0, 3.0, 9.0], [3.0, 3.0, 3.0, 8.0],
    ...                                     [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]))
    >>> _tail_sum(k, n, a, b).round(12).tolist()  # uniform on 0..3: 1, 3/4, 1/4; 9 of 8: 0
    [1.0, 0.75, 0.25, 0.0]
    """
    p = np.where(k <= 0, 1.0, 0.0)
    inside = np.flatnonzero((k > 0) & (k <= n))
    low = k[inside] <= n[inside] - k[inside] + 1  # fewer terms below k than from k up
    start = np.where(low, 0.0, k[inside])
    count = np.where(low, k[inside], n[inside] - k[inside] + 1).astype(np.int64)
    edges = np.searchsorted(np.cumsum(count), np.arange(1, count.sum() // _TERMS + 2) * _TERMS)
    for lo, hi in zip(np.r_[0, edges], np.r_[edges, inside.size], strict=True):
        if lo >= hi:
            continue
        c = count[lo:hi]
        row = np.repeat(np.arange(lo, hi), c)
        j = start[row] + (np.arange(c.sum()) - np.repeat(np.cumsum(c) - c, c))
        m, x, y = n[inside[row]], a[inside[row]], b[inside[row]]
        log_terms = (special.betaln(j + x, m - j + y) - special.betaln(x, y)
                     - np.log(m + 1) - special.betaln(m - j + 1, j + 1))  # fmt: skip
        summed = np.bincount(row - lo, weights=np.exp(log_terms), minlength=hi - lo)
        p[inside[lo:hi]] = np.where(low[lo:hi], 1.0 - summed, summed)
    return np.asarray(np.clip(p, 0.0, 1.0), dtype=np.float64)


_TERMS = 1 << 21
"""Terms ``_tail_sum`` builds at a time (a few arrays of this many doubles)."""

SF_BY_TERMS = 1e-6
"""Below this ``betabinom_sf`` sums the tail's terms instead of taking scipy's 1 - cdf,
whose error (about 1e-16 for each of its ``n`` terms) is then no longer small beside the
tail: few pairs, the strongest of a night."""


def betabinom_min_p(n: Array, a: Array, b: Array) -> Array:
    """The smallest p-value ``betabinom_sf`` can give with ``n`` trials (all n events):
    what ``testable`` needs. Computed in logs, so it does not underflow to 0 first.

    >>> round(float(betabinom_min_p(np.array([3.0]), np.array([1.0]), np.array([1.0]))[0]), 6)
    0.25
    """
    log_p = special.betaln(n + a, b) - special.betaln(a, b)
    return np.asarray(np.exp(log_p), dtype=np.float64)


def poisson_sf(x: Array, mean: Array) -> Array:
    """P(X >= x) for X ~ Poisson(mean).

    >>> round(float(poisson_sf(np.array([2.0]), np.array([1.0]))[0]), 4)
    0.2642
    """
    return np.asarray(stats.poisson.sf(x - 1, mean), dtype=np.float64)


def binom_sf(k: Array, n: Array, p: Array) -> Array:
    """P(X >= k) for X ~ Binomial(n, p).

    >>> float(binom_sf(np.array([2.0]), np.array([2.0]), np.array([0.5]))[0])
    0.25
    """
    return np.asarray(stats.binom.sf(k - 1, n, p), dtype=np.float64)


def chi2_sf(x: Array, df: Array) -> Array:
    """P(X >= x) for X ~ chi-square with ``df`` degrees of freedom.

    >>> round(float(chi2_sf(np.array([3.841459]), np.array([1.0]))[0]), 4)
    0.05
    """
    return np.asarray(stats.chi2.sf(x, df), dtype=np.float64)


def binom_sf_real(k: Array, n: Array, p: Array) -> Array:
    """``binom_sf`` continued to real ``k`` and ``n`` (the regularized incomplete beta
    function, P(X >= k) = I_p(k, n - k + 1), which it equals at whole numbers): the tail of
    a weighted count, an estimate in ``n`` effective trials. 1 where ``k`` <= 0; ``k`` above
    ``n`` (by rounding) is taken as ``n``.

    >>> float(binom_sf_real(np.array([2.0]), np.array([2.0]), np.array([0.5]))[0])
    0.25
    >>> [round(float(x), 4) for x in binom_sf_real(np.array([1.5, 0.0]), np.full(2, 3.0),
    ...                                             np.full(2, 0.5))]
    [0.7122, 1.0]
    """
    kk = np.minimum(np.maximum(k, 1e-300), np.maximum(n, 1e-300))  # k = n at most
    tail = special.betainc(kk, n - kk + 1.0, p)
    return np.asarray(np.where(k > 0, tail, 1.0), dtype=np.float64)


def testable(min_p: Array, alpha: float) -> NDArray[np.bool_]:
    """Which hypotheses can be reported at all: with discrete tests many pairs could not
    reach ``alpha`` even if every event went the suspicious way, and Benjamini-Hochberg
    never reports a p-value above ``alpha``; counting them only dilutes the correction. The
    screen looks at the margins alone (how much data a pair has), never at its outcome, so
    the correction over the hypotheses kept stays valid (the idea of Tarone 1990; this is
    the screen's mildest form, safe for Benjamini-Hochberg).

    >>> testable(np.array([1e-9, 0.5, 0.9, 1e-4]), 0.01).tolist()
    [True, False, False, True]
    """
    return np.asarray(min_p <= alpha, dtype=np.bool_)


def bh(p: Array, weights: Array | None = None, m: int | None = None) -> Array:
    """Benjamini-Hochberg adjusted p-values (q-values), optionally weighted (Genovese,
    Roeder and Wasserman 2006: weights are scaled to mean 1 and p is divided by them, so a
    hypothesis given less weight needs stronger evidence). ``m``: the size of the family
    when ``p`` holds only its smallest p-values (unweighted only); their q-values are then
    the family's wherever they are at most the largest p-value of the family left out.

    >>> bh(np.array([0.01, 0.04, 0.03, 0.5])).round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.5]
    >>> bh(np.array([0.01, 0.04, 0.03]), m=4).round(4).tolist()
    [0.04, 0.0533, 0.0533]
    """
    if m is not None and weights is not None:
        raise ValueError("a weighted correction needs every p-value of its family")
    m = p.size if m is None else m
    if p.size == 0:
        return np.zeros(0)
    if weights is not None:
        w = weights * (m / weights.sum())
        p = np.minimum(1.0, p / w)
    order = np.argsort(p, kind="stable")
    ranked = p[order] * m / np.arange(1, p.size + 1)
    adjusted = np.minimum.accumulate(ranked[::-1])[::-1]
    q = np.empty(p.size)
    q[order] = np.minimum(1.0, adjusted)
    return q


def fisher_combine(*ps: Array) -> Array:
    """Fisher's method: one p-value from independent p-values of the same hypothesis.

    >>> round(float(fisher_combine(np.array([0.01]), np.array([0.01]))[0]), 5)
    0.00102
    """
    stat = -2.0 * sum(np.log(np.maximum(p, 1e-300)) for p in ps)
    return np.asarray(stats.chi2.sf(stat, 2 * len(ps)), dtype=np.float64)


BEYOND_ALPHA = 0.01
"""The level at which a player's own rate is significantly above the night's."""


WITHOUT_ALPHA = 0.05
"""The level at which a player beyond the night (``beyond_the_night``, at ``BEYOND_ALPHA``,
or soft drop's in the pair's kinds of game) still is above it without the other player,
there (``pairs._in_strata``). Not a discovery, which the first test made, but a guard:
the bulk's prior is kept for a partner whose excess is all with one player. Of a cautious
player's opponents, the one who sat at most of their drops is the one with the fewest
without them: at 0.01, a blind tester's honest P03 (28 strong drops in 119 real-money
hands, 3.7 expected at the night's rate there; 5 in the 55 without P10, 1.7 expected,
p = 0.027) kept the bulk's prior, worth 222 hands, and was suspected with P10 (23 of 70,
2.8 expected). Feeding keeps ``BEYOND_ALPHA`` (``pairs.pair_rates``)."""


def beyond_the_night(
    n: Array, k: Array, *, least: int = 10, alpha: float = BEYOND_ALPHA
) -> NDArray[np.bool_]:
    """The players whose own rate is significantly above the night's (binomial against the
    pooled rate, Benjamini-Hochberg at ``alpha``, over the players with ``least`` trials or
    more): the accounts a detector is looking for, and honest players far above the rest
    (a strong player who takes any discard they can meld). ``prior_weight`` fits the bulk
    of the night without them, so its prior describes the bulk and not them.

    >>> n, k = np.array([1000.0, 1000, 1000, 5]), np.array([200.0, 210, 330, 5])
    >>> beyond_the_night(n, k).tolist()  # the third far above; the fourth too few trials
    [False, False, True, False]
    """
    keep = n >= least
    out = np.zeros(n.size, dtype=np.bool_)
    if keep.sum() < 2 or k[keep].sum() <= 0 or k[keep].sum() >= n[keep].sum():
        return out
    rate = np.full(int(keep.sum()), k[keep].sum() / n[keep].sum())
    out[keep] = bh(binom_sf(k[keep], n[keep], rate)) <= alpha
    return out


def prior_weight(
    n: Array, k: Array, *, least: int = 10, alpha: float = BEYOND_ALPHA
) -> float:
    """How many trials a player's rate is worth in the night's own spread of rates: the
    Beta prior's weight ``a + b`` that fits the players' rates by the method of moments
    (empirical Bayes). Little spread between players gives a heavy prior (a player's few
    trials say little against the night), a wide spread a light one; clipped to
    [2, 10,000]. Players with fewer than ``least`` trials are left out, and so are the
    players whose own rate is significantly above the night's (``beyond_the_night``): the
    prior describes the bulk of the night, as an empirical null does, not the few accounts
    a detector is looking for; it is not applied to them either (``OWN_WEIGHT``).

    >>> rng = np.random.default_rng(1)
    >>> n = np.full(400, 50.0)
    >>> tight = prior_weight(n, rng.binomial(50, 0.2, 400).astype(float))
    >>> wide = prior_weight(n, rng.binomial(50, rng.beta(2, 8, 400)).astype(float))
    >>> tight > 1000, 5 < wide < 20
    (True, True)
    """
    keep = (n >= least) & ~beyond_the_night(n, k, least=least, alpha=alpha)
    n, k = n[keep], k[keep]
    if n.size < 2 or k.sum() <= 0 or k.sum() >= n.sum():
        return 10_000.0
    mean = k.sum() / n.sum()
    spread = float(np.sum((k - n * mean) ** 2 / n))  # sum of n_i (p_i - mean)^2
    excess = spread / (mean * (1 - mean)) - n.size
    rho = excess / float(np.sum(n - 1))  # intra-player correlation: 1 / (a + b + 1)
    if rho <= 1e-4:
        return 10_000.0
    return float(min(10_000.0, max(OWN_WEIGHT, 1.0 / rho - 1.0)))


OWN_WEIGHT = 2.0
"""The prior's weight, in trials, for a player beyond the night (``beyond_the_night``): the
bulk's prior does not describe them, so their baseline is their own rate, with the
lightest prior ``prior_weight`` gives. A strong player's 340 takes in 1,060 draws (0.32)
under the bulk's prior, worth 3,243 draws at the night's 0.19, made a baseline of 0.22, and
each weak player they sat after a suspected feeder (a blind tester's honest night)."""


def fewer(
    k: Array, n: Array, k0: Array, n0: Array, rate: Array, alpha: float
) -> tuple[Array, Array, Array]:
    """k events in n trials, fewer than both the player's own rate elsewhere (k0 of n0, a
    Beta posterior on a prior at ``rate`` worth ``OWN_WEIGHT`` trials; beta-binomial) and
    ``rate`` (binomial): the larger of the two lower tails (both nulls must fall), the
    smallest p-value n trials could give (no event), and the events expected at the own
    rate. Where a binomial figure (the tail, the smallest p-value) is above ``alpha`` it
    stands for the larger: the beta-binomial's is dear (its tail 3 s for 262,144 pairs) and
    could not bring it to ``alpha``. Feeding's test of whom a player plays for
    (``detectors._set_aside``).

    >>> one = lambda *x: [np.array([v]) for v in x]
    >>> p, least, expected = fewer(*one(0.0, 20, 400, 1000, 0.4), 0.01)
    >>> f"{p[0]:.2g} {least[0]:.2g} {expected[0]:.1f}"  # none of 20, 8 expected
    '4.1e-05 4.1e-05 8.0'
    >>> # 8 of 20 by a player who takes 0.6 elsewhere: fewer than that, not than the night's
    >>> round(float(fewer(*one(8.0, 20, 600, 1000, 0.4), 1.0)[0][0]), 2)
    0.6
    """
    rate = np.clip(rate, 1e-6, 1 - 1e-6)
    a, b = OWN_WEIGHT * rate + k0, OWN_WEIGHT * (1 - rate) + (n0 - k0)
    p, least = np.asarray(stats.binom.cdf(k, n, rate), dtype=np.float64), (1 - rate) ** n
    at = np.flatnonzero(p <= alpha)  # the cdf, not 1 - sf: exact far into the tail
    p[at] = np.maximum(p[at], stats.betabinom.cdf(k[at], n[at], a[at], b[at]))
    at = np.flatnonzero(least <= alpha)
    least[at] = np.maximum(least[at], betabinom_min_p(n[at], b[at], a[at]))
    return p, least, n * a / (a + b)


def normal_sf(z: Array) -> Array:
    """P(Z >= z) for a standard normal Z.

    >>> round(float(normal_sf(np.array([1.96]))[0]), 3)
    0.025
    """
    return np.asarray(stats.norm.sf(z), dtype=np.float64)


def bennett_sf(excess: Array, variance: Array, bound: Array) -> Array:
    """An upper bound of P(S - E[S] >= excess) for a sum S of independent variables, each
    at most ``bound`` above its mean, whose variances add up to ``variance`` (Bennett's
    inequality): exp(-(v / b^2) h(b t / v)), h(u) = (1 + u) log(1 + u) - u. Valid whatever
    the variables' shape, so a p-value from it is never too small; tighter than
    Bernstein's, which it implies. 1 where ``excess`` <= 0.

    >>> ten = np.array([10.0, 10.0])
    >>> bennett_sf(np.array([0.0, 10.0]), ten, np.array([1.0, 1.0])).round(4).tolist()
    [1.0, 0.021]
    """
    t = np.maximum(excess, 0.0)
    v = np.maximum(variance, 1e-300)
    b = np.maximum(bound, 1e-12)
    u = b * t / v
    log_p = -(v / (b * b)) * ((1.0 + u) * np.log1p(u) - u)
    return np.asarray(np.where(t > 0, np.exp(log_p), 1.0), dtype=np.float64)
