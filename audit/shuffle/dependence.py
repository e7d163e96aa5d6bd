"""Does a card depend on its neighbours, or a shoe on the one before? Dependence tests.

- ``rng.adjacent``: pairs of cards that sit next to each other in the shoe, and pairs of
  consecutive cards of one player's hand (positions p and p+n), that are of one suit, of
  one suit and consecutive ranks (half a run) or of one rank. Under a fair shuffle any two
  places hold such a pair with a probability the shoe's composition fixes; each shoe's
  count is compared with it (Student's t over the independent shoes). A shuffle that
  leaves the cards' previous order in clumps (a sort with a random comparator, too few
  riffles) fails it.
- ``rng.serial``: consecutive shoes of one table. Positions holding the same code in both
  (a fair pair matches sum(m^2)/L times on average), and the correlation between each
  code's mean place in the two (0 on average by the symmetry of a fair shuffle): a
  generator reseeded with the same state, or a shoe reshuffled too little, fails it.
- ``rng.repeat``: two shoes anywhere in the group with the same first cards. A fair shuffle
  repeats them with a probability below ``repeat_bound`` per pair: a repeat means a reused
  or small seed (a 32-bit seed repeats within about 100,000 shoes).
- ``rng.runs``: at each position, the colour of its card (red or not) from one shoe to the
  next in the order the hands started; the Wald-Wolfowitz runs test (the "runs test" of
  11VAC20-20-510 C.2).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from audit.cards import N_CODES
from audit.shuffle.result import (
    MIN_SHOES,
    Floats,
    Result,
    result,
    t_result,
    too_few,
    two_sided_z,
)
from audit.shuffle.shoes import CHUNK, RANK, RED, SUIT, Group, Ints

RELATIONS = ("same suit", "same suit, next rank", "same rank")
"""Bits 0, 1 and 2 of ``FLAGS``."""


def _flags() -> Ints:
    """(53 * 53,): the relations each ordered pair of codes is in, as bits."""
    a = np.arange(N_CODES)[:, None]
    b = np.arange(N_CODES)[None, :]
    suited = (SUIT[a] >= 0) & (SUIT[a] == SUIT[b])
    step = suited & (np.abs(RANK[a].astype(np.int64) - RANK[b]) == 1)
    rank = (RANK[a] > 0) & (RANK[a] == RANK[b])
    flags: Ints = (suited * 1 + step * 2 + rank * 4).astype(np.int64).ravel()
    return flags


FLAGS = _flags()


def pair_chance(group: Group) -> Floats:
    """The chance that two given places of a fair shoe hold a pair in each relation."""
    m = group.copies.astype(np.float64)
    weights = np.outer(m, m) - np.diag(m)
    length = group.length
    flags = FLAGS.reshape(N_CODES, N_CODES)
    return np.array(
        [
            float((weights * ((flags >> bit) & 1)).sum()) / (length * (length - 1))
            for bit in range(len(RELATIONS))
        ]
    )


def adjacency_counts(group: Group) -> tuple[Ints, Ints, Ints, Ints]:
    """Per shoe and relation, pairs of neighbours and pairs of consecutive cards of one
    hand; and per place, the same summed over the shoes (the charts)."""
    n, length = group.shoes, group.length
    rel = len(RELATIONS)
    neighbours = np.zeros((n, rel), dtype=np.int64)
    in_hand = np.zeros((n, rel), dtype=np.int64)
    by_place = np.zeros((length - 1, rel), dtype=np.int64)
    by_card = np.zeros((int(group.cards.max()), rel), dtype=np.int64)
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        codes = group.codes[start:stop].astype(np.int64)
        pairs = FLAGS[codes[:, :-1] * N_CODES + codes[:, 1:]]
        n_, k_ = group.players[start:stop], group.cards[start:stop]
        for bit in range(rel):
            hit = (pairs >> bit) & 1
            neighbours[start:stop, bit] = hit.sum(axis=1)
            by_place[:, bit] += hit.sum(axis=0)
        for players, cards in sorted(set(zip(n_.tolist(), k_.tolist(), strict=True))):
            rows = np.flatnonzero((n_ == players) & (k_ == cards))
            span = players * (cards - 1)
            if span <= 0:
                continue
            hand = FLAGS[codes[rows, :span] * N_CODES + codes[rows, players : players + span]]
            for bit in range(rel):
                hit = (hand >> bit) & 1
                in_hand[start + rows, bit] = hit.sum(axis=1)
                by_card[: cards - 1, bit] += hit.reshape(rows.size, cards - 1, players).sum(
                    axis=(0, 2)
                )
    return neighbours, in_hand, by_place, by_card


def adjacency_tests(group: Group) -> list[Result]:
    n = group.shoes
    chance = pair_chance(group)
    if n < MIN_SHOES:
        return [
            too_few("rng.adjacent", f"{where}: {what}", group, MIN_SHOES, method="t")
            for where in ("neighbours", "one hand")
            for what in RELATIONS
        ]
    neighbours, in_hand, by_place, by_card = adjacency_counts(group)
    out = []
    pairs_in_hand = (group.players * (group.cards - 1)).astype(np.float64)
    for bit, what in enumerate(RELATIONS):
        fair = (group.length - 1) * chance[bit]
        seen = float(neighbours[:, bit].mean())
        out.append(
            t_result(
                "rng.adjacent",
                f"neighbours: {what}",
                group,
                neighbours[:, bit].astype(np.float64),
                fair,
                effect=f"{seen:.3f} neighbouring pairs of {what} a shoe against "
                f"{fair:.3f} expected",
                labels=tuple(f"{i + 1}-{i + 2}" for i in range(group.length - 1)),
                observed=tuple(by_place[:, bit].astype(float).tolist()),
                expected=tuple([n * chance[bit]] * (group.length - 1)),
            )
        )
        fair_hand = pairs_in_hand * chance[bit]
        cards = by_card.shape[0] - 1
        with_card = np.array(
            [float(group.players[group.cards > j + 1].sum()) for j in range(cards)]
        )
        out.append(
            t_result(
                "rng.adjacent",
                f"one hand: {what}",
                group,
                in_hand[:, bit] - fair_hand,
                effect=f"{float(in_hand[:, bit].mean()):.3f} pairs of {what} among a "
                f"player's consecutive cards a hand against "
                f"{float(fair_hand.mean()):.3f} expected",
                labels=tuple(f"card {j + 1}-{j + 2}" for j in range(cards)),
                observed=tuple(by_card[:cards, bit].astype(float).tolist()),
                expected=tuple((with_card * chance[bit]).tolist()),
            )
        )
    return out


def _mean_places(codes: Ints, copies: Floats) -> Floats:
    """(shoes, 53): each code's mean place in each shoe, centred on the shoe's mean."""
    n, length = codes.shape
    rows = np.arange(n, dtype=np.int64)[:, None] * N_CODES
    places = np.broadcast_to(np.arange(length, dtype=np.float64), codes.shape)
    sums = np.bincount(
        (rows + codes).ravel(), weights=places.ravel(), minlength=n * N_CODES
    ).reshape(n, N_CODES)
    held = copies > 0
    mean = np.where(held, sums / np.where(held, copies, 1.0), 0.0)
    centre = mean[:, held].mean(axis=1, keepdims=True)
    return np.where(held, mean - centre, 0.0)


def serial_tests(group: Group) -> list[Result]:
    """``rng.serial``: consecutive shoes of one table (rows are in table order)."""
    follows = np.flatnonzero(group.tables[1:] == group.tables[:-1])
    pairs = follows.size
    tests = ("matching positions", "order kept")
    if pairs < MIN_SHOES:
        return [
            too_few(
                "rng.serial", f"consecutive shoes: {t}", group, MIN_SHOES, shoes=pairs, method="t"
            )
            for t in tests
        ]
    copies = group.copies.astype(np.float64)
    match_rate = float((copies**2).sum()) / group.length**2
    matches = np.zeros(pairs, dtype=np.float64)
    by_place = np.zeros(group.length, dtype=np.float64)
    corr = np.zeros(pairs, dtype=np.float64)
    for start in range(0, pairs, CHUNK):
        idx = follows[start : start + CHUNK]
        first = group.codes[idx].astype(np.int64)
        second = group.codes[idx + 1].astype(np.int64)
        same = first == second
        matches[start : start + idx.size] = same.sum(axis=1)
        by_place += same.sum(axis=0)
        x, y = _mean_places(first, copies), _mean_places(second, copies)
        norm = np.sqrt((x**2).sum(axis=1) * (y**2).sum(axis=1))
        corr[start : start + idx.size] = (x * y).sum(axis=1) / np.where(norm > 0, norm, 1.0)
    fair = match_rate * group.length
    top = int(np.argmax(by_place))
    out = [
        t_result(
            "rng.serial",
            "consecutive shoes: matching positions",
            group,
            matches,
            fair,
            effect=f"{matches.mean():.3f} positions a pair of consecutive shoes of a "
            f"table share their card, {fair:.3f} expected, over {pairs:,} pairs; most "
            f"at position {top + 1} ({int(by_place[top]):,} against "
            f"{pairs * match_rate:,.1f})",
            labels=tuple(str(i + 1) for i in range(group.length)),
            observed=tuple(by_place.tolist()),
            expected=tuple([pairs * match_rate] * group.length),
        )
    ]
    out.append(
        t_result(
            "rng.serial",
            "consecutive shoes: order kept",
            group,
            corr,
            effect=f"mean correlation {corr.mean():+.4f} between where each card "
            f"lay in a shoe and in the table's next one (0 expected), over "
            f"{pairs:,} pairs",
            labels=("mean correlation",),
            observed=(float(corr.mean()),),
            expected=(0.0,),
        )
    )
    return out


PREFIX = 24
"""Cards compared by ``rng.repeat`` (the whole shoe when shorter)."""
EVIDENCE = 20
"""Repeated shoes' hands kept as evidence."""


