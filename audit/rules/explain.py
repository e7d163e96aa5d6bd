"""Plain-text views of the rules engine for people: a preset's rules, a hand's verdicts."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from audit.cards import format_codes, parse_codes, split_codes
from audit.rules.declaration import GroupCheck, check_declaration
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset
from audit.rules.scoring import score_arrangement
from audit.rules.solver import best_arrangement

SEPARATORS = {"/", "|", "--"}


def show_preset(rules: Ruleset) -> str:
    """Every rule of a preset: key = value, the rule in words, its source and any choice."""
    lines = [f"{rules.id}: {rules.title}", f"file: {rules.path}", ""]
    section = ""
    for key in sorted(rules.rules, key=_rule_order(rules)):
        rule = rules.rules[key]
        head = key.split(".", 1)[0]
        if head != section:
            section = head
            lines.append(f"[{section}]")
        lines.append(f"{key} = {_value(rule.value)}")
        lines.append(f"    {rule.text}")
        lines.append(f"    source: {rule.source}")
        if rule.choice:
            lines.append(f"    choice: {rule.choice}")
    return "\n".join(lines)


def _rule_order(rules: Ruleset) -> Callable[[str], tuple[int, int]]:
    order = {key: i for i, key in enumerate(rules.rules)}
    sections: dict[str, int] = {}
    for key in rules.rules:
        sections.setdefault(key.split(".", 1)[0], len(sections))
    return lambda key: (sections[key.split(".", 1)[0]], order[key])


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def split_groups(args: Sequence[str]) -> list[list[int]]:
    """Groups of card codes from command-line words.

    A word holding several cards is a group; ``/`` separates groups of single-card words;
    single cards with no separator at all are one group.

    >>> split_groups(["AH 2H 3H", "9S,TS,JK"])
    [[13, 14, 15], [8, 9, 52]]
    >>> [len(g) for g in split_groups(["AH", "2H", "/", "3H", "4H"])]
    [2, 2]
    """
    words = [split_codes(arg) if arg not in SEPARATORS else None for arg in args]
    if any(w is None for w in words) or all(w is not None and len(w) <= 1 for w in words):
        groups: list[list[str]] = [[]]
        for w in words:
            if w is None:
                groups.append([])
            else:
                groups[-1].extend(w)
    else:
        groups = [w for w in words if w]
    return [parse_codes(g) for g in groups if g]


def check_groups_text(args: Sequence[str], *, wild: str | None, rules: Ruleset) -> str:
    """The verdict on each group and, for a whole hand, the declaration and the best score."""
    groups = split_groups(args)
    jokers = Jokers.for_wild_card(wild, rules)
    hand = [c for g in groups for c in g]
    lines = [f"ruleset {rules.id}; jokers: {jokers.describe()}"]
    declaration = check_declaration(hand, groups, jokers, rules)
    for i, group in enumerate(declaration.groups, 1):
        lines.append(_group_line(i, group))
    if len(hand) != rules.cards_per_hand:
        lines.append(
            f"{len(hand)} cards: a whole hand of {rules.cards_per_hand} would also be judged "
            "as a declaration and scored"
        )
        return "\n".join(lines)
    if declaration.valid:
        lines.append("declaration: VALID")
    else:
        lines.append("declaration: INVALID, because")
        lines += [f"  - {reason}" for reason in declaration.reasons]
    score = score_arrangement(groups, jokers, rules)
    lines.append(f"as a losing hand: {score.points} points ({score.summary()})")
    best, arrangement = best_arrangement(hand, jokers, rules)
    if best == score.points:
        lines.append(f"best possible: {best} points, as arranged")
    else:
        lines.append(f"best possible: {best} points, arranged as:")
        best_groups = score_arrangement(arrangement, jokers, rules).groups
        melds = [g for g in best_groups if g.verdict.is_valid]
        loose = [c for g in best_groups if not g.verdict.is_valid for c in g.cards]
        lines += [f"  {_group_line(i, g)}" for i, g in enumerate(melds, 1)]
        if loose:
            lines.append(f"  unmatched: {format_codes(loose)}")
    return "\n".join(lines)


def _group_line(i: int, group: GroupCheck) -> str:
    return f"group {i}: {group.text}: {group.verdict.kind.value} ({group.verdict.reason})"
