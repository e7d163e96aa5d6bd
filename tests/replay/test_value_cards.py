"""Value cards in the money of a 21-card points hand (points.value_cards,
money.points_settlement): docs/rules-21-27.md, section 4.4, replayed.

A declares the hand of 4.1 (one 8H: 10; the 8H drawn last goes to the finish slot and does
not count); B, a loser on 9 card points, holds 7H 8H 6H (a marriage: 100); C, a loser on
the cap of 120, holds 6H 6H (30). B's hand is 4.4's with 9S TS JS for its tunnela, so the
hand's points do not hang on how a tunnela is scored. Everyone has had a turn: no first
hand show cap.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

from audit.findings import Finding
from audit.games.ledger import settle_by_rules
from audit.money import points_settlement
from audit.records import Game, GameUnit, Hand, LedgerRow, money_unsettled
from audit.replay.hand import HandReplay
from audit.replay.outcome import (
    _judged,
    _valued,
    audit_hand,
    compare_money,
    expected_outcomes,
    money_by_rules,
)
from audit.replay.recut import Settled, Worth, settled_otherwise
from audit.rules.counts import value_settlement
from audit.rules.melds import Jokers
from audit.rules.ruleset import load_preset
from audit.unit import admit, audit_unit
from tests.replay.scenario import scenario

R21 = load_preset("standard-21")
A = "2S 3S 4S 5S 9D TD JD QD AC 2C 3C 4D 5D 8H KC KD KS KH 9C 9H JK"
B = "2S 3S 4S 9D TD JD 9S TS JS KS KD 7H AS AD 8H TC JC 6H 2C 3D 4H"
C = "KS KD QC QH JS JD TC TH AS AD 9C 9H 8S 8D 6H 6H 2C 4D 3S 5S 2H"
EVENTS = [
    "A draw_stock 3H",
    "A discard 3H",
    "B draw_stock 4C",
    "B discard 4C",
    "C draw_stock 5H",
    "C discard 5H",
    "A draw_stock 8H",
    "A declare 8H: 2S 3S 4S 5S / 9D TD JD QD / AC 2C 3C / 4D 5D 8H / KC KD KS KH / 9C 9H JK",
    "B show: 2S 3S 4S / 9D TD JD / 9S TS JS / KS KD 7H / AS AD 8H / TC JC 6H / 2C 3D 4H",
    "C show: KS KD QC QH JS JD TC TH AS AD 9C 9H 8S 8D 6H 6H 2C 4D 3S 5S 2H",
]
# Totals A +19, B +151, C -170 (4.4) at 1.0000 a point; the 10% rake on A's 19.00.
RIGHT = {"A": ("won", 0, "17.10"), "B": ("lost", 9, "151.00"), "C": ("lost", 120, "-170.00")}
# The same hand settled as if there were no value cards: A 129 less 12.90 rake.
NO_VALUE = {"A": ("won", 0, "116.10"), "B": ("lost", 9, "-9.00"), "C": ("lost", 120, "-120.00")}


def hand_21(results: dict[str, tuple[str, int, str | None]], **over: Any) -> tuple[Game, Hand]:
    kw: dict[str, Any] = {
        "seats": {"A": A, "B": B, "C": C},
        "wild": "7H",
        "open": "QS",
        "stock": "3H 4C 5H 8H",
        "events": EVENTS,
        "results": results,
        "ruleset": "standard-21",
        "decks": 3,
        "printed_jokers": 3,
    }
    kw.update(over)
    return scenario(**kw)


def test_the_worked_example_settles_value_cards() -> None:
    game, hand = hand_21(RIGHT)
    audit = audit_hand(hand, game, R21)
    assert audit.findings == []
    shares = {p: e.value for p, e in audit.expected.items()}
    assert {p: (s.value.points, s.net) for p, s in shares.items() if s} == {
        "A": (10, -110),
        "B": (100, 160),
        "C": (30, -50),
    }
    assert {p: e.points for p, e in audit.expected.items()} == {"A": 0, "B": 9, "C": 120}


def test_an_amount_without_the_value_cards_is_a_finding() -> None:
    game, hand = hand_21(NO_VALUE)
    found = {f.player_id: f for f in audit_hand(hand, game, R21).findings}
    assert set(found) == {"A", "B", "C"}
    assert {f.check for f in found.values()} == {"score.amount"}
    assert {p: f.expected for p, f in found.items()} == {
        "A": "17.10",
        "B": "151.00",
        "C": "-170.00",
    }
    assert found["B"].message == (
        "B lost 9 points and is paid 160 for value cards (7H 8H 6H: 1 marriage (100): 100 "
        "from each of 2 others, less their 40) at 1.0000 a point, so the amount should be "
        "151.00, but the record shows -9.00."
    )
    # The winner's sum in one unit, points (points.value_cards' money: card points and
    # value points x the point value, the rake on a positive total).
    assert found["A"].message.startswith(
        "A won 129 card points from the losers and pays 110 for value cards (value cards 8H "
        "(10): 10 from each of 2 others, less their 130): +19 points at 1.0000 a point, less "
        "the 10.00% rake of 1.90, so the amount should be 17.10"
    )
    assert all(f.rule.startswith("points.value_cards:") for f in found.values())


def test_a_player_who_dropped_is_out_of_the_value_settlement() -> None:
    """C drops before drawing (30 points) holding 6H 6H: A and B settle between them."""
    events = [e for e in EVENTS if not e.startswith("C ")]
    events[4:4] = ["C drop"]
    results = {"A": ("won", 0, "0.00"), "B": ("lost", 9, "0.00"), "C": ("first_drop", 30, "0")}
    game, hand = hand_21(results, events=events, stock="3H 4C 8H")
    audit = audit_hand(hand, game, R21)
    assert {f.check for f in audit.findings} == {"score.amount"}
    assert audit.expected["C"].value is None
    b = audit.expected["B"].value
    assert b is not None
    assert b.net == 90
    amounts = {f.player_id: f.expected for f in audit.findings if f.check == "score.amount"}
    # B: 100 - 10 = +90 less 9 points; A: 9 + 30 from the points, -90 for value: -51, no rake.
    assert amounts == {"B": "81.00", "C": "-30.00", "A": "-51.00"}
    # the finding says why C's 6H 6H earned nothing, and cites that rule (a blind tester's
    # support agent could not tell the player: "C lost 30 points ..." said neither)
    c = next(f for f in audit.findings if f.player_id == "C")
    assert c.message == (
        "C dropped (a first drop) for 30 points at 1.0000 a point, and a player who drops "
        "neither pays nor receives for value cards, so the amount should be -30.00, but the "
        "record shows 0."
    )
    assert c.rule.startswith("points.value_cards:")
    # A's total is -51: no rake on it, and the words say why (money.md; a blind tester)
    a = next(f for f in audit.findings if f.player_id == "A")
    assert "8H (10): 10 from the other, less their 100): -51 points" in a.message
    assert "and no rake, since the total is not positive (points.value_cards)" in a.message
    # explain says it on C's own panel, where C's dispute is read (money.md).
    from audit.explain.points import value_view

    view = value_view("C", audit, game, R21)
    assert view is not None
    assert (view.net, view.money) == (0, "")
    assert view.settlement.startswith("a player who dropped or declared wrongly neither pays")


def test_a_pool_game_under_standard_21_is_refused() -> None:
    game, hand = hand_21(RIGHT, game_format="pool_101")
    rules, reasons = admit(GameUnit(game.game_id, game, [hand]))
    assert rules is None
    assert reasons[hand.hand_id] == (
        "game G1 is a pool_101 game but its ruleset standard-21 is for points games only "
        "(games.formats)"
    )


def test_whatif_settles_the_same_money() -> None:
    """whatif's money is the same settlement: the rules' amounts and the rake."""
    game, hand = hand_21(RIGHT)
    amounts, fee = money_by_rules(game, expected_outcomes(HandReplay(hand, game, R21).run()))
    assert amounts == {p: Decimal(a) for p, (_, _, a) in RIGHT.items() if a is not None}
    assert fee == Decimal("1.90")


def test_no_value_settlement_without_a_valid_show() -> None:
    """B and C drop: A wins as the last one in, no show, no value cards settled."""
    events = [*EVENTS[:4], "C drop", "A draw_stock 5H", "A discard 5H", "B drop"]
    results = {
        "A": ("won", 0, "90.00"),
        "B": ("middle_drop", 70, "-70.00"),
        "C": ("first_drop", 30, "-30.00"),
    }
    game, hand = hand_21(results, events=events, stock="3H 4C 5H")
    audit = audit_hand(hand, game, R21)
    assert audit.findings == []
    assert all(e.value is None for e in audit.expected.values())


def test_the_money_page_example_is_the_settlement() -> None:
    """schemas/money.md's 21-card example, read from the page, is what the audit computes."""
    doc = (Path(__file__).parents[2] / "schemas" / "money.md").read_text(encoding="utf-8")
    part = doc.split("#### Worked example: 21 cards", 1)[1]
    header = "| player | outcome | points | value cards | value | net | amount |"
    lines = part.splitlines()
    rows = []
    for line in lines[lines.index(header) + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    assert value_settlement({r[0]: int(r[4]) for r in rows}) == {r[0]: int(r[5]) for r in rows}
    points = {r[0]: int(r[2]) for r in rows if r[1] != "won"}
    winners = [r[0] for r in rows if r[1] == "won"]
    nets = {r[0]: int(r[5]) for r in rows}
    amounts, fee = points_settlement(points, winners, Decimal("0.5000"), Decimal("10.00"), nets)
    assert amounts == {r[0]: Decimal(r[6]) for r in rows}
    assert f"| (null) | rake | {fee} |" in part


def test_a_declaration_the_rules_refuse_settled_as_valid_is_the_verdicts_finding_alone() -> None:
    """points.value_cards and declaration.invalid_penalty (docs/rules-21-27.md): A lays
    4D 5D 8H apart as 5D 8H, a group of two, and the platform settles the show as valid
    (RIGHT). The rules refuse the declaration, so no value cards are settled at a show they
    accept, and the rules' points under the recorded winner are amounts neither world pays
    (a blind tester: 'A should be 129.00' where the record's world pays 17.10 and the
    rules' charges A 120). The verdict is one finding; the money is not judged
    (schemas/money.md)."""
    events = [*EVENTS]
    events[7] = ("A declare 8H: 2S 3S 4S 5S / 9D TD JD QD / AC 2C 3C 4D / 5D 8H / KC KD KS KH"
                 " / 9C 9H JK")  # fmt: skip
    game, hand = hand_21(RIGHT, events=events)
    audit = audit_hand(hand, game, R21)
    assert [f.check for f in audit.findings if f.check.startswith("score.")] == []
    assert [(f.check, f.player_id) for f in audit.findings] == [("declare.verdict", "A")]
    said = audit.expected
    assert said["A"].outcome == "invalid_declare"
    owed = settle_by_rules(hand, game, R21, said)
    assert isinstance(owed, str)
    assert owed.startswith("its recorded verdict is not the rules'")


def test_a_wrong_kind_of_drop_in_21_cards_leaves_the_money_judged() -> None:
    """points.value_cards: the value cards are settled among the players still in at the
    show, so a dropper recorded with the wrong kind of drop (a first drop as a middle
    drop) changes no one's value cards: the hand's money is still judged (at the rules'
    drop points, charged_points), only a verdict that changes the winner or who is in at
    the show leaves it unjudged (records.money_unsettled)."""
    events = [e for e in EVENTS if not e.startswith("C ")]
    events[4:4] = ["C drop"]
    results = {"A": ("won", 0, "0.00"), "B": ("lost", 9, "0.00"), "C": ("middle_drop", 70, "0")}
    game, hand = hand_21(results, events=events, stock="3H 4C 8H")
    audit = audit_hand(hand, game, R21)
    assert audit.expected["C"].outcome == "first_drop"
    assert not money_unsettled(hand.results, audit.expected, value_cards=True)
    checks = sorted(f.check for f in audit.findings)
    assert "drop.penalty" in checks
    assert "score.amount" in checks  # the amounts 0.00 are still wrong, and said so
    game, hand = hand_21(RIGHT, events=[*EVENTS[:7], EVENTS[7].replace("4D 5D 8H", "4D / 5D 8H")])
    audit = audit_hand(hand, game, R21)
    assert money_unsettled(hand.results, audit.expected, value_cards=True)


def test_drops_points_a_wrong_kind_of_drop_in_21_cards_the_money_follows_is_one_finding() -> (
    None
):
    """`drops.points` (standard-21: a first drop 30, a middle drop 70) and
    `points.value_cards` (docs/rules-21-27.md): C drops before drawing, recorded as a middle
    drop at 70, and the hand's amounts are what 70 settles with the value cards as the
    rules settle them (B +90 for value less 9 points: 81.00; C -70.00; A what the others
    pay, net: -11.00). The amounts follow the wrong charge: one drop.penalty that says the
    money, not also a score.amount for C and for A (docs/replay.md, "Money"; a blind
    tester's 21-card drop was three findings)."""
    events = [e for e in EVENTS if not e.startswith("C ")]
    events[4:4] = ["C drop"]
    results = {"A": ("won", 0, "-11.00"), "B": ("lost", 9, "81.00"),
               "C": ("middle_drop", 70, "-70.00")}  # fmt: skip
    game, hand = hand_21(results, events=events, stock="3H 4C 8H")
    (found,) = audit_hand(hand, game, R21).findings
    assert (found.check, found.player_id) == ("drop.penalty", "C")
    assert found.message.endswith(
        "; the hand's money follows the 70 points charged: the record settles C at -70.00 "
        "where the rules give -30.00 and A at -11.00 where they give -51.00.")
    # an amount off in another way as well keeps its own finding
    game, hand = hand_21({**results, "B": ("lost", 9, "80.00")}, events=events, stock="3H 4C 8H")
    checks = sorted(f.check for f in audit_hand(hand, game, R21).findings)
    assert checks == ["drop.penalty", "score.amount", "score.amount", "score.amount"]


def test_points_value_cards_a_player_who_declared_wrongly_is_out_of_the_settlement() -> None:
    """points.value_cards (standard-21: "a player who dropped or declared wrongly neither
    pays nor receives"; 000_1729c72ad4c1f885.txt, "The player who has a Marriage in hand
    will get 100 points from each of the players (who have not dropped)"): C declares
    wrongly holding 6H 6H, is charged 120, and play goes on; A and B settle the value
    cards between them. The record settles C into them: C's finding says why C's value
    cards earned nothing, as a dropper's does, and cites that rule (a blind tester's
    support agent read "C lost 120 points", which said neither)."""
    events = [e for e in EVENTS if not e.startswith("C ")]
    events[4:4] = ["C draw_stock 5H",
                   "C declare 5H: KS KD QC QH JS JD TC TH AS AD 9C 9H 8S 8D 6H 6H 2C 4D 3S 5S 2H"]
    results = {"A": ("won", 0, "0.00"), "B": ("lost", 9, "0.00"), "C": ("invalid_declare", 120,
                                                                       "-170.00")}
    game, hand = hand_21(results, events=events)
    audit = audit_hand(hand, game, R21)
    assert audit.expected["C"].value is None
    c = next(f for f in audit.findings if f.player_id == "C")
    assert (c.check, c.expected) == ("score.amount", "-120.00")
    assert c.message == (
        "C declared wrongly for 120 points at 1.0000 a point, and a player who declares "
        "wrongly neither pays nor receives for value cards, so the amount should be -120.00, "
        "but the record shows -170.00."
    )
    assert c.rule.startswith("points.value_cards:")


def _recorded_as(game: Game, hand: Hand, way: Settled) -> None:
    """Write the hand's amounts as the value cards settled ``way`` give them."""
    audit = audit_hand(hand, game, R21)
    amounts, _ = money_by_rules(game, _valued(audit.replay, audit.expected, way))
    hand.results = [r._replace(amount=amounts[r.player]) for r in hand.results]


def test_points_value_cards_counted_around_another_cut_card_is_one_finding() -> None:
    """points.value_cards (standard-21: "The value cards are the cut card itself, the up
    joker and the down joker"): the platform counts them around 8H, the 7H's neighbour.
    Every amount moves (three score.amount findings, each true, none saying why: a blind
    tester's 27-card hand had five); read so, one finding says it (audit/replay/recut.py).
    A far card (JD) that happens to give the same amounts is not taken for the cut card
    (another blind tester's phantom value card read so), and the value cards not counted
    at all (as around QH, which no one holds) is no one card read for another: the three
    findings stand."""
    game, hand = hand_21(RIGHT)
    _recorded_as(game, hand, Settled(Jokers.for_wild_card("8H", R21), ()))
    (found,) = audit_hand(hand, game, R21).findings
    assert (found.check, found.player_id, found.expected, found.recorded) == (
        "score.amount", None, "7H 8H 6H", "8H 9H 7H")
    assert found.message == (  # each amount it moved named (a blind tester's named no one)
        "Every amount of this hand settles the value cards as if the cut card were 8H (value "
        "cards 8H 9H 7H), but the deal turned up 7H (value cards 7H 8H 6H); by that alone the "
        "record settles B at 1.00 where the rules give 151.00, C at -140.00 where they give "
        "-170.00 and A at 125.10 where they give 17.10."
    )
    for far in ("JD", "QH"):
        _recorded_as(game, hand, Settled(Jokers.for_wild_card(far, R21), ()))
        assert [f.check for f in audit_hand(hand, game, R21).findings] == ["score.amount"] * 3


def test_points_value_cards_one_players_value_cards_missed_is_that_player_not_another_cut_card(
) -> None:
    """points.value_cards (docs/rules-21-27.md; 000_1729c72ad4c1f885.txt, "The player who has
    a Marriage in hand will get 100 points from each of the players (who have not
    dropped)"): B holds 7H, the cut card, and 7S; the platform leaves A's up joker 8H
    unpaid. Every amount moves, and they are also what value cards counted around 7S give
    (B's 7S worth the 10 their 7H is): that reading is not taken, as one player's value
    cards alone differ (recut.by_one; a blind tester's marriage left unpaid read "as if the
    cut card were 2S", naming no one). The one finding names A's value cards counted as
    worth 0 (recut.Worth; a blind tester's 27-card up joker paid as 30 was three
    score.amount findings and none said why)."""
    left = Counter({f"{r}{s}": 3 for r in "A23459TJQK" for s in "SHDC"})  # no 6, 7 or 8
    left.subtract(f"{A} 3H 4C 5H 8H".split())  # nor A's or the stock's cards, nor
    left.subtract(3 * ["5H", "9H", "AS", "2S", "KS"])  # a value card around 6H, 8H or JK
    plain = [c for i in range(3) for c in sorted(left) if left[c] > i]  # each card once first
    b = " ".join(["7H", "7S", *plain[:19]])  # no dublees; C's 5H: not around 6H either
    c = " ".join(["5H", *plain[19:39]])
    events = [*EVENTS[:8], f"B show: {b}", f"C show: {c}"]  # each all unmatched
    results = {"A": ("won", 0, "0"), "B": ("lost", 96, "0"), "C": ("lost", 120, "0")}
    game, hand = hand_21(results, seats={"A": A, "B": b, "C": c}, events=events)
    audit = audit_hand(hand, game, R21)
    held = {p: e.value.value for p, e in audit.expected.items() if e.value}
    assert {p: v.points for p, v in held.items()} == {"A": 10, "B": 10, "C": 0}
    around_7s = Settled(Jokers.for_wild_card("7S", R21), ())
    assert {p: e.value.value.points for p, e in _valued(audit.replay, audit.expected,
                                                        around_7s).items() if e.value} == {
        "A": 0, "B": 10, "C": 0}  # fmt: skip
    _recorded_as(game, hand, around_7s)
    audit = audit_hand(hand, game, R21)
    fits = [(w.jokers.wild_card if w.jokers else None, w.worth and w.worth[:2])
            for w in settled_otherwise(hand, _unread(hand, game), R21, (), held, game.point_value)
            if not compare_money(audit.replay, game, _valued(audit.replay, audit.expected, w))]
    assert fits == [("7S", None), (None, ("A", 0))]  # the first is one player's alone
    (found,) = audit.findings
    assert (found.check, found.player_id, found.expected, found.recorded) == (
        "score.amount", None, "A: 10", "A: 0")
    assert found.message == (
        "Every amount of this hand settles A's value cards as worth 0 points, but by the rules "
        "they are worth 10 (value cards 8H (10)); by that alone the record settles B at -76.00 "
        "where the rules give -86.00, C at -130.00 where they give -140.00 and A at 185.40 "
        "where they give 203.40."
    )


def test_points_value_cards_one_players_value_cards_counted_dearer_is_one_finding() -> None:
    """points.value_cards (000_1729c72ad4c1f885.txt, "The player who has a Marriage in hand
    will get 100 points from each of the players (who have not dropped)"): the platform
    counts C's 6H 6H (30) as 50. Every amount moves by it; the one finding names C and the
    worth (a blind tester's 27-card hand: three score.amount findings, none saying why). Two
    players' value cards counted wrong at once are read no such way: each amount keeps its
    own finding."""
    game, hand = hand_21(RIGHT)
    audit = audit_hand(hand, game, R21)
    c_value = audit.expected["C"].value
    assert c_value is not None
    _recorded_as(game, hand, Settled(None, (), Worth("C", 50, c_value.value)))
    (found,) = audit_hand(hand, game, R21).findings
    assert (found.check, found.expected, found.recorded) == ("score.amount", "C: 30", "C: 50")
    assert found.message.startswith(
        "Every amount of this hand settles C's value cards as worth 50 points, but by the rules "
        "they are worth 30 (value cards 6H 6H (30)); by that alone the record settles "
    )
    hand.results = [r._replace(amount=r.amount + Decimal("1.00") if r.player == "B" else r.amount)
                    for r in hand.results]  # B's too: no one player's worth gives them
    assert [f.check for f in audit_hand(hand, game, R21).findings] == ["score.amount"] * 3


def _unread(hand: Hand, game: Game) -> list[Finding]:
    """The hand's findings before any reading of its money (``outcome._judged``)."""
    return _judged(HandReplay(hand, game, R21).run(), game, [])[1]


def test_jokers_up_down_jokers_a_joker_charged_as_a_plain_card_is_the_rule_of_its_charge() -> None:
    """`jokers.up_down_jokers` and `jokers.wild_rank_from_wild_card` (000_1729c72ad4c1f885.txt:
    'an extra group of Up & Down Jokers apart from the standard set of Printed and Wildcard
    jokers'; 'All cards of the same rank and any suit as the card selected are also
    considered jokers'): B's 8H, the up joker, makes AS AD 8H a set, 6H, the down joker, TC
    JC 6H a sequence, and 7H, the cut card, KS KD 7H a set. Charged what the cards come to
    with one of them a plain card, the `score.points` finding names it and the group it
    completes and cites the rule that makes it a joker, not the card points (a blind
    tester)."""
    for charged, key, words in (
        (37, "jokers.up_down_jokers", "8H is the up joker of the cut card 7H "
         "(jokers.up_down_jokers), so AS AD 8H is a set"),
        (35, "jokers.up_down_jokers", "6H is the down joker of the cut card 7H "
         "(jokers.up_down_jokers), so TC JC 6H is an impure sequence"),
        (36, "jokers.wild_rank_from_wild_card", "7H is a joker, as the cut card 7H makes "
         "every 7 one (jokers.wild_rank_from_wild_card), so KS KD 7H is a set"),
    ):  # fmt: skip
        game, hand = hand_21({**RIGHT, "B": ("lost", charged, "151.00")})
        (found,) = [f for f in audit_hand(hand, game, R21).findings if f.check == "score.points"]
        assert found.message == (
            f"B was charged {charged} points; the cards left unmatched, 2C 3D 4H, are worth 9, "
            f"as shown; {words}, and the {charged} charged is what the cards come to if "
            f"{words[:2]} is a plain card."
        )
        assert found.rule.startswith(f"{key}: ")


def test_points_value_cards_settled_with_a_player_who_dropped_is_one_finding() -> None:
    """points.value_cards ("a player who dropped or declared wrongly neither pays nor
    receives"): C drops holding 6H 6H, and the platform settles the value cards with C in.
    One finding names C and the rule, not one for each of the three amounts it moved. A
    single amount off is its own finding still."""
    events = [e for e in EVENTS if not e.startswith("C ")]
    events[4:4] = ["C drop"]
    results = {"A": ("won", 0, "0.00"), "B": ("lost", 9, "0.00"), "C": ("first_drop", 30, "0")}
    game, hand = hand_21(results, events=events, stock="3H 4C 8H")
    _recorded_as(game, hand, Settled(None, ("C",)))
    (found,) = audit_hand(hand, game, R21).findings
    assert (found.check, found.expected, found.recorded) == ("score.amount", "without C", "with C")
    assert found.message.startswith(
        "Every amount of this hand settles the value cards with C among the players who pay "
        "and are paid, but a player who drops or declares wrongly neither pays nor receives"
    )
    _recorded_as(game, hand, Settled(None, ()))  # the rules' own settlement
    assert audit_hand(hand, game, R21).findings == []
    hand.results = [r._replace(amount=Decimal("-29.00")) if r.player == "C" else r
                    for r in hand.results]  # fmt: skip
    assert [f.player_id for f in audit_hand(hand, game, R21).findings] == ["C"]


def _fourth(held: list[str], stock: str, wild: str, value: str) -> str:
    """21 cards for a fourth player D from what the three decks have left, ``value`` (a
    value card) among them."""
    left = Counter({f"{r}{s}": 3 for r in "A23456789TJQK" for s in "SHDC"})
    left["JK"] = 3
    for card in " ".join([*held, stock, wild]).split():
        left[card] -= 1
    assert left[value] > 0
    left[value] -= 1
    rest = [c for c, n in sorted(left.items()) if c != "JK" for _ in range(n)]
    return " ".join([value, *rest[:20]])


def test_points_value_cards_settled_with_the_dropper_but_not_the_wrong_declarer_is_one_finding(
) -> None:  # fmt: skip
    """points.value_cards ("a player who dropped or declared wrongly neither pays nor
    receives"): C declares wrongly and D drops holding the value card 7H; the platform
    settles the value cards with D in (Adda52's "middle drop: value cards honoured",
    docs/rules-21-27.md) but not C. Every amount moves by that alone: one finding naming D
    (a blind tester had three, one per amount: only all the players out at once was
    tried)."""
    stock = "3H 4C 5H 8H"
    d = _fourth([A, B, C], stock, "7H", "7H")
    events = [e for e in EVENTS if not e.startswith("C ")]
    events[4:4] = ["C draw_stock 5H",
                   "C declare 5H: KS KD QC QH JS JD TC TH AS AD 9C 9H 8S 8D 6H 6H 2C 4D 3S 5S 2H",
                   "D drop"]  # fmt: skip
    results = {"A": ("won", 0, "0"), "B": ("lost", 9, "0"),
               "C": ("invalid_declare", 120, "0"), "D": ("first_drop", 30, "0")}  # fmt: skip
    game, hand = hand_21(results, seats={"A": A, "B": B, "C": C, "D": d}, events=events,
                         stock=stock)  # fmt: skip
    _recorded_as(game, hand, Settled(None, ("D",)))
    (found,) = audit_hand(hand, game, R21).findings
    assert (found.check, found.expected, found.recorded) == ("score.amount", "without D", "with D")
    _recorded_as(game, hand, Settled(None, ()))  # the rules' own settlement
    assert audit_hand(hand, game, R21).findings == []


def test_deal_shoes_a_hand_its_shoe_cannot_deal_is_its_deck_composition_alone() -> None:
    """deal.shoes: a shoe too short to deal (an empty list) is the hand's deck.composition
    findings, and nothing that rests on the deal: no one was dealt cards, so the rules know
    neither the outcome nor the value cards, and the recorded amounts (value cards
    included) are not compared as if there were none (a blind tester: an empty shoe was
    also two `score.amount` and three critical `ledger.balance`). The game's ledger, which
    the rules cannot settle, is one `game.unchecked` naming the hand. A shoe a few cards
    short still deals: its value cards are known, and its money is judged."""
    game, hand = hand_21(RIGHT)
    game.ledger = [LedgerRow("A", "points_settlement", Decimal("17.10")),
                   LedgerRow("B", "points_settlement", Decimal("151.00")),
                   LedgerRow("C", "points_settlement", Decimal("-170.00")),
                   LedgerRow(None, "rake", Decimal("1.90"))]  # fmt: skip
    assert audit_unit(GameUnit(game.game_id, game, [hand])).findings == []
    full = list(hand.shoe)
    hand.shoe = []
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    found = unit.hands[0].audit.findings  # type: ignore[union-attr]
    assert {f.check for f in found} == {"deck.composition"}
    (unchecked,) = unit.findings
    assert (unchecked.check, unchecked.severity) == ("game.unchecked", "info")
    assert unchecked.message.startswith(
        "Game G1's ledger rows do not add up, but the shoe of hand H1 could not be dealt (see "
        "its deck.composition finding), so what its hands settle is not known and its money "
        "was not checked; what does not add up: "
    )
    hand.shoe = full[:-3]  # short by three cards: dealt all the same
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert [f.check for f in unit.hands[0].audit.findings] == ["deck.composition"]  # type: ignore[union-attr]
    assert unit.findings == []
    hand.results = [r._replace(amount=Decimal("-120.00")) if r.player == "C" else r
                    for r in hand.results]  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert "score.amount" in {f.check for f in unit.hands[0].audit.findings}  # type: ignore[union-attr]
