"""Files whose footer reads but whose data does not (a corrupt page): each is refused like a
file that is not Parquet at all, and the night is read without it; and file names and ids
that hold control characters, which every reason and message names on one line."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.errors import LogFormatError, SchemaVersionError, one_line
from audit.games.tables import table_limit_findings
from audit.logs import reader
from audit.logs.contract import REQUIRED_TABLES, TABLES
from audit.logs.reader import (
    game_of_hand,
    iter_units,
    open_log_root,
    orphans,
    read_bucket,
    staging,
)
from audit.records import GameUnit, Hand, QuarantineRow
from tests.logs import logbuilder
from tests.logs.logbuilder import PARTITION, LogBuilder, arrow_table, write_table

Read = tuple[list[GameUnit], list[QuarantineRow]]


def read(root: Path, work: Path) -> Read:
    """Every unit the reader yields, flattened, and the whole quarantine."""
    units, quarantine, _ = read_all(root, work)
    return units, quarantine


def read_all(root: Path, work: Path) -> tuple[list[GameUnit], list[QuarantineRow], set[str]]:
    """`read`, and the orphans: the hands other tables name whose hands row is lost."""
    log = open_log_root(root)
    quarantine = list(log.bad_files)
    work.mkdir(exist_ok=True)
    with staging(log, quarantine=quarantine, workdir=work) as stage:
        units = [
            unit
            for bucket in range(stage.buckets)
            for batch in read_bucket(stage, bucket, quarantine)
            for unit in batch
        ]
        return units, quarantine, set(orphans(stage))


def hands_of(units: list[GameUnit]) -> dict[str, Hand]:
    return {hand.hand_id: hand for unit in units for hand in unit.hands}


def quarantined(units: list[GameUnit]) -> dict[str, str]:
    return {h.hand_id: h.quarantine for h in hands_of(units).values() if h.quarantine}


def corrupt(path: Path, column: int = 0) -> None:
    """Garble the first data page of a column of `path` (its header and data, XOR 0xFF),
    leaving the footer as it was: the file opens, its data does not decode."""
    chunk = pq.read_metadata(path).row_group(0).column(column)
    end = (chunk.dictionary_page_offset or chunk.data_page_offset) + chunk.total_compressed_size
    data = bytearray(path.read_bytes())
    for i in range(chunk.data_page_offset, end):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    pq.read_metadata(path)  # the footer still reads


def full_log(root: Path) -> LogBuilder:
    """Three games of two hands, with rows in every table for every game."""
    logs = LogBuilder(root)
    for g in range(3):
        logs.game(f"g{g}")
        for h in range(2):
            logs.quick_hand(f"g{g}-h{h}")
        at = logbuilder.T0
        logs.row("game_events", game_id=f"g{g}", after_hand_no=1, seq=1, ts=at, player_id="p1",
                 score=80, action="rebuy", split_kind=None)  # fmt: skip
        logs.row("ledger", game_id=f"g{g}", player_id="p1", kind="prize", ts=at,
                 amount=Decimal("2.50"))  # fmt: skip
        logs.row("sessions", game_id=f"g{g}", player_id="p1", ip="h1", device_id="d1",
                 client="app", joined_at=at, left_at=at)  # fmt: skip
    return logs


def _game(row: dict[str, Any]) -> str:
    return str(row.get("game_id") or row["hand_id"].rsplit("-", 1)[0])


def split_by_game(logs: LogBuilder, table: str) -> tuple[Path, Path]:
    """Write the log with `table` in two files: game g2's rows in b.parquet, the others'
    in a.parquet; return (the root, b.parquet)."""
    root = logs.write(skip=[table])
    rows = logs.rows[table]
    write_table(root, table, [r for r in rows if _game(r) != "g2"], f"{PARTITION}/a.parquet")
    b = write_table(root, table, [r for r in rows if _game(r) == "g2"], f"{PARTITION}/b.parquet")
    return root, b


# ---------------------------------------------------------------- undecodable files


@pytest.mark.parametrize("table", TABLES)
def test_an_undecodable_file_is_refused_and_read_around_like_a_file_that_is_not_parquet(
    tmp_path: Path, table: str
) -> None:
    """A file whose data page is corrupt gets its own ``input.file`` row with the
    decoder's reason, and every hand, quarantined or not, comes out as when the file is
    not Parquet at all."""
    root, bad = split_by_game(full_log(tmp_path / "corrupt"), table)
    corrupt(bad)
    units, quarantine, lost = read_all(root, tmp_path / "work")
    file_row = quarantine[0]
    name = f"{table}/{PARTITION}/b.parquet"
    assert (file_row.table, file_row.file, file_row.check) == (table, name, "input.file")
    column = pq.read_schema(bad).names[0]  # the column ``corrupt`` garbled, named
    assert file_row.reason.startswith(f"{name} has data that cannot be decoded in column "
                                      f"{column}: ")  # fmt: skip
    assert "\n" not in file_row.reason
    assert str(tmp_path) not in file_row.reason
    junk_root, junk = split_by_game(full_log(tmp_path / "junk"), table)
    junk.write_bytes(b"PAR1 this is not parquet")
    junk_units, junk_quarantine, junk_lost = read_all(junk_root, tmp_path / "junk-work")
    assert (units, quarantine[1:], lost) == (junk_units, junk_quarantine[1:], junk_lost)
    every = {f"g{g}-h{h}" for g in range(3) for h in range(2)}
    assert set(hands_of(units)) | lost == every
    assert not set(hands_of(units)) & lost
    if table == "hands":
        assert lost == {"g2-h0", "g2-h1"}
    elif table in ("events", "results", "games"):
        assert set(quarantined(units)) == {"g2-h0", "g2-h1"}


def test_tables_files_claim_rows_of_a_game_in_a_refused_games_file_name_that_file(
    tmp_path: Path,
) -> None:
    """schemas/README.md: a quarantined row says why, the unreadable file named as the
    likely cause. The games file holding g2's row is refused: g2's game_events and ledger
    rows name the file, not only "which games does not hold", which reads as if the game
    never was (a blind tester)."""
    root, bad = split_by_game(full_log(tmp_path / "logs"), "games")
    bad.write_bytes(b"PAR1 this is not parquet")
    _, quarantine = read(root, tmp_path / "work")
    strays = {q.table: q.reason for q in quarantine if q.game_id == "g2" and q.hand_id is None}
    for table in ("game_events", "ledger"):  # one reason for both tables: one finding
        assert strays[table] == (
            "rows of game_events (1 row) and ledger (1 row) name game g2, which games does "
            f"not hold (its rows may be in games/{PARTITION}/b.parquet, which could not be read)"
        )


def test_a_file_refused_for_a_value_that_is_not_utf8_names_its_column_and_row(
    tmp_path: Path,
) -> None:
    """schemas/README.md: a file is refused whole "with a one-line message naming the file
    and column" when its data cannot be decoded. A string that is not UTF-8 text (pyarrow
    writes its bytes unchecked) is named by its column and its 0-based row (a blind
    tester's message quoted the bad value alone)."""
    logs = full_log(tmp_path / "logs")
    root, bad = split_by_game(logs, "games")
    data = pq.read_table(bad)
    index = data.schema.get_field_index("table_id")
    raw = data.column(index).cast(pa.binary()).to_pylist()
    raw[0] = b"T\xff\xfe17"
    data = data.set_column(index, data.schema.field(index),
                           pa.array(raw, pa.binary()).view(pa.string()))  # fmt: skip
    pq.write_table(data, bad)
    _, quarantine = read(root, tmp_path / "work")
    (refused,) = [q for q in quarantine if q.check == "input.file"]
    assert refused.reason.startswith(
        f"games/{PARTITION}/b.parquet has data that cannot be decoded in column table_id, "
        "row 0: "
    )


def test_the_refused_file_leaves_the_log_root_for_every_later_reader(tmp_path: Path) -> None:
    root, bad = split_by_game(full_log(tmp_path / "logs"), "events")
    corrupt(bad, column=4)
    log = open_log_root(root)
    assert log.bad_files == []
    quarantine: list[QuarantineRow] = []
    (tmp_path / "work").mkdir()
    for _ in iter_units(log, quarantine=quarantine, workdir=tmp_path / "work"):
        pass
    assert [f.path for f in log.files["events"]] == [f"events/{PARTITION}/a.parquet"]
    assert log.bad_files == quarantine[:1]
    assert log.damaged == {"events": (f"events/{PARTITION}/b.parquet",)}


def test_an_optional_table_left_without_a_readable_file_is_missing(tmp_path: Path) -> None:
    root = full_log(tmp_path / "logs").write()
    corrupt(next((root / "ledger").rglob("*.parquet")))
    log = open_log_root(root)
    units: list[GameUnit] = []
    quarantine: list[QuarantineRow] = []
    (tmp_path / "work").mkdir()
    for batch in iter_units(log, quarantine=quarantine, workdir=tmp_path / "work"):
        units += batch
    assert log.missing_optional == ["ledger"]
    assert [(q.table, q.check) for q in quarantine] == [("ledger", "input.file")]
    assert len(hands_of(units)) == 6


def test_a_required_table_with_no_decodable_file_stops_the_run_naming_it(tmp_path: Path) -> None:
    root = full_log(tmp_path / "logs").write()
    corrupt(next((root / "hands").rglob("*.parquet")))
    with pytest.raises(LogFormatError) as caught:
        read(root, tmp_path / "work")
    message = str(caught.value)
    assert message.startswith(
        "the log root has no readable hands/ table: all 1 of its files were refused, the first"
        " because"
        f" hands/{PARTITION}/part-0.parquet has data that cannot be decoded in column hand_id: "
    )
    assert "\n" not in message
    assert str(tmp_path) not in message


def test_a_clean_log_never_reads_a_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search for undecodable files costs a clean night nothing: it runs only once
    staging has failed."""

    def never(*args: Any) -> None:
        raise AssertionError("a clean log was read file by file")

    monkeypatch.setattr(reader, "refuse_undecodable", never)
    units, quarantine = read(full_log(tmp_path / "logs").write(), tmp_path / "work")
    assert len(hands_of(units)) == 6
    assert quarantine == []


def test_a_staging_failure_no_file_explains_stays_one_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: Any) -> None:
        raise reader._ReadFailed(("events",), duckdb.IOException("IO Error: disk full\nmore"))

    monkeypatch.setattr(reader, "_stage", fail)
    with pytest.raises(LogFormatError, match=r"^the events files could not be read: IO Error: "
                       r"disk full$"):  # fmt: skip
        read(full_log(tmp_path / "logs").write(), tmp_path / "work")


def test_a_hand_is_looked_up_past_an_undecodable_hands_file(tmp_path: Path) -> None:
    root, bad = split_by_game(full_log(tmp_path / "logs"), "hands")
    corrupt(bad)
    log = open_log_root(root)
    assert game_of_hand(log, "g0-h1") == (True, "g0")
    assert game_of_hand(log, "g2-h1") == (False, None)
    assert [b.file for b in log.bad_files] == [f"hands/{PARTITION}/b.parquet"]


# ---------------------------------------------------------------- one line


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("events/part-0.parquet", "events/part-0.parquet"),
        ("bad\nname.parquet", "bad\\nname.parquet"),
        ("a\tb\r\x00c\x85d\u2028e", "a\\tb\\r\\x00c\\x85d\\u2028e"),
        ("joueur-é 日本", "joueur-é 日本"),
        ('say "hi"', 'say "hi"'),
    ],
)
def test_one_line_escapes_what_is_not_printable_as_repr_does(text: str, line: str) -> None:
    assert one_line(text) == line
    assert one_line(line) == line
    assert repr(text)[1:-1].replace("\\'", "'") == line or not text.isascii()


def test_a_refused_file_named_with_a_newline_is_named_on_one_line(tmp_path: Path) -> None:
    root = full_log(tmp_path / "logs").write()
    (root / "ledger" / "bad\nname.parquet").write_bytes(b"junk")
    log = open_log_root(root)
    (row,) = log.bad_files
    assert row.file == "ledger/bad\nname.parquet"  # the data stays exact
    assert row.reason.startswith("ledger/bad\\nname.parquet is not a readable Parquet file: ")
    assert "\n" not in row.reason
    assert log.damaged == {"ledger": ("ledger/bad\\nname.parquet",)}


def test_an_undecodable_file_named_with_a_newline_is_named_on_one_line(tmp_path: Path) -> None:
    logs = full_log(tmp_path / "logs")
    root = logs.write(skip=["hands"])
    write_table(root, "hands", logs.rows["hands"], "bad\nname.parquet")
    corrupt(root / "hands" / "bad\nname.parquet")
    with pytest.raises(LogFormatError) as caught:
        read(root, tmp_path / "work")
    assert "hands/bad\\nname.parquet has data that cannot be decoded" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_file_named_with_a_newline_that_breaks_the_contract(tmp_path: Path) -> None:
    logs = full_log(tmp_path / "logs")
    root = logs.write(skip=["events"])
    write_table(root, "events", logs.rows["events"][:10], "a.parquet")
    data = arrow_table("events", logs.rows["events"][10:]).drop_columns(["auto"])
    write_table(root, "events", data, "b\n.parquet")
    (row,) = open_log_root(root).bad_files
    assert row.reason == "events/b\\n.parquet: column `auto` (bool) is missing; add it"
    versioned = arrow_table("events", logs.rows["events"][10:])
    write_table(root, "events", versioned.replace_schema_metadata(
        {"rummy_audit.schema_version": "9"}), "b\n.parquet")  # fmt: skip
    with pytest.raises(SchemaVersionError) as caught:
        open_log_root(root)
    assert str(caught.value).startswith("events/b\\n.parquet was written for schema version 9")


def test_a_bad_row_in_a_file_named_with_a_newline(tmp_path: Path) -> None:
    logs = full_log(tmp_path / "logs")
    logs.rows["events"][3]["card"] = "ZZ"
    root = logs.write(skip=["events"])
    write_table(root, "events", logs.rows["events"], "x\ny.parquet")
    _units, quarantine = read(root, tmp_path / "work")
    (row,) = [q for q in quarantine if q.check == "input.row"]
    assert row.file == "events/x\ny.parquet"
    assert row.reason == "events row 3 of events/x\\ny.parquet: card 'ZZ' is not a card code"


def test_ids_with_a_newline_are_named_on_one_line(tmp_path: Path) -> None:
    logs = full_log(tmp_path / "logs")
    orphan = [{**e, "hand_id": 'bad\nhand "id"'} for e in logs.rows["events"][:5]]
    logs.rows["events"] += orphan
    logs.rows["hands"].append({**logs.rows["hands"][0]})
    logs.rows["hands"][0]["hand_id"] = logs.rows["hands"][-1]["hand_id"] = "g0\n-h0"
    for event in logs.rows["events"]:
        if event["hand_id"] == "g0-h0":
            event["hand_id"] = "g0\n-h0"
    for result in logs.rows["results"]:
        if result["hand_id"] == "g0-h0":
            result["hand_id"] = "g0\n-h0"
    logs.row("ledger", game_id="stray\tgame", player_id="p1", kind="prize", ts=logbuilder.T0,
             amount=Decimal("1.00"))  # fmt: skip
    logs.rows["hands"][2]["seats"] = [{"seat": 0, "player_id": "p\n1"}] * 2
    units, quarantine = read(logs.write(), tmp_path / "work")
    # The hand-level reasons of a hand whose own id holds a newline are worded by
    # audit.logs.bucket, which is not checked here.
    reasons = {q.reason for q in quarantine if q.hand_id != "g0\n-h0" or q.row is not None}
    reasons |= {why for hand, why in quarantined(units).items() if hand != "g0\n-h0"}
    assert all("\n" not in reason and "\t" not in reason for reason in reasons), reasons
    assert 'rows of events (5 rows) name hand bad\\nhand "id", which hands does not hold' in reasons
    assert "hand g0\\n-h0 appears 2 times in hands" in reasons
    assert "rows of ledger (1 row) name game stray\\tgame, which games does not hold" in reasons
    assert "hand g1-h0 seats player p\\n1 2 times" in reasons
    assert 'bad\nhand "id"' in {q.hand_id for q in quarantine}  # the data stays exact


def test_a_duplicated_game_events_key_is_quarantined_and_its_game_unchecked(
    tmp_path: Path,
) -> None:
    """schemas/game_events.json: the key is (game_id, seq). Two rows with one key are both
    quarantined, as any duplicated key is, and the game's eliminations, rebuys, splits
    and winner are not judged on them (`game.unchecked`), not judged twice."""
    from audit.run import replay_logs

    logs = full_log(tmp_path / "logs")
    next(g for g in logs.rows["games"] if g["game_id"] == "g1")["format"] = "pool_101"
    twice = next(r for r in logs.rows["game_events"] if r["game_id"] == "g1")
    logs.rows["game_events"].append(dict(twice))
    out = tmp_path / "out"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False, rng=False)
    rows = pq.read_table(out / "quarantine.parquet").to_pylist()
    keyed = [r for r in rows if r["table"] == "game_events"]
    assert [r["reason"] for r in keyed] == [
        f"game g1 has 2 game_events rows with seq {twice['seq']}, the key of one"
    ] * 2
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    assert {(f["check"], f["game_id"]) for f in findings if f["check"] == "game.unchecked"} == {
        ("game.unchecked", "g1")
    }
    # An input finding names the file as the quarantine row does, from the log root; the
    # two rows of one key are one finding (quarantine.input_findings; a blind tester's
    # games row written twice said so twice).
    inputs = [f for f in findings if f["check"] == "input.row" and f["game_id"] == "g1"]
    assert [f["recorded"] for f in inputs] == [keyed[0]["file"]]


def test_a_quarantined_hand_counts_the_input_findings_raised_on_it(tmp_path: Path) -> None:
    """output.md: `findings` are the findings raised on the hand and `worst_severity` the
    worst of them; a hand put aside for a bad row has that row's input finding (major)."""
    from audit.run import replay_logs

    logs = full_log(tmp_path / "logs")
    logs.rows["events"][3]["card"] = "ZZ"
    bad = logs.rows["events"][3]["hand_id"]
    out = tmp_path / "out"
    replay_logs(logs=logs.write(), out=out, workers=1, progress=False, fairplay=False, rng=False)
    hands = {h["hand_id"]: h for h in pq.read_table(out / "hands.parquet").to_pylist()}
    assert (hands[bad]["status"], hands[bad]["findings"], hands[bad]["worst_severity"]) == (
        "quarantined", 1, "major"
    )
    assert all(h["findings"] == 0 for h in hands.values() if h["hand_id"] != bad)


def test_a_findings_message_stays_one_line_whatever_the_ids_hold() -> None:
    """README: control characters in an id are written escaped in every message."""
    from audit.findings import finding

    made = finding("score.points", game_id="g", message="P1\n\tX was charged 9", rule="points.cap")
    assert made.message == "P1\\n\\tX was charged 9"


def test_a_games_row_written_again_while_the_game_ran_is_one_game(tmp_path: Path) -> None:
    """schemas/README.md, "Games that span two nights": the games row is written each
    night the game runs, `ended_at` set the night it ends; a log root holding both nights
    (the one `explain` and `whatif` are given after a nightly run) reads one game, from
    its ended row, not a duplicated key. Rows that differ otherwise still are."""
    logs = full_log(tmp_path / "logs")
    ended = next(g for g in logs.rows["games"] if g["game_id"] == "g1")
    logs.rows["games"].insert(0, {**ended, "ended_at": None})  # the night before
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert [q for q in quarantine if q.table == "games"] == []
    (unit,) = [u for u in units if u.game is not None and u.game.game_id == "g1"]
    assert unit.game is not None
    assert not unit.game.running
    assert all(h.quarantine is None for h in unit.hands)
    other = full_log(tmp_path / "logs2")
    g1 = next(g for g in other.rows["games"] if g["game_id"] == "g1")
    other.rows["games"].append({**g1, "ended_at": None, "table_id": "elsewhere"})
    _units, quarantine = read(other.write(), tmp_path / "work2")
    assert [q.reason for q in quarantine if q.table == "games"] == [
        "game g1 appears 2 times in games"
    ] * 2


# ---------------------------------------------------------------- files no table reads


def test_files_that_look_like_table_data_but_no_table_reads_are_listed(tmp_path: Path) -> None:
    """log-format.md's layout: a table is the Parquet files under its folder. A file of a
    table's folder with a Parquet ending that is not Parquet is refused as unreadable; one
    with another ending that is not Parquet by its first bytes either (compressed), and
    Parquet in a folder that is not a table's (a misspelled one, by its name or its first
    bytes), are not read; each gets an input.file row saying so. A writer's own files
    (``_SUCCESS``, ``.crc``) and files at the root (a README, the simulator's
    labels.parquet) are not table data."""
    root = full_log(tmp_path / "logs").write()
    ledger = next((root / "ledger").rglob("*.parquet"))
    (root / "ledgers").mkdir()
    (root / "ledgers" / "part-0.parquet").write_bytes(ledger.read_bytes())
    (root / "ledgers" / "stray.bin").write_bytes(ledger.read_bytes())  # Parquet by its bytes
    (root / "labels.parquet").write_bytes(ledger.read_bytes())
    (root / "events" / "part-9.parq").write_bytes(b"anything")
    (root / "events" / "part-8.parquet.gz").write_bytes(b"\x1f\x8b compressed")
    for quiet in ("events/_SUCCESS", "events/.part-0.parquet.crc", "_logs/x.txt", "README.md",
                  "events/notes.txt", "ledgers/README"):  # fmt: skip
        (root / quiet).parent.mkdir(parents=True, exist_ok=True)
        (root / quiet).write_text("writer's own\n")
    log = open_log_root(root)
    listed = {(q.table, q.file, q.check): q.reason for q in log.bad_files}
    assert set(listed) == {
        ("events", "events/part-8.parquet.gz", "input.file"),
        ("events", "events/part-9.parq", "input.file"),
        ("ledgers", "ledgers/part-0.parquet", "input.file"),
        ("ledgers", "ledgers/stray.bin", "input.file"),
    }
    assert listed["events", "events/part-9.parq", "input.file"].startswith(
        "events/part-9.parq is not a readable Parquet file: "
    )
    assert listed["events", "events/part-8.parquet.gz", "input.file"] == (
        "events/part-8.parquet.gz is in the events/ folder but is neither named .parquet nor "
        "a Parquet file, so it was not read"
    )
    assert listed["ledgers", "ledgers/part-0.parquet", "input.file"].startswith(
        "ledgers/part-0.parquet is Parquet in the ledgers/ folder, which is not a table of "
        "the contract (games, "
    )
    assert [f.path for f in log.files["ledger"]] == [ledger.relative_to(root).as_posix()]
    assert log.damaged["events"] == ("events/part-8.parquet.gz", "events/part-9.parq")


def test_parquet_files_of_any_name_are_read_as_their_tables(tmp_path: Path) -> None:
    """log-format.md: "each folder holds any number of Parquet files, at any depth", with
    no name given: Hive's ``000000_0``, Impala's ``.parq`` and an upper-case ``.PARQUET``
    are read as their tables' data, as the same rows named ``.parquet`` are (a blind
    tester: refused, they left half a night's hands without their events)."""
    root = full_log(tmp_path / "logs").write()
    named = {path.relative_to(root).as_posix() for path in root.rglob("*.parquet")}
    exact = open_log_root(root)
    renamed = {"events": "000000_0", "results": "part-0.parq", "hands": "PART-0.PARQUET"}
    for table, name in renamed.items():
        (path,) = (root / table).rglob("*.parquet")
        path.rename(path.with_name(name))
    log = open_log_root(root)
    assert log.bad_files == exact.bad_files == []
    assert sum(len(files) for files in log.files.values()) == len(named)
    assert {t: [f.rows for f in fs] for t, fs in log.files.items()} == {
        t: [f.rows for f in fs] for t, fs in exact.files.items()
    }


# ---------------------------------------------------------------- columns staging leaves behind


def leaf(path: Path, column: str) -> int:
    """The index of the first Parquet column chunk of the contract column `column`."""
    meta = pq.read_metadata(path)
    names = [meta.schema.column(i).path.split(".")[0] for i in range(meta.num_columns)]
    return names.index(column)


@pytest.mark.parametrize(
    ("table", "column"),
    [
        ("hands", "started_at"),
        ("hands", "ended_at"),
        ("events", "ts"),
        ("game_events", "ts"),
        ("sessions", "ip"),
        ("sessions", "device_id"),
        ("sessions", "player_id"),
        ("sessions", "left_at"),
    ],
)
def test_a_file_with_an_undecodable_column_staging_does_not_replay_is_refused_whole(
    tmp_path: Path, table: str, column: str
) -> None:
    """schemas/README.md: a file whose footer reads but whose data cannot be decoded is
    refused whole, whatever the column: the timestamps the replay leaves behind and the
    sessions, which later steps read (the table limits, the fair-play detectors), are
    decoded at staging too. Before, such a file, alone in its table (DuckDB then answers a
    null check of a column written non-nullable from the file's footer, without reading
    it), was accepted, and a later step failed on it (a traceback from the table limits,
    exit 2 from the fair-play step)."""
    root = full_log(tmp_path / "logs").write()
    bad = next((root / table).rglob("*.parquet"))
    corrupt(bad, leaf(bad, column))
    name = f"{table}/{PARTITION}/part-0.parquet"
    if table in REQUIRED_TABLES:  # its only file refused
        with pytest.raises(LogFormatError) as caught:
            read(root, tmp_path / "work")
        assert str(caught.value).startswith(
            f"the log root has no readable {table}/ table: all 1 of its files were refused,"
            f" the first because {name} has data that cannot be decoded in column {column}: "
        )
        return
    log = open_log_root(root)
    quarantine: list[QuarantineRow] = []
    (tmp_path / "work").mkdir()
    units = [u for batch in iter_units(log, quarantine=quarantine, workdir=tmp_path / "work")
             for u in batch]  # fmt: skip
    assert [(q.table, q.file, q.check) for q in quarantine] == [(table, name, "input.file")]
    assert quarantine[0].reason.startswith(
        f"{name} has data that cannot be decoded in column {column}: "  # named (schemas/README.md)
    )
    assert "\n" not in quarantine[0].reason
    assert log.missing_optional == [table]
    assert len(hands_of(units)) == 6


def test_a_clean_log_decodes_each_column_staging_leaves_behind_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decoding of the columns staging leaves behind is one query per table: a clean
    night never reads a file alone."""

    def never(*args: Any) -> None:
        raise AssertionError("a clean log was read file by file")

    monkeypatch.setattr(reader, "refuse_undecodable", never)
    log = open_log_root(full_log(tmp_path / "logs").write())
    assert reader.decode_unstaged(log) == []
    assert reader.unstaged_columns("events") == ["ts"]
    assert reader.unstaged_columns("results") == []


def test_the_table_limits_skip_with_a_reason_on_files_they_cannot_decode(tmp_path: Path) -> None:
    """Should a sessions file be undecodable when the table limits read it (damaged after
    staging), table.limit is skipped with DuckDB's reason on one line (check.skipped),
    never a traceback."""
    root = full_log(tmp_path / "logs").write()
    sessions = next((root / "sessions").rglob("*.parquet"))
    corrupt(sessions, leaf(sessions, "joined_at"))
    games = list((root / "games").rglob("*.parquet"))
    (found,) = table_limit_findings([sessions], games, root)
    assert (found.check, found.severity) == ("check.skipped", "info")
    assert found.message.startswith(
        "The sessions and games files could not be read, so table.limit could not be checked: "
    )
    assert str(root) not in found.message
    assert "\n" not in found.message


# ---------------------------------------------------------------- rows lost with a file


@pytest.mark.parametrize(
    ("lost", "said"),
    [((0, 1), "events start at seq 2, not 0"), ((2, 3), "events jump from seq 1 to 4")],
)
def test_tables_files_a_hand_whose_seqs_skip_rows_names_the_unreadable_file(
    tmp_path: Path, lost: tuple[int, ...], said: str
) -> None:
    """schemas/README.md: a hand whose rows an unreadable file held only in part is
    quarantined, "the file named as the likely cause": its events starting late or
    jumping a seq, as well as stopping early (a blind tester: the head and the middle
    named no file)."""
    logs = LogBuilder(tmp_path / "logs")
    logs.game("g1").quick_hand("h1")
    root = logs.write(skip=["events"])
    rows = logs.rows["events"]
    write_table(root, "events", [r for r in rows if r["seq"] not in lost],
                f"{PARTITION}/a.parquet")  # fmt: skip
    (root / "events" / PARTITION / "b.parquet").write_text("not parquet")
    units, _ = read(root, tmp_path / "work")
    assert quarantined(units) == {"h1": f"hand h1 {said} (its rows may be in "
                                  f"events/{PARTITION}/b.parquet, which could not be read)"}
    (root / "events" / PARTITION / "b.parquet").unlink()  # no file to blame: none named
    units, _ = read(root, tmp_path / "work2")
    assert quarantined(units) == {"h1": f"hand h1 {said}"}
