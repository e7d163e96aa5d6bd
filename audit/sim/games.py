"""Games: a points session, a pool game, a deals game or a match, chained from hands, and
its money.

`play_game` deals hand after hand (`audit.sim.play.play_hand`; the open-melds game's
`audit.sim.openplay.play_open_hand`) and does what the rules of 000_ say between them:
running pool scores, eliminations, rebuys, auto and manual splits, deals for chips, and the
ledger, in exact decimals that balance to the paisa; a match (002_) adds each hand's points
to running totals until one reaches the target, for no money.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from decimal import Decimal

from audit.cards import canonical_shoe
from audit.money import PAISA, points_settlement
from audit.money import rake as rake_of
from audit.rules.counts import value_of, value_settlement
from audit.rules.ruleset import PoolRules, Ruleset
from audit.sim.anomalies import Label, label
from audit.sim.openplay import play_open_hand, tamper_never_opened
from audit.sim.play import Collusion, Deal, GameLog, HandLog, TableSpec, play_hand
from audit.sim.players import Profile, Table

MORE_HANDS = 0.65  # chance a points session plays another hand
MAX_POINTS_HANDS = 8
JOIN_AHEAD_MS = 60_000  # players join a table up to a minute before the game starts
SPLIT_OFFER, SPLIT_ACCEPTED, REBUY_TAKEN = 0.4, 0.7, 0.6
HAND_KINDS = frozenset(
    {
        "stacked_shoe",
        "non_top_draw",
        "invalid_declaration",
        "rigged_shuffle",
        "foreign_lay_off",
        "wild_limit",
    }
)
"""Planted while the hand is played (`audit.sim.play`); the others are planted here."""
POINTS_OFF = (-10, -5, -2, 2, 5, 10)


def stable_shoe(rules: Ruleset, players: int) -> bool:
    """The preset deals the same shoe to every smaller table: a game that loses
    players on the way keeps the `decks` and `printed_jokers` it started with."""
    shoe = rules.shoe_for(players)
    return all(rules.shoe_for(n) == shoe for n in range(rules.min_players, players))


def play_game(
    *,
    game_id: str,
    table: TableSpec,
    players: Sequence[tuple[int, Profile]],
    start: int,
    rng: random.Random,
    plant: str | None = None,
    collusion: Collusion | None = None,
) -> GameLog:
    """One game at ``table`` for ``players`` (in seat order), starting at ``start``;
    ``plant`` is a tampering kind to plant in it, ``collusion`` a planted pair or ring
    seated in it, who collude all game long (`audit.sim.play.Collusion`)."""
    rules = table.rules
    spec = rules.shoe_for(len(players))
    if spec is None:
        raise ValueError(f"{rules.id} deals no shoe for {len(players)} players")
    shoe = canonical_shoe(spec.decks, spec.printed_jokers)  # a fair table shuffles from it
    log = GameLog(game_id, table, spec.decks, spec.printed_jokers, start)
    log.plant, log.collusion = plant, collusion
    if collusion is not None and collusion.kind == "multi_account":
        log.labels.append(_shared(game_id, collusion.accounts, players))
    seated = list(players)
    match table.format:
        case "points":
            gone = _points_game(log, seated, shoe, rng)
        case "pool_101" | "pool_201":
            gone = _pool_game(log, seated, shoe, rng)
        case "deals":
            gone = _deals_game(log, seated, shoe, rng)
        case "match":
            gone = _match_game(log, seated, shoe, rng)
        case other:
            raise ValueError(f"unknown game format {other!r}")
    log.ended = max([log.hands[-1].ended, *(row[1] for row in log.game_events)]) + 2_000
    clients: dict[tuple[str, str], str] = {}  # one person's accounts play on one client
    for _, profile in seated:
        client = profile.client
        if rng.random() < 0.1:
            client = "web" if client == "app" else "app"
        client = clients.setdefault(profile.devices, client)
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
        plant=log.plant if log.plant in HAND_KINDS else None,
        collusion=log.collusion,
        bots=frozenset(i for i, (_, p) in enumerate(seats) if p.bot),
        biased=table.biased,
        fair=table.fair,
    )
    hand = (play_open_hand if table.rules.kind == "open-melds" else play_hand)(deal, rng)
    log.hands.append(hand)
    for planted in hand.labels:
        log.labels.append(planted._replace(game_id=log.game_id))
        if planted.kind == log.plant:
            log.plant = None
    if log.plant in ("loser_points", "drop_penalty"):
        _tamper_points(log, hand, rules=table.rules, rng=rng)
    if log.plant == "never_opened":
        charged = tamper_never_opened(hand, table.rules, rng)
        if charged is not None:
            log.labels.append(charged._replace(game_id=log.game_id))
            log.plant = None
    return hand


def _shared(
    game_id: str, accounts: tuple[str, ...], players: Sequence[tuple[int, Profile]]
) -> Label:
    """The label of a game where the accounts of one person sit: one IP, one device."""
    first, second = accounts
    ip = next(profile.ip for _, profile in players if profile.player_id == first)
    return label(
        "multi_account",
        game_id=game_id,
        players=accounts,
        details=f"{first} and {second} are one person: one IP ({ip}) and one device",
    )


def _tamper_points(log: GameLog, hand: HandLog, *, rules: Ruleset, rng: random.Random) -> None:
    """Record a loser's points, or a dropped player's penalty, wrong; what the game does
    next (pool scores, chips, money) follows the wrong record, as a faulty platform's would."""
    if log.plant == "loser_points":
        seats = [j for j, outcome in enumerate(hand.outcomes) if outcome == "lost"]
    else:
        seats = [j for j, o in enumerate(hand.outcomes) if o in ("first_drop", "middle_drop")]
    if not seats:
        return
    j = rng.choice(seats)
    right = hand.points[j]
    off = rng.choice(POINTS_OFF)
    wrong = right + off if 0 <= right + off <= rules.cap else right - off
    if not 0 <= wrong <= rules.cap:
        return
    hand.points[j] = wrong
    player = hand.seats[j][1]
    what = "points" if log.plant == "loser_points" else f"{hand.outcomes[j]} penalty"
    log.labels.append(
        label(
            log.plant or "",
            game_id=log.game_id,
            hand_id=hand.hand_id,
            players=(player,),
            details=f"{player} was recorded {wrong} {what} where the rules give {right}",
        )
    )
    log.plant = None


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
        amounts, rake = _settle(hand, table)
        winner = hand.outcomes.index("won")
        hand.amounts = list(amounts)
        if log.plant == "skimmed_payout" and amounts[winner] > PAISA:
            amounts[winner] = _skim(log, hand.seats[winner][1], amounts[winner])
        for (_, player), amount in zip(hand.seats, amounts, strict=True):
            log.ledger.append((player, "points_settlement", amount, hand.ended))
        log.ledger.append((None, "rake", rake, hand.ended))
        gone.update(hand.left)
        seated = [s for s in seated if s[1].player_id not in hand.left]
        if len(seated) < 2 or len(log.hands) == MAX_POINTS_HANDS or rng.random() > MORE_HANDS:
            return gone


