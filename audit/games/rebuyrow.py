"""A rebuy the record makes with no ``rebuy`` row in game_events (docs/replay.md): a player
eliminated after a hand by their ``eliminated`` row, whom the record deals into the next
hand, and for whom the ledger took a ``rebuy`` row that no rebuy event accounts for. The
ledger's row and the player's scores say the rebuy was made and only its game_events row
is missing: the pool check (audit/games/pool.py, ``_PoolCheck.unwritten``) reads it as a
rebuy, one ``pool.elimination`` saying so (and the rules' new score where the record counts
on from another), the player back in at the rules' new score, 1 + the highest score still
in (after the rebuys recorded after that hand), the record's count going on from their
score going into the next hand (its ``score_after`` less its ``points``), and the ledger's
entries count it (``PoolJudgement.with_rebuys``). A blind tester's one missing row was
five findings: the player seated "without a rebuy", a ``pool.score`` by a count that kept
them out, and three critical ``ledger.balance`` on a ledger that balanced to the paisa.

Only a rebuy the rules allow then (enough players, the highest score still in below
``rebuy_below``) is read so: a player seated again with no rebuy the rules allow stays out,
the one finding "seated ... without a rebuy" as before."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from decimal import Decimal

from audit.records import Game, GameEvent, Hand
from audit.rules.ruleset import PoolRules


def allowed(
    pool: PoolRules,
    hand: Hand,
    still_in: Sequence[str],
    leaving: Mapping[int, Collection[str]],
    highest: int,
) -> bool:
    """Whether the rules allow a rebuy after ``hand`` (``rebuy_min_players``, counted as
    ``rebuy_counts`` says, a player who left the game in it, ``leaving`` by hand_no, not
    counted; the highest score still in below ``rebuy_below``), as the pool check's
    ``rebuy`` judges a recorded one."""
    quit_ = leaving.get(hand.hand_no, ())
    playing = len(still_in) if pool.rebuy_counts != "hand" else len(
        [p for p in hand.seats if p not in quit_])  # fmt: skip
    return playing >= pool.rebuy_min_players and highest < pool.rebuy_below


def seated_again(game: Game, after: Hand, out: Sequence[str]) -> list[str]:
    """The players of ``out`` (eliminated by their row, not rebought) dealt into ``after``,
    the next hand, for whom the ledger holds more ``rebuy`` rows than the game's rebuy
    events (those read from such rows already among them) account for."""
    rows = Counter(r.player for r in game.ledger
                   if r.kind == "rebuy" and r.player is not None and r.amount < 0)  # fmt: skip
    written = Counter(e.player for e in game.game_events if e.action == "rebuy")
    return [p for p in out if p in after.seats and rows[p] > written[p]]


def going_in(after: Hand, player: str) -> int | None:
    """``player``'s recorded score going into ``after``: its ``score_after`` less its
    ``points`` (a rebuy's new score, as the record counts it); ``None`` without them."""
    result = next((r for r in after.results if r.player == player), None)
    if result is None or result.score_after is None or result.points is None:
        return None
    return result.score_after - result.points


def read_in(game: Game, no: int, player: str, score: int) -> Game:
    """``game`` with the ``rebuy`` row ``player``'s rebuy after hand ``no`` lacks, at the
    record's new ``score``, numbered after its rows (those already read in among them):
    what the pool check's own words on the game's money count (``PoolJudgement.unwritten``
    are the rows read in)."""
    seq = max((e.seq for e in game.game_events), default=-1) + 1
    row = GameEvent(no, seq, player, "rebuy", score, None)
    return replace(game, game_events=[*game.game_events, row])


def words(
    game: Game, player: str, no: int, after: int, score: int | None, new: int, highest: int
) -> str:
    """The one finding's words: the player seated again, what says they rebought (the
    ledger's rebuy row, as much as it took, and the score the record counts on from), and
    the rules' new score where the record's differs from it."""
    fee: Decimal | None = next((-r.amount for r in reversed(game.ledger)
                                if r.kind == "rebuy" and r.player == player), None)  # fmt: skip
    row = f"the ledger's rebuy row of {fee} for {player}" if fee is not None else (
        f"the ledger's rebuy row for {player}")  # fmt: skip
    going = "" if score is None else f" and {player}'s score of {score} going into hand {after}"
    rules = "" if score is None or score == new else (
        f" (by the rules the new score is {new}, 1 + the highest score still in, {highest})")
    return (f"{player} was eliminated after hand {no} and is seated in hand {after} with no "
            f"rebuy event, but {row}{going} say {player} rebought after hand {no}{rules}: "
            "the rebuy's game_events row is missing.")  # fmt: skip
