"""The view model of one explained game: its facts, every hand's result, the running pool
scores or deals chips, the money, and every game-level finding, in words a support agent
can read to a player.

``build_game_view`` puts a game audited by ``audit.unit.audit_unit`` (the nightly run's
door) into a ``GameView``; the renderers (``terminal.py``, ``html.py``) receive it and
nothing else. Its money is ``payouts.py``'s; what differs is what the audit's findings
say, each shown with its rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from audit.explain.clock import UNKNOWN, Clock, brief, span
from audit.explain.handmoney import amount_words
from audit.explain.ledgerview import LedgerView
from audit.explain.payouts import ledger_view, owed_split, split_by_rules
from audit.explain.standing import played_out, still_in
from audit.explain.tables import (
    EventLine,
    ScoreTable,
    deals_table,
    match_table,
    players_of,
    pool_table,
)
from audit.explain.terms import TableView, table_view
from audit.explain.verdicts import (
    RulesWinner,
    hands_words,
    money_note,
    pool_by_rules,
    refused_hands,
    refused_what,
    rules_winner,
    scores_note,
    told_winner,
)
from audit.explain.view import (
    FORMAT_WORDS,
    NOT_LOOKED_UP_GAME,
    OUTCOME_WORDS,
    FairPlayView,
    FindingView,
    finding_view,
)
from audit.findings import Finding, worst_name
from audit.games.pool import judge_pool
from audit.games.poolstate import PoolJudgement
from audit.records import POOL_FORMATS, Game, Hand, and_words, named_winners
from audit.unit import HandAudited, UnitAudit


@dataclass(frozen=True)
class SeatResult:
    """One seat's recorded result in a hand; ``severity`` is the worst finding naming the
    player in the hand (the hand's own or the game's)."""

    player: str
    outcome: str
    points: str
    amount: str
    score_after: str
    severity: str
    amount_word: str = "amount"
    """What ``amount`` is: ``amount`` (money) or ``chips`` (deals, whole chips)."""

    @property
    def text(self) -> str:
        """``lost, 65 points, amount -65.00``; ``lost, 65 points, chips -65``; ``no result
        recorded``."""
        if not self.outcome:
            return "no result recorded"
        words = f"{self.outcome}, {self.points} points"
        if self.amount:
            words += f", {self.amount_word} {self.amount}"
        if self.score_after:
            words += f", score {self.score_after}"
        return words


@dataclass(frozen=True)
class GameHandView:
    """One hand of the game: its status and why, its findings, each seat's record."""

    hand_id: str
    hand_no: int
    status: str
    """``verified``, ``discrepancy`` or ``quarantined``."""
    reason: str
    """Why a quarantined hand could not be replayed."""
    times: str
    """When it was dealt (the date only when not the game's first day) and how long it
    took."""
    findings: int
    worst: str
    checks: tuple[str, ...]
    results: tuple[SeatResult, ...]
    while_out: str = ""
    """Who played the hand while out by the rules (``standing.played_out``: ``A played it
    while out by the rules (out after hand 4)``); a blind tester read "verified" of a hand
    played by a player kept in at exactly 201."""

    @property
    def status_words(self) -> str:
        """``verified``; ``2 findings, worst major (score.points, score.amount)``;
        ``quarantined: why``."""
        if self.status == "quarantined":
            return f"quarantined: {self.reason}"
        but = f"; {self.while_out}" if self.while_out else ""
        if not self.findings:
            return f"no findings of its own{but}" if but else "verified"
        many = "s" if self.findings > 1 else ""
        return f"{self.findings} finding{many}, worst {self.worst} ({', '.join(self.checks)})" + but


@dataclass(frozen=True)
class GameView:
    """Everything the explanation of one game says. ``unknown`` holds why the game's own
    facts are missing (no usable games row); its hands are then listed as quarantined."""

    game_id: str
    format: str
    ruleset: str
    ruleset_title: str
    deals: str
    table: TableView | None
    times: str
    players: tuple[str, ...]
    result: str
    unknown: str
    hands: tuple[GameHandView, ...]
    scores: ScoreTable | None
    ledger: LedgerView | None
    findings: tuple[FindingView, ...]
    verdict: str
    worst: str
    source: str
    version: str
    fairplay: FairPlayView = NOT_LOOKED_UP_GAME
    skipped: tuple[str, ...] = ()
    """The checks of the game that were not run (``UnitAudit.skipped``), in the words of
    the night's ``check.skipped``: no findings then is not "agrees"."""
    refused: str = ""
    """The hands whose recorded outcomes the rules refuse, which the game's checks count as
    recorded (``verdicts.refused_hands``: ``hand 1``): no findings then is not "agrees"."""
    refused_what: str = "outcomes"
    """What of those hands the rules refuse (``verdicts.refused_what``): in a match, whose
    totals add up the recorded points, ``points``."""

    @property
    def title(self) -> str:
        return f"Game {self.game_id}"

    @property
    def none_found(self) -> str:
        """What the game-level findings say when there is none: that the record agrees,
        unless some checks were not run."""
        if self.skipped:
            return "none found, but not every check of this game was run:"
        if self.refused:
            return (
                f"none found with {self.refused} counted as recorded, but the rules refuse "
                f"{'its' if self.refused.startswith('hand ') else 'their'} recorded "
                f"{self.refused_what} (see the hands table)."
            )
        return "none: the game's record agrees with the rules."

    @property
    def hands_note(self) -> str:
        """``2 hands with findings of their own (...)``; empty when none has any."""
        n = sum(1 for h in self.hands if h.findings)
        if not n:
            return ""
        hands = "1 hand with findings of its own" if n == 1 else (
            f"{n} hands with findings of their own")  # fmt: skip
        return (
            f"{hands} (see the hands table); `rummy-audit explain HAND_ID LOGS` explains "
            f"{'it' if n == 1 else 'each'}, turn by turn."
        )

    @property
    def headline(self) -> str:
        """``Game G1: 101 pool rummy, rules standard-13, 9 hands``."""
        n = len(self.hands)
        hands = f"{n} hand{'s' if n != 1 else ''}"
        if self.unknown:
            return f"Game {self.game_id}: {hands}"
        return f"Game {self.game_id}: {self.format}, rules {self.ruleset}, {hands}"


