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
-- Hand sizes: on a night of several, B's share is taken at each hand size the pair met at,
-- from the two strengths there (their hands without the other at that size, shrunk toward
-- their strength over every size by the night's spread of strengths between sizes, drift),
-- weighted by the hands one of them won at each size; only for a player whose wins depend
-- on the hand size (Pearson's chi-square over their sizes, x2 on df, at 0.01:
-- flows._sized_share). Until 2026-12-05 a strength was one figure over every size: a blind
-- tester's honest P07, who won 81 % of 236 hands at 10 cards and 23 % of 124 at 13, named a
-- 10-card opponent as a dumper at minor (69 of 81 against 47.0 expected; 60.0 now). On a
-- night of one hand size (sizes = 1) nothing changes: the same bits.
-- Partners set aside (since 2026-12-06): a second pass leaves out each player's hands dealt
-- with a partner the first pass suspected, both ways, from their own record and from every
-- other pair's count, never from the two's (flows._second_pass; `aside`). Until then a
-- dumper's hands thrown to the partner made the dumper weak by their own results: a blind
-- tester's P062, who lost all 58 hands one of them won to P063, made honest P070 a dumper
-- to P062 (15 of 19 against 6.7 expected; 12.4 now) and a ring of the three.
-- Loss sizes (since 2026-12-07): A's losses in the hands B won are weighed against A's
-- losses without B (their sum and sum of squares, conceded2; mu2 the night's mean square):
-- shown of A's usual size, the count of wins alone speaks and the suspicion is info at
-- most; too few to weigh them, minor at most (flows._loss_sizes). Luce's share does not
-- hold in a race: a blind tester's honest weak P04 lost to the night's strongest as to
-- anyone, no bigger, and was named P03's dumper at major.
-- Benign reading: a weak player who loses to a strong one (on a night of several hand sizes,
-- or to one strong only at the hand size they met at) whose own record elsewhere, or at
-- that size, is too thin to show it.

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
       h.n, h.winner, s.outcome IN ('first_drop', 'middle_drop') AS dropped,
       coalesce(s.cards_per_hand, 0) AS k,
       0 AS asides, CAST(NULL AS VARCHAR) AS partner
FROM seat s JOIN hand h USING (hand_id)

-- name: aside
-- The second pass's seats set aside: each player's seats in the hands dealt with a partner
-- of a pair the first pass suspected (flagged: a, b), both ways, with how many such
-- partners sat in (asides) and one of them (partner). They leave the player's own record
-- and every other pair's count, never the count of the player and that partner.
UPDATE chip_seat SET asides = z.asides, partner = z.partner
FROM (
    SELECT x.hand_id, x.player_id, count(DISTINCT y.player_id) AS asides,
           min(y.player_id) AS partner
    FROM (SELECT a AS p, b AS q FROM flagged UNION SELECT b, a FROM flagged) f
    JOIN chip_seat x ON x.player_id = f.p  -- each way: equality joins, no nested loop
    JOIN chip_seat y ON y.hand_id = x.hand_id AND y.player_id = f.q
    GROUP BY ALL
) z
WHERE chip_seat.hand_id = z.hand_id AND chip_seat.player_id = z.player_id

-- name: players
CREATE OR REPLACE TEMP TABLE chip_player AS
-- fractions summed as DECIMAL: exact, the same bits in any order
SELECT player_id, count(*) FILTER (WHERE winner = player_id) AS wins, CAST(sum(CAST(1.0 / n AS DECIMAL(38, 18))) AS DOUBLE) AS fair,
       count(*) FILTER (WHERE winner <> player_id) AS losses,
       coalesce(sum(pts) FILTER (WHERE winner <> player_id), 0) AS conceded,
       coalesce(sum(pts * pts) FILTER (WHERE winner <> player_id), 0) AS conceded2,
       count(*) FILTER (WHERE dropped) AS drops
FROM chip_seat WHERE asides = 0 GROUP BY player_id

-- name: sizes
-- Each player's record at each hand size (k, cards per hand).
CREATE OR REPLACE TEMP TABLE chip_size AS
SELECT player_id, k, count(*) FILTER (WHERE winner = player_id) AS wins, count(*) AS hands,
       sum(CAST(1.0 / n AS DECIMAL(38, 18))) AS fair
FROM chip_seat WHERE asides = 0 GROUP BY player_id, k

-- name: candidates
-- The pairs that shared $min_hands or more hands counted (as `pairs` counts them), with
-- all their meetings: only they are summed. Most of a big night's pairs meet in a few
-- hands; summing the 40 figures of every one of them, to keep a few thousand, took the
-- million-hand night's chip dumping 72 s (under 5 s now; the same rows).
CREATE OR REPLACE TEMP TABLE chip_cand AS
SELECT a.player_id AS a, b.player_id AS b, count(*) AS meets
FROM chip_seat a JOIN chip_seat b ON a.hand_id = b.hand_id AND a.player_id <> b.player_id
GROUP BY ALL
HAVING count(*) FILTER ((a.asides = 0 OR (a.asides = 1 AND a.partner = b.player_id))
                        AND (b.asides = 0 OR (b.asides = 1 AND b.partner = a.player_id)))
       >= $min_hands

-- name: pairs
-- One part of the pairs (`candidates`): those whose first player's hash falls in part
-- $part of $parts.
-- The pair's hands are counted by hand size (cell), each size with both players' records
-- there without the other (the lists *_s, in the order of the sizes), and summed (pair):
-- counts and whole points, and the fractions as DECIMAL, so the sums are the same bits as
-- one sum over the hands.
WITH meet AS (
    -- counted: a hand neither sat in with a partner set aside (the second pass) other than
    -- each other; the pair's own figures are over those, what comes off each player's own
    -- record over their hands not set aside (*1)
    SELECT a.*, b.player_id AS other, b.pts AS other_pts, b.dropped AS other_dropped,
           b.asides AS other_asides,
           (a.asides = 0 OR (a.asides = 1 AND a.partner = b.player_id))
           AND (b.asides = 0 OR (b.asides = 1 AND b.partner = a.player_id)) AS counted
    FROM chip_cand c  -- from the candidates: their seats only, never every meeting
    JOIN chip_seat a ON a.player_id = c.a
    JOIN chip_seat b ON b.hand_id = a.hand_id AND b.player_id = c.b
    WHERE hash(c.a) % $parts = $part
), cell AS (
    SELECT player_id AS a, other AS b, k, count(*) FILTER (WHERE counted) AS hands,
           coalesce(sum(CAST(1.0 / n AS DECIMAL(38, 18))) FILTER (WHERE counted), 0) AS fair,
           count(*) FILTER (WHERE counted AND winner = player_id) AS a_won,
           count(*) FILTER (WHERE counted AND winner = other) AS b_won,
           coalesce(sum(pts) FILTER (WHERE counted AND winner = other), 0) AS a_gave,
           coalesce(sum(other_pts) FILTER (WHERE counted AND winner = player_id), 0) AS b_gave,
           count(*) FILTER (WHERE counted AND other_dropped) AS b_drops,
           count(*) FILTER (WHERE asides = 0) AS a_hands1,
           coalesce(sum(CAST(1.0 / n AS DECIMAL(38, 18))) FILTER (WHERE asides = 0), 0)
               AS a_fair1,
           count(*) FILTER (WHERE asides = 0 AND winner = player_id) AS a_won1,
           count(*) FILTER (WHERE asides = 0 AND winner <> player_id) AS a_lost,
           coalesce(sum(pts) FILTER (WHERE asides = 0 AND winner <> player_id), 0) AS a_conc,
           coalesce(sum(pts * pts) FILTER (WHERE asides = 0 AND winner <> player_id), 0)
               AS a_conc2,
           count(*) FILTER (WHERE other_asides = 0) AS b_hands1,
           coalesce(sum(CAST(1.0 / n AS DECIMAL(38, 18))) FILTER (WHERE other_asides = 0), 0)
               AS b_fair1,
           count(*) FILTER (WHERE other_asides = 0 AND winner = other) AS b_won1,
           count(*) FILTER (WHERE other_asides = 0 AND winner <> other) AS b_lost,
           coalesce(sum(other_pts) FILTER (WHERE other_asides = 0 AND winner <> other), 0)
               AS b_conc,
           count(*) FILTER (WHERE other_asides = 0 AND other_dropped) AS b_drops1
    FROM meet GROUP BY ALL
), pair AS (
    SELECT c.a, c.b, CAST(sum(c.hands) AS BIGINT) AS hands, CAST(sum(c.fair) AS DOUBLE) AS fair,
           CAST(sum(c.a_won) AS BIGINT) AS a_won, CAST(sum(c.b_won) AS BIGINT) AS b_won,
           sum(c.a_gave) AS a_gave, sum(c.b_gave) AS b_gave,
           CAST(sum(c.a_lost) AS BIGINT) AS a_lost, sum(c.a_conc) AS a_conc,
           sum(c.a_conc2) AS a_conc2,
           CAST(sum(c.b_lost) AS BIGINT) AS b_lost, sum(c.b_conc) AS b_conc,
           CAST(sum(c.b_drops) AS BIGINT) AS b_drops,
           CAST(sum(c.a_hands1) AS BIGINT) AS a_hands1, sum(c.a_fair1) AS a_fair1,
           CAST(sum(c.a_won1) AS BIGINT) AS a_won1,
           CAST(sum(c.b_hands1) AS BIGINT) AS b_hands1, sum(c.b_fair1) AS b_fair1,
           CAST(sum(c.b_won1) AS BIGINT) AS b_won1,
           CAST(sum(c.b_drops1) AS BIGINT) AS b_drops1,
           -- the sizes where they have hands counted (the second pass may leave none)
           list(c.hands ORDER BY c.k) FILTER (c.hands > 0) AS hands_s,
           list(CAST(c.fair AS DOUBLE) ORDER BY c.k) FILTER (c.hands > 0) AS fair_s,
           list(c.a_won + c.b_won ORDER BY c.k) FILTER (c.hands > 0) AS decided_s,
           list(coalesce(sa.wins, 0) - c.a_won1 ORDER BY c.k) FILTER (c.hands > 0) AS a_wins0_s,
           list(coalesce(sa.hands, 0) - c.a_hands1 ORDER BY c.k) FILTER (c.hands > 0) AS a_hands0_s,
           list(CAST(coalesce(sa.fair, 0) - c.a_fair1 AS DOUBLE) ORDER BY c.k)
               FILTER (c.hands > 0) AS a_fair0_s,
           list(coalesce(sb.wins, 0) - c.b_won1 ORDER BY c.k) FILTER (c.hands > 0) AS b_wins0_s,
           list(coalesce(sb.hands, 0) - c.b_hands1 ORDER BY c.k) FILTER (c.hands > 0) AS b_hands0_s,
           list(CAST(coalesce(sb.fair, 0) - c.b_fair1 AS DOUBLE) ORDER BY c.k)
               FILTER (c.hands > 0) AS b_fair0_s
    FROM cell c  -- a player's record at a size may be all set aside (the second pass)
    LEFT JOIN chip_size sa ON sa.player_id = c.a AND sa.k = c.k
    LEFT JOIN chip_size sb ON sb.player_id = c.b AND sb.k = c.k
    GROUP BY c.a, c.b
), night AS (
    -- spread: the variance of the players' strengths beyond chance (method of moments,
    -- wins about Poisson given a strength: E (W - F)^2 = F + v F^2), summed exactly
    SELECT sum(conceded) / greatest(sum(losses), 1) AS mu,
           sum(conceded2) / greatest(sum(losses), 1) AS mu2,
           sum(drops) / greatest(sum(wins + losses), 1) AS folds,
           (CAST(sum(CAST((wins - fair) * (wins - fair) AS DECIMAL(38, 12))) AS DOUBLE)
            - sum(wins)) / greatest(CAST(sum(CAST(fair * fair AS DECIMAL(38, 12))) AS DOUBLE), 1e-9)
               AS spread,
           (SELECT count(DISTINCT k) FROM chip_size) AS sizes
    FROM chip_player
), drift AS (
    -- each player's wins at each hand size against their share q of their fair wins there
    -- (W_k - W q_k), and the moments of q: chance gives E (W_k - W q_k)^2 summed = W (1 - q2),
    -- and a strength varying by hand size with variance v adds v W^2 (q2 - 2 q3 + q2^2)
    -- (and Pearson's chi-square of the player's wins over their hand sizes, x2 on df)
    SELECT z.player_id, any_value(p.wins) AS w,
           sum(CAST((z.wins - p.wins * z.fair / p.fair) ^ 2 AS DECIMAL(38, 12))) AS dev,
           sum(CAST((z.fair / p.fair) ^ 2 AS DECIMAL(38, 12))) AS q2,
           sum(CAST((z.fair / p.fair) ^ 3 AS DECIMAL(38, 12))) AS q3,
           CAST(sum(CAST((z.wins - p.wins * z.fair / p.fair) ^ 2
                         / greatest(p.wins * z.fair / p.fair, 1e-9) AS DECIMAL(38, 12)))
                AS DOUBLE) AS x2,
           count(*) - 1 AS df
    FROM chip_size z JOIN chip_player p USING (player_id) WHERE p.fair > 0
    GROUP BY z.player_id
), sized AS (
    -- the variance of the players' strengths between hand sizes beyond chance (method of
    -- moments, as spread): 0 or less where no one's strength depends on the hand size
    SELECT CAST(sum(dev - CAST(w * (1 - q2) AS DECIMAL(38, 12))) AS DOUBLE)
           / greatest(CAST(sum(CAST(w * w * (q2 - 2 * q3 + q2 * q2) AS DECIMAL(38, 12)))
                           AS DOUBLE), 1e-9) AS drift
    FROM drift
)
SELECT p.a, p.b, p.hands, p.fair, p.a_gave, p.b_gave, p.a_won, p.b_won,
       coalesce(pa.wins, 0) - p.a_won1 AS a_wins0,
       coalesce(pa.fair, 0) - CAST(p.a_fair1 AS DOUBLE) AS a_fair0,
       coalesce(pa.wins + pa.losses, 0) - p.a_hands1 AS a_hands0,
       coalesce(pb.wins, 0) - p.b_won1 AS b_wins0,
       coalesce(pb.fair, 0) - CAST(p.b_fair1 AS DOUBLE) AS b_fair0,
       coalesce(pb.wins + pb.losses, 0) - p.b_hands1 AS b_hands0,
       coalesce(pa.losses, 0) - p.a_lost AS a_losses0,
       coalesce(pa.conceded, 0) - p.a_conc AS a_conc0,
       coalesce(pa.conceded2, 0) - p.a_conc2 AS a_conc20,
       coalesce(pb.losses, 0) - p.b_lost AS b_losses0,
       coalesce(pb.conceded, 0) - p.b_conc AS b_conc0,
       p.b_drops, coalesce(pb.drops, 0) - p.b_drops1 AS b_drops0, night.mu, night.mu2,
       night.folds, night.spread,
       night.sizes, sized.drift, coalesce(da.x2, 0) AS a_x2, coalesce(da.df, 0) AS a_df,
       coalesce(db.x2, 0) AS b_x2, coalesce(db.df, 0) AS b_df, p.hands_s, p.fair_s,
       p.decided_s, p.a_wins0_s, p.a_hands0_s, p.a_fair0_s, p.b_wins0_s, p.b_hands0_s,
       p.b_fair0_s
FROM pair p
LEFT JOIN chip_player pa ON pa.player_id = p.a
LEFT JOIN chip_player pb ON pb.player_id = p.b
CROSS JOIN night CROSS JOIN sized
LEFT JOIN drift da ON da.player_id = p.a
LEFT JOIN drift db ON db.player_id = p.b
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
