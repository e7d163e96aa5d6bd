"""What the report's view models share: severities in order, bars and charts, and the two
ways they query the outputs (DuckDB, parameters bound)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb

from audit.findings import Severity

SEVERITIES = [s.value for s in sorted(Severity, key=lambda s: -s.rank)]


RANK_SQL = (
    "CASE severity WHEN 'critical' THEN 0 WHEN 'major' THEN 1 WHEN 'minor' THEN 2 ELSE 3 END"
)


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    width: int
    """Of 100: the bar's length against the chart's longest."""
    css: str = ""


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    bars: list[Bar]
    empty: str
    """What the chart says when it has no bars."""


def query(
    db: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None
) -> list[tuple[Any, ...]]:
    return db.execute(sql, params).fetchall()


def query_one(db: duckdb.DuckDBPyConnection, sql: str) -> int:
    row = db.execute(sql).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def chart(id: str, title: str, bars: list[tuple[str, int, str]], empty: str) -> Chart:
    longest = max((value for _, value, _ in bars), default=0)
    return Chart(
        id=id,
        title=title,
        bars=[
            Bar(label, value, max(1, round(100 * value / longest)) if value else 0, css)
            for label, value, css in bars
        ],
        empty=empty,
    )
