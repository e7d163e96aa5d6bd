"""The shuffle tests catch biases the simulator does not plant: the classic ways of getting a
shuffle wrong (docs/rng.md), and a shuffle that favours one seat only now and then.

Every night here is 2 decks and 2 printed jokers (106 cards), 13 cards a player, 2 to 6
players a hand, every shoe shuffled from the fresh (sorted) deck by a shuffler of
tests/shuffle/shufflers.py. Each bad shuffler's night fails the check that answers to its
error at ``minor`` or above, with about twice the shoes it takes to be caught on every one
of 10 to 20 seeds (each test says the smallest such count); the same night shuffled by
Fisher-Yates fails nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest

from audit.findings import Severity
from audit.rules.ruleset import load_preset
from audit.shuffle.dependence import serial_tests
from audit.shuffle.night import NULLS, run_tests
from audit.shuffle.result import MIN_SHOES, Result
from audit.shuffle.shoes import NO_SEAT, Night, group_of
from tests.shuffle.shufflers import (
    Codes,
    Ints,
    canonical,
    cut_on,
    favours_first_seat,
    favours_seat_number,
    fisher_yates,
    modulo_bias,
    naive_swap,
    random_comparator,
    recycled_and_cut,
    riffled_on,
    sattolo,
    small_seed,
    sorted_keys,
)

DECKS, JOKERS, CARDS = 2, 2, 13
SHOE = canonical(DECKS, JOKERS)
RULES = load_preset("standard-13")

Shuffler = Callable[[Codes, int, np.random.Generator], Codes]


def _players(shoes: int, seed: int) -> Ints:
    return np.random.default_rng([seed, 1]).integers(2, 7, shoes)


def _results(codes: Codes, players: Ints, seats: Ints | None = None) -> list[Result]:
    """Every shuffle test of one night of these shoes (one table, in row order)."""
    assert (np.sort(codes, axis=1) == SHOE).all(), "every shoe holds the shoe's cards"
    group = group_of(
        codes,
        decks=DECKS,
        printed_jokers=JOKERS,
        players=players,
        cards=CARDS,
        rules=RULES,
        seats=seats,
    )
    return run_tests(Night([group]))


def _failed(results: list[Result], check: str | None = None) -> list[Result]:
    """The results at ``minor`` or above (of ``check``)."""
    return [
        r
        for r in results
        if r.severity is not None
        and r.severity.rank >= Severity.MINOR.rank
        and (check is None or r.check == check)
    ]


def _smallest(results: list[Result]) -> dict[str, float]:
    """Per check, its smallest adjusted p-value (the assertion messages)."""
    out: dict[str, float] = {}
    for r in results:
        if r.adjusted_p is not None:
            out[r.check] = min(out.get(r.check, 1.0), r.adjusted_p)
    return dict(sorted(out.items(), key=lambda kv: kv[1]))


def _assert_caught(
    check: str,
    codes: Codes,
    players: Ints,
    seed: int,
    *,
    seats: Ints | None = None,
    test: str | None = None,
) -> list[Result]:
    """``check`` (its ``test``) fails the night of ``codes`` at minor or above, and the same
    night shuffled by Fisher-Yates fails nothing. The night's results."""
    assert check in NULLS
    results = _results(codes, players, seats)
    failed = [r for r in _failed(results, check) if test is None or r.test == test]
    assert failed, _smallest(results)
    fair = fisher_yates(SHOE, codes.shape[0], np.random.default_rng([seed, 2]))
    control = _results(fair, players, seats)
    assert not _failed(control), _smallest(control)
    return results


def test_the_shufflers_do_what_their_names_say() -> None:
    """On three distinct cards: Fisher-Yates gives the 6 orders alike, Sattolo only the 2
    cyclic ones, the naive swap its 27 swap sequences' uneven 4:5 split."""
    shoe = np.arange(3, dtype=np.uint8)
    shoes = 60_000

    def shares(codes: Codes) -> dict[tuple[int, ...], float]:
        counts = Counter(tuple(row) for row in codes.tolist())
        return {order: n / shoes for order, n in counts.items()}

    rng = np.random.default_rng(7)
    for shuffle in (fisher_yates, sorted_keys):
        fair = shares(shuffle(shoe, shoes, rng))
        assert len(fair) == 6
        assert all(abs(s - 1 / 6) < 0.01 for s in fair.values()), fair
    assert set(shares(sattolo(shoe, shoes, rng))) == {(1, 2, 0), (2, 0, 1)}
    naive = shares(naive_swap(shoe, shoes, rng))
    fives = {(0, 2, 1), (1, 0, 2), (1, 2, 0)}
    assert len(naive) == 6
    assert all(abs(s - (5 if o in fives else 4) / 27) < 0.01 for o, s in naive.items()), naive


