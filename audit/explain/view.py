"""The view model of one explained hand: its facts in words, built from the replay.

The renderers (``terminal.py``, ``html.py``) receive a ``HandView`` and nothing else, so the
terminal and the HTML page say the same things.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from audit.errors import AuditError
from audit.explain.cards import (
    LOOSE,
    ONE_CARD,
    CardView,
    GroupView,
    alternative_views,
    card_view,
    card_views,
    group_views,
    joker_note,
    joker_views,
    on_its_own,
)
from audit.explain.clock import UNKNOWN, Clock, span
from audit.explain.elsewhere import Elsewhere, elsewhere, hand_verdict
from audit.explain.handmoney import (
    MONEY_CHECKS,
    ZERO,
    Settled,
    amount_words,
    deal_chips,
    hand_amount,
    money_findings,
    money_words,
    settled_by_rules,
)
from audit.explain.points import (
    BestView,
    PointsView,
    RuleView,
    ValueView,
    best_view,
    exact_loser,
    points_view,
    rule_view,
    shown_loser,
    value_view,
)
from audit.explain.terms import TableView, row_priced, table_view
from audit.explain.turns import TurnView, turn_views
from audit.findings import Finding, worst_name
from audit.records import Format, Game, Hand, Result, ordinal
from audit.replay.charged import charged_words
from audit.replay.deal import dealt_cards
from audit.replay.followed import WINNER_FOLLOWS, charges_points
from audit.replay.outcome import (
    SERVER_ARRANGED,
    UNHELD,
    Expected,
    HandAudit,
    compare_money,
    plays_on,
    rejected_valid,
    seat_by_rules,
)
from audit.replay.seats import HELD_NOTE, Declaration, Seat, Status
from audit.rules.declaration import GroupCheck, check_groups, meld_rule_behind, valid_words
from audit.rules.melds import Jokers
from audit.rules.ruleset import Ruleset
from audit.unit import UnitAudit

OUTCOME_WORDS = {
    "won": "won",
    "lost": "lost",
    "first_drop": "first drop",
    "middle_drop": "middle drop",
    "invalid_declare": "invalid declaration",
}
FORMAT_WORDS = {
    "points": "points rummy",
    "pool_101": "101 pool rummy",
    "pool_201": "201 pool rummy",
    "deals": "deals rummy",
}


@dataclass(frozen=True)
class PlayerView:
    """One seat: the cards dealt, the rules' outcome and why, what was recorded, the
    groups and the points.

    ``amount`` is the money (points rummy) or the chips (deals) the rules give the player
    for the hand, empty where the rules give none to compare (pool, or no single winner);
    ``differs`` names what of the record differs from the rules (``outcome``, ``points``,
    ``amount``): the record ``agrees`` only when nothing does. ``dealt`` are the cards the
    deal procedure gave the player (``shoe[i]`` for ``i < n*k`` goes to seat ``i mod n``),
    sorted. ``groups`` are the player's final groups (declared, shown or arranged by the
    server) but for cards left on their own, which are ``loose``; ``held`` are the cards of
    a player without groups (dropped, or the hand unfinished).
    """

    player: str
    seat: int
    outcome: str
    points: str
    amount: str
    why: str
    rule: RuleView | None
    recorded: str
    agrees: bool
    differs: tuple[str, ...]
    severity: str
    dealt: tuple[CardView, ...]
    declaration: str
    declaration_reasons: tuple[str, ...]
    groups_title: str
    groups: tuple[GroupView, ...]
    loose: tuple[CardView, ...]
    held: tuple[CardView, ...]
    points_detail: PointsView | None
    best: BestView | None
    value: ValueView | None = None
    """The value cards and their settlement (21 and 27 cards, points rummy), else ``None``."""
    amount_word: str = "amount"
    """What ``amount`` is: ``amount`` (money, points rummy) or ``chips`` (deals)."""
    money: str = ""
    """How the rules' ``amount`` of a points hand is made (``handmoney.money_words``), where
    it is the rules' own; the value cards' ``value.money`` says it with value cards."""
    note: str = ""
    """Why the record differs without a finding of this player's, or why it is not
    compared, or what of it was not checked: said after ``comparison``'s words."""
    loose_note: str = ""
    """What the jokers among ``loose`` are worth (``cards.joker_note``)."""
    loose_label: str = LOOSE
    """What ``loose`` are: ``not in any group`` (``LOOSE``) where the groups are not the
    player's own (arranged by the server), ``groups of one card`` (``ONE_CARD``) where
    the player declared or showed each of them as a group of its own."""
    points_recorded: bool = False
    """The rules give no points (the player's show does not hold their cards,
    docs/replay.md): ``points`` are the recorded ones, taken as recorded."""
    declaration_rules: tuple[RuleView, ...] = ()
    """The rules the declaration's verdict rests on, but for ``rule``: those it breaks
    (``declaration.min_pure_runs`` for no pure sequence), or the requirement it meets
    beside ``declaration.min_runs`` and ``melds.wild_natural_keeps_pure`` where a
    wild-rank card stands for itself in a pure sequence (``declaration_rules``)."""
    breach: str = ""
    """A finding on how the player ended the hand that leaves the rules' outcome as
    recorded (an open-melds player who went out illegally ends the hand all the same):
    the record agrees, but not without it (``comparison``)."""

    @property
    def clean(self) -> bool:
        """The record agrees and no finding qualifies it (``breach``): said in green."""
        return self.agrees and not self.breach

    @property
    def label(self) -> str:
        """``P2, 2nd to play``: the hand's turn order (``hands.seats``' order), not the
        platform's seat number, which the audit does not carry (a blind tester's agent read
        "seat 1" to a player the platform had at seat 3)."""
        return f"{self.player}, {ordinal(self.seat)} to play"

    @property
    def score(self) -> str:
        """The rules' outcome and points: ``lost, 35 points``; ``lost, 40 points, taken as
        recorded``."""
        words = self.outcome + (f", {self.points} points" if self.points else "")
        return words + (", taken as recorded" if self.points_recorded else "")

    @property
    def record(self) -> str:
        """``recorded lost, 35 points, amount -17.50``; ``nothing is recorded for P3``."""
        if not self.recorded:
            return f"nothing is recorded for {self.player}"
        return f"recorded {self.recorded}"

    @property
    def comparison(self) -> str:
        """``agrees``, what differs (``differs (points, amount)``), or ``not compared``,
        each followed by ``note`` when there is one."""
        if self.agrees:
            words = f"agrees, but {self.breach}" if self.breach else "agrees"
        elif self.differs:
            words = f"differs ({', '.join(self.differs)})"
        else:
            words = "not compared"
        return f"{words}: {self.note}" if self.note else words


