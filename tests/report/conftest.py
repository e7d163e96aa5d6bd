"""The nights the report test modules read, each replayed once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.run import replay_logs
from audit.sim import simulate
from tests.report.nights import ringed_night, small_night


@pytest.fixture(scope="session")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small night's output folder; its log root is ``night.parent / "logs"``."""
    root = tmp_path_factory.mktemp("night")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        return small_night(root)


@pytest.fixture(scope="session")
def unfair_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small night replayed with ``--no-fairplay``."""
    root = tmp_path_factory.mktemp("no-fairplay")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        return small_night(root, fairplay=False)


PLANTED_GAMES = 400
PLANTED_SEED = 7


@pytest.fixture(scope="session")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated night with the fair-play anomalies planted (colluding pairs, rings,
    shared devices, bots), replayed with the detectors: its output folder."""
    root = tmp_path_factory.mktemp("planted")
    simulate(games=PLANTED_GAMES, out=root / "logs", seed=PLANTED_SEED, anomalies="fairplay")
    replay_logs(logs=root / "logs", out=root / "out", workers=1, progress=False)
    return root / "out"


@pytest.fixture(scope="session")
def ringed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A hand-made output folder with suspicions, a ring among them, and hostile ids
    (``nights.ringed_night``)."""
    return ringed_night(tmp_path_factory.mktemp("ringed") / "out")
