"""The night the detectors read: DuckDB views over the log root and the replay's outputs.

Only hands the replay could replay take part (``hands.parquet`` rows not quarantined), so
a row the contract refused never reaches a detector: a bad row of ``hands``, ``events`` or
``results`` quarantines its hand, a bad ``games`` row its game's hands. ``sessions`` rows
are checked here against the contract's row checks. The views, each a few columns wide:

- ``g``: games (game_id, table_id, format, chip_type, entry_fee, point_value,
  cards_per_hand, ruleset, started_at);
- ``seat``: one row per player dealt into a replayed hand, with the game's columns and what
  the platform recorded (outcome, points, amount), materialised once;
- ``ev``: the events of replayed hands (hand_id, seq, ts, player_id, action, auto);
- ``sess``: good sessions rows; ``pile`` and ``drops``: the replay's facts
  (audit/replay/facts.py).
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from audit.logs.reader import LogRoot
from audit.logs.validate import file_literal, row_checks, source_sql

_ROW_BITS = 40


def _source(log: LogRoot, table: str) -> str:
    paths = [str(log.root / f.path) for f in log.files.get(table, [])]
    return source_sql(
        table, paths, first_file=0, row_bits=_ROW_BITS, absent=log.absent(table),
        uniform=log.uniform(table),
    )  # fmt: skip


def _output(out: Path, name: str) -> str:
    return f"read_parquet({file_literal(str(out / name))})"


def open_night(con: duckdb.DuckDBPyConnection, log: LogRoot, out: Path) -> None:
    """Create the detectors' views on ``con`` over the log root and ``out``."""
    con.execute(
        "CREATE TEMP VIEW hs AS SELECT hand_id, game_id, hand_no"
        f" FROM {_output(out, 'hands.parquet')} WHERE status <> 'quarantined'"
    )
    con.execute(
        "CREATE TEMP VIEW g AS SELECT game_id, table_id, format, chip_type, entry_fee,"
        " point_value, cards_per_hand, ruleset, started_at"
        f" FROM ({_source(log, 'games')}) WHERE game_id IN (SELECT game_id FROM hs)"
        " QUALIFY row_number() OVER (PARTITION BY game_id ORDER BY _k) = 1"
    )
    con.execute(
        "CREATE TEMP TABLE seat AS"
        " WITH dealt AS ("
        "   SELECT h.hand_id, h.started_at, unnest(h.seats, recursive := true),"
        "   unnest(range(len(h.seats))) AS pos"
        f"  FROM ({_source(log, 'hands')}) h SEMI JOIN hs USING (hand_id)"
        " ), rec AS ("
        "   SELECT hand_id, player_id, outcome, points, amount"
        f"  FROM ({_source(log, 'results')}) SEMI JOIN hs USING (hand_id)"
        "   QUALIFY row_number() OVER (PARTITION BY hand_id, player_id ORDER BY _k) = 1"
        " )"
        " SELECT d.hand_id, hs.game_id, d.player_id, d.pos, d.started_at, g.format,"
        " g.chip_type, g.cards_per_hand, g.ruleset, g.point_value,"
        " rec.outcome, rec.points, rec.amount"
        " FROM dealt d JOIN hs USING (hand_id) JOIN g USING (game_id)"
        " LEFT JOIN rec ON rec.hand_id = d.hand_id AND rec.player_id = d.player_id"
        " WHERE d.player_id IS NOT NULL"
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
