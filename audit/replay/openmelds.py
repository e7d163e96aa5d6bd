"""The state machine of one hand of the open-melds game (002_'s Indian Rummy to 250).

``OpenHandReplay(hand, game, rules).run()`` replays a hand of a ruleset whose
``game.kind`` is ``open-melds``: melds are laid on the table during play (``lay``), a
player adds to their own melds (``lay_off``), the cut card may be taken instead of a draw
but only kept by a player who goes out that turn (``take_cut``, ``return_cut``), and the
hand ends when a player goes out by discarding their last card. docs/replay.md ("Open
melds") states every rule checked here.

What the two games share is not copied: the deal, the turn order, the stock and pile draws
(top card, ``draw.forbidden``), a card played that is not held, and the reshuffle are
``HandReplay``'s own checks, run on a ``HandReplay`` this replay drives (``base``); its
seats are the players' hands. Like it, this replay raises findings, never exceptions, and
goes on with what the log recorded, so one error is one finding.

``audit_open_hand`` is the whole of one such hand's audit, as ``audit_hand`` is for the
declaration games: the rules' outcome and points of each player, compared with
``results`` by ``compare_results``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Final

from audit.cards import CODE_TEXT, JOKER, format_codes
from audit.findings import Finding
from audit.logs.clock import clock_finding
from audit.records import Action, Event, Game, Hand
from audit.replay.facts import PileRow
from audit.replay.hand import HandReplay
from audit.replay.outcome import (
    Expected,
    HandAudit,
    TableState,
    compare_results,
    one_drop_finding,
    shoe_of,
)
from audit.replay.seats import Seat, Status
from audit.rules.melds import MeldKind, Verdict, classify, group_rule
from audit.rules.ruleset import Ruleset
from audit.shuffle.commitment import commitment_findings

_TABLE_KINDS: Final = (MeldKind.PURE_RUN, MeldKind.IMPURE_RUN, MeldKind.SET)
"""What a meld on the table may be: a sequence or a set (a group of jokers alone is not)."""
_LAYS: Final = frozenset({Action.LAY, Action.LAY_OFF, Action.SWAP_JOKER})
_TAKES_TURN: Final = frozenset(
    {Action.DRAW_STOCK, Action.DRAW_DISCARD, Action.TAKE_CUT, Action.DISCARD}
)
"""An intruder's moves after which the turn is theirs (``OpenHandReplay._plays_on``)."""


@dataclass(slots=True)
class TableMeld:
    """A meld on the table: its number (0, 1, ... in the order laid), who laid it, its
    cards now (after lay-offs and swaps), and the event that laid it."""

    number: int
    owner: str
    cards: list[int]
    seq: int


@dataclass(slots=True)
class _Turn:
    """What one turn has done so far (a new one starts when another player acts)."""

    player: str | None
    cut_tries: int = 0
    cut_held: int | None = None
    """The cut card taken this turn and not put back."""
    drew_before_cut: bool = False
    """The player had drawn this turn when they took the cut card: putting it back leaves
    that draw standing (a blind tester's draw, take_cut, return_cut, discard was "a
    discard without drawing" besides "drew twice")."""
    cut_returned: bool = False
    offered: bool = False
    """The turn's pile offer is counted (``HandReplay.offered``, the fair-play facts)."""
    must_lay: list[tuple[int, int]] = field(default_factory=list)
    """(card, seq): cards taken from the pile this turn that must be laid this turn."""
    laid: Counter[int] = field(default_factory=Counter)
    """Cards put in melds this turn (laid, laid off, swapped in)."""


