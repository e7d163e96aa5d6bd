"""The money of one explained game: every ledger row, its balance, and each sum the rules
give (the entries, the rake, the prize or the split shares, the points settlements) with
how it is made and the rule behind it; and of one explained hand: each player's amount by
the rules, or why there is none (``hand_amount``, ``settled_by_rules``).

The sums come from the game checks' own arithmetic (``audit.games.prize.prize_pool`` and
``points_owed``, ``audit.games.split.split_shares``, ``audit.money.rake``); where the checks
do not judge the money (a running game, a game not all of whose hands could be read, a
called-off game: ``records.called_off`` ...) the view says so instead, with the same
readings as ``audit.unit.game_checks``; the refund rows of a game played to its end are
said in the words of their ``ledger.balance`` findings (``ledger.refunds``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from audit.explain.handmoney import ZERO, amount_of
from audit.explain.ledgerview import KIND_WORDS, LedgerLine, LedgerView, Payout
from audit.explain.pointspayouts import points_payouts
from audit.explain.standing import in_seat_order, left_out
from audit.explain.terms import by_row_rake, counted_read, rake_taker
from audit.explain.verdicts import RulesWinner
from audit.findings import Finding, worst_name
from audit.games.deals import deals_winner
from audit.games.gamerow import rake_moved, readings, settled_at
from audit.games.ledger import (
    POOL_RULE,
    PointsOwed,
    entries_short,
    refunds,
)
from audit.games.pool import judge_pool
from audit.games.poolstate import PoolJudgement, Standing
from audit.games.poolwords import read_new_scores
from audit.games.prize import PrizePool, paid_out, prize_pool
from audit.games.split import (
    UNDER_ANOTHER,
    equal_words,
    spare_paise_elsewhere,
    spare_paise_to,
    split_paid,
    split_shares,
    unmet_needs,
)
from audit.money import rake as rake_of
from audit.records import (
    POOL_FORMATS,
    Game,
    GameEvent,
    Hand,
    LedgerRow,
    and_words,
    called_off,
    hand_ended,
)
from audit.rules.ruleset import PoolRules, Ruleset
from audit.unit import UnitAudit, incomplete, money_unchecked, split_owed


def events_after(game: Game) -> dict[int, list[GameEvent]]:
    """The game's events by the hand number they follow, in seq order."""
    out: dict[int, list[GameEvent]] = defaultdict(list)
    for e in game.game_events:
        out[e.after_hand_no].append(e)
    return out


def _sum(rows: Iterable[LedgerRow], *kinds: str) -> Decimal:
    return sum((r.amount for r in rows if r.kind in kinds), ZERO)


def ledger_view(
    unit: UnitAudit,
    game: Game,
    rules: Ruleset | None,
    missing: frozenset[str],
    damaged: Mapping[str, Sequence[str]],
    against: RulesWinner | None = None,
) -> LedgerView:
    """The game's ledger; ``against``: the rules' word on a recorded winner they refuse
    (``verdicts.rules_winner``), which the prize is said with."""
    rows = game.ledger
    lines = tuple(LedgerLine(KIND_WORDS.get(r.kind, r.kind), r.player or "", str(r.amount))
                  for r in rows)  # fmt: skip
    paid_in = -sum((r.amount for r in rows if r.amount < 0), ZERO)
    paid_out = sum((r.amount for r in rows if r.amount > 0), ZERO)
    notes, payouts = _payouts(unit, game, rules, missing, damaged, against)
    money_checks = ("ledger.balance", "pool.split")
    read = counted_read(game, unit.findings) if payouts else ""
    if read:
        said = readings(unit.findings)
        value, cut = said.get("point_value"), said.get("rake_pct")
        by_row, terms = None, ""
        if value is not None and value.recorded:
            by_row, terms = settled_at(unit, Decimal(value.recorded)), f"{value.recorded} a point"
        elif cut is not None and cut.recorded:
            # the row's own rake, each winner's (a blind tester: the winner paid short by a
            # rake read otherwise was named nowhere)
            by_row = by_row_rake(unit, game, payouts, Decimal(cut.recorded))
            terms = f"rake of {cut.recorded}%"
        payouts = tuple(_as_read(p, read, unit, said, by_row, terms) for p in payouts)
    counted = and_words([*refused_rebuys(game, unit.findings), *filter(None, [read])]) \
        if payouts else ""
    return LedgerView(
        lines=lines,
        paid_in=str(paid_in + ZERO),
        paid_out=str(paid_out + ZERO),
        net=str(paid_out - paid_in + ZERO),
        payouts=payouts,
        notes=notes,
        worst=worst_name(f for f in unit.findings if f.check in money_checks),
        counted_as_recorded=counted,
    )


