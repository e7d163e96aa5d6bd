"""Every hand-level check of the catalog: a clean hand raises nothing, a broken one raises
exactly the expected finding (check, hand, player, seq). docs/replay.md states the rules."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from audit.replay.outcome import audit_hand
from audit.rules.ruleset import load_preset
from audit.run import replay_logs
from tests.logs.logbuilder import hand_findings
from tests.replay.cases import CASES, Case, base, longer
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_check_in_memory(case: Case) -> None:
    game, hand = scenario(**case.kwargs)
    result = audit_hand(hand, game, load_preset(game.ruleset))
    got = [(f.check, f.hand_id, f.player_id, f.seq) for f in result.findings]
    if case.expect is None:
        assert result.status == "verified", [f.message for f in result.findings]
    else:
        assert got == [case.expect], [f.message for f in result.findings]
        assert result.status == "discrepancy"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_check_end_to_end(case: Case, tmp_path: Path) -> None:
    """The same hand written as a Parquet log root (events split over 3 files in reverse
    order) and replayed by `replay_logs`: findings.parquet holds exactly the finding."""
    game, hand = scenario(**case.kwargs)
    logs = write_log(tmp_path / "logs", [(game, hand)], split_events_into=3, shuffle_files=True)
    summary = replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False)
    findings = hand_findings(tmp_path / "out")
    got = [(f["check"], f["hand_id"], f["player_id"], f["seq"]) for f in findings]
    hands = pq.read_table(tmp_path / "out" / "hands.parquet").to_pylist()
    assert [h["hand_id"] for h in hands] == ["H1"]
    if case.expect is None:
        assert got == [], [f["message"] for f in findings]
        assert hands[0]["status"] == "verified"
        assert summary.exit_status == 0
    else:
        assert got == [case.expect], [f["message"] for f in findings]
        assert hands[0]["status"] == "discrepancy"
        assert all(f["message"] and f["rule"] for f in findings)


def test_declaration_groups_exact_names_a_show_of_no_cards() -> None:
    """Rule declaration.groups_exact (000_1729c72ad4c1f885.txt, 004_4c9baa4cf67655ae.txt): a
    show whose one group is empty is a mismatch, and the message says no cards were shown
    rather than leaving a blank ("P2 showed , but held ...")."""
    (case,) = [c for c in CASES if c.name == "declare.groups_mismatch"]
    game, hand = scenario(**case.kwargs)
    hand.events[-1] = hand.events[-1]._replace(groups=[[]])
    (found,) = audit_hand(hand, game, load_preset(game.ruleset)).findings
    assert found.check == "declare.groups_mismatch"
    assert found.message.startswith("P2 showed no cards, but held ")


def test_score_outcome_of_a_swapped_winner_reads_as_a_sentence() -> None:
    """A winner recorded as the loser and the loser as the winner (004_: 'A player wins the
    game by making a valid declaration first'): two score.outcome findings, the loser's
    saying what its cards are worth, not "P2 every card counts ..." (a blind
    tester); no score.amount, as the money follows a verdict the rules refuse
    (schemas/money.md)."""
    (case,) = [c for c in CASES if c.name == "score.points"]
    swapped = {"P1": ("lost", 0, "-40.00"), "P2": ("won", 0, "36.00")}
    game, hand = scenario(**{**case.kwargs, "results": swapped})
    found = {f.player_id: f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings}
    assert {f.check for f in found.values()} == {"score.outcome"}
    assert found["P1"].message == (
        "P1 is recorded as lost, but the hand gives won: P1 made a valid declaration."
    )
    assert found["P2"].message.startswith(
        "P2 is recorded as won (0 points), but the hand gives lost (40 points): P1 won the "
        "hand, and every card counts because it has no sequences; "
    )


def test_drop_penalty_a_middle_drop_charged_as_a_first_drop_000() -> None:
    """000_1729c72ad4c1f885.txt: a middle drop is a drop after "drawing and discarding in
    an earlier turn", 40 points in points rummy. One recorded as a first drop at 20 was a
    score.outcome naming no points: the 20 points short were said nowhere (a blind
    tester); it is a drop charged the wrong penalty, audit-output.md's drop.penalty (a
    second blind tester filtered on it), and its words say each kind's points. The same
    points are not said twice."""
    (case,) = [c for c in CASES if c.name == "draw.forbidden"]  # P1 drops after a turn
    early = {"P1": ("first_drop", 20, "-20.00"), "P2": ("won", 0, "18.00")}
    game, hand = scenario(**{**case.kwargs, "results": early})
    every = audit_hand(hand, game, load_preset(game.ruleset)).findings
    assert not [f for f in every if f.check == "score.outcome"]
    found = [f for f in every if f.check == "drop.penalty"]
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("P1", "middle_drop", "first_drop")
    ]
    # the money followed the 20 points charged: said in the drop's finding, not also as a
    # score.amount per player (followed.follows_points; docs/replay.md, "Money")
    assert not [f for f in every if f.check == "score.amount"]
    assert found[0].message.startswith(
        "P1 is recorded as first drop (20 points), but the hand gives middle drop (40 points): "
    )
    assert found[0].message.endswith(
        "; the hand's money follows the 20 points charged: the record settles P1 at -20.00 "
        "where the rules give -40.00 and P2 at 18.00 where they give 36.00.")
    swapped = {"P1": ("lost", 0, "-40.00"), "P2": ("won", 0, "36.00")}
    (clean,) = [c for c in CASES if c.name == "score.points"]
    game, hand = scenario(**{**clean.kwargs, "results": swapped})
    found = audit_hand(hand, game, load_preset(game.ruleset)).findings
    assert all("(0 points), but the hand gives won" not in f.message for f in found)


def test_score_outcome_a_middle_drop_recorded_as_lost_at_80_is_one_finding_with_its_money_000(
) -> None:
    """schemas/money.md, Points rummy: a middle drop recorded as a hand lost at 80 is a
    wrong charge on a loser, judged like wrong points: whose money followed it exactly, one
    finding, the ``score.outcome``, whose words end with the money (000_1729c72ad4c1f885.txt:
    a middle drop, 40 points). A blind tester's had a ``score.amount`` as well."""
    (case,) = [c for c in CASES if c.name == "draw.forbidden"]  # P1 drops after a turn
    lost = {"P1": ("lost", 80, "-80.00"), "P2": ("won", 0, "72.00")}
    game, hand = scenario(**{**case.kwargs, "results": lost})
    every = [f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings
             if f.check != "draw.forbidden"]  # the case's own fault, P2's
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in every] == [
        ("score.outcome", "P1", "middle_drop", "lost")]
    assert every[0].message.endswith(
        "; the hand's money follows the 80 points charged: the record settles P1 at -80.00 "
        "where the rules give -40.00 and P2 at 72.00 where they give 36.00.")


