"""The simulator plays 002_'s open-melds game (`open-melds-13`, `audit.sim.openplay`):
matches to 250 for no money, melds laid on the table during play, written in log contract
version 2 (the `meld` column, the open-melds actions).

A small night is walked here, independently of the simulator: cards are conserved, melds
are numbered in the order laid, every meld laid and every lay-off leaves a meld valid by
`classify`, lay-offs are on one's own melds, the discard pile's later picks are laid, the
cut card is kept only by a player who goes out, the winner goes out with two sequences (one
pure), losers pay the flat 80 or their cards, and the running totals end the match at 250
with the lowest total winning. Then the replay judges it: nothing planted, no finding at
minor or above; each planted tampering found by its check.
"""

from __future__ import annotations

import glob
import shutil
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.cards import parse_code, parse_codes
from audit.logs.contract import SCHEMA_VERSION_KEY
from audit.rules.melds import Jokers, MeldKind, classify
from audit.rules.ruleset import Ruleset, load_preset
from audit.run import replay_logs
from audit.sim import simulate
from audit.sim.anomalies import OPEN_MELDS
from tests.sim.walk import Logs, Row, found_for, load

PRESET = "open-melds-13"
CLEAN, TAMPERED = (12, 11), (12, 12)  # (games, seed)
MINOR_OR_ABOVE = {"critical", "major", "minor"}
TABLE_KINDS = (MeldKind.PURE_RUN, MeldKind.IMPURE_RUN, MeldKind.SET)


def night(tmp: pytest.TempPathFactory, *, tampered: bool) -> tuple[Path, Logs]:
    games, seed = TAMPERED if tampered else CLEAN
    root = tmp.mktemp("tampered" if tampered else "clean") / "logs"
    simulate(
        games=games,
        out=root,
        seed=seed,
        presets=(PRESET,),
        anomalies="open-melds" if tampered else (),
        workers=1,
    )
    return root, load(root)


@pytest.fixture(scope="module")
def clean_night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Logs]:
    return night(tmp_path_factory, tampered=False)


@pytest.fixture(scope="module")
def clean(clean_night: tuple[Path, Logs]) -> Logs:
    return clean_night[1]


@pytest.fixture(scope="module")
def tampered_night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Logs]:
    return night(tmp_path_factory, tampered=True)


def replay(root: Path) -> list[Row]:
    out = root.parent / "out"
    replay_logs(logs=root, out=out, workers=1, progress=False)
    findings: list[Row] = pq.read_table(out / "findings.parquet").to_pylist()
    return findings


def test_matches_for_no_money(clean: Logs) -> None:
    rules = load_preset(PRESET)
    assert clean.games
    for game in clean.games.values():
        assert (game["format"], game["ruleset"], game["cards_per_hand"]) == ("match", PRESET, 13)
        assert (game["decks"], game["printed_jokers"]) == (2, 2)
        assert game["chip_type"] == "practice"
        assert game["point_value"] is None
        assert game["entry_fee"] is None
        assert game["deals_count"] is None
        assert game["rake_pct"] == 0
        assert game["game_id"] not in clean.ledger
        for hand in clean.hands[game["game_id"]]:
            assert rules.min_players <= len(hand["seats"]) <= rules.max_players


def test_the_night_is_written_in_contract_version_2(clean_night: tuple[Path, Logs]) -> None:
    root, logs = clean_night
    for path in glob.glob(str(root / "*" / "*" / "*.parquet")):
        metadata = pq.ParquetFile(path).schema_arrow.metadata
        assert metadata[SCHEMA_VERSION_KEY.encode()] == b"2", path
    events = [e for rows in logs.events.values() for e in rows]
    assert {e["action"] for e in events} >= {"lay", "lay_off", "take_cut", "return_cut"}
    for e in events:
        assert (e["meld"] is not None) == (e["action"] in ("lay_off", "swap_joker")), e


def test_running_totals_end_the_match_at_250_and_the_lowest_wins(clean: Logs) -> None:
    target = load_preset(PRESET).match_target
    assert target == 250
    for game_id, hands in clean.hands.items():
        totals: Counter[str] = Counter()
        for number, hand in enumerate(hands, start=1):
            assert hand["hand_no"] == number
            assert max(totals.values(), default=0) < target  # no hand after the end
            for row in clean.results[hand["hand_id"]]:
                totals[row["player_id"]] += row["points"]
                assert row["score_after"] == totals[row["player_id"]], row
                assert row["amount"] is None
        assert max(totals.values()) >= target
        (won,) = [g for g in clean.game_events[game_id] if g["action"] == "game_won"]
        assert totals[won["player_id"]] == min(totals.values())
        assert won["after_hand_no"] == len(hands)