def _as_read(
    p: Payout,
    read: str,
    unit: UnitAudit,
    found: Mapping[str, Finding],
    by_row: PointsOwed | None,
    terms: str = "",
) -> Payout:
    """A sum of a game whose games row the audit read otherwise (``terms.counted_read``;
    ``found``, its readings by column, ``gamerow.readings``): every sum but the entries
    rests on the value read, so it is said counted as recorded, the rake with what the
    row's own rake would have moved (``gamerow.rake_moved``), and a points settlement or
    rake with what the row's own point value or rake gives (``by_row``, at ``terms``,
    ``gamerow.settled_at``, worked out once a game: a blind tester read "4.32 by the rules,
    4.32 recorded: agrees" of a settlement the games row prices at 43.20)."""
    if p.what == "entry fees":
        return p
    counted = and_words([*filter(None, [p.counted]), read])
    if by_row is not None and terms and p.what in ("points settlement", "prize", "rake"):
        gives = by_row.won.get(p.player, ZERO) if p.player else by_row.rake
        p = replace(p, by_row=str(gives), row_terms=terms)
    said = found.get("rake_pct")
    if p.what != "rake" or said is None or said.recorded is None:
        return replace(p, counted=counted)
    moved = rake_moved(unit, Decimal(said.recorded)).strip()
    taker = rake_taker(unit.game) if unit.game is not None else "the ledger"
    how = (f"{p.how}: the rake {taker} took, not the games row's {said.recorded}% (the "
           f"{said.check} finding on the games row)")
    if moved:
        how += f"; {moved[0].lower()}{moved[1:].removesuffix('.')}"
    return replace(p, counted=counted, how=how)


def _payouts(
    unit: UnitAudit,
    game: Game,
    rules: Ruleset | None,
    missing: frozenset[str],
    damaged: Mapping[str, Sequence[str]],
    against: RulesWinner | None = None,
) -> tuple[tuple[str, ...], tuple[Payout, ...]]:
    """What the rules give, where the ledger checks judge it; else why not (the same
    readings as ``audit.unit.game_checks`` and ``audit.games.ledger.check_ledger``)."""
    hands = [item.hand for item in unit.hands]
    if "ledger" in missing:
        return ("The log root has no ledger table, so the game's money was not checked.",), ()
    if not game.ledger:
        lost = damaged.get("ledger")
        why = f" ({', '.join(lost)} could not be read)" if lost else ""
        return (f"No ledger row names this game{why}, so its money was not checked.",), ()
    balance = "The rows must add up to zero: all the players pay in is paid out, rake included."
    if game.running:
        return (
            balance,
            "The game was still running when the logs were cut: its prize and final balance "
            "wait for the batch where it ends.",
        ), ()
    if rules is None:
        return (balance, "The game's rules cannot be used, so its money was not checked."), ()
    if money_unchecked(unit.findings) is not None:
        # Its sums would rest on what is not all here: none is the rules'.
        return (balance, "The game's money was not checked (its game.unchecked finding says "
                "why), so no sum is shown as the rules'."), ()  # fmt: skip
    gaps = incomplete(game, hands, damaged.get("hands", ()))
    if gaps:
        return (balance, f"Only the ledger's own balance is checked: not all the game's "
                f"hands could be judged ({gaps[0]}).",), ()  # fmt: skip
    said = unit.rules_say()
    if called_off(game, hands, said):
        unended = next((h for h in hands if not hand_ended(h, said.get(h.hand_id))), None)
        end = (
            f"hand {unended.hand_no} did not end"
            if game.format == "points" and unended is not None
            else "no game_won or split event records its end"
        )
        return (balance, f"The game was called off (refund rows, and {end}): only its "
                "balance is checked."), ()  # fmt: skip
    notes, payouts = _format_payouts(unit, hands, game, rules, missing, damaged, balance,
                                     against)  # fmt: skip
    # A game played to its end pays no refund: each refund row is its ledger.balance
    # finding, said here in its words (a refund of 0.00 would show as "agrees" as a sum).
    return notes + tuple(f.message for f, _ in refunds(game, hands, said)), payouts


def _format_payouts(
    unit: UnitAudit,
    hands: list[Hand],
    game: Game,
    rules: Ruleset,
    missing: frozenset[str],
    damaged: Mapping[str, Sequence[str]],
    balance: str,
    against: RulesWinner | None = None,
) -> tuple[tuple[str, ...], tuple[Payout, ...]]:
    """The payouts of a game the ledger checks judge in full, by its format."""
    if game.format == "points":
        return (balance,), points_payouts(hands, game, rules, unit.rules_say())
    if game.entry_fee is None:
        return (balance, "The game records no entry fee, so its entries and prize were "
                "not checked."), ()  # fmt: skip
    events_lost = bool(damaged.get("game_events")) and not game.game_events
    if "game_events" in missing or events_lost:
        return (balance, "Without the game events (where rebuys and the winner are "
                "recorded) the entries and the prize were not checked."), ()  # fmt: skip
    if not hands:
        return (balance,), ()
    return (balance,), _pool_payouts(unit, hands, game, rules, game.entry_fee, against)


