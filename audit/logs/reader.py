"""From a log root to units of complete games, with every unreadable file, row and hand
quarantined with why.

`open_log_root` finds the Parquet files of the seven tables and checks each file's footer
(schema version, schema). `iter_units` then works in two steps, so that memory stays bounded
whatever the size of the night and the order of its files:

1. DuckDB (out of core, spilling under `workdir`) reads every good file of a table at once,
   runs the row checks of `audit.logs.validate`, encodes cards as integer codes, finds each
   hand's game, and writes the rows to Parquet under `workdir`, each with its bucket: all
   rows of a game land in one bucket, and buckets follow the log's order (`_hand_map`).
   A night of more than `duck.HANDS_PER_PASS` hands stages its hand tables in passes over runs
   of their files. What it quarantines is `audit.logs.quarantine`'s.
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
import shutil
import tempfile
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import duckdb
import pyarrow as pa

from audit import duck
from audit.duck import file_literal, literal, quote
from audit.errors import AuditError, LogFormatError, first_line, first_line_under, one_line
from audit.logs.bucket import ROW_BITS, Bucket, Staged
from audit.logs.contract import HAND_TABLES, REQUIRED_TABLES, TABLES, load_contract
from audit.logs.files import not_read, shown, table_entries
from audit.logs.footer import InputFile, complete, inspect_file, one_of_each
from audit.logs.quarantine import collect_quarantine, find_orphans, refused_hands
from audit.logs.refile import REFILED
from audit.logs.validate import row_checks, source_sql, staged_columns, undecodable_at
from audit.records import GameUnit, QuarantineRow, give_back_memory
from audit.rules.registry import PlatformRules

MEMORY_LIMIT = "256MB"
"""DuckDB's memory limit while staging; beyond it, it spills under `workdir`. With the
small partition buffers below, staging a million-hand night peaks at about 400 MiB
(benchmarks/README.md, "Scale"); a lower limit does not lower it (160MB: the same peak,
slower: the partition buffers are outside it), and the hand map alone is built under
``HAND_MAP_MEMORY``."""
HAND_MAP_MEMORY = "128MB"
"""DuckDB's memory limit while it builds the hand map (one row per hand id, ``_hand_map``):
under the staging's limit it took a million-hand night's staging from 330 to 390 MiB."""
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


@dataclass(frozen=True)
class EarlierRefused:
    """A file of the platform's log root that an earlier night of ``rummy-audit nightly``
    refused and that may hold rows of a game judged tonight (a game carried since then):
    named where the rows it may hold are missing, as one replay of every night's files
    names it (docs/nightly.md). It is no input of tonight's: no ``input.file`` row again."""

    table: str
    path: str
    """Its path in the platform's log root, as that night's quarantine named it."""
    source: Path | None = None
    """Where its bytes are tonight, for the hand ids it still holds; None when gone."""


