-- Soft drop: A gives up strong hands early when B is at the table, far more often than A
-- does without B.
--
-- A trial is a hand A and B were both dealt into, in a format whose ruleset allows drops
-- ($drop_formats); it is an event when A dropped of their own accord (events.reason
-- 'player') before completing $early_turns turns, holding a strong hand: deadwood (the
-- points left out of melds in the hand's best arrangement, drops.parquet) at or below the
-- night's $strong_quantile quantile of such early drops, per hand size. Null model: A's
-- rate with B is A's own rate in hands without B, known as a Beta posterior with a prior
-- at the night's rate (worth $prior_weight hands, or what the night's spread of players'
-- rates gives); the count with B is beta-binomial. A pair (A, C) whose events all fell in
-- hands where a stronger suspect B of A was also at the table is explained by (A, B) and
-- not reported: it must hold in the hands without A's stronger partners too.
-- Benign reading: a cautious player, or a player who drops when tired or busy elsewhere.

-- name: prepare
CREATE OR REPLACE TEMP TABLE soft_trial AS
WITH early AS (
    SELECT d.hand_id, d.player_id, d.deadwood, s.cards_per_hand
    FROM drops d JOIN seat s USING (hand_id, player_id)
    WHERE coalesce(d.reason, 'player') = 'player' AND d.turns < $early_turns
), cut AS (
    SELECT cards_per_hand, quantile_disc(deadwood, $strong_quantile) AS cut
    FROM early GROUP BY ALL
), strong AS (
    SELECT e.hand_id, e.player_id FROM early e JOIN cut USING (cards_per_hand)
    WHERE e.deadwood <= cut.cut
)
SELECT s.hand_id, s.game_id, s.player_id, st.hand_id IS NOT NULL AS event
FROM seat s LEFT JOIN strong st USING (hand_id, player_id)
WHERE list_contains($drop_formats, s.ruleset || '|' || s.format)

-- name: pairs
WITH pair AS (
    SELECT a.player_id AS a, b.player_id AS b, count(*) AS n1,
           count(*) FILTER (WHERE a.event) AS k1
    FROM soft_trial a JOIN soft_trial b ON a.hand_id = b.hand_id AND a.player_id <> b.player_id
    GROUP BY ALL
), player AS (
    SELECT player_id AS a, count(*) AS n, count(*) FILTER (WHERE event) AS k
    FROM soft_trial GROUP BY ALL
), night AS (
    SELECT count(*) FILTER (WHERE event) / greatest(count(*), 1) AS rate FROM soft_trial
)
SELECT p.a, p.b, p.n1, p.k1, x.n - p.n1 AS n0, x.k - p.k1 AS k0, night.rate
FROM pair p JOIN player x USING (a) CROSS JOIN night

-- name: trials
SELECT f.a, f.b, t.hand_id, t.event
FROM flagged f
JOIN soft_trial t ON t.player_id = f.a
JOIN soft_trial o ON o.hand_id = t.hand_id AND o.player_id = f.b

-- name: evidence
SELECT f.a, f.b, t.game_id, t.hand_id, 100 - d.deadwood AS weight
FROM flagged f
JOIN soft_trial t ON t.player_id = f.a AND t.event
JOIN soft_trial o ON o.hand_id = t.hand_id AND o.player_id = f.b
JOIN drops d ON d.hand_id = t.hand_id AND d.player_id = f.a
