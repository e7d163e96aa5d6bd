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


def test_a_rebuy_recorded_in_a_deals_game_is_one_finding_and_moves_no_money(
    logs: Path, tmp_path: Path
) -> None:
    """`games.rebuy_formats` (000_1729c72ad4c1f885.txt: 'This Re-Buyin criterion is not
    available for Best of 2/3 Deal games'); schemas/money.md, deals: "The money is as in
    pool, without rebuys or splits: gross = entry_fee x players", and no `rebuy` rows. A
    rebuy row written in a deals game whose ledger took none is the game's one
    `pool.rebuy`: its ledger is right (a blind tester had three critical `ledger.balance`
    beside it: the rebuy's 15.00 not taken, a rake and a prize on the entry fees with it)."""
    deals = game_ids(logs, "deals")
    won = next(r for r in rows(logs, "game_events")
               if r["game_id"] in deals and r["action"] == "game_won")  # fmt: skip
    game_id = won["game_id"]
    hand_1 = next(h["hand_id"] for h in rows(logs, "hands")
                  if h["game_id"] == game_id and h["hand_no"] == 1)  # fmt: skip
    loser = next(r["player_id"] for r in rows(logs, "results")
                 if r["hand_id"] == hand_1 and r["player_id"] != won["player_id"])  # fmt: skip
    seq = 1 + max(r["seq"] for r in rows(logs, "game_events") if r["game_id"] == game_id)
    rebuy = {**won, "after_hand_no": 1, "seq": seq, "player_id": loser, "action": "rebuy",
             "score": 41}  # fmt: skip
    path = sorted((logs / "game_events").rglob("*.parquet"))[0]
    data = pq.read_table(path)
    pq.write_table(pa.Table.from_pylist([*data.to_pylist(), rebuy], schema=data.schema), path)
    got = [(f["check"], f["game_id"], f["player_id"]) for f in findings(logs, tmp_path / "o")]
    assert got == [("pool.rebuy", game_id, loser)]


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
    if table == "sessions":  # the shared-device detector tests nothing without them: said
        assert "fairplay.shared_device" in found[0]["message"]


@pytest.mark.parametrize("table", ["game_events", "ledger"])
def test_an_optional_table_whose_files_are_all_refused_says_so_not_that_it_is_missing(
    table: str, logs: Path, tmp_path: Path
) -> None:
    """A table folder whose every file is refused skips the checks that need it, as a
    missing table does, and check.skipped says its files could not be read (naming them),
    not that the log root has no such table (a blind tester)."""
    files = sorted((logs / table).rglob("*.parquet"))
    for path in files:
        path.write_bytes(b"PAR1 not parquet")
    found = findings(logs, tmp_path / "out")
    (skipped,) = [f for f in found if f["check"] == "check.skipped"]
    named = ", ".join(p.relative_to(logs).as_posix() for p in files)
    assert skipped["message"].startswith(
        f"None of the log root's {table} files could be read ({named}), so "
    )
    # and no false alarm: the games those files may touch are unchecked (info)
    assert {f["check"] for f in found} <= {"check.skipped", "input.file", "game.unchecked"}
    assert {f["severity"] for f in found if f["check"] == "game.unchecked"} <= {"info"}


@pytest.mark.parametrize("table", ["ledger", "sessions"])
def test_an_optional_table_whose_files_hold_no_row_says_its_checks_were_skipped(
    table: str, logs: Path, tmp_path: Path
) -> None:
    """A ledger (or sessions) written as files of no row: a game with no ledger row is
    flagged only where the ledger holds rows, so every money check passed in silence (a
    blind tester). The night now says, once, that the checks resting on it were skipped,
    and raises nothing else."""
    files = sorted((logs / table).rglob("*.parquet"))
    schema = pq.read_schema(files[0])
    for path in files:
        pq.write_table(schema.empty_table(), path)
    found = findings(logs, tmp_path / "out")
    assert [(f["check"], f["severity"]) for f in found] == [("check.skipped", "info")]
    assert found[0]["message"].startswith(f"The log root's {table} files hold no row, so ")


def drop_rows(root: Path, table: str, pick: Callable[[Row], bool]) -> None:
    """Remove the rows ``pick`` accepts from every file of ``table`` (files kept)."""
    for path in sorted((root / table).rglob("*.parquet")):
        data = pq.read_table(path)
        kept = [r for r in data.to_pylist() if not pick(r)]
        pq.write_table(pa.Table.from_pylist(kept, schema=data.schema), path)


def test_a_game_without_ledger_rows_is_unchecked_not_passed(logs: Path, tmp_path: Path) -> None:
    """An ended game with hands and no ledger row, in a ledger that has other games' rows:
    its money is not judged, and it says so (``game.unchecked``, info); it passed in
    silence (log-format.md: a check is never silently passed; a blind tester). Ledger
    files holding no row at all flag no game: no game there has rows of its own."""
    games = [r for r in rows(logs, "games") if r["chip_type"] == "real" and r["ended_at"]]
    game = games[0]["game_id"]
    drop_rows(logs, "ledger", lambda r: r["game_id"] == game)
    found = findings(logs, tmp_path / "out")
    (unchecked,) = [f for f in found if f["game_id"] == game and f["check"] == "game.unchecked"]
    assert unchecked["severity"] == "info"
    assert unchecked["message"] == (
        f"Game {game} has no ledger rows, though the log root's ledger has rows, so its "
        "money was not checked."
    )
    assert not [f for f in found if f["check"] == "ledger.balance" and f["game_id"] == game]
    drop_rows(logs, "ledger", lambda r: True)
    found = findings(logs, tmp_path / "out-empty")
    assert not [f for f in found if f["check"] in ("game.unchecked", "ledger.balance")]


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


