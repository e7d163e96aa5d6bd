"""`rummy-audit explain GAME_ID`: one game for a game dispute, through the same audit as
the nightly run: every hand's result, the running pool scores with the eliminations and
rebuys, deals chips, the money by the rules and every game-level finding."""

from __future__ import annotations

import shutil
from dataclasses import replace
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.explain import (
    build_game_view,
    build_view,
    load_game_view,
    load_view,
    lookup_game,
    render_game_html,
    render_game_text,
    render_text,
)
from audit.explain.game import GameView
from audit.explain.ledgerview import signed
from audit.explain.payouts import refused_rebuys
from audit.records import Game, GameEvent, GameUnit, Hand, LedgerRow
from audit.sim import simulate
from audit.skipped import skipped_words
from audit.unit import audit_unit
from tests.explain.fairplay import EVIDENCE, night
from tests.explain.games import points_game, pool_game
from tests.explain.hands import DISPUTE, INVALID
from tests.explain.test_golden import PLAIN
from tests.explain.test_html import QUOTES, SCRIPT
from tests.games.test_end_to_end import rows, running, tamper
from tests.games.test_pool import ev
from tests.games.test_pool import pool_game as pool_game_of
from tests.replay.cases import base
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario


def flat(text: str) -> str:
    """The terminal's words without its panel borders and line breaks."""
    return " ".join(text.replace("│", " ").split())


def payouts(view: GameView) -> dict[tuple[str, str], tuple[str, str, bool]]:
    assert view.ledger is not None
    return {(p.what, p.player): (p.rules_give, p.recorded, p.agrees) for p in view.ledger.payouts}


# ------------------------------------------------------------ pool


def test_a_pool_games_prize_goes_to_the_last_player_left_by_the_rules(tmp_path: Path) -> None:
    """schemas/money.md step 4, as ``check_ledger`` reads it: the game_won row names P3,
    but P1 is the last player left, so P1's prize of 360.00 agrees with the rules and the
    one game-level finding is the pool check's on the winner."""
    view = load_game_view(pool_game(tmp_path / "logs", won_by="P3"), "GP")
    assert payouts(view)[("prize", "P1")] == ("360.00", "360.00", True)
    assert ("prize", "P3") not in payouts(view)
    assert view.ledger is not None
    prize = next(p for p in view.ledger.payouts if p.what == "prize")
    assert prize.how == (
        "400.00 of entry fees less 40.00 of rake, to P1, the last player left by the rules "
        "(the game is recorded as won by P3)"
    )
    assert [(f.check, f.player) for f in view.findings] == [("pool.winner", "P1")]


def test_a_pool_game_follows_the_rules_verdict_of_a_hand_they_decide_whole_001() -> None:
    """`turns.last_player` and `declaration.invalid_penalty` (001_42b102d6f12eaa06.txt:
    'Invalid declarations receive an 80-point penalty'): in hand 1 the platform accepts
    P1's invalid declaration and charges P2 80; in hand 2 P2 loses 40, reaches 120 as
    recorded and is eliminated, and P1 is paid the prize. By the rules P2 won hand 1, and
    the rules decide that two-player hand whole, so the running scores count it their way
    (records.verdict_points): after hand 2 P1 stands at 80 and P2 at 40, both still in, and
    P2's elimination is a pool.elimination naming the wrong score it rests on. Until
    2026-12-06 the game's checks counted hand 1 as recorded and found nothing: a blind
    tester's pool hands with the winner and a loser swapped in results alone had 4 to 12
    findings a game against the rightful winner, and the same swap followed by the scores
    none on the elimination it caused."""
    two = {
        "P1": "AH 2H 3H 4S 5S 6S 7D 8D 9D KC KD QS 2C",
        "P2": "2D 4D 6D 8C TC QH KH 3S 7S 9S JC 9H 2S",
    }
    game, first = scenario(
        seats=two, wild="5C", open="QS", stock="JH AS TD",
        events=["P1 draw_stock JH", "P1 discard JH", "P2 draw_stock AS", "P2 discard AS",
                "P1 draw_stock TD", "P1 declare 2C: AH 2H 3H / 4S 5S 6S / 7D 8D 9D TD / KC KD QS"],
        results={"P1": ("won", 0, None), "P2": ("lost", 80, None)},
        game_format="pool_101", score_after={"P1": 0, "P2": 80},
    )  # fmt: skip
    _, second = scenario(**base(results={"P1": ("won", 0, None), "P2": ("lost", 40, None)},
                                game_format="pool_101", score_after={"P1": 0, "P2": 120},
                                hand_id="H2"))  # fmt: skip
    second.hand_no = 2
    game.game_events = [GameEvent(2, 0, "P2", "eliminated", 120, None),
                        GameEvent(2, 1, "P1", "game_won", None, None)]  # fmt: skip
    game.ledger = [LedgerRow("P1", "buy_in", Decimal("-100.00")),
                   LedgerRow("P2", "buy_in", Decimal("-100.00")),
                   LedgerRow("P1", "prize", Decimal("180.00")),
                   LedgerRow(None, "rake", Decimal("20.00"))]  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, [first, second]))
    assert [(f.check, f.player_id) for f in unit.findings] == [("pool.elimination", "P2")]
    assert "has 40 by the rules, below the 101 that eliminates" in unit.findings[0].message
    hand_one = unit.hands[0].audit
    assert hand_one is not None
    assert [(f.check, f.player_id) for f in hand_one.findings] == [("declare.verdict", "P1")]
    view = build_game_view(unit, source="logs", version="V")
    assert view.result == (
        "recorded as won by P1; by the rules P1 and P2 are still in after the last hand, so "
        "the game has no winner yet (pool.elimination, see the findings)"
    )
    text = flat(render_game_text(view))
    assert "counted as recorded" not in text
    assert "P1's prize: 0.00 by the rules, 180.00 recorded: not compared" in text


