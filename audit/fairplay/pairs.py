"""What the pair detectors share: a pair's rate with the other player against their own
without (``pair_rates``: feeding and soft drops, beta-binomial), a pairs table's lists per
kind of game (``Strata``), and pairs listed in parts (``pairs_in_parts``: co-seating and
chip dumping)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from audit import duck
from audit.fairplay.engine import (
    Hypotheses,
    Settings,
    column,
    create_table,
    ids,
    run_sql,
    screened,
    statements,
)
from audit.fairplay.stats import (
    BEYOND_ALPHA,
    OWN_WEIGHT,
    WITHOUT_ALPHA,
    Array,
    betabinom_min_p,
    betabinom_sf,
    beyond_the_night,
    binom_sf,
    binom_sf_real,
    prior_weight,
)


def pair(row: Mapping[str, Any]) -> tuple[str, ...]:
    """A pairs table row's two players, (A, B): a pair suspicion's accounts."""
    return (row["a"], row["b"])


def pair_rates(
    con: duckdb.DuckDBPyConnection, detector: str, settings: Settings, baseline: str
) -> Hypotheses:
    """``pairs`` gives a, b, n1, k1 (trials and events together), n0, k0 (the ``baseline``
    player's, a or b, without the other) and the night's rate. The baseline is a Beta
    posterior: k0 events in n0 trials on a prior at the night's rate, worth
    ``prior_weight`` trials or what the spread of the baseline players' own rates gives;
    the count together is beta-binomial under it. A baseline player whose own rate is
    significantly above the night's (``beyond_the_night``), and still is without the other
    player (k0 of n0, binomial at the same level), is not described by that prior: their
    prior weighs ``OWN_WEIGHT`` trials, so their baseline is their own rate. One whose
    excess is all with the other player (a partner) keeps the bulk's prior: their own few
    strong drops without the partner say little alone. Where ``pairs`` also gives lists per
    kind of game (``n1_s``: soft_drop.sql), the baseline and that test are the same kinds
    of game's (``_in_strata``). The posterior of each pair kept is in its table's columns
    ``alpha`` and ``beta``."""
    if "prepare" in statements(detector):
        run_sql(con, detector, "prepare", settings)
    name = f"{detector}_pairs"
    create_table(con, detector, "pairs", settings, name)
    weight = settings.prior_weight
    beyond = pa.array([], pa.string())
    if weight is None:  # a baseline player's n0 + n1 and k0 + k1 are their own totals
        players = con.sql(
            f"SELECT {baseline}, any_value(n0 + n1) AS n, any_value(k0 + k1) AS k"
            f" FROM {name} GROUP BY ALL ORDER BY {baseline}"
        ).to_arrow_table()
        n, k = column(players, "n"), column(players, "k")
        weight = prior_weight(n, k)
        beyond = players.column(baseline).filter(pa.array(beyond_the_night(n, k)))
    bulk = weight

    def test(table: pa.Table) -> Hypotheses:
        n0, k0, n1, k1 = (column(table, c) for c in ("n0", "k0", "n1", "k1"))
        rate = np.clip(column(table, "rate"), 1e-6, 1 - 1e-6)
        own = pc.is_in(table.column(baseline), value_set=beyond).to_numpy(zero_copy_only=False)
        if "n1_s" in table.column_names:  # a baseline per kind of game (soft_drop.sql)
            alpha, beta = _in_strata(table, n1, own, bulk)
        else:
            sized = "e1" in table.column_names  # hand sizes (feeding.sql)
            mix = np.clip(column(table, "e0"), 1e-6, 1 - 1e-6) if sized else rate
            own &= binom_sf(k0, n0, mix) <= BEYOND_ALPHA
            prior = np.where(own, min(OWN_WEIGHT, bulk), bulk)
            alpha = prior * rate + k0
            beta = prior * (1 - rate) + (n0 - k0)
            if sized:
                alpha, beta = _sized(alpha, beta, prior, rate, n0, mix, column(table, "e1"))
        if "gn0" in table.column_names:  # the other side's own effect on everyone else
            given = column(table, "grate") if "grate" in table.column_names else rate
            alpha, beta = _raised(alpha, beta, column(table, "gn0"), column(table, "gk0"),
                                  np.clip(given, 1e-6, 1 - 1e-6), bulk)  # fmt: skip
        expected = n1 * alpha / (alpha + beta)
        least = betabinom_min_p(n1, alpha, beta)
        if "hands" in table.column_names:  # too few hands is too little data (feeding.sql)
            least = np.where(column(table, "hands") >= settings.pair_hands, least, 1.0)
        return Hypotheses(
            table.append_column("alpha", pa.array(alpha)).append_column("beta", pa.array(beta)),
            betabinom_sf(k1, n1, alpha, beta, upto=settings.thresholds.report), expected, k1,
            np.where(expected > 0, k1 / np.maximum(expected, 1e-12), 0.0),
            min_p=least,
        )  # fmt: skip

    found = screened(con, name, settings, test).correct(settings)
    con.execute(f"DROP TABLE {name}")
    if "trials" in statements(detector) and found.report.any():
        found.report &= _not_explained(con, detector, found, settings)
    return found


class Strata:
    """A pairs table's per-stratum list columns (one entry per kind of game the pair met
    in, in the order of the strata), as flat arrays: each entry's pair is ``row``, each
    pair's first entry ``first``. Sums go back to the pairs over their entries in that
    order, so that a pair's figures are the same bits in whatever batch it comes."""

    def __init__(self, table: pa.Table, lists: str) -> None:
        self.table, self.rows = table, table.num_rows
        self.row = pc.list_parent_indices(table.column(lists)).to_numpy(zero_copy_only=False)
        count = np.bincount(self.row, minlength=self.rows)
        self.first = np.cumsum(count) - count
        self.count = count

    def __getitem__(self, name: str) -> Array:
        values = pc.list_flatten(self.table.column(name)).to_numpy(zero_copy_only=False)
        return np.asarray(values, dtype=np.float64)

    def total(self, values: Array) -> Array:
        """Summed over each pair's entries, in order."""
        return np.asarray(np.bincount(self.row, weights=values, minlength=self.rows),
                          dtype=np.float64)  # fmt: skip

    def most(self, values: Array) -> Array:
        """The largest of each pair's entries (-inf for a pair with none)."""
        out = np.full(self.rows, -np.inf)
        np.maximum.at(out, self.row, values)
        return out


