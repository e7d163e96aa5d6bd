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
-- Every trial of B in a hand dealt with a player C whom B plays for is left out, from the
-- pair's count, B's baseline, the night's rate and spread and the givers' factors alike: a
-- C with whom at the table B took significantly fewer discards than both B's own rate in
-- B's other hands and the night's rate (detectors._set_aside). A chip dumper busy losing
-- to a partner takes nothing there: counted in, those hands pulled the dumper's own rate
-- down, and every ordinary table of the dumper's looked like being fed (until 2026-12-05:
-- on a blind tester's night P00 took none of 681 discards in the 54 hands dealt with P01
-- and 417 of 929 elsewhere, the night's rate 0.49; at 0.26 with other players' discards,
-- four players P00 sat after were suspected, one major, 38 of 59 taken against 15.3
-- expected; 27.5 expected now, p = 0.005, not reported). Against the night's rate too,
-- because a fed B's own rate is raised by the feeder and every table without the feeder
-- falls short of it: against B's own rate alone, 149 to 173 pairs a night on the
-- simulator's planted nights; none with both.
-- Hand sizes: with 21 or 27 cards nearly every discard connects and everyone takes more, so
-- B's baseline is carried to the hand sizes the pair met at: times the night's rate over the
-- pair's trials by hand size (e1), over what the baseline would be for a B exactly as good
-- as the night in B's other trials (e0, the prior included: pairs._sized); a careless A is
-- judged against the night's rates at the sizes A gave at (grate). (Until 2026-12-05 B's
-- rate pooled every hand size: a blind tester's strong player who met a weaker one at
-- 27-card tables, judged by their 10- and 13-card play, was suspected at minor.)
-- Hands: the draws of one hand are not independent trials (heads-up the same cards pass
-- back and forth), so a hand counts for at most $hand_draws draws, its takes in proportion
-- (rounded half up), everywhere: the pair's count, B's baseline, the night's rates and the
-- givers'; the message gives the draws as taken, the hands, and the counts the test used. A
-- pair whose draws come from fewer than Settings.pair_hands hands is not tested
-- (pairs.pair_rates: a screen on the amount of data, as Tarone's). (Until 2026-12-05 every
-- draw counted: a blind tester's honest pair was suspected at minor, 43 of 48 taken, 41 of
-- them in one heads-up hand of 45 draws.)
-- Benign reading: a strong player seated after a weak one, whose throws are often useful.

-- name: partners
-- One row per player B who drew with a discard on top and player A dealt into one of
-- those hands: B's trials and events in the hands with A (n1, k1) and in B's other hands
-- (n0, k0), and the night's rate. The players are numbered for the join over every seat:
-- over their ids it spilled about 280MB at 512MB (the million-hand night's 2.9 million
-- pairs), numbered a few MB, and took 2.6 s, not 4.3.
WITH player AS MATERIALIZED (
    SELECT player_id, CAST(row_number() OVER () AS INTEGER) AS p
    FROM (SELECT DISTINCT player_id FROM seat)
), own AS (
    SELECT taker, sum(offered) AS n, sum(taken) AS k FROM pile GROUP BY ALL
), night AS (
    SELECT sum(k) / greatest(sum(n), 1) AS rate FROM own
), cell AS (  -- straight from the pile: a taker has one giver in most hands
    SELECT s.p AS a, t.p AS b, sum(x.offered) AS n1, sum(x.taken) AS k1
    FROM pile x JOIN player t ON t.player_id = x.taker
    JOIN (SELECT hand_id, p FROM seat JOIN player USING (player_id)) s
      ON s.hand_id = x.hand_id AND s.p <> t.p
    GROUP BY ALL
)
SELECT pa.player_id AS a, pb.player_id AS b, CAST(c.n1 AS BIGINT) AS n1,
       CAST(c.k1 AS BIGINT) AS k1, CAST(o.n - c.n1 AS BIGINT) AS n0,
       CAST(o.k - c.k1 AS BIGINT) AS k0, night.rate
FROM cell c JOIN player pa ON pa.p = c.a JOIN player pb ON pb.p = c.b
JOIN own o ON o.taker = pb.player_id CROSS JOIN night

-- name: aside
-- The hands set aside: each B's hands dealt with a player B plays for (flagged: a, b).
CREATE OR REPLACE TEMP TABLE feed_aside AS
SELECT DISTINCT s.hand_id, f.b AS taker, f.a AS partner
FROM flagged f JOIN seat s ON s.player_id = f.a
SEMI JOIN seat t ON t.hand_id = s.hand_id AND t.player_id = f.b

