"""Output folders of a nightly run for ``explain --out``: suspicions.parquet and run.json."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from audit.fairplay.suspicion import Suspicion
from audit.output import write_suspicions
from tests.report.nights import suspicion

EVIDENCE = [
    suspicion(
        "fairplay.collusion", ("P1", "P2"), 1e-8, ["G7-01", "H1"], games=["G7", "G1"],
    ),
    suspicion("fairplay.soft_drop", ("P3", "P1"), 4e-4, ["H1"], games=["G1"]),
    suspicion("fairplay.bot", ("P9",), 1e-12, ["G8-01"]),
    suspicion(
        "fairplay.chip_dumping", ("P2", "P3"), 0.002, ["G9-01", "G9-02"],
        money="65.00 paid by P2 to P3; 0.00 back",
    ),
]  # fmt: skip
"""Suspicions of a night: H1 is evidence for the collusion and the soft drop only."""


def night(
    out: Path, suspicions: Sequence[Suspicion], fairplay: dict[str, Any] | None = None
) -> Path:
    """An output folder as far as ``explain --out`` reads it: run.json (``fairplay`` its
    entry; by default the detectors ran) and, when they ran, suspicions.parquet."""
    out.mkdir(parents=True, exist_ok=True)
    entry = fairplay or {"status": "run", "detectors": [], "suspicions": len(suspicions)}
    (out / "run.json").write_text(json.dumps({"fairplay": entry}), encoding="utf-8")
    if entry.get("status") == "run":
        write_suspicions(out / "suspicions.parquet", suspicions)
    return out
