"""The output files of a run (docs/contract/audit-output.md), written atomically.

Each file is written under a temporary name in the output folder and renamed into place,
so a crash never leaves a half-written file under its final name. Rows are sorted by
stable keys before writing, so the same input gives the same bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit import duck
from audit.duck import literal
from audit.errors import AuditError, first_line
from audit.fairplay.suspicion import Suspicion
from audit.findings import CATALOG, COLUMNS, Finding, Severity
from audit.records import HandRow, give_back_memory
from audit.replay.facts import DropRow, PileRow

if TYPE_CHECKING:
    from audit.shuffle.result import Result  # scipy: not in every worker's imports

OUTPUT_VERSION = "1"

FINDINGS_SCHEMA = pa.schema(
    [
        pa.field("check", pa.string(), nullable=False),
        pa.field("severity", pa.string(), nullable=False),
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("hand_id", pa.string()),
        pa.field("player_id", pa.string()),
        pa.field("seq", pa.int32()),
        pa.field("expected", pa.string()),
        pa.field("recorded", pa.string()),
        pa.field("message", pa.string(), nullable=False),
        pa.field("rule", pa.string(), nullable=False),
    ],
    metadata={"rummy_audit.output_version": OUTPUT_VERSION},
)

HANDS_SCHEMA = pa.schema(
    [
        pa.field("hand_id", pa.string(), nullable=False),
        pa.field("game_id", pa.string()),
        pa.field("hand_no", pa.int16()),
        pa.field("format", pa.string()),
        pa.field("ruleset", pa.string()),
        pa.field("players", pa.int8()),
        pa.field("status", pa.string(), nullable=False),
        pa.field("findings", pa.int32(), nullable=False),
        pa.field("worst_severity", pa.string()),
        pa.field("reason", pa.string()),
        pa.field("outcomes", pa.list_(pa.string())),
        pa.field("points", pa.list_(pa.int16())),
    ],
    metadata={"rummy_audit.output_version": OUTPUT_VERSION},
)

QUARANTINE_SCHEMA = pa.schema(
    [
        pa.field("table", pa.string(), nullable=False),
        pa.field("file", pa.string()),
        pa.field("row", pa.int64()),
        pa.field("game_id", pa.string()),
        pa.field("hand_id", pa.string()),
        pa.field("check", pa.string(), nullable=False),
        pa.field("reason", pa.string(), nullable=False),
    ],
    metadata={"rummy_audit.output_version": OUTPUT_VERSION},
)

TOOK_SCHEMA = pa.schema(
    [
        pa.field("file", pa.string(), nullable=False),
        pa.field("game_id", pa.string()),
        pa.field("hand_id", pa.string()),
    ]
)


PILE_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("hand_id", pa.string(), nullable=False),
        pa.field("giver", pa.string(), nullable=False),
        pa.field("taker", pa.string(), nullable=False),
        pa.field("offered", pa.int16(), nullable=False),
        pa.field("taken", pa.int16(), nullable=False),
        pa.field("melded", pa.int16(), nullable=False),
    ],
    metadata={"rummy_audit.output_version": OUTPUT_VERSION},
)

DROPS_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("hand_id", pa.string(), nullable=False),
        pa.field("player_id", pa.string(), nullable=False),
        pa.field("seq", pa.int32(), nullable=False),
        pa.field("first", pa.bool_(), nullable=False),
        pa.field("turns", pa.int16(), nullable=False),
        pa.field("reason", pa.string()),
        pa.field("points", pa.int16(), nullable=False),
        pa.field("deadwood", pa.int16(), nullable=False),
    ],
    metadata={"rummy_audit.output_version": OUTPUT_VERSION},
)


SUSPICIONS_SCHEMA = pa.schema(
    [
        pa.field("suspicion_id", pa.string(), nullable=False),
        pa.field("check", pa.string(), nullable=False),
        pa.field("severity", pa.string(), nullable=False),
        pa.field("players", pa.list_(pa.string()), nullable=False),
        pa.field("statistic", pa.string(), nullable=False),
        pa.field("expected", pa.float64(), nullable=False),
        pa.field("observed", pa.float64(), nullable=False),
        pa.field("effect", pa.float64(), nullable=False),
        pa.field("effect_name", pa.string(), nullable=False),
        pa.field("p_value", pa.float64(), nullable=False),
        pa.field("q_value", pa.float64(), nullable=False),
        pa.field("tests", pa.int64(), nullable=False),
        pa.field("evidence_hands", pa.list_(pa.string()), nullable=False),
        pa.field("evidence_games", pa.list_(pa.string()), nullable=False),
        pa.field("money", pa.string()),
        pa.field("benign", pa.string(), nullable=False),
        pa.field("message", pa.string(), nullable=False),
    ],
    metadata={"rummy_audit.output_version": OUTPUT_VERSION},
)


RNG_SCHEMA = pa.schema(
    [
        pa.field("check", pa.string(), nullable=False),
        pa.field("test", pa.string(), nullable=False),
        pa.field("group", pa.string(), nullable=False),
        pa.field("decks", pa.int8(), nullable=False),
        pa.field("printed_jokers", pa.int8(), nullable=False),
        pa.field("shuffler", pa.string(), nullable=False),
        pa.field("group_label", pa.string(), nullable=False),
        pa.field("shoes", pa.int64(), nullable=False),
        pa.field("method", pa.string(), nullable=False),
        pa.field("statistic", pa.float64()),
        pa.field("df", pa.float64()),
        pa.field("p_value", pa.float64()),
        pa.field("adjusted_p", pa.float64()),
        pa.field("tests", pa.int64(), nullable=False),
        pa.field("verdict", pa.string(), nullable=False),
        pa.field("severity", pa.string()),
        pa.field("effect", pa.string(), nullable=False),
        pa.field("needs", pa.int64()),
        pa.field("labels", pa.list_(pa.string()), nullable=False),
        pa.field("observed", pa.list_(pa.float64()), nullable=False),
        pa.field("expected", pa.list_(pa.float64()), nullable=False),
        pa.field("hands", pa.list_(pa.string()), nullable=False),
    ],
    metadata={"rummy_audit.output_version": OUTPUT_VERSION},
)


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


def _atomic(path: Path, write: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp's 0600 would hide the outputs from colleagues
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_parquet(path: Path, rows: Sequence[Any], columns: Sequence[str], schema: Any) -> None:
    data = {name: [getattr(r, name) for r in rows] for name in columns}
    table = pa.Table.from_pydict(data, schema=schema)
    _atomic(
        path, lambda tmp: pq.write_table(table, tmp, compression="zstd", row_group_size=ROW_GROUP)
    )


def _nulls_last(*values: Any) -> tuple[tuple[bool, Any], ...]:
    """A sort key part that orders None after every value, as SQL's NULLS LAST."""
    return tuple((v is None, "" if v is None else v) for v in values)


