"""Type strings, file schemas and casts against the log contract."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.errors import LogFormatError, SchemaVersionError
from audit.logs.contract import (
    TABLES,
    check_schema,
    conform,
    file_schema_version,
    load_contract,
    parse_type,
    type_name,
)

SOURCE = "x/part-0.parquet"
USED_TYPES = sorted({c.type for t in load_contract().values() for c in t.columns})


def sample_value(dtype: pa.DataType) -> object:
    """One valid value of a contract type: lists of one item, card-shaped strings."""
    if pa.types.is_struct(dtype):
        return {field.name: sample_value(field.type) for field in dtype}
    if pa.types.is_list(dtype):
        return [sample_value(dtype.value_type)]
    if pa.types.is_string(dtype):
        return "AS"
    if pa.types.is_boolean(dtype):
        return True
    if pa.types.is_integer(dtype):
        return 7
    if pa.types.is_decimal(dtype):
        return Decimal(1).scaleb(-dtype.scale)
    return datetime(2026, 11, 29, 18, 0, 5, tzinfo=UTC)


def sample_table(table: str) -> pa.Table:
    schema = load_contract()[table].arrow_schema
    row = {field.name: sample_value(field.type) for field in schema}
    return pa.Table.from_pylist([row], schema=schema)


def with_field(schema: pa.Schema, name: str, dtype: pa.DataType | None) -> pa.Schema:
    """`schema` with column `name` retyped, or dropped when `dtype` is None."""
    index = schema.get_field_index(name)
    if dtype is None:
        return schema.remove(index)
    return schema.set(index, pa.field(name, dtype))


def exact(table: str) -> pa.Schema:
    return load_contract()[table].arrow_schema


# parse_type and type_name


@pytest.mark.parametrize("text", USED_TYPES)
def test_every_used_type_round_trips(text: str) -> None:
    assert type_name(parse_type(text)) == text


def test_used_types_parse_to_the_arrow_types_they_name() -> None:
    seat = pa.struct([("seat", pa.int8()), ("player_id", pa.string())])
    assert parse_type("list<struct<seat: int8, player_id: string>>") == pa.list_(seat)
    assert parse_type("list<list<string>>") == pa.list_(pa.list_(pa.string()))
    assert parse_type("decimal128(18,2)") == pa.decimal128(18, 2)
    assert parse_type("timestamp[ms, tz=UTC]") == pa.timestamp("ms", tz="UTC")
    assert parse_type("bool") == pa.bool_()


_names = st.from_regex(r"[a-z_][a-z0-9_]{0,7}", fullmatch=True)
_leaves = st.one_of(
    st.sampled_from([pa.string(), pa.bool_(), pa.int8(), pa.int16(), pa.int32(), pa.int64()]),
    st.integers(1, 38).flatmap(lambda p: st.integers(0, p).map(lambda s: pa.decimal128(p, s))),
    st.builds(
        pa.timestamp,
        st.sampled_from(["s", "ms", "us", "ns"]),
        tz=st.sampled_from([None, "UTC", "Etc/UTC", "+00:00"]),
    ),
)
_types = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        inner.map(pa.list_),
        st.lists(st.tuples(_names, inner), min_size=1, max_size=4, unique_by=lambda f: f[0]).map(
            pa.struct
        ),
    ),
    max_leaves=8,
)


@given(_types)
def test_type_name_and_parse_type_are_inverse(dtype: pa.DataType) -> None:
    assert parse_type(type_name(dtype)) == dtype


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("str", "unknown type 'str' at character 1"),
        ("list<string", "expected '>' at character 12"),
        ("list<>", "expected a type name at character 6"),
        ("decimal128(18)", "expected ',' at character 14"),
        ("decimal128(40,2)", "a decimal128 needs 1 <= precision <= 38 and scale <= precision"),
        ("timestamp[hours]", "time unit 'hours' is not one of s, ms, us, ns"),
        ("struct<a: int8, a: bool>", "field 'a' appears twice"),
        ("string string", "unexpected 'string'"),
        ("", "expected a type name at character 1"),
    ],
)
def test_a_bad_type_string_is_refused_with_where_and_why(text: str, problem: str) -> None:
    with pytest.raises(LogFormatError) as refused:
        parse_type(text)
    message = str(refused.value)
    assert message.startswith(f"{text!r} is not a contract type: {problem}")
    assert message.endswith(
        "the grammar is string, bool, int8|int16|int32|int64, decimal128(P,S),"
        " timestamp[unit, tz=Zone], list<T> or struct<name: T, ...>"
    )
    assert "\n" not in message


# check_schema


@pytest.mark.parametrize("table", TABLES)
def test_the_exact_schema_passes(table: str) -> None:
    assert check_schema(table, exact(table), source=SOURCE) == []


@pytest.mark.parametrize("table", TABLES)
def test_a_polars_written_file_passes_and_conforms(table: str, tmp_path: Path) -> None:
    original = sample_table(table)
    path = tmp_path / "part-0.parquet"
    frame = pl.from_arrow(original)
    assert isinstance(frame, pl.DataFrame)
    frame.write_parquet(path, metadata={"rummy_audit.schema_version": "1"})
    written = pq.read_table(path)
    assert any(pa.types.is_large_string(field.type) for field in written.schema)
    assert file_schema_version(written.schema.metadata, SOURCE) == 1
    assert check_schema(table, written.schema, source=SOURCE) == []
    assert conform(table, written, source=SOURCE).equals(original, check_metadata=True)


@pytest.mark.parametrize("table", TABLES)
def test_a_duckdb_written_file_passes_and_conforms(table: str, tmp_path: Path) -> None:
    original = sample_table(table)
    path = tmp_path / "part-0.parquet"
    connection = duckdb.connect()
    connection.register("original", original)
    connection.execute(
        f"COPY original TO '{path}' (FORMAT parquet,"
        " KV_METADATA {'rummy_audit.schema_version': '1'})"
    )
    written = pq.read_table(path)
    assert file_schema_version(written.schema.metadata, SOURCE) == 1
    assert check_schema(table, written.schema, source=SOURCE) == []
    assert conform(table, written, source=SOURCE).equals(original, check_metadata=True)


@pytest.mark.parametrize(
    ("table", "column", "dtype"),
    [
        ("games", "decks", pa.int64()),
        ("games", "game_id", pa.string_view()),
        ("games", "format", pa.dictionary(pa.uint32(), pa.large_string())),
        ("games", "entry_fee", pa.decimal256(38, 2)),
        ("games", "rake_pct", pa.decimal64(18, 2)),
        ("games", "started_at", pa.timestamp("ns", tz="Etc/UTC")),
        ("games", "started_at", pa.timestamp("s", tz="+00:00")),
        ("games", "started_at", pa.timestamp("ms", tz="GMT")),  # UTC's other names
        ("games", "ended_at", pa.timestamp("us", tz="utc")),
        ("hands", "shoe", pa.list_(pa.string(), 1)),  # fixed_size_list, as pyarrow reads back
        ("hands", "shoe", pa.list_view(pa.string())),
        ("hands", "shoe", pa.large_list_view(pa.large_string())),
        ("events", "groups", pa.large_list(pa.list_view(pa.string_view()))),
        (
            "hands",
            "seats",
            pa.list_(
                pa.struct(
                    [("extra", pa.float64()), ("player_id", pa.string()), ("seat", pa.int32())]
                )
            ),
        ),
    ],
)
def test_another_spelling_of_the_same_type_passes_and_conforms(
    table: str, column: str, dtype: pa.DataType
) -> None:
    original = sample_table(table)
    index = original.schema.get_field_index(column)
    respelled = pa.array(original.column(column).to_pylist(), dtype)
    written = original.set_column(index, column, respelled).append_column(
        "platform_extra", pa.array([1], pa.int8())
    )
    assert check_schema(table, written.schema, source=SOURCE) == []
    assert conform(table, written, source=SOURCE).equals(original, check_metadata=True)


@pytest.mark.parametrize(
    ("table", "column", "dtype", "problem"),
    [
        ("games", "table_id", None, "column `table_id` (string) is missing; add it"),
        (
            "ledger",
            "amount",
            pa.float64(),
            "column `amount` is double, but the contract's type is decimal128(18,2);"
            " write a decimal of scale 2 and precision at most 38, never a float",
        ),
        (
            "events",
            "ts",
            pa.timestamp("ms"),
            "column `ts` is timestamp[ms], but the contract's type is timestamp[ms, tz=UTC];"
            " give it time zone UTC: a timestamp without one is ambiguous",
        ),
        (
            "events",
            "ts",
            pa.timestamp("ms", tz="Asia/Kolkata"),
            "column `ts` is timestamp[ms, tz=Asia/Kolkata], but the contract's type is"
            " timestamp[ms, tz=UTC]; convert it to time zone UTC",
        ),
        (
            "games",
            "point_value",
            pa.decimal128(18, 2),
            "column `point_value` is decimal128(18,2), but the contract's type is"
            " decimal128(18,4); write a decimal of scale 4 and precision at most 38,"
            " never a float",
        ),
        (
            "results",
            "points",
            pa.uint16(),
            "column `points` is uint16, but the contract's type is int16;"
            " write a signed integer of any width",
        ),
        (
            "events",
            "auto",
            pa.int8(),
            "column `auto` is int8, but the contract's type is bool; write true/false as a bool",
        ),
        (
            "events",
            "card",
            pa.binary(),
            "column `card` is binary, but the contract's type is string; write text as a string",
        ),
        (
            "hands",
            "shoe",
            pa.string(),
            "column `shoe` is string, but the contract's type is list<string>; write a list",
        ),
        (
            "hands",
            "seats",
            pa.list_(pa.struct([("seat", pa.float64()), ("player_id", pa.string())])),
            "column `seats[].seat` is double, but the contract's type is int8;"
            " write a signed integer of any width",
        ),
        (
            "hands",
            "seats",
            pa.list_(pa.struct([("seat", pa.int8())])),
            "column `seats[]` has no field `player_id` (string); write it exactly once",
        ),
        (
            "hands",
            "shuffle",
            pa.string(),
            "column `shuffle` is string, but the contract's type is struct<algorithm: string,"
            " server_seed: string, server_seed_hash: string, client_seed: string, nonce: int64>;"
            " write a struct with those fields",
        ),
    ],
)
def test_a_wrong_column_gives_exactly_one_problem_naming_it(
    table: str, column: str, dtype: pa.DataType | None, problem: str
) -> None:
    schema = with_field(exact(table), column, dtype)
    assert check_schema(table, schema, source=SOURCE) == [f"{SOURCE}: {problem}"]


def test_a_duplicated_column_is_a_problem() -> None:
    schema = exact("ledger").append(pa.field("kind", pa.string()))
    assert check_schema("ledger", schema, source=SOURCE) == [
        f"{SOURCE}: column `kind` appears 2 times; write it once"
    ]


def test_a_duplicated_struct_field_is_a_problem() -> None:
    seat = pa.struct([("seat", pa.int8()), ("seat", pa.int8()), ("player_id", pa.string())])
    schema = with_field(exact("hands"), "seats", pa.list_(seat))
    assert check_schema("hands", schema, source=SOURCE) == [
        f"{SOURCE}: column `seats[]` has 2 fields `seat` (int8); write it exactly once"
    ]


def test_nullability_flags_of_the_file_are_not_checked() -> None:
    loose = pa.schema([field.with_nullable(True) for field in exact("results")])
    assert check_schema("results", loose, source=SOURCE) == []


# file_schema_version


@pytest.mark.parametrize("metadata", [None, {}, {b"ARROW:schema": b"..."}])
def test_a_file_without_a_version_is_version_1(metadata: dict[bytes, bytes] | None) -> None:
    assert file_schema_version(metadata, SOURCE) == 1


def test_a_version_1_file_is_version_1() -> None:
    assert file_schema_version({b"rummy_audit.schema_version": b"1"}, SOURCE) == 1


def test_a_version_2_file_is_version_2() -> None:
    assert file_schema_version({b"rummy_audit.schema_version": b"2"}, SOURCE) == 2


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            b"3",
            "events/part-0.parquet was written for schema version 3; this audit reads version 2",
        ),
        (
            b"0",
            "events/part-0.parquet was written for schema version 0; this audit reads version 2",
        ),
        (
            b"v1",
            "events/part-0.parquet has rummy_audit.schema_version = 'v1', which is not a"
            ' version number; write "2"',
        ),
    ],
)
def test_another_version_is_refused_naming_the_file(value: bytes, message: str) -> None:
    with pytest.raises(SchemaVersionError) as refused:
        file_schema_version({b"rummy_audit.schema_version": value}, "events/part-0.parquet")
    assert str(refused.value) == message


# conform


@pytest.mark.parametrize("table", TABLES)
def test_conform_gives_the_exact_contract_schema(table: str) -> None:
    original = sample_table(table)
    reordered = original.select(list(reversed(original.column_names)))
    loose = reordered.cast(pa.schema([field.with_nullable(True) for field in reordered.schema]))
    conformed = conform(table, loose.replace_schema_metadata(None))
    assert conformed.schema.equals(exact(table), check_metadata=True)
    assert conformed.equals(original)


def test_conform_truncates_finer_timestamps_to_the_millisecond() -> None:
    original = sample_table("ledger")
    fine = datetime(2026, 11, 29, 18, 0, 5, 123456, tzinfo=UTC)
    written = original.set_column(4, "ts", pa.array([fine], pa.timestamp("us", "UTC")))
    conformed = conform("ledger", written)
    assert conformed.column("ts").to_pylist() == [fine.replace(microsecond=123000)]


def test_conform_rebuilds_lists_with_nulls_and_slices() -> None:
    shoe = pa.array([["AS"], None, ["TH", "JK"], []], pa.large_list(pa.large_string()))
    original = pa.concat_tables([sample_table("hands")] * 4)
    written = original.set_column(4, "shoe", shoe.cast(pa.large_list(pa.string_view())))
    conformed = conform("hands", written.slice(1))
    assert conformed.column("shoe").to_pylist() == [None, ["TH", "JK"], []]
    assert conformed.column("shoe").type == pa.list_(pa.string())


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        (
            "decks",
            pa.array([300], pa.int64()),
            "column `decks` does not fit int8: Integer value 300 not in range: -128 to 127",
        ),
        (
            "rake_pct",
            pa.array([Decimal("1234.50")], pa.decimal128(38, 2)),
            "column `rake_pct` does not fit decimal128(5,2): Decimal value does not fit in"
            " precision 5",
        ),
    ],
)
def test_a_value_that_does_not_fit_is_refused_naming_the_column(
    column: str, value: pa.Array, message: str
) -> None:
    original = sample_table("games")
    written = original.set_column(original.schema.get_field_index(column), column, value)
    with pytest.raises(LogFormatError) as refused:
        conform("games", written, source=SOURCE)
    assert str(refused.value) == f"{SOURCE}: {message}"


def test_conform_refuses_an_unchecked_table() -> None:
    written = pa.table({"game_id": ["g1"], "amount": [1.5]})
    with pytest.raises(LogFormatError) as refused:
        conform("ledger", written)
    assert str(refused.value) == (
        "ledger: column `player_id` (string) is missing; add it (and 3 more problems)"
    )


def test_an_int96_timestamp_is_refused_with_how_to_write_it(tmp_path: Path) -> None:
    """schemas/README.md ("Spark"): Parquet's INT96 timestamps (Spark's default) read back
    as nanoseconds without a time zone, whatever the writer held, so they are refused; the
    line says why a column written in UTC reads so, and what to write instead (a blind
    tester's writer wrote UTC and could not tell why it was called ambiguous)."""
    path = tmp_path / "part-0.parquet"
    pq.write_table(sample_table("events"), path, use_deprecated_int96_timestamps=True)
    (problem,) = check_schema("events", pq.read_schema(path), source=SOURCE)
    assert problem == (
        f"{SOURCE}: column `ts` is timestamp[ns], but the contract's type is "
        "timestamp[ms, tz=UTC]; give it time zone UTC: a timestamp without one is ambiguous "
        "(Parquet's INT96 timestamps, Spark's default, read back so whatever zone was "
        "written: write TIMESTAMP_MILLIS or TIMESTAMP_MICROS)"
    )
