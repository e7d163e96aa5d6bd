"""A declaration whose groups are not the declarer's cards (``declare.groups_mismatch``):
the finding's words, and the rules' verdict on the cards the declarer holds.

The groups of a ``declare`` row are the player's cards less the one put on the finish slot
(docs/replay.md, "Declaring"). Where the platform accepted a declaration whose recorded
groups are not those cards, the verdict is judged on the cards the player holds, arranged
at best by the solver that charges a loser without a show: the row's groups are a fault of
the record, its one ``declare.groups_mismatch``, and a valid hand's win stands (until
2026-12-06 the recorded groups were judged, and a declarer who also listed the finish card
was a critical ``declare.verdict`` whose money moved the hand's win to the other player:
a blind tester).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from audit.cards import CODE_TEXT, format_codes
from audit.findings import Finding, finding
from audit.records import Event, Hand
from audit.replay.seats import Seat
from audit.rules.declaration import (
    DeclarationCheck,
    _what_is_needed,
    check_declaration,
    check_groups,
)
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset, cite
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_arrangement
from audit.rules.ways import grouped_arrangement


def mismatch_finding(
    hand: Hand, rules: Ruleset, seat: Seat, e: Event, groups: Sequence[Sequence[int]]
) -> Finding:
    """The ``declare.groups_mismatch`` of the declaration ``e``, whose ``groups`` are not
    the cards ``seat`` holds (less the one put on the finish slot)."""
    return finding(
        "declare.groups_mismatch",
        game_id=hand.game_id,
        hand_id=hand.hand_id,
        player_id=seat.player,
        seq=e.seq,
        expected=format_codes(sorted(seat.cards)),
        recorded=format_codes(sorted(c for g in groups for c in g)),
        message=mismatch_words(seat.player, seat.cards, groups, e.card),
        rule=cite(rules, "declaration.groups_exact"),
    )


def mismatch_words(
    player: str, cards: Sequence[int], groups: Sequence[Sequence[int]], finish: int
) -> str:
    """A declaration's ``declare.groups_mismatch`` in words: what the groups hold that the
    player does not, and what they leave out. The card put on the finish slot (``finish``)
    listed in the groups as well is said to be that card, not a card "the player does not
    have": they had it, and put it down (a blind tester read the words as false).

    >>> from audit.cards import parse_codes
    >>> cards = parse_codes("AH 2H 3H 7H".split())
    >>> groups = [parse_codes("AH 2H 3H".split()), parse_codes("4S".split())]
    >>> mismatch_words("P1", cards, groups, parse_codes(["4S"])[0])
    ... # doctest: +NORMALIZE_WHITESPACE
    "P1 declared groups that are not exactly their cards: the groups list 4S, the card P1
    put on the finish slot; the groups leave out 7H from the player's cards."
    """
    held, listed = Counter(cards), Counter(c for g in groups for c in g)
    more, missing = sorted((listed - held).elements()), sorted((held - listed).elements())
    parts = []
    if finish in more:
        more.remove(finish)
        also = "" if missing else "also "
        parts.append(
            f"the groups {also}list {CODE_TEXT[finish]}, the card {player} put on the finish slot"
        )
    if more:
        parts.append(f"the groups hold {format_codes(more)}, which the player does not have")
    if missing:
        parts.append(f"the groups leave out {format_codes(missing)} from the player's cards")
    return f"{player} declared groups that are not exactly their cards: {'; '.join(parts)}."


@lru_cache(maxsize=64)
def _declaring(rules: Ruleset) -> Ruleset:
    """``rules`` charging an arrangement without the declaration's requirement the full
    count, never less, and no ready hand: its least points are then 0 exactly when the
    cards make a declaration (every card in a meld and the requirement met), whatever
    ``points.unmet_requirement`` charges a loser. Cached: a ``Ruleset`` hashes by identity,
    and the solver's tables are cached by ruleset (``tables._exempt_rules``)."""
    return replace(rules, unmet_requirement="full_count", ready_hand=None)


def held_check(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> DeclarationCheck:
    """The rules' verdict on a declaration of ``cards`` (the declarer's, less the finish
    card), judged on the best arrangement of them (``solver.best_arrangement``) rather than
    on groups recorded that are not those cards: valid where they make a declaration (under
    ``declaration.groupings``, in groups of the sizes allowed); else invalid, its one reason
    said of the cards, not of a group recorded.

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> rs = load_preset("standard-13")
    >>> held_check(parse_codes("AH 2H 3H QS KS AS 9C 9D 9H 7D 7S 7C 7H".split()),
    ...            Jokers.of_rank(5), rs).valid
    True
    >>> check = held_check(parse_codes("AH 2H 3H QS KS AS 9C 9D 9H 7D 7S 8C 7H".split()),
    ...                    Jokers.of_rank(5), rs)
    >>> print(check.reasons[0])  # doctest: +NORMALIZE_WHITESPACE
    the groups declared are not the cards they held, and no arrangement of those cards lays
    every card in a sequence or set with the 2 sequences, one of them pure, that a
    declaration needs: at best 8C is left out
    """
    asked = _declaring(rules)
    points, groups = best_arrangement(cards, jokers, asked)
    check = check_declaration(cards, groups, jokers, rules)
    if check.valid:
        return check
    if points == 0 and rules.groupings is not None:
        split = grouped_arrangement(cards, jokers, rules)
        if split is not None:
            return check_declaration(cards, split, jokers, rules)
    need = f" with {_what_is_needed(rules)}" if rules.min_runs or rules.min_pure_runs else ""
    reason = (
        "the groups declared are not the cards they held, and no arrangement of those cards "
        f"lays every card in a sequence or set{need}"
    )
    score = score_arrangement(groups, jokers, asked)
    if 0 < points < rules.cap and score.requirement_met:  # the fewest cards left out
        reason += f": at best {format_codes(score.counted)} {_is_are(score.counted)} left out"
    checked = check_groups(groups, jokers, rules)
    return DeclarationCheck(checked, (reason,), keys=("declaration.groups_exact",))


def _is_are(cards: Sequence[int]) -> str:
    return "is" if len(cards) == 1 else "are"
