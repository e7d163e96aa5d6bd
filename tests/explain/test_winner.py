"""`rummy-audit explain GAME_ID` where the rules refuse what a game's record ends on: a
deals winner without the most chips or with the lead tied, a pool game whose refused
elimination leaves two players in, a rebuy the rules do not allow. README: "a recorded
winner the rules do not give is marked as recorded, the rules' winner beside it"; the
money is said as the ledger check judges it (schemas/money.md step 4), and a game event
the rules refuse as the record's, with what the rules say."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

from audit.explain import build_game_view, render_game_text
from audit.explain.game import GameView
from audit.explain.ledgerview import Payout
from audit.explain.view import build_view
from audit.records import Game, GameEvent, GameUnit, Hand, LedgerRow
from audit.unit import audit_unit
from tests.explain.games import _pool_hand
from tests.explain.test_game import flat
from tests.replay.cases import DECLARE, P1, P2, P3, SHOW, base
from tests.replay.scenario import scenario
from tests.replay.test_platform_verdict import INVALID

SWAPPED = base(
    seats={"P2": P1, "P1": P2},
    events=["P2 draw_stock JK", DECLARE.replace("P1", "P2"), "P1 show: " + P2],
)
"""The clean hand with the players' places swapped: P2 declares, P1 shows and loses 40."""


def hands(kws: list[dict[str, object]], **over: object) -> tuple[Game, list[Hand]]:
    """The scenario hands ``kws`` as hands 1, 2, ... of one game (``over``: the scenario's
    game options)."""
    played, game = [], None
    for no, kw in enumerate(kws, start=1):
        game, hand = scenario(**{**kw, **over, "hand_id": f"H{no}"})  # type: ignore[arg-type]
        played.append(replace(hand, hand_no=no))
    assert game is not None
    return game, played


def game_view(game: Game, played: list[Hand]) -> GameView:
    return build_game_view(audit_unit(GameUnit(game.game_id, game, played)), source="logs",
                           version="V")  # fmt: skip


def prizes(view: GameView) -> dict[str, Payout]:
    assert view.ledger is not None
    return {p.player: p for p in view.ledger.payouts if p.what == "prize"}


def won_by(player: str, hand_no: int = 2) -> GameEvent:
    return GameEvent(hand_no, 9, player, "game_won", None, None)


def fees_and_prize(winner: str, prize: str, rake: str, *rebuyers: str) -> list[LedgerRow]:
    return [LedgerRow("P1", "buy_in", Decimal("-100.00")),
            LedgerRow("P2", "buy_in", Decimal("-100.00")),
            *(LedgerRow(p, "rebuy", Decimal("-100.00")) for p in rebuyers),
            LedgerRow(winner, "prize", Decimal(prize)),
            LedgerRow(None, "rake", Decimal(rake))]  # fmt: skip


P1_WINS = {"P1": ("won", 0, "40.00"), "P2": ("lost", 40, "-40.00")}
"""A deal P1 wins: P2 is charged 40 and gives up 40 chips."""


def deals_game(second: dict[str, object], winner: str) -> GameView:
    """A best of 2: P1 wins deal 1 (40 chips from P2), ``second`` is deal 2; the game_won
    row names ``winner``, and the ledger pays ``winner`` the prize of 180.00."""
    game, played = hands([base(results=P1_WINS), second], game_format="deals")
    game = replace(game, game_events=[won_by(winner)], ledger=fees_and_prize(winner, "180.00",
                                                                              "20.00"))
    return game_view(game, played)


# ------------------------------------------------------------ deals


