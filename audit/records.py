"""What the reader hands to the replay: one game's facts and claims as plain Python values.

Cards are already integer codes (audit/cards.py); a hand whose rows could not be read
carries ``quarantine`` (the reason) instead of being replayed. Timestamps stay in the
columnar engines (think times are DuckDB's business), except where a check needs them.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum, unique
from typing import Final, NamedTuple, Protocol

NO_CARD: Final = -1
MAX_SEATS: Final = 127
"""The most players a hand may seat (hands.parquet counts them in an ``int8``, as the
contract numbers seats); no rummy table seats more than six, so a hand beyond it is no
table at all and is quarantined (``audit.logs.validate.SEATS_OK``)."""


@unique
class Format(StrEnum):
    """``games.format`` (log-format.md)."""

    POINTS = "points"
    POOL_101 = "pool_101"
    POOL_201 = "pool_201"
    DEALS = "deals"
    MATCH = "match"
    """Contract version 2: a match of hands to a target total, the lowest total winning
    (002_'s open-melds game, docs/open-melds.md)."""

    @property
    def is_pool(self) -> bool:
        return self in POOL_FORMATS


FORMAT_NAMES: Final = {
    "points": "points rummy",
    "pool_101": "101 pool",
    "pool_201": "201 pool",
    "deals": "deals rummy",
}
"""A format in a finding's words (``replay.outcome``'s drops, ``games.gamerow``'s games
row); explain's panels name pool formats in full (``explain.view.FORMAT_WORDS``)."""

POOL_FORMATS: Final = (Format.POOL_101, Format.POOL_201)
"""The pool formats: the ones with rebuys, splits and eliminations (the rest's ledger has
no rebuy or split rows, schemas/money.md)."""


@unique
class Action(StrEnum):
    """``events.action``: what a player (or, for a reshuffle, the server) did."""

    DRAW_STOCK = "draw_stock"
    DRAW_DISCARD = "draw_discard"
    DISCARD = "discard"
    DROP = "drop"
    DECLARE = "declare"
    SHOW = "show"
    RESHUFFLE = "reshuffle"
    # Contract version 2: open melds (docs/open-melds.md), only in an open-melds game.
    LAY = "lay"
    """``groups``: new melds laid on the table, numbered on from the hand's last one."""
    LAY_OFF = "lay_off"
    """``card`` added to table meld ``meld``."""
    SWAP_JOKER = "swap_joker"
    """``card`` from the hand takes a joker's place in table meld ``meld``; the joker goes
    to the hand."""
    TAKE_CUT = "take_cut"
    """``card``: the cut card, taken instead of a draw."""
    RETURN_CUT = "return_cut"
    """``card``: the cut card put back; the turn goes on with a draw."""


@unique
class Outcome(StrEnum):
    """``results.outcome``: how a hand ended for a player."""

    WON = "won"
    LOST = "lost"
    FIRST_DROP = "first_drop"
    MIDDLE_DROP = "middle_drop"
    INVALID_DECLARE = "invalid_declare"


@unique
class GameAction(StrEnum):
    """``game_events.action``: what happened between hands."""

    ELIMINATED = "eliminated"
    REBUY = "rebuy"
    SPLIT_OFFER = "split_offer"
    SPLIT_ACCEPT = "split_accept"
    SPLIT_REJECT = "split_reject"
    SPLIT = "split"
    GAME_WON = "game_won"


@unique
class LedgerKind(StrEnum):
    """``ledger.kind``: a money or chip movement."""

    BUY_IN = "buy_in"
    REBUY = "rebuy"
    PRIZE = "prize"
    SPLIT = "split"
    RAKE = "rake"
    POINTS_SETTLEMENT = "points_settlement"
    REFUND = "refund"


DRAWS: Final = frozenset({Action.DRAW_STOCK.value, Action.DRAW_DISCARD.value})
"""The actions that take a card into a player's hand."""
PLAYS: Final = frozenset({Action.DISCARD.value, Action.DECLARE.value})
"""The actions that let a card go (a discard, or the finish slot's card of a declaration)."""


class Event(NamedTuple):
    """One row of ``events``; ``card`` is ``NO_CARD`` when the row has none. ``meld``
    (contract version 2) is the table meld a ``lay_off`` or ``swap_joker`` targets (0, 1,
    ... in the order the hand's melds were laid), else ``None``."""

    seq: int
    player: str | None
    action: str
    card: int
    groups: list[list[int]] | None
    auto: bool
    reason: str | None
    meld: int | None = None


class Result(NamedTuple):
    """One row of ``results``: what the platform recorded for a player."""

    player: str
    outcome: str
    points: int
    score_after: int | None
    amount: Decimal | None


class GameEvent(NamedTuple):
    after_hand_no: int
    seq: int
    player: str | None
    action: str
    score: int | None
    split_kind: str | None


class LedgerRow(NamedTuple):
    player: str | None
    kind: str
    amount: Decimal


@dataclass(frozen=True)
class QuarantineRow:
    """A file, row or hand that could not be read, with why; one row of quarantine.parquet.

    `row` is the 0-based row index inside `file`, when known; `check` is `input.file`,
    `input.row` or `input.hand`.
    """

    table: str
    file: str | None
    row: int | None
    hand_id: str | None
    game_id: str | None
    check: str
    reason: str
    seq: int | None = None
    """The bad row's ``seq`` (events, game_events) where it reads: its finding's ``seq``;
    not a column of quarantine.parquet, which names the row by file and place."""
    player_id: str | None = None
    """The bad row's player where it reads: its finding's ``player_id`` (likewise)."""
    together: str | None = None
    """Where this row is left out for a cause it shares with the other hands of its game
    (their game has no games row to be read in), what they all do, said of several
    ("name game G7, which games does not hold"): the rows of one game with the same words
    are one finding (``input_findings``), each still its own quarantine row."""
    refused: tuple[str, ...] = ()
    """The files refused tonight that alone put this row aside (a hand whose rows were in
    one, a game whose games row may be): no finding of its own, their ``input.file``
    finding says what they took out (``input_findings``; blind testers: one refused
    results file was 300 findings, an ``input.hand`` per hand and a ``game.unchecked`` per
    game); still its own quarantine row."""


@dataclass(slots=True)
class Game:
    """One row of ``games`` (and, for game-level checks, its game events and ledger)."""

    game_id: str
    table_id: str
    format: str
    deals_count: int | None
    cards_per_hand: int
    ruleset: str
    decks: int
    printed_jokers: int
    max_players: int
    chip_type: str
    entry_fee: Decimal | None
    point_value: Decimal | None
    rake_pct: Decimal
    running: bool
    game_events: list[GameEvent] = field(default_factory=list)
    ledger: list[LedgerRow] = field(default_factory=list)
    lost_rows: tuple[str, ...] = ()
    """``game_events`` and/or ``ledger`` when a row of that table naming this game was
    quarantined (input.row): the checks resting on that table are not run."""
    gameless: tuple[str, ...] = ()
    """The night's hands rows whose ``game_id`` is null, as "hands row R of F"
    (``Staged.gameless``): a hand this game lacks may be one of them, and its
    ``game.unchecked`` names them (``unit.incomplete``)."""

    def unnamed(self, *, alone: bool = False) -> str:
        """`` (hands row R of F has a null game_id: it may be one of its hands)`` when the
        night has hands rows that name no game (``gameless``), else "": where a hand the game
        lacks may be. ``alone``: the game has no hand, said whole ("no hands row names it
        (...)"), not that the hands table holds none of its hands, which it may (b84)."""
        if not self.gameless:
            return ""
        rows, one = and_more(self.gameless), len(self.gameless) == 1
        said = (f" ({rows} has a null game_id: it may be one of its hands)" if one
                else f" ({rows} have a null game_id: they may be some of its hands)")  # fmt: skip
        return f"no hands row names it{said}" if alone else said


class Shuffle(NamedTuple):
    """A hand's provably-fair commitment (``hands.shuffle``)."""

    algorithm: str | None
    server_seed: str | None
    server_seed_hash: str | None
    client_seed: str | None
    nonce: int | None


class Backwards(NamedTuple):
    """A hand's first event stamped earlier than the event before it, in ``seq`` order:
    both seqs and their times (epoch milliseconds, UTC; ``audit.logs.clock``)."""

    seq: int
    ts: int
    before_seq: int
    before_ts: int


@dataclass(slots=True)
class Hand:
    """One row of ``hands`` with its events (in seq order) and its results rows."""

    hand_id: str
    game_id: str
    hand_no: int
    seats: list[str]
    shoe: list[int]
    wild: int
    open: int
    events: list[Event]
    results: list[Result]
    quarantine: str | None = None
    """Why the hand cannot be replayed (a bad row, a gap in seq, no results...)."""
    shuffle: Shuffle | None = None
    """The provably-fair commitment, when the platform records one."""
    moved: tuple[tuple[int, str], ...] = ()
    """Never recorded: a reading of the record (``redeal.moved``) that the platform dealt
    these shoe positions to these seats, not to the seat the procedure gives them
    (``deal.dealt_cards``)."""
    clock: Backwards | None = None
    """Its events' times going backwards in seq order, as the reader found them
    (``audit.logs.clock``): its replay adds the one minor ``hand.time`` they are."""

    def without_result(self) -> list[str]:
        """The players dealt in (in turn order) that the hand's results rows leave out."""
        named = {result.player for result in self.results}
        return [player for player in self.seats if player not in named]


Unnamed = Mapping[str | None, str]
"""Player (None: the row names none) -> the first events row of the night that names them
but no hand (its ``hand_id`` null), as "events row R of F" (``Staged.unnamed``)."""


def unnamed_row(unnamed: Unnamed, players: Iterable[str]) -> str | None:
    """The first events row naming no hand that may be one of ``players``' (one that names
    one of them, or no player), or None.

    >>> unnamed_row({None: "events row 3 of e.parquet"}, ["A"])
    'events row 3 of e.parquet'
    >>> unnamed_row({"B": "events row 5 of e.parquet"}, ["A"]) is None
    True
    """
    return next((unnamed[p] for p in players if p in unnamed), unnamed.get(None))


@dataclass(slots=True)
class GameUnit:
    """A game with all its hands, in hand_no order. ``game`` is ``None`` when the hands
    name a game_id that ``games`` does not hold (then every hand is quarantined)."""

    game_id: str
    game: Game | None
    hands: list[Hand]
    lost: str | None = None
    """Why ``game`` is ``None``, as the reader found it (games holds no row of the game, or
    its row is quarantined): the game's ``game.unchecked`` says it (``unit._audited``)."""
    refused: frozenset[str] = frozenset()
    """Its hands quarantined only because files refused tonight held their rows, or its
    games row (``QuarantineRow.refused``): the files' ``input.file`` findings say so, and
    the game gets no ``game.unchecked`` for them."""
    lacking: tuple[str, ...] = ()
    """The events files refused tonight whose hands are found by what they lack
    (``Staged.lacking``): a hand whose events stop before it ends is theirs to say, as
    ``refused``'s hands are."""
    unnamed: Unnamed = field(default_factory=dict)
    """The night's events rows whose ``hand_id`` is null, by player (``Staged.unnamed``):
    a hand whose replay may rest on one is not judged (``audit.replay.unread``)."""


@dataclass(frozen=True, slots=True)
class HandRow:
    """One row of hands.parquet: how one input hand's replay ended."""

    hand_id: str
    game_id: str | None
    hand_no: int | None
    format: str | None
    ruleset: str | None
    players: int | None
    status: str
    findings: int
    worst_severity: str | None
    reason: str | None
    outcomes: tuple[str | None, ...] | None = None
    """Each seat's recorded outcome, in seat order (the report's score charts); None for a
    seat the results do not hold."""
    points: tuple[int | None, ...] | None = None
    """Each seat's recorded points, in seat order; None for a seat the results do not
    hold."""


@contextmanager
def gc_paused(*, freeze: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector while records are built or audited: they hold
    no cycles (reference counting frees them), and a collection every few hundred
    allocations, each walking the young objects and now and then every live one, cost a
    fifth of a worker's time. With ``freeze``, what is alive on exit (the records just
    built) is moved out of the collector's sight (``gc.freeze``) until ``gc.unfreeze``,
    so no later collection walks it again."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()


def give_back_memory() -> None:
    """Return the memory freed so far to the system, where the C library keeps it for
    reuse (glibc's ``malloc_trim``; nothing elsewhere). Called after each large DuckDB
    query of the main process, so that what one query freed does not stay under the next
    one's peak (after staging a million hands: 40 MiB given back)."""
    with suppress(OSError, AttributeError):  # not glibc: nothing to do
        ctypes.CDLL(None).malloc_trim(0)


class ValueNet(Protocol):
    """A player's value-card settlement, as the ledger reads it: its net, in points."""

    @property
    def net(self) -> int: ...


class RulesPoints(Protocol):
    """What the replay's rules give one player of one hand (``audit.replay.outcome``'s
    ``Expected``), as the game-level checks read it: ``audit/unit.py`` hands it over, so
    ``games/`` and ``replay/`` do not import each other."""

    @property
    def outcome(self) -> str: ...

    @property
    def points(self) -> int | None: ...

    @property
    def rule_key(self) -> str:
        """The rule the points rest on (``drops.pool_101``, ``points.cap``): what a finding
        on a total those points make (a pool score) cites."""
        ...

    @property
    def value(self) -> ValueNet | None: ...


RulesSay = Mapping[str, Mapping[str, RulesPoints]]
"""hand_id -> player -> what the rules give them (``RulesPoints``)."""


def game_end(game: Game, hands: Sequence[Hand], said: RulesSay | None = None) -> str | None:
    """How the record shows that ``game`` reached its end, in words (``its game_won event
    after hand 5``), or None where it does not (schemas/money.md, "Called off"). A pool or
    deals game ends with a ``game_won`` or ``split`` game event (none without the
    game_events table: its end is not seen); a points game, whose hands are each a game
    settled on its own, when every hand ended (``hand_ended``; ``said``: what the replay's
    rules give each player of each replayed hand).

    >>> from types import SimpleNamespace as Said
    >>> game = Game("G1", "T1", "points", None, 13, "standard-13", 2, 2, 6, "real", None,
    ...     Decimal("0.5000"), Decimal("10.00"), False)
    >>> hand = Hand("H1", "G1", 1, ["A", "B"], [], 0, 0, [], [
    ...     Result("A", "won", 0, None, None), Result("B", "lost", 40, None, None)])
    >>> game_end(game, [hand])
    'its one hand ended'
    >>> print(game_end(game, [hand], {"H1": {"B": Said(outcome="first_drop")}}))
    None
    """
    if game.format == Format.POINTS:
        if not hands or not all(hand_ended(h, (said or {}).get(h.hand_id)) for h in hands):
            return None
        return "its one hand ended" if len(hands) == 1 else f"each of its {len(hands)} hands ended"
    end = next((e for e in game.game_events if e.action in _GAME_ENDS), None)
    return None if end is None else f"its {end.action} event after hand {end.after_hand_no}"


_GAME_ENDS: Final = (GameAction.GAME_WON.value, GameAction.SPLIT.value)
"""The game events that end a pool or deals game: it was won, or (pool) split."""


def named_winners(game: Game) -> list[str | None]:
    """The players ``game``'s ``game_won`` events name, each once, in seq order: a row
    written again for the same player names no second winner (``won_again`` says it).

    >>> won = GameEvent(2, 7, "B", "game_won", None, None)
    >>> game = Game("G1", "T1", "deals", 2, 13, "standard-13", 2, 2, 6, "real",
    ...     Decimal("10.00"), None, Decimal("10.00"), False,
    ...     game_events=[won, won._replace(seq=8)])
    >>> named_winners(game)
    ['B']
    >>> again = won_again(game)
    >>> again.seq, again.rows, again.words
    (8, 2, 'the record writes its game_won event for B 2 times (seq 7 and 8)')
    """
    won = GameAction.GAME_WON
    return list(dict.fromkeys(e.player for e in game.game_events if e.action == won))


class WonAgain(NamedTuple):
    """One player named by several ``game_won`` rows: the ``seq`` of the first row that
    repeats them, how many ``rows`` name them, and the record in ``words``."""

    seq: int
    rows: int
    words: str


def and_words(items: Sequence[str]) -> str:
    """``P1``, ``P1 and P2``, ``P1, P2 and P3``.

    >>> and_words(["1"]), and_words(["1", "3"]), and_words(["1", "3", "4"])
    ('1', '1 and 3', '1, 3 and 4')
    """
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def and_more(items: Sequence[str], shown: int = 3) -> str:
    """The first ``shown`` of ``items``, and how many more: a list of files or hands that
    may be long, named in one line.

    >>> and_more(["a"]), and_more(list("abcde"))
    ('a', 'a, b, c and 2 more')
    """
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


def when(moment: datetime | None, *, after: datetime | None = None) -> str:
    """``2026-11-29 18:00:00 UTC``; only the time when ``after`` is the same day; empty
    when not known.

    >>> start = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    >>> when(start), when(start.replace(minute=5), after=start)
    ('2026-11-29 18:00:00 UTC', '18:05:00 UTC')
    """
    if moment is None:
        return ""
    moment = moment.astimezone(UTC)
    if after is not None and after.astimezone(UTC).date() == moment.date():
        return moment.strftime("%H:%M:%S UTC")
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def ordinal(m: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st``.

    >>> [ordinal(m) for m in (1, 2, 3, 4, 11, 12, 21, 22, 113)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st', '22nd', '113th']
    """
    tail = "th" if 10 <= m % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(m % 10, "th")
    return f"{m}{tail}"


def won_again(game: Game) -> WonAgain | None:
    """Where ``game``'s ``game_won`` events name one player in several rows (different
    seqs: one seq twice is a duplicated key, ``game.unchecked``), what the record did, for
    the winner check's one finding on the repeat (the game is won once, and the prize paid
    once; a blind tester had a critical prize "to a player who did not win" and "the
    record names B4, B4" for the right winner written twice); else None."""
    rows = [e for e in game.game_events if e.action == GameAction.GAME_WON]
    if len(rows) < 2 or len({e.player for e in rows}) != 1:
        return None
    listed = and_words([str(e.seq) for e in rows])
    return WonAgain(rows[1].seq, len(rows), (
        f"the record writes its game_won event for {rows[0].player or 'nobody'} "
        f"{len(rows)} times (seq {listed})"
    ))  # fmt: skip


def hand_ended(hand: Hand, said: Mapping[str, RulesPoints] | None = None) -> bool:
    """Whether ``hand`` reached its end: it was read (not quarantined: a hand with no
    results is) and, where the replay's rules are given (``said``), they give every player
    dealt in an outcome; a hand whose events stop with players still in and no valid
    declaration (its ``turn.order`` finding) gives them none."""
    if hand.quarantine is not None or not hand.results:
        return False
    return said is None or all(player in said for player in hand.seats)


def called_off(game: Game, hands: Sequence[Hand], said: RulesSay | None = None) -> bool:
    """The game was called off: its ledger gives money back (``refund`` rows) and the
    record does not show it reaching its end (``game_end``). It ends with no winner, and
    only its ledger's balance is judged (schemas/money.md). A game played to its end is
    judged like any other, refund rows or not: one refund row of 0.00 switched off every
    money check of a finished game (a blind tester)."""
    refunds = any(row.kind == LedgerKind.REFUND for row in game.ledger)
    return refunds and game_end(game, hands, said) is None


def called_off_for_all(
    game: Game, hands: Sequence[Hand], said: RulesSay | None = None
) -> bool:
    """The game was called off (``called_off``) and its ledger says so for every player:
    each player dealt into a hand of it or charged a ``buy_in`` or ``rebuy`` is given money
    back in ``refund`` rows, and no ``prize`` or ``split`` row pays anyone. The contract has
    no game event for a game called off, so such a game's missing end (no ``game_won`` or
    ``split``, no game_events row at all, fewer deals than a deals game plays) is no fault
    of the record, and the checks that rest on the game having been played to its end say
    nothing of it (a blind tester: an honest game called off after one hand, every entry
    refunded, had major findings for its missing game_events rows, deal count and winner,
    which the tool's own explain called off). Refunds to only some players, or refunds
    beside a prize, do not say the game was called off: those checks stand.

    >>> game = Game("G1", "T1", "deals", 2, 13, "standard-13", 2, 2, 6, "real",
    ...     Decimal("10.00"), None, Decimal("10.00"), False, ledger=[
    ...     LedgerRow("A", "buy_in", Decimal("-10.00")), LedgerRow("B", "buy_in",
    ...     Decimal("-10.00")), LedgerRow("A", "refund", Decimal("10.00"))])
    >>> called_off(game, []), called_off_for_all(game, [])
    (True, False)
    >>> game.ledger.append(LedgerRow("B", "refund", Decimal("10.00")))
    >>> called_off_for_all(game, [])
    True
    """
    if not called_off(game, hands, said):
        return False
    if any(row.kind in (LedgerKind.PRIZE, LedgerKind.SPLIT) for row in game.ledger):
        return False
    players = {p for hand in hands for p in hand.seats}
    players |= {row.player for row in game.ledger if row.player is not None
                and row.kind in (LedgerKind.BUY_IN, LedgerKind.REBUY)}  # fmt: skip
    back: dict[str, Decimal] = {}
    for row in game.ledger:
        if row.kind == LedgerKind.REFUND and row.player is not None:
            back[row.player] = back.get(row.player, Decimal(0)) + row.amount
    return all(back.get(player, Decimal(0)) > 0 for player in players)


def money_unsettled(
    results: Sequence[Result], said: Mapping[str, RulesPoints], value_cards: bool
) -> bool:
    """Whether a hand's recorded verdict leaves its money to no world: a recorded winner
    the rules do not make the winner (or a winner they make that the record does not), or,
    with value cards, a player the record and the rules do not agree is still in at the
    show (``won`` or ``lost``: the value cards are settled among them). Its money then
    follows a verdict the rules refuse, and the rules' points settled under the recorded
    winner match neither the record nor the rules: the verdict's finding
    (``declare.verdict``, ``score.outcome``) stands alone, and the money is not judged
    (schemas/money.md). A loser recorded with the wrong kind of loss (a middle drop as a
    first drop, or as a hand lost) is settled at the rules' points (``charged_points``).

    >>> from types import SimpleNamespace as Said
    >>> rows = [Result("A", "won", 0, None, None), Result("B", "first_drop", 20, None, None)]
    >>> money_unsettled(rows, {"B": Said(outcome="middle_drop")}, value_cards=True)
    False
    >>> money_unsettled(rows, {"A": Said(outcome="invalid_declare")}, value_cards=False)
    True
    """
    for row in results:
        rules = said.get(row.player)
        if rules is None or rules.outcome == row.outcome:
            continue
        if "won" in (row.outcome, rules.outcome):
            return True
        if value_cards and (row.outcome in _AT_SHOW) != (rules.outcome in _AT_SHOW):
            return True
    return False


_AT_SHOW = ("won", "lost")
"""The outcomes of the players still in at a show: the value cards are settled among them."""


def rules_verdict(
    hand: Hand, said: Mapping[str, RulesPoints]
) -> tuple[dict[str, int], str, dict[str, int]] | None:
    """The points each player dealt in is charged, the winner, and the value cards' net
    points (21 and 27 cards; the replay settles them under the rules' own verdict), where
    the rules decide the whole hand their own way (``said``: one winner, every other
    player's points known); None where they do not (play would have gone on after an
    invalid declaration at a table of three or more). A hand whose recorded verdict the
    rules refuse, or that records no winner or two, is settled so (schemas/money.md, step
    3): the ledger that paid the rules' winner is right, and one that followed the wrong
    verdict moved money the rules do not (blind testers: winner and loser swapped in
    results alone, or a loser also written as a winner, gave critical findings on a ledger
    that had paid the rightful winner, "by the rules" naming the recorded amounts; the
    same in results and ledger gave no money finding)."""
    if not hand.seats:
        return None
    if any(player not in said for player in hand.seats):
        return None
    winners = [player for player in hand.seats if said[player].outcome == "won"]
    if len(winners) != 1:
        return None
    points: dict[str, int] = {}
    for player in hand.seats:
        charged = said[player].points
        if player == winners[0]:
            continue
        if charged is None:
            return None
        points[player] = charged
    nets = {p: e.value.net for p, e in said.items() if e.value is not None}
    return points, winners[0], nets


def dealt_in(hand: Hand) -> list[Result]:
    """The hand's results rows of players dealt in: a row of a player not dealt in is the
    hand's ``score.outcome`` finding (``results.player_id``) and settles no money, so it is
    no second winner here, and what it records is nobody's to be paid (schemas/money.md).

    >>> hand = Hand("H1", "G1", 1, ["P1", "P2"], [], 0, 0, [], [
    ...     Result("P1", "won", 0, None, None), Result("P2", "lost", 40, None, None),
    ...     Result("P9", "won", 0, None, None)])
    >>> [r.player for r in dealt_in(hand)]
    ['P1', 'P2']
    """
    seated = hand.seats
    return [r for r in hand.results if r.player in seated]


def charged_points(result: Result, said: RulesPoints | None) -> int:
    """The points ``result``'s player is charged in the money and the running scores: the
    rules' points (``said``) unless the rules or the record make the player the winner
    (a wrong verdict is the hand's own finding, and the money follows the rules' verdict
    only where they decide the whole hand: ``rules_verdict``); else the recorded
    points. A loser recorded with the wrong kind of loss (a first drop as a middle drop, a
    middle drop as a hand lost at 80) owes what the rules charge: no one else's outcome
    rests on it (blind testers: a middle drop recorded as lost at 80 was called "by the
    rules" in the game's money at 80, hiding an overcharge the ledger followed and blaming
    a ledger that paid the 40; a first drop recorded as lost carried 40 into a pool score
    and let an elimination at 100 stand).

    >>> from types import SimpleNamespace as Said
    >>> dropped = Result("C", "middle_drop", 40, None, None)
    >>> charged_points(dropped, Said(outcome="first_drop", points=20))
    20
    >>> charged_points(Result("C", "lost", 80, None, None), Said(outcome="middle_drop", points=40))
    40
    >>> charged_points(dropped, Said(outcome="won", points=0))
    40
    """
    if said is None or said.points is None or win_disputed(result, said):
        return result.points
    return said.points


def win_disputed(result: Result, said: RulesPoints) -> bool:
    """Whether the rules and the record disagree on who won, as far as ``result``'s player
    goes: one of them makes the player the winner and the other does not."""
    return said.outcome != result.outcome and "won" in (said.outcome, result.outcome)


def charged_outcome(result: Result, said: RulesPoints | None) -> str:
    """The outcome whose points ``charged_points`` charges: the rules' where it takes their
    points, else the recorded one, so the money's words say the loss the player is charged
    for (a blind tester: "P0252 dropped (a middle drop) for 69 points" of a player who
    played on and lost, recorded as a middle drop).

    >>> from types import SimpleNamespace as Said
    >>> charged_outcome(Result("C", "middle_drop", 40, None, None), Said(outcome="lost", points=69))
    'lost'
    """
    if said is None or said.points is None or win_disputed(result, said):
        return result.outcome
    return str(said.outcome)


def verdict_points(hand: Hand, result: Result, said: Mapping[str, RulesPoints]) -> int:
    """The points ``result``'s player is charged in ``hand`` as a pool's running score counts
    them: ``charged_points``, but the rules' own points for every player where the recorded
    winner is not the rules' and the rules decide the whole hand (``rules_verdict``), and
    for a declarer recorded as the winner whose declaration the rules refuse (its penalty
    is fixed, however the hand would have gone on). A
    blind tester's pool hands with the winner and a loser swapped in ``results`` alone, the
    scores, eliminations and prize right: the running scores counted the recorded points,
    so 4 to 12 findings a game blamed the rightful winner ("played while out") and an
    honest ledger's prize."""
    mine = said.get(result.player)
    points = charged_points(result, mine)
    if mine is None or mine.points is None or not win_disputed(result, mine):
        return points
    if mine.outcome == "invalid_declare":
        # the declarer's penalty is the rules' whoever wins the rest of the hand (a blind
        # tester: an invalid declaration accepted at a table of three, the declarer at 200
        # of 201, counted 0 and paid the prize where the rules' 80 put them out)
        return mine.points
    return mine.points if rules_verdict(hand, said) is not None else points
