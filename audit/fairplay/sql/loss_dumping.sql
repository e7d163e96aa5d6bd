-- Loss dumping: A concedes B far bigger losses in the hands B wins than A's own losses to
-- others in the same kind of game and B's other opponents' losses to B predict (chip
-- dumping by the size of the losses, not by how often: chip_dumping.sql tests who wins).
--
-- Over the hands with one winner in formats where a loser's points go to the winner
-- ($flow_formats), each loss is taken relative to the mean loss of its stratum, the kind
-- of game: format, ruleset, hand size and chip type (21 cards concede more than 13, and a
-- player may drop at real money and play on with practice chips), in millionths as an
-- integer, so that every sum is exact and the same in any order. For a pair (A, B), per
-- stratum s of the hands B won and A lost: what A conceded there against n_s * m_s, where
-- m_s = mu_As * phi_B, A's mean loss to others in that stratum (shrunk toward the
-- stratum's by $win_prior hands: a stratum where A meets only B says nothing of A) times
-- B's factor, what B's other opponents conceded to B over their own means in their strata
-- (a player who declares early makes everyone concede more; shrunk toward 1 the same way).
-- The p-value is Bennett's bound for a sum of independent losses, each at most its
-- stratum's largest relative loss above its mean (an upper bound of the tail, valid
-- whatever the shape of a player's losses, which mix drops, partial and full counts). The
-- points must run the same way: A conceded B more than B conceded A. Pairs with fewer than
-- $min_hands such hands are not tested.
-- Benign reading: a player who plays on against one opponent (a friend) where they would
-- drop against others, or whose luck against that opponent was bad.

-- name: seats
-- Every loser's seat in a hand with one winner of a flow format, with its stratum and its
-- relative loss `x` (millionths of the stratum's mean).
CREATE OR REPLACE TEMP TABLE loss_seat AS
WITH hand AS (
    SELECT hand_id, any_value(player_id) FILTER (WHERE outcome = 'won') AS winner
    FROM seat WHERE list_contains($flow_formats, format)
    GROUP BY hand_id HAVING count(*) FILTER (WHERE outcome = 'won') = 1
), lost AS (
    SELECT s.hand_id, s.player_id, h.winner, CAST(coalesce(s.points, 0) AS BIGINT) AS pts,
           concat_ws('|', s.format, s.ruleset, s.cards_per_hand, s.chip_type) AS stratum
    FROM seat s JOIN hand h USING (hand_id)
    WHERE s.player_id <> h.winner AND s.outcome IS NOT NULL
)
SELECT hand_id, player_id, winner, pts, stratum,
       CAST(CASE WHEN mean > 0 THEN round(pts * 1000000 / mean) ELSE 1000000 END
            AS BIGINT) AS x
FROM (SELECT *, avg(pts) OVER (PARTITION BY stratum) AS mean FROM lost)

-- name: strata
CREATE OR REPLACE TEMP TABLE loss_stratum AS
SELECT stratum, count(*) AS seats, sum(x) AS sx, sum(CAST(x AS HUGEINT) * x) AS qx,
       max(x) AS top
FROM loss_seat GROUP BY stratum

-- name: losers
-- Each player's losses per stratum: count, the sums of x and x squared, and their mean x
-- (an integer, so that the sums over it are exact too).
CREATE OR REPLACE TEMP TABLE loss_player AS
SELECT player_id, stratum, count(*) AS losses, sum(x) AS sx,
       sum(CAST(x AS HUGEINT) * x) AS qx, sum(x) // count(*) AS mean_x, sum(pts) AS pts
FROM loss_seat GROUP BY player_id, stratum

-- name: winners
-- Each winner's losers: seats, what they conceded and what their own means predict.
CREATE OR REPLACE TEMP TABLE loss_winner AS
SELECT s.winner, count(*) AS seats, sum(s.x) AS sx, sum(p.mean_x) AS predicted
FROM loss_seat s JOIN loss_player p USING (player_id, stratum)
GROUP BY s.winner

-- name: pairs
-- One row per pair with 10 or more such hands; per stratum of them (lists, in the order of
-- the strata): the hands, A's relative losses there, A's other losses in that stratum and
-- the stratum's own sums.
WITH cell AS (
    SELECT player_id AS a, winner AS b, stratum, count(*) AS n, sum(x) AS sx,
           sum(CAST(x AS HUGEINT) * x) AS qx, sum(pts) AS pts, sum(p.mean_x) AS a_mean
    FROM loss_seat JOIN (SELECT player_id, stratum, mean_x FROM loss_player) p
         USING (player_id, stratum)
    GROUP BY player_id, winner, stratum
), pair AS (
    SELECT a, b, sum(n) AS hands, sum(pts) AS pts, sum(sx) AS sx, sum(a_mean) AS a_mean
    FROM cell GROUP BY a, b HAVING sum(n) >= $min_hands
), back AS (
    SELECT c.b AS a, c.a AS b, sum(c.pts) AS b_gave
    FROM cell c SEMI JOIN pair p ON p.a = c.b AND p.b = c.a
    GROUP BY c.a, c.b
), total AS (
    SELECT player_id AS a, sum(losses) AS losses, sum(pts) AS pts FROM loss_player
    WHERE player_id IN (SELECT a FROM pair) GROUP BY player_id
)
SELECT p.a, p.b, p.hands, p.pts, coalesce(k.b_gave, 0) AS b_gave,
       t.losses - p.hands AS a_losses0, t.pts - p.pts AS a_pts0,
       CAST(w.sx - p.sx AS DOUBLE) AS b_sx0,
       CAST(w.predicted - p.a_mean AS DOUBLE) AS b_predicted0,
       list(c.n ORDER BY c.stratum) AS n_s,
       list(CAST(c.sx AS DOUBLE) ORDER BY c.stratum) AS sx_s,
       list(pa.losses - c.n ORDER BY c.stratum) AS a_losses0_s,
       list(CAST(pa.sx - c.sx AS DOUBLE) ORDER BY c.stratum) AS a_sx0_s,
       list(CAST(pa.qx - c.qx AS DOUBLE) ORDER BY c.stratum) AS a_qx0_s,
       list(st.seats ORDER BY c.stratum) AS seats_s,
       list(CAST(st.sx AS DOUBLE) ORDER BY c.stratum) AS st_sx_s,
       list(CAST(st.qx AS DOUBLE) ORDER BY c.stratum) AS st_qx_s,
       list(CAST(st.top AS DOUBLE) ORDER BY c.stratum) AS top_s
FROM pair p
JOIN cell c ON c.a = p.a AND c.b = p.b
JOIN loss_player pa ON pa.player_id = p.a AND pa.stratum = c.stratum
JOIN loss_stratum st ON st.stratum = c.stratum
JOIN loss_winner w ON w.winner = p.b
JOIN total t ON t.a = p.a
LEFT JOIN back k ON k.a = p.a AND k.b = p.b
GROUP BY ALL

-- name: evidence
SELECT f.a, f.b, s.game_id, s.hand_id, coalesce(s.points, 0) AS weight
FROM flagged f
JOIN seat s ON s.player_id = f.a AND coalesce(s.outcome, '') <> 'won'
JOIN seat w ON w.hand_id = s.hand_id AND w.player_id = f.b AND w.outcome = 'won'
WHERE list_contains($flow_formats, s.format)