@dataclass
class LogRoot:
    """A log root's good files per table (sorted by path), its refused files, and the
    optional tables it lacks."""

    root: Path
    files: dict[str, list[InputFile]]
    bad_files: list[QuarantineRow] = field(default_factory=list)
    missing_optional: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(table, path) of the ``.parquet`` files of a table's folder that are a writer's own
    (``files.writers_own``: a name starting with ``.`` or ``_``), not read; run.json and
    the report list them, so that none is left out silently."""
    refused_bytes: dict[str, tuple[int, str]] = field(default_factory=dict)
    """A refused file's path -> its size and SHA-256, where it could be read as bytes
    (run.json's ``unreadable_files``: a refused file replaced by another is other logs)."""
    copies: list[tuple[InputFile, str]] = field(default_factory=list)
    """Good files with the same rows as an earlier path of their table (``one_of_each``),
    each with that path: not read, listed in run.json's ``copied_files``."""
    earlier: list[EarlierRefused] = field(default_factory=list)
    """Files an earlier nightly night refused that may hold rows of tonight's games: in
    ``damaged``, not in ``bad_files``."""
    scratch: Path | None = None
    """The folder of the completed copies of files whose partition folders give columns
    (``footer.complete``); removed with this object, or at exit."""

    def where(self, item: InputFile) -> str:
        """The path the rows of ``item`` are read from: its completed copy, or its own."""
        return item.source or str(self.root / item.path)

    def _complete(self, path: Path, item: InputFile) -> InputFile:
        """``item`` read from a copy with its folders' columns (``footer.complete``)."""
        if self.scratch is None:
            self.scratch = Path(tempfile.mkdtemp(prefix="rummy-audit-keys-"))
            weakref.finalize(self, shutil.rmtree, self.scratch, True)
        return replace(item, source=str(complete(path, item, self.scratch)))

    def absent(self, table: str) -> frozenset[str]:
        """The optional columns of `table` that none of its good files has: they read as
        nulls (``validate.source_sql``)."""
        files = self.files.get(table, [])
        return frozenset.intersection(*(f.lacks for f in files)) if files else frozenset()

    @property
    def ledger_rows(self) -> bool:
        """The ledger table holds rows: a game that has none of them is then one without
        its own (``audit.unit.game_checks``), not one of a night that keeps no ledger."""
        return any(f.rows for f in self.files.get("ledger", []))

    def uniform(self, table: str) -> bool:
        """Every good file of `table` has the same columns of the same types, in order."""
        return len({f.layout for f in self.files.get(table, [])}) <= 1

    def sql(self, table: str) -> str:
        """SQL for the contract columns of every row of the good files of `table`, with
        `_k` (a file's place in `files`, then the row's; ``validate.source_sql``)."""
        paths = [self.where(f) for f in self.files.get(table, [])]
        return source_sql(table, paths, first_file=0, row_bits=ROW_BITS,
                          absent=self.absent(table), uniform=self.uniform(table))  # fmt: skip

    @property
    def damaged(self) -> dict[str, tuple[str, ...]]:
        """Table -> the files of it that could not be read, in path order, each name on
        one line (``one_line``): the messages that name them stay one line. The files an
        earlier nightly night refused (``earlier``) are among them."""
        named = [(row.table, row.file) for row in self.bad_files if row.file is not None]
        named += [(item.table, item.path) for item in self.earlier]
        out: dict[str, list[str]] = {}
        for table, path in sorted(set(named), key=lambda pair: pair[1]):
            out.setdefault(table, []).append(one_line(path))
        return {table: tuple(files) for table, files in sorted(out.items())}

    @property
    def unread(self) -> dict[str, tuple[str, ...]]:
        """``damaged`` without ``earlier``: the files of this log root that could not be
        read (what the night-level notes name)."""
        return LogRoot(self.root, {}, self.bad_files).damaged

    @property
    def sources(self) -> dict[str, Path | None]:
        """An earlier refused file's path -> where its bytes are tonight (None: gone)."""
        return {one_line(item.path): item.source for item in self.earlier}

    def refuse(self, rows: list[QuarantineRow]) -> None:
        """Take the files of `rows` (``input.file`` rows of good files found unreadable
        after all, ``refuse_undecodable``) out of `files` and into `bad_files`.

        Raises `LogFormatError` when a required table is left with no readable file."""
        gone = {(row.table, row.file) for row in rows}
        self.bad_files.extend(rows)
        for table in sorted({row.table for row in rows}):
            self.refused_bytes.update((f.path, (f.size, f.sha256)) for f in self.files[table]
                                      if (table, f.path) in gone)  # fmt: skip
            self.files[table] = [f for f in self.files[table] if (table, f.path) not in gone]
            if self.files[table]:
                continue
            if table in REQUIRED_TABLES:
                raise LogFormatError(_no_table(self, table, self.root / table))
            self.missing_optional.append(table)


def open_log_root(root: Path, *, hash_files: bool = True, one_copy: bool = True) -> LogRoot:
    """Find and check the Parquet files of every table under `root` (footers only, except
    the columns a file writes wider than the contract, whose values are range-checked).
    Each file's SHA-256 goes into run.json; ``hash_files=False`` leaves it empty (a
    one-hand lookup has no run.json). A file with the same rows as an earlier one of its
    table is read once (``footer.one_of_each``), unless ``one_copy`` is false: a nightly
    night's work root, whose files the intake took once each, holds an earlier night's
    rows of a game beside tonight's, which may be the same bytes and are then rows sent
    twice (docs/nightly.md).

    Raises `SchemaVersionError` for a file of another schema version (the run stops), and
    `LogFormatError` when `root` is not a folder or a required table has no readable file.
    """
    if not root.is_dir():
        raise LogFormatError(f"the log root {one_line(str(root))} is not a folder")
    log = LogRoot(root=root, files={})
    for table in TABLES:
        folder = root / table
        entries = table_entries(root, table)
        log.skipped += [(table, shown(p.relative_to(root).as_posix())) for p in entries.skipped]
        found = [(shown(path.relative_to(root).as_posix()), why) for path, why in entries.read]
        if folder.exists() and not folder.is_dir():  # a file where the table's folder goes
            found.append((table, f"is a file, not a folder: a table is a folder of {table} "
                                 "Parquet files, so it was not read"))  # fmt: skip
        found.sort()
        good = []
        for rel, why in found:
            if why:
                log.bad_files.append(QuarantineRow(
                    table, rel, None, None, None, "input.file", f"{one_line(rel)} {why}"
                ))  # fmt: skip
                continue
            item, problem = inspect_file(table, root / rel, rel, hash_files)
            if item.keys and not problem:
                try:
                    item = log._complete(root / rel, item)
                except (pa.ArrowException, OSError) as error:
                    problem = f"{one_line(rel)} could not be read: {first_line(error)}"
            if problem:
                log.bad_files.append(
                    QuarantineRow(table, rel, None, None, None, "input.file", one_line(problem))
                )
                if item.sha256:
                    log.refused_bytes[rel] = (item.size, item.sha256)
            else:
                good.append(item)
        if one_copy:
            good, copies = one_of_each(root, good)
            log.copies += copies
        log.files[table] = good
        if good:
            continue
        if table not in REQUIRED_TABLES:
            log.missing_optional.append(table)
            continue
        raise LogFormatError(_no_table(log, table, folder))
    log.bad_files += not_read(root)
    log.skipped.sort()
    return log


def _no_table(log: LogRoot, table: str, folder: Path) -> str:
    """Why the required `table` has no readable file, in one line naming the first
    refused file."""
    refused = [b.reason for b in log.bad_files if b.table == table]
    if folder.exists() and not folder.is_dir():
        why = refused[0]
    elif not folder.is_dir():
        why = f"there is no {table}/ folder"
    elif not refused:
        why = f"{table}/ holds no .parquet file"
    else:
        why = f"all {len(refused)} of its files were refused, the first because {refused[0]}"
    return f"the log root has no readable {table}/ table: {why}"


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
    ledger_rows: bool = False
    """The ledger table holds rows (``LogRoot.ledger_rows``)."""


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
        yield Staging(staged, buckets, tuple(log.missing_optional), log.damaged, rulesets,
                      log.ledger_rows)  # fmt: skip
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


_PLACED = "LEFT JOIN (SELECT _game, _bucket AS _placed FROM placed) ON game_id = _game"
"""The bucket of each game that has hands; a game with none is placed by its id's hash."""


_PASS = "chk_pass LEFT JOIN pass_map ON hand_id = _hid"
"""A hand table's rows of one pass (``duck.HANDS_PER_PASS``) with their hands' rows of the hand
map."""


def _stage_queries(buckets: int) -> dict[str, str]:
    """Per table, the query whose rows are staged; hand rows read `chk_pass` and
    `pass_map` (``_pass_views``)."""
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
        f" FROM {_PASS}",
        "events": f"SELECT _h, {staged_columns('events')}, epoch_ms(ts) AS _t, {by_hand}"
        f" FROM {_PASS}",
        "results": f"SELECT _h, {staged_columns('results')}, {by_hand} FROM {_PASS}",
        "game_events": f"SELECT {staged_columns('game_events')}, {checked},"
        " count(*) OVER (PARTITION BY game_id, seq) AS _copies,"
        f" {by_game} AS bucket FROM chk_game_events {_PLACED}",
        "ledger": f"SELECT {staged_columns('ledger')}, epoch_ms(ts) AS _t, {checked},"
        f" {by_game} AS bucket FROM chk_ledger {_PLACED}",
    }
    folder = f"CASE WHEN bucket < 0 THEN -1 ELSE bucket % {PARTITIONS} END AS part"
    return {table: f"SELECT *, {folder} FROM ({query})" for table, query in queries.items()}


