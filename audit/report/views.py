"""View models of the nightly report, built from a run's outputs only (never the logs).

Templates receive these frozen values and nothing else, so a report can be re-rendered
from an output folder without replaying. Every count is an aggregate over the whole of
``findings.parquet`` and ``hands.parquet`` (DuckDB, out of core), and only the top rows
are embedded, so a night of a million findings still gives a page that opens at once;
the Parquet files are linked for the rest.

The fair-play section reads ``suspicions.parquet`` (already in strength order) and the
``"fairplay"`` entry of run.json: a run without that entry, or one that says the detectors
did not run, is reported as *not run*, never as a clean night.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from audit import duck
from audit.duck import file_literal
from audit.findings import CATALOG
from audit.output import read_run
from audit.report.base import RANK_SQL, SEVERITIES, Chart, chart, query, query_one
from audit.report.fairplay import (
    FairPlayRun,
    RingGraph,
    SuspicionRef,
    SuspicionRow,
    evidence_refs,
    fairplay_run,
    rings,
    suspicion_chart,
    top_suspicions,
)
from audit.report.history import HistoryView, history_view
from audit.report.shuffle import Commitments, ShuffleRun, commitments, shuffle_run

TOP_ROWS = 2_000
"""Findings embedded in the filterable table."""
TOP_GAMES = 100
"""Games with discrepancies given a panel of their own."""
PER_GAME = 40
"""Findings listed in one game's panel."""
EVIDENCE_ROWS = 1_000
"""Findings listed in all the panels of evidence games together (at least one a game)."""
SCORE_BINS = (0, 1, 10, 20, 30, 40, 50, 60, 70, 80)
"""Lower edges of the score histogram's bins (points 0, 1-9, 10-19, ... 80 and more);
the SQL of ``_score_bars`` cuts the same bins. A night charging more than 80 points (21-
and 27-card games, whose cap is 120) has ``WIDE_BINS`` on top."""
WIDE_BINS = (90, 100, 110, 120)
"""Further bins (80-89 ... 120 and more) on a night with a charge above 80: its 21- or
27-card losers are not all lumped into "80+" with the 13-card full counts."""


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
    """The worst severity of its findings other than info; ``none`` when it has none."""
    total: int
    """Its findings other than info."""
    hands: int
    """Hands of the game with findings."""
    findings: list[FindingRow]
    suspicions: list[SuspicionRef]
    """The listed fair-play suspicions the game is evidence for."""
    info: int = 0
    """Its info findings: counted in findings.parquet, not listed in the panel (a panel
    said "3 findings" of a game with 6, a blind tester)."""


@dataclass(frozen=True)
class InputFile:
    table: str
    path: str
    rows: int
    size: int


@dataclass(frozen=True)
class Instant:
    """A moment run.json states, for the page: ``2026-11-29 18:42:05 UTC``."""

    iso: str
    """As run.json has it (ISO 8601); the ``datetime`` of a ``<time>``."""
    text: str


