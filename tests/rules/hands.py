"""Hands for the tests: dealt from the presets' shoes by a seeded ``random.Random``.

The same builders serve the seeded agreement test (``seeded_deal(seed)``) and the
hypothesis properties (``deals``, ``rngs``), so every hand is one a real shoe can deal.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from hypothesis import strategies as st

from audit.cards import code_of, format_codes, shoe_composition
from audit.rules.declaration import check_declaration
from audit.rules.melds import Jokers, classify
from audit.rules.ruleset import Ruleset, load_preset

PRESETS = ("standard-13", "first-life-13")
HAND_SIZE = 13


@dataclass(frozen=True, repr=False)
class Deal:
    """One hand and what it is played under."""

    hand: tuple[int, ...]
    wild_card: int
    preset: str

    @property
    def rules(self) -> Ruleset:
        return load_preset(self.preset)

    @property
    def jokers(self) -> Jokers:
        return Jokers.for_wild_card(self.wild_card, self.rules)

    def __repr__(self) -> str:
        return str(self)

    def __str__(self) -> str:
        return (
            f"hand {format_codes(sorted(self.hand))!r} under {self.preset} with the wild card "
            f"{format_codes([self.wild_card])} ({self.jokers.describe()})"
        )


def new_shoe(rng: random.Random, rules: Ruleset) -> Counter[int]:
    """The full shoe of one of the ruleset's table sizes."""
    spec = rng.choice(rules.shoes)
    return shoe_composition(spec.decks, spec.printed_jokers)


def take(shoe: Counter[int], cards: list[int]) -> bool:
    """Take ``cards`` out of ``shoe`` if it holds them all."""
    wanted = Counter(cards)
    if any(shoe[c] < k for c, k in wanted.items()):
        return False
    shoe.subtract(wanted)
    return True


def draw(
    rng: random.Random, shoe: Counter[int], k: int, *, jokers: tuple[Jokers, bool] | None = None
) -> list[int]:
    """``k`` random cards out of ``shoe``; ``jokers=(j, True)`` draws only jokers of ``j``,
    ``(j, False)`` only other cards."""
    pool = [
        c
        for c in sorted(+shoe)
        for _ in range(shoe[c])
        if jokers is None or jokers[0].is_joker(c) == jokers[1]
    ]
    cards = rng.sample(pool, k)
    shoe.subtract(cards)
    return cards


def random_meld(
    rng: random.Random,
    shoe: Counter[int],
    jokers: Jokers,
    rules: Ruleset,
    *,
    pure_run: bool = False,
    run: bool = False,
) -> list[int] | None:
    """A random valid meld taken out of ``shoe``, or ``None`` if this try did not make one.

    Runs of 3-6 cards anywhere from A-2-3 to Q-K-A, sets of 3-4 suits, either with a card
    or two swapped for (or joined by) a joker from the shoe; ``pure_run`` asks for a run
    without jokers, ``run`` for any run.
    """
    if pure_run or run or rng.random() < 0.6:
        length = rng.choice((3, 3, 3, 4, 4, 5, 6)) if not pure_run else rng.choice((3, 4, 4, 5))
        start = rng.randint(1, 15 - length)  # places 1..14, the ace being 1 and 14
        suit = rng.randrange(4)
        cards = [code_of(place, suit) for place in range(start, start + length)]
    else:
        rank = rng.randint(1, 13)
        cards = [code_of(rank, suit) for suit in rng.sample(range(4), rng.choice((3, 3, 4)))]
    if not pure_run:
        spare = [c for c in sorted(+shoe) if jokers.is_joker(c)]
        roll = rng.random()
        if spare and roll < 0.35:
            cards[rng.randrange(len(cards))] = rng.choice(spare)
        elif spare and roll < 0.5:
            cards.insert(rng.randrange(len(cards) + 1), rng.choice(spare))
        elif len(spare) > 1 and roll < 0.6:
            for i in rng.sample(range(len(cards)), 2):
                cards[i] = rng.choice(spare)
    verdict = classify(cards, jokers, rules)
    if not verdict.is_valid or (pure_run and not verdict.is_pure_run):
        return None
    if (pure_run or run) and not verdict.is_run:
        return None
    if not take(shoe, cards):
        return None
    return cards


