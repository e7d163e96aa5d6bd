"""The deal of one hand: the shoe held to the ruleset's, then dealt as the deal procedure
deals it (docs/replay.md, "The deal").

``deal_shoe(hand, game, rules)`` is the first step of a hand's replay (``HandReplay.run``,
and the open-melds game's through it): the findings of the seats and the shoe, and the
cards dealt, or ``None`` where the shoe is too short to deal at all. The night's statistics over
many shoes (is the shuffle fair?) are ``audit/shuffle``'s; this is one shoe, one hand.
"""

from __future__ import annotations

from typing import NamedTuple

from audit.cards import CODE_TEXT, JOKER, N_CODES, difference_words, shoe_composition, shoe_words
from audit.findings import Finding, finding
from audit.records import Game, Hand
from audit.rules.ruleset import Ruleset, ShoeSpec, cite


class Dealt(NamedTuple):
    """What the deal gave: each player's cards, the stock, its top at the end of the list
    (``pop()`` draws), and the open card it turned up. The discard pile starts with the
    open card recorded."""

    cards: dict[str, list[int]]
    stock: list[int]
    open: int


GAMES_ROW = "The game records "
DEALT_FROM_GAMES = ", and its shoe was dealt from the game's."
"""How ``deal_shoe``'s finding on the games row's shoe begins, and ends where the hand's
shoe was dealt from that row's cards (the hand's own fault then)."""


def games_row_only(f: Finding) -> bool:
    """Whether ``f`` is ``deal_shoe``'s finding on the games row's ``decks`` or
    ``printed_jokers`` alone, the hand's shoe being the ruleset's: one fault of the game's
    row, said once a game (``unit.audit_unit``; schemas/README.md: "its own
    deck.composition finding"), not at every hand (a blind tester's game of two hands had
    two)."""
    return (
        f.check == "deck.composition"
        and f.message.startswith(GAMES_ROW)
        and not f.message.endswith(DEALT_FROM_GAMES)
    )


def shoe_spec(hand: Hand, rules: Ruleset, started_with: int | None = None) -> ShoeSpec | None:
    """The ruleset's shoe for the hand's table (``deal.shoes``): for the players seated, or
    for the game's first hand's when it seated more (``started_with``: a game keeps the
    shoe it started with); None when the ruleset has none for that many. A hand of a game
    that seated more, dealt from the ruleset's shoe for its own players, was dealt from
    that one (000_: "between 2 players is played with 1 Deck of Cards": a blind tester's
    10-card pool tables down to two dealt one deck, a critical finding at every hand)."""
    n = len(hand.seats)
    table = rules.shoe_for(max(n, started_with or 0))
    if started_with is not None and n < started_with:
        own = rules.shoe_for(n)
        if own is not None and own != table and is_shoe(hand.shoe, own.decks, own.printed_jokers):
            return own
    return table


