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

import json
import math
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from audit.fairplay.suspicion import p_text
from audit.findings import CATALOG, Severity
from audit.logs.validate import file_literal

TOP_ROWS = 2_000
"""Findings embedded in the filterable table."""
TOP_GAMES = 100
"""Games with discrepancies given a panel of their own."""
PER_GAME = 40
"""Findings listed in one game's panel."""
TOP_SUSPICIONS = 200
"""Suspicions listed, the strongest first; suspicions.parquet holds the rest."""
EVIDENCE_SHOWN = 5
"""Evidence hands (and games) shown per suspicion; each of their games gets a panel."""
EVIDENCE_ROWS = 1_000
"""Findings listed in all the panels of evidence games together (at least one a game)."""
RING_NODES = 60
"""The largest ring drawn as a graph (its accounts are all listed in any case)."""
SEVERITIES = [s.value for s in sorted(Severity, key=lambda s: -s.rank)]
SUSPICIONS = "suspicions.parquet"
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
class SuspicionRef:
    """A listed suspicion a game is evidence for, as its panel names it."""

    anchor: str
    """The id of the suspicion's row in the fair-play table."""
    check: str
    severity: str
    players: list[str]
    hands: list[str]
    """The game's hands among the suspicion's evidence shown."""


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


@dataclass(frozen=True)
class EvidenceHand:
    hand_id: str
    game_id: str
    """Its game, whose panel it links to; empty when the outputs do not say (no link)."""


@dataclass(frozen=True)
class SuspicionRow:
    """One row of suspicions.parquet, in words."""

    rank: int
    anchor: str
    suspicion_id: str
    check: str
    severity: str
    players: list[str]
    message: str
    effect: str
    """``rate ratio: 3.37``."""
    p: str
    q: str
    tests: int
    benign: str
    money: str
    evidence: list[EvidenceHand]
    more_evidence: int
    """Evidence hands in the file beyond those shown."""
    games: list[str]
    """Evidence games shown that none of the hands shown is in (each has a panel)."""
    ring: str
    """The anchor of the ring's graph, for a ring drawn as one; else empty."""


@dataclass(frozen=True)
class Detector:
    check: str
    tested: int
    suspicions: int


@dataclass(frozen=True)
class FairPlayRun:
    """What run.json says of the fair-play detectors."""

    ran: bool
    why: str
    """Why they did not run (empty when they ran)."""
    detectors: list[Detector]
    tested: int
    """Hypotheses tested, over all the detectors."""
    suspicions: int
    """Rows of suspicions.parquet (run.json's count when the file is missing)."""
    missing: bool
    """They ran, but suspicions.parquet is not in the output folder."""
    command: str
    """The command that runs them over this replay."""


@dataclass(frozen=True)
class Node:
    name: str
    label: str
    """The name, shortened to fit."""
    x: float
    y: float
    label_x: float
    label_y: float
    anchor: str
    """text-anchor of the label: start, middle or end."""


@dataclass(frozen=True)
class Edge:
    x1: float
    y1: float
    x2: float
    y2: float
    severity: str
    """Of the pair's strongest suspicion."""
    width: float
    title: str
    """The pair and its checks."""


@dataclass(frozen=True)
class RingGraph:
    anchor: str
    suspicion: str
    """The anchor of the ring's row in the fair-play table."""
    severity: str
    players: list[str]
    width: int
    height: int
    nodes: list[Node]
    edges: list[Edge]


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
    hands: dict[str, int]
    hands_total: int
    quarantine_rows: int
    unreadable: list[tuple[str, str, str]]
    """Input files that could not be read: (table, path, why). The report leads with them."""
    lost_hands: int
    """Hands other tables name whose hands row could not be read (quarantined)."""
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
    shuffle: list[FindingRow]
    commitment: int
    """deck.commitment findings: the provably-fair check, the only shuffle check there is."""
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
        return _view(db, run, out, _fairplay_run(db, run, out))
    finally:
        db.close()


