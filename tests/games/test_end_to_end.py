"""The game-level checks end to end, through Parquet logs: a simulated night replays with no
finding; then one recorded value at a time is tampered with in its Parquet file, and the
replay raises exactly the check of the rule broken, on the right game (000_)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.run import replay_logs
from audit.sim import simulate

Row = dict[str, Any]


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("night") / "logs"
    simulate(games=200, out=root, seed=20261132)
    return root


def findings(logs: Path, out: Path) -> list[Row]:
    replay_logs(logs=logs, out=out, workers=1, progress=False)
    return pq.read_table(out / "findings.parquet").to_pylist()


def rows(root: Path, table: str) -> list[Row]:
    return [r for path in sorted((root / table).rglob("*.parquet"))
            for r in pq.read_table(path).to_pylist()]  # fmt: skip


def tamper(
    root: Path, table: str, pick: Callable[[Row], bool], change: Callable[[Row], Row]
) -> Row:
    """Change the first row ``pick`` accepts, in its own file; return the changed row."""
    for path in sorted((root / table).rglob("*.parquet")):
        data = pq.read_table(path)
        records = data.to_pylist()
        for i, row in enumerate(records):
            if pick(row):
                records[i] = change(dict(row))
                pq.write_table(pa.Table.from_pylist(records, schema=data.schema), path)
                return records[i]
    raise AssertionError(f"no {table} row to tamper with")


@pytest.fixture
def logs(night: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "logs"
    shutil.copytree(night, copy)
    return copy


def game_ids(root: Path, fmt: str) -> set[str]:
    return {g["game_id"] for g in rows(root, "games") if g["format"] == fmt}


def test_a_simulated_night_replays_with_no_finding(night: Path, tmp_path: Path) -> None:
    assert findings(night, tmp_path / "out") == []


def score_off_by_one(logs: Path) -> tuple[Row, dict[str, str]]:
    """A pool loser's running score recorded one too low; the row, and the pool hands'
    games by hand id."""
    pools = game_ids(logs, "pool_101") | game_ids(logs, "pool_201")
    hands = {h["hand_id"]: h["game_id"] for h in rows(logs, "hands") if h["game_id"] in pools}
    row = tamper(
        logs, "results",
        lambda r: r["hand_id"] in hands and r["score_after"] and r["outcome"] == "lost",
        lambda r: {**r, "score_after": r["score_after"] - 1},
    )  # fmt: skip
    return row, hands


def test_pool_score_tampered(logs: Path, tmp_path: Path) -> None:
    """`pool_101`/`pool_201`: the running score is the score before plus the hand's points."""
    row, hands = score_off_by_one(logs)
    got = {
        (f["check"], f["game_id"], f["hand_id"], f["player_id"])
        for f in findings(logs, tmp_path / "o")
    }
    assert ("pool.score", hands[row["hand_id"]], row["hand_id"], row["player_id"]) in got
    assert {check for check, *_ in got} <= {"pool.score", "pool.elimination"}


def test_pool_elimination_left_out(logs: Path, tmp_path: Path) -> None:
    """000_: a player whose score reaches the pool number is out: the event is required."""
    row = tamper(
        logs, "game_events", lambda r: r["action"] == "eliminated",
        lambda r: {**r, "action": "split_reject"},
    )  # fmt: skip
    got = {(f["check"], f["game_id"]) for f in findings(logs, tmp_path / "o")}
    assert ("pool.elimination", row["game_id"]) in got


def test_pool_rebuy_scored_wrong(logs: Path, tmp_path: Path) -> None:
    """000_: the new score is 1 + the highest score still in the game."""
    row = tamper(
        logs, "game_events", lambda r: r["action"] == "rebuy",
        lambda r: {**r, "score": r["score"] + 3},
    )  # fmt: skip
    got = {(f["check"], f["game_id"], f["player_id"]) for f in findings(logs, tmp_path / "o")}
    assert ("pool.rebuy", row["game_id"], row["player_id"]) in got


def test_pool_split_paid_wrong(logs: Path, tmp_path: Path) -> None:
    """000_: an auto split shares the prize equally; a manual one pays extra drops first."""
    row = tamper(
        logs, "ledger", lambda r: r["kind"] == "split",
        lambda r: {**r, "amount": r["amount"] + Decimal("1.00")},
    )  # fmt: skip
    got = {(f["check"], f["game_id"], f["player_id"]) for f in findings(logs, tmp_path / "o")}
    assert ("pool.split", row["game_id"], row["player_id"]) in got


def test_pool_winner_recorded_wrong(logs: Path, tmp_path: Path) -> None:
    pools = game_ids(logs, "pool_101") | game_ids(logs, "pool_201")
    others = {
        g: {r["player_id"] for r in rows(logs, "sessions") if r["game_id"] == g} for g in pools
    }
    row = tamper(
        logs, "game_events", lambda r: r["action"] == "game_won" and r["game_id"] in pools,
        lambda r: {**r, "player_id": sorted(others[r["game_id"]] - {r["player_id"]})[0]},
    )  # fmt: skip
    got = {(f["check"], f["game_id"]) for f in findings(logs, tmp_path / "o")}
    assert ("pool.winner", row["game_id"]) in got


