"""Deals rummy (best of 2, best of 3): the chips each deal moves and who wins the game.

000_1729c72ad4c1f885.txt names the format ("Best of 2 / Best of 3", rounds played on one
table, "No Drop is allowed") and says chips are "deducted and credited ... with respect to
the player's wins and losses". The readings this module applies (docs/replay.md, "Money"):

- in each deal every loser's ``results.amount`` is ``-points`` and the winner's is ``+``
  the sum the losers lost; the points are the rules' unless the rules or the record make
  the player the winner (``records.charged_points``, as the pool scores and
  the ledger take them), else the recorded ones. Chips are the points themselves, so
  chips that follow right from the deal's recorded points, where the replay found those
  points wrong (its ``score.points`` or ``drop.penalty``), are that finding, not a second
  one (``recorded_chips``); the deal count is judged from the chips so recorded, but the
  game's winner from the rules' chips: a ``game_won`` (and its prize) that names the
  player the recorded chips make the leader, where the rules' points make another, is a
  finding of its own, as a pool elimination on a wrong score is (a blind tester: a winner
  and a loser swapped, or a hand lost written as an invalid declaration, moved 30 deals
  games' prizes to the wrong player with only the hand's finding; docs/replay.md);
- after ``deals_count`` deals the game goes to the player with the most chips; while the
  lead is tied one more deal is played (``deals.tie``; the seeds are silent);
- a finished game has exactly one ``game_won`` game event, naming that player (the right
  winner's row written again is one finding on the repeat, and the winner is still theirs);
- a player who leaves the game (a ``drop`` with reason ``left`` in a deal, dealt into no
  later deal: audit/games/leaving.py) is out of it from then on: their chips of that deal
  are charged as for any drop, and they cannot win. With two or more players left the
  game goes on among them, its winner the one of them with the most chips; with one left
  it may end there, before its ``deals_count`` deals, and that player wins (the seeds are
  silent on leaving a deals game: the audit's reading of the contract's ``left`` reason).

A quarantined hand has no trustworthy results, and a deal without a results row for a
player dealt in settles what is not known: their chips are not checked, and the chip
totals (so the winner and the deal count) are not judged for a game that has one.
"""

from __future__ import annotations

from collections.abc import Collection
from decimal import Decimal
from typing import NamedTuple

from audit.findings import Finding, finding
from audit.games.leaving import Leaving, gone_for_good
from audit.records import (
    Game,
    Hand,
    RulesSay,
    and_words,
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
    out, followed, chips, complete, off = _tally(hands, rules, expected or {})
    rests = _rests_on(off)
    leaving = gone_for_good(hands)
    out.extend(_removed(game, hands, rules, leaving))
    still = _still_in(hands, leaving)
    leaders = _leaders(chips, still[-1] if still else ())
    if not complete or game.deals_count is None:
        return DealsJudgement(out, None)
    out.extend(_deal_count_findings(game, hands, game.deals_count, rules, followed, still))
    if game.running:
        return DealsJudgement(out, None)
    if winner:
        out.extend(_winner_findings(game, chips, rules, still[-1] if still else (), rests))
    return DealsJudgement(out, leaders[0] if chips and len(leaders) == 1 else None)


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
) -> tuple[list[Finding], list[dict[str, int]], dict[str, int], bool, list[int]]:
    """Each deal's chip findings, the chips each deal moved as the game went on, the
    rules' chips in all, whether every deal is known (none quarantined, each with one
    winner and a results row for every player dealt in), and the deals whose recorded
    chips follow points the replay found wrong (their own finding, not a chip one)."""
    out: list[Finding] = []
    chips: dict[str, int] = {}
    followed: list[dict[str, int]] = []  # the chips each deal moved, as the game went on
    off: list[int] = []
    complete = True
    for hand in hands:
        if hand.quarantine is not None:
            complete = False
            continue
        moved = moved_chips(hand, said)
        if moved is None:
            complete = False
            continue
        found, went = _amount_findings(hand, moved, rules.cite("deals.chips"))
        out.extend(found)
        followed.append(went)
        if went != moved:
            off.append(hand.hand_no)
        for player, count in moved.items():  # the winner is the rules' (module doc)
            chips[player] = chips.get(player, 0) + count
    return out, followed, chips, complete, off


def _rests_on(off: list[int]) -> str:
    """`` The record's chips follow deal 2's points, which the rules do not give (see that
    deal's findings).``; empty when every deal's chips are the rules'."""
    if not off:
        return ""
    deals = f"deal {off[0]}'s" if len(off) == 1 else f"deals {and_words([str(n) for n in off])}'"
    where = "that deal's" if len(off) == 1 else "those deals'"
    return (f" The record's chips follow {deals} points, which the rules do not give (see "
            f"{where} findings).")  # fmt: skip


