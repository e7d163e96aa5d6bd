"""One cause, one finding, for a file whose ``hand_id`` column cannot be read either (not
Parquet, empty, truncated): its hands are found by what they lack (no events, no results,
events stopping before the hand ends), and the file's ``input.file`` is their one finding,
as for a file refused for a column (schemas/README.md, "How the audit treats a file and
its rows"; schemas/output.md, findings.parquet). Until 2026-12-06 each such hand was an
``input.hand`` and each game a ``game.unchecked``: a blind tester's truncated events file
was 1 + 111 + 87 findings, its ``input.file`` saying nothing of what it took out."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from audit.cli import app
from tests.explain.test_fairplay import flat
from tests.explain.test_golden import PLAIN
from tests.logs import logbuilder
from tests.logs.logbuilder import PARTITION, LogBuilder, write_table
from tests.logs.test_refused_took import refuse, three_games, unchecked_games
from tests.logs.test_refused_took import replay as replay_all

TOOK = "could not be audited (quarantined, their games' checks not run)"


def replay(root: Path, out: Path) -> dict[str, list[dict[str, Any]]]:
    """``test_refused_took.replay`` but for the night's notes on the optional tables a
    builder writes with no row (``check.skipped``)."""
    found = replay_all(root, out)
    found["findings"] = [f for f in found["findings"] if f["check"] != "check.skipped"]
    return found


def test_an_events_file_that_is_not_parquet_is_one_finding_for_the_hands_without_events(
    tmp_path: Path,
) -> None:
    """The hands of g1 and g2, whose events were all in the file, get no input.hand and
    their games no game.unchecked; the file's finding names them; each keeps its
    quarantine row with its reason; hands.parquet counts that finding (1, major)."""
    root, name = refuse(three_games(tmp_path / "logs"), "events", {"g1", "g2"})
    out = tmp_path / "out"
    found = replay(root, out)
    assert {f["check"] for f in found["findings"]} == {"input.file"}
    (file,) = found["findings"]
    assert file["message"].startswith(f"{name} is not a readable Parquet file: ")
    assert file["message"].endswith(
        f"; without it 4 hands of 2 games {TOOK}: g1-h0, g1-h1, g2-h0 and 1 more"
    )
    held = {q["hand_id"]: q["reason"] for q in found["quarantine"] if q["check"] == "input.hand"}
    assert held == {
        hand: f"hand {hand} has no events (its rows may be in {name}, which could not be read)"
        for hand in ("g1-h0", "g1-h1", "g2-h0", "g2-h1")
    }
    assert {(h["hand_id"], h["status"], h["findings"], h["worst_severity"])
            for h in found["hands"] if h["status"] == "quarantined"} == {
        (hand, "quarantined", 1, "major") for hand in held
    }  # fmt: skip
    assert unchecked_games(out) == 2


def test_a_zero_byte_results_file_is_one_finding_and_a_hand_lacking_events_keeps_its_own(
    tmp_path: Path,
) -> None:
    """The blind tester's zero-byte results file: the hands without results are its one
    finding. Hand g0-h0 lacks its events with no events file refused: that is its own
    fault, its own input.hand and its game's game.unchecked."""
    logs = three_games(tmp_path / "logs")
    logs.rows["events"] = [e for e in logs.rows["events"] if e["hand_id"] != "g0-h0"]
    root, name = refuse(logs, "results", {"g1", "g2"})
    (root / "results" / name.removeprefix("results/")).write_bytes(b"")
    out = tmp_path / "out"
    found = replay(root, out)
    said = sorted((f["check"], f["game_id"], f["hand_id"]) for f in found["findings"])
    assert said == [("game.unchecked", "g0", None), ("input.file", "", None),
                    ("input.hand", "g0", "g0-h0")]  # fmt: skip
    (file,) = [f for f in found["findings"] if f["check"] == "input.file"]
    assert file["message"] == (
        f"{name} is not a readable Parquet file: Parquet file size is 0 bytes; without it 4 "
        f"hands of 2 games {TOOK}: g1-h0, g1-h1, g2-h0 and 1 more"
    )
    (own,) = [f for f in found["findings"] if f["check"] == "input.hand"]
    assert own["message"] == "hand g0-h0 has no events"
    assert unchecked_games(out) == 3


