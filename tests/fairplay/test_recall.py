"""The fair-play detectors against the simulator's planted truth, end to end through the
nightly job: on one seed, each detector at its default thresholds reaches precision 0.95
and recall 0.9 for its kind, and an honest night suspects nobody. benchmarks/README.md has
the same figures over three seeds of 10,000 games; this is the first of them (a night of
4,000 games planted too few soft drops of hands the rules call strong for a floor on 8
pairs: 5 of 8 found since soft drop judges strength by the rules, 19 of 20 here)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from audit.run import replay_logs
from audit.sim import simulate
from audit.sim.score import RECALL_KINDS, score, suspected_accounts

GAMES = 10_000
SEED = 1


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fairplay-planted")
    simulate(games=GAMES, out=root / "logs", seed=SEED, anomalies="fairplay")
    replay_logs(logs=root / "logs", out=root / "out", progress=False)
    return root


@pytest.mark.parametrize("check", sorted(RECALL_KINDS))
def test_each_detector_reaches_the_floor_on_a_planted_night(planted: Path, check: str) -> None:
    """Precision for every detector; recall for those whose kind the simulator plants
    (loss dumping's is planted on synthetic nights: test_detectors.py)."""
    scores = score(planted / "out" / "suspicions.parquet", planted / "logs" / "labels.parquet")
    (result,) = [s for s in scores if s.check == check]
    assert result.precision >= 0.95, result
    if RECALL_KINDS[check]:
        assert result.groups > 0, "the night plants this detector's kind"
        assert result.recall >= 0.9, result


def test_every_suspicion_is_a_finding_with_its_accounts_and_evidence(planted: Path) -> None:
    suspicions = pq.read_table(planted / "out" / "suspicions.parquet").to_pylist()
    findings = [
        f for f in pq.read_table(planted / "out" / "findings.parquet").to_pylist()
        if f["check"].startswith("fairplay.")
    ]  # fmt: skip
    assert len(findings) == len(suspicions)
    for s in suspicions:
        assert s["evidence_hands"], s["suspicion_id"]
        assert 0 <= s["p_value"] <= s["q_value"] <= 0.01
        assert s["benign"]
        (f,) = [f for f in findings if f["message"] == s["message"]]
        assert f["player_id"] == s["players"][0]
        assert f["hand_id"] == s["evidence_hands"][0]
        text = f"{f['expected']} {f['recorded']}"
        assert all(p in text or s["check"] == "fairplay.bot" for p in s["players"][:2])


def test_an_honest_night_suspects_nobody(tmp_path: Path) -> None:
    simulate(games=GAMES, out=tmp_path / "logs", seed=SEED + 100)
    replay_logs(logs=tmp_path / "logs", out=tmp_path / "out", progress=False)
    assert suspected_accounts(tmp_path / "out" / "suspicions.parquet") == set()
