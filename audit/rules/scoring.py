"""The points of an arrangement, worked out card by card."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from audit.cards import format_codes
from audit.rules.declaration import GroupCheck, check_groups, unmet_requirements
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Score:
    """How many points an arrangement is charged, and why.

    ``counted`` are the cards that count (all of them when the requirement is unmet);
    ``raw`` is their total before the cap; ``points`` is what is charged.
    """

    points: int
    raw: int
    cap: int
    groups: tuple[GroupCheck, ...]
    counted: tuple[int, ...]
    unmet: tuple[str, ...]
    full_count: bool = False
    """The requirement is unmet and the ruleset charges the full count, not the cards."""
    exempt: tuple[int, ...] = ()
    """The requirement is unmet and ``points.unmet_requirement = "pure_run_exempt"``: the
    cards of the pure sequence not charged (the one whose cards are worth most)."""

    @property
    def requirement_met(self) -> bool:
        return not self.unmet

    def summary(self) -> str:
        """One sentence: what counts and what it comes to."""
        if not self.counted:
            return "every card is in a valid sequence or set: 0 points"
        if self.requirement_met:
            why = "the cards left unmatched"
        elif self.exempt:
            why = (
                f"every card but the pure sequence {format_codes(self.exempt)} counts "
                f"(points.unmet_requirement) because {self.unmet[0]}; the cards"
            )
        else:
            why = f"every card counts because {self.unmet[0]}; the cards"
        capped = f", capped at {self.cap}" if self.raw > self.points else ""
        if self.full_count:
            cards = format_codes(self.counted)
            return f"{why}, {cards}, are charged the full count of {self.raw}{capped}"
        return f"{why}, {format_codes(self.counted)}, are worth {self.raw}{capped}"


def card_points(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> int:
    """The face points of cards, jokers counting ``points.joker_points``."""
    table = rules.points_table(jokers.codes)
    return sum(table[c] for c in cards)


def score_arrangement(
    groups: Sequence[Sequence[int]],
    jokers: Jokers,
    rules: Ruleset,
    *,
    cap: int | None = None,
) -> Score:
    """The points charged for the cards arranged in ``groups``.

    Cards in invalid groups count; if the valid groups do not meet the declaration
    requirements (two sequences, one pure...), every card counts (``points.unmet_requirement``,
    003_), but for ``pure_run_exempt`` the cards of one pure sequence (the one worth most, if
    the groups hold one). The total is capped at ``cap`` (default ``points.cap``).

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> rs = load_preset("standard-13")
    >>> groups = [parse_codes(g.split()) for g in ("2H 3H 4H", "9S TS JK", "KD QC 4S")]
    >>> s = score_arrangement(groups, Jokers.of_rank(7), rs)
    >>> s.points, s.summary()
    (24, 'the cards left unmatched, KD QC 4S, are worth 24')
    """
    limit = rules.cap if cap is None else cap
    checked = check_groups(groups, jokers, rules)
    unmet = tuple(unmet_requirements(checked, rules))
    exempt: tuple[int, ...] = ()
    if unmet and rules.unmet_requirement == "pure_run_exempt":
        table = rules.points_table(jokers.codes)
        pure = [g for g in checked if g.verdict.is_pure_run]
        if pure:
            kept = max(pure, key=lambda g: sum(table[c] for c in g.cards))
            exempt = kept.cards
            counted = tuple(c for g in checked if g is not kept for c in g.cards)
        else:
            counted = tuple(c for g in checked for c in g.cards)
    elif unmet:
        counted = tuple(c for g in checked for c in g.cards)
    else:
        counted = tuple(c for g in checked if not g.verdict.is_valid for c in g.cards)
    full_count = bool(unmet) and rules.unmet_requirement == "full_count"
    raw = rules.cap if full_count else card_points(counted, jokers, rules)
    return Score(min(raw, limit), raw, limit, checked, counted, unmet, full_count, exempt)
