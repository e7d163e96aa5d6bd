"""Cards and groups as the two views of a hand show them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from audit.cards import JOKER, N_CODES, RANK_OF, Card
from audit.rules.counts import tally
from audit.rules.declaration import GroupCheck
from audit.rules.melds import Jokers, MeldKind
from audit.rules.ruleset import Ruleset


@dataclass(frozen=True)
class CardView:
    """One card as people see it, and whether it is a joker in this hand.

    ``colour`` is ``red``, ``black`` or ``joker``; ``joker`` is ``printed``, ``wild`` (a
    joker by the wild rank) or empty.

    >>> from audit.cards import parse_code
    >>> card_view(parse_code("TH"), Jokers.of_rank(10))
    CardView(code='TH', rank='10', suit='♥', colour='red', joker='wild')
    >>> card_view(-1, Jokers.of_rank(None)).code
    '?'
    """

    code: str
    rank: str
    suit: str
    colour: str
    joker: str

    @property
    def title(self) -> str:
        """The card's code, and what makes it a joker."""
        if self.joker == "printed":
            return f"{self.code}: a printed joker"
        if self.joker == "wild":
            return f"{self.code}: a joker (wild rank)"
        return self.code


def card_view(code: int, jokers: Jokers) -> CardView:
    """The view of an integer card code; a code outside the deck shows as ``?``."""
    if not 0 <= code < N_CODES:
        return CardView("?", "?", "", "black", "")
    card = Card.from_code(code)
    if card.rank is None or card.suit is None:
        return CardView(str(card), "JK", "", "joker", "printed")
    rank = card.label.removesuffix(card.suit.symbol)
    colour = "red" if card.suit.is_red else "black"
    joker = "wild" if jokers.is_joker(code) else ""
    return CardView(str(card), rank, card.suit.symbol, colour, joker)


def joker_words(code: int, jokers: Jokers) -> str:
    """What makes ``code`` a joker, in words: ``printed joker``, ``wild joker`` (of the
    wild rank), ``up joker`` or ``down joker`` (21 and 27 cards: the cut card's suit one
    rank up or down, ``Jokers.kinds``); ``""`` for a card that is not one.

    >>> from audit.cards import parse_code
    >>> from audit.rules.ruleset import load_preset
    >>> j = Jokers.for_wild_card("7H", load_preset("standard-21"))
    >>> [joker_words(parse_code(c), j) for c in ("JK", "7S", "8H", "6H", "9H")]
    ['printed joker', 'wild joker', 'up joker', 'down joker', '']
    """
    view = card_view(code, jokers)
    if view.joker == "printed":
        return "printed joker"
    if not view.joker:
        return ""
    ups, downs = jokers.kinds[1::2], jokers.kinds[2::2]
    if code in ups and RANK_OF[code] != jokers.wild_rank:
        return "up joker"
    if code in downs and RANK_OF[code] != jokers.wild_rank:
        return "down joker"
    return "wild joker"


def card_views(codes: Iterable[int], jokers: Jokers) -> tuple[CardView, ...]:
    return tuple(card_view(code, jokers) for code in codes)


def joker_views(jokers: Jokers) -> tuple[CardView, ...]:
    """The printed joker, then every suited card the wild rank makes a joker."""
    return card_views([JOKER, *sorted(jokers.codes)], jokers)


@dataclass(frozen=True)
class GroupView:
    """One group of cards and the rules' verdict on it, with the reason."""

    cards: tuple[CardView, ...]
    kind: str
    reason: str
    valid: bool

    @property
    def text(self) -> str:
        return " ".join(c.code for c in self.cards)


def group_views(groups: Sequence[GroupCheck], jokers: Jokers) -> tuple[GroupView, ...]:
    """Each group as shown; a wild-rank card in a pure sequence stands for itself
    (``melds.wild_natural_keeps_pure``), so it is not drawn as a joker there (the page
    marked 5H "a joker (wild rank)" beside "5H stands for itself": a blind tester)."""
    return tuple(
        GroupView(
            tuple(
                replace(c, joker="") if g.verdict.is_pure_run else c
                for c in card_views(g.cards, jokers)
            ),
            g.verdict.kind.value,
            g.verdict.reason,
            g.verdict.is_valid,
        )
        for g in groups
    )


