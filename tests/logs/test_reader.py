"""The reader: from a log root to units of complete games, with everything it cannot read
quarantined with why, and every input hand yielded exactly once."""

from __future__ import annotations

import doctest
import gc
from collections import Counter
from datetime import timedelta
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from types import ModuleType

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit import duck, errors
from audit.cards import CODE_OF, CODE_TEXT
from audit.errors import AuditError, LogFormatError, SchemaVersionError
from audit.logs import bucket, reader, validate
from audit.logs.contract import load_contract
from audit.logs.reader import (
    QuarantineRow,
    game_of_hand,
    iter_units,
    open_log_root,
    read_bucket,
    staging,
)
from audit.records import NO_CARD, Event, GameUnit, Hand
from audit.replay.outcome import audit_hand
from audit.rules.ruleset import load_preset
from audit.run import replay_logs
from tests.logs import logbuilder
from tests.logs.logbuilder import PARTITION, LogBuilder, arrow_table, write_table

Read = tuple[list[GameUnit], list[QuarantineRow]]


def read(root: Path, work: Path, *, target_rows: int = 2_000_000) -> Read:
    """Every unit the reader yields, flattened, and the whole quarantine."""
    log = open_log_root(root)
    quarantine = list(log.bad_files)
    work.mkdir(exist_ok=True)
    batches = iter_units(log, quarantine=quarantine, workdir=work, target_rows=target_rows)
    return [unit for batch in batches for unit in batch], quarantine


def hands_of(units: list[GameUnit]) -> dict[str, Hand]:
    return {hand.hand_id: hand for unit in units for hand in unit.hands}


def quarantined(units: list[GameUnit]) -> dict[str, str]:
    return {h.hand_id: h.quarantine for h in hands_of(units).values() if h.quarantine}


def small_log(root: Path, *, games: int = 3, hands: int = 2) -> LogBuilder:
    logs = LogBuilder(root)
    for g in range(games):
        logs.game(f"g{g}")
        for h in range(hands):
            logs.quick_hand(f"g{g}-h{h}")
    return logs


# ---------------------------------------------------------------- reading


def test_a_small_log_becomes_games_hands_events_and_results(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=2)
    logs.game("g9", ended_at=None)
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert quarantine == []
    assert [u.game_id for u in units] == ["g0", "g1", "g9"]
    game = units[0].game
    assert game is not None
    assert (game.format, game.point_value, game.rake_pct, game.running) == (
        "points",
        Decimal("1.0000"),
        Decimal("15.00"),
        False,
    )
    assert units[2].game is not None
    assert units[2].game.running
    assert units[2].hands == []
    row = logs.rows["hands"][0]
    hand = units[0].hands[0]
    assert (hand.hand_id, hand.game_id, hand.hand_no, hand.seats) == (
        "g0-h0",
        "g0",
        1,
        ["p1", "p2"],
    )
    assert hand.shoe == [CODE_OF[card] for card in row["shoe"]]
    assert (hand.wild, hand.open) == (CODE_OF[row["wild_card"]], CODE_OF[row["open_card"]])
    assert [e.action for e in hand.events] == ["draw_stock", "discard"] * 2 + ["drop"]
    first = logs.rows["events"][0]
    assert hand.events[0] == Event(0, "p1", "draw_stock", CODE_OF[first["card"]], None, False, None)
    assert hand.events[-1].card == NO_CARD
    assert hand.events[-1].reason == "player"
    assert [(r.player, r.outcome, r.points, r.amount) for r in hand.results] == [
        ("p1", "middle_drop", 40, Decimal("-40.00")),
        ("p2", "won", 0, Decimal("34.00")),
    ]
    assert all(h.quarantine is None for u in units for h in u.hands)


def test_quick_hands_replay_clean(tmp_path: Path) -> None:
    units, _ = read(small_log(tmp_path / "logs").write(), tmp_path / "work")
    rules = load_preset("standard-13")
    for unit in units:
        assert unit.game is not None
        for hand in unit.hands:
            assert audit_hand(hand, unit.game, rules).findings == []


