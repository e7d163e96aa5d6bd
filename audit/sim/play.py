"""Hands: the simulated platform's record of what was played, and the play of one hand.

`play_hand` deals a shuffled shoe exactly as the log contract says and plays turns until
a valid declaration or one player left. Everything is drawn from the `random.Random`
passed in and every time is milliseconds since the Unix epoch, so a hand is a pure
function of its arguments.

The records (`GameLog`, `HandLog`, plain tuples for rows) are what the writer turns into
Parquet; a later step can plant anomalies in them before they are written.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from math import exp
from statistics import NormalDist

from audit.cards import CODE_TEXT, JOKER
from audit.records import Shuffle
from audit.rules.counts import alternative, ready_reason
from audit.rules.declaration import check_declaration
from audit.rules.ruleset import DropPenalty, PoolRules, Ruleset
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_arrangement, best_points
from audit.shuffle.commitment import ALGORITHM, shuffled
from audit.sim.anomalies import Label, label
from audit.sim.players import (
    PATIENCE,
    Holding,
    Profile,
    Table,
    declaration,
    rash_declaration,
)

# An event row: (ts, player_id, action, card, groups, auto, reason); seq is its index (the
# meld an open-melds action targets is in ``HandLog.melds``).
Event = tuple[int, str | None, str, int | None, list[list[int]] | None, bool, str | None]
# A game_events row: (after_hand_no, ts, player_id, action, score, split_kind); seq is its index.
GameEvent = tuple[int, int, str | None, str, int | None, str | None]
# A ledger row: (player_id, kind, amount, ts).
LedgerRow = tuple[str | None, str, Decimal, int]
# A sessions row: (player_id, client, ip, device_id, joined_at, left_at).
SessionRow = tuple[str, str, str, str, int, int]

SHOW_OMITTED = 0.1  # share of losers the server arranges (no `show` row)
LEAVE_RATE = 0.02  # share of points hands in which a player leaves the table
BIAS = 0.3
"""How often a biased shuffler moves a printed joker onto the first seat's first card."""
BOT_THINK_MS, BOT_JITTER_MS = 1_200, 40
"""A bot's think time: the same for every decision, give or take a few milliseconds."""
TAMPER_AFTER = 3
"""Own turns a player has had before a planted draw or declaration is made for them."""
FEEDING = frozenset({"collusion_feeding", "collusion_ring", "chip_dumping"})
"""Collusion schemes in which an account throws the next account the cards it needs."""


@dataclass(frozen=True, slots=True)
class Collusion:
    """Planted accounts colluding at one table (`audit.sim.anomalies`): the kind, and the
    accounts in the order they help each other, each the next. A pair: the colluder feeds,
    soft-drops for or dumps chips to the partner (``multi_account``: the two accounts of
    one person, who need do nothing); a ring: the first feeds the second, the second the
    third. In a hand, a link works while both its accounts are in it.

    >>> Collusion("collusion_ring", ("P1", "P2", "P3")).links
    (('P1', 'P2'), ('P2', 'P3'))
    """

    kind: str
    accounts: tuple[str, ...]

    @property
    def links(self) -> tuple[tuple[str, str], ...]:
        """(helper, helped) accounts, in order."""
        return tuple(zip(self.accounts, self.accounts[1:], strict=False))


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
    biased: bool = False
    """The table's shuffler is biased (a planted anomaly)."""
    fair: bool = False
    """The table shuffles provably fairly: every hand records its seeds' commitment."""


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
    labels: list[Label] = field(default_factory=list)
    """Anomalies planted in the hand."""
    shuffle: Shuffle | None = None
    """The provably-fair commitment of a fair table's hand."""
    held: list[list[int]] = field(default_factory=list)
    """Each seat's cards when the hand ended (a declarer's without the finish card): the
    value cards of 21 and 27 cards are counted on them."""
    melds: dict[int, int] = field(default_factory=dict)
    """Open melds: the table meld each ``lay_off`` (by its seq) targets (``events.meld``,
    contract version 2); melds are numbered 0, 1, ... in the order laid in the hand."""


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
    labels: list[Label] = field(default_factory=list)
    """Anomalies planted in the game (its hands' included)."""
    plant: str | None = None
    """A tampering kind still to plant in the game (`audit.sim.anomalies`)."""
    collusion: Collusion | None = None
    """A planted pair or ring sitting at the table, colluding."""


