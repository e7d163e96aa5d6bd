"""One simulated night with tampered records, replayed whole, and cut in two by time so
that a tampered game is still running at the cut (its tampered hand in the first batch,
its end in the second)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from audit.nightly.night import NightSummary, nightly_logs
from audit.run import replay_logs
from tests.nightly.nights import Batch, add_night, multi_tabling, simulated, split_by_time

GAMES = 80
SEED = 5
WHOLE_NIGHT = "2026-11-29"
FIRST, SECOND = "2026-11-29", "2026-11-30"


@dataclass(frozen=True)
class Cut:
    whole: Path
    """The simulated night's log root."""
    replayed: Path
    """Its replay, whole, in one ``replay``."""
    first: Batch
    second: Batch
    running: list[str]
    """The games running at the cut."""
    spanning: str
    """A running game with a finding on a hand of the first batch."""
    at: datetime
    multi_tabling: dict[str, list[str]]
    """Players over the app's table limit around the cut, and their games
    (``multi_tabling``)."""


@pytest.fixture(scope="session")
def cut(tmp_path_factory: pytest.TempPathFactory) -> Cut:
    root = tmp_path_factory.mktemp("nightly")
    whole = simulated(root, GAMES, SEED, anomalies="tampering")
    found = root / "found"
    replay_logs(logs=whole, out=found, workers=1, progress=False, fairplay=False, rng=False)
    game, hand_end = _tampered_game(whole, found)
    players = multi_tabling(whole, hand_end)
    replayed = root / "replayed"
    replay_logs(logs=whole, out=replayed, workers=1, progress=False)
    first, second, running = split_by_time(whole, hand_end)
    assert game in running
    return Cut(whole, replayed, first, second, running, game, hand_end, players)


def _tampered_game(logs: Path, out: Path) -> tuple[str, datetime]:
    """A game with a finding on a hand before its last, the hand nearest the middle of the
    night (so that both nights hold many games): the game and that hand's end."""
    hands = pq.read_table(logs / "hands", columns=["hand_id", "game_id", "hand_no", "ended_at"])
    with duckdb.connect() as db:
        db.register("logs_hands", hands)
        row = db.execute(
            f"""
            SELECT h.game_id, h.ended_at
            FROM read_parquet('{out / "findings.parquet"}') f
            JOIN logs_hands h ON h.hand_id = f.hand_id
            WHERE f."check" NOT LIKE 'fairplay.%' AND f."check" NOT LIKE 'rng.%'
              AND h.hand_no < (SELECT max(hand_no) FROM logs_hands x WHERE x.game_id = h.game_id)
            ORDER BY abs(epoch(h.ended_at) - (SELECT median(epoch(ended_at)) FROM logs_hands)),
                     h.game_id, h.hand_no
            LIMIT 1
            """
        ).fetchone()
    assert row is not None, "the simulated night has no tampered game of several hands"
    return str(row[0]), row[1]


@pytest.fixture(scope="session")
def two_nights(cut: Cut, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The log root after both nights and the state after both runs."""
    root = tmp_path_factory.mktemp("two-nights")
    logs, state = root / "logs", root / "state"
    add_night(logs, cut.first, FIRST)
    first = night(logs, state)
    assert first.audited
    assert first.night == 1
    add_night(logs, cut.second, SECOND)
    second = night(logs, state)
    assert second.audited
    assert second.night == 2
    return logs, state


def night(logs: Path, state: Path) -> NightSummary:
    return nightly_logs(logs=logs, state=state, workers=1, progress=False)