def _finding_key(f: Finding) -> tuple[Any, ...]:
    """``Finding.sort_key``, then the other columns: a total order (``KINDS`` in SQL)."""
    tail = _nulls_last(f.severity.value, f.expected, f.recorded, f.rule, f.hand_id, f.player_id)
    return (*f.sort_key(), *tail)


def write_findings(path: Path, findings: Sequence[Finding]) -> None:
    ordered = sorted(findings, key=_finding_key)
    _write_parquet(path, ordered, COLUMNS, FINDINGS_SCHEMA)


RUN_KEYS = ("version", "arguments", "inputs", "counts", "timings_s", "exit_status")
"""What every run.json this tool writes holds, and what reading one back needs."""


def read_run(out: Path) -> dict[str, Any]:
    """The run.json of the output folder ``out``. An ``AuditError`` (one line, exit 2: the
    folder is damaged, which is not a finding) when it is not there, not JSON, or not a
    run.json of this tool."""
    path = out / "run.json"
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AuditError(f"{out} is not a replay's output folder: it has no run.json",
                         slug="out") from None  # fmt: skip
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AuditError(f"{path} cannot be read: {first_line(exc)}", slug="out") from None
    if not isinstance(run, dict):
        raise AuditError(f"{path} is not a run.json of rummy-audit: it holds no object",
                         slug="out")  # fmt: skip
    lacks = [key for key in RUN_KEYS if key not in run]
    if lacks:
        raise AuditError(
            f"{path} is not a run.json of rummy-audit: it lacks {', '.join(lacks)}", slug="out"
        )
    held: dict[str, Any] = run
    return held


