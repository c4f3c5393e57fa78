-- Up Migration

-- Which outbox rows got their received_at from the service's clock (not from an imported event):
-- the oldest of them still in the outbox bounds the instant before which every event the service
-- timed itself is in ClickHouse, where a /logs listing without received_to ends its window
-- (docs/activity-log.md "Pages, cursors and links"). Rows written before this migration count as
-- imported: they are relayed within seconds of the upgrade.
ALTER TABLE event_outbox ADD COLUMN received_at_assigned boolean NOT NULL DEFAULT false;
CREATE INDEX event_outbox_assigned_received_at ON event_outbox (received_at) WHERE received_at_assigned;
