"""The simulator plays every preset: the 10-card game (`standard-10`, 000_) at 2-player
tables (one deck, one printed joker) and 3-6 player tables (two decks, two printed jokers),
and first-life-13 at 4-6 player tables (three decks, six printed jokers) as well as 2-3.

For each preset, a small night with nothing planted replays with every hand verified and
no finding at all, and a small night with the tampering kinds planted is caught: every
planted case by its check (game, hand, event, player), nothing at minor or above in a
game without one.
"""

from __future__ import annotations

from collections import Counter

import pyarrow.parquet as pq
import pytest

from audit.rules.ruleset import load_preset
from audit.run import replay_logs
from audit.sim import simulate
from audit.sim.anomalies import TAMPERING
from tests.sim.walk import Logs, Row, found_for, load

MINOR_OR_ABOVE = {"critical", "major", "minor"}
NIGHTS = {
    # preset: (games, seed of the clean night, seed of the tampered night)
    "standard-10": (80, 10, 11),
    "first-life-13": (50, 4, 6),
}


def night(tmp: pytest.TempPathFactory, preset: str, *, tampered: bool) -> tuple[Logs, list[Row]]:
    games, clean_seed, tampered_seed = NIGHTS[preset]
    root = tmp.mktemp(f"{preset}-{'tampered' if tampered else 'clean'}") / "logs"
    summary = simulate(
        games=games,
        out=root,
        seed=tampered_seed if tampered else clean_seed,
        presets=(preset,),
        anomalies="tampering" if tampered else (),
        workers=1,
    )
    out = root.parent / "out"
    run = replay_logs(logs=root, out=out, workers=1, progress=False)
    if not tampered:
        assert run.hands == Counter(verified=summary.hands)
        assert run.findings == Counter()
    findings: list[Row] = pq.read_table(out / "findings.parquet").to_pylist()
    return load(root), findings


@pytest.fixture(scope="module", params=sorted(NIGHTS))
def clean(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Logs:
    """A night of the preset with nothing planted; the replay verifies every hand of it
    and raises no finding (asserted in `night`)."""
    logs, findings = night(tmp_path_factory, request.param, tampered=False)
    assert findings == []
    return logs


@pytest.fixture(scope="module", params=sorted(NIGHTS))
def tampered(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Logs, list[Row]]:
    return night(tmp_path_factory, request.param, tampered=True)


def shoes(logs: Logs) -> dict[tuple[str, int], set[tuple[int, int]]]:
    """(format, players dealt) -> the shoes (decks, printed jokers) they were dealt from."""
    out: dict[tuple[str, int], set[tuple[int, int]]] = {}
    for game_id, hands in logs.hands.items():
        game = logs.games[game_id]
        for hand in hands:
            key = (game["format"], len(hand["seats"]))
            out.setdefault(key, set()).add((game["decks"], game["printed_jokers"]))
    return out


def test_each_night_plays_its_preset_in_every_format_and_table_size(clean: Logs) -> None:
    (preset,) = {game["ruleset"] for game in clean.games.values()}
    rules = load_preset(preset)
    assert {game["cards_per_hand"] for game in clean.games.values()} == {rules.cards_per_hand}
    dealt = shoes(clean)
    assert {fmt for fmt, _ in dealt} == {"points", "pool_101", "pool_201", "deals"}
    for (_, players), used in dealt.items():
        spec = rules.shoe_for(players)
        assert spec is not None
        assert used == {(spec.decks, spec.printed_jokers)}
    sizes = {players for _, players in dealt}
    if preset == "standard-10":
        assert {2, 3} <= sizes, "one deck for two players, two decks for more"
        assert max(sizes) >= 5
    else:
        assert {4, 5, 6} <= sizes, "first-life-13 at 4-6 player tables: three decks"
    # Pool games keep one shoe to the end, so they seat only the players it is for.
    for (fmt, players), used in dealt.items():
        if fmt.startswith("pool"):
            assert used == {(rules.shoes[0].decks, rules.shoes[0].printed_jokers)}, players


def test_valid_declarations_keep_the_preset_group_sizes(clean: Logs) -> None:
    """A won declaration lays every card: in 10-card rummy 10 of them, in the group sizes
    the preset allows (`declaration.groupings`, 5+5 or 4+3+3 where it is set)."""
    ruleset = {
        hand["hand_id"]: load_preset(clean.games[game_id]["ruleset"])
        for game_id, hands in clean.hands.items()
        for hand in hands
    }
    won = 0
    for hand_id, events in clean.events.items():
        winners = {r["player_id"] for r in clean.results[hand_id] if r["outcome"] == "won"}
        for event in events:
            if event["action"] == "declare" and event["player_id"] in winners:
                rules = ruleset[hand_id]
                assert sum(len(g) for g in event["groups"]) == rules.cards_per_hand
                if rules.groupings is not None:
                    assert (
                        tuple(sorted(map(len, event["groups"]), reverse=True)) in rules.groupings
                    ), event
                won += 1
    assert won > 20


def test_planted_tampering_is_found_and_nothing_else(tampered: tuple[Logs, list[Row]]) -> None:
    logs, findings = tampered
    names = {kind.name for kind in TAMPERING}
    planted = [row for row in logs.labels if row["kind"] in names]
    kinds = {row["kind"] for row in planted}
    assert {"loser_points", "drop_penalty", "pool_score", "skimmed_payout"} <= kinds
    for row in planted:
        found = found_for(row, findings)
        assert found, f"not found: {row}"
        assert all(f["severity"] in MINOR_OR_ABOVE for f in found)
    games = {row["game_id"] for row in planted}
    stray = [
        f for f in findings
        if f["severity"] in MINOR_OR_ABOVE and f["game_id"] not in games
        and not f["check"].startswith(("fairplay.", "rng."))
    ]  # fmt: skip
    assert stray == []
