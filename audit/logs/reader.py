"""From a log root to units of complete games, with every unreadable file, row and hand
quarantined with why.

`open_log_root` finds the Parquet files of the seven tables and checks each file's footer
(schema version, schema). `iter_units` then works in two steps, so that memory stays bounded
whatever the size of the night and the order of its files:

1. DuckDB (out of core, spilling under `workdir`) reads every good file of a table at once,
   runs the row checks of `audit.logs.validate`, encodes cards as integer codes, finds each
   hand's game, and writes the rows to Parquet under `workdir`, each with its bucket: all
   rows of a game land in one bucket, and buckets follow the log's order (`_hand_map`).
2. Bucket by bucket, polars reads the rows of one bucket, runs the hand-level checks
   set-wise, and Python builds the records of `audit.records`, game by game
   (`audit.logs.bucket`).

Every input hand is yielded exactly once, quarantined or not. A hand that `events` or
`results` name but `hands` does not hold (its row was in a file that could not be read, or
was never written) is an orphan: it is listed in `quarantine`, and yielded as a quarantined
hand of its game when the sessions show which game its players were at when it was played
(`Staged.orphans` keeps every orphan, attributed or not).
"""

from __future__ import annotations

import gc
import hashlib
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from audit import duck
from audit.errors import LogFormatError, one_line
from audit.logs.bucket import ROW_BITS, Bucket, Staged
from audit.logs.contract import (
    REQUIRED_TABLES,
    TABLES,
    check_schema,
    file_schema_version,
    load_contract,
)
from audit.logs.validate import (
    describe,
    file_literal,
    literal,
    row_checks,
    source_sql,
    staged_columns,
    wider_columns,
    width_problems,
)
from audit.records import GameUnit, QuarantineRow, give_back_memory
from audit.rules.registry import PlatformRules

MEMORY_LIMIT = "256MB"
"""DuckDB's memory limit while staging; beyond it, it spills under `workdir`. With the
small partition buffers below, staging a million-hand night peaks at about 400 MiB
(benchmarks/README.md, "Scale"); a lower limit does not lower it (160MB: the same peak,
slower: the partition buffers are outside it), and the hand map alone is built under
``HAND_MAP_MEMORY``."""
HAND_MAP_MEMORY = "128MB"
"""DuckDB's memory limit while it builds the hand map (one row per hand id): under the
staging's limit it took a million-hand night's staging from 330 to 390 MiB."""
STAGED_ROW_GROUP = {"hands": 1_024, "games": 4_096, "events": 4_096, "results": 4_096}
"""Rows per row group of a staged file, and rows a partition's writer holds before it
flushes (8,192 for the tables not named): every open partition holds one such buffer per
thread (32 folders, 2 threads), outside DuckDB's memory limit, so they bound staging's
memory. A hands row holds its shoe (about 1 KiB), an events row about 190 bytes. Halving
them from (hands 2,048, events 8,192, results 16,384) took a million-hand night's staging
from 444 to 386 MiB (DuckDB's own count of its column buffers: from 97-132 to 64-67 MiB
per table)."""
ROW_GROUPS_PER_FILE = 64
"""A staged file is closed after this many row groups and the next one begun: an open
Parquet writer keeps every row group's metadata (about 10 KB each) until it closes, which
grew with the night (a million hands' events in 5,000 row groups: about 50 MiB more)."""
PARTITIONS = 32
"""Folders each staged table is written into, whatever the number of buckets: DuckDB keeps
a Parquet writer open per folder and thread, so a folder per bucket made staging's memory
grow with the night (a million hands in 171 buckets of 250,000 events: 740 MiB, against
340 MiB for 100,000 hands). Bucket b's rows are in folder ``b % PARTITIONS``, read back
by their ``bucket`` column: with more buckets than folders a worker skips the folder's other
buckets by the row groups' statistics when the log keeps a game's rows together
(``_hand_map``), and reads them otherwise. Splitting each folder by bucket after staging
cost more than it saved (staging went from 45 to 80 s)."""
_HASH_CHUNK = 1 << 20


@dataclass(frozen=True)
class InputFile:
    """A good Parquet file of the log root; `path` is relative to the root, '/'-separated."""

    table: str
    path: str
    size: int
    sha256: str
    rows: int
    lacks: frozenset[str] = frozenset()
    """The optional contract columns the file leaves out (a version 1 events file has no
    `meld`): its rows read as null in them."""
    layout: str = ""
    """The file's columns and their types, in order: files of one layout are read without
    matching their columns by name (``LogRoot.uniform``)."""


