"""Jokers of a hand and the verdict on one group of cards: pure run, impure run, set, ...

This is the reference classifier: plain, exhaustive over the few ways a group can be read,
and the source of every reason a person reads. The solver (``solver.py``) is the fast path
and is tested against it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum, unique
from functools import lru_cache
from itertools import combinations
from typing import Any, Final

from audit.cards import CODE_TEXT, JOKER, RANK_OF, SUIT_OF, Rank, code_of, format_codes
from audit.errors import RulesetError
from audit.rules.ruleset import Ruleset, load_preset, preset_ids

_SUIT_NAMES = {0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs"}


# Final: a compiled module reads its own C statics; a name imported from a module
# that is not compiled is a dict lookup at every use.
_RANK_OF: Final = RANK_OF
_SUIT_OF: Final = SUIT_OF


@dataclass(frozen=True, slots=True)
class Jokers:
    """The jokers of one hand: printed jokers always, plus suited cards made wild.

    >>> from audit.rules.ruleset import load_preset
    >>> j = Jokers.for_wild_card("5C", load_preset("standard-13"))
    >>> j.wild_rank, j.describe()
    (5, 'printed jokers and every 5 (wild rank, from the wild card 5C)')
    >>> Jokers.for_wild_card("JK", load_preset("standard-13")).wild_rank
    1

    Under ``jokers.wild_scope = "card"`` only the card turned up is wild (both copies of
    it in a two-deck shoe); a printed joker turned up makes no suited card wild:

    >>> from dataclasses import replace
    >>> by_card = replace(load_preset("standard-13"), wild_scope="card")
    >>> j = Jokers.for_wild_card("5C", by_card)
    >>> j.wild_rank, format_codes(sorted(j.codes)), j.describe()
    (None, '5C', 'printed jokers and the 5C itself (jokers.wild_scope: the card, not its rank)')
    >>> Jokers.for_wild_card("JK", by_card).describe()
    'printed jokers only'
    """

    wild_rank: int | None
    codes: frozenset[int]
    """Suited codes that are jokers in this hand (the printed joker is always one)."""
    wild_card: str | None = None
    kinds: tuple[int, ...] = ()
    """Under ``jokers.up_down_jokers``: the cut card, then the up and down jokers by
    distance (up 1, down 1, up 2, down 2...), the value cards' kinds (21 and 27 cards)."""

    @classmethod
    def for_wild_card(cls, wild_card: str | int | None, rules: Ruleset) -> Jokers:
        """The jokers the ruleset makes of the card turned up (a code, text, or ``None``).

        Up and down jokers (21 and 27 cards) are the cards of the cut card's suit one rank
        above and below it (``jokers.up_down_depth`` ranks each way), ranks wrapping round
        the ace; a printed joker turned up stands for ``jokers.printed_joker_cut_card``:

        >>> from audit.rules.ruleset import load_preset
        >>> j = Jokers.for_wild_card("7H", load_preset("standard-21"))
        >>> format_codes(j.kinds)
        '7H 8H 6H'
        >>> print(j.describe())
        printed jokers, every 7 (wild rank, from the wild card 7H), and 8H up and 6H down
        >>> format_codes(Jokers.for_wild_card("JK", load_preset("standard-27")).kinds)
        'AS 2S KS 3S QS'
        """
        if wild_card is None or not rules.wild_rank_from_wild_card:
            return cls(None, frozenset(), None)
        code = wild_card if isinstance(wild_card, int) else _parse(wild_card)
        cut: int | None = code
        if code == JOKER:
            cut = rules.printed_joker_cut_card if rules.up_down_jokers else None
        kinds: tuple[int, ...] = ()
        if rules.up_down_jokers and cut is not None:
            rank, suit = _RANK_OF[cut], _SUIT_OF[cut]
            found = [cut]
            for step in range(1, rules.up_down_depth + 1):
                found.append(code_of((rank - 1 + step) % 13 + 1, suit))
                found.append(code_of((rank - 1 - step) % 13 + 1, suit))
            kinds = tuple(found)
        if rules.wild_scope == "card":
            if code == JOKER:
                return cls(None, frozenset(kinds[1:]), CODE_TEXT[code], kinds)
            return cls(None, frozenset({code, *kinds}), CODE_TEXT[code], kinds)
        rank = rules.printed_joker_wild_rank.number if code == JOKER else _RANK_OF[code]
        codes = {code_of(rank, s) for s in range(4)} | set(kinds[1:])
        return cls(rank, frozenset(codes), CODE_TEXT[code], kinds)

    @classmethod
    def of_rank(cls, rank: Rank | int | None) -> Jokers:
        """Printed jokers plus every card of ``rank``."""
        if rank is None:
            return cls(None, frozenset())
        number = rank.number if isinstance(rank, Rank) else rank
        return cls(number, frozenset(code_of(number, s) for s in range(4)))

    def is_joker(self, code: int) -> bool:
        return code == JOKER or code in self.codes

    def describe(self, card: str = "wild card") -> str:
        """The jokers in words; ``card`` names the card that sets the wild rank (the open-
        melds game's "cut card", 002_: "The card turned up at the deal sets a wild rank")."""
        if self.wild_rank is None:
            if self.wild_card is not None and self.codes:
                return (
                    f"printed jokers and the {self.wild_card} itself "
                    "(jokers.wild_scope: the card, not its rank)"
                )
            return "printed jokers only"
        name = Rank.from_number(self.wild_rank).value.replace("T", "10")
        origin = f", from the {card} {self.wild_card}" if self.wild_card else ""
        if len(self.kinds) > 1:
            ups = " ".join(CODE_TEXT[c] for c in self.kinds[1::2])
            downs = " ".join(CODE_TEXT[c] for c in self.kinds[2::2])
            return (
                f"printed jokers, every {name} (wild rank{origin}), and {ups} up and {downs} down"
            )
        return f"printed jokers and every {name} (wild rank{origin})"


