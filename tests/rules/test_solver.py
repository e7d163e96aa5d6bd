"""The solver (solver.py) against the brute force (brute.py) and the rules' properties."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from audit.cards import JOKER, format_codes
from audit.rules.melds import Jokers
from audit.rules.ruleset import load_preset
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_arrangement, best_points

from .brute import brute_force
from .hands import Deal, deals, random_partition, rngs, seeded_deal, valid_declaration
from .support import FIRST_LIFE, STANDARD, cards, flat

HANDS = 10_000
CHUNK = 500


def disagreement(deal: Deal) -> str | None:
    """What is wrong with the solver's answers on ``deal``, or ``None``."""
    hand, jokers, rules = list(deal.hand), deal.jokers, deal.rules
    brute, brute_groups = brute_force(hand, jokers, rules)
    fast = best_points(hand, jokers, rules)
    points, arranged = best_arrangement(hand, jokers, rules)
    charged = score_arrangement(arranged, jokers, rules).points
    problems = []
    if score_arrangement(brute_groups, jokers, rules).points != brute:
        problems.append(f"the brute force's own arrangement is not charged its {brute}")
    if not fast == points == brute:
        problems.append(
            f"brute force {brute}, best_points {fast}, best_arrangement {points} "
            f"(brute force's groups: {' / '.join(map(format_codes, brute_groups))})"
        )
    if charged != points:
        problems.append(f"best_arrangement's groups are charged {charged}, not {points}")
    if Counter(c for g in arranged for c in g) != Counter(hand):
        problems.append("best_arrangement's groups are not the hand")
    if not problems:
        return None
    return (
        f"{deal}: " + "; ".join(problems) + f" (groups: {' / '.join(map(format_codes, arranged))})"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "first", range(0, HANDS, CHUNK), ids=lambda first: f"seeds-{first}-{first + CHUNK - 1}"
)
def test_solver_agrees_with_brute_force_on_10000_seeded_hands(first: int) -> None:
    """Plain deals, deals of 3-6 jokers and near-complete hands of both presets (hands.py)."""
    failures = []
    for seed in range(first, first + CHUNK):
        problem = disagreement(seeded_deal(seed))
        if problem is not None:
            failures.append((seed, problem))
    assert not failures, (
        f"{len(failures)} of {CHUNK} hands disagree; the first, seed {failures[0][0]}: "
        f"{failures[0][1]}"
    )


WILD_AS_ITSELF = "3S 4S 7S 9S TS QS JH 9D TD 8C 9C TC TC"


def test_a_wild_card_as_itself_and_another_as_its_joker_make_a_first_life_run_003() -> None:
    """`melds.wild_natural_keeps_pure`, `melds.max_jokers_per_run` = 1 (first-life-13).
    Nines wild: 9S TS QS 9D is 9-10-J-Q with 9S as itself and 9D as the one joker, 8C 9C TC
    is pure, and 3S 4S 7S JH TD TC are left: 3 + 4 + 7 + 10 + 10 + 10 = 44."""
    arranged = [cards("9S TS QS 9D"), cards("8C 9C TC"), cards("3S 4S 7S JH TD TC")]
    assert sorted(c for g in arranged for c in g) == sorted(cards(WILD_AS_ITSELF))
    assert score_arrangement(arranged, Jokers.of_rank(9), FIRST_LIFE).points == 44
    assert brute_force(cards(WILD_AS_ITSELF), Jokers.of_rank(9), FIRST_LIFE)[0] == 44


def test_solver_lets_a_wild_card_stand_as_itself_in_an_impure_run_003() -> None:
    """The hand above: a wild card as itself and another as the run's one joker (a solver
    bug once charged it 80)."""
    assert best_points(cards(WILD_AS_ITSELF), Jokers.of_rank(9), FIRST_LIFE) == 44


# ------------------------------------------------------------------ properties


@given(deals)
def test_best_points_and_best_arrangement_agree(deal: Deal) -> None:
    hand, jokers, rules = list(deal.hand), deal.jokers, deal.rules
    points, arranged = best_arrangement(hand, jokers, rules)
    assert best_points(hand, jokers, rules) == points
    assert score_arrangement(arranged, jokers, rules).points == points
    assert Counter(c for g in arranged for c in g) == Counter(hand)


@given(deals, st.integers(0, 120))
def test_points_never_exceed_the_cap(deal: Deal, cap: int) -> None:
    """`points.cap`: the cap is taken last, over the best arrangement."""
    hand, jokers, rules = list(deal.hand), deal.jokers, deal.rules
    assert best_points(hand, jokers, rules) <= rules.cap
    uncapped = best_points(hand, jokers, rules, cap=10_000)
    assert best_points(hand, jokers, rules, cap=cap) == min(cap, uncapped)
    assert best_arrangement(hand, jokers, rules, cap=cap)[0] == min(cap, uncapped)


@given(deals)
def test_adding_a_joker_never_raises_the_points(deal: Deal) -> None:
    hand, jokers, rules = list(deal.hand), deal.jokers, deal.rules
    assert best_points([*hand, JOKER], jokers, rules) <= best_points(hand, jokers, rules)


@given(deals, st.randoms(use_true_random=False))
def test_replacing_a_counted_card_by_a_joker_never_raises_the_points(
    deal: Deal, rng: random.Random
) -> None:
    """A card the best arrangement counts (left unmatched, or any card when the requirement
    is unmet) turned into a printed joker: the same arrangement is charged no more."""
    hand, jokers, rules = list(deal.hand), deal.jokers, deal.rules
    points, arranged = best_arrangement(hand, jokers, rules)
    counted = score_arrangement(arranged, jokers, rules).counted
    assume(counted)
    changed = list(hand)
    changed[changed.index(rng.choice(counted))] = JOKER
    assert best_points(changed, jokers, rules) <= points


def test_replacing_a_card_of_the_only_pure_sequence_can_raise_the_points() -> None:
    """Why the property above asks for a counted card. `declaration.min_pure_runs`. 001_:
    'Jokers can replace any card in impure sequences and sets, but never in pure sequences.'
    2H JK 4H is impure, no other three cards make a pure sequence: every card counts."""
    arranged = "2H 3H 4H / 5S 6S JK / 9C 9D 9S / KD KC KS KH"
    hand = flat(arranged)
    assert best_points(hand, Jokers.of_rank(None), STANDARD) == 0
    hand[hand.index(cards("3H")[0])] = JOKER
    every_card = 2 + 4 + 5 + 6 + 27 + 40
    assert best_points(hand, Jokers.of_rank(None), STANDARD) == min(80, every_card)
    assert brute_force(hand, Jokers.of_rank(None), STANDARD)[0] == min(80, every_card)


@pytest.mark.parametrize("preset", ["standard-13", "first-life-13"])
@given(rngs)
def test_a_hand_of_valid_melds_meeting_the_requirement_scores_0(
    preset: str, rng: random.Random
) -> None:
    rules = load_preset(preset)
    melds, jokers = valid_declaration(rng, rules)
    hand = [c for g in melds for c in g]
    assert best_points(hand, jokers, rules) == 0
    assert best_arrangement(hand, jokers, rules)[0] == 0


@given(deals, rngs)
def test_best_points_are_at_most_those_of_any_arrangement(deal: Deal, rng: random.Random) -> None:
    hand, jokers, rules = list(deal.hand), deal.jokers, deal.rules
    drawn = random_partition(rng, hand)
    assert best_points(hand, jokers, rules) <= score_arrangement(drawn, jokers, rules).points
