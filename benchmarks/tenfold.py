"""A ten-million-hand night for the scale benchmark: the million-hand night (``scale.py``'s
``night_1m``) copied ten times, every id given the suffix ``~k`` of its copy k (games,
tables, hands, players, devices, ips; the players in ``hands.seats`` too), so the copies
are ten platforms' nights that never meet. Each output file holds ten input files' rows of
one copy, in the log's order, cast back to the input's schema: 3,000 files a table, about
6 GB, a few minutes to write. Cached under benchmarks/out/.

    .venv/bin/python benchmarks/tenfold.py
    .venv/bin/python benchmarks/scale.py --child benchmarks/out/tenfold-10/logs "2 workers"

Figures: benchmarks/README.md, "Scale", 2026-12-03, night.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from audit.logs.contract import TABLES

HERE = Path(__file__).resolve().parent
COPIES = 10
IDS = ("game_id", "table_id", "hand_id", "player_id", "device_id", "ip")
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


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    from scale import night_1m

    done = HERE / "out" / f"tenfold-{COPIES}"
    if not (done / ".written").exists():
        tenfold(night_1m(), done / "logs")
        (done / ".written").write_text("ok\n")
    print(done / "logs")
