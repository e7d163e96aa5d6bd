"""The shuffle tests over a real night: which shoes they read, how they are grouped, the
jokers of each hand, `rummy-audit rng` over a replay, rng.parquet and the report.

The night is simulated (every 4th table records a provably-fair commitment, every 8th has
the simulator's biased shuffler) and replayed once for the module.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit import duck
from audit.cards import CODE_TEXT, parse_codes, shoe_composition
from audit.cli import app
from audit.logs.reader import open_log_root
from audit.output import RNG_SCHEMA
from audit.report.views import build_view
from audit.rules.melds import Jokers
from audit.rules.ruleset import load_preset
from audit.run import replay_logs
from audit.shuffle import shoes
from audit.shuffle.night import NULLS, audit_shuffles
from audit.shuffle.shoes import Group, load_night
from audit.sim import simulate
from tests.sim.walk import Logs, load

runner = CliRunner()
GAMES = 300


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("rng")
    simulate(games=GAMES, out=root / "logs", seed=11, anomalies="biased_shuffle,stacked_shoe")
    replay_logs(logs=root / "logs", out=root / "out", workers=1, progress=False,
                fairplay=False)  # fmt: skip
    return root / "logs", root / "out"


@pytest.fixture(scope="module")
def logs(night: tuple[Path, Path]) -> Logs:
    return load(night[0])


def loaded(night: tuple[Path, Path]) -> list[Group]:
    with duckdb.connect() as con:
        return load_night(open_log_root(night[0]), night[1], con).groups


def test_every_kept_shoe_is_read_once_into_its_group_with_its_hands_jokers(
    night: tuple[Path, Path], logs: Logs
) -> None:
    """Each replayed hand's shoe is in the group of its composition and shuffler, exactly as
    dealt; a shoe that is not its game's cards (a planted stacked shoe) is left out and
    counted; each hand's jokers are the ruleset's for its wild card (docs/rng.md)."""
    hands = {h["hand_id"]: (game_id, h) for game_id, rows in logs.hands.items() for h in rows}
    games = logs.games
    groups = loaded(night)
    seen: Counter[str] = Counter()
    for group in groups:
        for row, hand_id in enumerate(group.hand_ids.to_pylist()):
            seen[hand_id] += 1
            game_id, hand = hands[hand_id]
            game = games[game_id]
            assert (group.decks, group.printed_jokers) == (game["decks"], game["printed_jokers"])
            shuffle = hand["shuffle"]
            assert group.shuffler == (shuffle["algorithm"] if shuffle else "")
            assert [CODE_TEXT[c] for c in group.codes[row]] == hand["shoe"]
            assert group.players[row] == len(hand["seats"])
            assert group.seats[row, : len(hand["seats"])].tolist() == [
                s["seat"] for s in hand["seats"]
            ]
            jokers = Jokers.for_wild_card(hand["wild_card"], load_preset(game["ruleset"]))
            assert set(np.flatnonzero(group.jokers[row])) == {*jokers.codes, 52}
    assert max(seen.values()) == 1
    stacked = {row["hand_id"] for row in logs.labels if row["kind"] == "stacked_shoe"}
    assert stacked
    assert not stacked & set(seen)
    wrong = [
        h for h, (g, hand) in hands.items()
        if Counter(parse_codes(hand["shoe"]))
        != shoe_composition(games[g]["decks"], games[g]["printed_jokers"])
    ]  # fmt: skip
    assert set(wrong) == stacked
    assert set(seen) == set(hands) - stacked
    shuffles = audit_shuffles(open_log_root(night[0]), night[1])
    assert sum(shuffles.left_out.values()) == len(stacked)
    assert shuffles.shoes == len(hands) - len(stacked)


def test_rows_of_a_group_are_in_table_order(night: tuple[Path, Path], logs: Logs) -> None:
    """Consecutive rows of one table are its consecutive shoes (rng.serial pairs them)."""
    started = {h["hand_id"]: h["started_at"] for rows in logs.hands.values() for h in rows}
    for group in loaded(night):
        assert (np.diff(group.tables) >= 0).all()
        same = np.flatnonzero(group.tables[1:] == group.tables[:-1])
        times = [started[h] for h in group.hand_ids.to_pylist()]
        assert all(times[i] <= times[i + 1] for i in same)


def test_shoes_read_a_few_at_a_time_make_the_same_groups(
    night: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shoes are written in passes over the games, and DuckDB hands them over sorted a
    chunk at a time (audit/shuffle/shoes.py, ``load_night``): passes of about 50 hands, and
    chunks of 7 rows, which split groups, tables and seat widths, build the same groups,
    left-out counts and results as one pass and chunks larger than the night."""

    def everything() -> tuple[list[tuple[object, ...]], dict[str, int], list[object]]:
        with duckdb.connect() as con:
            whole = load_night(open_log_root(night[0]), night[1], con)
        groups = [(g.key, g.codes.tolist(), g.hand_ids.to_pylist(), g.tables.tolist(),
                   g.started.tolist(), g.players.tolist(), g.cards.tolist(), g.seats.tolist(),
                   g.jokers.tolist()) for g in whole.groups]  # fmt: skip
        results = audit_shuffles(open_log_root(night[0]), night[1]).results
        return groups, whole.left_out, list(results)

    one_chunk = everything()
    assert len(one_chunk[0]) > 2
    assert sum(len(g[2]) for g in one_chunk[0]) < shoes.CHUNK  # one chunk: the night whole
    assert sum(one_chunk[1].values()) > 0
    monkeypatch.setattr(shoes, "CHUNK", 7)
    monkeypatch.setattr(duck, "HANDS_PER_PASS", 50)
    assert everything() == one_chunk


