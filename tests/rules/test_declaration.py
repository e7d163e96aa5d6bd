"""Is a declaration valid, and every reason it is not (declaration.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.rules.declaration import check_declaration, check_groups, unmet_requirements
from audit.rules.melds import Jokers, MeldKind
from audit.rules.ruleset import Ruleset, load_preset

from .hands import presets, random_partition, rngs, seeded_deal, valid_declaration
from .support import FIRST_LIFE, NO_WILD, STANDARD, cards, flat, groups, variant


def reasons(text: str, rules: Ruleset = STANDARD, jokers: Jokers = NO_WILD) -> tuple[str, ...]:
    """The reasons a declaration of the groups in ``text`` (``/`` between groups) fails."""
    return check_declaration(flat(text), groups(text), jokers, rules).reasons


VALID_13 = "2H 3H 4H / 5S 6S JK / 9C 9D 9S / KD KC KS 7H"


def test_a_valid_declaration_of_13_cards_001() -> None:
    """001_: 'A valid declaration requires minimum 2 sequences, with at least 1 pure
    sequence'."""
    check = check_declaration(flat(VALID_13), groups(VALID_13), Jokers.of_rank(7), STANDARD)
    assert check.valid
    assert check.reasons == ()
    assert [g.text for g in check.groups] == [part.strip() for part in VALID_13.split("/")]
    assert [g.verdict.kind for g in check.groups] == [
        MeldKind.PURE_RUN,
        MeldKind.IMPURE_RUN,
        MeldKind.SET,
        MeldKind.SET,
    ]


@pytest.mark.parametrize(
    "arrangement",
    [
        "2H 3H 4H / 5S 6S 7S 8S / 9C 9D 9S / KD KC KS",  # 3+3+3+4
        "2H 3H 4H 5H 6H / 5S 6S 7S 8S JK / 9C 9D 9S",  # 5+5+3
        "2H 3H 4H 5H / 5S 6S 7S 8S / 9C 9D 9S 9H JK",  # 4+4+5
    ],
)
def test_thirteen_cards_as_3_3_3_4_or_5_5_3_or_4_4_5_000(arrangement: str) -> None:
    """000_: 'For 13 Cards (3+3+3+4 or 5+5+3 or 4+4+5)'."""
    assert len(flat(arrangement)) == 13
    for rules in (STANDARD, FIRST_LIFE):
        assert reasons(arrangement, rules) == ()


def test_declaration_needs_two_sequences_000() -> None:
    """`declaration.min_runs` = 2. 000_: 'It is mandatory to form two groups which are
    sequences'; 004_: 'At least two sequences.'"""
    assert reasons("2H 3H 4H / 9C 9D 9S / KD KC KS / 7H 7S 7D 7C") == (
        "it has 1 sequence; a declaration needs at least 2 sequences",
    )
    assert reasons("2C 2D 2H / 9C 9D 9S / KD KC KS / 7H 7S 7D 7C") == (
        "it has no sequences; a declaration needs at least 2 sequences",
        "it has no pure sequence (a sequence without a joker)",
    )


def test_melds_min_size_groups_too_small_are_one_reason_001() -> None:
    """`melds.min_size` = 3. 001_: 'Players must form valid sets and sequences'; a set or
    sequence holds 3 cards at least. Groups of one or two cards are no melds, said once for
    them all (a blind tester's declaration of single cards read as thirteen clauses); one
    such group keeps its own words, and the finding cites melds.min_size either way."""
    text = "2H 3H 4H / 5S / 6S / 9C 9D / 9S KD KC / KS 7H 7D"
    check = check_declaration(flat(text), groups(text), NO_WILD, STANDARD)
    assert check.reasons[0] == (
        "3 groups have fewer than 3 cards, the fewest a sequence or set may have: 5S, 6S, "
        "9C 9D"
    )
    assert check.broken_rule() == "melds.min_size"
    assert len([r for r in check.reasons if "fewer than 3 cards" in r]) == 1
    one = reasons("2H 3H 4H / 5S 6S 7S / 9C 9D / 9S KD KC KS 7H")
    assert one[0] == "9C 9D has 2 cards; a sequence or set needs at least 3"


def test_declaration_needs_a_pure_sequence_001() -> None:
    """`declaration.min_pure_runs` = 1. 001_: 'Every valid declaration must have at least one
    pure sequence — this is non-negotiable.'"""
    assert reasons("2H 3H JK / 5S 6S JK / 9C 9D 9S / KD KC KS KH") == (
        "it has no pure sequence (a sequence without a joker)",
    )


