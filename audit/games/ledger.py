"""The ledger of one game: its money balances to the paisa and pays what the rules say.

Ledger amounts are signed from the player's side (log-format.md: buy-ins negative, prizes
positive, rake rows positive, the platform's rows with no player), so a balanced game's
rows add up to exactly zero: ``-(buy_in + rebuy) = prize + split + rake + refund`` and, in
points rummy, ``-(points_settlement) = rake``. On top of the balance:

- points rummy: each player's ``points_settlement`` rows add up to what the rules settle
  with them over the game's hands, and the ``rake`` rows to the rules' rakes of the hands
  (``money.points_settlement``, the arithmetic of ``score.amount``: the rules' points where
  the rules agree with the recorded outcome, else the recorded points; value cards from
  the replay). A wrong ``results.amount`` or ``points`` is the hand's finding, not also the
  ledger's when the ledger paid the right amount; a ledger that paid what the results
  record is one finding on the game (``ledgerpaid``), not one per player, and so is one
  with no rows for one hand (``ledgerpaid.unpaid_hand``). A results row of a player not
  dealt in settles nothing (its ``score.outcome`` is the one finding; ``dealt_in``).
  Where the rules cannot settle a hand here (no point value, not exactly
  one winner, a player with two rows, value cards without the replay's settlement) its
  recorded amounts are taken, and the finding says which hands and why;
- pool and deals: the prize pool is ``entry_fee x (players + rebuys)`` less the rake (a
  deals game has no rebuys: ``counted_rebuys``), ``rake_pct`` of it rounded half-up to
  the paisa (000_1729c72ad4c1f885.txt: "Amount equal to the wagering after deducting the
  rake amount"); the buy-ins and rebuys are those entry fees, and without a split the
  winner's ``prize`` is the whole pool (the winner: in a pool game the last player left
  by the rules, where the rules know one; else the player the ``game_won`` row names).
  Split amounts are the pool checks' business (audit/games/pool.py); here a split game
  only balances. A pool game that records no split where the rules owed an automatic one
  (``SplitOwed``) pays no prize: each player left then is owed an equal share of it.

Readings: a game still ``running`` has not paid out, so it is not judged; a game with no
ledger row is not judged (the ledger table is optional; ``audit.unit.game_checks`` says so,
``game.unchecked``, when the ledger holds other rows); a game with ``refund`` rows that the
record does not show reaching its end was called off (``records.called_off``), so only its
balance is checked; so is a points game with a quarantined hand (its results cannot be
trusted). A game played to its end is judged whatever refund rows it has, and each of them
is money the rules do not pay (``refunds``). Practice-chip games raise the same findings at
severity ``info``: no real money moved. One wrong row is one finding: the balance's own
finding is left out when the rows' findings account for all of the difference (``Row``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from audit.findings import Finding, Severity, finding
from audit.games.ledgerpaid import missing_rows, paid_as_recorded, unpaid_hand
from audit.games.ledgerpaid import recorded as recorded_sums
from audit.games.prize import ZERO, Row, SplitOwed, counted_rebuys, owed_shares, prize_pool
from audit.money import points_settlement, roundest
from audit.records import (
    POOL_FORMATS,
    Game,
    Hand,
    Result,
    RulesPoints,
    RulesSay,
    called_off,
    charged_points,
    dealt_in,
    game_end,
    money_unsettled,
    rules_verdict,
)
from audit.rules.ruleset import Ruleset

BALANCE_RULE = (
    "ledger.balance: Every game's money balances to the paisa: what the players pay in "
    "(buy-ins, rebuys, points lost) equals what is paid out (prizes, splits, points won, "
    "refunds) plus the platform's rake (log-format.md, ledger; 000_1729c72ad4c1f885.txt: "
    "'Specific numbers of chips are deducted and credited ... with respect to the player's "
    "wins and losses')"
)
POOL_RULE = (
    "ledger.prize: The prize of a pool or deals game is the entry fees of every player and "
    "rebuy, less the rake (rake_pct of the fees, rounded half-up to the paisa), paid to the "
    "winner (log-format.md: entry_fee 'pool and deals buy-in per player', rake_pct "
    "'platform fee, percent'; 000_1729c72ad4c1f885.txt says 'Amount equal to the wagering "
    "after deducting the rake amount' of a manual split's extra drop, and this audit reads "
    "the whole prize the same way)"
)


def check_ledger(
    game: Game,
    hands: list[Hand],
    rules: Ruleset,
    *,
    game_events: bool = True,
    complete: bool = True,
    expected: RulesSay | None = None,
    winner: str | None = None,
    void_rebuys: Collection[int] = (),
    split_owed: SplitOwed | None = None,
) -> list[Finding]:
    """``ledger.balance`` findings for one game. ``expected`` is what the replay's rules
    give each player of each hand (their points and value cards; without it, a points
    hand is settled from its recorded points, and a hand with value cards is taken as
    recorded). Without a game_events table the entries and prize of a pool or deals game
    are not checked (rebuys and the winner are recorded there); the balance still is. A
    game whose hands are not all here (``complete`` false) is checked on its ledger's own
    balance only. ``winner`` is the rules' winner of a pool game where the rules know one
    (``audit.games.pool.PoolJudgement.winner``): the prize is judged against that player,
    else against the one ``game_won`` row. ``void_rebuys`` are the seqs of a pool game's
    rebuy events of a player still in (``PoolJudgement.void_rebuys``): counted in no entry
    (``counted_rebuys``). ``split_owed``: the automatic split the rules owed a pool game
    that records none; its players' equal shares are judged instead of a winner's prize
    (``owed_shares``), and its ``split`` rows are no rows of a kind the game has none of."""
    if game.running or not game.ledger:
        return []
    severity = Severity.INFO if game.chip_type == "practice" else None
    rows = foreign_rows(game, game_events=game_events, split=split_owed is not None)
    if complete and not called_off(game, hands, expected):
        if game.format == "points":
            if all(hand.quarantine is None for hand in hands):
                rows += _points(game, hands, rules, expected)
        elif game.entry_fee is not None and game_events:
            rows += _pool(game, hands, game.entry_fee, winner, void_rebuys, split_owed is None)
            if split_owed is not None and hands:
                rows += owed_shares(game, hands, rules, split_owed, void_rebuys)
        rows = _prize_as_refund(game, rows + refunds(game, hands, expected))
    elif complete and game.entry_fee is not None:
        rows += beyond_stakes(game, winner)
    net = sum((row.amount for row in game.ledger), ZERO)
    explained = sum((moved for _, moved in rows), ZERO)
    out = ([] if rows and explained == net else balance(game)) + [f for f, _ in rows]
    if severity is not None:
        out = [_at(f, severity) for f in out]
    return out


def beyond_stakes(game: Game, winner: str | None = None) -> list[Row]:
    """``ledger.balance`` for each player of a pool or deals game called off who was
    refunded more than they paid in (their ``buy_in`` and ``rebuy`` rows): a refund gives
    back a player's stakes, so the rest is money paid to them that the rules do not (a
    blind tester: the whole prize paid as a refund to an eliminated player, in a game whose
    ``game_won`` row was deleted, was only the game's missing winner). Not the rules'
    ``winner``: the prize paid to them as a refund moved the right money, and the game's
    own finding (``pool.winner``, ``deals.chips``) says no winner was recorded."""
    paid: dict[str, Decimal] = defaultdict(lambda: ZERO)
    back: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for row in game.ledger:
        if row.player is None:
            continue
        if row.kind in ("buy_in", "rebuy") and row.amount < 0:
            paid[row.player] -= row.amount
        elif row.kind == "refund":
            back[row.player] += row.amount
    out: list[Row] = []
    for player in sorted(back):
        excess = back[player] - paid[player]
        if excess <= 0 or player == winner:
            continue
        found = finding(
            "ledger.balance",
            game_id=game.game_id,
            player_id=player,
            expected=f"refund at most {paid[player]}",
            recorded=f"refund {back[player]}",
            message=f"Game {game.game_id} was called off (no game event records how it "
            f"ended), and a refund gives back what a player paid in: {player} paid in "
            f"{paid[player]} but was refunded {back[player]}, {excess} more than their "
            "stakes.",
            rule=BALANCE_RULE,
        )
        out.append((found, excess))
    return out


def _prize_as_refund(game: Game, rows: list[Row]) -> list[Row]:
    """A winner's prize paid in a row written as a ``refund``: the winner's prize short by
    just that refund's amount is the one row's kind written wrong, one finding, not a
    prize unpaid and a refund not owed (a blind tester: two critical findings, one telling
    the winner they were never paid)."""
    refunds = {f.player_id: (f, moved) for f, moved in rows
               if f.expected == "no refund rows" and f.player_id}  # fmt: skip
    merged: dict[int, Row] = {}  # the prize's finding -> the one finding for both
    used: set[int] = set()  # the refunds' findings merged
    for f, moved in rows:
        if f.rule != POOL_RULE or f.player_id not in refunds:
            continue
        refund, back = refunds[f.player_id]  # back: the refund's amount
        owed = _amount(f.expected)  # a prize owed is positive, an entry negative
        if owed is None or owed <= 0 or back <= 0 or moved != -back:
            continue
        said = finding(
            "ledger.balance", game_id=game.game_id, player_id=f.player_id,
            expected=f"prize {back}", recorded=refund.recorded,
            message=f"The {back} paid to {f.player_id} as a refund is the prize they won "
            f"({owed}): the ledger writes that row as a refund, not a prize.",
            rule=POOL_RULE,
        )  # fmt: skip
        merged[id(f)] = (said, moved + back)
        used.add(id(refund))
        del refunds[f.player_id]
    return [merged.get(id(f), (f, moved)) for f, moved in rows if id(f) not in used]


def split_accounted(found: list[Finding]) -> list[Finding]:
    """A game's findings without its balance's where its ``pool.split`` findings account
    for all of it (what the split rows paid less the shares owed, added up, is what the
    ledger is out): a share paid 0.01 wrong is one finding, as a settlement row's is
    (schemas/money.md, step 2; a blind tester: a split share and the balance, two)."""
    balances = [f for f in found if f.check == "ledger.balance" and f.player_id is None
                and (f.expected or "").startswith("paid out ")]  # fmt: skip
    splits = [f for f in found if f.check == "pool.split" and _amount(f.expected) is not None]
    if len(balances) != 1 or not splits:
        return found
    (said,) = balances
    paid_in = _amount((said.expected or "").removeprefix("paid out "))
    paid_out = _amount((said.recorded or "").removeprefix("paid out "))
    moved = sum(((_amount(f.recorded) or ZERO) - (_amount(f.expected) or ZERO) for f in splits),
                ZERO)  # fmt: skip
    if paid_in is None or paid_out is None or moved != paid_out - paid_in:
        return found
    return [f for f in found if f is not said]


def _amount(text: str | None) -> Decimal | None:
    """A finding's ``expected`` or ``recorded`` as an amount, None when it is not one."""
    try:
        return Decimal(text) if text is not None else None
    except ArithmeticError:
        return None


