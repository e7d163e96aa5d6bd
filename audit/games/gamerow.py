"""The games row read otherwise: one wrong value in a game's ``games`` row is one finding.

Every check of a game reads its games row (log-format.md, games): the point value prices
each settlement of a points game, the rake is taken from every pot or prize, the ruleset
judges every declaration and every shoe, the format decides the drops, the running scores
and where the money goes. One wrong value there is rarely one finding: a blind tester's
point value written twice over was up to 45 findings in a game, each "should be" of them
wrong and 211 critical ledger alarms on innocent players.

So, as a hand's readings do (docs/replay.md), a game whose audit finds faults in two or
more of its hands or rows, or of two or more checks, is audited again with its games row
changed in one column at a time, each value drawn from the record where the record says it
(``candidates``):

- ``point_value`` (points games): what the losers' amounts imply, a loser's ``-amount``
  over the points charged (less their value points), the same for every loser;
- ``rake_pct``: what the money the record moved implies, to the column's two decimals:
  in points rummy the losers' pots against what their winners received, in a pool or deals
  game the platform's rake rows (else what the prize and splits leave) against the entries;
- ``ruleset``, where the shoes are not the row's ruleset's (``deck.composition``): each
  other ruleset (the platform's in force, then the presets) that deals as many cards,
  plays the same kind of game and allows the game's format;
- ``format``: each other format the game's ruleset allows.

A reading stands where the game audited under it leaves no finding of the checks that
column decides (``LEAVES``), fewer findings in all than the row as written (counting the
reading's own one), and no other reading does so (two that explain the game equally are
not a reading: the record as written stands). Its one finding then replaces those the
wrong value caused, at ``critical`` (every settlement of the game may have been paid at
the wrong rate), on the game (no hand), ``expected`` the value the game was played by and
``recorded`` the games row's. The check it carries is the catalog's for what the column
prices (``CHECK``): ``score.amount`` for the point value (a hand's money against points x
point value), ``ledger.balance`` for the rake (a payout against the rules), for the
ruleset ``deck.composition`` (the shoes are the other ruleset's) and for the format
the first of those it raised that the format decides. A rake's or point value's finding
then says the money the row's value gives against what was recorded (``rake_moved``,
``points_moved``). The hands' statuses in hands.parquet follow the reading: a hand with no
finding of its own under it is ``verified``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final, Protocol, TypeVar

from audit.findings import Finding, Severity, contract, finding
from audit.games.ledger import PointsOwed, points_owed
from audit.money import OTHER_ROUNDINGS, money, rake, roundest
from audit.records import FORMAT_NAMES, Format, Game, Hand, RulesSay, and_words
from audit.rules.ruleset import Ruleset


class _HandAudit(Protocol):
    """A hand's audit as the reading reads it (``replay.outcome.HandAudit``)."""

    @property
    def findings(self) -> list[Finding]: ...
    @property
    def expected(self) -> Mapping[str, Any]: ...


class _Audited(Protocol):
    """One hand of an audited game (``unit.HandAudited``)."""

    hand: Hand
    row: Any

    @property
    def audit(self) -> _HandAudit | None: ...


class Audited(Protocol):
    """An audited game as the reading reads it (``unit.UnitAudit``, which calls it: the
    unit of audit stays the one door, and this module does not import it)."""

    game: Game | None
    rules: Ruleset | None
    findings: list[Finding]

    @property
    def hands(self) -> Sequence[_Audited]: ...

    def rules_say(self) -> RulesSay: ...


AuditedT = TypeVar("AuditedT", bound=Audited)
"""The audited game type the caller gives and gets back (``unit.UnitAudit``)."""

LEAVES: Final = {
    "point_value": ("score.amount", "ledger.balance"),
    "rake_pct": ("score.amount", "ledger.balance", "pool.split"),
    "ruleset": ("deck.", "declare.", "score.", "drop.", "pool.", "deals.", "ledger.",
                "match."),
    "format": ("drop.", "score.", "pool.", "deals.", "ledger.", "match.", "game.unchecked"),
}  # fmt: skip
"""The checks (by prefix) each column decides: a reading of it must leave none of them."""

CHECK: Final = {
    "point_value": ("score.amount",),
    "rake_pct": ("ledger.balance",),
    "ruleset": ("deck.composition",),
    "format": ("ledger.balance", "deals.chips", "pool.elimination", "pool.score",
               "drop.penalty", "drop.forbidden", "score.amount"),
}  # fmt: skip
"""The check a reading's one finding carries: the first of the column's that the row as
written raised (the first of all where it raised none of them)."""

