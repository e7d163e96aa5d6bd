"""`rummy-audit explain HAND LOGS`: one hand in words for support staff."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from audit.cli import app
from audit.explain import build_view
from audit.records import GameUnit
from audit.unit import audit_unit
from tests.replay.cases import CASES, base
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario
from tests.replay.test_hand_flow import exhaust_stock, p2_drops_and_p1_wins, reshuffled_then_drawn

runner = CliRunner()


def test_explain_names_every_turn_the_points_and_the_finding(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "score.points")
    logs = write_log(tmp_path / "logs", [scenario(**case.kwargs)])
    result = runner.invoke(app, ["explain", "H1", str(logs)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Seats in turn order: P1, P2" in text
    assert "Wild card 8S: printed jokers and every 8" in text
    assert re.search(r"\b0-1 +P1 +JK +stock +declared, putting QH on the finish", text)
    assert "P1's declaration is valid:" in text
    assert "P2: lost, 40 points" in text
    assert "recorded lost, 45 points" in " ".join(text.replace("│", " ").split())
    assert "rule: points.first_hand_show_cap:" in text
    assert "[major] score.points: P2 was charged 45 points" in text


def test_explain_an_unknown_hand_is_one_line_and_exit_2(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", [scenario(**CASES[0].kwargs)])
    result = runner.invoke(app, ["explain", "NOPE", str(logs)])
    assert result.exit_code == 2
    assert result.output.strip() == "rummy-audit: error: the log root has no hand or game 'NOPE'"


def test_a_wrong_verdict_gives_the_rules_amount_not_the_recorded_one(tmp_path: Path) -> None:
    """schemas/money.md: the money follows the recorded outcome; beside the rules' outcome
    of a wrong verdict (an invalid declaration recorded as won) the recorded winner's
    amount is not said, where it read as owed to an invalid declarer; what the rules do
    settle is: the declarer, out with 80 points whoever wins later, owes 80 x 1.0000 (a
    blind tester: the declarer was shown no amount of the rules')."""
    case = next(c for c in CASES if c.name == "declare.verdict")
    logs = write_log(tmp_path / "logs", [scenario(**case.kwargs)])
    result = runner.invoke(app, ["explain", "H1", str(logs)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "P1: invalid declaration, 80 points, amount -80.00 (" in text
    assert "recorded won, 0 points, amount 72.00: differs (outcome, points, amount)" in text


def test_turns_reshuffle_before_the_stock_is_empty_is_explained_as_the_replay_holds_it() -> None:
    """`turns.reshuffle` (docs/replay.md, Turns): a reshuffle while two cards are still in
    the stock keeps them on top, so explain says its cards went under them, not "a new
    stock" (the words of a reshuffle of an empty stock: tests/explain/test_view.py);
    where the next stock draw took the first reshuffled card, on top of them."""
    game, hand = scenario(**base(events=[], results={}))
    played, pile = exhaust_stock(game, hand)
    seq = len(played) - 4  # the last two stock cards are not drawn before the reshuffle
    left, played, pile = pile[-2:], played[:seq], pile[:-2]
    new_stock = list(reversed(pile[:-1]))
    words = "76 cards of the discard pile reshuffled"  # the pile less its top card
    for drawn, note in (
        ([*left, new_stock[0]], f"{words} under the 2 still in the stock"),
        (new_stock[:3], f"{words} on top of the 2 still in the stock"),
    ):
        events = reshuffled_then_drawn(hand, played, new_stock, drawn)
        p2_drops_and_p1_wins(hand, events)
        view = build_view(audit_unit(GameUnit(game.game_id, game, [hand])), hand.hand_id,
                          source="logs", version="VERSION")  # fmt: skip
        (row,) = [t for t in view.turns if t.player == "server"]
        assert row.note == note
