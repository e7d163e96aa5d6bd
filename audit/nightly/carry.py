"""Games that span two nights: tonight's log root is split into the rows audited tonight
and the rows carried to the next night.

A game is *running* when its games row has ``ended_at`` null (its rows from tonight's
files, else the row carried from an earlier night: tonight's games rows of a game replace
the carried ones that agree with them but for ``ended_at``, ``_bodies``). Every row of a
running game (games, hands, game_events, ledger, sessions by ``game_id``; events and
results through their hand) is carried: it waits, unjudged, in ``carry/logs/`` of the
night's folder, and is audited with the rest of its game the night its games row comes
with ``ended_at`` set. A file with no row of a running game is audited as it is, byte for
byte; one with some is written again without them.

Carried rows keep the path of their night's log root, under a folder naming the file
they came from: the rows of ``hands/date=2026-11-29/part-0.parquet`` (content hash
``3fa4…``) are carried as ``hands/carried-3fa4…/date=2026-11-29/part-0.parquet``, and a
quarantine row about them names that path. When the file they came from is rewritten
(same path, new content), its carried rows are dropped: the new content replaces them.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.errors import AuditError, LogFormatError
from audit.logs.contract import SCHEMA_VERSION, SCHEMA_VERSION_KEY, load_contract
from audit.logs.footer import folder_keys, key_array
from audit.nightly.inputs import TakenFile

RUNNING = "running.parquet"
"""``carry/running.parquet``: each game carried to the next night, and since which night."""
LOGS = "logs"
"""``carry/logs/``: the carried rows, a log root of their own."""
CARRIED = "carried-"
"""The folder that holds a file's carried rows, followed by 12 digits of its hash."""
EMPTY = "nightly-empty.parquet"
"""An empty file of a table the log root has, when tonight holds no row of it."""
RUNNING_SCHEMA = pa.schema(
    [pa.field("game_id", pa.string(), nullable=False),
     pa.field("since_night", pa.int32(), nullable=False)],
    metadata={"rummy_audit.nightly": "running games"},
)
BY_GAME = ("games", "hands", "game_events", "ledger", "sessions")
BY_HAND = ("events", "results")


@dataclass(frozen=True)
class Candidate:
    table: str
    path: str
    """Its path in tonight's log root."""
    source: Path
    sha256: str
    """A file taken tonight (moved into place): its hash; ``""`` for a carried file
    (copied: the last night's folder is never changed)."""
    refused: str = ""
    """Why the replay refuses it (``footer.refusal``); "" when it reads. Its rows drive
    nothing: no game is running, ended or carried by them, none is carried."""

    @property
    def new(self) -> bool:
        return bool(self.sha256)


@dataclass(frozen=True)
class Unread:
    """A file a night took that the replay refused: it may hold rows of the games running
    then, so the nights that judge them name it where their rows are missing."""

    table: str
    path: str
    sha256: str
    night: int

    def to_json(self) -> dict[str, object]:
        return {"table": self.table, "path": self.path, "sha256": self.sha256,
                "night": self.night}  # fmt: skip


@dataclass
class Split:
    """How tonight's rows were split."""

    carried_in: dict[str, int] = field(default_factory=dict)
    """Game -> the night it was first carried from, for every game carried in (the last
    night's ``running.parquet``, whether or not its carried games row was dropped for a
    rewritten file)."""
    running: dict[str, int] = field(default_factory=dict)
    """Game -> the night it started being carried, for every game carried out."""
    replaced_games_rows: int = 0
    """Carried games rows replaced by tonight's row of the same game."""
    dropped: list[str] = field(default_factory=list)
    """Carried files dropped because the file they came from was rewritten."""
    split_files: list[tuple[str, int, int]] = field(default_factory=list)
    """(path, rows audited, rows carried) of each file that was split."""
    carried_rows: dict[str, int] = field(default_factory=dict)
    """Table -> rows carried to the next night."""
    placeholders: list[str] = field(default_factory=list)
    held: dict[str, str] = field(default_factory=dict)
    """Game carried in -> the file tonight that holds its games row but that the replay
    refuses: the game is carried on (running as far as the audit knows) until a row of it
    that reads comes (the file rewritten)."""
    unread_games: list[str] = field(default_factory=list)
    """Tonight's refused games files whose ``game_id`` cannot be read either: they may
    hold the end of a game carried in, which is then carried on."""
    unread: list[Unread] = field(default_factory=list)
    """The refused files that may hold rows of the games carried out (tonight's, and the
    earlier nights' that a game running since then still needs)."""

    @property
    def ended(self) -> list[str]:
        """Games carried in whose end came tonight: judged tonight, whole."""
        return sorted(g for g in self.carried_in if g not in self.running)