def moved_chips(hand: Hand, said: RulesSay) -> dict[str, int] | None:
    """The chips each player should move in this deal, from the points they are charged
    (``charged_points``); None when the deal has not exactly one winner, or a player dealt
    in has no results row, so what the winner takes is not known (the replay's outcome
    checks say why: a blind tester's correct winner was told to take half their chips)."""
    winners = [r.player for r in hand.results if r.outcome == "won"]
    if len(winners) != 1 or hand.without_result():
        return None
    rules = said.get(hand.hand_id, {})
    won = [p for p, e in rules.items() if e.outcome == "won"]
    points = {r.player: rules[r.player].points for r in hand.results if r.player in rules}
    if won and won != winners and len(won) == 1 and None not in points.values() \
            and len(points) == len(hand.results):
        # The record's deal winner is not the rules' (the replay's score.outcome findings):
        # the chips follow the rules' outcomes, so chips that do are right, and the game's
        # totals and winner are the rules' (a blind tester's winner and loser written the
        # other way round had the right chips flagged, and the game won moved).
        moved = {p: -(n or 0) for p, n in points.items() if p != won[0]}
        moved[won[0]] = -sum(moved.values())
        return moved
    moved = {
        r.player: -charged_points(r, rules.get(r.player))
        for r in hand.results
        if r.outcome != "won"
    }
    moved[winners[0]] = -sum(moved.values())
    return moved


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
    hand: Hand, moved: dict[str, int], rule: str
) -> tuple[list[Finding], dict[str, int]]:
    """The deal's ``deals.chips`` findings, and the chips each player moved as the game
    goes on from it: the rules' (``moved``), or the recorded chips where they follow right
    from the recorded points the replay found wrong (the deal's own finding, not again)."""
    out = []
    recorded = recorded_chips(hand)
    went = dict(moved)
    for row in hand.results:
        want = Decimal(moved[row.player])
        if row.amount is not None and row.amount == want:
            continue
        if recorded != moved and row.amount == recorded[row.player]:
            went[row.player] = recorded[row.player]
            continue
        shown = "no amount" if row.amount is None else chips(row.amount)
        if row.outcome == "won":
            why = f"won the deal, so should take {want} chips (the sum the others lost)"
        elif -want != row.points:
            why = (
                f"lost the deal with {-want} points by the rules ({row.points} recorded), "
                f"so should lose {-want} chips"
            )
        else:
            why = f"lost the deal with {row.points} points, so should lose {-want} chips"
        out.append(
            finding(
                "deals.chips",
                game_id=hand.game_id,
                hand_id=hand.hand_id,
                player_id=row.player,
                expected=chips(want),
                recorded=chips(row.amount),
                message=f"{row.player} {why}, but the record shows {shown}.",
                rule=rule,
            )
        )
    return out, went


def _still_in(hands: list[Hand], leaving: Leaving) -> list[tuple[str, ...]]:
    """After each deal, the players of the game still in it: all those dealt into any deal
    (in the order first dealt in) but those who left in it or before (``leaving``, the
    module doc)."""
    players = list(dict.fromkeys(p for hand in hands for p in hand.seats))
    gone: set[str] = set()
    still = []
    for hand in hands:
        gone.update(leaving.get(hand.hand_no, ()))
        still.append(tuple(p for p in players if p not in gone))
    return still


def _removed(game: Game, hands: list[Hand], rules: Ruleset, leaving: Leaving) -> list[Finding]:
    """A player of the game not dealt into a later deal, though no drop with reason left
    records their leaving it: one ``deals.chips`` each, at the first deal they miss. A
    deals game deals every player every deal (000_: no drops, no eliminations), so the
    record does not show why they were left out (a blind tester: a player pushed out of a
    best of 3 after deal 1, their chips never won back, gave no finding). A quarantined
    deal's seats are not judged."""
    seen: list[str] = []
    gone: set[str] = set()
    out: list[Finding] = []
    for number, hand in enumerate(hands, start=1):
        if hand.quarantine is None:
            for player in seen:
                if player in gone or player in hand.seats:
                    continue
                gone.add(player)  # one finding: the player is out of the record from here
                out.append(finding(
                    "deals.chips", game_id=game.game_id, hand_id=hand.hand_id,
                    player_id=player, expected="dealt in", recorded="not dealt in",
                    message=f"{player} is not dealt into deal {number}, though still in the "
                    "game: a deals game deals every player every deal, and no drop with "
                    f"reason left records {player} leaving it.",
                    rule=rules.cite("deals.chips"),
                ))  # fmt: skip
            seen += [p for p in hand.seats if p not in seen]
        gone |= leaving.get(hand.hand_no, frozenset())
    return out


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
    followed: list[dict[str, int]],
    still: list[tuple[str, ...]],
) -> list[Finding]:
    """A deal played after the game was already decided (the last deal was reached and
    one player led: ``deals.tie``, the one reason to play on), or a finished game with
    fewer deals than it should have had (``deals.chips``: a best of N plays N, unless the
    others left it and one player is left); the chips are those each deal moved as the game
    went on (``_amount_findings``), ``still`` the players still in after each deal."""
    out = []
    chips: dict[str, int] = {}
    for number, hand in enumerate(hands, start=1):
        if number > deals_count and len(_leaders(chips, still[number - 2])) == 1:
            out.append(
                finding(
                    "deals.chips",
                    game_id=game.game_id,
                    hand_id=hand.hand_id,
                    expected=f"at most {number - 1} deals",
                    recorded=f"deal {number}",
                    message=f"Deal {number} was played although the game of {deals_count} "
                    f"deals was already decided, {_leaders(chips, still[number - 2])[0]} "
                    "leading on chips.",
                    rule=rules.cite("deals.tie"),
                )
            )
            break
        for player, count in followed[number - 1].items():
            chips[player] = chips.get(player, 0) + count
    if not game.running and len(hands) < deals_count and len(still[-1]) > 1:
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