@dataclass(frozen=True)
class FindingView:
    severity: str
    check: str
    player: str
    seq: str
    message: str
    rule: str
    expected: str
    recorded: str
    hand: str = ""
    """The hand it names, if any (a game's findings list them all)."""

    @property
    def at(self) -> str:
        """``seq 4`` (the hand's event), or ``game event 3`` for the checks that name a
        ``game_events`` row (schemas/output.md; a blind tester looked for a hand's seq 3
        in a hand of seqs 0-2); empty without a seq."""
        if not self.seq:
            return ""
        return f"game event {self.seq}" if self.check in GAME_EVENT_CHECKS else f"seq {self.seq}"


GAME_EVENT_CHECKS = frozenset(
    {"pool.elimination", "pool.rebuy", "pool.split", "pool.winner", "match.winner", "deals.chips"}
)
"""The checks whose ``seq`` is a ``game_events.seq`` (schemas/output.md, findings): the
winners' on a ``game_won`` row written again."""


@dataclass(frozen=True)
class SuspicionView:
    """A fair-play suspicion the hand is evidence for."""

    check: str
    severity: str
    """Its strength."""
    players: tuple[str, ...]
    message: str
    listed: bool = True
    """Whether the suspicion lists the hand (or game) among its evidence; if not, its
    accounts were dealt in together, which its detector counted (``involvement``)."""

    @property
    def involvement(self) -> str:
        """What to say of a suspicion that does not list the hand among its evidence."""
        if self.listed:
            return ""
        return (
            "Involves the accounts of this suspicion; not among its listed evidence (each "
            "suspicion lists its few strongest hands and games)."
        )


