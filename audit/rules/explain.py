"""Plain-text views of the rules engine for people: a preset's rules, a hand's verdicts."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache

from audit.cards import CODE_TEXT, JOKER, format_codes, parse_codes, split_codes
from audit.errors import AuditError
from audit.records import and_words
from audit.rules.counts import value_of
from audit.rules.declaration import GroupCheck, cannot_meet, check_declaration
from audit.rules.melds import Jokers, classify
from audit.rules.ruleset import Ruleset, toml_text
from audit.rules.scoring import Score, score_arrangement
from audit.rules.solver import best_arrangement, best_points
from audit.rules.ways import grouped_arrangement

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
        lines.append(f"{key} = " + toml_text(rule.value))
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


def split_groups(args: Sequence[str]) -> list[list[int]]:
    """Groups of card codes from command-line words; an ``AuditError`` for an empty group.

    Each argument holding several cards, or written with spaces or commas (``"AH 2H 3H"``,
    ``AH,2H,3H``, ``AH2H3H``), is a group of its own. Arguments of one card each side by
    side are one group, which ``/`` (or ``|``, ``--``) closes; a ``/`` may also follow a
    group of its own. So ``"AH 2H 3H" 4C / 5C 6C 7C`` is three groups: ``AH 2H 3H``, ``4C``
    and ``5C 6C 7C``.

    >>> split_groups(["AH 2H 3H", "9S,TS,JK"])
    [[13, 14, 15], [8, 9, 52]]
    >>> [len(g) for g in split_groups(["AH", "2H", "/", "3H", "4H"])]
    [2, 2]
    >>> [len(g) for g in split_groups(["AH 2H 3H", "4C", "/", "5C", "6C", "7C"])]
    [3, 1, 3]
    """
    groups: list[list[str]] = []
    run: list[str] | None = None  # the group of single-card arguments being written
    closed = True  # nothing written since the start or the last separator

    def empty(where: str) -> AuditError:
        return AuditError(f"group {len(groups) + 1} is empty ({where})", slug="groups")

    for i, arg in enumerate(args, 1):
        if arg in SEPARATORS:
            if closed:
                where = (
                    "before" if i == 1 else f"between the {args[i - 2]!r} of argument {i - 1} and"
                )
                raise empty(f"nothing {where} the {arg!r} of argument {i}")
            run, closed = None, True
            continue
        codes = split_codes(arg)
        if not codes:
            raise empty(f"argument {i} is {arg!r}, which holds no card")
        if len(codes) == 1 and not _GROUPED.search(arg):
            if run is None:
                run = []
                groups.append(run)
            run.append(codes[0])
        else:
            groups.append(codes)
            run = None
        closed = False
    if args and args[-1] in SEPARATORS:
        raise empty(f"nothing after the {args[-1]!r} of argument {len(args)}")
    return [parse_codes(g) for g in groups]


_GROUPED = re.compile(r"[\s,]")
"""What makes an argument of one card a group of its own: a space or a comma in it."""


def too_many_copies(hand: Sequence[int], rules: Ruleset, wild: int | None = None) -> str | None:
    """Why ``hand`` cannot come from any shoe of ``rules`` (a card more often than the
    largest shoe holds it, less the ``wild`` card turned up, which is out of play:
    log-format.md), or None when it can.

    >>> from audit.rules.ruleset import load_preset
    >>> r13 = load_preset("standard-13")
    >>> print(too_many_copies(parse_codes("AH AH AH 2H".split()), r13))
    ... # doctest: +NORMALIZE_WHITESPACE
    the cards hold 3 AH, but the largest shoe of standard-13 (deal.shoes) holds 2 of each
    card and 2 printed jokers
    >>> print(too_many_copies(parse_codes("7H 7H 2H".split()), r13, parse_codes(["7H"])[0]))
    ... # doctest: +NORMALIZE_WHITESPACE
    the cards hold 2 7H, but the largest shoe of standard-13 (deal.shoes) holds 2 of each
    card and 2 printed jokers, and 7H is the wild card turned up, out of play
    """
    decks = max(shoe.decks for shoe in rules.shoes)
    jokers = max(shoe.printed_jokers for shoe in rules.shoes)
    counts = Counter(hand)
    over = [
        f"{n} {CODE_TEXT[code]}"
        for code, n in counts.items()
        if n > (jokers if code == JOKER else decks) - (code == wild)
    ]
    if not over:
        return None
    held = f"{decks} of each card and {jokers or 'no'} printed joker{'' if jokers == 1 else 's'}"
    out = "" if wild is None or wild not in counts else (
        f", and {CODE_TEXT[wild]} is the wild card turned up, out of play")  # a blind tester
    return (
        f"the cards hold {', '.join(over)}, but the largest shoe of {rules.id} (deal.shoes) "
        f"holds {held}{out}"
    )


def check_groups_text(args: Sequence[str], *, wild: str | None, rules: Ruleset) -> str:
    """The verdict on each group and, for a whole hand, the declaration and the best score.

    An ``AuditError`` (one line) for an empty group, or for cards no shoe of the preset
    could deal together."""
    groups = split_groups(args)
    if not groups:
        raise AuditError("no cards given", slug="groups")
    if wild is not None:  # read as the groups are: "10h" is TH (a person writes it)
        written = split_codes(wild)
        if len(written) != 1:
            raise AuditError(f"--wild takes one card, not {wild!r}", slug="groups")
        wild = written[0]
    jokers = Jokers.for_wild_card(wild, rules)
    hand = [c for g in groups for c in g]
    impossible = too_many_copies(hand, rules, parse_codes([wild])[0] if wild else None)
    if impossible:
        raise AuditError(impossible, slug="groups")
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
    if declaration.valid and declaration.alternative:
        lines.append(f"declaration: VALID, as {declaration.alternative}")
    elif declaration.valid:
        lines.append("declaration: VALID")
    else:
        lines.append("declaration: INVALID, because")
        lines += [f"  - {reason}" for reason in declaration.reasons]
    score = score_arrangement(groups, jokers, rules)
    why = unmet_why(hand, score, jokers, rules, groups="the groups given")
    told = with_why(score, why) if why else score
    lines.append(f"as a losing hand: {score.points} points ({told.summary()})")
    if rules.value_cards is not None and jokers.kinds:
        lines.append(_value_line(hand, jokers, rules))
    whole, arrangement = best_arrangement_whole(hand, jokers, rules)
    best = min(whole, rules.cap)
    if best == score.points and whole >= score.raw:
        lines.append(f"best possible: {best} points, as arranged")
    else:
        if best == score.points:  # the cap makes them equal: the best groups are shown
            head = (f"{best} points, the same as arranged because of the cap (points.cap): "
                    f"at best the cards are worth {whole}, capped at {best},")  # fmt: skip
        else:
            head = f"{best} points,"
        scored = score_arrangement(arrangement, jokers, rules)
        if scored.ready and best:  # 21 and 27 cards: a loser's ready hand, charged 2
            valid = check_declaration(hand, arrangement, jokers, rules).valid
            also = ", and a valid declaration" if valid else ""
            head = (f"{best} points as a losing hand, the hand ready ({scored.ready}: "
                    f"points.ready_hand){also},")  # fmt: skip
        lines.append(f"best possible: {head} arranged as:")
        best_groups = scored.groups
        melds = [g for g in best_groups if g.verdict.is_valid]
        loose = [c for g in best_groups if not g.verdict.is_valid for c in g.cards]
        lines += [f"  {_group_line(i, g)}" for i, g in enumerate(melds, 1)]
        if loose:
            lines.append(f"  unmatched: {format_codes(loose)}")
    if best == 0 and not declaration.valid and rules.groupings is not None:
        # 0 points as a losing hand whatever the groups' sizes; a declaration must be
        # grouped as declaration.groupings says.
        grouped = grouped_arrangement(hand, jokers, rules)
        if grouped is None:
            lines.append("no valid declaration: these cards make no melds of the sizes a "
                         "declaration is grouped in (declaration.groupings)")  # fmt: skip
        else:
            lines.append("a valid declaration of these cards, in the sizes allowed:")
            checked = check_declaration(hand, grouped, jokers, rules).groups
            lines += [f"  {_group_line(i, g)}" for i, g in enumerate(checked, 1)]
    return "\n".join(lines)


def _value_line(hand: Sequence[int], jokers: Jokers, rules: Ruleset) -> str:
    """What the value cards among ``hand`` are worth at a points game's show (b51: a
    support agent could not settle a value-card question with ``rules check``).

    >>> from audit.cards import parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> j = Jokers.for_wild_card("7H", r21)
    >>> line = _value_line(parse_codes("7H 8H 6H 8H 2C".split()), j, r21)
    >>> line.split(": ", 1)[1].split(", received")[0]
    '7H 8H 6H: 1 marriage (100); value cards 8H (10): 110 points'
    >>> _value_line(parse_codes("2C 3C".split()), j, r21)
    'value cards (points.value_cards, points games only): none held (they are 7H, 8H, 6H)'
    """
    value = value_of(hand, jokers, rules)
    head = "value cards (points.value_cards, points games only): "
    if not value.points:
        kinds = ", ".join(CODE_TEXT[c] for c in jokers.kinds)
        return f"{head}none held (they are {kinds})"
    return (
        f"{head}{value.words}: {value.points} points, received from each other player still "
        "in at the show, who each pay theirs the same way"
    )


def _group_line(i: int, group: GroupCheck) -> str:
    return f"group {i}: {group.text}: {group.verdict.kind.value} ({group.verdict.reason})"


def pure_runs(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> list[tuple[int, ...]]:
    """The pure sequences ``cards`` hold: each suit's longest runs of consecutive cards
    (the ace low or high), then, where a tunnela is a pure sequence (21 and 27 cards:
    ``melds.tunnela_kind``), three identical cards among those left; ``classify`` judging
    each pure, no card used twice.

    >>> from audit.rules.ruleset import load_preset
    >>> cards = parse_codes("2S 3S 4S JS KS 3H 3H TH JH AD AD QD JC".split())
    >>> rules = load_preset("standard-13")
    >>> [format_codes(run) for run in pure_runs(cards, Jokers.of_rank(5), rules)]
    ['2S 3S 4S']
    >>> r21 = load_preset("standard-21")
    >>> cards = parse_codes("QC KC AC 5D 5D 5D 5H 9S".split())
    >>> [format_codes(run) for run in pure_runs(cards, Jokers.for_wild_card("7H", r21), r21)]
    ['QC KC AC', '5D 5D 5D']
    """
    left = Counter(c for c in cards if c != JOKER)
    found: list[tuple[int, ...]] = []
    for suit in range(4):
        ranks = sorted({c % 13 for c in left if c // 13 == suit})  # the ace is 0
        numbers = ranks + ([13] if 0 in ranks else [])  # and 13 in its high place
        start = 0
        for i in range(1, len(numbers) + 1):
            if i < len(numbers) and numbers[i] == numbers[i - 1] + 1:
                continue
            run = numbers[start:i]
            start = i
            if run and run[0] == 0 and run[-1] == 13:
                run = run[:-1]  # one ace, not both ends
            codes = tuple(suit * 13 + n % 13 for n in run)
            if len(codes) < max(rules.min_meld_size, 3) or any(left[c] < 1 for c in codes):
                continue
            if classify(codes, jokers, rules).is_pure_run:
                found.append(codes)
                left.subtract(codes)
    for code in sorted(left):
        while left[code] >= 3 and classify((code,) * 3, jokers, rules).is_pure_run:
            found.append((code,) * 3)
            left[code] -= 3
    return found


@lru_cache(maxsize=64)
def _meeting_rules(rules: Ruleset) -> Ruleset:
    """``rules`` charging an arrangement without the declaration's sequences more than
    any with them: its least points say whether the cards can make them at all
    (``can_meet``). Cached: a ``Ruleset`` hashes by identity, and the solver's tables are
    cached by ruleset."""
    return replace(rules, unmet_requirement="full_count", ready_hand=None, cap=1 << 20)


def can_meet(cards: Sequence[int], jokers: Jokers, rules: Ruleset) -> bool:
    """Whether some arrangement of ``cards`` makes the sequences a declaration needs, at
    any points (the best arrangement may leave them unmade where the cap, or the pure
    sequences spared, charge it no more).

    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> j = Jokers.for_wild_card("7H", r21)
    >>> can_meet(parse_codes("QC KC AC 2S 3S 4S 9D TD JD".split()), j, r21)
    True
    >>> can_meet(parse_codes("QC KC AC 2S 3S 4S 9D TD KD".split()), j, r21)
    False
    """
    meeting = _meeting_rules(rules)
    return best_points(cards, jokers, meeting, cap=meeting.cap) < meeting.cap


def unmet_why(
    cards: Sequence[int],
    score: Score,
    jokers: Jokers,
    rules: Ruleset,
    *,
    groups: str = "the groups they showed",
) -> str:
    """Why every card of a loser's arrangement ``score`` counts, said true of their
    ``cards`` and not only of the ``groups`` (the arrangement's own words, "it has no pure
    sequence", were read of the cards by blind testers: a 13-card player whose cards held
    2S 3S 4S, a 21-card one whose cards held QC KC AC, each shown ungrouped): that the
    groups make fewer sequences than the cards could (see the best possible arrangement),
    or what pure sequences the cards hold and that no arrangement of them makes those a
    declaration needs; where the pure sequences laid are spared
    (``points.unmet_requirement``), that those held were not laid, so not spared. ``""``
    where the arrangement's own words stand: the requirement is met, a pure sequence laid
    is spared, the hand was ready, or the ruleset asks no sequence.

    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> j = Jokers.for_wild_card("JD", r21)
    >>> hand = parse_codes(
    ...     "AS JS 5C 3C QH QC 4S 7H 8C TH JK QC 8S KC TH 7D AH 6S QS AC 8D".split())
    >>> score = score_arrangement([hand], j, r21)
    >>> print(unmet_why(hand, score, j, r21))  # doctest: +NORMALIZE_WHITESPACE
    no arrangement of their cards makes the 3 pure sequences that a declaration needs,
    though they hold the pure sequence QC KC AC, and the groups they showed do not lay it
    as a sequence, so it is not spared
    """
    if (
        not score.unmet
        or score.exempt
        or score.ready
        or not (rules.min_runs or rules.min_pure_runs)
    ):
        return ""
    need = cannot_meet(rules).removeprefix("no arrangement of their cards makes ")
    _, best = best_arrangement_whole(cards, jokers, rules)
    runs = [g for g in score.groups if g.verdict.is_run]
    made = and_words([f"{g.text} ({g.verdict.kind.value})" for g in runs]) or "no sequence"
    made = f"{groups} make {'only ' if runs else ''}{made}, not {need}"
    if not score_arrangement(best, jokers, rules).unmet:
        return f"{made}, though their cards could (see the best possible arrangement)"
    held = [format_codes(run) for run in pure_runs(cards, jokers, rules)]
    one = "the pure sequence" if len(held) == 1 else "the pure sequences"
    if can_meet(cards, jokers, rules):
        # the best arrangement does not make them (the cap, or the pure sequences spared
        # without them, charge it no more)
        why = (f"{made}; their cards could make them, though at no fewer points than the "
               "best possible arrangement")  # fmt: skip
        if held:
            why += f", and hold {one} {and_words(held)}"
    elif held:
        # the reason first, then what the player points to: read after "every card counts
        # because", "their cards hold the pure sequence ..." said it was why (b109)
        why = (f"no arrangement of their cards makes {need}, though they hold {one} "
               f"{and_words(held)}")
    else:
        return cannot_meet(rules)
    if held and rules.unmet_requirement in ("pure_run_exempt", "pure_runs_exempt"):
        laid = ("do not lay it as a sequence, so it is not spared" if len(held) == 1
                else "lay none of them as a sequence, so none is spared")  # fmt: skip
        why += f", and {groups} {laid}"
    return why


def with_why(score: Score, why: str) -> Score:
    """``score`` with ``why`` as the reason its requirement is unmet (``unmet_why``), for
    its ``summary``; the points are the same."""
    return Score(score.points, score.raw, score.cap, score.groups, score.counted, (why,),
                 score.full_count, score.exempt, score.exempt_groups, score.ready)  # fmt: skip


UNCAPPED = 1 << 30
"""A cap no hand reaches: ``best_arrangement_whole`` searches past the ruleset's."""


