"""``rummy-audit nightly`` with files the replay lists without reading them: one that no
table reads, refused (``hands/part-9.parquet.gz``, not Parquet; ``ledgers/x.parquet``, a
misspelled table folder), and a writer's own, skipped (``events/_temporary/...``). A
blind tester's night dropped all three silently: the night lists them exactly as
``replay`` does, on the night that first finds each at its path with its content, and
never takes them (docs/nightly.md, "Files no table reads")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from typer.testing import CliRunner

from audit.cli import app
from audit.run import replay_logs
from tests.nightly.conftest import FIRST, SECOND, Cut, night
from tests.nightly.nights import add_night
from tests.nightly.test_nightly import nightly_json, rows

GZ, MISFILED, ATTEMPT = (
    "hands/part-9.parquet.gz",
    "ledgers/x.parquet",
    "events/_temporary/attempt.parquet",
)
PLANTED = (GZ, MISFILED, ATTEMPT)


def plant(logs: Path, cut: Cut) -> None:
    """The blind tester's three files, beside night 1's."""
    (logs / GZ).write_bytes(b"\x1f\x8bnot really")
    (logs / MISFILED).parent.mkdir(parents=True)
    pq.write_table(cut.first["ledger"].slice(0, 3), logs / MISFILED)
    (logs / ATTEMPT).parent.mkdir(parents=True)
    pq.write_table(cut.first["events"].slice(0, 3), logs / ATTEMPT)


def cli_night(logs: Path, state: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["nightly", str(logs), "--state", str(state), "--workers", "1", "--no-progress"]
    )
    return result.exit_code, result.output


def run_json(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    return data


def about(folder: Path, paths: tuple[str, ...]) -> tuple[list[Any], list[Any], Any, Any]:
    """What ``folder``'s outputs say of ``paths``: their input.file findings and
    quarantine rows, and run.json's unreadable and skipped files."""
    listed = ", ".join(f"'{p}'" for p in paths)
    found = rows(folder / "findings.parquet", "SELECT * FROM FILE WHERE "
                 "\"check\" = 'input.file' AND message SIMILAR TO '.*(part-9|ledgers).*' "
                 "ORDER BY ALL")  # fmt: skip
    quarantined = rows(folder / "quarantine.parquet",
                       f"SELECT * FROM FILE WHERE file IN ({listed}) ORDER BY ALL")  # fmt: skip
    run = run_json(folder)
    unread = [f for f in run["unreadable_files"] if f["path"] in paths]
    skipped = [f for f in run["skipped_files"] if f["path"] in paths]
    return found, quarantined, unread, skipped


def test_files_no_table_reads_are_listed_by_the_night_as_replay_lists_them(
    cut: Cut, tmp_path: Path
) -> None:
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    plant(logs, cut)
    status, line = cli_night(logs, state)
    assert status in (0, 1), line
    replayed = tmp_path / "replayed"
    replay_logs(logs=logs, out=replayed, workers=1, progress=False, fairplay=False, rng=False)
    first = state / "nights" / "0001"
    found, quarantined, unread, skipped = about(first, PLANTED)
    assert (found, quarantined, unread, skipped) == about(replayed, PLANTED)
    assert len(found) == 2
    assert {q[1] for q in quarantined} == {GZ, MISFILED}
    assert [f["path"] for f in unread] == [GZ, MISFILED]
    assert skipped == [{"table": "events", "path": ATTEMPT}]
    assert line.startswith(f"Night 1: 2 input files could not be read ({GZ}, {MISFILED}). ")
    report = (first / "report.html").read_text(encoding="utf-8")
    assert all(path in report for path in PLANTED)
    files = nightly_json(first)["files"]
    assert [(f["path"], f["kind"]) for f in files["listed"]] == [
        (ATTEMPT, "skipped"), (GZ, "refused"), (MISFILED, "refused")
    ]
    assert not {f["path"] for f in files["taken"]} & set(PLANTED)  # none is taken

    # Listed once: the next night does not list them again, unless one changed.
    add_night(logs, cut.second, SECOND)
    night(logs, state)
    second = state / "nights" / "0002"
    assert about(second, PLANTED) == ([], [], [], [])
    files = nightly_json(second)["files"]
    assert (files["listed"], files["listed_before"]) == ([], 3)

    # A writer's own file alone makes no night: the line names it.
    (logs / "events" / "_temporary" / "1").mkdir()
    shutil.copy(logs / ATTEMPT, logs / "events" / "_temporary" / "1" / "b.parquet")
    status, line = cli_night(logs, state)
    assert status == 0
    assert "1 writer's own file not read (events/_temporary/1/b.parquet)" in line
    assert "nothing committed" in line

    # A refused file changed makes a night, which lists it and the new attempt; the
    # misfiled ledger moved where it belongs is audited (never taken: its bytes are new).
    (logs / GZ).write_bytes(b"\x1f\x8bother bytes")
    status, line = cli_night(logs, state)
    assert line.startswith(f"Night 3: 1 input file could not be read ({GZ}). 0 new files"), line
    third = state / "nights" / "0003"
    found, quarantined, unread, skipped = about(third, (*PLANTED, "events/_temporary/1/b.parquet"))
    assert [f["path"] for f in unread] == [GZ]
    assert [f["path"] for f in skipped] == ["events/_temporary/1/b.parquet"]
    moved = logs / "ledger" / "moved" / "x.parquet"
    moved.parent.mkdir()
    shutil.move(logs / MISFILED, moved)
    fourth = night(logs, state)
    assert fourth.taken == 1
    taken = nightly_json(state / "nights" / "0004")["files"]["taken"]
    assert [f["path"] for f in taken] == ["ledger/moved/x.parquet"]