def repeat_bound(group: Group, prefix: int) -> float:
    """An upper bound on the chance that two fair shoes share their first ``prefix`` cards:
    the chance of the likeliest such sequence (sum of P(s)^2 <= max P(s))."""
    left = group.copies.astype(np.float64).copy()
    log_p = 0.0
    for i in range(prefix):
        c = int(np.argmax(left))
        log_p += math.log(left[c] / (group.length - i))
        left[c] -= 1
    return math.exp(log_p)


def repeat_test(group: Group) -> Result:
    n = group.shoes
    prefix = min(PREFIX, group.length)
    test = f"shoes repeating another's first {prefix} cards"
    if n < 2:
        return too_few("rng.repeat", test, group, 2, method="repeats")
    rows = np.ascontiguousarray(group.codes[:, :prefix])
    keys = rows.view(np.dtype((np.void, prefix))).ravel()
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    repeated = np.flatnonzero(counts[inverse] > 1)
    bound = repeat_bound(group, prefix)
    pairs = n * (n - 1) / 2
    extra = int(counts[counts > 1].sum() - (counts > 1).sum())
    p = 1.0 if extra == 0 else min(1.0, pairs * bound)
    sets = _repeat_sets(group, repeated, inverse)
    hands = tuple(h for members in sets for h in members)
    said = "; ".join(
        f"{', '.join(later)} {'repeats' if len(later) == 1 else 'repeat'} {first}"
        for first, *later in sets[:6]
    )
    effect = (
        f"{extra:,} shoes repeat an earlier shoe's first {prefix} cards"
        + (f" ({said}{'; ...' if len(sets) > 6 else ''})" if sets else "")
        + f"; a fair shuffle repeats any of {pairs:,.0f} pairs with chance below "
        f"{min(1.0, pairs * bound):.1e}"
    )
    return result(
        "rng.repeat",
        test,
        group,
        method="repeats",
        statistic=float(extra),
        df=None,
        p_value=p,
        effect=effect,
        hands=hands[:EVIDENCE],
        labels=("repeated shoes",),
        observed=(float(extra),),
        expected=(pairs * bound,),
    )


