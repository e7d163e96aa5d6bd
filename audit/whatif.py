"""What-if: a night's hands re-scored under another ruleset, before a platform changes a rule.

``whatif_logs(...)`` is what ``rummy-audit whatif`` calls. Every hand the replay can replay
is replayed twice from its recorded events: under its game's own ruleset (the rules as
played, not the recorded results) and under the other ruleset; each player's outcome,
points and, in points rummy, money are compared. The play itself is what was recorded,
so a hand is re-scored only where the other rules would have ended it at the same place:

- a declaration whose verdict the other rules turn round cannot be followed (a valid show
  turned invalid would have let the others play on past the record; an invalid one turned
  valid would have ended the hand earlier): the hand is ``undecided`` and kept out of the
  totals, with the reason;
- where the recorded play breaks one of the other rules (a joker taken from the pile, a
  drop in a format without drops...), the hand is still re-scored and the note says so.

Money is re-scored in points rummy only (each loser pays points x point value, the winner
takes the sum less the rake). In pool and deals games the points are re-scored hand by
hand, but eliminations, rebuys, splits and prizes follow from every later hand's play,
which the other rules would have changed: they are not re-scored.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from audit.errors import AuditError
from audit.logs.reader import iter_units, open_log_root
from audit.money import money, rake
from audit.output import write_json
from audit.records import Game, GameUnit, Hand, QuarantineRow
from audit.replay.hand import HandReplay
from audit.replay.outcome import Expected, expected_outcomes
from audit.rules.ruleset import Ruleset
from audit.unit import admit, opening_players

AMOUNT = pa.decimal128(18, 2)
CHANGES_SCHEMA = pa.schema(
    [
        pa.field("game_id", pa.string(), nullable=False),
        pa.field("hand_id", pa.string(), nullable=False),
        pa.field("hand_no", pa.int32()),
        pa.field("format", pa.string(), nullable=False),
        pa.field("player_id", pa.string(), nullable=False),
        pa.field("outcome_before", pa.string()),
        pa.field("points_before", pa.int32()),
        pa.field("amount_before", AMOUNT),
        pa.field("outcome_after", pa.string()),
        pa.field("points_after", pa.int32()),
        pa.field("amount_after", AMOUNT),
        pa.field("status", pa.string(), nullable=False),
        pa.field("note", pa.string(), nullable=False),
    ]
)
"""``whatif.parquet``: one row per player of every hand re-scored or undecided."""
PLAYERS_SCHEMA = pa.schema(
    [
        pa.field("player_id", pa.string(), nullable=False),
        pa.field("hands", pa.int64(), nullable=False),
        pa.field("hands_changed", pa.int64(), nullable=False),
        pa.field("points_before", pa.int64(), nullable=False),
        pa.field("points_after", pa.int64(), nullable=False),
        pa.field("amount_before", AMOUNT, nullable=False),
        pa.field("amount_after", AMOUNT, nullable=False),
        pa.field("outcomes_changed", pa.int64(), nullable=False),
    ]
)
"""``whatif_players.parquet``: per player, over the re-scored hands."""

RESCORED, CHANGED, UNDECIDED = "same", "changed", "undecided"


@dataclass(frozen=True, slots=True)
class Change:
    """One player's hand under the rules as played and under the other ruleset."""

    game_id: str
    hand_id: str
    hand_no: int
    format: str
    player_id: str
    outcome_before: str | None
    points_before: int | None
    amount_before: Decimal | None
    outcome_after: str | None
    points_after: int | None
    amount_after: Decimal | None
    status: str
    note: str