def alternative_views(
    groups: Sequence[GroupCheck], jokers: Jokers, rules: Ruleset
) -> tuple[GroupView, ...]:
    """The groups of a declaration valid by another way to declare
    (``declaration.alternatives``: three tunnelas, eight dublees, eight jokers), each as
    what it is to that declaration: a group it counts (a dublee, a tunnela, the jokers) as
    such, a meld as its verdict, and the other cards as needing no arrangement ("the other
    cards then need no arrangement"), never as invalid groups (a blind tester read every
    pair of a declaration valid as 8 dublees as "invalid group ... needs at least 3", in
    red).

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> from audit.rules.declaration import check_groups
    >>> r21 = load_preset("standard-21")
    >>> hand = "2S 2S/4D 4D/6C 6C/9H 9H/TS TS/JD JD/QC QC/KH KH/QS 3C 5D AH JK"
    >>> j = Jokers.for_wild_card("7H", r21)
    >>> views = alternative_views(check_groups([parse_codes(g.split()) for g in
    ...     hand.split("/")], j, r21), j, r21)
    >>> [(v.kind, v.valid) for v in views[:1] + views[-1:]]
    [('dublee', True), ('other cards', True)]
    >>> views[-1].reason
    'need no arrangement in a declaration by 8 dublees (declaration.alternatives)'
    """
    counted = tally([c for g in groups for c in g.cards], jokers, rules)
    way = next((a for a in rules.alternatives if counted.of(a.kind) >= a.count), None)
    if way is None:
        return group_views(groups, jokers)
    many, rule = f"{way.count} {way.kind}", "(declaration.alternatives)"
    out = []
    for g in groups:
        kind = _counted_as(g.cards, way.kind, jokers, rules)
        if kind:
            out.append(GroupView(card_views(g.cards, jokers), kind, f"counted among the {many} "
                                 f"that make the declaration valid {rule}", True))  # fmt: skip
        elif g.verdict.is_valid:
            out.extend(group_views([g], jokers))
        else:
            out.append(GroupView(card_views(g.cards, jokers), "other cards",
                                 f"need no arrangement in a declaration by {many} {rule}",
                                 True))  # fmt: skip
    return tuple(out)


def _counted_as(cards: Sequence[int], kind: str, jokers: Jokers, rules: Ruleset) -> str:
    """What a group is to a declaration by ``kind`` (``dublees``, ``tunnelas``, ``jokers``)
    that counts it: ``dublee``, ``tunnela`` or ``jokers``; empty where it counts none."""
    if kind == "jokers":
        return "jokers" if cards and all(jokers.is_joker(c) for c in cards) else ""
    if len(set(cards)) != 1:
        return ""
    if len(cards) == 2 and kind == "dublees":
        return "dublee"
    tunnela = len(cards) == 3 and rules.tunnela
    if tunnela and (cards[0] != JOKER or rules.printed_joker_tunnela):
        return "tunnela"  # a tunnela holds a dublee too (counts.tally)
    return ""


LOOSE = "not in any group"
"""How cards left outside every group are labelled: those of an arrangement the player did
not submit (the server's, the best possible; ``on_its_own``)."""
ONE_CARD = "groups of one card"
"""How the one-card groups a player declared or showed are labelled: groups of their own,
as the declaration's reasons count them ("5 groups have fewer than 3 cards: JD 3H, 7H,
7D, 2S, 2D"), never "not in any group" (a blind tester)."""


def on_its_own(group: GroupCheck, rules: Ruleset) -> bool:
    """Whether ``group`` is shown among the cards left over rather than as a group: a card
    alone (one joker alone is no group either), or jokers fewer than a meld put aside
    together. An arrangement the player did not submit says so (the server's, the best
    possible); the groups a player declared or showed are shown as submitted."""
    short = len(group.cards) < rules.min_meld_size
    return len(group.cards) == 1 or (short and group.verdict.kind is MeldKind.JOKERS)


def joker_note(cards: Sequence[CardView], rules: Ruleset) -> str:
    """What the jokers among cards left over are worth: ``AH is a joker, 0 points``;
    empty when there is none.

    >>> from audit.cards import parse_code
    >>> from audit.rules.ruleset import load_preset
    >>> j, rs = Jokers.of_rank(1), load_preset("standard-13")
    >>> joker_note(card_views([parse_code("AH"), parse_code("5C")], j), rs)
    'AH is a joker, 0 points'
    >>> joker_note(card_views([parse_code("AH"), parse_code("JK")], j), rs)
    'AH JK are jokers, 0 points each'
    """
    jokers = [c.code for c in cards if c.joker]
    worth = f"{rules.joker_points} point{'s' if rules.joker_points != 1 else ''}"
    if not jokers:
        return ""
    if len(jokers) == 1:
        return f"{jokers[0]} is a joker, {worth}"
    return f"{' '.join(jokers)} are jokers, {worth} each"
