"""The state machine of one hand: the deal (``audit/replay/deal.py``), turns, draws,
discards, drops, declaration, shows.

``HandReplay(hand, game, rules).run()`` applies each recorded event in seq order and raises
findings, never exceptions, when the log breaks a rule. After a discrepancy it goes on with
what the log recorded (the card drawn is the card recorded), so one error is one finding.
docs/replay.md states every rule checked here.
"""

from __future__ import annotations

from typing import Final

from audit.cards import CODE_TEXT, count_words, difference_words, format_codes
from audit.findings import Finding, finding
from audit.records import Action, Event, Game, Hand
from audit.replay.deal import deal_shoe, shoe_spec
from audit.replay.declared import held_check, mismatch_finding
from audit.replay.seats import (
    Declaration,
    Seat,
    Status,
    mismatched,
    platform_accepted,
    resync,
    server_fold,
    telling,
)
from audit.rules.declaration import check_declaration
from audit.rules.melds import shared_jokers
from audit.rules.ruleset import Ruleset, ShoeSpec, cite

# The hot loop compares with these (compiled, a module constant is a load; ``Status.IN``
# or ``Action.DISCARD`` is a lookup of the class, then of its member).
_IN: Final = Status.IN
_DRAW_STOCK: Final = Action.DRAW_STOCK.value
_DRAW_DISCARD: Final = Action.DRAW_DISCARD.value
_DISCARD: Final = Action.DISCARD.value
_DROP: Final = Action.DROP.value
_DECLARE: Final = Action.DECLARE.value
_SHOW: Final = Action.SHOW.value
_RESHUFFLE: Final = Action.RESHUFFLE.value
_FROM: Final = {_DRAW_STOCK: "from the stock", _DRAW_DISCARD: "from the discard pile"}
"""Where a draw takes its card, in a ``turn.order`` finding on a second draw in a turn."""


