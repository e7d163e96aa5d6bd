"""The trend section of a nightly run's report: the nights so far, findings per check per
night, the suspicions opened and closed, the money at stake; from the ``history/`` folder
the nightly run writes next to the outputs (audit/nightly/history.py). A folder without it
(a plain ``replay``) has no trend section."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from audit.errors import AuditError
from audit.findings import NOT_RUN_WITHOUT
from audit.output import NIGHTLY
from audit.report.base import SEVERITIES, Chart, chart

HISTORY = "history"
HISTORY_TABLES = ("nights", "checks", "hands", "money", "suspicions")
"""The files of ``history/``, every one of which the trend section reads (the nightly run
writes them all: ``audit.nightly.history.SCHEMAS``)."""
NIGHTS_SHOWN = 30
"""Nights in the table and the chart, the latest last."""
CHECK_NIGHTS = 14
"""Nights given a column in the findings-per-check table."""


def open_when_last_run(
    night: int, past: list[dict[str, Any]], nights: list[dict[str, Any]]
) -> tuple[int | None, dict[str, dict[str, Any]]]:
    """The last night before ``night`` the detectors ran (None: none did) and the
    suspicions open then, by key: what tonight's are matched with, and what a night
    without the detectors reports as open."""
    last = max((n["night"] for n in nights if n["fairplay"] and n["night"] < night), default=None)
    return last, {r["key"]: r for r in past if r["night"] == last and r["change"] != "closed"}


@dataclass(frozen=True)
class NightRow:
    night: int
    current: bool
    span: str
    """When its hands were played, in words."""
    files_new: int
    files_rewritten: int
    files_seen_before: int
    carried_in: int
    ended: int
    running: int
    hands: int
    verified: int
    discrepancy: int
    quarantined: int
    findings: int
    worst: str
    fairplay: bool
    suspicions: int
    opened: int
    closed: int
    staked: str
    at_stake: str
    at_stake_games: int | None
    """None when the money is not measured or not known."""


@dataclass(frozen=True)
class CheckTrend:
    check: str
    severity: str
    """The most severe it was raised at over every night of the history."""
    counts: list[int | None]
    """Findings per night, one per column; None where the check did not run that night."""
    total: int
    """Findings over every night of the history, the nights without a column too."""


@dataclass(frozen=True)
class SuspicionChange:
    change: str
    check: str
    players: list[str]
    severity: str


@dataclass(frozen=True)
class HistoryView:
    night: int
    total_nights: int
    nights: list[NightRow]
    columns: list[int]
    """The nights of the findings-per-check columns."""
    checks: list[CheckTrend]
    changes: list[SuspicionChange]
    """Tonight's suspicions opened and closed, opened first."""
    kept: int
    """Tonight's suspicions already open the night before."""
    fairplay_ran: bool
    """Whether the detectors ran tonight; when not, nothing was opened or closed and
    ``kept`` is not known: ``open_before`` says what was open when they last ran."""
    last_ran: int | None
    """The last night before tonight the detectors ran (None: none did)."""
    open_before: int
    """The suspicions open at ``last_ran``."""
    findings_chart: Chart
    money_chart: Chart
    held: list[tuple[str, str]] = field(default_factory=list)
    """(game, file): games carried in whose games row tonight is in a file the replay
    refused, carried on (the night's ``nightly.json``, ``carry.held``)."""
    running_since: list[tuple[str, int]] = field(default_factory=list)
    """(game, night): games carried to the next night that were already running before
    tonight, the longest first (``carry.running``): a game whose end never comes is
    carried for ever, and the report names it (a blind tester's lost game end showed only
    as "carried out 1")."""


