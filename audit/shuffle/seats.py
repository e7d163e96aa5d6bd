"""Does a seat get more jokers than the others? Tests of the deal itself.

The fraud that matters in a card room is a shuffle that favours a seat. A hand's jokers are
its printed jokers and every card of the wild rank (by the game's ruleset, from the wild
card at n*k). Given the wild card, a fair shuffle spreads the other L-1 cards uniformly, so:

- ``rng.seat_jokers``: given the D jokers dealt into a hand, each of its n seats' share is
  multivariate hypergeometric (mean D/n; covariance a/n (I - J/n) with
  a = D(nk-D)/(nk-1)). Summed over shoes, the seats' totals less their expectations, in the
  metric of their summed covariance, are chi-square with one degree of freedom fewer than
  the seats. Tested twice: by deal order (seats[0] is dealt first) and by the table's seat
  number (a seat favoured whoever sits there).
- ``rng.jokers_dealt``: D itself is hypergeometric (L-1 cards, M jokers among them, n*k
  dealt): a z-test that the deal as a whole does not hold too many or too few jokers.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from scipy import stats

from audit.cards import JOKER
from audit.shuffle.result import (
    MIN_SHOES,
    Floats,
    Result,
    result,
    too_few,
    two_sided_z,
)
from audit.shuffle.shoes import CHUNK, NO_SEAT, Group

Counts = npt.NDArray[np.int16]


def seat_jokers(group: Group, *, printed_only: bool = False) -> Counts:
    """(shoes, most players): the jokers (or only the printed ones) dealt to each seat, in
    deal (turn) order (int16: a seat holds at most 27 cards; an eighth of int64's memory
    at ten million shoes, and the same values wherever they are summed or cast)."""
    out = np.zeros((group.shoes, int(group.players.max())), dtype=np.int16)
    for start in range(0, group.shoes, CHUNK):
        stop = min(start + CHUNK, group.shoes)
        codes = group.codes[start:stop].astype(np.intp)
        if printed_only:
            joker = codes == JOKER
        else:
            joker = np.take_along_axis(group.jokers[start:stop], codes, axis=1)
        n_, k_ = group.players[start:stop], group.cards[start:stop]
        for n, k in sorted(set(zip(n_.tolist(), k_.tolist(), strict=True))):
            rows = np.flatnonzero((n_ == n) & (k_ == k))
            dealt = joker[rows, : n * k].reshape(rows.size, k, n).sum(axis=1)
            out[start + rows, :n] = dealt
    return out


def _exchangeable(
    counts: Floats, present: np.ndarray, dealt: Floats, players: Floats, slots: Floats
) -> tuple[float, int, Floats, Floats, Floats]:
    """The chi-square of seats' joker totals against exchangeable seats: the statistic, its
    degrees of freedom, each seat's total, expectation and variance."""
    a = dealt * (slots - dealt) / (slots - 1.0)
    w = a / players
    mask = present.astype(np.float64)
    total = (counts * mask).sum(axis=0)
    expected = (mask * (dealt / players)[:, None]).sum(axis=0)
    cov = np.diag((mask * w[:, None]).sum(axis=0)) - (mask * (w / players)[:, None]).T @ mask
    values, vectors = np.linalg.eigh(cov)
    keep = values > 1e-9 * max(float(values.max()), 1e-300)
    r = total - expected
    x2 = float((((vectors.T @ r)[keep]) ** 2 / values[keep]).sum())
    return x2, int(keep.sum()), total, expected, np.diag(cov).copy()


def seat_tests(group: Group) -> list[Result]:
    """``rng.seat_jokers`` (all jokers, and printed jokers alone, each by deal order and by
    table seat) and ``rng.jokers_dealt``."""
    out: list[Result] = []
    kinds = [("jokers", False)] + ([("printed jokers", True)] if group.printed_jokers else [])
    dealt_all = np.zeros(group.shoes)
    for what, printed_only in kinds:
        per_seat = seat_jokers(group, printed_only=printed_only)
        dealt = per_seat.sum(axis=1).astype(np.float64)
        if not printed_only:
            dealt_all = dealt
        out += _seat_order_tests(group, what, per_seat, dealt)
    out.append(_dealt_test(group, dealt_all))
    return out


def _seat_order_tests(group: Group, what: str, per_seat: Counts, dealt: Floats) -> list[Result]:
    """The exchangeability of seats by deal order, and by the table's seat number."""
    width = per_seat.shape[1]
    rows = group.players >= 2
    players = group.players.astype(np.float64)
    slots = group.dealt().astype(np.float64)
    order = np.arange(width)[None, :] < group.players[:, None]
    out = [
        _seat_test(
            group,
            f"{what} by seat in deal order",
            what,
            per_seat[rows],
            order[rows],
            dealt[rows],
            players[rows],
            slots[rows],
            [f"seat {i + 1} in deal order" for i in range(width)],
        ),
    ]
    seats = group.seats[:, :width]  # a seat beyond the players dealt in is NO_SEAT
    numbers = sorted({int(s) for s in np.unique(seats) if s != NO_SEAT})
    if numbers:
        index = np.searchsorted(numbers, np.where(seats == NO_SEAT, numbers[0], seats))
        by_number = np.zeros((group.shoes, len(numbers)), dtype=np.int16)
        present = np.zeros((group.shoes, len(numbers)), dtype=np.int16)
        shoe = np.repeat(np.arange(group.shoes), width)
        sat = (seats != NO_SEAT).ravel()
        np.add.at(by_number, (shoe[sat], index.ravel()[sat]), per_seat.ravel()[sat])
        np.add.at(present, (shoe[sat], index.ravel()[sat]), 1)
        clean = rows & (present.max(axis=1) <= 1) & (present.sum(axis=1) == group.players)
        out.append(
            _seat_test(
                group,
                f"{what} by table seat number",
                what,
                by_number[clean],
                present[clean] > 0,
                dealt[clean],
                players[clean],
                slots[clean],
                [f"seat {s}" for s in numbers],
            )
        )
    return out


