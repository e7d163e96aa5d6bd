-- table.limit: how many tables a player may play at once (000_1729c72ad4c1f885.txt:
-- "total of 3 tables can be played upon at any point of time in App and 5 tables can be
-- played upon at any point in PC (3 cash/practice game tables and 2 tournament tables or
-- 5 tournament tables)").
--
-- The pattern: a player seated in more games at the same moment than the client allows:
-- from the app more than 3 games; from the web more than 5 games, or more than 3 games that
-- are not tournament games (chip_type practice or real; a game missing from `games` counts
-- as not a tournament). A player is seated in a game, on one client, from their first join
-- to their last leave of it (reconnections to one game are one seat); seats are half-open,
-- [joined_at, left_at), so leaving one table as another opens is not two at once.
-- Each episode is reported once: the first moment the count passes the limit, after a
-- moment (or the start) within it.
--
-- The limits are the ruleset's (tables.app_max, tables.web_max, tables.web_cash_max), given
-- as the parameters $app_max, $web_max and $web_cash_max.
-- Input views: sessions (the contract's sessions table) and games (game_id, chip_type).
-- Output: one row per episode, ordered by player and time.
WITH seats AS (
    SELECT s.player_id, s.client, s.game_id,
           min(s.joined_at) AS joined_at, max(s.left_at) AS left_at,
           coalesce(any_value(g.chip_type), '') <> 'tournament' AS cash
    FROM sessions AS s
    LEFT JOIN (SELECT DISTINCT game_id, chip_type FROM games) AS g USING (game_id)
    GROUP BY s.player_id, s.client, s.game_id
),
moves AS (
    SELECT player_id, client, joined_at AS ts, 1 AS seated, cash::INTEGER AS cash_seated
    FROM seats
    UNION ALL
    SELECT player_id, client, left_at AS ts, -1, -(cash::INTEGER)
    FROM seats
),
steps AS (
    SELECT player_id, client, ts, sum(seated) AS seated, sum(cash_seated) AS cash_seated
    FROM moves
    GROUP BY player_id, client, ts
),
counts AS (
    SELECT player_id, client, ts,
           sum(seated) OVER w AS tables, sum(cash_seated) OVER w AS cash_tables
    FROM steps
    WINDOW w AS (PARTITION BY player_id, client ORDER BY ts
                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
flagged AS (
    SELECT *,
           CASE WHEN client = 'app' THEN tables > $app_max
                ELSE tables > $web_max OR cash_tables > $web_cash_max END AS over
    FROM counts
),
episodes AS (
    SELECT *, coalesce(lag(over) OVER (PARTITION BY player_id, client ORDER BY ts), false)
              AS was_over
    FROM flagged
)
SELECT e.player_id, e.client, epoch_ms(e.ts) AS at_ms, e.tables, e.cash_tables,
       (SELECT min(s.game_id) FROM seats AS s
        WHERE s.player_id = e.player_id AND s.client = e.client AND s.joined_at = e.ts)
           AS game_id
FROM episodes AS e
WHERE e.over AND NOT e.was_over
ORDER BY e.player_id, e.ts, e.client
