"""An obviously-correct reference for the fewest points a hand can be charged.

It knows nothing of the solver. It asks ``classify`` (melds.py) which groups of the hand are
valid melds and searches every collection of disjoint valid melds; ``score_arrangement``
(scoring.py) is what the tests check its answers against.

1. The valid melds. ``classify`` reads a group's cards as naturals and jokers (printed
   ``JK`` and the cards ``jokers.is_joker`` names). Every reading it accepts has natural
   cards of one suit (a sequence, a tunnela), of one rank (a set, a tunnela) or none at all
   (a group of jokers), so a valid group lies inside one of 17 pools: the cards of a suit
   plus every joker, the cards of a rank plus every joker. Every subset of every pool is
   classified (``test_melds`` checks the premise on random groups). ``classify`` depends
   only on the multiset of codes, so equal multisets (two decks) are classified once.
2. The search. Melds are bitmasks over hand positions. ``best(uncovered)`` takes the
   lowest uncovered position and either leaves that card unmatched or covers it with a
   valid meld that holds it and lies inside ``uncovered``, so every collection of disjoint
   melds is reached. For each requirement state (sequences, pure sequences, "has a long
   sequence", each counted only as far as the ruleset asks) it keeps the fewest points of
   unmatched cards.
3. The charge. A collection that meets the requirement is charged its unmatched cards; any
   other arrangement is charged every card (003_), or the full count, or under
   ``pure_run_exempt`` every card but those of its most valuable pure sequence (each
   valid pure sequence of the hand is tried), or under ``pure_runs_exempt`` every card
   but those of the pure sequences laid (every collection of disjoint pure sequences is
   tried); everything is capped.
4. The ready hand (``points.ready_hand``, 21 and 27 cards): a hand whose cards hold the
   dublees or jokers it names, or that some arrangement charges nothing, is charged the
   ready hand's points.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from audit.cards import RANK_OF, SUIT_OF
from audit.rules.counts import ready_reason
from audit.rules.melds import Jokers, Verdict, classify
from audit.rules.ruleset import Ruleset
from audit.rules.scoring import card_points

State = tuple[int, int, bool]
"""(sequences, pure sequences, has a long sequence), counts capped at what the rules ask."""


@dataclass(frozen=True, slots=True)
class _Meld:
    mask: int
    runs: int
    pure: int
    length: int


def valid_melds(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> dict[int, Verdict]:
    """Every valid meld of ``cards``: bitmask over positions -> its verdict."""
    positions = range(len(cards))
    joker_bits = sum(1 << i for i in positions if jokers.is_joker(cards[i]))
    pools = [
        sum(1 << i for i in positions if not jokers.is_joker(cards[i]) and key(cards[i]) == v)
        for key, values in ((SUIT_OF.__getitem__, range(4)), (RANK_OF.__getitem__, range(1, 14)))
        for v in values
    ]
    seen: set[int] = set()
    verdicts: dict[tuple[int, ...], Verdict] = {}
    melds: dict[int, Verdict] = {}
    for pool in pools:
        full = pool | joker_bits
        sub = full
        while sub:  # every non-empty subset of the pool
            if sub not in seen:
                seen.add(sub)
                codes = tuple(sorted(cards[i] for i in positions if sub >> i & 1))
                verdict = verdicts.get(codes)
                if verdict is None:
                    verdict = verdicts[codes] = classify(codes, jokers, rules)
                if verdict.is_valid:
                    melds[sub] = verdict
            sub = (sub - 1) & full
    return melds


def brute_force(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset, *, cap: int | None = None
) -> tuple[int, list[list[int]]]:
    """The fewest points ``hand`` can be charged, and an arrangement charged that many.

    The arrangement holds the chosen melds, then each unmatched card as a group of its own.
    """
    # Jokers last: the search then starts from natural cards, which fit in few melds.
    cards = sorted(hand, key=lambda c: (jokers.is_joker(c), c))
    n = len(cards)
    points = [card_points([c], jokers, rules) for c in cards]
    limit = rules.cap if cap is None else cap
    # What an arrangement without the requirement is charged: every card (all_cards, 003_,
    # 004_) or the full count (full_count, 003_'s "loses 80 points").
    every_card = sum(points) if rules.unmet_requirement == "all_cards" else rules.cap
    melds = valid_melds(cards, jokers, rules)
    unmet_groups = [[c] for c in cards]
    if rules.unmet_requirement == "pure_run_exempt":
        # Every card but those of one pure sequence, the one worth most.
        pure = [m for m, v in melds.items() if v.is_pure_run]
        kept = max(pure, key=lambda m: sum(points[i] for i in range(n) if m >> i & 1), default=0)
        every_card = sum(points[i] for i in range(n) if not kept >> i & 1)
        if kept:
            unmet_groups = [[cards[i] for i in range(n) if kept >> i & 1]]
            unmet_groups += [[cards[i]] for i in range(n) if not kept >> i & 1]
    elif rules.unmet_requirement == "pure_runs_exempt":
        every_card, unmet_groups = _pure_runs_exempt(cards, points, melds)

    need_runs = max(rules.min_runs, 1)
    need_pure = rules.min_pure_runs
    long = rules.long_run_length
    by_lowest: list[list[_Meld]] = [[] for _ in range(n)]
    for mask, verdict in melds.items():
        length = mask.bit_count() if verdict.is_run else 0
        by_lowest[(mask & -mask).bit_length() - 1].append(
            _Meld(mask, int(verdict.is_run), int(verdict.is_pure_run), length)
        )

    def add(state: State, meld: _Meld) -> State:
        runs, pure, has_long = state
        return (
            min(runs + meld.runs, need_runs),
            min(pure + meld.pure, need_pure),
            has_long or (long is not None and meld.length >= long),
        )

    # best(uncovered) -> {state of the melds chosen among `uncovered`: (points, choice)};
    # choice is the meld covering the lowest uncovered card, or 0 if that card is unmatched.
    empty: State = (0, 0, False)
    memo: dict[int, dict[State, tuple[int, int, State]]] = {0: {empty: (0, 0, empty)}}

    def best(uncovered: int) -> dict[State, tuple[int, int, State]]:
        found = memo.get(uncovered)
        if found is not None:
            return found
        low = uncovered & -uncovered
        i = low.bit_length() - 1
        out: dict[State, tuple[int, int, State]] = {}
        for state, (pts, _, _) in best(uncovered ^ low).items():
            if state not in out or pts + points[i] < out[state][0]:
                out[state] = (pts + points[i], 0, state)
        for meld in by_lowest[i]:
            if meld.mask & ~uncovered:
                continue
            for state, (pts, _, _) in best(uncovered ^ meld.mask).items():
                new = add(state, meld)
                if new not in out or pts < out[new][0]:
                    out[new] = (pts, meld.mask, state)
        memo[uncovered] = out
        return out

    full = (1 << n) - 1
    finals = best(full)
    met = [(pts, state) for state, (pts, _, _) in finals.items() if _meets(state, rules)]
    if not met:  # every arrangement counts every card: all singles is one of them
        return _ready(min(limit, every_card), cards, jokers, rules, limit), unmet_groups
    pts, state = min(met)
    if every_card < pts:
        return _ready(min(limit, every_card), cards, jokers, rules, limit), unmet_groups
    groups: list[list[int]] = []
    uncovered = full
    while uncovered:
        _, choice, before = memo[uncovered][state]
        if choice:
            groups.append([cards[i] for i in range(n) if choice >> i & 1])
            uncovered ^= choice
        else:
            low = uncovered & -uncovered
            groups.append([cards[low.bit_length() - 1]])
            uncovered ^= low
        state = before
    return _ready(min(limit, every_card, pts), cards, jokers, rules, limit), groups


def _ready(points: int, cards: Sequence[int], jokers: Jokers, rules: Ruleset, limit: int) -> int:
    """``points`` under ``points.ready_hand``: the ready hand's points for a hand whose
    counts say it is ready or whose best arrangement charges nothing."""
    ready = rules.ready_hand
    if ready is None:
        return points
    if points == 0 or ready_reason(cards, jokers, rules, False) is not None:
        return min(ready.points, limit)
    return points


def _pure_runs_exempt(
    cards: list[int], points: list[int], melds: dict[int, Verdict]
) -> tuple[int, list[list[int]]]:
    """The least points of the cards outside some disjoint pure sequences, and the groups:
    those pure sequences, then every other card alone."""
    n = len(cards)
    pure = [m for m, v in melds.items() if v.is_pure_run]
    memo: dict[int, tuple[int, int]] = {0: (0, 0)}

    def least(uncovered: int) -> int:
        if uncovered in memo:
            return memo[uncovered][0]
        low = uncovered & -uncovered
        i = low.bit_length() - 1
        found = (least(uncovered ^ low) + points[i], 0)
        for m in pure:
            if m & low and not m & ~uncovered:
                value = least(uncovered ^ m)
                if value < found[0]:
                    found = (value, m)
        memo[uncovered] = found
        return found[0]

    full = (1 << n) - 1
    total = least(full)
    groups: list[list[int]] = []
    singles: list[list[int]] = []
    uncovered = full
    while uncovered:
        choice = memo[uncovered][1]
        if choice:
            groups.append([cards[i] for i in range(n) if choice >> i & 1])
            uncovered ^= choice
        else:
            low = uncovered & -uncovered
            singles.append([cards[low.bit_length() - 1]])
            uncovered ^= low
    return total, groups + singles


def _meets(state: State, rules: Ruleset) -> bool:
    """The declaration requirement, from the ruleset's words (declaration.* rules).

    ``min_runs`` sequences, ``min_pure_runs`` of them pure, and where ``long_run_length``
    is set one sequence at least that long (asked only of a hand that has sequences).
    """
    runs, pure, has_long = state
    return (
        runs >= rules.min_runs
        and pure >= rules.min_pure_runs
        and (rules.long_run_length is None or runs == 0 or has_long)
    )


def _benchmark() -> None:  # run by hand: python -m tests.rules.brute
    from .hands import seeded_deal

    kinds = ("plain", "3-6 jokers", "near-complete")
    times: dict[str, list[float]] = {kind: [] for kind in kinds}
    for seed in range(3000):
        deal = seeded_deal(seed)
        rules, jokers = deal.rules, deal.jokers
        start = time.perf_counter()
        brute_force(deal.hand, jokers, rules)
        times[kinds[seed // 2 % 3]].append(time.perf_counter() - start)
    for kind, spent in times.items():
        spent.sort()
        print(
            f"{kind:14} mean {sum(spent) / len(spent) * 1000:6.2f} ms, "
            f"p99 {spent[len(spent) * 99 // 100] * 1000:6.2f} ms, max {spent[-1] * 1000:6.2f} ms"
        )
    every = [t for spent in times.values() for t in spent]
    print(f"all            mean {sum(every) / len(every) * 1000:6.2f} ms")


if __name__ == "__main__":
    _benchmark()
