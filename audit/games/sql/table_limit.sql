-- table.limit: how many tables a player may play at once (000_1729c72ad4c1f885.txt:
-- "total of 3 tables can be played upon at any point of time in App and 5 tables can be
-- played upon at any point in PC (3 cash/practice game tables and 2 tournament tables or
-- 5 tournament tables)").
--
-- The pattern: a player seated in more games at the same moment than the client allows:
-- from the app more than 3 games; from the web more than 5 games, or more than 3 games that
-- are not tournament games (chip_type practice or real; a game missing from `games` counts
-- as not a tournament). A player is seated in a game, on one client, from their first join
-- to their last leave of a run of connections to it on that client, none on the other
-- between (reconnections to one game are one seat; since 2026-12-07 a move to the other
-- client and back is three); seats are half-open,
-- [joined_at, left_at), so leaving one table as another opens is not two at once.
-- Each episode is reported once: the first moment the count passes the limit, after a
-- moment (or the start) within it, with its peak (the most of the count that passed the
-- limit, and the first moment it was reached), the games the player was seated at then,
-- and its end (the first moment back within the limit: at the latest the last leave).
-- Until 2026-12-07 an episode gave only its first count, which was the peak or not as the
-- tables happened to join a second apart or at once, and neither its games nor its end (a
-- blind tester).
--
-- Seats judged on an earlier night (the nightly audit's, docs/nightly.md) come as rows with
-- `earlier` true, beside tonight's: they count as any seat, and an episode that their rows
-- alone already take over the limit at some moment was reported that night (when it was
-- first over the limit), so it is not reported again, however it grows tonight. A seat
-- with rows of both kinds counts from its first to its last row, and as earlier from its
-- first to its last earlier row. The moments are counted twice, in two worlds: every row
-- (`earlier` false), and the earlier rows alone (`earlier` true; none in a `replay`, so it
-- costs that a second scan that finds nothing). An episode of the first is reported when
-- no episode of the second starts within it (each of those is within one of the first).
--
-- The limits are the ruleset's (tables.app_max, tables.web_max, tables.web_cash_max), given
-- as the parameters $app_max, $web_max and $web_cash_max.
-- Input views: sessions (player_id, client, game_id, joined_at, left_at, as in the
-- contract's sessions table, and earlier; only the rows the staging does not quarantine,
-- tables.sessions_view) and games (game_id, chip_type).
-- Output: one row per episode, ordered by player and time, naming the game that passed the
-- limit (the least id of the games joined at that moment), the counts then, the peak, its
-- moment and games (the games counted: every one, or the cash and practice ones when that
-- count passed the web's limit), and the end. A game is a tournament when a games row says
-- so.
--
-- The seats are named once below: a CTE named twice is held whole in memory by DuckDB,
-- which took it past its memory limit at a million hands. The episodes are told apart
-- (`runs`, `known`) over the moments the count crosses a limit and, of every row's world,
-- those over it only: a few rows. The games at a peak are read from the sessions again, of
-- the few players with an episode only (`peak_seats`): naming `seats` or `islands` again
-- would hold them whole until the episodes are known.
WITH tournaments AS (
    SELECT DISTINCT game_id FROM games WHERE chip_type = 'tournament'
),
-- A run of a player's rows of one game on one client, in the order they joined, is one
-- seat (`run`: the gaps-and-islands difference of two row numbers; the earlier rows'
-- seats are their rows of each such run, an earlier night's rows coming before tonight's):
-- a player who moved the game to the other client and back held it on the other client
-- meanwhile (a blind tester: app, then web for 40 minutes, then app again read as an app
-- table all along, and a 4th app table beside 3). Only the games a player joined from both
-- clients are numbered so (`two_clients`, a few); the others' rows of a client are one run.
two_clients AS (
    SELECT player_id, game_id FROM sessions
    GROUP BY player_id, game_id HAVING min(client) <> max(client)
),
islands AS (
    SELECT player_id, client, earlier, game_id, joined_at, left_at, 0 AS run
    FROM sessions ANTI JOIN two_clients USING (player_id, game_id)
    UNION ALL
    SELECT player_id, client, earlier, game_id, joined_at, left_at,
           row_number() OVER (PARTITION BY player_id, game_id ORDER BY joined_at, left_at, client)
           - row_number() OVER (PARTITION BY player_id, game_id, client
                                ORDER BY joined_at, left_at) AS run
    FROM sessions SEMI JOIN two_clients USING (player_id, game_id)
),
seats AS (
    SELECT player_id, client, earlier, game_id, joined_at, left_at,
           t.game_id IS NULL AS cash
    FROM (
        SELECT player_id, client, false AS earlier, game_id, min(joined_at) AS joined_at,
               max(left_at) AS left_at
        FROM islands
        GROUP BY player_id, client, game_id, run
        UNION ALL
        SELECT player_id, client, true AS earlier, game_id, min(joined_at) AS joined_at,
               max(left_at) AS left_at
        FROM islands
        WHERE earlier
        GROUP BY player_id, client, game_id, run
    ) LEFT JOIN tournaments AS t USING (game_id)
),
moves AS (
    SELECT player_id, client, earlier, game_id,
           unnest([joined_at, left_at]) AS ts, unnest([1, -1]) AS seated,
           unnest([cash::INTEGER, -(cash::INTEGER)]) AS cash_seated
    FROM seats
),
steps AS (
    SELECT player_id, client, earlier, ts, sum(seated) AS seated,
           sum(cash_seated) AS cash_seated,
           min(game_id) FILTER (WHERE seated > 0) AS game_id
    FROM moves
    GROUP BY player_id, client, earlier, ts
),
counts AS (
    SELECT player_id, client, earlier, ts, game_id,
           sum(seated) OVER w AS tables, sum(cash_seated) OVER w AS cash_tables
    FROM steps
    WINDOW w AS (PARTITION BY player_id, client, earlier ORDER BY ts
                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
flagged AS (
    SELECT *,
           CASE WHEN client = 'app' THEN tables > $app_max
                ELSE tables > $web_max OR cash_tables > $web_cash_max END AS over
    FROM counts
),
-- The moments an episode starts (over, after a moment within the limit or the start) and,
-- of every row's world, ends, and the moments it is over the limit (for its peak).
crossings AS (
    SELECT * FROM (
        SELECT *, coalesce(lag(over) OVER (PARTITION BY player_id, client, earlier
                                           ORDER BY ts), false) AS was_over
        FROM flagged
    )
    WHERE CASE WHEN earlier THEN over AND NOT was_over ELSE over OR was_over END
),
-- An episode's crossings share `run`, the count of episodes of every row ended before.
runs AS (
    SELECT *, sum((NOT over)::INTEGER) OVER (PARTITION BY player_id, client ORDER BY ts) AS run
    FROM crossings
),
known AS (
    SELECT *, bool_or(earlier) OVER (PARTITION BY player_id, client, run) AS reported,
           lead(ts) OVER (PARTITION BY player_id, client, earlier ORDER BY ts) AS next_ts
    FROM runs
),
-- Tonight's episodes: each moment over the limit, with the count that passed it at the
-- start (`all_tables`: every table, else the web's cash and practice ones) and its peak.
tonight AS (
    SELECT *, max(counted) OVER (PARTITION BY player_id, client, run) AS peak
    FROM (
        SELECT *, CASE WHEN all_tables THEN tables ELSE cash_tables END AS counted
        FROM (
            SELECT *, first_value(client = 'app' OR tables > $web_max)
                      OVER (PARTITION BY player_id, client, run ORDER BY ts) AS all_tables
            FROM known
            WHERE over AND NOT earlier AND NOT reported
        )
    )
),
-- The end is the moment after the last one over the limit (its world's next crossing).
episodes AS (
    SELECT player_id, client, min(ts) AS ts, arg_min(tables, ts) AS tables,
           arg_min(cash_tables, ts) AS cash_tables, arg_min(game_id, ts) AS game_id,
           any_value(all_tables) AS all_tables, any_value(peak) AS peak,
           min(ts) FILTER (WHERE counted = peak) AS peak_ts, max(next_ts) AS ended
    FROM tonight
    GROUP BY player_id, client, run
),
-- The seats of the players with an episode, as `islands` and `seats` make them (a game
-- joined from both clients numbered in runs), from every row.
peak_seats AS (
    SELECT player_id, client, game_id, min(joined_at) AS joined_at, max(left_at) AS left_at
    FROM (
        SELECT *,
               CASE WHEN min(client) OVER g = max(client) OVER g THEN 0
                    ELSE row_number() OVER (g ORDER BY joined_at, left_at, client)
                         - row_number() OVER (PARTITION BY player_id, game_id, client
                                              ORDER BY joined_at, left_at) END AS run
        FROM sessions SEMI JOIN episodes USING (player_id)
        WINDOW g AS (PARTITION BY player_id, game_id)
    )
    GROUP BY player_id, client, game_id, run
),
-- The games counted at each peak: the player's seats open then (the cash and practice
-- ones only when those passed the limit).
peak_games AS (
    SELECT e.player_id, e.client, e.ts, list(DISTINCT s.game_id ORDER BY s.game_id) AS games
    FROM episodes AS e
    JOIN peak_seats AS s
      ON s.player_id = e.player_id AND s.client = e.client
     AND s.joined_at <= e.peak_ts AND s.left_at > e.peak_ts
    WHERE e.all_tables
       OR s.game_id NOT IN (SELECT game_id FROM games
                            WHERE chip_type = 'tournament' AND game_id IS NOT NULL)
    GROUP BY e.player_id, e.client, e.ts
)
SELECT e.player_id, e.client, epoch_ms(e.ts) AS at_ms, e.tables, e.cash_tables, e.game_id,
       e.peak, epoch_ms(e.peak_ts) AS peak_ms, g.games, epoch_ms(e.ended) AS ended_ms
FROM episodes AS e
LEFT JOIN peak_games AS g USING (player_id, client, ts)
ORDER BY e.player_id, e.ts, e.client
