-- 010_swiss_systems.sql — how a Swiss tournament is paired: the FIDE
-- system (Dutch C.04.3 or Burstein C.04.4.2) and its acceleration (none,
-- or Baku C.04.7).  Both are read when a round is paired and written to
-- the report's 192 line; virtual points never reach the standings.
ALTER TABLE tournaments ADD COLUMN pairing_system TEXT NOT NULL DEFAULT 'dutch'
    CHECK (pairing_system IN ('dutch', 'burstein'));
ALTER TABLE tournaments ADD COLUMN acceleration TEXT NOT NULL DEFAULT 'none'
    CHECK (acceleration IN ('none', 'baku'));