def _at(f: Finding, severity: Severity) -> Finding:
    return finding(
        f.check, game_id=f.game_id, hand_id=f.hand_id, player_id=f.player_id, seq=f.seq,
        expected=f.expected, recorded=f.recorded, message=f.message, rule=f.rule,
        severity=severity,
    )  # fmt: skip


def _total(game: Game, *kinds: str) -> Decimal:
    return sum((row.amount for row in game.ledger if row.kind in kinds), ZERO)


def balance(game: Game) -> list[Finding]:
    """The ledger's own balance: what the players paid in against what was paid out (at
    the check's own severity; ``check_ledger`` lowers it for practice chips)."""
    net = sum((row.amount for row in game.ledger), ZERO)
    if net == 0:
        return []
    paid_in = -sum((row.amount for row in game.ledger if row.amount < 0), ZERO)
    paid_out = sum((row.amount for row in game.ledger if row.amount > 0), ZERO)
    return [
        finding(
            "ledger.balance",
            game_id=game.game_id,
            expected=f"paid out {paid_in}",
            recorded=f"paid out {paid_out}",
            message=f"Game {game.game_id} took in {paid_in} but paid out {paid_out} "
            f"(rake included), {abs(net)} too {'much' if net > 0 else 'little'}.",
            rule=BALANCE_RULE,
        )
    ]


