"""Planted anomalies: every kind is planted, every tampering is found by its check (recall
100 %, per kind), nothing else is found, and the fair-play kinds are really in the logs:
colluding pairs and rings seek each other out and collude whenever they sit together.

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
from audit.records import Shuffle
from audit.run import replay_logs
from audit.shuffle.commitment import reproduce
from audit.sim import PAIRS_PER_KIND, simulate
from audit.sim.anomalies import (
    FAIR_PLAY,
    GROUP_KINDS,
    KINDS,
    PLANT_RATE,
    TAMPERING,
    Planner,
    fits,
    parse_kinds,
)
from tests.sim.walk import TABLES, Logs, Row, digest, files, found_for, load

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


@pytest.fixture(scope="module")
def rule_findings(findings: list[Row]) -> list[Row]:
    """The findings of the rules engine: the fair-play detectors' (``fairplay.*``) are
    judged against the planted truth in tests/fairplay/test_recall.py, the shuffle tests'
    (``rng.*``) below."""
    return [f for f in findings if not f["check"].startswith(("fairplay.", "rng."))]


def labels_of(logs: Logs, kind: str) -> list[Row]:
    return [row for row in logs.labels if row["kind"] == kind]


def games_with(logs: Logs, kinds: tuple[Any, ...]) -> set[str]:
    names = {kind.name for kind in kinds}
    return {row["game_id"] for row in logs.labels if row["kind"] in names and row["game_id"]}


def planted_groups(logs: Logs) -> set[tuple[str, tuple[str, ...]]]:
    """The planted pairs and rings: (kind, accounts in order), from their labels."""
    return {
        (row["kind"], tuple(row["players"])) for row in logs.labels if row["kind"] in GROUP_KINDS
    }


def games_of(logs: Logs) -> dict[str, set[str]]:
    """The games each player sat at."""
    out: dict[str, set[str]] = defaultdict(set)
    for game_id, rows in logs.sessions.items():
        for row in rows:
            out[row["player_id"]].add(game_id)
    return out


def together(logs: Logs, accounts: tuple[str, ...]) -> set[str]:
    """The games where all of ``accounts`` sat."""
    seated = games_of(logs)
    return set.intersection(*(seated[account] for account in accounts))


def takes(events: list[Row], giver: str, taker: str) -> list[str]:
    """The cards ``taker`` drew from the discard pile right after ``giver`` threw them (a
    reshuffle of the stock in between leaves the pile's top card where it was)."""
    played = [event for event in events if event["action"] != "reshuffle"]
    return [
        event["card"]
        for before, event in itertools.pairwise(played)
        if before["player_id"] == giver
        and before["action"] == "discard"
        and event["player_id"] == taker
        and event["action"] == "draw_discard"
    ]


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
        found = found_for(row, findings)
        assert found, f"not found: {row}"
        assert all(f["severity"] in MINOR_OR_ABOVE for f in found)


def test_games_without_tampering_raise_nothing(logs: Logs, rule_findings: list[Row]) -> None:
    """No false alarm: minor-or-worse rule findings fall only in games with tampering
    planted, though the run also holds colluders, shared accounts, bots and a biased
    shuffler."""
    tampered = games_with(logs, TAMPERING)
    stray = [
        f for f in rule_findings
        if f["severity"] in MINOR_OR_ABOVE and f["game_id"] not in tampered
    ]  # fmt: skip
    assert stray == []
    assert games_with(logs, FAIR_PLAY) - tampered  # the fair-play games were replayed too


def test_each_tampered_game_raises_only_what_its_tampering_explains(
    logs: Logs, rule_findings: list[Row]
) -> None:
    """One anomaly, its own checks: a wrong loser's points or drop penalty also make a
    wrong amount and ledger in a points game (the money follows the points) and a wrong
    running score in a pool game (played on, it decides the game's later eliminations,
    rebuys and splits), as a pool score recorded too high does: each is judged on the
    rules' running score (docs/replay.md); extra jokers in a provably-fair shoe also break
    its commitment; an invalid declaration recorded as a win also wrongs the one other
    player still in, who wins by the rules (`turns.last_player`: their recorded loss is a
    `score.outcome` of its own), and in a points game the money that followed the wrong
    winner (`ledger.balance`: the rules settle the hand with the rightful winner,
    schemas/money.md step 3), in a pool game the running scores, which count the
    declarer's 80 (records.verdict_points), and in a deals game the winner, judged on the
    rules' chips; nothing else cascades."""
    pool = {"pool.score", "pool.elimination", "pool.rebuy", "pool.split"}
    explained = {
        "loser_points": {"score.points", "score.amount", "ledger.balance", *pool},
        "pool_score": pool,
        "drop_penalty": {"drop.penalty", "score.amount", "ledger.balance", *pool},
        "stacked_shoe": {"deck.composition", "deck.commitment"},  # at a provably-fair table
        "invalid_declaration": {"declare.verdict", "score.outcome", "ledger.balance",
                                "deals.chips", *pool},
    }
    kinds_of: dict[str, set[str]] = defaultdict(set)
    for row in logs.labels:
        if row["kind"] in {kind.name for kind in TAMPERING}:
            kinds_of[row["game_id"]].add(row["kind"])
    for f in rule_findings:
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
    colluders = {account for _, accounts in planted_groups(logs) for account in accounts}
    ordinary = [n for p, n in games_played.items() if p not in bots and p not in colluders]
    busiest_humans = sorted(ordinary)[-5:]  # colluders are keen too: they seek each other out
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


def test_the_shuffle_tests_catch_the_biased_shuffler_and_nothing_else(
    findings: list[Row],
) -> None:
    """The biased tables shuffle without a commitment: the shuffle tests of that group
    find a joker first too often (rng.position, the check the simulator labels), at minor
    or above; no other group, and no other kind of check, fails."""
    shuffle = [f for f in findings if f["check"].startswith("rng.")]
    strong = [f for f in shuffle if f["severity"] in MINOR_OR_ABOVE]
    assert any(f["check"] == KINDS["biased_shuffle"].check for f in strong)
    assert all("JK" in f["recorded"] for f in strong), strong
    assert all("shuffle hmac" not in f["message"] for f in shuffle)  # provably-fair tables
    catches_jokers = {"rng.position", "rng.card", "rng.uniformity", "rng.first_card",
                      "rng.seat_jokers", "rng.jokers_dealt"}  # fmt: skip
    assert {f["check"] for f in strong} <= catches_jokers


def test_fed_cards_go_from_the_colluder_to_the_partner(logs: Logs) -> None:
    for row in labels_of(logs, "collusion_feeding"):
        colluder, partner = row["players"]
        taken = takes(logs.events[row["hand_id"]], colluder, partner)
        assert taken, row
        assert f"{len(taken)} card(s)" in row["details"]


def test_keen_pairs_and_rings_share_many_games(logs: Logs) -> None:
    """Colluders seek each other out: every planted pair and ring sits together again and
    again (a few games in 500, where chance alone seats them together about once)."""
    groups = planted_groups(logs)
    kinds = [kind for kind, _ in groups]
    assert {kind: kinds.count(kind) for kind in GROUP_KINDS} == dict.fromkeys(
        GROUP_KINDS, PAIRS_PER_KIND
    )
    for kind, accounts in groups:
        assert len(accounts) == KINDS[kind].accounts
        assert len(together(logs, accounts)) >= 4, (kind, accounts)


def test_a_group_colludes_in_every_game_where_it_sits_and_only_there(logs: Logs) -> None:
    """Whenever all the accounts of a pair or ring sit at one game, the game carries their
    kind and nothing else, and they collude all game long: shared accounts are labelled
    in every such game; every card a feeder's partner takes from the feeder's throw is in
    a label of the hand; a chip dumper never drops or declares. Where they do not all sit,
    nothing of theirs is labelled. (A hand-level kind is labelled where it showed: a soft
    drop needs a good hand, chip dumping the partner's win.)"""
    game_kinds: dict[str, set[str]] = defaultdict(set)
    for row in logs.labels:
        if row["game_id"] is not None and row["kind"] != "biased_shuffle":  # a table's kind
            game_kinds[row["game_id"]].add(row["kind"])
    for kind, accounts in planted_groups(logs):
        shared = together(logs, accounts)
        rows = [row for row in labels_of(logs, kind) if tuple(row["players"]) == accounts]
        labelled = {row["game_id"] for row in rows}
        assert labelled <= shared, (kind, accounts)
        assert all(game_kinds[game_id] <= {kind} for game_id in shared), (kind, accounts)
        assert len(labelled) >= len(shared) / 2, (kind, accounts)  # it shows in most games
        hands = [h["hand_id"] for game_id in shared for h in logs.hands[game_id]]
        if kind == "multi_account":
            assert labelled == shared
        elif kind in ("collusion_feeding", "collusion_ring"):
            said = {row["hand_id"]: row["details"] for row in rows}
            for hand_id in hands:
                for giver, taker in itertools.pairwise(accounts):
                    taken = takes(logs.events[hand_id], giver, taker)
                    if taken:
                        assert f"{giver} fed {taker} {len(taken)} card(s)" in said[hand_id]
        elif kind == "chip_dumping":
            dumper = accounts[0]
            for hand_id in hands:
                assert not [
                    e
                    for e in logs.events[hand_id]
                    if e["player_id"] == dumper
                    and (e["action"] == "declare" or e["reason"] == "player")
                ], hand_id


def test_a_ring_sits_in_adjacent_seats_and_feeds_down_the_line(logs: Logs) -> None:
    """A ring's three accounts sit in adjacent seats in turn order A, B, C; A feeds B and
    B feeds C, cards taken from the discard pile right after the feeder threw them."""
    rings = [accounts for kind, accounts in planted_groups(logs) if kind == "collusion_ring"]
    assert rings
    fed: dict[tuple[str, str], int] = defaultdict(int)
    for accounts in rings:
        for game_id in together(logs, accounts):
            order = [seat["player_id"] for seat in logs.hands[game_id][0]["seats"]]
            at = order.index(accounts[0])
            assert [order[(at + k) % len(order)] for k in range(3)] == list(accounts)
    for row in labels_of(logs, "collusion_ring"):
        events = logs.events[row["hand_id"]]
        said = row["details"].split("; ")
        links = [
            (giver, taker, taken)
            for giver, taker in itertools.pairwise(row["players"])
            if (taken := takes(events, giver, taker))
        ]
        assert said == [
            f"{giver} fed {taker} {len(taken)} card(s) from the discard pile: {' '.join(taken)}"
            for giver, taker, taken in links
        ]
        for giver, taker, taken in links:
            fed[giver, taker] += len(taken)
    firsts, seconds = {a for a, _, _ in rings}, {b for _, b, _ in rings}
    assert sum(n for (giver, _), n in fed.items() if giver in firsts) > 10  # A fed B
    assert sum(n for (giver, _), n in fed.items() if giver in seconds) > 10  # B fed C


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
    planner = Planner(["pool_score", "loser_points", "bot", "soft_drop"])
    assert planner.kinds == ["pool_score", "loser_points"]  # bots are players, pairs sit
    assert planner.pick(0.99, "points", real=True) == "loser_points"
    assert planner.pick(0.99, "pool_101", real=True) == "pool_score"
    planner.planted("pool_score")
    planner.planted("loser_points")
    assert planner.pick(0.99, "pool_101", real=True) is None
    assert planner.pick(PLANT_RATE * 0.5, "points", real=True) == "loser_points"
    assert planner.pick(PLANT_RATE * 1.5, "pool_101", real=True) == "loser_points"


def test_planner_needs_real_money_where_the_kind_does_and_leaves_groups_to_the_seating() -> None:
    planner = Planner(["skimmed_payout", "soft_drop"])
    assert planner.pick(0.99, "points", real=False) is None
    assert planner.pick(0.99, "points", real=True) == "skimmed_payout"
    assert planner.pick(0.0, "points", real=True) == "skimmed_payout"  # never soft_drop
    assert planner.waiting("soft_drop")  # its pairs take every table they can until it shows
    planner.planted("soft_drop")
    assert not planner.waiting("soft_drop")


def test_a_group_needs_a_table_that_can_carry_its_kind() -> None:
    assert fits("collusion_ring", "pool_101", real=False, seats=3)
    assert not fits("collusion_ring", "pool_101", real=False, seats=2)
    assert fits("collusion_feeding", "deals", real=False, seats=2)
    assert not fits("soft_drop", "deals", real=True)  # deals games allow no drop
    assert not fits("chip_dumping", "points", real=False)
    assert not fits("chip_dumping", "pool_201", real=True)


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
