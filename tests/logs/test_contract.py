"""The JSON schemas say what docs/contract/log-format.md (version 1, the shared spec) says
plus exactly the documented additions of version 2, and so does schemas/README.md."""

from __future__ import annotations

import doctest
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.errors import AuditError, LogFormatError
from audit.logs import contract
from audit.logs.contract import (
    REQUIRED_TABLES,
    TABLES,
    check_schema,
    conform,
    file_schema_version,
    load_contract,
)

ROOT = Path(__file__).resolve().parents[2]
SHARED_SPEC = ROOT.parent / "shared" / "spec"
CONTRACT_TEXT = (ROOT / "docs" / "contract" / "log-format.md").read_text(encoding="utf-8")
README_TEXT = (ROOT / "schemas" / "README.md").read_text(encoding="utf-8")

# events.player_id has no `?` in the contract's type column, but its meaning reads
# "(the server, for `reshuffle`: null)": the JSON marks it nullable, and the README's
# "Choices where the contract is silent" says so.
NULLABLE_BY_MEANING = {("events", "player_id")}

# Version 2 is version 1 plus these additions, and nothing else (schemas/README.md, "What
# changed in version 2"; docs/open-melds.md): the tests below compare schemas/ with the
# version 1 text once they are added.
V2_COLUMNS: dict[str, list[tuple[str, str, bool]]] = {"events": [("meld", "int16", True)]}
"""New columns, appended to their table, each optional (a file may leave it out)."""
V2_VALUES: dict[tuple[str, str], tuple[str, ...]] = {
    ("games", "format"): ("match",),
    ("events", "action"): ("lay", "lay_off", "swap_joker", "take_cut", "return_cut"),
}
"""New allowed values, appended to a column's list."""
V2_SECTION = README_TEXT.split("## What changed in version 2", 1)[-1].split("\n## ", 1)[0]

CARD_COLUMNS = [
    ("hands", "shoe"),
    ("hands", "wild_card"),
    ("hands", "open_card"),
    ("events", "card"),
    ("events", "groups"),
]


@dataclass(frozen=True)
class Row:
    name: str
    type: str
    nullable: bool
    meaning: str


def markdown_tables(text: str) -> dict[str, list[Row]]:
    """The `| column | type | meaning |` tables of `text`, by the `### name` heading above.

    A `?` after the type marks a nullable column; a row naming several columns
    (`started_at, ended_at`) stands for each of them.
    """
    tables: dict[str, list[Row]] = {}
    heading, rows = "", None
    for line in text.splitlines():
        if line.startswith("### "):
            heading, rows = line.removeprefix("### ").strip(), None
        elif line.replace(" ", "") == "|column|type|meaning|":
            rows = tables.setdefault(heading, [])
        elif rows is not None and line.startswith("|"):
            names, type_, meaning = (cell.strip() for cell in line.strip()[1:-1].split("|"))
            if set(names) <= {"-"}:
                continue
            nullable = type_.endswith("?")
            type_ = type_.removesuffix("?").strip().strip("`")
            rows += [Row(name.strip(), type_, nullable, meaning) for name in names.split(",")]
        else:
            rows = None
    return tables


def contract_rows() -> dict[str, list[Row]]:
    """The contract's tables, its bare `timestamp` spelled out as the text defines it."""
    timestamp = re.search(r"Timestamps are `([^`]+)`", CONTRACT_TEXT)
    assert timestamp is not None
    return {
        table: [
            Row(r.name, timestamp[1] if r.type == "timestamp" else r.type, r.nullable, r.meaning)
            for r in rows
        ]
        for table, rows in markdown_tables(CONTRACT_TEXT).items()
    }


