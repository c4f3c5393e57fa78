-- Up Migration

-- Live streams (docs/api.md "Streams"): every committed write of a queue state, by any process or
-- by hand, notifies the channel `yardmaster_queue` with the repository's name. PostgreSQL delivers
-- a notification only when its transaction commits, to every session listening
-- (https://www.postgresql.org/docs/15/sql-notify.html), so watchers learn of a change once a read
-- can see it. The relay notifies `yardmaster_log` itself after each batch it stored.
CREATE FUNCTION yardmaster_queue_state_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('yardmaster_queue', NEW.repository);
  RETURN NULL;
END;
$$;

CREATE TRIGGER queue_states_notify AFTER INSERT OR UPDATE ON queue_states
  FOR EACH ROW EXECUTE FUNCTION yardmaster_queue_state_changed();