def refunds(game: Game, hands: list[Hand], expected: RulesSay | None = None) -> list[Row]:
    """``ledger.balance`` for each ``refund`` row of a game played to its end (the record
    shows how, ``records.game_end``; none for a game it does not). A refund gives back
    the stakes of a game called off; the rules of a game that ended pay its prize, split
    shares or settlements, never a refund. A refund of 0.00 is one too: it moves no money,
    but it is a row of a called-off game in a game that ended, and such a row had every
    other money check of the game switched off (a blind tester), as a row of a kind the
    format has none of is flagged whatever its amount (``foreign_rows``)."""
    rows = [row for row in game.ledger if row.kind == "refund"]
    end = game_end(game, hands, expected) if rows else None
    if end is None:
        return []
    out: list[Row] = []
    for row in rows:
        found = finding(
            "ledger.balance",
            game_id=game.game_id,
            player_id=row.player,
            expected="no refund rows",
            recorded=f"refund {row.amount}",
            message=f"Refund of {row.amount} to {row.player or 'the platform'} in game "
            f"{game.game_id}, which was played to its end ({end}): the rules pay no refund "
            "there.",
            rule=BALANCE_RULE,
        )
        out.append((found, row.amount))
    return out


@dataclass(frozen=True)
class PointsOwed:
    """What the hands of a points game settle by the rules: each player's amount added up
    over the hands, and the rake the hands leave. ``as_recorded`` names each hand the rules
    cannot settle here, with why; its recorded ``results.amount`` are taken instead (a
    missing amount counts 0.00) and its rake is what its losers paid less what its winners
    took."""

    won: Mapping[str, Decimal]
    rake: Decimal
    as_recorded: tuple[tuple[str, str], ...] = ()
    by_verdict: tuple[tuple[str, str], ...] = ()
    """(hand, the rules' winner, or "" where the record names the same winner and the rules
    refuse who else was in at the show) of each hand whose recorded verdict the rules
    refuse and whose money they settle their own way (``rules_verdict``)."""

    def caveat(self) -> str:
        """``; hand H2's amounts are taken as recorded, as it does not record exactly one
        winner``, ``; hand H3 is settled with P1 winning, as the rules decide it, not as
        recorded (its score.outcome or declare.verdict)``, or empty when the rules settled
        every hand as recorded."""
        return "".join(
            f"; hand {hand_id}'s amounts are taken as recorded, as {why}"
            for hand_id, why in self.as_recorded
        ) + "".join(
            f"; hand {hand_id} is settled with {winner} winning, as the rules decide it, not "
            "as recorded (its score.outcome or declare.verdict)" if winner else
            f"; hand {hand_id} is settled with the players the rules keep in at the show, not "
            "those recorded (its score.outcome)"
            for hand_id, winner in self.by_verdict
        )


