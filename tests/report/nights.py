"""Nights the report tests read: a small replayed log, and a synthetic big night.

``small_night``: four games written with the scenario DSL and replayed: a points-rummy
dispute (three findings), a 101-pool hand the record gets right, and the dispute twice
again with hostile player ids (``<script>``, and quotes). ``big_night``: an output folder written
directly, with a million findings (fair-play and shuffle ones among them), as a run over a
huge night would leave it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from audit.output import FINDINGS_SCHEMA, HANDS_SCHEMA, QUARANTINE_SCHEMA
from audit.run import replay_logs
from tests.explain.hands import DISPUTE, INVALID
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario

HOSTILE = "<script>alert(1)</script>"
QUOTED = "O'Hara\"&"


def renamed(hand: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``hand`` with its players renamed (seats, events and results)."""

    def name(text: str) -> str:
        words = text.split(" ")
        return " ".join([names.get(words[0], words[0]), *words[1:]])

    out = dict(hand)
    out["seats"] = {names.get(p, p): cards for p, cards in hand["seats"].items()}
    out["events"] = [name(event) for event in hand["events"]]
    out["results"] = {names.get(p, p): r for p, r in hand["results"].items()}
    return out


def small_night(root: Path) -> Path:
    """Write and replay the small night under ``root`` (relative paths ``logs``, ``out``,
    so nothing in the outputs names the machine); returns ``root / "out"``."""
    pairs = [
        scenario(**DISPUTE, game_id="G1", hand_id="G1-01"),
        scenario(**INVALID, game_id="G2", hand_id="G2-01"),
        scenario(**renamed(DISPUTE, {"P2": HOSTILE}), game_id="G3", hand_id="G3-01"),
        scenario(**renamed(DISPUTE, {"P2": QUOTED}), game_id="G4", hand_id="G4-01"),
    ]
    write_log(root / "logs", pairs)
    replay_logs(logs=Path("logs"), out=Path("out"), workers=1, progress=False)
    return root / "out"


def big_night(out: Path, findings: int = 1_000_000) -> Path:
    """An output folder holding ``findings`` findings over 100,000 games."""
    out.mkdir(parents=True, exist_ok=True)
    n = findings
    checks = ["score.points", "drop.penalty", "ledger.balance", "deck.composition",
              "fairplay.collusion", "rng.shuffle"]  # fmt: skip
    severities = {"score.points": "major", "drop.penalty": "major", "ledger.balance": "critical",
                  "deck.composition": "critical", "fairplay.collusion": "minor",
                  "rng.shuffle": "info"}  # fmt: skip
    check = [checks[i % len(checks)] for i in range(n)]
    game = [f"G{i % 100_000:06d}" for i in range(n)]
    columns = {
        "check": check,
        "severity": [severities[c] for c in check],
        "game_id": game,
        "hand_id": [f"{g}-{i % 7 + 1:02d}" for i, g in enumerate(game)],
        "player_id": [f"P{i % 9_973:05d}" for i in range(n)],
        "seq": [i % 60 for i in range(n)],
        "expected": ["20"] * n,
        "recorded": ["25"] * n,
        "message": ["The record charged 25 points where the rules give 20."] * n,
        "rule": ["points.card_points: Cards 2 to 10 count their face value (001_)"] * n,
    }
    pq.write_table(pa.Table.from_pydict(columns, schema=FINDINGS_SCHEMA), out / "findings.parquet")
    hands = 200_000
    pq.write_table(
        pa.Table.from_pydict(
            {
                "hand_id": [f"G{i // 2:06d}-{i % 2 + 1:02d}" for i in range(hands)],
                "game_id": [f"G{i // 2:06d}" for i in range(hands)],
                "hand_no": [i % 2 + 1 for i in range(hands)],
                "format": ["points", "pool_101", "pool_201", "deals"] * (hands // 4),
                "ruleset": ["standard-13"] * hands,
                "players": [4] * hands,
                "status": ["discrepancy"] * hands,
                "findings": [5] * hands,
                "worst_severity": ["critical"] * hands,
                "reason": [None] * hands,
                "outcomes": [["won", "lost", "first_drop", "lost"]] * hands,
                "points": [[0, 35, 20, 80]] * hands,
            },
            schema=HANDS_SCHEMA,
        ),
        out / "hands.parquet",
    )
    pq.write_table(QUARANTINE_SCHEMA.empty_table(), out / "quarantine.parquet")
    run = {
        "tool": "rummy-audit",
        "version": "0.0.0",
        "output_version": "1",
        "arguments": {"logs": "logs", "out": "out", "workers": 2, "fail_on": "major"},
        "inputs": [
            {
                "table": "events",
                "path": "events/part-0.parquet",
                "size": 1,
                "rows": 1,
                "sha256": "0" * 64,
            }
        ],
        "missing_optional_tables": [],
        "counts": {
            "hands": {"verified": 0, "discrepancy": hands, "quarantined": 0},
            "hands_total": hands,
            "quarantine_rows": 0,
        },
        "timings_s": {"total": 1.0},
        "worst_severity": "critical",
        "exit_status": 1,
    }
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return out