@dataclass
class WhatIf:
    """A night re-scored: the rows, and what could not be compared and why."""

    ruleset: str
    changes: list[Change] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    """Why hands were not re-scored (one count per hand): quarantined, other deal."""
    rake_before: Decimal = Decimal("0.00")
    rake_after: Decimal = Decimal("0.00")

    def hands(self, status: str | None = None) -> int:
        return len({c.hand_id for c in self.changes if status is None or c.status == status})

    def summary(self) -> dict[str, Any]:
        """The totals of whatif.json: over the re-scored hands (``undecided`` ones left out)."""
        scored = [c for c in self.changes if c.status != UNDECIDED]
        money_rows = [c for c in scored if c.amount_before is not None]
        paid_before = -sum((c.amount_before for c in money_rows if c.amount_before is not None
                            and c.amount_before < 0), Decimal("0.00"))  # fmt: skip
        paid_after = -sum((c.amount_after for c in money_rows if c.amount_after is not None
                           and c.amount_after < 0), Decimal("0.00"))  # fmt: skip
        return {
            "ruleset": self.ruleset,
            "hands": {
                "rescored": self.hands(RESCORED) + self.hands(CHANGED),
                "changed": self.hands(CHANGED),
                "undecided": self.hands(UNDECIDED),
                "not_rescored": dict(sorted(self.skipped.items())),
            },
            "players_changed": len({c.player_id for c in scored if _differs(c)}),
            "outcomes_changed": sum(c.outcome_before != c.outcome_after for c in scored),
            "points_before": sum(c.points_before or 0 for c in scored),
            "points_after": sum(c.points_after or 0 for c in scored),
            "points_money": {
                "losers_paid_before": str(paid_before),
                "losers_paid_after": str(paid_after),
                "rake_before": str(self.rake_before),
                "rake_after": str(self.rake_after),
            },
        }

    def players(self) -> list[dict[str, Any]]:
        """Per player, sorted by id: hands, changes, points and money before and after."""
        rows: dict[str, dict[str, Any]] = {}
        for c in self.changes:
            if c.status == UNDECIDED:
                continue
            row = rows.setdefault(c.player_id, {
                "player_id": c.player_id, "hands": 0, "hands_changed": 0,
                "points_before": 0, "points_after": 0, "amount_before": Decimal("0.00"),
                "amount_after": Decimal("0.00"), "outcomes_changed": 0,
            })  # fmt: skip
            row["hands"] += 1
            row["hands_changed"] += _differs(c)
            row["points_before"] += c.points_before or 0
            row["points_after"] += c.points_after or 0
            row["amount_before"] += c.amount_before or Decimal("0.00")
            row["amount_after"] += c.amount_after or Decimal("0.00")
            row["outcomes_changed"] += c.outcome_before != c.outcome_after
        return [rows[p] for p in sorted(rows)]


def _differs(c: Change) -> bool:
    return (c.outcome_before, c.points_before, c.amount_before) != (
        c.outcome_after, c.points_after, c.amount_after,
    )  # fmt: skip


# ------------------------------------------------------------ one game


def whatif_unit(unit: GameUnit, other: Ruleset, out: WhatIf) -> None:
    """Re-score every hand of one game the replay can replay under ``other``."""
    rules, reasons = admit(unit)
    game = unit.game
    for hand in unit.hands:
        if reasons[hand.hand_id] is not None or game is None or rules is None:
            out.skipped["quarantined: the replay cannot replay it"] += 1
        elif other.cards_per_hand != game.cards_per_hand:
            out.skipped[f"their games deal {game.cards_per_hand} cards and {other.id} "
                        f"deals {other.cards_per_hand}"] += 1  # fmt: skip
        else:
            _hand(hand, game, rules, other, out, opening_players(unit.hands))


def _hand(
    hand: Hand, game: Game, rules: Ruleset, other: Ruleset, out: WhatIf, opening: int | None
) -> None:
    before = HandReplay(hand, game, rules, opening).run()
    after = HandReplay(hand, game, other, opening).run()
    was, will = expected_outcomes(before), expected_outcomes(after)
    undecided = _undecided(before, after)
    note = undecided or _broken(before, after, other)
    paid_before, fee_before = _money(game, was)
    paid_after, fee_after = _money(game, will)
    rows = []
    for player in hand.seats:
        b, a = was.get(player), will.get(player)
        row = Change(
            hand.game_id, hand.hand_id, hand.hand_no, game.format, player,
            b.outcome if b else None, b.points if b else None, paid_before.get(player),
            a.outcome if a else None, a.points if a else None, paid_after.get(player),
            UNDECIDED if undecided else RESCORED, note,
        )  # fmt: skip
        rows.append(row)
    if not undecided:
        if any(_differs(r) for r in rows):
            rows = [replace(r, status=CHANGED) for r in rows]
        out.rake_before += fee_before
        out.rake_after += fee_after
    out.changes += rows


