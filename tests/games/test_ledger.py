"""Ledger balance and payouts (000_1729c72ad4c1f885.txt: chips "deducted and credited ...
with respect to the player's wins and losses"; a prize is "the wagering after deducting
the rake amount"; log-format.md, ledger)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.findings import Finding, Severity
from audit.games.ledger import check_ledger
from audit.logs.reader import iter_units, open_log_root
from audit.records import Game, GameEvent, Hand, LedgerRow, Result
from audit.replay.outcome import Expected
from audit.rules.ruleset import load_preset
from audit.sim import simulate

RULES = load_preset("standard-13")
D = Decimal


def keys(findings: list[Finding]) -> list[tuple[str, str, str | None, str | None]]:
    return [(f.check, f.game_id, f.hand_id, f.player_id) for f in findings]


def game(fmt: str, ledger: list[LedgerRow], **over: object) -> Game:
    g = Game(
        game_id="G1", table_id="T1", format=fmt, deals_count=2 if fmt == "deals" else None,
        cards_per_hand=13, ruleset="standard-13", decks=2, printed_jokers=2, max_players=6,
        chip_type="real", entry_fee=None if fmt == "points" else D("50.00"),
        point_value=D("0.5000") if fmt == "points" else None, rake_pct=D("12.50"),
        running=False, ledger=ledger,
    )  # fmt: skip
    return replace(g, **over)  # type: ignore[arg-type]


def hand(no: int, amounts: dict[str, str], won: str) -> Hand:
    """Hand ``no`` won by ``won``; each loser's points are those their amount pays at the
    point value of 0.5000."""
    results = [
        Result(p, "won" if p == won else "lost", 0 if p == won else int(-D(a) * 2), None, D(a))
        for p, a in amounts.items()
    ]
    return Hand(f"G1-{no:02d}", "G1", no, list(amounts), [], 0, 0, [], results)


# ---------------------------------------------------------------- points rummy

# Hand 1: B pays 20.00 and C 10.00, A takes 30.00 less 12.5% rake = 26.25 (rake 3.75).
# Hand 2: A pays 8.00, B takes 7.00 (rake 1.00).
POINTS_HANDS = [
    hand(1, {"A": "26.25", "B": "-20.00", "C": "-10.00"}, "A"),
    hand(2, {"A": "-8.00", "B": "7.00"}, "B"),
]


def points_ledger() -> list[LedgerRow]:
    return [
        LedgerRow("A", "points_settlement", D("26.25")),
        LedgerRow("B", "points_settlement", D("-20.00")),
        LedgerRow("C", "points_settlement", D("-10.00")),
        LedgerRow(None, "rake", D("3.75")),
        LedgerRow("A", "points_settlement", D("-8.00")),
        LedgerRow("B", "points_settlement", D("7.00")),
        LedgerRow(None, "rake", D("1.00")),
    ]


def test_points_settlements_follow_results_and_balance() -> None:
    assert check_ledger(game("points", points_ledger()), POINTS_HANDS, RULES) == []


def test_points_settlement_differs_from_results() -> None:
    """B's settlements (-20.00 + 7.50) differ from B's hands (-13.00): the game no longer
    balances, and B's finding accounts for all of it (0.50), so it is the one finding
    (money.md, ``ledger.balance``: one error is one finding; the balance's own finding
    said the same 0.50 again: a blind tester)."""
    ledger = points_ledger()
    ledger[5] = LedgerRow("B", "points_settlement", D("7.50"))
    found = check_ledger(game("points", ledger), POINTS_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, "B")]
    assert found[0].expected == "-13.00"
    assert found[0].recorded == "-12.50"
    assert found[0].message.startswith("By the rules, B's hands settle -13.00 with them, but")


def test_ledger_balance_a_hand_with_no_ledger_rows_is_one_finding() -> None:
    """schemas/money.md, ``ledger.balance`` step 3 (log-format.md, ledger: a row names no
    hand): hand 2's three rows (A -8.00, B 7.00, rake 1.00) are all missing, every sum the
    ledger holds is hand 1's: one critical finding on the game naming the hand and what it
    settles, not one per player and the rake (a blind tester: seven critical findings for
    one hand's rows). Hand 1's rows missing instead name hand 1; another row off besides
    keeps a finding per player, as does one row missing alone."""
    found = check_ledger(game("points", points_ledger()[:4]), POINTS_HANDS, RULES)
    assert [(f.check, f.severity, f.player_id, f.expected, f.recorded) for f in found] == [
        ("ledger.balance", Severity.CRITICAL, None, "G1-02: A -8.00, B 7.00, rake 1.00",
         "G1-02: no rows")]  # fmt: skip
    assert found[0].message == (
        "The ledger of game G1 has no rows for hand G1-02, which the rules settle with A at "
        "-8.00 and B at 7.00, and a rake of 1.00: the ledger paid the game's other hands as "
        "the rules settle them, and none of that one."
    )
    found = check_ledger(game("points", points_ledger()[4:]), POINTS_HANDS, RULES)
    assert [f.recorded for f in found] == ["G1-01: no rows"]
    skimmed = [*points_ledger()[:3], LedgerRow(None, "rake", D("3.70"))]
    found = check_ledger(game("points", skimmed), POINTS_HANDS, RULES)
    assert [(f.player_id, f.recorded) for f in found] == [("A", "26.25"), ("B", "-20.00"),
                                                         (None, "3.70")]
    one_row = [row for i, row in enumerate(points_ledger()) if i != 5]  # B's 7.00
    found = check_ledger(game("points", one_row), POINTS_HANDS, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [("B", "-13.00", "-20.00")]
    # and names the hand whose row it is: the sums alone left it to the reader (a blind
    # tester); a game's rows added up into one a player name no hand
    assert found[0].message.endswith(" No settlement row of B's is hand 2's 7.00.")
    added = [row for i, row in enumerate(points_ledger()) if i not in (1, 5)]
    found = check_ledger(game("points", [*added, LedgerRow("B", "points_settlement",
                                                            D("-13.50"))]), POINTS_HANDS, RULES)
    assert [f.player_id for f in found] == ["B"]
    assert "No settlement row" not in found[0].message


def test_points_settlement_a_row_written_under_another_player_is_one_finding() -> None:
    """log-format.md, ledger (`player_id`; schemas/money.md: each player's settlement rows
    add up to what their hands settle): C's -10.00 is written under B. B is off by just
    that row and C by just its opposite: one finding naming both, not two unlinked
    critical ones (a blind tester). Two rows moved so are two findings each again: no
    one row explains them."""
    ledger = points_ledger()
    ledger[2] = LedgerRow("B", "points_settlement", D("-10.00"))
    found = check_ledger(game("points", ledger), POINTS_HANDS, RULES)
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in found] == [
        ("ledger.balance", "B", "C", "B")]
    assert found[0].message == (
        "A points settlement of -10.00 is settled with B that the rules settle with C: B is "
        "off by just that row and C by just its opposite (by the rules B's hands settle "
        "-13.00 with them, C's -10.00)."
    )
    ledger[0] = LedgerRow("B", "points_settlement", D("26.25"))
    assert len(check_ledger(game("points", ledger), POINTS_HANDS, RULES)) == 3


def test_points_a_ledger_settled_at_another_point_value_says_the_value() -> None:
    """money.md, ``ledger.balance`` step 3: a ledger whose every row follows a tenth of the
    games row's point value (its results right) is a finding per player and the rake, each
    right, and each says the value the rows follow (a blind tester's five findings said
    the amounts alone); 0.0501 gives the same paise, the rounder 0.0500 is said. Two rows
    off that no one value gives say nothing of a value."""
    ledger = [
        LedgerRow("A", "points_settlement", D("2.62")),
        LedgerRow("B", "points_settlement", D("-2.00")),
        LedgerRow("C", "points_settlement", D("-1.00")),
        LedgerRow(None, "rake", D("0.38")),
        LedgerRow("A", "points_settlement", D("-0.80")),
        LedgerRow("B", "points_settlement", D("0.70")),
        LedgerRow(None, "rake", D("0.10")),
    ]
    found = check_ledger(game("points", ledger), POINTS_HANDS, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("A", "18.25", "1.82"), ("B", "-13.00", "-1.30"), ("C", "-10.00", "-1.00"),
        (None, "4.75", "0.48")]  # fmt: skip
    assert found[0].message == (
        "By the rules, A's hands settle 18.25 with them, but the ledger settled 1.82 (the "
        "ledger's rows all follow 0.0500 a point, not the games row's 0.5000)."
    )
    assert all(f.message.endswith(" (the ledger's rows all follow 0.0500 a point, not the "
                                  "games row's 0.5000).") for f in found)  # fmt: skip
    ledger = points_ledger()
    ledger[5] = LedgerRow("B", "points_settlement", D("7.50"))
    ledger[2] = LedgerRow("C", "points_settlement", D("-10.50"))
    found = check_ledger(game("points", ledger), POINTS_HANDS, RULES)
    assert [f.player_id for f in found] == ["B", "C"]
    assert not any("a point" in f.message for f in found)


def test_points_a_ledger_that_follows_wrong_points_charged_is_one_finding_on_the_game() -> None:
    """money.md, ``ledger.balance`` step 3: P2 is charged 44 points where the rules give 40
    (a first hand show's cap), and the results and the ledger follow the 44 at the games
    row's 1.0000 a point. 44 x 1.0000 is 40 x 1.1000, but the ledger pays what the results
    recorded: its sums follow the hand's wrong points (its score.points says so), not
    another point value (a blind tester's one-hand game was told 0.4625 a point). The
    money that followed them moved: one critical ledger.balance on the game beside the
    hand's one score.points, not one per player and the rake (a blind tester: 49 of 68
    findings were such copies, three for each wrong one-hand game)."""
    from audit.unit import audit_unit
    from tests.replay.cases import base
    from tests.replay.scenario import scenario

    game_, hand = scenario(**base(results={"P1": ("won", 0, "39.60"),
                                           "P2": ("lost", 44, "-44.00")}))  # fmt: skip
    game_.ledger = [LedgerRow("P1", "points_settlement", D("39.60")),
                    LedgerRow("P2", "points_settlement", D("-44.00")),
                    LedgerRow(None, "rake", D("4.40"))]  # fmt: skip
    from audit.records import GameUnit

    unit = audit_unit(GameUnit(game_.game_id, game_, [hand]))
    (audited,) = [h.audit for h in unit.hands if h.audit is not None]
    found = audited.findings + unit.findings
    assert [(f.check, f.severity, f.hand_id, f.player_id) for f in found] == [
        ("score.points", Severity.MAJOR, hand.hand_id, "P2"),
        ("ledger.balance", Severity.CRITICAL, None, None)]  # fmt: skip
    said = unit.findings[0]
    assert (said.expected, said.recorded) == ("P1 36.00, P2 -40.00, rake 4.00",
                                              "P1 39.60, P2 -44.00, rake 4.40")  # fmt: skip
    assert said.message == (
        f"The ledger of game {game_.game_id} paid what its hands' results record, which the "
        "rules do not give (see the hands' findings): by the rules P1's hands settle 36.00 "
        "with them (39.60 paid), P2's -40.00 (-44.00 paid), and the rake is 4.00 (4.40 "
        "taken)."
    )
    assert not any("a point" in f.message for f in unit.findings)
    # A ledger that skimmed P1's payout besides (off the results too) names each player.
    game_.ledger[0] = LedgerRow("P1", "points_settlement", D("35.60"))
    unit = audit_unit(GameUnit(game_.game_id, game_, [hand]))
    assert [(f.player_id, f.expected, f.recorded) for f in unit.findings] == [
        ("P1", "36.00", "35.60"), ("P2", "-40.00", "-44.00"), (None, "4.00", "4.40")]


def test_a_settlement_of_an_account_dealt_into_no_hand_says_so() -> None:
    """money.md, ``ledger.balance``: a points_settlement row for Z, seated in none of the
    game's hands, is one finding, and its words say Z was dealt into no hand (they read
    "Z's hands settle 0.00 with them": a blind tester)."""
    ledger = [*points_ledger(), LedgerRow("Z", "points_settlement", D("-5.00"))]
    found = check_ledger(game("points", ledger), POINTS_HANDS, RULES)
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in found] == [
        ("ledger.balance", "Z", "0.00", "-5.00")
    ]
    assert found[0].message.startswith(
        "By the rules, Z was dealt into no hand of the game, so nothing settles with them, "
        "but the ledger settled -5.00"
    )


def test_the_balance_finding_stays_when_the_row_findings_do_not_account_for_it() -> None:
    """B's settlement is off by 0.50 and a settlement row with no player moves 2.00 more: B's
    finding accounts for 0.50 of the 2.50 the game is out, so the balance's finding stays
    beside it; and the rake rows off by 0.25 with B's 0.50 (all of it) leave only those two."""
    ledger = points_ledger()
    ledger[5] = LedgerRow("B", "points_settlement", D("7.50"))
    stray = [*ledger, LedgerRow(None, "points_settlement", D("2.00"))]
    found = check_ledger(game("points", stray), POINTS_HANDS, RULES)
    assert keys(found) == [
        ("ledger.balance", "G1", None, None),
        ("ledger.balance", "G1", None, "B"),
    ]
    assert found[0].recorded == "paid out 40.50"
    ledger[3] = LedgerRow(None, "rake", D("4.00"))
    found = check_ledger(game("points", ledger), POINTS_HANDS, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("B", "-13.00", "-12.50"),
        (None, "4.75", "5.00"),
    ]


def test_points_settlement_ledger_is_checked_against_the_rules_not_a_wrong_result() -> None:
    """money.points_settlement (000_1729c72ad4c1f885.txt: chips "deducted and credited ...
    with respect to the player's wins and losses"): C's results.amount is wrong (-10.10 for
    20 points at 0.5000, which is -10.00: score.amount's finding). The ledger settled the
    rules' -10.00 and the rules' rake of 3.75, so it is right and not flagged."""
    wrong = hand(1, {"A": "26.25", "B": "-20.00", "C": "-10.00"}, "A")
    wrong.results[2] = wrong.results[2]._replace(amount=D("-10.10"))
    hands = [wrong, POINTS_HANDS[1]]
    assert check_ledger(game("points", points_ledger()), hands, RULES) == []
    # A ledger that also takes C's 0.10 more as rake is wrong, and says what the rules give.
    ledger = points_ledger()
    ledger[2] = LedgerRow("C", "points_settlement", D("-10.10"))
    ledger[3] = LedgerRow(None, "rake", D("3.95"))
    found = check_ledger(game("points", ledger), hands, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("C", "-10.00", "-10.10"),
        (None, "4.75", "4.95"),
    ]
    assert found[1].message == (
        "The hands of game G1 leave 4.75 of rake by the rules, but the ledger's rake rows "
        "add up to 4.95."
    )


def test_ledger_balance_a_two_hand_ledger_that_paid_the_results_is_one_finding() -> None:
    """schemas/money.md step 3 (000_1729c72ad4c1f885.txt: chips "deducted and credited ...
    with respect to the player's wins and losses"): C's results.amount in hand 1 is -10.10
    where the rules give -10.00 (the hand's score.amount), and the ledger of the two-hand
    game paid exactly what the results record: C's -10.10 and the 3.85 of rake it leaves.
    The money moved is wrong, but the fault is the hand's: one critical finding on the
    game naming every player's sum and the rake, not one per player and the rake (a blind
    tester: three critical copies of each wrong hand, ranked above its own finding)."""
    wrong = hand(1, {"A": "26.25", "B": "-20.00", "C": "-10.00"}, "A")
    wrong.results[2] = wrong.results[2]._replace(amount=D("-10.10"))
    ledger = points_ledger()
    ledger[2] = LedgerRow("C", "points_settlement", D("-10.10"))
    ledger[3] = LedgerRow(None, "rake", D("3.85"))
    found = check_ledger(game("points", ledger), [wrong, POINTS_HANDS[1]], RULES)
    assert [(f.check, f.severity, f.player_id, f.expected, f.recorded) for f in found] == [
        ("ledger.balance", Severity.CRITICAL, None, "A 18.25, B -13.00, C -10.00, rake 4.75",
         "A 18.25, B -13.00, C -10.10, rake 4.85")]  # fmt: skip
    assert found[0].message == (
        "The ledger of game G1 paid what its hands' results record, which the rules do not "
        "give (see the hands' findings): by the rules A's hands settle 18.25 with them "
        "(18.25 paid), B's -13.00 (-13.00 paid), C's -10.00 (-10.10 paid), and the rake is "
        "4.75 (4.85 taken)."
    )


def test_points_settlement_value_cards_without_the_replay_are_taken_as_recorded() -> None:
    """points.value_cards (21 cards; docs/rules-21-27.md): without the hand's replay the
    value settlement is not known, so the hand's recorded amounts are taken, and the
    finding says so."""
    rules21 = load_preset("standard-21")
    ledger = [*points_ledger()[:-1], LedgerRow(None, "rake", D("1.50"))]
    found = check_ledger(game("points", ledger), POINTS_HANDS, rules21)
    assert [(f.expected, f.recorded) for f in found] == [("4.75", "5.25")]
    assert found[0].message.endswith(
        "(hand G1-01's amounts are taken as recorded, as its value cards are settled by the "
        "hand's replay, not given here; hand G1-02's amounts are taken as recorded, as its "
        "value cards are settled by the hand's replay, not given here)."
    )


def test_points_settlement_a_results_row_of_a_player_not_dealt_in_settles_nothing() -> None:
    """money.points_settlement (schemas/money.md, ledger.balance: a row of a player not
    dealt in "settles nothing"; docs/replay.md: such a row is the hand's `score.outcome`,
    results.player_id): hand 1 also records P9, not dealt in, as a winner of 0.41. The
    hand is settled among A, B and C, so the right ledger raises nothing (a blind tester:
    P9 was taken for a second winner, the hand's amounts as recorded, and two critical
    ledger.balance findings followed); a ledger that paid P9 paid someone the rules settle
    nothing with."""
    extra = hand(1, {"A": "26.25", "B": "-20.00", "C": "-10.00"}, "A")
    extra.results.append(Result("P9", "won", 0, None, D("0.41")))
    hands = [extra, POINTS_HANDS[1]]
    assert check_ledger(game("points", points_ledger()), hands, RULES) == []
    paid = [*points_ledger(), LedgerRow("P9", "points_settlement", D("0.41")),
            LedgerRow(None, "rake", D("-0.41"))]  # fmt: skip
    found = check_ledger(game("points", paid), hands, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("P9", "0.00", "0.41"),
        (None, "4.75", "4.34"),
    ]


def test_points_rake_rows_equal_the_hands_rakes() -> None:
    """The settlements match, but the platform booked 0.50 more rake than the hands left:
    the rake's finding, which accounts for all the game is out of balance."""
    ledger = [*points_ledger()[:-1], LedgerRow(None, "rake", D("1.50"))]
    found = check_ledger(game("points", ledger), POINTS_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, None)]
    assert found[0].expected == "4.75"
    assert found[0].recorded == "5.25"