def check_outputs(out: Path, names: Sequence[str]) -> None:
    """An ``AuditError`` unless each file ``names`` of the output folder ``out`` is there
    and each Parquet output a Parquet file with the columns of its kind (run.json is
    ``read_run``'s, which its callers call next). The first problem is the message: a
    missing file, one that is not Parquet, one without a column it needs."""
    missing = [name for name in names if not (out / name).is_file()]
    if missing:
        raise AuditError(
            f"{out} is not a replay's output folder: it has no {', '.join(missing)}", slug="out"
        )
    for name in names:
        schema = _SCHEMAS.get(name.removesuffix(".parquet"))
        if schema is None:
            continue
        try:
            columns = set(pq.read_schema(out / name).names)
        except (OSError, pa.ArrowException) as exc:
            raise AuditError(f"{out / name} cannot be read: {first_line(exc)}",
                             slug="out") from None  # fmt: skip
        lacks = [c for c in schema.names if c not in columns]
        if lacks:
            raise AuditError(f"{out / name} is not a {name} of rummy-audit: it has no "
                             f"{', '.join(lacks)} column", slug="out")  # fmt: skip


def read_findings(path: Path) -> list[Finding]:
    """The findings of a findings.parquet this module wrote."""
    rows = pq.read_table(path).to_pylist()
    return [Finding(**{**row, "severity": Severity(row["severity"])}) for row in rows]


def write_hands(path: Path, hands: Sequence[HandRow]) -> None:
    ordered = sorted(hands, key=lambda h: (h.game_id or "", h.hand_no or 0, h.hand_id))
    _write_parquet(path, ordered, HANDS_SCHEMA.names, HANDS_SCHEMA)


def _quarantine_key(r: Any) -> tuple[Any, ...]:
    head = (r.table, r.file or "", -1 if r.row is None else r.row, r.hand_id or "", r.reason)
    return (*head, *_nulls_last(r.game_id, r.check, r.file, r.row, r.hand_id))


def write_quarantine(path: Path, rows: Sequence[Any]) -> None:
    ordered = sorted(rows, key=_quarantine_key)
    _write_parquet(path, ordered, QUARANTINE_SCHEMA.names, QUARANTINE_SCHEMA)


def write_pile(path: Path, rows: Sequence[PileRow]) -> None:
    ordered = sorted(rows, key=lambda r: (r.game_id, r.hand_id, r.giver, r.taker))
    _write_parquet(path, ordered, PILE_SCHEMA.names, PILE_SCHEMA)


def write_drops(path: Path, rows: Sequence[DropRow]) -> None:
    ordered = sorted(rows, key=lambda r: (r.game_id, r.hand_id, r.seq, r.player_id))
    _write_parquet(path, ordered, DROPS_SCHEMA.names, DROPS_SCHEMA)


def write_suspicions(path: Path, rows: Sequence[Suspicion]) -> None:
    """Most severe first, then by q-value, then by id (``Suspicion.sort_key``)."""
    ordered = sorted(rows, key=Suspicion.sort_key)
    data: dict[str, list[Any]] = {name: [] for name in SUSPICIONS_SCHEMA.names}
    for s in ordered:
        for name in SUSPICIONS_SCHEMA.names:
            value = getattr(s, name)
            data[name].append(list(value) if isinstance(value, tuple) else value)
    data["severity"] = [s.severity.value for s in ordered]
    table = pa.Table.from_pydict(data, schema=SUSPICIONS_SCHEMA)
    _atomic(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))


def write_rng(path: Path, rows: Sequence[Result]) -> None:
    """One row per shuffle test and shoe group, by group, check and item
    (``Result.sort_key``)."""
    ordered = sorted(rows, key=lambda r: r.sort_key())
    data: dict[str, list[Any]] = {name: [] for name in RNG_SCHEMA.names}
    for r in ordered:
        decks, jokers, shuffler = r.group.split("/", 2)
        extra = {"decks": int(decks), "printed_jokers": int(jokers), "shuffler": shuffler,
                 "severity": None if r.severity is None else r.severity.value}  # fmt: skip
        for name in RNG_SCHEMA.names:
            value = extra[name] if name in extra else getattr(r, name)
            data[name].append(list(value) if isinstance(value, tuple) else value)
    table = pa.Table.from_pydict(data, schema=RNG_SCHEMA)
    _atomic(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))