@dataclass(frozen=True)
class FairPlayView:
    """The fair-play suspicions the hand is evidence for, when they were looked up in a
    run's suspicions.parquet; ``note`` says what was looked up, or why not and how to."""

    looked_up: bool
    note: str
    suspicions: tuple[SuspicionView, ...] = ()


NOT_LOOKED_UP = FairPlayView(
    looked_up=False,
    note="Fair play was not looked up: no --out was given; to list the fair-play "
    "suspicions this hand is evidence for, give the nightly run's output folder with "
    "--out OUT.",
)
NOT_LOOKED_UP_GAME = FairPlayView(
    looked_up=False,
    note="Fair play was not looked up: no --out was given; to list the fair-play "
    "suspicions this game is evidence for, give the nightly run's output folder with "
    "--out OUT.",
)


@dataclass(frozen=True)
class HandView:
    """Everything the explanation of one hand says. ``unreplayable`` holds why a hand could
    not be replayed; the hand's other facts are then empty."""

    hand_id: str
    game_id: str
    hand_no: int
    game: str
    ruleset: str
    ruleset_title: str
    source: str
    version: str
    unreplayable: str
    seats: tuple[str, ...]
    wild: CardView
    open: CardView
    jokers: str
    joker_cards: tuple[CardView, ...]
    turns: tuple[TurnView, ...]
    players: tuple[PlayerView, ...]
    findings: tuple[FindingView, ...]
    verdict: str
    worst: str
    fairplay: FairPlayView = NOT_LOOKED_UP
    """The fair-play suspicions the hand is evidence for (``load_view`` with an output
    folder looks them up)."""
    table: TableView | None = None
    """The game's table and money terms (``None`` when the games table lacks the game)."""
    times: str = "not recorded"
    """When the hand was dealt and ended, in words."""
    skipped: tuple[str, ...] = ()
    """The checks of the hand's game that were not run (``UnitAudit.skipped``): a hand
    whose findings are none is not said to agree with them."""
    but: str = ""
    """What of its players rests on the game's findings elsewhere (``elsewhere.Elsewhere``):
    whose score after it differs, who played it while out; the verdict says it."""
    wild_name: str = "Wild card"
    """What the header calls ``wild``: the open-melds game's cut card, which its turns
    take (``Cut card (wild)``), else the wild card."""
    seats_recorded: tuple[str, ...] = ()
    """The hand's seats as recorded, where the players were dealt and took their turns in
    another order (``seats``, the order played: docs/replay.md, "The deal")."""
    record: tuple[str, ...] = ()
    """What the tables record of a hand that could not be replayed (``find.hand_record``):
    its hands rows when there are several, its events and results rows."""

    @property
    def title(self) -> str:
        return f"Hand {self.hand_id}"

    @property
    def none_found(self) -> str:
        """What the findings say when there is none: that the record agrees, unless some
        checks were not run or it rests on a finding elsewhere (``but``)."""
        if self.skipped:
            return "none found, but not every check of its game was run:"
        if self.but:
            return f"none of its own, but {self.but}."
        return "none: the record agrees with the rules."

    @property
    def headline(self) -> str:
        """``Hand H1, hand 1 of game G1 (points rummy, rules standard-13)``; a game the logs
        cut while it ran says so after its format."""
        if self.unreplayable:
            game = f"game {self.game_id}" if self.game_id else "a game not known"
            return f"Hand {self.hand_id} of {game}"
        return (
            f"Hand {self.hand_id}, hand {self.hand_no} of game {self.game_id} "
            f"({self.game}, rules {self.ruleset})"
        )


