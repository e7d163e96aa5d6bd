-- Co-seating: two accounts seated in the same games far more often than their play volume
-- predicts.
--
-- Null model: random seating (the configuration model). Within a stratum -- one lobby
-- (format, chip type, stake, cards per hand) in one clock hour of game starts -- a game's
-- seats are filled independently of who else sits there, in proportion to how much each
-- account plays in that stratum. An account's weight w in a stratum is the number of
-- opponents it faced there (over its games, players - 1); 2W is the stratum's total
-- weight. The number of games A and B share is then Poisson with mean
-- sum over strata of w_A * w_B / 2W.
-- Only pairs that shared a game are listed: a pair that never met cannot be suspicious, and
-- the test conditions on at least one shared game.
-- Benign reading: friends or family who choose to play together.

-- name: players
CREATE OR REPLACE TEMP TABLE co_gp AS SELECT DISTINCT game_id, player_id FROM seat

-- name: games
CREATE OR REPLACE TEMP TABLE co_game AS
SELECT size.game_id, size.n,
       concat_ws('|', format, chip_type, coalesce(CAST(entry_fee AS VARCHAR), '-'),
                 coalesce(CAST(point_value AS VARCHAR), '-'), CAST(cards_per_hand AS VARCHAR),
                 CAST(date_trunc('hour', started_at) AS VARCHAR)) AS s
FROM (SELECT game_id, count(*) AS n FROM co_gp GROUP BY game_id) size JOIN g USING (game_id)

-- name: weights
CREATE OR REPLACE TEMP TABLE co_weight AS
SELECT cg.s, gp.player_id, sum(cg.n - 1) AS w
FROM co_gp gp JOIN co_game cg USING (game_id)
GROUP BY ALL

-- name: totals
CREATE OR REPLACE TEMP TABLE co_total AS
SELECT s, sum(n * (n - 1)) AS w2 FROM co_game GROUP BY ALL

-- name: pairs
-- One part of the pairs: those whose first player's hash falls in part $part of $parts.
WITH together AS (
    SELECT a.player_id AS a, b.player_id AS b, count(*) AS games
    FROM co_gp a JOIN co_gp b ON a.game_id = b.game_id AND a.player_id < b.player_id
    WHERE hash(a.player_id) % $parts = $part
    GROUP BY ALL
), mine AS MATERIALIZED (  -- each pair with A's strata: joined first, never stratum x stratum
    SELECT t.a, t.b, t.games, wa.s, wa.w
    FROM together t JOIN co_weight wa ON wa.player_id = t.a
)
-- Fractions are summed as DECIMAL: exact, so the same bits in any order (a parallel sum of
-- doubles is not, and the p-value would change in its last digits from run to run).
SELECT m.a, m.b, any_value(m.games) AS games, CAST(sum(CAST(m.w * wb.w / total.w2 AS DECIMAL(38, 18))) AS DOUBLE) AS expected
FROM mine m
JOIN co_weight wb ON wb.player_id = m.b AND wb.s = m.s
JOIN co_total total ON total.s = m.s
GROUP BY m.a, m.b

-- name: evidence
SELECT f.a, f.b, a.game_id, min(a.hand_id) AS hand_id, count(*) AS weight
FROM flagged f
JOIN seat a ON a.player_id = f.a
JOIN seat b ON b.hand_id = a.hand_id AND b.player_id = f.b
GROUP BY ALL
