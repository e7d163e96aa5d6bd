"""`rummy-audit explain` on the money of a pool game whose split the rules see otherwise
than the record: `pool_101.auto_split_above` ("When every player left stands above 80, the
prize is split equally at once"), where the record names a winner instead, and a deals
hand whose chips follow its wrong points (`deals.chips`: chips are -points of the rules'
points). Every sum "by the rules" is the rules', and none "agrees" that does not."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from audit.explain import build_view, render_game_text
from audit.explain.game import GameView
from audit.explain.ledgerview import Payout
from audit.records import GameEvent, GameUnit, LedgerRow
from audit.unit import audit_unit
from tests.explain.test_game import flat
from tests.explain.test_winner import fees_and_prize, game_view, hands, won_by
from tests.games.test_pool import ev, pool_game
from tests.replay.cases import base

P2_LOSES = base(results={"P1": ("won", 0, None), "P2": ("lost", 40, None)})
P2_DROPS = base(events=["P1 draw_stock JK", "P1 discard JK", "P2 drop"],
                results={"P1": ("won", 0, None), "P2": ("first_drop", 20, None)})  # fmt: skip
P1_DROPS = base(events=["P1 drop"], results={"P1": ("first_drop", 20, None),
                                             "P2": ("won", 0, None)})  # fmt: skip


def scored(kws: list[dict[str, object]]) -> list[dict[str, object]]:
    """The hands ``kws`` with each player's running score recorded right."""
    total = {"P1": 0, "P2": 0}
    out = []
    for kw in kws:
        results = kw["results"]
        assert isinstance(results, dict)
        for p, (_, points, _) in results.items():
            total[p] += points
        out.append({**kw, "score_after": dict(total)})
    return out


def test_an_auto_split_the_rules_owed_is_said_with_each_share_against_the_prize_paid() -> None:
    """`pool_101.auto_split_above` (000_1729c72ad4c1f885.txt: "The Prize amount or table
    amount is equally split among all active eligible players in Auto Split"): after hand 7
    P1 has 80 and P2 100; after hand 8 P1 has 100 too: both above 80, so by the rules the
    game ends there and the prize of 180.00 is split automatically, 90.00 each. The record
    names P1 the winner and pays them the whole prize. The result and the money say the
    split and each share (they said "the game has no winner yet", "P1's prize: 0.00 by the
    rules ... not compared" and nothing of P2's share: a blind tester). The ledger is
    judged against the split the rules owed (schemas/money.md, step 4), so each share is
    compared: P1's "differs" (180.00 paid), P2's "differs" (nothing paid), and the Owed
    line says who is owed what. Until 2026-12-06 the ledger was judged against the recorded
    winner, the shares were "not compared" and no Owed line said P2's 90.00 (a blind
    tester: no money finding though the others were owed their shares). A ledger that paid
    the shares in split rows agrees."""
    kws = scored([P1_DROPS] * 4 + [P2_LOSES, P2_LOSES, P2_DROPS, P1_DROPS])
    game, played = hands(kws, game_format="pool_101")
    game = replace(game, game_events=[won_by("P1", 8)], ledger=fees_and_prize("P1", "180.00",
                                                                              "20.00"))
    view = game_view(game, played)
    assert [(f.check, f.player, f.expected) for f in view.findings] == [
        ("ledger.balance", "P1", "90.00"), ("ledger.balance", "P2", "90.00"),
        ("pool.split", "", "auto split"),
    ]  # fmt: skip
    assert view.result.startswith(
        "recorded as won by P1; by the rules every player left after hand 8 (P1 100 and P2 100) "
        "stood above 80, so the prize is split automatically between them: the game has no "
        "single winner (pool.split, see the findings)"
    )
    assert view.ledger is not None
    shares = {p.player: p for p in view.ledger.payouts if p.what == "split share"}
    assert [(p, s.rules_give, s.recorded, s.verdict) for p, s in shares.items()] == [
        ("P1", "90.00", "180.00", "differs"), ("P2", "90.00", "0.00", "differs"),
    ]  # fmt: skip
    assert "the ledger pays P1 a prize (see the ledger.balance finding)" in shares["P1"].how
    # each share said, not only "in equal shares" (a blind tester's support agent)
    assert (
        "an automatic split after hand 8 of the prize of 180.00 (2 entries at 100.00 less the "
        "rake): 180.00 in 2 equal shares of 90.00"
    ) in shares["P2"].how
    assert view.ledger.owed == "P1 was paid 90.00 too much; P2 is owed 90.00"
    text = flat(render_game_text(view, width=200))
    assert "P2's split share: 90.00 by the rules, 0.00 recorded: differs" in text
    assert "Owed, by these sums: P1 was paid 90.00 too much; P2 is owed 90.00." in text
    assert "no winner yet" not in text
    assert "P1's prize" not in text
    # the shares paid in split rows, with no split event: they agree, no money finding
    split_rows = [r for r in game.ledger if r.kind != "prize"] + [
        LedgerRow(p, "split", Decimal("90.00")) for p in ("P1", "P2")]  # fmt: skip
    view = game_view(replace(game, ledger=split_rows), played)
    assert [f.check for f in view.findings] == ["pool.split"]
    assert view.ledger is not None
    assert [(p.player, p.rules_give, p.recorded, p.verdict) for p in view.ledger.payouts
            if p.what == "split share"] == [("P1", "90.00", "90.00", "agrees"),
                                            ("P2", "90.00", "90.00", "agrees")]  # fmt: skip
    assert view.ledger.owed == ""