def _pool_payouts(
    unit: UnitAudit,
    hands: list[Hand],
    game: Game,
    rules: Ruleset,
    fee: Decimal,
    against: RulesWinner | None = None,
) -> tuple[Payout, ...]:
    """Entries, rake and the prize (``prize.prize_pool``), or the split shares. The prize
    goes to the rules' winner where the pool check knows one (``check_ledger``'s reading)."""
    judged = judge_pool(game, hands, rules, expected=unit.rules_say())
    game = judged.with_rebuys(game)  # a rebuy with no rebuy row counts, as the checks count it
    money = prize_pool(game, hands, fee, judged.void_rebuys)
    entries = f"{money.players} player{'s' if money.players != 1 else ''}"
    if game.format in POOL_FORMATS:
        entries += f" and {money.rebuys} rebuy{'s' if money.rebuys != 1 else ''}"
    entries += f" at {fee}"
    stray = [e for e in game.game_events if e.action == "rebuy"]
    if game.format not in POOL_FORMATS and stray:
        # none counted (prize.counted_rebuys): said, not "3 players and 1 rebuy"
        what = "the rebuy recorded is" if len(stray) == 1 else f"the {len(stray)} recorded are"
        entries += f"; a {game.format} game has no rebuys, so {what} not counted"
    again = {f.seq for f in unit.findings if f.check == "pool.rebuy" and f.seq is not None
             and repeats(f, "rebuy")}  # fmt: skip
    void = rebuy_words(e for e in game.game_events
                       if e.action == "rebuy" and e.seq in set(judged.void_rebuys) - again)
    entries += _repeated_rebuys(game, judged.void_rebuys, again, fee)
    if void:
        # a rebuy of a player still in is no rebuy (prize.counted_rebuys): not counted
        entries += (f"; {and_words(void)} {'is' if len(void) == 1 else 'are'} not counted: "
                    "by the rules the player was not eliminated in that hand, so had no "
                    "rebuy to make (the pool.rebuy finding)")  # fmt: skip
    if judged.unwritten:
        # audit/games/rebuyrow.py: said, not a bare count of rebuys no event records
        lacking = and_words([f"{e.player}'s rebuy after hand {e.after_hand_no}"
                             for e in judged.unwritten])  # fmt: skip
        entries += (f"; {lacking} {'has' if len(judged.unwritten) == 1 else 'have'} no rebuy "
                    "event (the pool.elimination finding) and counts as the ledger's rebuy "
                    "row says")  # fmt: skip
    refusals = refused_events(game, unit.findings)
    refused = rebuy_words(refusals)
    if refused:
        # every other rebuy row counts, one the rules refuse included
        # (prize.counted_rebuys): said so, not a bare "agrees" beside its pool.rebuy
        # finding (a blind tester)
        entries += (f"; the rules do not allow {and_words(refused)} (the pool.rebuy "
                    "finding), but the entries count every rebuy of a player who was out, as "
                    "the game's checks do")  # fmt: skip
    out = [
        Payout("entry fees", "", str(money.gross), str(ZERO - _sum(game.ledger, "buy_in", "rebuy")),
               entries, (POOL_RULE,), counted=and_words(refused),
               short=tuple(entries_short(game, hands, fee, judged.void_rebuys).items())),
        Payout("rake", "", str(money.rake), str(_sum(game.ledger, "rake")),
               f"{game.rake_pct}% of {money.gross}, rounded half-up to the paisa", (POOL_RULE,),
               counted=and_words(refused)),
    ]  # fmt: skip
    due = owed_split(judged, game, hands, unit.findings, rules)
    if due is not None:  # its split rows are the shares it owes, not a split recorded
        return tuple(out) + _owed_split_payouts(due, money, game, rules, fee)
    if any(r.kind == "split" for r in game.ledger):
        return tuple(out) + _split_payouts(unit, judged, hands, game, rules, fee)
    paid: dict[str | None, Decimal] = defaultdict(lambda: ZERO)
    for row in game.ledger:
        if row.kind == "prize":
            paid[row.player] += row.amount
    # The rules' winner, whom the ledger check pays the prize (``unit.game_checks``): the
    # last player left of a pool game, the one with the most chips of a deals game.
    by_rules = judged.winner if game.format in POOL_FORMATS else deals_winner(
        game, hands, rules, expected=unit.rules_say())  # fmt: skip
    # The rules know no winner, or the pool check's one player left is the recorded winner
    # only because a refused elimination dealt another out (``standing.still_in``): the
    # ledger is judged against the recorded winner, not a winner by the rules.
    no_winner = by_rules is None or (against is not None and not against.winner
                                     and by_rules == money.winner)  # fmt: skip
    if against is not None and no_winner and money.winner is not None:
        return tuple(out) + _recorded_prize(money, paid, against)
    if against is not None and no_winner and not against.winner and paid and (
            against.check == "deals.chips"):
        # the rules' game is not over (a tied deals game owes one more deal) and no winner is
        # recorded: no prize is due by the rules yet, and the ledger check judges none of its
        # prize rows (a blind tester's split of a tie read "W009 was paid 4.81 too much" in
        # explain, beside findings with no money finding)
        return tuple(out) + tuple(
            Payout("prize", player or "", str(ZERO), str(paid[player]),
                   f"{against.words}; no prize is due by the rules until it has one, and the "
                   f"ledger's prize rows are not judged ({against.see('the game-level findings')})",
                   (POOL_RULE,), judged=str(paid[player]))
            for player in sorted(paid, key=str))  # fmt: skip
    winner = by_rules or money.winner
    # The winner's prize in a row under another player: the ledger check's one finding on
    # that player (``ledger._under_another``), said on both lines, as the finding names both.
    under = next((f.player_id for f in unit.findings if f.check == "ledger.balance"
                  and f.rule == POOL_RULE and f.expected == winner and winner is not None
                  and f.recorded == f.player_id), None)  # fmt: skip
    if winner is not None:
        who = "who won the game"
        if by_rules is not None and by_rules != money.winner:
            named = money.winner or "nobody"
            rules_say = ("the last player left by the rules" if game.format in POOL_FORMATS
                         else "the player with the most chips by the rules")  # fmt: skip
            who = f"{rules_say} (the game is recorded as won by {named})"
        if under is not None:
            who += f"; the ledger's prize row is under {under} (one ledger.balance finding)"
        back = [e.after_hand_no for e in refusals if e.player == winner]
        if back:  # in the game only by a rebuy the rules refuse (a blind tester read "agrees")
            who += (f", in it only by a rebuy the rules do not allow (the pool.rebuy finding): "
                    f"by the rules {winner} was out after hand {back[0]}, and the prize is "
                    "theirs only as recorded")  # fmt: skip
        out.append(
            Payout("prize", winner, str(money.prize), str(paid[winner]),
                   f"{money.gross} of entry fees less {money.rake} of rake, to {winner}, "
                   + who, (POOL_RULE,), counted=and_words(refused))
        )  # fmt: skip
    for player in sorted((p for p in paid if p != winner), key=str):
        why = (f": the prize row under {player} is {winner}'s prize" if player == under
               else "" if winner else " (no single winner is recorded)")  # fmt: skip
        out.append(
            Payout("prize", player or "", str(ZERO), str(paid[player]),
                   f"{player or 'nobody'} did not win the game" + why, (POOL_RULE,))
        )  # fmt: skip
    return tuple(out)


