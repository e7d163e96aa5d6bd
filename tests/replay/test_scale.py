"""At scale: the outputs streamed to disk bucket by bucket are the bytes the list writers
give, and a Dask cluster writes the bytes of a local run."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import audit.output as output
import audit.run as run
from audit.cli import app
from audit.findings import Finding, Severity
from audit.output import Parts
from audit.records import HandRow, QuarantineRow
from audit.replay.facts import DropRow, PileRow
from audit.rules import memo
from audit.sim import simulate

OUTPUTS = ("findings.parquet", "hands.parquet", "quarantine.parquet", "pile.parquet",
           "drops.parquet", "suspicions.parquet", "rng.parquet")  # fmt: skip


def digests(out: Path) -> dict[str, str]:
    return {name: hashlib.sha256((out / name).read_bytes()).hexdigest() for name in OUTPUTS}


def rows(seed: int, n: int) -> dict[str, list[Any]]:
    """Rows of every kind with nulls, shared keys and ties, in no particular order (keys
    unique where a run's are: a hand's id, a drop's seq)."""
    rnd = random.Random(seed)
    games = [f"G{i}" for i in range(7)] + ["", "Ω-game"]
    hands = [f"H{i}" for i in range(40)]
    players = ["p1", "p2", "p10", "ñ"]
    pick = rnd.choice
    replay = ("findings", "hands", "quarantine", "pile", "drops")  # whatif's: test_whatif.py
    out: dict[str, list[Any]] = {kind: [] for kind in replay}
    for i in range(n):
        game, hand = pick(games), pick(hands)
        out["findings"].append(
            Finding(
                check=pick(["deal.shoe", "score.mismatch", "input.row"]),
                severity=pick(list(Severity)),
                game_id=game,
                hand_id=pick([hand, None]),
                player_id=pick([*players, None]),
                seq=pick([None, 0, 3, 17]),
                expected=pick([None, "5", "a"]),
                recorded=pick([None, "6"]),
                message=pick(["m1", "m2"]),
                rule=pick(["r1", "r2"]),
            )
        )
        out["hands"].append(
            HandRow(f"{hand}-{i}", pick([game, None]), pick([None, 0, 1, 2]), "points",
                    "standard-13", 2, "verified", 0, None, None, ("won", "lost"), (0, 12))
        )  # fmt: skip
        out["quarantine"].append(
            QuarantineRow(pick(["hands", "events"]), pick([None, "a.parquet"]),
                          pick([None, 0, 5]), pick([game, None]), pick([hand, None]),
                          "input.row", pick(["bad", "worse"]))
        )  # fmt: skip
        out["pile"].append(PileRow(game, hand, pick(players), pick(players), 1, 1, 0))
        out["drops"].append(
            DropRow(game, hand, pick(players), i, True, 0, pick([None, "player"]), 20, 20)
        )  # fmt: skip
    return out


LIST_WRITERS = {
    "findings": output.write_findings,
    "hands": output.write_hands,
    "quarantine": output.write_quarantine,
    "pile": output.write_pile,
    "drops": output.write_drops,
}


@pytest.mark.parametrize(("seed", "run_rows"), [(1, 500_000), (2, 500_000), (3, 400)])
def test_streamed_outputs_are_the_bytes_of_the_list_writers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, run_rows: int
) -> None:
    """Parts written in any order, sorted by DuckDB, give the bytes the writers give from
    one list (rows equal on the sort key are identical rows here, as in a run); also when
    they are sorted in runs of a few hundred rows (``SORT_ROWS``)."""
    monkeypatch.setattr(output, "SORT_ROWS", run_rows)
    every = rows(seed, 3_000)
    for kind, items in every.items():
        unique = list(dict.fromkeys(items))  # ties on the full row only
        LIST_WRITERS[kind](tmp_path / f"{kind}-list.parquet", unique)
        parts = Parts(tmp_path / f"parts-{kind}")
        shuffled = unique[:]
        random.Random(seed).shuffle(shuffled)
        for start in range(0, len(shuffled), 700):
            parts.add(kind, shuffled[start : start + 700])
        assert parts.write(kind, tmp_path / f"{kind}-parts.parquet") == len(unique)
        listed = (tmp_path / f"{kind}-list.parquet").read_bytes()
        assert (tmp_path / f"{kind}-parts.parquet").read_bytes() == listed, kind


