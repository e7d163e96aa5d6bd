"""What the report covers when hands were quarantined, and the sections that must not let
the quarantine's fallout hide a real finding (a blind tester, acting as a compliance
investigator): the fair-play, shuffle and commitment sections say they cover the hands
replayed only; the games panels rank a rule break above input fallout, and count the info
findings they leave out; the quarantine lists its causes before the hands they cost."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.findings import Finding, Severity, contract, finding
from audit.output import QUARANTINE_SCHEMA
from audit.report import views
from audit.report.render import write_report
from audit.report.views import build_view
from tests.logs.logbuilder import LogBuilder
from tests.logs.test_reader_damage import full_log, split_by_game
from tests.report.nights import big_night, fair_night, write_shuffle


def words(out: Path, anchor: str) -> str:
    """The text of the element whose id is ``anchor``, up to its end, on one line."""
    html = (out / "report.html").read_text(encoding="utf-8")
    assert f'id="{anchor}"' in html, anchor
    return " ".join(html.split(f'id="{anchor}"')[1].split("</p>")[0].split())


def commitment(seed: str) -> dict[str, Any]:
    return {
        "algorithm": "platform-x-v2",
        "server_seed": seed,
        "server_seed_hash": hashlib.sha256(seed.encode()).hexdigest(),
        "client_seed": "player-chosen",
        "nonce": 7,
    }


def test_a_night_with_quarantined_hands_says_each_statistic_covers_the_replayed_only(
    tmp_path: Path,
) -> None:
    """Three hands replayed (one with a commitment), two quarantined (a game of an unknown
    ruleset, both with a commitment) and a ledger file that cannot be read: the banner, the
    fair-play, shuffle and commitment words each say they cover the 3 hands replayed, not
    the 2 quarantined (of 5), and the shuffle's "not tested" counts the quarantined hands'
    shoes (the page read as if the whole night were covered)."""
    logs = (
        LogBuilder(tmp_path / "logs")
        .game("g1")
        .quick_hand("h1", shuffle=commitment("seed-one"))
        .quick_hand("h2")
        .quick_hand("h3")
        .game("g2", ruleset="no-such-ruleset")
        .quick_hand("h4", shuffle=commitment("seed-four"))
        .quick_hand("h5", shuffle=commitment("seed-five"))
    )
    root, out = logs.write(), tmp_path / "out"
    for path in (root / "ledger").rglob("*.parquet"):
        path.write_bytes(b"PAR1 this is not parquet")
    result = CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress"])
    assert result.exit_code in (0, 1), result.output
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["counts"]["hands"] == {"verified": 3, "discrepancy": 0, "quarantined": 2}
    assert run["commitments"] == {"hands": 1, "replayed": 0, "hash_only": 1, "shoe_only": 0,
                                  "unchecked": 0, "quarantined": 2}  # fmt: skip
    assert (run["fairplay"]["status"], run["rng"]["status"]) == ("run", "run")
    covers = ("the 3 hands replayed only, not the 2 quarantined (of 5 in the night): a quarantined "
              "hand is never replayed, so it takes part in no test here")  # fmt: skip
    assert f"The detectors read {covers}" in words(out, "fairplay-coverage")
    assert f"The shuffle tests read the shoes of {covers}" in words(out, "shuffle-coverage")
    assert "the shoes of the 2 quarantined hands (not replayed)." in words(out, "shuffle-left-out")
    shuffle = words(out, "shuffle-status")
    assert "1 of the 3 hands replayed carried a provably-fair commitment" in shuffle
    assert "2 of the 2 quarantined hands carried one too and went unchecked" in shuffle
    cause = words(out, "cause")
    assert ("Nor does any quarantined hand take part in the fair-play, shuffle or commitment "
            "checks: they cover the 3 hands replayed only, not the 2 quarantined.") in cause
    # an older run.json, which does not count the quarantined hands' commitments
    del run["commitments"]["quarantined"]
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    again = CliRunner().invoke(app, ["report", str(out)])
    assert again.exit_code == 0, again.output
    assert ("Those of the 2 quarantined hands that carried one went unchecked"
            in words(out, "shuffle-status"))  # fmt: skip


def test_a_night_with_nothing_quarantined_says_nothing_of_coverage(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").quick_hand("h2")
    root, out = logs.write(), tmp_path / "out"
    result = CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress"])
    assert result.exit_code in (0, 1), result.output
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "-coverage" not in html
    assert "quarantined hand" not in html
    assert 'id="shuffle-left-out"' not in html


def input_hand(game: str, hand: str) -> Finding:
    return finding("input.hand", game_id=game, hand_id=hand, message=f"hand {hand} has no events",
                   rule=contract("log.contract"), recorded="hands")  # fmt: skip


def rule_break(check: str, game: str, hand: str, **more: Any) -> Finding:
    return finding(check, game_id=game, hand_id=hand, player_id="P1", message="A rule break.",
                   rule=f"{check}: the rule", **more)  # fmt: skip


def test_a_game_with_a_rule_break_outranks_one_of_input_fallout_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Game GA has six `input.hand` findings (major) and an info `game.unchecked`; GB one
    minor rule finding; GC forty-five `input.hand` findings and, in its last hand, a major
    `drop.penalty`. The rule breaks rank first (GC, then GB), GA last; with room for two
    panels GA is the one left out (it pushed out a game with a planted rule break); and
    GC's panel lists its rule finding first, though forty findings fill it."""
    fallout = [input_hand("GA", f"GA-{k:02d}") for k in range(1, 7)]
    fallout.append(finding("game.unchecked", game_id="GA", message="GA was left unchecked.",
                           rule="game.unchecked: why"))  # fmt: skip
    minor = rule_break("score.points", "GB", "GB-01", severity=Severity.MINOR)
    many = [input_hand("GC", f"GC-{k:02d}") for k in range(1, 46)]
    many.append(rule_break("drop.penalty", "GC", "GC-46"))
    out = fair_night(tmp_path / "out", [], findings=[*fallout, minor, *many])
    view = build_view(out)
    assert [game.game_id for game in view.games] == ["GC", "GB", "GA"]
    panels = {game.game_id: game for game in view.games}
    assert panels["GC"].findings[0].check == "drop.penalty"
    assert (panels["GC"].total, len(panels["GC"].findings)) == (46, views.PER_GAME)
    assert (panels["GA"].total, panels["GA"].info) == (6, 1)
    monkeypatch.setattr(views, "TOP_GAMES", 2)
    write_report(out)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="game-GC"' in html
    assert 'id="game-GB"' in html
    assert 'id="game-GA"' not in html
    assert "2 of 3 games with findings (info-only games left out), the worst first" in " ".join(
        html.split())


