"""Log contract version 2 (schemas/README.md, "What changed in version 2"): the open-melds
game's `match` format, its actions and the optional `events.meld` column; version 1 files
still read unchanged, a newer version is refused, and a new action's row without what it
needs quarantines its hand with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.cards import CODE_OF
from audit.errors import LogFormatError, SchemaVersionError
from audit.logs.contract import SCHEMA_VERSION, check_schema, conform, load_contract
from audit.logs.reader import QuarantineRow, iter_units, open_log_root
from audit.records import Action, Event, Format, GameUnit, Hand
from tests.logs.logbuilder import PARTITION, LogBuilder, arrow_table

EVENTS_FILE = f"events/{PARTITION}/part-0.parquet"
V2_ACTIONS = ("lay", "lay_off", "swap_joker", "take_cut", "return_cut")


def read(root: Path, work: Path) -> tuple[list[GameUnit], list[QuarantineRow]]:
    log = open_log_root(root)
    quarantine = list(log.bad_files)
    work.mkdir(exist_ok=True)
    units = [u for batch in iter_units(log, quarantine=quarantine, workdir=work) for u in batch]
    return units, quarantine


def hands_of(units: list[GameUnit]) -> dict[str, Hand]:
    return {hand.hand_id: hand for unit in units for hand in unit.hands}


def as_version_1(path: Path, version: str | None) -> None:
    """Rewrite a written file as a version 1 platform writes it: no `meld` column, and the
    metadata saying "1" or nothing."""
    table = pq.read_table(path)
    if "meld" in table.column_names:
        table = table.drop_columns(["meld"])
    metadata = None if version is None else {"rummy_audit.schema_version": version}
    pq.write_table(table.replace_schema_metadata(metadata), path)


def open_melds_log(root: Path) -> LogBuilder:
    """A `match` game of two hands: h1 plays every version 2 action, h2 is a plain hand.

    h1's cut card (`hands.wild_card`) is the shoe's card 26 (two players, 13 cards)."""
    logs = LogBuilder(root).game("g1", format="match")
    logs.hand("h1")
    cut = logs.rows["hands"][-1]["wild_card"]
    logs.event("draw_stock")
    logs.event("lay", groups=[["5S", "6S", "7S"], ["9D", "9C", "9H"]])
    logs.event("discard")
    logs.event("take_cut", cut).event("return_cut", cut).event("draw_stock")
    logs.event("lay", groups=[["QH", "KH", "AH"]])
    logs.event("discard")
    logs.event("draw_stock")
    logs.event("lay_off", "8S", meld=0)
    logs.event("swap_joker", "TH", meld=2)
    logs.event("discard")
    logs.result("p1", "won", 0).result("p2", "lost", 40)
    return logs.quick_hand("h2")


# ---------------------------------------------------------------- versions


def test_the_contract_is_version_2() -> None:
    assert SCHEMA_VERSION == 2
    events = load_contract()["events"]
    meld = events.column("meld")
    assert (meld.type, meld.nullable, meld.optional) == ("int16", True, True)
    assert events.columns[-1] is meld
    assert [c.name for c in events.columns if c.optional] == ["meld"]
    assert set(V2_ACTIONS) < set(events.column("action").values)
    assert "match" in load_contract()["games"].column("format").values


@pytest.mark.parametrize("version", [None, "1"])
def test_a_version_1_log_reads_unchanged_with_meld_null(
    tmp_path: Path, version: str | None
) -> None:
    v2 = LogBuilder(tmp_path / "v2").game("g1").quick_hand("h1").quick_hand("h2")
    v1 = LogBuilder(tmp_path / "v1").game("g1").quick_hand("h1").quick_hand("h2")
    root = v1.write()
    for path in root.rglob("*.parquet"):
        as_version_1(path, version)
    assert "meld" not in pq.read_schema(root / EVENTS_FILE).names
    units, quarantine = read(root, tmp_path / "work")
    expected, _ = read(v2.write(), tmp_path / "work2")
    assert quarantine == []
    assert units == expected
    events = [e for hand in hands_of(units).values() for e in hand.events]
    assert len(events) == 10
    assert all(e.meld is None for e in events)
    first = v1.rows["events"][0]
    assert events[0] == Event(0, "p1", "draw_stock", CODE_OF[first["card"]], None, False, None)


def test_a_version_2_log_reads_the_new_actions_melds_and_format(tmp_path: Path) -> None:
    logs = open_melds_log(tmp_path / "logs")
    root = logs.write()
    assert pq.read_schema(root / EVENTS_FILE).metadata[b"rummy_audit.schema_version"] == b"2"
    units, quarantine = read(root, tmp_path / "work")
    assert quarantine == []
    (unit,) = units
    assert unit.game is not None
    assert unit.game.format == Format.MATCH == "match"
    hands = hands_of(units)
    assert hands["h1"].quarantine is None
    assert hands["h2"].quarantine is None
    cut = CODE_OF[logs.rows["hands"][0]["wild_card"]]
    assert hands["h1"].wild == cut
    got = [(e.action, e.card, e.groups, e.meld) for e in hands["h1"].events]
    codes = [[[CODE_OF[c] for c in g] for g in row["groups"]] for row in logs.rows["events"][1:7:5]]
    assert [action for action, *_ in got] == [
        "draw_stock", "lay", "discard", "take_cut", "return_cut", "draw_stock", "lay",
        "discard", "draw_stock", "lay_off", "swap_joker", "discard",
    ]  # fmt: skip
    assert got[1] == (Action.LAY, -1, codes[0], None)
    assert got[3] == (Action.TAKE_CUT, cut, None, None)
    assert got[4] == (Action.RETURN_CUT, cut, None, None)
    assert got[6] == (Action.LAY, -1, codes[1], None)
    assert got[9] == (Action.LAY_OFF, CODE_OF["8S"], None, 0)
    assert got[10] == (Action.SWAP_JOKER, CODE_OF["TH"], None, 2)
    assert all(e.meld is None for e in hands["h2"].events)


def test_version_1_and_version_2_events_files_read_together(tmp_path: Path) -> None:
    logs = open_melds_log(tmp_path / "logs")
    root = logs.write(split_events_into=2)
    first = next(root.glob(f"events/{PARTITION}/hour=00/*.parquet"))
    as_version_1(first, None)  # h1's first rows, without `meld`
    units, quarantine = read(root, tmp_path / "work")
    assert quarantine == []
    melds = [e.meld for e in hands_of(units)["h1"].events]
    assert melds == [None] * 9 + [0, 2, None]


def test_a_newer_version_is_refused_with_its_one_line_message(tmp_path: Path) -> None:
    root = open_melds_log(tmp_path / "logs").write()
    table = pq.read_table(root / EVENTS_FILE)
    pq.write_table(
        table.replace_schema_metadata({"rummy_audit.schema_version": "3"}), root / EVENTS_FILE
    )
    with pytest.raises(SchemaVersionError) as refused:
        read(root, tmp_path / "work")
    assert str(refused.value) == (
        f"{EVENTS_FILE} was written for schema version 3; this audit reads version 2"
    )


# ---------------------------------------------------------------- the meld column


def test_check_schema_and_conform_take_a_file_without_meld() -> None:
    rows: list[dict[str, Any]] = [
        {"hand_id": "h1", "seq": 0, "ts": None, "player_id": "p1", "action": "lay_off",
         "card": "AS", "groups": None, "auto": False, "reason": None, "meld": 3},
    ]  # fmt: skip
    table = arrow_table("events", rows)
    without = table.drop_columns(["meld"])
    assert check_schema("events", without.schema, source="e.parquet") == []
    assert conform("events", without).column("meld").to_pylist() == [None]
    assert conform("events", without).schema.equals(load_contract()["events"].arrow_schema)
    assert conform("events", table).column("meld").to_pylist() == [3]


@pytest.mark.parametrize(
    ("dtype", "values", "problem"),
    [
        (
            pa.string(),
            ["0"],
            "column `meld` is string, but the contract's type is int16; write a signed integer"
            " of any width",
        ),
        (pa.uint16(), [0], "column `meld` is uint16, but the contract's type is int16"),
        (
            pa.int64(),
            [40_000],
            "column `meld` holds a value that does not fit int16: Integer value 40000 not in range",
        ),
    ],
)
def test_a_meld_column_that_is_not_int16_refuses_the_file(
    tmp_path: Path, dtype: pa.DataType, values: list[object], problem: str
) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1").quick_hand("h1")
    root = logs.write()
    table = pq.read_table(root / EVENTS_FILE)
    column = pa.array(values * table.num_rows, dtype)
    table = table.set_column(table.column_names.index("meld"), "meld", column)
    pq.write_table(table, root / EVENTS_FILE)
    with pytest.raises(LogFormatError) as refused:  # events' one file: none readable left
        read(root, tmp_path / "work")
    assert f"the first because {EVENTS_FILE}: {problem}" in str(refused.value)


def test_a_narrower_meld_column_reads(tmp_path: Path) -> None:
    logs = open_melds_log(tmp_path / "logs")
    root = logs.write()
    table = pq.read_table(root / EVENTS_FILE)
    meld = table.column("meld").cast(pa.int8())
    table = table.set_column(table.column_names.index("meld"), "meld", meld)
    pq.write_table(table, root / EVENTS_FILE)
    units, quarantine = read(root, tmp_path / "work")
    assert quarantine == []
    assert [e.meld for e in hands_of(units)["h1"].events][9:11] == [0, 2]


# ---------------------------------------------------------------- row rules


@pytest.mark.parametrize(
    ("seq", "columns", "problem"),
    [
        (1, {"groups": None}, "a lay row needs groups (its new melds, none empty); groups is null"),
        (1, {"groups": []}, "a lay row needs groups (its new melds, none empty); groups is empty"),
        (
            1,
            {"groups": [["5S", "6S", "7S"], []]},
            "a lay row needs groups (its new melds, none empty); groups holds an empty meld",
        ),
        (9, {"card": None}, "a lay_off row needs a card; card is null"),
        (9, {"meld": None}, "a lay_off row needs a meld (the table meld it targets); meld is null"),
        (10, {"card": None}, "a swap_joker row needs a card; card is null"),
        (
            10,
            {"meld": None},
            "a swap_joker row needs a meld (the table meld it targets); meld is null",
        ),
        (3, {"card": None}, "a take_cut row needs a card; card is null"),
        (4, {"card": None}, "a return_cut row needs a card; card is null"),
        (9, {"meld": -1}, "meld -1 is negative"),
        (9, {"card": "8s"}, "card '8s' is not a card code"),
        (9, {"action": "lay_of"}, "action 'lay_of' is not one of draw_stock, draw_discard,"),
    ],
)
def test_a_new_action_without_what_it_needs_quarantines_its_hand(
    tmp_path: Path, seq: int, columns: dict[str, object], problem: str
) -> None:
    logs = open_melds_log(tmp_path / "logs")
    row = next(r for r in logs.rows["events"] if r["hand_id"] == "h1" and r["seq"] == seq)
    row.update(columns)
    units, quarantine = read(logs.write(), tmp_path / "work")
    reason = f"events row {seq} of {EVENTS_FILE}: {problem}"
    (bad,) = quarantine
    assert (bad.table, bad.file, bad.row, bad.hand_id, bad.game_id, bad.check) == (
        "events", EVENTS_FILE, seq, "h1", "g1", "input.row"
    )  # fmt: skip
    assert bad.reason.startswith(reason)
    hands = hands_of(units)
    assert hands["h1"].quarantine is not None
    assert hands["h1"].quarantine.startswith(reason)
    assert hands["h2"].quarantine is None


def test_a_lay_with_a_card_or_a_discard_with_a_meld_is_not_a_row_problem(tmp_path: Path) -> None:
    """The row rules ask only for what an action needs; what else a row holds is the
    replay's to judge."""
    logs = open_melds_log(tmp_path / "logs")
    logs.rows["events"][1]["card"] = "5S"
    logs.rows["events"][2]["meld"] = 1
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert quarantine == []
    assert hands_of(units)["h1"].quarantine is None


def test_a_match_game_is_accepted_and_an_unknown_format_is_not(tmp_path: Path) -> None:
    logs = LogBuilder(tmp_path / "logs").game("g1", format="match").quick_hand("h1")
    logs.game("g2", format="matches").quick_hand("h2")
    units, quarantine = read(logs.write(), tmp_path / "work")
    assert [(q.table, q.game_id) for q in quarantine] == [("games", "g2"), ("hands", "g2")]
    assert "format 'matches' is not one of points, pool_101, pool_201, deals, match" in (
        quarantine[0].reason
    )
    games = {u.game_id: u.game for u in units}
    assert games["g1"] is not None
    assert games["g1"].format == "match"
    assert games["g2"] is None
