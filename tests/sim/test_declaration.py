"""A player's declaration: the solver's exact search for one (`solver.declaration`), which
the simulator plays without asking the rules engine again, and the collector pause that
keeps a room fast.

The search is held to the solver's best points: a hand after the draw can be declared
exactly when one of its cards can go on the finish slot and the rest are charged 0.
"""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest

from audit.cards import format_codes
from audit.rules.declaration import check_declaration
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, load_preset
from audit.rules.solver import best_points, declaration
from audit.sim import simulate
from tests.rules.hands import PRESETS, draw, near_complete, new_shoe, valid_declaration

HANDS = 600


def after_the_draw(seed: int) -> tuple[list[int], Jokers, Ruleset]:
    """14 cards of a preset's shoe: a third near-complete hands plus a card, a third a
    valid declaration filled up with random cards, a third a plain deal."""
    rng = random.Random(seed)
    rules = load_preset(PRESETS[seed % 2])
    kind = seed // 2 % 3
    if kind == 1:
        groups, jokers = valid_declaration(rng, rules)
        hand = [c for g in groups for c in g]
        shoe = new_shoe(rng, rules)
        shoe.subtract(hand)
        hand += draw(rng, shoe, 14 - len(hand))
    else:
        shoe = new_shoe(rng, rules)
        jokers = Jokers.for_wild_card(draw(rng, shoe, 1)[0], rules)
        hand = near_complete(rng, shoe, jokers, rules) if kind == 0 else draw(rng, shoe, 13)
        hand += draw(rng, shoe, 1)
    rng.shuffle(hand)
    return hand, jokers, rules


def declarable(hand: list[int], jokers: Jokers, rules: Ruleset) -> bool:
    """Some card on the finish slot leaves the rest charged 0."""
    for finish in set(hand):
        rest = list(hand)
        rest.remove(finish)
        if best_points(rest, jokers, rules) == 0:
            return True
    return False


@pytest.mark.parametrize("first", range(0, HANDS, 200))
def test_a_declaration_is_found_exactly_when_one_exists(first: int) -> None:
    found_any = False
    for seed in range(first, first + 200):
        hand, jokers, rules = after_the_draw(seed)
        found = declaration(hand, jokers, rules)
        text = f"seed {seed}: {format_codes(hand)} ({jokers.describe()}, {rules.id})"
        assert (found is not None) == declarable(hand, jokers, rules), text
        if found is None:
            continue
        found_any = True
        finish, groups = found
        rest = list(hand)
        rest.remove(finish)
        verdict = check_declaration(rest, groups, jokers, rules)
        assert verdict.valid, (text, verdict.reasons)
    assert found_any


def test_a_room_leaves_nothing_for_the_cycle_collector(tmp_path: Path) -> None:
    """A room is played with Python's cyclic garbage collector paused, which is safe only
    because nothing the simulator makes is kept alive by a reference cycle alone."""
    simulate(games=5, out=tmp_path / "warm", seed=1, anomalies="all")  # first-use caches
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        simulate(games=60, out=tmp_path / "logs", seed=7, anomalies="all", workers=1)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