def _in_strata(
    table: pa.Table, n1: Array, beyond: NDArray[np.bool_], bulk: float
) -> tuple[Array, Array]:
    """The Beta posterior of A's rate with B from A's rates without B in the same kinds of
    game: per stratum s the pair met in (the lists ``n1_s``, ``k1_s``, ``n0_s``, ``k0_s``,
    ``rate_s``), A's k0_s events in n0_s trials without B on a prior at the night's rate
    there, worth ``bulk`` trials (``OWN_WEIGHT`` for a player beyond the night who still is
    without B in these kinds of game); a stratum where A has no hands without B is the
    prior alone. The rate with B is the strata's rates weighted by the pair's trials there,
    w_s = n1_s / n1: its mean is sum_s w_s mu_s and its variance sum_s w_s^2 mu_s (1 - mu_s)
    / (t_s + 1), each stratum's Beta(a_s, b_s) independent (t_s = a_s + b_s); the Beta with
    that mean and variance is the posterior (the stratum's own when the pair met in one).
    Sums run over each pair's strata in their order, so the bits do not depend on the rows'.

    Beyond the night: over A's whole night (``beyond``, as ``pair_rates``), or over all of
    A's hands in the pair's kinds of game, with B or without, at ``BEYOND_ALPHA`` (a blind
    tester's honest player who folds at 6-player tables and never heads-up was not above
    the night's rate over their night, 13 strong drops in 336 hands, and far above it at
    those tables, 13 in 98); still without B at ``WITHOUT_ALPHA``, over the strata where A
    has hands without B, their weights scaled to 1. A weighted rate (sum_s w_s k_s / n_s)
    is a count in 1 / sum_s (w_s^2 / n_s) trials (the weighted estimator's effective sample
    size), tested against the night's rates there, weighted alike (``binom_sf_real``)."""
    strata = Strata(table, "n1_s")
    parent, total = strata.row, strata.total
    n1_s, k1_s, n0_s, k0_s = (strata[c] for c in ("n1_s", "k1_s", "n0_s", "k0_s"))
    rate = np.clip(strata["rate_s"], 1e-6, 1 - 1e-6)
    w = n1_s / n1[parent]

    def above(
        n: Array, k: Array, weight: Array, rows: NDArray[np.intp], level: float
    ) -> NDArray[np.bool_]:
        """Whether the pairs ``rows``' weighted rates are significantly above the night's."""
        some = np.maximum(n, 1.0)
        n_eff = 1.0 / np.maximum(total(weight**2 / some), 1e-300)
        k_eff = total(weight * k / some) * n_eff
        p_eff = np.clip(total(weight * rate), 1e-6, 1 - 1e-6)
        return binom_sf_real(k_eff[rows], n_eff[rows], p_eff[rows]) <= level

    seen = np.where(n0_s > 0, w, 0.0)
    share = total(seen)
    seen = seen / np.where(share > 0, share, 1.0)[parent]
    # the tails only where A's rate without B is above the night's: dear at 2M pairs
    own = (share > 0) & (total(seen * k0_s / np.maximum(n0_s, 1.0)) > total(seen * rate))
    tested = np.flatnonzero(own)
    own[tested] = above(n0_s, k0_s, seen, tested, WITHOUT_ALPHA)
    here = np.flatnonzero(own & ~beyond)
    own[here] = above(n0_s + n1_s, k0_s + k1_s, w, here, BEYOND_ALPHA)
    prior = np.where(own, min(OWN_WEIGHT, bulk), bulk)[parent]
    a_s = prior * rate + k0_s
    b_s = prior * (1 - rate) + (n0_s - k0_s)
    t_s = a_s + b_s
    mu = a_s / t_s
    mean = total(w * mu)
    variance = total(w**2 * mu * (1 - mu) / (t_s + 1))
    size = mean * (1 - mean) / np.maximum(variance, 1e-300) - 1
    one, first = strata.count == 1, strata.first
    alpha = np.where(one, a_s[first], mean * size)
    beta = np.where(one, b_s[first], (1 - mean) * size)
    return np.asarray(alpha, dtype=np.float64), np.asarray(beta, dtype=np.float64)


