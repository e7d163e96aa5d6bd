"""One cause, one finding: a file refused whole (``input.file``) is the one finding of the
hands and games it alone took out, its message saying how many and which; each hand keeps
its row of quarantine.parquet, and hands.parquet counts that finding for it
(schemas/output.md, findings.parquet and hands.parquet ``findings``). Until 2026-12-06 each
such hand was an ``input.hand`` and each game a ``game.unchecked``: a blind tester's one
refused results file was 301 findings."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from audit.run import replay_logs
from tests.logs import logbuilder
from tests.logs.logbuilder import PARTITION, LogBuilder, arrow_table, write_table


def three_games(root: Path, rows_of: str | None = None) -> LogBuilder:
    """Games g0, g1, g2 of two hands each, and a game_events and a ledger row of the game
    ``rows_of``."""
    logs = LogBuilder(root)
    for g in range(3):
        logs.game(f"g{g}")
        for h in range(2):
            logs.quick_hand(f"g{g}-h{h}")
        if f"g{g}" != rows_of:
            continue
        at = logbuilder.T0
        logs.row("game_events", game_id=f"g{g}", after_hand_no=1, seq=1, ts=at, player_id="p1",
                 score=80, action="rebuy", split_kind=None)  # fmt: skip
        logs.row("ledger", game_id=f"g{g}", player_id="p1", kind="prize", ts=at,
                 amount=Decimal("2.50"))  # fmt: skip
    return logs


def _game(row: dict[str, Any]) -> str:
    return str(row.get("game_id") or row["hand_id"].rsplit("-", 1)[0])


def refuse(logs: LogBuilder, table: str, games: set[str]) -> tuple[Path, str]:
    """Write the log with the rows of ``games`` of ``table`` in b.parquet, refused (results:
    ``amount`` written as a double, the blind tester's file; games: not Parquet); the root
    and b.parquet's path from it."""
    root = logs.write(skip=[table])
    rows = logs.rows[table]
    write_table(root, table, [r for r in rows if _game(r) not in games], f"{PARTITION}/a.parquet")
    name = f"{PARTITION}/b.parquet"
    if table == "results":
        data = arrow_table(table, [r for r in rows if _game(r) in games])
        at = data.schema.get_field_index("amount")
        data = data.set_column(at, "amount", data.column("amount").cast(pa.float64()))
        write_table(root, table, data, name)
    else:
        write_table(root, table, [r for r in rows if _game(r) in games], name).write_text("x")
    return root, f"{table}/{name}"


def replay(root: Path, out: Path) -> dict[str, list[dict[str, Any]]]:
    replay_logs(logs=root, out=out, workers=1, progress=False, fairplay=False, rng=False)
    return {kind: pq.read_table(out / f"{kind}.parquet").to_pylist()
            for kind in ("findings", "hands", "quarantine")}  # fmt: skip


def unchecked_games(out: Path) -> int:
    return int(json.loads((out / "run.json").read_text())["counts"]["games"]["unchecked"])


def test_a_refused_results_file_is_one_finding_for_the_hands_of_the_games_it_took(
    tmp_path: Path,
) -> None:
    """schemas/output.md, findings.parquet: the hands of g1 and g2, whose results rows the
    refused file held, get no input.hand and their games no game.unchecked; the file's
    finding counts them; each keeps its quarantine row; hands.parquet counts that finding
    (1, major); run.json counts both games unchecked."""
    root, name = refuse(three_games(tmp_path / "logs"), "results", {"g1", "g2"})
    out = tmp_path / "out"
    found = replay(root, out)
    checks = [(f["check"], f["game_id"]) for f in found["findings"]]
    assert ("input.hand" not in {c for c, _ in checks})
    assert not [g for c, g in checks if c == "game.unchecked"]
    (file,) = [f for f in found["findings"] if f["check"] == "input.file"]
    assert file["message"].startswith(f"{name}: column `amount` is double")
    assert file["message"].endswith(
        "; without it 4 hands of 2 games could not be audited (quarantined, their games' "
        "checks not run): g1-h0, g1-h1, g2-h0 and 1 more"
    )
    took = {"g1-h0", "g1-h1", "g2-h0", "g2-h1"}
    held = {q["hand_id"]: q for q in found["quarantine"] if q["check"] == "input.hand"}
    assert set(held) == took
    assert held["g1-h0"]["reason"] == (
        f"hand g1-h0 has results rows in {name}, which could not be read, so it cannot be "
        "replayed whole"
    )
    hands = {h["hand_id"]: h for h in found["hands"]}
    for hand in took:
        assert (hands[hand]["status"], hands[hand]["findings"], hands[hand]["worst_severity"]) \
            == ("quarantined", 1, "major")  # fmt: skip
    assert {h["status"] for h in found["hands"] if h["hand_id"] not in took} == {"verified"}
    assert unchecked_games(out) == 2


def test_a_refused_games_file_is_one_finding_for_the_games_it_may_hold(tmp_path: Path) -> None:
    """schemas/README.md, "How the audit treats a file and its rows": g2's games row may be
    in the refused games file; its hands get no input.hand, its game_events and ledger rows
    no input.row, the game no game.unchecked: the file's finding says so, and each hand and
    row keeps its quarantine row."""
    root, name = refuse(three_games(tmp_path / "logs", rows_of="g2"), "games", {"g2"})
    out = tmp_path / "out"
    found = replay(root, out)
    assert not [f for f in found["findings"] if f["game_id"] == "g2"]
    (file,) = [f for f in found["findings"] if f["check"].startswith("input.")]
    assert (file["check"], file["recorded"]) == ("input.file", name)
    assert file["message"].endswith(
        "; without it 2 hands of 1 game could not be audited (quarantined, their games' "
        "checks not run): g2-h0, g2-h1"
    )
    held = [(q["table"], q["hand_id"]) for q in found["quarantine"] if q["game_id"] == "g2"]
    assert sorted(held, key=str) == sorted(
        [("game_events", None), ("hands", "g2-h0"), ("hands", "g2-h1"), ("ledger", None)], key=str
    )
    hands = {h["hand_id"]: h for h in found["hands"] if h["game_id"] == "g2"}
    assert {(h["status"], h["findings"], h["worst_severity"]) for h in hands.values()} == {
        ("quarantined", 1, "major")
    }
    # g2 among the games unchecked, beside g0 and g1, which have no ledger rows
    others = {f["game_id"] for f in found["findings"] if f["check"] == "game.unchecked"}
    assert (others, unchecked_games(out)) == ({"g0", "g1"}, 3)


def test_a_hand_with_a_fault_of_its_own_beside_a_refused_file_keeps_its_own_finding(
    tmp_path: Path,
) -> None:
    """A hand quarantined for a reason of its own (a bad card, in the same night as the
    refused results file that also held its rows) keeps its input.hand and its bad row's
    input.row, and its game its game.unchecked; the file's finding counts only the hands it
    alone took out."""
    logs = three_games(tmp_path / "logs")
    bad = next(e for e in logs.rows["events"] if e["hand_id"] == "g1-h0" and e["card"])
    bad["card"] = "ZZ"
    root, _ = refuse(logs, "results", {"g1", "g2"})
    out = tmp_path / "out"
    found = replay(root, out)
    mine = {(f["check"], f["hand_id"]) for f in found["findings"] if f["game_id"] == "g1"}
    assert {("input.hand", "g1-h0"), ("input.row", "g1-h0"), ("game.unchecked", None)} <= mine
    assert not [f for f in found["findings"] if f["game_id"] == "g2"]
    (file,) = [f for f in found["findings"] if f["check"] == "input.file"]
    assert file["message"].endswith(
        "; without it 3 hands of 2 games could not be audited (quarantined, their games' "
        "checks not run): g1-h1, g2-h0, g2-h1"
    )
    hands = {h["hand_id"]: h for h in found["hands"]}
    assert (hands["g1-h0"]["findings"], hands["g1-h0"]["worst_severity"]) == (2, "major")
    assert unchecked_games(out) == 2


def test_a_quarantined_hand_of_a_finding_naming_several_hands_counts_it(tmp_path: Path) -> None:
    """schemas/output.md, hands.parquet ``findings``: the hands of a game without its games
    row (no file refused) are one input.hand naming them all, hand_id null; each hand
    counts it, 1 and major (until 2026-12-06: 0 and no severity, a blind tester)."""
    logs = three_games(tmp_path / "logs")
    logs.rows["games"] = [g for g in logs.rows["games"] if g["game_id"] != "g2"]
    found = replay(logs.write(), tmp_path / "out")
    (said,) = [f for f in found["findings"] if f["check"] == "input.hand"]
    assert (said["hand_id"], said["message"]) == (
        None, "The 2 hands g2-h0, g2-h1 name game g2, which games does not hold"
    )
    assert [f["check"] for f in found["findings"] if f["game_id"] == "g2"].count(
        "game.unchecked"
    ) == 1
    hands = [h for h in found["hands"] if h["game_id"] == "g2"]
    assert {(h["status"], h["findings"], h["worst_severity"]) for h in hands} == {
        ("quarantined", 1, "major")
    }


def test_a_refused_hands_file_is_one_finding_for_the_hands_named_in_other_tables(
    tmp_path: Path,
) -> None:
    """schemas/output.md, findings.parquet: the hands rows of g1 and g2 are in a hands file
    that is not Parquet, so the hands their events and results rows name are not held; each
    such hand's row may be in that file, whose one finding names them, not an input.hand
    each (a blind tester's one corrupt hands file was 77 of them). Each keeps its quarantine
    rows, and hands.parquet counts that finding for it (1, major)."""
    root, name = refuse(three_games(tmp_path / "logs"), "hands", {"g1", "g2"})
    out = tmp_path / "out"
    found = replay(root, out)
    assert "input.hand" not in {f["check"] for f in found["findings"]}
    (file,) = [f for f in found["findings"] if f["check"] == "input.file"]
    assert file["message"].startswith(f"{name} is not a readable Parquet file")
    assert file["message"].endswith(
        "; 4 hands named in other tables have no hands row to read, which it may hold "
        "(quarantined, their games' checks not run): g1-h0, g1-h1, g2-h0 and 1 more"
    )
    took = {"g1-h0", "g1-h1", "g2-h0", "g2-h1"}
    assert {q["hand_id"] for q in found["quarantine"] if q["check"] == "input.hand"} == took
    hands = {h["hand_id"]: h for h in found["hands"]}
    for hand in took:
        assert (hands[hand]["status"], hands[hand]["findings"], hands[hand]["worst_severity"]) \
            == ("quarantined", 1, "major")  # fmt: skip
