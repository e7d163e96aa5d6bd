"""What the replay holds of the players of a hand: each seat's cards, status, turns, drop
and show, and each declaration with the rules' verdict and the platform's."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from audit.records import Event
from audit.rules.declaration import DeclarationCheck


class Status(StrEnum):
    IN = "in"
    DROPPED = "dropped"
    LEFT = "left"
    INVALID = "invalid"


@dataclass(slots=True, init=False)
class Seat:
    """One player's state in the hand, as dealt: its ``__init__`` is written out, so that
    it is compiled with the rest (a dataclass's own is run by the interpreter)."""

    player: str
    cards: list[int]
    status: Status
    has_drawn: bool
    """Drew at least once this hand: a drop is then a middle drop."""
    turns: int
    """Turns completed (a discard or a declaration)."""
    dropped_first: bool
    drop_seq: int | None
    drop_reason: str | None
    shown: list[list[int]] | None
    show_matches: bool
    unheld: int
    """Cards the player discarded without holding them (``discard.not_in_hand``) that no
    later draw from the pile named: they keep that many cards more than the platform's
    hand, until their declaration or show says which (``hand._resync``)."""

    def __init__(self, player: str, cards: list[int]) -> None:
        self.player = player
        self.cards = cards
        self.status = Status.IN
        self.has_drawn = False
        self.turns = 0
        self.dropped_first = False
        self.drop_seq = None
        self.drop_reason = None
        self.shown = None
        self.show_matches = True
        self.unheld = 0


@dataclass(slots=True)
class Declaration:
    player: str
    seq: int
    check: DeclarationCheck
    """The rules' verdict."""
    accepted: bool
    """What the platform did (``platform_accepted``): the hand ended on it (accepted)."""
    turns_of_others: dict[str, int] = field(default_factory=dict)
    """Turns each other player had completed when the declaration came (first hand show)."""
    held: dict[str, list[int]] | None = None
    """A valid declaration the platform rejected: the cards of each other player still in
    when it came. By the rules it ended the hand there, so they lose with these cards; with
    three or more players the record plays on after it, and their cards change."""
    on_cards: bool = False
    """The platform accepted groups that are not the declarer's cards (a
    ``declare.groups_mismatch``): ``check`` judges the best arrangement of the cards they
    held (``declared.held_check``), not the groups recorded."""

    @property
    def won_why(self) -> str:
        """Why the rules have a valid declaration's declarer win: said so where the platform
        rejected it, or where it was judged on the cards held (``on_cards``)."""
        if self.on_cards:
            return f"made a valid declaration, judged on the cards they held: {HELD_NOTE}"
        rejected = "" if self.accepted else ", which the platform rejected"
        return f"made a valid declaration{rejected}"


HELD_NOTE = "the groups declared are not those cards"
"""Said beside a declaration judged on the cards held (``Declaration.on_cards``)."""


def server_fold(auto: bool, reason: str | None) -> bool:
    """Whether a ``drop`` row is the server folding the player (``auto``, log-format.md:
    "the server acted for the player", for a time-out or a disconnection), not the
    player's own choice: an ``auto`` row whose reason is ``player`` says the player chose
    it, and is theirs (a blind tester: it passed as a server fold, in deals and after a
    draw).

    >>> server_fold(True, "timeout"), server_fold(True, "player"), server_fold(False, None)
    (True, False, False)
    """
    return auto and reason != "player"


NO_DROP_WORDS = {
    "left": "left",
    "timeout": "was folded by the server (a time-out) in",
    "disconnect": "was folded by the server (a disconnection) in",
}
"""How a drop where the format has none came about, by its reason (else "dropped out
of"): a server's fold is not worded as the player's own drop (a blind tester)."""


def telling(after: list[Event]) -> list[str]:
    """The actions of the events after a declaration that tell the platform's verdict on it
    (``platform_accepted``): all but a player leaving (``drop``, reason left, or the
    server's on a disconnection) and the server folding one, which may follow a declaration
    accepted or not (a blind tester's declarer left at once after a valid declaration, and
    the hand was read as rejected and its shows as two rows swapped).

    >>> from audit.records import NO_CARD
    >>> telling([Event(8, "A", "drop", NO_CARD, None, False, "left"),
    ...          Event(9, "B", "show", NO_CARD, [], False, None)])
    ['show']
    """
    return [e.action for e in after if e.action != "drop"
            or not (e.reason == "left" or server_fold(e.auto, e.reason))]  # fmt: skip


def platform_accepted(valid: bool, recorded: str | None, after: list[str]) -> bool:
    """Whether the platform accepted a declaration (docs/replay.md, "Declaring"), from the
    rules' verdict (``valid``), the declarer's recorded outcome and the actions after it.
    The recorded result says it (``won``: accepted, ``invalid_declare``: rejected), but
    where it says rejected and the hand ends on the others' shows (every action after it a
    show), the events say accepted, and they are followed: shows follow only an accepted
    declaration, so the one fault is the declarer's row, and following it would make each
    show a fault. Without either result, the next action says it (a show: accepted; more
    play: rejected); with no action after it, the rules' verdict stands."""
    shows_end = bool(after) and all(action == "show" for action in after)
    if recorded == "won" or (recorded == "invalid_declare" and shows_end):
        return True
    if recorded == "invalid_declare":
        return False
    return valid if not after else after[0] == "show"


def resync(seat: Seat, groups: list[list[int]], extra: int) -> bool:
    """After ``extra`` cards the player put on the finish slot or discarded without holding
    them (``discard.not_in_hand``; ``Seat.unheld``): where the groups of their declaration
    or show hold their cards but exactly that many, and no other card, those left out were
    the cards they really let go (the record named others), so they leave the hand and the
    groups match: the one error stays one finding (a blind tester: a valid declaration
    was judged invalid for a card kept, and the win moved). Whether they left."""
    if not extra:  # every declaration and show passes here: nothing to count
        return False
    declared = Counter(c for g in groups for c in g)
    held = Counter(seat.cards)
    left = held - declared
    if sum(left.values()) != extra or declared - held:
        return False
    for card in left.elements():
        seat.cards.remove(card)
    return True


def mismatched(cards: list[int], groups: list[list[int]]) -> bool:
    """Whether ``groups`` hold other cards than ``cards``."""
    return sorted(cards) != sorted(c for g in groups for c in g)


def ended_on_invalid(declaration: Declaration, outcome: str) -> bool:
    """Whether the platform ended the hand on an invalid declaration it wrote down right:
    recorded ``invalid_declare``, but the others' shows end the hand (``platform_accepted``),
    as only after a valid one; by the rules play goes on (one ``declare.verdict``)."""
    return declaration.accepted and not declaration.check.valid and outcome == "invalid_declare"
