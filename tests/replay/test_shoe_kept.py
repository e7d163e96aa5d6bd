"""deal.shoes across a game whose players leave: a game keeps the shoe it started with.

003_f375e2c560403297.txt: 'For 2 or 3 players, two 52-card decks (104 cards) and 4 jokers
(wild cards) are used. For 4 to 6 players, three decks (156 cards) and 6 jokers are used.'
The log contract records one shoe per game (games.decks, games.printed_jokers), so a pool
game that starts with four players keeps its three decks after one is eliminated: the
hands after that are not a deck.composition finding. A game that starts at three players
with three decks is one, as is a table that grows past its shoe.
"""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from audit.cards import canonical_shoe
from audit.records import Game, GameUnit, Hand
from audit.replay.hand import HandReplay
from audit.rules.ruleset import load_preset
from audit.unit import audit_unit, opening_players
from tests.replay.cases import base
from tests.replay.scenario import scenario

RULES = load_preset("first-life-13")


def shoe(decks: int, jokers: int, seed: int) -> list[int]:
    cards = [c for c in range(52) for _ in range(decks)] + [52] * jokers
    random.Random(seed).shuffle(cards)
    return cards


def game(decks: int, jokers: int) -> Game:
    return Game(
        game_id="G1", table_id="T1", format="pool_101", deals_count=None, cards_per_hand=13,
        ruleset="first-life-13", decks=decks, printed_jokers=jokers, max_players=6,
        chip_type="real", entry_fee=Decimal("10.00"), point_value=None,
        rake_pct=Decimal("10.00"), running=False,
    )  # fmt: skip


def hand(no: int, seats: list[str], cards: list[int]) -> Hand:
    n = len(seats)
    return Hand(f"G1-{no:02d}", "G1", no, seats, cards, cards[13 * n], cards[13 * n + 1], [], [])


def deck_findings(replay: HandReplay) -> list[str]:
    return [f.message for f in replay.run().findings if f.check == "deck.composition"]


def test_deal_shoes_a_pool_game_keeps_its_shoe_after_a_player_is_eliminated() -> None:
    first = hand(1, ["A", "B", "C", "D"], shoe(3, 6, 1))
    later = hand(2, ["A", "B", "C"], shoe(3, 6, 2))
    assert opening_players([first, later]) == 4
    assert deck_findings(HandReplay(first, game(3, 6), RULES, 4)) == []
    assert deck_findings(HandReplay(later, game(3, 6), RULES, 4)) == []
    # Judged on its own, the three-player hand would want the smaller shoe.
    alone = deck_findings(HandReplay(later, game(3, 6), RULES))
    assert alone == [
        "The game records 3 decks and 6 printed jokers, but first-life-13 plays 3 players "
        "with 2 decks and 4 printed jokers, and its shoe was dealt from the game's."
    ]  # one fault, one finding: the shoe is the games row's


def test_deal_shoes_a_table_down_to_two_may_deal_the_two_players_shoe_000() -> None:
    """000_1729c72ad4c1f885.txt (`deal.shoes`): "A game of 10 Cards Rummy between 2
    players is played with 1 Deck of Cards (52+1 Cards)". A standard-10 pool game of
    three, two decks and two jokers, down to two players: a hand dealt from one deck and
    one joker is the rules' shoe for its players, no finding (a blind tester's tables had
    a critical deck.composition at every such hand); the game's two decks are no finding
    either (schemas/README.md, "Which shoe"); a 53-card shoe missing a card still is, and
    so is one deck at the game's first hand of three."""
    rules = load_preset("standard-10")

    def ten(no: int, seats: list[str], cards: list[int]) -> Hand:
        n = len(seats)
        return Hand(f"G1-{no:02d}", "G1", no, seats, cards, cards[10 * n], cards[10 * n + 1],
                    [], [])  # fmt: skip

    ten_game = replace(game(2, 2), ruleset="standard-10", cards_per_hand=10)
    two = ["A", "B"]
    assert deck_findings(HandReplay(ten(3, two, shoe(1, 1, 8)), ten_game, rules, 3)) == []
    assert deck_findings(HandReplay(ten(3, two, shoe(2, 2, 8)), ten_game, rules, 3)) == []
    short = shoe(1, 1, 9)
    short.remove(5)
    assert deck_findings(HandReplay(ten(3, two, short), ten_game, rules, 3))
    assert deck_findings(HandReplay(ten(1, ["A", "B", "C"], shoe(1, 1, 8)), ten_game, rules, 3))


def test_deal_shoes_a_game_started_small_may_not_use_the_large_shoe() -> None:
    """Three players from the first hand: the three-deck shoe is a finding on every hand;
    when players left, the finding names the table the game started with."""
    first = hand(1, ["A", "B", "C"], shoe(3, 6, 3))
    assert deck_findings(HandReplay(first, game(3, 6), RULES, opening_players([first])))
    later = hand(2, ["A", "B"], shoe(3, 6, 5))
    found = deck_findings(HandReplay(later, game(3, 6), RULES, 3))
    assert found[0].endswith(
        "plays 3 players with 2 decks and 4 printed jokers (the game started with 3 "
        "players), and its shoe was dealt from the game's."
    )