def build_game_view(
    unit: UnitAudit,
    *,
    source: str,
    version: str,
    clock: Clock = UNKNOWN,
    hand_clocks: Mapping[str, Clock] | None = None,
    missing: frozenset[str] = frozenset(),
    damaged: Mapping[str, Sequence[str]] | None = None,
) -> GameView:
    """Put an audited game into words: ``clock`` is when the game ran and ``hand_clocks``
    when each hand did (``find.game_facts``); ``missing`` and ``damaged`` are the log
    root's, as the audit was given them, to say why money was not checked."""
    game, rules = unit.game, unit.rules
    clocks = hand_clocks or {}
    every = [f for item in unit.hands if item.audit for f in item.audit.findings]
    deals = game is not None and game.format == "deals"
    view = GameView(
        game_id=unit.game_id,
        format="",
        ruleset="",
        ruleset_title="",
        deals="",
        table=None,
        times="not recorded",
        players=players_of(item.hand for item in unit.hands),
        result="",
        unknown=f"Game {unit.game_id} has no usable row in the games table, so its hands "
        "cannot be replayed and its game-level checks were not run",
        hands=tuple(
            _hand(
                item,
                unit.findings,
                clocks.get(item.hand.hand_id, UNKNOWN),
                clock.started,
                deals=deals,
            )
            for item in unit.hands
        ),
        scores=None,
        ledger=None,
        findings=tuple(finding_view(f) for f in unit.findings),
        verdict=_verdict(unit),
        worst=worst_name([*every, *unit.findings]),
        source=source,
        version=version,
        skipped=tuple(unit.skipped.values()),
    )
    if game is None:
        return view
    left: tuple[str, ...] = ()
    judged = None
    due = None
    split = None
    if game.format in POOL_FORMATS and rules is not None:
        hands = [item.hand for item in unit.hands]
        judged = judge_pool(game, hands, rules, expected=unit.rules_say())
        # the record's winner is not the rules'
        pool = rules.pools.get(game.format)
        left = still_in(judged, game, hands, unit.findings,
                        pool.is_eliminated if pool is not None else None)  # fmt: skip
        due = owed_split(judged, game, hands, unit.findings, rules)
        split = split_by_rules(unit, judged, hands, game, rules)
    # The rules' winner where a finding refuses the recorded one: the header, the game_won
    # line and the prize say so (a blind tester read "won by A" and "A's prize ... agrees"
    # over a deals.chips finding that B has the most chips). Where the rules owed an
    # automatic split, the game ended there with no single winner (a blind tester read "the
    # game has no winner yet" beside the pool.split finding).
    against = due.against if due is not None else rules_winner(game, unit.findings,
                                                               view.players, left)  # fmt: skip
    if against is None and judged is not None and judged.told:  # a last hand's verdict
        against = told_winner(unit, judged)
    scores = None
    if game.format in POOL_FORMATS:
        scores = pool_table(unit, game, rules, against, judged)
    elif game.format == "deals":
        scores = deals_table(unit, game, rules, against)
    elif game.format == "match":
        scores = match_table(unit, game, rules)
    if judged is not None:  # a hand played while out by the rules (a blind tester: at 201)
        view = replace(view, hands=tuple(_while_out(h, item.hand, judged, unit)
                                         for h, item in zip(view.hands, unit.hands, strict=True)))
    result = split.result if split is not None and split.refused else _result(game, against)
    # Hands whose recorded outcomes the rules refuse are counted as recorded by the game's
    # checks: what follows from them is said to be the record's, and where the rules' own
    # outcomes leave a pool game (the prize "by the rules" went to the record's winner of a
    # game not over by the rules: a blind tester).
    refused = refused_hands(unit)
    standing = pool_by_rules(unit, game, refused)
    if standing is not None and not game.running:
        result += f"; {standing.result} (see the running pool scores)"
    if scores is not None and refused:
        noun = {"match": "totals", "deals": "chips"}.get(game.format, "scores")
        note = EventLine(scores_note(refused, standing, noun))
        scores = replace(scores, notes=(*scores.notes, note))
    ledger = None
    # A match moves no money and has no ledger rows (docs/open-melds.md): nothing to say
    # of a ledger it never has ("the game's money was not checked": a blind tester).
    if game.format != "match" or game.ledger:
        ledger = ledger_view(unit, game, rules, missing, damaged or {}, against)
        if refused and ledger.payouts:
            ledger = replace(ledger, notes=(*ledger.notes, money_note(refused, standing)),
                             counted_as_recorded=and_words([hands_words(refused),
                             *filter(None, [ledger.counted_as_recorded])]))  # fmt: skip
    return replace(
        view,
        format=FORMAT_WORDS.get(game.format, game.format),
        ruleset=game.ruleset,
        ruleset_title=rules.title if rules else "(this ruleset cannot be used)",
        deals=f"best of {game.deals_count}" if game.deals_count else "",
        table=table_view(game, unit.findings),
        times=span(clock, running=game.running),
        result=result,
        unknown="",
        scores=scores,
        ledger=ledger,
        refused=hands_words(refused) if refused else "",
        refused_what=refused_what(refused),
    )