def build_view(
    unit: UnitAudit, hand_id: str, *, source: str, version: str, clock: Clock = UNKNOWN
) -> HandView:
    """Put what the rules say about hand ``hand_id`` of an audited game into words: its
    replay and its findings, with the game-level findings that name it; ``clock`` is when
    the hand was dealt and ended (``find.hand_clock``)."""
    item = unit.hand(hand_id)
    if item is None:
        raise AuditError(f"game {unit.game_id} has no hand {hand_id!r}", slug="no-hand")
    hand, game, rules, audit = item.hand, unit.game, unit.rules, item.audit
    if audit is None or game is None or rules is None:
        reason = item.reason or "its game is not in the games table"
        view = _unreplayable(hand, reason, source=source, version=version)
        table = table_view(game, unit.findings) if game else None
        return replace(view, table=table, times=span(clock))
    jokers = audit.replay.jokers
    findings = [*audit.findings, *(f for f in unit.findings if f.hand_id == hand_id)]
    money = money_findings(hand, game, rules, findings, unit.rules_say())
    if game.format == "points" and any(
        (f.check == "score.amount" and (f.player_id is None or WINNER_FOLLOWS in f.message))
        or charges_points(f) for f in audit.findings
    ):
        # Every amount off by one way of settling the value cards is one finding of the hand
        # (recut.settled_words), and amounts that follow wrong points charged are the points'
        # finding (followed.follows_points), a winner's that follows the losers' recorded
        # amounts a loser's (followed.follows_losers): each player's amount by the rules is
        # still said, and that it differs (a blind tester read "agrees" beside the recorded
        # amount).
        money = {f.player_id: f for f in compare_money(audit.replay, game, audit.expected)
                 if f.player_id is not None} | money  # fmt: skip
    settled = settled_by_rules(audit, game, rules)
    skipped = tuple(unit.skipped.values())
    scores_unchecked = Format(game.format).is_pool and "game_events" in unit.skipped
    seen = elsewhere(unit, hand) if not scores_unchecked else Elsewhere()
    # 002_: "One card is turned up at the deal and stays on show": the cut card, which
    # sets the wild rank and which the turns take (``take_cut``).
    open_melds = rules.kind == "open-melds"
    priced = row_priced(hand, game, rules, audit.expected, unit.findings)
    return HandView(
        hand_id=hand.hand_id,
        game_id=game.game_id,
        hand_no=hand.hand_no,
        game=FORMAT_WORDS.get(game.format, game.format)
        + (", still running when the logs were cut" if game.running else ""),
        ruleset=rules.id,
        ruleset_title=rules.title,
        source=source,
        version=version,
        unreplayable="",
        seats=tuple(audit.replay.hand.seats),
        seats_recorded=() if audit.replay.hand.seats == hand.seats else tuple(hand.seats),
        wild=card_view(hand.wild, jokers),
        open=card_view(hand.open, jokers),
        jokers=jokers.describe("cut card" if open_melds else "wild card"),
        joker_cards=joker_views(jokers),
        # A turn is marked by the hand's own findings alone: a game-level finding's seq is
        # a game_events seq (schemas/output.md), not one of the hand's events (a blind
        # tester: B's draw at seq 2 marked [major] for A's rebuy, game event 2).
        turns=turn_views(hand.events, jokers, audit.findings, audit.table,
                         audit.replay.kept, audit.replay.gone),
        players=tuple(
            _priced(_player(i, p, audit, game, rules, findings, money, settled,
                            scores_unchecked, seen.off.get(p, ""), seen.dealt_on.get(p, ""),
                            seen.out.get(p, "")), priced)
            for i, p in enumerate(audit.replay.hand.seats, 1)
        ),
        findings=tuple(_finding(f) for f in findings),
        verdict=hand_verdict(findings, skipped, seen.but),
        worst=worst_name(findings),
        table=table_view(game, unit.findings),
        times=span(clock),
        skipped=skipped,
        but=seen.but,
        wild_name="Cut card (wild)" if open_melds else "Wild card",
    )


