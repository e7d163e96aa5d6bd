"""Declarations the solver's search does not find by itself (``solver.declaration``): the
other ways to declare of 21 and 27 cards (``declaration.alternatives``: three tunnelas,
eight dublees, eight jokers, whatever the other cards), and a declaration in the group
sizes ``declaration.groupings`` allows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from audit.cards import JOKER
from audit.rules.counts import tally
from audit.rules.declaration import check_declaration
from audit.rules.melds import Jokers, classify
from audit.rules.ruleset import Ruleset


def _alternative_declaration(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset
) -> tuple[int, list[list[int]]] | None:
    """``declaration`` by another way to declare (``declaration.alternatives``: three
    tunnelas, eight dublees, eight jokers): the first finish card whose rest meets one,
    and groups that show it (the tunnelas, the dublees or the jokers, one group each, then
    the other cards in one group); ``None`` when no finish card leaves one."""
    copies = Counter(hand)
    # Cards held once first, jokers last: the finish card that spoils the least.
    order = sorted(copies, key=lambda c: (jokers.is_joker(c), copies[c] != 1, c))
    for finish in order:
        rest = list(hand)
        rest.remove(finish)
        counted = tally(rest, jokers, rules)
        for alt in rules.alternatives:
            if counted.of(alt.kind) >= alt.count:
                return finish, _alternative_groups(rest, alt.kind, jokers, rules)
    return None


def _alternative_groups(
    cards: list[int], kind: str, jokers: Jokers, rules: Ruleset
) -> list[list[int]]:
    """The groups of an alternative declaration of ``kind``: what it counts, one group
    each (a group of all the jokers for "jokers"), then every other card in one group."""
    left = Counter(cards)
    groups: list[list[int]] = []
    if kind == "jokers":
        groups.append(sorted(c for c in cards if jokers.is_joker(c)))
        left = Counter(c for c in cards if not jokers.is_joker(c))
    else:
        size = 3 if kind == "tunnelas" else 2
        for code in sorted(left):
            if kind == "tunnelas" and code == JOKER and not rules.printed_joker_tunnela:
                continue
            while left[code] >= size:
                groups.append([code] * size)
                left[code] -= size
    rest = sorted(left.elements())
    return [*groups, rest] if rest else groups


def _grouped_declaration(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset
) -> tuple[int, list[list[int]]] | None:
    """``declaration`` under ``declaration.groupings``, when the way the search found has
    group sizes not allowed: every finish card and every split of the rest into groups of
    the sizes allowed, each group checked by ``classify`` as it is made and the whole by
    ``check_declaration``; the first that is valid, or ``None``."""
    for finish in sorted(set(hand)):
        rest = list(hand)
        rest.remove(finish)
        split = grouped_arrangement(rest, jokers, rules)
        if split is not None:
            return finish, split
    return None


def grouped_arrangement(
    cards: Sequence[int], jokers: Jokers, rules: Ruleset
) -> list[list[int]] | None:
    """``cards``, a hand with its finish card put down, laid in groups of the sizes
    ``declaration.groupings`` allows that ``check_declaration`` finds valid: the first
    such split, or ``None``. (A hand whose best arrangement costs 0 points may have none:
    its melds may be of sizes the rules do not allow, with no way to cut them to size.)"""
    allowed = rules.groupings
    assert allowed is not None
    rest = sorted(cards)
    for sizes in allowed:
        if sum(sizes) != len(rest):
            continue
        for split in _splits(tuple(rest), sizes, jokers, rules):
            if check_declaration(rest, split, jokers, rules).valid:
                return split
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
