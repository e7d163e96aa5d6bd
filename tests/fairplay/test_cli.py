"""The detectors in the nightly job and on their own: `replay` runs them (`--no-fairplay`
skips them and says so), `fairplay` runs them over a replay of the same logs, replacing its
own rows, and refuses in one line when OUT holds no replay or a replay of other logs."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.fairplay.night import run_detectors
from audit.fairplay.source import open_night
from audit.run import open_log_root
from audit.sim import simulate

runner = CliRunner()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fp-cli") / "logs"
    simulate(games=600, out=root, seed=5, anomalies="fairplay", workers=1)
    return root


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def fairplay_rows(out: Path) -> list[dict[str, object]]:
    rows = pq.read_table(out / "findings.parquet").to_pylist()
    return [r for r in rows if str(r["check"]).startswith("fairplay.")]


def test_the_nightly_job_runs_the_detectors(logs: Path, tmp_path: Path) -> None:
    code, output = run("replay", str(logs), "--out", str(tmp_path / "out"), "--workers", "1")
    assert code == 1, output  # the planted bots are major
    run_json = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run_json["fairplay"]["status"] == "run"
    checks = {d["check"] for d in run_json["fairplay"]["detectors"]}
    assert checks == {"fairplay.co_seating", "fairplay.shared_device", "fairplay.collusion",
                      "fairplay.soft_drop", "fairplay.chip_dumping", "fairplay.loss_dumping",
                      "fairplay.bot", "fairplay.ring"}  # fmt: skip
    suspicions = pq.read_table(tmp_path / "out" / "suspicions.parquet").num_rows
    assert suspicions == run_json["fairplay"]["suspicions"] > 0
    assert f"fair play {suspicions} suspicions" in output
    assert len(fairplay_rows(tmp_path / "out")) == suspicions


def test_no_fairplay_says_not_run_and_leaves_no_stale_suspicions(
    logs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    run("replay", str(logs), "--out", str(out), "--workers", "1")
    code, output = run("replay", str(logs), "--out", str(out), "--workers", "1", "--no-fairplay")
    assert "fair play not run" in output
    assert not (out / "suspicions.parquet").exists()
    assert json.loads((out / "run.json").read_text())["fairplay"]["status"] == "not run"
    assert fairplay_rows(out) == []
    assert code in (0, 1)


def test_fairplay_alone_replaces_its_rows_and_twice_changes_nothing(
    logs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    run("replay", str(logs), "--out", str(out), "--workers", "1", "--no-fairplay")
    replayed = pq.read_table(out / "findings.parquet").num_rows
    code, output = run("fairplay", str(logs), "--out", str(out))
    assert code == 1, output
    first = (out / "findings.parquet").read_bytes()
    suspicions = pq.read_table(out / "suspicions.parquet").num_rows
    assert pq.read_table(out / "findings.parquet").num_rows == replayed + suspicions
    code, output = run("fairplay", str(logs), "--out", str(out))
    assert (out / "findings.parquet").read_bytes() == first
    assert json.loads((out / "run.json").read_text())["fairplay"]["status"] == "run"
    # run.json records the --fail-on that decided the exit status, this command's
    code, output = run("fairplay", str(logs), "--out", str(out), "--fail-on", "critical")
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["worst_severity"] == "major"
    assert (code, manifest["exit_status"], manifest["arguments"]["fail_on"]) == (0, 0, "critical")
    # the same as the nightly job's own
    run("replay", str(logs), "--out", str(tmp_path / "nightly"), "--workers", "1")
    assert (tmp_path / "nightly" / "findings.parquet").read_bytes() == first


def test_fairplay_refuses_an_out_without_a_replay(logs: Path, tmp_path: Path) -> None:
    code, output = run("fairplay", str(logs), "--out", str(tmp_path / "empty"))
    assert code == 2
    assert output.count("\n") == 1
    assert "holds no replay" in output
    assert "rummy-audit replay" in output


def test_fairplay_refuses_a_replay_of_other_logs(logs: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run("replay", str(logs), "--out", str(out), "--workers", "1", "--no-fairplay")
    other = tmp_path / "other"
    shutil.copytree(logs, other)
    victim = sorted((other / "sessions").rglob("*.parquet"))[0]
    victim.unlink()
    code, output = run("fairplay", str(other), "--out", str(out))
    assert code == 2
    assert "other logs" in output


def test_fairplay_refuses_a_replay_whose_refused_file_was_replaced(
    logs: Path, tmp_path: Path
) -> None:
    """schemas/output.md: run.json's `unreadable_files` carry each refused file's size and
    sha256, so a refused file replaced by other bytes is other logs, as a good file's
    would be (a blind tester: fairplay and rng ran over the old folder)."""
    root = tmp_path / "logs"
    shutil.copytree(logs, root)
    junk = root / "sessions" / "junk.parquet"
    junk.write_bytes(b"PAR1 not parquet")
    out = tmp_path / "out"
    run("replay", str(root), "--out", str(out), "--workers", "1", "--no-fairplay")
    (refused,) = json.loads((out / "run.json").read_text())["unreadable_files"]
    assert (refused["path"], refused["size"]) == ("sessions/junk.parquet", 16)
    assert refused["sha256"] == hashlib.sha256(b"PAR1 not parquet").hexdigest()
    junk.write_bytes(b"PAR1 other junk!")
    code, output = run("fairplay", str(root), "--out", str(out))
    assert code == 2
    assert "other logs" in output


def test_seats_built_in_passes_are_the_same_seats_and_suspicions(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large night's seats are built in passes, each over a part of its games
    (audit/fairplay/source.py; ``duck.HANDS_PER_PASS`` hands a pass): the same rows, and
    the same suspicions, as in one pass."""
    out = tmp_path / "out"
    run("replay", str(logs), "--out", str(out), "--workers", "1", "--no-fairplay")
    log = open_log_root(logs)

    def seats(work: Path) -> list[tuple[object, ...]]:
        work.mkdir()
        con = duckdb.connect()
        open_night(con, log, out, work)
        rows = con.sql("SELECT * FROM seat ORDER BY hand_id, pos").fetchall()
        con.close()
        return rows

    whole, whole_found = seats(tmp_path / "whole"), run_detectors(log, out)
    monkeypatch.setattr("audit.duck.HANDS_PER_PASS", 97)
    assert seats(tmp_path / "passes") == whole
    assert len(list((tmp_path / "passes" / "seat").glob("*.parquet"))) > 10
    assert len({r[0] for r in whole}) > 10 * 97  # every hand with its seats, in either
    assert run_detectors(log, out) == whole_found
    assert whole_found.suspicions


def test_a_detector_that_runs_out_of_memory_is_named_in_one_line(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DuckDB error in a detector stops the fair-play pass with one line (exit 2) that
    names the detector: "could not run: Out of Memory Error" alone left an investigator
    to guess which of seven to look at."""
    out = tmp_path / "out"
    run("replay", str(logs), "--out", str(out), "--workers", "1", "--no-fairplay")

    def out_of_memory(con: duckdb.DuckDBPyConnection, settings: object) -> None:
        raise duckdb.OutOfMemoryException("Out of Memory Error: failed to allocate data")

    out_of_memory.__name__ = "soft_drop"
    import audit.fairplay.night as night

    detectors = tuple(out_of_memory if d.__name__ == "soft_drop" else d
                      for d in night.PAIR_DETECTORS)  # fmt: skip
    monkeypatch.setattr(night, "PAIR_DETECTORS", detectors)
    code, output = run("fairplay", str(logs), "--out", str(out))
    assert code == 2
    assert output.strip().splitlines()[-1] == (
        "rummy-audit: error: the fair-play detectors could not run (soft_drop): Out of "
        "Memory Error: failed to allocate data"
    )
