"""The money detectors: points and money flowing one way between two accounts.

- ``chip_dumping``: binomial, who wins between two players against their own results;
- ``loss_dumping``: Bennett's bound, the points one concedes to the other against their
  losses to others and the other's opponents' losses to them.

Both say what a reported pair moved, per unit (``_Flows``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

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
    suspicions,
)
from audit.fairplay.pairs import Strata, pair, pairs_in_parts
from audit.fairplay.stats import (
    BEYOND_ALPHA,
    Array,
    bennett_sf,
    binom_sf,
    chi2_sf,
    normal_sf,
)
from audit.fairplay.suspicion import how_sure
from audit.findings import Severity


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


def _at_size(
    skill: Array, wins: Array, hands: Array, fair: Array, prior: float, table: Array
) -> Array:
    """A player's strength at one hand size (``_strength`` of their record there), shrunk
    toward their strength over every size (``skill``) rather than toward an average
    player's: ``prior`` expected wins at the win rate ``skill`` gives at their tables of
    that size, ``skill / (skill + n - 1)`` (for an average player, ``_strength``'s prior).
    With no hands at that size it is ``skill``.

    >>> one = np.array([1.0])
    >>> _at_size(one * 3, one * 0, one * 0, one * 0, 5.0, one * 3).round(6).tolist()  # none
    [3.0]
    >>> _at_size(one, one * 60, one * 100, one * 50, 5.0, one * 2).round(6).tolist()  # 60 of 100
    [1.444444]
    """
    n = np.where(fair > 0, hands / np.where(fair > 0, fair, 1.0), table)
    rate = (wins + prior) / (hands + prior * (skill + n - 1.0) / skill)
    return (n - 1.0) * rate / (1.0 - rate)


def _win_prior(spread: float, least: float) -> float:
    """The expected wins an average player's record is worth in a player's strength: one
    over the night's spread of strengths beyond chance (``spread``, chip_dumping.sql's
    method of moments; empirical Bayes), never fewer than ``least`` (``win_prior``), and
    at most 10,000 where the night shows no spread at all. A night of players much alike
    shrinks a short lucky record far toward average; one of very unequal players keeps
    each record nearly as it is.

    >>> _win_prior(0.04, 5.0), _win_prior(0.5, 5.0), _win_prior(-0.01, 5.0)
    (25.0, 5.0, 10000.0)
    """
    return min(max(1.0 / spread, least), 10_000.0) if spread > 0 else 10_000.0


def chip_dumping(con: duckdb.DuckDBPyConnection, settings: Settings) -> Tested:
    """B wins the hands between A and B far beyond their own results, and the points flow
    the same way (fairplay.chip_dumping)."""
    steps = {"seats": "chip_seat", "players": "chip_player", "sizes": "chip_size",
             "candidates": "chip_cand"}
    pairs_in_parts(con, settings, "chip_dumping", steps, _MEETINGS, "chip_pairs",
                   _WEIGHT)

    sizes: set[int] = set()  # the night's hand sizes, where several: the benign reading

    def test(table: pa.Table) -> Hypotheses:
        col = {name: column(table, name) for name in table.column_names
               if name not in ("a", "b") and not name.endswith("_s")}  # fmt: skip
        c, mu = settings.win_prior, col["mu"]
        prior = (_win_prior(float(col["spread"][0]) if table.num_rows else 0.0, c)
                 if settings.fit_win_prior else c)  # fmt: skip
        size = col["hands"] / col["fair"]  # the pair's tables, for an account without others
        skill_a = _strength(col["a_wins0"], col["a_hands0"], col["a_fair0"], prior, size)
        # B's record elsewhere counted in the hands B would have played on at A's table:
        # only B's own folding less with A explains B's wins there, never A's (docs/fairplay.md)
        k, folds = settings.fold_prior, col["folds"]
        fold0 = (col["b_drops0"] + k * folds) / (col["b_hands0"] + k)
        fold_ab = (col["b_drops"] + k * fold0) / (col["hands"] + k)
        played = np.maximum((1.0 - fold_ab) / (1.0 - fold0), 1.0)
        skill_b = _strength(col["b_wins0"], col["b_hands0"] / played, col["b_fair0"] / played,
                            prior, size)  # fmt: skip
        mu_a = _mean_loss(col, c)
        mu_b = (col["b_conc0"] + c * mu) / (col["b_losses0"] + c)
        decided = col["a_won"] + col["b_won"]  # the hands one of the two won
        share = skill_b / (skill_a + skill_b)  # B's share of them, by their own results
        predicted = (skill_b * mu_a) / (skill_a * mu_b)  # B's points from A over A's from B
        if table.num_rows and col["sizes"][0] > 1:  # several hand sizes: B's share at each
            sizes.add(int(col["sizes"][0]))
            drift = float(col["drift"][0])
            at = _win_prior(drift, c) if settings.fit_win_prior else c
            share = _sized_share(table, skill_a, skill_b, played, decided, at)
            predicted = share / (1.0 - share) * mu_a / mu_b
        # the effect: A's points to B over B's to A, against the ratio their results predict
        # (each side given one average hand's concession, so a pair of few hands stays modest)
        flow = ((col["a_gave"] + mu) / (col["b_gave"] + mu)) / predicted
        return Hypotheses(
            table, np.where(decided > 0, binom_sf(col["b_won"], decided, share), 1.0),
            decided * share, col["b_won"], flow, min_p=np.power(share, decided),
        )  # fmt: skip

    _second_pass(con, settings, test)
    found, flows = _moving(con, settings, "chip_pairs", test)

    # the most each pair's suspicion is (docs/fairplay.md, "Loss sizes"): minor where A's
    # record without B is too thin to weigh A's losses to B against, info where it shows
    # them of A's usual size
    long, usual = _loss_sizes({name: column(found.table, name) for name in _SIZES},
                              settings.win_prior, settings.loss_record)  # fmt: skip
    pairs = zip(ids(found.table, "a"), ids(found.table, "b"), strict=True)
    caps = {pair: Severity.MINOR if not held else Severity.INFO if same else Severity.MAJOR
            for pair, held, same in zip(pairs, long, usual, strict=True)}  # fmt: skip

    def most(r: Mapping[str, Any]) -> Severity:
        return caps[r["a"], r["b"]]

    def text(r: Mapping[str, Any], i: int) -> tuple[str, str, str]:
        a, b = r["a"], r["b"]
        money = flows.said(a, b)
        decided = int(r["a_won"]) + int(r["b_won"])
        won = f"{r['b_won']} of the {decided} hands one of them won"
        # Two who played no hand apart have no results of their own to weigh: an even
        # share (a blind tester read "from their own results" of such a pair)
        own = ("an even share: neither was dealt a hand without the other"
               if not r["a_hands0"] and not r["b_hands0"] else "their own results")
        each = f"{r['a_gave'] / r['b_won']:.1f} a hand" if r["b_won"] else "none"
        losses0 = int(r["a_losses0"])
        apart = (f"{r['a_conc0'] / losses0:.1f} a hand in their {losses0} losses without {b}"
                 if losses0 else f"no hand lost without {b}")  # fmt: skip
        cap, uncapped = most(r), settings.thresholds.severity(float(found.q[i]))
        alone = ""
        if cap is Severity.INFO:
            alone = (f" {a}'s losses to {b} are no bigger than their {losses0} without {b} "
                     "show, so the count of wins alone speaks, as a weak player's against a "
                     "strong one would: info at most.")  # fmt: skip
        elif cap is Severity.MINOR and uncapped is not None and uncapped.rank > cap.rank:
            alone = (f" {a}'s record without {b} is too thin ({losses0} losses) to tell a "
                     "weak player's losses to a strong friend from a dumper's: minor at "
                     "most.")  # fmt: skip
        return (
            f"In {r['hands']} hands together {b} won {won} (against {found.expected[i]:.1f} "
            f"expected from {own}), and {a} conceded {r['a_gave']:.0f} points to "
            f"{b} ({each}; {apart}) while {b} conceded {r['b_gave']:.0f} to {a}{money} "
            f"({how_sure(float(found.p[i]), float(found.q[i]), found.tests)}).{alone}",
            f"{b} wins {found.expected[i]:.1f} of the {decided} hands {a} or {b} wins",
            f"{b} won {won}; {a} conceded {r['a_gave']:.0f} points to {b}, {b} "
            f"{r['b_gave']:.0f} to {a}",
        )

    several = bool(sizes)
    words = Words(
        "fairplay.chip_dumping",
        needs=f"pair of players with {settings.min_hands} or more hands won by either "
        f"with both at the table, in {' or '.join(settings.flow_formats)} games",
        statistic="binomial: B's share of the hands one of A and B won, against their "
                  "strengths (win odds) without the other; the points must flow the same way",
        pattern="points or money flowing one way between two accounts beyond what their "
                "results predict",
        benign=("a weak player who loses to a strong one (or to one strong only at the hand "
                "size they met at) whose record elsewhere, or at that size, is too thin to "
                "show it" if several else "a weak player who loses to a strong one whose "
                "record elsewhere is too thin to show it"),
        effect_name="flow ratio",
    )  # fmt: skip

    return suspicions(con, "chip_dumping", found, settings, words, players=pair, text=text,
                      money=flows.money, most=most)  # fmt: skip


_SIZES = ("b_won", "a_gave", "a_conc0", "a_conc20", "a_losses0", "mu", "mu2")
"""The columns of a chip-dumping pair ``_loss_sizes`` reads."""
_MEETINGS = "SELECT sum(meets) FROM chip_cand"
"""Chip dumping's meetings of two players in a hand, of the pairs it sums, for its parts."""
_WEIGHT = 4
"""What one of chip dumping's meetings weighs against co-seating's (``pairs_in_parts``): its
pairs carry about 40 sums and lists each (the second pass's records without the partners,
each hand size's lists), and the million-hand night's pairs in one part took DuckDB past its
512 MB limit (until 2026-12-07: "could not allocate block", and no suspicion reported)."""


