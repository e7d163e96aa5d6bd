"""A game's table and money terms in words (``TableView``), as its games row records
them; where the audit read the row otherwise (``games.gamerow``: the game is audited, and
explained, as read: docs/replay.md), the row's value is said beside the one the record's
money follows, and the sums "by the rules" count that one as recorded (a blind tester read
"rake 10.00%" and the rake and prize "agree" by the rules of a game whose games row says
15.00%)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from audit.explain.ledgerview import Payout
from audit.findings import Finding
from audit.games.gamerow import Audited, pots, readings, settled_at
from audit.games.ledger import PointsOwed, settle_by_rules
from audit.money import rake as rake_of
from audit.records import Format, Game, Hand, RulesPoints
from audit.rules.ruleset import Ruleset


@dataclass(frozen=True)
class TableView:
    """A game's table and money terms, as the games table records them; a term the
    game's format has none of (an entry fee in points rummy) is empty. ``point_value_read``
    and ``rake_read``: the value the record's money follows where the audit read the games
    row otherwise (empty: read as written); ``taker``: who took that rake."""

    table_id: str
    chip_type: str
    entry_fee: str
    point_value: str
    rake_pct: str
    point_value_read: str = ""
    rake_read: str = ""
    taker: str = "the ledger"

    @property
    def terms(self) -> str:
        """``table T1, real money, 1.0000 a point, rake 10.00%`` (``practice chips``,
        ``tournament chips``: a real-money game's amounts are money, not chips); ``rake
        15.00% by the games row; the ledger took 10.00%`` where the row was read otherwise.

        >>> TableView("T1", "real", "50.00", "", "15.00%", rake_read="10.00%").terms[39:]
        'rake 15.00% by the games row; the ledger took 10.00%'
        """
        money = "real money" if self.chip_type == "real" else f"{self.chip_type} chips"
        parts = [f"table {self.table_id}", money]
        if self.entry_fee:
            parts.append(f"entry fee {self.entry_fee}")
        if self.point_value:
            value = f"{self.point_value} a point"
            if self.point_value_read:
                value += (f" by the games row; the amounts settle at {self.point_value_read} a "
                          "point")  # fmt: skip
            parts.append(value)
        rake = f"rake {self.rake_pct}"
        if self.rake_read:
            rake += f" by the games row; {self.taker} took {self.rake_read}"
        parts.append(rake)
        return ", ".join(parts)


def rake_taker(game: Game) -> str:
    """Who took the rake the record's money follows: the hands' pots in points rummy, the
    ledger in a pool or deals game (``gamerow.pots``)."""
    return "the hands' pots" if game.format == "points" else "the ledger"


def table_view(game: Game, findings: Sequence[Finding] = ()) -> TableView:
    """The table and money terms of ``game``; ``findings``: the game's, whose reading of
    the games row (``gamerow.readings``) puts the row's value beside the game's as read."""
    read = readings(findings)
    value = "" if game.point_value is None else str(game.point_value)
    said = read.get("point_value")
    rake = read.get("rake_pct")
    return TableView(
        table_id=game.table_id,
        chip_type=game.chip_type,
        entry_fee="" if game.entry_fee is None else str(game.entry_fee),
        point_value=said.recorded or value if said is not None else value,
        rake_pct=f"{rake.recorded if rake is not None else game.rake_pct}%",
        point_value_read=value if said is not None else "",
        rake_read=f"{game.rake_pct}%" if rake is not None else "",
        taker=rake_taker(game),
    )


def counted_read(game: Game, findings: Sequence[Finding]) -> str:
    """What the game's sums count as recorded where the audit read its games row otherwise
    (``the ledger's rake of 10.00%``), in the words of ``LedgerView.counted_as_recorded``;
    empty where it read the row as written."""
    read: Mapping[str, Finding] = readings(findings)
    words = []
    if "point_value" in read:
        words.append(f"the hands' point value of {game.point_value}")
    if "rake_pct" in read:
        whose = "the hands'" if game.format == "points" else "the ledger's"
        words.append(f"{whose} rake of {game.rake_pct}%")
    return " and ".join(words)


def row_priced(
    hand: Hand,
    game: Game,
    rules: Ruleset,
    said: Mapping[str, RulesPoints],
    findings: Sequence[Finding],
) -> dict[str, str]:
    """Of a points hand whose game's point value the audit read otherwise (``findings``:
    the game's), what each player's amount is beside the games row's value: ``at the
    0.0500 a point the game settled at; -28.50 by the games row's 0.5000 a point`` (a
    blind tester read a bare "agrees" of an amount the games row prices ten times over);
    empty where the row was read as written or the rules do not settle the hand."""
    read = readings(findings).get("point_value")
    if read is None or read.recorded is None or game.point_value is None:
        return {}
    settled = settle_by_rules(hand, replace(game, point_value=Decimal(read.recorded)), rules,
                              said)  # fmt: skip
    if isinstance(settled, str):
        return {}
    return {player: f"at the {game.point_value} a point the game settled at; {amount} by the "
            f"games row's {read.recorded} a point" for player, amount in settled[0].items()}


def by_row_rake(
    unit: Audited, game: Game, payouts: Sequence[Payout], pct: Decimal
) -> PointsOwed | None:
    """What the games row's own rake (``pct``), where the audit read the rake otherwise,
    gives each winner and the platform: a points game's settlements (``settled_at``); a
    pool or deals game's one prize, of the entries (``gamerow.pots``) less its rake, where
    one player takes it all (no split, no refund); else ``None``."""
    if game.format == Format.POINTS:
        return None if game.point_value is None else settled_at(unit, game.point_value, pct)
    found = pots(unit)
    won = [p.player for p in payouts if p.what == "prize" and p.player]
    if len(found) != 1 or len(won) != 1 or any(p.what == "split share" for p in payouts):
        return None
    entries = found[0][0]
    cut = rake_of(entries, pct)
    return PointsOwed({won[0]: entries - cut}, cut)