def settle_by_rules(
    hand: Hand, game: Game, rules: Ruleset, said: Mapping[str, RulesPoints] | None
) -> tuple[dict[str, Decimal], Decimal] | str:
    """Each player's amount in one points hand by the rules, and its rake (the arithmetic of
    ``score.amount``, ``audit.money.points_settlement``), or why the rules cannot settle it
    here. ``said`` is what the replay's rules give each player (None: not given): their
    points where the rules agree with the recorded outcome (else the recorded points), and
    their value cards."""
    settled = _settled(hand, game, rules, said)
    return settled if isinstance(settled, str) else settled[:2]


def _settled(
    hand: Hand, game: Game, rules: Ruleset, said: Mapping[str, RulesPoints] | None
) -> tuple[dict[str, Decimal], Decimal, str | None] | str:
    """``settle_by_rules``, with the rules' winner where the hand is settled by the rules'
    own verdict rather than the recorded one (``rules_verdict``), else None."""
    if game.point_value is None:
        return "the game records no point value"
    results = dealt_in(hand)
    players = [r.player for r in results]
    if len(set(players)) != len(players):
        return "a player has two results rows"
    winners = [r.player for r in results if r.outcome == "won"]
    if refused_verdict(results, said, rules):
        verdict = rules_verdict(hand, said) if said is not None else None
        if verdict is not None:
            points, winner, nets = verdict
            amounts, fee = points_settlement(points, [winner], game.point_value, game.rake_pct,
                                             nets)  # fmt: skip
            return amounts, fee, winner
        if len(winners) != 1:
            return "it does not record exactly one winner"
        return "its recorded verdict is not the rules' (its declare.verdict or score.outcome)"
    values: dict[str, int] = {}
    if rules.value_cards is not None:
        if said is None:
            return "its value cards are settled by the hand's replay, not given here"
        values = {p: e.value.net for p, e in said.items() if e.value is not None}
    points = {
        row.player: charged_points(row, said.get(row.player) if said is not None else None)
        for row in results
        if row.outcome != "won"
    }
    # A loser with no results row (its own score.outcome) paid the winner the rules'
    # points, as score.amount settles it (``outcome.compare_money``): the money is known.
    for player in unpaid_by_rules(hand, said):
        points[player] = (said[player].points or 0) if said is not None else 0
    amounts, fee = points_settlement(points, winners, game.point_value, game.rake_pct, values)
    return amounts, fee, None


def refused_verdict(
    results: list[Result], said: Mapping[str, RulesPoints] | None, rules: Ruleset
) -> bool:
    """Whether the hand's recorded verdict is not one the rules settle: not exactly one
    recorded winner, or one the rules refuse (``records.money_unsettled``)."""
    if sum(r.outcome == "won" for r in results) != 1:
        return True
    return said is not None and money_unsettled(results, said, rules.value_cards is not None)


def unpaid_by_rules(hand: Hand, said: Mapping[str, RulesPoints] | None) -> list[str]:
    """The players dealt in with no results row whom the rules give a loss of known points
    (``said``): what they settled is the rules' (a blind tester: a missing loser's row
    left the game's money unchecked beside its score.outcome)."""
    if said is None:
        return []
    return [p for p in hand.without_result() if p in said and said[p].outcome != "won"
            and said[p].points is not None]  # fmt: skip