def test_points_game_with_a_quarantined_hand_only_balances() -> None:
    ledger = points_ledger()
    ledger[5] = LedgerRow("B", "points_settlement", D("7.50"))
    ledger[6] = LedgerRow(None, "rake", D("0.50"))
    broken = [POINTS_HANDS[0], replace(POINTS_HANDS[1], quarantine="no results", results=[])]
    assert check_ledger(game("points", ledger), broken, RULES) == []


def test_practice_chip_findings_are_info() -> None:
    ledger = points_ledger()
    ledger[5] = LedgerRow("B", "points_settlement", D("7.50"))
    found = check_ledger(game("points", ledger, chip_type="practice"), POINTS_HANDS, RULES)
    assert found
    assert {f.severity for f in found} == {Severity.INFO}


# ---------------------------------------------------------------- pool and deals

POOL_HANDS = [hand(1, {"A": "0", "B": "0", "C": "0"}, "A")]
REBUY = GameEvent(1, 2, "C", "rebuy", 60, None)
WON = GameEvent(3, 9, "A", "game_won", None, None)


def pool_ledger(prize: str = "175.00", rake: str = "25.00") -> list[LedgerRow]:
    """3 players and a rebuy at 50.00: 200.00, 12.5% rake 25.00, prize 175.00."""
    return [
        LedgerRow("A", "buy_in", D("-50.00")),
        LedgerRow("B", "buy_in", D("-50.00")),
        LedgerRow("C", "buy_in", D("-50.00")),
        LedgerRow("C", "rebuy", D("-50.00")),
        LedgerRow("A", "prize", D(prize)),
        LedgerRow(None, "rake", D(rake)),
    ]


