-- Chip dumping: points or money flowing one way, from A to B, beyond what the two players'
-- own results predict.
--
-- Over the hands A and B were both dealt into, in formats where a loser's points go to the
-- winner ($flow_formats: points rummy money, deals chips), count the hands one of the two
-- won. Null model: each is B's with the share B's and A's strengths give, s_B / (s_A + s_B)
-- (Luce's choice model: who wins a hand is drawn in proportion to the strengths of the
-- players in it, so between two of them it is their strengths' share whoever else sits
-- in). A player's strength comes from their own results in hands without the other: their
-- win odds at their tables against an average player's, s = (n - 1) w / (1 - w), with w
-- their win rate shrunk toward an average player's 1 / n by the expected wins the night's
-- spread of strengths gives (`night.spread`; $win_prior at least: flows._win_prior) and
-- n their tables' size (the harmonic mean: hands over the fair share of wins). B's count
-- is binomial. A raw win-rate ratio (w_B / w_A) understates a strong player: a win rate
-- flattens toward 1 as strength grows, and an honest strong player was taken for a
-- dumper's partner against every average player (a blind test). The points must flow the
-- same way: A's points conceded to B over B's to A, against the ratio their own results
-- predict (a big loss, a strong hand dropped and an invalid declaration all count, by the
-- points they cost), is the effect, and must reach the detectors' floor. B's drops with A
-- and elsewhere go with the pair: B's record is counted in the hands B would have played
-- on at A's table, so B's own folding less with A explains B's wins there (a blind
-- tester's honest player who folds most hands but never with one friend, or never
-- heads-up, named the friend as a dumper at major on 5 nights of 6), never A's folding more. Pairs that shared
-- fewer than $min_hands such hands are not tested. What A paid B and B paid A is reported
-- with it, in its own units, never added up across them (results.amount is money in a
-- real-money points game, practice or tournament chips in the others, and deals chips in
-- deals: schemas/money.md).
-- Benign reading: a weak player who loses to a strong one, whose own record elsewhere is
-- too thin to show how strong.

-- name: seats
-- The seats of hands with one winner in the formats where points flow, each with its hand's
-- players and winner.
CREATE OR REPLACE TEMP TABLE chip_seat AS
WITH hand AS (
    SELECT hand_id, count(*) AS n, any_value(player_id) FILTER (WHERE outcome = 'won') AS winner
    FROM seat WHERE list_contains($flow_formats, format)
    GROUP BY hand_id HAVING count(*) FILTER (WHERE outcome = 'won') = 1
)
SELECT s.hand_id, s.player_id, CAST(coalesce(s.points, 0) AS DOUBLE) AS pts,
       h.n, h.winner, s.outcome IN ('first_drop', 'middle_drop') AS dropped
FROM seat s JOIN hand h USING (hand_id)

-- name: players
CREATE OR REPLACE TEMP TABLE chip_player AS
-- fractions summed as DECIMAL: exact, the same bits in any order
SELECT player_id, count(*) FILTER (WHERE winner = player_id) AS wins, CAST(sum(CAST(1.0 / n AS DECIMAL(38, 18))) AS DOUBLE) AS fair,
       count(*) FILTER (WHERE winner <> player_id) AS losses,
       coalesce(sum(pts) FILTER (WHERE winner <> player_id), 0) AS conceded,
       count(*) FILTER (WHERE dropped) AS drops
FROM chip_seat GROUP BY player_id

