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
-- the stratum: format and chip type, what a drop costs (money, practice or tournament chips;
-- points or a pool's score); at real money the point value, the stakes (a platform's points
-- tables have a few fixed values: ten on the simulator's nights); and the players dealt in:
-- heads-up, 3-4, or 5 or more (the simulator's tables have 2, 4 and 6 seats; a short-handed
-- table counts with the size it plays like). Not the point value of practice chips, which
-- cost nothing, nor a pool's entry fee: no night has shown either. Not hand size or ruleset:
-- strong is already judged within the hand size, and a small lobby's 10- or 21-card tables
-- would leave A no hands without B there. (Until 2026-12-05 neither stakes nor table size:
-- on a blind tester's honest nights P00, who folds often at 1.00 a point and never at 0.05,
-- was suspected (major) with P01, who plays only at 1.00: 12 strong drops in 62 hands
-- against 1.2 expected from P00's real-money hands without P01, 6 in 190, all of them in
-- their 32 at 1.00; and P00 of another night, who folds at 6-player tables and never in 238
-- hands heads-up, was suspected (info) with P07, met at 6-player tables: 6 of 19 against
-- 0.4.) Finer strata leave A fewer hands without B in each: on the simulator's first honest
-- night the pairs' hands in a stratum where A has none without B went from 25 % to 79 %
-- (heads-up or not: 67 %; every player count: 87 %, and the first tester night's P00 stayed
-- suspected: P01 met them only at counts where P00 had no hands without P01). There A's rate
-- is the prior, the night's, and what A is shows in the guard below, which looks at all of
-- A's hands in the pair's kinds of game. A stratum's own rate is the night's there with one
-- strong drop at the night's rate added, so that a small one is never 0 (384 practice hands
-- of pool 201 at five or six players had none on that night). Per stratum s the pair met in,
-- A's k0_s of n0_s is a Beta posterior with a prior at that rate (worth $prior_weight hands,
-- or what the night's spread of players' rates gives; a stratum where A has no hands without
-- B is that prior alone); the rate with B is those rates weighted by the pair's trials,
-- sum_s n1_s r_s / n1, a Beta of the same mean and variance (detectors._in_strata); the
-- count with B is beta-binomial. A player significantly above the night's rate, over their
-- night (stats.beyond_the_night) or in the pair's kinds of game (all their hands there, at
-- 0.01), who still is without B in those kinds (at 0.05, stats.WITHOUT_ALPHA), is judged by
-- their own rate (a prior of 2 hands). The second night's P00 was not significantly above
-- the night's rate over their night (13 strong drops in 336 hands, 7.6 expected) but far
-- above it at 6-player tables (13 in 98), where the bulk's prior, worth 536 hands, had
-- outweighed their 79 without P07.
-- (Until 2026-12-05 A's baseline pooled every kind of game: on a blind tester's honest
-- night P03, who drops often at real money and never at practice, where they played 159
-- hands heads-up with P04, had 5 strong drops in 214 hands without P10, under the night's
-- rate; at real money 5 in 55, 1.7 expected there; suspected (major) with P10, 23 of 70
-- against 1.8 expected.) A pair (A, C) whose events all fell in hands where a stronger
-- suspect B of A was also at the table is explained by (A, B) and not reported: it must
-- hold in the hands without A's stronger partners too, and not be A's excess with other
-- partners seated in those hands (``copresent``; pairs._explained_by_others).
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
), hand AS (  -- each hand's kind of game; the players dealt in: heads-up, 3-4 or 5 or more
    SELECT hand_id,
           concat_ws('|', any_value(format), any_value(chip_type),
                     CASE WHEN any_value(chip_type) = 'real'
                          THEN CAST(any_value(point_value) AS VARCHAR) END,
                     CASE WHEN count(*) <= 2 THEN '2' WHEN count(*) <= 4 THEN '3-4'
                          ELSE '5+' END) AS kind
    FROM seat WHERE list_contains($drop_formats, ruleset || '|' || format) GROUP BY hand_id
), kinds AS (  -- a number for each, to group and order the pairs' lists by: with the
    -- names, the million-hand night's pairs took 11 s of CPU, with numbers 6.6
    SELECT kind, CAST(row_number() OVER (ORDER BY kind) AS INTEGER) AS stratum
    FROM (SELECT DISTINCT kind FROM hand)
)
SELECT s.hand_id, s.game_id, s.player_id, st.hand_id IS NOT NULL AS event, k.stratum
FROM seat s JOIN hand h USING (hand_id) JOIN kinds k USING (kind)
LEFT JOIN strong st USING (hand_id, player_id)