NIGHTLY = "nightly.json"
"""A night's folder of ``rummy-audit nightly`` holds it: its replay's log root was a work
root of that night's files, gone since, so nothing can be run over the replay again."""


def nightly_night(out: Path) -> bool:
    """Whether ``out`` is a night's folder of ``rummy-audit nightly`` (``NIGHTLY``)."""
    return (out / NIGHTLY).is_file()


# ------------------------------------------------------------ streamed outputs

ROW_GROUP = 128 * 1024
"""Rows per row group of the replay's outputs, streamed or written from a list (the same
bytes either way). Writing a row group holds it whole in memory: with ``pq.write_table``'s
default, 1,048,576 rows, writing a million hands' outputs took the process from about 275
to 435 MiB, against the 100k night's 275; a row group of 131,072 rows is written from at
most three of DuckDB's batches."""
FETCH_ROWS = 32_768
"""Rows DuckDB hands over at a time while an output is written; a row group is gathered
from such batches (``_write_groups``), in the same bytes whatever their size. Streaming a
million hands' sorted rows back and writing them took 163 MiB above the process's base
in batches of 32,768 rows, 196 in batches of 65,536 (the same time); smaller batches
saved nothing more."""
SORT_MEMORY = "64MB"
"""DuckDB's memory limit while it sorts a run of the parts (``SORT_ROWS``) into a file;
beyond it, it spills. What a sort cannot spill grows with its rows: under 64MB one sort
of 3.3 million hands rows ran out of memory and one of 2 million did not; ten million
hands' rows in one sort needed more than 64MB (128MB held them). Sorted in runs, the
limit holds whatever the size of the night. A million hands' rows took 115-135 MiB above
the process's base under 64MB, 175 in one sort under 128MB (the same bytes); ten million
hands' hands and pile (the million-hand night's parts ten times over) about 195 under
64MB in runs, 290-300 in one sort under 128MB."""
SORT_ROWS = 1_000_000
"""Rows sorted at once, about (``Parts._sort_runs``): half the most hands rows seen to
sort under ``SORT_MEMORY``. A run is a range of the output's first sort key, cut at the
quantiles of a sample (``SORT_SAMPLE`` rows); the rows are split into their runs' folders
in one pass over the parts, then each run is sorted alone."""
PART_GROUP_BYTES = 4_000_000
"""Bytes (Arrow's, in memory) of a part's row groups, about: DuckDB reads a row group's
column chunks whole while it splits the parts into runs, and the night's fair-play
findings come as one part (580,000 rows at ten million hands: one row group of them ran
out of ``SORT_MEMORY``)."""
SORT_BYTES = 32_000_000
"""Bytes sorted at once, about, as the parts' footers count them (their row groups'
``total_byte_size``, encoded but not compressed): a run is at most ``SORT_ROWS`` rows and
at most this. A million hands rows are about 28 MB so; a findings row is ten times wider
(its message, rule and texts): a ten-million-hand night's 580,000 findings (its fair-play
suspicions) in one run of ``SORT_ROWS`` ran out of ``SORT_MEMORY``."""
SORT_SAMPLE = 20_000
"""Rows sampled to cut the runs, so that they hold about equal rows (where the cuts fall
moves no byte of the output, only the memory of a run)."""
SORTED_ROW_GROUP = 16_384
"""Rows per row group of a sorted run's file, read back once: DuckDB holds a row group per
thread while it writes one and while it reads one back. Streaming a million hands back
took 176 MiB above the process's base from row groups of DuckDB's default (122,880 rows)
on two threads, 149 from these, 112 from these on one thread (the same time)."""
SORTED_GROUP_BYTES = 460_000
"""``SORTED_ROW_GROUP`` hands rows' bytes (about 28 a row, as ``SORT_BYTES`` counts them):
the row groups of wider rows are cut to as many bytes."""
READ_MEMORY = "64MB"
"""DuckDB's memory limit while it streams the sorted rows back (a scan of the runs' files,
on one thread: they are read in order, and a second thread held a second row group).
Sorting and cutting row groups one after the other, not in one streamed query, took writing the
pile of a million hands (3M rows) from 486 to 397 MiB (in a process of 88 MiB before)."""