def history_view(out: Path) -> HistoryView | None:
    """The trend section of the outputs in ``out``; None when it holds no history. A
    ``history/`` without one of its files is an ``AuditError`` (one line, exit 2): its
    trends would be false (no findings on any night, every night without a ledger) or
    silently gone."""
    folder = out / HISTORY
    if not folder.exists():
        return None
    missing = [f"{HISTORY}/{name}.parquet" for name in HISTORY_TABLES
               if not (folder / f"{name}.parquet").is_file()]  # fmt: skip
    if missing:
        raise AuditError(
            f"{out} holds a history without {', '.join(missing)}, so its trends over the "
            "nights cannot be reported truly; restore the folder from a backup of the state "
            "folder",
            slug="out",
        )
    rows = {name: _rows(folder / f"{name}.parquet") for name in HISTORY_TABLES}
    nights = sorted(rows["nights"], key=lambda r: r["night"])
    if not nights:
        return None
    current = nights[-1]["night"]
    shown = nights[-NIGHTS_SHOWN:]
    hands: dict[tuple[int, str], int] = {
        (r["night"], r["status"]): r["hands"] for r in rows["hands"]
    }
    money: dict[tuple[int, str], tuple[int | None, Decimal | None]] = {
        (r["night"], r["measure"]): (r["games"], r["amount"]) for r in rows["money"]
    }
    table = [_night_row(n, current, hands, money) for n in shown]
    columns = [n["night"] for n in nights[-CHECK_NIGHTS:]]
    changes = [r for r in rows["suspicions"] if r["night"] == current]
    last_ran, open_before = open_when_last_run(current, rows["suspicions"], nights)
    known = [r for r in table if money.get((r.night, "at_stake"), (0, None))[1] is not None]
    order = {"opened": 0, "closed": 1}
    return HistoryView(
        night=current,
        total_nights=len(nights),
        nights=table,
        columns=columns,
        checks=_checks(rows["checks"], columns, _not_run(nights)),
        changes=[
            SuspicionChange(r["change"], r["check"], list(r["players"]), r["severity"])
            for r in sorted(changes, key=lambda r: (order.get(r["change"], 2), r["key"]))
            if r["change"] in order
        ],
        kept=sum(1 for r in changes if r["change"] == "kept"),
        fairplay_ran=bool(nights[-1]["fairplay"]),
        last_ran=last_ran,
        open_before=len(open_before),
        findings_chart=chart(
            "chart-nights",
            "Findings per night",
            [(f"night {r.night}", r.findings, f"sev-{r.worst}" if r.worst != "none" else "")
             for r in table],
            "No night yet.",
        ),
        money_chart=chart(
            "chart-money",
            "Money at stake per night (games with a finding of minor or above or a "
            "quarantined hand)",
            [(f"night {r.night}", _paise(money, r.night), "sev-major") for r in known],
            "No night whose money is known yet.",
            [r.at_stake for r in known],
        ),
        held=_held(out),
        running_since=_running_since(out, current),
    )


def _carry(out: Path, key: str) -> dict[str, Any]:
    """``carry.<key>`` of the night's ``nightly.json``; empty where it cannot be read."""
    try:
        data = json.loads((out / NIGHTLY).read_text(encoding="utf-8"))
        found = data["carry"].get(key, {})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    return found if isinstance(found, dict) else {}


def _held(out: Path) -> list[tuple[str, str]]:
    """``carry.held`` of the night's ``nightly.json``: (game, file), by game."""
    return sorted((str(game), str(path)) for game, path in _carry(out, "held").items())


def _running_since(out: Path, night: int) -> list[tuple[str, int]]:
    """``carry.running``'s games running since a night before ``night``: (game, night),
    the longest running first, then by game."""
    since = [(str(game), first) for game, first in _carry(out, "running").items()
             if isinstance(first, int) and first < night]  # fmt: skip
    return sorted(since, key=lambda item: (item[1], item[0]))