def _hand_map(buckets: int, refiled: str | None = None) -> list[tuple[str, str]]:
    """The hand map's steps, each a (view, query) whose rows are written to Parquet and read
    back as that view by the steps after it: ``hand_map``, one row per hand id, whose first
    hands row (`_first_k`) decides its game (or ``refiled``: the game of its table it was
    played in, ``audit.logs.refile``), and `_h` orders all hands
    by (game, hand_no, hand_id); ``placed``, one row per game that has hands, with its
    `_bucket`. ``refiled`` names a table of the night's refiled hands, when the views hold
    one game's rows only (which cannot tell).

    Games are placed in the order of the log: by their first hands row, with the hands
    before them counted, so that bucket b holds the games whose hands start about
    b/`buckets` of the way through the night. A staged folder holds every `PARTITIONS`-th
    bucket, and its rows come in the log's order, so when the log keeps a game's rows
    together (as a platform's files by time or by table do) each staged row group holds one
    or two buckets, and a worker reading its bucket skips the others' row groups by their
    statistics: a million hands' bucket was read in about 19 µs a hand instead of 60-75
    when games were placed by the hash of their id (which spread every bucket over its
    whole folder). Any order of the log gives the same outputs; only the reading is slower
    when a game's rows are scattered.

    In steps, not one query, so that memory does not grow with the night: DuckDB holds a
    CTE that two parts of a query read whole, and a window ordered over every hand (a
    `row_number` of ten million hands) cannot spill; it ran out of memory under 128MB. Here
    `_h` is the hands before the game's (a running sum over games) plus the hand's number
    within its game (a window partitioned by game, which spills)."""
    hands = (
        "SELECT hand_id AS _hid, coalesce(any_value(_to), arg_min_null(game_id, _k), '')"
        " AS _game,"
        " arg_min_null(hand_no, _k) AS _no, min(_k) AS _first_k, count(*) AS _copies"
        " FROM raw_hands LEFT JOIN (SELECT hand_id AS _rh, played AS _to FROM refiled)"
        " ON hand_id = _rh WHERE hand_id IS NOT NULL GROUP BY hand_id"
    )
    games = "SELECT _game, min(_first_k) AS _start, count(*) AS _n FROM hand_ids GROUP BY _game"

    def before(order: str) -> str:
        """The hands of the games before this one in `order`."""
        return (
            f"coalesce(sum(_n) OVER (ORDER BY {order}"
            " ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)"
        )

    placed = (
        f"SELECT _game, CAST({before('_start, _game')} * {buckets} // sum(_n) OVER ()"
        f" AS INTEGER) AS _bucket, {before('_game')} AS _before FROM hand_games"
    )
    hand_map = (
        "SELECT _hid, _game, _first_k, _copies, _bucket,"
        " _before + row_number() OVER (PARTITION BY _game ORDER BY _no, _hid) AS _h"
        " FROM hand_ids JOIN placed USING (_game)"
    )
    read = f"SELECT * FROM {refiled}" if refiled else REFILED.format(games="raw_games",
                                                                       hands="raw_hands")
    return [("refiled", read), ("hand_ids", hands), ("hand_games", games), ("placed", placed),
            ("hand_map", hand_map)]