def pool_game(ledger: list[LedgerRow], **over: object) -> Game:
    return game("pool_101", ledger, **{"game_events": [REBUY, WON], **over})


def test_pool_prize_is_entry_fees_less_rake() -> None:
    """000_: the prize is the wagering after deducting the rake."""
    assert check_ledger(pool_game(pool_ledger()), POOL_HANDS, RULES) == []


def test_pool_prize_short() -> None:
    """The prize 5.00 short: A's finding is all the game is out, the one finding."""
    found = check_ledger(pool_game(pool_ledger(prize="170.00")), POOL_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, "A")]
    assert (found[0].expected, found[0].recorded) == ("175.00", "170.00")


def test_ledger_buy_in_a_buy_in_row_with_its_sign_the_wrong_way_round_says_so() -> None:
    """log-format.md, ledger (`amount`: signed, seen from the player, buy-in negative): B's
    buy_in written +50.00 pays B 50.00 where it should take it. The words say the row
    pays B instead of taking it, not that "the ledger took -50.00" (a blind tester)."""
    ledger = pool_ledger()
    ledger[1] = LedgerRow("B", "buy_in", D("50.00"))
    found = [f for f in check_ledger(pool_game(ledger), POOL_HANDS, RULES) if f.player_id == "B"]
    assert [f.message for f in found] == [
        "B entered the game once, so pays a buy_in of 50.00, but the ledger's buy_in rows pay "
        "them 50.00 instead of taking it."
    ]


