"""Is every card equally likely at every place? Uniformity tests over a shoe group.

A fair shuffle puts each of the shoe's L cards at position p with the same chance, so a
code with m copies is at p in N * m / L of N shoes. Tests (docs/rng.md says what each
catches):

- ``rng.position``: each position's card (a chi-square over the codes; a multinomial, since
  each shoe puts one card at each position);
- ``rng.card``: each code's positions (a chi-square over the L positions; the m copies of a
  code take m different positions, so Pearson's statistic is scaled by (L-1)/(L-m) to be
  chi-square);
- ``rng.uniformity``: the whole position x code table (scaled by (L-1)/L: each shoe is a
  table with fixed margins);
- ``rng.wild_rank``: the wild card's rank (the card at n*k);
- ``rng.open_card``: the open card (at n*k+1);
- ``rng.first_card``: the first card dealt to each seat, by players at the table.

Positions count from 0, as the contract's shoe does (log-format.md: index 0 is dealt first)
and as the replay's findings name them: a blind tester read "JK at position 9" as the
shoe's index 9 beside a ``deck.commitment`` that counted from 0.
"""

from __future__ import annotations

import numpy as np

from audit.cards import CODE_TEXT, JOKER, N_CODES
from audit.shuffle.result import (
    Floats,
    Result,
    chi_square,
    needed,
    result,
    too_few,
)
from audit.shuffle.shoes import CHUNK, RANK, Group, Ints

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "joker")


def position_counts(group: Group) -> Ints:
    """(L, 53): how often each code was at each position."""
    length = group.length
    base = np.arange(length, dtype=np.int64) * N_CODES
    counts = np.zeros(length * N_CODES, dtype=np.int64)
    for start in range(0, group.shoes, CHUNK):
        part = group.codes[start : start + CHUNK].astype(np.int64) + base
        counts += np.bincount(part.ravel(), minlength=length * N_CODES)
    return counts.reshape(length, N_CODES)


def _codes_at(group: Group, offset: int) -> Ints:
    """The code at position n*k + offset of each shoe."""
    at = group.dealt() + offset
    return group.codes[np.arange(group.shoes), at].astype(np.int64)


def _worst(observed: Floats, expected: Floats, labels: list[str], what: str, n: int) -> str:
    """The cell furthest from a fair shuffle, in words."""
    keep = expected > 0
    z = np.where(keep, (observed - expected) / np.sqrt(np.where(keep, expected, 1.0)), 0.0)
    i = int(np.argmax(np.abs(z)))
    return (
        f"{what} {labels[i]}: {int(observed[i]):,} times in {n:,} shoes against "
        f"{expected[i]:,.1f} expected ({observed[i] / expected[i]:.2f}x)"
    )


def _code_test(check: str, test: str, group: Group, codes: Ints, what: str) -> Result:
    """A chi-square of which code turned up at one place of each shoe."""
    cats = group.categories
    m = group.copies[cats]
    n, length = codes.size, group.length
    needs = needed(float(m.min()) / length)
    if n < needs:
        return too_few(check, test, group, needs, shoes=n)
    observed = np.bincount(codes, minlength=N_CODES)[cats].astype(np.float64)
    expected = n * m / length
    x2, p = chi_square(observed, expected, cats.size - 1)
    labels = [CODE_TEXT[c] for c in cats]
    return result(
        check,
        test,
        group,
        shoes=n,
        method="chi-square",
        statistic=x2,
        df=float(cats.size - 1),
        p_value=p,
        effect=_worst(observed, expected, labels, what, n),
        labels=tuple(labels),
        observed=tuple(observed.tolist()),
        expected=tuple(expected.tolist()),
    )