def _undecided(before: HandReplay, after: HandReplay) -> str:
    """Why the other rules would have ended the hand elsewhere than the record, or ``""``."""
    for b, a in zip(before.declarations, after.declarations, strict=True):
        if b.check.valid == a.check.valid:
            continue
        if b.check.valid:
            if after.rules.invalid_ends_hand:
                continue  # it still ends the hand there, on an invalid declaration
            return (f"under {after.rules.id} the declaration of {a.player} at event {a.seq} "
                    f"is invalid ({'; '.join(a.check.reasons)}), so the others would have "
                    "played on past the end of the record")  # fmt: skip
        return (f"under {after.rules.id} the declaration of {a.player} at event {a.seq} is "
                "valid and would have ended the hand there; the record plays on")  # fmt: skip
    return ""


def _broken(before: HandReplay, after: HandReplay, other: Ruleset) -> str:
    """The first rule of ``other`` the recorded play breaks that its own rules did not."""
    had = {(f.check, f.player_id, f.seq) for f in before.findings}
    new = [f for f in after.findings if (f.check, f.player_id, f.seq) not in had
           and not f.check.startswith(("score.", "declare."))]  # fmt: skip
    if not new:
        return ""
    return f"the recorded play breaks a rule of {other.id}: {new[0].message}"


def _money(game: Game, expected: dict[str, Expected]) -> tuple[dict[str, Decimal], Decimal]:
    """Points rummy: each player's amount and the rake, as the rules' outcomes give them
    (losers pay points x point value; a sole winner takes the sum less the rake)."""
    if game.format != "points" or game.point_value is None:
        return {}, Decimal("0.00")
    amounts: dict[str, Decimal] = {}
    paid = Decimal("0.00")
    winners = [p for p, e in expected.items() if e.outcome == "won"]
    for player, e in expected.items():
        if e.outcome == "won" or e.points is None:
            continue
        amounts[player] = -money(e.points * game.point_value)
        paid -= amounts[player]
    fee = Decimal("0.00")
    if len(winners) == 1:
        fee = rake(paid, game.rake_pct)
        amounts[winners[0]] = paid - fee
    return amounts, fee


# ------------------------------------------------------------ the night


def whatif_logs(*, logs: Path, out: Path, other: Ruleset) -> WhatIf:
    """Re-score every hand of ``logs`` under ``other``; write whatif.parquet,
    whatif_players.parquet and whatif.json into ``out``."""
    if out.exists() and not out.is_dir():
        raise AuditError(f"--out {out} exists and is not a folder", slug="out")
    log = open_log_root(logs)
    out.mkdir(parents=True, exist_ok=True)
    result = WhatIf(other.id)
    quarantine: list[QuarantineRow] = []
    with tempfile.TemporaryDirectory(prefix=".rummy-audit-whatif-", dir=out) as work:
        for batch in iter_units(log, quarantine=quarantine, workdir=Path(work)):
            for unit in batch:
                whatif_unit(unit, other, result)
    result.changes.sort(key=lambda c: (c.game_id, c.hand_no, c.hand_id, c.player_id))
    rows = [{name: getattr(c, name) for name in CHANGES_SCHEMA.names} for c in result.changes]
    _write(out / "whatif.parquet", CHANGES_SCHEMA, rows)
    _write(out / "whatif_players.parquet", PLAYERS_SCHEMA, result.players())
    summary = result.summary()
    summary["logs"] = str(logs)
    summary["input_rows_quarantined"] = len(quarantine)
    write_json(out / "whatif.json", summary)
    return result


def _write(path: Path, schema: pa.Schema, rows: Iterable[dict[str, Any]]) -> None:
    listed = list(rows)
    table = pa.Table.from_pylist(listed, schema=schema) if listed else schema.empty_table()
    pq.write_table(table, path, compression="zstd")


def describe(result: WhatIf) -> list[str]:
    """The lines ``rummy-audit whatif`` prints."""
    s = result.summary()
    hands, cash = s["hands"], s["points_money"]
    lines = [
        f"{hands['rescored']} hands re-scored under {result.ruleset}: {hands['changed']} would "
        f"change for {s['players_changed']} players ({s['outcomes_changed']} outcomes changed); "
        f"points charged {s['points_before']} -> {s['points_after']}",
        f"points rummy money: losers paid {cash['losers_paid_before']} -> "
        f"{cash['losers_paid_after']}; rake {cash['rake_before']} -> {cash['rake_after']}",
    ]
    if hands["undecided"]:
        lines.append(f"{hands['undecided']} hands undecided: the other rules would have ended "
                     "them elsewhere than the record (whatif.parquet says why)")  # fmt: skip
    for why, n in hands["not_rescored"].items():
        lines.append(f"{n} hands not re-scored: {why}")
    return lines