class OpenHandReplay:
    """Replays one open-melds hand; read ``findings``, ``seats``, ``melds``, ``opened``,
    ``winner`` after ``run()``."""

    def __init__(
        self, hand: Hand, game: Game, rules: Ruleset, started_with: int | None = None
    ) -> None:
        self.base = HandReplay(hand, game, rules, started_with)
        self.hand, self.game, self.rules = hand, game, rules
        self.jokers = self.base.jokers
        self.melds: list[TableMeld] = []
        self.opened: set[str] = set()
        """Players who laid a meld (``lay``) in the hand."""
        self.picks: Counter[str] = Counter()
        """Draws each player made from the discard pile."""
        self.cut: int | None = None
        """The cut card on show (``None`` while a player holds it)."""
        self.out_seq: int | None = None
        """The event that ended the hand by a player going out."""
        self.turn = _Turn(None)
        self.stray: _Turn | None = None
        """The turn of a player who laid out of turn, while their moves go on
        (``_mid_turn``)."""
        self.table: dict[int, TableState] = {}
        """The melds on the table after each event that changed them, by seq (explain)."""
        self.swapped: dict[str, tuple[TableMeld, int, tuple[int, ...]]] = {}
        """Each player's last joker swap whose joker the log leaves open: the meld, the
        joker the replay gave them and the other jokers of the meld the card fitted as
        well (``_reclaim``)."""

    @property
    def findings(self) -> list[Finding]:
        return self.base.findings

    @property
    def seats(self) -> dict[str, Seat]:
        return self.base.seats

    @property
    def winner(self) -> str | None:
        return self.base.winner

    @property
    def ended(self) -> bool:
        return self.base.ended

    def _find(
        self,
        check: str,
        key: str,
        message: str,
        e: Event,
        *,
        expected: object = None,
        recorded: object = None,
    ) -> None:
        self.base._find(
            check, key, message, player=e.player, seq=e.seq, expected=expected, recorded=recorded
        )

    def _for(self, player: str | None) -> _Turn:
        if self.turn.player != player:
            self.turn = _Turn(player)
        return self.turn

    def _mid_turn(self, e: Event) -> tuple[Seat | None, _Turn]:
        """The seat a lay, lay-off or joker swap applies to, and the turn it counts in.
        One by a player in the hand whose turn it is not, mid-turn or between turns, is
        one ``turn.order`` and leaves the turn where it was: its cards leave the intruder's
        hand, and the player whose turn it is goes on (the turn moved to the intruder, and
        that player's own next move was called out of turn: a blind tester, twice). The
        intruder's further lays, with no other player's event between, are the same
        intrusion (``stray``; ``_plays_on``)."""
        base, player = self.base, e.player
        seat = base.seats.get(player) if player is not None else None
        if (
            seat is not None
            and player != base.order[base.current]
            and seat.status is Status.IN
            and not base.ended
        ):
            if self.stray is None or self.stray.player != player:
                base.out_of_turn(e)
                self.stray = _Turn(player)  # the turn's own state stays the turn's
            return seat, self.stray
        turn = self._for(player)
        return base._check_turn(e, draw=False), turn

    def _plays_on(self, e: Event) -> None:
        """Any event but the intruder's next lay ends an intrusion (``_mid_turn``). Where
        the intruder goes on to draw or discard, the record gives them the turn: it moves
        to them with no second finding (the one error was said at their first lay)."""
        stray = self.stray
        if stray is None or (e.player == stray.player and e.action in _LAYS):
            return
        self.stray = None
        player = stray.player
        if player is not None and e.player == player and e.action in _TAKES_TURN:
            base = self.base
            base.current = base.order.index(player)
            base.drawn_this_turn = e.action == Action.DISCARD
            self.turn = stray

    # ------------------------------------------------------------ draws

    def draw(self, e: Event) -> None:
        """``draw_stock`` or ``draw_discard``: ``HandReplay``'s checks; a pick from the pile
        after the player's first of the hand must be laid this turn (``open.pile_pick``)."""
        turn = self._for(e.player)
        offers = dict(self.base.offered) if turn.offered else None
        seat = self.seats.get(e.player) if e.player is not None else None
        live = seat is not None and not self.ended and seat.status is Status.IN
        if e.action == Action.DRAW_STOCK:
            self.base.draw_stock(e)
        else:
            self.base.draw_discard(e)
            if live and e.player is not None:
                self.picks[e.player] += 1
                if self.rules.pile_pick == "first-free" and self.picks[e.player] > 1:
                    turn.must_lay.append((e.card, e.seq))
        if offers is not None:  # the cut card was tried first: one offer a turn
            self.base.offered = offers
        turn.offered = True

    def take_cut(self, e: Event) -> None:
        turn = self._for(e.player)
        twice = turn.cut_tries > 0
        seat = self.base._check_turn(e, draw=not (twice and self.base.drawn_this_turn))
        if seat is None:
            return
        card, shown = e.card, self.cut
        turn.cut_tries += 1
        if twice:
            self._find(
                "draw.cut_card",
                "open.cut_card",
                f"{seat.player} took the cut card {CODE_TEXT[card]} a second time in one turn; "
                "a player has one try at the cut card per turn.",
                e,
                expected="one try per turn",
                recorded="a second take_cut",
            )
        elif self.rules.cut_card == "never":
            self._find(
                "draw.cut_card",
                "open.cut_card",
                f"{seat.player} took the cut card {CODE_TEXT[card]}, which this ruleset never "
                "lets a player take.",
                e,
                expected="a draw from the stock or the discard pile",
                recorded=CODE_TEXT[card],
            )
        elif shown is None:
            self._find(
                "draw.cut_card",
                "open.cut_card",
                f"{seat.player} took {CODE_TEXT[card]} as the cut card, but no cut card was on "
                "show: another player had taken it and not put it back.",
                e,
                expected="no cut card",
                recorded=CODE_TEXT[card],
            )
        elif card != shown:
            self._find(
                "draw.cut_card",
                "open.cut_card",
                f"{seat.player} took {CODE_TEXT[card]} as the cut card, but the cut card on "
                f"show was {CODE_TEXT[shown]}.",
                e,
                expected=CODE_TEXT[shown],
                recorded=CODE_TEXT[card],
            )
        if not turn.offered:
            self.base._offer(seat.player)
            turn.offered = True
        seat.cards.append(card)
        seat.has_drawn = True
        turn.drew_before_cut = self.base.drawn_this_turn
        self.base.drawn_this_turn = True
        self.cut = None
        turn.cut_held = card

    def return_cut(self, e: Event) -> None:
        """The cut card taken this turn goes back on show and the turn goes on with a draw
        (or with the draw made before the take, which drew twice: one ``turn.order``).
        One with no ``take_cut`` before it in the turn is ``draw.cut_card`` and nothing
        else: it comes before the turn's draw (not a ``turn.order`` for the draw it lacks)
        and, nothing having been taken, moves no card (the hand and the card on show stay
        as they were)."""
        turn = self._for(e.player)
        card, held = e.card, turn.cut_held
        # A stray return is checked as a turn's first move: only who may act (a player in
        # the hand, in turn), not whether they drew.
        stray = held is None
        seat = self.base._check_turn(e, draw=stray, dropping=stray)
        if seat is None:
            return
        if held is None:
            self._find(
                "draw.cut_card",
                "open.cut_card",
                f"{seat.player} put back {CODE_TEXT[card]} as the cut card without having "
                "taken the cut card this turn.",
                e,
                expected="a take_cut first",
                recorded=CODE_TEXT[card],
            )
            return
        if card != held:
            self._find(
                "draw.cut_card",
                "open.cut_card",
                f"{seat.player} put back {CODE_TEXT[card]} as the cut card, but the cut card "
                f"they took was {CODE_TEXT[held]}.",
                e,
                expected=CODE_TEXT[held],
                recorded=CODE_TEXT[card],
            )
        self._reclaim(seat, card)
        self.base._take_from_hand(seat, e, card, "put back as the cut card")
        self.cut = card
        turn.cut_held = None
        turn.cut_returned = True
        # The turn goes on with a draw as usual, or with the draw made before the take
        # (that take drew twice: its turn.order).
        self.base.drawn_this_turn = turn.drew_before_cut

    # ------------------------------------------------------------ the table

    def lay(self, e: Event) -> None:
        seat, turn = self._mid_turn(e)
        if seat is None:
            return
        for group in e.groups or []:
            for card in group:
                self._reclaim(seat, card)
                self.base._take_from_hand(seat, e, card, "laid")
            meld = TableMeld(len(self.melds), seat.player, list(group), e.seq)
            self.melds.append(meld)
            turn.laid.update(group)
            self._judge(meld, e, f"{seat.player} laid meld {meld.number}")
        self.opened.add(seat.player)
        self._emptied(seat, e)

    def _target(self, e: Event) -> TableMeld | None:
        """The table meld ``e`` plays onto; a number the table does not hold is
        ``meld.invalid`` (``open.melds``: a card is added only to a meld on the table)."""
        n = e.meld
        if n is not None and 0 <= n < len(self.melds):
            return self.melds[n]
        held = (
            f"melds 0 to {len(self.melds) - 1}" if len(self.melds) > 1
            else "meld 0 only" if self.melds else "no meld"
        )  # fmt: skip
        self._find(
            "meld.invalid",
            "open.melds",
            f"{e.player} played {CODE_TEXT[e.card]} onto meld {n} ({e.action}), but the "
            f"table holds {held}.",
            e,
            expected=held,
            recorded=f"meld {n}",
        )
        return None

    def lay_off(self, e: Event) -> None:
        seat, turn = self._mid_turn(e)
        if seat is None:
            return
        meld = self._target(e)
        self._reclaim(seat, e.card)
        self.base._take_from_hand(seat, e, e.card, "laid off")
        turn.laid[e.card] += 1
        if meld is not None:
            if self.rules.lay_off == "own" and meld.owner != seat.player:
                self._find(
                    "meld.lay_off",
                    "open.lay_off",
                    f"{seat.player} added {CODE_TEXT[e.card]} to meld {meld.number} "
                    f"({format_codes(meld.cards)}), which {meld.owner} laid; a player may add "
                    "cards only to their own melds.",
                    e,
                    expected=f"a meld of {seat.player}'s",
                    recorded=f"meld {meld.number} of {meld.owner}'s",
                )
            meld.cards.append(e.card)
            self._judge(meld, e, f"{seat.player} added {CODE_TEXT[e.card]} to meld {meld.number}")
        self._emptied(seat, e)

    def swap_joker(self, e: Event) -> None:
        """A card from the hand takes a joker's place in a table meld; the joker goes to the
        hand. The log does not say which joker when the meld holds several: the first one
        whose place the card fits (the meld stays valid), else a printed joker, else the
        first; where others fit as well, the player's next play of one of them says it was
        that one (``_reclaim``)."""
        seat, turn = self._mid_turn(e)
        if seat is None:
            return
        card = e.card
        if not self.rules.joker_swap:
            # A swap where jokers stay is the one finding, whatever meld it names: not also
            # the meld's number missing or its holding no joker (a blind tester: two).
            n, meld = e.meld, None
            if n is not None and 0 <= n < len(self.melds):
                meld = self.melds[n]
            where = f" in meld {n} on the table" if meld is not None else " on the table"
            if meld is None and n is not None:
                where += f" (meld {n}, which the table does not hold)"
            elif meld is not None and not any(self.jokers.is_joker(c) for c in meld.cards):
                where += f" ({format_codes(meld.cards)}, a meld with no joker)"
            self._find(
                "meld.joker_swap",
                "open.joker_swap",
                f"{seat.player} swapped {CODE_TEXT[card]} for a joker{where}; a joker laid on "
                "the table stays there.",
                e,
                expected="the joker stays on the table",
                recorded=f"swap_joker {CODE_TEXT[card]}",
            )
        else:
            meld = self._target(e)
        self._reclaim(seat, card)
        self.base._take_from_hand(seat, e, card, "swapped onto the table")
        turn.laid[card] += 1
        if meld is None:
            return
        jokers = [c for c in meld.cards if self.jokers.is_joker(c)]
        if not jokers and not self.rules.joker_swap:
            meld.cards.append(card)  # said in the swap's finding
            return
        if not jokers:
            self._find(
                "meld.invalid",
                "open.joker_swap",
                f"{seat.player} swapped {CODE_TEXT[card]} for a joker in meld {meld.number} "
                f"({format_codes(meld.cards)}), which holds no joker.",
                e,
                expected="a meld with a joker",
                recorded=format_codes(meld.cards),
            )
            meld.cards.append(card)
            return
        fits = self._jokers_for(meld.cards, jokers, card)
        taken = fits[0] if fits else (JOKER if JOKER in jokers else jokers[0])
        meld.cards.remove(taken)
        meld.cards.append(card)
        seat.cards.append(taken)
        others = tuple(j for j in fits if j != taken)
        if others:
            self.swapped[seat.player] = (meld, taken, others)
        if self.rules.joker_swap:  # a forbidden swap is one finding, not two
            self._judge(
                meld,
                e,
                f"{seat.player} swapped {CODE_TEXT[card]} for {CODE_TEXT[taken]} in meld "
                f"{meld.number}",
            )

    def _jokers_for(self, cards: list[int], jokers: list[int], card: int) -> list[int]:
        """The jokers of a meld whose place ``card`` can take, the meld staying valid."""
        fits = []
        for joker in dict.fromkeys(jokers):
            trial = list(cards)
            trial.remove(joker)
            if classify([*trial, card], self.jokers, self.rules).kind in _TABLE_KINDS:
                fits.append(joker)
        return fits

    def _reclaim(self, seat: Seat, card: int) -> None:
        """A card the player plays that they do not hold, but that another joker of the
        meld of their last swap is, and which the card swapped in fitted as well: the log
        does not say which joker came back, so it was that one; the replay gave them the
        other, which goes back into the meld (no finding: the platform chose, the rules
        allow either)."""
        if card in seat.cards:
            return
        swap = self.swapped.get(seat.player)
        if swap is None:
            return
        meld, taken, others = swap
        if card in others and card in meld.cards and taken in seat.cards:
            meld.cards.remove(card)
            meld.cards.append(taken)
            seat.cards.remove(taken)
            seat.cards.append(card)
            del self.swapped[seat.player]

    def _judge(self, meld: TableMeld, e: Event, what: str) -> None:
        """A meld laid, or changed, must be a sequence or a set under the rules: a group
        invalid only for its wild cards is ``meld.wild_limit``, else ``meld.invalid``, citing
        the option its reason names, else what a meld on the table is (``open.melds``)."""
        verdict = classify(meld.cards, self.jokers, self.rules)
        if verdict.kind in _TABLE_KINDS:
            return
        text = format_codes(meld.cards)
        relaxed = classify(meld.cards, self.jokers, _unlimited(self.rules))
        if relaxed.kind in _TABLE_KINDS:
            run = relaxed.is_run
            most = self.rules.max_jokers_per_run if run else self.rules.max_jokers_per_set
            self._find(
                "meld.wild_limit",
                "melds.max_jokers_per_run" if run else "melds.max_jokers_per_set",
                f"{what}: {text} uses {relaxed.jokers} wild cards as a "
                f"{'sequence' if run else 'set'}, and a meld may hold at most {most}.",
                e,
                expected=f"at most {most} wild cards",
                recorded=f"{relaxed.jokers} wild cards",
            )
            return
        reason = _reason(verdict, text)
        self._find(
            "meld.invalid",
            group_rule(reason, "open.melds"),
            f"{what}: {reason}.",
            e,
            expected="a sequence or a set",
            recorded=text,
        )

    def _emptied(self, seat: Seat, e: Event) -> None:
        """A hand emptied by laying cards: the player goes out without the final discard."""
        if seat.cards or self.ended:
            return
        self._find(
            "hand.going_out",
            "game.kind",
            f"{seat.player} laid their last card and had none left to discard; a player goes "
            "out by discarding their last card.",
            e,
            expected="a final discard",
            recorded=e.action,
        )
        self._out(seat, e)

    # ------------------------------------------------------------ the end of a turn

    def discard(self, e: Event) -> None:
        turn = self._for(e.player)
        seat = self.base._check_turn(e, draw=False)
        if seat is None:
            return
        card = e.card
        self._reclaim(seat, card)
        held = self.base._take_from_hand(seat, e, card, "discarded")
        self.base.lay_on_pile(card, seat.player, held=held)
        seat.turns += 1
        going_out = not seat.cards
        if turn.cut_held is not None and not going_out:
            self._find(
                "draw.cut_card",
                "open.cut_card",
                f"{seat.player} took the cut card {CODE_TEXT[turn.cut_held]} and kept it "
                "without going out that turn; the cut card is only theirs if they go out, "
                "otherwise it goes back on show.",
                e,
                expected="go out, or put the cut card back",
                recorded=f"kept {CODE_TEXT[turn.cut_held]}",
            )
        for taken, at in turn.must_lay:
            if turn.laid[taken] > 0:
                turn.laid[taken] -= 1
                continue
            again = taken == card
            self._find(
                "draw.pile_kept",
                "open.pile_pick",
                f"{seat.player} took {CODE_TEXT[taken]} from the discard pile (event {at}) "
                f"and did not lay it in a meld that turn"
                f"{' (they discarded it again)' if again else ''}; only a player's first pick "
                "from the pile in a hand is free to keep.",
                e,
                expected="laid in a meld that turn",
                recorded="discarded again" if again else "kept in hand",
            )
        self.turn = _Turn(None)
        if going_out:
            self._going_out(seat, e)
        else:
            self.base._advance(seat.player)

    def _going_out(self, seat: Seat, e: Event) -> None:
        rules = self.rules
        own = [m for m in self.melds if m.owner == seat.player]
        verdicts = [classify(m.cards, self.jokers, rules) for m in own]
        runs = sum(1 for v in verdicts if v.is_run)
        pure = sum(1 for v in verdicts if v.is_pure_run)
        if runs < rules.min_runs or pure < rules.min_pure_runs:
            self._find(
                "hand.going_out",
                "declaration.min_runs" if runs < rules.min_runs else "declaration.min_pure_runs",
                f"{seat.player} went out by discarding {CODE_TEXT[e.card]}, but their melds on "
                f"the table hold {runs} sequence{'s' if runs != 1 else ''}, {pure} without a "
                f"joker; going out needs {rules.min_runs} sequences, {rules.min_pure_runs} of "
                "them without a joker.",
                e,
                expected=f"{rules.min_runs} sequences, {rules.min_pure_runs} pure",
                recorded=f"{runs} sequence{'s' if runs != 1 else ''}, {pure} pure",
            )
        self._out(seat, e)

    def _out(self, seat: Seat, e: Event) -> None:
        self.base.ended = True
        self.base.winner = seat.player
        self.out_seq = e.seq

    def drop(self, e: Event) -> None:
        """A match has no drops (``drops.match``): a player who drops or leaves is charged
        what they hold; a drop not a player leaving is ``drop.forbidden`` (once: where the
        record also charges it other than the rules, ``audit_open_hand`` keeps the finding
        of the charge, which says both)."""
        seat = self.base.dropper(e, after_draw=False)
        if seat is None:
            return
        if e.reason != "left":
            self._find(
                "drop.forbidden",
                "drops.match",
                f"{seat.player} dropped, but a match has no drops: the player is charged "
                "what they hold.",
                e,
                expected="no drop",
                recorded="drop",
            )
        if self.base.fold(seat, e):
            self.turn = _Turn(None)

    # ------------------------------------------------------------ the whole hand

    def run(self) -> OpenHandReplay:
        if not self.base.deal():
            return self
        self.cut = self.hand.wild  # the card turned up at the deal stays on show
        for e in self.hand.events:
            action = e.action
            if self.stray is not None:
                self._plays_on(e)
            if action in (Action.DRAW_STOCK, Action.DRAW_DISCARD):
                self.draw(e)
            elif action == Action.DISCARD:
                self.discard(e)
            elif action in (Action.LAY, Action.LAY_OFF, Action.SWAP_JOKER):
                if action == Action.LAY:
                    self.lay(e)
                elif action == Action.LAY_OFF:
                    self.lay_off(e)
                else:
                    self.swap_joker(e)
                self.table[e.seq] = tuple((m.number, m.owner, tuple(m.cards)) for m in self.melds)
            elif action == Action.TAKE_CUT:
                self.take_cut(e)
            elif action == Action.RETURN_CUT:
                self.return_cut(e)
            elif action == Action.DROP:
                self.drop(e)
            elif action == Action.RESHUFFLE:
                self.base.reshuffle(e)
            else:  # declare, show: moves of the declaration games
                self._find(
                    "turn.order",
                    "game.kind",
                    f"{e.player} made a {action}, which the open-melds game does not have: a "
                    "hand ends when a player goes out by discarding their last card.",
                    e,
                    recorded=action,
                )
        if not self.ended:
            left = [p for p in self.base.order if self.seats[p].status is Status.IN]
            self.base._find(
                "hand.going_out",
                "game.kind",
                f"The hand's events end with {len(left)} players still holding cards and "
                "nobody gone out.",
                expected="a player goes out",
                recorded=f"{len(left)} players in",
            )
        return self

    # ------------------------------------------------------------ outcomes

    def charge(self, player: str) -> tuple[int, str, str]:
        """What a player who did not go out pays: (points, rule key, why in words)."""
        rules = self.rules
        if player not in self.opened and rules.never_opened is not None:
            flat = rules.never_opened
            return flat, "open.never_opened", f"never laid a meld, which costs a flat {flat}"
        cards = sorted(self.seats[player].cards)
        table = rules.points_table(self.jokers.codes)
        raw = sum(table[c] for c in cards)
        if not cards:
            return 0, "points.card_points", "held no card, 0 points"
        # Card by card, as a support agent reads it out: a joker's 0 is said to be one.
        each = " + ".join(
            f"{CODE_TEXT[c]} {table[c]}"
            + (" (joker)" if c == JOKER or c in self.jokers.codes else "")
            for c in cards
        )
        held = f"held {format_codes(cards)}: {each}" if len(cards) > 1 else f"held {each}"
        if raw > rules.cap:
            return rules.cap, "points.cap", f"{held} = {raw} points, capped at {rules.cap}"
        return raw, "points.card_points", f"{held} = {raw} points"

    def expected(self) -> dict[str, Expected]:
        """The outcome and points the rules give each seated player (none while the hand
        has not ended): the player out won 0; every other loses what they hold (capped) or
        the flat charge of a player who never laid a meld."""
        out: dict[str, Expected] = {}
        if not self.ended:
            return out
        for player, seat in self.seats.items():
            if player == self.winner:
                if self.out_seq is None:
                    out[player] = Expected(
                        "won", 0, "turns.last_player", "was the last player left in the hand"
                    )
                else:
                    out[player] = Expected(
                        "won",
                        0,
                        "game.kind",
                        "went out, which ends the hand",
                        seq=self.out_seq,
                    )
                continue
            points, key, why = self.charge(player)
            if seat.status in (Status.DROPPED, Status.LEFT):
                outcome = "first_drop" if seat.dropped_first else "middle_drop"
                did = (
                    "left a match, which has no drops," if seat.status is Status.LEFT
                    else "dropped, which a match does not allow,"
                )  # fmt: skip
                out[player] = Expected(
                    outcome, points, "drops.match", f"{did} and {why}", seq=seat.drop_seq,
                )  # fmt: skip
            else:
                out[player] = Expected("lost", points, key, why)
        return out

    def pile_facts(self) -> list[PileRow]:
        """pile.parquet's rows of the hand: the offers and takes ``HandReplay`` counts; a
        card taken is ``melded`` when it ended in a meld of the taker's on the table."""
        base, hand = self.base, self.hand
        taken: Counter[tuple[str, str]] = Counter()
        melded: Counter[tuple[str, str]] = Counter()
        owned: dict[str, Counter[int]] = {}
        for meld in self.melds:
            owned.setdefault(meld.owner, Counter()).update(meld.cards)
        for giver, taker, card in base.takes:
            taken[giver, taker] += 1
            pool = owned.get(taker)
            if pool is not None and pool[card] > 0:
                pool[card] -= 1
                melded[giver, taker] += 1
        return [
            PileRow(hand.game_id, hand.hand_id, giver, taker, n, taken[giver, taker],
                    melded[giver, taker])
            for (giver, taker), n in sorted(base.offered.items())
        ]  # fmt: skip


