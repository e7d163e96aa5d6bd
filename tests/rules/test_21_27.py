"""The 21- and 27-card rules (standard-21, standard-27): the worked examples of
docs/rules-21-27.md (sections 4.1-4.3), the up and down jokers by depth, the points of a
loser (pure sequences exempt, the ready hand), and the solver against the brute force on
hands small enough for it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from audit.cards import JOKER, code_of, format_codes
from audit.explain.points import points_view
from audit.replay.outcome import Expected
from audit.rules.declaration import check_declaration
from audit.rules.melds import Jokers, MeldKind, classify
from audit.rules.ruleset import load_preset
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_arrangement, best_points, declaration

from .hands import draw, new_shoe, random_meld, take
from .support import cards, flat, groups
from .test_solver import disagreement_on

R21 = load_preset("standard-21")
R27 = load_preset("standard-27")
SEVENS = Jokers.for_wild_card("7H", R21)
"""The examples' jokers: every 7, 8H up, 6H down, and the printed jokers."""

VALID_21 = "2S 3S 4S 5S / 9D TD JD QD / AC 2C 3C / 4D 5D 8H / KC KD KS KH / 9C 9H JK"
TUNNELA_LOSER = "2S 3S 4S / 9D TD JD / 5C 5C 5C / KS KD 7S / AS AD 8H / TC JC 6H / 2C 3D 4H"
DUBLEES = "2S 2S / 4D 4D / 6C 6C / 9H 9H / TS TS / JD JD / QC QC / KH KH"


def _declare(text: str) -> tuple[bool, tuple[str, ...]]:
    shown = groups(text)
    check = check_declaration(flat(text), shown, SEVENS, R21)
    return check.valid, check.reasons


# ---------------------------------------------------------------- 4.1


def test_declaration_min_pure_runs_three_pure_sequences_and_melds_are_valid() -> None:
    """docs/rules-21-27.md 4.1; Classic Rummy: “Melding of three pure sequences along with
    the remaining cards melded into valid sequences and/or sets”."""
    assert _declare(VALID_21) == (True, ())
    assert len(flat(VALID_21)) == 21


def test_declaration_min_pure_runs_two_pure_sequences_are_invalid_and_cost_120() -> None:
    """docs/rules-21-27.md 4.1 (AC 2C 7C for AC 2C 3C: 7C is a joker, the run impure);
    Classic Rummy: “the player will lose 120 points”."""
    valid, reasons = _declare(VALID_21.replace("AC 2C 3C", "AC 2C 7C"))
    assert not valid
    assert reasons == ("it has 2 pure sequences; it needs 3",)
    assert R21.invalid_penalty == 120


def test_declaration_min_pure_runs_two_pure_sequences_and_no_other_are_said_once() -> None:
    """docs/rules-21-27.md 1.1 (`declaration.min_pure_runs` 3, every sequence needed pure):
    two pure sequences and no other sequence fail for want of a third pure one, said once;
    "it has 2 sequences; a declaration needs at least 3 sequences" read as if an impure
    third would do (a blind tester)."""
    text = "2S 3S 4S 5S / 9D TD JD QD / AC AH AS / 4D 5D 8H / KC KD KS KH / 9C 9H JK"
    valid, reasons = _declare(text)
    assert not valid
    assert reasons == ("it has 2 pure sequences; it needs 3",)


# ---------------------------------------------------------------- 4.2


def test_melds_tunnela_kind_a_tunnela_is_a_pure_sequence() -> None:
    """docs/rules-21-27.md 4.2; Classic Rummy: “A Tunnela is a pure sequence in 21 card
    rummy.”"""
    verdict = classify(cards("5C 5C 5C"), SEVENS, R21)
    assert verdict.is_run
    assert verdict.is_pure_run
    assert "tunnela" in verdict.reason
    # A joker never completes one: 5C 5C with a joker is no tunnela, nor a set.
    assert not classify(cards("5C 5C JK"), SEVENS, R21).is_valid
    # Three copies of a wild card are three identical cards (the public 21-card engine).
    wild = classify(cards("7S 7S 7S"), SEVENS, R21)
    assert wild.is_pure_run
    assert "tunnela" in wild.reason


