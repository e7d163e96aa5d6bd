"""`rummy-audit explain HAND LOGS`: one hand in words for support staff."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from audit.cli import app
from tests.replay.cases import CASES
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario

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
    assert "recorded lost, 45 points" in text
    assert "rule: points.first_hand_show_cap:" in text
    assert "[major] score.points: P2 was charged 45 points" in text


def test_explain_an_unknown_hand_is_one_line_and_exit_2(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", [scenario(**CASES[0].kwargs)])
    result = runner.invoke(app, ["explain", "NOPE", str(logs)])
    assert result.exit_code == 2
    assert result.output.strip() == "rummy-audit: error: the log root has no hand or game 'NOPE'"


def test_a_wrong_verdict_gives_no_amount_beside_the_rules_outcome(tmp_path: Path) -> None:
    """schemas/money.md: the money follows the recorded outcome; beside the rules' outcome
    of a wrong verdict (an invalid declaration recorded as won) no amount is said, where
    the recorded winner's 36.00 read as owed to an invalid declarer."""
    case = next(c for c in CASES if c.name == "declare.verdict")
    logs = write_log(tmp_path / "logs", [scenario(**case.kwargs)])
    result = runner.invoke(app, ["explain", "H1", str(logs)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.replace("│", " ").split())
    assert "P1: invalid declaration, 80 points (" in text
    assert "P1: invalid declaration, 80 points, amount" not in text
