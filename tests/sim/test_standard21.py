"""The simulator plays the 21- and 27-card games (`standard-21`, `standard-27`): points games
only (``games.formats``), three decks and three printed jokers, up and down jokers, three
pure sequences to declare (or another way: tunnelas, dublees, jokers), losers scored by the
rules (ready hand, pure sequences exempt, caps), and money with the value cards settled
between the players still in at the show (`audit.money.points_settlement`).

A small night of both with nothing planted replays with every hand verified and no finding;
a night with the tampering kinds planted is caught: every planted case by its check, and
nothing at minor or above in a game without one.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from audit.errors import AuditError
from audit.rules.ruleset import load_preset
from audit.run import replay_logs
from audit.sim import simulate
from audit.sim.anomalies import TAMPERING
from tests.sim.walk import Logs, Row, found_for, load

MINOR_OR_ABOVE = {"critical", "major", "minor"}
PRESETS = ("standard-21", "standard-27")
CLEAN, TAMPERED = (24, 21), (30, 22)  # (games, seed)


def night(tmp: pytest.TempPathFactory, *, tampered: bool) -> tuple[Logs, list[Row]]:
    games, seed = TAMPERED if tampered else CLEAN
    root = tmp.mktemp("tampered" if tampered else "clean") / "logs"
    summary = simulate(
        games=games,
        out=root,
        seed=seed,
        presets=PRESETS,
        anomalies="tampering" if tampered else (),
        workers=1,
    )
    out = root.parent / "out"
    run = replay_logs(logs=root, out=out, workers=1, progress=False)
    findings: list[Row] = pq.read_table(out / "findings.parquet").to_pylist()
    if not tampered:
        hands.update(run.hands, played=summary.hands)
    return load(root), findings


hands: Counter[str] = Counter()
"""The clean night's hands: played, and as the replay judged them."""


@pytest.fixture(scope="module")
def clean_night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Logs, list[Row]]:
    return night(tmp_path_factory, tampered=False)


@pytest.fixture(scope="module")
def clean(clean_night: tuple[Logs, list[Row]]) -> Logs:
    """A night of both presets with nothing planted."""
    return clean_night[0]


def test_the_clean_night_replays_without_a_finding(clean_night: tuple[Logs, list[Row]]) -> None:
    _, findings = clean_night
    assert Counter(f["check"] for f in findings) == Counter()
    assert hands["verified"] == hands["played"] > 0


@pytest.fixture(scope="module")
def tampered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Logs, list[Row]]:
    return night(tmp_path_factory, tampered=True)


def test_the_night_plays_points_games_of_21_and_27_cards(clean: Logs) -> None:
    games = list(clean.games.values())
    assert {g["ruleset"] for g in games} == set(PRESETS)
    assert {g["format"] for g in games} == {"points"}
    for game in games:
        rules = load_preset(game["ruleset"])
        assert game["cards_per_hand"] == rules.cards_per_hand
        assert (game["decks"], game["printed_jokers"]) == (3, 3)
        for hand in clean.hands[game["game_id"]]:
            assert rules.min_players <= len(hand["seats"]) <= rules.max_players


def test_valid_declarations_lay_every_card(clean: Logs) -> None:
    """A won declaration shows all 21 (or 27) cards, the finish card aside."""
    cards = {
        hand["hand_id"]: clean.games[game_id]["cards_per_hand"]
        for game_id, hands in clean.hands.items()
        for hand in hands
    }
    won: Counter[int] = Counter()
    for hand_id, events in clean.events.items():
        winners = {r["player_id"] for r in clean.results[hand_id] if r["outcome"] == "won"}
        for event in events:
            if event["action"] == "declare" and event["player_id"] in winners:
                assert sum(len(g) for g in event["groups"]) == cards[hand_id], event
                won[cards[hand_id]] += 1
    assert won[21] > 5, won
    assert won[27] > 0, won


def test_losers_pay_at_most_the_cap_and_value_cards_move_money(clean: Logs) -> None:
    """Points: 0 for the winner, at most 120 for a loser (70 for a first hand show), the
    drops 30 and 70, a wrong declaration 120; a loser is paid now and then (value cards)."""
    paid_loser = 0
    for hand_id, rows in clean.results.items():
        for row in rows:
            if row["outcome"] == "won":
                assert row["points"] == 0
            elif row["outcome"] == "lost":
                assert 0 <= row["points"] <= 120
                paid_loser += row["amount"] > 0
            elif row["outcome"] in ("first_drop", "middle_drop", "invalid_declare"):
                want = {"first_drop": 30, "middle_drop": 70, "invalid_declare": 120}
                assert row["points"] == want[row["outcome"]], (hand_id, row)
    assert paid_loser > 0


def test_planted_tampering_is_found_and_nothing_else(tampered: tuple[Logs, list[Row]]) -> None:
    logs, findings = tampered
    names = {kind.name for kind in TAMPERING}
    planted = [row for row in logs.labels if row["kind"] in names]
    kinds = {row["kind"] for row in planted}
    assert {"loser_points", "drop_penalty", "skimmed_payout"} <= kinds
    assert not kinds & {"pool_score", "split_amount"}, "points games only"
    for row in planted:
        found = found_for(row, findings)
        assert found, f"not found: {row}"
        assert all(f["severity"] in MINOR_OR_ABOVE for f in found)
    games = {row["game_id"] for row in planted}
    stray = [
        (f["check"], f["hand_id"], f["player_id"]) for f in findings
        if f["severity"] in MINOR_OR_ABOVE and f["game_id"] not in games
        and not f["check"].startswith(("fairplay.", "rng."))
    ]  # fmt: skip
    assert stray == []


def test_a_21_card_night_of_pool_or_deals_alone_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AuditError, match="points games only"):
        simulate(games=1, out=tmp_path / "x", seed=1, formats=("deals",), presets=PRESETS[:1])
