"""Who is still in a pool game by the rules, as the game's explanation tells it: the
players the record put out whom the rules keep in (``left_out``), those still in when the
record ends a game the rules give no winner (``still_in``), and a seat order to say them
in."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from audit.findings import Finding
from audit.games.poolstate import PoolJudgement, Standing
from audit.records import Game, Hand, named_winners


def in_seat_order(hands: Sequence[Hand], players: Iterable[str]) -> list[str]:
    """``players`` in the seat order of hand 1 (its turn order: ``split.owed``)."""
    order = {p: i for i, p in enumerate(hands[0].seats)}
    return sorted(players, key=lambda p: order.get(p, len(order)))


def left_out(
    findings: Sequence[Finding],
    hands: Sequence[Hand],
    after: int,
    standing: Standing,
    eliminated: Callable[[int], bool],
) -> tuple[str, ...]:
    """The players still in by the rules after hand ``after`` whom the record put out: each
    recorded as eliminated below the threshold (their ``pool.elimination`` finding, recorded
    ``eliminated``) and not dealt a hand since, so not among the players of ``standing``
    (the pool check's table, which the split's checks count: docs/replay.md)."""
    number = {h.hand_id: h.hand_no for h in hands}
    out = []
    for f in findings:
        if f.check != "pool.elimination" or f.recorded != "eliminated" or not f.player_id:
            continue
        player, at = f.player_id, number.get(f.hand_id or "")
        if at is None or at > after or player in standing.active or player in out:
            continue
        if any(at < h.hand_no <= after and player in h.seats for h in hands):
            continue  # dealt in again: the pool check's table has them
        if not eliminated(standing.scores.get(player, 0)):
            out.append(player)
    return tuple(out)


def still_in(
    judged: PoolJudgement,
    game: Game,
    hands: Sequence[Hand],
    findings: Sequence[Finding] = (),
    eliminated: Callable[[int], bool] | None = None,
) -> tuple[str, ...]:
    """The players still in by the rules after the last hand of a finished pool game the
    rules give no winner (an elimination they refuse), where the record ends it: its
    recorded winner is then not the rules' (``()`` otherwise). With ``findings`` and the
    pool's ``eliminated``, also a game the pool check gives its one player left, the
    recorded winner, where an elimination the rules refuse put a player out before the last
    hand and the record dealt them into no later one (``left_out``; the finding's words:
    ``poolwords.dealt_out``): by the rules that player is still in too, so the game has no
    winner yet (a blind tester read "won by u009" and u009's prize "by the rules ...
    agrees" beside that finding)."""
    if game.running or not hands or judged.split_kind:
        return ()
    if not any(e.action == "game_won" for e in game.game_events):
        return ()
    last = judged.standings.get(hands[-1].hand_no)
    if last is None:
        return ()
    if judged.winner is None:
        return tuple(last.active) if len(last.active) > 1 else ()
    if eliminated is None or named_winners(game) != [judged.winner]:
        return ()
    missed = left_out(findings, hands, hands[-1].hand_no, last, eliminated)
    return tuple(in_seat_order(hands, (*last.active, *missed))) if missed else ()


def played_out(judged: PoolJudgement, hands: Sequence[Hand], hand: Hand) -> dict[str, int]:
    """The players of ``hand`` out by the rules when it was dealt, each with the hand after
    which the rules put them out: the last hand they played before it, whose table (the
    pool check's) does not have them still in, and no rebuy brought them back (a rebuyer is
    in it, a rebuy the rules refuse included). A blind tester's player kept in at exactly
    201 (no ``eliminated`` row) played the next hand, which the game view called verified
    and the hand view "agrees"; the replay's one ``pool.elimination`` said they played it
    while out."""
    out = {}
    for player in hand.seats:
        before = [h.hand_no for h in hands if h.hand_no < hand.hand_no and player in h.seats]
        standing = judged.standings.get(before[-1]) if before else None
        if standing is not None and player not in standing.active:
            out[player] = before[-1]
            # out since the first of the hands they played out of in a row (a blind
            # tester's player out after hand 2, their row after hand 4, read "out after
            # hand 3" of hand 4)
            for no in reversed(before[:-1]):
                since = judged.standings.get(no)
                if since is None or player in since.active:
                    break
                out[player] = no
    return out
