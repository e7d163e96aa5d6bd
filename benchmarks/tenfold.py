"""A ten-million-hand night for the scale benchmark: the million-hand night (``scale.py``'s
``night_1m``) copied ten times, every id given the suffix ``~k`` of its copy k (games,
tables, hands, players, devices, ips; the players in ``hands.seats`` too), so the copies
are ten platforms' nights that never meet. Each output file holds ten input files' rows of
one copy, in the log's order, cast back to the input's schema: 3,000 files a table, about
6 GB, a few minutes to write. Cached under benchmarks/out/.

    .venv/bin/python benchmarks/tenfold.py
    .venv/bin/python benchmarks/scale.py --child benchmarks/out/tenfold-10/logs "2 workers"

Figures: benchmarks/README.md, "Scale", 2026-12-03, night.

    .venv/bin/python benchmarks/tenfold.py fairplay

runs the fair-play detectors over that night in a process of their own (wall clock, peak
RSS, the suspicions per detector). Their inputs besides the logs, the replay's ``hands``,
``pile`` and ``drops`` outputs, are the million-hand night's replay
(``fairplay.speed_night``) copied ten times with the same suffixes by the first command,
which is what a replay of the copies writes (its rows in another order); it saves the
half hour of that replay. Figures:
benchmarks/README.md, "Fair play", 2026-12-03.

    .venv/bin/python benchmarks/tenfold.py rng

runs the shuffle tests over the same night and copied replay, likewise (wall clock, peak
RSS, shoes, tests, failed checks). Figures: benchmarks/README.md, "Shuffle statistics".
"""

from __future__ import annotations

import resource
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from audit.logs.contract import TABLES

HERE = Path(__file__).resolve().parent
COPIES = 10
IDS = ("game_id", "table_id", "hand_id", "player_id", "device_id", "ip", "giver", "taker")
OUTPUTS = ("hands.parquet", "pile.parquet", "drops.parquet")
"""The replay's outputs the fair-play detectors read besides the logs."""
FILES_PER_FILE = 10


def tenfold(source: Path, target: Path, copies: int = COPIES) -> Path:
    """Write ``copies`` copies of the log root ``source`` under ``target`` (made afresh)."""
    shutil.rmtree(target, ignore_errors=True)
    con = duckdb.connect()
    for table in TABLES:
        files = sorted((source / table).rglob("*.parquet"))
        if not files:
            continue
        schema = pq.read_schema(files[0])
        folder = target / table / "date=2026-11-29"
        folder.mkdir(parents=True)
        for chunk in range(0, len(files), FILES_PER_FILE):
            rows = pa.concat_tables(
                pq.read_table(f, schema=schema) for f in files[chunk : chunk + FILES_PER_FILE]
            )
            con.register("night", rows)
            for copy in range(copies):
                suffix = f"'~{copy}'"
                renamed = [f"{name} || {suffix} AS {name}" for name in schema.names if name in IDS]
                if table == "hands":
                    renamed.append(
                        "list_transform(seats, lambda s: {'seat': s.seat,"
                        f" 'player_id': s.player_id || {suffix}}}) AS seats"
                    )
                copied = con.sql(f"SELECT * REPLACE ({', '.join(renamed)}) FROM night").arrow()
                table_rows = copied.read_all() if hasattr(copied, "read_all") else copied
                name = f"part-{copy:02d}-{chunk // FILES_PER_FILE:04d}.parquet"
                pq.write_table(table_rows.cast(schema), folder / name)
            con.unregister("night")
    return target


def tenfold_outputs(source: Path, target: Path, copies: int = COPIES) -> Path:
    """The replay's ``OUTPUTS`` in ``source`` copied ``copies`` times into ``target``, every
    id given the suffix of its copy as ``tenfold`` gives the logs'."""
    target.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    for name in OUTPUTS:
        schema = pq.read_schema(source / name)
        renamed = [f"{c} || '~' || copy AS {c}" for c in schema.names if c in IDS]
        con.execute(
            f"COPY (SELECT * REPLACE ({', '.join(renamed)}) FROM read_parquet($f),"
            f" range({copies}) AS r(copy)) TO $t (FORMAT parquet)",
            {"f": str(source / name), "t": str(target / name)},
        )
    return target


def detectors(done: Path) -> str:
    """The detectors over the ten-million-hand night in ``done``, in this process (which
    did nothing else before: its peak RSS is theirs)."""
    from audit.fairplay.night import run_detectors
    from audit.run import open_log_root

    out = done / "replayed"
    hands = duckdb.sql(
        "SELECT count(*) FROM read_parquet($f) WHERE status <> 'quarantined'",
        params={"f": str(out / "hands.parquet")},
    ).fetchall()[0][0]
    start = time.perf_counter()
    found = run_detectors(open_log_root(done / "logs"), out)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    checks = Counter(s.check for s in found.suspicions)
    per = ", ".join(f"{c.removeprefix('fairplay.')} {n:,}" for c, n in sorted(checks.items()))
    return (
        "| hands | the detectors (s) | peak RSS (MiB) | suspicions |\n|---|---|---|---|\n"
        f"| {hands:,} | {wall:.0f} | {peak:.0f} | {len(found.suspicions):,} ({per}) |"
    )


def shuffles(done: Path) -> str:
    """The shuffle tests over the ten-million-hand night in ``done``, in this process (which
    did nothing else before: its peak RSS is theirs)."""
    from audit.run import open_log_root
    from audit.shuffle.night import audit_shuffles

    start = time.perf_counter()
    audit = audit_shuffles(open_log_root(done / "logs"), done / "replayed")
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    summary = audit.summary()
    return (
        "| shoes | groups | tests | the shuffle tests (s) | peak RSS (MiB) | findings |\n"
        "|---|---|---|---|---|---|\n"
        f"| {audit.shoes:,} | {len(audit.groups)} | {summary['tests']:,} | {wall:.0f} |"
        f" {peak:.0f} | {len(audit.findings())} |"
    )


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    done = HERE / "out" / f"tenfold-{COPIES}"
    if sys.argv[1:] == ["fairplay"]:
        print(detectors(done))
        sys.exit(0)
    if sys.argv[1:] == ["rng"]:
        print(shuffles(done))
        sys.exit(0)
    from fairplay import speed_night
    from scale import night_1m

    if not (done / ".written").exists():
        tenfold(night_1m(), done / "logs")
        (done / ".written").write_text("ok\n")
    if not (done / "replayed" / ".written").exists():
        tenfold_outputs(speed_night()[1], done / "replayed")
        (done / "replayed" / ".written").write_text("ok\n")
    print(done / "logs")