def game_of_hand(log: LogRoot, hand_id: str) -> tuple[bool, str | None]:
    """(the hands table holds `hand_id`, the game the night reads it in: the one its first
    row names, or the game it was played in, ``audit.logs.refile``). A hands file that
    cannot be decoded is refused (``refuse_undecodable``) and the others read."""
    while True:
        tables = {
            table: "read_parquet([{}], union_by_name=true, hive_partitioning=false)".format(
                ", ".join(file_literal(log.where(f)) for f in log.files[table]))
            for table in ("hands", "games")
        }  # fmt: skip
        try:
            with duck.connect(config={"memory_limit": MEMORY_LIMIT}) as con:
                row = con.execute(
                    "SELECT count(*), coalesce(any_value(played),"
                    " arg_min(game_id, file_index * 4294967296 + file_row_number))"
                    f" FROM {tables['hands']} LEFT JOIN ({REFILED.format(**tables)}) r"
                    " USING (hand_id) WHERE hand_id = $hand",
                    {"hand": hand_id},
                ).fetchone()
            break
        except duckdb.Error as error:
            if not refuse_undecodable(log, ("hands",)):
                why = first_line_under(error, log.root)
                raise LogFormatError(f"the hands table could not be read: {why}") from error
    found = bool(row and row[0])
    return found, (row[1] if found and row else None)