-- name: pairs
-- One row per pair: its totals (n0 and k0 over every kind of game: the baseline player's own
-- totals are n0 + n1, k0 + k1) and the night's rate; per stratum the pair met in (lists, in
-- the order of the strata): its trials and A's events, A's trials and events there without
-- B, and the night's rate there. Most pairs meet in one kind of game (on the million-hand
-- night 91 % of 2 million): their one-entry lists are made as they are; only the others' are
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
), night AS (
    SELECT sum(k) / greatest(sum(n), 1) AS rate FROM own
), stratum AS (  -- one strong drop at the night's rate added: a small stratum is never 0
    SELECT o.stratum,
           CASE WHEN any_value(night.rate) > 0
                THEN (sum(o.k) + 1) / (sum(o.n) + 1 / any_value(night.rate)) ELSE 0 END AS rate
    FROM own o CROSS JOIN night GROUP BY o.stratum
), pair AS (
    SELECT a, b, count(*) AS strata, CAST(sum(n1) AS BIGINT) AS n1,
           CAST(sum(k1) AS BIGINT) AS k1, min(stratum) AS stratum
    FROM cell GROUP BY a, b
), one AS (
    SELECT p.a, p.b, p.n1, p.k1, [p.n1] AS n1_s, [p.k1] AS k1_s, [o.n - p.n1] AS n0_s,
           [o.k - p.k1] AS k0_s, [s.rate] AS rate_s
    FROM pair p JOIN own o USING (a, stratum) JOIN stratum s USING (stratum)
    WHERE p.strata = 1
), several AS (
    SELECT c.a, c.b, CAST(sum(c.n1) AS BIGINT) AS n1, CAST(sum(c.k1) AS BIGINT) AS k1,
           list(c.n1 ORDER BY c.stratum) AS n1_s, list(c.k1 ORDER BY c.stratum) AS k1_s,
           list(o.n - c.n1 ORDER BY c.stratum) AS n0_s,
           list(o.k - c.k1 ORDER BY c.stratum) AS k0_s, list(s.rate ORDER BY c.stratum) AS rate_s
    FROM cell c SEMI JOIN (SELECT a, b FROM pair WHERE strata > 1) m USING (a, b)
    JOIN own o USING (a, stratum) JOIN stratum s USING (stratum)
    GROUP BY c.a, c.b
)
SELECT x.a, x.b, x.n1, x.k1, p.n - x.n1 AS n0, p.k - x.k1 AS k0, night.rate,
       x.n1_s, x.k1_s, x.n0_s, x.k0_s, x.rate_s
FROM (SELECT * FROM one UNION ALL SELECT * FROM several) x
JOIN player p USING (a) CROSS JOIN night

-- name: trials
SELECT f.a, f.b, t.hand_id, t.event
FROM flagged f
JOIN soft_trial t ON t.player_id = f.a
JOIN soft_trial o ON o.hand_id = t.hand_id AND o.player_id = f.b

-- name: copresent
-- For each flagged pair (A, C), every other player seated in the hands where A gave up a
-- strong hand with C in, and in how many of them: the other partners that may explain A's
-- excess with C (pairs._explained_by_others), a ring's member among them.
SELECT f.a, f.b AS c, o.player_id AS b, count(*) AS hands
FROM flagged f
JOIN soft_trial t ON t.player_id = f.a AND t.event
JOIN soft_trial w ON w.hand_id = t.hand_id AND w.player_id = f.b
JOIN soft_trial o ON o.hand_id = t.hand_id AND o.player_id <> f.a AND o.player_id <> f.b
GROUP BY ALL

-- name: evidence
-- the strongest first, in the order above: the lowest charge, then the lowest deadwood
-- (below 1,000: 27 cards of 10 points at most)
SELECT f.a, f.b, t.game_id, t.hand_id, -(1000.0 * d.points + d.deadwood) AS weight
FROM flagged f
JOIN soft_trial t ON t.player_id = f.a AND t.event
JOIN soft_trial o ON o.hand_id = t.hand_id AND o.player_id = f.b
JOIN drops d ON d.hand_id = t.hand_id AND d.player_id = f.a