def _sized(
    alpha: Array, beta: Array, prior: Array, rate: Array, n0: Array, e0: Array, e1: Array
) -> tuple[Array, Array]:
    """B's baseline carried over to the hand sizes the pair met at (indirect
    standardization): its mean times e1 / e0', where e1 is the night's rate over the pair's
    trials by hand size and e0' what the posterior's mean would be for a B exactly as good
    as the night at each size (its prior at the night's ``rate``, ``prior`` trials, and B's
    ``n0`` other trials at the night's rate for their sizes, e0); the spread (``alpha +
    beta``) is kept. With 21 or 27 cards nearly every discard connects and everyone takes
    more: a blind tester's honest players took 0.23 of the discards offered at 10 cards and
    0.55 at 27, and a strong player who met a weak one at 27-card tables, against their own
    rate from 10- and 13-card games, was suspected at minor (62 of 79 taken, 39.9 expected).
    On a night of one hand size e1 = e0 = ``rate`` (feeding.sql) and nothing changes.

    >>> a, b = _sized(np.array([3.0]), np.array([7.0]), np.array([10.0]), np.array([0.3]),
    ...               np.array([0.0]), np.array([0.3]), np.array([0.6]))
    >>> [round(float(x[0]), 6) for x in (a, b)]
    [6.0, 4.0]
    """
    if np.array_equal(e1, rate) and np.array_equal(e0, rate):
        return alpha, beta
    expected = (prior * rate + n0 * e0) / (prior + n0)
    total = alpha + beta
    mean = np.clip(alpha / total * e1 / expected, 1e-6, 0.999)
    return mean * total, (1 - mean) * total


