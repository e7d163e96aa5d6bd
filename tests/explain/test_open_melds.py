"""`rummy-audit explain` on an open-melds hand (`open-melds-13`, seed 002_) against golden
files: the turns with the melds laid, the lay-offs and the cut card's try, and the table's
melds after each turn that changed them (step 11: "explain shows the table's melds turn by
turn"). The hand is one the simulator plays. Regenerate with ``UPDATE_GOLDEN=1``
(tests/explain/goldtest.py) and read the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import audit.explain
from audit.cli import app
from audit.sim import simulate
from tests.explain.goldtest import PLAIN, compare, scrub

HAND = "G000001-02"
"""A 5-player hand of a 3-match open-melds night of seed 2: melds laid by four players,
lay-offs, a cut card taken and put back, and one taken and kept by the player going out."""


def test_explain_an_open_melds_hand_shows_the_table_turn_by_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """002_: 'Lay down what you can — new melds, cards added to melds already on the table';
    'You may take it instead of your normal draw, but it is only yours if you go out that
    same turn.' The turns name each meld laid and card added, and a last column holds the
    table's melds, numbered and with their owners, after each turn that changed them."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(audit.explain, "__version__", "VERSION")
    simulate(games=3, out=Path("logs"), seed=2, presets=("open-melds-13",), workers=1)
    result = CliRunner().invoke(app, ["explain", HAND, "logs", "--html", "hand.html"], env=PLAIN)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.replace("\u2502", " ").split())
    assert "rules open-melds-13" in text
    assert "table after" in text
    assert "meld 0 (P0023): JS QS KS" in text
    assert "took the cut card 7S" in text
    assert "never laid a meld, which costs a flat 80" in text
    assert "the record agrees with the rules: no findings" in text
    page = (tmp_path / "hand.html").read_text(encoding="utf-8")
    assert "<th>table after</th>" in page
    assert "took the cut card 7S; put the cut card back; laid 2S 4S JK" in page
    assert "meld 10 (P0005): 2S 4S JK" in page
    volatile = {str(tmp_path): "TMP"}
    compare(scrub(result.stdout, volatile=volatile), "open-melds-13.txt")
    compare(scrub(page, volatile=volatile), "open-melds-13.html")