def origin(path: str) -> str:
    """The log-root path a carried file's rows came from.

    >>> origin("hands/carried-0123456789ab/date=2026-11-29/part-0.parquet")
    'hands/date=2026-11-29/part-0.parquet'
    >>> origin("hands/date=2026-11-29/part-0.parquet")
    'hands/date=2026-11-29/part-0.parquet'
    """
    table, _, rest = path.partition("/")
    first, _, tail = rest.partition("/")
    return f"{table}/{tail}" if first.startswith(CARRIED) and tail else path


def carried_path(path: str, sha256: str) -> str:
    """Where a new file's carried rows go.

    >>> carried_path("hands/date=2026-11-29/part-0.parquet", "0123456789abcdef" * 4)
    'hands/carried-0123456789ab/date=2026-11-29/part-0.parquet'
    """
    table, _, rest = path.partition("/")
    return f"{table}/{CARRIED}{sha256[:12]}/{rest}"


def split_night(
    *,
    taken: list[TakenFile],
    carried: Path | None,
    since: dict[str, int],
    rewritten: set[str],
    tables: list[str],
    night: int,
    audit_root: Path,
    carry_root: Path,
    refused: dict[str, str] | None = None,
    unread: list[Unread] | None = None,
) -> Split:
    """Build tonight's log root in ``audit_root`` (the rows of every game not running)
    and the next night's carried rows in ``carry_root/logs`` (the rows of running
    games), from the files taken tonight and the rows ``carried`` from the last night
    (its ``carry/logs/``) of the games it carried (``since``: its ``running.parquet``).
    ``refused``: the taken files the replay refuses, and why; they go to it whole, and
    their rows drive nothing. ``unread``: the refused files the last night listed."""
    out = Split()
    refused = refused or {}
    candidates = [Candidate(f.table, f.path, f.copy, f.sha256, refused.get(f.path, ""))
                  for f in taken]  # fmt: skip
    names = {f.path for f in taken}
    if carried is not None and carried.is_dir():
        for source in sorted(carried.rglob("*.parquet")):
            path = source.relative_to(carried).as_posix()
            if origin(path) in rewritten:
                out.dropped.append(path)
                continue
            if path in names:
                raise AuditError(
                    f"the log root holds {path}, the name of rows carried from an earlier "
                    f"night; rename the folder {path.split('/')[1]}",
                    slug="log-root",
                )
            candidates.append(Candidate(path.partition("/")[0], path, source, ""))
    candidates.sort(key=lambda c: c.path)

    rows, carried_games, named = _games(candidates)
    out.unread_games = sorted(c.path for c in candidates if c.refused and c.table == "games"
                              and c.path not in named.values())  # fmt: skip
    # A game whose carried games row was dropped (its file rewritten) is carried in all
    # the same: its other rows are, and tonight's files hold its row again.
    out.carried_in = {g: since.get(g, night - 1) for g in sorted(carried_games | set(since))}
    replaced = {g for g, _, new in rows if new}
    bodies = _bodies(candidates, replaced & carried_games)
    ended: dict[str, bool] = {}
    for game, done, new in rows:
        if new or game not in replaced:  # tonight's rows of a game replace the carried ones
            ended[game] = ended.get(game, False) or done
    running = {g for g, done in ended.items() if not done}
    out.running = {g: since.get(g, night) for g in sorted(running)}
    out.held = {g: f for g, f in sorted(named.items()) if g in out.carried_in and g in running}
    hands = _running_hands(candidates, running)

    for item in candidates:
        _place(item, running, hands, bodies, audit_root, carry_root / LOGS, out)
    # A table whose files tonight are all refused (or none) gets an empty one, so that the
    # night goes on without them as one replay of every night's files does.
    readable = {c.table for c in candidates if not c.refused and (audit_root / c.path).is_file()}
    for table in tables:
        if table not in readable:
            path = f"{table}/{EMPTY}"
            _write_empty(table, audit_root / path)
            out.placeholders.append(path)
    kept = [u for u in unread or [] if u.path not in rewritten]
    kept += [Unread(c.table, c.path, c.sha256, night) for c in candidates if c.refused and c.new]
    out.unread = [u for u in kept if any(n <= u.night for n in out.running.values())]
    _write_running(carry_root / RUNNING, out.running)
    return out