@dataclass
class LogRoot:
    """A log root's good files per table (sorted by path), its refused files, and the
    optional tables it lacks."""

    root: Path
    files: dict[str, list[InputFile]]
    bad_files: list[QuarantineRow] = field(default_factory=list)
    missing_optional: list[str] = field(default_factory=list)

    def absent(self, table: str) -> frozenset[str]:
        """The optional columns of `table` that none of its good files has: they read as
        nulls (``validate.source_sql``)."""
        files = self.files.get(table, [])
        return frozenset.intersection(*(f.lacks for f in files)) if files else frozenset()

    def uniform(self, table: str) -> bool:
        """Every good file of `table` has the same columns of the same types, in order."""
        return len({f.layout for f in self.files.get(table, [])}) <= 1

    @property
    def damaged(self) -> dict[str, tuple[str, ...]]:
        """Table -> the files of it that could not be read, in path order, each name on
        one line (``one_line``): the messages that name them stay one line."""
        out: dict[str, list[str]] = {}
        for row in sorted(self.bad_files, key=lambda row: row.file or ""):
            if row.file is not None:
                out.setdefault(row.table, []).append(one_line(row.file))
        return {table: tuple(files) for table, files in sorted(out.items())}

    def refuse(self, rows: list[QuarantineRow]) -> None:
        """Take the files of `rows` (``input.file`` rows of good files found unreadable
        after all, ``refuse_undecodable``) out of `files` and into `bad_files`.

        Raises `LogFormatError` when a required table is left with no readable file."""
        gone = {(row.table, row.file) for row in rows}
        self.bad_files.extend(rows)
        for table in sorted({row.table for row in rows}):
            self.files[table] = [f for f in self.files[table] if (table, f.path) not in gone]
            if self.files[table]:
                continue
            if table in REQUIRED_TABLES:
                raise LogFormatError(_no_table(self, table, self.root / table))
            self.missing_optional.append(table)


def open_log_root(root: Path, *, hash_files: bool = True) -> LogRoot:
    """Find and check the Parquet files of every table under `root` (footers only, except
    the columns a file writes wider than the contract, whose values are range-checked).
    Each file's SHA-256 goes into run.json; ``hash_files=False`` leaves it empty (a
    one-hand lookup has no run.json).

    Raises `SchemaVersionError` for a file of another schema version (the run stops), and
    `LogFormatError` when `root` is not a folder or a required table has no readable file.
    """
    if not root.is_dir():
        raise LogFormatError(f"the log root {one_line(str(root))} is not a folder")
    log = LogRoot(root=root, files={})
    for table in TABLES:
        folder = root / table
        paths = sorted(
            (p.relative_to(root).as_posix() for p in folder.rglob("*.parquet") if p.is_file()),
        )
        good = []
        for rel in paths:
            item, problem = _inspect(table, root / rel, rel, hash_files)
            if problem:
                log.bad_files.append(
                    QuarantineRow(table, rel, None, None, None, "input.file", one_line(problem))
                )
            else:
                good.append(item)
        log.files[table] = good
        if good:
            continue
        if table not in REQUIRED_TABLES:
            log.missing_optional.append(table)
            continue
        raise LogFormatError(_no_table(log, table, folder))
    return log


def _no_table(log: LogRoot, table: str, folder: Path) -> str:
    """Why the required `table` has no readable file, in one line naming the first
    refused file."""
    refused = [b.reason for b in log.bad_files if b.table == table]
    if not folder.is_dir():
        why = f"there is no {table}/ folder"
    elif not refused:
        why = f"{table}/ holds no .parquet file"
    else:
        why = f"all {len(refused)} of its files were refused, the first because {refused[0]}"
    return f"the log root has no readable {table}/ table: {why}"


