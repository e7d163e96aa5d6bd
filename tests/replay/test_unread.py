"""Hands whose replay may rest on events rows that could not be read (audit/replay/unread.py;
schemas/README.md, "What rests on a quarantined row is not judged without it").

A loser's show row lost (in a file that cannot be read, or with a null ``hand_id``) made the
loser one "arranged by the server" (log-format.md, ``show``), and their recorded charge as
shown a ``score.points`` alarm; a hand's last row lost, a ``turn.order`` one. A blind
tester (b107) found both. Such a hand is quarantined, naming the row or the file; a hand
whose findings name no such loser is judged on the rows read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from audit.run import replay_logs
from tests.logs.logbuilder import PARTITION
from tests.replay.cases import DECLARE, longer
from tests.replay.parquet import builder_for
from tests.replay.scenario import scenario

EVENTS = f"events/{PARTITION}/part-0.parquet"
ARRANGED = {"P1": ("won", 0, "32.40"), "P2": ("lost", 36, "-36.00")}
"""H2's results: P2's cards as the server arranges them, 36 points at 1.00, 10% rake."""


def night(root: Path) -> Path:
    """Two points games. G1's hand H1: P2, after a turn, shows all 13 cards as one group
    and is charged 77 as shown, though TC JC QC and the jokers make fewer (an honest
    charge: a loser is charged as shown). G2's hand H2: P2 makes no show and is charged by
    the server's best arrangement, 36 (2D 4D 5D 8H, the joker 8H, beside TC JC QC): verified."""
    h1 = scenario(**longer())
    h2 = scenario(**{**longer(), "events": ["P1 draw_stock JK", DECLARE], "results": ARRANGED,
                     "stock": "JK 2S 6H 7D", "hand_id": "H2", "game_id": "G2"})  # fmt: skip
    return builder_for(root / "logs", [h1, h2]).write()


def replayed(logs: Path, out: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False, rng=False)
    hands = {r["hand_id"]: r for r in pq.read_table(out / "hands.parquet").to_pylist()}
    return hands, pq.read_table(out / "findings.parquet").to_pylist()


def row_of(data: pa.Table, hand: str, action: str) -> int:
    pairs = zip(data.column("hand_id").to_pylist(), data.column("action").to_pylist(),
                strict=True)  # fmt: skip
    return next(i for i, (h, a) in enumerate(pairs) if h == hand and a == action)


def null_hand_id(path: Path, at: int) -> None:
    data = pq.read_table(path)
    ids = data.column("hand_id").to_pylist()
    ids[at] = None
    index = data.schema.get_field_index("hand_id")
    field = data.schema.field(index).with_nullable(True)
    pq.write_table(data.set_column(index, field, pa.array(ids, field.type)), path)


def nulled(tmp_path: Path, hand: str, action: str) -> tuple[int, dict[str, Any], list[Any]]:
    """The night with the hand_id of ``hand``'s first ``action`` row nulled, replayed: the
    row's place in the events file, the hands and the findings."""
    logs = night(tmp_path)
    at = row_of(pq.read_table(logs / EVENTS), hand, action)
    null_hand_id(logs / EVENTS, at)
    return at, *replayed(logs, tmp_path / "out")


def test_the_clean_night_is_verified(tmp_path: Path) -> None:
    """The two hands as written: the charge as shown and the server's arrangement."""
    hands, found = replayed(night(tmp_path), tmp_path / "out")
    assert {h: r["status"] for h, r in hands.items()} == {"H1": "verified", "H2": "verified"}
    assert [f for f in found if f["check"] != "check.skipped"] == []


def test_a_losers_show_row_with_a_null_hand_id_quarantines_the_hand_it_may_be_from(
    tmp_path: Path,
) -> None:
    """schemas/README.md: "a hand with a bad row of its own is quarantined with it". H1's
    show row, its hand_id nulled, is quarantined (``input.row``); without it P2 reads as
    arranged by the server (fewer than 77), so H1 is quarantined naming the row, not a
    ``score.points`` alarm. H2's loser has no show row either, but nothing found rests on
    it: H2 is verified. G1's game-level checks are not run (``game.unchecked``)."""
    at, hands, found = nulled(tmp_path, "H1", "show")
    assert hands["H1"]["status"] == "quarantined"
    assert hands["H1"]["reason"] == (
        "hand H1's findings charge P2 by the server's arrangement, with no show row of "
        f"theirs, and events row {at} of {EVENTS} has a null hand_id: it may be the missing "
        "show")
    assert hands["H2"]["status"] == "verified"
    checks = sorted((f["check"], f["game_id"] or None, f["hand_id"]) for f in found
                    if f["check"] != "check.skipped")  # fmt: skip
    assert checks == [("game.unchecked", "G1", None), ("input.hand", "G1", "H1"),
                      ("input.row", None, None)]  # fmt: skip


def test_a_declaration_with_a_null_hand_id_quarantines_the_hand_that_stops_before_its_end(
    tmp_path: Path,
) -> None:
    """H2's declaration, its hand_id nulled: H2's events stop before the hand ends, which
    was a ``turn.order`` alarm ("2 players still in and no valid declaration") beside the
    row in quarantine. H2 is quarantined naming the row; H1 is judged as always."""
    at, hands, found = nulled(tmp_path, "H2", "declare")
    assert hands["H2"]["status"] == "quarantined"
    assert hands["H2"]["reason"] == (
        "hand H2's events stop at seq 0 before the hand ends, and events row "
        f"{at} of {EVENTS} has a null hand_id: it may be one of them")
    assert hands["H1"]["status"] == "verified"
    assert not [f for f in found if f["check"] == "turn.order"]


def test_a_losers_show_row_in_a_file_that_cannot_be_read_quarantines_the_hand(
    tmp_path: Path,
) -> None:
    """schemas/README.md ("How the audit treats a file and its rows"): a refused file whose
    hand_id column cannot be read (not Parquet) takes out the hands found by what they
    lack. H1's show row moved to such a file: H1 is quarantined naming it, its
    ``input.file`` saying so, where it was a ``score.points`` alarm; H2 is verified."""
    logs = night(tmp_path)
    data = pq.read_table(logs / EVENTS)
    at = row_of(data, "H1", "show")
    pq.write_table(data.filter(pa.array([i != at for i in range(len(data))])), logs / EVENTS)
    bad = logs / "events" / "late.parquet"
    bad.write_bytes(b"PAR1 cut short by a failed upload")
    hands, found = replayed(logs, tmp_path / "out")
    assert hands["H1"]["status"] == "quarantined"
    assert hands["H1"]["reason"] == (
        "hand H1's findings charge P2 by the server's arrangement, with no show row of "
        "theirs (its rows may be in events/late.parquet, which could not be read)")
    assert hands["H2"]["status"] == "verified"
    checks = sorted(f["check"] for f in found if f["check"] != "check.skipped")
    assert checks == ["input.file"]
    (said,) = [f["message"] for f in found if f["check"] == "input.file"]
    assert "H1" in said


def test_a_first_row_with_a_null_hand_id_is_named_where_the_hands_seq_starts_late(
    tmp_path: Path,
) -> None:
    """H1's first row (seq 0), its hand_id nulled: H1 was quarantined as "events start at
    seq 1, not 0", and nothing named the row that was likely its own (b107). The reason now
    names it; H2 is judged as always."""
    at, hands, _ = nulled(tmp_path, "H1", "draw_stock")
    assert hands["H1"]["reason"] == (
        f"hand H1 events start at seq 1, not 0 (events row {at} of {EVENTS} has a null "
        "hand_id: it may be one of them)")
    assert hands["H2"]["status"] == "verified"
