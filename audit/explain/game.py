"""The view model of one explained game: its facts, every hand's result, the running pool
scores or deals chips, the money, and every game-level finding, in words a support agent
can read to a player.

``build_game_view`` puts a game audited by ``audit.unit.audit_unit`` (the nightly run's
door) into a ``GameView``; the renderers (``terminal.py``, ``html.py``) receive it and
nothing else. Its money is ``payouts.py``'s; what differs is what the audit's findings
say, each shown with its rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal

from audit.explain.clock import UNKNOWN, Clock, brief, span
from audit.explain.payouts import (
    ZERO,
    LedgerView,
    amount_words,
    events_after,
    ledger_view,
    signed,
    still_in,
)
from audit.explain.points import RuleView
from audit.explain.verdicts import (
    and_words,
    hands_words,
    money_note,
    pool_by_rules,
    refused_hands,
    scores_note,
)
from audit.explain.view import (
    FORMAT_WORDS,
    NOT_LOOKED_UP_GAME,
    OUTCOME_WORDS,
    FairPlayView,
    FindingView,
    TableView,
    finding_view,
    table_view,
)
from audit.findings import Finding, worst_name
from audit.games.pool import judge_pool
from audit.money import money
from audit.records import POOL_FORMATS, Game, GameEvent, Hand, Result
from audit.rules.ruleset import Ruleset
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

    @property
    def status_words(self) -> str:
        """``verified``; ``2 findings, worst major (score.points, score.amount)``;
        ``quarantined: why``."""
        if self.status == "quarantined":
            return f"quarantined: {self.reason}"
        if not self.findings:
            return "verified"
        many = "s" if self.findings > 1 else ""
        return f"{self.findings} finding{many}, worst {self.worst} ({', '.join(self.checks)})"


@dataclass(frozen=True)
class Cell:
    """One player's score or chips in a row of the table; ``note`` says what the rules
    give instead, or what happened to the player; ``severity`` is its finding's."""

    text: str
    note: str = ""
    severity: str = ""


@dataclass(frozen=True)
class EventLine:
    """A game event in words, flagged with the worst finding on it."""

    text: str
    severity: str = ""


@dataclass(frozen=True)
class ScoreRow:
    """The scores after a hand (pool), or a deal's chips and the running totals (deals),
    and the game events that followed the hand."""

    label: str
    hand_id: str
    cells: tuple[Cell, ...]
    totals: tuple[Cell, ...]
    events: tuple[EventLine, ...]


@dataclass(frozen=True)
class ScoreTable:
    """The running pool scores or deals chips, one column per player."""

    title: str
    how: str
    players: tuple[str, ...]
    rows: tuple[ScoreRow, ...]
    rules: tuple[RuleView, ...]
    notes: tuple[EventLine, ...]


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
                f"{'its' if self.refused.startswith('hand ') else 'their'} recorded outcomes "
                "(see the hands table)."
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
        players=_players(item.hand for item in unit.hands),
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
    scores = None
    if game.format in POOL_FORMATS:
        scores = _pool_table(unit, game, rules)
    elif game.format == "deals":
        scores = _deals_table(unit, game, rules)
    elif game.format == "match":
        scores = _match_table(unit, game, rules)
    result = _result(game, unit.findings, view.players)
    if game.format in POOL_FORMATS and rules is not None:
        hands = [item.hand for item in unit.hands]
        left = still_in(judge_pool(game, hands, rules, expected=unit.rules_say()), game, hands)
        if left:  # the record's winner is not the rules' (a blind tester read "won by A5")
            result = (f"recorded as {result}; by the rules {and_words(left)} are still in "
                      "after the last hand, so the game has no winner yet (see the pool "
                      "findings)")  # fmt: skip
    # Hands whose recorded outcomes the rules refuse are counted as recorded by the game's
    # checks: what follows from them is said to be the record's, and where the rules' own
    # outcomes leave a pool game (the prize "by the rules" went to the record's winner of a
    # game not over by the rules: a blind tester).
    refused = refused_hands(unit)
    standing = pool_by_rules(unit, game, refused)
    if standing is not None and not game.running:
        result += f"; {standing.result} (see the running pool scores)"
    if scores is not None and refused:
        note = EventLine(scores_note(refused, standing))
        scores = replace(scores, notes=(*scores.notes, note))
    ledger = None
    # A match moves no money and has no ledger rows (docs/open-melds.md): nothing to say
    # of a ledger it never has ("the game's money was not checked": a blind tester).
    if game.format != "match" or game.ledger:
        ledger = ledger_view(unit, game, rules, missing, damaged or {})
        if refused and ledger.payouts:
            ledger = replace(ledger, notes=(*ledger.notes, money_note(refused, standing)),
                             counted_as_recorded=hands_words(refused))  # fmt: skip
    return replace(
        view,
        format=FORMAT_WORDS.get(game.format, game.format),
        ruleset=game.ruleset,
        ruleset_title=rules.title if rules else "(this ruleset cannot be used)",
        deals=f"best of {game.deals_count}" if game.deals_count else "",
        table=table_view(game),
        times=span(clock, running=game.running),
        result=result,
        unknown="",
        scores=scores,
        ledger=ledger,
        refused=hands_words(refused) if refused else "",
    )