def test_a_deals_winner_without_the_most_chips_is_marked_as_recorded_and_paid_as_such() -> None:
    """`deals.chips` ("after the game's deals the most chips wins"): P1 wins both deals,
    80 chips to P2's -80, and the game_won row and the prize name P2. The header, the
    game_won line and the prize say P2 is the record's winner and P1 the rules' (they said
    "won by P2", "P2 wins the game" and "P2's prize: 180.00 by the rules ... agrees": a
    blind tester). The ledger is checked against the rules' winner, the player with the
    most chips (schemas/money.md step 4, as pool's last player left): the prize paid to P2
    is money paid to the wrong player, the ledger's own one finding on P2 naming P1 (P1's
    whole prize in a row under P2: schemas/money.md, step 3), and each prize line differs
    and says so."""
    view = deals_game(base(results=P1_WINS), "P2")
    assert sorted((f.check, f.player, f.expected) for f in view.findings) == [
        ("deals.chips", "P2", "P1"), ("ledger.balance", "P2", "P1"),
    ]  # fmt: skip
    assert view.result == (
        "recorded as won by P2; by the rules P1 wins (deals.chips, see the findings)"
    )
    assert view.scores is not None
    line = view.scores.rows[-1].events[-1]
    assert (line.text, line.severity) == (
        "P2 is recorded as winning the game; by the rules P1 wins", "major",
    )  # fmt: skip
    paid = prizes(view)
    assert (paid["P2"].rules_give, paid["P2"].recorded, paid["P2"].verdict) == (
        "0.00", "180.00", "differs",
    )  # fmt: skip
    assert (paid["P1"].rules_give, paid["P1"].recorded, paid["P1"].verdict) == (
        "180.00", "0.00", "differs",
    )  # fmt: skip
    assert paid["P1"].how.endswith(
        "to P1, the player with the most chips by the rules (the game is recorded as won by "
        "P2); the ledger's prize row is under P2 (one ledger.balance finding)"
    )
    assert paid["P2"].how == "P2 did not win the game: the prize row under P2 is P1's prize"
    text = flat(render_game_text(view, width=200))
    assert "Result: recorded as won by P2; by the rules P1 wins" in text
    assert "P2's prize: 0.00 by the rules, 180.00 recorded: differs" in text
    # what is owed to whom, in one line a support agent reads out (a blind tester)
    assert "Owed, by these sums: P1 is owed 180.00; P2 was paid 180.00 too much." in text


def test_deals_chips_a_wrong_game_won_with_the_prize_paid_right_is_one_finding() -> None:
    """`deals.chips`: the game_won row names P2, but the ledger pays the prize to P1, who
    has the most chips. The ledger is right (judged against the rules' winner): the one
    finding is the game's `deals.chips` (a blind tester had two critical ledger.balance
    findings on this right ledger, in 77 of 77 deals games)."""
    game, played = hands([base(results=P1_WINS), base(results=P1_WINS)], game_format="deals")
    game = replace(game, game_events=[won_by("P2")],
                   ledger=fees_and_prize("P1", "180.00", "20.00"))  # fmt: skip
    view = game_view(game, played)
    assert [(f.check, f.expected) for f in view.findings] == [("deals.chips", "P1")]
    paid = prizes(view)
    assert (paid["P1"].rules_give, paid["P1"].recorded, paid["P1"].verdict) == (
        "180.00", "180.00", "agrees",
    )  # fmt: skip


def test_a_deals_game_ended_on_a_tied_lead_has_no_winner_by_the_rules() -> None:
    """`deals.tie` ("When the lead is tied after the last deal, one more deal is played"):
    P1 wins deal 1 and P2 deal 2, 40 chips each, 0 to 0, and the record ends the game won
    by P1. By the rules no one has won: the header says so beside the record's winner, and
    no prize is due, so P1's is not said to agree (a blind tester)."""
    view = deals_game({**SWAPPED, "results": {"P2": ("won", 0, "40.00"),
                                              "P1": ("lost", 40, "-40.00")}}, "P1")  # fmt: skip
    assert [(f.check, f.expected) for f in view.findings] == [("deals.chips", "one more deal")]
    assert view.result == (
        "recorded as won by P1; by the rules the lead on chips is tied after the last deal, so "
        "one more deal is played: the game has no winner yet (deals.chips, see the findings)"
    )
    paid = prizes(view)
    assert list(paid) == ["P1"]
    assert (paid["P1"].rules_give, paid["P1"].recorded, paid["P1"].verdict) == (
        "0.00", "180.00", "not compared",
    )  # fmt: skip
    assert paid["P1"].how.startswith(
        "P1 is the recorded winner, but by the rules the lead on chips is tied after the last "
        "deal, so one more deal is played: the game has no winner yet and no prize is due;"
    )


def test_a_tied_deals_game_split_with_no_winner_recorded_owes_no_prize_yet() -> None:
    """`deals.tie` ("When the lead is tied after the last deal, one more deal is played"):
    0 to 0 after two deals, no game_won row, and the ledger splits the prize, 90.00 each.
    The replay's one finding is the deals.chips one (one more deal); its ledger check
    judges no prize of a game the rules have not ended, so explain says each prize row
    "not compared", not "P1 was paid 90.00 too much" with no money finding beside it (a
    blind tester)."""
    game, played = hands([base(results=P1_WINS), {**SWAPPED, "results": {
        "P2": ("won", 0, "40.00"), "P1": ("lost", 40, "-40.00")}}], game_format="deals")
    ledger = [*fees_and_prize("P1", "90.00", "20.00"), LedgerRow("P2", "prize", Decimal("90.00"))]
    view = game_view(replace(game, ledger=ledger), played)
    assert [(f.check, f.expected) for f in view.findings] == [("deals.chips", "one more deal")]
    paid = prizes(view)
    assert [(p, paid[p].rules_give, paid[p].recorded, paid[p].verdict) for p in paid] == [
        ("P1", "0.00", "90.00", "not compared"), ("P2", "0.00", "90.00", "not compared")]
    assert paid["P1"].how.startswith(
        "by the rules the lead on chips is tied after the last deal, so one more deal is "
        "played: the game has no winner yet; no prize is due by the rules until it has one")
    assert view.ledger is not None
    assert view.ledger.owed == ""