def test_score_amount_a_winner_who_follows_the_losers_recorded_amounts_is_said_once() -> None:
    """schemas/money.md, "Points rummy" (``money.points_settlement``: amounts rounded
    half-up to the paisa): P2 lost 77 points at 0.0050 a point, 0.385, which the record
    rounds down to -0.38 (the rules' -0.39), and P1's 0.34 is what P2's recorded 0.38 pays
    less the 10.00% rake of 0.04 (the rules' 0.35). One fault: P2's score.amount, whose
    words say the winner's amount followed, not also P1's, "P1 won 0.39 from the losers",
    where P2 paid 0.38 (a blind tester). A winner's amount wrong another way keeps its own."""
    game, hand = scenario(**longer(point_value="0.0050", results={
        "P1": ("won", 0, "0.34"), "P2": ("lost", 77, "-0.38")}))  # fmt: skip
    found = audit_hand(hand, game, load_preset(game.ruleset)).findings
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in found] == [
        ("score.amount", "P2", "-0.39", "-0.38")]
    assert found[0].message == (
        "P2 lost 77 points at 0.0050 a point, so the amount should be -0.39, but the record "
        "shows -0.38; 0.385 rounds half up to 0.39 (money.md: the audit's reading, the seeds "
        "giving no rounding), and the record rounds it down; "
        "the winner's amount follows the losers' amounts as recorded, 0.38 paid less the "
        "10.00% rake of 0.04: the record settles P1 at 0.34 where the rules give 0.35."
    )
    game, hand = scenario(**longer(point_value="0.0050", results={
        "P1": ("won", 0, "0.33"), "P2": ("lost", 77, "-0.38")}))  # fmt: skip
    found = audit_hand(hand, game, load_preset(game.ruleset)).findings
    assert [(f.check, f.player_id) for f in found] == [
        ("score.amount", "P2"), ("score.amount", "P1")]