def think(rng: random.Random, median_s: float) -> int:
    """A human think time in ms: log-normal around ``median_s``, kept within 1-20 s.

    >>> rng = random.Random(1)
    >>> times = [think(rng, 4.0) for _ in range(1000)]
    >>> min(times) >= 1_000, max(times) <= 20_000, 3_500 < sorted(times)[500] < 4_500
    (True, True, True)
    """
    return _think_times(median_s)[rng.getrandbits(_THINK_BITS)]


_THINK_BITS = 12


@cache
def _think_times(median_s: float) -> tuple[int, ...]:
    """The log-normal think times around ``median_s`` (sigma 0.6) at 4,096 evenly spaced
    quantiles, kept within 1-20 s: one of them drawn uniformly is a think time, at the cost
    of one random number."""
    spread = NormalDist(0.0, 0.6)
    steps = 1 << _THINK_BITS
    return tuple(
        min(20_000, max(1_000, int(1000 * median_s * exp(spread.inv_cdf((k + 0.5) / steps)))))
        for k in range(steps)
    )


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
    plant: str | None = None
    """A hand-level anomaly to plant: ``stacked_shoe``, ``non_top_draw`` or
    ``invalid_declaration`` (see `audit.sim.anomalies`)."""
    collusion: Collusion | None = None
    """A planted pair or ring at the table (its links work between accounts in the hand)."""
    bots: frozenset[int] = frozenset()
    """Seat indices of bots."""
    biased: bool = False
    """The table's shuffler is biased."""
    fair: bool = False
    """The table shuffles provably fairly (`audit.shuffle.commitment`)."""