@dataclass(frozen=True)
class OwedSplit:
    """An automatic split the rules owed where the record has none: after hand ``after``
    every player left (``players``, in seat order, with ``scores`` by the rules) stood
    above ``above``, so the game ended there in equal shares (its ``pool.split``
    ``finding``: "the prize should have been split automatically")."""

    after: int
    players: tuple[str, ...]
    scores: Mapping[str, int]
    rebuys: int
    above: int
    finding: Finding

    @property
    def why(self) -> str:
        """``every player left after hand 4 (P1 98 and P2 100) stood above 80, so the
        prize is split automatically between them: the game has no single winner``."""
        left = and_words([f"{p} {self.scores.get(p, 0)}" for p in self.players])
        return (f"every player left after hand {self.after} ({left}) stood above {self.above}, "
                "so the prize is split automatically between them: the game has no single "
                "winner")  # fmt: skip

    @property
    def against(self) -> RulesWinner:
        """The rules' word on the recorded winner: none, the prize being split."""
        return RulesWinner("", self.why, (self.finding,))


def owed_split(
    judged: PoolJudgement,
    game: Game,
    hands: Sequence[Hand],
    findings: Sequence[Finding],
    rules: Ruleset,
) -> OwedSplit | None:
    """The automatic split the rules owed a pool game that records none, as the ledger check
    reads it (``unit.split_owed``), with the players left then and their scores by the rules
    (``judged``'s table) and its ``pool.split`` finding; ``None`` when there is none, or the
    record splits the game (its split is judged as recorded)."""
    pool = rules.pools.get(game.format)
    owed = split_owed(game, judged)
    if pool is None or owed is None or not hands:
        return None
    hand = next((h.hand_id for h in hands if h.hand_no == owed.after), None)
    said = next((f for f in findings if f.check == "pool.split" and f.hand_id == hand
                 and f.expected == "auto split"), None)  # fmt: skip
    if said is None:
        return None
    standing = judged.standings[owed.after]
    return OwedSplit(owed.after, tuple(in_seat_order(hands, owed.players)), standing.scores,
                     standing.rebuys, pool.auto_split_above, said)  # fmt: skip


