"""What a file taken by ``rummy-audit nightly`` is known by from night to night
(``inputs.identity``): a file the replay reads, by its table and content; a file it
refuses, by its path and content (docs/nightly.md, "What is new: files known by their
content"). A blind tester's misfiled file, moved to its own table's folder, was "seen on
earlier nights" and its hands never audited; and empty files of a later night were "seen"
or "same as another", never reported, the night's money a part of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.nightly.history import HISTORY_VERSION, sync_database
from audit.run import replay_logs
from tests.nightly.conftest import FIRST, SECOND, Cut, night
from tests.nightly.nights import add_night
from tests.nightly.test_listed import run_json
from tests.nightly.test_nightly import LEAVE_OUT, nightly_json, rows
from tests.nightly.test_refused import cli_night, money


@pytest.mark.parametrize(("table", "folder"), [("results", "hands"), ("ledger", "events")])
def test_a_file_refused_in_another_tables_folder_is_audited_once_moved_to_its_own(
    cut: Cut, tmp_path: Path, table: str, folder: str
) -> None:
    """Night 1's results file sits in ``hands/`` (its ledger file in ``events/``): the
    replay refuses it there, and the hands are quarantined without their results (the
    games left unchecked without their ledger). Night 2 it is moved where it belongs, the
    same bytes: it is a new file of its table, taken and audited, and the games of night 1
    are judged again with it, as one replay of the log root judges them."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    right = f"{table}/date={FIRST}/part-0.parquet"
    wrong = f"{folder}/date={FIRST}/{table}-misfiled.parquet"
    shutil.move(logs / right, logs / wrong)
    status, line = cli_night(logs, state)
    assert status == 1, line
    assert line.startswith(f"Night 1: 1 input file could not be read ({wrong}). "), line

    shutil.move(logs / wrong, logs / right)
    status, line = cli_night(logs, state)
    assert line.startswith("Night 2: 1 new file, "), line
    second = state / "nights" / "0002"
    files = nightly_json(second)["files"]
    assert [f["path"] for f in files["taken"]] == [right]
    assert run_json(second)["unreadable_files"] == []
    judged = {g for (g,) in rows(second / "hands.parquet", "SELECT DISTINCT game_id FROM FILE")}
    assert judged  # the games of night 1 are audited again, with the file

    replayed = tmp_path / "replayed"
    replay_logs(logs=logs, out=replayed, workers=1, progress=False, fairplay=False, rng=False)
    hands = "SELECT hand_id, status FROM FILE WHERE game_id IN $games ORDER BY ALL"
    assert rows(second / "hands.parquet", hands, games=sorted(judged)) == rows(
        replayed / "hands.parquet", hands, games=sorted(judged)
    )
    found = (f"SELECT \"check\", game_id, hand_id, severity FROM FILE WHERE {LEAVE_OUT} "
             "AND game_id IN $games ORDER BY ALL")  # fmt: skip
    assert rows(second / "findings.parquet", found, games=sorted(judged)) == rows(
        replayed / "findings.parquet", found, games=sorted(judged)
    )
    status, line = cli_night(logs, state)
    assert line.startswith("Nothing new since night 2: 0 new files, "), line


def test_an_unreadable_file_is_reported_at_every_new_path_whatever_its_bytes_share(
    cut: Cut, tmp_path: Path
) -> None:
    """An empty results file on night 1; on night 2 two more empty results files and an
    empty ledger file. Each is a file the platform failed to write: night 2 reports the
    three, none "seen on earlier nights" (night 1's has their bytes) nor "same as another",
    as a replay of night 2's files alone reports them, and its money is not known (a
    ledger file could not be read). The same empty file at the same path is not reported
    again; moved to a new path, it is."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    (logs / "results" / f"date={FIRST}" / "empty.parquet").touch()
    night(logs, state)

    add_night(logs, cut.second, SECOND)
    empty = [f"ledger/date={SECOND}/empty.parquet",
             f"results/date={SECOND}/empty-a.parquet",
             f"results/date={SECOND}/empty-b.parquet"]  # fmt: skip
    for path in empty:
        (logs / path).touch()
    status, line = cli_night(logs, state)
    assert status == 1, line
    named = ", ".join([*empty[1:], empty[0]])  # as replay names them: in table order
    assert line.startswith(f"Night 2: 3 input files could not be read ({named}). "
                           "10 new files, 8 seen on earlier nights; "), line  # fmt: skip
    second = state / "nights" / "0002"
    files = nightly_json(second)["files"]
    assert files["duplicates"] == []
    unread = sorted(f["path"] for f in run_json(second)["unreadable_files"])
    assert unread == empty

    alone = tmp_path / "alone"
    for path in [*(f"{t}/date={SECOND}/part-0.parquet" for t in cut.second), *empty]:
        (alone / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(logs / path, alone / path)
    replayed = tmp_path / "replayed"
    replay_logs(logs=alone, out=replayed, workers=1, progress=False, fairplay=False, rng=False)
    assert unread == sorted(f["path"] for f in run_json(replayed)["unreadable_files"])
    refused = "SELECT file FROM FILE WHERE \"check\" = 'input.file' ORDER BY ALL"
    assert rows(second / "quarantine.parquet", refused) == [(p,) for p in empty]
    assert rows(replayed / "quarantine.parquet", refused) == [(p,) for p in empty]
    assert money(second)[(2, "staked")] == (None, None)

    status, line = cli_night(logs, state)
    assert line.startswith("Nothing new since night 2: 0 new files, 18 seen on earlier "), line
    moved = logs / "results" / "moved" / "empty.parquet"
    moved.parent.mkdir()
    shutil.move(logs / empty[1], moved)
    status, line = cli_night(logs, state)
    assert line.startswith("Night 3: 1 input file could not be read (results/moved/empty.parquet"
                           "). 1 new file, "), line  # fmt: skip


VERSION_1_FILES = """
CREATE TABLE meta (history_version INTEGER NOT NULL, night INTEGER NOT NULL);
CREATE TABLE files (sha256 VARCHAR PRIMARY KEY, "table" VARCHAR, path VARCHAR, size BIGINT,
  night INTEGER, status VARCHAR);
INSERT INTO meta VALUES (1, 1);
INSERT INTO files VALUES ('e3b0', 'results', 'results/a.parquet', 0, 1, 'new');
"""


def test_a_history_database_keyed_by_the_hash_is_brought_up_with_files_taken_twice(
    tmp_path: Path,
) -> None:
    """A history database of version 1 keyed ``files`` by the hash alone: an empty file
    taken on night 1 and another on night 2 (``carry/seen.parquet`` of an older
    rummy-audit, without ``refused``) would break it. Brought up, its ``files`` is made
    again from the last night's seen files, keyed by night and path, once."""
    database, seen = tmp_path / "history.duckdb", tmp_path / "seen.parquet"
    with duckdb.connect(str(database)) as db:
        db.execute(VERSION_1_FILES)
    taken = [{"sha256": "e3b0", "table": "results", "path": f"results/{p}.parquet", "size": 0,
              "night": n, "status": "new"} for n, p in ((1, "a"), (2, "b"))]  # fmt: skip
    pq.write_table(pa.Table.from_pylist(taken), seen)
    for _ in range(2):  # idempotent
        sync_database(database, None, 2, seen)
    with duckdb.connect(str(database), read_only=True) as db:
        assert db.execute("SELECT night, path, refused FROM files ORDER BY ALL").fetchall() == [
            (1, "results/a.parquet", None), (2, "results/b.parquet", None)
        ]
        assert db.execute("SELECT * FROM meta").fetchall() == [(HISTORY_VERSION, 2)]