class HandReplay:
    """Replays one hand; read ``findings``, ``seats``, ``declarations`` after ``run()``."""

    def __init__(
        self,
        hand: Hand,
        game: Game,
        rules: Ruleset,
        started_with: int | None = None,
        *,
        by_rules: bool = False,
    ) -> None:
        self.hand = hand
        self.by_rules = by_rules
        """A declaration stands or falls by ``rules``' verdict, not the record's, and play
        stops where that ends the hand (only the losers' shows after a valid one are
        read): what-if's replay under other rules. The audit follows the record."""
        self.game = game
        self.rules = rules
        self.started_with = started_with
        """Players at the game's first hand: a game keeps the shoe it started with, so a
        hand after players left is dealt from the shoe of the larger table."""
        self.jokers = shared_jokers(hand.wild, rules)
        self.findings: list[Finding] = []
        self.seats: dict[str, Seat] = {p: Seat(p, []) for p in hand.seats}
        self.order = list(hand.seats)
        self.stock: list[int] = []
        self.stock_unordered = False
        """The stock is a reshuffle the log does not record (the pile less its top card,
        taken when a player drew from an empty stock): its order is unknown, so a stock
        draw is checked only for taking a card that is in it."""
        self.under = 0
        """Cards a reshuffle put under those still in the stock (``reshuffle``), until the
        next stock draw: where that takes the first of them, they went on top instead."""
        self.passed = 0
        """Cards above the one a stock draw took from deeper in the stock, until the next
        stock draw: where that takes the card that lay under it, the platform's stock went
        on from there, and they leave the stock (``_went_on``; docs/replay.md, Turns)."""
        self.misread: int | None = None
        """The card the last stock draw took from deeper in the stock (``passed`` cards lay
        above it), until the next stock draw. Where that takes the card under the top, the
        card recorded was not what the platform dealt, the top was (``_misread``)."""
        self.dealt_open: int | None = None
        """The open card the deal turned up, where the hand records another (a
        ``deal.mismatch``): until a draw from the pile or a reshuffle takes the open card,
        either may be the platform's (``_open_card``), one error, one finding."""
        self.gone: dict[int, tuple[int, ...]] = {}
        """By seq, a stock draw that took the card under the one the last stock draw took
        from deeper in the stock: the cards that draw passed over, which left the stock
        then (``_went_on``), for ``explain``."""
        self.kept: dict[int, tuple[int, bool]] = {}
        """By seq, a reshuffle made while cards were still in the stock: how many, and
        whether the reshuffled cards went on top of them (``under``), for ``explain``."""
        self.pile: list[int] = []
        self.pile_from: list[str | None] = []
        """Who discarded each card of the pile (``None``: the open card)."""
        self.phantom = False
        """The top of the pile is a card its discarder did not hold (``discard.not_in_hand``)
        and nothing went on the pile since: a draw from the pile of a card they hold says
        that card was their discard (``_resync_pile``; docs/replay.md, Turns)."""
        self.offered: dict[tuple[str, str], int] = {}
        """(giver, taker): draws the taker made with the giver's discard on top of the pile."""
        self.takes: list[tuple[str, str, int]] = []
        """(giver, taker, card): a discard taken from the top of the pile."""
        self.current = 0
        self.drawn_this_turn = False
        self.drew: Event | None = None  # this turn's draw, that a second draw names
        self.intruder: str | None = None
        """A player not dealt in, or out of the hand, whose turn (one ``turn.order``
        finding) is under way; ``intruder_drew``: it has had its draw."""
        self.intruder_drew = False
        self.late: str | None = None
        """The player whose turn after the hand ended (one ``turn.order``) is under way."""
        self.taken: str | None = None
        """The player whose turn it was when an intruder played a whole turn (a draw and a
        discard) between two turns: the turn stays theirs, but where the record goes on
        with the next player in turn, the intruder's turn was theirs (``_check_turn``)."""
        self.declarations: list[Declaration] = []
        self.winner: str | None = None
        self.ended = False
        self.dealt = False
        """The shoe was dealt (``deal``): a shoe too short to deal (its ``deck.composition``)
        leaves every player's cards, and so the hand's outcome and value cards, unknown."""
        self.recorded_outcomes = {r.player: r.outcome for r in hand.results}
        self.turn_rule = "open.turn" if rules.kind == "open-melds" else "turns.order"
        """The rule of a turn a ``turn.order`` finding of ``_check_turn`` cites: the
        open-melds game's turn (draw, lays, discard) is not the declaration games'."""

    # ------------------------------------------------------------ findings

    def _find(
        self,
        check: str,
        rule_key: str,
        message: str,
        *,
        player: str | None = None,
        seq: int | None = None,
        expected: object = None,
        recorded: object = None,
    ) -> None:
        self.findings.append(
            finding(
                check,
                game_id=self.hand.game_id,
                hand_id=self.hand.hand_id,
                player_id=player,
                seq=seq,
                expected=expected,
                recorded=recorded,
                message=message,
                rule=cite(self.rules, rule_key),
            )
        )

    def _turn(self, message: str, e: Event) -> None:
        """A ``turn.order`` finding of ``e``'s player, citing the game's turn rule."""
        self._find("turn.order", self.turn_rule, message, player=e.player, seq=e.seq,
                   recorded=e.action)  # fmt: skip

    def _late_turn(self, e: Event) -> None:
        """A turn after the hand ended: where an invalid declaration ended it
        (``declaration.invalid_ends_hand``; the hand ends with no winner only so), that
        rule, named in the words, is what the record broke, not the turn order (a blind
        tester's ruleset ends the hand there where the preset plays on)."""
        last = self.declarations[-1] if self.declarations else None
        if last is None or last.accepted or self.winner is not None:
            self._turn(f"{e.player} took a turn after the hand had ended.", e)
            return
        self._find("turn.order", "declaration.invalid_ends_hand",
                   f"{e.player} took a turn after the hand had ended: {last.player}'s invalid "
                   "declaration ended it (declaration.invalid_ends_hand).",
                   player=e.player, seq=e.seq, recorded=e.action)  # fmt: skip

    # ------------------------------------------------------------ the deal

    @property
    def shoe_spec(self) -> ShoeSpec | None:
        """The ruleset's shoe for this hand's table (``deal.shoe_spec``)."""
        return shoe_spec(self.hand, self.rules, self.started_with)

    def deal(self) -> bool:
        """The deal's checks and cards (``deal.deal_shoe``); ``False`` when the shoe cannot
        be dealt at all. The pile starts with the open card recorded."""
        found, dealt = deal_shoe(self.hand, self.game, self.rules, self.started_with)
        self.findings += found
        if dealt is None:
            return False
        self.dealt = True
        for player, cards in dealt.cards.items():
            self.seats[player].cards = cards
        self.pile, self.pile_from = [self.hand.open], [None]
        self.stock = dealt.stock
        if dealt.open != self.hand.open:
            self.dealt_open = dealt.open
        return True

    def _open_card(self, at: int, card: int) -> None:
        """The pile's card ``at``, the open card recorded, is taken or reshuffled now, as
        ``card``: where that is the one the deal turned up (``dealt_open``), the deal was
        right and the hands row recorded another, and the pile holds the deal's (one
        error, the ``deal.mismatch``: docs/replay.md, The deal). Either way it is decided."""
        if self.pile[at] == self.hand.open and card == self.dealt_open:
            self.pile[at] = card
        self.dealt_open = None

    # ------------------------------------------------------------ turns

    def _active(self) -> list[str]:
        return [p for p in self.order if self.seats[p].status is _IN]

    def _next(self, after: str) -> int:
        """The place in ``order`` of the next player still in after ``after`` (or the
        current one's, when none is)."""
        i = self.order.index(after)
        n = len(self.order)
        for step in range(1, n + 1):
            if self.seats[self.order[(i + step) % n]].status is _IN:
                return (i + step) % n
        return self.current

    def _advance(self, after: str) -> None:
        """The turn passes to the next player still in, after ``after``."""
        self.current = self._next(after)
        self.drawn_this_turn, self.drew = False, None

    def _check_turn(self, e: Event, *, draw: bool, dropping: bool = False) -> Seat | None:
        """Turn checks for an action by ``e.player``; returns the seat to apply it to.

        ``draw``: the action opens a turn (a draw or a drop); else it closes one."""
        player = e.player
        seat = self.seats.get(player) if player is not None else None
        if seat is None or (seat.status is not _IN and not self.ended):
            self._follow(e, seat)
            return None
        self.intruder = None
        if self.ended:  # one finding a turn of theirs: a draw and its discard are one
            if player != self.late:
                self._late_turn(e)
            self.late = None if e.action in (_DISCARD, _DECLARE, _DROP) else player
            return None
        expected, taken = self.order[self.current], self.taken
        self.taken = None
        if taken == expected != player and draw and self.order[self._next(taken)] == player:
            self._advance(taken)  # the intruder played the turn of ``taken``: no finding
            expected = player
        if player != expected:
            self.out_of_turn(e)
            if dropping:  # the drop takes the dropper out, not the turn (docs/replay.md)
                return seat
            self.current = self.order.index(seat.player)
            self.drawn_this_turn, self.drew = not draw, None  # resynchronise on the record
        elif draw and self.drawn_this_turn and not dropping:
            first, message = self.drew, f"{player} drew twice in one turn."
            if first is not None and {first.action, e.action} <= _FROM.keys():
                message = (f"{player} drew {CODE_TEXT[first.card]} {_FROM[first.action]}, then "
                           f"{CODE_TEXT[e.card]} {_FROM[e.action]}: two draws in one turn.")
            self._turn(message, e)
        elif not draw and not self.drawn_this_turn:
            self._turn(f"{player} tried to {e.action} without drawing a card first.", e)
        return seat

    def out_of_turn(self, e: Event) -> None:
        """The ``turn.order`` finding of ``e``, made by a player whose turn it is not."""
        expected = self.order[self.current]
        left = (f" (a player who leaves may drop at any time, but this drop's reason is "
                f"{e.reason!r})" if e.action == _DROP else "")  # a blind tester's leavers
        self._find(
            "turn.order",
            self.turn_rule,
            f"{e.player} acted out of turn: it was {expected}'s turn{left}.",
            player=e.player,
            seq=e.seq,
            expected=expected,
            recorded=e.player,
        )

    def _follow(self, e: Event, seat: Seat | None) -> None:
        """An action of a player not dealt in (``seat`` None) or out of the hand: one
        ``turn.order`` a turn of theirs, and the record followed (docs/replay.md, Turns):
        the card drawn leaves the stock or pile, a discard goes on the pile (an out
        player's hand stays as it was when they went out), and the turn does not move
        (``taken``)."""
        player, action, card = e.player, e.action, e.card
        if player is None or player != self.intruder:  # one finding a turn of theirs
            self.intruder_drew = False
            if seat is None:
                self._turn(f"{player} acted in this hand but was not dealt in.", e)
            else:
                self._turn(f"{player} acted after leaving the hand ({seat.status.value}).", e)
        self.intruder = None if action in (_DISCARD, _DECLARE) else player
        if self.ended or action not in (_DRAW_STOCK, _DRAW_DISCARD, _DISCARD):
            return
        if action == _DISCARD:
            self.lay_on_pile(card, player)
            if self.intruder_drew and not self.drawn_this_turn:
                self.taken = self.order[self.current]
            return
        cards = self.pile
        if action == _DRAW_STOCK:  # the next stock draw, as a player's (``draw_stock``)
            went_on = self._went_on(card, e.seq) or self._misread(card)
            cards, self.under, self.passed, self.misread = (
                [] if went_on else self.stock, 0, 0, None
            )
        elif self.phantom:  # a draw from the pile, as a player's (``draw_discard``)
            self._resync_pile(card)
        if card in cards:
            i = len(cards) - 1 - cards[::-1].index(card)  # the copy nearest the top
            if action == _DRAW_DISCARD:
                del self.pile_from[i]
                self.phantom = self.phantom and i < len(cards) - 1
            del cards[i]
        self.intruder_drew = True

    def _misread(self, card: int) -> bool:
        """Whether a stock draw of ``card`` takes the card under the top of the stock after
        the last stock draw took a card from deeper in it (``misread``); if so, that draw
        took the top and only its card was recorded wrong: the card recorded goes back to
        its place, and the top and ``card`` leave the stock (docs/replay.md, Turns)."""
        at = len(self.stock) - self.passed  # where the card recorded lay
        if self.misread is None or at < 0 or len(self.stock) < 2 or self.stock[-2] != card:
            return False
        del self.stock[-2:]
        self.stock.insert(at, self.misread)
        return True

    def _went_on(self, card: int, seq: int) -> bool:
        """Whether a stock draw of ``card`` (at ``seq``) takes the card that lay under the
        one the last stock draw took from deeper in the stock (``passed``); if so, it and
        the cards passed over leave the stock: the platform's stock went on from there."""
        at = len(self.stock) - 1 - self.passed
        if not self.passed or at < 0 or self.stock[at] != card:
            return False
        self.gone[seq] = tuple(reversed(self.stock[at + 1 :]))  # the top first
        del self.stock[at:]
        return True

    # ------------------------------------------------------------ moves

    def _offer(self, taker: str) -> None:
        """A draw: the card on top of the pile was the taker's to take (fair-play facts)."""
        giver = self.pile_from[-1] if self.pile_from else None
        if giver is not None and giver != taker and giver in self.seats:
            self.offered[giver, taker] = self.offered.get((giver, taker), 0) + 1

    def lay_on_pile(self, card: int, player: str | None, *, held: bool = True) -> None:
        """``card`` goes on the discard pile, discarded by ``player``; not ``held``: they did
        not hold it (``phantom``)."""
        self.pile.append(card)
        self.pile_from.append(player)
        self.phantom = not held

    def _resync_pile(self, card: int) -> None:
        """A draw from the pile of ``card`` while its top is a card its discarder did not
        hold (``phantom``): where they hold ``card``, that was their discard (the platform
        put it on the pile, and the card recorded is where it was), so it leaves their hand
        and is the top the draw takes: one error, one finding (docs/replay.md, Turns)."""
        giver = self.pile_from[-1]
        seat = self.seats.get(giver) if giver is not None else None
        if seat is not None and self.pile[-1] != card and card in seat.cards:
            seat.cards.remove(card)
            seat.unheld = max(0, seat.unheld - 1)
            self.pile[-1] = card
            self.phantom = False

    def draw_stock(self, e: Event) -> None:
        seat = self._check_turn(e, draw=True)
        if seat is None:
            return
        self._offer(seat.player)
        card, passed = e.card, 0
        misread: int | None = None
        if not self.stock and len(self.pile) > 1:
            # One missing reshuffle is one finding: the pile less its top card becomes the
            # stock, in an order the log does not say (not one finding per later draw).
            self._find(
                "draw.stock_mismatch",
                "turns.draw_top_card",
                f"{seat.player} drew {CODE_TEXT[card]} from an empty stock; the discard pile "
                "should have been reshuffled first, and no reshuffle is recorded (later "
                "stock draws are checked against its cards, in no order).",
                player=seat.player,
                seq=e.seq,
                expected="a reshuffle",
                recorded=CODE_TEXT[card],
            )
            self.stock = self.pile[:-1]
            self.pile, self.pile_from = self.pile[-1:], self.pile_from[-1:]
            self.stock_unordered = True
        if not self.stock:
            self._find(
                "draw.stock_mismatch",
                "turns.draw_top_card",
                f"{seat.player} drew {CODE_TEXT[card]} from an empty stock, with no discard "
                "pile to reshuffle.",
                player=seat.player,
                seq=e.seq,
                expected="no card",
                recorded=CODE_TEXT[card],
            )
        elif self.stock[-1] == card:
            self.stock.pop()
        elif self.stock_unordered and card in self.stock:
            self.stock.remove(card)
        elif self._went_on(card, e.seq):
            pass  # the cards passed over by the last stock draw are gone: no second finding
        elif self._misread(card):
            pass  # the last stock draw took the top, recorded as another card: one finding
        elif self.under and self.stock[self.under - 1] == card:
            under = self.under  # the reshuffled cards went on top: no second finding
            self.stock = [*self.stock[under:], *self.stock[: under - 1]]
            last = next(reversed(self.kept))  # the reshuffle that set ``under``
            self.kept[last] = (self.kept[last][0], True)
        else:
            top = self.stock[-1]
            where = "from deeper in the stock"
            if card in self.stock:
                i = len(self.stock) - 1 - self.stock[::-1].index(card)  # nearest the top
                del self.stock[i]
                passed = len(self.stock) - i
                misread = card
            else:
                where = "which was not in the stock at all"
                passed = 1  # where the next draw takes the card under the top, it was taken
            self._find(
                "draw.stock_mismatch",
                "turns.draw_top_card",
                f"{seat.player} drew {CODE_TEXT[card]} ({where}), but the card on top of the "
                f"stock was {CODE_TEXT[top]}.",
                player=seat.player,
                seq=e.seq,
                expected=CODE_TEXT[top],
                recorded=CODE_TEXT[card],
            )
        self.under, self.passed, self.misread = 0, passed, misread
        seat.cards.append(card)
        seat.has_drawn = True
        self.drawn_this_turn, self.drew = True, e

    def draw_discard(self, e: Event) -> None:
        seat = self._check_turn(e, draw=True)
        if seat is None:
            return
        self._offer(seat.player)
        card = e.card
        if self.phantom:
            self._resync_pile(card)
        if self.dealt_open is not None and self.pile and self.pile_from[-1] is None:
            self._open_card(len(self.pile) - 1, card)  # the open card's draw
        if not self.pile:
            self._find(
                "draw.discard_mismatch",
                "turns.draw_top_card",
                f"{seat.player} took {CODE_TEXT[card]} from an empty discard pile.",
                player=seat.player,
                seq=e.seq,
                expected="no card",
                recorded=CODE_TEXT[card],
            )
        elif self.pile[-1] != card:
            top = self.pile[-1]
            self._find(
                "draw.discard_mismatch",
                "turns.draw_top_card",
                f"{seat.player} took {CODE_TEXT[card]} from the discard pile, but the card on "
                f"top of it was {CODE_TEXT[top]}.",
                player=seat.player,
                seq=e.seq,
                expected=CODE_TEXT[top],
                recorded=CODE_TEXT[card],
            )
            if card in self.pile:
                i = len(self.pile) - 1 - self.pile[::-1].index(card)
                del self.pile[i], self.pile_from[i]
        else:
            giver = self.pile_from.pop()
            self.pile.pop()
            self.phantom = False
            if giver is not None and giver != seat.player and giver in self.seats:
                self.takes.append((giver, seat.player, card))
            self._check_joker_pick(seat, e, card, giver is not None)
        seat.cards.append(card)
        seat.has_drawn = True
        self.drawn_this_turn, self.drew = True, e

    def _check_joker_pick(self, seat: Seat, e: Event, card: int, from_player: bool) -> None:
        rule = self.rules.joker_from_discard
        if rule == "allowed" or not self.jokers.is_joker(card):
            return
        if rule == "open_card_only" and not from_player:
            return
        self._find(
            "draw.forbidden",
            "draws.joker_from_discard",
            f"{seat.player} took the joker {CODE_TEXT[card]} from the discard pile"
            + (", where another player had discarded it." if from_player else "."),
            player=seat.player,
            seq=e.seq,
            expected="a draw from the stock or a non-joker",
            recorded=CODE_TEXT[card],
        )

    def _take_from_hand(self, seat: Seat, e: Event, card: int, what: str) -> bool:
        """``card`` leaves ``seat``'s hand; False, and a finding, when they did not hold it."""
        try:
            seat.cards.remove(card)  # one pass over the hand, not two (``in``, then this)
            return True
        except ValueError:
            pass
        self._find(
            "discard.not_in_hand",
            "turns.discard_from_hand",
            f"{seat.player} {what} {CODE_TEXT[card]}, a card they did not hold "
            f"(they held {format_codes(sorted(seat.cards))}).",
            player=seat.player,
            seq=e.seq,
            expected=format_codes(sorted(seat.cards)),
            recorded=CODE_TEXT[card],
        )
        return False

    def discard(self, e: Event) -> None:
        seat = self._check_turn(e, draw=False)
        if seat is None:
            return
        card = e.card
        held = self._take_from_hand(seat, e, card, "discarded")
        if not held:
            seat.unheld += 1
        self.lay_on_pile(card, seat.player, held=held)
        seat.turns += 1
        self._advance(seat.player)

    def drop(self, e: Event) -> None:
        seat = self.dropper(e, after_draw=True)
        if seat is None:
            return
        fmt = self.game.format
        # 000_'s "No Drop" is the player's choice: not leaving, nor the server's fold
        # (seats.server_fold), each charged the full count all the same (docs/replay.md)
        own = e.reason != "left" and not server_fold(e.auto, e.reason)
        if self.rules.drop_penalty(fmt) is None and own:
            self._find(
                "drop.forbidden",
                f"drops.{fmt}",
                f"{seat.player} dropped, but a {fmt.replace('_', ' ')} game allows no drops; "
                f"the player is charged the full count of {self.rules.cap}.",
                player=seat.player,
                seq=e.seq,
                expected="no drop",
                recorded="drop",
            )
        self.fold(seat, e)

    def dropper(self, e: Event, *, after_draw: bool) -> Seat | None:
        """The seat a ``drop`` takes out of the hand, or ``None`` when it cannot act (the
        finding is raised): a player leaving (``reason`` left, whoever pressed it, or the
        server dropping a player who disconnected) may go at any time, in turn or not (after
        the hand ended, as the shows are made, their leaving changes nothing: a loser who
        writes no show is arranged by the server, ``None`` with no finding, as is the
        server's fold of a loser whose show timed out); a
        drop must be in turn, and where ``after_draw`` and the ruleset says so
        (``turns.drop_after_draw`` false, 000_'s reading) a player's own drop (not
        ``auto``) must come before their draw; the server may fold a player who timed out
        after drawing either way."""
        player = e.player
        seat = self.seats.get(player) if player is not None else None
        leaving = e.reason == "left" or (e.reason == "disconnect" and e.auto)
        if seat is not None and seat.status is Status.IN:
            if self.ended and (leaving or (server_fold(e.auto, e.reason) and self._declared()
                                           and player != self.winner)):  # fmt: skip
                return None  # left, or a loser folded as their show timed out, while the
                # shows were made or after: no turn, a loser without a show (b55, b106)
            if leaving:
                return seat
        seat = self._check_turn(e, draw=True, dropping=True)
        if seat is None:
            return None
        if (
            after_draw
            and not self.rules.drop_after_draw
            and not server_fold(e.auto, e.reason)
            and self.drawn_this_turn
            and self.order[self.current] == seat.player
        ):
            self._find(
                "turn.order",
                "turns.drop_after_draw",
                f"{seat.player} dropped after drawing a card; under this ruleset a player who "
                "has drawn must discard or declare.",
                player=seat.player,
                seq=e.seq,
                recorded="drop after draw",
            )
        return seat

    def fold(self, seat: Seat, e: Event) -> bool:
        """``seat`` leaves the hand on the drop ``e``; the turn passes if it was theirs
        (the answer: it was), and a player left alone ends the hand."""
        was_current = self.order[self.current] == seat.player
        seat.status = Status.LEFT if e.reason == "left" else Status.DROPPED
        seat.dropped_first = not seat.has_drawn
        seat.drop_seq = e.seq
        seat.drop_reason = e.reason
        if was_current:
            self._advance(seat.player)
        self._end_if_one_left()
        return was_current

    def _declared(self) -> bool:
        """Whether the hand ended on an accepted declaration (its losers then show)."""
        return bool(self.declarations) and self.declarations[-1].accepted

    def _end_if_one_left(self) -> None:
        active = self._active()
        if len(active) == 1 and not self.ended:
            self.ended = True
            self.winner = active[0]

    def declare(self, e: Event, after: list[Event]) -> None:
        """A declaration. The rules judge it (``check``); the record says what the platform
        did with it: the declarer's result and the events ``after`` it, weighed by
        ``platform_accepted``. The replay follows the platform, so a wrong verdict is one
        ``declare.verdict`` finding, not a cascade."""
        seat = self._check_turn(e, draw=False)
        if seat is None:
            return
        held = e.card in seat.cards
        self._take_from_hand(seat, e, e.card, "put on the finish slot")
        groups = e.groups or []
        if not held:
            resync(seat, groups, 1)
        if resync(seat, groups, seat.unheld):
            seat.unheld = 0
        check = judged = check_declaration(seat.cards, groups, self.jokers, self.rules)
        if mismatched(seat.cards, groups):  # its finding; the cards they held are judged
            self.findings.append(mismatch_finding(self.hand, self.rules, seat, e, groups))
            judged = held_check(seat.cards, self.jokers, self.rules)
        recorded = self.recorded_outcomes.get(seat.player)
        accepted = judged.valid if self.by_rules else platform_accepted(
            judged.valid, recorded, telling(after))  # fmt: skip
        # accepted, the cards held are judged (``declared``); rejected, the groups recorded
        on_cards, check = (judged is not check, judged) if accepted else (False, check)
        others = {p: s.turns for p, s in self.seats.items() if p != seat.player}
        then = None
        if check.valid and not accepted:  # the rules end the hand here (``Declaration.held``)
            then = {p: list(s.cards) for p, s in self.seats.items()
                    if s.status is _IN and p != seat.player}  # fmt: skip
        self.declarations.append(
            Declaration(seat.player, e.seq, check, accepted, others, then, on_cards))
        seat.turns += 1
        seat.shown = [list(g) for g in groups]
        if accepted:
            self.ended = True
            self.winner = seat.player
            return
        seat.status = Status.INVALID
        if self.rules.invalid_ends_hand:
            self._end_if_one_left()  # the one player left wins, as when play goes on
            self.ended = True
            return
        self._advance(seat.player)
        self._end_if_one_left()

    def show(self, e: Event) -> None:
        player = e.player
        seat = self.seats.get(player) if player is not None else None
        declared = self.winner is not None and bool(self.declarations)
        out = seat is None or seat.status is not Status.IN or seat.player == self.winner
        if seat is None or not declared or out:
            why = (
                "was not dealt in"
                if seat is None
                else "showed cards before any valid declaration"
                if not declared
                else "showed cards without being in the hand"
            )
            self._find(
                "turn.order",
                "turns.order",
                f"{player} {why}.",
                player=player,
                seq=e.seq,
                recorded="show",
            )
            return
        if seat.shown is not None:
            self._find(
                "turn.order",
                "turns.order",
                f"{player} showed their cards twice.",
                player=player,
                seq=e.seq,
                recorded="show",
            )
        groups = e.groups or []
        if resync(seat, groups, seat.unheld):
            seat.unheld = 0
        seat.shown = [list(g) for g in groups]
        seat.show_matches = not mismatched(seat.cards, groups)
        if not seat.show_matches:
            shown = sorted(c for g in groups for c in g)
            self._find(
                "declare.groups_mismatch",
                "declaration.groups_exact",
                f"{player} showed {format_codes(shown) or 'no cards'}, "
                f"but held {format_codes(sorted(seat.cards))}.",
                player=player,
                seq=e.seq,
                expected=format_codes(sorted(seat.cards)),
                recorded=format_codes(shown),
            )

    def reshuffle(self, e: Event) -> None:
        """The new stock is the row's group; where cards were still in the stock (a
        ``draw.reshuffle``), they stay on top of it, in their order, unless the next stock
        draw takes the group's first card (``under``; docs/replay.md). Cards a stock draw
        passed over (``passed``) are in it until the next stock draw says they are gone."""
        new_stock = (e.groups or [[]])[0] if e.groups else []
        left = len(self.stock)
        if left:
            self.kept[e.seq] = (left, False)
            one = left == 1
            self._find(
                "draw.reshuffle",
                "turns.reshuffle",
                f"The discard pile was reshuffled while {count_words(left)} "
                f"{'was' if one else 'were'} still in the stock; the pile is reshuffled only "
                f"once the stock is empty, and the stock keeps {'it' if one else 'them'}.",
                seq=e.seq,
                expected="an empty stock",
                recorded=f"{count_words(left)} left",
            )
        if self.dealt_open is not None and len(self.pile) > 1 and self.pile_from[0] is None:
            # reshuffled as the deal's open card: the row holds one copy more of it, and
            # one fewer of the one recorded, than the pile does
            held, shuffled = self.pile[:-1], new_stock
            dealt, recorded = self.dealt_open, self.hand.open
            deal_was = (shuffled.count(dealt) > held.count(dealt)
                        and shuffled.count(recorded) < held.count(recorded))  # fmt: skip
            self._open_card(0, dealt if deal_was else -1)
        parts = difference_words(self.pile[:-1], new_stock, extra="adds")
        if parts:
            self._find(
                "draw.reshuffle",
                "turns.reshuffle",
                "The reshuffled stock is not the discard pile less its top card: it "
                f"{' and '.join(parts)}.",
                seq=e.seq,
                expected=count_words(len(self.pile) - 1),
                recorded="; ".join(parts),
            )
        self.stock = [*reversed(new_stock), *self.stock]  # the top is the end of the list
        self.stock_unordered = self.stock_unordered and left > 0
        self.under = len(new_stock) if left else 0
        self.pile, self.pile_from = self.pile[-1:], self.pile_from[-1:]

    # ------------------------------------------------------------ the whole hand

    def run(self) -> HandReplay:
        if not self.deal():
            return self
        events = self.hand.events
        for i, e in enumerate(events):
            action = e.action  # the most frequent first; not ``match``, whose value
            # patterns (``case Action.DISCARD``) look the member up on every event
            if self.by_rules and self.ended and not (action == _SHOW and self._declared()):
                break  # the other rules ended the hand here: the record's rest is moot
            if action == _DISCARD:
                self.discard(e)
            elif action == _DRAW_STOCK:
                self.draw_stock(e)
            elif action == _DRAW_DISCARD:
                self.draw_discard(e)
            elif action == _DROP:
                self.drop(e)
            elif action == _DECLARE:
                self.declare(e, events[i + 1 :])
            elif action == _SHOW:
                self.show(e)
            elif action == _RESHUFFLE:
                self.reshuffle(e)
            else:
                raise ValueError(f"unknown action {action!r}; the reader admits no such row")
        if not self.ended:
            self._find(
                "turn.order",
                "turns.order",
                f"The hand's events end with {len(self._active())} players still in and no "
                "valid declaration.",
                expected="a valid declaration or one player left",
                recorded=f"{len(self._active())} players in",
            )
        return self
