"""000_'s joker counts held against the decks: they cannot all be true.

000_1729c72ad4c1f885.txt: 'Thus we would have 9 jokers in all for a round/game (for all
games played with jokers) in 13 Card games for 21 Card games there will be a total of 15
Jokers and for 27 Card game there will be 21 Jokers in total.' The same seed gives the
shoes (13 cards: 'two decks of cards inclusive of the jokers (1 joker per deck)'; 21 and
27 cards: '3 decks of card which include one 'printed' joker of each deck') and the up and
down jokers of the 21- and 27-card games (one above and one below the wild card in 21;
'2 Up & 2 Down Jokers' in 27).

Counting every joker of the shoe (the printed jokers, every copy of the wild rank, every
copy of the up and down jokers) gives 10, 21 and 27 with the card turned up, 9, 20 and 26
without it. 9 holds only without it (the deal of the log contract keeps the turned-up
card out of play), 15 only for 21 cards with it and without the up and down jokers the
seed itself describes, and 27 cards never give 21. The choice: the audit counts the jokers
as the shoe and the ruleset make them and never tests against the seed's totals
(docs/rules-21-27.md, section 3, has the table).
"""

from __future__ import annotations

from dataclasses import replace

from audit.cards import JOKER, code_of
from audit.rules.melds import Jokers
from audit.rules.ruleset import ShoeSpec, load_preset

STANDARD = load_preset("standard-13")


def shoe(decks: int, printed: int) -> list[int]:
    return [code for code in range(52) for _ in range(decks)] + [JOKER] * printed


def in_shoe(cards: list[int], jokers: set[int]) -> int:
    """Jokers among ``cards``: printed, and the suited codes ``jokers`` names."""
    return sum(card == JOKER or card in jokers for card in cards)


def wild_and_around(wild: int, suit: int, around: int) -> set[int]:
    """Every card of rank ``wild``, and ``around`` ranks above and below it in ``suit``
    (the up and down jokers; ranks wrap, as with an ace wild)."""
    codes = {code_of(wild, s) for s in range(4)}
    for step in range(1, around + 1):
        codes |= {code_of((wild - 1 + step) % 13 + 1, suit),
                  code_of((wild - 1 - step) % 13 + 1, suit)}  # fmt: skip
    return codes


def test_13_cards_nine_jokers_hold_only_without_the_card_turned_up() -> None:
    """standard-13's shoe and wild rank, for every card that can be turned up: 8 copies
    of the wild rank and 2 printed jokers are 10, less the card turned up is 9."""
    spec = STANDARD.shoe_for(4)
    assert spec is not None
    cards = shoe(spec.decks, spec.printed_jokers)
    for turned_up in [*range(52), JOKER]:
        jokers = Jokers.for_wild_card(turned_up, STANDARD)
        total = in_shoe(cards, set(jokers.codes))
        assert (total, total - 1) == (10, 9), turned_up


def test_21_and_27_cards_give_15_and_21_only_under_other_readings() -> None:
    three_decks = shoe(3, 3)  # 000_: 3 decks with one printed joker each
    seven_of_hearts = (7, 1)
    plain = in_shoe(three_decks, wild_and_around(*seven_of_hearts, around=0))
    up_down = in_shoe(three_decks, wild_and_around(*seven_of_hearts, around=1))
    two_each = in_shoe(three_decks, wild_and_around(*seven_of_hearts, around=2))
    assert (plain, up_down, two_each) == (15, 21, 27)
    # The one-above, one-below rule is the engine's own (jokers.up_down_jokers): the same 21.
    twenty_one = replace(STANDARD, cards_per_hand=21, up_down_jokers=True,
                         shoes=(ShoeSpec(min_players=2, max_players=6, decks=3,
                                          printed_jokers=3),))  # fmt: skip
    engine = Jokers.for_wild_card(code_of(*seven_of_hearts), twenty_one)
    assert in_shoe(three_decks, set(engine.codes)) == up_down
    with_card = {"13": 10, "21": up_down, "27": two_each}
    without_card = {game: n - 1 for game, n in with_card.items()}
    seed = {"13": 9, "21": 15, "27": 21}
    assert with_card != seed
    assert without_card != seed
    # What each of the seed's figures needs:
    assert without_card["13"] == seed["13"]  # the card turned up left out
    assert plain == seed["21"]  # counted in, and no up and down jokers in 21
    assert up_down == seed["27"]  # the 21-card game's count, not 27's (27 or 26)
