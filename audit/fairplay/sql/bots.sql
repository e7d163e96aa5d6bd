-- Bots: decision times too regular for a person.
--
-- A decision is a player's own action (a draw, discard, drop, declaration or show, not one
-- the server made for them) timed from the event before it in the hand; its kind is its
-- action. People's decision times spread widely (right-skewed, varying with how hard the
-- decision is), within one kind as much as across kinds; a program's cluster around one
-- value per kind (a bot may wait 1.0 s to draw and 2.5 s to discard: around one median of
-- the whole, few of its decisions are near it). The statistic is the share of an account's
-- decisions within $window (a factor, e.g. 1.1 = +-10 %) of the median time of the other
-- decisions of their kind: never of the decision itself, which a kind of three would
-- otherwise put in the window every time; a decision alone of its kind is not judged.
-- Null model: a person's log decision times of one kind are spread at least as widely as
-- a normal law of standard deviation $sigma (log-seconds); a decision is independent of the
-- others' median, and a window on a unimodal symmetric law holds the most when it is
-- centred, so at most p0 = 2 Phi(ln($window) / $sigma) - 1 of them fall in their window;
-- the count is binomial. Accounts with fewer than $min_decisions judged decisions are not
-- tested. Reported with it: the spread within a kind (pooled log-sd), the median of each
-- kind and whether plays take longer than draws, the longest stretch of play without a
-- break of $break_minutes minutes, and the clock hours played.
-- Benign reading: a player using the client's auto-play or pre-selected moves.

