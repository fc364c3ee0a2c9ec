-- 001_init.sql — the first schema of the Arbiter store.
-- A game is its event log (game_events, append-only); games.status and
-- games.result are an index of the log kept in the same transaction, so that
-- standings and pairings do not have to replay every game.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) STRICT;

CREATE TABLE users (
    id         INTEGER PRIMARY KEY,
    username   TEXT NOT NULL UNIQUE,
    pwhash     TEXT NOT NULL,
    created_ms INTEGER NOT NULL
) STRICT;

CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    time_control TEXT NOT NULL,
    system       TEXT NOT NULL DEFAULT 'swiss' CHECK (system IN ('swiss', 'roundrobin', 'manual')),
    rounds       INTEGER,
    place        TEXT NOT NULL DEFAULT '',
    start_date   TEXT NOT NULL DEFAULT '',
    settings     TEXT NOT NULL DEFAULT '{}',
    status       TEXT NOT NULL DEFAULT 'setup' CHECK (status IN ('setup', 'running', 'finished')),
    created_ms   INTEGER NOT NULL
) STRICT;

CREATE TABLE players (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    name          TEXT NOT NULL,
    rating        INTEGER NOT NULL DEFAULT 0,
    title         TEXT NOT NULL DEFAULT '',
    federation    TEXT NOT NULL DEFAULT '',
    fide_id       TEXT NOT NULL DEFAULT '',
    sex           TEXT NOT NULL DEFAULT '',
    birth         TEXT NOT NULL DEFAULT '',
    status        TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn'))
) STRICT;
CREATE INDEX players_tournament ON players(tournament_id);

-- Only hashes are kept: the PIN and token are shown once when issued.
CREATE TABLE player_credentials (
    player_id     INTEGER PRIMARY KEY REFERENCES players(id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    pin_hash      TEXT NOT NULL,
    token_hash    TEXT NOT NULL UNIQUE,
    UNIQUE (tournament_id, pin_hash)
) STRICT;

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    INTEGER REFERENCES users(id) ON DELETE CASCADE,
    player_id  INTEGER REFERENCES players(id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL,
    CHECK ((user_id IS NULL) <> (player_id IS NULL))
) STRICT;

CREATE TABLE rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    number        INTEGER NOT NULL CHECK (number >= 1),
    status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'paused', 'finished')),
    started_ms    INTEGER,
    PRIMARY KEY (tournament_id, number)
) STRICT;

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL CHECK (board >= 1),
    white_id      INTEGER NOT NULL REFERENCES players(id),
    black_id      INTEGER NOT NULL REFERENCES players(id),
    status        TEXT NOT NULL DEFAULT 'pending',
    result        TEXT NOT NULL DEFAULT '*',
    FOREIGN KEY (tournament_id, round) REFERENCES rounds(tournament_id, number),
    UNIQUE (tournament_id, round, board),
    CHECK (white_id <> black_id)
) STRICT;
CREATE INDEX games_white ON games(white_id);
CREATE INDEX games_black ON games(black_id);

-- The scoresheets.  id orders every event of the store (the live streams use
-- it as their event id); seq numbers the events of one game from 1.
CREATE TABLE game_events (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    at_ms   INTEGER NOT NULL,
    body    TEXT NOT NULL,
    UNIQUE (game_id, seq)
) STRICT;

CREATE TRIGGER game_events_append_only_update BEFORE UPDATE ON game_events
BEGIN SELECT RAISE(ABORT, 'game events are append-only'); END;
CREATE TRIGGER game_events_append_only_delete BEFORE DELETE ON game_events
BEGIN SELECT RAISE(ABORT, 'game events are append-only'); END;

CREATE TABLE alerts (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    game_id       INTEGER REFERENCES games(id),
    kind          TEXT NOT NULL,
    at_ms         INTEGER NOT NULL,
    message       TEXT NOT NULL,
    resolved      INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX alerts_tournament ON alerts(tournament_id, id);

CREATE TABLE audit (
    id        INTEGER PRIMARY KEY,
    at_ms     INTEGER NOT NULL,
    user_id   INTEGER,
    player_id INTEGER,
    action    TEXT NOT NULL,
    target    TEXT NOT NULL,
    detail    TEXT NOT NULL DEFAULT '{}'
) STRICT;

CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
