"""Cards: values for people, small integer codes for the hot loop, and shoes.

A card code of the log contract is two characters, rank ``A 2 3 4 5 6 7 8 9 T J Q K``
then suit ``S H D C``; a printed joker is ``JK``. Inside the engine a card is an ``int``:
``suit * 13 + rank - 1`` for the 52 suited cards (0..51) and ``JOKER`` (52) for a printed
joker, so hands are plain lists of ints and a shoe is a multiset (``Counter``) of them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum, unique
from functools import lru_cache
from typing import Final

from audit.errors import CardError


@unique
class Suit(StrEnum):
    """A suit, by its letter in the log contract."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def number(self) -> int:
        """0..3 in the order S H D C, as in the integer card codes."""
        return _SUIT_INDEX[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


@unique
class Rank(StrEnum):
    """A rank, by its character in the log contract (``T`` is the ten)."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"

    @property
    def number(self) -> int:
        """1 for the ace (its low place) up to 13 for the king."""
        return _RANK_NUMBER[self]

    @classmethod
    def from_number(cls, number: int) -> Rank:
        """The rank at ``number`` (1..13; 14 is the ace in its high place)."""
        return _RANKS[(number - 1) % 13]


_SUITS: tuple[Suit, ...] = tuple(Suit)
_RANKS: tuple[Rank, ...] = tuple(Rank)
_SUIT_INDEX = {suit: i for i, suit in enumerate(_SUITS)}
_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_RANK_NUMBER = {rank: i + 1 for i, rank in enumerate(_RANKS)}

JOKER: Final = 52
"""The integer code of a printed joker."""
JOKER_TEXT = "JK"
N_CODES: Final = 53

CODE_TEXT: tuple[str, ...] = (
    *(f"{rank.value}{suit.value}" for suit in _SUITS for rank in _RANKS),
    JOKER_TEXT,
)
"""``CODE_TEXT[code]`` is the contract string of an integer code."""
CODE_OF: dict[str, int] = {text: code for code, text in enumerate(CODE_TEXT)}
"""``CODE_OF[text]`` is the integer code of a contract string."""
RANK_OF: tuple[int, ...] = (*(code % 13 + 1 for code in range(52)), 0)
"""1..13 (ace 1, king 13) for each code; 0 for the printed joker."""
SUIT_OF: tuple[int, ...] = (*(code // 13 for code in range(52)), -1)
"""0..3 (S H D C) for each code; -1 for the printed joker."""


def code_of(rank: int, suit: int) -> int:
    """The integer code of rank 1..13 (14 is the ace too) in suit 0..3."""
    return suit * 13 + (rank - 1) % 13


def parse_code(text: str) -> int:
    """The integer code of one contract string.

    >>> parse_code("TH"), parse_code("JK")
    (22, 52)
    >>> parse_code("10H")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    audit.errors.CardError: '10H' is not a card code: use rank A 2-9 T J Q K then suit ...
    """
    code = CODE_OF.get(text) if isinstance(text, str) else None
    if code is None:
        raise CardError(
            f"{text!r} is not a card code: use rank A 2-9 T J Q K then suit S H D C, or JK"
        )
    return code


def parse_codes(texts: Iterable[str]) -> list[int]:
    """Integer codes of contract strings; the first bad one raises ``CardError``."""
    return [parse_code(text) for text in texts]


def format_codes(codes: Iterable[int]) -> str:
    """Contract strings separated by spaces, in the given order.

    >>> format_codes([22, 52, 0])
    'TH JK AS'
    """
    return " ".join(map(CODE_TEXT.__getitem__, codes))


_SPLIT = re.compile(r"[\s,]+")


def split_codes(text: str) -> list[str]:
    """The codes in a string written by a person: separated by spaces or commas, or run
    together two characters at a time (``"5CAH2H"``); ``10`` is accepted for ``T``.

    >>> split_codes("5C, AH 10h")
    ['5C', 'AH', 'TH']
    >>> split_codes("5CAH2H")
    ['5C', 'AH', '2H']
    """
    out: list[str] = []
    for word in _SPLIT.split(text.strip().upper()):
        word = word.replace("10", "T")
        if not word:
            continue
        if len(word) % 2:
            out.append(word)  # reported as a bad code by the parser
            continue
        out.extend(word[i : i + 2] for i in range(0, len(word), 2))
    return out


@dataclass(frozen=True, slots=True)
class Card:
    """A card as people see it: a rank and a suit, or neither for a printed joker.

    >>> Card.parse("TH 2s JK")
    (TH, 2S, JK)
    >>> Card.parse("1H")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    audit.errors.CardError: '1H' is not a card code: use rank A 2-9 T J Q K then suit ...
    """

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise CardError("a card has both a rank and a suit, or neither (a printed joker)")

    @classmethod
    def from_code(cls, code: int) -> Card:
        if code == JOKER:
            return PRINTED_JOKER
        return cls(_RANKS[code % 13], _SUITS[code // 13])

    @classmethod
    def parse_one(cls, text: str) -> Card:
        return cls.from_code(parse_code(text))

    @classmethod
    def parse(cls, text: str) -> tuple[Card, ...]:
        return tuple(cls.parse_one(code) for code in split_codes(text))

    @property
    def code(self) -> int:
        if self.rank is None or self.suit is None:
            return JOKER
        return self.suit.number * 13 + self.rank.number - 1

    @property
    def is_printed_joker(self) -> bool:
        return self.rank is None

    def __str__(self) -> str:
        return CODE_TEXT[self.code]

    def __repr__(self) -> str:
        return CODE_TEXT[self.code]

    @property
    def label(self) -> str:
        """A short label for people: ``10♥``, ``A♠``, ``Joker``."""
        if self.rank is None or self.suit is None:
            return "Joker"
        rank = "10" if self.rank is Rank.TEN else self.rank.value
        return f"{rank}{self.suit.symbol}"


PRINTED_JOKER = Card(None, None)


def shoe_composition(decks: int, printed_jokers: int) -> Counter[int]:
    """The multiset of codes in a shoe of ``decks`` 52-card decks and ``printed_jokers`` jokers.

    >>> shoe = shoe_composition(2, 2)
    >>> sum(shoe.values()), shoe[parse_code("AS")], shoe[JOKER]
    (106, 2, 2)
    """
    if decks < 1 or printed_jokers < 0:
        raise CardError(f"a shoe needs 1+ decks and 0+ jokers, not {decks} and {printed_jokers}")
    shoe: Counter[int] = Counter(dict.fromkeys(range(52), decks))
    if printed_jokers:
        shoe[JOKER] = printed_jokers
    return shoe


def canonical_shoe(decks: int, printed_jokers: int) -> list[int]:
    """The shoe before the shuffle, a new list: every card in code order, ``decks`` times
    in a row, then the printed jokers.

    >>> format_codes(canonical_shoe(2, 1)[:5]), format_codes(canonical_shoe(2, 1)[-2:])
    ('AS AS 2S 2S 3S', 'KC JK')
    """
    return list(_canonical(decks, printed_jokers))


@lru_cache(maxsize=64)
def _canonical(decks: int, printed_jokers: int) -> tuple[int, ...]:
    return tuple(sorted(shoe_composition(decks, printed_jokers).elements()))


def difference_words(
    expected: Iterable[int], actual: Iterable[int], *, extra: str = "holds extra"
) -> list[str]:
    """How a multiset of cards differs from the one expected, in words: ``["lacks AS",
    "holds extra 2S 2S"]``; empty when they are the same.

    >>> difference_words([0, 1, 52], [0, 14, 14])
    ['lacks 2S JK', 'holds extra 2H 2H']
    """
    wanted, held = sorted(expected), sorted(actual)
    if wanted == held:  # the same cards: the common case, without two Counters
        return []
    want, got = Counter(wanted), Counter(held)
    missing, more = sorted((want - got).elements()), sorted((got - want).elements())
    words = [f"lacks {format_codes(missing)}"] if missing else []
    if more:
        words.append(f"{extra} {format_codes(more)}")
    return words


def count_words(n: int) -> str:
    """``n`` card or cards.

    >>> count_words(1), count_words(0), count_words(2)
    ('1 card', '0 cards', '2 cards')
    """
    return f"{n} card{'' if n == 1 else 's'}"


def shoe_words(decks: int, jokers: int) -> str:
    """A shoe's composition in words, singular where one.

    >>> shoe_words(2, 1), shoe_words(1, 2)
    ('2 decks and 1 printed joker', '1 deck and 2 printed jokers')
    """
    return (
        f"{decks} deck{'s' if decks != 1 else ''} and "
        f"{jokers} printed joker{'s' if jokers != 1 else ''}"
    )