def uniformity_tests(group: Group) -> list[Result]:
    """``rng.position``, ``rng.card`` and ``rng.uniformity`` over the group."""
    counts = position_counts(group).astype(np.float64)
    cats, m, length, n = group.categories, group.copies, group.length, group.shoes
    out: list[Result] = []
    needs = needed(float(m[cats].min()) / length)
    for p in range(length):
        test = f"position {p}"
        if n < needs:
            out.append(too_few("rng.position", test, group, needs))
            continue
        observed, expected = counts[p, cats], n * m[cats] / length
        x2, pv = chi_square(observed, expected, cats.size - 1)
        labels = [CODE_TEXT[c] for c in cats]
        out.append(
            result(
                "rng.position",
                test,
                group,
                method="chi-square",
                statistic=x2,
                df=float(cats.size - 1),
                p_value=pv,
                effect=_worst(observed, expected, labels, f"at position {p}, card", n),
                labels=tuple(labels),
                observed=tuple(observed.tolist()),
                expected=tuple(expected.tolist()),
            )
        )
    positions = [str(p) for p in range(length)]
    for c in cats:
        test = f"card {CODE_TEXT[c]}"
        needs_c = needed(float(m[c]) / length)
        if n < needs_c:
            out.append(too_few("rng.card", test, group, needs_c))
            continue
        observed = counts[:, c]
        expected = np.full(length, n * m[c] / length)
        scale = (length - 1) / (length - m[c])
        x2, pv = chi_square(observed, expected, length - 1, scale)
        out.append(
            result(
                "rng.card",
                test,
                group,
                method="chi-square",
                statistic=x2,
                df=float(length - 1),
                p_value=pv,
                effect=_worst(observed, expected, positions, f"{CODE_TEXT[c]} at position", n),
                labels=tuple(positions),
                observed=tuple(observed.tolist()),
                expected=tuple(expected.tolist()),
            )
        )
    out.append(_table_test(group, counts, needs))
    return out


def _table_test(group: Group, counts: Floats, needs: int) -> Result:
    """``rng.uniformity``: the whole table; its chart is each position's share of the
    statistic against the share a fair shuffle gives (the codes' degrees of freedom)."""
    cats, m, length, n = group.categories, group.copies, group.length, group.shoes
    if n < needs:
        return too_few("rng.uniformity", "every position x card", group, needs)
    expected = n * m[cats] / length
    per_position = ((counts[:, cats] - expected) ** 2 / expected).sum(axis=1)
    df = float((length - 1) * (cats.size - 1))
    x2, p = chi_square(
        counts[:, cats].ravel(), np.tile(expected, length), df, (length - 1) / length
    )
    cells = (counts[:, cats] - expected) / np.sqrt(expected)
    p_at, c_at = np.unravel_index(int(np.argmax(np.abs(cells))), cells.shape)
    code = int(cats[c_at])
    effect = (
        f"chi-square {x2:,.0f} on {df:,.0f} degrees of freedom; the most uneven cell is "
        f"{CODE_TEXT[code]} at position {p_at}: {int(counts[p_at, code]):,} times in "
        f"{n:,} shoes against {expected[c_at]:,.1f} expected"
    )
    return result(
        "rng.uniformity",
        "every position x card",
        group,
        method="chi-square",
        statistic=x2,
        df=df,
        p_value=p,
        effect=effect,
        labels=tuple(str(p) for p in range(length)),
        observed=tuple((per_position * (length - 1) / length).tolist()),
        expected=tuple([float(cats.size - 1)] * length),
    )


def deal_tests(group: Group) -> list[Result]:
    """``rng.wild_rank``, ``rng.open_card`` and ``rng.first_card``."""
    out = [_wild_rank(group)]
    out.append(_code_test("rng.open_card", "open card", group, _codes_at(group, 1), "open card"))
    for players in sorted(set(group.players.tolist())):
        rows = np.flatnonzero(group.players == players)
        for seat in range(players):
            codes = group.codes[rows, seat].astype(np.int64)
            test = f"first card of seat {seat + 1} of {players}"
            out.append(
                _code_test(
                    "rng.first_card", test, group, codes, f"seat {seat + 1} of {players} first got"
                )
            )
    return out


def _wild_rank(group: Group) -> Result:
    """The wild card's rank (13 ranks, and the printed joker when the shoe has one)."""
    wild = _codes_at(group, 0)
    ranks = np.where(wild == JOKER, 13, RANK[wild].astype(np.int64) - 1)
    classes = 14 if group.printed_jokers else 13
    per_rank = np.array([4 * group.decks] * 13 + [group.printed_jokers], dtype=np.float64)
    per_rank = per_rank[:classes]
    n, length = group.shoes, group.length
    needs = needed(float(per_rank.min()) / length)
    if n < needs:
        return too_few("rng.wild_rank", "wild card's rank", group, needs)
    observed = np.bincount(ranks, minlength=14)[:classes].astype(np.float64)
    expected = n * per_rank / length
    x2, p = chi_square(observed, expected, classes - 1)
    labels = list(RANK_NAMES[:classes])
    return result(
        "rng.wild_rank",
        "wild card's rank",
        group,
        method="chi-square",
        statistic=x2,
        df=float(classes - 1),
        p_value=p,
        effect=_worst(observed, expected, labels, "wild rank", n),
        labels=tuple(labels),
        observed=tuple(observed.tolist()),
        expected=tuple(expected.tolist()),
    )
