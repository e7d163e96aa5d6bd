"""The tables of an explained game: the running pool scores with the eliminations,
rebuys and splits between hands, a deals game's chips deal by deal, a match's running
totals; each cell as recorded, with what the rules make it where a finding says the record
is not it (in a deals game also where the record's chips follow a deal's wrong points,
whose running totals are the rules', the recorded ones beside them), and each game event
in words, said as recorded where the rules refuse it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial

from audit.explain.handmoney import ZERO, deal_chips
from audit.explain.ledgerview import signed
from audit.explain.payouts import events_after, repeats
from audit.explain.points import RuleView, rule_view
from audit.explain.standing import played_out
from audit.explain.verdicts import RulesWinner
from audit.findings import Finding, worst_name
from audit.games.deals import deal_by_rules, rules_winner, took_given
from audit.games.leaving import gone_for_good, left_at
from audit.games.poolstate import PoolJudgement
from audit.games.poolwords import out_rule, read_new_scores, under
from audit.games.split import NO_MANUAL
from audit.records import POOL_FORMATS, Game, GameEvent, Hand, Result, RulesSay, and_words
from audit.rules.ruleset import Ruleset
from audit.unit import UnitAudit


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


def players_of(hands: Iterable[Hand]) -> tuple[str, ...]:
    """Every player, in the seat order of the first hand they played."""
    return tuple(dict.fromkeys(p for hand in hands for p in hand.seats))


@dataclass(frozen=True)
class _Said:
    """What a game's events are said against: its findings, the rules' pool table
    (``judged``) and the rules' word on its winner (``against``); ``told``, by hand number,
    the ``declare.verdict`` of a hand whose refused verdict says the eliminations and winner
    that follow (``PoolJudgement.told``)."""

    game: Game
    rules: Ruleset | None
    findings: Sequence[Finding]
    against: RulesWinner | None = None
    judged: PoolJudgement | None = None
    told: Mapping[int, Finding] = field(default_factory=dict)


REFUSING = ("pool.rebuy", "pool.elimination")
"""The checks whose finding on a game event refuses it, or what it records."""


def _event_line(e: GameEvent, said: _Said, left: Iterable[str] = ()) -> EventLine:
    """A game event in words; ``left`` are the players who left the game in the hand it
    follows (``_leaving``), whose ``eliminated`` row records their leaving."""
    game, rules = said.game, said.rules
    who = e.player or "the platform"
    pool = rules.pools.get(game.format) if rules is not None else None
    flagged = [f for f in said.findings if f.seq == e.seq]
    refused = next((f for f in flagged if f.check in REFUSING), None)
    fee = f" for {game.entry_fee}" if game.entry_fee is not None else ""
    swap = _swap(said.findings, game, e) if e.action == "rebuy" else None
    limit = ""
    if pool is not None:
        at = pool.elimination_score
        limit = f" ({at} or more is out)" if pool.exactly_eliminates else f" (over {at} is out)"
    match e.action:
        case "eliminated" if repeats(refused, "eliminated"):
            text = (f"{who}'s elimination is written again (game event {e.seq}): a repeat of "
                    "the one above, and void: a player is eliminated once")  # fmt: skip
        case "eliminated" if refused is not None:
            text = _elimination_refused(e, refused, said)
        case "eliminated" if (kept := _kept_in(e, said)) is not None:
            return kept
        case "eliminated" if who in left and not (
            pool is not None and e.score is not None and pool.is_eliminated(e.score)
        ):
            # out by leaving, not by the score (docs/replay.md): the row records it at
            # the score they had (a blind tester read "left ... and is out of it", then
            # "eliminated with a score of 36 (101 or more is out)")
            text = (f"{who} is recorded as eliminated at their score of {e.score}: they are "
                    f"out because they left the game, not by their score{limit}")  # fmt: skip
        case "eliminated":
            text = f"{who} is eliminated with a score of {e.score}{limit}"
        case "rebuy" if game.format not in POOL_FORMATS:
            # no fee: nothing is counted for it (audit.games.prize.counted_rebuys)
            text = (f"{who} is recorded as buying back in (a rebuy) at a new score of "
                    f"{e.score}, which a {game.format} game does not have")  # fmt: skip
        case "rebuy" if repeats(refused, "rebuy"):
            # the first row is the rebuy, allowed or not; this one buys nothing
            text = (f"{who}'s rebuy is written again (game event {e.seq}): a repeat of the "
                    f"rebuy above, and void: {who} bought back in once, for one entry "
                    "fee")  # fmt: skip
        case "rebuy" if swap is not None:
            text = (f"{who} buys back in{fee} (a rebuy), recorded at a new score of {e.score}; "
                    f"by the rules the new score is {swap[1]}: the record gives the rebuys "
                    f"after hand {e.after_hand_no} their new scores in the wrong "
                    "order")  # fmt: skip
            return EventLine(text, worst_name([*flagged, swap[0]]))
        case "rebuy" if refused is not None and _number(refused.expected):
            text = (f"{who} buys back in{fee} (a rebuy), recorded at a new score of {e.score}; "
                    f"by the rules the new score is {refused.expected}")  # fmt: skip
        case "rebuy" if refused is not None:
            text = (f"{who} is recorded as buying back in{fee} (a rebuy) at a new score of "
                    f"{e.score}; {_rebuy_refused(who, refused)}")  # fmt: skip
        case "rebuy":
            text = f"{who} buys back in{fee} (a rebuy) at a new score of {e.score}"
        case "split_offer":
            text = f"{who} offers to split the prize"
        case "split_accept":
            text = f"{who} accepts the split"
        case "split_reject":
            text = f"{who} rejects the split"
        case "split" if any((f.expected or "").startswith(NO_MANUAL) for f in flagged):
            # a split by agreement against its criteria: the record's, not the rules'
            need = next((f.expected or "") for f in flagged
                        if (f.expected or "").startswith(NO_MANUAL))  # fmt: skip
            text = (f"the prize is recorded as split by agreement (a manual split); by the "
                    f"rules a manual split needs {need.removeprefix(NO_MANUAL)}: the game "
                    "goes on")  # fmt: skip
        case "split":
            how = "by agreement (a manual split)" if e.split_kind == "manual" else "automatically"
            text = f"the prize is split {how}"
        case "game_won" if any(f.expected == "one game_won event" for f in flagged):
            # the winner's row written again (records.won_again): the finding's own row
            text = f"{who} is recorded as winning the game again: a game is won once"
        case "game_won" if said.against is not None:
            # the rules' winner is another, or none yet: the row is the record's
            text = f"{who} is recorded as winning the game; {said.against.words}"
            return EventLine(text, worst_name([*flagged, *said.against.findings]))
        case "game_won":
            text = f"{who} wins the game"
        case _:
            text = f"{who}: {e.action.replace('_', ' ')}"
    return EventLine(text, worst_name(flagged))


def _number(value: str | None) -> bool:
    return value is not None and value.lstrip("-").isdigit()


def _swap(findings: Iterable[Finding], game: Game, e: GameEvent) -> tuple[Finding, int] | None:
    """The one ``pool.rebuy`` finding of the rebuys after ``e``'s hand whose new scores the
    record gives in another order (``audit.games.poolwords.swapped_rebuys``), where it
    names ``e``'s player, and the rules' new score of ``e``'s rebuy: the finding is on the
    first of them by turn order, and said beside each (its ``expected`` is no one number,
    and not a rebuy the rules refuse)."""
    after = {x.seq: x.after_hand_no for x in game.game_events}
    for f in findings:
        scores = read_new_scores(f.expected) if f.check == "pool.rebuy" else {}
        if e.player in scores and f.seq is not None and after.get(f.seq) == e.after_hand_no:
            return f, scores[e.player or ""]
    return None


def _rebuy_refused(who: str, f: Finding) -> str:
    """What the rules say of ``who``'s rebuy they do not allow (its ``pool.rebuy``
    finding's ``expected``): the record is followed, and the finding is what is wrong."""
    if f.expected == "no rebuy":
        return f"by the rules {who} was not eliminated, so there is no rebuy to make"
    need, recorded = f.expected or "", f.recorded or ""
    if recorded.startswith("highest score still in "):
        need, was = f"the {need}", f"it was {recorded.removeprefix('highest score still in ')}"
    else:
        was = f"there were {recorded}" if recorded else "it was not met"
    return f"by the rules a rebuy needs {need} ({was}): it is not allowed"