def test_a_pool_game_shows_the_running_scores_the_elimination_and_the_rebuy(
    tmp_path: Path,
) -> None:
    view = load_game_view(pool_game(tmp_path / "logs"), "GP")
    assert view.headline == "Game GP: 101 pool rummy, rules standard-13, 3 hands"
    assert view.verdict == (
        "3 hands: 3 verified, 0 with discrepancies, 0 quarantined; 0 game-level findings"
    )
    assert view.result == "won by P1"
    assert view.table is not None
    assert view.table.terms == "table T1, real money, entry fee 100.00, rake 10.00%"
    assert view.times == "2026-11-29 18:00:00 UTC to 19:00:00 UTC (1 h 0 min)"
    assert [(h.hand_id, h.status_words) for h in view.hands] == [
        ("GP-01", "verified"), ("GP-02", "verified"), ("GP-03", "verified"),
    ]  # fmt: skip
    assert [r.text for r in view.hands[1].results] == [
        "won, 0 points, score 0", "lost, 40 points, score 117", "lost, 40 points, score 73",
    ]  # fmt: skip
    scores = view.scores
    assert scores is not None
    assert scores.players == ("P1", "P2", "P3")
    assert [[c.text for c in row.cells] for row in scores.rows] == [
        ["0", "77", "33"], ["0", "117 out", "73"], ["0", "114 out", "113 out"],
    ]  # fmt: skip
    assert scores.rows[1].cells[1].note == "rebuys at 74"
    assert [e.text for e in scores.rows[1].events] == [
        "P2 is eliminated with a score of 117 (101 or more is out)",
        "P2 buys back in for 100.00 (a rebuy) at a new score of 74",
    ]
    assert scores.rows[2].events[-1].text == "P1 wins the game"
    assert [r.key for r in scores.rules] == [
        "pool_101.running_score", "pool_101.elimination_score", "pool_101.rebuy_below",
        "pool_101.rebuy_min_players",
    ]  # fmt: skip
    assert payouts(view) == {
        ("entry fees", ""): ("400.00", "400.00", True),
        ("rake", ""): ("40.00", "40.00", True),
        ("prize", "P1"): ("360.00", "360.00", True),
    }
    assert view.ledger is not None
    # "the rows add up", not "it balances": beside a ledger.balance finding on one
    # player's settlement the words said the opposite of the check's name (a blind tester)
    assert view.ledger.balance == (
        "paid in 400.00, paid out 400.00 (rake included): the rows add up"
    )
    assert view.findings == ()


def test_a_rebuy_event_written_twice_is_one_rebuy_counted_once_its_second_fee_owed_back(
    tmp_path: Path,
) -> None:
    """`pool_101.rebuy_below` (one rebuy per player after a hand) and schemas/money.md: P2,
    out at 117, rebuys at 74 as the rules allow, and the record writes the rebuy event and
    its ledger row twice. The rebuy is allowed and counted once; the second row is a void
    repeat (its one pool.rebuy finding), and the second 100.00 the ledger took is owed back
    to P2. It read "(rebuys at 74, not allowed by the rules)", "by the rules a rebuy needs
    one rebuy event ... it is not allowed" and "the player was not eliminated in that hand,
    so had no rebuy to make" (a blind tester)."""
    view = load_game_view(pool_game(tmp_path / "logs", rebuy_twice=True), "GP")
    assert sorted((f.check, f.expected) for f in view.findings) == [
        ("ledger.balance", "-100.00"), ("pool.rebuy", "one rebuy event"),
    ]  # fmt: skip
    assert view.scores is not None
    row = view.scores.rows[1]
    assert row.cells[1].note == "rebuys at 74"
    assert [(e.text, e.severity) for e in row.events] == [
        ("P2 is eliminated with a score of 117 (101 or more is out)", ""),
        ("P2 buys back in for 100.00 (a rebuy) at a new score of 74", ""),
        ("P2's rebuy is written again (game event 2): a repeat of the rebuy above, and void: "
         "P2 bought back in once, for one entry fee", "major"),
    ]  # fmt: skip
    assert view.ledger is not None
    assert view.ledger.sums_title == "By the rules"  # no rebuy "counted as recorded"
    entries = view.ledger.payouts[0]
    assert (entries.rules_give, entries.recorded) == ("400.00", "500.00")
    assert entries.how == (
        "3 players and 1 rebuy at 100.00; P2's rebuy after hand 2 is written again (game "
        "event 2): counted once, the repeat is void (the pool.rebuy finding); the ledger took "
        "200.00 in rebuys from P2, for 1 rebuy at 100.00: the other 100.00 is owed back to P2 "
        "(the ledger.balance finding)"
    )
    text = flat(render_game_text(view, width=200))
    assert "not allowed" not in text
    assert "not eliminated" not in text


