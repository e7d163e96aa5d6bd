"""The exact optimal arrangement: the fewest points any arrangement of a hand is charged.

The answer is ``min(cap, U, D)``: ``U`` is what an arrangement without the requirement is
charged (every card's points, the full count under ``full_count``, under
``pure_run_exempt`` every card's points less those of the hand's pure run worth most,
``tables._best_pure_run``, or under ``pure_runs_exempt`` the least points of the cards outside
the pure runs laid), ``D`` the least
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
  card or later ones) cannot meet the requirement is cut at once; where two pure runs or
  more are asked (21 and 27 cards), so is a move after which the cards left cannot make
  the pure runs still needed (``_suit_pure_most``: a pure meld takes three cards of a suit
  that lie in three ranks in a row, or are held three times). A card left alone wins a
  tie with the melds (the arrangement is then the same whatever the search's order);
  ``best_points``, which reads no arrangement, does not look for ties.
- The melds a suit's cards can make as runs depend only on the suit's ranks and the jokers
  that may be spent, so they are computed once per pattern and cached (``_suit_runs``);
  so are the sets of a rank (``_set_cores``). A hand only maps them onto its cards.

``declaration`` asks the same search a narrower question, for a player's cards after the
draw: can every card but one (the finish) lie in melds that meet the requirement? It
stops at the first way it finds, and remembers only the states that have none. Under
``declaration.groupings`` a way whose group sizes are not allowed is searched again among
the splits of the sizes allowed (``_grouped_declaration``); a loser's points do not
depend on group sizes.

The 21- and 27-card rules: a tunnela (three identical cards) is a meld of its own, a pure
run under ``melds.tunnela_kind = "pure_run"``, three wild cards too (they leave the pool);
three printed jokers are one (``melds.printed_joker_tunnela``): they are no item, so the
search starts again with three of them out of the pool and one pure run booked, and the
better start wins (``_starts``). Under ``points.unmet_requirement = "pure_runs_exempt"``
``U`` is itself a search, of the same kind, laying pure runs only under a ruleset that asks
nothing (``_exempt_rules``). Under ``points.ready_hand`` a hand whose counts say it is ready,
or whose least points are 0, is charged the ready hand's points (``run``). The other ways
to declare and the group sizes of ``declaration.groupings`` are ``ways.py``'s; the tables
cached by ruleset and pattern are ``tables.py``'s.

``classify`` (melds.py) is the reference; the tests check this against a brute force on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from audit.cards import JOKER, RANK_OF, SUIT_OF
from audit.rules.counts import ready_reason
from audit.rules.declaration import grouping_reason
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset
from audit.rules.tables import (
    _PURE,
    _SET,
    _best_pure_run,
    _display_order,
    _exempt_rules,
    _finishing,
    _item_order,
    _joker_runs,
    _natural_sets,
    _packing,
    _pure_short,
    _reachable,
    _requirement_tables,
    _run_cover,
    _set_options,
    _suit_runs,
    _terminal_table,
    _tunnela_contrib,
)
from audit.rules.ways import _alternative_declaration, _grouped_declaration

_INF: Final = 1 << 30


# Final: a compiled module reads its own C statics; a name imported from a module
# that is not compiled is a dict lookup at every use.
_RANK_OF: Final = RANK_OF
_SUIT_OF: Final = SUIT_OF


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
    tunnelas: int = 0
    """Tunnelas of three printed jokers laid before the search (``melds.printed_joker_tunnela``)."""


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
    hand: Sequence[int], jokers: Jokers, rules: Ruleset, *, budget: int | None = None
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

    ``budget`` bounds the search, for a player rather than an audit: after that many
    states found to lead nowhere it gives up and answers ``None``, as a person who does
    not see a way to declare (the simulator's 27-card hands with many jokers).
    """
    if rules.alternatives:
        other = _alternative_declaration(hand, jokers, rules)
        if other is not None:
            return other
    search = _Search(hand, jokers, rules, None)
    plan = search.declare(budget)
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


class _GaveUp(Exception):
    """A bounded declaration search ran out of its budget (``declaration(budget=...)``)."""


