"""A failed shuffle test names the hands behind it (audit/shuffle/evidence.py): the hands of
the cell with too many shoes, so an investigator can go from "JK at position 0 too often"
to the hands dealt so (a blind tester: jokers slipped to seat 1 in hundreds of hands were
found, and no output named one of them)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from audit.cards import JOKER
from audit.findings import Severity
from audit.rules.ruleset import load_preset
from audit.shuffle.evidence import EVIDENCE, with_evidence
from audit.shuffle.night import ShuffleAudit, games_of, run_tests
from audit.shuffle.result import Result
from audit.shuffle.seats import seat_jokers
from audit.shuffle.shoes import Group, Night, group_of
from tests.shuffle.shufflers import canonical, favours_first_seat, fisher_yates

DECKS, JOKERS, CARDS = 2, 2, 13
SHOE = canonical(DECKS, JOKERS)
RULES = load_preset("standard-13")


def _night(codes: np.ndarray, players: np.ndarray) -> tuple[Group, list[Result]]:
    group = group_of(codes, decks=DECKS, printed_jokers=JOKERS, players=players, cards=CARDS,
                     rules=RULES)  # fmt: skip
    return group, run_tests(Night([group]))


def _row(hand: str) -> int:
    return int(hand[1:])  # group_of names the hand of row i H{i:08d}


def test_rng_position_names_the_hands_dealt_with_the_stacked_card_at_that_position() -> None:
    """A dealer who puts a printed joker on top of the shoe (position 0, dealt first) in one
    shoe of six: the position test fails on JK at position 0, and its evidence is exactly
    the hands dealt with JK there, stacked or by chance; the finding says how many."""
    rng = np.random.default_rng(5)
    codes = fisher_yates(SHOE, 3_000, rng)
    for row in np.flatnonzero(rng.random(codes.shape[0]) < 1 / 6):
        j = int(np.flatnonzero(codes[row] == JOKER)[0])
        codes[row, [0, j]] = codes[row, [j, 0]]
    players = rng.integers(2, 7, codes.shape[0])
    group, results = _night(codes, players)
    failed = [r for r in results if r.check == "rng.position" and r.severity is not None]
    assert [r.test for r in failed] == ["position 0"]
    (r,) = failed
    with_jk = np.flatnonzero(codes[:, 0] == JOKER)
    assert r.cell == ("dealt with JK at position 0", with_jk.size)
    assert [_row(h) for h in r.hands] == with_jk[:EVIDENCE].tolist()
    findings = ShuffleAudit(results, group.shoes).findings()
    (f,) = [f for f in findings if f.check == "rng.position"]
    assert f.hand_id == r.hands[0]
    assert f.game_id == ""  # no game known for the hand
    # with the hand's game known (games_of), the finding names it beside the hand (a blind
    # tester: hand_id set with game_id "" contradicted itself)
    named = ShuffleAudit(results, group.shoes, games={r.hands[0]: "G7"}).findings()
    assert [g.game_id for g in named if g.check == "rng.position"] == ["G7"]
    assert f.severity is Severity.MAJOR
    assert f.message.endswith(
        f"Its evidence, the cell furthest above a fair shuffle's count: the {with_jk.size:,} "
        f"hands dealt with JK at position 0 (the first "
        f"{EVIDENCE} in rng.parquet, from hand {r.hands[0]})."
    )


def test_rng_seat_jokers_names_the_hands_where_the_favoured_seat_got_more_than_its_share() -> None:
    """A shuffle that slips a printed joker to the first seat in deal order in one hand of
    five (tests/shuffle/shufflers.py): its evidence is the hands where that seat got more
    printed jokers than its share of those dealt (jokers dealt over players), every
    favoured hand among them that kept its joker above the share."""
    rng = np.random.default_rng(11)
    players = rng.integers(2, 7, 2_000)
    codes = favours_first_seat(SHOE, 2_000, rng, players=players, cards=CARDS, rate=0.2)
    group, results = _night(codes, players)
    failed = [r for r in results if r.check == "rng.seat_jokers" and r.severity is not None
              and r.test == "printed jokers by seat in deal order"]  # fmt: skip
    (r,) = failed
    per_seat = seat_jokers(group, printed_only=True).astype(np.float64)
    over = np.flatnonzero(per_seat[:, 0] > per_seat.sum(axis=1) / players)
    assert r.cell == ("where seat 1 in deal order got more than its share of the printed jokers",
                      over.size)  # fmt: skip
    assert [_row(h) for h in r.hands] == over[:EVIDENCE].tolist()


def test_rng_seat_jokers_evidence_is_the_seat_its_headline_names() -> None:
    """docs/rng.md ("The hands behind a failed test"): the evidence of `rng.seat_jokers` is
    the hands where the favoured seat got more than its share, the seat its effect names
    when that seat got more: the seat the test's own z (each seat's variance) puts highest
    (`Result.favoured`), not the chart's means ranked otherwise (a blind tester's headline
    named seat 4 in deal order, its evidence seat 6's hands). None above: no evidence."""
    rng = np.random.default_rng(11)
    players = rng.integers(2, 7, 2_000)
    codes = favours_first_seat(SHOE, 2_000, rng, players=players, cards=CARDS, rate=0.2)
    group, results = _night(codes, players)
    (r,) = [r for r in results if r.check == "rng.seat_jokers" and r.severity is not None
            and r.test == "printed jokers by seat in deal order"]  # fmt: skip
    assert r.favoured == "seat 1 in deal order"
    assert r.effect.startswith("seat 1 in deal order got ")
    bare = replace(r, hands=(), cell=None)
    third = with_evidence(replace(bare, favoured="seat 3 in deal order"), group)
    assert third.cell is not None
    assert third.cell[0] == (
        "where seat 3 in deal order got more than its share of the printed jokers")
    assert with_evidence(replace(bare, favoured=""), group).cell is None


def test_a_fair_night_names_no_evidence_hands() -> None:
    """Only a failed test names hands: a fair night fails nothing, so names none."""
    rng = np.random.default_rng(3)
    codes = fisher_yates(SHOE, 1_000, rng)
    _, results = _night(codes, rng.integers(2, 7, 1_000))
    assert all(r.hands == () and r.cell is None for r in results if r.check != "rng.repeat")


def test_games_of_reads_each_evidence_hands_game_from_the_replay(tmp_path: Path) -> None:
    """`games_of`: the game of each hand asked for, from the replay's hands.parquet; a hand
    not there or without a game is left out (its finding keeps game_id "")."""
    path = tmp_path / "hands.parquet"
    pq.write_table(pa.table({"hand_id": ["H1", "H2", "H3"], "game_id": ["G1", "G2", None]}), path)
    assert games_of(path, ["H2", "H3", "H9"]) == {"H2": "G2"}
    assert games_of(path, []) == {}