# ------------------------------------------------------------ pool


def pool_hands(
    losses: int, *, restart: int | None = None, after: int = 0
) -> tuple[Game, list[Hand]]:
    """``losses`` hands of 101 pool in which P1 declares and P2 shows on the first turn,
    charged 40 each (the first hand show cap), P2's recorded score counting on from 0, or
    from ``restart`` after hand ``after``."""
    kws: list[dict[str, object]] = []
    score = 0
    for no in range(1, losses + 1):
        score = (restart if no == after + 1 and restart is not None else score) + 40
        kws.append(base(results={"P1": ("won", 0, None), "P2": ("lost", 40, None)},
                        score_after={"P1": 0, "P2": score}))  # fmt: skip
    return hands(kws, game_format="pool_101")


def test_an_elimination_the_rules_refuse_is_said_as_recorded_and_the_prize_not_compared() -> None:
    """`pool_101.elimination_score` ("a player whose running score reaches 101 is
    eliminated") and schemas/money.md step 4: P2 is recorded as eliminated at 40 after hand
    1 and P1 as the winner, paid the prize. By the rules P2 is still in: the elimination is
    said as the record's with the rules' word (it read "P2 is eliminated with a score of 40
    (101 or more is out)"), and the prize, judged against the recorded winner with no money
    finding, is not compared (it read "0.00 by the rules, 180.00 recorded: differs": a blind
    tester)."""
    game, played = pool_hands(1)
    game = replace(game, game_events=[GameEvent(1, 1, "P2", "eliminated", 40, None),
                                      won_by("P1", 1)],
                   ledger=fees_and_prize("P1", "180.00", "20.00"))  # fmt: skip
    view = game_view(game, played)
    assert [(f.check, f.player) for f in view.findings] == [("pool.elimination", "P2")]
    assert view.result == (
        "recorded as won by P1; by the rules P1 and P2 are still in after the last hand, so "
        "the game has no winner yet (pool.elimination, see the findings)"
    )
    assert view.scores is not None
    (row,) = view.scores.rows
    assert (row.cells[1].text, row.cells[1].note) == ("40 out", "still in by the rules")
    assert [e.text for e in row.events] == [
        "P2 is recorded as eliminated with a score of 40; by the rules P2's score is 40, below "
        "the 101 that eliminates: P2 is still in",
        "P1 is recorded as winning the game; by the rules P1 and P2 are still in after the "
        "last hand, so the game has no winner yet",
    ]
    prize = prizes(view)["P1"]
    assert (prize.rules_give, prize.recorded, prize.verdict) == ("0.00", "180.00", "not compared")
    assert "what is wrong is the winner (pool.elimination, see the game-level findings)" in (
        prize.how)  # fmt: skip
    text = flat(render_game_text(view, width=200))
    assert "P1's prize: 0.00 by the rules, 180.00 recorded: not compared" in text
    assert "differs" not in text


