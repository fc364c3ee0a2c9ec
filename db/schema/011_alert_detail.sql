-- 011_alert_detail.sql — what an alert says as a code and its parameters
-- (db/alert_detail.h), beside the English message, so that a desk writes it
-- in its reader's language.  Alerts stored before have none ('{}'): a desk
-- shows their message.
ALTER TABLE alerts ADD COLUMN detail TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail));
