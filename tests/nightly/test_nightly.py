"""``rummy-audit nightly``: only what is new, rewritten files again, a game that spans two
nights judged once, whole, when it ends; bad input is one line."""

from __future__ import annotations

import fcntl
import json
import shutil
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.errors import AuditError
from audit.nightly.night import nightly_logs
from audit.nightly.state import STATE_VERSION
from audit.run import replay_logs
from tests.nightly.conftest import FIRST, SECOND, Cut, night
from tests.nightly.nights import add_night, split_by_time, write_root


def nightly_json(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "nightly.json").read_text(encoding="utf-8"))
    return data


def rows(path: Path, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    with duckdb.connect() as db:
        return db.execute(sql.replace("FILE", f"read_parquet('{path}')"), params).fetchall()


LEAVE_OUT = "\"check\" NOT LIKE 'fairplay.%' AND \"check\" NOT LIKE 'rng.%'"
"""Fair play and the shuffle tests are statistics over a night's hands: two nights are
not one, so they are compared apart."""
FIRST_MOMENT = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"
"""The first date and time in a message: a ``table.limit`` episode's start."""
SHARED = (
    "* REPLACE (CASE WHEN \"check\" = 'table.limit' THEN NULL ELSE recorded END AS recorded,"
    " CASE WHEN \"check\" = 'table.limit' THEN regexp_extract(message, '" + FIRST_MOMENT + "')"
    " ELSE message END AS message)"
)
"""The findings' columns two nights share with one replay: a ``table.limit`` episode a night
reported is not reported again, so its peak (``recorded``) and end are those that night saw
(docs/nightly.md, "Table limits across the cut"); it is compared by its player, game and
first moment."""


def test_the_first_night_carries_the_games_running_at_the_cut(
    cut: Cut, two_nights: tuple[Path, Path]
) -> None:
    _, state = two_nights
    first = state / "nights" / "0001"
    carry = nightly_json(first)["carry"]
    assert sorted(carry["running"]) == cut.running
    assert carry["carried_in"] == {}
    hands = {h for (h,) in rows(first / "hands.parquet", "SELECT game_id FROM FILE")}
    assert not hands & set(cut.running)  # not judged while running
    found = rows(first / "findings.parquet", "SELECT count(*) FROM FILE WHERE game_id = $g",
                 g=cut.spanning)  # fmt: skip
    assert found == [(0,)]


def test_a_second_night_audits_only_its_new_files(two_nights: tuple[Path, Path]) -> None:
    logs, state = two_nights
    data = nightly_json(state / "nights" / "0002")
    taken = sorted(f["path"] for f in data["files"]["taken"])
    assert taken == sorted(
        p.relative_to(logs).as_posix() for p in logs.rglob(f"date={SECOND}/*.parquet")
    )
    assert {f["status"] for f in data["files"]["taken"]} == {"new"}
    assert data["files"]["seen_before"] == 7
    run = json.loads((state / "nights" / "0002" / "run.json").read_text(encoding="utf-8"))
    audited = {i["path"] for i in run["inputs"]}
    assert not any(f"date={FIRST}" in p and "carried-" not in p for p in audited)


def test_a_game_spanning_two_nights_is_judged_once_when_it_ends_as_one_replay_judges_it(
    cut: Cut, two_nights: tuple[Path, Path]
) -> None:
    _, state = two_nights
    second = state / "nights" / "0002"
    assert sorted(nightly_json(second)["carry"]["ended"]) == cut.running
    assert nightly_json(second)["carry"]["running"] == {}
    hands_sql = "SELECT * FROM FILE WHERE game_id IN (SELECT unnest($g)) ORDER BY ALL"
    whole_hands = rows(cut.replayed / "hands.parquet", hands_sql, g=cut.running)
    assert rows(second / "hands.parquet", hands_sql, g=cut.running) == whole_hands
    findings_sql = f"SELECT * FROM FILE WHERE game_id = $g AND {LEAVE_OUT} ORDER BY ALL"
    whole = rows(cut.replayed / "findings.parquet", findings_sql, g=cut.spanning)
    assert whole  # the tampered game: a finding on a hand of the first night
    assert rows(second / "findings.parquet", findings_sql, g=cut.spanning) == whole
    # and over every game: the two nights together find what one replay of the night finds
    every = f"SELECT {SHARED} FROM FILE WHERE {LEAVE_OUT} ORDER BY ALL"
    both = rows(state / "nights" / "000[12]" / "findings.parquet", every)
    assert both == rows(cut.replayed / "findings.parquet", every)
    hands_both = rows(state / "nights" / "000[12]" / "hands.parquet",
                      "SELECT * FROM FILE ORDER BY ALL")  # fmt: skip
    assert hands_both == rows(cut.replayed / "hands.parquet", "SELECT * FROM FILE ORDER BY ALL")


def test_table_limits_across_the_cut_are_found_once_as_one_replay_finds_them(
    cut: Cut, two_nights: tuple[Path, Path]
) -> None:
    """``table.limit`` judges a night's seats with the earlier nights' that touch them
    (docs/nightly.md, "Table limits across the cut"). P9001, over the app's 3 tables only
    with seats of both sides of the cut, is found the second night (neither night found it
    alone); P9002, over on the first night's seats alone and then at a fifth table after the
    cut, is found the first night, and not again. Together the two nights find every
    episode one replay finds, each once, at the same moment and game; P9001's as one replay
    finds it, peak and end too, and P9002's with the peak the first night saw, 4 tables,
    where one replay counts the fifth too."""
    _, state = two_nights
    sql = ("SELECT player_id, game_id, recorded, message,"
           f" regexp_extract(message, '{FIRST_MOMENT}') FROM FILE"
           " WHERE \"check\" = 'table.limit' ORDER BY ALL")  # fmt: skip
    whole = rows(cut.replayed / "findings.parquet", sql)
    assert [(p, g) for p, g, *_ in whole] == [("P9001", cut.multi_tabling["P9001"][3]),
                                              ("P9002", cut.multi_tabling["P9002"][3])]
    first, second = (rows(state / "nights" / n / "findings.parquet", sql) for n in ("0001", "0002"))
    assert [p for p, *_ in first] == ["P9002"]
    assert second == whole[:1]
    (night_one,), replayed = first, whole[1]
    assert [night_one[i] for i in (0, 1, 4)] == [replayed[i] for i in (0, 1, 4)]
    assert (night_one[2], replayed[2]) == ("4 tables on app", "5 tables on app")


def test_nothing_new_commits_nothing(two_nights: tuple[Path, Path]) -> None:
    logs, state = two_nights
    again = night(logs, state)
    assert not again.audited
    assert again.night == 2
    assert again.exit_status == 0
    assert "Nothing new since night 2" in again.line()
    assert not (state / "nights" / "0003").exists()
    # docs/rulesets.md: nightly refuses a broken --rules folder before it reads a log, on a
    # night with nothing new too (a blind tester's cron job exited 0 on a missing folder)
    missing = state.parent / "no-rules"
    with pytest.raises(AuditError, match="no-rules"):
        nightly_logs(logs=logs, state=state, workers=1, progress=False, rules=missing)


def test_a_rewritten_file_is_audited_again_and_a_copied_one_is_not(
    cut: Cut, tmp_path: Path
) -> None:
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    hands = logs / "hands" / f"date={FIRST}" / "part-0.parquet"
    (logs / "hands" / "copy").mkdir()
    (logs / "hands" / "copy" / "same.parquet").write_bytes(hands.read_bytes())
    table = pq.read_table(hands)
    pq.write_table(table, hands, compression="zstd")  # the same rows, new bytes
    second = night(logs, state)
    assert second.audited
    assert second.taken == 1
    assert second.rewritten == 1
    assert second.seen_before == 7  # the copy is known by its content
    data = nightly_json(state / "nights" / "0002")
    assert [(f["path"], f["status"]) for f in data["files"]["taken"]] == [
        (f"hands/date={FIRST}/part-0.parquet", "rewritten")
    ]
    # the rows carried from its first version are replaced by the new version's
    taken = nightly_json(state / "nights" / "0001")["files"]["taken"]
    first = {f["path"]: f["sha256"] for f in taken}
    sha = first[f"hands/date={FIRST}/part-0.parquet"]
    assert data["carry"]["dropped_rewritten"] == [
        f"hands/carried-{sha[:12]}/date={FIRST}/part-0.parquet"
    ]
    run = json.loads((state / "nights" / "0002" / "run.json").read_text(encoding="utf-8"))
    carried = data["carry"]["carried_rows"]["hands"]
    assert carried
    assert run["counts"]["hands_total"] + carried == table.num_rows
    with duckdb.connect(str(state / "history.duckdb"), read_only=True) as db:
        files = db.execute("SELECT count(*), count(DISTINCT sha256) FROM files").fetchall()
    assert files == [(8, 8)]
    # Its games are audited again whole (their events, results, game events and ledger
    # from the files night 1 took): the same verdicts as night 1, no hand orphaned.
    assert data["reaudited_games"]
    assert run["counts"]["hands"]["quarantined"] == 0
    judged = f'SELECT "check", hand_id, player_id, message FROM FILE WHERE {LEAVE_OUT}'
    once, again = (set(rows(state / "nights" / n / "findings.parquet", judged))
                   for n in ("0001", "0002"))  # fmt: skip
    assert once == again


def test_a_rewritten_results_file_has_its_new_points_judged(cut: Cut, tmp_path: Path) -> None:
    """A results file rewritten with one loser charged a point more: the hand is replayed
    again with its events from the file night 1 took, and the point is a score.points
    finding (it was an orphaned, quarantined hand, never judged)."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    first = night(logs, state)
    results = logs / "results" / f"date={FIRST}" / "part-0.parquet"
    table = pq.read_table(results)
    hands = {r["hand_id"]: r for r in pq.read_table(state / "nights" / "0001" / "hands.parquet")
             .to_pylist()}  # fmt: skip
    data = table.to_pylist()
    row = next(r for r in data if r["outcome"] == "lost"
               and hands.get(r["hand_id"], {}).get("status") == "verified")  # fmt: skip
    row["points"] += 1
    pq.write_table(pa.Table.from_pylist(data, schema=table.schema), results)
    second = night(logs, state)
    assert (second.night, second.rewritten, second.hands["quarantined"]) == (2, 1, 0)
    assert sum(second.hands.values()) == sum(first.hands.values())
    found = rows(state / "nights" / "0002" / "findings.parquet",
                 'SELECT "check" FROM FILE WHERE hand_id = $h AND player_id = $pl',
                 h=row["hand_id"], pl=row["player_id"])  # fmt: skip
    assert ("score.points",) in found


def test_bad_input_is_one_line(cut: Cut, tmp_path: Path) -> None:
    runner = CliRunner()
    logs = tmp_path / "logs"
    add_night(logs, cut.first, FIRST)

    def refused(*args: str) -> str:
        result = runner.invoke(app, ["nightly", *args])
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1
        assert "Traceback" not in result.output
        return result.output

    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    assert "is not a folder" in refused(str(tmp_path / "none"), "--state", str(tmp_path / "x"))
    assert "is not a log root: it has no games/, hands/, events/, results/ folders" in refused(
        str(other), "--state", str(tmp_path / "x")
    )
    assert "is not a nightly state folder" in refused(str(logs), "--state", str(other))
    newer = tmp_path / "newer"
    newer.mkdir()
    (newer / "state.json").write_text(json.dumps({
        "format": "rummy-audit nightly state", "state_version": STATE_VERSION + 1, "night": 4
    }), encoding="utf-8")  # fmt: skip
    assert "written by a newer rummy-audit" in refused(str(logs), "--state", str(newer))
    inside = logs / "state"
    assert "overlap" in refused(str(logs), "--state", str(inside))
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    assert "is not a folder" in refused(str(logs), "--state", str(afile))
    busy = tmp_path / "busy"
    busy.mkdir()
    with (busy / "lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a run in progress holds it
        assert "another rummy-audit nightly run" in refused(str(logs), "--state", str(busy))


def test_the_command_prints_one_line_and_exits_by_the_findings(cut: Cut, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    add_night(logs, cut.first, FIRST)
    result = CliRunner().invoke(
        app, ["nightly", str(logs), "--state", str(tmp_path / "state"), "--workers", "1",
              "--no-progress"],
    )
    assert result.exit_code == 1, result.output  # the tampered records: findings at major+
    assert result.output.startswith("Night 1: 7 new files, 0 seen on earlier nights; ")
    assert f"{len(cut.running)} carried to the next night" in result.output


def test_a_game_running_over_three_nights_is_carried_twice_and_judged_the_third(
    cut: Cut, tmp_path: Path
) -> None:
    with duckdb.connect() as db:
        game, start, end = db.execute(
            "SELECT game_id, started_at, ended_at "
            f"FROM read_parquet('{cut.whole}/games/**/*.parquet') "
            "ORDER BY ended_at - started_at DESC, game_id LIMIT 1"
        ).fetchone() or ("", None, None)
    first_cut, second_cut = start + (end - start) / 3, start + 2 * (end - start) / 3
    first, rest, _ = split_by_time(cut.whole, first_cut)
    write_root(tmp_path / "rest", rest)
    second, third, _ = split_by_time(tmp_path / "rest", second_cut)
    logs, state = tmp_path / "logs", tmp_path / "state"
    for date, batch in (("1", first), ("2", second), ("3", third)):
        add_night(logs, batch, date)
        assert night(logs, state).audited
    carried = [nightly_json(state / "nights" / f"000{n}")["carry"] for n in (1, 2, 3)]
    assert carried[0]["running"][game] == 1
    assert carried[1]["carried_in"][game] == 1
    assert carried[1]["running"][game] == 1  # still running, since night 1
    assert game in carried[2]["ended"]
    # docs/nightly.md: the report names a game running since an earlier night (a blind
    # tester's lost game end showed only as "carried out 1"); one cut tonight is no news
    reports = [(state / "nights" / f"000{n}" / "report.html").read_text() for n in (1, 2, 3)]
    assert 'id="trends-running"' not in reports[0]
    assert f"<code>{game}</code> (since night 1)" in reports[1]
    assert f"<code>{game}</code>" not in reports[2].split('id="trends-running"')[-1][:2000]
    sql = "SELECT * FROM FILE WHERE game_id = $g ORDER BY ALL"
    for name in ("hands", "findings"):
        assert rows(state / "nights" / "0003" / f"{name}.parquet", sql, g=game) == rows(
            cut.replayed / f"{name}.parquet", sql, g=game
        )
    for n in ("0001", "0002"):
        assert rows(state / "nights" / n / "hands.parquet", sql, g=game) == []


def test_a_partition_linked_in_is_taken_and_a_link_to_nothing_stops_the_night(
    cut: Cut, tmp_path: Path
) -> None:
    """schemas/README.md: a partition folder that is a symbolic link is read like any
    other (the nightly intake walked with ``rglob``, which does not follow them, and left
    the night's results out). A ``.parquet`` link to nothing, which replay refuses and
    goes on, stops the night in one line: a night commits the files it takes, so it is
    not taken without one (docs/nightly.md)."""
    plain, linked = tmp_path / "plain", tmp_path / "linked"
    add_night(plain, cut.first, FIRST)
    add_night(linked, cut.first, FIRST)
    elsewhere = tmp_path / "elsewhere"
    (linked / "results" / f"date={FIRST}").rename(elsewhere)
    (linked / "results" / f"date={FIRST}").symlink_to(elsewhere, target_is_directory=True)
    before = night(plain, tmp_path / "state-plain")
    after = night(linked, tmp_path / "state-linked")
    assert after.taken == before.taken
    assert after.hands == before.hands
    assert sum(before.hands.values()) > 0
    (linked / "ledger" / "gone.parquet").symlink_to(tmp_path / "missing.parquet")
    result = CliRunner().invoke(app, ["nightly", str(linked), "--state", str(tmp_path / "s")])
    assert result.exit_code == 2, result.output
    assert result.output == (
        "rummy-audit: error: ledger/gone.parquet is a symbolic link to nothing; the nightly "
        "audit takes every file of the log root, so mend it (or move it out) and run the "
        "night again\n"
    )
    assert not (tmp_path / "s" / "nights").exists()


def test_a_writers_own_files_are_not_taken(cut: Cut, tmp_path: Path) -> None:
    """schemas/README.md: a name starting with ``.`` or ``_`` under a table's folder is a
    writer's own, not read by replay and not taken by the nightly intake either (a Spark
    attempt's copy and a half-written file, which a night would commit for good)."""
    plain, junk = tmp_path / "plain", tmp_path / "junk"
    add_night(plain, cut.first, FIRST)
    add_night(junk, cut.first, FIRST)
    for table in ("hands", "events"):
        (source, *_) = sorted((junk / table).rglob("*.parquet"))
        attempt = junk / table / "_temporary" / "0"
        attempt.mkdir(parents=True)
        (attempt / "part-0.parquet").write_bytes(source.read_bytes())
        (junk / table / ".part-9.parquet").write_bytes(b"PAR1 half written")
    before = night(plain, tmp_path / "state-plain")
    after = night(junk, tmp_path / "state-junk")
    assert (after.taken, after.hands) == (before.taken, before.hands)
    assert sum(before.hands.values()) > 0


def test_a_spanning_game_whose_row_changes_more_than_its_end_is_a_duplicate_as_in_one_replay(
    cut: Cut, tmp_path: Path
) -> None:
    """schemas/README.md, "Games that span two nights": a running game's row is written
    again the night it ends, `ended_at` set, and "nothing else about the game may change".
    Night 2's row of the spanning game with another rake: the carried row is not replaced
    by it (the game would be judged on the new rake), both are kept, and the game is
    quarantined as a duplicate, exactly as one replay of both nights' files judges it."""
    games = cut.second["games"]
    index = games.schema.get_field_index("rake_pct")
    rake = pa.array(
        [r + 1 if g == cut.spanning else r for g, r in zip(
            games.column("game_id").to_pylist(), games.column("rake_pct").to_pylist(),
            strict=True)],
        games.schema.field("rake_pct").type,
    )  # fmt: skip
    second = {**cut.second, "games": games.set_column(index, games.schema.field(index), rake)}
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    add_night(logs, second, SECOND)
    assert night(logs, state).audited
    whole = tmp_path / "whole"
    replay_logs(logs=logs, out=whole, workers=1, progress=False)
    sql = "SELECT * FROM FILE WHERE game_id = $g ORDER BY ALL"
    nightly_hands = rows(state / "nights" / "0002" / "hands.parquet", sql, g=cut.spanning)
    assert nightly_hands == rows(whole / "hands.parquet", sql, g=cut.spanning)
    assert nightly_hands
    assert {h[6] for h in nightly_hands} == {"quarantined"}
    judged = f'SELECT "check", message FROM FILE WHERE game_id = $g AND {LEAVE_OUT} ORDER BY ALL'
    found = rows(state / "nights" / "0002" / "findings.parquet", judged, g=cut.spanning)
    assert found == rows(whole / "findings.parquet", judged, g=cut.spanning)
    assert ("input.row", f"game {cut.spanning} appears 2 times in games") in found


def test_a_rewritten_files_games_take_their_rows_from_a_file_moved_since(
    cut: Cut, tmp_path: Path
) -> None:
    """docs/nightly.md: an earlier file is known by its content "under any path": moved to
    another folder, its rows still come back when a rewritten file's games are audited
    again whole (they were left out, and the games' money judged without their ledger)."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    ledger = logs / "ledger" / f"date={FIRST}" / "part-0.parquet"
    (logs / "ledger" / "archive").mkdir()
    ledger.rename(logs / "ledger" / "archive" / "part-0.parquet")
    hands = logs / "hands" / f"date={FIRST}" / "part-0.parquet"
    pq.write_table(pq.read_table(hands), hands, compression="zstd")  # same rows, new bytes
    second = night(logs, state)
    assert (second.rewritten, second.seen_before) == (1, 6)
    # the line says the earlier games audited again and their findings raised again (a
    # blind tester read such a night as a new critical one)
    games = json.loads((state / "nights" / "0002" / "nightly.json").read_text())["reaudited_games"]
    assert second.reaudited == len(games) > 0
    assert (f"1 new file (1 rewritten: {len(games)} games of earlier nights audited again, "
            "their findings with them)") in second.line()  # fmt: skip
    run = json.loads((state / "nights" / "0002" / "run.json").read_text(encoding="utf-8"))
    assert "ledger/archive/part-0.parquet" in {i["path"] for i in run["inputs"]}
    judged = f'SELECT "check", hand_id, player_id, message FROM FILE WHERE {LEAVE_OUT}'
    once, again = (set(rows(state / "nights" / n / "findings.parquet", judged))
                   for n in ("0001", "0002"))  # fmt: skip
    assert once == again


def test_a_file_gone_since_its_night_stops_a_reaudit_that_needs_its_rows(
    cut: Cut, tmp_path: Path
) -> None:
    """docs/nightly.md: a game audited again is audited whole, from every file earlier
    nights took; when one of them is gone from the log root and its night audited the
    game, the night stops on one line (exit 2) naming it, instead of judging the game
    without its rows (a blind tester's deleted ledger file gave 31 false critical
    ledger.balance findings). Nothing is committed; put back, the night runs."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    ledger = logs / "ledger" / f"date={FIRST}" / "part-0.parquet"
    kept = tmp_path / "kept.parquet"
    ledger.rename(kept)
    hands = logs / "hands" / f"date={FIRST}" / "part-0.parquet"
    pq.write_table(pq.read_table(hands), hands, compression="zstd")
    result = CliRunner().invoke(
        app, ["nightly", str(logs), "--state", str(state), "--workers", "1", "--no-progress"]
    )
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1
    assert f"ledger/date={FIRST}/part-0.parquet, taken on night 1, is gone" in result.output
    assert f"for the rewritten file hands/date={FIRST}/part-0.parquet;" in result.output
    assert not (state / "nights" / "0002").exists()
    kept.rename(ledger)
    assert night(logs, state).audited


def test_a_file_gone_since_its_night_and_a_late_row_say_the_late_row_is_the_cause(
    cut: Cut, tmp_path: Path
) -> None:
    """A new file holding a ledger row of a game night 1 judged brings the game back to be
    audited whole; with a file of night 1 gone, the night stops, and its line names the
    new file as the cause (it said "for a rewritten file ... move the rewritten file out",
    with no file rewritten: a blind tester)."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    (logs / "events" / f"date={FIRST}" / "part-0.parquet").unlink()
    ledger = cut.first["ledger"]
    ended = pc.invert(pc.is_in(ledger.column("game_id"), value_set=pa.array(cut.running)))
    late = ledger.filter(ended).slice(0, 1)
    (logs / "ledger" / "late").mkdir()
    pq.write_table(late, logs / "ledger" / "late" / "part-0.parquet")
    result = CliRunner().invoke(
        app, ["nightly", str(logs), "--state", str(state), "--workers", "1", "--no-progress"]
    )
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1
    assert f"events/date={FIRST}/part-0.parquet, taken on night 1, is gone" in result.output
    game = late.column("game_id")[0].as_py()
    assert (
        f"game {game} of that night is to be audited again whole for rows of it that come "
        "again in the new file ledger/late/part-0.parquet (sent again or late); put the file "
        "back (under any path) or move the new file out, and run the night again"
    ) in result.output
    assert "rewritten" not in result.output
    assert not (state / "nights" / "0002").exists()


def test_a_running_games_rewritten_games_file_keeps_it_counted_carried_in_and_ended(
    cut: Cut, two_nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """Night 1's games file rewritten (the same rows, new bytes) before night 2: the
    carried games rows of the running games are dropped for the rewritten file's, yet the
    games are carried in and end tonight, as in a run with no file rewritten (it said
    carried in 0, ended 0, in nightly.json and the history: a blind tester)."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    games = logs / "games" / f"date={FIRST}" / "part-0.parquet"
    pq.write_table(pq.read_table(games), games, compression="zstd")
    add_night(logs, cut.second, SECOND)
    second = night(logs, state)
    assert (second.rewritten, second.carried_in, second.ended) == (
        1, len(cut.running), len(cut.running)
    )  # fmt: skip
    carry = nightly_json(state / "nights" / "0002")["carry"]
    assert carry["dropped_rewritten"]
    reference = nightly_json(two_nights[1] / "nights" / "0002")["carry"]
    assert (carry["carried_in"], carry["ended"]) == (reference["carried_in"], reference["ended"])
    assert sorted(carry["ended"]) == cut.running
    with duckdb.connect(str(state / "history.duckdb"), read_only=True) as db:
        counted = db.execute(
            "SELECT games_carried_in, games_ended FROM nights WHERE night = 2"
        ).fetchall()
    assert counted == [(len(cut.running), len(cut.running))]


def test_a_rewritten_files_rows_are_its_own_nights_so_a_game_a_later_night_ended_stays_ended(
    cut: Cut, two_nights: tuple[Path, Path], tmp_path: Path
) -> None:
    """docs/nightly.md: a rewritten file's rows are its own night's, not tonight's. Night
    3 rewrites night 1's games file with the same rows (new bytes): the games it began
    that night 2 ended (their row of night 1 with ``ended_at`` null, night 2's set) are
    audited again whole and judged ended, with the verdicts one replay of all the nights'
    files gives; none runs again (night 1's null row took the place of night 2's row, and
    every one of them was carried "since night 3" for good, its findings never raised
    again: a blind tester)."""
    logs, state = tmp_path / "logs", tmp_path / "state"
    shutil.copytree(two_nights[0], logs)
    shutil.copytree(two_nights[1], state)
    games = logs / "games" / f"date={FIRST}" / "part-0.parquet"
    pq.write_table(pq.read_table(games), games, compression="zstd")  # the same rows
    third = night(logs, state)
    assert (third.night, third.rewritten, third.running, third.hands["quarantined"]) == (
        3, 1, 0, 0
    )  # fmt: skip
    data = nightly_json(state / "nights" / "0003")
    assert data["carry"]["running"] == {}
    assert set(cut.running) <= set(data["reaudited_games"])
    whole = tmp_path / "whole"
    replay_logs(logs=logs, out=whole, workers=1, progress=False)
    hands = "SELECT * FROM FILE WHERE game_id IN (SELECT unnest($g)) ORDER BY ALL"
    found = f"SELECT * FROM FILE WHERE game_id IN (SELECT unnest($g)) AND {LEAVE_OUT} ORDER BY ALL"
    for name, sql in (("hands", hands), ("findings", found)):
        again = rows(state / "nights" / "0003" / f"{name}.parquet", sql, g=cut.running)
        assert again == rows(whole / f"{name}.parquet", sql, g=cut.running)
        assert again  # the games' hands, and the tampered game's finding on night 1's hand
        assert name == "hands" or cut.spanning in {row[2] for row in again}
    with duckdb.connect(str(state / "history.duckdb"), read_only=True) as db:
        counted = db.execute(
            "SELECT games_carried_in, games_ended, games_running FROM nights WHERE night = 3"
        ).fetchall()
    assert counted == [(0, 0, 0)]


def test_rows_of_a_game_an_earlier_night_judged_sent_again_are_duplicates_as_in_one_replay(
    cut: Cut, tmp_path: Path
) -> None:
    """schemas/README.md, "Games that span two nights": "Rows of the earlier nights are not
    written again; a row that is (the same key in two nights' files) is a duplicate,
    reported as any duplicate is." Night 2 sends a game night 1 judged again (its games
    row and its first hand, with the hand's events and results) in new files: the game is
    audited again whole with its rows of night 1, so its copies are quarantined exactly as
    one replay of both nights' files quarantines them (they were verified a second time)."""
    games = cut.first["games"]
    ended = [g for g, e in zip(games.column("game_id").to_pylist(),
                               games.column("ended_at").to_pylist(), strict=True) if e]  # fmt: skip
    game = sorted(ended)[0]
    hands = cut.first["hands"].filter(pc.equal(cut.first["hands"].column("game_id"), game))
    hand = sorted(hands.column("hand_id").to_pylist())[0]
    resent = {
        "games": games.filter(pc.equal(games.column("game_id"), game)),
        "hands": hands.filter(pc.equal(hands.column("hand_id"), hand)),
        **{t: cut.first[t].filter(pc.equal(cut.first[t].column("hand_id"), hand))
           for t in ("events", "results")},
    }  # fmt: skip
    logs, state = tmp_path / "logs", tmp_path / "state"
    add_night(logs, cut.first, FIRST)
    night(logs, state)
    add_night(logs, cut.second, SECOND)
    add_night(logs, resent, "resent")
    second = night(logs, state)
    reaudited = nightly_json(state / "nights" / "0002")["reaudited_games"]
    assert game in reaudited
    # docs/nightly.md: the line says the games audited again, so a night whose findings
    # are theirs again does not read as a new fault (until 2026-12-06 only a rewritten
    # file's were said: a blind tester)
    n = len(reaudited)
    theirs = "their" if n != 1 else "its"
    assert (f", {n} game{'s' * (n != 1)} of earlier nights audited again for {theirs} rows in "
            f"the new files (sent again or late), {theirs} findings with them;") in second.line()
    whole = tmp_path / "whole"
    replay_logs(logs=logs, out=whole, workers=1, progress=False)
    sql = "SELECT hand_id, status, reason FROM FILE WHERE game_id = $g ORDER BY ALL"
    judged = rows(state / "nights" / "0002" / "hands.parquet", sql, g=game)
    assert judged == rows(whole / "hands.parquet", sql, g=game)
    assert {status for _, status, _ in judged} == {"quarantined"}
    assert any(h == hand and f"hand {hand} appears 2 times in hands" in r for h, _, r in judged)
    found = f'SELECT "check", message FROM FILE WHERE game_id = $g AND {LEAVE_OUT} ORDER BY ALL'
    assert rows(state / "nights" / "0002" / "findings.parquet", found, g=game) == rows(
        whole / "findings.parquet", found, g=game
    )
    assert second.hands["quarantined"] >= 1


def test_files_partitioned_by_game_are_carried_by_their_folders_game_id(
    cut: Cut, tmp_path: Path
) -> None:
    """Files that leave ``game_id`` to their partition folder (pyarrow's partitioned
    writer; schemas/README.md, "Choices where the contract is silent") are carried and
    judged as one replay of the night judges them."""
    import pyarrow.dataset as ds

    logs, state = tmp_path / "logs", tmp_path / "state"
    for batch, date in ((cut.first, FIRST), (cut.second, SECOND)):
        for table, data in batch.items():
            if "game_id" not in data.column_names:
                add_night(logs, {table: data}, date)
                continue
            ds.write_dataset(data, logs / table / f"date={date}", format="parquet",
                             partitioning=["game_id"], partitioning_flavor="hive")  # fmt: skip
        summary = night(logs, state)
        assert summary.audited
    second = state / "nights" / "0002"
    assert sorted(nightly_json(second)["carry"]["ended"]) == cut.running
    every = f"SELECT {SHARED} FROM FILE WHERE {LEAVE_OUT} ORDER BY ALL"
    both = rows(state / "nights" / "000[12]" / "findings.parquet", every)
    assert both == rows(cut.replayed / "findings.parquet", every)
    hands = "SELECT * FROM FILE ORDER BY ALL"
    assert rows(state / "nights" / "000[12]" / "hands.parquet", hands) == rows(
        cut.replayed / "hands.parquet", hands
    )


def test_the_same_bytes_under_another_hand_id_folder_are_other_rows(
    cut: Cut, tmp_path: Path
) -> None:
    """A results file that leaves ``hand_id`` and ``player_id`` to its partition folders
    (schemas/README.md) holds one row; two such files of two hands can be the same bytes,
    yet they are other rows. Each is taken and the night judged as one replay judges it (a
    blind tester's nightly skipped 65 of them as copies: 65 false score.outcome findings,
    a planted suspicion lost)."""
    import hashlib

    import pyarrow.dataset as ds

    logs, state = tmp_path / "logs", tmp_path / "state"
    for batch, date in ((cut.first, FIRST), (cut.second, SECOND)):
        for table, data in batch.items():
            if table != "results":
                add_night(logs, {table: data}, date)
                continue
            ds.write_dataset(data, logs / table / f"date={date}", format="parquet",
                             partitioning=["hand_id", "player_id"], partitioning_flavor="hive")
        summary = night(logs, state)
        assert summary.audited
        assert not summary.duplicates
    hashes = [hashlib.sha256(f.read_bytes()).hexdigest()
              for f in (logs / "results").rglob("*.parquet")]  # fmt: skip
    assert len(set(hashes)) < len(hashes)  # some files are the same bytes
    every = f"SELECT {SHARED} FROM FILE WHERE {LEAVE_OUT} ORDER BY ALL"
    both = rows(state / "nights" / "000[12]" / "findings.parquet", every)
    assert both == rows(cut.replayed / "findings.parquet", every)


def test_a_platform_ruleset_changed_between_nights_is_said(tmp_path: Path) -> None:
    """docs/rulesets.md: give `nightly` the same --rules folder every night. A ruleset whose
    text changed since the last night (run.json's `rulesets`, by the SHA-256 of its file),
    one new or one no longer given, is named in the night's line and nightly.json: a game
    carried across the change is judged whole under tonight's text (a blind tester's
    carried game had five findings from a cap changed between the nights, said nowhere)."""
    from audit.nightly.night import NightSummary, _rules_changed
    from audit.output import RUN_KEYS

    def run_json(folder: Path, rulesets: list[dict[str, str]]) -> Path:
        folder.mkdir()
        body = {**dict.fromkeys(RUN_KEYS), "rulesets": rulesets}
        (folder / "run.json").write_text(json.dumps(body), encoding="utf-8")
        return folder

    last = run_json(tmp_path / "0001", [{"id": "acme-13", "sha256": "a1"},
                                        {"id": "acme-pool", "sha256": "p1"}])  # fmt: skip
    same = run_json(tmp_path / "same", [{"id": "acme-pool", "sha256": "p1"},
                                        {"id": "acme-13", "sha256": "a1"}])  # fmt: skip
    now = run_json(tmp_path / "0002", [{"id": "acme-13", "sha256": "a2"},
                                       {"id": "acme-vip", "sha256": "v1"}])  # fmt: skip
    assert _rules_changed(last, same) == ()
    assert _rules_changed(None, now) == ()
    changed = _rules_changed(last, now)
    assert changed == ("acme-13 (its text)", "acme-pool (not given)", "acme-vip (new)")
    line = NightSummary(2, True, now, rules_changed=changed).line()
    assert line.startswith(
        "Night 2: platform rules changed since the last night (acme-13 (its text), acme-pool "
        "(not given), acme-vip (new)); games carried in are judged whole under tonight's; "
    )


def test_the_line_counts_one_finding_and_one_suspicion_in_the_singular() -> None:
    """A blind tester read "1 findings, worst major"."""
    from collections import Counter

    from audit.nightly.night import NightSummary

    line = NightSummary(3, True, Path("state/nights/0003"), hands=Counter(verified=4),
                        findings=1, worst="major", suspicions=1).line()  # fmt: skip
    assert "; 1 finding, worst major; fair play 1 suspicion; shuffle " in line
    line = NightSummary(3, True, Path("state/nights/0003"), findings=2, suspicions=0).line()
    assert "; 2 findings; fair play 0 suspicions; shuffle " in line