def deal_shoe(
    hand: Hand, game: Game, rules: Ruleset, started_with: int | None = None
) -> tuple[list[Finding], Dealt | None]:
    """Check the seats and the shoe, and deal it; ``None`` for what was dealt when the shoe
    cannot be dealt at all. The replay goes on with what was recorded: the wild card
    recorded chooses the jokers, the open card recorded starts the pile."""
    found: list[Finding] = []

    def find(check: str, rule_key: str, message: str, expected: str, recorded: str) -> None:
        found.append(
            finding(
                check,
                game_id=hand.game_id,
                hand_id=hand.hand_id,
                expected=expected,
                recorded=recorded,
                message=message,
                rule=cite(rules, rule_key),
            )
        )

    n, k = len(hand.seats), game.cards_per_hand
    if n > game.max_players:
        find(
            "table.seats",
            "games.max_players",
            f"The hand seats {n} players at a table of {game.max_players} seats.",
            f"at most {game.max_players} players",
            f"{n} players",
        )
    table = max(n, started_with or 0)
    spec = rules.shoe_for(table)  # the games row's shoe is the game's first hand's
    dealt_from = shoe_spec(hand, rules, started_with)  # this hand's, maybe its own players'
    since = f" (the game started with {table} players)" if table != n else ""
    if spec is None:
        seats = f"{table} player{'s' if table != 1 else ''}"
        outside = not rules.min_players <= table <= rules.max_players
        find(
            "deck.composition",
            "deal.players" if outside else "deal.shoes",  # a table the rules never seat
            f"The ruleset {rules.id} is played by {rules.min_players} to {rules.max_players} "
            f"players, and has no shoe for a table of {seats}{since}." if outside else
            f"The ruleset {rules.id} has no shoe for a table of {seats}{since}.",
            f"{rules.min_players}-{rules.max_players} players",
            seats,
        )
    else:
        recorded, same = (game.decks, game.printed_jokers), False
        if recorded != (spec.decks, spec.printed_jokers):
            # A shoe of the games row's cards is the same fault, said once: the game
            # played the wrong shoe (a blind tester had two findings for it).
            same = game.decks >= 1 and game.printed_jokers >= 0 and is_shoe(
                hand.shoe, game.decks, game.printed_jokers)  # fmt: skip
            find(
                "deck.composition",
                "deal.shoes",
                f"{GAMES_ROW}{shoe_words(*recorded)}, but "
                f"{rules.id} plays {table} players with "
                f"{shoe_words(spec.decks, spec.printed_jokers)}{since}"
                + (DEALT_FROM_GAMES if same else "."),
                shoe_words(spec.decks, spec.printed_jokers),
                shoe_words(*recorded),
            )
        if not same and dealt_from == spec and not is_shoe(hand.shoe, spec.decks,
                                                             spec.printed_jokers):
            expected = shoe_composition(spec.decks, spec.printed_jokers)
            parts = difference_words(expected.elements(), hand.shoe)
            # A shoe too short to deal is said here, once (a blind tester: an empty shoe
            # was this finding and the next)
            short = (f", too few to deal {k} cards to {n} players and turn up the wild and "
                     "open cards" if len(hand.shoe) < n * k + 2 else "")  # fmt: skip
            find(
                "deck.composition",
                "deal.shoes",
                f"The shoe of {len(hand.shoe)} cards is not "
                f"{shoe_words(spec.decks, spec.printed_jokers)}{short}: it "
                f"{' and '.join(parts)}.",
                f"{sum(expected.values())} cards",
                "; ".join(parts),
            )
    if len(hand.shoe) < n * k + 2:
        if any(f.check == "deck.composition" for f in found):
            return found, None
        find(
            "deck.composition",
            "deal.shoes",
            f"The shoe holds {len(hand.shoe)} cards, too few to deal {k} cards to {n} "
            "players and turn up the wild and open cards.",
            f"at least {n * k + 2} cards",
            f"{len(hand.shoe)} cards",
        )
        return found, None
    wild, open_card = hand.shoe[n * k], hand.shoe[n * k + 1]
    if hand.wild != wild:
        find(
            "deal.mismatch",
            "deal.procedure",
            f"The wild card recorded is {CODE_TEXT[hand.wild]}, but the deal turns up "
            f"{CODE_TEXT[wild]} after dealing {k} cards to each of {n} players.",
            CODE_TEXT[wild],
            CODE_TEXT[hand.wild],
        )
    if hand.open != open_card:
        find(
            "deal.mismatch",
            "deal.procedure",
            f"The open card recorded is {CODE_TEXT[hand.open]}, but the deal puts "
            f"{CODE_TEXT[open_card]} face up to start the discard pile.",
            CODE_TEXT[open_card],
            CODE_TEXT[hand.open],
        )
    stock = hand.shoe[n * k + 2 :]
    stock.reverse()  # the top of the stock is the end of the list: pop() draws
    return found, Dealt(dealt_cards(hand.shoe, hand.seats, k, hand.moved), stock, open_card)


def dealt_cards(
    shoe: list[int], seats: list[str], k: int, moved: tuple[tuple[int, str], ...] = ()
) -> dict[str, list[int]]:
    """The deal procedure: one card to each seat in turn, ``k`` times; ``shoe[i]`` for
    ``i < n*k`` goes to ``seats[i mod n]`` (log-format.md, hands.seats). Fewer cards when
    the shoe is short (``explain`` shows them); a player seated twice, whose hand the reader
    quarantines, gets the cards of both seats. ``moved``: positions a reading of the record
    deals to another seat (``Hand.moved``), one seat then holding more cards than ``k``.

    >>> dealt_cards([10, 20, 11, 21, 12, 22, 5, 6], ["P1", "P2"], 3)
    {'P1': [10, 11, 12], 'P2': [20, 21, 22]}
    >>> dealt_cards([10, 20, 11, 21, 12], ["P1", "P2"], 3)
    {'P1': [10, 11, 12], 'P2': [20, 21]}
    >>> dealt_cards([10, 20, 11, 21, 12, 22, 5, 6], ["P1", "P2"], 3, ((5, "P1"),))
    {'P1': [10, 11, 12, 22], 'P2': [20, 21]}
    """
    n = len(seats)
    cards: dict[str, list[int]] = {p: [] for p in seats}
    if len(cards) == n:
        for j, player in enumerate(seats):
            cards[player] = shoe[j : n * k : n]
    else:
        for i in range(n * k):
            cards[seats[i % n]].append(shoe[i])
    for at, seat in moved:
        cards[seats[at % n]].remove(shoe[at])
        cards[seat].append(shoe[at])
    return cards


def is_shoe(shoe: list[int], decks: int, printed_jokers: int) -> bool:
    """Whether ``shoe`` holds every card ``decks`` times and ``printed_jokers`` jokers,
    nothing else (``canonical_shoe``'s cards). Counted, not sorted: sorting a 106-card shoe
    was 4 % of a hand's audit.

    >>> from audit.cards import canonical_shoe
    >>> is_shoe(canonical_shoe(2, 2), 2, 2), is_shoe(canonical_shoe(2, 2)[1:], 2, 2)
    (True, False)
    """
    counts = [0] * N_CODES
    for code in shoe:
        if not 0 <= code < N_CODES:
            return False
        counts[code] += 1
    return counts[JOKER] == printed_jokers and all(counts[c] == decks for c in range(JOKER))
