"""The game-log input contract, as the JSON files of the top-level `schemas/` state it.

They are package data: ``audit/schemas`` links to the top-level folder in a checkout, and a
wheel carries the files (see pyproject.toml); they are read with ``importlib.resources``.

One JSON file per table names its columns, their Arrow types (in the small grammar of
`parse_type`) and which may hold nulls. This module loads them, checks a Parquet file's
schema against them (`check_schema`) and casts a checked table to the contract's exact
types (`conform`). `schemas/README.md` is the same contract for people.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]

from audit.errors import AuditError, LogFormatError, SchemaVersionError

# The contract's version, written under SCHEMA_VERSION_KEY in each Parquet file's
# key-value metadata. Bump it for any change a reader or writer must know about, and
# record the change here and in schemas/README.md. A file of any version from
# OLDEST_SCHEMA_VERSION to SCHEMA_VERSION is read; a newer one is refused. History:
#   1: the first contract (docs/contract/log-format.md).
#   2: open melds (docs/open-melds.md): games.format `match`; events.action `lay`, `lay_off`,
#      `swap_joker`, `take_cut`, `return_cut`; the optional column events.meld. Every
#      version 1 file is a valid version 2 file (it has no `meld`: read as null).
SCHEMA_VERSION = 2
OLDEST_SCHEMA_VERSION = 1
SCHEMA_VERSION_KEY = "rummy_audit.schema_version"

TABLES = ("games", "hands", "events", "results", "game_events", "ledger", "sessions")
REQUIRED_TABLES = ("games", "hands", "events", "results")
HAND_TABLES = ("hands", "events", "results")
"""The tables whose rows are a hand's, by `hand_id`."""

# The JSON files, inside the installed package (a link to the top-level schemas/ in a checkout).
SCHEMAS_DIR: Traversable = resources.files("audit") / "schemas"

# Time zones that name UTC itself, in the spellings writers use (a blind tester's GMT and
# lower-case utc were refused); any other zone, and no zone at all, is refused.
UTC_ZONES = frozenset({
    "UTC", "Etc/UTC", "+00:00", "utc", "GMT", "Etc/GMT", "UCT", "Etc/UCT", "Zulu", "Etc/Zulu",
    "Universal", "Etc/Universal", "Z", "+0000", "Etc/GMT+0", "Etc/GMT-0", "Etc/GMT0", "GMT0",
})  # fmt: skip