def _elimination_refused(e: GameEvent, f: Finding, said: _Said) -> str:
    """An elimination row the rules refuse (a score below the threshold, a player who did
    not play the hand) or record otherwise (the score), said as the record's with the
    rules' word beside it (a blind tester read "X is eliminated with a score of 100 (101
    or more is out)")."""
    who = e.player or "the platform"
    if _number(f.expected):
        return (f"{who} is eliminated, recorded with a score of {e.score}; by the rules the "
                f"score is {f.expected}")  # fmt: skip
    recorded = f"{who} is recorded as eliminated with a score of {e.score}"
    pool = said.rules.pools.get(said.game.format) if said.rules is not None else None
    standing = said.judged.standings.get(e.after_hand_no) if said.judged is not None else None
    score = standing.scores.get(who) if standing is not None else None
    if f.recorded == "eliminated" and pool is not None and score is not None:
        return (f"{recorded}; by the rules {who}'s score is {score}, {under(pool)}: {who} is "
                "still in")
    return f"{recorded}, which the rules refuse ({f.check}, see the findings)"


def _kept_in(e: GameEvent, said: _Said) -> EventLine | None:
    """An elimination the record writes where, by the rules, the hand it follows ended
    otherwise because of its refused verdict (``PoolJudgement.told``: its ``declare.verdict``
    says the eliminations and winner that follow, and no ``pool.elimination`` is written):
    the record's row with the rules' word beside it, flagged with that finding (a blind
    tester's table said "B is eliminated with a score of 160" of a player the rules keep
    in at 80). None for any other elimination."""
    told = said.told.get(e.after_hand_no) if e.after_hand_no is not None else None
    standing = said.judged.standings.get(e.after_hand_no) if said.judged is not None else None
    pool = said.rules.pools.get(said.game.format) if said.rules is not None else None
    if told is None or standing is None or pool is None or e.player not in standing.active:
        return None
    who = e.player
    return EventLine(f"{who} is recorded as eliminated with a score of {e.score}; by the rules "
                     f"{who}'s score is {standing.scores.get(who)}, {under(pool)}: {who} is "
                     "still in (the hand's declare.verdict, see the findings)",
                     told.severity)  # fmt: skip


