"""Planted anomalies: every kind is planted, every tampering is found by its check (recall
100 %, per kind), nothing else is found, and the fair-play kinds are really in the logs.

One 500-game run with every kind planted (``SEED``), replayed once through the whole
audit; ``labels.parquet`` is the truth the findings are held to.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import defaultdict
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cards import CODE_TEXT
from audit.cli import app
from audit.errors import AuditError
from audit.logs.contract import check_schema
from audit.replay.commitment import reproduce
from audit.replay.records import Shuffle
from audit.run import replay_logs
from audit.sim import simulate
from audit.sim.anomalies import FAIR_PLAY, KINDS, PLANT_RATE, TAMPERING, Planner, parse_kinds
from tests.sim.walk import TABLES, Logs, Row, digest, files, load

SEED = 3
GAMES = 500
MINOR_OR_ABOVE = {"critical", "major", "minor"}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("planted") / "logs"
    simulate(games=GAMES, out=path, seed=SEED, anomalies="all")
    return path


@pytest.fixture(scope="module")
def logs(root: Path) -> Logs:
    return load(root)


@pytest.fixture(scope="module")
def findings(root: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Row]:
    out = tmp_path_factory.mktemp("planted-out")
    replay_logs(logs=root, out=out, workers=1, progress=False)
    rows: list[Row] = pq.read_table(out / "findings.parquet").to_pylist()
    return rows


def labels_of(logs: Logs, kind: str) -> list[Row]:
    return [row for row in logs.labels if row["kind"] == kind]


def games_with(logs: Logs, kinds: tuple[Any, ...]) -> set[str]:
    names = {kind.name for kind in kinds}
    return {row["game_id"] for row in logs.labels if row["kind"] in names and row["game_id"]}


def test_every_kind_is_planted_and_labelled(logs: Logs) -> None:
    planted = {row["kind"] for row in logs.labels}
    assert planted == set(KINDS)
    for row in logs.labels:
        assert row["check"] == KINDS[row["kind"]].check
        assert row["details"]
        assert row["players"] or row["kind"] == "biased_shuffle"
        if row["game_id"] is not None:
            assert row["game_id"] in logs.games
        if row["hand_id"] is not None:
            assert row["hand_id"].startswith(row["game_id"])


@pytest.mark.parametrize("kind", [kind.name for kind in TAMPERING])
def test_recall_of_planted_tampering_is_complete(
    kind: str, logs: Logs, findings: list[Row]
) -> None:
    """Every planted case of ``kind`` raises its check on its game, hand, event and player."""
    planted = labels_of(logs, kind)
    assert planted
    for row in planted:
        found = [
            f
            for f in findings
            if f["check"] == row["check"]
            and f["game_id"] == row["game_id"]
            and (row["hand_id"] is None or f["hand_id"] == row["hand_id"])
            and (row["seq"] is None or f["seq"] == row["seq"])
            and (
                f["player_id"] is None
                or row["kind"] == "split_amount"
                or f["player_id"] in row["players"]
            )
        ]
        assert found, f"not found: {row}"
        assert all(f["severity"] in MINOR_OR_ABOVE for f in found)


def test_games_without_tampering_raise_nothing(logs: Logs, findings: list[Row]) -> None:
    """No false alarm: minor-or-worse findings fall only in games with tampering planted,
    though the run also holds colluders, shared accounts, bots and a biased shuffler."""
    tampered = games_with(logs, TAMPERING)
    stray = [
        f for f in findings if f["severity"] in MINOR_OR_ABOVE and f["game_id"] not in tampered
    ]
    assert stray == []
    assert games_with(logs, FAIR_PLAY) - tampered  # the fair-play games were replayed too


def test_each_tampered_game_raises_only_what_its_tampering_explains(
    logs: Logs, findings: list[Row]
) -> None:
    """One anomaly, its own checks: a wrong loser's points in a points game also make a
    wrong amount (the money follows the points), extra jokers in a provably-fair shoe also
    break its commitment; nothing else cascades."""
    explained = {
        "loser_points": {"score.points", "score.amount"},
        "drop_penalty": {"drop.penalty", "score.amount"},
        "stacked_shoe": {"deck.composition", "deck.commitment"},  # at a provably-fair table
    }
    kinds_of: dict[str, set[str]] = defaultdict(set)
    for row in logs.labels:
        if row["kind"] in {kind.name for kind in TAMPERING}:
            kinds_of[row["game_id"]].add(row["kind"])
    for f in findings:
        if f["severity"] not in MINOR_OR_ABOVE:
            continue
        (kind,) = kinds_of[f["game_id"]]
        assert f["check"] in explained.get(kind, {KINDS[kind].check}), (kind, f)


def sessions(logs: Logs, game_id: str) -> dict[str, Row]:
    return {row["player_id"]: row for row in logs.sessions[game_id]}


def test_multi_accounts_share_a_device_and_an_ip(logs: Logs) -> None:
    for row in labels_of(logs, "multi_account"):
        first, second = (sessions(logs, row["game_id"])[p] for p in row["players"])
        assert first["ip"] == second["ip"]
        assert first["device_id"] == second["device_id"]


def think_times(logs: Logs) -> dict[str, list[int]]:
    """Each player's time before each of their events, from the event before it."""
    out: dict[str, list[int]] = defaultdict(list)
    for events in logs.events.values():
        for before, event in itertools.pairwise(events):
            if event["player_id"] is not None and not event["auto"]:
                gap = event["ts"] - before["ts"]
                out[event["player_id"]].append(gap.total_seconds() * 1000)
    return out


