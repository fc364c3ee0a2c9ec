-- 006_hardening.sql — a server secret for PIN hashes, and sessions found by
-- expiry and by their holder.
-- PINs are hashed with HMAC-SHA-256 under a random key of this database, so
-- a copy of player_credentials alone does not give them away by trying
-- every PIN.  SQLite's randomblob() draws from the system's random source.
CREATE TABLE IF NOT EXISTS secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
) STRICT;
INSERT OR IGNORE INTO secrets(name, value) VALUES ('pin_hmac', randomblob(32));

-- Expiring sessions in bulk and capping each holder's sessions must not scan
-- the table.
CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions(expires_ms);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id, created_ms) WHERE user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS sessions_player ON sessions(player_id, created_ms) WHERE player_id IS NOT NULL;
