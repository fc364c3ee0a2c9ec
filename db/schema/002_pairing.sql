-- 002_pairing.sql — what the pairing engines and the rating report need
-- beyond the first schema: the point system and tie-break list of a
-- tournament, and the byes (requested ones and the pairing-allocated bye),
-- which have no game row because a game needs two players.

-- Points as {"win", "draw", "loss", "bye"}; the FIDE defaults.
ALTER TABLE tournaments ADD COLUMN points TEXT NOT NULL
    DEFAULT '{"win":1,"draw":0.5,"loss":0,"bye":1}';
-- Tie-breaks in TRF spelling, e.g. ["BH/C1","BH","SB","DE"]; [] = the
-- system's default list.
ALTER TABLE tournaments ADD COLUMN tiebreaks TEXT NOT NULL DEFAULT '[]';

-- kind: 'half' and 'zero' are requested byes (TRF H and Z), 'pab' the
-- pairing-allocated bye (U), 'free' the free round of an odd round robin.
CREATE TABLE byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    kind          TEXT NOT NULL CHECK (kind IN ('half', 'zero', 'pab', 'free')),
    created_ms    INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, player_id)
) STRICT;
