-- Co-seating: two accounts who sit down at one table together far more often than their
-- play volume predicts.
--
-- Sittings: a player seated in a game whose last game at the same table (the same
-- table_id in the same lobby) ended less than $break_minutes minutes before this one began
-- stayed; otherwise they sat down. A pair's sitting together begins at a game both are in
-- where either sat down, and lasts while both stay: the unit counted is the sitting, not
-- the game. Players who stay seated deal after deal did not choose each other again at
-- every deal, and the contract lets a points platform write each deal as a game of its own
-- (log-format.md, hands: a "game" in points). (Until 2026-12-07 the games were counted: a
-- blind tester's honest night of sticky six-seat tables, one games row a deal, gave 346
-- co-seating suspicions, each pair's hours at one table counted as a hundred random
-- seatings.) A table is its table_id within its lobby, as a platform may number each
-- lobby's tables alike (a second tester's honest night with T001 at three stakes at once
-- gave 159 suspicions while the table's previous game, whatever its stake, said who
-- stayed); a player's last game at the table is theirs, so sitting out a deal or two is
-- staying. Where every game is a table of its own, each game is a sitting and nothing
-- changes.
--
-- Null model: random seating. Within a stratum -- one lobby (format, chip type, stake,
-- cards per hand, table size) in one half hour of game starts -- an account that sits down
-- finds at the table whoever random seating put there: each other account is at any seat
-- not its own as often as it fills the stratum's seats. B fills q_B of them, its games
-- there, of Q, the sum over the stratum's games of n (the seats not A's: Q - q_A). A sitting
-- together belongs to those who began it by sitting down, half to each when both did: at
-- a game of n players, f of whom sat down, an account that sat down begins n - f sittings
-- with those who stayed and half of f - 1 with those who sat down too, u = (2n - f - 1) / 2
-- (the stratum's u add up to its sittings together, the sum of f * (2n - f - 1) / 2). The
-- number of sittings A and B share is Poisson with mean the sum over strata of
-- u_A * q_B / (Q - q_A) + u_B * q_A / (Q - q_B); over all pairs these add up to the
-- stratum's sittings, and the only two players of a heads-up lobby are expected to share
-- every sitting. (Until 2026-12-07 this was the configuration model, which weighs both
-- accounts by the sittings they begin. At a lobby of sticky tables those who move begin
-- most sittings, so it expected two movers to meet far more often than they do, and a
-- mover to meet those who stay less: on synthetic lobbies of twelve sticky tables, movers
-- with movers 1,317 sittings against 1,996 expected, movers with stayers 6,750 against
-- 4,402, stayers with stayers 720 against 2,235; now 1,758, 6,032 and 814 expected. A
-- pair who moved together, 18 sittings against 6.58 expected, was not named; now against
-- 2.76, it is: test_co_seating_finds_a_pair_that_moves_together_among_tables_whose_...)
-- Carry-over: a platform that seats from a queue puts players who leave one game at the
-- same moment at one table again, whoever they are, and two who left together once may
-- well leave together again. Each time a pair left one game together (each went straight
-- to a table they sat down at, less than break_minutes after the game ended: moves), the
-- mean adds r, the lobby's carry-over measured on the night (carry): for each pair who
-- ever left one game together, the share of those times they were seated at one game
-- again; the lowest four fifths of those shares summed, over their number plus 20. Each
-- pair is one vote, so that colluders who move together all night count once, and the
-- fifth of the pairs that land together most are left out, where such colluders are; the
-- 20 pull a lobby with few such pairs to no carry-over. Where the platform lets players
-- choose, few honest pairs who leave together land together, and r is 0 or small; a
-- queue's is about half. (Until 2026-12-07 there was none: a blind tester's three honest
-- nights of a platform that seats the queue six to a new table gave 14, 6 and 11
-- co-seating suspicions, 7 `minor`, and a `shared_device` on a carrier's address: none
-- now.) Adding to the mean, it never makes a suspicion where there was none; on such a
-- platform a pair who move together by choice look as the queue does, and are not seen.
-- Only pairs that shared a game are listed: a pair that never met cannot be suspicious, and
-- the test conditions on at least one sitting together.
-- Tournament games (chip_type 'tournament') are seated by the platform, not chosen: they
-- count toward nothing the pair is tested on (chosen, chosen_expected: the sittings and
-- expectation outside them), only toward shared identity's expectation (expected),
-- where two accounts on one device sit at one table however they were seated. (Until
-- 2026-12-07 a blind tester's two tournament tables of six, the same players 40 games
-- each, gave 15 `minor` co-seatings a table: 40 games together against 18.18 expected.)
-- Benign reading: friends or family who choose to play together; where the platform seats
-- from a queue, players who keep leaving their tables at the same moment.
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

