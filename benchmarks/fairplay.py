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
from typing import Any

import duckdb

from audit.run import fairplay_logs, replay_logs
from audit.sim import simulate
from audit.sim.score import (
    RECALL_KINDS,
    Score,
    found_groups,
    planted_groups,
    score,
    suspected_accounts,
)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests.fairplay.night: the synthetic nights
CACHE = HERE / "out"
BIN = Path(sys.executable).parent
SEEDS = (1, 2, 3)
GAMES = 10_000
BIG_GAMES = 300_000  # about a million hands


def night(games: int, seed: int, anomalies: str) -> Path:
    """A simulated and replayed night: its folder holds logs/ and out/. The simulation and
    the replay are cached; the detectors run afresh every time, so the figures are always
    today's detectors'."""
    root = CACHE / f"fairplay-{games}-{seed}-{anomalies or 'none'}"
    done = root / ".done"
    if not done.exists():
        if root.exists():
            subprocess.run(["rm", "-rf", str(root)], check=True)
        simulate(games=games, out=root / "logs", seed=seed, anomalies=anomalies)
        replay_logs(logs=root / "logs", out=root / "out", progress=False, fairplay=False,
                    rng=False)
        done.write_text("ok\n")
    fairplay_logs(logs=root / "logs", out=root / "out")
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
            recall = f"{s.recall:.2f}" if s.groups else "not planted"
            per_seed.append(
                f"| {seed} | `{s.check}` | {s.suspicions} | {s.precision:.2f} | "
                f"{s.found}/{s.groups} | {recall} |"
            )
    rows = ["| detector | suspicions | precision | planted groups found | recall |",
            "|---|---|---|---|---|"]  # fmt: skip
    for check, scores in pooled.items():
        n, true = sum(s.suspicions for s in scores), sum(s.true for s in scores)
        groups, found = sum(s.groups for s in scores), sum(s.found for s in scores)
        recall = f"{found / groups:.3f}" if groups else "not planted"
        rows.append(
            f"| `{check}` | {n} | {true / n if n else 1:.3f} | {found}/{groups} | {recall} |"
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


def shared(root: Path) -> dict[tuple[str, ...], int]:
    """Each planted group (its accounts) -> the games it sat at together."""
    rows = duckdb.sql(
        "WITH s AS (SELECT * FROM read_parquet($s, hive_partitioning=false)),"
        " grp AS (SELECT DISTINCT players FROM read_parquet($l) WHERE len(players) > 1)"
        " SELECT players, (SELECT count(*) FROM (SELECT game_id FROM s"
        "   WHERE list_contains(grp.players, player_id) GROUP BY game_id"
        "   HAVING count(DISTINCT player_id) = len(grp.players))) FROM grp",
        params={"s": str(root / "logs" / "sessions" / "**" / "*.parquet"),
                "l": str(root / "logs" / "labels.parquet")},
    ).fetchall()
    return {tuple(players): int(n) for players, n in rows}


BINS = ((0, 9), (10, 13), (14, 17), (18, 10_000))
"""Games a group shared, in bins: how recall falls as colluders play less."""


def by_volume() -> str:
    """Recall for each detector's kind by how many games the planted group shared, pooled
    over the accuracy nights: what a colluder who plays half as often would meet."""
    counts: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])
    for seed in SEEDS:
        root = night(GAMES, seed, "fairplay")
        volume = shared(root)
        labels = root / "logs" / "labels.parquet"
        groups = planted_groups(labels)
        found = found_groups(root / "out" / "suspicions.parquet", labels)
        for check, kinds in RECALL_KINDS.items():
            if check in ("fairplay.bot", "fairplay.co_seating"):
                continue
            for kind in kinds:
                for group in groups.get(kind, ()):
                    games = volume.get(group, 0)
                    b = next(i for i, (lo, hi) in enumerate(BINS) if lo <= games <= hi)
                    cell = counts[check, b]
                    cell[0] += (kind, group) in found[check][2]
                    cell[1] += 1
    checks = [c for c, kinds in RECALL_KINDS.items()
              if kinds and c not in ("fairplay.bot", "fairplay.co_seating")]  # fmt: skip
    head = "| games shared | " + " | ".join(f"`{c.removeprefix('fairplay.')}`" for c in checks)
    lines = [head + " |", "|---|" + "---|" * len(checks)]
    for b, (lo, hi) in enumerate(BINS):
        label = f"{lo}-{hi}" if hi < 10_000 else f"{lo}+"
        cells = [f"{counts[c, b][0]}/{counts[c, b][1]}" if counts[c, b][1] else "-" for c in checks]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def half_as_often(volumes: tuple[int, ...] = (3, 5, 8, 12), seeds: int = 5) -> str:
    """The detectors on synthetic nights (tests/fairplay/night.py: 300 players, 900 games,
    other seat counts and think times than the simulator's) with one planted pair of each
    kind sharing a given number of games, and bots with a given jitter: how often each is
    found (of ``seeds`` nights)."""
    from dataclasses import replace as with_

    from audit.fairplay import detectors as d
    from audit.fairplay import flows
    from audit.fairplay.engine import Settings
    from audit.rules.ruleset import FORMATS
    from tests.fairplay.night import Night

    settings = with_(Settings(), drop_formats=tuple(f"standard-13|{f}" for f in FORMATS[:3]))
    plants = {
        "collusion (taken 60 % against 20 %)": ("feeding", lambda n: n.feeds.update(
            {("P0010", "P0011"): 0.6}), d.feeding),
        "soft_drop (half the hands)": ("soft", lambda n: n.soft.update(
            {("P0010", "P0011"): 0.5}), d.soft_drop),
        "chip_dumping": ("dumps", lambda n: n.dumps.add(("P0010", "P0011")), flows.chip_dumping),
        "shared_device": ("device", lambda n: n.device.update(
            {"P0011": n.device["P0010"]}), d.shared_identity),
    }  # fmt: skip
    lines = ["| planted pair | " + " | ".join(f"{v} games" for v in volumes) + " |",
             "|---|" + "---|" * len(volumes)]  # fmt: skip
    for name, (_, plant, detector) in plants.items():
        cells = []
        for volume in volumes:
            hits = 0
            for seed in range(1, seeds + 1):
                night = Night(seed=seed)
                plant(night)
                night.together.append((("P0010", "P0011"), volume))
                con = night.build().load()
                if detector is d.shared_identity:
                    d.co_seating(con, settings)
                found = {s.players for s in detector(con, settings).suspicions}
                hits += ("P0010", "P0011") in found
            cells.append(f"{hits}/{seeds}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n" + jitter(seeds)


def jitter(seeds: int = 5) -> str:
    """Bots on synthetic nights drawing each decision time uniformly within a given jitter
    of 1.2 s, or of 1.0 s for a draw and 2.5 s for a discard (a bot that copies a person's
    slower plays): how often each is found (of ``seeds`` nights)."""
    from audit.fairplay import detectors as d
    from audit.fairplay.engine import Settings
    from tests.fairplay.night import Night

    settings = Settings()
    jitters = (0.03, 0.10, 0.15, 0.20, 0.30)
    rows = []
    for name, base, slower in (("one delay, 1.2 s", 1.2, 1.0),
                               ("draws 1.0 s, discards 2.5 s", 1.0, 2.5)):  # fmt: skip
        cells = []
        for spread in jitters:
            hits = 0
            for seed in range(1, seeds + 1):
                night = Night(seed=seed)
                night.uniform_think["P0010"] = (base * (1 - spread), base * (1 + spread))
                night.slower_plays["P0010"] = slower
                found = {s.players for s in d.bots(night.build().load(), settings).suspicions}
                hits += ("P0010",) in found
            cells.append(f"{hits}/{seeds}")
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(["| bot, decision time +- | " + " | ".join(f"{j:.0%}" for j in jitters)
                      + " |", "|---|" + "---|" * len(jitters), *rows])  # fmt: skip


def speed_night() -> tuple[Path, Path]:
    """The million-hand night, simulated and replayed once (cached): its logs and the
    replay's output folder (without fair play or shuffle tests)."""
    root = CACHE / f"fairplay-big-{BIG_GAMES}"
    logs, replayed = root / "logs", root / "replayed"
    if not (root / ".simulated").exists():
        subprocess.run(["rm", "-rf", str(logs)], check=True)
        simulate(games=BIG_GAMES, out=logs, seed=20261201, anomalies="fairplay")
        (root / ".simulated").write_text("ok\n")
    if not (root / ".done").exists():
        subprocess.run(
            [str(BIN / "rummy-audit"), "replay", str(logs), "--out", str(replayed),
             "--no-fairplay", "--no-rng", "--no-progress", "--fail-on", "critical"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        (root / ".done").write_text("ok\n")
    return logs, replayed


def time_pass(command: str) -> tuple[int, float, dict[str, Any], float]:
    """``rummy-audit COMMAND`` (``fairplay`` or ``rng``) alone over a copy of the replay of
    the million-hand night: its hands, wall clock, run.json and the peak RSS (MiB) of the
    largest child process so far."""
    logs, replayed = speed_night()
    hands = json.loads((replayed / "run.json").read_text())["counts"]["hands_total"]
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "out"
        subprocess.run(["cp", "-r", str(replayed), str(out)], check=True)
        start = time.perf_counter()
        subprocess.run(
            [str(BIN / "rummy-audit"), command, str(logs), "--out", str(out),
             "--fail-on", "critical"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wall = time.perf_counter() - start
        run = json.loads((out / "run.json").read_text())
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return hands, wall, run, peak


def speed() -> str:
    hands, wall, run, peak = time_pass("fairplay")
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
        + "\n\nRecall by the games a planted group shared (the same nights; found / planted):"
        "\n\n"
        + by_volume()
        + "\n\nHalf as often, and jitter (synthetic nights, found in 5 seeds):\n\n"
        + half_as_often()
        + "\n\nSpeed:\n\n"
        + speed()
    )


if __name__ == "__main__":
    parts = {"accuracy": accuracy, "volume": by_volume, "half": half_as_often,
             "jitter": jitter, "speed": speed}
    print("\n\n".join(parts[name]() for name in sys.argv[1:]) if sys.argv[1:] else main())
