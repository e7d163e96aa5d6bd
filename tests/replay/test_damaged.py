"""Damaged input: one file of a table overwritten with text. Every hand any readable table
names is still accounted for, the games the file touched are reported unchecked (never a
money, score or deck alarm about data that could not be read), the other games are judged
as usual, and the summary leads with the cause."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from audit.cli import app
from audit.logs.contract import TABLES
from audit.run import replay_logs
from audit.sim import simulate

runner = CliRunner()
EXPLAINED = {"input.file", "input.row", "input.hand", "game.unchecked", "check.skipped"}
Key = tuple[Any, ...]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("damaged")
    simulate(games=700, out=root / "logs", seed=11, anomalies="tampering", workers=1)
    replay_logs(logs=root / "logs", out=root / "out", workers=1, progress=False, fairplay=False)
    return root


def rows(path: Path) -> list[dict[str, Any]]:
    return pq.read_table(path).to_pylist()


def key(f: dict[str, Any]) -> Key:
    return (f["check"], f["game_id"], f["hand_id"], f["player_id"], f["seq"], f["message"])


def named_hands(logs: Path) -> set[str]:
    """Every hand id a readable file of hands, events or results names."""
    out: set[str] = set()
    for table in ("hands", "events", "results"):
        for path in (logs / table).rglob("*.parquet"):
            try:
                out |= set(pq.read_table(path, columns=["hand_id"]).column(0).to_pylist())
            except Exception:
                continue
    return out


def unexplained(new: list[dict[str, Any]], touched: set[str]) -> list[dict[str, Any]]:
    """The findings of a damaged run that the clean run lacks and the damage does not
    explain. A touched game's ledger is judged on its own balance only, and that finding is
    new where the clean run's row findings accounted for the same difference (they are not
    run on a game whose hands are not all here: ``audit.games.ledger.Row``)."""
    return [
        f for f in new
        if f["check"] not in EXPLAINED
        and not (f["check"] == "ledger.balance" and f["player_id"] is None
                 and f["game_id"] in touched and f["recorded"].startswith("paid out"))
    ]  # fmt: skip


def replay_refusing(logs: Path, out: Path, victim: Path, *flags: str) -> str:
    """``rummy-audit replay`` over ``logs``, which runs (exit 0 or 1) and opens by naming
    ``victim`` as the one input file that could not be read; its path in the log root."""
    result = runner.invoke(app, ["replay", str(logs), "--out", str(out), "--workers", "1",
                                 *flags])  # fmt: skip
    assert result.exit_code in (0, 1), result.output
    name = victim.relative_to(logs).as_posix()
    assert result.output.startswith(f"1 input file could not be read ({name})")
    return name


@pytest.mark.parametrize("table", TABLES)
def test_one_unreadable_file_of_a_table_is_accounted_for(
    table: str, clean: Path, tmp_path: Path
) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    victim = sorted((logs / table).rglob("*.parquet"))[1]
    victim.write_text("this is not a parquet file\n")
    out = tmp_path / "out"
    replay_refusing(logs, out, victim, "--no-fairplay")

    hands = {r["hand_id"]: r for r in rows(out / "hands.parquet")}
    assert named_hands(logs) <= set(hands)
    damaged = rows(out / "findings.parquet")
    touched = {f["game_id"] for f in damaged if f["check"] == "game.unchecked"}
    touched |= {h["game_id"] for h in hands.values() if h["status"] == "quarantined"}
    before = {key(f) for f in rows(clean / "out" / "findings.parquet")}
    new = [f for f in damaged if key(f) not in before]
    assert unexplained(new, touched) == []
    kept = {key(f) for f in damaged}
    judged = [k for k in before if k[1] not in touched and k[0] != "table.limit"]
    assert judged, "the other games are judged"
    assert all(k in kept for k in judged)


def test_the_report_leads_with_the_unreadable_file(clean: Path, tmp_path: Path) -> None:
    """report.html opens with the cause (the unreadable file and the hands it cost), before
    the hundreds of rows it caused."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    victim = sorted((logs / "hands").rglob("*.parquet"))[0]
    victim.write_text("not parquet")
    replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False, fairplay=False)
    page = (tmp_path / "out" / "report.html").read_text()
    cause = page.index('id="cause"')
    assert cause < page.index('id="run"')
    assert victim.relative_to(logs).as_posix() in page[cause : page.index('id="run"')]
    assert "hands named in other tables" in page[cause : page.index('id="run"')]


