"""The points of an arrangement, card by card (scoring.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.cards import JOKER, Rank, code_of, parse_code
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, load_preset
from audit.rules.scoring import Score, card_points, score_arrangement

from .hands import presets, random_partition, rngs, seeded_deal, valid_declaration
from .support import FIRST_LIFE, NO_WILD, STANDARD, cards, groups, variant


def score(text: str, jokers: Jokers = NO_WILD, rules: Ruleset = STANDARD, **kw: int) -> Score:
    return score_arrangement(groups(text), jokers, rules, **kw)


@pytest.mark.parametrize("rank", list(Rank))
def test_card_points_face_value_and_10_for_a_k_q_j_001(rank: Rank) -> None:
    """`points.card_points`. 001_: 'Ungrouped face cards (A, K, Q, J) | 10 points each';
    'Ungrouped number cards | Face value'; 000_: 'a 3 of Spade is valued at 3 points, 10 of
    Diamond scores 10 points and 2 of Heart will score 2 points'."""
    face_value = {"A": 10, "T": 10, "J": 10, "Q": 10, "K": 10}.get(rank.value)
    expected = face_value if face_value is not None else int(rank.value)
    for suit in range(4):
        for rules in (STANDARD, FIRST_LIFE):
            assert card_points([code_of(rank.number, suit)], NO_WILD, rules) == expected


def test_jokers_count_0_points_004() -> None:
    """`points.joker_points` = 0. 004_: 'Jokers: 0 points'; 001_: 'If you get the wild joker
    card itself (the exact card selected), it carries 0 points if unmatched.'"""
    jokers = Jokers.for_wild_card("KD", STANDARD)
    assert card_points([JOKER], jokers, STANDARD) == 0
    assert card_points(cards("KD KS KH KC"), jokers, STANDARD) == 0
    assert card_points(cards("KD"), NO_WILD, STANDARD) == 10
    assert score("KD KS / JK / 2H", jokers).points == 0 + 0 + 2


def test_joker_points_come_from_the_rules(tmp_path: Path) -> None:
    """`points.joker_points` set to 5 (002_ scores jokers too, but at 0: '0 for a joker')."""
    rules = variant(tmp_path, points__joker_points=5)
    assert card_points([JOKER, parse_code("9S"), parse_code("4C")], Jokers.of_rank(9), rules) == 14


def test_cap_is_80_points_000() -> None:
    """`points.cap` = 80. 000_: 'A maximum Full count is 80 points'; 001_: 'Maximum points
    cap | 80 points'; 004_: 'The maximum penalty per game is capped at 80 points.'"""
    worst = "KS KH KD / QS QH QD / JS JH JD / TS TH TD AS"
    s = score(worst)
    assert (s.raw, s.points, s.cap) == (130, 80, 80)
    assert s.summary().startswith(
        "every card counts because it has no sequences; a declaration needs at least 2 sequences;"
        " the cards"
    )
    assert s.summary().endswith(
        " KS KH KD QS QH QD JS JH JD TS TH TD AS, are worth 130, capped at 80"
    )
    assert score(worst, rules=FIRST_LIFE).points == 80


def test_first_hand_show_cap_is_40_000() -> None:
    """`points.first_hand_show_cap` = 40. 000_: 'Point calculations for players who have not
    yet played their first turn will be actual calculated points of melds or 40 points
    whichever is lower.'"""
    assert STANDARD.first_hand_show_cap == FIRST_LIFE.first_hand_show_cap == 40
    worst = "KS KH KD / QS QH QD / JS JH JD / TS TH TD AS"
    assert score(worst, cap=STANDARD.first_hand_show_cap).points == 40
    assert score("2S / 3H / 4D", cap=40).points == 9


def test_unmatched_cards_count_when_the_requirement_is_met_004() -> None:
    """004_: 'The losing players' scores are the total of all unmatched cards.'"""
    s = score("2H 3H 4H / 9S TS JK / KD QC 4S", Jokers.of_rank(7))
    assert (s.points, s.counted, s.requirement_met) == (24, tuple(cards("KD QC 4S")), True)
    assert s.summary() == "the cards left unmatched, KD QC 4S, are worth 24"


