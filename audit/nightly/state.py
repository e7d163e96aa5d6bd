"""The state folder of the nightly runs: what has been committed, and the one commit point.

```
DIR/
  state.json        {"format": "rummy-audit nightly state", "state_version": 1, "night": N}
  lock              held (flock) by the run in progress
  history.duckdb    the history, a mirror of nights/N/history/ (rebuilt when behind)
  nights/0001/ ...  each committed night: its outputs, its history, and (the last one
                    only) carry/: the file hashes seen so far, the rows of running games
                    and the seats kept for table.limit
  work/             the run in progress: everything is built here, then renamed;
                    work/committed names the night it commits, until the run has said it
```

A night is committed by one ``os.replace`` of ``state.json`` after its folder was renamed
into ``nights/``. Whatever a run killed before that point left (``work/``, a night folder
beyond the committed one) is removed by the next run, which then does the night again;
whatever it left after it (the history database behind, an old ``carry/``) is finished by
the next run before anything else, and a night whose run stopped before it could say it
(``work/committed`` naming the committed night) is said by the next run that finds nothing
new, with its exit status.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from audit.errors import AuditError, first_line_under, one_line

FORMAT = "rummy-audit nightly state"
STATE_VERSION = 1
"""Version of the state folder's layout. History:
- 1: state.json, nights/NNNN/ (outputs, history/, carry/), history.duckdb. Since
  carry/seats.parquet (``audit.nightly.seats``), read when the night's nightly.json counts
  it (``carry.seats``): a night without one is read as keeping no seat."""
STATE = "state.json"
LOCK = "lock"
WORK = "work"
NIGHTS = "nights"
HISTORY_DB = "history.duckdb"
CARRY = "carry"
COMMITTED = "committed"
"""``work/committed``: the night the run commits, written just before its commit and
removed with ``work/`` when the run ends, so a run that finds it naming the committed night
knows that night's run stopped before it could say it (``State.unsaid``)."""
OURS = frozenset({STATE, LOCK, WORK, NIGHTS, HISTORY_DB, f"{HISTORY_DB}.wal"})

PAUSE_AT = "RUMMY_AUDIT_NIGHTLY_PAUSE_AT"
"""Test hook: the name of a checkpoint where the run writes ``PAUSE_FILE`` and waits to be
killed (tests/nightly/test_kill.py kills it there with SIGKILL)."""
PAUSE_FILE = "RUMMY_AUDIT_NIGHTLY_PAUSE_FILE"


def night_name(night: int) -> str:
    """The folder of a night under ``nights/``.

    >>> night_name(7)
    '0007'
    """
    return f"{night:04d}"


def checkpoint(name: str) -> None:
    """Where a test may stop the run: with ``RUMMY_AUDIT_NIGHTLY_PAUSE_AT=name`` in the
    environment, write ``RUMMY_AUDIT_NIGHTLY_PAUSE_FILE`` and wait for a kill."""
    if os.environ.get(PAUSE_AT) != name:
        return
    Path(os.environ[PAUSE_FILE]).write_text(name, encoding="utf-8")
    while True:  # pragma: no cover - ended by the test's SIGKILL
        time.sleep(0.05)


@dataclass(frozen=True)
class State:
    """An opened state folder and the last night committed in it (0: none yet)."""

    folder: Path
    night: int
    unsaid: bool = False
    """The run that committed ``night`` stopped before it ended (``work/committed`` names
    it): it never said the night nor gave its exit status."""

    @property
    def nights(self) -> Path:
        return self.folder / NIGHTS

    @property
    def work(self) -> Path:
        return self.folder / WORK

    def night_folder(self, night: int) -> Path:
        return self.nights / night_name(night)

    @property
    def last(self) -> Path | None:
        """The last committed night's folder; None before the first night."""
        return self.night_folder(self.night) if self.night else None

    def commit(self, night: int) -> State:
        """Make ``night`` (its folder already under ``nights/``) the committed one: the one
        atomic step of a run. ``work/committed`` names it first, so that a run stopped
        after the commit is known to have not said it (``unsaid``)."""
        self.mark(night)
        write_state(self.folder, night)
        return State(self.folder, night)

    def mark(self, night: int) -> None:
        """Write ``work/committed``, naming ``night``: its run has not said it yet."""
        self.work.mkdir(exist_ok=True)
        (self.work / COMMITTED).write_text(f"{night}\n", encoding="utf-8")


@contextmanager
def open_state(folder: Path) -> Iterator[State]:
    """Lock the state folder (creating it, empty, on the first night), check it, and clear
    what a killed run left before its commit point."""
    if folder.exists() and not folder.is_dir():
        raise AuditError(f"--state {folder} exists and is not a folder", slug="state")
    folder.mkdir(parents=True, exist_ok=True)
    lock = (folder / LOCK).open("a")
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise AuditError(
                f"another rummy-audit nightly run is using --state {folder}; wait for it to end",
                slug="state",
            ) from None
        night = read_state(folder)
        state = State(folder, night, unsaid=bool(night) and _marked(folder) == night)
        _clear_leftovers(state)
        yield state
    finally:
        lock.close()


