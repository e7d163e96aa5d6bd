"""Each detector on synthetic nights (tests/fairplay/night.py): the planted pattern is found,
in the right direction and with its evidence, and its benign look-alike is not. The nights
have other seat counts, play volumes and think times than the simulator's."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

import numpy as np
import pytest

from audit.fairplay.detectors import (
    bots,
    co_seating,
    feeding,
    shared_identity,
    soft_drop,
)
from audit.fairplay.engine import Settings
from audit.fairplay.flows import chip_dumping, loss_dumping
from audit.fairplay.pairs import _raised
from audit.fairplay.rings import rings
from audit.fairplay.suspicion import Suspicion
from audit.findings import Severity, Thresholds
from audit.rules.ruleset import FORMATS
from tests.fairplay.night import T0, Night

SETTINGS = replace(Settings(), drop_formats=tuple(f"standard-13|{f}" for f in FORMATS[:3]))


def found(suspicions: list[Suspicion]) -> set[tuple[str, ...]]:
    return {s.players for s in suspicions}


def test_friends_at_one_table_are_co_seated_but_nothing_more() -> None:
    """The benign reading of co-seating: friends who play together, honestly. Co-seating
    names them (and says so); no other detector does."""
    night = Night(seed=3)
    night.together += [(("P0041", "P0042"), 12), (("P0043", "P0044", "P0045"), 10)]
    con = night.build().load()
    seated = co_seating(con, SETTINGS)
    assert found(seated.suspicions) >= {("P0041", "P0042")}
    assert all("friends" in s.benign for s in seated.suspicions)
    for detector in (shared_identity, feeding, soft_drop, chip_dumping, loss_dumping, bots):
        tested = detector(con, SETTINGS)
        assert tested.tests > 0 or detector is loss_dumping, detector.__name__  # few meet 10 times
        assert tested.suspicions == [], detector.__name__


def test_co_seating_finds_a_pair_that_keeps_sitting_together() -> None:
    night = Night(seed=4)
    night.together.append((("P0007", "P0008"), 12))
    con = night.build().load()
    tested = co_seating(con, SETTINGS)
    assert found(tested.suspicions) == {("P0007", "P0008")}
    (s,) = tested.suspicions
    assert s.observed >= 12
    assert s.expected < 2
    assert s.q_value <= SETTINGS.thresholds.report
    assert len(s.evidence_games) == SETTINGS.evidence
    assert "P0007" in s.recorded_text
    assert "P0008" in s.recorded_text


def test_co_seating_alone_is_at_most_minor_however_strong() -> None:
    """Sitting together is what friends do (docs/fairplay.md, "Default thresholds"): a pair
    seated together in 24 games, its q-value past the `major` line, is a lead, `minor` (a
    blind tester's honest friends were `major` and failed the night's run)."""
    night = Night(seed=4)
    night.together.append((("P0007", "P0008"), 24))
    tested = co_seating(night.build().load(), SETTINGS)
    (s,) = [s for s in tested.suspicions if s.players == ("P0007", "P0008")]
    assert s.q_value <= SETTINGS.thresholds.major
    assert s.severity is Severity.MINOR


def _two_alone(night: Night, seats: int = 6, point_value: str = "") -> tuple[Any, int, float]:
    """Co-seating over ``night`` with 40 more games of R0000 and R0001 alone, at tables of
    ``seats`` (at ``point_value`` where given): its result, and the pair's games together
    and expected."""
    first = number = len(night.g)
    for p in ("R0000", "R0001"):
        night.device[p], night.ip[p] = f"dev-{p}", f"10.7.0.{p[-1]}"
        night.skill[p], night.rate[p] = 1.0, 0.2
    for _ in range(40):
        number = night._game(number, ["R0000", "R0001"], seats=seats)
    for game in night.g[first:] if point_value else ():
        game["point_value"] = Decimal(point_value)
    con = night.load()
    tested = co_seating(con, SETTINGS)
    [(games, expected)] = con.sql(
        "SELECT games, expected FROM co_seat WHERE a = 'R0000' AND b = 'R0001'"
    ).fetchall()
    return tested, games, expected


def test_co_seating_expects_the_only_two_players_of_a_lobby_to_share_every_game() -> None:
    """A heads-up lobby at another stake that only two accounts play: random seating cannot
    help seating them together, so their forty games are what it expects, not twice it (an
    account is never drawn as its own opponent: co_seating.sql)."""
    tested, games, expected = _two_alone(Night(seed=7).build(), point_value="5.0000")
    assert ("R0000", "R0001") not in found(tested.suspicions)
    assert (games, expected) == (40, pytest.approx(40))


def test_co_seating_expects_the_regulars_of_a_heads_up_table_to_meet() -> None:
    """co_seating.sql's lobby holds the table size (`games.max_players`): two regulars of
    the heads-up tables of a stake that also runs six-seat tables sit together because
    only they chose two seats, not because they chose each other. Without the table size
    in the stratum their weights were set against the six-seat crowd's and 40 games
    together looked like friends choosing each other (a blind tester's honest nights: a
    minor and an info co-seating suspicion, gone with the heads-up stake changed)."""
    tested, games, expected = _two_alone(Night(seed=7).build(), seats=2)
    assert ("R0000", "R0001") not in found(tested.suspicions)
    assert (games, expected) == (40, pytest.approx(40))


def _one_table(chip: str) -> tuple[Any, list[str]]:
    """A night with six more accounts, T0000-T0005, who play 30 games at tables of the
    night of chip type ``chip``, the same six every game."""
    night = Night(seed=4).build()
    six = [f"T000{i}" for i in range(6)]
    for p in six:
        night.device[p], night.ip[p] = f"dev-{p}", f"10.8.0.{p[-1]}"
        night.skill[p], night.rate[p] = 1.0, 0.2
    number = len(night.g)
    for _ in range(30):
        number = night._game(number, six, chip=chip)
    return night.load(), six


def _sticky(
    night: Night, seated: list[list[str]], table: str, gap: timedelta, start: datetime = T0
) -> Night:
    """``night`` with one one-hand game at ``table`` for each line-up of ``seated``, from
    ``start``, each beginning ``gap`` after the one before ended."""
    number = len(night.g)
    for players in seated:
        number = night._game(number, players, table=table, start=start, hands=1)
        start = night.g[-1]["ended_at"] + gap
    return night


def test_co_seating_leaves_out_the_tables_a_tournament_seats() -> None:
    """docs/fairplay.md, co-seating, "Tournaments": the platform seats a tournament's
    tables, so the same six at one table for 30 games chose nothing (a blind tester's two
    tournament tables gave 15 `minor` co-seatings each). Shared identity still weighs
    those games, by the same expectation; at real money the same table is six friends."""
    con, six = _one_table("tournament")
    tested = co_seating(con, SETTINGS)
    assert not [s for s in tested.suspicions if set(s.players) & set(six)]
    [(games, expected, chosen)] = con.sql(
        "SELECT games, expected, chosen FROM co_seat WHERE a = 'T0000' AND b = 'T0001'"
    ).fetchall()
    assert (games, chosen) == (30, 0)
    assert expected > 0
    con, six = _one_table("real")
    pairs = {s.players for s in co_seating(con, SETTINGS).suspicions if set(s.players) <= set(six)}
    assert len(pairs) == 15


def test_co_seating_counts_a_sitting_not_every_deal_of_it() -> None:
    """co_seating.sql, "Sittings": six players who stay at one table for 20 deals, each deal
    a games row of its own (the contract's "a 'game' in points"), sat down together once.
    A blind tester's honest night of such sticky tables gave 346 co-seating suspicions
    when each deal counted as a seating (the same six at 20 tables of the night are
    suspected: ``_one_table``). Games more than ``break_minutes`` apart are sittings each."""
    six = [f"T000{i}" for i in range(6)]

    def together(gap: timedelta) -> tuple[Any, tuple[int, int]]:
        night = Night(seed=4).build()
        for p in six:
            night.device[p], night.ip[p] = f"dev-{p}", f"10.8.0.{p[-1]}"
            night.skill[p], night.rate[p] = 1.0, 0.2
        con = _sticky(night, [six] * 20, "TS", gap).load()
        tested = co_seating(con, SETTINGS)
        [row] = con.sql(
            "SELECT games, chosen FROM co_seat WHERE a = 'T0000' AND b = 'T0001'"
        ).fetchall()
        return tested, row

    tested, row = together(timedelta(seconds=20))
    assert row == (20, 1)
    assert not [s for s in tested.suspicions if set(s.players) & set(six)]
    _, row = together(timedelta(minutes=SETTINGS.break_minutes + 1))
    assert row == (20, 20)


def test_co_seating_tells_tables_of_one_id_at_two_stakes_apart() -> None:
    """co_seating.sql, "Sittings": a table is its table_id within its lobby, and a player's
    last game there is theirs. A second blind tester's honest night numbered each lobby's
    tables alike (T001 at three stakes at once): read by the table's previous game,
    whatever its stake, every deal was a fresh seating again (159 suspicions). Here two
    sticky tables called T001, at 1.00 and 0.10 a point, deal in turn; one player sits out
    a deal and comes back, which is staying."""
    night = Night(seed=4).build()
    high, low = [f"T000{i}" for i in range(6)], [f"T001{i}" for i in range(6)]
    for p in high + low:
        night.device[p], night.ip[p] = f"dev-{p}", f"10.8.1.{p[-2:]}"
        night.skill[p], night.rate[p] = 1.0, 0.2
    lineups = [high if k != 10 else high[:5] for k in range(20)]  # T0005 sits out deal 11
    _sticky(night, lineups, "T001", timedelta(seconds=20))
    first = len(night.g)
    _sticky(night, [low] * 20, "T001", timedelta(seconds=20), T0 + timedelta(minutes=4))
    for game in night.g[first:]:
        game["point_value"] = Decimal("0.1000")
    con = night.load()
    tested = co_seating(con, SETTINGS)
    assert not [s for s in tested.suspicions if set(s.players) & set(high + low)]
    rows = dict(con.sql(
        "SELECT a || '-' || b, (games, chosen) FROM co_seat"
        " WHERE a IN ('T0000', 'T0010') AND b IN ('T0001', 'T0005', 'T0011')"
    ).fetchall())  # fmt: skip
    assert rows == {"T0000-T0001": (20, 1), "T0000-T0005": (19, 1), "T0010-T0011": (20, 1)}


def test_co_seating_names_the_times_a_pair_sat_down_together() -> None:
    """A pair who sit down together at sticky tables again and again (two deals each time,
    with others) is counted by its sittings, and the message says how many and how long;
    its evidence is the games where they sat down, one a sitting."""
    night = Night(seed=4).build()
    first = len(night.g)
    pair = ["R0000", "R0001"]
    for p in pair:
        night.device[p], night.ip[p] = f"dev-{p}", f"10.7.0.{p[-1]}"
        night.skill[p], night.rate[p] = 1.0, 0.2
    for sitting in range(7):
        others = [f"P{(7 * sitting + k) % 100:04d}" for k in range(3)]
        _sticky(night, [pair + others] * 2, f"S{sitting}", timedelta(seconds=20))
        for game in night.g[-2:]:  # the sittings one after another, in the night's hours
            game["started_at"] += timedelta(minutes=25 * sitting)
            game["ended_at"] += timedelta(minutes=25 * sitting)
    con = night.load()
    (s,) = [s for s in co_seating(con, SETTINGS).suspicions if list(s.players) == pair]
    assert s.observed == 7
    # six of the sittings began straight from the one before (a break under 10 minutes)
    assert ("sat down at the same table together 7 times (6 times straight from one game "
            "they both left), for 14 games in all, against") in s.message
    sat_down = {game["game_id"] for game in night.g[first::2]}
    assert len(s.evidence_games) == SETTINGS.evidence
    assert set(s.evidence_games) <= sat_down


def _movers(seed: int) -> Night:
    """A lobby of its own (2.00 a point) of twelve six-seat tables dealing one-hand games in
    step for 20 rounds: three accounts stay at each all night (S0000-S0035), twelve honest
    movers (M0000-M0011) each take a random table with a free seat after half the deals,
    and a pair (G0000, G0001) takes one with two free seats together after every deal."""
    night = Night(seed=4).build()
    rng = random.Random(seed)
    stayers = [f"S{i:04d}" for i in range(36)]
    movers, pair = [f"M{i:04d}" for i in range(12)], ["G0000", "G0001"]
    for p in stayers + movers + pair:
        night.device[p], night.ip[p] = f"dev-{p}", f"10.9.{p[0]}.{p[-2:]}"
        night.skill[p], night.rate[p] = 1.0, 0.2
    seats = {t: stayers[3 * t : 3 * t + 3] for t in range(12)}
    where: dict[str, int] = {}

    def sit(group: list[str]) -> None:
        table = rng.choice([t for t in range(12) if 6 - len(seats[t]) >= len(group)])
        seats[table] += group
        where.update(dict.fromkeys(group, table))

    for group in [[m] for m in movers] + [pair]:
        sit(group)
    number = first = len(night.g)
    for deal in range(20):
        start = T0 + deal * timedelta(minutes=8, seconds=20)
        for t in range(12):
            number = night._game(number, list(seats[t]), table=f"L{t:02d}", start=start, hands=1)
        for group in [[m] for m in movers if rng.random() < 0.5] + [pair]:
            seats[where[group[0]]] = [p for p in seats[where[group[0]]] if p not in group]
            sit(group)
    for game in night.g[first:]:
        game["point_value"] = Decimal("2.0000")
    return night


def test_co_seating_finds_a_pair_that_moves_together_among_tables_whose_players_stay() -> None:
    """co_seating.sql, the null model: an account that sits down meets each other account
    as often as that one fills the lobby's seats. The configuration model it replaced
    weighed both by the sittings they begin, and where most players stay put those who move
    begin most of them: it expected the pair that moves together to meet 6.58 times, and
    their 18 sittings together went unnamed (a blind tester's planted pair, missed on 4
    nights of 5). The honest movers, who meet each other and the stayers by chance, are
    not suspected."""
    con = _movers(seed=0).load()
    tested = co_seating(con, SETTINGS)
    [(chosen, expected)] = con.sql(
        "SELECT chosen, chosen_expected FROM co_seat WHERE a = 'G0000' AND b = 'G0001'"
    ).fetchall()
    assert chosen == 18
    assert expected == pytest.approx(2.76, abs=0.01)
    [s] = [s for s in tested.suspicions if s.players[0][0] in "GMS"]
    assert s.players == ("G0000", "G0001")
    assert s.severity == Severity.MINOR


def _queue(seed: int) -> Night:
    """A lobby of its own (3.00 a point) on a platform that seats from a queue: 180 honest
    accounts at tables of six dealing in step for 24 rounds; half stay all night, half leave
    after 2 or 3 deals, and those who leave at the end of one deal are queued table by
    table and seated six to a new table, in their order."""
    night = Night(seed=4).build()
    rng = random.Random(seed)
    ids = [f"Q{i:04d}" for i in range(180)]
    for p in ids:
        night.device[p], night.ip[p] = f"dev-{p}", f"10.5.{p[-3]}.{p[-2:]}"
        night.skill[p], night.rate[p] = 1.0, 0.2
    tables = {f"Q{t:03d}": ids[6 * t : 6 * t + 6] for t in range(30)}
    deals = {p: rng.choice([2, 3]) for p in ids[1::2]}  # the movers' deals left at a table
    number = first = len(night.g)
    for deal in range(24):
        start = T0 + deal * timedelta(minutes=4, seconds=20)
        for t, seated in sorted(tables.items()):
            if len(seated) >= 2:
                number = night._game(number, list(seated), table=t, start=start, hands=1)
        queue = []
        for t in sorted(tables):
            for p in tables[t]:
                deals[p] = deals[p] - 1 if p in deals else 1
            queue += [p for p in tables[t] if deals[p] == 0]
            tables[t] = [p for p in tables[t] if deals[p] != 0]
        for k in range(0, len(queue), 6):
            tables[f"N{deal:02d}-{k // 6}"] = queue[k : k + 6]
            deals.update({p: rng.choice([2, 3]) for p in queue[k : k + 6]})
        tables = {t: seated for t, seated in tables.items() if seated}
    for game in night.g[first:]:
        game["point_value"] = Decimal("3.00")
        game["ended_at"] = game["started_at"] + timedelta(minutes=4)
    return night


def test_co_seating_expects_a_queue_to_seat_again_those_who_leave_one_game_together() -> None:
    """co_seating.sql, carry-over: a platform that seats from a queue puts players who
    leave one game at the same moment at one table again, and the same two leave together
    again often enough to meet 7 or 8 times a night by the queue alone (a blind tester's
    three honest nights of such a platform: 14, 6 and 11 co-seating suspicions, 7
    `minor`, and a `shared_device` on a carrier's address). Their lobby's carry-over,
    measured on the night, expects it; the lobby of ``_movers``, where the platform does
    not, finds its pair as before."""
    con = _queue(seed=0).load()
    tested = co_seating(con, SETTINGS)
    assert not [s for s in tested.suspicions if s.players[0].startswith("Q")]
    [(chosen, moved, carried)] = con.sql(
        "SELECT max(chosen), max(moved), max(carried) FROM co_seat WHERE a LIKE 'Q%'"
    ).fetchall()
    assert chosen >= 7
    assert moved >= 6
    assert carried > 2.5  # about half of each time they left together


def test_shared_address_at_a_sticky_table_is_one_sitting_but_one_device_at_once_is_not() -> None:
    """shared_identity.sql: two accounts on one address (a carrier's, a household's) who
    stay at one table for 20 deals sat down together once (a blind tester's honest pair on a
    carrier's address, 17 deals of a sticky table, was suspected); two accounts on one
    device at the same moment for those 20 deals are one person in two seats, counted in
    games, and suspected."""
    pair = ["H0000", "H0001"]

    def shared(device: bool) -> list[Any]:
        night = Night(seed=4).build()
        for p in pair:
            night.skill[p], night.rate[p] = 1.0, 0.2
        night.ip["H0000"] = night.ip["H0001"] = "10.6.6.6"
        night.device["H0000"], night.device["H0001"] = "dev-h", "dev-h" if device else "dev-h1"
        seated = [pair + (["P0050", "P0051"] if k < 10 else ["P0052", "P0053"]) for k in range(20)]
        con = _sticky(night, seated, "TS", timedelta(seconds=20)).load()
        co_seating(con, SETTINGS)
        return [s for s in shared_identity(con, SETTINGS).suspicions if list(s.players) == pair]

    assert shared(device=False) == []
    (s,) = shared(device=True)
    assert s.observed == 20
    assert "20 with both on it at the same moment" in s.message


def test_shared_device_at_one_table_is_suspect_but_sharing_alone_is_not() -> None:
    night = Night(seed=5)
    night.device["P0011"] = night.device["P0010"]  # one person, two accounts
    night.together.append((("P0010", "P0011"), 4))
    night.device["P0021"] = night.device["P0020"]  # a household tablet, never at one table
    for i in range(30, 70):  # a cafe: forty accounts on one address
        night.ip[f"P{i:04d}"] = "10.9.9.9"
    con = night.build().load()
    co_seating(con, SETTINGS)  # shared_identity reads its expectations
    tested = shared_identity(con, SETTINGS)
    assert found(tested.suspicions) == {("P0010", "P0011")}
    assert "a device" in tested.suspicions[0].message



def test_shared_device_counts_only_games_both_accounts_were_dealt_into() -> None:
    """docs/fairplay.md, shared_device: the games two accounts "sat at one table" are games
    both were dealt into. A blind tester's account in no hand, whose sessions rows copied
    another's (an honest household member who connects and leaves before the deal writes the
    same), was `major` with both of a real pair, 16 games against 0.00 expected, no evidence
    hand, and a ring of the three."""
    night = Night(seed=5)
    night.device["P0011"] = night.device["P0010"]  # one person, two accounts
    night.together.append((("P0010", "P0011"), 4))
    night.build()
    night.sess += [dict(r, player_id="GHOST") for r in night.sess if r["player_id"] == "P0010"]
    con = night.load()
    co_seating(con, SETTINGS)
    tested = shared_identity(con, SETTINGS)
    assert found(tested.suspicions) == {("P0010", "P0011")}
    (pair,) = tested.suspicions
    assert "(3 accounts use it)" in pair.message  # the ghost still shares the device
    dealt = {r["hand_id"] for r in night.seat if r["player_id"] == "P0011"}
    assert pair.evidence_hands
    assert set(pair.evidence_hands) <= dealt
    assert rings(tested.suspicions, SETTINGS.thresholds) == []

def test_feeding_is_found_from_the_feeder_to_the_fed_and_not_back() -> None:
    night = Night(seed=6)
    night.together.append((("P0100", "P0101"), 10))
    night.feeds["P0100", "P0101"] = 0.75
    con = night.build().load()
    tested = feeding(con, SETTINGS)
    assert found(tested.suspicions) == {("P0100", "P0101")}
    (s,) = tested.suspicions
    assert s.effect > 2
    assert s.evidence_hands


def test_feeding_takes_account_of_a_giver_whose_discards_everyone_takes() -> None:
    """A careless thrower: everyone after them takes their discards far more often; the
    player who happens to sit after them most is not taken for a partner."""
    night = Night(seed=7)
    night.together.append((("P0120", "P0121"), 10))
    night.build()
    for row in night.pile:
        if row["giver"] == "P0120":
            row["taken"] = row["melded"] = min(row["offered"], round(row["offered"] * 0.7))
    tested = feeding(night.load(), SETTINGS)
    assert ("P0120", "P0121") not in found(tested.suspicions)


def test_feeding_raises_the_baseline_only_for_a_giver_shown_careless() -> None:
    """A careless giver (others take their discards more often than the night's rate)
    raises the taker's baseline, but only when that is significant (binomial at
    BEYOND_ALPHA): a blind tester's planted partner, who took 41 of the 150 discards their
    feeder left against their own 3 of 52, was missed when others' 7 takes of the
    feeder's 39 discards (p = 0.12 at the night's 0.104) raised the baseline 1.5 times."""
    alpha, beta = np.array([2.0]), np.array([18.0])  # a baseline of 0.1
    rate = np.array([0.104])
    chance = _raised(alpha, beta, np.array([39.0]), np.array([7.0]), rate, 10.0)
    assert [float(x[0]) for x in chance] == [2.0, 18.0]
    shown = _raised(alpha, beta, np.array([390.0]), np.array([70.0]), rate, 10.0)
    assert float(shown[0][0] / (shown[0][0] + shown[1][0])) > 0.16


def test_feeding_judges_a_strong_taker_by_their_own_rate() -> None:
    """The null model is B's own rate with other players' discards. A lobby of sixteen
    players who take discards at one rate (0.2) and eight strong ones who take any they
    can meld (0.4), honestly: the prior fitted on the sixteen was worth thousands of draws
    and pulled each strong player's well-measured rate back toward the night's, so every
    strong player was suspected of being fed by the players they sat after most (fourteen
    suspicions on this night; a blind tester's honest night had nine)."""
    night = Night(seed=32, players=24, games=900, meld_rate=(800.0, 3200.0))
    for i in range(8):
        night.rate[f"P{i:04d}"] = 0.4
    tested = feeding(night.build().load(), SETTINGS)
    assert tested.tests > 500
    assert tested.suspicions == []


@pytest.mark.parametrize("seed", [1, 2])
def test_feeding_judges_a_taker_at_the_hand_sizes_the_pair_met_at(seed: int) -> None:
    """With 27 cards nearly every discard connects, and every taker's rate is 2.75 times
    their 13-card one here (a blind tester's honest nights: 0.55 against 0.2). A strong
    taker who met a weaker player at 27-card tables, judged by a rate from mostly 13-card
    play, was suspected of being fed, `major`; on these nights, with a quarter of the games
    at 27 cards, 21 to 41 suspicions a night, all false. A planted partner fed at 13 cards
    is still found."""
    night = Night(seed=seed, players=60, games=900, wide_games=300)
    night.rate["P0001"] = 0.34
    night.wide_together.append((("P0002", "P0001"), 15))
    night.together.append((("P0020", "P0021"), 10))
    night.feeds["P0020", "P0021"] = 0.6
    tested = feeding(night.build().load(), SETTINGS)
    assert tested.tests > 1000  # pairs of three hands or more
    assert found(tested.suspicions) == {("P0020", "P0021")}


def test_feeding_floor_sees_a_partner_who_takes_less_than_half_of_the_feeders_discards() -> None:
    """Feeding's effect floor is 1.25 times B's baseline, not the 1.5 of the other detectors
    (``Settings.feed_effect``): B's baseline is already about a third of the discards at 13
    cards, and a blind tester's partner who took 390 of the feeder's 857 discards, 1.47
    times their baseline over 137 hands (q = 1.2e-06), was missed. A strong taker (0.33)
    fed at 0.44 over 120 games is found now and was not under 1.5; fed at 0.36, within
    chance and under the floor, they are not."""
    def night(fed: float) -> Any:
        night = Night(seed=1, players=80)
        night.together.append((("P0030", "P0031"), 120))
        night.rate["P0031"] = 0.33
        night.feeds["P0030", "P0031"] = fed
        return night.build().load()

    con = night(0.44)
    (s,) = feeding(con, SETTINGS).suspicions
    assert s.players == ("P0030", "P0031")
    assert 1.25 <= s.effect < 1.5
    assert feeding(con, replace(SETTINGS, feed_effect=1.5)).suspicions == []
    assert feeding(night(0.36), SETTINGS).suspicions == []


def test_feeding_leaves_out_the_hands_with_the_partner_a_dumper_plays_for() -> None:
    """A chip dumper busy losing to a partner takes no discard in the partner's hands.
    Counted in, those hands pulled the dumper's own rate down, and a friend the dumper sat
    after elsewhere, whose discards the dumper took at their ordinary rate, was suspected of
    feeding them (major here; a blind tester's night had four such suspects, one major).
    The dumper's own feeding of the partner is still found."""
    night = Night(seed=1)
    night.together += [(("P0200", "P0201"), 40), (("P0210", "P0200"), 12)]
    night.rate["P0200"] = 0.3
    night.refuses.add(("P0200", "P0201"))
    night.feeds["P0200", "P0201"] = 0.75
    tested = feeding(night.build().load(), SETTINGS)
    assert found(tested.suspicions) == {("P0200", "P0201")}
    # a real feeder of that dumper is still found, and told which hands were left out
    night = Night(seed=1)
    night.together += [(("P0200", "P0201"), 40), (("P0210", "P0200"), 12)]
    night.rate["P0200"] = 0.3
    night.refuses.add(("P0200", "P0201"))
    night.feeds["P0210", "P0200"] = 0.75
    (s,) = feeding(night.build().load(), SETTINGS).suspicions
    assert s.players == ("P0210", "P0200")
    assert "the hands with P0201 left out" in s.message


def test_soft_drop_finds_strong_hands_given_up_for_one_partner_only() -> None:
    night = Night(seed=8)
    night.together.append((("P0200", "P0201", "P0202"), 14))  # P0202 only sits with them
    night.soft["P0200", "P0201"] = 0.6
    con = night.build().load()
    tested = soft_drop(con, SETTINGS)
    # P0202 was at every one of those tables, but the drops are explained by P0201
    assert found(tested.suspicions) == {("P0200", "P0201")}


def test_soft_drop_of_a_player_dealt_only_with_the_partner_says_its_baseline_is_the_nights(
) -> None:
    """docs/fairplay.md, soft drop: "a stratum where A has no hands without B is that prior
    alone". Its words say so, not "expected from A's play without B" of a player who
    played every hand with B (a blind tester's pair that only ever played together)."""
    night = Night(seed=8)
    night.ids.remove("P0200")  # dealt only below, with P0201: no random table, no filler
    night.ids.remove("P0201")
    night.together.append((("P0200", "P0201"), 60))
    night.soft["P0200", "P0201"] = 0.6
    tested = soft_drop(night.build().load(), SETTINGS)
    (s,) = [s for s in tested.suspicions if s.players == ("P0200", "P0201")]
    assert "expected from the night's rate (P0200 was dealt no hand without P0201)" in s.message
    assert "play without" not in s.message


def test_soft_drop_says_which_partners_the_hands_cannot_tell_apart() -> None:
    """docs/fairplay.md, soft drop: "two partners of A who always sit together are no
    explanation of each other". P0200, dealt only at one table of four that never changes,
    gives up strong hands for P0203: the pair named is the first by id, P0201, and it was
    named alone (a blind tester's S1, who dropped for S2, named with H1 only). The message
    says the others were in exactly the same hands."""
    night = Night(seed=8)
    for p in ("P0200", "P0201", "P0202", "P0203"):
        night.ids.remove(p)  # dealt only at the table of four
    night.together.append((("P0200", "P0201", "P0202", "P0203"), 40))
    night.soft["P0200", "P0203"] = 0.6
    (s,) = soft_drop(night.build().load(), SETTINGS).suspicions
    assert s.players == ("P0200", "P0201")
    assert s.message.endswith("P0202 and P0203 were dealt into exactly the same hands, so "
                              "the hands cannot tell which of P0201, P0202 and P0203 P0200 "
                              "did it for.")  # fmt: skip


def ring_night(seed: int) -> Night:
    """P0200, P0201 and P0202 give up strong hands for one another whenever two of them sit
    together; P0203 sits only beside two of them (P0200 with P0201, or with P0202), P0204
    only beside P0201 and P0202."""
    night = Night(seed=seed)
    ring = ("P0200", "P0201", "P0202")
    night.soft.update({(a, b): 0.6 for a in ring for b in ring if a != b})
    night.together += [(("P0200", "P0201", "P0203"), 10), (("P0200", "P0202", "P0203"), 10),
                       (("P0201", "P0202", "P0204"), 10), (ring, 6)]  # fmt: skip
    return night.build()


def test_soft_drop_spares_a_player_seated_only_beside_a_ring_that_drops_for_one_another() -> None:
    """docs/fairplay.md, soft drop, explaining away: a pair (A, C) whose excess is A's with
    other partners of A seated in those hands is theirs. A ring's members, each judged
    against a rate full of the drops made for the third, may not be suspected of one
    another, and then made a suspect of each honest player seated beside two of them (a
    blind tester: an innocent `minor`, and a ring of five with two innocents). On this
    night P0200's drops with P0203 are all in hands with P0201 or P0202 at the table, and
    P0200 drops as often with them without P0203: no suspicion. A ring pair that stands in
    the hands without the third is kept (another night of the same plan)."""
    assert found(soft_drop(ring_night(23).load(), SETTINGS).suspicions) == set()
    assert found(soft_drop(ring_night(24).load(), SETTINGS).suspicions) == {("P0201", "P0200")}


def test_soft_drop_spares_a_cautious_player_who_drops_strong_hands_with_anyone() -> None:
    night = Night(seed=9)
    for partner in ("P0231", "P0232", "P0233", "P0234", "P0235"):
        night.together.append((("P0230", partner), 4))
    night.build()
    for row in night.drops:
        if row["player_id"] == "P0230":
            row["points"] = row["deadwood"] = 20  # every drop of theirs is a strong hand
    for row in night.seat:  # and they drop a third of their hands, whoever sits there
        if row["player_id"] == "P0230" and row["outcome"] == "lost" and row["points"] % 3 == 0:
            night.drops.append(
                {"game_id": row["game_id"], "hand_id": row["hand_id"], "player_id": "P0230",
                 "seq": 0, "first": True, "turns": 0, "reason": "player", "points": 20,
                 "deadwood": 20}
            )  # fmt: skip
    tested = soft_drop(night.load(), SETTINGS)
    assert not any(s.players[0] == "P0230" for s in tested.suspicions)


def test_soft_drop_spares_folds_the_rules_charge_in_full_however_low_their_deadwood() -> None:
    """Strong is what the rules would charge first, deadwood second (soft_drop.sql): an
    honest P0250 who folds, whenever P0251 sits in, hands of jokers in sets with no pure
    sequence (deadwood 15-34, charged the full 80) is not suspected; P0260, who gives up
    hands that met the requirement (charged 15-34) for P0261, is. Judged by deadwood alone
    (until 2026-12-05), both were."""
    night = Night(seed=15)
    night.together += [(("P0250", "P0251"), 14), (("P0260", "P0261"), 14)]
    night.charged["P0250", "P0251"] = 0.6
    night.soft["P0260", "P0261"] = 0.6
    con = night.build().load()
    tested = soft_drop(con, SETTINGS)
    assert found(tested.suspicions) == {("P0260", "P0261")}
    (suspicion,) = tested.suspicions
    evidence = {r["hand_id"]: r for r in night.drops if r["player_id"] == "P0260"}
    assert all(evidence[h]["points"] < 35 for h in suspicion.evidence_hands)
    # the fold of a hand the rules charge in full is never strong, however small its
    # deadwood, even where (as here) fewer than a tenth of the early drops are charged less
    charged = sum(r["points"] < 80 for r in night.drops) / len(night.drops)
    assert charged < SETTINGS.strong_quantile


def test_soft_drop_compares_a_player_with_their_own_play_in_the_same_kind_of_game() -> None:
    """A's rate with B is A's own without B in the same kind of game (format and chip type:
    soft_drop.sql). An honest P0270, cautious at real money (a strong hand given up in about
    a quarter of their real-money hands, whoever sits there) and who never drops at practice
    tables, where they play two hundred hands heads-up with P0272; P0271 sits at most of
    their real-money hands. Against every kind of game pooled (until 2026-12-05, a blind
    tester's honest night) the practice hands made P0270's rate without P0271 a fraction of
    their real-money one, and P0270 was suspected with P0271. The planted P0200, who gives
    up strong hands for P0201 only, is still found."""
    night = Night(seed=16)
    night.together += [(("P0270", "P0271"), 24), (("P0200", "P0201"), 14)]
    night.soft["P0200", "P0201"] = 0.6
    night.build()
    number = len(night.g)
    practice = {f"G{number + i:05d}" for i in range(100)}
    for _ in range(100):
        number = night._game(number, ["P0270", "P0272"])
    for rows in (night.g, night.seat):
        for row in rows:
            if row["game_id"] in practice:
                row["chip_type"] = "practice"
    night.drops = [r for r in night.drops if r["player_id"] != "P0270"]
    cautious = random.Random(16)
    for row in night.seat:
        if (row["player_id"] == "P0270" and row["game_id"] not in practice
                and cautious.random() < 0.25):  # fmt: skip
            night.drops.append(
                {"game_id": row["game_id"], "hand_id": row["hand_id"], "player_id": "P0270",
                 "seq": 0, "first": True, "turns": 0, "reason": "player", "points": 20,
                 "deadwood": 20}
            )  # fmt: skip
    con = night.load()
    tested = soft_drop(con, SETTINGS)
    assert found(tested.suspicions) == {("P0200", "P0201")}


def _cautious(
    night: Night, player: str, seed: int, where: Callable[[dict[str, Any]], bool]
) -> None:
    """``player`` gives up a strong hand in about a quarter of their hands ``where`` holds,
    whoever sits there, and drops nothing elsewhere: an honest style."""
    night.drops = [r for r in night.drops if r["player_id"] != player]
    chance = random.Random(seed)
    for row in night.seat:
        if row["player_id"] == player and where(row) and chance.random() < 0.25:
            night.drops.append(
                {"game_id": row["game_id"], "hand_id": row["hand_id"], "player_id": player,
                 "seq": 0, "first": True, "turns": 0, "reason": "player", "points": 20,
                 "deadwood": 20}
            )  # fmt: skip


def _tables(night: Night, games: int, players: list[str], size: int, away: set[str]) -> set[str]:
    """``games`` more games of ``players`` and others (none of ``away``) at tables of
    ``size``; their ids."""
    others = [p for p in night.ids if p not in set(players) | away]
    number, ids = len(night.g), set()
    for _ in range(games):
        fill = [str(p) for p in night.rng.choice(others, size - len(players), replace=False)]
        ids.add(f"G{number:05d}")
        number = night._game(number, players + fill)
    return ids


def test_soft_drop_compares_a_player_with_their_own_play_at_the_same_table_size() -> None:
    """A's kind of game includes the players dealt in: heads-up, 3-4, or 5 or more
    (soft_drop.sql). An honest P0290 gives up strong hands at tables of five or six and
    never heads-up, where they play two hundred hands against P0292; P0291 sits at most
    of their six-player hands. With every table size pooled (until 2026-12-05, a blind
    tester's honest night: `info`) the heads-up hands made P0290's rate without P0291 a
    fraction of their six-player one, and P0290 was suspected with P0291. The planted
    P0200 is still found."""
    night = Night(seed=17)
    night.together.append((("P0200", "P0201"), 14))
    night.soft["P0200", "P0201"] = 0.6
    night.build()
    _tables(night, 200, ["P0290", "P0292"], 2, set())
    _tables(night, 40, ["P0290", "P0291"], 6, set())
    _tables(night, 15, ["P0290"], 6, {"P0291"})
    size = Counter(row["hand_id"] for row in night.seat)
    _cautious(night, "P0290", 17, lambda row: size[row["hand_id"]] >= 5)
    tested = soft_drop(night.load(), SETTINGS)
    assert found(tested.suspicions) == {("P0200", "P0201")}


def test_soft_drop_compares_a_player_with_their_own_play_at_the_same_stakes() -> None:
    """At real money A's kind of game includes the point value (soft_drop.sql). An honest
    P0295 gives up strong hands at 2.00 a point and never at 0.10, where they play most of
    their hands; P0296 sits at most of their 2.00 hands, all six-player like the 0.10 ones.
    With every stake pooled (until 2026-12-05, a blind tester's honest night: `major`) the
    0.10 hands made P0295's rate without P0296 a fraction of their 2.00 one, and P0295 was
    suspected with P0296. The planted P0200 is still found."""
    night = Night(seed=18)
    night.together.append((("P0200", "P0201"), 14))
    night.soft["P0200", "P0201"] = 0.6
    night.build()
    high = _tables(night, 30, ["P0295", "P0296"], 6, set())
    high |= _tables(night, 15, ["P0295"], 6, {"P0296"})
    low = _tables(night, 100, ["P0295"], 6, {"P0296"})
    for rows in (night.g, night.seat):
        for row in rows:
            if row["game_id"] in high | low:
                row["point_value"] = Decimal("2.0000" if row["game_id"] in high else "0.1000")
    _cautious(night, "P0295", 18, lambda row: row["game_id"] in high)
    tested = soft_drop(night.load(), SETTINGS)
    assert found(tested.suspicions) == {("P0200", "P0201")}


def test_chip_dumping_finds_points_flowing_one_way() -> None:
    night = Night(seed=10)
    night.together.append((("P0240", "P0241"), 16))
    night.dumps.add(("P0240", "P0241"))
    con = night.build().load()
    tested = chip_dumping(con, SETTINGS)
    assert ("P0240", "P0241") in found(tested.suspicions)
    assert ("P0241", "P0240") not in found(tested.suspicions)
    s = next(s for s in tested.suspicions if s.players == ("P0240", "P0241"))
    assert s.money is not None
    assert "paid by P0240 in the hands P0241 won" in s.money


def _dumper_with_a_record(usual: bool) -> Suspicion:
    """P0240 throws most hands to P0241 (losing the full 80 each), and plays 30 more games
    without P0241 (a record of their usual losses); with ``usual``, each hand P0241 won
    costs P0240 what an honest loser's does instead. The pair's suspicion."""
    night = Night(seed=10)
    night.together.append((("P0240", "P0241"), 16))
    night.dumps.add(("P0240", "P0241"))
    night.build()
    number, others = len(night.g), [p for p in night.ids if p not in ("P0240", "P0241")]
    rng = random.Random(7)
    for _ in range(30):
        number = night._game(number, ["P0240", *rng.sample(others, 4)])
    won = {r["hand_id"] for r in night.seat if r["player_id"] == "P0241" and r["outcome"] == "won"}
    for r in night.seat if usual else ():
        if r["player_id"] == "P0240" and r["hand_id"] in won:
            r["points"] = 80 if rng.random() < 0.25 else rng.randint(2, 79)
            r["amount"] = Decimal(-r["points"])
    (s,) = [s for s in chip_dumping(night.load(), SETTINGS).suspicions
            if s.players == ("P0240", "P0241")]  # fmt: skip
    assert s.q_value <= SETTINGS.thresholds.major  # major by its q-value alone
    return s


def test_chip_dumping_of_a_full_count_lost_to_the_partner_keeps_its_severity() -> None:
    """docs/fairplay.md, chip dumping, "Loss sizes": the dumper plays on to lose the full
    count to the partner (80 in the hands thrown, 74.5 a hand in all) against a record of
    65 losses without them at 50.5 a hand, which bears the count of wins out: the
    suspicion is `major`, as its q-value."""
    s = _dumper_with_a_record(usual=False)
    assert s.severity is Severity.MAJOR
    assert "(74.5 a hand; 50.5 a hand in their 65 losses without P0241)" in s.message
    assert "at most" not in s.message


def test_chip_dumping_of_wins_alone_with_losses_of_the_usual_size_is_info_at_most() -> None:
    """docs/fairplay.md, chip dumping, "Loss sizes": Luce's share does not hold in a race
    between a strong and a weak player, and a weak player who never drops loses to a strong
    friend far more often than the two's records elsewhere predict, but no bigger. A blind
    tester's honest P04 won 3 of the 55 hands one of them won against P03 (33.3 expected),
    conceding 64.5 a hand to P03 and 58.3 without: P03's dumper at major until 2026-12-07.
    Here the partner wins as often as a dumper's, but the loser concedes what they concede
    in their 65 losses without the partner: reported, at info, and the message says why."""
    s = _dumper_with_a_record(usual=True)
    assert s.severity is Severity.INFO
    assert s.message.endswith("without P0241 show, so the count of wins alone speaks, as a "
                              "weak player's against a strong one would: info at most.")


def test_chip_dumping_on_a_record_too_thin_to_weigh_the_losses_is_minor_at_most() -> None:
    """docs/fairplay.md, chip dumping, "Loss sizes": a weak player who plays only with a
    strong friend has no record of their own to weigh their losses to the friend against,
    and their results cannot tell them from a dumper (a blind tester's honest weak player,
    12 losses without the friend, was the friend's dumper at major on 3 nights of 4).
    P0240 (strength 0.5) and P0241 (6) meet only at one table: reported, with the q-value
    of a major, at minor, and the message says why."""
    night = Night(seed=10)
    night.ids.remove("P0240")  # dealt only below, with each other
    night.ids.remove("P0241")
    night.skill["P0240"], night.skill["P0241"] = 0.5, 6.0
    night.together.append((("P0240", "P0241"), 40))
    (s,) = [s for s in chip_dumping(night.build().load(), SETTINGS).suspicions
            if s.players == ("P0240", "P0241")]  # fmt: skip
    assert s.q_value <= SETTINGS.thresholds.major
    assert s.severity is Severity.MINOR
    assert s.message.endswith("P0240's record without P0241 is too thin (0 losses) to tell "
                              "a weak player's losses to a strong friend from a dumper's: "
                              "minor at most.")  # fmt: skip


def test_chip_dumping_of_a_pair_never_apart_says_its_expectation_is_an_even_share() -> None:
    """docs/fairplay.md, chip dumping: a player's strength comes from their own results in
    hands without the other. Two who were never dealt a hand apart have none: the words say
    the expectation is an even share, not "from their own results" (a blind tester)."""
    night = Night(seed=10)
    night.ids.remove("P0240")  # dealt only below, with each other: no random table
    night.ids.remove("P0241")
    night.together.append((("P0240", "P0241"), 40))
    night.dumps.add(("P0240", "P0241"))
    tested = chip_dumping(night.build().load(), SETTINGS)
    (s,) = [s for s in tested.suspicions if s.players == ("P0240", "P0241")]
    assert "expected from an even share: neither was dealt a hand without the other)" in s.message
    assert "their own results" not in s.message


def test_chip_dumping_by_the_size_of_losses_alone_is_beyond_the_win_count() -> None:
    """What the detector cannot see (docs/fairplay.md): a dumper who loses to the partner
    no more often than chance but concedes the full count each time. The test is on who
    wins between the two; the points only have to run the same way (the flow ratio, here
    far above its floor). A blind tester's X005 lost 1,583 points to X006 in 21 hands
    (-7,275.00) while X006 won 19 of the 29 hands one of them won (p about 0.07):
    nothing was raised."""
    night = Night(seed=10)
    night.together.append((("P0240", "P0241"), 16))
    night.build()
    won = {r["hand_id"] for r in night.seat if r["player_id"] == "P0241" and r["outcome"] == "won"}
    for r in night.seat:
        if r["player_id"] == "P0240" and r["hand_id"] in won:
            r["outcome"], r["points"], r["amount"] = "lost", 80, Decimal(-80)
    gave = sum(r["points"] for r in night.seat if r["player_id"] == "P0240" and r["hand_id"] in won)
    assert gave >= 80 * 10
    tested = chip_dumping(night.load(), SETTINGS)
    assert tested.tests > 0
    assert ("P0240", "P0241") not in found(tested.suspicions)


def _full_count_to(night: Night, dumper: str, partner: str) -> int:
    """Every hand ``partner`` won with ``dumper`` at the table, ``dumper`` loses the full 80
    (no drop): the points conceded, and how many such hands."""
    won = {r["hand_id"] for r in night.seat if r["player_id"] == partner and r["outcome"] == "won"}
    hands = 0
    for r in night.seat:
        if r["player_id"] == dumper and r["hand_id"] in won:
            r["outcome"], r["points"], r["amount"] = "lost", 80, Decimal(-80)
            hands += 1
    return hands


def test_loss_dumping_finds_a_player_who_concedes_the_full_count_to_one_partner() -> None:
    """What chip dumping cannot see (the test above), loss dumping does: the dumper loses
    to the partner no more often than chance, but the full count every time, against
    their own mixed losses to others (loss_dumping.sql, docs/fairplay.md)."""
    night = Night(seed=13)
    night.together.append((("P0240", "P0241"), 40))
    hands = _full_count_to(night.build(), "P0240", "P0241")
    assert hands >= 10
    con = night.load()
    assert ("P0240", "P0241") not in found(chip_dumping(con, SETTINGS).suspicions)
    tested = loss_dumping(con, SETTINGS)
    assert found(tested.suspicions) == {("P0240", "P0241")}
    (s,) = tested.suspicions
    assert s.check == "fairplay.loss_dumping"
    assert s.observed == 80 * hands
    assert s.effect >= SETTINGS.min_effect
    assert s.expected < s.observed / SETTINGS.min_effect
    assert f"P0240 conceded {80 * hands} points to P0241 in the {hands} hands" in s.message
    assert s.money is not None
    assert "paid by P0240 in the hands P0241 won" in s.money
    assert len(s.evidence_hands) == SETTINGS.evidence


def test_loss_dumping_takes_a_fast_declarer_for_fast_not_for_a_partner() -> None:
    """A player who declares early leaves everyone at the table with their cards unmelded:
    every loser concedes them more. Their losers' factor (what their other opponents
    conceded to them over their own means) makes that the expectation, so the players who
    lose big to them are not suspected of dumping."""
    night = Night(seed=13)
    night.together += [(("P0240", "P0241"), 40), (("P0242", "P0241"), 40)]
    night.build()
    won = {r["hand_id"] for r in night.seat if r["player_id"] == "P0241" and r["outcome"] == "won"}
    for r in night.seat:
        if r["hand_id"] in won and r["outcome"] == "lost":
            r["points"] = 80  # nobody had time to meld
            r["amount"] = Decimal(-80)
    tested = loss_dumping(night.load(), SETTINGS)
    assert tested.tests >= 1
    assert tested.suspicions == []


def test_loss_dumping_compares_losses_within_a_game_size() -> None:
    """A 21-card loser concedes more than a 13-card one (more cards, a cap of 120): a pair
    that meets only heads-up at 21 cards is judged against the night's 21-card losses, not
    against the player's 13-card ones elsewhere."""
    night = Night(seed=13).build()
    number = len(night.g)
    for _ in range(40):  # the pair's heads-up games: no other loser shows B's effect there
        number = night._game(number, ["P0240", "P0241"])
    big = {g["game_id"] for g in night.g if g["game_id"] >= f"G{900:05d}"}  # the pair's games
    seated = {r["game_id"] for r in night.seat if r["player_id"] == "P0240"}
    big |= {g["game_id"] for g in night.g[:300] if g["game_id"] not in seated}  # a lobby
    for row in night.g + night.seat:
        if row["game_id"] in big:
            row["cards_per_hand"] = 21
            if "points" in row and row["outcome"] == "lost":
                row["points"] = min(120, row["points"] * 2)
                row["amount"] = Decimal(-row["points"])
    tested = loss_dumping(night.load(), SETTINGS)
    assert tested.tests >= 1
    assert tested.suspicions == []


def test_loss_dumping_judges_a_player_by_their_own_losses_in_that_kind_of_game() -> None:
    """A player who drops most real-money hands but plays every practice-chip hand out
    loses bigger with practice chips, to whoever they play there: the heads-up practice
    partner is not suspected (a blind tester's honest night, raised at minor three times
    when a player's baseline mixed the two chip types)."""
    night = Night(seed=13).build()
    for r in night.seat:
        if r["player_id"] == "P0240" and r["outcome"] == "lost" and night.rng.random() < 0.8:
            r["outcome"], r["points"], r["amount"] = "first_drop", 20, Decimal(-20)
    number, practice = len(night.g), set()
    for _ in range(40):
        practice.add(f"G{number:05d}")
        number = night._game(number, ["P0240", "P0241"])
    real = loss_dumping(night.load(), SETTINGS)  # at one chip type: suspect, rightly
    assert found(real.suspicions) == {("P0240", "P0241")}
    for row in night.g + night.seat:
        if row["game_id"] in practice:
            row["chip_type"] = "practice"
    assert loss_dumping(night.load(), SETTINGS).suspicions == []


def test_loss_dumping_needs_the_points_to_run_from_the_loser_to_the_winner() -> None:
    """A player who loses big to another but is paid back more by them in the hands they
    win moves no money to them: not suspected (the message would say the money went the
    other way)."""
    night = Night(seed=13)
    night.together.append((("P0240", "P0241"), 40))
    _full_count_to(night.build(), "P0240", "P0241")
    assert found(loss_dumping(night.load(), SETTINGS).suspicions) == {("P0240", "P0241")}
    seats: dict[str, dict[str, dict[str, Any]]] = {}
    for r in night.seat:
        seats.setdefault(r["hand_id"], {})[r["player_id"]] = r
    lost = [h for h, by in seats.items() if by.get("P0241", {}).get("outcome") == "won"
            and "P0240" in by]  # fmt: skip
    for hand in lost[::2]:  # every other one of them P0240 wins instead, P0241 losing 80
        a, b = seats[hand]["P0240"], seats[hand]["P0241"]
        a["outcome"], a["points"], a["amount"] = "won", 0, Decimal(0)
        b["outcome"], b["points"], b["amount"] = "lost", 80, Decimal(-80)
    gave = 80 * len(lost[1::2])
    back = sum(by["P0241"]["points"] for by in seats.values()
               if by.get("P0240", {}).get("outcome") == "won" and "P0241" in by)  # fmt: skip
    assert back > gave
    assert len(lost[1::2]) >= 10
    assert loss_dumping(night.load(), SETTINGS).suspicions == []


def test_loss_dumping_gives_the_same_bits_whatever_the_order_of_the_rows() -> None:
    """The relative losses are summed as integers (millionths), so a p-value is the same
    bits in whatever order DuckDB adds a player's losses up."""
    night = Night(seed=13)
    night.together.append((("P0240", "P0241"), 40))
    _full_count_to(night.build(), "P0240", "P0241")
    first = loss_dumping(night.load(), SETTINGS)
    night.seat.reverse()
    assert loss_dumping(night.load(), SETTINGS) == first
    assert first.suspicions


def test_chip_dumping_takes_a_strong_honest_player_for_strong_not_for_a_partner() -> None:
    """chip_dumping.sql's null model: who wins between two players is their strengths'
    share (Luce), a strength being a player's win odds at their tables. An honest account
    six times as strong as the rest of a small lobby (sixteen players who meet often) wins
    most hands against each of them; with shares from raw win-rate ratios it was suspected
    with four of them on this night (a blind test: an honest strong player named in eight
    suspicions and a ring)."""
    night = Night(seed=20, players=16, games=900)
    night.skill["P0001"] = 6.0
    tested = chip_dumping(night.build().load(), SETTINGS)
    assert tested.tests > 100
    assert not any("P0001" in s.players for s in tested.suspicions)


def test_chip_dumping_explains_a_player_who_plays_on_with_a_friend_by_their_own_folds() -> None:
    """docs/fairplay.md, "fairplay.chip_dumping": an honest player who folds most real-money
    hands, but never with one friend at the table, wins far more of the hands with the
    friend than their whole record predicts; the friend, who plays as always, was suspected
    of dumping to them (a blind tester: 4 honest nights of 5, twice major). B's record is
    now counted in the hands B would have played on at A's table: B's folding less with A
    explains B's wins there."""
    night = Night(seed=30, players=100)
    night.caution["P0060"] = 0.85
    night.plays_on.add(("P0060", "P0061"))
    night.together.append((("P0060", "P0061"), 120))
    tested = chip_dumping(night.build().load(), SETTINGS)
    assert not found(tested.suspicions) & {("P0061", "P0060"), ("P0060", "P0061")}
    # without the folds and with the fixed win prior of before 2026-12-05, suspected
    before = replace(SETTINGS, fold_prior=1e9, fit_win_prior=False)
    assert any(s.players == ("P0061", "P0060")
               for s in chip_dumping(night.load(), before).suspicions)  # fmt: skip


def test_chip_dumping_explains_a_player_cautious_only_at_real_money_by_their_own_folds() -> None:
    """docs/fairplay.md, "fairplay.chip_dumping": an honest player who folds most hands at
    real-money tables and none at practice looks weak by their whole record, and wins
    about half of a heads-up practice series against a regular opponent, who was suspected
    of dumping to them (a blind tester's night, at major)."""
    night = Night(seed=31, players=100)
    night.caution["P0070"] = 0.85
    night.practice.append((("P0070", "P0071"), 80))
    tested = chip_dumping(night.build().load(), SETTINGS)
    assert not found(tested.suspicions) & {("P0071", "P0070"), ("P0070", "P0071")}


def test_chip_dumping_finds_a_dumper_whose_partner_never_folds_with_them() -> None:
    """Only B's own folding explains B's wins, and only as far as B's record in the hands B
    plays on: a cautious partner who plays every hand out with the dumper, and wins four
    in five of them, is still found, the dumper first."""
    night = Night(seed=32, players=100)
    night.caution["P0081"] = 0.6
    night.plays_on.add(("P0081", "P0080"))
    night.together.append((("P0080", "P0081"), 30))
    night.dumps.add(("P0080", "P0081"))
    tested = chip_dumping(night.build().load(), SETTINGS)
    assert ("P0080", "P0081") in found(tested.suspicions)


def test_chip_dumping_reports_money_and_deals_chips_apart() -> None:
    """results.amount is money in a real-money points game and deals chips in deals
    (schemas/money.md): what the dumper paid is reported per unit, never added up (a blind
    tester's suspicion said 1768.00 paid: 1680 deals chips plus 88.00 rupees)."""
    night = Night(seed=10)
    night.together.append((("P0240", "P0241"), 16))
    night.dumps.add(("P0240", "P0241"))
    night.build()
    deals = {g["game_id"] for g in night.g[::2]}
    for row in night.g + night.seat:
        if row["game_id"] in deals:
            row["format"] = "deals"
    for row in night.seat:
        if row["game_id"] in deals and row["outcome"] != "won":
            row["amount"] = Decimal(-row["points"])  # chips: one a point, no point value
    won = {r["hand_id"] for r in night.seat if r["player_id"] == "P0241" and r["outcome"] == "won"}
    paid = {"money": Decimal(0), "deals chips": Decimal(0)}
    for r in night.seat:
        if r["player_id"] == "P0240" and r["hand_id"] in won:
            paid["deals chips" if r["format"] == "deals" else "money"] -= r["amount"]
    assert paid["money"] > 0
    assert paid["deals chips"] > 0
    tested = chip_dumping(night.load(), SETTINGS)
    s = next(s for s in tested.suspicions if s.players == ("P0240", "P0241"))
    assert s.money is not None
    assert s.money.startswith(f"{paid['money']} paid by P0240 in the hands P0241 won, ")
    assert f"; {paid['deals chips']} deals chips paid by P0240 in the hands P0241 won, " in s.money
    assert f"P0240 paid {paid['money']} in the hands P0241 won and " in s.message


def test_a_bot_is_found_and_people_are_not() -> None:
    night = Night(seed=11)
    night.think["P0250"] = (1.2, 0.03)  # a machine: 1.2 s, a few per cent either way
    night.think["P0251"] = (1.5, 0.35)  # a fast but human player
    con = night.build().load()
    tested = bots(con, SETTINGS)
    assert found(tested.suspicions) == {("P0250",)}
    assert tested.suspicions[0].severity is Severity.MAJOR


def test_a_bot_is_judged_against_the_median_of_each_kind_of_decision() -> None:
    """docs/fairplay.md, ``fairplay.bot``: each decision is judged against the median of its
    own kind. A bot that waits about 1.0 s to draw and 2.5 s to discard (+-15 % each) puts
    few decisions near one median of the whole, which falls between the two (a blind
    tester's six such bots were not suspected); a person whose discards take three times
    their draws spreads each kind like a person and is not suspected."""
    night = Night(seed=15)
    night.uniform_think["P0290"] = (0.85, 1.15)  # draws 1.0 s +- 15 %
    night.slower_plays["P0290"] = 2.5  # discards 2.5 s +- 15 %
    night.think["P0291"] = (1.5, 0.35)  # a fast person ...
    night.slower_plays["P0291"] = 3.0  # ... who thinks three times longer to discard
    tested = bots(night.build().load(), SETTINGS)
    assert found(tested.suspicions) == {("P0290",)}
    (s,) = tested.suspicions
    assert s.severity is Severity.MAJOR
    medians = re.search(r"of the median time of their kind \(discards ([0-9.]+) s, draws from "
                        r"the stock ([0-9.]+) s; log-sd within a kind (0\.[0-9]+); plays take "
                        r"([0-9.]+)x a draw\)", s.message)  # fmt: skip
    assert medians is not None, s.message
    discards, draws, sd, ratio = map(float, medians.groups())
    assert abs(discards - 2.5) < 0.1
    assert abs(draws - 1.0) < 0.05
    assert sd < 0.1  # the spread within a kind, not the two modes' mixture
    assert abs(ratio - 2.5) < 0.1


def test_a_bots_length_of_play_is_not_measured_without_its_sessions() -> None:
    """The longest play without a break comes from the sessions rows: without them it was
    not measured, and the message says so (it said "0.0 h (0 games), 0 clock hours played":
    a blind tester's night without a sessions table). The clock hours come from the
    account's own events, sessions or not."""
    night = Night(seed=11)
    night.think["P0250"] = (1.2, 0.03)
    night.build()
    (measured,) = bots(night.load(), SETTINGS).suspicions
    assert re.search(r"break [1-9][0-9.]* h \([1-9][0-9]* games\), [1-9][0-9]* clock hours",
                     measured.message)  # fmt: skip
    night.sess = [row for row in night.sess if row["player_id"] != "P0250"]
    clock = measured.message.split("games), ")[1].split(" clock hours")[0]
    for unread, why in (({}, "the sessions table has no row for P0250"),
                        ({"sessions": "the log root has no sessions table"},
                         "the log root has no sessions table")):  # fmt: skip
        (s,) = bots(night.load(), replace(SETTINGS, unread=unread)).suspicions
        assert (f"longest play without a 10-minute break not measured ({why}), {clock} clock "
                "hours played") in s.message  # fmt: skip
        assert " 0.0 h" not in s.message


def test_a_bots_stretch_of_play_counts_each_game_once() -> None:
    """docs/fairplay.md, ``fairplay.bot``: the longest play without a break counts the games
    in it; a sessions row written twice (schemas/README.md: "changes neither") or a
    reconnection in one game counts that game once (it counted rows: 29 games read 58 when
    a blind tester wrote the sessions table twice)."""
    night = Night(seed=11)
    night.think["P0250"] = (1.2, 0.03)
    night.build()
    (once,) = bots(night.load(), SETTINGS).suspicions
    night.sess = night.sess + [dict(row) for row in night.sess if row["player_id"] == "P0250"]
    (twice,) = bots(night.load(), SETTINGS).suspicions
    games = re.search(r"break [0-9.]+ h \(([0-9]+) games\)", once.message)
    assert games is not None
    assert int(games.group(1)) > 1
    assert twice.message == once.message


def test_a_bot_that_jitters_widely_is_beyond_the_dispersion_test() -> None:
    """What the detector cannot see (docs/fairplay.md): a program drawing each decision
    time from 1-6 s spreads its times like a person."""
    night = Night(seed=12)
    night.uniform_think["P0260"] = (1.0, 6.0)
    con = night.build().load()
    assert bots(con, SETTINGS).suspicions == []


def test_rings_join_suspicious_pairs_into_groups() -> None:
    night = Night(seed=13)
    night.together += [(("P0270", "P0271"), 10), (("P0271", "P0272"), 10)]
    night.feeds["P0270", "P0271"] = night.feeds["P0271", "P0272"] = 0.8
    con = night.build().load()
    pairs = feeding(con, SETTINGS).suspicions + co_seating(con, SETTINGS).suspicions
    (ring,) = rings(pairs, SETTINGS.thresholds)
    assert ring.players == ("P0270", "P0271", "P0272")
    edges: dict[frozenset[str], float] = {}
    for s in pairs:
        if s.check != "fairplay.co_seating":
            key = frozenset(s.players)
            edges[key] = min(edges.get(key, 1.0), s.q_value)
    assert ring.q_value == max(edges.values())
    # each pair lesser id first, whatever order the graph keeps (a set's, which changes
    # from one process to the next): the same bytes on every run
    assert "P0270-P0271 (" in ring.message
    assert "P0271-P0272 (" in ring.message


def test_friends_seated_together_make_no_ring() -> None:
    """Co-seating alone has a benign reading: three friends who play together are each
    co-seated pairs, but no ring."""
    night = Night(seed=14)
    night.together.append((("P0280", "P0281", "P0282"), 14))
    con = night.build().load()
    seated = co_seating(con, SETTINGS).suspicions
    assert len(seated) == 3
    assert rings(seated, SETTINGS.thresholds) == []


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_honest_nights_stay_quiet_for_the_pair_detectors(seed: int) -> None:
    """The null holds: on honest nights of other seeds the pair tests raise nothing."""
    con = Night(seed=seed, players=200, games=600).build().load()
    for detector in (co_seating, feeding, soft_drop, chip_dumping, loss_dumping):
        assert detector(con, SETTINGS).suspicions == [], detector.__name__


def test_pairs_tested_in_batches_and_parts_give_the_same_suspicions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A large night's pairs (and accounts) are tested a batch at a time, keeping only those
    that could be reported (audit/fairplay/engine.py, ``screened``), co-seating and chip
    dumping list their pairs in parts and the bot test centres the accounts' decision
    times in parts:
    every suspicion, its q-value and the number of hypotheses tested are the same bits as
    with every pair at once."""
    night = Night(seed=12)
    night.together += [(("P0150", "P0151"), 12), (("P0160", "P0161", "P0162"), 14),
                       (("P0170", "P0171"), 16), (("P0180", "P0181"), 10)]  # fmt: skip
    night.device["P0181"] = night.device["P0180"]
    night.feeds["P0150", "P0151"] = 0.75
    night.soft["P0160", "P0161"] = 0.6
    night.dumps.add(("P0170", "P0171"))
    night.uniform_think["P0190"] = (1.1, 1.3)
    con = night.build().load()
    detectors = (co_seating, shared_identity, feeding, soft_drop, chip_dumping, loss_dumping,
                 bots)  # fmt: skip
    whole = [detector(con, SETTINGS) for detector in detectors]
    assert sum(t.tests for t in whole) > 100 * 37  # a hundred batches and more below
    assert {s.check for t in whole for s in t.suspicions} == {
        "fairplay.co_seating", "fairplay.shared_device", "fairplay.collusion",
        "fairplay.soft_drop", "fairplay.chip_dumping", "fairplay.bot",
    }  # fmt: skip
    # chip dumping tests few pairs of this night: here, every pair that met, kept or not
    every_pair = replace(SETTINGS, min_hands=1, thresholds=Thresholds(report=0.9))
    whole += [chip_dumping(con, every_pair), loss_dumping(con, every_pair)]
    assert min(whole[-2].tests, whole[-1].tests) > 1000
    monkeypatch.setattr("audit.fairplay.engine.BATCH_ROWS", 37)
    monkeypatch.setattr("audit.fairplay.pairs.MEETINGS_PER_PART", 500)
    monkeypatch.setattr("audit.fairplay.detectors.SEATS_PER_PART", 300)
    parts = [detector(con, SETTINGS) for detector in detectors]
    parts += [chip_dumping(con, every_pair), loss_dumping(con, every_pair)]
    assert parts == whole
    assert whole[0].tests > 5 * 500  # co-seating tests every pair that met
    (seats,) = con.sql("SELECT count(*) FROM seat").fetchall()[0]
    assert seats > 5 * 300


def test_the_detectors_leave_no_table_behind() -> None:
    """Each detector drops the tables it made (co-seating's pairs once shared identity has
    read them): a table held to the end of the night holds memory or spill space through
    every detector after it."""
    night = Night(seed=14)
    night.together.append((("P0160", "P0161"), 12))
    night.soft["P0160", "P0161"] = 0.6
    night.device["P0161"] = night.device["P0160"]
    con = night.build().load()

    def tables() -> set[str]:
        return {name for (name,) in con.sql("SELECT table_name FROM duckdb_tables()").fetchall()}

    night_tables = tables()
    tested = [detector(con, SETTINGS) for detector in (co_seating, shared_identity, feeding,
                                                        soft_drop, chip_dumping, loss_dumping,
                                                        bots)]  # fmt: skip
    assert {"fairplay.soft_drop", "fairplay.shared_device"} <= {
        s.check for t in tested for s in t.suspicions
    }  # the steps that read the tables kept between statements ran
    assert tables() == night_tables


def test_a_night_without_one_timed_decision_tests_no_account_for_bots() -> None:
    """Every event the server's own (auto-play): no account has a decision to time."""
    night = Night(seed=13)
    night.uniform_think["P0190"] = (1.1, 1.3)
    night.build()
    for row in night.ev:
        row["auto"] = True
    tested = bots(night.load(), SETTINGS)
    assert (tested.tests, tested.suspicions) == (0, [])


def test_a_log_whose_every_event_is_a_fixed_step_after_the_last_runs_no_bot_test() -> None:
    """docs/fairplay.md, ``fairplay.bot``: the null model is a person's spread of decision
    times (at least ``sigma`` within a kind). A night whose every event is 2 s after the
    one before it, as a log a program wrote has it, spreads 0 over all its accounts
    together: the times time no decision, so the test does not run and says why (run on
    a simulated honest night of 600 games it found all 344 accounts machine-regular). A
    bot among people (the test above) still spreads the night as people do."""
    night = Night(seed=11)
    night.think["P0250"] = (1.2, 0.03)  # a machine among them: nothing to tell it apart by
    night.build()
    last: dict[str, datetime] = {}
    for row in sorted(night.ev, key=lambda r: (r["hand_id"], r["seq"])):
        start = last.get(row["hand_id"], row["ts"] - timedelta(seconds=7))
        row["ts"] = last[row["hand_id"]] = start + timedelta(seconds=2)
    tested = bots(night.load(), SETTINGS)
    assert (tested.tests, tested.suspicions) == (0, [])
    assert tested.skipped.startswith("the night's event times do not time decisions: its ")
    assert "spread 0.00 within a kind (log-sd), less than one person's least (0.25)" in (
        tested.skipped)


def test_a_night_of_people_with_whole_second_times_still_runs_the_bot_test() -> None:
    """A platform that keeps its times to the second spreads people's decisions over whole
    seconds: still a person's spread over the night, so the test runs (and suspects no
    one)."""
    night = Night(seed=11)
    night.build()
    for row in night.ev:
        row["ts"] = row["ts"].replace(microsecond=0)
    tested = bots(night.load(), SETTINGS)
    assert not tested.skipped
    assert tested.tests > 100
    assert tested.suspicions == []


def _start_at(night: Night, game: str, start: datetime) -> None:
    """Move every row of ``game`` (its game, sessions, seats, events, pile and drops) so
    that it starts at ``start``."""
    (first,) = [g["started_at"] for g in night.g if g["game_id"] == game]
    shift = start - first
    for rows in (night.g, night.sess, night.seat, night.ev, night.pile, night.drops):
        for row in rows:
            if row.get("game_id") == game or str(row.get("hand_id", "")).startswith(f"{game}-"):
                for key, value in row.items():
                    if isinstance(value, datetime):
                        row[key] = value + shift


def test_co_seating_expects_accounts_online_at_once_to_meet() -> None:
    """co_seating.sql's strata are half hours of game starts in a lobby. A thin late-night
    lobby where each honest account plays one session of 20-40 minutes, seated at random
    among the accounts online, is not taken for friends choosing each other: with strata
    of a clock hour the null model mixed everyone of the hour, and accounts online in the
    same twenty minutes were suspected (a blind tester's night: 44 suspicions)."""
    night = Night(seed=22, players=200, games=0).build()
    rng = random.Random(22)
    online = {p: rng.uniform(0, 160) for p in night.ids}
    until = {p: online[p] + rng.uniform(20, 40) for p in night.ids}
    number = 0
    for _ in range(700):
        t = rng.uniform(0, 180)
        here = sorted(p for p in night.ids if online[p] <= t < until[p])
        if len(here) < 2:
            continue
        seated = rng.sample(here, min(len(here), rng.choice([2, 3, 4, 5, 6])))
        game = f"G{number:05d}"
        number = night._game(number, seated)
        _start_at(night, game, T0 + timedelta(minutes=t))
    tested = co_seating(night.load(), SETTINGS)
    assert tested.tests > 1_000
    assert tested.suspicions == []