-- name: players
-- Each account of the night's events a number (pn). The decisions are written and ranked
-- by it and by their kind's number (ac, in detectors.KINDS' order): integers, which DuckDB
-- sorts about four times as fast as names (the million-hand night's ranking took 21 s).
CREATE OR REPLACE TEMP TABLE bot_player AS
SELECT player_id, CAST(row_number() OVER (ORDER BY player_id) AS INTEGER) AS pn
FROM (SELECT DISTINCT player_id FROM ev WHERE player_id IS NOT NULL)

-- name: hands
-- Each hand a number (hn), by which the decisions' times are taken apart: ranking the
-- night's events by an integer is about twice as fast as by the hand's id.
CREATE OR REPLACE TEMP TABLE bot_hand AS
SELECT hand_id, CAST(row_number() OVER () AS INTEGER) AS hn FROM (SELECT DISTINCT hand_id FROM ev)

-- name: decisions
-- Written to Parquet in $parts parts by the account's number (detectors.bots). Each event
-- is timed from the one before it in its hand, whoever's it was (so no row leaves first).
SELECT pn, ac, ln(secs) AS lt, pn % $parts AS part
FROM (
    SELECT pn, auto, ac, (ms - lag(ms) OVER (PARTITION BY hn ORDER BY seq)) / 1000.0 AS secs
    FROM (
        SELECT h.hn, e.seq, epoch_ms(e.ts) AS ms, p.pn, e.auto,
               CAST(list_position($kinds, e.action) AS UTINYINT) AS ac
        FROM ev e JOIN bot_hand h USING (hand_id) LEFT JOIN bot_player p USING (player_id)
    )
)
WHERE NOT auto AND secs > 0 AND ac IS NOT NULL AND pn IS NOT NULL

-- name: clock
-- The night's timed decisions over every account, each kind's log-times about that kind's
-- mean: how many, and their pooled spread (log-sd). The null model says one person's
-- decisions of a kind spread at least sigma (Settings). A whole night of accounts spreading
-- less than one person may is a clock that does not time decisions (each event a fixed
-- step after the one before it, as a log a program wrote), not a night of bots: the test
-- cannot tell its accounts apart, and does not run (detectors.bots).
SELECT sum(m) AS n,
       sqrt(greatest(CAST(sum(CAST(s2 - s1 * s1 / m AS DECIMAL(38, 18))) AS DOUBLE)
                     / (sum(m) - count(*)), 0)) AS sd
FROM (
    SELECT ac, count(*) AS m,
           CAST(sum(CAST(lt AS DECIMAL(38, 18))) AS DOUBLE) AS s1,
           CAST(sum(CAST(lt * lt AS DECIMAL(38, 18))) AS DOUBLE) AS s2
    FROM decision_number GROUP BY ac HAVING count(*) >= 2
)

-- name: accounts
-- The accounts of one part, whose decisions are the view decision_part (pn, ac, lt: the
-- account's and the kind's numbers, `players`). A decision's median is of the others of
-- its kind, from the sorted kind's middle three: with m of the kind and h = (m + 1) // 2,
-- the others' median is x(h + 1) or x(h) when m is even (below or above the middle), and
-- the mean of two of x(h - 1), x(h), x(h + 1) when it is odd.
WITH ranked AS (
    SELECT pn, ac, lt,
           row_number() OVER (PARTITION BY pn, ac ORDER BY lt) AS i,
           count(*) OVER (PARTITION BY pn, ac) AS m
    FROM decision_part
), middle AS (
    SELECT r.pn, r.ac, count(*) AS m,
           max(r.lt) FILTER (WHERE r.i = (r.m + 1) // 2 - 1) AS below,
           max(r.lt) FILTER (WHERE r.i = (r.m + 1) // 2) AS mid,
           max(r.lt) FILTER (WHERE r.i = (r.m + 1) // 2 + 1) AS above,
           -- sums as DECIMAL (exact in any order), not stddev_samp's parallel doubles
           CAST(sum(CAST(r.lt AS DECIMAL(38, 18))) AS DOUBLE) AS s1,
           CAST(sum(CAST(r.lt * r.lt AS DECIMAL(38, 18))) AS DOUBLE) AS s2
    FROM ranked r WHERE r.m >= 2 GROUP BY r.pn, r.ac
), spread AS (  -- the log-sd within a kind: each kind's squares about its own mean, pooled
    SELECT pn,
           sqrt(greatest(CAST(sum(CAST(s2 - s1 * s1 / m AS DECIMAL(38, 18))) AS DOUBLE)
                         / (sum(m) - count(*)), 0)) AS sd
    FROM middle GROUP BY ALL
), judged AS (
    SELECT r.pn, abs(r.lt - CASE
               WHEN r.m % 2 = 0 THEN CASE WHEN r.i <= (r.m + 1) // 2 THEN c.above ELSE c.mid END
               WHEN r.i < (r.m + 1) // 2 THEN (c.mid + c.above) / 2
               WHEN r.i > (r.m + 1) // 2 THEN (c.below + c.mid) / 2
               ELSE (c.below + c.above) / 2 END) AS off
    FROM ranked r JOIN middle c USING (pn, ac)
)
SELECT p.player_id, count(*) AS n, count(*) FILTER (WHERE j.off <= ln($window)) AS k, s.sd
FROM judged j JOIN spread s USING (pn) JOIN bot_player p USING (pn)
GROUP BY ALL HAVING count(*) >= $min_decisions

-- name: detail
-- Per flagged account: how much longer its plays take than its draws.
SELECT d.player_id AS a,
       exp(median(d.lt) FILTER (WHERE d.action IN ('discard', 'declare', 'show', 'drop'))
           - median(d.lt) FILTER (WHERE d.action IN ('draw_stock', 'draw_discard')))
         AS play_draw_ratio
FROM decision d SEMI JOIN flagged f ON f.a = d.player_id
GROUP BY d.player_id

-- name: kinds
-- Per flagged account: each judged kind's count and median time, the most frequent first.
SELECT d.player_id AS a, d.action, count(*) AS m, exp(median(d.lt)) AS median_s
FROM decision d SEMI JOIN flagged f ON f.a = d.player_id
GROUP BY ALL HAVING count(*) >= 2
ORDER BY a, m DESC, action

-- name: stretches
-- Per flagged account: its longest stretch of play without a break, from its sessions rows
-- (null without them: not measured, never 0), and the clock hours of its own events.
WITH s AS (
    SELECT player_id, game_id, joined_at, left_at,
           max(left_at) OVER (PARTITION BY player_id ORDER BY joined_at, left_at
                              ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
    FROM sess WHERE player_id IN (SELECT a FROM flagged)
), runs AS (
    SELECT *, sum(CASE WHEN before IS NULL
                        OR joined_at > before + to_minutes(CAST($break_minutes AS BIGINT))
                       THEN 1 ELSE 0 END)
              OVER (PARTITION BY player_id ORDER BY joined_at, left_at) AS run
    FROM s
), spans AS (
    SELECT player_id, run, (epoch_ms(max(left_at)) - epoch_ms(min(joined_at))) / 3600000.0 AS hours,
           count(DISTINCT game_id) AS games  -- a game once, however many rows (a row written
                                              -- twice, a reconnection): it counted rows
    FROM runs GROUP BY ALL
), longest AS (
    SELECT player_id, max(hours) AS longest_hours, arg_max(games, hours) AS games_in_it
    FROM spans GROUP BY ALL
), clock AS (
    SELECT player_id, count(DISTINCT hour(ts)) AS hours_played
    FROM ev WHERE player_id IN (SELECT a FROM flagged) GROUP BY ALL
)
SELECT f.a, l.longest_hours, l.games_in_it, coalesce(c.hours_played, 0) AS hours_played
FROM (SELECT DISTINCT a FROM flagged) f
LEFT JOIN longest l ON l.player_id = f.a
LEFT JOIN clock c ON c.player_id = f.a

-- name: evidence
SELECT f.a, f.a AS b, s.game_id, min(s.hand_id) AS hand_id, count(*) AS weight
FROM flagged f JOIN seat s ON s.player_id = f.a
GROUP BY ALL
