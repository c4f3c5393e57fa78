-- Up Migration

-- GitHub webhook deliveries by X-GitHub-Delivery (docs/github.md "Webhooks"), so a delivery that
-- GitHub (or an operator) sends again is acknowledged without being processed twice. A row is
-- claimed when processing starts (processed_at NULL) and completed when its events were handed
-- over; a failed handover deletes the claim so a redelivery is processed. A claim left by a
-- process that died is taken over once it is older than the claim timeout (github-deliveries.ts).
CREATE TABLE github_deliveries (
  delivery_id text PRIMARY KEY CHECK (char_length(delivery_id) BETWEEN 1 AND 200),
  event text NOT NULL,
  claimed_at timestamptz NOT NULL,
  processed_at timestamptz
);
CREATE INDEX github_deliveries_claimed_at ON github_deliveries (claimed_at);
