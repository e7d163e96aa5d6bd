"""What-if: a simulated night re-scored under another ruleset (``rummy-audit whatif``)."""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.records import GameUnit
from audit.rules.ruleset import Ruleset, load_preset
from audit.sim import simulate
from audit.whatif import CHANGED, UNDECIDED, WhatIf, whatif_logs, whatif_unit
from tests.explain.test_view import ACCEPTED_INVALID
from tests.replay.cases import DECLARE, P1, P2, WON, base
from tests.replay.scenario import scenario

CAP_40 = '[points.cap]\nvalue = 40\ntext = "At most 40."\nsource = "test"\n'


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("whatif") / "logs"
    simulate(games=60, out=root, seed=23, workers=1)
    return root


def rows(out: Path) -> list[dict[str, Any]]:
    return pq.read_table(out / "whatif.parquet").to_pylist()


def standard(logs: Path) -> set[str]:
    games = pq.read_table(logs / "games").to_pylist()
    return {g["game_id"] for g in games if g["ruleset"] == "standard-13"}


def platform(tmp_path: Path, name: str, body: str) -> Path:
    folder = tmp_path / "rules"
    folder.mkdir(exist_ok=True)
    text = f'id = "{name}"\nextends = "standard-13"\n{body}'
    (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    return folder


def test_the_same_rules_change_nothing(logs: Path, tmp_path: Path) -> None:
    whatif_logs(logs=logs, out=tmp_path / "out", ruleset="standard-13", workers=1)
    # Hands of first-life-13 games are re-scored under standard-13 and may change; those
    # of standard-13 games may not.
    own = standard(logs)
    mine = [r for r in rows(tmp_path / "out") if r["game_id"] in own]
    assert mine
    assert all(r["status"] not in (CHANGED, UNDECIDED) for r in mine)
    assert all(r["points_before"] == r["points_after"] for r in mine)
    assert all(r["amount_before"] == r["amount_after"] for r in mine)


def test_a_lower_cap_charges_the_heavy_losers_less(logs: Path, tmp_path: Path) -> None:
    """points.cap (000_1729c72ad4c1f885.txt: 'A maximum Full count is 80 points') lowered to
    40 in a platform ruleset: every loser charged more than 40 is charged 40, and pays
    accordingly; the totals are the rows' sums."""
    rules = platform(tmp_path, "cap-40", CAP_40)
    out = tmp_path / "out"
    summary = whatif_logs(logs=logs, out=out, ruleset="cap-40", rules=rules, workers=1)
    own = standard(logs)
    changed = [r for r in rows(out) if r["status"] == CHANGED and r["game_id"] in own
               and r["points_before"] != r["points_after"]]  # fmt: skip
    assert changed
    for r in changed:
        assert r["outcome_before"] == r["outcome_after"]
        assert r["points_before"] > 40
        assert r["points_after"] == 40
        assert r["note"] == ""
    assert summary["points_after"] < summary["points_before"]
    scored = [r for r in rows(out) if r["status"] != UNDECIDED]
    assert summary["points_after"] == sum(r["points_after"] or 0 for r in scored)
    # In points rummy the money balances: what the losers pay is the winner's take and rake.
    for when in ("before", "after"):
        amounts = [r[f"amount_{when}"] for r in scored if r["format"] == "points"]
        total = sum((a for a in amounts if a is not None), Decimal("0.00"))
        assert total == -Decimal(summary["points_money"][f"rake_{when}"])
    players = pq.read_table(out / "whatif_players.parquet").to_pylist()
    assert sum(p["points_after"] for p in players) == summary["points_after"]
    assert [p["player_id"] for p in players] == sorted(p["player_id"] for p in players)
    assert summary["rulesets"][0]["id"] == "cap-40"


def test_players_money_is_null_without_a_points_rummy_hand(logs: Path, tmp_path: Path) -> None:
    """docs/whatif.md: money is re-scored in points rummy only, so a player's amounts in
    whatif_players.parquet are those of their points-rummy hands, and null for a player
    with none (a blind tester: pool-only players showed 0.00, money that came out even)."""
    out = tmp_path / "out"
    whatif_logs(logs=logs, out=out, ruleset="first-life-13", workers=1)
    scored = [r for r in rows(out) if r["status"] != UNDECIDED]
    players = pq.read_table(out / "whatif_players.parquet").to_pylist()
    assert any(p["amount_before"] is None for p in players)
    assert any(p["amount_before"] is not None for p in players)
    for p in players:
        mine = [r for r in scored if r["player_id"] == p["player_id"]]
        for when in ("before", "after"):
            paid = [r[f"amount_{when}"] for r in mine if r[f"amount_{when}"] is not None]
            assert p[f"amount_{when}"] == (sum(paid, Decimal("0.00")) if paid else None)
        if all(r["format"] != "points" for r in mine):
            assert (p["amount_before"], p["amount_after"]) == (None, None)


def test_a_declaration_the_other_rules_refuse_is_undecided(logs: Path, tmp_path: Path) -> None:
    """first-life-13 needs a sequence of 4 or more (003_f375e2c560403297.txt: 'Either First
    Life or Second Life must have 4 or more cards'): a standard-13 show of two 3-card
    sequences would have been invalid and the others would have played on, which the
    record cannot tell, so the hand is left out of the totals with the reason."""
    out = tmp_path / "out"
    summary = whatif_logs(logs=logs, out=out, ruleset="first-life-13", workers=1)
    undecided = [r for r in rows(out) if r["status"] == UNDECIDED]
    assert undecided
    assert all("played on past the end of the record" in r["note"] for r in undecided)
    assert summary["hands"]["undecided"] == len({r["hand_id"] for r in undecided})


def test_whatif_outputs_are_the_same_bytes_whatever_the_workers(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("audit.run.bucket_rows", lambda events, workers: 2_000)  # many buckets
    whatif_logs(logs=logs, out=tmp_path / "a", ruleset="first-life-13", workers=1)
    whatif_logs(logs=logs, out=tmp_path / "b", ruleset="first-life-13", workers=2)
    for name in ("whatif.parquet", "whatif_players.parquet", "whatif.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_whatif_command_prints_the_totals_and_refuses_an_unknown_ruleset(
    logs: Path, tmp_path: Path
) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["whatif", str(logs), "--ruleset", "first-life-13",
                               "--out", str(tmp_path / "out"), "--workers", "1"])  # fmt: skip
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
    summary = whatif_logs(logs=tmp_path / "logs", out=tmp_path / "w", ruleset="standard-13")
    hands = pq.read_table(tmp_path / "logs" / "hands").num_rows
    assert summary["hands"]["not_rescored"] == {
        "their games deal 10 cards and standard-13 deals 13": hands
    }
    assert rows(tmp_path / "w") == []
    bad = runner.invoke(app, ["simulate", "--games", "1", "--presets", "acme-13",
                              "--out", str(tmp_path / "bad")])  # fmt: skip
    assert bad.exit_code == 2


def test_whatif_leaves_the_open_melds_game_out_with_the_reason(
    logs: Path, tmp_path: Path
) -> None:
    """`game.kind`: what-if re-scores declaration games only. An open-melds night under
    standard-13, or a declaration night under open-melds-13, is not re-scored: each hand is
    counted under the reason, and the run ends cleanly (it raised out of the state machine
    on the first `lay` before)."""
    simulate(games=2, out=tmp_path / "om", seed=2, presets=("open-melds-13",), workers=1)
    summary = whatif_logs(logs=tmp_path / "om", out=tmp_path / "a", ruleset="standard-13",
                          workers=1)  # fmt: skip
    assert summary["hands"]["rescored"] == 0
    reason = ("what-if does not re-score the open-melds game (open-melds-13 to standard-13): "
              "its melds are laid during play")  # fmt: skip
    assert summary["hands"]["not_rescored"][reason] > 0
    other = whatif_logs(logs=logs, out=tmp_path / "b", ruleset="open-melds-13", workers=1)
    assert other["hands"]["rescored"] == 0
    assert {why for why in other["hands"]["not_rescored"]
            if not why.startswith("quarantined: ")} <= {
        "what-if does not re-score the open-melds game (standard-13 to open-melds-13): its "
        "melds are laid during play",
        "what-if does not re-score the open-melds game (first-life-13 to open-melds-13): its "
        "melds are laid during play",
    }  # fmt: skip


def test_hands_the_replay_quarantines_are_counted_under_its_reason(tmp_path: Path) -> None:
    """docs/whatif.md: hands the replay quarantines "are counted under `not_rescored` with
    the reason". Games naming a ruleset the run does not know (--rules forgotten) were
    counted under "the replay cannot replay it", which hid the replay's words for it (a
    blind tester); the reason is said once for all their games, not once a game."""
    logs = tmp_path / "logs"
    simulate(games=4, out=logs, seed=3, presets=("standard-13",), workers=1)
    for path in (logs / "games").rglob("*.parquet"):
        table = pq.read_table(path)
        named = pa.array(["acme-13"] * table.num_rows, table.schema.field("ruleset").type)
        pq.write_table(table.set_column(table.schema.get_field_index("ruleset"),
                                        table.schema.field("ruleset"), named), path)  # fmt: skip
    done = CliRunner().invoke(app, ["whatif", str(logs), "--ruleset", "standard-13",
                                    "--out", str(tmp_path / "out"), "--workers", "1"])  # fmt: skip
    assert done.exit_code == 0, done.output
    hands = pq.read_table(logs / "hands").num_rows
    reason = (
        "quarantined: unknown ruleset 'acme-13'; the presets are: first-life-13, "
        "open-melds-13, standard-10, standard-13, standard-21, standard-27; a platform "
        "ruleset is loaded with --rules DIR"
    )
    summary = json.loads((tmp_path / "out" / "whatif.json").read_text())
    assert summary["hands"]["not_rescored"] == {reason: hands}
    assert f"{hands} hands not re-scored: {reason}\n" in done.output


def rescored(kw: dict[str, Any], other: Ruleset) -> list[tuple[str, str | None, int | None, str]]:
    """Each player's outcome and points under ``other`` for one scenario hand."""
    game, hand = scenario(**kw)
    out = WhatIf()
    whatif_unit(GameUnit(game.game_id, game, [hand]), other, out)
    return [(r.player_id, r.outcome_after, r.points_after, r.status) for r in out.changes]


def test_a_declaration_turned_invalid_with_one_player_left_is_decided() -> None:
    """standard-13.toml, declaration.invalid_ends_hand: 'After an invalid declaration the
    declarer is out of the hand with the penalty and the others play on; if only one
    player is left, that player wins.' A two-player show first-life-13 refuses (no
    sequence of 4, 003_) ends the hand there: P2 wins, not undecided (it was, with P2
    charged as a loser)."""
    other = load_preset("first-life-13")
    assert rescored(base(), other) == [("P1", "invalid_declare", 80, CHANGED),
                                       ("P2", "won", 0, CHANGED)]  # fmt: skip


def test_under_invalid_ends_hand_the_others_are_charged_nothing() -> None:
    """`declaration.invalid_ends_hand` = true: an invalid declaration ends the hand and the
    players still in lose nothing, as the replay judges it; what-if charged them their
    cards (three players, so the hand does not end on one player left)."""
    other = replace(load_preset("first-life-13"), invalid_ends_hand=True)
    kw = base(
        seats={"P1": P1, "P2": P2, "P3": "AD 3D 5H 7C 8D TH JH 2C 4C 6D 8S TS QD"},
        events=[*base()["events"], "P3 show: AD 3D 5H 7C 8D TH JH 2C 4C 6D 8S TS QD"],
        results={**WON, "P3": ("lost", 40, "-40.00")},
    )
    assert rescored(kw, other) == [
        ("P1", "invalid_declare", 80, CHANGED), ("P2", "lost", 0, CHANGED),
        ("P3", "lost", 0, CHANGED),
    ]  # fmt: skip


def test_money_of_a_hand_with_no_winner_is_held_as_rake_as_the_replay_judges_it() -> None:
    """schemas/money.md, "With no winner": under `declaration.invalid_ends_hand` at three
    players the declarer pays the invalid penalty and no one wins; the platform holds what
    they pay, counted as the hand's rake, as the replay's ledger check counts it. what-if
    counted 0.00 rake, so the declarer's money went nowhere (a blind tester, b58)."""
    other = replace(load_preset("first-life-13"), invalid_ends_hand=True)
    kw = base(
        seats={"P1": P1, "P2": P2, "P3": "AD 3D 5H 7C 8D TH JH 2C 4C 6D 8S TS QD"},
        events=[*base()["events"], "P3 show: AD 3D 5H 7C 8D TH JH 2C 4C 6D 8S TS QD"],
        results={**WON, "P3": ("lost", 40, "-40.00")},
    )
    game, hand = scenario(**kw)
    out = WhatIf()
    whatif_unit(GameUnit(game.game_id, game, [hand]), other, out)
    paid = {r.player_id: r.amount_after for r in out.changes}
    assert game.point_value is not None
    assert paid == {"P1": -80 * game.point_value, "P2": Decimal("0.00"), "P3": Decimal("0.00")}
    assert out.rake_after == 80 * game.point_value
    assert sum(paid.values()) + out.rake_after == 0  # every paisa is somewhere


def test_the_same_rules_change_nothing_after_an_accepted_invalid_declaration() -> None:
    """docs/whatif.md: each hand is replayed under its own rules (their verdict, not the
    record's) and under the other; re-scored under its own ruleset nothing changes. An
    invalid declaration the platform accepted leaves the others playing on past the
    record (`declaration.invalid_ends_hand`), so the rules give them no outcome either
    way: a blind tester's three such hands counted 8 outcomes changed ("lost" before,
    none after) under the game's own ruleset, with a note that the play broke its rules."""
    game, hand = scenario(**ACCEPTED_INVALID)
    out = WhatIf()
    whatif_unit(GameUnit(game.game_id, game, [hand]), load_preset("standard-13"), out)
    assert [(r.player_id, r.outcome_before, r.outcome_after, r.status, r.note)
            for r in out.changes] == [
        ("P1", "invalid_declare", "invalid_declare", "same", ""),
        ("P2", None, None, "same", ""),
        ("P3", None, None, "same", ""),
    ]  # fmt: skip


def test_a_ruleset_whose_invalid_declaration_ends_the_hand_leaves_a_played_on_hand_undecided(
) -> None:
    """docs/whatif.md: a hand the other rules would have ended elsewhere than the record is
    undecided, with the reason. P1's declaration at event 7 is invalid under both rulesets;
    the record plays on (P2 declares at 9, P3 shows), but under a ruleset with
    `declaration.invalid_ends_hand` = true the hand ends at event 7 (a blind tester: it was
    re-scored with no winner, P1's penalty paid to no one, and no note). The reverse, a
    record that ended there under rules the other does not share, is undecided too."""
    from types import SimpleNamespace as N

    from audit.whatif import _undecided

    invalid = N(valid=False, reasons=["no pure sequence"])
    events = [N(seq=s, action=a) for s, a in ((7, "declare"), (8, "discard"), (9, "declare"),
                                              (10, "show"))]  # fmt: skip
    declared = [N(check=invalid, seq=7, player="P1"), N(check=N(valid=True), seq=9, player="P2")]

    def replay(ends: bool, ended: bool, rules_id: str) -> N:
        return N(declarations=declared, hand=N(events=events), ended=ended,
                 rules=N(invalid_ends_hand=ends, id=rules_id))  # fmt: skip

    said = _undecided(replay(False, True, "standard-13"), replay(True, True, "ends-13"))
    assert said == ("under ends-13 an invalid declaration ends the hand "
                    "(declaration.invalid_ends_hand), so the declaration of P1 at event 7 "
                    "would have ended it there; the record plays on")  # fmt: skip
    assert _undecided(replay(False, True, "standard-13"), replay(False, True, "x-13")) == ""
    ended_there = [N(check=invalid, seq=7, player="P1")]
    own = N(declarations=ended_there, hand=N(events=events[:1]), ended=True,
            rules=N(invalid_ends_hand=True, id="ends-13"))
    other = N(declarations=ended_there, hand=N(events=events[:1]), ended=False,
              rules=N(invalid_ends_hand=False, id="standard-13"))
    assert _undecided(own, other).startswith("under standard-13 the others play on after an "
                                             "invalid declaration")  # fmt: skip


def test_groups_exact_a_show_of_other_cards_leaves_the_winners_amount_unknown() -> None:
    """declaration.groups_exact (000_1729c72ad4c1f885.txt: 'the player needs to validate all
    the Sequences and Sets he has made from his 10/13/21/27 cards'): P2 shows a KH they do
    not hold, so the rules give P2 no points and what-if (the rules, not the record) has no
    amount for P2; P1's amount is what P2 pays less the rake, so it is not known either
    (docs/whatif.md): it was a definite 0.00, and the hand's rake 0.00 (a blind tester)."""
    kw = base(events=["P1 draw_stock JK", DECLARE,
                      "P2 show: AS 3C 5D 7H 8H TC JC 2D 4D 6C 8C TD KH"])  # fmt: skip
    game, hand = scenario(**kw)
    out = WhatIf()
    whatif_unit(GameUnit(game.game_id, game, [hand]), load_preset("standard-13"), out)
    assert [(r.player_id, r.outcome_before, r.points_before, r.amount_before, r.amount_after,
             r.status) for r in out.changes] == [
        ("P1", "won", 0, None, None, "same"),
        ("P2", "lost", None, None, None, "same"),
    ]  # fmt: skip
    assert {r.note for r in out.changes} == {
        "the rules give no points for P2 (showed other cards than held), so the winner's "
        "amount and the rake are not re-scored"
    }
    assert (out.rake_before, out.rake_after) == (Decimal("0.00"), Decimal("0.00"))