@pytest.mark.parametrize(("table", "column"), [("ledger", "amount"), ("game_events", "action")])
def test_a_quarantined_claim_row_leaves_its_games_claims_unchecked(
    table: str, column: str, clean: Path, tmp_path: Path
) -> None:
    """A ledger or game_events row made null where the contract forbids it is quarantined
    (input.row); its game's money (ledger) or eliminations, rebuys, splits and winner
    (game_events) are then reported unchecked, not judged on the rows left: before, the
    missing row raised critical ledger.balance and deals/pool alarms about a right game."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    victim = sorted((logs / table).rglob("*.parquet"))[0]
    data = pq.read_table(victim)
    games = {r["game_id"]: r["format"]
             for path in (logs / "games").rglob("*.parquet") for r in rows(path)}  # fmt: skip
    formats = [games.get(g) for g in data.column("game_id").to_pylist()]
    at = next(i for i, f in enumerate(formats) if f not in (None, "points"))
    game = data.column("game_id")[at].as_py()
    values = data.column(column).to_pylist()
    values[at] = None
    field = data.schema.field(column).with_nullable(True)  # the writer's schema allows it
    data = data.set_column(data.schema.get_field_index(column), field,
                           pa.array(values, field.type))  # fmt: skip
    pq.write_table(data, victim)
    replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False, fairplay=False)

    found = rows(tmp_path / "out" / "findings.parquet")
    before = {key(f) for f in rows(clean / "out" / "findings.parquet")}
    new = [key(f) for f in found if key(f) not in before]
    assert {k[:2] for k in new} == {("input.row", game), ("game.unchecked", game)}
    (unchecked,) = [f for f in found if f["check"] == "game.unchecked" and f["game_id"] == game]
    assert unchecked["message"].startswith(f"A {table} row of game {game} could not be read")
    assert unchecked["severity"] == "info"
    # The game's other claims on that table are no longer judged; every other game's are.
    gone = {k for k in before if k not in {key(f) for f in found}}
    assert all(k[1] == game for k in gone)


def split_and_replay(clean: Path, tmp_path: Path, table: str, by: str) -> tuple[str, str]:
    """Copy the clean logs to ``tmp_path``, cut the first file of ``table`` inside the rows
    of one ``by`` (a hand, a game), put the rest in a file that cannot be read, and replay
    into ``tmp_path / "out"``: the id cut through and the unreadable file's name."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    source = sorted((logs / table).rglob("*.parquet"))[0]
    data = pq.read_table(source)
    ids = data.column(by).to_pylist()
    cut = len(ids) // 2
    while ids[cut - 1] != ids[cut]:  # cut inside one hand's (one game's) rows
        cut += 1
    pq.write_table(data.slice(0, cut), source)
    victim = source.with_name("part-z.parquet")
    victim.write_text("not parquet")  # the rest of the file, lost
    replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False, fairplay=False)
    return ids[cut], victim.relative_to(logs).as_posix()


@pytest.mark.parametrize("table", ["events", "results"])
def test_a_hand_split_over_a_readable_and_an_unreadable_file_is_quarantined(
    table: str, clean: Path, tmp_path: Path
) -> None:
    """A hand whose rows are partly in a file that could not be read is quarantined, the
    file named as the likely cause, like a hand with none of its rows: not replayed on
    the rows left into a turn.order (events end early) or score.outcome (no result for a
    player) alarm about data that was never read."""
    split, lost = split_and_replay(clean, tmp_path, table, "hand_id")
    hands = {r["hand_id"]: r for r in rows(tmp_path / "out" / "hands.parquet")}
    assert hands[split]["status"] == "quarantined"
    reason = {r["hand_id"]: r["reason"] for r in rows(tmp_path / "out" / "quarantine.parquet")}
    stop = "events stop at seq" if table == "events" else "has no results row for"
    assert stop in reason[split]
    assert reason[split].endswith(f"(its rows may be in {lost}, which could not be read)")
    found = rows(tmp_path / "out" / "findings.parquet")
    before = {key(f) for f in rows(clean / "out" / "findings.parquet")}
    new = [f for f in found if key(f) not in before]
    touched = {h["game_id"] for h in hands.values() if h["status"] == "quarantined"}
    assert unexplained(new, touched) == []