@pytest.mark.parametrize("shuffle", [fisher_yates, sorted_keys])
def test_a_fair_shuffle_fails_nothing(shuffle: Shuffler) -> None:
    """The controls: a correct Fisher-Yates, and a sort by uniform random keys."""
    shoes, seed = 4_000, 11
    codes = shuffle(SHOE, shoes, np.random.default_rng(seed))
    results = _results(codes, _players(shoes, seed))
    assert not _failed(results), _smallest(results)


def test_naive_swap_shuffle_is_caught_by_position_uniformity() -> None:
    """The naive swap (every place swaps with any place, not one of the places not yet
    fixed): its L**L swap sequences cannot fall evenly on the L! orders, so cards are
    likelier at some places than others. docs/rng.md, rng.position (11VAC20-20-510 C.1:
    each card position passes a chi-square test). Caught on every seed from 2,000 shoes;
    the whole position x card table (rng.uniformity) sees it from 500."""
    shoes, seed = 4_000, 21
    codes = naive_swap(SHOE, shoes, np.random.default_rng(seed))
    results = _assert_caught("rng.position", codes, _players(shoes, seed), seed)
    assert _failed(results, "rng.uniformity")


def test_sattolo_by_mistake_is_caught_by_the_whole_table() -> None:
    """Sattolo's algorithm used for Fisher-Yates (j drawn from 0..i-1, not 0..i): only
    cyclic orders come out, so no card is ever dealt from where the fresh deck had it. Each
    position lacks one card, too little for a single position's test; the whole position x
    card table sees it. docs/rng.md, rng.uniformity (58 Pa. Code 810a.5(c)(1)-(2)). Caught
    on every seed from 1,500 shoes."""
    shoes, seed = 3_000, 31
    codes = sattolo(SHOE, shoes, np.random.default_rng(seed))
    _assert_caught("rng.uniformity", codes, _players(shoes, seed), seed)


def test_modulo_bias_is_caught_by_position_uniformity() -> None:
    """Fisher-Yates with j = (a random byte) % (i + 1): below 256 % (i + 1) the swap
    partner is half as likely again as above it (for a 106-card shoe, places 0..43 against
    44..105 at the first step), so the last places get the fresh deck's first cards about
    1.5 times too often. docs/rng.md, rng.position (11VAC20-20-510 C.1). Caught on every
    seed from 1,500 shoes."""
    shoes, seed = 3_000, 41
    codes = modulo_bias(SHOE, shoes, np.random.default_rng(seed))
    _assert_caught("rng.position", codes, _players(shoes, seed), seed)


def test_random_comparator_sort_is_caught_by_adjacent_cards() -> None:
    """A sort with a random comparator (``sorted`` with a coin for comparator, JavaScript's
    ``sort(() => Math.random() - 0.5)``): the fresh deck's neighbours stay together, so
    neighbouring cards share a suit far too often. docs/rng.md, rng.adjacent
    (11VAC20-20-510 C.3, correlation). Caught on every seed from 200 shoes."""
    shoes, seed = 400, 51
    codes = random_comparator(SHOE, shoes, np.random.default_rng(seed))
    _assert_caught("rng.adjacent", codes, _players(shoes, seed), seed)


def test_small_seed_space_is_caught_by_repeated_shoes() -> None:
    """A generator seeded from 16 bits: with 2,000 shoes about 30 pairs of them are the same
    shoe, which a fair shuffle of 106 cards never repeats. docs/rng.md, rng.repeat (58 Pa.
    Code 810a.5(a)(1), (a)(4): independent, cryptographically strong). Caught on every seed
    from 1,000 shoes (about 8 repeats expected)."""
    shoes, seed = 2_000, 61
    codes = small_seed(SHOE, shoes, np.random.default_rng(seed), seed_bits=16)
    _assert_caught("rng.repeat", codes, _players(shoes, seed), seed)


def test_an_earlier_shoe_dealt_again_and_cut_is_caught_by_repeated_shoes() -> None:
    """A platform that deals one hand in 20 an earlier shoe of the night again, only cut:
    no two shoes open alike, but each recycled shoe is a rotation of an earlier one, 24
    cards in a row of which no two fair shoes share. docs/rng.md, rng.repeat (58 Pa. Code
    810a.5(a)(1)). Caught from the first recycled shoe (it alone is p below 1e-20)."""
    shoes, seed = 400, 63
    codes = recycled_and_cut(SHOE, shoes, np.random.default_rng(seed), share=0.05)
    results = _assert_caught("rng.repeat", codes, _players(shoes, seed), seed)
    repeat = next(r for r in results if r.check == "rng.repeat")
    assert repeat.statistic is not None
    assert repeat.statistic >= 10
    assert f"{repeat.statistic:,.0f} shoes are a cut of an earlier shoe (" in repeat.effect


