-- Loss dumping: A concedes B far more points in the hands B wins than A's own losses to
-- everyone else and B's other opponents' losses to B predict (chip dumping by the size of
-- the losses, not by how often: chip_dumping.sql tests who wins between the two).
--
-- Over the hands with one winner in formats where a loser's points go to the winner
-- ($flow_formats), each loser's concession is taken relative to its stratum's mean (the
-- night's losers of the same format, ruleset and hand size: 21 cards concede more than
-- 13), in millionths as an integer, so that every sum is exact and the same in any order.
-- For a pair (A, B), the hands B won and A lost: what A conceded there (O) against n * m,
-- where m = mu_A * phi_B, A's mean concession to others (shrunk toward the night's by
-- $win_prior hands) times B's factor, what B's other opponents conceded to B over their own
-- means (a player who declares early makes everyone concede more; shrunk toward 1 the same
-- way). The p-value is Bernstein's bound for a sum of variables bounded by the night's
-- largest concession (an upper bound of the tail: valid whatever the shape of a player's
-- concessions, which mix drops, partial counts and full counts). Pairs with fewer than
-- $min_hands such hands are not tested.
-- Benign reading: a player who plays on against one opponent (a friend) where they would
-- drop against others, or whose luck against that opponent was bad.

-- name: seats
-- Every loser's seat in a hand with one winner of a flow format, with its relative
-- concession `x` (millionths of its stratum's mean).
CREATE OR REPLACE TEMP TABLE loss_seat AS
WITH hand AS (
    SELECT hand_id, any_value(player_id) FILTER (WHERE outcome = 'won') AS winner
    FROM seat WHERE list_contains($flow_formats, format)
    GROUP BY hand_id HAVING count(*) FILTER (WHERE outcome = 'won') = 1
), lost AS (
    SELECT s.hand_id, s.player_id, h.winner, CAST(coalesce(s.points, 0) AS BIGINT) AS pts,
           avg(CAST(coalesce(s.points, 0) AS BIGINT))
               OVER (PARTITION BY s.format, s.ruleset, s.cards_per_hand) AS stratum
    FROM seat s JOIN hand h USING (hand_id)
    WHERE s.player_id <> h.winner AND s.outcome IS NOT NULL
)
SELECT hand_id, player_id, winner, pts,
       CAST(CASE WHEN stratum > 0 THEN round(pts * 1000000 / stratum) ELSE 1000000 END
            AS BIGINT) AS x
FROM lost

-- name: losers
-- Each player's losses: count, the sums of x and x squared, the raw points, and their mean
-- x (an integer, so that the sums over it are exact too).
CREATE OR REPLACE TEMP TABLE loss_player AS
SELECT player_id, count(*) AS losses, sum(x) AS sx, sum(CAST(x AS HUGEINT) * x) AS qx,
       sum(pts) AS pts, sum(x) // count(*) AS mean_x
FROM loss_seat GROUP BY player_id

-- name: winners
-- Each winner's losers: seats, what they conceded and what their own means predict.
CREATE OR REPLACE TEMP TABLE loss_winner AS
SELECT s.winner, count(*) AS seats, sum(s.x) AS sx, sum(p.mean_x) AS predicted
FROM loss_seat s JOIN loss_player p USING (player_id)
GROUP BY s.winner

-- name: pairs
WITH pair AS (
    SELECT player_id AS a, winner AS b, count(*) AS hands, sum(x) AS sx,
           sum(CAST(x AS HUGEINT) * x) AS qx, sum(pts) AS pts
    FROM loss_seat GROUP BY player_id, winner HAVING count(*) >= $min_hands
), night AS (
    SELECT count(*) AS seats, sum(x) AS sx, sum(CAST(x AS HUGEINT) * x) AS qx, max(x) AS top
    FROM loss_seat
)
SELECT p.a, p.b, p.hands, CAST(p.sx AS DOUBLE) AS sx, CAST(p.qx AS DOUBLE) AS qx, p.pts,
       pa.losses - p.hands AS a_losses0, CAST(pa.sx - p.sx AS DOUBLE) AS a_sx0,
       CAST(pa.qx - p.qx AS DOUBLE) AS a_qx0, pa.pts - p.pts AS a_pts0,
       w.seats - p.hands AS b_seats0, CAST(w.sx - p.sx AS DOUBLE) AS b_sx0,
       CAST(w.predicted - p.hands * pa.mean_x AS DOUBLE) AS b_predicted0,
       night.seats AS night_seats, CAST(night.sx AS DOUBLE) AS night_sx,
       CAST(night.qx AS DOUBLE) AS night_qx, CAST(night.top AS DOUBLE) AS top
FROM pair p
JOIN loss_player pa ON pa.player_id = p.a
JOIN loss_winner w ON w.winner = p.b
CROSS JOIN night

-- name: evidence
SELECT f.a, f.b, s.game_id, s.hand_id, coalesce(s.points, 0) AS weight
FROM flagged f
JOIN seat s ON s.player_id = f.a AND coalesce(s.outcome, '') <> 'won'
JOIN seat w ON w.hand_id = s.hand_id AND w.player_id = f.b AND w.outcome = 'won'
WHERE list_contains($flow_formats, s.format)
