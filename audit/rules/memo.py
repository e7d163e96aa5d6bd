"""The rules engine's per-pattern caches, kept within a budget across a long run.

The classifier (``melds._classify``) and the solver's suit and rank tables
(``tables._suit_runs`` and its kin) remember every pattern of cards they have judged; each
is an ``lru_cache`` keyed on the cards and the ``Ruleset``, so what they return never
depends on what they hold. A worker that audits bucket after bucket fills them for as long as
it runs (the million-hand night's: 65,000 groups, the classifier's limit, after 55 buckets,
and 39,000 suit patterns after 170, still growing), and the entries, made
one by one between each batch's short-lived records, keep the allocator's arenas alive
around them: a worker of the million-hand night grew from about 245 to 320 MiB that way,
where with the caches emptied after every bucket it held at about 222
(benchmarks/README.md, "Scale"). Emptied whenever they pass ``BUDGET`` entries, they hold
what a worker fills in its first eight buckets or so, whatever the size of the night; a
worker pays a cold start (about a fifth more time for one bucket) once in ten buckets or so,
about 3 % of its time. A cluster's worker that outlives the run keeps them, within the same
budget, for the next run (emptying them when a run ended gave back about 2 MiB).

The tables keyed on a ruleset alone (requirement states, packing, the order of the search)
are small and are kept.
"""

from __future__ import annotations

from typing import Final

from audit.rules import melds, tables

BUDGET = 60_000
"""Entries the per-pattern caches may hold together before they are emptied: about what a
worker fills in eight buckets of 125,000 events, as many as a worker of a 100k-hand night
audits on two cores (benchmarks/README.md, "Scale")."""

_PER_PATTERN: Final = (
    melds._classify,
    tables._suit_runs,
    tables._place_runs,
    tables._run_cover,
    tables._run_single_needs,
    tables._natural_sets,
    tables._set_options,
    tables._set_cores,
    tables._display_order,
)


def held() -> int:
    """The entries the per-pattern caches hold together."""
    return sum(cached.cache_info().currsize for cached in _PER_PATTERN)


def bound() -> bool:
    """Empty the per-pattern caches if together they hold more than ``BUDGET`` entries
    (a worker calls this before each bucket); true if it did."""
    if held() <= BUDGET:
        return False
    for cached in _PER_PATTERN:
        cached.cache_clear()
    return True
