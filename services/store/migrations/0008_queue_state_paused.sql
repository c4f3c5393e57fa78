-- Up Migration

-- Whether the stored engine state is paused, kept next to the state by the runner, so the sweep
-- can compare it with queue_pauses without reading every state document
-- (docs/pause.md "The engine's pause").
ALTER TABLE queue_states ADD COLUMN paused boolean NOT NULL DEFAULT false;
UPDATE queue_states SET paused = coalesce(jsonb_typeof(state->'pause') = 'object', false);

