"""A rewritten file's games, and the games an earlier night judged that new rows name,
audited again whole.

A file at a path an earlier night took, with other content, is audited again tonight. Its
rows alone would be hands without their events or results, events without their hands:
quarantined, not judged. So every game its rows name (``game_id``; ``hand_id`` through the
log root's hands) is audited again whole: its rows in the other files of the log root that
earlier nights took are added to tonight's log root, each file's under its path in the log
root (no file of tonight's has it: its content is an earlier night's), so that the replay
orders them and names them as one replay of every night's files does; a quarantine row
about one of them names its row in that file (``Again.rows``). A game still carried
(running) is left out: its rows are in the carried rows already. Of a game's ``games``
rows, only one comes back, from the latest night that took one, and none when a file
rewritten tonight holds one of that night or a later one: a rewritten file's rows are its
own night's (the night that first took its path), not tonight's, so night 1's games file
written again does not bring back as running a game night 2's row ended (that row comes
back beside it, and the replay reads the ended one, as one replay of every night's files
does), and night 2's rewritten replaces it. An earlier file the replay refuses gives no
rows (it never did): it is named where the game's rows are missing (``Again.refused``).

Rows of a game an earlier night judged (its ``hands.parquet``) that tonight's new files
hold again bring it back too: audited whole, its copies are duplicates and its late rows
judged with it, as one replay of all the nights' files judges them. Sessions rows do not
(a player's session may end after the game, on the next night).

An earlier file is found by its content wherever it is now (moved to another folder, it
still gives its rows). One that is gone from the log root (no file of its content under
any path, and its path not rewritten) may have held rows of a game audited again: when the
night that took it audited or carried that game, the game cannot be audited whole, and
the night stops on one line naming the file (``GoneFile``), rather than judge the game
without its rows. A refused file gone is not: it never gave a row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.errors import AuditError
from audit.logs.footer import hash_file, refusal
from audit.nightly.carry import BY_GAME, BY_HAND, Unread, as_strings, read_rows
from audit.nightly.inputs import Intake, SeenFile, TakenFile
from audit.output import write_quarantine
from audit.records import QuarantineRow


@dataclass
class Again:
    """The games audited again tonight and their rows in the files earlier nights took."""

    files: list[TakenFile] = field(default_factory=list)
    """Each earlier file's rows of the games, as a file to place in tonight's log root at
    the path the file has in LOGS (status ``reaudit``; its hash is the copy's)."""
    games: list[str] = field(default_factory=list)
    rows: dict[str, list[int]] = field(default_factory=dict)
    """Each of ``files``' paths -> the row in the earlier file of each of its rows."""
    refused: list[Unread] = field(default_factory=list)
    """The earlier files the replay refuses that the games' nights took (tonight's path)."""
    late: list[str] = field(default_factory=list)
    """Of ``games``, those no rewritten file names: audited again for rows of theirs that
    tonight's new files hold (sent again, or late), sorted."""


def reaudit_rows(
    logs: Path,
    intake: Intake,
    seen: list[SeenFile],
    running: set[str],
    into: Path,
    games_of_night: Callable[[int], set[str]],
    judged_before: Callable[[set[str], set[str]], set[str]],
) -> Again:
    """The rows, in the files earlier nights took, of the games to audit again, written
    under ``into`` (as files to place in tonight's log root), and those games, sorted: the
    games tonight's rewritten files name, and those an earlier night judged that rows of
    tonight's new files name (``judged_before(game ids, hand ids)``; rows of a file the
    replay refuses name none). Nothing when there are none. ``games_of_night(n)``: the
    games night n audited or carried (a file it took can hold rows of no other game).

    Raises `AuditError` when a file an earlier night took is gone from the log root and
    its night audited or carried a game audited again."""
    rewritten = [f for f in intake.taken if f.status == "rewritten"]
    new = [f for f in intake.taken
           if f.status == "new" and f.table != "sessions" and f.path not in intake.refused]
    late: set[str] = set()
    if seen:  # an earlier night judged games: do tonight's new rows name any of them?
        late = judged_before(*_keys(new)) - running
    if not rewritten and not late:
        return Again()
    current = {row.path: row.sha256 for row in seen}  # each path's last content
    replaced = {f.path for f in rewritten}
    old: list[tuple[str, SeenFile]] = []  # (its path tonight, the file), once per file
    found: set[tuple[str, str, str]] = set()  # the files taken that are in LOGS tonight
    for path in sorted(intake.seen_before):
        row = intake.known[path]  # the file it is (``SeenFile.key``), as its night took it
        if row.key in found:
            continue
        found.add(row.key)
        if current[row.path] == row.sha256 and row.path not in replaced:  # not rewritten since
            old.append((path, row))
    hand_games = _hand_games([f.copy for f in intake.taken if f.table == "hands"]
                             + [logs / p for p, s in old if s.table == "hands"])  # fmt: skip
    games = set(late)
    why: dict[str, str] = {}  # a game a rewritten file names -> that file
    for item in rewritten:
        key = "game_id" if item.table in BY_GAME else "hand_id" if item.table in BY_HAND else ""
        for value in _column(item.copy, key):
            game = value if key == "game_id" else hand_games.get(value)
            if game is not None:
                games.add(game)
                why.setdefault(game, item.path)
    games -= running
    if not games:
        return Again()

    def cause(game: str) -> str:
        """Why ``game`` is audited again, in words, and what to move out for it."""
        if game in why:
            return (f"for the rewritten file {why[game]}; put the file back (under any path) "
                    "or move the rewritten file out")  # fmt: skip
        path = next((f.path for f in new if game in judged_before(*_keys([f]))), "")
        where = f"the new file {path}" if path else "tonight's new files"
        return (f"for rows of it that come again in {where} (sent again or late); put the "
                "file back (under any path) or move the new file out")  # fmt: skip

    _no_gone_rows(seen, intake, found, games, games_of_night, cause)
    hands = {h for h, g in hand_games.items() if g in games}
    # A rewritten games file's rows are its own night's (the night that first took its
    # path), not tonight's: a later night's row of a game still comes back beside them (a
    # game that ended does not run again because its first night's file was written
    # again). A new file's row is a second copy: it replaces none.
    first = {row.path: row.night for row in reversed(seen)}  # seen is in night order
    rewritten_rows: dict[str, tuple[int, str]] = {}  # game -> its latest rewritten row's
    for item in rewritten:
        for game in _column(item.copy, "game_id") if item.table == "games" else []:
            mine = (first[item.path], item.path)
            rewritten_rows[game] = max(rewritten_rows.get(game, mine), mine)
    latest = _latest_games_rows(logs, old, games, rewritten_rows)
    out = Again(games=sorted(games), late=sorted(games - set(why)))
    for path, row in sorted(old):
        table = row.table
        if table not in BY_GAME and table not in BY_HAND:
            continue
        if refusal(table, logs / path, path):
            if games & games_of_night(row.night):
                out.refused.append(Unread(table, path, row.sha256, row.night))
            continue
        data = read_rows(logs / path, rel=path)
        if data is None or not data.num_rows:
            continue
        if table == "games":
            keep = [g is not None and latest.get(g) == path
                    for g in as_strings(data.column("game_id"))]
        elif table in BY_GAME:
            keep = [g in games for g in as_strings(data.column("game_id"))]
        else:
            keep = [h in hands for h in as_strings(data.column("hand_id"))]
        if not any(keep):
            continue
        target = into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(data.filter(pa.array(keep, pa.bool_())), target)
        out.rows[path] = [i for i, kept in enumerate(keep) if kept]
        out.files.append(TakenFile(table, path, hash_file(target), target.stat().st_size,
                                   "reaudit", target))  # fmt: skip
    return out


def _keys(files: list[TakenFile]) -> tuple[set[str], set[str]]:
    """The game ids and the hand ids (of events and results) rows of ``files`` name."""
    games: set[str] = set()
    hands: set[str] = set()
    for item in files:
        key = "game_id" if item.table in BY_GAME else "hand_id" if item.table in BY_HAND else ""
        data = read_rows(item.copy, [key], rel=item.path) if key else None
        if data is None:
            continue
        try:
            values = pc.unique(data.column(key).combine_chunks())
        except pa.ArrowException:
            continue
        (games if key == "game_id" else hands).update(
            v for v in as_strings(pa.chunked_array([values])) if v is not None
        )
    return games, hands


def _no_gone_rows(
    seen: list[SeenFile],
    intake: Intake,
    found: set[tuple[str, str, str]],
    games: set[str],
    games_of_night: Callable[[int], set[str]],
    cause: Callable[[str], str],
) -> None:
    """Stop when a file earlier nights took is gone (its content under no path tonight, its
    path not rewritten since) and the night that took it audited or carried one of
    ``games``: their rows in it would be missing from tonight's audit of them. The line
    says why the first of them is audited again (``cause``: a rewritten file, or new rows
    of it) and what to do."""
    latest = {row.path: row for row in seen}  # each path's last content (seen is in night order)
    rewritten = {f.path for f in intake.taken if f.status == "rewritten"}
    for path, row in sorted(latest.items()):  # a content rewritten since is replaced, not gone
        # A refused file gave no rows (docs/nightly.md): gone or moved, it takes none from
        # tonight's audit (a blind tester's platform replaced a corrupt file by a good copy
        # under a new name, and every night stopped until the corrupt one was put back).
        if row.key in found or path in rewritten or row.refused:
            continue
        if row.table not in BY_GAME and row.table not in BY_HAND:
            continue
        hit = sorted(games & games_of_night(row.night))
        if hit:
            raise AuditError(
                f"{path}, taken on night {row.night}, is gone from the log root, and game "
                f"{hit[0]}{f' (and {len(hit) - 1} more)' if len(hit) > 1 else ''} of that night "
                f"is to be audited again whole {cause(hit[0])}, and run the night again",
                slug="log-root",
            )


def _latest_games_rows(
    logs: Path,
    old: list[tuple[str, SeenFile]],
    games: set[str],
    rewritten: dict[str, tuple[int, str]],
) -> dict[str, str]:
    """Game -> the path of the earlier file whose games row of it comes back: the latest
    night's (then the last path), none when a file rewritten tonight holds a row of it of
    that night or a later one (``rewritten``: game -> the own night and path of the
    rewritten file holding its row; a rewritten file is its own night's, not tonight's).
    So a game begun on night 1 and ended on night 2 keeps night 2's ended row when night
    1's file is rewritten, and a rewrite of night 2's file replaces it."""
    best: dict[str, tuple[int, str]] = {}
    for path, row in old:
        if row.table != "games":
            continue
        for game in _column(logs / path, "game_id"):
            if game in games and (row.night, path) > best.get(game, (-1, "")):
                best[game] = (row.night, path)
    return {game: path for game, (night, path) in best.items()
            if (night, path) > rewritten.get(game, (-1, ""))}  # fmt: skip


def _hand_games(paths: list[Path]) -> dict[str, str]:
    """Hand -> its game, from the hands files (the first row naming a hand decides)."""
    out: dict[str, str] = {}
    for path in paths:
        data = read_rows(path, ["hand_id", "game_id"])
        if data is None:
            continue
        for hand, game in zip(as_strings(data.column("hand_id")),
                              as_strings(data.column("game_id")), strict=True):  # fmt: skip
            if hand is not None and game is not None:
                out.setdefault(hand, game)
    return out


def _column(path: Path, name: str) -> list[str]:
    data = read_rows(path, [name]) if name else None
    return [] if data is None else [v for v in as_strings(data.column(name)) if v is not None]


def renumber(path: Path, rows: dict[str, list[int]]) -> None:
    """Rewrite the quarantine rows (``quarantine.parquet`` at ``path``) that name a row of
    an earlier file's rows audited again (``Again.rows``: path -> the row in the earlier
    file of each row of its copy) to name that row in the earlier file, as one replay of
    every night's files names it. Nothing is written when none does."""
    if not rows or not path.is_file():
        return
    files = pq.read_table(path, columns=["file"]).column("file")
    if not pc.any(pc.is_in(files, value_set=pa.array(sorted(rows), pa.string()))).as_py():
        return
    data = [QuarantineRow(**r) for r in pq.read_table(path).to_pylist()]
    write_quarantine(path, [
        replace(r, row=rows[r.file][r.row])
        if r.file in rows and r.row is not None and r.row < len(rows[r.file]) else r
        for r in data
    ])  # fmt: skip
