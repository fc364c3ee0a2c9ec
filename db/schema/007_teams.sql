-- 007_teams.sql — team competitions: a tournament of kind 'team' pairs teams
-- into matches; a match of N boards is N ordinary games (table games), so
-- tablets, clocks and the Laws engine see nothing new.  The match result is
-- derived from its games' results on every read, never stored, except a
-- whole match forfeited by the arbiter (matches.forfeit).

-- kind: 'individual' (every tournament so far) or 'team'.  team_settings:
-- {"boards", "match_points": {"win","draw","loss"}, "primary": "match" |
-- "game", "colours": "odd" | "even", "bye": {"match_points","game_points"}}
-- with the defaults of db/teams.c for what is absent.
ALTER TABLE tournaments ADD COLUMN kind TEXT NOT NULL DEFAULT 'individual'
    CHECK (kind IN ('individual', 'team'));
ALTER TABLE tournaments ADD COLUMN team_settings TEXT NOT NULL DEFAULT '{}';

-- pairing_number: the team's rank for the pairing (1 = strongest), fixed
-- when the first round is paired; NULL before.
CREATE TABLE teams (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    name           TEXT NOT NULL,
    federation     TEXT NOT NULL DEFAULT '',
    club           TEXT NOT NULL DEFAULT '',
    captain        TEXT NOT NULL DEFAULT '',
    pairing_number INTEGER CHECK (pairing_number >= 1),
    status         TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn')),
    UNIQUE (tournament_id, name)
) STRICT;
CREATE INDEX teams_tournament ON teams(tournament_id);

-- The roster: board_order is the fixed order of the event (1 = top board);
-- a player belongs to one team.
CREATE TABLE team_members (
    team_id     INTEGER NOT NULL REFERENCES teams(id),
    player_id   INTEGER NOT NULL UNIQUE REFERENCES players(id),
    board_order INTEGER NOT NULL CHECK (board_order >= 1),
    reserve     INTEGER NOT NULL DEFAULT 0 CHECK (reserve IN (0, 1)),
    PRIMARY KEY (team_id, player_id),
    UNIQUE (team_id, board_order)
) STRICT;

-- A captain signs in with the team's PIN (hashed as players' PINs are) or
-- uses its token as a bearer token; only hashes are kept.
CREATE TABLE team_credentials (
    team_id       INTEGER PRIMARY KEY REFERENCES teams(id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    pin_hash      TEXT NOT NULL,
    token_hash    TEXT NOT NULL UNIQUE,
    UNIQUE (tournament_id, pin_hash)
) STRICT;

-- The line-up a team submitted for a round, board by board.  A round paired
-- without one plays the default line-up (the top boards available).
CREATE TABLE lineups (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    team_id       INTEGER NOT NULL REFERENCES teams(id),
    board         INTEGER NOT NULL CHECK (board >= 1),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    submitted_ms  INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round, team_id, board)
) STRICT;

-- The arbiter's deadline for the line-ups of a round (captains only; the
-- arbiter may change a line-up until the round starts).
CREATE TABLE lineup_deadlines (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    at_ms         INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, round)
) STRICT;

-- A match of a round: team_a is the first-named team (White on the boards
-- the colour setting gives it); team_b NULL is a bye of kind bye ('pab' the
-- pairing-allocated bye of a Swiss, 'free' the free round of a round robin).
-- forfeit: '' played, 'a' / 'b' that team forfeited the whole match,
-- 'both' neither came.  colour_a: team_a's colour on board 1 (the match
-- colour the Swiss pairing balances).
CREATE TABLE matches (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    team_a        INTEGER NOT NULL REFERENCES teams(id),
    team_b        INTEGER REFERENCES teams(id),
    bye           TEXT NOT NULL DEFAULT '' CHECK (bye IN ('', 'pab', 'free')),
    forfeit       TEXT NOT NULL DEFAULT '' CHECK (forfeit IN ('', 'a', 'b', 'both')),
    colour_a      TEXT NOT NULL DEFAULT 'white' CHECK (colour_a IN ('white', 'black')),
    FOREIGN KEY (tournament_id, round) REFERENCES rounds(tournament_id, number),
    UNIQUE (tournament_id, round, table_no),
    CHECK ((team_b IS NULL) = (bye <> '')),
    CHECK (team_a <> team_b)
) STRICT;
CREATE INDEX matches_round ON matches(tournament_id, round);

-- The board games of a match; board 1..N within the match.
CREATE TABLE match_games (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    board    INTEGER NOT NULL CHECK (board >= 1),
    game_id  INTEGER NOT NULL UNIQUE REFERENCES games(id),
    PRIMARY KEY (match_id, board)
) STRICT;