def _inspect(table: str, path: Path, rel: str, hash_files: bool) -> tuple[InputFile, str]:
    """The file's record, and why it is refused ("" when it is good)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while hash_files and (chunk := handle.read(_HASH_CHUNK)):
            digest.update(chunk)
        sha = digest.hexdigest() if hash_files else ""
        try:
            meta = pq.read_metadata(handle)
            schema = meta.schema.to_arrow_schema()
        except (pa.ArrowException, OSError) as error:
            item = InputFile(table, rel, path.stat().st_size, sha, 0)
            return item, f"{one_line(rel)} is not a readable Parquet file: {_first_line(error)}"
    lacks = frozenset(
        c.name for c in load_contract()[table].columns if c.optional and c.name not in schema.names
    )
    # One string per layout, not one per file: a night's 21,000 files held 6.5 MB of copies.
    layout = sys.intern(";".join(f"{f.name}:{f.type}" for f in schema))
    item = InputFile(table, rel, path.stat().st_size, sha, meta.num_rows, lacks, layout)
    source = one_line(rel)
    file_schema_version(meta.metadata, source)
    if (table, layout) in _CLEAN_LAYOUTS:
        return item, ""
    problems = check_schema(table, schema, source=source)
    if not problems:
        try:
            problems = width_problems(table, path, schema, source=source)
        except (pa.ArrowException, OSError) as error:
            problems = [f"{source} is not a readable Parquet file: {_first_line(error)}"]
        if not problems and not wider_columns(table, schema):
            _CLEAN_LAYOUTS.add((table, layout))
    return item, "; ".join(problems)


_CLEAN_LAYOUTS: set[tuple[str, str]] = set()
"""(table, layout) of the files whose schema passed ``check_schema`` with no column wider
than the contract's: the next file of that layout needs neither check (a schema is
checked by its columns' names and types alone, which the layout spells). A million-hand
night's 21,000 files share a handful of layouts; checking each took about 5 of the 12-14
s that opening the log root took."""


def _first_line(error: Exception) -> str:
    return one_line((str(error).splitlines() or [type(error).__name__])[0])


@dataclass(frozen=True)
class Staging:
    """A log root staged into buckets of complete games, ready to be read bucket by
    bucket, in this process or another one (it pickles: paths and small metadata)."""

    staged: Staged
    buckets: int
    missing: tuple[str, ...] = ()
    """The optional tables the log root does not have: the checks that need them skip."""
    damaged: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Table -> its files that could not be read (``LogRoot.damaged``)."""
    rulesets: PlatformRules | None = None
    """The platform's rulesets (``--rules DIR``), as text: each worker builds them once and
    audits its bucket under them (``audit.rules.registry.using``)."""