def test_deals_chips_that_follow_wrong_points_are_said_as_the_rules_give_them() -> None:
    """`drops.deals` and `deals.chips`: P2 drops in a deals game, where no drop is allowed,
    and is charged 20 points and 20 chips; by the rules 80 points, so 80 chips, and P1 wins
    80. The replay's one finding is the drop's; the chips follow the recorded points, no
    second finding. The hand says the rules' chips (it said "chips -20" as the rules', and
    P1's recorded 20 chips "agrees": a blind tester) and why the record's differ."""
    game, played = hands([{**P2_DROPS, "results": {"P1": ("won", 0, "20.00"),
                                                   "P2": ("first_drop", 20, "-20.00")}}],
                         game_format="deals")  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, played))
    view = build_view(unit, played[0].hand_id, source="logs", version="V")
    assert [f.check for f in view.findings] == ["drop.penalty"]
    seats = {p.player: p for p in view.players}
    assert (seats["P2"].amount, seats["P2"].agrees, seats["P2"].differs) == (
        "-80", False, ("points", "chips"))  # fmt: skip
    assert (seats["P1"].amount, seats["P1"].agrees, seats["P1"].differs) == (
        "80", False, ("chips",))  # fmt: skip
    assert seats["P1"].note == (
        "the recorded 20 chips follow the recorded points of P2: the difference is the "
        "drop.penalty finding's (on P2), not a second fault"
    )


def three_way_split(shares: str, rake: str, pct: str) -> list[Payout]:
    """A 101 pool game of A, B and C at 10.00 each, split automatically after hand 2, the
    ledger paying ``shares`` (A's, B's and C's) and a rake of ``rake`` (``pct``): explain's
    split shares, the game having no finding."""
    paid = shares.split()
    ledger = [*((p, "split", a) for p, a in zip("ABC", paid, strict=True)), (None, "rake", rake),
              *((p, "buy_in", "-10.00") for p in "ABC")]  # fmt: skip
    game, played = pool_game([{"A": 40, "B": 40, "C": 40}, {"B": 45, "C": 45, "A": 45}],
                             [ev(2, None, "auto")], ledger, fee=Decimal("10.00"),
                             rake=Decimal(pct), ended=True)  # fmt: skip
    view = game_view(game, played)
    assert view.findings == ()
    assert view.ledger is not None
    return [p for p in view.ledger.payouts if p.what == "split share"]