_QUIET: Final = frozenset({"game.running", "check.skipped"})
_EVIDENCE: Final = 2
"""The fewest amounts (losers' rows, or points pots whose rake the games row's percent does
not give) a point value or rake must explain to be read off the record: one wrong amount
fits some value by itself (a blind tester's overcharged loser of a one-hand game read as
"settles at 0.1420 a point"; another's one pot raked a paisa high, beside a pot whose rake
both rates give, read as 14.00% for 13.75%)."""
_OTHER_ROUNDING: Final = tuple(way for way, _ in OTHER_ROUNDINGS)
"""The roundings of an amount or a rake other than money.md's half up (``money``)."""
_QUARTER: Final = Decimal("0.25")
_FOUR: Final = Decimal("0.0001")
_TWO: Final = Decimal("0.01")


def findings_of(out: Audited) -> list[Finding]:
    """Every finding of the audited game: its hands' and the game's own."""
    return [f for h in out.hands if h.audit is not None for f in h.audit.findings] + out.findings


def worth_reading(out: Audited) -> bool:
    """A game whose audit finds faults in two or more of its hands or rows (a game-level
    finding on no hand is a row's), or two or more faults of different checks (one of them
    its shoe, ``deck.composition``: the games row's own decks, jokers or ruleset, in a game
    of one hand; or a 201 pool game read as 101, a drop and an elimination in the hand
    after which 101's score ended it, the hands dealt on not judged): the only games read
    again, so an honest night pays nothing."""
    found = [f for f in findings_of(out) if f.check not in _QUIET]
    hands = {f.hand_id for f in found if f.hand_id is not None}
    rows = sum(1 for f in found if f.hand_id is None)
    return len(hands) + rows >= 2 or len({f.check for f in found}) >= 2


def read_games_row(
    out: AuditedT,
    again: Callable[[Game], AuditedT | None],
    others: Callable[[Game], list[str]],
) -> AuditedT:
    """``out``, or the game audited under the one games row read otherwise that explains it
    (module docstring). ``again`` audits the game under another games row (``None``: that
    row cannot be audited, its ruleset does not fit); ``others``: the other rulesets that
    may be the game's."""
    game = out.game
    if game is None or out.rules is None or not worth_reading(out):
        return out
    written = findings_of(out)
    checks = [f.check for f in written]
    kept: list[tuple[str, str, AuditedT]] = []
    for column, value in candidates(out, set(checks), others):
        read = again(replace(game, **{column: value}))  # type: ignore[arg-type]
        if read is None:
            continue
        found = findings_of(read)
        if any(f.check.startswith(LEAVES[column]) for f in found):
            continue
        if len(found) + 1 < len(written):
            kept.append((column, str(value), read))
    if len(kept) != 1:
        return out
    column, value, read = kept[0]
    said = _said(out, column, value, checks)
    read.findings = [said, *read.findings]
    for item in read.hands:  # the hands' rows keep the games row as written
        item.row = replace(item.row, format=game.format, ruleset=game.ruleset)
    return read


def candidates(
    out: Audited, checks: set[str], others: Callable[[Game], list[str]]
) -> Iterator[tuple[str, object]]:
    """Each (column, value) to read the games row with, drawn from the record, only for the
    columns whose checks the row as written raised."""
    game = out.game
    assert game is not None
    assert out.rules is not None
    money_found = bool(checks & {"score.amount", "ledger.balance", "pool.split"})
    if game.format == Format.POINTS and game.point_value is not None and money_found:
        rows = _loser_rows(out)
        value = implied_point_value(rows)
        if value is not None and value != game.point_value and not _rounded_otherwise(
                rows, game.point_value):  # fmt: skip
            yield "point_value", value
    if money_found:
        pct = implied_rake(out)
        if pct is not None and pct != game.rake_pct:
            yield "rake_pct", pct
    # Another ruleset only where the shoes are not the row's ruleset's: a server that
    # charged by other rules than the row names, with its shoes, is the platform's fault
    # at every hand (its findings cite the row's rules), not a row to read otherwise.
    if "deck.composition" in checks:
        for ruleset in others(game):
            yield "ruleset", ruleset
    if any(c.startswith(LEAVES["format"]) for c in checks):
        for fmt in out.rules.formats:
            if fmt != game.format:
                yield "format", str(fmt)


