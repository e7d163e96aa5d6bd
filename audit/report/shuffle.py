"""The shuffle section of the report: per shoe group, each check's strongest test with its
chart (observed against what a fair shuffle gives), the tests that failed, and the checks a
group had too few shoes for; from rng.parquet and the ``"rng"`` entry of run.json only. A
run without that entry, or one that says the tests did not run, is reported as *not run*,
never as a fair shuffle."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from audit.duck import file_literal
from audit.fairplay.suspicion import p_text
from audit.output import nightly_night
from audit.report.base import query
from audit.shuffle.commitment import ALGORITHM

RNG = "rng.parquet"

CHECKS = (
    ("rng.position", "each card equally likely at each position"),
    ("rng.card", "each card's positions uniform"),
    ("rng.uniformity", "the whole position x card table uniform"),
    ("rng.wild_rank", "the wild card's rank as likely as the shoe's copies"),
    ("rng.open_card", "the open card uniform"),
    ("rng.first_card", "each seat's first card uniform"),
    ("rng.seat_jokers", "every seat dealt jokers alike"),
    ("rng.jokers_dealt", "the deal holds the jokers a random draw holds"),
    ("rng.adjacent", "a card independent of its neighbours"),
    ("rng.serial", "a table's shoe independent of the one before"),
    ("rng.repeat", "no two shoes alike"),
    ("rng.runs", "no pattern in a position's colour over the night"),
)
"""Every check, in the order the report lists them, with what a fair shuffle gives."""

FAILED_SHOWN = 200
"""Failed tests listed (all are in rng.parquet)."""

CHART_W, CHART_H = 300, 80


@dataclass(frozen=True)
class ShuffleChart:
    title: str
    bars: list[tuple[float, float, float, float]]
    """(x, y, width, height) of each observed bar."""
    expected: str
    """The points of the expected line (SVG polyline)."""
    first: str
    last: str
    """The first and last labels, under the axis."""


@dataclass(frozen=True)
class ShuffleCheck:
    check: str
    fair: str
    """What a fair shuffle gives."""
    verdict: str
    severity: str
    test: str
    """The strongest test of the check (its smallest adjusted p)."""
    effect: str
    p: str
    adjusted: str
    tested: int
    failed: int
    too_few: int
    chart: ShuffleChart | None

    @property
    def mostly_not_run(self) -> bool:
        """None of its tests failed, but more of them lacked shoes than ran: not an
        all-clear (docs/rng.md: a test not run is never reported as passed)."""
        return not self.failed and self.too_few > self.tested

    @property
    def words(self) -> tuple[str, str]:
        """The verdict as the report says it, and what it adds under it: a verdict covers
        only the tests that ran (a blind tester's 400-shoe night read "fair" beside "18 not
        run: too few shoes" of 20).

        >>> def words(verdict, tested, failed, too_few):
        ...     return ShuffleCheck("rng.first_card", "", verdict, "", "", "", "", "",
        ...                         tested, failed, too_few, None).words
        >>> words("fair", 20, 0, 0), words("biased", 106, 3, 0)
        (('fair', ''), ('biased (3 of 106)', ''))
        >>> words("fair", 9, 0, 11)
        ('too few shoes for 11 of its 20 tests', 'the 9 that ran are fair, too few to call it fair')
        >>> words("fair", 18, 0, 2)
        ('fair in the 18 tests that ran', '2 not run: too few shoes')
        >>> words("biased", 9, 1, 11)
        ('biased (1 of the 9 tests that ran)', '11 not run: too few shoes')
        >>> words("too few shoes", 0, 0, 20)
        ('too few shoes', '')
        """
        if not self.tested or not self.too_few:
            count = f" ({self.failed} of {self.tested})" if self.failed > 1 else ""
            return f"{self.verdict}{count}", ""
        not_run = f"{self.too_few} not run: too few shoes"
        if self.failed:
            return f"{self.verdict} ({self.failed} of the {self.tested} tests that ran)", not_run
        if self.mostly_not_run:
            return (f"too few shoes for {self.too_few} of its {self.tested + self.too_few} tests",
                    f"the {self.tested} that ran are {self.verdict}, too few to call it "
                    f"{self.verdict}")  # fmt: skip
        return f"{self.verdict} in the {self.tested} tests that ran", not_run


@dataclass(frozen=True)
class ShuffleGroup:
    anchor: str
    label: str
    shoes: int
    checks: list[ShuffleCheck]


@dataclass(frozen=True)
class FailedTest:
    group: str
    check: str
    test: str
    severity: str
    effect: str
    p: str
    adjusted: str


@dataclass(frozen=True)
class ShuffleRun:
    ran: bool
    why: str
    command: str
    shoes: int
    tests: int
    biased: int
    suspect: int
    too_few: int
    left_out: list[tuple[str, int]]
    missing: bool
    """They ran, but rng.parquet is not in the output folder."""
    groups: list[ShuffleGroup]
    failed: list[FailedTest]
    failed_total: int

    @property
    def mostly_not_run(self) -> list[str]:
        """The checks (with their group, when there are several) none of whose tests
        failed but most or all of which lacked shoes: the headline does not let them read
        as passed."""
        several = len(self.groups) > 1
        return [f"{c.check} ({g.label})" if several else c.check
                for g in self.groups for c in g.checks
                if c.too_few and (c.mostly_not_run or not c.tested)]  # fmt: skip


@dataclass(frozen=True)
class Commitments:
    """What ``deck.commitment`` checked, from run.json's ``commitments``: the hands the
    replay kept that carried a provably-fair commitment, by what was checked of each."""

    known: bool
    """run.json counts them (an older run.json does not)."""
    hands: int = 0
    replayed: int = 0
    """Replayed in full: the seed's hash, and the shoe the seeds shuffle to (``algorithm``)."""
    hash_only: int = 0
    """The revealed seed's hash alone: another algorithm."""
    algorithm: str = ALGORITHM
    quarantined: int | None = None
    """Quarantined hands whose hands row carries one: never replayed, so never checked;
    None when run.json does not count them (an older one)."""
    shoe_only: int = 0
    """The shoe alone: ``algorithm``, but a commitment that is a digest of no hash function
    the audit knows (0 in an older run.json, which counted them as replayed in full)."""
    unchecked: int = 0
    """Neither: another algorithm and such a commitment (0 in an older run.json, which
    counted them as checked by the seed's hash: a blind tester)."""


def commitments(run: dict[str, Any]) -> Commitments:
    """run.json's ``commitments``, or that it has none (or none of the shape
    ``check_report`` refuses: never a count it does not hold)."""
    entry = run.get("commitments")
    keys = ("hands", "replayed", "hash_only")
    if not isinstance(entry, dict) or any(type(entry.get(key)) is not int for key in keys):
        return Commitments(known=False)
    quarantined = entry.get("quarantined")
    shoe_only, unchecked = (entry.get(key) for key in ("shoe_only", "unchecked"))
    return Commitments(True, entry["hands"], entry["replayed"], entry["hash_only"],
                       quarantined=quarantined if type(quarantined) is int else None,
                       shoe_only=shoe_only if type(shoe_only) is int else 0,
                       unchecked=unchecked if type(unchecked) is int else 0)  # fmt: skip


def shuffle_run(db: duckdb.DuckDBPyConnection, run: dict[str, Any], out: Path) -> ShuffleRun:
    arguments = run.get("arguments", {})
    command = "rummy-audit rng {} --out {}".format(
        *(shlex.quote(str(arguments.get(key) or key.upper())) for key in ("logs", "out"))
    )
    if nightly_night(out):  # its log root, the night's work root, is gone
        command = ""
    entry = run.get("rng")
    if not isinstance(entry, dict) or entry.get("status") != "run":
        why = (
            str(entry.get("why") or "run.json gives no reason")
            if isinstance(entry, dict)
            else 'run.json has no "rng" entry: an older rummy-audit wrote this folder'
        )
        return ShuffleRun(False, why, command, 0, 0, 0, 0, 0, [], False, [], [], 0)
    left_out = sorted((str(k), int(v)) for k, v in dict(entry.get("left_out", {})).items())
    counts = (int(entry.get(k, 0)) for k in ("shoes", "tests", "biased", "suspect"))
    shoes, tests, biased, suspect = counts
    too_few = int(entry.get("too_few_shoes", 0))
    path = out / RNG
    if not path.is_file():
        return ShuffleRun(True, "", command, shoes, tests, biased, suspect, too_few, left_out,
                          True, [], [], 0)  # fmt: skip
    db.execute(f"CREATE VIEW r AS SELECT * FROM read_parquet({file_literal(str(path))})")
    groups = [_group(db, key, label, int(n)) for key, label, n in _groups(db, entry)]
    failed = [
        FailedTest(str(g), str(c), str(t), str(s), str(e), p_text(p), p_text(q))
        for g, c, t, s, e, p, q in query(
            db,
            "SELECT group_label, \"check\", test, severity, effect, p_value, adjusted_p FROM r"
            " WHERE severity IS NOT NULL ORDER BY adjusted_p, group_label, \"check\", test"
            " LIMIT $limit",
            {"limit": FAILED_SHOWN},
        )
    ]
    total = query(db, "SELECT count(*) FROM r WHERE severity IS NOT NULL")[0][0]
    return ShuffleRun(True, "", command, shoes, tests, biased, suspect, too_few, left_out,
                      False, groups, failed, int(total))  # fmt: skip


def _groups(db: duckdb.DuckDBPyConnection, entry: dict[str, Any]) -> list[tuple[str, str, int]]:
    listed = [(str(g["key"]), str(g["group"]), int(g["shoes"])) for g in entry.get("groups", [])]
    if listed:
        return listed
    rows = query(db, "SELECT \"group\", group_label, max(shoes) FROM r GROUP BY ALL ORDER BY 1")
    return [(str(k), str(label), int(n)) for k, label, n in rows]


def _group(db: duckdb.DuckDBPyConnection, key: str, label: str, shoes: int) -> ShuffleGroup:
    rows = query(
        db,
        "SELECT \"check\", test, verdict, coalesce(severity, ''), effect, p_value, adjusted_p,"
        " labels, observed, expected, p_value IS NOT NULL AS tested"
        " FROM r WHERE \"group\" = $group"
        " ORDER BY tested DESC, adjusted_p, p_value, test",
        {"group": key},
    )
    by_check: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_check.setdefault(str(row[0]), []).append(row)
    checks = []
    for check, fair in CHECKS:
        mine = by_check.get(check, [])
        if not mine:
            continue
        tested = [r for r in mine if r[10]]
        top = tested[0] if tested else mine[0]
        checks.append(
            ShuffleCheck(
                check=check,
                fair=fair,
                verdict=str(top[2]),
                severity=str(top[3]),
                test=str(top[1]),
                effect=str(top[4]),
                p=p_text(top[5]) if top[5] is not None else "",
                adjusted=p_text(top[6]) if top[6] is not None else "",
                tested=len(tested),
                failed=sum(1 for r in tested if r[3]),
                too_few=len(mine) - len(tested),
                chart=_chart(f"{check} {top[1]}", top[7], top[8], top[9]) if top[10] else None,
            )
        )
    anchor = "shuffle-" + "".join(ch if ch.isalnum() else "-" for ch in key).strip("-")
    return ShuffleGroup(anchor, label, shoes, checks)


def _chart(title: str, labels: list[str], observed: list[float], expected: list[float]) -> (
    ShuffleChart | None
):
    """Observed bars and the fair expectation as a line; none for a single number."""
    n = len(labels)
    if n < 2 or len(observed) != n or len(expected) != n:
        return None
    top = max(max(observed), max(expected), 1e-12)
    step = CHART_W / n
    bars = [
        (round(i * step, 2), round(CHART_H * (1 - v / top), 2), round(max(step - 0.6, 0.4), 2),
         round(CHART_H * v / top, 2))
        for i, v in enumerate(observed)
    ]  # fmt: skip
    points = " ".join(
        f"{round((i + 0.5) * step, 2)},{round(CHART_H * (1 - v / top), 2)}"
        for i, v in enumerate(expected)
    )
    return ShuffleChart(title, bars, points, str(labels[0]), str(labels[-1]))
