"""Jokers and the verdict on one group: sequences, sets and their reasons (melds.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.cards import JOKER, RANK_OF, SUIT_OF, parse_code, shoe_composition
from audit.rules.melds import Jokers, MeldKind, Verdict, classify
from audit.rules.ruleset import Ruleset, load_preset

from .hands import presets, random_meld
from .support import FIRST_LIFE, NO_WILD, STANDARD, cards, variant

FIVES = Jokers.of_rank(5)
NINES = Jokers.of_rank(9)


def verdict(text: str, jokers: Jokers = NO_WILD, rules: Ruleset = STANDARD) -> Verdict:
    return classify(cards(text), jokers, rules)


def kind(text: str, jokers: Jokers = NO_WILD, rules: Ruleset = STANDARD) -> MeldKind:
    return verdict(text, jokers, rules).kind


def reason(text: str, jokers: Jokers = NO_WILD, rules: Ruleset = STANDARD) -> str:
    return verdict(text, jokers, rules).reason


# ------------------------------------------------------------------ jokers


def test_wild_card_makes_every_card_of_its_rank_a_joker_000() -> None:
    """`jokers.wild_rank_from_wild_card` = true. 000_: 'All cards of the same rank and any
    suit as the card selected are also considered jokers'; 001_: 'Printed jokers are always
    jokers.'"""
    jokers = Jokers.for_wild_card("9D", STANDARD)
    assert jokers.wild_rank == 9
    assert jokers.codes == frozenset(cards("9S 9H 9D 9C"))
    assert jokers.is_joker(JOKER)
    assert not any(jokers.is_joker(c) for c in cards("8D TD AS"))
    assert jokers.describe() == "printed jokers and every 9 (wild rank, from the wild card 9D)"
    assert Jokers.for_wild_card(parse_code("9D"), STANDARD) == jokers


def test_a_13_card_game_has_9_jokers_000() -> None:
    """`deal.shoes`, `jokers.wild_rank_from_wild_card`. 000_: 'Thus we would have 9 jokers in
    all for a round/game ... in 13 Card games': two printed jokers and the seven cards of the
    wild rank left once the wild card is turned up, or, when a printed joker is turned up,
    the other one and the eight aces."""
    (spec,) = STANDARD.shoes
    for wild in cards("9D AS KC 2H JK"):
        shoe = shoe_composition(spec.decks, spec.printed_jokers)
        shoe[wild] -= 1  # the wild card is turned up, out of play
        jokers = Jokers.for_wild_card(wild, STANDARD)
        assert sum(n for c, n in shoe.items() if jokers.is_joker(c)) == 9


def test_first_life_game_has_11_or_17_jokers_003() -> None:
    """`deal.shoes` (first-life-13). 003_: 'Thus in a 2 or 3 players game there are 11
    jokers in all and in a 4 to 4 players game there are 17 jokers in all'."""
    for players, expected in [(3, 11), (5, 17)]:
        spec = FIRST_LIFE.shoe_for(players)
        assert spec is not None
        shoe = shoe_composition(spec.decks, spec.printed_jokers)
        shoe[parse_code("9H")] -= 1
        jokers = Jokers.for_wild_card("9H", FIRST_LIFE)
        assert sum(n for c, n in shoe.items() if jokers.is_joker(c)) == expected


def test_printed_joker_turned_up_makes_aces_wild() -> None:
    """`jokers.printed_joker_wild_rank` = A. log-format.md: 'If the wild card is a printed
    joker, the ruleset says which rank is wild (usually aces).'"""
    jokers = Jokers.for_wild_card("JK", STANDARD)
    assert jokers.wild_rank == 1
    assert jokers.codes == frozenset(cards("AS AH AD AC"))
    assert Jokers.for_wild_card(JOKER, FIRST_LIFE).codes == jokers.codes


def test_printed_joker_turned_up_makes_the_rule_s_rank_wild(tmp_path: Path) -> None:
    """`jokers.printed_joker_wild_rank` set to K."""
    rules = variant(tmp_path, jokers__printed_joker_wild_rank="K")
    assert Jokers.for_wild_card("JK", rules).codes == frozenset(cards("KS KH KD KC"))