def test_second_sequence_may_be_pure_or_impure_004() -> None:
    """`declaration.min_runs`. 004_: 'One additional sequence (pure or impure)'."""
    assert reasons("2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KC KS KH") == ()
    assert reasons("2H 3H 4H / 5S 6S JK / 9C 9D 9S / KD KC KS KH") == ()


def test_requirement_counts_come_from_the_rules(tmp_path: Path) -> None:
    """`declaration.min_runs`, `declaration.min_pure_runs` set higher."""
    rules = variant(tmp_path, declaration__min_runs=3, declaration__min_pure_runs=2)
    assert reasons("2H 3H 4H / 5S 6S JK / 9C 9D 9S / KD KC KS KH", rules) == (
        "it has 2 sequences; a declaration needs at least 3 sequences",
        "it has 1 pure sequence; it needs 2",
    )
    assert reasons("2H 3H 4H / 5S 6S 7S / 9C TC JK / KD KC KS KH", rules) == ()


def test_first_life_needs_a_run_of_four_003() -> None:
    """`declaration.long_run_length` = 4 (first-life-13). 003_: 'Either First Life or
    Second Life must have 4 or more cards.'"""
    short = "2H 3H 4H / 5S 6S JK / 9C 9D 9S / KD KC KS KH"
    assert reasons(short, FIRST_LIFE) == ("none of its sequences has 4 or more cards",)
    assert reasons(short, STANDARD) == ()
    assert reasons("2H 3H 4H 5H / 5S 6S JK / 9C 9D 9S / KD KC KS", FIRST_LIFE) == ()
    assert reasons("2H 3H 4H / 5S 6S JK 8S / 9C 9D 9S / KD KC KS", FIRST_LIFE) == ()
    # a third sequence may be the long one: first life 2-3-4, second life 9-10-J-Q
    assert reasons("2H 3H 4H / 5S 6S JK / 9C TC JC JK / KD KC KS", FIRST_LIFE) == ()


def test_first_life_and_second_life_are_both_needed_003() -> None:
    """`declaration.min_runs`, `declaration.min_pure_runs`, `declaration.long_run_length`.
    003_: 'A valid declare must have minimum two runs and out of these runs one run must be
    pure (called First Life).'"""
    assert reasons("2H 3H 4H 5H / 9C 9D 9S / KD KC KS / 7H 7S 7D", FIRST_LIFE) == (
        "it has 1 sequence; a declaration needs at least 2 sequences",
    )
    assert reasons("2H 3H JK 5H / 5S 6S JK / 9C 9D 9S / KD KC KS", FIRST_LIFE) == (
        "it has no pure sequence (a sequence without a joker)",
    )


def test_every_card_must_be_in_a_valid_group_004() -> None:
    """004_: 'All remaining cards should be arranged into valid sets or sequences.'"""
    assert reasons("2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD QC 4S") == (
        "KD QC 4S is neither a sequence nor a set: its cards mix suits and ranks",
    )


def test_jokers_put_aside_on_a_separate_plank_003() -> None:
    """`melds.jokers_only_group` = leftover. 003_: 'If you have unused jokers, select these
    jokers and put on a separate plank.'"""
    assert reasons("2H 3H 4H / 5S 6S 7S 8S / 9C 9D 9S / JK JK / KD KC") == (
        "KD KC has 2 cards; a sequence or set needs at least 3",
    )
    assert reasons("2H 3H 4H / 5S 6S 7S 8S / 9C 9D 9S / JK JK / KD KC KS") == ()


def test_declaration_groups_hold_exactly_the_players_cards() -> None:
    """`declaration.groups_exact`. 000_: 'the player needs to validate all the Sequences and
    Sets he has made from his 10/13/21/27 cards'. Every reason is given, in order: cards,
    groups, requirement."""
    declared = groups("2H 3H 4H / 5S 6S 5H / 9C 9D 9S 9S")
    hand = cards("2H 3H 4H 5S 6S JK 9C 9D 9S 9H 9H")
    assert check_declaration(hand, declared, NO_WILD, STANDARD).reasons == (
        "the groups hold 9S 5H, which the player does not have",
        "the groups leave out 9H 9H JK from the player's cards",
        "5S 6S 5H is neither a sequence nor a set: its cards mix suits and ranks",
        "9C 9D 9S 9S is not a set: a set holds each suit once, and spades appears twice",
        "it has 1 sequence; a declaration needs at least 2 sequences",
    )


