"""The audit of a batch of complete games, as one worker process runs it.

Imports only the rules engine and the replay, never the columnar engines, so a spawned
worker starts fast.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from audit.errors import RulesetError
from audit.findings import Finding, Severity, finding, worst
from audit.games.deals import check_deals
from audit.games.ledger import check_ledger
from audit.games.pool import check_pool
from audit.replay.facts import DropRow, PileRow, hand_facts
from audit.replay.outcome import audit_hand
from audit.replay.records import NO_CARD, Game, GameUnit, Hand, HandRow, QuarantineRow
from audit.rules.ruleset import Ruleset, load_preset


@dataclass
class BatchResult:
    findings: list[Finding] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    quarantine: list[QuarantineRow] = field(default_factory=list)
    pile: list[PileRow] = field(default_factory=list)
    drops: list[DropRow] = field(default_factory=list)

    def extend(self, other: BatchResult) -> None:
        self.findings += other.findings
        self.hands += other.hands
        self.quarantine += other.quarantine
        self.pile += other.pile
        self.drops += other.drops


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


def _game_checks(
    game: Game, hands: list[Hand], rules: Ruleset, out: BatchResult, *, game_events: bool = True
) -> None:
    """The game-level checks of one game, after its hands; a hand a game-level finding
    names becomes a hand with a discrepancy. Without a game_events table (``game_events``
    false) nothing that rests on eliminations, rebuys, splits or the winner is checked:
    the pool checks, the winner of a deals game, a pool or deals game's entries and prize."""
    if game.running:
        found = [
            finding(
                "game.running",
                game_id=game.game_id,
                message=f"Game {game.game_id} was still running when the logs were cut; "
                "its game-level checks wait for the next batch.",
                rule="games.ended_at: null while the game is still running (log-format.md)",
            )
        ]
    else:
        found = check_ledger(game, hands, rules, game_events=game_events)
        if game.format == "deals":
            found += check_deals(game, hands, rules, winner=game_events)
        elif game.format in ("pool_101", "pool_201") and game_events:
            skipped = [h.hand_id for h in hands if h.quarantine is not None]
            if skipped:
                found.append(
                    finding(
                        "game.unchecked",
                        game_id=game.game_id,
                        message=f"The running scores of pool game {game.game_id} were not "
                        f"checked: hand {skipped[0]} could not be replayed.",
                        rule="pool scores run hand by hand (000_)",
                    )
                )
            else:
                found += check_pool(game, hands, rules)
    out.findings += found
    named = Counter(f.hand_id for f in found if f.hand_id is not None)
    if not named:
        return
    for i, row in enumerate(out.hands):
        if row.hand_id in named and row.game_id == game.game_id and row.status != "quarantined":
            mine = [f for f in found if f.hand_id == row.hand_id]
            severities = [f.severity for f in mine]
            if row.worst_severity is not None:
                severities.append(Severity(row.worst_severity))
            out.hands[i] = replace(
                row,
                status="discrepancy",
                findings=row.findings + len(mine),
                worst_severity=max(severities, key=lambda s: s.rank).value,
            )


def audit_games(units: list[GameUnit], *, missing: frozenset[str] = frozenset()) -> BatchResult:
    """Audit complete games: every hand replayed, then the game-level checks; those that
    need an optional table the log root does not have (``missing``) are skipped (the run
    says so once, as ``check.skipped``)."""
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
            pile, drops = hand_facts(result.replay, result.expected)
            out.pile += pile
            out.drops += drops
            by_player = {r.player: r for r in hand.results}
            recorded = [by_player[p] for p in hand.seats if p in by_player]
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
                    outcomes=tuple(r.outcome for r in recorded),
                    points=tuple(r.points for r in recorded),
                )
            )
        if game is not None and not isinstance(rules, str):
            _game_checks(game, unit.hands, rules, out, game_events="game_events" not in missing)
    return out