def points_owed(
    game: Game, hands: list[Hand], rules: Ruleset, expected: RulesSay | None = None
) -> PointsOwed:
    """What the ledger of a points game should settle with each player, and its rake, by
    the rules (the arithmetic of the ``ledger.balance`` check of points rummy).

    >>> from audit.records import Result
    >>> from audit.rules.ruleset import load_preset
    >>> game = Game("G1", "T1", "points", None, 13, "standard-13", 2, 2, 6, "real", None,
    ...     Decimal("0.9000"), Decimal("10.00"), False)
    >>> hand = Hand("H1", "G1", 1, ["P1", "P2"], [], 0, 0, [], [
    ...     Result("P1", "won", 0, None, Decimal("36.00")),
    ...     Result("P2", "lost", 40, None, Decimal("-63.00"))])
    >>> owed = points_owed(game, [hand], load_preset("standard-13"))
    >>> owed.won, owed.rake, owed.as_recorded
    ({'P2': Decimal('-36.00'), 'P1': Decimal('32.40')}, Decimal('3.60'), ())
    """
    won: dict[str, Decimal] = {}
    hand_rake = ZERO
    as_recorded: list[tuple[str, str]] = []
    by_verdict: list[tuple[str, str]] = []
    for hand in hands:
        said = expected.get(hand.hand_id) if expected is not None else None
        settled = _settled(hand, game, rules, said)
        if isinstance(settled, str):
            as_recorded.append((hand.hand_id, settled))
            amounts: dict[str, Decimal] = {}
            for result in dealt_in(hand):
                amount = result.amount if result.amount is not None else ZERO
                amounts[result.player] = amounts.get(result.player, ZERO) + amount
            fee = -sum(amounts.values(), ZERO)
        else:
            amounts, fee, winner = settled
            if winner is not None:
                same = [r.player for r in dealt_in(hand) if r.outcome == "won"] == [winner]
                by_verdict.append((hand.hand_id, "" if same else winner))
        for player, amount in amounts.items():
            won[player] = won.get(player, ZERO) + amount
        hand_rake += fee
    return PointsOwed(won, hand_rake, tuple(as_recorded), tuple(by_verdict))


def _points(
    game: Game, hands: list[Hand], rules: Ruleset, expected: RulesSay | None
) -> list[Row]:
    """Each player's settlements against what the rules settle with them; the rake rows
    against the rules' rakes of the hands."""
    owed = points_owed(game, hands, rules, expected)
    won: dict[str, Decimal] = defaultdict(lambda: ZERO, owed.won)
    hand_rake = owed.rake
    caveat = owed.caveat()
    settled: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for row in game.ledger:
        if row.kind == "points_settlement" and row.player is not None:
            settled[row.player] += row.amount
    paid = paid_as_recorded(game.game_id, hands, (owed.won, owed.rake, owed.caveat()), settled,
                            _total(game, "rake"), BALANCE_RULE)  # fmt: skip
    if paid is None:  # else a hand with no rows: one finding, not each player's and the rake
        paid = unpaid_hand(game.game_id, hands, (owed, owed.caveat()), settled, _total(
            game, "rake"), lambda hand: points_owed(game, [hand], rules, expected), BALANCE_RULE)
    if paid is not None:  # the hands' findings, and the money that followed them once
        return [paid]
    value = _ledger_value(game, hands, rules, expected, owed, settled)
    follows = (f"the ledger's rows all follow {value} a point, not the games row's "
               f"{game.point_value}" if value is not None else "")  # fmt: skip
    said = "; ".join(filter(None, [caveat[2:], follows]))
    said = f" ({said})." if said else "."
    seated = {player for hand in hands for player in hand.seats}
    out: list[Row] = []
    for player in sorted(set(won) | set(settled)):
        if won[player] == settled[player]:
            continue
        # An account dealt into no hand has no hands to settle (a blind tester: a stranger's
        # settlement row read as if its hands settled 0.00).
        whose = (f"{player}'s hands settle {won[player]} with them" if player in seated
                 else f"{player} was dealt into no hand of the game, so nothing settles "
                 "with them")  # fmt: skip
        found = finding(
            "ledger.balance",
            game_id=game.game_id,
            player_id=player,
            expected=won[player],
            recorded=settled[player],
            message=f"By the rules, {whose}, but the ledger settled {settled[player]}" + said
            + missing_rows(player, hands, [r.amount for r in game.ledger if r.player == player
                                           and r.kind == "points_settlement"],
                           lambda hand: points_owed(game, [hand], rules, expected).won),
            rule=BALANCE_RULE,
        )
        out.append((found, settled[player] - won[player]))
    if not owed.as_recorded:  # a hand settled as recorded: no player's amount is the rules'
        out = _under_another(game, out, ("points_settlement",), lambda under, whose: (
            f"by the rules {under}'s hands settle {won[under]} with them, {whose}'s "
            f"{won[whose]}"))  # fmt: skip
    rake = _total(game, "rake")
    if rake != hand_rake:
        out.append((
            finding(
                "ledger.balance",
                game_id=game.game_id,
                expected=hand_rake,
                recorded=rake,
                message=f"The hands of game {game.game_id} leave {hand_rake} of rake by the "
                f"rules, but the ledger's rake rows add up to {rake}" + said,
                rule=BALANCE_RULE,
            ),
            rake - hand_rake,
        ))  # fmt: skip
    return out