def _owed_split_payouts(
    due: OwedSplit, money: PrizePool, game: Game, rules: Ruleset, fee: Decimal
) -> tuple[Payout, ...]:
    """Each player's share of the automatic split the rules owed (``owed_split``) against
    what the ledger paid them, in ``prize`` and ``split`` rows together, as the ledger check
    judges it (``prize.owed_shares``): the game ended there by the rules, so nobody is owed
    a prize, and the shares are compared ("agrees", "differs"), the Owed line saying who is
    owed what. Until 2026-12-06 the ledger was judged against the winner the record played
    on to, so the shares were "not compared" and the others' shares owed said nowhere, and
    a ledger that paid the shares had no sum here at all (blind testers). The shares are of
    every entry the game counts (``prize_pool``): a rebuy after the split was due is one the
    rules refuse, counted as recorded (its ``pool.rebuy`` finding)."""
    pool = rules.pools[game.format]
    entries = money.players + money.rebuys
    shares, how, cite = _shares("auto", due.players, due.scores, pool, game, rules, fee, entries,
                                 due.after)
    late = money.rebuys - due.rebuys
    if late > 0:
        how += (f"; the {late} rebuy{'s' if late != 1 else ''} after hand {due.after} "
                f"{'is' if late == 1 else 'are'} counted as recorded (the pool.rebuy finding)")
    paid, kinds = paid_out(game)
    out = []
    for player in [*due.players, *sorted(p for p in paid if p not in shares)]:
        got = paid.get(player, ZERO)
        if player in shares:
            words = (f"score {due.scores.get(player, 0)}: {how}, the game ending there by the "
                     f"rules (the pool.split finding), so no prize is due")  # fmt: skip
        else:
            words = (f"{player} was not among the players left after hand {due.after}, whom "
                     "the split the rules owed pays")  # fmt: skip
        if "prize" in kinds.get(player, ()):
            words += f"; the ledger pays {player} a prize"
        if got != shares.get(player, ZERO):
            words += " (see the ledger.balance finding)"
        out.append(
            Payout("split share", player, str(shares.get(player, ZERO)), str(got), words,
                   cite)
        )  # fmt: skip
    return tuple(out)


def repeats(f: Finding | None, action: str) -> bool:
    """Whether ``f`` is the finding on an ``action`` row (``rebuy``, ``eliminated``) written
    again after the same hand (``audit.games.pool``'s ``once``): the first row counts, and
    the repeat is void, no second rebuy or elimination. It is not a rebuy the rules refuse
    (a blind tester's agent read "by the rules a rebuy needs one rebuy event: it is not
    allowed" of a rebuy that was allowed and counted)."""
    return f is not None and f.expected == f"one {action} event"


def _repeated_rebuys(
    game: Game, void: Collection[int], again: Collection[int], fee: Decimal
) -> str:
    """A rebuy row written again after the same hand (its ``pool.rebuy`` finding expects
    ``one rebuy event``), in words: the first row is the rebuy and counts once, the repeat
    is void (``PoolJudgement.void_rebuys``), and what the ledger took beyond the rebuys
    counted is owed back to the player (a blind tester's agent read "the player was not
    eliminated in that hand, so had no rebuy to make" of a player out at 143 whose one
    rebuy was allowed and counted, and nothing of the second fee the ledger took)."""
    words = ""
    repeated = [e for e in game.game_events if e.action == "rebuy" and e.seq in again]
    for player in dict.fromkeys(e.player for e in repeated):
        rows = [e for e in repeated if e.player == player]
        hands = and_words(sorted({f"hand {e.after_hand_no}" for e in rows}))
        seqs = and_words([str(e.seq) for e in rows])
        event = "game event" if len(rows) == 1 else "game events"
        words += (f"; {player}'s rebuy after {hands} is written again ({event} {seqs}): "
                  "counted once, the repeat is void (the pool.rebuy finding)")  # fmt: skip
        counted = sum(1 for e in game.game_events if e.action == "rebuy"
                      and e.player == player and e.seq not in void)  # fmt: skip
        took = ZERO - _sum([r for r in game.ledger if r.player == player], "rebuy")
        over = took - fee * counted
        if over > 0:
            words += (f"; the ledger took {took} in rebuys from {player}, for "
                      f"{counted} rebuy{'s' if counted != 1 else ''} at {fee}: the other {over} "
                      f"is owed back to {player} (the ledger.balance finding)")  # fmt: skip
    return words


def rebuy_words(events: Iterable[GameEvent]) -> tuple[str, ...]:
    """``Y's rebuy after hand 2`` for each rebuy event."""
    return tuple(f"{e.player}'s rebuy after hand {e.after_hand_no}" for e in events)


def refused_rebuys(game: Game, findings: Sequence[Finding]) -> tuple[str, ...]:
    """``Y's rebuy after hand 2`` for each of ``refused_events``."""
    return rebuy_words(refused_events(game, findings))


