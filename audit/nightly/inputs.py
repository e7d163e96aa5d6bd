"""Tonight's input files: every Parquet file of the log root's tables, known by its content.

A file the replay reads is its table and SHA-256: one whose table and hash a past night
committed is not audited again, even under another path; one whose path a past night saw
with other content is *rewritten* and audited again; two files of one table and night
with the same content are audited once (the first path in order), the other listed as a
duplicate. The table is part of it because the same bytes are read as another table's
rows, or refused, in another table's folder: a results file refused in ``hands/`` and
moved to ``results/`` is audited there (``SeenFile.key``).

A file the replay refuses (``footer.refusal``: cut short, empty, a column missing) is its
path and SHA-256: its rows were never read, so its content makes no other file "seen"
(the same bytes moved where they can be read are audited), and it is reported at every
new path it comes under, never a duplicate of another (two empty files hold no "same
data": each is a file the platform failed to write).

The files ``replay`` lists without reading them, whatever they hold (``files.not_read``: a
file no table reads, refused; ``TableEntries.skipped``: a writer's own, skipped), are not
taken: whether they are read depends on where they are, not on their content (a writer's
attempt holds the bytes of the file it commits later). They are *listed* (``ListedFile``),
each (path, content) once, on the night that first finds it (docs/nightly.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from audit.errors import AuditError
from audit.logs.contract import REQUIRED_TABLES, TABLES
from audit.logs.files import not_read, os_why, shown, table_entries
from audit.logs.footer import content_key, hash_file, refusal

CHUNK = 1 << 20

SEEN_SCHEMA = pa.schema(
    [
        pa.field("sha256", pa.string(), nullable=False),
        pa.field("table", pa.string(), nullable=False),
        pa.field("path", pa.string(), nullable=False),
        pa.field("size", pa.int64(), nullable=False),
        pa.field("night", pa.int32(), nullable=False),
        pa.field("status", pa.string(), nullable=False),
        pa.field("refused", pa.bool_(), nullable=False),
    ],
    metadata={"rummy_audit.nightly": "seen files"},
)
"""``carry/seen.parquet`` (and the history's ``files``): every file a night took, once
(``SeenFile.key``). A file of an older rummy-audit, without ``refused``, reads as read."""

LISTED_SCHEMA = pa.schema(
    [
        pa.field("sha256", pa.string(), nullable=False),
        pa.field("table", pa.string(), nullable=False),
        pa.field("path", pa.string(), nullable=False),
        pa.field("size", pa.int64(), nullable=False),
        pa.field("night", pa.int32(), nullable=False),
        pa.field("kind", pa.string(), nullable=False),
    ],
    metadata={"rummy_audit.nightly": "listed files"},
)
"""``carry/listed.parquet``: every file a night listed without reading it (``ListedFile``),
each (path, content) once."""


@dataclass(frozen=True)
class SeenFile:
    sha256: str
    table: str
    path: str
    size: int
    night: int
    status: str
    """``new`` or ``rewritten`` (its path was seen before with other content)."""
    refused: bool = False
    """The replay refused it (``footer.refusal``) the night that took it."""

    @property
    def key(self) -> tuple[str, str, str]:
        """What a file is known by: a file read, its table and content; a file refused,
        its path and content (``identity``)."""
        return identity(self.table, self.path, self.sha256, self.refused)


def identity(table: str, path: str, sha256: str, refused: bool) -> tuple[str, str, str]:
    """What a file is known by from night to night. A file the replay reads is its table,
    its content and the contract columns its Hive partition folders name
    (``footer.folder_keys``): moved to another partition of columns the contract does not
    name (``date=``) it is the same file, its rows audited once; under another folder of a
    contract column the file may leave out (``hand_id=``) the same bytes are other rows (a
    blind tester's one-row results files of two hands, one skipped as a copy of the other:
    65 false score.outcome findings); in another table's folder they are another table's
    file. A file the replay refuses is its path and content: its bytes were never read, so
    they stand for no rows (an empty file is no copy of another), and the same bytes
    elsewhere are another file, audited (read) or reported (refused) there.

    >>> identity("hands", "hands/date=1/p.parquet", "ab", False)
    ('read', 'hands', 'ab')
    >>> identity("results", "results/hand_id=H2/outcome=won/p.parquet", "ab", False)
    ('read', 'results', 'ab hand_id=H2&outcome=won')
    >>> identity("hands", "hands/a/p.parquet", "ab", True)
    ('refused', 'hands/a/p.parquet', 'ab')
    """
    if refused:
        return ("refused", path, sha256)
    return ("read", table, content_key(table, path, sha256))


@dataclass(frozen=True)
class ListedFile:
    """A file of the log root that ``replay`` lists without reading it: ``refused`` (one
    no table reads, ``files.not_read``: an ``input.file`` row and finding) or ``skipped``
    (a writer's own, run.json's ``skipped_files``). It is not taken (not audited, not seen
    by its content): the night that first finds it at its path with this content lists it,
    as ``replay`` does; a later night lists it again only when its path holds other
    content."""

    table: str
    path: str
    sha256: str
    """Of its content; "" when it could not be read (a writer's file gone meanwhile)."""
    size: int
    night: int
    kind: str
    """``refused`` or ``skipped``."""
    copy: Path | None = None
    """A refused file's copy under the run's work folder (the replay reads its name and
    first bytes); None for a skipped one (the replay reads only its name)."""


@dataclass(frozen=True)
class TakenFile:
    """A file of tonight's log root that no past night took."""

    table: str
    path: str
    """Relative to the log root, '/'-separated."""
    sha256: str
    size: int
    status: str
    """``new`` or ``rewritten``."""
    copy: Path
    """Its copy under the run's work folder (the bytes hashed are the bytes audited)."""


@dataclass
class Intake:
    taken: list[TakenFile] = field(default_factory=list)
    seen_before: list[str] = field(default_factory=list)
    """Paths whose content a past night took."""
    known: dict[str, SeenFile] = field(default_factory=dict)
    """Each of ``seen_before``'s paths -> the file a past night took that it is
    (``SeenFile.key``: a file read maybe moved since, a file refused at its path)."""
    duplicates: list[tuple[str, str]] = field(default_factory=list)
    """(path, the path of tonight's file of its table with the same content; never a file
    the replay refuses)."""
    tables: list[str] = field(default_factory=list)
    """The tables the log root has a folder for."""
    refused: dict[str, str] = field(default_factory=dict)
    """Each taken file the replay refuses (``footer.refusal``) -> why: its rows never
    drive the carry (docs/nightly.md)."""
    listed: list[ListedFile] = field(default_factory=list)
    """The files the replay lists without reading them that no earlier night listed at
    their path with their content: the night lists them (``ListedFile``)."""
    listed_before: int = 0
    """Such files an earlier night listed (not listed again)."""

    @property
    def refused_listed(self) -> list[ListedFile]:
        return [f for f in self.listed if f.kind == "refused"]

    @property
    def skipped_listed(self) -> list[ListedFile]:
        return [f for f in self.listed if f.kind == "skipped"]

    @property
    def rewritten(self) -> list[str]:
        return [f.path for f in self.taken if f.status == "rewritten"]

    def seen_files(self, night: int) -> list[SeenFile]:
        """Tonight's files taken, as ``carry/seen.parquet`` keeps them."""
        return [SeenFile(f.sha256, f.table, f.path, f.size, night, f.status,
                         f.path in self.refused) for f in self.taken]  # fmt: skip


def check_log_root(logs: Path) -> None:
    """Refuse a folder that is not a log root: one line, no traceback."""
    if not logs.is_dir():
        raise AuditError(f"the log root {logs} is not a folder", slug="log-root")
    missing = [t for t in REQUIRED_TABLES if not (logs / t).is_dir()]
    if missing:
        raise AuditError(
            f"{logs} is not a log root: it has no {', '.join(f'{t}/' for t in missing)} "
            f"folder{'s' if len(missing) > 1 else ''} (the contract's tables are "
            f"{', '.join(TABLES)})",
            slug="log-root",
        )


def read_seen(path: Path) -> list[SeenFile]:
    rows = pq.read_table(path).to_pylist()
    return [SeenFile(**row) for row in rows]


def write_seen(path: Path, rows: list[SeenFile]) -> None:
    rows = sorted(rows, key=lambda r: (r.night, r.table, r.path, r.sha256))
    table = pa.Table.from_pylist([r.__dict__ for r in rows], schema=SEEN_SCHEMA)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)


def read_listed(path: Path) -> list[ListedFile]:
    """A night's ``carry/listed.parquet``; none when it has none (a state folder of an
    older rummy-audit: its files are listed again once, never missed)."""
    if not path.is_file():
        return []
    return [ListedFile(**row) for row in pq.read_table(path).to_pylist()]


def write_listed(path: Path, rows: list[ListedFile]) -> None:
    rows = sorted(rows, key=lambda r: (r.night, r.table, r.path, r.sha256))
    data = [{k: v for k, v in r.__dict__.items() if k != "copy"} for r in rows]
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(data, schema=LISTED_SCHEMA), path)