class _Search:
    """One hand's search. ``run()`` returns (points, plan); ``groups(plan)`` the groups."""

    def __init__(
        self,
        hand: Sequence[int],
        jokers: Jokers,
        rules: Ruleset,
        cap: int | None,
        *,
        pure_only: bool = False,
    ) -> None:
        self.hand = hand = list(hand)
        self.rules = rules
        self.jokers = jokers
        self.pure_only = pure_only
        """Lay pure runs (and pure tunnelas) only: the search for ``U`` under
        ``pure_runs_exempt``, with a ruleset that asks nothing (``_exempt_rules``)."""
        self.exempt_search: tuple[_Search, _Plan | None] | None = None
        """Under ``pure_runs_exempt``, that search and its plan: the groups of ``U``."""
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
        self._pure_cache: dict[int, int] = {}
        """``_suit_pure_most`` by the cards of one suit, packed as the multiset is."""

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
            suit, rank = _SUIT_OF[code], _RANK_OF[code]
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
        if self.pure_only:
            run_budget = 0
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
            if not self.pure_only:  # a set is never pure
                by_rank.setdefault(_RANK_OF[code], []).append(item_units[i])
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
            # Three identical cards; under ``tunnela_kind = "pure_run"`` a pure run, and
            # three wild cards too (they leave the pool: cost 3). As a set, three wild cards
            # would cover no points and add nothing to the requirement: left out.
            count = (1 << (width - 1)) - 1
            as_run = rules.tunnela_kind == "pure_run"
            contrib = _tunnela_contrib(rules)
            for i in range(0 if as_run else n_wild, len(items)):
                if (self.full >> (width * i)) & count >= 3:
                    three = 3 * item_units[i]
                    by_first[i].append((3 if i < n_wild else 0, -three, contrib, three, 0))
                    kinds[i] |= 1 << contrib
        if self.pure_only:
            for i, options in enumerate(by_first):
                by_first[i] = [o for o in options if o[2] >= _PURE]
                kinds[i] = sum({1 << o[2] for o in by_first[i]})
        for options in by_first:
            if len(options) > 1:
                options.sort()
        for i in range(len(items) - 1, -1, -1):
            kinds[i] |= kinds[i + 1]
        return by_first, kinds

    # ------------------------------------------------------------ search

    def _pure_run_possible(self, masks: list[int]) -> bool:
        """Do three cards of a suit (``masks`` from ``_suits``) follow each other?"""
        return any(_run_cover(self.rules, ranks) for ranks in masks)

    def _pure_melds_most(self, masks: list[int]) -> int:
        """At most how many pure runs (tunnelas under ``tunnela_kind = "pure_run"`` too)
        the hand can lay at once: each takes three cards or more of one suit, each card of
        a rank that three cards in a row of its suit cover (``masks`` from ``_suits``) or
        held three times (a tunnela), or three printed jokers."""
        rules, width = self.rules, self.width
        count = (1 << (width - 1)) - 1
        tunnelas = rules.tunnela and rules.tunnela_kind == "pure_run"
        covered = [_run_cover(rules, ranks) for ranks in masks]
        usable = [0, 0, 0, 0]
        skip = 0 if rules.wild_natural_keeps_pure else self.n_wild
        for i, code in enumerate(self.items):
            held = (self.full >> (width * i)) & count
            suit = _SUIT_OF[code]
            if (i >= skip and covered[suit] >> _RANK_OF[code] & 1) or (tunnelas and held >= 3):
                usable[suit] += held
        most = sum(n // 3 for n in usable)
        if tunnelas and rules.printed_joker_tunnela:
            most += len(self.printed) // 3
        return most

    def _tunnela_possible(self) -> bool:
        """Is there a tunnela that counts as a pure run (``melds.tunnela_kind``)?"""
        rules = self.rules
        if not rules.tunnela or rules.tunnela_kind != "pure_run":
            return False
        if rules.printed_joker_tunnela and len(self.printed) >= 3:
            return True
        count = (1 << (self.width - 1)) - 1
        return any((self.full >> (self.width * i)) & count >= 3 for i in range(len(self.items)))

    def _starts(self, table: tuple[tuple[int, ...], ...]) -> list[tuple[int, int, int]]:
        """Where the search starts: (jokers in the pool, requirement state, tunnelas of
        printed jokers laid), with 0, 1, ... tunnelas of three printed jokers taken out of
        the pool first (``melds.printed_joker_tunnela``, a pure run under
        ``melds.tunnela_kind = "pure_run"``: as a set they would add nothing)."""
        rules = self.rules
        starts = [(self.joker_total, 0, 0)]
        if (
            rules.tunnela
            and rules.printed_joker_tunnela
            and rules.tunnela_kind == "pure_run"
            and not self.pure_only
        ):
            contrib = _tunnela_contrib(rules)
            jok, state = self.joker_total, 0
            for t in range(1, len(self.printed) // 3 + 1):
                jok, state = jok - 3, table[state][contrib]
                starts.append((jok, state, t))
        return starts

    def _prepare(self) -> _Prepared | None:
        """What a search reads, or ``None`` when no arrangement can meet the requirement
        (it needs a pure run and no three cards of a suit follow each other)."""
        suits = self._suits()
        need = self.rules.min_pure_runs
        if need and not self._pure_run_possible(suits[0]) and not self._tunnela_possible():
            return None
        if need > 1 and self._pure_melds_most(suits[0]) < need:
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
        (or when ``plan`` is false).

        Under ``points.ready_hand`` a hand that is ready is charged the ready hand's
        points: its cards hold the dublees or jokers the rule names, or some arrangement
        of it is charged nothing (every card that counts in melds meeting the requirement;
        the plan found is that arrangement). A card is worth 2 points at least, so no
        other arrangement is charged less than the ready hand's 2."""
        ready = self.rules.ready_hand
        if ready is None:
            return self._run(plan)
        counted = ready_reason(self.hand, self.jokers, self.rules, False) is not None
        if counted and not plan:
            return min(ready.points, self.limit), None
        points, found = self._run(plan)
        if counted or points == 0:
            return min(ready.points, self.limit), found
        return points, found

    def _run(self, plan: bool) -> tuple[int, _Plan | None]:
        """``run`` without the ready hand: ``min(cap, U, D)``."""
        mode = self.rules.unmet_requirement
        if mode == "all_cards":
            unmet = self.total
        elif mode == "full_count":
            unmet = self.rules.cap
        elif mode == "pure_runs_exempt":
            sub = _Search(
                self.hand, self.jokers, _exempt_rules(self.rules), self.limit, pure_only=True
            )
            unmet, sub_plan = sub._run(plan)
            self.exempt_search = (sub, sub_plan)
        else:
            self.exempt = _best_pure_run(
                self.rules, self.hand, self.items, self.n_wild, self.points_of
            )
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
        short, suit_masks = self._pure_bound()
        tie = 1 if plan else 0

        def solve(rem: int, jok: int, state: int, ub: int, lo: int) -> int:
            """The least deadwood of ``rem`` if it is under ``ub``; else a lower bound of
            it that is at least ``ub``. A deadwood of ``lo`` or less is as good as the
            least: the search stops at the first it finds, and answers it (not kept in the
            memo, as it may not be the least)."""
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
            for option in by_first[i]:
                cost, _, contrib, delta, _ = option
                if cost <= jok and (fits - delta) & guard == guard:
                    after, left = moves[contrib], rem - delta
                    if short[after] and self._pure_most(left, suit_masks) < short[after]:
                        # The cards left cannot make the pure runs the state needs: the
                        # move leads nowhere, not even a call to find out.
                        continue
                    value = solve(left, jok - cost, after, best, lo)
                    if value < best:
                        best, chosen = value, option
                        if best <= lo:
                            break
                    elif value < soft:
                        soft = value
            # Left alone (a wild card: in the pool), the card wins a tie with the melds, so
            # the search asks with a bound one higher, to see the tie; without a plan to
            # read off, a tie changes nothing and is not looked for.
            own = points[i]
            left = rem - units[i]
            if (
                own < best + tie
                and short[state]
                and self._pure_most(left, suit_masks) < short[state]
            ):
                own = _INF  # then no arrangement from here meets the requirement
            if own < best + tie and best > lo:
                value = solve(left, jok, state, best - own + tie, max(lo - own, 0)) + own
                if value < best or value == best < ub:
                    best, chosen = value, None
                elif value < soft:
                    soft = value
            elif own < soft:
                soft = own
            if best < ub:
                if best and best <= lo:
                    return best
                memo[key] = best
                how[key] = chosen
                return best
            memo[key] = ~soft
            return soft

        # Without a plan, under ``points.ready_hand`` a deadwood of the ready hand's points
        # is charged as 0 is (``run``), when no card that counts is worth less.
        ready = self.rules.ready_hand
        floor = 0
        if (
            not plan
            and ready is not None
            and ready.points <= self.limit
            and min(self.item_points[self.n_wild :], default=ready.points) >= ready.points
        ):
            floor = ready.points
        deadwood, start = bound, (self.joker_total, 0, 0)
        for jok, state, t in self._starts(table):
            value = solve(self.full, jok, state, deadwood, floor)
            if value < deadwood:
                deadwood, start = value, (jok, state, t)
                if deadwood <= floor:
                    break
        solve = _spent  # the closure refers to itself: break the cycle (see ``_spent``)
        if deadwood >= bound:
            return bound, None
        if not plan:
            return deadwood, None
        return deadwood, self._plan(how, table, start)

    def _pure_bound(self) -> tuple[tuple[int, ...], list[int]]:
        """What the search's cut on pure runs reads: for each requirement state, how many
        pure runs it still needs (all 0 when the cut is off); and for each suit, the mask
        of its cards' fields in the packed multiset (``_pure_most``).

        The cut is on where two or more pure runs are asked and a meld has three cards or
        more (a pure run then holds three cards of a suit in a row): there the reachability
        table alone, which lets a kind of meld be laid any number of times, is weak."""
        rules = self.rules
        if rules.min_pure_runs < 2 or rules.min_meld_size < 3:
            states = len(_requirement_tables(rules)[0])
            return (0,) * states, []
        field = (1 << self.width) - 1
        masks = [0, 0, 0, 0]
        for i, code in enumerate(self.items):
            masks[_SUIT_OF[code]] |= field << (self.width * i)
        return _pure_short(rules), [m for m in masks if m]

    def _pure_most(self, rem: int, suit_masks: list[int]) -> int:
        """At most how many pure melds, none sharing a card, the cards ``rem`` make: the
        sum over their suits (``suit_masks`` from ``_pure_bound``) of ``_suit_pure_most``,
        each suit's answer cached by its cards."""
        most = 0
        cache = self._pure_cache
        for mask in suit_masks:
            part = rem & mask
            if part:
                known = cache.get(part)
                most += self._suit_pure_most(part) if known is None else known
        return most

    def _suit_pure_most(self, part: int) -> int:
        """At most how many pure melds, none sharing a card, the cards ``part`` of one suit
        make (pure runs, and tunnelas under ``melds.tunnela_kind = "pure_run"``): each
        takes three of the cards that lie in three ranks in a row of the suit, or that are
        held three times. Kept in the search's cache (``_pure_most`` reads it)."""
        rules, width, items = self.rules, self.width, self.items
        field = (1 << width) - 1
        skip = 0 if rules.wild_natural_keeps_pure else self.n_wild
        tunnelas = rules.tunnela and rules.tunnela_kind == "pure_run"
        held = [0] * 14
        places = 0
        rest = part
        while rest:
            i = ((rest & -rest).bit_length() - 1) // width
            rank = _RANK_OF[items[i]]
            held[rank] = copies = (rest >> (width * i)) & field
            if i >= skip:
                places |= 1 << rank
            rest -= copies << (width * i)
        cover = _run_cover(rules, places)
        usable = 0
        for rank in range(1, 14):
            if cover >> rank & 1 or (tunnelas and held[rank] >= 3):
                usable += held[rank]
        most = usable // 3
        self._pure_cache[part] = most
        return most

    def _plan(
        self,
        how: dict[int, _Option | None],
        table: tuple[tuple[int, ...], ...],
        start: tuple[int, int, int],
    ) -> _Plan:
        """Follow the moves the search chose, from the whole hand to the end."""
        rem = self.full
        jok, state, tunnelas = start
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
        return _Plan(moves, jok, state, tunnelas)

    def declare(self, budget: int | None = None) -> _Plan | None:
        """A plan that meets the requirement with every card in a meld but one, the card
        for the finish slot: a card left out, or else a joker left over; ``None`` when
        there is none (or none was found within ``budget`` dead ends). The first plan
        found, not the cheapest: all it must do is exist."""
        prepared = self._prepare()
        if prepared is None:
            return None
        by_first, kinds, table, terminal, reach, finish = prepared
        guard, n_wild, units, width = self.guard, self.n_wild, self.units, self.width
        state_bits, key_shift = self.state_bits, self.key_shift
        rem_shift = key_shift + 1  # a bit for ``spare`` between the cards and the jokers
        failed: set[int] = set()
        how: dict[int, _Option | None] = {}
        limit = -1 if budget is None else budget

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
            if len(failed) == limit:
                raise _GaveUp
            return False

        found = None
        try:
            for start in self._starts(table):
                if fits(self.full, start[0], start[1], 1):
                    found = start
                    break
        except _GaveUp:
            found = None
        fits = _spent_test  # the closure refers to itself: break the cycle
        if found is None:
            return None
        rem, spare = self.full, 1
        jok, state, tunnelas = found
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
        return _Plan(moves, jok - spare, state, tunnelas)

    def groups(self, plan: _Plan | None) -> list[list[int]]:
        """The groups of cards a plan stands for: melds, then unmatched cards one by one,
        then the jokers left over (as runs of jokers where the requirement needs them)."""
        if plan is None:
            if self.exempt_search is not None:
                sub, sub_plan = self.exempt_search
                return sub.groups(sub_plan)
            if not self.exempt:
                return [[c] for c in self.hand]
            rest = list(self.hand)
            for code in self.exempt:
                rest.remove(code)
            return [list(self.exempt), *([c] for c in rest)]
        pool = list(self.printed[3 * plan.tunnelas :])
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
        out.extend([JOKER] * 3 for _ in range(plan.tunnelas))
        sizes = _joker_runs(self.rules, plan.state, plan.jokers) or []
        for size in sizes:
            out.append(pool[:size])
            del pool[:size]
        if pool:
            out.append(pool)
        return out


def _spent(rem: int, jok: int, state: int, ub: int, lo: int) -> int:
    """What a search's closure is bound to once it is done, so that it no longer refers to
    itself: its memo is freed at once, with no work left for the cycle collector."""
    raise AssertionError("the search is over")


def _spent_test(rem: int, jok: int, state: int, spare: int) -> bool:
    """``_spent`` for ``_Search.declare``."""
    raise AssertionError("the search is over")
