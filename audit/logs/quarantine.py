"""What the staging of `audit.logs.reader` quarantines: rows that fail their checks,
duplicated keys, and rows naming a hand or a game the log does not hold (orphans), read
from the staged files (and the views `chk_<table>` and `hand_map` of the staging's
connection), in a stable order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit import duck
from audit.duck import file_literal
from audit.errors import one_line
from audit.findings import Finding, contract, finding, may_be_in
from audit.logs.bucket import Staged
from audit.logs.contract import HAND_TABLES, TABLES
from audit.logs.validate import describe
from audit.records import QuarantineRow, and_more


def _ids(table: str) -> str:
    """SQL for the hand id and the game id of a row of `table`, NULL when it has none."""
    hand = "hand_id" if table in HAND_TABLES else "NULL"
    game = "nullif(_game, '')" if table in ("events", "results") else "game_id"
    return f"{hand} AS h, {game} AS g"


def _who(table: str) -> str:
    """SQL for the seq and the player of a row of `table`, NULL when it has none or they
    do not read (a finding about one event names it: schemas/output.md, ``seq``)."""
    seq = "seq" if table in ("events", "game_events") else "NULL"
    player = "player_id" if table not in ("games", "hands") else "NULL"
    return f"CAST({seq} AS BIGINT) AS s, CAST({player} AS VARCHAR) AS pl"


def collect_quarantine(
    con: duckdb.DuckDBPyConnection, staged: Staged, memory_limit: str
) -> None:
    """Bad rows, duplicated keys and orphans, in a stable order, into
    `staged.quarantine`, with the reasons they give hands and games; DuckDB's cache given
    back after each query (`memory_limit`: the connection's)."""

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
        duck.give_back(con, memory_limit)
        return found

    out = staged.quarantine
    for table in TABLES:
        join = " LEFT JOIN hand_map ON hand_id = _hid" if table in ("events", "results") else ""
        query = (f"SELECT _k, {_ids(table)}, _p, {_who(table)} FROM {{src}}{join}"
                 " WHERE NOT _ok ORDER BY _k")  # fmt: skip
        for key, hand, game, problems, seq, player in rows(table, query):
            file, row = staged.where(key)
            reason = f"{table} row {row} of {one_line(file)}: {describe(table, problems)}"
            out.append(QuarantineRow(table, file, row, hand, game, "input.row", reason,
                                     seq, player))  # fmt: skip
            if table == "hands" and game is None:  # may be a hand a game lacks (Game.gameless)
                staged.gameless.append(f"hands row {row} of {one_line(file)}")
            if hand is not None and table in HAND_TABLES:
                staged.hand_reasons.setdefault(hand, reason)
            elif table == "results" and hand is None:  # its hand_id is null
                staged.nameless.setdefault(player, f"results row {row} of {one_line(file)}")
            elif table == "events" and hand is None:  # its hand_id is null
                staged.unnamed.setdefault(player, f"events row {row} of {one_line(file)}")
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
    # A row per table whose rows are left out, each with the one reason of the hand that
    # names both, so the hand is one input.hand finding (``input_findings``), not one per
    # table (a blind tester: a hands file unreadable was 668 findings for 334 hands).
    named: dict[str, list[tuple[str, int, int]]] = {}
    for table in ("events", "results"):
        for hand, n, key in rows(table, orphans, bucket=-1):  # `_h` NULL: no bucket
            named.setdefault(hand, []).append((table, n, key))
    # With a hands file refused tonight, each such hand's row may be in it: its input.file
    # says so of them all (a blind tester: one corrupt hands file was 77 input.hand).
    held_in = staged.orphans_refused()
    for hand, found in sorted(named.items()):
        tables = " and ".join(f"{table} ({_rows(n)})" for table, n, _ in found)
        reason = (f"rows of {tables} name hand {one_line(hand)}, which hands does not "
                  "hold")  # fmt: skip
        out += [QuarantineRow(table, staged.where(key)[0], None, hand, None, "input.hand", reason,
                              refused=held_in)
                for table, _, key in found]  # fmt: skip
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
    # Likewise a game's game_events and ledger rows are one reason, one finding (a blind
    # tester: a game without its games row was a finding for each table and each hand).
    stray: dict[str, list[tuple[str, int, int, bool]]] = {}
    for table in ("game_events", "ledger"):
        for game, n, key, known in rows(table, strays):
            stray.setdefault(game, []).append((table, n, key, known))
    lost = may_be_in(staged.damaged.get("games", ()))  # a refused games file
    for game, named_by in sorted(stray.items()):
        known = named_by[0][3]
        tables = " and ".join(f"{table} ({_rows(n)})" for table, n, _, _ in named_by)
        held = "whose games row is quarantined" if known else "which games does not hold"
        reason = f"rows of {tables} name game {one_line(game)}, {held}"
        refused: tuple[str, ...] = ()
        if lost and not known:
            reason += lost
            refused = tuple(f for f in staged.damaged["games"] if f in staged.unread)
            refused = refused if len(refused) == len(staged.damaged["games"]) else ()
        out += [QuarantineRow(table, staged.where(key)[0], None, None, game, "input.row", reason,
                              refused=refused)
                for table, _, key, _ in named_by]  # fmt: skip


def find_orphans(
    con: duckdb.DuckDBPyConnection, staged: Staged
) -> dict[str, tuple[str | None, str]]:
    """Every hand that events or results name and hands does not hold, with the game its
    players' sessions place it in (each player seated in that one game when its first
    event was played) and why it cannot be replayed: the unreadable hands files, when
    there are any, are the likely cause, and the reason names them. The staged rows say
    first whether there is any (most nights have none: the sessions are not read), from the
    files of the rows of no bucket alone, and which: their hand ids (not the night's rows
    against the whole hand map)."""
    staged_paths = staged.paths("events", -1) + staged.paths("results", -1)
    listed = ", ".join(file_literal(str(path)) for path in staged_paths)
    if not staged_paths or not con.sql(
        f"SELECT 1 FROM read_parquet([{listed}], union_by_name=true, hive_partitioning=false)"
        " WHERE _h IS NULL AND hand_id IS NOT NULL LIMIT 1"
    ).fetchall():
        return {}
    lost = list(staged.damaged.get("hands", ()))
    if lost:
        files = and_more(lost)
        # "may": the file could not be read, so whether it held the row is not known (a
        # blind tester's 11 junk bytes were said to have held it)
        why = f"its hands row is not among the hands read: it may be in {files}, which could "
        why += "not be read"
    else:
        why = "events or results name it, but hands does not hold it"
    rows = con.sql(
        f"""
        WITH o AS (
          SELECT DISTINCT hand_id FROM read_parquet([{listed}], union_by_name=true,
            hive_partitioning=false) WHERE _h IS NULL AND hand_id IS NOT NULL
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


def refused_hands(
    staged: Staged, root: Path, sources: Mapping[str, Path | None] | None = None
) -> None:
    """Hands with rows in an events or results file that was refused (``staged.damaged``)
    but whose ``hand_id`` column still reads (a file refused for another column's type or
    a corrupt page elsewhere), into ``staged.refused``: ``Bucket`` quarantines each naming
    the file, as its replay would lack those rows. Where the column cannot be read either
    (``staged.handless``), the hands are found by what they lack (no events, no results row
    for a seated player); without this a hand whose last events were in the file and that
    still looked whole was judged on the rows left (a blind tester's refused file holding a
    last show).
    ``sources``: where the files an earlier nightly night refused are (not under ``root``;
    None: gone, their hands found by what they lack)."""
    sources = sources or {}
    for table in ("events", "results"):
        for rel in staged.damaged.get(table, ()):
            path = sources[rel] if rel in sources else root / rel
            hands = _hand_ids(path) if path is not None else None
            if hands is None:
                staged.handless.setdefault(table, []).append(rel)
            for hand in sorted(hands or ()):
                staged.refused_in.setdefault(hand, set()).add(rel)
                staged.refused.setdefault(hand, {}).setdefault(
                    table,
                    f"hand {one_line(hand)} has {table} rows in {one_line(rel)}, which could "
                    "not be read, so it cannot be replayed whole",
                )


def _hand_ids(path: Path) -> set[str] | None:
    """The hand ids of a refused file's ``hand_id`` column; None when it cannot be read
    (nor from what is not a regular file: opening a pipe named ``*.parquet`` waits for a
    writer for ever, and a blind tester's run hung there)."""
    if not path.is_file():
        return None
    try:
        column = pq.ParquetFile(path).read(columns=["hand_id"]).column("hand_id")
        values = pc.unique(pc.cast(column, pa.string()).combine_chunks()).to_pylist()
    except (pa.ArrowException, OSError, ValueError, KeyError):
        return None
    return {v for v in values if v is not None}


class Took(NamedTuple):
    """A hand or game a file refused tonight took out alone (``QuarantineRow.refused``):
    a row of the replay's ``took`` parts, which the file's ``input.file`` finding counts."""

    file: str
    game_id: str | None
    hand_id: str | None


def took(rows: Iterable[QuarantineRow]) -> list[Took]:
    """What each refused file took out, of the quarantine ``rows``."""
    return [Took(file, row.game_id, row.hand_id) for row in rows for file in row.refused]


def took_words(taken: Iterable[tuple[str, str | None, str | None]]) -> dict[str, str]:
    """File -> what it took out, said after its ``input.file`` finding's message (the hands
    by game and id, the first three named; ``taken``: ``Took`` rows).

    >>> said = took_words([("r.parquet", "G1", "G1-H2"), ("r.parquet", "G1", "G1-H1"),
    ...                    ("r.parquet", "G2", "G2-H1"), ("g.parquet", "G3", None)])
    >>> print(said["r.parquet"].replace(" (", "\\n("))
    ; without it 3 hands of 2 games could not be audited
    (quarantined, their games' checks not run): G1-H1, G1-H2, G2-H1
    >>> print(took_words([("g.parquet", "G3", None)])["g.parquet"])
    ; without it the rows of 1 game could not be audited (quarantined, its checks not run): G3
    """
    hands: dict[str, set[tuple[str, str]]] = {}
    games: dict[str, set[str]] = {}
    nameless: dict[str, set[str]] = {}  # hands named in other tables, of no known game
    for file, game, hand in taken:
        if game is None and hand is not None:
            nameless.setdefault(file, set()).add(hand)
            continue
        games.setdefault(file, set()).add(game or "")
        if hand is not None:
            hands.setdefault(file, set()).add((game or "", hand))
    out = {
        file: (f"; {_count(len(ids), 'hand')} named in other tables "
               f"{'has' if len(ids) == 1 else 'have'} no hands row to read, which it may hold "
               f"(quarantined, their games' checks not run): {and_more(sorted(ids))}")
        for file, ids in nameless.items()
    }
    for file, named in games.items():
        held = sorted(hands.get(file, ()))
        if held:
            ids = [hand for _, hand in held]
            n = len({game for game, _ in held})
            out[file] = (f"; without it {_count(len(ids), 'hand')} of {_count(n, 'game')} could "
                         "not be audited (quarantined, their games' checks not run): "
                         f"{and_more(ids)}")  # fmt: skip
        else:
            ids = sorted(named)
            its = "its" if len(ids) == 1 else "their"
            out[file] = (f"; without it the rows of {_count(len(ids), 'game')} could not be "
                         f"audited (quarantined, {its} checks not run): {and_more(ids)}")
    return out


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def input_findings(
    rows: Iterable[QuarantineRow], took: Mapping[str, str] | None = None
) -> list[Finding]:
    """The ``input.*`` finding of each quarantine row; rows left out for one reason (a
    hand's events and results rows naming a hand the hands table does not hold, a game's
    game_events and ledger rows naming a game it does not hold, both copies of a games row
    written twice) are one finding, on the first of them, and so are the hands of one game
    left out for their game's sake alone (``QuarantineRow.together``: blind testers, two
    findings for each such hand, and one for each hand of a game without its games row).
    Rows a file refused tonight took out alone (``QuarantineRow.refused``) are none: the
    file's ``input.file`` finding says what it took (``took``: file -> ``took_words``).

    >>> def hand(n, why="names game G, which games does not hold"):
    ...     return QuarantineRow("hands", None, None, f"G-{n}", "G", "input.hand",
    ...                          f"hand G-{n} {why}", together="name game G, which games "
    ...                          "does not hold")
    >>> [(f.hand_id, f.message) for f in input_findings([hand(1)])]
    [('G-1', 'hand G-1 names game G, which games does not hold')]
    >>> [(f.hand_id, f.message) for f in input_findings([hand(n) for n in range(1, 6)])]
    [(None, 'The 5 hands G-1, G-2, G-3 and 2 more name game G, which games does not hold')]
    """
    said: set[tuple[str, str | None, str | None, str]] = set()
    unique: list[QuarantineRow] = []
    games: dict[tuple[str, str | None, str], list[QuarantineRow]] = {}
    for row in rows:
        if row.refused:
            continue
        if row.together is not None:
            grouped = games.setdefault((row.check, row.game_id, row.together), [])
            if not grouped:
                unique.append(row)
            grouped.append(row)
            continue
        key = (row.check, row.game_id, row.hand_id, row.reason)
        if key not in said:
            said.add(key)
            unique.append(row)
    out = []
    for row in unique:
        hand, message = row.hand_id, row.reason
        if row.check == "input.file" and took and one_line(row.file or "") in took:
            message += took[one_line(row.file or "")]
        if row.together is not None:
            group = games[(row.check, row.game_id, row.together)]
            hands = list(dict.fromkeys(item.hand_id for item in group if item.hand_id))
            if len(hands) > 1:
                hand = None
                message = f"The {len(hands)} hands {and_more(hands)} {row.together}"
        out.append(
            finding(
                row.check,
                game_id=row.game_id or "",
                hand_id=hand,
                player_id=row.player_id,
                seq=row.seq,
                message=message,
                rule=contract("log.contract"),
                recorded=row.file or row.table,  # a file is named from the log root
            )
        )
    return out
