"""What the 21- and 27-card rules count in a hand rather than arrange: tunnelas, dublees
and jokers (the other ways to declare, a loser's ready hand) and the value cards.

A tunnela is three identical cards (same rank and suit), a dublee two; the counts are over
the cards, not over groups as laid (docs/rules-21-27.md, section 1.1): a card of which the
hand holds three copies is one tunnela and one dublee, not two dublees; three printed
jokers are one tunnela (``melds.printed_joker_tunnela``) and two are one dublee; a card
beside a joker is neither.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from audit.cards import CODE_TEXT, JOKER, format_codes
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Tally:
    """The tunnelas, dublees and jokers among some cards."""

    tunnelas: int
    dublees: int
    jokers: int

    def of(self, kind: str) -> int:
        return {"tunnelas": self.tunnelas, "dublees": self.dublees, "jokers": self.jokers}[kind]


def tally(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> Tally:
    """Count the tunnelas, dublees and jokers among ``cards``.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> sevens = Jokers.for_wild_card("7H", r21)
    >>> tally(parse_codes("5C 5C 5C 2S 2S JK JK JK 7S 8H KD".split()), sevens, r21)
    Tally(tunnelas=2, dublees=3, jokers=5)
    """
    copies = Counter(cards)
    printed = copies.pop(JOKER, 0)
    tunnelas = sum(n // 3 for n in copies.values()) if rules.tunnela else 0
    if rules.tunnela and rules.printed_joker_tunnela:
        tunnelas += printed // 3
    dublees = sum(n // 2 for n in copies.values()) + printed // 2
    wild = sum(n for code, n in copies.items() if code in jokers.codes)
    return Tally(tunnelas, dublees, printed + wild)


def alternative(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> str | None:
    """The other way to declare (``declaration.alternatives``) that ``cards``, the declarer's
    cards less the finish card, meet, in words; ``None`` when they meet none.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> hand = "2S 2S 4D 4D 6C 6C 9H 9H TS TS JD JD QC QC KH KH QS 3C 5D AH JK"
    >>> print(alternative(parse_codes(hand.split()), Jokers.for_wild_card("7H", r21), r21))
    ... # doctest: +NORMALIZE_WHITESPACE
    8 dublees, 2S 2S, TS TS, 9H 9H, KH KH, 4D 4D, JD JD, 6C 6C, QC QC
    (declaration.alternatives: 8 dublees are a declaration)
    """
    if not rules.alternatives:
        return None
    counted = tally(cards, jokers, rules)
    for alt in rules.alternatives:
        have = counted.of(alt.kind)
        if have >= alt.count:
            return (
                f"{have} {alt.kind}, {_named(cards, alt.kind, jokers, rules)}"
                f" (declaration.alternatives: {alt.count} {alt.kind} are a declaration)"
            )
    return None


def _named(cards: Sequence[int], kind: str, jokers: Jokers, rules: Ruleset) -> str:
    """The cards ``tally`` counts as ``kind``, named: ``5C 5C 5C, KD KD KD`` (tunnelas),
    ``2S 2S, 4D 4D`` (dublees) or ``7S 8H JK`` (jokers); a blind tester read "valid as 3
    tunnelas" and could not tell which.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> hand = parse_codes("5C 5C 5C 2S 2S JK JK JK 7S 8H KD".split())
    >>> sevens = Jokers.for_wild_card("7H", r21)
    >>> [_named(hand, kind, sevens, r21) for kind in ("tunnelas", "dublees", "jokers")]
    ['5C 5C 5C, JK JK JK', '2S 2S, 5C 5C, JK JK', '7S 8H JK JK JK']
    """
    if kind == "jokers":
        return format_codes(c for c in sorted(cards) if c == JOKER or c in jokers.codes)
    copies = Counter(cards)
    size = 3 if kind == "tunnelas" else 2
    groups = []
    for code in sorted(copies, key=lambda c: (c == JOKER, c)):
        if code == JOKER and kind == "tunnelas" and not rules.printed_joker_tunnela:
            continue
        groups += [format_codes([code] * size)] * (copies[code] // size)
    return ", ".join(groups)


def short_of_dublees(
    cards: Sequence[int], sizes: Sequence[int], jokers: Jokers, rules: Ruleset
) -> str | None:
    """Why a declaration laid mostly in pairs (more than half of its groups of two cards or
    more, of ``sizes`` cards each, hold 2) is no declaration by dublees
    (``declaration.alternatives``), in words; ``None`` for one laid otherwise, or under a
    ruleset with no such alternative (or whose melds may be pairs, ``melds.min_size``).
    Pairs are then no melds, so cards laid so are an attempt at the dublees, and what they
    lack is dublees, not each pair's third card (a blind tester read every pair "has 2
    cards; a sequence or set needs at least 3" and never that 7 dublees are not 8). The
    cards left beside the dublees "need no arrangement" (the preset), so a group of one
    card is not counted against the pairs (a blind tester's 7 pairs and 7 cards each
    alone were read as 14 short groups and no pure sequence).

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> hand = parse_codes("2S 2S 4D 4D 6C 6C 9H 9H TS TS JD JD QC QC KH KS QS 3C 5D AH".split())
    >>> print(short_of_dublees(hand, [2] * 8 + [4], Jokers.for_wild_card("7H", r21), r21))
    ... # doctest: +NORMALIZE_WHITESPACE
    it holds 7 dublees where a declaration by dublees needs 8 (declaration.alternatives: 8
    dublees are a declaration); its pairs are no sequences or sets, which need at least 3
    cards
    >>> alone = [2] * 7 + [1] * 6  # the 7 dublees, the other cards each alone
    >>> short_of_dublees(hand, alone, Jokers.for_wild_card("7H", r21), r21).startswith(
    ...     "it holds 7 dublees where a declaration by dublees needs 8")
    True
    """
    need = next((alt.count for alt in rules.alternatives if alt.kind == "dublees"), None)
    laid = [n for n in sizes if n >= 2]
    pairs = sum(1 for n in laid if n == 2)
    if need is None or rules.min_meld_size <= 2 or 2 * pairs <= len(laid):
        return None
    have = tally(cards, jokers, rules).dublees
    held = f"{have} dublee{'s' if have != 1 else ''}" if have else "no dublees"
    return (
        f"it holds {held} where a declaration by dublees needs {need} "
        f"(declaration.alternatives: {need} dublees are a declaration); its pairs are no "
        f"sequences or sets, which need at least {rules.min_meld_size} cards"
    )


def ready_reason(cards: Sequence[int], jokers: Jokers, rules: Ruleset, melded: bool) -> str | None:
    """Why a loser's hand counts as ready (``points.ready_hand``), in words, or ``None``:
    ``melded`` says their cards lie in melds that meet the declaration requirement. The
    jokers are named (a blind tester counted six, and the seventh, a wild-rank card, was
    in no words).

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> hand = "JK JK 5D 5S 5H 4D 6D 2S 9S KH QC 3D 8H TC AS 7C 7S 9D JH KC QS"
    >>> ready_reason(parse_codes(hand.split()), Jokers.for_wild_card("5D", r21), r21, False)
    'the hand holds 7 jokers (JK JK 5D 5S 5H 4D 6D)'
    """
    ready = rules.ready_hand
    if ready is None:
        return None
    if melded:
        return "every card lies in melds that meet the declaration requirement"
    counted = tally(cards, jokers, rules)
    if counted.dublees >= ready.dublees:
        return f"the hand holds {counted.dublees} dublees"
    if counted.jokers >= ready.jokers:
        held = format_codes(c for c in cards if c == JOKER or c in jokers.codes)
        return f"the hand holds {counted.jokers} jokers ({held})"
    return None


@dataclass(frozen=True, slots=True)
class Value:
    """What a hand's value cards are worth (``points.value_cards``), and why."""

    points: int
    marriages: int
    held: tuple[int, ...]
    """Cards of each kind held (``Jokers.kinds`` order: cut card, up 1, down 1, ...)."""
    words: str