def _repeat_sets(group: Group, repeated: Ints, inverse: Ints) -> list[list[str]]:
    """The hands of each set of shoes with the same first cards, each set in deal order
    (start time, then hand id): the shoe repeated first, then the shoes repeating it; the
    sets by their first shoe's deal."""
    ids = group.hand_ids.take(repeated).to_pylist()  # the repeated shoes' alone
    order = sorted(
        (int(group.started[i]), hand, int(inverse[i]))
        for i, hand in zip(repeated, ids, strict=True)
    )
    sets: dict[int, list[str]] = {}
    for _, hand, key in order:
        sets.setdefault(key, []).append(hand)
    return list(sets.values())


def runs_tests(group: Group) -> list[Result]:
    """``rng.runs``: the Wald-Wolfowitz runs test of each position's colour over time."""
    n, length = group.shoes, group.length
    red_share = 26 * group.decks / length
    least = min(red_share, 1 - red_share)
    needs = max(MIN_SHOES, math.ceil(20 / least)) if least > 0 else 0
    if n < needs:
        return [
            too_few("rng.runs", f"position {p + 1}", group, needs, method="z")
            for p in range(length)
        ]
    order = group.by_time()
    reds_seen = np.zeros(length, dtype=np.int64)
    changes = np.zeros(length, dtype=np.int64)
    last: npt.NDArray[np.bool_] | None = None
    for start in range(0, n, CHUNK):
        red = RED[group.codes[order[start : start + CHUNK]]]
        reds_seen += red.sum(axis=0)
        changes += (red[1:] != red[:-1]).sum(axis=0)
        if last is not None:
            changes += red[0] != last
        last = red[-1]
    reds = reds_seen.astype(np.float64)
    runs = 1.0 + changes
    others = n - reds
    mean = 2 * reds * others / n + 1
    variance = 2 * reds * others * (2 * reds * others - n) / (n * n * (n - 1))
    out = []
    for p in range(length):
        if variance[p] <= 0:
            z, pv = 0.0, 1.0
        else:
            gap = max(0.0, abs(float(runs[p] - mean[p])) - 0.5)  # continuity correction
            z = math.copysign(gap, float(runs[p] - mean[p])) / math.sqrt(variance[p])
            pv = two_sided_z(z)
        out.append(
            result(
                "rng.runs",
                f"position {p + 1}",
                group,
                method="z",
                statistic=z,
                df=None,
                p_value=pv,
                effect=f"{int(runs[p]):,} runs of red and black at position "
                f"{p + 1} in {n:,} shoes, {mean[p]:,.1f} expected",
                labels=("runs",),
                observed=(float(runs[p]),),
                expected=(float(mean[p]),),
            )
        )
    return out