def refused_events(game: Game, findings: Sequence[Finding]) -> list[GameEvent]:
    """Each rebuy event of a pool game the rules do not allow (its
    ``pool.rebuy`` finding expects what it lacked): the game's checks count it as recorded
    (``prize.counted_rebuys``); a rebuy at the wrong new score is allowed, one of a player
    still in (expected ``no rebuy``) is counted nowhere, a rebuy row written again
    (expected ``one rebuy event``) is a void repeat of a rebuy counted once, and rebuys
    given their new scores in another order (expected each one's) are allowed."""
    if game.format not in POOL_FORMATS:
        return []
    refused = {f.seq for f in findings if f.check == "pool.rebuy" and f.seq is not None
               and f.expected != "no rebuy" and not repeats(f, "rebuy")
               and not (f.expected or "").lstrip("-").isdigit()
               and not read_new_scores(f.expected)}  # fmt: skip
    return [e for e in game.game_events if e.action == "rebuy" and e.seq in refused]


def _recorded_prize(
    money: PrizePool, paid: Mapping[str | None, Decimal], against: RulesWinner
) -> tuple[Payout, ...]:
    """The prize of a finished game whose recorded winner the rules refuse, where the pool
    check knows no winner to judge the ledger against (a deals game; a pool game with
    players still in by the rules): the ledger is judged against the recorded winner
    (schemas/money.md step 4), so its prize is "not compared" with the rules', and only a
    ledger finding makes it "differs" (a blind tester read "A's prize: 39.37 by the rules
    ... agrees" beside a deals.chips finding that B wins, and "Z's prize: 0.00 by the rules,
    270.00 recorded: differs" with no money finding)."""
    named = money.winner or ""
    fees = f"{money.gross} of entry fees less {money.rake} of rake"
    wrong = against.see("the game-level findings")
    if paid.get(named, ZERO) == money.prize:
        ledger = (f"the ledger is checked against the recorded winner and pays {named} the prize "
                  f"in full: what is wrong is the winner ({wrong}), not the money")  # fmt: skip
    else:
        ledger = (f"the ledger is checked against the recorded winner, who should be paid "
                  f"{money.prize} (see the ledger.balance finding)")  # fmt: skip
    due = "" if against.winner else " and no prize is due"
    out = [
        Payout("prize", named, str(ZERO), str(paid.get(named, ZERO)),
               f"{named} is the recorded winner, but {against.words}{due}; {ledger}",
               (POOL_RULE,), judged=str(money.prize))
    ]  # fmt: skip
    if against.winner in paid or " or " in against.winner or not against.winner:
        rightful = ""
    else:
        rightful = against.winner
        out.append(
            Payout("prize", rightful, str(money.prize), str(ZERO),
                   f"{fees}, to {rightful}, the winner by the rules; the ledger is checked "
                   f"against the recorded winner, {named}, so that {rightful} was not paid is "
                   f"the {against.check or 'winner'} finding, not a money finding", (POOL_RULE,),
                   judged=str(ZERO))
        )  # fmt: skip
    for player in sorted((p for p in paid if p != named), key=str):
        by_rules = money.prize if player == against.winner else ZERO
        out.append(
            Payout("prize", player or "", str(by_rules), str(paid[player]),
                   f"{player or 'nobody'} is not the recorded winner, {named}, whom the ledger "
                   "is checked against (see the ledger.balance finding)", (POOL_RULE,),
                   judged=str(ZERO))
        )  # fmt: skip
    return tuple(out)


@dataclass(frozen=True)
class SplitByRules:
    """A pool split the record makes, as the rules see it: the hand it follows (``after``),
    its ``kind`` by the rules, the table then (``standing``), the players left by the rules
    (``players``, in seat order, ``missed`` among them: those the record put out whom the
    rules keep in, ``left_out``), and why the rules make no such split of them
    (``refused``, ``_not_split``'s words; empty when they make it)."""

    after: int
    kind: str
    standing: Standing
    players: tuple[str, ...]
    missed: tuple[str, ...]
    refused: str

    @property
    def result(self) -> str:
        """The game's result where the rules refuse the split (``GameView.result``): the
        record's split, with why the rules make none (a blind tester read "the prize was
        split by agreement after hand 2" as fact beside a pool.split finding that a manual
        split needs every score at 61 or more)."""
        how = "by agreement" if self.kind == "manual" else "automatically"
        checks = ["pool.elimination"] if self.missed else []
        return (f"recorded as split {how} after hand {self.after}, though the rules do not "
                f"allow that split: {self.refused}, so by the rules the game goes on "
                f"({and_words([*checks, 'pool.split'])}, see the findings)")


def split_by_rules(
    unit: UnitAudit, judged: PoolJudgement, hands: Sequence[Hand], game: Game, rules: Ruleset
) -> SplitByRules | None:
    """The record's split of a pool game as the rules see it (``SplitByRules``); ``None``
    where the game records no split or the pool check has no table after its hand."""
    split = next((e for e in game.game_events if e.action == "split"), None)
    pool = rules.pools.get(game.format)
    if split is None or pool is None or not hands:
        return None
    no = split.after_hand_no
    standing = judged.standings.get(no)
    if standing is None or not standing.active:
        return None
    kind = judged.split_kind or split.split_kind or "auto"
    missed = left_out(unit.findings, hands, no, standing, pool.is_eliminated)
    players = in_seat_order(hands, (*standing.active, *missed))
    refused = _not_split(kind, players, standing.scores, pool, no, game)
    return SplitByRules(no, kind, standing, tuple(players), missed, refused)


