"""A hand explain cannot replay: its hands row unread or written twice, said as the
nightly run quarantines it, with what the other tables recorded of it."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from typer.testing import CliRunner

from audit.cli import app
from tests.explain.games import points_game
from tests.explain.test_fairplay import flat
from tests.explain.test_golden import PLAIN


def _hands_file(logs: Path) -> Path:
    (path,) = (logs / "hands").rglob("*.parquet")
    return path


def lose_hands_row(logs: Path, hand_id: str) -> str:
    """Move ``hand_id``'s hands row to a file of its own cut in half (unreadable), as the
    blind tester's logs_q2 did; the file's path under the log root."""
    path = _hands_file(logs)
    table = pq.read_table(path)
    pq.write_table(table.filter(pc.invert(pc.equal(table["hand_id"], hand_id))), path)
    lost = path.with_name("part-1.parquet")
    pq.write_table(table.filter(pc.equal(table["hand_id"], hand_id)), lost)
    raw = lost.read_bytes()
    lost.write_bytes(raw[: len(raw) // 2])
    return lost.relative_to(logs).as_posix()


def test_a_hand_whose_hands_row_could_not_be_read_is_explained_as_quarantined(
    tmp_path: Path,
) -> None:
    """The events and results rows named the hand, its hands row was in a file that could
    not be read: explain said the log root had no such hand (exit 2), where replay
    quarantines it (schemas/README.md: such a hand is kept as a quarantined hand)."""
    logs = points_game(tmp_path / "logs")
    lost = lose_hands_row(logs, "GT-01")
    page = tmp_path / "hand.html"
    result = CliRunner().invoke(app, ["explain", "GT-01", str(logs), "--html", str(page)],
                                env=PLAIN)  # fmt: skip
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    said = (
        f"This hand could not be replayed: its hands row is not among the hands read: it may "
        f"be in {lost}, which could not be read."
    )
    assert said in text
    assert "Events recorded: 3 rows." in text
    assert (
        "Results recorded: P1 won, 0 points, amount 36.00; P2 lost, 40 points, amount -40.00."
        in text
    )
    html = page.read_text(encoding="utf-8")
    assert said in html
    assert "<p>Results recorded: P1 won, 0 points" in html


def test_a_game_whose_hands_row_could_not_be_read_names_the_unread_file(tmp_path: Path) -> None:
    """The game view said its hands table held no hand no. 1 (or none of its hands)
    without naming the hands file that could not be read (schemas/README.md)."""
    logs = points_game(tmp_path / "logs")
    lost = lose_hands_row(logs, "GT-01")
    result = CliRunner().invoke(app, ["explain", "GT", str(logs)], env=PLAIN)
    assert result.exit_code == 0, result.output
    assert (
        f"no hand no. 1 of it was read from the hands table (its rows may be in {lost}, "
        "which could not be read)" in flat(result.stdout)
    )


def test_a_hand_written_twice_names_both_rows_and_whether_they_differ(tmp_path: Path) -> None:
    """A hand id in two hands rows was told only "appears 2 times in hands": not which
    rows (replay's quarantine rows name each file and row) nor whether they differ."""
    logs = points_game(tmp_path / "logs")
    path = _hands_file(logs)
    table = pq.read_table(path)
    again = table.filter(pc.is_in(table["hand_id"], pa.array(["GT-01", "GT-02"]))).to_pylist()
    again[1]["wild_card"] = "7S"
    pq.write_table(pa.Table.from_pylist(again, schema=table.schema),
                   path.with_name("part-1.parquet"))  # fmt: skip
    folder = path.parent.relative_to(logs).as_posix()
    same = flat(CliRunner().invoke(app, ["explain", "GT-01", str(logs)], env=PLAIN).stdout)
    assert "This hand could not be replayed: hand GT-01 appears 2 times in hands." in same
    assert (
        f"Its 2 hands rows: {folder}/part-0.parquet row 0, {folder}/part-1.parquet row 0; "
        "they are the same in every column." in same
    )
    other = flat(CliRunner().invoke(app, ["explain", "GT-02", str(logs)], env=PLAIN).stdout)
    assert (
        f"Its 2 hands rows: {folder}/part-0.parquet row 1, {folder}/part-1.parquet row 1; "
        "they differ in wild_card." in other
    )