def test_without_a_wild_rank_only_printed_jokers_are_jokers(tmp_path: Path) -> None:
    """`jokers.wild_rank_from_wild_card` = false; and no wild card at all."""
    rules = variant(tmp_path, jokers__wild_rank_from_wild_card=False)
    for jokers in (Jokers.for_wild_card("9D", rules), Jokers.for_wild_card(None, STANDARD)):
        assert (jokers.wild_rank, jokers.codes) == (None, frozenset())
        assert jokers.describe() == "printed jokers only"
        assert jokers.is_joker(JOKER)


def test_no_up_and_down_jokers_in_13_card_rummy_000(tmp_path: Path) -> None:
    """`jokers.up_down_jokers` = false. 000_: the 'extra group of Up & Down Jokers' belongs
    to 21 and 27 Card Rummy. Turned on, the cards next to the wild card in its suit join."""
    assert not Jokers.for_wild_card("9D", STANDARD).is_joker(parse_code("8D"))
    rules = variant(tmp_path, jokers__up_down_jokers=True)
    assert Jokers.for_wild_card("9D", rules).codes == frozenset(cards("9S 9H 9D 9C 8D TD"))
    assert Jokers.for_wild_card("KC", rules).codes == frozenset(cards("KS KH KD KC QC AC"))


def test_jokers_of_rank_describe() -> None:
    assert Jokers.of_rank(10).describe() == "printed jokers and every 10 (wild rank)"
    assert Jokers.of_rank(None).describe() == "printed jokers only"


# ------------------------------------------------------------------ sequences


def test_a_meld_has_at_least_3_cards_001(tmp_path: Path) -> None:
    """`melds.min_size` = 3. 001_: 'A pure sequence is 3+ consecutive cards'; 'A set is
    3-4 cards'."""
    assert reason("3H 4H") == "3H 4H has 2 cards; a sequence or set needs at least 3"
    assert reason("3H") == "3H has 1 card; a sequence or set needs at least 3"
    assert kind("3H 4H 5H") is MeldKind.PURE_RUN
    rules = variant(tmp_path, melds__min_size=4)
    assert reason("3H 4H 5H", rules=rules) == (
        "3H 4H 5H has 3 cards; a sequence or set needs at least 4"
    )


def test_an_empty_group_is_not_a_meld() -> None:
    assert reason("") == "an empty group"
    assert not verdict("").is_valid


def test_sequence_is_consecutive_cards_of_one_suit_004() -> None:
    """`melds.min_size`. 004_: 'Sequence: Three or more consecutive cards of the same suit.
    (e.g., 4♥ 5♥ 6♥)'; 'Pure Sequence: A sequence without any joker.'"""
    assert verdict("4H 5H 6H") == Verdict(
        MeldKind.PURE_RUN, "4H 5H 6H is a sequence without a joker"
    )
    assert kind("6H 4H 5H") is MeldKind.PURE_RUN
    assert (
        reason("4H 5S 6H")
        == "4H 5S 6H is neither a sequence nor a set: its cards mix suits and ranks"
    )
    assert reason("4H 5H 7H") == (
        "4H 5H 7H is not a sequence: its cards need 1 joker to fill the gaps and it has 0"
    )
    assert reason("4H 5H 8H JK") == (
        "4H 5H 8H JK is not a sequence: its cards need 2 jokers to fill the gaps and it has 1"
    )
    assert reason("4H 4H 5H") == "4H 4H 5H is not a sequence: a rank appears twice"


@pytest.mark.parametrize(
    "run", ["4H 5H 6H", "9H TH JH", "9H TH JH QH", "AH 2H 3H 4H", "8H 9H TH JH QH KH"]
)
def test_pure_run_examples_003(run: str) -> None:
    """`melds.min_size`. 003_: 'Examples of valid runs are 4-5-6 , 9-10-J, 9-10-J-Q,
    A-2-3-4 and 8-9-10-J-Q-K. These are pure or straight or natural runs'."""
    assert verdict(run).kind is MeldKind.PURE_RUN
    assert verdict(run, rules=FIRST_LIFE).kind is MeldKind.PURE_RUN


@pytest.mark.parametrize("run", ["4H 5H JK", "2H 3H JK 5H"])
def test_impure_run_examples_003(run: str) -> None:
    """003_: 'Examples of non pure runs are 4-5-joker, 2-3-joker-5.'"""
    for rules in (STANDARD, FIRST_LIFE):
        assert verdict(run, rules=rules) == Verdict(
            MeldKind.IMPURE_RUN, f"{run} is a sequence with 1 joker", 1
        )