-- name: games
-- One row per game dealt (gm), its stratum (si), and its table (tk: the table_id within its
-- lobby, see sittings at the top). Left for shared identity, which drops it.
CREATE OR REPLACE TEMP TABLE co_game AS
WITH lobby AS (
    SELECT game_id, started_at, ended_at,
           coalesce(chip_type = 'tournament', false) AS platform,
           concat_ws('|', format, chip_type, coalesce(CAST(entry_fee AS VARCHAR), '-'),
                     coalesce(CAST(point_value AS VARCHAR), '-'), CAST(cards_per_hand AS VARCHAR),
                     coalesce(CAST(max_players AS VARCHAR), '-')) AS lobby,
           table_id
    FROM g SEMI JOIN (SELECT DISTINCT game_id FROM seat) USING (game_id)
), strata AS (
    SELECT *, concat_ws('|', lobby, CAST(time_bucket(INTERVAL 30 MINUTE, started_at) AS VARCHAR))
              AS s
    FROM lobby
)
SELECT l.game_id, CAST(row_number() OVER () AS INTEGER) AS gm, st.si, l.platform,
       hash(l.lobby) AS lb,
       CASE WHEN l.table_id IS NOT NULL THEN hash(l.table_id, l.lobby) END AS tk,
       l.started_at, l.ended_at,
       l.started_at - to_minutes(CAST($break_minutes AS BIGINT)) AS stay_from
FROM strata l
JOIN (SELECT s, CAST(row_number() OVER () AS INTEGER) AS si FROM (SELECT DISTINCT s FROM strata)) st
  USING (s)

-- name: stays
-- Each player's games: fresh where they sat down (their last game at the same table, if
-- any, ended before stay_from: this game's start less break_minutes, a column of co_game
-- since a view takes no parameters), and their sittings at each table numbered (sitting).
-- Read by co-seating and by shared identity.
CREATE OR REPLACE TEMP VIEW co_stay AS
WITH played AS (
    SELECT s.player_id, s.game_id, cg.tk, cg.started_at,
           cg.tk IS NULL OR NOT coalesce(lag(cg.ended_at) OVER at_table >= cg.stay_from, false)
           AS fresh
    FROM (SELECT DISTINCT player_id, game_id FROM seat) s JOIN co_game cg USING (game_id)
    WINDOW at_table AS (PARTITION BY s.player_id, cg.tk ORDER BY cg.started_at, s.game_id)
)
SELECT player_id, game_id, tk, fresh,
       sum(CAST(fresh AS INTEGER)) OVER (PARTITION BY player_id, tk ORDER BY started_at, game_id)
       AS sitting
FROM played

-- name: seated
CREATE OR REPLACE TEMP TABLE co_gp AS
SELECT cg.gm, cp.p, cg.platform, st.fresh
FROM co_stay st JOIN co_game cg USING (game_id) JOIN co_player cp USING (player_id)

-- name: sizes
-- n players, f of them fresh: the game begins the sittings together of n(n-1)/2 - (n-f)(n-f-1)/2
-- pairs, f(2n - f - 1) / 2
CREATE OR REPLACE TEMP TABLE co_size AS
SELECT gp.gm, any_value(cg.si) AS si, count(*) AS n, count(*) FILTER (WHERE gp.fresh) AS f
FROM co_gp gp JOIN co_game cg USING (gm)
GROUP BY gp.gm

