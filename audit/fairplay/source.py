"""The night the detectors read: DuckDB views over the log root and the replay's outputs.

Only hands the replay could replay take part (``hands.parquet`` rows not quarantined), so
a row the contract refused never reaches a detector: a bad row of ``hands``, ``events`` or
``results`` quarantines its hand, a bad ``games`` row its game's hands. ``sessions`` rows
are checked here against the contract's row checks. The views, each a few columns wide:

- ``g``: games (game_id, table_id, format, chip_type, entry_fee, point_value,
  cards_per_hand, max_players, ruleset, started_at, ended_at);
- ``seat``: one row per player dealt into a replayed hand, with the game's columns and what
  the platform recorded (outcome, points, amount), written once to Parquet, in passes over
  the games (``duck.in_passes``: ten million hands in one pass ran out of 512MB);
- ``ev``: the events of replayed hands (hand_id, seq, ts, player_id, action, auto);
- ``sess``: good sessions rows, written once to Parquet (the night's sessions files are
  many, and checked row by row); ``pile`` and ``drops``: the replay's facts
  (audit/replay/facts.py).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from audit import duck
from audit.duck import file_literal
from audit.logs.reader import LogRoot
from audit.logs.validate import row_checks


def _output(out: Path, name: str) -> str:
    return f"read_parquet({file_literal(str(out / name))})"


def _games(source: str, where: str) -> str:
    """The games of ``source`` whose ids meet ``where``, each game's first row."""
    return (
        "SELECT game_id, table_id, format, chip_type, entry_fee, point_value,"
        f" cards_per_hand, max_players, ruleset, started_at, ended_at FROM ({source})"
        f" WHERE {where}"
        " QUALIFY row_number() OVER (PARTITION BY game_id ORDER BY _k) = 1"
    )


def open_night(con: duckdb.DuckDBPyConnection, log: LogRoot, out: Path, work: Path) -> None:
    """Create the detectors' views on ``con`` over the log root and ``out``; the seats are
    written to Parquet under ``work``, a folder that must outlive ``con``'s queries."""
    con.execute(
        "CREATE TEMP VIEW hs AS SELECT hand_id, game_id, hand_no"
        f" FROM {_output(out, 'hands.parquet')} WHERE status <> 'quarantined'"
    )
    games = log.sql("games")
    con.execute(f"CREATE TEMP VIEW g AS {_games(games, 'game_id IN (SELECT game_id FROM hs)')}")

    def seats(hands: str) -> str:
        return (
            "WITH dealt AS ("
            "  SELECT h.hand_id, h.started_at, unnest(h.seats, recursive := true),"
            "  unnest(range(len(h.seats))) AS pos"
            f" FROM ({log.sql('hands')}) h SEMI JOIN {hands} USING (hand_id)"
            "), rec AS ("
            "  SELECT hand_id, player_id, outcome, points, amount"
            f" FROM ({log.sql('results')}) SEMI JOIN {hands} USING (hand_id)"
            "  QUALIFY row_number() OVER (PARTITION BY hand_id, player_id ORDER BY _k) = 1"
            ")"
            " SELECT d.hand_id, p.game_id, d.player_id, d.pos, d.started_at, g.format,"
            " g.chip_type, g.cards_per_hand, g.ruleset, g.point_value,"
            " rec.outcome, rec.points, rec.amount"
            f" FROM dealt d JOIN {hands} p USING (hand_id)"
            f" JOIN ({_games(games, f'game_id IN (SELECT game_id FROM {hands})')}) g"
            " USING (game_id)"
            " LEFT JOIN rec ON rec.hand_id = d.hand_id AND rec.player_id = d.player_id"
            " WHERE d.player_id IS NOT NULL"
        )

    written = duck.in_passes(con, "SELECT hand_id, game_id FROM hs", work / "seat", seats)
    con.execute(f"CREATE TEMP VIEW seat AS SELECT * FROM {written}")
    con.execute(
        "CREATE TEMP VIEW ev AS SELECT hand_id, seq, ts, player_id, action, auto"
        f" FROM ({log.sql('events')}) SEMI JOIN hs USING (hand_id)"
    )
    checks = row_checks("sessions")
    good = work / "sess.parquet"  # read about seven times: the log's files checked once
    con.execute(
        "COPY (SELECT player_id, game_id, client, ip, device_id, joined_at, left_at"
        f" FROM ({log.sql('sessions')}) WHERE {checks.ok}) TO {duck.literal(str(good))}"
        " (FORMAT parquet)"
    )
    con.execute(f"CREATE TEMP VIEW sess AS SELECT * FROM read_parquet({file_literal(str(good))})")
    con.execute(f"CREATE TEMP VIEW pile AS SELECT * FROM {_output(out, 'pile.parquet')}")
    con.execute(f"CREATE TEMP VIEW drops AS SELECT * FROM {_output(out, 'drops.parquet')}")
