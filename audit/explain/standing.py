"""Who is still in a pool game by the rules, as the game's explanation tells it: the
players the record put out whom the rules keep in (``left_out``), those still in when the
record ends a game the rules give no winner (``still_in``), and a seat order to say them
in."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from audit.findings import Finding
from audit.games.pool import PoolJudgement, Standing
from audit.records import Game, Hand


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


def still_in(judged: PoolJudgement, game: Game, hands: Sequence[Hand]) -> tuple[str, ...]:
    """The players still in by the rules after the last hand of a finished pool game the
    rules give no winner (an elimination they refuse), where the record ends it: its
    recorded winner is then not the rules' (``()`` otherwise)."""
    if judged.winner is not None or game.running or not hands or judged.split_kind:
        return ()
    if not any(e.action == "game_won" for e in game.game_events):
        return ()
    last = judged.standings.get(hands[-1].hand_no)
    left = last.active if last is not None else ()
    return tuple(left) if len(left) > 1 else ()
