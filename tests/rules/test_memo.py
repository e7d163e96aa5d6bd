"""The per-pattern caches are kept within a budget (``audit.rules.memo``) and what they
return does not depend on what they hold."""

from __future__ import annotations

import pytest

from audit.cards import parse_codes
from audit.rules import memo
from audit.rules.melds import Jokers, classify
from audit.rules.ruleset import load_preset
from audit.rules.solver import best_points

GROUPS = (["QH", "KH", "AH"], ["KH", "AH", "2H"], ["7S", "7D", "7C"], ["5C", "JK", "7C"])
HAND = ["2H", "3H", "4H", "7S", "7D", "7C", "9C", "TC", "JK", "KD", "KS", "AD", "5S"]


def verdicts() -> list[object]:
    rules = load_preset("standard-13")
    jokers = Jokers.for_wild_card("5D", rules)
    found: list[object] = [classify(parse_codes(g), jokers, rules) for g in GROUPS]
    return [*found, best_points(parse_codes(HAND), jokers, rules)]


def test_bound_empties_the_caches_only_past_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    first = verdicts()
    held = memo.held()
    assert held > 0
    monkeypatch.setattr(memo, "BUDGET", held)
    assert memo.bound() is False
    assert memo.held() == held
    monkeypatch.setattr(memo, "BUDGET", held - 1)
    assert memo.bound() is True
    assert memo.held() == 0
    assert verdicts() == first  # judged again from nothing: the same
    assert memo.held() > 0