def value_of(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> Value:
    """The value of the value cards among ``cards``.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> j = Jokers.for_wild_card("7H", r21)
    >>> value_of(parse_codes("7H 8H 6H 2C".split()), j, r21).words
    '7H 8H 6H: 1 marriage (100)'
    >>> value_of(parse_codes("8H 8H 6H 6H 7H 7H".split()), j, r21).words
    '7H 8H 6H, 7H 8H 6H: 2 marriages (300)'
    >>> value_of(parse_codes("8H 8H 6H 2C".split()), j, r21).words
    'value cards 8H 8H (30), 6H (10)'
    """
    values = rules.value_cards
    if values is None or not jokers.kinds:
        return Value(0, 0, (), "")
    copies = Counter(cards)
    held = tuple(copies[code] for code in jokers.kinds)
    marriages = min(held)
    points = values.marriage[min(marriages, len(values.marriage)) - 1] if marriages else 0
    parts = []
    if marriages:
        kinds = ", ".join([" ".join(CODE_TEXT[c] for c in jokers.kinds)] * marriages)
        many = "marriage" if marriages == 1 else "marriages"
        parts.append(f"{kinds}: {marriages} {many} ({points})")  # every card of them named
    loose = []
    for code, n in zip(jokers.kinds, held, strict=True):
        left = n - marriages
        if left:
            worth = values.tiers[min(left, len(values.tiers)) - 1]
            points += worth
            loose.append(f"{' '.join([CODE_TEXT[code]] * left)} ({worth})")
    if loose:
        parts.append("value cards " + ", ".join(loose))
    return Value(points, marriages, held, "; ".join(parts))


def value_settlement(values: dict[str, int]) -> dict[str, int]:
    """Each player's net value points: what each other player pays them for their value
    cards, less what they pay each other player for theirs (``points.value_cards``: between
    the players still in at the show). The nets add up to 0.

    >>> value_settlement({"A": 10, "B": 100, "C": 30})
    {'A': -110, 'B': 160, 'C': -50}
    """
    total, n = sum(values.values()), len(values)
    return {player: n * v - total for player, v in values.items()}


@dataclass(frozen=True, slots=True)
class ValueShare:
    """One player's part in the value-card settlement of a 21- or 27-card points hand
    (``points.value_cards``): the value of their cards, and the value points they receive
    from the others (``net`` > 0) or pay them (``net`` < 0)."""

    value: Value
    net: int
    others: int
    """How many other players are in the settlement (each pays the player their value)."""
    paid: int
    """The value points of the others' cards, which the player pays."""

    @property
    def words(self) -> str:
        """``7H 8H 6H: 1 marriage (100): 100 from each of 2 others, less their 40``; with
        one other, ``100 from the other, less their 40`` (a blind tester read "each of 1")."""
        held = self.value.words or "no value cards"
        whom = "the other" if self.others == 1 else f"each of {self.others} others"
        return f"{held}: {self.value.points} from {whom}, less their {self.paid}"

    @property
    def net_words(self) -> str:
        """``is paid 160 for value cards``, ``pays 50 for value cards``."""
        if self.net >= 0:
            return f"is paid {self.net} for value cards"
        return f"pays {-self.net} for value cards"
