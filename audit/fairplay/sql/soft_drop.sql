-- Soft drop: A gives up strong hands early when B is at the table, far more often than A
-- does without B.
--
-- A trial is a hand A and B were both dealt into, in a format whose ruleset allows drops
-- ($drop_formats); it is an event when A dropped of their own accord (events.reason
-- 'player') before completing $early_turns turns, holding a strong hand. Strong is judged
-- by the rules first (drops.parquet): the night's such early drops of each hand size are
-- ordered by points, what the rules would charge the hand held (declaration requirement,
-- ready hand and cap included), then by deadwood, the points its best arrangement leaves
-- out of melds, requirement or not, uncapped (how far it is from complete). A drop is
-- strong at or before the $strong_quantile quantile of that order (quantile_disc of the
-- pair: a drop equal to the cut in both is strong too, so one hand is always judged alike,
-- whatever the rows' order), unless the rules charge it the most that any of those drops
-- was charged (the full count, the cap on any real night: where most drops are charged in
-- full, the quantile would otherwise reach into them by deadwood). However few cards its
-- melds leave out, a hand that misses the requirement is charged in full, and is not
-- strong. (Until 2026-12-05 strong was deadwood alone: on a blind tester's honest 21-card
-- night, three pure sequences needed, 76 of the 78 early drops it called strong were
-- charged 60 points or more, one of four jokers in sets and no pure sequence 101.)
-- Null model: A's rate with B is A's own rate in hands without B in the same kind of game,
-- the stratum: format and chip type, what a drop costs (money, practice or tournament
-- chips; points or a pool's score). Not hand size or ruleset: strong is already judged
-- within the hand size, and a small lobby's 10- or 21-card tables would leave A no hands
-- without B there. Per stratum s the pair met in, A's k0_s of n0_s is a Beta posterior with
-- a prior at the night's rate in s (worth $prior_weight hands, or what the night's spread of
-- players' rates gives; a stratum where A has no hands without B is that prior alone); the
-- rate with B is those rates weighted by the pair's trials, sum_s n1_s r_s / n1, a Beta of
-- the same mean and variance (detectors._in_strata); the count with B is beta-binomial. A
-- player significantly above the night's rate, who still is without B in the pair's kinds
-- of game (at 0.05, stats.WITHOUT_ALPHA), is judged by their own rate (a prior of 2 hands).
-- (Until 2026-12-05 A's baseline pooled every kind of game: on a blind tester's honest
-- night P03, who drops often at real money and never at practice, where they played 159
-- hands heads-up with P04, had 5 strong drops in 214 hands without P10, under the night's
-- rate; at real money 5 in 55, 1.7 expected there; suspected (major) with P10, 23 of 70
-- against 1.8 expected.) A pair (A, C) whose events all fell in hands where a stronger
-- suspect B of A was also at the table is explained by (A, B) and not reported: it must
-- hold in the hands without A's stronger partners too.
-- Benign reading: a cautious player, or a player who drops when tired or busy elsewhere.

-- name: prepare
CREATE OR REPLACE TEMP TABLE soft_trial AS
WITH early AS (
    SELECT d.hand_id, d.player_id, d.points, d.deadwood, s.cards_per_hand
    FROM drops d JOIN seat s USING (hand_id, player_id)
    WHERE coalesce(d.reason, 'player') = 'player' AND d.turns < $early_turns
), cut AS (  -- a struct orders field by field: by points, then by deadwood
    SELECT cards_per_hand, max(points) AS most,
           quantile_disc({'points': points, 'deadwood': deadwood}, $strong_quantile) AS cut
    FROM early GROUP BY ALL
), strong AS (
    SELECT e.hand_id, e.player_id FROM early e JOIN cut c USING (cards_per_hand)
    WHERE e.points < c.most
      AND (e.points < c.cut.points OR (e.points = c.cut.points AND e.deadwood <= c.cut.deadwood))
)
SELECT s.hand_id, s.game_id, s.player_id, st.hand_id IS NOT NULL AS event,
       concat_ws('|', s.format, s.chip_type) AS stratum
FROM seat s LEFT JOIN strong st USING (hand_id, player_id)
WHERE list_contains($drop_formats, s.ruleset || '|' || s.format)

-- name: pairs
-- One row per pair: its totals (n0 and k0 over every kind of game: the baseline player's
-- own totals are n0 + n1, k0 + k1) and the night's rate; per stratum the pair met in (lists,
-- in the order of the strata): its trials, A's trials and events there without B, and the
-- night's rate there. Most pairs meet in one kind of game (on the million-hand night 98 %
-- of 2 million): their one-entry lists are made as they are; only the others' are
-- aggregated, which is dear (ordered lists of 2 million pairs took 9 s and ran out of the
-- detectors' memory).
WITH cell AS (
    SELECT a.player_id AS a, b.player_id AS b, a.stratum, count(*) AS n1,
           count(*) FILTER (WHERE a.event) AS k1
    FROM soft_trial a JOIN soft_trial b ON a.hand_id = b.hand_id AND a.player_id <> b.player_id
    GROUP BY ALL
), own AS (
    SELECT player_id AS a, stratum, count(*) AS n, count(*) FILTER (WHERE event) AS k
    FROM soft_trial GROUP BY ALL
), player AS (
    SELECT a, CAST(sum(n) AS BIGINT) AS n, CAST(sum(k) AS BIGINT) AS k FROM own GROUP BY a
), stratum AS (
    SELECT stratum, sum(k) / greatest(sum(n), 1) AS rate FROM own GROUP BY stratum
), night AS (
    SELECT sum(k) / greatest(sum(n), 1) AS rate FROM own
), pair AS (
    SELECT a, b, count(*) AS strata, CAST(sum(n1) AS BIGINT) AS n1,
           CAST(sum(k1) AS BIGINT) AS k1, min(stratum) AS stratum
    FROM cell GROUP BY a, b
), one AS (
    SELECT p.a, p.b, p.n1, p.k1, [p.n1] AS n1_s, [o.n - p.n1] AS n0_s, [o.k - p.k1] AS k0_s,
           [s.rate] AS rate_s
    FROM pair p JOIN own o USING (a, stratum) JOIN stratum s USING (stratum)
    WHERE p.strata = 1
), several AS (
    SELECT c.a, c.b, CAST(sum(c.n1) AS BIGINT) AS n1, CAST(sum(c.k1) AS BIGINT) AS k1,
           list(c.n1 ORDER BY c.stratum) AS n1_s, list(o.n - c.n1 ORDER BY c.stratum) AS n0_s,
           list(o.k - c.k1 ORDER BY c.stratum) AS k0_s, list(s.rate ORDER BY c.stratum) AS rate_s
    FROM cell c SEMI JOIN (SELECT a, b FROM pair WHERE strata > 1) m USING (a, b)
    JOIN own o USING (a, stratum) JOIN stratum s USING (stratum)
    GROUP BY c.a, c.b
)
SELECT x.a, x.b, x.n1, x.k1, p.n - x.n1 AS n0, p.k - x.k1 AS k0, night.rate,
       x.n1_s, x.n0_s, x.k0_s, x.rate_s
FROM (SELECT * FROM one UNION ALL SELECT * FROM several) x
JOIN player p USING (a) CROSS JOIN night

-- name: trials
SELECT f.a, f.b, t.hand_id, t.event
FROM flagged f
JOIN soft_trial t ON t.player_id = f.a
JOIN soft_trial o ON o.hand_id = t.hand_id AND o.player_id = f.b

-- name: evidence
-- the strongest first, in the order above: the lowest charge, then the lowest deadwood
-- (below 1,000: 27 cards of 10 points at most)
SELECT f.a, f.b, t.game_id, t.hand_id, -(1000.0 * d.points + d.deadwood) AS weight
FROM flagged f
JOIN soft_trial t ON t.player_id = f.a AND t.event
JOIN soft_trial o ON o.hand_id = t.hand_id AND o.player_id = f.b
JOIN drops d ON d.hand_id = t.hand_id AND d.player_id = f.a