def test_melds_tunnela_kind_a_loser_with_a_tunnela_among_three_pure_sequences_pays_9() -> None:
    """docs/rules-21-27.md 4.2: 5C 5C 5C counts as the third pure sequence; as a
    declaration only 2C 3D 4H is wrong, as a loser's hand it scores 2 + 3 + 4 = 9."""
    valid, reasons = _declare(TUNNELA_LOSER)
    assert not valid
    assert reasons == ("2C 3D 4H is neither a sequence nor a set: its cards mix suits and ranks",)
    score = score_arrangement(groups(TUNNELA_LOSER), SEVENS, R21)
    assert score.points == 9
    assert score.requirement_met
    assert not score.ready
    assert score.summary() == "the cards left unmatched, 2C 3D 4H, are worth 9"
    # The solver finds it at least as well (AS with 2S 3S 4S leaves AD 8H... fewer points).
    assert best_points(flat(TUNNELA_LOSER), SEVENS, R21) <= 9


def test_declaration_alternatives_three_tunnelas_are_a_declaration() -> None:
    """docs/rules-21-27.md 4.2; Classic Rummy: “Melding a minimum of three Tunnelas. In
    this case, players do not need to arrange the remaining cards”."""
    text = "4S 4S 4S / TD TD TD / JK JK JK / 2C 5D 9H KS QH 3D 8S 8C TH AS 6D 5S"
    assert _declare(text) == (True, ())
    check = check_declaration(flat(text), groups(text), SEVENS, R21)
    assert check.alternative.startswith("3 tunnelas")


def test_melds_printed_joker_tunnela_three_printed_jokers_are_a_tunnela() -> None:
    """docs/rules-21-27.md 4.2 (JK JK JK); Classic Rummy: “Three printed jokers put
    collectively to form a Tunnela is considered to be valid.”"""
    verdict = classify(cards("JK JK JK"), SEVENS, R21)
    assert verdict.is_pure_run
    assert "tunnela" in verdict.reason
    # As the third pure sequence, in the solver too: 2S 3S 4S, 9D TD JD and JK JK JK.
    hand = cards("2S 3S 4S 9D TD JD JK JK JK KC")
    assert best_points(hand, SEVENS, R21) == 10
    points, arranged = best_arrangement(hand, SEVENS, R21)
    assert points == 10
    assert [JOKER] * 3 in arranged
    assert score_arrangement(arranged, SEVENS, R21).points == 10


# ---------------------------------------------------------------- 4.3


def test_declaration_alternatives_eight_dublees_are_a_declaration() -> None:
    """docs/rules-21-27.md 4.3; Classic Rummy: “Melding a minimum of eight Dublees”."""
    assert _declare(DUBLEES + " / QS 3C 5D AH JK") == (True, ())


def test_declaration_alternatives_seven_dublees_and_two_printed_jokers_are_eight() -> None:
    """docs/rules-21-27.md 4.3 (seven dublees + JK JK); Classic Rummy: “Two printed jokers
    can be clustered together to form a valid Dublee.”"""
    seven = DUBLEES.replace(" / KH KH", "")
    assert _declare(seven + " / JK JK / QS 3C 5D AH 9S") == (True, ())
    assert not _declare(seven + " / JK 8H / QS 3C 5D AH 9S")[0]  # a joker pair is no dublee


def test_declaration_alternatives_seven_dublees_laid_in_pairs_are_said_to_be_short() -> None:
    """docs/rules-21-27.md 4.3 (eight dublees): cards laid mostly in pairs are an attempt
    at the dublees, so the reason is the dublees they lack, on the rule of the
    alternatives; not each pair's "has 2 cards; a sequence or set needs at least 3" (a
    blind tester's seven dublees, KH KS for KH KH). Groups laid mostly as melds keep their
    reasons, group by group."""
    text = DUBLEES.replace("KH KH", "KH KS") + " / QS 3C 5D AH JK"
    check = check_declaration(flat(text), groups(text), SEVENS, R21)
    assert check.reasons == (
        "it holds 7 dublees where a declaration by dublees needs 8 (declaration.alternatives: "
        "8 dublees are a declaration); its pairs are no sequences or sets, which need at "
        "least 3 cards",
    )
    assert check.broken_rule() == "declaration.alternatives"
    melds = VALID_21.replace("9C 9H JK", "9C 9H / JK")
    valid, reasons = _declare(melds)
    assert not valid
    assert reasons[0].startswith("9C 9H has 2 cards; a sequence or set needs at least 3")


