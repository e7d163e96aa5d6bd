"""The exact optimal arrangement: the fewest points any arrangement of a hand is charged.

The answer is ``min(cap, U, D)``: ``U`` is what an arrangement without the requirement is
charged (every card's points, or the full count under ``full_count``), ``D`` the least
deadwood of an arrangement that meets the declaration requirement (two sequences, one
pure, ...). ``D`` is found by a memoised search over the hand, written for speed:

- Jokers are interchangeable, so a meld is its *core* of real cards plus a number of jokers;
  only the count of jokers left matters. Every wild-rank card (0 points) starts in the joker
  pool; a meld that has one stand as itself (in a set, or in a sequence when
  ``melds.wild_natural_keeps_pure``) takes it out of the pool. Wild cards come first in the
  search, so every meld holding one is met while its card is decided.
- The cards left are a multiset packed in one int, three bits a distinct card (a count and
  a guard bit), so "does this meld still fit" is one subtraction and one mask.
- The search always decides the highest-valued card left: unmatched, or in one of the
  melds whose first card it is. The state is (cards left, jokers left, requirement so far).

``classify`` (melds.py) is the reference; the test suite checks this against a brute force
built on it for tens of thousands of hands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from audit.cards import JOKER, RANK_OF, SUIT_OF
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset

_INF = 1 << 30

# What a meld adds to the requirement: (is a run, is pure, is long enough).
_SET, _RUN, _RUN_LONG, _PURE, _PURE_LONG = range(5)
_CONTRIB = {
    _SET: (False, False, False),
    _RUN: (True, False, False),
    _RUN_LONG: (True, False, True),
    _PURE: (True, True, False),
    _PURE_LONG: (True, True, True),
}


@dataclass(frozen=True, slots=True)
class _Plan:
    """The moves of an optimal search path and where it ended.

    A move is (delta, kind): kind -1 a wild card left in the joker pool, 0 a card unmatched,
    k > 0 a meld that takes k - 1 jokers from the pool.
    """

    moves: list[tuple[int, int]]
    jokers: int
    state: int


def best_points(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset, *, cap: int | None = None
) -> int:
    """The fewest points any arrangement of ``hand`` is charged.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> hand = parse_codes("2H 3H 4H 9S TS 7C KD KC KS QD QH 5C 8D".split())
    >>> best_points(hand, Jokers.of_rank(7), load_preset("standard-13"))
    33
    """
    return _Search(hand, jokers, rules, cap).run()[0]


def best_arrangement(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset, *, cap: int | None = None
) -> tuple[int, list[list[int]]]:
    """The fewest points and one arrangement of ``hand`` that is charged them."""
    search = _Search(hand, jokers, rules, cap)
    points, plan = search.run()
    return points, search.groups(plan)


@lru_cache(maxsize=256)
def _requirement_tables(
    rules: Ruleset,
) -> tuple[tuple[tuple[int, ...], ...], tuple[bool, ...], int, int]:
    """Requirement states: (runs, pure runs, long) capped at what the rules ask.

    Returns the transition table ``next[state][contribution]``, which states meet the
    requirement, and the caps.
    """
    runs_cap, pure_cap = rules.min_runs, rules.min_pure_runs
    need_long = rules.long_run_length is not None
    states = [(r, p, lg) for lg in (0, 1) for p in range(pure_cap + 1) for r in range(runs_cap + 1)]
    index = {s: i for i, s in enumerate(states)}
    table = []
    for r, p, lg in states:
        row = []
        for contrib in range(5):
            is_run, is_pure, is_long = _CONTRIB[contrib]
            row.append(
                index[
                    (
                        min(runs_cap, r + is_run),
                        min(pure_cap, p + is_pure),
                        1 if (lg or is_long) else 0,
                    )
                ]
            )
        table.append(tuple(row))
    goal = tuple(
        r >= runs_cap and p >= pure_cap and (lg == 1 or not need_long) for r, p, lg in states
    )
    return tuple(table), goal, runs_cap, pure_cap


class _Search:
    """One hand's search. ``run()`` returns (points, plan); ``groups(plan)`` the groups."""

    def __init__(
        self, hand: Sequence[int], jokers: Jokers, rules: Ruleset, cap: int | None
    ) -> None:
        self.hand = list(hand)
        self.rules = rules
        self.jokers = jokers
        table = rules.points_table(jokers.codes)
        self.total = sum(table[c] for c in self.hand)
        self.limit = rules.cap if cap is None else cap
        self.printed = [c for c in self.hand if c == JOKER]
        wild = sorted(c for c in self.hand if c != JOKER and c in jokers.codes)
        natural = sorted(
            (c for c in self.hand if c != JOKER and c not in jokers.codes),
            key=lambda c: (-table[c], c),
        )
        # Items: distinct codes, wild ones first, then the rest by points, highest first.
        self.items: list[int] = []
        counts: list[int] = []
        for code in wild + natural:
            if self.items and self.items[-1] == code:
                counts[-1] += 1
            else:
                self.items.append(code)
                counts.append(1)
        self.n_wild = len(dict.fromkeys(wild))
        self.item_points = [table[c] for c in self.items]
        self.full = sum(n << (3 * i) for i, n in enumerate(counts))
        self.guard = sum(4 << (3 * i) for i in range(len(self.items)))
        self.joker_total = len(self.printed) + len(wild)

    # ------------------------------------------------------------ candidates

    def _candidates(self) -> list[list[tuple[int, int, int, int]]]:
        """For each item, the melds whose first (lowest-index) item it is:
        (delta of the packed multiset, cost, contribution, jokers needed).

        Every wild card starts in the joker pool; a meld that uses one as itself takes it
        out of the pool, so a meld's cost to the pool is its jokers plus its wild cards."""
        rules = self.rules
        found: dict[tuple[int, int], int] = {}  # (delta, need) -> contributions, a bit each
        for core, need, contrib in self._runs():
            found[core, need] = found.get((core, need), 0) | 1 << contrib
        for core, need in self._sets():
            found[core, need] = found.get((core, need), 0) | 1 << _SET
        if rules.tunnela:
            for i, code in enumerate(self.items):
                if code not in self.jokers.codes and (self.full >> (3 * i)) & 3 >= 3:
                    found[3 << (3 * i), 0] = found.get((3 << (3 * i), 0), 0) | 1 << _SET
        by_first: list[list[tuple[int, int, int, int]]] = [[] for _ in self.items]
        wild_digits = (1 << (3 * self.n_wild)) - 1
        for (delta, need), contribs in found.items():
            first = ((delta & -delta).bit_length() - 1) // 3
            wild = (
                sum((delta >> (3 * i)) & 7 for i in range(self.n_wild))
                if delta & wild_digits
                else 0
            )
            for contrib in _UNDOMINATED[contribs]:
                by_first[first].append((delta, need + wild, contrib, need))
        for options in by_first:
            options.sort(key=lambda o: (o[1], -o[0]))
        return by_first

    def _runs(self) -> list[tuple[int, int, int]]:
        rules = self.rules
        lowest = 1 if rules.ace_low else 2
        highest = 14 if rules.ace_high else 13
        span_max = 13 if rules.run_wraps else highest - lowest + 1
        per_run = rules.max_jokers_per_run
        budget = self.joker_total if per_run is None else min(per_run, self.joker_total)
        long = rules.long_run_length
        out = []
        for suit in range(4):
            where: dict[int, int] = {}
            for i, code in enumerate(self.items):
                if SUIT_OF[code] != suit:
                    continue
                if i < self.n_wild and not rules.wild_natural_keeps_pure:
                    continue
                rank = RANK_OF[code]
                if rules.run_wraps:
                    where[rank] = where[rank + 13] = i
                elif rank != 1:
                    where[rank] = i
                else:
                    if rules.ace_low:
                        where[1] = i
                    if rules.ace_high:
                        where[14] = i
            places = sorted(where)
            for a_pos, a in enumerate(places):
                for b in places[a_pos:]:
                    length = b - a + 1
                    if length > span_max:
                        break
                    inner = [p for p in places if a < p < b]
                    missing = length - len(inner) - (1 if a == b else 2)
                    if missing > budget:
                        continue
                    room = span_max - length if rules.run_wraps else (a - lowest) + (highest - b)
                    ends = (1 << (3 * where[a])) + (0 if a == b else 1 << (3 * where[b]))
                    pad = max(0, rules.min_meld_size - length)
                    pads = [pad]
                    if long is not None and length + pad < long:
                        pads.append(long - length)
                    for dropped in range(0, min(len(inner), budget - missing) + 1):
                        for kept in combinations(inner, len(inner) - dropped):
                            delta = ends + sum(1 << (3 * where[p]) for p in kept)
                            gaps = missing + dropped
                            for p in pads:
                                need = gaps + p
                                if p > room or need > budget:
                                    continue
                                is_long = long is not None and length + p >= long
                                if need == 0:
                                    contrib = _PURE_LONG if is_long else _PURE
                                else:
                                    contrib = _RUN_LONG if is_long else _RUN
                                out.append((delta, need, contrib))
        return out

    def _sets(self) -> list[tuple[int, int]]:
        rules = self.rules
        per_set = rules.max_jokers_per_set
        budget = self.joker_total if per_set is None else min(per_set, self.joker_total)
        by_rank: dict[int, list[int]] = {}
        for i, code in enumerate(self.items):
            by_rank.setdefault(RANK_OF[code], []).append(i)
        out = []
        for members in by_rank.values():
            for size in range(1, len(members) + 1):
                need = max(0, rules.min_meld_size - size)
                if need > budget or size + need > rules.max_set_size:
                    continue
                for chosen in combinations(members, size):
                    if all(i < self.n_wild for i in chosen):
                        continue  # covers no points: the joker pool does at least as well
                    delta = sum(1 << (3 * i) for i in chosen)
                    out.append((delta, need))
        return out

    # ------------------------------------------------------------ search

    def _pure_run_possible(self) -> bool:
        rules = self.rules
        for suit in range(4):
            ranks = {
                RANK_OF[c]
                for i, c in enumerate(self.items)
                if SUIT_OF[c] == suit and (i >= self.n_wild or rules.wild_natural_keeps_pure)
            }
            if 1 in ranks and rules.ace_high:
                ranks.add(14)
            if 1 in ranks and not rules.ace_low:
                ranks.discard(1)
            if rules.run_wraps:
                ranks |= {r + 13 for r in ranks}
            if any(r + 1 in ranks and r + 2 in ranks for r in ranks):
                return True
        return False

    def run(self) -> tuple[int, _Plan | None]:
        """(points, plan); the plan is the moves chosen, ``None`` when every card counts."""
        unmet = self.total if self.rules.unmet_requirement == "all_cards" else self.rules.cap
        bound = min(unmet, self.limit)
        if bound == 0 or (self.rules.min_pure_runs and not self._pure_run_possible()):
            return bound, None
        by_first = self._candidates()
        table, goal, _, _ = _requirement_tables(self.rules)
        terminal = self._terminal_table(goal, table)
        points = self.item_points
        n_wild = self.n_wild
        guard = self.guard
        memo: dict[int, int] = {}

        def solve(rem: int, jok: int, state: int) -> int:
            if not rem:
                return 0 if terminal[state][min(jok, len(terminal[state]) - 1)] else _INF
            key = (rem << 12) | (jok << 5) | state
            known = memo.get(key)
            if known is not None:
                return known
            low = rem & -rem
            i = (low.bit_length() - 1) // 3
            rest = rem - (1 << (3 * i))
            # A wild card left alone stays in the joker pool; any other card counts.
            best = solve(rest, jok, state) + (0 if i < n_wild else points[i])
            fits = rem | guard
            moves = table[state]
            for delta, cost, contrib, _ in by_first[i]:
                if cost <= jok and (fits - delta) & guard == guard:
                    value = solve(rem - delta, jok - cost, moves[contrib])
                    if value < best:
                        best = value
            memo[key] = best
            return best

        deadwood = solve(self.full, self.joker_total, 0)
        if deadwood >= bound:
            return bound, None
        return deadwood, self._plan(deadwood, solve, by_first, table)

    def _terminal_table(
        self, goal: tuple[bool, ...], table: tuple[tuple[int, ...], ...]
    ) -> list[list[bool]]:
        """``terminal[state][jokers]``: can the jokers left finish the requirement?

        Only when ``melds.jokers_only_group = "run"``: 3+ jokers alone are a sequence.
        """
        rules = self.rules
        most = self.joker_total
        out = []
        for state, done in enumerate(goal):
            row = [done] * (most + 1)
            if rules.jokers_only_group == "run" and not done:
                for jok in range(most + 1):
                    row[jok] = self._joker_runs(state, jok, goal, table) is not None
            out.append(row)
        return out

    def _joker_runs(
        self, state: int, jok: int, goal: tuple[bool, ...], table: tuple[tuple[int, ...], ...]
    ) -> list[int] | None:
        """Sizes of the runs of jokers alone that finish the requirement, or ``None``.

        A run of jokers is never pure; the long one (if needed) is made first, since a
        joker count that cannot pay for it now cannot later either.
        """
        rules = self.rules
        per_run = rules.max_jokers_per_run
        sizes: list[int] = []
        left = jok
        while not goal[state]:
            needs_long = table[state][_RUN_LONG] != table[state][_RUN]
            want = rules.long_run_length if needs_long else None
            size = want or rules.min_meld_size
            after = table[state][_RUN_LONG if needs_long else _RUN]
            if after == state or left < size or (per_run is not None and size > per_run):
                return None
            sizes.append(size)
            left -= size
            state = after
        return sizes

    def _plan(
        self,
        target: int,
        solve: Callable[[int, int, int], int],
        by_first: list[list[tuple[int, int, int, int]]],
        table: tuple[tuple[int, ...], ...],
    ) -> _Plan:
        """Walk the memoised search again to recover the moves behind ``target``."""
        rem, jok, state, owed = self.full, self.joker_total, 0, target
        plan: list[tuple[int, int]] = []
        while rem:
            low = rem & -rem
            i = (low.bit_length() - 1) // 3
            unit = 1 << (3 * i)
            if i < self.n_wild:
                if solve(rem - unit, jok, state) == owed:
                    rem = rem - unit
                    plan.append((unit, -1))  # stays in the joker pool
                    continue
            elif self.item_points[i] + solve(rem - unit, jok, state) == owed:
                rem, owed = rem - unit, owed - self.item_points[i]
                plan.append((unit, 0))  # unmatched
                continue
            fits = rem | self.guard
            for delta, cost, contrib, need in by_first[i]:
                if cost <= jok and (fits - delta) & self.guard == self.guard:
                    nxt = table[state][contrib]
                    if solve(rem - delta, jok - cost, nxt) == owed:
                        rem, jok, state = rem - delta, jok - cost, nxt
                        plan.append((delta, need + 1))  # a meld with `need` jokers
                        break
            else:  # pragma: no cover - the memo always holds a way to its own value
                raise AssertionError("solver plan lost its way")
        return _Plan(plan, jok, state)

    def groups(self, plan: _Plan | None) -> list[list[int]]:
        """The groups of cards a plan stands for: melds, then unmatched cards one by one,
        then the jokers left over (as runs of jokers where the requirement needs them)."""
        if plan is None:
            return [[c] for c in self.hand]
        pool = list(self.printed)
        melds: list[tuple[list[int], int]] = []
        loose: list[list[int]] = []
        for delta, kind in plan.moves:
            cards = [
                self.items[i] for i in range(len(self.items)) for _ in range((delta >> (3 * i)) & 7)
            ]
            if kind == -1:
                pool.extend(cards)
            elif kind == 0:
                loose.append(cards)
            else:
                melds.append((cards, kind - 1))
        out = []
        for cards, need in melds:
            out.append(_display_order(cards) + pool[:need])
            del pool[:need]
        out.extend(loose)
        table, goal, _, _ = _requirement_tables(self.rules)
        sizes = self._joker_runs(plan.state, plan.jokers, goal, table) or []
        for size in sizes:
            out.append(pool[:size])
            del pool[:size]
        if pool:
            out.append(pool)
        return out


def _display_order(cards: list[int]) -> list[int]:
    """Cards in the order people lay a meld down: by rank, the ace after a king."""
    ranks = {RANK_OF[c] for c in cards}
    high_ace = 13 in ranks and 2 not in ranks
    return sorted(cards, key=lambda c: (14 if high_ace and RANK_OF[c] == 1 else RANK_OF[c], c))


def _undominated(contribs: int) -> tuple[int, ...]:
    """The contributions of a bit set that no other one of the same meld beats (a run beats
    a set, a pure run an impure one, a long run a short one)."""
    present = [c for c in range(5) if contribs >> c & 1]
    return tuple(
        c
        for c in present
        if not any(
            d != c and all(x >= y for x, y in zip(_CONTRIB[d], _CONTRIB[c], strict=True))
            for d in present
        )
    )


_UNDOMINATED = tuple(_undominated(mask) for mask in range(32))
