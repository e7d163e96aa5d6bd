"""A damaged state folder (a file or folder the last committed night left missing, or one
that cannot be read) is refused on one line, exit 2, before anything is taken, and
nothing is committed (docs/nightly.md, "A damaged state folder")."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from tests.nightly.conftest import FIRST, SECOND, Cut, night
from tests.nightly.nights import add_night


@pytest.fixture(scope="module")
def after_first(cut: Cut, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The log root with both nights' files, and the state after the first night only (it
    carries the games running at the cut)."""
    root = tmp_path_factory.mktemp("damaged")
    logs, state = root / "logs", root / "state"
    add_night(logs, cut.first, FIRST)
    assert night(logs, state).night == 1
    add_night(logs, cut.second, SECOND)
    return logs, state


def run(logs: Path, state: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["nightly", str(logs), "--state", str(state), "--workers", "1", "--no-progress"]
    )
    return result.exit_code, result.output


CARRY = Path("nights/0001/carry")


def _cut_short(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:100])


DAMAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    # a blind tester: every file taken again as new, committed, then a traceback for ever
    "seen missing": (
        lambda s: (s / CARRY / "seen.parquet").unlink(),
        f"{CARRY}/seen.parquet is missing",
    ),
    "carry missing": (
        lambda s: shutil.rmtree(s / CARRY),
        f"{CARRY}/, what the night left the next, is missing",
    ),
    # a blind tester: the running games judged without their earlier hands, committed
    "carried rows missing": (
        lambda s: shutil.rmtree(s / CARRY / "logs"),
        f"{CARRY}/logs/, the rows of the games it carried, is missing",
    ),
    "a carried table missing": (
        lambda s: shutil.rmtree(s / CARRY / "logs" / "hands"),
        f"{CARRY}/logs/ holds 0 carried hands rows, not the ",
    ),
    # the next night would judge table.limit without the seats before the cut
    "seats missing": (
        lambda s: (s / CARRY / "seats.parquet").unlink(),
        f"{CARRY}/seats.parquet is missing",
    ),
    "seats emptied": (
        lambda s: pq.write_table(pq.read_table(s / CARRY / "seats.parquet").slice(0, 0),
                                 s / CARRY / "seats.parquet"),
        f"{CARRY}/seats.parquet holds 0 seats, not the ",
    ),
    "seats cut short": (
        lambda s: _cut_short(s / CARRY / "seats.parquet"),
        f"{CARRY}/seats.parquet cannot be read (",
    ),
    "history table missing": (
        lambda s: (s / "nights/0001/history/checks.parquet").unlink(),
        "nights/0001/history/checks.parquet is missing",
    ),
    # a blind tester: a pyarrow traceback, exit 1 (findings), not exit 2
    "seen cut short": (
        lambda s: _cut_short(s / CARRY / "seen.parquet"),
        f"{CARRY}/seen.parquet cannot be read (",
    ),
    "running cut short": (
        lambda s: _cut_short(s / CARRY / "running.parquet"),
        f"{CARRY}/running.parquet cannot be read (",
    ),
    "nightly.json not JSON": (
        lambda s: (s / "nights/0001/nightly.json").write_text("{", encoding="utf-8"),
        "nights/0001/nightly.json cannot be read (",
    ),
    # a blind tester: a DuckDB traceback, exit 1
    "database not a database": (
        lambda s: (s / "history.duckdb").write_text("garbage\n", encoding="utf-8"),
        "history.duckdb cannot be read (",
    ),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_state_folder_is_one_line_and_commits_nothing(
    after_first: tuple[Path, Path], tmp_path: Path, damage: str
) -> None:
    logs, committed = after_first
    state = tmp_path / "state"
    shutil.copytree(committed, state)
    harm, said = DAMAGES[damage]
    harm(state)
    status, output = run(logs, state)
    assert status == 2, output
    assert output.count("\n") == 1
    assert output.startswith(f"rummy-audit: error: --state {state} is damaged: {said}"), output
    assert "Traceback" not in output
    assert json.loads((state / "state.json").read_text(encoding="utf-8"))["night"] == 1
    assert not (state / "nights" / "0002").exists()
    if damage != "database not a database":
        assert output.rstrip().endswith(
            "restore the state folder from a backup, or start a new state folder"
        )
        with duckdb.connect(str(state / "history.duckdb"), read_only=True) as db:
            assert db.execute("SELECT night FROM meta").fetchall() == [(1,)]


def test_a_history_database_moved_out_is_rebuilt(
    after_first: tuple[Path, Path], tmp_path: Path
) -> None:
    """The message for a history.duckdb that cannot be read says to move it out: the next
    run rebuilds it from the last night's history/ and carry/seen.parquet, every night and
    every file taken in it."""
    logs, committed = after_first
    state = tmp_path / "state"
    shutil.copytree(committed, state)
    (state / "history.duckdb").write_text("garbage\n", encoding="utf-8")
    status, output = run(logs, state)
    assert status == 2, output
    assert "move history.duckdb out of the state folder and run again" in output
    (state / "history.duckdb").unlink()
    assert night(logs, state).night == 2
    with duckdb.connect(str(state / "history.duckdb"), read_only=True) as db:
        assert db.execute("SELECT night FROM nights ORDER BY 1").fetchall() == [(1,), (2,)]
        assert db.execute("SELECT count(*), count(DISTINCT sha256) FROM files").fetchall() == [
            (14, 14)
        ]
