-- Co-seating: two accounts seated in the same games far more often than their play volume
-- predicts.
--
-- Null model: random seating (the configuration model). Within a stratum -- one lobby
-- (format, chip type, stake, cards per hand, table size) in one half hour of game starts
-- -- a game's
-- seats are filled independently of who else sits there, in proportion to how much each
-- account plays in that stratum. An account's weight w in a stratum is the number of
-- opponents it faced there (over its games, players - 1); 2W is the stratum's total
-- weight. Each of A's w_A opponents is drawn from the other accounts' weight, 2W - w_A
-- (an account never sits against itself), so A meets B w_A * w_B / (2W - w_A) times; the
-- number of games A and B share is Poisson with mean the sum over strata of the mean of
-- that and B's own count, w_A * w_B * (1 / (2W - w_A) + 1 / (2W - w_B)) / 2. This is
-- exact in a lobby of two or three accounts: the only two players of a heads-up lobby are
-- expected to share every game (the textbook w_A * w_B / 2W expects half of them).
-- Only pairs that shared a game are listed: a pair that never met cannot be suspicious, and
-- the test conditions on at least one shared game.
-- Tournament games (chip_type 'tournament') are seated by the platform, not chosen: they
-- count toward nothing the pair is tested on (chosen, chosen_expected: the games and
-- expectation outside them), only toward shared identity's expectation (games, expected),
-- where two accounts on one device sit at one table however they were seated. (Until
-- 2026-12-07 a blind tester's two tournament tables of six, the same players 40 games
-- each, gave 15 `minor` co-seatings a table: 40 games together against 18.18 expected.)
-- Benign reading: friends or family who choose to play together.
-- Why half hours: players' sessions are often shorter than an hour, and the accounts
-- online in the same twenty minutes of a thin lobby meet far more often than a clock
-- hour's mix of everyone expects (a blind tester's honest night: 44 suspicions with hours,
-- none with half hours). Fifteen minutes lost planted pairs that play less (recall 0.85 on
-- a 4,000-game night); half hours keep them (benchmarks/README.md, fair play).

-- The tables below number players, games and strata (in no particular order: only within
-- this run) so that the joins over every seat hold integers, not ids: at ten million hands
-- the same joins over ids ran out of 512MB.

-- name: players
CREATE OR REPLACE TEMP TABLE co_player AS
SELECT player_id, CAST(row_number() OVER () AS INTEGER) AS p FROM (SELECT DISTINCT player_id FROM seat)

-- name: lobbies
CREATE OR REPLACE TEMP TABLE co_lobby AS
SELECT game_id, coalesce(chip_type = 'tournament', false) AS platform,
       concat_ws('|', format, chip_type, coalesce(CAST(entry_fee AS VARCHAR), '-'),
                 coalesce(CAST(point_value AS VARCHAR), '-'), CAST(cards_per_hand AS VARCHAR),
                 coalesce(CAST(max_players AS VARCHAR), '-'),
                 CAST(time_bucket(INTERVAL 30 MINUTE, started_at) AS VARCHAR)) AS s
FROM g SEMI JOIN (SELECT DISTINCT game_id FROM seat) USING (game_id)

-- name: games
CREATE OR REPLACE TEMP TABLE co_game AS
SELECT l.game_id, CAST(row_number() OVER () AS INTEGER) AS gm, st.si, l.platform
FROM co_lobby l
JOIN (SELECT s, CAST(row_number() OVER () AS INTEGER) AS si FROM (SELECT DISTINCT s FROM co_lobby)) st
  USING (s)

-- name: seated
CREATE OR REPLACE TEMP TABLE co_gp AS
SELECT DISTINCT cg.gm, cp.p, cg.platform
FROM seat JOIN co_game cg USING (game_id) JOIN co_player cp USING (player_id)

-- name: sizes
CREATE OR REPLACE TEMP TABLE co_size AS
SELECT gp.gm, any_value(cg.si) AS si, count(*) AS n
FROM co_gp gp JOIN co_game cg USING (gm)
GROUP BY gp.gm

-- name: weights
CREATE OR REPLACE TEMP TABLE co_weight AS
SELECT sz.si, gp.p, sum(sz.n - 1) AS w
FROM co_gp gp JOIN co_size sz USING (gm)
GROUP BY ALL

-- name: totals
CREATE OR REPLACE TEMP TABLE co_total AS
SELECT sz.si, sum(sz.n * (sz.n - 1)) AS w2, bool_or(g.platform) AS platform
FROM co_size sz JOIN co_game g USING (gm) GROUP BY ALL

-- name: pairs
-- One part of the pairs: those whose first player's number falls in part $part of $parts.
-- Each pair once, its ids in order (a < b).
WITH together AS (
    SELECT a.p AS a, b.p AS b, count(*) AS games,
           count(*) FILTER (WHERE NOT a.platform) AS chosen
    FROM co_gp a JOIN co_gp b ON a.gm = b.gm AND a.p < b.p
    WHERE a.p % $parts = $part
    GROUP BY ALL
), mine AS MATERIALIZED (  -- each pair with A's strata: joined first, never stratum x stratum
    SELECT t.a, t.b, t.games, t.chosen, wa.si, wa.w
    FROM together t JOIN co_weight wa ON wa.p = t.a
), expected AS (
    -- Fractions are summed as DECIMAL: exact, so the same bits in any order (a parallel sum
    -- of doubles is not, and the p-value would change in its last digits from run to run).
    -- Each stratum's share (x) once, summed over all of them and over those outside
    -- tournaments (chosen_expected: see the top).
    SELECT a, b, any_value(games) AS games, any_value(chosen) AS chosen,
           CAST(sum(x) AS DOUBLE) AS expected,
           CAST(coalesce(sum(x) FILTER (WHERE NOT platform), 0) AS DOUBLE) AS chosen_expected
    FROM (
        SELECT m.a, m.b, m.games, m.chosen, total.platform,
               CAST(m.w * wb.w * (1 / (total.w2 - m.w) + 1 / (total.w2 - wb.w)) / 2
                    AS DECIMAL(38, 18)) AS x
        FROM mine m
        JOIN co_weight wb ON wb.p = m.b AND wb.si = m.si
        JOIN co_total total ON total.si = m.si
    )
    GROUP BY a, b
)
SELECT least(pa.player_id, pb.player_id) AS a, greatest(pa.player_id, pb.player_id) AS b,
       e.games, e.expected, e.chosen, e.chosen_expected
FROM expected e JOIN co_player pa ON pa.p = e.a JOIN co_player pb ON pb.p = e.b

-- name: evidence
-- the games the pair chose to share (not tournaments: see the top)
SELECT f.a, f.b, a.game_id, min(a.hand_id) AS hand_id, count(*) AS weight
FROM flagged f
JOIN seat a ON a.player_id = f.a
JOIN seat b ON b.hand_id = a.hand_id AND b.player_id = f.b
WHERE a.chip_type IS DISTINCT FROM 'tournament'
GROUP BY ALL
