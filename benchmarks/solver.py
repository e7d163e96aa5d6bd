"""Benchmark of the optimal-arrangement solver (audit/rules/solver.py).

Three sets of hands for each preset (13 cards, or 10 for standard-10), all seeded:
- random deals: a hand and a wild card from a shuffled 2-deck + 2-joker shoe;
- end of play: hands as they stand when a real hand ends, made by playing 8-20 turns of
  draw-and-discard from a random deal, each turn discarding the highest unmatched card of the
  hand's best arrangement;
- 4+ jokers: random deals from the 3-deck + 6-joker shoe of first-life-13 kept only when the
  hand holds 4 or more jokers (printed or wild).

For the 21- and 27-card presets (a 3-deck shoe with 3 printed jokers):
- random deals: 21 or 27 cards and a wild card;
- end of play: hands as they are at a show, built from the shoe: valid melds (pure runs,
  tunnelas, sets, runs with a joker) up to all but 0-4 cards, then random cards (the
  deadwood). Built, not played: a played 21-card hand takes a search a turn.

Prints a Markdown table; ``run.py`` writes it into benchmarks/README.md.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from audit.cards import JOKER, code_of, format_codes
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, load_preset
from audit.rules.scoring import card_points
from audit.rules.solver import best_arrangement, best_points

Hand = tuple[list[int], Jokers]


def shoe(decks: int, jokers: int) -> list[int]:
    return [c for c in range(52) for _ in range(decks)] + [JOKER] * jokers


def random_deals(rng: random.Random, n: int, rules: Ruleset) -> list[Hand]:
    cards, k = shoe(2, 2), rules.cards_per_hand
    out = []
    for _ in range(n):
        rng.shuffle(cards)
        out.append((cards[:k], Jokers.for_wild_card(cards[k], rules)))
    return out


def end_of_play(rng: random.Random, n: int, rules: Ruleset) -> list[Hand]:
    cards, k = shoe(2, 2), rules.cards_per_hand
    out = []
    for _ in range(n):
        rng.shuffle(cards)
        hand, jokers, stock = cards[:k], Jokers.for_wild_card(cards[k], rules), cards[k + 1 :]
        for turn in range(rng.randint(8, 20)):
            hand = [*hand, stock[turn]]
            _, groups = best_arrangement(hand, jokers, rules)
            loose = [g[0] for g in groups if len(g) == 1 and not jokers.is_joker(g[0])]
            pool = loose or [c for c in hand if not jokers.is_joker(c)] or hand
            worst = max(pool, key=lambda c: (card_points([c], jokers, rules), c))
            hand.remove(worst)
        out.append((hand, jokers))
    return out


def joker_rich(rng: random.Random, n: int, rules: Ruleset) -> list[Hand]:
    cards, k = shoe(3, 6), rules.cards_per_hand
    out = []
    while len(out) < n:
        rng.shuffle(cards)
        hand, jokers = cards[:k], Jokers.for_wild_card(cards[k], rules)
        if sum(jokers.is_joker(c) for c in hand) >= 4:
            out.append((hand, jokers))
    return out


def random_deals_3(rng: random.Random, n: int, rules: Ruleset) -> list[Hand]:
    """Random deals from the 21- and 27-card shoe: 3 decks, 3 printed jokers."""
    cards, k = shoe(3, 3), rules.cards_per_hand
    out = []
    for _ in range(n):
        rng.shuffle(cards)
        out.append((cards[:k], Jokers.for_wild_card(cards[k], rules)))
    return out


def _meld(rng: random.Random, jokers: Jokers) -> list[int]:
    """A random meld: a pure run, a tunnela, a set, or a run with a joker."""
    roll = rng.random()
    if roll < 0.45 or roll >= 0.75:
        length = rng.choice((3, 3, 4, 4, 5))
        start, suit = rng.randint(1, 15 - length), rng.randrange(4)
        run = [code_of((place - 1) % 13 + 1, suit) for place in range(start, start + length)]
        if roll >= 0.75:  # a run with one card a joker
            wild = [JOKER, *sorted(jokers.codes)]
            run[rng.randrange(length)] = rng.choice(wild)
        return run
    if roll < 0.55:
        return [rng.randrange(52)] * 3  # a tunnela
    rank = rng.randint(1, 13)
    return [code_of(rank, suit) for suit in rng.sample(range(4), rng.choice((3, 4)))]


def show_hands(rng: random.Random, n: int, rules: Ruleset) -> list[Hand]:
    """Hands at a show (21 or 27 cards): melds from the 3-deck shoe up to all but 0-4
    cards, then random cards."""
    k = rules.cards_per_hand
    out = []
    for _ in range(n):
        left = Counter(shoe(3, 3))
        wild = rng.choice(sorted(left.elements()))
        left[wild] -= 1
        jokers = Jokers.for_wild_card(wild, rules)
        hand: list[int] = []
        loose = rng.randint(0, 4)
        for _ in range(200):
            if len(hand) >= k - loose:
                break
            meld = _meld(rng, jokers)
            need = Counter(meld)
            if len(hand) + len(meld) <= k and all(left[c] >= m for c, m in need.items()):
                left.subtract(need)
                hand += meld
        rest = sorted((+left).elements())
        hand += rng.sample(rest, k - len(hand))
        rng.shuffle(hand)
        out.append((hand, jokers))
    return out


@dataclass(frozen=True)
class Figure:
    name: str
    preset: str
    hands: int
    mean_us: float
    p50_us: float
    p99_us: float
    max_us: float
    worst: str


def measure(name: str, hands: list[Hand], rules: Ruleset) -> Figure:
    best_points(*hands[0], rules)  # warm caches
    times = []
    worst, worst_t = hands[0], -1.0
    clock = time.perf_counter
    for hand, jokers in hands:
        t0 = clock()
        best_points(hand, jokers, rules)
        elapsed = clock() - t0
        times.append(elapsed)
        if elapsed > worst_t:
            worst, worst_t = (hand, jokers), elapsed
    times.sort()
    wild = worst[1].wild_card or "-"
    return Figure(
        name=name,
        preset=rules.id,
        hands=len(hands),
        mean_us=statistics.fmean(times) * 1e6,
        p50_us=times[len(times) // 2] * 1e6,
        p99_us=times[int(len(times) * 0.99)] * 1e6,
        max_us=worst_t * 1e6,
        worst=f"{format_codes(worst[0])} (wild {wild})",
    )


SETS: list[tuple[str, Callable[[random.Random, int, Ruleset], list[Hand]], int]] = [
    ("random deals", random_deals, 20_000),
    ("end of play", end_of_play, 3_000),
    ("4+ jokers", joker_rich, 5_000),
]


SETS_21_27: list[tuple[str, Callable[[random.Random, int, Ruleset], list[Hand]], int]] = [
    ("random deals", random_deals_3, 2_000),
    ("end of play", show_hands, 2_000),
]


def main(scale: float = 1.0) -> str:
    rows = []
    for preset in ("standard-13", "first-life-13", "standard-10"):
        rules = load_preset(preset)
        for name, make, n in SETS:
            hands = make(random.Random(f"{preset}/{name}"), max(10, int(n * scale)), rules)
            rows.append(measure(name, hands, rules))
    for preset in ("standard-21", "standard-27"):
        rules = load_preset(preset)
        for name, make, n in SETS_21_27:
            hands = make(random.Random(f"{preset}/{name}"), max(10, int(n * scale)), rules)
            rows.append(measure(name, hands, rules))
    lines = [
        "| hands | preset | n | mean µs | p50 µs | p99 µs | max µs | slowest hand |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {f.name} | {f.preset} | {f.hands:,} | {f.mean_us:.0f} | {f.p50_us:.0f} | "
        f"{f.p99_us:.0f} | {f.max_us:.0f} | `{f.worst}` |"
        for f in rows
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0))
