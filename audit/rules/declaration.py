"""Is a declaration valid? Every reason it is not, in plain words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from audit.cards import difference_words, format_codes
from audit.rules.counts import alternative, short_of_dublees
from audit.rules.melds import Jokers, MeldKind, Verdict, classify, group_rule, read_otherwise
from audit.rules.ruleset import Ruleset


class GroupCheck:
    """One group of an arrangement and the verdict on it.

    A plain class, not a dataclass: compiled, a dataclass's ``__init__`` is still the one
    the dataclasses module writes, run by the interpreter, and a replayed hand builds some
    twenty of these (its declaration's and its losers' groups). Equal, hashed and shown as
    the frozen dataclass it was; not meant to change once built."""

    __slots__ = ("cards", "verdict")

    def __init__(self, cards: tuple[int, ...], verdict: Verdict) -> None:
        self.cards = cards
        self.verdict = verdict

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GroupCheck):
            return NotImplemented
        return self.cards == other.cards and self.verdict == other.verdict

    def __hash__(self) -> int:
        return hash((self.cards, self.verdict))

    def __repr__(self) -> str:
        return f"GroupCheck(cards={self.cards!r}, verdict={self.verdict!r})"

    @property
    def text(self) -> str:
        return format_codes(self.cards)


@dataclass(frozen=True, slots=True)
class DeclarationCheck:
    """The verdict on a whole declaration: ``valid`` exactly when ``reasons`` is empty."""

    groups: tuple[GroupCheck, ...]
    reasons: tuple[str, ...]
    alternative: str = ""
    """The other way to declare the cards meet (``declaration.alternatives``), in words:
    the groups then need not be melds, only hold the player's cards."""
    keys: tuple[str, ...] = ()
    """The ruleset key behind each of ``reasons``, in the same order (``broken_rule``)."""

    def broken_rule(self) -> str:
        """The key of the first rule the declaration breaks, the one a finding on it cites;
        for a valid declaration, the requirement it meets: ``declaration.alternatives``
        where it is another way to declare, else ``declaration.min_runs`` (the replay's
        findings and explain cite the same: a blind tester found them apart)."""
        if self.keys:
            return self.keys[0]
        return "declaration.alternatives" if self.alternative else "declaration.min_runs"

    @property
    def valid(self) -> bool:
        return not self.reasons


def check_groups(
    groups: Sequence[Sequence[int]], jokers: Jokers, rules: Ruleset
) -> tuple[GroupCheck, ...]:
    return tuple(GroupCheck(tuple(g), classify(g, jokers, rules)) for g in groups)


def unmet_requirements(groups: Sequence[GroupCheck], rules: Ruleset) -> list[str]:
    """What the valid groups lack of the ruleset's requirements (empty when they are met).

    The requirement is: ``min_runs`` sequences, ``min_pure_runs`` of them pure and, where
    ``long_run_length`` is set, one of them at least that long. With a pure sequence and a
    second sequence, one of the two can always be the long one, so "some sequence is long
    enough" is the same test as 003_'s "either First Life or Second Life".
    """
    return [reason for reason, _ in _unmet(groups, rules)]


def _unmet(groups: Sequence[GroupCheck], rules: Ruleset) -> list[tuple[str, str]]:
    """``unmet_requirements`` with the ruleset key of each."""
    runs = [g for g in groups if g.verdict.is_run]
    pure = [g for g in runs if g.verdict.is_pure_run]
    unmet = []
    pure_short = len(pure) < rules.min_pure_runs
    if len(runs) < rules.min_runs and not (pure_short and rules.min_pure_runs >= rules.min_runs):
        # where every sequence needed must be pure (21 and 27 cards: three pure), the pure
        # count alone says what is missing ("2 sequences; needs 3" read as if an impure
        # one would do, a blind tester)
        need = f"a declaration needs at least {_count(rules.min_runs, 'sequence')}"
        unmet.append((f"it has {_count(len(runs), 'sequence')}; {need}", "declaration.min_runs"))
    if pure_short:
        unmet.append((
            "it has no pure sequence (a sequence without a joker)"
            if not pure
            else f"it has {_count(len(pure), 'pure sequence')}; it needs {rules.min_pure_runs}",
            "declaration.min_pure_runs",
        ))  # fmt: skip
    long = rules.long_run_length
    if long is not None and runs and not any(len(g.cards) >= long for g in runs):
        unmet.append(
            (f"none of its sequences has {long} or more cards", "declaration.long_run_length")
        )
    return unmet