# ------------------------------------------------------------ facts


def _while_out(
    row: GameHandView, hand: Hand, judged: PoolJudgement, unit: UnitAudit
) -> GameHandView:
    """``row`` with who played its hand while out by the rules (``standing.played_out``),
    and after which hand the rules put them out."""
    out = played_out(judged, [item.hand for item in unit.hands], hand)
    if not out:
        return row
    words = "; ".join(f"{p} played it while out by the rules (out after hand {n})"
                      for p, n in out.items())  # fmt: skip
    return replace(row, while_out=words)


def _result(game: Game, against: RulesWinner | None = None) -> str:
    """The game's result as recorded; where a finding refuses the recorded winner
    (``verdicts.rules_winner``), the record's is marked as such and the rules' named beside
    it, or that the rules give none yet (the header said "won by q2" under a finding that
    q1 wins: a blind tester)."""
    if game.running:
        return "still running when the logs were cut"
    split = next((e for e in game.game_events if e.action == "split"), None)
    if split is not None:
        how = "by agreement" if split.split_kind == "manual" else "automatically"
        return f"the prize was split {how} after hand {split.after_hand_no}"
    won = [p or "?" for p in named_winners(game)]  # a row written twice names one winner
    said = f"won by {', '.join(won)}" if won else ""
    if against is not None:
        recorded = f"recorded as {said}" if said else "no winner recorded"
        return f"{recorded}; {against.words} ({against.see()})"
    if said:
        return said
    if game.format == "points":
        return "points rummy: every hand is settled on its own"
    return "no winner recorded"


def _verdict(unit: UnitAudit) -> str:
    rows = [item.row for item in unit.hands]
    count = {s: sum(1 for r in rows if r.status == s) for s in ("verified", "discrepancy")}
    quarantined = len(rows) - count["verified"] - count["discrepancy"]
    n = len(unit.findings)
    return (
        f"{len(rows)} hand{'s' if len(rows) != 1 else ''}: {count['verified']} verified, "
        f"{count['discrepancy']} with discrepancies, {quarantined} quarantined; "
        f"{n} game-level finding{'s' if n != 1 else ''}"
        + (f", worst {worst_name(unit.findings)}" if unit.findings else "")
        + ("; some checks were not run (see the game-level findings)" if unit.skipped else "")
    )


def _hand(
    item: HandAudited,
    game_findings: Sequence[Finding],
    clock: Clock,
    day: datetime | None,
    *,
    deals: bool = False,
) -> GameHandView:
    """One hand's row of the hands table; ``deals``: its amounts are chips, whole."""
    hand, row = item.hand, item.row
    mine = [*(item.audit.findings if item.audit else ()),
            *(f for f in game_findings if f.hand_id == hand.hand_id)]  # fmt: skip
    by_player = {r.player: r for r in hand.results}
    order = [*hand.seats, *(p for p in by_player if p not in hand.seats)]
    results = []
    for player in order:
        r = by_player.get(player)
        flag = worst_name(f for f in mine if f.player_id == player)
        if r is None:
            results.append(SeatResult(player, "", "", "", "", flag))
            continue
        results.append(
            SeatResult(
                player=player,
                outcome=OUTCOME_WORDS.get(r.outcome, r.outcome.replace("_", " ")),
                points=str(r.points),
                amount=amount_words(r.amount, deals=deals),
                score_after="" if r.score_after is None else str(r.score_after),
                severity=flag,
                amount_word="chips" if deals else "amount",
            )
        )
    return GameHandView(
        hand_id=hand.hand_id,
        hand_no=hand.hand_no,
        status=row.status,
        reason=item.reason or "",
        times=brief(clock, day=day),
        findings=row.findings,
        worst=row.worst_severity or "",
        checks=tuple(dict.fromkeys(f.check for f in mine)),
        results=tuple(results),
    )
