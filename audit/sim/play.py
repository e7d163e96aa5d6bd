"""Hands and games: the simulated platform's record of what was played.

`play_hand` deals a shuffled shoe exactly as the log contract says and plays turns until
a valid declaration or one player left; `play_game` chains hands into a points session,
a pool game (running scores, eliminations, rebuys, splits) or a deals game, and books
the money. Everything is drawn from the `random.Random` passed in and every time is
milliseconds since the Unix epoch, so a game is a pure function of its arguments.

The records (`GameLog`, `HandLog`, plain tuples for rows) are what the writer turns into
Parquet; a later step can plant anomalies in them before they are written.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from math import exp

from audit.cards import shoe_composition
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

PAISA = Decimal("0.01")
SHOW_OMITTED = 0.1  # share of losers the server arranges (no `show` row)
LEAVE_RATE = 0.02  # share of points hands in which a player leaves the table
MORE_HANDS = 0.65  # chance a points session plays another hand
MAX_POINTS_HANDS = 8
JOIN_AHEAD_MS = 60_000  # players join a table up to a minute before the game starts
SPLIT_OFFER, SPLIT_ACCEPTED, REBUY_TAKEN = 0.4, 0.7, 0.6


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


def money(value: Decimal) -> Decimal:
    return value.quantize(PAISA, rounding=ROUND_HALF_UP)


def stable_shoe(rules: Ruleset, players: int) -> bool:
    """The preset deals the same shoe to every smaller table: a game that loses
    players on the way keeps the `decks` and `printed_jokers` it started with."""
    shoe = rules.shoe_for(players)
    return all(rules.shoe_for(n) == shoe for n in range(rules.min_players, players))


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


# ------------------------------------------------------------------ games


def play_game(
    *,
    game_id: str,
    table: TableSpec,
    players: Sequence[tuple[int, Profile]],
    start: int,
    rng: random.Random,
) -> GameLog:
    """One game at ``table`` for ``players`` (in seat order), starting at ``start``."""
    rules = table.rules
    spec = rules.shoe_for(len(players))
    if spec is None:
        raise ValueError(f"{rules.id} deals no shoe for {len(players)} players")
    shoe = sorted(shoe_composition(spec.decks, spec.printed_jokers).elements())
    log = GameLog(game_id, table, spec.decks, spec.printed_jokers, start)
    seated = list(players)
    match table.format:
        case "points":
            gone = _points_game(log, seated, shoe, rng)
        case "pool_101" | "pool_201":
            gone = _pool_game(log, seated, shoe, rng)
        case "deals":
            gone = _deals_game(log, seated, shoe, rng)
        case other:
            raise ValueError(f"unknown game format {other!r}")
    log.ended = max([log.hands[-1].ended, *(row[1] for row in log.game_events)]) + 2_000
    for _, profile in seated:
        client = profile.client
        if rng.random() < 0.1:
            client = "web" if client == "app" else "app"
        joined = start - rng.randrange(2_000, JOIN_AHEAD_MS)
        leaving = gone.get(profile.player_id, log.ended) + rng.randrange(500, 8_000)
        log.sessions.append(
            (profile.player_id, client, profile.ip, profile.device(client), joined, leaving)
        )
    return log


def _next_hand(
    log: GameLog,
    seated: list[tuple[int, Profile]],
    shoe: list[int],
    rng: random.Random,
    *,
    scores: dict[str, int] | None = None,
    may_leave: bool = False,
) -> HandLog:
    """Deal and play the next hand; who acts first moves one seat on each hand."""
    table = log.table
    hand_no = len(log.hands) + 1
    turn = (hand_no - 1) % len(seated)
    seats = seated[turn:] + seated[:turn]
    before = max(
        log.hands[-1].ended if log.hands else log.started,
        log.game_events[-1][1] if log.game_events else 0,
    )
    pool = table.rules.pools.get(table.format)
    deal = Deal(
        hand_id=f"{log.game_id}-{hand_no:02d}",
        hand_no=hand_no,
        seats=seats,
        shoe=shoe,
        rules=table.rules,
        start=before + rng.randrange(5_000, 15_000),
        drops=table.rules.drop_penalty(table.format),
        pool=pool,
        scores=None if scores is None else [scores[p.player_id] for _, p in seats],
        may_leave=may_leave,
    )
    hand = play_hand(deal, rng)
    log.hands.append(hand)
    return hand


def _points_game(
    log: GameLog, seated: list[tuple[int, Profile]], shoe: list[int], rng: random.Random
) -> dict[str, int]:
    """A points session: hands until the players stop; each hand settled in money."""
    table, rules = log.table, log.table.rules
    assert table.point_value is not None
    spec = rules.shoe_for(len(seated))
    gone: dict[str, int] = {}
    while True:
        # Nobody leaves if the players left would need another shoe.
        may_leave = len(seated) == 2 or rules.shoe_for(len(seated) - 1) == spec
        hand = _next_hand(log, seated, shoe, rng, may_leave=may_leave)
        amounts = [-money(p * table.point_value) for p in hand.points]
        winner = hand.outcomes.index("won")
        paid = -sum(amounts, Decimal(0))
        rake = money(paid * table.rake_pct / 100)
        amounts[winner] = paid - rake
        hand.amounts = list(amounts)
        for (_, player), amount in zip(hand.seats, amounts, strict=True):
            log.ledger.append((player, "points_settlement", amount, hand.ended))
        log.ledger.append((None, "rake", rake, hand.ended))
        gone.update(hand.left)
        seated = [s for s in seated if s[1].player_id not in hand.left]
        if len(seated) < 2 or len(log.hands) == MAX_POINTS_HANDS or rng.random() > MORE_HANDS:
            return gone


def _buy_ins(log: GameLog, seated: list[tuple[int, Profile]]) -> Decimal:
    fee = log.table.entry_fee
    assert fee is not None
    for _, profile in seated:
        log.ledger.append((profile.player_id, "buy_in", -fee, log.started))
    return fee


def _game_event(
    log: GameLog,
    player: str | None,
    action: str,
    *,
    score: int | None = None,
    split_kind: str | None = None,
) -> None:
    last = log.game_events[-1][1] if log.game_events else log.hands[-1].ended
    ts = max(last, log.hands[-1].ended) + 1_000
    log.game_events.append((log.hands[-1].hand_no, ts, player, action, score, split_kind))


def _pay_out(log: GameLog, shares: list[tuple[str, Decimal]], kind: str, rake: Decimal) -> None:
    ts = max(log.hands[-1].ended, *(row[1] for row in log.game_events)) + 1_000
    for player, amount in shares:
        log.ledger.append((player, kind, amount, ts))
    log.ledger.append((None, "rake", rake, ts))


def _pool_game(
    log: GameLog, seated: list[tuple[int, Profile]], shoe: list[int], rng: random.Random
) -> dict[str, int]:
    """A pool game: hands until one player is left below the pool score, or a split."""
    table = log.table
    pool = table.rules.pools[table.format]
    fee = _buy_ins(log, seated)
    entries = len(seated)
    scores = {profile.player_id: 0 for _, profile in seated}
    playing = list(seated)
    gone: dict[str, int] = {}
    while True:
        hand = _next_hand(log, playing, shoe, rng, scores=scores)
        for seat, ((_, player), points) in enumerate(zip(hand.seats, hand.points, strict=True)):
            scores[player] += points
            hand.score_after[seat] = scores[player]
        out = [player for _, player in hand.seats if pool.is_eliminated(scores[player])]
        for player in out:
            _game_event(log, player, "eliminated", score=scores[player])
        back = _rebuys(log, playing, out, scores, pool, rng)
        entries += len(back)
        playing = [s for s in playing if s[1].player_id not in out or s[1].player_id in back]
        gone.update((player, hand.ended) for player in out if player not in back)
        rake = money(fee * entries * table.rake_pct / 100)
        prize = fee * entries - rake
        if len(playing) == 1:
            winner = playing[0][1].player_id
            _game_event(log, winner, "game_won")
            _pay_out(log, [(winner, prize)], "prize", rake)
            return gone
        left = [p.player_id for _, p in playing]
        if all(scores[p] > pool.auto_split_above for p in left):
            _game_event(log, None, "split", split_kind="auto")
            _pay_out(log, list(zip(left, _shares(prize, len(left)), strict=True)), "split", rake)
            return gone
        if _manual_split(log, left, scores, pool, fee, prize, rake, rng):
            return gone


def _rebuys(
    log: GameLog,
    playing: list[tuple[int, Profile]],
    out: list[str],
    scores: dict[str, int],
    pool: PoolRules,
    rng: random.Random,
) -> list[str]:
    """Eliminated players who buy back in, in turn order, each at one more than the last
    (the first at 1 + the highest score still in the game); only while enough players
    are still in and that highest score is below the preset's limit."""
    still_in = [p.player_id for _, p in playing if p.player_id not in out]
    if len(still_in) < pool.rebuy_min_players:
        return []
    highest = max(scores[p] for p in still_in)
    if highest >= pool.rebuy_below:
        return []
    fee = log.table.entry_fee
    assert fee is not None
    back = [player for player in out if rng.random() < REBUY_TAKEN]
    for player in back:
        highest += 1
        scores[player] = highest
        _game_event(log, player, "rebuy", score=highest)
        log.ledger.append((player, "rebuy", -fee, log.game_events[-1][1]))
    return back