def test_a_rebuy_at_the_wrong_score_is_flagged_on_its_game_event(tmp_path: Path) -> None:
    """000_: the new score is 1 + the highest score still in (P3's 73): 74, not 80. The
    pool check counts on from the rules' 74, so P2's 114 after hand 3 (74 + 40) is right
    and not flagged again (it was, when the check went on from the recorded 80). The
    rebuy's line and its cell say the 80 is the record's and the rules' 74 beside it (they
    said "at a new score of 80" and "rebuys at 80" as facts: a blind tester)."""
    view = load_game_view(pool_game(tmp_path / "logs", rebuy_score=80), "GP")
    assert [(f.check, f.hand, f.player, f.seq) for f in view.findings] == [
        ("pool.rebuy", "GP-02", "P2", "1"),
    ]  # fmt: skip
    assert view.findings[0].rule.startswith("pool_101.rebuy_below: ")
    assert view.scores is not None
    event = view.scores.rows[1].events[1]
    assert (event.text, event.severity) == (
        "P2 buys back in for 100.00 (a rebuy), recorded at a new score of 80; by the rules the "
        "new score is 74", "major",
    )  # fmt: skip
    rebought = view.scores.rows[1].cells[1]
    assert (rebought.text, rebought.note) == ("117 out", "rebuys at 80, should be 74")
    assert view.hands[1].status_words == "1 finding, worst major (pool.rebuy)"
    cell = view.scores.rows[2].cells[1]
    assert (cell.text, cell.note, cell.severity) == ("114 out", "", "")
    text = flat(render_game_text(view))
    assert (
        "[major] pool.rebuy: P2 rebought after hand 2 at 80, but the new score should be " in text
    )
    assert "(hand GP-02, P2, game event 1) rule: pool_101.rebuy_below: " in text


def test_a_game_event_finding_marks_no_turn_of_the_hand_it_follows(tmp_path: Path) -> None:
    """schemas/output.md, findings: a game-level finding's ``seq`` is its ``game_events``
    row's, not one of the hand's events. P2's rebuy at 80 after hand 2 (game event 1) is
    listed among hand 2's findings, at game event 1, but marks none of its turns: P1's
    draw and declaration (seqs 0-1) were marked [major] for it (a blind tester)."""
    hand = load_view(pool_game(tmp_path / "logs", rebuy_score=80), "GP-02")
    assert [(f.check, f.at) for f in hand.findings] == [("pool.rebuy", "game event 1")]
    assert [(t.seqs, t.player, t.severity) for t in hand.turns] == [
        ("0-1", "P1", ""), ("2", "P2", ""), ("3", "P3", ""),
    ]  # fmt: skip
    assert "[major]" not in flat(render_text(hand)).partition("Findings on this hand")[0]


def test_rebuys_given_each_others_new_scores_say_each_ones_score_by_the_rules() -> None:
    """`pool_101.rebuy_below` (000_1729c72ad4c1f885.txt: rebuys "as per their turn in the
    game with scores 58, 59, 60"): C and E, out after hand 1 (turn order A, C, B, E, D),
    are written back at each other's new scores, 59 and 58. That is one pool.rebuy finding,
    on C (blind tester b59); each rebuy's line and cell still say its own score by the
    rules, and neither rebuy is read as one the rules refuse (the finding's expected names
    both players, no one number)."""
    points = [{"A": 35, "C": 110, "B": 22, "E": 105, "D": 57}, {"A": 0, "C": 2, "B": 2, "E": 2,
                                                                  "D": 2}]  # fmt: skip
    out = [ev(1, "C", "eliminated", 110), ev(1, "E", "eliminated", 105)]
    ledger = [*((p, "buy_in", "-100.00") for p in "ACBED"), ("E", "rebuy", "-100.00"),
              ("C", "rebuy", "-100.00")]  # fmt: skip
    game, hands = pool_game_of(points, [*out, ev(1, "E", "rebuy", 58), ev(1, "C", "rebuy", 59)],
                               ledger)  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, hands))
    assert [(f.check, f.player_id, f.expected) for f in unit.findings
            if f.check != "game.running"] == [("pool.rebuy", "C", "C 58, E 59")]  # fmt: skip
    assert refused_rebuys(game, unit.findings) == ()
    view = build_game_view(unit, source="logs", version="V")
    assert view.scores is not None
    row = view.scores.rows[0]
    assert [(c.note, c.severity) for c in row.cells] == [
        ("", ""), ("rebuys at 59, should be 58", "major"), ("", ""),
        ("rebuys at 58, should be 59", "major"), ("", ""),
    ]  # fmt: skip
    order = "the record gives the rebuys after hand 1 their new scores in the wrong order"
    assert [(e.text, e.severity) for e in row.events][2:] == [
        ("E buys back in for 100.00 (a rebuy), recorded at a new score of 58; by the rules "
         f"the new score is 59: {order}", "major"),
        ("C buys back in for 100.00 (a rebuy), recorded at a new score of 59; by the rules "
         f"the new score is 58: {order}", "major"),
    ]  # fmt: skip


def test_ledger_prize_paid_to_another_player_is_one_finding_and_said_so(tmp_path: Path) -> None:
    """schemas/money.md, step 3: the winner's whole prize in one row under another player
    is one finding on that player, naming both; the money view says the same on both
    players' prize lines, as the owed sums do (a blind tester: two critical findings)."""
    view = load_game_view(pool_game(tmp_path / "logs", paid_to="P3"), "GP")
    assert payouts(view)[("prize", "P1")] == ("360.00", "0.00", False)
    assert payouts(view)[("prize", "P3")] == ("0.00", "360.00", False)
    assert [(f.check, f.player, f.message) for f in view.findings] == [(
        "ledger.balance", "P3", "The prize of 360.00 is paid to P3, but P1 won game GP and is "
        "paid nothing: the prize row is under the wrong player.")]  # fmt: skip
    assert view.ledger is not None
    assert [p.how for p in view.ledger.payouts if p.what == "prize"] == [
        "400.00 of entry fees less 40.00 of rake, to P1, who won the game; the ledger's prize "
        "row is under P3 (one ledger.balance finding)",
        "P3 did not win the game: the prize row under P3 is P1's prize",
    ]
    assert view.ledger.owed == "P1 is owed 360.00; P3 was paid 360.00 too much"


