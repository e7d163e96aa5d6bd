"""The simulator writes valid, deterministic logs that docs/replay.md verifies clean.

One 200-game run (``SEED``) is checked hand by hand by an independent walk (walk.py):
cards conserved, turns kept, declarations judged by the rules engine, and every claim
(results, game events, ledger) what the replay will work out.
"""

from __future__ import annotations

import doctest
import itertools
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import audit.sim
import audit.sim.games
import audit.sim.play
import audit.sim.players
from audit.errors import AuditError
from audit.logs.contract import SCHEMA_VERSION_KEY, check_schema, conform, load_contract
from audit.rules.ruleset import load_preset
from audit.run import replay_logs
from audit.sim import DEFAULT_FORMATS, SimSummary, simulate
from tests.sim.walk import TABLES, Logs, Row, Walked, digest, files, load, walk

SEED = 20261132  # chosen: its run holds every kind of play (see the "seeded run" test)
GAMES = 200
PAISA = Decimal("0.01")


def money(value: Decimal) -> Decimal:
    return value.quantize(PAISA, rounding=ROUND_HALF_UP)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[SimSummary, Path]:
    root = tmp_path_factory.mktemp("sim") / "logs"
    return simulate(games=GAMES, out=root, seed=SEED), root


@pytest.fixture(scope="module")
def logs(run: tuple[SimSummary, Path]) -> Logs:
    return load(run[1])


@pytest.fixture(scope="module")
def walked(logs: Logs) -> dict[str, Walked]:
    """Every hand walked, by hand_id."""
    out: dict[str, Walked] = {}
    for game_id, hands in logs.hands.items():
        for hand in hands:
            try:
                out[hand["hand_id"]] = walk(logs.games[game_id], hand, logs.events[hand["hand_id"]])
            except AssertionError as error:
                raise AssertionError(f"hand {hand['hand_id']}: {error}") from error
    return out


def test_same_arguments_give_the_same_bytes(run: tuple[SimSummary, Path], tmp_path: Path) -> None:
    again = simulate(games=GAMES, out=tmp_path / "again", seed=SEED)
    assert again == run[0]
    assert digest(tmp_path / "again") == digest(run[1])


def test_the_replay_verifies_every_hand(run: tuple[SimSummary, Path], tmp_path: Path) -> None:
    """docs/replay.md's checks, run for real: an untampered night raises no finding."""
    summary = replay_logs(logs=run[1], out=tmp_path / "audit", workers=1, progress=False)
    assert summary.findings == Counter()
    assert summary.hands == Counter(verified=run[0].hands)


def test_another_seed_gives_other_logs(tmp_path: Path) -> None:
    one = simulate(games=5, out=tmp_path / "one", seed=1)
    two = simulate(games=5, out=tmp_path / "two", seed=2)
    assert one.games == two.games == 5
    assert digest(tmp_path / "one") != digest(tmp_path / "two")


def test_every_file_is_in_the_contract(run: tuple[SimSummary, Path]) -> None:
    root = run[1]
    contract = load_contract()
    for table in TABLES:
        paths = files(root, table)
        assert paths, f"no {table} files"
        for path in paths:
            assert re.fullmatch(
                rf"{table}/date=\d{{4}}-\d{{2}}-\d{{2}}/part-\d+-\d+\.parquet",
                path.relative_to(root).as_posix(),
            )
            parquet = pq.ParquetFile(path)
            assert parquet.schema_arrow.metadata[SCHEMA_VERSION_KEY.encode()] == b"1"
            assert check_schema(table, parquet.schema_arrow, source=str(path)) == []
            data = conform(table, parquet.read(), source=str(path))
            for column in contract[table].columns:
                if not column.nullable:
                    assert data.column(column.name).null_count == 0, (path, column.name)
    labels = pq.ParquetFile(root / "labels.parquet")
    assert labels.schema_arrow.metadata[SCHEMA_VERSION_KEY.encode()] == b"1"
    assert labels.metadata.num_rows == 0  # nothing planted unless asked


def test_events_are_split_over_several_files(run: tuple[SimSummary, Path]) -> None:
    assert len(files(run[1], "events")) >= 2


def test_summary_counts_what_was_written(run: tuple[SimSummary, Path], logs: Logs) -> None:
    summary = run[0]
    assert summary.games == len(logs.games) == GAMES
    assert summary.hands == sum(len(h) for h in logs.hands.values())
    assert summary.events == sum(len(e) for e in logs.events.values())


