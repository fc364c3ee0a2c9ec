-- 009_event_office.sql — the tournament office: the event data and the
-- officials a FIDE rating report carries, the rating list a tournament is
-- rated on, and draft rounds.

-- The officials and event data as one JSON object (db/office.h): federation,
-- end date, round dates and times, chief arbiter, deputy arbiters, chief
-- organiser, the time control as printed, FIDE's event code.  The city and
-- the start date are the older columns place and start_date.
ALTER TABLE tournaments ADD COLUMN office TEXT NOT NULL DEFAULT '{}';
-- Which of the FIDE ratings (standard, rapid, blitz) a player added or
-- refreshed from the register gets as the rating the tournament pairs,
-- breaks ties and reports with.
ALTER TABLE tournaments ADD COLUMN rating_type TEXT NOT NULL DEFAULT 'standard'
    CHECK (rating_type IN ('standard', 'rapid', 'blitz'));

-- A paired round is a draft (NULL) that only arbiters see until it is
-- published.  Rounds paired before this version were public the moment
-- they were paired, so they count as published then.
ALTER TABLE rounds ADD COLUMN published_ms INTEGER;
UPDATE rounds SET published_ms = coalesce(started_ms, 0);
