"""The trend section of a nightly run's report: the nights so far, findings per check per
night, suspicions opened and closed, money at stake; and none in a plain replay's report."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.duck import file_literal
from audit.nightly.history import _money, read_history, suspicion_changes, write_history
from audit.nightly.night import nightly_logs
from audit.report.history import HISTORY_TABLES, money_text
from audit.report.render import write_report
from audit.report.views import build_view
from tests.nightly.conftest import FIRST, SECOND, Cut, night
from tests.nightly.nights import add_night
from tests.report.test_damaged import refused


def page(out: Path) -> str:
    return (out / "report.html").read_text(encoding="utf-8")


def test_the_second_nights_report_shows_both_nights(two_nights: tuple[Path, Path]) -> None:
    _, state = two_nights
    out = state / "nights" / "0002"
    view = build_view(out).history
    assert view is not None
    assert (view.night, view.total_nights) == (2, 2)
    assert [n.night for n in view.nights] == [1, 2]
    assert [n.current for n in view.nights] == [False, True]
    for row in view.nights:
        run = json.loads((state / "nights" / f"000{row.night}" / "run.json").read_text())
        assert row.findings == sum(run["counts"]["findings"].values())
        assert row.hands == run["counts"]["hands_total"]
        assert row.verified == run["counts"]["hands"]["verified"]
    assert view.nights[1].carried_in == view.nights[0].running > 0
    assert view.columns == [1, 2]
    with duckdb.connect() as db:
        per_check = db.execute(
            f"SELECT \"check\", count(*) FROM read_parquet('{out}/findings.parquet') GROUP BY 1"
        ).fetchall()
    assert {t.check: t.counts[1] for t in view.checks if t.counts[1]} == dict(per_check)
    assert view.checks[0].severity == "critical"  # the worst first
    html = page(out)
    assert '<a href="#trends">Trends</a>' in html
    assert 'id="trends"' in html
    assert "Night 2 of 2 audited by <code>rummy-audit nightly</code>" in html
    assert html.count('<tr class="current" id="night-2">') == 1
    assert 'id="night-1"' in page(state / "nights" / "0001")
    assert 'id="night-2"' not in page(state / "nights" / "0001")


def test_money_at_stake_is_exact(two_nights: tuple[Path, Path]) -> None:
    _, state = two_nights
    rows = read_history(state / "nights" / "0002")["money"]
    assert {(r["night"], r["measure"]) for r in rows} == {
        (n, m) for n in (1, 2) for m in ("staked", "at_stake")
    }
    for r in rows:
        assert isinstance(r["amount"], Decimal)
        assert r["amount"] == r["amount"].quantize(Decimal("0.01"))
    staked = {r["night"]: r for r in rows if r["measure"] == "staked"}
    at_stake = {r["night"]: r for r in rows if r["measure"] == "at_stake"}
    for n in (1, 2):
        assert 0 < at_stake[n]["amount"] <= staked[n]["amount"]  # tampered money games
        assert 0 < at_stake[n]["games"] <= staked[n]["games"]
    # each bar says its night's amount exactly, to the paisa (it said the whole units: a
    # blind tester's 0.74 read 0), and is as long as it in paise
    view = build_view(state / "nights" / "0002").history
    assert view is not None
    bars = view.money_chart.bars
    assert [(b.label, b.text, b.value) for b in bars] == [
        (f"night {n}", money_text(at_stake[n]["amount"]), int(at_stake[n]["amount"] * 100))
        for n in (1, 2)
    ]
    chart = page(state / "nights" / "0002").split('id="chart-money"')[1].split("</svg>")[0]
    assert f"<title>night 2: {money_text(at_stake[2]['amount'])}</title>" in chart
    assert "<title>rummy-audit nightly report</title>" in page(state / "nights" / "0002")


def test_a_plain_replay_has_no_trend_section(cut: Cut) -> None:
    assert build_view(cut.replayed).history is None
    html = page(cut.replayed)
    assert 'id="trends"' not in html
    assert "#trends" not in html
    assert "<title>rummy-audit report</title>" in html  # not a nightly report


def suspicions(out: Path, *rows: tuple[str, list[str], str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(
        [{"check": c, "players": p, "severity": s} for c, p, s in rows],
        schema=pa.schema([("check", pa.string()), ("players", pa.list_(pa.string())),
                          ("severity", pa.string())]),
    )
    pq.write_table(table, out / "suspicions.parquet")


def night_row(night: int, fairplay: bool) -> dict[str, Any]:
    return {"night": night, "fairplay": fairplay}


def test_suspicions_are_matched_across_nights_by_detector_and_accounts(tmp_path: Path) -> None:
    suspicions(tmp_path / "1", ("fairplay.collusion", ["P1", "P2"], "major"),
               ("fairplay.bot", ["P9"], "minor"))  # fmt: skip
    first = suspicion_changes(1, tmp_path / "1", [], [], True)
    assert [(r["key"], r["change"]) for r in first] == [
        ("fairplay.collusion:P1,P2", "opened"), ("fairplay.bot:P9", "opened")
    ]
    # night 2: the detectors did not run: nothing opened or closed
    assert suspicion_changes(2, tmp_path / "none", first, [night_row(1, True)], False) == []
    # night 3: the pair again (its accounts the other way round), the bot gone, a new one
    suspicions(tmp_path / "3", ("fairplay.collusion", ["P2", "P1"], "minor"),
               ("fairplay.shared_device", ["P4", "P5"], "info"))  # fmt: skip
    third = suspicion_changes(3, tmp_path / "3", first,
                              [night_row(1, True), night_row(2, False)], True)  # fmt: skip
    assert sorted((r["key"], r["change"], r["severity"]) for r in third) == [
        ("fairplay.bot:P9", "closed", "minor"),
        ("fairplay.collusion:P1,P2", "kept", "minor"),
        ("fairplay.shared_device:P4,P5", "opened", "info"),
    ]
    assert all(r["night"] == 3 for r in third)


def test_the_trend_section_lists_the_suspicions_opened_and_closed(
    two_nights: tuple[Path, Path], tmp_path: Path
) -> None:
    _, state = two_nights
    out = tmp_path / "out"
    shutil.copytree(state / "nights" / "0002", out)
    rows = read_history(out)
    rows["suspicions"] = [
        {"night": 2, "key": "fairplay.collusion:<b>P1</b>,P2", "check": "fairplay.collusion",
         "players": ["<b>P1</b>", "P2"], "severity": "major", "change": "opened"},
        {"night": 2, "key": "fairplay.bot:P9", "check": "fairplay.bot", "players": ["P9"],
         "severity": "minor", "change": "closed"},
        {"night": 2, "key": "fairplay.bot:P7", "check": "fairplay.bot", "players": ["P7"],
         "severity": "minor", "change": "kept"},
    ]  # fmt: skip
    write_history(out, rows)
    write_report(out)
    view = build_view(out).history
    assert view is not None
    assert [(c.change, c.players) for c in view.changes] == [
        ("opened", ["<b>P1</b>", "P2"]), ("closed", ["P9"])
    ]
    assert view.kept == 1
    html = page(out)
    assert '<tr class="change-opened"><td>opened</td>' in html
    assert "<code>&lt;b&gt;P1&lt;/b&gt;</code>" in html
    kept = html.split('id="trends-kept">')[1].split("</p>")[0]
    assert " ".join(kept.split()).startswith("1 opened, 1 closed; 1 already open the night before")


def test_a_night_the_detectors_did_not_run_says_so_and_what_was_open_before(
    two_nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """docs/nightly.md: a night the detectors did not run opens and closes nothing; its
    section says they did not run and how many suspicions were open the last night they
    did (it said "0 already open the night before" with 2 open)."""
    _, state = two_nights
    out = tmp_path / "out"
    shutil.copytree(state / "nights" / "0002", out)
    rows = read_history(out)
    rows["nights"] = [{**n, "fairplay": n["night"] == 1} for n in rows["nights"]]
    rows["suspicions"] = [
        {"night": 1, "key": f"fairplay.bot:{p}", "check": "fairplay.bot", "players": [p],
         "severity": "minor", "change": "opened"} for p in ("P7", "P9")
    ]  # fmt: skip
    write_history(out, rows)
    write_report(out)
    view = build_view(out).history
    assert view is not None
    assert (view.fairplay_ran, view.last_ran, view.open_before) == (False, 1, 2)
    said = " ".join(page(out).split('id="trends-kept">')[1].split("</p>")[0].split())
    assert said.startswith("The fair-play detectors did not run tonight, so no suspicion was "
                           "opened or closed; 2 were open on night 1, the last night they ran.")
    assert "already open" not in said


def test_suspicions_kept_are_counted_against_the_last_night_the_detectors_ran(
    two_nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """docs/nightly.md: a suspicion is kept when it was open the last night the detectors
    ran; after a night they did not run the section names that night (it said "already
    open the night before", of a night that ran no detector: a blind tester)."""
    _, state = two_nights
    out = tmp_path / "out"
    shutil.copytree(state / "nights" / "0002", out)
    rows = read_history(out)
    second = next(n for n in rows["nights"] if n["night"] == 2)
    rows["nights"] = [{**n, "fairplay": n["night"] == 1} for n in rows["nights"]]
    rows["nights"].append({**second, "night": 3, "fairplay": True})
    rows["suspicions"] = [
        {"night": n, "key": "fairplay.bot:P7", "check": "fairplay.bot", "players": ["P7"],
         "severity": "minor", "change": change} for n, change in ((1, "opened"), (3, "kept"))
    ]  # fmt: skip
    write_history(out, rows)
    write_report(out)
    view = build_view(out).history
    assert view is not None
    assert (view.night, view.fairplay_ran, view.last_ran, view.kept) == (3, True, 1, 1)
    said = " ".join(page(out).split('id="trends-kept">')[1].split("</p>")[0].split())
    assert said.startswith("None opened or closed; 1 already open on night 1, the last night "
                           "before this one that they ran.")


def test_a_night_of_empty_files_opens_and_closes_no_suspicion(
    cut: Cut, tmp_path: Path
) -> None:
    """docs/nightly.md: a night with no hand replayed (a drop of files with no rows) is a
    night the detectors judged nothing: it closes none of the suspicions open before
    (it closed every one of them), and the next night with hands matches against the
    night before it (``suspicion_changes`` of a night whose detectors did not run, above)."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    assert night(logs, state).night == 1
    add_night(logs, {t: rows.slice(0, 0) for t, rows in cut.second.items()}, SECOND)
    assert night(logs, state).night == 2
    history = read_history(state / "nights" / "0002")
    second = {n["night"]: n for n in history["nights"]}[2]
    assert (second["fairplay"], second["suspicions_closed"], second["hands"]) == (False, 0, 0)
    assert [s for s in history["suspicions"] if s["night"] == 2] == []


def test_checks_that_did_not_run_read_not_run_never_zero(cut: Cut, tmp_path: Path) -> None:
    """README: the report says what did not run; schemas/README.md: a check that could not
    run is never silently passed. Night 1 runs everything, night 2 with --no-fairplay and
    --no-rng: its detectors' and shuffle tests' cells and its line say so, not 0; and with
    no ledger table on either night the money reads "no ledger", not 0.00."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, {t: rows for t, rows in cut.first.items() if t != "ledger"}, FIRST)
    assert night(logs, state).night == 1
    add_night(logs, {t: rows for t, rows in cut.second.items() if t != "ledger"}, SECOND)
    second = nightly_logs(logs=logs, state=state, workers=1, progress=False,
                          fairplay=False, rng=False)  # fmt: skip
    assert "; fair play not run; shuffle not run; outputs in" in second.line()
    history = read_history(state / "nights" / "0002")
    rows = {n["night"]: n for n in history["nights"]}
    assert (rows[1]["fairplay"], rows[1]["shuffle"]) == (True, True)
    assert (rows[2]["fairplay"], rows[2]["shuffle"]) == (False, False)
    assert rows[1]["skipped_tables"] == rows[2]["skipped_tables"] == ["ledger"]
    assert rows[1]["absent_tables"] == rows[2]["absent_tables"] == ["ledger"]
    assert history["money"] == []
    view = build_view(state / "nights" / "0002").history
    assert view is not None
    assert [(n.staked, n.at_stake) for n in view.nights] == [("no ledger", "no ledger")] * 2
    html = page(state / "nights" / "0002")
    checks = html.split('id="trends-checks"')[1].split("</table>")[0]
    for row in checks.split("<tr>")[2:]:
        cells = row.split('<td class="num')
        if "<code>fairplay." in row or "<code>rng." in row:
            assert "not run" in cells[2], row  # night 2's cell
    assert "no ledger" in html.split('id="trends-nights"')[1].split("</table>")[0]
    # the last column adds the nights up, and says a game audited again counts twice
    assert ">all nights</th>" in checks
    assert "counts on each night that audited it" in html.split('id="trends-checks-note"')[1]


def test_a_check_whose_table_a_night_lacked_reads_not_run_that_night(
    two_nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """schemas/README.md: a check that could not run is never silently passed. A night
    without a ledger (or sessions, or game_events) table runs no ledger.balance (no
    table.limit, no pool checks): its cell says "not run", not 0 (it read 0, an all-clear,
    beside the night's check.skipped note). A night recorded before the column was kept
    is not known and reads as counted."""
    _, state = two_nights
    out = tmp_path / "out"
    shutil.copytree(state / "nights" / "0002", out)
    rows = read_history(out)
    second = next(n for n in rows["nights"] if n["night"] == 2)
    skipped = {1: [], 2: ["ledger"], 3: ["sessions", "game_events"], 4: None}
    rows["nights"] = [{**second, "night": n, "skipped_tables": t} for n, t in skipped.items()]
    rows["checks"] = [
        {"night": 1, "check": check, "severity": "major", "findings": 2}
        for check in ("ledger.balance", "table.limit", "pool.rebuy", "score.points")
    ]
    write_history(out, rows)
    write_report(out)
    view = build_view(out).history
    assert view is not None
    trends = {t.check: t.counts for t in view.checks}
    assert trends == {
        "ledger.balance": [2, None, 0, 0],
        "table.limit": [2, 0, None, 0],
        "pool.rebuy": [2, 0, None, 0],
        "score.points": [2, 0, 0, 0],
    }
    checks = page(out).split('id="trends-checks"')[1].split("</table>")[0]
    ledger = next(r for r in checks.split("<tr>") if "<code>ledger.balance</code>" in r)
    assert ledger.count("not run") == 1


def test_a_nights_folder_is_not_offered_to_fairplay_or_rng(two_nights: tuple[Path, Path]) -> None:
    """A night of `rummy-audit nightly` was replayed from that night's work root, gone
    since: `fairplay` and `rng` over it say so in one line (exit 2), never suggesting a
    replay of every night into the committed night's folder."""
    from typer.testing import CliRunner

    from audit.cli import app

    logs, state = two_nights
    folder = state / "nights" / "0002"
    for command in ("fairplay", "rng"):
        result = CliRunner().invoke(app, [command, str(logs), "--out", str(folder)])
        assert result.exit_code == 2, result.output
        assert "is a night of rummy-audit nightly" in result.output
        assert "rummy-audit replay" not in result.output


def test_all_nights_counts_every_night_of_the_history_and_every_check(
    two_nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """docs/nightly.md: findings per check has a column for each of the last 14 nights and
    "all nights", every night of the history added up. Over 16 nights it added only the 14
    with a column, and a check found only on an older night had no row (a blind tester:
    fairplay.bot 14 where the history held 18, score.amount missing)."""
    _, state = two_nights
    out = tmp_path / "out"
    shutil.copytree(state / "nights" / "0002", out)
    rows = read_history(out)
    second = next(n for n in rows["nights"] if n["night"] == 2)
    rows["nights"] = [{**second, "night": n} for n in range(1, 17)]
    rows["checks"] = [
        {"night": n, "check": "fairplay.bot", "severity": "minor", "findings": 1}
        for n in range(1, 17)
    ] + [{"night": 1, "check": "score.amount", "severity": "major", "findings": 2}]
    write_history(out, rows)
    write_report(out)
    view = build_view(out).history
    assert view is not None
    assert view.columns == list(range(3, 17))
    trends = {t.check: t for t in view.checks}
    assert trends["fairplay.bot"].total == 16
    assert trends["score.amount"].counts == [0] * 14
    assert (trends["score.amount"].total, trends["score.amount"].severity) == (2, "major")
    note = " ".join(page(out).split('id="trends-checks-note">')[1].split("</p>")[0].split())
    assert note.startswith('"All nights" adds up the counts of all 16 nights of the history, '
                           "the 2 older than the columns too:")  # fmt: skip


def test_every_history_file_carries_the_output_version(two_nights: tuple[Path, Path]) -> None:
    """schemas/output.md: every Parquet file carries rummy_audit.output_version = "1" (the
    history's files carried none)."""
    _, state = two_nights
    files = sorted((state / "nights" / "0002" / "history").glob("*.parquet"))
    assert [f.stem for f in files] == sorted(HISTORY_TABLES)
    for path in files:
        metadata = pq.read_schema(path).metadata or {}
        assert metadata.get(b"rummy_audit.output_version") == b"1", path


@pytest.mark.parametrize("table", HISTORY_TABLES)
def test_a_history_without_one_of_its_files_is_refused(
    two_nights: tuple[Path, Path], tmp_path: Path, table: str
) -> None:
    """schemas/output.md: `report` refuses a folder it cannot report truly. A night's
    folder whose history/ lacks one file rendered false trends, exit 0: without
    checks.parquet "No findings on any night", without nights.parquet no trend section,
    without money.parquet every night "no ledger". One line, exit 2, naming the file."""
    _, state = two_nights
    out = tmp_path / "out"
    shutil.copytree(state / "nights" / "0002", out)
    (out / "history" / f"{table}.parquet").unlink()
    refused(out, f"{out} holds a history without history/{table}.parquet, so its trends ")



def test_a_night_whose_ledger_files_hold_no_row_has_no_money_not_zero(tmp_path: Path) -> None:
    """schemas/output.md, money.parquet: "no row on a night whose log root has no ledger
    table". A night whose ledger files hold no row (the nightly run's own empty file, on a
    night that brought none) ran no ledger.balance, so its money is not known ("no
    ledger"), never 0.00 (a blind tester's night of real-money games read "staked 0.00");
    a ledger file with rows is summed."""
    logs = tmp_path / "logs"
    (logs / "ledger").mkdir(parents=True)
    (logs / "games").mkdir()
    pq.write_table(pa.table({"game_id": ["G1"], "chip_type": ["real"]}), logs / "games/a.parquet")
    ledger = pa.table({"game_id": pa.array([], pa.string()), "kind": pa.array([], pa.string()),
                       "amount": pa.array([], pa.decimal128(18, 2))})  # fmt: skip
    pq.write_table(ledger, logs / "ledger/nightly-empty.parquet")
    findings = tmp_path / "findings.parquet"
    pq.write_table(pa.table({"game_id": pa.array([], pa.string()),
                             "severity": pa.array([], pa.string()),
                             "check": pa.array([], pa.string())}), findings)  # fmt: skip
    run = {"inputs": [{"table": "games", "path": "games/a.parquet", "rows": 1},
                      {"table": "ledger", "path": "ledger/nightly-empty.parquet", "rows": 0}],
           "missing_optional_tables": []}  # fmt: skip
    with duckdb.connect() as db:
        assert _money(db, run, logs, file_literal(str(findings))) == {}
        paid = pa.table({"game_id": ["G1"], "kind": ["buy_in"],
                         "amount": pa.array([Decimal("-25.00")], pa.decimal128(18, 2))})
        pq.write_table(paid, logs / "ledger/b.parquet")
        run["inputs"].append({"table": "ledger", "path": "ledger/b.parquet", "rows": 1})
        assert _money(db, run, logs, file_literal(str(findings)))["staked"] == (
            1, Decimal("25.00"))


def test_a_ledger_table_without_rows_reads_no_ledger_rows_not_no_ledger(
    cut: Cut, tmp_path: Path
) -> None:
    """docs/nightly.md, "The history": "no ledger" is a night whose log root has no ledger
    table. Night 1's ledger table holds a file with no row: its money is not 0.00 (no
    ledger.balance ran) but not a log root without a ledger either, so history/nights
    records no absent table and the trend cells read "no ledger rows" (they read "no
    ledger": a blind tester's night of empty tables)."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, {**cut.first, "ledger": cut.first["ledger"].slice(0, 0)}, FIRST)
    night(logs, state)
    first = state / "nights" / "0001"
    history = read_history(first)
    assert history["money"] == []
    assert [(n["skipped_tables"], n["absent_tables"]) for n in history["nights"]] == [
        (["ledger"], [])
    ]
    view = build_view(first).history
    assert view is not None
    assert [(n.staked, n.at_stake) for n in view.nights] == [("no ledger rows", "no ledger rows")]
    cells = page(first).split('id="trends-nights"')[1].split("</table>")[0]
    assert "0.00" not in cells
    with duckdb.connect(str(state / "history.duckdb"), read_only=True) as db:
        assert db.execute("SELECT absent_tables FROM nights").fetchall() == [([],)]
