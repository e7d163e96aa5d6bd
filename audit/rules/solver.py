"""The exact optimal arrangement: the fewest points any arrangement of a hand is charged.

The answer is ``min(cap, U, D)``: ``U`` is what an arrangement without the requirement is
charged (every card's points, the full count under ``full_count``, or under
``pure_run_exempt`` every card's points less those of the hand's pure run worth most,
``_best_pure_run``), ``D`` the least
deadwood of an arrangement that meets the declaration requirement (two sequences, one
pure, ...). ``D`` is found by a memoised branch-and-bound search over the hand, written
for speed:

- Jokers are interchangeable, so a meld is its *core* of real cards plus a number of jokers;
  only the count of jokers left matters. Every wild card (those ``Jokers`` names: a whole
  rank, or under ``jokers.wild_scope = "card"`` the copies of one card) starts in the joker
  pool; a meld that has one stand as itself (in a set, or in a sequence when
  ``melds.wild_natural_keeps_pure``) takes it out of the pool. Wild cards come first in the
  search, so every meld holding one is met while its card is decided.
- The cards left are a multiset packed in one int, a field of a few bits a distinct card: a
  count wide enough for the most copies of a card the hand holds, and a guard bit above it,
  so "does this meld still fit" is one subtraction and one mask (``_packing``). A hand from
  two decks needs 3 bits a card, one from the 8 decks a ruleset may have 5; the width is
  the hand's own, so a hand with more copies than its shoe holds is still solved exactly.
- The search always decides the highest-valued card left: in one of the melds whose first
  card it is (cheapest first), or unmatched. The state is (cards left, jokers left,
  requirement so far), packed in one memo key with as many bits for the jokers and the
  requirement as this hand and ruleset need (up to 10 sequences asked: 242 requirement
  states). Each call carries a bound, the best found so far: it returns the exact least
  deadwood under the bound, else a lower bound at or above it, and stops as soon as
  nothing can beat the bound. The memo keeps exact values and lower
  bounds apart, and with each exact value the move that reached it, so the arrangement
  is read off the memo without searching again. A state whose melds left (those of its
  card or later ones) cannot meet the requirement is cut at once.
- The melds a suit's cards can make as runs depend only on the suit's ranks and the jokers
  that may be spent, so they are computed once per pattern and cached (``_suit_runs``);
  so are the sets of a rank (``_set_cores``). A hand only maps them onto its cards.

``declaration`` asks the same search a narrower question, for a player's cards after the
draw: can every card but one (the finish) lie in melds that meet the requirement? It
stops at the first way it finds, and remembers only the states that have none. Under
``declaration.groupings`` a way whose group sizes are not allowed is searched again among
the splits of the sizes allowed (``_grouped_declaration``); a loser's points do not
depend on group sizes.

``classify`` (melds.py) is the reference; the tests check this against a brute force on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from audit.cards import JOKER, RANK_OF, SUIT_OF
from audit.rules.declaration import check_declaration, grouping_reason
from audit.rules.melds import Jokers, classify
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


# A meld that can be made: (cost to the joker pool, -delta, contribution, delta of the
# packed multiset, jokers needed). Sorted, the order the search tries them in.
_Option = tuple[int, int, int, int, int]


class _Prepared(NamedTuple):
    """What one hand's search reads: its melds by first item, the contributions of the
    melds from each item on, and the rules' requirement tables."""

    by_first: list[list[_Option]]
    kinds: list[int]
    table: tuple[tuple[int, ...], ...]
    terminal: tuple[tuple[bool, ...], ...]
    reach: tuple[tuple[int, ...], ...]
    finish: tuple[int, ...]


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
    return _Search(hand, jokers, rules, cap).run(plan=False)[0]


def best_arrangement(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset, *, cap: int | None = None
) -> tuple[int, list[list[int]]]:
    """The fewest points and one arrangement of ``hand`` that is charged them."""
    search = _Search(hand, jokers, rules, cap)
    points, plan = search.run()
    return points, search.groups(plan)