def seeded_deal(seed: int) -> Deal:
    """The hand of ``seed``: a third plain deals, a third with 3-6 jokers, a third built
    from 3-4 valid melds plus a few cards (so the requirement logic is exercised)."""
    rng = random.Random(seed)
    preset = PRESETS[seed % 2]
    rules = load_preset(preset)
    shoe = new_shoe(rng, rules)
    wild = draw(rng, shoe, 1)[0]
    jokers = Jokers.for_wild_card(wild, rules)
    kind = seed // 2 % 3
    if kind == 0:
        hand = draw(rng, shoe, HAND_SIZE)
    elif kind == 1:
        n = rng.randint(3, 6)
        hand = draw(rng, shoe, n, jokers=(jokers, True))
        hand += draw(rng, shoe, HAND_SIZE - n, jokers=(jokers, False))
    else:
        hand = near_complete(rng, shoe, jokers, rules)
    rng.shuffle(hand)
    return Deal(tuple(hand), wild, preset)


def near_complete(
    rng: random.Random, shoe: Counter[int], jokers: Jokers, rules: Ruleset
) -> list[int]:
    """3-4 valid melds (the first a pure run half the time) and random cards up to 13."""
    hand: list[int] = []
    want = rng.choice((3, 4))
    melds = 0
    for attempt in range(60):
        if melds == want:
            break
        meld = random_meld(rng, shoe, jokers, rules, pure_run=attempt == 0 and rng.random() < 0.5)
        if meld is None:
            continue
        if len(hand) + len(meld) > HAND_SIZE:
            shoe.update(meld)
            continue
        hand += meld
        melds += 1
    return hand + draw(rng, shoe, HAND_SIZE - len(hand))


def crowded_hand(
    rng: random.Random, shoe: Counter[int], jokers: Jokers, size: int = HAND_SIZE
) -> list[int]:
    """``size`` cards out of ``shoe``, most of them copies of a few cards: of three ranks in
    a row of one suit and of the first rank in other suits (so runs, sets and tunnelas lie
    on top of each other), each as many times as the shoe may hold it; then 0-3 jokers and
    random cards up to ``size``."""
    rank, suit = rng.randint(1, 13), rng.randrange(4)
    near = [code_of((rank + k - 1) % 13 + 1, suit) for k in range(3)]
    near += [code_of(rank, other) for other in rng.sample(range(4), 2) if other != suit]
    hand: list[int] = []
    for code in rng.sample(near, rng.randint(2, len(near))):
        room = size - 3 - len(hand)
        if room <= 0 or not shoe[code]:
            continue
        copies = min(room, rng.randint(1, shoe[code]))
        hand += [code] * copies
        shoe[code] -= copies
    spare = sum(k for c, k in shoe.items() if k > 0 and jokers.is_joker(c))
    hand += draw(rng, shoe, min(spare, rng.randint(0, 3)), jokers=(jokers, True))
    return hand + draw(rng, shoe, size - len(hand))


def valid_declaration(rng: random.Random, rules: Ruleset) -> tuple[list[list[int]], Jokers]:
    """Groups of valid melds that meet the declaration requirement, 9 to 13 cards in all."""
    while True:
        shoe = new_shoe(rng, rules)
        jokers = Jokers.for_wild_card(draw(rng, shoe, 1)[0], rules)
        pure = random_meld(rng, shoe, jokers, rules, pure_run=True)
        second = random_meld(rng, shoe, jokers, rules, run=True)
        if pure is None or second is None:
            continue
        groups = [pure, second]
        for _ in range(8):
            if sum(map(len, groups)) >= 9:
                break
            meld = random_meld(rng, shoe, jokers, rules)
            if meld is not None and sum(map(len, groups)) + len(meld) <= HAND_SIZE:
                groups.append(meld)
        hand = [c for g in groups for c in g]
        if len(hand) >= 9 and check_declaration(hand, groups, jokers, rules).valid:
            rng.shuffle(groups)
            return groups, jokers


def random_partition(rng: random.Random, hand: list[int]) -> list[list[int]]:
    """``hand`` cut into random groups (often of 3-5 cards, the size of a meld)."""
    cards = list(hand)
    rng.shuffle(cards)
    groups = []
    while cards:
        k = min(len(cards), rng.choice((1, 2, 3, 3, 3, 4, 4, 5)))
        groups.append(cards[:k])
        cards = cards[k:]
    return groups


presets = st.sampled_from(PRESETS)
"""Preset ids (a ``Ruleset`` prints too long in a falsifying example)."""
rngs = st.integers(0, 2**32 - 1).map(random.Random)
"""Seeded ``random.Random`` for the builders here, which draw too much for ``st.randoms()``."""
deals = st.builds(seeded_deal, st.integers(min_value=0, max_value=2**32))
"""Seeded deals: plain, joker-heavy and near-complete hands of both presets."""
