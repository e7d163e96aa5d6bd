"""A pool game's last hand won by a declaration the rules refuse: the platform accepted it
(the hand's one ``declare.verdict``), so it charged the declarer nothing and the others
their losses, eliminated by those scores, and named the declarer the game's winner. Where
the eliminations after that hand and the game's winner are wrong by the rules only
because of that verdict (each player's recorded score right before the hand, off after it
by that hand's points alone, and their elimination as that recorded score makes it; by
the rules the declarer out and the one player left the winner), they are that verdict's
consequences, said in its words (``told_words``), not findings of their own
(docs/replay.md: one error, one finding). Until 2026-12-06 they were a
``pool.elimination`` on each player and a ``pool.winner`` besides (a blind tester: one
invalid declaration recorded as a win, five findings). The prize paid to the declarer is
money that moved, its own ``ledger.balance`` (schemas/money.md). An elimination or a
winner wrong for another reason stays its own finding."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from audit.findings import Finding
from audit.records import Hand, RulesPoints, and_words


def refused_declarer(hand: Hand, said: Mapping[str, RulesPoints]) -> str | None:
    """The player ``hand`` records as its winner whose declaration the rules refuse
    (``invalid_declare``: the hand's ``declare.verdict``), or ``None``."""
    for result in hand.results:
        mine = said.get(result.player)
        if result.outcome == "won" and mine is not None and mine.outcome == "invalid_declare":
            return result.player
    return None


@dataclass
class Told:
    """The refused verdict of a pool game's last hand (``declarer``'s) and the players whose
    elimination after it follows from that verdict alone (``moved``: the rules' score and
    the recorded one), with the rules' ``winner`` once the game's winner follows from it
    too."""

    declarer: str
    moved: dict[str, tuple[int, int]] = field(default_factory=dict)
    winner: str | None = None


def folded(told: Told, named: Sequence[str | None], winner: str) -> bool:
    """Whether the game's recorded winner (``named``) against the rules' ``winner`` follows
    from ``told``'s verdict alone: the declarer named, both the declarer's and the
    winner's eliminations among those it moved."""
    return list(named) == [told.declarer] and {told.declarer, winner} <= set(told.moved)


def fold(found: list[Finding], told: Told, last: str, winner: str) -> list[Finding]:
    """``found`` without the eliminations after the ``last`` hand (its hand_id) that follow
    from its refused verdict alone, the game's ``winner`` following from it too
    (``folded``): no findings of their own, said in the verdict's words
    (``PoolJudgement.told``)."""
    told.winner = winner
    return [f for f in found if not (f.check == "pool.elimination" and f.hand_id == last
            and f.player_id in told.moved)]  # fmt: skip


def told_words(game_id: str, told: Told) -> str:
    """What the rules make of game ``game_id`` after the verdict, said in its
    ``declare.verdict`` (``; in game G, by the rules, A's penalty puts A out at 160 (80
    recorded) and B stays in at 80 (160 recorded, eliminated), so B, the last player left,
    wins the game, recorded as won by A``).

    >>> words = told_words("G", Told("A", {"A": (160, 80), "B": (80, 160)}, "B"))
    >>> words.endswith("so B, the last player left, wins the game, recorded as won by A")
    True
    """
    first = sorted(told.moved.items(), key=lambda item: item[0] != told.declarer)
    moved = [f"{p}'s penalty puts {p} out at {rules} ({kept} recorded)" if p == told.declarer
             else f"{p} stays in at {rules} ({kept} recorded, eliminated)"
             for p, (rules, kept) in first]  # fmt: skip
    words = f"; in game {game_id}, by the rules, {and_words(moved)}"
    if told.winner is not None:
        words += (f", so {told.winner}, the last player left, wins the game, recorded as won "
                  f"by {told.declarer}")  # fmt: skip
    return words


def told_findings(findings: Sequence[Finding], words: str) -> list[Finding]:
    """``findings`` (a hand's) with ``words`` (``told_words``) said in the
    ``declare.verdict`` of the declaration recorded as a win."""
    return [replace(f, message=f"{f.message.removesuffix('.')}{words}.")
            if f.check == "declare.verdict" and f.recorded == "won" else f
            for f in findings]  # fmt: skip