-- name: weights
-- u2: twice the sittings together a player began by sitting down (at each game they sat down
-- at, n - 1 + n - f: see the null model at the top); q: their games in the stratum, how
-- much of its seating they fill; wg: their games' opponents, n - 1 a game (the games
-- model, for shared identity's test of one device at one table at once)
CREATE OR REPLACE TEMP TABLE co_weight AS
SELECT sz.si, gp.p, sum(CASE WHEN gp.fresh THEN 2 * sz.n - sz.f - 1 ELSE 0 END) AS u2,
       count(*) AS q, sum(sz.n - 1) AS wg
FROM co_gp gp JOIN co_size sz USING (gm)
GROUP BY ALL

-- name: totals
-- q: the stratum's seats, game by game; g2: the games model's total weight
CREATE OR REPLACE TEMP TABLE co_total AS
SELECT sz.si, sum(sz.n) AS q, sum(sz.n * (sz.n - 1)) AS g2, bool_or(g.platform) AS platform
FROM co_size sz JOIN co_game g USING (gm) GROUP BY ALL

-- name: moves
-- Each time a player went straight from one game to a table they sat down at (their next
-- game, fresh, began less than break_minutes after this one ended): the game left (gm), its
-- lobby (lb), the game joined (next) and whether a tournament seated them there
CREATE OR REPLACE TEMP TABLE co_move AS
WITH seq AS (
    SELECT gp.p, gp.gm, cg.lb, cg.ended_at,
           lead(gp.gm) OVER w AS next, lead(gp.fresh) OVER w AS next_fresh,
           lead(cg.stay_from) OVER w AS next_from, lead(cg.platform) OVER w AS next_platform
    FROM co_gp gp JOIN co_game cg USING (gm)
    -- by game_id where two start at once: gm is numbered afresh each run
    WINDOW w AS (PARTITION BY gp.p ORDER BY cg.started_at, cg.game_id)
)
SELECT p, gm, lb, next, next_platform AS platform
FROM seq WHERE next_fresh AND ended_at >= next_from

-- name: left
-- Each pair who left one game together, by lobby: how often (c; chosen_c, neither joining a
-- tournament), how often seated at one game again (landed; moved, outside tournaments)
CREATE OR REPLACE TEMP TABLE co_left AS
SELECT a.p AS a, b.p AS b, a.lb, count(*) AS c,
       count(*) FILTER (WHERE NOT (a.platform OR b.platform)) AS chosen_c,
       count(*) FILTER (WHERE a.next = b.next) AS landed,
       count(*) FILTER (WHERE a.next = b.next AND NOT a.platform) AS moved
FROM co_move a JOIN co_move b ON a.gm = b.gm AND a.p < b.p
GROUP BY ALL

-- name: carry
-- Each lobby's carry-over (r): for each pair who ever left one game together, the share of
-- those times they were seated at one game again; the lowest four fifths of those shares
-- summed, over their number plus 20 (each pair one vote, the fifth that land together most
-- left out, where any pairs who move together by choice are; the 20 pull a lobby with few
-- such pairs to none: see the top)
CREATE OR REPLACE TEMP TABLE co_carry AS
WITH ranked AS (
    SELECT lb, CAST(landed / c AS DECIMAL(38, 18)) AS share,
           row_number() OVER (PARTITION BY lb ORDER BY landed / c) AS k,
           count(*) OVER (PARTITION BY lb) AS pairs
    FROM co_left
)
SELECT lb, CAST(sum(share) / (count(*) + 20) AS DECIMAL(38, 18)) AS r
FROM ranked WHERE k <= pairs * 4 // 5
GROUP BY lb