def _settle(hand: HandLog, table: TableSpec) -> tuple[list[Decimal], Decimal]:
    """A points hand's money, seat by seat, and the rake (`audit.money.points_settlement`):
    the points charged at the point value, and in 21 and 27 cards (``points.value_cards``)
    the value cards settled between the players still in at the show (won or lost), each
    on their cards at the end (a declarer's less the finish card)."""
    assert table.point_value is not None
    rules = table.rules
    ids = [player for _, player in hand.seats]
    winner = ids[hand.outcomes.index("won")]
    values = None
    if rules.value_cards is not None:
        jokers = Table.for_wild_card(rules, hand.wild).jokers
        values = value_settlement(
            {
                ids[j]: value_of(hand.held[j], jokers, rules).points
                for j, outcome in enumerate(hand.outcomes)
                if outcome in ("won", "lost")
            }
        )
    charged = {p: points for p, points in zip(ids, hand.points, strict=True) if p != winner}
    amounts, rake = points_settlement(charged, [winner], table.point_value, table.rake_pct, values)
    return [amounts[p] for p in ids], rake


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
    if log.plant == "skimmed_payout" and kind == "prize":
        shares = [(player, _skim(log, player, amount)) for player, amount in shares]
    if log.plant == "split_amount" and kind == "split":
        (first, one), (second, two), *rest = shares
        moved = min(Decimal("5.00"), (two / 10).quantize(PAISA))
        shares = [(first, one + moved), (second, two - moved), *rest]
        log.labels.append(
            label(
                "split_amount",
                game_id=log.game_id,
                players=(first, second),
                details=f"the split paid {first} {moved} of {second}'s share",
            )
        )
        log.plant = None
    for player, amount in shares:
        log.ledger.append((player, kind, amount, ts))
    log.ledger.append((None, "rake", rake, ts))


