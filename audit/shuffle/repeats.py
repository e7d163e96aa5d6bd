"""``rng.repeat``: a shoe dealt again, whole, in part, or cut.

A fair shuffle of 52 cards or more never gives two shoes of a night the same 24 cards in a
row: the chance for one pair is below 1e-36 (L + 1 times ``repeat_bound``). So each shoe
that shares 24 cards in a row with an earlier shoe of its group is evidence of a reused or
small seed, or of a shoe recycled from an earlier hand. Two keys per shoe find them, each
a row of 24 card codes compared exactly (``numpy.unique`` over the rows as bytes):

- its first 24 cards: a shoe that repeats an earlier one's opening;
- its 24 cards from its canonical start, cyclically (``cut_keys``): the start of the
  smallest of its L cyclic windows of ``WINDOW`` cards. A cut (a rotation) of a shoe holds
  the same cyclic windows, so it has the same key wherever it was cut: a shoe recycled
  from an earlier hand and only cut is found, and checked to be exactly a rotation of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from audit.shuffle.result import Result, result, too_few
from audit.shuffle.shoes import CHUNK, Bools, Codes, Group, Ints

PREFIX = 24
"""Cards in a row a repeat shares (the whole shoe when shorter)."""
WINDOW = 8
"""Cards of the window whose smallest value marks a shoe's canonical start: 8 codes of 6
bits, packed exactly into one integer, so the start is the same wherever the shoe is cut,
unless the shoe holds the same 8 cards in a row twice (by chance fewer than one shoe in a
billion does, 2e-10 for 162 cards; a cut of it may then be missed, never wrongly found)."""
EVIDENCE = 20
"""Repeated shoes' hands kept as evidence."""
NAMED = 6
"""Sets of shoes of each kind the effect names."""


def repeat_bound(group: Group, prefix: int) -> float:
    """An upper bound on the chance that two fair shoes share their first ``prefix`` cards:
    the chance of the likeliest such sequence (sum of P(s)^2 <= max P(s)). Any ``prefix``
    places of a fair shoe, cyclic or not, hold a given sequence with the same chance."""
    left = group.copies.astype(np.float64).copy()
    log_p = 0.0
    for i in range(prefix):
        c = int(np.argmax(left))
        log_p += math.log(left[c] / (group.length - i))
        left[c] -= 1
    return math.exp(log_p)


def cut_keys(codes: Codes, prefix: int = PREFIX) -> tuple[Codes, Ints]:
    """Per shoe (a row of ``codes``), the ``prefix`` cards from its canonical start,
    cyclically, and that start: where the smallest of its cyclic windows of ``WINDOW`` cards
    begins. A cut of a shoe has the same key; its start moved by the cut. ``CHUNK`` shoes
    at a time.

    >>> shoe = np.array([[7, 3, 9, 1, 4, 2]], dtype=np.uint8)
    >>> cut = np.roll(shoe, -4, axis=1)
    >>> keys, starts = cut_keys(np.concatenate([shoe, cut]), 4)
    >>> keys.tolist(), starts.tolist()
    ([[1, 4, 2, 7], [1, 4, 2, 7]], [3, 5])
    """
    n, length = codes.shape
    prefix, window = min(prefix, length), min(WINDOW, length)
    keys = np.empty((n, prefix), dtype=np.uint8)
    starts = np.empty(n, dtype=np.int64)
    reach = max(prefix, window) - 1
    at = np.arange(prefix, dtype=np.int64)
    for first in range(0, n, CHUNK):
        part = codes[first : first + CHUNK]
        ring = np.concatenate([part, part[:, :reach]], axis=1)
        packed = np.zeros(part.shape, dtype=np.uint64)
        for j in range(window):  # 6 bits a code (0..52)
            packed <<= np.uint64(6)
            packed |= ring[:, j : j + length]
        start = packed.argmin(axis=1)
        keys[first : first + part.shape[0]] = np.take_along_axis(ring, start[:, None] + at, 1)
        starts[first : first + part.shape[0]] = start
    return keys, starts


def _classes(keys: Codes) -> Ints:
    """A class number per row: equal rows, equal numbers."""
    rows = np.ascontiguousarray(keys)
    _, inverse = np.unique(rows.view(np.dtype((np.void, rows.shape[1]))).ravel(),
                           return_inverse=True)  # fmt: skip
    return np.asarray(inverse, dtype=np.int64).ravel()


def _first_of_class(classes: Ints, rank: Ints, order: Ints) -> Ints:
    """Per shoe, the shoe of its class dealt first (``rank``: each shoe's place in the deal,
    ``order`` the shoes in it)."""
    first = np.full(int(classes.max()) + 1, rank.size, dtype=np.int64)
    np.minimum.at(first, classes, rank)
    return order[first[classes]]


def _rotations(codes: Codes, later: Ints, earlier: Ints, shift: Ints) -> Bools:
    """Whether each shoe ``later`` is shoe ``earlier`` cut: ``earlier`` read from place
    ``shift`` on, cyclically (``CHUNK`` pairs at a time)."""
    length = codes.shape[1]
    out = np.empty(later.size, dtype=np.bool_)
    places = np.arange(length, dtype=np.int64)
    for first in range(0, later.size, CHUNK):
        stop = first + CHUNK
        moved = (places[None, :] + shift[first:stop, None]) % length
        rotated = np.take_along_axis(codes[earlier[first:stop]], moved, 1)
        out[first:stop] = (rotated == codes[later[first:stop]]).all(axis=1)
    return out


