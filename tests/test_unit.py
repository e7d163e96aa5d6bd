"""The unit of audit has one home (audit/unit.py): the nightly run and `explain` decide by the
same code whether a hand can be replayed, and see the same findings."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from audit.explain import load_view, render_text
from audit.run import replay_logs
from tests.logs.logbuilder import LogBuilder


def test_explain_refuses_the_hand_the_night_quarantines(tmp_path: Path) -> None:
    """A stock draw with no card: the night quarantines the hand, and explain says why
    rather than replaying it as a draw of a joker (the code -1 of "no card")."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1").quick_hand("h2")
    draw = next(r for r in logs.rows["events"] if r["hand_id"] == "h2"
                and r["action"] == "draw_stock")  # fmt: skip
    draw["card"] = None
    root = logs.write()
    out = tmp_path / "out"
    replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False)
    rows = {r["hand_id"]: r for r in pq.read_table(out / "hands.parquet").to_pylist()}
    assert rows["h2"]["status"] == "quarantined"
    assert rows["h2"]["reason"] == "hand h2 event 0 (draw_stock) has no card"
    view = load_view(root, "h2")
    assert view.unreplayable == f"This hand could not be replayed: {rows['h2']['reason']}"
    assert "drew" not in render_text(view)
    assert load_view(root, "h1").verdict == "the record agrees with the rules: no findings"


def test_the_unit_is_the_one_door(tmp_path: Path) -> None:
    """`games/` and `replay/` no longer import each other: the records they share live in
    audit/records.py and the unit of audit in audit/unit.py."""
    package = Path(__file__).resolve().parents[1] / "audit"
    for folder, other in (("games", "audit.replay"), ("replay", "audit.games")):
        for path in (package / folder).glob("*.py"):
            assert other not in path.read_text(), path
    assert not (package / "replay" / "records.py").exists()


def test_two_hands_of_a_game_with_one_hand_no_leave_its_game_unchecked(tmp_path: Path) -> None:
    """log-format.md: `hands.hand_no` is the 1-based position of the hand in its game, so
    two hands cannot hold one: each hand is still replayed (its deal and turns stand alone),
    but the game's checks, which follow the hands in order, are not run, and say why, at
    `major`: the platform's own record is at fault and no other finding says so (a blind
    tester: at `info` a points game's money went unchecked and the run exited 0)."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1").quick_hand("h2").quick_hand("h3")
    logs.rows["hands"][2]["hand_no"] = 2
    out = tmp_path / "out"
    summary = replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    (unchecked,) = [f for f in findings if f["check"] == "game.unchecked"]
    assert (unchecked["game_id"], unchecked["severity"]) == ("g1", "major")
    assert summary.exit_status == 1
    assert "hand no. 2 is held by 2 hands (h2, h3)" in unchecked["message"]
    hands = pq.read_table(out / "hands.parquet").to_pylist()
    assert {h["hand_id"]: h["status"] for h in hands} == dict.fromkeys(("h1", "h2", "h3"),
                                                                      "verified")  # fmt: skip