def unmet_charge(rules: Ruleset) -> str:
    """What an arrangement that does not meet the declaration requirement is charged, in
    words after "one that does not make ... ", for a loser charged the cap: their cards
    make the requirement in no arrangement charged less (a first-life-13 loser whose melds
    left 8 points was told only that "no arrangement comes to fewer than 80", a blind
    tester); ``""`` when the ruleset requires no sequence.

    >>> from audit.rules.ruleset import load_preset
    >>> print(unmet_charge(load_preset("first-life-13")))  # doctest: +NORMALIZE_WHITESPACE
    (an arrangement without the 2 sequences, one of them pure, one of them of 4 cards or
    more, that a declaration needs, is charged the full 80)
    """
    if not (rules.min_runs or rules.min_pure_runs):
        return ""
    need = cannot_meet(rules).removeprefix("no arrangement of their cards makes ")
    charged = {
        "all_cards": "counts every card",
        "full_count": f"is charged the full {rules.cap}",
    }.get(rules.unmet_requirement, "counts every card outside its pure sequences")
    return f"(an arrangement without {need}, {charged})"


def cannot_meet(rules: Ruleset) -> str:
    """Why every card of a loser's hand counts when no arrangement of it meets the
    requirement: said of the player's cards (``their``: a player is they), not of one
    arrangement of them (which may hold a sequence).

    >>> from audit.rules.ruleset import load_preset
    >>> print(cannot_meet(load_preset("standard-13")))  # doctest: +NORMALIZE_WHITESPACE
    no arrangement of their cards makes the 2 sequences, one of them pure, that a
    declaration needs
    """
    return f"no arrangement of their cards makes {_what_is_needed(rules)}"


def _what_is_needed(rules: Ruleset) -> str:
    """``the 2 sequences, one of them pure, that a declaration needs``; no comma where the
    need is one phrase (``the 3 pure sequences that ...``: a blind tester).

    >>> from audit.rules.ruleset import load_preset
    >>> _what_is_needed(load_preset("standard-13"))
    'the 2 sequences, one of them pure, that a declaration needs'
    """
    need = _needed(rules)
    return f"the {need}{',' if ',' in need else ''} that a declaration needs"


def _needed(rules: Ruleset) -> str:
    """The sequences a declaration needs: ``2 sequences, one of them pure``."""
    if rules.min_runs > rules.min_pure_runs:
        need = _count(rules.min_runs, "sequence")
        if rules.min_pure_runs:
            pure = "one" if rules.min_pure_runs == 1 else str(rules.min_pure_runs)
            need += f", {pure} of them pure"
    else:
        need = _count(rules.min_pure_runs, "pure sequence")
    if rules.long_run_length is not None:
        need += f", one of them of {rules.long_run_length} cards or more"
    return need


def meld_rule_behind(
    check: DeclarationCheck, jokers: Jokers, rules: Ruleset
) -> tuple[str, GroupCheck] | None:
    """For a valid declaration the platform refused: the meld rule whose reading by the
    shipped presets refuses it too (``melds.read_otherwise``: a K-A-2 sequence under the
    platform's ``melds.run_wraps``, jokers alone as a sequence under its
    ``melds.jokers_only_group``), with the group it makes a meld, or the sequence it makes
    count; ``None`` where no such reading refuses it (the requirement, ``broken_rule``, is
    then the rule a finding on it cites, as under every preset). Asked only of a verdict
    found wrong, never of an honest hand.

    >>> from dataclasses import replace
    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> wraps = replace(load_preset("standard-13"), run_wraps=True)
    >>> groups = [parse_codes(g.split()) for g in ("KH AH 2H", "3D 4D 5D", "9C 9D 9S")]
    >>> check = check_declaration(sum(groups, []), groups, Jokers.of_rank(7), wraps)
    >>> key, group = meld_rule_behind(check, Jokers.of_rank(7), wraps)
    >>> key, group.text
    ('melds.run_wraps', 'KH AH 2H')
    """
    if not check.valid or check.alternative:
        return None
    cards = [g.cards for g in check.groups]
    for key, other in read_otherwise(rules):
        again = check_groups(cards, jokers, other)
        if all(g.verdict.is_valid for g in again) and not _unmet(again, other):
            continue
        for was, now in zip(check.groups, again, strict=True):
            if was.verdict.kind is not now.verdict.kind:
                return key, was
    return None