-- name: pairs
-- One part of the pairs: those whose first player's hash falls in part $part of $parts.
WITH pair AS (
    SELECT a.player_id AS a, b.player_id AS b, count(*) AS hands, CAST(sum(CAST(1.0 / a.n AS DECIMAL(38, 18))) AS DOUBLE) AS fair,
           count(*) FILTER (WHERE a.winner = a.player_id) AS a_won,
           count(*) FILTER (WHERE a.winner = b.player_id) AS b_won,
           coalesce(sum(a.pts) FILTER (WHERE a.winner = b.player_id), 0) AS a_gave,
           coalesce(sum(b.pts) FILTER (WHERE a.winner = a.player_id), 0) AS b_gave,
           count(*) FILTER (WHERE a.winner <> a.player_id) AS a_lost,
           coalesce(sum(a.pts) FILTER (WHERE a.winner <> a.player_id), 0) AS a_conc,
           count(*) FILTER (WHERE a.winner <> b.player_id) AS b_lost,
           coalesce(sum(b.pts) FILTER (WHERE a.winner <> b.player_id), 0) AS b_conc,
           count(*) FILTER (WHERE b.dropped) AS b_drops
    FROM chip_seat a JOIN chip_seat b ON a.hand_id = b.hand_id AND a.player_id <> b.player_id
    WHERE hash(a.player_id) % $parts = $part
    GROUP BY ALL
), night AS (
    -- spread: the variance of the players' strengths beyond chance (method of moments,
    -- wins about Poisson given a strength: E (W - F)^2 = F + v F^2), summed exactly
    SELECT sum(conceded) / greatest(sum(losses), 1) AS mu,
           sum(drops) / greatest(sum(wins + losses), 1) AS folds,
           (CAST(sum(CAST((wins - fair) * (wins - fair) AS DECIMAL(38, 12))) AS DOUBLE)
            - sum(wins)) / greatest(CAST(sum(CAST(fair * fair AS DECIMAL(38, 12))) AS DOUBLE), 1e-9)
               AS spread
    FROM chip_player
)
SELECT p.a, p.b, p.hands, p.fair, p.a_gave, p.b_gave, p.a_won, p.b_won,
       pa.wins - p.a_won AS a_wins0, pa.fair - p.fair AS a_fair0,
       pa.wins + pa.losses - p.hands AS a_hands0,
       pb.wins - p.b_won AS b_wins0, pb.fair - p.fair AS b_fair0,
       pb.wins + pb.losses - p.hands AS b_hands0,
       pa.losses - p.a_lost AS a_losses0, pa.conceded - p.a_conc AS a_conc0,
       pb.losses - p.b_lost AS b_losses0, pb.conceded - p.b_conc AS b_conc0,
       p.b_drops, pb.drops - p.b_drops AS b_drops0, night.mu, night.folds, night.spread
FROM pair p
JOIN chip_player pa ON pa.player_id = p.a
JOIN chip_player pb ON pb.player_id = p.b
CROSS JOIN night
WHERE p.hands >= $min_hands

-- name: evidence
SELECT f.a, f.b, s.game_id, s.hand_id, coalesce(s.points, 0) AS weight
FROM flagged f
JOIN seat s ON s.player_id = f.a
JOIN seat w ON w.hand_id = s.hand_id AND w.player_id = f.b AND w.outcome = 'won'
WHERE list_contains($flow_formats, s.format)

-- name: money
-- What each flagged pair moved, per unit (see the top): A's payments to B in the hands B
-- won, and B's to A in the hands A won, as exact decimals.
WITH together AS (
    SELECT f.a, f.b, a.hand_id, a.amount AS a_paid, b.amount AS b_paid,
           CASE WHEN a.format = 'deals' THEN 'deals chips' WHEN a.chip_type = 'real'
                THEN 'money' ELSE a.chip_type || ' chips' END AS unit
    FROM flagged f
    JOIN seat a ON a.player_id = f.a
    JOIN seat b ON b.hand_id = a.hand_id AND b.player_id = f.b
    WHERE list_contains($flow_formats, a.format)
), hand AS (
    SELECT hand_id, any_value(player_id) FILTER (WHERE outcome = 'won') AS winner
    FROM seat SEMI JOIN together USING (hand_id)
    GROUP BY hand_id HAVING count(*) FILTER (WHERE outcome = 'won') = 1
)
SELECT t.a, t.b, t.unit,
       CAST(coalesce(sum(-t.a_paid) FILTER (WHERE h.winner = t.b), 0) AS VARCHAR) AS paid,
       CAST(coalesce(sum(-t.b_paid) FILTER (WHERE h.winner = t.a), 0) AS VARCHAR) AS back
FROM together t JOIN hand h USING (hand_id)
GROUP BY t.a, t.b, t.unit
ORDER BY t.a, t.b, t.unit <> 'money', t.unit
