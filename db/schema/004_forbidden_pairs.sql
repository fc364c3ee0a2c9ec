-- 004_forbidden_pairs.sql — pairs of players of a tournament who must not
-- meet (family members, clubmates in events that ask for it).  The Dutch
-- engine pairs around them, the round check reports them (FORBIDDEN) and
-- the rating report writes them (XXP, or 260 with a round range) so a peer
-- pairing program sees the same constraint.

-- player_a < player_b: one row per pair whatever order it was given in.
-- first_round/last_round NULL = from the first round / to the last.
CREATE TABLE forbidden_pairs (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_a      INTEGER NOT NULL REFERENCES players(id),
    player_b      INTEGER NOT NULL REFERENCES players(id),
    first_round   INTEGER CHECK (first_round BETWEEN 1 AND 99),
    last_round    INTEGER CHECK (last_round BETWEEN 1 AND 99),
    created_ms    INTEGER NOT NULL,
    CHECK (player_a < player_b),
    CHECK (first_round IS NULL OR last_round IS NULL OR first_round <= last_round),
    PRIMARY KEY (tournament_id, player_a, player_b)
) STRICT;