def test_pure_sequence_has_no_joker_001() -> None:
    """`declaration.min_pure_runs`. 001_: 'Jokers can replace any card in impure sequences
    and sets, but never in pure sequences.'"""
    assert kind("3H JK 5H") is MeldKind.IMPURE_RUN
    assert kind("3H 4H 5H JK") is MeldKind.IMPURE_RUN
    assert verdict("3H 4H 5S", FIVES).kind is MeldKind.IMPURE_RUN  # 5S stands in for 5H


def test_ace_low_run_a_2_3_003(tmp_path: Path) -> None:
    """`melds.ace_low` = true. 003_: 'with ace you can form the run A-2-3 or Q-K-A'."""
    assert kind("AH 2H 3H") is MeldKind.PURE_RUN
    assert kind("2H 3H AH") is MeldKind.PURE_RUN
    rules = variant(tmp_path, melds__ace_low=False)
    assert reason("AH 2H 3H", rules=rules).startswith("AH 2H 3H is not a sequence: ")
    assert kind("QH KH AH", rules=rules) is MeldKind.PURE_RUN


def test_ace_high_run_q_k_a_003(tmp_path: Path) -> None:
    """`melds.ace_high` = true. 003_: 'with ace you can form the run A-2-3 or Q-K-A';
    002_: 'The ace sits at either end'."""
    assert kind("QH KH AH") is MeldKind.PURE_RUN
    assert kind("AH JK KH") is MeldKind.IMPURE_RUN
    rules = variant(tmp_path, melds__ace_high=False)
    assert reason("QH KH AH", rules=rules).startswith("QH KH AH is not a sequence: ")
    assert kind("AH 2H 3H", rules=rules) is MeldKind.PURE_RUN


def test_run_has_at_most_14_cards_ace_to_ace_003() -> None:
    """003_: 'The valid order being A-2-3-4-5-6-7-8-9-10-J-Q-K-A.'"""
    every_heart = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    assert kind(every_heart + " AH") is MeldKind.PURE_RUN
    assert kind(every_heart + " JK") is MeldKind.IMPURE_RUN
    assert reason(every_heart + " JK JK") == (
        f"{every_heart} JK JK is not a sequence: a sequence has at most 14 cards"
    )


def test_run_may_not_turn_the_corner_003(tmp_path: Path) -> None:
    """`melds.run_wraps` = false. 003_: 'but you can not form K-A-2'; 002_: 'a run may not
    turn the corner: K-A-2 is not a run.'"""
    for rules in (STANDARD, FIRST_LIFE):
        assert reason("KH AH 2H", rules=rules) == (
            "KH AH 2H is not a sequence: a sequence may not turn the corner from K through A to 2 "
            "(melds.run_wraps)"
        )
        assert not verdict("QH KH AH 2H", rules=rules).is_valid
        assert not verdict("KH JK 2H", NO_WILD, rules).is_valid
    # A joker that can only be the ace turning the corner is refused for the corner, not
    # for "10 jokers to fill the gaps" (a blind tester; docs/rules-21-27.md quotes IRS:
    # 'K-A-2 is not considered as a valid sequence (even if Ace is a joker)').
    corner = "a sequence may not turn the corner from K through A to 2 (melds.run_wraps)"
    assert reason("KH JK 2H", NO_WILD) == f"KH JK 2H is not a sequence: {corner}"
    assert reason("QH KH JK JK 3H", NO_WILD) == f"QH KH JK JK 3H is not a sequence: {corner}"
    assert reason("KH JK 4H", NO_WILD) == (
        "KH JK 4H is not a sequence: its cards need 8 jokers to fill the gaps and it has 1"
    )
    wraps = variant(tmp_path, melds__run_wraps=True)
    assert kind("KH AH 2H", rules=wraps) is MeldKind.PURE_RUN
    assert reason("2H 5H 9H", rules=wraps) == (
        "2H 5H 9H is not a sequence: its ranks do not fit in one sequence"
    )
    assert reason("4H 4H 5H", rules=wraps) == "4H 4H 5H is not a sequence: a rank appears twice"


# ------------------------------------------------------------------ sets


def test_set_is_one_rank_in_different_suits_001() -> None:
    """`melds.max_set_size`. 001_: 'A set is 3-4 cards of the same rank from different suits
    (example: 8♥ 8♠ 8♦). Two cards from the same suit in a set make it invalid.'"""
    assert verdict("8H 8S 8D") == Verdict(MeldKind.SET, "8H 8S 8D is a set")
    assert kind("8H 8S 8D 8C") is MeldKind.SET
    assert reason("8H 8S 8H") == (
        "8H 8S 8H is not a set: a set holds each suit once, and hearts appears twice"
    )