def test_points_ready_hand_a_loser_holding_six_dublees_pays_2() -> None:
    """docs/rules-21-27.md 4.3; Classic Rummy: “A player having six Dublees in hand in 21
    card rummy, when another player declares, will lose only 2 points.”"""
    text = "2S 2S 4D 4D 6C 6C 9H 9H TS TS JD JD QS 3C 5D AH 9S KD QH 8D 3S"
    hand = cards(text)
    score = score_arrangement([[c] for c in hand], SEVENS, R21)
    assert score.points == 2
    assert score.ready == "the hand holds 6 dublees"
    assert score.summary() == (
        "the hand was ready (the hand holds 6 dublees): 2 points (points.ready_hand)"
    )
    assert best_points(hand, SEVENS, R21) == 2
    # explain (read to the player) gives the ready hand as the step to the 2 charged, not
    # "every card counts ..." followed by a bare "charged 2 points".
    view = points_view(Expected("lost", 2, "points.ready_hand", "", score=score), SEVENS, R21)
    assert view is not None
    assert view.steps[-2:] == (
        "but the hand was ready (the hand holds 6 dublees): 2 points", "charged 2 points",
    )  # fmt: skip
    five = hand[2:] + cards("KS KC")  # five dublees: not ready
    assert score_arrangement([[c] for c in five], SEVENS, R21).points == 120


def test_points_ready_hand_a_melded_loser_pays_2() -> None:
    """docs/rules-21-27.md 1.1 (`points.ready_hand`): the public 21-card engine charges a
    melded hand 2, “penalty of 2 for not declaring on time”."""
    score = score_arrangement(groups(VALID_21), SEVENS, R21)
    assert score.points == 2
    assert score.ready.startswith("every card lies in melds")
    assert best_points(flat(VALID_21), SEVENS, R21) == 2
    points, arranged = best_arrangement(flat(VALID_21), SEVENS, R21)
    assert points == 2 == score_arrangement(arranged, SEVENS, R21).points


# ---------------------------------------------------------------- unmet requirement


def test_points_unmet_requirement_pure_runs_exempt_every_pure_sequence_is_spared() -> None:
    """docs/rules-21-27.md 1.1 (`points.unmet_requirement` = "pure_runs_exempt"); Adda52:
    “the entire hand is counted as points, with the exception of the pure sequences and
    jokers”. Two pure sequences (2S 3S 4S 5S, 9D TD JD QD) are not charged."""
    text = VALID_21.replace("AC 2C 3C", "AC 2C 7C")
    score = score_arrangement(groups(text), SEVENS, R21)
    assert format_codes(score.exempt) == "2S 3S 4S 5S 9D TD JD QD"
    assert score.points == 10 + 2 + 4 + 5 + 40 + 9 + 9  # AC 2C 4D 5D KC KD KS KH 9C 9H
    assert score.summary().startswith(
        "every card but the pure sequences 2S 3S 4S 5S and 9D TD JD QD counts"
    )
    # The solver spares them too, and does better: 9C 9H with a joker is not needed...
    hand = flat(text)
    points, arranged = best_arrangement(hand, SEVENS, R21)
    assert points == best_points(hand, SEVENS, R21)
    assert points == score_arrangement(arranged, SEVENS, R21).points <= score.points


def test_points_unmet_requirement_no_pure_sequence_counts_every_card_to_the_cap() -> None:
    """docs/rules-21-27.md 4.4 (C's hand): no pure sequence, every card counts, 150 -> 120."""
    hand = cards("KS KD QC QH JS JD TC TH AS AD 9C 9H 8S 8D 6H 6H 2C 4D 3S 5S 2H")
    assert best_points(hand, SEVENS, R21) == 120


# ---------------------------------------------------------------- jokers by depth


