"""The checks ``open_log_root`` runs on each Parquet file of a log root before it reads
any row: that it opens, its footer, schema version and schema (``inspect_file``); and the
same in words for one file (``refusal``: why the replay refuses it).

A contract column a file leaves out may be given by a Hive partition folder on its path
(``hands/game_id=G1/part-0.parquet``, as pyarrow's and Spark's partitioned writers leave
it): ``folder_keys`` reads it, ``inspect_file`` checks the file with it, and ``complete``
writes the copy the replay reads (schemas/README.md, "Choices where the contract is silent")."""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.parquet as pq

from audit.errors import SchemaVersionError, first_line, one_line
from audit.logs.contract import check_schema, file_schema_version, load_contract
from audit.logs.files import os_why
from audit.logs.validate import wider_columns, width_problems

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
    keys: tuple[tuple[str, str | None], ...] = ()
    """The contract columns the file leaves out that its Hive partition folders give
    (name, value as written in the folder's name; None for Hive's null): its rows are read
    with them, from the copy ``complete`` writes (``source``)."""
    source: str = ""
    """Where the file's rows are read from, when not from the log root's ``path``: the
    completed copy of a file with ``keys``."""
    ignored: tuple[str, ...] = ()
    """The file's columns the contract does not name, in its order: read by no check
    (schemas/README.md: platforms add their own), listed in run.json's
    ``ignored_columns`` and the report, so that a misspelt optional column is seen."""


HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"
"""The folder value Hive, Spark and pyarrow write for a null partition key."""


def folder_keys(table: str, rel: str) -> dict[str, str | None]:
    """The contract columns of ``table`` that Hive partition folders on the path ``rel``
    (relative to the log root, its table folder first) name, and their values, decoded as
    the writers encode them (``%3A`` is ``:``); the folder nearest the file wins.

    >>> folder_keys("hands", "hands/date=2026-11-29/game_id=G%2F1/part-0.parquet")
    {'game_id': 'G/1'}
    >>> folder_keys("ledger", "ledger/player_id=__HIVE_DEFAULT_PARTITION__/part-0.parquet")
    {'player_id': None}
    """
    names = {c.name for c in load_contract()[table].columns}
    keys: dict[str, str | None] = {}
    for part in rel.split("/")[1:-1]:
        name, equals, value = part.partition("=")
        if equals and name in names:
            keys[name] = None if value == HIVE_NULL else unquote(value)
    return keys


def content_key(table: str, rel: str, sha256: str) -> str:
    """What a file the replay reads is known by: its content and the contract columns its
    Hive partition folders name (``folder_keys``). Moved to another partition of columns
    the contract does not name (``date=``) it is the same rows; under another folder of a
    contract column the file may leave out (``hand_id=``) the same bytes are other rows (a
    blind tester's one-row results files of two hands).

    >>> content_key("hands", "hands/date=1/p.parquet", "ab")
    'ab'
    >>> content_key("results", "results/hand_id=H2/outcome=won/p.parquet", "ab")
    'ab hand_id=H2&outcome=won'
    """
    keys = sorted(folder_keys(table, rel).items())
    given = "&".join(f"{k}={HIVE_NULL if v is None else v}" for k, v in keys)
    return f"{sha256} {given}" if given else sha256


