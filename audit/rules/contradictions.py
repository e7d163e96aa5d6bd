"""Rules that contradict each other, and declaration rules no hand could meet: each one
named, and a ruleset holding any is refused (docs/rulesets.md, "The file"). ``Ruleset``
asks when it is built, so a preset, a platform's file and a ``dataclasses.replace`` are
checked alike."""

from __future__ import annotations

from typing import Protocol

from audit.cards import count_words, shoe_words
from audit.records import POOL_FORMATS


class _Shoe(Protocol):
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def decks(self) -> int: ...
    @property
    def printed_jokers(self) -> int: ...


class Rules(Protocol):
    """What these checks read of a ``Ruleset`` (ruleset.py asks them as it builds one: a
    protocol, so that this module needs nothing of that one)."""

    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def cards_per_hand(self) -> int: ...
    @property
    def shoes(self) -> tuple[_Shoe, ...]: ...
    @property
    def min_meld_size(self) -> int: ...
    @property
    def ace_low(self) -> bool: ...
    @property
    def ace_high(self) -> bool: ...
    @property
    def run_wraps(self) -> bool: ...
    @property
    def max_set_size(self) -> int: ...
    @property
    def jokers_only_group(self) -> str: ...
    @property
    def tunnela(self) -> bool: ...
    @property
    def tunnela_kind(self) -> str: ...
    @property
    def min_runs(self) -> int: ...
    @property
    def min_pure_runs(self) -> int: ...
    @property
    def long_run_length(self) -> int | None: ...
    @property
    def groupings(self) -> tuple[tuple[int, ...], ...] | None: ...
    @property
    def rebuy_formats(self) -> tuple[str, ...]: ...
    @property
    def split_formats(self) -> tuple[str, ...]: ...


def contradictions(rules: Rules) -> list[str]:
    """Every problem of ``rules``, each ``key: why``; empty when there is none."""
    problems = []
    if rules.min_players > rules.max_players:
        problems.append("deal.players: the minimum is above the maximum")
    if not rules.ace_low and not rules.ace_high:
        problems.append("melds.ace_low/ace_high: an ace must fit somewhere in a sequence")
    if rules.max_set_size < rules.min_meld_size:
        problems.append("melds.max_set_size: smaller than melds.min_size")
    if rules.min_pure_runs > rules.min_runs:
        problems.append("declaration.min_pure_runs: more than declaration.min_runs")
    for sizes in rules.groupings or ():
        if sum(sizes) != rules.cards_per_hand:
            problems.append(
                f"declaration.groupings: {'+'.join(map(str, sizes))} is not "
                f"{rules.cards_per_hand} cards (deal.cards_per_hand)"
            )
    problems += _unmeetable(rules)
    problems += _unpayable(rules)
    covered: set[int] = set()
    twice: set[int] = set()
    for shoe in rules.shoes:
        tables = set(range(shoe.min_players, shoe.max_players + 1))
        twice |= covered & tables
        covered |= tables
        need = shoe.max_players * rules.cards_per_hand + 2  # the hands, the wild, the open
        if 52 * shoe.decks + shoe.printed_jokers < need:
            problems.append(
                f"deal.shoes: {shoe_words(shoe.decks, shoe.printed_jokers)} cannot deal "
                f"{shoe.max_players} players {rules.cards_per_hand} cards each "
                f"and turn up the wild and open cards ({need} cards)"
            )
    missing = sorted(set(range(rules.min_players, rules.max_players + 1)) - covered)
    if missing:
        problems.append(f"deal.shoes: no shoe for {missing} players")
    if twice:  # shoe_for would take the first row, and say nothing of the other
        problems.append(f"deal.shoes: more than one shoe for {sorted(twice)} players")
    return problems


