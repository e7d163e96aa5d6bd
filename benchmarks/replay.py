"""Benchmark of the nightly job: ``rummy-audit replay`` end to end on simulated logs.

For each size, the simulator writes a log root once (cached under benchmarks/out/), then:
- the floor: the reader alone, from the Parquet files to per-hand Python records
  (``iter_units``), no rules, one process;
- the replay: ``rummy-audit replay LOGS --out OUT --workers 2 --no-fairplay --no-rng`` in a
  child process, every replay check on, timed wall-clock, with the CPU seconds of the
  whole process tree (the machine is shared: CPU time says what wall clock cannot) and the
  peak resident memory of the largest process;
- where the time goes, in one process as a worker spends it: staging (DuckDB, wall and
  CPU), then per hand the reading of a bucket into records and the audit, step by step.

``python benchmarks/replay.py --profile [GAMES]`` prints a cProfile of ``audit_games``
instead (it sees inside only what runs as pure Python: the compiled modules of
audit/_compiled.py are one line each).

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

from audit import _compiled
from audit.logs.reader import iter_units, open_log_root, read_bucket, staging
from audit.records import GameUnit, gc_paused
from audit.replay.facts import hand_facts
from audit.replay.hand import HandReplay
from audit.replay.outcome import compare_money, compare_results, expected_outcomes, shoe_of
from audit.run import bucket_rows
from audit.shuffle.commitment import commitment_findings
from audit.sim import simulate
from audit.unit import admit, audit_games, game_checks

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


def replay_seconds(root: Path, workers: int = 2) -> tuple[float, float, float]:
    """Wall-clock seconds, CPU seconds of every process of the run, and the peak RSS (MiB)
    of the largest one."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run(
            [str(BIN / "rummy-audit"), "replay", str(root), "--out", out,
             "--workers", str(workers), "--no-progress", "--fail-on", "critical",
             "--no-fairplay", "--no-rng"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return elapsed, cpu, after.ru_maxrss / 1024


def breakdown(root: Path) -> list[tuple[str, float]]:
    """Where one night's time goes, in this process: staging (wall, then CPU seconds),
    then CPU µs per hand of reading the buckets and of each step of the audit, the
    collector paused as ``audit_games`` pauses it."""
    steps: dict[str, float] = {}
    log = open_log_root(root)
    events = sum(f.rows for f in log.files["events"])
    wall, cpu = time.perf_counter(), time.process_time()
    target = bucket_rows(events, 2)
    with (
        tempfile.TemporaryDirectory() as work,
        staging(log, quarantine=[], target_rows=target, workdir=Path(work)) as stage,
    ):
        steps["staging (s, wall)"] = time.perf_counter() - wall
        steps["staging (s, CPU)"] = time.process_time() - cpu
        hands = 0
        for bucket in range(stage.buckets):
            batches = read_bucket(stage, bucket, [])
            while True:
                start = time.process_time()
                units = next(batches, None)
                steps["read (µs)"] = steps.get("read (µs)", 0.0) + time.process_time() - start
                if units is None:
                    break
                hands += sum(len(unit.hands) for unit in units)
                with gc_paused():
                    _audit_steps(units, steps)
    per_hand = {k: v * 1e6 / max(1, hands) for k, v in steps.items() if "µs" in k}
    return [(k, v) for k, v in steps.items() if "µs" not in k] + list(per_hand.items())


class _Laps:
    """CPU seconds per named step, each step timed from the end of the one before."""

    def __init__(self, steps: dict[str, float]) -> None:
        self.steps, self.last = steps, time.process_time()

    def __call__(self, name: str) -> None:
        now = time.process_time()
        self.steps[name] = self.steps.get(name, 0.0) + now - self.last
        self.last = now


def _audit_steps(units: list[GameUnit], steps: dict[str, float]) -> None:
    """``audit_unit``'s steps, each timed apart."""
    lap = _Laps(steps)
    for unit in units:
        game = unit.game
        rules, reasons = admit(unit)
        lap("admit (µs)")
        if game is None or rules is None:
            continue
        for hand in unit.hands:
            if reasons[hand.hand_id] is not None:
                continue
            replay = HandReplay(hand, game, rules).run()
            lap("hand replay (µs)")
            expected = expected_outcomes(replay)
            lap("outcomes (µs)")
            commitment_findings(hand, game, shoe_of(replay))
            lap("commitment (µs)")
            compare_results(replay, expected)
            compare_money(replay, game, expected)
            lap("results and money (µs)")
            hand_facts(replay, expected)
            lap("pile and drops (µs)")
        game_checks(game, unit.hands, rules)
        lap("game checks (µs)")


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
        "| CPU (s) | hands per CPU-s | peak RSS (MiB) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    biggest = None
    for games in sizes:
        root, hands = logs_for(games)
        # The replay first: a child's peak RSS counts this process's RSS when it forked
        # (Linux keeps the high-water mark across fork and exec), and the floor leaves a
        # night's records behind (it read about 1 GiB into this process).
        seconds, cpu, peak = replay_seconds(root)
        floor = floor_seconds(root)
        rows.append(
            f"| {games:,} | {hands:,} | {floor:.2f} | {seconds:.2f} | {hands / seconds:,.0f} "
            f"| {cpu:.1f} | {hands / cpu:,.0f} | {peak:.0f} |"
        )
        biggest = root, hands
    assert biggest is not None
    compiled = "compiled (mypyc)" if _compiled.current() else "pure Python"
    steps = "\n".join(f"| {name} | {value:,.1f} |" for name, value in breakdown(biggest[0]))
    return (
        "\n".join(rows)
        + f"\n\nWhere the time goes ({biggest[1]:,} hands, one process, hot modules "
        + f"{compiled}):\n\n| step | |\n|---|---|\n"
        + steps
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--profile"]:
        print(profile(logs_for(int(args[1]) if args[1:] else 2_500)[0]))
    else:
        print(main(tuple(int(a) for a in args) or (2_500, 25_000)))