def test_deals_chips_moved_wrong(logs: Path, tmp_path: Path) -> None:
    """000_ (deals): the winner of a deal takes the losers' points as chips."""
    deals = game_ids(logs, "deals")
    hands = {h["hand_id"]: h["game_id"] for h in rows(logs, "hands") if h["game_id"] in deals}
    row = tamper(
        logs, "results", lambda r: r["hand_id"] in hands and r["outcome"] == "lost",
        lambda r: {**r, "amount": r["amount"] - 1},
    )  # fmt: skip
    got = {(f["check"], f["hand_id"], f["player_id"]) for f in findings(logs, tmp_path / "o")}
    assert ("deals.chips", row["hand_id"], row["player_id"]) in got


def test_ledger_prize_skimmed(logs: Path, tmp_path: Path) -> None:
    """The prize pool is entry fee x entries less rake; a skimmed prize unbalances the game."""
    row = tamper(
        logs, "ledger", lambda r: r["kind"] == "prize",
        lambda r: {**r, "amount": r["amount"] - Decimal("0.01")},
    )  # fmt: skip
    got = {(f["check"], f["game_id"]) for f in findings(logs, tmp_path / "o")}
    assert got == {("ledger.balance", row["game_id"])}


def test_table_limit_from_the_app(logs: Path, tmp_path: Path) -> None:
    """000_: 'total of 3 tables can be played upon at any point of time in App'."""
    sessions = rows(logs, "sessions")
    first = next(s for s in sessions if s["client"] == "app")
    extra = [
        {**first, "game_id": game, "joined_at": first["joined_at"] + timedelta(seconds=1)}
        for game in sorted({s["game_id"] for s in sessions} - {first["game_id"]})[:3]
    ]
    path = logs / "sessions" / "extra" / "part-0.parquet"
    path.parent.mkdir(parents=True)
    schema = pq.read_schema(next((logs / "sessions").rglob("part-*.parquet")))
    pq.write_table(pa.Table.from_pylist(extra, schema=schema), path)
    got = {(f["check"], f["player_id"]) for f in findings(logs, tmp_path / "o")}
    assert ("table.limit", first["player_id"]) in got


@pytest.mark.parametrize("table", ["game_events", "ledger", "sessions"])
def test_a_missing_optional_table_skips_its_checks_without_false_alarms(
    table: str, logs: Path, tmp_path: Path
) -> None:
    """Without game_events the eliminations, rebuys, splits and winners cannot be known;
    without ledger, the money; without sessions, the table limits. The checks that need
    them are skipped, said once as check.skipped, and raise nothing on the rest."""
    shutil.rmtree(logs / table)
    found = findings(logs, tmp_path / "out")
    assert [(f["check"], f["severity"]) for f in found] == [("check.skipped", "info")]
    assert table in found[0]["message"]


def running(root: Path, game: str) -> None:
    """Mark ``game`` as still running when the batch was cut (ended_at null)."""
    tamper(root, "games", lambda r: r["game_id"] == game, lambda r: {**r, "ended_at": None})


def test_a_running_pool_game_has_its_hands_so_far_judged(logs: Path, tmp_path: Path) -> None:
    """A running game is judged on the hands it has played: a wrong running score is found
    now; its winner, prize and final balance wait (log-format.md: ended_at null while the
    game is still running)."""
    row, hands = score_off_by_one(logs)
    game = hands[row["hand_id"]]
    running(logs, game)
    tamper(logs, "ledger", lambda r: r["game_id"] == game,  # the money is off too
           lambda r: {**r, "amount": r["amount"] - Decimal("5.00")})  # fmt: skip
    got = {(f["check"], f["game_id"], f["hand_id"]) for f in findings(logs, tmp_path / "o")}
    assert ("pool.score", game, row["hand_id"]) in got
    assert ("game.running", game, None) in got
    assert not {c for c, g, _ in got if g == game} & {"pool.winner", "ledger.balance"}


def test_a_running_deals_game_has_its_chips_judged(logs: Path, tmp_path: Path) -> None:
    deals = game_ids(logs, "deals")
    hands = {h["hand_id"]: h["game_id"] for h in rows(logs, "hands") if h["game_id"] in deals}
    row = tamper(
        logs, "results", lambda r: r["hand_id"] in hands and r["outcome"] == "lost",
        lambda r: {**r, "amount": r["amount"] - 1},
    )  # fmt: skip
    running(logs, hands[row["hand_id"]])
    got = {(f["check"], f["hand_id"], f["player_id"]) for f in findings(logs, tmp_path / "o")}
    assert ("deals.chips", row["hand_id"], row["player_id"]) in got