def test_bots_think_like_machines_and_play_without_breaks(logs: Logs) -> None:
    times = think_times(logs)
    bots = [row["players"][0] for row in labels_of(logs, "bot")]
    games_played: dict[str, int] = defaultdict(int)
    for rows in logs.sessions.values():
        for row in rows:
            games_played[row["player_id"]] += 1
    busiest_humans = sorted(n for p, n in games_played.items() if p not in bots)[-5:]
    for bot in bots:
        assert len(times[bot]) > 100
        assert max(times[bot]) - min(times[bot]) <= 100  # within 1,160-1,240 ms
        assert games_played[bot] > busiest_humans[0]
    human = times[next(p for p in times if p not in bots and len(times[p]) > 100)]
    assert max(human) - min(human) > 5_000


def test_the_biased_shuffler_puts_a_joker_first_too_often(logs: Logs) -> None:
    biased = {row["game_id"] for row in labels_of(logs, "biased_shuffle")}
    first_is_joker: dict[bool, list[bool]] = {True: [], False: []}
    for game_id, hands in logs.hands.items():
        for hand in hands:
            first_is_joker[game_id in biased].append(hand["shoe"][0] == "JK")
    rate = {key: sum(v) / len(v) for key, v in first_is_joker.items()}
    assert len(first_is_joker[True]) > 100
    assert rate[True] > 0.2  # 0.3 of hands moved, plus chance
    assert rate[False] < 0.08  # chance alone: about 2 jokers in 54-106 cards


def test_fed_cards_go_from_the_colluder_to_the_partner(logs: Logs) -> None:
    for row in labels_of(logs, "collusion_feeding"):
        colluder, partner = row["players"]
        events = logs.events[row["hand_id"]]
        taken = [
            event["card"]
            for before, event in itertools.pairwise(events)
            if before["player_id"] == colluder
            and before["action"] == "discard"
            and event["player_id"] == partner
            and event["action"] == "draw_discard"
        ]
        assert taken, row
        assert f"{len(taken)} card(s)" in row["details"]


def test_soft_drops_leave_the_partner_playing(logs: Logs) -> None:
    for row in labels_of(logs, "soft_drop"):
        colluder, partner = row["players"]
        events = logs.events[row["hand_id"]]
        drop = events[row["seq"]]
        assert (drop["player_id"], drop["action"], drop["reason"]) == (colluder, "drop", "player")
        assert not any(e["player_id"] == colluder for e in events[: row["seq"]])
        partner_dropped = [e for e in events if e["player_id"] == partner and e["action"] == "drop"]
        assert all(e["seq"] > row["seq"] for e in partner_dropped)  # the partner was still in


def test_chip_dumpers_lose_their_hands_to_the_partner(logs: Logs) -> None:
    for row in labels_of(logs, "chip_dumping"):
        colluder, partner = row["players"]
        results = {r["player_id"]: r for r in logs.results[row["hand_id"]]}
        assert results[partner]["outcome"] == "won"
        assert results[colluder]["outcome"] == "lost"
        assert results[colluder]["amount"] < 0
        assert logs.games[row["game_id"]]["format"] == "points"


