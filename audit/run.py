"""One nightly run: read the log root, replay every hand, check every game, write the outputs.

``replay_logs(...)`` is what ``rummy-audit replay`` calls. Games are audited in worker
processes (spawn) in batches of complete games; results do not depend on how many workers
ran them, because every output is sorted by stable keys before it is written.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from audit import __version__
from audit.errors import AuditError, RulesetError
from audit.findings import Finding, Severity, finding
from audit.logs.reader import QuarantineRow, iter_units, open_log_root
from audit.output import (
    OUTPUT_VERSION,
    HandRow,
    worst,
    write_findings,
    write_hands,
    write_json,
    write_quarantine,
)
from audit.replay.outcome import audit_hand
from audit.replay.records import Game, GameUnit, Hand
from audit.report.render import write_report
from audit.rules.ruleset import Ruleset, load_preset


@dataclass
class BatchResult:
    findings: list[Finding] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    quarantine: list[QuarantineRow] = field(default_factory=list)

    def extend(self, other: BatchResult) -> None:
        self.findings += other.findings
        self.hands += other.hands
        self.quarantine += other.quarantine


def _quarantined(hand: Hand, game: Game | None, reason: str) -> HandRow:
    return HandRow(
        hand_id=hand.hand_id,
        game_id=hand.game_id,
        hand_no=hand.hand_no,
        format=game.format if game else None,
        ruleset=game.ruleset if game else None,
        players=len(hand.seats) or None,
        status="quarantined",
        findings=0,
        worst_severity=None,
        reason=reason,
    )


def _rules_for(game: Game) -> Ruleset | str:
    """The game's preset, or why it cannot be used (a reason for the quarantine)."""
    try:
        rules = load_preset(game.ruleset)
    except RulesetError as exc:
        return f"game {game.game_id}: {exc}"
    if rules.cards_per_hand != game.cards_per_hand:
        return (
            f"game {game.game_id} deals {game.cards_per_hand} cards but its ruleset "
            f"{rules.id} deals {rules.cards_per_hand}"
        )
    return rules


def audit_games(units: list[GameUnit]) -> BatchResult:
    """Audit complete games: every hand replayed, then the game-level checks."""
    out = BatchResult()
    for unit in units:
        game = unit.game
        rules: Ruleset | str = (
            _rules_for(game) if game else f"game {unit.game_id} is not in the games table"
        )
        for hand in unit.hands:
            if hand.quarantine is not None:
                out.hands.append(_quarantined(hand, game, hand.quarantine))
                continue
            if isinstance(rules, str) or game is None:
                reason = rules if isinstance(rules, str) else "no game"
                out.hands.append(_quarantined(hand, game, reason))
                out.quarantine.append(
                    QuarantineRow(
                        table="hands",
                        file=None,
                        row=None,
                        hand_id=hand.hand_id,
                        game_id=hand.game_id,
                        check="input.hand",
                        reason=reason,
                    )
                )
                continue
            result = audit_hand(hand, game, rules)
            severity = worst(result.findings)
            out.findings += result.findings
            out.hands.append(
                HandRow(
                    hand_id=hand.hand_id,
                    game_id=hand.game_id,
                    hand_no=hand.hand_no,
                    format=game.format,
                    ruleset=game.ruleset,
                    players=len(hand.seats),
                    status=result.status,
                    findings=len(result.findings),
                    worst_severity=severity.value if severity else None,
                    reason=None,
                )
            )
        if game is not None and game.running:
            out.findings.append(
                finding(
                    "game.running",
                    game_id=game.game_id,
                    message=f"Game {game.game_id} was still running when the logs were cut; "
                    "its game-level checks wait for the next batch.",
                    rule="games.ended_at: null while the game is still running (log-format.md)",
                )
            )
    return out


# ------------------------------------------------------------ execution


def _batches(units: Iterable[list[GameUnit]], size: int) -> Iterator[list[GameUnit]]:
    """Regroup the reader's batches into work items of about ``size`` hands."""
    pending: list[GameUnit] = []
    hands = 0
    for batch in units:
        for unit in batch:
            pending.append(unit)
            hands += len(unit.hands)
            if hands >= size:
                yield pending
                pending, hands = [], 0
    if pending:
        yield pending


