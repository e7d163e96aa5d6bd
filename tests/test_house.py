"""The house rules of the code base itself: no module of `audit/` over 800 lines; every
DuckDB connection opened, and every partitioned Parquet write made, through `audit.duck`
(the progress bar off; the rows a thread buffers bounded)."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow.parquet as pq

from audit import duck

PACKAGE = Path(__file__).resolve().parents[1] / "audit"
MAX_LINES = 800


def test_no_module_over_800_lines() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert modules, f"no module found under {PACKAGE.name}/"
    over = {
        path.relative_to(PACKAGE.parent).as_posix(): lines
        for path in modules
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    listed = ", ".join(f"{path} ({lines} lines)" for path, lines in over.items())
    assert not over, f"modules over {MAX_LINES} lines: {listed}"


def test_every_duckdb_connection_is_opened_by_audit_duck() -> None:
    """DuckDB draws a progress bar on stdout for a query over two seconds unless the
    connection turns it off; a million-hand night's table limits printed one into the
    nightly run's output. Only `audit/duck.py` may call `duckdb.connect`."""
    opened = {
        f"{path.relative_to(PACKAGE.parent).as_posix()}:{number}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "duck.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bduckdb\.connect\(", line)
    }
    assert not opened, f"duckdb.connect outside audit/duck.py: {', '.join(sorted(opened))}"


def test_every_partitioned_write_is_duck_copy_parts() -> None:
    """A partitioned COPY buffers 524,288 rows a thread across its parts unless told
    otherwise; the bot test's fifty parts of a ten-million-hand night ran out of memory
    so. Only `audit/duck.py` (``copy_parts``, which tells it) may write ``PARTITION_BY``."""
    written = {
        f"{path.relative_to(PACKAGE.parent).as_posix()}:{number}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "duck.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "PARTITION_BY" in line or "partitioned_write" in line
    }
    assert not written, f"a partitioned write outside audit/duck.py: {', '.join(sorted(written))}"


def test_copy_parts_writes_a_folder_per_part_in_row_groups_of_its_rows(tmp_path: Path) -> None:
    with duck.connect() as con:
        duck.copy_parts(con, "SELECT i, i % $parts AS part FROM range(10000) t(i)",
                        tmp_path, "part", 2048, params={"parts": 3})  # fmt: skip
        setting = "SELECT current_setting('partitioned_write_flush_threshold')"
        (flush,) = con.sql(setting).fetchall()[0]
    folders = sorted(p.name for p in tmp_path.iterdir())
    assert folders == ["part=0", "part=1", "part=2"]
    tables = [pq.ParquetFile(f) for f in sorted(tmp_path.glob("part=*/*.parquet"))]
    assert sum(t.metadata.num_rows for t in tables) == 10000
    groups = [t.metadata.row_group(g).num_rows for t in tables for g in range(t.num_row_groups)]
    assert max(groups) == 2048  # DuckDB's row groups are whole vectors of 2,048
    assert int(flush) == 2048


def test_a_connection_from_audit_duck_draws_no_progress_bar() -> None:
    with duck.connect(config={"memory_limit": "64MB"}) as con:
        row = con.execute("SELECT current_setting('enable_progress_bar')").fetchone()
    assert row == (False,)