def test_a_streamed_output_cuts_row_groups_as_write_table_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More rows than a row group: groups of exactly ROW_GROUP rows, as pq.write_table
    cuts them (shown with a small ROW_GROUP; the real one is 131,072)."""
    monkeypatch.setattr(output, "ROW_GROUP", 1_000)
    items = list(dict.fromkeys(rows(3, 4_500)["pile"]))
    parts = Parts(tmp_path / "parts")
    for start in range(0, len(items), 333):
        parts.add("pile", items[start : start + 333])
    parts.write("pile", tmp_path / "parts.parquet")
    ordered = sorted(items, key=lambda r: (r.game_id, r.hand_id, r.giver, r.taker))
    table = pa.Table.from_pylist([r._asdict() for r in ordered], schema=output.PILE_SCHEMA)
    pq.write_table(table, tmp_path / "one.parquet", compression="zstd", row_group_size=1_000)
    assert (tmp_path / "parts.parquet").read_bytes() == (tmp_path / "one.parquet").read_bytes()
    groups = pq.ParquetFile(tmp_path / "parts.parquet").metadata.num_row_groups
    assert groups == -(-len(items) // 1000)


def test_a_row_group_from_batches_is_the_bytes_of_one_contiguous_table(tmp_path: Path) -> None:
    """A row group gathered from DuckDB's batches is written in the bytes of the same rows
    in one contiguous table, also where a column's dictionary outgrows its page after the
    first batch's end and the writer falls back to plain values: unique ids of 10
    characters (a 1 MiB dictionary holds about 75,000, past the first batch's end)."""
    n = 150_000
    rnd = random.Random(4)
    order = list(range(n))
    rnd.shuffle(order)
    schema = pa.schema([
        pa.field("id", pa.string(), nullable=False),
        pa.field("game", pa.string()),
        pa.field("table", pa.string(), nullable=False),
        pa.field("format", pa.string(), nullable=False),
        pa.field("seats", pa.int8()),
        pa.field("won", pa.bool_()),
        pa.field("outcomes", pa.list_(pa.string())),
    ])  # fmt: skip
    table = pa.table(
        {
            "id": [f"{i:010d}" for i in order],
            "game": [None if i % 97 == 0 else f"g{i // 2:09d}" for i in range(n)],
            "table": [f"t{i // 6:09d}" for i in range(n)],
            "format": [rnd.choice(["points", "pool_101", "deals"]) for _ in range(n)],
            "seats": [rnd.randint(2, 6) for _ in range(n)],
            "won": [rnd.random() < 0.2 for _ in range(n)],
            "outcomes": [["won", "lost"][: rnd.randint(0, 2)] for _ in range(n)],
        },
        schema=schema,
    )
    batches = table.to_batches(max_chunksize=output.FETCH_ROWS)
    assert len(batches) == -(-n // output.FETCH_ROWS) >= 3
    assert batches[0].num_rows < 75_000
    output._write_groups(
        str(tmp_path / "groups.parquet"), pa.RecordBatchReader.from_batches(schema, batches), schema
    )
    pq.write_table(
        table.combine_chunks(), tmp_path / "one.parquet", compression="zstd",
        row_group_size=output.ROW_GROUP,
    )  # fmt: skip
    one = (tmp_path / "one.parquet").read_bytes()
    assert (tmp_path / "groups.parquet").read_bytes() == one
    # Without the ids made contiguous the bytes differ: this night does reach the case.
    pq.write_table(
        pa.Table.from_batches(batches), tmp_path / "cut.parquet", compression="zstd",
        row_group_size=output.ROW_GROUP,
    )  # fmt: skip
    assert (tmp_path / "cut.parquet").read_bytes() != one
    kept = {name: output._kept_in_batches(pa.chunked_array([b.column(name) for b in batches]))
            for name in schema.names}  # fmt: skip
    assert kept == {"id": False, "game": False, "table": True, "format": True, "seats": True,
                    "won": True, "outcomes": True}  # fmt: skip


def pile_parts(folder: Path, items: list[PileRow], per_part: int) -> Parts:
    """``items`` written as pile parts of ``per_part`` rows."""
    parts = Parts(folder)
    for start in range(0, len(items), per_part):
        parts.add("pile", items[start : start + per_part])
    return parts


def pile_runs(parts: Parts) -> list[Path]:
    """The files of the pile's sorted runs (``Parts._sort_runs``), in order."""
    columns = ", ".join(f'"{name}"' for name in output.PILE_SCHEMA.names)
    paths = parts.paths("pile")
    total = output._rows(paths)
    return parts._sort_runs("pile", output._parquet(paths), columns, paths, total)


def test_sorted_runs_cut_the_rows_into_ranges_of_about_equal_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``SORT_ROWS``: 3,000 pile rows of nine games sorted in runs of about 1,000 rows:
    three files, each a range of games, that hold every row once."""
    monkeypatch.setattr(output, "SORT_ROWS", 1_000)
    items = list(dict.fromkeys(rows(5, 3_000)["pile"]))
    parts = pile_parts(tmp_path / "parts", items, 250)
    runs = pile_runs(parts)
    sizes = [pq.read_metadata(run).num_rows for run in runs]
    assert len(runs) == 3
    assert sum(sizes) == len(items)
    assert all(abs(size - len(items) / 3) < 0.2 * len(items) for size in sizes), sizes
    games = [pq.read_table(run).column("game_id").to_pylist() for run in runs]
    assert all(run == sorted(run) for run in games)
    assert max(games[0]) < min(games[1])
    assert max(games[1]) < min(games[2])


def test_one_game_larger_than_a_run_is_sorted_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run holds whole values of the first sort key: a game with more rows than
    ``SORT_ROWS`` is one run (its range below is empty and skipped), in the list
    writer's bytes."""
    monkeypatch.setattr(output, "SORT_ROWS", 100)
    items = [r._replace(game_id="G1") for r in rows(6, 1_000)["pile"]]
    unique = list(dict.fromkeys(items))
    output.write_pile(tmp_path / "list.parquet", unique)
    parts = pile_parts(tmp_path / "parts", unique, 150)
    runs = pile_runs(parts)
    assert [pq.read_metadata(run).num_rows for run in runs] == [len(unique)]
    assert parts.write("pile", tmp_path / "parts.parquet") == len(unique)
    assert (tmp_path / "parts.parquet").read_bytes() == (tmp_path / "list.parquet").read_bytes()


def test_rows_go_to_the_run_of_their_range_and_nulls_to_the_last() -> None:
    """Two cuts make three runs: below the first, up to the second, the rest; NULL sorts
    last (``nulls_last``), so it is in the last run."""
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT unnest([NULL, 'a', 'b', 'c', 'd']) AS k")
    runs = con.execute(
        f"SELECT k, {output._run_of('k', 2)} FROM t ORDER BY k NULLS LAST",
        {"cut0": "b", "cut1": "d"},
    ).fetchall()
    assert runs == [("a", 0), ("b", 1), ("c", 1), ("d", 2), (None, 2)]


def test_no_rows_writes_the_empty_file_of_the_list_writer(tmp_path: Path) -> None:
    output.write_drops(tmp_path / "list.parquet", [])
    Parts(tmp_path / "parts").write("drops", tmp_path / "parts.parquet")
    assert (tmp_path / "parts.parquet").read_bytes() == (tmp_path / "list.parquet").read_bytes()


# ------------------------------------------------------------ a real Dask cluster


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    logs = tmp_path_factory.mktemp("scale") / "logs"
    simulate(out=logs, games=120, seed=9, anomalies="all", workers=1)
    return logs


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        host="127.0.0.1",
    ) as local:  # fmt: skip
        yield local.scheduler_address


def test_a_dask_cluster_writes_the_bytes_of_a_local_run(
    night: Path, cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same buckets of whole games on a scheduler and 2 worker processes on loopback:
    every output the same bytes as 2 local workers give."""
    monkeypatch.setattr(run, "bucket_rows", lambda events, workers: 1_500)  # several buckets
    local = CliRunner().invoke(
        app, ["replay", str(night), "--out", str(tmp_path / "local"), "--workers", "2"]
    )
    assert local.exit_code in (0, 1), local.output
    remote = CliRunner().invoke(
        app, ["replay", str(night), "--out", str(tmp_path / "dask"), "--scheduler", cluster]
    )
    assert remote.exit_code == local.exit_code, remote.output
    assert remote.output.replace(str(tmp_path / "dask"), str(tmp_path / "local")) == local.output
    assert digests(tmp_path / "dask") == digests(tmp_path / "local")
    assert not list((tmp_path / "dask").glob(".rummy-audit-*"))  # staging removed
    assert pq.read_table(tmp_path / "dask" / "hands.parquet").num_rows > 300


def test_no_scheduler_at_the_address_is_one_line(
    night: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    import audit.cluster

    monkeypatch.setattr(audit.cluster, "CONNECT_TIMEOUT_S", 1)
    result = CliRunner().invoke(
        app, ["replay", str(night), "--out", str(tmp_path / "o"), "--scheduler",
              "tcp://127.0.0.1:9"]
    )  # fmt: skip
    assert result.exit_code == 2
    assert "no Dask scheduler answered at tcp://127.0.0.1:9" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o" / "findings.parquet").exists()


def test_a_worker_that_fails_is_one_line_naming_its_bucket(cluster: str) -> None:
    import operator
    from types import SimpleNamespace

    from audit.cluster import run_on_cluster
    from audit.errors import AuditError

    done: list[object] = []
    stage = SimpleNamespace(buckets=2)  # operator.truediv(stage, bucket) raises on a worker
    with pytest.raises(AuditError, match=r"^a Dask worker failed on bucket [01]: TypeError: "):
        run_on_cluster(cluster, operator.truediv, stage, done.append)  # type: ignore[arg-type]
    assert done == []


def _unpickled(log: str, buckets: int) -> _Counted:
    """A staging's stand-in, rebuilt wherever it is unpickled (the scheduler, a worker):
    each rebuild leaves a line in ``log``."""
    with open(log, "a", encoding="utf-8") as handle:
        handle.write("unpickled\n")
    return _Counted(log, buckets)


class _Counted:
    def __init__(self, log: str, buckets: int) -> None:
        self.log, self.buckets = log, buckets

    def __reduce__(self) -> tuple[Any, ...]:
        return _unpickled, (self.log, self.buckets)


def _bucket(stage: Any, bucket: int) -> int:
    return int(bucket)


def test_the_staging_reaches_each_worker_once_not_once_per_bucket(
    cluster: str, tmp_path: Path
) -> None:
    """The staging (about 1 MB for a million hands, more with more files) reaches each
    worker once (and the scheduler once): given to every task as a value, a worker
    unpickled and held a copy per bucket."""
    from audit.cluster import run_on_cluster

    log = tmp_path / "unpickled.txt"
    done: list[int] = []
    stage = _Counted(str(log), 40)
    run_on_cluster(cluster, _bucket, stage, done.append)  # type: ignore[arg-type]
    assert sorted(done) == list(range(40))
    assert 1 <= len(log.read_text(encoding="utf-8").splitlines()) <= 3  # 2 workers


def test_a_bucket_audited_twice_writes_its_rows_once(
    night: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers write their own parts, named by bucket and batch: a task run again (Dask
    retries the tasks of a worker it lost, which may have written some of them) replaces
    what it wrote, and every output holds each row once."""
    monkeypatch.setattr(run, "bucket_rows", lambda events, workers: 1_500)
    monkeypatch.setattr(run, "_pool", lambda workers: nullcontext())  # in-process, patched
    once = tmp_path / "once"
    run.replay_logs(logs=night, out=once, workers=1, progress=False)
    real = run.audit_bucket
    calls: list[int] = []

    def twice(parts: Path, stage: Any, bucket: int) -> int:
        real(parts, stage, bucket)
        calls.append(bucket)
        return real(parts, stage, bucket)

    monkeypatch.setattr(run, "audit_bucket", twice)
    again = tmp_path / "again"
    run.replay_logs(logs=night, out=again, workers=1, progress=False)
    assert len(calls) > 1
    assert digests(again) == digests(once)


def test_caches_emptied_before_every_bucket_change_no_byte(
    night: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker empties the rules engine's per-pattern caches when they pass their budget
    (``audit.rules.memo``): what they return never depends on what they hold, so a run
    that empties them before every bucket writes the bytes of one that never does."""
    monkeypatch.setattr(run, "bucket_rows", lambda events, workers: 1_500)
    monkeypatch.setattr(run, "_pool", lambda workers: nullcontext())  # in-process, patched
    monkeypatch.setattr(memo, "BUDGET", 10**9)
    kept = tmp_path / "kept"
    run.replay_logs(logs=night, out=kept, workers=1, progress=False)
    assert memo.held() > 0
    emptied: list[bool] = []
    real = memo.bound
    monkeypatch.setattr(memo, "BUDGET", 0)
    monkeypatch.setattr(memo, "bound", lambda: emptied.append(real()) or emptied[-1])
    empty = tmp_path / "empty"
    run.replay_logs(logs=night, out=empty, workers=1, progress=False)
    assert len(emptied) > 1
    assert all(emptied[1:])
    assert digests(empty) == digests(kept)


def test_wide_rows_are_sorted_in_runs_of_bytes_and_parts_in_row_groups_of_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``SORT_BYTES`` and ``PART_GROUP_BYTES``: a findings row is ten times a hands row, so
    runs and a part's row groups are bounded in bytes as well as rows (a ten-million-hand
    night's 580,000 fair-play findings, one part of one row group sorted in one run, ran
    out of ``SORT_MEMORY``); the output is the list writer's bytes all the same."""
    items = list(dict.fromkeys(rows(7, 3_000)["findings"]))
    output.write_findings(tmp_path / "list.parquet", items)
    parts = Parts(tmp_path / "parts")
    parts.add("findings", items)
    (part,) = parts.paths("findings")
    size = output._bytes([part])
    monkeypatch.setattr(output, "PART_GROUP_BYTES", 100_000)
    small = Parts(tmp_path / "small")
    small.add("findings", items)
    (cut,) = small.paths("findings")
    assert pq.read_metadata(part).num_row_groups == 1
    assert pq.read_metadata(cut).num_row_groups > 1
    monkeypatch.setattr(output, "SORT_BYTES", size // 4)
    columns = ", ".join(f'"{name}"' for name in output.FINDINGS_SCHEMA.names)
    runs = small._sort_runs("findings", output._parquet([cut]), columns, [cut], len(items))
    assert len(runs) >= 4
    assert small.write("findings", tmp_path / "parts.parquet") == len(items)
    assert (tmp_path / "parts.parquet").read_bytes() == (tmp_path / "list.parquet").read_bytes()
