"""The one way the tool opens DuckDB: ``connect``, with DuckDB's progress bar off.

DuckDB draws a progress bar on standard output for any query that runs longer than two
seconds, whatever ``--no-progress`` says: on a million-hand night the table limits' query
(about 5 s) printed one into the nightly run's output. Every connection of ``audit/``
comes from here (``tests/test_house.py`` holds the package to it)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import duckdb

HANDS_PER_PASS = 1_048_576
"""Hands a night-wide DuckDB step joins in one pass. A night with more is worked in passes
of about this many hands, so that each pass's joins fit the step's memory limit whatever
the night: staging's hand tables in runs of their files (``audit.logs.reader``), fair
play's seats and the shuffle tests' shoes by the hash of the game id. One pass over ten
million hands ran out of memory in each of the three."""

Config = dict[str, str | bool | int | float | list[str]]
"""The settings a connection is opened with (``duckdb.connect``'s ``config``)."""


def connect(database: str = ":memory:", config: Config | None = None) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection to ``database`` with ``config``, its progress bar off."""
    con = duckdb.connect(database, config=config or {})
    con.execute("PRAGMA disable_progress_bar")
    return con


def give_back(con: duckdb.DuckDBPyConnection, memory_limit: str) -> None:
    """Set the connection's memory limit (``memory_limit``, as it was opened with) again:
    DuckDB then lets go of what the last query left cached (about 100 MiB after each of a
    million hands' staged tables), so it does not sit under the next query's peak."""
    con.execute(f"SET memory_limit = '{memory_limit}'")


def copy_parts(
    con: duckdb.DuckDBPyConnection,
    query: str,
    folder: str,
    by: str,
    rows: int,
    *,
    options: str = "",
    params: Mapping[str, object] | None = None,
) -> None:
    """Write ``query``'s rows to Parquet under ``folder`` (a SQL literal), in a folder
    ``<by>=<value>`` per value of its column ``by``, in row groups of ``rows``; ``options``
    add to COPY's (``", COMPRESSION lz4"``). Every partitioned write of ``audit/`` is this
    one (``tests/test_house.py``).

    Each thread hands its rows to the part files every ``rows`` rows (DuckDB's
    ``partitioned_write_flush_threshold``, left set on ``con``). By default a thread first
    buffers 524,288 rows across the parts: with fifty parts, the bot test's decisions of a
    ten-million-hand night ran out of 512MB there."""
    con.execute(f"SET partitioned_write_flush_threshold = {rows}")
    con.execute(
        f"COPY ({query}) TO {folder}"
        f" (FORMAT parquet, PARTITION_BY ({by}), ROW_GROUP_SIZE {rows}{options})",
        dict(params or {}),
    )


def spill_folder(con: duckdb.DuckDBPyConnection) -> str | None:
    """The folder ``con`` spills into, when it was opened with one (an absolute path that
    exists); else None. Work files of a query's own go there, beside DuckDB's."""
    (setting,) = con.sql("SELECT current_setting('temp_directory')").fetchall()[0]
    folder = Path(str(setting or ""))
    return str(folder) if folder.is_absolute() and folder.is_dir() else None


def passes(rows: int, per_pass: int | None = None) -> int:
    """How many passes of at most ``per_pass`` rows (hands: ``HANDS_PER_PASS``) a step over
    ``rows`` rows takes; at least one.

    >>> passes(0), passes(HANDS_PER_PASS), passes(HANDS_PER_PASS + 1), passes(7, 3)
    (1, 1, 2, 3)
    """
    size = HANDS_PER_PASS if per_pass is None else per_pass  # read at the call: tests set it
    return max(1, -(-rows // size))