def test_an_elimination_refused_before_the_last_hand_leaves_the_game_with_no_winner_000() -> (
    None
):
    """`pool_101.elimination_score` ("a player whose running score reaches 101 is
    eliminated") and schemas/money.md step 4: P3 is recorded as eliminated at 33 after hand
    1 of 2 and dealt into no later hand; P2 is rightly out at 117 after hand 2, and P1 is
    named the winner and paid the prize of 270.00. The one finding is the elimination's
    (``poolwords.dealt_out`` says who was named and paid); by the rules P1 and P3 are still
    in, so the result says the game has no winner yet and the prize, judged against the
    recorded winner, is "not compared" (a blind tester read "Result: won by u009" and
    "u009's prize: 27.00 by the rules, 27.00 recorded: agrees ... to u009, who won the
    game" beside that finding)."""
    kws = [_pool_hand(1, {"P1": 0, "P2": 77, "P3": 33}),
           base(results={"P1": ("won", 0, None), "P2": ("lost", 40, None)},
                score_after={"P1": 0, "P2": 117})]  # fmt: skip
    game, played = hands(kws, game_format="pool_101")
    fees = [LedgerRow(p, "buy_in", Decimal("-100.00")) for p in ("P1", "P2", "P3")]
    game = replace(game, game_events=[GameEvent(1, 1, "P3", "eliminated", 33, None),
                                      GameEvent(2, 2, "P2", "eliminated", 117, None),
                                      won_by("P1", 2)],
                   ledger=[*fees, LedgerRow("P1", "prize", Decimal("270.00")),
                           LedgerRow(None, "rake", Decimal("30.00"))])  # fmt: skip
    view = game_view(game, played)
    assert [(f.check, f.player) for f in view.findings] == [("pool.elimination", "P3")]
    assert view.result == (
        "recorded as won by P1; by the rules P1 and P3 are still in after the last hand, so "
        "the game has no winner yet (pool.elimination, see the findings)"
    )
    assert view.scores is not None
    assert [e.text for e in view.scores.rows[1].events][-1] == (
        "P1 is recorded as winning the game; by the rules P1 and P3 are still in after the "
        "last hand, so the game has no winner yet"
    )
    prize = prizes(view)["P1"]
    assert (prize.rules_give, prize.recorded, prize.verdict) == ("0.00", "270.00", "not compared")
    text = flat(render_game_text(view, width=200))
    assert "P1's prize: 0.00 by the rules, 270.00 recorded: not compared" in text
    assert "who won the game" not in text


def test_a_rebuy_the_rules_do_not_allow_is_said_as_recorded_and_counted_so() -> None:
    """`pool_101.rebuy_min_players` ("Re-joining is possible only when more than 2 players
    are playing"): in a game of two, P2 reaches 120 after hand 3, is eliminated and rebuys
    at 1; out again at 121 after hand 6, P1 wins. The rebuy is said as the record's and
    why the rules do not allow it (it read "P2 buys back in for 100.00 (a rebuy) at a new
    score of 1"), and the entries, which count every rebuy of a player who was out as the
    ledger check does, are said to agree with it counted as recorded, not a bare "agrees"
    (a blind tester)."""
    game, played = pool_hands(6, restart=1, after=3)
    game = replace(game, game_events=[
        GameEvent(3, 1, "P2", "eliminated", 120, None), GameEvent(3, 2, "P2", "rebuy", 1, None),
        GameEvent(6, 3, "P2", "eliminated", 121, None), won_by("P1", 6),
    ], ledger=fees_and_prize("P1", "270.00", "30.00", "P2"))  # fmt: skip
    view = game_view(game, played)
    assert [(f.check, f.expected) for f in view.findings] == [
        ("pool.rebuy", "at least 3 players"),
    ]  # fmt: skip
    assert view.scores is not None
    row = view.scores.rows[2]
    assert row.cells[1].note == "rebuys at 1, not allowed by the rules"
    assert [(e.text, e.severity) for e in row.events][1] == (
        "P2 is recorded as buying back in for 100.00 (a rebuy) at a new score of 1; by the "
        "rules a rebuy needs at least 3 players (there were 2 players): it is not allowed",
        "major",
    )
    assert view.ledger is not None
    assert view.ledger.sums_title == (
        "By the rules, with P2's rebuy after hand 3 counted as recorded"
    )
    entries = view.ledger.payouts[0]
    assert (entries.what, entries.rules_give, entries.recorded) == (
        "entry fees", "300.00", "300.00",
    )  # fmt: skip
    assert entries.verdict == "agrees, with P2's rebuy after hand 3 counted as recorded"
    assert entries.how == (
        "2 players and 1 rebuy at 100.00; the rules do not allow P2's rebuy after hand 3 (the "
        "pool.rebuy finding), but the entries count every rebuy of a player who was out, as "
        "the game's checks do"
    )


