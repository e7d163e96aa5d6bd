"""One hand explained for support staff, turn by turn, with the rule behind every point.

``explain_hand(logs, hand_id)`` finds the hand in a log root, replays it and returns plain
text a support agent can read to a player: the seats, the wild card and the jokers it
makes, every turn, each player's groups with each group's verdict, the points card by card
with the rule, the best score the hand could have had, and every finding on the hand.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from audit.cards import CODE_TEXT, format_codes
from audit.errors import AuditError
from audit.logs.reader import open_log_root, read_bucket, staging
from audit.replay.outcome import audit_hand
from audit.replay.records import Game, Hand, QuarantineRow
from audit.rules.ruleset import load_preset
from audit.rules.solver import best_points

_VERBS = {
    "draw_stock": "drew {card} from the stock",
    "draw_discard": "took {card} from the discard pile",
    "discard": "discarded {card}",
    "drop": "dropped",
    "declare": "declared, putting {card} on the finish slot",
    "show": "showed their cards",
    "reshuffle": "the discard pile was reshuffled into a new stock",
}


def explain_hand(logs: Path, hand_id: str) -> str:
    """The text explanation of ``hand_id``; an ``AuditError`` when the log has no such hand."""
    log = open_log_root(logs)
    quarantine: list[QuarantineRow] = []
    with (
        tempfile.TemporaryDirectory(prefix="rummy-audit-explain-") as work,
        staging(log, quarantine=quarantine, workdir=Path(work)) as stage,
    ):
        for bucket in range(stage.buckets):
            for batch in read_bucket(stage, bucket, quarantine):
                for unit in batch:
                    for hand in unit.hands:
                        if hand.hand_id == hand_id:
                            return _explain(unit.game, hand)
    raise AuditError(f"the log root has no hand {hand_id!r}", slug="no-hand")


def _explain(game: Game | None, hand: Hand) -> str:
    if hand.quarantine is not None or game is None:
        reason = hand.quarantine or "its game is not in the games table"
        return f"Hand {hand.hand_id} could not be replayed: {reason}."
    rules = load_preset(game.ruleset)
    result = audit_hand(hand, game, rules)
    replay = result.replay
    lines = [
        f"Hand {hand.hand_id}, hand {hand.hand_no} of game {game.game_id} "
        f"({game.format.replace('_', ' ')}, rules {rules.id})",
        f"Seats in turn order: {', '.join(hand.seats)}",
        f"Wild card {CODE_TEXT[hand.wild]}: {replay.jokers.describe()} are jokers.",
        f"Open card: {CODE_TEXT[hand.open]}",
        "",
        "Turns:",
    ]
    for e in hand.events:
        words = _VERBS.get(e.action, e.action).format(
            card=CODE_TEXT[e.card] if e.card >= 0 else "?"
        )
        who = e.player or "server"
        auto = f" (by the server: {e.reason})" if e.auto else ""
        groups = ""
        if e.groups and e.action in ("declare", "show"):
            groups = ": " + " | ".join(format_codes(g) for g in e.groups)
        lines.append(f"  {e.seq:>3}  {who} {words}{auto}{groups}")
    for declaration in replay.declarations:
        verdict = "valid" if declaration.check.valid else "invalid"
        lines += ["", f"{declaration.player}'s declaration is {verdict}:"]
        lines += [f"  - {g.text}: {g.verdict.reason}" for g in declaration.check.groups]
        lines += [f"  - {reason}" for reason in declaration.check.reasons]
    lines += ["", "Outcomes, by the rules and as recorded:"]
    recorded = {r.player: r for r in hand.results}
    for player in hand.seats:
        want = result.expected.get(player)
        row = recorded.get(player)
        got = f"{row.outcome.replace('_', ' ')}, {row.points} points" if row else "nothing"
        if row is not None and row.amount is not None:
            got += f", amount {row.amount}"
        if want is None:
            lines.append(f"  {player}: the hand gives no outcome; recorded {got}")
            continue
        points = "?" if want.points is None else want.points
        lines.append(
            f"  {player}: {want.outcome.replace('_', ' ')}, {points} points "
            f"({want.why}); recorded {got}"
        )
        lines.append(f"      rule: {rules.cite(want.rule_key)}")
        if want.score is not None:
            for group in want.score.groups:
                lines.append(f"      {group.text}: {group.verdict.kind.value}")
        seat = replay.seats[player]
        if want.outcome == "lost" and seat.cards:
            best = best_points(seat.cards, replay.jokers, rules)
            lines.append(f"      the best these cards could have scored: {best} points")
    lines += ["", "Findings on this hand:"]
    lines += [f"  - [{f.severity.value}] {f.check}: {f.message}" for f in result.findings] or [
        "  none: the record agrees with the rules."
    ]
    return "\n".join(lines)
