"""The checks over a whole night's files, beside the units' (``run.replay_logs`` adds their
findings): the table limits over every sessions file, and one ``check.skipped`` note for
each optional table the night lacks, could not read, or whose files hold no row, naming
the checks that could not run (skipped, never passed)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from audit import duck
from audit.duck import file_literal
from audit.findings import Finding, contract, finding
from audit.games.tables import table_limit_findings
from audit.logs.reader import LogRoot
from audit.unit import skipped_words

EMPTY_IS_SILENT = ("ledger", "sessions")
"""Optional tables whose files, read and holding no row at all, would flag nothing: a game
with no ledger row is flagged only when the ledger holds rows (schemas/money.md), and no
session is no table limit. Such a night gets the ``check.skipped`` of a missing table,
worded so (a blind tester: an empty ledger file passed every money check in silence; an
empty game_events table is judged, each game's missing winner its own finding)."""


def night_checks(log: LogRoot, seats: Path | None = None) -> list[Finding]:
    """Checks over the whole night's files: table limits (with the ``seats`` earlier
    nightly nights judged); and one note per optional table that is missing (or, of
    ``EMPTY_IS_SILENT``, holds no row: when its other files could not be read, it says
    so as for a table none of whose files could be read), naming the checks that could not
    run (skipped, never passed), and for an unreadable sessions file beside sessions rows
    (the games it touched cannot be known). The night's formats are read once, and only
    when a note may need them."""
    found = table_limit_findings(
        [Path(log.where(f)) for f in log.files.get("sessions", [])],
        [Path(log.where(f)) for f in log.files.get("games", [])],
        log.root,
        by_name=not (log.uniform("sessions") and log.uniform("games")),
        earlier=seats,
    )
    empty = [table for table in EMPTY_IS_SILENT
             if log.files.get(table) and not any(f.rows for f in log.files[table])]  # fmt: skip
    night = night_formats(log) if log.missing_optional or empty else None
    said: set[str] = set()  # the tables named as none of whose files could be read
    for table in sorted(log.missing_optional):
        words = skipped_words(table, log.unread.get(table, ()), night=night)
        if words is None:
            continue  # no game of the night rests on it (a night of matches, no ledger)
        found.append(
            finding("check.skipped", game_id="", message=words, rule=contract("tables.optional"))
        )
    for table in empty if night != set() else ():  # a night of no game rests on no table
        # Its files that read hold no row, and the others could not be read: none of its
        # rows could, as a log root whose only files of it could not be read says (a
        # nightly night's are those and the empty file it adds: docs/nightly.md).
        refused = log.unread.get(table, ())
        words = skipped_words(table, refused, night=night, empty=not refused)
        if words is not None:
            found.append(finding("check.skipped", game_id="", message=words,
                                 rule=contract("tables.optional")))  # fmt: skip
            said.update([table] if refused else [])
    damaged = log.unread.get("sessions", ())
    if damaged and "sessions" not in log.missing_optional and "sessions" not in said:
        found.append(
            finding(
                "check.skipped",
                game_id="",
                message=f"{', '.join(damaged)} could not be read, so table.limit and the "
                "fair-play detectors saw only the other sessions files.",
                rule=contract("tables.files"),
            )
        )
    return found


def night_formats(log: LogRoot) -> set[str] | None:
    """The formats of the night's games (from the games files), None when they cannot be
    read here (then every check a missing table holds is said skipped)."""
    try:
        with duck.connect() as con:
            rows = con.sql(f"SELECT DISTINCT CAST(format AS VARCHAR) FROM {scan(log, 'games')}")
            return {value for (value,) in rows.fetchall() if value is not None}
    except duckdb.Error:
        return None


def scan(log: LogRoot, table: str) -> str:
    """DuckDB's read of every good file of ``table``, for a small query of the night's
    own (the staging reads the tables for the audit)."""
    paths = ", ".join(file_literal(log.where(f)) for f in log.files.get(table, []))
    return (f"read_parquet([{paths}], union_by_name={str(not log.uniform(table)).lower()},"
            " hive_partitioning=false)")  # fmt: skip
