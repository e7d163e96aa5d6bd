"""A damaged state folder (a file or folder the last committed night left missing, or one
that cannot be read) is refused on one line, exit 2, before anything is taken, and
nothing is committed (docs/nightly.md, "A damaged state folder")."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.nightly import night as night_module
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


TABLES = ("meta", "nights", "checks", "hands", "money", "suspicions", "files")


def database(state: Path) -> dict[str, list[tuple[object, ...]]]:
    with duckdb.connect(str(state / "history.duckdb"), read_only=True) as db:
        return {t: db.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in TABLES}


@contextmanager
def held(state: Path, tmp_path: Path) -> Iterator[None]:
    """history.duckdb open read-only in another process, as an analyst's query holds it
    (docs/nightly.md offers it for queries)."""
    ready = tmp_path / "holding"
    ready.unlink(missing_ok=True)
    code = ("import duckdb, pathlib, sys, time; db = duckdb.connect(sys.argv[1], read_only=True);"
            " pathlib.Path(sys.argv[2]).touch(); time.sleep(600)")  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-c", code, str(state / "history.duckdb"), str(ready)])
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert proc.poll() is None, "the reader could not open history.duckdb"
            assert time.monotonic() < deadline, "the reader never opened history.duckdb"
            time.sleep(0.02)
        yield
    finally:
        proc.kill()
        proc.wait()


def _status(state: Path, n: int) -> int:
    return int(json.loads((state / "nights" / f"{n:04d}" / "run.json").read_text())["exit_status"])


LEFT_BEHIND = "history.duckdb is open in another process (python"


def test_a_history_database_open_in_another_process_is_no_damage(
    after_first: tuple[Path, Path],
    two_nights: tuple[Path, Path],
    tmp_path: Path,
) -> None:
    """A blind tester's analyst held history.duckdb open read-only through a run: it exited
    2, "--state S is damaged". The database is a copy of history/: the night runs and is
    committed, the line says the database was not brought up (exit status the night's),
    and the next run with it closed brings it up to the rows of a run never locked. A run
    with nothing new over an open database that is up to date says nothing of it."""
    logs, committed = after_first
    state = tmp_path / "state"
    shutil.copytree(committed, state)
    with held(state, tmp_path):
        status, output = run(logs, state)
        assert json.loads((state / "state.json").read_text(encoding="utf-8"))["night"] == 2
        assert status == _status(state, 2), output
        assert output.startswith("Night 2: ")
        assert f"{LEFT_BEHIND}, PID " in output
        assert output.rstrip().endswith(
            "so it was not brought up to night 2: the next run brings it up to date once it "
            "is closed"
        )
        assert database(state)["meta"][0][1] == 1
    status, output = run(logs, state)
    assert (status, output.count("\n")) == (0, 1), output
    assert output.startswith("Nothing new since night 2: ")
    assert output.rstrip().endswith("history.duckdb was behind: brought up to night 2")
    assert database(state) == database(two_nights[1])
    with held(state, tmp_path):
        status, output = run(logs, state)
    assert status == 0
    assert output.rstrip().endswith("nothing committed"), output


def test_a_history_database_opened_during_the_run_is_no_damage(
    after_first: tuple[Path, Path],
    two_nights: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reader that opens history.duckdb after the night is committed: the run exited 2
    calling the state damaged, the night committed. It ends with the night's exit status
    and says the database was left behind; the next run brings it up."""
    logs, committed = after_first
    state = tmp_path / "state"
    shutil.copytree(committed, state)
    with ExitStack() as stack:
        def opened_at(name: str) -> None:
            if name == "committed":
                stack.enter_context(held(state, tmp_path))

        monkeypatch.setattr(night_module, "checkpoint", opened_at)
        status, output = run(logs, state)
        assert status == _status(state, 2), output
        assert output.startswith("Night 2: ")
        assert f"{LEFT_BEHIND}, PID " in output
        assert database(state)["meta"][0][1] == 1
    assert run(logs, state)[0] == 0
    assert database(state) == database(two_nights[1])


def test_a_history_database_removed_is_rebuilt_in_its_own_words(
    two_nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """history.duckdb deleted, as the docs advise for one that cannot be read: the run
    with nothing new rebuilds it and says so, exit 0 (a blind tester's run said the night
    "was committed by a run that stopped before it finished", which it was not, and exited
    1 again for it)."""
    logs, committed = two_nights
    state = tmp_path / "state"
    shutil.copytree(committed, state)
    (state / "history.duckdb").unlink()
    status, output = run(logs, state)
    assert status == 0, output
    assert "stopped before" not in output
    assert output.rstrip().endswith(
        "nothing committed; history.duckdb was missing: rebuilt from night 2's history/ and "
        "carry/seen.parquet"
    )
    assert database(state) == database(committed)


def test_a_history_database_damaged_after_the_commit_does_not_hide_the_night(
    after_first: tuple[Path, Path],
    two_nights: tuple[Path, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/nightly.md ("A damaged state folder"): history.duckdb is a copy of what is
    committed. One that cannot be read when the run brings it up to the night it has just
    committed does not hide that night: the line says the night and then the database's
    damage, and the run exits with the night's status (it exited 2 with the damage alone,
    and the night, committed, was never said). The next run refuses the state until the
    database is moved out; then it is rebuilt to the rows of a run never damaged."""
    logs, committed = after_first
    state = tmp_path / "state"
    shutil.copytree(committed, state)

    def damaged_at(name: str) -> None:
        if name == "committed":
            (state / "history.duckdb").write_bytes(b"not a database" * 100)

    monkeypatch.setattr(night_module, "checkpoint", damaged_at)
    status, output = run(logs, state)
    assert json.loads((state / "state.json").read_text(encoding="utf-8"))["night"] == 2
    assert status == _status(state, 2) != 2, output
    assert output.startswith("Night 2: ")
    assert "; history.duckdb was not brought up to night 2: history.duckdb cannot be read (" in (
        output)
    assert output.rstrip().endswith(
        "move history.duckdb out of the state folder and run again: it is rebuilt from the last "
        "night's history/ and carry/seen.parquet")
    monkeypatch.undo()
    status, output = run(logs, state)
    assert status == 2, output
    assert f"--state {state} is damaged: history.duckdb cannot be read (" in output
    (state / "history.duckdb").rename(tmp_path / "moved.duckdb")
    status, output = run(logs, state)
    assert status == 0, output
    assert database(state) == database(two_nights[1])
