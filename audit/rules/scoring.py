"""The points of an arrangement, worked out card by card."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from audit.cards import format_codes
from audit.rules.counts import ready_reason
from audit.rules.declaration import GroupCheck, check_groups, unmet_requirements
from audit.rules.melds import Jokers, MeldKind
from audit.rules.ruleset import Ruleset


@dataclass(slots=True, init=False)
class Score:
    """How many points an arrangement is charged, and why.

    ``counted`` are the cards that count (all of them when the requirement is unmet);
    ``raw`` is their total before the cap; ``points`` is what is charged. Not changed once
    built; its ``__init__`` is written out, so that it is compiled with the rest (a
    dataclass's own is run by the interpreter: ``declaration.GroupCheck``).
    """

    points: int
    raw: int
    cap: int
    groups: tuple[GroupCheck, ...]
    counted: tuple[int, ...]
    unmet: tuple[str, ...]
    full_count: bool
    """The requirement is unmet and the ruleset charges the full count, not the cards."""
    exempt: tuple[int, ...]
    """The requirement is unmet and ``points.unmet_requirement = "pure_run_exempt"``: the
    cards of the pure sequence not charged (the one whose cards are worth most); under
    ``"pure_runs_exempt"`` the cards of every pure sequence (tunnelas too)."""
    exempt_groups: tuple[tuple[int, ...], ...]
    """The pure sequences whose cards ``exempt`` holds, group by group."""
    ready: str
    """Why the hand was ready (``points.ready_hand``), in words: it is then charged the
    ready hand's points, whatever its cards."""

    def __init__(
        self,
        points: int,
        raw: int,
        cap: int,
        groups: tuple[GroupCheck, ...],
        counted: tuple[int, ...],
        unmet: tuple[str, ...],
        full_count: bool = False,
        exempt: tuple[int, ...] = (),
        exempt_groups: tuple[tuple[int, ...], ...] = (),
        ready: str = "",
    ) -> None:
        self.points = points
        self.raw = raw
        self.cap = cap
        self.groups = groups
        self.counted = counted
        self.unmet = unmet
        self.full_count = full_count
        self.exempt = exempt
        self.exempt_groups = exempt_groups
        self.ready = ready

    @property
    def requirement_met(self) -> bool:
        return not self.unmet

    def spare_jokers(self) -> tuple[int, ...]:
        """The jokers in no sequence or set (a group of jokers alone, or one alone): they
        count 0 however the rest is charged."""
        return tuple(c for g in self.groups if g.verdict.kind is MeldKind.JOKERS for c in g.cards)

    def spare_words(self) -> str:
        """`` but for the joker 5H, which counts 0`` after "every card is in a valid
        sequence or set", where jokers are in none (a loser with a joker left over was told
        every card is in one: a blind tester); empty where there is none."""
        spare = self.spare_jokers()
        if not spare:
            return ""
        if len(spare) == 1:
            return f" but for the joker {format_codes(spare)}, which counts 0"
        return f" but for the jokers {format_codes(spare)}, which count 0 each"

    def summary(self) -> str:
        """One sentence: what counts and what it comes to."""
        if self.ready:
            capped = f", capped at {self.cap}" if self.raw > self.points else ""
            return (
                f"the hand was ready ({self.ready}): {self.raw} points{capped} (points.ready_hand)"
            )
        if not self.counted:
            return f"every card is in a valid sequence or set{self.spare_words()}: 0 points"
        if self.requirement_met:
            why = "the cards left unmatched"
        elif len(self.exempt_groups) > 1:
            runs = " and ".join(format_codes(g) for g in self.exempt_groups)
            why = (
                f"every card but the pure sequences {runs} counts "
                f"(points.unmet_requirement) because {self.unmet[0]}; the cards"
            )
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
    the groups hold one), for ``pure_runs_exempt`` the cards of every pure sequence
    (tunnelas too). The total is capped at ``cap`` (default ``points.cap``).

    Under ``points.ready_hand`` (21 and 27 cards) a hand that was ready is charged the ready
    hand's points whatever else: its groups leave nothing that counts (they meet the
    requirement with no card left over but jokers, worth 0; or, the requirement unmet,
    every card lies in pure sequences, which 21 cards always can be laid to meet it), or
    its cards hold the dublees or jokers the rule names (``counts.ready_reason``). No
    arrangement is then charged less than the ready hand, so the least points of a hand
    are the least of its arrangements still (``solver.py``).

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
    exempt_groups: tuple[tuple[int, ...], ...] = ()
    if unmet and rules.unmet_requirement == "pure_runs_exempt":
        exempt_groups = tuple(g.cards for g in checked if g.verdict.is_pure_run)
        exempt = tuple(c for g in exempt_groups for c in g)
        counted = tuple(c for g in checked if not g.verdict.is_pure_run for c in g.cards)
    elif unmet and rules.unmet_requirement == "pure_run_exempt":
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
    ready = ""
    if rules.ready_hand is not None:
        melded = raw == 0  # nothing that counts is left over (see above)
        cards = [c for g in checked for c in g.cards]
        ready = ready_reason(cards, jokers, rules, melded) or ""
        if ready:
            raw = rules.ready_hand.points
    return Score(
        min(raw, limit),
        raw,
        limit,
        checked,
        counted,
        unmet,
        full_count,
        exempt,
        exempt_groups,
        ready,
    )