def _games(
    candidates: list[Candidate],
) -> tuple[list[tuple[str, bool, bool]], set[str], dict[str, str]]:
    """Every readable games row: (game, ended, from a new file); the games carried; and
    the games the refused files name (as far as their ``game_id`` reads) -> the file."""
    rows: list[tuple[str, bool, bool]] = []
    carried: set[str] = set()
    named: dict[str, str] = {}
    for item in candidates:
        if item.table != "games":
            continue
        if item.refused:  # the replay does not read it: its rows say nothing of the games
            data = read_rows(item.source, ["game_id"], rel=item.path)
            ids = as_strings(data.column("game_id")) if data is not None else []
            named.update((g, item.path) for g in ids if g is not None and g not in named)
            continue
        table = read_rows(item.source, ["game_id", "ended_at"], rel=item.path)
        if table is None:
            continue
        ids = as_strings(table.column("game_id"))
        ended = pc.is_valid(table.column("ended_at")).to_pylist()
        for game, done in zip(ids, ended, strict=True):
            if game is None:
                continue
            rows.append((game, bool(done), item.new))
            if not item.new:
                carried.add(game)
    return rows, carried, named


def _body(table: pa.Table) -> list[tuple[object, ...]]:
    """Each games row's values but `ended_at`, the one column a game's row may change
    from one night to the next; columns in name order (files of two contract versions)."""
    names = sorted(n for n in table.column_names if n != "ended_at")
    try:
        columns = [pc.cast(table.column(n), pa.string()).to_pylist() for n in names]
    except pa.ArrowException:  # a value that has no text: compared as it reads
        columns = [table.column(n).to_pylist() for n in names]
    return list(zip(*columns, strict=True)) if columns else [() for _ in range(table.num_rows)]


def _bodies(candidates: list[Candidate], games: set[str]) -> dict[str, set[tuple[object, ...]]]:
    """For each carried game tonight's files write a games row of: the bodies (``_body``)
    of tonight's rows of it. A carried row with one of them is replaced by tonight's
    (the same game, ended or still running); one without is kept beside it, so the replay
    sees the game's row twice with other values and quarantines it as a duplicate, as one
    replay of both nights' rows does (schemas/README.md: "nothing else about the game may
    change")."""
    out: dict[str, set[tuple[object, ...]]] = {}
    if not games:
        return out
    for item in candidates:
        if item.table != "games" or not item.new or item.refused:
            continue
        table = read_rows(item.source, rel=item.path)
        if table is None or "game_id" not in table.column_names:
            continue
        for game, body in zip(as_strings(table.column("game_id")), _body(table), strict=True):
            if game in games:
                out.setdefault(game, set()).add(body)
    return out


def _running_hands(candidates: list[Candidate], running: set[str]) -> set[str]:
    hands: set[str] = set()
    if not running:
        return hands
    for item in candidates:
        if item.table != "hands" or item.refused:
            continue
        table = read_rows(item.source, ["hand_id", "game_id"], rel=item.path)
        if table is None:
            continue
        ids, games = as_strings(table.column("hand_id")), as_strings(table.column("game_id"))
        hands.update(h for h, g in zip(ids, games, strict=True) if h is not None and g in running)
    return hands