def test_a_skimmed_prize_differs_from_what_the_rules_give(tmp_path: Path) -> None:
    view = load_game_view(pool_game(tmp_path / "logs", prize="359.00"), "GP")
    assert payouts(view)[("prize", "P1")] == ("360.00", "359.00", False)
    assert [(f.check, f.player) for f in view.findings] == [("ledger.balance", "P1")]
    assert view.ledger is not None
    assert view.ledger.worst == "critical"
    assert view.ledger.balance.endswith("it does not balance, 1.00 paid in was not paid out")


# ------------------------------------------------------------ points


def test_a_points_game_whose_ledger_is_off_shows_its_ledger_balance_findings(
    tmp_path: Path,
) -> None:
    """ledger.balance findings name no hand, so no hand's explanation shows them: the
    game's does, with the settlement the hands give and the rule."""
    logs = points_game(tmp_path / "logs", settled="70.00")
    view = load_game_view(logs, "GT")
    assert [(f.check, f.severity, f.hand, f.player) for f in view.findings] == [
        ("ledger.balance", "critical", "", "P1"),
    ]  # fmt: skip
    assert all(f.rule.startswith("ledger.balance: Every game's money balances") for f in
               view.findings)  # fmt: skip
    assert payouts(view) == {
        ("points settlement", "P1"): ("72.00", "70.00", False),
        ("points settlement", "P2"): ("-80.00", "-80.00", True),
        ("rake", ""): ("8.00", "8.00", True),
    }
    assert view.scores is None
    text = flat(render_game_text(view))
    assert "P1's points settlement: 72.00 by the rules, 70.00 recorded: differs" in text
    assert "the amounts recorded for their hands: hand 1 +36.00, hand 2 +36.00" in text
    assert "Balance: paid in 80.00, paid out 78.00" in text
    assert "[critical] ledger.balance: By the rules, P1's hands settle 72.00 with them, but the" \
        " ledger settled 70.00." in text
    assert "money.points_settlement: In points rummy each loser pays" in text
    hand = load_view(logs, "GT-01")
    assert hand.findings == ()
    assert all(p.agrees for p in hand.players)


def test_a_refund_in_a_game_played_to_its_end_is_judged_not_called_off() -> None:
    """schemas/money.md, "Called off": P1's one hand ended, and the ledger pays P1 5.00 of
    the 36.00 the hand settles as a refund. The game was played to its end, so it is not
    called off (a blind tester's story said "The game was called off (refund rows): only
    its balance is checked." of such a game): its sums are the rules', and the refund is
    said in its finding's words. The same ledger for a hand whose events stop with both
    players still in is a game called off, and the story says why."""
    ledger = [LedgerRow("P1", "points_settlement", Decimal("31.00")),
              LedgerRow("P1", "refund", Decimal("5.00")),
              LedgerRow("P2", "points_settlement", Decimal("-40.00")),
              LedgerRow(None, "rake", Decimal("4.00"))]  # fmt: skip
    refund = (
        "Refund of 5.00 to P1 in game G1, which was played to its end (its one hand ended): "
        "the rules pay no refund there."
    )
    game, hand = scenario(**base())
    game.ledger = ledger
    view = build_game_view(audit_unit(GameUnit(game.game_id, game, [hand])), source="logs",
                           version="V")  # fmt: skip
    assert [(f.check, f.player, f.message) for f in view.findings] == [
        ("ledger.balance", "P1", "By the rules, P1's hands settle 36.00 with them, but the "
         "ledger settled 31.00."),
        ("ledger.balance", "P1", refund),
    ]  # fmt: skip
    assert payouts(view)[("points settlement", "P1")] == ("36.00", "31.00", False)
    assert view.ledger is not None
    assert view.ledger.notes[-1] == refund
    assert "called off" not in flat(render_game_text(view))
    game, hand = scenario(**base(events=["P1 draw_stock JK", "P1 discard JK"]))
    game.ledger = ledger
    view = build_game_view(audit_unit(GameUnit(game.game_id, game, [hand])), source="logs",
                           version="V")  # fmt: skip
    assert view.findings == ()
    assert view.ledger is not None
    assert view.ledger.payouts == ()
    assert view.ledger.notes[-1] == (
        "The game was called off (refund rows, and hand 1 did not end): only its balance is "
        "checked."
    )