def walk(rules: Ruleset, hand: Row, events: list[Row], results: list[Row]) -> Counter[str]:
    """Follow one hand event by event, asserting every rule of the open-melds game; what
    happened, counted."""
    seen: Counter[str] = Counter()
    seats = [s["player_id"] for s in hand["seats"]]
    n, k = len(seats), rules.cards_per_hand
    shoe = parse_codes(hand["shoe"])
    cut = shoe[n * k]
    assert parse_code(hand["wild_card"]) == cut
    jokers = Jokers.for_wild_card(cut, rules)
    points = rules.points_table(jokers.codes)
    held = {p: Counter(shoe[i : n * k : n]) for i, p in enumerate(seats)}
    pile, stock = [shoe[n * k + 1]], shoe[n * k + 2 :][::-1]
    shown: int | None = cut
    melds: list[list[int]] = []
    owner: list[str] = []
    opened: set[str] = set()
    picks: Counter[str] = Counter()
    turn = -1
    must: list[int] = []  # the turn's later pile picks, to be laid
    cut_held: int | None = None
    winner = None

    def meld_ok(cards: list[int]) -> bool:
        return classify(cards, jokers, rules).kind in TABLE_KINDS

    for e in events:
        action, player = e["action"], e["player_id"]
        card = parse_code(e["card"]) if e["card"] is not None else None
        assert winner is None, "an event after the hand ended"
        seen[action] += 1
        if action == "reshuffle":
            (group,) = e["groups"]
            assert Counter(parse_codes(group)) == Counter(pile[:-1])
            stock, pile = parse_codes(group)[::-1], pile[-1:]
            continue
        if turn < 0 or player != seats[turn]:  # the next player's turn: a draw comes first
            turn = (turn + 1) % n
            assert seats[turn] == player
            assert action in ("draw_stock", "draw_discard", "take_cut")
            assert not must
            assert cut_held is None
        if action == "draw_stock":
            assert card == stock.pop()
            held[player][card] += 1
        elif action == "draw_discard":
            assert card == pile.pop()
            held[player][card] += 1
            picks[player] += 1
            if picks[player] > 1:
                must.append(card)
        elif action == "take_cut":
            assert card == shown
            assert cut_held is None
            held[player][card] += 1
            shown, cut_held = None, card
        elif action == "return_cut":
            assert card == cut_held
            held[player][card] -= 1
            shown, cut_held = card, None
        elif action == "lay":
            for group in e["groups"]:
                cards = parse_codes(group)
                assert meld_ok(cards), group
                verdict = classify(cards, jokers, rules)
                assert verdict.jokers <= 2
                for c in cards:
                    assert held[player][c] > 0
                    held[player][c] -= 1
                    if c in must:
                        must.remove(c)
                melds.append(cards)
                owner.append(player)
            opened.add(player)
        elif action == "lay_off":
            assert card is not None
            m = e["meld"]
            assert 0 <= m < len(melds)
            assert owner[m] == player, "a lay-off on another player's meld"
            melds[m].append(card)
            assert meld_ok(melds[m]), melds[m]
            assert held[player][card] > 0
            held[player][card] -= 1
            if card in must:
                must.remove(card)
        elif action == "discard":
            assert card is not None
            assert held[player][card] > 0
            assert not must, "a later pick from the pile was kept"
            held[player][card] -= 1
            pile.append(card)
            if cut_held is not None:
                seen["cut_kept"] += 1
            if held[player].total() == 0:
                mine = [classify(m, jokers, rules) for o, m in zip(owner, melds, strict=True)
                        if o == player]  # fmt: skip
                assert sum(v.is_run for v in mine) >= rules.min_runs
                assert sum(v.is_pure_run for v in mine) >= rules.min_pure_runs
                winner = player
            else:
                assert cut_held is None, "the cut card kept without going out"
            cut_held = None
        else:
            raise AssertionError(f"unexpected action {action}")
        assert held[player].total() > 0 or action == "discard", "a hand emptied by a lay"
    assert winner is not None
    for row in results:
        player = row["player_id"]
        if player == winner:
            assert (row["outcome"], row["points"]) == ("won", 0)
            continue
        assert row["outcome"] == "lost"
        if player not in opened:
            assert row["points"] == rules.never_opened == 80
            seen["never_opened"] += 1
        else:
            cards = held[player].elements()
            assert row["points"] == min(sum(points[c] for c in cards), rules.cap)
    return seen