def test_leftover_paise_given_to_another_player_agree_and_say_who_had_them() -> None:
    """`pool_101.auto_split_above` (000_1729c72ad4c1f885.txt: "equally split"): 25.87 in
    three shares is 8.62 each and a paisa left over. The seeds do not say who gets it
    (schemas/money.md); the record gave it to C, the last in seat order. The split's check
    raises nothing, and explain agrees with each share and says who had the paisa (it said
    "the first in seat order a paisa more" of a split paid otherwise)."""
    shares = three_way_split("8.62 8.62 8.63", "4.13", "13.75")
    assert [(p.player, p.rules_give, p.recorded, p.verdict) for p in shares] == [
        ("A", "8.62", "8.62", "agrees"), ("B", "8.62", "8.62", "agrees"),
        ("C", "8.63", "8.63", "agrees"),
    ]  # fmt: skip
    assert shares[0].how.endswith(
        "25.87 in 3 equal shares of 8.62, C a paisa more (the rules do not say who gets the "
        "paise left over)"
    )


def test_two_leftover_paise_are_said_of_both_players_who_had_them() -> None:
    """`pool_101.auto_split_above` and schemas/money.md (leftover paise): 26.00 in three
    is 8.66 each and two paise left over, by seat order A's and B's. The record gave them
    to A and C (8.67, 8.66, 8.67): explain names both, each a paisa more (it said "C a
    paisa more", three shares of 24.49 in all: a blind tester)."""
    shares = three_way_split("8.67 8.66 8.67", "4.00", "13.33")
    assert [(p.player, p.recorded, p.verdict) for p in shares] == [
        ("A", "8.67", "agrees"), ("B", "8.66", "agrees"), ("C", "8.67", "agrees")]
    assert shares[0].how.endswith(
        "26.00 in 3 equal shares of 8.66, A and C a paisa more each (the rules do not say "
        "who gets the paise left over)"
    )


def test_a_winner_in_the_game_only_by_a_refused_rebuy_has_their_prize_counted_as_recorded() -> None:
    """`pool_101.rebuy_min_players` (000_: "When more than two players are playing at a
    table, the player who has lost the game ... has an opportunity to Re-Buy"): at a table
    of two, B is out at 110 after hand 2, rebuys at 31 (refused: one finding), and wins
    the game after hand 3. The ledger pays B the three entries' prize, as the game's
    checks count the rebuy: the prize agrees only with it counted as recorded, and says
    B was out after hand 2 by the rules (it read a bare "agrees ... to B, who won the
    game": a blind tester)."""
    ledger = [("A", "buy_in", "-100.00"), ("B", "buy_in", "-100.00"), ("B", "rebuy", "-100.00"),
              ("B", "prize", "270.00"), (None, "rake", "30.00")]  # fmt: skip
    game, played = pool_game([{"A": 0, "B": 60}, {"A": 0, "B": 50}, {"A": 110, "B": 0}],
                             [ev(2, "B", "eliminated", 110), ev(2, "B", "rebuy", 1),
                              ev(3, "A", "eliminated", 110), ev(3, "B", "game_won")], ledger,
                             ended=True)  # fmt: skip
    view = game_view(game, played)
    assert [f.check for f in view.findings] == ["pool.rebuy"]
    assert view.ledger is not None
    (prize,) = [p for p in view.ledger.payouts if p.what == "prize"]
    assert (prize.player, prize.rules_give, prize.recorded) == ("B", "270.00", "270.00")
    assert prize.verdict == "agrees, with B's rebuy after hand 2 counted as recorded"
    assert prize.how.endswith(
        "in it only by a rebuy the rules do not allow (the pool.rebuy finding): by the rules "
        "B was out after hand 2, and the prize is theirs only as recorded")


