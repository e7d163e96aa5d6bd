"""``table.limit`` across the nightly cut: the seats a night keeps for the next nights.

A player's seats on the two sides of a cut are judged together: each night hands
``table_limit_findings`` the seats the earlier nights kept (``tonight_seats``), which
judges those that touch one of tonight's beside them and reports an episode once, the night
it is first over the limit. After the replay, ``keep_seats`` writes what the next night
needs into ``carry/seats.parquet``: the seats (one row per player, client and game, from
the first join to the last leave of the rows audited so far) that a seat audited later can
still touch, so that the file holds about one ``MARGIN`` of seats, whatever the number of
nights (docs/nightly.md, "Table limits across the cut"):

- every seat that ends within ``MARGIN`` of the night's cut (the last ``left_at`` of its
  sessions rows, audited or carried) or later: a seat audited on a later night is taken
  to have joined at most ``MARGIN`` before the cut;
- every seat that touches a carried seat (a sessions row of a game still running, judged
  the night it ends), however long before the cut it joined.
"""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from audit import duck
from audit.duck import file_literal, literal
from audit.games.tables import MEMORY_LIMIT, earlier_view, seats_sql, sessions_view, view

SEATS = "seats.parquet"
"""``carry/seats.parquet``: the seats kept for the next night's ``table.limit``."""
MARGIN = timedelta(hours=6)
"""How long before a night's cut a seat audited on a later night may have joined (a seat
still open at the cut, its row written when it closes; a game that had not started): the
seats that end this long before the cut or later are kept. Longer than any game keeps a
player at its table, short enough that a night keeps a quarter of a day's seats at most."""


def tonight_seats(kept: Path | None, again: list[str], into: Path) -> Path | None:
    """The seats the last night kept (``kept``; None before the first night that kept
    any), for tonight's ``table.limit``, without those of the games audited again tonight:
    their rows are tonight's, and their episodes are judged again with them, as their
    other verdicts are. Written to ``into`` when some are left out."""
    if kept is None or not again:
        return kept
    with duck.connect() as con:
        con.execute(
            f"COPY (SELECT * FROM read_parquet({file_literal(str(kept))})"
            " WHERE game_id IS NULL OR NOT list_contains($games, game_id))"
            f" TO {literal(str(into))} (FORMAT parquet)",
            {"games": sorted(again)},
        )
    return into


def keep_seats(
    *,
    earlier: Path | None,
    sessions: list[Path],
    games: list[Path],
    carried: list[Path],
    root: Path,
    into: Path,
) -> int:
    """Write the seats the next night needs to ``into`` (module docstring), from the seats
    earlier nights kept (``earlier``, as ``tonight_seats`` gave them), tonight's audited
    sessions and games files and the carried sessions files (all under ``root``); return
    how many. Tonight's seats of tournament games say so (``tournament``), for the web's
    limit of cash or practice tables.

    When DuckDB cannot read tonight's files (``table.limit`` was skipped tonight), the
    earlier seats are kept as they are. Running out of memory is raised."""
    with tempfile.TemporaryDirectory(prefix="rummy-audit-seats-") as spill:
        con = duck.connect(config={"memory_limit": MEMORY_LIMIT, "temp_directory": spill})
        try:
            earlier_view(con, earlier)
            _sessions(con, "tonight_sessions", sessions, root)
            _sessions(con, "carried_sessions", carried, root)
            if games:
                view(con, "tonight_games", games, root, "game_id, chip_type")
            else:
                con.sql("CREATE VIEW tonight_games AS SELECT NULL::VARCHAR AS game_id,"
                        " NULL::VARCHAR AS chip_type WHERE false")  # fmt: skip
            try:
                con.execute(_keep_sql(into))
            except duckdb.OutOfMemoryException:
                raise
            except duckdb.Error:
                con.execute(
                    f"COPY (SELECT * FROM earlier_seats) TO {literal(str(into))} (FORMAT parquet)"
                )
        finally:
            con.close()
    return int(pq.ParquetFile(into).metadata.num_rows)


def _sessions(con: duckdb.DuckDBPyConnection, name: str, files: list[Path], root: Path) -> None:
    """The view ``name`` of the good rows of ``files``, as tonight's table.limit reads them
    (a quarantined row is no seat, tonight nor on a later night)."""
    if files:
        sessions_view(con, name, files, root)
    else:
        con.sql(f"CREATE VIEW {name} AS SELECT player_id, client, game_id, joined_at, left_at"
                " FROM earlier_seats WHERE false")  # fmt: skip


def _keep_sql(into: Path) -> str:
    """``keep_seats``' query. Tonight's rows are grouped into seats only for the seats that
    may be kept: those with a row that ends no sooner than a kept seat can end (``since``:
    ``MARGIN`` before the cut, or the first join of a carried seat), and those of an
    earlier seat (whose rows of both nights are one seat)."""
    margin = int(MARGIN.total_seconds())
    rows = ("(SELECT * FROM tonight_sessions SEMI JOIN keys"
            " USING (player_id, client, game_id))")  # fmt: skip
    return f"""
        COPY (
            WITH carried AS ({seats_sql("carried_sessions")}),
            cut AS (
                SELECT max(left_at) - INTERVAL {margin} SECONDS AS horizon FROM (
                    SELECT left_at FROM tonight_sessions
                    UNION ALL SELECT left_at FROM carried_sessions
                )
            ),
            since AS (
                SELECT least(horizon, (SELECT min(joined_at) FROM carried)) AS since FROM cut
            ),
            keys AS (
                SELECT DISTINCT player_id, client, game_id FROM tonight_sessions
                WHERE left_at >= (SELECT since FROM since)
                UNION SELECT player_id, client, game_id FROM earlier_seats
            ),
            tournaments AS (
                SELECT DISTINCT game_id FROM tonight_games WHERE chip_type = 'tournament'
            ),
            pool AS (
                SELECT player_id, client, game_id, min(joined_at) AS joined_at,
                       max(left_at) AS left_at, bool_or(tournament) AS tournament
                FROM (
                    SELECT s.*, t.game_id IS NOT NULL AS tournament
                    FROM ({seats_sql(rows)}) AS s LEFT JOIN tournaments AS t USING (game_id)
                    UNION ALL SELECT * FROM earlier_seats
                )
                GROUP BY player_id, client, game_id
            )
            SELECT * FROM pool AS p
            WHERE (SELECT horizon FROM cut) IS NULL
               OR p.left_at >= (SELECT horizon FROM cut)
               OR EXISTS (
                   SELECT 1 FROM carried AS c
                   WHERE c.player_id = p.player_id AND c.client = p.client
                     AND p.joined_at <= c.left_at AND p.left_at >= c.joined_at
               )
            ORDER BY player_id, client, joined_at, game_id
        ) TO {literal(str(into))} (FORMAT parquet)
    """