def test_results_one_row_per_seated_player_standard_13() -> None:
    """The log contract (log-format.md, results: "one row per seated player"), in
    standard-13 (000_1729c72ad4c1f885.txt's points rummy): the loser P2's row left out is
    one `score.outcome`, citing that rule (`results.player_id`), not `turns.order`; the
    winner's 36.00 is right (P2 paid the rules' 40), so no `score.amount` follows."""
    (case,) = [c for c in CASES if c.name == "clean first-hand show"]
    results = {"P1": case.kwargs["results"]["P1"]}
    game, hand = scenario(**{**case.kwargs, "results": results})
    found = audit_hand(hand, game, load_preset(game.ruleset)).findings
    assert [(f.check, f.player_id) for f in found] == [("score.outcome", "P2")]
    assert found[0].rule.startswith("results.player_id: ")
    assert found[0].message == "No result is recorded for P2, who was dealt in."


def test_results_a_row_of_a_player_not_dealt_in_settles_no_money_standard_13() -> None:
    """The log contract (log-format.md, results: "one row per seated player"): a row for
    P9, not dealt in, losing 40.00, is one `score.outcome`; its loss is no one's to win,
    so the winner's right 36.00 is no `score.amount` (a blind tester: it was called short
    of the 72.00 the intruder's loss would have paid)."""
    (case,) = [c for c in CASES if c.name == "clean first-hand show"]
    results = {**case.kwargs["results"], "P9": ("lost", 40, "-40.00")}
    game, hand = scenario(**{**case.kwargs, "results": results})
    found = audit_hand(hand, game, load_preset(game.ruleset)).findings
    assert [(f.check, f.player_id) for f in found] == [("score.outcome", "P9")]


def test_a_joker_left_in_hand_counts_0_and_a_charge_of_its_face_value_cites_that_004() -> None:
    """004_4c9baa4cf67655ae.txt: 'Jokers: 0 points' (`points.joker_points`). P2 shows two
    sequences and is left with AS 3C 5D 7H 6C 8C TD, 8C a joker (the wild card is 8S):
    41 points. Recorded 49, the 8C charged as an 8: the `score.points` finding says 8C is a
    joker of 0 points and cites the joker rule, not the card points (it said only "are
    worth 41", citing `points.card_points`: a blind tester). Recorded 45, not the joker's
    doing: the words still say it, the rule cited is the card points."""
    show = "P2 show: TC JC QC / 2D 4D 8H / AS 3C 5D 7H 6C 8C TD"
    kwargs = longer()
    kwargs["events"] = [*kwargs["events"][:-1], show]
    for charged, key in ((49, "points.joker_points"), (45, "points.card_points")):
        results = {"P1": ("won", 0, "69.30"), "P2": ("lost", charged, "-77.00")}
        game, hand = scenario(**{**kwargs, "results": results})
        found = [f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings
                 if f.check == "score.points"]  # fmt: skip
        assert [(f.player_id, f.expected, f.recorded) for f in found] == [
            ("P2", "41", str(charged))
        ]
        assert found[0].message == (
            f"P2 was charged {charged} points; the cards left unmatched, AS 3C 5D 7H 6C 8C "
            "TD, are worth 41, as shown: 8C is a joker, 0 points."
        )
        assert found[0].rule.startswith(f"{key}: ")


