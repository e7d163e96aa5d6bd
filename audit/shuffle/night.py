"""Every shuffle test over one night: what ``replay`` runs after the replay, and what
``rummy-audit rng`` runs alone over a replay's outputs (docs/rng.md)."""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from audit import duck
from audit.errors import AuditError
from audit.fairplay.suspicion import p_is, p_text
from audit.findings import Finding, Thresholds, finding
from audit.logs.reader import LogRoot
from audit.shuffle.deal import deal_tests, uniformity_tests
from audit.shuffle.dependence import adjacency_tests, runs_tests, serial_tests
from audit.shuffle.evidence import with_evidence
from audit.shuffle.repeats import repeat_test
from audit.shuffle.result import BIASED, SUSPECT, TOO_FEW, Result, correct
from audit.shuffle.seats import seat_tests
from audit.shuffle.shoes import Group, Night, load_night

MEMORY_LIMIT = "256MB"

NULLS: dict[str, tuple[str, str]] = {
    "rng.position": (
        "each code is equally likely at each position of the shoe",
        "11VAC20-20-510 C.1: each card position passes a chi-square test",
    ),
    "rng.card": (
        "each card is equally likely at each position of the shoe",
        "58 Pa. Code 810a.5(a)(2): fairly distributed over the range",
    ),
    "rng.uniformity": (
        "every position x card cell of the shoe is equally likely",
        "58 Pa. Code 810a.5(c)(1)-(2): chi-square and equi-distribution",
    ),
    "rng.wild_rank": (
        "the wild card's rank is as likely as the shoe's copies of it",
        "58 Pa. Code 810a.5(a)(2): fairly distributed over the range",
    ),
    "rng.open_card": (
        "the open card is any card of the shoe with equal chance",
        "58 Pa. Code 810a.5(a)(2): fairly distributed over the range",
    ),
    "rng.first_card": (
        "each seat's first card is any card of the shoe with equal chance",
        "11VAC20-20-510 C.1: each card position passes a chi-square test",
    ),
    "rng.seat_jokers": (
        "every seat is dealt jokers with the same chance",
        "58 Pa. Code 810a.5(a)(2): fairly distributed over the range",
    ),
    "rng.jokers_dealt": (
        "the deal holds the jokers a random draw from the shoe holds",
        "58 Pa. Code 810a.5(a)(2): fairly distributed over the range",
    ),
    "rng.adjacent": (
        "a card does not depend on the card beside it",
        "11VAC20-20-510 C.3 (correlation test); 58 Pa. Code 810a.5(c)(9)",
    ),
    "rng.serial": (
        "a shoe does not depend on the table's shoe before it",
        "11VAC20-20-510 C.4 (serial correlation); 58 Pa. Code 810a.5(c)(13)",
    ),
    "rng.repeat": (
        "no two shoes are the same",
        "58 Pa. Code 810a.5(a)(1), (a)(4): independent, cryptographically strong",
    ),
    "rng.runs": (
        "a position's colour does not follow a pattern from shoe to shoe",
        "11VAC20-20-510 C.2 (runs test); 58 Pa. Code 810a.5(c)(11)",
    ),
}
"""Per check: the fair shuffle's property it tests, and the regulation that names it."""


def group_tests(group: Group) -> list[Result]:
    """Every test of one shoe group (uncorrected)."""
    return [
        *uniformity_tests(group),
        *deal_tests(group),
        *seat_tests(group),
        *adjacency_tests(group),
        *serial_tests(group),
        repeat_test(group),
        *runs_tests(group),
    ]


def run_tests(night: Night, thresholds: Thresholds | None = None) -> list[Result]:
    """Every test of every group, corrected together (``result.correct``), a failed one
    with the hands of the cell it failed on (``evidence.with_evidence``)."""
    results = [r for g in night.groups for r in group_tests(g)]
    groups = {g.key: g for g in night.groups}
    return [with_evidence(r, groups[r.group])
            for r in correct(results, thresholds or Thresholds())]  # fmt: skip


