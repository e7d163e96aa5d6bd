"""What-if: a night's hands re-scored under another ruleset, before a platform changes a rule.

``whatif_logs(...)`` is what ``rummy-audit whatif`` calls. Every hand the replay can replay
is replayed twice from its recorded events: under its game's own ruleset (the rules as
played, not the recorded results) and under the other ruleset; each player's outcome,
points and, in points rummy, money are compared. The play itself is what was recorded,
so a hand is re-scored only where the other rules would have ended it at the same place:

- a declaration whose verdict the other rules turn round cannot be followed (a valid show
  turned invalid would have let the others play on past the record; an invalid one turned
  valid would have ended the hand earlier; an invalid one ends the hand under one ruleset
  and not the other, ``declaration.invalid_ends_hand``): the hand is ``undecided`` and kept
  out of the totals, with the reason;
- where the recorded play breaks one of the other rules (a joker taken from the pile, a
  drop in a format without drops...), the hand is still re-scored and the note says so.

The night runs bucket by bucket of whole games on ``--workers`` processes, as the replay
does; each bucket's rows go to disk as it finishes and the totals are DuckDB sums over
them, so memory does not grow with the night.

Money is re-scored in points rummy only (each loser pays points x point value, the winner
takes the sum less the rake). In pool and deals games the points are re-scored hand by
hand, but eliminations, rebuys, splits and prizes follow from every later hand's play,
which the other rules would have changed: they are not re-scored.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from audit.errors import AuditError
from audit.findings import Finding
from audit.logs.reader import Staging, open_log_root, read_bucket, staging
from audit.output import AMOUNT, Parts, write_json
from audit.records import Game, GameUnit, Hand, QuarantineRow
from audit.replay.hand import HandReplay
from audit.replay.outcome import Expected, expected_outcomes, money_by_rules, plays_on
from audit.rules.registry import PlatformRules, load_rules, lookup, using
from audit.rules.ruleset import Ruleset
from audit.unit import admit, opening_players

PLAYERS_SCHEMA = pa.schema(
    [
        pa.field("player_id", pa.string(), nullable=False),
        pa.field("hands", pa.int64(), nullable=False),
        pa.field("hands_changed", pa.int64(), nullable=False),
        pa.field("points_before", pa.int64(), nullable=False),
        pa.field("points_after", pa.int64(), nullable=False),
        pa.field("amount_before", AMOUNT),
        pa.field("amount_after", AMOUNT),
        pa.field("outcomes_changed", pa.int64(), nullable=False),
    ]
)
"""``whatif_players.parquet``: per player, over the re-scored hands. Money is re-scored in
points rummy only, so a player with no points-rummy hand has no amounts (null; until
2026-12-06 they were 0.00, read as money that came out even: a blind tester)."""

RESCORED, CHANGED, UNDECIDED = "same", "changed", "undecided"
ZERO = Decimal("0.00")


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
    """What one bucket (or one game) re-scored gives: its rows, why hands were not
    re-scored, and the rake before and after over its re-scored points hands."""

    changes: list[Change] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    rake_before: Decimal = ZERO
    rake_after: Decimal = ZERO


def _differs(c: Change) -> bool:
    return (c.outcome_before, c.points_before, c.amount_before) != (
        c.outcome_after, c.points_after, c.amount_after,
    )  # fmt: skip


# ------------------------------------------------------------ one game


def whatif_unit(unit: GameUnit, other: Ruleset, out: WhatIf) -> None:
    """Re-score every hand of one game the replay can replay under ``other``."""
    rules, reasons = admit(unit)
    game = unit.game
    opening = opening_players(unit.hands)
    for hand in unit.hands:
        why = reasons[hand.hand_id]
        if why is not None or game is None or rules is None:
            out.skipped[quarantined(why, unit.game_id, hand.hand_id)] += 1
        elif rules.kind == "open-melds" or other.kind == "open-melds":
            out.skipped[f"what-if does not re-score the open-melds game ({rules.id} to "
                        f"{other.id}): its melds are laid during play"] += 1  # fmt: skip
        elif other.cards_per_hand != game.cards_per_hand:
            out.skipped[f"their games deal {game.cards_per_hand} cards and {other.id} "
                        f"deals {other.cards_per_hand}"] += 1  # fmt: skip
        else:
            _hand(hand, game, rules, other, out, opening)


def quarantined(reason: str | None, game_id: str, hand_id: str) -> str:
    """What a hand the replay quarantines is counted under: the replay's reason, with its
    game and hand named "its game" and "the hand", so that one cause is one line (every
    hand of the games naming a ruleset the run does not know), not one a game.

    >>> print(quarantined("game G7: unknown ruleset 'acme-13'", "G7", "H1"))
    quarantined: unknown ruleset 'acme-13'
    >>> print(quarantined("game G7 deals 10 cards but its ruleset S deals 13", "G7", "H1"))
    quarantined: its game deals 10 cards but its ruleset S deals 13
    >>> print(quarantined("hand H1 event 4 (discard) has no card", "G7", "H1"))
    quarantined: the hand event 4 (discard) has no card
    """
    why = (reason or "the replay cannot replay it").removeprefix(f"game {game_id}: ")
    for named, words in ((f"game {game_id}", "its game"), (f"hand {hand_id}", "the hand")):
        why = re.sub(rf"{re.escape(named)}(?![\w.-])", words, why)
    return f"quarantined: {why}"


def _hand(
    hand: Hand, game: Game, rules: Ruleset, other: Ruleset, out: WhatIf, opening: int | None
) -> None:
    before = HandReplay(hand, game, rules, opening).run()
    after = HandReplay(hand, game, other, opening, by_rules=True).run()
    was, will = _decided(expected_outcomes(before)), _decided(expected_outcomes(after))
    undecided = _undecided(before, after)
    paid_before, fee_before = money_by_rules(game, was)
    paid_after, fee_after = money_by_rules(game, will)
    unknown = _unpriced(was) | _unpriced(will)
    if unknown and (paid_before or paid_after):
        # the winner's amount and the rake rest on points the rules do not give: not known
        # (until 2026-12-06 the winner got a definite 0.00: a blind tester)
        paid_before, paid_after = _known(paid_before, was), _known(paid_after, will)
        fee_before = fee_after = ZERO
    broken, unpriced = _broken(before, after, other), _unpriced_words(unknown, game)
    both = f"{broken.removesuffix('.')}; {unpriced}" if broken and unpriced else ""
    note = undecided or both or broken or unpriced
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


def _decided(said: dict[str, Expected]) -> dict[str, Expected]:
    """The outcomes the rules decide: not a player they have play on past the end of the
    record (``plays_on``: an accepted invalid declaration's others), whom the replay under
    its own rules names with the recorded outcome and the one under ``by_rules`` not at
    all; counted as changed, the same ruleset changed a blind tester's 8 outcomes."""
    return {player: want for player, want in said.items() if not plays_on(want)}


def _unpriced(said: dict[str, Expected]) -> dict[str, str]:
    """The losers whose points the rules do not give, with why (a show of other cards than
    held, ``declaration.groups_exact``): the replay takes their recorded points, but what-if
    re-scores by the rules alone, so what the winner takes from them is not known."""
    return {p: e.why for p, e in said.items() if e.outcome != "won" and e.points is None}


def _known(paid: dict[str, Decimal], said: dict[str, Expected]) -> dict[str, Decimal]:
    """``paid`` less the winners' amounts, which rest on every loser's points."""
    return {p: amount for p, amount in paid.items()
            if p not in said or said[p].outcome != "won"}  # fmt: skip


def _unpriced_words(unknown: dict[str, str], game: Game) -> str:
    """Why a points-rummy hand's winner has no amount (``_unpriced``), or ``""``."""
    if not unknown or game.format != "points" or game.point_value is None:
        return ""
    who = ", ".join(f"{p} ({why})" for p, why in sorted(unknown.items()))
    return (f"the rules give no points for {who}, so the winner's amount and the rake are "
            "not re-scored")


def _undecided(before: HandReplay, after: HandReplay) -> str:
    """Why the other rules would have ended the hand elsewhere than the record, or ``""``.
    ``after`` judges each declaration by the other rules (``by_rules``): one they turn
    invalid still ends the hand there when it leaves one player in or the rules end the
    hand on an invalid declaration; one they turn valid ends it there, which the record
    agrees with when no move follows it (only shows)."""
    for b, a in zip(before.declarations, after.declarations, strict=False):
        if not b.check.valid and not a.check.valid:  # invalid both ways: where does it end?
            ends, ended = after.rules.invalid_ends_hand, before.rules.invalid_ends_hand
            if ends and not ended and not _only_shows_after(before, a.seq):
                # (a blind tester: re-scored with no winner, the declarer's penalty paid to
                # no one, and no note)
                return (f"under {after.rules.id} an invalid declaration ends the hand "
                        f"(declaration.invalid_ends_hand), so the declaration of {a.player} "
                        f"at event {a.seq} would have ended it there; the record plays on"
                        )  # fmt: skip
            if ended and not ends and not after.ended:
                return (f"under {after.rules.id} the others play on after an invalid "
                        f"declaration, so after {a.player}'s at event {a.seq} they would have "
                        "played on past the end of the record")  # fmt: skip
            continue
        if b.check.valid == a.check.valid:
            continue
        if b.check.valid:
            if after.ended:
                continue  # it still ends there: invalid_ends_hand, or one player left
            return (f"under {after.rules.id} the declaration of {a.player} at event {a.seq} "
                    f"is invalid ({'; '.join(a.check.reasons)}), so the others would have "
                    "played on past the end of the record")  # fmt: skip
        if _only_shows_after(before, a.seq):
            continue  # the record ends there too
        return (f"under {after.rules.id} the declaration of {a.player} at event {a.seq} is "
                "valid and would have ended the hand there; the record plays on")  # fmt: skip
    return ""


def _only_shows_after(replay: HandReplay, seq: int) -> bool:
    """No move follows event ``seq`` in the record, only shows: the hand ended there."""
    return all(e.action == "show" for e in replay.hand.events if e.seq > seq)


def _broken(before: HandReplay, after: HandReplay, other: Ruleset) -> str:
    """The first rule of ``other`` the recorded play breaks that its own rules did not.
    Read by its own rules alone (``by_rules``, as ``after`` is) where that could differ: that
    reading goes on past an accepted invalid declaration where the record's stops, so a
    show after it was said to break even the game's own ruleset (a blind tester)."""

    def beyond(had: HandReplay) -> list[Finding]:
        seen = {(f.check, f.player_id, f.seq) for f in had.findings}
        return [f for f in after.findings if (f.check, f.player_id, f.seq) not in seen
                and not f.check.startswith(("score.", "declare."))]  # fmt: skip

    new = beyond(before)
    if new:  # rare: the second replay only then
        own = HandReplay(before.hand, before.game, before.rules, before.started_with,
                         by_rules=True).run()  # fmt: skip
        new = beyond(own)
    if not new:
        return ""
    return f"the recorded play breaks a rule of {other.id}: {new[0].message}"


# ------------------------------------------------------------ the night


def whatif_bucket(stage: Staging, bucket: int, other: str) -> WhatIf:
    """One worker's unit: the bucket's games re-scored under the ruleset ``other`` (an
    id: a preset, or a platform's the staging carries)."""
    out = WhatIf()
    quarantine: list[QuarantineRow] = []
    with using(stage.rulesets):
        rules = lookup(other)
        for batch in read_bucket(stage, bucket, quarantine):
            for unit in batch:
                whatif_unit(unit, rules, out)
    return out


def whatif_logs(
    *,
    logs: Path,
    out: Path,
    ruleset: str,
    rules: Path | None = None,
    workers: int | None = None,
) -> dict[str, Any]:
    """Re-score every hand of ``logs`` under ``ruleset`` (with the platform rulesets of
    ``rules``); write whatif.parquet, whatif_players.parquet and whatif.json into
    ``out`` and return the totals (whatif.json's)."""
    from audit.run import bucket_rows, run_buckets  # the replay's runner, the same buckets

    platform = load_rules(rules)
    with using(platform):
        other = lookup(ruleset)
    if out.exists() and not out.is_dir():
        raise AuditError(f"--out {out} exists and is not a folder", slug="out")
    log = open_log_root(logs)
    out.mkdir(parents=True, exist_ok=True)
    workers = workers or os.cpu_count() or 1
    quarantine: list[QuarantineRow] = list(log.bad_files)
    events = sum(f.rows for f in log.files.get("events", []))
    skipped: Counter[str] = Counter()
    fees = [ZERO, ZERO]
    with tempfile.TemporaryDirectory(prefix=f".rummy-audit-{os.getpid()}-", dir=out) as work:
        parts = Parts(Path(work) / "parts")

        def done(part: WhatIf) -> None:
            parts.add("whatif", part.changes)
            skipped.update(part.skipped)
            fees[0] += part.rake_before
            fees[1] += part.rake_after

        with staging(log, quarantine=quarantine, target_rows=bucket_rows(events, workers),
                     workdir=Path(work), rulesets=platform) as stage:  # fmt: skip
            run_buckets(stage, workers, done, partial(whatif_bucket, other=other.id))
        parts.write("whatif", out / "whatif.parquet")
        players = parts.query("whatif", _PLAYERS)
        totals = parts.query("whatif", _TOTALS)
    _write_players(out / "whatif_players.parquet", players)
    summary = _summary(other.id, totals, skipped, fees, platform)
    summary["input_rows_quarantined"] = len(quarantine)
    write_json(out / "whatif.json", summary)
    return summary


_DIFFERS = (
    "(outcome_before IS DISTINCT FROM outcome_after OR points_before IS DISTINCT FROM"
    " points_after OR amount_before IS DISTINCT FROM amount_after)"
)
_PLAYERS = f"""
SELECT player_id, count(*), count(*) FILTER (WHERE {_DIFFERS}),
       coalesce(sum(points_before), 0), coalesce(sum(points_after), 0),
       sum(amount_before), sum(amount_after),
       count(*) FILTER (WHERE outcome_before IS DISTINCT FROM outcome_after)
FROM parts WHERE status <> '{UNDECIDED}' GROUP BY player_id ORDER BY player_id
"""
_TOTALS = f"""
SELECT count(DISTINCT hand_id) FILTER (WHERE status <> '{UNDECIDED}'),
       count(DISTINCT hand_id) FILTER (WHERE status = '{CHANGED}'),
       count(DISTINCT hand_id) FILTER (WHERE status = '{UNDECIDED}'),
       count(DISTINCT player_id) FILTER (WHERE status <> '{UNDECIDED}' AND {_DIFFERS}),
       count(*) FILTER (WHERE status <> '{UNDECIDED}'
                        AND outcome_before IS DISTINCT FROM outcome_after),
       coalesce(sum(points_before) FILTER (WHERE status <> '{UNDECIDED}'), 0),
       coalesce(sum(points_after) FILTER (WHERE status <> '{UNDECIDED}'), 0),
       coalesce(-sum(amount_before) FILTER (WHERE status <> '{UNDECIDED}'
                                            AND amount_before < 0), 0),
       coalesce(-sum(amount_after) FILTER (WHERE status <> '{UNDECIDED}'
                                           AND amount_after < 0), 0)
FROM parts
"""


def _write_players(path: Path, rows: list[Any]) -> None:
    names = PLAYERS_SCHEMA.names
    listed = [dict(zip(names, row, strict=True)) for row in rows]
    table = pa.Table.from_pylist(listed, schema=PLAYERS_SCHEMA)
    pq.write_table(table, path, compression="zstd")


def _summary(
    ruleset: str,
    totals: list[Any],
    skipped: Counter[str],
    fees: list[Decimal],
    platform: PlatformRules | None,
) -> dict[str, Any]:
    """whatif.json: over the re-scored hands (``undecided`` ones left out)."""
    row = totals[0] if totals else (0,) * 9
    rescored, changed, undecided, players, outcomes, before, after, paid, paid_after = row
    return {
        "ruleset": ruleset,
        "rulesets": platform.summary() if platform is not None else [],
        "hands": {
            "rescored": rescored or 0,
            "changed": changed or 0,
            "undecided": undecided or 0,
            "not_rescored": dict(sorted(skipped.items())),
        },
        "players_changed": players or 0,
        "outcomes_changed": outcomes or 0,
        "points_before": int(before or 0),
        "points_after": int(after or 0),
        "points_money": {
            "losers_paid_before": str(Decimal(paid or 0).quantize(ZERO)),
            "losers_paid_after": str(Decimal(paid_after or 0).quantize(ZERO)),
            "rake_before": str(fees[0]),
            "rake_after": str(fees[1]),
        },
    }


def describe(summary: dict[str, Any]) -> list[str]:
    """The lines ``rummy-audit whatif`` prints."""
    hands, cash = summary["hands"], summary["points_money"]
    lines = [
        f"{hands['rescored']} hands re-scored under {summary['ruleset']}: {hands['changed']} "
        f"would change for {summary['players_changed']} players "
        f"({summary['outcomes_changed']} outcomes changed); points charged "
        f"{summary['points_before']} -> {summary['points_after']}",
        f"points rummy money: losers paid {cash['losers_paid_before']} -> "
        f"{cash['losers_paid_after']}; rake {cash['rake_before']} -> {cash['rake_after']}",
    ]
    if hands["undecided"]:
        one = hands["undecided"] == 1
        lines.append(f"{hands['undecided']} hand{'' if one else 's'} undecided: the other "
                     f"rules would have ended {'it' if one else 'them'} elsewhere than the "
                     "record (whatif.parquet says why)")  # fmt: skip
    for why, n in hands["not_rescored"].items():
        lines.append(f"{n} hand{'' if n == 1 else 's'} not re-scored: {why}")
    return lines