def test_ledger_buy_in_a_buy_in_written_under_another_player_is_one_finding() -> None:
    """log-format.md, ledger (`player_id`; schemas/money.md: a `buy_in` of `-entry_fee`
    per player): B's buy-in is written under A. A is off by just that row and B by just its
    opposite: one finding naming both, not A "took 100.00" and B "took 0.00" (a blind
    tester: two critical findings)."""
    ledger = pool_ledger()
    ledger[1] = LedgerRow("A", "buy_in", D("-50.00"))
    found = check_ledger(pool_game(ledger), POOL_HANDS, RULES)
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in found] == [
        ("ledger.balance", "A", "B", "A")]
    assert found[0].message == (
        "A buy in of -50.00 is settled with A that the rules settle with B: A is off by just "
        "that row and B by just its opposite."
    )


def test_pool_rake_over_rake_pct() -> None:
    """Rake 30.00 and prize 170.00 balance, but the rake is not 12.5% of 200.00."""
    found = check_ledger(pool_game(pool_ledger("170.00", "30.00")), POOL_HANDS, RULES)
    assert keys(found) == [
        ("ledger.balance", "G1", None, None),
        ("ledger.balance", "G1", None, "A"),
    ]
    assert found[0].expected == "25.00"
    assert found[0].recorded == "30.00"


