"""The checks ``open_log_root`` runs on each Parquet file of a log root before it reads
any row: that it opens, its footer, schema version and schema (``inspect_file``); and the
same in words for one file (``refusal``: why the replay refuses it)."""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

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
    lacks = frozenset(
        c.name for c in load_contract()[table].columns if c.optional and c.name not in schema.names
    )
    # One string per layout, not one per file: a night's 21,000 files held 6.5 MB of copies.
    layout = sys.intern(";".join(f"{f.name}:{f.type}" for f in schema))
    item = InputFile(table, rel, size, sha, meta.num_rows, lacks, layout)
    source = one_line(rel)
    file_schema_version(meta.metadata, source)
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