def _raised(
    alpha: Array, beta: Array, n: Array, k: Array, rate: Array, weight: float
) -> tuple[Array, Array]:
    """The baseline raised by the other player's own effect on everyone else: how much more
    often than the night's rate other players take their discards (shrunk toward 1 by
    ``weight`` trials, never below 1), keeping the baseline's spread (``alpha + beta``).
    Only for a giver significantly careless (binomial at ``BEYOND_ALPHA``): a blind
    tester's planted partner, who took 41 of the 150 discards their feeder left against
    their own 3 of 52, was missed when chance (others took 7 of the feeder's 39 discards,
    p = 0.12 at the night's 0.104) raised their baseline by 1.5 times."""
    careless = binom_sf(k, n, rate) <= BEYOND_ALPHA
    factor = np.where(careless, np.maximum(1.0, (k + weight * rate) / (n + weight) / rate), 1.0)
    total = alpha + beta
    mean = np.minimum(alpha / total * factor, 0.999)
    return mean * total, (1 - mean) * total


def _not_explained(
    con: duckdb.DuckDBPyConnection, detector: str, found: Hypotheses, settings: Settings
) -> NDArray[np.bool_]:
    """Explaining away: a reported pair (A, C) stands only if it is still significant (p at
    or below the largest p reported) and still beats the effect floor in the hands where
    none of A's stronger reported partners (smaller p) sat, and if A's other partners do
    not explain it (``_explained_by_others``). A colluder's soft drops with their partner
    otherwise make a suspect of every third player at those tables."""
    picked = [int(i) for i in np.flatnonzero(found.report)]
    pairs = list(zip(ids(found.table, "a"), ids(found.table, "b"), strict=True))
    others = _other_partners(con, detector, found, settings, [pairs[i] for i in picked])
    flagged = sorted({pairs[i] for i in picked} | {(a, b) for a, c in others for b in others[a, c]})
    trials = run_sql(con, detector, "trials", settings, flagged=flagged)
    hands: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
    names = ("a", "b", "hand_id", "event")
    for a, b, hand, event in zip(*(trials.column(c).to_pylist() for c in names), strict=True):
        hands[a, b][hand] = bool(event)
    cutoff = float(found.p[found.report].max())
    alphas, betas = column(found.table, "alpha"), column(found.table, "beta")
    keep = np.ones(found.report.size, dtype=np.bool_)
    seen: dict[str, set[str]] = defaultdict(set)  # A -> hands with a stronger partner of A
    for i in sorted(picked, key=lambda i: (found.p[i], pairs[i])):
        player, partner = pairs[i]
        rest = [e for h, e in hands[player, partner].items() if h not in seen[player]]
        prior = alphas[i : i + 1], betas[i : i + 1]
        keep[i] = _holds(rest, prior, cutoff, settings) and not _explained_by_others(
            hands, player, partner, others[player, partner], prior, settings)  # fmt: skip
        seen[player].update(hands[player, partner])
        # partners in exactly these hands are no explanation of each other: the one of
        # them kept (the smallest p, then the first by id) says the others could be it (a
        # blind tester's S1, who dropped for S2 at one table of four, was named with H1)
        if keep[i]:
            mine = hands[player, partner]
            alike = sorted(o for o in others[player, partner]
                           if o != partner and hands.get((player, o)) == mine)  # fmt: skip
            if alike:
                found.alike[i] = alike
    return keep


def _other_partners(
    con: duckdb.DuckDBPyConnection,
    detector: str,
    found: Hypotheses,
    settings: Settings,
    reported: list[tuple[str, str]],
) -> dict[tuple[str, str], set[str]]:
    """For each reported pair (A, C), the other players who may be the partner A's excess
    is for: A's pairs in the family with an excess, reported or not (the family holds only
    the pairs that could be reported, ``screened``), and, where the detector lists them
    (``copresent``), the players seated in at least a third of the hands where A did it
    with C (at least 2): a ring's members, whose own pairs, judged against a rate full of
    what A does for the third, may not even reach the family."""
    pairs = list(zip(ids(found.table, "a"), ids(found.table, "b"), strict=True))
    suspected = {a for a, _ in reported}
    excess: dict[str, set[str]] = defaultdict(set)
    for j in np.flatnonzero(found.effect >= settings.min_effect):
        if pairs[j][0] in suspected:
            excess[pairs[j][0]].add(pairs[j][1])
    others = {(a, c): excess[a] - {c} for a, c in reported}
    if "copresent" in statements(detector):
        events = dict(zip(pairs, column(found.table, "k1"), strict=True))
        rows = run_sql(con, detector, "copresent", settings, flagged=reported)
        names = ("a", "c", "b", "hands")
        for a, c, b, n in zip(*(rows.column(x).to_pylist() for x in names), strict=True):
            if n >= max(2.0, float(events[a, c]) / 3):
                others[a, c].add(b)
    return others


