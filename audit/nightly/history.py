"""The history of the nightly runs: what each night found, kept night after night.

Each night's folder holds the history as of that night in ``history/`` (one Parquet file
per table below, every night so far, sorted), built from the last night's and tonight's
outputs: it is what the report's trend section reads, and it is written before the commit
like every other output. ``DIR/history.duckdb`` holds the same rows, and every file taken
(``files``), for queries across nights; it is brought up to the committed night after each
commit, idempotently (keyed by the night), so a run killed at any point leaves it behind
at worst, never ahead and never counting a night twice. It is only a copy: ``history/`` is
the source of truth, and a run that finds the database open in another process (an
analyst's query holds DuckDB's lock on it) goes on without it and leaves it to the next
run to bring up (``held_by``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from audit import duck
from audit.duck import file_literal
from audit.nightwide import EMPTY_IS_SILENT
from audit.output import OUTPUT_VERSION, read_run
from audit.report.history import open_when_last_run

HISTORY = "history"

VERSIONED = {"rummy_audit.output_version": OUTPUT_VERSION}
"""Every history file carries the output version, as every Parquet output does."""

SCHEMAS: dict[str, pa.Schema] = {
    "nights": pa.schema(
        [
            pa.field("night", pa.int32(), nullable=False),
            pa.field("hands_from", pa.string()),
            pa.field("hands_to", pa.string()),
            pa.field("files_new", pa.int64(), nullable=False),
            pa.field("files_rewritten", pa.int64(), nullable=False),
            pa.field("files_seen_before", pa.int64(), nullable=False),
            pa.field("files_duplicate", pa.int64(), nullable=False),
            pa.field("games_audited", pa.int64(), nullable=False),
            pa.field("games_carried_in", pa.int64(), nullable=False),
            pa.field("games_ended", pa.int64(), nullable=False),
            pa.field("games_running", pa.int64(), nullable=False),
            pa.field("hands", pa.int64(), nullable=False),
            pa.field("findings", pa.int64(), nullable=False),
            pa.field("worst_severity", pa.string()),
            pa.field("exit_status", pa.int8(), nullable=False),
            pa.field("fairplay", pa.bool_(), nullable=False),
            pa.field("shuffle", pa.bool_()),
            pa.field("skipped_tables", pa.list_(pa.string())),
            pa.field("absent_tables", pa.list_(pa.string())),
            pa.field("suspicions", pa.int64(), nullable=False),
            pa.field("suspicions_opened", pa.int64(), nullable=False),
            pa.field("suspicions_closed", pa.int64(), nullable=False),
        ],
        metadata=VERSIONED,
    ),
    "checks": pa.schema(
        [
            pa.field("night", pa.int32(), nullable=False),
            pa.field("check", pa.string(), nullable=False),
            pa.field("severity", pa.string(), nullable=False),
            pa.field("findings", pa.int64(), nullable=False),
        ],
        metadata=VERSIONED,
    ),
    "hands": pa.schema(
        [
            pa.field("night", pa.int32(), nullable=False),
            pa.field("status", pa.string(), nullable=False),
            pa.field("hands", pa.int64(), nullable=False),
        ],
        metadata=VERSIONED,
    ),
    "money": pa.schema(
        [
            pa.field("night", pa.int32(), nullable=False),
            pa.field("measure", pa.string(), nullable=False),
            pa.field("games", pa.int64()),
            pa.field("amount", pa.decimal128(38, 2)),
        ],
        metadata=VERSIONED,
    ),
    "suspicions": pa.schema(
        [
            pa.field("night", pa.int32(), nullable=False),
            pa.field("key", pa.string(), nullable=False),
            pa.field("check", pa.string(), nullable=False),
            pa.field("players", pa.list_(pa.string()), nullable=False),
            pa.field("severity", pa.string(), nullable=False),
            pa.field("change", pa.string(), nullable=False),
        ],
        metadata=VERSIONED,
    ),
}
"""The history's tables (``history/<table>.parquet``, and in history.duckdb); every row
has its ``night``. ``money.measure``: ``staked`` (real-money stakes of the games audited
that night: pool and deals entries and rebuys, what the points losers paid) and
``at_stake`` (the same for the games with a finding of minor or above, not a shuffle
test's or a fair-play suspicion's, whose game is only its first evidence hand's); a night
without a ledger table has no money rows (not measured), and one a games or ledger file of
which could not be read has both rows with ``games`` and ``amount`` null (not known: the
sum of the files read is not the night's). ``nights.shuffle``: the shuffle tests ran (null
on nights recorded before the column was added). ``nights.skipped_tables``: the
optional tables the night had no row of to read (missing, refused, or holding no row where
that skips checks: ``skipped_tables``), whose checks (``findings.NOT_RUN_WITHOUT``) did not
run that night (null on nights recorded before the column was added: not known).
``nights.absent_tables``: those of them the log root had no table of to read (missing, or
every file refused: run.json's ``missing_optional_tables``), so that a night whose ledger
table held no row reads "no ledger rows", not "no ledger" (until 2026-12-06 it read "no
ledger": a blind tester); null on nights recorded before the column was added.
``suspicions.change``: ``opened``, ``kept`` (open the night before too) or ``closed`` (open
the night before, not raised that night; ``severity`` is then the last one raised)."""

ORDER = {
    "nights": ("night",),
    "checks": ("night", "check", "severity"),
    "hands": ("night", "status"),
    "money": ("night", "measure"),
    "suspicions": ("night", "key", "change"),
}

HISTORY_VERSION = 2
DDL = """
-- The history of rummy-audit nightly runs, version 2 (the version is in meta).
-- History: 1: nights, checks, hands, money, suspicions, files.
--          2: files keyed by the night and path that took it, with refused: the same
--             content is taken again in another table, or refused at another path.
CREATE TABLE IF NOT EXISTS meta (       -- one row: the last night these tables hold
  history_version INTEGER NOT NULL, night INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS nights (     -- a row per night: what it took and found
  night INTEGER PRIMARY KEY, hands_from VARCHAR, hands_to VARCHAR,
  files_new BIGINT, files_rewritten BIGINT, files_seen_before BIGINT, files_duplicate BIGINT,
  games_audited BIGINT, games_carried_in BIGINT, games_ended BIGINT, games_running BIGINT,
  hands BIGINT, findings BIGINT, worst_severity VARCHAR, exit_status TINYINT,
  fairplay BOOLEAN, suspicions BIGINT, suspicions_opened BIGINT, suspicions_closed BIGINT,
  shuffle BOOLEAN, skipped_tables VARCHAR[], absent_tables VARCHAR[]);
CREATE TABLE IF NOT EXISTS checks (     -- a row per night per check (and severity) found
  night INTEGER, "check" VARCHAR, severity VARCHAR, findings BIGINT);
CREATE TABLE IF NOT EXISTS hands (      -- a row per night per hand status
  night INTEGER, status VARCHAR, hands BIGINT);
CREATE TABLE IF NOT EXISTS money (      -- a row per night per measure: staked, at_stake
  night INTEGER, measure VARCHAR, games BIGINT, amount DECIMAL(38, 2));
CREATE TABLE IF NOT EXISTS suspicions ( -- a row per night per suspicion open or closed
  night INTEGER, key VARCHAR, "check" VARCHAR, players VARCHAR[], severity VARCHAR,
  change VARCHAR);
CREATE TABLE IF NOT EXISTS files (      -- a row per file taken, once (inputs.identity)
  sha256 VARCHAR, "table" VARCHAR, path VARCHAR, size BIGINT, night INTEGER,
  status VARCHAR, refused BOOLEAN, PRIMARY KEY (night, path));
"""


@dataclass(frozen=True)
class NightFacts:
    """What the nightly run knows of tonight beyond the replay's outputs."""

    night: int
    files_new: int
    files_rewritten: int
    files_seen_before: int
    files_duplicate: int
    games_carried_in: int
    games_ended: int
    games_running: int
    unread: tuple[tuple[str, str], ...] = ()
    """(table, path) of the files earlier nights refused that may hold rows of tonight's
    games (the replay names them where rows are missing; run.json lists only tonight's)."""


def suspicion_key(check: str, players: Iterable[str]) -> str:
    """Suspicions are matched across nights by detector and accounts (in any order).

    >>> suspicion_key("fairplay.collusion", ["P2", "P1"])
    'fairplay.collusion:P1,P2'
    """
    return f"{check}:{','.join(sorted(players))}"


def tonight(
    facts: NightFacts, out: Path, logs: Path, past: dict[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """Tonight's history rows, from the night's outputs in ``out``, its log root ``logs``
    (the money) and the past rows (the suspicions open the night before)."""
    run = read_run(out)
    night = facts.night
    with duck.connect() as db:
        findings = file_literal(str(out / "findings.parquet"))
        hands_file = file_literal(str(out / "hands.parquet"))
        checks = db.execute(
            f'SELECT "check", severity, count(*) FROM read_parquet({findings}) '
            'GROUP BY ALL ORDER BY 1, 2'
        ).fetchall()
        statuses = db.execute(
            f"SELECT status, count(*) FROM read_parquet({hands_file}) GROUP BY 1 ORDER BY 1"
        ).fetchall()
        games = db.execute(
            f"SELECT count(DISTINCT game_id) FROM read_parquet({hands_file}) "
            "WHERE game_id IS NOT NULL"
        ).fetchall()[0][0]
        money = _money(db, run, logs, findings, facts.unread, hands_file)
    # The detectors looked at something only when a hand was replayed: a night of empty
    # or quarantined files opens and closes nothing (it closed every open suspicion).
    replayed = sum(n for status, n in statuses if status != "quarantined")
    fair = run.get("fairplay", {}).get("status") == "run" and replayed > 0
    suspicions = suspicion_changes(
        night, out, past.get("suspicions", []), past.get("nights", []), fair
    )
    span = run.get("hands_span") or {}
    rows: dict[str, list[dict[str, Any]]] = {
        "checks": [
            {"night": night, "check": c, "severity": s, "findings": n} for c, s, n in checks
        ],
        "hands": [{"night": night, "status": s, "hands": n} for s, n in statuses],
        "money": [
            {"night": night, "measure": m, "games": g, "amount": a} for m, (g, a) in money.items()
        ],
        "suspicions": suspicions,
    }
    rows["nights"] = [
        {
            "night": night,
            "hands_from": span.get("first_started_at"),
            "hands_to": span.get("last_ended_at"),
            "files_new": facts.files_new,
            "files_rewritten": facts.files_rewritten,
            "files_seen_before": facts.files_seen_before,
            "files_duplicate": facts.files_duplicate,
            "games_audited": int(games),
            "games_carried_in": facts.games_carried_in,
            "games_ended": facts.games_ended,
            "games_running": facts.games_running,
            "hands": sum(n for _, n in statuses),
            "findings": sum(n for _, _, n in checks),
            "worst_severity": run.get("worst_severity"),
            "exit_status": int(run.get("exit_status", 0)),
            "fairplay": fair,
            "shuffle": run.get("rng", {}).get("status") == "run" and replayed > 0,
            "skipped_tables": skipped_tables(run),
            "absent_tables": sorted(run.get("missing_optional_tables", [])),
            "suspicions": sum(1 for s in suspicions if s["change"] != "closed"),
            "suspicions_opened": sum(1 for s in suspicions if s["change"] == "opened"),
            "suspicions_closed": sum(1 for s in suspicions if s["change"] == "closed"),
        }
    ]
    return rows


def skipped_tables(run: dict[str, Any]) -> list[str]:
    """The optional tables of a night's ``run.json`` whose checks did not run: those the log
    root lacks or could read no file of (``missing_optional_tables``), and those of
    ``nightwide.EMPTY_IS_SILENT`` whose files that read hold no row, as the night's
    ``check.skipped`` says.

    >>> skipped_tables({"missing_optional_tables": ["sessions"], "inputs": [
    ...     {"table": "ledger", "path": "ledger/a.parquet", "rows": 0},
    ...     {"table": "game_events", "path": "game_events/a.parquet", "rows": 0}]})
    ['ledger', 'sessions']
    """
    refused = {f.get("path") for f in run.get("unreadable_files", [])}
    rows: dict[str, int] = {}
    for f in run.get("inputs", []):
        if f.get("path") not in refused:
            rows[f["table"]] = rows.get(f["table"], 0) + int(f.get("rows") or 0)
    empty = {table for table in EMPTY_IS_SILENT if rows.get(table, 1) == 0}
    return sorted(set(run.get("missing_optional_tables", [])) | empty)


MONEY_TABLES = ("games", "ledger")
"""The tables the night's money is summed from: a file of one that could not be read
makes it not known."""

Money = dict[str, tuple[int | None, Decimal | None]]
MONEY_NOT_KNOWN: Money = {"staked": (None, None), "at_stake": (None, None)}
"""The money rows of a night whose games or ledger files could not all be read: the sum of
those read is not the night's, so it is not known (null), never 0.00 or a part of it."""


def _money(
    db: duckdb.DuckDBPyConnection,
    run: dict[str, Any],
    logs: Path,
    findings: str,
    earlier: Iterable[tuple[str, str]] = (),
    hands: str = "",
) -> Money:
    """Real-money stakes of the night's games, and of those with a finding of minor or
    above or a quarantined hand in ``hands`` (the night's hands.parquet): exact decimals
    summed by DuckDB over the files the replay read. A hand a refused file took has no
    finding of its own, only the file's ``input.file`` (no ``game_id``), yet its game went
    unchecked as much as one with its own ``input.hand`` (until 2026-12-06 a refused
    results file's 9 games were not at stake: a blind tester). Not known
    (``MONEY_NOT_KNOWN``) when a games or ledger file of the night, or one an earlier night
    refused that may hold rows of its games (``earlier``: table, path), could not be read."""
    files = {t: [file_literal(str(logs / i["path"])) for i in run["inputs"] if i["table"] == t]
             for t in MONEY_TABLES}  # fmt: skip
    unread = {str(f.get("table")) for f in run.get("unreadable_files", [])}
    unread |= {table for table, _ in earlier}
    if (not files["ledger"] or "ledger" in skipped_tables(run)) and "ledger" not in unread:
        # No ledger table, or its files hold no row (a night whose only ledger file is the
        # nightly run's own empty one): the money is not known (the report says "no
        # ledger"), not 0.00 (a blind tester's night of real-money games read "staked 0.00").
        return {}
    if unread & set(MONEY_TABLES):
        return MONEY_NOT_KNOWN
    if not files["games"]:
        return {"staked": (0, Decimal("0.00")), "at_stake": (0, Decimal("0.00"))}
    quarantined = ("\n      UNION SELECT DISTINCT CAST(game_id AS VARCHAR) FROM "
                   f"read_parquet({hands}) WHERE status = 'quarantined' AND game_id <> ''"
                   if hands else "")  # fmt: skip
    sql = f"""
    WITH g AS (
      SELECT DISTINCT CAST(game_id AS VARCHAR) AS game_id
      FROM read_parquet([{', '.join(files['games'])}], union_by_name=true,
                        hive_partitioning=false)
      WHERE CAST(chip_type AS VARCHAR) = 'real'),
    l AS (
      SELECT CAST(game_id AS VARCHAR) AS game_id, CAST(kind AS VARCHAR) AS kind,
             CAST(amount AS DECIMAL(38, 2)) AS amount
      FROM read_parquet([{', '.join(files['ledger'])}], union_by_name=true,
                        hive_partitioning=false)),
    s AS (
      SELECT game_id, sum(CASE WHEN kind IN ('buy_in', 'rebuy') THEN -amount
                               WHEN kind = 'points_settlement' AND amount < 0 THEN -amount
                               ELSE 0 END) AS staked
      FROM l WHERE game_id IN (SELECT game_id FROM g) GROUP BY game_id),
    bad AS (
      SELECT DISTINCT game_id FROM read_parquet({findings})
      WHERE game_id <> '' AND severity IN ('critical', 'major', 'minor')
        AND "check" NOT LIKE 'rng.%' AND "check" NOT LIKE 'fairplay.%'{quarantined})
    SELECT 'staked', count(*), coalesce(sum(staked), 0) FROM s
    UNION ALL
    SELECT 'at_stake', count(*), coalesce(sum(staked), 0) FROM s
    WHERE game_id IN (SELECT game_id FROM bad)
    """
    try:
        rows = db.execute(sql).fetchall()
    except duckdb.Error:
        return MONEY_NOT_KNOWN  # a file the replay read but this sum cannot: the night has no sum
    return {str(m): (int(n), Decimal(a).quantize(Decimal("0.01"))) for m, n, a in rows}


def suspicion_changes(
    night: int,
    out: Path,
    past: list[dict[str, Any]],
    nights: list[dict[str, Any]],
    fair: bool,
) -> list[dict[str, Any]]:
    """Tonight's suspicions matched with those open the last night the detectors ran."""
    if not fair:
        return []
    _, before = open_when_last_run(night, past, nights)
    now: dict[str, dict[str, Any]] = {}
    path = out / "suspicions.parquet"
    if path.is_file():
        for row in pq.read_table(path, columns=["check", "players", "severity"]).to_pylist():
            key = suspicion_key(row["check"], row["players"])
            if key not in now:  # the strongest first: suspicions.parquet's order
                now[key] = {"night": night, "key": key, "check": row["check"],
                            "players": sorted(row["players"]), "severity": row["severity"],
                            "change": "kept" if key in before else "opened"}  # fmt: skip
    closed = [
        {**row, "night": night, "change": "closed"}
        for key, row in before.items()
        if key not in now
    ]
    return [*now.values(), *closed]


def read_history(folder: Path | None) -> dict[str, list[dict[str, Any]]]:
    """The history rows of a night's folder (empty before the first night)."""
    return {name: read_history_table(folder, name) if folder is not None else []
            for name in SCHEMAS}  # fmt: skip


def read_history_table(folder: Path, name: str) -> list[dict[str, Any]]:
    """One table of a night's history (no rows when the folder has not got it)."""
    path = history_file(folder, name)
    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist() if path.is_file() else []
    return rows


def history_file(folder: Path, name: str) -> Path:
    """Where a night's folder keeps one table of its history."""
    return folder / HISTORY / f"{name}.parquet"


def write_history(folder: Path, rows: dict[str, list[dict[str, Any]]]) -> None:
    """``folder/history/<table>.parquet``, each sorted by its key."""
    (folder / HISTORY).mkdir(parents=True, exist_ok=True)
    for name, schema in SCHEMAS.items():
        keys = ORDER[name]
        ordered = sorted(rows.get(name, []), key=lambda r: tuple(r[k] for k in keys))
        pq.write_table(pa.Table.from_pylist(ordered, schema=schema), history_file(folder, name))


def merge(
    past: dict[str, list[dict[str, Any]]], new: dict[str, list[dict[str, Any]]], night: int
) -> dict[str, list[dict[str, Any]]]:
    """The past nights' rows (before ``night``) and tonight's."""
    return {
        name: [r for r in past.get(name, []) if r["night"] < night] + new.get(name, [])
        for name in SCHEMAS
    }


_HOLDER = re.compile(r"Conflicting lock is held in (.+?) \(PID (\d+)\)")


def held_by(error: BaseException) -> str | None:
    """Who has the database open when DuckDB could not lock it for writing (another
    process holds it, read-only or not): ``python, PID 19834`` as DuckDB names it, "" when
    it does not; None when ``error`` is no lock conflict (the file is damaged).

    >>> held_by(OSError('IO Error: Could not set lock on file "h.duckdb": Conflicting lock '
    ...                 'is held in /usr/bin/python3 (PID 42). However, ...'))
    'python3, PID 42'
    >>> held_by(OSError("IO Error: The file is not a valid DuckDB database file!")) is None
    True
    """
    text = str(error)
    if "Could not set lock on file" not in text:
        return None
    found = _HOLDER.search(text)
    return f"{Path(found.group(1)).name}, PID {found.group(2)}" if found else ""


def recorded_night(path: Path) -> int | None:
    """The last night ``history.duckdb`` holds, read without writing (DuckDB lets several
    processes read a database at once); None when it cannot be read so."""
    try:
        with duck.connect(str(path), config={"access_mode": "READ_ONLY"}) as db:
            row = db.execute("SELECT night FROM meta").fetchone()
    except duckdb.Error:
        return None
    return int(row[0]) if row is not None else None


def sync_database(path: Path, night_folder: Path | None, night: int, seen: Path | None) -> bool:
    """Bring ``history.duckdb`` to ``night``: delete what it holds beyond the night it
    last recorded (or beyond ``night``), insert the rows of the nights after it from the
    committed night's ``history/`` and ``seen.parquet``; one transaction, so running it
    again changes nothing. Whether it was behind ``night`` (a run killed after its commit,
    or a database made again)."""
    with duck.connect(str(path)) as db:
        db.execute(DDL)
        # Added since the tables were first made (an older database has not got it; its
        # nights' rows read null: not known).
        db.execute("ALTER TABLE nights ADD COLUMN IF NOT EXISTS shuffle BOOLEAN")
        db.execute("ALTER TABLE nights ADD COLUMN IF NOT EXISTS skipped_tables VARCHAR[]")
        db.execute("ALTER TABLE nights ADD COLUMN IF NOT EXISTS absent_tables VARCHAR[]")
        row = db.execute("SELECT history_version, night FROM meta").fetchone()
        if row is not None and int(row[0]) > HISTORY_VERSION:
            from audit.errors import AuditError

            raise AuditError(
                f"{path} was written by a newer rummy-audit (history version {row[0]}); "
                f"this one writes version {HISTORY_VERSION}",
                slug="state",
            )
        known = min(int(row[1]), night) if row is not None else 0
        older = row is not None and int(row[0]) < HISTORY_VERSION
        if row is not None and int(row[1]) == night and not older:
            return False
        behind = night_folder is not None and (row is None or int(row[1]) < night)
        db.execute("BEGIN TRANSACTION")
        if older:  # version 1 keyed files by the hash alone: made again from seen.parquet
            db.execute("DROP TABLE files")
            db.execute(DDL)
        for name in SCHEMAS:
            db.execute(f"DELETE FROM {name} WHERE night > $known", {"known": known})
        taken = 0 if older else known  # the files of the nights after it are inserted
        db.execute("DELETE FROM files WHERE night > $known", {"known": taken})
        if night_folder is not None:
            for name in SCHEMAS:
                source = history_file(night_folder, name)
                if source.is_file():
                    db.execute(
                        f"INSERT INTO {name} BY NAME SELECT * FROM "
                        f"read_parquet({file_literal(str(source))}) WHERE night > $known",
                        {"known": known},
                    )
        if seen is not None and seen.is_file():
            db.execute(
                "INSERT INTO files BY NAME SELECT * FROM "
                f"read_parquet({file_literal(str(seen))}) WHERE night > $known",
                {"known": taken},
            )
        db.execute("DELETE FROM meta")
        db.execute(
            "INSERT INTO meta VALUES ($version, $night)",
            {"version": HISTORY_VERSION, "night": night},
        )
        db.execute("COMMIT")
    return behind