def test_a_panel_says_how_many_info_findings_it_leaves_out(tmp_path: Path) -> None:
    """A practice game's 3 major findings and 3 info `ledger.balance` ones: the panel said
    "3 findings in 1 hand" of a game findings.parquet has 6 of."""
    found = [rule_break("score.points", "G7", "G7-01", expected="20", recorded=str(k))
             for k in range(3)]  # fmt: skip
    found += [finding("ledger.balance", game_id="G7", player_id=f"P{k}", message="practice.",
                      rule="ledger.balance: r", severity=Severity.INFO)
              for k in range(3)]  # fmt: skip
    out = fair_night(tmp_path / "out", [], findings=found)
    write_report(out)
    html = " ".join((out / "report.html").read_text(encoding="utf-8").split())
    summary = html.split('id="game-G7"')[1].split("</summary>")[0]
    assert ("3 findings in 1 hand, and 3 info findings not listed (in findings.parquet)"
            in summary)  # fmt: skip


def test_the_quarantine_lists_the_rows_that_are_causes_before_the_hands_they_cost(
    tmp_path: Path,
) -> None:
    """600 hands quarantined for want of a file's events, the bad row and the bad file:
    the bad row and the file come first, though quarantine.parquet's own order (table,
    file nulls first ...) puts 500 of the hands before them; the Parquet keeps its order."""
    out = fair_night(tmp_path / "out", [])
    rows: list[dict[str, Any]] = [
        {"table": "hands", "file": None, "row": None, "game_id": f"G{k // 3}",
         "hand_id": f"G{k // 3}-{k % 3 + 1:02d}", "check": "input.hand",
         "reason": "its events may be in events/part-0.parquet, which could not be read"}
        for k in range(600)
    ]  # fmt: skip
    rows.append({"table": "hands", "file": "hands/part-0.parquet", "row": 0, "game_id": "G9",
                 "hand_id": "G9-01", "check": "input.row",
                 "reason": "hands row 0 of hands/part-0.parquet: wild_card 'ZZ'"})  # fmt: skip
    rows.append({"table": "results", "file": "results/part-1.parquet", "row": None,
                 "game_id": None, "hand_id": None, "check": "input.file",
                 "reason": "results/part-1.parquet: column `points` is missing"})  # fmt: skip
    order = ("table", "file", "row", "hand_id", "reason")  # the file's own, nulls first
    rows.sort(key=lambda r: tuple((r[c] is not None, r[c] or 0 if c == "row" else r[c] or "")
                                  for c in order))  # fmt: skip
    table = pa.Table.from_pylist(rows, schema=QUARANTINE_SCHEMA)
    pq.write_table(table, out / "quarantine.parquet")
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    run["counts"]["quarantine_rows"] = len(rows)
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    write_report(out)
    listed = build_view(out).quarantine
    assert len(listed) == views.QUARANTINE_ROWS
    assert [row[3] for row in listed[:2]] == ["input.row", "input.file"]
    assert all(row[3] == "input.hand" for row in listed[2:])
    html = " ".join((out / "report.html").read_text(encoding="utf-8").split())
    assert "wild_card &#39;ZZ&#39;" in html
    assert ("602 rows could not be used; the first 500 are listed, the causes first "
            "(<code>input.file</code>: a file left out; <code>input.row</code>: a row that broke "
            "the contract), then the hands quarantined (<code>input.hand</code>)") in html
    # quarantine.parquet is the run's: the report does not rewrite it
    assert pq.read_table(out / "quarantine.parquet").equals(table)