def play_hand(deal: Deal, rng: random.Random) -> HandLog:
    """Shuffle the shoe, deal it as the contract says and play until a valid declaration
    or one player left; then the others show, and each seat's outcome and points are
    what docs/replay.md gives."""
    rules, drops = deal.rules, deal.drops
    n, k = len(deal.seats), rules.cards_per_hand
    dealt = n * k
    ids = [profile.player_id for _, profile in deal.seats]
    shoe, commitment, planted = shuffle_shoe(deal, rng)
    wild, open_card = shoe[dealt], shoe[dealt + 1]
    stock = shoe[: dealt + 1 : -1]  # reversed: pop() takes shoe[n*k+2] first
    table = Table.for_wild_card(rules, wild)
    is_joker = table.is_joker
    hands = [Holding(shoe[i:dealt:n], table, p.style) for i, (_, p) in enumerate(deal.seats)]
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
    bots = deal.bots
    plant = deal.plant
    links = _links(deal.collusion, ids)
    helps, helped_by = [-1] * n, [-1] * n  # the seat each seat helps, and is helped by
    for giver, taker in links:
        helps[giver], helped_by[taker] = taker, giver
    scheme = deal.collusion.kind if deal.collusion is not None else ""
    feeds, dumps, softs = scheme in FEEDING, scheme == "chip_dumping", scheme == "soft_drop"
    fed: list[tuple[int, int]] = []  # (seat, card): cards a seat took from its helper's throw
    last_thrower = -1

    leave_turn, leaver = 0, 0
    if deal.may_leave and rng.random() < LEAVE_RATE:
        leave_turn, leaver = rng.randrange(1, 30), rng.randrange(n)
    turn, i, winner, declared = 0, n - 1, -1, False
    while winner < 0:
        turn += 1
        if turn == leave_turn and not outcomes[leaver] and drops is not None:
            ts += _wait(bots, rng, leaver, 3.0)
            emit((ts, ids[leaver], "drop", None, None, True, "left"))
            left[ids[leaver]] = ts
            winner = _out(outcomes, points, leaver, *_dropped(drops, drawn[leaver]))
            if winner >= 0:
                break
        i = (i + 1) % n
        while outcomes[i]:
            i = (i + 1) % n
        hand, player = hands[i], ids[i]
        helped = helps[i]
        dumping = dumps and helped >= 0
        soft = softs and helped >= 0 and not drawn[i] and not outcomes[helped] and hand.looks_good()
        if (
            drops is not None
            and not dumping
            and (soft or hand.drops(drawn=drawn[i], turns=turns[i], rng=rng))
            and not _eliminated_by(deal, i, drops.middle if drawn[i] else drops.first)
        ):
            ts += _wait(bots, rng, i, 2.5)
            if soft:
                planted.append(
                    label(
                        "soft_drop",
                        hand_id=deal.hand_id,
                        seq=len(events),
                        players=(player, ids[helped]),
                        details=f"{player} dropped a good hand at once while {ids[helped]} "
                        "played on",
                    )
                )
            emit((ts, player, "drop", None, None, False, "player"))
            winner = _out(outcomes, points, i, *_dropped(drops, drawn[i]))
            continue
        if not stock:
            new_stock = pile[:-1]
            rng.shuffle(new_stock)
            ts += 300
            emit((ts, None, "reshuffle", None, [new_stock], False, None))
            stock, pile = new_stock[::-1], pile[-1:]
        ts += _wait(bots, rng, i, 2.0)
        joker_allowed = rules.joker_from_discard == "allowed" or (
            rules.joker_from_discard == "open_card_only" and open_untouched
        )
        open_untouched = False
        drawn[i] = True
        keep = -1
        fed_to = feeds and last_thrower >= 0 and last_thrower == helped_by[i]
        if pile and (
            (fed_to and not is_joker[pile[-1]] and hand.gain(pile[-1]) > 0)
            or hand.takes(pile[-1], joker_allowed=joker_allowed, rng=rng)
        ):
            card = keep = pile.pop()
            if fed_to:
                fed.append((i, card))
            emit((ts, player, "draw_discard", card, None, False, None))
        else:
            if plant == "non_top_draw" and turns[i] >= TAMPER_AFTER and len(stock) > 6:
                card = _rigged(stock, hand)
                if card != stock[-1]:
                    planted.append(
                        label(
                            "non_top_draw",
                            hand_id=deal.hand_id,
                            seq=len(events),
                            players=(player,),
                            details=f"{player} was handed {CODE_TEXT[card]} from below the "
                            f"stock's top card {CODE_TEXT[stock[-1]]}",
                        )
                    )
                    plant = None
                del stock[len(stock) - 1 - stock[::-1].index(card)]
            else:
                card = stock.pop()
            emit((ts, player, "draw_stock", card, None, False, None))
            if i not in bots and rng.random() < hand.style.timeout:  # the server throws it
                ts += 30_000
                emit((ts, player, "discard", card, None, True, "timeout"))
                pile.append(card)
                last_thrower = i
                turns[i] += 1
                continue
        fits = is_joker[card] or hand.gain(card) > 0
        hand.add(card)
        loose, partnered, pure, worst = hand.assess(keep)
        # A player looks for a declaration when the hand may be complete at a glance, and
        # after a failed look only again once a card that fits comes in.
        tired = turns[i] >= PATIENCE
        if plant == "invalid_declaration" and turns[i] >= TAMPER_AFTER:
            finish, groups = declaration(hand.cards, table) or rash_declaration(
                hand.cards, table, worst
            )
            hand.remove(finish)
            if not _valid(hand.cards, groups, table):
                planted.append(
                    label(
                        "invalid_declaration",
                        hand_id=deal.hand_id,
                        seq=len(events),
                        players=(player,),
                        details=f"{player}'s declaration breaks the rules but was recorded "
                        "as a win",
                    )
                )
            ts += _wait(bots, rng, i, 6.0)
            emit((ts, player, "declare", finish, groups, False, None))
            winner, declared = i, True
            continue
        if (
            not dumping
            and (fits or tired or not hand.stale)
            and hand.may_be_complete(loose, partnered, pure, glance=not tired)
        ):
            rash = not rules.invalid_ends_hand and rng.random() < hand.style.rash
            found = declaration(hand.cards, table)
            # Valid as found, where jokers left over may be a group of their own.
            valid = found is not None and rules.jokers_only_group == "leftover"
            if found is None and rash:
                found = rash_declaration(hand.cards, table, worst)
            hand.stale = found is None
            if found is not None:
                finish, groups = found
                hand.remove(finish)
                ts += _wait(bots, rng, i, 6.0)
                emit((ts, player, "declare", finish, groups, False, None))
                if valid or _valid(hand.cards, groups, table):
                    winner, declared = i, True
                else:
                    winner = _out(outcomes, points, i, "invalid_declare", rules.invalid_penalty)
                continue
        if feeds and helped >= 0 and not outcomes[helped]:
            worst = _feed(hand, hands[helped], keep, worst, dump=dumping)
        else:
            worst = hand.throw(worst, keep=keep, tired=tired, rng=rng)
        hand.remove(worst)
        pile.append(worst)
        last_thrower = i
        ts += _wait(bots, rng, i, 4.0)
        emit((ts, player, "discard", worst, None, False, None))
        turns[i] += 1
    outcomes[winner] = "won"
    losers = [(winner + step) % n for step in range(1, n)] if declared else []
    for j in losers:
        if outcomes[j]:
            continue
        cap = rules.cap if turns[j] else rules.first_hand_show_cap
        omitted = rng.random() < SHOW_OMITTED  # the server arranges the cards: no groups shown
        if omitted and rules.ready_hand is None:
            best = best_points(hands[j].cards, table.jokers, rules)
            outcomes[j], points[j] = "lost", min(best, cap)
            continue
        best, groups = best_arrangement(hands[j].cards, table.jokers, rules)
        outcomes[j], points[j] = "lost", min(_charged(hands[j].cards, best, groups, table), cap)
        if omitted:
            continue
        ts += _wait(bots, rng, j, 5.0)
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
        labels=planted + _collusion(deal, ids, links, fed, outcomes, points),
        shuffle=commitment,
        held=[list(hand.cards) for hand in hands] if rules.value_cards is not None else [],
    )


