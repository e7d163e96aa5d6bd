"""What the pool check (audit/games/pool.py) makes of one game: the table after each hand
by the rules (``Standing``), a hand dealt after the rules ended the game (``dealt_on``),
the whole judgement (``PoolJudgement``), and where a recorded running score left the
rules' (``Gaps``)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from audit.findings import Finding
from audit.records import Game, GameEvent, Hand


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
    the hand before, "that hand" (a blind tester); a score carried forward from an earlier
    hand keeps its "that hand", which follows the hand it names (until 2026-12-06 it too
    became hand ``over``: "after hand 1, where it counts 30 points for hand 2").

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
        why = ended.off.get(player, "")
        if "carries forward" not in why:  # there each "that hand" follows the hand it names
            why = why.replace("that hand", f"hand {over}")
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
    (audit/games/poolverdict.py). ``unwritten``: the rebuys the record makes with no
    ``rebuy`` row in game_events (the pool check's ``unwritten``), as the rows they lack,
    numbered after the game's own; the ledger's entries count them (``with_rebuys``)."""

    findings: tuple[Finding, ...]
    standings: Mapping[int, Standing]
    winner: str | None
    split_kind: str | None
    void_rebuys: frozenset[int] = frozenset()
    due_after: int | None = None
    told: Mapping[str, str] = field(default_factory=dict)
    unwritten: tuple[GameEvent, ...] = ()

    def with_rebuys(self, game: Game) -> Game:
        """``game`` with the rebuy rows it lacks (``unwritten``), as the ledger's entries
        and prize are judged: the ledger's rebuy row of a player seated again is their
        rebuy (docs/replay.md; schemas/money.md, step 4)."""
        if not self.unwritten:
            return game
        return replace(game, game_events=[*game.game_events, *self.unwritten])


class Gaps:
    """Where the recorded running score of each player left the rules' (the pool check's
    ``keep``), and why, in the words that say it: a pool finding resting on that score
    (``carried``, ``since``) and the table's ``Standing.off``. A later hand whose own wrong
    points the record counted on adds to the gap, and is said too: until 2026-12-06 only the
    first gap was named, so a score 30 off, 10 of it from hand 1 and 20 from hand 2's own
    wrong charge, was blamed on hand 1 alone (a blind tester)."""

    def __init__(self) -> None:
        self.first: dict[str, str] = {}  # where the recorded score left the rules', in words
        self.at: dict[str, tuple[int, str, str]] = {}  # ... by hand_no, where and why
        self.added: dict[str, list[tuple[int, str]]] = {}  # a later hand's own: hand_no, why

    def note(
        self, player: str, rules_score: int, recorded: int, where: str, why: str, no: int
    ) -> None:
        """Note where (after hand ``no``; 0: at a rebuy) and ``why`` (a hand's wrong points,
        "the record counts 60 points for that hand, the rules 80") the record of ``player``
        left the rules' running score, or, already off, a later hand's own ``why``."""
        if recorded == rules_score:
            self.first.pop(player, None)
            self.at.pop(player, None)
            self.added.pop(player, None)
        elif player not in self.first:
            self.first[player] = (f"{where} ({recorded} recorded, {rules_score} by the rules"
                                  + (f": {why})" if why else ")"))  # fmt: skip
            self.at[player] = (no, where, why)
        elif why and no:
            self.added.setdefault(player, []).append((no, why))

    def is_off(self, player: str) -> bool:
        return player in self.first

    def since(self, player: str) -> str | None:
        """``after hand 1 (30 recorded, 40 by the rules: the record counts 30 points for
        that hand, the rules 40), and after hand 2 the record counts 60 points for that
        hand, the rules 80``: where the record of ``player`` left the rules' running score,
        and each later hand that added its own gap; ``None`` while it is not off."""
        first = self.first.get(player)
        if first is None:
            return None
        return first + _listed([f"after hand {no} {why}" for no, why in self.added.get(player, [])])

    def carried(self, player: str, lead: str) -> str:
        """`` It carries forward the wrong score recorded after hand 3 (62 recorded, 61 by
        the rules).`` (``lead`` then the score) while the record of ``player`` is off the
        rules' running score; empty when it is not."""
        since = self.since(player)
        return f" {lead} the wrong score recorded {since}." if since else ""

    def off(
        self, hand: Hand, scores: Mapping[str, int], flagged: Collection[str | None]
    ) -> dict[str, str]:
        """``Standing.off`` after ``hand``'s scores (``scores``, the rules'): each player of
        it whose recorded score is off the rules' with no ``pool.score`` on it (``flagged``),
        the rules' score and why."""
        words = {}
        for player in hand.seats:
            if player not in self.at or player in flagged:
                continue
            no, where, why = self.at[player]
            note = f"{scores[player]} by the rules"
            if no == hand.hand_no:
                words[player] = f"{note}: {why}" if why else note
                continue
            words[player] = f"{note}: the record carries forward its score {where}" + (
                f", where it counts {why.removeprefix('the record counts ')}" if why else "")
            words[player] += _listed([
                f"after hand {n} counts {said.removeprefix('the record counts ')}"
                for n, said in self.added.get(player, [])])  # fmt: skip
        return words


def _listed(parts: list[str]) -> str:
    """``, and A`` / ``, A, and B``: ``parts`` said after what comes before them."""
    if not parts:
        return ""
    return "".join(f", {part}" for part in parts[:-1]) + f", and {parts[-1]}"