-- name: pairs
-- One row per pair (giver a, taker b): the pair's trials and takes as counted (n1, k1;
-- melded), as drawn (drawn, took) and the hands they come from (hands), B's
-- without A (n0, k0), A's given to everyone else (gn0, gk0), the night's rate, and what the
-- night's rates by hand size expect of each (e1: the pair's trials, e0: B's others, grate:
-- A's others; each the night's rate when the night has one hand size, so such a night's
-- figures are the same bits as before hand sizes were counted).
WITH size AS (  -- each game's hand size: the stratum of its trials
    SELECT game_id, any_value(cards_per_hand) AS stratum FROM g GROUP BY game_id
), drawn AS (
    SELECT t.hand_id, t.giver, t.taker, CAST(t.offered AS INTEGER) AS drawn,
           CAST(t.taken AS INTEGER) AS took, t.melded, coalesce(z.stratum, 0) AS stratum
    FROM pile t ANTI JOIN feed_aside x USING (hand_id, taker) LEFT JOIN size z USING (game_id)
), trial AS (  -- a hand counts for at most $hand_draws draws, its takes in proportion
    SELECT *, least(drawn, $hand_draws) AS offered,
           (2 * took * least(drawn, $hand_draws) + drawn) // (2 * greatest(drawn, 1)) AS taken
    FROM drawn
), cell AS (
    SELECT giver AS a, taker AS b, stratum, CAST(sum(offered) AS BIGINT) AS n,
           CAST(sum(taken) AS BIGINT) AS k, CAST(sum(melded) AS BIGINT) AS m,
           CAST(sum(drawn) AS BIGINT) AS dn, CAST(sum(took) AS BIGINT) AS dk,
           CAST(count(*) FILTER (drawn > 0) AS BIGINT) AS h
    FROM trial GROUP BY ALL
), stratum AS (
    SELECT stratum, sum(k) / greatest(sum(n), 1) AS rate FROM cell GROUP BY stratum
), night AS (
    SELECT sum(k) / greatest(sum(n), 1) AS rate, count(DISTINCT stratum) = 1 AS one
    FROM cell
), expect AS (  -- each cell's trials at the night's rate for its hand size
    -- as an exact decimal: summed in whatever order the threads take, the same bits (a
    -- double's sum differed in its last bits from one run to the next)
    SELECT c.*, CAST(c.n * s.rate AS DECIMAL(38, 12)) AS e
    FROM cell c JOIN stratum s USING (stratum)
), pair AS (
    SELECT a, b, CAST(sum(n) AS BIGINT) AS n1, CAST(sum(k) AS BIGINT) AS k1,
           CAST(sum(m) AS BIGINT) AS melded, CAST(sum(e) AS DOUBLE) AS e1,
           CAST(sum(h) AS BIGINT) AS hands, CAST(sum(dn) AS BIGINT) AS drawn,
           CAST(sum(dk) AS BIGINT) AS took
    FROM expect GROUP BY a, b
), taker AS (
    SELECT b, CAST(sum(n) AS BIGINT) AS n, CAST(sum(k) AS BIGINT) AS k,
           CAST(sum(e) AS DOUBLE) AS e
    FROM expect GROUP BY b
), giver AS (
    SELECT a, CAST(sum(n) AS BIGINT) AS n, CAST(sum(k) AS BIGINT) AS k,
           CAST(sum(e) AS DOUBLE) AS e
    FROM expect GROUP BY a
), aside AS (
    SELECT taker AS b, string_agg(DISTINCT partner, ', ' ORDER BY partner) AS aside
    FROM feed_aside GROUP BY ALL
)
SELECT p.a, p.b, p.n1, p.k1, p.melded, p.hands, p.drawn, p.took, t.n - p.n1 AS n0, t.k - p.k1 AS k0,
       g.n - p.n1 AS gn0, g.k - p.k1 AS gk0, night.rate,
       CASE WHEN night.one THEN night.rate ELSE p.e1 / greatest(p.n1, 1) END AS e1,
       CASE WHEN night.one OR t.n = p.n1 THEN night.rate
            ELSE (t.e - p.e1) / (t.n - p.n1) END AS e0,
       CASE WHEN night.one OR g.n = p.n1 THEN night.rate
            ELSE (g.e - p.e1) / (g.n - p.n1) END AS grate,
       x.aside
FROM pair p JOIN taker t USING (b) JOIN giver g USING (a) CROSS JOIN night
LEFT JOIN aside x USING (b)

-- name: evidence
SELECT f.a, f.b, p.game_id, p.hand_id, p.taken + p.melded AS weight
FROM flagged f JOIN pile p ON p.giver = f.a AND p.taker = f.b
ANTI JOIN feed_aside x ON x.hand_id = p.hand_id AND x.taker = p.taker
WHERE p.taken > 0
