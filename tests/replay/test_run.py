"""End to end: bad input in a batch, unusable log roots, determinism, the exit status."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import audit.games.tables as tables
import audit.run as run_module
from audit.cli import app
from audit.run import fairplay_logs, replay_logs
from audit.sim import simulate
from tests.logs.logbuilder import LogBuilder, write_table
from tests.replay.cases import CASES, base
from tests.replay.parquet import builder_for, write_log
from tests.replay.scenario import scenario

runner = CliRunner()


def clean_hands(n: int, game_id: str = "G1") -> list:  # type: ignore[type-arg]
    pairs = []
    for i in range(n):
        game, hand = scenario(**base(hand_id=f"H{i + 1}", game_id=game_id))
        hand.hand_no = i + 1
        pairs.append((game, hand))
    return pairs


def read(out: Path, name: str) -> list[dict]:  # type: ignore[type-arg]
    return pq.read_table(out / name).to_pylist()


def test_bad_input_is_quarantined_and_every_good_hand_is_still_verified(tmp_path: Path) -> None:
    """A table file missing a column, a corrupt Parquet file, an unknown card code, a hand
    without results, a duplicated hand id and a gap in seq: each gets its quarantine row
    with the reason, and the good hands of the same batch are verified."""
    logs = builder_for(tmp_path / "logs", clean_hands(8))
    rows = logs.rows
    # H2: an unknown card code in an event.
    next(e for e in rows["events"] if e["hand_id"] == "H2" and e["seq"] == 0)["card"] = "ZZ"
    # H3: no results.
    rows["results"] = [r for r in rows["results"] if r["hand_id"] != "H3"]
    # H4: the hands row twice.
    rows["hands"].append(dict(next(h for h in rows["hands"] if h["hand_id"] == "H4")))
    # H5: a gap in seq.
    rows["events"] = [e for e in rows["events"] if not (e["hand_id"] == "H5" and e["seq"] == 1)]
    # H6: its results are in a second file that lacks the points column.
    h6 = [r for r in rows["results"] if r["hand_id"] == "H6"]
    rows["results"] = [r for r in rows["results"] if r["hand_id"] != "H6"]
    root = logs.write()
    table = pa.Table.from_pylist([{k: v for k, v in r.items() if k != "points"} for r in h6])
    write_table(root, "results", table, "date=2026-11-29/part-1.parquet")
    # A corrupt file among the events.
    (root / "events" / "date=2026-11-29" / "broken.parquet").write_bytes(b"not parquet at all")

    # its hands deal one shoe, which the shuffle tests would rightly call repeated
    summary = replay_logs(logs=root, out=tmp_path / "out", workers=1, progress=False, rng=False)
    hands = {h["hand_id"]: h for h in read(tmp_path / "out", "hands.parquet")}
    assert sorted(hands) == [f"H{i}" for i in range(1, 9)]
    status = {h: hands[h]["status"] for h in hands}
    assert status == {
        "H1": "verified", "H2": "quarantined", "H3": "quarantined", "H4": "quarantined",
        "H5": "quarantined", "H6": "quarantined", "H7": "verified", "H8": "verified",
    }  # fmt: skip
    reasons = {h: hands[h]["reason"] for h in hands if hands[h]["reason"]}
    assert "'ZZ' is not a card code" in reasons["H2"]
    assert "no results" in reasons["H3"]
    assert "has results rows in results/date=2026-11-29/part-1.parquet" in reasons["H6"]
    assert "2 times" in reasons["H4"]
    assert "seq" in reasons["H5"]
    quarantine = read(tmp_path / "out", "quarantine.parquet")
    files = {(q["table"], q["file"]) for q in quarantine if q["check"] == "input.file"}
    assert files == {
        ("events", "events/date=2026-11-29/broken.parquet"),
        ("results", "results/date=2026-11-29/part-1.parquet"),
    }
    missing = next(q for q in quarantine if q["table"] == "results" and q["check"] == "input.file")
    assert "points" in missing["reason"]
    assert {q["hand_id"] for q in quarantine} >= {"H2", "H3", "H4", "H5", "H6"}
    findings = read(tmp_path / "out", "findings.parquet")
    # the games of the quarantined hands are not judged on them (game.unchecked, info);
    # the builder's ledger and sessions hold no row (check.skipped, info)
    assert {f["check"] for f in findings} == {"input.file", "input.row", "input.hand",
                                              "game.unchecked", "check.skipped"}  # fmt: skip
    # the bad event's finding names its seq and player (schemas/output.md: seq is "the
    # events.seq of the finding's hand where the finding is about a hand's event"; both were
    # null: a blind tester)
    (card,) = [f for f in findings if f["check"] == "input.row" and f["hand_id"] == "H2"]
    h2 = next(e for e in rows["events"] if e["hand_id"] == "H2" and e["seq"] == 0)
    assert (card["seq"], card["player_id"]) == (0, h2["player_id"])
    assert summary.exit_status == 1  # input.* findings are major: the night did not fully verify


def test_two_runs_give_byte_identical_findings_and_hands(tmp_path: Path) -> None:
    pairs = []
    for i, case in enumerate(CASES):
        game, hand = scenario(**{**case.kwargs, "hand_id": f"H{i:02d}", "game_id": f"G{i:02d}"})
        pairs.append((game, hand))
    logs = write_log(tmp_path / "logs", pairs, split_events_into=4, shuffle_files=True)
    digests = []
    for run, workers in (("a", 1), ("b", 2)):
        replay_logs(logs=logs, out=tmp_path / run, workers=workers, progress=False)
        digests.append(
            [
                hashlib.sha256((tmp_path / run / name).read_bytes()).hexdigest()
                for name in ("findings.parquet", "hands.parquet", "quarantine.parquet",
                             "suspicions.parquet", "pile.parquet", "drops.parquet",
                             "rng.parquet")
            ]
        )  # fmt: skip
    assert digests[0] == digests[1]
    rules = [
        f for f in read(tmp_path / "a", "findings.parquet")
        if f["check"][:9] != "fairplay." and f["check"][:4] != "rng."
        and f["check"] != "check.skipped"  # the builder's empty ledger and sessions
    ]  # fmt: skip
    assert len(rules) == sum(1 for c in CASES if c.expect)


def test_summary_line_says_weak_shuffle_evidence_apart_as_the_report_does() -> None:
    """docs/rng.md: `suspect` (info) is weak evidence, `biased` (minor or worse) a failed
    test; the report says "No test failed. 1 shows weak evidence (info)", and the summary
    line said "1 failed checks" of the same run (a blind tester)."""
    from audit.run import _Tally, shuffle_words

    tally = _Tally.of_rows([("rng.adjacent", "info", 1), ("rng.repeat", "major", 2),
                            ("score.points", "info", 4)])  # fmt: skip
    assert tally.rng_weak == 1
    checks = sum(n for c, n in tally.by_check.items() if c.startswith("rng."))
    assert shuffle_words(True, 9, checks, tally.rng_weak) == (
        "2 failed checks, 1 with weak evidence (info)"
    )
    assert shuffle_words(True, 9, 1, 1) == "0 failed checks, 1 with weak evidence (info)"


def test_a_failed_replay_says_the_out_folder_holds_an_earlier_runs_outputs(
    tmp_path: Path,
) -> None:
    """audit-output.md: exit 2, the run could not be done. A folder an earlier run wrote is
    left as it was, and the one-line error says its outputs are not this run's (a blind
    tester: a nightly job reusing one folder showed the night before's clean report on the
    night every file was broken); into a new folder the error is as before."""
    clean = write_log(tmp_path / "clean", clean_hands(1))
    out = tmp_path / "out"
    assert runner.invoke(app, ["replay", str(clean), "--out", str(out), "--no-rng",
                               "--no-fairplay"]).exit_code == 0  # fmt: skip
    missing = tmp_path / "gone"
    failed = runner.invoke(app, ["replay", str(missing), "--out", str(out)])
    assert failed.exit_code == 2
    assert failed.output.count("\n") == 1
    assert failed.output.rstrip().endswith(
        f"; {out} still holds an earlier run's outputs (run.json, report.html), not this run's")
    fresh = runner.invoke(app, ["replay", str(missing), "--out", str(tmp_path / "new")])
    assert fresh.exit_code == 2
    assert "earlier run" not in fresh.output


def test_replay_command_exit_status_and_summary(tmp_path: Path) -> None:
    """Exit 0 with nothing at or above --fail-on, 1 with findings at or above it."""
    clean = write_log(tmp_path / "clean", clean_hands(2))
    no_rng = ["replay", str(clean), "--out", str(tmp_path / "o1"), "--no-rng"]
    result = runner.invoke(app, no_rng)
    assert result.exit_code == 0, result.output
    # the builder writes the ledger and sessions with no row: the night says their checks
    # were skipped (check.skipped, info), never that they passed
    assert "2 hands: 2 verified, 0 with discrepancies, 0 quarantined; 2 findings, worst info" in (
        result.output
    )
    assert "shuffle not run" in result.output
    assert (tmp_path / "o1" / "report.html").exists()
    assert (tmp_path / "o1" / "run.json").exists()
    assert not (tmp_path / "o1" / "rng.parquet").exists()
    # the two hands deal the very same shoe: the shuffle tests call it a repeat (major)
    result = runner.invoke(app, ["replay", str(clean), "--out", str(tmp_path / "o1")])
    assert result.exit_code == 1, result.output
    assert "shuffle 1 failed checks" in result.output
    (repeat,) = [f for f in read(tmp_path / "o1", "findings.parquet")
                 if f["check"] != "check.skipped"]  # fmt: skip
    assert (repeat["check"], repeat["severity"], repeat["hand_id"]) == ("rng.repeat", "major", "H1")
    assert "H2 repeats H1" in repeat["recorded"]

    broken = next(c for c in CASES if c.name == "score.amount")
    game, hand = scenario(**broken.kwargs)
    logs = write_log(tmp_path / "broken", [(game, hand)])
    args = ["replay", str(logs), "--out", str(tmp_path / "o2")]
    assert runner.invoke(app, args).exit_code == 1  # major >= the default --fail-on major
    assert runner.invoke(app, [*args, "--fail-on", "critical"]).exit_code == 0


def test_run_json_counts_each_game_once_running_and_unchecked_apart(tmp_path: Path) -> None:
    """schemas/output.md, run.json ``counts.games``: the games the hands and the game-level
    findings name, each once (a blind tester, b36: run.json and the report counted hands
    only, never the games whose game-level checks ran). A games row with no hand is
    counted by its ``game.unchecked``, a running game by its ``game.running``."""
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand().quick_hand()
    logs.game("g2", ended_at=None).quick_hand()
    logs.game("g3")  # ended, and the hands table holds none of its hands
    replay_logs(logs=logs.write(), out=tmp_path / "out", workers=1, progress=False,
                fairplay=False, rng=False)  # fmt: skip
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["counts"]["games"] == {"total": 3, "running": 1, "unchecked": 1}
    assert run["counts"]["hands_total"] == 3


def test_an_unusable_log_root_is_one_line_and_exit_2(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", clean_hands(1))
    for name in (logs / "events").rglob("*.parquet"):
        name.unlink()
    result = runner.invoke(app, ["replay", str(logs), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert result.output.startswith("rummy-audit: error:")
    assert "events" in result.output


def test_a_newer_schema_version_stops_the_run_with_exit_2(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", clean_hands(1))
    path = next((logs / "games").rglob("*.parquet"))
    table = pq.read_table(path)
    table = table.replace_schema_metadata({"rummy_audit.schema_version": "3"})
    pq.write_table(table, path)
    result = runner.invoke(app, ["replay", str(logs), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "schema version 3" in result.output


def test_an_event_the_replay_cannot_read_quarantines_its_hand(tmp_path: Path) -> None:
    """A draw without its card or a declaration without its groups is not guessed at: the
    hand is quarantined with the reason, the others are verified."""
    logs = builder_for(tmp_path / "logs", clean_hands(3))
    rows = logs.rows["events"]
    next(e for e in rows if e["hand_id"] == "H1" and e["action"] == "draw_stock")["card"] = None
    next(e for e in rows if e["hand_id"] == "H2" and e["action"] == "declare")["groups"] = None
    replay_logs(logs=logs.write(), out=tmp_path / "out", workers=1, progress=False)
    hands = {h["hand_id"]: h for h in read(tmp_path / "out", "hands.parquet")}
    assert [hands[h]["status"] for h in ("H1", "H2", "H3")] == [
        "quarantined",
        "quarantined",
        "verified",
    ]
    assert hands["H1"]["reason"] == "hand H1 event 0 (draw_stock) has no card"
    assert hands["H2"]["reason"] == "hand H2 event 1 (declare) has no groups"


# ------------------------------------------------------------ --out and staging


def test_a_log_root_that_cannot_be_read_leaves_no_out_folder(tmp_path: Path) -> None:
    """The log root is opened and checked before OUT is created: a run that cannot be done
    leaves nothing behind."""
    logs = write_log(tmp_path / "logs", clean_hands(1))
    for name in (logs / "events").rglob("*.parquet"):
        name.unlink()
    for root in (logs, tmp_path / "no-such-folder"):
        out = tmp_path / f"out-{root.name}"
        result = runner.invoke(app, ["replay", str(root), "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1
        assert not out.exists()


def test_an_out_folder_that_is_or_is_inside_the_log_root_is_refused(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "logs", clean_hands(1))
    before = sorted(logs.rglob("*"))
    for out, why in (
        (logs, "is the log root"),
        (logs / "out", "is inside the log root"),
        (logs / "games" / "deeper" / "out", "is inside the log root"),
        (tmp_path / "elsewhere" / ".." / "logs" / "out", "is inside the log root"),
    ):
        result = runner.invoke(app, ["replay", str(logs), "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1
        assert result.output.startswith("rummy-audit: error: --out ")
        assert why in result.output
    assert sorted(logs.rglob("*")) == before  # nothing written into the log root


def test_an_out_folder_that_cannot_be_made_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Under a file, or where the system refuses a folder: the run cannot be done (exit 2),
    said in one line naming the folder, no traceback."""
    logs = write_log(tmp_path / "logs", clean_hands(1))
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" / "sub"
    result = runner.invoke(app, ["replay", str(logs), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.output == f"rummy-audit: error: Not a directory: {out}\n"


def test_running_out_of_memory_after_staging_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step with no message of its own for it (here the table limits, under a DuckDB
    limit far too small) running out of memory is one line, no traceback."""
    monkeypatch.setattr(tables, "MEMORY_LIMIT", "1KB")
    logs = write_log(tmp_path / "logs", clean_hands(2))
    assert list((logs / "sessions").rglob("*.parquet"))
    result = runner.invoke(app, ["replay", str(logs), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("rummy-audit: error: out of memory: Out of Memory Error")
    assert result.output.count("\n") == 1

def test_a_log_root_inside_the_out_folder_is_fine(tmp_path: Path) -> None:
    logs = write_log(tmp_path / "night" / "logs", clean_hands(1))
    result = runner.invoke(app, ["replay", str(logs), "--out", str(tmp_path / "night")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "night" / "hands.parquet").is_file()


def _dead_pid() -> int:
    """The pid of a process that has ended and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_staging_folders_are_cleared_and_a_live_runs_is_left(tmp_path: Path) -> None:
    """A staging folder whose process is gone is removed at the start of a run; one whose
    process lives (another run writing to the same OUT), and any other name, is not."""
    logs = write_log(tmp_path / "logs", clean_hands(1))
    out = tmp_path / "out"
    stale = out / f".rummy-audit-{_dead_pid()}-k1ll3d_9"
    live = out / f".rummy-audit-{os.getpid()}-alive"
    other = [out / ".rummy-audit-nopid", out / ".rummy-audit-0-zero", out / "mine"]
    for folder in (stale, live, *other):
        (folder / "bucket=0").mkdir(parents=True)
        (folder / "bucket=0" / "part.parquet").write_bytes(b"staged")
    (out / f".rummy-audit-{_dead_pid()}-file").write_bytes(b"a file, not a folder")
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False)
    assert not stale.exists()
    assert (live / "bucket=0" / "part.parquet").is_file()
    assert all(folder.is_dir() for folder in other)
    assert (out / "hands.parquet").is_file()


KILLED_GAMES = 2_000


def test_a_run_killed_mid_staging_leaves_a_folder_the_next_run_clears(tmp_path: Path) -> None:
    """kill -9 a replay once its staging folder holds files: the folder is left in OUT
    (nothing could remove it); its worker and the pool's helper process go with it (a
    worker asks to be killed with its parent); the next run removes the folder and writes
    complete outputs."""
    logs = tmp_path / "logs"
    night = simulate(games=KILLED_GAMES, out=logs, seed=11)
    out = tmp_path / "out"
    code = (
        "from pathlib import Path; from audit.run import replay_logs; "
        f"replay_logs(logs=Path({str(logs)!r}), out=Path({str(out)!r}), workers=1, "
        "progress=False, fairplay=False)"
    )
    run = subprocess.Popen(
        [sys.executable, "-c", code], cwd=Path(__file__).parents[2],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        staged = _wait_for_staging(out, run)
        children = _started_children(run)
        os.kill(run.pid, signal.SIGKILL)
        assert run.wait(timeout=30) == -signal.SIGKILL
        _gone, alive = psutil.wait_procs(children, timeout=15)
        assert alive == [], [p.cmdline() for p in alive]
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        assert run.stderr is not None
        run.stderr.close()
    assert staged.name.startswith(f".rummy-audit-{run.pid}-")
    assert staged.is_dir()  # left behind
    assert not (out / "run.json").exists()

    summary = replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False)
    assert not staged.exists()
    assert list(out.glob(".rummy-audit-*")) == []
    assert sum(summary.hands.values()) == night.hands
    assert len(read(out, "hands.parquet")) == night.hands
    for name in ("findings.parquet", "quarantine.parquet", "pile.parquet", "drops.parquet",
                 "report.html", "run.json"):  # fmt: skip
        assert (out / name).is_file(), name
    run_json = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run_json["counts"]["hands_total"] == night.hands


def _started_children(run: subprocess.Popen[bytes], timeout: float = 60) -> list[psutil.Process]:
    """The run's child processes once its pool worker has started (the pool starts while
    DuckDB stages)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = psutil.Process(run.pid).children(recursive=True)
        if any("spawn_main" in " ".join(c.cmdline()) for c in children):
            return children
        time.sleep(0.01)
    pytest.fail("the run's worker never started")


def _wait_for_staging(out: Path, run: subprocess.Popen[bytes], timeout: float = 120) -> Path:
    """The run's staging folder, once it holds a file (the run is mid-staging)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for folder in out.glob(".rummy-audit-*") if out.is_dir() else []:
            try:
                if any(p.is_file() for p in folder.rglob("*")):
                    return folder
            except OSError:
                pass  # a file went away while being listed: look again
        if run.poll() is not None:
            assert run.stderr is not None
            pytest.fail(f"the run ended before it was killed: {run.stderr.read().decode()}")
        time.sleep(0.005)
    pytest.fail("the run never staged anything")


def test_a_file_name_with_a_newline_keeps_the_summary_and_the_reasons_one_line(
    tmp_path: Path,
) -> None:
    """A junk ledger file named ``bad\\nname.parquet``: the summary's first sentence and the
    quarantine reason name it escaped, each on one line."""
    logs = write_log(tmp_path / "logs", clean_hands(1))
    (logs / "ledger").mkdir(exist_ok=True)
    (logs / "ledger" / "bad\nname.parquet").write_text("junk")
    out = tmp_path / "out"
    result = runner.invoke(app, ["replay", str(logs), "--out", str(out), "--no-fairplay"])
    assert result.exit_code in (0, 1), result.output
    assert result.output.startswith("1 input file could not be read (ledger/bad\\nname.parquet).")
    assert result.output.count("\n") == 1
    (row,) = pq.read_table(out / "quarantine.parquet").to_pylist()
    assert row["file"] == "ledger/bad\nname.parquet"  # the value itself, as it is
    assert "\n" not in row["reason"]
    assert "bad\\nname.parquet" in row["reason"]


def test_hands_beyond_pythons_calendar_still_give_run_json_and_the_report(
    tmp_path: Path,
) -> None:
    """A hands row whose ``ended_at`` is in the year 10001 (a valid ``timestamp[ms,
    tz=UTC]``, beyond Python's datetime) crashed the run as it wrote run.json's
    ``hands_span`` (a blind tester): the span is written as DuckDB gives it."""
    logs = LogBuilder(tmp_path / "logs").game("G1").quick_hand("H1").write()
    (path,) = (logs / "hands").rglob("*.parquet")
    table = pq.read_table(path)
    late = pa.array([253_402_300_800_000 + 400 * 86_400_000], pa.int64())
    at = table.schema.get_field_index("ended_at")
    table = table.set_column(at, table.schema.field(at), late.cast(pa.timestamp("ms", "UTC")))
    pq.write_table(table, path)
    result = runner.invoke(app, ["replay", str(logs), "--out", str(tmp_path / "out"),
                                 "--workers", "1", "--no-progress"])  # fmt: skip
    assert result.exit_code == 0, result.output
    span = json.loads((tmp_path / "out" / "run.json").read_text())["hands_span"]
    assert span["last_ended_at"].startswith("10001-02-04")
    assert "10001-02-04" in (tmp_path / "out" / "report.html").read_text()


def test_results_that_never_reach_out_stop_the_run_not_a_night_of_no_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Dask worker that does not see --out where the run does wrote its results where
    nobody read them, and the run said "0 hands", exit 0 (a blind tester): every hand
    dropped in silence. The workers' own count of hands is held against what reached
    --out: one line, exit 2, no outputs."""
    logs = LogBuilder(tmp_path / "logs").game("G1").quick_hand("H1").quick_hand("H2").write()
    real = run_module.audit_bucket

    def elsewhere(parts: Path, stage: object, bucket: int) -> int:
        return real(tmp_path / "elsewhere", stage, bucket)  # type: ignore[arg-type]

    monkeypatch.setattr(run_module, "audit_bucket", elsewhere)
    out = tmp_path / "out"
    result = runner.invoke(app, ["replay", str(logs), "--out", str(out), "--workers", "1",
                                 "--no-progress"])  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "the workers audited 2 hands but the results of only 0 reached" in result.output
    assert not (out / "hands.parquet").exists()


def test_a_scheduler_address_without_a_port_is_one_line_at_once(tmp_path: Path) -> None:
    """`--scheduler notanaddress` made a Dask client that failed, then printed a traceback
    from its finaliser 20 s later (a blind tester): refused before any client is made."""
    logs = LogBuilder(tmp_path / "logs").game("G1").quick_hand("H1").write()
    for address in ("notanaddress", "tcp://127.0.0.1"):
        result = runner.invoke(app, ["replay", str(logs), "--out", str(tmp_path / "out"),
                                     "--scheduler", address])  # fmt: skip
        assert result.exit_code == 2
        assert f"--scheduler {address} is not a Dask scheduler's address" in result.output
        assert "Traceback" not in result.output


def test_run_json_records_workers_as_given_not_this_machines_core_count(tmp_path: Path) -> None:
    """schemas/output.md: `arguments` as given. Without --workers the run recorded the
    machine's core count, so the same command gave another run.json and report on another
    machine (a blind tester)."""
    logs = LogBuilder(tmp_path / "logs").game("G1").quick_hand("H1").write()
    replay_logs(logs=logs, out=tmp_path / "out", progress=False)
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["arguments"]["workers"] is None
    assert "<code>workers=not given</code>" in (tmp_path / "out" / "report.html").read_text()
    replay_logs(logs=logs, out=tmp_path / "two", workers=2, progress=False)
    assert json.loads((tmp_path / "two" / "run.json").read_text())["arguments"]["workers"] == 2


def test_a_pass_run_again_on_its_own_counts_in_run_jsons_total(tmp_path: Path) -> None:
    """`replay --no-fairplay` then `rummy-audit fairplay`: run.json's `timings_s.total`
    stayed the replay's own, without the detectors' time that made the outputs now there
    (noticed, left, and now mended). Run again, a pass's earlier time is taken out."""
    logs = LogBuilder(tmp_path / "logs").game("G1").quick_hand("H1").quick_hand("H2").write()
    out = tmp_path / "out"
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False)
    first = json.loads((out / "run.json").read_text())["timings_s"]
    fairplay_logs(logs=logs, out=out)
    then = json.loads((out / "run.json").read_text())["timings_s"]
    assert abs(then["total"] - (first["total"] + then["fairplay"])) < 0.002
    fairplay_logs(logs=logs, out=out)
    again = json.loads((out / "run.json").read_text())["timings_s"]
    assert abs(again["total"] - (first["total"] + again["fairplay"])) < 0.003