def test_deal_shoes_a_table_grown_past_its_shoe_is_a_finding() -> None:
    """Two players at the first hand (two decks), four later: the later hand is dealt from
    a shoe the rules give only to 2 or 3 players, and the finding says the table grew."""
    later = hand(2, ["A", "B", "C", "D"], shoe(2, 4, 4))
    found = deck_findings(HandReplay(later, game(2, 4), RULES, 2))
    assert found == [
        "The game records 2 decks and 4 printed jokers, but first-life-13 plays 4 players "
        "with 3 decks and 6 printed jokers, and its shoe was dealt from the game's."
    ]


def test_deal_shoes_a_shoe_of_neither_the_rules_nor_the_games_row_is_two_findings() -> None:
    """003_: 4 players play three decks and 6 jokers. A games row of 2 decks and 4 jokers
    is one finding; when the shoe dealt is not even that (a card missing), the shoe is a
    second, naming what it lacks (the games row's shoe, dealt whole, is one: a blind
    tester had two findings for one wrong deck count)."""
    cards = shoe(2, 4, 4)
    cards.remove(0)  # no ace of spades
    later = hand(2, ["A", "B", "C", "D"], cards)
    found = deck_findings(HandReplay(later, game(2, 4), RULES, 2))
    assert found[0].endswith("with 3 decks and 6 printed jokers.")
    assert found[1].startswith("The shoe of 107 cards is not 3 decks and 6 printed jokers")


def test_deal_shoes_one_deck_and_one_joker_are_written_in_the_singular() -> None:
    """`deal.shoes`: standard-10 deals two players one deck and one printed joker. A game
    recording two decks and 4 jokers says so in its deck.composition findings, the
    expected and recorded fields too, in words: "1 deck and 1 printed joker" (a blind
    tester read "1 decks + 1 jokers")."""
    rules = load_preset("standard-10")
    replay = HandReplay(hand(1, ["A", "B"], shoe(2, 4, 6)), game(2, 4), rules, 2)
    found = [f for f in replay.run().findings if f.check == "deck.composition"]
    assert (found[0].expected, found[0].recorded) == (
        "1 deck and 1 printed joker",
        "2 decks and 4 printed jokers",
    )
    assert found[0].message.endswith("and its shoe was dealt from the game's.")
    assert len(found) == 1


@given(
    st.integers(0, 10**6),
    st.sampled_from(["none", "swap", "drop", "add", "joker"]),
    st.integers(0, 52),
    st.integers(0, 52),
)
def test_deal_shoes_the_shoe_is_judged_by_its_cards_not_their_order(
    seed: int, change: str, a: int, b: int
) -> None:
    """003_f375e2c560403297.txt: 2 or 3 players play two decks and 4 jokers. A shoe in any
    order with those cards passes; one card replaced, missing or added does not (the
    replay counts the cards: it must agree with sorting them)."""
    cards = shoe(2, 4, seed)
    if change == "swap":
        cards[a % len(cards)] = b
    elif change == "drop":
        del cards[a % len(cards)]
    elif change == "add":
        cards.insert(a % len(cards), b)
    elif change == "joker":
        cards[a % len(cards)] = 52
    replay = HandReplay(hand(1, ["A", "B", "C"], cards), game(2, 4), RULES, 3)
    wrong = [m for m in deck_findings(replay) if m.startswith("The shoe of")]
    assert bool(wrong) == (sorted(cards) != canonical_shoe(2, 4))


def test_deal_shoes_a_games_row_of_the_wrong_deck_count_is_one_finding_a_game() -> None:
    """`deal.shoes` (003_: 2 or 3 players play two decks and 4 jokers; schemas/README.md: a
    games row whose decks or printed_jokers differ from the ruleset's is its own
    deck.composition finding): a games row of 3 decks over shoes of the rules' 2 is one
    finding, at the game's first hand, not one a hand (a blind tester's game of two hands
    had two); the later hand is verified. A shoe dealt from the row's wrong count is the
    hand's own fault, a finding at every hand it is."""
    hands = []
    for no in (1, 2):
        g, h = scenario(**base(hand_id=f"H{no}"))
        hands.append(replace(h, hand_no=no))
    wrong = replace(g, decks=3)
    out = audit_unit(GameUnit("G1", wrong, hands))
    found = [(f.hand_id, f.check) for h in out.hands for f in h.audit.findings]
    assert found == [("H1", "deck.composition")]
    assert [h.audit.status for h in out.hands] == ["discrepancy", "verified"]


def test_deal_players_a_table_the_rules_never_seat_cites_deal_players_003() -> None:
    """`deal.players` (003_: 'Rummy is played between 2 to 6 players'): a hand of one
    player has no shoe because the rules never seat one; its finding says so and cites
    that rule, not deal.shoes, and in the singular ("1 players": a blind tester)."""
    found = [f for f in HandReplay(hand(1, ["A"], shoe(2, 4, 7)), game(2, 4), RULES).run().findings
             if f.check == "deck.composition"]  # fmt: skip
    assert found[0].message == (
        "The ruleset first-life-13 is played by 2 to 6 players, and has no shoe for a table "
        "of 1 player."
    )
    assert found[0].rule.startswith("deal.players: ")
    assert found[0].recorded == "1 player"
