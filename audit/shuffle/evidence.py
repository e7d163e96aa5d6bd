"""The hands behind a failed shuffle test: where an investigator starts.

A shuffle test is about a group's shoes together, and no one shoe fails it. But a test on
which card turns up at one place (``rng.position``, ``rng.card``, ``rng.uniformity``,
``rng.wild_rank``, ``rng.open_card``, ``rng.first_card``) fails on a cell that holds too
many shoes: the shoes with that card at that place made it fail, the stacked ones among
them; and a seat dealt more jokers than the others (``rng.seat_jokers``) fails on the hands
where that seat got more than its share of the jokers dealt. Those hands are its evidence,
in table order (``shoes``), the first ``EVIDENCE`` kept, with how many there are in all. A
blind tester's jokers slipped to seat 1 in 203-337 hands of a group were found, but no
output named one of those hands.

The tests on shoes as a whole or on pairs of them (``rng.jokers_dealt``, ``rng.adjacent``,
``rng.serial``, ``rng.runs``) name no hands: every shoe counts a little toward them.
``rng.repeat`` names its repeated shoes itself.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from audit.cards import CODE_OF, CODE_TEXT, JOKER
from audit.shuffle.deal import RANK_NAMES, position_counts
from audit.shuffle.result import Result
from audit.shuffle.seats import seat_jokers
from audit.shuffle.shoes import RANK, Bools, Group

EVIDENCE = 20
"""Hands kept as a failed test's evidence (rng.parquet's ``hands``)."""
CELL_CHECKS = ("rng.position", "rng.card", "rng.uniformity", "rng.wild_rank",
               "rng.open_card", "rng.first_card", "rng.seat_jokers")  # fmt: skip
"""The checks whose failure is a cell of too many shoes (``rng.seat_jokers``: a seat dealt
more than its share of the hand's jokers)."""


def with_evidence(result: Result, group: Group) -> Result:
    """``result`` with its evidence hands and their number (``Result.cell``), when it
    failed on a cell of too many shoes; as it is otherwise."""
    if result.severity is None or result.hands or result.check not in CELL_CHECKS:
        return result
    found = _cell(result, group)
    if found is None:
        return result
    where, rows = found
    hands = group.hand_ids.take(np.flatnonzero(rows)[:EVIDENCE]).to_pylist()
    return replace(result, hands=tuple(hands), cell=(where, int(rows.sum())))


def _cell(result: Result, group: Group) -> tuple[str, Bools] | None:
    """The cell with the most shoes over a fair shuffle's expectation, in words that follow
    "the hands" (``dealt with JK at position 0``), and which shoes are in it; None when no
    cell holds more than expected (the test failed on a card kept away from a place: no
    shoe shows that)."""
    if result.check == "rng.uniformity":
        return _uniformity_cell(group)
    label = _most_over(result) if result.favoured is None else (result.favoured or None)
    if label is None:
        return None
    codes = group.codes
    if result.check == "rng.seat_jokers":
        return _seat_cell(result, group, label)
    if result.check == "rng.position":
        at = int(result.test.split()[-1])
        return f"dealt with {label} at position {at}", codes[:, at] == CODE_OF[label]
    if result.check == "rng.card":
        card = result.test.split()[-1]
        return f"dealt with {card} at position {label}", codes[:, int(label)] == CODE_OF[card]
    dealt = group.dealt()
    if result.check == "rng.open_card":
        open_card = codes[np.arange(group.shoes), dealt + 1]
        return f"dealt with {label} as the open card", open_card == CODE_OF[label]
    if result.check == "rng.wild_rank":
        wild = codes[np.arange(group.shoes), dealt].astype(np.int64)
        if label == "joker":
            return "where a printed joker turned up as the wild card", wild == JOKER
        rank = RANK_NAMES.index(label) + 1
        return f"where a {label} turned up as the wild card", (wild != JOKER) & (RANK[wild] == rank)
    # rng.first_card: "first card of seat S of P"
    words = result.test.split()
    seat, players = int(words[4]), int(words[6])
    first = (group.players == players) & (codes[:, seat - 1] == CODE_OF[label])
    return f"where seat {seat} of {players} was first dealt {label}", first


def _most_over(result: Result) -> str | None:
    """The label of the chart's cell furthest above its expectation (standardized), or
    None when none is above it."""
    observed, expected = np.array(result.observed), np.array(result.expected)
    if not observed.size:
        return None
    keep = expected > 0
    z = np.where(keep, (observed - expected) / np.sqrt(np.where(keep, expected, 1.0)), 0.0)
    i = int(np.argmax(z))
    return result.labels[i] if z[i] > 0 else None


def _uniformity_cell(group: Group) -> tuple[str, Bools] | None:
    """The whole table's cell furthest above its expectation (``deal.uniformity_tests``
    names the furthest either way in its effect)."""
    counts = position_counts(group).astype(np.float64)
    cats = group.categories
    expected = group.shoes * group.copies[cats] / group.length
    z = (counts[:, cats] - expected) / np.sqrt(expected)
    at, c = np.unravel_index(int(np.argmax(z)), z.shape)
    if z[at, c] <= 0:
        return None
    code = int(cats[c])
    return f"dealt with {CODE_TEXT[code]} at position {at}", group.codes[:, at] == code


def _seat_cell(result: Result, group: Group, label: str) -> tuple[str, Bools]:
    """The hands where the seat ``label`` (``seat 1 in deal order``, or a table seat
    number, ``seat 3``) got more than its share (the jokers dealt over the players) of the
    jokers the test counts (``jokers``, or ``printed jokers`` alone)."""
    what = result.test.split(" by ")[0]
    per_seat = seat_jokers(group, printed_only=what == "printed jokers").astype(np.float64)
    share = per_seat.sum(axis=1) / group.players
    number = int(label.split()[1])
    if result.test.endswith("deal order"):
        got = per_seat[:, number - 1] if number <= per_seat.shape[1] else np.zeros(group.shoes)
        sat = group.players >= number
    else:
        at = group.seats[:, : per_seat.shape[1]] == number
        got = (per_seat * at).sum(axis=1)
        sat = at.any(axis=1)
    return f"where {label} got more than its share of the {what}", sat & (got > share)