def best_arrangement_whole(
    hand: Sequence[int], jokers: Jokers, rules: Ruleset
) -> tuple[int, list[list[int]]]:
    """The fewest points any arrangement of ``hand`` comes to before the cap, and one
    arrangement that comes to them: for a dispute (``explain``, ``rules check``), never the
    audit of a hand. ``best_arrangement`` stops at ``points.cap`` (every arrangement past
    it is charged the cap), and its arrangement is then every card alone, whatever melds
    the cards hold: a 21-card loser whose cards hold a pure sequence worth 126 with it
    laid, 156 without, was shown "best possible: 120 points" with every card ungrouped (a
    blind tester). Searched again past the cap, the groups are the best ones there too.

    >>> from audit.cards import format_codes, parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> r21 = load_preset("standard-21")
    >>> hand = parse_codes(
    ...     "AS JS 5C 3C QH QC 4S 7H 8C TH JK QC 8S KC TH 7D AH 6S QS AC 8D".split())
    >>> jd = Jokers.for_wild_card("JD", r21)
    >>> best_arrangement(hand, jd, r21)[0], best_arrangement(hand, jd, r21)[1][0]
    (120, [0])
    >>> points, groups = best_arrangement_whole(hand, jd, r21)
    >>> points, format_codes(groups[0])
    (126, 'QC KC AC')
    """
    points, groups = best_arrangement(hand, jokers, rules)
    if points < rules.cap:
        return points, groups
    return best_arrangement(hand, jokers, rules, cap=UNCAPPED)
