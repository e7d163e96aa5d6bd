"""`rummy-audit explain` on a 10-card hand (`standard-10`, 000_) against golden files.

The hand is one the simulator plays (a 4-player deals game: two decks and two printed
jokers, the winner's 10 cards laid 5+5), so the golden files also hold the simulator's
10-card play to its bytes. Regenerate with ``UPDATE_GOLDEN=1`` (tests/explain/goldtest.py)
and read the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import audit.explain
from audit.cli import app
from audit.sim import simulate
from tests.explain.goldtest import PLAIN, compare, scrub

HAND = "G000003-01"
"""A deals game's first hand in a 4-game standard-10 night of seed 2."""


def test_explain_a_ten_card_hand_matches_the_golden_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(audit.explain, "__version__", "VERSION")
    simulate(games=4, out=Path("logs"), seed=2, presets=("standard-10",), workers=1)
    result = CliRunner().invoke(app, ["explain", HAND, "logs", "--html", "hand.html"], env=PLAIN)
    assert result.exit_code == 0, result.output
    assert "standard-10" in result.stdout
    page = (tmp_path / "hand.html").read_text(encoding="utf-8")
    volatile = {str(tmp_path): "TMP"}
    compare(scrub(result.stdout, volatile=volatile), "standard-10.txt")
    compare(scrub(page, volatile=volatile), "standard-10.html")
