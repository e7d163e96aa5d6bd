"""The audit of a batch of complete games, as one worker process runs it.

Imports only the rules engine and the replay, never the columnar engines, so a spawned
worker starts fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from audit.errors import RulesetError
from audit.findings import Finding, finding, worst
from audit.replay.outcome import audit_hand
from audit.replay.records import NO_CARD, Game, GameUnit, Hand, HandRow, QuarantineRow
from audit.rules.ruleset import Ruleset, load_preset


@dataclass
class BatchResult:
    findings: list[Finding] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    quarantine: list[QuarantineRow] = field(default_factory=list)

    def extend(self, other: BatchResult) -> None:
        self.findings += other.findings
        self.hands += other.hands
        self.quarantine += other.quarantine


def _quarantined(hand: Hand, game: Game | None, reason: str) -> HandRow:
    return HandRow(
        hand_id=hand.hand_id,
        game_id=hand.game_id,
        hand_no=hand.hand_no,
        format=game.format if game else None,
        ruleset=game.ruleset if game else None,
        players=len(hand.seats) or None,
        status="quarantined",
        findings=0,
        worst_severity=None,
        reason=reason,
    )


_NEEDS_CARD = frozenset({"draw_stock", "draw_discard", "discard", "declare"})
_NEEDS_GROUPS = frozenset({"declare", "show", "reshuffle"})


def malformed_event(hand: Hand) -> str | None:
    """Why an event row cannot be replayed at all (a draw without its card, a declaration
    without its groups, an action without a player), or ``None``. Such a hand is
    quarantined: the replay will not guess what the row meant."""
    for e in hand.events:
        if e.player is None and e.action != "reshuffle":
            return f"hand {hand.hand_id} event {e.seq} ({e.action}) names no player"
        if e.action in _NEEDS_CARD and e.card == NO_CARD:
            return f"hand {hand.hand_id} event {e.seq} ({e.action}) has no card"
        if e.action in _NEEDS_GROUPS and not e.groups:
            return f"hand {hand.hand_id} event {e.seq} ({e.action}) has no groups"
    return None


def _rules_for(game: Game) -> Ruleset | str:
    """The game's preset, or why it cannot be used (a reason for the quarantine)."""
    try:
        rules = load_preset(game.ruleset)
    except RulesetError as exc:
        return f"game {game.game_id}: {exc}"
    if rules.cards_per_hand != game.cards_per_hand:
        return (
            f"game {game.game_id} deals {game.cards_per_hand} cards but its ruleset "
            f"{rules.id} deals {rules.cards_per_hand}"
        )
    return rules


def audit_games(units: list[GameUnit]) -> BatchResult:
    """Audit complete games: every hand replayed, then the game-level checks."""
    out = BatchResult()
    for unit in units:
        game = unit.game
        rules: Ruleset | str = (
            _rules_for(game) if game else f"game {unit.game_id} is not in the games table"
        )
        for hand in unit.hands:
            if hand.quarantine is not None:
                out.hands.append(_quarantined(hand, game, hand.quarantine))
                continue
            problem = malformed_event(hand)
            if isinstance(rules, str) or game is None or problem is not None:
                reason = rules if isinstance(rules, str) else problem or "the game is not known"
                out.hands.append(_quarantined(hand, game, reason))
                out.quarantine.append(
                    QuarantineRow(
                        table="hands",
                        file=None,
                        row=None,
                        hand_id=hand.hand_id,
                        game_id=hand.game_id,
                        check="input.hand",
                        reason=reason,
                    )
                )
                continue
            result = audit_hand(hand, game, rules)
            severity = worst(result.findings)
            out.findings += result.findings
            out.hands.append(
                HandRow(
                    hand_id=hand.hand_id,
                    game_id=hand.game_id,
                    hand_no=hand.hand_no,
                    format=game.format,
                    ruleset=game.ruleset,
                    players=len(hand.seats),
                    status=result.status,
                    findings=len(result.findings),
                    worst_severity=severity.value if severity else None,
                    reason=None,
                )
            )
        if game is not None and game.running:
            out.findings.append(
                finding(
                    "game.running",
                    game_id=game.game_id,
                    message=f"Game {game.game_id} was still running when the logs were cut; "
                    "its game-level checks wait for the next batch.",
                    rule="games.ended_at: null while the game is still running (log-format.md)",
                )
            )
    return out