def take(
    logs: Path,
    seen: list[SeenFile],
    into: Path,
    listed: list[ListedFile] | None = None,
    night: int = 0,
) -> Intake:
    """Hash every file of the log root's tables; copy the ones no past night took into
    ``into`` (same relative paths), hashing the copy itself. The files the replay lists
    without reading them (``ListedFile``) that ``listed`` (the earlier nights') does not
    hold at their path with their content are listed tonight (``night``), a refused one
    copied too."""
    known = {row.key: row for row in seen}  # night order: each key's last night
    # A file refused tonight at a path a past night took with its content is that file,
    # whatever that night made of it (a state of an older rummy-audit has no ``refused``).
    known.update({identity(r.table, r.path, r.sha256, True): r for r in seen})
    last_hash: Mapping[str, str] = {row.path: row.sha256 for row in seen}  # night order
    intake = Intake(tables=[t for t in TABLES if (logs / t).is_dir()])
    tonight: dict[tuple[str, str, str], str] = {}
    before = {(row.path, row.sha256) for row in listed or []}
    for table in intake.tables:
        entries = table_entries(logs, table)
        found = sorted(
            (shown(path.relative_to(logs).as_posix()), why)
            for path, why in [*entries.read, *entries.odd]
        )  # a writer's own file is no table's data, as for replay (files.WRITERS_OWN)
        for path in entries.skipped:
            rel = shown(path.relative_to(logs).as_posix())
            try:
                digest, size = hash_file(path), path.stat().st_size
            except OSError:  # a writer's file gone or changing: listed by its name
                digest, size = "", 0
            if (rel, digest) in before:
                intake.listed_before += 1
            else:
                intake.listed.append(ListedFile(table, rel, digest, size, night, "skipped"))
        for rel, why in found:
            source = logs / rel
            if why:
                # A link to nothing, a file or folder that cannot be read: replay refuses
                # it and goes on, but a night commits what it takes for good, so it is not
                # taken without it (nothing is marked seen; the run stops on one line).
                raise AuditError(
                    f"{rel} {why}; the nightly audit takes every file of the log root, so "
                    "mend it (or move it out) and run the night again",
                    slug="log-root",
                )
            digest = hash_file(source)
            # Read or refused decides what the file is known by (``identity``): the
            # footer of the file in place, then of its copy, the bytes audited.
            why = refusal(table, source, rel)
            key = identity(table, rel, digest, bool(why))
            if key in known:
                intake.seen_before.append(rel)
                intake.known[rel] = known[key]
                continue
            if key in tonight:
                intake.duplicates.append((rel, tonight[key]))
                continue
            copy = into / rel
            copy.parent.mkdir(parents=True, exist_ok=True)
            copied = copy_file(source, copy)
            audited = refusal(table, copy, rel) if copied == digest else why
            if copied != digest or bool(audited) != bool(why):
                raise AuditError(
                    f"{source} changed while it was being read; run the nightly audit again "
                    "once the platform has finished writing it",
                    slug="log-root",
                )
            why = audited  # the copy's words: the bytes audited
            tonight[key] = rel
            status = "rewritten" if rel in last_hash else "new"
            intake.taken.append(
                TakenFile(table, rel, digest, copy.stat().st_size, status, copy)
            )
            if why:
                intake.refused[rel] = why
    for row in not_read(logs):
        rel = row.file or ""
        try:
            digest = hash_file(logs / rel)
            if (rel, digest) in before:
                intake.listed_before += 1
                continue
            copy = into / rel
            copy.parent.mkdir(parents=True, exist_ok=True)
            copied = copy_file(logs / rel, copy)
        except OSError as error:
            raise AuditError(
                f"{rel} could not be read ({os_why(error)}); the nightly audit lists every "
                "file of the log root, so mend it (or move it out) and run the night again",
                slug="log-root",
            ) from error
        if copied != digest:
            raise AuditError(
                f"{logs / rel} changed while it was being read; run the nightly audit again "
                "once the platform has finished writing it",
                slug="log-root",
            )
        intake.listed.append(
            ListedFile(row.table, rel, digest, copy.stat().st_size, night, "refused", copy)
        )
    intake.listed.sort(key=lambda f: (f.table, f.path))
    return intake


def copy_file(source: Path, target: Path) -> str:
    """Copy ``source`` to ``target``; the SHA-256 of the bytes written."""
    digest = hashlib.sha256()
    with source.open("rb") as src, target.open("wb") as dst:
        while chunk := src.read(CHUNK):
            digest.update(chunk)
            dst.write(chunk)
    return digest.hexdigest()
