-- 003_start_ranks_byes.sql — frozen pairing numbers (C.04.2: TPNs do not
-- change once round 4 is paired), the arbiter's rating estimate for
-- unrated players, the tournament's rules for requested byes, and the
-- forfeit win a round robin player gets when the scheduled opponent has
-- a requested bye.

-- The start rank fixed at the freeze; NULL while the order still follows
-- ratings, titles and names (C.04.2 Art. 2).
ALTER TABLE players ADD COLUMN start_rank INTEGER CHECK (start_rank >= 1);
-- Used for the order instead of a rating of 0; never reported as a rating.
ALTER TABLE players ADD COLUMN rating_estimate INTEGER NOT NULL DEFAULT 0
    CHECK (rating_estimate BETWEEN 0 AND 4000);

-- Most half-point byes one player may request (NULL = no limit), and the
-- number of final rounds for which none may be requested.
ALTER TABLE tournaments ADD COLUMN bye_limit INTEGER CHECK (bye_limit >= 0);
ALTER TABLE tournaments ADD COLUMN bye_last_rounds INTEGER NOT NULL DEFAULT 0
    CHECK (bye_last_rounds >= 0);

-- kind 'forfeit': a round robin game not played because the scheduled
-- opponent (opponent_id) had a requested bye; the player wins by forfeit
-- (TRF +).  A new CHECK needs a new table.
CREATE TABLE byes_new (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    kind          TEXT NOT NULL CHECK (kind IN ('half', 'zero', 'pab', 'free', 'forfeit')),
    created_ms    INTEGER NOT NULL,
    opponent_id   INTEGER REFERENCES players(id),
    PRIMARY KEY (tournament_id, round, player_id)
) STRICT;
INSERT INTO byes_new(tournament_id, round, player_id, kind, created_ms)
    SELECT tournament_id, round, player_id, kind, created_ms FROM byes;
DROP TABLE byes;
ALTER TABLE byes_new RENAME TO byes;

-- Tournaments already past the freeze keep the numbers they were paired
-- with: rating descending, then registration (the order before this
-- version).  A round robin is fixed by its table from round 1.
UPDATE players SET start_rank = (
    SELECT count(*) FROM players q WHERE q.tournament_id = players.tournament_id
        AND (q.rating > players.rating OR (q.rating = players.rating AND q.id <= players.id)))
WHERE tournament_id IN (
    SELECT t.id FROM tournaments t WHERE EXISTS (
        SELECT 1 FROM rounds r WHERE r.tournament_id = t.id
            AND r.number >= CASE t.system WHEN 'roundrobin' THEN 1 ELSE 4 END));
