"""The codes the audit reads and writes are enums, and the enums are the contract's words:
formats, actions, outcomes, game actions and ledger kinds (log-format.md, schemas/*.json);
every finding comes from one builder that refuses an unknown check code or rule key."""

from __future__ import annotations

from enum import StrEnum

import pytest

from audit.findings import CATALOG, Code, finding
from audit.logs.contract import load_contract
from audit.records import Action, Format, GameAction, LedgerKind, Outcome
from audit.rules.ruleset import FORMATS, load_preset


@pytest.mark.parametrize(
    ("table", "column", "enum"),
    [("games", "format", Format), ("events", "action", Action), ("results", "outcome", Outcome),
     ("game_events", "action", GameAction), ("ledger", "kind", LedgerKind)],
)  # fmt: skip
def test_each_enum_is_the_contracts_list_of_values(
    table: str, column: str, enum: type[StrEnum]
) -> None:
    (spec,) = [c for c in load_contract()[table].columns if c.name == column]
    assert {e.value for e in enum} == set(spec.values)


def test_the_rulesets_formats_are_the_contracts() -> None:
    assert set(FORMATS) == {f.value for f in Format}


def test_every_check_code_is_in_the_catalog_and_the_enum() -> None:
    assert set(CATALOG) == {c.value for c in Code}


def test_the_one_builder_refuses_unknown_codes_and_rule_keys() -> None:
    rules = load_preset("standard-13")
    ok = finding(Code.SCORE_POINTS, game_id="g", message="m", rule=rules.cite("points.cap"))
    assert ok.check == "score.points"
    with pytest.raises(ValueError, match="unknown check code"):
        finding("score.nothing", game_id="g", message="m", rule=rules.cite("points.cap"))
    with pytest.raises(ValueError, match=r"unknown rule key 'points\.capp'"):
        finding("score.points", game_id="g", message="m", rule="points.capp: ...")


def test_the_one_builder_keeps_every_text_of_a_finding_on_one_line() -> None:
    """schemas/README.md: control characters in an id "are written escaped (`\\n`) in every
    reason and message, which stay one line"; so are a finding's expected and recorded,
    which name ids too (fairplay.bot's did not: a player id with a newline broke them)."""
    rules = load_preset("standard-13")
    found = finding(Code.SCORE_POINTS, game_id="g", message="p\n1 was charged",
                    expected="p\n1: 20", recorded="p\t1: 21",
                    rule=rules.cite("points.cap"))  # fmt: skip
    assert (found.message, found.expected, found.recorded) == (
        "p\\n1 was charged", "p\\n1: 20", "p\\t1: 21"
    )
