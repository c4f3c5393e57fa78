-- Up Migration

-- The engine's trains name their batches `batches` (docs/domain.md "Glossary"; the code called
-- them cars before). Stored states written before are renamed in place: each train's `cars` key
-- becomes `batches`, its value and the order of the trains unchanged.
UPDATE queue_states
SET state = jsonb_set(state, '{trains}', (
  SELECT coalesce(jsonb_agg(
    CASE WHEN train ? 'cars' THEN (train - 'cars') || jsonb_build_object('batches', train -> 'cars') ELSE train END
    ORDER BY position), '[]'::jsonb)
  FROM jsonb_array_elements(state -> 'trains') WITH ORDINALITY AS t(train, position)
))
WHERE jsonb_typeof(state -> 'trains') = 'array'
  AND EXISTS (SELECT 1 FROM jsonb_array_elements(state -> 'trains') AS t(train) WHERE train ? 'cars');