def _rows(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return rows


def _night_row(
    n: dict[str, Any],
    current: int,
    hands: dict[tuple[int, str], int],
    money: dict[tuple[int, str], tuple[int | None, Decimal | None]],
) -> NightRow:
    night = int(n["night"])
    absent = n.get("absent_tables")
    rowless = absent is not None and "ledger" not in absent
    staked = _money_cell(money, night, "staked", rowless)
    at_stake = _money_cell(money, night, "at_stake", rowless)
    return NightRow(
        night=night,
        current=night == current,
        span=_span(n.get("hands_from"), n.get("hands_to")),
        files_new=int(n["files_new"]),
        files_rewritten=int(n["files_rewritten"]),
        files_seen_before=int(n["files_seen_before"]),
        carried_in=int(n["games_carried_in"]),
        ended=int(n["games_ended"]),
        running=int(n["games_running"]),
        hands=int(n["hands"]),
        verified=hands.get((night, "verified"), 0),
        discrepancy=hands.get((night, "discrepancy"), 0),
        quarantined=hands.get((night, "quarantined"), 0),
        findings=int(n["findings"]),
        worst=n.get("worst_severity") or "none",
        fairplay=bool(n["fairplay"]),
        suspicions=int(n["suspicions"]),
        opened=int(n["suspicions_opened"]),
        closed=int(n["suspicions_closed"]),
        staked=staked[1],
        at_stake=at_stake[1],
        at_stake_games=at_stake[0],
    )


NOT_MEASURED = "no ledger"
"""The money cells of a night whose log root had no ledger table: not known, never 0.00."""
NO_ROWS = "no ledger rows"
"""The money cells of a night whose ledger table held no row (the night's ``absent_tables``
does not name it): no ``ledger.balance`` ran, so not 0.00, but not a log root without a
ledger either (until 2026-12-06 it read "no ledger": a blind tester)."""
NOT_KNOWN = "not known"
"""The money cells of a night a games or ledger file of which could not be read (its money
rows are null): the sum of the files read is not the night's, so never 0.00."""


def _money_cell(
    money: dict[tuple[int, str], tuple[int | None, Decimal | None]],
    night: int,
    measure: str,
    rowless: bool = False,
) -> tuple[int | None, str]:
    """A night's games and amount of ``measure``, for the table: ``NOT_MEASURED`` without
    a ledger table (no row), ``NO_ROWS`` (no row, ``rowless``) when its ledger table held
    no row, ``NOT_KNOWN`` when a file could not be read (a null row).

    >>> _money_cell({(1, "staked"): (3, Decimal("12.5"))}, 1, "staked")
    (3, '12.50')
    >>> _money_cell({(1, "staked"): (None, None)}, 1, "staked"), _money_cell({}, 1, "staked")
    ((None, 'not known'), (None, 'no ledger'))
    >>> _money_cell({}, 1, "staked", rowless=True)
    (None, 'no ledger rows')
    """
    if (night, measure) not in money:
        return None, NO_ROWS if rowless else NOT_MEASURED
    games, amount = money[(night, measure)]
    if games is None or amount is None:
        return None, NOT_KNOWN
    return int(games), money_text(amount)


def money_text(amount: Decimal) -> str:
    """An exact amount for the page.

    >>> money_text(Decimal("1234567.5"))
    '1,234,567.50'
    """
    return f"{amount.quantize(Decimal('0.01')):,}"


def _paise(
    money: dict[tuple[int, str], tuple[int | None, Decimal | None]], night: int
) -> int:
    """The bar's length: the amount in minor units (the bar says it exactly; it said the
    whole units, 0 for 0.74: a blind tester).

    >>> _paise({(1, "at_stake"): (1, Decimal("0.74"))}, 1)
    74
    """
    return int((money.get((night, "at_stake"), (0, Decimal(0)))[1] or 0) * 100)


def _span(first: str | None, last: str | None) -> str:
    """When a night's hands were played (run.json's span, UTC), short.

    >>> _span("2026-11-29T18:00:00+00:00", "2026-11-30T01:10:00+00:00")
    '2026-11-29 18:00 to 11-30 01:10'
    >>> _span("2026-11-29T18:00:00+00:00", "2026-11-29T23:10:00+00:00"), _span(None, None)
    ('2026-11-29 18:00 to 23:10', '')
    """
    if not first or not last:
        return ""
    end = last[11:16] if last[:10] == first[:10] else f"{last[5:10]} {last[11:16]}"
    return f"{first[:10]} {first[11:16]} to {end}"


def _not_run(nights: list[dict[str, Any]]) -> dict[str, set[int]]:
    """The nights each family of checks (a prefix of their codes) did not run:
    ``fairplay.``, the detectors; ``rng.``, the shuffle tests; and each check that needs an
    optional table the night had no row of (``findings.NOT_RUN_WITHOUT``). A night recorded
    before ``shuffle`` or ``skipped_tables`` was kept is not known, so not listed."""
    gone = {
        "fairplay.": {int(n["night"]) for n in nights if not n["fairplay"]},
        "rng.": {int(n["night"]) for n in nights if n.get("shuffle") is False},
    }
    for n in nights:
        for table in n.get("skipped_tables") or ():
            for check in NOT_RUN_WITHOUT.get(table, ()):
                gone.setdefault(str(check), set()).add(int(n["night"]))
    return gone


def _checks(
    rows: list[dict[str, Any]], columns: list[int], not_run: dict[str, set[int]]
) -> list[CheckTrend]:
    """A row for every check the history holds, found on a night with a column or not
    (its ``total`` counts every night)."""
    counts: dict[str, dict[int, int]] = {}
    severity: dict[str, int] = {}
    for r in rows:
        by_night = counts.setdefault(r["check"], {})
        by_night[r["night"]] = by_night.get(r["night"], 0) + int(r["findings"])
        rank = SEVERITIES.index(r["severity"]) if r["severity"] in SEVERITIES else len(SEVERITIES)
        severity[r["check"]] = min(severity.get(r["check"], rank), rank)
    trends = [
        CheckTrend(
            check=check,
            severity=SEVERITIES[severity[check]] if severity[check] < len(SEVERITIES) else "",
            counts=[
                None
                if any(check.startswith(f) and n in gone for f, gone in not_run.items())
                else by_night.get(n, 0)
                for n in columns
            ],
            total=sum(by_night.values()),
        )
        for check, by_night in counts.items()
    ]
    return sorted(trends, key=lambda t: (SEVERITIES.index(t.severity)
                                         if t.severity in SEVERITIES else 9, t.check))  # fmt: skip
