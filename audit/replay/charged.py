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
from audit.records import Result
from audit.replay.hand import HandReplay
from audit.replay.seats import Seat
from audit.rules.declaration import check_groups
from audit.rules.melds import Jokers, MeldKind
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
    group a sequence or set; the rule is ``jokers.printed_joker_wild_rank``. Otherwise
    they name the jokers counted (``5S is a joker, 0 points``), and the rule is
    ``points.joker_points`` where the record charged them their face value, else the
    rule that decided the points (``want.rule_key``)."""
    held = _jokers_held(want, seat, replay)
    rules = replay.rules
    wild = _wild_rank_cards(want, replay)
    if wild and want.score is not None and _as_plain(want, seat, replay) == row.points:
        parts = [_jokers_words(held, rules.joker_points)] if held else []
        parts += _melded_words(want, replay)
        said = ", and ".join(parts)
        return (f": {_why_wild(replay)}{': ' + said if said else ''}; the {row.points} charged "
                f"counts {_ranks(replay)} as plain cards"), WILD_RANK_KEY  # fmt: skip
    if not held or want.score is None:  # open melds' words mark each joker already
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


def _as_plain(want: Expected, seat: Seat, replay: HandReplay) -> int | None:
    """The loser's points with the wild rank's cards counted as plain cards: their groups
    as shown, or, with no show, the server's best arrangement of their cards."""
    score, rules = want.score, replay.rules
    if score is None:
        return None
    plain = _plain(replay.jokers)
    groups: Sequence[Sequence[int]]
    if seat.shown is not None:
        groups = [g.cards for g in score.groups]
    else:
        groups = best_arrangement(seat.cards, plain, rules, cap=score.cap)[1]
    return score_arrangement(groups, plain, rules, cap=score.cap).points


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