def _mean_loss(col: Mapping[str, Array], prior: float) -> Array:
    """A's mean concession in the hands A lost without B, shrunk toward the night's mean
    (``mu``) by ``prior`` losses."""
    return (col["a_conc0"] + prior * col["mu"]) / (col["a_losses0"] + prior)


def _loss_sizes(
    col: Mapping[str, Array], prior: float, record: int
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Chip dumping's loss sizes (docs/fairplay.md): whether A's record without B is long
    enough to weigh A's losses in the hands B won against (at least ``record`` losses, or
    as many as B won from A if fewer), and, where it is, whether it shows them of A's usual
    size (not beyond chance, ``_bigger``, at ``BEYOND_ALPHA``). A dumper plays on to lose
    the full count where a drop would cost a fraction, the money being the point; a weak
    player who never drops loses to a strong friend as to anyone, and Luce's share does not
    hold in a race between a strong and a weak player. Shown of the usual size, the count
    of wins alone speaks and a suspicion is ``info`` at most (until 2026-12-07 a blind
    tester's honest P04, who won 3 of the 55 hands one of them won against P03, the
    night's strongest, with 33.3 expected, and conceded 64.5 a hand to P03 against 58.3 in
    69 losses without, was P03's dumper at major). Too short a record cannot tell a weak
    friend from a dumper, and a suspicion is ``minor`` at most (a blind tester's weak
    player who played nearly only with a strong friend, 12 losses without, was the
    friend's dumper at major on 3 nights of 4); the simulator's dumpers, who play nearly
    every hand with the partner, are then ``minor`` at most too.

    >>> one = lambda v: np.array([float(v)])
    >>> night = {"mu": one(40), "mu2": one(2000)}  # the night's: 40 a loss, spread 20
    >>> usual = {**night, "b_won": one(20), "a_gave": one(20 * 42), "a_conc0": one(40 * 40),
    ...          "a_conc20": one(40 * 2000), "a_losses0": one(40)}  # 42 a hand, 40 elsewhere
    >>> [x.tolist() for x in _loss_sizes(usual, 5.0, 20)]
    [[True], [True]]
    >>> [x.tolist() for x in _loss_sizes({**usual, "a_gave": one(1600)}, 5.0, 20)]  # all 80
    [[True], [False]]
    >>> [x.tolist() for x in _loss_sizes({**usual, "a_losses0": one(12)}, 5.0, 20)]  # thin
    [[False], [False]]
    """
    long = np.asarray(col["a_losses0"] >= np.minimum(col["b_won"], record), dtype=np.bool_)
    return long, np.asarray(long & (_bigger(col, prior) > BEYOND_ALPHA), dtype=np.bool_)


def _bigger(col: Mapping[str, Array], prior: float) -> Array:
    """How likely A concedes so much in the hands B won, were each of those concessions one
    of A's losses without B (one-sided, normal): their mean (``_mean_loss``) and variance,
    each shrunk toward the night's by ``prior`` losses; the mean's own error widens the
    variance, as in loss dumping.

    >>> one = lambda v: np.array([float(v)])
    >>> night = {"mu": one(40), "mu2": one(2000)}  # the night's: 40 a loss, spread 20
    >>> full = {**night, "b_won": one(20), "a_gave": one(1600), "a_conc0": one(40 * 40),
    ...         "a_conc20": one(40 * 2000), "a_losses0": one(40)}  # the full 80, 20 times
    >>> float(_bigger(full, 5.0)[0]) < 1e-4
    True
    >>> usual = {**full, "a_gave": one(20 * 42)}  # 42 a hand: as elsewhere
    >>> float(_bigger(usual, 5.0)[0]) > 0.3
    True
    """
    n, losses0, mean = col["b_won"], col["a_losses0"], _mean_loss(col, prior)
    spread = np.maximum((col["a_conc20"] + prior * col["mu2"]) / (losses0 + prior) - mean**2,
                        1.0)  # fmt: skip
    variance = n * spread * (1.0 + n / (losses0 + prior))
    return normal_sf((col["a_gave"] - n * mean) / np.sqrt(np.maximum(variance, 1e-9)))


def _second_pass(
    con: duckdb.DuckDBPyConnection, settings: Settings, test: Callable[[pa.Table], Hypotheses]
) -> None:
    """Chip dumping's pairs table ``chip_pairs`` again, leaving out each player's hands
    dealt with a partner the first pass suspected (significant at ``BEYOND_ALPHA`` after
    Benjamini-Hochberg, the effect floor beaten), both ways: from the player's own record
    and from every other pair's count, never from the count of the two. A dumper's hands
    thrown to the partner made the dumper weak by their own results, and an ordinary run
    of wins against them a dumping (until 2026-12-06: a blind tester's P062, who lost all
    58 hands one of them won to P063, made honest P070 a dumper to P062, 15 of 19 against
    6.7 expected, q = 0.0066, and a ring of the three). Left in the other pairs' counts,
    the partner's wins at the dumper's table, against a record without the gifts, made
    dumpers of the third players there (synthetic nights). Nothing suspected on the first
    pass, the first pass's table stands: the same bits. The seats are built again for the
    second pass rather than kept through the first pass's test, which then holds only the
    pairs in DuckDB's memory."""
    guard = replace(settings, thresholds=replace(settings.thresholds, report=BEYOND_ALPHA))
    first = screened(con, "chip_pairs", guard, test).correct(guard)
    pairs = list(zip(ids(first.table, "a"), ids(first.table, "b"), strict=True))
    flagged = [pairs[i] for i in np.flatnonzero(first.report)]
    if flagged:
        run_sql(con, "chip_dumping", "seats", settings)
        run_sql(con, "chip_dumping", "aside", settings, flagged=flagged)
        steps = {"players": "chip_player", "sizes": "chip_size", "candidates": "chip_cand"}
        pairs_in_parts(con, settings, "chip_dumping", steps, _MEETINGS, "chip_pairs",
                       _WEIGHT)
        con.execute("DROP TABLE chip_seat")
        # a suspected pair every hand of which held another partner set aside has no count
        # left: the first pass's stands (until 2026-12-07 such a pair vanished: a blind
        # tester's dumper, whose partner sat at one table of four with them and two others
        # in every hand, all three suspected with the partner on the first pass)
        con.register("chip_first", first.table.take(np.flatnonzero(first.report)))
        con.execute("INSERT INTO chip_pairs SELECT * FROM chip_first f WHERE NOT EXISTS "
                    "(SELECT 1 FROM chip_pairs p WHERE p.a = f.a AND p.b = f.b)")  # fmt: skip
        con.unregister("chip_first")


def _sized_share(
    table: pa.Table, skill_a: Array, skill_b: Array, played: Array, decided: Array, prior: float
) -> Array:
    """B's share of the hands one of A and B won, on a night of several hand sizes: at each
    size the pair met at, the share of the two strengths there (``_at_size``: each from
    the hands without the other at that size, B's scaled by B's folds as over the night,
    shrunk toward the player's strength by ``prior``, the night's spread of strengths
    between hand sizes: chip_dumping.sql's ``drift``), weighted by the hands one of them
    won at that size (by the pair's hands where they won none). Only a player whose wins
    depend on the hand size (Pearson's chi-square over their sizes, at ``BEYOND_ALPHA``)
    is taken at the size; anyone else keeps their one figure.

    A strength was one figure over every hand size: a blind tester's honest P07, who won
    81 % of 236 hands at 10 cards and 23 % of 124 at 13, named P10, a 10-card opponent, as
    a dumper at minor (P07 won 69 of the 81 hands one of them won, against 47.0 expected).
    Taken at the size without that test, an honest P32 (of one strength at every size) who
    had won 29 hands at 10 cards against a fair share of 41, and 48 against 44 at 13
    (without P11), made
    P11, who lost to P32 at 10 cards, a dumper (info: 31 of 38)."""
    cells = Strata(table, "hands_s")
    row = cells.row
    hands, decided_s = cells["hands_s"], cells["decided_s"]
    size = hands / cells["fair_s"]  # the pair's tables at that size
    at_a = _at_size(skill_a[row], cells["a_wins0_s"], cells["a_hands0_s"], cells["a_fair0_s"],
                    prior, size)  # fmt: skip
    at_b = _at_size(skill_b[row], cells["b_wins0_s"], cells["b_hands0_s"] / played[row],
                    cells["b_fair0_s"] / played[row], prior, size)  # fmt: skip
    for skill, at, name in ((skill_a, at_a, "a"), (skill_b, at_b, "b")):
        df = column(table, f"{name}_df")
        plain = (df < 1) | (chi2_sf(column(table, f"{name}_x2"), np.maximum(df, 1.0))
                            > BEYOND_ALPHA)  # fmt: skip
        at[:] = np.where(plain[row], skill[row], at)
    weight = np.where(decided[row] > 0, decided_s, hands)
    return cells.total(weight * at_b / (at_a + at_b)) / cells.total(weight)


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
        cells = Strata(table, "n_s")
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
    return suspicions(con, "loss_dumping", found, settings, words, players=pair, text=text,
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