def test_formats_presets_and_table_sizes_are_all_represented(logs: Logs) -> None:
    games = logs.games.values()
    assert {g["format"] for g in games} == set(DEFAULT_FORMATS)
    assert {g["ruleset"] for g in games} == {"standard-13", "first-life-13"}
    assert {g["chip_type"] for g in games} == {"real", "practice"}
    assert {g["deals_count"] for g in games if g["format"] == "deals"} == {2, 3}
    sizes = {len(h["seats"]) for hands in logs.hands.values() for h in hands}
    assert sizes == {2, 3, 4, 5, 6}
    assert Counter(g["format"] for g in games).most_common(1)[0][0] == "points"


def test_every_hand_replays_clean(logs: Logs, walked: dict[str, Walked]) -> None:
    """The walk conserves cards and keeps turns; results are what docs/replay.md gives."""
    for hands in logs.hands.values():
        for hand in hands:
            expected = walked[hand["hand_id"]]
            rows = logs.results[hand["hand_id"]]
            assert sorted(r["player_id"] for r in rows) == sorted(
                s["player_id"] for s in hand["seats"]
            ), "one results row per seat"
            for row in rows:
                player = row["player_id"]
                got = (row["outcome"], row["points"])
                want = (expected.outcomes[player], expected.points[player])
                assert got == want, (hand["hand_id"], player)


def test_the_seeded_run_shows_every_kind_of_play(logs: Logs, walked: dict[str, Walked]) -> None:
    """Stock exhaustion with a reshuffle, drops, leaves, time-outs, invalid declarations,
    server-arranged losers, rebuys and splits all occur in the seeded run."""
    events = [e for hand_events in logs.events.values() for e in hand_events]
    kinds = Counter((e["action"], e["reason"]) for e in events)
    assert kinds["reshuffle", None] >= 1
    assert kinds["drop", "player"] >= 1
    assert kinds["drop", "left"] >= 1
    assert kinds["discard", "timeout"] >= 1
    outcomes = Counter(r["outcome"] for rows in logs.results.values() for r in rows)
    assert set(outcomes) == {"won", "lost", "first_drop", "middle_drop", "invalid_declare"}
    losers = sum(Counter(w.outcomes.values())["lost"] for w in walked.values())
    shown = sum(len(w.shows) for w in walked.values())
    assert 0.8 * losers < shown < losers
    assert sum(w.reshuffles for w in walked.values()) == kinds["reshuffle", None]
    actions = Counter(
        (a["action"], a["split_kind"]) for rows in logs.game_events.values() for a in rows
    )
    for kind in ("eliminated", "rebuy", "split_offer", "split_accept", "split_reject"):
        assert actions[kind, None] >= 1, kind
    assert actions["split", "auto"] >= 1
    assert actions["split", "manual"] >= 1


def test_times_are_human(logs: Logs) -> None:
    """Events in order, 1-20 s apart for a player's own action; the server is quicker
    (reshuffle) or waits out the turn timer (time-out)."""
    for hand_events in logs.events.values():
        for before, after in itertools.pairwise(hand_events):
            gap = (after["ts"] - before["ts"]).total_seconds()
            if after["action"] == "reshuffle":
                assert 0 < gap < 1
            elif after["auto"] and after["reason"] == "timeout":
                assert gap == 30
            else:
                assert 1 <= gap <= 20
    for game_id, game in logs.games.items():
        hands = logs.hands[game_id]
        assert game["started_at"] < hands[0]["started_at"]
        assert all(h["started_at"] < h["ended_at"] for h in hands)
        assert hands[-1]["ended_at"] < game["ended_at"]


def test_sessions_one_per_player_per_game(logs: Logs) -> None:
    for game_id, hands in logs.hands.items():
        players = {s["player_id"] for h in hands for s in h["seats"]}
        sessions = logs.sessions[game_id]
        assert sorted(s["player_id"] for s in sessions) == sorted(players)
        game = logs.games[game_id]
        for s in sessions:
            assert s["joined_at"] <= game["started_at"] < s["left_at"]
            assert s["client"] in ("app", "web")
            assert s["ip"].startswith("10.")


def test_players_sit_at_one_table_at_a_time(logs: Logs) -> None:
    spans: dict[str, list[tuple[object, object]]] = {}
    for sessions in logs.sessions.values():
        for s in sessions:
            spans.setdefault(s["player_id"], []).append((s["joined_at"], s["left_at"]))
    for player_spans in spans.values():
        player_spans.sort()
        for (_, left), (joined, _) in itertools.pairwise(player_spans):
            assert left < joined  # type: ignore[operator]