def implied_point_value(rows: list[tuple[int, Decimal]]) -> Decimal | None:
    """The point value every loser's amount is priced at (``rows``: ``_loser_rows``): a
    loser's ``-amount`` over the points charged less their net value points (21 and 27
    cards), from the loser with the most, to the column's four decimals: the roundest value
    near it (``roundest``) that gives every loser's recorded amount; ``None`` where none
    does."""
    if len(rows) < _EVIDENCE:
        return None
    units, paid = max(rows)
    guess = (paid / units).quantize(_FOUR, rounding=ROUND_HALF_UP)
    return roundest(guess, _FOUR, lambda value: value > 0 and all(
        money(units * value) == paid for units, paid in rows))  # fmt: skip


def _rounded_otherwise(rows: list[tuple[int, Decimal]], value: Decimal) -> bool:
    """Whether the games row's point value gives every loser's amount (``_loser_rows``)
    rounded to the paisa another way than money.md's half up: then each amount's rounding
    is its own fault (``score.amount`` at each), not the row's value (a blind tester's
    51 points at 0.1250 settled at 6.37, rounded down for 6.38, read as "settles at 0.1249
    a point" over the whole game, its hands said to agree)."""
    return bool(rows) and any(
        all((units * value).quantize(_TWO, rounding=way) == paid for units, paid in rows)
        for way in _OTHER_ROUNDING
    )


def _loser_rows(out: Audited) -> list[tuple[int, Decimal]]:
    """Each loser's (points charged less their net value points, what they paid)."""
    rows: list[tuple[int, Decimal]] = []
    for item in out.hands:
        if item.audit is None:
            continue
        for row in item.hand.results:
            if row.outcome == "won" or row.amount is None or row.points <= 0:
                continue
            said = item.audit.expected.get(row.player)
            net = said.value.net if said is not None and said.value is not None else 0
            if row.points - net > 0:
                rows.append((row.points - net, -row.amount))
    return rows


def pots(out: Audited) -> list[tuple[Decimal, Decimal]]:
    """Each pot the record's money moved and the rake it took, ``(pot, rake taken)``: in
    points rummy each hand's (what its losers paid against what its one winner received),
    in a pool or deals game the entries (the ``buy_in`` and ``rebuy`` rows) and the
    platform's rake rows, else what the prize and splits leave; none where a refund row
    moved the money back, or where two or more rake rows are the same amount (a rake
    written twice)."""
    game = out.game
    assert game is not None
    found: list[tuple[Decimal, Decimal]] = []
    if game.format == Format.POINTS:
        for item in out.hands:
            won = [r for r in item.hand.results if r.outcome == "won"]
            paid = [r.amount for r in item.hand.results if r.outcome != "won"]
            if len(won) != 1 or won[0].amount is None or any(a is None for a in paid):
                continue
            pot = -sum((a for a in paid if a is not None), Decimal("0.00"))
            if pot > 0:
                found.append((pot, pot - won[0].amount))
        return found
    fees = [row.amount for row in game.ledger if row.kind == "rake"]
    if len(fees) > 1 and len(set(fees)) == 1:
        # one rake written twice over is a row's fault, not another rate: its prize short
        # by it is the winner's finding (a blind tester, b108: "every payout takes 25.50%")
        return found
    kinds: dict[str, Decimal] = {}
    for row in game.ledger:
        kinds[row.kind] = kinds.get(row.kind, Decimal("0.00")) + row.amount
    kinds = {k: kinds.get(k, Decimal("0.00")) for k in (*kinds, "buy_in", "rebuy", "prize",
                                                        "split", "refund")}
    entries = -(kinds["buy_in"] + kinds["rebuy"])
    taken = kinds["rake"] if "rake" in kinds else entries - kinds["prize"] - kinds["split"]
    if entries > 0 and not kinds["refund"]:
        found.append((entries, taken))
    return found


