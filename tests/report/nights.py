"""Nights the report tests read: a small replayed log, and a synthetic big night.

``small_night``: four games written with the scenario DSL and replayed: a points-rummy
dispute (three findings), a 101-pool hand the record gets right, and the dispute twice
again with hostile player ids (``<script>``, and quotes). ``big_night``: an output folder written
directly, with a million findings (fair-play and shuffle ones among them) and as many
suspicions as asked for, as a run over a huge night would leave it. ``fair_night``: a small
output folder written directly around the suspicions given (``suspicion`` makes them), its
run.json saying the detectors ran, did not run, or (an older run) nothing at all.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from audit.cards import JOKER, shoe_composition
from audit.fairplay.rings import rings
from audit.fairplay.suspicion import Suspicion, how_sure
from audit.findings import Finding, Severity, Thresholds, finding
from audit.output import (
    FINDINGS_SCHEMA,
    HANDS_SCHEMA,
    QUARANTINE_SCHEMA,
    write_findings,
    write_rng,
    write_suspicions,
)
from audit.report.render import write_report
from audit.rules.ruleset import load_preset
from audit.run import replay_logs
from audit.shuffle.night import ShuffleAudit, run_tests
from audit.shuffle.shoes import Night, group_of
from tests.explain.hands import DISPUTE, INVALID
from tests.replay.parquet import write_log
from tests.replay.scenario import scenario

HOSTILE = "<script>alert(1)</script>"
QUOTED = "O'Hara\"&"


def renamed(hand: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``hand`` with its players renamed (seats, events and results)."""

    def name(text: str) -> str:
        words = text.split(" ")
        return " ".join([names.get(words[0], words[0]), *words[1:]])

    out = dict(hand)
    out["seats"] = {names.get(p, p): cards for p, cards in hand["seats"].items()}
    out["events"] = [name(event) for event in hand["events"]]
    out["results"] = {names.get(p, p): r for p, r in hand["results"].items()}
    return out


def small_night(root: Path, *, fairplay: bool = True) -> Path:
    """Write and replay the small night under ``root`` (relative paths ``logs``, ``out``,
    so nothing in the outputs names the machine); returns ``root / "out"``."""
    pairs = [
        scenario(**DISPUTE, game_id="G1", hand_id="G1-01"),
        scenario(**INVALID, game_id="G2", hand_id="G2-01"),
        scenario(**renamed(DISPUTE, {"P2": HOSTILE}), game_id="G3", hand_id="G3-01"),
        scenario(**renamed(DISPUTE, {"P2": QUOTED}), game_id="G4", hand_id="G4-01"),
    ]
    write_log(root / "logs", pairs)
    replay_logs(logs=Path("logs"), out=Path("out"), workers=1, progress=False, fairplay=fairplay,
                rng=False)  # G3 and G4 deal G1's very shoe: the shuffle tests would say so
    return root / "out"