def test_money_balances_in_every_game(logs: Logs) -> None:
    for game_id in logs.games:
        assert sum(row["amount"] for row in logs.ledger[game_id]) == 0, game_id


def test_points_games_settle_each_hand(logs: Logs) -> None:
    for game_id, game in logs.games.items():
        if game["format"] != "points":
            continue
        settled: Counter[str] = Counter()
        rake = Decimal(0)
        for hand in logs.hands[game_id]:
            rows = logs.results[hand["hand_id"]]
            paid = Decimal(0)
            for row in rows:
                assert row["score_after"] is None
                if row["outcome"] != "won":
                    assert row["amount"] == -money(row["points"] * game["point_value"])
                    paid -= row["amount"]
            cut = money(paid * game["rake_pct"] / 100)
            assert [r["amount"] for r in rows if r["outcome"] == "won"] == [paid - cut]
            rake += cut
            settled.update({r["player_id"]: r["amount"] for r in rows})
        ledger = logs.ledger[game_id]
        assert {r["kind"] for r in ledger} == {"points_settlement", "rake"}
        booked: Counter[str] = Counter()
        for row in ledger:
            if row["kind"] == "points_settlement":
                booked[row["player_id"]] += row["amount"]
        assert booked == settled
        assert sum(r["amount"] for r in ledger if r["kind"] == "rake") == rake


def _entry_money(game: Row, ledger: list[Row], entries: int) -> tuple[Decimal, Decimal]:
    """(prize pool less rake, rake) for ``entries`` buy-ins and rebuys; checks them."""
    fee = game["entry_fee"]
    rake = money(fee * entries * game["rake_pct"] / 100)
    assert [r["amount"] for r in ledger if r["kind"] == "rake"] == [rake]
    assert all(r["amount"] == -fee for r in ledger if r["kind"] in ("buy_in", "rebuy"))
    assert sum(1 for r in ledger if r["kind"] in ("buy_in", "rebuy")) == entries
    return fee * entries - rake, rake


def test_pool_games_follow_the_seed_rules(logs: Logs) -> None:
    splits: Counter[str] = Counter()
    for game_id, game in logs.games.items():
        if not game["format"].startswith("pool"):
            continue
        pool = load_preset(game["ruleset"]).pools[game["format"]]
        hands, actions = logs.hands[game_id], logs.game_events.get(game_id, [])
        scores: dict[str, int] = {}
        rebuys = 0
        for hand in hands:
            seated = [s["player_id"] for s in hand["seats"]]
            for row in logs.results[hand["hand_id"]]:
                before = scores.get(row["player_id"], 0)
                assert row["amount"] is None
                assert row["score_after"] == before + row["points"]
                scores[row["player_id"]] = row["score_after"]
            after = [a for a in actions if a["after_hand_no"] == hand["hand_no"]]
            out = [p for p in seated if pool.is_eliminated(scores[p])]
            assert [(a["player_id"], a["score"]) for a in after if a["action"] == "eliminated"] == [
                (p, scores[p]) for p in out
            ]
            back = [a for a in after if a["action"] == "rebuy"]
            if back:
                still_in = [scores[p] for p in seated if p not in out]
                assert len(still_in) >= pool.rebuy_min_players
                assert max(still_in) < pool.rebuy_below
                assert [a["score"] for a in back] == [
                    max(still_in) + i for i in range(1, len(back) + 1)
                ]
                assert [a["player_id"] for a in back] == [
                    p for p in out if p in {a["player_id"] for a in back}
                ]
                for a in back:
                    scores[a["player_id"]] = a["score"]
                rebuys += len(back)
            playing = [p for p in seated if p not in out or p in {a["player_id"] for a in back}]
            if hand is not hands[-1]:
                following = hands[hands.index(hand) + 1]
                assert sorted(s["player_id"] for s in following["seats"]) == sorted(playing)
        last = hands[-1]["hand_no"]
        closing = [a for a in actions if a["after_hand_no"] == last]
        ledger = logs.ledger[game_id]
        prize, _ = _entry_money(game, ledger, len(hands[0]["seats"]) + rebuys)
        playing_now = [p for p in scores if not pool.is_eliminated(scores[p])]
        won = [a for a in closing if a["action"] == "game_won"]
        split = [a for a in closing if a["action"] == "split"]
        assert len(won) + len(split) == 1
        if won:
            assert [won[0]["player_id"]] == playing_now
            assert [(r["player_id"], r["amount"]) for r in ledger if r["kind"] == "prize"] == [
                (won[0]["player_id"], prize)
            ]
            continue
        kind = split[0]["split_kind"]
        splits[kind] += 1
        shares = {r["player_id"]: r["amount"] for r in ledger if r["kind"] == "split"}
        assert sorted(shares) == sorted(playing_now)
        assert len(shares) >= 2
        assert sum(shares.values()) == prize
        if kind == "auto":
            assert all(scores[p] > pool.auto_split_above for p in shares)
            assert max(shares.values()) - min(shares.values()) <= PAISA
        else:
            accepted = {a["player_id"] for a in closing if a["action"] == "split_accept"}
            assert accepted == set(shares)
            drops = {p: pool.first_drops_left(scores[p]) for p in shares}
            low, high = pool.split_drop_difference
            assert low <= max(drops.values()) - min(drops.values()) <= high
            assert all(scores[p] >= pool.manual_split_min_score for p in shares)
            per_drop = game["entry_fee"] - money(game["entry_fee"] * game["rake_pct"] / 100)
            rest = [shares[p] - (drops[p] - min(drops.values())) * per_drop for p in shares]
            assert max(rest) - min(rest) <= PAISA
    assert splits["auto"] >= 1
    assert splits["manual"] >= 1


