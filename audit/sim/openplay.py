"""The open-melds game (002_'s Indian Rummy to 250, docs/open-melds.md): one hand, played.

`play_open_hand` deals a shuffled shoe as the contract says (``shoe[n*k]`` the cut card, on
show, which sets the wild rank; ``shoe[n*k+1]`` the open card; the stock after it) and plays
turns until a player goes out. A turn is one draw (the stock, the pile's top, or the cut
card), then the melds the player lays (``lay``) and the cards added to their own melds
(``lay_off``), then a discard. The player is greedy and never breaks a rule:

- **Melds**: the solver's best arrangement of the hand (`audit.rules.solver.best_arrangement`)
  under the sequences the player still needs on the table to go out (``declaration.min_runs``,
  ``min_pure_runs``, less what their own melds already hold), or, when the hand cannot give
  them yet, with no requirement at all: its sequences and sets are laid as soon as held
  (the solver keeps to ``melds.max_jokers_per_run/set``), then every card that fits one of
  the player's own melds is laid off on it (`audit.rules.melds.classify` judges each), a wild
  card only once no more sequences are needed but perhaps a pure one (a wild card is no use
  to it: a player who needs only the pure sequence throws wild cards away), never a card
  that turns a sequence into a set or a pure sequence impure.
- **Keeping cards back**: a player whose melds do not yet hold the sequences needed keeps at
  least three cards a sequence still needed after the discard (a hand never grows: a player
  who lays too much could never go out); one who has them keeps at least the card to
  discard. What is laid gives way in that order: lay-offs, then sets, then sequences.
- **The discard pile**: the first pick of the hand is taken by how much it helps (as in the
  declaration games, `audit.sim.players.Holding.takes`); a later one only when it is laid
  that turn (``open.pile_pick = "first-free"``).
- **The cut card**: taken when it lets the player go out that turn; now and then
  (``CUT_TRY``) taken on a hunch and put back (``return_cut``), the turn going on with a draw.
- **Going out**: the discard of the last card, once the player's own melds hold the
  sequences needed (2, 1 pure).

Losers pay the flat ``open.never_opened`` (80) when they laid no meld, else their cards'
points (joker 0), capped at ``points.cap``. Two tampering kinds are planted during play
(`audit.sim.anomalies.OPEN_MELDS`): a lay-off on another player's meld, and wild cards laid
off on a meld up to a third.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import cache

from audit.cards import CODE_TEXT, RANK_OF, SUIT_OF, format_codes
from audit.rules.melds import MeldKind, Verdict, classify
from audit.rules.ruleset import Ruleset
from audit.rules.solver import best_arrangement
from audit.sim.anomalies import Label, label
from audit.sim.play import Deal, Event, HandLog, _wait, shuffle_shoe
from audit.sim.players import Holding, Table

CUT_TRY = 0.02
"""Chance, per turn, that a player takes the cut card without a way out and puts it back."""
MAX_TURNS = 5_000
"""A hand that has not ended after this many turns is a bug of the simulator's."""
TABLE_KINDS = (MeldKind.PURE_RUN, MeldKind.IMPURE_RUN, MeldKind.SET)
"""What a meld on the table may be: a sequence or a set (jokers alone are not a meld)."""


@dataclass(slots=True)
class _Plan:
    """What a player lays in a turn: new melds (numbered next, in order), lay-offs (card,
    table meld), and what is left in hand; ``out`` when the one card left is the last
    discard, going out."""

    new: list[list[int]] = field(default_factory=list)
    offs: list[tuple[int, int]] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    out: bool = False


@cache
def _requiring(rules: Ruleset, runs: int, pure: int) -> Ruleset:
    """``rules`` asking a hand for ``runs`` sequences, ``pure`` of them pure: what a player
    still needs on the table, less what their own melds hold."""
    return replace(rules, min_runs=max(runs, pure), min_pure_runs=pure)


def _verdict(cards: list[int], table: Table) -> Verdict:
    return classify(cards, table.jokers, table.rules)


def _meld(verdict: Verdict) -> bool:
    return verdict.kind in TABLE_KINDS