def test_games_a_refused_file_took_are_sent_to_its_input_file_not_to_game_unchecked(
    tmp_path: Path,
) -> None:
    """schemas/output.md: the games a refused file took hands of get no `game.unchecked`;
    its `input.file` says what it took. Game g2's results in a file of their own, not
    Parquet: the banner and the games row send the reader to that finding for its game,
    never to "0 game.unchecked findings" (a blind tester's page said so of 9 such games)."""
    root, b = split_by_game(full_log(tmp_path / "logs"), "results")
    b.write_bytes(b"not parquet at all")
    out = tmp_path / "out"
    CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress"])
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["counts"]["games"]["unchecked"] == 1
    assert "game.unchecked" not in run["counts"]["findings"]
    assert build_view(out).unchecked_by_file == 1
    cause = " ".join((out / "report.html").read_text(encoding="utf-8")
                     .split('id="cause"')[1].split("</p>")[0].split())  # fmt: skip
    assert "0 <code>game.unchecked</code>" not in cause
    assert ("Start here: the 2 quarantined hands below follow from it where their reason "
            "names a row that could not be read; the 1 game of those hands, whose checks did "
            "not run, gets no <code>game.unchecked</code>: the <code>input.file</code> finding "
            "of the file below says what it took;") in cause  # fmt: skip
    games = words(out, "run-games").split("</tr>")[0]
    assert ("1 with a game-level check not run (none has a <code>game.unchecked</code>, for a "
            "quarantined hand: a file that could not be read took its hands, as its "
            "<code>input.file</code> finding says)") in games  # fmt: skip


def test_the_arguments_row_is_followed_by_the_later_passes_and_the_tile_by_what_could_not_run(
    tmp_path: Path,
) -> None:
    """schemas/output.md, run.json: `arguments` are the replay's, `passes` the later
    `fairplay` and `rng` commands. After `replay --no-fairplay --no-rng`, `fairplay` and
    `rng`, the page names the passes under `fairplay=False rng=False` (it showed those
    alone above the sections the passes ran: a blind tester), and the fair-play tile says
    how many detectors could not judge the night (it read "0 fair-play suspicions" alone
    while 4 of 8 had too little data: a blind tester)."""
    root = full_log(tmp_path / "logs").write()
    out = tmp_path / "out"
    CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress",
                             "--no-fairplay", "--no-rng"])  # fmt: skip
    assert 'id="run-passes"' not in (out / "report.html").read_text(encoding="utf-8")
    for command, fail_on in (("fairplay", "critical"), ("rng", "major")):
        CliRunner().invoke(app, [command, str(root), "--out", str(out), "--fail-on", fail_on])
    view = build_view(out)
    assert view.passes == [("fairplay", "critical"), ("rng", "major")]
    assert ("fairplay", "False") in view.arguments
    said = words(out, "run-passes").split("</tr>")[0]
    assert said.startswith("><th>later passes</th><td>then <code>rummy-audit fairplay</code> "
                           "(<code>fail_on=critical</code>), then <code>rummy-audit rng</code> "
                           "(<code>fail_on=major</code>): the arguments above are the "
                           "replay's")  # fmt: skip
    short = [d for d in view.fairplay.detectors if d.few or d.skipped or d.partial]
    assert short  # a night of 6 hands: most detectors have too little data
    tile = words(out, "tile-fairplay").split("</div>")[0]
    assert (f"<b>0</b>fair-play suspicions; {len(short)} of {len(view.fairplay.detectors)} "
            "detectors could not judge the whole night (") in tile  # fmt: skip


def test_the_shuffle_tile_says_how_many_tests_could_not_run(tmp_path: Path) -> None:
    """docs/rng.md: a test not run is never reported as passed. A night whose shoes fill
    some tests and not others: the tile reads "0 of N shuffle tests failed; M could not
    run (too few shoes)", not "0 shuffle tests failed" alone (a blind tester's night ran 1
    test of 287)."""
    out = big_night(tmp_path / "out", findings=0, shuffle=False)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    run["rng"] = write_shuffle(out, 800, players=[2] * 700 + [6] * 100, biased=False)
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    write_report(out)
    tests, too_few = run["rng"]["tests"], run["rng"]["too_few_shoes"]
    assert tests
    assert too_few
    assert not run["rng"]["biased"]
    tile = words(out, "tile-shuffle").split("</div>")[0]
    assert tile == (f"><b>0</b>of {tests:,} shuffle tests failed; {too_few:,} could not run "
                    "(too few shoes)")  # fmt: skip