-- name: pairs
-- One part of the pairs: those whose first player's number falls in part $part of $parts.
-- Each pair once, its ids in order (a < b).
WITH together AS (
    SELECT a.p AS a, b.p AS b, count(*) AS games,
           count(*) FILTER (WHERE NOT a.platform) AS chosen_games,
           count(*) FILTER (WHERE (a.fresh OR b.fresh) AND NOT a.platform) AS chosen
    FROM co_gp a JOIN co_gp b ON a.gm = b.gm AND a.p < b.p
    WHERE a.p % $parts = $part
    GROUP BY ALL
), moved AS (  -- each time the pair left one game together, the lobby's carry-over
    SELECT l.a, l.b, sum(l.moved) AS moved, sum(l.c * k.r) AS carried,
           sum(l.chosen_c * k.r) AS chosen_carried
    FROM co_left l JOIN co_carry k USING (lb)
    WHERE l.a % $parts = $part
    GROUP BY ALL
), mine AS MATERIALIZED (  -- each pair with A's strata: joined first, never stratum x stratum
    SELECT t.a, t.b, t.games, t.chosen_games, t.chosen, wa.si, wa.u2, wa.q, wa.wg
    FROM together t JOIN co_weight wa ON wa.p = t.a
), expected AS (
    -- Fractions are summed as DECIMAL: exact, so the same bits in any order (a parallel sum
    -- of doubles is not, and the p-value would change in its last digits from run to run).
    -- Each stratum's share (x) once, summed over all of them and over those outside
    -- tournaments (chosen_expected: see the top); xg, the games model's.
    SELECT a, b, any_value(games) AS games, any_value(chosen_games) AS chosen_games,
           any_value(chosen) AS chosen,
           CAST(sum(x) AS DOUBLE) AS expected,
           CAST(coalesce(sum(x) FILTER (WHERE NOT platform), 0) AS DOUBLE) AS chosen_expected,
           CAST(sum(xg) AS DOUBLE) AS expected_games
    FROM (
        SELECT m.a, m.b, m.games, m.chosen_games, m.chosen, total.platform,
               CAST((m.u2 * wb.q / (total.q - m.q) + wb.u2 * m.q / (total.q - wb.q)) / 2
                    AS DECIMAL(38, 18)) AS x,
               CAST(m.wg * wb.wg * (1 / (total.g2 - m.wg) + 1 / (total.g2 - wb.wg)) / 2
                    AS DECIMAL(38, 18)) AS xg
        FROM mine m
        JOIN co_weight wb ON wb.p = m.b AND wb.si = m.si
        JOIN co_total total ON total.si = m.si
    )
    GROUP BY a, b
)
SELECT least(pa.player_id, pb.player_id) AS a, greatest(pa.player_id, pb.player_id) AS b,
       e.games, e.chosen_games,
       e.expected + CAST(coalesce(m.carried, 0) AS DOUBLE) AS expected, e.chosen,
       e.chosen_expected + CAST(coalesce(m.chosen_carried, 0) AS DOUBLE) AS chosen_expected,
       e.expected_games, coalesce(m.moved, 0) AS moved,
       CAST(coalesce(m.chosen_carried, 0) AS DOUBLE) AS carried
FROM expected e JOIN co_player pa ON pa.p = e.a JOIN co_player pb ON pb.p = e.b
LEFT JOIN moved m ON m.a = e.a AND m.b = e.b

-- name: evidence
-- the games where the pair sat down together, one a sitting (a game both were dealt into
-- where either sat down), that they chose (not tournaments: see the top)
SELECT f.a, f.b, a.game_id, min(a.hand_id) AS hand_id, count(*) AS weight
FROM flagged f
JOIN seat a ON a.player_id = f.a
JOIN seat b ON b.hand_id = a.hand_id AND b.player_id = f.b
JOIN co_stay sa ON sa.player_id = f.a AND sa.game_id = a.game_id
JOIN co_stay sb ON sb.player_id = f.b AND sb.game_id = a.game_id
WHERE a.chip_type IS DISTINCT FROM 'tournament' AND (sa.fresh OR sb.fresh)
GROUP BY ALL
