"""Findings: what the audit found wrong in the platform's record, one typed row each.

A finding is never an exception: the replay raises findings and goes on. The check catalog
below is the output contract's (docs/contract/audit-output.md) plus the codes this audit
adds; each check has a default severity and says what raises it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum, unique

from audit.errors import one_line
from audit.records import and_more


@unique
class Severity(StrEnum):
    CRITICAL = "critical"
    MAJOR = "major"
    MINOR = "minor"
    INFO = "info"

    @property
    def rank(self) -> int:
        """3 for critical down to 0 for info: ``a.rank >= b.rank`` is "at least as bad"."""
        return _RANK[self]


_RANK = {Severity.CRITICAL: 3, Severity.MAJOR: 2, Severity.MINOR: 1, Severity.INFO: 0}


@dataclass(frozen=True, slots=True)
class Thresholds:
    """How strong evidence maps to a severity (docs/fairplay.md, docs/rng.md): a
    statistical finding is reported when its corrected p-value (a fair-play suspicion's
    Benjamini-Hochberg q-value, a shuffle test's Holm-adjusted p-value) is at most
    ``report``; its severity is ``major``, ``minor`` or ``info`` by that value."""

    report: float = 0.01
    minor: float = 1e-3
    major: float = 1e-5

    def severity(self, q: float) -> Severity | None:
        """The severity of a corrected p-value ``q``, or ``None`` (not reported).

        >>> t = Thresholds()
        >>> [t.severity(q) for q in (0.2, 0.005, 2e-4, 1e-9)]
        [None, <Severity.INFO: 'info'>, <Severity.MINOR: 'minor'>, <Severity.MAJOR: 'major'>]
        """
        if not q <= self.report:
            return None
        if q <= self.major:
            return Severity.MAJOR
        if q <= self.minor:
            return Severity.MINOR
        return Severity.INFO


@dataclass(frozen=True, slots=True)
class Check:
    code: str
    severity: Severity
    raised_when: str


def _catalog(*rows: tuple[str, Severity, str]) -> dict[str, Check]:
    return {code: Check(code, severity, when) for code, severity, when in rows}


C, MJ, MN, INF = Severity.CRITICAL, Severity.MAJOR, Severity.MINOR, Severity.INFO

@unique
class Code(StrEnum):
    """Every check code a finding can carry: the output contract's catalog and this audit's
    own (``CATALOG`` says when each is raised)."""

    DECK_COMPOSITION = "deck.composition"
    DECK_COMMITMENT = "deck.commitment"
    DEAL_MISMATCH = "deal.mismatch"
    TURN_ORDER = "turn.order"
    DRAW_STOCK_MISMATCH = "draw.stock_mismatch"
    DRAW_DISCARD_MISMATCH = "draw.discard_mismatch"
    DRAW_FORBIDDEN = "draw.forbidden"
    DRAW_RESHUFFLE = "draw.reshuffle"
    DISCARD_NOT_IN_HAND = "discard.not_in_hand"
    DECLARE_GROUPS_MISMATCH = "declare.groups_mismatch"
    DECLARE_VERDICT = "declare.verdict"
    SCORE_POINTS = "score.points"
    SCORE_OUTCOME = "score.outcome"
    SCORE_AMOUNT = "score.amount"
    DROP_PENALTY = "drop.penalty"
    DROP_FORBIDDEN = "drop.forbidden"
    POOL_SCORE = "pool.score"
    POOL_ELIMINATION = "pool.elimination"
    POOL_REBUY = "pool.rebuy"
    POOL_WINNER = "pool.winner"
    POOL_SPLIT = "pool.split"
    DEALS_CHIPS = "deals.chips"
    MELD_INVALID = "meld.invalid"
    MELD_WILD_LIMIT = "meld.wild_limit"
    MELD_LAY_OFF = "meld.lay_off"
    MELD_JOKER_SWAP = "meld.joker_swap"
    DRAW_CUT_CARD = "draw.cut_card"
    DRAW_PILE_KEPT = "draw.pile_kept"
    HAND_GOING_OUT = "hand.going_out"
    MATCH_TOTAL = "match.total"
    MATCH_END = "match.end"
    MATCH_WINNER = "match.winner"
    LEDGER_BALANCE = "ledger.balance"
    TABLE_LIMIT = "table.limit"
    TABLE_SEATS = "table.seats"
    HAND_TIME = "hand.time"
    GAME_RUNNING = "game.running"
    CHECK_SKIPPED = "check.skipped"
    GAME_UNCHECKED = "game.unchecked"
    FAIRPLAY_CO_SEATING = "fairplay.co_seating"
    FAIRPLAY_SHARED_DEVICE = "fairplay.shared_device"
    FAIRPLAY_COLLUSION = "fairplay.collusion"
    FAIRPLAY_SOFT_DROP = "fairplay.soft_drop"
    FAIRPLAY_CHIP_DUMPING = "fairplay.chip_dumping"
    FAIRPLAY_LOSS_DUMPING = "fairplay.loss_dumping"
    FAIRPLAY_BOT = "fairplay.bot"
    FAIRPLAY_RING = "fairplay.ring"
    RNG_POSITION = "rng.position"
    RNG_CARD = "rng.card"
    RNG_UNIFORMITY = "rng.uniformity"
    RNG_WILD_RANK = "rng.wild_rank"
    RNG_OPEN_CARD = "rng.open_card"
    RNG_FIRST_CARD = "rng.first_card"
    RNG_SEAT_JOKERS = "rng.seat_jokers"
    RNG_JOKERS_DEALT = "rng.jokers_dealt"
    RNG_ADJACENT = "rng.adjacent"
    RNG_SERIAL = "rng.serial"
    RNG_REPEAT = "rng.repeat"
    RNG_RUNS = "rng.runs"
    INPUT_FILE = "input.file"
    INPUT_ROW = "input.row"
    INPUT_HAND = "input.hand"


CATALOG: dict[str, Check] = _catalog(
    (Code.DECK_COMPOSITION, C, "the shoe is not exactly the ruleset's cards (decks x 52 + jokers)"),
    (Code.DECK_COMMITMENT, C, "a provably-fair shuffle does not hash or reproduce to the shoe"),
    (Code.DEAL_MISMATCH, C, "wild_card or open_card differs from what the deal procedure gives"),
    (Code.TURN_ORDER, MJ, "a player acts out of turn, twice in a turn, or after leaving the hand"),
    (Code.DRAW_STOCK_MISMATCH, C, "a stock draw is not the card on top of the stock"),
    (Code.DRAW_DISCARD_MISMATCH, C, "a discard-pile draw is not the card on top of the pile"),
    (Code.DRAW_FORBIDDEN, MJ, "a draw the ruleset forbids (a joker a player discarded)"),
    (Code.DRAW_RESHUFFLE, C, "a reshuffled stock is not the discard pile less its top card"),
    (Code.DISCARD_NOT_IN_HAND, C, "a discarded or finish-slot card is not in the player's hand"),
    (Code.DECLARE_GROUPS_MISMATCH, MJ, "declared or shown groups are not exactly the cards held"),
    (Code.DECLARE_VERDICT, C, "the platform's outcome for a declaration disagrees with the rules"),
    (Code.SCORE_POINTS, MJ, "a player's recorded points differ from the rules' points"),
    (Code.SCORE_OUTCOME, MJ, "a player's recorded outcome differs from the replay's"),
    (Code.SCORE_AMOUNT, MJ, "points rummy: a hand's money differs from points x point value"),
    (Code.DROP_PENALTY, MJ, "a drop was charged the wrong penalty"),
    (Code.DROP_FORBIDDEN, MJ, "a player dropped where the ruleset allows no drop (a deals game, "
     "a match): charged as the rules charge it"),
    (Code.POOL_SCORE, MJ, "a running pool score is wrong"),
    (Code.POOL_ELIMINATION, MJ, "a player was eliminated, or kept, against the threshold"),
    (Code.POOL_REBUY, MJ, "a rebuy was allowed, refused or scored against the rules"),
    (Code.POOL_WINNER, MJ, "a pool game's recorded winner is not the last player left"),
    (Code.POOL_SPLIT, MJ, "a split was made when not allowed, or its amounts are wrong"),
    (Code.DEALS_CHIPS, MJ, "chips moved in a deal differ from the rules"),
    (Code.MELD_INVALID, C, "open melds: a meld laid on the table, or one a card was added to, "
     "is not a valid sequence or set"),
    (Code.MELD_WILD_LIMIT, C, "open melds: a meld on the table holds more wild cards than the "
     "ruleset allows (002_: at most 2)"),
    (Code.MELD_LAY_OFF, C, "open melds: a card was added to another player's meld"),
    (Code.MELD_JOKER_SWAP, C, "open melds: a joker was taken from the table where jokers stay"),
    (Code.DRAW_CUT_CARD, C, "open melds: the cut card was kept without going out that turn, "
     "taken twice in a turn, or taken where it may not be"),
    (Code.DRAW_PILE_KEPT, MJ, "open melds: a card taken from the discard pile was kept in hand "
     "though only the first pick of the hand is free to keep"),
    (Code.HAND_GOING_OUT, C, "open melds: a player went out without the sequences the ruleset "
     "asks on the table, or the hand ended otherwise than by a player going out"),
    (Code.MATCH_TOTAL, MJ, "a match's running total (results.score_after) is wrong"),
    (Code.MATCH_END, MJ, "a match went on after a total reached the target, or ended before"),
    (Code.MATCH_WINNER, MJ, "a match's recorded winner is not the player with the lowest total"),
    (Code.LEDGER_BALANCE, C, "a game's money does not balance, or a payout differs from the rules"),
    (Code.TABLE_LIMIT, MN, "a player sat at more tables at once than the client allows"),
    (Code.TABLE_SEATS, MJ, "a hand seats more players than the table has (games.max_players)"),
    (Code.HAND_TIME, MJ, "a hand started before its game started or after it ended: it may be "
     "another game's; or it ended before it started, or its events' times go backwards (minor)"),
    (Code.GAME_RUNNING, INF, "the game was still running when the batch was cut"),
    (Code.CHECK_SKIPPED, INF, "a check could not run on all the data: a table is missing, holds "
     "no row, or a file of it is unreadable"),
    (Code.GAME_UNCHECKED, INF, "a game's checks did not run: a hand of it is missing or "
     "quarantined, rows of it were in an unreadable file, or its games row leaves out a "
     "value they need (deals_count, entry_fee, point_value)"),
    (Code.FAIRPLAY_CO_SEATING, INF, "two accounts sat together far more often than their play "
     "volume predicts (severity by the strength of evidence)"),
    (Code.FAIRPLAY_SHARED_DEVICE, INF, "accounts sharing a device or IP address sat at one table "
     "through it beyond chance"),
    (Code.FAIRPLAY_COLLUSION, INF, "a player took another's discards from the pile far above "
     "their own rate (feeding)"),
    (Code.FAIRPLAY_SOFT_DROP, INF, "a player dropped strong hands early when one player was at "
     "the table, far above their own rate"),
    (Code.FAIRPLAY_CHIP_DUMPING, INF, "points or money flowed one way between two accounts beyond "
     "what their results predict"),
    (Code.FAIRPLAY_LOSS_DUMPING, INF, "a player conceded another far bigger losses than they "
     "concede to others and that player's other opponents concede to them"),
    (Code.FAIRPLAY_BOT, INF, "an account's decision times are too regular for a person"),
    (Code.FAIRPLAY_RING, INF, "three or more accounts are joined by suspicious pairs"),
    (Code.RNG_POSITION, INF, "a position of the shoe holds some cards more often than a fair "
     "shuffle does (severity by the Holm-adjusted p-value, docs/rng.md)"),
    (Code.RNG_CARD, INF, "a card lands at some positions more often than a fair shuffle puts it"),
    (Code.RNG_UNIFORMITY, INF, "the position x card table of the night's shoes is uneven"),
    (Code.RNG_WILD_RANK, INF, "some wild ranks turn up more often than the shoe's copies allow"),
    (Code.RNG_OPEN_CARD, INF, "the open card is not uniform over the shoe's cards"),
    (Code.RNG_FIRST_CARD, INF, "a seat's first card is not uniform over the shoe's cards"),
    (Code.RNG_SEAT_JOKERS, INF, "a seat (in deal order or by seat number) is dealt more or "
     "fewer jokers than the others"),
    (Code.RNG_JOKERS_DEALT, INF, "the deal holds more or fewer jokers than a random draw"),
    (Code.RNG_ADJACENT, INF, "neighbouring cards, or a hand's consecutive cards, pair up by "
     "suit or rank more or less often than chance"),
    (Code.RNG_SERIAL, INF, "a table's shoe depends on the shoe before it"),
    (Code.RNG_REPEAT, INF, "two shoes share their first cards (a reused or small seed)"),
    (Code.RNG_RUNS, INF, "a position's colour follows a pattern from shoe to shoe"),
    (Code.INPUT_FILE, MJ, "a file could not be read or does not match the contract"),
    (Code.INPUT_ROW, MJ, "a row breaks the input contract"),
    (Code.INPUT_HAND, MJ, "a hand cannot be replayed from what the log holds"),
)

NOT_RUN_WITHOUT: dict[str, tuple[str, ...]] = {
    "sessions": (Code.TABLE_LIMIT, Code.FAIRPLAY_SHARED_DEVICE),
    "ledger": (Code.LEDGER_BALANCE,),
    "game_events": (Code.POOL_SCORE, Code.POOL_ELIMINATION, Code.POOL_REBUY, Code.POOL_WINNER,
                    Code.POOL_SPLIT),
}  # fmt: skip
"""The checks that do not run at all on a night whose optional table is missing or holds no
row it could read (``check.skipped``; audit.skipped.NEEDED_BY says the same in words): a
count of 0 for them that night would read as passed (the nightly trends say "not run")."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One discrepancy, in the columns of findings.parquet.

    ``message`` is one plain sentence a support agent can read to a player; ``rule`` is the
    ruleset key and the rule text it applies.
    """

    check: str
    severity: Severity
    game_id: str
    hand_id: str | None
    player_id: str | None
    seq: int | None
    expected: str | None
    recorded: str | None
    message: str
    rule: str

    def sort_key(self) -> tuple[str, str, int, str, str, str]:
        return (
            self.game_id,
            self.hand_id or "",
            -1 if self.seq is None else self.seq,
            self.check,
            self.player_id or "",
            self.message,
        )


COLUMNS = (
    "check", "severity", "game_id", "hand_id", "player_id", "seq",
    "expected", "recorded", "message", "rule",
)  # fmt: skip


CONTRACT: dict[str, str] = {
    "log.contract": "every file and row keeps the input contract (log-format.md; "
    "schemas/README.md)",
    "games.ruleset": "names a preset shipped with the audit (log-format.md), or a platform "
    "ruleset loaded with --rules (docs/rulesets.md)",
    "games.ended_at": "null while the game is still running (log-format.md)",
    "games.started_at": "when the game started: its ended_at, once set, is at or after it "
    "(log-format.md, games.started_at, ended_at)",
    "hands.ended_at": "when the hand ended: at or after its started_at (log-format.md, "
    "hands.started_at, ended_at)",
    "events.ts": "when the server accepted the action: a hand's events, in seq order, are "
    "stamped each at or after the one before (log-format.md, events.seq, ts)",
    "games.max_players": "the table's size (log-format.md)",
    "hands.game_id": "the game a hand was dealt in: one table session, from its started_at "
    "to its ended_at (log-format.md)",
    "games.hands": "a game is judged on all its hands: every hand of a game is in hands, "
    "events and results (log-format.md)",
    "tables.optional": "game_events, ledger and sessions are optional; a check that needs a "
    "missing one is skipped, never passed (log-format.md)",
    "tables.files": "a table's rows may be in any of its files (log-format.md)",
    "sessions.game_id": "one row per player connection to a game (log-format.md, sessions)",
    "game_events.action": "a game's actions between hands: eliminated, rebuy, split_offer, "
    "split_accept, split_reject, split, game_won (log-format.md, game_events)",
    "hands.shuffle": "a provably-fair hand's commitment (log-format.md, hands.shuffle)",
    "results.player_id": "one results row per seated player per hand (log-format.md, "
    "results)",
    "ledger.prize": "the prize of a pool or deals game is the entry fees less the rake "
    "(log-format.md, ledger)",
    "games.deals_count": "number of deals for `deals` (2 = best of 2, 3 = best of 3) "
    "(log-format.md)",
    "games.entry_fee": "pool and deals buy-in per player (log-format.md)",
    "games.point_value": "points rummy: money per point (log-format.md)",
    "games.rake_pct": "platform fee, percent (log-format.md)",
    "games.format": "points, pool_101, pool_201, deals (log-format.md)",
    "events.left": "a player who leaves a pool or deals game (a drop with reason left) is "
    "dealt into no later hand of it, or dropped at once with reason left in each "
    "(log-format.md, events.reason; schemas/README.md, \"A player who leaves\")",
}
"""The rules of the log contract a finding can rest on, by key (the ruleset's keys are
registered by ``audit.rules.ruleset``; a check code is a key of its own detector)."""

RULE_KEYS: set[str] = set()
"""The ruleset keys every preset shares, registered when the loader
(``audit.rules.ruleset``) is imported, which citing any of them needs."""


def contract(key: str) -> str:
    """The ``rule`` text of a contract rule: ``key: text``; an unknown key is an error.

    >>> contract("games.max_players")
    "games.max_players: the table's size (log-format.md)"
    """
    return f"{key}: {CONTRACT[key]}"


def table_lacking(table: str, refused: Sequence[str] = (), *, empty: bool = False) -> str:
    """Why the checks resting on the optional ``table`` ran without it, as a sentence's
    start: the log root has none, or none of its files, ``refused``, could be read, or
    (``empty``) its files hold no row (the night's ``check.skipped``, explain's words and
    the fair-play detectors' say the same).

    >>> table_lacking("ledger")
    'The log root has no ledger table'
    >>> print(table_lacking("sessions", ["sessions/a.parquet"]))
    None of the log root's sessions files could be read (sessions/a.parquet)
    >>> table_lacking("ledger", empty=True)
    "The log root's ledger files hold no row"
    """
    if empty:
        return f"The log root's {table} files hold no row"
    if refused:
        return f"None of the log root's {table} files could be read ({', '.join(refused)})"
    return f"The log root has no {table} table"


def may_be_in(files: Sequence[str]) -> str:
    """`` (its rows may be in F, which could not be read)``: the likely cause of rows a
    hand or game lacks, when files of their table could not be read.

    >>> may_be_in(["events/a.parquet"])
    ' (its rows may be in events/a.parquet, which could not be read)'
    """
    if not files:
        return ""
    return f" (its rows may be in {and_more(files)}, which could not be read)"


def _rule_key(rule: str) -> str:
    return rule.split(":", 1)[0].strip()


def finding(
    check: str,
    *,
    game_id: str,
    message: str,
    rule: str,
    hand_id: str | None = None,
    player_id: str | None = None,
    seq: int | None = None,
    expected: object = None,
    recorded: object = None,
    severity: Severity | None = None,
) -> Finding:
    """A finding of a catalog check, at the check's default severity unless given: the one
    builder every finding comes from. It refuses a check code the catalog does not hold and
    a ``rule`` whose key (the words before its first colon) is not a ruleset key, a rule of
    the log contract (``CONTRACT``) or a check code.

    >>> import audit.rules.ruleset  # registers the ruleset's keys
    >>> finding("score.nothing", game_id="g", message="m", rule="points.cap: ...")
    Traceback (most recent call last):
    ...
    ValueError: unknown check code 'score.nothing'
    >>> finding("score.points", game_id="g", message="m", rule="points.capp: ...")
    Traceback (most recent call last):
    ...
    ValueError: score.points finding cites an unknown rule key 'points.capp'
    """
    if check not in CATALOG:
        raise ValueError(f"unknown check code {check!r}")
    key = _rule_key(rule)
    if key not in CONTRACT and key not in CATALOG and (RULE_KEYS and key not in RULE_KEYS):
        raise ValueError(f"{check} finding cites an unknown rule key {key!r}")
    return Finding(
        check=check,
        severity=severity or CATALOG[check].severity,
        game_id=game_id,
        hand_id=hand_id,
        player_id=player_id,
        seq=seq,
        expected=None if expected is None else one_line(str(expected)),
        recorded=None if recorded is None else one_line(str(recorded)),
        message=one_line(message),  # an id from the logs may hold a newline
        rule=rule,
    )


def finding_at(
    place: Finding, check: str, *, message: str, rule: str, expected: object = None,
    recorded: object = None,
) -> Finding:
    """A finding where ``place`` is (its game, hand, player and event): the one finding of
    a mistake that stands for the replay's own findings of it (``replay.readings``)."""
    return finding(check, game_id=place.game_id, hand_id=place.hand_id,
                   player_id=place.player_id, seq=place.seq, expected=expected,
                   recorded=recorded, message=message, rule=rule)  # fmt: skip


def worst(findings: Iterable[Finding]) -> Severity | None:
    best: Severity | None = None
    for f in findings:
        if best is None or f.severity.rank > best.rank:
            best = f.severity
    return best


def worst_name(findings: Iterable[Finding]) -> str:
    """The worst severity's name (``critical``), or empty for no finding: as the views
    show it."""
    severity = worst(findings)
    return "" if severity is None else severity.value
