"""The solver (solver.py) against the brute force (brute.py) and the rules' properties."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from audit.cards import JOKER, format_codes
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_arrangement, best_points

from .brute import brute_force
from .hands import Deal, deals, random_partition, rngs, seeded_deal, valid_declaration
from .support import FIRST_LIFE, STANDARD, cards, flat

HANDS = 10_000
CHUNK = 500

KNOWN_SOLVER_MISSES: dict[int, str] = {}
"""Seeds whose hands the solver gets wrong, tested (xfail) by
``test_solver_lets_a_wild_card_stand_as_itself_in_an_impure_run`` and left out of the
agreement test so that it keeps checking every other hand."""


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
    return f"{deal}: " + "; ".join(problems) + f" (groups: {' / '.join(map(format_codes, arranged))})"


@pytest.mark.slow
@pytest.mark.parametrize(
    "first", range(0, HANDS, CHUNK), ids=lambda first: f"seeds-{first}-{first + CHUNK - 1}"
)
def test_solver_agrees_with_brute_force_on_10000_seeded_hands(first: int) -> None:
    """Plain deals, deals of 3-6 jokers and near-complete hands of both presets (hands.py)."""
    failures = []
    for seed in range(first, first + CHUNK):
        if seed in KNOWN_SOLVER_MISSES:
            continue
        problem = disagreement(seeded_deal(seed))
        if problem is not None:
            failures.append((seed, problem))
    assert not failures, (
        f"{len(failures)} of {CHUNK} hands disagree; the first, seed {failures[0][0]}: "
        f"{failures[0][1]}"
    )


@pytest.mark.xfail(
    strict=True,
    reason="solver.py decides wild cards one by one and a meld may only take jokers already in "
    "the pool, so a run with one wild card as itself and another as its joker is never built "
    "(9S TS QS 9D with nines wild under first-life-13, one joker per run)",
)
@pytest.mark.parametrize(
    "seed", sorted(KNOWN_SOLVER_MISSES) or [None], ids=lambda s: f"seed-{s}"
)
def test_solver_lets_a_wild_card_stand_as_itself_in_an_impure_run(seed: int | None) -> None:
    """`melds.wild_natural_keeps_pure`, `melds.max_jokers_per_run` = 1 (first-life-13): with
    nines wild, 9S TS QS 9D is a sequence with one joker (the classifier agrees, test_melds);
    with 8C 9C TC it meets the requirement."""
    if seed is None:
        deal = Deal(tuple(cards("9S TS QS 9D 8C 9C TC 3S 4S 7S JH TD TC")), 0, "first-life-13")
        jokers = Jokers.of_rank(9)
        hand = list(deal.hand)
        assert brute_force(hand, jokers, FIRST_LIFE)[0] < 80
        assert best_points(hand, jokers, FIRST_LIFE) == brute_force(hand, jokers, FIRST_LIFE)[0]
        return
    assert disagreement(seeded_deal(seed)) is None


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


@given(rngs, st.sampled_from([STANDARD, FIRST_LIFE]))
def test_a_hand_of_valid_melds_meeting_the_requirement_scores_0(
    rng: random.Random, rules: Ruleset
) -> None:
    melds, jokers = valid_declaration(rng, rules)
    hand = [c for g in melds for c in g]
    assert best_points(hand, jokers, rules) == 0
    assert best_arrangement(hand, jokers, rules)[0] == 0


@given(deals, rngs)
def test_best_points_are_at_most_those_of_any_arrangement(deal: Deal, rng: random.Random) -> None:
    hand, jokers, rules = list(deal.hand), deal.jokers, deal.rules
    drawn = random_partition(rng, hand)
    assert best_points(hand, jokers, rules) <= score_arrangement(drawn, jokers, rules).points
