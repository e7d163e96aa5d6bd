"""The solver's cached tables: what depends only on the rules and a pattern of cards, not
on one hand, worked out once and kept (``solver.py`` reads them).

- the requirement states (sequences, pure sequences, a long one, counted as far as the
  rules ask), their transitions and which states the melds left can still reach
  (``_requirement_tables``, ``_reachable``, ``_finishing``, ``_terminal_table``,
  ``_joker_runs``);
- the packed multiset's layout (``_packing``) and the order the search takes cards in
  (``_item_order``);
- the runs one suit's ranks can make (``_suit_runs``, ``_place_runs``) and the sets of one
  rank's cards (``_set_cores``, ``_set_options``, ``_natural_sets``).

Every table is keyed on the ``Ruleset`` (hashed by identity) and small numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache, lru_cache
from itertools import combinations
from typing import Final

from audit.cards import JOKER, RANK_OF, SUIT_OF
from audit.rules.ruleset import Ruleset

# What a meld adds to the requirement: (is a run, is pure, is long enough).
_SET: Final = 0
_RUN: Final = 1
_RUN_LONG: Final = 2
_PURE: Final = 3
_PURE_LONG: Final = 4
_CONTRIB: Final = {
    _SET: (False, False, False),
    _RUN: (True, False, False),
    _RUN_LONG: (True, False, True),
    _PURE: (True, True, False),
    _PURE_LONG: (True, True, True),
}


# Final: a compiled module reads its own C statics; a name imported from a module
# that is not compiled is a dict lookup at every use.
_RANK_OF: Final = RANK_OF
_SUIT_OF: Final = SUIT_OF


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


_UNDOMINATED: Final = tuple(_undominated(mask) for mask in range(32))


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


def _tunnela_contrib(rules: Ruleset) -> int:
    """What a tunnela adds to the requirement: a set, or under ``melds.tunnela_kind =
    "pure_run"`` a pure run (a long one where three cards are long enough)."""
    if rules.tunnela_kind != "pure_run":
        return _SET
    long = rules.long_run_length
    return _PURE_LONG if long is not None and long <= 3 else _PURE


@lru_cache(maxsize=256)
def _exempt_rules(rules: Ruleset) -> Ruleset:
    """``rules`` asking nothing of a declaration and charging the cards left: the search
    for ``U`` under ``points.unmet_requirement = "pure_runs_exempt"`` (every card but those
    of the pure runs laid). Cached: a ``Ruleset`` hashes by identity, and the tables are
    cached by ruleset."""
    return replace(
        rules,
        min_runs=0,
        min_pure_runs=0,
        long_run_length=None,
        unmet_requirement="all_cards",
        ready_hand=None,
    )


@lru_cache(maxsize=256)
def _pure_short(rules: Ruleset) -> tuple[int, ...]:
    """``short[state]``: how many more pure runs the requirement state needs."""
    pure_cap, runs = rules.min_pure_runs, rules.min_runs + 1
    return tuple(pure_cap - p for _ in (0, 1) for p in range(pure_cap + 1) for _ in range(runs))


@lru_cache(maxsize=1 << 12)
def _run_cover(rules: Ruleset, ranks: int) -> int:
    """The ranks of ``ranks`` (a bit mask, bit r for rank r, of one suit's cards) that lie in
    three ranks in a row, as a pure run can hold them (the ace at either end where the rules
    let it, runs wrapping where they do): 0 when no three follow each other.

    >>> from audit.rules.ruleset import load_preset
    >>> standard = load_preset("standard-13")
    >>> bin(_run_cover(standard, 0b11000001110))  # A 2 3 and 9 T: the A 2 3
    '0b1110'
    >>> bin(_run_cover(standard, 0b11000000000010))  # Q K A, the ace high
    '0b11000000000010'
    """
    places = ranks
    if places & 2 and rules.ace_high:
        places |= 1 << 14
    if not rules.ace_low:
        places &= ~2
    if rules.run_wraps:
        places |= places << 13
    starts = places & (places >> 1) & (places >> 2)
    cover = starts | starts << 1 | starts << 2
    if rules.run_wraps:
        cover |= cover >> 13
    if cover >> 14 & 1:
        cover |= 2
    return cover & ranks


@lru_cache(maxsize=1 << 14)
def _display_order(cards: tuple[int, ...]) -> tuple[int, ...]:
    """Cards in the order people lay a meld down: by rank, the ace after a king."""
    ranks = {_RANK_OF[c] for c in cards}
    high_ace = 13 in ranks and 2 not in ranks
    return tuple(
        sorted(cards, key=lambda c: (14 if high_ace and _RANK_OF[c] == 1 else _RANK_OF[c], c))
    )


def _best_pure_run(
    rules: Ruleset,
    hand: Sequence[int],
    items: Sequence[int],
    n_wild: int,
    points: Sequence[int],
) -> list[int]:
    """The cards of the pure run of this hand worth the most points (``[]`` if none):
    what ``points.unmet_requirement = "pure_run_exempt"`` spares a loser who has no
    declaration. Each window of consecutive places of one suit is tried. ``items`` are the
    hand's distinct codes, its ``n_wild`` wild ones first; ``points`` each code's points."""
    wraps = rules.run_wraps
    lowest = 1 if rules.ace_low else 2
    highest = 14 if rules.ace_high else 13
    span_max = 13 if wraps else highest - lowest + 1
    skip = 0 if rules.wild_natural_keeps_pure else n_wild
    copies = {code: hand.count(code) for code in items[skip:]}
    best: list[int] = []
    best_value = -1
    for suit in range(4):
        at: dict[int, int] = {}  # place -> code
        for code in copies:
            if _SUIT_OF[code] != suit:
                continue
            rank = _RANK_OF[code]
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
