"""Card codes, cards for people and shoes (audit/cards.py)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.cards import (
    CODE_TEXT,
    JOKER,
    PRINTED_JOKER,
    RANK_OF,
    SUIT_OF,
    Card,
    Rank,
    Suit,
    code_of,
    difference_words,
    format_codes,
    parse_code,
    parse_codes,
    shoe_composition,
    split_codes,
)
from audit.errors import CardError

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "SHDC"
ALL_TEXTS = [r + s for s in SUIT_CHARS for r in RANK_CHARS] + ["JK"]

texts = st.sampled_from(ALL_TEXTS)
all_cards = st.sampled_from([Card.parse_one(t) for t in ALL_TEXTS])


def test_a_card_code_is_rank_then_suit_log_format() -> None:
    """log-format.md: 'A card is a 2-character string: rank A 2 3 4 5 6 7 8 9 T J Q K then
    suit S H D C (TH is the ten of hearts, AS the ace of spades). A printed joker is JK.'"""
    ten_of_hearts = parse_code("TH")
    assert (RANK_OF[ten_of_hearts], SUIT_OF[ten_of_hearts]) == (10, Suit.HEARTS.number)
    ace_of_spades = parse_code("AS")
    assert (RANK_OF[ace_of_spades], SUIT_OF[ace_of_spades]) == (1, Suit.SPADES.number)
    assert parse_code("JK") == JOKER
    assert Card.parse_one("TH") == Card(Rank.TEN, Suit.HEARTS)
    assert Card.parse_one("JK").is_printed_joker


def test_there_are_52_suited_codes_and_the_printed_joker() -> None:
    """000_: 'Total number of 52 cards + 1 joker'; '4 Suits with 13 cards each'."""
    codes = parse_codes(ALL_TEXTS)
    assert sorted(codes) == list(range(53))
    suited = [c for c in codes if c != JOKER]
    assert Counter(SUIT_OF[c] for c in suited) == dict.fromkeys(range(4), 13)
    assert Counter(RANK_OF[c] for c in suited) == dict.fromkeys(range(1, 14), 4)
    assert all(code_of(RANK_OF[c], SUIT_OF[c]) == c for c in suited)


def test_the_ace_is_both_rank_1_and_the_place_after_the_king_003() -> None:
    """003_: 'The valid order being A-2-3-4-5-6-7-8-9-10-J-Q-K-A.'"""
    assert Rank.ACE.number == 1
    assert Rank.from_number(14) is Rank.ACE
    assert Rank.from_number(13) is Rank.KING
    assert code_of(14, Suit.CLUBS.number) == code_of(1, Suit.CLUBS.number) == parse_code("AC")


@pytest.mark.parametrize("text", ["10H", "1H", "th", "JJ", "", "J", "XS", "KKS"])
def test_bad_card_code_message(text: str) -> None:
    """log-format.md: 'Any other string is invalid input.'"""
    with pytest.raises(CardError) as raised:
        parse_code(text)
    assert str(raised.value) == (
        f"{text!r} is not a card code: use rank A 2-9 T J Q K then suit S H D C, or JK"
    )
    assert raised.value.slug == "card-code"


def test_parse_codes_stops_at_the_first_bad_code() -> None:
    with pytest.raises(CardError, match=r"^'ZZ' is not a card code"):
        parse_codes(["AS", "ZZ", "QQ"])


def test_split_codes_reads_what_people_write() -> None:
    assert split_codes("5C, AH 10h") == ["5C", "AH", "TH"]
    assert split_codes("5CAH2H") == ["5C", "AH", "2H"]
    assert split_codes("  jk,,qs ") == ["JK", "QS"]
    assert split_codes("5CA") == ["5CA"]  # left whole, for the parser to report


def test_card_parse_reports_a_bad_word_whole() -> None:
    with pytest.raises(CardError, match=r"^'5CA' is not a card code"):
        Card.parse("5CA 2H")


def test_card_has_rank_and_suit_or_neither_message() -> None:
    with pytest.raises(CardError) as raised:
        Card(Rank.ACE, None)
    assert str(raised.value) == "a card has both a rank and a suit, or neither (a printed joker)"
    with pytest.raises(CardError):
        Card(None, Suit.SPADES)


def test_card_labels_for_people() -> None:
    assert [c.label for c in Card.parse("TH AS 7D JK")] == ["10♥", "A♠", "7♦", "Joker"]
    assert repr(Card.parse("TH 2s JK")) == "(TH, 2S, JK)"
    assert Card.from_code(JOKER) is PRINTED_JOKER


def test_suit_colours_and_symbols() -> None:
    """000_: 'Group of sequences have to be of same colour/suit'."""
    assert [s for s in Suit if s.is_red] == [Suit.HEARTS, Suit.DIAMONDS]
    assert "".join(s.symbol for s in Suit) == "♠♥♦♣"


def test_two_decks_and_two_printed_jokers_make_106_cards_002() -> None:
    """002_: '2 decks are shuffled together — 106 cards, including 2 jokers.'"""
    shoe = shoe_composition(2, 2)
    assert sum(shoe.values()) == 106
    assert shoe[JOKER] == 2
    assert {shoe[c] for c in range(52)} == {2}


def test_bad_shoe_message() -> None:
    with pytest.raises(CardError) as raised:
        shoe_composition(0, 2)
    assert str(raised.value) == "a shoe needs 1+ decks and 0+ jokers, not 0 and 2"
    with pytest.raises(CardError, match=r"not 2 and -1$"):
        shoe_composition(2, -1)


def test_difference_words_name_missing_and_extra_cards() -> None:
    expected = list(shoe_composition(1, 1).elements())
    shoe = [c for c in range(52) if c != parse_code("AS")] + [parse_code("KD")]
    assert difference_words(expected, shoe) == ["lacks AS JK", "holds extra KD"]
    assert difference_words(expected, shoe, extra="adds") == ["lacks AS JK", "adds KD"]
    assert difference_words(expected, list(reversed(expected))) == []


@given(st.lists(texts, max_size=30))
def test_format_codes_undoes_parse_codes(words: list[str]) -> None:
    assert format_codes(parse_codes(words)) == " ".join(words)


@given(all_cards)
def test_card_parse_undoes_str(card: Card) -> None:
    assert Card.parse(str(card)) == (card,)
    assert Card.from_code(card.code) == card
    assert CODE_TEXT[card.code] == str(card) == repr(card)


@given(st.lists(all_cards, max_size=20), st.sampled_from([" ", ", ", ","]))
def test_card_parse_reads_lowercase_commas_and_10(hand: list[Card], sep: str) -> None:
    written = sep.join(str(c).lower().replace("t", "10") for c in hand)
    assert Card.parse(written) == tuple(hand)
