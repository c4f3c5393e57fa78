-- Up Migration

-- When each outbox row was written (the transaction's start): the age of the oldest row still
-- waiting is the activity log's lag, shown by /readyz and by the x-yardmaster-log-lag header of
-- log reads (docs/activity-log.md "The log's lag"). received_at cannot serve: an imported event
-- carries its own, possibly years old. Rows written before this migration get its time.
ALTER TABLE event_outbox ADD COLUMN enqueued_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX event_outbox_enqueued_at ON event_outbox (enqueued_at);
