"""What the pool check (audit/games/pool.py) makes of one game: the table after each hand
by the rules (``Standing``), a hand dealt after the rules ended the game (``dealt_on``),
and the whole judgement (``PoolJudgement``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from audit.findings import Finding
from audit.records import Hand


@dataclass(frozen=True)
class Standing:
    """The table after one hand and its game events: the players still in (in the hand's
    turn order, a rebuyer included), each player's running score by the rules, the rebuys
    taken so far, and (``off``) for each player whose recorded score after the hand is off
    the rules' with no ``pool.score`` on it, the rules' score and why, in words ("65 by the
    rules: the record carries forward its score after hand 2"): a score that follows from
    the record's own points and scores is the finding where it went wrong, not again.
    ``dealt_on``: of a hand dealt after the rules ended the game (``dealt_on``), each of its
    players' words saying why their score after it is not judged."""

    active: tuple[str, ...]
    scores: Mapping[str, int]
    rebuys: int
    off: Mapping[str, str] = field(default_factory=dict)
    dealt_on: Mapping[str, str] = field(default_factory=dict)


def dealt_on(ended: Standing, over: int, hand: Hand) -> Standing:
    """The table of ``hand``, dealt after the rules ended the game with one player left
    after hand ``over`` (``ended``, that hand's table): the same, its scores not judged
    (docs/replay.md: the hands dealt after it are not judged), each player's
    ``dealt_on`` words saying so: out by the rules after hand ``over`` (and why the record
    kept them in, hand ``over`` named), so ``hand`` is one they played while out, or the
    last player left. Until 2026-12-06 it was hand ``over``'s table as it stood, so a
    first drop rightly charged in a hand played while out "differed" for the wrong drop of
    the hand before, "that hand" (a blind tester).

    >>> ended = Standing(("B",), {"A": 120, "B": 0}, 0,
    ...                  {"A": "120 by the rules: the record counts 20 points for that hand"})
    >>> words = dealt_on(ended, 2, Hand("h3", "g1", 3, ["A", "B"], [], 0, 0, [], [])).dealt_on
    >>> words["A"].endswith("counts 20 points for hand 2), so hand 3 is one A played while out")
    True
    """
    no, words = hand.hand_no, {}
    for player in hand.seats:
        if player in ended.active:
            words[player] = (f"by the rules the game ended after hand {over}, {player} the "
                             f"last player left, so hand {no} was dealt after it")  # fmt: skip
            continue
        why = ended.off.get(player, "").replace("that hand", f"hand {over}")
        words[player] = (f"by the rules {player} was out after hand {over}"
                         + (f" ({why})" if why else "")
                         + f", so hand {no} is one {player} played while out")  # fmt: skip
    return replace(ended, off={}, dealt_on=words)


@dataclass(frozen=True)
class PoolJudgement:
    """What the pool check makes of one game: its ``findings``, the table after each hand
    by the rules (``standings``, by hand_no), the ``winner`` by the rules (the one player
    left after the last hand of a finished game that was not split; ``None`` when the rules
    know none), the ``split_kind`` by the rules (``None``: not split) and the seqs of the
    rebuy events of a player still in (``void_rebuys``): no rebuy by the rules, so counted
    in no entry (``audit.games.prize.counted_rebuys``), and ``due_after``, the first hand
    after which an auto split was due and not made (the money it owes: ``prize.SplitOwed``).
    ``told``: by hand_id, what the eliminations and winner that follow from that hand's
    refused verdict alone make of the game, said in its ``declare.verdict``
    (audit/games/poolverdict.py)."""

    findings: tuple[Finding, ...]
    standings: Mapping[int, Standing]
    winner: str | None
    split_kind: str | None
    void_rebuys: frozenset[int] = frozenset()
    due_after: int | None = None
    told: Mapping[str, str] = field(default_factory=dict)