class _ReadFailed(Exception):
    """DuckDB failed while staging read the files of `tables`."""

    def __init__(self, tables: tuple[str, ...], error: duckdb.Error) -> None:
        super().__init__(first_line(error))
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
    is left without a readable file; `AuditError` when DuckDB runs out of memory (no file
    is read alone then: none is to blame)."""
    if game is None:  # one game's staging reads its rows alone: the night's are not checked
        quarantine.extend(decode_unstaged(log))
    while True:
        try:
            return _stage(log, folder, buckets, game)
        except _ReadFailed as failed:
            if isinstance(failed.error, duckdb.OutOfMemoryException):  # no file is to blame
                raise AuditError(
                    f"staging ran out of memory while reading the {' and '.join(failed.tables)}"
                    f" files: {first_line_under(failed, log.root)}",
                    slug="out-of-memory",
                ) from failed.error
            refused = refuse_undecodable(log, failed.tables)
            if not refused:
                tables = " and ".join(failed.tables)
                raise LogFormatError(
                    f"the {tables} files could not be read: {first_line_under(failed, log.root)}"
                ) from failed.error
            quarantine.extend(refused)
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()


def unstaged_columns(table: str) -> list[str]:
    """The contract columns of `table` that staging may leave undecoded: DuckDB reads a
    column only for what a query asks of it, and answers a null check from the footer
    when it can (a column written non-nullable, in a table of one file, is never null), so
    the timestamps staging leaves behind (``staged_columns``) and the sessions, which
    staging only checks, would be read first by a later step (the table limits, the
    fair-play detectors), which then failed on a corrupt page (a traceback, exit 2).
    ``decode_unstaged`` decodes them once."""
    columns = load_contract()[table].columns
    if table == "sessions":
        return [c.name for c in columns]
    return [c.name for c in columns if pa.types.is_timestamp(c.arrow_type)]


def decode_unstaged(log: LogRoot) -> list[QuarantineRow]:
    """Decode every ``unstaged_columns`` of every good file once, a table's files in one
    query (an aggregate over their values, which decodes every page), so that a file whose
    footer reads but whose data in such a column does not is refused at staging like any
    other undecodable file (``refuse_undecodable``: its ``input.file`` rows, returned),
    and no later step meets it. Together with staging's own reading, every contract column
    of every file is then decoded once. On a 33,000-hand night of 700 files it took about
    0.1 s.

    Raises `LogFormatError` when a query fails and no file is to blame, or a required
    table is left without a readable file; `AuditError` when DuckDB runs out of memory."""
    refused: list[QuarantineRow] = []
    with duck.connect(config={"memory_limit": MEMORY_LIMIT}) as con:
        for table in TABLES:
            names = unstaged_columns(table)
            if not log.files.get(table) or not names:
                continue
            values = ", ".join(f"max(hash({quote(name)}))" for name in names)
            try:
                con.execute(f"SELECT {values} FROM ({log.sql(table)})").fetchall()
                continue
            except duckdb.OutOfMemoryException as error:
                raise AuditError(
                    f"staging ran out of memory while reading the {table} files:"
                    f" {first_line_under(error, log.root)}",
                    slug="out-of-memory",
                ) from error
            except duckdb.Error as error:
                failed = error
            found = refuse_undecodable(log, (table,))
            if not found:
                raise LogFormatError(
                    f"the {table} files could not be read: {first_line_under(failed, log.root)}"
                ) from failed
            refused += found
    return refused


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
                source = source_sql(table, [log.where(item)], first_file=0,
                                    row_bits=ROW_BITS, absent=item.lacks, uniform=True)  # fmt: skip
                try:
                    con.execute(f"SELECT max(hash(t)) FROM ({source}) t").fetchall()
                except duckdb.Error as error:
                    at = undecodable_at(con, source, log.where(item), table)
                    why = f"{one_line(item.path)} has data that cannot be decoded{at}:"
                    reason = f"{why} {first_line_under(error, root)}"
                    refused.append(
                        QuarantineRow(table, item.path, None, None, None, "input.file", reason)
                    )
    log.refuse(refused)
    return refused


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
        first: dict[str, int] = {}  # the global index of each table's first file
        offset = 0
        for table in TABLES:
            first[table], offset = offset, offset + len(log.files[table])
        if game is not None:  # the hands read into or out of the game (``audit.logs.refile``)
            for table in ("games", "hands"):
                _create_views(con, table, [log.where(f) for f in log.files[table]],
                              first[table], None, log.absent(table), log.uniform(table),
                              name=f"all_{table}")  # fmt: skip
            con.execute("CREATE TEMP TABLE night_refiled AS "
                        + REFILED.format(games="raw_all_games", hands="raw_all_hands"))
        for table in TABLES:
            paths = [log.where(f) for f in log.files[table]]
            _create_views(
                con, table, paths, first[table], game, log.absent(table), log.uniform(table)
            )
        hand_rows = sum(f.rows for f in log.files["hands"])
        passes = 1 if game is not None else duck.passes(hand_rows)
        reading = ("hands", "games")  # the hand map reads the games for the refiled hands
        con.execute(f"SET memory_limit = '{HAND_MAP_MEMORY}'")
        for view, query in _hand_map(buckets, refiled="night_refiled" if game else None):
            written = literal(str(folder / f"{view}.parquet"))
            con.execute(f"COPY ({query}) TO {written} (FORMAT parquet)")
            con.execute(f"CREATE VIEW {view} AS SELECT * FROM read_parquet({written})")
        duck.give_back(con, MEMORY_LIMIT)
        for table, query in _stage_queries(buckets).items():
            reading = (table,)
            target = folder / table
            rows = STAGED_ROW_GROUP.get(table, 8_192)
            options = (f", ROW_GROUPS_PER_FILE {ROW_GROUPS_PER_FILE}, OVERWRITE_OR_IGNORE,"
                       " FILENAME_PATTERN 'data_{n}_{{i}}'")  # fmt: skip
            if table in HAND_TABLES:
                files = log.files[table]
                for n, (start, end) in enumerate(_passes([f.rows for f in files], passes)):
                    _pass_views(con, log, table, (start, end), first[table], folder)
                    duck.copy_parts(con, query, target, "part", rows,
                                    options=options.format(n=n))  # fmt: skip
                    duck.give_back(con, MEMORY_LIMIT)
            else:
                duck.copy_parts(con, query, target, "part", rows, options=options.format(n=0))
            skip = "bucket, part, _p" + (", hand_id" if table in ("events", "results") else "")
            empty = con.sql(f"SELECT * EXCLUDE ({skip}) FROM ({query}) LIMIT 0")
            staged.schemas[table] = empty.pl().schema
            duck.give_back(con, MEMORY_LIMIT)  # what the COPY and the schema's query left cached
        reading = ("sessions",)  # from here on, the other tables are read as staged
        staged.damaged = log.damaged  # the files refused: a stray row's likely cause, named
        staged.unread = frozenset(f for files in log.unread.values() for f in files)
        collect_quarantine(con, staged, MEMORY_LIMIT)
        refused_hands(staged, log.root, log.sources)
        reading = ("events", "results", "sessions")
        staged.orphans = find_orphans(con, staged)
        placed = {h: game for h, (game, _) in staged.orphans.items() if game is not None}
        if placed:  # the rows naming a hand hands lacks: the game its sessions place it in
            staged.quarantine = [
                replace(q, game_id=placed[q.hand_id])
                if q.game_id is None and q.hand_id in placed
                else q
                for q in staged.quarantine
            ]
    except duckdb.Error as error:
        raise _ReadFailed(reading, error) from error
    finally:
        con.close()
        give_back_memory()
    return staged


def _passes(rows: list[int], passes: int) -> list[tuple[int, int]]:
    """At most `passes` runs (start, end) of files holding `rows` rows each, in order, of
    about equal rows: a run ends at the first file that brings it to its share of the rows
    left. Every file is in one run; no files, one empty run.

    Staging's hand tables are staged a run at a time, each run joined with the hand map's
    rows of the hands its files name. One join of every row against a hand map of ten
    million hands ran out of memory under staging's limit (DuckDB's hash join spills the
    wide rows it probes); in runs, each of a ten-million-hand night's hand tables is staged
    in what a million-hand night's takes. A night of one huge file per table is one run,
    whatever its size.

    >>> _passes([5, 5, 5, 5], 2), _passes([30, 1, 1, 1], 3), _passes([], 4)
    ([(0, 2), (2, 4)], [(0, 1), (1, 3), (3, 4)], [(0, 0)])
    """
    out: list[tuple[int, int]] = []
    total = sum(rows)
    start, done, seen = 0, 0, 0  # the run's first file, the rows before it, rows so far
    for index, n in enumerate(rows[:-1]):
        seen += n
        left = passes - len(out)  # runs still to make, this one included
        if left > 1 and (seen - done) * left >= total - done:
            out.append((start, index + 1))
            start, done = index + 1, seen
    return [*out, (start, len(rows))]


def _pass_views(
    con: duckdb.DuckDBPyConnection,
    log: LogRoot,
    table: str,
    files: tuple[int, int],
    first_file: int,
    folder: Path,
) -> None:
    """`chk_pass`: the rows of `table`'s files `files` (start, end), checked; `pass_map`:
    the hand map's rows of the hands they name, written to Parquet under `folder` so that
    DuckDB knows how few they are and builds the join on them, not on the wide rows it
    probes. For all of the table's files, `chk_<table>` and `hand_map` themselves."""
    start, end = files
    if (start, end) == (0, len(log.files[table])):
        con.execute(f"CREATE OR REPLACE VIEW chk_pass AS SELECT * FROM chk_{table}")
        con.execute("CREATE OR REPLACE VIEW pass_map AS SELECT * FROM hand_map")
        return
    paths = [log.where(f) for f in log.files[table][start:end]]
    _create_views(
        con, table, paths, first_file + start, absent=log.absent(table),
        uniform=log.uniform(table), name="pass",
    )  # fmt: skip
    written = literal(str(folder / "pass_map.parquet"))
    con.execute(
        "COPY (SELECT * FROM hand_map SEMI JOIN (SELECT DISTINCT hand_id FROM raw_pass)"
        f" ON _hid = hand_id) TO {written} (FORMAT parquet)"
    )
    con.execute(f"CREATE OR REPLACE VIEW pass_map AS SELECT * FROM read_parquet({written})")


