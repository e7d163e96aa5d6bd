"""A log root's files as found on disk: every entry under a table's folder, through the
symbolic links it holds (``walk``), and the files that look like table data but that no
table reads (``not_read``). ``reader.open_log_root`` and the nightly intake sort them by
the same rule (``table_entries``, ``not_read``), so both read, refuse and skip the same
files."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from audit.errors import first_line, one_line
from audit.logs.contract import TABLES
from audit.records import QuarantineRow

PARQUET_NAMES = (".parquet", ".parq", ".pq")
"""Endings that make a file taken for table data, in any case (``table_file``)."""

WRITERS_OWN = (".", "_")
"""How a name under a table's folder marks a writer's own file or folder, not table data:
Spark's ``_temporary/`` attempts and ``.spark-staging-*``, a file being written
(``.part-0.parquet``), ``_SUCCESS``, ``.crc`` (the convention of Hive, Spark and Arrow's
datasets). Such ``.parquet`` files are not read (``writers_own``): a job's leftover copy of
the night's rows was read as the night's rows, and every hand quarantined as a duplicate (a
blind tester)."""


def writers_own(path: Path, folder: Path) -> bool:
    """Whether `path`, under the table folder `folder`, is a writer's own (``WRITERS_OWN``):
    its name or a folder's name between them starts with ``.`` or ``_``.

    >>> writers_own(Path("logs/events/_temporary/0/part-0.parquet"), Path("logs/events"))
    True
    >>> writers_own(Path("logs/events/date=2026-11-29/part-0.parquet"), Path("logs/events"))
    False
    """
    return any(part.startswith(WRITERS_OWN) for part in path.relative_to(folder).parts)


def table_file(path: Path) -> bool:
    """Whether a file of a table's folder is taken for the table's data: its name ends in a
    Parquet ending (``PARQUET_NAMES``, in any case), or whatever its name, it starts with
    Parquet's ``PAR1`` (Hive's ``000000_0``). The contract names no file names: a blind
    tester's Impala ``.parq``, Hive ``000000_0`` and ``PART-1.PARQUET`` files were left out,
    and half a night's hands quarantined for want of their events. A file with such an
    ending that is not Parquet is refused as unreadable, never passed over."""
    return path.suffix.lower() in PARQUET_NAMES or (path.is_file() and _starts_parquet(path))


def not_read(root: Path) -> list[QuarantineRow]:
    """The files under ``root`` that look like table data but that no table reads, each an
    ``input.file`` row saying why, so none is left out silently. A file looks like table
    data by a Parquet ending among its endings (``.parquet``, ``.parq``, ``.pq``: also
    ``part-0.parquet.gz``) or by its first bytes (``PAR1``). Listed: such a file of a
    table's folder not read as one (``events/part-0.parquet.gz``: ``table_file``), and one
    in a folder that is not a table's (``ledgers/...``). Not listed here: files at the
    root (tables are folders; the simulator keeps its planted truth there,
    ``labels.parquet``), names starting with ``.`` or ``_`` and whatever is under such a
    folder (a writer's own, ``writers_own``: its ``.parquet`` files are listed apart, as
    ``LogRoot.skipped``), and other files (a README, notes)."""
    out = []
    for path, why in sorted(walk(root, hidden=False)):
        rel = path.relative_to(root)
        top = rel.parts[0] if len(rel.parts) > 1 else ""
        if not top or (top in TABLES and table_file(path)):
            continue  # at the root; or read by its table, wherever it is in the folder
        if any(part.startswith(WRITERS_OWN) for part in rel.parts) or why:
            continue  # a writer's own; or a table's folder that could not be listed, refused
        if not (any(end.lower() in PARQUET_NAMES for end in path.suffixes)
                or _starts_parquet(path)):  # fmt: skip
            continue
        name = one_line(rel.as_posix())
        if top in TABLES:
            why = (f"{name} is in the {top}/ folder but is neither named .parquet nor a Parquet"
                   " file, so it was not read")  # fmt: skip
        else:
            why = (f"{name} is Parquet in the {one_line(top)}/ folder, which is not a table of"
                   f" the contract ({', '.join(TABLES)}), so it was not read")  # fmt: skip
        out.append(QuarantineRow(top, rel.as_posix(), None, None, None, "input.file", why))
    return out


@dataclass
class TableEntries:
    """What a table's folder holds, sorted into what ``replay`` does with it
    (``table_entries``): the one rule of which files are read, refused or skipped, for
    ``reader.open_log_root`` and the nightly intake alike."""

    read: list[tuple[Path, str]] = field(default_factory=list)
    """(path, why) of the table's files (``table_file``), read ("") or refused (why), and
    of its folders that could not be listed (refused)."""
    skipped: list[Path] = field(default_factory=list)
    """The ``.parquet`` files that are a writer's own (``writers_own``): not read, listed
    in run.json's ``skipped_files``."""
    odd: list[tuple[Path, str]] = field(default_factory=list)
    """(path, why) of the other entries that cannot be examined (a link to nothing, a
    pipe) and are no table file by their name: ``replay`` passes them over; the nightly
    audit, which commits what it takes, stops on them."""