def _parse(text: str) -> int:
    from audit.cards import parse_code

    return parse_code(text)


@unique
class MeldKind(StrEnum):
    PURE_RUN = "pure sequence"
    IMPURE_RUN = "impure sequence"
    SET = "set"
    TUNNELA = "tunnela"
    JOKERS = "group of jokers"
    INVALID = "invalid group"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a group is, with the reason in plain words.

    ``jokers`` is how many cards of the group stand in for other cards.
    """

    kind: MeldKind
    reason: str
    jokers: int = 0

    @property
    def is_valid(self) -> bool:
        return self.kind is not MeldKind.INVALID

    @property
    def is_run(self) -> bool:
        return self.kind in (MeldKind.PURE_RUN, MeldKind.IMPURE_RUN)

    @property
    def is_pure_run(self) -> bool:
        return self.kind is MeldKind.PURE_RUN


def classify(group: Sequence[int], jokers: Jokers, rules: Ruleset) -> Verdict:
    """The verdict on one group of integer card codes.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> rs, j = load_preset("standard-13"), Jokers.of_rank(5)
    >>> classify(parse_codes(["QH", "KH", "AH"]), j, rs).kind
    <MeldKind.PURE_RUN: 'pure sequence'>
    >>> print(classify(parse_codes(["KH", "AH", "2H"]), j, rs).reason)
    ... # doctest: +NORMALIZE_WHITESPACE
    KH AH 2H is not a sequence: a sequence may not turn the corner from K through A to 2
    (melds.run_wraps)
    """
    return _classify(tuple(group), jokers.codes, rules)


@lru_cache(maxsize=1 << 16)
def _classify(group: tuple[int, ...], joker_codes: frozenset[int], rules: Ruleset) -> Verdict:
    """``classify``, cached: the same groups (single cards above all) come back hand after
    hand, and a verdict depends only on the cards, the jokers and the rules."""
    jokers = Jokers(None, joker_codes)
    cards = list(group)
    fast = _plain_meld(cards, jokers, rules)
    if fast is not None:
        return fast
    text = format_codes(cards)
    if not cards:
        return Verdict(MeldKind.INVALID, "an empty group")
    if rules.tunnela and len(cards) == 3 and cards[0] == cards[1] == cards[2]:
        tunnela = _tunnela(text, cards[0], cards[0] in jokers.codes, rules)
        if tunnela is not None:
            return tunnela
    wild = [c for c in cards if c != JOKER and c in jokers.codes]
    naturals = [c for c in cards if c != JOKER and c not in jokers.codes]
    n = len(cards)

    if n < rules.min_meld_size:
        if not naturals:
            return _jokers_only(text, n, rules)
        return Verdict(
            MeldKind.INVALID,
            f"{text} has {n} card{'s' if n != 1 else ''}; a sequence or set needs "
            f"at least {rules.min_meld_size}",
        )

    run = _best_run(text, naturals, wild, n, rules)
    if isinstance(run, Verdict):
        if run.jokers and len(wild) == n and _wild_set(wild, rules):
            return _wild_set_run(text, wild[0], run)
        return run
    meld_set = _best_set(text, naturals, wild, n, rules)
    if isinstance(meld_set, Verdict):
        return meld_set
    if not naturals:
        return _jokers_only(text, n, rules)
    return Verdict(MeldKind.INVALID, _why_not(text, naturals, run, meld_set))


def _tunnela(text: str, code: int, wild: bool, rules: Ruleset) -> Verdict | None:
    """Three identical cards under ``melds.tunnela``: a tunnela, wild cards too (three 7S
    when 7 is wild are three identical cards), three printed jokers only under
    ``melds.printed_joker_tunnela``; a joker never stands in one. Under
    ``melds.tunnela_kind = "pure_run"`` it is a pure sequence toward the requirement.
    ``None`` when the three cards are not one (they are read as jokers or a run then).

    Under ``tunnela_kind = "set"`` three wild cards keep their old reading (a sequence of
    jokers or a run), so that rulesets of a tunnela as a set read as before.
    """
    if code == JOKER and not rules.printed_joker_tunnela:
        return None
    if rules.tunnela_kind == "pure_run":
        return Verdict(
            MeldKind.PURE_RUN,
            f"{text} is a tunnela: three identical cards, a pure sequence here "
            "(melds.tunnela_kind)",
        )
    if wild or code == JOKER:
        return None
    return Verdict(MeldKind.TUNNELA, f"{text} is a tunnela: three identical cards")


def _plain_meld(cards: list[int], jokers: Jokers, rules: Ruleset) -> Verdict | None:
    """The verdict on a valid group without any joker, found the short way; ``None`` for
    anything else (jokers, or an invalid group, whose reason the full reading gives)."""
    n = len(cards)
    if n < rules.min_meld_size or JOKER in cards or not jokers.codes.isdisjoint(cards):
        return None
    suits = {_SUIT_OF[c] for c in cards}
    ranks = sorted(_RANK_OF[c] for c in cards)
    if len(suits) == 1 and not rules.run_wraps and len(set(ranks)) == n:
        fits = ranks[-1] - ranks[0] == n - 1 and (rules.ace_low or ranks[0] != 1)
        if not fits and ranks[0] == 1 and rules.ace_high:  # the ace after the king
            high = [*ranks[1:], 14]
            fits = high[-1] - high[0] == n - 1
        if fits:
            return Verdict(
                MeldKind.PURE_RUN, f"{format_codes(cards)} is a sequence without a joker"
            )
    if ranks[0] == ranks[-1] and len(suits) == n and n <= rules.max_set_size:
        return Verdict(MeldKind.SET, f"{format_codes(cards)} is a set")
    return None


def _wild_set(wild: list[int], rules: Ruleset) -> bool:
    """Whether wild cards alone are a set as printed: one rank, every suit once."""
    return (
        len({_RANK_OF[c] for c in wild}) == 1
        and len({_SUIT_OF[c] for c in wild}) == len(wild)
        and len(wild) <= rules.max_set_size
    )


def _wild_set_run(text: str, card: int, run: Verdict) -> Verdict:
    """A set of the wild rank read as the sequence its jokers can stand for (it counts
    toward the declaration's sequences), in words that say it is a set too: "9H 9S 9D is
    a sequence with 2 jokers" read to a player who laid three nines confused (a blind
    tester, 2026-12-07)."""
    rank = CODE_TEXT[card][:-1]
    return Verdict(
        run.kind,
        f"{text} is a set of {rank}s, and as every {rank} is a joker it counts as a "
        f"sequence with {run.jokers} joker{'s' if run.jokers != 1 else ''}",
        run.jokers,
    )


def _jokers_only(text: str, n: int, rules: Ruleset) -> Verdict:
    mode = rules.jokers_only_group
    if mode == "leftover":
        return Verdict(MeldKind.JOKERS, f"{text} are jokers put aside together", n)
    if (
        mode == "run"
        and n >= rules.min_meld_size
        and (rules.max_jokers_per_run is None or n <= rules.max_jokers_per_run)
    ):
        return Verdict(MeldKind.IMPURE_RUN, f"{text} are jokers standing for a sequence", n)
    return Verdict(
        MeldKind.INVALID,
        f"{text} has no real card to form a sequence or set around "
        "(melds.jokers_only_group does not allow a group of jokers alone)",
    )


def _subsets_largest_first(items: list[int]) -> Iterable[tuple[int, ...]]:
    for size in range(len(items), -1, -1):
        yield from combinations(items, size)


def _best_run(
    text: str, naturals: list[int], wild: list[int], n: int, rules: Ruleset
) -> Verdict | str:
    """The run reading with the fewest jokers, or why there is none."""
    usable = wild if rules.wild_natural_keeps_pure else []
    reason = ""
    for as_natural in _subsets_largest_first(usable):
        real = naturals + list(as_natural)
        if not real:
            continue
        gap = _run_gaps(real, n, rules)
        if isinstance(gap, str):
            reason = gap  # the last reading tried, with every wild card a joker, explains best
            continue
        used = n - len(real)
        if rules.max_jokers_per_run is not None and used > rules.max_jokers_per_run:
            reason = (
                f"a sequence may use at most {rules.max_jokers_per_run} "
                f"joker{'s' if rules.max_jokers_per_run != 1 else ''}, and this one needs {used} "
                "(melds.max_jokers_per_run)"
            )
            continue
        if used == 0 and as_natural:  # melds.wild_natural_keeps_pure
            itself = format_codes(list(as_natural))
            return Verdict(
                MeldKind.PURE_RUN,
                f"{text} is a pure sequence: {itself} "
                + (
                    "stands for itself, not as a joker"
                    if len(as_natural) == 1
                    else "stand for themselves, not as jokers"
                ),
            )
        if used == 0:
            return Verdict(MeldKind.PURE_RUN, f"{text} is a sequence without a joker")
        return Verdict(
            MeldKind.IMPURE_RUN,
            f"{text} is a sequence with {used} joker{'s' if used != 1 else ''}",
            used,
        )
    return reason


def _around(ranks: list[int], n: int, *, corner: bool = False) -> bool:
    """Whether ``ranks`` (1 the ace) fit in ``n`` consecutive ranks, the king followed by
    the ace and the ace by the 2; ``corner``: in such ranks from K through A to 2."""
    windows = ({(start - 1 + i) % 13 + 1 for i in range(n)} for start in range(1, 14))
    return n <= 13 and any(
        set(ranks) <= w and (not corner or {13, 1, 2} <= w) for w in windows
    )


def _run_gaps(real: list[int], n: int, rules: Ruleset) -> str | None:
    """``None`` when ``real`` cards and ``n - len(real)`` jokers make a run, else why not."""
    suits = {_SUIT_OF[c] for c in real}
    if len(suits) > 1:
        return "its cards are of more than one suit"
    ranks = [_RANK_OF[c] for c in real]
    if rules.run_wraps:
        if len(set(ranks)) != len(ranks) or n > 13:
            return "a rank appears twice"
        return None if _around(ranks, n) else "its ranks do not fit in one sequence"
    lowest = 1 if rules.ace_low else 2
    highest = 14 if rules.ace_high else 13
    aces = ranks.count(1)
    others = [r for r in ranks if r != 1]
    if len(set(others)) != len(others) or aces > 2:
        return "a rank appears twice"
    if n > highest - lowest + 1:
        return f"a sequence has at most {highest - lowest + 1} cards"
    fewest_missing = None
    for high_aces in range(aces + 1):
        places = others + [14] * high_aces + [1] * (aces - high_aces)
        if len(set(places)) != len(places) or min(places) < lowest or max(places) > highest:
            continue
        missing = max(places) - min(places) + 1 - len(places)
        if missing <= n - len(places):
            return None
        if fewest_missing is None or missing < fewest_missing:
            fewest_missing = missing
    if aces and not (rules.ace_low and rules.ace_high):
        ace = _ace_placed(others, aces, n, rules)
        if ace:
            return ace
    if len(set(ranks)) == len(ranks) and _around(ranks, n, corner=True):
        # KH AH 2H, and KH JK 2H, whose joker can only be the ace (a blind tester)
        return "a sequence may not turn the corner from K through A to 2 (melds.run_wraps)"
    if fewest_missing is None:
        return "its ranks do not fit in one sequence"
    jokers = n - len(real)
    return (
        f"its cards need {fewest_missing} joker{'s' if fewest_missing != 1 else ''} to fill "
        f"the gaps and it has {jokers}"
    )


def _ace_placed(others: list[int], aces: int, n: int, rules: Ruleset) -> str:
    """Why cards that would be a sequence with an ace at the end the ruleset forbids are
    not one (``melds.ace_high`` or ``melds.ace_low`` false), else ``""``: "QH KH AH ...
    needs 10 jokers to fill the gaps" never named the rule that decides it (a blind
    tester). Only on a group found to be no sequence: an honest hand never comes here."""
    for high_aces in range(aces + 1):
        places = others + [14] * high_aces + [1] * (aces - high_aces)
        if len(set(places)) != len(places) or n > 14:
            continue
        if max(places) - min(places) + 1 - len(places) > n - len(places):
            continue
        if high_aces and not rules.ace_high:
            return "an ace may not follow the king in a sequence (melds.ace_high)"
        if high_aces < aces and not rules.ace_low:
            return "an ace may not come before the 2 in a sequence (melds.ace_low)"
    return ""


def _best_set(
    text: str, naturals: list[int], wild: list[int], n: int, rules: Ruleset
) -> Verdict | str:
    reason = ""
    for as_natural in _subsets_largest_first(wild):
        real = naturals + list(as_natural)
        if not real:
            continue
        if len({_RANK_OF[c] for c in real}) > 1:
            reason = reason or "its cards are of more than one rank"
            continue
        counts = Counter(_SUIT_OF[c] for c in real)
        if max(counts.values()) > 1:
            twice, times = next((s, k) for s, k in counts.items() if k > 1)
            said = "twice" if times == 2 else f"{times} times"  # 5C 5C 5C: a blind tester
            reason = f"a set holds each suit once, and {_SUIT_NAMES[twice]} appears {said}"
            continue
        if n > rules.max_set_size:
            reason = (
                f"a set has at most {rules.max_set_size} cards, and this one has {n} "
                "(melds.max_set_size)"
            )
            continue
        used = n - len(real)
        if rules.max_jokers_per_set is not None and used > rules.max_jokers_per_set:
            most = rules.max_jokers_per_set
            reason = (
                f"a set may use at most {most} joker{'s' if most != 1 else ''} "
                "(melds.max_jokers_per_set)"
            )
            continue
        suffix = f" with {used} joker{'s' if used != 1 else ''}" if used else ""
        return Verdict(MeldKind.SET, f"{text} is a set{suffix}", used)
    return reason


def _why_not(text: str, naturals: list[int], run: str, meld_set: str) -> str:
    one_suit = len({_SUIT_OF[c] for c in naturals}) == 1
    one_rank = len({_RANK_OF[c] for c in naturals}) == 1
    if one_suit and not one_rank:
        return f"{text} is not a sequence: {run}"
    if one_rank and not one_suit:
        return f"{text} is not a set: {meld_set}"
    if one_rank and one_suit:
        # one card and jokers: each reading's reason, the sequence's last, the one cited
        # (``group_rule`` cites the last rule named; a declaration needs sequences): "9S JK
        # 5C" laid as a sequence was told only of the set's joker limit (a blind tester)
        both = f"{meld_set}; and {run}" if len(naturals) == 1 and run and meld_set else ""
        return f"{text} is neither a sequence nor a set: {both or meld_set or run}"
    return f"{text} is neither a sequence nor a set: its cards mix suits and ranks"


_OTHERWISE: Final = (
    ("melds.run_wraps", "run_wraps"),
    ("melds.jokers_only_group", "jokers_only_group"),
    ("melds.ace_high", "ace_high"),
    ("melds.ace_low", "ace_low"),
    ("melds.wild_natural_keeps_pure", "wild_natural_keeps_pure"),
    ("melds.tunnela_kind", "tunnela_kind"),
)
"""The meld rules that decide what a sequence is, (key, attribute), that a platform's
ruleset may read otherwise than the shipped presets: a sequence that turns the corner,
jokers alone as a sequence, an ace after the king or before the 2, a wild card standing
for itself in a pure sequence, a tunnela as a pure sequence or not (asked only of a ruleset
with tunnelas: a blind tester's 21-card loser charged as if 5C 5C 5C were no pure sequence
cited the card points)."""


def read_otherwise(rules: Ruleset) -> tuple[tuple[str, Ruleset], ...]:
    """Each meld rule (``_OTHERWISE``) ``rules`` reads otherwise than a shipped preset, with
    ``rules`` read the preset's way: where a finding's record is what that reading gives
    (a valid K-A-2 declaration refused, a loser charged as if K-A-2 were no sequence),
    that rule decides the difference and the finding cites it, not the requirement or
    the card points (a platform's rules owner read their own ``melds.run_wraps`` nowhere:
    a blind tester). None for a preset: every shipped one reads them alike. Only asked
    for a finding, never on an honest hand.

    >>> from dataclasses import replace
    >>> from audit.rules.ruleset import load_preset
    >>> read_otherwise(load_preset("standard-13"))
    ()
    >>> wraps = replace(load_preset("standard-13"), run_wraps=True, ace_high=False)
    >>> [(key, other.run_wraps, other.ace_high) for key, other in read_otherwise(wraps)]
    [('melds.run_wraps', False, False), ('melds.ace_high', True, True)]
    """
    return _read_otherwise(rules)


@lru_cache(maxsize=64)
def _read_otherwise(rules: Ruleset) -> tuple[tuple[str, Ruleset], ...]:
    """``read_otherwise``, each other reading built once (a ruleset is compared by
    identity: ``_classify``'s cache keeps one per ruleset)."""
    presets = [load_preset(p) for p in preset_ids()]
    out = []
    for key, attr in _OTHERWISE:
        if attr == "tunnela_kind" and not rules.tunnela:
            continue
        for value in dict.fromkeys(getattr(p, attr) for p in presets):
            if value == getattr(rules, attr):
                continue
            try:
                changes: dict[str, Any] = {attr: value}
                out.append((key, replace(rules, **changes)))
            except RulesetError:  # no ace low nor high: no ruleset, so no reading
                continue
    return tuple(out)


_CITED = re.compile(r"\(((?:melds|jokers|declaration)\.[a-z_]+)[):]")


def group_rule(reason: str, default: str = "melds.min_size") -> str:
    """The ruleset key behind an invalid group's reason (``classify``): the option it names,
    else the rule it breaks that the reason says in words, else ``default``, the rule of
    what a sequence or set is to the caller (a declaration's: every card in a valid group).

    >>> group_rule("KH AH 2H is not a sequence: it may not turn the corner (melds.run_wraps)")
    'melds.run_wraps'
    >>> group_rule("KD KD KC is not a set: a set holds each suit once, and diamonds appears")
    'melds.max_set_size'
    >>> group_rule("9H 9C has 2 cards; a sequence or set needs at least 3")
    'melds.min_size'
    >>> group_rule("2H 3H 5H is not a sequence: its cards need 1 joker to fill the gaps")
    'melds.min_size'
    """
    cited = _CITED.findall(reason)
    if cited:
        return str(cited[-1])
    if "a set holds each suit once" in reason:
        return "melds.max_set_size"
    if "a sequence or set needs at least" in reason:
        return "melds.min_size"
    return default


@lru_cache(maxsize=1024)
def shared_jokers(wild: int, rules: Ruleset) -> Jokers:
    """The jokers of a wild card, one value per (wild card, ruleset) shared by every hand:
    the classifier's cache (``melds._classify``) then finds its joker set by identity
    instead of comparing two equal sets on every lookup."""
    return Jokers.for_wild_card(wild, rules)
