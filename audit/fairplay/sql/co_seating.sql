-- Co-seating: two accounts who sit down at one table together far more often than their
-- play volume predicts.
--
-- Sittings: a player seated in a game who was also seated in the table's game just before
-- (the same table_id, that game ended less than $break_minutes minutes before this one
-- began) stayed; otherwise they sat down. A pair's sitting together begins at a game both
-- are in where either sat down, and lasts while both stay: the unit counted is the
-- sitting, not the game. Players who stay seated deal after deal did not choose each other
-- again at every deal, and the contract lets a points platform write each deal as a game of
-- its own (log-format.md, hands: a "game" in points). (Until 2026-12-07 the games were
-- counted: a blind tester's honest night of sticky six-seat tables, one games row a deal,
-- gave 346 co-seating suspicions, each pair's hours at one table counted as a hundred
-- random seatings.) Where every game is a table of its own, or a table's players change
-- every game, each game is a sitting and nothing changes.
--
-- Null model: random seating (the configuration model). Within a stratum -- one lobby
-- (format, chip type, stake, cards per hand, table size) in one half hour of game starts
-- -- the players who sit down are seated independently of who else is there, in
-- proportion to how much each account plays in that stratum. An account's weight w in a
-- stratum is the number of sittings together it began there with another account (at a
-- game it sat down at, all n - 1 others; at one it stayed at, the f who sat down); 2W is
-- the stratum's total weight, the sum over its games of f * (2n - f - 1). Each of A's w_A
-- partners is drawn from the other accounts' weight, 2W - w_A (an account never sits
-- with itself), so A meets B w_A * w_B / (2W - w_A) times; the number of sittings A and B
-- share is Poisson with mean the sum over strata of the mean of that and B's own count,
-- w_A * w_B * (1 / (2W - w_A) + 1 / (2W - w_B)) / 2. This is exact in a lobby of two or
-- three accounts: the only two players of a heads-up lobby are expected to share every
-- sitting (the textbook w_A * w_B / 2W expects half of them).
-- Only pairs that shared a game are listed: a pair that never met cannot be suspicious, and
-- the test conditions on at least one sitting together.
-- Tournament games (chip_type 'tournament') are seated by the platform, not chosen: they
-- count toward nothing the pair is tested on (chosen, chosen_expected: the sittings and
-- expectation outside them), only toward shared identity's expectation (expected),
-- where two accounts on one device sit at one table however they were seated. (Until
-- 2026-12-07 a blind tester's two tournament tables of six, the same players 40 games
-- each, gave 15 `minor` co-seatings a table: 40 games together against 18.18 expected.)
-- Benign reading: friends or family who choose to play together.
-- Why half hours: players' sessions are often shorter than an hour, and the accounts
-- online in the same twenty minutes of a thin lobby meet far more often than a clock
-- hour's mix of everyone expects (a blind tester's honest night: 44 suspicions with hours,
-- none with half hours). Fifteen minutes lost planted pairs that play less (recall 0.85 on
-- a 4,000-game night); half hours keep them (benchmarks/README.md, fair play).

-- The tables below number players, games and strata (players and strata in no particular
-- order, games in table order; only within this run) so that the joins over every seat
-- hold integers, not ids: at ten million hands the same joins over ids ran out of 512MB.

-- name: players
CREATE OR REPLACE TEMP TABLE co_player AS
SELECT player_id, CAST(row_number() OVER () AS INTEGER) AS p FROM (SELECT DISTINCT player_id FROM seat)

-- name: games
-- One row per game dealt (gm numbered in table order: by table, then start), its stratum
-- (si), and prev: the table's game just before (gm - 1), when it ended less than
-- $break_minutes minutes before this one began (a player seated in both stayed: see
-- sittings at the top). Left for shared identity, which drops it.
CREATE OR REPLACE TEMP TABLE co_game AS
WITH lobby AS (
    SELECT game_id, table_id, started_at, ended_at,
           coalesce(chip_type = 'tournament', false) AS platform,
           concat_ws('|', format, chip_type, coalesce(CAST(entry_fee AS VARCHAR), '-'),
                     coalesce(CAST(point_value AS VARCHAR), '-'), CAST(cards_per_hand AS VARCHAR),
                     coalesce(CAST(max_players AS VARCHAR), '-'),
                     CAST(time_bucket(INTERVAL 30 MINUTE, started_at) AS VARCHAR)) AS s
    FROM g SEMI JOIN (SELECT DISTINCT game_id FROM seat) USING (game_id)
), numbered AS (
    SELECT l.game_id, l.table_id, l.started_at, l.ended_at, l.platform, st.si,
           CAST(row_number() OVER (ORDER BY l.table_id, l.started_at, l.game_id) AS INTEGER) AS gm
    FROM lobby l
    JOIN (SELECT s, CAST(row_number() OVER () AS INTEGER) AS si FROM (SELECT DISTINCT s FROM lobby)) st
      USING (s)
)
SELECT game_id, gm, si, platform,
       CASE WHEN table_id IS NOT NULL AND lag(ended_at) OVER (PARTITION BY table_id ORDER BY gm)
                 >= started_at - to_minutes(CAST($break_minutes AS BIGINT))
            THEN gm - 1 END AS prev
FROM numbered