def test_points_joker_points_a_wild_joker_set_aside_alone_charged_its_face_value_cites_004(
) -> None:  # fmt: skip
    """004_4c9baa4cf67655ae.txt: 'Jokers: 0 points' (`points.joker_points`; docs/replay.md,
    "Outcomes and points": the record's points with each wild joker counted as its card).
    With eights wild, P2 shows 8C alone, a group of jokers (`melds.jokers_only_group`), and
    is left with AS 3C 5D 7H 6C TD: 41 points. Recorded 49, 8C charged as an 8: the
    `score.points` finding says 8C is a joker of 0 points and cites the joker rule (a blind
    tester's 13-card 9H shown alone cited `jokers.wild_rank_from_wild_card`, "9H is a group
    of jokers, and the 42 charged is what the cards come to if 9H is a plain card", the
    words docs/replay.md keeps for a 21- or 27-card joker completing a group). Recorded 45,
    not the joker's doing, it cites the card points."""
    show = "P2 show: TC JC QC / 2D 4D 8H / AS 3C 5D 7H 6C TD / 8C"
    kwargs = longer()
    kwargs["events"] = [*kwargs["events"][:-1], show]
    for charged, key, words in ((49, "points.joker_points",
                                 ": 8C is a joker, 0 points, set aside as a joker alone"),
                                (45, "points.card_points", "")):  # fmt: skip
        results = {"P1": ("won", 0, "69.30"), "P2": ("lost", charged, "-77.00")}
        game, hand = scenario(**{**kwargs, "results": results})
        found = [f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings
                 if f.check == "score.points"]  # fmt: skip
        assert [(f.player_id, f.expected, f.recorded) for f in found] == [
            ("P2", "41", str(charged))
        ]
        assert found[0].message == (
            f"P2 was charged {charged} points; the cards left unmatched, AS 3C 5D 7H 6C TD, "
            f"are worth 41, as shown{words}."
        )
        assert found[0].rule.startswith(f"{key}: ")


def test_an_ace_charged_as_a_joker_says_the_printed_joker_made_aces_wild() -> None:
    """`jokers.printed_joker_wild_rank` (log-format.md: a printed joker turned up as the
    wild card makes a rank wild, "usually aces"): the score.points finding that counts AS
    at 0 says why an ace is a joker there (it said only "AS is a joker": a blind tester's
    support agent could not tell the player)."""
    show = "P2 show: TC JC QC / 2D 4D 8H / AS 3C 5D 7H 6C 8C TD"
    kwargs = longer(wild="JK")
    kwargs["events"] = [*kwargs["events"][:-1], show]
    results = {"P1": ("won", 0, "69.30"), "P2": ("lost", 99, "-77.00")}
    game, hand = scenario(**{**kwargs, "results": results})
    found = [f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings
             if f.check == "score.points"]  # fmt: skip
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [("P2", "80", "99")]
    assert found[0].message.endswith(
        ": the wild card is a printed joker, so aces are jokers "
        "(jokers.printed_joker_wild_rank): AS is a joker, 0 points."
    )