def implied_rake(out: Audited) -> Decimal | None:
    """The rake percent the record's money takes (``pots``), to two decimals: the roundest
    value near it (``roundest``) that gives every pot's rake, ``None`` where none does or
    the record moved no money (in points rummy, fewer than two pots whose rake the games
    row's percent does not give: a pot it gives is no evidence of another rate, so a hand
    overcharged by a paisa beside one whose rake fits both rates is that hand's fault, not
    a rake read otherwise; a blind tester's 13.75% game was read as 14.00% so). Nor where
    the games row's percent gives every pot's rake rounded another way than half up
    (money.md), up or down: that is the rounding, each pot's fault (a blind tester's
    12.50% rounded up to the paisa at each hand was read as "every payout takes a rake of
    13.00%", and its hands verified)."""
    game = out.game
    assert game is not None
    found = pots(out)
    apart = [pot for pot, taken in found if rake(pot, game.rake_pct) != taken]
    if not found or (game.format == Format.POINTS and len(apart) < _EVIDENCE):
        return None
    if any(all(rake(pot, game.rake_pct, rounding) == taken for pot, taken in found)
           for rounding in _OTHER_ROUNDING):  # fmt: skip
        return None  # the row's percent, rounded otherwise: each pot's own fault
    total = sum((pot for pot, _ in found), Decimal("0.00"))
    taken = sum((taken for _, taken in found), Decimal("0.00"))
    guess = (taken * 100 / total).quantize(_TWO, ROUND_HALF_UP)
    pct = roundest(guess, _TWO, lambda pct: 0 <= pct < 100 and all(
        rake(pot, pct) == taken for pot, taken in found))  # fmt: skip
    if pct is None or (game.format != Format.POINTS and pct % _QUARTER):
        return None  # one pot: only a rake a platform sets (a quarter percent) is a reading
    return pct


def rake_moved(out: Audited, written: Decimal) -> str:
    """The money a rake read otherwise moved, in words: the rake the games row's percent
    (``written``) takes of the record's pots and what it leaves to pay out, against what
    the record took and paid out (a blind tester's finding gave the two percents and no
    amount: "12.50 more paid out as prize than the games row gives" was nowhere).

    >>> from types import SimpleNamespace as Ns
    >>> from audit.records import LedgerRow
    >>> rows = [LedgerRow("a", "buy_in", Decimal("-125.00")),
    ...         LedgerRow("b", "buy_in", Decimal("-125.00")),
    ...         LedgerRow("a", "prize", Decimal("225.00")),
    ...         LedgerRow(None, "rake", Decimal("25.00"))]
    >>> rake_moved(Ns(game=Ns(format="pool_101", ledger=rows), hands=[]), Decimal("15.00"))
    ' By the games row the rake is 37.50 of the 250.00 paid in, leaving 212.50 to pay out; \
the ledger took 25.00 and paid out 225.00, 12.50 more than the games row gives.'
    """
    found = pots(out)
    if not found:
        return ""
    game = out.game
    assert game is not None
    total = sum((pot for pot, _ in found), Decimal("0.00"))
    took = sum((taken for _, taken in found), Decimal("0.00"))
    by_row = sum((rake(pot, written) for pot, _ in found), Decimal("0.00"))
    more = by_row - took
    than = (f"{more} more than" if more > 0 else f"{-more} less than" if more < 0
            else "as much as")  # fmt: skip
    if game.format == Format.POINTS:
        n = len(found)
        return (f" By the games row the rake of the {n} pot{'s' if n != 1 else ''} is {by_row} "
                f"of the {total} the losers paid, leaving {total - by_row} to the winners; the "
                f"record took {took} and the winners received {total - took}, {than} the games "
                "row gives.")  # fmt: skip
    return (f" By the games row the rake is {by_row} of the {total} paid in, leaving "
            f"{total - by_row} to pay out; the ledger took {took} and paid out {total - took}, "
            f"{than} the games row gives.")


def settled_at(
    out: Audited, value: Decimal, rake_pct: Decimal | None = None
) -> PointsOwed | None:
    """What the hands of a points game settle by the rules at ``value`` a point (and
    ``rake_pct``, else the game's rake), each player's over the game and the rake
    (``ledger.points_owed``, with the replay's points and value cards); ``None`` for a game
    of another format or without its rules."""
    game = out.game
    if game is None or out.rules is None or game.format != Format.POINTS:
        return None
    game = replace(game, point_value=value, rake_pct=game.rake_pct if rake_pct is None
                   else rake_pct)  # fmt: skip
    return points_owed(game, [item.hand for item in out.hands], out.rules, out.rules_say())