@dataclass(frozen=True)
class ShuffleAudit:
    results: list[Result]
    shoes: int
    groups: list[tuple[str, str, int]] = field(default_factory=list)
    """(key, label, shoes) per group."""
    left_out: dict[str, int] = field(default_factory=dict)
    games: dict[str, str] = field(default_factory=dict)
    """The game of each failed test's first evidence hand (``games_of``), which its finding
    names beside the hand."""

    def findings(self) -> list[Finding]:
        """One finding per check and group that failed: its strongest test."""
        failed: dict[tuple[str, str], list[Result]] = {}
        for r in self.results:
            if r.severity is not None:
                failed.setdefault((r.group, r.check), []).append(r)
        tested = Counter((r.group, r.check) for r in self.results if r.tested)
        return [_finding(rows, tested[key], self.games) for key, rows in sorted(failed.items())]

    def summary(self) -> dict[str, Any]:
        """What run.json says of the shuffle tests."""
        verdicts = Counter(r.verdict for r in self.results)
        return {
            "status": "run",
            "shoes": self.shoes,
            "groups": [{"group": label, "key": key, "shoes": n} for key, label, n in self.groups],
            "tests": sum(1 for r in self.results if r.tested),
            "too_few_shoes": verdicts.get(TOO_FEW, 0),
            "suspect": verdicts.get(SUSPECT, 0),
            "biased": verdicts.get(BIASED, 0),
            "left_out": self.left_out,
        }


def _finding(rows: list[Result], tested: int, games: dict[str, str]) -> Finding:
    worst = min(rows, key=lambda r: (r.adjusted_p or 0.0, r.sort_key()))
    assert worst.severity is not None
    assert worst.p_value is not None
    null, regulation = NULLS[worst.check]
    others = f"; {len(rows)} of {tested} such tests fail" if tested > 1 else ""
    message = (
        f"In {worst.group_label}, {worst.effect}{others}: the shuffle does not hold "
        f"that {null} ({p_is('p', worst.p_value)}, "
        f"{p_text(worst.adjusted_p or 0.0)} after Holm's correction over "
        f"{worst.tests:,} shuffle tests)."
    )
    if worst.cell is not None:
        where, shoes = worst.cell
        # the cell furthest above its share, which may not be the one the test names (a
        # card turned up 0 times: its missing shoes went elsewhere; a blind tester)
        which = "" if worst.check == "rng.seat_jokers" else (
            ", the cell furthest above a fair shuffle's count")
        message += (
            f" Its evidence{which}: the {shoes:,} hand{'s' * (shoes != 1)} {where} (the "
            f"first {len(worst.hands)} in rng.parquet, from hand {worst.hands[0]})."
        )
    hand = worst.hands[0] if worst.hands else None
    return finding(
        worst.check,
        severity=worst.severity,
        # a night's shoes, no one game's: the evidence hand's game where it names one (a
        # blind tester: a finding naming hand G1-H1 with game "" contradicted itself)
        game_id=games.get(hand, "") if hand is not None else "",
        hand_id=hand,
        expected=f"{null} ({worst.test})",
        recorded=worst.effect,
        message=message,
        rule=f"{worst.check}: {null} (docs/rng.md; {regulation})",
    )


def audit_shuffles(log: LogRoot, out: Path, thresholds: Thresholds | None = None) -> ShuffleAudit:
    """Every shuffle test over the shoes of the hands the replay in ``out`` kept. DuckDB
    spills into a folder under ``out``, removed at the end; a query that fails is one
    ``AuditError``."""
    with tempfile.TemporaryDirectory(prefix=f".rummy-audit-{os.getpid()}-", dir=out) as spill:
        config: duck.Config = {
            "memory_limit": MEMORY_LIMIT,
            "threads": 2,
            "temp_directory": spill,
        }
        con = duck.connect(config=config)
        try:
            night = load_night(log, out, con)
        except duckdb.Error as error:
            first = (str(error).splitlines() or [type(error).__name__])[0]
            raise AuditError(
                f"the shuffle tests could not read the shoes: {first}", slug="rng"
            ) from None
        finally:
            con.close()
    results = run_tests(night, thresholds)
    groups = [(g.key, g.label, g.shoes) for g in night.groups]
    evidence = sorted({r.hands[0] for r in results if r.severity is not None and r.hands})
    return ShuffleAudit(results, night.shoes, groups, night.left_out,
                        games_of(out / "hands.parquet", evidence))  # fmt: skip


def games_of(hands: Path, ids: list[str]) -> dict[str, str]:
    """The game of each hand of ``ids``, as the replay's ``hands.parquet`` has it (the
    least, should a hand id stand in two games); a hand without one is left out."""
    if not ids:
        return {}
    con = duck.connect()
    try:
        rows = con.execute(
            "SELECT hand_id, min(game_id) FROM read_parquet(?) "
            "WHERE hand_id IN (SELECT unnest(?)) AND game_id IS NOT NULL GROUP BY hand_id",
            [str(hands), ids],
        ).fetchall()
    finally:
        con.close()
    return dict(rows)