def test_a_game_with_no_ledger_rows_says_its_money_was_not_checked(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", [scenario(**DISPUTE)])
    view = load_game_view(logs, "G1")
    assert view.ledger is not None
    assert view.ledger.payouts == ()
    assert view.ledger.notes == ("No ledger row names this game, so its money was not checked.",)
    assert view.hands[0].status_words == (
        "2 findings, worst critical (draw.stock_mismatch, score.points)"
    )


# ------------------------------------------------------------ deals, from the simulator


@pytest.fixture(scope="module")
def deals_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("deals") / "logs"
    simulate(games=12, out=root, seed=20261201, formats=["deals"])
    return root


def test_a_deals_game_shows_the_chips_per_deal_and_the_running_totals(
    deals_night: Path, tmp_path: Path
) -> None:
    """A loser's chips tampered in deal 1: the table shows the record with what the rules
    make it, the totals go by the rules' chips, and the hand's view does not agree."""
    logs = tmp_path / "logs"
    shutil.copytree(deals_night, logs)
    games = {g["game_id"]: g for g in rows(logs, "games")}
    hands = {h["hand_id"]: h for h in rows(logs, "hands") if h["hand_no"] == 1}
    row = tamper(
        logs, "results", lambda r: r["hand_id"] in hands and r["outcome"] == "lost",
        lambda r: {**r, "amount": r["amount"] - 1},
    )  # fmt: skip
    hand_id, player = row["hand_id"], row["player_id"]
    game_id = hands[hand_id]["game_id"]
    view = load_game_view(logs, game_id)
    assert view.format == "deals rummy"
    assert view.deals == f"best of {games[game_id]['deals_count']}"
    scores = view.scores
    assert scores is not None
    assert scores.title == "Chips, deal by deal"
    column = scores.players.index(player)
    cell = scores.rows[0].cells[column]
    assert cell.text == signed(row["amount"], whole=True)  # chips are whole: -79, not -79.00
    assert cell.note == f"should be {signed(row['amount'] + 1, whole=True)}"
    assert cell.severity == "major"
    results = [r for r in rows(logs, "results") if r["player_id"] == player]
    by_hand = {h.hand_id: h for h in view.hands}
    total = (
        sum((r["amount"] for r in results if r["hand_id"] in by_hand), Decimal(0)) + 1
    )  # the rules' chips, not the tampered record
    assert scores.rows[-1].totals[column].text == signed(total, whole=True)
    assert [(f.check, f.hand, f.player) for f in view.findings][:1] == [
        ("deals.chips", hand_id, player)
    ]
    assert view.findings[0].rule.startswith("deals.chips: In deals rummy each loser")
    explained = load_view(logs, hand_id)
    seat = next(p for p in explained.players if p.player == player)
    assert not seat.agrees
    assert seat.differs == ("chips",)  # a deals hand's amount is chips, and said so
    assert seat.amount == str(int(row["amount"]) + 1)  # whole chips, as deals.chips says
    assert seat.comparison == "differs (chips)"
    assert seat.amount_word == "chips"
    assert seat.recorded.endswith(f"chips {int(row['amount'])}")
    (recorded,) = [r for r in by_hand[hand_id].results if r.player == player]
    assert recorded.text.endswith(f", chips {int(row['amount'])}")  # whole chips, no "amount"


def test_a_rebuy_recorded_in_a_deals_game_is_not_counted_in_its_entry_fees(
    deals_night: Path, tmp_path: Path
) -> None:
    """schemas/money.md, deals: "without rebuys or splits: gross = entry_fee x players"
    (`games.rebuy_formats`, 000_1729c72ad4c1f885.txt: Re-Buy 'is not available for Best of
    2/3 Deal games'). A rebuy row written in a deals game is not one of its entries: the
    money by the rules agrees with the ledger that took none, says why the row is left out
    (it said "3 players and 1 rebuy" and asked for 15.00 more: a blind tester), and the
    event is not shown as a paid buy-back."""
    logs = tmp_path / "logs"
    shutil.copytree(deals_night, logs)
    won = next(r for r in rows(logs, "game_events") if r["action"] == "game_won")
    game_id = won["game_id"]
    hand_1 = next(h for h in rows(logs, "hands") if h["game_id"] == game_id and h["hand_no"] == 1)
    seated = [r["player_id"] for r in rows(logs, "results") if r["hand_id"] == hand_1["hand_id"]]
    loser = next(p for p in seated if p != won["player_id"])
    path = sorted((logs / "game_events").rglob("*.parquet"))[0]
    data = pq.read_table(path)
    rebuy = {**won, "after_hand_no": 1, "seq": won["seq"] + 1000, "player_id": loser,
             "action": "rebuy", "score": 41}  # fmt: skip
    pq.write_table(pa.Table.from_pylist([*data.to_pylist(), rebuy], schema=data.schema), path)
    view = load_game_view(logs, game_id)
    assert view.ledger is not None
    entries = next(p for p in view.ledger.payouts if p.what == "entry fees")
    assert entries.agrees
    players = len(set(seated))
    fee = next(g["entry_fee"] for g in rows(logs, "games") if g["game_id"] == game_id)
    assert entries.how == (
        f"{players} players at {fee}; a deals game has no rebuys, so the rebuy recorded is "
        "not counted"
    )
    assert all(p.agrees for p in view.ledger.payouts)
    assert [(f.check, f.player) for f in view.findings] == [("pool.rebuy", loser)]
    assert (f"{loser} is recorded as buying back in (a rebuy) at a new score of 41, which a "
            "deals game does not have") in flat(render_game_text(view, width=300))  # fmt: skip


# ------------------------------------------------------------ the command


@pytest.fixture
def pool_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return pool_game(tmp_path / "logs")


def test_explain_a_game_id_through_the_command_in_text_and_html(
    tmp_path: Path, pool_logs: Path
) -> None:
    result = CliRunner().invoke(app, ["explain", "GP", "logs", "--html", "game.html"], env=PLAIN)
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "Game GP: 101 pool rummy, rules standard-13, 3 hands" in text
    assert "Running pool scores" in text
    assert "P2 buys back in for 100.00 (a rebuy) at a new score of 74" in text
    assert "P1's prize: 360.00 by the rules, 360.00 recorded: agrees" in text
    assert result.stdout.endswith("HTML page written to game.html\n")
    page = (tmp_path / "game.html").read_text(encoding="utf-8")
    assert "<title>Game GP explained</title>" in page
    assert "<h2>Running pool scores</h2>" in page
    assert "114 out" in page
    for reference in ("<script", "<link", "src=", "http://", "https://", "url("):
        assert reference not in page


def test_a_hand_id_is_looked_up_first_and_the_choice_is_said(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", [scenario(**DISPUTE, game_id="X1", hand_id="X1")])
    result = CliRunner().invoke(app, ["explain", "X1", str(logs)], env=PLAIN)
    assert result.exit_code == 0, result.output
    assert "Hand X1, hand 1 of game X1" in flat(result.stdout)
    assert result.stderr == (
        "rummy-audit: note: 'X1' is both a hand id and a game id in this log root: the hand "
        "is explained (a hand id is looked up first)\n"
    )


def test_an_id_that_is_neither_is_one_line_and_exit_2(tmp_path: Path) -> None:
    logs = pool_game(tmp_path / "logs")
    result = CliRunner().invoke(app, ["explain", "GQ", str(logs)], env=PLAIN)
    assert result.exit_code == 2
    assert result.output == "rummy-audit: error: the log root has no hand or game 'GQ'\n"


def test_hostile_ids_are_escaped_in_the_game_page_and_literal_in_the_text(
    tmp_path: Path,
) -> None:
    logs = pool_game(tmp_path / "logs", game_id=SCRIPT, names={"P2": SCRIPT, "P3": QUOTES})
    page_path = tmp_path / "game.html"
    args = ["explain", SCRIPT, str(logs), "--html", str(page_path)]
    result = CliRunner().invoke(app, args, env=PLAIN)
    assert result.exit_code == 0, result.output
    page = page_path.read_text(encoding="utf-8")
    assert "<script" not in page
    assert SCRIPT not in page
    assert QUOTES not in page
    assert "<title>Game &lt;script&gt;alert(1)&lt;/script&gt; explained</title>" in page
    assert "&#34;O&#39;Hara&#34;&amp;[red]x[/red]" in page
    text = flat(result.stdout)
    assert f"Players in seat order: P1, {SCRIPT}, {QUOTES}" in text
    wide = flat(render_game_text(load_game_view(logs, SCRIPT), width=300))
    assert f"{SCRIPT} buys back in for 100.00 (a rebuy) at a new score of 74" in wide
    assert f"{QUOTES}: lost, 40 points, score 113" in wide


def test_the_game_page_lists_the_suspicions_its_hands_are_evidence_for(tmp_path: Path) -> None:
    night(tmp_path / "out", EVIDENCE)
    view = lookup_game(tmp_path / "out", "G1")
    assert [s.check for s in view.suspicions] == ["fairplay.collusion", "fairplay.soft_drop"]
    assert view.note.startswith("This game is evidence for 2 of the 4 fair-play suspicions")
    assert not lookup_game(None, "G1").looked_up
    assert "this game is evidence for" in lookup_game(None, "G1").note


def test_the_same_game_gives_the_same_bytes(tmp_path: Path, pool_logs: Path) -> None:
    def run() -> tuple[str, str]:
        args = ["explain", "GP", "logs", "--html", "game.html"]
        result = CliRunner().invoke(app, args, env=PLAIN)
        assert result.exit_code == 0, result.output
        return result.stdout, (tmp_path / "game.html").read_text(encoding="utf-8")

    first = run()
    (tmp_path / "game.html").unlink()
    assert run() == first


def test_a_running_game_says_its_prize_waits_for_the_end(tmp_path: Path) -> None:
    logs = pool_game(tmp_path / "logs")
    running(logs, "GP")
    view = load_game_view(logs, "GP")
    assert view.result == "still running when the logs were cut"
    assert view.times == "2026-11-29 18:00:00 UTC, still running when the logs were cut"
    assert [f.check for f in view.findings] == ["game.running"]
    assert view.ledger is not None
    assert view.ledger.payouts == ()
    assert "its prize and final balance wait for the batch where it ends" in view.ledger.notes[-1]


def test_a_game_not_in_the_games_table_lists_its_hands_as_quarantined() -> None:
    hand = Hand("H9", "G9", 1, [], [], -1, -1, [], [], quarantine="hand H9 has no events")
    view = build_game_view(audit_unit(GameUnit("G9", None, [hand])), source="logs", version="V")
    assert view.unknown.startswith("Game G9 has no usable row in the games table")
    assert [h.status_words for h in view.hands] == ["quarantined: hand H9 has no events"]
    assert view.scores is None
    assert view.ledger is None
    assert "Game G9 has no usable row in the games table" in render_game_html(view)
    assert "Players in seat order: none" in render_game_text(view)


# ------------------------------------------------------------ checks not run


def test_a_pool_game_without_game_events_is_not_said_to_agree(tmp_path: Path) -> None:
    """`tables.optional`: a check that needs a missing table is reported as skipped, never
    silently passed. P3's score after the hand is recorded 25 (20 by the rules); without a
    game_events table the pool checks do not run, so the game and the hand say which
    checks were not run and why, in the night's check.skipped words, and never "agrees"
    (a blind tester read "0 game-level findings ... agrees with the rules")."""
    game, hand = scenario(**{**INVALID, "score_after": {"P1": 80, "P2": 0, "P3": 25},
                             "running": False})  # fmt: skip
    # With the table, judged on its hands so far: a pool game that ended with no
    # game_events row at all is one game.unchecked of its own.
    game.running = True
    checked = audit_unit(GameUnit(game.game_id, game, [hand]))
    game.running = False
    assert "pool.score" in [f.check for f in checked.findings]  # with the table: found
    unit = audit_unit(GameUnit(game.game_id, game, [hand]), missing=frozenset({"game_events"}))
    assert unit.findings == []
    words = skipped_words("game_events", game_format="pool_101")
    assert words == (
        "The log root has no game_events table, so the pool checks (scores, eliminations, "
        "rebuys, splits, the winner) and the entries and prize of a pool or deals game could "
        "not be checked."
    )
    view = build_game_view(unit, source="logs", version="V")
    assert view.skipped == (words,)
    assert view.verdict.endswith(
        "0 game-level findings; some checks were not run (see the game-level findings)"
    )
    text = flat(render_game_text(view))
    assert "agrees with the rules" not in text
    assert f"none found, but not every check of this game was run: - not run: {words}" in text
    assert f"Not run: {words}" in render_game_html(view)
    explained = build_view(unit, hand.hand_id, source="logs", version="V")
    assert explained.verdict == (
        "no findings, but some checks of its game were not run (see the findings)"
    )
    p3 = explained.players[2]
    assert p3.comparison == "agrees: the score after the hand was not checked (see the findings)"
    hand_text = flat(render_text(explained))
    assert "the record agrees" not in hand_text
    assert f"none found, but not every check of its game was run: - not run: {words}" in hand_text
    found = build_view(checked, hand.hand_id, source="logs", version="V").players[2]
    assert found.differs == ("score",)  # with the table, its pool.score finding differs


def test_the_running_pool_scores_say_who_left_the_game() -> None:
    """docs/replay.md (a player who leaves a pool game: a drop with reason left, dealt into
    no later hand): the game view's running scores mark the leaver's score "left" and say
    so between hands, where the support agent reads why they played no more; a running
    game's last hand so far says nothing of it (the leaver may be dealt in again)."""
    for still, said in ((False, True), (True, False)):
        game, hand = scenario(**{**INVALID, "running": still})
        unit = audit_unit(GameUnit(game.game_id, game, [hand]))
        scores = build_game_view(unit, source="logs", version="V").scores
        assert scores is not None
        (row,) = scores.rows
        p3 = row.cells[scores.players.index("P3")]
        lines = [e.text for e in row.events]
        assert (p3.text.endswith(" left"), lines[:1] == [
            "P3 left the game in this hand (a drop with reason left) and is out of it, "
            "whatever the score (see leaving, below)"]) == (said, said), still
        # no seed rule for it: cited as the audit's reading of the contract
        leaving = [r.source for r in scores.rules if r.key == "leaving"]
        assert [("audit's reading" in s, "seeds say nothing" in s) for s in leaving] == (
            [(True, True)] if said else []), still


def test_a_leavers_elimination_row_below_the_threshold_says_they_are_out_by_leaving() -> None:
    """docs/replay.md (leaving a pool game: an `eliminated` row for the leaver after that
    hand records the same at any score): P3 drops with reason left at 20 and is recorded
    as eliminated at 20. The row is accepted, no finding, and said as out by leaving, not
    by the score (it read "P3 left the game ... and is out of it", then "P3 is eliminated
    with a score of 20 (101 or more is out)": a blind tester)."""
    game, hand = scenario(**{**INVALID, "running": False})
    (p3,) = [r for r in hand.results if r.player == "P3"]
    game = replace(game, game_events=[GameEvent(1, 7, "P3", "eliminated", p3.score_after, None),
                                      *game.game_events])  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    assert [f for f in unit.findings if f.player_id == "P3"] == []
    scores = build_game_view(unit, source="logs", version="V").scores
    assert scores is not None
    lines = [e.text for e in scores.rows[0].events]
    assert lines[:2] == [
        "P3 left the game in this hand (a drop with reason left) and is out of it, whatever "
        "the score (see leaving, below)",
        f"P3 is recorded as eliminated at their score of {p3.score_after}: they are out "
        "because they left the game, not by their score (101 or more is out)",
    ]


def test_running_score_off_by_a_hands_wrong_points_says_why_it_is_no_finding() -> None:
    """`pool_101.running_score` (docs/replay.md, "one error, one finding"): P3's drop is
    recorded at 25 points (20 by the rules) and the score after the hand follows it, 25.
    That is the drop's one finding, no pool.score; the running pool scores and the hand
    still say the score is off the rules', and why, never "agrees" beside it."""
    results = {**INVALID["results"], "P3": ("first_drop", 25, None)}
    game, hand = scenario(**{**INVALID, "score_after": {"P1": 80, "P2": 0, "P3": 25},
                             "results": results})  # fmt: skip
    unit = audit_unit(GameUnit(game.game_id, game, [hand]))
    audit = unit.hands[0].audit
    assert audit is not None
    found = [*audit.findings, *unit.findings]
    assert [f.check for f in found if f.player_id == "P3"] == ["drop.penalty"]
    assert "pool.score" not in [f.check for f in found]
    why = "20 by the rules: the record counts 25 points for that hand, the rules 20"
    scores = build_game_view(unit, source="logs", version="V").scores
    assert scores is not None
    p3 = scores.rows[0].cells[scores.players.index("P3")]
    assert (p3.text, p3.note) == ("25", why)
    player = build_view(unit, hand.hand_id, source="logs", version="V").players[2]
    assert player.differs == ("points", "score")
    assert player.comparison.endswith(f"the score after the hand is {why}")


def test_money_not_checked_shows_no_sum_as_the_rules(tmp_path: Path) -> None:
    """`tables.files`: a ledger file could not be read, and the ledger does not add up: the
    ledger's findings become one game.unchecked ("its money was not checked"), which says
    what does not add up in a sentence; the money panel then shows no sum as the rules' (a
    blind tester saw a rake of -18.00 "by the rules" and per-player "agrees" beside it).
    (A loser's missing results row no longer does: the ledger is judged at the rules'
    points for them, schemas/money.md.)"""
    results = {p: row for p, row in DISPUTE["results"].items() if p != "P3"}
    game, hand = scenario(**{**DISPUTE, "results": results})
    ledger = [("P1", "90.00"), ("P2", "-65.00"), ("P3", "-40.00")]
    game.ledger = [LedgerRow(p, "points_settlement", Decimal(a)) for p, a in ledger]
    unit = audit_unit(GameUnit(game.game_id, game, [hand]),
                      damaged={"ledger": ["ledger/part-1.parquet"]})  # fmt: skip
    (unchecked,) = [f for f in unit.findings if f.check == "game.unchecked"]
    assert unchecked.message.endswith(
        "could not be read and may hold the rest of them, so its money was not checked; what "
        "does not add up: Game G1 took in 105.00 but paid out 90.00 (rake included), 15.00 too "
        "little, and the ledger check found 2 more differences."
    ), unchecked.message
    view = build_game_view(unit, source="logs", version="V")
    assert view.ledger is not None
    assert view.ledger.payouts == ()
    assert view.ledger.notes[-1] == (
        "The game's money was not checked (its game.unchecked finding says why), so no sum "
        "is shown as the rules'."
    )
    text = flat(render_game_text(view))
    assert "by the rules" not in text
    assert view.hands_note == (
        "1 hand with findings of its own (see the hands table); `rummy-audit explain HAND_ID "
        "LOGS` explains it, turn by turn."
    )


def test_a_recorded_winner_the_rules_do_not_give_is_not_said_to_agree() -> None:
    """schemas/money.md step 4: the prize goes to the last player left by the rules. Where
    the rules refuse an elimination, two players are still in after the last hand and the
    rules know no winner: the record's winner and prize were said to agree (a blind
    tester's support agent would have confirmed a prize the audit disputes).
    ``still_in`` names them; the game view's result and prize line use it."""
    from audit.explain.standing import still_in
    from audit.games.poolstate import PoolJudgement, Standing

    game_won = GameEvent(5, 7, "A5", "game_won", None, None)
    hand = Hand("G7-05", "G7", 5, ["A5", "C5"], [], 0, 0, [], [])
    both = {5: Standing(("A5", "C5"), {"A5": 60, "C5": 100}, 0)}
    game = Game(
        game_id="G7", table_id="T1", format="pool_101", deals_count=None, cards_per_hand=13,
        ruleset="standard-13", decks=2, printed_jokers=2, max_players=6, chip_type="real",
        entry_fee=Decimal("50.00"), point_value=None, rake_pct=Decimal("10.00"),
        running=False, game_events=[game_won],
    )  # fmt: skip
    assert still_in(PoolJudgement((), both, None, None), game, [hand]) == ("A5", "C5")
    assert still_in(PoolJudgement((), both, "A5", None), game, [hand]) == ()
    one = {5: Standing(("A5",), {"A5": 60}, 0)}
    assert still_in(PoolJudgement((), one, None, None), game, [hand]) == ()
    assert still_in(PoolJudgement((), both, None, None), replace(game, game_events=[]),
                    [hand]) == ()  # fmt: skip


def test_explain_game_lists_its_table_limit_finding_and_says_when_sessions_are_missing(
    deals_night: Path, tmp_path: Path
) -> None:
    """`tables.app_max` (000_1729c72ad4c1f885.txt: 'total of 3 tables can be played upon at
    any point of time in App'): a player connected to four of the night's tables at once
    from the app gets the night's table.limit finding on the game where they passed the
    limit, and explain of that game lists it, never "agrees with the rules". Without a
    sessions table, explain says table.limit was not run (`tables.optional`). Until
    2026-12-06 explain said "none: the game's record agrees with the rules" in both cases
    (a blind tester)."""
    logs = tmp_path / "logs"
    shutil.copytree(deals_night, logs)
    games = sorted(g["game_id"] for g in rows(logs, "games"))[:4]
    sessions = rows(logs, "sessions")
    start = min(s["joined_at"] for s in sessions)
    extra = [{**sessions[0], "player_id": "Z1", "game_id": game, "client": "app",
              "joined_at": start + timedelta(minutes=i), "left_at": start + timedelta(hours=1)}
             for i, game in enumerate(games)]  # fmt: skip
    path = logs / "sessions" / "extra.parquet"
    pq.write_table(pa.Table.from_pylist(extra, schema=pq.read_schema(
        next((logs / "sessions").rglob("*.parquet")))), path)  # fmt: skip
    view = load_game_view(logs, games[3])
    limit = [f for f in view.findings if f.check == "table.limit"]
    assert len(limit) == 1
    assert "Z1 was playing 4 tables at once from the app" in limit[0].message
    assert "1 game-level finding, worst minor" in view.verdict
    assert "agrees with the rules" not in flat(render_game_text(view))
    shutil.rmtree(logs / "sessions")
    view = load_game_view(logs, games[3])
    words = skipped_words("sessions")
    assert words is not None
    assert words.startswith("The log root has no sessions table, so table.limit")
    assert view.skipped == (words,)
    assert "agrees with the rules" not in flat(render_game_text(view))