def test_jokers_printed_joker_wild_rank_an_ace_making_a_sequence_is_the_rule_of_its_charge() -> (
    None
):
    """`jokers.printed_joker_wild_rank` (log-format.md: 'If the wild card is a printed
    joker, the ruleset says which rank is wild (usually aces)'): with JK turned up, P2 shows
    TC JC QC and 2D AS 4D, the ace standing for 3D, so the two sequences are there and the
    seven cards left count 47. The record charged 80, what the cards come to with aces as
    plain cards (no second sequence, every card counts, capped). The `score.points` finding
    says the aces are jokers and why, and cites that rule: it said only "are worth 47",
    citing `points.card_points` (a blind tester's support agent could not say why 80 was
    wrong). Charged 50, no ace's doing, it cites the card points and says nothing of aces."""
    show = "P2 show: TC JC QC / 2D AS 4D / 3C 5D 7H 8H 6C 8C TD"
    kwargs = longer(wild="JK")
    kwargs["events"] = [*kwargs["events"][:-1], show]
    said = (
        "P2 was charged {}; the cards left unmatched, 3C 5D 7H 8H 6C 8C TD, are worth 47, as "
        "shown"
    )
    for charged, key, words in (
        (80, "jokers.printed_joker_wild_rank", ": the wild card is a printed joker, so aces "
         "are jokers (jokers.printed_joker_wild_rank): AS makes 2D AS 4D an impure sequence; "
         "the 80 charged counts aces as plain cards."),
        (50, "points.card_points", "."),
    ):  # fmt: skip
        results = {"P1": ("won", 0, "69.30"), "P2": ("lost", charged, f"-{charged}.00")}
        game, hand = scenario(**{**kwargs, "results": results})
        found = [f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings
                 if f.check == "score.points"]  # fmt: skip
        assert [(f.player_id, f.expected, f.recorded) for f in found] == [
            ("P2", "47", str(charged))
        ]
        assert found[0].message == said.format(f"{charged} points") + words
        assert found[0].rule.startswith(f"{key}: ")


def test_game_kind_a_loser_recorded_as_the_winner_cites_the_win_not_the_card_points_000() -> None:
    """`game.kind` (000_1729c72ad4c1f885.txt: 'When a player declares a Show, the player
    needs to validate all the Sequences and Sets he has made'; the first valid declaration
    ends the hand): P1 declares validly and P2, who showed, is recorded as won too. P2's
    `score.outcome` names P1 as the winner and cites the rule that makes P2 a loser; it
    cited `points.first_hand_show_cap`, the rule of P2's 40 points, not of the outcome."""
    results = {"P1": ("won", 0, "36.00"), "P2": ("won", 0, "-20.00")}
    game, hand = scenario(**base(results=results))
    found = [f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings
             if f.check == "score.outcome"]  # fmt: skip
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [("P2", "lost", "won")]
    assert found[0].message.startswith(
        "P2 is recorded as won (0 points), but the hand gives lost (40 points): P1 won the "
        "hand, and every card counts because it has no sequences;"
    )
    assert found[0].rule.startswith("game.kind: ")


def test_jokers_up_down_depth_a_down_2_joker_charged_as_a_plain_card_is_the_rule_of_its_charge(
) -> None:  # fmt: skip
    """`jokers.up_down_depth` (000_1729c72ad4c1f885.txt: 'makes use of an extra group of 2
    Up & 2 Down Jokers'): in 27 cards with JK turned up, AS stands as the cut card and QS
    is its second down joker, so B's 8S 8H QS is a set and B's six cards left count 36. The
    record charged 62, what the cards come to with QS a plain card: the `score.points`
    finding names QS, why it is a joker and the set it completes, and cites that rule (a
    blind tester's down-2 joker scored plain cited `points.card_points`, naming only the
    cards left unmatched). Charged 40, no joker's doing, it cites the card points."""
    declared = ("9H TH JH QH KH / 2D 3D 4D / 8C 9C TC JC / 5D 6D 7D / 6H 7H 8H / KC KD KH / "
                "2C 3C 4C / 8C 8D 3S")  # fmt: skip
    a = declared.replace("/", " ").split()
    a.remove("KH")  # drawn, as the finish card 9S was dealt
    shown = ("4S 5S 6S / 9D TD JD / 3H 4H 5H / 5C 6C 7C / TD JD QD / 6D 7D 8D / 8S 8H QS / "
             "2H 7S TH 4C KC 3D")  # fmt: skip
    events = ["B draw_stock 9S", "B discard 9S", "A draw_stock KH", f"A declare 9S: {declared}",
              f"B show: {shown}"]  # fmt: skip
    for charged, key, words in (
        (62, "jokers.up_down_depth", "; QS is the 2nd down joker of the cut card AS "
         "(jokers.up_down_depth), so 8S 8H QS is a set, and the 62 charged is what the cards "
         "come to if QS is a plain card."),
        (40, "points.card_points", "."),
    ):  # fmt: skip
        game, hand = scenario(
            seats={"B": " ".join(shown.replace("/", " ").split()), "A": " ".join([*a, "9S"])},
            events=events, results={"B": ("lost", charged, "0"), "A": ("won", 0, "0")},
            wild="JK", open="4H", stock="9S KH", ruleset="standard-27", decks=3,
            printed_jokers=3)  # fmt: skip
        found = [f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings
                 if f.check == "score.points"]  # fmt: skip
        assert [(f.player_id, f.expected, f.recorded) for f in found] == [("B", "36", str(charged))]
        assert found[0].message == (f"B was charged {charged} points; the cards left unmatched, "
                                    f"2H 7S TH 4C KC 3D, are worth 36, as shown{words}")
        assert found[0].rule.startswith(f"{key}: ")