def test_rake_rounds_half_up_to_the_paisa() -> None:
    """3 x 10.00 = 30.00 at 12.75% is 3.825: half-up a rake of 3.83 and a prize of 26.17;
    the banker's 3.82 (prize 26.18) balances but takes the wrong rake and prize."""

    def deals_game(prize: str, rake: str) -> Game:
        ledger = [
            *(LedgerRow(p, "buy_in", D("-10.00")) for p in "ABC"),
            LedgerRow("A", "prize", D(prize)),
            LedgerRow(None, "rake", D(rake)),
        ]
        return game("deals", ledger, entry_fee=D("10.00"), rake_pct=D("12.75"),
                    game_events=[WON])  # fmt: skip

    assert check_ledger(deals_game("26.17", "3.83"), POOL_HANDS, RULES) == []
    found = check_ledger(deals_game("26.18", "3.82"), POOL_HANDS, RULES)
    assert keys(found) == [
        ("ledger.balance", "G1", None, None),
        ("ledger.balance", "G1", None, "A"),
    ]


def test_a_deals_game_counts_no_rebuy_event_in_its_entries() -> None:
    """schemas/money.md, deals: "The money is as in pool, without rebuys or splits: gross
    = entry_fee x players", and `rebuy` rows "deals: none" (000_1729c72ad4c1f885.txt:
    Re-Buy 'is not available for Best of 2/3 Deal games'). A rebuy event recorded in a
    deals game is its `pool.rebuy` finding (`games.rebuy_formats`), and the ledger that took
    no rebuy is right: it gave three critical findings beside it, the rebuy's 50.00 not
    taken, the rake and the prize on 200.00 (a blind tester). A ledger that did sell the
    rebuy has a row of a kind deals has none of (one finding, not also "C has no rebuy to
    pay"), and its rake and prize on the fees with it are wrong."""
    deals = [LedgerRow(p, "buy_in", D("-50.00")) for p in "ABC"]
    deals += [LedgerRow("A", "prize", D("131.25")), LedgerRow(None, "rake", D("18.75"))]
    assert check_ledger(game("deals", deals, game_events=[REBUY, WON]), POOL_HANDS, RULES) == []
    paid = [*deals[:3], LedgerRow("C", "rebuy", D("-50.00")), LedgerRow("A", "prize",
            D("175.00")), LedgerRow(None, "rake", D("25.00"))]  # fmt: skip
    found = check_ledger(game("deals", paid, game_events=[REBUY, WON]), POOL_HANDS, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("C", "no rebuy rows", "rebuy -50.00"),
        (None, "18.75", "25.00"),
        ("A", "131.25", "175.00"),
    ]


def test_ledger_prize_to_the_deals_winner_whose_game_won_row_is_written_twice() -> None:
    """schemas/money.md step 4 (`ledger.prize`): a deals game's prize goes to the player its
    `game_won` event names, and "a prize paid to that player is not called a prize to
    someone who 'did not win'". A's row written twice (seq 9 and 10) names no second
    winner: the ledger that paid A is right, and the repeat is the winner check's one
    finding (a blind tester: a critical "A did not win the game but the ledger paid them a
    prize")."""
    deals = [LedgerRow(p, "buy_in", D("-50.00")) for p in "ABC"]
    deals += [LedgerRow("A", "prize", D("131.25")), LedgerRow(None, "rake", D("18.75"))]
    twice = [WON, WON._replace(seq=10)]
    assert check_ledger(game("deals", deals, game_events=twice), POOL_HANDS, RULES) == []