def _told(unit: UnitAudit, judged: PoolJudgement | None) -> dict[int, Finding]:
    """By hand number, the ``declare.verdict`` of each hand whose words say what its
    refused verdict makes of the game (``PoolJudgement.told``)."""
    if judged is None or not judged.told:
        return {}
    return {item.hand.hand_no: f for item in unit.hands if item.hand.hand_id in judged.told
            and item.audit is not None for f in item.audit.findings
            if f.check == "declare.verdict"}  # fmt: skip


def _out_by_the_rules(hand_no: int, said: _Said, out: set[str | None]) -> tuple[EventLine, ...]:
    """The players a hand's refused verdict puts out by the rules (``_told``) that the record
    does not eliminate after it, each in a line flagged with that finding."""
    told = said.told.get(hand_no)
    standing = said.judged.standings.get(hand_no) if said.judged is not None else None
    pool = said.rules.pools.get(said.game.format) if said.rules is not None else None
    if told is None or standing is None or pool is None:
        return ()
    return tuple(
        EventLine(f"by the rules {who} is out, with a score of {score}: the record does not "
                  "eliminate them (the hand's declare.verdict, see the findings)",
                  told.severity)
        for who, score in sorted(standing.scores.items())
        if who not in standing.active and who not in out and pool.is_eliminated(score)
    )


def _leaving(unit: UnitAudit, game: Game) -> dict[int, dict[str, int]]:
    """Who is out of the game by leaving after each hand (``audit.games.leaving``), each
    with the hand they left in; not in a running game's last hand so far, after which a
    leaver may yet be dealt in again."""
    hands = [item.hand for item in unit.hands]
    since = left_at(hands)
    gone = {no: {p: since[p] for p in players} for no, players in gone_for_good(hands).items()}
    if game.running and hands:
        gone.pop(hands[-1].hand_no, None)
    return gone