class _Hand:
    """One open-melds hand in play: the table's melds with their owners, each seat's cards,
    and the events recorded. Plain attributes only, no closures: nothing here makes a
    reference cycle (`tests/sim/test_declaration.py`)."""

    def __init__(self, deal: Deal, rng: random.Random) -> None:
        self.deal, self.rng, self.rules = deal, rng, deal.rules
        n, k = len(deal.seats), deal.rules.cards_per_hand
        self.n = n
        self.ids = [profile.player_id for _, profile in deal.seats]
        shoe, self.commitment, self.planted = shuffle_shoe(deal, rng)
        self.shoe = shoe
        dealt = n * k
        self.wild, self.open = shoe[dealt], shoe[dealt + 1]
        self.cut: int | None = self.wild
        """The cut card on show (``None`` while a player holds it)."""
        self.stock = shoe[: dealt + 1 : -1]  # reversed: pop() takes shoe[n*k+2] first
        self.pile = [self.open]
        self.table = Table.for_wild_card(deal.rules, self.wild)
        self.hands = [
            Holding(shoe[i:dealt:n], self.table, p.style) for i, (_, p) in enumerate(deal.seats)
        ]
        self.melds: list[list[int]] = []
        self.owner: list[int] = []
        self.opened = [False] * n
        self.picked = [False] * n
        self.turns = [0] * n
        self.events: list[Event] = []
        self.meld_of: dict[int, int] = {}
        self.ts = deal.start
        self.plant = deal.plant

    # ------------------------------------------------------------ plans

    def own(self, seat: int) -> list[int]:
        return [m for m, owner in enumerate(self.owner) if owner == seat]

    def need(self, melds: list[list[int]]) -> tuple[int, int]:
        """(sequences, pure sequences) still needed to go out, given the player's melds."""
        runs = pure = 0
        for cards in melds:
            verdict = _verdict(cards, self.table)
            runs += verdict.is_run
            pure += verdict.is_pure_run
        rules = self.rules
        return max(rules.min_runs - runs, 0), max(rules.min_pure_runs - pure, 0)

    def plan(self, seat: int, cards: list[int], must: int | None = None) -> _Plan | None:
        """The player's best lay this turn with ``cards`` in hand (after the draw); ``must``
        is a card that has to be laid (a later pick from the pile). ``None`` when it
        cannot be."""
        table, rules = self.table, self.rules
        mine = [list(self.melds[m]) for m in self.own(seat)]
        runs, pure = self.need(mine)
        groups: list[list[int]] = []
        if runs or pure:
            _, groups = best_arrangement(cards, table.jokers, _requiring(rules, runs, pure))
            groups = [g for g in groups if _meld(_verdict(g, table))]
            if any(self.need(mine + groups)):
                groups = []  # the hand cannot give the sequences needed yet
        if not groups:
            _, groups = best_arrangement(cards, table.jokers, _requiring(rules, 0, 0))
            groups = [g for g in groups if _meld(_verdict(g, table))]
        # What gives way first when too much would be laid: sets, then impure sequences,
        # then pure ones; a meld holding the card that must be laid last of all.
        rank = {MeldKind.SET: 0, MeldKind.IMPURE_RUN: 1, MeldKind.PURE_RUN: 2}
        order = sorted(
            range(len(groups)),
            key=lambda g: (must in groups[g], rank[_verdict(groups[g], table).kind]),
        )
        for dropped in range(len(order) + 1):
            chosen = [g for i, g in enumerate(groups) if i not in order[:dropped]]
            offs = self.lay_offs(seat, cards, chosen)
            for count in range(len(offs), -1, -1):
                found = self.judge(seat, cards, chosen, offs[:count], must)
                if found is not None:
                    return found
        return None

    def lay_offs(self, seat: int, cards: list[int], new: list[list[int]]) -> list[tuple[int, int]]:
        """The cards left after laying ``new`` that fit one of the player's melds, in the
        order laid off (a card may make room for the next), each with its table meld."""
        table = self.table
        targets = {m: list(self.melds[m]) for m in self.own(seat)}
        first = len(self.melds)
        for j, group in enumerate(new):
            targets[first + j] = list(group)
        left = list(cards)
        for group in new:
            for card in group:
                left.remove(card)
        runs, pure = self.need(list(targets.values()))
        wild_ok = runs <= pure  # a wild card makes no pure sequence: only impure ones need it
        offs: list[tuple[int, int]] = []
        changed = True
        while changed and len(left) > 1:
            changed = False
            for card in sorted(left, key=lambda c: (table.is_joker[c], c)):
                if table.is_joker[card] and not wild_ok:
                    continue
                for m, meld in targets.items():
                    before = _verdict(meld, table)
                    after = _verdict([*meld, card], table)
                    if (
                        _meld(after)
                        and (after.is_run or not before.is_run)
                        and (after.is_pure_run or not before.is_pure_run)
                    ):
                        meld.append(card)
                        left.remove(card)
                        offs.append((card, m))
                        changed = True
                        break
                if changed or len(left) <= 1:
                    break
        return offs

    def judge(
        self,
        seat: int,
        cards: list[int],
        new: list[list[int]],
        offs: list[tuple[int, int]],
        must: int | None,
    ) -> _Plan | None:
        """The plan of laying ``new`` and ``offs``, if the player keeps enough back: with
        the sequences needed on the table, the card to discard; without, three cards a
        sequence still needed after the discard. A plan that lays everything keeps back one
        card of a meld that stays whole without it, and goes out with it."""
        table = self.table
        left = list(cards)
        for group in new:
            for card in group:
                left.remove(card)
        for card, _ in offs:
            left.remove(card)
        laid = [card for group in new for card in group] + [card for card, _ in offs]
        if must is not None and must not in laid:
            return None
        melds = {m: list(self.melds[m]) for m in self.own(seat)}
        first = len(self.melds)
        for j, group in enumerate(new):
            melds[first + j] = list(group)
        for card, m in offs:
            melds[m].append(card)
        runs, pure = self.need(list(melds.values()))
        short = max(runs, pure)
        if short:
            if len(left) < 3 * short + 1:
                return None
            return _Plan(new, offs, left)
        if left:
            return _Plan(new, offs, left, out=len(left) == 1)
        # Everything would be laid: keep back a card whose meld stays whole without it.
        for j, group in enumerate(new):
            for card in group:
                if card == must:
                    continue
                rest = list(group)
                rest.remove(card)
                kept = [*new[:j], rest, *new[j + 1 :]]
                if _meld(_verdict(rest, table)) and not any(
                    self.need([*(self.melds[m] for m in self.own(seat)), *kept])
                ):
                    again = self.judge(seat, cards, kept, [], must)
                    if again is not None and again.out:
                        return again
        return None

    # ------------------------------------------------------------ the record

    def emit(
        self,
        seat: int | None,
        action: str,
        card: int | None = None,
        *,
        groups: list[list[int]] | None = None,
        auto: bool = False,
        reason: str | None = None,
    ) -> int:
        """Record an event; its seq."""
        player = None if seat is None else self.ids[seat]
        self.events.append((self.ts, player, action, card, groups, auto, reason))
        return len(self.events) - 1

    def wait(self, seat: int, median_s: float) -> None:
        self.ts += _wait(self.deal.bots, self.rng, seat, median_s)

    def lay(self, seat: int, plan: _Plan) -> None:
        hand = self.hands[seat]
        if plan.new:
            self.wait(seat, 3.0)
            self.emit(seat, "lay", groups=[list(g) for g in plan.new])
            for group in plan.new:
                self.melds.append(list(group))
                self.owner.append(seat)
                for card in group:
                    hand.remove(card)
            self.opened[seat] = True
        for card, m in plan.offs:
            self.lay_off(seat, card, m)

    def lay_off(self, seat: int, card: int, meld: int) -> int:
        self.wait(seat, 1.5)
        seq = self.emit(seat, "lay_off", card)
        self.meld_of[seq] = meld
        self.melds[meld].append(card)
        self.hands[seat].remove(card)
        return seq

    # ------------------------------------------------------------ planted

    def foreign_lay_off(self, seat: int) -> None:
        """Lay off a card of the player's on another player's meld where it fits."""
        hand, table = self.hands[seat], self.table
        if len(hand.cards) < 3:
            return
        for card in sorted(set(hand.cards)):
            if table.is_joker[card]:
                continue
            for m, meld in enumerate(self.melds):
                if self.owner[m] != seat and _meld(_verdict([*meld, card], table)):
                    laid = format_codes(meld)
                    seq = self.lay_off(seat, card, m)
                    player, owner = self.ids[seat], self.ids[self.owner[m]]
                    self.planted.append(
                        label(
                            "foreign_lay_off",
                            hand_id=self.deal.hand_id,
                            seq=seq,
                            players=(player, owner),
                            details=f"{player} laid {CODE_TEXT[card]} off on meld {m} "
                            f"({laid}), which {owner} laid",
                        )
                    )
                    self.plant = None
                    return

    def wild_limit(self, seat: int) -> None:
        """Lay off wild cards on one of the player's melds until it holds a third."""
        hand, table, rules = self.hands[seat], self.table, self.rules
        wilds = [card for card in hand.cards if table.is_joker[card]]
        loose = replace(rules, max_jokers_per_run=None, max_jokers_per_set=None)
        for m in self.own(seat):
            meld = list(self.melds[m])
            steps = []
            for card in wilds:
                meld.append(card)
                steps.append(card)
                if not _meld(_verdict(meld, table)):
                    break
            else:
                continue
            whole = classify(meld, table.jokers, loose)
            if whole.kind not in TABLE_KINDS or len(hand.cards) - len(steps) < 2:
                continue
            seq = -1
            for card in steps:
                seq = self.lay_off(seat, card, m)
            player = self.ids[seat]
            self.planted.append(
                label(
                    "wild_limit",
                    hand_id=self.deal.hand_id,
                    seq=seq,
                    players=(player,),
                    details=f"{player}'s meld {m} was let hold {whole.jokers} wild cards "
                    f"({format_codes(meld)}), over the limit of "
                    f"{rules.max_jokers_per_run}",
                )
            )
            self.plant = None
            return

    def run_throw(self, seat: int, keep: int, *, pure_only: bool) -> int:
        """The discard of a player who still needs sequences on the table: the card least
        use to a sequence (no card of its suit within two ranks, then one, then more;
        the higher in points first), a wild card last, or first when only a pure sequence
        is missing; never ``keep``, the card just taken from the pile, if another will do."""
        table, cards = self.table, self.hands[seat].cards
        best, best_key = cards[0], (9, 0)
        for code in cards:
            if code == keep:
                continue
            if table.is_joker[code]:
                grade = -1 if pure_only else 3
            elif cards.count(code) > 1:
                grade = 0  # a second copy is no use to a sequence
            else:
                suit, rank = SUIT_OF[code], RANK_OF[code]
                near = 0
                for other in cards:
                    if other == code or table.is_joker[other] or SUIT_OF[other] != suit:
                        continue
                    gap = abs(RANK_OF[other] - rank)
                    if 1 in (rank, RANK_OF[other]):  # an ace sits next to a king too
                        gap = min(gap, 14 - max(rank, RANK_OF[other]))
                    near += 0 < gap <= 2
                grade = min(near, 2)
            key = (grade, -table.points[code])
            if key < best_key:
                best, best_key = code, key
        return best

    # ------------------------------------------------------------ a turn

    def draw(self, seat: int, joker_allowed: bool) -> tuple[int, int, int | None] | None:
        """Draw from the pile or the stock: (card, the card kept from the pile or -1, the
        card that must be laid this turn); ``None`` when the server threw the card drawn
        (the player let the turn timer run out)."""
        hand, table, rng = self.hands[seat], self.table, self.rng
        pile = self.pile
        top = pile[-1] if pile else None
        take, must = False, None
        if top is not None and (joker_allowed or not table.is_joker[top]):
            if not self.picked[seat]:
                take = hand.takes(top, joker_allowed=joker_allowed, rng=rng)
            elif (
                rng.random() < hand.style.take[2]
                and self.plan(seat, [*hand.cards, top], must=top) is not None
            ):
                take, must = True, top
        if top is not None and not self.stock:
            take = True  # nothing left in the stock (all but the pile's top are in play)
            must = top if self.picked[seat] else None
        if take and top is not None:
            pile.pop()
            self.picked[seat] = True
            self.emit(seat, "draw_discard", top)
            hand.add(top)
            return top, (top if must is None else -1), must
        card = self.stock.pop()
        self.emit(seat, "draw_stock", card)
        if seat not in self.deal.bots and rng.random() < hand.style.timeout:
            self.ts += 30_000  # the server throws the card drawn
            self.emit(seat, "discard", card, auto=True, reason="timeout")
            pile.append(card)
            return None
        hand.add(card)
        return card, -1, None

    def play(self) -> int:
        """Play turns until a player goes out; the winner's seat."""
        n, rng, rules = self.n, self.rng, self.rules
        seat, open_untouched = n - 1, True
        for _ in range(MAX_TURNS):
            seat = (seat + 1) % n
            hand = self.hands[seat]
            if not self.stock and len(self.pile) > 1:
                new_stock = self.pile[:-1]
                rng.shuffle(new_stock)
                self.ts += 300
                self.emit(None, "reshuffle", groups=[new_stock])
                self.stock, self.pile = new_stock[::-1], self.pile[-1:]
            self.wait(seat, 2.0)
            joker_allowed = rules.joker_from_discard == "allowed" or (
                rules.joker_from_discard == "open_card_only" and open_untouched
            )
            open_untouched = False
            plan, keep = None, -1
            cut = self.cut
            if rules.cut_card == "go-out-only" and cut is not None:
                with_cut = self.plan(seat, [*hand.cards, cut])
                if with_cut is not None and with_cut.out:
                    self.emit(seat, "take_cut", cut)
                    hand.add(cut)
                    self.cut, plan = None, with_cut
                elif rng.random() < CUT_TRY:
                    self.emit(seat, "take_cut", cut)
                    self.wait(seat, 1.5)
                    self.emit(seat, "return_cut", cut)
                    self.wait(seat, 1.0)
            if plan is None:
                drawn = self.draw(seat, joker_allowed)
                if drawn is None:
                    self.turns[seat] += 1
                    continue
                _, keep, must = drawn
                plan = self.plan(seat, list(hand.cards), must)
                if plan is None:  # a forced pick from the pile that cannot be laid
                    plan = self.plan(seat, list(hand.cards)) or _Plan(left=list(hand.cards))
            self.lay(seat, plan)
            if not plan.out and self.turns[seat] >= 1:
                if self.plant == "foreign_lay_off":
                    self.foreign_lay_off(seat)
                elif self.plant == "wild_limit":
                    self.wild_limit(seat)
            if plan.out and len(hand.cards) == 1:
                last = hand.cards[0]
                hand.remove(last)
                self.pile.append(last)
                self.wait(seat, 4.0)
                self.emit(seat, "discard", last)
                return seat
            runs, pure = self.need([self.melds[m] for m in self.own(seat)])
            if runs or pure:
                worst = self.run_throw(seat, keep, pure_only=pure >= runs)
            else:
                _, _, _, worst = hand.assess(keep)
                worst = hand.throw(worst, keep=keep, tired=False, rng=rng)
            hand.remove(worst)
            self.pile.append(worst)
            self.wait(seat, 4.0)
            self.emit(seat, "discard", worst)
            self.turns[seat] += 1
        raise RuntimeError(f"{self.deal.hand_id}: no player went out in {MAX_TURNS} turns")


