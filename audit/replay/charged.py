"""What a loser's charge is made of, said where the record charged other points: the
jokers among their cards, why a card is one, and the rule that decided the difference.

A ``score.points`` finding and ``explain``'s words for the player both say it, so that a
support agent can tell the player why their aces counted 0 (a blind tester read "was
charged 34 points; the cards left unmatched, 6H 2D 2S, are worth 10" on a hand whose
wild card was a printed joker, and could not say where the 24 went).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from audit.cards import CODE_TEXT, JOKER, RANK_OF, code_of, format_codes
from audit.records import Result, and_words, ordinal
from audit.replay.declared import held_check
from audit.replay.hand import HandReplay
from audit.replay.seats import HELD_NOTE, Declaration, Seat, ended_on_invalid
from audit.rules.declaration import GroupCheck, check_groups, valid_words
from audit.rules.melds import Jokers, MeldKind, read_otherwise
from audit.rules.ruleset import Ruleset, load_preset, preset_ids
from audit.rules.scoring import Score, score_arrangement
from audit.rules.solver import best_arrangement


class Expected(Protocol):
    """What the words of a charge read of the rules' outcome for a player
    (``outcome.Expected``, which imports this module: named by its shape, not imported)."""

    @property
    def points(self) -> int | None: ...
    @property
    def rule_key(self) -> str: ...
    @property
    def score(self) -> Score | None: ...

WILD_RANK_KEY = "jokers.printed_joker_wild_rank"
_RANK_WORDS = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
_KIND_WORDS = {
    MeldKind.PURE_RUN: "a pure sequence",
    MeldKind.IMPURE_RUN: "an impure sequence",
    MeldKind.SET: "a set",
    MeldKind.TUNNELA: "a tunnela",
    MeldKind.JOKERS: "a group of jokers",
}


def charged_words(want: Expected, row: Result, seat: Seat, replay: HandReplay) -> tuple[str, str]:
    """What follows a loser's ``why`` where the record charged ``row.points``, not
    ``want.points`` (empty where there is nothing to add), and the rule that decided it.

    Where the wild card is a printed joker and the record's points are what the cards come
    to with the rank it makes wild counted as plain cards, the words say that rank is wild
    and why, and name the cards of it: those counted (0 points each) and those that make a
    group a sequence or set; the rule is ``jokers.printed_joker_wild_rank``. Where they are
    what the cards come to with one joker of the cut card counted as a plain card
    (``_joker_as_plain``), the words name it and the group it completes, and the rule is the
    one that makes it a joker. Where the record's points are what a meld rule read as the
    presets read it gives (``_as_preset``), or
    the cards valued as a shipped preset values them (``_valued_otherwise``), the words
    name the group or the cards and the rule is that rule. Otherwise they name the
    jokers counted (``5S is a joker, 0 points``), and the rule is
    ``points.joker_points`` where the record charged them their face value, else the
    rule that decided the points (``want.rule_key``); jokers set aside alone (a group of
    jokers) are named too where it is their face value the record charged."""
    held = _jokers_held(want, seat, replay)
    rules = replay.rules
    wild = _wild_rank_cards(want, replay)
    if wild and want.score is not None and _as_plain(want, seat, replay) == row.points:
        parts = [_jokers_words(held, rules.joker_points)] if held else []
        parts += _melded_words(want, replay)
        said = ", and ".join(parts)
        return (f": {_why_wild(replay)}{': ' + said if said else ''}; the {row.points} charged "
                f"counts {_ranks(replay)} as plain cards"), WILD_RANK_KEY  # fmt: skip
    for other in (_joker_as_plain(want, row, seat, replay), _as_preset(want, row, seat, replay),
                  _valued_otherwise(want, row, replay), _first_hand_cap(want, row, replay)):
        if other is not None:
            return other
    if want.score is None:  # open melds' words mark each joker already
        held_otherwise = _held_valued_otherwise(want, row, seat, replay)
        return held_otherwise or ("", want.rule_key)
    # jokers set aside in a group of their own count 0 as well: charged their face value,
    # they are the ones at stake (a blind tester's 13-card 9H shown alone cited the rule
    # that makes 9H a joker, as a 21-card joker completing a group does)
    spare = list(want.score.spare_jokers())
    if spare and not _jokers_at_stake(held, want, row, replay) and _jokers_at_stake(
            held + spare, want, row, replay):  # fmt: skip
        words = _jokers_words(held + spare, rules.joker_points)
        words += f", {_names(spare)} set aside" if held else ", set aside"
        words += " as jokers alone" if len(spare) > 1 else " as a joker alone"
        return f": {f'{_why_wild(replay)}: ' if wild else ''}{words}", "points.joker_points"
    if not held:
        return "", want.rule_key
    words = _jokers_words(held, rules.joker_points)
    if wild:
        words = f"{_why_wild(replay)}: {words}"
    key = "points.joker_points" if _jokers_at_stake(held, want, row, replay) else want.rule_key
    return f": {words}", key


def _ranks(replay: HandReplay) -> str:
    """``aces``: the rank a printed joker makes wild, in words."""
    rank = replay.rules.printed_joker_wild_rank.value
    return f"{_RANK_WORDS.get(rank, rank)}s"


def _why_wild(replay: HandReplay) -> str:
    """Why a card of the wild rank is a joker where the wild card is a printed joker."""
    return f"the wild card is a printed joker, so {_ranks(replay)} are jokers ({WILD_RANK_KEY})"


def _wild_rank_cards(want: Expected, replay: HandReplay) -> list[int]:
    """The cards of the loser's groups that are jokers only because the printed joker
    turned up made their rank wild (none where the wild card is another, or under
    ``jokers.wild_scope = "card"``)."""
    jokers, score = replay.jokers, want.score
    if replay.hand.wild != JOKER or jokers.wild_rank is None or score is None:
        return []
    return [c for g in score.groups for c in g.cards if _of_wild_rank(c, jokers)]


def _of_wild_rank(code: int, jokers: Jokers) -> bool:
    return code != JOKER and RANK_OF[code] == jokers.wild_rank


def _plain(jokers: Jokers) -> Jokers:
    """The hand's jokers but for the wild rank's cards: printed jokers (and up and down
    jokers, where the ruleset has them)."""
    rank = jokers.wild_rank
    codes = jokers.codes - {code_of(rank, s) for s in range(4)} if rank else jokers.codes
    return Jokers(None, codes, jokers.wild_card, jokers.kinds)


def _as_plain(want: Expected, seat: Seat, replay: HandReplay, plain: Jokers | None = None
              ) -> int | None:  # fmt: skip
    """The loser's points with the wild rank's cards (or ``plain``'s jokers alone) counted
    as plain cards: their groups as shown, or, with no show, the server's best arrangement
    of their cards."""
    score, rules = want.score, replay.rules
    if score is None:
        return None
    plain = plain if plain is not None else _plain(replay.jokers)
    groups: Sequence[Sequence[int]]
    if seat.shown is not None:
        groups = [g.cards for g in score.groups]
    else:
        groups = best_arrangement(seat.cards, plain, rules, cap=score.cap)[1]
    return score_arrangement(groups, plain, rules, cap=score.cap).points


def _joker_as_plain(want: Expected, row: Result, seat: Seat, replay: HandReplay
                    ) -> tuple[str, str] | None:  # fmt: skip
    """Where the record charged what the loser's cards come to with one joker of the cut
    card counted as a plain card (an up or down joker, or a card of the wild rank the cut
    card sets), the words that name it, why it is a joker and the groups it completes, and
    the rule that makes it one (``_joker_key``): it decides the difference, not the card
    points (a blind tester's 27-card down-2 joker 2C scored plain cited the card points and
    named only the cards left unmatched). A printed joker turned up is ``charged_words``'
    own reading; a joker that completes no group is ``points.joker_points``'."""
    score, jokers = want.score, replay.jokers
    if score is None or score.ready or score.full_count:
        return None
    held = dict.fromkeys(c for g in score.groups for c in g.cards if c != JOKER and (
        c in jokers.kinds[1:] or replay.hand.wild != JOKER) and jokers.is_joker(c))  # fmt: skip
    for code in held:
        plain = Jokers(jokers.wild_rank, jokers.codes - {code}, jokers.wild_card, jokers.kinds)
        # a group of jokers alone is completed by none of them: a joker set aside counted
        # as its card is ``points.joker_points``' reading (``charged_words``; a blind tester)
        made = [f"{g.text} is {_KIND_WORDS[g.verdict.kind]}" for g in score.groups
                if code in g.cards and g.verdict.kind in _KIND_WORDS
                and g.verdict.kind is not MeldKind.JOKERS
                and not check_groups([g.cards], plain, replay.rules)[0].verdict.is_valid]
        if not made or _as_plain(want, seat, replay, plain) != row.points:
            continue
        card, key = CODE_TEXT[code], _joker_key(code, jokers)
        return (f"; {card} is {_joker_words(code, jokers, replay.rules)} ({key}), so "
                f"{and_words(made)}, and the {row.points} charged is what the cards come to "
                f"if {card} is a plain card"), key  # fmt: skip
    return None


def _joker_key(code: int, jokers: Jokers) -> str:
    """The rule that makes ``code`` a joker: an up or down joker one rank off the cut card
    (``jokers.up_down_jokers``) or further (``jokers.up_down_depth``), else a card of the
    wild rank (``jokers.wild_rank_from_wild_card``)."""
    if code not in jokers.kinds[1:]:
        return "jokers.wild_rank_from_wild_card"
    return "jokers.up_down_jokers" if jokers.kinds.index(code) <= 2 else "jokers.up_down_depth"


def _joker_words(code: int, jokers: Jokers, rules: Ruleset) -> str:
    """``the 2nd down joker of the cut card 4C``, ``the up joker of the cut card 7H``, or
    ``a joker, as the cut card 7H makes every 7 one``."""
    if code not in jokers.kinds[1:]:
        rank = CODE_TEXT[code][0]
        every = f"every {_RANK_WORDS.get(rank, rank)}" if jokers.wild_rank else "every copy of it"
        return f"a joker, as the cut card {jokers.wild_card} makes {every} one"
    at = jokers.kinds.index(code)
    nth = f"{ordinal((at + 1) // 2)} " if rules.up_down_depth > 1 else ""
    return (f"the {nth}{'up' if at % 2 else 'down'} joker of the cut card "
            f"{CODE_TEXT[jokers.kinds[0]]}")  # fmt: skip


def _melded_words(want: Expected, replay: HandReplay) -> list[str]:
    """``AS makes 7D 7S AS a set``: each group the wild rank's cards make valid (not one
    with them as plain cards)."""
    score = want.score
    if score is None:
        return []
    plain = _plain(replay.jokers)
    said = []
    for group in score.groups:
        wild = [c for c in group.cards if _of_wild_rank(c, replay.jokers)]
        kind = _KIND_WORDS.get(group.verdict.kind)
        if not wild or kind is None or check_groups([group.cards], plain, replay.rules)[
                0].verdict.is_valid:  # fmt: skip
            continue
        verb = "makes" if len(wild) == 1 else "make"
        said.append(f"{_names(wild)} {verb} {format_codes(group.cards)} {kind}")
    return said


def _jokers_held(want: Expected, seat: Seat, replay: HandReplay) -> list[int]:
    """The jokers among the cards a loser is charged for, each counted at
    ``points.joker_points``: the counted cards of their score, or, in the open-melds game
    (no score), every card held where the cards are what is charged."""
    jokers = replay.jokers
    score = want.score
    if score is not None:
        if score.full_count or score.ready:
            return []
        return [c for c in score.counted if jokers.is_joker(c)]
    if want.rule_key in ("points.card_points", "points.cap"):
        return [c for c in seat.cards if jokers.is_joker(c)]
    return []


def _names(cards: list[int]) -> str:
    """``5S``, ``5S and JK``, ``5S, 5H and JK``."""
    if len(cards) == 1:
        return CODE_TEXT[cards[0]]
    return ", ".join(CODE_TEXT[c] for c in cards[:-1]) + f" and {CODE_TEXT[cards[-1]]}"


def _jokers_words(held: list[int], worth: int) -> str:
    """``5H and JK are jokers, 0 points each``.

    >>> _jokers_words([4], 0), _jokers_words([4, 52], 0)
    ('5S is a joker, 0 points', '5S and JK are jokers, 0 points each')
    """
    points = f"{worth} point{'s' if worth != 1 else ''}"
    if len(held) == 1:
        return f"{_names(held)} is a joker, {points}"
    return f"{_names(held)} are jokers, {points} each"


def _jokers_at_stake(held: list[int], want: Expected, row: Result, replay: HandReplay) -> bool:
    """Whether the record charged the jokers held their face value: the points recorded are
    the rules' with each wild joker counted as its card (capped), so ``points.joker_points``
    is the rule at stake (a joker charged 5 cited only the card points: a blind tester)."""
    rules = replay.rules
    face = sum(rules.card_points[RANK_OF[c]] for c in held if c != JOKER)
    if face == 0 or want.points is None:
        return False
    score = want.score
    if score is not None:
        raw, cap = score.raw, score.cap
    else:
        table = rules.points_table(replay.jokers.codes)
        raw, cap = sum(table[c] for c in replay.seats[row.player].cards), rules.cap
    return row.points == min(cap, raw + face)


_DEEDS: Final = (
    "made ", "was ", "showed ", "dropped ", "dropped,", "left ", "went ", "held ", "never ",
)
"""How an ``Expected.why`` that says what the player did begins; the others say what the
cards are worth ("the cards left unmatched ... are worth 51")."""


def said_of(player: str, why: str) -> str:
    """``why`` said of ``player``: ``P2 dropped after drawing ...``, but ``the cards left
    unmatched, 6D 8C, are worth 14`` as it is (not "P2 the cards left ...": a blind
    tester).

    >>> said_of("B", "made a valid declaration")
    'B made a valid declaration'
    >>> said_of("B", "the cards left unmatched are worth 9")
    'the cards left unmatched are worth 9'
    """
    return f"{player} {why}" if why.startswith(_DEEDS) else why


def _as_preset(want: Expected, row: Result, seat: Seat, replay: HandReplay
               ) -> tuple[str, str] | None:  # fmt: skip
    """Where the record charged what the loser's cards come to with a meld rule read as
    the shipped presets read it (``melds.read_otherwise``: K-A-2 no sequence where the
    platform's ``melds.run_wraps`` makes it one), the words that name the group it decides
    and that rule's key: it, not the card points, decides the difference (a blind tester).
    Their groups as shown, or, with no show, the server's best arrangement under that
    reading."""
    score, jokers = want.score, replay.jokers
    if score is None or score.ready:
        return None
    for key, other in read_otherwise(replay.rules):
        changed = [(g.text, _KIND_WORDS.get(g.verdict.kind), _KIND_WORDS.get(again.verdict.kind))
                   for g, again in zip(score.groups, check_groups(
                       [g.cards for g in score.groups], jokers, other), strict=True)
                   if g.verdict.kind is not again.verdict.kind]  # fmt: skip
        if not changed:
            continue
        groups: Sequence[Sequence[int]]
        if seat.shown is not None:
            groups = [g.cards for g in score.groups]
        else:
            groups = best_arrangement(seat.cards, jokers, other, cap=score.cap)[1]
        if score_arrangement(groups, jokers, other, cap=score.cap).points != row.points:
            continue
        text, ours, theirs = changed[0]
        charged = f"the {row.points} charged is what the cards come to if it is"
        if ours is not None:
            return f"; {text} is {ours} ({key}), and {charged} not", key
        if theirs is not None:
            return f"; {text} is not {theirs} ({key}), and {charged}", key
    return None


def _valued_otherwise(want: Expected, row: Result, replay: HandReplay
                      ) -> tuple[str, str] | None:  # fmt: skip
    """Where the ruleset values cards otherwise than a shipped preset and the record
    charged the loser's counted cards at the preset's values, the words that name the
    cards valued otherwise and ``points.card_points``: the cards' values decide the
    difference, not the requirement that every card counts (an ace charged 10 where the
    platform's rules count it 1 cited ``points.unmet_requirement``: a blind tester)."""
    score, rules, jokers = want.score, replay.rules, replay.jokers
    if score is None or score.ready or score.full_count:
        return None
    cards = [c for c in score.counted if not jokers.is_joker(c)]
    base = score.raw - sum(rules.card_points[RANK_OF[c]] for c in cards)  # the jokers' part
    return _otherwise_words(cards, base, score.cap, row, rules)


def _first_hand_cap(want: Expected, row: Result, replay: HandReplay) -> tuple[str, str] | None:
    """Where a loser who had had a turn is charged ``points.cap`` and the record charged
    the first hand show's cap instead (for a player who had not yet had one), the words
    say so (a blind tester read "charged the cap of 80" beside the 40 recorded with no word
    on why 40 was not theirs)."""
    first = replay.rules.first_hand_show_cap
    if want.rule_key != "points.cap" or row.points != first or (want.points or 0) <= first:
        return None
    return (f"; the {first} charged is the cap of a first hand show "
            "(points.first_hand_show_cap), for a player who had not yet had a turn when the "
            "declaration came, and they had had one"), want.rule_key


def _held_valued_otherwise(want: Expected, row: Result, seat: Seat, replay: HandReplay
                           ) -> tuple[str, str] | None:  # fmt: skip
    """``_valued_otherwise`` for an open-melds loser, charged every card held (jokers 0,
    at most ``points.cap``): no arrangement, so no ``Score``."""
    if want.rule_key not in ("points.card_points", "points.cap"):
        return None  # the flat charge of a player who never laid a meld, a drop's
    rules, jokers = replay.rules, replay.jokers
    cards = [c for c in seat.cards if c != JOKER and not jokers.is_joker(c)]
    table = rules.points_table(jokers.codes)
    base = sum(table[c] for c in seat.cards if c == JOKER or jokers.is_joker(c))
    return _otherwise_words(cards, base, rules.cap, row, rules)


def _otherwise_words(cards: list[int], base: int, cap: int, row: Result, rules: Ruleset
                     ) -> tuple[str, str] | None:  # fmt: skip
    """The words of ``_valued_otherwise``: ``cards`` (the jokers left out, worth ``base``
    together) valued by another table to the ``row.points`` charged, at most ``cap``."""
    for table in _other_values(rules):
        if min(base + sum(table[RANK_OF[c]] for c in cards), cap) != row.points:
            continue
        ranks: dict[int, list[int]] = {}
        for c in cards:
            if table[RANK_OF[c]] != rules.card_points[RANK_OF[c]]:
                ranks.setdefault(RANK_OF[c], []).append(c)
        if not ranks:
            continue
        ours = " and ".join(_worth(held, rules.card_points[r]) for r, held in ranks.items())
        theirs = " and ".join(str(table[r]) + (" each" if len(held) > 1 else "")
                              for r, held in ranks.items())  # fmt: skip
        them = "them" if len(ranks) > 1 or len(next(iter(ranks.values()))) > 1 else "it"
        return (f"; {ours} (points.card_points), where the {row.points} charged counts {them} "
                f"{theirs}"), "points.card_points"  # fmt: skip
    return None


def _worth(cards: list[int], points: int) -> str:
    """``AH and AD count 1 each``, ``AH counts 1``."""
    if len(cards) == 1:
        return f"{_names(cards)} counts {points}"
    return f"{_names(cards)} count {points} each"


def _other_values(rules: Ruleset) -> list[tuple[int, ...]]:
    """The card values of the shipped presets that differ from ``rules``' (each once), then
    ``rules``' own with the ace at 1: the readings a platform's record may have taken of
    ``points.card_points`` (002_'s "An ace sits at either end of a run: 10 points high, 1
    low": a blind tester's held aces charged 1 each were said only to count 10)."""
    tables = dict.fromkeys(load_preset(p).card_points for p in preset_ids())
    tables[(*rules.card_points[:1], 1, *rules.card_points[2:])] = None
    return [t for t in tables if t != rules.card_points]


def verdict_words(
    player: str,
    declaration: Declaration,
    row: Result,
    rules: Ruleset,
    behind: tuple[str, GroupCheck] | None = None,
    *,
    left: str | None = None,
    jokers: Jokers | None = None,
) -> str:
    """A ``declare.verdict``'s words: the rules' verdict, and where the declarer's row and
    the events after it disagree (``platform_accepted``), what the row says; ``behind``,
    the meld rule that makes the declaration valid (``meld_rule_behind``), named beside its
    group; ``left``, the one player an invalid declaration ended on the others' shows
    leaves in: nobody plays on, they win (their recorded loss follows, ``_left_in_wins``).
    With the hand's ``jokers``, an invalid declaration of cards that laid otherwise make a
    valid one says so (``declared.held_check``): the groups shown are judged, and a support
    agent reading the finding alone told a player their cards could not declare (a blind
    tester's 10 cards shown 6+4, which make 5+5)."""
    if declaration.check.valid:
        # judged on the cards held (``Declaration.on_cards``): its groups are theirs at best
        valid = (f"the cards {player} held make a valid one ({HELD_NOTE})"
                 if declaration.on_cards else "it is valid")  # fmt: skip
        words = (f"{player}'s declaration was judged invalid, but {valid}: "
                 f"{valid_words(declaration.check, rules, behind)}")  # fmt: skip
        if declaration.accepted and row.outcome == "invalid_declare":
            words += (f"; the record writes {player} as an invalid declaration with "
                      f"{row.points} points, though the others' shows after it end the hand "
                      "as on a valid one")  # fmt: skip
        return words + "."
    words = f"{player}'s declaration was accepted, but it is invalid: " + "; ".join(
        declaration.check.reasons)  # fmt: skip
    cards = [card for group in declaration.check.groups for card in group.cards]
    if jokers is not None and not declaration.on_cards and held_check(cards, jokers, rules).valid:
        words += ("; the same cards laid otherwise make a valid declaration, but a declaration "
                  "is judged on the groups shown")  # fmt: skip
    if ended_on_invalid(declaration, row.outcome):
        # with one player left nobody plays on: that player wins (a blind tester)
        words += (f"; the record charges {player} the penalty ({row.points} points), " + (
            f"then scores {left}'s show as if the declaration were valid" if left is not None
            else "but the others' shows after it end the hand there, where play goes on"))
    return words + "."