def _unpayable(rules: Rules) -> list[str]:
    """Rebuys or splits given to a format whose money has none: the ledger of a points,
    deals or match game has no ``rebuy`` or ``split`` rows and a deals game's prize is its
    players' entry fees alone (schemas/money.md), so no honest ledger could pay one. The
    audit does not make them up: only ``pool_101`` and ``pool_201`` may be named (a
    ruleset that gave deals a rebuy was accepted, and then every ledger that paid it was
    wrong: a blind tester)."""
    problems = []
    for key, formats, what in (
        ("games.rebuy_formats", rules.rebuy_formats, "rebuy"),
        ("games.split_formats", rules.split_formats, "split"),
    ):
        others = [f for f in formats if f not in POOL_FORMATS]
        if others:
            problems.append(
                f"{key}: names {' and '.join(others)}, but a {' or '.join(others)} game has "
                f"no {what}s: its ledger has no {what} rows (schemas/money.md), so no "
                f"honest ledger could pay one; only {' and '.join(POOL_FORMATS)} have {what}s"
            )
    return problems


def _unmeetable(rules: Rules) -> list[str]:
    """The declaration rules no hand could meet: a long sequence longer than a hand or
    than a suit's ranks allow; a grouping with a group smaller than any meld (unless
    jokers alone may be put aside, ``melds.jokers_only_group = "leftover"``, a group of
    any size), with fewer groups that can be a sequence than ``declaration.min_runs``,
    or with none as long as ``declaration.long_run_length``; without groupings, the
    sequences required holding more cards than a hand."""
    problems = []
    long = rules.long_run_length
    # The longest sequence (melds.py, _run_gaps): 13 ranks round the corner, else the
    # ranks from the low ace (or 2) to the high ace (or K).
    if rules.run_wraps:
        longest = 13
    else:
        longest = (14 if rules.ace_high else 13) - (1 if rules.ace_low else 2) + 1
    if long is not None and long > rules.cards_per_hand:
        problems.append(f"declaration.long_run_length: {long} cards, more than the "
                        f"{rules.cards_per_hand} a hand holds "
                        "(deal.cards_per_hand)")  # fmt: skip
    if long is not None and long > longest:
        problems.append(f"declaration.long_run_length: {long} cards, longer than a "
                        f"sequence can be ({longest} cards under melds.ace_low, "
                        "melds.ace_high and melds.run_wraps)")  # fmt: skip
    if long is not None and long > min(longest, rules.cards_per_hand):
        long = None  # said: not said again of each grouping
    pure_tunnela = rules.tunnela and rules.tunnela_kind == "pure_run"

    def sequence(size: int) -> bool:  # a group of this size may be a sequence
        return size >= rules.min_meld_size or (size == 3 and pure_tunnela)

    for sizes in rules.groupings or ():
        text = "+".join(map(str, sizes))
        small = min(sizes)
        if (
            small < rules.min_meld_size
            and not (small == 3 and rules.tunnela)
            and rules.jokers_only_group != "leftover"
        ):
            problems.append(
                f"declaration.groupings: {text} has a group of {count_words(small)}, "
                f"smaller than a meld (melds.min_size: {rules.min_meld_size})"
            )
        runs = sum(1 for size in sizes if sequence(size))
        if runs < rules.min_runs:
            plural = "s" * (runs != 1)
            problems.append(
                f"declaration.groupings: {text} has room for {runs} sequence{plural} and "
                f"a declaration needs {rules.min_runs} (declaration.min_runs)"
            )
        if long is not None and rules.min_runs and max(sizes) < long:
            problems.append(
                f"declaration.groupings: {text} has no group of {long} cards for the "
                "long sequence (declaration.long_run_length)"
            )
    if rules.groupings is None and rules.min_runs:
        shortest = min(rules.min_meld_size, 3) if pure_tunnela else rules.min_meld_size
        need = shortest * (rules.min_runs - 1) + max(shortest, long or 0)
        if need > rules.cards_per_hand:
            problems.append(
                f"declaration.min_runs: {rules.min_runs} sequences of at least "
                f"{shortest} cards (melds.min_size"
                + (f", one of {long}, declaration.long_run_length" if long else "")
                + f") need {need} cards, more than the {rules.cards_per_hand} a hand holds "
                "(deal.cards_per_hand)"
            )
    return problems
