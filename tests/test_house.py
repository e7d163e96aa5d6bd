"""The house rules of the code base itself: no module of `audit/` over 800 lines; every
DuckDB connection opened through `audit.duck` (its progress bar off)."""

from __future__ import annotations

import re
from pathlib import Path

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


def test_a_connection_from_audit_duck_draws_no_progress_bar() -> None:
    with duck.connect(config={"memory_limit": "64MB"}) as con:
        row = con.execute("SELECT current_setting('enable_progress_bar')").fetchone()
    assert row == (False,)
