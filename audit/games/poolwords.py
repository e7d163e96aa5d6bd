"""The words of the pool check's findings (audit/games/pool.py) that follow the pool
rules: why a score is out or still in, who rebought first after one hand (and the new
scores of one hand's rebuys given in another order), a running score off the rules', what
the record did instead of a split it owed, and what a refused elimination that ended the
game did with the prize."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal

from audit.findings import Finding
from audit.games.prize import prize_pool
from audit.records import Game, Hand, Result, and_words, named_winners
from audit.rules.ruleset import PoolRules


def in_turn(hand: Hand, rebuyers: list[str], highest: int) -> str:
    """Several rebuys after one hand: who came first and what each gets (000_: "the players
    Re-Buyin will Re-Buy as per their turn in the game with scores 58, 59, 60"), read as
    the turn order of the hand just played (a blind tester was told r2 should have 72 and
    not that r3, before r2 in that order, had 71); empty for one rebuy.

    >>> hand = Hand("h3", "g1", 3, ["r3", "r4", "r1", "r2"], [], 0, 0, [], [])
    >>> in_turn(hand, ["r3", "r2"], 70).endswith("hand 3 was r3, r4, r1, r2: r3 rebought "
    ...     "first, at 71, then r2 at 72")
    True
    """
    if len(rebuyers) < 2:
        return ""
    first, *rest = rebuyers
    return (
        f"; rebuys after one hand count up in its turn order, which in hand {hand.hand_no} "
        f"was {', '.join(hand.seats)}: {first} rebought first, at {highest + 1}, "
        + ", ".join(f"then {p} at {highest + 2 + i}" for i, p in enumerate(rest))
    )


def swapped_rebuys(
    found: list[Finding], hand: Hand, rebuyers: list[str], highest: int
) -> list[Finding]:
    """``found`` with the findings of rebuys after ``hand`` recorded at a wrong new score
    (``rebuyers`` in its turn order, the highest score still in ``highest``) that are the
    rules' new scores given to those players in another order made one finding naming
    them all, on the first by turn order: one ordering mistake, one finding (a blind
    tester: two rebuys written in row order were two findings, each telling the whole
    story). A new score that is simply wrong, no other rebuyer's by the rules, stays its
    own finding."""
    wrong = {f.player_id: f for f in found if f.check == "pool.rebuy"
             and f.hand_id == hand.hand_id and f.player_id in rebuyers
             and (f.expected or "").isdigit() and (f.recorded or "").isdigit()}  # fmt: skip
    order = [p for p in rebuyers if p in wrong]
    cycle = _cycles({p: (int(wrong[p].expected or 0), int(wrong[p].recorded or 0))
                     for p in order})  # fmt: skip
    if not cycle:
        return found
    rules = {p: int(wrong[p].expected or 0) for p in cycle}
    given = {p: int(wrong[p].recorded or 0) for p in cycle}
    words = (f"{and_words(cycle)} rebought after hand {hand.hand_no}, and the record gives "
             f"them the new scores {and_words([str(s) for s in sorted(rules.values())])} in "
             f"the wrong order: {and_words([f'{p} at {given[p]}' for p in cycle])} (the "
             f"highest score still in was {highest} by the rules"
             f"{in_turn(hand, rebuyers, highest)}).")  # fmt: skip
    one = replace(wrong[cycle[0]], message=words, expected=new_scores(rules),
                  recorded=new_scores(given))  # fmt: skip
    gone = {id(wrong[p]) for p in cycle[1:]}
    return [one if f is wrong[cycle[0]] else f for f in found if id(f) not in gone]


def _cycles(wrong: Mapping[str, tuple[int, int]]) -> list[str]:
    """The players of ``wrong`` (each rebuy's new score by the rules and as recorded, in
    turn order) whose recorded score is another's by the rules, whose recorded score is a
    third's ... back round to their own: the rules' scores given in another order.

    >>> _cycles({"A": (56, 57), "B": (57, 56), "C": (58, 60)})
    ['A', 'B']
    >>> _cycles({"A": (56, 57), "B": (57, 58), "C": (58, 56)}), _cycles({"A": (56, 57)})
    (['A', 'B', 'C'], [])
    """
    whose = {rules: player for player, (rules, _) in wrong.items()}

    def back(player: str) -> bool:
        at = whose.get(wrong[player][1])
        for _ in wrong:
            if at is None or at == player:
                break
            at = whose.get(wrong[at][1])
        return at == player

    return [player for player in wrong if back(player)]


def new_scores(scores: Mapping[str, int]) -> str:
    """A swap of rebuys' new scores' ``expected`` or ``recorded``: each player's new score,
    ``u006 56, u034 57`` (``read_new_scores`` reads it back)."""
    return ", ".join(f"{player} {score}" for player, score in scores.items())


def read_new_scores(text: str | None) -> dict[str, int]:
    """Each player's new score in a swap's ``expected`` or ``recorded`` (``new_scores``);
    empty for any other text. A swap names two players or more (``_cycles``): a lone phrase
    ending in a number is another finding's, a rebuy the rules refuse for the highest
    score still in (a blind tester: "highest score still in below 79" read as a swap, so
    explain's money section said the refused rebuy's entry "agrees" with no word of it).

    >>> read_new_scores("u006 56, u034 57"), read_new_scores("57"), read_new_scores(None)
    ({'u006': 56, 'u034': 57}, {}, {})
    >>> read_new_scores("highest score still in below 79")
    {}
    """
    pairs = [part.rpartition(" ") for part in (text or "").split(", ")]
    if len(pairs) < 2 or not all(player and score.isdigit() for player, _, score in pairs):
        return {}
    return {player: int(score) for player, _, score in pairs}


def over(pool: PoolRules) -> str:
    """Why a score is out, in the words of ``exactly_eliminates``: a score that reaches
    the elimination score, or one that passes it (121 does not pass 121: "which eliminates
    at 121" said it did, a blind tester).

    >>> rules = PoolRules(elimination_score=121, exactly_eliminates=False,
    ...     rebuy_min_players=3, rebuy_counts="hand", rebuy_below=79, manual_split_min_score=61,
    ...     drop_base=100, drop_step=20, split_drop_difference=(1, 2), auto_split_above=80)
    >>> over(rules), under(rules)
    ('above the 121 a player must pass to be out', 'not above the 121 a player must pass to be out')
    """
    at = pool.elimination_score
    return f"which eliminates at {at}" if pool.exactly_eliminates else (
        f"above the {at} a player must pass to be out")


def out_rule(pool: PoolRules, at: int | None = None) -> str:
    """The key of the rule an elimination rests on: ``elimination_score``, or
    ``exactly_eliminates`` where a player must pass the threshold (a blind tester's house
    rules cited "reaches 101 is eliminated" of a player kept in at 101) or where the score
    ``at`` is the threshold itself, which the seeds never say is out: the preset's choice
    (until 2026-12-06 a score of exactly 101 cited only 000_'s "101 Pool", a blind tester).

    >>> rules = PoolRules(elimination_score=101, exactly_eliminates=True,
    ...     rebuy_min_players=3, rebuy_counts="hand", rebuy_below=79, manual_split_min_score=61,
    ...     drop_base=100, drop_step=20, split_drop_difference=(1, 2), auto_split_above=80)
    >>> out_rule(rules, 120), out_rule(rules, 101), out_rule(rules)
    ('elimination_score', 'exactly_eliminates', 'elimination_score')
    """
    exact = not pool.exactly_eliminates or at == pool.elimination_score
    return "exactly_eliminates" if exact else "elimination_score"


def under(pool: PoolRules) -> str:
    """Why a score is still in (``over``'s words)."""
    at = pool.elimination_score
    return f"below the {at} that eliminates" if pool.exactly_eliminates else (
        f"not above the {at} a player must pass to be out")


def score_words(
    hand: Hand, player: str, result: Result, before: int, points: int, kept: int,
    since: str | None,
) -> str:
    """A ``pool.score``'s words: the rules' running score (``before`` + ``points``) and,
    where it differs, the record's own count (``kept`` + the recorded points), which the
    recorded score does not follow either, and where the record's count went wrong
    (``since``)."""
    recorded = result.score_after
    shown = "missing" if recorded is None else f"recorded as {recorded}"
    words = (f"{player}'s pool score after hand {hand.hand_no} is {shown}, but by the rules "
             f"it is {before} + {points} = {before + points}")  # fmt: skip
    if points != result.points:
        words += (f" (the rules charge {points} points for this hand, the record "
                  f"{result.points})")  # fmt: skip
    words += "."
    if kept + result.points != before + points:
        count = f"{kept} + {result.points} = {kept + result.points}"
        words += (f" Nor is it the record's own count, {count}" if recorded is not None
                  else f" The record's own count is {count}")  # fmt: skip
        words += f", which carries forward the wrong score recorded {since}." if since else "."
    return words


def instead(game: Game, hand: Hand, last: Hand) -> str:
    """What the record did instead of an auto split due after ``hand``, the first hand
    after which it was due (its one finding): dealt the next hand, and how the game then
    ended (``last``: its last hand), or ended the game there, naming a winner or neither
    (a blind tester read "play went on" of a game that ended after that hand with its
    whole prize paid to one player). The hands played on are not findings again: one
    split not made, one finding; these words say where the game went instead."""
    won = " and ".join(p or "?" for p in named_winners(game))
    if hand.hand_no < last.hand_no:
        went = f"play went on to hand {hand.hand_no + 1}"
        split = next((e.after_hand_no for e in game.game_events if e.action == "split"
                      and e.after_hand_no > hand.hand_no), None)  # fmt: skip
        if split is not None:
            return f"{went}, and the game was split only after hand {split}"
        if game.running:
            return went
        ended = f"{went}, and the record ends the game after hand {last.hand_no}"
    else:
        ended = "the record ends the game there"
    return f"{ended}, won by {won}, with no split" if won else f"{ended} with no split"


def ended_by(
    others: Sequence[str], winner: str, still_in: Sequence[str], paid: Decimal | None,
    prize: Decimal | None,
) -> str:
    """What an elimination the rules refuse, after the last hand of a game that then ended
    with ``winner`` named, did: its one finding says it (the prize paid early is not a
    second finding; the ledger is judged against the recorded winner, the rules knowing
    none: a blind tester found the prize said only in the explain view, "not compared").
    ``others``: the other refused eliminations after that hand; ``still_in``: the players
    still in by the rules; ``paid``: what the ledger paid ``winner`` in prize rows
    (``None``: no ledger rows); ``prize``: the game's prize by the rules (``None``: no entry
    fee to count it from).

    >>> ended_by([], "A", ["A", "B"], Decimal("180.00"), Decimal("180.00"))
    ' That elimination ended the game: A, the only player left, was named the winner and \
paid the prize of 180.00, while by the rules the game should have gone on (A and B were \
still in).'
    >>> ended_by(["C"], "A", ["A", "B", "C"], None, None)[:57]
    " That elimination, with C's, ended the game: A, the only "
    """
    whose = and_words([f"{p}'s" for p in others])
    lead = f" That elimination, with {whose}," if others else " That elimination"
    return (f"{lead} ended the game: {winner}, the only player left, was named the winner"
            f"{_money(paid, prize)}, while by the rules the game should have gone on "
            f"({and_words(list(still_in))} were still in).")


def _prize_paid(
    game: Game, hands: list[Hand], void: Collection[int], winner: str
) -> tuple[Decimal | None, Decimal | None]:
    """What the ledger paid ``winner`` in prize rows (``None``: no ledger rows), and the
    game's prize by the rules (``None``: no entry fee to count it from)."""
    paid = None if not game.ledger else sum(
        (r.amount for r in game.ledger if r.kind == "prize" and r.player == winner),
        Decimal("0.00"))  # fmt: skip
    fee = game.entry_fee
    return paid, prize_pool(game, hands, fee, void).prize if fee else None


def _money(paid: Decimal | None, prize: Decimal | None) -> str:
    if paid is None or paid == 0:
        return ""
    if prize is None or paid == prize:
        return f" and paid the prize of {paid}"
    return f" and paid {paid} as the prize (the game's prize is {prize})"


def dealt_out(
    found: list[Finding], game: Game, hands: list[Hand], void: Collection[int], winner: str
) -> list[Finding]:
    """``found`` with the findings of eliminations the rules refuse before the last hand,
    of players then dealt into no later hand of a game that ended with ``winner`` the one
    player left, saying what they did: the game went on without them and was won and paid
    while by the rules they were still in (a blind tester read only "B is still in" of a
    game whose prize had gone to another). The prize is not a second finding: the game
    ended, by the record, with one player left."""
    refusals = [f for f in found if (f.check, f.recorded) == ("pool.elimination", "eliminated")
                and f.player_id is not None and f.player_id != winner]  # fmt: skip
    if not refusals:  # an honest game: nothing to say, nothing counted
        return found
    last = hands[-1]
    later: dict[str, int] = {}
    for hand in hands:
        for player in hand.seats:
            later[player] = hand.hand_no
    money = _money(*_prize_paid(game, hands, void, winner))
    out = []
    for f in found:
        if any(f is r for r in refusals) and f.player_id is not None:
            refused = next((h.hand_no for h in hands if h.hand_id == f.hand_id), None)
            if refused is not None and refused < last.hand_no and later.get(
                    f.player_id, 0) <= refused:  # fmt: skip
                f = replace(f, message=(
                    f"{f.message} {f.player_id} was dealt into no later hand: the game went "
                    f"on without them and the record ends it after hand {last.hand_no}, "
                    f"{winner} named the winner{money}, while by the rules "
                    f"{f.player_id} was still in it."))  # fmt: skip
        out.append(f)
    return out


def ended_early(
    found: list[Finding], game: Game, hands: list[Hand], void: Collection[int], last: Hand,
    winner: str, others: list[str], active: list[str],
) -> list[Finding]:
    """``found`` with the findings of the eliminations after the ``last`` hand that the
    rules refuse (``others``), which left ``winner`` alone to be named the winner and paid,
    saying so (``ended_by``): the prize paid early is that fault's, not a second finding
    (the ledger is judged against the recorded winner, the rules knowing none). ``void``:
    the rebuys the pool check counts in no entry (``prize.prize_pool``)."""
    paid, prize = _prize_paid(game, hands, void, winner)
    out = []
    for f in found:
        if (f.check, f.hand_id, f.recorded) == ("pool.elimination", last.hand_id,
                                                "eliminated") and f.player_id in others:
            also = [p for p in others if p != f.player_id]
            f = replace(f, message=f.message + ended_by(also, winner, active, paid, prize))
        out.append(f)
    return out


def kept_in(found: list[Finding], named: Sequence[str | None], winner: str, over: int | None,
            last: Hand) -> list[Finding] | None:  # fmt: skip
    """``found`` with the one finding that the recorded winner (``named``) was out by the
    rules with no elimination recorded (its ``pool.elimination``) saying that this left
    ``winner`` the last player in (after hand ``over``, where the record dealt on to the
    ``last`` hand), and whom the record named: the wrong winner is that fault's, not a
    second ``pool.winner`` (a blind tester: one elimination missed was three findings, where
    one refused was one); None where there is no such finding."""
    missed = [f for f in found if f.check == "pool.elimination" and f.player_id in named
              and f.expected == "eliminated" and f.recorded is None]  # fmt: skip
    refused = any(f.check == "pool.elimination" and f.recorded == "eliminated" for f in found)
    if len(named) != 1 or len(missed) != 1 or refused:  # the winner rests on that one alone
        return None
    then = (f" after hand {over}: by the rules {winner} won the game then, but the record "
            f"dealt on to hand {last.hand_no} and names {named[0]} the winner." if over else
            f": by the rules {winner} won the game, but the record names {named[0]} the "
            "winner.")  # fmt: skip
    words = f" That left {winner} the last player in{then}"
    return [replace(f, message=f.message + words) if f is missed[0] else f for f in found]


def leaver_rebuy(player: str, since: Mapping[str, int], no: int) -> str:
    """The words of a rebuy recorded for ``player``, out by leaving after hand ``no`` (the
    last they are dealt into); ``since``: the hand each player left the game in
    (``leaving.left_at``), which is an earlier one when the record dealt them in again.

    >>> leaver_rebuy("C", {"C": 2}, 2)[:80]
    'C left the game in hand 2 (a drop with reason left) and is dealt into no later h'
    >>> leaver_rebuy("C", {"C": 1}, 2)[52:120]
    'and is dealt into no hand after hand 2, but is recorded as rebuying '
    """
    first = since.get(player, no)
    after = ("no later hand, but is recorded as rebuying after it" if first == no else
             f"no hand after hand {no}, but is recorded as rebuying after hand {no}")
    return (f"{player} left the game in hand {first} (a drop with reason left) and is dealt "
            f"into {after}: a player who left takes no further part, so there is no rebuy.")


def rebuy_not_out(player: str, no: int, leaving: Mapping[int, Collection[str]]) -> str:
    """The words of a rebuy recorded for ``player`` after hand ``no``, where they were not
    eliminated in it; ``leaving``: who is out by leaving after each hand (a blind tester's
    leaver's rebuy was said without that they had left).

    >>> rebuy_not_out("C", 3, {})
    'C is recorded as rebuying after hand 3 without being eliminated in it.'
    >>> "in it: C is out of the game by leaving after hand 1 (a" in rebuy_not_out("C", 3, {1: "C"})
    True
    """
    gone = [n for n, players in sorted(leaving.items()) if player in players and n < no]
    why = (f": {player} is out of the game by leaving after hand {gone[0]} (a drop with reason "
           "left), and takes no further part in it" if gone else "")  # fmt: skip
    return f"{player} is recorded as rebuying after hand {no} without being eliminated in it{why}."