def json_file(table: str) -> dict[str, object]:
    data = json.loads((ROOT / "schemas" / f"{table}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_schemas_hold_one_json_file_per_contract_table() -> None:
    files = sorted(path.stem for path in (ROOT / "schemas").glob("*.json"))
    assert files == sorted(TABLES)
    assert list(contract_rows()) == list(TABLES)
    assert list(load_contract()) == list(TABLES)


@pytest.mark.parametrize("table", TABLES)
def test_json_columns_are_the_contract_columns(table: str) -> None:
    expected = []
    for row in contract_rows()[table]:
        if (table, row.name) in NULLABLE_BY_MEANING:
            assert "null" in row.meaning
            row = Row(row.name, row.type, True, row.meaning)
        expected.append((row.name, row.type, row.nullable))
    expected += V2_COLUMNS.get(table, [])
    columns = json_file(table)["columns"]
    assert isinstance(columns, list)
    assert [(c["name"], c["type"], c["nullable"]) for c in columns] == expected
    schema = load_contract()[table]
    assert [(c.name, c.type, c.nullable) for c in schema.columns] == expected
    added = {name for name, _, _ in V2_COLUMNS.get(table, [])}
    assert {c.name for c in schema.columns if c.optional} == added


def test_the_v2_additions_are_new_and_documented() -> None:
    """What version 2 adds is named nowhere in the version 1 text, and its section in the
    README names every addition, and says version 1 files read unchanged."""
    assert "## What changed in version 2" in README_TEXT
    for table, columns in V2_COLUMNS.items():
        for name, type_, _ in columns:
            assert name not in {r.name for r in contract_rows()[table]}
            assert f"| {table} | column `{name}` `{type_}` ?, optional |" in V2_SECTION
    for values in V2_VALUES.values():
        for value in values:
            assert f"`{value}`" not in CONTRACT_TEXT
            assert f"`{value}`" in V2_SECTION, value
    assert "version 1 file is\na valid version 2 file, and is read unchanged" in V2_SECTION
    assert "(it has no `meld` column: its rows read as\nnull)" in V2_SECTION


def test_required_tables_are_the_contracts() -> None:
    sentence = re.search(r"^(.*) are required; the other three are optional", CONTRACT_TEXT, re.M)
    assert sentence is not None
    named = re.findall(r"`(\w+)`", sentence[1])
    assert list(REQUIRED_TABLES) == named
    assert {t: json_file(t)["required"] for t in TABLES} == {t: t in named for t in TABLES}


@pytest.mark.parametrize("table", TABLES)
def test_json_file_is_version_2_and_keys_are_non_nullable_columns(table: str) -> None:
    data = json_file(table)
    assert (data["table"], data["schema_version"]) == (table, contract.SCHEMA_VERSION) == (table, 2)
    schema = load_contract()[table]
    for key in schema.primary_key:
        assert not schema.column(key).nullable


def test_enum_values_are_on_string_columns_and_named_in_the_contract() -> None:
    with_values = [
        (table.name, column)
        for table in load_contract().values()
        for column in table.columns
        if column.values
    ]
    assert len(with_values) == 9
    for table, column in with_values:
        assert column.type == "string"
        contract_row = next(r for r in contract_rows()[table] if r.name == column.name)
        added = V2_VALUES.get((table, column.name), ())
        v1 = column.values[: len(column.values) - len(added)]
        assert column.values[len(v1) :] == added  # the additions, last, and only them
        for value in v1:
            assert f"`{value}`" in contract_row.meaning or f"`{value}`" in CONTRACT_TEXT


@pytest.mark.parametrize(("table", "column"), CARD_COLUMNS)
def test_card_columns_say_they_hold_card_codes(table: str, column: str) -> None:
    meaning = load_contract()[table].column(column).meaning
    assert "card code: 2 characters, rank then suit, or `JK`" in meaning


@pytest.mark.parametrize("name", ["log-format.md", "audit-output.md"])
def test_docs_copy_is_the_shared_spec_byte_for_byte(name: str) -> None:
    shared = SHARED_SPEC / name
    if not shared.exists():
        pytest.skip(f"no shared spec beside the repository to compare {name} with")
    assert (ROOT / "docs" / "contract" / name).read_bytes() == shared.read_bytes()


@pytest.mark.parametrize("table", TABLES)
def test_readme_table_matches_json(table: str) -> None:
    rows = markdown_tables(README_TEXT)[table]
    columns = load_contract()[table].columns
    assert [(r.name, r.type, r.nullable) for r in rows] == [
        (c.name, c.type, c.nullable) for c in columns
    ]
    for row, column in zip(rows, columns, strict=True):
        for value in column.values:
            assert f"`{value}`" in row.meaning, (column.name, value)


def test_readme_pyarrow_example_writes_a_valid_games_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = re.search(r"```python\n(.*?)```", README_TEXT, re.S)
    assert code is not None
    monkeypatch.chdir(tmp_path)
    exec(compile(code[1], "schemas/README.md", "exec"), {})

    path = tmp_path / "logs" / "games" / "date=2026-11-29" / "part-0.parquet"
    source = "games/date=2026-11-29/part-0.parquet"
    metadata = pq.ParquetFile(path).metadata.metadata
    assert metadata[b"rummy_audit.schema_version"] == b"2"
    assert file_schema_version(metadata, source) == 2
    written = pq.read_table(path)
    assert check_schema("games", written.schema, source=source) == []
    exact = load_contract()["games"].arrow_schema
    assert [(f.name, f.type, f.nullable) for f in written.schema] == [
        (f.name, f.type, f.nullable) for f in exact
    ]
    assert conform("games", written, source=source).num_rows == 1


def test_readme_states_the_version_refusal_message() -> None:
    with pytest.raises(LogFormatError) as refused:
        file_schema_version({b"rummy_audit.schema_version": b"3"}, "events/part-0.parquet")
    assert f"`{refused.value}`" in README_TEXT


def test_module_doctests_pass() -> None:
    assert doctest.testmod(contract).failed == 0


def test_load_contract_hands_out_a_fresh_dict() -> None:
    load_contract().clear()
    assert list(load_contract()) == list(TABLES)


def test_arrow_schema_carries_nullability_meaning_and_version() -> None:
    schema = load_contract()["events"].arrow_schema
    assert schema.metadata == {b"rummy_audit.schema_version": b"2"}
    assert schema.field("card").nullable
    assert not schema.field("seq").nullable
    assert schema.field("ts").metadata == {b"meaning": b"When the server accepted the action."}


def test_an_unknown_table_is_refused_with_the_table_names() -> None:
    with pytest.raises(LogFormatError) as refused:
        check_schema("players", pa.schema([]), source="players/p.parquet")
    assert str(refused.value) == (
        "'players' is not a table of the log contract; the tables are games, hands, events,"
        " results, game_events, ledger, sessions"
    )


HEAD = '"table": "games", "schema_version": 2, "required": true, "description": ""'


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "schemas/games.json is missing from "),
        ("{", "schemas/games.json is not valid JSON: Expecting property name"),
        (
            '{"table": "games"}',
            "schemas/games.json: the file must hold exactly the keys columns, description,"
            " primary_key, required, schema_version, table",
        ),
        (
            f'{{{HEAD.replace("true", "false")}, "primary_key": [], "columns": []}}',
            'schemas/games.json: it must say "table": "games", "schema_version": 2,'
            ' "required": true',
        ),
        (
            f'{{{HEAD}, "primary_key": [], "columns": [{{"name": "x", "type": "string"}}]}}',
            "schemas/games.json: column 0 must hold the keys meaning, name, nullable, type"
            " and may hold note, optional, values",
        ),
        (
            f'{{{HEAD}, "primary_key": [], "columns": [{{"name": "x", "type": "string",'
            ' "nullable": "no", "meaning": ""}]}',
            "schemas/games.json: column 'x' must have nullable true or false",
        ),
        (
            f'{{{HEAD}, "primary_key": [], "columns": [{{"name": "x", "type": "int16",'
            ' "nullable": true, "optional": "yes", "meaning": ""}]}',
            "schemas/games.json: column 'x' must have optional true or false",
        ),
        (
            f'{{{HEAD}, "primary_key": [], "columns": [{{"name": "x", "type": "int16",'
            ' "nullable": false, "optional": true, "meaning": ""}]}',
            "schemas/games.json: column 'x' is optional, so it must be nullable: a file without"
            " it reads as null",
        ),
        (
            f'{{{HEAD}, "primary_key": ["id"], "columns": []}}',
            "schemas/games.json: column names must be unique, and primary_key must name columns",
        ),
        (
            f'{{{HEAD}, "primary_key": [], "columns": [{{"name": "x", "type": "text",'
            ' "nullable": false, "meaning": ""}]}',
            "schemas/games.json: 'text' is not a contract type: unknown type 'text'",
        ),
    ],
)
def test_a_broken_schema_file_is_refused_with_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str | None, message: str
) -> None:
    if content is not None:
        (tmp_path / "games.json").write_text(content, encoding="utf-8")
    monkeypatch.setattr(contract, "SCHEMAS_DIR", tmp_path)
    with pytest.raises(AuditError, match=re.escape(message)):
        contract._load_table("games")
