-- Feeding (collusion): B takes A's discards from the pile far more often than B takes other
-- players' discards; how many of the cards taken ended in B's melds is reported with it.
--
-- From the replay's pile facts (pile.parquet): each time B drew with A's discard on top of
-- the pile is a trial; a trial is an event when B took that card. Null model: B's rate with
-- A's discards is B's own rate with other players' discards, known as a Beta posterior
-- (B's events over B's trials with others,
-- from a prior at the night's rate, worth $prior_weight trials or as many as the night's
-- spread of players' rates gives; a B whose own rate is significantly above the night's,
-- with and without A, is not described by it and is judged by their own rate, a prior of
-- 2 draws: detectors._pair_rates); the count with A is then beta-binomial. When A's
-- discards are taken by everyone else more than the night's (a weak or careless player),
-- B's rate is raised by that factor (never lowered), so a strong player seated after a weak
-- one is not taken for a partner.
-- Benign reading: a strong player seated after a weak one, whose throws are often useful.

-- name: pairs
WITH pair AS (
    SELECT giver AS a, taker AS b, CAST(sum(offered) AS BIGINT) AS n1, CAST(sum(melded) AS BIGINT) AS k1,
           CAST(sum(taken) AS BIGINT) AS t1
    FROM pile GROUP BY ALL
), taker AS (
    SELECT taker AS b, CAST(sum(offered) AS BIGINT) AS n, CAST(sum(melded) AS BIGINT) AS k,
           CAST(sum(taken) AS BIGINT) AS t
    FROM pile GROUP BY ALL
), giver AS (
    SELECT giver AS a, CAST(sum(offered) AS BIGINT) AS n, CAST(sum(taken) AS BIGINT) AS t
    FROM pile GROUP BY ALL
), night AS (
    SELECT sum(taken) / greatest(sum(offered), 1) AS rate FROM pile
)
SELECT p.a, p.b, p.n1, p.t1 AS k1, p.k1 AS melded, t.n - p.n1 AS n0, t.t - p.t1 AS k0,
       g.n - p.n1 AS gn0, g.t - p.t1 AS gk0, night.rate
FROM pair p JOIN taker t USING (b) JOIN giver g USING (a) CROSS JOIN night

-- name: evidence
SELECT f.a, f.b, p.game_id, p.hand_id, p.taken + p.melded AS weight
FROM flagged f JOIN pile p ON p.giver = f.a AND p.taker = f.b
WHERE p.taken > 0
