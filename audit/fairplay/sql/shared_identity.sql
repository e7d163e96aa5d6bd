-- Shared identity (multi-accounting): accounts that connect from one device or one IP
-- address and sit at one table, in the same game, through it.
--
-- Sharing alone is common and benign (a household's tablet, a cafe's or an office's
-- address), so the statistic is the number of times the two accounts sat down at one table
-- together (their sittings together, co_seating.sql: a run of a table's games that both
-- stayed for is one) while each was connected through that same device or address. (Until
-- 2026-12-07 it was their games: two of a blind tester's honest accounts on a carrier's
-- address, 17 deals at one sticky table written a game a deal, were suspected.)
-- Null model: two different people who share the identifier sit down at one table together
-- only as often as random seating puts any two accounts of their play volume together
-- (the co-seating expectation, co_seating.sql): Poisson. Each pair is weighted by
-- 1 / (accounts on the identifier - 1) in the Benjamini-Hochberg correction, so an address
-- many accounts share needs stronger evidence; an identifier of more than $max_accounts
-- accounts (a carrier or public network) is not tested.
-- A device is one screen: two people who share it use it in turn, never at one table at the
-- same moment. So a pair sharing a device is also tested on the games at one table where
-- both were connected through it at once (their sessions on it overlap in time): the only
-- innocent way is a device_id that is not one device (a fingerprint collision), whose
-- chance is taken as (accounts on it - 1) / ($max_accounts - 1), certain where an
-- identifier counts as public; given a collision, the two meet as random seating puts
-- them together, game by game (co-seating's games model, expected_games). The pair's
-- p-value is the smaller of this one and the one above, doubled (Bonferroni). (Until
-- 2026-12-06 a device counted as an address: a blind tester's one person on P025 and P026,
-- one device at once in 5 games of 14 each, against 1.16 expected for two regulars of one
-- lobby, was tested and not suspected.) This test counts games, not sittings: one person
-- playing two seats of one table is the cheat this detector is for, and the games model
-- keeps it (a blind tester's one person on two accounts, 38 deals of one sticky table at
-- once from one device, is one sitting: 1 against 0.43 expected, p = 0.014, not reported).
-- The price: two people whose devices do collide, seated together at a table whose
-- players stay deal after deal, are read as more evidence than one sitting is.
-- Benign reading: a family or flatmates who share a device or a connection.
-- A game counts only where both accounts were dealt into it (seated in a replayed hand of
-- it, the table ``seat``), as co-seating counts its games and its expectation: a sessions
-- row is a connection, not a seat. (Until 2026-12-06 every sessions row counted: a blind
-- tester's account in no hand, whose rows copied another's, "sat at one table" with it in
-- 16 games against 0.00 expected, `major`, with no evidence hand.) Sharing itself, and how
-- many accounts share an identifier, is every sessions row's.

-- name: pairs
WITH ident AS (
    SELECT DISTINCT 'device' AS kind, device_id AS value, player_id, game_id FROM sess
    UNION ALL
    SELECT DISTINCT 'ip' AS kind, ip AS value, player_id, game_id FROM sess
), accounts AS (
    SELECT kind, value, count(DISTINCT player_id) AS accounts
    FROM ident GROUP BY ALL
    HAVING count(DISTINCT player_id) BETWEEN 2 AND $max_accounts
), members AS (
    SELECT DISTINCT i.kind, i.value, i.player_id, n.accounts
    FROM ident i JOIN accounts n USING (kind, value)
), shared AS (
    SELECT x.player_id AS a, y.player_id AS b,
           bool_or(x.kind = 'device') AS device, bool_or(x.kind = 'ip') AS ip,
           min(x.accounts) AS accounts
    FROM members x JOIN members y
      ON x.kind = y.kind AND x.value = y.value AND x.player_id < y.player_id
    GROUP BY ALL
), sitting AS (  -- the members' sittings (co_seating.sql), in the games they were dealt into
    SELECT * FROM co_stay SEMI JOIN (SELECT DISTINCT player_id FROM members) m USING (player_id)
), same_table AS (
    SELECT x.player_id AS a, y.player_id AS b, count(DISTINCT x.game_id) AS games,
           count(DISTINCT x.game_id) FILTER (WHERE x.kind = 'device') AS device_games,
           count(DISTINCT (sx.tk, sx.sitting, sy.sitting)) AS sittings
    FROM ident x JOIN ident y
      ON x.game_id = y.game_id AND x.kind = y.kind AND x.value = y.value
     AND x.player_id < y.player_id
    JOIN accounts n ON n.kind = x.kind AND n.value = x.value
    JOIN sitting sx ON sx.player_id = x.player_id AND sx.game_id = x.game_id
    JOIN sitting sy ON sy.player_id = y.player_id AND sy.game_id = y.game_id
    GROUP BY ALL
), at_once AS (  -- both dealt into the game, both on one device at the same moment
    SELECT x.player_id AS a, y.player_id AS b, count(DISTINCT x.game_id) AS at_once,
           min(n.accounts) AS device_accounts
    FROM sess x JOIN sess y
      ON x.game_id = y.game_id AND x.device_id = y.device_id AND x.player_id < y.player_id
     AND x.joined_at < y.left_at AND y.joined_at < x.left_at
    JOIN accounts n ON n.kind = 'device' AND n.value = x.device_id
    JOIN sitting sx ON sx.player_id = x.player_id AND sx.game_id = x.game_id
    JOIN sitting sy ON sy.player_id = y.player_id AND sy.game_id = y.game_id
    GROUP BY ALL
)
SELECT s.a, s.b, s.device, s.ip, s.accounts,
       coalesce(t.games, 0) AS games, coalesce(t.device_games, 0) AS device_games,
       coalesce(t.sittings, 0) AS sittings, coalesce(o.at_once, 0) AS at_once,
       coalesce(o.device_accounts, s.accounts) AS device_accounts,
       coalesce(c.expected, 0.0) AS expected, coalesce(c.expected_games, 0.0) AS expected_games
FROM shared s
LEFT JOIN same_table t USING (a, b)
LEFT JOIN at_once o USING (a, b)
LEFT JOIN co_seat c USING (a, b)
ORDER BY a, b

-- name: evidence
SELECT f.a, f.b, x.game_id, min(h.hand_id) AS hand_id, count(*) AS weight
FROM flagged f
JOIN sess x ON x.player_id = f.a
JOIN sess y ON y.player_id = f.b AND y.game_id = x.game_id
           AND (y.device_id = x.device_id OR y.ip = x.ip)
JOIN seat h ON h.game_id = x.game_id AND h.player_id = f.a
JOIN seat k ON k.hand_id = h.hand_id AND k.player_id = f.b  -- a hand both were dealt into
GROUP BY ALL
