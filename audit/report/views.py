"""View models of the nightly report, built from a run's outputs only (never the logs).

Templates receive these frozen values and nothing else, so a report can be re-rendered
from an output folder without replaying. Every count is an aggregate over the whole of
``findings.parquet`` and ``hands.parquet`` (DuckDB, out of core), and only the top rows
are embedded, so a night of a million findings still gives a page that opens at once;
the Parquet files are linked for the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from audit.findings import CATALOG, Severity
from audit.logs.validate import file_literal

TOP_ROWS = 2_000
"""Findings embedded in the filterable table."""
TOP_GAMES = 100
"""Games with discrepancies given a panel of their own."""
PER_GAME = 40
"""Findings listed in one game's panel."""
TOP_SUSPICIONS = 200
SEVERITIES = [s.value for s in sorted(Severity, key=lambda s: -s.rank)]
FAIR_PLAY = ("fairplay.", "rng.")
SCORE_BINS = (0, 1, 10, 20, 30, 40, 50, 60, 70, 80)
"""Lower edges of the score histogram's bins (points 0, 1-9, 10-19, ... 80 and more);
the SQL of ``_score_bars`` cuts the same bins."""

_RANK_SQL = (
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
    expected: str
    recorded: str
    message: str
    rule: str


@dataclass(frozen=True)
class GamePanel:
    game_id: str
    format: str
    ruleset: str
    worst: str
    total: int
    hands: int
    """Hands of the game with findings."""
    findings: list[FindingRow]


@dataclass(frozen=True)
class Suspicion:
    check: str
    severity: str
    players: str
    message: str
    evidence: list[str]
    """Hands (or games) the suspicion rests on."""


@dataclass(frozen=True)
class InputFile:
    table: str
    path: str
    rows: int
    size: int


@dataclass(frozen=True)
class ReportView:
    title: str
    version: str
    arguments: list[tuple[str, str]]
    inputs: list[InputFile]
    input_tables: list[tuple[str, int, int]]
    """Per table: files, rows."""
    missing_tables: list[str]
    hands: dict[str, int]
    hands_total: int
    quarantine_rows: int
    timings: list[tuple[str, float]]
    exit_status: int
    worst: str
    findings_total: int
    by_severity: list[tuple[str, int]]
    by_check: list[CheckRow]
    findings: list[FindingRow]
    checks: list[str]
    games_with_findings: int
    games: list[GamePanel]
    suspicions: list[Suspicion]
    suspicions_total: int
    shuffle: list[FindingRow]
    quarantine: list[tuple[str, str, str, str]]
    charts: list[Chart]


def build_view(out: Path) -> ReportView:
    """The report of the outputs in ``out``."""
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    db = duckdb.connect()
    try:
        for view, name in (("f", "findings"), ("h", "hands")):
            source = file_literal(str(out / f"{name}.parquet"))
            db.execute(f"CREATE VIEW {view} AS SELECT * FROM read_parquet({source})")
        return _view(db, run, out)
    finally:
        db.close()


def _view(db: duckdb.DuckDBPyConnection, run: dict[str, Any], out: Path) -> ReportView:
    counts = run["counts"]
    by_check = _by_check(db)
    severities = dict(_rows(db, "SELECT severity, count(*) FROM f GROUP BY severity"))
    suspicions, suspicions_total = _suspicions(db)
    return ReportView(
        title="rummy-audit nightly report",
        version=str(run["version"]),
        arguments=[(k, str(v)) for k, v in sorted(run["arguments"].items())],
        inputs=[InputFile(i["table"], i["path"], i["rows"], i["size"]) for i in run["inputs"]],
        input_tables=_input_tables(run["inputs"]),
        missing_tables=list(run.get("missing_optional_tables", [])),
        hands=counts["hands"],
        hands_total=counts["hands_total"],
        quarantine_rows=counts["quarantine_rows"],
        timings=[(k, float(v)) for k, v in run["timings_s"].items()],
        exit_status=int(run["exit_status"]),
        worst=run.get("worst_severity") or "none",
        findings_total=sum(severities.values()),
        by_severity=[(s, int(severities.get(s, 0))) for s in SEVERITIES],
        by_check=by_check,
        findings=_findings(db, f"ORDER BY {_order()} LIMIT {TOP_ROWS}"),
        checks=sorted({row.check for row in by_check}),
        games_with_findings=_one(db, "SELECT count(DISTINCT game_id) FROM f WHERE game_id <> ''"),
        games=_games(db),
        suspicions=suspicions,
        suspicions_total=suspicions_total,
        shuffle=_findings(
            db, f"WHERE starts_with(\"check\", 'rng.') ORDER BY {_order()} LIMIT 200"
        ),
        quarantine=_quarantine(db, out),
        charts=[
            _chart("chart-checks", "Findings per check", _check_bars(by_check), "No findings."),
            _chart("chart-formats", "Hands per format", _format_bars(db), "No hands."),
            _chart(
                "chart-scores",
                "Points charged to losing and dropping players",
                _score_bars(db),
                "No points recorded.",
            ),
            _chart(
                "chart-suspicions",
                "Fair-play suspicions by strength",
                _suspicion_bars(db),
                "No fair-play suspicion was raised.",
            ),
        ],
    )


def _rows(
    db: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | None = None
) -> list[tuple[Any, ...]]:
    return db.execute(sql, params).fetchall()


def _one(db: duckdb.DuckDBPyConnection, sql: str) -> int:
    row = db.execute(sql).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def _order() -> str:
    return (
        f'{_RANK_SQL}, "check", game_id, hand_id NULLS FIRST, seq NULLS FIRST, '
        "player_id NULLS FIRST, message"
    )


def _by_check(db: duckdb.DuckDBPyConnection) -> list[CheckRow]:
    rows = _rows(
        db,
        f'SELECT "check", severity, count(*) FROM f GROUP BY "check", severity '
        f'ORDER BY any_value({_RANK_SQL}), "check"',
    )
    return [
        CheckRow(check, severity, n, CATALOG[check].raised_when if check in CATALOG else "")
        for check, severity, n in rows
    ]


_COLUMNS = 'severity, "check", game_id, hand_id, player_id, seq, expected, recorded, message, rule'


def _findings(db: duckdb.DuckDBPyConnection, tail: str) -> list[FindingRow]:
    return [_finding(row) for row in _rows(db, f"SELECT {_COLUMNS} FROM f {tail}")]


def _finding(row: Sequence[Any]) -> FindingRow:
    severity, check, game, hand, player, seq, expected, recorded, message, rule = row
    return FindingRow(
        severity=severity,
        check=check,
        game_id=game,
        hand_id=hand or "",
        player_id=player or "",
        seq="" if seq is None else str(seq),
        expected=expected or "",
        recorded=recorded or "",
        message=message,
        rule=rule,
    )


def _games(db: duckdb.DuckDBPyConnection) -> list[GamePanel]:
    """The games with the worst findings first, each with its first ``PER_GAME`` findings."""
    top = _rows(
        db,
        f"""
        SELECT game_id, min({_RANK_SQL}) AS worst, count(*) AS n,
               count(DISTINCT hand_id) AS hands
        FROM f WHERE game_id <> '' AND severity <> 'info'
        GROUP BY game_id ORDER BY worst, n DESC, game_id LIMIT {TOP_GAMES}
        """,
    )
    if not top:
        return []
    ids = [row[0] for row in top]
    meta = {
        game: (fmt or "", ruleset or "")
        for game, fmt, ruleset in _rows(
            db,
            "SELECT game_id, any_value(format), any_value(ruleset) FROM h "
            "WHERE game_id IN (SELECT unnest($ids)) GROUP BY game_id",
            {"ids": ids},
        )
    }
    listed: dict[str, list[FindingRow]] = {game: [] for game in ids}
    for row in _rows(
        db,
        f"""
        SELECT {_COLUMNS} FROM (
          SELECT *, row_number() OVER (PARTITION BY game_id ORDER BY hand_id NULLS FIRST,
                 seq NULLS FIRST, {_RANK_SQL}, "check", player_id NULLS FIRST, message) AS k
          FROM f WHERE game_id IN (SELECT unnest($ids)) AND severity <> 'info')
        WHERE k <= {PER_GAME}
        ORDER BY game_id, k
        """,
        {"ids": ids},
    ):
        listed[row[2]].append(_finding(row))
    return [
        GamePanel(
            game_id=game,
            format=meta.get(game, ("", ""))[0],
            ruleset=meta.get(game, ("", ""))[1],
            worst=SEVERITIES[worst],
            total=n,
            hands=hands,
            findings=listed[game],
        )
        for game, worst, n, hands in top
    ]


def _suspicions(db: duckdb.DuckDBPyConnection) -> tuple[list[Suspicion], int]:
    """Fair-play findings, grouped by check and players, with the hands they rest on."""
    where = "starts_with(\"check\", 'fairplay.') OR starts_with(\"check\", 'rng.')"
    total = _one(db, f"SELECT count(*) FROM f WHERE {where}")
    rows = _rows(
        db,
        f"""
        SELECT "check", min({_RANK_SQL}) AS worst, coalesce(player_id, '') AS players,
               min(message) AS message,
               list(DISTINCT coalesce(hand_id, game_id) ORDER BY coalesce(hand_id, game_id))
        FROM f WHERE {where}
        GROUP BY "check", players
        ORDER BY worst, "check", players LIMIT {TOP_SUSPICIONS}
        """,
    )
    return [
        Suspicion(check, SEVERITIES[worst], players, message, [e for e in evidence if e][:30])
        for check, worst, players, message, evidence in rows
    ], total


def _quarantine(db: duckdb.DuckDBPyConnection, out: Path) -> list[tuple[str, str, str, str]]:
    path = out / "quarantine.parquet"
    if not path.exists():
        return []
    rows = _rows(
        db,
        f"SELECT \"table\", coalesce(file, ''), coalesce(hand_id, ''), reason "
        f"FROM read_parquet({file_literal(str(path))}) "
        'ORDER BY "table", file NULLS FIRST, "row" NULLS FIRST, hand_id NULLS FIRST, reason '
        "LIMIT 500",
    )
    return [(str(a), str(b), str(c), str(d)) for a, b, c, d in rows]


def _input_tables(inputs: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    files: dict[str, list[int]] = {}
    for item in inputs:
        entry = files.setdefault(item["table"], [0, 0])
        entry[0] += 1
        entry[1] += int(item["rows"])
    return [(table, n, rows) for table, (n, rows) in sorted(files.items())]


def _chart(id: str, title: str, bars: list[tuple[str, int, str]], empty: str) -> Chart:
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


def _check_bars(rows: list[CheckRow]) -> list[tuple[str, int, str]]:
    totals: dict[str, tuple[int, str]] = {}
    for row in rows:
        count, severity = totals.get(row.check, (0, row.severity))
        totals[row.check] = (count + row.count, severity)
    ordered = sorted(totals.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return [(check, n, f"sev-{severity}") for check, (n, severity) in ordered]


def _format_bars(db: duckdb.DuckDBPyConnection) -> list[tuple[str, int, str]]:
    rows = _rows(
        db,
        "SELECT coalesce(format, 'unknown'), status, count(*) FROM h GROUP BY ALL ORDER BY 1, 2",
    )
    return [(f"{fmt.replace('_', ' ')}: {status}", n, f"st-{status}") for fmt, status, n in rows]


def _score_bars(db: duckdb.DuckDBPyConnection) -> list[tuple[str, int, str]]:
    if "points" not in {row[0] for row in _rows(db, "DESCRIBE h")}:
        return []  # outputs written before hands.parquet carried the points
    rows = dict(
        _rows(
            db,
            """
            SELECT bin, count(*) FROM (
              SELECT CASE WHEN p <= 0 THEN 0 WHEN p >= 80 THEN 80
                          ELSE greatest(1, (p // 10) * 10) END AS bin
              FROM (SELECT unnest(points) AS p, unnest(outcomes) AS o FROM h
                    WHERE points IS NOT NULL)
              WHERE o <> 'won')
            GROUP BY bin
            """,
        )
    )
    bars = []
    for i, low in enumerate(SCORE_BINS):
        high = SCORE_BINS[i + 1] - 1 if i + 1 < len(SCORE_BINS) else None
        label = str(low) if high == low else f"{low}-{high}" if high else f"{low}+"
        bars.append((f"{label} points", int(rows.get(low, 0)), ""))
    return bars if any(n for _, n, _ in bars) else []


def _suspicion_bars(db: duckdb.DuckDBPyConnection) -> list[tuple[str, int, str]]:
    rows = dict(
        _rows(
            db,
            "SELECT severity, count(*) FROM f WHERE starts_with(\"check\", 'fairplay.') "
            "OR starts_with(\"check\", 'rng.') GROUP BY severity",
        )
    )
    return [(s, int(rows[s]), f"sev-{s}") for s in SEVERITIES if rows.get(s)]