def declaration(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset
) -> tuple[int, list[list[int]]] | None:
    """A way to declare ``hand``, a player's cards after the draw (one more than a hand):
    the card for the finish slot and groups of the others, every card in a meld (or a
    joker left over) and the declaration requirement met; ``None`` when there is none.

    >>> from audit.cards import format_codes, parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> rules, sevens = load_preset("standard-13"), Jokers.of_rank(7)
    >>> hand = parse_codes("2H 3H 4H 9S TS JS KD KC KS 5C 6C 7D 8C QH".split())
    >>> finish, groups = declaration(hand, sevens, rules)
    >>> format_codes([finish]), [format_codes(g) for g in groups]
    ('QH', ['9S TS JS', 'KS KD KC', '5C 6C 8C 7D', '2H 3H 4H'])
    >>> no_joker = parse_codes("2H 3H 4H 9S TS JS KD KC KS 5C 6C 9D 8C QH".split())
    >>> declaration(no_joker, sevens, rules) is None
    True
    """
    search = _Search(hand, jokers, rules, None)
    plan = search.declare()
    if plan is None:
        return None
    groups = search.groups(plan)
    melds = sum(1 for _, kind in plan.moves if kind > 0)
    if any(kind == 0 for _, kind in plan.moves):  # the one card left out
        finish, groups = groups[melds][0], groups[:melds] + groups[melds + 1 :]
    else:
        finish = groups[-1].pop()  # a joker left over
        groups = groups if groups[-1] else groups[:-1]
    if rules.groupings is not None and grouping_reason([len(g) for g in groups], rules):
        # Every declaration of the sizes allowed is one of any sizes: the search found
        # there is one, so look for one of the sizes allowed.
        return _grouped_declaration(hand, jokers, rules)
    return finish, groups


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


@lru_cache(maxsize=256)
def _reachable(rules: Ruleset) -> tuple[tuple[int, ...], ...]:
    """``reach[state][kinds]``: the requirement states (a bit each) that melds of the
    contributions in the bit set ``kinds``, any number of each, lead to from ``state``."""
    table = _requirement_tables(rules)[0]
    out = []
    for state in range(len(table)):
        row = []
        for kinds in range(32):
            seen, todo = 1 << state, [state]
            while todo:
                at = todo.pop()
                for contrib in range(5):
                    nxt = table[at][contrib]
                    if kinds >> contrib & 1 and not seen >> nxt & 1:
                        seen |= 1 << nxt
                        todo.append(nxt)
            row.append(seen)
        out.append(tuple(row))
    return tuple(out)


@lru_cache(maxsize=256)
def _finishing(rules: Ruleset, most: int) -> tuple[int, ...]:
    """``finish[jokers]``: the requirement states (a bit each) the jokers left finish."""
    terminal = _terminal_table(rules, most)
    return tuple(
        sum(1 << state for state, row in enumerate(terminal) if row[jok]) for jok in range(most + 1)
    )