def hash_file(path: Path) -> str:
    """The SHA-256 of the file at ``path``."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def one_of_each(
    root: Path, files: list[InputFile]
) -> tuple[list[InputFile], list[tuple[InputFile, str]]]:
    """``files`` (of one table, in path order) without the copies of an earlier one, and
    those copies, each with the path it copies: the same bytes under the same contract
    columns of their partition folders (``footer.content_key``). A platform that delivers
    a file twice (a retried upload, the same part written to two folders) sends its rows
    once: read twice, every hand in it was its rows repeated, quarantined (a blind tester:
    a copied events file took out half the night in ``replay``, where ``nightly``, which
    takes such a copy once, verified it all). Only files of one size are hashed here, so a
    lookup that hashes nothing else (``hash_files=False``) finds the same copies."""
    sizes: dict[int, int] = {}
    for item in files:
        sizes[item.size] = sizes.get(item.size, 0) + 1
    first: dict[str, str] = {}
    kept: list[InputFile] = []
    copies: list[tuple[InputFile, str]] = []
    for item in files:
        if sizes[item.size] > 1:
            try:
                digest = item.sha256 or hash_file(root / item.path)
            except OSError:  # read when its turn comes, and refused then if it must be
                digest = f"unread {item.path}"
            key = content_key(item.table, item.path, digest)
            if key in first:
                copies.append((item, first[key]))
                continue
            first[key] = item.path
        kept.append(item)
    return kept, copies


def key_array(value: str | None, dtype: pa.DataType, rows: int) -> pa.Array:
    """``rows`` copies of a folder's value in the contract type ``dtype``; a timestamp
    written without a zone is UTC, as the contract's timestamps are.

    Raises ``pa.ArrowInvalid`` when the value is not one of the type."""
    if value is None:
        return pa.nulls(rows, dtype)
    text = pa.array([value] * rows, pa.string())
    if pa.types.is_timestamp(dtype) and dtype.tz is not None:
        try:
            return text.cast(dtype)
        except pa.ArrowInvalid:
            return text.cast(pa.timestamp(dtype.unit)).cast(dtype)
    return text.cast(dtype)


def _with_keys(
    table: str, schema: pa.Schema, rel: str
) -> tuple[pa.Schema, tuple[tuple[str, str | None], ...], list[str]]:
    """``schema`` with the contract columns it lacks that ``rel``'s folders give, appended
    in the contract's types; those keys; and why a folder's value is refused."""
    contract = load_contract()[table]
    keys, problems = [], []
    for name, value in folder_keys(table, rel).items():
        if name in schema.names:  # the file's own column is read; the folder organises only
            continue
        column = contract.column(name)
        try:
            key_array(value, column.arrow_type, 1)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            problems.append(f"{one_line(rel)}: its folder {one_line(f'{name}={value}')} gives "
                            f"column `{name}` a value not of its type, {column.type}")  # fmt: skip
            continue
        keys.append((name, value))
        schema = schema.append(pa.field(name, column.arrow_type))
    return schema, tuple(keys), problems


def complete(path: Path, item: InputFile, folder: Path) -> Path:
    """Write ``path``'s rows with the columns of ``item.keys`` added, row group by row
    group in the same order and with the same key-value metadata, to a file in ``folder``;
    its path."""
    contract = load_contract()[item.table]
    target = folder / f"{hashlib.sha256(item.path.encode()).hexdigest()[:24]}.parquet"
    source = pq.ParquetFile(path)
    schema = source.schema_arrow
    kept = {k: v for k, v in (schema.metadata or {}).items() if k != b"ARROW:schema"}
    schema = schema.with_metadata(kept)
    for name, _ in item.keys:
        schema = schema.append(pa.field(name, contract.column(name).arrow_type))
    with pq.ParquetWriter(target, schema) as writer:
        for group in range(source.num_row_groups):
            rows = source.read_row_group(group)
            for name, value in item.keys:
                rows = rows.append_column(
                    name, key_array(value, contract.column(name).arrow_type, rows.num_rows)
                )
            writer.write_table(rows.replace_schema_metadata(schema.metadata))
        if not source.num_row_groups:
            writer.write_table(schema.empty_table())
    return target


def inspect_file(table: str, path: Path, rel: str, hash_files: bool) -> tuple[InputFile, str]:
    """The file's record, and why it is refused ("" when it is good)."""
    digest = hashlib.sha256()
    unread = f"{one_line(rel)} could not be read: "
    try:
        handle = path.open("rb")
        size = os.fstat(handle.fileno()).st_size
    except OSError as error:  # permission denied: refused like a damaged file
        return InputFile(table, rel, 0, "", 0), unread + os_why(error)
    with handle:
        try:
            while hash_files and (chunk := handle.read(_HASH_CHUNK)):
                digest.update(chunk)
        except OSError as error:
            return InputFile(table, rel, size, "", 0), unread + os_why(error)
        sha = digest.hexdigest() if hash_files else ""
        try:
            meta = pq.read_metadata(handle)
            schema = meta.schema.to_arrow_schema()
        except (pa.ArrowException, OSError) as error:
            item = InputFile(table, rel, size, sha, 0)
            return item, f"{one_line(rel)} is not a readable Parquet file: {first_line(error)}"
    schema, keys, refused = _with_keys(table, schema, rel)
    lacks = frozenset(
        c.name for c in load_contract()[table].columns if c.optional and c.name not in schema.names
    )
    # One string per layout, not one per file: a night's 21,000 files held 6.5 MB of copies.
    layout = sys.intern(";".join(f"{f.name}:{f.type}" for f in schema))
    named = _NAMES.get(table) or _NAMES.setdefault(
        table, frozenset(c.name for c in load_contract()[table].columns))
    ignored = tuple(name for name in schema.names if name not in named)
    item = InputFile(table, rel, size, sha, meta.num_rows, lacks, layout, keys, "", ignored)
    source = one_line(rel)
    file_schema_version(meta.metadata, source)
    if refused:
        return item, "; ".join(refused)
    if (table, layout) in _CLEAN_LAYOUTS:
        return item, ""
    problems = check_schema(table, schema, source=source)
    if not problems:
        try:
            problems = width_problems(table, path, schema, source=source)
        except (pa.ArrowException, OSError) as error:
            problems = [f"{source} is not a readable Parquet file: {first_line(error)}"]
        if not problems and not wider_columns(table, schema):
            _CLEAN_LAYOUTS.add((table, layout))
    return item, "; ".join(problems)


_NAMES: dict[str, frozenset[str]] = {}
"""Each table's contract column names (``inspect_file``'s ignored columns)."""


def ignored_columns(files: dict[str, list[InputFile]]) -> list[dict[str, object]]:
    """run.json's ``ignored_columns``: each (table, column) the contract does not name and
    a file of the table holds, with how many files hold it, sorted.

    >>> item = InputFile("hands", "hands/a.parquet", 1, "", 1, ignored=("region",))
    >>> ignored_columns({"hands": [item, item]})
    [{'table': 'hands', 'column': 'region', 'files': 2}]
    """
    counts: dict[tuple[str, str], int] = {}
    for table, items in files.items():
        for item in items:
            for name in item.ignored:
                counts[table, name] = counts.get((table, name), 0) + 1
    return [{"table": t, "column": c, "files": n} for (t, c), n in sorted(counts.items())]


_CLEAN_LAYOUTS: set[tuple[str, str]] = set()
"""(table, layout) of the files whose schema passed ``check_schema`` with no column wider
than the contract's: the next file of that layout needs neither check (a schema is
checked by its columns' names and types alone, which the layout spells). A million-hand
night's 21,000 files share a handful of layouts; checking each took about 5 of the 12-14
s that opening the log root took."""


def refusal(table: str, path: Path, rel: str) -> str:
    """Why ``open_log_root`` refuses the file ``path`` of ``table`` (named ``rel``), in
    its words; "" when it takes it. A file of another schema version is not refused (the
    replay stops on it, naming it), nor one whose footer reads but whose data does not
    decode (``refuse_undecodable`` finds it while staging)."""
    try:
        return inspect_file(table, path, rel, hash_files=False)[1]
    except SchemaVersionError:
        return ""