def _manual_split(
    log: GameLog,
    left: list[str],
    scores: dict[str, int],
    pool: PoolRules,
    fee: Decimal,
    prize: Decimal,
    rake: Decimal,
    rng: random.Random,
) -> bool:
    """Offer a manual split where 000_ allows one (every score at the minimum, first drops
    left differing by the preset's range); True when all accept and the prize is shared:
    each extra first drop paid at the entry fee less rake, the rest equally."""
    drops_left = [pool.first_drops_left(scores[p]) for p in left]
    low, high = pool.split_drop_difference
    allowed = (
        all(scores[p] >= pool.manual_split_min_score for p in left)
        and low <= max(drops_left) - min(drops_left) <= high
    )
    if not allowed or rng.random() >= SPLIT_OFFER:
        return False
    offerer = rng.randrange(len(left))
    _game_event(log, left[offerer], "split_offer")
    if rng.random() >= SPLIT_ACCEPTED:
        others = [p for i, p in enumerate(left) if i != offerer]
        _game_event(log, rng.choice(others), "split_reject")
        return False
    for player in left:
        _game_event(log, player, "split_accept")
    _game_event(log, None, "split", split_kind="manual")
    per_drop = fee - money(fee * log.table.rake_pct / 100)
    extra = [(d - min(drops_left)) * per_drop for d in drops_left]
    shares = _shares(prize - sum(extra, Decimal(0)), len(left))
    paid = [e + s for e, s in zip(extra, shares, strict=True)]
    _pay_out(log, list(zip(left, paid, strict=True)), "split", rake)
    return True


