"""Does a card depend on its neighbours, or a shoe on the one before? Dependence tests.

- ``rng.adjacent``: pairs of cards that sit next to each other in the shoe, and pairs of
  consecutive cards of one player's hand (positions p and p+n), that are of one suit, of
  one suit and consecutive ranks (half a run) or of one rank. Under a fair shuffle any two
  places hold such a pair with a probability the shoe's composition fixes; each shoe's
  count is compared with it (Student's t over the independent shoes). A shuffle that
  leaves the cards' previous order in clumps (a sort with a random comparator, too few
  riffles) fails it.
- ``rng.serial``: consecutive shoes of one table, against any two shoes of the night.
  Positions holding the same code in both, against how often two distinct shoes of the
  night match there (a fair shuffle: sum(m^2)/L a pair); and the correlation between
  each code's place in the two, each measured from the code's mean place over the night
  (``night_positions``). Independent shoes that share one biased distribution pass it (the
  position tests see that bias); a shoe reshuffled too little from the last, or cut from
  it, fails it.
- ``rng.runs``: at each position, the colour of its card (red or not) from one shoe to the
  next in the order the hands started; the Wald-Wolfowitz runs test (the "runs test" of
  11VAC20-20-510 C.2).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from audit.cards import N_CODES
from audit.shuffle.deal import position_counts
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
                labels=tuple(f"{i}-{i + 1}" for i in range(group.length - 1)),
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
    sums = np.bincount((rows + codes).ravel(), weights=places.ravel(), minlength=n * N_CODES)
    return _centred(np.asarray(sums, dtype=np.float64).reshape(n, N_CODES), copies)


def _centred(sums: Floats, copies: Floats) -> Floats:
    """Per row of each code's summed places, its mean place less the row's mean over the
    codes held; 0 for a code not held."""
    held = copies > 0
    mean = np.where(held, sums / np.where(held, copies, 1.0), 0.0)
    centre = mean[..., held].mean(axis=-1, keepdims=True)
    return np.where(held, mean - centre, 0.0)


def night_positions(group: Group) -> tuple[Floats, Floats]:
    """What the night's shoes do alike, which ``rng.serial`` measures from: per position,
    the chance that two distinct shoes of the group hold the same code there (the share of
    pairs of shoes that do, ``sum N(N-1) / n(n-1)`` over the codes, N the code's count
    there: unbiased whatever the shoes' common distribution), and each code's mean place
    over the shoes (``_mean_places`` of the night: the mean of the shoes'). A fair shuffle
    gives ``sum(m^2) / L^2`` and 0 for every code.

    Two shoes of one deck in order and one reversed: any two of them hold the same card at
    a position one time in three, and a card's mean place is a third of the way from the
    middle to its own.

    >>> from audit.rules.ruleset import load_preset
    >>> from audit.shuffle.shoes import group_of
    >>> deck = np.arange(52, dtype=np.uint8)
    >>> group = group_of(np.stack([deck, deck, deck[::-1]]), decks=1, printed_jokers=0,
    ...                  players=np.full(3, 2), cards=13, rules=load_preset("standard-13"))
    >>> match, places = night_positions(group)
    >>> match[:3].round(4).tolist(), places[[0, 51]].round(4).tolist()
    ([0.3333, 0.3333, 0.3333], [-8.5, 8.5])
    """
    counts = position_counts(group).astype(np.float64)
    n = group.shoes
    match = (counts * (counts - 1.0)).sum(axis=1) / (n * (n - 1.0))
    sums = np.arange(group.length, dtype=np.float64) @ counts / n
    return match, _centred(sums, group.copies.astype(np.float64))


def serial_tests(group: Group) -> list[Result]:
    """``rng.serial``: consecutive shoes of one table (rows are in table order), measured
    from what the night's shoes do alike (``night_positions``): a bias every shoe shares is
    the position tests', not a dependence between shoes."""
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
    match_at, night = night_positions(group)
    matches = np.zeros(pairs, dtype=np.float64)
    by_place = np.zeros(group.length, dtype=np.float64)
    products = np.zeros(pairs, dtype=np.float64)
    spread = 0.0
    for start in range(0, pairs, CHUNK):
        idx = follows[start : start + CHUNK]
        first = group.codes[idx].astype(np.int64)
        second = group.codes[idx + 1].astype(np.int64)
        same = first == second
        matches[start : start + idx.size] = same.sum(axis=1)
        by_place += same.sum(axis=0)
        x, y = _mean_places(first, copies) - night, _mean_places(second, copies) - night
        products[start : start + idx.size] = (x * y).sum(axis=1)
        spread += float((x**2).sum() + (y**2).sum())
    # Each shoe measured from the night's mean, which holds it and its neighbour: under
    # independent shoes of any common distribution, two of them give sum(x * y) of mean
    # -tr(S) / n and each sum(x^2) of mean tr(S) (n - 1) / n (S the spread of one shoe's
    # mean places), so the correlation's mean is -1 / (n - 1), not 0.
    scale = spread / (2 * pairs)
    corr = products / scale if scale > 0 else products
    null = -1.0 / (group.shoes - 1) if scale > 0 else 0.0
    fair = float(match_at.sum())
    expected = pairs * match_at
    top = int(np.argmax(by_place - expected))
    out = [
        t_result(
            "rng.serial",
            "consecutive shoes: matching positions",
            group,
            matches,
            fair,
            effect=f"{matches.mean():.3f} positions a pair of consecutive shoes of a "
            f"table share their card, {fair:.3f} expected from any two of these shoes, "
            f"over {pairs:,} pairs; most above it at position {top} "
            f"({int(by_place[top]):,} against {expected[top]:,.1f})",
            labels=tuple(str(i) for i in range(group.length)),
            observed=tuple(by_place.tolist()),
            expected=tuple(expected.tolist()),
        )
    ]
    out.append(
        t_result(
            "rng.serial",
            "consecutive shoes: order kept",
            group,
            corr,
            null,
            effect=f"mean correlation {corr.mean():+.4f} between where each card lay in a "
            f"shoe and in the table's next one, each from its mean place in these shoes "
            f"({null:+.2g} expected), over {pairs:,} pairs",
            labels=("mean correlation",),
            observed=(float(corr.mean()),),
            expected=(null,),
        )
    )
    return out


def runs_tests(group: Group) -> list[Result]:
    """``rng.runs``: the Wald-Wolfowitz runs test of each position's colour over time."""
    n, length = group.shoes, group.length
    red_share = 26 * group.decks / length
    least = min(red_share, 1 - red_share)
    needs = max(MIN_SHOES, math.ceil(20 / least)) if least > 0 else 0
    if n < needs:
        return [
            too_few("rng.runs", f"position {p}", group, needs, method="z")
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
                f"position {p}",
                group,
                method="z",
                statistic=z,
                df=None,
                p_value=pv,
                effect=f"{int(runs[p]):,} runs of red and black at position "
                f"{p} in {n:,} shoes, {mean[p]:,.1f} expected",
                labels=("runs",),
                observed=(float(runs[p]),),
                expected=(float(mean[p]),),
            )
        )
    return out