# ------------------------------------------------- values a check needs, left null


def unchecked(found: list[Row], game: str) -> list[str]:
    return [f["message"] for f in found if f["check"] == "game.unchecked" and f["game_id"] == game]


@pytest.mark.parametrize(
    ("fmt", "column", "skipped"),
    [
        ("deals", "deals_count", "how many deals it played and its winner were not checked"),
        ("pool_101", "entry_fee", "its buy-ins, rebuys, prize and split shares were not checked"),
        ("points", "point_value", "the money of its hands was not checked"),
    ],
)
def test_a_games_row_without_a_value_its_checks_need_says_they_were_not_run(
    logs: Path, tmp_path: Path, fmt: str, column: str, skipped: str
) -> None:
    """log-format.md: deals_count, entry_fee and point_value may be null, but the deals,
    ledger and money checks need them: each is reported skipped (`game.unchecked`, with
    the column), never silently passed (it was: no finding at all)."""
    paid = {r["game_id"] for r in rows(logs, "ledger")}
    row = tamper(
        logs, "games",
        lambda r: r["format"] == fmt and r["chip_type"] == "real" and r["game_id"] in paid,
        lambda r: {**r, column: None},
    )  # fmt: skip
    found = findings(logs, tmp_path / "o")
    game = row["game_id"]
    assert unchecked(found, game) == [f"Game {game} records no {column}, so {skipped}."]
    assert [f["check"] for f in found if f["game_id"] == game] == ["game.unchecked"]


@pytest.mark.parametrize(
    ("table", "pick", "column", "needs"),
    [
        ("game_events", {"action": "split"}, "split_kind",
         "a split row needs a split_kind (manual or auto)"),
        ("game_events", {"action": "rebuy"}, "player_id", "a rebuy row needs a player"),
        ("ledger", {"kind": "prize"}, "player_id", "a prize row needs a player"),
    ],
)
def test_a_claim_row_without_what_its_kind_needs_is_quarantined_not_guessed(
    logs: Path, tmp_path: Path, table: str, pick: dict[str, str], column: str, needs: str
) -> None:
    """A split that does not say how it was agreed was read as an auto split (three major
    pool.split alarms on a valid manual split); a rebuy of no player blamed the player in
    eight pool findings. Such a row is now `input.row`, and what rests on it `game.unchecked`."""
    row = tamper(
        logs, table, lambda r: all(r[k] == v for k, v in pick.items()),
        lambda r: {**r, column: None},
    )  # fmt: skip
    found = findings(logs, tmp_path / "o")
    game = row["game_id"]
    (bad,) = [f for f in found if f["check"] == "input.row"]
    assert f"{needs}; {column} is null" in bad["message"]
    assert len(unchecked(found, game)) == 1
    assert {f["check"] for f in found if f["game_id"] == game} <= {"game.unchecked", "input.row"}
    quarantine = pq.read_table(tmp_path / "o" / "quarantine.parquet").to_pylist()
    assert [(q["table"], q["check"]) for q in quarantine] == [(table, "input.row")]


def test_a_running_deals_game_without_deals_count_waits_like_its_checks(
    logs: Path, tmp_path: Path
) -> None:
    """A running game's deal count and winner are judged the night it ends, so a null
    deals_count on a running deals game is not yet a `game.unchecked`."""
    row = tamper(logs, "games", lambda r: r["format"] == "deals",
                 lambda r: {**r, "deals_count": None})  # fmt: skip
    running(logs, row["game_id"])
    assert unchecked(findings(logs, tmp_path / "o"), row["game_id"]) == []


def test_a_game_won_row_naming_no_player_is_read_as_won_by_nobody(
    logs: Path, tmp_path: Path
) -> None:
    """The README lets `game_events.player_id` be null when the action concerns no single
    player, as a split game's game_won may: the row is not quarantined, and a pool game
    with one player left that records its winner as nobody is a `pool.winner` finding."""
    pools = game_ids(logs, "pool_101") | game_ids(logs, "pool_201")
    row = tamper(logs, "game_events",
                 lambda r: r["action"] == "game_won" and r["game_id"] in pools,
                 lambda r: {**r, "player_id": None})  # fmt: skip
    found = findings(logs, tmp_path / "o")
    assert [f for f in found if f["check"] == "input.row"] == []
    (winner,) = [f for f in found if f["check"] == "pool.winner"]
    assert winner["game_id"] == row["game_id"]
    assert "recorded as won by ?" in winner["message"]


@pytest.mark.parametrize("fmt", ["pool_101", "deals"])
def test_a_game_without_its_game_won_row_is_one_finding_not_a_prize_to_a_loser(
    fmt: str, logs: Path, tmp_path: Path
) -> None:
    """schemas/money.md: a pool or deals game whose game_won row is left out, its prize
    paid to the rightful winner, is the game's winner finding (the record names no
    winner; the rules' winner named), not also a critical ledger.balance saying that
    winner "did not win the game" (a blind tester)."""
    games = game_ids(logs, fmt)
    row = tamper(logs, "game_events",
                 lambda r: r["action"] == "game_won" and r["game_id"] in games,
                 lambda r: {**r, "action": "split_reject"})  # fmt: skip
    found = [f for f in findings(logs, tmp_path / "o") if f["game_id"] == row["game_id"]]
    check = "pool.winner" if fmt.startswith("pool") else "deals.chips"
    (winner,) = [f for f in found if f["check"] == check]
    assert row["player_id"] in winner["message"]
    assert [f for f in found if f["check"] == "ledger.balance"] == []