def test_a_rebuy_the_rules_refuse_for_the_highest_score_is_counted_as_recorded_so() -> None:
    """`pool_101.rebuy_below` (000_1729c72ad4c1f885.txt: a Re-Buy "can only be fulfilled if
    the highest score of the round is below 79 points for 101 Rummy"): P3 shows its cards
    with four cards more ungrouped in hand 1 (charged 48) and has 88 after hand 2, when P2
    is out at 117 and rebuys at 89. The rules do not allow that rebuy, and the entries,
    which count it as the ledger check does, are said to agree with it counted as recorded,
    as a rebuy refused for too few players is (it read a bare "agrees" below the finding
    that the rebuy is not allowed: a blind tester)."""
    first = _pool_hand(1, {"P1": 0, "P2": 77, "P3": 48})
    first["events"] = [*first["events"][:-1], "P3 show: 6H 7H 8H / TS JS QS / AD 2D 3D 4C 9H TH KH"]
    first["results"] = {**first["results"], "P3": ("lost", 48, None)}
    game, played = hands([first, _pool_hand(2, {"P1": 0, "P2": 117, "P3": 88}),
                          _pool_hand(3, {"P1": 0, "P2": 129, "P3": 128})])  # fmt: skip
    game = replace(game, game_events=[
        GameEvent(2, 1, "P2", "eliminated", 117, None), GameEvent(2, 2, "P2", "rebuy", 89, None),
        GameEvent(3, 3, "P2", "eliminated", 129, None),
        GameEvent(3, 4, "P3", "eliminated", 128, None), won_by("P1", 3),
    ], ledger=[*(LedgerRow(p, "buy_in", Decimal("-100.00")) for p in ("P1", "P2", "P3")),
               LedgerRow("P2", "rebuy", Decimal("-100.00")),
               LedgerRow("P1", "prize", Decimal("360.00")),
               LedgerRow(None, "rake", Decimal("40.00"))])  # fmt: skip
    view = game_view(game, played)
    assert [(f.check, f.expected, f.recorded) for f in view.findings] == [
        ("pool.rebuy", "highest score still in below 79", "highest score still in 88"),
    ]  # fmt: skip
    assert view.ledger is not None
    assert view.ledger.sums_title == (
        "By the rules, with P2's rebuy after hand 2 counted as recorded"
    )
    entries = view.ledger.payouts[0]
    assert (entries.what, entries.rules_give, entries.recorded) == (
        "entry fees", "400.00", "400.00",
    )  # fmt: skip
    assert entries.verdict == "agrees, with P2's rebuy after hand 2 counted as recorded"
    assert entries.how == (
        "3 players and 1 rebuy at 100.00; the rules do not allow P2's rebuy after hand 2 (the "
        "pool.rebuy finding), but the entries count every rebuy of a player who was out, as "
        "the game's checks do"
    )


def test_a_rebuy_of_a_player_still_in_is_counted_in_no_entry() -> None:
    """`pool_101.rebuy_below` (000_: "the player who has lost the game ... has an
    opportunity to Re-Buy") and schemas/money.md step 4: P2, at 40 after hand 1 and still
    in, is recorded as rebuying; the ledger took no rebuy. By the rules there was none, so
    the entries are the two buy-ins and agree, said with why the rebuy is not counted, and
    the game's one finding is the rebuy's (a blind tester: three critical ledger findings
    beside it, the rebuy's fee, the rake and the prize on it)."""
    game, played = pool_hands(3)
    game = replace(game, game_events=[
        GameEvent(1, 1, "P2", "rebuy", 40, None), GameEvent(3, 2, "P2", "eliminated", 120, None),
        won_by("P1", 3),
    ], ledger=fees_and_prize("P1", "180.00", "20.00"))  # fmt: skip
    view = game_view(game, played)
    assert [(f.check, f.expected) for f in view.findings] == [("pool.rebuy", "no rebuy")]
    assert view.ledger is not None
    assert view.ledger.sums_title == "By the rules"
    entries = view.ledger.payouts[0]
    assert (entries.rules_give, entries.recorded, entries.verdict) == ("200.00", "200.00",
                                                                      "agrees")  # fmt: skip
    assert entries.how == (
        "2 players and 0 rebuys at 100.00; P2's rebuy after hand 1 is not counted: by the "
        "rules the player was not eliminated in that hand, so had no rebuy to make (the "
        "pool.rebuy finding)"
    )


def invalid_accepted_at_three() -> tuple[dict[str, Any], dict[str, Any]]:
    """Two deals of three players: P2 wins deal 1 (P1 and P3 give up 40 each); in deal 2
    P1's invalid declaration is recorded as a win of 80 chips."""
    first = base(seats={"P2": P1, "P1": P2, "P3": P3}, stock="JK 6H 2S",
                 events=["P2 draw_stock JK", DECLARE.replace("P1", "P2"),
                         "P1 show: " + P2, f"P3 show: {P3}"],
                 results={"P2": ("won", 0, "80.00"), "P1": ("lost", 40, "-40.00"),
                          "P3": ("lost", 40, "-40.00")})  # fmt: skip
    second = base(seats={"P1": P1, "P2": P2, "P3": P3}, stock="7D 6H 2S",
                  events=["P1 draw_stock 7D", INVALID, SHOW, f"P3 show: {P3}"],
                  results={"P1": ("won", 0, "80.00"), "P2": ("lost", 40, "-40.00"),
                           "P3": ("lost", 40, "-40.00")})  # fmt: skip
    return first, second


