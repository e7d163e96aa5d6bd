"""Nights for the nightly tests: a simulated night, cut in two by time as a platform cuts
its batches.

``split_by_time`` puts each row in the batch of the moment it happened: a hand (and its
events and results) in the batch of its end, a game event, ledger row or session in the
batch of its own time, and a games row in the first batch after the game started, with
``ended_at`` null when the game was still running at the cut; such a game's row is written
again, ended, in the second batch. ``add_night`` writes one batch into a cumulative log
root, under its own date partition, as a platform adds a night's files.
``multi_tabling`` seats two players at more app tables than the client allows around a
cut, so that ``table.limit`` is judged across it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.logs.contract import TABLES
from audit.sim import simulate

Batch = dict[str, pa.Table]

TIME = {"hands": "ended_at", "game_events": "ts", "ledger": "ts", "sessions": "left_at"}


def simulated(root: Path, games: int, seed: int, anomalies: str = "") -> Path:
    """A simulated night's log root, ``root/"night"``."""
    simulate(games=games, out=root / "night", seed=seed, anomalies=anomalies, workers=1)
    return root / "night"


def read_tables(logs: Path) -> Batch:
    """Every table of a log root, its files concatenated (their schema kept)."""
    tables = {}
    for table in TABLES:
        files = sorted((logs / table).rglob("*.parquet"))
        if files:
            tables[table] = pa.concat_tables(pq.ParquetFile(f).read() for f in files)
    return tables


def middle_cut(logs: Path) -> datetime:
    """A cut in the middle of the night: the median end of its games."""
    ended = sorted(pq.read_table(logs / "games").column("ended_at").to_pylist())
    cut: datetime = ended[len(ended) // 2]
    return cut


def multi_tabling(logs: Path, cut: datetime) -> dict[str, list[str]]:
    """Seat two players at 4 or 5 app tables at once around ``cut`` (sessions rows of their
    own, in a file beside the night's): ``P9001`` at two tables whose games end before the
    cut and two whose games end after it, over the limit only with the seats of both sides;
    ``P9002`` at four tables whose games end before the cut, over the limit on them alone,
    and a fifth, after the cut, in the same episode. Returns each player's games."""
    games = read_tables(logs)["games"]
    ends = dict(zip(games.column("game_id").to_pylist(), games.column("ended_at").to_pylist(),
                    strict=True))  # fmt: skip
    before = sorted(g for g, end in ends.items() if end <= cut)[-4:]
    after = sorted(g for g, end in ends.items() if end > cut)[:3]
    minute = timedelta(minutes=1)
    seats = [("P9001", before[0], -20, -1), ("P9001", before[1], -19, -1),
             ("P9001", after[0], -18, 10), ("P9001", after[1], -17, 10)]  # fmt: skip
    seats += [("P9002", game, -40 + i, -2) for i, game in enumerate(before)]
    seats += [("P9002", after[2], -30, 5)]
    files = sorted((logs / "sessions").rglob("*.parquet"))
    schema = pq.read_schema(files[0])
    rows = [{"player_id": player, "game_id": game, "client": "app", "ip": f"10.90.0.{player[-1]}",
             "device_id": f"device-{player}", "joined_at": cut + joined * minute,
             "left_at": cut + left * minute} for player, game, joined, left in seats]  # fmt: skip
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), files[0].parent / "multi.parquet")
    return {p: [g for q, g, _, _ in seats if q == p] for p in ("P9001", "P9002")}


def split_by_time(logs: Path, cut: datetime) -> tuple[Batch, Batch, list[str]]:
    """The two batches of a night cut at ``cut``, and the games running at the cut."""
    tables = read_tables(logs)
    scalar = pa.scalar(cut, pa.timestamp("ms", tz="UTC"))
    games = tables["games"]
    started = pc.less_equal(games.column("started_at"), scalar)
    ended = pc.less_equal(games.column("ended_at"), scalar)
    running_mask = pc.and_(started, pc.invert(ended))
    running = sorted(games.filter(running_mask).column("game_id").to_pylist())
    column = games.schema.get_field_index("ended_at")
    nulls = pa.nulls(games.num_rows, games.schema.field("ended_at").type)
    cut_ended = pc.if_else(running_mask, nulls, games.column("ended_at"))
    first: Batch = {
        "games": games.set_column(column, games.schema.field("ended_at"), cut_ended).filter(started)
    }
    second: Batch = {"games": games.filter(pc.invert(ended))}
    hands = tables["hands"]
    early = pc.less_equal(hands.column("ended_at"), scalar)
    first["hands"], second["hands"] = hands.filter(early), hands.filter(pc.invert(early))
    early_hands = pa.array(sorted(first["hands"].column("hand_id").to_pylist()), pa.string())
    for table in ("events", "results"):
        rows = tables[table]
        mask = pc.is_in(rows.column("hand_id"), value_set=early_hands)
        first[table], second[table] = rows.filter(mask), rows.filter(pc.invert(mask))
    for table in ("game_events", "ledger", "sessions"):
        if table in tables:
            rows = tables[table]
            mask = pc.less_equal(rows.column(TIME[table]), scalar)
            first[table], second[table] = rows.filter(mask), rows.filter(pc.invert(mask))
    return first, second, running


def add_night(logs: Path, batch: Batch, date: str) -> None:
    """Write ``batch`` into the log root ``logs``, one file per table under
    ``<table>/date=<date>/part-0.parquet``."""
    for table, rows in batch.items():
        folder = logs / table / f"date={date}"
        folder.mkdir(parents=True, exist_ok=True)
        pq.write_table(rows, folder / "part-0.parquet")


def write_root(logs: Path, batch: Batch) -> None:
    """A log root of its own holding ``batch`` (one file per table)."""
    add_night(logs, batch, "all")