-- name: seated
-- fresh: the player sat down at this game (was not seated in the table's game just before)
CREATE OR REPLACE TEMP TABLE co_gp AS
WITH gp AS (
    SELECT DISTINCT cg.gm, cp.p, cg.platform, cg.prev
    FROM seat JOIN co_game cg USING (game_id) JOIN co_player cp USING (player_id)
)
SELECT gp.gm, gp.p, gp.platform, o.gm IS NULL AS fresh
FROM gp LEFT JOIN gp o ON o.gm = gp.prev AND o.p = gp.p

-- name: sizes
-- n players, f of them fresh: the game begins the sittings together of n(n-1)/2 - (n-f)(n-f-1)/2
-- pairs, f(2n - f - 1) / 2
CREATE OR REPLACE TEMP TABLE co_size AS
SELECT gp.gm, any_value(cg.si) AS si, count(*) AS n, count(*) FILTER (WHERE gp.fresh) AS f
FROM co_gp gp JOIN co_game cg USING (gm)
GROUP BY gp.gm

-- name: weights
-- w: a player's sittings begun with another player (all n - 1 at a game they sat down at,
-- the f who sat down at one they stayed at); wg: their games' opponents, n - 1 a game (the
-- games model, for shared identity's test of one device at one table at once)
CREATE OR REPLACE TEMP TABLE co_weight AS
SELECT sz.si, gp.p, sum(CASE WHEN gp.fresh THEN sz.n - 1 ELSE sz.f END) AS w,
       sum(sz.n - 1) AS wg
FROM co_gp gp JOIN co_size sz USING (gm)
GROUP BY ALL

-- name: totals
CREATE OR REPLACE TEMP TABLE co_total AS
SELECT sz.si, sum(sz.f * (2 * sz.n - sz.f - 1)) AS w2, sum(sz.n * (sz.n - 1)) AS g2,
       bool_or(g.platform) AS platform
FROM co_size sz JOIN co_game g USING (gm) GROUP BY ALL

-- name: pairs
-- One part of the pairs: those whose first player's number falls in part $part of $parts.
-- Each pair once, its ids in order (a < b).
WITH together AS (
    SELECT a.p AS a, b.p AS b, count(*) AS games,
           count(*) FILTER (WHERE NOT a.platform) AS chosen_games,
           count(*) FILTER (WHERE a.fresh OR b.fresh) AS sittings,
           count(*) FILTER (WHERE (a.fresh OR b.fresh) AND NOT a.platform) AS chosen
    FROM co_gp a JOIN co_gp b ON a.gm = b.gm AND a.p < b.p
    WHERE a.p % $parts = $part
    GROUP BY ALL
), mine AS MATERIALIZED (  -- each pair with A's strata: joined first, never stratum x stratum
    SELECT t.a, t.b, t.games, t.chosen_games, t.sittings, t.chosen, wa.si, wa.w, wa.wg
    FROM together t JOIN co_weight wa ON wa.p = t.a
), expected AS (
    -- Fractions are summed as DECIMAL: exact, so the same bits in any order (a parallel sum
    -- of doubles is not, and the p-value would change in its last digits from run to run).
    -- Each stratum's share (x) once, summed over all of them and over those outside
    -- tournaments (chosen_expected: see the top); xg, the games model's.
    SELECT a, b, any_value(games) AS games, any_value(chosen_games) AS chosen_games,
           any_value(sittings) AS sittings, any_value(chosen) AS chosen,
           CAST(sum(x) AS DOUBLE) AS expected,
           CAST(coalesce(sum(x) FILTER (WHERE NOT platform), 0) AS DOUBLE) AS chosen_expected,
           CAST(sum(xg) AS DOUBLE) AS expected_games
    FROM (
        SELECT m.a, m.b, m.games, m.chosen_games, m.sittings, m.chosen, total.platform,
               CASE WHEN m.w > 0 AND wb.w > 0
                    THEN CAST(m.w * wb.w * (1 / (total.w2 - m.w) + 1 / (total.w2 - wb.w)) / 2
                              AS DECIMAL(38, 18))
                    ELSE 0 END AS x,
               CAST(m.wg * wb.wg * (1 / (total.g2 - m.wg) + 1 / (total.g2 - wb.wg)) / 2
                    AS DECIMAL(38, 18)) AS xg
        FROM mine m
        JOIN co_weight wb ON wb.p = m.b AND wb.si = m.si
        JOIN co_total total ON total.si = m.si
    )
    GROUP BY a, b
)
SELECT least(pa.player_id, pb.player_id) AS a, greatest(pa.player_id, pb.player_id) AS b,
       e.games, e.chosen_games, e.sittings, e.expected, e.chosen, e.chosen_expected,
       e.expected_games
FROM expected e JOIN co_player pa ON pa.p = e.a JOIN co_player pb ON pb.p = e.b

-- name: evidence
-- the games where the pair sat down together, one a sitting (a game both were dealt into
-- whose table's game just before did not seat both), that they chose (not tournaments:
-- see the top)
WITH shared AS (
    SELECT f.a, f.b, a.game_id, min(a.hand_id) AS hand_id, count(*) AS weight
    FROM flagged f
    JOIN seat a ON a.player_id = f.a
    JOIN seat b ON b.hand_id = a.hand_id AND b.player_id = f.b
    WHERE a.chip_type IS DISTINCT FROM 'tournament'
    GROUP BY ALL
)
SELECT s.a, s.b, s.game_id, s.hand_id, s.weight
FROM shared s
JOIN co_game cg USING (game_id)
LEFT JOIN co_game before ON before.gm = cg.prev
ANTI JOIN shared stayed
  ON stayed.a = s.a AND stayed.b = s.b AND stayed.game_id = before.game_id
