"""Benchmark of the nightly job: ``rummy-audit replay`` end to end on simulated logs.

For each size, the simulator writes a log root once (cached under benchmarks/out/), then:
- the floor: the reader alone, from the Parquet files to per-hand Python records
  (``iter_units``), no rules, one process;
- the replay: ``rummy-audit replay LOGS --out OUT --workers 2`` in a child process, every
  check on, timed wall-clock, with the peak resident memory of the largest process;
- a profile of one worker's share (cProfile over ``audit_games`` for a few thousand hands).

Prints Markdown; ``run.py`` writes it into benchmarks/README.md.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from audit.logs.reader import iter_units, open_log_root
from audit.sim import simulate
from audit.unit import audit_games

HERE = Path(__file__).resolve().parent
CACHE = HERE / "out"
BIN = Path(sys.executable).parent


def logs_for(games: int, seed: int = 20261129) -> tuple[Path, int]:
    root = CACHE / f"sim-{games}-{seed}"
    done = root / ".done"
    if not done.exists():
        summary = simulate(games=games, out=root, seed=seed)
        done.write_text(f"{summary.hands}\n")
    return root, int(done.read_text())


def floor_seconds(root: Path) -> float:
    with tempfile.TemporaryDirectory() as work:
        start = time.perf_counter()
        log = open_log_root(root)
        hands = 0
        for batch in iter_units(log, quarantine=[], workdir=Path(work)):
            hands += sum(len(unit.hands) for unit in batch)
        return time.perf_counter() - start


def replay_seconds(root: Path, workers: int = 2) -> tuple[float, float]:
    """Wall-clock seconds and the peak RSS (MiB) of the largest process of the run."""
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run(
            [str(BIN / "rummy-audit"), "replay", str(root), "--out", out,
             "--workers", str(workers), "--no-progress", "--fail-on", "critical",
             "--no-fairplay"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return elapsed, peak


def profile(root: Path, hands: int = 3000) -> str:
    with tempfile.TemporaryDirectory() as work:
        units = []
        for batch in iter_units(open_log_root(root), quarantine=[], workdir=Path(work)):
            units += batch
            if sum(len(u.hands) for u in units) >= hands:
                break
    profiler = cProfile.Profile()
    profiler.enable()
    audit_games(units)
    profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.sort_stats("tottime").print_stats(12)
    lines = [ln for ln in text.getvalue().splitlines() if ln.strip()]
    start = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls"))
    rows = [ln.replace(str(HERE.parent) + "/", "") for ln in lines[start : start + 13]]
    return "\n".join(rows)


def main(sizes: tuple[int, ...] = (2_500, 25_000)) -> str:
    rows = [
        "| games | hands | floor: read to Python (s) | replay, 2 workers (s) | hands/s "
        "| replay / floor | peak RSS (MiB) |",
        "|---|---|---|---|---|---|---|",
    ]
    biggest = None
    for games in sizes:
        root, hands = logs_for(games)
        floor = floor_seconds(root)
        seconds, peak = replay_seconds(root)
        rows.append(
            f"| {games:,} | {hands:,} | {floor:.2f} | {seconds:.2f} | {hands / seconds:,.0f} "
            f"| {seconds / floor:.1f} | {peak:.0f} |"
        )
        biggest = root
    assert biggest is not None
    return (
        "\n".join(rows)
        + "\n\nWhere one worker's time goes (cProfile, 3,000 hands, by own time):\n\n```\n"
        + profile(biggest)
        + "\n```"
    )


if __name__ == "__main__":
    sizes = tuple(int(a) for a in sys.argv[1:]) or (2_500, 25_000)
    print(main(sizes))