def _ledger_value(
    game: Game,
    hands: list[Hand],
    rules: Ruleset,
    expected: RulesSay | None,
    owed: PointsOwed,
    settled: Mapping[str, Decimal],
) -> Decimal | None:
    """The one point value, not the games row's, that every settlement row and the rake
    rows of a points game's ledger follow, where two sums or more differ from the rules'
    (``gamerow.implied_point_value`` reads the results so): a blind tester's ledger settled
    at a tenth of the row's value was a finding per player and the rake, each right, none
    saying why. ``None`` where a hand is settled as recorded or no value gives them all, and
    where the ledger pays what the results recorded: its sums then follow the hands' own
    findings (wrong points charged at the row's value, which another value may give by
    chance: 74 x 0.5000 = 80 x 0.4625, a blind tester's one-hand game)."""
    rake_rows = _total(game, "rake")
    players = set(owed.won) | set(settled)
    off = [p for p in players if owed.won.get(p, ZERO) != settled.get(p, ZERO)]
    if (game.point_value is None or owed.as_recorded
            or len(off) + (rake_rows != owed.rake) < 2):  # fmt: skip
        return None
    recorded = recorded_sums(hands)
    if all(recorded.get(p, ZERO) == settled.get(p, ZERO) for p in players | set(recorded)):
        return None
    most = max(off, key=lambda p: (abs(owed.won.get(p, ZERO)), p))
    if not owed.won.get(most):
        return None
    guess = (settled.get(most, ZERO) / owed.won[most] * game.point_value).quantize(
        Decimal("0.0001"))

    def gives(value: Decimal) -> bool:
        if value <= 0 or value == game.point_value:
            return False
        at = points_owed(replace(game, point_value=value), hands, rules, expected)
        return at.rake == rake_rows and all(
            at.won.get(p, ZERO) == settled.get(p, ZERO) for p in players | set(at.won))

    return roundest(guess, Decimal("0.0001"), gives)


def _under_another(
    game: Game,
    rows: list[Row],
    kinds: Collection[str],
    why: Callable[[str, str], str] | None,
    *,
    words: Callable[[str, str, Decimal], str] | None = None,
    rule: str = BALANCE_RULE,
) -> list[Row]:
    """One ledger row of ``kinds`` settled with another player than the rules settle it
    with (written under another player's id, or money moved to them): the player it is
    under is off by just its amount, the player whose it is by just the opposite, and no
    other pair of players is so: one finding naming both, not two unlinked ones (a blind
    tester: two critical findings, neither saying the row was the other's). The words say
    where the money is, not why (a filing slip or a payment to the wrong player: another
    blind tester). ``why`` words what the rules give the two players, if it can;
    ``words`` (the player it is under, the player whose it is, the amount) words the whole
    message instead, cited with ``rule``."""
    players = [f.player_id for f, _ in rows]
    if len(players) != len(set(players)):
        return rows  # a player off twice (a buy-in and a rebuy): not one row
    moved = {f.player_id: (f, amount) for f, amount in rows if f.player_id is not None}
    pairs = [(under, whose) for under, (_, amount) in moved.items()
             for whose, (_, back) in moved.items()
             if amount != 0 and back == -amount and any(
                 row.kind in kinds and row.player == under and row.amount == amount
                 for row in game.ledger)]  # fmt: skip
    if len(pairs) != 1:
        return rows
    (under, whose), = pairs
    amount = moved[under][1]
    kind = next(row.kind for row in game.ledger if row.kind in kinds and row.player == under
                and row.amount == amount).replace("_", " ")  # fmt: skip
    message = words(under, whose, amount) if words is not None else (
        f"A {kind} of {amount} is settled with {under} that the rules settle with "
        f"{whose}: {under} is off by just that row and {whose} by just its opposite"
        + (f" ({why(under, whose)})." if why else "."))  # fmt: skip
    said = finding(
        "ledger.balance", game_id=game.game_id, player_id=under, expected=whose,
        recorded=under, rule=rule, message=message,
    )  # fmt: skip
    ids = {id(moved[under][0]), id(moved[whose][0])}
    return [(said, ZERO)] + [(f, m) for f, m in rows if id(f) not in ids]