def valid_words(
    check: DeclarationCheck, rules: Ruleset, behind: tuple[str, GroupCheck] | None = None
) -> str:
    """Why a valid declaration is valid: each group and the meld it is, and the sequences
    they hold that a declaration needs; or the other way to declare that the cards meet.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> rs = load_preset("standard-13")
    >>> groups = [parse_codes(g.split()) for g in ("2H 3H 4H", "5S 6S JK", "9C 9D 9S")]
    >>> check = check_declaration(sum(groups, []), groups, Jokers.of_rank(7), rs)
    >>> print(valid_words(check, rs))  # doctest: +NORMALIZE_WHITESPACE
    its groups are melds, 2H 3H 4H (pure sequence), 5S 6S JK (impure sequence), 9C 9D 9S
    (set), and hold the 2 sequences, one of them pure, that a declaration needs

    ``behind`` (``meld_rule_behind``) names the rule that makes its group the meld it is
    (``KH AH 2H (pure sequence, melds.run_wraps)``), as an invalid group's reason names the
    rule that refuses it.
    """
    if check.alternative:
        return f"it is {check.alternative}"
    melds = ", ".join(
        f"{g.text} ({g.verdict.kind.value}"
        + (f", {behind[0]})" if behind is not None and g is behind[1] else ")")
        for g in check.groups
    )
    if not (rules.min_runs or rules.min_pure_runs):
        return f"its groups are melds, {melds}"
    return f"its groups are melds, {melds}, and hold {_what_is_needed(rules)}"


def check_declaration(
    hand: Sequence[int],
    groups: Sequence[Sequence[int]],
    jokers: Jokers,
    rules: Ruleset,
) -> DeclarationCheck:
    """Check that ``groups`` arrange exactly ``hand`` into valid melds meeting the rules.

    ``hand`` holds the cards the declarer must arrange (without the finish-slot card).

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> rs = load_preset("standard-13")
    >>> groups = [g.split() for g in ("2H 3H 4H", "5S 6S JK", "9C 9D 9S", "KD KC KS 7H")]
    >>> hand = parse_codes(sum(groups, []))
    >>> check_declaration(hand, [parse_codes(g) for g in groups], Jokers.of_rank(7), rs).valid
    True
    >>> bad = [parse_codes(g) for g in (["2H", "3H", "5H"], ["5S", "6S", "JK"])]
    >>> hand = parse_codes("2H 3H 5H 5S 6S JK".split())
    >>> for reason in check_declaration(hand, bad, Jokers.of_rank(7), rs).reasons:
    ...     print(reason)
    2H 3H 5H is not a sequence: its cards need 1 joker to fill the gaps and it has 0
    it has 1 sequence; a declaration needs at least 2 sequences
    it has no pure sequence (a sequence without a joker)

    Under ``declaration.alternatives`` (21 and 27 cards) cards that hold, say, eight
    dublees are a declaration whatever their groups:

    >>> r21 = load_preset("standard-21")
    >>> hand = parse_codes("2S 2S 4D 4D 6C 6C 9H 9H TS TS JD JD QC QC KH KH QS 3C 5D AH".split())
    >>> check = check_declaration(hand, [hand], Jokers.for_wild_card("7H", r21), r21)
    >>> check.valid
    True
    >>> print(check.alternative)  # doctest: +NORMALIZE_WHITESPACE
    8 dublees, 2S 2S, TS TS, 9H 9H, KH KH, 4D 4D, JD JD, 6C 6C, QC QC
    (declaration.alternatives: 8 dublees are a declaration)
    """
    checked = check_groups(groups, jokers, rules)
    reasons = _mismatch(hand, groups)
    keys = ["declaration.groups_exact"] * len(reasons)
    other = alternative(hand, jokers, rules) if rules.alternatives else None
    if other is not None:
        return DeclarationCheck(checked, tuple(reasons), other, tuple(keys))
    sizes = [len(g) for g in groups]
    short = short_of_dublees(hand, sizes, jokers, rules) if rules.alternatives else None
    if short is not None:  # laid in pairs: the dublees it lacks, not each pair's third card
        reasons.append(short)
        keys.append("declaration.alternatives")
        return DeclarationCheck(checked, tuple(reasons), keys=tuple(keys))
    # Groups too small for a meld are said together: a blind tester's declaration of
    # thirteen single cards read as thirteen clauses "X has 1 card; a sequence or set ...".
    small = [g for g in checked
             if g.verdict.kind is MeldKind.INVALID and len(g.cards) < rules.min_meld_size]
    together = {id(g) for g in small[1:]} if len(small) > 1 else set()
    for g in checked:
        if g.verdict.is_valid or id(g) in together:
            continue
        reasons.append(_too_small(small, rules) if together and g is small[0]
                       else g.verdict.reason)  # fmt: skip
        keys.append(group_rule(g.verdict.reason, "declaration.groups_exact"))
    for reason, key in _unmet(checked, rules):
        reasons.append(reason)
        keys.append(key)
    grouping = grouping_reason(sizes, rules)
    if grouping:
        reasons.append(grouping)
        keys.append("declaration.groupings")
    return DeclarationCheck(checked, tuple(reasons), keys=tuple(keys))


