"""`rummy-audit explain` on a 21-card and a 27-card hand (`standard-21`, `standard-27`)
against golden files.

The hands are ones the simulator plays (points games on three decks with three printed
jokers, up and down jokers, value cards settled between the players still in at the
show), so the golden files also hold the simulator's 21- and 27-card play to its bytes.
Regenerate with ``UPDATE_GOLDEN=1`` (tests/explain/goldtest.py) and read the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import audit.explain
from audit.cli import app
from audit.sim import simulate
from tests.explain.goldtest import PLAIN, compare, scrub

HANDS = {"standard-21": "G000002-01", "standard-27": "G000001-02"}
"""A 3-player 21-card hand and a 2-player 27-card hand, each of a 4-game night of seed 2."""


@pytest.mark.parametrize("preset", sorted(HANDS))
def test_explain_a_21_and_a_27_card_hand_matches_the_golden_files(
    preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand view of a 21- or 27-card hand names the up and down jokers, shows each
    player's value cards and their settlement (`points.value_cards`), the money split into
    card points and value, and agrees with the record."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(audit.explain, "__version__", "VERSION")
    simulate(games=4, out=Path("logs"), seed=2, presets=(preset,), workers=1)
    hand = HANDS[preset]
    result = CliRunner().invoke(app, ["explain", hand, "logs", "--html", "hand.html"], env=PLAIN)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.replace("\u2502", " ").split())
    assert f"rules {preset}" in text
    assert "up and" in text
    assert "Value:" in text
    assert "the record agrees with the rules: no findings" in text
    page = (tmp_path / "hand.html").read_text(encoding="utf-8")
    volatile = {str(tmp_path): "TMP"}
    compare(scrub(result.stdout, volatile=volatile), f"{preset}.txt")
    compare(scrub(page, volatile=volatile), f"{preset}.html")