@pytest.mark.parametrize(
    ("preset", "cut", "kinds"),
    [
        ("standard-27", "5S", "5S 6S 4S 7S 3S"),
        ("standard-27", "AC", "AC 2C KC 3C QC"),
        ("standard-27", "JK", "AS 2S KS 3S QS"),
        ("standard-21", "JK", "AS 2S KS"),
        ("standard-21", "7H", "7H 8H 6H"),
    ],
)
def test_jokers_up_down_depth_up_and_down_jokers(preset: str, cut: str, kinds: str) -> None:
    """docs/rules-21-27.md 2 (27 cards: two up, two down; KhelPlay: “If 5♠ is selected as a
    Wild Card Joker, then 3♠ is considered as 2 down joker, 4♠ as 1 down joker, 6♠ as 1 up
    joker and 7♠ as 2 up joker.”) and 1.1 (a printed joker turned up stands for AS: Classic
    Rummy, KhelPlay)."""
    rules = load_preset(preset)
    jokers = Jokers.for_wild_card(cut, rules)
    assert format_codes(jokers.kinds) == kinds
    for code in cards(kinds)[1:]:
        assert jokers.is_joker(code)
    rank = 1 if cut == "JK" else cards(cut)[0] % 13 + 1
    assert all(jokers.is_joker(code_of(rank, s)) for s in range(4))


def test_jokers_up_down_depth_27_a_down_joker_fills_a_sequence() -> None:
    """docs/rules-21-27.md 2: with a 5S cut card 3S is a joker: 9D TD 3S is impure."""
    jokers = Jokers.for_wild_card("5S", R27)
    verdict = classify(cards("9D TD 3S"), jokers, R27)
    assert verdict.kind is MeldKind.IMPURE_RUN


# ---------------------------------------------------------------- the simulator's search


def test_declaration_alternatives_the_solver_finds_a_dublee_declaration() -> None:
    """docs/rules-21-27.md 1.2: eight dublees declare (the other cards unarranged)."""
    hand = cards("2S 2S 4D 4D 6C 6C 9H 9H TS TS JD JD QC QC KH KH QS 3C 5D AH JK 9S")
    found = declaration(hand, SEVENS, R21)
    assert found is not None
    finish, shown = found
    rest = list(hand)
    rest.remove(finish)
    assert check_declaration(rest, shown, SEVENS, R21).valid


def test_declaration_the_solver_finds_a_21_card_declaration_with_a_printed_tunnela() -> None:
    """docs/rules-21-27.md 4.2: JK JK JK is the third pure sequence."""
    hand = cards("2S 3S 4S 9D TD JD JK JK JK KC KD KS 5C 6C 7S 8C 9S 9H 9C QD QH QC")
    found = declaration(hand, SEVENS, R21)
    assert found is not None
    finish, shown = found
    rest = list(hand)
    rest.remove(finish)
    assert check_declaration(rest, shown, SEVENS, R21).valid


# ---------------------------------------------------------------- against the brute force

SIZE = 10


def deal_21_27(seed: int) -> tuple[list[int], Jokers, str]:
    """A small hand (``SIZE`` cards) under standard-21 or standard-27: plain, built of pure
    runs, tunnelas (of wild cards and printed jokers too) and dublees, or joker-heavy."""
    rng = random.Random(seed)
    preset = ("standard-21", "standard-27")[seed % 2]
    rules = load_preset(preset)
    shoe = new_shoe(rng, rules)
    wild = draw(rng, shoe, 1)[0]
    jokers = Jokers.for_wild_card(wild, rules)
    kind = seed // 2 % 3
    hand: list[int] = []
    if kind == 1:
        for _ in range(20):
            if len(hand) >= SIZE - 2:
                break
            roll = rng.random()
            if roll < 0.4:
                meld = random_meld(rng, shoe, jokers, rules, pure_run=True)
            elif roll < 0.8:
                code = rng.choice([c for c in sorted(+shoe) if shoe[c] >= 2])
                meld = [code] * rng.choice((2, 3, 3)) if take(shoe, [code] * 2) else None
                if meld is not None:
                    shoe.update([code] * 2)
                    meld = meld if take(shoe, meld) else None
            elif roll < 0.9 and take(shoe, [JOKER] * 3):
                meld = [JOKER] * 3
            else:
                meld = random_meld(rng, shoe, jokers, rules)
            if meld is None:
                continue
            if len(hand) + len(meld) > SIZE:
                shoe.update(meld)
                continue
            hand += meld
    elif kind == 2:
        n = rng.randint(3, 5)
        hand = draw(rng, shoe, n, jokers=(jokers, True))
    hand += draw(rng, shoe, SIZE - len(hand))
    rng.shuffle(hand)
    return hand, jokers, preset


