"""The game a hand was played in, when its hands row names another game of its table.

A platform that writes a hand's row with the `game_id` of another game of the same table
leaves the hand's own replay whole (its deal and turns stand alone) but both games' hand
numbers and money wrong: a blind tester's 60 such hands gave 3 to 13 findings each, the
ledger of a game that had done nothing wrong blamed, critical, in 49 of them. The hand is
read as the game's it was played in when three facts agree (``REFILED``):

- it started outside its recorded game's time (``started_at`` before the game's start or
  after its end, when that end is not before the start: the ``hand.time`` check,
  ``audit.nightwide``);
- exactly one other game of the same table was running then, and its other hands, if it
  has any, seat one of the hand's players at least (a blind tester's hand whose start was
  written wrong, into a game its players never sat in, was moved there);
- that game holds no hand of its number, and either holds a later one (the hand fills a
  gap in it), or the recorded game holds another hand of the same number (the hand is
  one too many there), or that game holds the number before it and the recorded game
  does not (the hand continues the one and leaves a gap in the other).

A hand whose start alone was written wrong meets the first two by chance at most, and the
third only where the other game lacks that very number too: it stays in its game, and
``hand.time`` names the game running then. The staging reads the hand into the game it was
played in (``audit.logs.reader._hand_map``), so that game's checks and money see it and the
recorded game's do not; ``hand.time`` says so, in the one finding the mistake gives.
"""

from __future__ import annotations

REFILED = """
WITH g AS (SELECT game_id, min(table_id) AS table_id, min(started_at) AS started_at,
                  max(ended_at) AS ended_at
           FROM {games} WHERE game_id IS NOT NULL AND started_at IS NOT NULL GROUP BY game_id),
outside AS (SELECT h.hand_id, min(h.game_id) AS game_id, min(h.hand_no) AS hand_no,
                   min(h.started_at) AS started_at, min(g.table_id) AS table_id,
                   any_value(list_transform(h.seats, lambda s: s.player_id)) AS players
            FROM {hands} h JOIN g USING (game_id)
            WHERE h.hand_id IS NOT NULL AND h.hand_no IS NOT NULL
              AND (h.started_at < g.started_at
                   OR (h.started_at > g.ended_at AND g.ended_at >= g.started_at))
            GROUP BY h.hand_id HAVING count(DISTINCT h.game_id) = 1
              AND count(DISTINCT h.hand_no) = 1 AND count(DISTINCT h.started_at) = 1),
fits AS (SELECT o.hand_id, min(r.game_id) AS played, count(*) AS games
         FROM outside o JOIN g r ON r.table_id = o.table_id AND r.game_id <> o.game_id
           AND r.started_at <= o.started_at AND (r.ended_at IS NULL OR o.started_at <= r.ended_at)
         GROUP BY o.hand_id),
numbers AS (SELECT game_id, hand_no, hand_id,
                   list_transform(seats, lambda s: s.player_id) AS players FROM {hands}
            WHERE game_id IN (SELECT played FROM fits UNION SELECT game_id FROM outside)),
met AS (SELECT o.hand_id, n.game_id, max(len(list_intersect(n.players, o.players))) AS shared
        FROM outside o JOIN numbers n ON n.hand_id <> o.hand_id GROUP BY o.hand_id, n.game_id)
SELECT o.hand_id, f.played FROM outside o JOIN fits f USING (hand_id)
WHERE f.games = 1
  AND coalesce((SELECT shared FROM met m WHERE m.hand_id = o.hand_id
                AND m.game_id = f.played), 1) >= 1
  AND NOT EXISTS (SELECT 1 FROM numbers n WHERE n.game_id = f.played AND n.hand_no = o.hand_no)
  AND (EXISTS (SELECT 1 FROM numbers n WHERE n.game_id = f.played AND n.hand_no > o.hand_no)
       OR EXISTS (SELECT 1 FROM numbers n WHERE n.game_id = o.game_id
                  AND n.hand_no = o.hand_no AND n.hand_id <> o.hand_id)
       OR (EXISTS (SELECT 1 FROM numbers n WHERE n.game_id = f.played
                   AND n.hand_no = o.hand_no - 1)
           AND NOT EXISTS (SELECT 1 FROM numbers n WHERE n.game_id = o.game_id
                           AND n.hand_no = o.hand_no - 1)))
"""
"""Rows (hand id, the game it was played in), one per hand id, of the hands read into
another game than their row names; ``{games}`` and ``{hands}`` are the two tables' scans
(columns beyond the contract's are ignored). A hand id whose rows outside their game's
time disagree (two games, numbers or starts) is left where its first row files it."""
