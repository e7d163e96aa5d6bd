"""The view model of an explained game's money (``payouts.ledger_view`` fills it): every
ledger row in words, each sum the rules give against the record, and what is owed to whom
where they differ, as the terminal and the HTML page show them."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from audit.games.deals import chips

KIND_WORDS = {
    "buy_in": "buy-in",
    "rebuy": "rebuy",
    "prize": "prize",
    "split": "split share",
    "rake": "rake",
    "points_settlement": "points settlement",
    "refund": "refund",
}


@dataclass(frozen=True)
class LedgerLine:
    """One ledger row: its kind in words, the player (empty for the platform's own rows)
    and the signed amount, seen from the player."""

    kind: str
    player: str
    amount: str


@dataclass(frozen=True)
class Payout:
    """One sum the ledger should hold: what the rules give, what was recorded, how the
    rules' sum is made and the rules behind it."""

    what: str
    player: str
    rules_give: str
    recorded: str
    how: str
    rules: tuple[str, ...]
    judged: str = ""
    """Where the ledger check judges this sum against the record, not the rules (a prize
    paid to a recorded winner the rules do not give: schemas/money.md step 4), what it
    judges it against: the sum is then "not compared" with the rules', no money finding
    standing on it, or it "differs" from what the check wants (its finding)."""
    short: tuple[tuple[str, Decimal], ...] = ()
    """Where the sum is the players' together (the entry fees), what each player whose rows
    are off still owes (negative: paid too much; ``prize.entries_short``): the "Owed" line
    names them, as the ledger check's findings on their rows do."""
    counted: str = ""
    """What the sum counts as recorded though the rules refuse it (``Y's rebuy after hand
    2``), as the ledger check does: its "agrees" is said with it."""
    by_row: str = ""
    """Where the audit read the games row's point value otherwise (``games.gamerow``), the
    sum the row's own value gives (``row_terms``: ``0.5000 a point``), said beside the one
    counted at the value read: a blind tester read "4.32 by the rules, 4.32 recorded:
    agrees" of a settlement the games row prices at 43.20."""
    row_terms: str = ""

    @property
    def verdict(self) -> str:
        """``agrees``, ``differs``, ``not compared`` (``judged``), or ``agrees, with Y's
        rebuy after hand 2 counted as recorded`` (``counted``), then what the games row
        gives (``by_row``): ``; 43.20 by the games row's 0.5000 a point``."""
        if self.judged:
            if Decimal(self.judged) != Decimal(self.recorded):
                return "differs"
            return f"not compared, {self.counted} counted as recorded" if self.counted else (
                "not compared")  # fmt: skip
        if Decimal(self.rules_give) != Decimal(self.recorded):
            return "differs"
        said = f"agrees, with {self.counted} counted as recorded" if self.counted else "agrees"
        if self.by_row:
            said += f"; {self.by_row} by the games row's {self.row_terms}"
        return said

    @property
    def agrees(self) -> bool:
        """The record is the rules' sum, with nothing counted as recorded."""
        return self.verdict == "agrees"

    @property
    def differs(self) -> bool:
        return self.verdict == "differs"


@dataclass(frozen=True)
class LedgerView:
    """The game's money: every ledger row, its balance, each payout by the rules, and
    notes on what was not checked and why."""

    lines: tuple[LedgerLine, ...]
    paid_in: str
    paid_out: str
    net: str
    payouts: tuple[Payout, ...]
    notes: tuple[str, ...]
    worst: str
    counted_as_recorded: str = ""
    """What the sums count as recorded though the rules refuse it: the hands whose recorded
    outcomes the rules refuse (``verdicts.refused_hands``: ``hand 1``), the rebuys they do
    not allow (``refused_rebuys``); empty when there is none."""

    @property
    def sums_title(self) -> str:
        """``By the rules``, or ``By the rules, with hand 1 counted as recorded``."""
        if self.counted_as_recorded:
            return f"By the rules, with {self.counted_as_recorded} counted as recorded"
        return "By the rules"

    @property
    def owed(self) -> str:
        """What is owed to whom where a sum the rules give differs from the record (``P2 is
        owed 5.00; P1 was paid 5.00 too much``): each player's sum, each player's entries
        where the entry fees differ (``W owes 27.50``), and the platform's rake; empty where
        none differs. A sum "not compared" (judged against the record) owes
        nothing here: its difference rests on another finding."""
        words = []
        for p in self.payouts:
            if p.differs and not p.judged:  # a missing rebuy: "W owes 27.50" (a blind tester)
                words += [f"{who} owes {due}" if due > 0 else f"{who} paid {-due} too much"
                          for who, due in p.short]  # fmt: skip
            if not p.differs or p.judged or not (p.player or p.what == "rake"):
                continue
            # a payer who paid too little owes it, not "was paid too much" (a blind tester)
            payer = Decimal(p.rules_give) < 0 or Decimal(p.recorded) < 0
            due = Decimal(p.rules_give) - Decimal(p.recorded)
            words.append(_due(p.player, due, payer, "the rules give"))
        return "; ".join(words)

    @property
    def row_terms(self) -> str:
        """The games row's value the sums are also given at (``Payout.by_row``), or empty."""
        return next((p.row_terms for p in self.payouts if p.by_row), "")

    @property
    def owed_by_row(self) -> str:
        """What is owed to whom if the games row the audit read otherwise is right
        (``Payout.by_row``: ``S is owed 38.88; T owes 25.65; the platform kept 4.32 less
        rake than it gives``); empty where no sum is given by the row or none moves."""
        dues = [(p.player, Decimal(p.by_row) - Decimal(p.recorded)) for p in self.payouts
                if p.by_row]  # fmt: skip
        return "; ".join(_due(who, due, True, "it gives") for who, due in dues if due)

    @property
    def cited(self) -> tuple[str, ...]:
        """The rules behind the payouts, each once, in the order first cited."""
        return tuple(dict.fromkeys(rule for p in self.payouts for rule in p.rules))

    @property
    def balance(self) -> str:
        """The balance in words: what came in, what went out (rake included)."""
        if not self.lines:
            return "no ledger rows"
        paid = f"paid in {self.paid_in}, paid out {self.paid_out} (rake included)"
        net = Decimal(self.net)
        if net == 0:  # the sum only: what each player was paid is judged row by row
            return f"{paid}: the rows add up"
        if net > 0:
            return f"{paid}: it does not balance, {net} more was paid out than paid in"
        return f"{paid}: it does not balance, {-net} paid in was not paid out"


def signed(amount: Decimal, *, whole: bool = False) -> str:
    """``+40.00``, ``-12.50``, ``0.00``: money with its sign; ``whole``: chips, whole
    numbers without decimals (``+40``, ``audit.games.deals.chips``).

    >>> signed(Decimal("40.00")), signed(Decimal("40.00"), whole=True), signed(Decimal("0.00"))
    ('+40.00', '+40', '0.00')
    """
    text = (chips(amount) or "") if whole else str(amount)
    return f"+{text}" if amount > 0 else text


def _due(player: str, due: Decimal, payer: bool, than: str) -> str:
    """What ``due`` more than recorded (negative: less) means for ``player`` (empty: the
    platform's rake): ``P2 is owed 5.00``, ``P2 owes 5.00`` for a ``payer``, ``P1 was paid
    5.00 too much``, ``the platform kept 0.50 more rake than {than}``.

    >>> _due("P2", Decimal("5.00"), False, ""), _due("P1", Decimal("-5.00"), False, "")
    ('P2 is owed 5.00', 'P1 was paid 5.00 too much')
    >>> _due("", Decimal("-0.50"), False, "the rules give")
    'the platform kept 0.50 more rake than the rules give'
    """
    if not player:
        more = f"{-due} more" if due < 0 else f"{due} less"
        return f"the platform kept {more} rake than {than}"
    if due > 0:
        return f"{player} is owed {due}"
    return f"{player} owes {-due}" if payer else f"{player} was paid {-due} too much"