def test_solver_agrees_with_brute_force_on_21_and_27_card_rules() -> None:
    """standard-21 and standard-27 (tunnelas as pure sequences, of printed jokers too,
    pure_runs_exempt, the ready hand, up and down jokers): the solver's points and
    arrangement are the brute force's (over ``classify``), and those of its groups."""
    failures = []
    for seed in range(300):
        hand, jokers, preset = deal_21_27(seed)
        what = f"seed {seed}: {format_codes(sorted(hand))} under {preset} ({jokers.describe()})"
        problem = disagreement_on(hand, jokers, load_preset(preset), what)
        if problem is not None:
            failures.append(problem)
    assert not failures, f"{len(failures)} disagree; the first: {failures[0]}"


def test_solver_on_a_hand_of_three_printed_jokers_and_a_wild_tunnela() -> None:
    """The tunnelas the solver books apart (printed jokers, wild cards) against the brute
    force: 2S 3S 4S, JK JK JK and 7S 7S 7S are the three pure sequences."""
    hand = cards("2S 3S 4S JK JK JK 7S 7S 7S KD")
    assert disagreement_on(hand, SEVENS, R21, "printed and wild tunnelas") is None
    assert best_points(hand, SEVENS, R21) == 10
    assert Counter(hand)[JOKER] == 3


def test_declaration_alternatives_are_named_by_rules_check() -> None:
    """`declaration.alternatives`: `rules check` says which other way to declare a valid
    declaration meets (docs/rules-21-27.md 4.3: eight dublees, the last 5 cards need no
    arrangement), so a support agent can read it to the player."""
    from audit.rules.explain import check_groups_text
    from audit.rules.ruleset import load_preset

    groups = ["2S 2S", "4D 4D", "6C 6C", "9H 9H", "TS TS", "JD JD", "QC QC", "KH KH"]
    text = check_groups_text(
        [*groups, "QS 3C 5D AH JK"], wild="7H", rules=load_preset("standard-21")
    )
    assert (
        "declaration: VALID, as 8 dublees, 2S 2S, TS TS, 9H 9H, KH KH, 4D 4D, JD JD, 6C 6C,"
        " QC QC (declaration.alternatives" in text
    )


@pytest.mark.parametrize(
    "change",
    [
        {"wild_natural_keeps_pure": False},
        {"run_wraps": True},
        {"ace_low": False},
        {"tunnela_kind": "set"},
    ],
    ids=lambda change: ",".join(f"{k}={v}" for k, v in change.items()),
)
def test_solver_cut_on_pure_runs_agrees_with_brute_force_on_variants(change: dict) -> None:
    """The search's cut on the pure runs the cards left can still make (three pure
    sequences asked) reads the wild cards, the ace's places, wrapping runs and the kind of
    a tunnela: under each, the solver's answers are the brute force's."""
    from dataclasses import replace

    failures = []
    for seed in range(60):
        hand, jokers, preset = deal_21_27(seed)
        rules = replace(load_preset(preset), **change)
        jokers = Jokers.for_wild_card(jokers.wild_card, rules)
        what = f"seed {seed}: {format_codes(sorted(hand))} under {preset} {change}"
        problem = disagreement_on(hand, jokers, rules, what)
        if problem is not None:
            failures.append(problem)
    assert not failures, f"{len(failures)} disagree; the first: {failures[0]}"


@pytest.mark.parametrize(
    ("preset", "wild", "hand", "points"),
    [
        ("standard-21", "9S", "6S 8S AH AH 2H 4H 6H 7H 8H 9H 9H 9H TH JH QH 8D 9D 9D TD JD 6C", 2),
        ("standard-21", "6S", "4S 5S 6S 7S 8S 9S TS 3H 6H 7H 2C 5C 6C 6C 7C 7C 8C 8C 9C 9C KC", 6),
        (
            "standard-27",
            "8S",
            "2S 5S 6S 6S 6S 7S 8S AH 9H TH JH QH KH KH 7D AC 4C 5C 6C 7C 8C 9C TC TC JC QC KC",
            2,
        ),
    ],
)
def test_best_points_is_best_arrangement_on_full_hands(
    preset: str, wild: str, hand: str, points: int
) -> None:
    """On whole 21- and 27-card hands with many jokers (the search's slowest), the points
    alone (searched without looking for ties) are those of the best arrangement, and that
    arrangement is charged them."""
    rules = load_preset(preset)
    jokers = Jokers.for_wild_card(wild, rules)
    codes = cards(hand)
    found, arranged = best_arrangement(codes, jokers, rules)
    assert best_points(codes, jokers, rules) == found == points
    assert score_arrangement(arranged, jokers, rules).points == points


