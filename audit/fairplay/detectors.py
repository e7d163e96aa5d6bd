"""The fair-play detectors. Each runs its SQL (``sql/<name>.sql``, whose opening comment
states the pattern and its null model), tests every pair or account it lists, corrects
for all of them at once (``engine.Hypotheses``) and reports what stands out.

- ``co_seating`` and ``shared_identity``: Poisson, against random seating;
- ``feeding`` and ``soft_drop``: beta-binomial, a player's rate with one other player
  against their own rate without them (``_pair_rates``);
- ``chip_dumping``: binomial, who wins between two players against their own results;
- ``loss_dumping``: Bennett's bound, the points one concedes to the other against their
  losses to others and the other's opponents' losses to them;
- ``bots``: binomial, decisions too close to the player's median time for a person.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from audit import duck
from audit.duck import literal
from audit.fairplay.engine import (
    Hypotheses,
    Settings,
    Tested,
    Words,
    column,
    create_table,
    ids,
    run_sql,
    screened,
    statements,
    suspicions,
)
from audit.fairplay.stats import (
    BEYOND_ALPHA,
    OWN_WEIGHT,
    WITHOUT_ALPHA,
    Array,
    bennett_sf,
    betabinom_min_p,
    betabinom_sf,
    beyond_the_night,
    binom_sf,
    binom_sf_real,
    fewer,
    poisson_sf,
    prior_weight,
)
from audit.fairplay.suspicion import how_sure


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def _pair(row: Mapping[str, Any]) -> tuple[str, ...]:
    return (row["a"], row["b"])


# ---------------------------------------------------------------- rates with and without


def _pair_rates(
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
            own &= binom_sf(k0, n0, rate) <= BEYOND_ALPHA
            prior = np.where(own, min(OWN_WEIGHT, bulk), bulk)
            alpha = prior * rate + k0
            beta = prior * (1 - rate) + (n0 - k0)
        if "gn0" in table.column_names:  # the other side's own effect on everyone else
            alpha, beta = _raised(alpha, beta, column(table, "gn0"), column(table, "gk0"),
                                  rate, bulk)  # fmt: skip
        expected = n1 * alpha / (alpha + beta)
        return Hypotheses(
            table.append_column("alpha", pa.array(alpha)).append_column("beta", pa.array(beta)),
            betabinom_sf(k1, n1, alpha, beta), expected, k1,
            np.where(expected > 0, k1 / np.maximum(expected, 1e-12), 0.0),
            min_p=betabinom_min_p(n1, alpha, beta),
        )  # fmt: skip

    found = screened(con, name, settings, test).correct(settings)
    con.execute(f"DROP TABLE {name}")
    if "trials" in statements(detector) and found.report.any():
        found.report &= _not_explained(con, detector, found, settings)
    return found


class _Strata:
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

    Beyond the night: over A's whole night (``beyond``, as ``_pair_rates``), or over all of
    A's hands in the pair's kinds of game, with B or without, at ``BEYOND_ALPHA`` (a blind
    tester's honest player who folds at 6-player tables and never heads-up was not above
    the night's rate over their night, 13 strong drops in 336 hands, and far above it at
    those tables, 13 in 98); still without B at ``WITHOUT_ALPHA``, over the strata where A
    has hands without B, their weights scaled to 1. A weighted rate (sum_s w_s k_s / n_s)
    is a count in 1 / sum_s (w_s^2 / n_s) trials (the weighted estimator's effective sample
    size), tested against the night's rates there, weighted alike (``binom_sf_real``)."""
    strata = _Strata(table, "n1_s")
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


def _raised(
    alpha: Array, beta: Array, n: Array, k: Array, rate: Array, weight: float
) -> tuple[Array, Array]:
    """The baseline raised by the other player's own effect on everyone else: how much more
    often than the night's rate other players take their discards (shrunk toward 1 by
    ``weight`` trials, never below 1), keeping the baseline's spread (``alpha + beta``)."""
    factor = np.maximum(1.0, (k + weight * rate) / (n + weight) / rate)
    total = alpha + beta
    mean = np.minimum(alpha / total * factor, 0.999)
    return mean * total, (1 - mean) * total


