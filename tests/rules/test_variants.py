"""Rule variants of public rummy engines, each a ruleset value: the classifier (melds.py),
the solver (solver.py), the declaration verdict (declaration.py) and scoring (scoring.py)
must honour each exactly, and the solver must agree with the brute force (brute.py) under
every one of them.

Each variant is standard-13 with some rules changed, loaded from a TOML file that
``extends = "standard-13"`` as a platform's ruleset would be (``support.variant``).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from audit.cards import JOKER, format_codes, parse_code
from audit.explain.points import points_view as explain_points
from audit.replay.outcome import Expected
from audit.rules.declaration import check_declaration
from audit.rules.explain import check_groups_text
from audit.rules.melds import Jokers, MeldKind, classify
from audit.rules.ruleset import Ruleset, load_preset, preset_ids
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_arrangement, best_points, declaration
from audit.rules.ways import grouped_arrangement

from .hands import draw, near_complete, new_shoe, rngs
from .support import NO_WILD, STANDARD, cards, flat, groups, variant
from .test_solver import disagreement_on

TEN_CARDS = [[5, 5], [4, 3, 3]]

VARIANTS: dict[str, dict[str, object]] = {
    "run_wraps": {"melds__run_wraps": True},
    "ace_1": {
        "points__card_points": {
            "A": 1,
            **{str(k): k for k in range(2, 10)},
            **dict.fromkeys("TJQK", 10),
        }
    },
    "wild_card_only": {"jokers__wild_scope": "card"},
    "pure_run_exempt": {"points__unmet_requirement": "pure_run_exempt"},
    "sets_of_4": {"melds__max_set_size": 4},
    "one_joker_a_group": {"melds__max_jokers_per_run": 1, "melds__max_jokers_per_set": 1},
    "sets_alone": {"declaration__min_runs": 0, "declaration__min_pure_runs": 0},
    "all_at_once": {
        "melds__run_wraps": True,
        "jokers__wild_scope": "card",
        "points__unmet_requirement": "pure_run_exempt",
        "melds__max_set_size": 4,
        "melds__max_jokers_per_run": 1,
        "melds__max_jokers_per_set": 1,
    },
    "exempt_first_life": {"points__unmet_requirement": "pure_run_exempt"},
}
BASES = {"exempt_first_life": "first-life-13"}


def rules_of(tmp_path: Path, name: str) -> Ruleset:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    return variant(folder, BASES.get(name, "standard-13"), **VARIANTS[name])


def kind(text: str, rules: Ruleset, jokers: Jokers = NO_WILD) -> MeldKind:
    return classify(cards(text), jokers, rules).kind


# ------------------------------------------------------------------ melds.run_wraps


def test_melds_run_wraps_allows_k_a_2(tmp_path: Path) -> None:
    """`melds.run_wraps` = true. No seed allows it (003_: 'but you can not form K-A-2';
    002_: 'K-A-2 is not a run'); some public engines let a sequence turn the corner.
    K-A-2 and Q-K-A-2-3 of hearts are pure sequences, K-JK-2 an impure one; a sequence
    still may not hold a rank twice, nor run past 13 cards."""
    wraps = rules_of(tmp_path, "run_wraps")
    assert kind("KH AH 2H", wraps) is MeldKind.PURE_RUN
    assert kind("QH KH AH 2H 3H", wraps) is MeldKind.PURE_RUN
    assert kind("KH JK 2H", wraps) is MeldKind.IMPURE_RUN
    assert kind("KH AH 2H", STANDARD) is MeldKind.INVALID
    assert classify(cards("KH AH 2H"), NO_WILD, STANDARD).reason.endswith("(melds.run_wraps)")
    # Worked example: K-A-2 of hearts is the pure sequence, 5-6-JK of spades the second.
    hand = flat("KH AH 2H / 5S 6S JK / 9C 9D 9S / 4D 7C 8H TC")
    assert best_points(hand, NO_WILD, wraps) == 4 + 7 + 8 + 10
    assert best_points(hand, NO_WILD, STANDARD) == 80  # no pure sequence: every card
    assert disagreement_on(hand, NO_WILD, wraps, "K-A-2") is None


# ------------------------------------------------------------------ points.card_points


def test_points_card_points_ace_scores_1(tmp_path: Path) -> None:
    """`points.card_points` with A = 1. The seeds count an ace 10 (001_: 'Ungrouped face
    cards (A, K, Q, J) 10 points each'); some engines count it 1, its place at the low
    end. A loser left with AS AD 5C and the requirement met is charged 1 + 1 + 5 = 7."""
    ace_1 = rules_of(tmp_path, "ace_1")
    shown = groups("2H 3H 4H / 5S 6S JK / 9C 9D 9S / AS AD 5C")
    hand = [c for g in shown for c in g]
    assert score_arrangement(shown, NO_WILD, ace_1).points == 7
    assert score_arrangement(shown, NO_WILD, STANDARD).points == 25
    assert best_points(hand, NO_WILD, ace_1) == 7
    assert disagreement_on(hand, NO_WILD, ace_1, "aces 1") is None


# ------------------------------------------------------------------ jokers.wild_scope


def test_jokers_wild_scope_card_makes_only_the_turned_up_card_wild(tmp_path: Path) -> None:
    """`jokers.wild_scope` = card. The seeds make the whole rank wild (000_: 'All cards of
    the same rank and any suit as the card selected are also considered jokers'); some
    engines make only the card turned up wild: with 5C turned up, both 5C of the two decks
    are jokers, 5H is a five. A printed joker turned up makes no suited card wild."""
    by_card = rules_of(tmp_path, "wild_card_only")
    jokers = Jokers.for_wild_card("5C", by_card)
    assert jokers.codes == frozenset({parse_code("5C")})
    assert jokers.is_joker(parse_code("5C"))
    assert not jokers.is_joker(parse_code("5H"))
    assert Jokers.for_wild_card("5C", STANDARD).is_joker(parse_code("5H"))
    assert Jokers.for_wild_card("JK", by_card).codes == frozenset()
    assert "jokers.wild_scope" in jokers.describe()
    # 5H is not a joker: 9S TS 5H is no sequence; 9S TS 5C is.
    assert kind("9S TS 5H", by_card, jokers) is MeldKind.INVALID
    assert kind("9S TS 5C", by_card, jokers) is MeldKind.IMPURE_RUN
    # Worked example: 2H 3H 4H pure, 9S TS 5C impure, KD KC KS a set; 5D 8D QC QH count.
    hand = flat("2H 3H 4H / 9S TS 5C / KD KC KS / 5D 8D QC QH")
    assert best_points(hand, jokers, by_card) == 5 + 8 + 20
    rank_jokers = Jokers.for_wild_card("5C", STANDARD)
    assert best_points(hand, rank_jokers, STANDARD) == 8  # 5D joins QC QH as a joker
    assert disagreement_on(hand, jokers, by_card, "5C wild") is None
    shown = ["2H 3H 4H", "9S TS 5C", "KD KC KS", "5D 8D QC QH"]
    text = check_groups_text(shown, wild="5C", rules=by_card)
    assert "the 5C itself (jokers.wild_scope" in text


# ------------------------------------------------------------------ points.unmet_requirement


def test_points_unmet_requirement_pure_run_exempt_spares_one_pure_sequence(
    tmp_path: Path,
) -> None:
    """`points.unmet_requirement` = pure_run_exempt. No seed speaks (003_ counts every card:
    'else all the 13 cards are treated as unmatched and are counted'); public engines
    spare a loser with a pure sequence but no second sequence the points of that pure
    sequence. 9H TH JH QH is pure, nothing else is a sequence: the other nine cards count,
    2 + 3 + 4 + 7 + 9 + 9 + 9 + 5 + 6 = 54 (standard-13: 54 + 39 = 93, capped at 80)."""
    exempt = rules_of(tmp_path, "pure_run_exempt")
    shown = groups("9H TH JH QH / 9C 9D 9S / 2S 4C 7D 3D 5H 6S")
    score = score_arrangement(shown, NO_WILD, exempt)
    assert (score.points, format_codes(score.exempt)) == (54, "9H TH JH QH")
    assert "points.unmet_requirement" in score.summary()
    assert score_arrangement(shown, NO_WILD, STANDARD).points == 80
    hand = flat("9H TH JH QH / 9C 9D 9S / 2S 4C 7D 3D 5H 6S")
    assert best_points(hand, NO_WILD, exempt) == 54
    points, arranged = best_arrangement(hand, NO_WILD, exempt)
    assert points == score_arrangement(arranged, NO_WILD, exempt).points == 54
    assert disagreement_on(hand, NO_WILD, exempt, "exempt") is None
    text = check_groups_text(
        ["9H TH JH QH", "9C 9D 9S", "2S 4C 7D 3D 5H 6S"], wild=None, rules=exempt
    )
    assert "as a losing hand: 54 points (every card but the pure sequence 9H TH JH QH" in text
    # explain (support staff read it to the player) names the sequence spared.
    want = Expected("lost", 54, "points.unmet_requirement", "", score=score)
    view = explain_points(want, NO_WILD, exempt)
    assert view is not None
    assert view.steps[0].startswith("every card but the pure sequence 9H TH JH QH counts")
    # No pure sequence: every card counts, as under all_cards.
    no_pure = flat("9H TH JK / 9C 9D 9S / 2S 4C 7D 3D")
    assert best_points(no_pure, NO_WILD, exempt) == best_points(no_pure, NO_WILD, STANDARD)


def test_pure_run_exempt_spares_the_pure_sequence_least_costly_to_the_loser(
    tmp_path: Path,
) -> None:
    """`points.unmet_requirement` = pure_run_exempt over first-life-13 (a sequence of 4+
    needed, 003_): 2S 3S 4S and JH QH KH are both pure, none has 4 cards; the solver spares
    the one worth most (JH QH KH, 30), as a loser arranges at best: the other ten cards
    count 2 + 3 + 4 + 7 + 8 + 9 + 10 + 2 + 5 + 6 = 56."""
    exempt = rules_of(tmp_path, "exempt_first_life")
    hand = cards("2S 3S 4S JH QH KH 7C 8D 9D TC 2D 5C 6H")
    every = 2 + 3 + 4 + 30 + 7 + 8 + 9 + 10 + 2 + 5 + 6
    assert score_arrangement([hand], NO_WILD, exempt).raw == every  # no pure run shown
    assert best_points(hand, NO_WILD, exempt) == every - 30 == 56
    _, arranged = best_arrangement(hand, NO_WILD, exempt)
    assert format_codes(score_arrangement(arranged, NO_WILD, exempt).exempt) == "JH QH KH"
    assert disagreement_on(hand, NO_WILD, exempt, "two pure") is None


# ------------------------------------------------------------------ melds.max_set_size


def test_melds_max_set_size_4_refuses_a_set_with_a_fifth_card(tmp_path: Path) -> None:
    """`melds.max_set_size` = 4. 001_: 'A set is 3-4 cards of the same rank from different
    suits'; 004_ the same (000_ allows 5 with a joker: standard-13). 9S 9H 9D 9C JK is no
    set; the joker goes to a sequence or is left over instead."""
    four = rules_of(tmp_path, "sets_of_4")
    assert kind("9S 9H 9D 9C JK", four) is MeldKind.INVALID
    assert "(melds.max_set_size)" in classify(cards("9S 9H 9D 9C JK"), NO_WILD, four).reason
    assert kind("9S 9H 9D 9C JK", STANDARD) is MeldKind.SET
    hand = flat("2H 3H 4H / 5S 6S 7S / 9S 9H 9D 9C JK / KD QC")
    assert best_points(hand, NO_WILD, four) == 20
    assert disagreement_on(hand, NO_WILD, four, "sets of 4") is None


# ------------------------------------------------------------------ melds.max_jokers_per_*


def test_melds_max_jokers_per_run_and_set_1_allow_one_joker_a_group(tmp_path: Path) -> None:
    """`melds.max_jokers_per_run` = 1 and `melds.max_jokers_per_set` = 1: at most one joker
    in any sequence or set (003_: 'In a run you can use only one joker as a wild card';
    some engines say so of sets too). 5S JK JK and 9C JK JK are refused, 5S 6S JK and
    9C 9D JK are not."""
    one = rules_of(tmp_path, "one_joker_a_group")
    assert kind("5S JK JK", one) is MeldKind.INVALID
    assert kind("9C 9D JK JK", one) is MeldKind.INVALID
    assert kind("5S 6S JK", one) is MeldKind.IMPURE_RUN
    assert kind("9C 9D JK", one) is MeldKind.SET
    reason = classify(cards("9C 9D JK JK"), NO_WILD, one).reason
    assert "(melds.max_jokers_per_set)" in reason
    # Worked example: standard-13 lays QC JK JK (a sequence), 9C 9D 9S, 2H 3H 4H and counts
    # KD 8D 7H 5S, 30; with one joker a group: 8D 9D JK, 9S 9C JK, 2H 3H 4H, and KD QC 7H
    # 5S count 32.
    hand = cards("2H 3H 4H 5S JK JK 9C 9D 9S KD QC 7H 8D")
    assert best_points(hand, NO_WILD, STANDARD) == 10 + 8 + 7 + 5
    assert best_points(hand, NO_WILD, one) == 10 + 10 + 7 + 5
    _, arranged = best_arrangement(hand, NO_WILD, one)
    assert all(g.count(JOKER) <= 1 for g in arranged)
    assert disagreement_on(hand, NO_WILD, one, "one joker") is None


# ------------------------------------------------------------------ declaration.min_runs = 0


def test_declaration_min_runs_0_declares_a_hand_of_sets_alone(tmp_path: Path) -> None:
    """`declaration.min_runs` = 0 and `declaration.min_pure_runs` = 0: a hand of sets
    alone is a valid declaration. Every seed asks for two sequences (000_: 'It is
    mandatory to form two groups which are sequences'); some engines (and the common
    Western rules) do not."""
    sets_alone = rules_of(tmp_path, "sets_alone")
    shown = groups("9C 9D 9S / KD KC KS / 4H 4S 4D / 7C 7D 7S 7H")
    hand = [c for g in shown for c in g]
    assert check_declaration(hand, shown, NO_WILD, sets_alone).valid
    assert not check_declaration(hand, shown, NO_WILD, STANDARD).valid
    assert best_points(hand, NO_WILD, sets_alone) == 0
    assert best_points(hand, NO_WILD, STANDARD) == 80
    found = declaration([*hand, JOKER], NO_WILD, sets_alone)
    assert found is not None
    assert declaration([*hand, JOKER], NO_WILD, STANDARD) is None
    assert disagreement_on(hand, NO_WILD, sets_alone, "sets") is None


# ------------------------------------------------------------------ declaration.groupings


def ten_card_rules(tmp_path: Path, **more: object) -> Ruleset:
    return variant(tmp_path, deal__cards_per_hand=10, declaration__groupings=TEN_CARDS, **more)


def test_declaration_groupings_5_5_or_4_3_3_000(tmp_path: Path) -> None:
    """`declaration.groupings` = [[5, 5], [4, 3, 3]]. 000_: 'For 10 Cards -(5+5 or
    4+3+3)'. AH-6H and 9C TC JK JK meet the requirement but are 6+4: invalid, with the
    rule named; laid as AH 2H 3H / 4H 5H 6H / 9C TC JK JK (3+3+4) they are valid. A loser's
    points do not depend on the sizes: 6+4 is charged 0."""
    ten = ten_card_rules(tmp_path)
    six_four = groups("AH 2H 3H 4H 5H 6H / 9C TC JK JK")
    hand = [c for g in six_four for c in g]
    check = check_declaration(hand, six_four, NO_WILD, ten)
    assert check.reasons == (
        "its groups have 6+4 cards; a declaration is grouped as 5+5 or 4+3+3 "
        "(declaration.groupings)",
    )
    assert check_declaration(hand, six_four, NO_WILD, STANDARD).valid
    split = groups("AH 2H 3H / 4H 5H 6H / 9C TC JK JK")
    assert check_declaration(hand, split, NO_WILD, ten).valid
    assert score_arrangement(six_four, NO_WILD, ten).points == 0
    # The solver's declaration finds the 4+3+3 way (after the draw: 11 cards, KD to finish).
    found = declaration([*hand, *cards("KD")], NO_WILD, ten)
    assert found is not None
    finish, laid = found
    assert format_codes([finish]) == "KD"
    assert sorted(map(len, laid)) == [3, 3, 4]
    assert check_declaration(hand, laid, NO_WILD, ten).valid


def test_declaration_groupings_a_0_point_hand_is_laid_in_the_sizes_allowed_000(
    tmp_path: Path,
) -> None:
    """`declaration.groupings` (000_: 'For 10 Cards -(5+5 or 4+3+3)'): a hand that costs 0
    as a loser (2H-7H and TC-KC, laid 6+4) declares validly only cut to the sizes allowed,
    and ``grouped_arrangement`` finds that cut (3+3+4); under 5+5 alone there is none. What
    explain and ``rules check`` show an invalid declarer as the declaration they could have
    made (a 10-card wrong show was shown its own 6+4 as 'a valid declaration')."""
    ten = ten_card_rules(tmp_path)
    hand = cards("2H 3H 4H 5H 6H 7H TC JC QC KC")
    assert best_points(hand, NO_WILD, ten) == 0
    laid = grouped_arrangement(hand, NO_WILD, ten)
    assert laid is not None
    assert sorted(map(len, laid)) == [3, 3, 4]
    assert sorted(c for g in laid for c in g) == sorted(hand)
    assert check_declaration(hand, laid, NO_WILD, ten).valid
    only_fives = variant(tmp_path, deal__cards_per_hand=10, declaration__groupings=[[5, 5]])
    assert best_points(hand, NO_WILD, only_fives) == 0
    assert grouped_arrangement(hand, NO_WILD, only_fives) is None
    text = check_groups_text(["2H 3H 4H 5H 6H 7H", "TC JC QC KC"], wild=None, rules=ten)
    assert "declaration: INVALID" in text
    assert text.endswith(
        "a valid declaration of these cards, in the sizes allowed:\n"
        "  group 1: 2H 3H 4H: pure sequence (2H 3H 4H is a sequence without a joker)\n"
        "  group 2: 5H 6H 7H: pure sequence (5H 6H 7H is a sequence without a joker)\n"
        "  group 3: TC JC QC KC: pure sequence (TC JC QC KC is a sequence without a joker)"
    )
    text = check_groups_text(["2H 3H 4H 5H 6H 7H", "TC JC QC KC"], wild=None, rules=only_fives)
    assert text.endswith("no valid declaration: these cards make no melds of the sizes a "
                         "declaration is grouped in (declaration.groupings)")  # fmt: skip


def test_standard_10_groups_10_cards_as_5_5_or_4_3_3_000() -> None:
    """`declaration.groupings` in standard-10 (000_: 'For 10 Cards -(5+5 or 4+3+3)')."""
    if "standard-10" not in preset_ids():
        pytest.skip("no standard-10 preset")
    assert load_preset("standard-10").groupings == ((5, 5), (4, 3, 3))
    assert STANDARD.groupings is None


def grouped_declarable(hand: list[int], jokers: Jokers, rules: Ruleset) -> bool:
    """The brute force's answer to ``declaration`` under ``declaration.groupings``: some
    card on the finish slot and some labelling of the others with group numbers whose
    sizes are allowed make a valid declaration (``check_declaration``)."""
    assert rules.groupings is not None
    for finish in set(hand):
        rest = list(hand)
        rest.remove(finish)
        for sizes in rules.groupings:
            if sum(sizes) != len(rest):
                continue
            for laid in _labellings(rest, list(sizes), jokers, rules):
                if check_declaration(rest, laid, jokers, rules).valid:
                    return True
    return False


def _labellings(
    cards: list[int], sizes: list[int], jokers: Jokers, rules: Ruleset
) -> list[list[list[int]]]:
    """Every split of ``cards`` into valid groups of ``sizes`` (in that order), by
    positions (``classify`` says which groups are valid)."""
    if not sizes:
        return [[]] if not cards else []
    out = []
    for chosen in combinations(range(len(cards)), sizes[0]):
        group = [cards[k] for k in chosen]
        if not classify(group, jokers, rules).is_valid:
            continue
        rest = [c for k, c in enumerate(cards) if k not in chosen]
        for tail in _labellings(rest, sizes[1:], jokers, rules):
            out.append([group, *tail])
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(rngs)
def test_declaration_groupings_agree_with_the_brute_force(
    tmp_path_factory: pytest.TempPathFactory, rng: random.Random
) -> None:
    """`declaration.groupings`: the solver's ``declaration`` finds a way exactly when the
    brute force does, on 11-card hands built from near-complete 10-card hands."""
    folder = tmp_path_factory.mktemp("ten")
    ten = ten_card_rules(folder)
    shoe = new_shoe(rng, ten)
    jokers = Jokers.for_wild_card(draw(rng, shoe, 1)[0], ten)
    hand = near_complete(rng, shoe, jokers, ten)[:10] + draw(rng, shoe, 1)
    found = declaration(hand, jokers, ten)
    assert (found is not None) == grouped_declarable(hand, jokers, ten), format_codes(hand)
    if found is not None:
        finish, laid = found
        rest = list(hand)
        rest.remove(finish)
        assert check_declaration(rest, laid, jokers, ten).valid


# ------------------------------------------------------------------ the differential test

DIFFERENTIAL_HANDS = 250


def variant_hand(rng: random.Random, rules: Ruleset) -> tuple[list[int], Jokers]:
    """A plain deal, a deal of 3-6 jokers or a near-complete hand, as hands.seeded_deal."""
    shoe = new_shoe(rng, rules)
    jokers = Jokers.for_wild_card(draw(rng, shoe, 1)[0], rules)
    kind = rng.randrange(3)
    if kind == 0:
        return draw(rng, shoe, 13), jokers
    if kind == 1:
        spare = sum(k for c, k in shoe.items() if k > 0 and jokers.is_joker(c))
        n = min(spare, rng.randint(3, 6))
        hand = draw(rng, shoe, n, jokers=(jokers, True))
        return hand + draw(rng, shoe, 13 - n, jokers=(jokers, False)), jokers
    return near_complete(rng, shoe, jokers, rules), jokers


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_solver_agrees_with_brute_force_under_each_variant(name: str, tmp_path: Path) -> None:
    """Every variant above (and all at once): seeded hands, the solver's best points,
    arrangement and its charge against the brute force (brute.py) on ``classify``."""
    rules = rules_of(tmp_path, name)
    failures = []
    for seed in range(DIFFERENTIAL_HANDS):
        hand, jokers = variant_hand(random.Random(f"{name}/{seed}"), rules)
        problem = disagreement_on(hand, jokers, rules, f"{name} seed {seed}")
        if problem is not None:
            failures.append(problem)
    assert not failures, f"{len(failures)} hands disagree; the first: {failures[0]}"


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(rng=rngs)
def test_solver_agrees_with_brute_force_under_each_variant_hypothesis(
    name: str, tmp_path_factory: pytest.TempPathFactory, rng: random.Random
) -> None:
    """As above, hands drawn by hypothesis."""
    rules = rules_of(tmp_path_factory.mktemp(name), name)
    hand, jokers = variant_hand(rng, rules)
    assert disagreement_on(hand, jokers, rules, name) is None
    assert Counter(c for g in best_arrangement(hand, jokers, rules)[1] for c in g) == Counter(hand)


@pytest.mark.parametrize("preset", ["standard-10"])
def test_solver_agrees_with_brute_force_on_10_card_hands_of_standard_10(preset: str) -> None:
    """`deal.cards_per_hand` = 10 (000_'s '10 Cards Rummy'), with the preset's shoes of
    one and two decks: seeded 10-card hands, the solver against the brute force, and a
    card drawn: ``declaration`` finds a way (5+5 or 4+3+3, `declaration.groupings`)
    exactly when the brute force does."""
    if preset not in preset_ids():
        pytest.skip(f"no {preset} preset")
    rules = load_preset(preset)
    failures = []
    for seed in range(DIFFERENTIAL_HANDS):
        rng = random.Random(f"{preset}/{seed}")
        shoe = new_shoe(rng, rules)
        jokers = Jokers.for_wild_card(draw(rng, shoe, 1)[0], rules)
        hand = near_complete(rng, shoe, jokers, rules)[:10] if seed % 2 else draw(rng, shoe, 10)
        hand += draw(rng, shoe, 10 - len(hand))
        what = f"{preset} seed {seed}"
        problem = disagreement_on(hand, jokers, rules, what)
        if problem is None and rules.groupings is not None and seed % 3 == 1:
            after = [*hand, *draw(rng, shoe, 1)]
            found = declaration(after, jokers, rules)
            if (found is not None) != grouped_declarable(after, jokers, rules):
                problem = f"{what}: declaration {found} disagrees with the brute force"
        if problem is not None:
            failures.append(problem)
    assert not failures, f"{len(failures)} hands disagree; the first: {failures[0]}"
