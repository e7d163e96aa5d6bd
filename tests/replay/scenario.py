"""Hands written by hand, in a few readable lines, for the replay's tests.

    game, hand = scenario(
        seats={"P1": "2H 3H 4H ...", "P2": "..."},        # each player's 13 cards
        wild="8S", open="AC", stock="JK 2S",              # stock top first; the rest filled
        events=["P1 draw_stock JK", "P1 declare QH: 2H 3H 4H / 5S 6S 7S / ...",
                "P2 show: AS 3C ...", "P2 drop auto left"],
        results={"P1": ("won", 0, "36.00"), "P2": ("lost", 40, "-40.00")},
    )

The shoe is dealt back from the seats exactly as the deal procedure deals it, then the wild
card, the open card, the given stock, and the rest of the preset's shoe in a fixed order.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from audit.cards import CODE_OF, parse_code, parse_codes, shoe_composition
from audit.records import NO_CARD, Event, Game, Hand, Result


def cards(text: str) -> list[int]:
    return parse_codes(text.split())


def groups(text: str) -> list[list[int]]:
    return [cards(g) for g in text.split("/")]


def parse_event(seq: int, line: str) -> Event:
    """``"P1 draw_stock JK"``, ``"P1 declare QH: 2H 3H 4H / ..."``, ``"P2 show: ..."``,
    ``"P2 drop"``, ``"P2 drop auto left"``, ``"P1 discard 7C auto timeout"``,
    ``"- reshuffle: 4C 5D ..."`` (no player)."""
    head, _, tail = line.partition(":")
    words = head.split()
    player: str | None = None if words[0] == "-" else words[0]
    action = words[1]
    rest = words[2:]
    card = NO_CARD
    if rest and rest[0] in CODE_OF:
        card = parse_code(rest.pop(0))
    auto = bool(rest) and rest[0] == "auto"
    if auto:
        rest.pop(0)
    reason = rest[0] if rest else ("player" if action == "drop" else None)
    return Event(seq, player, action, card, groups(tail) if tail.strip() else None, auto, reason)


def scenario(
    *,
    seats: dict[str, str],
    wild: str,
    open: str,
    events: list[str],
    results: dict[str, tuple[str, int, str | None]],
    stock: str = "",
    game_format: str = "points",
    ruleset: str = "standard-13",
    point_value: str | None = "1.0000",
    rake_pct: str = "10.00",
    decks: int = 2,
    printed_jokers: int = 2,
    hand_id: str = "H1",
    game_id: str = "G1",
    score_after: dict[str, int] | None = None,
    recorded_wild: str | None = None,
    shoe_last: str | None = None,
    running: bool = False,
) -> tuple[Game, Hand]:
    """``recorded_wild`` records another wild card than the deal turns up; ``shoe_last``
    replaces the shoe's last card (to break its composition); ``running``: the game goes on
    after this hand (its games row has no ``ended_at``)."""
    players = list(seats)
    held = [cards(seats[p]) for p in players]
    k = len(held[0])
    shoe = [held[i % len(players)][i // len(players)] for i in range(k * len(players))]
    shoe += [parse_code(wild), parse_code(open), *cards(stock)]
    rest = shoe_composition(decks, printed_jokers) - Counter(shoe)
    shoe += sorted(rest.elements())
    if shoe_last is not None:
        shoe[-1] = parse_code(shoe_last)
    game = Game(
        game_id=game_id,
        table_id="T1",
        format=game_format,
        deals_count=2 if game_format == "deals" else None,
        cards_per_hand=k,
        ruleset=ruleset,
        decks=decks,
        printed_jokers=printed_jokers,
        max_players=6,
        chip_type="real",
        entry_fee=None if game_format == "points" else Decimal("100.00"),
        point_value=Decimal(point_value) if point_value and game_format == "points" else None,
        rake_pct=Decimal(rake_pct),
        running=running,
    )
    hand = Hand(
        hand_id=hand_id,
        game_id=game_id,
        hand_no=1,
        seats=players,
        shoe=shoe,
        wild=parse_code(recorded_wild or wild),
        open=parse_code(open),
        events=[parse_event(i, line) for i, line in enumerate(events)],
        results=[
            Result(
                p,
                outcome,
                points,
                (score_after or {}).get(p),
                Decimal(amount) if amount is not None else None,
            )
            for p, (outcome, points, amount) in results.items()
        ],
    )
    return game, hand