def test_deadwood_of_a_ready_21_card_hand_is_0_not_the_ready_charge() -> None:
    """`points.ready_hand` charges a ready loser 2 points, but the fair-play facts measure
    how far a dropped hand was from complete (audit/replay/facts.py ``deadwood``): a hand
    whose cards all lie in melds is 0 there, and six dublees with loose cards are their
    cards' points (docs/rules-21-27.md 4.3: six dublees pay 2 only as a loser's charge)."""
    from audit.cards import parse_codes
    from audit.replay.facts import deadwood
    from audit.rules.melds import Jokers
    from audit.rules.ruleset import load_preset

    r21 = load_preset("standard-21")
    jokers = Jokers.for_wild_card("7H", r21)
    melded = "2S 3S 4S 5S 9D TD JD QD AC 2C 3C 4D 5D 8H KC KD KS KH 9C 9H JK"
    assert deadwood(parse_codes(melded.split()), jokers, r21) == 0
    dublees = "2S 2S 4D 4D 6C 6C 9H 9H TS TS JD JD KC QD 3C 5D AH 8S 9S JC KD"
    assert deadwood(parse_codes(dublees.split()), jokers, r21) > 2


# ---------------------------------------------------------------- words of an unmet requirement

SHOWN_UNGROUPED = "AS JS 5C 3C QH QC 4S 7H 8C TH JK QC 8S KC TH 7D AH 6S QS AC 8D"
"""A blind tester's 21-card loser (wild card JD): shown all ungrouped, holding QC KC AC."""


def test_points_unmet_requirement_a_loser_shown_ungrouped_is_told_the_pure_sequence_held() -> None:
    """`points.unmet_requirement` ("pure_runs_exempt": seeds silent on 21 cards; Adda52:
    "with the exception of the pure sequences"; 003_f375e2c560403297.txt: "else all the 13
    cards are treated as unmatched") and `points.cap` (000_1729c72ad4c1f885.txt: "A maximum
    Full count is 80 points"; 120 for 21 cards). A loser shown ungrouped whose cards hold
    QC KC AC was told "every card counts because it has no pure sequence", and shown every
    card ungrouped as the best (156 and 126 both capped at 120). `rules check` says what
    their cards hold against the 3 pure sequences needed, that the sequence was not laid
    and so not spared, and the best arrangement with it grouped, equal only by the cap."""
    from audit.rules.explain import check_groups_text

    text = check_groups_text([SHOWN_UNGROUPED], wild="JD", rules=R21)
    assert (
        "as a losing hand: 120 points (every card counts because no arrangement of their "
        "cards makes the 3 pure sequences that a declaration needs, though they hold the pure "
        "sequence QC KC AC, and the groups given do not lay it as a sequence, so it is not "
        "spared; the cards, " in text
    ), text
    assert ("best possible: 120 points, the same as arranged because of the cap (points.cap): "
            "at best the cards are worth 126, capped at 120, arranged as:\n"
            "  group 1: QC KC AC: pure sequence") in text  # fmt: skip
    # grouped as the best arrangement lays it, "as arranged" again
    laid = check_groups_text(
        ["QC KC AC", SHOWN_UNGROUPED.replace("QC 8S KC", "8S").replace(" AC ", " ")],
        wild="JD", rules=R21,
    )  # fmt: skip
    assert "best possible: 120 points, as arranged" in laid, laid