def _pool(
    game: Game,
    hands: list[Hand],
    fee: Decimal,
    by_rules: str | None,
    void: Collection[int],
    prize: bool = True,
) -> list[Row]:
    """Entry fees, rake and (``prize``) the winner's prize of a pool or deals game: the
    prize goes to the rules' winner ``by_rules`` where the rules know one (a pool game's
    last player left: a ``game_won`` row naming another is the game's own ``pool.winner``
    finding, and a ledger that paid the rightful winner is right; a blind tester had two
    critical findings on it), else to the player the one ``game_won`` row names."""
    money = prize_pool(game, hands, fee, void)
    players, rebuys, gross = money.players, money.rebuys, money.gross
    rake, whole = money.rake, money.prize
    winner = by_rules or money.winner
    out: list[Row] = []

    def add(
        player: str | None, expected: Decimal, recorded: Decimal, message: str, moved: Decimal
    ) -> None:
        found = finding(
            "ledger.balance",
            game_id=game.game_id,
            player_id=player,
            expected=expected,
            recorded=recorded,
            message=message,
            rule=POOL_RULE,
        )
        out.append((found, moved))

    entries = -_total(game, *_entry_kinds(game))
    before = len(out)
    if hands:
        _entries_by_player(game, hands, fee, add, void)
        out[before:] = _under_another(game, out[before:], _entry_kinds(game), None)
    if hands and entries != gross and len(out) == before:
        add(None, gross, entries, f"{players} players and {rebuys} rebuys at {fee} should "
            f"pay {gross} in entry fees, but the ledger took {entries}.",
            gross - entries)  # fmt: skip
    recorded_rake = _total(game, "rake")
    if hands and recorded_rake != rake:
        add(None, rake, recorded_rake, f"The rake on {gross} of entry fees at "
            f"{game.rake_pct}% is {rake}, but the ledger took {recorded_rake}.",
            recorded_rake - rake)  # fmt: skip
    if not prize or any(row.kind == "split" for row in game.ledger) or not hands:
        return out
    if by_rules is None and not any(
        e.action == "game_won" and e.player is not None for e in game.game_events
    ):
        # No winner recorded: the game's own finding says so and names the rules' winner
        # (pool.winner, deals.chips); the prize is not judged against a winner no row
        # names ("C did not win the game", said of the rightful winner: a blind tester).
        return out
    paid: dict[str | None, Decimal] = defaultdict(lambda: ZERO)
    for row in game.ledger:
        if row.kind == "prize":
            paid[row.player] += row.amount
    before = len(out)
    if winner is not None and paid[winner] != whole:
        add(winner, whole, paid[winner], f"{winner} won the game and should be paid the "
            f"prize of {whole}, but the ledger paid {paid[winner]}.",
            paid[winner] - whole)  # fmt: skip
    for player in sorted((p for p in paid if p != winner), key=str):
        if paid[player] != 0:
            add(player, ZERO, paid[player], f"{player} did not win the game but the "
                f"ledger paid them a prize of {paid[player]}.", paid[player])  # fmt: skip
    if winner is not None and paid[winner] == 0:
        # The winner's whole prize in one row under another player: one finding on the
        # player it is under (schemas/money.md, step 3), not a prize "not won" and a
        # winner "paid 0.00" (a blind tester: two critical findings for one row). A part
        # of the prize paid elsewhere, or the winner paid some of it, keeps its findings.
        won = ("won" if by_rules is None or by_rules == money.winner
               else "is the rules' winner of")  # fmt: skip
        out[before:] = _under_another(
            game, out[before:], ("prize",), None, rule=POOL_RULE,
            words=lambda under, whose, amount: (
                f"The prize of {amount} is paid to {under}, but {whose} {won} game "
                f"{game.game_id} and is paid nothing: the prize row is under the wrong "
                "player."),
        )  # fmt: skip
    return out


def _entry_kinds(game: Game) -> tuple[str, ...]:
    """The ledger rows a game's entries are paid in: ``buy_in``, and ``rebuy`` in pool (a
    deals game's rebuy rows are ``foreign_rows``' one finding, not also its entries')."""
    return ("buy_in", "rebuy") if game.format in POOL_FORMATS else ("buy_in",)


Add = Callable[[str | None, Decimal, Decimal, str, Decimal], None]