@cache
def _packing(width: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The packed multiset of ``width`` bits a distinct card, a count of ``width - 1`` bits
    and a guard bit above it: each item's one card, and the guard bits of the first n items.

    A meld (its ``delta``, at most the count of each card) fits in the cards left ``rem``
    when ``(rem | guards) - delta`` keeps every guard bit: a count too small borrows its
    guard. The counts must fit below their guards, so the width comes from the most copies
    of one card a hand holds.

    >>> units, guards = _packing(3)
    >>> units[:3], oct(guards[3])
    ((1, 8, 64), '0o444')
    """
    units = tuple(1 << (width * i) for i in range(54))
    guard = 1 << (width - 1)
    return units, tuple(guard * sum(units[:n]) for n in range(54))


class _Search:
    """One hand's search. ``run()`` returns (points, plan); ``groups(plan)`` the groups."""

    def __init__(
        self, hand: Sequence[int], jokers: Jokers, rules: Ruleset, cap: int | None
    ) -> None:
        self.hand = hand = list(hand)
        self.rules = rules
        wild = jokers.codes
        key, points = _item_order(rules, wild)
        self.total = sum(map(points.__getitem__, hand))
        self.points_of = points
        self.exempt: list[int] = []
        """Under ``pure_run_exempt``, the pure run a loser without the requirement keeps."""
        self.limit = rules.cap if cap is None else cap
        self.printed = [JOKER] * hand.count(JOKER)
        # Items: distinct codes, wild ones first, then the rest by points, highest first.
        distinct = set(hand)
        distinct.discard(JOKER)
        self.items = items = sorted(distinct, key=key.__getitem__)
        self.n_wild = len(wild & distinct)
        self.item_points = list(map(points.__getitem__, items))
        # The packing: wide enough for the most copies of one card. A hand with fewer than
        # 3 cards beyond one of each holds at most 3 of any (2 bits); else they are counted.
        extra = len(hand) - len(self.printed) - len(items)
        most = extra + 1 if extra < 3 else max(map(hand.count, items))
        self.width = width = most.bit_length() + 1
        self.units, guards = _packing(width)
        unit_of = dict(zip(items, self.units, strict=False))
        unit_of[JOKER] = 0
        self.full = sum(map(unit_of.__getitem__, hand))
        self.guard = guards[len(items)]
        self.joker_total = len(self.printed) + sum(map(wild.__contains__, hand))
        # A memo key is (cards left, jokers left, requirement state), each in its own bits.
        states = len(_requirement_tables(rules)[0])
        self.state_bits = (states - 1).bit_length()
        self.key_shift = self.state_bits + self.joker_total.bit_length()

    # ------------------------------------------------------------ candidates

    def _suits(self) -> tuple[list[int], list[list[int]], list[int]]:
        """Per suit, the cards that may stand in a run: a mask of their ranks (bit r for
        rank r), each rank's unit in the packed multiset, and a mask of the wild ones."""
        masks = [0, 0, 0, 0]
        units = [[0] * 14, [0] * 14, [0] * 14, [0] * 14]
        wild = [0, 0, 0, 0]
        n_wild, unit_of = self.n_wild, self.units
        skip = 0 if self.rules.wild_natural_keeps_pure else n_wild
        for i, code in enumerate(self.items[skip:], skip):
            suit, rank = SUIT_OF[code], RANK_OF[code]
            masks[suit] |= 1 << rank
            units[suit][rank] = unit_of[i]
            if i < n_wild:
                wild[suit] |= 1 << rank
        return masks, units, wild

    def _candidates(
        self, suits: tuple[list[int], list[list[int]], list[int]]
    ) -> tuple[list[list[_Option]], list[int]]:
        """For each item, the melds whose first (lowest-index) item it is, as ``_Option``
        tuples, sorted: cheapest first, then those holding more of the lower-valued cards;
        and for each item, the contributions (a bit each) of the melds of it and the later
        items.

        Every wild card starts in the joker pool; a meld that uses one as itself takes it
        out of the pool, so a meld's cost to the pool is its jokers plus its wild cards.
        The melds of one suit's runs, or of one rank's sets, come from tables cached by the
        pattern of cards (``_suit_runs``, ``_set_cores``)."""
        rules, items = self.rules, self.items
        n_wild, width, item_units = self.n_wild, self.width, self.units
        by_first: list[list[_Option]] = [[] for _ in items]
        kinds = [0] * (len(items) + 1)
        per_run = rules.max_jokers_per_run
        run_budget = self.joker_total if per_run is None else min(per_run, self.joker_total)
        masks, units, wilds = suits
        for suit in range(4):
            if not masks[suit]:
                continue
            unit = units[suit].__getitem__
            wild = wilds[suit]
            for ranks, core, need, contrib in _suit_runs(rules, masks[suit], run_budget):
                delta = sum(map(unit, ranks))
                first = ((delta & -delta).bit_length() - 1) // width
                cost = need + (core & wild).bit_count() if wild else need
                by_first[first].append((cost, -delta, contrib, delta, need))
                kinds[first] |= 1 << contrib
        per_set = rules.max_jokers_per_set
        budget = self.joker_total if per_set is None else min(per_set, self.joker_total)
        natural = _natural_sets(rules, budget, run_budget)
        by_rank: dict[int, list[int]] = {}
        for i, code in enumerate(items):
            by_rank.setdefault(RANK_OF[code], []).append(item_units[i])
        wild_unit = item_units[n_wild]
        for rank, places in by_rank.items():
            if places[0] >= wild_unit:
                sets = natural[rank][len(places)]
            else:
                flags = tuple(unit < wild_unit for unit in places)
                sets = _set_options(rules, rank, flags, budget, run_budget)
            for chosen, need, cost in sets:
                delta = sum(map(places.__getitem__, chosen))
                first = ((delta & -delta).bit_length() - 1) // width
                by_first[first].append((cost, -delta, _SET, delta, need))
                kinds[first] |= 1 << _SET
        if rules.tunnela:
            count = (1 << (width - 1)) - 1
            for i in range(n_wild, len(items)):
                if (self.full >> (width * i)) & count >= 3:
                    three = 3 * item_units[i]
                    by_first[i].append((0, -three, _SET, three, 0))
                    kinds[i] |= 1 << _SET
        for options in by_first:
            if len(options) > 1:
                options.sort()
        for i in range(len(items) - 1, -1, -1):
            kinds[i] |= kinds[i + 1]
        return by_first, kinds

    # ------------------------------------------------------------ search

    def _pure_run_possible(self, masks: list[int]) -> bool:
        """Do three cards of a suit (``masks`` from ``_suits``) follow each other?"""
        rules = self.rules
        for ranks in masks:
            if ranks & 2:
                if rules.ace_high:
                    ranks |= 1 << 14
                if not rules.ace_low:
                    ranks &= ~2
            if rules.run_wraps:
                ranks |= ranks << 13
            if ranks & (ranks >> 1) & (ranks >> 2):
                return True
        return False

    def _best_pure_run(self) -> list[int]:
        """The cards of the pure run of this hand worth the most points (``[]`` if none):
        what ``points.unmet_requirement = "pure_run_exempt"`` spares a loser who has no
        declaration. Each window of consecutive places of one suit is tried."""
        rules, points = self.rules, self.points_of
        wraps = rules.run_wraps
        lowest = 1 if rules.ace_low else 2
        highest = 14 if rules.ace_high else 13
        span_max = 13 if wraps else highest - lowest + 1
        skip = 0 if rules.wild_natural_keeps_pure else self.n_wild
        copies = {code: self.hand.count(code) for code in self.items[skip:]}
        best: list[int] = []
        best_value = -1
        for suit in range(4):
            at: dict[int, int] = {}  # place -> code
            for code in copies:
                if SUIT_OF[code] != suit:
                    continue
                rank = RANK_OF[code]
                if wraps:
                    at[rank], at[rank + 13] = code, code
                elif rank != 1:
                    at[rank] = code
                else:
                    if rules.ace_low:
                        at[1] = code
                    if rules.ace_high:
                        at[14] = code
            for start in sorted(at):
                if start - 1 in at:
                    continue  # not the start of a stretch
                end = start
                while end + 1 in at:
                    end += 1
                for a in range(start, end + 1):
                    for b in range(a + rules.min_meld_size - 1, min(end, a + span_max - 1) + 1):
                        run = [at[p] for p in range(a, b + 1)]
                        if any(run.count(code) > copies[code] for code in run):
                            continue  # the ace at both ends, held once
                        value = sum(map(points.__getitem__, run))
                        if value > best_value:
                            best, best_value = run, value
        return best

    def _prepare(self) -> _Prepared | None:
        """What a search reads, or ``None`` when no arrangement can meet the requirement
        (it needs a pure run and no three cards of a suit follow each other)."""
        suits = self._suits()
        if self.rules.min_pure_runs and not self._pure_run_possible(suits[0]):
            return None
        by_first, kinds = self._candidates(suits)
        return _Prepared(
            by_first,
            kinds,
            _requirement_tables(self.rules)[0],
            _terminal_table(self.rules, self.joker_total),
            _reachable(self.rules),
            _finishing(self.rules, self.joker_total),
        )

    def run(self, plan: bool = True) -> tuple[int, _Plan | None]:
        """(points, plan); the plan is the moves chosen, ``None`` when every card counts
        (or when ``plan`` is false)."""
        mode = self.rules.unmet_requirement
        if mode == "all_cards":
            unmet = self.total
        elif mode == "full_count":
            unmet = self.rules.cap
        else:
            self.exempt = self._best_pure_run()
            unmet = self.total - sum(map(self.points_of.__getitem__, self.exempt))
        bound = min(unmet, self.limit)
        if bound == 0:
            return bound, None
        prepared = self._prepare()
        if prepared is None:
            return bound, None
        by_first, kinds, table, terminal, reach, finish = prepared
        # A wild card left alone stays in the joker pool; any other card counts.
        points = [0] * self.n_wild + self.item_points[self.n_wild :]
        units, width, guard = self.units, self.width, self.guard
        state_bits, key_shift = self.state_bits, self.key_shift
        # Exact values as themselves, lower bounds ``lb`` as ``~lb`` (negative); for each
        # exact value, the move that reaches it (``None``: the first card left alone).
        memo: dict[int, int] = {}
        how: dict[int, _Option | None] = {}

        def solve(rem: int, jok: int, state: int, ub: int) -> int:
            """The least deadwood of ``rem`` if it is under ``ub``; else a lower bound of
            it that is at least ``ub``."""
            if not rem:
                return 0 if terminal[state][jok] else _INF
            if ub <= 0:
                return 0
            key = (rem << key_shift) | (jok << state_bits) | state
            known = memo.get(key)
            if known is not None:
                if known >= 0:
                    return known
                if ~known >= ub:
                    return ~known
            low = rem & -rem
            i = (low.bit_length() - 1) // width
            if not reach[state][kinds[i]] & finish[jok]:
                return _INF  # the melds left cannot meet the requirement
            fits = rem | guard
            moves = table[state]
            best = ub
            soft = _INF
            chosen = None
            for cost, neg, contrib, delta, need in by_first[i]:
                if cost <= jok and (fits - delta) & guard == guard:
                    value = solve(rem - delta, jok - cost, moves[contrib], best)
                    if value < best:
                        best, chosen = value, (cost, neg, contrib, delta, need)
                        if not best:
                            break
                    elif value < soft:
                        soft = value
            # Left alone (a wild card: in the pool), the card wins a tie with the melds, so
            # the search asks with a bound one higher, to see the tie.
            own = points[i]
            if own <= best:
                value = solve(rem - units[i], jok, state, best - own + 1) + own
                if value < best or value == best < ub:
                    best, chosen = value, None
                elif value < soft:
                    soft = value
            elif own < soft:
                soft = own
            if best < ub:
                memo[key] = best
                how[key] = chosen
                return best
            memo[key] = ~soft
            return soft

        deadwood = solve(self.full, self.joker_total, 0, bound)
        solve = _spent  # the closure refers to itself: break the cycle (see ``_spent``)
        if deadwood >= bound:
            return bound, None
        if not plan:
            return deadwood, None
        return deadwood, self._plan(how, table)

    def _plan(self, how: dict[int, _Option | None], table: tuple[tuple[int, ...], ...]) -> _Plan:
        """Follow the moves the search chose, from the whole hand to the end."""
        rem, jok, state = self.full, self.joker_total, 0
        units, width = self.units, self.width
        state_bits, key_shift = self.state_bits, self.key_shift
        moves: list[tuple[int, int]] = []
        while rem:
            option = how[(rem << key_shift) | (jok << state_bits) | state]
            if option is None:
                i = ((rem & -rem).bit_length() - 1) // width
                moves.append((units[i], -1 if i < self.n_wild else 0))  # pool, or unmatched
                rem -= units[i]
            else:
                cost, _, contrib, delta, need = option
                moves.append((delta, need + 1))  # a meld with `need` jokers
                rem, jok, state = rem - delta, jok - cost, table[state][contrib]
        return _Plan(moves, jok, state)

    def declare(self) -> _Plan | None:
        """A plan that meets the requirement with every card in a meld but one, the card
        for the finish slot: a card left out, or else a joker left over; ``None`` when
        there is none. The first plan found, not the cheapest: all it must do is exist."""
        prepared = self._prepare()
        if prepared is None:
            return None
        by_first, kinds, table, terminal, reach, finish = prepared
        guard, n_wild, units, width = self.guard, self.n_wild, self.units, self.width
        state_bits, key_shift = self.state_bits, self.key_shift
        rem_shift = key_shift + 1  # a bit for ``spare`` between the cards and the jokers
        failed: set[int] = set()
        how: dict[int, _Option | None] = {}

        def fits(rem: int, jok: int, state: int, spare: int) -> bool:
            """Can ``rem`` be laid in melds but for ``spare`` (0 or 1) cards?"""
            if not rem:
                return terminal[state][jok - spare] if jok >= spare else False
            key = (rem << rem_shift) | (spare << key_shift) | (jok << state_bits) | state
            if key in failed:
                return False
            i = ((rem & -rem).bit_length() - 1) // width
            if reach[state][kinds[i]] & finish[jok]:
                room = rem | guard
                moves = table[state]
                for cost, neg, contrib, delta, need in by_first[i]:
                    if (
                        cost <= jok
                        and (room - delta) & guard == guard
                        and fits(rem - delta, jok - cost, moves[contrib], spare)
                    ):
                        how[key] = (cost, neg, contrib, delta, need)
                        return True
                # A wild card stays in the pool; another card is left out, if one may be.
                if (i < n_wild or spare) and fits(
                    rem - units[i], jok, state, spare if i < n_wild else 0
                ):
                    how[key] = None
                    return True
            failed.add(key)
            return False

        found = fits(self.full, self.joker_total, 0, 1)
        fits = _spent_test  # the closure refers to itself: break the cycle
        if not found:
            return None
        rem, jok, state, spare = self.full, self.joker_total, 0, 1
        moves: list[tuple[int, int]] = []
        while rem:
            option = how[(rem << rem_shift) | (spare << key_shift) | (jok << state_bits) | state]
            if option is None:
                i = ((rem & -rem).bit_length() - 1) // width
                moves.append((units[i], -1 if i < n_wild else 0))
                rem -= units[i]
                spare = spare if i < n_wild else 0
            else:
                cost, _, contrib, delta, need = option
                moves.append((delta, need + 1))
                rem, jok, state = rem - delta, jok - cost, table[state][contrib]
        return _Plan(moves, jok - spare, state)

    def groups(self, plan: _Plan | None) -> list[list[int]]:
        """The groups of cards a plan stands for: melds, then unmatched cards one by one,
        then the jokers left over (as runs of jokers where the requirement needs them)."""
        if plan is None:
            if not self.exempt:
                return [[c] for c in self.hand]
            rest = list(self.hand)
            for code in self.exempt:
                rest.remove(code)
            return [list(self.exempt), *([c] for c in rest)]
        pool = list(self.printed)
        melds: list[tuple[list[int], int]] = []
        loose: list[list[int]] = []
        items, units, width = self.items, self.units, self.width
        for delta, kind in plan.moves:
            cards = []
            while delta:
                i = ((delta & -delta).bit_length() - 1) // width
                copies = (delta >> (width * i)) & ((1 << (width - 1)) - 1)
                cards += [items[i]] * copies
                delta -= copies * units[i]
            if kind == -1:
                pool.extend(cards)
            elif kind == 0:
                loose.append(cards)
            else:
                melds.append((cards, kind - 1))
        out = []
        for cards, need in melds:
            out.append([*_display_order(tuple(cards)), *pool[:need]])
            del pool[:need]
        out.extend(loose)
        sizes = _joker_runs(self.rules, plan.state, plan.jokers) or []
        for size in sizes:
            out.append(pool[:size])
            del pool[:size]
        if pool:
            out.append(pool)
        return out


def _grouped_declaration(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset
) -> tuple[int, list[list[int]]] | None:
    """``declaration`` under ``declaration.groupings``, when the way the search found has
    group sizes not allowed: every finish card and every split of the rest into groups of
    the sizes allowed, each group checked by ``classify`` as it is made and the whole by
    ``check_declaration``; the first that is valid, or ``None``."""
    allowed = rules.groupings
    assert allowed is not None
    for finish in sorted(set(hand)):
        rest = sorted(hand)
        rest.remove(finish)
        for sizes in allowed:
            if sum(sizes) != len(rest):
                continue
            for split in _splits(tuple(rest), sizes, jokers, rules):
                if check_declaration(rest, split, jokers, rules).valid:
                    return finish, split
    return None


def _splits(
    cards: tuple[int, ...], sizes: tuple[int, ...], jokers: Jokers, rules: Ruleset
) -> Iterator[list[list[int]]]:
    """Every way (up to the order of equal cards) to lay ``cards`` (sorted) in valid groups
    of ``sizes``, the group of the first card first."""
    if not cards:
        if not sizes:
            yield []
        return
    first, others = cards[0], cards[1:]
    for size in sorted(set(sizes), reverse=True):
        left = list(sizes)
        left.remove(size)
        seen: set[tuple[int, ...]] = set()
        for chosen in combinations(range(len(others)), size - 1):
            group = (first, *(others[k] for k in chosen))
            if group in seen or not classify(group, jokers, rules).is_valid:
                continue
            seen.add(group)
            rest = tuple(c for k, c in enumerate(others) if k not in chosen)
            for below in _splits(rest, tuple(left), jokers, rules):
                yield [list(group), *below]


def _spent(rem: int, jok: int, state: int, ub: int) -> int:
    """What a search's closure is bound to once it is done, so that it no longer refers to
    itself: its memo is freed at once, with no work left for the cycle collector."""
    raise AssertionError("the search is over")


def _spent_test(rem: int, jok: int, state: int, spare: int) -> bool:
    """``_spent`` for ``_Search.declare``."""
    raise AssertionError("the search is over")


@lru_cache(maxsize=1 << 14)
def _display_order(cards: tuple[int, ...]) -> tuple[int, ...]:
    """Cards in the order people lay a meld down: by rank, the ace after a king."""
    ranks = {RANK_OF[c] for c in cards}
    high_ace = 13 in ranks and 2 not in ranks
    return tuple(
        sorted(cards, key=lambda c: (14 if high_ace and RANK_OF[c] == 1 else RANK_OF[c], c))
    )


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


@lru_cache(maxsize=1 << 16)
def _suit_runs(
    rules: Ruleset, ranks: int, budget: int
) -> tuple[tuple[tuple[int, ...], int, int, int], ...]:
    """The runs one suit's cards can make with at most ``budget`` jokers, for a suit whose
    cards that may stand in a run have the ranks in the bit mask ``ranks`` (bit r for rank
    r): (ranks of the core, their mask, jokers needed, contribution), the dominated
    contributions of a core left out.

    A card's place in the suit is its rank, the ace both 1 and 14 (where the rules let it
    stand there). Two cards with more than ``budget`` empty places between them are never
    in one run, so each stretch of closer cards is solved alone (``_place_runs``, cached
    too) unless runs wrap.
    """
    places: list[int] = []
    for rank in range(1, 14):
        if not ranks >> rank & 1:
            continue
        if rules.run_wraps:
            places += (rank, rank + 13)
        elif rank != 1:
            places.append(rank)
        else:
            if rules.ace_low:
                places.append(1)
            if rules.ace_high:
                places.append(14)
    places.sort()
    if rules.run_wraps:
        return _place_runs(rules, sum(1 << p for p in places), budget)
    out: list[tuple[tuple[int, ...], int, int, int]] = []
    stretch = 0
    for k, p in enumerate(places):
        stretch |= 1 << p
        if k + 1 == len(places) or places[k + 1] - p - 1 > budget:
            out += _place_runs(rules, stretch, budget)
            stretch = 0
    # An ace alone at 1 and at 14 is the same run: keep it once.
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=1 << 15)
def _place_runs(
    rules: Ruleset, stretch: int, budget: int
) -> tuple[tuple[tuple[int, ...], int, int, int], ...]:
    """``_suit_runs`` for the cards at the places in the bit mask ``stretch``.

    Every core is found once: a first card, then each later card taken or skipped (a
    joker in its place), as long as the gaps fit the budget and the span a run."""
    wraps = rules.run_wraps
    lowest = 1 if rules.ace_low else 2
    highest = 14 if rules.ace_high else 13
    span_max = 13 if wraps else highest - lowest + 1
    long = rules.long_run_length
    size = rules.min_meld_size
    places = [p for p in range(1, 27) if stretch >> p & 1]
    ranks = [(p - 1) % 13 + 1 for p in places]
    found: dict[tuple[int, int], int] = {}  # (core mask, need) -> contributions, a bit each
    members: dict[int, tuple[int, ...]] = {}  # core mask -> its ranks
    # Every core: a first card, then cards taken or skipped (a joker each) up to its last.
    for first, a in enumerate(places):
        grow: list[tuple[int, int, tuple[int, ...]]] = [(first, 1 << ranks[first], (ranks[first],))]
        while grow:
            last, core, kept = grow.pop()
            b = places[last]
            length = b - a + 1
            gaps = length - len(kept)
            room = span_max - length if wraps else (a - lowest) + (highest - b)
            pad = size - length if length < size else 0
            pads = (pad,) if long is None or length + pad >= long else (pad, long - length)
            for p in pads:
                need = gaps + p
                if p > room or need > budget:
                    continue
                if long is not None and length + p >= long:
                    contrib = _RUN_LONG if need else _PURE_LONG
                else:
                    contrib = _RUN if need else _PURE
                found[core, need] = found.get((core, need), 0) | 1 << contrib
                members[core] = kept
            for nxt in range(last + 1, len(places)):
                q = places[nxt]
                if q - a >= span_max or q - a - len(kept) > budget:
                    break
                grow.append((nxt, core | 1 << ranks[nxt], (*kept, ranks[nxt])))
    return tuple(
        (members[core], core, need, contrib)
        for (core, need), contribs in found.items()
        for contrib in _UNDOMINATED[contribs]
    )