def manual_split(p1: str, p2: str) -> GameView:
    """Two hands of 101 pool (P1 20, P2 40 after hand 2), then P2 offers a split, P1
    accepts and the game is split by agreement; the ledger pays P1 ``p1`` and P2 ``p2``."""
    game, played = hands(scored([P2_LOSES, P1_DROPS]), game_format="pool_101")
    events = [GameEvent(2, 1, "P2", "split_offer", None, None),
              GameEvent(2, 2, "P1", "split_accept", None, None),
              GameEvent(2, 3, None, "split", None, "manual")]  # fmt: skip
    ledger = [LedgerRow("P1", "buy_in", Decimal("-100.00")),
              LedgerRow("P2", "buy_in", Decimal("-100.00")),
              LedgerRow("P1", "split", Decimal(p1)), LedgerRow("P2", "split", Decimal(p2)),
              LedgerRow(None, "rake", Decimal("20.00"))]  # fmt: skip
    return game_view(replace(game, game_events=events, ledger=ledger), played)


def test_manual_split_min_score_a_split_the_rules_forbid_has_no_share_by_the_rules_000() -> None:
    """`pool_101.manual_split_min_score` (000_1729c72ad4c1f885.txt: "Manual Split will be
    enabled in 101 pool game, only when the Total Score ... greater than or equal to 61"):
    after hand 2 P1 has 20 and P2 40, P2 offers a split and P1 accepts; the record splits
    the prize of 180.00 by agreement, 135.00 and 45.00 (the record's manual shares). By the
    rules there is no split and the game goes on, so no share exists: each is "none" by the
    rules, "not compared" (the split's checks judge none of its shares; what is wrong is
    the split, its one pool.split finding), with why; the result says the record split it
    though the rules do not allow that split (a blind tester read "u009's split share:
    113.33 by the rules, 113.33 recorded: agrees" and "the prize was split by agreement"
    beside that finding). Shares paid otherwise are still not compared (docs/replay.md:
    until 2026-12-06 they were judged as the record's split by agreement pays them)."""
    view = manual_split("135.00", "45.00")
    assert [(f.check, f.recorded) for f in view.findings] == [("pool.split", "manual split")]
    assert view.result == (
        "recorded as split by agreement after hand 2, though the rules do not allow that "
        "split: a split by agreement needs every score at 61 or more (the lowest is 20), so by "
        "the rules the game goes on (pool.split, see the findings)"
    )
    assert view.ledger is not None
    shares = {p.player: p for p in view.ledger.payouts if p.what == "split share"}
    assert [(p, s.rules_give, s.recorded, s.verdict) for p, s in shares.items()] == [
        ("P1", "none", "135.00", "not compared"), ("P2", "none", "45.00", "not compared"),
    ]  # fmt: skip
    assert shares["P1"].how.startswith(
        "score 20, 4 first drops left: by the rules a split by agreement needs every score at "
        "61 or more (the lowest is 20), so the game is not split after hand 2 and goes on: no "
        "share is due. The split's checks judge none of its shares: what differs from the "
        "rules is the split itself (the pool.split finding)"
    )
    assert view.ledger.owed == ""
    text = flat(render_game_text(view, width=200))
    assert "P1's split share: none by the rules, 135.00 recorded: not compared" in text
    assert ("the prize is recorded as split by agreement (a manual split); by the rules a "
            "manual split needs every score at 61 or more (the lowest is 20): the game goes "
            "on") in text
    assert "agrees" not in text.split("P1's split share")[1]
    # shares paid otherwise than the record's split gives: still the one finding, and
    # "not compared" (a blind tester: three more pool.split on shares no split owes)
    view = manual_split("140.00", "40.00")
    assert view.ledger is not None
    assert [(f.check, f.recorded) for f in view.findings] == [("pool.split", "manual split")]
    assert [(p.player, p.verdict) for p in view.ledger.payouts if p.what == "split share"] == [
        ("P1", "not compared"), ("P2", "not compared"),
    ]  # fmt: skip


