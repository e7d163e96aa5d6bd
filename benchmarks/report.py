"""Benchmark of the nightly report on a big night: ``report.html`` over a million findings.

Writes an output folder as a run over a huge night would leave it (1,000,000 findings over
100,000 games and 200,000 hands, fair-play and shuffle findings among them, and 5,000
fair-play suspicions with their evidence hands, rings among them), then times
``write_report`` (DuckDB aggregates, the top rows, Jinja) and weighs the page.

Prints Markdown; ``run.py`` writes it into benchmarks/README.md.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.fairplay.suspicion import Suspicion
from audit.findings import Severity
from audit.output import FINDINGS_SCHEMA, HANDS_SCHEMA, QUARANTINE_SCHEMA, write_suspicions
from audit.report.render import write_report

SUSPICIONS = 5_000

CHECKS = ["score.points", "drop.penalty", "ledger.balance", "deck.composition",
          "fairplay.collusion", "rng.position"]  # fmt: skip
SEVERITY = ["major", "major", "critical", "critical", "minor", "info"]


def ids(prefix: str, numbers: pa.Array, width: int) -> pa.Array:
    return pc.binary_join_element_wise(
        prefix, pc.utf8_lpad(pc.cast(numbers, pa.string()), width, "0"), ""
    )


def night(out: Path, findings: int) -> None:
    n = pa.array(range(findings), pa.int64())
    kind = pc.subtract(n, pc.multiply(pc.divide(n, 6), 6))
    game = ids("G", pc.subtract(n, pc.multiply(pc.divide(n, 100_000), 100_000)), 6)
    columns = {
        "check": pc.take(pa.array(CHECKS), kind),
        "severity": pc.take(pa.array(SEVERITY), kind),
        "game_id": game,
        "hand_id": pc.binary_join_element_wise(game, "-01", ""),
        "player_id": ids("P", pc.subtract(n, pc.multiply(pc.divide(n, 9_973), 9_973)), 5),
        "seq": pc.cast(pc.subtract(n, pc.multiply(pc.divide(n, 60), 60)), pa.int32()),
        "expected": pa.array(["20"] * findings),
        "recorded": pa.array(["25"] * findings),
        "message": pa.array(["The record charged 25 points where the rules give 20."] * findings),
        "rule": pa.array(["points.card_points: face value (001_)"] * findings),
    }
    pq.write_table(pa.table(columns, schema=FINDINGS_SCHEMA), out / "findings.parquet")
    hands = 200_000
    h = pa.array(range(hands), pa.int64())
    hand_game = ids("G", pc.divide(h, 2), 6)
    pq.write_table(
        pa.table(
            {
                "hand_id": pc.binary_join_element_wise(hand_game, "-01", ""),
                "game_id": hand_game,
                "hand_no": pa.array([1] * hands, pa.int16()),
                "format": pa.array(["points", "pool_101", "pool_201", "deals"] * (hands // 4)),
                "ruleset": pa.array(["standard-13"] * hands),
                "players": pa.array([4] * hands, pa.int8()),
                "status": pa.array(["discrepancy"] * hands),
                "findings": pa.array([5] * hands, pa.int32()),
                "worst_severity": pa.array(["critical"] * hands),
                "reason": pa.nulls(hands, pa.string()),
                "outcomes": pa.array([["won", "lost", "first_drop", "lost"]] * hands),
                "points": pa.array([[0, 35, 20, 80]] * hands, pa.list_(pa.int16())),
            },
            schema=HANDS_SCHEMA,
        ),
        out / "hands.parquet",
    )
    pq.write_table(QUARANTINE_SCHEMA.empty_table(), out / "quarantine.parquet")
    run = {
        "tool": "rummy-audit", "version": "bench", "output_version": "1",
        "arguments": {"logs": "logs", "out": "out"}, "inputs": [],
        "missing_optional_tables": [],
        "counts": {"hands": {"verified": 0, "discrepancy": hands, "quarantined": 0},
                   "hands_total": hands, "quarantine_rows": 0},
        "timings_s": {"total": 0.0}, "worst_severity": "critical", "exit_status": 1,
        "fairplay": {"status": "run", "suspicions": SUSPICIONS, "detectors": [
            {"check": "fairplay.collusion", "tested": 250_000, "suspicions": SUSPICIONS - 100},
            {"check": "fairplay.ring", "tested": 100, "suspicions": 100}]},
    }  # fmt: skip
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    write_suspicions(out / "suspicions.parquet", [suspicion(i) for i in range(SUSPICIONS)])


def suspicion(i: int) -> Suspicion:
    """A pair suspicion (every 50th a ring of five) with seven evidence hands."""
    ring = i % 50 == 0
    players = tuple(f"P{(i + k) % 9_973:05d}" for k in range(5 if ring else 2))
    games = tuple(f"G{(i * 7 + k) % 100_000:06d}" for k in range(7))
    return Suspicion(
        check="fairplay.ring" if ring else "fairplay.collusion",
        severity=Severity.MAJOR if i % 3 == 0 else Severity.MINOR, players=players,
        statistic="beta-binomial", expected=2.5, observed=9.0, effect=3.6,
        effect_name="rate ratio", p_value=1e-9, q_value=1e-6 * (1 + i % 100), tests=250_000,
        evidence_hands=tuple(f"{g}-01" for g in games), evidence_games=games,
        benign="a strong player after a weak one", message=f"{players[0]} fed {players[1]}.",
        expected_text="2.5", recorded_text="9", pattern="feeding",
    )  # fmt: skip


def main() -> str:
    rows = ["| findings | report.html written (s) | page size (KiB) |", "|---|---|---|"]
    for findings in (10_000, 1_000_000):
        with tempfile.TemporaryDirectory() as work:
            out = Path(work)
            night(out, findings)
            start = time.perf_counter()
            page = write_report(out)
            took = time.perf_counter() - start
            rows.append(f"| {findings:,} | {took:.2f} | {page.stat().st_size // 1024:,} |")
    return "\n".join(rows)