def _split_payouts(
    unit: UnitAudit,
    judged: PoolJudgement,
    hands: list[Hand],
    game: Game,
    rules: Ruleset,
    fee: Decimal,
) -> tuple[Payout, ...]:
    """The shares of a pool split (``split.split_shares``) of the split's kind by the rules
    (``judged``): the players still in after the split's hand, with their scores then, in
    the seat order of hand 1. A ``pool.split`` finding's expected share is the pool check's
    own word and is shown where it names a player. The split's checks count the record's
    split of the record's players: where the rules keep in a player the record put out
    (``left_out``), the shares are said as the rules give them with that player, and "not
    compared" (a blind tester read "B's split share ... agrees" with a player still in by
    the rules left out of it); where the rules make no such split (``_not_split``: a split
    by agreement below its criteria, or not accepted by all), each share is "none" by the
    rules, with why, and "not compared" (a blind tester read "113.33 by the rules ...
    agrees" of a manual split the rules forbid), the split's checks judging none of a split
    by agreement's shares then (split.manual_findings)."""
    reading = split_by_rules(unit, judged, hands, game, rules)
    pool = rules.pools.get(game.format)
    if reading is None or pool is None:
        return ()
    no, kind, standing = reading.after, reading.kind, reading.standing
    players, missed, not_split = list(reading.players), reading.missed, reading.refused
    scores, rebuys = standing.scores, standing.rebuys
    entries = len(hands[0].seats) + rebuys
    seated = in_seat_order(hands, standing.active)
    owed, how, cite = _shares(kind, seated, scores, pool, game, rules, fee, entries)
    paid = split_paid(game)
    # a share a pool.split finding names; its "split_accept" of a player who never accepted
    # (or rejected) is no share (a blind tester: explain stopped on Decimal("split_accept"))
    said = {f.player_id: f.expected for f in unit.findings if f.check == "pool.split"
            and f.player_id and amount_of(f.expected) is not None}  # fmt: skip
    given = dict(paid)
    def owed_in(order: list[str]) -> dict[str, Decimal]:
        return _shares(kind, [p for p in order if p in owed], scores, pool, game, rules, fee,
                       entries)[0]  # fmt: skip

    if spare_paise_elsewhere(owed, given, list(seated), owed_in):
        # the seeds are silent on who gets the leftover paise: the record's choice is the
        # rules' too, as the split's check reads it (split.spare_paise_elsewhere)
        more = and_words(spare_paise_to(owed, given, list(seated), owed_in))
        how = _shares(kind, seated, scores, pool, game, rules, fee, entries, spare_to=more)[1]
        owed = given
    with_them, how_with = _shares(kind, players, scores, pool, game, rules, fee, entries)[:2]
    # A share's row under another player: the split check's one ledger.balance finding
    # on that player (``split.moved_share``), said on both lines, as the finding names both.
    moved = next(((f.player_id, f.expected) for f in unit.findings
                  if f.check == "ledger.balance" and f.message.endswith(UNDER_ANOTHER)), None)
    out = []
    for player in [*players, *sorted(set(paid) - set(players))]:
        want = said.get(player) or str(owed.get(player, ZERO))
        score = f"score {scores[player]}" if player in scores and player in players else ""
        if score and kind == "manual":
            drops = pool.first_drops_left(scores[player])
            score += f", {drops} first drop{'s' if drops != 1 else ''} left"
        score += ": " if score else ""
        mine = f"give {player} {want}" if player in owed else f"give {player} nothing"
        if not missed and not not_split:
            words = score + how if player in owed else f"{player} was not in the game at " \
                "the split" if player in hands[0].seats else f"{player} never sat at the table"
            if moved is not None and player in moved:
                words += (f": the split row under {player} is {moved[1]}'s share"
                          if player == moved[0] else f"; the ledger pays it in a split row "
                          f"under {moved[0]} (one ledger.balance finding)")  # fmt: skip
            out.append(Payout("split share", player, want, str(paid.get(player, ZERO)),
                              words, cite))  # fmt: skip
            continue
        if not missed:
            # A split by agreement the rules do not make has no share judged (split.py's
            # manual_findings); an automatic one not due is judged at its equal shares.
            checks = ("judge none of its shares" if kind == "manual" else
                      f"count the split as recorded, {how}, and {mine}")  # fmt: skip
            words = (f"{score}by the rules {not_split}, so the game is not split after hand "
                     f"{no} and goes on: no share is due. The split's checks {checks}: what "
                     "differs from the rules is the split itself (the pool.split finding), not "
                     "a money finding of its shares")  # fmt: skip
            against = str(paid.get(player, ZERO)) if kind == "manual" else (
                want if player in owed else str(ZERO))  # fmt: skip
            out.append(Payout("split share", player, "none", str(paid.get(player, ZERO)),
                              words, cite, judged=against))  # fmt: skip
            continue
        record = and_words(seated)
        whose = and_words(missed)
        elimination = f"the pool.elimination finding on {whose}"
        still = (f"by the rules {whose} {'is' if len(missed) == 1 else 'are'} still in "
                 f"after hand {no} ({elimination}), so the players left are "
                 f"{and_words(players)}")  # fmt: skip
        if not not_split:
            rules_give = str(with_them.get(player, ZERO))
            words = f"{score}{how_with}; {still}" if player in with_them else (
                f"{player} was not in the game at the split; {still}")  # fmt: skip
        else:
            rules_give = "none"
            words = f"{still}: {not_split}, so by the rules the game is not split and no " \
                "share is due"
            if kind == "manual":
                words += " (had every player left accepted it, the shares would be " + \
                    and_words([f"{p} {with_them[p]}" for p in players]) + ")"
        words += (f". The split's checks count the players the record has in, {record}, and "
                  f"{mine}: what differs from the rules is who is in ({elimination}), not a "
                  "money finding of the split")  # fmt: skip
        out.append(Payout("split share", player, rules_give, str(paid.get(player, ZERO)),
                          words, cite, judged=want if player in owed else str(ZERO)))  # fmt: skip
    return tuple(out)