def test_a_game_whose_ledger_rows_are_split_over_an_unreadable_file_is_unchecked(
    clean: Path, tmp_path: Path
) -> None:
    """A game whose ledger rows are partly in a file that could not be read: the rows left
    do not balance, and that is reported as its money unchecked (naming the file and what
    did not add up), not as critical ledger.balance alarms about rows never read."""
    split, lost = split_and_replay(clean, tmp_path, "ledger", "game_id")
    found = rows(tmp_path / "out" / "findings.parquet")
    before = {key(f) for f in rows(clean / "out" / "findings.parquet")}
    new = [f for f in found if key(f) not in before]
    assert [f for f in new if f["check"] not in EXPLAINED] == []
    (unchecked,) = [f for f in found if f["check"] == "game.unchecked" and f["game_id"] == split]
    assert unchecked["message"].startswith(
        f"Game {split}'s ledger rows do not add up, and {lost} could not be read and may hold"
        " the rest of them, so its money was not checked; what does not add up: "
    )
    assert unchecked["severity"] == "info"


def test_a_hand_without_its_winners_result_is_settled_by_the_rules_so_a_right_ledger_passes(
    clean: Path, tmp_path: Path
) -> None:
    """A results row left out (the winner's, of a points hand whose game's ledger is
    right): the hand gets its score.outcome finding, and the game's ledger is judged
    against the rules' own settlement of the hand, which the rules decide whole
    (schemas/money.md, step 3): it agrees, so no money finding. Until 2026-12-06 it was
    one game.unchecked naming the missing result (and before that, critical
    ledger.balance alarms about a right ledger)."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    before = rows(clean / "out" / "findings.parquet")
    flagged = {f["game_id"] for f in before}
    games = {r["game_id"]: r["format"]
             for path in (logs / "games").rglob("*.parquet") for r in rows(path)}  # fmt: skip
    hands = {r["hand_id"]: r["game_id"]
             for path in (logs / "hands").rglob("*.parquet") for r in rows(path)}  # fmt: skip
    source = sorted((logs / "results").rglob("*.parquet"))[0]
    data = pq.read_table(source)
    results = data.to_pylist()
    at = next(i for i, r in enumerate(results) if r["outcome"] == "won"
              and games[hands[r["hand_id"]]] == "points"
              and hands[r["hand_id"]] not in flagged)  # fmt: skip
    hand, player = results[at]["hand_id"], results[at]["player_id"]
    game = hands[hand]
    pq.write_table(pa.concat_tables([data.slice(0, at), data.slice(at + 1)]), source)
    replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False, fairplay=False)

    found = [f for f in rows(tmp_path / "out" / "findings.parquet") if f["game_id"] == game]
    assert [(f["check"], f["player_id"]) for f in found] == [("score.outcome", player)]
    # hands.parquet keeps a place per seat (schemas/output.md): the missing result is a
    # null at the winner's seat, not the next seat's row moved into it.
    seats = next(r["seats"] for path in (logs / "hands").rglob("*.parquet")
                 for r in rows(path) if r["hand_id"] == hand)  # fmt: skip
    (row,) = [r for r in rows(tmp_path / "out" / "hands.parquet") if r["hand_id"] == hand]
    at_seat = [s["player_id"] for s in seats].index(player)
    assert len(row["outcomes"]) == len(row["points"]) == len(seats) == row["players"]
    assert row["outcomes"][at_seat] is None
    assert row["points"][at_seat] is None
    assert all(o is not None for i, o in enumerate(row["outcomes"]) if i != at_seat)


def test_a_partition_folder_linked_in_is_read_as_an_input(clean: Path, tmp_path: Path) -> None:
    """schemas/README.md, Layout: a table is every Parquet file under its folder, at any
    depth; a partition folder that is a symbolic link is one. Its files are inputs of
    run.json like any other, and the night reads as before it was moved: before, the
    folder was read as empty, and the games whose game_events it held raised critical
    alarms about rows that were there."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    victim = sorted((logs / "game_events").rglob("*.parquet"))[1]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(victim, elsewhere / victim.name)
    (logs / "game_events" / "date=2026-11-30").symlink_to(elsewhere, target_is_directory=True)
    out = tmp_path / "out"
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False)
    run = json.loads((out / "run.json").read_text())
    assert f"game_events/date=2026-11-30/{victim.name}" in [f["path"] for f in run["inputs"]]
    assert run["unreadable_files"] == []
    before = {key(f) for f in rows(clean / "out" / "findings.parquet")}
    assert {key(f) for f in rows(out / "findings.parquet")} == before


