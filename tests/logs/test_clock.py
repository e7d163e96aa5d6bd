"""``hand.time`` of a hand's events (``audit.logs.clock``): log-format.md's events ``seq`` is
strictly increasing inside a hand and ``ts`` is when the server accepted the action, so an
event stamped earlier than the one before it is one minor ``hand.time`` on the hand (a blind
tester's hand GZ1-01, event 1 stamped five minutes before event 0, was verified and
silent). Equal times, and times outside the hand's own, are not judged."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from audit.run import replay_logs
from audit.sim import simulate
from tests.logs.logbuilder import T0, LogBuilder


def _night(tmp_path: Path) -> LogBuilder:
    """Game g1 of two quick hands, h1 and h2: each event one second after the one before."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1").quick_hand("h2")
    return logs


def _events(logs: LogBuilder, hand_id: str) -> list[dict[str, Any]]:
    return sorted((r for r in logs.rows["events"] if r["hand_id"] == hand_id),
                  key=lambda r: r["seq"])  # fmt: skip


def _replayed(logs: LogBuilder, out: Path) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The run's ``hand.time`` findings and each hand's status."""
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False)
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    hands = pq.read_table(out / "hands.parquet").to_pylist()
    return ([f for f in findings if f["check"] == "hand.time"],
            {r["hand_id"]: r["status"] for r in hands})  # fmt: skip


def test_events_ts_a_hand_whose_events_go_back_in_time_is_one_minor_hand_time(
    tmp_path: Path,
) -> None:
    """log-format.md (events: seq, ts): hand h1's event 1 is stamped five minutes before its
    event 0, and event 3 before event 2 too: one minor ``hand.time`` on the hand, at the
    first, naming both times; the hand is still replayed (a ``discrepancy``, not
    quarantined), and h2 verifies."""
    logs = _night(tmp_path)
    events = _events(logs, "h1")
    events[0]["ts"] = T0 + timedelta(minutes=10)
    events[1]["ts"] = T0 + timedelta(minutes=5)
    events[3]["ts"] = events[2]["ts"] - timedelta(seconds=1)
    (timed,), hands = _replayed(logs, tmp_path / "out")
    assert (timed["severity"], timed["game_id"], timed["hand_id"], timed["seq"]) == (
        "minor", "g1", "h1", 1)
    assert (timed["player_id"], timed["expected"], timed["recorded"]) == (
        events[1]["player_id"], "at or after 2026-11-29 18:10:00 UTC", "2026-11-29 18:05:00 UTC")
    assert timed["message"] == (
        f"Event 1 of hand h1 ({events[1]['player_id']}'s {events[1]['action']}) is stamped "
        "2026-11-29 18:05:00 UTC, before event 0 at 2026-11-29 18:10:00 UTC: the server's "
        "clock or the events' order is wrong.")
    assert timed["rule"].startswith("events.ts: ")
    assert hands == {"h1": "discrepancy", "h2": "verified"}


def test_events_ts_times_apart_by_less_than_a_second_are_said_to_the_millisecond(
    tmp_path: Path,
) -> None:
    """log-format.md: timestamps are milliseconds; an event 250 ms before the one before it
    names both times to the millisecond, so they read apart."""
    logs = _night(tmp_path)
    events = _events(logs, "h2")
    events[2]["ts"] = events[1]["ts"] - timedelta(milliseconds=250)
    (timed,), hands = _replayed(logs, tmp_path / "out")
    assert (timed["hand_id"], timed["seq"]) == ("h2", 2)
    assert (timed["expected"], timed["recorded"]) == (
        "at or after 2026-11-29 18:00:01.000 UTC", "2026-11-29 18:00:00.750 UTC")
    assert hands == {"h1": "verified", "h2": "discrepancy"}


def test_events_ts_equal_times_and_times_outside_the_hand_say_nothing(tmp_path: Path) -> None:
    """log-format.md: ``seq`` orders a hand's events, and two actions may be accepted in one
    millisecond: equal times are kept. Times outside the hand's ``started_at`` and
    ``ended_at`` are not judged (a writer may stamp the hand's row otherwise)."""
    logs = _night(tmp_path)
    for event in _events(logs, "h1"):
        event["ts"] = T0 + timedelta(seconds=3)
    for event in _events(logs, "h2"):
        event["ts"] += timedelta(hours=5)
    timed, hands = _replayed(logs, tmp_path / "out")
    assert timed == []
    assert hands == {"h1": "verified", "h2": "verified"}


def test_events_ts_a_quarantined_hand_says_nothing_of_its_times(tmp_path: Path) -> None:
    """schemas/README.md: a hand that cannot be replayed is quarantined and judged no
    further: h1's events lack seq 2 and go back in time at seq 1; only its quarantine is
    said."""
    logs = _night(tmp_path)
    events = _events(logs, "h1")
    events[1]["ts"] = events[0]["ts"] - timedelta(minutes=1)
    logs.rows["events"].remove(events[2])
    timed, hands = _replayed(logs, tmp_path / "out")
    assert timed == []
    assert hands == {"h1": "quarantined", "h2": "verified"}


def test_events_ts_an_honest_simulated_night_raises_no_hand_time(tmp_path: Path) -> None:
    """An untampered simulated night (its events 1-20 s apart, tests/sim/test_simulate.py's
    ``test_times_are_human``) raises no finding at all, ``hand.time`` included."""
    root = tmp_path / "logs"
    sim = simulate(games=30, out=root, seed=5, workers=1)
    summary = replay_logs(logs=root, out=tmp_path / "out", workers=1, progress=False,
                          fairplay=False)  # fmt: skip
    assert summary.findings == Counter()
    assert summary.hands == Counter(verified=sim.hands)


def test_events_ts_an_open_melds_hand_whose_events_go_back_in_time_is_one_hand_time(
    tmp_path: Path,
) -> None:
    """The open-melds game's hands (docs/open-melds.md) are replayed by their own door,
    which carries the finding too: a simulated match's first hand, its event 1 stamped a
    minute before event 0, is one minor ``hand.time`` there, its other hands verified."""
    root = tmp_path / "logs"
    sim = simulate(games=1, out=root, seed=5, presets=("open-melds-13",), workers=1)
    path = next(p for p in sorted(root.glob("events/**/*.parquet")) if pq.read_table(p).num_rows)
    table = pq.read_table(path)
    rows = table.to_pylist()
    held = {(r["hand_id"], r["seq"]) for r in rows}
    first = next(hand for hand, seq in sorted(held) if seq == 0 and (hand, 1) in held)
    (zero,) = [r for r in rows if r["hand_id"] == first and r["seq"] == 0]
    (one,) = [r for r in rows if r["hand_id"] == first and r["seq"] == 1]
    one["ts"] = zero["ts"] - timedelta(minutes=1)
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)
    summary = replay_logs(logs=root, out=tmp_path / "out", workers=1, progress=False,
                          fairplay=False)  # fmt: skip
    assert summary.findings == Counter({"hand.time": 1})
    assert summary.hands == Counter(verified=sim.hands - 1, discrepancy=1)
    (timed,) = pq.read_table(tmp_path / "out" / "findings.parquet").to_pylist()
    assert (timed["check"], timed["severity"], timed["hand_id"], timed["seq"]) == (
        "hand.time", "minor", first, 1)