@dataclass(frozen=True)
class ReportView:
    title: str
    version: str
    run_at: Instant | None
    """When the run was made (run.json's ``run_at``); None when it does not say (an older
    run.json). It changes from run to run, so the page marks it volatile."""
    hands_from: Instant | None
    """When the first hand audited started (run.json's ``hands_span``); None when unknown."""
    hands_to: Instant | None
    """When the last hand audited ended; None when unknown."""
    arguments: list[tuple[str, str]]
    inputs: list[InputFile]
    input_tables: list[tuple[str, int, int]]
    """Per table: files, rows."""
    missing_tables: list[str]
    """The optional tables the log root has no readable file of (run.json's
    ``missing_optional_tables``): absent, or every file unreadable (``unreadable``)."""
    hands: dict[str, int]
    hands_total: int
    """Every hand of the input (``hands.parquet``), replayed or quarantined: those read
    from the hands table and those other tables name whose hands row could not be read
    (``lost_hands``)."""
    quarantine_rows: int
    unreadable: list[tuple[str, str, str]]
    """Input files that could not be read: (table, path, why). The report leads with them."""
    lost_hands: int
    """Hands other tables name whose hands row could not be read (quarantined)."""
    skipped: list[tuple[str, str]]
    """(table, path) of the files not read as a writer's own (run.json's ``skipped_files``:
    a name starting with ``.`` or ``_``)."""
    ignored: list[tuple[str, str, int]]
    """(table, column, files) of the columns the contract does not name (run.json's
    ``ignored_columns``): read by no check."""
    unused: list[tuple[str, str, str, int]]
    """(table, column, format, rows) of the values in a column the game's format gives no
    meaning to (run.json's ``ignored_values``): read by no check."""
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
    """The ``top_games`` worst games, then the other evidence games of the listed
    suspicions."""
    top_games: int
    fairplay: FairPlayRun
    suspicions: list[SuspicionRow]
    suspicions_total: int
    rings: list[RingGraph]
    shuffle: ShuffleRun
    commitment: int
    """deck.commitment findings: the provably-fair check of each hand's shuffle."""
    commitments: Commitments
    """The hands that carried a provably-fair commitment, and what of each was checked."""
    quarantine: list[tuple[str, str, str, str, str]]
    """The quarantine rows listed: table, file, hand, check, why; the causes first."""
    charts: list[Chart]
    history: HistoryView | None = None
    """The nights so far, when a nightly run wrote the outputs (their ``history/``); None
    for a plain replay, whose report has no trend section."""
    game_counts: dict[str, int] | None = None
    """run.json's ``counts.games`` (``consistency.GAME_COUNTS``): the games audited, those
    still running and those with a game-level check not run; None for an older run.json,
    whose report does not count games."""
    unchecked_by_file: int = 0
    """Of ``game_counts``' unchecked, the games with no ``game.unchecked``: a quarantined
    hand's, the game not running, which a refused file's ``input.file`` says it took
    (schemas/output.md); the others' ``game.unchecked`` says which and why (until 2026-12-06
    the page sent a reader to "0 game.unchecked findings" for 9 such games: a blind tester)."""
    passes: list[tuple[str, str]] = field(default_factory=list)
    """(command, fail_on) of each later ``fairplay`` or ``rng`` run over the replay, in
    order (run.json's ``passes``): the arguments row is the replay's, so a page showed
    ``fairplay=False rng=False`` above sections those passes ran (a blind tester)."""
    rulesets: list[tuple[str, str, str, str]] = field(default_factory=list)
    """The platform rulesets the run loaded (``--rules``): id, file, the first 12 hex digits
    of the file's sha256, the id it extends (``""``: none)."""
    copied: list[tuple[str, str]] = field(default_factory=list)
    """(path, same as): files not read as copies of an earlier one (run.json's
    ``copied_files``, ``footer.one_of_each``)."""

    @property
    def replayed(self) -> int:
        """The hands replayed: every hand but the quarantined, the only hands the fair-play
        detectors, the shuffle tests and ``deck.commitment`` read (docs/rng.md)."""
        return int(self.hands.get("verified", 0)) + int(self.hands.get("discrepancy", 0))

    @property
    def quarantined(self) -> int:
        return int(self.hands.get("quarantined", 0))


def build_view(out: Path) -> ReportView:
    """The report of the outputs in ``out``."""
    run = read_run(out)
    db = duck.connect()
    try:
        for view, name in (("f", "findings"), ("h", "hands")):
            source = file_literal(str(out / f"{name}.parquet"))
            db.execute(f"CREATE VIEW {view} AS SELECT * FROM read_parquet({source})")
        return _view(db, run, out, fairplay_run(db, run, out))
    finally:
        db.close()