def play_open_hand(deal: Deal, rng: random.Random) -> HandLog:
    """Deal and play one open-melds hand (see the module's docstring); the winner has 0
    points, each loser the flat ``open.never_opened`` if they laid no meld, else their
    cards' points capped at ``points.cap``."""
    state = _Hand(deal, rng)
    winner = state.play()
    rules, table = deal.rules, state.table
    outcomes, points = ["lost"] * state.n, [0] * state.n
    outcomes[winner] = "won"
    for j, hand in enumerate(state.hands):
        if j == winner:
            continue
        if not state.opened[j] and rules.never_opened is not None:
            points[j] = rules.never_opened
        else:
            points[j] = min(sum(table.points[c] for c in hand.cards), rules.cap)
    return HandLog(
        hand_id=deal.hand_id,
        hand_no=deal.hand_no,
        seats=[(seat, profile.player_id) for seat, profile in deal.seats],
        shoe=state.shoe,
        wild=state.wild,
        open=state.open,
        started=deal.start,
        ended=state.ts,
        events=state.events,
        outcomes=outcomes,
        points=points,
        score_after=[None] * state.n,
        amounts=[None] * state.n,
        left={},
        labels=state.planted,
        shuffle=state.commitment,
        melds=state.meld_of,
    )


def tamper_never_opened(hand: HandLog, rules: Ruleset, rng: random.Random) -> Label | None:
    """Charge a loser who never laid a meld other than the flat ``open.never_opened``: their
    cards' points, as if they had opened, or (when those come to the same) ten less. The
    match's totals follow the record."""
    laid = {e[1] for e in hand.events if e[2] == "lay"}
    seats = [
        j
        for j, (_, player) in enumerate(hand.seats)
        if hand.outcomes[j] == "lost" and player not in laid
    ]
    if not seats or rules.never_opened is None:
        return None
    j = rng.choice(seats)
    player = hand.seats[j][1]
    right = hand.points[j]
    held = _held(hand, j, rules)
    wrong = held if held != right else right - 10
    hand.points[j] = wrong
    return label(
        "never_opened",
        hand_id=hand.hand_id,
        players=(player,),
        details=f"{player} never laid a meld and was recorded {wrong} points where the "
        f"rules give the flat {right}",
    )


def _held(hand: HandLog, seat: int, rules: Ruleset) -> int:
    """The points of the cards ``seat`` held at the end, capped, replayed from the events."""
    n, k = len(hand.seats), rules.cards_per_hand
    player = hand.seats[seat][1]
    cards = list(hand.shoe[seat : n * k : n])
    for _, who, action, card, groups, _, _ in hand.events:
        if who != player:
            continue
        if action in ("draw_stock", "draw_discard", "take_cut") and card is not None:
            cards.append(card)
        elif action in ("discard", "lay_off", "return_cut") and card is not None:
            cards.remove(card)
        elif action == "lay" and groups:
            for group in groups:
                for code in group:
                    cards.remove(code)
    points = Table.for_wild_card(rules, hand.wild).points
    return min(sum(points[c] for c in cards), rules.cap)
