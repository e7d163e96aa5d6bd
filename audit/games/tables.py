"""Table limits: how many games a player sits in at once, per client, in DuckDB.

The rule and the pattern are stated at the top of ``sql/table_limit.sql``; this module
loads the sessions and games Parquet files as views, runs that query and turns each
episode (from the first moment a player passed their client's limit to the first back
within it) into a ``table.limit`` finding on the game whose seat passed it, with the
episode's peak, the games counted then, and its end. The nightly audit gives it the seats
earlier nights judged (``earlier``): those that touch one of tonight's are judged with
them, and an episode they alone took over the limit is not reported again
(docs/nightly.md).
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

import duckdb

from audit import duck
from audit.duck import file_literal, literal, millis
from audit.errors import LogFormatError, first_line, first_line_under
from audit.findings import Finding, contract, finding
from audit.logs.validate import row_checks
from audit.records import and_more, give_back_memory, when
from audit.rules.ruleset import Ruleset, load_preset

PLATFORM_RULES = "standard-13"
"""Table limits are the platform's, not a game's: they are read from this preset."""
MEMORY_LIMIT = "64MB"
"""DuckDB's memory limit for the query; beyond it, it spills. Without one, a million hands'
sessions took the main process to 770 MiB, its peak of the night. What the query cannot
spill grows with the sessions it reads at once, so it reads at most about
``SESSIONS_PER_PASS`` at a time."""
SESSIONS_PER_PASS = 131_072
"""Sessions rows judged at once, about: a larger night's sessions are split by the hash of
the player id (a player's seats are judged together) into passes of about this many. A
million hands' sessions (1.04 million rows, 3,000 files): in one pass the query took 200
MiB above the process's base under 128MB, and ran out of memory on one thread; in 8 passes
under 64MB, 115 MiB, on one thread or two, in the same time (4.5 s against 4.6-4.9)."""

SPLIT_FOLDERS = 32
"""Folders the passes are written into, whatever their number (pass p in folder
``p % SPLIT_FOLDERS``, read back by its ``_pass`` column): DuckDB holds a buffer per
folder and thread while it writes them, so a folder per pass (80 at ten million hands,
10.4M sessions rows) ran out of memory under ``MEMORY_LIMIT``. Now that night is judged
in 21 s, 125 MiB above the process's base (a million hands: 2.4 s, about 100), with the
tournament games written once rather than read again by every pass (58 s before)."""
PEAK_GAMES_NAMED = 6
"""The games a ``table.limit`` message names at the peak; more are counted ("and N more")."""
SPLIT_ROWS = 8_192
"""Rows a folder's writer holds before it flushes them as a row group."""
SEAT_COLUMNS = (
    f"player_id, client, game_id, {millis('joined_at')} AS joined_at,"
    f" {millis('left_at')} AS left_at"
)
"""The sessions columns the limits read (timestamps of any unit, truncated to the
millisecond as the contract reads them: ``duck.millis``)."""


def seats_sql(rows: str) -> str:
    """Each seat of ``rows`` (a query or view of sessions rows): a player in a game on one
    client, from their first join to their last leave of it (sql/table_limit.sql)."""
    return (
        "SELECT player_id, client, game_id, min(joined_at) AS joined_at,"
        f" max(left_at) AS left_at FROM {rows} GROUP BY player_id, client, game_id"
    )


def table_limit_sql() -> str:
    return resources.files("audit.games").joinpath("sql/table_limit.sql").read_text("utf-8")


def table_limit_findings(
    session_files: list[Path],
    games_files: list[Path] | None = None,
    root_for_names: Path | None = None,
    rules: Ruleset | None = None,
    *,
    by_name: bool = True,
    earlier: Path | None = None,
) -> list[Finding]:
    """One ``table.limit`` finding per player, client and episode over the limit.

    The limits are ``rules``' (``tables.*``; by default the ``standard-13`` preset's).
    ``games_files`` give each game's chip_type (without them every game counts as a cash
    or practice table); ``root_for_names``, when given, is the log root the files are
    named relative to in an error. ``by_name=False`` says each table's files have one
    layout (``LogRoot.uniform``): their columns need not be matched by name, which spares
    DuckDB every file's schema at once (about 170 MiB for 6,000 files).

    ``earlier``: a Parquet file of seats judged on earlier nights (one row per seat:
    ``player_id``, ``client``, ``game_id``, ``joined_at``, ``left_at``, and
    ``tournament``, whether its game is one; the nightly audit's ``carry/seats.parquet``).
    Those that touch one of tonight's seats (``_touched``) are judged beside them, and an
    episode they alone take over the limit at some moment is not reported: it was, the
    night it was first over the limit.

    When DuckDB fails on the files (staging decodes every column they are read for and
    refuses a file it cannot, ``reader.decode_unstaged``, so only a file damaged since is
    left), table.limit is skipped: one ``check.skipped`` finding with DuckDB's reason on
    one line, and the rest of the night goes on. Running out of memory is not the files'
    doing: it is raised.
    """
    if not session_files:
        return []
    rules = rules or load_preset(PLATFORM_RULES)
    with tempfile.TemporaryDirectory(prefix="rummy-audit-limits-") as spill:
        con = duck.connect(config={"memory_limit": MEMORY_LIMIT, "temp_directory": spill})
        try:
            return _limits(con, session_files, games_files, root_for_names, rules, by_name,
                           Path(spill), earlier)  # fmt: skip
        except duckdb.OutOfMemoryException:
            raise  # no file is to blame: the run stops on it, one line (audit.run)
        except duckdb.Error as error:
            why = first_line_under(error, root_for_names) if root_for_names else first_line(error)
            return [
                finding(
                    "check.skipped",
                    game_id="",
                    message=f"The sessions and games files could not be read, so table.limit"
                    f" could not be checked: {why}",
                    rule=contract("tables.files"),
                )
            ]
        finally:
            con.close()
            give_back_memory()


def _limits(
    con: duckdb.DuckDBPyConnection,
    session_files: list[Path],
    games_files: list[Path] | None,
    root_for_names: Path | None,
    rules: Ruleset,
    by_name: bool,
    spill: Path,
    earlier: Path | None = None,
) -> list[Finding]:
    sessions_view(con, "tonight_sessions", session_files, root_for_names, by_name)
    tonight = "SELECT *, false AS earlier FROM tonight_sessions"
    known = []  # the queries of the tournament games
    if earlier is not None:
        touched = literal(str(_touched(con, earlier, spill)))
        tonight += (" UNION ALL SELECT player_id, client, game_id, joined_at, left_at, true"
                    f" FROM read_parquet({touched})")  # fmt: skip
        known.append(f"SELECT game_id FROM read_parquet({touched}) WHERE tournament")
    con.sql(f"CREATE VIEW night_sessions AS {tonight}")
    if games_files:
        view(con, "night_games", games_files, root_for_names, "game_id, chip_type", by_name)
        known.append("SELECT game_id FROM night_games WHERE chip_type = 'tournament'")
    if known:  # the tournaments written once: every pass reads them
        tournaments = literal(str(spill / "tournaments.parquet"))
        con.execute(
            "COPY (SELECT DISTINCT game_id, 'tournament' AS chip_type FROM"
            f" ({' UNION ALL '.join(known)})) TO {tournaments} (FORMAT parquet)"
        )
        con.sql(f"CREATE VIEW games AS SELECT * FROM read_parquet({tournaments})")
    else:
        con.sql(
            "CREATE VIEW games AS SELECT NULL::VARCHAR AS game_id, "
            "NULL::VARCHAR AS chip_type WHERE false"
        )
    limits = {
        "app_max": rules.table_app_max,
        "web_max": rules.table_web_max,
        "web_cash_max": rules.table_web_cash_max,
    }
    [(rows,)] = con.execute("SELECT count(*) FROM night_sessions").fetchall()
    passes = duck.passes(rows, SESSIONS_PER_PASS)
    split = spill / "sessions"
    if passes == 1:
        con.sql("CREATE VIEW sessions AS SELECT * FROM night_sessions")
    else:
        duck.copy_parts(
            con, f"SELECT *, hash(player_id) % {passes} AS _pass,"
            f" _pass % {SPLIT_FOLDERS} AS _folder FROM night_sessions",
            split, "_folder", SPLIT_ROWS,
        )  # fmt: skip
        duck.give_back(con, MEMORY_LIMIT)
    episodes = []
    for part in range(passes):
        if passes > 1:
            folder = spill / "sessions" / f"_folder={part % SPLIT_FOLDERS}" / "*.parquet"
            if not folder.parent.is_dir():  # no player's hash fell in it
                continue
            con.execute(
                "CREATE OR REPLACE VIEW sessions AS SELECT * EXCLUDE (_pass) FROM"
                f" read_parquet({literal(str(folder))}, hive_partitioning = false)"
                f" WHERE _pass = {part}"
            )
        episodes += con.execute(table_limit_sql(), limits).fetchall()
        duck.give_back(con, MEMORY_LIMIT)
    # The query's order (player, time, client) over the passes; NULL last, as DuckDB's.
    episodes.sort(key=lambda e: (e[0] is None, e[0] or "", e[2], e[1] is None, e[1] or ""))
    return [_finding(*row, rules=rules) for row in episodes]


def _touched(con: duckdb.DuckDBPyConnection, earlier: Path, spill: Path) -> Path:
    """The seats of ``earlier`` that touch one of tonight's (the same player and client,
    their spans overlapping or meeting; tonight's seat spanning its earlier rows too),
    written to a file of ``spill``. The others cannot change the count at any moment of
    tonight's seats, nor at the moments just before and after them, which is all the query
    needs to find tonight's episodes and tell those reported already (sql/table_limit.sql):
    an episode that reaches beyond tonight's seats is over the limit there by the earlier
    seats alone. Only tonight's seats that join by the last earlier leave, or that are an
    earlier seat's, can touch one: the others are not grouped."""
    earlier_view(con, earlier)
    near = (
        "SELECT DISTINCT player_id, client, game_id FROM tonight_sessions"
        " WHERE joined_at <= (SELECT max(left_at) FROM earlier_seats)"
        " UNION SELECT player_id, client, game_id FROM earlier_seats"
    )
    rows = f"(SELECT * FROM tonight_sessions SEMI JOIN ({near}) USING (player_id, client, game_id))"
    out = spill / "earlier.parquet"
    con.execute(f"""
        COPY (
            WITH spans AS (
                SELECT t.player_id, t.client, least(t.joined_at, e.joined_at) AS joined_at,
                       greatest(t.left_at, e.left_at) AS left_at
                FROM ({seats_sql(rows)}) AS t
                LEFT JOIN earlier_seats AS e USING (player_id, client, game_id)
            )
            SELECT * FROM earlier_seats AS e
            WHERE EXISTS (
                SELECT 1 FROM spans AS s
                WHERE s.player_id = e.player_id AND s.client = e.client
                  AND e.joined_at <= s.left_at AND e.left_at >= s.joined_at
            )
        ) TO {literal(str(out))} (FORMAT parquet)
    """)  # fmt: skip
    return out


def earlier_view(con: duckdb.DuckDBPyConnection, earlier: Path | None) -> None:
    """The view ``earlier_seats`` of the seats file ``earlier`` (``table_limit_findings``);
    no seat when it is None."""
    source = (
        f"read_parquet({file_literal(str(earlier))})" if earlier is not None else
        "(SELECT NULL::VARCHAR AS player_id, NULL::VARCHAR AS client, NULL::VARCHAR AS game_id,"
        " NULL AS joined_at, NULL AS left_at, NULL::BOOLEAN AS tournament WHERE false)"
    )  # fmt: skip
    con.sql(
        "CREATE VIEW earlier_seats AS SELECT player_id, client, game_id,"
        " CAST(joined_at AS TIMESTAMPTZ) AS joined_at, CAST(left_at AS TIMESTAMPTZ) AS left_at,"
        f" tournament FROM {source}"
    )


def sessions_view(
    con: duckdb.DuckDBPyConnection,
    name: str,
    files: list[Path],
    root: Path | None,
    by_name: bool = True,
) -> None:
    """The view ``name`` of the ``SEAT_COLUMNS`` of the sessions rows of ``files`` that the
    staging does not quarantine (``validate.row_checks``), as ``view``: the limits count
    only those, as the fair-play detectors do (``fairplay.source``). What rests on a
    quarantined row is not judged without it (schemas/README.md); until 2026-12-06 a row
    quarantined for a null ``left_at`` or ``device_id`` still counted as a table, and
    raised ``table.limit`` beside its quarantine row (a blind tester)."""
    view(con, name, files, root, SEAT_COLUMNS, by_name, where=row_checks("sessions").ok)


def view(
    con: duckdb.DuckDBPyConnection,
    name: str,
    files: list[Path],
    root: Path | None,
    columns: str = "*",
    by_name: bool = True,
    where: str = "true",
) -> None:
    """The view ``name`` of ``columns`` over the rows of ``files`` that meet ``where`` (by
    their columns' names unless ``by_name`` is false); a file whose schema DuckDB cannot
    read is a ``LogFormatError`` naming the files (relative to ``root``)."""
    listed = ", ".join(file_literal(str(p)) for p in files)
    try:
        con.sql(
            f"CREATE VIEW {name} AS SELECT {columns} "
            f"FROM read_parquet([{listed}], union_by_name = {str(by_name).lower()})"
            f" WHERE {where}"
        )
    except duckdb.Error as error:
        names = ", ".join(_name(p, root) for p in files)
        first = (str(error).splitlines() or [type(error).__name__])[0]
        raise LogFormatError(f"the {name} files ({names}) cannot be read: {first}") from error


def _name(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            pass
    return path.name


def _finding(
    player: str,
    client: str,
    at_ms: int,
    tables: int,
    cash_tables: int,
    game_id: str,
    peak: int,
    peak_ms: int,
    games: list[str],
    ended_ms: int,
    *,
    rules: Ruleset,
) -> Finding:
    """The episode's finding: its first count and moment, its peak (``recorded``) with the
    games counted then, and its end. Until 2026-12-07 it gave the first count only, which
    was the peak or not as the tables happened to join a second apart or at once, and
    neither the games nor how long it lasted (a blind tester)."""
    at = _at(at_ms)
    where = "the app" if client == "app" else "the web"
    if client == "app":
        limit, count, what, key = rules.table_app_max, tables, "tables", "tables.app_max"
    elif tables > rules.table_web_max:
        limit, count, what, key = rules.table_web_max, tables, "tables", "tables.web_max"
    else:
        limit, count, what = rules.table_web_cash_max, cash_tables, "cash or practice tables"
        key = "tables.web_cash_max"
    named = and_more(games, PEAK_GAMES_NAMED)
    if peak_ms == at_ms:
        first = f"{count} {what} at once from {where} ({named}) at {when(at)}"
    else:
        first = (f"{count} {what} at once from {where} at {when(at)}, up to {peak}"
                 f" ({named}) at {when(_at(peak_ms), after=at)}")  # fmt: skip
    return finding(
        "table.limit",
        game_id=game_id,
        player_id=player,
        expected=f"at most {limit} {what} on {client}",
        recorded=f"{peak} {what} on {client}",
        message=f"{player} was playing {first}, until {when(_at(ended_ms), after=at)}, more than"
        f" the {limit} allowed.",
        rule=rules.cite(key),
    )


def _at(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)