def test_every_hand_follows_the_rules(clean: Logs) -> None:
    rules = load_preset(PRESET)
    seen: Counter[str] = Counter()
    hands = 0
    for hands_of_game in clean.hands.values():
        for hand in hands_of_game:
            hands += 1
            seen += walk(rules, hand, clean.events[hand["hand_id"]], clean.results[hand["hand_id"]])
    assert hands > 50
    assert seen["lay"] > hands
    assert seen["lay_off"] > hands // 2
    assert seen["draw_discard"] > 0
    assert seen["reshuffle"] > 0
    assert seen["take_cut"] > seen["return_cut"] > 0  # a try put back, and some kept
    assert seen["cut_kept"] > 0
    assert seen["never_opened"] > 0


def test_the_planted_kinds_are_labelled(tampered_night: tuple[Path, Logs]) -> None:
    _, logs = tampered_night
    kinds = {kind.name: kind for kind in OPEN_MELDS}
    planted = Counter(row["kind"] for row in logs.labels)
    assert set(planted) == set(kinds)
    for row in logs.labels:
        assert row["check"] == kinds[row["kind"]].check
        assert row["game_id"] in logs.games
        assert row["hand_id"].startswith(row["game_id"])
        assert row["players"]
        assert row["details"]
        events = logs.events[row["hand_id"]]
        if row["kind"] == "never_opened":
            assert row["seq"] is None
            (result,) = [
                r for r in logs.results[row["hand_id"]] if r["player_id"] == row["players"][0]
            ]
            assert result["outcome"] == "lost"
            assert result["points"] != 80
            assert not any(e["action"] == "lay" and e["player_id"] == result["player_id"]
                           for e in events)  # fmt: skip
        else:
            event = events[row["seq"]]
            assert (event["action"], event["player_id"]) == ("lay_off", row["players"][0])


def test_the_clean_night_replays_without_a_finding(clean_night: tuple[Path, Logs]) -> None:
    root, _ = clean_night
    strong = [f for f in replay(root) if f["severity"] in MINOR_OR_ABOVE]
    assert strong == []


def test_a_night_of_matches_without_a_ledger_is_not_told_its_money_was_unchecked(
    clean_night: tuple[Path, Logs], tmp_path: Path
) -> None:
    """docs/open-melds.md: "a match has no point value, entry fee or ledger rows, and the
    audit checks none". Without a ledger table a night of matches was told ledger.balance
    "could not be checked" (a blind tester): nothing of it rests on a ledger. A night
    holding a points game still is."""
    root, _ = clean_night
    logs = tmp_path / "logs"
    shutil.copytree(root, logs)
    shutil.rmtree(logs / "ledger", ignore_errors=True)
    skipped = [f["message"] for f in replay(logs) if f["check"] == "check.skipped"]
    assert not [m for m in skipped if "ledger" in m]
    games = next((logs / "games").rglob("*.parquet"))
    table = pq.read_table(games)
    formats = ["points", *table.column("format").to_pylist()[1:]]
    table = table.set_column(table.schema.get_field_index("format"), "format",
                             pa.array(formats, table.schema.field("format").type))  # fmt: skip
    pq.write_table(table, games)
    skipped = [f["message"] for f in replay(logs) if f["check"] == "check.skipped"]
    assert [m for m in skipped if "no ledger table, so ledger.balance" in m]


def test_each_planted_tampering_is_found(tampered_night: tuple[Path, Logs]) -> None:
    root, logs = tampered_night
    findings = replay(root)
    for row in logs.labels:
        found = found_for(row, findings)
        assert found, f"not found: {row}"
    tampered = {row["game_id"] for row in logs.labels}
    stray = [
        f for f in findings
        if f["severity"] in MINOR_OR_ABOVE and f["game_id"] not in tampered
    ]  # fmt: skip
    assert stray == []
