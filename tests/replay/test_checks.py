"""Every hand-level check of the catalog: a clean hand raises nothing, a broken one raises
exactly the expected finding (check, hand, player, seq). docs/replay.md states the rules."""

from __future__ import annotations

import pytest

from audit.replay.outcome import audit_hand
from audit.rules.ruleset import load_preset
from tests.replay.cases import CASES, Case
from tests.replay.scenario import scenario


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_check_in_memory(case: Case) -> None:
    game, hand = scenario(**case.kwargs)
    result = audit_hand(hand, game, load_preset(game.ruleset))
    got = [(f.check, f.hand_id, f.player_id, f.seq) for f in result.findings]
    if case.expect is None:
        assert result.status == "verified", [f.message for f in result.findings]
    else:
        assert got == [case.expect], [f.message for f in result.findings]
        assert result.status == "discrepancy"