_GRAMMAR = (
    "string, bool, int8|int16|int32|int64, decimal128(P,S), timestamp[unit, tz=Zone], "
    "list<T> or struct<name: T, ...>"
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[0-9]+")
_ZONE = re.compile(r"[^\s,\]]+")
_TIME_UNITS = ("s", "ms", "us", "ns")
_ARROW_ERRORS = (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError)


class _TypeParser:
    """A recursive-descent parser for one type string of the grammar."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def whole(self) -> pa.DataType:
        dtype = self.type()
        self.skip_space()
        if self.pos < len(self.text):
            raise self.error(f"unexpected {self.text[self.pos :]!r}")
        return dtype

    def type(self) -> pa.DataType:
        start = self.pos
        match self.take(_NAME, "a type name"):
            case "string":
                return pa.string()
            case "bool":
                return pa.bool_()
            case "int8" | "int16" | "int32" | "int64" as name:
                return pa.type_for_alias(name)
            case "decimal128":
                return self.decimal()
            case "timestamp":
                return self.timestamp()
            case "list":
                self.expect("<")
                item = self.type()
                self.expect(">")
                return pa.list_(item)
            case "struct":
                return self.struct()
            case name:
                self.pos = start
                raise self.error(f"unknown type {name!r}")

    def decimal(self) -> pa.DataType:
        self.expect("(")
        precision = int(self.take(_NUMBER, "a precision"))
        self.expect(",")
        scale = int(self.take(_NUMBER, "a scale"))
        self.expect(")")
        if not 1 <= precision <= 38 or scale > precision:
            raise self.error("a decimal128 needs 1 <= precision <= 38 and scale <= precision")
        return pa.decimal128(precision, scale)

    def timestamp(self) -> pa.DataType:
        self.expect("[")
        unit = self.take(_NAME, "a time unit")
        if unit not in _TIME_UNITS:
            raise self.error(f"time unit {unit!r} is not one of {', '.join(_TIME_UNITS)}")
        zone = None
        if self.accept(","):
            self.expect("tz")
            self.expect("=")
            zone = self.take(_ZONE, "a time zone")
        self.expect("]")
        return pa.timestamp(unit, tz=zone)

    def struct(self) -> pa.DataType:
        self.expect("<")
        fields: list[Any] = []
        while True:
            name = self.take(_NAME, "a field name")
            if any(field.name == name for field in fields):
                raise self.error(f"field {name!r} appears twice")
            self.expect(":")
            fields.append(pa.field(name, self.type()))
            if not self.accept(","):
                break
        self.expect(">")
        return pa.struct(fields)

    def skip_space(self) -> None:
        while self.text.startswith(" ", self.pos):
            self.pos += 1

    def accept(self, token: str) -> bool:
        self.skip_space()
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def expect(self, token: str) -> None:
        if not self.accept(token):
            raise self.error(f"expected {token!r}")

    def take(self, pattern: re.Pattern[str], what: str) -> str:
        self.skip_space()
        found = pattern.match(self.text, self.pos)
        if found is None:
            raise self.error(f"expected {what}")
        self.pos = found.end()
        return found.group()

    def error(self, problem: str) -> LogFormatError:
        return LogFormatError(
            f"{self.text!r} is not a contract type: {problem} at character {self.pos + 1};"
            f" the grammar is {_GRAMMAR}"
        )


@cache
def parse_type(text: str) -> pa.DataType:
    """The Arrow type a type string of the grammar stands for.

    >>> parse_type("list<struct<seat: int8, player_id: string>>")
    ListType(list<item: struct<seat: int8, player_id: string>>)
    >>> parse_type("timestamp[ms, tz=UTC]")
    TimestampType(timestamp[ms, tz=UTC])
    >>> parse_type("list<strng>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    audit.errors.LogFormatError: 'list<strng>' is not a contract type: unknown type 'strng' at ...
    """
    return _TypeParser(text).whole()


def type_name(dtype: pa.DataType) -> str:
    """The grammar's spelling of an Arrow type; types outside the grammar keep pyarrow's.

    >>> type_name(parse_type("list<list<string>>"))
    'list<list<string>>'
    >>> type_name(pa.large_list(pa.large_string()))
    'large_list<large_string>'
    """
    if _is_list_like(dtype):
        kind = str(dtype).split("<", 1)[0]
        return f"{kind}<{type_name(dtype.value_type)}>"
    if pa.types.is_struct(dtype):
        fields = ", ".join(f"{field.name}: {type_name(field.type)}" for field in dtype)
        return f"struct<{fields}>"
    if pa.types.is_decimal(dtype):
        kind = str(dtype).split("(", 1)[0]
        return f"{kind}({dtype.precision},{dtype.scale})"
    if pa.types.is_timestamp(dtype):
        zone = "" if dtype.tz is None else f", tz={dtype.tz}"
        return f"timestamp[{dtype.unit}{zone}]"
    return str(dtype)


@dataclass(frozen=True)
class Column:
    """One column of a contract table; `?` in its repr marks a nullable column.

    An `optional` column (one added after version 1) may be left out of a file: its rows
    then read as null. It is always nullable.

    >>> card = Column(name="card", type="string", nullable=True, meaning="the card drawn")
    >>> card
    Column(card: string ?)
    >>> card.arrow_type
    DataType(string)
    >>> Column(name="card", type="str", nullable=True, meaning="")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    audit.errors.LogFormatError: 'str' is not a contract type: unknown type 'str' ...
    """

    name: str
    type: str
    nullable: bool
    meaning: str
    values: tuple[str, ...] = ()
    note: str = ""
    optional: bool = False

    def __post_init__(self) -> None:
        parse_type(self.type)
        if self.optional and not self.nullable:
            raise LogFormatError(
                f"column {self.name!r} is optional, so it must be nullable: a file without it"
                " reads as null"
            )

    def __repr__(self) -> str:
        return f"Column({self.name}: {self.type}{' ?' if self.nullable else ''})"

    @property
    def arrow_type(self) -> pa.DataType:
        return parse_type(self.type)


@dataclass(frozen=True)
class TableSchema:
    """One table of the contract: its columns in contract order and its key.

    >>> events = load_contract()["events"]
    >>> events
    TableSchema(events: 10 columns, required)
    >>> events.primary_key
    ('hand_id', 'seq')
    >>> events.column("card")
    Column(card: string ?)
    >>> events.column("trick")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    audit.errors.LogFormatError: table events has no column 'trick'; its columns are hand_id, ...
    """

    name: str
    required: bool
    description: str
    primary_key: tuple[str, ...]
    columns: tuple[Column, ...]

    def __repr__(self) -> str:
        kind = "required" if self.required else "optional"
        return f"TableSchema({self.name}: {len(self.columns)} columns, {kind})"

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        names = ", ".join(column.name for column in self.columns)
        raise LogFormatError(f"table {self.name} has no column {name!r}; its columns are {names}")

    @property
    def arrow_schema(self) -> pa.Schema:
        """The Arrow schema: nullability per column, meanings as field metadata."""
        fields = [
            pa.field(c.name, c.arrow_type, nullable=c.nullable, metadata={"meaning": c.meaning})
            for c in self.columns
        ]
        return pa.schema(fields, metadata={SCHEMA_VERSION_KEY: str(SCHEMA_VERSION)})


_TABLE_KEYS = frozenset(
    {"table", "schema_version", "required", "description", "primary_key", "columns"}
)
_COLUMN_KEYS = frozenset({"name", "type", "nullable", "meaning"})
_OPTIONAL_COLUMN_KEYS = frozenset({"values", "note", "optional"})


def _json_problem(name: str, data: Any) -> str:
    """What is wrong with the shape of a table's JSON file, or "" when nothing is."""
    if not isinstance(data, dict) or data.keys() != _TABLE_KEYS:
        return f"the file must hold exactly the keys {', '.join(sorted(_TABLE_KEYS))}"
    expected = (name, SCHEMA_VERSION, name in REQUIRED_TABLES)
    if (data["table"], data["schema_version"], data["required"]) != expected:
        return (
            f'it must say "table": "{name}", "schema_version": {SCHEMA_VERSION},'
            f' "required": {str(expected[2]).lower()}'
        )
    names = []
    for index, column in enumerate(data["columns"]):
        if not isinstance(column, dict) or not (
            _COLUMN_KEYS <= column.keys() <= _COLUMN_KEYS | _OPTIONAL_COLUMN_KEYS
        ):
            return (
                f"column {index} must hold the keys {', '.join(sorted(_COLUMN_KEYS))}"
                f" and may hold {', '.join(sorted(_OPTIONAL_COLUMN_KEYS))}"
            )
        if not isinstance(column["nullable"], bool):
            return f"column {column['name']!r} must have nullable true or false"
        if not isinstance(column.get("optional", False), bool):
            return f"column {column['name']!r} must have optional true or false"
        names.append(column["name"])
    if len(set(names)) < len(names) or not set(data["primary_key"]) <= set(names):
        return "column names must be unique, and primary_key must name columns"
    return ""


def _load_table(name: str) -> TableSchema:
    where = f"schemas/{name}.json"
    try:
        data = json.loads((SCHEMAS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AuditError(
            f"{where} is missing from {SCHEMAS_DIR}: the audit package is installed without"
            " its schemas; reinstall it from a wheel or the checkout",
            slug="schemas",
        ) from None
    except json.JSONDecodeError as error:
        raise AuditError(f"{where} is not valid JSON: {error}", slug="schemas") from error
    problem = _json_problem(name, data)
    if problem:
        raise AuditError(f"{where}: {problem}", slug="schemas")
    try:
        columns = tuple(
            Column(**{**column, "values": tuple(column.get("values", ()))})
            for column in data["columns"]
        )
    except LogFormatError as error:
        raise AuditError(f"{where}: {error}", slug="schemas") from error
    return TableSchema(
        name=name,
        required=data["required"],
        description=data["description"],
        primary_key=tuple(data["primary_key"]),
        columns=columns,
    )


@cache
def _contract() -> dict[str, TableSchema]:
    return {name: _load_table(name) for name in TABLES}


def load_contract() -> dict[str, TableSchema]:
    """Every table of the contract by name, in contract order (loaded once, then cached)."""
    return dict(_contract())


def _table(name: str) -> TableSchema:
    try:
        return _contract()[name]
    except KeyError:
        raise LogFormatError(
            f"{name!r} is not a table of the log contract; the tables are {', '.join(TABLES)}"
        ) from None


def file_schema_version(metadata: dict[bytes, bytes] | None, source: str) -> int:
    """The contract version a file's key-value metadata claims; no claim means version 1.
    Versions 1 to SCHEMA_VERSION are read (each is the one before plus additions); any
    other is refused.

    >>> file_schema_version(None, "games/part-0.parquet")
    1
    >>> file_schema_version({b"rummy_audit.schema_version": b"2"}, "e.parquet")
    2
    >>> metadata = {b"rummy_audit.schema_version": b"3"}
    >>> file_schema_version(metadata, "e.parquet")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    audit.errors.SchemaVersionError: e.parquet was written for schema version 3; this ...
    """
    raw = (metadata or {}).get(SCHEMA_VERSION_KEY.encode())
    if raw is None:
        return 1
    text = raw.decode("utf-8", errors="replace")
    if _NUMBER.fullmatch(text) is None:
        raise SchemaVersionError(
            f"{source} has {SCHEMA_VERSION_KEY} = {text!r}, which is not a version number;"
            f' write "{SCHEMA_VERSION}"'
        )
    version = int(text)
    if not OLDEST_SCHEMA_VERSION <= version <= SCHEMA_VERSION:
        raise SchemaVersionError(
            f"{source} was written for schema version {version};"
            f" this audit reads version {SCHEMA_VERSION}"
        )
    return version


_STRING_KINDS = (pa.types.is_string, pa.types.is_large_string, pa.types.is_string_view)
_LIST_KINDS = (
    pa.types.is_list,
    pa.types.is_large_list,
    pa.types.is_list_view,
    pa.types.is_large_list_view,
    pa.types.is_fixed_size_list,  # pyarrow keeps it on reading back a shoe of one length
)


def _is_string(dtype: pa.DataType) -> bool:
    if pa.types.is_dictionary(dtype):
        return _is_string(dtype.value_type)
    return any(kind(dtype) for kind in _STRING_KINDS)


def _is_list_like(dtype: pa.DataType) -> bool:
    return any(kind(dtype) for kind in _LIST_KINDS)


def _type_problems(path: str, want: pa.DataType, got: pa.DataType) -> list[str]:
    """Why a file's type `got` cannot stand for the contract's `want`, one line each. A
    column of Arrow's `null` type (every value null: pyarrow infers it for a column of
    None, as pandas writes a pool game's point_value) stands for any type: its nulls are
    judged row by row, as any null is."""
    if pa.types.is_null(got):
        return []
    found = f"column `{path}` is {type_name(got)}, but the contract's type is {type_name(want)}"
    if pa.types.is_struct(want):
        if not pa.types.is_struct(got):
            return [f"{found}; write a struct with those fields"]
        problems = []
        for field in want:
            indices = got.get_all_field_indices(field.name)
            if len(indices) != 1:
                count = f"{len(indices)} fields" if indices else "no field"
                problems.append(
                    f"column `{path}` has {count} `{field.name}` ({type_name(field.type)});"
                    " write it exactly once"
                )
            else:
                inner = got.field(indices[0]).type
                problems += _type_problems(f"{path}.{field.name}", field.type, inner)
        return problems
    if pa.types.is_list(want):
        if not _is_list_like(got):
            return [f"{found}; write a list"]
        return _type_problems(f"{path}[]", want.value_type, got.value_type)
    if pa.types.is_string(want):
        fits, fix = _is_string(got), "write text as a string"
    elif pa.types.is_boolean(want):
        fits, fix = pa.types.is_boolean(got), "write true/false as a bool"
    elif pa.types.is_integer(want):
        fits, fix = pa.types.is_signed_integer(got), "write a signed integer of any width"
    elif pa.types.is_decimal(want):
        fits = pa.types.is_decimal(got) and got.scale == want.scale and got.precision <= 38
        fix = f"write a decimal of scale {want.scale} and precision at most 38, never a float"
    elif not pa.types.is_timestamp(got):
        fits, fix = False, "write a timestamp with time zone UTC"
    elif got.tz is None:
        fits, fix = False, "give it time zone UTC: a timestamp without one is ambiguous"
        if got.unit == "ns":  # a blind tester could not tell why a UTC column read so
            fix += (" (Parquet's INT96 timestamps, Spark's default, read back so whatever "
                    "zone was written: write TIMESTAMP_MILLIS or TIMESTAMP_MICROS)")
    else:
        fits, fix = got.tz in UTC_ZONES, "convert it to time zone UTC"
    return [] if fits else [f"{found}; {fix}"]


def check_schema(table: str, schema: pa.Schema, *, source: str) -> list[str]:
    """Every way a file's Arrow schema breaks the contract of `table`, one line each.

    Extra columns are allowed and ignored; an optional column may be missing (its rows
    read as null); nullability is not looked at (writers mark everything nullable: nulls
    are checked row by row by the reader).

    >>> schema = pa.schema([("game_id", pa.large_string()), ("amount", pa.float64())])
    >>> for problem in check_schema("ledger", schema, source="x.parquet"):
    ...     print(problem)  # doctest: +ELLIPSIS
    x.parquet: column `player_id` (string) is missing; add it
    x.parquet: column `kind` (string) is missing; add it
    x.parquet: column `amount` is double, but the contract's type is decimal128(18,2); ...
    x.parquet: column `ts` (timestamp[ms, tz=UTC]) is missing; add it
    """
    problems = []
    for column in _table(table).columns:
        indices = schema.get_all_field_indices(column.name)
        if not indices and column.optional:
            continue
        if not indices:
            problems.append(f"{source}: column `{column.name}` ({column.type}) is missing; add it")
        elif len(indices) > 1:
            problems.append(
                f"{source}: column `{column.name}` appears {len(indices)} times; write it once"
            )
        else:
            got = schema.field(indices[0]).type
            problems += [
                f"{source}: {problem}"
                for problem in _type_problems(column.name, column.arrow_type, got)
            ]
    other = _table_of(schema) if any(p.endswith("is missing; add it") for p in problems) else ""
    if other and other != table:
        problems.append(f"{source}: it holds every column of the {other} table: it may be a "
                        f"{other} file in the {table}/ folder")  # fmt: skip
    return problems


def _table_of(schema: pa.Schema) -> str:
    """The contract table whose every column (optional ones aside) ``schema`` holds, the
    one with the most such columns; "" when none. A file in another table's folder (a
    results file in hands/) is refused for the columns it lacks, and a blind tester read
    the refusal as asking the platform to add them to an events file: its words now say
    whose file it looks like.

    >>> _table_of(pa.schema([(c.name, c.arrow_type) for c in _table("results").columns]))
    'results'
    >>> _table_of(pa.schema([("hand_id", pa.string())]))
    ''
    """
    names = set(schema.names)
    fits = [t for t in load_contract().values()
            if all(c.name in names for c in t.columns if not c.optional)]  # fmt: skip
    return max(fits, key=lambda t: (len(t.columns), t.name)).name if fits else ""


def _convert(array: pa.Array, want: pa.DataType) -> pa.Array:
    """`array` cast to `want`, lists and structs rebuilt child by child."""
    if pa.types.is_null(array.type):
        return pa.nulls(len(array), want)
    if pa.types.is_struct(want):
        children = array.flatten()
        fields = list(want)
        converted = [
            _convert(children[array.type.get_field_index(field.name)], field.type)
            for field in fields
        ]
        return pa.StructArray.from_arrays(converted, fields=fields, mask=array.is_null())
    if pa.types.is_list(want):
        lengths = pc.fill_null(pc.list_value_length(array), 0)
        ends = pc.cumulative_sum_checked(lengths)
        offsets = pa.concat_arrays([pa.array([0], lengths.type), ends]).cast(pa.int32())
        values = _convert(pc.list_flatten(array), want.value_type)
        return pa.ListArray.from_arrays(offsets, values, type=want, mask=array.is_null())
    return pc.cast(array, options=pc.CastOptions(want, allow_time_truncate=True))


def conform(table: str, arrow_table: pa.Table, *, source: str | None = None) -> pa.Table:
    """The contract's columns of `arrow_table`, in contract order, cast to its exact types.

    Strings become `string`, lists `list`, timestamps milliseconds in UTC (finer units are
    truncated), integers and decimals the contract's width, refusing values that do not
    fit. An optional column the table lacks is all nulls. Nulls are left as they are: rows
    with a null in a non-nullable column are the reader's to quarantine.

    >>> games = pa.table({"game_id": pa.array(["g1"], pa.large_string())})
    >>> conform("games", games, source="games/g.parquet")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    audit.errors.LogFormatError: games/g.parquet: column `table_id` (string) is missing; ...
    """
    where = source or table
    problems = check_schema(table, arrow_table.schema, source=where)
    if problems:
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise LogFormatError(problems[0] + more)
    contract = _table(table)
    columns = []
    for column in contract.columns:
        if column.optional and column.name not in arrow_table.column_names:
            columns.append(pa.chunked_array([pa.nulls(arrow_table.num_rows, column.arrow_type)]))
            continue
        try:
            chunks = [
                _convert(chunk, column.arrow_type)
                for chunk in arrow_table.column(column.name).chunks
            ]
        except _ARROW_ERRORS as error:
            reason = str(error).splitlines()[0]
            raise LogFormatError(
                f"{where}: column `{column.name}` does not fit {column.type}: {reason}"
            ) from error
        columns.append(pa.chunked_array(chunks, type=column.arrow_type))
    return pa.Table.from_arrays(columns, schema=contract.arrow_schema)