def test_groups_become_lists_of_card_codes(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game().hand("h1").event("draw_stock")
    groups = [["AS", "2S", "3S"], ["JK", "KH", "KD"]]
    logs.event("declare", "5C", groups=groups).result("p1", "won").result("p2")
    units, _ = read(logs.write(), tmp_path / "work")
    declare = units[0].hands[0].events[1]
    assert declare.groups == [[CODE_OF[c] for c in group] for group in groups]
    assert declare.card == CODE_OF["5C"]


def test_hands_and_game_rows_are_ordered_and_game_rows_attached(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g2").quick_hand("b", hand_no=2)
    logs.quick_hand("a", hand_no=2).quick_hand("z", hand_no=1).game("g1").quick_hand("c")
    for seq in (5, 1, 3):
        logs.row(
            "game_events",
            game_id="g2",
            after_hand_no=1,
            seq=seq,
            ts=logbuilder.T0,
            player_id="p1",
            action="rebuy",
            score=80,
            split_kind=None,
        )
    for minute, kind in ((3, "prize"), (1, "buy_in"), (2, "rake")):
        logs.row(
            "ledger",
            game_id="g2",
            player_id=None if kind == "rake" else "p1",
            kind=kind,
            amount=Decimal("-5.00"),
            ts=logbuilder.T0.replace(minute=minute),
        )
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert quarantine == []
    assert [u.game_id for u in units] == ["g1", "g2"]
    assert [h.hand_id for h in units[1].hands] == ["z", "a", "b"]
    game = units[1].game
    assert game is not None
    assert [e.seq for e in game.game_events] == [1, 3, 5]
    assert [row.kind for row in game.ledger] == ["buy_in", "rake", "prize"]
    assert game.ledger[1].player is None
    assert game.ledger[0].amount == Decimal("-5.00")


def test_hive_partitions_at_any_depth_are_read(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=2)
    root = logs.root
    for table in ("games", "hands", "results"):
        write_table(root, table, logs.rows[table], f"{PARTITION}/part-0.parquet")
    events = logs.rows["events"]
    write_table(root, "events", events[:7], "date=2026-11-29/hour=18/min=05/part-0.parquet")
    write_table(root, "events", events[7:], "part-9.parquet")
    log = open_log_root(root)
    assert [f.path for f in log.files["events"]] == [
        "events/date=2026-11-29/hour=18/min=05/part-0.parquet",
        "events/part-9.parquet",
    ]
    assert log.missing_optional == ["game_events", "ledger", "sessions"]
    units, quarantine = read(root, tmp_path / "work")
    assert quarantine == []
    assert sum(len(h.events) for h in hands_of(units).values()) == len(events)


def test_a_partition_key_is_never_a_column(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    root = logs.write(skip=["games"])
    write_table(root, "games", logs.rows["games"], "game_id=g7/part-0.parquet")
    units, _ = read(root, tmp_path / "work")
    assert [u.game_id for u in units] == ["g1"]


def test_events_split_over_files_in_reverse_order_come_back_in_seq_order(tmp_path: Path) -> None:
    whole = small_log(tmp_path / "one").write()
    split = small_log(tmp_path / "three").write(split_events_into=3, shuffle_files=True)
    log = open_log_root(split)
    assert len(log.files["events"]) == 3
    one, _ = read(whole, tmp_path / "work")
    three, quarantine = read(split, tmp_path / "work")
    assert quarantine == []
    assert three == one
    for hand in hands_of(three).values():
        assert [e.seq for e in hand.events] == list(range(len(hand.events)))


def test_files_whose_columns_come_in_another_order_read_by_name(tmp_path: Path) -> None:
    """Files of one layout are read without matching columns by name (DuckDB then holds
    less); a file with the same columns in another order is matched by name."""
    whole = small_log(tmp_path / "one").write()
    split = small_log(tmp_path / "two").write(split_events_into=2)
    first = sorted((split / "events").rglob("*.parquet"))[0]
    table = pq.read_table(first)
    pq.write_table(table.select(list(reversed(table.column_names))), first)
    log = open_log_root(split)
    assert not log.uniform("events")
    assert log.uniform("hands")
    one, _ = read(whole, tmp_path / "work")
    two, quarantine = read(split, tmp_path / "work")
    assert quarantine == []
    assert two == one


def test_many_buckets_give_the_same_records_as_one(tmp_path: Path) -> None:
    root = small_log(tmp_path / "logs", games=12, hands=3).write(split_events_into=2)
    one, _ = read(root, tmp_path / "work")
    log = open_log_root(root)
    quarantine: list[QuarantineRow] = []
    batches = list(iter_units(log, quarantine=quarantine, workdir=tmp_path, target_rows=20))
    assert len(batches) > 1
    games = [unit.game_id for batch in batches for unit in batch]
    assert len(games) == len(set(games)) == 12
    for batch in batches:
        assert [u.game_id for u in batch] == sorted(u.game_id for u in batch)
    many = sorted((unit for batch in batches for unit in batch), key=lambda u: u.game_id)
    assert many == one
    assert quarantine == []


def test_buckets_hold_games_in_the_order_of_the_log(tmp_path: Path) -> None:
    """A bucket is a run of consecutive games of the log, about as many hands each (the
    staged rows of a bucket then sit together, and a worker skips the others' row groups):
    12 games of 3 hands, written in an order that is neither their ids' nor a hash's, in 4
    buckets."""
    logs = LogBuilder(tmp_path / "logs")
    names = [f"g{(7 * i) % 12:02d}" for i in range(12)]
    for name in names:
        logs.game(name)
        for h in range(3):
            logs.quick_hand(f"{name}-h{h}")
    root = logs.write()
    log = open_log_root(root)
    events = sum(f.rows for f in log.files["events"])
    with staging(log, quarantine=[], target_rows=-(-events // 4), workdir=tmp_path) as stage:
        assert stage.buckets == 4
        held = [
            sorted(unit.game_id for batch in read_bucket(stage, b, []) for unit in batch)
            for b in range(stage.buckets)
        ]
    assert held == [sorted(names[3 * b : 3 * b + 3]) for b in range(4)]


def test_games_sort_by_code_point_in_every_bucket(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs")
    for game in ("é", "z", "Z", "a", "ä", "g10", "g9", "😀"):
        logs.game(game).quick_hand(f"{game}-1").quick_hand(f"{game}-2")
    root = logs.write()
    for target_rows in (2_000_000, 15):
        log = open_log_root(root)
        batches = iter_units(log, quarantine=[], workdir=tmp_path, target_rows=target_rows)
        for batch in batches:
            assert [u.game_id for u in batch] == sorted(u.game_id for u in batch)
            assert all(h.game_id == u.game_id for u in batch for h in u.hands)


def test_the_work_folder_is_removed_at_the_end(tmp_path: Path) -> None:
    root = small_log(tmp_path / "logs").write()
    work = tmp_path / "work"
    read(root, work)
    assert list(work.iterdir()) == []


def test_the_collector_is_given_back_as_it_was_after_each_bucket(tmp_path: Path) -> None:
    """A batch's records are built with the cyclic collector paused and frozen out of its
    sight (audit/records.py ``gc_paused``) until their bucket is read to the end, or the
    reading stops: then nothing stays frozen and the collector runs again."""
    root = small_log(tmp_path / "logs", games=12, hands=3).write()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    log = open_log_root(root)
    with staging(log, quarantine=[], target_rows=20, workdir=tmp_path) as stage:
        assert stage.buckets > 1
        read = 0
        for bucket in range(stage.buckets):
            batches = read_bucket(stage, bucket, [])
            if next(batches, None) is not None:  # a bucket may hold no game
                assert gc.get_freeze_count() > 0
                assert gc.isenabled()
                read += 1
                if read % 2:
                    batches.close()  # stopped half way
                else:
                    list(batches)
            assert gc.get_freeze_count() == 0
            assert gc.isenabled()
        assert read > 1


def test_accepted_spellings_of_the_types_read_the_same(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "exact")
    exact, _ = read(logs.write(), tmp_path / "work")
    root = tmp_path / "spelled"
    for table, rows in logs.rows.items():
        data = arrow_table(table, rows)
        for index, field in enumerate(data.schema):
            column = data.column(index)
            if field.type == pa.string():
                column = column.cast(pa.large_string()).dictionary_encode()
            elif pa.types.is_integer(field.type) and not pa.types.is_int64(field.type):
                column = column.cast(pa.int64())
            elif pa.types.is_timestamp(field.type):
                column = column.cast(pa.timestamp("ns", tz="Etc/UTC"))
            data = data.set_column(index, field.name, column)
        write_table(root, table, data, "part-0.parquet")
    spelled, quarantine = read(root, tmp_path / "work")
    assert quarantine == []
    assert spelled == exact


def test_a_column_of_nulls_written_as_arrows_null_type_reads_as_nulls(tmp_path: Path) -> None:
    """pyarrow gives a column of None Arrow's `null` type (pandas, `from_pylist`): a
    nullable column written so (a points game's deals_count and entry_fee, a hand without
    a shuffle commitment) reads as the same nulls, where the whole file was refused (a
    blind tester: every games file refused, exit 2)."""
    logs = small_log(tmp_path / "logs")
    exact, _ = read(logs.write(), tmp_path / "work")
    root = tmp_path / "nulls"
    nulled = {"games": ("deals_count", "entry_fee"), "hands": ("shuffle",)}
    for table, rows in logs.rows.items():
        data = arrow_table(table, rows)
        for name in nulled.get(table, ()):
            assert data.column(name).null_count == data.num_rows
            index = data.schema.get_field_index(name)
            data = data.set_column(index, name, pa.nulls(data.num_rows))
        write_table(root, table, data, "part-0.parquet")
    assert open_log_root(root).bad_files == []
    spelled, quarantine = read(root, tmp_path / "work")
    assert quarantine == []
    assert spelled == exact


# ---------------------------------------------------------------- files


def test_a_file_missing_a_column_is_refused_and_the_others_read(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").game("g2").quick_hand("h2")
    root = logs.write(skip=["events"])
    h1 = [e for e in logs.rows["events"] if e["hand_id"] == "h1"]
    h2 = [e for e in logs.rows["events"] if e["hand_id"] == "h2"]
    write_table(root, "events", h1, "a.parquet")
    write_table(root, "events", arrow_table("events", h2).drop_columns(["auto"]), "b.parquet")
    log = open_log_root(root)
    assert [f.path for f in log.files["events"]] == ["events/a.parquet"]
    (bad,) = log.bad_files
    assert (bad.table, bad.file, bad.check) == ("events", "events/b.parquet", "input.file")
    assert bad.reason == "events/b.parquet: column `auto` (bool) is missing; add it"
    units, _ = read(root, tmp_path / "work")
    assert quarantined(units) == {  # its hand_id column reads: the file names the hand
        "h2": "hand h2 has events rows in events/b.parquet, which could not be read, so it "
        "cannot be replayed whole"
    }


def test_a_corrupt_file_is_refused(tmp_path: Path) -> None:
    root = small_log(tmp_path / "logs").write()
    (root / "games" / "broken.parquet").write_bytes(b"PAR1 this is not parquet")
    log = open_log_root(root)
    (bad,) = log.bad_files
    assert bad.file == "games/broken.parquet"
    assert bad.reason.startswith("games/broken.parquet is not a readable Parquet file: ")
    assert "\n" not in bad.reason
    assert str(tmp_path) not in bad.reason
    units, _ = read(root, tmp_path / "work")
    assert len(units) == 3
    assert quarantined(units) == {}


def test_staging_out_of_memory_is_one_line_blaming_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DuckDB running out of memory is said as such: no file is refused or read alone,
    and the message does not call the files unreadable."""
    root = small_log(tmp_path / "logs").write()
    monkeypatch.setattr(reader, "HAND_MAP_MEMORY", "1KB")
    alone = []
    monkeypatch.setattr(reader, "refuse_undecodable", lambda *a: alone.append(a) or [])
    with pytest.raises(AuditError) as raised:
        read(root, tmp_path / "work")
    assert raised.value.slug == "out-of-memory"
    message = str(raised.value)
    assert message.startswith("staging ran out of memory while reading the hands and games files: ")
    assert "Out of Memory" in message
    assert "\n" not in message
    assert str(tmp_path) not in message
    assert alone == []

def test_a_value_too_wide_for_the_contract_refuses_the_file(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs")
    root = logs.write(skip=["events"])
    data = arrow_table("events", logs.rows["events"])
    seq = pa.array([2**40, *range(1, data.num_rows)], pa.int64())
    write_table(root, "events", data.set_column(1, "seq", seq), "wide.parquet")
    write_table(root, "events", logs.rows["events"], "exact.parquet")
    (bad,) = open_log_root(root).bad_files
    assert bad.file == "events/wide.parquet"
    assert "column `seq` holds a value that does not fit int32" in bad.reason


def test_a_wide_file_is_range_checked_after_one_of_its_layout_passed(tmp_path: Path) -> None:
    """A layout is remembered as clean only when no column is wider than the contract's:
    a file writing `seq` as int64 with a value int32 cannot hold is refused though a file
    of the same layout, read before it, passed."""
    logs = small_log(tmp_path / "logs")
    root = logs.write(skip=["events"])
    data = arrow_table("events", logs.rows["events"])
    fits = pa.array(range(data.num_rows), pa.int64())
    wide = pa.array([2**40, *range(1, data.num_rows)], pa.int64())
    write_table(root, "events", data.set_column(1, "seq", fits), "a-fits.parquet")
    write_table(root, "events", data.set_column(1, "seq", wide), "b-wide.parquet")
    for _ in range(2):  # the second opening starts with the layouts the first remembered
        (bad,) = open_log_root(root).bad_files
        assert bad.file == "events/b-wide.parquet"


def test_a_nested_value_too_wide_refuses_the_file(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs")
    root = logs.write(skip=["hands"])
    data = arrow_table("hands", logs.rows["hands"])
    seat = pa.struct([("seat", pa.int64()), ("player_id", pa.string())])
    rows = [[{"seat": 300, "player_id": "p1"}]] * data.num_rows
    index = data.schema.get_field_index("seats")
    write_table(
        root, "hands", data.set_column(index, "seats", pa.array(rows, pa.list_(seat))), "x.parquet"
    )
    with pytest.raises(LogFormatError, match=r"column `seats\[\]\.seat` holds a value"):
        open_log_root(root)


def test_another_schema_version_stops_the_run(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs")
    root = logs.write(skip=["results"])
    data = arrow_table("results", logs.rows["results"])
    data = data.replace_schema_metadata({"rummy_audit.schema_version": "3"})
    write_table(root, "results", data, "part-0.parquet")
    with pytest.raises(
        SchemaVersionError, match=r"results/part-0\.parquet was written for schema version 3"
    ):
        open_log_root(root)


def test_a_file_without_a_version_is_read_as_version_1(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs")
    root = logs.write(skip=["games"])
    data = arrow_table("games", logs.rows["games"]).replace_schema_metadata(None)
    write_table(root, "games", data, "part-0.parquet")
    assert open_log_root(root).bad_files == []


def test_a_missing_required_table_stops_the_run(tmp_path: Path) -> None:
    root = small_log(tmp_path / "logs").write(skip=["events"])
    with pytest.raises(
        LogFormatError, match=r"no readable events/ table: there is no events/ folder"
    ):
        open_log_root(root)
    (root / "events").mkdir()
    with pytest.raises(LogFormatError, match=r"events/ holds no \.parquet file"):
        open_log_root(root)
    (root / "events" / "x.parquet").write_text("nope")
    with pytest.raises(LogFormatError, match=r"all 1 of its files were refused"):
        open_log_root(root)


def test_a_log_root_that_is_not_a_folder_stops_the_run(tmp_path: Path) -> None:
    with pytest.raises(LogFormatError, match="is not a folder"):
        open_log_root(tmp_path / "nowhere")


def test_input_files_carry_size_hash_and_rows(tmp_path: Path) -> None:
    import hashlib

    root = small_log(tmp_path / "logs").write()
    (games,) = open_log_root(root).files["games"]
    data = (root / games.path).read_bytes()
    assert (games.size, games.sha256, games.rows) == (
        len(data),
        hashlib.sha256(data).hexdigest(),
        3,
    )


# ---------------------------------------------------------------- rows


def test_an_unknown_card_quarantines_its_hand_only(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    logs.hand("h2").event("draw_stock").event("discard", "ZZ").result("p1").result("p2", "won")
    logs.quick_hand("h3")
    units, quarantine = read(logs.write(), tmp_path / "work")
    reason = "events row 6 of events/date=2026-11-29/part-0.parquet: card 'ZZ' is not a card code"
    assert quarantine == [
        QuarantineRow(
            "events", "events/date=2026-11-29/part-0.parquet", 6, "h2", "g1", "input.row", reason,
            seq=1, player_id="p1",  # the event's, for its finding (schemas/output.md, seq)
        )
    ]
    assert quarantined(units) == {"h2": reason}
    hands = hands_of(units)
    assert [e.seq for e in hands["h2"].events] == [0]
    assert len(hands["h1"].events) == len(hands["h3"].events) == 5


@pytest.mark.parametrize(
    ("table", "columns", "problem"),
    [
        ("events", {"action": "fold"}, "action 'fold' is not one of draw_stock, draw_discard,"),
        ("events", {"seq": -1}, "seq -1 is negative"),
        ("events", {"player_id": None}, "player_id is null, which only a reshuffle row may be"),
        ("events", {"auto": None}, "auto is null"),
        (
            "events",
            {"action": "drop", "card": None},
            "a drop row needs a reason (player, timeout, disconnect or left); reason is null",
        ),
        (
            "events",
            {"auto": True},
            "an automatic draw_stock row needs a reason (player, timeout, disconnect or left)",
        ),
        ("events", {"groups": [["AS", None]]}, "groups holds a null item"),
        ("events", {"groups": [["AS", "1S"]]}, "groups holds '1S', which is not a card code"),
        ("hands", {"shoe": ["AS", "th"]}, "shoe holds 'th', which is not a card code"),
        ("hands", {"wild_card": "10H"}, "wild_card '10H' is not a card code"),
        (
            "hands",
            {"seats": [{"seat": None, "player_id": "p1"}]},
            "seats holds a null item or field",
        ),
        (
            "hands",
            {"shuffle": {
                "algorithm": "sha256", "server_seed": None, "server_seed_hash": "ab",
                "client_seed": "c", "nonce": None,
            }},
            "shuffle holds a null field (server_seed, nonce)",
        ),
        ("hands", {"ended_at": None}, "ended_at is null"),
        ("hands", {"hand_no": 0}, "hand_no 0 is not a position: hands count from 1"),
        ("hands", {"hand_no": -2}, "hand_no -2 is not a position: hands count from 1"),
        ("results", {"outcome": "draw"}, "outcome 'draw' is not one of won, lost,"),
        ("results", {"points": None}, "points is null"),
    ],
)
def test_a_bad_row_quarantines_its_hand(
    tmp_path: Path, table: str, columns: dict[str, object], problem: str
) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").quick_hand("h2")
    row = next(r for r in logs.rows[table] if r["hand_id"] == "h2")
    row.update(columns)
    units, quarantine = read(logs.write(), tmp_path / "work")
    (bad,) = (q for q in quarantine if q.check == "input.row")
    assert (bad.table, bad.hand_id, bad.game_id) == (table, "h2", "g1")
    assert problem in bad.reason
    assert bad.reason.startswith(f"{table} row {bad.row} of {table}/")
    assert set(quarantined(units)) == {"h2"}
    assert quarantined(units)["h2"].startswith(bad.reason)


def test_a_reshuffle_marked_auto_needs_no_reason(tmp_path: Path) -> None:
    """log-format.md: `reason` says why for drop and auto actions, "the server acted for the
    player"; a reshuffle is the server's own, so one marked auto without a reason is
    read, not quarantined as an automatic row without its reason."""
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    logs.event("reshuffle", groups=[["AS"]], auto=True)
    _, quarantine = read(logs.write(), tmp_path / "work")
    assert [q for q in quarantine if q.check == "input.row"] == []


def test_a_null_hand_id_is_quarantined_as_a_row(tmp_path: Path) -> None:
    """schemas/README.md: a results row with a null hand_id is quarantined, and the hand
    lacking a results row for the player it names is quarantined with it, not judged (until
    2026-12-06 the hand was replayed into a score.outcome alarm: a blind tester)."""
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    player = logs.rows["results"][0]["player_id"]
    logs.rows["results"][0]["hand_id"] = None
    units, quarantine = read(logs.write(), tmp_path / "work")
    file = "results/date=2026-11-29/part-0.parquet"
    assert [(q.table, q.row, q.reason) for q in quarantine] == [
        ("results", 0, f"results row 0 of {file}: hand_id is null"),
        ("hands", None, f"hand h1 has no results row for {player}, and results row 0 of "
                        f"{file} has a null hand_id: it may be the missing row"),
    ]  # fmt: skip
    assert list(quarantined(units)) == ["h1"]
    assert [r.player for r in units[0].hands[0].results] == ["p2"]


def test_a_bad_games_row_quarantines_every_hand_of_its_game(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=2)
    logs.rows["games"][1]["chip_type"] = None
    units, quarantine = read(logs.write(), tmp_path / "work")
    row_reason = "games row 1 of games/date=2026-11-29/part-0.parquet: chip_type is null"
    assert quarantine[0] == QuarantineRow(
        "games", "games/date=2026-11-29/part-0.parquet", 1, None, "g1", "input.row", row_reason
    )
    assert units[1].game is None
    assert units[1].lost == f"its games row is quarantined ({row_reason})"
    assert units[0].game is not None
    assert quarantined(units) == {
        hand: f"hand {hand} is in game g1, whose games row is quarantined: {row_reason}"
        for hand in ("g1-h0", "g1-h1")
    }
    assert [q.hand_id for q in quarantine if q.check == "input.hand"] == ["g1-h0", "g1-h1"]


@pytest.mark.parametrize(
    ("column", "value", "problem"),
    [
        ("rake_pct", Decimal("-15.00"), "rake_pct -15.00 is not a percentage from 0 to 100"),
        ("rake_pct", Decimal("200.00"), "rake_pct 200.00 is not a percentage from 0 to 100"),
        ("entry_fee", Decimal("-10.00"), "entry_fee -10.00 is negative"),
        ("point_value", Decimal("-0.5000"), "point_value -0.5000 is negative"),
        ("printed_jokers", -1, "printed_jokers -1 is negative"),
        ("decks", 0, "decks 0 is less than 1, which no game has"),
        ("max_players", 1, "max_players 1 is less than 2, which no game has"),
        ("deals_count", 0, "deals_count 0 is not 2 or 3 (best of 2 or best of 3), which "
         "every deals game is"),
        # log-format.md: "2 = best of 2, 3 = best of 3" (a blind tester's 5 was judged as a
        # best of 5, its finding citing "after the game's deals (2 or 3)")
        ("deals_count", 5, "deals_count 5 is not 2 or 3 (best of 2 or best of 3), which "
         "every deals game is"),
    ],
)
def test_a_games_value_no_game_can_have_quarantines_its_game(
    tmp_path: Path, column: str, value: object, problem: str
) -> None:
    """log-format.md's games columns: a percentage fee, a buy-in and a point value in
    money, a shoe of 52-card decks, a table's size. A value none of them can take is the
    row's fault, said once, not read as given (a blind tester: a rake of -15 % gave "the
    prize of -17.50" and critical ledger alarms against an honest ledger)."""
    logs = small_log(tmp_path / "logs", games=2)
    logs.rows["games"][1][column] = value
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert (quarantine[0].table, quarantine[0].game_id, quarantine[0].check) == (
        "games", "g1", "input.row")
    assert quarantine[0].reason.endswith(problem)
    assert units[1].game is None
    assert units[0].game is not None


def test_a_duplicated_game_quarantines_its_hands(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=1)
    logs.rows["games"].append(dict(logs.rows["games"][0]))
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert [(q.row, q.reason) for q in quarantine[:2]] == [
        (0, "game g0 appears 2 times in games"),
        (1, "game g0 appears 2 times in games"),
    ]
    assert units[0].game is None
    assert set(quarantined(units)) == {"g0-h0", "g0-h1"}
    # both copies are quarantine rows; the duplicated key is one finding (a blind tester:
    # "game g0 appears 2 times in games" twice)
    from audit.logs.quarantine import input_findings

    found = [f.message for f in input_findings(quarantine) if f.hand_id is None]
    assert found.count("game g0 appears 2 times in games") == 1


# ---------------------------------------------------------------- hands


def test_a_hand_without_results_is_quarantined(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").hand("h2").turns(1)
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert quarantined(units) == {"h2": "hand h2 has no results"}
    assert quarantine == [
        QuarantineRow("hands", None, None, "h2", "g1", "input.hand", "hand h2 has no results")
    ]


def test_a_hand_without_events_is_quarantined(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").hand("h2").result("p1")
    units, _ = read(logs.write(), tmp_path / "work")
    assert quarantined(units) == {"h2": "hand h2 has no events"}


def test_a_duplicated_hand_id_is_yielded_once_and_both_rows_quarantined(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").hand("h1").quick_hand("h2")
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert [h.hand_id for u in units for h in u.hands] == ["h1", "h2"]
    reason = "hand h1 appears 2 times in hands"
    file = "hands/date=2026-11-29/part-0.parquet"
    assert quarantine == [
        QuarantineRow("hands", file, 0, "h1", "g1", "input.hand", reason),
        QuarantineRow("hands", file, 1, "h1", "g1", "input.hand", reason),
    ]
    assert quarantined(units) == {"h1": reason}
    assert hands_of(units)["h1"].hand_no == 1


@pytest.mark.parametrize(
    ("seqs", "problem"),
    [
        ([0, 1, 3], "hand h1 events jump from seq 1 to 3"),
        ([0, 1, 1, 2], "hand h1 events repeat seq 1"),
        ([2, 3], "hand h1 events start at seq 2, not 0"),
    ],
)
def test_events_must_number_0_1_2(tmp_path: Path, seqs: list[int], problem: str) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").hand("h1")
    for seq in seqs:
        logs.event("draw_stock", seq=seq)
    logs.result("p1").result("p2", "won").quick_hand("h2")
    units, quarantine = read(logs.write(split_events_into=2, shuffle_files=True), tmp_path / "work")
    assert quarantined(units) == {"h1": problem}
    assert [e.seq for e in hands_of(units)["h1"].events] == sorted(seqs)
    assert [q.reason for q in quarantine] == [problem]


def test_a_repeated_seq_is_quarantined_naming_the_row_that_repeats_it(tmp_path: Path) -> None:
    """The hand's quarantine row names the events row that repeats the seq (the later in
    the input), so the platform can find it; a gap names no row (the row is missing)."""
    logs = LogBuilder(tmp_path / "logs").game("g1").hand("h1")
    for seq in (0, 1, 1, 2):
        logs.event("draw_stock", seq=seq)
    logs.result("p1").result("p2", "won")
    logs.hand("h2")
    for seq in (0, 2):
        logs.event("draw_stock", seq=seq)
    logs.result("p1").result("p2", "won")
    _, quarantine = read(logs.write(), tmp_path / "work")
    events = f"events/{PARTITION}/part-0.parquet"
    assert [(q.table, q.file, q.row, q.hand_id) for q in quarantine] == [
        ("events", events, 2, "h1"),
        ("hands", None, None, "h2"),
    ]


def test_a_players_repeated_results_row_is_named_by_the_quarantine(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").result("p2", "won")
    _, quarantine = read(logs.write(), tmp_path / "work")
    rows = pq.read_table(next((tmp_path / "logs" / "results").rglob("*.parquet"))).to_pylist()
    [q] = quarantine
    assert (q.table, q.file, q.hand_id) == ("results", f"results/{PARTITION}/part-0.parquet", "h1")
    assert q.row is not None
    assert rows[q.row]["player_id"] == "p2"
    assert [r["player_id"] for r in rows[: q.row]].count("p2") == 1


def test_repeated_seqs_keep_their_input_order(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").hand("h1").event("draw_stock")
    logs.event("discard", "AS", seq=1).event("discard", "KS", seq=1).result("p1")
    units, _ = read(logs.write(), tmp_path / "work")
    assert [e.card for e in units[0].hands[0].events[1:]] == [CODE_OF["AS"], CODE_OF["KS"]]


@pytest.mark.parametrize(
    ("players", "problem"),
    [([], "hand h1 has no seats"), (["p1", "p2", "p1"], "hand h1 seats player p1 2 times")],
)
def test_seats_must_name_distinct_players(tmp_path: Path, players: list[str], problem: str) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").hand("h1", players=players).turns(1)
    logs.result("p1").result("p2")
    units, _ = read(logs.write(), tmp_path / "work")
    assert quarantined(units) == {"h1": problem}


def test_a_hand_seating_more_players_than_any_table_is_quarantined_end_to_end(
    tmp_path: Path,
) -> None:
    """128 seats (no rummy table seats more than six) crashed the run as it wrote
    hands.parquet's int8 ``players`` (a blind tester): now the hand is quarantined with
    the reason and the night's other hands are replayed."""
    crowd = [f"p{i}" for i in range(128)]
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h0")
    seats = [{"seat": i % 100 + 1, "player_id": p} for i, p in enumerate(crowd)]  # int8 seats
    logs.hand("h1", players=crowd, seats=seats, wild_card="AS", open_card="KS").turns(1)
    logs.result("p0").result("p1")
    summary = replay_logs(logs=logs.write(), out=tmp_path / "out", workers=1, progress=False)
    hands = pq.read_table(tmp_path / "out" / "hands.parquet").to_pylist()
    assert {h["hand_id"]: h["status"] for h in hands} == {"h0": "verified", "h1": "quarantined"}
    (row,) = pq.read_table(tmp_path / "out" / "quarantine.parquet").to_pylist()
    assert "hand h1 seats 128 players, more than any table holds" in row["reason"]
    assert (summary.hands["verified"], summary.hands["quarantined"]) == (1, 1)


def test_two_results_rows_for_one_player_quarantine_the_hand(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1").result("p2", "won")
    units, _ = read(logs.write(), tmp_path / "work")
    assert quarantined(units) == {"h1": "hand h1 has 2 results rows for player p2"}


def test_a_hand_of_an_unknown_game_is_quarantined(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=1)
    logs.game("g7").quick_hand("h7")
    logs.rows["games"].pop()
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert [(u.game_id, u.game) for u in units[1:]] == [("g7", None)]
    assert quarantined(units) == {"h7": "hand h7 names game g7, which games does not hold"}
    # why the game's own checks do not run: its game.unchecked (schemas/README.md)
    assert [u.lost for u in units] == [None, "the games table holds no row of it"]
    assert [q.hand_id for q in quarantine] == ["h7"]


def test_a_hand_with_a_null_game_is_yielded_under_an_empty_game_id(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=1)
    logs.rows["hands"][0]["game_id"] = None
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert [(u.game_id, [h.hand_id for h in u.hands]) for u in units] == [
        ("", ["g0-h0"]),
        ("g0", ["g0-h1"]),
    ]
    assert quarantined(units)["g0-h0"].endswith("game_id is null")
    assert [q.check for q in quarantine] == ["input.row"]


def test_rows_naming_no_hand_or_game_are_quarantined_not_yielded(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=1)
    for seq in (0, 1):
        logs.event("draw_stock", hand_id="h9", seq=seq)
    logs.result("p1", hand_id="h8")
    logs.row(
        "ledger", game_id="g5", player_id="p1", kind="prize", amount=Decimal(1), ts=logbuilder.T0
    )
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert set(hands_of(units)) == {"g0-h0", "g0-h1"}
    assert [(q.table, q.hand_id, q.game_id, q.check, q.reason) for q in quarantine] == [
        (
            "results",
            "h8",
            None,
            "input.hand",
            "rows of results (1 row) name hand h8, which hands does not hold",
        ),
        (
            "events",
            "h9",
            None,
            "input.hand",
            "rows of events (2 rows) name hand h9, which hands does not hold",
        ),
        (
            "ledger",
            None,
            "g5",
            "input.row",
            "rows of ledger (1 row) name game g5, which games does not hold",
        ),
    ]


def test_every_input_hand_is_yielded_once_whatever_is_wrong(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=6)
    logs.rows["events"][3]["card"] = "??"
    logs.rows["results"][5]["outcome"] = None
    logs.rows["hands"][4]["shoe"] = []
    logs.rows["hands"].append(dict(logs.rows["hands"][7]))
    logs.rows["games"][2]["format"] = "rummy"
    logs.game("g8").hand("h8").hand("h9").turns(1)
    logs.rows["events"].append({**logs.rows["events"][0], "hand_id": "orphan"})
    units, quarantine = read(
        logs.write(split_events_into=3, shuffle_files=True), tmp_path / "w", target_rows=10
    )
    yielded = Counter(h.hand_id for u in units for h in u.hands)
    assert yielded == Counter({row["hand_id"] for row in logs.rows["hands"]})
    noted = {q.hand_id for q in quarantine}
    assert set(quarantined(units)) <= noted


def test_two_runs_give_identical_records_and_quarantine(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=5)
    logs.rows["events"][2]["seq"] = 0
    logs.rows["events"][12]["card"] = "X"
    logs.rows["hands"].append(dict(logs.rows["hands"][3]))
    root = logs.write(split_events_into=4, shuffle_files=True)
    first = read(root, tmp_path / "a", target_rows=15)
    second = read(root, tmp_path / "b", target_rows=15)
    assert first == second
    assert first[1]



def test_a_night_staged_in_passes_gives_the_records_of_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A night of more than ``duck.HANDS_PER_PASS`` hands rows stages its hands, events and
    results in passes over runs of their files: the same units and quarantine as one
    pass, with a hand's two rows in different passes, an orphan, and bad rows."""
    logs = small_log(tmp_path / "logs", games=12, hands=3)
    logs.rows["events"][3]["card"] = "??"
    logs.rows["results"][5]["outcome"] = None
    logs.rows["hands"].append(dict(logs.rows["hands"][7]))  # in the last hands file
    logs.rows["events"].append({**logs.rows["events"][0], "hand_id": "orphan"})
    root = logs.write(split_events_into=5, split_hands_into=4, shuffle_files=True)
    one = read(root, tmp_path / "one", target_rows=40)
    views = []
    monkeypatch.setattr(duck, "HANDS_PER_PASS", 9)
    real = reader._pass_views
    monkeypatch.setattr(
        reader, "_pass_views", lambda con, log, table, files, *rest: views.append(
            (table, files)) or real(con, log, table, files, *rest)
    )  # fmt: skip
    passes = read(root, tmp_path / "passes", target_rows=40)
    assert passes == one
    assert {q.reason for q in one[1]} >= {
        "hand g2-h1 appears 2 times in hands",
        "rows of events (1 row) name hand orphan, which hands does not hold",
    }
    for table, files in (("events", 5), ("hands", 4), ("results", 4)):
        runs = [run for name, run in views if name == table]  # in order, every file once
        assert len(runs) >= 3, (table, runs)
        assert (runs[0][0], runs[-1][1]) == (0, files)
        assert all(a[1] == b[0] for a, b in pairwise(runs)), runs


# ---------------------------------------------------------------- validate


@pytest.mark.parametrize("module", [validate, logbuilder, reader, errors])
def test_doctests(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


@given(
    st.one_of(
        st.sampled_from(CODE_TEXT),
        st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=3),
    )
)
def test_sql_card_codes_are_the_engine_codes(text: str) -> None:
    column = load_contract()["events"].column("card")
    expr = validate.card_codes_sql(column).replace('"card"', "?")
    (code,) = duckdb.execute(f"SELECT {expr}", [text]).fetchone() or (None,)
    assert code == CODE_OF.get(text)


def test_game_rows_sessions_and_their_bad_rows(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=2)
    event = {"after_hand_no": 1, "ts": logbuilder.T0, "player_id": "p1", "score": 80}
    logs.row("game_events", game_id="g0", seq=1, action="rebuy", split_kind=None, **event)
    logs.row("game_events", game_id="g0", seq=2, action="rebuy", split_kind="both", **event)
    logs.row("game_events", game_id="g1", seq=1, action="rebuy", split_kind=None, **event)
    ledger = {"player_id": "p1", "kind": "prize", "ts": logbuilder.T0}
    logs.row("ledger", game_id="g1", amount=Decimal("2.50"), **ledger)
    logs.row("ledger", game_id="g1", amount=None, **ledger)
    session = {"player_id": "p1", "ip": "h1", "device_id": "d1", "left_at": logbuilder.T0}
    logs.row("sessions", game_id="g0", client="app", joined_at=logbuilder.T0, **session)
    logs.row("sessions", game_id="g0", client="tv", joined_at=logbuilder.T0, **session)
    logs.rows["games"][1]["format"] = "rummy"
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert [(q.table, q.row, q.game_id, q.reason.split(": ", 1)[1]) for q in quarantine[:4]] == [
        ("games", 1, "g1", "format 'rummy' is not one of points, pool_101, pool_201, deals, match"),
        ("game_events", 1, "g0", "split_kind 'both' is not one of manual, auto"),
        ("ledger", 1, "g1", "amount is null"),
        ("sessions", 1, "g0", "client 'tv' is not one of app, web"),
    ]
    strays = [(q.table, q.game_id, q.check, q.reason) for q in quarantine[4:6]]
    assert strays == [
        (
            "game_events",
            "g1",
            "input.row",
            "rows of game_events (1 row) and ledger (2 rows) name game g1, whose games row is "
            "quarantined",
        ),
        (
            "ledger",
            "g1",
            "input.row",
            "rows of game_events (1 row) and ledger (2 rows) name game g1, whose games row is "
            "quarantined",
        ),
    ]
    game = units[0].game
    assert game is not None
    assert [e.seq for e in game.game_events] == [1]
    assert game.ledger == []


def test_a_session_that_closes_before_it_opens_is_quarantined(tmp_path: Path) -> None:
    """schemas/README.md (a row is quarantined when it breaks the contract) and
    schemas/sessions.json: `joined_at` is when the connection opened, `left_at` when it
    closed, so a row whose `left_at` is before its `joined_at` is one `input.row` saying
    so; a connection of no length (equal times) is kept."""
    logs = small_log(tmp_path / "logs", games=1)
    later = logbuilder.T0 + timedelta(minutes=30)
    session = {"game_id": "g0", "client": "app", "ip": "h1", "device_id": "d1"}
    logs.row("sessions", player_id="p1", joined_at=logbuilder.T0, left_at=later, **session)
    logs.row("sessions", player_id="p2", joined_at=later, left_at=logbuilder.T0, **session)
    logs.row("sessions", player_id="p3", joined_at=later, left_at=later, **session)
    _, quarantine = read(logs.write(), tmp_path / "work")
    assert [(q.table, q.row, q.game_id, q.check, q.reason.split(": ", 1)[1])
            for q in quarantine] == [
        ("sessions", 1, "g0", "input.row",
         "left_at 2026-11-29 18:00:00 UTC is before joined_at 2026-11-29 18:30:00 UTC"),
    ]  # fmt: skip


def test_file_names_with_glob_characters_are_read_as_named(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs[1]")
    root = logs.write(skip=["events"])
    write_table(root, "events", logs.rows["events"][:5], "part[1].parquet")
    write_table(root, "events", logs.rows["events"][5:], "part1.parquet")
    write_table(root, "events", [], "part?.parquet")
    units, quarantine = read(root, tmp_path / "work*")
    assert quarantine == []
    assert sum(len(h.events) for h in hands_of(units).values()) == len(logs.rows["events"])


def test_an_events_table_of_empty_files_leaves_every_hand_without_events(tmp_path: Path) -> None:
    logs = small_log(tmp_path / "logs", games=1)
    logs.rows["events"].clear()
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert quarantined(units) == {h: f"hand {h} has no events" for h in ("g0-h0", "g0-h1")}
    assert len(quarantine) == 2


def test_one_game_can_be_staged_alone_with_the_same_records(tmp_path: Path) -> None:
    root = small_log(tmp_path / "logs", games=6, hands=3).write(split_events_into=2)
    every, _ = read(root, tmp_path / "work")
    log = open_log_root(root)
    wanted = every[3]
    assert game_of_hand(log, wanted.hands[1].hand_id) == (True, wanted.game_id)
    assert game_of_hand(log, "no such hand") == (False, None)
    quarantine: list[QuarantineRow] = []
    with staging(log, quarantine=quarantine, workdir=tmp_path, game=wanted.game_id) as stage:
        alone = [unit for batch in read_bucket(stage, 0, quarantine) for unit in batch]
    assert alone == [wanted]
    assert quarantine == []


@given(st.lists(st.one_of(st.none(), st.sampled_from(["p1", "p2", "draw_stock", "", "é"]))))
def test_a_string_column_reaches_python_as_its_values_with_one_object_per_value(
    values: list[str | None],
) -> None:
    """``bucket._shared`` gives what ``to_list`` gives, nulls included, and each distinct
    string is one object however many rows hold it."""
    series = pl.Series(values, dtype=pl.String)
    out = bucket._shared(series)
    assert out == series.to_list()
    assert len({id(v) for v in out if v is not None}) == len({v for v in out if v is not None})


def test_a_decimal_column_reaches_python_as_the_same_decimals() -> None:
    """Amounts keep their scale and sign (``Decimal('-0.50')``, not ``-0.5``)."""
    amounts = [Decimal("-0.50"), Decimal("0.00"), None, Decimal("123456789012.34"),
               Decimal("-0.50")]  # fmt: skip
    series = pl.Series(amounts, dtype=pl.Decimal(18, 2))
    out = bucket._shared(series)
    assert [repr(v) for v in out] == [repr(v) for v in series.to_list()]
    assert out[0] is out[4]


def test_a_games_ledger_rows_of_one_instant_come_in_the_order_of_what_they_hold(
    tmp_path: Path,
) -> None:
    """Rows of one game at one instant are ordered by kind, player and amount, not by the
    files' order, so the same rows written in another order give the same records (and
    explain's ledger the same bytes: a blind tester's shuffled chunks reordered it)."""
    rows = [("p2", "points_settlement", "-4.00"), (None, "rake", "1.00"),
            ("p1", "points_settlement", "3.00")]  # fmt: skip
    ledgers = []
    for name, order in (("a", rows), ("b", rows[::-1])):
        logs = small_log(tmp_path / name, games=1, hands=1)
        for player, kind, amount in order:
            logs.row("ledger", game_id="g0", player_id=player, kind=kind,
                     amount=Decimal(amount), ts=logbuilder.T0)  # fmt: skip
        units, _ = read(logs.write(), tmp_path / f"work-{name}")
        ledgers.append([(r.player, r.kind, str(r.amount)) for r in units[0].game.ledger])
    assert ledgers[0] == ledgers[1] == [("p1", "points_settlement", "3.00"),
                                        ("p2", "points_settlement", "-4.00"),
                                        (None, "rake", "1.00")]  # fmt: skip


def test_log_contract_a_hand_whose_events_and_results_name_no_hands_row_is_one_finding(
    tmp_path: Path,
) -> None:
    """log-format.md (events and results rows name a hand of `hands`): hand h9's events and
    results rows name a hand the hands table does not hold (its hands file lost, say). Each
    table's rows are a quarantine row of their own, and the hand is one `input.hand`
    finding naming both (schemas/README.md; a blind tester: an unreadable hands file was
    two findings for each of its 334 hands)."""
    from audit.logs.quarantine import input_findings

    logs = small_log(tmp_path / "logs", games=1)
    logs.event("draw_stock", hand_id="h9", seq=0)
    logs.result("p1", hand_id="h9")
    _, quarantine = read(logs.write(), tmp_path / "work")
    reason = "rows of events (1 row) and results (1 row) name hand h9, which hands does not hold"
    assert [(q.table, q.hand_id, q.reason) for q in quarantine] == [
        ("events", "h9", reason), ("results", "h9", reason)]
    (found,) = input_findings(quarantine)
    assert (found.check, found.hand_id, found.message) == ("input.hand", "h9", reason)
