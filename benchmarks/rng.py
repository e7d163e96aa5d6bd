"""Benchmark of the shuffle tests: how many shoes each needs, and how fast they run.

Power: nights of N shoes (106 cards: 2 decks and 2 printed jokers; 2 to 6 players, 13
cards each) dealt by the simulator's biased shuffler (audit/sim/play.py: with chance
``BIAS`` a printed joker is moved to the first card), 100 nights per N. For each check, the
smallest N of a doubling grid at which at least 99 of the 100 nights fail it at minor or
worse (Holm-adjusted p at most 1e-3 over the whole family of tests): the shoes it needs to
catch the shuffler at 99 % confidence. Twice: every shoe from the biased shuffler, and one
table in eight biased (the simulator's share). The same for the classic shuffle errors of
tests/shuffle/shufflers.py. And honest nights: how often one fails anything.

Speed: ``rummy-audit rng`` over the fair-play benchmark's million-hand night (simulated and
replayed once, cached under benchmarks/out/) in a child process: wall clock, the tests'
own time (run.json) and the peak RSS.

Prints Markdown; ``run.py`` writes it into benchmarks/README.md.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from audit.cards import JOKER, shoe_composition
from audit.findings import Severity
from audit.rules.ruleset import load_preset
from audit.shuffle.night import run_tests
from audit.shuffle.result import Result
from audit.shuffle.shoes import Group, Night, group_of
from audit.sim.play import BIAS

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests.shuffle.shufflers: the classic errors
sys.path.insert(0, str(HERE))
from fairplay import BIG_GAMES, CACHE, time_pass  # noqa: E402

RULES = load_preset("standard-13")
BASE = np.array(sorted(shoe_composition(2, 2).elements()), dtype=np.uint8)
TRIALS = 100
GRID = (25, 50, 100, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 25_600, 51_200)
Shuffler = Callable[[np.random.Generator, int, np.ndarray], np.ndarray]
"""(generator, shoes, players of each hand) -> the shoes' codes."""


def fair(rng: np.random.Generator, n: int, players: np.ndarray | None = None) -> np.ndarray:
    return BASE[np.argsort(rng.random((n, BASE.size)), axis=1)]


def biased(share: float = 1.0) -> Shuffler:
    """The simulator's biased shuffler at ``share`` of the shoes (its tables)."""

    def deal(rng: np.random.Generator, n: int, players: np.ndarray) -> np.ndarray:
        codes = fair(rng, n)
        moved = np.flatnonzero((rng.random(n) < share) & (rng.random(n) < BIAS))
        for row in moved:
            at = int(np.flatnonzero(codes[row] == JOKER)[0])
            codes[row, [0, at]] = codes[row, [at, 0]]
        return codes

    return deal


def night(shuffle: Shuffler, n: int, seed: int) -> list[Result]:
    rng = np.random.default_rng(seed)
    players = rng.integers(2, 7, n)
    codes = shuffle(rng, n, players)
    group: Group = group_of(codes, decks=2, printed_jokers=2, players=players, cards=13,
                            rules=RULES)  # fmt: skip
    return run_tests(Night([group]))


def failed(results: list[Result]) -> set[str]:
    minor = Severity.MINOR.rank
    return {r.check for r in results if r.severity is not None and r.severity.rank >= minor}


def power(shuffle: Shuffler, checks: list[str], *, top: int = GRID[-1]) -> dict[str, int | None]:
    """Per check, the smallest N of ``GRID`` (up to ``top``) at which it fails in at least
    99 of ``TRIALS`` nights; None when none does."""
    need: dict[str, int | None] = dict.fromkeys(checks)
    for n in (g for g in GRID if g <= top):
        open_checks = [c for c in checks if need[c] is None]
        if not open_checks:
            break
        caught = dict.fromkeys(open_checks, 0)
        for trial in range(TRIALS):
            found = failed(night(shuffle, n, 1_000 * n + trial))
            for c in open_checks:
                caught[c] += c in found
        for c in open_checks:
            if caught[c] >= 99:
                need[c] = n
    return need


CHECKS = ["rng.position", "rng.card", "rng.uniformity", "rng.first_card", "rng.seat_jokers",
          "rng.jokers_dealt"]  # fmt: skip


def simulator_power() -> str:
    every = power(biased(1.0), CHECKS)
    eighth = power(biased(1 / 8), CHECKS)

    def cell(n: int | None) -> str:
        return f"{n:,}" if n else f"> {GRID[-1]:,}"

    lines = ["| check | every shoe biased | one table in 8 biased |", "|---|---|---|"]
    lines += [f"| `{c}` | {cell(every[c])} | {cell(eighth[c])} |" for c in CHECKS]
    return "\n".join(lines)


