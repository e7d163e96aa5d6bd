"""The shared-device detector on synthetic nights (tests/fairplay/night.py): one device at
one table at the same moment is one person, however often chance seats the pair together
(docs/fairplay.md, ``fairplay.shared_device``)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest

from audit.fairplay.detectors import co_seating, shared_identity
from audit.fairplay.engine import Settings
from audit.fairplay.stats import poisson_sf
from audit.findings import Severity
from tests.fairplay.night import Night

if TYPE_CHECKING:
    from audit.fairplay.engine import Tested

PAIR = ("P0010", "P0011")


def _night(share: str, *, in_turn: bool = False) -> Tested:
    """A night of 80 regulars, each on an address of their own, where P0010 and P0011 sit at
    one table 5 times more than chance (about 1 game): ``share`` is what they share
    ("device": a device and its address; "ip": an address only). ``in_turn``: on the shared
    device, P0011 connects only once P0010 has left (a tablet handed over at the table)."""
    night = Night(seed=5, players=80, games=900)
    for i in range(night.players):
        night.ip[f"P{i:04d}"] = f"10.1.0.{i}"
    night.ip["P0011"] = night.ip["P0010"]
    if share == "device":
        night.device["P0011"] = night.device["P0010"]
    night.together.append((PAIR, 5))
    night.build()
    if in_turn:
        night.sess = [
            dict(r, joined_at=r["left_at"], left_at=r["left_at"] + timedelta(minutes=30))
            if r["player_id"] == "P0011" else r
            for r in night.sess
        ]  # fmt: skip
    con = night.load()
    co_seating(con, Settings())  # shared_identity reads its expectations
    return shared_identity(con, Settings())


def test_shared_device_at_the_same_moment_is_one_person_however_often_chance_seats_them() -> (
    None
):
    """A blind tester's night (docs/fairplay.md, shared_device): P025 and P026 on one device
    and one address, both on it at once in all 5 games they shared (one on the app, one on
    the web), against 1.16 expected for two regulars of one lobby, were tested and not
    suspected: a device counted as an address. Two people who share one device use it in
    turn; at one table at the same moment only a fingerprint collision is innocent, taken
    as 1 in 49 for a device 2 accounts use. The household on one address, seated alike,
    keeps the reading it had: random seating alone."""
    one_person, household = _night("device"), _night("ip")
    (pair,) = one_person.suspicions
    assert pair.players == PAIR
    assert pair.severity is Severity.MINOR
    assert "in 5 games (5 from one device, 5 with both on it at the same moment)" in (
        pair.message
    )
    (address,) = household.suspicions  # reported, as before: 5 games against about 1
    assert address.severity is Severity.INFO
    assert "(0 from one device)" in address.message
    # the device's reading counts games at once against the games model (each account
    # weighed by its opponents), the address's counts sittings against the seats each
    # account fills: on this night, where a player seldom stays at a table, nearly alike
    assert pair.observed == address.observed == 5
    assert pair.expected == pytest.approx(address.expected, rel=0.05)
    assert pair.p_value == pytest.approx(2 / 49 * poisson_sf(5.0, pair.expected))


def test_shared_device_used_in_turn_at_one_table_reads_as_an_address() -> None:
    """A tablet handed over at the table (the two never on it at the same moment) is what a
    household does: no collision is needed to explain it, so it reads as the address does,
    the smaller of the two readings doubled (Bonferroni)."""
    in_turn, household = _night("device", in_turn=True), _night("ip")
    (pair,) = in_turn.suspicions
    (address,) = household.suspicions
    assert "0 with both on it at the same moment" in pair.message
    assert pair.p_value == pytest.approx(2 * address.p_value)