def _view(
    db: duckdb.DuckDBPyConnection, run: dict[str, Any], out: Path, fairplay: FairPlayRun
) -> ReportView:
    counts = run["counts"]
    by_check = _by_check(db)
    severities = dict(query(db, "SELECT severity, count(*) FROM f GROUP BY severity"))
    suspicions = top_suspicions(db) if fairplay.ran and not fairplay.missing else []
    games, top_games = _games(db, suspicions)
    span = run.get("hands_span")
    if not isinstance(span, dict):
        span = {}  # an older run.json: the report says nothing of the span
    history = history_view(out)
    return ReportView(
        # `nightly`'s own name only where it wrote the outputs (a blind tester: a `replay`
        # run's page was titled a nightly report).
        title="rummy-audit nightly report" if history is not None else "rummy-audit report",
        version=str(run["version"]),
        run_at=_instant(run.get("run_at")),
        hands_from=_instant(span.get("first_started_at")),
        hands_to=_instant(span.get("last_ended_at")),
        arguments=[
            (k, "not given" if v is None else str(v)) for k, v in sorted(run["arguments"].items())
        ],
        inputs=[InputFile(i["table"], i["path"], i["rows"], i["size"]) for i in run["inputs"]],
        input_tables=_input_tables(run["inputs"]),
        missing_tables=list(run.get("missing_optional_tables", [])),
        hands=counts["hands"],
        hands_total=counts["hands_total"],
        quarantine_rows=counts["quarantine_rows"],
        unreadable=[
            (str(f["table"]), str(f["path"]), str(f["reason"]))
            for f in run.get("unreadable_files", [])
        ],
        lost_hands=int(counts.get("lost_hands", 0)),
        game_counts=counts.get("games"),
        unchecked_by_file=query_one(db, UNCHECKED_BY_FILE_SQL),
        skipped=[(str(f["table"]), str(f["path"])) for f in run.get("skipped_files", [])],
        copied=[(str(f["path"]), str(f["same_as"])) for f in run.get("copied_files", [])],
        ignored=[(str(c["table"]), str(c["column"]), int(c["files"]))
                 for c in run.get("ignored_columns", [])],
        unused=[(str(v["table"]), str(v["column"]), str(v["format"]), int(v["rows"]))
                for v in run.get("ignored_values", [])],
        timings=[(k, float(v)) for k, v in run["timings_s"].items()],
        exit_status=int(run["exit_status"]),
        worst=run.get("worst_severity") or "none",
        findings_total=sum(severities.values()),
        by_severity=[(s, int(severities.get(s, 0))) for s in SEVERITIES],
        by_check=by_check,
        findings=_findings(db, f"ORDER BY {_order()} LIMIT {TOP_ROWS}"),
        checks=sorted({row.check for row in by_check}),
        games_with_findings=query_one(
            db, f"SELECT count(DISTINCT game_id) FROM f WHERE game_id <> '' AND NOT {NIGHT_SQL}"
        ),
        games=games,
        top_games=top_games,
        fairplay=fairplay,
        suspicions=suspicions,
        suspicions_total=fairplay.suspicions,
        rings=rings(db, suspicions),
        shuffle=shuffle_run(db, run, out),
        commitment=sum(row.count for row in by_check if row.check == "deck.commitment"),
        commitments=commitments(run),
        quarantine=_quarantine(db, out),
        charts=[
            chart("chart-checks", "Findings per check", _check_bars(by_check), "No findings."),
            chart("chart-formats", "Hands per format", _format_bars(db), "No hands."),
            chart(
                "chart-scores",
                "Points charged to losing and dropping players",
                _score_bars(db),
                "No points recorded.",
            ),
            suspicion_chart(db, fairplay),
        ],
        history=history,
        passes=[(str(p.get("command")), str(p.get("fail_on"))) for p in run.get("passes", [])],
        rulesets=[
            (str(r["id"]), str(r["file"]), str(r["sha256"])[:12], str(r.get("extends") or ""))
            for r in run.get("rulesets", [])
        ],
    )


