"""The night the detectors read: DuckDB views over the log root and the replay's outputs.

Only hands the replay could replay take part (``hands.parquet`` rows not quarantined), so
a row the contract refused never reaches a detector: a bad row of ``hands``, ``events`` or
``results`` quarantines its hand, a bad ``games`` row its game's hands. ``sessions`` rows
are checked here against the contract's row checks. The views, each a few columns wide:

- ``g``: games (game_id, table_id, format, chip_type, entry_fee, point_value,
  cards_per_hand, ruleset, started_at);
- ``seat``: one row per player dealt into a replayed hand, with the game's columns and what
  the platform recorded (outcome, points, amount), written once to Parquet, in passes over
  the games by the hash of their id (``duck.HANDS_PER_PASS`` hands each: ten million hands
  in one pass ran out of 512MB);
- ``ev``: the events of replayed hands (hand_id, seq, ts, player_id, action, auto);
- ``sess``: good sessions rows; ``pile`` and ``drops``: the replay's facts
  (audit/replay/facts.py).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from audit import duck
from audit.logs.reader import LogRoot
from audit.logs.validate import file_literal, literal, row_checks, source_sql

_ROW_BITS = 40


def _source(log: LogRoot, table: str) -> str:
    paths = [str(log.root / f.path) for f in log.files.get(table, [])]
    return source_sql(
        table, paths, first_file=0, row_bits=_ROW_BITS, absent=log.absent(table),
        uniform=log.uniform(table),
    )  # fmt: skip


def _output(out: Path, name: str) -> str:
    return f"read_parquet({file_literal(str(out / name))})"


def _games(source: str, where: str) -> str:
    """The games of ``source`` whose ids meet ``where``, each game's first row."""
    return (
        "SELECT game_id, table_id, format, chip_type, entry_fee, point_value,"
        f" cards_per_hand, ruleset, started_at FROM ({source}) WHERE {where}"
        " QUALIFY row_number() OVER (PARTITION BY game_id ORDER BY _k) = 1"
    )


def open_night(con: duckdb.DuckDBPyConnection, log: LogRoot, out: Path, work: Path) -> None:
    """Create the detectors' views on ``con`` over the log root and ``out``; the seats are
    written to Parquet under ``work``, a folder that must outlive ``con``'s queries."""
    con.execute(
        "CREATE TEMP VIEW hs AS SELECT hand_id, game_id, hand_no"
        f" FROM {_output(out, 'hands.parquet')} WHERE status <> 'quarantined'"
    )
    games = _source(log, "games")
    con.execute(f"CREATE TEMP VIEW g AS {_games(games, 'game_id IN (SELECT game_id FROM hs)')}")
    (hands,) = con.sql("SELECT count(*) FROM hs").fetchall()[0]
    passes = duck.passes(int(hands))
    seats = work / "seat"
    seats.mkdir()
    part = _games(games, "game_id IN (SELECT game_id FROM seat_hand)")
    for n in range(passes):
        con.execute(
            "CREATE OR REPLACE TEMP TABLE seat_hand AS SELECT hand_id, game_id FROM hs"
            " WHERE hash(game_id) % $passes = $n",
            {"passes": passes, "n": n},
        )
        con.execute(
            "COPY ("
            " WITH dealt AS ("
            "   SELECT h.hand_id, h.started_at, unnest(h.seats, recursive := true),"
            "   unnest(range(len(h.seats))) AS pos"
            f"  FROM ({_source(log, 'hands')}) h SEMI JOIN seat_hand USING (hand_id)"
            " ), rec AS ("
            "   SELECT hand_id, player_id, outcome, points, amount"
            f"  FROM ({_source(log, 'results')}) SEMI JOIN seat_hand USING (hand_id)"
            "   QUALIFY row_number() OVER (PARTITION BY hand_id, player_id ORDER BY _k) = 1"
            " )"
            " SELECT d.hand_id, p.game_id, d.player_id, d.pos, d.started_at, g.format,"
            " g.chip_type, g.cards_per_hand, g.ruleset, g.point_value,"
            " rec.outcome, rec.points, rec.amount"
            f" FROM dealt d JOIN seat_hand p USING (hand_id) JOIN ({part}) g USING (game_id)"
            " LEFT JOIN rec ON rec.hand_id = d.hand_id AND rec.player_id = d.player_id"
            " WHERE d.player_id IS NOT NULL"
            f") TO {literal(str(seats / f'{n}.parquet'))} (FORMAT parquet)"
        )
    con.execute("DROP TABLE seat_hand")
    con.execute(
        "CREATE TEMP VIEW seat AS SELECT * FROM"
        f" read_parquet({literal(str(seats / '*.parquet'))}, hive_partitioning = false)"
    )
    con.execute(
        "CREATE TEMP VIEW ev AS SELECT hand_id, seq, ts, player_id, action, auto"
        f" FROM ({_source(log, 'events')}) SEMI JOIN hs USING (hand_id)"
    )
    checks = row_checks("sessions")
    con.execute(
        "CREATE TEMP VIEW sess AS SELECT player_id, game_id, client, ip, device_id,"
        f" joined_at, left_at FROM ({_source(log, 'sessions')}) WHERE {checks.ok}"
    )
    con.execute(f"CREATE TEMP VIEW pile AS SELECT * FROM {_output(out, 'pile.parquet')}")
    con.execute(f"CREATE TEMP VIEW drops AS SELECT * FROM {_output(out, 'drops.parquet')}")
