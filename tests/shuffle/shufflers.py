"""Shufflers for the shuffle tests: a fair one, the classic ways of getting a shuffle wrong,
and shufflers that favour a seat only now and then.

Each takes the canonical shoe (its cards in sorted order, as a platform opens a fresh deck
for each hand), how many shoes to shuffle and a numpy generator, and returns a
(shoes, cards) array of card codes (audit.cards), the deal's positions in order. Where a
loop over the cards can run over every shoe at once it does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cmp_to_key

import numpy as np
import numpy.typing as npt

from audit.cards import JOKER, shoe_composition

Codes = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]


def canonical(decks: int, printed_jokers: int) -> Codes:
    """A fresh shoe: its cards sorted by code."""
    return np.array(sorted(shoe_composition(decks, printed_jokers).elements()), dtype=np.uint8)


def _swaps(shoe: Codes, shoes: int, order: range, pick: Callable[[int], Ints]) -> Codes:
    """Every shoe starts as ``shoe``; for each i in ``order`` the card at i swaps with the
    card at ``pick(i)`` (one index per shoe)."""
    out = np.tile(shoe, (shoes, 1))
    rows = np.arange(shoes)
    for i in order:
        j = pick(i)
        held = out[rows, j]
        out[rows, j] = out[:, i]
        out[:, i] = held
    return out


def fisher_yates(shoe: Codes, shoes: int, rng: np.random.Generator) -> Codes:
    """Correct (Durstenfeld's Fisher-Yates): i from the last place down, j uniform in 0..i."""
    return _swaps(shoe, shoes, range(shoe.size - 1, 0, -1), lambda i: rng.integers(0, i + 1, shoes))


def sorted_keys(shoe: Codes, shoes: int, rng: np.random.Generator) -> Codes:
    """Correct: sort the cards by independent uniform keys."""
    order = rng.random((shoes, shoe.size)).argsort(axis=1)
    return shoe[order]


def naive_swap(shoe: Codes, shoes: int, rng: np.random.Generator) -> Codes:
    """The naive swap: every place swaps with a place drawn from the whole shoe. L**L equally
    likely swap sequences cannot spread evenly over the L! orders."""
    size = shoe.size
    return _swaps(shoe, shoes, range(size), lambda _i: rng.integers(0, size, shoes))


def sattolo(shoe: Codes, shoes: int, rng: np.random.Generator) -> Codes:
    """Sattolo's algorithm by mistake: j in 0..i-1 instead of 0..i, so only the (L-1)!
    cyclic permutations come out and no card stays where it was."""
    return _swaps(shoe, shoes, range(shoe.size - 1, 0, -1), lambda i: rng.integers(0, i, shoes))


def modulo_bias(shoe: Codes, shoes: int, rng: np.random.Generator) -> Codes:
    """Fisher-Yates with j = (a random byte) % (i + 1): the low values of j come up more
    often whenever i + 1 does not divide 256."""
    return _swaps(
        shoe,
        shoes,
        range(shoe.size - 1, 0, -1),
        lambda i: rng.integers(0, 256, shoes) % (i + 1),
    )


def _coins(rng: np.random.Generator) -> Iterator[int]:
    while True:
        yield from (rng.integers(0, 2, 4096) * 2 - 1).tolist()


def random_comparator(shoe: Codes, shoes: int, rng: np.random.Generator) -> Codes:
    """A sort with a random comparator (Python's ``sorted`` with ``cmp_to_key`` of a coin,
    like JavaScript's ``sort(() => Math.random() - 0.5)``): the sort's comparisons decide
    the order, so cards stay near where the fresh deck had them. One shoe at a time."""
    coins = _coins(rng)
    key = cmp_to_key(lambda _a, _b: next(coins))
    cards = shoe.tolist()
    return np.array([sorted(cards, key=key) for _ in range(shoes)], dtype=np.uint8)


def small_seed(shoe: Codes, shoes: int, rng: np.random.Generator, *, seed_bits: int = 16) -> Codes:
    """Each shoe shuffled by a generator seeded from only 2**seed_bits values: shoes repeat
    once there are about as many as the square root of the seed space (the birthday
    bound: 256 shoes for 16 bits)."""
    seeds = rng.integers(0, 2**seed_bits, shoes)
    orders = {int(s): np.random.default_rng(int(s)).permutation(shoe.size) for s in set(seeds)}
    return np.stack([shoe[orders[int(s)]] for s in seeds])


def riffled_on(shoe: Codes, shoes: int, rng: np.random.Generator) -> Codes:
    """Each shoe is the table's previous shoe riffled once (Gilbert-Shannon-Reeds: a
    binomial cut, the two packets interleaved at random); the first riffles the fresh deck.
    One table, shoes in order."""
    size = shoe.size
    cuts = rng.binomial(size, 0.5, shoes)
    top = rng.random((shoes, size)).argsort(axis=1) < cuts[:, None]
    out = np.empty((shoes, size), dtype=np.uint8)
    previous = shoe
    for s in range(shoes):
        c = int(cuts[s])
        out[s, top[s]] = previous[:c]
        out[s, ~top[s]] = previous[c:]
        previous = out[s]
    return out


def cut_on(shoe: Codes, shoes: int, rng: np.random.Generator) -> Codes:
    """Each shoe is the table's previous shoe cut once, near the middle (a binomial cut
    point), and never shuffled; the first is a fair shuffle. One table, shoes in order."""
    size = shoe.size
    cuts = rng.binomial(size, 0.5, shoes)
    out = np.empty((shoes, size), dtype=np.uint8)
    previous = sorted_keys(shoe, 1, rng)[0]
    for s in range(shoes):
        previous = np.roll(previous, -int(cuts[s]))
        out[s] = previous
    return out


def recycled_and_cut(
    shoe: Codes, shoes: int, rng: np.random.Generator, *, share: float = 0.05
) -> Codes:
    """Fair shoes, except that ``share`` of the hands deal an earlier shoe of the night
    again (any of them, at random), cut once at random and not shuffled: a platform
    recycling its shoes (a blind tester's reuse_cut). No first cards repeat."""
    out = sorted_keys(shoe, shoes, rng)
    for s in np.flatnonzero(rng.random(shoes) < share):
        if s > 0:
            out[s] = np.roll(out[rng.integers(0, s)], -int(rng.integers(1, shoe.size)))
    return out


def _favour(
    out: Codes,
    rng: np.random.Generator,
    rate: float,
    players: Ints,
    cards: int,
    seat: Callable[[int], int | None],
) -> Codes:
    """Now and then (chance ``rate`` a shoe) a printed joker dealt elsewhere or left in the
    stock swaps places with a card of the favoured seat (``seat(row)``: its place in deal
    order, or ``None`` when nobody favoured sits at the table)."""
    for row in np.flatnonzero(rng.random(out.shape[0]) < rate):
        d = seat(int(row))
        if d is None:
            continue
        n = int(players[row])
        mine = np.arange(d, n * cards, n)
        jokers = np.flatnonzero(out[row] == JOKER)
        away = np.setdiff1d(jokers, mine)
        targets = mine[out[row, mine] != JOKER]
        if away.size and targets.size:
            a, b = int(rng.choice(away)), int(rng.choice(targets))
            out[row, a], out[row, b] = out[row, b], out[row, a]
    return out


def favours_first_seat(
    shoe: Codes,
    shoes: int,
    rng: np.random.Generator,
    *,
    players: Ints,
    cards: int,
    rate: float = 0.08,
) -> Codes:
    """Fisher-Yates, then with chance ``rate`` a printed joker from outside the first seat's
    cards (positions 0, n, 2n, ... < n*k) swapped into one of them."""
    out = sorted_keys(shoe, shoes, rng)
    return _favour(out, rng, rate, players, cards, lambda _row: 0)


def favours_seat_number(
    shoe: Codes,
    shoes: int,
    rng: np.random.Generator,
    *,
    players: Ints,
    cards: int,
    seats: Ints,
    number: int,
    rate: float = 0.08,
) -> Codes:
    """Fisher-Yates, then with chance ``rate`` a printed joker swapped into the cards of
    whoever sits at table seat ``number`` (``seats``: each shoe's seat numbers in deal
    order, -1 beyond its players), wherever that seat comes in the deal."""
    out = sorted_keys(shoe, shoes, rng)

    def seat(row: int) -> int | None:
        at = np.flatnonzero(seats[row] == number)
        return int(at[0]) if at.size else None

    return _favour(out, rng, rate, players, cards, seat)