def _entries_owed(
    game: Game, hands: list[Hand], void: Collection[int]
) -> dict[str, Mapping[str, int]]:
    """How many entries each player owes, by kind: a ``buy_in`` for each player seated, a
    ``rebuy`` for each rebuy game event counted (``counted_rebuys``)."""
    seated = {player for hand in hands for player in hand.seats}
    rebuys: dict[str, int] = defaultdict(int)
    for e in counted_rebuys(game, void):
        if e.player is not None:
            rebuys[e.player] += 1
    return {"buy_in": dict.fromkeys(seated, 1), "rebuy": rebuys}


def entries_short(
    game: Game, hands: list[Hand], fee: Decimal, void: Collection[int] = ()
) -> dict[str, Decimal]:
    """What each player's entry rows took less than their entries by the rules
    (``_entries_owed``, in the game's entry kinds), for each player whose rows are off:
    positive, what they still owe; negative, what they paid too much. The explain view's
    "Owed" line says it beside this check's finding on each of their rows."""
    due: dict[str, Decimal] = defaultdict(lambda: ZERO)
    owing = _entries_owed(game, hands, void)
    kinds = _entry_kinds(game)
    for kind in kinds:
        for player, times in owing[kind].items():
            due[player] += fee * times
    for row in game.ledger:
        if row.kind in kinds and row.player is not None:
            due[row.player] += row.amount
    return {player: amount for player, amount in sorted(due.items()) if amount}


def _entries_by_player(
    game: Game, hands: list[Hand], fee: Decimal, add: Add, void: Collection[int]
) -> None:
    """Each player's own entries (money.md: a ``buy_in`` of ``-entry_fee`` per player, a
    ``rebuy`` of ``-entry_fee`` per rebuy game event): one player charged too much and
    another too little is two wrong rows, though the total is right."""
    owing = _entries_owed(game, hands, void)
    for kind in _entry_kinds(game):
        owed = owing[kind]
        paid: dict[str | None, Decimal] = defaultdict(lambda: ZERO)
        for row in game.ledger:
            if row.kind == kind:
                paid[row.player] += -row.amount
        for player in sorted(set(owed) | set(paid), key=str):
            times = owed.get(player, 0) if player is not None else 0
            want = fee * times
            if paid[player] == want:
                continue
            who = "the platform" if player is None else player
            why = (
                f"entered the game once, so pays a buy_in of {fee}"
                if kind == "buy_in" and times
                else f"rebought {times} time{'s' if times != 1 else ''}, so pays {want} in rebuys"
                if kind == "rebuy" and times
                else f"has no {kind} to pay"
            )
            took = (f"the ledger took {paid[player]}" if paid[player] >= 0 else  # a sign
                    f"the ledger's {kind} rows pay them {-paid[player]} instead of taking it")
            add(player, -want, -paid[player], f"{who} {why}, but {took}.", want - paid[player])


FORMAT_KINDS = {
    "points": frozenset({"points_settlement", "rake", "refund"}),
    "deals": frozenset({"buy_in", "prize", "rake", "refund"}),
}
"""The ledger kinds each format has (money.md's table); pool formats have every kind but
``points_settlement``, ``split`` only when the game was split."""


def foreign_rows(game: Game, *, game_events: bool, split: bool = False) -> list[Row]:
    """``ledger.balance`` for each player's rows of a kind the game's format does not have
    (a points game's ``prize``, a pool game's ``points_settlement``), and for ``split`` rows
    of a game no ``split`` game event split (known only with the game_events table) and
    that the rules split (``split``: an automatic split owed, ``SplitOwed``) neither."""
    if game.format in FORMAT_KINDS:
        allowed = FORMAT_KINDS[game.format]
    elif game.format.startswith("pool"):
        split = split or any(e.action == "split" for e in game.game_events)
        allowed = frozenset({"buy_in", "rebuy", "prize", "rake", "refund"})
        if split or not game_events:
            allowed |= {"split"}
    else:
        return []
    moved: dict[tuple[str, str | None], Decimal] = defaultdict(lambda: ZERO)
    for row in game.ledger:
        if row.kind not in allowed:
            moved[row.kind, row.player] += row.amount
    out: list[Row] = []
    for (kind, player), amount in sorted(moved.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        why = (
            f"game {game.game_id} records no split (no split game event), so it has none"
            if kind == "split"
            else f"a {game.format.replace('_', ' ')} game has none"
        )
        found = finding(
            "ledger.balance",
            game_id=game.game_id,
            player_id=player,
            expected=f"no {kind} rows",
            recorded=f"{kind} {amount}",
            message=f"The ledger moved {amount} to {player or 'the platform'} in {kind} "
            f"rows, but {why}.",
            rule=BALANCE_RULE,
        )
        out.append((found, amount))
    return out