def classic() -> list[tuple[str, Shuffler, str, int]]:
    """(name, shuffler, the check that catches it first, the largest night tried)."""
    from tests.shuffle import shufflers as s

    def plain(f: Callable[..., np.ndarray]) -> Shuffler:
        return lambda rng, n, players: f(BASE, n, rng)

    def favoured(rate: float) -> Shuffler:
        return lambda rng, n, players: s.favours_first_seat(
            BASE, n, rng, players=players, cards=13, rate=rate
        )

    return [
        ("naive swap (each place swaps with any)", plain(s.naive_swap), "rng.uniformity", 6_400),
        ("Sattolo's algorithm by mistake", plain(s.sattolo), "rng.uniformity", 6_400),
        ("modulo bias (a random byte % (i + 1))", plain(s.modulo_bias), "rng.position", 6_400),
        ("sort with a random comparator", plain(s.random_comparator), "rng.adjacent", 800),
        ("a 16-bit seed", plain(s.small_seed), "rng.repeat", 6_400),
        ("one riffle of the table's last shoe", plain(s.riffled_on), "rng.serial", 800),
        ("the table's last shoe cut, not shuffled", plain(s.cut_on), "rng.serial", 800),
        ("a printed joker given to the first seat, 1 hand in 5", favoured(0.2),
         "rng.seat_jokers", 12_800),
        ("a printed joker given to the first seat, 1 hand in 10", favoured(0.1),
         "rng.seat_jokers", 12_800),
    ]  # fmt: skip


def classic_power() -> str:
    lines = ["| shuffler | check | shoes to fail it in 99 of 100 nights |", "|---|---|---|"]
    for name, shuffle, check, top in classic():
        need = power(shuffle, [check], top=top)[check]
        lines.append(f"| {name} | `{check}` | {f'{need:,}' if need else f'> {top:,}'} |")
    return "\n".join(lines)


def honest() -> str:
    nights, n = 1_000, 2_000
    counts = {"minor or worse": 0, "info": 0, "smallest adjusted p <= 0.05": 0}
    for seed in range(nights):
        results = night(fair, n, 7_000_000 + seed)
        adjusted = [r.adjusted_p for r in results if r.adjusted_p is not None]
        counts["minor or worse"] += bool(failed(results))
        counts["info"] += any(r.severity is Severity.INFO for r in results)
        counts["smallest adjusted p <= 0.05"] += min(adjusted) <= 0.05
    lines = [f"| honest nights of {n:,} shoes | nights (of {nights:,}) | stated rate |",
             "|---|---|---|",
             f"| a test at minor or worse | {counts['minor or worse']} | 1 in 1,000 |",
             f"| a test at info | {counts['info']} | 1 in 100 |",
             f"| smallest adjusted p at most 0.05 | {counts['smallest adjusted p <= 0.05']} | "
             "at most 5 in 100 |"]  # fmt: skip
    return "\n".join(lines)


def speed() -> str:
    hands, wall, run, peak = time_pass("rng")
    entry = run["rng"]
    return (
        "| hands | shoes tested | groups | tests | `rummy-audit rng` wall clock (s) "
        "| of which the tests (s) | peak RSS (MiB) | failed |\n"
        "|---|---|---|---|---|---|---|---|\n"
        f"| {hands:,} | {entry['shoes']:,} | {len(entry['groups'])} | {entry['tests']:,} "
        f"| {wall:.1f} | {run['timings_s']['rng']:.1f} | {peak:.0f} | {entry['biased']} |"
        f"\n\n(The night of the fair-play benchmark: {BIG_GAMES:,} games, cached in {CACHE.name}/.)"
    )


def main() -> str:
    return (
        "Shoes needed to catch the simulator's biased shuffler (a printed joker moved to the "
        f"first card in {BIAS:.0%} of its shoes), at minor or worse in 99 of {TRIALS} nights:"
        "\n\n" + simulator_power()
        + "\n\nThe classic shuffle errors (tests/shuffle/shufflers.py), each with the check that "
        "catches it first:\n\n" + classic_power()
        + "\n\nHonest nights (Fisher-Yates):\n\n" + honest()
        + "\n\nSpeed:\n\n" + speed()
    )


if __name__ == "__main__":
    parts = {"power": simulator_power, "classic": classic_power, "honest": honest,
             "speed": speed}  # fmt: skip
    print("\n\n".join(parts[name]() for name in sys.argv[1:]) if sys.argv[1:] else main())