def test_one_riffle_of_the_last_shoe_is_caught_by_serial_correlation() -> None:
    """A table that riffles its last shoe once instead of shuffling a fresh deck: where a
    card lay in one shoe says where it lies in the next. docs/rng.md, rng.serial
    (11VAC20-20-510 C.4, serial correlation). Caught on every seed from 60 shoes (the
    test needs 50 pairs)."""
    shoes, seed = 200, 71
    codes = riffled_on(SHOE, shoes, np.random.default_rng(seed))
    _assert_caught("rng.serial", codes, _players(shoes, seed), seed)


def test_a_cut_of_the_last_shoe_is_caught_by_serial_correlation() -> None:
    """A table that only cuts its last shoe: every shoe is a rotation of the first.
    docs/rng.md, rng.serial (11VAC20-20-510 C.4); rng.adjacent and rng.repeat fail too.
    Caught on every seed from 60 shoes."""
    shoes, seed = 200, 81
    codes = cut_on(SHOE, shoes, np.random.default_rng(seed))
    results = _assert_caught("rng.serial", codes, _players(shoes, seed), seed)
    assert {"rng.adjacent", "rng.repeat"} <= {r.check for r in _failed(results)}


def test_a_bias_every_shoe_shares_is_left_to_the_position_tests_not_serial() -> None:
    """The naive swap, from a fresh deck every hand: the shoes are independent, each as
    biased as the last. Consecutive shoes then match and keep order no more than any two
    of the night, and rng.serial, measured from the night's own positions, says nothing
    (it said the shoe depends on the one before: a correlation of +0.007 over 20,000
    pairs); rng.position says what is wrong."""
    shoes, seed = 20_000, 23
    codes = naive_swap(SHOE, shoes, np.random.default_rng(seed))
    results = _results(codes, _players(shoes, seed))
    assert _failed(results, "rng.position")
    serial = [r for r in results if r.check == "rng.serial"]
    assert len(serial) == 2
    assert all(r.severity is None for r in serial), [r.effect for r in serial]


def test_serial_p_values_are_uniform_over_independent_shoes_of_a_biased_shuffle() -> None:
    """The null of rng.serial is independence, whatever one shoe's distribution: over 200
    nights of 1,000 naive-swap shoes at one table, each of its tests falls at or below 0.01
    and 0.05 no more often than that (within three binomial standard errors)."""
    nights, shoes = 200, 1_000
    p: dict[str, list[float]] = {}
    for night in range(nights):
        codes = naive_swap(SHOE, shoes, np.random.default_rng([29, night]))
        group = group_of(codes, decks=DECKS, printed_jokers=JOKERS,
                         players=_players(shoes, night), cards=CARDS, rules=RULES)  # fmt: skip
        for r in serial_tests(group):
            assert r.p_value is not None
            p.setdefault(r.test, []).append(r.p_value)
    for level in (0.01, 0.05):
        bound = level + 3 * (level * (1 - level) / nights) ** 0.5
        shares = {test: float(np.mean(np.array(v) <= level)) for test, v in p.items()}
        assert all(share <= bound for share in shares.values()), (level, shares)


@pytest.mark.parametrize(
    ("rate", "shoes"),
    [
        pytest.param(0.2, 2_000, id="one-hand-in-5"),
        pytest.param(0.1, 4_000, id="one-hand-in-10"),
    ],
)
def test_a_shuffle_favouring_the_first_seat_now_and_then_is_caught_by_seat_jokers(
    rate: float, shoes: int
) -> None:
    """A fair shuffle that, in one hand in 5 (or 10), swaps a printed joker from elsewhere
    into the cards of the first seat dealt: about 0.2 (0.1) jokers a hand more than its
    share. docs/rng.md, rng.seat_jokers, printed jokers by deal order (58 Pa. Code
    810a.5(a)(2): fairly distributed). Caught on every one of 20 seeds from 1,000 shoes at
    one hand in 5, from 2,000 at one hand in 10 (the shoes needed grow as 1 / rate**2;
    counting wild-rank jokers too, whose count varies more, it took 8,000)."""
    seed = 91
    players = _players(shoes, seed)
    rng = np.random.default_rng(seed)
    codes = favours_first_seat(SHOE, shoes, rng, players=players, cards=CARDS, rate=rate)
    _assert_caught(
        "rng.seat_jokers", codes, players, seed, test="printed jokers by seat in deal order"
    )