def test_a_deals_declarer_whose_invalid_declaration_was_accepted_at_three_is_not_the_winner() -> (
    None
):
    """`deals.chips` (001_ and 004_: an invalid declaration costs 80; docs/replay.md,
    "Declaring"): P2 wins deal 1 of three players (P1 and P3 give up 40 each), and P1's
    invalid declaration in deal 2 is accepted as a win of 80 chips. By the rules P1 ends on
    -40 - 80 = -120, and P2 on at least 80 - 80 = 0 (P2 loses at most 80 in the rest of
    deal 2): the game_won naming P1 is one deals.chips finding, beside the hand's
    declare.verdict; the rules do not know whether P2 or P3 won, so the prize is judged
    against the recorded winner (schemas/money.md step 4) and said so."""
    first, second = invalid_accepted_at_three()
    game, played = hands([first, second], game_format="deals")
    ledger = [*(LedgerRow(p, "buy_in", Decimal("-100.00")) for p in ("P1", "P2", "P3")),
              LedgerRow("P1", "prize", Decimal("270.00")),
              LedgerRow(None, "rake", Decimal("30.00"))]  # fmt: skip
    view = game_view(replace(game, game_events=[won_by("P1")], ledger=ledger), played)
    # the game's own findings: the deals.chips alone (the hand's is its declare.verdict)
    assert [(f.check, f.player, f.expected) for f in view.findings] == [
        ("deals.chips", "P1", "P2 or P3")]  # fmt: skip
    (chips,) = view.findings
    assert "P1's invalid declaration in deal 2 was accepted as a win of 80 chips" in chips.message
    assert chips.message.endswith(
        "By the rules P1 ends with -120 chips, and P2 with at least 0, which is more: the "
        "game is not P1's, but the record names P1."
    )
    assert prizes(view)["P1"].how.startswith(
        "P1 is the recorded winner, but by the rules P2 or P3 wins; the ledger is checked "
        "against the recorded winner")  # fmt: skip
    assert view.result == (
        "recorded as won by P1; by the rules P2 or P3 wins (deals.chips, see the findings)")


def test_ledger_prize_a_missing_rebuy_row_is_owed_by_its_player() -> None:
    """`ledger.prize` (the entry fees of every player and rebuy) and schemas/money.md step
    4 (a `rebuy` row of `-entry_fee` per rebuy game event): P2 and P3 are out at 120 after
    hand 3 and P3 rebuys at 1 (three players in that hand), then is out at 121 after hand
    6 and P1 wins. The ledger has no rebuy row of P3: the entry fees differ, 400.00 by the
    rules and 300.00 recorded, and the owed sums say who owes it, as the ledger check's
    finding on P3 does (a blind tester: the entry fees "differ" with no "Owed" line, which
    every other faulty game explained has)."""
    three = {"P1": ("won", 0, None), "P2": ("lost", 40, None), "P3": ("lost", 40, None)}
    kws = [base(seats={"P1": P1, "P2": P2, "P3": P3}, stock="JK 6H 2S", results=three,
                events=["P1 draw_stock JK", DECLARE, SHOW, f"P3 show: {P3}"],
                score_after={"P1": 0, "P2": 40 * n, "P3": 40 * n}) for n in (1, 2, 3)]
    kws += [base(seats={"P1": P1, "P3": P2}, results={"P1": ("won", 0, None),
                                                    "P3": ("lost", 40, None)},
                 events=["P1 draw_stock JK", DECLARE, SHOW.replace("P2", "P3")],
                 score_after={"P1": 0, "P3": 1 + 40 * n}) for n in (1, 2, 3)]  # fmt: skip
    game, played = hands(kws, game_format="pool_101")
    events = [GameEvent(3, 1, "P2", "eliminated", 120, None),
              GameEvent(3, 2, "P3", "eliminated", 120, None),
              GameEvent(3, 3, "P3", "rebuy", 1, None),
              GameEvent(6, 4, "P3", "eliminated", 121, None), won_by("P1", 6)]  # fmt: skip
    ledger = [LedgerRow(p, "buy_in", Decimal("-100.00")) for p in ("P1", "P2", "P3")]
    ledger += [LedgerRow("P1", "prize", Decimal("360.00")),
               LedgerRow(None, "rake", Decimal("40.00"))]  # fmt: skip
    view = game_view(replace(game, game_events=events, ledger=ledger), played)
    assert [(f.check, f.player, f.message) for f in view.findings] == [(
        "ledger.balance", "P3", "P3 rebought 1 time, so pays 100.00 in rebuys, but the ledger "
        "took 0.00.")]  # fmt: skip
    assert view.ledger is not None
    entries = view.ledger.payouts[0]
    assert (entries.what, entries.rules_give, entries.recorded, entries.verdict) == (
        "entry fees", "400.00", "300.00", "differs")  # fmt: skip
    assert view.ledger.owed == "P3 owes 100.00"
    assert "Owed, by these sums: P3 owes 100.00." in flat(render_game_text(view, width=200))
    # with the rebuy row the entries agree and nothing is owed
    paid = [*ledger, LedgerRow("P3", "rebuy", Decimal("-100.00"))]
    view = game_view(replace(game, game_events=events, ledger=paid), played)
    assert view.findings == ()
    assert view.ledger is not None
    assert view.ledger.owed == ""


