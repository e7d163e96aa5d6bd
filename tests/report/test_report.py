"""report.html: a golden file on a fixed night, hostile values shown as text, every section
fed from the outputs, and a night of a million findings kept to a page that opens fast."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.report.fairplay import TOP_SUSPICIONS
from audit.report.render import write_report
from audit.report.views import TOP_GAMES, TOP_ROWS, build_view
from tests.explain.goldtest import compare
from tests.logs.logbuilder import LogBuilder
from tests.report.nights import HOSTILE, QUOTED, big_night, write_shuffle

GOLDEN = Path(__file__).parent / "golden"
ACTUAL = Path(__file__).parents[1] / "actual" / "report"


def scrub(html: str) -> str:
    """Blank what moves from run to run: the spans marked volatile (timings, version)."""
    return re.sub(r'<span class="volatile">[^<]*</span>', '<span class="volatile">~</span>', html)


def page(out: Path) -> str:
    return (out / "report.html").read_text(encoding="utf-8")


def test_report_matches_the_golden_file(night: Path) -> None:
    compare(scrub(page(night)), "small-night.html", golden_dir=GOLDEN, actual_dir=ACTUAL)


def test_hostile_player_ids_are_shown_as_text(night: Path) -> None:
    html = page(night)
    assert HOSTILE not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert QUOTED not in html
    assert "O&#39;Hara&#34;&amp;" in html
    assert html.count("<script>") == 1  # the report's own, and nothing else


def test_the_report_says_what_ran_and_what_was_found(night: Path) -> None:
    view = build_view(night)
    assert view.hands == {"verified": 1, "discrepancy": 3, "quarantined": 0}
    assert view.hands_total == 4
    # G2 is one hand of a pool game still running; the night's ledger and sessions files
    # hold no row, and the report says their checks were skipped (check.skipped)
    assert view.findings_total == 9
    assert [g.game_id for g in view.games] == ["G1", "G3", "G4"]  # with a discrepancy
    assert {f.check for f in view.findings} == {
        "draw.stock_mismatch",
        "score.points",
        "game.running",
        "check.skipped",
    }
    assert view.by_severity[0] == ("critical", 3)
    # every game is counted once, the running one among them (b36: the games went uncounted)
    assert view.game_counts == {"total": 4, "running": 1, "unchecked": 0}
    assert "1 still running when the logs were cut" in page(night)
    assert dict(view.arguments)["logs"] == "logs"
    scores = next(c for c in view.charts if c.id == "chart-scores")
    assert {bar.label: bar.value for bar in scores.bars}["40-49 points"] == 3  # three middle drops


def test_rendering_twice_gives_the_same_bytes(night: Path) -> None:
    first = page(night)
    write_report(night)
    assert page(night) == first


def test_a_million_findings_give_a_small_page_with_every_count(tmp_path: Path) -> None:
    out = big_night(tmp_path / "out", suspicions=300)
    write_report(out)
    html = page(out)
    view = build_view(out)
    assert view.findings_total == 1_000_000
    assert len(view.findings) == TOP_ROWS
    assert html.count("<tr data-severity=") == TOP_ROWS
    assert view.top_games == TOP_GAMES
    assert sum(row.count for row in view.by_check) == 1_000_000
    assert [f.severity for f in view.findings[:3]] == ["critical"] * 3
    assert "most severe of 1000000 findings" in html
    assert len(html.encode()) < 4_000_000
    assert view.suspicions_total == 300  # suspicions.parquet's, not the findings'
    assert len(view.suspicions) == TOP_SUSPICIONS
    assert view.suspicions[0].check == "fairplay.collusion"
    assert view.suspicions[0].evidence
    assert view.shuffle.ran
    assert view.shuffle.failed[0].check in ("rng.position", "rng.card")
    assert "JK" in view.shuffle.failed[0].effect
    assert 'id="shuffle-failed"' in html


def test_an_empty_night_renders_every_section(tmp_path: Path) -> None:
    out = big_night(tmp_path / "out", findings=0, shuffle=False)
    write_report(out)
    html = page(out)
    for words in (
        "No findings: every replayed hand agrees with the rules.",
        "No game has a discrepancy.",
        "No fair-play suspicion was raised",
        "Shuffle statistics: not run.",
        "Nothing was quarantined",
    ):
        assert words in html


def test_the_report_command_renders_again_from_the_outputs(night: Path, tmp_path: Path) -> None:
    before = page(night)
    (night / "report.html").unlink()
    result = CliRunner().invoke(app, ["report", str(night)])
    assert result.exit_code == 0, result.output
    assert page(night) == before
    refused = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert refused.exit_code == 2
    assert "is not a replay's output folder" in refused.output


def test_the_header_states_the_hands_span_and_when_the_run_was_made(night: Path) -> None:
    """run.json's ``hands_span`` (deterministic: the hands' own timestamps) and ``run_at``
    (volatile, like the version and the timings) are in the header."""
    run = json.loads((night / "run.json").read_text(encoding="utf-8"))
    view = build_view(night)
    assert view.hands_from is not None
    assert view.hands_to is not None
    assert view.hands_from.text == "2026-11-29 18:00:00 UTC"
    assert view.hands_to.text == "2026-11-29 18:05:00 UTC"
    assert view.run_at is not None
    assert view.run_at.iso == run["run_at"]
    header = page(night).split("<header>")[1].split("</header>")[0]
    assert (
        '<p id="when">hands audited from <time datetime="2026-11-29T18:00:00+00:00">'
        "2026-11-29 18:00:00 UTC</time> to "
        '<time datetime="2026-11-29T18:05:00+00:00">2026-11-29 18:05:00 UTC</time>'
    ) in header
    assert f'run made <span class="volatile">{view.run_at.text}</span></p>' in header


def rewritten(night: Path, out: Path, **run_json: object) -> str:
    """The page of a copy of ``night`` whose run.json has ``run_json`` set (a None value
    removes the key, as an older run.json lacks it)."""
    shutil.copytree(night, out)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    for key, value in run_json.items():
        if value is None:
            run.pop(key, None)
        else:
            run[key] = value
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    write_report(out)
    return page(out).split("<header>")[1].split("</header>")[0]


def test_an_older_run_json_without_span_or_run_time_says_nothing_of_them(
    night: Path, tmp_path: Path
) -> None:
    header = rewritten(night, tmp_path / "old", run_at=None, hands_span=None)
    assert 'id="when"' not in header
    assert "exit status 1" in header


def test_a_span_with_one_end_unknown_states_the_other(night: Path, tmp_path: Path) -> None:
    nulls = {"first_started_at": None, "last_ended_at": None}
    header = rewritten(night, tmp_path / "nulls", run_at=None, hands_span=nulls)
    assert 'id="when"' not in header
    start = {"first_started_at": "2026-11-29T18:00:00+00:00", "last_ended_at": None}
    header = rewritten(night, tmp_path / "start", run_at=None, hands_span=start)
    assert "hands audited from <time" in header
    assert "run made" not in header
    end = {"first_started_at": None, "last_ended_at": "2026-11-30T01:00:00+00:00"}
    header = rewritten(night, tmp_path / "end", run_at="2026-11-30T06:00:00+00:00", hands_span=end)
    assert "hands audited up to <time" in header
    assert "2026-11-30 01:00:00 UTC</time> &middot; run made" in header


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("run.json", "{bad", "run.json cannot be read: Expecting property name"),
        ("run.json", "[]", "run.json is not a run.json of rummy-audit: it holds no object"),
        ("run.json", "{}", "run.json is not a run.json of rummy-audit: it lacks version,"),
        ("findings.parquet", "junk", "findings.parquet cannot be read: "),
        ("hands.parquet", "junk", "hands.parquet cannot be read: "),
        ("quarantine.parquet", None, "is not a replay's output folder: it has no quarantine"),
    ],
)
def test_a_damaged_output_folder_is_one_line_and_exit_2(
    night: Path, tmp_path: Path, name: str, text: str | None, says: str
) -> None:
    """audit-output.md: exit 2 when the run could not be done. A damaged or missing output
    was a traceback and exit 1 (`report`, `fairplay`, `rng`), or, for quarantine.parquet, a
    report saying nothing was quarantined."""
    out = tmp_path / "out"
    shutil.copytree(night, out)
    if text is None:
        (out / name).unlink()
    else:
        (out / name).write_text(text)
    logs = str(night.parent / "logs")
    for args in (["report", str(out)], ["fairplay", logs, "--out", str(out)],
                 ["rng", logs, "--out", str(out)]):  # fmt: skip
        if name == "quarantine.parquet" and args[0] != "report":
            continue  # the detectors do not read it; the report they write again does
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert says in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_a_night_with_no_hand_replayed_says_fair_play_and_shuffle_did_not_run(
    tmp_path: Path,
) -> None:
    """Every hand quarantined: the detectors and the shuffle tests would test nothing, so
    run.json, the command's line and the report say "not run" and why (they said the
    detectors ran and found 0 suspicions, and 0 shuffle tests failed); the same from the
    `fairplay` and `rng` commands over that replay."""
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    logs.rows["results"].clear()
    root, out = logs.write(), tmp_path / "out"
    result = CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress"])
    assert "fair play not run; shuffle not run" in result.output
    for args in (["fairplay", str(root), "--out", str(out)], ["rng", str(root), "--out", str(out)]):
        again = CliRunner().invoke(app, args)
        assert again.exit_code in (0, 1), again.output
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["counts"]["hands"] == {"verified": 0, "discrepancy": 0, "quarantined": 1}
    assert run["fairplay"] == {"status": "not run", "why": "no hand was replayed"}
    assert run["rng"] == {"status": "not run", "why": "no hand was replayed"}
    assert not (out / "suspicions.parquet").exists()
    assert not (out / "rng.parquet").exists()
    html = page(out)
    assert "Fair-play detectors: not run (no hand was replayed)." in html
    assert "0 fair-play suspicions" not in html
    # nor that commitments "were checked" (0 findings): no hand was, so none was
    shuffle = " ".join(html.split('id="shuffle-status"')[1].split("</p>")[0].split())
    assert "no hand was replayed, so no provably-fair commitment was checked either" in shuffle
    assert "were checked" not in shuffle
    # nor advises running them over the replay: that would test nothing again
    assert "Run the tests over this replay" not in html
    assert "Run them over this replay" not in html
    assert "Running the tests over this replay would test nothing." in shuffle
    assert ("Running them over this replay would test nothing: no hand of it was replayed."
            in " ".join(html.split()))  # fmt: skip


def test_shuffle_tests_that_all_lacked_shoes_are_not_reported_as_passed(tmp_path: Path) -> None:
    """docs/rng.md: a test not run is never reported as passed. A one-hand night gives
    every shuffle test too few shoes: the line, the tile and the section say no test
    could run (they said 0 failed checks, 0 shuffle tests failed, No test failed)."""
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    root, out = logs.write(), tmp_path / "out"
    result = CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress"])
    assert "; shuffle no test had enough shoes to run;" in result.output
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert (run["rng"]["status"], run["rng"]["tests"]) == ("run", 0)
    html = " ".join(page(out).split())
    assert "<b>none ran</b>shuffle tests (too few shoes)" in html
    assert "<b>no test could run</b>, so none failed and none passed" in html
    assert "No test failed" not in html


@pytest.mark.parametrize(
    ("six", "verdict", "under", "headline"),
    [  # 700 shoes each at 2, 3 and 4 players: 9 first-card tests run; 6 not at 6 players
        ([3, 4], "fair in the 9 tests that ran", "6 not run: too few shoes", False),
        ([], "too few shoes for 6 of its 8 tests", "the 2 that ran are fair, too few to call "
         "it fair", True),
    ],
)  # fmt: skip
def test_a_check_whose_tests_did_not_all_run_is_fair_only_in_those_that_ran(
    tmp_path: Path, six: list[int], verdict: str, under: str, headline: bool
) -> None:
    """docs/rng.md: a test not run is never reported as passed. A blind tester's 400-shoe
    night showed rng.first_card "fair" beside "18 not run: too few shoes" of its 20: the
    verdict covers the tests that ran, and where most did not it is no all-clear."""
    out = big_night(tmp_path / "out", findings=0, shuffle=False)
    players = [2] * 700 + [p for p in six for _ in range(700)] + [6] * 100
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    run["rng"] = write_shuffle(out, len(players), players=players, biased=False)
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    write_report(out)
    check = next(c for c in build_view(out).shuffle.groups[0].checks
                 if c.check == "rng.first_card")  # fmt: skip
    assert (check.tested, check.too_few, check.failed) == (2 + sum(six), 6, 0)
    html = " ".join(page(out).split())
    row = html.split("<code>rng.first_card</code>")[1].split("</tr>")[0]
    assert f'<td>{verdict}<br><span class="muted">{under}</span></td>' in row
    assert ">fair<" not in row
    status = html.split('id="shuffle-status"')[1].split("</p>")[0]
    said = ("most or all of the tests of rng.first_card could not run, so it is not called "
            "fair.")  # fmt: skip
    assert (said in status) == headline
    first = html.split("<code>rng.first_card</code>")[0].rsplit("<tr", 1)[1]
    assert first.startswith(f' class="verdict-{"too-few-shoes" if headline else "fair"}"')


def test_a_night_with_no_hand_is_not_called_in_agreement_with_the_rules(tmp_path: Path) -> None:
    """No hand in the input: "every replayed hand agrees with the rules" would read as an
    all-clear of a night nothing was checked in (a blind tester); the page says no hand
    was replayed, and counts the hands it accounts for, not "read"."""
    root, out = LogBuilder(tmp_path / "logs").write(), tmp_path / "out"
    result = CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    html = page(out)
    assert "No findings, and no hand was replayed" in html
    assert "every replayed hand agrees" not in html
    assert "<b>0</b>hands accounted for" in html


def test_an_optional_table_whose_files_could_not_be_read_is_not_called_absent(
    tmp_path: Path,
) -> None:
    """Every ledger file unreadable: the table is there, so the inputs line says its files
    could not be read, not that it is "not present" (a blind tester)."""
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    root, out = logs.write(), tmp_path / "out"
    for path in (root / "ledger").rglob("*.parquet"):
        path.write_bytes(b"PAR1 this is not parquet")
    (root / "sessions").rename(tmp_path / "sessions-gone")
    result = CliRunner().invoke(app, ["replay", str(root), "--out", str(out), "--no-progress"])
    assert result.exit_code in (0, 1), result.output
    facts = " ".join(page(out).split('id="run-facts"')[1].split("</table>")[0].split())
    assert "optional tables none of whose files could be read: ledger" in facts
    assert "optional tables not present: sessions" in facts


def test_hands_per_format_are_told_apart_by_ruleset_on_a_night_of_several(
    night: Path, tmp_path: Path
) -> None:
    """A night of 13- and 21-card points games is two kinds of game: the chart of hands per
    format names each ruleset then (a blind tester's mixed night read "points" alone); a
    night of one ruleset keeps the plain format."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    def labels(out: Path) -> dict[str, int]:
        chart = next(c for c in build_view(out).charts if c.id == "chart-formats")
        return {bar.label: bar.value for bar in chart.bars}

    assert labels(night) == {"points: discrepancy": 3, "pool 101: verified": 1}
    out = tmp_path / "out"
    shutil.copytree(night, out)
    hands = pq.read_table(out / "hands.parquet")
    first = pc.equal(hands.column("hand_id"), "G1-01")
    ruleset = pc.if_else(first, "standard-21", hands.column("ruleset"))
    pq.write_table(hands.set_column(hands.schema.get_field_index("ruleset"), "ruleset", ruleset),
                   out / "hands.parquet")  # fmt: skip
    assert labels(out) == {"points (standard-13): discrepancy": 2,
                           "pool 101 (standard-13): verified": 1,
                           "points (standard-21): discrepancy": 1}  # fmt: skip


def test_points_above_80_get_bins_of_their_own(night: Path, tmp_path: Path) -> None:
    """A 21- or 27-card loser may be charged up to 120: on a night with a charge above 80
    the chart of points charged goes on in tens to "120+" (they were all lumped into "80+"
    with the 13-card full counts); a night of 13-card hands keeps "80+" as its top bin."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    def bins(out: Path) -> dict[str, int]:
        chart = next(c for c in build_view(out).charts if c.id == "chart-scores")
        return {bar.label: bar.value for bar in chart.bars}

    assert list(bins(night))[-1] == "80+ points"
    out = tmp_path / "out"
    shutil.copytree(night, out)
    hands = pq.read_table(out / "hands.parquet")
    rows = hands.to_pylist()
    for row in rows:  # every loser charged 110 or 120
        row["points"] = [0 if o == "won" else (110 if i % 2 else 120)
                         for i, o in enumerate(row["outcomes"])]  # fmt: skip
    pq.write_table(pa.Table.from_pylist(rows, schema=hands.schema), out / "hands.parquet")
    wide = bins(out)
    assert list(wide)[-5:] == ["80-89 points", "90-99 points", "100-109 points",
                               "110-119 points", "120+ points"]  # fmt: skip
    losers = sum(o != "won" for row in rows for o in row["outcomes"])
    assert wide["110-119 points"] + wide["120+ points"] == losers