def test_a_dangling_link_is_refused_and_listed_as_unreadable(clean: Path, tmp_path: Path) -> None:
    """A ``.parquet`` symbolic link to nothing is refused like a truncated file
    (schemas/README.md: nothing is skipped silently): run.json lists it among the
    unreadable files with why, and the games whose ledger rows it may hold are
    unchecked, never judged without them."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    victim = sorted((logs / "ledger").rglob("*.parquet"))[1]
    victim.unlink()
    victim.symlink_to(tmp_path / "gone.parquet")
    out = tmp_path / "out"
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False)
    run = json.loads((out / "run.json").read_text())
    name = victim.relative_to(logs).as_posix()
    assert run["unreadable_files"] == [
        {"table": "ledger", "path": name, "reason": f"{name} is a symbolic link to nothing",
         "size": None, "sha256": None}  # no bytes to count
    ]
    found = rows(out / "findings.parquet")
    before = {key(f) for f in rows(clean / "out" / "findings.parquet")}
    new = [f for f in found if key(f) not in before]
    assert [f for f in new if f["check"] not in EXPLAINED] == []
    assert any(f["check"] == "game.unchecked" and name in f["message"] for f in new)


@pytest.mark.parametrize(("table", "column"), [("sessions", "ip"), ("game_events", "ts")])
def test_a_column_no_replay_reads_that_cannot_be_decoded_refuses_its_file(
    table: str, column: str, clean: Path, tmp_path: Path
) -> None:
    """schemas/README.md: a file whose footer reads but whose data cannot be decoded is
    refused whole, at staging, whatever the column: the run ends as for any refused file
    (exit 0 or 1, the summary naming it, the checks that need the table skipped), with
    the fair-play detectors run. Before, the table's only file was accepted (DuckDB
    answers a null check of a non-nullable column from a lone file's footer), and the
    table limits stopped on it with a traceback."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    files = sorted((logs / table).rglob("*.parquet"))
    victim = logs / table / "part-0.parquet"  # the table's rows in one file
    pq.write_table(pa.concat_tables([pq.read_table(f) for f in files]), victim)
    for f in files:
        f.unlink()
    chunk = pq.read_metadata(victim).row_group(0).column(
        pq.read_schema(victim).get_field_index(column)  # flat columns before it: one chunk each
    )
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    data = bytearray(victim.read_bytes())
    for i in range(start, start + chunk.total_compressed_size):
        data[i] ^= 0xFF  # the column's pages garbled, the footer as it was
    victim.write_bytes(bytes(data))
    out = tmp_path / "out"
    name = replay_refusing(logs, out, victim, "--no-rng")
    run = json.loads((out / "run.json").read_text())
    assert [f["path"] for f in run["unreadable_files"]] == [name]
    assert run["unreadable_files"][0]["reason"].startswith(f"{name} has data that cannot be")
    assert run["missing_optional_tables"] == [table]
    assert (out / "suspicions.parquet").exists()