def shuffle_shoe(deal: Deal, rng: random.Random) -> tuple[list[int], Shuffle | None, list[Label]]:
    """The hand's shoe, shuffled (a fair table from fresh seeds, whose commitment is
    returned), with what the table's faults or a planted anomaly did to it before the deal
    (a biased shuffler, a rigged or stacked shoe), and the labels of what was planted."""
    n = len(deal.seats)
    shoe = list(deal.shoe)
    commitment = None
    if deal.fair:
        commitment = _commit(rng, deal.hand_id)
        shuffled(commitment, shoe)  # deal.shoe is the shoe in canonical order
    else:
        rng.shuffle(shoe)
    dealt = n * deal.rules.cards_per_hand
    ids = [profile.player_id for _, profile in deal.seats]
    planted: list[Label] = []
    if deal.plant == "rigged_shuffle" and commitment is not None:
        planted.append(_rig(shoe, rng.randrange(n), dealt, deal.hand_id, ids))
    if deal.biased and rng.random() < BIAS and JOKER in shoe:
        at = shoe.index(JOKER)
        shoe[0], shoe[at] = shoe[at], shoe[0]
    if deal.plant == "stacked_shoe":
        planted.append(_stack(shoe, rng.randrange(n), n, dealt, deal.hand_id, ids))
    return shoe, commitment, planted


def _valid(cards: list[int], groups: list[list[int]], table: Table) -> bool:
    """Is a declaration of ``groups`` (``cards``: the declarer's, less the finish card)
    valid: every card in melds meeting the requirement, or (21 and 27 cards) one of the
    other ways to declare (``declaration.alternatives``), whatever the groups?"""
    rules = table.rules
    if check_declaration(cards, groups, table.jokers, rules).valid:
        return True
    return bool(rules.alternatives) and alternative(cards, table.jokers, rules) is not None


def _charged(cards: list[int], best: int, groups: list[list[int]], table: Table) -> int:
    """A loser's points before the cap: the best arrangement's ``best``; but where the rules
    have a ready hand (``points.ready_hand``, 21 and 27 cards: every card in melds meeting
    the requirement, or six dublees, or seven jokers), a ready hand pays the ready-hand
    points (2), whatever its cards."""
    ready = table.rules.ready_hand
    if ready is None:
        return best
    melded = False
    if best == 0:
        score = score_arrangement(groups, table.jokers, table.rules)
        melded = score.requirement_met and not score.counted
    if ready_reason(cards, table.jokers, table.rules, melded) is not None:
        return ready.points
    return best


def _wait(bots: frozenset[int], rng: random.Random, seat: int, median_s: float) -> int:
    """A think time: a bot's machine-regular one, or a person's."""
    if seat in bots:
        return BOT_THINK_MS + rng.randrange(-BOT_JITTER_MS, BOT_JITTER_MS + 1)
    return think(rng, median_s)


def _out(outcomes: list[str], points: list[int], seat: int, outcome: str, charged: int) -> int:
    """Seat ``seat`` is out of the hand; the seat left alone in it, or -1. (Module-level,
    not a closure: a closure would tie the hand's state into a reference cycle.)"""
    outcomes[seat], points[seat] = outcome, charged
    still_in = [s for s in range(len(outcomes)) if not outcomes[s]]
    return still_in[0] if len(still_in) == 1 else -1


def _dropped(drops: DropPenalty, drawn: bool) -> tuple[str, int]:
    return ("middle_drop", drops.middle) if drawn else ("first_drop", drops.first)


def _eliminated_by(deal: Deal, seat: int, penalty: int) -> bool:
    """Would ``penalty`` knock the player out of a pool game? Nobody drops into that."""
    if deal.pool is None or deal.scores is None:
        return False
    return deal.pool.is_eliminated(deal.scores[seat] + penalty)


