"""``rummy-audit nightly`` with files the replay refuses (a column missing, a file cut
short): a refused file's rows never drive the carry, the night goes on without it as one
replay of every night's files does, the file is named where rows are missing on the night
the games it may hold are judged, and rows of earlier files audited again are named where
they are in the log root (docs/nightly.md)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.nightly.history import read_history
from audit.report.views import build_view
from audit.run import replay_logs
from tests.nightly.conftest import FIRST, SECOND, Cut, night
from tests.nightly.nights import add_night
from tests.nightly.test_nightly import LEAVE_OUT, nightly_json, rows

INPUT_FILE = "\"check\" = 'input.file'"


def refuse(path: Path, how: str) -> None:
    """Make ``path`` a file the replay refuses: without a column it needs, or cut short."""
    if how == "column":
        table = pq.read_table(path)
        victim = "rake_pct" if "rake_pct" in table.column_names else "auto"
        pq.write_table(table.drop_columns([victim]), path)
    else:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])


def cli_night(logs: Path, state: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        app, ["nightly", str(logs), "--state", str(state), "--workers", "1", "--no-progress"]
    )
    return result.exit_code, result.output


@pytest.mark.parametrize("how", ["column", "truncated"])
def test_a_refused_games_file_does_not_drive_the_carry_and_the_night_goes_on(
    cut: Cut, tmp_path: Path, how: str
) -> None:
    """Night 2's only games file refused (a column missing: its rows still read with
    pyarrow; or cut short). The games night 1 carried end in it, but the replay does not
    read it: they are carried on, running as far as the audit knows (they were ended and
    judged with ``game.running``, then dropped from the carry for good), the games it
    starts are not carried on its rows (their hands are quarantined, as one replay of both
    nights' files quarantines them), and the night goes on without it (a file cut short
    stopped the night, exit 2, "no readable games/ table", though the carry held games
    rows). Rewritten readable the next night, the carried games are judged whole, as one
    replay of every night's files judges them."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    add_night(logs, cut.second, SECOND)
    games = logs / "games" / f"date={SECOND}" / "part-0.parquet"
    refuse(games, how)
    status, line = cli_night(logs, state)
    assert status == 1, line  # findings at major and above, not "cannot run"
    held = len(cut.running) if how == "column" else 0
    assert f"{len(cut.running)} running games carried in (0 ended tonight" in line
    path = f"games/date={SECOND}/part-0.parquet"
    assert line.startswith(f"Night 2: 1 input file could not be read ({path}). 7 new files, ")
    if held:
        assert f"{held} carried on: their games row tonight is in a file that could not" in line
    else:
        assert f"{path} could not be read and may hold the end" in line
    second = state / "nights" / "0002"
    carry = nightly_json(second)["carry"]
    assert carry["ended"] == []
    assert sorted(carry["running"]) == cut.running  # none carried on the refused file's rows
    assert carry["running"] == dict.fromkeys(cut.running, 1)
    assert carry["carried_rows"]["games"] == len(cut.running)  # night 1's rows of them
    assert carry["held"] == dict.fromkeys(cut.running[:held], path)
    assert "games/nightly-empty.parquet" in carry["placeholders"]
    report = (second / "report.html").read_text(encoding="utf-8")
    assert ('id="trends-held"' in report) == bool(held)  # the report says why, too
    judged = {g for (g,) in rows(second / "hands.parquet", "SELECT DISTINCT game_id FROM FILE")}
    assert not judged & set(cut.running)
    refused = rows(second / "quarantine.parquet", f"SELECT file FROM FILE WHERE {INPUT_FILE}")
    assert refused == [(path,)]
    whole = tmp_path / "whole"
    replay_logs(logs=logs, out=whole, workers=1, progress=False)
    sql = ("SELECT hand_id, status, reason FROM FILE WHERE hand_id IN (SELECT hand_id FROM "
           f"read_parquet('{second / 'hands.parquet'}')) ORDER BY ALL")  # fmt: skip
    tonight = rows(second / "hands.parquet", sql)
    assert tonight == rows(whole / "hands.parquet", sql)
    assert {status for _, status, _ in tonight} == {"quarantined"}  # no games row to judge them

    pq.write_table(cut.second["games"], games)  # the platform writes it again, whole
    third = night(logs, state)
    assert (third.night, third.rewritten, third.carried_in, third.ended) == (
        3, 1, len(cut.running), len(cut.running)
    )  # fmt: skip
    assert nightly_json(state / "nights" / "0003")["carry"]["running"] == {}
    for name, sql in (
        ("hands", "SELECT * FROM FILE WHERE game_id IN (SELECT unnest($g)) ORDER BY ALL"),
        ("findings", f"SELECT * FROM FILE WHERE game_id IN (SELECT unnest($g)) AND {LEAVE_OUT}"
                     " ORDER BY ALL"),
    ):  # fmt: skip
        judged_now = rows(state / "nights" / "0003" / f"{name}.parquet", sql, g=cut.running)
        assert judged_now == rows(cut.replayed / f"{name}.parquet", sql, g=cut.running)
        assert judged_now