def test_a_hand_without_its_hands_row_is_named_with_its_game_everywhere(
    clean: Path, tmp_path: Path
) -> None:
    """A hand whose hands row is missing is placed in its game by its players' sessions
    (schemas/README.md): hands.parquet, its game.unchecked and its quarantine rows and
    input.hand findings all name that game (the quarantine rows and findings named none, a
    blind tester found: game_id null and "")."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    source = sorted((logs / "hands").rglob("*.parquet"))[0]
    data = pq.read_table(source)
    lost = data.slice(0, 1).to_pylist()[0]
    hand, game = lost["hand_id"], lost["game_id"]
    pq.write_table(data.slice(1), source)
    replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False, fairplay=False,
                rng=False)  # fmt: skip
    (row,) = [r for r in rows(tmp_path / "out" / "hands.parquet") if r["hand_id"] == hand]
    assert (row["game_id"], row["status"]) == (game, "quarantined")
    held = [q for q in rows(tmp_path / "out" / "quarantine.parquet") if q["hand_id"] == hand]
    assert {q["table"] for q in held} == {"events", "results"}
    assert {q["game_id"] for q in held} == {game}
    assert all(q["reason"].startswith("rows of events (") for q in held)
    assert all(f"rows) name hand {hand}, which hands does not hold" in q["reason"] for q in held)
    found = [f for f in rows(tmp_path / "out" / "findings.parquet") if f["hand_id"] == hand]
    assert [(f["check"], f["game_id"]) for f in found] == [("input.hand", game)]  # one hand


def test_a_game_whose_game_events_could_not_be_read_says_what_waits_by_its_format(
    clean: Path, tmp_path: Path
) -> None:
    """A finished game with no game_events row while a game_events file could not be read:
    a pool game's running scores are judged with its eliminations and rebuys, so they are
    named among what is not checked; a deals game misses only its winner (its chips are
    judged from the hands). A blind tester found the running scores left unsaid."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    games = {r["game_id"]: r["format"]
             for path in (logs / "games").rglob("*.parquet") for r in rows(path)}  # fmt: skip
    gone: dict[str, str] = {}
    for source in sorted((logs / "game_events").rglob("*.parquet")):
        data = pq.read_table(source).to_pylist()
        for fmt in ("pool_101", "deals"):
            if fmt not in gone.values():
                game = next((r["game_id"] for r in data if games[r["game_id"]] == fmt), None)
                if game is not None:
                    gone[game] = fmt
        kept = [r for r in data if r["game_id"] not in gone]
        pq.write_table(pa.Table.from_pylist(kept, schema=pq.read_schema(source)), source)
    assert sorted(gone.values()) == ["deals", "pool_101"]
    (logs / "game_events" / "part-z.parquet").write_text("not parquet")
    replay_logs(logs=logs, out=tmp_path / "out", workers=1, progress=False, fairplay=False,
                rng=False)  # fmt: skip
    found = rows(tmp_path / "out" / "findings.parquet")
    waits = {"pool_101": "its running scores, eliminations, rebuys, splits and winner were",
             "deals": "its winner was"}  # fmt: skip
    for game, fmt in gone.items():
        (unchecked,) = [f for f in found if f["check"] == "game.unchecked"
                        and f["game_id"] == game]  # fmt: skip
        assert unchecked["message"] == (
            f"Game {game} has no game_events rows, and game_events/part-z.parquet could not"
            f" be read, so {waits[fmt]} not checked."
        )


def test_the_report_counts_what_an_unreadable_file_cost_and_says_when_it_cost_no_hand(
    clean: Path, tmp_path: Path
) -> None:
    """report.html's opening note counts the quarantined hands and game.unchecked findings
    the reader is sent to; a file whose loss costs no hand (a sessions file: fair play's
    only) says so, where it sent the reader to "the quarantined hands below" of which there
    were none (a blind tester)."""
    for table in ("hands", "sessions"):
        logs = tmp_path / table / "logs"
        shutil.copytree(clean / "logs", logs)
        sorted((logs / table).rglob("*.parquet"))[0].write_text("not parquet")
        out = tmp_path / table / "out"
        replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False)
        page = (out / "report.html").read_text()
        cause = " ".join(page[page.index('id="cause"') : page.index('id="run"')].split())
        run = json.loads((out / "run.json").read_text())
        quarantined = run["counts"]["hands"]["quarantined"]
        if table == "hands":
            assert quarantined > 0
            assert f"Start here: the {quarantined} quarantined hands" in cause
            # its games have no game.unchecked: the file's input.file says what it took (the
            # page sent the reader to "0 game.unchecked findings": a blind tester)
            assert "0 <code>game.unchecked</code>" not in cause
        else:
            assert quarantined == 0
            assert "No hand is quarantined and no game left unchecked for it" in cause
            assert "quarantined hands and the" not in cause