LEAVING = RuleView(
    "leaving",
    "A player with a drop of reason 'left' in a hand who is dealt into no later hand of the "
    "game has left it: they are out after that hand whatever their score, with no prize, no "
    "split share and no rebuy (a forfeit), and the other players play on. A platform may "
    "instead deal them in and drop them at once (reason 'left') each hand until their score "
    "puts them out; one dealt into a later hand and not dropped there is a finding, and out "
    "after the last hand the record deals them into.",
    "the seeds say nothing of a player leaving a pool or deals game; this is the audit's "
    "reading of the contract's 'left' drop reason: schemas/README.md, docs/replay.md",
)
"""What the audit makes of a player who left a game: no seed rule, so said as the audit's
reading of the contract (a blind tester's agent found no rule cited for the forfeit)."""


def _left_line(
    players: Mapping[str, int], at: int, hand: str = "hand"
) -> tuple[EventLine, ...]:
    """The players out of the game by leaving after hand ``at`` (``audit.games.leaving``),
    each with the hand they left in, in words: they are out of it by leaving."""
    now = sorted(p for p, since in players.items() if since == at)
    lines = []
    if now:
        are = "is" if len(now) == 1 else "are"
        lines.append(EventLine(f"{and_words(now)} left the game in this {hand} (a drop with "
                               f"reason left) and {are} out of it, whatever the score (see "
                               "leaving, below)"))  # fmt: skip
    for player in sorted(p for p in players if p not in now):
        lines.append(EventLine(f"{player} left the game in {hand} {players[player]} (a drop "
                               f"with reason left) and is out of it after this {hand}, the "
                               "last the record deals them into (see leaving, below)"))
    return tuple(lines)


def _orphan_events(
    unit: UnitAudit, said: _Said, events: dict[int, list[GameEvent]]
) -> tuple[EventLine, ...]:
    """Game events after a hand number the game's hands do not hold."""
    numbers = {item.hand.hand_no for item in unit.hands}
    return tuple(
        EventLine(f"after hand {no}, which is not in the hands table: {line.text}", line.severity)
        for no in sorted(set(events) - numbers)
        for line in (_event_line(e, said) for e in events[no])
    )


WHILE_OUT = "out by the rules: a hand played while out"
"""A running score's note where the player played the hand while out by the rules."""


def _pool_cell(
    text: str, wrong: Sequence[Finding], back: GameEvent | None, off: str = "",
    swap: tuple[Finding, int] | None = None,
) -> Cell:
    """A player's running score after a hand, as recorded: what the rules make the score
    (``off``: a score off the rules' that is no finding of its own, with why, as
    ``Standing.off`` says it), an elimination they refuse (or one they make and the record
    does not), and a rebuy with what the rules say of it (a blind tester read "(rebuys at
    40)" beside a pool.rebuy finding that it should be 46); ``swap``: the finding of the
    rebuys after the hand given their new scores in another order, and the rules' new score
    of ``back`` (``_swap``)."""
    notes = [f"should be {f.expected}" for f in wrong if f.check == "pool.score"]
    if off and not notes:
        notes.append(off)
    for f in wrong:
        if f.check != "pool.elimination":
            continue
        if f.recorded == "eliminated":
            notes.append("still in by the rules")
        elif f.expected == "eliminated":
            notes.append("out by the rules, no elimination recorded")
    if back is not None:
        said = next((f for f in wrong if f.check == "pool.rebuy" and f.seq == back.seq), None)
        note = f"rebuys at {back.score}"
        if swap is not None:
            note += f", should be {swap[1]}"
            wrong = [*wrong, swap[0]]
        elif said is not None and _number(said.expected):
            note += f", should be {said.expected}"
        elif said is not None:
            note += ", not allowed by the rules"
        notes.append(note)
    return Cell(text, "; ".join(notes), worst_name(wrong))


