"""The unit of audit: one game and all its hands. The one door every hand comes through.

``audit_unit`` decides which hands can be replayed (``admit``), replays them (a game whose
ruleset's ``game.kind`` is ``open-melds`` by ``audit.replay.openmelds``, any other by
``audit.replay.hand``), then runs the game-level checks (pool, deals, match, ledger); the
nightly run (``audit_games``, what a worker process runs over a batch of complete games)
and ``rummy-audit explain`` both call it, so a hand the night quarantines is never
replayed to explain it, and a game's findings are the same whichever door asked.

Imports only the rules engine, the replay and the game checks, never the columnar engines,
so a spawned worker starts fast.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from audit.errors import RulesetError
from audit.findings import Finding, Severity, contract, finding, may_be_in, worst
from audit.games.deals import judge_deals
from audit.games.formats import out_of_format
from audit.games.gamerow import read_games_row
from audit.games.ledger import balance, check_ledger, split_accounted, unpaid_by_rules
from audit.games.match import check_match
from audit.games.pool import judge_pool
from audit.games.poolstate import PoolJudgement
from audit.games.poolverdict import told_findings
from audit.games.prize import SplitOwed
from audit.records import (
    MAX_SEATS,
    NO_CARD,
    Format,
    Game,
    GameUnit,
    Hand,
    HandRow,
    QuarantineRow,
    RulesSay,
    called_off_for_all,
    gc_paused,
    rules_verdict,
)
from audit.replay.deal import games_row_only
from audit.replay.facts import DropRow, PileRow, hand_facts
from audit.replay.openmelds import audit_open_hand
from audit.replay.outcome import HandAudit, audit_hand
from audit.replay.unread import unread
from audit.rules.registry import active, lookup
from audit.rules.ruleset import Ruleset, preset_ids
from audit.skipped import skipped_checks

# Final: compiled, each is a C static, not a lookup in the module's dict at every event.
_NEEDS_CARD: Final = frozenset({"draw_stock", "draw_discard", "discard", "declare"})
_NEEDS_GROUPS: Final = frozenset({"declare", "show", "reshuffle"})
# Contract version 2: the actions of the open-melds game (docs/open-melds.md).
_OPEN_NEEDS_CARD: Final = frozenset({"lay_off", "swap_joker", "take_cut", "return_cut"})
_OPEN_NEEDS_MELD: Final = frozenset({"lay_off", "swap_joker"})
_OPEN_ACTIONS: Final = frozenset({"lay", *_OPEN_NEEDS_CARD})


def malformed_event(hand: Hand, kind: str = "declare") -> str | None:
    """Why an event row cannot be replayed at all (a draw without its card, a declaration
    without its groups, an action without a player, a lay-off naming no meld, an action
    of the open-melds game in a game of another ``kind``), or ``None``. Such a hand is
    quarantined: the replay will not guess what the row meant."""
    for e in hand.events:
        if e.player is None and e.action != "reshuffle":
            return f"hand {hand.hand_id} event {e.seq} ({e.action}) names no player"
        if e.action in _NEEDS_CARD and e.card == NO_CARD:
            return f"hand {hand.hand_id} event {e.seq} ({e.action}) has no card"
        if e.action in _NEEDS_GROUPS and not e.groups:
            return f"hand {hand.hand_id} event {e.seq} ({e.action}) has no groups"
        if e.action in _OPEN_ACTIONS:
            if kind != "open-melds":
                return (
                    f"hand {hand.hand_id} event {e.seq} ({e.action}) is a move of the "
                    f"open-melds game, but its ruleset is a {kind} game"
                )
            if e.action in _OPEN_NEEDS_CARD and e.card == NO_CARD:
                return f"hand {hand.hand_id} event {e.seq} ({e.action}) has no card"
            if e.action in _OPEN_NEEDS_MELD and e.meld is None:
                return f"hand {hand.hand_id} event {e.seq} ({e.action}) names no meld"
            if e.action == "lay" and (not e.groups or not all(e.groups)):
                return f"hand {hand.hand_id} event {e.seq} (lay) has no melds"
    return None


def rules_for(game: Game) -> Ruleset | str:
    """The game's ruleset, or why it cannot be used (a reason for the quarantine): the
    platform's rulesets in force (``audit.rules.registry.using``, ``--rules DIR``) first,
    then the shipped presets."""
    try:
        rules = lookup(game.ruleset)
    except RulesetError as exc:
        return f"game {game.game_id}: {exc}"
    if rules.cards_per_hand != game.cards_per_hand:
        return (
            f"game {game.game_id} deals {game.cards_per_hand} cards but its ruleset "
            f"{rules.id} deals {rules.cards_per_hand}"
        )
    if game.format not in rules.formats:
        return (
            f"game {game.game_id} is a {game.format} game but its ruleset {rules.id} is for "
            f"{', '.join(rules.formats)} games only (games.formats)"
        )
    return rules


def admit(unit: GameUnit) -> tuple[Ruleset | None, dict[str, str | None]]:
    """The game's rules (``None`` when they cannot be used) and, for each hand, why it
    cannot be replayed (``None``: it can): a row the reader refused, an unknown game or
    ruleset (``rules_for``: the platform's rulesets in force, then the presets), an event
    the replay cannot read."""
    game = unit.game
    rules = (
        rules_for(game) if game is not None else f"game {unit.game_id} is not in the games table"
    )
    kind = "declare" if isinstance(rules, str) else rules.kind
    reasons: dict[str, str | None] = {}
    for hand in unit.hands:
        reasons[hand.hand_id] = (
            hand.quarantine
            or (rules if isinstance(rules, str) else None)
            or malformed_event(hand, kind)
        )
    return (None if isinstance(rules, str) else rules), reasons


@dataclass
class HandAudited:
    """One hand of a unit as audited: replayed (``audit``), or not (``reason``)."""

    hand: Hand
    reason: str | None
    audit: HandAudit | None
    row: HandRow


@dataclass
class UnitAudit:
    """A game and its hands, audited: each hand, the game-level findings, the quarantine
    rows the admission added, and the replay's facts for the fair-play detectors."""

    game_id: str
    game: Game | None
    rules: Ruleset | None
    hands: list[HandAudited]
    findings: list[Finding]
    """Game-level findings (the hands' own are on each ``HandAudited.audit``)."""
    quarantine: list[QuarantineRow] = field(default_factory=list)
    pile: list[PileRow] = field(default_factory=list)
    drops: list[DropRow] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    """The checks of this game that were not run because the log root lacks an optional
    table, by table, in the words of the night's ``check.skipped`` (``skipped_checks``):
    the run writes that finding once, not per game, so what explains one game says it
    here."""

    def rules_say(self) -> RulesSay:
        """What the replay's rules give each player of each replayed hand, by hand_id: the
        points the game-level checks count (pool scores, points settlements)."""
        return {h.hand.hand_id: h.audit.expected for h in self.hands if h.audit is not None}

    def hand(self, hand_id: str) -> HandAudited | None:
        return next((h for h in self.hands if h.hand.hand_id == hand_id), None)


def _quarantined(hand: Hand, game: Game | None, reason: str) -> HandRow:
    return HandRow(
        hand_id=hand.hand_id,
        game_id=hand.game_id or None,  # "": its row names no game (null, not "": b84)
        hand_no=hand.hand_no or None,  # 0: its hands row is lost, its number unknown
        format=game.format if game else None,
        ruleset=game.ruleset if game else None,
        players=len(hand.seats) if 0 < len(hand.seats) <= MAX_SEATS else None,
        status="quarantined",
        findings=0,
        worst_severity=None,
        reason=reason,
    )


def _replayed(hand: Hand, game: Game, audit: HandAudit) -> HandRow:
    severity = worst(audit.findings)
    by_player = {r.player: r for r in hand.results}
    # Seat by seat, a seat without a results row null (it was dropped: the row after it
    # then read as that seat's).
    recorded = [by_player.get(p) for p in hand.seats]
    return HandRow(
        hand_id=hand.hand_id,
        game_id=hand.game_id,
        hand_no=hand.hand_no,
        format=game.format,
        ruleset=game.ruleset,
        players=len(hand.seats),
        status=audit.status,
        findings=len(audit.findings),
        worst_severity=severity.value if severity else None,
        reason=None,
        outcomes=tuple(r.outcome if r is not None else None for r in recorded),
        points=tuple(r.points if r is not None else None for r in recorded),
    )


def _once_a_game(audit: HandAudit, said: set[str]) -> HandAudit:
    """``audit`` without the findings on the games row alone (``deal.games_row_only``) that
    an earlier hand of the game raised, ``said`` (updated): a row's fault is one finding."""
    again = [f for f in audit.findings if games_row_only(f) and f.message in said]
    said.update(f.message for f in audit.findings if games_row_only(f))
    if not again:
        return audit
    findings = [f for f in audit.findings if f not in again]
    return replace(audit, findings=findings, status="discrepancy" if findings else "verified")


def audit_unit(
    unit: GameUnit,
    *,
    missing: frozenset[str] = frozenset(),
    damaged: Mapping[str, Sequence[str]] | None = None,
    ledger_rows: bool = False,
) -> UnitAudit:
    """Audit one game: every hand it admits replayed, then the game-level checks; those
    that need an optional table the log root does not have (``missing``) are skipped (the
    run says so once, as ``check.skipped``); ``damaged`` names each table's unreadable
    files; ``ledger_rows``: the log root's ledger holds rows (of any game). A game with
    faults in two or more of its hands or rows is audited again with its games row read
    otherwise, one column at a time (``games.gamerow``), and the one reading that explains
    it stands, with one finding for the value of the row."""
    out = _audited(unit, missing=missing, damaged=damaged, ledger_rows=ledger_rows)
    game = unit.game
    if game is None or out.rules is None or out.quarantine or (damaged or {}).get("events"):
        # A hand quarantined, or events unread (a hand may be quarantined under another
        # row, which marks it): not a games row to read otherwise.
        return out
    kind = out.rules.kind

    def again(other: Game) -> UnitAudit | None:
        rules = rules_for(other)
        if isinstance(rules, str) or rules.kind != kind:
            return None  # a row its hands cannot be replayed under
        return _audited(replace(unit, game=other), missing=missing, damaged=damaged,
                        ledger_rows=ledger_rows)  # fmt: skip

    return read_games_row(out, again, other_rulesets)


def other_rulesets(game: Game) -> list[str]:
    """The rulesets but ``game``'s that may be the one it was played by: the platform's in
    force, then the presets, that deal its cards and allow its format (``rules_for``)."""
    platform = active()
    ids = [*(platform.ids() if platform else ()), *preset_ids()]
    return [i for i in dict.fromkeys(ids) if i != game.ruleset
            and not isinstance(rules_for(replace(game, ruleset=i)), str)]  # fmt: skip


def _audited(
    unit: GameUnit,
    *,
    missing: frozenset[str],
    damaged: Mapping[str, Sequence[str]] | None,
    ledger_rows: bool,
) -> UnitAudit:
    """``audit_unit`` for the games row as it reads."""
    game = unit.game
    rules, reasons = admit(unit)
    out = UnitAudit(unit.game_id, game, rules, [], [])
    started_with = opening_players(unit.hands)
    lost_events = (damaged or {}).get("events", ())
    said: set[str] = set()  # the games row's own findings, once a game (_once_a_game)
    for hand in unit.hands:
        reason = reasons[hand.hand_id]
        if reason is not None or game is None or rules is None:
            # A ruleset that cannot be used leaves every hand of the game out for that one
            # cause: their rows are one finding (a blind tester: an unknown ruleset was one
            # identical finding per hand).
            alike = game is not None and rules is None and hand.quarantine is None
            _quarantine_hand(out, hand, reason or "the game is not known",
                             f"cannot be replayed: {reason}" if alike and reason else None)
            continue
        if rules.kind == "open-melds":  # no drops in a match: only the pile's facts
            audit, replay = audit_open_hand(hand, game, rules, started_with)
        else:
            audit = audit_hand(hand, game, rules, started_with)
        audit = _once_a_game(audit, said)
        why = unread(hand, audit, lost_events, unit.unnamed)
        if why is not None:  # it may rest on rows not read: its refused file's input.file
            # says it, or a row with a null hand_id, its own input.row (audit.replay.unread)
            _quarantine_hand(out, hand, why, refused=unit.lacking if lost_events else ())
            continue
        if rules.kind == "open-melds":
            out.pile += replay.pile_facts()
        else:
            pile, drops = hand_facts(audit.replay, audit.expected)
            out.pile += pile
            out.drops += drops
        out.hands.append(HandAudited(hand, None, audit, _replayed(hand, game, audit)))
    if game is not None:
        out.skipped = skipped_checks(game.format, missing, damaged or {})
    if game is not None and rules is not None:
        events = "game_events" not in missing
        # Each hand as its replay read it (a results row read in its player's name,
        # ``replay.readings.renamed_result``): the game's money reads through it.
        read = {h.hand.hand_id: h.audit.replay.hand for h in out.hands if h.audit is not None}
        told: dict[str, str] = {}  # a pool hand's refused verdict: what follows in the game
        out.findings = game_checks(
            game, [read.get(hand.hand_id, hand) for hand in unit.hands], rules, told=told,
            game_events=events, damaged=damaged, expected=out.rules_say(),
            ledger_rows=ledger_rows, undealt=[h.hand.hand_id for h in out.hands
                                              if h.audit is not None and not h.audit.replay.dealt],
            refused=unit.refused | {q.hand_id or "" for q in out.quarantine if q.refused},
        )  # fmt: skip
        for item in out.hands if told else ():  # what follows from a hand's refused verdict
            words = told.get(item.hand.hand_id)
            if item.audit is not None and words:
                item.audit = replace(item.audit, findings=told_findings(item.audit.findings, words))
        _mark(out)
    elif game is not None:
        out.findings = [
            game_unchecked(
                game,
                f"The game-level checks of game {game.game_id} were not run: "
                f"{out.hands[0].reason if out.hands else 'its rules cannot be used'}.",
                "games.ruleset",
            )
        ]
    elif unit.lost is not None:
        # No games row to judge the game by: its hands are quarantined, and the game says
        # its own checks did not run (a blind tester: its games row removed, run.json
        # counted no game unchecked, and the report said so of a night with none read).
        out.findings = [
            finding(
                "game.unchecked",
                game_id=unit.game_id,
                message=f"The game-level checks of game {unit.game_id} (scores, chips and "
                f"money against its hands) were not run: {unit.lost}.",
                rule=contract("hands.game_id"),
            )
        ]
    return out


def _quarantine_hand(out: UnitAudit, hand: Hand, why: str, together: str | None = None,
                     refused: tuple[str, ...] = ()) -> None:  # fmt: skip
    """The hand is not replayed: a quarantined row in hands.parquet, and a quarantine row
    unless the reader has listed it already (``together``, ``refused``: QuarantineRow's)."""
    out.hands.append(HandAudited(hand, why, None, _quarantined(hand, out.game, why)))
    if hand.quarantine is None:  # the reader has not listed it: its admission did
        hand.quarantine = why  # and the game's checks see a hand that could not be judged
        out.quarantine.append(QuarantineRow("hands", None, None, hand.hand_id, hand.game_id,
                                            "input.hand", why, together=together,
                                            refused=refused))  # fmt: skip


def opening_players(hands: Sequence[Hand]) -> int | None:
    """Players seated at the game's first hand (its earliest hand that has seats; hands
    come in hand order): the table its shoe was chosen for, kept while players leave."""
    return next((len(hand.seats) for hand in hands if hand.seats), None)


def incomplete(game: Game, hands: list[Hand], lost: Sequence[str] = ()) -> list[str]:
    """Why the game's hands are not all here to be judged: a hand that could not be
    replayed, a hand number two hands hold, a hand number missing from hands, game events
    after a hand hands does not hold, no hand at all. A running game's last hand may still
    be in play: it is left out of the game's checks rather than counted missing. ``lost``:
    the hands files that could not be read, named where a hands row is missing (the game
    view said "the hands table holds none of its hands" and not where they may be: a
    blind tester); else the rows naming no game (``Game.unnamed``, b84)."""
    where = may_be_in(lost) or game.unnamed()
    if game.running and hands and hands[-1].quarantine is not None:
        hands = hands[:-1]
    why = [f"hand {h.hand_id} could not be replayed ({h.quarantine})" for h in hands
           if h.quarantine is not None]  # fmt: skip
    held = Counter(h.hand_no for h in hands if h.hand_no > 0)
    why += [f"hand no. {n} is held by {count} hands "
            f"({', '.join(h.hand_id for h in hands if h.hand_no == n)})"
            for n, count in sorted(held.items()) if count > 1]  # fmt: skip
    numbers = set(held)
    last = max(numbers, default=0)
    why += [f"no hand no. {n} of it was read from the hands table{where}"
            for n in range(1, last + 1) if n not in numbers]  # fmt: skip
    after = max((e.after_hand_no for e in game.game_events), default=0)
    if after > last:
        why.append(f"its game events follow hand no. {after}, which the hands table does not "
                   f"hold{where}")  # fmt: skip
    if not hands and not game.running:  # a hands row naming no game may be one (b84)
        why.append(game.unnamed(alone=True) or f"the hands table holds none of its hands{where}")
    return why


def game_checks(
    game: Game,
    hands: list[Hand],
    rules: Ruleset,
    *,
    game_events: bool = True,
    damaged: Mapping[str, Sequence[str]] | None = None,
    expected: RulesSay | None = None,
    ledger_rows: bool = False,
    undealt: Collection[str] = (),
    told: dict[str, str] | None = None,
    refused: Collection[str] = (),
) -> list[Finding]:
    """The game-level checks of one game, after its hands (``expected``: what the rules
    give each player of each replayed hand, ``UnitAudit.rules_say``; ``ledger_rows``: the
    log root's ledger holds rows, of this game or others; ``undealt``: the hands whose
    shoe the replay could not deal, ``HandReplay.dealt``; ``told``: filled with
    ``PoolJudgement.told``, for the hands' ``declare.verdict``; ``refused``:
    ``GameUnit.refused``, said by the refused files' findings, not the game's).

    - A game whose hands are not all here (``incomplete``) gets one ``game.unchecked``
      naming the first missing hand and why; only its ledger's own balance is checked:
      no score, chip or money finding rests on data that could not be read.
    - A running game (``ended_at`` null) is judged on its hands so far: running pool
      scores, eliminations, rebuys, splits, deals chips; what needs the end (the winner,
      the prize, the final balance) waits for the batch where it ends (``game.running``).
    - Without a game_events table (``game_events`` false) nothing that rests on
      eliminations, rebuys, splits or the winner is checked; when a file of game_events or
      ledger could not be read (``damaged``: table -> files), a finished game with no row in
      that table is not judged on it (its rows may be in that file).
    """
    damaged = damaged or {}
    found: list[Finding] = out_of_format(game, rules)
    if game.running:
        found.append(
            finding(
                "game.running",
                game_id=game.game_id,
                message=f"Game {game.game_id} was still running when the logs were cut: its "
                "hands so far are checked; its winner, prize and final balance wait for the "
                "batch where it ends.",
                rule=contract("games.ended_at"),
            )
        )
    gaps = incomplete(game, hands, damaged.get("hands", ()))
    if gaps:  # "more" reasons, not hands (until 2026-12-06 "(and 3 more)" of a game of 3)
        numbers = Counter(h.hand_no for h in hands if h.hand_no > 0)
        # Hands a refused file alone took out (the numbers missing, those of them the sessions
        # place here, hand_no 0): its input.file says so, not a game's (blind testers).
        aside = [h for h in hands if h.quarantine] if refused and not game.running else []
        top = max([*numbers, *(e.after_hand_no for e in game.game_events)], default=0)
        once, placed = max(numbers.values(), default=1) == 1, sum(h.hand_no == 0 for h in aside)
        said = bool(aside) and all(h.hand_id in refused for h in aside) and once and (
            top - len(numbers) <= placed)
        more = f" (and {len(gaps) - 1} more reason{'s' * (len(gaps) > 2)})" * (len(gaps) > 1)
        # Two hands holding one hand number, or a hand number the hands table lacks between
        # two it holds with no unreadable file or row of no game to hold it, is the platform's own
        # record at fault, which no other finding reports: major, so that a night does not
        # pass on it (blind testers: a points game's money went unchecked with exit 0, for
        # a number held twice and for a gap). Hands missing before the first held may be
        # an earlier batch's (a game that ran on from it); a hand that could not be read or
        # replayed has its own finding; the game's is then a note.
        first, last = min(numbers, default=0), max(numbers, default=0)
        gap = not (damaged.get("hands") or game.gameless) and 0 < len(numbers) < last - first + 1
        shared = gap or any(count > 1 for count in numbers.values())
        found += [] if said else [game_unchecked(
            game, f"The game-level checks of game {game.game_id} (scores, chips and money "
            f"against its hands) were not run: {gaps[0]}{more}.", "games.hands",
            Severity.MAJOR if shared else None)]  # fmt: skip
        if "ledger" in game.lost_rows:
            return [*found, _unchecked(game, "ledger")]
        return found + _ledger_checks(game, hands, damaged, check_ledger(
            game, hands, rules, complete=False, expected=expected), expected,
            undealt)  # fmt: skip
    events_lost = bool(damaged.get("game_events")) and not game.game_events and not game.running
    if events_lost and game.format != Format.POINTS:
        found.append(_unchecked(game, "game_events", damaged["game_events"]))
    if damaged.get("ledger") and not game.ledger and not game.running:
        found.append(_unchecked(game, "ledger", damaged["ledger"]))
    elif ledger_rows and not game.ledger and not game.running and hands and (
        game.format != Format.MATCH  # a match moves no money
    ):
        # A game that dealt hands moves money or chips (schemas/money.md's rows); one with
        # none in a ledger that has rows is not judged on it, and says so (it passed in
        # silence: a blind tester).
        found.append(
            game_unchecked(
                game,
                f"Game {game.game_id} has no ledger rows, though the log root's ledger has "
                f"rows, so {_rests(game, 'ledger')} not checked.",
                "tables.optional",
            )
        )
    if "game_events" in game.lost_rows and game.format != Format.POINTS:
        found.append(_unchecked(game, "game_events"))
        events_lost = True
    # a deals game's one game event is its winner's: missing only where the deals name one
    if (game_events and not events_lost and hands and not game.game_events
            and not game.running and not called_off_for_all(game, hands, expected)
            and (Format(game.format).is_pool or (game.format == Format.DEALS and judge_deals(
                game, hands, rules, winner=False, expected=expected).winner is not None))):
        # A pool game ends on its winner or a split, written in game_events with the
        # eliminations and rebuys before them: with none of its rows, its scores would be
        # judged as if no one had been out or rebought (a blind tester: one game's rows
        # left out were 22 findings, 8 of them critical money alarms about rebuys "not
        # owed", with words its own other findings belied). One finding says so. Not of a
        # game called off, every player refunded (``called_off_for_all``): the contract
        # has no event for that end, so a game called off before anyone was out or
        # rebought has no row to write (a blind tester's honest game had this finding at
        # major); its hands are judged as the rows stand. A deals game records its winner
        # there (its rows late, a blind tester's was "deals.chips: the record names no
        # winner" where a pool game's was this, b110).
        kept = ("pool game records its eliminations, rebuys and how it ended (game_won or "
                "split)" if Format(game.format).is_pool
                else "deals game records its winner (game_won)")  # fmt: skip
        found.append(game_unchecked(
            game, f"Game {game.game_id} ended, but game_events holds no row of it, though a "
            f"{kept} there, so {_rests(game, 'game_events')} not checked.",
            "game_events.action", Severity.MAJOR))  # fmt: skip
        events_lost = True
    events = game_events and not events_lost
    found += _unset(game, hands)
    judged = len(found)  # what follows rests on the game's events, the ledger's on both
    # A pool or deals game's prize goes to the rules' winner (a pool game's last player
    # left, a deals game's player with the most chips), and a pool game's entries leave out
    # the rebuys of players still in, so those checks run first; their findings follow the
    # ledger's as before.
    is_pool = Format(game.format).is_pool and events
    pool = judge_pool(game, hands, rules, expected=expected) if is_pool else None
    deals = judge_deals(game, hands, rules, winner=events, expected=expected) if (
        game.format == Format.DEALS) else None
    if "ledger" in game.lost_rows:
        found.append(_unchecked(game, "ledger"))
    else:
        winner = pool.winner if pool is not None else (
            deals.winner if deals is not None and events else None)
        found += _ledger_checks(game, hands, damaged, check_ledger(  # rebuys: rebuyrow.py
            pool.with_rebuys(game) if pool else game, hands, rules, game_events=events,
            expected=expected, winner=winner, void_rebuys=pool.void_rebuys if pool else (),
            split_owed=split_owed(game, pool)), expected, undealt)  # fmt: skip
    if deals is not None:
        found += deals.findings
    elif pool is not None:
        found.extend(pool.findings)
    elif game.format == Format.MATCH:
        found += check_match(game, hands, rules, winner=events, expected=expected)
    files = damaged.get("game_events")
    if files and events and not game.running and len(found) > judged:
        # Some of its rows here and a file that could not be read, which may hold the rest:
        # what does not add up is not judged on the rows left (a blind tester: half a pool
        # game's rows in a truncated file were 3 critical ledger alarms and 5 pool
        # findings, as the ledger's own rows are: ``_ledger_checks``).
        return [*found[:judged], _unchecked(game, "game_events", files,
                                            odd=_odd_words(found[judged:]))]  # fmt: skip
    if pool is not None and told is not None:
        told.update(pool.told)
    return split_accounted(found)


def _odd_words(found: Sequence[Finding], by: str = "the game's checks") -> str:
    """The first of ``found``'s words and how many more ``by`` found, ending a
    ``game.unchecked`` sentence (``_odd`` for the ledger's own)."""
    first, others = found[0].message.rstrip("."), len(found) - 1
    if not others:
        return f"what does not add up: {first}"
    return (f"what does not add up: {first}, and {by} found {others} more "
            f"difference{'s' if others > 1 else ''}")  # fmt: skip


def split_owed(game: Game, pool: PoolJudgement | None) -> SplitOwed | None:
    """The automatic split the rules owed a pool game that records no split: the first
    hand after which it was due (``PoolJudgement.due_after``) and the players left then.
    The game ended there by the rules, so its ledger is judged against that split's equal
    shares, not a winner's prize (schemas/money.md, step 4). A game the record split later
    has its split judged as recorded (its ``pool.split`` findings, docs/replay.md)."""
    if pool is None or pool.due_after is None or game.running:
        return None
    if any(e.action == "split" for e in game.game_events):
        return None
    standing = pool.standings.get(pool.due_after)
    if standing is None or len(standing.active) < 2:
        return None
    return SplitOwed(pool.due_after, standing.active)


_RESTS = {
    "game_events": "its eliminations, rebuys, splits and winner were",
    "ledger": "its money was",
}
"""What the game-level checks judge from each claim table (``... not checked``); a pool
game's running scores too (``_rests``)."""


def _rests(game: Game, table: str) -> str:
    """What is not checked of ``game`` without ``table``'s rows: a pool game's running
    scores are judged with its eliminations and rebuys (``check_pool``), so they wait too;
    a deals game without its game events misses only its winner."""
    if table == "game_events" and Format(game.format).is_pool:
        return "its running scores, eliminations, rebuys, splits and winner were"
    if table == "game_events" and game.format == Format.DEALS:
        return "its winner was"
    return _RESTS[table]


def _unset(game: Game, hands: list[Hand]) -> list[Finding]:
    """``game.unchecked`` for each value of the games row a check needs and the row leaves
    null (the contract lets it be null): a finished deals game's ``deals_count`` (how many
    deals it plays, and so its winner), a finished pool or deals game's ``entry_fee`` when
    its ledger has rows (the buy-ins, rebuys, prize and split shares; a running game's wait
    for the night it ends, as those checks do), a points game's ``point_value`` when its
    hands or ledger record money. Those checks are skipped, and this says so: a skipped
    check is never silently passed."""
    unset: list[tuple[str, str]] = []
    if game.format == Format.DEALS and game.deals_count is None and not game.running:
        unset.append(("deals_count", "how many deals it played and its winner were"))
    buy_in = game.format in (Format.POOL_101, Format.POOL_201, Format.DEALS)
    if buy_in and game.entry_fee is None and game.ledger and not game.running:
        unset.append(("entry_fee", "its buy-ins, rebuys, prize and split shares were"))
    if game.format == Format.POINTS and game.point_value is None and (
        any(row.kind == "points_settlement" for row in game.ledger)
        or any(result.amount is not None for hand in hands for result in hand.results)
    ):
        unset.append(("point_value", "the money of its hands was"))
    return [
        game_unchecked(
            game, f"Game {game.game_id} records no {column}, so {what} not checked.",
            f"games.{column}",
        )
        for column, what in unset
    ]  # fmt: skip


def _ledger_checks(
    game: Game, hands: list[Hand], damaged: Mapping[str, Sequence[str]], found: list[Finding],
    expected: RulesSay | None = None,
    undealt: Collection[str] = (),
) -> list[Finding]:
    """The ledger's findings of ``game`` (``found``), unless what they rest on is not all
    here: a ledger file could not be read (its rows may be the game's missing ones), a
    hand's shoe could not be dealt (``undealt``: its ``deck.composition`` finding says so;
    no one's cards, and so not its outcome or value cards, are known), or a hand records no
    result for a player dealt in (its ``score.outcome`` finding says so; what the hand
    settles is then not known). A ledger that does not balance is then one
    ``game.unchecked``, not a critical alarm about rows that were not read or written, or
    about a hand no one could play (a blind tester: an empty shoe was also three critical
    ``ledger.balance`` findings)."""
    if not found:
        return found
    files = damaged.get("ledger")
    if files:
        return [_unchecked(game, "ledger", files, odd=_odd(game, found))]
    blind = [hand.hand_id for hand in hands if hand.hand_id in undealt]
    if blind:
        also = f" (and {len(blind) - 1} more of its hands)" if len(blind) > 1 else ""
        return [_not_settled(game, f"the shoe of hand {blind[0]}{also} could not be dealt "
                                   "(see its deck.composition finding)", found)]  # fmt: skip
    said = expected or {}
    # a points hand the rules decide whole is settled by them, its missing rows included
    decided = {hand.hand_id for hand in hands if game.format == Format.POINTS
               and rules_verdict(hand, said.get(hand.hand_id, {})) is not None}  # fmt: skip
    unsettled = [(hand.hand_id, player) for hand in hands if hand.quarantine is None
                 and hand.hand_id not in decided for player in hand.without_result()
                 if player not in unpaid_by_rules(hand, said.get(hand.hand_id))]  # fmt: skip
    if not unsettled:
        return found
    (hand, player), others = unsettled[0], len(unsettled) - 1
    also = f" (and {others} more player{'s' * (others > 1)} of its hands)" if others else ""
    return [_not_settled(game, f"hand {hand} records no result for {player}{also} (see its "
                               "score.outcome finding)", found)]  # fmt: skip


def _not_settled(game: Game, why: str, found: Sequence[Finding]) -> Finding:
    """The one ``game.unchecked`` of a ledger that does not add up while ``why`` leaves
    what the game's hands settle unknown (``_ledger_checks``)."""
    return game_unchecked(
        game,
        f"Game {game.game_id}'s ledger rows do not add up, but {why}, so what its hands "
        f"settle is not known and {_RESTS['ledger']} not checked; {_odd(game, found)}.",
        "games.hands",
    )


def _odd(game: Game, found: Sequence[Finding]) -> str:
    """What the ledger check found that is not judged: the first of its findings' words,
    and how many more it found, as a clause to end a ``game.unchecked`` sentence (one
    sentence a message: findings.py; it was a second sentence). The balance leads when the
    game is out, though the check leaves its finding out when the rows' findings account
    for it (``ledger.Row``): how much the game is out, then the rows.

    >>> one = finding("ledger.balance", game_id="G1", message="G1 paid out 5.00 too much.",
    ...               rule=contract("games.hands"))
    >>> from decimal import Decimal
    >>> game = Game("G1", "T1", "points", None, 13, "standard-13", 2, 2, 6, "real", None,
    ...             None, Decimal("10"), False)
    >>> print(_odd(game, [one, one, one]))
    what does not add up: G1 paid out 5.00 too much, and the ledger check found 2 more differences
    """
    lead = balance(game)  # at its own severity, so told apart by its words
    said = {f.message for f in lead}
    return _odd_words([*lead, *(f for f in found if f.message not in said)], "the ledger check")


def _unchecked(game: Game, table: str, files: Sequence[str] = (), *, odd: str = "") -> Finding:
    """``game.unchecked``: what rests on ``table`` is not judged, rather than judged on the
    rows left: the game has no row in it (or its rows do not add up: ``odd`` says how) and
    ``files`` of it could not be read, or (no ``files``) a row of it naming the game was
    quarantined (its input.row says why)."""
    if files:
        held = f"'s {table} rows do not add up" if odd else f" has no {table} rows"
        why = (f"Game {game.game_id}{held}, and {', '.join(files)} could not be read"
               f"{' and may hold the rest of them' if odd else ''}")  # fmt: skip
        rule = "tables.files"
    else:
        why = f"A {table} row of game {game.game_id} could not be read (see its input.row finding)"
        rule = "log.contract"
    return game_unchecked(game, f"{why}, so {_rests(game, table)} not checked"
                          + (odd and f"; {odd}") + ".", rule)  # fmt: skip


def game_unchecked(
    game: Game, message: str, rule: str, severity: Severity | None = None
) -> Finding:
    """``game.unchecked``: checks of ``game`` that were not run, ``message`` saying which
    and why, resting on the contract's rule ``rule`` (``findings.contract``); ``info``
    unless ``severity`` says otherwise."""
    return finding("game.unchecked", game_id=game.game_id, message=message,
                   rule=contract(rule), severity=severity)  # fmt: skip


def money_unchecked(findings: Sequence[Finding]) -> Finding | None:
    """The game's ``game.unchecked`` that says its money was not checked (its ledger rows
    do not add up but what they rest on is not all here, or a ledger row could not be
    read: ``_ledger_checks``, ``_unchecked``), or ``None``: what explains the game's money
    then shows no sums as the rules'."""
    said = f"{_RESTS['ledger']} not checked"
    return next((f for f in findings if f.check == "game.unchecked" and said in f.message), None)


def _mark(out: UnitAudit) -> None:
    """A hand a game-level finding names becomes a hand with a discrepancy."""
    if not out.findings:  # most games: no Counter to build
        return
    named = Counter(f.hand_id for f in out.findings if f.hand_id is not None)
    if not named:
        return
    for item in out.hands:
        row = item.row
        if row.hand_id not in named or row.status == "quarantined":
            continue
        mine = [f for f in out.findings if f.hand_id == row.hand_id]
        severities = [f.severity for f in mine]
        if row.worst_severity is not None:
            severities.append(Severity(row.worst_severity))
        item.row = replace(
            row,
            status="discrepancy",
            findings=row.findings + len(mine),
            worst_severity=max(severities, key=lambda s: s.rank).value,
        )


# ---------------------------------------------------------------- a batch of games


@dataclass
class BatchResult:
    """What a worker sends back for a batch of games: only results cross processes."""

    findings: list[Finding] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    quarantine: list[QuarantineRow] = field(default_factory=list)
    pile: list[PileRow] = field(default_factory=list)
    drops: list[DropRow] = field(default_factory=list)

    def extend(self, other: BatchResult) -> None:
        self.findings += other.findings
        self.hands += other.hands
        self.quarantine += other.quarantine
        self.pile += other.pile
        self.drops += other.drops

    def add(self, unit: UnitAudit) -> None:
        for item in unit.hands:
            self.hands.append(item.row)
            if item.audit is not None:
                self.findings += item.audit.findings
        self.findings += unit.findings
        self.quarantine += unit.quarantine
        self.pile += unit.pile
        self.drops += unit.drops


def audit_games(
    units: list[GameUnit],
    *,
    missing: frozenset[str] = frozenset(),
    damaged: Mapping[str, Sequence[str]] | None = None,
    ledger_rows: bool = False,
) -> BatchResult:
    """Audit a batch of complete games (what one worker runs), the cyclic garbage
    collector paused (``gc_paused``)."""
    out = BatchResult()
    with gc_paused():
        for unit in units:
            out.add(audit_unit(unit, missing=missing, damaged=damaged, ledger_rows=ledger_rows))
    return out