def _priced(view: PlayerView, priced: Mapping[str, str]) -> PlayerView:
    """A player's box with what the games row's point value gives beside an amount the
    rules give at the value the game settled at (``terms.row_priced``), never a bare
    "agrees" (a blind tester)."""
    if not view.amount or view.player not in priced:
        return view
    return replace(view, note="; ".join(filter(None, [view.note, priced[view.player]])))


def _unreplayable(hand: Hand, reason: str, *, source: str, version: str) -> HandView:
    unknown = card_view(-1, Jokers.of_rank(None))
    return HandView(
        hand_id=hand.hand_id,
        game_id=hand.game_id,
        hand_no=hand.hand_no,
        game="",
        ruleset="",
        ruleset_title="",
        source=source,
        version=version,
        # The reader's own words open with what the sentence says already.
        unreplayable="This hand could not be replayed: "
        + reason.removeprefix(f"hand {hand.hand_id} cannot be replayed: "),
        seats=(),
        wild=unknown,
        open=unknown,
        jokers="",
        joker_cards=(),
        turns=(),
        players=(),
        findings=(),
        verdict="not replayed",
        worst="",
    )


def _finding(f: Finding) -> FindingView:
    return FindingView(
        severity=f.severity.value,
        check=f.check,
        player=f.player_id or "",
        seq="" if f.seq is None else str(f.seq),
        message=f.message,
        rule=f.rule,
        expected=f.expected or "",
        recorded=f.recorded or "",
        hand=f.hand_id or "",
    )


finding_view = _finding
"""A finding as the views show it."""


# ------------------------------------------------------------ players


