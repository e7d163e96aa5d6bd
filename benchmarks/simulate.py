"""Benchmark of the simulator: ``rummy-audit simulate`` writing a night of logs.

For each size, ``simulate(games=N, workers=W)`` into a fresh folder, timed wall-clock
(playing the hands, the exact solver on every show and declaration attempt, writing
Parquet, labels), with no anomalies and with every kind planted. Rooms of 500 games are
played in parallel, so one process and two are both measured.

Prints Markdown; ``run.py`` writes it into benchmarks/README.md.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from audit.sim import simulate

SIZES = (2_000, 10_000)
SEED = 20261130


def seconds(games: int, workers: int, anomalies: str) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as work:
        start = time.perf_counter()
        summary = simulate(
            games=games, out=Path(work) / "logs", seed=SEED, workers=workers, anomalies=anomalies
        )
        return time.perf_counter() - start, summary.hands


def main() -> str:
    rows = [
        "| games | anomalies | workers | hands | seconds | hands/s |",
        "|---|---|---|---|---|---|",
    ]
    for games in SIZES:
        for anomalies, workers in (("none", 1), ("none", 2), ("all", 2)):
            if games > SIZES[0] and workers == 1:
                continue
            took, hands = seconds(games, workers, "" if anomalies == "none" else anomalies)
            rows.append(
                f"| {games:,} | {anomalies} | {workers} | {hands:,} | {took:.2f} | "
                f"{hands / took:,.0f} |"
            )
    return "\n".join(rows)