def test_unmet_requirements_of_no_groups() -> None:
    assert unmet_requirements((), STANDARD) == [
        "it has no sequences; a declaration needs at least 2 sequences",
        "it has no pure sequence (a sequence without a joker)",
    ]
    assert unmet_requirements((), FIRST_LIFE) == unmet_requirements((), STANDARD)


# ------------------------------------------------------------------ properties


@st.composite
def arrangements(draw: st.DrawFn) -> tuple[list[int], list[list[int]], Jokers, Ruleset]:
    """A valid declaration half the time, else a seeded hand cut into random groups."""
    rng = draw(rngs)
    if draw(st.booleans()):
        rules = load_preset(draw(presets))
        melds, jokers = valid_declaration(rng, rules)
        return [c for g in melds for c in g], melds, jokers, rules
    deal = seeded_deal(draw(st.integers(0, 2**32)))
    return list(deal.hand), random_partition(rng, list(deal.hand)), deal.jokers, deal.rules


@given(arrangements(), st.randoms(use_true_random=False))
def test_order_of_groups_and_cards_never_changes_the_verdict(
    case: tuple[list[int], list[list[int]], Jokers, Ruleset], rng: random.Random
) -> None:
    hand, arranged, jokers, rules = case
    shuffled = [rng.sample(g, len(g)) for g in rng.sample(arranged, len(arranged))]
    first = check_declaration(hand, arranged, jokers, rules)
    second = check_declaration(rng.sample(hand, len(hand)), shuffled, jokers, rules)
    assert first.valid == second.valid
    assert len(first.reasons) == len(second.reasons)
    assert unmet_requirements(first.groups, rules) == unmet_requirements(second.groups, rules)


@given(rngs, presets)
def test_built_declarations_are_valid_and_their_groups_are_melds(
    rng: random.Random, preset: str
) -> None:
    """The declarations the property tests build (hands.valid_declaration) are what they say."""
    rules = load_preset(preset)
    melds, jokers = valid_declaration(rng, rules)
    assert all(g.verdict.is_valid for g in check_groups(melds, jokers, rules))
    assert unmet_requirements(check_groups(melds, jokers, rules), rules) == []


@pytest.mark.parametrize(
    ("text", "rules", "key"),
    [
        # 003_: 'but you can not form K-A-2'
        ("2H 3H 4H / KS AS 2S / 9C 9D 9S / KD KC KH QH", STANDARD, "melds.run_wraps"),
        # 001_: 'Two cards from the same suit in a set make it invalid'
        ("2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD KD KC KH", STANDARD, "melds.max_set_size"),
        # 000_: 'a set too can be made of 3/4/5 (5 with Joker) cards'
        ("2H 3H 4H / 5S 6S 7S / 9C 9D 9S 9H JK JK / KD", STANDARD, "melds.max_set_size"),
        # 003_: 'Either First Life or Second Life must have 4 or more cards'
        ("2H 3H 4H / 5S 6S JK / 9C 9D 9S / KD KC KS KH", FIRST_LIFE, "declaration.long_run_length"),
        # 000_: 'It is mandatory to form two groups which are sequences'
        ("2H 3H 4H 5H / 9C 9D 9S / KD KC KS / 7H 7S 7D", STANDARD, "declaration.min_runs"),
        # 000_: 'one has to be Pure sequence (without wild card or joker)'
        ("2H 3H JK / 5S 6S JK / 9C 9D 9S / KD KC KS KH", STANDARD, "declaration.min_pure_runs"),
        # 004_: 'All remaining cards should be arranged into valid sets or sequences'
        ("2H 3H 4H / 5S 6S 7S / 9C 9D 9S / KD QC 4S", STANDARD, "declaration.groups_exact"),
    ],
)
def test_the_rule_a_wrong_declaration_breaks_is_the_one_its_first_reason_gives(
    text: str, rules: Ruleset, key: str
) -> None:
    """A finding on a declaration cites the rule it breaks, not always the pure-sequence
    rule (audit-output.md: `rule` is 'the rule behind it')."""
    check = check_declaration(flat(text), groups(text), NO_WILD, rules)
    assert not check.valid
    assert len(check.keys) == len(check.reasons)
    assert check.broken_rule() == key, check.reasons