AMOUNT = pa.decimal128(18, 2)
WHATIF_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("hand_id", pa.string(), nullable=False),
        pa.field("hand_no", pa.int32()),
        pa.field("format", pa.string(), nullable=False),
        pa.field("player_id", pa.string(), nullable=False),
        pa.field("outcome_before", pa.string()),
        pa.field("points_before", pa.int32()),
        pa.field("amount_before", AMOUNT),
        pa.field("outcome_after", pa.string()),
        pa.field("points_after", pa.int32()),
        pa.field("amount_after", AMOUNT),
        pa.field("status", pa.string(), nullable=False),
        pa.field("note", pa.string(), nullable=False),
    ]
)
"""``whatif.parquet`` (``rummy-audit whatif``, docs/whatif.md): one row per player of every
hand re-scored or undecided."""


@dataclass(frozen=True)
class _Kind:
    schema: pa.Schema
    order: str
    """SQL ORDER BY giving the list writer's order (``_finding_key``, ``_quarantine_key``
    and the keys of ``write_hands``, ``write_pile`` and ``write_drops``, unique there)."""
    lead: str = "game_id"
    """The first term of ``order``: the rows are sorted in runs of ranges of it
    (``SORT_ROWS``)."""


KINDS = {
    "findings": _Kind(
        FINDINGS_SCHEMA,
        "game_id, coalesce(hand_id, ''), coalesce(seq, -1), \"check\","
        " coalesce(player_id, ''), message, severity, expected, recorded, rule, hand_id,"
        " player_id",
    ),
    "hands": _Kind(
        HANDS_SCHEMA,
        "coalesce(game_id, ''), coalesce(hand_no, 0), hand_id",
        "coalesce(game_id, '')",
    ),
    "quarantine": _Kind(
        QUARANTINE_SCHEMA,
        "\"table\", coalesce(file, ''), coalesce(\"row\", -1), coalesce(hand_id, ''), reason,"
        " game_id, \"check\", file, \"row\", hand_id",
        '"table"',
    ),
    "pile": _Kind(PILE_SCHEMA, "game_id, hand_id, giver, taker"),
    "drops": _Kind(DROPS_SCHEMA, "game_id, hand_id, seq, player_id"),
    "whatif": _Kind(WHATIF_SCHEMA, "game_id, coalesce(hand_no, 0), hand_id, player_id"),
    # Not an output: what the files refused tonight took out alone, as the workers found it
    # (``audit.logs.quarantine.Took``), counted in their input.file findings.
    "took": _Kind(TOOK_SCHEMA, "file, game_id, hand_id", "file"),
}


_SCHEMAS: dict[str, pa.Schema] = {
    **{name: kind.schema for name, kind in KINDS.items() if name != "took"},
    "suspicions": SUSPICIONS_SCHEMA,
    "rng": RNG_SCHEMA,
}
"""The columns of each Parquet output ``check_outputs`` checks, by its name."""