def _skim(log: GameLog, player: str, owed: Decimal) -> Decimal:
    """Pay ``player`` 2 % (at least a paisa) less than ``owed``, and label it."""
    kept = max(PAISA, (owed / 50).quantize(PAISA))
    log.labels.append(
        label(
            "skimmed_payout",
            game_id=log.game_id,
            players=(player,),
            details=f"{player} was owed {owed} but paid {owed - kept}; {kept} was kept",
        )
    )
    log.plant = None
    return owed - kept


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
        if log.plant == "pool_score":
            _tamper_score(log, hand, scores, pool, rng)
        out = [player for _, player in hand.seats if pool.is_eliminated(scores[player])]
        for player in out:
            _game_event(log, player, "eliminated", score=scores[player])
        back = _rebuys(log, playing, out, scores, pool, rng)
        entries += len(back)
        playing = [s for s in playing if s[1].player_id not in out or s[1].player_id in back]
        gone.update((player, hand.ended) for player in out if player not in back)
        rake = rake_of(fee * entries, table.rake_pct)
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


def _tamper_score(
    log: GameLog, hand: HandLog, scores: dict[str, int], pool: PoolRules, rng: random.Random
) -> None:
    """Record one player's running score a few points too high, where that changes no
    elimination; the game goes on from the wrong score."""
    seat = rng.randrange(len(hand.seats))
    player = hand.seats[seat][1]
    off = rng.randrange(2, 8)
    if pool.is_eliminated(scores[player] + off):
        return
    scores[player] += off
    hand.score_after[seat] = scores[player]
    log.labels.append(
        label(
            "pool_score",
            game_id=log.game_id,
            hand_id=hand.hand_id,
            players=(player,),
            details=f"{player}'s running score was recorded {scores[player]}, "
            f"{off} more than the points add up to",
        )
    )
    log.plant = None


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
    forced = log.plant == "split_amount"  # a tampered split needs a split to tamper with
    if not allowed or (rng.random() >= SPLIT_OFFER and not forced):
        return False
    offerer = rng.randrange(len(left))
    _game_event(log, left[offerer], "split_offer")
    if rng.random() >= SPLIT_ACCEPTED and not forced:
        others = [p for i, p in enumerate(left) if i != offerer]
        _game_event(log, rng.choice(others), "split_reject")
        return False
    for player in left:
        _game_event(log, player, "split_accept")
    _game_event(log, None, "split", split_kind="manual")
    per_drop = fee - rake_of(fee, log.table.rake_pct)
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
            rake = rake_of(fee * len(seated), table.rake_pct)
            _pay_out(log, [(leaders[0], fee * len(seated) - rake)], "prize", rake)
            return {}


def _match_game(
    log: GameLog, seated: list[tuple[int, Profile]], shoe: list[int], rng: random.Random
) -> dict[str, int]:
    """A match (002_): hands until a running total (``results.score_after``, each hand's
    recorded points added on) reaches ``match.target``; the lowest total wins (a tie: the
    first of them in seat order). No money: no ledger rows."""
    target = log.table.rules.match_target
    assert target is not None
    totals = {profile.player_id: 0 for _, profile in seated}
    while True:
        hand = _next_hand(log, seated, shoe, rng)
        for seat, ((_, player), points) in enumerate(zip(hand.seats, hand.points, strict=True)):
            totals[player] += points
            hand.score_after[seat] = totals[player]
        if max(totals.values()) >= target:
            lowest = min(totals.values())
            winner = next(p.player_id for _, p in seated if totals[p.player_id] == lowest)
            _game_event(log, winner, "game_won")
            return {}