def test_deals_games_pay_chips_and_crown_the_leader(logs: Logs) -> None:
    for game_id, game in logs.games.items():
        if game["format"] != "deals":
            continue
        chips: Counter[str] = Counter()
        hands = logs.hands[game_id]
        for number, hand in enumerate(hands, start=1):
            rows = logs.results[hand["hand_id"]]
            assert all(r["outcome"] not in ("first_drop", "middle_drop") for r in rows)
            total = sum(r["points"] for r in rows)
            for row in rows:
                want = total if row["outcome"] == "won" else -row["points"]
                assert row["amount"] == want
                assert row["score_after"] is None
                chips[row["player_id"]] += row["amount"]
            leaders = [p for p, c in chips.items() if c == max(chips.values())]
            if number >= game["deals_count"] and number < len(hands):
                assert len(leaders) > 1, "a deal after the last one without a tie"
        assert len(hands) >= game["deals_count"]
        assert len(leaders) == 1
        won = [a for a in logs.game_events[game_id] if a["action"] == "game_won"]
        assert [a["player_id"] for a in won] == leaders
        prize, _ = _entry_money(game, logs.ledger[game_id], len(hands[0]["seats"]))
        assert [
            (r["player_id"], r["amount"]) for r in logs.ledger[game_id] if r["kind"] == "prize"
        ] == [(leaders[0], prize)]


def test_bad_arguments_are_refused(tmp_path: Path) -> None:
    with pytest.raises(AuditError, match="games must be 1 or more"):
        simulate(games=0, out=tmp_path / "a", seed=1)
    with pytest.raises(AuditError, match="unknown game formats"):
        simulate(games=1, out=tmp_path / "b", seed=1, formats=("rummy500",))
    with pytest.raises(AuditError, match="unknown rule presets"):
        simulate(games=1, out=tmp_path / "c", seed=1, presets=("standard-14",))
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    with pytest.raises(AuditError, match="is not empty"):
        simulate(games=1, out=tmp_path / "full", seed=1)


@pytest.mark.parametrize("module", [audit.sim, audit.sim.games])
def test_module_doctests_pass(module: object) -> None:
    """(play.py and players.py may be compiled: tests/test_compiled.py runs theirs.)"""
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def test_better_players_win_more_and_weaker_ones_drop_more(
    run: tuple[SimSummary, Path], logs: Logs
) -> None:
    """players.parquet (the simulator's truth about its players) against their results."""
    skill = {
        r["player_id"]: r["skill"] for r in pq.read_table(run[1] / "players.parquet").to_pylist()
    }
    seats: Counter[str] = Counter()
    won: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    for rows in logs.results.values():
        for row in rows:
            level = skill[row["player_id"]]
            seats[level] += 1
            won[level] += row["outcome"] == "won"
            dropped[level] += row["outcome"] in ("first_drop", "middle_drop")
    rate = {level: (won[level] / n, dropped[level] / n) for level, n in seats.items()}
    assert set(rate) == {"weak", "average", "strong"}
    assert rate["strong"][0] > rate["weak"][0] + 0.05
    assert rate["average"][0] > rate["weak"][0] + 0.05
    assert rate["weak"][1] > rate["average"][1] > rate["strong"][1]
