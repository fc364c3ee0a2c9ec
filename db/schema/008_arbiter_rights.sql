-- 008_arbiter_rights.sql — who may change a tournament.
-- An administrator may change every tournament and assign arbiters to any;
-- the user who created a tournament is its chief arbiter and assigns its
-- arbiters; every other arbiter may only read it.  Accounts that existed
-- before these rights keep all they could do (administrators), so an
-- upgrade locks nobody out of his tournaments.
ALTER TABLE users ADD COLUMN admin INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1));
UPDATE users SET admin = 1;

ALTER TABLE tournaments ADD COLUMN created_by INTEGER REFERENCES users(id) ON DELETE SET NULL;

CREATE TABLE tournament_arbiters (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    granted_by    INTEGER,
    granted_ms    INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX tournament_arbiters_user ON tournament_arbiters(user_id);