def test_a_hand_whose_events_stop_in_a_truncated_file_is_the_files_finding(
    tmp_path: Path,
) -> None:
    """The blind tester's hand_split_truncated: g1-h0's last event (its drop) is in a
    file cut short, so its events stop before it ends; the file's finding names it, the
    hand has no input.hand, its game no game.unchecked."""
    logs = three_games(tmp_path / "logs")
    root = logs.write(skip=["events"])
    rows = logs.rows["events"]
    last = [e for e in rows if e["hand_id"] == "g1-h0"][-1]
    write_table(root, "events", [e for e in rows if e is not last], f"{PARTITION}/a.parquet")
    cut = write_table(root, "events", [last], f"{PARTITION}/b.parquet")
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    name = f"events/{PARTITION}/b.parquet"
    out = tmp_path / "out"
    found = replay(root, out)
    (file,) = found["findings"]
    assert file["check"] == "input.file"
    assert file["message"].endswith(f"; without it 1 hand of 1 game {TOOK}: g1-h0")
    (held,) = [q for q in found["quarantine"] if q["check"] == "input.hand"]
    assert (held["hand_id"], held["reason"]) == ("g1-h0", (
        f"hand g1-h0's events stop at seq {last['seq'] - 1} before the hand ends (its rows may "
        f"be in {name}, which could not be read)"))  # fmt: skip
    assert unchecked_games(out) == 1


def _seated(logs: LogBuilder, game: str) -> LogBuilder:
    """Sessions seating the players of ``game`` in it alone, so that they place its hands
    whose hands row is not read (``audit.logs.quarantine.find_orphans``)."""
    at = logbuilder.T0
    for player in ("p1", "p2"):
        logs.row("sessions", game_id=game, player_id=player, ip="h1", device_id="d1",
                 client="app", joined_at=at - timedelta(minutes=1),
                 left_at=at + timedelta(hours=1))  # fmt: skip
    return logs


def _after(logs: LogBuilder, game: str, hand_no: int) -> LogBuilder:
    """``game`` a pool game, with a rebuy after hand ``hand_no``."""
    row = next(g for g in logs.rows["games"] if g["game_id"] == game)
    row.update(format="pool_101", point_value=None, entry_fee=Decimal("10.00"))
    return logs.row("game_events", game_id=game, after_hand_no=hand_no, seq=1,
                    ts=logbuilder.T0, player_id="p1", score=80, action="rebuy",
                    split_kind=None)  # fmt: skip


def test_a_refused_hands_file_is_the_one_finding_of_a_game_whose_game_events_follow_its_hands(
    tmp_path: Path,
) -> None:
    """The blind tester's text_hands: g2's hands rows were in the refused hands file, the
    sessions place its hands in it, and its game events follow hand no. 2, which those
    hands may hold: the file's finding names them, the game gets no game.unchecked (until
    2026-12-06 it had one, "(and 2 more)" of its 2 hands). explain g2 counts its two
    quarantined hands, as hands.parquet does (until 2026-12-06 "0 hands")."""
    logs = _after(_seated(three_games(tmp_path / "logs"), "g2"), "g2", 2)
    root, _ = refuse(logs, "hands", {"g2"})
    out = tmp_path / "out"
    found = replay(root, out)
    assert [f["check"] for f in found["findings"]] == ["input.file"]
    (file,) = [f for f in found["findings"] if f["check"] == "input.file"]
    assert file["message"].endswith(f"; without it 2 hands of 1 game {TOOK}: g2-h0, g2-h1")
    assert unchecked_games(out) == 1
    result = CliRunner().invoke(app, ["explain", "g2", str(root)], env=PLAIN)
    assert result.exit_code == 0, result.output
    assert "2 hands: 0 verified, 0 with discrepancies, 2 quarantined" in flat(result.stdout)


def test_a_game_missing_more_hands_than_the_sessions_place_counts_its_reasons(
    tmp_path: Path,
) -> None:
    """g2's game events follow hand no. 4, but the sessions place only its 2 hands the
    refused hands file may hold: hand numbers go missing that nothing explains, so the
    game keeps its game.unchecked, whose count is of reasons (2 beside the first: the
    other hand, the game events), not hands (until 2026-12-06 "(and 2 more)")."""
    logs = _after(_seated(three_games(tmp_path / "logs"), "g2"), "g2", 4)
    root, name = refuse(logs, "hands", {"g2"})
    found = replay(root, tmp_path / "out")
    (unchecked,) = [f for f in found["findings"] if f["check"] == "game.unchecked"]
    assert unchecked["game_id"] == "g2"
    assert unchecked["message"] == (
        "The game-level checks of game g2 (scores, chips and money against its hands) were "
        "not run: hand g2-h0 could not be replayed (hand g2-h0 cannot be replayed: its hands "
        f"row is not among the hands read: it may be in {name}, which could not be read) "
        "(and 2 more reasons)."
    )