def test_a_hand_whose_last_rows_were_in_a_refused_file_is_quarantined_not_judged(
    clean: Path, tmp_path: Path
) -> None:
    """schemas/README.md, "How the audit treats a file and its rows": the hands a refused
    file held are quarantined, "a hand whose rows it held only in part too". A hand's last
    events row (a loser's show) moved to a file of its own that is refused (its `ts`
    without a time zone): the hand looked whole without it and was verified (a blind
    tester). The file's hand_id column still reads, so the hand is quarantined naming it."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    verified = {r["hand_id"] for r in rows(clean / "out" / "hands.parquet")
                if r["status"] == "verified"}  # fmt: skip
    files = sorted((logs / "events").rglob("*.parquet"))
    data = pq.read_table(files[0])
    ids = data.column("hand_id").to_pylist()
    actions = data.column("action").to_pylist()
    ends = [i for i in range(len(ids)) if i + 1 == len(ids) or ids[i + 1] != ids[i]]
    last = next(i for i in reversed(ends) if ids[i] in verified and actions[i] == "show")
    hand = ids[last]
    keep = [i != last for i in range(len(ids))]
    pq.write_table(data.filter(pa.array(keep)), files[0])
    moved = data.slice(last, 1)
    ts = moved.schema.get_field_index("ts")
    naive = moved.column("ts").cast(pa.timestamp("ms"))  # no time zone: the file is refused
    moved = moved.set_column(ts, pa.field("ts", pa.timestamp("ms")), naive)
    bad = files[0].parent / "late.parquet"
    pq.write_table(moved, bad)
    out = tmp_path / "out"
    relative = replay_refusing(logs, out, bad, "--no-fairplay", "--no-rng")
    status = {r["hand_id"]: r for r in rows(out / "hands.parquet")}
    assert status[hand]["status"] == "quarantined"
    assert relative in status[hand]["reason"]
    others = {h for h, r in status.items() if r["status"] == "quarantined"} - {hand}
    assert not others & verified


@pytest.mark.parametrize("lost", ["row", "file"])
def test_a_game_without_its_games_row_is_one_game_unchecked(
    lost: str, clean: Path, tmp_path: Path
) -> None:
    """schemas/README.md, "How the audit treats a file and its rows": a game whose games row
    is missing (``row``) has its hands quarantined and one game.unchecked saying why its
    game-level checks were not run, and run.json counts it unchecked. Until 2026-12-06 it
    had none: a blind tester's night with no games row read was reported with 302 games and
    none unchecked. Where the row may be in a file that could not be read (``file``), that
    file's one input.file finding says so of all such games and their hands, and run.json
    still counts them unchecked (until 2026-12-06 each game had its game.unchecked, input.hand
    and input.row: a blind tester)."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    source = sorted((logs / "games").rglob("*.parquet"))[0]
    data = pq.read_table(source)
    gone = data.column("game_id").to_pylist() if lost == "file" else [data["game_id"][0].as_py()]
    if lost == "file":
        source.write_text("not parquet")
    else:
        pq.write_table(data.slice(1), source)
    out = tmp_path / "out"
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False, rng=False)

    played = {r["game_id"] for r in rows(clean / "out" / "hands.parquet")}
    gone = [g for g in gone if g in played]
    assert gone
    found = rows(out / "findings.parquet")
    unchecked = {f["game_id"]: f for f in found if f["check"] == "game.unchecked"}
    counts = json.loads((out / "run.json").read_text())["counts"]["games"]
    if lost == "file":
        name = source.relative_to(logs).as_posix()
        assert not [f for f in found if f["game_id"] in gone]
        (file,) = [f for f in found if f["check"] == "input.file"]
        hands = sorted((r["game_id"], r["hand_id"]) for r in rows(out / "hands.parquet")
                       if r["game_id"] in gone)  # fmt: skip
        assert file["message"].startswith(f"{name} is not a readable Parquet file: ")
        assert file["message"].endswith(
            f"; without it {len(hands)} hands of {len(gone)} games could not be audited "
            "(quarantined, their games' checks not run): "
            f"{', '.join(h for _, h in hands[:3])} and {len(hands) - 3} more"
        )
        held = {q["hand_id"] for q in rows(out / "quarantine.parquet") if q["game_id"] in gone}
        assert held - {None} == {h for _, h in hands}
        assert counts["unchecked"] == len(unchecked) + len(gone)
        return
    why = "the games table holds no row of it"
    for game in gone:
        assert unchecked[game]["message"] == (
            f"The game-level checks of game {game} (scores, chips and money against its hands)"
            f" were not run: {why}."
        )
        assert unchecked[game]["severity"] == "info"
    assert {r["status"] for r in rows(out / "hands.parquet") if r["game_id"] in gone} == {
        "quarantined"
    }
    # One finding for the hands of each such game and one for its other rows, each still
    # its own quarantine row (a blind tester: a finding for each hand and each table).
    for game in gone:
        hands = sorted(r["hand_id"] for r in rows(out / "hands.parquet") if r["game_id"] == game)
        said = [f for f in found if f["game_id"] == game and f["check"].startswith("input.")]
        held = [q for q in rows(out / "quarantine.parquet") if q["game_id"] == game]
        assert sorted(q["hand_id"] for q in held if q["hand_id"] is not None) == hands
        told = [f for f in said if f["check"] == "input.hand"]
        assert len(told) == 1
        if len(hands) > 1:
            assert told[0]["hand_id"] is None
            assert told[0]["message"].startswith(f"The {len(hands)} hands {hands[0]}, ")
        assert len([f for f in said if f["check"] == "input.row"]) <= 1
    assert counts["unchecked"] == len(unchecked)
    page = (out / "report.html").read_text()
    assert f"{len(unchecked)} with a game-level check not run" in page
    # the tile does not call them audited (a blind tester: "5 games audited", one unchecked)
    assert f"games, {len(unchecked)} with their game checks not run</div>" in page