# ------------------------------------------------------------ facts


def _players(hands: Iterable[Hand]) -> tuple[str, ...]:
    """Every player, in the seat order of the first hand they played."""
    return tuple(dict.fromkeys(p for hand in hands for p in hand.seats))


def _result(game: Game, findings: Sequence[Finding] = (), players: Sequence[str] = ()) -> str:
    """The game's result as recorded; where a finding says the rules' winner is another
    (``match.winner``, ``pool.winner``), the record's is marked as such and the rules'
    named beside it (the header said "won by q2" under a finding that q1 wins: a blind
    tester)."""
    if game.running:
        return "still running when the logs were cut"
    split = next((e for e in game.game_events if e.action == "split"), None)
    if split is not None:
        how = "by agreement" if split.split_kind == "manual" else "automatically"
        return f"the prize was split {how} after hand {split.after_hand_no}"
    won = [e.player or "?" for e in game.game_events if e.action == "game_won"]
    said = f"won by {', '.join(won)}" if won else ""
    for f in findings:
        named = (f.expected or "").split(" or ")
        if f.check in _WINNER_CHECKS and named[0] and all(p in players for p in named):
            recorded = f"recorded as {said}" if said else "no winner recorded"
            return f"{recorded}; by the rules {f.expected} wins ({f.check}, see the findings)"
    if said:
        return said
    if game.format == "points":
        return "points rummy: every hand is settled on its own"
    return "no winner recorded"


_WINNER_CHECKS = ("match.winner", "pool.winner")


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


def _rule(rules: Ruleset | None, key: str) -> RuleView | None:
    if rules is None or key not in rules.rules:
        return None
    rule = rules.rule(key)
    return RuleView(rule.key, rule.text, rule.source)


def _rules(rules: Ruleset | None, keys: Iterable[str]) -> tuple[RuleView, ...]:
    return tuple(r for r in (_rule(rules, k) for k in keys) if r is not None)


# ------------------------------------------------------------ pool and deals tables


def _on(findings: Iterable[Finding], hand_id: str, player: str, *checks: str) -> list[Finding]:
    return [
        f for f in findings if f.hand_id == hand_id and f.player_id == player and f.check in checks
    ]


