"""The record read otherwise: the ways a platform's log can be one mistake away from the
game it played, each replayed, and the one that explains the record best kept, with one
finding for the mistake (docs/replay.md, "The deal" and Turns).

Replayed as it reads, one mistake in a log is rarely one finding: every later step read
through it is off too, and the worst of them judge an innocent player (a valid declaration
judged invalid, the win moved). Each reading below is the hand as it must have been dealt
or played if one fact of the record is wrong: the wild card (``redeal.dealt_wild``), the
seats' order (``redeal.reseat``), the stock's order (``stock.restock``), a row's player or
place, or a row missing (``rows``), the deal (``redeal.redeal``), and a results row in
the name of a player not dealt in (``renamed_result``). ``outcome.audit_hand`` replays
each and keeps the one with the fewest findings in all, fewer than the record as it
reads, that leaves none of the findings it must explain (``Reading.leaves``); its one
finding then stands for the mistake. A tie keeps the record as it reads. Only a hand
with a finding of the kind a reading explains is read again, so an honest night pays
nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import NamedTuple

from audit.findings import Finding, finding_at
from audit.records import Hand
from audit.replay.redeal import (
    CARD_CHECKS,
    dealt_otherwise,
    dealt_wild,
    moved,
    redeal,
    reseat,
    seated_otherwise,
    turned_up,
)
from audit.replay.rows import ROWS, inserted, reassigned, strangers, swapped
from audit.replay.stock import reopened, restock, stocked_otherwise
from audit.rules.ruleset import Ruleset, cite


class Reading(NamedTuple):
    """The hand as the record may have been dealt or played instead of as it reads."""

    hand: Hand
    said: Finding
    """The one finding that says so."""
    leaves: tuple[str, ...]
    """The checks (by prefix) none of which its replay may leave: what it must explain."""
    ties: bool = False
    """It stands against the record as it reads at as few findings as the record's: a card
    a seat played that the shoe deals to a seat that never plays it, and nothing else out
    of place (``redeal.moved``), is one finding either way, and this one says where the
    card came from (a blind tester's 14 cards dealt to one player, 12 to the other, were
    "a card they did not hold" until 2026-12-06)."""


_CARDS = tuple(sorted(CARD_CHECKS))
"""A reading of the deal, the seats or the stock must leave no card out of place."""


def otherwise(hand: Hand, findings: list[Finding], k: int, rules: Ruleset) -> Iterator[Reading]:
    """The readings of the hand for the caller to replay and keep where one explains the
    record better (no card out of place, or for a row read otherwise no row's finding left,
    and fewer findings in all): with the deal's wild card where the recorded one is another
    (``dealt_wild``), in the order of play where a turn is out of order (``reseat``), with
    the stock in the order drawn where a stock draw is not its top (``restock``), with a
    row in the name of the player whose turn it was or two rows exchanged (``rows``), and
    redealt where a card is out of place (``redeal``)."""
    wild = dealt_wild(hand, findings, k)
    if wild is not None:
        yield Reading(*wild, _CARDS)
    turn = next((f for f in findings if f.check == "turn.order"), None)
    if turn is not None:
        for seats in reseat(hand):
            said = seated_otherwise(turn, hand.seats, seats, rules)
            yield Reading(replace(hand, seats=seats), said, _CARDS)
    drew = next((f for f in findings if f.check == "draw.stock_mismatch"), None)
    if drew is not None:
        swapped_open = reopened(hand, findings, k, rules)
        if swapped_open is not None:
            yield Reading(*swapped_open, (*_CARDS, "draw.stock_mismatch"))
        stocked = restock(hand, k)
        if stocked is not None:
            yield Reading(stocked[0], stocked_otherwise(drew, stocked[1], rules), _CARDS)
    for other, said in [*reassigned(hand, findings, rules), *strangers(hand, findings, rules),
                        *swapped(hand, findings), *inserted(hand, findings, k)]:  # fmt: skip
        yield Reading(other, said, ROWS)
    first = next((f for f in findings if f.check in CARD_CHECKS), None)
    if first is not None:
        redealt = redeal(hand, k)
        if redealt is not None:
            turned = turned_up(hand, redealt, findings, k, rules)
            said = dealt_otherwise(first, redealt, rules) if turned is None else turned
            yield Reading(redealt.hand, said, _CARDS)
        shifted = moved(hand, k)
        if shifted is not None:
            yield Reading(shifted.hand, dealt_otherwise(first, shifted, rules), _CARDS, True)


RESULTS = ("score.outcome",)
"""A results row read in another name must leave no finding of who has a result."""


def renamed_result(hand: Hand, findings: list[Finding], rules: Ruleset) -> Reading | None:
    """The hand with the one results row of a player not dealt in given to the one player
    dealt in who has none (both ``score.outcome``): a row written in another player's name
    is one fact, not a stranger's result and a missing one, and the game's money then
    reads through it (a blind tester's 60 such rows: 3 findings each, the ledger left
    unchecked in 34 games). The caller keeps it where the row is what the rules give the
    player (no ``score.outcome`` left)."""
    outcomes = [f for f in findings if f.check == "score.outcome" and f.player_id]
    seated = set(hand.seats)
    lacking = [f for f in outcomes if f.player_id in seated and f.recorded is None]
    strangers = [f for f in outcomes if f.player_id not in seated]
    if len(lacking) != 1 or len(strangers) != 1:
        return None
    (owner,), (stranger,) = lacking, strangers
    player = owner.player_id or ""
    rows = [r for r in hand.results if r.player == stranger.player_id]
    if len(rows) != 1 or any(r.player == player for r in hand.results):
        return None
    row = rows[0]
    results = [r._replace(player=player) if r is row else r for r in hand.results]
    said = finding_at(
        owner, "score.outcome", expected=player, recorded=row.player,
        rule=cite(rules, "results.player_id"),
        message=f"{player}'s result ({row.outcome}, {row.points} points) is recorded in the "
        f"name of {row.player}, who was not dealt in; {player} has no result row of their own.",
    )  # fmt: skip
    return Reading(replace(hand, results=results), said, RESULTS)