def run_all(
    work: Iterable[list[GameUnit]],
    workers: int,
    on_done: Callable[[BatchResult], None],
) -> BatchResult:
    """Audit every work item, in-process (1 worker) or in a spawn process pool.

    At most ``2 * workers`` items are in flight, so memory stays flat however many games
    the night holds.
    """
    total = BatchResult()
    if workers <= 1:
        for item in work:
            result = audit_games(item)
            total.extend(result)
            on_done(result)
        return total
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        in_flight: list[Future[BatchResult]] = []
        for item in work:
            in_flight.append(pool.submit(audit_games, item))
            while len(in_flight) >= 2 * workers:
                result = in_flight.pop(0).result()
                total.extend(result)
                on_done(result)
        for future in in_flight:
            result = future.result()
            total.extend(result)
            on_done(result)
    return total


@dataclass(frozen=True)
class RunSummary:
    hands: Counter[str]
    findings: Counter[str]
    worst: Severity | None
    exit_status: int
    out: Path


def _input_findings(rows: Iterable[QuarantineRow]) -> list[Finding]:
    return [
        finding(
            row.check,
            game_id=row.game_id or "",
            hand_id=row.hand_id,
            message=row.reason,
            rule="log contract (schemas/README.md)",
            recorded=f"{row.table}/{row.file}" if row.file else row.table,
        )
        for row in rows
    ]


def replay_logs(
    *,
    logs: Path,
    out: Path,
    workers: int | None = None,
    fail_on: Severity = Severity.MAJOR,
    progress: bool | None = None,
    batch_hands: int = 2_000,
) -> RunSummary:
    """Replay a log root into ``out``; raises ``AuditError`` when the run cannot be done."""
    started = time.perf_counter()
    workers = workers or os.cpu_count() or 1
    if out.exists() and not out.is_dir():
        raise AuditError(f"--out {out} exists and is not a folder", slug="out")
    out.mkdir(parents=True, exist_ok=True)
    log = open_log_root(logs)
    opened = time.perf_counter()
    quarantine: list[QuarantineRow] = list(log.bad_files)
    show = sys.stderr.isatty() if progress is None else progress
    expected_hands = sum(f.rows for f in log.files.get("hands", []))
    with tempfile.TemporaryDirectory(prefix=".rummy-audit-", dir=out) as workdir:
        units = iter_units(log, quarantine=quarantine, workdir=Path(workdir))
        work = _batches(units, batch_hands)
        with _progress(show, expected_hands) as tick:
            total = run_all(work, workers, lambda r: tick(len(r.hands)))
    replayed = time.perf_counter()

    quarantine += total.quarantine
    findings = total.findings + _input_findings(quarantine)
    write_findings(out / "findings.parquet", findings)
    write_hands(out / "hands.parquet", total.hands)
    write_quarantine(out / "quarantine.parquet", quarantine)
    severity = worst(findings)
    status = 1 if severity is not None and severity.rank >= fail_on.rank else 0
    hands = Counter(h.status for h in total.hands)
    by_check = Counter(f.check for f in findings)
    written = time.perf_counter()
    write_json(
        out / "run.json",
        {
            "tool": "rummy-audit",
            "version": __version__,
            "output_version": OUTPUT_VERSION,
            "arguments": {
                "logs": str(logs),
                "out": str(out),
                "workers": workers,
                "fail_on": fail_on.value,
            },
            "inputs": [
                {
                    "table": f.table,
                    "path": f.path,
                    "size": f.size,
                    "sha256": f.sha256,
                    "rows": f.rows,
                }
                for table in sorted(log.files)
                for f in log.files[table]
            ],
            "missing_optional_tables": sorted(log.missing_optional),
            "counts": {
                "hands": {s: hands.get(s, 0) for s in ("verified", "discrepancy", "quarantined")},
                "hands_total": sum(hands.values()),
                "findings": dict(sorted(by_check.items())),
                "findings_by_severity": {
                    s.value: sum(1 for f in findings if f.severity is s) for s in Severity
                },
                "quarantine_rows": len(quarantine),
            },
            "timings_s": {
                "open": round(opened - started, 3),
                "replay": round(replayed - opened, 3),
                "write": round(written - replayed, 3),
                "total": round(written - started, 3),
            },
            "worst_severity": severity.value if severity else None,
            "exit_status": status,
        },
    )
    write_report(out)
    return RunSummary(hands, by_check, severity, status, out)


class _progress:
    """A rich progress bar over hands on a terminal; nothing otherwise."""

    def __init__(self, show: bool, total: int) -> None:
        self.show, self.total = show, total
        self.bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.show:
            return lambda n: None
        from rich.progress import Progress

        self.bar = Progress(transient=False)
        self.bar.start()
        task = self.bar.add_task("replaying hands", total=self.total or None)
        return lambda n: self.bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