def test_money_points_settlement_a_loser_charged_too_little_owes_it() -> None:
    """schemas/money.md (`money.points_settlement`): P2 is charged 35 points where the
    rules give 40 (a first hand show's cap), and the results and the ledger follow the 35.
    explain's "Owed" line says P2 owes the 5.00 they did not pay, not that they "were paid
    5.00 too much" (a blind tester read that of a player who was paid nothing), and the
    winner is owed what the 40 would have paid them."""
    from tests.replay.cases import base
    from tests.replay.scenario import scenario

    game, hand = scenario(**base(results={"P1": ("won", 0, "31.50"), "P2": ("lost", 35, "-35.00")}))
    game.ledger = [LedgerRow("P1", "points_settlement", Decimal("31.50")),
                   LedgerRow("P2", "points_settlement", Decimal("-35.00")),
                   LedgerRow(None, "rake", Decimal("3.50"))]  # fmt: skip
    view = game_view(game, [hand])
    assert view.ledger is not None
    assert view.ledger.owed == (
        "P1 is owed 4.50; P2 owes 5.00; the platform kept 0.50 less rake than the rules give")


def test_declaration_invalid_penalty_in_the_last_pool_hand_is_one_verdict_and_the_prize() -> None:
    """docs/replay.md ("each such row is one pool.elimination, and what follows from it is
    not flagged again"), 001_42b102d6f12eaa06.txt ('Invalid declarations receive an
    80-point penalty') and schemas/money.md step 4: in hand 4 of 101 pool P1's invalid
    declaration is accepted as a win, P2 charged 40 reaching 120, eliminated, and P1
    named the winner and paid. By the rules P1's 80 puts P1 out at 120 and P2, the last
    player left, wins. The findings are the hand's declare.verdict, saying what follows in
    the game, and the prize paid to P1 (a blind tester: five findings, the eliminations
    and the winner besides)."""
    swapped = {**SWAPPED, "results": {"P2": ("won", 0, None), "P1": ("lost", 40, None)},
               "score_after": {"P1": 40, "P2": 0}}  # fmt: skip
    kws = [swapped, *(base(results={"P1": ("won", 0, None), "P2": ("lost", 40, None)},
                           score_after={"P1": 40, "P2": 40 * n}) for n in (1, 2)),
           base(stock="7D 6H 2S", events=["P1 draw_stock 7D", INVALID, SHOW],
                results={"P1": ("won", 0, None), "P2": ("lost", 40, None)},
                score_after={"P1": 40, "P2": 120})]  # fmt: skip
    game, played = hands(kws, game_format="pool_101")
    game = replace(game, game_events=[GameEvent(4, 1, "P2", "eliminated", 120, None),
                                      won_by("P1", 4)],
                   ledger=fees_and_prize("P1", "180.00", "20.00"))  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, played))
    assert [(f.check, f.player_id) for f in unit.findings] == [("ledger.balance", "P1")]
    (verdict,) = unit.hands[3].audit.findings  # type: ignore[union-attr]
    assert verdict.check == "declare.verdict"
    assert verdict.message.endswith(
        "; in game G1, by the rules, P1's penalty puts P1 out at 120 (40 recorded) and P2 "
        "stays in at 80 (120 recorded, eliminated), so P2, the last player left, wins the "
        "game, recorded as won by P1.")  # fmt: skip
    # the game's header names the rules' winner beside the record's (verdicts.told_winner)
    view = game_view(game, played)
    assert view.result == (
        "recorded as won by P1; by the rules P2 wins (declare.verdict, see the findings)")
    # and its table says the recorded elimination is not the rules', nor the rules' the
    # record's (a blind tester's read "P2 is eliminated with a score of 120 (101 or more
    # is out)" and nothing of P1)
    assert view.scores is not None
    assert [(e.text, e.severity) for e in view.scores.rows[3].events] == [
        ("P2 is recorded as eliminated with a score of 120; by the rules P2's score is 80, "
         "below the 101 that eliminates: P2 is still in (the hand's declare.verdict, see the "
         "findings)", "critical"),
        ("P1 is recorded as winning the game; by the rules P2 wins", "critical"),
        ("by the rules P1 is out, with a score of 120: the record does not eliminate them "
         "(the hand's declare.verdict, see the findings)", "critical"),
    ]  # fmt: skip