def test_a_split_share_paid_to_another_player_is_said_on_both_lines() -> None:
    """schemas/money.md, step 3 (one share's row under another player is one finding on
    the player it is under, naming both) and `pool_101.auto_split_above`: B's share of
    90.00 is paid to X, who never sat at the table. The money view says the same on both
    players' share lines, as it does of a prize row under the wrong player, and the owed
    sums say who is owed what."""
    ledger = [("A", "buy_in", "-100.00"), ("B", "buy_in", "-100.00"), ("A", "split", "90.00"),
              ("X", "split", "90.00"), (None, "rake", "20.00")]  # fmt: skip
    game, played = pool_game([{"A": 85, "B": 88}], [ev(1, None, "auto")], ledger, ended=True)
    view = game_view(game, played)
    assert [(f.check, f.player, f.expected) for f in view.findings] == [
        ("ledger.balance", "X", "B")]  # fmt: skip
    assert view.ledger is not None
    shares = {p.player: p for p in view.ledger.payouts if p.what == "split share"}
    assert [(p, s.rules_give, s.recorded, s.verdict) for p, s in shares.items()] == [
        ("A", "90.00", "90.00", "agrees"), ("B", "90.00", "0.00", "differs"),
        ("X", "0.00", "90.00", "differs"),
    ]  # fmt: skip
    assert shares["B"].how.endswith(
        "180.00 in 2 equal shares of 90.00; the ledger pays it in a split row under X (one "
        "ledger.balance finding)")  # fmt: skip
    assert shares["X"].how == "X never sat at the table: the split row under X is B's share"
    assert view.ledger.owed == "B is owed 90.00; X was paid 90.00 too much"


def test_pool_split_a_split_not_accepted_by_every_player_has_no_share_by_the_rules() -> None:
    """`pool.split` (000_1729c72ad4c1f885.txt: "Manual Split will only execute if all
    players accept to have a Manual Split"; docs/replay.md: "so too a split not accepted by
    every player left"): at 65, 70 and 85 A offers a split, B accepts, and C never accepts
    (or rejects it), yet the record splits the prize by agreement, 120.00, 120.00 and
    30.00. Each share is "none" by the rules, "not compared", with why. Until 2026-12-06
    the game view stopped with a traceback: the pool.split finding's expected
    "split_accept" was read as C's share (a blind tester)."""
    ledger = [("A", "split", "120.00"), ("B", "split", "120.00"), ("C", "split", "30.00"),
              (None, "rake", "30.00"), *((p, "buy_in", "-100.00") for p in "ABC")]  # fmt: skip
    offered = [ev(1, "A", "split_offer"), ev(1, "B", "split_accept")]
    for said, c_row in (("never accepted", []), ("rejected", [ev(1, "C", "split_reject")])):
        game, played = pool_game([{"A": 65, "B": 70, "C": 85}],
                                 [*offered, *c_row, ev(1, None, "manual")], ledger,
                                 ended=True)  # fmt: skip
        view = game_view(game, played)
        assert [(f.check, f.player, f.expected) for f in view.findings] == [
            ("pool.split", "C", "split_accept")]  # fmt: skip
        assert view.findings[0].message.endswith(f"but C {said} the split.")
        assert view.ledger is not None
        shares = {p.player: p for p in view.ledger.payouts if p.what == "split share"}
        assert [(p, s.rules_give, s.recorded, s.verdict) for p, s in shares.items()] == [
            ("A", "none", "120.00", "not compared"), ("B", "none", "120.00", "not compared"),
            ("C", "none", "30.00", "not compared"),
        ]  # fmt: skip
        assert shares["C"].how.startswith(
            "score 85, 0 first drops left: by the rules a split by agreement needs every "
            "player left to accept it, and C did not, so the game is not split after hand 1 "
            "and goes on: no share is due.")  # fmt: skip
        assert view.ledger.owed == ""
        text = flat(render_game_text(view, width=200))
        assert "C's split share: none by the rules, 30.00 recorded: not compared" in text
