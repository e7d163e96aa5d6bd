"""When a hand or game ran (audit/explain/find.py) is read from timestamps of any unit the
contract allows (schemas/README.md, "What a file may use instead": `s`, `ms`, `us`, `ns`,
finer units truncated to the millisecond)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.explain.find import game_facts, hand_clock
from tests.logs.test_reader import small_log


def as_nanoseconds(root: Path, table: str) -> None:
    """Every timestamp column of ``table``'s files rewritten as ``timestamp[ns, UTC]``."""
    for path in sorted((root / table).rglob("*.parquet")):
        data = pq.read_table(path, partitioning=None)
        for i, field in enumerate(data.schema):
            if pa.types.is_timestamp(field.type):
                ns = pc.cast(data.column(i), pa.timestamp("ns", tz="UTC"))
                data = data.set_column(i, pa.field(field.name, ns.type, field.nullable), ns)
        pq.write_table(data, path)


def test_explain_reads_when_a_hand_and_a_game_ran_from_nanosecond_timestamps(
    tmp_path: Path,
) -> None:
    """A log root written with nanosecond timestamps gives the same clock as one in
    milliseconds (explain refused it: "epoch_ms(TIMESTAMPTZ_NS)", a blind tester)."""
    ms = small_log(tmp_path / "ms", games=1, hands=2).write()
    ns = tmp_path / "ns"
    shutil.copytree(ms, ns)
    for table in ("hands", "games"):
        as_nanoseconds(ns, table)
    assert pq.read_schema(next((ns / "hands").rglob("*.parquet"))).field(
        "started_at").type == pa.timestamp("ns", tz="UTC")  # fmt: skip
    assert hand_clock(ns, "g0-h1") == hand_clock(ms, "g0-h1")
    assert game_facts(ns, "g0", ["g0-h0"]) == game_facts(ms, "g0", ["g0-h0"])
    assert game_facts(ms, "g0", ["g0-h0"]).hands  # something was read