@dataclass(frozen=True)
class _Kind:
    """The shoes of one kind of repeat, each with the earlier shoe it repeats."""

    verb: tuple[str, str]
    """What one shoe, and what several, do to the shoe they repeat."""
    later: Ints
    earlier: Ints

    def sets(self, rank: Ints) -> list[tuple[int, list[int]]]:
        """(the earlier shoe, the shoes repeating it), in deal order; the sets by their
        earlier shoe's deal."""
        order = np.lexsort((rank[self.later], rank[self.earlier]))
        sets: dict[int, list[int]] = {}
        for later, earlier in zip(self.later[order].tolist(), self.earlier[order].tolist(),
                                  strict=True):  # fmt: skip
            sets.setdefault(earlier, []).append(later)
        return list(sets.items())


def repeat_test(group: Group) -> Result:
    """``rng.repeat``: the shoes that repeat an earlier shoe's first cards, are a cut of an
    earlier shoe, or share as many cards in a row with one (the module's docstring)."""
    n = group.shoes
    length = group.length
    prefix = min(PREFIX, length)
    test = f"shoes repeating or cut from an earlier shoe ({prefix} cards in a row)"
    if n < 2:
        return too_few("rng.repeat", test, group, 2, method="repeats")
    order = group.by_time()
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64)
    first_by_prefix = _first_of_class(_classes(group.codes[:, :prefix]), rank, order)
    keys, starts = cut_keys(group.codes, prefix)
    first_by_cut = _first_of_class(_classes(keys), rank, order)
    repeats = np.flatnonzero(first_by_prefix != np.arange(n))
    cut = np.flatnonzero((first_by_prefix == np.arange(n)) & (first_by_cut != np.arange(n)))
    earlier = first_by_cut[cut]
    rotated = _rotations(group.codes, cut, earlier, (starts[earlier] - starts[cut]) % length)
    shares = (f"shares {prefix} cards in a row with", f"share {prefix} cards in a row with")
    kinds = [
        _Kind(("repeats", "repeat"), repeats, first_by_prefix[repeats]),
        _Kind(("is a cut of", "are cuts of"), cut[rotated], earlier[rotated]),
        _Kind(shares, cut[~rotated], earlier[~rotated]),
    ]
    found = sum(k.later.size for k in kinds)
    chance = (length + 1) * repeat_bound(group, prefix)  # the first cards, or any cyclic start
    pairs = n * (n - 1) / 2
    every = [k.sets(rank) for k in kinds]
    named = [sets[: NAMED + 1] for sets in every]
    evidence = _evidence([s for sets in every for s in sets], rank)
    shown = {x for sets in named for first, later in sets for x in (first, *later[:NAMED])}
    rows = sorted(shown | set(evidence))
    ids = dict(zip(rows, group.hand_ids.take(pa.array(rows, pa.int64())).to_pylist(),
                   strict=True))  # fmt: skip
    said = [
        f"{_shoes(repeats.size, 'repeats', 'repeat')} an earlier shoe's first {prefix} cards",
        f"{_shoes(kinds[1].later.size, 'is', 'are')} a cut of an earlier shoe",
    ]
    if kinds[2].later.size:
        said.append(f"{_shoes(kinds[2].later.size, 'shares', 'share')} {prefix} cards in a "
                    "row with an earlier shoe without being a cut of it")  # fmt: skip
    for i, (kind, sets) in enumerate(zip(kinds, named, strict=True)):
        if sets:
            said[i] += " (" + "; ".join(
                f"{_listed([ids[x] for x in later[:NAMED]], len(later))} "
                f"{kind.verb[len(later) > 1]} {ids[first]}"
                for first, later in sets[:NAMED]
            ) + ("; ...)" if len(sets) > NAMED else ")")
    effect = (
        "; ".join(said)
        + f"; a fair shuffle gives any of {pairs:,.0f} pairs {prefix} cards in a row in "
        f"common with chance below {min(1.0, pairs * chance):.1e}"
    )
    return result(
        "rng.repeat",
        test,
        group,
        method="repeats",
        statistic=float(found),
        df=None,
        p_value=1.0 if found == 0 else min(1.0, pairs * chance),
        effect=effect,
        hands=tuple(ids[x] for x in evidence),
        labels=("repeated or cut shoes",),
        observed=(float(found),),
        expected=(pairs * chance,),
    )


def _shoes(count: int, one: str, several: str) -> str:
    """``1 shoe repeats``, ``2 shoes repeat``."""
    return f"{count:,} shoe {one}" if count == 1 else f"{count:,} shoes {several}"


def _listed(names: list[str], count: int) -> str:
    """``A, B``; ``A, B and 5 more`` when ``count`` is more than the names."""
    more = f" and {count - len(names):,} more" if count > len(names) else ""
    return ", ".join(names) + more


def _evidence(sets: list[tuple[int, list[int]]], rank: Ints) -> list[int]:
    """The first ``EVIDENCE`` shoes of the sets (of every kind, by their earlier shoe's
    deal), each set's earlier shoe first, each shoe once."""
    out: dict[int, None] = {}
    for first, later in sorted(sets, key=lambda s: (int(rank[s[0]]), int(rank[s[1][0]]))):
        for x in (first, *later):
            if len(out) == EVIDENCE:
                return list(out)
            out.setdefault(x, None)
    return list(out)