def test_three_nines_are_a_set_not_a_run_002() -> None:
    """002_: 'A set is not a run. Three nines are a set however you look at them.'"""
    assert kind("9S 9H 9D") is MeldKind.SET
    assert not verdict("9S 9H 9D").is_run


def test_set_of_five_needs_a_joker_000(tmp_path: Path) -> None:
    """`melds.max_set_size` = 5. 000_: 'a set too can be made of 3/4/5 (5 with Joker) cards'."""
    assert verdict("9S 9H 9D 9C JK") == Verdict(
        MeldKind.SET, "9S 9H 9D 9C JK is a set with 1 joker", 1
    )
    assert reason("9S 9H 9D 9C 9S") == (
        "9S 9H 9D 9C 9S is not a set: a set holds each suit once, and spades appears twice"
    )
    assert reason("9S 9H 9D 9C JK JK") == (
        "9S 9H 9D 9C JK JK is not a set: a set has at most 5 cards, and this one has 6 "
        "(melds.max_set_size)"
    )
    four = variant(tmp_path, melds__max_set_size=4)  # 001_, 004_: 'Three or four cards'
    assert reason("9S 9H 9D 9C JK", rules=four) == (
        "9S 9H 9D 9C JK is not a set: a set has at most 4 cards, and this one has 5 "
        "(melds.max_set_size)"
    )


def test_set_may_use_any_number_of_jokers_001(tmp_path: Path) -> None:
    """`melds.max_jokers_per_set` = unlimited. 001_: 'Jokers can be used in sets'."""
    assert verdict("9S JK JK", rules=FIRST_LIFE) == Verdict(
        MeldKind.SET, "9S JK JK is a set with 2 jokers", 2
    )
    assert kind("9S 9H JK JK JK", rules=FIRST_LIFE) is MeldKind.SET
    two = variant(tmp_path, "first-life-13", melds__max_jokers_per_set=2)
    assert reason("9S JK JK JK", rules=two) == (
        "9S JK JK JK is neither a sequence nor a set: a set may use at most 2 jokers "
        "(melds.max_jokers_per_set); and a sequence may use at most 1 joker, and this one "
        "needs 3 (melds.max_jokers_per_run)"
    )
    assert reason("9S 9H JK JK JK", rules=two) == (
        "9S 9H JK JK JK is not a set: a set may use at most 2 jokers (melds.max_jokers_per_set)"
    )


def test_set_joker_limit_of_one_reads_in_the_singular(tmp_path: Path) -> None:
    """`melds.max_jokers_per_set` = 1: the reason must read 'at most 1 joker'."""
    one = variant(tmp_path, "first-life-13", melds__max_jokers_per_set=1)
    assert (
        reason("9S 9H JK JK", rules=one)
        == "9S 9H JK JK is not a set: a set may use at most 1 joker (melds.max_jokers_per_set)"
    )


# ------------------------------------------------------------------ jokers in melds


def test_sequence_may_use_any_number_of_jokers_000() -> None:
    """`melds.max_jokers_per_run` = unlimited (standard-13). 000_: 'A sequence of at least
    three cards of the same suit with or without the use of a joker'."""
    assert verdict("4H JK 6H JK 8H") == Verdict(
        MeldKind.IMPURE_RUN, "4H JK 6H JK 8H is a sequence with 2 jokers", 2
    )
    assert verdict("5S JK JK JK").jokers == 3


def test_first_life_one_joker_per_run_003(tmp_path: Path) -> None:
    """`melds.max_jokers_per_run` = 1 (first-life-13). 003_: 'In a run you can use only one
    joker as a wild card'."""
    assert kind("4H JK 6H 7H", rules=FIRST_LIFE) is MeldKind.IMPURE_RUN
    assert reason("4H JK 6H JK 8H", rules=FIRST_LIFE) == (
        "4H JK 6H JK 8H is not a sequence: a sequence may use at most 1 joker, and this one "
        "needs 2 (melds.max_jokers_per_run)"
    )
    assert reason("4H 5S 6D 7H", FIVES, FIRST_LIFE) == (
        "4H 5S 6D 7H is neither a sequence nor a set: its cards mix suits and ranks"
    )
    two = variant(tmp_path, melds__max_jokers_per_run=2)  # 002_: 'At most 2 wild cards in one meld'
    assert reason("4H JK JK JK 8H", rules=two) == (
        "4H JK JK JK 8H is not a sequence: "
        "a sequence may use at most 2 jokers, and this one needs 3 (melds.max_jokers_per_run)"
    )