@pytest.mark.parametrize(
    ("rate", "shoes"),
    [
        pytest.param(0.2, 2_000, id="one-hand-in-5"),
        pytest.param(0.1, 6_000, id="one-hand-in-10"),
    ],
)
def test_a_shuffle_favouring_a_seat_number_is_caught_by_seat_jokers_by_table_seat(
    rate: float, shoes: int
) -> None:
    """A shuffle that now and then gives a printed joker to whoever sits at table seat 3,
    wherever that seat comes in the deal (the players take random seats of six, so seat 3
    is at 2 tables in 3 and its place in the deal varies). docs/rng.md, rng.seat_jokers by
    table seat number, printed jokers (58 Pa. Code 810a.5(a)(2)). Caught on every one of 20
    seeds from 1,000 shoes at one hand in 5, from 3,000 at one hand in 10."""
    seed = 101
    players = _players(shoes, seed)
    order = np.random.default_rng([seed, 3]).random((shoes, 6)).argsort(axis=1) + 1
    seats = np.where(np.arange(6)[None, :] < players[:, None], order, NO_SEAT)
    rng = np.random.default_rng(seed)
    codes = favours_seat_number(
        SHOE, shoes, rng, players=players, cards=CARDS, seats=seats, number=3, rate=rate
    )
    _assert_caught(
        "rng.seat_jokers", codes, players, seed, seats=seats,
        test="printed jokers by table seat number",
    )  # fmt: skip


def test_shoes_whose_deals_hold_no_joker_give_a_readable_effect() -> None:
    """One deck, no printed joker, and the wild card's rank kept out of every deal: the
    seat tests have no joker to share out, so their effect says none was expected, with
    no 'nan' and no numpy warning (the report shows the effect)."""
    import warnings

    from audit.cards import parse_code

    shoe = canonical(1, 0)
    wild = [parse_code(c) for c in ("2S", "2H", "2D", "2C")]
    rest = [c for c in shoe.tolist() if c not in wild]
    rng = np.random.default_rng(5)
    shoes = []
    for _ in range(300):
        order = rng.permutation(rest).tolist()
        shoes.append([*order[:26], wild[0], *order[26:], *wild[1:]])  # 2 players x 13
    codes = np.array(shoes, dtype=SHOE.dtype)
    group = group_of(codes, decks=1, printed_jokers=0, players=np.full(300, 2), cards=13,
                     rules=RULES)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = run_tests(Night([group]))
    seats = [r for r in results if r.check == "rng.seat_jokers"]
    assert seats
    for r in seats:
        assert "nan" not in r.effect, r.effect
        assert "(none expected)" in r.effect, r.effect


def test_seat_jokers_by_table_seat_number_counts_every_seat_number_the_contract_allows() -> None:
    """hands.seats[].seat is int8: a platform may number seats 0, 9 or -3. A shoe with a
    negative seat number is tested like any other (it was dropped from the test by table
    seat number without a word, the sign taken for "no player"), and the favoured seat is
    found whatever its number."""
    shoes, seed = 2_000, 7
    players = _players(shoes, seed)
    numbers = np.array([-3, 0, 9, 42, 99, 127])
    order = numbers[np.random.default_rng([seed, 3]).random((shoes, 6)).argsort(axis=1)]
    seats = np.where(np.arange(6)[None, :] < players[:, None], order, NO_SEAT)
    codes = favours_seat_number(SHOE, shoes, np.random.default_rng(seed), players=players,
                                cards=CARDS, seats=seats, number=-3, rate=0.2)  # fmt: skip
    results = _results(codes, players, seats)
    (by_number,) = [r for r in results if r.test == "printed jokers by table seat number"]
    assert by_number.shoes == int((players >= 2).sum())
    assert by_number.labels == tuple(f"seat {n}" for n in numbers)
    assert by_number in _failed(results, "rng.seat_jokers")
    assert by_number.effect.startswith("seat -3 got ")


def test_seat_jokers_names_the_seat_numbers_too_rarely_sat_in_to_test() -> None:
    """A seat number sat in fewer than ``MIN_SHOES`` hands is left out of the test by table
    seat number, and its effect says which and how many hands each had (it was dropped
    without a word)."""
    shoes, seed = 2_000, 11
    players = np.full(shoes, 2)
    seats = np.full((shoes, 6), NO_SEAT)
    seats[:, 0], seats[:, 1] = 1, 2
    seats[:30, 1] = 7  # seat 7: 30 hands, under MIN_SHOES
    codes = favours_seat_number(SHOE, shoes, np.random.default_rng(seed), players=players,
                                cards=CARDS, seats=seats, number=1, rate=0.0)  # fmt: skip
    results = _results(codes, players, seats)
    (by_number,) = [r for r in results if r.test == "printed jokers by table seat number"]
    assert by_number.labels == ("seat 1", "seat 2")
    assert by_number.effect.endswith(f"; not tested, under {MIN_SHOES} hands each: seat 7 (30)")
    (by_order,) = [r for r in results if r.test == "printed jokers by seat in deal order"]
    assert "not tested" not in by_order.effect