def _holds(
    events: list[bool], prior: tuple[Array, Array], level: float, settings: Settings
) -> bool:
    """Whether A's ``events`` (one per hand, True where A did it) are still significant at
    ``level`` and beat the effect floor against A's rate without the partner (``prior``,
    the pair's Beta)."""
    n, k = float(len(events)), float(sum(events))
    if not n:
        return False
    a, b = prior
    p = float(betabinom_sf(np.array([k]), np.array([n]), a, b)[0])
    return p <= level and k >= settings.min_effect * n * float(a[0] / (a[0] + b[0]))


def _explained_by_others(
    hands: Mapping[tuple[str, str], Mapping[str, bool]],
    player: str,
    partner: str,
    others: set[str],
    prior: tuple[Array, Array],
    settings: Settings,
) -> bool:
    """Whether A's excess with C is A's excess with A's other candidate partners (pairs
    of A with an excess, reported or not): in the hands where none of them sat it is not
    above A's own rate even at ``WITHOUT_ALPHA`` (the effect floor beaten), and A's rate
    in their hands without C is (a check that the excess is theirs, not a discovery). A
    ring that gives up for one another at every table it shares made a suspect of each
    honest player seated with two of them (a blind tester: an innocent `minor` and a ring
    of five with two innocents), while the ring's own pairs, each judged against a rate
    full of drops for the third, were not reported. A partner of A who is also with A
    without the others keeps their excess there, and stands; two partners of A who always
    sit together are no explanation of each other (without C there are too few hands for
    the other to show an excess), and the pair stands."""
    theirs: dict[str, bool] = {}
    for other in others:
        if other != partner:
            theirs.update(hands.get((player, other), {}))
    if not theirs:
        return False
    mine = hands.get((player, partner), {})
    if _holds([e for h, e in mine.items() if h not in theirs], prior, WITHOUT_ALPHA, settings):
        return False
    without = [e for h, e in theirs.items() if h not in mine]
    return _holds(without, prior, WITHOUT_ALPHA, settings)


MEETINGS_PER_PART = 4_000_000
"""Co-seating and chip dumping list their pairs in parts of about this many meetings of two
players (at a game; in a hand), by the hash of the first player: co-seating's parts joined
with their strata, chip dumping's summed over the pair's hands."""


def pairs_in_parts(
    con: duckdb.DuckDBPyConnection,
    settings: Settings,
    detector: str,
    steps: Mapping[str, str],
    meetings: str,
    name: str,
    weight: int = 1,
) -> None:
    """Run ``detector``'s ``steps`` (section -> the temp table it makes), then its ``pairs``
    statement in parts of about ``MEETINGS_PER_PART`` meetings (``meetings``: SQL counting
    them over the steps' tables) into the table ``name``; the steps' tables dropped after.
    ``weight``: how many of co-seating's meetings one of the detector's weighs in DuckDB's
    memory (chip dumping's, about 40 sums and lists a pair, 4)."""
    for section in steps:
        run_sql(con, detector, section, settings)
    (count,) = con.sql(f"SELECT coalesce(({meetings}), 0)").fetchall()[0]
    parts = duck.passes(int(count) * weight, MEETINGS_PER_PART)
    for part in range(parts):
        create_table(con, detector, "pairs", settings, name,
                     {"parts": parts, "part": part}, append=part > 0)  # fmt: skip
    for table in steps.values():
        con.execute(f"DROP TABLE {table}")