@lru_cache(maxsize=256)
def _terminal_table(rules: Ruleset, most: int) -> tuple[tuple[bool, ...], ...]:
    """``terminal[state][jokers]``: can the jokers left (at most ``most``) finish the
    requirement? Only when ``melds.jokers_only_group = "run"``: 3+ jokers alone are a
    sequence."""
    goal = _requirement_tables(rules)[1]
    out = []
    for state, done in enumerate(goal):
        row = [done] * (most + 1)
        if rules.jokers_only_group == "run" and not done:
            for jok in range(most + 1):
                row[jok] = _joker_runs(rules, state, jok) is not None
        out.append(tuple(row))
    return tuple(out)


def _joker_runs(rules: Ruleset, state: int, jok: int) -> list[int] | None:
    """Sizes of the runs of jokers alone that finish the requirement, or ``None``.

    A run of jokers is never pure; the long one (if needed) is made first, since a
    joker count that cannot pay for it now cannot later either.
    """
    table, goal, _, _ = _requirement_tables(rules)
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


@lru_cache(maxsize=1 << 10)
def _item_order(rules: Ruleset, wild: frozenset[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A sort key for each code: wild cards first (by code), then the rest by points,
    highest first (then by code), the printed joker last; and each code's points."""
    table = rules.points_table(wild)
    key = tuple(
        c - 1000 if c in wild else 1 << 20 if c == JOKER else -table[c] * 64 + c for c in range(53)
    )
    return key, table


@lru_cache(maxsize=1 << 10)
def _run_single_needs(rules: Ruleset, rank: int, budget: int) -> frozenset[int]:
    """The jokers a run of one card of ``rank`` and jokers alone may need."""
    return frozenset(need for _, _, need, _ in _suit_runs(rules, 1 << rank, budget))


@lru_cache(maxsize=1 << 10)
def _natural_sets(
    rules: Ruleset, budget: int, run_budget: int
) -> tuple[tuple[tuple[tuple[tuple[int, ...], int, int], ...], ...], ...]:
    """``[rank][m]``: ``_set_options`` of ``m`` cards of ``rank``, none of them wild."""
    return tuple(
        tuple(_set_options(rules, rank, (False,) * m, budget, run_budget) for m in range(5))
        for rank in range(14)
    )


@lru_cache(maxsize=1 << 10)
def _set_options(
    rules: Ruleset, rank: int, wild: tuple[bool, ...], budget: int, run_budget: int
) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """The sets of one rank's cards (``wild`` says which are wild) with at most ``budget``
    jokers: (positions of the cards taken, jokers needed, cost to the joker pool: the
    jokers and the wild cards taken), less those of one card a run of it beats."""
    beaten = _run_single_needs(rules, rank, run_budget)
    return tuple(
        (chosen, need, need + sum(wild[k] for k in chosen))
        for chosen, need in _set_cores(rules, wild, budget)
        if len(chosen) > 1 or need not in beaten
    )


@lru_cache(maxsize=1 << 10)
def _set_cores(
    rules: Ruleset, wild: tuple[bool, ...], budget: int
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The sets of one rank's cards (``wild`` says which are wild) with at most ``budget``
    jokers: (positions of the cards taken, jokers needed)."""
    out = []
    for size in range(1, len(wild) + 1):
        need = max(0, rules.min_meld_size - size)
        if need > budget or size + need > rules.max_set_size:
            continue
        for chosen in combinations(range(len(wild)), size):
            if all(wild[k] for k in chosen):
                continue  # covers no points: the joker pool does at least as well
            out.append((chosen, need))
    return tuple(out)