def _create_views(
    con: duckdb.DuckDBPyConnection,
    table: str,
    paths: list[str],
    first_file: int,
    game: str | None = None,
    absent: frozenset[str] = frozenset(),
    uniform: bool = False,
    name: str | None = None,
) -> None:
    """`raw_<name>`: the contract columns of every row of `paths`, files of `table`, with
    `_k` (only the rows of `game`, when given, its hands as ``night_refiled`` files them;
    the optional columns no file has, `absent`, as nulls); `chk_<name>`: the same with `_ok`
    and `_p`, its row checks. `name` is `table` unless given; the views are replaced."""
    name = name or table
    checks = row_checks(table)
    source = source_sql(
        table, paths, first_file=first_file, row_bits=ROW_BITS, absent=absent, uniform=uniform
    )
    if game is not None:
        keep = f"game_id = {literal(game)}"
        if table == "hands":  # as the night reads them (``night_refiled``, ``_stage``), and
            # the rows naming no game, which may be its hands (``Staged.gameless``)
            keep = (f"({keep} AND (hand_id IS NULL"
                    " OR hand_id NOT IN (SELECT hand_id FROM night_refiled)))"
                    " OR hand_id IN (SELECT hand_id FROM night_refiled"
                    f" WHERE played = {literal(game)})"
                    " OR game_id IS NULL")  # fmt: skip
        if table in ("events", "results"):  # the game's hands, as literals the scan can prune by
            hands = [row[0] for row in con.sql("SELECT DISTINCT hand_id FROM raw_hands").fetchall()]
            keep = f"hand_id IN ({', '.join(literal(h) for h in hands if h) or 'NULL'})"
            keep += " OR hand_id IS NULL"  # may be theirs (Staged.nameless, Staged.unnamed)
        source = f"SELECT * FROM ({source}) WHERE {keep}"
    con.execute(f"CREATE OR REPLACE VIEW raw_{name} AS {source}")
    con.execute(
        f"CREATE OR REPLACE VIEW chk_{name} AS SELECT *, {checks.ok} AS _ok,"
        f" {checks.problems} AS _p FROM raw_{name}"
    )