def _player(
    seat_no: int,
    player: str,
    audit: HandAudit,
    game: Game,
    rules: Ruleset,
    findings: Sequence[Finding],
    money: dict[str, Finding],
    settled: Settled,
    scores_unchecked: bool = False,
    carried: str = "",
    unjudged: str = "",
    out: str = "",
) -> PlayerView:
    """One seat; ``scores_unchecked``: the pool checks that judge the score after the hand
    were not run (``UnitAudit.skipped``); ``carried``: the recorded score after the hand is
    off the rules' with no finding on it, and why; ``unjudged``: why it is not judged, the
    hand dealt after the rules ended the game; ``out``: that they played it while out by the
    rules (``elsewhere.Elsewhere``)."""
    replay = audit.replay
    jokers = replay.jokers
    # A valid declaration the platform rejected ended the hand by the rules: the others'
    # cards then are what they lose with, and what the record has them do after is moot.
    seat = seat_by_rules(replay, player)
    want = shown_loser(exact_loser(audit.expected.get(player), seat, jokers, rules), seat,
                       jokers, rules)  # fmt: skip
    row = next((r for r in replay.hand.results if r.player == player), None)
    ended = rejected_valid(replay)
    declaration = next((d for d in replay.declarations if d.player == player
                        and (ended is None or d.seq <= ended.seq)), None)  # fmt: skip
    title, groups = _arrangement(seat, want, declaration, jokers, rules)
    deals = game.format == "deals"
    amount = hand_amount(replay.hand, game, row, money.get(player))
    if want is not None and row is not None and want.outcome != row.outcome:
        # The money follows the recorded outcome (schemas/money.md): it is no amount of the
        # rules' outcome, so it is not said beside it.
        amount = ""
    rescored = [f for f in findings if f.check in _SCORE_CHECKS and f.player_id == player]
    differs = _differs(want, row, player in money, bool(rescored))
    # What the rules make the score after the hand, where a finding says the record's is
    # not it (the box said "agrees" beside a match.total finding: a blind tester).
    notes = [f"by the rules the score after the hand is {f.expected} ({f.check})"
             for f in rescored if f.expected is not None]  # fmt: skip
    if unjudged and row is not None and row.score_after is not None:
        # Dealt after the rules ended the game: no score of the rules' to differ from (a
        # blind tester: a hand played while out "differed" for the hand before's reason).
        notes.append(f"the score after the hand is not judged: {unjudged}")
    elif carried and not rescored and row is not None and row.score_after is not None:
        # Off the rules' by an error found elsewhere (a blind tester: each such hand was a
        # pool.score of its own): it differs, and says why it is no finding here.
        differs = (*differs, "score")
        notes.append(f"the score after the hand is {carried}")
    if out:  # a blind tester read "agrees" of a hand played while out, and nothing else
        notes.append(out)
    by_rules = settled.amounts.get(player)
    dealt = deal_chips(replay.hand, game, audit.expected)
    if by_rules is not None:
        # A recorded outcome is wrong: the money findings settle the recorded outcomes
        # (one finding per error; a wrong kind of loss at the rules' points,
        # records.charged_points), the player is told what the rules' outcomes pay.
        amount = str(by_rules)
        if row is not None and row.amount is not None and row.amount != by_rules:
            differs = differs if "amount" in differs else (*differs, "amount")
            if player not in settled.wrong and player not in money:
                notes.append(
                    f"the rules' outcomes pay {by_rules}; the recorded {row.amount} follows "
                    f"the recorded outcome of {settled.whose}"
                )
    elif player in dealt.chips and player not in money and row is not None and amount:
        # Deals: the record's chips follow its own wrong points, the points' finding and no
        # deals.chips (one fault, one finding): the rules' chips are said, and why the
        # record's differ (a blind tester read "chips -40" as the rules' beside 80 points).
        amount = amount_words(dealt.chips[player], deals=True)
        differs = differs if "amount" in differs else (*differs, "amount")
        checks = [f.check for f in findings if f.player_id in dealt.wrong
                  and f.check not in MONEY_CHECKS and f.hand_id == replay.hand.hand_id]
        notes.append(dealt.note(player, row.amount or ZERO, list(dict.fromkeys(checks))))
    elif settled.refused and row is not None and row.amount is not None:
        # The hand's money follows a verdict the rules refuse and is not judged (no
        # score.amount): the recorded amount is taken as it is, not said as the rules'.
        amount = ""
        if player not in settled.wrong:
            notes.append(
                f"the recorded amount {row.amount} follows the recorded outcome of "
                f"{settled.whose}, which the rules refuse, and is taken as recorded ({settled.why})"
            )
    compared = True
    if want is not None and row is not None and want.points is None and not differs:
        # Its points are taken as recorded and its money settled on them: none of the
        # rules' own to compare.
        amount, compared = "", False
        uncounted = (
            "the record ends the hand where the rules play on"
            if plays_on(want)
            else "which cards they held at the end is not known, so the rules cannot count "
            "them"
            if want.why == UNHELD
            else "the cards shown are not the cards held, so the rules cannot count them"
        )
        notes.insert(0, uncounted)
    if scores_unchecked and row is not None and row.score_after is not None:
        notes.append("the score after the hand was not checked (see the findings)")
    word = "chips" if deals else "amount"
    if want and row and want.outcome == row.outcome == "lost" and want.points is not None \
            and row.points != want.points:  # fmt: skip
        # the words and rule of the player's score.points finding: why their aces count 0
        # where a printed joker turned up (a blind tester's agent could not say)
        words, key = charged_words(want, row, seat, replay)
        want = replace(want, why=want.why + words, rule_key=key)
    if not replay.dealt:
        # No one was dealt cards (the shoe's deck.composition): the rules give no outcome
        # and no amount, so nothing of the record is said to differ from them, or to agree
        # (a blind tester read the recorded amount beside "it did not finish").
        amount, differs, compared = "", (), False
        why = "its recorded shoe is too short to deal, so the rules give no outcome and no amount"
    else:
        why = want.why if want else "the hand gives no outcome: it did not finish"
    taken = want is not None and want.points is None and row is not None
    # The groups the player declared or showed are shown as they were submitted, each with
    # its verdict: a blind tester read "not in any group: 3S 3C" of a pair of jokers the
    # winner had declared as a group, and "not in any group: 7H 7D 2S 2D" beside a reason
    # naming them among "5 groups have fewer than 3 cards". Groups of one card share a
    # line; only the server's arrangement of a loser leaves cards outside every group.
    submitted = declaration is not None or seat.shown is not None
    alone = [len(g.cards) == 1 if submitted else on_its_own(g, rules) for g in groups]
    kept = [g for g, out in zip(groups, alone, strict=True) if not out]
    loose = card_views([c for g, out in zip(groups, alone, strict=True) if out for c in g.cards],
                       jokers)  # fmt: skip
    shown = group_views(kept, jokers)
    if declaration is not None and declaration.check.valid and declaration.check.alternative:
        shown, loose = alternative_views(groups, jokers, rules), ()
    return PlayerView(
        player=player,
        seat=seat_no,
        outcome=_outcome_words(want.outcome) if want else "no outcome",
        points=_points_words(want, row),
        amount=amount,
        why=why,
        # the rule that charges them, with the preset's choice where the seeds differ (a
        # player quoting another site's 20-point drop is answered by it: a blind tester)
        rule=rule_view(rules, want.rule_key, choice=True) if want else None,
        recorded=_recorded(row, word),
        agrees=compared and not differs,
        differs=tuple(word if d == "amount" else d for d in differs),
        severity=worst_name(f for f in findings if f.player_id == player),
        dealt=card_views(
            # as the reading dealt them: a card read as dealt to another seat is shown there
            sorted(dealt_cards(replay.hand.shoe, replay.hand.seats, game.cards_per_hand,
                               replay.hand.moved)[player]),
            jokers,
        ),
        declaration=_declaration_words(declaration),
        declaration_reasons=_declaration_reasons(declaration, rules),
        declaration_rules=declaration_rules(
            declaration, jokers, rules, want.rule_key if want else ""
        ),
        groups_title=title,
        groups=shown,
        loose=loose,
        held=() if groups else card_views(sorted(seat.cards), jokers),
        points_detail=points_view(want, jokers, rules) if want else None,
        best=best_view(seat, want, jokers, rules),
        value=value_view(player, audit, game, rules),
        amount_word=word,
        money=money_words(player, audit, game) if amount and by_rules is None else "",
        note="; ".join(notes),
        loose_note=joker_note(loose, rules),
        loose_label=ONE_CARD if submitted else LOOSE,
        points_recorded=taken,
        breach=_breach(player, findings),
    )