def _not_explained(
    con: duckdb.DuckDBPyConnection, detector: str, found: Hypotheses, settings: Settings
) -> NDArray[np.bool_]:
    """Explaining away: a reported pair (A, C) stands only if it is still significant (p at
    or below the largest p reported) and still beats the effect floor in the hands where
    none of A's stronger reported partners (smaller p) sat. A colluder's soft drops with
    their partner otherwise make a suspect of every third player at those tables."""
    picked = [int(i) for i in np.flatnonzero(found.report)]
    pairs = list(zip(ids(found.table, "a"), ids(found.table, "b"), strict=True))
    trials = run_sql(con, detector, "trials", settings, flagged=[pairs[i] for i in picked])
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
        n, k = float(len(rest)), float(sum(rest))
        a, b = alphas[i : i + 1], betas[i : i + 1]
        alone = float(betabinom_sf(np.array([k]), np.array([n]), a, b)[0]) if n else 1.0
        keep[i] = alone <= cutoff and k >= settings.min_effect * n * float(a[0] / (a[0] + b[0]))
        seen[player].update(hands[player, partner])
    return keep


def _set_aside(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    """The table ``feed_aside``: each B's hands dealt with a player A whom B plays for,
    taking significantly fewer discards with A at the table than both elsewhere and the
    night's rate (``stats.fewer``; Benjamini-Hochberg at ``BEYOND_ALPHA``, effect floor)."""
    create_table(con, "feeding", "partners", settings, "feeding_partners")

    def test(table: pa.Table) -> Hypotheses:
        k1, n1, k0, n0 = (column(table, c) for c in ("k1", "n1", "k0", "n0"))
        p, least, expected = fewer(k1, n1, k0, n0, column(table, "rate"), BEYOND_ALPHA)
        return Hypotheses(table, p, expected, k1, expected / np.maximum(k1, 1e-9), min_p=least)

    guard = replace(settings, thresholds=replace(settings.thresholds, report=BEYOND_ALPHA))
    found = screened(con, "feeding_partners", guard, test).correct(guard)
    con.execute("DROP TABLE feeding_partners")
    pairs = list(zip(ids(found.table, "a"), ids(found.table, "b"), strict=True))
    run_sql(con, "feeding", "aside", settings, [pairs[i] for i in np.flatnonzero(found.report)])


def feeding(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """B takes A's discards far more often than other players' (fairplay.collusion)."""
    _set_aside(con, settings)
    found = _pair_rates(con, "feeding", settings, baseline="b")

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, n1, k1, melded = r["a"], r["b"], r["n1"], r["k1"], r["melded"]
        expected = float(found.expected[i])
        aside = f", the hands with {r['aside']} left out" if r["aside"] else ""
        return (
            f"{b} took {k1} of the {n1} discards {a} left on the pile ({melded} of them ended "
            f"in {b}'s melds), against {expected:.1f} expected from {b}'s play with other "
            f"players' discards{aside} "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{b} takes about {_pct(expected / n1)} of discards: {expected:.1f} of {a}'s {n1}",
            f"{b} took {k1} of the {n1} discards {a} left, melded {melded}",
        )

    words = Words(
        "fairplay.collusion",
        needs="pair of players where one drew with the other's discard on top of the pile",
        statistic="beta-binomial: B's takes of A's discards against B's own rate with other "
                  "players' discards, raised for a careless A",
        pattern="a player takes another's discards far more often than other players' "
                "discards",
        benign="a strong player seated right after a weak one, whose discards are often "
               "useful",
    )  # fmt: skip
    tested = suspicions(con, "feeding", found, settings, words, players=_pair, text=text)
    con.execute("DROP TABLE feed_aside")
    return tested


def soft_drop(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """A gives up strong hands early when B is at the table (fairplay.soft_drop)."""
    found = _pair_rates(con, "soft_drop", settings, baseline="a")

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, n1, k1 = r["a"], r["b"], r["n1"], r["k1"]
        expected = float(found.expected[i])
        return (
            f"{a} dropped a strong hand early in {k1} of the {n1} hands dealt with {b} at the "
            f"table, against {expected:.1f} expected from {a}'s play without {b} "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{a} drops a strong hand early in {expected:.1f} of {n1} hands with {b}",
            f"{a} dropped a strong hand early in {k1} of {n1} hands with {b}",
        )

    words = Words(
        "fairplay.soft_drop",
        needs="pair of players dealt into one hand of a format whose rules allow drops",
        statistic="beta-binomial: A's early drops of strong hands with B at the table against "
                  "A's own rate without B",
        pattern="a player gives up strong hands early when a particular player is at the "
                "table",
        benign="a cautious player, or one who drops when tired or busy at another table",
    )  # fmt: skip
    tested = suspicions(con, "soft_drop", found, settings, words, players=_pair, text=text)
    con.execute("DROP TABLE soft_trial")  # its ``prepare``'s, read by every later statement
    return tested


# ---------------------------------------------------------------- money


def _strength(
    wins: np.ndarray, hands: np.ndarray, fair: np.ndarray, prior: float, table: np.ndarray
) -> np.ndarray:
    """A player's strength in Luce's choice model (chip_dumping.sql): their win odds at
    their tables against an average player's, ``(n - 1) w / (1 - w)``, with ``w`` their
    win rate shrunk toward an average player's ``1 / n`` by ``prior`` expected wins and
    ``n`` their tables' size, ``hands / fair`` (``table`` where they have no hands). An
    average player is 1; at a table of two it is the plain win odds (Bradley-Terry).

    >>> one = np.array([1.0])
    >>> _strength(one * 6, one * 7, one * 3.5, 0.0, one).round(6).tolist()  # 6 of 7, heads-up
    [6.0]
    >>> _strength(one * 10, one * 60, one * 10, 5.0, one).round(6).tolist()  # 1 in 6: average
    [1.0]
    """
    n = np.where(fair > 0, hands / np.where(fair > 0, fair, 1.0), table)
    rate = (wins + prior) / (hands + prior * n)
    return (n - 1.0) * rate / (1.0 - rate)


def chip_dumping(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """B wins the hands between A and B far beyond their own results, and the points flow
    the same way (fairplay.chip_dumping)."""
    _pairs_in_parts(con, settings, "chip_dumping", {"seats": "chip_seat", "players": "chip_player"},
                    "SELECT sum(n - 1) FROM chip_seat", "chip_pairs")  # fmt: skip

    def test(table: pa.Table) -> Hypotheses:
        col = {name: column(table, name) for name in table.column_names
               if name not in ("a", "b")}  # fmt: skip
        c, mu = settings.win_prior, col["mu"]
        size = col["hands"] / col["fair"]  # the pair's tables, for an account without others
        skill_a = _strength(col["a_wins0"], col["a_hands0"], col["a_fair0"], c, size)
        # B's record elsewhere counted in the hands B would have played on at A's table:
        # only B's own folding less with A explains B's wins there, never A's (docs/fairplay.md)
        k, folds = settings.fold_prior, col["folds"]
        fold0 = (col["b_drops0"] + k * folds) / (col["b_hands0"] + k)
        fold_ab = (col["b_drops"] + k * fold0) / (col["hands"] + k)
        played = np.maximum((1.0 - fold_ab) / (1.0 - fold0), 1.0)
        skill_b = _strength(col["b_wins0"], col["b_hands0"] / played, col["b_fair0"] / played,
                            c, size)  # fmt: skip
        mu_a = (col["a_conc0"] + c * mu) / (col["a_losses0"] + c)
        mu_b = (col["b_conc0"] + c * mu) / (col["b_losses0"] + c)
        decided = col["a_won"] + col["b_won"]  # the hands one of the two won
        share = skill_b / (skill_a + skill_b)  # B's share of them, by their own results
        # the effect: A's points to B over B's to A, against the ratio their results predict
        # (each side given one average hand's concession, so a pair of few hands stays modest)
        flow = (((col["a_gave"] + mu) / (col["b_gave"] + mu))
                / ((skill_b * mu_a) / (skill_a * mu_b)))  # fmt: skip
        return Hypotheses(
            table, np.where(decided > 0, binom_sf(col["b_won"], decided, share), 1.0),
            decided * share, col["b_won"], flow, min_p=np.power(share, decided),
        )  # fmt: skip

    found, flows = _moving(con, settings, "chip_pairs", test)

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b = r["a"], r["b"]
        money = flows.said(a, b)
        decided = int(r["a_won"]) + int(r["b_won"])
        won = f"{r['b_won']} of the {decided} hands one of them won"
        return (
            f"In {r['hands']} hands together {b} won {won} (against {found.expected[i]:.1f} "
            f"expected from their own results), and {a} conceded {r['a_gave']:.0f} points to "
            f"{b} while {b} conceded {r['b_gave']:.0f} to {a}{money} "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{b} wins {found.expected[i]:.1f} of the {decided} hands {a} or {b} wins",
            f"{b} won {won}; {a} conceded {r['a_gave']:.0f} points to {b}, {b} "
            f"{r['b_gave']:.0f} to {a}",
        )

    words = Words(
        "fairplay.chip_dumping",
        needs=f"pair of players with {settings.min_hands} or more hands won by either "
        f"with both at the table, in {' or '.join(settings.flow_formats)} games",
        statistic="binomial: B's share of the hands one of A and B won, against their "
                  "strengths (win odds) without the other; the points must flow the same way",
        pattern="points or money flowing one way between two accounts beyond what their "
                "results predict",
        benign="a weak player who loses to a strong one whose record elsewhere is too thin "
               "to show it",
        effect_name="flow ratio",
    )  # fmt: skip
    return suspicions(con, "chip_dumping", found, settings, words, players=_pair, text=text,
                      money=flows.money)  # fmt: skip


def loss_dumping(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """A concedes B far bigger losses in the hands B wins than A's losses to others in the
    same kind of game and B's other opponents' losses to B predict, and the points run
    from A to B (fairplay.loss_dumping, loss_dumping.sql)."""
    for section in ("seats", "strata", "losers", "winners"):
        run_sql(con, "loss_dumping", section, settings)
    create_table(con, "loss_dumping", "pairs", settings, "loss_pairs")
    for table in ("loss_seat", "loss_stratum", "loss_player", "loss_winner"):
        con.execute(f"DROP TABLE {table}")

    def test(table: pa.Table) -> Hypotheses:
        c, unit = settings.win_prior, 1e6  # x is in millionths of its stratum's mean
        cells = _Strata(table, "n_s")
        per_pair = cells.total
        seats = np.maximum(cells["seats_s"], 1.0)
        mu, m2 = cells["st_sx_s"] / seats / unit, cells["st_qx_s"] / seats / unit**2
        top, n, losses0 = cells["top_s"] / unit, cells["n_s"], cells["a_losses0_s"]
        # A's mean loss to others in the stratum, shrunk toward the stratum's, and its spread
        mean_a = (cells["a_sx0_s"] / unit + c * mu) / (losses0 + c)
        var_a = np.maximum((cells["a_qx0_s"] / unit**2 + c * m2) / (losses0 + c) - mean_a**2,
                           1e-6)  # fmt: skip
        # B's factor: what B's other opponents conceded over their own means, shrunk to 1
        phi = ((column(table, "b_sx0") / unit + c)
               / (np.maximum(column(table, "b_predicted0"), 0.0) / unit + c))  # fmt: skip
        phi = phi[cells.row]
        each = np.minimum(mean_a * phi, top)  # what A concedes B in a hand, by the null
        # A's mean is an estimate from losses0 hands (and c of the stratum's): its error is
        # carried into the sum's variance
        variance = per_pair(n * var_a * phi**2 * (1.0 + n / (losses0 + c)))
        bound = np.maximum(cells.most(top - each), 1e-9)
        expected, observed = per_pair(n * each), per_pair(cells["sx_s"] / unit)
        ratio = np.where(expected > 0, observed / np.maximum(expected, 1e-12), 0.0)
        one_way = column(table, "pts") > column(table, "b_gave")  # the points run A to B
        points = column(table, "pts")
        return Hypotheses(
            table,
            np.where(one_way, bennett_sf(observed - expected, variance, bound), 1.0),
            np.where(ratio > 0, points / np.maximum(ratio, 1e-12), 0.0), points, ratio,
            min_p=bennett_sf(per_pair(n * (top - each)), variance, bound),
        )  # fmt: skip

    found, flows = _moving(con, settings, "loss_pairs", test)

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, n = r["a"], r["b"], int(r["hands"])
        money = flows.said(a, b)
        others = int(r["a_losses0"])
        elsewhere = (f"{r['a_pts0'] / others:.0f} a hand in their {others} other losses"
                     if others else "no other losses of theirs")  # fmt: skip
        got = f"{a} conceded {r['pts']} points to {b} in the {n} hands {b} won and {a} lost"
        return (
            f"{got} ({r['pts'] / n:.0f} a hand; {elsewhere}; every kind of game together), "
            f"{found.effect[i]:.1f} times the {found.expected[i]:.0f} that {a}'s own losses "
            f"to others in the same kinds of game and what {b}'s other opponents concede to "
            f"{b} predict; {b} conceded {r['b_gave']} points to {a}{money} "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{a} concedes {found.expected[i]:.0f} points in the {n} hands {b} won",
            f"{got}; {b} conceded {r['b_gave']} to {a}",
        )

    words = Words(
        "fairplay.loss_dumping",
        needs=f"pair of players with {settings.min_hands} or more hands one of them won and "
        f"the other lost, in {' or '.join(settings.flow_formats)} games",
        statistic="Bennett's bound: the points A conceded in the hands B won, against A's "
                  "losses to others in the same kinds of game and B's other opponents' "
                  "losses to B; the points must run from A to B",
        pattern="a player losing far bigger hands to one account than to anyone else",
        benign="a player who plays on against one opponent (a friend) where they would "
               "drop against others, who plays looser at the stakes or tables where they "
               "meet, or bad luck against that opponent",
        effect_name="loss ratio",
    )  # fmt: skip
    return suspicions(con, "loss_dumping", found, settings, words, players=_pair, text=text,
                      money=flows.money)  # fmt: skip


def _moving(
    con: duckdb.DuckDBPyConnection,
    settings: Settings,
    name: str,
    test: Callable[[pa.Table], Hypotheses],
) -> tuple[Hypotheses, _Flows]:
    """A money detector's pairs in DuckDB's table ``name`` tested (the table dropped after),
    and what the reported pairs moved."""
    found = screened(con, name, settings, test).correct(settings)
    con.execute(f"DROP TABLE {name}")
    picked = [found.row(int(i)) for i in np.flatnonzero(found.report)]
    return found, _Flows(con, settings, sorted({(r["a"], r["b"]) for r in picked}))


class _Flows:
    """What each flagged pair (A, B) moved, per unit in which something moved: (the unit's
    words after an amount: "" for money, " deals chips", " practice chips" ...; what A paid
    in the hands B won; what B paid in the hands A won). Never added up across units: a
    deals chip is not a rupee. What a player paid in a hand is their whole amount, to the
    winner and, in 21- and 27-card games, on value cards to others too: the words say "in
    the hands B won", not "to B"."""

    def __init__(
        self, con: duckdb.DuckDBPyConnection, settings: Settings, pairs: list[tuple[str, str]]
    ) -> None:
        self.moved: dict[tuple[str, str], list[tuple[str, Decimal, Decimal]]] = defaultdict(list)
        if not pairs:
            return
        table = run_sql(con, "chip_dumping", "money", settings, flagged=pairs)
        names = ("a", "b", "unit", "paid", "back")
        for a, b, unit, paid, back in zip(*(table.column(c).to_pylist() for c in names),
                                          strict=True):  # fmt: skip
            if Decimal(paid) or Decimal(back):
                words = "" if unit == "money" else f" {unit}"
                self.moved[a, b].append((words, Decimal(paid), Decimal(back)))

    def said(self, a: str, b: str) -> str:
        """The pair's money for a message, after a clause: "; A paid 880.00 in the hands B
        won and B paid 225.00 in the hands A won", or nothing."""
        moved = "; ".join(f"{a} paid {paid}{unit} in the hands {b} won and {b} paid "
                          f"{back}{unit} in the hands {a} won"
                          for unit, paid, back in self.moved.get((a, b), ()))  # fmt: skip
        return f"; {moved}" if moved else ""

    def money(self, row: Mapping[str, Any]) -> str | None:
        """The suspicion's ``money``: "880.00 paid by A in the hands B won, 225.00 by B in
        the hands A won", per unit."""
        a, b = row["a"], row["b"]
        return "; ".join(f"{paid}{unit} paid by {a} in the hands {b} won, {back}{unit} by "
                         f"{b} in the hands {a} won"
                         for unit, paid, back in self.moved.get((a, b), ())) or None  # fmt: skip


# ---------------------------------------------------------------- seating and identity


MEETINGS_PER_PART = 4_000_000
"""Co-seating and chip dumping list their pairs in parts of about this many meetings of two
players (at a game; in a hand), by the hash of the first player: co-seating's parts joined
with their strata, chip dumping's summed over the pair's hands."""


def _pairs_in_parts(
    con: duckdb.DuckDBPyConnection,
    settings: Settings,
    detector: str,
    steps: Mapping[str, str],
    meetings: str,
    name: str,
) -> None:
    """Run ``detector``'s ``steps`` (section -> the temp table it makes), then its ``pairs``
    statement in parts of about ``MEETINGS_PER_PART`` meetings (``meetings``: SQL counting
    them over the steps' tables) into the table ``name``; the steps' tables dropped after."""
    for section in steps:
        run_sql(con, detector, section, settings)
    (count,) = con.sql(f"SELECT coalesce(({meetings}), 0)").fetchall()[0]
    parts = duck.passes(int(count), MEETINGS_PER_PART)
    for part in range(parts):
        create_table(con, detector, "pairs", settings, name,
                     {"parts": parts, "part": part}, append=part > 0)  # fmt: skip
    for table in steps.values():
        con.execute(f"DROP TABLE {table}")


def co_seating(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """Pairs seated together more often than random seating predicts (Poisson, given that
    the pair met at all). Leaves the table ``co_seat`` for ``shared_identity``."""
    steps = {"players": "co_player", "lobbies": "co_lobby", "games": "co_game",
             "seated": "co_gp", "sizes": "co_size", "weights": "co_weight", "totals": "co_total"}
    _pairs_in_parts(con, settings, "co_seating", steps,
                    "SELECT sum(n * (n - 1) // 2) FROM co_size", "co_seat")  # fmt: skip

    def test(table: pa.Table) -> Hypotheses:
        games, expected = column(table, "games"), column(table, "expected")
        met = poisson_sf(np.ones_like(expected), expected)
        return Hypotheses(
            table, np.minimum(1.0, poisson_sf(games, expected) / np.maximum(met, 1e-300)),
            expected, games, games / np.maximum(expected, 1e-12),
        )  # fmt: skip

    found = screened(con, "co_seat", settings, test).correct(settings)
    expected = found.expected

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, x, lam = r["a"], r["b"], r["games"], float(expected[i])
        return (
            f"{a} and {b} sat at the same table in {x} games, against {lam:.2f} expected from "
            f"their play volume ({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{a} and {b} at one table in {lam:.2f} games",
            f"{a} and {b} at one table in {x} games",
        )

    words = Words(
        "fairplay.co_seating",
        needs="pair of accounts dealt into one game",
        statistic="Poisson: games shared, against random seating in proportion to each "
                  "account's play in its lobby and half hour (the configuration model)",
        pattern="two accounts seated together far more often than their play volume predicts",
        benign="friends or family who choose to play together",
    )  # fmt: skip
    return suspicions(con, "co_seating", found, settings, words, players=_pair, text=text)


def shared_identity(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """Accounts sharing a device or an IP address that sit at one table through it; their
    expected games are co-seating's, read from the table ``co_seat`` it leaves, which this
    drops. Without a sessions table it is skipped (not run), never "tested 0"."""
    needs = f"device_id or ip that 2 to {settings.max_accounts} accounts share in the sessions"
    if "sessions" in settings.unread:
        con.execute("DROP TABLE co_seat")
        return Tested("fairplay.shared_device", 0, [], needs, skipped=settings.unread["sessions"])
    table = run_sql(con, "shared_identity", "pairs", settings)
    con.execute("DROP TABLE co_seat")  # the last reader of co-seating's pairs
    games, expected = column(table, "games"), column(table, "expected")
    found = Hypotheses(
        table, np.where(games > 0, poisson_sf(games, np.maximum(expected, 1e-12)), 1.0),
        expected, games, np.where(games > 0, games / np.maximum(expected, 1e-12), 0.0),
        weights=1.0 / np.maximum(column(table, "accounts") - 1, 1),
    ).correct(settings)  # fmt: skip

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b, x, lam = r["a"], r["b"], r["games"], float(expected[i])
        what = {(True, True): "a device and an IP address", (True, False): "a device"}.get(
            (r["device"], r["ip"]), "an IP address"
        )
        return (
            f"{a} and {b} share {what} ({r['accounts']} accounts use it) and sat at one table "
            f"through it in {x} games ({r['device_games']} from one device), against "
            f"{lam:.2f} expected from their play volume "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{a} and {b} at one table in {lam:.2f} games",
            f"{a} and {b} at one table through {what} in {x} games",
        )

    words = Words(
        "fairplay.shared_device",
        needs=needs,
        statistic="Poisson: games at one table through a shared device or address, against "
                  "random seating; weighted by the accounts sharing it",
        pattern="accounts sharing a device or an IP address that sit at one table",
        benign="a family or flatmates sharing a device or a connection",
    )  # fmt: skip
    return suspicions(con, "shared_identity", found, settings, words, players=_pair, text=text)


# ---------------------------------------------------------------- bots


SEATS_PER_PART = 800_000
"""The bot test centres the accounts' decision times in parts of the accounts (by their
hash), one for about this many seats dealt (about ten decisions each): DuckDB's exact
median holds all of a part's decision times at once."""
BOT_ROWS = 16_384
"""Rows a part's Parquet writer holds before it writes them as a row group."""


def bots(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """Accounts whose decision times cluster too tightly around their median."""
    p0 = settings.bot_p0

    def test(table: pa.Table) -> Hypotheses:
        n, k = column(table, "n"), column(table, "k")
        return Hypotheses(
            table, binom_sf(k, n, np.full_like(n, p0)), n * p0, k,
            np.where(n > 0, (k / np.maximum(n, 1)) / p0, 0.0),
        )  # fmt: skip

    with tempfile.TemporaryDirectory(prefix="rummy-audit-", dir=duck.spill_folder(con)) as work:
        _decisions(con, settings, Path(work) / "decisions")
        found = screened(con, "bot_accounts", settings, test, key=("player_id",))
        found.correct(settings)
        flagged = [r["player_id"] for r in map(found.row, np.flatnonzero(found.report).tolist())]
        ratio: dict[str, float] = {}
        if flagged:
            detail = run_sql(con, "bots", "detail", settings, flagged=[(p, p) for p in flagged])
            names = ("a", "play_draw_ratio")
            for a, r in zip(*(detail.column(c).to_pylist() for c in names), strict=True):
                ratio[str(a)] = float(r) if r is not None else float("nan")
        con.execute("DROP TABLE bot_accounts; DROP VIEW decision; DROP VIEW decision_part")
    stretch = _stretches(con, flagged, settings)

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, total, near = r["player_id"], int(r["n"]), int(r["k"])
        longest, clock = stretch.get(a, (None, 0))
        if longest is None:  # no session row of theirs: the length of play is unknown
            why = settings.unread.get("sessions") or f"the sessions table has no row for {a}"
            longest = f"not measured ({why})"
        return (
            f"{a}'s decisions are machine-regular: {near} of {total} fall within "
            f"{_pct(settings.window - 1)} of a median {r['median_s']:.2f} s (log-sd "
            f"{r['sd']:.2f}; plays take {ratio.get(a, float('nan')):.2f}x a draw), where a person "
            f"puts at most {_pct(p0)} there; longest play without a {settings.break_minutes}-"
            f"minute break {longest}, {clock} clock hours played "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).",
            f"{a}: at most {total * p0:.0f} of {total} decisions near the median",
            f"{a}: {near} of {total} decisions near the median",
        )

    words = Words(
        "fairplay.bot",
        needs=f"account with {settings.min_decisions} or more timed decisions",
        statistic="binomial: decisions within the window around the median time, against "
                  "the most a person's spread allows",
        pattern="decision times too regular for a person",
        benign="a player using the client's auto-play or pre-selected moves",
    )  # fmt: skip
    def one(row: Mapping[str, Any]) -> tuple[str, ...]:
        return (row["player_id"],)
    return suspicions(con, "bots", found, settings, words, players=one, text=text)


def _decisions(con: duckdb.DuckDBPyConnection, settings: Settings, folder: Path) -> None:
    """Every account's timed decisions, written under ``folder`` in parts by the hash of the
    account (the view ``decision`` reads them all), and each part's accounts centred in
    turn into the table ``bot_accounts``: a part is read alone, so the night is read once
    however many parts it has."""
    (seats,) = con.sql("SELECT count(*) FROM seat").fetchall()[0]
    parts = duck.passes(int(seats), SEATS_PER_PART)
    query = statements("bots")["decisions"]
    duck.copy_parts(con, query, folder, "part", BOT_ROWS, params={"parts": parts})
    written = sorted(folder.glob("part=*"), key=lambda path: int(path.name[len("part="):]))
    if not written:  # not one timed decision in the night
        con.execute(
            "CREATE OR REPLACE TEMP VIEW decision AS SELECT CAST(NULL AS VARCHAR) AS player_id,"
            " CAST(NULL AS VARCHAR) AS action, CAST(NULL AS DOUBLE) AS lt WHERE false"
        )
    else:
        files = literal(str(folder / "*" / "*.parquet"))
        con.execute("CREATE OR REPLACE TEMP VIEW decision AS SELECT player_id, action, lt"
                    f" FROM read_parquet({files}, hive_partitioning = false)")  # fmt: skip
    for i, part in enumerate(written or [None]):
        source = "decision" if part is None else (
            f"read_parquet({literal(str(part / '*.parquet'))}, hive_partitioning = false)"
        )  # fmt: skip
        con.execute(
            f"CREATE OR REPLACE TEMP VIEW decision_part AS SELECT player_id, lt FROM {source}"
        )
        create_table(con, "bots", "accounts", settings, "bot_accounts", append=i > 0)


def _stretches(
    con: duckdb.DuckDBPyConnection, players: list[str], settings: Settings
) -> dict[str, tuple[str | None, int]]:
    """Per account: its longest play without a break ("3.6 h (24 games)"; ``None`` when
    no sessions row of theirs tells when they played: not measured, never 0 h) and the
    clock hours of its events."""
    if not players:
        return {}
    table = run_sql(con, "bots", "stretches", settings, flagged=[(p, p) for p in players])
    names = ("a", "longest_hours", "games_in_it", "hours_played")
    return {
        str(a): (None if h is None else f"{float(h):.1f} h ({int(g or 0)} games)", int(c or 0))
        for a, h, g, c in zip(*(table.column(x).to_pylist() for x in names), strict=True)
    }


PAIR_DETECTORS: tuple[Callable[[duckdb.DuckDBPyConnection, Settings], Tested], ...] = (
    co_seating, shared_identity, feeding, soft_drop, chip_dumping, loss_dumping,
)  # fmt: skip
"""In this order: ``shared_identity`` reads (and drops) the table ``co_seating`` leaves.
Every other table a detector makes it drops itself, so none holds memory or spill space
through the detectors after it (co-seating's pairs and soft drop's trials did)."""