def test_valid_groups_count_0_points_001() -> None:
    """001_: 'Valid groups (sequences/sets) | 0 points for those cards'; 'The first player to
    arrange all 13 cards and declare wins with 0 points'."""
    s = score("2H 3H 4H / 5S 6S JK / 9C 9D 9S / KD KC KS KH")
    assert (s.points, s.raw, s.counted, s.unmet) == (0, 0, (), ())
    assert s.summary() == "every card is in a valid sequence or set: 0 points"


def test_unmet_requirement_counts_every_card_003() -> None:
    """`points.unmet_requirement` = all_cards. 003_: 'A player must meet the requirements of
    minimum two runs (First Life and Second Life) else all the 13 cards are treated as
    unmatched and are counted.'"""
    s = score("2H 3H 4H / 9C 9D 9S / KD KC KS / 5C")
    assert s.unmet == ("it has 1 sequence; a declaration needs at least 2 sequences",)
    assert not s.requirement_met
    assert s.raw == 2 + 3 + 4 + 27 + 30 + 5
    assert s.points == s.raw
    assert s.summary().startswith(
        "every card counts because it has 1 sequence; a declaration needs at least 2 sequences;"
        " the cards"
    )
    assert s.summary().endswith(" 2H 3H 4H 9C 9D 9S KD KC KS 5C, are worth 71")


def test_unmet_requirement_summary_reads_as_one_sentence() -> None:
    """`points.unmet_requirement`: the summary a support agent reads out."""
    summary = score("2H 3H 4H / 9C 9D 9S / KD KC KS / 5C").summary()
    assert ":," not in summary


def test_first_life_without_a_long_run_loses_the_full_count_003() -> None:
    """`declaration.long_run_length` = 4, `points.unmet_requirement` = full_count. 003_:
    'else all the 13 cards are treated as unmatched and are counted. When all the 13 cards
    are unmatched, the player loses 80 points.' The cards are worth 39; the charge is 80."""
    arrangement = "2H 3H 4H / 5S 6S JK / 2C 2D 2S / 3D 3C 3S / 4S"
    assert score(arrangement, rules=STANDARD).points == 4
    s = score(arrangement, rules=FIRST_LIFE)
    assert s.unmet == ("none of its sequences has 4 or more cards",)
    assert s.full_count
    assert (s.points, s.raw) == (80, 80)
    assert s.summary().endswith("are charged the full count of 80")
    assert score(arrangement, rules=FIRST_LIFE, cap=40).points == 40


# ------------------------------------------------------------------ properties


@given(rngs, presets, st.randoms(use_true_random=False))
def test_a_valid_declaration_scores_0(
    rng: random.Random, preset: str, order: random.Random
) -> None:
    """A valid declaration, its groups and cards in any order, is charged nothing."""
    rules = load_preset(preset)
    melds, jokers = valid_declaration(rng, rules)
    assert score_arrangement(melds, jokers, rules).points == 0
    shuffled = [order.sample(g, len(g)) for g in order.sample(melds, len(melds))]
    assert score_arrangement(shuffled, jokers, rules).points == 0


@given(st.integers(0, 2**32), rngs, st.integers(0, 200))
def test_points_never_exceed_the_cap(seed: int, rng: random.Random, cap: int) -> None:
    deal = seeded_deal(seed)
    arranged = random_partition(rng, list(deal.hand))
    capped = score_arrangement(arranged, deal.jokers, deal.rules, cap=cap)
    assert capped.points <= cap
    assert capped.points == min(cap, capped.raw)
    default = score_arrangement(arranged, deal.jokers, deal.rules)
    assert default.points == min(deal.rules.cap, default.raw)
    assert capped.raw == default.raw


@given(st.integers(0, 2**32), rngs, st.randoms(use_true_random=False))
def test_order_of_groups_and_cards_never_changes_the_score(
    seed: int, rng: random.Random, order: random.Random
) -> None:
    deal = seeded_deal(seed)
    arranged = random_partition(rng, list(deal.hand))
    shuffled = [order.sample(g, len(g)) for g in order.sample(arranged, len(arranged))]
    first = score_arrangement(arranged, deal.jokers, deal.rules)
    second = score_arrangement(shuffled, deal.jokers, deal.rules)
    assert (first.points, first.raw, first.unmet) == (second.points, second.raw, second.unmet)
    assert sorted(first.counted) == sorted(second.counted)
