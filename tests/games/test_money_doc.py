"""The worked examples of schemas/money.md, run through the audit's own functions.

Each example's tables (results, chips, ledger rows) are read from the page itself, so the
page and the audit cannot drift apart: the checks must find nothing on the numbers as
written, and must find the paisa moved when one is.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from audit.games.deals import check_deals
from audit.games.ledger import check_ledger
from audit.games.split import equal_shares, split_shares
from audit.money import money, rake
from audit.records import Game, GameEvent, Hand, LedgerRow, Result
from audit.replay.hand import HandReplay
from audit.replay.outcome import compare_money
from audit.rules.ruleset import load_preset

DOC = Path(__file__).parents[2] / "schemas" / "money.md"
RULES = load_preset("standard-13")
D = Decimal
PAISA = D("0.01")


def section(title: str) -> str:
    """The text of the ``### title`` section of the page, up to the next heading."""
    text = DOC.read_text(encoding="utf-8")
    match = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^#)", text, flags=re.M | re.S)
    assert match, f"schemas/money.md has no section '### {title}'"
    return match.group(1)


def table(text: str, *columns: str) -> list[dict[str, str]]:
    """The rows of the Markdown table in ``text`` whose header is ``columns``."""
    header = "| " + " | ".join(columns) + " |"
    lines = text.splitlines()
    assert header in lines, f"no table {header}"
    rows = []
    for line in lines[lines.index(header) + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(
            dict(zip(columns, (c.strip() for c in line.strip("|").split("|")), strict=True))
        )
    return rows


def ledger(text: str) -> list[LedgerRow]:
    return [
        LedgerRow(None if r["player_id"] == "(null)" else r["player_id"], r["kind"], D(r["amount"]))
        for r in table(text, "player_id", "kind", "amount")
    ]


def game(fmt: str, rows: list[LedgerRow], **money_columns: object) -> Game:
    g = Game(
        game_id="G1", table_id="T1", format=fmt, deals_count=None, cards_per_hand=13,
        ruleset="standard-13", decks=2, printed_jokers=2, max_players=6, chip_type="real",
        entry_fee=None, point_value=None, rake_pct=D("0.00"), running=False, ledger=rows,
    )  # fmt: skip
    return replace(g, **money_columns)  # type: ignore[arg-type]


def hand(no: int, seats: list[str], results: list[Result] | None = None) -> Hand:
    return Hand(f"G1-{no:02d}", "G1", no, seats, [], 0, 0, [], results or [])


def moved(rows: list[LedgerRow], kind: str, by: Decimal) -> list[LedgerRow]:
    """``rows`` with the first row of ``kind`` changed by ``by``."""
    i = next(i for i, row in enumerate(rows) if row.kind == kind)
    return [*rows[:i], rows[i]._replace(amount=rows[i].amount + by), *rows[i + 1 :]]


def test_rounding_is_half_up_to_the_paisa() -> None:
    """The page's two rounding examples."""
    assert money(D("4.625")) == D("4.63")
    assert money(D("-12.345")) == D("-12.35")


# ------------------------------------------------------------ points rummy


def points_example() -> tuple[Game, Hand, list[Result]]:
    text = section("Worked example: points rummy")
    results = [
        Result(r["player"], r["outcome"], int(r["points"]), None, D(r["amount"]))
        for r in table(text, "player", "outcome", "points", "amount")
    ]
    g = game("points", ledger(text), point_value=D("0.1250"), rake_pct=D("15.00"))
    assert "`point_value = 0.1250`, `rake_pct = 15.00`" in text
    return g, hand(1, [r.player for r in results], results), results


def test_points_example_amounts_are_what_score_amount_computes() -> None:
    g, h, results = points_example()
    assert compare_money(HandReplay(h, g, RULES), g, {}) == []
    # Blank the amounts: what the check expects is the page's amounts, to the paisa.
    blank = replace(h, results=[r._replace(amount=None) for r in results])
    found = compare_money(HandReplay(blank, g, RULES), g, {})
    assert {f.player_id: f.expected for f in found} == {r.player: str(r.amount) for r in results}
    assert {f.check for f in found} == {"score.amount"}
    assert rake(D("12.13"), D("15.00")) == D("1.82")


def test_points_example_ledger_balances_and_mirrors_the_results() -> None:
    g, h, _ = points_example()
    assert sum(row.amount for row in g.ledger) == 0
    assert check_ledger(g, [h], RULES) == []
    found = check_ledger(replace(g, ledger=moved(g.ledger, "rake", PAISA)), [h], RULES)
    assert {(f.check, f.expected) for f in found} >= {("ledger.balance", "1.82")}


# ------------------------------------------------------------ pool rummy


def test_pool_101_example_prize_and_rake_are_what_ledger_balance_computes() -> None:
    text = section("Worked example: pool_101 with a rebuy")
    assert "`entry_fee = 27.50`, `rake_pct = 12.75`" in text
    events = [
        GameEvent(1, 1, "C", "eliminated", 101, None),
        GameEvent(1, 2, "C", "rebuy", 61, None),
        GameEvent(3, 3, "A", "game_won", None, None),
    ]
    g = game(
        "pool_101", ledger(text), entry_fee=D("27.50"), rake_pct=D("12.75"), game_events=events
    )
    hands = [hand(1, ["A", "B", "C"]), hand(2, ["A", "B", "C"]), hand(3, ["A", "B", "C"])]
    assert rake(D("110.00"), D("12.75")) == D("14.03")
    assert sum(row.amount for row in g.ledger) == 0
    assert check_ledger(g, hands, RULES) == []
    # A paisa moved from the prize to the rake still balances, but both are wrong.
    shifted = moved(moved(g.ledger, "prize", -PAISA), "rake", PAISA)
    found = check_ledger(replace(g, ledger=shifted), hands, RULES)
    assert sorted((f.player_id or "", f.expected) for f in found) == [
        ("", "14.03"),
        ("A", "95.97"),
    ]


def test_pool_201_example_split_shares_are_what_pool_split_computes() -> None:
    text = section("Worked example: pool_201 split by agreement")
    assert "`entry_fee = 20.00`, `rake_pct = 15.00`" in text
    rows = ledger(text)
    pool = RULES.pools["pool_201"]
    scores = {"B": 160, "C": 180, "D": 151}
    assert [pool.first_drops_left(s) for s in scores.values()] == [1, 0, 1]
    owed = split_shares(
        kind="manual", scores=list(scores.values()), pool=pool, entry_fee=D("20.00"),
        entries=4, rake_pct=D("15.00"),
    )  # fmt: skip
    assert owed == [row.amount for row in rows if row.kind == "split"]
    assert [row.player for row in rows if row.kind == "split"] == list(scores)
    assert equal_shares(D("34.00"), 3) == [D("11.34"), D("11.33"), D("11.33")]
    auto = split_shares(
        kind="auto", scores=list(scores.values()), pool=pool, entry_fee=D("20.00"),
        entries=4, rake_pct=D("15.00"),
    )  # fmt: skip
    assert ", ".join(map(str, auto)) == "22.67, 22.67, 22.66"
    assert "three equal\nshares: 22.67, 22.67, 22.66." in text
    events = [
        GameEvent(5, 1, "A", "eliminated", 203, None),
        *(GameEvent(5, 2 + i, p, "split_accept", None, None) for i, p in enumerate(scores)),
        GameEvent(5, 9, None, "split", None, "manual"),
    ]
    g = game("pool_201", rows, entry_fee=D("20.00"), rake_pct=D("15.00"), game_events=events)
    hands = [hand(1, ["A", "B", "C", "D"])]
    assert sum(row.amount for row in rows) == 0
    assert check_ledger(g, hands, RULES) == []


# ------------------------------------------------------------ deals rummy


def test_deals_example_chips_and_prize_are_what_the_checks_compute() -> None:
    text = section("Worked example: deals, best of 2")
    assert "`entry_fee = 15.00`, `rake_pct = 12.50`, `deals_count = 2`" in text
    chips = table(text, "deal", "player", "outcome", "points", "amount")
    hands = [
        hand(
            no,
            [r["player"] for r in chips if r["deal"] == str(no)],
            [
                Result(r["player"], r["outcome"], int(r["points"]), None, D(r["amount"]))
                for r in chips
                if r["deal"] == str(no)
            ],
        )
        for no in (1, 2)
    ]
    g = game(
        "deals", ledger(text), deals_count=2, entry_fee=D("15.00"), rake_pct=D("12.50"),
        game_events=[GameEvent(2, 1, "B", "game_won", None, None)],
    )  # fmt: skip
    assert check_deals(g, hands, RULES) == []
    assert rake(D("45.00"), D("12.50")) == D("5.63")
    assert sum(row.amount for row in g.ledger) == 0
    assert check_ledger(g, hands, RULES) == []
    wrong = replace(g, game_events=[GameEvent(2, 1, "A", "game_won", None, None)])
    assert [f.expected for f in check_deals(wrong, hands, RULES)] == ["B"]


@pytest.mark.parametrize(
    "title",
    [
        "Worked example: points rummy",
        "Worked example: pool_101 with a rebuy",
        "Worked example: pool_201 split by agreement",
        "Worked example: deals, best of 2",
    ],
)
def test_every_worked_example_balances_to_the_paisa(title: str) -> None:
    assert sum(row.amount for row in ledger(section(title))) == D("0.00")
