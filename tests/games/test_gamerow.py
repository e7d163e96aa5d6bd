"""The games row read otherwise (audit/games/gamerow.py): one wrong value in a game's
``games`` row (log-format.md, games: ``point_value``, ``rake_pct``, ``ruleset``,
``format``) is one critical finding on the game, its ``expected`` the value every hand and
payout of the game follows and its ``recorded`` the row's, not a finding at every hand and
payout judged through it (a blind tester's doubled point value: up to 45 findings a game,
each "should be" wrong, 211 critical ledger alarms on innocent players)."""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from audit.explain import load_game_view, load_view, render_game_html
from audit.games.gamerow import LEAVES
from audit.money import money, rake
from audit.records import GameUnit, LedgerRow
from audit.run import replay_logs
from audit.sim import simulate
from audit.unit import audit_unit
from tests.games.test_end_to_end import Row, rows, tamper
from tests.replay.cases import base, longer
from tests.replay.scenario import scenario


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gamerow") / "logs"
    simulate(games=40, out=root, seed=20261207)
    return root


@pytest.fixture
def logs(night: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "logs"
    shutil.copytree(night, copy)
    return copy


def replayed(logs: Path, out: Path) -> tuple[list[Row], list[Row]]:
    """The findings and hands rows of the night."""
    replay_logs(logs=logs, out=out, workers=1, progress=False, fairplay=False)
    return (pq.read_table(out / "findings.parquet").to_pylist(),
            pq.read_table(out / "hands.parquet").to_pylist())  # fmt: skip


def longest(logs: Path, fmt: str, ruleset: str | None = None) -> Row:
    """The games row of the game of ``fmt`` (and ``ruleset``) that dealt the most hands."""
    played = Counter(h["game_id"] for h in rows(logs, "hands"))
    games = [g for g in rows(logs, "games") if g["format"] == fmt and g["ended_at"] is not None
             and (ruleset is None or g["ruleset"] == ruleset)]  # fmt: skip
    return max(games, key=lambda g: (played[g["game_id"]], g["game_id"]))


def one_finding(logs: Path, out: Path, game: Row) -> Row:
    """The night's one finding, on ``game``, whose hands are all verified."""
    found, hands = replayed(logs, out)
    assert [f["game_id"] for f in found] == [game["game_id"]], found
    assert {h["status"] for h in hands if h["game_id"] == game["game_id"]} == {"verified"}
    said = found[0]
    assert said["severity"] == "critical"
    assert said["hand_id"] is None
    assert said["player_id"] is None
    return said


def test_the_night_as_written_has_no_finding(night: Path, tmp_path: Path) -> None:
    assert replayed(night, tmp_path / "out")[0] == []


def test_games_point_value_written_twice_over_is_one_score_amount(
    logs: Path, tmp_path: Path
) -> None:
    """log-format.md, games.point_value (points rummy: money per point): every amount of the
    game settles at the true value, the row says twice that; one ``score.amount`` says both
    values, not one per amount and a critical ledger alarm."""
    game = longest(logs, "points")
    true = game["point_value"]
    tamper(logs, "games", lambda g: g["game_id"] == game["game_id"],
           lambda g: {**g, "point_value": true * 2})  # fmt: skip
    said = one_finding(logs, tmp_path / "out", game)
    assert said["check"] == "score.amount"
    assert (said["expected"], said["recorded"]) == (f"{true:.4f}", f"{true * 2:.4f}")
    assert said["message"].startswith(
        f"Every amount of game {game['game_id']} settles at {true:.4f} a point, but its games "
        f"row says {true * 2:.4f}: either the games row or every settlement of the game is "
        "wrong. By the games row "
    )
    assert said["rule"].startswith("games.point_value: ")


def _by_row(logs: Path, game: Row, value: Decimal) -> tuple[dict[str, Decimal], Decimal]:
    """What a 13-card points game settles with each player at ``value`` a point, and its
    rake, from its results (schemas/money.md, "Points rummy": each loser pays
    ``money(points x point_value)``, the winner what they pay less ``rake(paid, rake_pct)``)."""
    won: dict[str, Decimal] = {}
    fees = Decimal("0.00")
    hands = {h["hand_id"] for h in rows(logs, "hands") if h["game_id"] == game["game_id"]}
    results = [r for r in rows(logs, "results") if r["hand_id"] in hands]
    for hand in sorted(hands):
        mine = [r for r in results if r["hand_id"] == hand]
        paid = Decimal("0.00")
        for r in mine:
            if r["outcome"] != "won":
                owe = money(r["points"] * value)
                won[r["player_id"]] = won.get(r["player_id"], Decimal("0.00")) - owe
                paid += owe
        (winner,) = [r["player_id"] for r in mine if r["outcome"] == "won"]
        fee = rake(paid, game["rake_pct"])
        won[winner] = won.get(winner, Decimal("0.00")) + paid - fee
        fees += fee
    return won, fees


def test_games_point_value_read_otherwise_says_the_money_the_games_row_gives(
    logs: Path, tmp_path: Path
) -> None:
    """log-format.md, games.point_value; docs/replay.md, "The games row read otherwise": the
    one finding of a point value read otherwise says what the games row's value settles
    with each player and the rake against what was recorded, and explain says it beside
    each sum and in an "Owed if the games row's ... is right" line (a blind tester's finding
    gave two prices per point and no money, and explain said a bare "agrees": "S's points
    settlement: 4.32 by the rules, 4.32 recorded")."""
    game = longest(logs, "points", "standard-13")
    true, written = game["point_value"], game["point_value"] * 10
    tamper(logs, "games", lambda g: g["game_id"] == game["game_id"],
           lambda g: {**g, "point_value": written})  # fmt: skip
    said = one_finding(logs, tmp_path / "out", game)
    by_row, fee = _by_row(logs, game, written)
    recorded, took = _by_row(logs, game, true)
    ledger = [r for r in rows(logs, "ledger") if r["game_id"] == game["game_id"]]
    assert took == sum((r["amount"] for r in ledger if r["kind"] == "rake"), Decimal("0.00"))
    clauses = [
        f"{p} gets {by_row[p]} (recorded {recorded[p]}, {by_row[p] - recorded[p]} less)"
        if by_row[p] > 0 else
        f"{p} pays {-by_row[p]} (recorded {-recorded[p]}, {recorded[p] - by_row[p]} less)"
        for p in sorted(by_row) if by_row[p] != recorded[p]
    ]  # fmt: skip
    clauses.append(f"the rake is {fee} (recorded {took}, {fee - took} less)")
    assert said["message"].endswith(
        f"wrong. By the games row {', '.join(clauses[:-1])} and {clauses[-1]}.")
    # explain: each sum counted at the value read, with what the games row's value gives
    view = load_game_view(logs, game["game_id"])
    assert view.ledger is not None
    row_terms = f"{written:.4f} a point"
    for p in view.ledger.payouts:
        gives = by_row[p.player] if p.player else fee
        assert p.verdict == (f"agrees, with the hands' point value of {true:.4f} counted as "
                             f"recorded; {gives} by the games row's {row_terms}")  # fmt: skip
    owed = [f"{p} is owed {by_row[p] - recorded[p]}" if by_row[p] > recorded[p]
            else f"{p} owes {recorded[p] - by_row[p]}" for p in sorted(by_row)
            if by_row[p] != recorded[p]]  # fmt: skip
    owed.append(f"the platform kept {fee - took} less rake than it gives")
    assert view.ledger.row_terms == row_terms
    assert view.ledger.owed_by_row == "; ".join(owed)
    assert view.ledger.owed == ""
    assert (f"<b>Owed if the games row's {row_terms} is right:</b> "
            f"{view.ledger.owed_by_row}.") in render_game_html(view)
    # and each hand's box: the amount at the value read, then the games row's
    hand = sorted(h["hand_id"] for h in rows(logs, "hands") if h["game_id"] == game["game_id"])[0]
    box = load_view(logs, hand)
    (loser, *_) = [p for p in box.players if p.outcome == "lost" and p.amount]
    (points,) = [r["points"] for r in rows(logs, "results")
                 if r["hand_id"] == hand and r["player_id"] == loser.player]  # fmt: skip
    assert loser.comparison == (f"agrees: at the {true:.4f} a point the game settled at; "
                                f"{-money(points * written)} by the games row's {row_terms}")


@pytest.mark.parametrize("fmt", ["points", "pool_101"])
def test_games_rake_pct_written_otherwise_is_one_ledger_balance(
    logs: Path, tmp_path: Path, fmt: str
) -> None:
    """log-format.md, games.rake_pct (platform fee, percent): every pot (points) or the
    prize (pool) takes the true rake, the row says 2.50 more; one ``ledger.balance``, not
    "should be paid the prize of 431.25, but the ledger paid 443.75" (a blind tester)."""
    game = longest(logs, fmt)
    true = game["rake_pct"]
    tamper(logs, "games", lambda g: g["game_id"] == game["game_id"],
           lambda g: {**g, "rake_pct": true + Decimal("2.50")})  # fmt: skip
    said = one_finding(logs, tmp_path / "out", game)
    assert said["check"] == "ledger.balance"
    assert (said["expected"], said["recorded"]) == (f"{true:.2f}", f"{true + Decimal('2.50'):.2f}")
    assert said["message"].startswith(f"Every payout of game {game['game_id']} takes a rake "
                                      f"of {true:.2f}%, but its games row says")  # fmt: skip
    if fmt != "pool_101":  # each hand's pot: the rake by the row against what was taken
        assert " By the games row the rake of the " in said["message"]
        assert "the losers paid, leaving" in said["message"]
        # explain: each winner's settlement by the games row's rake, and who is owed what
        view = load_game_view(logs, game["game_id"])
        assert view.ledger is not None
        row = f"rake of {true + Decimal('2.50'):.2f}%"
        won = [p for p in view.ledger.payouts if p.what == "points settlement" and p.by_row
               and Decimal(p.by_row) < Decimal(p.recorded)]  # fmt: skip
        assert won
        assert all(p.row_terms == row for p in won)
        assert view.ledger.owed_by_row.startswith(f"{won[0].player} owes ")
        assert "the platform kept " in view.ledger.owed_by_row
        return
    # the money it moved, said (a blind tester's finding gave the percents alone): the
    # games row's rake and prize against the ledger's
    ledger = [r for r in rows(logs, "ledger") if r["game_id"] == game["game_id"]]
    paid_in = -sum((r["amount"] for r in ledger if r["kind"] in ("buy_in", "rebuy")),
                   Decimal("0.00"))  # fmt: skip
    took = sum((r["amount"] for r in ledger if r["kind"] == "rake"), Decimal("0.00"))
    by_row = rake(paid_in, true + Decimal("2.50"))
    assert said["message"].endswith(
        f"wrong. By the games row the rake is {by_row} of the {paid_in} paid in, leaving "
        f"{paid_in - by_row} to pay out; the ledger took {took} and paid out {paid_in - took}, "
        f"{by_row - took} more than the games row gives."
    )
    # explain shows the game as read, the games row's rake beside the ledger's, and the
    # sums counting the ledger's rake as recorded (it said "rake 10.00%" and "agrees")
    view = load_game_view(logs, game["game_id"])
    assert view.table is not None
    assert view.table.terms.endswith(
        f"rake {true + Decimal('2.50'):.2f}% by the games row; the ledger took {true:.2f}%")
    assert view.ledger is not None
    assert view.ledger.sums_title == f"By the rules, with the ledger's rake of {true:.2f}% " \
        "counted as recorded"
    (fee,) = [p for p in view.ledger.payouts if p.what == "rake"]
    row = f"rake of {true + Decimal('2.50'):.2f}%"
    assert fee.verdict == (f"agrees, with the ledger's rake of {true:.2f}% counted as recorded; "
                           f"{by_row} by the games row's {row}")  # fmt: skip
    # and what the games row's rake gives the winner: who is owed what if it is right (a
    # blind tester: the winner the reading pays short was named nowhere)
    (prize,) = [p for p in view.ledger.payouts if p.what == "prize"]
    assert prize.by_row == f"{paid_in - by_row}"
    assert view.ledger.owed_by_row == (
        f"the platform kept {by_row - took} less rake than it gives; {prize.player} owes "
        f"{by_row - took}")  # fmt: skip
    assert fee.how.endswith(
        f"the rake the ledger took, not the games row's {true + Decimal('2.50'):.2f}% (the "
        f"ledger.balance finding on the games row); by the games row the rake is {by_row} of "
        f"the {paid_in} paid in, leaving {paid_in - by_row} to pay out; the ledger took {took} "
        f"and paid out {paid_in - took}, {by_row - took} more than the games row gives"
    )


def test_games_rake_pct_a_pot_the_games_rows_rate_gives_is_no_evidence_of_another() -> None:
    """docs/replay.md, "The games row read otherwise" (log-format.md, games.rake_pct): a
    game at 13.25%, 0.0250 a point. Hand 1's pot of 1.00 is raked 0.14 where 0.13 is due,
    its winner paid 0.86 (the rules' 0.87); hand 2's pot of 1.93 is raked 0.26, which
    13.25% and 13.50% both give. Only hand 1 tells the rates apart, and one pot fits some
    rake by itself: the hand's score.amount and the ledger that paid it, not "every payout
    takes a rake of 13.50%" with the short winner said nowhere (a blind tester)."""
    over = {"point_value": "0.0250", "rake_pct": "13.25"}
    game, first = scenario(**base(**over, results={
        "P1": ("won", 0, "0.86"), "P2": ("lost", 40, "-1.00")}))  # fmt: skip
    _, second = scenario(**longer(**over, hand_id="H2", results={
        "P1": ("won", 0, "1.67"), "P2": ("lost", 77, "-1.93")}))  # fmt: skip
    assert rake(Decimal("1.93"), Decimal("13.50")) == Decimal("0.26")
    game.ledger = [LedgerRow(r.player, "points_settlement", r.amount)
                   for h in (first, second) for r in h.results if r.amount is not None]
    game.ledger += [LedgerRow(None, "rake", Decimal("0.14")), LedgerRow(None, "rake",
                                                                         Decimal("0.26"))]
    unit = audit_unit(GameUnit(game.game_id, game, [first, replace(second, hand_no=2)]))
    found = [f for h in unit.hands if h.audit is not None for f in h.audit.findings]
    assert [(f.check, f.hand_id, f.player_id, f.expected, f.recorded) for f in found] == [
        ("score.amount", "H1", "P1", "0.87", "0.86")]
    assert [(f.check, f.player_id, f.expected, f.recorded) for f in unit.findings] == [
        ("ledger.balance", None, "P1 2.54, P2 -2.93, rake 0.39",
         "P1 2.53, P2 -2.93, rake 0.40")]  # fmt: skip


def test_games_rake_pct_rounded_up_at_every_pot_is_each_pots_fault_not_another_rate() -> None:
    """schemas/money.md, "Numbers and rounding" (the rake half up to the paisa) and
    docs/replay.md, "The games row read otherwise": a game at 12.50%, 0.0250 a point,
    whose rake is rounded up at every hand. The pots of 1.93 are raked 0.25 (0.24 is due,
    0.24125 half up), which 13.00% half up also gives, as it gives hand 1's 0.13 of 1.00.
    The row's percent is right and the rounding wrong: each short winner's score.amount,
    not "every payout takes a rake of 13.00%" with every hand verified (a blind tester)."""
    over = {"point_value": "0.0250", "rake_pct": "12.50"}
    game, first = scenario(**base(**over, results={
        "P1": ("won", 0, "0.87"), "P2": ("lost", 40, "-1.00")}))  # fmt: skip
    later = [scenario(**longer(**over, hand_id=hand, results={
        "P1": ("won", 0, "1.68"), "P2": ("lost", 77, "-1.93")}))[1] for hand in ("H2", "H3")]
    assert rake(Decimal("1.93"), Decimal("13.00")) == Decimal("0.25")
    hands = [first, *(replace(h, hand_no=n) for n, h in enumerate(later, start=2))]
    game.ledger = [LedgerRow(r.player, "points_settlement", r.amount)
                   for h in hands for r in h.results if r.amount is not None]
    game.ledger += [LedgerRow(None, "rake", Decimal(t)) for t in ("0.13", "0.25", "0.25")]
    unit = audit_unit(GameUnit(game.game_id, game, hands))
    found = [f for h in unit.hands if h.audit is not None for f in h.audit.findings]
    assert [(f.check, f.hand_id, f.player_id, f.expected, f.recorded) for f in found] == [
        ("score.amount", "H2", "P1", "1.69", "1.68"), ("score.amount", "H3", "P1", "1.69", "1.68")]
    assert [f.check for f in unit.findings] == ["ledger.balance"]
    assert not any("takes a rake of" in f.message for f in unit.findings)


def test_games_point_value_amounts_rounded_down_are_each_amounts_fault_not_another_value(
) -> None:
    """schemas/money.md, "Numbers and rounding" (amounts half up to the paisa) and
    docs/replay.md, "The games row read otherwise": a game at 0.1250 a point, no rake,
    whose amounts are rounded down: 77 points cost 9.625, paid 9.62 (9.63 is due) in hands
    2 and 3, which 0.1249 half up also gives, as it gives hand 1's 5.00 for 40. The row's
    value is right and the rounding wrong: each loser's score.amount, saying the rounding,
    not "every amount settles at 0.1249 a point" with every hand verified (a blind
    tester)."""
    over = {"point_value": "0.1250", "rake_pct": "0.00"}
    game, first = scenario(**base(**over, results={
        "P1": ("won", 0, "5.00"), "P2": ("lost", 40, "-5.00")}))  # fmt: skip
    later = [scenario(**longer(**over, hand_id=hand, results={
        "P1": ("won", 0, "9.62"), "P2": ("lost", 77, "-9.62")}))[1] for hand in ("H2", "H3")]
    assert money(77 * Decimal("0.1249")) == Decimal("9.62")
    hands = [first, *(replace(h, hand_no=n) for n, h in enumerate(later, start=2))]
    game.ledger = [LedgerRow(r.player, "points_settlement", r.amount)
                   for h in hands for r in h.results if r.amount is not None]
    unit = audit_unit(GameUnit(game.game_id, game, hands))
    found = [f for h in unit.hands if h.audit is not None for f in h.audit.findings]
    assert [(f.check, f.hand_id, f.player_id, f.expected, f.recorded) for f in found
            if f.player_id == "P2"] == [
        ("score.amount", "H2", "P2", "-9.63", "-9.62"),
        ("score.amount", "H3", "P2", "-9.63", "-9.62")]  # fmt: skip
    assert found[0].message.startswith(
        "P2 lost 77 points at 0.1250 a point, so the amount should be -9.63, but the record "
        "shows -9.62; 9.625 rounds half up to 9.63 (money.md: the audit's reading, the seeds "
        "giving no rounding), and the record rounds it down"
    )
    assert not any("settles at" in f.message for f in unit.findings)


def test_games_ruleset_naming_the_other_preset_is_one_deck_composition(
    logs: Path, tmp_path: Path
) -> None:
    """log-format.md, games.ruleset (the preset the platform ran): a standard-13 game whose
    row names first-life-13 is judged by a shoe and a declaration rule it was not played by
    (a blind tester: deck.composition on every hand, valid declarations called invalid);
    one ``deck.composition`` names the ruleset its shoes and hands follow."""
    game = longest(logs, "points", "standard-13")
    tamper(logs, "games", lambda g: g["game_id"] == game["game_id"],
           lambda g: {**g, "ruleset": "first-life-13"})  # fmt: skip
    said = one_finding(logs, tmp_path / "out", game)
    assert said["check"] == "deck.composition"
    assert (said["expected"], said["recorded"]) == ("standard-13", "first-life-13")
    assert said["message"] == (
        f"Every hand of game {game['game_id']} follows the rules of standard-13 (its shoes "
        "are that ruleset's), but its games row says first-life-13: either the games row or "
        "the rules the game was played by are wrong."
    )


def test_games_format_written_otherwise_is_one_finding(logs: Path, tmp_path: Path) -> None:
    """log-format.md, games.format: a 201 pool game written as 101 pool is judged by the
    wrong elimination score and drop penalties (a blind tester: drop.penalty on legal drops,
    pool.elimination); one finding says the format its hands and payouts follow."""
    game = longest(logs, "pool_201")
    tamper(logs, "games", lambda g: g["game_id"] == game["game_id"],
           lambda g: {**g, "format": "pool_101"})  # fmt: skip
    said = one_finding(logs, tmp_path / "out", game)
    assert (said["expected"], said["recorded"]) == ("pool_201", "pool_101")
    assert said["check"] in ("ledger.balance", "pool.elimination", "pool.score", "drop.penalty")
    assert said["message"] == (
        f"Every hand and payout of game {game['game_id']} follows 201 pool, but its games "
        "row says 101 pool: either the games row or the way the whole game was scored and "
        "paid is wrong."
    )


def test_a_games_row_reading_must_explain_every_finding_of_its_column(
    logs: Path, tmp_path: Path
) -> None:
    """A reading stands only where it leaves no finding of the checks its column decides
    (``LEAVES``): a doubled point value with one amount of the game off as well is not read
    otherwise (no one point value gives every amount), and its findings stay as written."""
    game = longest(logs, "points")
    tamper(logs, "games", lambda g: g["game_id"] == game["game_id"],
           lambda g: {**g, "point_value": g["point_value"] * 2})  # fmt: skip
    hands = {h["hand_id"] for h in rows(logs, "hands") if h["game_id"] == game["game_id"]}
    tamper(logs, "results",
           lambda r: r["hand_id"] in hands and r["outcome"] == "lost" and r["amount"],
           lambda r: {**r, "amount": r["amount"] - Decimal("1.00")})  # fmt: skip
    found, _ = replayed(logs, tmp_path / "out")
    assert len(found) > 1
    assert not any("its games row says" in f["message"] for f in found)
    assert {f["check"] for f in found} <= set(LEAVES["point_value"])


def test_games_rake_pct_a_rake_written_twice_is_the_winners_prize_not_another_rate(
    logs: Path, tmp_path: Path
) -> None:
    """log-format.md, games.rake_pct and ledger (`rake`): a pool game's rake row written
    twice, its prize short by it, took twice the games row's 10%: a quarter percent, so it
    was read as the games row's rate being wrong ("every payout of the game takes a rake
    of 20.00%"), naming no player (a blind tester, b108). Two rake rows of one amount are
    a rake written twice: the winner paid short is named."""
    game = longest(logs, "pool_101")
    gid = game["game_id"]
    path = next(p for p in sorted((logs / "ledger").rglob("*.parquet"))
                if gid in pq.read_table(p, columns=["game_id"]).column(0).to_pylist())
    data = pq.read_table(path)
    ledger = data.to_pylist()
    fee = next(r for r in ledger if r["game_id"] == gid and r["kind"] == "rake")
    prize = next(r for r in ledger if r["game_id"] == gid and r["kind"] == "prize")
    prize["amount"] -= fee["amount"]
    ledger.append(dict(fee))
    pq.write_table(pa.Table.from_pylist(ledger, schema=data.schema), path)
    found = [f for f in replayed(logs, tmp_path / "out")[0] if f["game_id"] == gid]
    assert not [f for f in found if f["message"].startswith("Every payout")]
    assert [f["check"] for f in found if f["player_id"] == prize["player_id"]] == [
        "ledger.balance"]