def big_night(
    out: Path, findings: int = 1_000_000, suspicions: int = 0, *, shuffle: bool = True
) -> Path:
    """An output folder holding ``findings`` findings over 100,000 games, and
    ``suspicions`` pair suspicions, each with seven evidence hands in seven games; with
    ``shuffle``, the shuffle tests of a biased group of shoes (``write_shuffle``)."""
    out.mkdir(parents=True, exist_ok=True)
    n = findings
    checks = ["score.points", "drop.penalty", "ledger.balance", "deck.composition",
              "fairplay.collusion", "rng.position"]  # fmt: skip
    severities = {"score.points": "major", "drop.penalty": "major", "ledger.balance": "critical",
                  "deck.composition": "critical", "fairplay.collusion": "minor",
                  "rng.position": "info"}  # fmt: skip
    check = [checks[i % len(checks)] for i in range(n)]
    game = [f"G{i % 100_000:06d}" for i in range(n)]
    columns = {
        "check": check,
        "severity": [severities[c] for c in check],
        "game_id": game,
        "hand_id": [f"{g}-{i % 7 + 1:02d}" for i, g in enumerate(game)],
        "player_id": [f"P{i % 9_973:05d}" for i in range(n)],
        "seq": [i % 60 for i in range(n)],
        "expected": ["20"] * n,
        "recorded": ["25"] * n,
        "message": ["The record charged 25 points where the rules give 20."] * n,
        "rule": ["points.card_points: Cards 2 to 10 count their face value (001_)"] * n,
    }
    pq.write_table(pa.Table.from_pydict(columns, schema=FINDINGS_SCHEMA), out / "findings.parquet")
    hands = 200_000
    pq.write_table(
        pa.Table.from_pydict(
            {
                "hand_id": [f"G{i // 2:06d}-{i % 2 + 1:02d}" for i in range(hands)],
                "game_id": [f"G{i // 2:06d}" for i in range(hands)],
                "hand_no": [i % 2 + 1 for i in range(hands)],
                "format": ["points", "pool_101", "pool_201", "deals"] * (hands // 4),
                "ruleset": ["standard-13"] * hands,
                "players": [4] * hands,
                "status": ["discrepancy"] * hands,
                "findings": [5] * hands,
                "worst_severity": ["critical"] * hands,
                "reason": [None] * hands,
                "outcomes": [["won", "lost", "first_drop", "lost"]] * hands,
                "points": [[0, 35, 20, 80]] * hands,
            },
            schema=HANDS_SCHEMA,
        ),
        out / "hands.parquet",
    )
    pq.write_table(QUARANTINE_SCHEMA.empty_table(), out / "quarantine.parquet")
    run = {
        "tool": "rummy-audit",
        "version": "0.0.0",
        "output_version": "1",
        "arguments": {"logs": "logs", "out": "out", "workers": 2, "fail_on": "major"},
        "inputs": [
            {
                "table": "events",
                "path": "events/part-0.parquet",
                "size": 1,
                "rows": 1,
                "sha256": "0" * 64,
            }
        ],
        "missing_optional_tables": [],
        "counts": {
            "hands": {"verified": 0, "discrepancy": hands, "quarantined": 0},
            "hands_total": hands,
            "quarantine_rows": 0,
            **finding_counts(zip(columns["check"], columns["severity"], strict=True)),
        },
        "timings_s": {"total": 1.0},
        "worst_severity": "critical",
        "exit_status": 1,
        "fairplay": {
            "status": "run",
            "detectors": [
                {
                    "check": "fairplay.collusion",
                    "tested": 10 * suspicions + 7,
                    "suspicions": suspicions,
                }
            ],
            "suspicions": suspicions,
        },
    }
    write_suspicions(
        out / "suspicions.parquet",
        [
            suspicion(
                "fairplay.collusion", (f"P{i:05d}", f"P{i + 1:05d}"), 1e-6 * (i + 1),
                [f"G{(7 * i + k) % 100_000:06d}-{k % 2 + 1:02d}" for k in range(7)],
            )
            for i in range(suspicions)
        ],
    )  # fmt: skip
    if shuffle:
        run["rng"] = write_shuffle(out)
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return out


def finding_counts(findings: Iterable[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """run.json's counts of the (check, severity) of each finding, as ``replay`` writes
    them: the report refuses outputs whose run.json counts other findings."""
    pairs = list(findings)
    by_check = Counter(check for check, _ in pairs)
    by_severity = Counter(severity for _, severity in pairs)
    return {
        "findings": dict(sorted(by_check.items())),
        "findings_by_severity": {s.value: by_severity[s.value] for s in Severity},
    }


def write_shuffle(
    out: Path, shoes: int = 2_000, *, players: Sequence[int] = (), biased: bool = True
) -> dict[str, Any]:
    """rng.parquet of one group of ``shoes`` 106-card shoes (``players`` seated at each,
    else 2 to 6 at random), a third of which a biased shuffler dealt with a printed joker
    first (all fair without ``biased``); returns run.json's ``"rng"`` entry."""
    rng = np.random.default_rng(7)
    base = np.array(sorted(shoe_composition(2, 2).elements()), dtype=np.uint8)
    codes = base[np.argsort(rng.random((shoes, base.size)), axis=1)]
    for row in range(0, shoes, 3) if biased else ():
        at = int(np.flatnonzero(codes[row] == JOKER)[0])
        codes[row, [0, at]] = codes[row, [at, 0]]
    seated = rng.integers(2, 7, shoes)
    players = np.asarray(players) if len(players) else seated
    group = group_of(codes, decks=2, printed_jokers=2, players=players, cards=13,
                     rules=load_preset("standard-13"))  # fmt: skip
    results = run_tests(Night([group]))
    write_rng(out / "rng.parquet", results)
    return ShuffleAudit(results, shoes, [(group.key, group.label, shoes)]).summary()


def suspicion(
    check: str,
    players: tuple[str, ...],
    q: float,
    hands: Sequence[str],
    *,
    money: str | None = None,
    games: Sequence[str] | None = None,
) -> Suspicion:
    """A suspicion as a detector would raise it, its severity from ``q`` (the default
    thresholds), its games those of ``hands`` (``G1-02`` is in game ``G1``)."""
    severity = Severity.MAJOR if q <= 1e-5 else Severity.MINOR if q <= 1e-3 else Severity.INFO
    games = games if games is not None else list(dict.fromkeys(h.rsplit("-", 1)[0] for h in hands))
    p = q / 100
    return Suspicion(
        check=check, severity=severity, players=players, statistic="a test",
        expected=2.0, observed=9.0, effect=4.5, effect_name="rate ratio", p_value=p,
        q_value=q, tests=100, evidence_hands=tuple(hands), evidence_games=tuple(games),
        benign=f"an innocent reading of {check}",
        message=f"{' and '.join(players)} did it 9 times, against 2 expected "
                f"({how_sure(p, q, 100)}).",
        expected_text="2 expected", recorded_text="9", pattern=f"the pattern of {check}",
        money=money,
    )  # fmt: skip


FairPlayStatus = Literal["run", "not run", "absent"]
DETECTORS = ("co_seating", "shared_device", "collusion", "soft_drop", "chip_dumping", "bot", "ring")


def fair_night(
    out: Path,
    suspicions: Sequence[Suspicion],
    *,
    status: FairPlayStatus = "run",
    findings: Sequence[Finding] = (),
) -> Path:
    """A small output folder around ``suspicions`` (and ``findings``): a hand for every
    evidence hand, the suspicions' findings, and run.json whose ``"fairplay"`` entry says
    the detectors ran (``status="run"``), ran not (``--no-fairplay``), or is ``absent``
    (an older run). suspicions.parquet is written only when they ran."""
    out.mkdir(parents=True, exist_ok=True)
    hands = sorted({h for s in suspicions for h in s.evidence_hands} | {"G0-01"})
    game = [h.rsplit("-", 1)[0] for h in hands]
    pq.write_table(
        pa.Table.from_pydict(
            {
                "hand_id": hands,
                "game_id": game,
                "hand_no": [int(h.rsplit("-", 1)[1]) for h in hands],
                "format": ["points"] * len(hands),
                "ruleset": ["standard-13"] * len(hands),
                "players": [4] * len(hands),
                "status": ["verified"] * len(hands),
                "findings": [0] * len(hands),
                "worst_severity": [None] * len(hands),
                "reason": [None] * len(hands),
                "outcomes": [["won", "lost", "lost", "lost"]] * len(hands),
                "points": [[0, 20, 30, 40]] * len(hands),
            },
            schema=HANDS_SCHEMA,
        ),
        out / "hands.parquet",
    )
    ran = status == "run"
    found = [*findings, *(s.to_finding() for s in suspicions if ran)]
    write_findings(out / "findings.parquet", found)
    pq.write_table(QUARANTINE_SCHEMA.empty_table(), out / "quarantine.parquet")
    checks = [f"fairplay.{c}" for c in DETECTORS]
    run: dict[str, Any] = {
        "tool": "rummy-audit",
        "version": "0.0.0",
        "output_version": "1",
        "arguments": {"logs": "logs", "out": "out", "workers": 1, "fail_on": "major"},
        "inputs": [],
        "missing_optional_tables": [],
        "counts": {
            "hands": {"verified": len(hands), "discrepancy": 0, "quarantined": 0},
            "hands_total": len(hands),
            "quarantine_rows": 0,
            **finding_counts((f.check, f.severity.value) for f in found),
        },
        "timings_s": {"total": 1.0},
        "worst_severity": None,
        "exit_status": 0,
    }
    if ran:
        run["fairplay"] = {
            "status": "run",
            "detectors": [
                {
                    "check": c,
                    "tested": 100 + i,
                    "suspicions": sum(1 for s in suspicions if s.check == c),
                }
                for i, c in enumerate(checks)
            ],
            "suspicions": len(suspicions),
        }
        write_suspicions(out / "suspicions.parquet", suspicions)
    elif status == "not run":
        run["fairplay"] = {"status": "not run", "why": "--no-fairplay"}
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return out


HOSTILE_GAME = 'G9"<i>'
"""A game id with a quote and markup: it goes into an id attribute and a link."""


def pair_suspicions() -> list[Suspicion]:
    """A ring of four (R1, R2, HOSTILE, R4: three pairs, R1 and R2 on two checks), a bot,
    and a pair outside the ring."""
    return [
        suspicion("fairplay.collusion", ("R1", "R2"), 1e-9, ["G1-01", "G1-02", "G2-01"]),
        suspicion("fairplay.co_seating", ("R1", "R2"), 0.005, ["G1-01", "G3-01"]),
        suspicion("fairplay.soft_drop", ("R2", HOSTILE), 2e-4, [f"{HOSTILE_GAME}-01", "G4-01"]),
        suspicion(
            "fairplay.chip_dumping",
            (HOSTILE, "R4"),
            5e-4,
            ["G5-01"],
            money="120.00 paid by the first to the second; 0.00 back",
        ),
        suspicion("fairplay.bot", ("B1",), 0.0, [f"G6-{k:02d}" for k in range(1, 8)]),
        suspicion("fairplay.shared_device", ("X1", "X2"), 0.004, ["G7-01"]),
    ]


def with_ring(pairs: list[Suspicion]) -> list[Suspicion]:
    """``pairs`` and the rings they make, in strength order."""
    return sorted([*pairs, *rings(pairs, Thresholds())], key=Suspicion.sort_key)


def ringed_night(out: Path) -> Path:
    """A hand-made output folder: the suspicions of ``pair_suspicions`` and their ring, and
    one rule finding in G1; its report written."""
    broken = finding(
        "score.points", game_id="G1", hand_id="G1-02", player_id="R2", message="65, not 60.",
        rule="points.card_points", expected="60", recorded="65",
    )  # fmt: skip
    fair_night(out, with_ring(pair_suspicions()), findings=[broken])
    write_report(out)
    return out