def table_entries(root: Path, table: str) -> TableEntries:
    """The entries of ``root``'s folder of ``table`` (``walk``), sorted by what is done
    with them (``TableEntries``)."""
    folder = root / table
    out = TableEntries()
    for path, why in walk(folder) if folder.is_dir() else ():
        if writers_own(path, folder):
            if path.suffix == ".parquet" and why in ("", NOT_UTF8):
                out.skipped.append(path)
        elif table_file(path) or (why and path.is_dir()):  # or a folder not listed
            out.read.append((path, why))
        elif why and why != NOT_UTF8:
            out.odd.append((path, why))
    return out


def walk(folder: Path, *, hidden: bool = True) -> Iterator[tuple[Path, str]]:
    """Every entry under `folder` that is not a folder, at any depth, named by its path
    under `folder` (through the links it went by), with why it cannot be read: "" for a
    regular file, else the end of a sentence that starts with its name. A folder that
    cannot be listed (permission denied) comes with why, in place of what it holds, and
    so does a symbolic link to nothing and whatever is not a regular file (a pipe).

    A symbolic link to a folder is followed like the folder itself (``Path.rglob`` does
    not follow them before Python 3.13: a partition folder linked in was read as empty),
    but never back into a folder it is inside (a cycle: those files are read where they
    are). With ``hidden=False`` folders named ``.*`` or ``_*`` are not entered."""
    stack: list[tuple[Path, tuple[Path, ...]]] = [(folder, ())]
    while stack:
        here, above = stack.pop()
        try:
            real = here.resolve(strict=True)
            if any(real == up or real in up.parents for up in above):
                continue  # a link back to a folder it is inside
            with os.scandir(here) as listing:
                entries = list(listing)
        except OSError as error:
            yield here, f"is a folder that could not be listed: {os_why(error)}"
            continue
        for entry in entries:
            path = here / entry.name
            if not utf8(entry.name):
                yield path, NOT_UTF8  # never entered nor read: no output could name it
            elif _is(entry.is_dir):  # through a link
                if hidden or not entry.name.startswith((".", "_")):
                    stack.append((path, (*above, real)))
            elif _is(entry.is_file):
                yield path, ""
            elif not _is(entry.is_symlink):
                yield path, "is not a regular file"
            else:
                try:
                    os.stat(path)
                    yield path, "is not a regular file"
                except FileNotFoundError:
                    yield path, "is a symbolic link to nothing"
                except OSError as error:
                    yield path, f"is a symbolic link that cannot be followed: {os_why(error)}"


NOT_UTF8 = (
    "has a name that is not UTF-8 text (shown with its bytes escaped), so it was not read; "
    "rename it"
)
"""Why an entry whose name is not UTF-8 is refused (``walk``): the outputs and run.json
name every file in UTF-8, and DuckDB opens files by UTF-8 names."""


def utf8(name: str) -> bool:
    """Whether a name from the file system is UTF-8 text (Python holds the bytes of one
    that is not as lone surrogates).

    >>> utf8("café.parquet"), utf8(b"caf\\xe9.parquet".decode("utf-8", "surrogateescape"))
    (True, False)
    """
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown(path: str) -> str:
    """A path of the log root as the outputs name it: UTF-8 text, a name's bytes that are
    not UTF-8 written as ``\\xe9`` (``utf8``).

    >>> shown(b"events/caf\\xe9.parquet".decode("utf-8", "surrogateescape"))
    'events/caf\\\\xe9.parquet'
    """
    if utf8(path):
        return path
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _is(test: Callable[[], bool]) -> bool:
    """`test()`, False when it fails (an entry that cannot be examined)."""
    try:
        return test()
    except OSError:
        return False


def os_why(error: OSError) -> str:
    """The reason of an `OSError`, without the path it names ("Permission denied")."""
    return one_line(error.strerror or first_line(error))


def _starts_parquet(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == b"PAR1"
    except OSError:
        return False