def pool_table(
    unit: UnitAudit,
    game: Game,
    rules: Ruleset | None,
    against: RulesWinner | None = None,
    judged: PoolJudgement | None = None,
) -> ScoreTable:
    """Each player's running score after each hand, as recorded (a ``pool.score`` finding
    gives what the rules make it; a score off the rules' by an error found elsewhere says
    the rules' score and why, ``Standing.off``), with the eliminations, rebuys and splits
    after it."""
    said = _Said(game, rules, unit.findings, against, judged, _told(unit, judged))
    played = [item.hand for item in unit.hands]
    players = players_of(played)
    events = events_after(game)
    leaving = _leaving(unit, game)
    gone: set[str] = set()
    rows = []
    for item in unit.hands:
        hand = item.hand
        after = events.get(hand.hand_no, [])
        left = leaving.get(hand.hand_no, {})
        standing = judged.standings.get(hand.hand_no) if judged is not None else None
        off = standing.off if standing is not None else {}
        if standing is not None and standing.dealt_on:  # dealt after the rules ended it: not
            # hand "over"s reason said again (a blind tester)
            off = {p: WHILE_OUT for p in standing.dealt_on if p not in standing.active}
        elif judged is not None:  # out by the rules, dealt in again (a blind tester: at 201)
            off = {**off, **dict.fromkeys(played_out(judged, played, hand), WHILE_OUT)}
        out = {e.player for e in after if e.action == "eliminated"}
        back: dict[str | None, GameEvent] = {}
        for e in after:
            if e.action == "rebuy":  # the first row is the rebuy; a repeat is void
                back.setdefault(e.player, e)
        results = {r.player: r for r in hand.results}
        cells = []
        for player in players:
            r = results.get(player)
            if r is None:
                cells.append(Cell("out" if player in gone else ""))
                continue
            wrong = _on(unit.findings, hand.hand_id, player, "pool.score", *REFUSING)
            text = "?" if r.score_after is None else str(r.score_after)
            if player in out:
                text += " out"
            elif player in left:
                text += " left"
            rebuy = back.get(player)
            swap = _swap(unit.findings, game, rebuy) if rebuy is not None else None
            cells.append(_pool_cell(text, wrong, rebuy, off.get(player, ""), swap))
        gone |= {p for p in out if p is not None and p not in back} | set(left)
        gone -= set(back)
        rows.append(
            ScoreRow(
                label=f"after hand {hand.hand_no}",
                hand_id=hand.hand_id,
                cells=tuple(cells),
                totals=(),
                events=_left_line(left, hand.hand_no)
                + tuple(_event_line(e, said, left) for e in after)
                + _out_by_the_rules(hand.hand_no, said, out),
            )
        )
    pool = rules.pools.get(game.format) if rules is not None else None
    out_at = "elimination_score" if pool is None else out_rule(pool)
    keys = [f"{game.format}.running_score", f"{game.format}.{out_at}"]
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
        rules=_rules(rules, keys) + _exactly(unit, game, rules) + ((LEAVING,) if leaving else ()),
        notes=_orphan_events(unit, said, events),
    )


def _exactly(unit: UnitAudit, game: Game, rules: Ruleset | None) -> tuple[RuleView, ...]:
    """``exactly_eliminates``, with the preset's choice, where a score is exactly the
    threshold that eliminates: the seeds never say it is out (until 2026-12-06 "P2 is
    eliminated with a score of 101" cited only 000_'s "101 Pool": a blind tester)."""
    pool = rules.pools.get(game.format) if rules is not None else None
    if rules is None or pool is None or not pool.exactly_eliminates:
        return ()  # a threshold to pass: ``exactly_eliminates`` is the table's rule already
    key = f"{game.format}.exactly_eliminates"
    scores = [e.score for e in game.game_events if e.action == "eliminated"]
    scores += [r.score_after for item in unit.hands for r in item.hand.results]
    cited = any(f.rule.startswith(f"{key}:") for f in unit.findings)
    view = rule_view(rules, key, choice=True)
    return (view,) if view is not None and (cited or pool.elimination_score in scores) else ()


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


def match_table(unit: UnitAudit, game: Game, rules: Ruleset | None) -> ScoreTable:
    """Each player's match total after each hand, as recorded (a ``match.total`` finding
    gives what the rules make it: a blind tester found no totals for a match where a pool
    game has its running scores)."""
    players = players_of(item.hand for item in unit.hands)

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


