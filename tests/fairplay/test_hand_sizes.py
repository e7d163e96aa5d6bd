"""Chip dumping on synthetic nights of two hand sizes (tests/fairplay/night.py's 27-card
games beside the 13-card ones): a player's skill at one hand size is not taken for their
skill at another."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from audit.fairplay.engine import Settings
from audit.fairplay.flows import chip_dumping
from audit.fairplay.suspicion import Suspicion
from audit.rules.ruleset import FORMATS
from tests.fairplay.night import Night

SETTINGS = replace(Settings(), drop_formats=tuple(f"standard-13|{f}" for f in FORMATS[:3]))


def _suspected(seed: int) -> list[Suspicion]:
    """A night of 900 13-card games and 300 27-card ones, every player's 27-card strength
    drawn apart from their 13-card one. P0001 is honest, average at 13 cards and six times
    as strong as average at 27, and plays 40 heads-up 27-card games with P0002; P0020
    dumps to P0021 in 25 heads-up 27-card games, a hand size both rarely play."""
    night = Night(seed=seed, players=60, games=900, wide_games=300)
    rng = np.random.default_rng([seed, 2])
    night.wide_skill.update(zip(night.ids, rng.lognormal(0, 0.5, night.players), strict=True))
    night.skill["P0001"], night.wide_skill["P0001"] = 1.0, 6.0
    night.wide_together += [(("P0002", "P0001"), 40), (("P0020", "P0021"), 25)]
    night.dumps.add(("P0020", "P0021"))
    tested = chip_dumping(night.build().load(), SETTINGS)
    assert tested.tests > 300
    return tested.suspicions


@pytest.mark.parametrize("seed", [3, 4])
def test_chip_dumping_takes_a_player_strong_at_one_hand_size_for_strong_there(seed: int) -> None:
    """A strength was one figure over every hand size: a blind tester's honest P07, who won
    81 % of 236 hands at 10 cards and 23 % of 124 at 13, named P10, a 10-card opponent who
    lost to P07 as every other did, as a dumper (minor: P07 won 69 of the 81 hands one of
    them won, against 47.0 expected). Here P0002 was suspected of dumping to P0001, major
    on seed 3 (64 of 81 against 46.9 expected), info on seed 4; now no one names P0001."""
    assert not any("P0001" in s.players for s in _suspected(seed))


@pytest.mark.parametrize("seed", [1, 4])
def test_chip_dumping_finds_a_dumper_at_a_hand_size_they_rarely_play(seed: int) -> None:
    """Strengths taken at the hand size the pair met at cost no recall: the dumper planted
    at 27 cards is found as before (major on both nights), and nothing else is."""
    assert {s.players for s in _suspected(seed)} == {("P0020", "P0021")}