def _place(
    item: Candidate,
    running: set[str],
    hands: set[str],
    replacing: dict[str, set[tuple[object, ...]]],
    audit_root: Path,
    carry_root: Path,
    out: Split,
) -> None:
    """Put one file into tonight's log root, whole or split; its running rows into the
    carried rows, and a carried games row tonight's replaces (``_bodies``) into neither.
    Only its key column is read unless it has rows to carry or drop; a file that cannot be
    read here, or that the replay refuses, goes to the replay as it is (which says why it
    is refused): none of its rows is carried."""
    if item.refused:
        _whole(item, audit_root / item.path)
        return
    key = "game_id" if item.table in BY_GAME else "hand_id" if item.table in BY_HAND else ""
    dropping = item.table == "games" and not item.new and bool(replacing)
    columns = None if dropping else [key]  # a games row is compared whole (``_body``)
    wanted = key and (running or dropping)
    keys = read_rows(item.source, columns, rel=item.path) if wanted else None
    try:
        ids = pc.cast(keys.column(key), pa.string()) if keys is not None else None
    except (pa.ArrowException, KeyError):
        ids = None
    if keys is None or ids is None:
        _whole(item, audit_root / item.path)
        return
    rows = keys.num_rows
    if dropping:
        pairs = zip(ids.to_pylist(), _body(keys), strict=True)
        drop = pa.array([body in replacing.get(g or "", ()) for g, body in pairs], pa.bool_())
    else:
        drop = _member(ids, set(), rows)
    carry = pc.and_(_member(ids, running if key == "game_id" else hands, rows), pc.invert(drop))
    n_carry, n_drop = pc.sum(carry).as_py() or 0, pc.sum(drop).as_py() or 0
    table = read_rows(item.source, None, rel=item.path) if n_carry or n_drop else None
    if table is None:
        _whole(item, audit_root / item.path)
        return
    out.replaced_games_rows += n_drop
    audited = table.filter(pc.invert(pc.or_(carry, drop)))
    if audited.num_rows:
        _write(audited, audit_root / item.path)
    if n_carry:
        target = carried_path(item.path, item.sha256) if item.new else item.path
        _write(table.filter(carry), carry_root / target)
        out.carried_rows[item.table] = out.carried_rows.get(item.table, 0) + n_carry
    out.split_files.append((item.path, audited.num_rows, n_carry))


def _member(ids: pa.ChunkedArray, wanted: set[str], rows: int) -> pa.Array:
    if not wanted or not rows:
        return pa.array([False] * rows, pa.bool_())
    found = pc.is_in(ids, value_set=pa.array(sorted(wanted), pa.string()))
    return pc.fill_null(found, False).combine_chunks()


def _whole(item: Candidate, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if item.new:
        os.replace(item.source, target)
    else:
        shutil.copyfile(item.source, target)


def read_rows(
    path: Path, columns: list[str] | None = None, *, rel: str = ""
) -> pa.Table | None:
    """The file's rows (or some columns); None when it cannot be read here: it goes to the
    audit as it is, and the replay says why it is refused. ``rel``, the file's path in the
    log root, gives the columns its Hive partition folders name and it leaves out
    (``footer.folder_keys``), in the contract's types, after its own."""
    try:
        file = pq.ParquetFile(path)
        names = file.schema_arrow.names
        table_name = rel.split("/", 1)[0]
        given = {k: v for k, v in folder_keys(table_name, rel).items()
                 if k not in names} if rel else {}  # fmt: skip
        wanted = list(given) if columns is None else [c for c in columns if c in given]
        if columns is not None and not set(columns) <= set(names) | set(given):
            return None
        table = file.read(columns=None if columns is None else
                          [c for c in columns if c not in given])  # fmt: skip
        for name in wanted:
            dtype = load_contract()[table_name].column(name).arrow_type
            table = table.append_column(name, key_array(given[name], dtype, len(table)))
        return table
    except (pa.ArrowException, OSError, ValueError, LogFormatError):
        return None


def as_strings(column: pa.ChunkedArray) -> list[str | None]:
    try:
        values: list[str | None] = pc.cast(column, pa.string()).to_pylist()
    except pa.ArrowException:
        return [None] * len(column)
    return values


def _write(table: pa.Table, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)


def _write_empty(table: str, path: Path) -> None:
    spec = load_contract()[table]
    schema = pa.schema(
        [pa.field(c.name, c.arrow_type, nullable=c.nullable) for c in spec.columns],
        metadata={SCHEMA_VERSION_KEY: str(SCHEMA_VERSION)},
    )
    _write(schema.empty_table(), path)


def read_running(path: Path) -> dict[str, int]:
    return {row["game_id"]: row["since_night"] for row in pq.read_table(path).to_pylist()}


def _write_running(path: Path, running: dict[str, int]) -> None:
    rows = [{"game_id": g, "since_night": n} for g, n in sorted(running.items())]
    _write(pa.Table.from_pylist(rows, schema=RUNNING_SCHEMA), path)