def _too_small(groups: Sequence[GroupCheck], rules: Ruleset) -> str:
    """Why several groups are no melds, said once: they have too few cards.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> rs = load_preset("standard-13")
    >>> groups = [parse_codes(["9D"]), parse_codes(["KS", "KC"])]
    >>> small = check_groups(groups, Jokers.of_rank(7), rs)
    >>> _too_small(small, rs)
    '2 groups have fewer than 3 cards, the fewest a sequence or set may have: 9D, KS KC'
    """
    texts = ", ".join(format_codes(g.cards) for g in groups)
    return (
        f"{len(groups)} groups have fewer than {rules.min_meld_size} cards, the fewest a "
        f"sequence or set may have: {texts}"
    )


def grouping_reason(sizes: Sequence[int], rules: Ruleset) -> str:
    """Why groups of these sizes are not a grouping ``declaration.groupings`` allows, or
    ``""`` when they are (or any grouping is allowed).

    >>> from dataclasses import replace
    >>> from audit.rules.ruleset import load_preset
    >>> standard = load_preset("standard-13")
    >>> ten = replace(standard, cards_per_hand=10, groupings=((5, 5), (4, 3, 3)))
    >>> grouping_reason([3, 4, 3], ten)
    ''
    >>> grouping_reason([3, 3, 3, 1], ten)
    ... # doctest: +NORMALIZE_WHITESPACE
    'its groups have 3+3+3+1 cards; a declaration is grouped as 5+5 or 4+3+3
    (declaration.groupings)'
    """
    allowed = rules.groupings
    if allowed is None or tuple(sorted(sizes, reverse=True)) in allowed:
        return ""
    have = "+".join(map(str, sizes))
    ways = " or ".join("+".join(map(str, way)) for way in allowed)
    return (
        f"its groups have {have} cards; a declaration is grouped as {ways} (declaration.groupings)"
    )


def _mismatch(hand: Sequence[int], groups: Sequence[Sequence[int]]) -> list[str]:
    words = difference_words(hand, (c for g in groups for c in g), extra="adds")
    reasons = []
    for part in reversed(words):  # what the groups add first, then what they leave out
        verb, _, cards = part.partition(" ")
        if verb == "adds":
            reasons.append(f"the groups hold {cards}, which the player does not have")
        else:
            reasons.append(f"the groups leave out {cards} from the player's cards")
    return reasons


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}" if n else f"no {noun}s"
