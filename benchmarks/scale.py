"""Benchmark of the replay at platform scale: hands/s and peak memory at about 100k and 1M
hands, with 1 and 2 local workers and on a local Dask cluster (a scheduler and 2 worker
processes on loopback), and what that means for a platform dealing 10M hands a night.

Each run is a fresh child process (``scale.py --child LOGS MODE``) running
``rummy-audit replay --no-fairplay --no-rng`` (every hand- and game-level check on; the
night-wide passes have their own benchmarks), so that its peak resident memory, the
largest single process of its tree (``ru_maxrss`` of itself and of its waited-for
children, workers included), is its own; a thread also samples the memory of the whole
tree, added up (``TreeMemory``). The nights are simulated once and cached under
benchmarks/out/: points, pool and deals games of every preset.

Prints Markdown; ``run.py`` writes it into benchmarks/README.md.
"""

from __future__ import annotations

import contextlib
import json
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
CACHE = HERE / "out"
MODES = ("1 worker", "2 workers", "cluster, 2 workers")
TARGET_HANDS, TARGET_S = 10_000_000, 600


def night_100k() -> Path:
    from audit.sim import simulate

    root = CACHE / "scale-30000"
    if not (root / ".simulated").exists():
        subprocess.run(["rm", "-rf", str(root / "logs")], check=True)
        simulate(games=30_000, out=root / "logs", seed=20261201)
        (root / ".simulated").write_text("ok\n")
    return root / "logs"


def night_1m() -> Path:
    sys.path.insert(0, str(HERE))
    from fairplay import speed_night

    return speed_night()[0]


class TreeMemory:
    """The memory of this process and every process under it (workers, a local cluster's
    scheduler and workers), added up and sampled every ``every`` seconds in a thread: the
    most the whole run held at once, which ``ru_maxrss`` (one process) does not tell.
    Sampled, so a peak shorter than ``every`` may be missed.

    Two sums: ``peak``, of each process's resident set (RSS), counts a page that several
    processes share once per process (the libraries' code: polars, Arrow and DuckDB map
    about 100 MiB of it into each worker); ``peak_pss``, of each process's proportional set
    size (a shared page split between the processes sharing it), counts every page once,
    so it is the memory the machine gives the run."""

    def __init__(self, every: float = 0.1) -> None:
        self.every, self.peak, self.peak_pss = every, 0, 0
        self.at_peak: list[int] = []  # each process's PSS at the PSS peak, this one first
        self.started, self.peak_at = time.perf_counter(), 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        me = psutil.Process()
        while not self._stop.wait(self.every):
            rss, each = 0, []
            for proc in [me, *me.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):  # ended since the listing
                    full = proc.memory_full_info()
                    rss, each = rss + full.rss, [*each, full.pss]
            self.peak = max(self.peak, rss)
            if sum(each) > self.peak_pss:
                self.peak_pss, self.at_peak = sum(each), each
                self.peak_at = time.perf_counter() - self.started

    def __enter__(self) -> TreeMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def child(logs: Path, mode: str) -> None:
    """One run, in this process: prints its figures as one JSON line."""
    from audit.run import replay_logs

    with tempfile.TemporaryDirectory(dir=CACHE) as work, TreeMemory() as tree:
        out = Path(work) / "out"
        started = time.perf_counter()
        if mode.startswith("cluster"):
            from distributed import LocalCluster

            with LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                host="127.0.0.1",
            ) as cluster:  # fmt: skip
                ready = time.perf_counter()
                summary = replay_logs(logs=logs, out=out, progress=False, fairplay=False,
                                      rng=False, scheduler=cluster.scheduler_address)  # fmt: skip
                seconds = time.perf_counter() - ready
            startup = ready - started
        else:
            workers = int(mode.split()[0])
            summary = replay_logs(logs=logs, out=out, workers=workers, progress=False,
                                  fairplay=False, rng=False)  # fmt: skip
            seconds, startup = time.perf_counter() - started, 0.0
        run = json.loads((out / "run.json").read_text())
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    figures = {
        "hands": sum(summary.hands.values()),
        "seconds": seconds,
        "startup": startup,
        "replay_s": run["timings_s"]["replay"],
        "main_mib": own,
        "worker_mib": kids,
        "all_mib": tree.peak / 2**20,
        "all_pss_mib": tree.peak_pss / 2**20,
        "pss_peak_at_s": round(tree.peak_at, 1),
        "pss_at_peak_mib": [round(b / 2**20) for b in tree.at_peak],
    }
    print(json.dumps(figures))


def measure(logs: Path, mode: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(logs), mode],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> str:
    nights = {"100k": night_100k(), "1M": night_1m()}
    rows, rates, whole = [], {}, {}
    for size, logs in nights.items():
        for mode in MODES:
            f = measure(logs, mode)
            peak = max(f["main_mib"], f["worker_mib"])
            rate = f["hands"] / f["seconds"]
            rates[size, mode] = rate
            whole[size, mode] = (f["all_mib"], f["all_pss_mib"])
            rows.append(
                f"| {size} | {mode} | {f['hands']:,.0f} | {f['seconds']:.1f} | {rate:,.0f} "
                f"| {f['main_mib']:,.0f} | {f['worker_mib']:,.0f} | {peak:,.0f} "
                f"| {f['all_mib']:,.0f} | {f['all_pss_mib']:,.0f} |"
            )
    table = "\n".join(
        [
            "| night | run | hands | wall clock (s) | hands/s | main process peak (MiB) "
            "| largest worker peak (MiB) | peak of any process (MiB) "
            "| all processes, RSS added (MiB, sampled) | all processes, PSS added (MiB) |",
            "|---|---|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )
    growth = "; ".join(
        f"{mode} {whole['1M', mode][0] / whole['100k', mode][0]:.2f}x by RSS, "
        f"{whole['1M', mode][1] / whole['100k', mode][1]:.2f}x by PSS"
        for mode in MODES
    )
    per_worker = rates["1M", "2 workers"] / 2
    need = TARGET_HANDS / TARGET_S
    return (
        f"{table}\n\n"
        f"All the processes' peak at 1M hands against 100k: {growth}.\n\n"
        f"A platform dealing {TARGET_HANDS:,} hands a night, audited in {TARGET_S // 60} "
        f"minutes, needs {need:,.0f} hands/s: at {per_worker:,.0f} hands/s per worker core "
        f"(the 1M night on 2 local workers, staging included) that is about "
        f"{-(-need // per_worker):.0f} worker cores, if staging and the final sort scale "
        "with them (see the text above)."
    )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(Path(sys.argv[2]), sys.argv[3])
    else:
        print(main())