def _shares(
    kind: str,
    seated: Sequence[str],
    scores: Mapping[str, int],
    pool: PoolRules,
    game: Game,
    rules: Ruleset,
    fee: Decimal,
    entries: int,
    after: int = 0,
    spare_to: str = "",
) -> tuple[dict[str, Decimal], str, tuple[str, ...]]:
    """Each player's share of a split of ``kind`` among ``seated`` (in seat order), how it
    is made (``after``: the hand it follows, said of an automatic split the rules owed;
    ``spare_to``: who the record gave the leftover paise, ``split.equal_words``), and the
    rule behind it."""
    shares = split_shares(
        kind=kind,
        scores=[scores.get(p, 0) for p in seated],
        pool=pool,
        entry_fee=fee,
        entries=entries,
        rake_pct=game.rake_pct,
    )
    pot = fee * entries
    prize = pot - rake_of(pot, game.rake_pct)
    key = (
        f"{game.format}.auto_split_above"
        if kind != "manual"
        else f"{game.format}.manual_split_shares"
    )
    cite = (rules.cite(key),) if key in rules.rules else ()
    # the entries say where the prize comes from, beside it (a blind tester read them as
    # the shares' when they ended the sentence)
    when = f" after hand {after}" if after else ""
    of = f"of the prize of {prize} ({entries} entries at {fee} less the rake)"
    if kind == "manual":
        per_drop = fee - rake_of(fee, game.rake_pct)
        drops = [pool.first_drops_left(scores.get(p, 0)) for p in seated]
        extra = sum(d - min(drops) for d in drops)
        how = (
            f"a split by agreement{when} {of}: each player's extra first drops (theirs less "
            f"the fewest) at {per_drop}, {extra * per_drop} in all, the rest, "
            f"{equal_words(prize - extra * per_drop, len(seated), spare_to)}"
        )
    else:
        how = f"an automatic split{when} {of}: {equal_words(prize, len(seated), spare_to)}"
    return dict(zip(seated, shares, strict=True)), how, cite


def _not_split(
    kind: str,
    players: Sequence[str],
    scores: Mapping[str, int],
    pool: PoolRules,
    after: int,
    game: Game,
) -> str:
    """Why the rules make no split of ``kind`` after hand ``after`` among ``players`` (the
    players left by the rules); empty when they do. An auto split needs every player left
    above ``auto_split_above``; a manual split its criteria (``split.unmet_needs``) and
    every player's acceptance, the offer counting as the offerer's (docs/replay.md)."""
    if kind != "manual":
        low = [p for p in players if scores.get(p, 0) <= pool.auto_split_above]
        if not low:
            return ""
        return (f"an automatic split needs every player left above {pool.auto_split_above}, "
                f"and {and_words([f'{p} has {scores.get(p, 0)}' for p in low])}")  # fmt: skip
    unmet = unmet_needs(pool, list(players), [scores.get(p, 0) for p in players])
    if unmet is not None:
        return f"a split by agreement needs {unmet[1]}"
    events = [e for e in game.game_events if e.after_hand_no == after]
    accepted = {e.player for e in events if e.action in ("split_accept", "split_offer")}
    rejected = {e.player for e in events if e.action == "split_reject"}
    short = [p for p in players if p not in accepted or p in rejected]
    if short:
        return (f"a split by agreement needs every player left to accept it, and "
                f"{and_words(short)} did not")  # fmt: skip
    return ""
