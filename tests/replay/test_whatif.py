"""What-if: a simulated night re-scored under another ruleset (``rummy-audit whatif``)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.rules.ruleset import Ruleset, load_preset, load_ruleset_file
from audit.sim import simulate
from audit.whatif import CHANGED, UNDECIDED, whatif_logs


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("whatif") / "logs"
    simulate(games=60, out=root, seed=23, workers=1)
    return root


def _standard(logs: Path) -> set[str]:
    games = pq.read_table(logs / "games").to_pylist()
    return {g["game_id"] for g in games if g["ruleset"] == "standard-13"}


def _variant(tmp_path: Path, name: str, body: str) -> Ruleset:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'id = "{name}"\nextends = "standard-13"\n{body}', encoding="utf-8")
    return load_ruleset_file(path)


def test_the_same_rules_change_nothing(logs: Path, tmp_path: Path) -> None:
    result = whatif_logs(logs=logs, out=tmp_path / "out", other=load_preset("standard-13"))
    # Hands of first-life-13 games are re-scored under standard-13 and may change; those
    # of standard-13 games may not.
    own = _standard(logs)
    mine = [c for c in result.changes if c.game_id in own]
    assert mine
    assert all(c.status not in (CHANGED, UNDECIDED) for c in mine)
    assert all(c.points_before == c.points_after and c.amount_before == c.amount_after
               for c in mine)  # fmt: skip


def test_a_lower_cap_charges_the_heavy_losers_less(logs: Path, tmp_path: Path) -> None:
    """points.cap (000_1729c72ad4c1f885.txt: 'A maximum Full count is 80 points') lowered to
    40: every loser charged more than 40 is charged 40, and pays accordingly."""
    body = '[points.cap]\nvalue = 40\ntext = "At most 40."\nsource = "test"\n'
    cap40 = _variant(tmp_path, "cap-40", body)
    result = whatif_logs(logs=logs, out=tmp_path / "out", other=cap40)
    own = _standard(logs)
    changed = [c for c in result.changes if c.status == CHANGED and c.game_id in own
               and c.points_before != c.points_after]  # fmt: skip
    assert changed
    for c in changed:
        assert c.outcome_before == c.outcome_after
        assert c.points_before is not None
        assert c.points_before > 40
        assert c.points_after == 40
        assert c.note == ""
    summary = result.summary()
    assert summary["points_after"] < summary["points_before"]
    # In points rummy the money balances: what the losers pay is the winner's take and rake.
    for when in ("before", "after"):
        amounts = [getattr(c, f"amount_{when}") for c in result.changes
                   if c.format == "points" and c.status != UNDECIDED]  # fmt: skip
        total = sum((a for a in amounts if a is not None), Decimal("0.00"))
        assert total == -getattr(result, f"rake_{when}")
    players = pq.read_table(tmp_path / "out" / "whatif_players.parquet").to_pylist()
    assert sum(p["points_after"] for p in players) == summary["points_after"]


def test_a_declaration_the_other_rules_refuse_is_undecided(logs: Path, tmp_path: Path) -> None:
    """first-life-13 needs a sequence of 4 or more (003_f375e2c560403297.txt: 'Either First
    Life or Second Life must have 4 or more cards'): a standard-13 show of two 3-card
    sequences would have been invalid and the others would have played on, which the
    record cannot tell, so the hand is left out of the totals with the reason."""
    result = whatif_logs(logs=logs, out=tmp_path / "out", other=load_preset("first-life-13"))
    undecided = [c for c in result.changes if c.status == UNDECIDED]
    assert undecided
    assert all("played on past the end of the record" in c.note for c in undecided)
    assert result.summary()["hands"]["undecided"] == len({c.hand_id for c in undecided})


def test_whatif_outputs_are_the_same_bytes_every_run(logs: Path, tmp_path: Path) -> None:
    other = load_preset("first-life-13")
    whatif_logs(logs=logs, out=tmp_path / "a", other=other)
    whatif_logs(logs=logs, out=tmp_path / "b", other=other)
    for name in ("whatif.parquet", "whatif_players.parquet", "whatif.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_whatif_command_prints_the_totals_and_refuses_an_unknown_ruleset(
    logs: Path, tmp_path: Path
) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["whatif", str(logs), "--ruleset", "first-life-13",
                               "--out", str(tmp_path / "out")])  # fmt: skip
    assert done.exit_code == 0, done.output
    summary = json.loads((tmp_path / "out" / "whatif.json").read_text())
    assert f"{summary['hands']['rescored']} hands re-scored under first-life-13" in done.output
    bad = runner.invoke(app, ["whatif", str(logs), "--ruleset", "acme-13",
                              "--out", str(tmp_path / "bad")])  # fmt: skip
    assert bad.exit_code == 2
    assert "unknown ruleset 'acme-13'" in bad.output


def test_simulate_command_plays_the_presets_named(tmp_path: Path) -> None:
    runner = CliRunner()
    night = ["--games", "4", "--seed", "3", "--workers", "1", "--presets", "standard-10"]
    done = runner.invoke(app, ["simulate", *night, "--out", str(tmp_path / "logs")])
    assert done.exit_code == 0, done.output
    games = pq.read_table(tmp_path / "logs" / "games").to_pylist()
    assert {g["ruleset"] for g in games} == {"standard-10"}
    assert {g["cards_per_hand"] for g in games} == {10}
    # A 13-card ruleset cannot re-score 10-card hands: every hand is counted, with why.
    result = whatif_logs(
        logs=tmp_path / "logs", out=tmp_path / "w", other=load_preset("standard-13")
    )
    hands = pq.read_table(tmp_path / "logs" / "hands").num_rows
    assert result.summary()["hands"]["not_rescored"] == {
        "their games deal 10 cards and standard-13 deals 13": hands
    }
    assert result.changes == []
    bad = runner.invoke(app, ["simulate", "--games", "1", "--presets", "acme-13",
                              "--out", str(tmp_path / "bad")])  # fmt: skip
    assert bad.exit_code == 2