def _event_line(
    e: GameEvent, game: Game, rules: Ruleset | None, found: Sequence[Finding]
) -> EventLine:
    who = e.player or "the platform"
    pool = rules.pools.get(game.format) if rules is not None else None
    match e.action:
        case "eliminated":
            limit = ""
            if pool is not None:
                at = pool.elimination_score
                limit = (
                    f" ({at} or more is out)" if pool.exactly_eliminates else f" (over {at} is out)"
                )
            text = f"{who} is eliminated with a score of {e.score}{limit}"
        case "rebuy" if game.format not in POOL_FORMATS:
            # no fee: nothing is counted for it (audit.games.ledger.counted_rebuys)
            text = (f"{who} is recorded as buying back in (a rebuy) at a new score of "
                    f"{e.score}, which a {game.format} game does not have")  # fmt: skip
        case "rebuy":
            fee = f" for {game.entry_fee}" if game.entry_fee is not None else ""
            text = f"{who} buys back in{fee} (a rebuy) at a new score of {e.score}"
        case "split_offer":
            text = f"{who} offers to split the prize"
        case "split_accept":
            text = f"{who} accepts the split"
        case "split_reject":
            text = f"{who} rejects the split"
        case "split":
            how = "by agreement (a manual split)" if e.split_kind == "manual" else "automatically"
            text = f"the prize is split {how}"
        case "game_won":
            text = f"{who} wins the game"
        case _:
            text = f"{who}: {e.action.replace('_', ' ')}"
    flagged = [f for f in found if f.seq == e.seq]
    return EventLine(text, worst_name(flagged))


def _orphan_events(
    unit: UnitAudit, game: Game, rules: Ruleset | None, events: dict[int, list[GameEvent]]
) -> tuple[EventLine, ...]:
    """Game events after a hand number the game's hands do not hold."""
    numbers = {item.hand.hand_no for item in unit.hands}
    return tuple(
        EventLine(f"after hand {no}, which is not in the hands table: {line.text}", line.severity)
        for no in sorted(set(events) - numbers)
        for line in (_event_line(e, game, rules, unit.findings) for e in events[no])
    )


def _pool_table(unit: UnitAudit, game: Game, rules: Ruleset | None) -> ScoreTable:
    """Each player's running score after each hand, as recorded (a ``pool.score`` finding
    gives what the rules make it), with the eliminations, rebuys and splits after it."""
    players = _players(item.hand for item in unit.hands)
    events = events_after(game)
    gone: set[str] = set()
    rows = []
    for item in unit.hands:
        hand = item.hand
        after = events.get(hand.hand_no, [])
        out = {e.player for e in after if e.action == "eliminated"}
        back = {e.player: e.score for e in after if e.action == "rebuy"}
        results = {r.player: r for r in hand.results}
        cells = []
        for player in players:
            r = results.get(player)
            if r is None:
                cells.append(Cell("out" if player in gone else ""))
                continue
            wrong = _on(unit.findings, hand.hand_id, player, "pool.score", "pool.elimination")
            text = "?" if r.score_after is None else str(r.score_after)
            notes = [f"should be {f.expected}" for f in wrong if f.check == "pool.score"]
            if player in out:
                text += " out"
            if player in back:
                notes.append(f"rebuys at {back[player]}")
            cells.append(Cell(text, "; ".join(notes), worst_name(wrong)))
        gone |= {p for p in out if p is not None and p not in back}
        gone -= set(back)
        rows.append(
            ScoreRow(
                label=f"after hand {hand.hand_no}",
                hand_id=hand.hand_id,
                cells=tuple(cells),
                totals=(),
                events=tuple(_event_line(e, game, rules, unit.findings) for e in after),
            )
        )
    keys = [f"{game.format}.running_score", f"{game.format}.elimination_score"]
    actions = {e.action for e in game.game_events}
    if "rebuy" in actions:
        keys += [f"{game.format}.rebuy_below", f"{game.format}.rebuy_min_players"]
    if "split" in actions or "split_offer" in actions:
        keys += [f"{game.format}.{key}" for key in ("auto_split_above", "manual_split_min_score",
                 "split_drop_difference", "manual_split_shares")]  # fmt: skip
    return ScoreTable(
        title="Running pool scores",
        how="each player's score after each hand, as recorded; then what happened between "
        "hands (eliminations, rebuys, splits)",
        players=players,
        rows=tuple(rows),
        rules=_rules(rules, keys),
        notes=_orphan_events(unit, game, rules, events),
    )