_SCORE_CHECKS = ("pool.score", "match.total")
"""Findings that the score after the hand (``results.score_after``) is not the rules'."""


def _breach(player: str, findings: Sequence[Finding]) -> str:
    """The player went out against the rules (``hand.going_out``): the hand ends on it all
    the same (docs/replay.md, "Open melds"), so the record's outcome agrees, but the box
    says so beside it, never a bare "agrees" (a blind tester)."""
    broke = [f for f in findings if f.check == "hand.going_out" and f.player_id == player]
    if not broke:
        return ""
    return (
        f"{player} went out against the rules (hand.going_out, {worst_name(broke)}; see the "
        "findings), which ends the hand all the same"
    )


def _points_words(want: Expected | None, row: Result | None) -> str:
    """The rules' points; the recorded ones where the rules give none (``taken``)."""
    if want is None:
        return ""
    if want.points is None:
        return "" if row is None else str(row.points)
    return str(want.points)


def _declaration_words(declaration: Declaration | None) -> str:
    if declaration is None:
        return ""
    if declaration.check.valid and declaration.check.alternative:
        return f"valid, as {declaration.check.alternative}"
    return "valid" if declaration.check.valid else "invalid"


def _declaration_reasons(declaration: Declaration | None, rules: Ruleset) -> tuple[str, ...]:
    """Why a declaration is invalid; or why it is valid (the melds a dispute over it turns
    on), whether the platform rejected it or accepted it (until 2026-12-06 an accepted one
    printed "P1's declaration is valid:" and nothing after it: a blind tester)."""
    if declaration is None:
        return ()
    if declaration.check.valid:
        return (valid_words(declaration.check, rules),)
    return declaration.check.reasons