def test_pool_buy_ins_are_the_entry_fees() -> None:
    """money.md: a `rebuy` of `-entry_fee` per rebuy game event; the short one is named."""
    ledger = pool_ledger()
    ledger[3] = LedgerRow("C", "rebuy", D("-40.00"))
    found = check_ledger(pool_game(ledger), POOL_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, "C")]
    assert (found[0].expected, found[0].recorded) == ("-50.00", "-40.00")
    assert found[0].message == (
        "C rebought 1 time, so pays 50.00 in rebuys, but the ledger took 40.00."
    )


def test_each_player_pays_the_entry_fee_though_the_total_is_right() -> None:
    """money.md: a `buy_in` of `-entry_fee` per player (log-format.md: entry_fee is the
    'buy-in per player'): A paying 70.00 and B 30.00 at 50.00 is two wrong rows, though
    they add up to the right total and the ledger balances."""
    ledger = pool_ledger()
    ledger[0] = LedgerRow("A", "buy_in", D("-70.00"))
    ledger[1] = LedgerRow("B", "buy_in", D("-30.00"))
    found = check_ledger(pool_game(ledger), POOL_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, "A"), ("ledger.balance", "G1", None, "B")]
    assert found[0].message == (
        "A entered the game once, so pays a buy_in of 50.00, but the ledger took 70.00."
    )


def test_rows_of_a_kind_the_format_does_not_have_are_flagged() -> None:
    """money.md's table: pool has no `points_settlement`, `split` rows only when the game
    was split, points rummy no `prize` or `buy_in`. Each moves money between players
    while the ledger balances."""
    settled = [*pool_ledger(), LedgerRow("A", "points_settlement", D("-25.00")),
               LedgerRow("B", "points_settlement", D("25.00"))]  # fmt: skip
    found = check_ledger(pool_game(settled), POOL_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, "A"), ("ledger.balance", "G1", None, "B")]
    assert found[0].message == (
        "The ledger moved -25.00 to A in points_settlement rows, but a pool 101 game has none."
    )
    unsplit = [*pool_ledger(), LedgerRow("A", "split", D("25.00")),
               LedgerRow("B", "split", D("-25.00"))]  # fmt: skip
    found = check_ledger(pool_game(unsplit), POOL_HANDS, RULES)
    assert [f.message for f in found] == [
        "The ledger moved 25.00 to A in split rows, but game G1 records no split (no split "
        "game event), so it has none.",
        "The ledger moved -25.00 to B in split rows, but game G1 records no split (no split "
        "game event), so it has none.",
    ]
    points = [*points_ledger(), LedgerRow("A", "prize", D("25.00")),
              LedgerRow("B", "buy_in", D("-25.00"))]  # fmt: skip
    found = check_ledger(game("points", points), POINTS_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, "B"), ("ledger.balance", "G1", None, "A")]


def test_prize_to_a_player_who_did_not_win() -> None:
    """schemas/money.md, step 3: A won, and A's whole prize is paid to B in one row: one
    finding on B, naming A (the row is under the wrong player). Part of the prize paid to
    B is a finding each, A's short prize and B's prize not won."""
    ledger = pool_ledger()
    ledger[4] = LedgerRow("B", "prize", D("175.00"))
    found = check_ledger(pool_game(ledger), POOL_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, "B")]
    assert (found[0].expected, found[0].recorded) == ("A", "B")
    ledger[4:5] = [LedgerRow("A", "prize", D("100.00")), LedgerRow("B", "prize", D("75.00"))]
    found = check_ledger(pool_game(ledger), POOL_HANDS, RULES)
    assert keys(found) == [("ledger.balance", "G1", None, "A"), ("ledger.balance", "G1", None, "B")]