def test_points_ready_hand_is_said_to_be_a_valid_declaration_where_it_is_one() -> None:
    """`points.ready_hand` (standard-21: seeds silent; Classic Rummy: "A player having six
    Dublees in hand in 21 card rummy, when another player declares, will lose only 2
    points"): the best a 21-card hand of three pure sequences and every card melded comes
    to is 2 points as a loser's, and it is a valid declaration, which `rules check` says
    (a blind tester read "best possible: 2 points" beside a declaration as one that could
    not win). Six dublees are ready too, but no declaration (eight are)."""
    from audit.rules.explain import check_groups_text

    text = check_groups_text(["2S 3S 4S 5S 9D TD JD QD AC 2C 3C", "4D 5D 8H KC KD KS KH 9C 9H JK"],
                             wild="7H", rules=R21)  # fmt: skip
    assert ("best possible: 2 points as a losing hand, the hand ready (every card lies in "
            "melds that meet the declaration requirement: points.ready_hand), and a valid "
            "declaration, arranged as:") in text, text  # fmt: skip
    assert "declaration: INVALID" in text  # as laid, in two groups
    six = check_groups_text(["2S 2S 4D 4D 6C 6C 9H 9H TS TS JD JD QC 3S 5D AH KC 8C QD 2H 5C"],
                            wild="7H", rules=R21)  # fmt: skip
    assert "the hand was ready (the hand holds 6 dublees)" in six
    assert "best possible: 2 points, as arranged" in six
    assert "valid declaration" not in six


def test_points_unmet_requirement_27_cards_a_loser_told_each_pure_sequence_held() -> None:
    """`points.unmet_requirement` (standard-27: "pure_runs_exempt", seeds silent on 27
    cards; 003_f375e2c560403297.txt for the 13-card rule it extends): a 27-card loser
    shown ungrouped, whose cards hold 3C 4C 5C and 7C 8C 9C but no third pure sequence, is
    told both, against the 3 a declaration needs, and that neither was spared."""
    from audit.rules.explain import unmet_why

    hand = cards("TD 8C AD AH AS 7C JH 3C TS 5D 5S 7C TH 9C 9D TD KC QC 6H 5C TH QS 4H 4C "
                 "5D 7S 3H")  # fmt: skip
    jokers = Jokers.for_wild_card("JS", R27)
    assert len(hand) == 27
    score = score_arrangement([hand], jokers, R27)
    assert score.unmet
    assert unmet_why(hand, score, jokers, R27) == (
        "no arrangement of their cards makes the 3 pure sequences that a declaration needs, "
        "though they hold the pure sequences 3C 4C 5C and 7C 8C 9C, and the groups they "
        "showed lay none of them as a sequence, so none is spared"
    )


def test_points_unmet_requirement_a_loser_whose_cards_could_meet_it_is_told_so() -> None:
    """`points.unmet_requirement` (seeds silent on 21 cards; 003_f375e2c560403297.txt):
    cards that hold three pure sequences, shown ungrouped, are told the groups make none of
    the 3 a declaration needs though their cards could; cards whose three pure sequences
    cost more points than two (3H..9H laid whole and QC KC AC: 84 points; split to make
    three, 93) are told they could, at no fewer points than the best arrangement, and
    which pure sequences they hold, not laid."""
    from audit.rules.explain import unmet_why

    could = cards("2S 3S 4S 9D TD JD QC KC AC 5H 5S 8D KS KH 2D 3C 6C 9H TS AH QH")
    score = score_arrangement([could], SEVENS, R21)
    assert unmet_why(could, score, SEVENS, R21) == (
        "the groups they showed make no sequence, not the 3 pure sequences that a "
        "declaration needs, though their cards could (see the best possible arrangement)"
    )
    dear = cards("2S 5S KS 3H 4H 5H 6H 7H 8H 9H 9H QH AD 2D 8D TD JD AC 8C QC KC")
    fours = Jokers.for_wild_card("4C", R21)
    score = score_arrangement([dear], fours, R21)
    assert best_points(dear, fours, R21) == 84
    assert unmet_why(dear, score, fours, R21) == (
        "the groups they showed make no sequence, not the 3 pure sequences that a "
        "declaration needs; their cards could make them, though at no fewer points than the "
        "best possible arrangement, and hold the pure sequences 3H 4H 5H 6H 7H 8H 9H and "
        "QC KC AC, and the groups they showed lay none of them as a sequence, so none is "
        "spared"
    )
