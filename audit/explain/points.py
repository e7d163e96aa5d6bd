"""The points side of an explained hand: a loser's points card by card, the best
arrangement their cards allowed, and the value cards of 21 and 27 cards with what they
settle; each with the rules behind it (``RuleView``). ``view.py`` puts them in a
``PlayerView``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from audit.cards import JOKER, format_codes
from audit.explain.cards import (
    CardView,
    GroupView,
    card_view,
    card_views,
    group_views,
    joker_note,
    joker_words,
    on_its_own,
)
from audit.records import Game
from audit.replay.outcome import (
    REJECTED_ENDED,
    Expected,
    HandAudit,
    money_by_rules,
    seat_by_rules,
    server_loser,
)
from audit.replay.seats import Seat
from audit.rules.counts import value_of
from audit.rules.declaration import GroupCheck, check_declaration
from audit.rules.explain import best_arrangement_whole, pure_runs, unmet_why, with_why
from audit.rules.melds import Jokers, MeldKind, group_rule
from audit.rules.ruleset import Ruleset
from audit.rules.scoring import score_arrangement
from audit.rules.ways import grouped_arrangement


@dataclass(frozen=True)
class RuleView:
    """A rule of the ruleset: its key, its words and where they come from."""

    key: str
    text: str
    source: str
    choice: str = ""
    """Why the ruleset reads it so where the seeds differ, when the citation gives it
    (``rule_view``'s ``choice``)."""

    @property
    def cite(self) -> str:
        choice = f" Choice: {self.choice}" if self.choice else ""
        return f"{self.key}: {self.text} ({self.source}){choice}"


@dataclass(frozen=True)
class PointLine:
    """One counted card: its points and the rule that gives them."""

    card: CardView
    points: int
    rule: str
    note: str


@dataclass(frozen=True)
class PointsView:
    """A loser's points card by card, the steps from their sum to the charge, and the rules."""

    lines: tuple[PointLine, ...]
    total: int
    charged: int
    steps: tuple[str, ...]
    rules: tuple[RuleView, ...]


@dataclass(frozen=True)
class BestView:
    """The fewest points the player's cards could have been charged, and how."""

    points: int
    summary: str
    melds: tuple[GroupView, ...]
    unmatched: tuple[CardView, ...]
    note: str = ""
    """What the jokers among ``unmatched`` are worth (``cards.joker_note``)."""


@dataclass(frozen=True)
class ValueView:
    """A player's value cards at the show of a 21- or 27-card points hand and what they
    settle (``points.value_cards``): ``cards`` are the value cards held (the declarer's
    finish card is not among them), ``words`` say what they are worth, ``settlement`` what
    the player receives from and pays the others still in, ``net`` the difference, and
    ``money`` the amount split into card points and value points."""

    cards: tuple[CardView, ...]
    words: str
    points: int
    net: int
    settlement: str
    money: str
    rule: RuleView | None
    cut: str = ""
    """Why the value cards are counted around another card than the one turned up (a
    printed joker: ``jokers.printed_joker_cut_card``), with ``cut_rule``; empty otherwise."""
    cut_rule: RuleView | None = None


def rule_view(rules: Ruleset, key: str, *, choice: bool = False) -> RuleView | None:
    """A rule of ``rules`` as shown, with its choice text when ``choice`` (where the seeds
    read it both ways), or ``None`` where the ruleset has no such key."""
    if key not in rules.rules:
        return None
    rule = rules.rule(key)
    return RuleView(rule.key, rule.text, rule.source, rule.choice if choice else "")


# ------------------------------------------------------------ value cards


def value_view(player: str, audit: HandAudit, game: Game, rules: Ruleset) -> ValueView | None:
    """A player's value cards and their settlement, where the rules settle them."""
    want = audit.expected.get(player)
    share = want.value if want is not None else None
    replay = audit.replay
    jokers = replay.jokers
    kinds = set(jokers.kinds)
    cards = seat_by_rules(replay, player).cards
    held = sorted(c for c in cards if c in kinds)
    out = ("first_drop", "middle_drop", "invalid_declare")
    settlement = ""
    if share is None and want is not None and want.outcome in out and _settles_values(audit, game):
        # points.value_cards: "a player who dropped or declared wrongly neither pays nor
        # receives": said on their own panel too, where their dispute is read.
        settlement = (
            "a player who dropped or declared wrongly neither pays nor receives for value cards"
        )
    elif share is None and want is not None and held and _values_unsettled(audit, game):
        # schemas/money.md: a hand not ended by a valid declaration has no value
        # settlement; said where the cards are, so "where is my marriage's 100?" has its
        # answer on the player's panel (a blind tester found no word of it).
        settlement = (
            "the hand did not end on a valid declaration, so no value cards are settled in it"
        )
    if settlement:
        worth = value_of(cards, jokers, replay.rules)
        return ValueView(
            cards=card_views(held, jokers),
            words=worth.words or "no value cards",
            points=worth.points,
            net=0,
            settlement=f"{settlement}: net 0",
            money="",
            rule=rule_view(rules, "points.value_cards"),
        )
    if want is None or share is None:
        return None
    cut, cut_rule = cut_card_words(replay.hand.wild, jokers, rules)
    many = "other" if share.others == 1 else "others"
    settlement = (
        f"receives {share.value.points} from each of the {share.others} {many} still in at "
        f"the show and pays them {share.paid} for theirs: net {share.net:+d}"
    )
    return ValueView(
        cards=card_views(held, jokers),
        words=share.value.words or "no value cards",
        points=share.value.points,
        net=share.net,
        settlement=settlement,
        money=_value_money(want, audit, game),
        rule=rule_view(rules, "points.value_cards"),
        cut=cut,
        cut_rule=cut_rule,
    )


def cut_card_words(wild: int, jokers: Jokers, rules: Ruleset) -> tuple[str, RuleView | None]:
    """Why the value cards and the up and down jokers are counted around a card that was
    not turned up: the wild card is a printed joker, and ``jokers.printed_joker_cut_card``
    names the card that stands as the cut card (a blind tester read "value cards AS (10)"
    under the wild card JK with only "the value cards are the cut card itself" cited);
    ``("", None)`` otherwise.

    >>> from audit.cards import JOKER
    >>> from audit.rules.ruleset import load_preset
    >>> r27 = load_preset("standard-27")
    >>> words, rule = cut_card_words(JOKER, Jokers.for_wild_card("JK", r27), r27)
    >>> words
    'the wild card turned up is a printed joker, so AS stands as the cut card'
    >>> rule.key
    'jokers.printed_joker_cut_card'
    """
    if wild != JOKER or not jokers.kinds:
        return "", None
    words = (
        f"the wild card turned up is a printed joker, so {format_codes(jokers.kinds[:1])} "
        "stands as the cut card"
    )
    return words, rule_view(rules, "jokers.printed_joker_cut_card")


def _settles_values(audit: HandAudit, game: Game) -> bool:
    """Whether the hand settled value cards (points rummy under ``points.value_cards``, a
    player still in at the show having a share)."""
    if game.format != "points" or audit.replay.rules.value_cards is None:
        return False
    return any(e.value is not None for e in audit.expected.values())


def _values_unsettled(audit: HandAudit, game: Game) -> bool:
    """Whether the hand is a points hand of a ruleset with value cards that settled none:
    it did not end on a valid declaration (the last player left in, or an invalid
    declaration that ended it)."""
    if game.format != "points" or audit.replay.rules.value_cards is None:
        return False
    return all(e.value is None for e in audit.expected.values())


def _value_money(want: Expected, audit: HandAudit, game: Game) -> str:
    """The rules' amount split into card points and value points: ``card points -9, value
    cards +160: +151 points at 1.0000 a point``; the winner's less the rake
    (``money.points_settlement``)."""
    share = want.value
    if share is None or game.point_value is None:
        return ""
    if want.outcome == "won":
        said = audit.expected.values()
        _, fee = money_by_rules(game, audit.expected)
        cards = sum(e.points for e in said if e.outcome != "won" and e.points is not None)
        winners = sum(1 for e in said if e.outcome == "won")
        rake = f", less the {game.rake_pct}% rake of {fee}" if winners == 1 else ""
        if winners == 1 and cards + share.net <= 0 and not fee:
            # a winner who pays on value cards takes nothing for a rake to be taken on
            rake = ", no rake (it is taken on what the winner takes)"
    elif want.points is None:
        return ""
    else:
        cards, rake = -want.points, ""
    total = cards + share.net
    return (
        f"card points {cards:+d}, value cards {share.net:+d}: {total:+d} points at "
        f"{game.point_value} a point{rake}"
    )


# ------------------------------------------------------------ points


def points_view(want: Expected, jokers: Jokers, rules: Ruleset) -> PointsView | None:
    """A loser's points card by card, each step to what is charged, and the rules behind
    them other than the one the outcome already cites."""
    score = want.score
    if score is None:
        return None
    table = rules.points_table(jokers.codes)
    lines = tuple(
        PointLine(card_view(c, jokers), table[c], *_point_rule(c, jokers)) for c in score.counted
    )
    total = sum(line.points for line in lines)
    keys = [line.rule for line in lines]
    # A group offered as a meld that is none: the rule it breaks, where its reason names one
    # (7H 7H 7D "is not a set: ... hearts appears twice" cited only the cards' points;
    # 001_: 'Two cards from the same suit in a set make it invalid').
    keys += [rule for g in score.groups
             if not g.verdict.is_valid and len(g.cards) >= rules.min_meld_size
             and (rule := group_rule(g.verdict.reason, ""))]  # fmt: skip
    steps: list[str] = []
    # jokers set aside alone count 0 by it, whatever else is counted (a blind tester: 9H and
    # JK shown as groups of one card, only the card points were cited)
    if score.spare_jokers():
        keys.append("points.joker_points")
    if not lines:
        steps.append(f"every card is in a valid sequence or set{score.spare_words()}: 0 points")
    elif score.requirement_met:
        steps.append(f"the cards left unmatched add up to {total}")
    else:
        keys.append("points.unmet_requirement")
        spared = _spared(score.exempt, score.exempt_groups)
        steps.append(f"every card{spared} counts, because {' and '.join(score.unmet)}: {total}")
    if score.full_count:
        steps.append(f"the requirement is unmet: the full count of {score.raw} is charged")
    if score.ready:  # the ready hand's points replace the count (points.ready_hand)
        keys.append("points.ready_hand")
        steps.append(f"but the hand was ready ({score.ready}): {score.raw} points")
    if score.raw > score.points:
        cap_key = "points.first_hand_show_cap" if score.cap < rules.cap else "points.cap"
        keys.append(cap_key)
        steps.append(f"capped at {score.cap} ({cap_key})")
    steps.append(f"charged {score.points} points")
    cited = (rule_view(rules, key) for key in dict.fromkeys(keys) if key != want.rule_key)
    return PointsView(lines, total, score.points, tuple(steps), tuple(r for r in cited if r))


def _spared(exempt: tuple[int, ...], groups: tuple[tuple[int, ...], ...]) -> str:
    """The pure sequences not charged, each on its own (``Score.summary``'s words: two
    were said as one sequence of six cards, a blind tester).

    >>> from audit.cards import parse_codes
    >>> a, b = tuple(parse_codes("2D 3D 4D".split())), tuple(parse_codes("TH JH QH".split()))
    >>> _spared(a + b, (a, b)), _spared(a, (a,)), _spared((), ())
    (' but the pure sequences 2D 3D 4D and TH JH QH', ' but the pure sequence 2D 3D 4D', '')
    """
    if len(groups) > 1:
        return f" but the pure sequences {' and '.join(format_codes(g) for g in groups)}"
    return f" but the pure sequence {format_codes(exempt)}" if exempt else ""


def _point_rule(code: int, jokers: Jokers) -> tuple[str, str]:
    words = joker_words(code, jokers)
    return ("points.joker_points", words) if words else ("points.card_points", "")


def shown_loser(
    want: Expected | None, seat: Seat, jokers: Jokers, rules: Ruleset
) -> Expected | None:
    """A loser charged as shown whose groups miss the sequences a declaration needs, with
    why every card counts said true of their cards (``rules.explain.unmet_why``): what
    their cards hold against what a declaration needs, or that the groups they showed make
    fewer than their cards could. The shown groups' own words ("it has no sequences ... no
    pure sequence") were read by blind testers as said of a player whose cards held
    2S 3S 4S (13 cards), or QC KC AC (21 cards), shown ungrouped."""
    score = None if want is None else want.score
    if want is None or score is None or want.outcome != "lost" or seat.shown is None:
        return want
    why = unmet_why(seat.cards, score, jokers, rules)
    if not why:
        return want
    said = with_why(score, why)
    return replace(want, score=said, why=want.why.replace(score.summary(), said.summary(), 1))


def exact_loser(
    want: Expected | None, seat: Seat, jokers: Jokers, rules: Ruleset
) -> Expected | None:
    """A loser the server arranged and charged the cap, with the best groups of their
    cards: the audit stops searching at the cap (``arranged_by_server``), so its groups
    are any; a dispute shows the ones that come to fewest points, then the cap."""
    score = None if want is None else want.score
    if (
        want is None
        or score is None
        or want.outcome != "lost"
        or seat.shown is not None
        or score.ready
        or score.points < score.cap
    ):
        return want
    full = server_loser(seat.cards, jokers, rules, score.cap, want.rule_key, whole=True)
    said = full.score
    if said is not None and rules.unmet_requirement != "all_cards":
        # What the best arrangement lacks, said of the cards (``arranged_by_server`` does
        # so under "all_cards"): under the other charges it may lay no pure sequence
        # because the cards hold none, and "it has no pure sequence" reads as of the groups.
        why = unmet_why(seat.cards, said, jokers, rules, groups="their best arrangement")
        if why:
            told = with_why(said, why)
            full = replace(full, score=told,
                           why=full.why.replace(said.summary(), told.summary(), 1))  # fmt: skip
    lead, ended, _ = want.why.partition(REJECTED_ENDED)
    # after a valid declaration the platform rejected, the words of who ended the hand stay
    return replace(want, score=full.score, why=f"{lead}{ended}{full.why}" if ended else full.why)


def best_view(seat: Seat, want: Expected | None, jokers: Jokers, rules: Ruleset) -> BestView | None:
    """The best arrangement of a loser's or an invalid declarer's cards: searched whole,
    past the cap, so that its groups are the best ones even where the cap is charged."""
    if want is None or not seat.cards:
        return None
    if want.outcome == "lost" and want.score is not None:
        cap = want.score.cap
    elif want.outcome == "invalid_declare":
        cap = rules.cap
    else:
        return None
    # Past the cap (``best_arrangement_whole``): at it, the solver's groups are every card
    # alone, and a 21-card loser holding QC KC AC was shown it ungrouped as the best.
    whole, arrangement = best_arrangement_whole(seat.cards, jokers, rules)
    points = min(whole, cap)
    # 21 and 27 cards: a hand whose cards make a valid declaration is charged a loser's
    # ready hand (points.ready_hand, 2), not 0; an invalid declarer holding one could have
    # won (a blind tester's 21-card player was told no valid declaration was possible)
    valid = (want.outcome == "invalid_declare" and rules.ready_hand is not None
             and check_declaration(seat.cards, arrangement, jokers, rules).valid)  # fmt: skip
    summary = _best_words(points, want, whole, shown=seat.shown is not None, valid=valid)
    if want.outcome == "invalid_declare" and points == 0 and rules.groupings is not None:
        # A losing hand is charged whatever its groups' sizes; a declaration must be
        # grouped as declaration.groupings says (10 cards: 5+5 or 4+3+3).
        grouped = grouped_arrangement(seat.cards, jokers, rules)
        if grouped is not None:
            arrangement = grouped
        else:
            ways = " or ".join("+".join(map(str, way)) for way in rules.groupings)
            summary = (
                "0 points as a losing hand, but no valid declaration: these cards make no"
                f" melds of the sizes a declaration is grouped in ({ways})"
            )
    scored = score_arrangement(arrangement, jokers, rules, cap=cap)
    if scored.unmet and rules.unmet_requirement in ("all_cards", "full_count"):
        # Every card counts however they lie (or the full count is charged): the pure
        # sequences the cards hold are shown as such, not left among the cards "not in any
        # group" (a blind tester read that as the player holding no sequence).
        runs = pure_runs(seat.cards, jokers, rules)
        spare = Counter(seat.cards)
        for run in runs:
            spare.subtract(run)
        arrangement = [list(run) for run in runs] + [sorted(spare.elements())]
        scored = score_arrangement(arrangement, jokers, rules, cap=cap)
    checked = scored.groups
    # A joker left alone is shown among the cards left over, not as a group of its own.
    melds: list[GroupCheck] = []
    rest: list[GroupCheck] = []
    for g in checked:
        is_meld = g.verdict.is_valid and not on_its_own(g, rules)
        (melds if is_meld else rest).append(g)
    unmatched = card_views(sorted(c for g in rest for c in g.cards), jokers)
    return BestView(
        points=points,
        summary=summary,
        melds=group_views(sorted(melds, key=_meld_order), jokers),
        unmatched=unmatched,
        note=joker_note(unmatched, rules),
    )


_KIND_RANK = {kind: i for i, kind in enumerate(MeldKind)}


def _meld_order(group: GroupCheck) -> tuple[int, tuple[int, ...]]:
    """Pure sequences first, then impure ones, sets and the rest; the same every time."""
    return _KIND_RANK[group.verdict.kind], group.cards


def _best_words(
    points: int, want: Expected, whole: int, shown: bool = False, valid: bool = False
) -> str:
    """``33 points, 7 fewer than charged``; for an invalid declarer, whether a valid
    declaration was possible (no points left, or ``valid``: the best arrangement is one,
    which a loser is charged ``points.ready_hand`` for at 21 and 27 cards). ``whole`` is
    what the best arrangement comes to before the cap: where the cap makes it the same as
    charged, that is said with it (a blind tester read "120 points, the same as charged"
    beside every card ungrouped as the best). A loser who ``shown`` their groups is charged
    them as shown: fewer points are what they could have shown, not a charge owed back (a
    blind tester's agent read "3 fewer than charged" on a verified hand as a refund due)."""
    if want.outcome == "invalid_declare":
        if points == 0 or valid:
            return "0 points: these cards could have made a valid declaration"
        charged = ""
        if want.points is not None:
            charged = f" (not what is charged: an invalid declaration costs {want.points})"
        return (
            "no valid declaration was possible with these cards; the fewest points they"
            f" could leave are {points}{charged}"
        )
    if want.points == points and whole > points:
        return (f"{points} points, the same as charged: at best their cards are worth "
                f"{whole}, capped at {points}")  # fmt: skip
    if want.points == points:
        return f"{points} points, the same as charged"
    if want.points is not None and want.points > points:
        fewer = f"{points} points, {want.points - points} fewer than charged"
        if shown:
            fewer += ", had they shown these groups (the rules charge the groups as shown)"
        return fewer
    return f"{points} points"
