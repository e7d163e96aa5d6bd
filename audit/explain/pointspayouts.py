"""The sums of a points game's money in explain GAME: each player's settlement against what
the rules settle in their hands, and the rake, from the ledger check's own arithmetic
(``audit.games.ledger.points_owed``); a hand settled as recorded (its verdict refused) is
said so beside the sums that rest on it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from decimal import Decimal

from audit.explain.handmoney import ZERO
from audit.explain.ledgerview import Payout, signed
from audit.games.ledger import BALANCE_RULE, points_owed, settle_by_rules
from audit.records import Game, Hand, RulesSay, and_words
from audit.rules.ruleset import Ruleset


def points_payouts(
    hands: list[Hand], game: Game, rules: Ruleset, said: RulesSay
) -> tuple[Payout, ...]:
    """Each player's settlement against what the rules settle in their hands; the rake
    rows against the rules' rakes of the hands (``ledger.points_owed``)."""
    owed = points_owed(game, hands, rules, said)
    by_rules: dict[str, list[str]] = defaultdict(list)
    for h in hands:
        settled_here = settle_by_rules(h, game, rules, said.get(h.hand_id))
        if not isinstance(settled_here, str):
            for player, amount in settled_here[0].items():
                by_rules[player].append(f"hand {h.hand_no} {signed(amount)}")
    settled: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for row in game.ledger:
        if row.kind == "points_settlement" and row.player is not None:
            settled[row.player] += row.amount
    cite = [BALANCE_RULE]
    if "money.points_settlement" in rules.rules:
        cite.append(rules.cite("money.points_settlement"))
    if rules.value_cards is not None and "points.value_cards" in rules.rules:
        cite.append(rules.cite("points.value_cards"))  # its choice gives the money with values
    # A hand settled as recorded (its verdict refused) is in the sums as recorded: a sum
    # that rests on such hands alone is not compared with the rules, and one that rests on
    # some says so beside its "agrees" (a blind tester read "8.55 by the rules, 8.55
    # recorded: agrees" of a hand the rules refuse).
    taken = {hand_id for hand_id, _ in owed.as_recorded}
    out = []
    for player in sorted(set(owed.won) | set(settled)):
        amounts = [
            f"hand {h.hand_no} {signed(r.amount)}"
            for h in hands for r in h.results if r.player == player and r.amount is not None
        ]  # fmt: skip
        theirs = [h for h in hands if player in {r.player for r in h.results}]
        out.append(
            _as_recorded(
                Payout(
                    what="points settlement",
                    player=player,
                    rules_give=str(owed.won.get(player, ZERO)),
                    recorded=str(settled.get(player, ZERO)),
                    how="by the rules, "
                    + (", ".join(by_rules[player]) or "none")
                    + "; the amounts recorded for their hands: "
                    + (", ".join(amounts) or "none")
                    + owed.caveat(),
                    rules=tuple(cite),
                ),
                theirs,
                taken,
            )
        )
    rake = Payout(
        what="rake",
        player="",
        rules_give=str(owed.rake),
        recorded=str(sum((r.amount for r in game.ledger if r.kind == "rake"), ZERO)),
        how="the rules' rake of each hand (on what the losers pay the winner), over the "
        "hands" + owed.caveat(),
        rules=tuple(cite),
    )
    out.append(_as_recorded(rake, hands, taken))
    return tuple(out)


def _as_recorded(p: Payout, hands: list[Hand], taken: set[str]) -> Payout:
    """``p``, a sum over ``hands``, where some are settled as recorded (``taken``): not
    compared when all are, else its "agrees" said with those hands counted as recorded."""
    counted = [h for h in hands if h.hand_id in taken]
    if not counted:
        return p
    named = and_words([f"hand {h.hand_no}" for h in counted])
    if len(counted) == len(hands):
        return replace(p, judged=p.rules_give, counted=named)
    return replace(p, counted=named)
