"""Benchmark of the fair-play detectors: how right they are, and how fast.

Accuracy: for three seeds, a night of 10,000 games with every fair-play kind planted and a
night of 10,000 games with nothing planted, each simulated, replayed and scored against
the planted truth (``audit.sim.score``): each detector's precision and recall for its kind
at the default thresholds, and the accounts suspected on the honest nights per 10,000
players.

Speed: a night of about a million hands (simulated and replayed once, cached under
benchmarks/out/), then ``rummy-audit fairplay`` over it in a child process: wall clock, the
detectors' own time (run.json) and the peak RSS.

Prints Markdown; ``run.py`` writes it into benchmarks/README.md.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import duckdb

from audit.run import replay_logs
from audit.sim import simulate
from audit.sim.score import Score, score, suspected_accounts

HERE = Path(__file__).resolve().parent
CACHE = HERE / "out"
BIN = Path(sys.executable).parent
SEEDS = (1, 2, 3)
GAMES = 10_000
BIG_GAMES = 300_000  # about a million hands


def night(games: int, seed: int, anomalies: str) -> Path:
    """A simulated and replayed night (cached): its folder holds logs/ and out/."""
    root = CACHE / f"fairplay-{games}-{seed}-{anomalies or 'none'}"
    done = root / ".done"
    if not done.exists():
        if root.exists():
            subprocess.run(["rm", "-rf", str(root)], check=True)
        simulate(games=games, out=root / "logs", seed=seed, anomalies=anomalies)
        replay_logs(logs=root / "logs", out=root / "out", progress=False)
        done.write_text("ok\n")
    return root


def players(logs: Path) -> int:
    rows = duckdb.sql(
        "SELECT count(DISTINCT player_id) FROM read_parquet($p, hive_partitioning=false)",
        params={"p": str(logs / "sessions" / "**" / "*.parquet")},
    ).fetchall()
    return int(rows[0][0])


def accuracy() -> str:
    per_seed: list[str] = []
    pooled: dict[str, list[Score]] = defaultdict(list)
    for seed in SEEDS:
        root = night(GAMES, seed, "fairplay")
        for s in score(root / "out" / "suspicions.parquet", root / "logs" / "labels.parquet"):
            pooled[s.check].append(s)
            per_seed.append(
                f"| {seed} | `{s.check}` | {s.suspicions} | {s.precision:.2f} | "
                f"{s.found}/{s.groups} | {s.recall:.2f} |"
            )
    rows = ["| detector | suspicions | precision | planted groups found | recall |",
            "|---|---|---|---|---|"]  # fmt: skip
    for check, scores in pooled.items():
        n, true = sum(s.suspicions for s in scores), sum(s.true for s in scores)
        groups, found = sum(s.groups for s in scores), sum(s.found for s in scores)
        rows.append(
            f"| `{check}` | {n} | {true / n if n else 1:.3f} | {found}/{groups} | "
            f"{found / groups if groups else 1:.3f} |"
        )
    honest = ["| seed | players | accounts suspected | per 10,000 players |", "|---|---|---|---|"]
    total_players = total_accounts = 0
    for seed in SEEDS:
        root = night(GAMES, seed, "")
        n, suspected = players(root / "logs"), len(suspected_accounts(
            root / "out" / "suspicions.parquet"))  # fmt: skip
        total_players, total_accounts = total_players + n, total_accounts + suspected
        honest.append(f"| {seed} | {n:,} | {suspected} | {10_000 * suspected / n:.2f} |")
    honest.append(
        f"| all | {total_players:,} | {total_accounts} | "
        f"{10_000 * total_accounts / total_players:.2f} |"
    )
    return (
        f"Planted nights ({GAMES:,} games each, seeds {', '.join(map(str, SEEDS))}, "
        "`--anomalies fairplay`), pooled:\n\n" + "\n".join(rows)
        + "\n\nPer seed:\n\n| seed | detector | suspicions | precision | found | recall |\n"
        "|---|---|---|---|---|---|\n" + "\n".join(per_seed)
        + f"\n\nHonest nights ({GAMES:,} games each, nothing planted):\n\n" + "\n".join(honest)
    )


def shared_games(root: Path) -> dict[str, float]:
    """Kind -> the median number of games a planted group sat at together."""
    con = duckdb.connect()
    con.execute(
        "CREATE VIEW s AS SELECT * FROM read_parquet($p, hive_partitioning=false)",
        {"p": str(root / "logs" / "sessions" / "**" / "*.parquet")},
    )
    con.execute(
        "CREATE VIEW l AS SELECT * FROM read_parquet($p)",
        {"p": str(root / "logs" / "labels.parquet")},
    )
    rows = con.sql(
        "WITH grp AS (SELECT DISTINCT kind, players FROM l WHERE len(players) > 1)"
        " SELECT kind, median((SELECT count(*) FROM (SELECT game_id FROM s"
        "   WHERE list_contains(players, player_id) GROUP BY game_id"
        "   HAVING count(DISTINCT player_id) = len(players))))"
        " FROM grp GROUP BY kind ORDER BY kind"
    ).fetchall()
    return {kind: float(n) for kind, n in rows}


def power(keens: tuple[float, ...] = (0.5, 0.25, 0.12), games: int = 4_000) -> str:
    """Recall as colluders play less: the simulator's PAIR_KEEN (the chance a free group
    takes a table together) halved and halved again, one room at a time in this process."""
    import audit.sim as sim

    kept = sim.PAIR_KEEN
    lines = ["| PAIR_KEEN | median games shared (feeding, soft drop, dumping, shared, ring) | "
             + " | ".join(f"`{c.removeprefix('fairplay.')}`" for c in RECALL) + " |",
             "|---|---|" + "---|" * len(RECALL)]  # fmt: skip
    try:
        for keen in keens:
            sim.PAIR_KEEN = keen
            root = CACHE / f"fairplay-power-{games}-{keen}"
            if not (root / ".done").exists():
                if root.exists():
                    subprocess.run(["rm", "-rf", str(root)], check=True)
                simulate(games=games, out=root / "logs", seed=4, anomalies="fairplay", workers=1)
                replay_logs(logs=root / "logs", out=root / "out", progress=False)
                (root / ".done").write_text("ok\n")
            shares = shared_games(root)
            found = {s.check: s for s in score(root / "out" / "suspicions.parquet",
                                               root / "logs" / "labels.parquet")}  # fmt: skip
            kinds = ("collusion_feeding", "soft_drop", "chip_dumping", "multi_account",
                     "collusion_ring")  # fmt: skip
            lines.append(
                f"| {keen} | {', '.join(f'{shares.get(k, 0):.0f}' for k in kinds)} | "
                + " | ".join(f"{found[c].found}/{found[c].groups}" for c in RECALL) + " |"
            )
    finally:
        sim.PAIR_KEEN = kept
    return "\n".join(lines)


RECALL = ("fairplay.co_seating", "fairplay.shared_device", "fairplay.collusion",
          "fairplay.soft_drop", "fairplay.chip_dumping", "fairplay.ring")  # fmt: skip


def speed() -> str:
    root = CACHE / f"fairplay-big-{BIG_GAMES}"
    logs, replayed = root / "logs", root / "replayed"
    if not (root / ".simulated").exists():
        subprocess.run(["rm", "-rf", str(logs)], check=True)
        simulate(games=BIG_GAMES, out=logs, seed=20261201, anomalies="fairplay")
        (root / ".simulated").write_text("ok\n")
    if not (root / ".done").exists():
        subprocess.run(
            [str(BIN / "rummy-audit"), "replay", str(logs), "--out", str(replayed),
             "--no-fairplay", "--no-progress", "--fail-on", "critical"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        (root / ".done").write_text("ok\n")
    hands = json.loads((replayed / "run.json").read_text())["counts"]["hands_total"]
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "out"
        subprocess.run(["cp", "-r", str(replayed), str(out)], check=True)
        start = time.perf_counter()
        subprocess.run(
            [str(BIN / "rummy-audit"), "fairplay", str(logs), "--out", str(out),
             "--fail-on", "critical"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wall = time.perf_counter() - start
        run = json.loads((out / "run.json").read_text())
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    detectors = run["timings_s"]["fairplay"]
    found = run["fairplay"]["suspicions"]
    return (
        "| hands | `rummy-audit fairplay` wall clock (s) | of which the detectors (s) "
        "| peak RSS (MiB) | suspicions |\n|---|---|---|---|---|\n"
        f"| {hands:,} | {wall:.1f} | {detectors:.1f} | {peak:.0f} | {found} |"
    )


def main() -> str:
    return (
        accuracy()
        + "\n\nRecall when colluders play less (seed 4, 4,000 games, groups found / planted):\n\n"
        + power()
        + "\n\nSpeed:\n\n"
        + speed()
    )


if __name__ == "__main__":
    parts = {"accuracy": accuracy, "power": power, "speed": speed}
    print("\n\n".join(parts[name]() for name in sys.argv[1:]) if sys.argv[1:] else main())