def read_state(folder: Path) -> int:
    """The committed night of ``folder``; a new, empty folder is made a state at night 0.
    Refuses a folder that holds something else, or a state of another version."""
    path = folder / STATE
    if not path.exists():
        others = sorted(p.name for p in folder.iterdir()
                        if p.name not in OURS and not p.name.startswith(f".{STATE}."))  # fmt: skip
        if others:
            raise AuditError(
                f"--state {folder} is not a nightly state folder: it has no {STATE} and holds "
                f"{', '.join(others[:3])}{' ...' if len(others) > 3 else ''}; give a new or "
                "empty folder",
                slug="state",
            )
        write_state(folder, 0)
        return 0
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise AuditError(
            f"{path} cannot be read as a nightly state: {error}", slug="state"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise AuditError(
            f"{path} is not a rummy-audit nightly state (no \"format\": \"{FORMAT}\")",
            slug="state",
        )
    version = data.get("state_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise AuditError(f"{path} has no state_version", slug="state")
    if version != STATE_VERSION:
        newer = "a newer" if version > STATE_VERSION else "an older"
        raise AuditError(
            f"--state {folder} was written by {newer} rummy-audit (state version {version}); "
            f"this one reads version {STATE_VERSION}",
            slug="state",
        )
    night = data.get("night")
    if not isinstance(night, int) or isinstance(night, bool) or night < 0:
        raise AuditError(f"{path} has no valid night number", slug="state")
    if night and not (folder / NIGHTS / night_name(night)).is_dir():
        raise AuditError(
            f"--state {folder} names night {night} as its last, but {NIGHTS}/{night_name(night)} "
            "is missing",
            slug="state",
        )
    return night


REMEDY = "restore the state folder from a backup, or start a new state folder"
"""What a user can do about a damaged state folder (the audit never mends one itself)."""


class StateDamaged(AuditError):
    """A state folder that lacks a file or holds one that cannot be read; ``why`` is what is
    wrong and what to do, without the folder (a committed night's line ends with it)."""

    slug = "state"

    def __init__(self, folder: Path, what: str, remedy: str) -> None:
        self.why = f"{what}; {remedy}"
        super().__init__(f"--state {folder} is damaged: {self.why}")


def damaged(folder: Path, what: str, remedy: str = REMEDY) -> StateDamaged:
    """The one line for a state folder that lacks a file or holds one that cannot be read.

    >>> error = damaged(Path("state"), "nights/0002/carry/ is missing", "start a new one")
    >>> str(error)
    '--state state is damaged: nights/0002/carry/ is missing; start a new one'
    >>> error.why
    'nights/0002/carry/ is missing; start a new one'
    """
    return StateDamaged(folder, what, remedy)


def in_state(folder: Path, path: Path) -> str:
    """A path of the state folder as a message names it: relative to the folder.

    >>> in_state(Path("state"), Path("state/nights/0002/carry/seen.parquet"))
    'nights/0002/carry/seen.parquet'
    """
    return path.relative_to(folder).as_posix()


@contextmanager
def reading(folder: Path, path: Path, remedy: str = REMEDY) -> Iterator[None]:
    """Read ``path`` of the state folder ``folder``: a file that cannot be read (a Parquet,
    DuckDB or JSON file cut short or overwritten) is ``damaged``, one line, not a
    traceback."""
    try:
        yield
    except (OSError, ValueError, pa.ArrowException, duckdb.Error) as error:
        why = first_line_under(error, folder.resolve())  # DuckDB names a file resolved
        if not folder.is_absolute():
            why = why.replace(one_line(f"{folder}/"), "")
        raise damaged(folder, f"{in_state(folder, path)} cannot be read ({why})", remedy) from None


def write_state(folder: Path, night: int) -> None:
    """Replace ``state.json`` atomically (written, synced, renamed, the folder synced)."""
    data = {"format": FORMAT, "state_version": STATE_VERSION, "night": night}
    tmp = folder / f".{STATE}.{os.getpid()}"
    with tmp.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, indent=2, sort_keys=True) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, folder / STATE)
    sync_folder(folder)


def sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _marked(folder: Path) -> int | None:
    """The night ``work/committed`` names, if a run left it (None: none, or unreadable)."""
    try:
        return int((folder / WORK / COMMITTED).read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None


def _clear_leftovers(state: State) -> None:
    """Remove what a run killed before its commit left: ``work/``, a night folder beyond
    the committed night, a temporary state file."""
    shutil.rmtree(state.work, ignore_errors=True)
    for path in state.folder.glob(f".{STATE}.*"):
        path.unlink(missing_ok=True)
    if state.nights.is_dir():
        for path in sorted(state.nights.iterdir()):
            if path.name.isdigit() and int(path.name) > state.night:
                shutil.rmtree(path)