@dataclass(frozen=True)
class _Deal:
    """A deal of a deals game against the rules' chips (``games.deals.deal_by_rules``):
    each player's chips in it by the rules (``chips``: only the players the rules know them
    for), and ``why``, said once beside the deal, where some differ from the record or are
    not known."""

    chips: Mapping[str, int]
    why: str = ""


def _deal(
    hand: Hand, game: Game, rules: Ruleset | None, said: RulesSay, findings: Sequence[Finding]
) -> _Deal:
    """The rules' chips of ``hand`` as the game's totals and winner count them
    (``deal_by_rules``, ``DealByRules.counted``), and why they differ from the record's
    where no ``deals.chips`` finding on the player says it (chips that follow neither the
    rules nor the record are that finding's, said in the cell: no why of the deal's)."""
    if rules is None:
        return _Deal({})
    deal = deal_by_rules(hand, said, rules)
    if deal is None:
        why = "the deal is quarantined" if hand.quarantine is not None else (
            "it has no one recorded winner, or a player dealt in has no results row")
        return _Deal({}, f"the rules' chips of this deal are not known: {why}")  # fmt: skip
    if deal.opened is not None:
        who, penalty = deal.opened.declarer, deal.opened.penalty
        return _Deal({who: deal.counted[who]}, (
            f"{who}'s invalid declaration was accepted as a win: by the rules it costs {who} "
            f"{penalty} chips, and the others play on past the end of the record, so their "
            "chips in this deal are not known (see the deal's findings)"))  # fmt: skip
    ruling = said.get(hand.hand_id, {})
    if rules_winner(hand, ruling) is not None:
        followed = "the deal's recorded outcomes"
    else:
        wrong = deal_chips(hand, game, ruling).wrong
        followed = f"the recorded points of {and_words(list(wrong))}" if wrong else (
            "the deal's recorded results")  # fmt: skip
    flagged = {f.player_id for f in findings if f.hand_id == hand.hand_id
               and f.check == "deals.chips" and _number(f.expected)}  # fmt: skip
    if flagged:  # a winner who took what the flagged losers gave: said in their findings
        flagged |= {r.player for r in hand.results
                    if r.outcome == "won" and took_given(hand, r.player) is not None}
    if all(r.amount == deal.counted.get(r.player) or r.player in flagged for r in hand.results):
        return _Deal(deal.counted)
    return _Deal(deal.counted, f"the recorded chips follow {followed}, which the rules do "
                 "not give (see the deal's findings)")  # fmt: skip


def _deal_cell(r: Result, wrong: list[Finding], deal: _Deal) -> Cell:
    """A player's chips in a deal, as recorded: what a ``deals.chips`` finding says they
    should be, or the rules' chips beside them where the record's follow the deal's wrong
    results (their finding, not a chip one: ``_Deal.why`` says so), or that the rules do
    not know them."""
    text = "?" if r.amount is None else signed(r.amount, whole=True)
    want = next((f.expected for f in wrong if _number(f.expected)), None)
    rules = deal.chips.get(r.player)
    if want is not None:
        note = f"should be {signed(Decimal(want), whole=True)}"
    elif rules is None:
        note = "not known by the rules" if deal.why else ""
    elif r.amount is None or rules != r.amount:
        note = f"{signed(Decimal(rules), whole=True)} by the rules"
    else:
        note = ""
    return Cell(text, note, worst_name(wrong))