def test_the_rng_command_replaces_its_findings_and_writes_rng_parquet(
    night: tuple[Path, Path], tmp_path: Path
) -> None:
    logs, replayed = night
    out = tmp_path / "out"
    shutil.copytree(replayed, out)
    before = pq.read_table(out / "findings.parquet").to_pylist()
    for _ in range(2):  # twice: never added twice
        result = runner.invoke(app, ["rng", str(logs), "--out", str(out)])
        assert result.exit_code == 1, result.output  # the biased shuffler: major
        assert "; shuffle " in result.output
        assert "failed checks" in result.output
    after = pq.read_table(out / "findings.parquet").to_pylist()
    shuffle = [f for f in after if f["check"].startswith("rng.")]
    assert [f for f in after if not f["check"].startswith("rng.")] == [
        f for f in before if not f["check"].startswith("rng.")
    ]
    assert len({(f["check"], f["message"]) for f in shuffle}) == len(shuffle)
    assert any(f["check"] == "rng.position" and f["severity"] == "major" for f in shuffle)
    assert all(f["rule"].startswith(f["check"]) for f in shuffle)
    # the game of the evidence hand where one is named, "" where none is (schemas/output.md)
    games = {h["hand_id"]: h["game_id"] for h in pq.read_table(out / "hands.parquet").to_pylist()}
    assert [f["game_id"] for f in shuffle] == [games[f["hand_id"]] if f["hand_id"] else ""
                                               for f in shuffle]  # fmt: skip
    assert any(f["game_id"] for f in shuffle)
    table = pq.read_table(out / "rng.parquet")
    assert table.schema.metadata == RNG_SCHEMA.metadata
    for got, want in zip(table.schema, RNG_SCHEMA, strict=True):
        assert (got.name, got.nullable) == (want.name, want.nullable)
        listed = pa.types.is_list(want.type)
        assert (got.type.value_type if listed else got.type) == (
            want.type.value_type if listed else want.type
        )
    rows = table.to_pylist()
    assert {r["check"] for r in rows} == set(NULLS)
    run = json.loads((out / "run.json").read_text())
    assert run["rng"]["status"] == "run"
    assert run["rng"]["tests"] == sum(1 for r in rows if r["p_value"] is not None)
    assert run["rng"]["biased"] == sum(1 for r in rows if r["verdict"] == "biased")
    assert run["passes"][-1] == {"command": "rng", "fail_on": "major"}
    view = build_view(out)
    assert view.shuffle.ran
    assert view.shuffle.biased == run["rng"]["biased"]
    assert view.shuffle.failed[0].severity == "major"


def test_the_rng_command_refuses_an_output_folder_without_a_replay(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    simulate(games=2, out=logs, seed=1)
    result = runner.invoke(app, ["rng", str(logs), "--out", str(tmp_path / "nothing")])
    assert result.exit_code == 2
    assert "holds no replay" in result.output
    assert "Traceback" not in result.output


def test_no_rng_leaves_no_stale_rng_parquet_and_the_report_says_not_run(
    night: tuple[Path, Path], tmp_path: Path
) -> None:
    logs, replayed = night
    out = tmp_path / "out"
    shutil.copytree(replayed, out)
    assert (out / "rng.parquet").exists()
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False, rng=False)
    assert not (out / "rng.parquet").exists()
    run = json.loads((out / "run.json").read_text())
    assert run["rng"] == {"status": "not run", "why": "--no-rng"}
    html = (out / "report.html").read_text()
    assert "Shuffle statistics: not run.</b> Why: --no-rng." in html
    assert "rummy-audit rng" in html


def test_run_json_counts_the_commitments_deck_commitment_checked(
    night: tuple[Path, Path], logs: Logs
) -> None:
    """The simulated night's provably-fair tables record hmac-sha256-fisher-yates seeds:
    every kept hand of theirs was replayed in full, none checked by the hash only, and the
    report says how many."""
    hands = pq.read_table(night[1] / "hands.parquet", columns=["hand_id", "status"])
    kept = {row["hand_id"] for row in hands.to_pylist() if row["status"] != "quarantined"}
    carried = [h for rows in logs.hands.values() for h in rows
               if h["shuffle"] is not None and h["hand_id"] in kept]  # fmt: skip
    unchecked = {h["hand_id"] for rows in logs.hands.values() for h in rows
                 if h["shuffle"] is not None and h["hand_id"] not in kept}  # fmt: skip
    assert carried
    run = json.loads((night[1] / "run.json").read_text())
    assert run["commitments"] == {"hands": len(carried), "replayed": len(carried), "hash_only": 0,
                                  "shoe_only": 0, "unchecked": 0,
                                  "quarantined": len(unchecked)}  # fmt: skip
    assert build_view(night[1]).commitments.replayed == len(carried)
    html = " ".join((night[1] / "report.html").read_text().split())
    if len(kept) == hands.num_rows:
        assert f"{len(carried):,} hands carried a provably-fair commitment" in html
    else:
        assert (f"{len(carried):,} of the {len(kept):,} hands replayed carried a provably-fair "
                "commitment") in html