def test_prize_is_judged_against_the_rules_winner_where_the_rules_know_one() -> None:
    """schemas/money.md step 4: A is the last player left by the rules (``winner``) and is
    paid the prize while the game_won row names B. The row is the pool check's finding
    (pool.winner); the prize went to the rightful winner. Where the rules know no winner,
    the prize is judged against the game_won row, as before: B's whole prize in a row
    under A is one finding on A (schemas/money.md, step 3)."""
    named_b = [REBUY, GameEvent(3, 9, "B", "game_won", None, None)]
    assert check_ledger(pool_game(pool_ledger(), game_events=named_b), POOL_HANDS, RULES,
                        winner="A") == []  # fmt: skip
    found = check_ledger(pool_game(pool_ledger(), game_events=named_b), POOL_HANDS, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [("A", "B", "A")]
    ledger = pool_ledger()
    ledger[4] = LedgerRow("B", "prize", D("175.00"))
    found = check_ledger(pool_game(ledger, game_events=named_b), POOL_HANDS, RULES, winner="A")
    assert [f.message for f in found] == [
        "The prize of 175.00 is paid to B, but A is the rules' winner of game G1 and is paid "
        "nothing: the prize row is under the wrong player."
    ]


def test_split_game_only_balances() -> None:
    """Split amounts are the pool checks'; here only the balance counts."""
    split = [*pool_ledger()[:4], LedgerRow("A", "split", D("90.00")),
             LedgerRow("B", "split", D("85.00")), LedgerRow(None, "rake", D("25.00"))]  # fmt: skip
    events = [REBUY, GameEvent(3, 9, None, "split", None, "manual")]
    assert check_ledger(pool_game(split, game_events=events), POOL_HANDS, RULES) == []
    split[4] = LedgerRow("A", "split", D("95.00"))
    assert keys(check_ledger(pool_game(split, game_events=events), POOL_HANDS, RULES)) == [
        ("ledger.balance", "G1", None, None)
    ]


def test_running_and_empty_ledgers_are_not_judged() -> None:
    assert check_ledger(pool_game(pool_ledger()[:4], running=True), POOL_HANDS, RULES) == []
    assert check_ledger(pool_game([]), POOL_HANDS, RULES) == []


# ---------------------------------------------------------------- refunds


def test_a_refund_row_does_not_hide_the_money_of_a_game_played_to_its_end() -> None:
    """schemas/money.md, "Called off": a blind tester moved 5.00 of A's settlement to B
    (the ledger still balances) and added a refund of 0.00 to A; the game was taken as
    called off, only its balance was judged, and the run passed. A points game whose hands
    all ended, and a pool game ended by its game_won, are judged like any other: each
    wrong row is its finding, and the refund row is one too."""
    shifted = points_ledger()
    shifted[0] = LedgerRow("A", "points_settlement", D("21.25"))
    shifted[1] = LedgerRow("B", "points_settlement", D("-15.00"))
    refund = LedgerRow("A", "refund", D("0.00"))
    found = check_ledger(game("points", [*shifted, refund]), POINTS_HANDS, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("A", "18.25", "13.25"),
        ("B", "-13.00", "-8.00"),
        ("A", "no refund rows", "refund 0.00"),
    ]
    assert found[2].message == (
        "Refund of 0.00 to A in game G1, which was played to its end (each of its 2 hands "
        "ended): the rules pay no refund there."
    )
    prize_shared = [*pool_ledger(prize="155.00"), LedgerRow("B", "prize", D("20.00")),
                    LedgerRow("B", "refund", D("0.00"))]  # fmt: skip
    found = check_ledger(pool_game(prize_shared), POOL_HANDS, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        ("A", "175.00", "155.00"),
        ("B", "0.00", "20.00"),
        ("B", "no refund rows", "refund 0.00"),
    ]
    assert "(its game_won event after hand 3)" in found[2].message


def test_a_game_is_called_off_when_refunded_without_reaching_its_end() -> None:
    """schemas/money.md, "Called off": refund rows in a game the record does not show
    reaching its end (a pool game with no game_won or split event; a points game with a
    hand whose events stop with players still in, to which the replay's rules give no
    outcome) are a game called off: only its balance is judged. The same rows in the game
    that ended are judged: the prize A was not paid and the rake not taken, and each
    refund, account for all the ledger is out, so the balance's finding is left out."""
    refunded = [*pool_ledger()[:4], *(LedgerRow(p, "refund", D("50.00")) for p in "ABCC")]
    assert check_ledger(pool_game(refunded, game_events=[REBUY]), POOL_HANDS, RULES) == []
    found = check_ledger(pool_game(refunded), POOL_HANDS, RULES)
    assert [(f.player_id, f.expected, f.recorded) for f in found] == [
        (None, "25.00", "0.00"),
        ("A", "175.00", "0.00"),
        *((p, "no refund rows", "refund 50.00") for p in "ABCC"),
    ]
    split = [REBUY, GameEvent(3, 9, None, "split", None, "auto")]
    found = check_ledger(pool_game(refunded, game_events=split), POOL_HANDS, RULES)
    assert [f.player_id for f in found] == [None, "A", "B", "C", "C"]
    first_only = [*points_ledger()[:4], LedgerRow("A", "refund", D("0.00"))]
    unended = {POINTS_HANDS[1].hand_id: {}}
    assert check_ledger(game("points", first_only), POINTS_HANDS, RULES, expected=unended) == []
    found = check_ledger(game("points", first_only), POINTS_HANDS, RULES)
    # hand 2's rows are all missing there: one finding for them (``unpaid_hand``), and the
    # refund's
    assert [(f.player_id, f.recorded) for f in found] == [
        (None, "G1-02: no rows"), ("A", "refund 0.00")]


def test_a_refund_beyond_what_the_player_paid_in_a_game_called_off_is_one_finding() -> None:
    """schemas/money.md, "Called off": a refund gives back a player's stakes. A blind
    tester deleted a pool game's game_won row and paid its prize (175.00) as a refund to B,
    who paid in 50.00: only the missing winner was said. Now B's refund beyond their
    stakes is the one money finding, and the moves it accounts for leave out the balance's.
    The prize written as a refund to the rules' winner (A) moved the right money: the
    game's own pool.winner says no winner was recorded."""
    stakes = pool_ledger()[:4]
    to_b = [*stakes, LedgerRow("B", "refund", D("175.00")), LedgerRow(None, "rake", D("25.00"))]
    found = check_ledger(pool_game(to_b, game_events=[REBUY]), POOL_HANDS, RULES, winner="A")
    assert [(f.player_id, f.expected, f.recorded, f.severity) for f in found] == [
        ("B", "refund at most 50.00", "refund 175.00", Severity.CRITICAL),
    ]
    assert found[0].message == (
        "Game G1 was called off (no game event records how it ended), and a refund gives "
        "back what a player paid in: B paid in 50.00 but was refunded 175.00, 125.00 more "
        "than their stakes."
    )
    to_a = [*stakes, LedgerRow("A", "refund", D("175.00")), LedgerRow(None, "rake", D("25.00"))]
    assert check_ledger(pool_game(to_a, game_events=[REBUY]), POOL_HANDS, RULES, winner="A") == []


def test_each_refund_of_a_game_played_to_its_end_is_one_finding() -> None:
    """A pool game paid as the rules say, and 10.00 more refunded to C: the refund row is
    the one finding (it accounts for all the ledger is out); practice chips: info."""
    extra = [*pool_ledger(), LedgerRow("C", "refund", D("10.00"))]
    found = check_ledger(pool_game(extra), POOL_HANDS, RULES)
    assert [(f.player_id, f.recorded, f.severity) for f in found] == [
        ("C", "refund 10.00", Severity.CRITICAL),
    ]
    assert found[0].message == (
        "Refund of 10.00 to C in game G1, which was played to its end (its game_won event "
        "after hand 3): the rules pay no refund there."
    )
    practice = check_ledger(pool_game(extra, chip_type="practice"), POOL_HANDS, RULES)
    assert [(f.player_id, f.severity) for f in practice] == [("C", Severity.INFO)]


# ---------------------------------------------------------------- the simulator


def run_checks(root: Path, workdir: Path) -> tuple[int, list[Finding]]:
    found: list[Finding] = []
    games = 0
    for batch in iter_units(open_log_root(root), quarantine=[], workdir=workdir):
        for unit in batch:
            assert unit.game is not None
            games += 1
            found += check_ledger(unit.game, unit.hands, load_preset(unit.game.ruleset))
    return games, found


def test_simulated_games_balance(tmp_path: Path) -> None:
    """The simulator pays out by 000_'s rules: none of its 200 games raises a finding."""
    simulate(games=200, out=tmp_path / "root", seed=20261132)
    games, found = run_checks(tmp_path / "root", tmp_path)
    assert games == 200
    assert found == []


@settings(max_examples=4)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_money_is_conserved_to_the_paisa(
    seed: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Property: in every game of a generated batch the ledger adds up to exactly zero
    (what players pay in = what is paid out + rake) and the checks agree."""
    root = tmp_path_factory.mktemp("batch")
    simulate(games=25, out=root / "root", seed=seed)
    for batch in iter_units(open_log_root(root / "root"), quarantine=[], workdir=root):
        for unit in batch:
            assert unit.game is not None
            ledger = unit.game.ledger
            assert sum((row.amount for row in ledger), Decimal(0)) == 0
            assert all(row.amount == row.amount.quantize(D("0.01")) for row in ledger)
    assert run_checks(root / "root", root)[1] == []


def test_points_settlement_a_wrong_points_field_with_the_right_money_is_the_hands_only() -> None:
    """money.points_settlement (000_1729c72ad4c1f885.txt: chips "deducted and credited ...
    with respect to the player's wins and losses"): B's points field says 30, but the rules
    charge 40 (the hand's own score.points finding) and the platform paid for 40. The
    ledger moved the right money, so it is settled on the rules' points and not flagged;
    settled on the recorded 30 it would have been (a critical alarm on a right ledger)."""
    right = hand(1, {"A": "26.25", "B": "-20.00", "C": "-10.00"}, "A")
    right.results[1] = right.results[1]._replace(points=30)
    said = {right.hand_id: {"B": Expected("lost", 40, "points.card_points", ""),
                            "C": Expected("lost", 20, "points.card_points", "")}}  # fmt: skip
    hands = [right, POINTS_HANDS[1]]
    assert check_ledger(game("points", points_ledger()), hands, RULES, expected=said) == []
    assert check_ledger(game("points", points_ledger()), hands, RULES) != []


def test_ledger_a_hand_recorded_with_two_winners_is_settled_as_the_rules_decide_it() -> None:
    """schemas/money.md step 3: a hand that records two winners, which the rules decide
    whole (A won, B and C lost with known points), is settled by the rules' verdict. A
    blind tester wrote B as a second winner: a ledger that paid by the rules had two
    critical findings, one a negative "rake by the rules", and a ledger that followed the
    record none. Now the right ledger passes, and the one that paid B is B's finding."""
    two = hand(1, {"A": "26.25", "B": "-20.00", "C": "-10.00"}, "A")
    two.results[1] = two.results[1]._replace(outcome="won", points=0, amount=D("1.00"))
    said = {two.hand_id: {"A": Expected("won", 0, "turns.last_player", ""),
                          "B": Expected("lost", 40, "points.card_points", ""),
                          "C": Expected("lost", 20, "points.card_points", "")}}  # fmt: skip
    hands = [two, POINTS_HANDS[1]]
    assert check_ledger(game("points", points_ledger()), hands, RULES, expected=said) == []
    paid_b = points_ledger()
    paid_b[1] = LedgerRow("B", "points_settlement", D("1.00"))
    paid_b[0] = LedgerRow("A", "points_settlement", D("5.25"))
    found = check_ledger(game("points", paid_b), hands, RULES, expected=said)
    assert {(f.player_id, f.expected, f.recorded) for f in found} >= {("B", "-13.00", "8.00")}
    assert all("hand G1-01 is settled with A winning, as the rules decide it" in f.message
               for f in found if f.player_id is not None)  # fmt: skip