class Parts:
    """The rows of the replay's outputs, written to disk as each batch's results come
    (one small Parquet file per batch and kind under ``folder``, by the worker that made
    them or by this process), then each output sorted out of core by DuckDB and written
    (``write``): the same bytes as ``write_hands`` and the others give from a list, with
    memory flat in the size of the night."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.batches = 0

    def add(self, kind: str, rows: Sequence[Any], name: str | None = None) -> None:
        """Write ``rows`` as one part of ``kind``, named ``name`` (a worker's: the same
        name again, from a retried task, replaces the part) or numbered in this process.
        A part appears whole or not at all."""
        if not rows:
            return
        schema = KINDS[kind].schema
        data = {column: list(map(attrgetter(column), rows)) for column in schema.names}
        table = pa.Table.from_pydict(data, schema=schema)
        if name is None:
            self.batches += 1
            name = f"{self.batches:07d}"
        path = self.folder / kind / f"{name}.parquet"
        group = max(1_024, PART_GROUP_BYTES * table.num_rows // max(table.nbytes, 1))
        _atomic(path, lambda tmp: pq.write_table(table, tmp, compression="lz4",
                                                 row_group_size=group))  # fmt: skip

    def paths(self, kind: str) -> list[Path]:
        return sorted((self.folder / kind).glob("*.parquet"))

    def query(self, kind: str, sql: str, params: dict[str, Any] | None = None) -> list[Any]:
        """``sql`` over the kind's rows so far, as the view ``parts``."""
        paths = self.paths(kind)
        if not paths:
            return []
        with self._connect() as con:
            con.execute(f"CREATE VIEW parts AS SELECT * FROM {_parquet(paths)}")
            return con.execute(sql, params or {}).fetchall()

    def write(self, kind: str, path: Path) -> int:
        """Write the kind's rows, sorted, to ``path``; the number of rows. A quarantined
        hand's ``findings`` and ``worst_severity`` are its input findings' (the findings'
        parts are all written before the hands are): the hand was not replayed, so the
        rows that put it aside are the findings raised on it."""
        spec = KINDS[kind]
        paths = self.paths(kind)
        if not paths:
            _write_parquet(path, [], spec.schema.names, spec.schema)
            return 0
        columns = ", ".join(f'"{name}"' for name in spec.schema.names)
        rows = _parquet(paths)
        if kind == "hands" and self.paths("findings"):
            rows = _counted(rows, _parquet(self.paths("findings")))
        # Two steps, one after the other, so that the sort's memory and the row group's
        # are never held at once: DuckDB sorts out of core into files of sorted runs, then
        # the sorted rows are streamed back, run after run, and cut into the output's row
        # groups.
        total = _rows(paths)
        runs = self._sort_runs(kind, rows, columns, paths, total)
        with self._connect(READ_MEMORY, threads=1) as con:
            reader = con.sql(f"SELECT * FROM {_parquet(runs)}").to_arrow_reader(FETCH_ROWS)
            _atomic(path, lambda tmp: _write_groups(tmp, reader, spec.schema))
        for run in runs:
            run.unlink()
        # Arrow's allocator keeps what it freed: a million hands' rows left 190 MiB held
        # under the next output's sort.
        pa.default_memory_pool().release_unused()
        give_back_memory()
        return total

    def _sort_runs(
        self, kind: str, rows: str, columns: str, paths: list[Path], total: int
    ) -> list[Path]:
        """The kind's rows sorted into files, one per range of its ``lead``, in order: a
        run per ``SORT_ROWS`` rows or so, the ranges cut at the quantiles of a sample of
        the lead. The rows are first split by range into a folder per run (one pass over
        the parts), then each run sorted alone. The runs read one after the other are the
        rows in the output's order, wherever the cuts fall: the same bytes, with the
        sort's memory that of one run (at most ``SORT_ROWS`` rows and ``SORT_BYTES``).
        ``total`` is the rows of ``paths``."""
        spec = KINDS[kind]
        size = _bytes(paths)
        runs = max(-(-total // SORT_ROWS), -(-size // SORT_BYTES))
        # A row group of as many bytes as SORTED_ROW_GROUP hands rows: the split buffers
        # one a thread for every run, and a findings row is ten times a hands row.
        group = max(1_024, min(SORTED_ROW_GROUP, SORTED_GROUP_BYTES * total // max(size, 1)))
        split = self.folder / f"runs-{kind}"
        files = []
        with self._connect() as con:
            cuts = _cuts(con, spec.lead, _parquet(paths), runs) if runs > 1 else []
            runs = len(cuts) + 1  # fewer when a value of the lead holds many rows
            sources = [rows]
            if cuts:
                shutil.rmtree(split, ignore_errors=True)  # a killed write's
                duck.copy_parts(
                    con, f"SELECT {columns}, {_run_of(spec.lead, len(cuts))} AS _run FROM {rows}",
                    split, "_run", group, options=", COMPRESSION lz4",
                    params={f"cut{i}": cut for i, cut in enumerate(cuts)},
                )  # fmt: skip
                duck.give_back(con, SORT_MEMORY)
                held = (sorted((split / f"_run={i}").glob("*.parquet")) for i in range(runs))
                sources = [_parquet(run) for run in held if run]  # a range may hold no row
            for i, source in enumerate(sources):
                ordered = self.folder / f"sorted-{kind}-{i:05d}.parquet"
                con.execute(
                    f"COPY (SELECT {columns} FROM {source} ORDER BY {spec.order})"
                    f" TO {literal(str(ordered))} (FORMAT parquet, COMPRESSION uncompressed,"
                    f" ROW_GROUP_SIZE {group})"
                )
                duck.give_back(con, SORT_MEMORY)
                files.append(ordered)
        shutil.rmtree(split, ignore_errors=True)
        give_back_memory()
        return files

    def _connect(
        self, memory: str = SORT_MEMORY, threads: int | None = None
    ) -> duckdb.DuckDBPyConnection:
        config: duck.Config = {
            "memory_limit": memory,
            "temp_directory": str(self.folder / "spill"),
            "default_null_order": "nulls_last",  # as _nulls_last: NULL after every value
        }
        if threads is not None:
            config["threads"] = threads
        con = duck.connect(config=config)
        return con


def _cuts(con: duckdb.DuckDBPyConnection, lead: str, rows: str, runs: int) -> list[Any]:
    """Values of ``lead`` that cut ``rows`` into about ``runs`` ranges of equal rows: the
    quantiles of a sample, each value once (a run is then one or more values of the lead
    whole, and fewer runs are cut when a value holds many rows)."""
    sample = con.execute(
        f"SELECT k FROM (SELECT {lead} AS k FROM {rows}"
        f" USING SAMPLE reservoir({SORT_SAMPLE} ROWS) REPEATABLE (1))"
        " WHERE k IS NOT NULL ORDER BY k"
    ).fetchall()
    return sorted({sample[len(sample) * i // runs][0] for i in range(1, runs)} if sample else ())


def _run_of(lead: str, cuts: int) -> str:
    """The SQL number of the run a row's ``lead`` falls in, between the parameters
    ``$cut0`` .. ``$cut{cuts - 1}`` (ascending): NULL, which sorts last, in the last."""
    ranges = " ".join(f"WHEN {lead} < $cut{i} THEN {i}" for i in range(cuts))
    return f"CASE WHEN {lead} IS NULL THEN {cuts} {ranges} ELSE {cuts} END"


def _rows(paths: Sequence[Path]) -> int:
    """The rows of Parquet files, from their footers."""
    return sum(pq.read_metadata(part).num_rows for part in paths)


def _bytes(paths: Sequence[Path]) -> int:
    """The bytes of Parquet files' rows, encoded but not compressed, from their footers."""
    metas = map(pq.read_metadata, paths)
    return sum(m.row_group(i).total_byte_size for m in metas for i in range(m.num_row_groups))


def _counted(hands: str, findings: str) -> str:
    """The hands' rows with each quarantined hand's findings counted from its input
    findings (``input.*``, one per quarantine row naming the hand) and the worst of them;
    a hand no input finding names alone was put aside by one naming several hands (its
    game's, or a refused file's ``input.file``): that one, at the severity of every input
    finding (until 2026-12-06 such a hand counted 0 and no severity, a hand quarantined
    with its own finding 1, major: a blind tester)."""
    ranked = " ".join(f"WHEN '{s.value}' THEN {s.rank}" for s in Severity)
    named = " ".join(f"WHEN {s.rank} THEN '{s.value}'" for s in Severity)
    input_severity = CATALOG["input.hand"].severity.value
    return (
        "(SELECT h.* REPLACE ("
        " CASE WHEN h.status = 'quarantined' THEN CAST(coalesce(f.n, 1) AS INTEGER)"
        " ELSE h.findings END AS findings,"
        f" CASE WHEN h.status = 'quarantined' THEN coalesce(f.worst, '{input_severity}')"
        " ELSE h.worst_severity END AS worst_severity)"
        f" FROM {hands} h LEFT JOIN ("
        f"  SELECT hand_id AS _fh, count(*) AS n, CASE max(CASE severity {ranked} END)"
        f"  {named} END AS worst FROM {findings}"
        "   WHERE hand_id IS NOT NULL AND starts_with(\"check\", 'input.') GROUP BY hand_id"
        " ) f ON f._fh = h.hand_id)"
    )


def _parquet(paths: Sequence[Path]) -> str:
    return f"read_parquet([{', '.join(literal(str(p)) for p in paths)}])"


PAGE_BYTES = 1024 * 1024
"""The Parquet writer's data page size and dictionary page limit (its defaults, given
explicitly because ``_kept_in_batches`` relies on them)."""
PAGE_ROWS = 20_000
"""The writer's most rows per data page (its default, given explicitly for the same reason)."""
_INDEX_BYTES = 5
"""At most this many bytes per value in a data page of dictionary indices (32-bit indices,
bit-packed, with the run headers)."""


def _write_groups(tmp: str, reader: pa.RecordBatchReader, schema: pa.Schema) -> None:
    """Row groups of exactly ROW_GROUP rows (the last one shorter), in the bytes
    ``pq.write_table`` gives for a table built from a list: a column is made contiguous
    only where the cuts between the batches could change a page (``_kept_in_batches``)."""
    with pq.ParquetWriter(
        tmp, schema, compression="zstd", data_page_size=PAGE_BYTES,
        dictionary_pagesize_limit=PAGE_BYTES, max_rows_per_page=PAGE_ROWS,
    ) as writer:  # fmt: skip
        pending: list[pa.RecordBatch] = []
        held = 0

        def flush(rows: int) -> None:
            nonlocal pending, held
            table = pa.Table.from_batches(pending, schema=reader.schema)
            pending = []
            head = table.slice(0, rows).cast(schema)
            tail = table.slice(rows)
            del table
            for i, column in enumerate(head.columns):
                if column.num_chunks > 1 and not _kept_in_batches(column):
                    head = head.set_column(i, head.field(i), column.combine_chunks())
            writer.write_table(head, row_group_size=ROW_GROUP)
            pending, held = tail.to_batches(), tail.num_rows

        for batch in reader:
            pending.append(batch)
            held += batch.num_rows
            while held >= ROW_GROUP:
                flush(ROW_GROUP)
        if held:
            flush(held)


def _kept_in_batches(column: pa.ChunkedArray) -> bool:
    """Whether a column chunk is written in the same bytes from its batches as from one
    contiguous array. The writer cuts its values into runs of at most 1,024 rows, and also
    at each batch's end; after each run it checks whether the page is full and whether the
    dictionary has outgrown ``PAGE_BYTES`` (then it falls back to plain values). A page
    full by its rows, ``PAGE_ROWS``, is found at the same row either way; a page full by
    its bytes, or a dictionary outgrown, may be found at another. So a column stays in its
    batches when neither can happen: its distinct values, as the dictionary page holds
    them, fit under ``PAGE_BYTES``, and a page of ``PAGE_ROWS`` rows of dictionary indices
    does too. Writing a million hands, only the hand and game ids are made contiguous, not
    the whole row group (112 MB)."""
    kind = column.type
    if pa.types.is_list(kind):
        longest = max(pc.max(pc.list_value_length(c)).as_py() or 0 for c in column.chunks)
        if PAGE_ROWS * longest * _INDEX_BYTES >= PAGE_BYTES:
            return False
        column = pa.chunked_array([pc.list_flatten(c) for c in column.chunks], kind.value_type)
        kind = kind.value_type
    if pa.types.is_boolean(kind):
        return True  # never dictionary-encoded: plain bits, far under a page
    if not (pa.types.is_string(kind) or pa.types.is_integer(kind)
            or pa.types.is_decimal(kind) or pa.types.is_timestamp(kind)):  # fmt: skip
        return False
    distinct = pa.array([], kind)
    for chunk in column.chunks:
        distinct = pc.unique(pa.chunked_array([distinct, chunk]))
        if pa.types.is_string(kind):  # a dictionary entry: its length (4 bytes), its bytes
            size = 4 * len(distinct) + (pc.sum(pc.binary_length(distinct)).as_py() or 0)
        else:
            size = 16 * len(distinct)  # no fixed-width value of these types is wider
        if size >= PAGE_BYTES:
            return False
    return True


def write_text(path: Path, text: str) -> None:
    _atomic(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_json(path: Path, data: dict[str, Any]) -> None:
    write_text(path, json.dumps(data, indent=2, sort_keys=True, default=str) + "\n")
