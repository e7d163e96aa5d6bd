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
    text: str = ""
    """What the bar says, when not its value (an amount of money, exact)."""


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


def chart(
    id: str,
    title: str,
    bars: list[tuple[str, int, str]],
    empty: str,
    texts: list[str] | None = None,
) -> Chart:
    """Bars as long as their values against the longest; ``texts``, one per bar, say what
    each shows instead of its value (the value then only its length: money in minor units).
    """
    longest = max((value for _, value, _ in bars), default=0)
    shown = texts if texts is not None else [""] * len(bars)
    return Chart(
        id=id,
        title=title,
        bars=[
            Bar(label, value, max(1, round(100 * value / longest)) if value else 0, css, text)
            for (label, value, css), text in zip(bars, shown, strict=True)
        ],
        empty=empty,
    )