def _reason(verdict: Verdict, text: str) -> str:
    if verdict.kind is MeldKind.INVALID:
        return verdict.reason
    return f"{text} is not a sequence or a set ({verdict.reason})"


_UNLIMITED: dict[int, tuple[Ruleset, Ruleset]] = {}


def _unlimited(rules: Ruleset) -> Ruleset:
    """The ruleset without its wild-card limits: what tells a meld invalid only for its
    wild cards (``meld.wild_limit``) from one that is no meld at all."""
    held = _UNLIMITED.get(id(rules))
    if held is None or held[0] is not rules:
        relaxed = replace(rules, max_jokers_per_run=None, max_jokers_per_set=None)
        held = _UNLIMITED[id(rules)] = (rules, relaxed)
    return held[1]


def audit_open_hand(
    hand: Hand, game: Game, rules: Ruleset, started_with: int | None = None
) -> tuple[HandAudit, OpenHandReplay]:
    """One open-melds hand replayed and its results compared (``HandAudit.replay`` is the
    ``HandReplay`` the replay drove: the seats, pile and draws), with the replay itself."""
    replay = OpenHandReplay(hand, game, rules, started_with).run()
    expected = replay.expected()
    findings = list(replay.findings)
    findings += commitment_findings(hand, game, shoe_of(replay.base))
    findings = one_drop_finding(findings, compare_results(replay.base, expected))
    if hand.clock is not None:  # the events' times, as the reader found them
        findings = [*findings, clock_finding(hand, hand.clock)]
    status = "discrepancy" if findings else "verified"
    return HandAudit(status, findings, replay.base, expected, replay.table), replay