def test_pool_elimination_a_hand_played_while_out_is_not_judged_nor_said_to_differ() -> None:
    """docs/replay.md (a game the rules end with one player left while the record deals on:
    "the hands dealt after it are not judged"): P2 is charged 10 in hand 3 where the rules
    give 40 (its score.points), so by the rules P2 is out at 120 after hand 3, and the
    record, at 90, deals hand 4, a first hand show rightly charged 40. Hand 4's view says
    its score is not judged, P2 being out by the rules after hand 3 (and why, hand 3
    named), not that it "differs" for hand 3's reason, and the game's table says it is a
    hand played while out (a blind tester: "differs (score): ... the record counts 20
    points for that hand" of a hand charged right)."""
    charged = [40, 40, 10, 40]
    kws = [base(results={"P1": ("won", 0, None), "P2": ("lost", c, None)},
                score_after={"P1": 0, "P2": sum(charged[:n])})
           for n, c in enumerate(charged, start=1)]  # fmt: skip
    game, played = hands(kws, game_format="pool_101")
    game = replace(game, game_events=[GameEvent(4, 1, "P2", "eliminated", 130, None),
                                      won_by("P1", 4)],
                   ledger=fees_and_prize("P1", "180.00", "20.00"))  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, played))
    view = build_view(unit, "H4", source="logs", version="V")
    p2 = view.players[1]
    assert (p2.player, p2.agrees, p2.differs) == ("P2", True, ())
    assert p2.note == (
        "the score after the hand is not judged: by the rules P2 was out after hand 3 (120 by "
        "the rules: the record counts 10 points for hand 3, the rules 40), so hand 4 is one "
        "P2 played while out")  # fmt: skip
    scores = game_view(game, played).scores
    assert scores is not None
    assert scores.rows[3].cells[1].note == "out by the rules: a hand played while out"


def test_money_points_settlement_of_a_hand_whose_verdict_the_rules_refuse_is_not_compared() -> (
    None
):
    """schemas/money.md (a hand whose recorded verdict the rules refuse is settled as
    recorded) and 001_42b102d6f12eaa06.txt ('Invalid declarations receive an 80-point
    penalty'): at a table of three, P1's invalid declaration is accepted as a win and the
    ledger pays what the hand records; by the rules the hand goes on. The game's money says
    each sum resting on that hand alone is not compared, hand 1 counted as recorded, never
    "agrees" (a blind tester read "8.55 by the rules, 8.55 recorded: agrees" of such a
    hand); with an honest hand before it the sums agree, with hand 2 counted as recorded."""
    first, second = invalid_accepted_at_three()
    first["results"] = {"P2": ("won", 0, "72.00"), "P1": ("lost", 40, "-40.00"),
                        "P3": ("lost", 40, "-40.00")}  # fmt: skip
    second["results"] = {"P1": ("won", 0, "72.00"), "P2": ("lost", 40, "-40.00"),
                         "P3": ("lost", 40, "-40.00")}  # fmt: skip

    def ledger(p1: str, p2: str, p3: str, rake: str) -> list[LedgerRow]:
        return [LedgerRow(p, "points_settlement", Decimal(a))
                for p, a in (("P1", p1), ("P2", p2), ("P3", p3))] + [
                LedgerRow(None, "rake", Decimal(rake))]  # fmt: skip

    game, played = hands([second])
    view = game_view(replace(game, format="points", ledger=ledger("72.00", "-40.00", "-40.00",
                                                                  "8.00")), played)  # fmt: skip
    assert view.ledger is not None
    assert [(p.what, p.player, p.verdict) for p in view.ledger.payouts] == [
        ("points settlement", "P1", "not compared, hand 1 counted as recorded"),
        ("points settlement", "P2", "not compared, hand 1 counted as recorded"),
        ("points settlement", "P3", "not compared, hand 1 counted as recorded"),
        ("rake", "", "not compared, hand 1 counted as recorded"),
    ]
    game, played = hands([first, second])
    view = game_view(replace(game, format="points", ledger=ledger("32.00", "32.00", "-80.00",
                                                                  "16.00")), played)  # fmt: skip
    assert view.ledger is not None
    assert {p.verdict for p in view.ledger.payouts} == {"agrees, with hand 2 counted as recorded"}