def _seat_test(
    group: Group,
    test: str,
    what: str,
    counts: Counts,
    present: np.ndarray,
    dealt: Floats,
    players: Floats,
    slots: Floats,
    labels: list[str],
) -> Result:
    hands = present.sum(axis=0)
    tested = hands >= MIN_SHOES
    if counts.shape[0] < MIN_SHOES or tested.sum() < 2:
        return too_few(
            "rng.seat_jokers",
            test,
            group,
            MIN_SHOES,
            shoes=int(counts.shape[0]),
            method="chi-square",
        )
    present = present & tested[None, :]
    x2, df, total, expected, variance = _exchangeable(
        counts.astype(np.float64), present, dealt, players, slots
    )
    seen = present.sum(axis=0).astype(np.float64)
    labels_kept = [label for label, t in zip(labels, tested, strict=True) if t]
    keep = np.flatnonzero(tested)
    total, expected, variance, seen = total[keep], expected[keep], variance[keep], seen[keep]
    z = (total - expected) / np.sqrt(np.where(variance > 0, variance, 1.0))
    i = int(np.argmax(np.abs(z)))
    # No joker in these shoes' deals (none printed, none of the wild rank dealt): no share.
    share = f"{100 * (total[i] / expected[i] - 1):+.1f}%" if expected[i] > 0 else "none expected"
    effect = (
        f"{labels_kept[i]} got {total[i] / seen[i]:.3f} {what} a hand against "
        f"{expected[i] / seen[i]:.3f} expected ({share}) over {int(seen[i]):,} hands"
    )
    # The evidence is the seat furthest above its share by the same z, so the hands named
    # are the headline seat's when it got more (a blind tester's headline named seat 4,
    # its evidence seat 6's hands, the chart's means ranking them otherwise).
    up = int(np.argmax(z))
    favoured = labels_kept[up] if z[up] > 0 else ""
    rare = [f"{label} ({int(n):,})" for label, n, t in zip(labels, hands, tested, strict=True)
            if n and not t]  # fmt: skip
    if rare:  # seats too rarely sat in to test are named, not dropped in silence
        effect += f"; not tested, under {MIN_SHOES} hands each: {', '.join(rare)}"
    return result(
        "rng.seat_jokers",
        test,
        group,
        shoes=int(counts.shape[0]),
        method="chi-square",
        statistic=x2,
        df=float(df),
        p_value=float(stats.chi2.sf(x2, df)) if df else 1.0,
        effect=effect,
        labels=tuple(labels_kept),
        observed=tuple((total / seen).tolist()),
        expected=tuple((expected / seen).tolist()),
        favoured=favoured,
    )


def _dealt_test(group: Group, dealt: Floats) -> Result:
    """``rng.jokers_dealt``: the jokers of the whole deal against the hypergeometric."""
    n = group.shoes
    if n < MIN_SHOES:
        return too_few("rng.jokers_dealt", "jokers dealt to players", group, MIN_SHOES, method="z")
    pool = group.length - 1
    wild = group.codes[np.arange(n), group.dealt()].astype(np.intp)
    jokers = (group.jokers * group.copies[None, :]).sum(axis=1) - group.jokers[np.arange(n), wild]
    slots = group.dealt()
    share = jokers / pool
    mean = slots * share
    variance = slots * share * (1 - share) * (pool - slots) / (pool - 1)
    spread = float(variance.sum())
    z = float((dealt.sum() - mean.sum()) / math.sqrt(spread)) if spread > 0 else 0.0
    top = int(dealt.max()) if dealt.size else 0
    histogram = np.bincount(dealt.astype(np.int64), minlength=top + 1).astype(np.float64)
    fair = np.zeros(top + 1)
    pairs, counts = np.unique(np.stack([jokers, slots]), axis=1, return_counts=True)
    for (m, s), count in zip(pairs.T.tolist(), counts.tolist(), strict=True):
        fair += count * stats.hypergeom.pmf(np.arange(top + 1), pool, m, s)
    effect = (
        f"{dealt.mean():.3f} jokers dealt a hand against {mean.mean():.3f} expected "
        f"over {n:,} hands"
    )
    return result(
        "rng.jokers_dealt",
        "jokers dealt to players",
        group,
        method="z",
        statistic=z,
        df=None,
        p_value=two_sided_z(z),
        effect=effect,
        labels=tuple(str(d) for d in range(top + 1)),
        observed=tuple(histogram.tolist()),
        expected=tuple(fair.tolist()),
    )
