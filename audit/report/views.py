"""View models of the nightly report, built from a run's outputs only (never the logs).

Templates receive these frozen values and nothing else, so a report can be re-rendered
from an output folder without replaying.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from audit.findings import CATALOG, Severity

TOP_ROWS = 2_000
"""Findings embedded in the page; the rest stay in findings.parquet, linked."""


@dataclass(frozen=True)
class CheckRow:
    check: str
    severity: str
    count: int
    raised_when: str


@dataclass(frozen=True)
class FindingRow:
    severity: str
    check: str
    game_id: str
    hand_id: str
    player_id: str
    seq: str
    message: str
    rule: str


@dataclass(frozen=True)
class ReportView:
    title: str
    version: str
    hands: dict[str, int]
    hands_total: int
    quarantine_rows: int
    findings_total: int
    by_severity: list[tuple[str, int]]
    by_check: list[CheckRow]
    findings: list[FindingRow]
    findings_shown: int
    inputs: list[dict[str, Any]]
    timings: dict[str, float]


def build_view(out: Path) -> ReportView:
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    table = pq.read_table(out / "findings.parquet")
    rows = table.to_pylist()
    order = {s.value: -s.rank for s in Severity}
    rows.sort(key=lambda r: (order[r["severity"]], r["check"], r["game_id"], r["hand_id"] or ""))
    counts = Counter((r["check"], r["severity"]) for r in rows)
    by_check = [
        CheckRow(check, severity, n, CATALOG[check].raised_when if check in CATALOG else "")
        for (check, severity), n in sorted(
            counts.items(), key=lambda kv: (order[kv[0][1]], kv[0][0])
        )
    ]
    severities = Counter(r["severity"] for r in rows)
    return ReportView(
        title="rummy-audit nightly report",
        version=run["version"],
        hands=run["counts"]["hands"],
        hands_total=run["counts"]["hands_total"],
        quarantine_rows=run["counts"]["quarantine_rows"],
        findings_total=len(rows),
        by_severity=[(s.value, severities.get(s.value, 0)) for s in Severity],
        by_check=by_check,
        findings=[
            FindingRow(
                severity=r["severity"],
                check=r["check"],
                game_id=r["game_id"],
                hand_id=r["hand_id"] or "",
                player_id=r["player_id"] or "",
                seq="" if r["seq"] is None else str(r["seq"]),
                message=r["message"],
                rule=r["rule"],
            )
            for r in rows[:TOP_ROWS]
        ],
        findings_shown=min(len(rows), TOP_ROWS),
        inputs=run["inputs"],
        timings=run["timings_s"],
    )