@pytest.mark.parametrize("how", ["column", "truncated"])
def test_a_running_games_rows_in_a_refused_file_are_named_the_night_it_ends(
    cut: Cut, tmp_path: Path, how: str
) -> None:
    """Night 1's events of a running game are in a file of their own that the replay
    refuses. The night it ends, its hands that lack them are quarantined naming that file,
    exactly as one replay of both nights' files quarantines them (they said only "has no
    events": the link to the file was lost with the night)."""
    events = cut.first["events"]
    hands = cut.first["hands"]
    ids = hands.filter(pc.equal(hands.column("game_id"), cut.spanning)).column("hand_id")
    mine = pc.is_in(events.column("hand_id"), value_set=pa.array(ids.to_pylist(), pa.string()))
    first = {**cut.first, "events": events.filter(pc.invert(mine))}
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, first, FIRST)
    apart = logs / "events" / f"date={FIRST}" / "part-b.parquet"
    pq.write_table(events.filter(mine), apart)
    refuse(apart, how)
    night(logs, state)
    named = f"events/date={FIRST}/part-b.parquet"
    add_night(logs, cut.second, SECOND)
    night(logs, state)
    second = state / "nights" / "0002"
    assert cut.spanning in nightly_json(second)["carry"]["ended"]
    whole = tmp_path / "whole"
    replay_logs(logs=logs, out=whole, workers=1, progress=False)
    sql = "SELECT hand_id, status, reason FROM FILE WHERE game_id = $g ORDER BY ALL"
    judged = rows(second / "hands.parquet", sql, g=cut.spanning)
    assert judged == rows(whole / "hands.parquet", sql, g=cut.spanning)
    quarantined = [reason for _, status, reason in judged if status == "quarantined"]
    assert quarantined
    assert all(named in reason for reason in quarantined)
    found = f'SELECT "check", message FROM FILE WHERE game_id = $g AND {LEAVE_OUT} ORDER BY ALL'
    tonight = rows(second / "findings.parquet", found, g=cut.spanning)
    replayed = rows(whole / "findings.parquet", found, g=cut.spanning)
    # One replay refuses the file itself: its input.file says the hands it took out
    # (schemas/output.md, findings.parquet), found by their hand_id or, the file truncated,
    # by what they lack (until 2026-12-06 not those: a blind tester); night 2 has no
    # input.file of it to say them, so each hand and its game keep their own findings.
    said = {"input.hand", "game.unchecked"}
    assert {check for check, _ in tonight} >= said
    assert not {check for check, _ in replayed} & said
    tonight = [(check, message) for check, message in tonight if check not in said]
    assert tonight == replayed
    # the file is refused (an input.file row) on night 1 only, the night that took it
    assert rows(second / "quarantine.parquet", f"SELECT * FROM FILE WHERE {INPUT_FILE}") == []
    # night 1 listed it for the games it carried; night 2, with none of them running on, not
    unread = nightly_json(state / "nights" / "0001")["carry"].get("unread_files")
    assert [(u["table"], u["path"], u["night"]) for u in unread] == [("events", named, 1)]
    assert nightly_json(second)["carry"]["unread_files"] == []


@pytest.mark.parametrize("folder", [f"date={SECOND}", "a-late"])
def test_a_row_sent_again_is_named_where_it_is_in_the_log_root(
    cut: Cut, tmp_path: Path, folder: str
) -> None:
    """A results row of a game night 1 judged, sent again on night 2: the game is audited
    again with its rows of night 1, and the quarantine row names the later of the two rows
    in the log root, as one replay of both nights' files names it (schemas/output.md: "so
    the platform can find it"): the new file's row, or, when the new file comes first,
    the row of night 1's file, at its place in that file. It named the night's internal
    copy, ``results/reaudit-<hash>/...``, which run.json listed as an input."""
    games = cut.first["games"]
    ended = sorted(g for g, e in zip(games.column("game_id").to_pylist(),
                                     games.column("ended_at").to_pylist(), strict=True)
                   if e)  # fmt: skip
    results = cut.first["results"]
    hand = sorted(h for h in results.column("hand_id").to_pylist() if h.startswith(ended[0]))[0]
    resent = results.filter(pc.equal(results.column("hand_id"), hand)).slice(0, 1)
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    add_night(logs, cut.second, SECOND)
    (logs / "results" / folder).mkdir(exist_ok=True)
    pq.write_table(resent, logs / "results" / folder / "late.parquet")
    night(logs, state)
    second = state / "nights" / "0002"
    assert ended[0] in nightly_json(second)["reaudited_games"]
    whole = tmp_path / "whole"
    replay_logs(logs=logs, out=whole, workers=1, progress=False)
    sql = "SELECT * FROM FILE WHERE game_id = $g ORDER BY ALL"
    named = rows(second / "quarantine.parquet", sql, g=ended[0])
    assert named == rows(whole / "quarantine.parquet", sql, g=ended[0])
    assert named
    run: dict[str, Any] = json.loads((second / "run.json").read_text(encoding="utf-8"))
    assert not [i["path"] for i in run["inputs"] if "reaudit-" in i["path"]]