def test_melds_tunnela_kind_a_loser_charged_as_if_a_tunnela_were_no_pure_sequence_cites_it(
) -> None:  # fmt: skip
    """`melds.tunnela_kind` (standard-21: "A tunnela counts as a pure sequence"; seeds
    silent, Classic Rummy and Adda52 read it so): in 21 cards B shows 2S 3S 4S, 9D TD JD
    and the tunnela 5C 5C 5C, three pure sequences, so only 2C 3D 4H count: 9. The record
    charged 84, what the cards come to if the tunnela is no pure sequence: the `score.points`
    finding says so and cites that rule (a blind tester's such finding cited
    `points.card_points` and said only the cards left unmatched). Charged right, no
    finding on B's points."""
    a = "2S 3S 4S 5S / 9D TD JD QD / AC 2C 3C / 4D 5D 8H / KC KD KS KH / 9C 9H JK"
    b = "2S 3S 4S / 9D TD JD / 5C 5C 5C / KS KD 7H / AS AD 8H / TC JC 6H / 2C 3D 4H"
    c = "KS KD QC QH JS JD TC TH AS AD 9C 9H 8S 8D 6H 6H 2C 4D 3S 5S 2H"
    held = {p: " ".join(s.replace("/", " ").split()) for p, s in (("A", a), ("B", b), ("C", c))}
    for charged in (84, 9):
        game, hand = scenario(
            seats=held,
            wild="7H", open="QS", stock="QS 4C 9S 8H",
            events=["A draw_stock QS", "A discard QS", "B draw_stock 4C", "B discard 4C",
                    "C draw_stock 9S", "C discard 9S", "A draw_stock 8H", f"A declare 8H: {a}",
                    f"B show: {b}", f"C show: {c}"],
            results={"A": ("won", 0, None), "B": ("lost", charged, None),
                     "C": ("lost", 120, None)},
            ruleset="standard-21", decks=3, printed_jokers=3, point_value="0.5000")  # fmt: skip
        found = [f for f in audit_hand(hand, game, load_preset(game.ruleset)).findings
                 if f.check == "score.points"]  # fmt: skip
        if charged == 9:
            assert found == []
            continue
        assert [(f.player_id, f.expected, f.recorded) for f in found] == [("B", "9", "84")]
        assert found[0].message == (
            "B was charged 84 points; the cards left unmatched, 2C 3D 4H, are worth 9, as "
            "shown; 5C 5C 5C is a pure sequence (melds.tunnela_kind), and the 84 charged is "
            "what the cards come to if it is not.")
        assert found[0].rule.startswith("melds.tunnela_kind: ")