def test_a_results_row_without_its_hand_id_quarantines_the_hands_it_may_belong_to(
    clean: Path, tmp_path: Path
) -> None:
    """schemas/README.md: "a hand with a bad row of its own is quarantined with it". A
    results row whose hand_id is null may be the missing row of any hand lacking a results
    row for the player it names: each such hand is quarantined, naming the row, not judged
    (a score.outcome alarm, as a blind tester found). A hand lacking another player's row
    is judged as always, and explain says what the night said."""
    logs = tmp_path / "logs"
    shutil.copytree(clean / "logs", logs)
    judged = {r["hand_id"] for r in rows(clean / "out" / "hands.parquet")
              if r["status"] == "verified"}  # fmt: skip
    source = sorted((logs / "results").rglob("*.parquet"))[0]
    data = pq.read_table(source)
    results = data.to_pylist()
    # a player's row in two judged hands: one's hand_id nulled, the other's left out
    mine = [i for i, r in enumerate(results) if r["hand_id"] in judged]
    at, also = next((i, j) for i in mine for j in mine if j > i
                    and results[j]["player_id"] == results[i]["player_id"]
                    and results[j]["hand_id"] != results[i]["hand_id"])  # fmt: skip
    player, first = results[at]["player_id"], results[at]["hand_id"]
    # and a hand without another player's row, judged as always
    other = next(i for i, r in enumerate(results) if r["player_id"] != player
                 and r["hand_id"] in judged - {first, results[also]["hand_id"]})  # fmt: skip
    second, third = results[also]["hand_id"], results[other]["hand_id"]
    ids = data.column("hand_id").to_pylist()
    ids[at] = None
    field = data.schema.field("hand_id").with_nullable(True)
    data = data.set_column(data.schema.get_field_index("hand_id"), field,
                           pa.array(ids, field.type))  # fmt: skip
    data = data.filter(pa.array([i not in (also, other) for i in range(len(ids))]))
    pq.write_table(data, source)
    out = tmp_path / "out"
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False, rng=False)

    status = {r["hand_id"]: r for r in rows(out / "hands.parquet")}
    at -= sum(i < at for i in (also, other))  # its place in the file as written
    row = f"results row {at} of {source.relative_to(logs).as_posix()}"
    for hand in (first, second):
        assert status[hand]["status"] == "quarantined"
        assert status[hand]["reason"] == (
            f"hand {hand} has no results row for {player}, and {row} has a null hand_id: it"
            " may be the missing row"
        )
    found = rows(out / "findings.parquet")
    assert not [f for f in found if f["hand_id"] in (first, second) and f["check"] != "input.hand"]
    assert status[third]["status"] == "discrepancy"
    assert [f["check"] for f in found if f["hand_id"] == third] == ["score.outcome"]
    said = runner.invoke(app, ["explain", first, str(logs)])
    assert said.exit_code in (0, 1), said.output
    assert "could not be replayed" in " ".join(said.output.split())