def money(folder: Path) -> dict[tuple[int, str], tuple[Any, Any]]:
    """A night's history of money: (night, measure) -> (games, amount)."""
    return {(r["night"], r["measure"]): (r["games"], r["amount"])
            for r in read_history(folder)["money"]}  # fmt: skip


def trend_cells(folder: Path, night_no: int) -> tuple[str, str]:
    """The money cells (staked, at stake) of a night in the report's trend section."""
    view = build_view(folder).history
    assert view is not None
    row = next(n for n in view.nights if n.night == night_no)
    return row.staked, row.at_stake


@pytest.mark.parametrize("table", ["ledger", "games"])
def test_a_night_whose_ledger_or_games_file_cannot_be_read_has_its_money_not_known(
    cut: Cut, tmp_path: Path, table: str
) -> None:
    """docs/nightly.md: money is exact, never 0.00 where it is not known. Night 1's only
    ledger (or games) file cut short: the sum of the files read is not the night's money,
    so history/money.parquet holds it null and the trend section reads "not known" (it
    recorded and showed 0.00 staked, 0.00 at stake: a blind tester)."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    refuse(logs / table / f"date={FIRST}" / "part-0.parquet", "truncated")
    night(logs, state)
    first = state / "nights" / "0001"
    assert money(first) == {(1, "staked"): (None, None), (1, "at_stake"): (None, None)}
    assert trend_cells(first, 1) == ("not known", "not known")
    cells = (first / "report.html").read_text(encoding="utf-8")
    cells = cells.split('id="trends-nights"')[1].split("</table>")[0]
    assert "not known" in cells
    assert "0.00" not in cells
    with duckdb.connect(str(state / "history.duckdb"), read_only=True) as db:
        assert db.execute("SELECT count(*), count(amount) FROM money").fetchone() == (2, 0)


def test_a_carried_games_ledger_rows_in_a_refused_file_leave_the_money_not_known(
    cut: Cut, tmp_path: Path
) -> None:
    """Night 1's ledger rows of a running game are in a file of their own that the replay
    refuses. The night the game ends, judged whole, its money may be in that file: the
    night's money is not known (the files that night reads summed to a number, as if they
    held all of it), while night 1 says so for its own refused file."""
    ledger = cut.first["ledger"]
    ids = pa.array(cut.running, pa.string())
    mine = pc.is_in(ledger.column("game_id"), value_set=ids)
    assert pc.any(mine).as_py()  # a running game has ledger rows before the cut
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, {**cut.first, "ledger": ledger.filter(pc.invert(mine))}, FIRST)
    apart = logs / "ledger" / f"date={FIRST}" / "part-b.parquet"
    pq.write_table(ledger.filter(mine), apart)
    refuse(apart, "truncated")
    night(logs, state)
    add_night(logs, cut.second, SECOND)
    night(logs, state)
    second = state / "nights" / "0002"
    assert nightly_json(second)["carry"]["ended"]
    assert money(second)[(2, "staked")] == (None, None)
    assert trend_cells(second, 2) == ("not known", "not known")


@pytest.mark.parametrize("table", ["ledger", "sessions"])
def test_a_night_whose_ledger_or_sessions_files_cannot_be_read_says_so_as_replay_does(
    cut: Cut, tmp_path: Path, table: str
) -> None:
    """docs/nightly.md: a night judges as one replay of all the nights' files does. Its
    only ledger file cut short, night 1 said "The log root's ledger files hold no row"
    (the night's empty stand-in file was all it read; of sessions, that and that the file
    could not be read), where `replay` over the same files says once that none of them
    could be read, naming the file."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    refuse(logs / table / f"date={FIRST}" / "part-0.parquet", "truncated")
    night(logs, state)
    whole = tmp_path / "whole"
    replay_logs(logs=logs, out=whole, workers=1, progress=False)
    sql = "SELECT message FROM FILE WHERE \"check\" = 'check.skipped' ORDER BY ALL"
    said = rows(state / "nights" / "0001" / "findings.parquet", sql)
    assert said == rows(whole / "findings.parquet", sql)
    named = f"{table}/date={FIRST}/part-0.parquet"
    assert len(said) == 1
    assert said[0][0].startswith(f"None of the log root's {table} files could be read ({named}), ")


