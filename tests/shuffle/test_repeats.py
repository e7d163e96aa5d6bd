"""rng.repeat (docs/rng.md): a shoe dealt again, whole, from its first 24 cards, or cut (a
rotation of it), is found and named; fair shoes never are."""

from __future__ import annotations

import dataclasses

import numpy as np
import pyarrow as pa
import pytest

from audit.cards import shoe_composition
from audit.rules.ruleset import load_preset
from audit.shuffle.repeats import PREFIX, cut_keys, repeat_bound, repeat_test
from audit.shuffle.shoes import Codes, Group, Ints, group_of

RULES = load_preset("standard-13")


def _fair(shoes: int, seed: int, decks: int = 2, jokers: int = 2) -> Codes:
    base = np.array(sorted(shoe_composition(decks, jokers).elements()), dtype=np.uint8)
    rng = np.random.default_rng(seed)
    return base[np.argsort(rng.random((shoes, base.size)), axis=1)]


def _group(codes: Codes, decks: int = 2, jokers: int = 2, tables: Ints | None = None) -> Group:
    n = codes.shape[0]
    return group_of(codes, decks=decks, printed_jokers=jokers, players=np.full(n, 3),
                    cards=13, rules=RULES, tables=tables)  # fmt: skip


def test_repeat_bound_is_the_exact_chance_of_a_repeat_for_distinct_cards() -> None:
    """Two fair shoes of one deck share their first 3 cards with chance 1/(52*51*50): every
    sequence is equally likely, so the bound (the likeliest sequence's chance) is exact."""
    codes = np.tile(np.arange(52, dtype=np.uint8), (2, 1))
    group = _group(codes, decks=1, jokers=0)
    assert repeat_bound(group, 3) == pytest.approx(1 / (52 * 51 * 50))
    assert repeat_bound(group, PREFIX) < 1e-30


def test_a_repeated_shoe_is_a_repeat_naming_both_hands() -> None:
    codes = _fair(60, 3)
    codes[41] = codes[7]
    group = _group(codes)
    result = repeat_test(group)
    assert result.statistic == 1.0
    assert result.p_value is not None
    assert result.p_value < 1e-25
    assert result.hands == tuple(group.hand_ids.take([7, 41]).to_pylist())


def test_a_repeat_names_the_shoe_repeated_first_and_its_repeats_in_deal_order() -> None:
    """docs/rng.md, rng.repeat: "the finding names the hands"; schemas/output.md: its
    `hand_id` is the first repeated shoe's. With hand ids that do not sort in deal order
    (a blind tester's zz-early, mm-mid, aa-late), the shoe dealt first comes first and the
    effect says which shoes repeat it (it listed the three by id and named the last)."""
    codes = _fair(60, 5)
    codes[30, :PREFIX] = codes[4, :PREFIX]  # the first 24 cards again
    codes[59] = codes[4]
    group = _group(codes)
    ids = [f"id-{59 - i:02d}" for i in range(60)]  # the later a hand, the smaller its id
    group = dataclasses.replace(group, hand_ids=pa.array(ids, pa.string()))
    result = repeat_test(group)
    assert result.statistic == 2.0
    assert result.hands == ("id-55", "id-29", "id-00")
    assert "(id-29, id-00 repeat id-55)" in result.effect


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (1, 1), (2, 2), (3, 6)])
def test_a_shoes_cut_key_is_the_same_wherever_it_is_cut(decks: int, jokers: int) -> None:
    """Every rotation of a shoe has its key, and a start moved by the cut."""
    shoe = _fair(1, decks * 7 + jokers, decks, jokers)[0]
    length = shoe.size
    cuts = np.stack([np.roll(shoe, -r) for r in range(length)])
    keys, starts = cut_keys(cuts)
    assert (keys == keys[0]).all()
    assert ((starts + np.arange(length)) % length == starts[0]).all()
    assert keys.shape == (length, PREFIX)


def test_a_shoe_cut_from_an_earlier_shoe_of_another_table_is_found_naming_both_hands() -> None:
    """A platform dealing an earlier shoe of the night again, only cut (a blind tester's 5%
    of hands, from any table): no first cards repeat, yet the shoe is that shoe rotated.
    The effect says how many shoes are a cut of an earlier one and names them; the
    evidence is the earlier shoe's hand, then the cut one's."""
    codes = _fair(400, 9)
    codes[350] = np.roll(codes[20], -37)
    codes[390] = np.roll(codes[20], -90)
    codes[200] = np.roll(codes[120], -1)
    group = _group(codes, tables=np.repeat(np.arange(4), 100))
    ids = group.hand_ids.to_pylist()
    result = repeat_test(group)
    assert result.statistic == 3.0
    assert result.p_value is not None
    assert result.p_value < 1e-20
    assert result.hands == (ids[20], ids[350], ids[390], ids[120], ids[200])
    assert result.effect.startswith(
        f"0 shoes repeat an earlier shoe's first 24 cards; 3 shoes are a cut of an earlier "
        f"shoe ({ids[350]}, {ids[390]} are cuts of {ids[20]}; {ids[200]} is a cut of "
        f"{ids[120]}); a fair shuffle gives any of 79,800 pairs 24 cards in a row in common "
        "with chance below "
    )


def test_a_shoe_sharing_24_cards_in_a_row_with_an_earlier_one_is_found_and_not_called_a_cut(
) -> None:
    """The same 24 cards in a row, the rest of the shoe shuffled again: by chance no two
    fair shoes share them, so it is a repeat too, but not a cut of the earlier shoe."""
    codes = _fair(100, 13)
    keys, starts = cut_keys(codes[10:11])
    shared = np.roll(codes[10], -int(starts[0]))  # its canonical 24 cards first
    rest = shared[PREFIX:].copy()
    np.random.default_rng(1).shuffle(rest)
    codes[70] = np.roll(np.concatenate([shared[:PREFIX], rest]), 40)
    assert (cut_keys(codes[70:71])[0] == keys).all()  # the rest holds no smaller window
    group = _group(codes)
    ids = group.hand_ids.to_pylist()
    result = repeat_test(group)
    assert result.statistic == 1.0
    assert (f"0 shoes are a cut of an earlier shoe; 1 shoe shares 24 cards in a row with an "
            f"earlier shoe without being a cut of it ({ids[70]} shares 24 cards in a row "
            f"with {ids[10]})") in result.effect  # fmt: skip


def test_fair_shoes_share_no_24_cards_in_a_row() -> None:
    """Twenty thousand fair shoes of 53 cards (200 million pairs): none is a repeat or a
    cut of another."""
    result = repeat_test(_group(_fair(20_000, 17, 1, 1), decks=1, jokers=1))
    assert result.statistic == 0.0
    assert result.p_value == 1.0
    assert result.hands == ()