def bucket_count(event_rows: int, target_rows: int) -> int:
    """How many buckets ``staging`` cuts a night of ``event_rows`` events into."""
    return max(1, -(-event_rows // max(1, target_rows)))


@contextmanager
def staging(
    log: LogRoot,
    *,
    quarantine: list[QuarantineRow],
    target_rows: int = 2_000_000,
    workdir: Path,
    game: str | None = None,
    rulesets: PlatformRules | None = None,
) -> Iterator[Staging]:
    """Stage every table into buckets of about `target_rows` events each (whole games per
    bucket), in a fresh folder under `workdir` removed on exit. Appends every bad row and
    every row naming a hand or game the log does not hold to `quarantine`. With `game`,
    only that game's rows are staged (one hand's dispute does not read the night);
    `rulesets`, the platform's (``--rules``), go with the staging to every worker.

    A file whose footer reads but whose data does not decode is refused as it is found
    (``_stage_readable``): its ``input.file`` row goes to `quarantine` and to
    ``log.bad_files``, and the staging goes on without it."""
    event_rows = sum(f.rows for f in log.files["events"])
    buckets = 1 if game is not None else bucket_count(event_rows, target_rows)
    folder = Path(tempfile.mkdtemp(prefix="reader-", dir=workdir))
    try:
        staged = _stage_readable(log, folder, buckets, game, quarantine)
        quarantine.extend(staged.quarantine)
        yield Staging(staged, buckets, tuple(log.missing_optional), log.damaged, rulesets)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def orphans(stage: Staging) -> dict[str, tuple[str | None, str]]:
    """Hands that events or results name and hands does not hold: hand id -> (the game the
    sessions place it in, or None; why it cannot be replayed). ``read_bucket`` yields the
    placed ones as quarantined hands of their game."""
    return dict(stage.staged.orphans)


def read_bucket(
    stage: Staging, bucket: int, quarantine: list[QuarantineRow]
) -> Iterator[list[GameUnit]]:
    """Batches of complete games of one bucket: every hand of a game and every event of a
    hand in one batch; games by game_id, hands by (hand_no, hand_id), events by seq.
    Appends the bucket's hand-level problems to `quarantine`."""
    try:
        yield from Bucket(stage.staged, bucket, quarantine).batches()
    finally:
        gc.unfreeze()  # each batch's records were frozen once built (``gc_paused``)


def iter_units(
    log: LogRoot,
    *,
    quarantine: list[QuarantineRow],
    target_rows: int = 2_000_000,
    workdir: Path,
) -> Iterator[list[GameUnit]]:
    """Every bucket's batches of complete games, in bucket order (``staging`` then
    ``read_bucket``, in this process)."""
    with staging(log, quarantine=quarantine, target_rows=target_rows, workdir=workdir) as stage:
        for bucket in range(stage.buckets):
            yield from read_bucket(stage, bucket, quarantine)


# ---------------------------------------------------------------- staging, in DuckDB


_HAND_TABLES = ("hands", "events", "results")


_PLACED = "LEFT JOIN (SELECT DISTINCT _game, _bucket AS _placed FROM hand_map) ON game_id = _game"
"""The bucket of each game that has hands; a game with none is placed by its id's hash."""


def _stage_queries(buckets: int) -> dict[str, str]:
    """Per table, the query whose rows are staged; hand rows need `hand_map`."""
    checked = "_k, _ok, _p"
    by_game = (
        "CASE WHEN game_id IS NULL THEN -1"
        f" ELSE coalesce(_placed, CAST(hash(game_id) % {buckets} AS INTEGER)) END"
    )
    by_hand = f"{checked}, coalesce(_bucket, -1) AS bucket"
    queries = {
        # A game's row written again while it runs (schemas/README.md, "Games that span
        # two nights": the same row each night, `ended_at` set the night it ends) is one
        # game, its ended row the one read; rows that differ otherwise, or two ended rows,
        # are duplicates.
        "games": f"SELECT {staged_columns('games')}, ended_at IS NULL AS running, {checked},"
        " CASE WHEN count(DISTINCT _body) OVER w = 1 AND count(ended_at) OVER w <= 1"
        " THEN 1 ELSE count(*) OVER w END AS _copies,"
        " _k = coalesce(min(_k) FILTER (WHERE ended_at IS NOT NULL) OVER w, min(_k) OVER w)"
        f" AS _first, {by_game} AS bucket"
        " FROM (SELECT *, hash(*COLUMNS(lambda c: c NOT IN ('ended_at', '_k'))) AS _body"
        f" FROM chk_games) {_PLACED} WINDOW w AS (PARTITION BY game_id)",
        "hands": f"SELECT _h, _game, {staged_columns('hands')}, {checked}, _copies,"
        " _k = _first_k AS _first, coalesce(_bucket, -1) AS bucket"
        " FROM chk_hands LEFT JOIN hand_map ON hand_id = _hid",
        "events": f"SELECT _h, {staged_columns('events')}, {by_hand}"
        " FROM chk_events LEFT JOIN hand_map ON hand_id = _hid",
        "results": f"SELECT _h, {staged_columns('results')}, {by_hand}"
        " FROM chk_results LEFT JOIN hand_map ON hand_id = _hid",
        "game_events": f"SELECT {staged_columns('game_events')}, {checked},"
        " count(*) OVER (PARTITION BY game_id, seq) AS _copies,"
        f" {by_game} AS bucket FROM chk_game_events {_PLACED}",
        "ledger": f"SELECT {staged_columns('ledger')}, epoch_ms(ts) AS _t, {checked},"
        f" {by_game} AS bucket FROM chk_ledger {_PLACED}",
    }
    folder = f"CASE WHEN bucket < 0 THEN -1 ELSE bucket % {PARTITIONS} END AS part"
    return {table: f"SELECT *, {folder} FROM ({query})" for table, query in queries.items()}


def _hand_map(buckets: int) -> str:
    """One row per hand id: its first hands row (`_first_k`) decides its game; `_h` orders
    all hands by (game_id, hand_no, hand_id).

    `_bucket` is its game's bucket. Games are placed in the order of the log: by their
    first hands row, with the hands before them counted, so that bucket b holds the games
    whose hands start about b/`buckets` of the way through the night. A staged folder holds
    every `PARTITIONS`-th bucket, and its rows come in the log's order, so when the log
    keeps a game's rows together (as a platform's files by time or by table do) each staged
    row group holds one or two buckets, and a worker reading its bucket skips the others'
    row groups by their statistics: a million hands' bucket was read in about 19 µs a hand
    instead of 60-75 when games were placed by the hash of their id (which spread every
    bucket over its whole folder). Any order of the log gives the same outputs; only the
    reading is slower when a game's rows are scattered."""
    hands = (
        "SELECT hand_id AS _hid, coalesce(arg_min_null(game_id, _k), '') AS _game,"
        " arg_min_null(hand_no, _k) AS _no, min(_k) AS _first_k, count(*) AS _copies"
        " FROM raw_hands WHERE hand_id IS NOT NULL GROUP BY hand_id"
    )
    games = "SELECT _game, min(_first_k) AS _start, count(*) AS _n FROM hands GROUP BY _game"
    before = (
        "coalesce(sum(_n) OVER (ORDER BY _start, _game"
        " ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)"
    )
    placed = (
        f"SELECT _game, CAST({before} * {buckets} // sum(_n) OVER () AS INTEGER) AS _bucket"
        " FROM games"
    )
    return (
        f"WITH hands AS ({hands}), games AS ({games}), placed AS ({placed})"
        " SELECT _hid, _game, _first_k, _copies, _bucket,"
        " row_number() OVER (ORDER BY _game, _no, _hid) AS _h"
        " FROM hands JOIN placed USING (_game)"
    )


def game_of_hand(log: LogRoot, hand_id: str) -> tuple[bool, str | None]:
    """(the hands table holds `hand_id`, the game its first row names), read from the
    `hand_id` and `game_id` columns alone. A hands file that cannot be decoded is refused
    (``refuse_undecodable``) and the others read."""
    while True:
        paths = ", ".join(file_literal(str(log.root / f.path)) for f in log.files["hands"])
        try:
            with duck.connect(config={"memory_limit": MEMORY_LIMIT}) as con:
                row = con.execute(
                    "SELECT count(*), arg_min(game_id, file_index * 4294967296 + file_row_number)"
                    f" FROM read_parquet([{paths}], union_by_name=true, hive_partitioning=false)"
                    " WHERE hand_id = $hand",
                    {"hand": hand_id},
                ).fetchone()
            break
        except duckdb.Error as error:
            if not refuse_undecodable(log, ("hands",)):
                why = _relative(error, log.root)
                raise LogFormatError(f"the hands table could not be read: {why}") from error
    found = bool(row and row[0])
    return found, (row[1] if found and row else None)


class _ReadFailed(Exception):
    """DuckDB failed while staging read the files of `tables`."""

    def __init__(self, tables: tuple[str, ...], error: duckdb.Error) -> None:
        super().__init__(_first_line(error))
        self.tables, self.error = tables, error


def _stage_readable(
    log: LogRoot,
    folder: Path,
    buckets: int,
    game: str | None,
    quarantine: list[QuarantineRow],
) -> Staged:
    """`_stage`, and when DuckDB fails: the files of the tables it was reading that it
    cannot decode (a corrupt data page under a good footer) are refused
    (``LogRoot.refuse``, their rows appended to `quarantine`) and the log staged again
    without them. Each file is read alone only then (``refuse_undecodable``): a clean night
    pays nothing. With no such file, the error stands.

    Raises `LogFormatError` when DuckDB fails and no file is to blame, or a required table
    is left without a readable file."""
    while True:
        try:
            return _stage(log, folder, buckets, game)
        except _ReadFailed as failed:
            refused = refuse_undecodable(log, failed.tables)
            if not refused:
                tables = " and ".join(failed.tables)
                raise LogFormatError(
                    f"the {tables} files could not be read: {_relative(failed, log.root)}"
                ) from failed.error
            quarantine.extend(refused)
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()


def refuse_undecodable(log: LogRoot, tables: Iterable[str]) -> list[QuarantineRow]:
    """For a reader whose DuckDB query over the files of `tables` failed: the good files
    of `tables` whose data DuckDB cannot decode (a corrupt page under a good footer),
    taken out of ``log.files`` into ``log.bad_files`` (``LogRoot.refuse``), as their
    ``input.file`` rows; none when no file is to blame. Each file's contract columns are
    read whole, one file at a time, as staging reads them: call it only once a query
    failed.

    Raises `LogFormatError` when a required table is left without a readable file."""
    refused = []
    root = log.root
    with duck.connect(config={"memory_limit": MEMORY_LIMIT}) as con:
        for table in tables:
            for item in log.files[table]:
                source = source_sql(table, [str(root / item.path)], first_file=0,
                                    row_bits=ROW_BITS, absent=item.lacks, uniform=True)  # fmt: skip
                try:
                    con.execute(f"SELECT max(hash(t)) FROM ({source}) t").fetchall()
                except duckdb.Error as error:
                    why = f"{one_line(item.path)} has data that cannot be decoded:"
                    reason = f"{why} {_relative(error, root)}"
                    refused.append(
                        QuarantineRow(table, item.path, None, None, None, "input.file", reason)
                    )
    log.refuse(refused)
    return refused


def _relative(error: Exception, root: Path) -> str:
    """The first line of `error`, a path under `root` written relative to it (DuckDB
    names the file it failed on by the path it was given)."""
    return _first_line(error).replace(one_line(f"{root}/"), "")


def _stage(log: LogRoot, folder: Path, buckets: int, game: str | None = None) -> Staged:
    """Check, encode and bucket every table; collect the row-level quarantine.

    Raises `_ReadFailed` when DuckDB fails, naming the tables whose files it was reading."""
    config: duck.Config = {
        "memory_limit": MEMORY_LIMIT,
        "temp_directory": str(folder / "spill"),
        "preserve_insertion_order": False,
    }
    staged = Staged(folder, [f.path for t in TABLES for f in log.files[t]], {}, [], {}, {},
                    partitions=PARTITIONS)  # fmt: skip
    con = duck.connect(config=config)
    reading: tuple[str, ...] = TABLES  # the tables whose files the statement reads
    try:
        offset = 0
        for table in TABLES:
            paths = [str(log.root / f.path) for f in log.files[table]]
            _create_views(
                con, table, paths, offset, game, log.absent(table), log.uniform(table)
            )
            offset += len(paths)
        hand_map = literal(str(folder / "hand_map.parquet"))
        reading = ("hands",)
        con.execute(f"SET memory_limit = '{HAND_MAP_MEMORY}'")
        con.execute(f"COPY ({_hand_map(buckets)}) TO {hand_map} (FORMAT parquet)")
        duck.give_back(con, MEMORY_LIMIT)
        con.execute(f"CREATE VIEW hand_map AS SELECT * FROM read_parquet({hand_map})")
        for table, query in _stage_queries(buckets).items():
            reading = (table,)
            target = literal(str(folder / table))
            rows = STAGED_ROW_GROUP.get(table, 8_192)
            con.execute(f"SET partitioned_write_flush_threshold = {rows}")
            con.execute(
                f"COPY ({query}) TO {target} (FORMAT parquet, PARTITION_BY (part),"
                f" ROW_GROUP_SIZE {rows}, ROW_GROUPS_PER_FILE {ROW_GROUPS_PER_FILE})"
            )
            skip = "bucket, part, _p" + (", hand_id" if table in ("events", "results") else "")
            empty = con.sql(f"SELECT * EXCLUDE ({skip}) FROM ({query}) LIMIT 0")
            staged.schemas[table] = empty.pl().schema
            duck.give_back(con, MEMORY_LIMIT)  # what the COPY and the schema's query left cached
        reading = ("sessions",)  # from here on, the other tables are read as staged
        _collect_quarantine(con, staged)
        staged.damaged = log.damaged
        reading = ("events", "results", "sessions")
        staged.orphans = _orphans(con, log, staged)
    except duckdb.Error as error:
        raise _ReadFailed(reading, error) from error
    finally:
        con.close()
        give_back_memory()
    return staged


def _create_views(
    con: duckdb.DuckDBPyConnection,
    table: str,
    paths: list[str],
    first_file: int,
    game: str | None = None,
    absent: frozenset[str] = frozenset(),
    uniform: bool = False,
) -> None:
    """`raw_<table>`: the contract columns of every row of the table's good files, with
    `_k` (only the rows of `game`, when given; the optional columns no file has, `absent`,
    as nulls); `chk_<table>`: the same with `_ok` and `_p`, its row checks."""
    checks = row_checks(table)
    source = source_sql(
        table, paths, first_file=first_file, row_bits=ROW_BITS, absent=absent, uniform=uniform
    )
    if game is not None:
        keep = f"game_id = {literal(game)}"
        if table in ("events", "results"):  # the game's hands, as literals the scan can prune by
            hands = [row[0] for row in con.sql("SELECT DISTINCT hand_id FROM raw_hands").fetchall()]
            keep = f"hand_id IN ({', '.join(literal(h) for h in hands if h) or 'NULL'})"
        source = f"SELECT * FROM ({source}) WHERE {keep}"
    con.execute(f"CREATE VIEW raw_{table} AS {source}")
    con.execute(
        f"CREATE VIEW chk_{table} AS SELECT *, {checks.ok} AS _ok,"
        f" {checks.problems} AS _p FROM raw_{table}"
    )


def _ids(table: str) -> str:
    """SQL for the hand id and the game id of a row of `table`, NULL when it has none."""
    hand = "hand_id" if table in _HAND_TABLES else "NULL"
    game = "nullif(_game, '')" if table in ("events", "results") else "game_id"
    return f"{hand} AS h, {game} AS g"


def _collect_quarantine(con: duckdb.DuckDBPyConnection, staged: Staged) -> None:
    """Bad rows, duplicated keys and orphans, in a stable order."""

    def rows(table: str, query: str, bucket: int | None = None) -> list[tuple[Any, ...]]:
        paths = staged.paths(table, bucket)
        if table != "sessions" and not paths:
            return []
        listed = ", ".join(file_literal(str(path)) for path in paths)
        source = (
            "chk_sessions"
            if table == "sessions"
            else f"read_parquet([{listed}], hive_partitioning=false)"
        )
        found = con.sql(query.format(src=source)).fetchall()
        duck.give_back(con, MEMORY_LIMIT)
        return found

    out = staged.quarantine
    for table in TABLES:
        join = " LEFT JOIN hand_map ON hand_id = _hid" if table in ("events", "results") else ""
        query = f"SELECT _k, {_ids(table)}, _p FROM {{src}}{join} WHERE NOT _ok ORDER BY _k"
        for key, hand, game, problems in rows(table, query):
            file, row = staged.where(key)
            reason = f"{table} row {row} of {one_line(file)}: {describe(table, problems)}"
            out.append(QuarantineRow(table, file, row, hand, game, "input.row", reason))
            if hand is not None and table in _HAND_TABLES:
                staged.hand_reasons.setdefault(hand, reason)
            elif game is not None and table == "games":
                staged.game_reasons.setdefault(game, reason)
    copies = (
        "SELECT {ids}, _k, _copies FROM {{src}}"
        " WHERE _copies > 1 AND {key} IS NOT NULL ORDER BY {key}, _k"
    )
    for game, key, n in rows("games", copies.format(ids="game_id", key="game_id")):
        file, row = staged.where(key)
        reason = f"game {one_line(game)} appears {n} times in games"
        out.append(QuarantineRow("games", file, row, None, game, "input.row", reason))
        staged.game_reasons.setdefault(game, reason)
    for hand, game, key, n in rows("hands", copies.format(ids="hand_id, game_id", key="hand_id")):
        file, row = staged.where(key)
        reason = f"hand {one_line(hand)} appears {n} times in hands"
        out.append(QuarantineRow("hands", file, row, hand, game, "input.hand", reason))
    twice = (
        "SELECT game_id, seq, _k, _copies FROM {src} WHERE _copies > 1"
        " AND game_id IS NOT NULL AND seq IS NOT NULL ORDER BY game_id, seq, _k"
    )
    for game, seq, key, n in rows("game_events", twice):
        file, row = staged.where(key)
        reason = (
            f"game {one_line(game)} has {n} game_events rows with seq {seq}, the key of one"
        )
        out.append(QuarantineRow("game_events", file, row, None, game, "input.row", reason))
    orphans = (
        "SELECT hand_id, count(*), min(_k) FROM {src} WHERE _h IS NULL AND hand_id IS NOT NULL"
        " GROUP BY hand_id ORDER BY hand_id"
    )
    for table in ("events", "results"):
        for hand, n, key in rows(table, orphans, bucket=-1):  # `_h` NULL: no bucket
            reason = f"{table} name hand {one_line(hand)}, which hands does not hold ({_rows(n)})"
            out.append(
                QuarantineRow(table, staged.where(key)[0], None, hand, None, "input.hand", reason)
            )
    games = staged.paths("games")
    usable = (
        f"SELECT game_id, bool_and(_ok) AND max(_copies) = 1 AS usable FROM"
        f" read_parquet([{', '.join(file_literal(str(p)) for p in games)}],"
        " hive_partitioning=false) GROUP BY game_id"
        if games
        else "SELECT NULL::VARCHAR AS game_id, NULL::BOOLEAN AS usable WHERE false"
    )
    strays = (
        f"SELECT game_id, count(*), min(_k), any_value(usable) IS NOT NULL FROM {{src}}"
        f" LEFT JOIN ({usable}) USING (game_id) WHERE game_id IS NOT NULL"
        " AND NOT coalesce(usable, false) GROUP BY game_id ORDER BY game_id"
    )
    for table in ("game_events", "ledger"):
        for game, n, key, known in rows(table, strays):
            held = "whose games row is quarantined" if known else "which games does not hold"
            reason = f"{table} name game {one_line(game)}, {held} ({_rows(n)})"
            out.append(
                QuarantineRow(table, staged.where(key)[0], None, None, game, "input.row", reason)
            )


def _orphans(
    con: duckdb.DuckDBPyConnection, log: LogRoot, staged: Staged
) -> dict[str, tuple[str | None, str]]:
    """Every hand that events or results name and hands does not hold, with the game its
    players' sessions place it in (each player seated in that one game when its first
    event was played) and why it cannot be replayed: the unreadable hands files, when
    there are any, are the likely cause, and the reason names them. The staged rows say
    first whether there is any (most nights have none: the sessions are not read), from the
    files of the rows of no bucket alone."""
    staged_paths = staged.paths("events", -1) + staged.paths("results", -1)
    listed = ", ".join(file_literal(str(path)) for path in staged_paths)
    if not staged_paths or not con.sql(
        f"SELECT 1 FROM read_parquet([{listed}], union_by_name=true, hive_partitioning=false)"
        " WHERE _h IS NULL AND hand_id IS NOT NULL LIMIT 1"
    ).fetchall():
        return {}
    lost = list(log.damaged.get("hands", ()))
    if lost:
        files = ", ".join(lost[:3]) + (f" and {len(lost) - 3} more" if len(lost) > 3 else "")
        why = f"its hands row could not be read: {files} could not be read"
    else:
        why = "events or results name it, but hands does not hold it"
    rows = con.sql(
        """
        WITH o AS (
          SELECT hand_id FROM chk_events WHERE hand_id IS NOT NULL
            AND hand_id NOT IN (SELECT _hid FROM hand_map)
          UNION SELECT hand_id FROM chk_results WHERE hand_id IS NOT NULL
            AND hand_id NOT IN (SELECT _hid FROM hand_map)
        ), t AS (
          SELECT hand_id, min(ts) AS ts FROM chk_events SEMI JOIN o USING (hand_id)
          GROUP BY hand_id
        ), p AS (
          SELECT DISTINCT hand_id, player_id FROM chk_results SEMI JOIN o USING (hand_id)
          WHERE player_id IS NOT NULL
        ), need AS (
          SELECT hand_id, count(*) AS n FROM p GROUP BY hand_id
        ), seated AS (
          SELECT p.hand_id, s.game_id, count(DISTINCT p.player_id) AS n
          FROM p JOIN t USING (hand_id)
          JOIN chk_sessions s ON s.player_id = p.player_id AND s._ok
           AND t.ts BETWEEN s.joined_at AND s.left_at
          GROUP BY ALL
        ), game AS (
          SELECT s.hand_id, min(s.game_id) AS game_id, count(*) AS games
          FROM seated s JOIN need n ON n.hand_id = s.hand_id AND s.n = n.n
          GROUP BY s.hand_id
        )
        SELECT o.hand_id, CASE WHEN game.games = 1 THEN game.game_id END
        FROM o LEFT JOIN game USING (hand_id) ORDER BY o.hand_id
        """
    ).fetchall()
    return {hand: (game, f"hand {one_line(hand)} cannot be replayed: {why}") for hand, game in rows}


def _rows(n: int) -> str:
    return "1 row" if n == 1 else f"{n} rows"