def _cells(
    unit: UnitAudit,
    hand: Hand,
    players: Sequence[str],
    check: str,
    cell: Callable[[Result, list[Finding]], Cell],
) -> tuple[Cell, ...]:
    """A hand's row of a match's or a deals game's table: each player's ``cell`` of their
    results row and the game's ``check`` findings on it; empty where they have no row."""
    results = {r.player: r for r in hand.results}
    return tuple(
        Cell("") if player not in results
        else cell(results[player], _on(unit.findings, hand.hand_id, player, check))
        for player in players
    )


def _match_table(unit: UnitAudit, game: Game, rules: Ruleset | None) -> ScoreTable:
    """Each player's match total after each hand, as recorded (a ``match.total`` finding
    gives what the rules make it: a blind tester found no totals for a match where a pool
    game has its running scores)."""
    players = _players(item.hand for item in unit.hands)

    def total(r: Result, wrong: list[Finding]) -> Cell:
        notes = [f"should be {f.expected}" for f in wrong if f.expected is not None]
        text = "?" if r.score_after is None else str(r.score_after)
        return Cell(text, "; ".join(notes), worst_name(wrong))

    rows = [
        ScoreRow(
            label=f"after hand {item.hand.hand_no}",
            hand_id=item.hand.hand_id,
            cells=_cells(unit, item.hand, players, "match.total", total),
            totals=(),
            events=(),
        )
        for item in unit.hands
    ]
    return ScoreTable(
        title="Running match totals",
        how="each player's total after each hand, as recorded; the match ends when a total "
        "reaches the target, and the lowest total wins",
        players=players,
        rows=tuple(rows),
        rules=_rules(rules, ["match.running_total", "match.target", "match.winner"]),
        notes=(),
    )


def _deals_table(unit: UnitAudit, game: Game, rules: Ruleset | None) -> ScoreTable:
    """The chips each deal moved, as recorded (a ``deals.chips`` finding gives what the
    rules make them), and the running totals by the rules' chips."""
    players = _players(item.hand for item in unit.hands)
    events = events_after(game)
    totals: dict[str, Decimal] = {}
    rows = []

    def chips(r: Result, wrong: list[Finding]) -> Cell:
        want = next((f.expected for f in wrong if f.expected is not None), None)
        counted = money(Decimal(want)) if want is not None else (r.amount or ZERO)
        totals[r.player] = totals.get(r.player, ZERO) + counted
        text = "?" if r.amount is None else signed(r.amount, whole=True)
        note = f"should be {signed(counted, whole=True)}" if want is not None else ""
        return Cell(text, note, worst_name(wrong))

    for number, item in enumerate(unit.hands, start=1):
        hand = item.hand
        cells = _cells(unit, hand, players, "deals.chips", chips)
        rows.append(
            ScoreRow(
                label=f"deal {number}",
                hand_id=hand.hand_id,
                cells=tuple(cells),
                totals=tuple(
                    Cell(signed(totals[p], whole=True) if p in totals else "") for p in players
                ),
                events=tuple(
                    _event_line(e, game, rules, unit.findings) for e in events.get(hand.hand_no, [])
                ),
            )
        )
    return ScoreTable(
        title="Chips, deal by deal",
        how="the chips each deal moved, as recorded, and each player's running total by the "
        "rules' chips (the winner of a deal takes what the losers lose); the most chips wins",
        players=players,
        rows=tuple(rows),
        rules=_rules(rules, ["deals.chips", "deals.tie"]),
        notes=_orphan_events(unit, game, rules, events),
    )
