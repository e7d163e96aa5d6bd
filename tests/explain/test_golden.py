"""`rummy-audit explain` against golden files: the terminal text and the HTML page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import audit.explain
from audit.cli import app
from tests.explain.fairplay import EVIDENCE, night
from tests.explain.games import pool_game
from tests.explain.goldtest import PLAIN, compare, scrub
from tests.explain.hands import DISPUTE, INVALID
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario


def explain(logs: Path, *more: str) -> tuple[str, str]:
    """Run the command on the log root ``logs``, from its parent, with the arguments
    ``more``; (stdout, page)."""
    args = ["explain", "H1", logs.name, "--html", "hand.html", *more]
    result = CliRunner().invoke(app, args, env=PLAIN)
    assert result.exit_code == 0, result.output
    return result.stdout, (logs.parent / "hand.html").read_text(encoding="utf-8")


@pytest.fixture
def pinned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Run in ``tmp_path`` with relative paths and a pinned version, so nothing in the
    output moves; what is volatile all the same is scrubbed."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(audit.explain, "__version__", "VERSION")
    return {str(tmp_path): "TMP"}


@pytest.mark.parametrize(("name", "hand"), [("dispute", DISPUTE), ("invalid", INVALID)])
def test_explain_matches_the_golden_files(
    name: str, hand: dict[str, Any], tmp_path: Path, pinned: dict[str, str]
) -> None:
    text, page = explain(write_log(tmp_path / "logs", [scenario(**hand)]))
    compare(scrub(text, volatile=pinned), f"{name}.txt")
    compare(scrub(page, volatile=pinned), f"{name}.html")


def test_the_same_log_gives_the_same_bytes(tmp_path: Path, pinned: dict[str, str]) -> None:
    logs = write_log(tmp_path / "logs", [scenario(**DISPUTE)])
    first = explain(logs)
    (tmp_path / "hand.html").unlink()
    assert explain(logs) == first


def test_explain_lists_the_fair_play_suspicions_of_the_hand(
    tmp_path: Path, pinned: dict[str, str]
) -> None:
    """With --out, the suspicions the hand is evidence for, the strongest first, the one
    whose two accounts it deals in marked as not among its listed evidence, and not the one
    of an account not at the table."""
    logs = write_log(tmp_path / "logs", [scenario(**DISPUTE)])
    night(tmp_path / "out", EVIDENCE)
    text, page = explain(logs, "--out", "out")
    compare(scrub(text, volatile=pinned), "dispute-fairplay.txt")
    compare(scrub(page, volatile=pinned), "dispute-fairplay.html")


def test_explain_a_game_matches_the_golden_files(tmp_path: Path, pinned: dict[str, str]) -> None:
    """The 101-pool game of tests/explain/games.py (an elimination, a rebuy) with its
    prize skimmed by 1.00: the ledger's findings, the sums by the rules."""
    logs = pool_game(tmp_path / "logs", prize="359.00")
    args = ["explain", "GP", logs.name, "--html", "game.html"]
    result = CliRunner().invoke(app, args, env=PLAIN)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "game.html").read_text(encoding="utf-8")
    compare(scrub(result.stdout, volatile=pinned), "pool-game.txt")
    compare(scrub(page, volatile=pinned), "pool-game.html")
