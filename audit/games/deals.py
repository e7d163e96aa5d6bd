"""Deals rummy (best of 2, best of 3): the chips each deal moves and who wins the game.

000_1729c72ad4c1f885.txt names the format ("Best of 2 / Best of 3", rounds played on one
table, "No Drop is allowed") and says chips are "deducted and credited ... with respect to
the player's wins and losses". The readings this module applies (docs/replay.md, "Money"):

- in each deal every loser's ``results.amount`` is ``-points`` and the winner's is ``+``
  the sum the losers lost; the points are the rules' unless the rules or the record make
  the player the winner (``records.charged_points``, as the pool scores and
  the ledger take them), else the recorded ones. Chips are the points themselves, so
  chips that follow right from the deal's recorded points or outcomes, where the replay
  found those wrong (its ``score.points``, ``drop.penalty`` or ``score.outcome``: a winner
  and a loser swapped), are that finding, not a second one (``recorded_chips``); a deal
  played past the last is judged on the chips so recorded and on the rules' alike, and the
  game's winner on the rules' chips: a ``game_won`` (and its prize) that names the
  player the recorded chips make the leader, where the rules' points make another, is a
  finding of its own, as a pool elimination on a wrong score is (a blind tester: a winner
  and a loser swapped, or a hand lost written as an invalid declaration, moved 30 deals
  games' prizes to the wrong player with only the hand's finding; docs/replay.md);
- a deal whose declarer's invalid declaration the platform accepted as a win, at a table
  of three or more, is not decided by the rules as a whole: the declarer's chips in it are
  the rules' certain ``-penalty`` (80, ``declaration.invalid_penalty``), the others play on
  past the end of the record, so their chips in it are known only within bounds
  (``Open``). The game's winner is then judged on those bounds: a ``game_won`` naming a
  player who certainly does not lead is a finding, naming the deal; where the bounds do not
  decide, nothing is said (``_open_winner_findings``). The deal's own chips follow its
  recorded verdict (its ``declare.verdict`` is the one finding on them);
- after ``deals_count`` deals the game goes to the player with the most chips; while the
  lead is tied one more deal is played (``deals.tie``; the seeds are silent);
- a finished game has exactly one ``game_won`` game event, naming that player (the right
  winner's row written again is one finding on the repeat, and the winner is still theirs);
- a player who leaves the game (a ``drop`` with reason ``left`` in a deal, dealt into no
  later deal: audit/games/leaving.py) is out of it from then on: their chips of that deal
  are charged as for any drop, and they cannot win. With two or more players left the
  game goes on among them, its winner the one of them with the most chips; with one left
  it may end there, before its ``deals_count`` deals, and that player wins (the seeds are
  silent on leaving a deals game: the audit's reading of the contract's ``left`` reason);
- a game called off, every player refunded and no prize paid
  (``records.called_off_for_all``; schemas/money.md, "Called off"), ends with no winner
  and after as many deals as it got to: no finding says it played too few deals, or
  names no winner, unless the rules had decided it (its last deal played, or one player
  left), whose winner is then judged as any other. Its deals are judged as deals.

A quarantined hand has no trustworthy results, and a deal without a results row for a
player dealt in settles what is not known: their chips are not checked, and the chip
totals (so the winner and the deal count) are not judged for a game that has one.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from decimal import Decimal
from typing import NamedTuple

from audit.findings import Finding, finding
from audit.games.leaving import came_back, gone_for_good, not_dealt_in, still_in
from audit.records import (
    Game,
    Hand,
    Result,
    RulesPoints,
    RulesSay,
    and_words,
    called_off_for_all,
    charged_points,
    named_winners,
    won_again,
)
from audit.rules.ruleset import Ruleset


class DealsJudgement(NamedTuple):
    """What the deals check makes of one game: its ``deals.chips`` ``findings``, and its
    ``winner`` by the rules, the one player with the most chips after a finished game every
    deal of which is known (``None`` otherwise, or on a tie). The ledger's prize is judged
    against that winner, whatever ``game_won`` names: a ``game_won`` that names another is
    the game's ``deals.chips`` finding, and a ledger that paid the rules' winner is right
    (one error, one finding; a blind tester had two critical ``ledger.balance`` findings
    on a right ledger beside it, as pool's winner was not)."""

    findings: list[Finding]
    winner: str | None


def judge_deals(
    game: Game,
    hands: list[Hand],
    rules: Ruleset,
    *,
    winner: bool = True,
    expected: RulesSay | None = None,
) -> DealsJudgement:
    """The deals check of one deals game (nothing for another format); the recorded winner
    is checked only when ``winner`` (the game_events table, where it is named, exists).
    ``expected`` holds what the rules give each player of each replayed hand."""
    if game.format != "deals":
        return DealsJudgement([], None)
    out, followed, ruled, chips, complete, off, opened = _tally(hands, rules, expected or {})
    rests = _rests_on(off)
    leaving = gone_for_good(hands)
    out.extend([*not_dealt_in(game, hands, rules, leaving), *came_back(game, hands, rules)])
    still = still_in(hands, leaving)
    leaders = _leaders(chips, still[-1] if still else ())
    if not complete or game.deals_count is None:
        return DealsJudgement(out, None)
    called = called_off_for_all(game, hands, expected)
    moved = (followed, ruled)
    out.extend(_deal_count_findings(game, hands, game.deals_count, rules, moved, still,
                                    called_off=called))  # fmt: skip
    if game.running:
        return DealsJudgement(out, None)
    among = still[-1] if still else ()
    # A game called off, every player refunded, ends with no winner (schemas/money.md,
    # "Called off"), unless the rules had decided it: its last deal played with one
    # leader, or one player left (as a pool game's last player left is still its winner).
    decided = len(hands) >= game.deals_count or len(among) == 1
    if opened:
        bounds = ChipBounds(chips, opened, among)
        if called and (not decided or bounds.certain_leader() is None):
            return DealsJudgement(out, None)
        if winner:
            out.extend(_open_winner_findings(game, bounds, rules, rests))
        return DealsJudgement(out, bounds.certain_leader())
    leader = leaders[0] if chips and len(leaders) == 1 else None
    if called and (not decided or leader is None):
        return DealsJudgement(out, None)
    if winner:
        out.extend(_winner_findings(game, chips, rules, among, rests))
    return DealsJudgement(out, leader)


def check_deals(
    game: Game,
    hands: list[Hand],
    rules: Ruleset,
    *,
    winner: bool = True,
    expected: RulesSay | None = None,
) -> list[Finding]:
    """``deals.chips`` findings for one deals game (``judge_deals``)."""
    return judge_deals(game, hands, rules, winner=winner, expected=expected).findings


def deals_winner(
    game: Game, hands: list[Hand], rules: Ruleset, *, expected: RulesSay | None = None
) -> str | None:
    """The winner of a deals game by the rules (``DealsJudgement.winner``)."""
    return judge_deals(game, hands, rules, winner=False, expected=expected).winner


def _tally(
    hands: list[Hand], rules: Ruleset, said: RulesSay
) -> tuple[
    list[Finding], list[dict[str, int]], list[dict[str, int]], dict[str, int], bool, list[int],
    list[Open],
]:
    """Each deal's chip findings, the chips each deal moved as the game went on, the
    rules' chips of each deal (those it moved, in a deal the rules leave open), the
    rules' chips in all, whether every deal is known (none quarantined, each with one
    winner and a results row for every player dealt in), the deals whose recorded
    chips follow points the replay found wrong (their own finding, not a chip one), and
    the deals the rules leave open (``open_deal``): in those only the declarer's chips
    count in the totals (the others' get 0 there, and their bounds from ``Open``)."""
    out: list[Finding] = []
    chips: dict[str, int] = {}
    followed: list[dict[str, int]] = []  # the chips each deal moved, as the game went on
    ruled: list[dict[str, int]] = []  # the chips each deal moves by the rules
    off: list[int] = []
    opened: list[Open] = []
    complete = True
    for hand in hands:
        deal = deal_by_rules(hand, said, rules)
        if deal is None:
            complete = False
            continue
        moved = deal.moved
        ruling = said.get(hand.hand_id, {})
        found, went = _amount_findings(hand, moved, rules.cite("deals.chips"), ruling)
        out.extend(found)
        followed.append(went)
        if went != moved:
            off.append(hand.hand_no)
        ruled.append(went if deal.opened is not None else moved)
        if deal.opened is not None:
            opened.append(deal.opened)
        for player, count in deal.counted.items():  # the winner is the rules' (module doc)
            chips[player] = chips.get(player, 0) + count
    return out, followed, ruled, chips, complete, off, opened


class Open(NamedTuple):
    """A deal the rules leave open: ``declarer``'s invalid declaration, which the platform
    accepted as a win (``recorded`` chips), at a table of three or more. By the rules the
    declarer is out with the ``penalty`` and the ``others`` play on past the end of the
    record (docs/replay.md, "Declarations"), so what each of them moves is not known, only
    bounded (``low``, ``high``). The deal still has exactly one winner among the others
    (no drops in deals; play goes on until a valid declaration or one player is left), who
    takes what everyone else lost, the declarer's penalty with it; each other player loses
    at most ``most`` (``most_lost``). So:

    - each other player's chips in the deal lie between ``-most`` (they lose, at worst the
      most a player can lose) and ``penalty + most`` for each of the rest of the others
      (they win, taking the declarer's penalty and the most each other loser can lose);
    - the others' chips in the deal add up to exactly ``penalty``: deals move chips from the
      losers to the winner, and the declarer's ``penalty`` is the one loss outside them."""

    hand_no: int
    declarer: str
    penalty: int
    recorded: int
    others: tuple[str, ...]
    most: int

    @property
    def low(self) -> int:
        return -self.most

    @property
    def high(self) -> int:
        return self.penalty + self.most * (len(self.others) - 1)


def most_lost(rules: Ruleset) -> int:
    """The most a player still in can lose in the rest of a deal: the full count
    (``points.cap``, 80: also what leaving a deals game costs, where no drop is allowed),
    an invalid declaration of their own (``declaration.invalid_penalty``), or a drop's
    penalty where a ruleset gives deals any."""
    drops = rules.drop_penalty("deals")
    dropped = (drops.first, drops.middle) if drops is not None else ()
    return max(rules.cap, rules.invalid_penalty, *dropped)


def open_deal(
    hand: Hand, said: Mapping[str, RulesPoints], rules: Ruleset, moved: Mapping[str, int]
) -> Open | None:
    """The deal as the rules leave it open (``Open``), where its recorded winner made a
    declaration the rules refuse (their ``invalid_declare``, the hand's ``declare.verdict``)
    and the rules name no winner, the others playing on (no points of the rules' for
    them); else None. At a table of two the rules decide the deal whole (the other player
    wins: ``moved_chips``); where an invalid declaration ends the hand
    (``declaration.invalid_ends_hand``) the rules give the others their points."""
    winners = [r.player for r in hand.results if r.outcome == "won"]
    if len(winners) != 1 or winners[0] not in said:
        return None
    declarer = said[winners[0]]
    others = tuple(p for p in hand.seats if p != winners[0])
    if declarer.outcome != "invalid_declare" or declarer.points is None or len(others) < 2:
        return None
    if any(e.outcome == "won" for e in said.values()):
        return None
    if all(p in said and said[p].points is not None for p in others):
        return None
    return Open(hand.hand_no, winners[0], declarer.points, moved.get(winners[0], 0), others,
                most_lost(rules))  # fmt: skip


class DealByRules(NamedTuple):
    """One deal's chips by the rules (``deal_by_rules``): what each player ``moved``
    (``moved_chips``), and the deal as the rules leave it open (``opened``), if they do."""

    moved: dict[str, int]
    opened: Open | None

    @property
    def counted(self) -> dict[str, int]:
        """The chips the game's totals count for the deal: those it moved, but in a deal
        the rules leave open only the declarer's penalty (the others' chips in it are not
        known, only bounded: ``Open``, ``ChipBounds``; they count 0 here)."""
        if self.opened is None:
            return self.moved
        return {p: -self.opened.penalty if p == self.opened.declarer else 0 for p in self.moved}


def deal_by_rules(hand: Hand, said: RulesSay, rules: Ruleset) -> DealByRules | None:
    """A deal's chips by the rules, as the game's totals and winner take them
    (``DealByRules``); None where the deal's chips are not known: a quarantined deal, one
    without exactly one recorded winner, or a player dealt in with no results row (the
    game's totals, and so its winner, are then not judged)."""
    if hand.quarantine is not None:
        return None
    moved = moved_chips(hand, said)
    if moved is None:
        return None
    return DealByRules(moved, open_deal(hand, said.get(hand.hand_id, {}), rules, moved))


def _rests_on(off: list[int]) -> str:
    """`` The record's chips follow deal 2's recorded results, which the rules do not give
    (see that deal's findings).``: its points, or who won it; empty when every deal's chips
    are the rules'."""
    if not off:
        return ""
    deals = f"deal {off[0]}'s" if len(off) == 1 else f"deals {and_words([str(n) for n in off])}'"
    where = "that deal's" if len(off) == 1 else "those deals'"
    return (f" The record's chips follow {deals} recorded results, which the rules do not "
            f"give (see {where} findings).")  # fmt: skip


def moved_chips(hand: Hand, said: RulesSay) -> dict[str, int] | None:
    """The chips each player should move in this deal, from the points they are charged
    (``charged_points``); None when the deal has not exactly one winner, or a player dealt
    in has no results row, so what the winner takes is not known (the replay's outcome
    checks say why: a blind tester's correct winner was told to take half their chips)."""
    winners = [r.player for r in hand.results if r.outcome == "won"]
    if len(winners) != 1 or hand.without_result():
        return None
    rules = said.get(hand.hand_id, {})
    won = rules_winner(hand, rules)
    if won is not None:
        # The record's deal winner is not the rules' (the replay's score.outcome findings):
        # the chips follow the rules' outcomes, so chips that do are right, and the game's
        # totals and winner are the rules' (a blind tester's winner and loser written the
        # other way round had the right chips flagged, and the game won moved).
        moved = {r.player: -(rules[r.player].points or 0) for r in hand.results
                 if r.player != won}  # fmt: skip
        moved[won] = -sum(moved.values())
        return moved
    moved = {
        r.player: -charged_points(r, rules.get(r.player))
        for r in hand.results
        if r.outcome != "won"
    }
    moved[winners[0]] = -sum(moved.values())
    return moved


def rules_winner(hand: Hand, said: Mapping[str, RulesPoints]) -> str | None:
    """The deal's winner by the rules where it is not the recorded one and the rules decide
    the deal whole (one winner, every player's points known: the replay's ``score.outcome``
    or ``declare.verdict`` findings say so); else None, the recorded winner standing."""
    winners = [r.player for r in hand.results if r.outcome == "won"]
    won = [p for p, e in said.items() if e.outcome == "won"]
    points = [said[r.player].points for r in hand.results if r.player in said]
    if len(won) != 1 or won == winners or None in points or len(points) != len(hand.results):
        return None
    return won[0]


def moving(amount: Decimal | None) -> str:
    """A player's chips in a deal as words that say which way they went (a blind tester
    read "should lose 20 chips, but the record shows 20" as the record agreeing).

    >>> moving(Decimal("20.00")), moving(Decimal("-5")), moving(Decimal(0)), moving(None)
    ('a gain of 20 chips', 'a loss of 5 chips', 'no chips moved', 'no amount')
    """
    if amount is None:
        return "no amount"
    if amount == 0:
        return "no chips moved"
    return f"a {'gain' if amount > 0 else 'loss'} of {chips(abs(amount))} chips"


def chips(amount: Decimal | None) -> str | None:
    """Chips as a player counts them: whole chips without decimal places (``results.amount``
    is a money column, so 100 chips arrive as 100.00), a fraction as it was written.

    >>> chips(Decimal("100.00")), chips(Decimal("-12.50")), chips(None)
    ('100', '-12.50', None)
    """
    if amount is None:
        return None
    return str(int(amount)) if amount == amount.to_integral_value() else str(amount)


def recorded_chips(hand: Hand) -> dict[str, int]:
    """The chips each player moves by the deal's recorded points (a deal with one winner:
    ``moved_chips``): each loser ``-points``, the winner the sum."""
    moved = {r.player: -r.points for r in hand.results if r.outcome != "won"}
    winner = next(r.player for r in hand.results if r.outcome == "won")
    moved[winner] = -sum(moved.values())
    return moved


def _amount_findings(
    hand: Hand, moved: dict[str, int], rule: str, said: Mapping[str, RulesPoints]
) -> tuple[list[Finding], dict[str, int]]:
    """The deal's ``deals.chips`` findings, and the chips each player moved as the game
    goes on from it: the rules' (``moved``), or the recorded chips where they follow right
    from the recorded points or outcomes the replay found wrong (the deal's own finding,
    not again). A recorded winner's chips that are the sum the others' chips lost, each of
    those right by the rules or by the record, follow too: the winner took what the others
    gave (a blind tester: a deal's winner and a loser swapped in results, the chips
    following them, drew a third finding that told the rules' loser they "won the deal, so
    should take -15 chips")."""
    recorded = recorded_chips(hand)
    winner = next(r.player for r in hand.results if r.outcome == "won")
    went = dict(moved)
    wrong = []
    for row in hand.results:
        if row.amount is not None and row.amount == moved[row.player]:
            continue
        if recorded != moved and row.amount == recorded[row.player]:
            went[row.player] = recorded[row.player]
            continue
        wrong.append(row)
    if [row.player for row in wrong] == [winner]:
        given = -sum(n for p, n in went.items() if p != winner)
        if wrong[0].amount == given:
            went[winner] = given
            wrong = []
    if not wrong:  # every deal of an honest game: no second look at the rules' winner
        return [], went
    swapped = rules_winner(hand, said)
    took = _took_what_was_given(hand, wrong, winner, swapped, moved[winner])
    if took is not None:
        wrong = [row for row in wrong if row.player != winner]
    return [
        _chip_finding(hand, row, moved, recorded, swapped, rule, took) for row in wrong
    ], went


def _took_what_was_given(
    hand: Hand, wrong: list[Result], winner: str, swapped: str | None, want: int
) -> str | None:
    """The words for a recorded winner whose chips are the sum the others are recorded as
    losing, when some of those are wrong: the winner took what the others gave, so the
    winner's chips follow the losers' wrong ones and are said in their findings, not as a
    finding of their own (a blind tester's one loser short by 5 chips was two
    ``deals.chips``, the winner's "should take 95 ... the record shows 90" beside it).
    None when the winner's chips are not that sum, or the record's winner is not the
    rules' (``swapped``: ``_chip_finding`` says those)."""
    alone = swapped is not None or winner not in {row.player for row in wrong} or len(wrong) < 2
    given = None if alone else took_given(hand, winner)
    if given is None:
        return None
    if given < 0:  # the others are recorded as gaining what the winner is losing
        return (f"{winner}, who won the deal, is recorded as losing the {chips(-given)} chips "
                f"the others are recorded as gaining (taking {want} by the rules)")
    return (f"{winner}, who won the deal, took the {chips(given)} chips the others are "
            f"recorded as losing ({want} by the rules)")


def took_given(hand: Hand, winner: str) -> Decimal | None:
    """The chips the others are recorded as losing, where ``winner``'s are those; or None."""
    amounts = {row.player: row.amount for row in hand.results}
    if any(amount is None for amount in amounts.values()):
        return None
    given = -sum((a for p, a in amounts.items() if p != winner and a is not None), Decimal(0))
    return given if amounts.get(winner) == given else None


def _chip_finding(
    hand: Hand,
    row: Result,
    moved: dict[str, int],
    recorded: dict[str, int],
    swapped: str | None,
    rule: str,
    took: str | None = None,
) -> Finding:
    """One player's chips in a deal that follow neither the rules nor the record. Where
    the record's winner of the deal is not the rules' (``swapped``, the rules' winner), the
    words say the rules' outcome and what the recorded one would have moved, never that a
    player the rules say lost "won the deal" (the outcome is the hand's own finding).
    ``took`` is what the winner took where it follows this loser's chips
    (``_took_what_was_given``), said after them."""
    want = moved[row.player]
    shown = moving(row.amount)
    if swapped is not None and row.outcome == "won":
        message = (
            f"{row.player} lost the deal with {-want} points by the rules, so should lose "
            f"{-want} chips, but the record shows {shown} (nor is it the "
            f"{recorded[row.player]} chips the others are recorded as losing, which the "
            f"record, naming {row.player} the deal's winner, would give: see the hand's "
            "findings)"
        )
    elif row.player == swapped:
        message = (
            f"{row.player} won the deal by the rules, so should take {want} chips (the sum "
            f"the others lost), but the record shows {shown} (nor is it "
            f"{moving(Decimal(recorded[row.player]))}, the {row.points} points the record "
            f"has {row.player} losing: see the hand's findings)"
        )
    elif row.outcome == "won":
        message = (
            f"{row.player} won the deal, so should take {want} chips (the sum the others "
            f"lost), but the record shows {shown}"
        )
    elif -want != row.points:
        message = (
            f"{row.player} lost the deal with {-want} points by the rules ({row.points} "
            f"recorded), so should lose {-want} chips, but the record shows {shown}"
        )
    else:
        message = (
            f"{row.player} lost the deal with {row.points} points, so should lose {-want} "
            f"chips, but the record shows {shown}"
        )
    return finding(
        "deals.chips",
        game_id=hand.game_id,
        hand_id=hand.hand_id,
        player_id=row.player,
        expected=chips(Decimal(want)),
        recorded=chips(row.amount),
        message=f"{message}; {took}." if took else f"{message}.",
        rule=rule,
    )


def _leaders(chips: dict[str, int], among: Collection[str]) -> list[str]:
    """The players ``among`` those still in with the most chips (a player who left the
    game cannot win it)."""
    counts = [count for p, count in chips.items() if p in among]
    most = max(counts, default=0)
    return sorted(p for p, count in chips.items() if count == most and p in among)


def _deal_count_findings(
    game: Game,
    hands: list[Hand],
    deals_count: int,
    rules: Ruleset,
    moved: tuple[list[dict[str, int]], list[dict[str, int]]],
    still: list[tuple[str, ...]],
    *,
    called_off: bool = False,
) -> list[Finding]:
    """A deal played after the game was already decided (the last deal was reached and
    one player led: ``deals.tie``, the one reason to play on), or a finished game with
    fewer deals than it should have had (``deals.chips``: a best of N plays N, unless the
    others left it and one player is left); ``still`` are the players still in after each
    deal. The game is decided where one player leads both on the chips each deal moved as
    the game went on (``_amount_findings``: the recorded chips, where they follow results
    the replay found wrong) and on the rules' chips: a deal played on a lead tied either
    way follows the hand whose results made the two differ, that hand's finding (a blind
    tester: a winner and a loser swapped in deal 2, the chips following them, had the
    rules' tiebreak deal 4 called "played although the game was already decided"). A game
    called off, every player refunded (``called_off``, ``records.called_off_for_all``),
    ended early by design: it is no game that "plays" fewer deals."""
    out = []
    chips: dict[str, int] = {}
    rules_chips: dict[str, int] = {}
    followed, ruled = moved
    for number, hand in enumerate(hands, start=1):
        among = still[number - 2] if number > 1 else ()
        if (number > deals_count and len(_leaders(chips, among)) == 1
                and len(_leaders(rules_chips, among)) == 1):  # fmt: skip
            out.append(
                finding(
                    "deals.chips",
                    game_id=game.game_id,
                    hand_id=hand.hand_id,
                    expected=f"at most {number - 1} deals",
                    recorded=f"deal {number}",
                    message=f"Deal {number} was played although the game of {deals_count} "
                    f"deals was already decided, {_leaders(chips, among)[0]} "
                    "leading on chips.",
                    rule=rules.cite("deals.tie"),
                )
            )
            break
        for player, count in followed[number - 1].items():
            chips[player] = chips.get(player, 0) + count
        for player, count in ruled[number - 1].items():
            rules_chips[player] = rules_chips.get(player, 0) + count
    short = len(hands) < deals_count and len(still[-1]) > 1
    if not game.running and not called_off and short:
        out.append(
            finding(
                "deals.chips",
                game_id=game.game_id,
                expected=f"{deals_count} deals",
                recorded=f"{len(hands)} deals",
                message=f"The game ended after {len(hands)} deals, but a best of "
                f"{deals_count} plays {deals_count}.",
                rule=rules.cite("deals.chips"),
            )
        )
    return out


def _winner_findings(
    game: Game,
    chips: dict[str, int],
    rules: Ruleset,
    among: Collection[str],
    rests: str = "",
) -> list[Finding]:
    """The finished game's ``game_won`` must name the one player with the most chips
    ``among`` those still in, or the one player left when the others left the game
    (``deals.chips``); a tie for the most is played on (``deals.tie``)."""
    leaders = _leaders(chips, among)
    named = named_winners(game)  # a row written again names no second winner
    if not chips or not leaders:
        return []
    if len(leaders) > 1:
        return [
            finding(
                "deals.chips",
                game_id=game.game_id,
                player_id=named[0] if named else None,
                expected="one more deal",
                recorded=f"game won by {named[0]}" if named else "game ended",
                message=f"The game ended with {' and '.join(leaders)} tied at "
                f"{chips[leaders[0]]} chips, where one more deal should have been played.",
                rule=rules.cite("deals.tie"),
            )
        ]
    leader = leaders[0]
    if len(among) == 1 and len(chips) > 1:
        others = and_words(sorted(set(chips) - {leader}))
        why = f"is the last player left in the game ({others} left it)"
    elif set(chips) - set(among):
        why = f"ended with the most chips of the players still in ({chips[leader]})"
    else:
        why = f"ended with the most chips ({chips[leader]})"
    if named == [leader]:
        again = won_again(game)
        if again is None:
            return []
        return [
            finding(
                "deals.chips",
                game_id=game.game_id,
                player_id=leader,
                seq=again.seq,
                expected="one game_won event",
                recorded=f"{again.rows} game_won events",
                message=f"{leader} {why} and won the game, but {again.words}: a game is "
                "won once.",
                rule=rules.cite("deals.chips"),
            )
        ]
    recorded = ", ".join(str(p) for p in named) if named else None
    return [
        finding(
            "deals.chips",
            game_id=game.game_id,
            player_id=named[0] if len(named) == 1 else leader,
            expected=leader,
            recorded=recorded,
            message=f"{leader} {why} and should win the game, but the record names "
            f"{recorded or 'no winner'}.{rests}",
            rule=rules.cite("deals.chips"),
        )
    ]


class ChipBounds:
    """Each player's chips after a finished game some deals of which the rules leave open
    (``Open``): the rules' chips of every other deal and each declarer's certain penalty
    (``chips``), and for each open deal the bounds of what the others moved in it. ``among``
    are the players still in, who alone can win (a player who left cannot)."""

    def __init__(self, chips: Mapping[str, int], opened: list[Open], among: Collection[str]):
        self.chips, self.opened = dict(chips), opened
        self.among = [p for p in chips if p in among]
        self.low, self.high = dict(chips), dict(chips)
        for deal in opened:
            for player in deal.others:
                self.low[player] = self.low.get(player, 0) + deal.low
                self.high[player] = self.high.get(player, 0) + deal.high

    def exact(self, player: str) -> bool:
        """Whether ``player``'s chips are known: a declarer, or in no open deal."""
        return all(player not in deal.others for deal in self.opened)

    def certain_leader(self) -> str | None:
        """The one player still in whose least chips beat every other player's most (the
        rules' winner whichever way the open deals went), else None."""
        for player in self.among:
            if all(self.low[player] > self.high[q] for q in self.among if q != player):
                return player
        return None

    def could_lead(self, but: str | None = None) -> list[str]:
        """The players still in (``but`` one) whom no other player certainly outscores."""
        return sorted(
            p for p in self.among
            if p != but and not any(self.low[q] > self.high[p] for q in self.among if q != p)
        )  # fmt: skip

    def together(self, players: Collection[str]) -> tuple[int, bool]:
        """The least chips ``players`` have between them, and whether it is exact: in an
        open deal the others' chips add up to the declarer's penalty (``Open``), so where
        all of them are among ``players`` that deal gives them exactly the penalty; where
        some are not, no less than the penalty less what those others can win, nor than
        each of ``players`` losing the most."""
        least, exact = sum(self.chips.get(p, 0) for p in players), True
        for deal in self.opened:
            ours = [p for p in deal.others if p in players]
            if not ours:
                continue
            theirs = [p for p in deal.others if p not in players]
            if theirs:
                exact = False
                least += max(len(ours) * deal.low, deal.penalty - len(theirs) * deal.high)
            else:
                least += deal.penalty
        return least, exact

    def beaten(self, player: str) -> str | None:
        """Why another player still in certainly has more chips than ``player`` (words that
        follow ``By the rules ...``), else None: one player's least chips are more than
        ``player``'s most, or the others' least together are more than each of them having
        ``player``'s most (so one of them has more)."""
        others = [p for p in self.among if p != player]
        if not others or player not in self.among:
            return None
        most = self.high[player]
        mine = f"{player} ends with {'' if self.exact(player) else 'at most '}{most} chips"
        best = max(others, key=lambda p: self.low[p])
        if self.low[best] > most:
            theirs = "" if self.exact(best) else "at least "
            return f"{mine}, and {best} with {theirs}{self.low[best]}, which is more"
        least, exact = self.together(others)
        if len(others) > 1 and least > most * len(others):
            between = "" if exact else "at least "
            return (f"{mine}, and {and_words(others)} with {between}{least} between them, "
                    "so one of them has more")  # fmt: skip
        return None


def _open_words(opened: list[Open]) -> str:
    """``D's invalid declaration in deal 2 was accepted as a win of 60 chips, but ...``."""
    return " ".join(
        f"{d.declarer}'s invalid declaration in deal {d.hand_no} was accepted as a win of "
        f"{d.recorded} chips, but by the rules it costs {d.declarer} {d.penalty} chips (the "
        f"penalty for an invalid declaration) and {and_words(list(d.others))} play on past "
        "the end of the record, so their chips in that deal are not known."
        for d in opened
    )


def _open_winner_findings(
    game: Game, bounds: ChipBounds, rules: Ruleset, rests: str = ""
) -> list[Finding]:
    """The finished game's winner where some deals are open (``Open``): the chips are known
    only within ``bounds``, so the recorded winner is a finding only where the bounds decide
    against them (``ChipBounds.beaten``: a blind tester's declarer, their invalid
    declaration accepted as a win at a table of three, kept a game the rules' 80 took from
    them, and its prize); where they do not, nothing is said, as the rules do not know who
    won. The finding names the open deal behind it. No ``game_won`` naming one player is a
    finding as in any game (``_winner_findings``), and so is the one winner's row written
    again."""
    named = named_winners(game)  # a row written again names no second winner
    leader = bounds.certain_leader()
    words = _open_words(bounds.opened)
    rule = rules.cite("deals.chips")
    player = named[0] if len(named) == 1 else None
    if player is None:
        recorded = ", ".join(str(p) for p in named) if named else None
        if leader is not None:
            said = (f"{leader} ends with at least {bounds.low[leader]} chips, more than any "
                    "other player can, and should win the game")  # fmt: skip
        else:
            said = "A finished game has one winner"
        return [finding(
            "deals.chips", game_id=game.game_id,
            player_id=named[0] if named else leader,
            expected=leader or " or ".join(bounds.could_lead()) or None, recorded=recorded,
            message=f"{said}, but the record names {recorded or 'no winner'}. {words}{rests}",
            rule=rule,
        )]  # fmt: skip
    why = bounds.beaten(player)
    if player not in bounds.among and bounds.among:
        why = f"{player} left the game, so cannot win it"
    if why is not None:
        return [finding(
            "deals.chips", game_id=game.game_id, player_id=player,
            expected=leader or " or ".join(bounds.could_lead(but=player)) or None,
            recorded=player,
            message=f"{words} By the rules {why}: the game is not {player}'s, but the "
            f"record names {player}.{rests}",
            rule=rule,
        )]  # fmt: skip
    again = won_again(game)
    if again is None:
        return []
    return [finding(
        "deals.chips", game_id=game.game_id, player_id=player, seq=again.seq,
        expected="one game_won event", recorded=f"{again.rows} game_won events",
        message=f"{again.words[0].upper()}{again.words[1:]}: a game is won once.",
        rule=rule,
    )]  # fmt: skip
