-- 005_fide_register.sql — a local register of FIDE's rating list, so the
-- desk finds players by FIDE ID or by name at a venue without a network.
-- `arbiter fide import` fills it from FIDE's published files and replaces it
-- whole on every import: it builds fide_players_new and fide_names_new from
-- the definitions below (read back from sqlite_master) and swaps them in,
-- so these statements are the only definition of the register.

-- One row per player.  pos is the player's place in the list sorted by
-- name: the name index uses it as its rowid, so matches come out in
-- alphabetical order and a search can stop after the first LIMIT rows.
-- A rating with its games and K is NULL when the player has none of that
-- type; inactive is FIDE's flag i (or wi).
CREATE TABLE fide_players (
    pos          INTEGER PRIMARY KEY,
    fide_id      INTEGER NOT NULL UNIQUE CHECK (fide_id > 0),
    name         TEXT NOT NULL,
    federation   TEXT NOT NULL,
    sex          TEXT NOT NULL,
    title        TEXT,
    w_title      TEXT,
    o_title      TEXT,
    foa_title    TEXT,
    std_rating   INTEGER,
    std_games    INTEGER,
    std_k        INTEGER,
    rapid_rating INTEGER,
    rapid_games  INTEGER,
    rapid_k      INTEGER,
    blitz_rating INTEGER,
    blitz_games  INTEGER,
    blitz_k      INTEGER,
    birth_year   INTEGER,
    inactive     INTEGER NOT NULL DEFAULT 0 CHECK (inactive IN (0, 1))
) STRICT;

-- The name index, without a copy of the text (content=''): name is the
-- list's spelling folded by unicode61 (case and accents), translit the
-- same name reduced to the spelling key that Cyrillic input is turned into
-- (fide_text.h).  Prefix indexes keep the first letters typed fast.
CREATE VIRTUAL TABLE fide_names USING fts5(
    name, translit,
    content = '', columnsize = 0, detail = column,
    prefix = '1 2 3',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- The list the register holds (at most one row).
CREATE TABLE fide_list (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    list_date   TEXT,
    files       TEXT NOT NULL,
    players     INTEGER NOT NULL,
    imported_ms INTEGER NOT NULL
) STRICT;
