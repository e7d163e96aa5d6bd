"""Benchmark of the fair-play detectors' false alarms: many honest nights, how often each
detector reports anything.

``NIGHTS`` nights of ``GAMES`` games each (seeds from ``FIRST_SEED``), simulated with
nothing planted, replayed with the detectors on (``--no-rng``), two nights at a time. On a
night where nobody cheats, every suspicion is false, so the share of nights on which a
detector reports at least one is its false-alarm rate per night. Each detector corrects
its family with Benjamini-Hochberg at q <= 0.01 (docs/fairplay.md), which, when every
hypothesis is null, bounds that share by 1 %; ``minor`` (q <= 0.001) by 0.1 %, ``major``
(q <= 0.00001) by 0.001 %. The simulator's players are honest but not alike (skill, pace,
stakes), which is what the detectors' null models must absorb.

Usage: ``.venv/bin/python benchmarks/honest.py [NIGHTS]``; ``run.py`` writes its Markdown
into benchmarks/README.md.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pyarrow.parquet as pq
from scipy.stats import binom

from audit.run import replay_logs
from audit.sim import simulate

NIGHTS = 300
GAMES = 2_000
FIRST_SEED = 1_000
DETECTORS = ("bot", "chip_dumping", "co_seating", "collusion", "loss_dumping", "ring",
             "shared_device", "soft_drop")  # fmt: skip
BOUND = 0.01
"""The false alarms per honest night Benjamini-Hochberg at q <= 0.01 allows a detector."""
SEVERE = {"reported": {"info", "minor", "major"}, "minor": {"minor", "major"}, "major": {"major"}}


def one_night(seed: int) -> list[tuple[str, str]]:
    """The (check, severity) of every suspicion on the honest night of ``seed``."""
    with tempfile.TemporaryDirectory() as work:
        logs, out = Path(work) / "logs", Path(work) / "out"
        simulate(games=GAMES, out=logs, seed=seed, workers=1)
        replay_logs(logs=logs, out=out, workers=1, progress=False, rng=False)
        table = pq.read_table(out / "suspicions.parquet", columns=["check", "severity"])
        return sorted(zip(*(table.column(c).to_pylist() for c in ("check", "severity")),
                          strict=True))  # fmt: skip


def main(nights: int = NIGHTS) -> str:
    seeds = range(FIRST_SEED, FIRST_SEED + nights)
    with ProcessPoolExecutor(2) as pool:
        found = dict(zip(seeds, pool.map(one_night, seeds), strict=True))
    rows = ["| detector | nights reporting | minor or above | major | rate per night "
            "| stated bound | P(this many or more at the bound) |",
            "|---|---|---|---|---|---|---|"]  # fmt: skip
    for name in DETECTORS:
        check = f"fairplay.{name}"
        count = Counter(
            level
            for suspicions in found.values()
            for level, severities in SEVERE.items()
            if any(c == check and s in severities for c, s in suspicions)
        )
        k = count["reported"]
        tail = float(binom.sf(k - 1, nights, BOUND)) if k else 1.0
        rows.append(
            f"| `{check}` | {k} | {count['minor']} | {count['major']} | {k / nights:.2%} "
            f"| 1 % (minor 0.1 %) | {tail:.2f} |"
        )
    any_night = sum(1 for suspicions in found.values() if suspicions)
    listed = "; ".join(
        f"seed {seed}: " + ", ".join(f"{c} {s}" for c, s in suspicions)
        for seed, suspicions in found.items()
        if suspicions
    )
    return (
        f"{nights} honest nights of {GAMES:,} games (seeds {seeds[0]}-{seeds[-1]}): "
        f"{any_night} with any suspicion.\n\n" + "\n".join(rows)
        + (f"\n\nThe suspicions: {listed}." if listed else "")
    )


if __name__ == "__main__":
    print(main(int(sys.argv[1]) if len(sys.argv) > 1 else NIGHTS))
