"""Findings: what the audit found wrong in the platform's record, one typed row each.

A finding is never an exception: the replay raises findings and goes on. The check catalog
below is the output contract's (docs/contract/audit-output.md) plus the codes this audit
adds; each check has a default severity and says what raises it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum, unique


@unique
class Severity(StrEnum):
    CRITICAL = "critical"
    MAJOR = "major"
    MINOR = "minor"
    INFO = "info"

    @property
    def rank(self) -> int:
        """3 for critical down to 0 for info: ``a.rank >= b.rank`` is "at least as bad"."""
        return _RANK[self]


_RANK = {Severity.CRITICAL: 3, Severity.MAJOR: 2, Severity.MINOR: 1, Severity.INFO: 0}


@dataclass(frozen=True, slots=True)
class Check:
    code: str
    severity: Severity
    raised_when: str


def _catalog(*rows: tuple[str, Severity, str]) -> dict[str, Check]:
    return {code: Check(code, severity, when) for code, severity, when in rows}


C, MJ, MN, INF = Severity.CRITICAL, Severity.MAJOR, Severity.MINOR, Severity.INFO

CATALOG: dict[str, Check] = _catalog(
    ("deck.composition", C, "the shoe is not exactly the ruleset's cards (decks x 52 + jokers)"),
    ("deck.commitment", C, "a provably-fair shuffle does not hash or reproduce to the shoe"),
    ("deal.mismatch", C, "wild_card or open_card differs from what the deal procedure gives"),
    ("turn.order", MJ, "a player acts out of turn, twice in a turn, or after leaving the hand"),
    ("draw.stock_mismatch", C, "a stock draw is not the card on top of the stock"),
    ("draw.discard_mismatch", C, "a discard-pile draw is not the card on top of the pile"),
    ("draw.forbidden", MJ, "a draw the ruleset forbids (a joker a player discarded)"),
    ("draw.reshuffle", C, "a reshuffled stock is not the discard pile less its top card"),
    ("discard.not_in_hand", C, "a discarded or finish-slot card is not in the player's hand"),
    ("declare.groups_mismatch", MJ, "declared or shown groups are not exactly the player's cards"),
    ("declare.verdict", C, "the platform's outcome for a declaration disagrees with the rules"),
    ("score.points", MJ, "a player's recorded points differ from the rules' points"),
    ("score.outcome", MJ, "a player's recorded outcome differs from the replay's"),
    ("score.amount", MJ, "points rummy: a hand's recorded money differs from points x point value"),
    ("drop.penalty", MJ, "a drop was charged the wrong penalty"),
    ("pool.score", MJ, "a running pool score is wrong"),
    ("pool.elimination", MJ, "a player was eliminated, or kept, against the threshold"),
    ("pool.rebuy", MJ, "a rebuy was allowed, refused or scored against the rules"),
    ("pool.winner", MJ, "a pool game's recorded winner is not the last player left"),
    ("pool.split", MJ, "a split was made when not allowed, or its amounts are wrong"),
    ("deals.chips", MJ, "chips moved in a deal differ from the rules"),
    ("ledger.balance", C, "a game's money does not balance, or a payout differs from the rules"),
    ("table.limit", MN, "a player sat at more tables at once than the client allows"),
    ("game.running", INF, "the game was still running when the batch was cut"),
    ("check.skipped", INF, "a check could not run: an optional table it needs is missing"),
    ("game.unchecked", INF, "a game-level check was skipped: a hand of the game was quarantined"),
    ("fairplay.co_seating", INF, "two accounts sat together far more often than their play "
     "volume predicts (severity by the strength of evidence)"),
    ("fairplay.shared_device", INF, "accounts sharing a device or IP address sat at one table "
     "through it beyond chance"),
    ("fairplay.collusion", INF, "a player took and melded another's discards far above their "
     "own rate (feeding)"),
    ("fairplay.soft_drop", INF, "a player dropped strong hands early when one player was at "
     "the table, far above their own rate"),
    ("fairplay.chip_dumping", INF, "points or money flowed one way between two accounts beyond "
     "what their results predict"),
    ("fairplay.bot", INF, "an account's decision times are too regular for a person"),
    ("fairplay.ring", INF, "three or more accounts are joined by suspicious pairs"),
    ("input.file", MJ, "a file could not be read or does not match the contract"),
    ("input.row", MJ, "a row breaks the input contract"),
    ("input.hand", MJ, "a hand cannot be replayed from what the log holds"),
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One discrepancy, in the columns of findings.parquet.

    ``message`` is one plain sentence a support agent can read to a player; ``rule`` is the
    ruleset key and the rule text it applies.
    """

    check: str
    severity: Severity
    game_id: str
    hand_id: str | None
    player_id: str | None
    seq: int | None
    expected: str | None
    recorded: str | None
    message: str
    rule: str

    def sort_key(self) -> tuple[str, str, int, str, str, str]:
        return (
            self.game_id,
            self.hand_id or "",
            -1 if self.seq is None else self.seq,
            self.check,
            self.player_id or "",
            self.message,
        )


COLUMNS = (
    "check", "severity", "game_id", "hand_id", "player_id", "seq",
    "expected", "recorded", "message", "rule",
)  # fmt: skip


def finding(
    check: str,
    *,
    game_id: str,
    message: str,
    rule: str,
    hand_id: str | None = None,
    player_id: str | None = None,
    seq: int | None = None,
    expected: object = None,
    recorded: object = None,
    severity: Severity | None = None,
) -> Finding:
    """A finding of a catalog check, at the check's default severity unless given."""
    return Finding(
        check=check,
        severity=severity or CATALOG[check].severity,
        game_id=game_id,
        hand_id=hand_id,
        player_id=player_id,
        seq=seq,
        expected=None if expected is None else str(expected),
        recorded=None if recorded is None else str(recorded),
        message=message,
        rule=rule,
    )


def worst(findings: Iterable[Finding]) -> Severity | None:
    best: Severity | None = None
    for f in findings:
        if best is None or f.severity.rank > best.rank:
            best = f.severity
    return best