def _view(
    db: duckdb.DuckDBPyConnection, run: dict[str, Any], out: Path, fairplay: FairPlayRun
) -> ReportView:
    counts = run["counts"]
    by_check = _by_check(db)
    severities = dict(_rows(db, "SELECT severity, count(*) FROM f GROUP BY severity"))
    suspicions = _suspicions(db) if fairplay.ran and not fairplay.missing else []
    games, top_games = _games(db, suspicions)
    span = run.get("hands_span")
    if not isinstance(span, dict):
        span = {}  # an older run.json: the report says nothing of the span
    return ReportView(
        title="rummy-audit nightly report",
        version=str(run["version"]),
        run_at=_instant(run.get("run_at")),
        hands_from=_instant(span.get("first_started_at")),
        hands_to=_instant(span.get("last_ended_at")),
        arguments=[(k, str(v)) for k, v in sorted(run["arguments"].items())],
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
        timings=[(k, float(v)) for k, v in run["timings_s"].items()],
        exit_status=int(run["exit_status"]),
        worst=run.get("worst_severity") or "none",
        findings_total=sum(severities.values()),
        by_severity=[(s, int(severities.get(s, 0))) for s in SEVERITIES],
        by_check=by_check,
        findings=_findings(db, f"ORDER BY {_order()} LIMIT {TOP_ROWS}"),
        checks=sorted({row.check for row in by_check}),
        games_with_findings=_one(db, "SELECT count(DISTINCT game_id) FROM f WHERE game_id <> ''"),
        games=games,
        top_games=top_games,
        fairplay=fairplay,
        suspicions=suspicions,
        suspicions_total=fairplay.suspicions,
        rings=_rings(db, suspicions),
        shuffle=_findings(
            db, f"WHERE starts_with(\"check\", 'rng.') ORDER BY {_order()} LIMIT 200"
        ),
        commitment=sum(row.count for row in by_check if row.check == "deck.commitment"),
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
            _suspicion_chart(db, fairplay),
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


# ------------------------------------------------------------ game panels


def _games(
    db: duckdb.DuckDBPyConnection, suspicions: Sequence[SuspicionRow]
) -> tuple[list[GamePanel], int]:
    """The ``TOP_GAMES`` games with the worst findings first, each with its first
    ``PER_GAME`` findings; then every other game a listed suspicion links to as evidence,
    in the order the suspicions are listed, each with fewer findings (``EVIDENCE_ROWS``
    shared out). Returns the panels and how many of them are the worst games."""
    top = _rows(
        db,
        f"""
        SELECT game_id, min({_RANK_SQL}) AS worst, count(*) AS n,
               count(DISTINCT hand_id) AS hands
        FROM f WHERE game_id <> '' AND severity <> 'info'
        GROUP BY game_id ORDER BY worst, n DESC, game_id LIMIT {TOP_GAMES}
        """,
    )
    refs = _evidence_refs(suspicions)
    top_ids = [row[0] for row in top]
    listed = set(top_ids)
    extra = [game for game in refs if game not in listed]
    facts: dict[str, tuple[int | None, int, int]] = {
        game: (worst, n, hands) for game, worst, n, hands in top
    }
    facts.update(dict.fromkeys(extra, (None, 0, 0)))
    if extra:
        for game, worst, n, hands in _rows(
            db,
            f"""
            SELECT game_id, min({_RANK_SQL}), count(*), count(DISTINCT hand_id)
            FROM f WHERE game_id IN (SELECT unnest($ids)) AND severity <> 'info'
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
        for game, fmt, ruleset in _rows(
            db,
            "SELECT game_id, any_value(format), any_value(ruleset) FROM h "
            "WHERE game_id IN (SELECT unnest($ids)) GROUP BY game_id",
            {"ids": ids},
        )
    }
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
            )
        )
    return panels, len(top_ids)


def _game_findings(
    db: duckdb.DuckDBPyConnection, ids: list[str], per_game: int
) -> dict[str, list[FindingRow]]:
    """The first ``per_game`` findings other than info of each game, in hand order."""
    listed: dict[str, list[FindingRow]] = {game: [] for game in ids}
    if not ids:
        return listed
    for row in _rows(
        db,
        f"""
        SELECT {_COLUMNS} FROM (
          SELECT *, row_number() OVER (PARTITION BY game_id ORDER BY hand_id NULLS FIRST,
                 seq NULLS FIRST, {_RANK_SQL}, "check", player_id NULLS FIRST, message) AS k
          FROM f WHERE game_id IN (SELECT unnest($ids)) AND severity <> 'info')
        WHERE k <= {per_game}
        ORDER BY game_id, k
        """,
        {"ids": ids},
    ):
        listed[row[2]].append(_finding(row))
    return listed


def _evidence_refs(suspicions: Iterable[SuspicionRow]) -> dict[str, list[SuspicionRef]]:
    """Every game a listed suspicion links to, with the suspicions it is evidence for."""
    refs: dict[str, list[SuspicionRef]] = {}
    for s in suspicions:
        for game in dict.fromkeys([e.game_id for e in s.evidence if e.game_id] + s.games):
            hands = [e.hand_id for e in s.evidence if e.game_id == game]
            refs.setdefault(game, []).append(
                SuspicionRef(s.anchor, s.check, s.severity, s.players, hands)
            )
    return refs


# ------------------------------------------------------------ fair play


def _fairplay_run(db: duckdb.DuckDBPyConnection, run: dict[str, Any], out: Path) -> FairPlayRun:
    """What run.json says of the detectors; when they ran, ``suspicions.parquet`` becomes
    the view ``s`` (with ``file_row_number``, its strength order)."""
    arguments = run.get("arguments", {})
    command = "rummy-audit fairplay {} --out {}".format(
        *(shlex.quote(str(arguments.get(key) or key.upper())) for key in ("logs", "out"))
    )
    entry = run.get("fairplay")
    if not isinstance(entry, dict):
        why = 'run.json has no "fairplay" entry: an older rummy-audit wrote this folder'
        return FairPlayRun(False, why, [], 0, 0, False, command)
    if entry.get("status") != "run":
        why = str(entry.get("why") or "run.json gives no reason")
        return FairPlayRun(False, why, [], 0, 0, False, command)
    detectors = [
        Detector(str(d["check"]), int(d.get("tested", 0)), int(d.get("suspicions", 0)))
        for d in entry.get("detectors", [])
    ]
    tested = sum(d.tested for d in detectors)
    path = out / SUSPICIONS
    if not path.is_file():
        total = int(entry.get("suspicions", 0))
        return FairPlayRun(True, "", detectors, tested, total, True, command)
    db.execute(
        "CREATE VIEW s AS SELECT * FROM "
        f"read_parquet({file_literal(str(path))}, file_row_number = true)"
    )
    total = _one(db, "SELECT count(*) FROM s")
    return FairPlayRun(True, "", detectors, tested, total, False, command)


def _suspicions(db: duckdb.DuckDBPyConnection) -> list[SuspicionRow]:
    """The ``TOP_SUSPICIONS`` strongest suspicions, as suspicions.parquet orders them, each
    evidence hand with its game (from hands.parquet)."""
    rows = _rows(
        db,
        f"""
        SELECT suspicion_id, "check", severity, players, effect, effect_name, p_value,
               q_value, tests, evidence_hands[1:{EVIDENCE_SHOWN}], len(evidence_hands),
               evidence_games[1:{EVIDENCE_SHOWN}], evidence_games, money, benign, message
        FROM s ORDER BY file_row_number LIMIT {TOP_SUSPICIONS}
        """,
    )
    hands = sorted({hand for row in rows for hand in row[9]})
    game_of = dict(
        _rows(
            db,
            "SELECT hand_id, any_value(game_id) FROM h "
            "WHERE hand_id IN (SELECT unnest($ids)) AND game_id IS NOT NULL GROUP BY hand_id",
            {"ids": hands},
        )
        if hands
        else []
    )
    out = []
    for rank, row in enumerate(rows, 1):
        (sid, check, severity, players, effect, effect_name, p, q, tests, shown, n_hands,
         games, all_games, money, benign, message) = row  # fmt: skip
        only = all_games[0] if len(all_games) == 1 else ""
        evidence = [EvidenceHand(hand, game_of.get(hand, only)) for hand in shown]
        linked = {e.game_id for e in evidence}
        drawn = check == "fairplay.ring" and 3 <= len(players) <= RING_NODES
        out.append(
            SuspicionRow(
                rank=rank,
                anchor=f"suspicion-{rank}",
                suspicion_id=sid,
                check=check,
                severity=severity,
                players=list(players),
                message=message,
                effect=effect_text(effect, effect_name),
                p=p_text(p),
                q=p_text(q),
                tests=int(tests),
                benign=benign,
                money=money or "",
                evidence=evidence,
                more_evidence=int(n_hands) - len(shown),
                games=[g for g in games if g not in linked],
                ring=f"ring-{rank}" if drawn else "",
            )
        )
    return out


def effect_text(effect: float, name: str) -> str:
    """The effect size in a few digits, with its name.

    >>> effect_text(3.3672826923402797, "rate ratio"), effect_text(4.0, "accounts")
    ('rate ratio: 3.37', 'accounts: 4')
    >>> effect_text(151.46, ""), effect_text(float("inf"), "rate ratio")
    ('151', 'rate ratio: inf')
    """
    value = f"{effect:.3g}" if math.isfinite(effect) else str(effect)
    return f"{name}: {value}" if name else value


def _rings(db: duckdb.DuckDBPyConnection, suspicions: Sequence[SuspicionRow]) -> list[RingGraph]:
    """A graph for each listed ring: its accounts, and the pair suspicions among them
    (anywhere in suspicions.parquet, listed or not) as edges."""
    drawn = [s for s in suspicions if s.ring]
    if not drawn:
        return []
    members = sorted({p for s in drawn for p in s.players})
    pairs: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for players, check, severity in _rows(
        db,
        'SELECT players, "check", severity FROM s WHERE len(players) = 2 '
        "AND players[1] <> players[2] AND list_has_all($members, players) "
        "ORDER BY file_row_number",
        {"members": members},
    ):
        a, b = sorted(players)
        pairs.setdefault((a, b), []).append((check, severity))
    return [ring_graph(s.ring, s.anchor, s.severity, s.players, pairs) for s in drawn]


_EDGE_WIDTH = {"critical": 4.0, "major": 3.0, "minor": 2.0, "info": 1.5}


def ring_graph(
    anchor: str,
    suspicion: str,
    severity: str,
    players: Sequence[str],
    pairs: dict[tuple[str, str], list[tuple[str, str]]],
) -> RingGraph:
    """The ring's accounts on a circle, in the order given, the first at the top and the
    rest clockwise; an edge for each pair of them in ``pairs`` (sorted pair: its checks
    and severities), coloured by its strongest suspicion and drawn over the weaker ones.
    No randomness: the same ring is drawn the same way every time.

    >>> pairs = {("A", "B"): [("fairplay.collusion", "major")],
    ...          ("B", "C"): [("fairplay.soft_drop", "minor"), ("fairplay.co_seating", "info")],
    ...          ("A", "X"): [("fairplay.collusion", "critical")]}
    >>> g = ring_graph("ring-1", "suspicion-1", "minor", ["A", "B", "C"], pairs)
    >>> g.anchor, g.width, g.height
    ('ring-1', 440, 180)
    >>> [(n.name, n.x, n.y, n.anchor) for n in g.nodes]
    [('A', 220.0, 30.0, 'middle'), ('B', 289.3, 150.0, 'start'), ('C', 150.7, 150.0, 'end')]
    >>> [(e.severity, e.title) for e in g.edges]
    [('minor', 'B and C: fairplay.co_seating, fairplay.soft_drop (minor)'), ('major', 'A and B: fairplay.collusion (major)')]
    """  # noqa: E501
    n = len(players)
    radius = max(80.0, min(240.0, 12.0 * n))
    margin_x, margin_y = 140.0, 30.0
    turns = [-math.pi / 2 + 2 * math.pi * i / n for i in range(n)]
    top = min(math.sin(t) for t in turns)
    bottom = max(math.sin(t) for t in turns)
    cx, cy = margin_x + radius, margin_y - radius * top
    nodes: list[Node] = []
    at: dict[str, tuple[float, float]] = {}
    for name, turn in zip(players, turns, strict=True):
        cos, sin = math.cos(turn), math.sin(turn)
        x, y = round(cx + radius * cos, 1), round(cy + radius * sin, 1)
        side = "start" if cos > 0.2 else "end" if cos < -0.2 else "middle"
        label_y = y + (18.0 if sin > 0.2 else -10.0 if sin < -0.2 else 4.0)
        label = name if len(name) <= 18 else name[:17] + "…"
        nodes.append(Node(name, label, x, y, round(x + 10 * cos, 1), round(label_y, 1), side))
        at[name] = (x, y)
    ranks = {s: i for i, s in enumerate(SEVERITIES)}
    edges = []
    for (a, b), found in sorted(pairs.items()):
        if a not in at or b not in at:
            continue
        strongest = min((s for _, s in found), key=lambda s: ranks.get(s, len(ranks)))
        checks = ", ".join(sorted({c for c, _ in found}))
        edges.append(
            Edge(
                *at[a],
                *at[b],
                severity=strongest,
                width=_EDGE_WIDTH.get(strongest, 1.5),
                title=f"{a} and {b}: {checks} ({strongest})",
            )
        )
    edges.sort(key=lambda e: -ranks.get(e.severity, len(ranks)))  # the strongest drawn last
    return RingGraph(
        anchor=anchor,
        suspicion=suspicion,
        severity=severity,
        players=list(players),
        width=int(2 * (radius + margin_x)),
        height=round(radius * (bottom - top) + 2 * margin_y),
        nodes=nodes,
        edges=edges,
    )


def _suspicion_chart(db: duckdb.DuckDBPyConnection, fairplay: FairPlayRun) -> Chart:
    title = "Fair-play suspicions by strength"
    if not fairplay.ran:
        return _chart(
            "chart-suspicions", title, [], f"Fair-play detectors: not run ({fairplay.why})."
        )
    if fairplay.missing:
        return _chart("chart-suspicions", title, [], f"{SUSPICIONS} is missing from this folder.")
    rows = dict(_rows(db, "SELECT severity, count(*) FROM s GROUP BY severity"))
    bars = [(s, int(rows[s]), f"sev-{s}") for s in SEVERITIES if rows.get(s)]
    empty = (
        f"No fair-play suspicion was raised ({fairplay.tested:,} hypotheses tested by "
        f"{len(fairplay.detectors)} detectors)."
    )
    return _chart("chart-suspicions", title, bars, empty)


# ------------------------------------------------------------ other sections


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