def test_planted_runs_are_deterministic(root: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    simulate(games=GAMES, out=again, seed=SEED, anomalies="all")

    assert digest(again) == digest(root)


def test_planner_plants_each_kind_first_where_it_fits_then_at_the_rate() -> None:
    planner = Planner(["pool_score", "loser_points", "bot"])
    assert planner.kinds == ["pool_score", "loser_points"]  # bots are players, not games
    assert planner.pick(0.99, "points", real=True, pairs_free=()) == "loser_points"
    assert planner.pick(0.99, "pool_101", real=True, pairs_free=()) == "pool_score"
    planner.planted("pool_score")
    planner.planted("loser_points")
    assert planner.pick(0.99, "pool_101", real=True, pairs_free=()) is None
    assert planner.pick(PLANT_RATE * 0.5, "points", real=True, pairs_free=()) == "loser_points"
    assert planner.pick(PLANT_RATE * 1.5, "pool_101", real=True, pairs_free=()) == "loser_points"


def test_planner_needs_real_money_and_a_free_pair_where_the_kind_does() -> None:
    planner = Planner(["skimmed_payout", "soft_drop"])
    assert planner.pick(0.99, "points", real=False, pairs_free=()) is None
    assert planner.pick(0.99, "points", real=False, pairs_free=["soft_drop"]) == "soft_drop"
    assert planner.pick(0.99, "points", real=True, pairs_free=()) == "skimmed_payout"


def test_anomaly_names_are_checked() -> None:
    assert parse_kinds("tampering") == tuple(kind.name for kind in TAMPERING)
    assert parse_kinds(" bot , bot,") == ("bot",)
    with pytest.raises(AuditError, match="unknown anomaly kind 'bots'"):
        parse_kinds("bots")


def test_the_command_refuses_an_unknown_kind_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["simulate", "--games", "3", "--out", str(tmp_path / "x"), "--anomalies", "bots"]
    )
    assert result.exit_code == 2
    assert "unknown anomaly kind 'bots'" in result.output
    assert "Traceback" not in result.output


def test_rooms_played_in_parallel_give_the_same_bytes_as_one_process(tmp_path: Path) -> None:
    """A night of several rooms: ids stay unique, the bytes do not depend on the workers,
    and every room plants its own anomalies, found by the replay."""
    one, two = tmp_path / "one", tmp_path / "two"
    simulate(games=90, out=one, seed=5, anomalies="tampering", workers=1, room=40)
    simulate(games=90, out=two, seed=5, anomalies="tampering", workers=2, room=40)

    assert digest(one) == digest(two)
    logs = load(one)
    assert sorted(logs.games) == [f"G{n:06d}" for n in range(1, 91)]
    rooms_of_table: dict[str, set[int]] = defaultdict(set)
    rooms_of_player: dict[str, set[int]] = defaultdict(set)
    for game_id, game in logs.games.items():
        room = (int(game_id[1:]) - 1) // 40
        rooms_of_table[game["table_id"]].add(room)
        for session in logs.sessions[game_id]:
            rooms_of_player[session["player_id"]].add(room)
    assert len(rooms_of_table) > 8
    assert all(len(rooms) == 1 for rooms in rooms_of_table.values())
    assert all(len(rooms) == 1 for rooms in rooms_of_player.values())
    planted = {row["game_id"] for row in logs.labels}
    assert any(int(g[1:]) <= 40 for g in planted)
    assert any(int(g[1:]) > 80 for g in planted)


def test_planted_logs_still_pass_every_schema_check(root: Path) -> None:
    for table in TABLES:
        for path in files(root, table):
            assert check_schema(table, pq.ParquetFile(path).schema_arrow, source=str(path)) == []


def test_fair_tables_record_commitments_that_reproduce_their_shoes(logs: Logs) -> None:
    rigged = {row["hand_id"] for row in labels_of(logs, "rigged_shuffle")}
    stacked = {row["hand_id"] for row in labels_of(logs, "stacked_shoe")}
    committed = 0
    for game_id, hands in logs.hands.items():
        game = logs.games[game_id]
        for hand in hands:
            if hand["shuffle"] is None or hand["hand_id"] in rigged | stacked:
                continue
            committed += 1
            shuffle = Shuffle(**hand["shuffle"])
            dealt = reproduce(shuffle, game["decks"], game["printed_jokers"])
            assert [CODE_TEXT[c] for c in dealt] == hand["shoe"]
            assert hashlib.sha256(shuffle.server_seed.encode()).hexdigest() == (
                shuffle.server_seed_hash
            )
    assert committed > 50