def _instant(value: object) -> Instant | None:
    """A timestamp of run.json for the page, in UTC to the second; None when run.json has
    none (null, or an older file without the key). A value that is not ISO 8601 is shown
    as it is rather than dropped.

    >>> _instant("2026-11-29T18:42:05+00:00").text
    '2026-11-29 18:42:05 UTC'
    >>> _instant("2026-11-30T00:12:05+05:30").text, _instant(None)
    ('2026-11-29 18:42:05 UTC', None)
    """
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return Instant(value, value)
    if moment.tzinfo is None:  # not what run.py writes: no zone is claimed for it
        return Instant(value, moment.strftime("%Y-%m-%d %H:%M:%S"))
    return Instant(value, moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"))


def _order() -> str:
    return (
        f'{RANK_SQL}, "check", game_id, hand_id NULLS FIRST, seq NULLS FIRST, '
        "player_id NULLS FIRST, message"
    )


def _by_check(db: duckdb.DuckDBPyConnection) -> list[CheckRow]:
    rows = query(
        db,
        f'SELECT "check", severity, count(*) FROM f GROUP BY "check", severity '
        f'ORDER BY any_value({RANK_SQL}), "check"',
    )
    return [
        CheckRow(check, severity, n, CATALOG[check].raised_when if check in CATALOG else "")
        for check, severity, n in rows
    ]


_COLUMNS = 'severity, "check", game_id, hand_id, player_id, seq, expected, recorded, message, rule'


def _findings(db: duckdb.DuckDBPyConnection, tail: str) -> list[FindingRow]:
    return [_finding(row) for row in query(db, f"SELECT {_COLUMNS} FROM f {tail}")]


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


# ------------------------------------------------------------ game panels


NIGHT_SQL = "(\"check\" LIKE 'rng.%' OR \"check\" LIKE 'fairplay.%')"
"""A shuffle test's or a fair-play suspicion's finding: about the night's shoes or accounts,
its ``game_id`` only the game of its first evidence hand (schemas/output.md), so it makes no
game one with findings (a suspicion's evidence games get their panels as such)."""
FALLOUT_SQL = "(\"check\" LIKE 'input.%' OR \"check\" IN ('game.unchecked', 'check.skipped'))"
"""A finding that is input fallout, not a rule break: a file, row or hand that could not be
used (``input.*``), a game or check left unchecked for it (``game.unchecked``,
``check.skipped``)."""


UNCHECKED_BY_FILE_SQL = """
    SELECT count(DISTINCT game_id) FROM h WHERE status = 'quarantined' AND game_id <> ''
      AND game_id NOT IN (SELECT game_id FROM f WHERE game_id <> ''
                          AND "check" IN ('game.running', 'game.unchecked'))
"""
"""The games ``consistency.count_games`` counts unchecked for a quarantined hand alone,
without a ``game.unchecked`` of their own (``ReportView.unchecked_by_file``)."""


def _games(
    db: duckdb.DuckDBPyConnection, suspicions: Sequence[SuspicionRow]
) -> tuple[list[GamePanel], int]:
    """The ``TOP_GAMES`` games with the worst findings first, each with its first
    ``PER_GAME`` findings; then every other game a listed suspicion links to as evidence,
    in the order the suspicions are listed, each with fewer findings (``EVIDENCE_ROWS``
    shared out). Returns the panels and how many of them are the worst games.

    The worst are ranked by their rule findings (every check but the input fallout of
    ``FALLOUT_SQL``): the worst severity of those, then how many, and only then by the
    fallout; so a game with a rule break always outranks one whose findings are only
    quarantined hands (a blind tester: 80 of the 100 panels were games of ``input.hand``
    findings alone, and a game with a planted drop.penalty had none)."""
    top = query(
        db,
        f"""
        SELECT game_id, min({RANK_SQL}) AS worst, count(*) AS n,
               count(DISTINCT hand_id) AS hands,
               min({RANK_SQL}) FILTER (WHERE NOT {FALLOUT_SQL}) AS rule_worst,
               count(*) FILTER (WHERE NOT {FALLOUT_SQL}) AS rule_n
        FROM f WHERE game_id <> '' AND severity <> 'info' AND NOT {NIGHT_SQL}
        GROUP BY game_id
        ORDER BY rule_worst NULLS LAST, rule_n DESC, worst, n DESC, game_id LIMIT {TOP_GAMES}
        """,
    )
    refs = evidence_refs(suspicions)
    top_ids = [row[0] for row in top]
    listed = set(top_ids)
    extra = [game for game in refs if game not in listed]
    facts: dict[str, tuple[int | None, int, int]] = {
        game: (worst, n, hands) for game, worst, n, hands, _, _ in top
    }
    facts.update(dict.fromkeys(extra, (None, 0, 0)))
    if extra:
        for game, worst, n, hands in query(
            db,
            f"""
            SELECT game_id, min({RANK_SQL}), count(*), count(DISTINCT hand_id)
            FROM f WHERE game_id IN (SELECT unnest($ids)) AND severity <> 'info'
              AND NOT {NIGHT_SQL}
            GROUP BY game_id
            """,
            {"ids": extra},
        ):
            facts[game] = (worst, n, hands)
    ids = top_ids + extra
    if not ids:
        return [], 0
    meta = {
        game: (fmt or "", ruleset or "")
        for game, fmt, ruleset in query(
            db,
            "SELECT game_id, any_value(format), any_value(ruleset) FROM h "
            "WHERE game_id IN (SELECT unnest($ids)) GROUP BY game_id",
            {"ids": ids},
        )
    }
    info = dict(
        query(
            db,
            "SELECT game_id, count(*) FROM f WHERE game_id IN (SELECT unnest($ids))"
            f" AND severity = 'info' AND NOT {NIGHT_SQL} GROUP BY game_id",
            {"ids": ids},
        )
    )
    findings = _game_findings(db, top_ids, PER_GAME)
    if extra:
        share = max(1, min(PER_GAME, EVIDENCE_ROWS // len(extra)))
        findings.update(_game_findings(db, extra, share))
    panels = []
    for game in ids:
        worst, n, hands = facts[game]
        panels.append(
            GamePanel(
                game_id=game,
                format=meta.get(game, ("", ""))[0],
                ruleset=meta.get(game, ("", ""))[1],
                worst="none" if worst is None else SEVERITIES[worst],
                total=n,
                hands=hands,
                findings=findings.get(game, []),
                suspicions=refs.get(game, []),
                info=int(info.get(game, 0)),
            )
        )
    return panels, len(top_ids)


def _game_findings(
    db: duckdb.DuckDBPyConnection, ids: list[str], per_game: int
) -> dict[str, list[FindingRow]]:
    """The first ``per_game`` findings other than info of each game (not a night's,
    ``NIGHT_SQL``: a suspicion is listed above the panel): its rule findings in hand
    order, then its input fallout (``FALLOUT_SQL``) in hand order, so the fallout of many
    quarantined hands does not push a rule break out of the panel."""
    listed: dict[str, list[FindingRow]] = {game: [] for game in ids}
    if not ids:
        return listed
    for row in query(
        db,
        f"""
        SELECT {_COLUMNS} FROM (
          SELECT *, row_number() OVER (PARTITION BY game_id ORDER BY {FALLOUT_SQL},
                 hand_id NULLS FIRST, seq NULLS FIRST, {RANK_SQL}, "check",
                 player_id NULLS FIRST, message) AS k
          FROM f WHERE game_id IN (SELECT unnest($ids)) AND severity <> 'info'
            AND NOT {NIGHT_SQL})
        WHERE k <= {per_game}
        ORDER BY game_id, k
        """,
        {"ids": ids},
    ):
        listed[row[2]].append(_finding(row))
    return listed


# ------------------------------------------------------------ fair play


# ------------------------------------------------------------ other sections


QUARANTINE_ROWS = 500
"""Quarantine rows listed (quarantine.parquet holds them all)."""


def _quarantine(
    db: duckdb.DuckDBPyConnection, out: Path
) -> list[tuple[str, str, str, str, str]]:
    """The first ``QUARANTINE_ROWS`` rows of quarantine.parquet, the causes first: the
    files and rows that broke the contract (``input.file``, ``input.row``), then the hands
    quarantined (``input.hand``), for one of those or for a reason of their own; each part
    in the file's own order. A blind tester: 685 hands quarantined for a bad file and row
    were listed before the row itself, which the first 500 then left out."""
    path = out / "quarantine.parquet"
    if not path.exists():
        return []
    rows = query(
        db,
        f"SELECT \"table\", coalesce(file, ''), coalesce(hand_id, ''), \"check\", reason "
        f"FROM read_parquet({file_literal(str(path))}) "
        "ORDER BY \"check\" = 'input.hand', "
        '"table", file NULLS FIRST, "row" NULLS FIRST, hand_id NULLS FIRST, reason '
        f"LIMIT {QUARANTINE_ROWS}",
    )
    return [(str(a), str(b), str(c), str(d), str(e)) for a, b, c, d, e in rows]


def _input_tables(inputs: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    files: dict[str, list[int]] = {}
    for item in inputs:
        entry = files.setdefault(item["table"], [0, 0])
        entry[0] += 1
        entry[1] += int(item["rows"])
    return [(table, n, rows) for table, (n, rows) in sorted(files.items())]


def _check_bars(rows: list[CheckRow]) -> list[tuple[str, int, str]]:
    totals: dict[str, tuple[int, str]] = {}
    for row in rows:
        count, severity = totals.get(row.check, (0, row.severity))
        totals[row.check] = (count + row.count, severity)
    ordered = sorted(totals.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return [(check, n, f"sev-{severity}") for check, (n, severity) in ordered]


def _format_bars(db: duckdb.DuckDBPyConnection) -> list[tuple[str, int, str]]:
    """Hands by format and status; by ruleset too when the night holds more than one (a
    night of 13- and 21-card points games is two kinds of game, not one)."""
    rows = query(
        db,
        "SELECT coalesce(format, 'unknown'), coalesce(ruleset, 'unknown'), status, count(*)"
        " FROM h GROUP BY ALL ORDER BY 1, 2, 3",
    )
    several = len({ruleset for _, ruleset, _, _ in rows}) > 1
    return [
        (f"{fmt.replace('_', ' ')}{f' ({ruleset})' if several else ''}: {status}", n,
         f"st-{status}")
        for fmt, ruleset, status, n in rows
    ]  # fmt: skip


def _score_bars(db: duckdb.DuckDBPyConnection) -> list[tuple[str, int, str]]:
    if "points" not in {row[0] for row in query(db, "DESCRIBE h")}:
        return []  # outputs written before hands.parquet carried the points
    # one pass: binned up to the widest edge (a night charging 80 at most has nothing in
    # the wide bins, so its 80 bin is the same), with the largest charge of each bin
    rows = query(
        db,
        f"""
        SELECT CASE WHEN p <= 0 THEN 0 WHEN p >= {WIDE_BINS[-1]} THEN {WIDE_BINS[-1]}
                    ELSE greatest(1, (p // 10) * 10) END AS bin,
               count(*) FILTER (WHERE o <> 'won'), max(p)
        FROM (SELECT unnest(points) AS p, unnest(outcomes) AS o FROM h
              WHERE points IS NOT NULL)
        GROUP BY bin
        """,
    )
    counts = {low: n for low, n, _ in rows}
    top = max((most for _, _, most in rows if most is not None), default=0)
    edges = SCORE_BINS + (WIDE_BINS if top > SCORE_BINS[-1] else ())
    bars = []
    for i, low in enumerate(edges):
        high = edges[i + 1] - 1 if i + 1 < len(edges) else None
        label = str(low) if high == low else f"{low}-{high}" if high else f"{low}+"
        bars.append((f"{label} points", int(counts.get(low, 0)), ""))
    return bars if any(n for _, n, _ in bars) else []