def test_the_games_a_refused_file_kept_from_their_checks_are_at_stake(
    cut: Cut, tmp_path: Path
) -> None:
    """docs/nightly.md, "The history": `at_stake` is the stakes of the games with a finding
    of minor or above or a quarantined hand. Night 1's results of three real-money games in
    a file of their own, cut short: their hands are quarantined under the file's one
    `input.file`, which names no game, and they count at stake as a game with a hand
    quarantined for its own `input.hand` does (a blind tester's refused results file left
    17 hands of 9 games quarantined and at stake "0 games, 0.00")."""
    first_games = cut.first["games"].to_pylist()
    real = {g["game_id"] for g in first_games if g["chip_type"] == "real" and g["ended_at"]}
    hands = cut.first["hands"]
    games = sorted(real & set(hands.column("game_id").to_pylist()))[:3]
    theirs = hands.filter(pc.is_in(hands.column("game_id"), value_set=pa.array(games)))
    results = cut.first["results"]
    taken = pc.is_in(results.column("hand_id"), value_set=theirs.column("hand_id"))
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, {**cut.first, "results": results.filter(pc.invert(taken))}, FIRST)
    apart = logs / "results" / f"date={FIRST}" / "part-b.parquet"
    pq.write_table(results.filter(taken), apart)
    refuse(apart, "truncated")
    night(logs, state)
    first = state / "nights" / "0001"
    held = rows(first / "hands.parquet",
                "SELECT DISTINCT game_id FROM FILE WHERE status = 'quarantined'")  # fmt: skip
    assert sorted(game for (game,) in held) == games
    bad = rows(first / "findings.parquet",
               "SELECT DISTINCT game_id FROM FILE WHERE game_id <> '' AND severity IN "
               f"('critical', 'major', 'minor') AND {LEAVE_OUT}")  # fmt: skip
    named = {game for (game,) in bad}
    assert not named & set(games)  # no finding names them: the file's input.file says them
    staked: dict[str, Decimal] = {}
    for row in cut.first["ledger"].to_pylist():
        if row["game_id"] in {g["game_id"] for g in first_games if g["chip_type"] == "real"}:
            paid = -row["amount"] if row["kind"] in ("buy_in", "rebuy") or (
                row["kind"] == "points_settlement" and row["amount"] < 0) else Decimal(0)
            staked[row["game_id"]] = staked.get(row["game_id"], Decimal(0)) + paid
    at_stake = [staked[g] for g in staked if g in named or g in games]
    assert set(games) <= set(staked)
    assert money(first)[(1, "at_stake")] == (len(at_stake), sum(at_stake, Decimal("0.00")))


def test_a_refused_file_replaced_by_a_good_copy_under_a_new_name_is_not_gone(
    cut: Cut, tmp_path: Path
) -> None:
    """docs/nightly.md: a file the replay refuses "gives no rows, as it never did". Night
    2's results file is cut short (refused); night 3 the platform deletes it and sends the
    good copy under a new name. The games whose rows come again are audited again whole,
    and the refused file, gone, held none of their rows the audit ever read: the night goes
    on, judging them as one replay of the final log root does. A blind tester (b110) had
    the night stop (exit 2, "... is gone from the log root ... put the file back"), and
    every later night with it, until the corrupt file was put back."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    add_night(logs, cut.second, SECOND)
    bad = logs / "results" / f"date={SECOND}" / "part-0.parquet"
    refuse(bad, "truncated")
    night(logs, state)
    bad.unlink()
    pq.write_table(cut.second["results"], bad.with_name("part-1-resend.parquet"))
    third = night(logs, state)
    assert third.night == 3
    whole = tmp_path / "whole"
    replay_logs(logs=logs, out=whole, workers=1, progress=False)
    again = [g for (g,) in rows(state / "nights" / "0003" / "hands.parquet",
                                "SELECT DISTINCT game_id FROM FILE ORDER BY 1")]  # fmt: skip
    assert again
    sql = "SELECT * FROM FILE WHERE game_id IN (SELECT unnest($g)) ORDER BY ALL"
    findings = ("SELECT * FROM FILE WHERE game_id IN (SELECT unnest($g)) AND "
                f"{LEAVE_OUT} ORDER BY ALL")  # fmt: skip
    for name, query in (("hands", sql), ("quarantine", sql), ("findings", findings)):
        tonight = rows(state / "nights" / "0003" / f"{name}.parquet", query, g=again)
        assert tonight == rows(whole / f"{name}.parquet", query, g=again), name