def declaration_rules(
    declaration: Declaration | None, jokers: Jokers, rules: Ruleset, cited: str = ""
) -> tuple[RuleView, ...]:
    """The rules a declaration's verdict rests on, each once, but for ``cited`` (the
    outcome's rule, shown already): an invalid one's broken rules (``DeclarationCheck.keys``,
    the first the replay's ``declare.verdict`` cites: "it has no pure sequence" cited only
    the 80 points' rule, 001_: 'Invalid declarations receive an 80-point penalty', never
    001_'s 'Every valid declaration must have at least one pure sequence'); a valid one's
    requirement (the sequences and the pure ones) and ``melds.wild_natural_keeps_pure``,
    with its choice (000_ reads it the other way), where a wild-rank card stands for itself
    in a pure sequence (a blind tester)."""
    if declaration is None:
        return ()
    check = declaration.check
    if not check.valid:
        keys = list(check.keys)
    elif check.alternative:
        keys = ["declaration.alternatives"]
    else:
        keys = [key for key, needed in (
            ("declaration.min_runs", rules.min_runs),
            ("declaration.min_pure_runs", rules.min_pure_runs),
            ("declaration.long_run_length", rules.long_run_length),
        ) if needed]  # fmt: skip
        if any(g.verdict.is_pure_run and any(jokers.is_joker(c) for c in g.cards)
               for g in check.groups):  # fmt: skip
            keys.append("melds.wild_natural_keeps_pure")
        behind = meld_rule_behind(check, jokers, rules)  # the platform's K A 2, say
        if behind is not None:  # the rule its declare.verdict cites (docs/replay.md)
            keys.insert(0, behind[0])
    shown = [rule_view(rules, key, choice=key == "melds.wild_natural_keeps_pure")
             for key in dict.fromkeys(keys) if key != cited]  # fmt: skip
    return tuple(view for view in shown if view is not None)


def _arrangement(
    seat: Seat,
    want: Expected | None,
    declaration: Declaration | None,
    jokers: Jokers,
    rules: Ruleset,
) -> tuple[str, tuple[GroupCheck, ...]]:
    """Which groups were the player's last word, and how they came to be."""
    if declaration is not None:
        judged = f"arranged at best from the cards held ({HELD_NOTE})"  # declared.held_check
        return (judged if declaration.on_cards else "as declared"), declaration.check.groups
    if want is not None and want.score is not None:
        if seat.shown is not None:
            return "as shown", want.score.groups
        return SERVER_ARRANGED, want.score.groups
    if seat.shown is not None:
        title = "as shown" if seat.show_matches else "as shown, not exactly the cards held"
        return title, check_groups(seat.shown, jokers, rules)
    held = {
        Status.DROPPED: "held when they dropped",
        Status.LEFT: "held when they left",
    }
    return held.get(seat.status, "held at the end"), ()


def _outcome_words(outcome: str) -> str:
    return OUTCOME_WORDS.get(outcome, outcome.replace("_", " "))


def _recorded(row: Result | None, word: str = "amount") -> str:
    """The results row in words (``PlayerView.record``); empty when there is none."""
    if row is None:
        return ""
    words = f"{_outcome_words(row.outcome)}, {row.points} points"
    if row.amount is not None:
        words += f", {word} {amount_words(row.amount, deals=word == 'chips')}"
    if row.score_after is not None:
        words += f", score after the hand {row.score_after}"
    return words


def _differs(
    want: Expected | None, row: Result | None, amount_differs: bool, score_differs: bool = False
) -> tuple[str, ...]:
    """What of the record differs from the rules: its outcome, its points, its amount, its
    score after the hand (a ``pool.score`` finding)."""
    if want is None or row is None:
        return () if want is None and row is None else ("outcome",)
    out = []
    if row.outcome != want.outcome:
        out.append("outcome")
    if want.points is not None and row.points != want.points:
        out.append("points")
    if amount_differs:
        out.append("amount")
    if score_differs:
        out.append("score")
    return tuple(out)