def test_wild_card_in_natural_place_keeps_run_pure(tmp_path: Path) -> None:
    """`melds.wild_natural_keeps_pure` = true: 'the 5 of hearts in 4-5-6 of hearts when fives
    are wild ... is that card, so the sequence is still pure' (the preset's choice)."""
    assert verdict("4H 5H 6H", FIVES) == Verdict(
        MeldKind.PURE_RUN, "4H 5H 6H is a pure sequence: 5H stands for itself, not as a joker"
    )
    assert verdict("4H 5S 6H", FIVES).kind is MeldKind.IMPURE_RUN  # 5S stands in for 5H
    assert verdict("4H 5H 6H 5C", FIVES).jokers == 1  # 5C extends it as a joker
    off = variant(tmp_path, melds__wild_natural_keeps_pure=False)
    assert verdict("4H 5H 6H", FIVES, off) == Verdict(
        MeldKind.IMPURE_RUN, "4H 5H 6H is a sequence with 1 joker", 1
    )


def test_wild_card_in_natural_place_spares_a_joker_in_first_life_003() -> None:
    """`melds.max_jokers_per_run` = 1, `melds.wild_natural_keeps_pure` = true: with nines
    wild, 9S TS QS 9D is 9-10-J-Q with one joker (9D), 9S standing as itself."""
    assert verdict("9S TS QS 9D", NINES, FIRST_LIFE) == Verdict(
        MeldKind.IMPURE_RUN, "9S TS QS 9D is a sequence with 1 joker", 1
    )


def test_wild_card_reason_reads_it_as_a_joker() -> None:
    """With fives wild, 5S is a joker: 4H 5S 9H fails for its gaps, not for its suits."""
    assert reason("4H 5S 9H", FIVES) == (
        "4H 5S 9H is not a sequence: its cards need 4 jokers to fill the gaps and it has 1"
    )


def test_jokers_only_group_option(tmp_path: Path) -> None:
    """`melds.jokers_only_group` = leftover. 003_: 'If you have unused jokers, select these
    jokers and put on a separate plank.' The options 'run' and 'invalid' as the rule says."""
    for rules in (STANDARD, FIRST_LIFE):
        assert verdict("JK JK JK", rules=rules) == Verdict(
            MeldKind.JOKERS, "JK JK JK are jokers put aside together", 3
        )
        assert verdict("JK", rules=rules).is_valid
        assert not verdict("JK JK JK", rules=rules).is_run
    as_run = variant(tmp_path, melds__jokers_only_group="run")
    assert verdict("JK JK JK", rules=as_run) == Verdict(
        MeldKind.IMPURE_RUN, "JK JK JK are jokers standing for a sequence", 3
    )
    refused = (
        "has no real card to form a sequence or set around "
        "(melds.jokers_only_group does not allow a group of jokers alone)"
    )
    assert reason("JK JK", rules=as_run) == f"JK JK {refused}"
    one_per_run = variant(tmp_path, "first-life-13", melds__jokers_only_group="run")
    assert reason("JK JK JK", rules=one_per_run) == f"JK JK JK {refused}"
    invalid = variant(tmp_path, melds__jokers_only_group="invalid")
    assert reason("JK JK JK", rules=invalid) == f"JK JK JK {refused}"
    assert reason("JK", rules=invalid) == f"JK {refused}"


def test_tunnela_is_not_a_meld_in_13_card_rummy_000(tmp_path: Path) -> None:
    """`melds.tunnela` = false. 000_: Tunnela is a term of 21 and 27 Card Rummy."""
    assert reason("7H 7H 7H") == (
        "7H 7H 7H is neither a sequence nor a set: a set holds each suit once, and hearts "
        "appears 3 times"  # not "twice" (a blind tester's 5C 5C 5C)
    )
    rules = variant(tmp_path, melds__tunnela=True)
    assert verdict("7H 7H 7H", rules=rules) == Verdict(
        MeldKind.TUNNELA, "7H 7H 7H is a tunnela: three identical cards"
    )
    assert verdict("7H 7H 7H 7H", rules=rules).kind is MeldKind.INVALID
    assert verdict("7H 7H 7H", Jokers.of_rank(7), rules).kind is not MeldKind.TUNNELA
    # a printed joker is not a third identical card: QS QS JK is a set with a joker at most
    assert verdict("QS QS JK", rules=rules).kind is not MeldKind.TUNNELA


