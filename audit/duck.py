"""The one way the tool opens DuckDB (``connect``, with DuckDB's progress bar off), spells
SQL names and literals, and writes a night-wide query in passes or in parts.

DuckDB draws a progress bar on standard output for any query that runs longer than two
seconds, whatever ``--no-progress`` says: on a million-hand night the table limits' query
(about 5 s) printed one into the nightly run's output. Every connection of ``audit/``
comes from here (``tests/test_house.py`` holds the package to it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

import duckdb

HANDS_PER_PASS = 1_048_576
"""Hands a night-wide DuckDB step joins in one pass. A night with more is worked in passes
of about this many hands, so that each pass's joins fit the step's memory limit whatever
the night: staging's hand tables in runs of their files (``audit.logs.reader``), fair
play's seats and the shuffle tests' shoes by the hash of the game id (``in_passes``). One
pass over ten million hands ran out of memory in each of the three."""

Config = dict[str, str | bool | int | float | list[str]]
"""The settings a connection is opened with (``duckdb.connect``'s ``config``)."""


def quote(name: str) -> str:
    """A SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def literal(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def millis(expr: str) -> str:
    """SQL: the timestamp ``expr``, of any unit, as a TIMESTAMPTZ truncated to the
    millisecond (schemas/README.md: "Finer units are truncated to the millisecond"). Through
    nanoseconds, since DuckDB's cast to TIMESTAMPTZ rounds nanoseconds to the microsecond
    and its ``epoch_ms`` rounds to the millisecond: until 2026-12-06 a game's start 0.9 ms
    past its first hand's, in a nanosecond column, raised ``hand.time``, and a hand 0.5 ms
    into its millisecond moved the shuffle tests' order (a blind tester). A time outside
    the nanosecond range (years 1677 to 2262) is read through microseconds.

    >>> at = "'2026-11-29 18:00:05.0009996+00'::TIMESTAMPTZ_NS"
    >>> with duckdb.connect() as con:  # its own: the default one is shared with others
    ...     con.sql(f"SELECT {millis(at)}::VARCHAR, epoch_ms({at}::TIMESTAMPTZ)").fetchall()
    [('2026-11-29 18:00:05+00', 1795975205001)]
    """
    cast = f"CAST({expr} AS TIMESTAMPTZ)"
    return (f"make_timestamptz(coalesce(epoch_ns(TRY_CAST({expr} AS TIMESTAMPTZ_NS)) // 1000000,"
            f" epoch_us({cast}) // 1000) * 1000)")


def file_literal(path: str) -> str:
    """A SQL literal naming exactly one file: DuckDB reads `*`, `?` and `[` as a glob.

    >>> file_literal("events/part[1].parquet")
    "'events/part[[]1].parquet'"
    """
    return literal(re.sub(r"([*?\[])", r"[\1]", path))


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
    folder: Path,
    by: str,
    rows: int,
    *,
    options: str = "",
    params: Mapping[str, object] | None = None,
) -> None:
    """Write ``query``'s rows to Parquet under ``folder``, in a folder ``<by>=<value>`` per
    value of its column ``by``, in row groups of ``rows``; ``options`` add to COPY's
    (``", COMPRESSION lz4"``). Every partitioned write of ``audit/`` is this one
    (``tests/test_house.py``).

    Each thread hands its rows to the part files every ``rows`` rows (DuckDB's
    ``partitioned_write_flush_threshold``, left set on ``con``). By default a thread first
    buffers 524,288 rows across the parts: with fifty parts, the bot test's decisions of a
    ten-million-hand night ran out of 512MB there."""
    con.execute(f"SET partitioned_write_flush_threshold = {rows}")
    con.execute(
        f"COPY ({query}) TO {literal(str(folder))}"
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


def in_passes(
    con: duckdb.DuckDBPyConnection, hands: str, folder: Path, rows: Callable[[str], str]
) -> str:
    """Write a night-wide query to Parquet under ``folder`` (made here) in passes over the
    night's games, so that each pass's joins fit ``con``'s memory limit whatever the night
    (``HANDS_PER_PASS``); the SQL that reads every pass's rows back, in no order.

    ``hands`` is a query of the night's hands (``hand_id``, ``game_id``). A pass takes the
    games whose id hashes to it: its hands are the temp table ``pass_hand``, and
    ``rows("pass_hand")`` the query it writes, one file per pass."""
    (count,) = con.sql(f"SELECT count(*) FROM ({hands})").fetchall()[0]
    total = passes(int(count))
    folder.mkdir()
    for n in range(total):
        con.execute(
            "CREATE OR REPLACE TEMP TABLE pass_hand AS SELECT hand_id, game_id"
            f" FROM ({hands}) WHERE hash(game_id) % $passes = $n",
            {"passes": total, "n": n},
        )
        con.execute(f"COPY ({rows('pass_hand')}) TO {literal(str(folder / f'{n}.parquet'))}"
                    " (FORMAT parquet)")  # fmt: skip
    con.execute("DROP TABLE pass_hand")
    return f"read_parquet({literal(str(folder / '*.parquet'))}, hive_partitioning = false)"
