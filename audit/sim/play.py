"""Hands: the simulated platform's record of what was played, and the play of one hand.

`play_hand` deals a shuffled shoe exactly as the log contract says and plays turns until
a valid declaration or one player left. Everything is drawn from the `random.Random`
passed in and every time is milliseconds since the Unix epoch, so a hand is a pure
function of its arguments.

The records (`GameLog`, `HandLog`, plain tuples for rows) are what the writer turns into
Parquet; a later step can plant anomalies in them before they are written.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from decimal import Decimal
from math import exp

from audit.rules.declaration import check_declaration
from audit.rules.ruleset import DropPenalty, PoolRules, Ruleset
from audit.rules.solver import best_arrangement
from audit.sim.players import PATIENCE, Holding, Profile, Table, declaration

# An event row: (ts, player_id, action, card, groups, auto, reason); seq is its index.
Event = tuple[int, str | None, str, int | None, list[list[int]] | None, bool, str | None]
# A game_events row: (after_hand_no, ts, player_id, action, score, split_kind); seq is its index.
GameEvent = tuple[int, int, str | None, str, int | None, str | None]
# A ledger row: (player_id, kind, amount, ts).
LedgerRow = tuple[str | None, str, Decimal, int]
# A sessions row: (player_id, client, ip, device_id, joined_at, left_at).
SessionRow = tuple[str, str, str, str, int, int]

SHOW_OMITTED = 0.1  # share of losers the server arranges (no `show` row)
LEAVE_RATE = 0.02  # share of points hands in which a player leaves the table


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSpec:
    """A physical table: its format, rules and stakes, the same for every game on it."""

    table_id: str
    format: str
    rules: Ruleset
    max_players: int
    chip_type: str
    deals_count: int | None
    entry_fee: Decimal | None
    point_value: Decimal | None
    rake_pct: Decimal


@dataclass(slots=True)
class HandLog:
    """One dealt hand: the facts (shoe, events) and, per seat, the outcome recorded."""

    hand_id: str
    hand_no: int
    seats: list[tuple[int, str]]
    shoe: list[int]
    wild: int
    open: int
    started: int
    ended: int
    events: list[Event]
    outcomes: list[str]
    points: list[int]
    score_after: list[int | None]
    """Pool: each seat's running score (filled in by the game)."""
    amounts: list[Decimal | None]
    """Points: money; deals: chips (filled in by the game)."""
    left: dict[str, int]
    """Players who left the table during the hand, and when."""


@dataclass(slots=True)
class GameLog:
    game_id: str
    table: TableSpec
    decks: int
    printed_jokers: int
    started: int
    ended: int = 0
    hands: list[HandLog] = field(default_factory=list)
    game_events: list[GameEvent] = field(default_factory=list)
    ledger: list[LedgerRow] = field(default_factory=list)
    sessions: list[SessionRow] = field(default_factory=list)


def think(rng: random.Random, median_s: float) -> int:
    """A human think time in ms: log-normal around ``median_s``, kept within 1-20 s.

    >>> rng = random.Random(1)
    >>> times = [think(rng, 4.0) for _ in range(1000)]
    >>> min(times) >= 1_000, max(times) <= 20_000, 3_500 < sorted(times)[500] < 4_500
    (True, True, True)
    """
    return min(20_000, max(1_000, int(1000 * median_s * exp(rng.gauss(0.0, 0.6)))))


# ------------------------------------------------------------------ one hand


@dataclass(slots=True, kw_only=True)
class Deal:
    """What a hand needs from its game."""

    hand_id: str
    hand_no: int
    seats: list[tuple[int, Profile]]
    """In turn order: ``seats[0]`` acts first."""
    shoe: list[int]
    rules: Ruleset
    start: int
    drops: DropPenalty | None
    pool: PoolRules | None = None
    scores: list[int] | None = None
    """Pool: each seat's running score, so nobody drops into elimination."""
    may_leave: bool = False


