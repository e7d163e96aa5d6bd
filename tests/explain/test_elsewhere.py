"""`rummy-audit explain` of a pool hand with no findings of its own whose players' scores or
seats rest on a finding of the game elsewhere (audit/explain/elsewhere.py): a score after
it carried forward from a rebuy's wrong new score, a player who played it while out by the
rules. Its verdict does not say the record agrees with the rules (a blind tester read "the
record agrees with the rules: no findings" above "differs (score)"), and the game view
marks a hand played while out (docs/replay.md: "out by the rules: a hand played while
out")."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from audit.explain import build_game_view
from audit.explain.view import build_view
from audit.records import GameEvent, GameUnit, LedgerRow
from audit.unit import UnitAudit, audit_unit
from tests.explain.games import _pool_hand
from tests.explain.test_winner import hands, won_by


def pool_unit(scores: list[dict[str, int]], events: list[GameEvent], rebuys: int = 0) -> UnitAudit:
    """The three-player 101 pool game of tests/explain/games.py (P2 and P3 charged 40 a
    hand after hand 1), with the running scores ``scores`` and the game events ``events``;
    the ledger pays P1 the prize of the entries less the 10% rake."""
    game, played = hands([_pool_hand(no, s) for no, s in enumerate(scores, start=1)])
    pot = Decimal(100 * (3 + rebuys))
    ledger = [*(LedgerRow(p, "buy_in", Decimal("-100.00")) for p in ("P1", "P2", "P3")),
              *(LedgerRow("P2", "rebuy", Decimal("-100.00")) for _ in range(rebuys)),
              LedgerRow("P1", "prize", pot * Decimal("0.9")),
              LedgerRow(None, "rake", pot * Decimal("0.1"))]  # fmt: skip
    return audit_unit(GameUnit(game.game_id, replace(game, game_events=events, ledger=ledger),
                               played))  # fmt: skip


def test_pool_rebuy_a_score_carried_from_a_wrong_rebuy_is_not_said_to_agree() -> None:
    """`pool_101.rebuy_below` (000_1729c72ad4c1f885.txt: "if highest score is 57, the
    players Re-Buyin will Re-Buy ... with scores 58, 59, 60"): P2 reaches 117 after hand 2
    and rebuys at 80, where the rules give 74 (1 + P3's 73): one pool.rebuy, on hand 2.
    Hand 3 has no findings of its own, but P2's score after it, 120, is 114 by the rules.
    Its verdict says the hand's own record agrees and P2's score differs, carried forward
    from that finding, and names it; until 2026-12-06 it said "the record agrees with the
    rules: no findings" (a blind tester)."""
    unit = pool_unit(
        [{"P1": 0, "P2": 77, "P3": 33}, {"P1": 0, "P2": 117, "P3": 73},
         {"P1": 0, "P2": 120, "P3": 113}],
        [GameEvent(2, 1, "P2", "eliminated", 117, None), GameEvent(2, 2, "P2", "rebuy", 80, None),
         GameEvent(3, 3, "P2", "eliminated", 120, None),
         GameEvent(3, 4, "P3", "eliminated", 113, None), won_by("P1", 3)],
        rebuys=1,
    )  # fmt: skip
    assert [(f.check, f.hand_id, f.player_id) for f in unit.findings] == [
        ("pool.rebuy", "H2", "P2")]  # fmt: skip
    view = build_view(unit, "H3", source="logs", version="V")
    assert view.findings == ()
    p2 = view.players[1]
    assert (p2.player, p2.differs) == ("P2", ("score",))
    assert view.verdict == (
        "the hand's own record agrees with the rules (no findings of its own), but P2's score "
        f"after it differs from the rules', carried forward from the pool.rebuy finding of "
        f"game {unit.game_id}, on hand H2")  # fmt: skip
    assert "agrees with the rules: no findings" not in view.verdict
    assert view.none_found.startswith("none of its own, but P2's score after it differs")


def test_pool_elimination_a_hand_played_while_out_is_marked_in_both_views() -> None:
    """`pool_101.elimination_score` ("A score of exactly 101 eliminates"; 000_: "101 Pool"):
    P2 reaches 117 after hand 2 with no eliminated row and plays hand 3, out by the rules,
    the game going on with P1 and P3: one pool.elimination, on hand 2 ("recorded only after
    hand 3, which they played while out"). The game view marks hand 3 as one P2 played
    while out (its hands table and running scores), and the hand view says it, in its
    verdict and beside P2's score; until 2026-12-06 the game view called hand 3 "verified"
    and the hand view "the record agrees with the rules: no findings" (a blind tester)."""
    unit = pool_unit(
        [{"P1": 0, "P2": 77, "P3": 33}, {"P1": 0, "P2": 117, "P3": 73},
         {"P1": 0, "P2": 157, "P3": 113}],
        [GameEvent(3, 1, "P2", "eliminated", 157, None),
         GameEvent(3, 2, "P3", "eliminated", 113, None), won_by("P1", 3)],
    )  # fmt: skip
    (found,) = unit.findings
    assert (found.check, found.hand_id, found.player_id) == ("pool.elimination", "H2", "P2")
    assert found.message.endswith("recorded only after hand 3: they played 1 hand while out.")
    game = build_game_view(unit, source="logs", version="V")
    row = game.hands[2]
    assert (row.status, row.status_words) == (
        "verified", "no findings of its own; P2 played it while out by the rules (out after "
        "hand 2)")  # fmt: skip
    assert [h.while_out for h in game.hands[:2]] == ["", ""]
    assert game.scores is not None
    assert game.scores.rows[2].cells[1].note == "out by the rules: a hand played while out"
    view = build_view(unit, "H3", source="logs", version="V")
    assert view.findings == ()
    assert view.verdict == (
        "the hand's own record agrees with the rules (no findings of its own), but P2 played "
        f"it while out by the rules, out after hand 2 (the pool.elimination finding of game "
        f"{unit.game_id}, on hand H2)")  # fmt: skip
    p2 = view.players[1]
    assert p2.note.endswith(
        f"by the rules P2 was out after hand 2 (the pool.elimination finding of game "
        f"{unit.game_id}, on hand H2), so hand 3 is one P2 played while out")  # fmt: skip
    # P3, still in by the rules, and a hand before it are not marked
    assert "P3" not in view.verdict
    assert "while out" not in build_view(unit, "H2", source="logs", version="V").verdict
