"""Simulated players: who they are, and how they decide what to draw, throw, drop or declare.

Decisions must be cheap, since they run on every turn: a hand is held as bitmasks (the
ranks held per suit, the suits held per rank), so "does this card help a meld" is a few
bit operations. The exact solver (`audit.rules.solver`) is called only when a cheap test
says the hand may be complete; the declaration it finds lays every card but the finish in
melds, so it is valid. Only a rash declaration is left for `check_declaration` to judge.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum, unique
from functools import cache

from audit.cards import JOKER, RANK_OF, SUIT_OF
from audit.rules.counts import tally
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset
from audit.rules.solver import best_arrangement
from audit.rules.solver import declaration as declare


@unique
class Skill(StrEnum):
    WEAK = "weak"
    AVERAGE = "average"
    STRONG = "strong"


@dataclass(frozen=True, slots=True, kw_only=True)
class Style:
    """The chances behind a skill level; every decision draws on these and nothing else."""

    take: tuple[float, float, float]
    """Chance to take the discard-pile top that helps nothing, starts a meld, completes one."""
    take_joker: float
    """Chance to take a joker turned up as the open card."""
    sloppy: float
    """Chance to throw a random card that completes no meld instead of the worst one."""
    first_drop: float
    """Chance to drop a poor hand before the first draw."""
    middle_drop: float
    """Chance, per turn, to drop a hand that is still hopeless after a few turns."""
    rash: float
    """Chance to declare a hand that only looks complete (the rules judge it)."""
    timeout: float
    """Chance, per turn, to let the turn timer run out after drawing."""


STYLES: dict[Skill, Style] = {
    Skill.WEAK: Style(
        take=(0.04, 0.45, 0.8),
        take_joker=0.6,
        sloppy=0.25,
        first_drop=0.4,
        middle_drop=0.08,
        rash=0.08,
        timeout=0.012,
    ),
    Skill.AVERAGE: Style(
        take=(0.0, 0.3, 1.0),
        take_joker=1.0,
        sloppy=0.06,
        first_drop=0.25,
        middle_drop=0.03,
        rash=0.0,
        timeout=0.004,
    ),
    Skill.STRONG: Style(
        take=(0.0, 0.2, 1.0),
        take_joker=1.0,
        sloppy=0.0,
        first_drop=0.08,
        middle_drop=0.01,
        rash=0.0,
        timeout=0.001,
    ),
}
SKILL_WEIGHTS = {Skill.WEAK: 3, Skill.AVERAGE: 5, Skill.STRONG: 2}
PATIENCE = 15
"""A player's own turns in a hand before they get tired of waiting: from then on they
look for a declaration on every turn and throw more freely, which also keeps a hand
from going round for ever."""
TIRED_SLOPPY = 0.3


@dataclass(frozen=True, slots=True)
class Profile:
    """A player of the simulated platform: skill, and how they connect."""

    player_id: str
    skill: Skill
    client: str
    """The client mostly used: ``app`` or ``web``."""
    ip: str
    devices: tuple[str, str]
    """Device fingerprints for the ``app`` and the ``web`` client."""
    bot: bool = False
    """A program, not a person: machine-regular think times, no breaks."""

    @property
    def style(self) -> Style:
        return STYLES[self.skill]

    def __reduce__(
        self,
    ) -> tuple[type[Profile], tuple[str, Skill, str, str, tuple[str, str], bool]]:
        """Pickle by the constructor: a mypyc-compiled frozen class cannot be unpickled
        field by field (rooms send their players back to the main process)."""
        return (Profile, (self.player_id, self.skill, self.client, self.ip, self.devices, self.bot))

    def device(self, client: str) -> str:
        return self.devices[0] if client == "app" else self.devices[1]


def new_player(rng: random.Random, number: int) -> Profile:
    """Player ``P0001``... with a skill drawn from ``SKILL_WEIGHTS``."""
    player_id = f"P{number:04d}"
    skills = list(SKILL_WEIGHTS)
    skill = rng.choices(skills, weights=[SKILL_WEIGHTS[s] for s in skills])[0]
    client = "app" if rng.random() < 0.7 else "web"
    ip = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    devices = tuple(
        hashlib.sha256(f"{player_id}/{kind}/{rng.getrandbits(32)}".encode()).hexdigest()[:20]
        for kind in ("app", "web")
    )
    return Profile(player_id, skill, client, ip, (devices[0], devices[1]))


def second_account(rng: random.Random, number: int, owner: Profile) -> Profile:
    """Another account of the person behind ``owner``: same device and IP, a new id."""
    player = new_player(rng, number)
    return Profile(player.player_id, player.skill, owner.client, owner.ip, owner.devices)


def bot_player(rng: random.Random, number: int) -> Profile:
    """A bot account: plays like a strong player, on the app."""
    player = new_player(rng, number)
    return Profile(player.player_id, Skill.STRONG, "app", player.ip, player.devices, bot=True)


# Bit ``r`` of a suit mask is rank r held (1 = ace low ... 13 = king, 14 = ace high).
_BITS: tuple[int, ...] = (
    *((1 << RANK_OF[c]) | (1 << 14 if RANK_OF[c] == 1 else 0) for c in range(52)),
    0,
)
_NEAR: tuple[int, ...] = tuple(((b << 1) | (b >> 1) | (b << 2) | (b >> 2)) & ~b for b in _BITS)
_POP4: tuple[int, ...] = tuple(bin(m).count("1") for m in range(16))
_ACE_HIGH = 1 << 14
_ACES = 1 << 1 | _ACE_HIGH


@dataclass(frozen=True, slots=True)
class Table:
    """What one hand is played under: the rules, its jokers and its card points."""

    rules: Ruleset
    jokers: Jokers
    is_joker: tuple[bool, ...]
    """``is_joker[code]``: the code is a joker in this hand (printed, or of the wild rank)."""
    points: tuple[int, ...]

    @classmethod
    def for_wild_card(cls, rules: Ruleset, wild_card: int) -> Table:
        return _table(rules, wild_card)


class Holding:
    """A player's cards, with the bitmasks the decisions read.

    Jokers are kept out of the masks and counted. ``assess`` grades every other card:
    2 when it sits in a meld of real cards (three in a row of one suit, or three suits of
    one rank), 1 when it has a partner (same suit within two ranks, or same rank), 0 when
    it is loose.

    >>> from audit.cards import CODE_TEXT, parse_code, parse_codes
    >>> from audit.rules.ruleset import load_preset
    >>> table = Table.for_wild_card(load_preset("standard-13"), parse_code("9D"))
    >>> hand = Holding(parse_codes("2H 3H 4H KS KD 7C JK 9S".split()), table, STYLES[Skill.WEAK])
    >>> loose, partnered, pure, worst = hand.assess()
    >>> loose, partnered, pure, CODE_TEXT[worst], hand.jokers
    (1, 2, True, '7C', 2)
    >>> hand.gain(parse_code("KH")), hand.gain(parse_code("6C")), hand.gain(parse_code("5S"))
    (2, 1, 0)
    """

    __slots__ = (
        "cards",
        "count",
        "extra",
        "jokers",
        "loose",
        "pure",
        "ranks",
        "stale",
        "style",
        "suits",
        "table",
    )

    def __init__(self, cards: Sequence[int], table: Table, style: Style) -> None:
        self.table = table
        self.style = style
        self.cards: list[int] = []
        self.count = [0] * 53
        self.suits = [0] * 4
        self.ranks = [0] * 14
        self.jokers = 0
        self.extra = 0
        """Second copies of cards held (two decks): none of them is in the masks."""
        self.loose, self.pure = 0, False
        """Loose cards, and a pure run held, at the last ``assess``: how the hand looked."""
        self.stale = False
        """The last look for a declaration found none, and no card that fits came since."""
        for code in cards:
            self.add(code)

    def add(self, code: int) -> None:
        self.cards.append(code)
        if self.table.is_joker[code]:
            self.jokers += 1
            return
        held = self.count[code]
        self.count[code] = held + 1
        if held:
            self.extra += 1
        else:
            suit = SUIT_OF[code]
            self.suits[suit] |= _BITS[code]
            self.ranks[RANK_OF[code]] |= 1 << suit

    def remove(self, code: int) -> None:
        self.cards.remove(code)
        if self.table.is_joker[code]:
            self.jokers -= 1
            return
        held = self.count[code] - 1
        self.count[code] = held
        if held:
            self.extra -= 1
        else:
            suit = SUIT_OF[code]
            self.suits[suit] &= ~_BITS[code]
            self.ranks[RANK_OF[code]] &= ~(1 << suit)

    def gain(self, code: int) -> int:
        """The grade ``code`` would have if taken: 0 helps nothing, 1 starts a meld,
        2 completes one. A copy of a card already held helps nothing."""
        if self.count[code]:
            return 0
        suit, bit = SUIT_OF[code], _BITS[code]
        held = self.suits[suit] | bit
        triples = held & (held >> 1) & (held >> 2)
        same_rank = _POP4[self.ranks[RANK_OF[code]] | (1 << suit)]
        if (triples | triples << 1 | triples << 2) & bit or same_rank >= 3:
            return 2
        return 1 if same_rank == 2 or held & _NEAR[code] else 0

    def assess(self, keep: int = -1) -> tuple[int, int, bool, int]:
        """(loose cards, partnered cards, a pure run of real cards is held, the card to
        throw): the worst card is the loosest, then the highest in points; of two copies
        of one card, one is graded a step lower. ``keep``, the card just taken from the
        discard pile, is not thrown back."""
        suits, ranks, count, points = self.suits, self.ranks, self.count, self.table.points
        is_joker = self.table.is_joker
        made = []
        pure = False
        for held in suits:
            triples = held & (held >> 1) & (held >> 2)
            if triples:
                pure = True
            made.append(triples | triples << 1 | triples << 2)
        loose = partnered = 0
        worst, worst_key = -1, 1000
        for code in self.cards:
            if is_joker[code]:
                continue
            suit = SUIT_OF[code]
            same_rank = _POP4[ranks[RANK_OF[code]]]
            if made[suit] & _BITS[code] or same_rank >= 3:
                grade = 2
            elif same_rank == 2 or suits[suit] & _NEAR[code]:
                grade = 1
                partnered += 1
            else:
                grade = 0
                loose += 1
            if grade and count[code] > 1:
                grade -= 1
            key = grade * 100 - points[code]
            if key < worst_key and code != keep:
                worst, worst_key = code, key
        self.loose, self.pure = loose, pure
        if worst < 0:  # nothing but jokers and the card to keep
            worst = next(code for code in self.cards if code != keep)
        return loose, partnered, pure, worst

    def may_be_complete(self, loose: int, partnered: int, pure: bool, *, glance: bool) -> bool:
        """A cheap test that "the hand less one card may arrange with no points": a pure
        run of real cards, and enough jokers for what is not yet in a meld (two for each
        loose card, one for each two partnered cards). It passes nearly every complete
        hand (it misses a pure run that needs a wild-rank card in its own place). With
        ``glance``, also what the player sees at a glance (``looks_complete``), which may
        be wrong either way; the solver decides."""
        rules = self.table.rules
        if rules.alternatives and self.counts_may_declare():
            return True
        if rules.min_pure_runs > 1 and self.pure_runs() < rules.min_pure_runs:
            return False
        if not pure:
            return False
        if loose:
            loose -= 1
        elif partnered:
            partnered -= 1
        if 2 * loose + (partnered + 1) // 2 > self.jokers:
            return False
        return not glance or self.looks_complete()

    def pure_runs(self) -> int:
        """At most how many pure runs of real cards the hand can lay side by side: per suit
        and per copy (a card held twice is in the first and the second copy's ranks), three
        ranks in a row make one, six two...; and a card held three times (a tunnela, a pure
        sequence in 21 and 27 cards). Generous (an ace may end two runs of one copy), and
        blind to a wild card standing as itself: a cheap test before the solver, for the
        21- and 27-card games' three pure sequences."""
        count, runs = self.count, 0
        for base in (0, 13, 26, 39):
            for copies in (1, 2, 3):
                mask = 0
                for code in range(base, base + 13):
                    if count[code] >= copies:
                        mask |= _BITS[code]
                if not mask:
                    break
                runs += _runs_of(mask)
        if self.table.rules.tunnela:
            runs += sum(1 for held in count if held >= 3)
        return runs

    def counts_may_declare(self) -> bool:
        """Do the cards reach one of the other ways to declare (``declaration.alternatives``:
        three tunnelas, eight dublees, eight jokers), counted over all the cards held? Then
        the solver is asked (the finish card may still be needed)."""
        rules = self.table.rules
        counted = tally(self.cards, self.table.jokers, rules)
        return any(counted.of(alt.kind) >= alt.count for alt in rules.alternatives)

    def looks_complete(self) -> bool:
        """What a player sees at a glance. The runs of real cards come out first, then the
        sets of what is left; the cards still left need jokers: one for two cards that
        pair up, one for a card within reach of a meld, two for a loose card. One of
        them goes on the finish slot, the jokers held must cover the others, and the runs
        must be able to meet the declaration requirement."""
        suits, ranks, rules = self.suits, self.ranks, self.table.rules
        left, runs, longest = [], 0, 0
        for held in suits:
            triples = held & (held >> 1) & (held >> 2)
            if triples:
                covered = triples | triples << 1 | triples << 2
                held &= ~(covered | _ACES if covered & _ACES else covered)
                length = 2
                while triples:
                    triples &= triples >> 1
                    length += 1
                longest = max(longest, length)
                runs += bin(covered & ~(covered << 1)).count("1") + (length >= 6)
            left.append(held)
        for rank in range(1, 14):
            if _POP4[ranks[rank]] >= 3:
                bit = _BITS[rank - 1]
                if sum(1 for held in left if held & bit) >= 3:
                    left = [held & ~bit for held in left]
        codes, left_ranks = [], [0] * 14
        for suit, held in enumerate(left):
            held &= ~_ACE_HIGH
            while held:
                low = held & -held
                held ^= low
                codes.append(suit * 13 + low.bit_length() - 2)
                left_ranks[low.bit_length() - 1] |= 1 << suit
        paired, costs, suited = self.extra, [], False
        for code in codes:
            suit, rank = SUIT_OF[code], RANK_OF[code]
            if left[suit] & _NEAR[code]:
                paired += 1
                suited = True
            elif _POP4[left_ranks[rank]] >= 2:
                paired += 1
            elif suits[suit] & _NEAR[code] or _POP4[ranks[rank]] >= 2:
                costs.append(1)
            else:
                costs.append(2)
        if costs:
            costs.remove(max(costs))
        elif paired:
            paired -= 1
        jokers = self.jokers
        if 2 * jokers < 2 * sum(costs) + paired:
            return False
        if runs < rules.min_runs and not (jokers >= 2 or (jokers and suited)):
            return False
        long = rules.long_run_length
        if long is None:
            return True
        per_run = rules.max_jokers_per_run
        return longest + min(jokers, jokers if per_run is None else per_run) >= long

    # ------------------------------------------------------------ decisions

    def takes(self, top: int, *, joker_allowed: bool, rng: random.Random) -> bool:
        """Take the discard-pile top rather than draw from the stock? A joker only where
        the rules allow it; another card by how much it helps."""
        if self.table.is_joker[top]:
            return joker_allowed and rng.random() < self.style.take_joker
        chance = self.style.take[self.gain(top)]
        return chance > 0.0 and rng.random() < chance

    def looks_good(self) -> bool:
        """A hand worth playing: a pure run of real cards, or two jokers or more."""
        _, _, pure, _ = self.assess()
        return pure or self.jokers >= 2

    def drops(self, *, drawn: bool, turns: int, rng: random.Random) -> bool:
        """Drop now, before drawing? A poor hand before the first draw (no pure run, few
        jokers, loose cards), or a hand still hopeless after a few turns."""
        if not drawn:
            loose, _, pure, _ = self.assess()
            poor = not pure and self.jokers < 2 and (loose >= 3 or not self.jokers)
            chance = self.style.first_drop if poor else 0.0
        else:
            hopeless = turns >= 2 and not self.pure and not self.jokers and self.loose >= 2
            chance = self.style.middle_drop if hopeless else 0.0
        return chance > 0.0 and rng.random() < chance

    def throw(self, worst: int, *, keep: int, tired: bool, rng: random.Random) -> int:
        """The card to discard: ``worst`` (from ``assess``), unless the player is sloppy
        and throws a random card that is not a joker, not ``keep`` and in no meld of real
        cards (any card at all, when tired of waiting)."""
        if rng.random() >= (TIRED_SLOPPY if tired else self.style.sloppy):
            return worst
        code = self.cards[rng.randrange(len(self.cards))]
        if self.table.is_joker[code] or code == keep:
            return worst
        if not tired:
            self.remove(code)
            grade = self.gain(code)
            self.add(code)
            if grade == 2:
                return worst
        return code


DECLARE_BUDGET = 20_000
"""Dead ends of the declaration search a player of 21 or 27 cards looks through."""


def declaration(cards: Sequence[int], table: Table) -> tuple[int, list[list[int]]] | None:
    """A finish card and groups of the other cards that lay them all in melds meeting the
    declaration requirement, or ``None``: the exact solver's
    (`audit.rules.solver.declaration`). Where the rules take jokers left over as a group of
    their own (``melds.jokers_only_group = "leftover"``, every shipped preset) it is valid;
    where the rules fix the group sizes (``declaration.groupings``, 10 cards: 5+5 or 4+3+3)
    the solver lays the cards in sizes allowed. Facing 21 or 27 cards a player looks for a
    way only so long (``DECLARE_BUDGET`` dead ends of the search) and may miss one, as a
    person does: a 28-card hand with many jokers and no declaration can take the exact
    search seconds to rule out."""
    budget = DECLARE_BUDGET if len(cards) > 20 else None
    return declare(cards, table.jokers, table.rules, budget=budget)


def rash_declaration(
    cards: Sequence[int], table: Table, finish: int
) -> tuple[int, list[list[int]]]:
    """What a rash player declares without a declaration: ``finish`` on the finish slot and
    the best arrangement of the rest, which the rules will judge."""
    _, groups = best_arrangement(cards, table.jokers, table.rules)
    index = next(i for i, group in enumerate(groups) if finish in group)
    return finish, without(groups, index, finish)


def without(groups: list[list[int]], index: int, code: int) -> list[list[int]]:
    """``groups`` with one copy of ``code`` taken out of group ``index`` (dropped if empty)."""
    group = list(groups[index])
    group.remove(code)
    rest = groups[:index] + groups[index + 1 :]
    if group:
        rest.insert(index, group)
    return rest


@cache
def _runs_of(mask: int) -> int:
    """Runs of three ranks side by side in a suit's ranks ``mask``: a block of ``n`` ranks
    in a row holds ``n // 3``."""
    runs = 0
    while mask:
        low = mask & -mask
        block = mask & ~(mask + low)
        runs += block.bit_count() // 3
        mask &= ~block
    return runs


@cache
def _table(rules: Ruleset, wild_card: int) -> Table:
    jokers = Jokers.for_wild_card(wild_card, rules)
    is_joker = tuple(code == JOKER or code in jokers.codes for code in range(53))
    return Table(rules, jokers, is_joker, rules.points_table(jokers.codes))