def deals_table(
    unit: UnitAudit, game: Game, rules: Ruleset | None, against: RulesWinner | None = None
) -> ScoreTable:
    """The chips each deal moved, as recorded, with the rules' chips beside them where
    they differ (a ``deals.chips`` finding's, or the rules' where the record's follow a
    deal's wrong points or outcomes, that deal's own finding: ``games.deals``), and each
    player's running total by the rules' chips, the recorded total beside it where it
    differs (schemas/money.md: the winner is judged on the rules' chips; a blind tester's
    agent read a game the rules tie as won by 5 chips); the game_won row as recorded
    where ``against`` says the rules' winner is another, or none yet."""
    said = _Said(game, rules, unit.findings, against)
    ruled = unit.rules_say()
    players = players_of(item.hand for item in unit.hands)
    events = events_after(game)
    leaving = _leaving(unit, game)
    by_rules: dict[str, Decimal] = {}
    recorded: dict[str, Decimal] = {}
    unknown: dict[str, int] = {}  # the deal from which a player's rules' total is not known
    rows = []
    for number, item in enumerate(unit.hands, start=1):
        hand = item.hand
        deal = _deal(hand, game, rules, ruled, unit.findings)
        cells = _cells(unit, hand, players, "deals.chips", partial(_deal_cell, deal=deal))
        results = {r.player: r for r in hand.results}
        for player in players:
            if player not in results and player not in hand.seats:
                continue
            row = results.get(player)
            amount = row.amount if row is not None and row.amount is not None else ZERO
            recorded[player] = recorded.get(player, ZERO) + amount
            by_rules[player] = by_rules.get(player, ZERO) + Decimal(deal.chips.get(player, 0))
            if rules is not None and player not in deal.chips:
                unknown.setdefault(player, number)
        rows.append(
            ScoreRow(
                label=f"deal {number}",
                hand_id=hand.hand_id,
                cells=cells,
                totals=tuple(_total(p, by_rules, recorded, unknown, rules) for p in players),
                events=((EventLine(deal.why),) if deal.why else ())
                + _left_line(leaving.get(hand.hand_no, {}), hand.hand_no, "deal")
                + tuple(_event_line(e, said) for e in events.get(hand.hand_no, []))
                + _tied(number, len(unit.hands), game, by_rules if rules else recorded),
            )
        )
    if rules is None:
        how = ("the chips each deal moved and each player's running total, as recorded (the "
               "game's ruleset cannot be used, so the rules' chips are not known)")  # fmt: skip
    else:
        how = ("the chips each deal moved, as recorded, with the rules' chips beside any that "
               "differ; then each player's running total by the rules' chips, with the "
               "recorded total beside it where that differs (the winner of a deal takes what "
               "the losers lose); the most chips by the rules wins")  # fmt: skip
        if unknown:
            how += ("; where the rules do not know a player's chips in a deal, that player's "
                    "totals from it are the record's, and say so")  # fmt: skip
    return ScoreTable(
        title="Chips, deal by deal",
        how=how,
        players=players,
        rows=tuple(rows),
        rules=_rules(rules, ["deals.chips", "deals.tie"]) + ((LEAVING,) if leaving else ()),
        notes=_orphan_events(unit, said, events),
    )


def _tied(number: int, dealt: int, game: Game, totals: Mapping[str, Decimal]
          ) -> tuple[EventLine, ...]:  # fmt: skip
    """After a deal from the game's ``deals_count`` on, where the lead is tied and another
    deal follows: the line that says why it does (``deals.tie``: a blind tester's table
    showed 0 to 0 after the last of two deals, a third deal, and no word of the tie)."""
    if game.deals_count is None or number < game.deals_count or number >= dealt or not totals:
        return ()
    lead = max(totals.values())
    tied = sorted(p for p, chips in totals.items() if chips == lead)
    if len(tied) < 2:
        return ()
    return (EventLine(f"{and_words(tied)} tied at the lead after deal {number} of the game's "
                      f"{game.deals_count}: one more deal (deals.tie)"),)  # fmt: skip


def _total(
    player: str,
    by_rules: Mapping[str, Decimal],
    recorded: Mapping[str, Decimal],
    unknown: Mapping[str, int],
    rules: Ruleset | None,
) -> Cell:
    """A player's running total after a deal: the rules' (the recorded one beside it where
    it differs), or the record's where the rules do not know the player's chips in a deal
    so far, said so; blank before the player's first deal."""
    if player not in recorded:
        return Cell("")
    record = signed(recorded[player], whole=True)
    if rules is None:
        return Cell(record)
    if player in unknown:
        return Cell(record, f"as recorded: not known by the rules from deal {unknown[player]}")
    total = signed(by_rules[player], whole=True)
    return Cell(total, "" if by_rules[player] == recorded[player] else f"{record} recorded")
