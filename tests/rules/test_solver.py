"""The solver (solver.py) against the brute force (brute.py) and the rules' properties."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from audit.cards import JOKER, format_codes
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, load_preset
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_arrangement, best_points, declaration

from .brute import brute_force
from .hands import (
    Deal,
    crowded_hand,
    deals,
    draw,
    new_shoe,
    random_partition,
    rngs,
    seeded_deal,
    valid_declaration,
)
from .support import FIRST_LIFE, NO_WILD, STANDARD, cards, flat, shoe, variant

HANDS = 10_000
CHUNK = 500


def disagreement(deal: Deal) -> str | None:
    """What is wrong with the solver's answers on ``deal``, or ``None``."""
    return disagreement_on(list(deal.hand), deal.jokers, deal.rules, str(deal))


def disagreement_on(hand: list[int], jokers: Jokers, rules: Ruleset, what: str) -> str | None:
    """What is wrong with the solver's answers on ``hand``, or ``None``; ``what`` names the
    hand in the message."""
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
        f"{what}: " + "; ".join(problems) + f" (groups: {' / '.join(map(format_codes, arranged))})"
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


# ------------------------------------------------------------------ many decks

FOUR_OF_EACH = "7C 7C 7C 7C 8C 8C 8C 8C 9C 9C 9C 9C AS"


def test_four_decks_four_copies_of_a_card_each_make_a_pure_sequence_000(tmp_path: Path) -> None:
    """`deal.shoes` with 4 decks (the loader takes 1 to 8; 000_ deals 21 and 27 cards from
    3 decks), so a hand can hold four copies of a card. 7C 8C 9C four times over are four
    pure sequences and AS (10) is left. The solver once packed a card's count in 2 bits, so
    four copies overflowed and it charged the hand 80."""
    rules = variant(tmp_path, deal__shoes=shoe(4))
    hand = cards(FOUR_OF_EACH)
    assert brute_force(hand, NO_WILD, rules)[0] == 10
    assert best_points(hand, NO_WILD, rules) == 10
    points, arranged = best_arrangement(hand, NO_WILD, rules)
    assert points == 10
    assert score_arrangement(arranged, NO_WILD, rules).points == 10


def test_eight_decks_the_most_a_ruleset_may_have_give_eight_copies_of_a_card_000(
    tmp_path: Path,
) -> None:
    """`deal.shoes` with 8 decks, the most the loader takes, and `melds.tunnela` (000_'s
    21 and 27 cards): 9S TS JS twice over are two pure sequences, the six 9S left two
    tunnelas, and 2D (2) is left. Eight copies need a wider count than seven."""
    rules = variant(tmp_path, deal__shoes=shoe(8), melds__tunnela=True)
    hand = cards("9S 9S 9S 9S 9S 9S 9S 9S TS TS JS JS 2D")
    assert disagreement_on(hand, NO_WILD, rules, "the hand") is None
    assert best_points(hand, NO_WILD, rules) == 2


def test_five_sequences_three_pure_and_a_long_one_keep_their_states_apart(
    tmp_path: Path,
) -> None:
    """`declaration.min_runs` = 5, `declaration.min_pure_runs` = 3 over first-life-13 (its
    sequence of four), with 3 decks for 21 cards as 000_ deals them: the loader takes up
    to 10 sequences, so the requirement has up to 11 x 11 x 2 states. The solver's memo
    key once gave the state 5 bits, next to the jokers left, so states from 32 on shared
    keys with other joker counts: it charged this hand 21 (the brute force: 28)."""
    rules = variant(
        tmp_path,
        "first-life-13",
        deal__shoes=shoe(3),
        deal__cards_per_hand=21,
        declaration__min_runs=5,
        declaration__min_pure_runs=3,
    )
    hand = cards("2S 4S 4S 5S 6S 7S TS 2H 7H 9H TH JH KH 6D 8D 9D 9D TC JC QC JK")
    tens = Jokers.of_rank(10)
    assert disagreement_on(hand, tens, rules, "the hand") is None
    assert best_points(hand, tens, rules) == 28


def many_deck_rules(folder: Path, decks: int) -> list[Ruleset]:
    """standard-13 and first-life-13 with one shoe of ``decks`` decks, and standard-13 with
    000_'s rules for 21 and 27 cards (tunnela, up and down jokers) and that many decks.

    The last shoe has no printed joker: ``classify`` takes two identical cards and a
    printed joker (``QS QS JK``) for a tunnela, "three identical cards", which the solver
    does not, so the brute force built on it would be the one wrong there."""
    twenty_one: dict[str, object] = {"melds__tunnela": True, "jokers__up_down_jokers": True}
    built = []
    for name, base, printed, extra in (
        ("standard", "standard-13", decks, {}),
        ("first-life", "first-life-13", decks, {}),
        ("21-card", "standard-13", 0, twenty_one),
    ):
        (folder / name).mkdir()
        built.append(variant(folder / name, base, deal__shoes=shoe(decks, printed), **extra))
    return built


def declarable(hand: list[int], jokers: Jokers, rules: Ruleset) -> bool:
    """The brute force's answer to ``declaration``: some card on the finish slot leaves the
    rest charged 0 (tests/sim/test_declaration.py asks the solver the same)."""
    for finish in set(hand):
        rest = list(hand)
        rest.remove(finish)
        if brute_force(rest, jokers, rules)[0] == 0:
            return True
    return False


MANY_DECK_HANDS = 60


@pytest.mark.parametrize("decks", [3, 4, 6], ids=lambda decks: f"{decks}-decks")
def test_hands_from_shoes_of_3_4_and_6_decks_score_as_the_brute_force_000(
    decks: int, tmp_path: Path
) -> None:
    """`deal.shoes` of several decks: 000_ deals 21 and 27 cards 'with three decks of
    cards', and the loader takes up to 8, so a hand may hold a card as often as there are
    decks. Under standard-13, first-life-13 and 000_'s 21-card rules (`melds.tunnela`,
    `jokers.up_down_jokers`), each with that shoe: seeded hands of 13 cards crowded with
    copies of a few cards (hands.crowded_hand), random deals of 13 and 21 cards, and some
    crowded hands with a card drawn, which ``declaration`` must find declarable exactly
    when the brute force does. (Crowded hands of 21 cards take the brute force seconds.)"""
    failures = []
    for rules in many_deck_rules(tmp_path, decks):
        for seed in range(MANY_DECK_HANDS):
            rng = random.Random(seed)
            stock = new_shoe(rng, rules)
            jokers = Jokers.for_wild_card(draw(rng, stock, 1)[0], rules)
            if seed % 2:
                hand = crowded_hand(rng, stock, jokers)
            else:
                hand = draw(rng, stock, 21 if seed % 4 == 2 else 13)
            what = f"seed {seed}: {format_codes(sorted(hand))} ({jokers.describe()}, {decks} decks)"
            problem = disagreement_on(hand, jokers, rules, what)
            if problem is None and seed % 4 == 1:
                after = [*hand, *draw(rng, stock, 1)]
                found = declaration(after, jokers, rules)
                if (found is not None) != declarable(after, jokers, rules):
                    problem = f"{what}: declaration {found} disagrees with the brute force"
            if problem is not None:
                failures.append(f"{rules.path}: {problem}")
    assert not failures, f"{len(failures)} hands disagree; the first: {failures[0]}"