def play_hand(deal: Deal, rng: random.Random) -> HandLog:
    """Shuffle the shoe, deal it as the contract says and play until a valid declaration
    or one player left; then the others show, and each seat's outcome and points are
    what docs/replay.md gives."""
    rules, drops = deal.rules, deal.drops
    n, k = len(deal.seats), rules.cards_per_hand
    shoe = list(deal.shoe)
    rng.shuffle(shoe)
    dealt = n * k
    wild, open_card = shoe[dealt], shoe[dealt + 1]
    stock = shoe[: dealt + 1 : -1]  # reversed: pop() takes shoe[n*k+2] first
    table = Table.for_wild_card(rules, wild)
    is_joker = table.is_joker
    hands = [Holding(shoe[i:dealt:n], table, p.style) for i, (_, p) in enumerate(deal.seats)]
    ids = [profile.player_id for _, profile in deal.seats]
    events: list[Event] = []
    emit = events.append
    ts = deal.start
    pile = [open_card]
    open_untouched = True  # the pile is still the open card alone: a joker there may be taken
    outcomes = [""] * n  # "" while the player is in the hand
    points = [0] * n
    drawn = [False] * n
    turns = [0] * n
    left: dict[str, int] = {}

    def out(seat: int, outcome: str, charged: int) -> int:
        """Seat ``seat`` is out of the hand; the seat left alone in it, or -1."""
        outcomes[seat], points[seat] = outcome, charged
        still_in = [s for s in range(n) if not outcomes[s]]
        return still_in[0] if len(still_in) == 1 else -1

    leave_turn, leaver = 0, 0
    if deal.may_leave and rng.random() < LEAVE_RATE:
        leave_turn, leaver = rng.randrange(1, 30), rng.randrange(n)
    turn, i, winner, declared = 0, n - 1, -1, False
    while winner < 0:
        turn += 1
        if turn == leave_turn and not outcomes[leaver] and drops is not None:
            ts += think(rng, 3.0)
            emit((ts, ids[leaver], "drop", None, None, True, "left"))
            left[ids[leaver]] = ts
            winner = out(leaver, *_dropped(drops, drawn[leaver]))
            if winner >= 0:
                break
        i = (i + 1) % n
        while outcomes[i]:
            i = (i + 1) % n
        hand, player = hands[i], ids[i]
        if (
            drops is not None
            and hand.drops(drawn=drawn[i], turns=turns[i], rng=rng)
            and not _eliminated_by(deal, i, drops.middle if drawn[i] else drops.first)
        ):
            ts += think(rng, 2.5)
            emit((ts, player, "drop", None, None, False, "player"))
            winner = out(i, *_dropped(drops, drawn[i]))
            continue
        if not stock:
            new_stock = pile[:-1]
            rng.shuffle(new_stock)
            ts += 300
            emit((ts, None, "reshuffle", None, [new_stock], False, None))
            stock, pile = new_stock[::-1], pile[-1:]
        ts += think(rng, 2.0)
        joker_allowed = rules.joker_from_discard == "allowed" or (
            rules.joker_from_discard == "open_card_only" and open_untouched
        )
        open_untouched = False
        drawn[i] = True
        keep = -1
        if pile and hand.takes(pile[-1], joker_allowed=joker_allowed, rng=rng):
            card = keep = pile.pop()
            emit((ts, player, "draw_discard", card, None, False, None))
        else:
            card = stock.pop()
            emit((ts, player, "draw_stock", card, None, False, None))
            if rng.random() < hand.style.timeout:  # the server throws the card drawn
                ts += 30_000
                emit((ts, player, "discard", card, None, True, "timeout"))
                pile.append(card)
                turns[i] += 1
                continue
        fits = is_joker[card] or hand.gain(card) > 0
        hand.add(card)
        loose, partnered, pure, worst = hand.assess(keep)
        # A player looks for a declaration when the hand may be complete at a glance, and
        # after a failed look only again once a card that fits comes in.
        tired = turns[i] >= PATIENCE
        if (fits or tired or not hand.stale) and hand.may_be_complete(
            loose, partnered, pure, glance=not tired
        ):
            rash = not rules.invalid_ends_hand and rng.random() < hand.style.rash
            found = declaration(hand.cards, table, rash_finish=worst if rash else None)
            hand.stale = found is None
            if found is not None:
                finish, groups = found
                hand.remove(finish)
                ts += think(rng, 6.0)
                emit((ts, player, "declare", finish, groups, False, None))
                if check_declaration(hand.cards, groups, table.jokers, rules).valid:
                    winner, declared = i, True
                else:
                    winner = out(i, "invalid_declare", rules.invalid_penalty)
                continue
        worst = hand.throw(worst, keep=keep, tired=tired, rng=rng)
        hand.remove(worst)
        pile.append(worst)
        ts += think(rng, 4.0)
        emit((ts, player, "discard", worst, None, False, None))
        turns[i] += 1
    outcomes[winner] = "won"
    losers = [(winner + step) % n for step in range(1, n)] if declared else []
    for j in losers:
        if outcomes[j]:
            continue
        best, groups = best_arrangement(hands[j].cards, table.jokers, rules)
        cap = rules.cap if turns[j] else rules.first_hand_show_cap
        outcomes[j], points[j] = "lost", min(best, cap)
        if rng.random() >= SHOW_OMITTED:
            ts += think(rng, 5.0)
            emit((ts, ids[j], "show", None, groups, False, None))
    return HandLog(
        hand_id=deal.hand_id,
        hand_no=deal.hand_no,
        seats=[(seat, profile.player_id) for seat, profile in deal.seats],
        shoe=shoe,
        wild=wild,
        open=open_card,
        started=deal.start,
        ended=ts,
        events=events,
        outcomes=outcomes,
        points=points,
        score_after=[None] * n,
        amounts=[None] * n,
        left=left,
    )


def _dropped(drops: DropPenalty, drawn: bool) -> tuple[str, int]:
    return ("middle_drop", drops.middle) if drawn else ("first_drop", drops.first)


def _eliminated_by(deal: Deal, seat: int, penalty: int) -> bool:
    """Would ``penalty`` knock the player out of a pool game? Nobody drops into that."""
    if deal.pool is None or deal.scores is None:
        return False
    return deal.pool.is_eliminated(deal.scores[seat] + penalty)