def _commit(rng: random.Random, hand_id: str) -> Shuffle:
    """A fair table's seeds for one hand, and the commitment published before it."""
    server = f"{rng.getrandbits(128):032x}"
    return Shuffle(
        algorithm=ALGORITHM,
        server_seed=server,
        server_seed_hash=hashlib.sha256(server.encode()).hexdigest(),
        client_seed=f"client-{hand_id}",
        nonce=rng.randrange(1, 1_000_000),
    )


def _rig(shoe: list[int], seat: int, dealt: int, hand_id: str, ids: list[str]) -> Label:
    """Swap seat ``seat``'s first card with the first printed joker (or the first card) of
    the stock, after the commitment: the same cards, another deal."""
    stock = range(dealt + 2, len(shoe))
    jokers = [i for i in stock if shoe[i] == JOKER != shoe[seat]]
    at = jokers[0] if jokers else next(i for i in stock if shoe[i] != shoe[seat])
    given, taken = shoe[at], shoe[seat]
    shoe[seat], shoe[at] = given, taken
    return label(
        "rigged_shuffle",
        hand_id=hand_id,
        players=(ids[seat],),
        details=f"{ids[seat]} was dealt {CODE_TEXT[given]} from the stock in place of "
        f"{CODE_TEXT[taken]} after the shuffle was committed",
    )


def _stack(shoe: list[int], seat: int, n: int, dealt: int, hand_id: str, ids: list[str]) -> Label:
    """Put printed jokers in place of the first two cards dealt to ``seat`` that are not."""
    taken = []
    for at in range(seat, dealt, n):
        if shoe[at] != JOKER:
            taken.append(CODE_TEXT[shoe[at]])
            shoe[at] = JOKER
            if len(taken) == 2:
                break
    return label(
        "stacked_shoe",
        hand_id=hand_id,
        players=(ids[seat],),
        details=f"{ids[seat]} was dealt two extra printed jokers in place of {' and '.join(taken)}",
    )


def _rigged(stock: list[int], hand: Holding) -> int:
    """The card a rigged stock hands over: a joker or a card that completes a meld, from
    the few cards under the top; the top card when there is none."""
    for card in reversed(stock[-6:-1]):
        if hand.table.is_joker[card] or hand.gain(card) == 2:
            return card
    return stock[-1]


def _feed(giver: Holding, taker: Holding, keep: int, worst: int, *, dump: bool) -> int:
    """A colluder's discard: the card that helps the partner most (a card the partner can
    use, or, when dumping chips, also the colluder's own best card)."""
    best, best_gain = worst, 0
    for code in giver.cards:
        if code == keep or giver.table.is_joker[code]:
            continue
        gain = taker.gain(code)
        if gain > best_gain:
            best, best_gain = code, gain
    if best_gain == 0 and dump:  # nothing the partner needs: throw away a meld card
        best = max(
            (c for c in giver.cards if c != keep and not giver.table.is_joker[c]),
            key=lambda c: (giver.table.points[c], c),
            default=worst,
        )
    return best


def _links(collusion: Collusion | None, ids: list[str]) -> list[tuple[int, int]]:
    """A planted group's links that work in a hand: (helper's seat index, helped's), for
    both accounts dealt in; ``ids`` are the hand's players in turn order."""
    if collusion is None:
        return []
    where = {player: i for i, player in enumerate(ids)}
    return [(where[a], where[b]) for a, b in collusion.links if a in where and b in where]


def _collusion(
    deal: Deal,
    ids: list[str],
    links: list[tuple[int, int]],
    fed: list[tuple[int, int]],
    outcomes: list[str],
    points: list[int],
) -> list[Label]:
    """The label of a colluding group's hand, when the scheme showed in it."""
    if deal.collusion is None:
        return []
    scheme, group = deal.collusion.kind, deal.collusion.accounts
    if scheme in ("collusion_feeding", "collusion_ring") and fed:
        said = []
        for helper, helped in links:
            cards = [CODE_TEXT[card] for seat, card in fed if seat == helped]
            if cards:
                said.append(
                    f"{ids[helper]} fed {ids[helped]} {len(cards)} card(s) from the discard "
                    f"pile: {' '.join(cards)}"
                )
        return [label(scheme, hand_id=deal.hand_id, players=group, details="; ".join(said))]
    if scheme == "chip_dumping":
        return [
            label(
                scheme,
                hand_id=deal.hand_id,
                players=group,
                details=f"{ids[helper]} played to lose and gave up {points[helper]} points to "
                f"{ids[helped]}",
            )
            for helper, helped in links
            if outcomes[helped] == "won" and points[helper] > 0
        ]
    return []