# ------------------------------------------------------------------ properties


@st.composite
def groups_to_judge(draw: st.DrawFn) -> tuple[list[int], Jokers, Ruleset]:
    """A valid meld, often spoilt: a card swapped for any card, one added or one dropped."""
    rng = draw(st.randoms(use_true_random=False))
    rules = load_preset(draw(presets))
    jokers = Jokers.for_wild_card(draw(st.integers(0, 52)), rules)
    meld = None
    while meld is None:
        meld = random_meld(rng, shoe_composition(3, 6), jokers, rules)
    match rng.randrange(4):
        case 0:
            meld[rng.randrange(len(meld))] = rng.randrange(53)
        case 1:
            meld.insert(rng.randrange(len(meld) + 1), rng.randrange(53))
        case 2:
            del meld[rng.randrange(len(meld))]
        case _:
            pass
    return meld, jokers, rules


@given(groups_to_judge(), st.randoms(use_true_random=False))
def test_order_of_cards_never_changes_a_verdict(
    case: tuple[list[int], Jokers, Ruleset], rng: random.Random
) -> None:
    group, jokers, rules = case
    shuffled = rng.sample(group, len(group))
    first, second = classify(group, jokers, rules), classify(shuffled, jokers, rules)
    assert (first.kind, first.jokers) == (second.kind, second.jokers)


@given(groups_to_judge())
def test_a_valid_group_has_natural_cards_of_one_suit_or_one_rank(
    case: tuple[list[int], Jokers, Ruleset],
) -> None:
    """The premise of the brute force (brute.py): valid melds lie in one suit or one rank."""
    group, jokers, rules = case
    naturals = [c for c in group if not jokers.is_joker(c)]
    if classify(group, jokers, rules).is_valid:
        assert len({SUIT_OF[c] for c in naturals}) <= 1 or len({RANK_OF[c] for c in naturals}) <= 1


def test_jokers_only_group_is_a_group_where_no_card_stands_as_itself_003() -> None:
    """`melds.jokers_only_group` (003_: 'If you have unused jokers, select these jokers
    and put on a separate plank') decides a group of jokers alone; with fives wild a 5
    beside jokers stands in its own place (`melds.wild_natural_keeps_pure`), so JK 5S 5D
    is an impure sequence, not a group of jokers (a blind tester read it as three jokers;
    the preset's choice now says so), while JK JK JK is put aside."""
    fives = Jokers.of_rank(5)
    assert kind("JK 5S 5D", fives) is MeldKind.IMPURE_RUN
    assert verdict("5S 5D 5H", fives).is_valid
    assert kind("JK JK JK", fives) is MeldKind.JOKERS
    assert "a wild-rank card beside jokers stands in its own place" in (
        STANDARD.rule("melds.jokers_only_group").choice
    )


def test_a_set_of_the_wild_rank_counts_as_a_sequence_and_says_it_is_a_set_001() -> None:
    """`melds.wild_natural_keeps_pure` (standard-13): three nines when 9 is wild are jokers
    that can stand for a sequence, which counts toward the declaration's sequences; they are
    also a set as printed (001_: 'A set is 3-4 cards of the same rank from different
    suits'), and the reason says both (a blind tester read "a sequence with 2 jokers" to a
    player who laid three nines)."""
    nines = verdict("9H 9S 9D", jokers=Jokers.of_rank(9))
    assert nines == Verdict(
        MeldKind.IMPURE_RUN,
        "9H 9S 9D is a set of 9s, and as every 9 is a joker it counts as a sequence with 2 "
        "jokers",
        2,
    )
    # a printed joker is no 9, and two nines of one suit are no set: the plain words stand
    assert verdict("9H 9S JK", jokers=Jokers.of_rank(9)).reason == (
        "9H 9S JK is a sequence with 2 jokers"
    )
    assert verdict("9H 9H 9D", jokers=Jokers.of_rank(9)).reason == (
        "9H 9H 9D is a sequence with 2 jokers"
    )