def _shares(total: Decimal, n: int) -> list[Decimal]:
    """``total`` in ``n`` equal shares to the paisa; the paise left over go one each to
    the first players in seat order, so the shares add up to ``total`` exactly.

    >>> _shares(Decimal("100.00"), 3)
    [Decimal('33.34'), Decimal('33.33'), Decimal('33.33')]
    """
    base, extra = divmod(int(total / PAISA), n)
    return [(base + (1 if i < extra else 0)) * PAISA for i in range(n)]


def _deals_game(
    log: GameLog, seated: list[tuple[int, Profile]], shoe: list[int], rng: random.Random
) -> dict[str, int]:
    """A deals game: `deals_count` deals for chips, one more while the lead is tied."""
    table = log.table
    assert table.deals_count is not None
    fee = _buy_ins(log, seated)
    chips = {profile.player_id: 0 for _, profile in seated}
    while True:
        hand = _next_hand(log, seated, shoe, rng)
        moved = [-points for points in hand.points]
        moved[hand.outcomes.index("won")] = sum(hand.points)
        hand.amounts = [Decimal(count) for count in moved]
        for (_, player), count in zip(hand.seats, moved, strict=True):
            chips[player] += count
        most = max(chips.values())
        leaders = [player for player, count in chips.items() if count == most]
        if len(log.hands) >= table.deals_count and len(leaders) == 1:
            _game_event(log, leaders[0], "game_won")
            rake = money(fee * len(seated) * table.rake_pct / 100)
            _pay_out(log, [(leaders[0], fee * len(seated) - rake)], "prize", rake)
            return {}