def points_moved(out: Audited, written: Decimal, value: Decimal) -> str:
    """The money a point value read otherwise moved, in words: what the games row's value
    (``written``) settles with each player over the game, and the rake, against what the
    record settled at ``value`` (a blind tester's finding gave the two prices per point and
    no amount: "S gets 43.20, recorded 4.32" was nowhere). The rake's words
    (``rake_moved``) say the same of a rake.

    >>> from types import SimpleNamespace as Ns
    >>> from audit.records import Result
    >>> from audit.rules.ruleset import load_preset
    >>> game = Game("G1", "T1", "points", None, 13, "standard-13", 2, 2, 6, "real", None,
    ...     Decimal("0.5000"), Decimal("10.00"), False)
    >>> hand = Hand("H1", "G1", 1, ["S", "T"], [], 0, 0, [], [
    ...     Result("S", "won", 0, None, Decimal("2.56")),
    ...     Result("T", "lost", 57, None, Decimal("-2.85"))])
    >>> out = Ns(game=game, rules=load_preset("standard-13"), hands=[Ns(hand=hand)],
    ...          rules_say=lambda: {})
    >>> points_moved(out, Decimal("0.5000"), Decimal("0.0500"))
    ' By the games row S gets 25.65 (recorded 2.56, 23.09 less), T pays 28.50 (recorded \
2.85, 25.65 less) and the rake is 2.85 (recorded 0.29, 2.56 less).'
    """
    by_row, record = settled_at(out, written), settled_at(out, value)
    if by_row is None or record is None:
        return ""
    parts: list[str] = []
    for player in sorted(set(by_row.won) | set(record.won)):
        row = by_row.won.get(player, Decimal("0.00"))
        was = record.won.get(player, Decimal("0.00"))
        if row == was:
            continue
        if row > 0 or (row == 0 and was > 0):
            parts.append(f"{player} gets {row} (recorded {was}, {_than(was - row)})")
        else:
            parts.append(f"{player} pays {-row} (recorded {-was}, {_than(row - was)})")
    if by_row.rake != record.rake:
        parts.append(f"the rake is {by_row.rake} (recorded {record.rake}, "
                     f"{_than(record.rake - by_row.rake)})")  # fmt: skip
    if not parts:
        return ""
    return f" By the games row {and_words(parts)}."


def _than(more: Decimal) -> str:
    """``2.47 more``, ``2.47 less``: what the record moved against the games row."""
    return f"{more} more" if more > 0 else f"{-more} less"


_WORDS = {
    "point_value": "Every amount of game {g} settles at {v} a point, but its games row says "
    "{w}: either the games row or every settlement of the game is wrong.",
    "rake_pct": "Every payout of game {g} takes a rake of {v}%, but its games row says {w}%: "
    "either the games row or the rake of every payout of the game is wrong.",
    "ruleset": "Every hand of game {g} follows the rules of {v}{shoe}, but its games row "
    "says {w}: either the games row or the rules the game was played by are wrong.",
    "format": "Every hand and payout of game {g} follows {v}, but its games row says {w}: "
    "either the games row or the way the whole game was scored and paid is wrong.",
}


def _said(out: Audited, column: str, value: str, checks: list[str]) -> Finding:
    """The reading's one finding (module docstring); a rake's or point value's says the
    money it moved (``rake_moved``, ``points_moved``)."""
    game = out.game
    assert game is not None
    check = next((c for c in CHECK[column] if c in checks), CHECK[column][0])
    was = str(getattr(game, column))
    shown, wrote = value, was
    if column == "format":
        shown, wrote = FORMAT_NAMES.get(value, value), FORMAT_NAMES.get(was, was)
    shoe = " (its shoes are that ruleset's)" if column == "ruleset" else ""  # (candidates)
    message = _WORDS[column].format(g=game.game_id, v=shown, w=wrote, shoe=shoe)
    if column == "rake_pct":
        message += rake_moved(out, game.rake_pct)
    if column == "point_value" and game.point_value is not None:
        message += points_moved(out, game.point_value, Decimal(value))
    return finding(
        check, game_id=game.game_id, expected=value, recorded=was, message=message,
        rule=contract(f"games.{column}"), severity=Severity.CRITICAL,
    )  # fmt: skip


def readings(findings: Sequence[Finding]) -> dict[str, Finding]:
    """The games row's columns the audit read otherwise, each with its one finding (its
    ``expected`` the value the game was audited by, its ``recorded`` the row's): what
    shows the game as read must say the row's value beside it (``explain``)."""
    out: dict[str, Finding] = {}
    for f in findings:
        column = f.rule.split(":", 1)[0].removeprefix("games.")
        if (column in CHECK and f.check in CHECK[column] and f.rule == contract(f"games.{column}")
                and f.hand_id is None and f.player_id is None and f.expected is not None
                and f.recorded is not None):  # fmt: skip
            out.setdefault(column, f)
    return out
