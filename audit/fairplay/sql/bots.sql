-- Bots: decision times too regular for a person.
--
-- A decision is a player's own action (a draw, discard, drop, declaration or show, not one
-- the server made for them) timed from the event before it in the hand. People's decision
-- times spread widely (right-skewed, varying with how hard the decision is); a program's
-- cluster around one value. The statistic is the share of an account's decisions within
-- $window (a factor, e.g. 1.1 = +-10 %) of its own median time. Null model: a person's log
-- decision times are spread at least as widely as a normal law of standard deviation
-- $sigma (log-seconds), which puts at most p0 = 2 Phi(ln($window) / $sigma) - 1 of them in
-- that window; the count is binomial. Accounts with fewer than $min_decisions decisions
-- are not tested. Reported with it: the spread (log-sd), whether the time depends on the
-- kind of decision, the longest stretch of play without a break of $break_minutes minutes,
-- and the clock hours played.
-- Benign reading: a player using the client's auto-play or pre-selected moves.

-- name: decisions
-- Written to Parquet in $parts parts by the hash of the account (detectors.bots).
SELECT player_id, action, ln(secs) AS lt, hash(player_id) % $parts AS part
FROM (
    SELECT player_id, action, auto,
           (epoch_ms(ts) - lag(epoch_ms(ts)) OVER (PARTITION BY hand_id ORDER BY seq)) / 1000.0 AS secs
    FROM ev
)
WHERE NOT auto AND player_id IS NOT NULL AND secs > 0
  AND action IN ('draw_stock', 'draw_discard', 'discard', 'drop', 'declare', 'show')

-- name: accounts
-- The accounts of one part, whose decisions are the view decision_part.
WITH centre AS (  -- sums as DECIMAL (exact in any order), not stddev_samp's parallel doubles
    SELECT player_id, n, mid, sqrt(greatest((s2 - s1 * s1 / n) / (n - 1), 0)) AS sd
    FROM (
        SELECT player_id, count(*) AS n, median(lt) AS mid,
               CAST(sum(CAST(lt AS DECIMAL(38, 18))) AS DOUBLE) AS s1,
               CAST(sum(CAST(lt * lt AS DECIMAL(38, 18))) AS DOUBLE) AS s2
        FROM decision_part GROUP BY player_id HAVING count(*) >= $min_decisions
    )
)
SELECT c.player_id, c.n, count(*) FILTER (WHERE abs(d.lt - c.mid) <= ln($window)) AS k,
       exp(c.mid) AS median_s, c.sd
FROM centre c JOIN decision_part d USING (player_id)
GROUP BY ALL

-- name: detail
SELECT d.player_id AS a,
       exp(median(d.lt) FILTER (WHERE d.action IN ('discard', 'declare', 'show', 'drop'))
           - median(d.lt) FILTER (WHERE d.action IN ('draw_stock', 'draw_discard')))
         AS play_draw_ratio
FROM decision d SEMI JOIN flagged f ON f.a = d.player_id
GROUP BY d.player_id

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
